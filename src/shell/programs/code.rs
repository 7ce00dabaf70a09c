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
        _ => None,
    }
}

/// The first of WORDS that stands in TEXT as a word of its own (letters, digits and
/// `_`), wherever it is: strings and comments included.
pub(super) fn find_word<'t>(text: &'t str, words: &[&str]) -> Option<&'t str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.split(|c: char| !word(c)).find(|w| words.contains(w))
}

/// The start of the code S, for a reason: its first 60 characters.
pub(super) fn short(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}
