//! The names a certain line's words may give variables: where a variable is named other
//! than where it is used (so its value may be other than the one the line gives it), a
//! builtin that sets a variable named by an expansion, and the string a shell runs.

use super::CWord;

/// Whether SRC may make a name after `=` a reference to the variable of that name:
/// only `declare -n`, `typeset -n` and `local -n` do.
pub(super) fn may_make_references(src: &str) -> bool {
    ["declare", "typeset", "local"]
        .iter()
        .any(|w| src.contains(w))
}

/// Why NAME, a loop variable (or one given a plain value) used in SRC, may hold a value
/// that is not a word of a `for` list (or that value): SRC names it other than as
/// `$NAME`, `${NAME}` or `for NAME` (`read NAME`, `NAME=...`, `printf -vNAME`, `unset
/// NAME`, `declare -n r=NAME`, `$((NAME++))`...). Every occurrence that ends where a name
/// may end counts, inside other words or quotes too, but for a part of a path or a long
/// option, where no builtin or arithmetic takes a name (helper-83: `tmp=/tmp/x; rm -rf
/// "$tmp"`, `log=build/cargo.log`, `since=2.weeks; git log --since="$since"`, `src=src`).
/// REFERENCES: whether SRC may make references ([`may_make_references`]).
pub(super) fn assigned_elsewhere(
    src: &str,
    references: bool,
    name: &str,
    headers: &[usize],
) -> Option<String> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = src.as_bytes();
    for (at, _) in src.match_indices(name) {
        let end = at + name.len();
        if bytes.get(end).copied().is_some_and(ident) || headers.contains(&at) {
            continue;
        }
        let before = &src[..at];
        if before.ends_with('$') || before.ends_with("${") {
            continue;
        }
        // A part of a path (`/tmp/`, `a.c`, `build/out;`) or of a value (`src=src`),
        // ended where no operator follows (`$((1/n--))` changes `n`), or a long option
        // (`--since=`: no name starts with `-`).
        let after = bytes.get(end).copied();
        let ends_plainly = after.is_none_or(|b| b" \t\n;&|)<>/.,:'\"".contains(&b));
        let long_option = before.ends_with("--");
        let in_path = before.ends_with(['/', '.']) || (before.ends_with('=') && !references);
        if long_option || (in_path && ends_plainly) {
            continue;
        }
        // An option word that is `-` and the name (`rm -f "$f"`): option letters, which
        // no builtin reads as a name (`-vf` names `f` as `-v`'s value: below).
        let option_word = before.strip_suffix('-').is_some_and(|b| {
            b.bytes()
                .last()
                .is_none_or(|c| b" \t\n;&|()<>".contains(&c))
        });
        if option_word {
            continue;
        }
        // Inside a longer name (`cd` for `d`), unless at the end of an option word,
        // which may take it as a name (`printf -vd`, `read -\ad`).
        if before.bytes().last().is_some_and(ident) {
            let word = before
                .rsplit([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>'])
                .next()
                .unwrap_or("")
                .replace(['\\', '\'', '"'], "");
            if !word.starts_with('-') {
                continue;
            }
        }
        return Some(format!(
            "the variable `{name}` may be given another value in the line"
        ));
    }
    None
}

/// Where WORDS, a command, give `bash`, `sh` or `dash` the string it runs with `-c`.
pub(super) fn shell_string_at(words: &[CWord]) -> Option<usize> {
    let name = words.first()?.text.rsplit('/').next()?;
    if !matches!(name, "bash" | "sh" | "dash") {
        return None;
    }
    let at = words
        .iter()
        .skip(1)
        .position(|w| !w.text.starts_with('-'))?
        + 1;
    words[1..at]
        .iter()
        .any(|w| !w.dynamic && !w.text.starts_with("--") && w.text.contains('c'))
        .then_some(at)
}

/// The builtins that set the variables their words name (`read d`, `printf -v d`,
/// `export d=x`, `unset d`...).
const NAME_SETTERS: &[&str] = &[
    "read",
    "mapfile",
    "readarray",
    "printf",
    "unset",
    "export",
    "readonly",
    "declare",
    "typeset",
    "local",
    "getopts",
    "wait",
    "let",
];

/// Why WORDS, a command, may set a variable the text does not name: one of
/// [`NAME_SETTERS`] given a word with an expansion (helper-84: `x=d; printf -v $x %s
/// .env` set `d`, which the check of the text's names did not see).
pub(super) fn names_from_expansions(words: &[CWord]) -> Option<String> {
    let at = words
        .iter()
        .position(|w| !matches!(w.text.as_str(), "command" | "builtin"))?;
    let name = words[at].text.as_str();
    if !NAME_SETTERS.contains(&name) {
        return None;
    }
    let mut args = &words[at + 1..];
    // `printf` sets a variable only with `-v`, among its options (before the format):
    // only a word with an expansion there may name one (`printf $x`, `printf -v $x`).
    if name == "printf" {
        let options = args
            .iter()
            .take_while(|w| w.dynamic || w.text.starts_with('-'))
            .count();
        args = &args[..options];
    }
    // The name is the part before `=` (`export PATH="$HOME/bin:$PATH"` names `PATH`).
    let dynamic_name = |w: &&CWord| {
        w.dynamic && {
            let head = w.text.split('=').next().unwrap_or("");
            head.contains(['$', '`'])
        }
    };
    args.iter().find(dynamic_name).map(|w| {
        format!(
            "`{name}` given `{}`, a word with an expansion, may set any variable",
            crate::shell::word::show(&w.text)
        )
    })
}
