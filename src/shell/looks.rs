//! The readings made of a line's raw scan ([`super::scan`]) for deny-side rules, each
//! bounded ([`MAX_LOOKS`] looks, [`MAX_LOOK_WORDS`] words, [`MAX_LOOK_BYTES`] bytes; past a
//! bound the line is marked so, never read short).
//!
//! Two readings come out: the text of each `$(`, `<(`, `>(` and backquote that bash
//! would expand (up to the `)` that closes it in the scan's model; when none does, or
//! when a `case` in it may have a pattern's `)` that the model takes for the end, the
//! rest of the text: commands after the substitution's end are then guessed too, which
//! only widens what deny rules see; a `<(` or `>(` in an unquoted `${x:-...}`, of any
//! operator, runs too), and the line with its
//! here-document bodies taken out where bash ends them (so that the commands after a
//! body reach the parser), each `<<WORD` made a single-quoted here-string of the body
//! bash reads (so that a shell reading its standard input, `bash <<E`, is read with the
//! script bash gives it), with the substitutions of its unquoted bodies, and each `<<`
//! inside a `${...}` (no here-document for bash, one for brush-parser, which would
//! swallow the lines after it) written `\<\<`.
//!
//! On a line that runs a shell, a third: its scripts (see [`scripts`]), the value of each
//! here-string of the line and of those readings (here-document bodies among them),
//! which a shell may read wherever it stands (`bash /dev/stdin <<E`, `{ bash; } <<E`,
//! `exec <<E` then `bash`), each with its own second looks.

use super::scan::{scan, words_up_to, Ctx, MAX_REGIONS, MAX_SCANNED, TOP};
use super::CommandLine;

/// Most second looks at one command line; past it the line is truncated.
const MAX_LOOKS: usize = 256;

/// Most words (counted by [`words_up_to`]) in the second looks at one command line; past it
/// the line is truncated.
const MAX_LOOK_WORDS: usize = 4_096;

/// Most bytes in the second looks at one command line; past it the line is truncated.
const MAX_LOOK_BYTES: usize = 2 * super::guard::MAX_LINE;

/// The text of each `$(`, `<(`, `>(` and backquote of LINE that bash would expand (see
/// the module documentation), at most [`MAX_REGIONS`].
pub fn substitution_regions(line: &str) -> Vec<String> {
    regions(line)
        .0
        .into_iter()
        .filter_map(|group| group.into_iter().next())
        .collect()
}

/// The texts of LINE's substitutions, each a group of the texts bash may read for it
/// (see [`Region::texts`]), and whether some were left out.
///
/// With them, the text of each comment whose `#` comes right after `(` or `|`: in an
/// extended pattern (`[[ x == @(a|#b) ]]; rm x`) that `#` starts no comment, and what
/// follows it runs.
fn regions(line: &str) -> (Vec<Vec<String>>, bool) {
    if line.len() > MAX_SCANNED {
        return (Vec::new(), true);
    }
    let found = scan(line, TOP);
    let bytes = line.as_bytes();
    let tight = found.comments.iter().filter_map(|&(start, end)| {
        let after = start.checked_sub(1).map(|k| bytes[k]);
        if matches!(after, Some(b'(' | b'|')) {
            line.get(start + 1..end).map(|t| vec![t.to_string()])
        } else {
            None
        }
    });
    let mut texts: Vec<Vec<String>> = tight.collect();
    texts.extend(found.regions.into_iter().map(|r| r.texts(line)));
    (texts, found.cut)
}

/// A command line with its here-document bodies taken out where bash ends them.
struct View {
    text: String,
    /// The texts of its unquoted bodies' substitutions (see [`regions`]).
    substitutions: Vec<Vec<String>>,
    /// Some substitutions were left out.
    cut: bool,
}

/// LINE's here-document view; None when it has no here-document.
fn heredoc_view(line: &str) -> Option<View> {
    if line.len() > MAX_SCANNED || !line.contains("<<") {
        return None;
    }
    let found = scan(line, TOP);
    if found.edits.is_empty() {
        return None;
    }
    let mut edits = found.edits;
    edits.sort_by_key(|e| e.0);
    let mut view = String::with_capacity(line.len());
    let mut at = 0;
    for (start, end, with) in edits {
        if start < at {
            continue;
        }
        view.push_str(line.get(at..start).unwrap_or(""));
        view.push_str(&with);
        at = end;
    }
    view.push_str(line.get(at..).unwrap_or(""));
    let mut substitutions = Vec::new();
    let mut cut = found.cut;
    for body in &found.bodies {
        let inner = scan(body, Ctx::Body);
        cut |= inner.cut;
        substitutions.extend(inner.regions.into_iter().map(|r| r.texts(body)));
    }
    Some(View {
        text: view,
        substitutions,
        cut,
    })
}

/// The values of TEXT's here-strings (see [`string_value`]), each once, at most
/// [`MAX_LOOKS`] + 1.
fn here_strings(text: &str) -> Vec<String> {
    if text.len() > MAX_SCANNED || !text.contains("<<<") {
        return Vec::new();
    }
    let found = scan(text, TOP);
    let mut words = std::collections::HashSet::new();
    found
        .strings
        .iter()
        .filter_map(|&(start, end)| text.get(start..end))
        .filter(|w| words.insert(*w))
        .take(MAX_LOOKS + 1)
        .map(string_value)
        .collect()
}

/// The text the here-string WORD gives, as bash makes it: quotes taken out (`$'...'`
/// decoded), and the backslashes that quote (`\x` unquoted; `\$`, ``\` ``, `\"`, `\\`
/// and backslash-newline in double quotes); expansions kept as written.
fn string_value(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => out.extend(chars.by_ref().take_while(|&c| c != '\'')),
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                let mut body = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            body.push(c);
                            body.extend(chars.next());
                        }
                        '\'' => break,
                        _ => body.push(c),
                    }
                }
                out.push_str(&super::word::ansi_c(&body));
            }
            // `$"..."` is read as `"..."`.
            '$' if chars.peek() == Some(&'"') => {}
            '"' => {
                while let Some(c) = chars.next() {
                    match (c, chars.peek()) {
                        ('"', _) => break,
                        ('\\', Some('\n')) => {
                            chars.next();
                        }
                        ('\\', Some(&n)) if matches!(n, '$' | '`' | '"' | '\\') => {
                            out.push(n);
                            chars.next();
                        }
                        _ => out.push(c),
                    }
                }
            }
            '\\' => {
                if let Some(n) = chars.next().filter(|&n| n != '\n') {
                    out.push(n);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The second looks at a command line, for deny-side rules.
pub struct Looks {
    /// The texts to read again.
    pub texts: Vec<String>,
    /// For each text, its group: the texts of one group are the ends bash may give one
    /// substitution, of which it reads one (see [`Region::texts`]).
    pub groups: Vec<usize>,
    /// Which text is the line's here-document view: the whole line as bash reads it,
    /// its here-document bodies taken out where bash ends them.
    pub whole: Option<usize>,
    /// Why some were left out, if a bound was reached: the line is then truncated.
    pub cut: Option<String>,
    /// The strings given to `-c`-style options that were looked at.
    pub strings: Vec<String>,
    /// What `texts` spent of the bounds: texts, bytes and words (see [`words_up_to`]).
    pub spent: Spent,
}

/// What second looks spent of their bounds ([`MAX_LOOKS`], [`MAX_LOOK_BYTES`],
/// [`MAX_LOOK_WORDS`]).
#[derive(Clone, Copy, Default, Debug)]
pub struct Spent {
    texts: usize,
    bytes: usize,
    words: usize,
}

/// Look at TEXT: its substitution regions and its here-document view, as groups of OUT
/// (CUT when some were left out); the group of the view, if it has one.
fn look(text: &str, out: &mut Vec<Vec<String>>, cut: &mut bool) -> Option<usize> {
    let (found, left_out) = regions(text);
    *cut |= left_out;
    out.extend(found);
    let view = heredoc_view(text)?;
    let (found, left_out) = regions(&view.text);
    *cut |= left_out || view.cut;
    out.extend(found);
    out.push(vec![view.text]);
    let group = out.len() - 1;
    out.extend(view.substitutions);
    Some(group)
}

/// Why second looks were left out at a bound.
fn past_bounds() -> String {
    format!(
        "more than {MAX_LOOKS} texts, {} KB or {MAX_LOOK_WORDS} words to read again in its substitutions and here-documents",
        MAX_LOOK_BYTES >> 10
    )
}

/// The texts of the groups OUT, numbered from FIRST, each once (not in SEEN), within the
/// bounds (what SPENT has left): the texts and their groups, and whether some were left
/// out.
fn within_bounds(
    out: Vec<Vec<String>>,
    first: usize,
    seen: &mut std::collections::HashSet<String>,
    spent: &mut Spent,
) -> (Vec<String>, Vec<usize>, bool) {
    let mut texts = Vec::new();
    let mut groups = Vec::new();
    for (group, members) in out.into_iter().enumerate() {
        for text in members {
            if seen.contains(&text) {
                continue;
            }
            spent.bytes += text.len();
            if spent.texts < MAX_LOOKS && spent.bytes <= MAX_LOOK_BYTES {
                spent.words += words_up_to(&text, MAX_LOOK_WORDS.saturating_sub(spent.words));
            }
            if spent.texts >= MAX_LOOKS
                || spent.bytes > MAX_LOOK_BYTES
                || spent.words > MAX_LOOK_WORDS
            {
                return (texts, groups, true);
            }
            spent.texts += 1;
            seen.insert(text.clone());
            texts.push(text);
            groups.push(first + group);
        }
    }
    (texts, groups, false)
}

/// The second looks at LINE (whose reading is MAIN) for deny-side rules: its
/// substitution regions, its here-document view, and the same for the strings its simple
/// commands give to a `-c`-style option (`sh -c STR`, `su -c STR`); at most
/// [`MAX_LOOKS`] texts of at most [`MAX_LOOK_WORDS`] words in all.
pub fn second_looks(line: &str, main: &CommandLine) -> Looks {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut cut = false;
    // The line's own here-document view is a reading of the whole line.
    let whole_group = look(line, &mut out, &mut cut);
    // Each command of a shell string carries the outer command: look at each string once.
    let mut strings: Vec<String> = Vec::new();
    for c in &main.commands {
        for pair in c.written.windows(2) {
            if pair[0].starts_with('-') && pair[0].ends_with('c') && !strings.contains(&pair[1]) {
                look(&pair[1], &mut out, &mut cut);
                strings.push(pair[1].clone());
            }
        }
    }
    let mut why = cut.then(|| format!("more than {MAX_REGIONS} substitutions to read again"));
    let mut spent = Spent::default();
    let (texts, groups, left_out) =
        within_bounds(out, 0, &mut std::collections::HashSet::new(), &mut spent);
    if left_out {
        why.get_or_insert_with(past_bounds);
    }
    let whole = whole_group.and_then(|g| groups.iter().position(|&k| k == g));
    Looks {
        texts,
        groups,
        whole,
        cut: why,
        strings,
        spent,
    }
}

/// The scripts of a line: its here-documents and here-strings as texts a shell may read.
pub struct Scripts {
    /// The texts to read.
    pub texts: Vec<String>,
    /// Their groups (see [`Looks::groups`]), numbered on from the second looks'.
    pub groups: Vec<usize>,
    /// Why some were left out, if a bound was reached: the line is then truncated.
    pub cut: Option<String>,
}

/// The scripts of LINE, whose second looks are LOOKS and looked at its -c STRINGS, for
/// when the line runs a shell, which may read any here-document or here-string of the
/// line as its script (`bash /dev/stdin <<E`, `{ bash; } <<E`, `exec <<E` then `bash`):
/// the value of each here-string of the line, its strings and its second looks (a
/// here-document is one in a here-document view), read as a script with its own second
/// looks, and so on [`super::MAX_DEPTH`] deep; within what LOOKS left of the bounds
/// (SPENT); their groups numbered from FIRST.
pub fn scripts(
    line: &str,
    strings: &[String],
    looks: &[String],
    spent: Spent,
    first: usize,
) -> Scripts {
    let mut spent = spent;
    let mut seen: std::collections::HashSet<String> = looks.iter().cloned().collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut cut = false;
    let sources = std::iter::once(line).chain(strings.iter().chain(looks).map(String::as_str));
    let mut found: Vec<String> = sources.flat_map(here_strings).collect();
    let mut values: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut built = spent.bytes;
    for _ in 0..super::MAX_DEPTH {
        let from = out.len();
        for value in found {
            if spent.texts + out.len() >= MAX_LOOKS || built + value.len() > MAX_LOOK_BYTES {
                cut = true;
                break;
            }
            if values.insert(value.clone()) {
                let at = out.len();
                out.push(vec![value.clone()]);
                look(&value, &mut out, &mut cut);
                built += out[at..].iter().flatten().map(String::len).sum::<usize>();
            }
        }
        if cut {
            break;
        }
        found = out[from..]
            .iter()
            .flatten()
            .flat_map(|s| here_strings(s))
            .collect();
        if found.is_empty() {
            break;
        }
    }
    let (texts, groups, left_out) = within_bounds(out, first, &mut seen, &mut spent);
    Scripts {
        texts,
        groups,
        cut: (cut || left_out).then(past_bounds),
    }
}
