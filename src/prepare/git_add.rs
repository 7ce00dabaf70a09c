//! What `git add` reads ([`shell::Role::WalkUnignored`]): the files below its pathspec
//! that git does not ignore, found with the `ignore` crate (ripgrep's walker) reading
//! git's rules (`.gitignore` here and above, `.git/info/exclude`, the global excludes
//! file), and the files git's index lists there.

use super::walks::{Walked, MAX_WALK_ENTRIES};
use super::Prepared;
use crate::index::BitSet;
use crate::shell;

impl Prepared<'_> {
    /// The rules of RULES that a file `git add` reads below DIR (absolute, normalized)
    /// matches; LEFT: the entries the call may still look at.
    pub(super) fn unignored_meets(&self, dir: &str, rules: &BitSet, left: &mut usize) -> Walked {
        // The tracked files, ignored or not.
        let mut found = match self.store_meets(dir, rules) {
            Walked::Meets(m) => m,
            other => return other,
        };
        let fold = self.path_env().case_fold;
        let walk = ignore::WalkBuilder::new(dir)
            .hidden(false)
            .ignore(false)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(true)
            .parents(true)
            .require_git(true)
            .follow_links(false)
            // git never adds its own repository.
            .filter_entry(|e| e.file_name() != ".git")
            .build();
        let mut entries = 0usize;
        for entry in walk {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let why = format!("what git ignores below `{dir}` is not known: {e}");
                    return Walked::Unread(shell::Unsure::GitStore(why));
                }
            };
            entries += 1;
            if entries > MAX_WALK_ENTRIES || *left == 0 {
                return Walked::TooLarge;
            }
            *left -= 1;
            let text = entry.path().to_string_lossy();
            let text = if fold {
                text.to_lowercase()
            } else {
                text.into_owned()
            };
            self.meet(&text, rules, &mut found);
        }
        Walked::Meets(found)
    }
}
