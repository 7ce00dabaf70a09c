//! Whether each long option of the program table takes a value as the real program
//! says it does: GNU `--help` writes `--name=ARG` for a value the option needs and
//! `--name[=ARG]` for one it takes only glued (`du --time[=WORD]`: read as taking the
//! next word, `du -a --time ../.ssh` hid the directory du lists; helper-58). For each
//! entry whose program is installed, `NAME --help` is read and every long option it
//! shows in the GNU way at the start of a line is compared with the table's.
//! Programs whose help is not written that way are not compared (nothing shown, nothing
//! read); a disagreement the table keeps on purpose is listed in [`KNOWN`] with why.

use gptel_rust_hooks::shell::{table, Program, Style, Value};
use std::collections::BTreeMap;
use std::process::Command;

/// (program, long option, why the table reads it otherwise than its help shows it).
const KNOWN: &[(&str, &str, &str)] = &[
    (
        "fetch",
        "jobs",
        "shares its options with `git pull`, whose `-j` takes a value only glued: read so \
         for both, a word after it an operand (a remote's name, or a repository read as one)",
    ),
    (
        "tag",
        "merged",
        "git takes the next word unless it is the last (PARSE_OPT_LASTARG_DEFAULT): read \
         as glued-only, the next word is an operand, a pattern (data) either way",
    ),
    ("tag", "no-merged", "as `--merged`"),
    (
        "curl",
        "help",
        "prints help and exits; a word after it is a category, never fetched",
    ),
    (
        "hostname",
        "file",
        "its help lists `-F, --file` without the value its usage line shows (`-F file`)",
    ),
];

/// How the help shows a long option's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    None,
    Required,
    Optional,
}

/// The long options LINE (a line of `--help`) starts with, GNU style: `  -a, --all`,
/// `      --time[=WORD]`, `  -t, --tabsize=COLS`; each with how it shows its value. A
/// name followed by a single space and more text is not read (`--pre COMMAND` or
/// prose).
fn shown_options(line: &str) -> Vec<(String, Shown)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    // An option line starts within a few columns; a description wrapped below it
    // (`--heading, --replace ... have no effect`) further in.
    let indent = line.len() - rest.len();
    if indent == 0 || indent > 8 {
        return out;
    }
    loop {
        // `-a, ` before a long option.
        if rest.len() >= 4 && rest.starts_with('-') && !rest.starts_with("--") {
            let b = rest.as_bytes();
            if b[2] == b',' && b[3] == b' ' {
                rest = rest[4..].trim_start();
                continue;
            }
            return out;
        }
        let Some(long) = rest.strip_prefix("--") else {
            return out;
        };
        // git's `--[no-]name`.
        let long = long.strip_prefix("[no-]").unwrap_or(long);
        let end = long
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(long.len());
        let (name, after) = long.split_at(end);
        if name.is_empty() || name.starts_with('-') {
            return out;
        }
        let shown = if after.starts_with("[=") {
            Shown::Optional
        } else if after.starts_with('=') || after.starts_with(" <") {
            // `--pre <COMMAND>`: clap's way (rg, fd).
            Shown::Required
        } else if after.is_empty() || after.starts_with("  ") || after.starts_with(", ") {
            Shown::None
        } else {
            return out;
        };
        out.push((name.to_string(), shown));
        // `--a, --b`: several spellings on one line.
        let next = after.find(", --");
        match next {
            Some(k) if shown != Shown::None || k == 0 => rest = after[k + 2..].trim_start(),
            _ => return out,
        }
    }
}

/// The help ARGS print (`NAME --help`, `git SUB -h`).
fn help(args: &[&str]) -> Option<String> {
    let out = Command::new("timeout")
        .arg("5")
        .args(args)
        .env("LANG", "C")
        .env("LC_ALL", "C")
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (!text.is_empty()).then_some(text)
}

#[test]
fn long_options_take_values_as_the_programs_say() {
    let mut compared = 0;
    let mut programs = 0;
    let mut wrong = Vec::new();
    // Each entry with its help: `NAME --help`, and git's subcommands by `git SUB -h`.
    let mut entries: Vec<(&Program, String)> = Vec::new();
    for p in table() {
        if p.name() == "git" {
            for sub in p.subs {
                if let Some(text) = sub.names.first().and_then(|n| help(&["git", n, "-h"])) {
                    entries.push((sub, text));
                }
            }
            continue;
        }
        if !matches!(p.style, Style::Gnu | Style::Exact) || !p.subs.is_empty() {
            continue;
        }
        if let Some(text) = p.names.iter().find_map(|n| help(&[n, "--help"])) {
            entries.push((p, text));
        }
    }
    for (p, text) in entries {
        // Each option as the help shows it, over all its lines: shown both bare and
        // with `=ARG` (`--check, --check=quiet`) is an optional value.
        let mut shown: BTreeMap<String, Shown> = BTreeMap::new();
        for (name, s) in text.lines().flat_map(shown_options) {
            let both = |a, b| {
                (a == Shown::None && b == Shown::Required)
                    || (a == Shown::Required && b == Shown::None)
            };
            let merged = match shown.get(&name) {
                Some(&old) if both(old, s) => Shown::Optional,
                Some(&Shown::Optional) => Shown::Optional,
                _ => s,
            };
            shown.insert(name, merged);
        }
        let mut any = false;
        for (name, shown) in shown {
            let Some(o) = p.opts.iter().find(|o| o.long == name) else {
                continue;
            };
            let agrees = matches!(
                (shown, o.value),
                (Shown::None, Value::None)
                    | (
                        Shown::Required,
                        Value::Required | Value::Pair | Value::UntilSemicolon
                    )
                    | (Shown::Optional, Value::Optional)
            );
            compared += 1;
            any = true;
            if !agrees && !KNOWN.iter().any(|(n, l, _)| *n == p.name() && *l == name) {
                wrong.push(format!(
                    "{} --{name}: help shows {shown:?}, the table reads {:?}",
                    p.name(),
                    o.value
                ));
            }
        }
        programs += usize::from(any);
    }
    eprintln!("{compared} long options of {programs} programs compared with their help");
    assert!(programs >= 20, "only {programs} programs compared");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn help_lines_are_read_as_gnu_writes_them() {
    use Shown::*;
    let cases: &[(&str, &[(&str, Shown)])] = &[
        (
            "  -a, --all                  do not ignore",
            &[("all", None)],
        ),
        (
            "      --time[=WORD]          show time",
            &[("time", Optional)],
        ),
        (
            "  -t, --tabsize=COLS         assume tab stops",
            &[("tabsize", Required)],
        ),
        ("      --help     display this help", &[("help", None)]),
        (
            "  -E, --extended-regexp, --regexp-extended",
            &[("extended-regexp", None), ("regexp-extended", None)],
        ),
        ("      --pre COMMAND  run", &[]),
        ("    --pre <COMMAND>", &[("pre", Required)]),
        ("    --[no-]where <placement>", &[("where", Required)]),
        (
            "    -q, --[no-]quiet      suppress diff output",
            &[("quiet", None)],
        ),
        (
            "    --[no-]decorate[=...] decorate options",
            &[("decorate", Optional)],
        ),
        ("  -x, --exec <cmd>...     Execute", &[("exec", Required)]),
        ("Usage: ls [OPTION]... [FILE]...", &[]),
        (
            "            --only-matching, --heading, --replace have no effect",
            &[],
        ),
        (
            "  -d, --directory=DIR, --dir=DIR  x",
            &[("directory", Required), ("dir", Required)],
        ),
    ];
    for (line, want) in cases {
        let got = shown_options(line);
        let want: Vec<(String, Shown)> = want.iter().map(|(n, s)| (n.to_string(), *s)).collect();
        assert_eq!(got, want, "{line}");
    }
}
