//! What a make variable given on make's command line runs (helper-69): its value is
//! text make puts in the recipes that name it, so a recipe may run it as a command
//! (`make CC='rm -f x;' x.o`: make's own rule for `.o` runs `$(CC)`), and each
//! `$(shell CMD)` in it runs CMD when make expands it (`make 'x := $(shell rm x)'`,
//! `.DEFAULT_GOAL=$(shell ...)`).

use super::CodeReading;

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
        maybe: vec![value.to_string()],
        unknown,
        ..CodeReading::default()
    }
}

/// What makes a shell line more than a command's words: lists, pipes, redirections,
/// subshells, substitutions.
const LINE_SYNTAX: &[char] = &[';', '|', '&', '<', '>', '(', ')', '`', '\n'];

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
