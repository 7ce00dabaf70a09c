//! The program table: what each program does with its words. Each entry's option list
//! is in `opts.rs` (drafted from the program's own `--help`); its examples are checked by
//! `tests/programs.rs` through the reading.
//!
//! To add a program: draft its options with `scripts/table-opts.py`, set the roles of the
//! options that take values, write its entry here with the roles of its operands and a
//! few examples, and run `cargo test --release --test programs`.

use super::opts::*;
use super::Role::*;
use super::{all, ex, first, Example, Program, Style, BASE};

/// Every program the table knows.
pub(super) static PROGRAMS: &[Program] = &[
    Program {
        names: &["rg"],
        style: Style::Exact,
        opts: RG,
        operands: first(
            Pattern,
            &["e", "regexp", "f", "file", "files", "type-list"],
            Walk,
        ),
        examples: &[
            ex("rg -n TODO src", &["src"]),
            ex("rg --files", &[]),
            ex("rg -e .env -g '!*.lock' .", &["."]),
            Example {
                line: "rg --pre 'rm -rf x' foo .",
                paths: &["."],
                runs: &["rm -rf x"],
                unknown: &[],
            },
            Example {
                line: "rg --pre=sh foo",
                paths: &[],
                runs: &["sh"],
                unknown: &[],
            },
            Example {
                line: "rg --pr=sh foo",
                paths: &[],
                runs: &[],
                unknown: &["--pr=sh"],
            },
        ],
        ..BASE
    },
    Program {
        names: &["fd", "fdfind"],
        style: Style::Exact,
        opts: FD,
        operands: first(Pattern, &[], Walk),
        examples: &[
            ex("fd -e rs . src", &["src"]),
            ex("fdfind -H -E .git .env", &[]),
            Example {
                line: "fd -t f . -x rm -f {} ;",
                paths: &[],
                runs: &["rm -f {}"],
                unknown: &[],
            },
            Example {
                line: "fd -X rm",
                paths: &[],
                runs: &["rm"],
                unknown: &[],
            },
            ex("fd --base-directory /tmp x", &["/tmp"]),
        ],
        ..BASE
    },
    Program {
        names: &["grep", "egrep", "fgrep"],
        opts: GREP,
        operands: first(Pattern, &["e", "regexp", "f", "file"], Read),
        examples: &[
            ex("grep -rn TODO --exclude=.env .", &["."]),
            ex("grep x .env", &[".env"]),
            ex("grep -e a -e b f g", &["f", "g"]),
            ex("grep -f pats.txt src", &["pats.txt", "src"]),
            ex("grep -C3 -nE 'a|b' f", &["f"]),
            ex("grep -5 x f", &["f"]),
            Example {
                line: "grep --frobnicate x f",
                paths: &["f"],
                runs: &[],
                unknown: &["--frobnicate"],
            },
        ],
        ..BASE
    },
    Program {
        names: &["ls"],
        opts: LS,
        operands: all(Read),
        examples: &[
            ex("ls -la", &[]),
            ex("ls -la --ignore=.env src ~/x", &["src", "~/x"]),
            ex("ls -w 80 -T 4 d", &["d"]),
        ],
        ..BASE
    },
    Program {
        names: &["cat"],
        opts: CAT,
        operands: all(Read),
        examples: &[
            ex("cat .env", &[".env"]),
            ex("cat -n a - b", &["a", "-", "b"]),
        ],
        ..BASE
    },
    Program {
        names: &["echo"],
        style: Style::Loose,
        opts: ECHO,
        examples: &[ex("echo .env", &[]), ex("echo -n -x y", &[])],
        ..BASE
    },
];

const ECHO: &[super::Opt] = &[
    super::flag("n", ""),
    super::flag("e", ""),
    super::flag("E", ""),
];
