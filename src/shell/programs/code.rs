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
        "awk" => Some(super::awk::read(text)),
        "jq" => Some(super::jq::read(text)),
        _ => None,
    }
}
