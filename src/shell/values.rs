//! The values a command line gives its variables, read from its raw text for deny-side
//! path rules: what `$f` may name in `f=~/.ssh/id_rsa; cat $f`.

use super::word;

/// Words of LINE that reach commands through variables, read from the raw text for
/// deny-side path rules (what `$f` may name): the values of assignments
/// (`f=~/.ssh/id_rsa; cat $f`), of arrays (`a=(x y)`) and of parameter operators
/// (`${x:-~/.ssh/id_rsa}`), the words of `for` and `select` lists, and the words that
/// use those names with the values put in, several names in one word and values made
/// of other variables too (`x=~; y=$x/.ssh; cat $y/id_rsa`). Each with its quotes
/// dropped, and again with its backslashes taken as escapes.
pub fn value_words(line: &str) -> Vec<String> {
    let tokens = value_tokens(line);
    let mut work = MAX_PUT_IN;
    let values = resolved(variables(&tokens), &mut work);
    let mut out = Vec::new();
    for (name, v) in &values {
        // The value of a variable known to name no file (`LANG=C rm -rf x`) is no
        // command's path; where the line uses it (`$LANG`), the word with it put in is.
        // Not `TZ`, nor a value with a `/` (a locale name with a `/` is a file).
        if word::is_inert_env(name) && name != "TZ" && !v.contains('/') {
            continue;
        }
        push_unquoted(&mut out, v);
        // `$'...'` as bash decodes it (`$'\x73'` is `s`).
        if v.contains("$'") {
            push_unquoted(&mut out, &decode_ansi_c(v));
        }
        // Each part of a `:` list (`x=a:~/b`, whose `~` bash expands), and the time
        // zone file `TZ` names (`TZ=:/path`, relative to the zone directory).
        if v.contains(':') {
            for part in v.split(':').filter(|p| !p.is_empty()) {
                push_unquoted(&mut out, part);
            }
        }
        if name == "TZ" {
            let zone = v.trim_start_matches(':');
            if !zone.starts_with(['/', '~']) && !zone.is_empty() {
                push_unquoted(&mut out, &format!("/usr/share/zoneinfo/{zone}"));
            }
        }
    }
    // The words that use a name given a value here, with the values in their places.
    // A word made longer than 4,096 bytes is left out, and all of them hold at most
    // 128 KB: a value used many times in one word must not make the line cost more.
    let mut bytes = 0;
    for t in tokens.iter().filter(|t| t.contains('$')).take(256) {
        if out.len() >= MAX_VALUES || bytes > 128 * 1024 {
            break;
        }
        // `${x:-../home}/.ssh/x`: the word with each operator's operand in its place.
        let defaults = replace_operators(t);
        if defaults != *t {
            push_unquoted(&mut out, &defaults);
        }
        for with in substituted(t, &values, &mut work) {
            bytes += with.len();
            push_unquoted(&mut out, &with);
        }
    }
    // `HOME` given a value in the line (`for HOME in .`, `HOME=/x`): `~` is that value.
    for (_, v) in values.iter().filter(|(name, _)| name == "HOME").take(16) {
        for t in tokens.iter().filter(|t| t.starts_with('~')).take(256) {
            let rest = &t[1..];
            if (rest.is_empty() || rest.starts_with('/')) && out.len() < MAX_VALUES {
                push_unquoted(&mut out, &format!("{v}{rest}"));
            }
        }
    }
    out.truncate(MAX_VALUES);
    out
}

/// Most value words of one line.
const MAX_VALUES: usize = 1024;
/// Most values kept for the variables of one line.
const MAX_VARIABLES: usize = 256;
/// Most forms of one word with values put in.
const MAX_FORMS: usize = 64;
/// Most bytes read and written while putting values into words for one line (each
/// form a copy of the word): past it, no more forms are made.
const MAX_PUT_IN: usize = 512 << 10;

/// The values LINE gives the variable NAME (`CDPATH`), as [`value_words`] reads them:
/// unquoted, other variables in them put in; an empty one as the empty string. No
/// value at all when they are too many to read (see [`MAX_PUT_IN`]).
pub fn values_of(line: &str, name: &str) -> Vec<String> {
    let mut work = MAX_PUT_IN;
    let values = resolved(variables(&value_tokens(line)), &mut work);
    if work == 0 {
        // Not every value was read: none is known.
        return Vec::new();
    }
    let mut out = Vec::new();
    for (_, v) in values.iter().filter(|(n, _)| n == name) {
        if v.is_empty() {
            out.push(String::new());
        }
        push_unquoted(&mut out, v);
    }
    out
}

/// The variables TOKENS give values, with each value: assignments (`x=V`, `x+=V`,
/// `a[0]=V`), arrays (`a=(V...)`, `a=([1]=V)`), the words of `for` and `select` lists,
/// the operands of parameter operators that give a value (`${x:-V}`), and the words a
/// `-c` string's positional parameters may be.
fn variables(tokens: &[String]) -> Vec<(String, String)> {
    let mut values: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() && values.len() < 4 * MAX_VARIABLES {
        let t = tokens[i].as_str();
        i += 1;
        if t == "in" && i >= 3 && matches!(tokens[i - 3].as_str(), "for" | "select") {
            let name = tokens[i - 2].clone();
            while let Some(w) = tokens.get(i).filter(|w| !matches!(w.as_str(), "do" | ";")) {
                // Past the bound no value is kept: the list is only stepped over.
                if values.len() < 4 * MAX_VARIABLES {
                    values.push((name.clone(), w.clone()));
                    // `for x in ~/.{ssh,aws}`: each word of the brace expansion.
                    values.extend(braces(w).into_iter().map(|b| (name.clone(), b)));
                }
                i += 1;
            }
            continue;
        }
        if let Some((name, value)) = t.split_once('=') {
            // `a[0]=V` assigns an element of `a`; `x+=V` appends V to what `x` holds.
            let append = name.ends_with('+');
            let name = name.trim_end_matches('+');
            let name = match name.split_once('[') {
                Some((base, sub)) if sub.ends_with(']') => base,
                _ => name,
            };
            let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if is_name && value.is_empty() && tokens.get(i).is_some_and(|w| w == "(") {
                while let Some(w) = tokens.get(i + 1).filter(|w| *w != ")") {
                    // `a=([1]=V)`: an element given its index.
                    let element = match w.strip_prefix('[').and_then(|r| r.split_once("]=")) {
                        Some((_, v)) => v.to_string(),
                        None => w.clone(),
                    };
                    values.push((name.to_string(), element));
                    i += 1;
                }
                i += 1;
            } else if is_name {
                // `x=` too: an empty value is a value (`CDPATH=` has no directory).
                if append {
                    values.extend(appended(&values, name, value));
                }
                values.push((name.to_string(), value.to_string()));
            }
        }
        values.extend(operator_defaults(t));
    }
    values.extend(positional_values(tokens));
    // The same value given again (`${x:-y} ${x:-y}`) makes no other form.
    let mut seen = std::collections::HashSet::new();
    values.retain(|pair| seen.insert(pair.clone()));
    values.truncate(MAX_VARIABLES);
    values
}

/// What `NAME+=VALUE` may leave in NAME: each value VALUES gave it before with VALUE
/// after it (`d=~/p; d+=/../.ssh` holds `~/p/../.ssh`), at most 16 of them.
fn appended(values: &[(String, String)], name: &str, value: &str) -> Vec<(String, String)> {
    values
        .iter()
        .filter(|(n, _)| n == name)
        .rev()
        .take(16)
        .map(|(_, v)| (name.to_string(), format!("{v}{value}")))
        .collect()
}

/// The words brace expansion makes of W (`~/.{ssh,aws}`), at most 16; none when it
/// has no brace expansion or more.
fn braces(w: &str) -> Vec<String> {
    use brush_parser::word::{parse_brace_expansions, BraceExpressionOrText};
    if !w.contains('{') || !w.contains('}') || w.matches('{').count() > 8 {
        return Vec::new();
    }
    match parse_brace_expansions(w, &brush_parser::ParserOptions::default()) {
        Ok(Some(pieces))
            if pieces
                .iter()
                .any(|p| matches!(p, BraceExpressionOrText::Expr(_))) =>
        {
            word::expand_braces(&pieces, 16).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// VALUES with the values made of other variables read too (`x=~; y=$x/.ssh` gives `y`
/// the value `~/.ssh`), three levels deep, and their operators' operands put in; at
/// most [`MAX_VARIABLES`]; the bytes read and made spend WORK (see [`MAX_PUT_IN`]).
fn resolved(mut values: Vec<(String, String)>, work: &mut usize) -> Vec<(String, String)> {
    for _ in 0..3 {
        let mut more = Vec::new();
        for (name, v) in values.iter().filter(|(_, v)| v.contains('$')) {
            let defaults = replace_operators(v);
            if defaults != *v {
                more.push((name.clone(), defaults));
            }
            for with in substituted(v, &values, work) {
                more.push((name.clone(), with));
            }
        }
        let before = values.len();
        let mut kept: std::collections::HashSet<(String, String)> =
            values.iter().cloned().collect();
        for pair in more {
            if values.len() >= MAX_VARIABLES {
                break;
            }
            if kept.insert(pair.clone()) {
                values.push(pair);
            }
        }
        if values.len() == before {
            break;
        }
    }
    values
}

/// The forms of the word T with the VALUES of the variables it uses put in, each name
/// by each of its values, several names in one word (`$x$y`); T itself left out. At
/// most [`MAX_FORMS`], none longer than 4,096 bytes; the bytes read and made spend
/// WORK, and no form is made once it is spent.
fn substituted(t: &str, values: &[(String, String)], work: &mut usize) -> Vec<String> {
    if !spend(work, t.len()) {
        return Vec::new();
    }
    let mut names: Vec<&str> = used_names(t).collect();
    names.sort_unstable();
    names.dedup();
    names.retain(|name| values.iter().any(|(n, _)| n == name));
    let mut forms = vec![t.to_string()];
    for name in names {
        let mut next = forms.clone();
        for f in &forms {
            for (_, v) in values.iter().filter(|(n, _)| n == name) {
                if next.len() >= MAX_FORMS || !spend(work, f.len()) {
                    break;
                }
                let uses = f.matches(name).count();
                if f.len() + uses * v.len() > 4096 || !spend(work, uses * v.len()) {
                    continue;
                }
                let with = f.replace(&format!("${{{name}}}"), v);
                let with = replace_name(&with, name, v);
                // `${a[0]}`, `${a[@]}`: any element of `a`.
                let with = replace_elements(&with, name, v);
                if with != *f && !next.contains(&with) {
                    next.push(with);
                }
            }
        }
        forms = next;
    }
    forms.retain(|f| f != t);
    forms
}

/// Spend N of WORK; false (WORK then spent) when less is left.
fn spend(work: &mut usize, n: usize) -> bool {
    match work.checked_sub(n) {
        Some(left) => {
            *work = left;
            true
        }
        None => {
            *work = 0;
            false
        }
    }
}

/// The names T expands with `$NAME` or `${NAME...`: a run of letters, digits and `_`,
/// or one digit, `@` or `*`.
fn used_names(t: &str) -> impl Iterator<Item = &str> {
    t.match_indices('$').filter_map(move |(at, _)| {
        let rest = &t[at + 1..];
        let rest = rest.strip_prefix('{').unwrap_or(rest);
        let first = rest.chars().next()?;
        if first.is_ascii_digit() || first == '@' || first == '*' {
            return Some(&rest[..1]);
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    })
}

/// What the positional parameters used in TOKENS may be when a `-c` string is given
/// them (`sh -c 'cat $1/.ssh/x' _ ~`): each plain word after the first `-c` option, at
/// most 16, for each of `$1`...`$9`, `$@`, `$*` the text uses.
fn positional_values(tokens: &[String]) -> Vec<(String, String)> {
    let Some(at) = tokens
        .iter()
        .position(|t| t.starts_with('-') && !t.starts_with("--") && t.ends_with('c'))
    else {
        return Vec::new();
    };
    let words: Vec<&String> = tokens[at + 1..]
        .iter()
        .filter(|t| !t.contains('$') && !matches!(t.as_str(), "(" | ")" | ";"))
        .take(16)
        .collect();
    let mut out = Vec::new();
    for name in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"] {
        let (short, long) = (format!("${name}"), format!("${{{name}"));
        let used = |t: &String| t.contains(&short) || t.contains(&long);
        if tokens.iter().any(used) {
            out.extend(words.iter().map(|w| (name.to_string(), (*w).clone())));
        }
    }
    out
}

/// The raw text of LINE split into words at blanks and `;&|` and backquotes, with `(`,
/// `)` and `;` as words of their own; at most 4,096 words.
fn value_tokens(line: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut start = 0;
    for (i, c) in line.char_indices() {
        if tokens.len() >= 4096 {
            return tokens;
        }
        if c.is_whitespace() || matches!(c, '&' | '|' | '`' | ';' | '(' | ')') {
            if start < i {
                tokens.push(line[start..i].to_string());
            }
            if matches!(c, '(' | ')' | ';') {
                tokens.push(c.to_string());
            }
            start = i + c.len_utf8();
        }
    }
    if start < line.len() && tokens.len() < 4096 {
        tokens.push(line[start..].to_string());
    }
    tokens
}

/// The operands of the parameter operators in T that give a value (`${x:-W}`,
/// `${x=W}`, `${x:+W}`...), with the parameter's name.
fn operator_defaults(t: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(at) = rest.find("${") {
        rest = &rest[at + 2..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_len);
        let after = after.strip_prefix(':').unwrap_or(after);
        let Some(operand) = after.strip_prefix(['-', '=', '+', '?']) else {
            continue;
        };
        let end = operand.find('}').unwrap_or(operand.len());
        if !name.is_empty() && end > 0 {
            out.push((name.to_string(), operand[..end].to_string()));
        }
    }
    out
}

/// T with every `${NAME[...]}` made V.
fn replace_elements(t: &str, name: &str, v: &str) -> String {
    let pat = format!("${{{name}[");
    let mut out = String::new();
    let mut rest = t;
    while let Some(at) = rest.find(&pat) {
        out.push_str(&rest[..at]);
        let after = &rest[at + pat.len()..];
        match after.find("]}") {
            Some(end) => {
                out.push_str(v);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&pat);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// T with every `${NAME<op>WORD}` that gives a value (`:-`, `-`, `:=`, `=`, `:+`, `+`)
/// made WORD (the innermost first, so nested ones are read too).
fn replace_operators(t: &str) -> String {
    let mut text = t.to_string();
    // Each turn takes one `${` away; a word longer than 4,096 bytes is left out.
    let turns = if t.len() > 4096 {
        0
    } else {
        t.matches("${").count()
    };
    for _ in 0..turns {
        let Some(at) = text.rfind("${") else { break };
        let rest = &text[at + 2..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let after = &rest[name_len..];
        let colon = usize::from(after.starts_with(':'));
        let after = &after[colon..];
        let Some(end) = after.find('}') else { break };
        match after.strip_prefix(['-', '=', '+']) {
            Some(op) if name_len > 0 => {
                let operand = op[..end - 1].to_string();
                let stop = at + 2 + name_len + colon + end + 1;
                text = format!("{}{operand}{}", &text[..at], &text[stop..]);
            }
            // Another form stays, out of the way of the outer ones.
            _ => text.replace_range(at..at + 1, "\u{1}"),
        }
    }
    text.replace('\u{1}', "$")
}

/// V with every `$'...'` decoded as bash does.
fn decode_ansi_c(v: &str) -> String {
    let mut out = String::new();
    let mut rest = v;
    while let Some(at) = rest.find("$'") {
        out.push_str(&rest[..at]);
        let body = &rest[at + 2..];
        // The closing quote: the first `'` not escaped by a backslash.
        let mut end = None;
        let mut escaped = false;
        for (k, c) in body.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '\'' if !escaped => {
                    end = Some(k);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(end) = end else {
            out.push_str(&rest[at..]);
            return out;
        };
        out.push_str(&word::ansi_c(&body[..end]));
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

/// T with every `$NAME` (not followed by more of a name) made V.
fn replace_name(t: &str, name: &str, v: &str) -> String {
    let pat = format!("${name}");
    let mut out = String::new();
    let mut rest = t;
    while let Some(at) = rest.find(&pat) {
        let after = &rest[at + pat.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(&pat);
        } else {
            out.push_str(v);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Push W with its quotes dropped, and again with its backslashes taken as escapes
/// (`~/.s\sh` is `~/.ssh` to bash) when that differs.
fn push_unquoted(out: &mut Vec<String>, w: &str) {
    let plain = w.replace("$'", "'").replace(['\'', '"'], "");
    let mut escaped = String::with_capacity(plain.len());
    let mut chars = plain.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            escaped.extend(chars.next());
        } else {
            escaped.push(c);
        }
    }
    if escaped != plain && !escaped.is_empty() {
        out.push(escaped);
    }
    if !plain.is_empty() {
        out.push(plain);
    }
}

/// Whether every expansion in TEXT (a word after quote removal, expansions kept as
/// written) is `$HOME` or `$PWD`, whose values the rules know: a directory such a word
/// names is known. `$HOMEX`, `${HOME%/}`, `$$`, `$(pwd)` and backquotes are not.
pub fn only_known_parameters(text: &str) -> bool {
    if text.contains('`') {
        return false;
    }
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        let after = &rest[at + 1..];
        let name_len = |s: &str, name: &str| {
            s.strip_prefix(name)
                .filter(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
                .map(|_| name.len())
        };
        let skip = ["HOME", "PWD"]
            .iter()
            .find_map(|n| name_len(after, n))
            .or_else(|| {
                ["{HOME}", "{PWD}"]
                    .iter()
                    .find(|n| after.starts_with(**n))
                    .map(|n| n.len())
            });
        match skip {
            Some(len) => rest = &after[len..],
            None => return false,
        }
    }
    true
}

/// Whether TEXT expands what only the running shell knows and no line can give: a
/// special parameter (`$$`, `$!`, `$?`, `$#`, `$-`, `$_`, `$0`...`$9`, `$@`, `$*`),
/// `$BASHPID`, or a command's output (`$(...)`, backquotes).
pub fn names_shell_state(text: &str) -> bool {
    if text.contains('`') || text.contains("$(") {
        return true;
    }
    text.match_indices('$').any(|(at, _)| {
        let after = text[at + 1..].trim_start_matches('{');
        let mut chars = after.chars();
        match chars.next() {
            Some(c) if c.is_ascii_digit() || "$!?#-@*".contains(c) => true,
            // `$_` alone, not `$_name`.
            Some('_') => !chars
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_'),
            _ => after.starts_with("BASHPID"),
        }
    })
}

/// WORD with each `$NAME` and `${NAME}` of VALUES made its value, when it expands one of
/// them and no other parameter but `HOME` and `PWD` (which the path rules read).
pub fn put_values(word: &str, values: &[(String, String)]) -> Option<String> {
    if !word.contains('$') || values.is_empty() {
        return None;
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = word;
    let mut put = false;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, len) = match after.strip_prefix('{') {
            Some(inner) => {
                let name = &inner[..inner.find('}')?];
                (name, name.len() + 2)
            }
            None => {
                let len = after.find(|c: char| !ident(c)).unwrap_or(after.len());
                (&after[..len], len)
            }
        };
        match values.iter().find(|(n, _)| n == name) {
            Some((_, value)) => {
                out.push_str(value);
                put = true;
            }
            None if matches!(name, "HOME" | "PWD") => out.push_str(&rest[at..at + 1 + len]),
            None => return None,
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    put.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::put_values;
    use crate::shell::plain_values;

    #[test]
    fn plain_values_are_put_in() {
        let values = plain_values("d=build && rm -rf \"$d/x\"");
        assert_eq!(values, [("d".to_string(), "build".to_string())]);
        assert_eq!(put_values("$d/x", &values).as_deref(), Some("build/x"));
        assert_eq!(put_values("${d}.o", &values).as_deref(), Some("build.o"));
        assert_eq!(
            put_values("$HOME/$d", &values).as_deref(),
            Some("$HOME/build")
        );
        assert_eq!(put_values("$d/$e", &values), None);
        assert_eq!(put_values("$dx", &values), None);
        assert_eq!(put_values("plain", &values), None);
        // Given elsewhere, in a loop, after use, by `read`: no plain value.
        for line in [
            "d=build; read d; rm \"$d\"",
            "rm \"$d\"; d=build",
            "for i in 1; do d=build; done; rm \"$d\"",
            "true && d=build; rm \"$d\"",
            "d=build | cat; rm \"$d\"",
        ] {
            assert_eq!(plain_values(line), [], "{line}");
        }
    }

    use super::value_words;

    #[test]
    fn append_gives_the_joined_value() {
        let words = value_words("d=~/proj; d+=/../.ssh; cat $d/id_rsa");
        assert!(words.contains(&"~/proj/../.ssh".to_string()), "{words:?}");
        assert!(
            words.contains(&"~/proj/../.ssh/id_rsa".to_string()),
            "{words:?}"
        );
        let words = value_words("d=/a; d+=/b; d+=/c; cat $d");
        assert!(words.contains(&"/a/b/c".to_string()), "{words:?}");
    }

    #[test]
    fn inert_values_are_no_words() {
        assert_eq!(value_words("LANG=C rm -rf /tmp/x"), Vec::<String>::new());
        let words = value_words("LANG=/x/loc rm -rf /tmp/x");
        assert!(words.contains(&"/x/loc".to_string()), "{words:?}");
        // Where the line uses it, the word with the value put in is still read.
        assert_eq!(value_words("LANG=C; cat $LANG/x"), vec!["C/x".to_string()]);
    }
}
