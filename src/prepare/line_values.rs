//! The values a certain line gives its variables, put into its words for the path
//! rules: a loop variable alone (`for f in build/*.o; do rm -f "$f"; done`) with the
//! words of its list, and a variable given a plain value (`d=build; rm -rf "$d/x"`).

use super::paths::PathCand;
use super::Prepared;
use crate::rule::Arg;
use crate::shell;

impl Prepared<'_> {
    /// A candidate that makes the command at AT uncertain: its word W (under KEY) holds
    /// a variable whose values the reading did not find, and names no path of its own.
    pub(super) fn unread_value(&self, key: &str, w: &str, at: (usize, usize)) -> PathCand {
        let why = format!(
            "the values of `{}` are not read (its loop's list is not plain text as written, or not found)",
            w.chars().take(100).collect::<String>()
        );
        self.uncertain_marker(key, w, at, why)
    }

    /// Whether the word W of CAND's line is the variable of a `for` loop in the call's
    /// text (`for f`, however spaced), one whose values must then be found.
    pub(super) fn names_a_loop(&self, cand: &super::CmdCand, w: &str) -> bool {
        let (Some(name), Some(Arg::Str(text))) = (loop_name(w), self.call.arg(&cand.key)) else {
            return false;
        };
        text.match_indices("for").any(|(at, _)| {
            let rest = &text[at + 3..];
            let after = rest.trim_start_matches([' ', '\t', '\n']);
            after.len() < rest.len()
                && after.strip_prefix(name).is_some_and(|r| {
                    !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
        })
    }

    /// The words of CAND's line that are a loop variable alone (`"$f"`), each with the
    /// words of its list, when the line is certain (where such a word is a loop
    /// variable that nothing else gives a value) and the lists are plain text: no
    /// quote, escape or `$` that would make its words other than the text's.
    pub(super) fn loop_words(
        &self,
        cand: &super::CmdCand,
    ) -> std::collections::HashMap<String, Vec<String>> {
        let mut out = std::collections::HashMap::new();
        let Some(Arg::Str(text)) = self.call.arg(&cand.key) else {
            return out;
        };
        if !cand.line.is_certain() || cand.deny_only || !text.contains("for ") {
            return out;
        }
        for c in &cand.line.commands {
            for w in c.paths.iter().chain(&c.redirects) {
                let Some(name) = loop_name(w) else {
                    continue;
                };
                if out.contains_key(w) || !plain_lists(text, name) {
                    continue;
                }
                let values = loop_values(text, name);
                if !values.is_empty() {
                    out.insert(w.clone(), values);
                }
            }
        }
        out
    }

    /// The words of CAND's line that expand a variable the line gives a plain value
    /// (`d=build; rm -rf "$d/x"`), each with the values put in, when the line is certain
    /// (see [`shell::plain_values`]).
    pub(super) fn plain_words(
        &self,
        cand: &super::CmdCand,
    ) -> std::collections::HashMap<String, String> {
        let mut out = std::collections::HashMap::new();
        let Some(Arg::Str(text)) = self.call.arg(&cand.key) else {
            return out;
        };
        if !cand.line.is_certain() || cand.deny_only || !text.contains('$') {
            return out;
        }
        let values = shell::plain_values(text);
        if values.is_empty() {
            return out;
        }
        for c in &cand.line.commands {
            for w in c.paths.iter().chain(&c.redirects) {
                if let Some(put) = shell::values::put_values(w, &values) {
                    out.insert(w.clone(), put);
                }
            }
        }
        out
    }
}

/// The name W expands when it is one variable alone (`$f`, `${f}`), not one the path
/// rules read themselves (`HOME`, `PWD`, `OLDPWD`).
pub(super) fn loop_name(w: &str) -> Option<&str> {
    let rest = w.strip_prefix('$')?;
    let name = match rest.strip_prefix('{') {
        Some(inner) => inner.strip_suffix('}')?,
        None => rest,
    };
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(name, "HOME" | "PWD" | "OLDPWD");
    ok.then_some(name)
}

/// Whether every `for NAME in` list of TEXT is plain text up to its end (`;`, a newline
/// or `do`): no quote, escape, `$`, backquote or brace, and there is one at least.
pub(super) fn plain_lists(text: &str, name: &str) -> bool {
    let lists = lists(text, name);
    let plain = lists.iter().all(|list| {
        !list.contains([
            '"', '\'', '\\', '$', '`', '{', '}', '(', ')', '&', '|', '<', '>',
        ])
    });
    !lists.is_empty() && plain && text.matches(&format!("{name}=")).count() == 0
}

/// The values the `for NAME in` loops of TEXT give NAME, its lists being plain (see
/// [`plain_lists`]): those of the line's own words, and, for a loop inside a string a
/// shell runs, which is in no word of the line's own, the words of every list of that
/// name read from the text (plain, so as written), whichever loop a use is in
/// (helper-74: an outer `for f in README.md` gave an inner `for f in .env` its values).
pub(super) fn loop_values(text: &str, name: &str) -> Vec<String> {
    let mut values = shell::values::values_of(text, name);
    for w in list_words(text, name) {
        if !values.contains(&w) {
            values.push(w);
        }
    }
    values
}

/// The words of every `for NAME in` list of TEXT (see [`plain_lists`]), split at blanks.
fn list_words(text: &str, name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for list in lists(text, name) {
        for w in list.split_whitespace() {
            if !out.iter().any(|o| o == w) {
                out.push(w.to_string());
            }
        }
    }
    out
}

/// The text of every `for NAME in` list of TEXT, up to its end (`;`, a newline or `do`).
fn lists<'t>(text: &'t str, name: &str) -> Vec<&'t str> {
    let head = format!("for {name} in ");
    text.match_indices(&head)
        .map(|(at, _)| {
            let list = &text[at + head.len()..];
            let end = list.find([';', '\n']).unwrap_or(list.len());
            let list = &list[..end];
            list.split(" do ").next().unwrap_or(list)
        })
        .collect()
}
