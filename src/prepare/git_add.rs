//! What `git add` reads ([`shell::Role::WalkUnignored`]): the files below its pathspec
//! that git does not ignore, found with the `ignore` crate (ripgrep's walker) reading
//! git's rules (`.gitignore` here and above, `.git/info/exclude`, the global excludes
//! file), and the files git's index lists there.

use super::walk_stalls::Guard;
use super::walks::{Filters, Walked, MAX_WALK_ENTRIES};
use super::Prepared;
use crate::index::BitSet;
use crate::shell;
use std::path::Path;

impl Prepared<'_> {
    /// The rules of RULES that a file `git add` reads below DIR (absolute, normalized)
    /// matches (of the untracked ones, those `git grep --untracked`'s pathspec patterns
    /// in FILTERS choose); LEFT: the entries the call may still look at. None where git
    /// may ignore otherwise than this walker ([`git_reads_otherwise`]).
    pub(super) fn unignored_meets(
        &self,
        dir: &str,
        rules: &BitSet,
        filters: &Filters,
        left: &mut usize,
    ) -> Option<Walked> {
        if super::walk_stalls::start_stalls(Path::new(dir)) {
            return None;
        }
        if let Some((top, git_dir)) = self.repo_of(dir) {
            if git_reads_otherwise(Path::new(dir), &top, &git_dir) {
                return None;
            }
        }
        // The tracked files, ignored or not.
        let mut found = match self.store_meets(dir, rules, None, false) {
            Walked::Meets(m) => m,
            other => return Some(other),
        };
        // Nothing there (the start of a pattern, `git grep --untracked x -- '*.rs'`):
        // only what git tracks.
        let fold = self.path_env().case_fold;
        if !fold && std::fs::symlink_metadata(dir).is_err_and(|e| crate::path::absent(&e)) {
            return Some(Walked::Meets(found));
        }
        let guard = Guard::default();
        let walk = walker(dir, &guard).build();
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
            if is_dir && gitignore_differs(entry.path()) {
                return None;
            }
            let chosen = is_dir
                || fold
                || (filters.pathspecs.as_ref()).is_none_or(|s| s.opens(dir, entry.path()));
            if !chosen {
                continue;
            }
            let text = entry.path().to_string_lossy();
            let text = if fold {
                text.to_lowercase()
            } else {
                text.into_owned()
            };
            self.meet(&text, rules, &mut found);
        }
        if guard.raised() {
            return None;
        }
        Some(Walked::Meets(found))
    }
}

/// The walker of what git does not ignore below DIR: git's rules only (no `.ignore`),
/// dotfiles kept, its own repository left out, kept out of directories that would
/// stall it by GUARD.
pub(super) fn walker(dir: &str, guard: &Guard) -> ignore::WalkBuilder {
    let mut walk = ignore::WalkBuilder::new(dir);
    walk.hidden(false)
        .ignore(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .parents(true)
        .require_git(true)
        .follow_links(false)
        // git never adds its own repository.
        .filter_entry(guard.filter(true));
    walk
}

/// Whether git may read DIR's `.gitignore` otherwise than this walker: a symbolic link,
/// which git does not read (it opens it with `O_NOFOLLOW`) and this walker does; a text
/// git reads otherwise ([`super::ignore_lines::git_reads_otherwise`]); or a `.jj` that
/// makes DIR a repository for this walker alone.
fn gitignore_differs(dir: &Path) -> bool {
    let file = dir.join(".gitignore");
    std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_symlink())
        || reads_otherwise(&file)
        || super::rg_walk::jj_only(dir)
}

/// Whether git may read the ignore file FILE otherwise than this walker.
fn reads_otherwise(file: &Path) -> bool {
    match crate::path::read_small(file, super::rg_walk::MAX_IGNORE_BYTES) {
        Ok(t) => super::ignore_lines::git_reads_otherwise(&t),
        // Not there, or `/dev/null` (one that would stall the walk is `walk_stalls`'s).
        Err(e) if crate::path::absent(&e) || crate::path::is_special(file) => false,
        // Too large, or not readable here.
        Err(_) => true,
    }
}

/// Whether git may ignore below DIR (in the work tree TOP, repository GIT_DIR)
/// otherwise than this walker: a `.gitignore` there or above it up to TOP read
/// otherwise ([`gitignore_differs`]), git's `info/exclude` or the global excludes file
/// read otherwise, a repository configuration that names an excludes file of its own
/// or includes another (this walker reads the global one only), or a global
/// configuration read otherwise ([`super::rg_walk::global_excludes_differ`]).
fn git_reads_otherwise(dir: &Path, top: &Path, git_dir: &Path) -> bool {
    let config = match crate::path::read_small(&git_dir.join("config"), 1 << 20) {
        Ok(c) => String::from_utf8_lossy(&c).to_ascii_lowercase(),
        Err(e) if crate::path::absent(&e) => String::new(),
        // Too large or unreadable: it may name an excludes file.
        Err(_) => return true,
    };
    config.contains("excludesfile")
        || config.contains("[include")
        || super::rg_walk::global_excludes_differ()
        || reads_otherwise(&git_dir.join("info/exclude"))
        || ignore::gitignore::gitconfig_excludes_path().is_some_and(|f| reads_otherwise(&f))
        // DIR's own `.gitignore` is looked at by the walk, as each directory's below.
        || dir
            .ancestors()
            .skip(1)
            .take_while(|a| a.starts_with(top))
            .any(gitignore_differs)
}
