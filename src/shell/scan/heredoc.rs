//! Here-documents read as bash reads them: the body starts after the line that holds
//! the operator; in an unquoted body a backslash-newline joins two lines before the line
//! is compared with the delimiter; `<<-` strips leading tabs from the joined line; a
//! missing delimiter ends the body at the end of the text. The scan takes each body out
//! of the text and makes its operator a here-string of what the command reads.

use std::borrow::Cow;

/// A span of the text to replace for the here-document view, and its replacement.
pub(super) type Edit = (usize, usize, Cow<'static, str>);

/// A here-document waiting for its body.
pub(super) struct Pending {
    delimiter: String,
    quoted: bool,
    strip_tabs: bool,
    /// Which of the scan's edits replaces its operator.
    edit: usize,
}

/// Read the here-document operator at AT of TEXT (`<<` or `<<-`, then its delimiter
/// word) into PENDING, with the edit that replaces it in EDITS; return where scanning
/// goes on.
pub(super) fn operator(
    text: &str,
    at: usize,
    pending: &mut Vec<Pending>,
    edits: &mut Vec<Edit>,
) -> usize {
    let bytes = text.as_bytes();
    let mut j = at + 2;
    let strip_tabs = bytes.get(j) == Some(&b'-');
    if strip_tabs {
        j += 1;
    }
    while bytes.get(j).is_some_and(|c| *c == b' ' || *c == b'\t') {
        j += 1;
    }
    let start = j;
    let mut quote: Option<u8> = None;
    while let Some(&c) = bytes.get(j) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'\\' => j += 1,
            None if b" \t\n;&|<>()".contains(&c) => break,
            None => {}
        }
        j += 1;
    }
    let j = j.min(bytes.len());
    let word = &text[start..j];
    let quoted = word.contains(['\'', '"', '\\']);
    let delimiter = unquote(word);
    if !delimiter.is_empty() {
        pending.push(Pending {
            delimiter,
            quoted,
            strip_tabs,
            edit: edits.len(),
        });
        // A body never read (the text ends on the operator's line) is empty.
        edits.push((at, j, Cow::Borrowed(" <<< '' ")));
    }
    j
}

/// WORD with its quotes and backslashes removed, as bash makes a delimiter of it.
fn unquote(word: &str) -> String {
    let mut out = String::new();
    let mut chars = word.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => out.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => out.extend(chars.next()),
            (None, c) => out.push(c),
        }
    }
    out
}

/// Read the bodies of PENDING here-documents from AT of TEXT (just after the newline
/// that ends their line), as bash reads them: each body taken out (EDITS), its
/// operator made a here-string of it, and the unquoted ones kept (BODIES); return where
/// the text goes on.
pub(super) fn bodies(
    text: &str,
    at: usize,
    pending: Vec<Pending>,
    edits: &mut Vec<Edit>,
    bodies: &mut Vec<String>,
) -> usize {
    let bytes = text.as_bytes();
    let mut k = at;
    for doc in pending {
        let start = k;
        let mut body = String::new();
        let mut line = String::new();
        loop {
            if k >= bytes.len() {
                // A missing delimiter: the body runs to the end of the text.
                break;
            }
            let newline = bytes[k..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |p| k + p);
            let raw = &text[k..newline];
            // A line without a backslash (or of a quoted body) is the line as written.
            if doc.quoted || !raw.contains('\\') {
                let compared = if doc.strip_tabs {
                    raw.trim_start_matches('\t')
                } else {
                    raw
                };
                k = (newline + 1).min(bytes.len());
                if compared == doc.delimiter {
                    break;
                }
                body.push_str(compared);
                body.push('\n');
                continue;
            }
            // One logical line: an unquoted body joins backslash-newlines.
            line.clear();
            let mut end = k;
            while end < bytes.len() {
                let c = bytes[end];
                if !doc.quoted && c == b'\\' && bytes.get(end + 1) == Some(&b'\n') {
                    end += 2;
                    continue;
                }
                if c == b'\n' {
                    break;
                }
                if !doc.quoted && c == b'\\' && end + 1 < bytes.len() {
                    // An escaped character (`\\` among them) is kept, and never joins.
                    let n = next_char_len(text, end + 1);
                    line.push_str(&text[end..end + 1 + n]);
                    end += 1 + n;
                    continue;
                }
                let n = next_char_len(text, end);
                line.push_str(&text[end..end + n]);
                end += n;
            }
            let next = (end + 1).min(bytes.len());
            let compared = if doc.strip_tabs {
                line.trim_start_matches('\t')
            } else {
                line.as_str()
            };
            if compared == doc.delimiter {
                k = next;
                break;
            }
            body.push_str(compared);
            body.push('\n');
            k = next;
        }
        edits.push((start, k, Cow::Borrowed("")));
        // What the command reads, as a here-string the parser reads exactly: a program
        // that runs its standard input as a script (`bash <<E`) is read with it.
        let text = if doc.quoted {
            body.clone()
        } else {
            unescape_body(&body)
        };
        if let Some(edit) = edits.get_mut(doc.edit) {
            edit.2 = Cow::Owned(format!(" <<< '{}' ", text.replace('\'', r"'\''")));
        }
        if !doc.quoted {
            bodies.push(body);
        }
    }
    k
}

/// The text of an unquoted here-document BODY (backslash-newlines already joined) with
/// what its expansion does to backslashes: `\$`, ``\` `` and `\\` lose theirs;
/// expansions are kept as written.
fn unescape_body(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek().filter(|n| matches!(n, '$' | '`' | '\\')) {
                out.push(n);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// The length of the character at byte I of TEXT (1 past the end).
fn next_char_len(text: &str, i: usize) -> usize {
    text.get(i..)
        .and_then(|t| t.chars().next())
        .map_or(1, char::len_utf8)
}
