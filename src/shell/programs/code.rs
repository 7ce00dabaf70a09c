//! Code in a program's own language (`Role::Code`: sed's script): what it opens and
//! runs, read by the program's own reader. A program whose code has no reader here is
//! read as a program the table does not know: only a rule that names it allows it
//! (DESIGN.md, "What programs do with their words"), and its words are read generously
//! for deny rules.

/// What a piece of code does besides its program's plain work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeReading {
    /// Files it reads.
    pub reads: Vec<String>,
    /// Files it writes.
    pub writes: Vec<String>,
    /// Shell command lines it runs.
    pub shell: Vec<String>,
    /// Why the code could not be read to its end, or runs what the reading cannot know:
    /// the command is then not certain.
    pub unknown: Option<String>,
}

/// The reading of the code TEXT of the program NAME (the table's own name), if the
/// table has a reader for that program's language.
pub fn read_code(name: &str, text: &str) -> Option<CodeReading> {
    match name {
        "sed" => Some(super::sed::read(text)),
        _ => None,
    }
}
