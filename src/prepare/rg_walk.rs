//! rg's walk, looked through as rg walks (rg's own walker, the `ignore` crate): it skips
//! names that start with `.` below the top and what `.gitignore` (in a repository),
//! `.ignore`, `.rgignore`, `.git/info/exclude` and git's global excludes file ignore,
//! unless a `!` line brings them back; with `--hidden`, dotfiles too (`.git` included). Used when the command leaves rg's ignore
//! handling as it is (no `--no-ignore*`, `--no-require-git`, and no configuration file
//! named by `RIPGREP_CONFIG_PATH`).

use super::walks::{Filters, Walked, MAX_WALK_ENTRIES};
use super::Prepared;
use crate::index::BitSet;

impl Prepared<'_> {
    /// The rules of RULES that a file rg opens below DIR (absolute, normalized)
    /// matches, FILTERS choosing among them, dotfiles skipped when SKIP_HIDDEN (no
    /// `--hidden`); LEFT: the entries the call may still look at.
    pub(super) fn rg_meets(
        &self,
        dir: &str,
        skip_hidden: bool,
        rules: &BitSet,
        filters: &Filters,
        left: &mut usize,
    ) -> Walked {
        let mut found = BitSet::new(self.n());
        let walk = ignore::WalkBuilder::new(dir)
            .hidden(skip_hidden)
            .ignore(true)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(true)
            .parents(true)
            .require_git(true)
            .follow_links(false)
            .add_custom_ignore_filename(".rgignore")
            .build();
        let mut entries = 0usize;
        // An entry rg cannot read is one it does not open either.
        for entry in walk.flatten() {
            entries += 1;
            if entries > MAX_WALK_ENTRIES || *left == 0 {
                return Walked::TooLarge;
            }
            *left -= 1;
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let name = entry.file_name().to_string_lossy();
            let opened = is_dir || (filters.hands_files() && filters.opens(&name));
            if !opened || (is_dir && !filters.enters(&name)) {
                continue;
            }
            let text = entry.path().to_string_lossy();
            self.meet(&text, rules, &mut found);
        }
        Walked::Meets(found)
    }
}
