//! The one-pass redactor: the patterns of every rule that applies to a
//! result (and the secret patterns, when switched on) joined into one
//! alternation, built once per distinct set of rules and cached, so that a
//! multi-megabyte result is scanned once. The text is copied only when it
//! changes.

use crate::index::{REGEX_SET_DFA_LIMIT, REGEX_SET_SIZE_LIMIT};
use regex::{Regex, RegexBuilder};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What replaces each redacted match.
pub const REDACTED: &str = "[REDACTED]";

/// Well-known secret patterns, for `gptel-rust-hooks-redact-secrets`.
pub const SECRET_PATTERNS: &[(&str, &str)] = &[
    (
        "private key block",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----",
    ),
    (
        "OpenAI or Anthropic API key",
        r"(?-u:\b)sk-[A-Za-z0-9_-]{20,}",
    ),
    (
        "AWS access key id",
        r"(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)",
    ),
    (
        "AWS secret access key",
        r#"(?i)aws_secret_access_key["']?\s*[=:]\s*["']?[A-Za-z0-9/+=]{40}"#,
    ),
    (
        "GitHub token",
        r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
    ),
    ("Google API key", r"(?-u:\b)AIza[0-9A-Za-z_-]{35}"),
    ("Slack token", r"(?-u:\b)xox[abposr]-[A-Za-z0-9-]{10,}"),
    ("Stripe live key", r"(?-u:\b)[rs]k_live_[0-9A-Za-z]{24,}"),
    ("Hugging Face token", r"(?-u:\b)hf_[A-Za-z0-9]{30,}"),
    (
        "JSON Web Token",
        r"(?-u:\b)eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    ),
    (
        "bearer token",
        r"(?i)(?-u:\b)bearer\s+[A-Za-z0-9._~+/-]{16,}=*",
    ),
];

/// How the patterns of a set of rules are applied.
#[derive(Debug)]
pub enum Redactor {
    /// No pattern: nothing to redact.
    Nothing,
    /// All patterns joined into one regexp: one pass over the text.
    Joined(Regex),
    /// The patterns could not be joined (duplicate group names, size): one
    /// pass per pattern, never silently none.
    Each(Vec<Regex>),
    /// A pattern cannot be built at all: the output is withheld.
    Broken(String),
}

/// Most sets of rules whose redactor is kept.
const REDACT_CACHE_SIZE: usize = 64;

/// Redactors, one per distinct set of applying rules.
#[derive(Debug, Default)]
pub struct RedactCache(Mutex<HashMap<Vec<usize>, Arc<Redactor>>>);

impl RedactCache {
    /// The redactor cached under KEY (a set of rules), made by MAKE when
    /// there is none yet.
    pub fn get_or_make(&self, key: &[usize], make: impl FnOnce() -> Redactor) -> Arc<Redactor> {
        let mut cache = match self.0.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(r) = cache.get(key) {
            return r.clone();
        }
        let made = Arc::new(make());
        if cache.len() >= REDACT_CACHE_SIZE {
            cache.clear();
        }
        cache.insert(key.to_vec(), made.clone());
        made
    }
}

fn builder(pattern: &str) -> RegexBuilder {
    let mut b = RegexBuilder::new(pattern);
    b.size_limit(REGEX_SET_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SET_DFA_LIMIT);
    b
}

/// Join PATTERNS into one regexp; None when there are none or they cannot
/// be joined.
pub fn join(patterns: &[&str]) -> Option<Regex> {
    if patterns.is_empty() {
        return None;
    }
    let joined: Vec<String> = patterns.iter().map(|p| format!("(?:{p})")).collect();
    builder(&joined.join("|")).build().ok()
}

/// The redactor for PATTERNS: joined when possible, else one by one.
pub fn redactor_for(patterns: &[&str]) -> Redactor {
    if patterns.is_empty() {
        return Redactor::Nothing;
    }
    if let Some(regex) = join(patterns) {
        return Redactor::Joined(regex);
    }
    let mut each = Vec::with_capacity(patterns.len());
    for p in patterns {
        match builder(p).build() {
            Ok(r) => each.push(r),
            Err(e) => return Redactor::Broken(format!("redaction pattern `{p}`: {e}")),
        }
    }
    Redactor::Each(each)
}

/// Replace every match of REDACTOR in TEXT by [`REDACTED`]; the count of
/// matches, or the reason it cannot redact.
pub fn redact<'t>(redactor: &Redactor, text: &'t str) -> Result<(Cow<'t, str>, usize), String> {
    let mut count = 0;
    let mut once = |regex: &Regex, text: Cow<'t, str>| -> Cow<'t, str> {
        let mut n = 0;
        let replaced = regex.replace_all(&text, |_: &regex::Captures<'_>| {
            n += 1;
            REDACTED
        });
        count += n;
        match replaced {
            Cow::Borrowed(_) => text,
            Cow::Owned(s) => Cow::Owned(s),
        }
    };
    let out = match redactor {
        Redactor::Nothing => Cow::Borrowed(text),
        Redactor::Joined(regex) => once(regex, Cow::Borrowed(text)),
        Redactor::Each(regexes) => regexes
            .iter()
            .fold(Cow::Borrowed(text), |t, regex| once(regex, t)),
        Redactor::Broken(why) => return Err(why.clone()),
    };
    Ok((out, count))
}
