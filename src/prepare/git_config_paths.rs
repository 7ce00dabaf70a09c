//! The files git's configuration names, which git then reads or runs as it works: a
//! hooks directory (`core.hooksPath = .husky`), an included file (`include.path =
//! ../.gitconfig`, `includeIf.*.path`), a program given by its path (`core.fsmonitor =
//! ./scripts/watch`, a filter or diff driver, `core.sshCommand`). A line that writes one
//! of them before git runs is not certain, as one that writes `.git/config` is not (see
//! `configs`). Read as git reads its files, generously: every word of a value that
//! holds a `/`, or names a file or directory where git runs, counts, relative to the
//! file's directory and to each directory git may run from; an included file is read
//! in turn. What a hook or a named script runs in turn (husky's `.husky/_/pre-commit`
//! sources `.husky/pre-commit`) is the project's code, as a Makefile's recipes are.

use std::path::Path;

/// Most bytes read of one configuration file.
const MAX_BYTES: u64 = 1 << 20;

/// Most files read, includes followed.
pub(super) const MAX_FILES: usize = 32;

/// The paths the configuration FILES name (and the files they include, read in turn),
/// absolute: relative ones against the including file's directory and each of BASES;
/// `~/` against HOME.
pub(super) fn named_paths(files: &[String], bases: &[String], home: Option<&str>) -> Vec<String> {
    let mut todo: Vec<String> = files.to_vec();
    let mut seen: Vec<String> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    while let Some(file) = todo.pop() {
        if seen.len() >= MAX_FILES || seen.contains(&file) {
            continue;
        }
        seen.push(file.clone());
        let Some(text) = read(&file) else {
            continue;
        };
        let dir = Path::new(&file)
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (key, value) in entries(&text) {
            let include = key == "path";
            if include || key == "hookspath" {
                let found = absolute(&value, &dir, bases, home);
                if include {
                    todo.extend(found.iter().cloned());
                }
                out.extend(found);
                continue;
            }
            // A command's every word that may be a file: one with a `/` (`sh
            // tools/clean.sh`, `ssh -F cfg/ssh`, `--config=x/y`), or one that names a
            // file or directory where git runs it (`cd tools && ./clean.sh`).
            for word in words(&value) {
                let found = absolute(word, &dir, bases, home);
                if word.contains('/') {
                    out.extend(found);
                } else {
                    out.extend(found.into_iter().skip(1).filter(|f| Path::new(f).exists()));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The words of a configuration VALUE read as a shell line might split it: at blanks,
/// quotes, `;&|()<>!` and `=` (`--config=x`), each once.
fn words(value: &str) -> Vec<&str> {
    let mut out: Vec<&str> = value
        .split(|c: char| c.is_whitespace() || "'\"`;&|()<>!=$".contains(c))
        .filter(|w| !w.is_empty() && *w != "." && *w != "..")
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// WORD made absolute: as it is, from HOME for `~/`, or from DIR and each of BASES.
fn absolute(word: &str, dir: &str, bases: &[String], home: Option<&str>) -> Vec<String> {
    if word.starts_with('/') {
        return vec![word.to_owned()];
    }
    if let Some(rest) = word.strip_prefix("~/") {
        return home
            .map(|h| format!("{}/{rest}", h.trim_end_matches('/')))
            .into_iter()
            .collect();
    }
    std::iter::once(dir)
        .chain(bases.iter().map(String::as_str))
        .map(|d| format!("{}/{word}", d.trim_end_matches('/')))
        .collect()
}

/// The text of FILE, when it is a file of at most [`MAX_BYTES`].
fn read(file: &str) -> Option<String> {
    crate::path::read_small(std::path::Path::new(file), MAX_BYTES)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// The `key = value` entries of a git configuration TEXT: the key's last part in lower
/// case, the value unquoted without its comment (a line ended by `\` goes on).
fn entries(text: &str) -> Vec<(String, String)> {
    sections(text)
        .into_iter()
        .filter_map(|(_, key, value)| Some((key, value?)))
        .collect()
}

/// The entries of a git configuration TEXT with their sections: the section as its
/// header names it and the key, in lower case (`includeif "gitdir:/x/"`, `path`), and
/// the value as [`entries`] reads it; None for a key without `=` (git reads it as
/// true). A key may follow its section's header on the same line (`[core] worktree =
/// x`).
pub(super) fn sections(text: &str) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    let mut section = String::new();
    let joined = text.replace("\\\r\n", "").replace("\\\n", "");
    for line in joined.lines() {
        let mut line = line.trim_start();
        // `[section] key = value` on one line.
        if let Some(header) = line.strip_prefix('[') {
            match header.split_once(']') {
                Some((name, rest)) => {
                    section = name.trim().to_ascii_lowercase();
                    line = rest.trim_start();
                }
                None => continue,
            }
        }
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        out.push(match line.split_once('=') {
            Some((key, value)) => (
                section.clone(),
                key.trim().to_ascii_lowercase(),
                Some(unquote(value)),
            ),
            None => (section.clone(), line.trim().to_ascii_lowercase(), None),
        });
    }
    out
}

/// A configuration value as git reads it: quotes removed, a `#` or `;` outside them
/// ends it, `\` escapes the next character.
fn unquote(value: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = value.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '#' | ';' if !quoted => break,
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_read_as_git_reads_them() {
        let text = "[core]\n\thooksPath = .husky ; hooks\n[include]\n  path = \"../shared.cfg\"\n\
                    [filter \"x\"] clean = ./bin/clean --arg\n# path = /nope\nname = a#b\n";
        assert_eq!(
            entries(text),
            vec![
                ("hookspath".into(), ".husky".into()),
                ("path".into(), "../shared.cfg".into()),
                ("clean".into(), "./bin/clean --arg".into()),
                ("name".into(), "a".into()),
            ]
        );
    }

    #[test]
    fn values_with_a_slash_and_includes_are_named() {
        let dir = std::env::temp_dir().join(format!("grh-git-cfg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("repo/.git")).expect("mkdir");
        let d = dir.to_string_lossy().into_owned();
        std::fs::write(
            dir.join("repo/.git/config"),
            "[core]\n\thooksPath = .husky\n\tfsmonitor = ./watch.sh\n[include]\n\tpath = ../../inc.cfg\n",
        )
        .expect("write");
        std::fs::write(
            dir.join("inc.cfg"),
            "[diff \"x\"]\n\ttextconv = tools/conv\n",
        )
        .expect("write");
        let got = named_paths(
            &[format!("{d}/repo/.git/config")],
            &[format!("{d}/repo")],
            None,
        );
        for want in [
            format!("{d}/repo/.husky"),
            format!("{d}/repo/./watch.sh"),
            format!("{d}/repo/.git/../../inc.cfg"),
            format!("{d}/repo/.git/../../tools/conv"),
        ] {
            assert!(got.contains(&want), "{want} in {got:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
