//! After the call: the result the model sees, changed by the matching rules'
//! `:redact`, `:suppress-output`, `:max-output` and `:context`, in that order.
//!
//! Redaction runs in one pass over the result: the patterns of every rule
//! that applies are joined into one alternation (built once per distinct
//! set of rules and cached), so a multi-megabyte result is scanned once.

use crate::compile::Policy;
use crate::eval::{Decided, Prepared};
use crate::rule::Call;
use regex::{Regex, RegexBuilder};
use std::collections::HashMap;
use std::sync::Mutex;

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

/// Redaction regexps, one per distinct set of applying rules.
#[derive(Debug, Default)]
pub struct RedactCache(Mutex<HashMap<Vec<usize>, Option<Regex>>>);

/// Join PATTERNS into one regexp; None when there are none or it is too big.
pub fn join(patterns: &[&str]) -> Option<Regex> {
    if patterns.is_empty() {
        return None;
    }
    let joined: Vec<String> = patterns.iter().map(|p| format!("(?:{p})")).collect();
    RegexBuilder::new(&joined.join("|"))
        .size_limit(crate::compile::REGEX_SET_SIZE_LIMIT)
        .dfa_size_limit(crate::compile::REGEX_DFA_LIMIT * 4)
        .build()
        .ok()
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

/// Truncate TEXT to N characters, with a note of how much was cut.
fn truncate(text: &str, n: u64) -> Option<String> {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    let cut_at = text.char_indices().nth(n).map(|(i, _)| i)?;
    let total = text.chars().count();
    let mut out = text[..cut_at].to_string();
    out.push_str(&format!(
        "\n[gptel-rust-hooks: output truncated: {} of {total} characters not shown]",
        total - n
    ));
    Some(out)
}

/// Apply the post-call effects of the rules matching CALL to its result.
pub fn post(policy: &Policy, call: &Call) -> PostOutcome {
    let none = PostOutcome {
        result: None,
        applied: Vec::new(),
        redactions: 0,
    };
    let Some(original) = call.result.as_deref() else {
        return none;
    };
    if !policy.has_post_effects && !policy.options.redact_secrets {
        return none;
    }
    let prepared = Prepared::new(policy, call);
    let Decided { matched, .. } = crate::eval::decide_prepared(&prepared);
    let applied: Vec<usize> = matched
        .into_iter()
        .filter(|&r| {
            let rule = &policy.rules[r].rule;
            rule.context.is_some()
                || rule.suppress_output
                || !rule.redact.is_empty()
                || rule.max_output.is_some()
        })
        .collect();
    let redacting: Vec<usize> = applied
        .iter()
        .copied()
        .filter(|&r| !policy.rules[r].rule.redact.is_empty())
        .collect();
    let mut text: Option<String> = None;
    let mut redactions = 0;
    if !redacting.is_empty() || policy.options.redact_secrets {
        let regex = {
            let mut cache = match policy.redact_cache.0.lock() {
                Ok(guard) => guard,
                Err(poisoned) => poisoned.into_inner(),
            };
            cache
                .entry(redacting.clone())
                .or_insert_with(|| {
                    let mut patterns: Vec<&str> = redacting
                        .iter()
                        .flat_map(|&r| policy.rules[r].rule.redact.iter().map(String::as_str))
                        .collect();
                    if policy.options.redact_secrets {
                        patterns.extend(SECRET_PATTERNS.iter().map(|(_, p)| *p));
                    }
                    join(&patterns)
                })
                .clone()
        };
        if let Some(regex) = regex {
            let mut count = 0;
            let replaced = regex.replace_all(original, |_: &regex::Captures<'_>| {
                count += 1;
                REDACTED
            });
            if count > 0 {
                redactions = count;
                text = Some(replaced.into_owned());
            }
        }
    }
    let current = |text: &Option<String>| text.clone().unwrap_or_else(|| original.to_string());
    if let Some(&r) = applied
        .iter()
        .find(|&&r| policy.rules[r].rule.suppress_output)
    {
        let len = current(&text).chars().count();
        text = Some(format!(
            "[gptel-rust-hooks: the output of tool `{}` ({len} characters) was withheld by {}]",
            call.name, policy.rules[r].label
        ));
    }
    if let Some(n) = applied
        .iter()
        .filter_map(|&r| policy.rules[r].rule.max_output)
        .min()
    {
        if let Some(cut) = truncate(&current(&text), n) {
            text = Some(cut);
        }
    }
    for &r in &applied {
        if let Some(context) = &policy.rules[r].rule.context {
            let mut t = current(&text);
            if !t.is_empty() && !t.ends_with('\n') {
                t.push('\n');
            }
            t.push('\n');
            t.push_str(context);
            text = Some(t);
        }
    }
    PostOutcome {
        result: text,
        applied,
        redactions,
    }
}
