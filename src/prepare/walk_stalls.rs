//! Ignore files the `ignore` crate's walker would wait on for ever: the walks of rg and
//! `git add` ([`super::rg_walk`], [`super::git_add`]) read each directory's ignore files
//! with a plain `open`, and an earlier call may have made one a FIFO (`mkfifo
//! .gitignore`); the decision runs in Emacs's own thread. Such a walk is not taken (the
//! caller reads every file): the directories above where it starts are looked at before
//! it, each directory below before the walker enters it ([`Guard`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The ignore files the walker reads in each directory it enters.
const READ_IN_EACH: &[&str] = &[".gitignore", ".ignore", ".rgignore"];

/// Whether a file the walker reads for DIR (its ignore files, its repository's
/// `info/exclude`, through a `.git` file's `gitdir:` and that repository's `commondir`
/// as the crate follows them) is a FIFO, socket or device. Four lookups for a
/// directory with no `.git`.
pub(super) fn dir_stalls(dir: &Path) -> bool {
    if READ_IN_EACH
        .iter()
        .any(|n| crate::path::is_special(&dir.join(n)))
    {
        return true;
    }
    let dotgit = dir.join(".git");
    match std::fs::metadata(&dotgit) {
        Ok(m) if m.is_dir() => crate::path::is_special(&dotgit.join("info/exclude")),
        Ok(m) if m.is_file() => git_file_stalls(&dotgit),
        _ => false,
    }
}

/// [`dir_stalls`] for the files a `.git` file DOTGIT leads the crate to: `gitdir: X`,
/// then `X/commondir` and the `info/exclude` of the directory it names.
fn git_file_stalls(dotgit: &Path) -> bool {
    let line = match first_line(dotgit) {
        Ok(Some(line)) => line,
        Ok(None) => return false,
        Err(()) => return true,
    };
    let Some(real) = line
        .strip_prefix("gitdir: ")
        .map(|rest| PathBuf::from(rest.to_string()))
    else {
        return false;
    };
    let commondir = real.join("commondir");
    let line = match first_line(&commondir) {
        Ok(Some(line)) => line,
        Ok(None) => return false,
        Err(()) => return true,
    };
    let common = if line.starts_with('.') {
        real.join(line)
    } else {
        PathBuf::from(line)
    };
    crate::path::is_special(&common.join("info/exclude"))
}

/// The first line of the regular file PATH (None when there is none there); Err when
/// it is there but cannot be read here (a FIFO, too large: the crate reads its first line
/// with a plain open).
fn first_line(path: &Path) -> Result<Option<String>, ()> {
    match crate::path::read_small(path, 16 << 20) {
        Ok(text) => {
            let text = String::from_utf8_lossy(&text);
            Ok(Some(text.lines().next().unwrap_or("").to_string()))
        }
        Err(e) if crate::path::absent(&e) => Ok(None),
        Err(_) => Err(()),
    }
}

/// Whether a global file the walker reads (git's configuration: the home's, the XDG
/// one, `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `/etc/gitconfig`, read with a plain
/// open to find the excludes file) is a FIFO, socket or device. (The excludes file itself
/// the crate reads only when it is a regular file.)
pub(super) fn globals_stall() -> bool {
    super::git_globals::all_configs()
        .iter()
        .any(|f| crate::path::is_special(f))
}

/// Whether the walk from DIR stalls before it starts: the files the walker reads for
/// DIR and each directory above it, and the global ones.
pub(super) fn start_stalls(dir: &Path) -> bool {
    globals_stall() || dir.ancestors().any(dir_stalls)
}

/// A walk's watch on the directories it enters: its filter keeps the walker out of a
/// directory whose files would stall it, and remembers that it did.
#[derive(Clone, Default)]
pub(super) struct Guard(Arc<AtomicBool>);

impl Guard {
    /// The walker's entry filter: false (not entered) for a directory that stalls,
    /// and for a directory named `.git` when SKIP_GIT.
    pub(super) fn filter(
        &self,
        skip_git: bool,
    ) -> impl Fn(&ignore::DirEntry) -> bool + Send + Sync + 'static {
        let raised = self.0.clone();
        move |e: &ignore::DirEntry| {
            if skip_git && e.file_name() == ".git" {
                return false;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            if is_dir && dir_stalls(e.path()) {
                raised.store(true, Ordering::Relaxed);
                return false;
            }
            true
        }
    }

    /// Whether the walk left out a directory that would have stalled it.
    pub(super) fn raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
