//! Raw scans of a command line's text, beside the parse: second looks that
//! deny-side rules get at commands a parser might have read as quoted text.

use super::CommandLine;

/// Longest line scanned for substitution regions.
const MAX_SCANNED: usize = 4096;

/// Most raw substitution regions scanned in one command line.
const MAX_REGIONS: usize = 16;

/// The text after each `$(` and backquote of LINE that bash would expand:
/// outside single quotes (but inside double quotes, where a `'` is just a
/// character), not escaped, not in a quoted here-document. A second look
/// for deny-side rules at commands a parser might take for quoted text;
/// parse errors in a region still show its commands (guessed) to deny rules.
pub fn substitution_regions(line: &str) -> Vec<&str> {
    if line.len() > MAX_SCANNED {
        return Vec::new();
    }
    #[derive(PartialEq)]
    enum Q {
        Normal,
        Single,
        Double,
    }
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut state = Q::Normal;
    // Here-documents waiting for the end of the line: (delimiter, quoted, strip tabs).
    let mut pending: Vec<(String, bool, bool)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() && out.len() < MAX_REGIONS {
        let b = bytes[i];
        match state {
            Q::Single => {
                if b == b'\'' {
                    state = Q::Normal;
                }
            }
            Q::Normal | Q::Double => {
                if b == b'\\' {
                    i += 2;
                    continue;
                }
                if b == b'$' && bytes.get(i + 1) == Some(&b'(') {
                    out.push(&line[i + 2..]);
                } else if b == b'`' {
                    out.push(&line[i + 1..]);
                } else if b == b'"' {
                    state = if state == Q::Double {
                        Q::Normal
                    } else {
                        Q::Double
                    };
                } else if b == b'\'' && state == Q::Normal {
                    state = Q::Single;
                } else if state == Q::Normal && bytes[i..].starts_with(b"<<<") {
                    i += 3;
                    continue;
                } else if state == Q::Normal && bytes[i..].starts_with(b"<<") {
                    let mut j = i + 2;
                    let strip = bytes.get(j) == Some(&b'-');
                    if strip {
                        j += 1;
                    }
                    while bytes.get(j).is_some_and(|c| *c == b' ' || *c == b'\t') {
                        j += 1;
                    }
                    let start = j;
                    while bytes.get(j).is_some_and(|c| !b" \t\n;|&<>()".contains(c)) {
                        j += 1;
                    }
                    let word = &line[start..j];
                    let quoted = word.contains(['\'', '"', '\\']);
                    let delim: String = word
                        .chars()
                        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                        .collect();
                    if !delim.is_empty() {
                        pending.push((delim, quoted, strip));
                    }
                    i = j;
                    continue;
                } else if b == b'\n' && state == Q::Normal && !pending.is_empty() {
                    // Skip the bodies of quoted here-documents; unquoted ones
                    // are scanned on (their expansions run).
                    let mut k = i + 1;
                    for (delim, quoted, strip) in std::mem::take(&mut pending) {
                        loop {
                            let end = line[k..].find('\n').map_or(line.len(), |e| k + e);
                            let text = &line[k..end];
                            let text = if strip {
                                text.trim_start_matches('\t')
                            } else {
                                text
                            };
                            if !quoted {
                                for (o, _) in text.match_indices("$(") {
                                    if out.len() < MAX_REGIONS {
                                        let at = end - text.len() + o;
                                        out.push(&line[at + 2..]);
                                    }
                                }
                            }
                            k = (end + 1).min(line.len());
                            if text == delim || end >= line.len() {
                                break;
                            }
                        }
                    }
                    i = k;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

/// The second looks at LINE (whose reading is MAIN) for deny-side rules:
/// its substitution regions, and those of the strings its simple commands
/// give to a `-c`-style option (`sh -c STR`, `su -c STR`), at most
/// [`MAX_REGIONS`] in all.
pub fn second_looks(line: &str, main: &CommandLine) -> Vec<String> {
    let mut out: Vec<String> = substitution_regions(line)
        .into_iter()
        .map(str::to_string)
        .collect();
    for c in &main.commands {
        for pair in c.written.windows(2) {
            if pair[0].starts_with('-') && pair[0].ends_with('c') {
                out.extend(
                    substitution_regions(&pair[1])
                        .into_iter()
                        .map(str::to_string),
                );
            }
        }
    }
    out.truncate(MAX_REGIONS);
    out
}
