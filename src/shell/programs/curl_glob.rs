//! curl's own globs, which it expands in its URLs and in the files `-T` uploads unless
//! `-g` (bash leaves `{.ssh}` and `[1-3]` alone when they hold no comma or match no
//! file): sets `{a,b}`, ranges `[1-3]`, `[a-c]`, `[01-10:2]` (zero-padded, a step), a
//! `\` before a glob character keeping it, and an IPv6 address in brackets left as it
//! is. Each name comes with what each glob matched, which `-o` puts for `#1`, `#2`...

/// Most names one word may give: past it, the word is not read.
pub(super) const MAX_NAMES: usize = 64;

/// A name a glob gives, and what each of its globs matched, in order.
pub(super) type Expansion = (String, Vec<String>);

/// TEXT as curl expands it; None when it gives more than [`MAX_NAMES`] names or is no
/// glob curl accepts (curl then refuses it).
pub(super) fn expand(text: &str) -> Option<Vec<Expansion>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<Expansion> = vec![(String::new(), Vec::new())];
    let mut k = 0;
    while let Some(&c) = chars.get(k) {
        let (alternatives, next) = match c {
            '\\' if chars.get(k + 1).is_some_and(|n| "{}[]".contains(*n)) => {
                (vec![chars[k + 1].to_string()], k + 2)
            }
            '{' => {
                let close = find_close(&chars, k, '}')?;
                (set(&chars[k + 1..close]), close + 1)
            }
            '[' => {
                let close = find_close(&chars, k, ']')?;
                let inside: String = chars[k + 1..close].iter().collect();
                if is_ipv6(&inside) {
                    let literal: String = chars[k..=close].iter().collect();
                    append(&mut out, &literal);
                    k = close + 1;
                    continue;
                }
                (range(&inside)?, close + 1)
            }
            '}' | ']' => return None,
            c => {
                append(&mut out, &c.to_string());
                k += 1;
                continue;
            }
        };
        let glob = c != '\\';
        if out.len().saturating_mul(alternatives.len()) > MAX_NAMES {
            return None;
        }
        out = out
            .iter()
            .flat_map(|(t, m)| {
                alternatives.iter().map(move |a| {
                    let mut m = m.clone();
                    if glob {
                        m.push(a.clone());
                    }
                    (format!("{t}{a}"), m)
                })
            })
            .collect();
        k = next;
    }
    Some(out)
}

/// NAME (an `-o` value) with each `#N` replaced by what the Nth glob matched, as
/// MATCHES gives them; a `#N` with no such glob is kept.
pub(super) fn fill(name: &str, matches: &[String]) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    let mut k = 0;
    while let Some(&c) = chars.get(k) {
        let digits: String = chars
            .get(k + 1..)
            .unwrap_or(&[])
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .collect();
        let n: Option<usize> = digits.parse().ok();
        match (
            c,
            n.and_then(|n| n.checked_sub(1))
                .and_then(|i| matches.get(i)),
        ) {
            ('#', Some(m)) => {
                out.push_str(m);
                k += 1 + digits.len();
            }
            _ => {
                out.push(c);
                k += 1;
            }
        }
    }
    out
}

/// Add TEXT to each name of OUT.
fn append(out: &mut [Expansion], text: &str) {
    for (t, _) in out.iter_mut() {
        t.push_str(text);
    }
}

/// Where the glob opened at AT closes with CLOSE; None when it does not, or another
/// glob opens inside it (curl does not nest them).
fn find_close(chars: &[char], at: usize, close: char) -> Option<usize> {
    let mut k = at + 1;
    while let Some(&c) = chars.get(k) {
        match c {
            '\\' => k += 2,
            c if c == close => return Some(k),
            '{' | '[' if close == '}' => return None,
            _ => k += 1,
        }
    }
    None
}

/// The members of a set's INSIDE, split at commas not escaped.
fn set(inside: &[char]) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut k = 0;
    while let Some(&c) = inside.get(k) {
        match c {
            '\\' if k + 1 < inside.len() => {
                if let Some(last) = out.last_mut() {
                    last.push(inside[k + 1]);
                }
                k += 2;
                continue;
            }
            ',' => out.push(String::new()),
            c => {
                if let Some(last) = out.last_mut() {
                    last.push(c);
                }
            }
        }
        k += 1;
    }
    out
}

/// Whether INSIDE (between brackets) reads as an IPv6 address, which curl leaves.
fn is_ipv6(inside: &str) -> bool {
    inside.contains(':')
        && inside
            .chars()
            .all(|c| c.is_ascii_hexdigit() || matches!(c, ':' | '.' | '%'))
}

/// The values of the range INSIDE (`1-3`, `a-c`, `01-10:2`); None when curl would not
/// take it or it gives more than [`MAX_NAMES`].
fn range(inside: &str) -> Option<Vec<String>> {
    let (span, step) = match inside.split_once(':') {
        Some((s, st)) => (s, st.parse::<u64>().ok().filter(|n| *n > 0)?),
        None => (inside, 1),
    };
    let (from, to) = span.split_once('-')?;
    let letters = |s: &str| {
        let mut cs = s.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
            _ => None,
        }
    };
    if let (Some(a), Some(b)) = (letters(from), letters(to)) {
        if a > b || a.is_ascii_lowercase() != b.is_ascii_lowercase() {
            return None;
        }
        let values: Vec<String> = (a..=b)
            .step_by(usize::try_from(step).ok()?)
            .map(String::from)
            .collect();
        return (values.len() <= MAX_NAMES).then_some(values);
    }
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if !digits(from) || !digits(to) {
        return None;
    }
    let (a, b): (u64, u64) = (from.parse().ok()?, to.parse().ok()?);
    if a > b || (b - a) / step >= MAX_NAMES as u64 {
        return None;
    }
    let width = if from.starts_with('0') { from.len() } else { 0 };
    Some(
        (a..=b)
            .step_by(usize::try_from(step).ok()?)
            .map(|n| format!("{n:0width$}"))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Option<Vec<String>> {
        expand(text).map(|e| e.into_iter().map(|(t, _)| t).collect())
    }

    #[test]
    fn globs_expand_as_curl_does() {
        assert_eq!(names("/root/{.ssh}/k"), Some(vec!["/root/.ssh/k".into()]));
        assert_eq!(names("{.env}"), Some(vec![".env".into()]));
        assert_eq!(
            names("f{a,b}[1-2]"),
            Some(vec!["fa1".into(), "fa2".into(), "fb1".into(), "fb2".into()])
        );
        assert_eq!(names("[08-10:2]"), Some(vec!["08".into(), "10".into()]));
        assert_eq!(
            names("[a-c]"),
            Some(vec!["a".into(), "b".into(), "c".into()])
        );
        assert_eq!(names("x\\{a\\}"), Some(vec!["x{a}".into()]));
        assert_eq!(
            names("http://[::1]:8080/{a}"),
            Some(vec!["http://[::1]:8080/a".into()])
        );
        assert_eq!(names("plain"), Some(vec!["plain".into()]));
        // Refused by curl, or too many: not read.
        for bad in [
            "{a", "a}", "x\\{a}", "[1-]", "[z-a]", "[a-Z]", "[1-1000]", "{a,{b}}", "[1-2:0]",
        ] {
            assert_eq!(names(bad), None, "{bad}");
        }
        assert_eq!(names("[1-8]{a,b,c,d,e,f,g,h}[1-2]"), None);
    }

    #[test]
    fn output_names_take_the_matches() {
        let e = expand("http://h/{.ssh,x}/[1-2]").unwrap_or_default();
        let filled: Vec<String> = e.iter().map(|(_, m)| fill("/root/#1/k#2#3", m)).collect();
        assert_eq!(filled[0], "/root/.ssh/k1#3");
        assert_eq!(filled.len(), 4);
        assert_eq!(fill("a#b", &[]), "a#b");
    }
}
