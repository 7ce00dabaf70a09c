//! After the call: the result the model sees, changed by the matching rules'
//! post-call effects. In order:
//!
//! 1. `:suppress-output`: the output is replaced by a short notice; nothing
//!    of it reaches the model, so it is neither redacted nor truncated.
//! 2. Otherwise `:redact` (and the secret patterns when switched on, see
//!    [`crate::redact`]), then `:max-output` (the smallest of the applying rules).
//! 3. `:context` of every applying rule, in rule order, appended last so that
//!    truncation never cuts it.

use crate::policy::Policy;
use crate::prepare::Prepared;
use crate::redact::{redact, redactor_for, Redactor, SECRET_PATTERNS};
use crate::rule::Call;
use std::borrow::Cow;
use std::sync::Arc;

/// The redactor for the redacting rules REDACTING of POLICY, cached.
pub fn redactor(policy: &Policy, redacting: &[usize]) -> Arc<Redactor> {
    policy.redact_cache.get_or_make(redacting, || {
        let mut patterns: Vec<&str> = redacting
            .iter()
            .flat_map(|&r| policy.rules[r].rule.redact.iter().map(String::as_str))
            .collect();
        if policy.options.redact_secrets {
            patterns.extend(SECRET_PATTERNS.iter().map(|(_, p)| *p));
        }
        redactor_for(&patterns)
    })
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
