//! jq's filter text, read for the files it opens besides its input: only its module
//! directives do (`import "m" as x;`, `include "m";`, `import "d" as $d;` reads
//! `d.json`) and `modulemeta`, which loads a module by a name its input gives (jq 1.6,
//! 1.7). jq runs no command. The scan is of the whole text, strings included: a filter
//! that names one of these anywhere is unknown.

use super::code::find_word;
use super::CodeReading;

const WORDS: &[&str] = &["import", "include", "modulemeta"];

/// Read the jq filter TEXT.
pub(super) fn read(text: &str) -> CodeReading {
    let found = find_word(text, WORDS);
    CodeReading {
        unknown: found.map(|w| format!("jq filter: `{w}` opens a module file")),
        ..CodeReading::default()
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn modules_are_unknown() {
        assert_eq!(read(".a | map(.b) | @csv").unknown, None);
        assert_eq!(read("[inputs] | length").unknown, None);
        assert!(read("import \"secrets/db\" as $d; $d").unknown.is_some());
        assert!(read("include \"x\"; f").unknown.is_some());
        assert!(read("\"x\" | modulemeta").unknown.is_some());
    }
}
