//! What the pathspec patterns of `git grep --untracked` and `git grep --no-index` choose
//! of the directory they walk (helper-67: `git grep --untracked x -- '*.rs'` was denied
//! where an untracked `.env` is, which `*.rs` leaves out).
//!
//! git matches a pattern without magic against a file's path from the directory it runs
//! in, as fnmatch does without `FNM_PATHNAME` (its `*` and `?` cross `/` and match a
//! leading `.`: `s*c` matches `src/abc` and `sub/abc`), or the pattern as written is
//! the path or a directory above it (`[e]` names a directory `[e]`). The walk of the
//! pattern's literal leading directories (`src` of `src/*.rs`, `.` of `*.rs`: see
//! `git_tree::patterns`) then opens only the files some pattern starting there matches.
//! Checked against git by `tests/name_globs_real.rs`.
//!
//! So are those of a subcommand that prints no file's contents (`git log --oneline --
//! '*.rs'`, `git diff --stat -- '*.rs'`: see `git_store::quiet_patterns`).
//!
//! Read only where every pathspec is such a pattern: a plain one (`src`) walks its
//! directory whole, and magic (`:!x`, `:(icase)`, `:/`) is not read here. Patterns in
//! any case (`--icase-pathspecs`, `GIT_ICASE_PATHSPECS`) are not read either.

use super::fnmatch::fnmatch;
use super::Prepared;
use crate::rule::Arg;
use crate::shell::{self, Kind};
use globset::GlobMatcher;

/// The patterns of one `git grep`, each with the directory its walk starts at.
#[derive(Default)]
pub(super) struct Pathspecs {
    patterns: Vec<(String, String, GlobMatcher)>,
    /// The start of the walk being looked at (see [`Pathspecs::set_root`]).
    root: Option<String>,
}

impl Pathspecs {
    /// The patterns of C (read as R), where it is `git grep` walking the directory
    /// (an operand in a role that opens the files below it) and every pathspec is a
    /// pattern read here.
    pub(super) fn of(c: &shell::SimpleCommand, r: &shell::Reading) -> Option<Pathspecs> {
        let k = shell::git_subcommand(&c.argv)?;
        let sub = c.argv.get(k).map(String::as_str)?;
        if sub != "grep" && !shell::quiet_patterns(sub, c.argv.get(k + 1..).unwrap_or_default()) {
            return None;
        }
        // `git --icase-pathspecs grep`.
        let globals = c.argv.get(1..k).unwrap_or_default();
        if globals
            .iter()
            .any(|w| w.to_ascii_lowercase().contains("icase"))
        {
            return None;
        }
        // `git grep`'s operands that open files; the pathspecs of a subcommand that
        // prints none (after `--`, when it is given: revisions come before it).
        let end = r.parts.iter().position(|p| p.kind == Kind::End);
        let mut patterns = Vec::new();
        for (at, part) in r.parts.iter().enumerate() {
            let spec = match sub {
                "grep" => super::walks::opens_files(part.role),
                _ => part.role.is_path() && end.is_none_or(|e| at > e),
            };
            if part.kind != Kind::Operand || !spec {
                continue;
            }
            let start = start(&part.text)?;
            let glob = fnmatch(&part.text, false).ok()?;
            patterns.push((start, part.text.clone(), glob));
        }
        (!patterns.is_empty()).then_some(Pathspecs {
            patterns,
            root: None,
        })
    }

    /// Look at the walk of the word RAW next: the patterns that start there choose
    /// what it opens (none does for another word: it is walked whole).
    pub(super) fn set_root(&mut self, raw: &str) {
        self.root = Some(raw.to_string());
    }

    /// The walk being looked at (see [`Pathspecs::set_root`]), for the walk's cache.
    pub(super) fn root(&self) -> Option<&str> {
        self.root.as_deref()
    }

    /// Whether the walk of DIR (the directory the root word names) opens the file
    /// PATH below it.
    pub(super) fn opens(&self, dir: &str, path: &std::path::Path) -> bool {
        let Some(root) = &self.root else {
            return true;
        };
        let mut starting = self
            .patterns
            .iter()
            .filter(|(s, _, _)| s == root)
            .peekable();
        if starting.peek().is_none() {
            return true;
        }
        let Ok(below) = path.strip_prefix(dir) else {
            return true;
        };
        let below = below.to_string_lossy();
        let from_here = match root.as_str() {
            "." => below.into_owned(),
            root => format!("{root}/{below}"),
        };
        starting.any(|(_, text, glob)| {
            glob.is_match(&from_here)
                || from_here
                    .strip_prefix(text.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }
}

impl Prepared<'_> {
    /// Whether git may match the call's pathspecs in any case: `GIT_ICASE_PATHSPECS`
    /// in the environment, or a command argument that names `icase` anywhere (`export
    /// GIT_ICASE_PATHSPECS=1; git grep ...`) or is not text.
    pub(super) fn pathspecs_may_fold(&self) -> bool {
        std::env::var_os("GIT_ICASE_PATHSPECS").is_some()
            || self.call.args.iter().any(|(key, value)| match value {
                Arg::Str(text) | Arg::Invalid(text) => {
                    self.is_command_key(key) && text.to_ascii_lowercase().contains("icase")
                }
                Arg::Null | Arg::Unread | Arg::Int(_) | Arg::Float(_) | Arg::Bool(_) => false,
                _ => self.is_command_key(key),
            })
    }
}

/// The directory the walk of pattern TEXT starts at (its literal leading directories,
/// `.` for none); None where TEXT is no pattern read here: no wildcard (a plain
/// pathspec), magic (`:`), an absolute path, a `.` or `..` step or an empty one (git
/// makes the path its own way first), or a backslash (an escape).
fn start(text: &str) -> Option<String> {
    let wild = |c: &str| c.contains(['*', '?', '[']);
    if !wild(text)
        || text.starts_with([':', '/'])
        || text.contains('\\')
        || text
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return None;
    }
    let literal: Vec<&str> = text.split('/').take_while(|c| !wild(c)).collect();
    Some(match literal.join("/") {
        s if s.is_empty() => ".".to_string(),
        s => s,
    })
}

#[cfg(test)]
mod tests {
    use super::start;

    #[test]
    fn where_a_pattern_starts() {
        assert_eq!(start("*.rs").as_deref(), Some("."));
        assert_eq!(start("src/*.rs").as_deref(), Some("src"));
        assert_eq!(start("src/a/b*/c").as_deref(), Some("src/a"));
        for no in [
            "src",
            ":!x",
            ":(glob)*.rs",
            "/x/*",
            "./*.rs",
            "../*.rs",
            "a//*",
            "\\*",
        ] {
            assert_eq!(start(no), None, "{no}");
        }
    }
}
