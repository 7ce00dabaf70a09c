//! One error type that names the rule, the key and the problem.
//!
//! Messages read like globset's: lowercase, one sentence, no final period,
//! user input in backticks: ``rule 3 (`no-rm`): :path: invalid glob `[`: unclosed class``.
//! Context (the file, the rule, the key, the argument, the line) is kept in
//! fields and written by `Display`, never spliced into the message.

use std::fmt;

/// TEXT for a message: control characters escaped, so that a newline in a
/// path cannot forge a second line of a log or prompt.
pub(crate) fn show(text: &str) -> String {
    text.chars().flat_map(char::escape_debug).collect()
}

/// Which rule an error is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleRef {
    /// 0-based position in its list.
    pub index: usize,
    /// The rule's `:id`, when it has one.
    pub id: Option<String>,
}

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(f, "rule {} (`{}`)", self.index + 1, id),
            None => write!(f, "rule {}", self.index + 1),
        }
    }
}

/// An error from reading, compiling or checking a policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The policy file, when the rules came from one.
    pub source: Option<Box<str>>,
    /// The rule at fault, when one is.
    pub rule: Option<RuleRef>,
    /// The key at fault, without its colon (`path`, `decision`).
    pub key: Option<String>,
    /// The argument of `:args` (or `:set-args`...) at fault.
    pub argument: Option<Box<str>>,
    /// The 1-based line of the rule in its policy file.
    pub line: Option<u32>,
    /// What is wrong.
    pub message: String,
}

impl Error {
    /// An error that is about no particular rule.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            source: None,
            rule: None,
            key: None,
            argument: None,
            line: None,
            message: message.into(),
        }
    }

    /// An error about KEY of some rule (the rule is added by `in_rule`).
    pub fn key(key: &str, message: impl Into<String>) -> Error {
        Error {
            key: Some(key.to_string()),
            ..Error::new(message)
        }
    }

    /// Attach the rule this error is about, unless one is attached already.
    pub fn in_rule(mut self, index: usize, id: Option<&str>) -> Error {
        if self.rule.is_none() {
            self.rule = Some(RuleRef {
                index,
                id: id.map(str::to_string),
            });
        }
        self
    }

    /// Attach the argument this error is about, unless one is attached already.
    pub fn for_argument(mut self, argument: &str) -> Error {
        if self.argument.is_none() {
            self.argument = Some(argument.into());
        }
        self
    }

    /// Attach the line of the rule in its file, unless one is attached already.
    pub fn at_line(mut self, line: usize) -> Error {
        if self.line.is_none() {
            self.line = Some(u32::try_from(line).unwrap_or(u32::MAX));
        }
        self
    }

    /// Attach the file the rules came from.
    pub fn in_source(mut self, source: &str) -> Error {
        if self.source.is_none() {
            self.source = Some(source.into());
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(source) = &self.source {
            write!(f, "{source}: ")?;
        }
        if let Some(rule) = &self.rule {
            write!(f, "{rule}: ")?;
        }
        if let Some(key) = &self.key {
            write!(f, ":{key}: ")?;
        }
        if let Some(argument) = &self.argument {
            write!(f, "argument `{argument}`: ")?;
        }
        f.write_str(&self.message)?;
        if let Some(line) = self.line {
            write!(f, " (line {line})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Shorthand for results whose error is [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
