//! Policy + call -> outcome, following DESIGN.md "How a call is decided":
//! the matching rules and their most restrictive decision ([`decide`]), the
//! argument edits and the second decision of the edited call, the default
//! decision, the reason and the canned result ([`evaluate`]).

use crate::path;
use crate::policy::Policy;
use crate::prepare::Prepared;
use crate::rule::Decision;
use crate::rule::{Arg, Call};
use serde_json::Value as Json;

/// The decision of the rules that match a call, before edits.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// Every matching rule, in rule order.
    pub matched: Vec<usize>,
    /// The most restrictive decision of theirs.
    pub decision: Option<Decision>,
    /// The first matching rule with that decision.
    pub by: Option<usize>,
}

/// Collect the rules that match CALL and their most restrictive decision.
pub fn decide(policy: &Policy, call: &Call) -> Decided {
    let prepared = Prepared::new(policy, call);
    decide_prepared(&prepared)
}

/// Like [`decide`], for a call already prepared.
pub fn decide_prepared(prepared: &Prepared<'_>) -> Decided {
    path::with_budget(|| decide_in_memo(prepared))
}

fn decide_in_memo(prepared: &Prepared<'_>) -> Decided {
    let policy = prepared.policy;
    let matched: Vec<usize> = prepared
        .candidates()
        .into_iter()
        .filter(|&r| prepared.matches(r))
        .collect();
    let decision = matched
        .iter()
        .filter_map(|&r| policy.rules[r].rule.decision)
        .max();
    let by = decision.and_then(|d| {
        matched
            .iter()
            .copied()
            .find(|&r| policy.rules[r].rule.decision == Some(d))
    });
    Decided {
        matched,
        decision,
        by,
    }
}

/// Where an argument of the edited call comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgSource {
    /// The original argument at this position of the call's args.
    Original(usize),
    /// A value set by a rule.
    New(Json),
}

/// The full outcome of a pre-call evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub decided: Decided,
    /// The decision after edits were re-decided (the stricter stands).
    pub decision: Option<Decision>,
    /// True when no rule decided and the default decision applied.
    pub by_default: bool,
    /// The rule whose decision stands (before or after edits).
    pub by: Option<usize>,
    pub reason: Option<String>,
    /// The edited argument list, when some rule edited it.
    pub args: Option<Vec<(String, ArgSource)>>,
    /// The decision of the edited call, when there were edits.
    pub redecided: Option<Decided>,
    /// The canned result, when one applies.
    pub result: Option<String>,
    /// The rule that gave the result.
    pub result_by: Option<usize>,
}

/// Apply the argument edits of the MATCHED rules, in rule order.
pub fn apply_edits(
    policy: &Policy,
    call: &Call,
    matched: &[usize],
) -> Option<Vec<(String, ArgSource)>> {
    let mut edited = false;
    let mut args: Vec<(String, ArgSource)> = call
        .args
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.clone(), ArgSource::Original(i)))
        .collect();
    for &r in matched {
        let rule = &policy.rules[r].rule;
        for (k, v) in &rule.set_args {
            edited = true;
            match args.iter_mut().find(|(key, _)| key == k) {
                Some(slot) => slot.1 = ArgSource::New(v.clone()),
                None => args.push((k.clone(), ArgSource::New(v.clone()))),
            }
            // A repeated key must not keep an old value behind the new one.
            let mut seen = false;
            args.retain(|(key, _)| {
                if key != k {
                    return true;
                }
                let keep = !seen;
                seen = true;
                keep
            });
        }
        for (k, v) in &rule.default_args {
            let present = args.iter().any(|(key, src)| {
                key == k
                    && match src {
                        ArgSource::Original(i) => call.args[*i].1 != Arg::Null,
                        ArgSource::New(j) => !j.is_null(),
                    }
            });
            if !present {
                edited = true;
                args.retain(|(key, _)| key != k);
                args.push((k.clone(), ArgSource::New(v.clone())));
            }
        }
        for k in &rule.remove_args {
            if args.iter().any(|(key, _)| key == k) {
                edited = true;
                args.retain(|(key, _)| key != k);
            }
        }
    }
    edited.then_some(args)
}

/// The call with ARGS in place of its own.
pub fn edited_call(call: &Call, args: &[(String, ArgSource)]) -> Call {
    Call {
        args: args
            .iter()
            .map(|(k, src)| {
                let v = match src {
                    ArgSource::Original(i) => call.args[*i].1.clone(),
                    ArgSource::New(j) => Arg::from_json(j),
                };
                (k.clone(), v)
            })
            .collect(),
        ..call.clone()
    }
}

/// Evaluate CALL against POLICY: decision, reason, edits and result.
///
/// The file system is inspected once per name for the whole evaluation
/// (see [`path::with_budget`]).
pub fn evaluate(policy: &Policy, call: &Call) -> Outcome {
    path::with_budget(|| evaluate_in_memo(policy, call))
}

fn evaluate_in_memo(policy: &Policy, call: &Call) -> Outcome {
    let decided = decide(policy, call);
    let mut decision = decided.decision;
    let mut by = decided.by;
    let mut args = None;
    let mut redecided = None;
    let blocked = |d: Option<Decision>| matches!(d, Some(Decision::Deny | Decision::Stop));
    if !blocked(decision) {
        if let Some(edits) = apply_edits(policy, call, &decided.matched) {
            let again = decide(policy, &edited_call(call, &edits));
            if again.decision > decision {
                decision = again.decision;
                by = again.by;
            }
            redecided = Some(again);
            args = Some(edits);
        }
    }
    let by_default = decision.is_none() && policy.options.default_decision.is_some();
    if by_default {
        decision = policy.options.default_decision;
    }
    let (result, result_by) = if blocked(decision) {
        (None, None)
    } else {
        match decided
            .matched
            .iter()
            .find_map(|&r| policy.rules[r].rule.result.clone().map(|s| (s, r)))
        {
            Some((s, r)) => (Some(s), Some(r)),
            None => (None, None),
        }
    };
    if blocked(decision) {
        args = None;
    }
    let reason = decision.map(|d| match by {
        Some(r) => {
            let rule = &policy.rules[r];
            rule.rule
                .reason
                .clone()
                .unwrap_or_else(|| generated_reason(d, &rule.label, &call.name))
        }
        None => format!(
            "gptel-rust-hooks: no rule decides tool `{}`; the default decision is {d}",
            call.name
        ),
    });
    Outcome {
        decided,
        decision,
        by_default,
        by,
        reason,
        args,
        redecided,
        result,
        result_by,
    }
}

fn generated_reason(d: Decision, label: &str, tool: &str) -> String {
    let verb = match d {
        Decision::Allow => "allowed",
        Decision::Ask => "needs confirmation",
        Decision::Deny => "denied",
        Decision::Stop => "stopped the request",
    };
    format!("gptel-rust-hooks: tool `{tool}` {verb} by {label}")
}
