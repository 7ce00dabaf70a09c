//! After the call: the result the model sees, changed by the matching rules'
//! post-call effects. In order:
//!
//! 1. `:suppress-output`: the output is replaced by a short notice; nothing
//!    of it reaches the model, so it is neither redacted nor truncated.
//! 2. Otherwise `:redact` (and the secret patterns when switched on), then
//!    `:max-output` (the smallest of the applying rules).
//! 3. `:context` of every applying rule, in rule order, appended last so that
//!    truncation never cuts it.
//!
//! Redaction runs in one pass over the result: the patterns of every rule
//! that applies are joined into one alternation (built once per distinct
//! set of rules and cached), so a multi-megabyte result is scanned once.
//! The text is copied only when it changes.

use crate::compile::Policy;
use crate::eval::Prepared;
use crate::rule::Call;
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

fn builder(pattern: &str) -> RegexBuilder {
    let mut b = RegexBuilder::new(pattern);
    b.size_limit(crate::compile::REGEX_SET_SIZE_LIMIT)
        .dfa_size_limit(crate::compile::REGEX_DFA_LIMIT * 4);
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

/// The redactor for the redacting rules REDACTING of POLICY, cached.
pub fn redactor(policy: &Policy, redacting: &[usize]) -> Arc<Redactor> {
    let mut cache = match policy.redact_cache.0.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(r) = cache.get(redacting) {
        return r.clone();
    }
    let mut patterns: Vec<&str> = redacting
        .iter()
        .flat_map(|&r| policy.rules[r].rule.redact.iter().map(String::as_str))
        .collect();
    if policy.options.redact_secrets {
        patterns.extend(SECRET_PATTERNS.iter().map(|(_, p)| *p));
    }
    let made = Arc::new(redactor_for(&patterns));
    if cache.len() >= REDACT_CACHE_SIZE {
        cache.clear();
    }
    cache.insert(redacting.to_vec(), made.clone());
    made
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

/// What the post-call rules did to a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostOutcome {
    /// The new result, when it changed.
    pub result: Option<String>,
    /// The rules whose effects applied, in rule order.
    pub applied: Vec<usize>,
    /// How many matches were redacted.
    pub redactions: usize,
}

/// Truncate TEXT to N characters, with a note of how much was cut; None
/// when it is not longer than N.
pub fn truncate(text: &str, n: u64) -> Option<String> {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    let cut_at = text.char_indices().nth(n).map(|(i, _)| i)?;
    let cut = text[cut_at..].chars().count();
    let mut out = String::with_capacity(cut_at + 80);
    out.push_str(&text[..cut_at]);
    out.push_str(&format!(
        "\n[gptel-rust-hooks: output truncated: {cut} of {} characters not shown]",
        n + cut
    ));
    Some(out)
}

/// The notice the model sees instead of a withheld output.
pub fn withheld(tool: &str, chars: usize, label: &str) -> String {
    format!("[gptel-rust-hooks: the output of tool `{tool}` ({chars} characters) was withheld by {label}]")
}

fn has_post_effect(policy: &Policy, r: usize) -> bool {
    let rule = &policy.rules[r].rule;
    rule.context.is_some()
        || rule.suppress_output
        || !rule.redact.is_empty()
        || rule.max_output.is_some()
}

/// The rules of POLICY with post-call effects that match CALL, in rule
/// order. The call's result is not needed to know them.
pub fn applying(policy: &Policy, call: &Call) -> Vec<usize> {
    if !policy.has_post_effects {
        return Vec::new();
    }
    let prepared = Prepared::new(policy, call);
    crate::eval::decide_prepared(&prepared)
        .matched
        .into_iter()
        .filter(|&r| has_post_effect(policy, r))
        .collect()
}

/// Whether the result of a call to which the rules APPLIED apply must be
/// read at all.
pub fn needs_result(policy: &Policy, applied: &[usize]) -> bool {
    !applied.is_empty() || policy.options.redact_secrets
}

/// Apply the post-call effects of the rules APPLIED (from [`applying`]) to
/// ORIGINAL, the result of a call to tool TOOL.
pub fn apply(policy: &Policy, tool: &str, original: &str, applied: Vec<usize>) -> PostOutcome {
    let rule = |r: usize| &policy.rules[r].rule;
    let mut text: Cow<'_, str> = Cow::Borrowed(original);
    let mut redactions = 0;
    if let Some(r) = applied.iter().copied().find(|&r| rule(r).suppress_output) {
        text = Cow::Owned(withheld(
            tool,
            original.chars().count(),
            &policy.rules[r].label,
        ));
    } else {
        if needs_result(policy, &applied) {
            let redacting: Vec<usize> = applied
                .iter()
                .copied()
                .filter(|&r| !rule(r).redact.is_empty())
                .collect();
            match redact(&redactor(policy, &redacting), original) {
                Ok((out, n)) => {
                    text = out;
                    redactions = n;
                }
                // Fail closed: what cannot be redacted is not shown.
                Err(why) => {
                    text = Cow::Owned(format!(
                        "[gptel-rust-hooks: the output of tool `{tool}` was withheld: {why}]"
                    ))
                }
            }
        }
        if let Some(n) = applied.iter().filter_map(|&r| rule(r).max_output).min() {
            if let Some(cut) = truncate(&text, n) {
                text = Cow::Owned(cut);
            }
        }
    }
    let contexts: Vec<&str> = applied
        .iter()
        .filter_map(|&r| rule(r).context.as_deref())
        .collect();
    if !contexts.is_empty() {
        let mut t = text.into_owned();
        for context in contexts {
            if !t.is_empty() {
                if !t.ends_with('\n') {
                    t.push('\n');
                }
                t.push('\n');
            }
            t.push_str(context);
        }
        text = Cow::Owned(t);
    }
    PostOutcome {
        result: match text {
            Cow::Borrowed(_) => None,
            Cow::Owned(s) => Some(s),
        },
        applied,
        redactions,
    }
}

/// Apply the post-call effects of the rules matching CALL to its result.
///
/// A call without a result is treated as an empty result: `:context` still
/// reaches the model.
pub fn post(policy: &Policy, call: &Call) -> PostOutcome {
    let applied = applying(policy, call);
    if !needs_result(policy, &applied) {
        return PostOutcome {
            result: None,
            applied,
            redactions: 0,
        };
    }
    apply(
        policy,
        &call.name,
        call.result.as_deref().unwrap_or(""),
        applied,
    )
}
