//! Words that change how bash reads the rest of the line, or make a program open a
//! file: a locale's character set, `shopt` and `set`, `TZ` and locale names that are
//! paths, array subscripts that expand.

use super::*;

/// Why the assignment W to NAME, an inert variable, may make a program open a file:
/// `TZ=:/path` and `TZ=/path` (and `TZ=../x`, under the zone directory) name a time
/// zone file, a locale name with a `/` a locale directory.
pub(super) fn names_a_file(name: &str, w: &CWord) -> Option<String> {
    let value = w.text.split_once('=').map_or("", |(_, v)| v);
    let file = match name {
        "TZ" => {
            value.starts_with([':', '/'])
                || value.split('/').any(|c| c == "..")
                || value.contains('~')
        }
        _ if name == "LANG" || name == "LANGUAGE" || name.starts_with("LC_") => value.contains('/'),
        _ => false,
    };
    (file || (w.dynamic && name.bytes().all(|b| !b.is_ascii_lowercase())))
        .then(|| format!("`{}` may name a file", crate::shell::word::show(&w.text)))
}

/// Why the word W, when it assigns (`NAME=VALUE`: an assignment, or a word of `export`,
/// `declare`, `env`...) to `LC_ALL`, `LC_CTYPE` or `LANG`, may set a character set in
/// which bash reads the rest of the text otherwise: in GBK, GB18030, BIG5 or SJIS the
/// last byte of a character may be `\`, which then escapes nothing (`LANG=zh_CN.GBK`
/// then `echo あ\;rm x` runs `rm x`). Safe: an empty value, `C`, `POSIX`, UTF-8,
/// ISO-8859 and EUC character sets (no byte of a character other than its first is
/// below 0x80 in them), and nothing known otherwise, a value with an expansion
/// included.
pub(crate) fn charset(w: &CWord) -> Option<String> {
    let (name, value) = w.text.split_once('=')?;
    if !matches!(name, "LC_ALL" | "LC_CTYPE" | "LANG") {
        return None;
    }
    (w.dynamic || !safe_locale(value)).then(|| {
        format!(
            "`{}`, a locale whose character set may change how bash reads the text",
            crate::shell::word::show(&w.text)
        )
    })
}

/// Why the command WORDS may change how bash reads the words after it, if so: `shopt`
/// (`-s nocaseglob`, `extglob`, `cdable_vars`, `-u globskipdots`), `set` with an option
/// other than `-e`, `-u`, `-x`, `-v` and `-o pipefail` (`set -f` turns globs off),
/// and `BASHOPTS` or `SHELLOPTS` in any word (`env BASHOPTS=extglob bash -c ...`).
pub(super) fn shell_options(words: &[CWord]) -> Option<String> {
    let mut texts = words.iter().map(|w| w.text.as_str()).peekable();
    while texts
        .next_if(|t| matches!(*t, "builtin" | "command"))
        .is_some()
    {}
    let name = texts.next()?;
    let changes = match name {
        "shopt" => true,
        "set" => {
            let mut option = false;
            texts.any(|t| {
                let value = std::mem::take(&mut option);
                if value {
                    return !matches!(t, "pipefail" | "errexit" | "nounset" | "xtrace" | "verbose");
                }
                match t.strip_prefix(['-', '+']) {
                    // `-o NAME`, bundled too (`set -euo pipefail`).
                    Some(letters) => {
                        option = letters.contains('o');
                        !letters
                            .chars()
                            .all(|c| matches!(c, 'e' | 'u' | 'x' | 'v' | 'o'))
                    }
                    None => false,
                }
            }) || option
        }
        _ => false,
    };
    let named = words
        .iter()
        .any(|w| w.text.starts_with("BASHOPTS") || w.text.starts_with("SHELLOPTS"));
    (changes || named).then(|| {
        format!("`{name}`, which may change how bash reads the words after it (globs, `cd`)")
    })
}

/// Whether TEXT, after quote removal, has a `[` and after it a substitution or a
/// parameter (`$(`, backquote, `${`, `$[`, `$NAME`): given to a builtin as a variable's
/// name or to arithmetic as a value (`printf -v 'a[$(rm x)]'`, `declare 'a[$(rm x)]=1'`,
/// `read`, `let`, `declare -n`, a `declare -i` variable's value, a here-string it reads),
/// the subscript is expanded and runs what it holds. A `[` that follows no name and no
/// blank, in a text with no `(` (`PS1=[$x]`, `[$x]`), subscripts nothing: bash expands
/// such a text nowhere (`declare -a x='([0]=$(c))'` does, so a `(` keeps every `[`).
pub(super) fn subscript_expands(text: &str) -> bool {
    let bytes = text.as_bytes();
    let subscript = |k: usize| {
        text.contains('(')
            || k.checked_sub(1).is_some_and(|p| {
                let b = bytes[p];
                b.is_ascii_alphanumeric() || b == b'_' || b.is_ascii_whitespace()
            })
    };
    let Some(at) = (0..bytes.len()).find(|&k| bytes[k] == b'[' && subscript(k)) else {
        return false;
    };
    let rest = &text.as_bytes()[at..];
    rest.iter().enumerate().any(|(k, &b)| {
        b == b'`'
            || (b == b'$'
                && rest
                    .get(k + 1)
                    .is_some_and(|&n| matches!(n, b'(' | b'{' | b'[') || is_name_start(n)))
    })
}

/// A locale name whose character set keeps ASCII bytes ASCII characters: `C`, `POSIX`,
/// `C.UTF-8`, `en_US.utf8`, `de_DE.ISO-8859-1@euro`, `ja_JP.eucJP`.
pub(super) fn safe_locale(value: &str) -> bool {
    let name = value.split('@').next().unwrap_or("");
    if matches!(name, "" | "C" | "POSIX") {
        return true;
    }
    let Some((_, set)) = name.rsplit_once('.') else {
        return false;
    };
    let set: String = set
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    set == "utf8" || set.starts_with("iso8859") || set.starts_with("euc")
}

/// The name WORD assigns to, when it is an assignment `NAME=...` or `NAME+=...` with the
/// name and `=` unquoted.
pub(super) fn assignment_name(word: &WordText) -> Option<&str> {
    let text = &word.word.text;
    let prefix = &text[..word.unquoted_prefix.min(text.len())];
    let eq = prefix.find('=')?;
    let name = prefix[..eq].strip_suffix('+').unwrap_or(&prefix[..eq]);
    let mut chars = name.chars();
    let ident = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then_some(name)
}
