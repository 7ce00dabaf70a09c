//! What a make variable given on make's command line runs (helper-69): its value is
//! text make puts in the recipes that name it, so a recipe may run it as a command
//! (`make CC='rm -f x;' x.o`: make's own rule for `.o` runs `$(CC)`), and each
//! `$(shell CMD)` in it runs CMD when make expands it (`make 'x := $(shell rm x)'`,
//! `.DEFAULT_GOAL=$(shell ...)`).

use super::CodeReading;

/// make: every operand with a `=` is a line of makefile it reads, a variable defined as
/// make's `parse_variable_definition` reads it: the name up to the operator (`=`, `:=`,
/// `::=`, `:::=`, `+=`, `?=`, `!=`), blanks around it dropped (`SHELL:=/bin/rm`, `'SHELL
/// =x'` set `SHELL` as `SHELL=x` does). Read here in every spelling: `SHELL` and `MAKE`
/// set plainly (`=`, `:=`...) name the program make runs (a command of the line); any
/// other definition of them, `.SHELLFLAGS`, `MAKEFLAGS`, `MFLAGS`, `GNUMAKEFLAGS` and
/// `MAKEFILES` (whose words are makefiles it reads: paths too), `NAME!=CMD` (runs CMD),
/// a value with a `$` (`$(shell CMD)`, `$(file <F)`), a name make may read otherwise (a
/// blank or a `$` inside it: make expands names) and a variable that changes what the
/// recipes run (`PATH`, `LD_PRELOAD`: make exports its command line's variables) are never
/// certain; the words of `MAKEFILES` and `.SHELLFLAGS` are paths too (`NAME!=CMD`'s CMD is read as a shell string for
/// deny rules). Every value is make code besides (see [`read`]): its `$(shell CMD)`
/// calls are commands of the line, and the value one a recipe may run.
/// (`NAME=VALUE` with a plain operator is read by the table's `assign` list as well.)
pub(super) fn make_assignments(r: &mut super::Reading) {
    use super::{Kind, Part, Role, Run};
    let mut runs = Vec::new();
    let mut paths = Vec::new();
    for p in r.parts.iter_mut() {
        if p.kind != Kind::Operand {
            continue;
        }
        let Some((head, value)) = p.text.split_once('=') else {
            continue;
        };
        let op_at = head.trim_end_matches([':', '+', '?', '!']).len();
        let (name, op) = (head[..op_at].trim(), &head[op_at..]);
        let plain = matches!(op, "" | ":" | "::" | ":::");
        let flags = matches!(
            name,
            ".SHELLFLAGS" | "MAKEFLAGS" | "MFLAGS" | "GNUMAKEFLAGS" | "MAKEFILES"
        );
        let hidden = value.contains('$')
            || !(plain || op == "+" || op == "?")
            // make expands a name too (`SHE$()LL=x` sets `SHELL`).
            || name.contains(['$', ' ', '\t'])
            || flags
            // Exported to every recipe's shell (`PATH=`, `LD_PRELOAD=`, `BASH_ENV=`).
            || crate::shell::is_dangerous_env(name)
            || (matches!(name, "SHELL" | "MAKE") && !plain);
        if matches!(name, "MAKEFILES" | ".SHELLFLAGS") {
            paths.extend(value.split_whitespace().map(str::to_owned));
        }
        // The value is text a recipe may run, and its `$(shell CMD)` calls run CMD
        // (helper-69: `make CC='rm -f x;' x.o`): read for deny rules (`make_code.rs`).
        runs.push(Run::Code(value.to_owned()));
        if hidden {
            p.role = Role::Hidden;
            runs.push(if op == "!" {
                // `x!=CMD`: a shell command.
                Run::Hidden(value.to_owned())
            } else {
                Run::Starts(format!("the makefile line of its operand `{}`", p.text))
            });
        } else if matches!(name, "SHELL" | "MAKE") && head != name {
            // `SHELL:=/bin/x`, `SHELL =/bin/x` (`SHELL=/bin/x` is the table's `assign`).
            p.role = Role::Argv;
            runs.push(Run::Argv(vec![value.trim().to_owned()]));
        }
    }
    r.runs.extend(runs);
    r.parts.extend(paths.into_iter().map(|text| Part {
        text,
        kind: Kind::Implied,
        role: Role::Read,
    }));
}

/// The reading of VALUE, a make variable's value: its `$(shell ...)` calls are
/// shell lines it runs, and the whole value one it may run (unsure). A value with
/// shell syntax beyond words (a `;`, a pipe, a substitution: helper-72's `make x.o
/// CC='echo ... | base64 -d | sh;'`) is a line a recipe may run that no reading of its
/// words shows whole: not read.
pub(super) fn read(value: &str) -> CodeReading {
    let unknown = value.find(LINE_SYNTAX).map(|at| {
        let c = value[at..].chars().next().unwrap_or(';');
        format!("a make variable's value with `{c}` in it may run as a recipe's shell line")
    });
    CodeReading {
        shell: shell_calls(value),
        // The value as a recipe's command, and as the words of one (make's own rules
        // give `CFLAGS` to `cc`: `CFLAGS=-include.env` reads `.env`).
        maybe: vec![value.to_string(), format!("cc {value}")],
        unknown,
        ..CodeReading::default()
    }
}

/// What makes a shell line more than a command's words: lists, pipes, redirections,
/// subshells, substitutions, and globs, which the recipe's shell expands (a command
/// named by one, `CC='/bin/r[m] -f x #'`, is no name a rule reads).
const LINE_SYNTAX: &[char] = &[';', '|', '&', '<', '>', '(', ')', '`', '\n', '*', '?', '['];

/// The text of each `$(shell TEXT)` and `${shell TEXT}` in VALUE, nested ones too, up
/// to its closing bracket (make counts the brackets of the same kind inside); to the
/// end where none closes it.
fn shell_calls(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in value.match_indices('$') {
        let rest = &value[at + 1..];
        let (open, close) = match rest.chars().next() {
            Some('(') => ('(', ')'),
            Some('{') => ('{', '}'),
            _ => continue,
        };
        let Some(args) = rest[1..].strip_prefix("shell") else {
            continue;
        };
        if !args.starts_with([' ', '\t']) {
            continue;
        }
        let mut depth = 1usize;
        let mut end = args.len();
        for (k, c) in args.char_indices() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    end = k;
                    break;
                }
            }
        }
        out.push(args[..end].trim().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shell_calls;

    #[test]
    fn shell_calls_as_make_expands_them() {
        assert_eq!(shell_calls("$(shell rm -f x)"), ["rm -f x"]);
        assert_eq!(shell_calls("a ${shell\tls (x)} b"), ["ls (x)"]);
        assert_eq!(
            shell_calls("$(shell echo $(shell rm y))"),
            ["echo $(shell rm y)", "rm y"]
        );
        assert_eq!(shell_calls("$(shell rm z"), ["rm z"]);
        assert!(shell_calls("$(shellx) $(SHELL) $$(shell rm) plain").len() <= 1);
        assert!(shell_calls("gcc -O2").is_empty());
    }

    #[test]
    fn values_beyond_words_are_not_read() {
        for v in [
            "echo x | sh",
            "rm x;",
            "a && b",
            "cat <f",
            "$(shell ls)",
            "`id`",
        ] {
            assert!(super::read(v).unknown.is_some(), "{v}");
        }
        for v in ["gcc", "-O2 -g -Wall", "-DNAME=\"x\"", "/usr/bin/clang-16"] {
            assert!(super::read(v).unknown.is_none(), "{v}");
        }
    }
}
