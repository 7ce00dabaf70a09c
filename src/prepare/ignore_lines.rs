//! Ignore files that rg 13 or git read otherwise than this build's `ignore` crate
//! (the walker [`super::rg_walk`] and [`super::git_add`] predict their walks with).
//! Where one does, the walk is not predicted: the caller reads every file below.
//! The tests below check each judgement against the installed rg and git, line by
//! line, over a few thousand lines.

/// Whether rg 13 may read the ignore file TEXT otherwise than this walker: a leading
/// UTF-8 byte-order mark (rg 13 takes it as part of the first pattern), or a line
/// [`line_differs`] says so of.
pub(super) fn rg_reads_otherwise(text: &[u8]) -> bool {
    reads_otherwise(text, false)
}

/// Whether git may read the ignore file TEXT (`.gitignore`, `info/exclude`, the
/// global excludes file) otherwise than this walker: a line [`line_differs`] says so
/// of, a brace anywhere among them (git reads `{a,b}` as those five characters, this
/// walker as `a` or `b`). (git skips a byte-order mark and reads POSIX classes, as
/// this walker does.)
pub(super) fn git_reads_otherwise(text: &[u8]) -> bool {
    reads_otherwise(text, true)
}

fn reads_otherwise(text: &[u8], git: bool) -> bool {
    (!git && text.starts_with(b"\xef\xbb\xbf"))
        || text
            .split(|&b| b == b'\n')
            .any(|line| line_differs(line, git))
}

/// Whether LINE of an ignore file may match otherwise for rg 13 (GIT: for git) than for
/// this walker (the `ignore` crate 0.4.35 and globset 0.4.22, which accept what rg 13's
/// globset 0.4.8 rejects, dropping the line, and read some globs as git does not):
/// - a `[` with no closing `]` (this walker reads it as a plain `[`);
/// - a class holding a `\\`, a `/`, a range that runs backwards (`[b-a]`) or (for rg)
///   a POSIX class (`[[:alpha:]]`);
/// - three stars in a row;
/// - a `\\` last, before a `/`, or before a blank that only blanks follow;
/// - a `{` inside a group (`{a,{b,c}}`), a `}` outside one, a group left open; for
///   git, any brace;
/// - a byte that is not UTF-8.
///
/// Each is where the tests below found the installed rg or git and this walker
/// disagree; no other line they tried does.
fn line_differs(line: &[u8], git: bool) -> bool {
    if line.starts_with(b"#") {
        return false;
    }
    if std::str::from_utf8(line).is_err() {
        return true;
    }
    let s = line.strip_prefix(b"!").unwrap_or(line);
    let mut group = false;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\\' => {
                let blank = |b: &u8| matches!(b, b' ' | b'\t');
                let rest = s.get(i + 2..).unwrap_or_default();
                if matches!(s.get(i + 1), None | Some(b'/'))
                    || (s.get(i + 1).is_some_and(blank)
                        && !rest.is_empty()
                        && rest.iter().all(blank))
                {
                    return true;
                }
                i += 1;
            }
            b'[' => {
                let mut j = i + 1;
                if matches!(s.get(j), Some(b'!' | b'^')) {
                    j += 1;
                }
                if s.get(j) == Some(&b']') {
                    j += 1;
                }
                let Some(len) = s[j.min(s.len())..].iter().position(|&b| b == b']') else {
                    return true;
                };
                let class = &s[i + 1..j + len];
                let reversed = class.windows(3).any(|w| w[1] == b'-' && w[2] < w[0]);
                if class.contains(&b'\\')
                    || class.contains(&b'/')
                    || reversed
                    || (!git && class.windows(2).any(|w| w == b"[:"))
                {
                    return true;
                }
                i = j + len;
            }
            b'*' if s[i..].starts_with(b"***") => return true,
            b'{' if git || group => return true,
            b'}' if git || !group => return true,
            b'{' => group = true,
            b'}' => group = false,
            _ => {}
        }
        i += 1;
    }
    group
}

#[cfg(test)]
mod tests {
    use super::{git_reads_otherwise, rg_reads_otherwise};
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;
    use std::process::Command;

    /// The lines of everyday ignore files are read as the walker reads them.
    #[test]
    fn everyday_lines_are_read() {
        for line in [
            "*.py[cod]",
            "*.[oa]",
            "[Bb]uild/",
            "target/",
            "**/.env",
            "/build",
            "!keep.me",
            "\\#file",
            "node_modules/",
            "*.log",
            ".env.*",
            "!.env.example",
            "*~",
            "*.sw[a-p]",
            "# comment {",
            "docs/**/*.md",
            "\\!x",
            "a\\ b",
            ".idea/",
            "*.{js,ts}",
        ] {
            let text = format!("{line}\n");
            let git = line.contains('{') && !line.starts_with('#');
            assert!(!rg_reads_otherwise(text.as_bytes()), "{line}");
            assert_eq!(git_reads_otherwise(text.as_bytes()), git, "{line}");
        }
        for text in ["\u{feff}*.log\n", "[[:alpha:]]\n"] {
            assert!(rg_reads_otherwise(text.as_bytes()), "{text:?}");
            assert!(!git_reads_otherwise(text.as_bytes()), "{text:?}");
        }
        for text in ["x\n{a,{b,c}}\n", "[\n", "a[/]b\n", "a\\\n", "x\\/\n"] {
            assert!(rg_reads_otherwise(text.as_bytes()), "{text:?}");
            assert!(git_reads_otherwise(text.as_bytes()), "{text:?}");
        }
    }

    /// The names each scratch directory holds (a name ending in `/` a directory,
    /// holding the same names but directories).
    const NAMES: &[&str] = &[
        "a", "b", "ab", "ba", "aa", "a,b", "{a,b}", "{a}", "{}", "{", "}", "[", "]", "[a]", "a[",
        "]a", "!a", "#a", "\\a", "a\\", "a b", " a", "a ", ".a", ".b", "-", "a-b", "^", "*", "?",
        "**", "a.b", "b.a", "dd/", "d.a/",
    ];

    /// Hand-written lines: what differs between rg 13's globs, this walker's and git's.
    const LINES: &[&str] = &[
        "{a,b}",
        "{a,{b,c}}",
        "{a,{a,b}}",
        "{,a}",
        "{a,}",
        "{}",
        "{a}",
        "{a,b",
        "a,b}",
        "}",
        "{",
        "[a]",
        "[",
        "a[",
        "[!a]",
        "[^a]",
        "[]]",
        "[]a]",
        "[a-c]",
        "[\\]]",
        "\\{a,b\\}",
        "\\[",
        "\\[a]",
        "*",
        "?",
        "**",
        "**/a",
        "a/**",
        "{*.b,.a}",
        "{dd,{a,b}}",
        "{.a,[}",
        "{dd,[}",
        "\\",
        "a\\",
        "[{]",
        "{[}]",
        "{a,[b]}",
        "{a,[}]}",
        "{dd/a,b}",
        "{a/b,c}",
        "dd/{a,b}",
        "!{a,b}",
        "{a,b}/",
        "[[:alpha:]]",
        "[a",
        "a]",
        "[!]",
        "[!",
        "{a,b}{a,b}",
        "{{a}}",
        "\\{a}",
        "{a\\,b}",
        "{a,b\\}",
        "a\\ ",
        "a ",
        " a",
        "\\!a",
        "\\#a",
        "#a",
        "!a",
        "a\r",
        "ab\r",
        "[/]",
        "a[/]b",
        "dd[/]a",
        "[a/b]",
        "\\a",
        "\\\\",
        "a\\\\",
        "a\\  ",
        "!\\a",
        "[b-a]",
        "[}^-?]",
        "***/]",
        "a***",
        "[a-c-b]",
    ];

    /// LINES and COUNT lines drawn from the characters globs treat specially.
    fn lines(count: usize) -> Vec<String> {
        let alphabet: Vec<char> = "ab{}[],!\\*?./- ^".chars().collect();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut out: Vec<String> = LINES.iter().map(|s| s.to_string()).collect();
        for _ in 0..count {
            let len = 1 + (next() % 7) as usize;
            out.push(
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect(),
            );
        }
        out
    }

    /// A scratch directory under which directory `tI` holds NAMES and, in the ignore
    /// file FILE, line I of LINES.
    fn scratch(tag: &str, file: &str, lines: &[String]) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!("ghr-ignore-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (i, line) in lines.iter().enumerate() {
            let top = root.join(format!("t{i}"));
            let make = |dir: &Path| {
                for n in NAMES {
                    match n.strip_suffix('/') {
                        Some(d) => std::fs::create_dir_all(dir.join(d)).expect("scratch dir"),
                        None => std::fs::write(dir.join(n), "x\n").expect("scratch file"),
                    }
                }
            };
            std::fs::create_dir_all(&top).expect("scratch dir");
            make(&top);
            for n in NAMES.iter().filter_map(|n| n.strip_suffix('/')) {
                make(&top.join(n));
            }
            std::fs::write(top.join(file), format!("{line}\n")).expect("ignore file");
        }
        root
    }

    /// The paths below ROOT in LISTED (NUL-separated, relative to ROOT), by the
    /// scratch directory that holds them.
    fn by_dir<'a>(listed: impl Iterator<Item = &'a str>) -> BTreeMap<usize, BTreeSet<String>> {
        let mut out: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
        for p in listed.filter(|p| !p.is_empty()) {
            let p = p.trim_start_matches("./");
            let Some((top, rest)) = p.split_once('/') else {
                continue;
            };
            let Some(i) = top.strip_prefix('t').and_then(|i| i.parse().ok()) else {
                continue;
            };
            out.entry(i).or_default().insert(rest.to_string());
        }
        out
    }

    /// The files WALK lists below ROOT, by scratch directory.
    fn walked(root: &Path, walk: ignore::WalkBuilder) -> BTreeMap<usize, BTreeSet<String>> {
        let paths: Vec<String> = walk
            .build()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
            .filter_map(|e| {
                let rel = e.path().strip_prefix(root).ok()?;
                Some(rel.to_string_lossy().into_owned())
            })
            .collect();
        by_dir(paths.iter().map(String::as_str))
    }

    /// Compares the two listings; each line where they differ must be one READS_OTHERWISE
    /// says so of. Returns the lines it flags where they agree.
    fn compare(
        lines: &[String],
        real: &BTreeMap<usize, BTreeSet<String>>,
        ours: &BTreeMap<usize, BTreeSet<String>>,
        reads_otherwise: fn(&[u8]) -> bool,
        what: &str,
    ) -> Vec<String> {
        let empty = BTreeSet::new();
        let mut missed = Vec::new();
        let mut flagged = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let (r, o) = (
                real.get(&i).unwrap_or(&empty),
                ours.get(&i).unwrap_or(&empty),
            );
            let said = reads_otherwise(format!("{line}\n").as_bytes());
            if r != o && !said {
                missed.push(format!(
                    "{line:?}: {what} only {:?}, walker only {:?}",
                    r.difference(o).collect::<Vec<_>>(),
                    o.difference(r).collect::<Vec<_>>()
                ));
            } else if r == o && said {
                flagged.push(line.clone());
            }
        }
        assert!(
            missed.is_empty(),
            "{} lines:\n{}",
            missed.len(),
            missed.join("\n")
        );
        flagged
    }

    #[test]
    fn rg_walks_as_the_walker_unless_said() {
        let lines = lines(1000);
        let root = scratch("rg", ".ignore", &lines);
        let out = Command::new("rg")
            .args(["--files", "--hidden", "--no-config", "--null"])
            .current_dir(&root)
            .output()
            .expect("rg runs (make deps installs ripgrep)");
        let real = by_dir(String::from_utf8_lossy(&out.stdout).split('\0'));
        let ours = walked(
            &root,
            super::super::rg_walk::walker(
                &root.to_string_lossy(),
                false,
                Default::default(),
                &Default::default(),
            ),
        );
        let flagged = compare(&lines, &real, &ours, rg_reads_otherwise, "rg");
        eprintln!(
            "rg: {} of {} lines flagged though alike: {flagged:?}",
            flagged.len(),
            lines.len()
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn git_adds_as_the_walker_unless_said() {
        let lines = lines(1000);
        let root = scratch("git", ".gitignore", &lines);
        let git = |args: &[&str]| {
            Command::new("git")
                .args(args)
                .current_dir(&root)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .output()
                .expect("git runs")
        };
        assert!(git(&["init", "-q", "."]).status.success());
        let out = git(&["ls-files", "-z", "--others", "--exclude-standard"]);
        assert!(out.status.success());
        let real = by_dir(String::from_utf8_lossy(&out.stdout).split('\0'));
        let ours = walked(
            &root,
            super::super::git_add::walker(&root.to_string_lossy(), &Default::default()),
        );
        let flagged = compare(&lines, &real, &ours, git_reads_otherwise, "git");
        eprintln!(
            "git: {} of {} lines flagged though alike: {flagged:?}",
            flagged.len(),
            lines.len()
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
