//! Policy + call -> outcome, following DESIGN.md "How a call is decided":
//! the matching rules and their most restrictive decision ([`decide`]), the
//! argument edits and the second decision of the edited call, the default
//! decision, the reason and the canned result ([`evaluate`]); then, for a
//! call that will run, the sandbox its rules ask for ("Sandboxed calls",
//! [`evaluate_with`]).

use crate::path;
use crate::policy::Policy;
use crate::prepare::Prepared;
use crate::rule::Decision;
use crate::rule::{Arg, Call};
use crate::sandbox::{self, SandboxContext, Sandboxing};
use crate::shell::Unsure;
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
    /// The matching `deny` rules whose every match is unsure, with why (DESIGN.md,
    /// "Certain and unsure matches"): each decides the policy's unsure decision.
    pub unsure: Vec<(usize, Vec<Unsure>)>,
}

impl Decided {
    /// Why every match of rule R is unsure, if it is and that changed its decision.
    pub fn unsure_of(&self, r: usize) -> Option<&[Unsure]> {
        self.unsure
            .iter()
            .find(|(u, _)| *u == r)
            .map(|(_, why)| why.as_slice())
    }
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
    // A deny whose every match is unsure decides the unsure decision; `ask` and `stop`
    // stay as they are.
    let unsure: Vec<(usize, Vec<Unsure>)> = matched
        .iter()
        .filter(|&&r| policy.rules[r].rule.decision == Some(Decision::Deny))
        .filter_map(|&r| {
            let why = prepared.unsure_reasons(r);
            (!why.is_empty()).then_some((r, why))
        })
        .collect();
    let decision_of = |r: usize| match policy.rules[r].rule.decision {
        Some(Decision::Deny) if unsure.iter().any(|(u, _)| *u == r) => {
            Some(policy.options.unsure_decision)
        }
        d => d,
    };
    let decision = matched.iter().filter_map(|&r| decision_of(r)).max();
    let by = decision.and_then(|d| matched.iter().copied().find(|&r| decision_of(r) == Some(d)));
    Decided {
        matched,
        decision,
        by,
        unsure,
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
    /// How the call is sandboxed, when a matching rule has `:sandbox` and
    /// the call will run (allow, ask or no decision, no `:result`). When it
    /// cannot be sandboxed, the decision is `deny` with the reason why.
    pub sandbox: Option<Sandboxing>,
}

/// Apply the argument edits of the MATCHED rules, in rule order.
pub fn apply_edits(
    policy: &Policy,
    call: &Call,
    matched: &[usize],
) -> Option<Vec<(String, ArgSource)>> {
    apply_edits_declared(policy, call, matched, None, &mut Vec::new())
}

/// Which argument keys the called tool declares, when that is known.
pub type Declared<'a> = Option<&'a dyn Fn(&str) -> bool>;

/// [`apply_edits`] for a tool that declares only the keys DECLARED says:
/// an edit that would set or add another key is skipped, and its rule and
/// key pushed onto SKIPPED.
pub fn apply_edits_declared(
    policy: &Policy,
    call: &Call,
    matched: &[usize],
    declared: Declared<'_>,
    skipped: &mut Vec<(usize, String)>,
) -> Option<Vec<(String, ArgSource)>> {
    let undeclared = |k: &str| declared.is_some_and(|d| !d(k));
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
            if undeclared(k) {
                skipped.push((r, k.clone()));
                continue;
            }
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
            if undeclared(k) {
                skipped.push((r, k.clone()));
                continue;
            }
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
    evaluate_with(policy, call, None)
}

/// [`evaluate`], with the sandbox settings of the call (CONTEXT): a call
/// whose matching rules ask for `:sandbox` is confined, or blocked when it
/// cannot be (without CONTEXT, it cannot).
pub fn evaluate_with(policy: &Policy, call: &Call, context: Option<&SandboxContext>) -> Outcome {
    evaluate_declared(policy, call, context, None).0
}

/// [`evaluate_with`] for a tool that declares only the argument keys
/// DECLARED says: edits that would set another key are skipped (gptel
/// would not pass it to the tool), and returned as (RULE, KEY) pairs.
pub fn evaluate_declared(
    policy: &Policy,
    call: &Call,
    context: Option<&SandboxContext>,
    declared: Declared<'_>,
) -> (Outcome, Vec<(usize, String)>) {
    let mut skipped = Vec::new();
    let outcome =
        path::with_budget(|| evaluate_in_memo(policy, call, context, declared, &mut skipped));
    (outcome, skipped)
}

fn evaluate_in_memo(
    policy: &Policy,
    call: &Call,
    context: Option<&SandboxContext>,
    declared: Declared<'_>,
    skipped: &mut Vec<(usize, String)>,
) -> Outcome {
    let prepared = Prepared::new(policy, call);
    let decided = decide_in_memo(&prepared);
    let mut outcome = Outcome {
        decision: decided.decision,
        by: decided.by,
        decided,
        by_default: false,
        reason: None,
        args: None,
        redecided: None,
        result: None,
        result_by: None,
        sandbox: None,
    };
    if !blocked(outcome.decision) {
        edit_and_redecide(policy, call, declared, skipped, &mut outcome);
    }
    let by_default = outcome.decision.is_none() && policy.options.default_decision.is_some();
    if by_default {
        outcome.decision = policy.options.default_decision;
    }
    if blocked(outcome.decision) {
        outcome.args = None;
    } else if let Some((s, r)) = canned_result(policy, &outcome.decided) {
        outcome.result = Some(s);
        outcome.result_by = Some(r);
    }
    // Sandboxed calls: after the decision, for a call that will run.
    let runs = !blocked(outcome.decision) && outcome.result.is_none();
    let refused = if runs && !policy.sandboxing.is_empty() {
        sandbox_call(&prepared, call, context, &mut outcome)
    } else {
        None
    };
    outcome.by_default = by_default && refused.is_none();
    let from_rule = refused.is_none();
    // The deciding rule's unsure matches, before or after edits.
    let unsure_by = outcome.by.and_then(|r| {
        outcome
            .decided
            .unsure_of(r)
            .or_else(|| outcome.redecided.as_ref().and_then(|d| d.unsure_of(r)))
    });
    let (decision, by) = (outcome.decision, outcome.by);
    let reason =
        refused.or_else(|| decision.map(|d| decision_reason(policy, call, d, by, unsure_by)));
    outcome.reason = match (decision, by) {
        (Some(d @ (Decision::Deny | Decision::Stop)), Some(r))
            if from_rule
                && (policy.rules[r].has_path || !policy.rules[r].path_outside.is_empty()) =>
        {
            with_unchecked(&prepared, call, d, r, unsure_by.is_some(), reason)
        }
        _ => reason,
    };
    outcome
}

/// Whether the decision D keeps the call from running.
fn blocked(d: Option<Decision>) -> bool {
    matches!(d, Some(Decision::Deny | Decision::Stop))
}

/// The argument edits of the rules OUTCOME's call matched (for a tool that declares
/// only the keys DECLARED says; see [`apply_edits_declared`]), and the decision of the
/// edited call: the stricter of the two stands.
fn edit_and_redecide(
    policy: &Policy,
    call: &Call,
    declared: Declared<'_>,
    skipped: &mut Vec<(usize, String)>,
    outcome: &mut Outcome,
) {
    let matched = &outcome.decided.matched;
    let Some(edits) = apply_edits_declared(policy, call, matched, declared, skipped) else {
        return;
    };
    let again = decide(policy, &edited_call(call, &edits));
    if again.decision > outcome.decision {
        outcome.decision = again.decision;
        outcome.by = again.by;
    }
    outcome.redecided = Some(again);
    outcome.args = Some(edits);
}

/// The canned result of the first rule of DECIDED that gives one, and that rule.
fn canned_result(policy: &Policy, decided: &Decided) -> Option<(String, usize)> {
    decided
        .matched
        .iter()
        .find_map(|&r| policy.rules[r].rule.result.clone().map(|s| (s, r)))
}

/// The sandbox OUTCOME's call runs in, when one of the rules it matched (before or
/// after edits) asks for one (DESIGN.md "Sandboxed calls"); a sandboxed call never
/// runs unconfined: when it cannot be sandboxed, it is denied, and why is returned.
fn sandbox_call(
    prepared: &Prepared<'_>,
    call: &Call,
    context: Option<&SandboxContext>,
    outcome: &mut Outcome,
) -> Option<String> {
    let policy = prepared.policy;
    let rules: Vec<usize> = policy
        .sandboxing
        .iter()
        .copied()
        .filter(|r| {
            outcome.decided.matched.contains(r)
                || outcome
                    .redecided
                    .as_ref()
                    .is_some_and(|d| d.matched.contains(r))
        })
        .collect();
    if rules.is_empty() {
        return None;
    }
    let edited;
    let runs = match &outcome.args {
        Some(edits) => {
            edited = edited_call(call, edits);
            &edited
        }
        None => call,
    };
    let plan = sandbox::plan(
        policy,
        runs,
        rules,
        |r| applies_to_tool(prepared, r),
        context,
    );
    let mut refused = None;
    if let Some(why) = plan.failure() {
        // A sandboxed call never runs unconfined.
        outcome.decision = Some(Decision::Deny);
        outcome.by = plan.rules.first().copied();
        outcome.args = None;
        refused = Some(why.to_string());
    }
    outcome.sandbox = Some(plan);
    refused
}

/// The reason for the decision D of CALL: the deciding rule BY's (with why its
/// matches were unsure, UNSURE_BY), or one made for it; with no rule, the default's.
fn decision_reason(
    policy: &Policy,
    call: &Call,
    d: Decision,
    by: Option<usize>,
    unsure_by: Option<&[Unsure]>,
) -> String {
    match by {
        Some(r) if unsure_by.is_some() => {
            let rule = &policy.rules[r];
            unsure_reason(
                d,
                &rule.label,
                &call.name,
                unsure_by.unwrap_or(&[]),
                rule.rule.reason.as_deref(),
            )
        }
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
    }
}

/// REASON, for the decision D of the path rule R, when R matched what a bound kept
/// from being checked: it says so, and names itself (UNSURE: R's matches were
/// unsure). The model (and the user) should not read `cat /usr/*/*.h` or a glob
/// tool's `src/+(a|b).rs` as touching a secret because the secrets rule says so.
fn with_unchecked(
    prepared: &Prepared<'_>,
    call: &Call,
    d: Decision,
    r: usize,
    unsure: bool,
    reason: Option<String>,
) -> Option<String> {
    let unchecked = prepared
        .paths()
        .iter()
        .find_map(|p| unchecked_why(p).filter(|_| p.hits.get(r)));
    let (Some(text), Some(why)) = (&reason, unchecked) else {
        return reason;
    };
    let rule = &prepared.policy.rules[r];
    // A path the reading did check matched too: the rule's own reason holds.
    let checked = rule.has_path
        && prepared
            .paths()
            .iter()
            .any(|p| unchecked_why(p).is_none() && p.glob_match(r, false));
    Some(match rule.rule.reason.as_deref() {
        Some(_) if checked || unsure => format!(
            "{text} ({}: what was not checked counts as matching: {why})",
            rule.label
        ),
        Some(own) => format!(
            "{}: what was not checked counts as matching: {why}; the rule says: {own}",
            generated_reason(d, &rule.label, &call.name)
        ),
        None => format!("{text} (what was not checked counts as matching: {why})"),
    })
}

/// Why P stands for what a bound kept from being checked, when it does (see
/// `Prepared::unchecked`).
fn unchecked_why(p: &crate::prepare::PathCand) -> Option<&str> {
    let why = p.uncertain.as_deref()?;
    (p.raw.strip_prefix('(')?.strip_suffix(')') == Some(why)).then_some(why)
}

/// Whether rule R's tool matchers (if any) match the prepared call's tool:
/// the deny rules whose `:path` a sandbox hides by default are those.
fn applies_to_tool(prepared: &Prepared<'_>, r: usize) -> bool {
    let rule = &prepared.policy.rules[r];
    let by_glob = !rule.has_tool_glob
        || match &rule.tool_literals {
            Some(names) => names.contains(&prepared.call.name),
            None => prepared.tool_glob_hits().get(r),
        };
    by_glob && (!rule.has_tool_regexp || prepared.tool_regexp_hits().get(r))
}

/// The reason of a `deny` rule (LABEL, with its own REASON if any) whose every match is
/// unsure (WHY), deciding D.
fn unsure_reason(
    d: Decision,
    label: &str,
    tool: &str,
    why: &[Unsure],
    reason: Option<&str>,
) -> String {
    let verb = match d {
        Decision::Deny => "denied",
        _ => "needs confirmation",
    };
    let whys: Vec<String> = why.iter().take(3).map(ToString::to_string).collect();
    let more = if why.len() > 3 {
        format!(" (and {} more)", why.len() - 3)
    } else {
        String::new()
    };
    let own = reason.map_or(String::new(), |r| format!("; the rule says: {r}"));
    format!(
        "gptel-rust-hooks: tool `{tool}` {verb}: {label} denies it, but only on an unsure match: {}{more}{own}",
        whys.join("; ")
    )
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
