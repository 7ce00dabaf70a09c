//! rg's file types (`-t md`, `-T js`, `--type-add 'web:*.html'`, `--type-clear`): the
//! files of its walk they choose, as rg chooses them. The type table is rg's own, as
//! `rg --type-list` prints it (`rg_types.txt`, the ripgrep Debian ships; checked against
//! the installed rg by the tests below), and the `ignore` crate, rg's walker, matches
//! a file's base name against it. rg applies `--type-clear`, then `--type-add`, then
//! `-t`, then `-T`, whatever their order on the line; an unknown type name, or a
//! definition it cannot read, makes rg stop before it walks.

use crate::shell::Given;
use ignore::types::{Types, TypesBuilder};

/// rg's type table: one `NAME: GLOB, GLOB...` line per type.
const TABLE: &str = include_str!("rg_types.txt");

/// The types the options GIVEN (rg's, in order) choose files by; Ok(None) when they
/// name none, Err when rg would not walk with them or they cannot be read.
pub(super) fn types(given: &[Given]) -> Result<Option<Types>, ()> {
    let values = |long: &'static str| {
        given
            .iter()
            .filter(move |g| g.long == long)
            .filter_map(|g| g.value.as_deref())
    };
    let named = ["type", "type-not", "type-add", "type-clear"];
    if !given.iter().any(|g| named.contains(&g.long)) {
        return Ok(None);
    }
    let mut b = TypesBuilder::new();
    for line in TABLE.lines() {
        let (name, globs) = line.split_once(": ").ok_or(())?;
        for glob in globs.split(", ") {
            b.add(name, glob).map_err(|_| ())?;
        }
    }
    for name in values("type-clear") {
        b.clear(name);
    }
    for def in values("type-add") {
        b.add_def(def).map_err(|_| ())?;
    }
    for name in values("type") {
        b.select(name);
    }
    for name in values("type-not") {
        b.negate(name);
    }
    b.build().map(Some).map_err(|_| ())
}

/// Whether the walk opens a file named NAME under TYPES: not when they skip it.
pub(super) fn opens(types: &Types, name: &str) -> bool {
    !types.matched(std::path::Path::new(name), false).is_ignore()
}

/// Whether a walk that skips dotfiles opens the dotfile NAME under TYPES: when a type
/// they select matches it (the `ignore` crate skips a dotfile only when nothing else
/// says to open it).
pub(super) fn brings_back(types: &Types, name: &str) -> bool {
    types
        .matched(std::path::Path::new(name), false)
        .is_whitelist()
}

#[cfg(test)]
mod tests {
    use super::{brings_back, opens, types, TABLE};
    use crate::shell::{self, Given};
    use std::collections::BTreeSet;
    use std::process::Command;

    /// rg's options in ARGS, as the reading gives them.
    fn given(args: &[&str]) -> Vec<Given> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let p = shell::lookup("rg").expect("rg is in the table");
        shell::read(p, &args).given
    }

    /// A file name each glob of the table matches (`*.md`: `x.md`), and a few no type
    /// has.
    fn names() -> BTreeSet<String> {
        let mut out: BTreeSet<String> = ["x.unknowntype", "noext", ".hidden", ".env"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for line in TABLE.lines() {
            let globs = line.split_once(": ").map_or("", |(_, g)| g);
            for glob in globs.split(", ").filter(|g| !g.contains(['{', '/', '!'])) {
                // `*` and `?` as `x`, a bracket as its first member.
                let (mut name, mut bracket) = (String::new(), None);
                for c in glob.chars() {
                    match (c, &mut bracket) {
                        ('[', None) => bracket = Some(String::new()),
                        (']', Some(b)) => {
                            name.push(b.chars().next().unwrap_or('x'));
                            bracket = None;
                        }
                        (c, Some(b)) => b.push(c),
                        ('*' | '?', None) => name.push('x'),
                        (c, None) => name.push(c),
                    }
                }
                out.insert(name);
            }
        }
        out
    }

    #[test]
    fn the_table_is_the_installed_rgs() {
        let out = Command::new("rg")
            .arg("--type-list")
            .output()
            .expect("rg runs (make deps installs ripgrep)");
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout), TABLE);
    }

    /// Under each set of options, the files rg lists (with every dotfile and ignored
    /// file in reach: only the types choose) are those the reading opens.
    #[test]
    fn chooses_the_files_rg_chooses() {
        let dir = std::env::temp_dir().join(format!("ghr-rg-types-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let names = names();
        for n in &names {
            std::fs::write(dir.join(n), "x\n").expect("write a file");
        }
        let mut cases: Vec<Vec<String>> = TABLE
            .lines()
            .filter_map(|l| l.split_once(": "))
            .flat_map(|(name, _)| [vec!["-t", name], vec!["-T", name]])
            .map(|v| v.iter().map(|s| s.to_string()).collect())
            .collect();
        for extra in [
            &["-t", "md", "-t", "rust"][..],
            &["-tmd", "-Tmarkdown"],
            &["--type=sh", "--type-not", "zsh"],
            &["--type-add", "web:*.html", "-t", "web"],
            &[
                "--type-add",
                "web:*.html",
                "--type-add",
                "web:include:css,md",
                "-tweb",
            ],
            &["--type-clear", "md", "-t", "md"],
            &[
                "--type-clear",
                "md",
                "--type-add",
                "md:*.unknowntype",
                "-t",
                "md",
            ],
            &["-t", "all"],
            &["-T", "all"],
            &["-t", "md", "--type-clear", "md"],
        ] {
            cases.push(extra.iter().map(|s| s.to_string()).collect());
        }
        let cases = cases
            .into_iter()
            .flat_map(|c| [(c.clone(), true), (c, false)]);
        for (case, hidden) in cases {
            let out = Command::new("rg")
                .args(["--files", "--no-ignore", "--no-config"])
                .args(hidden.then_some("--hidden"))
                .args(&case)
                .current_dir(&dir)
                .output()
                .expect("rg runs");
            let listed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| l.trim_start_matches("./").to_string())
                .collect();
            let words: Vec<&str> = case.iter().map(String::as_str).collect();
            match types(&given(&words)) {
                Ok(Some(t)) => {
                    assert!(out.stderr.is_empty(), "{case:?}");
                    let visible = |n: &str| hidden || !n.starts_with('.') || brings_back(&t, n);
                    let opened: BTreeSet<String> = names
                        .iter()
                        .filter(|n| opens(&t, n) && visible(n))
                        .cloned()
                        .collect();
                    assert_eq!(opened, listed, "{case:?} hidden {hidden}");
                }
                // rg refuses what the reading cannot build: it lists nothing.
                Ok(None) | Err(()) => {
                    assert!(
                        listed.is_empty() && !out.stderr.is_empty(),
                        "{case:?}: {listed:?}"
                    )
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
