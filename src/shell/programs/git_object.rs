//! git's object names (`gitrevisions(7)`): which file an object written `REV:PATH` or
//! `:N:PATH` names, split as git splits it (`get_oid_with_context`): at the first `:`
//! outside `{...}`, so `HEAD@{12:00}:.env` and `HEAD^{/fix: x}:.env` name `.env`.

/// The file an object name names, as git reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ObjectPath<'a> {
    /// Relative to the top of the work tree (`HEAD:src/x`, `:0:.env`).
    Top(&'a str),
    /// Relative to the directory git runs in (`HEAD:./x`, `HEAD:../x`).
    Here(&'a str),
}

/// The subcommands of git that take objects, where `REV:PATH` (`HEAD:.env`,
/// `HEAD~2:src/x`, `:0:.env`) names a file under the top of the work tree.
pub(crate) const OBJECT_SUBCOMMANDS: &[&str] = &[
    "show",
    "cat-file",
    "diff",
    "difftool",
    "log",
    "whatchanged",
    "archive",
    "grep",
    "ls-tree",
    "rev-parse",
    "diff-tree",
    "blame",
    "annotate",
    "shortlog",
    "checkout",
    "restore",
];

/// The path of the object W names, if W names a file of a tree or the index: `HEAD:.env`
/// and `:0:.env` name `.env`; `HEAD@{0:0}:.env` too. None for a revision alone
/// (`HEAD@{12:00}`), a commit-message search (`:/fix: x`), `:PATH` (read as pathspec
/// magic by the caller), an empty path (`HEAD:`, the root tree) or a URL (`https://x`).
pub(crate) fn object_path(w: &str) -> Option<ObjectPath<'_>> {
    let path = if let Some(rest) = w.strip_prefix(':') {
        // `:/regex` names the youngest commit whose message matches: no file.
        let (stage, path) = rest.split_once(':')?;
        if !matches!(stage, "0" | "1" | "2" | "3") {
            return None;
        }
        path
    } else {
        let mut depth = 0usize;
        let at = w.char_indices().find_map(|(k, c)| {
            match c {
                '{' => depth += 1,
                '}' if depth > 0 => depth -= 1,
                ':' if depth == 0 => return Some(k),
                _ => {}
            }
            None
        })?;
        let path = &w[at + 1..];
        if at == 0 || path.starts_with("//") {
            return None;
        }
        path
    };
    if path.is_empty() {
        None
    } else if path == "." || path == ".." || path.starts_with("./") || path.starts_with("../") {
        Some(ObjectPath::Here(path))
    } else {
        Some(ObjectPath::Top(path))
    }
}

/// The subcommands of git whose words are objects first: a word `:PATH` there names the
/// file PATH of the index ([`index_path`]) before it is read as a pathspec.
pub(crate) const INDEX_PATH_SUBCOMMANDS: &[&str] = &["show", "cat-file"];

/// The file of the index a word `:PATH` names where git reads its words as objects
/// (`git show :README.md` prints the index's `README.md`, from the top of the work tree;
/// git says so, or fails, where no such file is in the index): None for pathspec magic
/// (`:/`, `:!`, `:^`, `:(`), a stage (`:0:PATH`, which [`object_path`] reads), a path
/// relative to where git runs (`:./x`) or one git would match as a pattern.
pub(crate) fn index_path(w: &str) -> Option<&str> {
    let path = w.strip_prefix(':')?;
    let plain = !path.is_empty()
        && !path.starts_with(['/', '!', '^', '('])
        && !matches!(path, "." | "..")
        && !path.starts_with("./")
        && !path.starts_with("../")
        && !path.contains(['*', '?', '[', '\\', ':'])
        && !path.contains("..");
    plain.then_some(path)
}

#[cfg(test)]
mod tests {
    use super::{index_path, object_path, ObjectPath::*};

    #[test]
    fn index_paths() {
        for (w, want) in [
            (":README.md", Some("README.md")),
            (":src/a.rs", Some("src/a.rs")),
            (":.env", Some(".env")),
            (":./a", None),
            (":../a", None),
            (":/fix", None),
            (":!a", None),
            (":^a", None),
            (":(top)a", None),
            (":0:a", None),
            // `..` makes a range of it first (`:README.md..` is `:README.md..HEAD`).
            (":README.md..", None),
            (":src/..", None),
            (":*.rs", None),
            (":", None),
            ("HEAD:a", None),
        ] {
            assert_eq!(index_path(w), want, "{w}");
        }
    }

    #[test]
    fn splits_as_git_does() {
        for (w, want) in [
            ("HEAD:.env", Some(Top(".env"))),
            ("HEAD~2:src/x", Some(Top("src/x"))),
            (":0:.env", Some(Top(".env"))),
            (":3:a:b", Some(Top("a:b"))),
            ("HEAD@{0:0}:.env", Some(Top(".env"))),
            ("HEAD@{12:00}:.env", Some(Top(".env"))),
            ("HEAD@{2030-01-01 00:00:00}:.env", Some(Top(".env"))),
            ("HEAD^{/:*}:.env", Some(Top(".env"))),
            ("HEAD^{/a{b:c}}:.env", Some(Top(".env"))),
            ("HEAD:./x", Some(Here("./x"))),
            ("HEAD:../.env", Some(Here("../.env"))),
            ("HEAD:a:b", Some(Top("a:b"))),
            ("HEAD@{12:00}", None),
            ("HEAD^{/fix: x}", None),
            (":/fix: .env", None),
            (":.env", None),
            ("HEAD:", None),
            ("https://example.org/x", None),
            ("HEAD", None),
        ] {
            assert_eq!(object_path(w), want, "{w}");
        }
    }
}
