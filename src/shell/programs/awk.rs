//! awk's program text, read for what makes it more than a filter of its input: a
//! program is known only when none of the constructs that run commands, open files or
//! change which files it reads can be in it (gawk 5.2, mawk 1.3.4, busybox awk, the
//! one true awk). The scan is of the whole text, strings and regular expressions
//! included, so no lexer decides where they end: a program that names one of these
//! anywhere is unknown, which costs an ask, never a bypass.
//!
//! - `|` pipes (`print | "sh"`, `"cmd" | getline`, gawk's `|&`), and `>`, `>>` send
//!   output to a file; `>=` is a comparison in every awk (its lexer takes the longest
//!   token), so it alone is let through.
//! - `system()` runs a command, `getline` reads a file or a command.
//! - `ARGV`, `ARGC` change the files it reads after `BEGIN`; gawk's `SYMTAB` reaches
//!   them by name, `PROCINFO` and `FUNCTAB` call functions by name, `ENVIRON["TZ"]`
//!   makes the time functions read a zone file.
//! - `@` is gawk's `@include`, `@load` and its calls by name (`f = "system"; @f(x)`).
//! - A backslash before a newline joins lines: refused rather than followed.

use super::code::{find_word, short};
use super::{CodeReading, Reading, Role, Run};

/// Words that make a program unknown wherever they stand.
const WORDS: &[&str] = &[
    "system", "getline", "ARGV", "ARGC", "ENVIRON", "PROCINFO", "SYMTAB", "FUNCTAB",
];

/// Read the awk program TEXT. An unknown one may run any of its strings as a command
/// (`system("rm x")`, `print | "sh"`): each is read generously, as a shell line that
/// may run, for deny rules.
pub(super) fn read(text: &str) -> CodeReading {
    let Some(why) = why_unknown(text) else {
        return CodeReading::default();
    };
    CodeReading {
        maybe: strings(text),
        unknown: Some(format!("awk program `{}`: {why}", short(text))),
        ..CodeReading::default()
    }
}

/// The string literals of TEXT, their escapes undone (`\"`, `\\`; others kept).
fn strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some(e @ ('"' | '\\' | '/')) => s.push(e),
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some(e) => {
                        s.push('\\');
                        s.push(e);
                    }
                    None => {}
                },
                c => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

fn why_unknown(text: &str) -> Option<String> {
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let next = b.get(i + 1).copied();
        match c {
            b'|' => return Some("`|` runs a command".into()),
            b'@' => return Some("`@` includes, loads or calls by name".into()),
            b'>' if next != Some(b'=') => return Some("`>` writes a file".into()),
            b'\\' if matches!(next, Some(b'\n' | b'\r')) => {
                return Some("a backslash joins two lines".into())
            }
            _ => {}
        }
    }
    find_word(text, WORDS).map(|w| format!("`{w}`"))
}

/// gawk reads each `-e` source after the one before: the text of all of them is read
/// once more joined, so no word is made across two of them.
pub(super) fn sources(r: &mut Reading) {
    let code: Vec<&str> = r
        .parts
        .iter()
        .filter(|p| p.role == Role::Code)
        .map(|p| p.text.as_str())
        .collect();
    if code.len() > 1 {
        let joined = code.concat();
        r.runs.push(Run::Code(joined));
    }
}

#[cfg(test)]
mod tests {
    use super::{read, why_unknown};

    #[test]
    fn an_unknown_programs_strings_are_shell_lines() {
        let r = read("BEGIN{system(\"rm -rf \\\"/tmp/x\\\"\"); print \"a\" | \"sh\"}");
        assert_eq!(r.maybe, ["rm -rf \"/tmp/x\"", "a", "sh"]);
        assert!(read("{print \"x\"}").maybe.is_empty());
    }

    #[test]
    fn filters_are_known() {
        for p in [
            "{print $1}",
            "NR>=5 && NR<=15",
            "-F, '{s+=$2} END {print s}'",
            "/foo/ {n++} END {print n}",
            "{ printf \"%s %d\\n\", $1, length($0) }",
            "$3 == \"x\" { print NR \": \" $0 }",
        ] {
            assert_eq!(why_unknown(p), None, "{p}");
        }
    }

    #[test]
    fn commands_files_and_argv_are_unknown() {
        for p in [
            "BEGIN{system(\"rm x\")}",
            "{print | \"sh\"}",
            "{print > \"/root/.ssh/k\"}",
            "{print >> \"f\"}",
            "BEGIN{while ((getline l < \"/root/.ssh/k\") > 0) print l}",
            "BEGIN{ARGV[1]=\"/root/.ssh/k\"; ARGC=2} {print}",
            "BEGIN{SYMTAB[\"ARG\" \"V\"][1]=\"k\"}",
            "BEGIN{f=\"sys\" \"tem\"; @f(\"id\")}",
            "@include \"x\"",
            "BEGIN{ENVIRON[\"TZ\"]=\"/root/.ssh/k\"; print strftime()}",
            "BEGIN{sys\\\ntem(\"id\")}",
            "{print $1 |& \"cat\"}",
            "BEGIN { \"date\" | getline d }",
        ] {
            assert!(why_unknown(p).is_some(), "{p}");
        }
    }
}
