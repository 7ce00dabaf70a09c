//! rg's walk, looked through as rg walks (rg's own walker, the `ignore` crate): it skips
//! names that start with `.` below the top and what `.gitignore` (in a repository),
//! `.ignore`, `.rgignore`, `.git/info/exclude` and git's global excludes file ignore,
//! unless a `!` line brings them back; with `--hidden`, dotfiles too (`.git` included).
//! Used when the command leaves rg's ignore handling as it is (no `--no-ignore*`,
//! `--no-require-git`, and no configuration file named by `RIPGREP_CONFIG_PATH`). Where
//! rg may read an ignore file otherwise than this walker does ([`reads_differently`],
//! [`global_excludes_differ`]), the walk is not taken: the caller reads every file.

use super::walk_stalls::{self, Guard};
use super::walks::{Filters, RgIgnores, Walked, MAX_WALK_ENTRIES};
use super::Prepared;
use crate::index::BitSet;
use std::path::Path;

/// The names of the ignore files rg reads in each directory.
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".rgignore"];

/// Largest ignore file read to see whether rg reads it otherwise; a larger one counts
/// as one it does (so does one that cannot be read here).
pub(super) const MAX_IGNORE_BYTES: u64 = 16 << 20;

/// Whether rg may read the ignore file at PATH otherwise than this walker (a newer
/// `ignore` crate) does: a line rg 13 reads otherwise
/// ([`super::ignore_lines::rg_reads_otherwise`]); and a file that applies above the
/// directory rg starts in (ABOVE: a parent's, git's `info/exclude` or global file when
/// rg starts below the top) with a pattern that holds a `/` (`sub/.env`, `/sub/.env`),
/// which rg 13 does not apply to the files below where it starts. A file this walker
/// skips rg would then read.
pub(super) fn reads_differently(path: &Path, above: bool) -> bool {
    let text = match crate::path::read_small(path, MAX_IGNORE_BYTES) {
        Ok(text) => text,
        // None there; or a FIFO, socket or device (`/dev/null` as the global excludes
        // file reads as empty; one that would stall the walk is `walk_stalls`'s).
        Err(e) if crate::path::absent(&e) || crate::path::is_special(path) => return false,
        // Too large, or not readable here: rg may read it otherwise.
        Err(_) => return true,
    };
    super::ignore_lines::rg_reads_otherwise(&text)
        || (above
            && String::from_utf8_lossy(&text).lines().any(|l| {
                let l = l.trim();
                !l.starts_with('#')
                    && l.trim_start_matches('!')
                        .trim_end_matches('/')
                        .contains('/')
            }))
}

/// Whether DIR holds a `.jj` (jujutsu's repository) and no `.git`: this walker then
/// takes DIR for a repository and honours `.gitignore` there; rg 13 and git do not.
pub(super) fn jj_only(dir: &Path) -> bool {
    dir.join(".jj").exists() && !dir.join(".git").exists()
}

/// Whether an ignore file in DIR is one rg may read otherwise ([`reads_differently`]),
/// or DIR is a repository only for this walker ([`jj_only`]).
fn dir_differs(dir: &Path, above: bool) -> bool {
    jj_only(dir)
        || IGNORE_FILES
            .iter()
            .any(|n| reads_differently(&dir.join(n), above))
}

/// Whether git's global configuration names its excludes file in a way that rg 13,
/// git and this walker may read differently: more than one `excludesFile` (git takes
/// the last, an empty one resets it), one outside a plain `[core]` section (`[core
/// "x"]`), a quoted or escaped value, trailing blanks or a CR, or an `[include]`.
/// (rg 13 and this walker read one plain `excludesFile` of `~/.gitconfig` or the XDG
/// file alike, as git does.)
pub(super) fn global_excludes_differ() -> bool {
    // The crate also takes an excludes file from `GIT_CONFIG_GLOBAL`,
    // `GIT_CONFIG_SYSTEM` and `/etc/gitconfig`; rg 13 does not (helper-62): one that
    // names any is read otherwise.
    let user = super::git_globals::user_configs();
    for f in super::git_globals::all_configs()
        .iter()
        .filter(|f| !user.contains(f))
    {
        match crate::path::read_small(f, MAX_IGNORE_BYTES) {
            Ok(t)
                if String::from_utf8_lossy(&t)
                    .to_ascii_lowercase()
                    .contains("excludesfile") =>
            {
                return true
            }
            Ok(_) => {}
            Err(e) if crate::path::absent(&e) => {}
            Err(_) => return true,
        }
    }
    let mut texts: Vec<String> = Vec::new();
    for f in user {
        match crate::path::read_small(&f, MAX_IGNORE_BYTES) {
            Ok(t) => texts.push(String::from_utf8_lossy(&t).to_ascii_lowercase()),
            Err(e) if crate::path::absent(&e) => {}
            // Too large, unreadable, or not a plain file: read otherwise, maybe.
            Err(_) => return true,
        }
    }
    excludes_differ_in(&texts)
}

/// [`global_excludes_differ`] on the configuration files TEXTS (lower case).
fn excludes_differ_in(texts: &[String]) -> bool {
    let mut named = 0;
    for text in texts {
        let mut section = String::new();
        for raw in text.split('\n') {
            let line = raw.trim_start();
            if line.starts_with('[') {
                if line.starts_with("[include") {
                    return true;
                }
                section = line.trim_end().to_string();
                continue;
            }
            if line.starts_with(['#', ';']) || !line.contains("excludesfile") {
                continue;
            }
            named += 1;
            let value = line.split_once('=').map(|(_, v)| v.trim_start());
            let plain = section == "[core]"
                && raw == raw.trim_end()
                && value.is_some_and(|v| !v.is_empty() && !v.contains(['"', '\\', ';', '#']));
            if !plain || named > 1 {
                return true;
            }
        }
    }
    false
}

/// rg's walker below DIR reading the ignore files READS says (as rg 13 sets its
/// walker from `--no-ignore-dot` and its kin), dotfiles skipped when SKIP_HIDDEN (no
/// `--hidden`), kept out of directories that would stall it by GUARD.
pub(super) fn walker(
    dir: &str,
    skip_hidden: bool,
    reads: RgIgnores,
    guard: &Guard,
) -> ignore::WalkBuilder {
    let mut walk = ignore::WalkBuilder::new(dir);
    walk.filter_entry(guard.filter(false));
    walk.hidden(skip_hidden)
        .ignore(reads.dot)
        .git_ignore(reads.vcs)
        .git_exclude(reads.vcs && reads.exclude)
        .git_global(reads.vcs && reads.global)
        .parents(reads.parent)
        .require_git(true)
        .follow_links(false)
        .add_custom_ignore_filename(".rgignore");
    walk
}

impl Prepared<'_> {
    /// The rules of RULES that a file rg opens below DIR (absolute, normalized)
    /// matches, FILTERS choosing among them, dotfiles skipped when SKIP_HIDDEN (no
    /// `--hidden`); LEFT: the entries the call may still look at. None when rg may
    /// read an ignore file here or above otherwise than this walker does.
    pub(super) fn rg_meets(
        &self,
        dir: &str,
        skip_hidden: bool,
        rules: &BitSet,
        filters: &Filters,
        left: &mut usize,
    ) -> Option<Walked> {
        // The ignore files above DIR (rg reads them all), git's own, and those of each
        // directory the walk enters (below).
        if walk_stalls::start_stalls(Path::new(dir)) {
            return None;
        }
        let repo = self.repo_of(dir);
        let below_top = repo
            .as_ref()
            .is_some_and(|(top, _)| top.as_path() != Path::new(dir));
        let git_files = ignore::gitignore::gitconfig_excludes_path()
            .into_iter()
            .chain(repo.map(|(_, g)| g.join("info/exclude")));
        if global_excludes_differ()
            || Path::new(dir)
                .ancestors()
                .skip(1)
                .any(|a| dir_differs(a, true))
            || git_files
                .into_iter()
                .any(|f| reads_differently(&f, below_top))
        {
            return None;
        }
        let mut found = BitSet::new(self.n());
        let guard = Guard::default();
        let mut walk = walker(dir, skip_hidden, filters.rg_reads, &guard);
        if let Some(types) = &filters.rg_types {
            walk.types(types.clone());
        }
        let walk = walk.build();
        let mut entries = 0usize;
        // An error (an ignore file not read whole, a path too long to name): rg may
        // walk otherwise; the caller reads every file.
        for entry in walk {
            let Ok(entry) = entry else {
                return None;
            };
            entries += 1;
            if entries > MAX_WALK_ENTRIES || *left == 0 {
                return Some(Walked::TooLarge);
            }
            *left -= 1;
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if is_dir && dir_differs(entry.path(), false) {
                return None;
            }
            let name = entry.file_name().to_string_lossy();
            let opened = is_dir || (filters.hands_files() && filters.opens(&name));
            if !opened || (is_dir && !filters.enters(&name)) {
                continue;
            }
            let text = entry.path().to_string_lossy();
            self.meet(&text, rules, &mut found);
        }
        if guard.raised() {
            return None;
        }
        Some(Walked::Meets(found))
    }
}

#[cfg(test)]
mod tests {
    use super::excludes_differ_in;

    #[test]
    fn excludes_files_read_alike_or_not() {
        let differ = |t: &str| excludes_differ_in(&[t.to_ascii_lowercase()]);
        for plain in [
            "",
            "[user]\n\tname = x\n",
            "[core]\n\texcludesFile = ~/.gitignore_global\n",
            "[Core]\nexcludesfile=/home/u/gi\n",
        ] {
            assert!(!differ(plain), "{plain:?}");
        }
        for odd in [
            "[core]\n\texcludesFile = \"~/gi\"\n",
            "[core]\n\texcludesFile = ~/gi  \n",
            "[core]\r\n\texcludesFile = ~/gi\r\n",
            "[core \"x\"]\n\texcludesFile = ~/gi\n",
            "[core]\n\texcludesFile = ~/gi\n\texcludesFile = ~/gj\n",
            "[core]\n\texcludesFile = ~/gi\n\texcludesFile =\n",
            "[include]\n\tpath = other\n",
        ] {
            assert!(differ(odd), "{odd:?}");
        }
    }
}
