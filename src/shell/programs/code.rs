//! Code in a program's own language (`Role::Code`: sed's script, an awk program, a jq filter): what it opens and
//! runs, read by the program's own reader. A program whose code has no reader here is
//! read as a program the table does not know: only a rule that names it allows it
//! (DESIGN.md, "What programs do with their words"), and its words are read generously
//! for deny rules.

use super::CodeReading;

/// The reading of the code TEXT of the program NAME (the table's own name), if the
/// table has a reader for that program's language.
pub fn read_code(name: &str, text: &str) -> Option<CodeReading> {
    match name {
        "sed" => Some(super::sed::read(text)),
        "awk" | "gawk" => Some(super::awk::read(text)),
        "jq" => Some(super::jq::read(text)),
        "make" => Some(super::make_code::read(text)),
        _ => None,
    }
}

/// Whether the table's reader of NAME's language reads the code TEXT whole: it knows
/// what the code opens and runs, and the code gives no string that may run as a shell
/// line (an awk program that calls `system`, a make value a recipe may run).
pub fn read_whole(name: &str, text: &str) -> bool {
    read_code(name, text).is_some_and(|c| c.unknown.is_none() && c.maybe.is_empty())
}

/// The first of WORDS that stands in TEXT as a word of its own (letters, digits and
/// `_`), wherever it is: strings and comments included. A run that starts with a digit
/// is a number, which ends where the lexer says (awk reads `1system("x")` as `1` and a
/// call of `system`; `1e5`, `0x1f`): each name that starts inside it is looked at too.
pub(super) fn find_word<'t>(text: &'t str, words: &[&str]) -> Option<&'t str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.split(|c: char| !word(c)).find_map(|w| {
        if words.contains(&w) {
            return Some(w);
        }
        if !w.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        w.char_indices()
            .filter(|&(_, c)| c.is_ascii_alphabetic() || c == '_')
            .map(|(k, _)| &w[k..])
            .find(|rest| words.contains(rest))
    })
}

/// The start of the code S, for a reason: its first 60 characters.
pub(super) fn short(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

#[cfg(test)]
mod tests {
    use super::find_word;

    #[test]
    fn names_after_a_number() {
        let words = &["system", "getline"];
        for (text, want) in [
            ("BEGIN{x=1system(\"id\")}", Some("system")),
            ("{x=0system(\"id\")}", Some("system")),
            ("{x=.5system(\"id\")}", Some("system")),
            ("{x=1e5system(\"id\")}", Some("system")),
            ("{x=0x1fgetline}", Some("getline")),
            ("{system(\"id\")}", Some("system")),
            ("{x1system=1; mysystem=2; system_=3}", None),
            ("{print 1, \"systems\"}", None),
        ] {
            assert_eq!(find_word(text, words), want, "{text}");
        }
    }
}
