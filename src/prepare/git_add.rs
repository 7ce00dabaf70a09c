//! What `git add` reads ([`shell::Role::WalkUnignored`]): the files below its pathspec
//! that git does not ignore, found with the `ignore` crate (ripgrep's walker) reading
//! git's rules (`.gitignore` here and above, `.git/info/exclude`, the global excludes
//! file), and the files git's index lists there.

use super::walks::{Walked, MAX_WALK_ENTRIES};
use super::Prepared;
use crate::index::BitSet;
use crate::shell;
use std::path::Path;

impl Prepared<'_> {
    /// The rules of RULES that a file `git add` reads below DIR (absolute, normalized)
    /// matches; LEFT: the entries the call may still look at. None where git may
    /// ignore otherwise than this walker ([`git_reads_otherwise`]).
    pub(super) fn unignored_meets(
        &self,
        dir: &str,
        rules: &BitSet,
        left: &mut usize,
    ) -> Option<Walked> {
        if let Some((top, git_dir)) = self.repo_of(dir) {
            if git_reads_otherwise(Path::new(dir), &top, &git_dir) {
                return None;
            }
        }
        // The tracked files, ignored or not.
        let mut found = match self.store_meets(dir, rules) {
            Walked::Meets(m) => m,
            other => return Some(other),
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
                    return Some(Walked::Unread(shell::Unsure::GitStore(why)));
                }
            };
            entries += 1;
            if entries > MAX_WALK_ENTRIES || *left == 0 {
                return Some(Walked::TooLarge);
            }
            *left -= 1;
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if is_dir && linked_gitignore(entry.path()) {
                return None;
            }
            let text = entry.path().to_string_lossy();
            let text = if fold {
                text.to_lowercase()
            } else {
                text.into_owned()
            };
            self.meet(&text, rules, &mut found);
        }
        Some(Walked::Meets(found))
    }
}

/// Whether DIR holds a `.gitignore` that is a symbolic link, which git does not read
/// (it opens it with `O_NOFOLLOW`) and this walker does.
fn linked_gitignore(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(".gitignore")).is_ok_and(|m| m.file_type().is_symlink())
}

/// Whether git may ignore below DIR (in the work tree TOP, repository GIT_DIR)
/// otherwise than this walker: a linked `.gitignore` there or above it up to TOP, or a
/// repository configuration that names an excludes file of its own or includes another
/// (this walker reads the global one only), or a global one read otherwise
/// ([`super::rg_walk::global_excludes_differ`]).
fn git_reads_otherwise(dir: &Path, top: &Path, git_dir: &Path) -> bool {
    let config = std::fs::read(git_dir.join("config"))
        .map(|c| String::from_utf8_lossy(&c).to_ascii_lowercase())
        .unwrap_or_default();
    config.contains("excludesfile")
        || config.contains("[include")
        || super::rg_walk::global_excludes_differ()
        || dir
            .ancestors()
            .take_while(|a| a.starts_with(top))
            .any(linked_gitignore)
}
