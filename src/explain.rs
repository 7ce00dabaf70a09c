//! The explain document: every rule, each of its matchers with what it was
//! checked on and what it asks for, the edits and the outcome, as JSON.

use crate::eval::{edited_call, evaluate_with, Outcome};
use crate::matcher::{CommandMatcher, On};
use crate::path;
use crate::policy::Policy;
use crate::prepare::{key_of, CmdCand, PathCand, PathSource, Prepared};
use crate::rule::{Arg, ArgMatcher, Call, Decision, Rule};
use crate::sandbox::{SandboxContext, SandboxResult, Wrapped};
use crate::shell::SimpleCommand;
use serde_json::{json, Value as Json};

/// Explain CALL: every rule, each of its matchers, edits and outcome, as JSON.
pub fn explain(policy: &Policy, call: &Call) -> Json {
    explain_with(policy, call, None)
}

/// [`explain`], with the call's sandbox settings (see [`evaluate_with`]).
pub fn explain_with(policy: &Policy, call: &Call, context: Option<&SandboxContext>) -> Json {
    path::with_budget(|| explain_in_memo(policy, call, context))
}

fn explain_in_memo(policy: &Policy, call: &Call, context: Option<&SandboxContext>) -> Json {
    let prepared = Prepared::new(policy, call);
    let outcome = evaluate_with(policy, call, context);
    let rules: Vec<Json> = policy
        .rules
        .iter()
        .enumerate()
        .map(|(r, rule)| {
            let (matched, checks) = prepared.check_rule(r, true);
            let mut nth_arg = 0;
            let matchers: Vec<Json> = checks
                .iter()
                .map(|c| {
                    let want = wanted(&rule.rule, c.matcher, nth_arg);
                    if c.matcher == "args" {
                        nth_arg += 1;
                    }
                    let on = c.on.as_ref().map_or(Json::Null, |on| on_json(policy, on));
                    json!({"matcher": c.matcher, "matched": c.matched, "on": on, "want": want})
                })
                .collect();
            let mut doc = json!({
                "index": rule.origin.index + 1,
                "source": rule.origin.source,
                "line": rule.origin.line,
                "trusted": rule.origin.trusted,
                "id": rule.label,
                "decision": rule.rule.decision.map(Decision::name),
                "effects": effects_json(&rule.rule),
                "matched": matched,
                "matched-after-edits": outcome.redecided.as_ref().map(|d| d.matched.contains(&r)),
                "deciding": outcome.by == Some(r),
                "matchers": matchers,
            });
            // A rule whose every match was unsure says why, and what it decided.
            let unsure = unsure_json(&outcome, r);
            if let (false, Some(fields)) = (unsure.is_null(), doc.as_object_mut()) {
                fields.insert("unsure".into(), unsure);
                fields.insert(
                    "unsure-decision".into(),
                    json!(policy.options.unsure_decision.name()),
                );
            }
            doc
        })
        .collect();
    let edited = outcome
        .args
        .as_ref()
        .map(|a| edited_call(call, a).to_json()["args"].clone());
    let edits: Vec<Json> = outcome
        .decided
        .matched
        .iter()
        .map(|&r| &policy.rules[r])
        .filter(|rule| {
            !(rule.rule.set_args.is_empty()
                && rule.rule.default_args.is_empty()
                && rule.rule.remove_args.is_empty())
        })
        .map(|rule| {
            json!({
                "rule": rule.label,
                "source": rule.origin.source,
                "line": rule.origin.line,
                "set-args": pairs_json(&rule.rule.set_args),
                "default-args": pairs_json(&rule.rule.default_args),
                "remove-args": rule.rule.remove_args,
            })
        })
        .collect();
    json!({
        "call": call.to_json(),
        "rules": rules,
        "matched": outcome.decided.matched.iter().map(|&r| policy.rules[r].label.clone()).collect::<Vec<_>>(),
        "decision-before-edits": outcome.decided.decision.map(Decision::name),
        "decision-after-edits": outcome.redecided.as_ref().and_then(|d| d.decision).map(Decision::name),
        "edits": edits,
        "edits-applied": outcome.args.is_some(),
        "edited-args": edited,
        "decision": outcome.decision.map(Decision::name),
        "by-default": outcome.by_default,
        "deciding-rule": outcome.by.map(|r| policy.rules[r].label.clone()),
        "reason": outcome.reason,
        "result": outcome.result,
        "result-rule": outcome.result_by.map(|r| policy.rules[r].label.clone()),
        "sandbox": sandbox_json(policy, &outcome),
        "notes": policy.notes,
    })
}

/// Why every match of rule R was unsure (before or after edits), as a list of
/// sentences; null when it has a certain match or no match.
fn unsure_json(outcome: &Outcome, r: usize) -> Json {
    let why = outcome
        .decided
        .unsure_of(r)
        .or_else(|| outcome.redecided.as_ref().and_then(|d| d.unsure_of(r)));
    match why {
        Some(why) => Json::Array(why.iter().map(|u| Json::String(u.to_string())).collect()),
        None => Json::Null,
    }
}

/// How the call is sandboxed, for explanations: each rule's spec (as
/// written) and confinement, the combined confinement, the confined
/// commands, or why the call cannot be confined; null when no matching
/// rule asks for a sandbox (or the call does not run).
fn sandbox_json(policy: &Policy, outcome: &Outcome) -> Json {
    let Some(sandboxing) = &outcome.sandbox else {
        return Json::Null;
    };
    let home = policy.options.home.as_ref().and_then(|h| h.to_str());
    let plan = sandboxing.plan();
    let rules: Vec<Json> = sandboxing
        .rules
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let rule = &policy.rules[r];
            json!({
                "rule": rule.label,
                "spec": rule.rule.sandbox.as_ref().map(|s| s.to_value()),
                "confinement": plan.and_then(|p| p.each.get(i)).map(|c| c.to_json()),
                "describe": plan.and_then(|p| p.each.get(i)).map(|c| c.describe(home)),
            })
        })
        .collect();
    let (status, error) = match &sandboxing.result {
        SandboxResult::NoCommand => ("no-command", None),
        SandboxResult::Confined(_) => ("confined", None),
        SandboxResult::Failed(why) => ("failed", Some(why.clone())),
    };
    json!({
        "status": status,
        "rules": rules,
        "keys": sandboxing.keys,
        "confinement": plan.map(|p| p.confinement.to_json()),
        "describe": plan.map(|p| p.confinement.describe(home)),
        "program": plan.map(|p| p.program.clone()),
        "cwd": plan.map(|p| p.cwd.clone()),
        "commands": plan.map(|p| p.wrapped.iter().map(|(key, w)| {
            json!({"key": key, "wrapped": match w {
                Wrapped::Line(line) => json!(line),
                Wrapped::Argv(words) => json!(words),
            }})
        }).collect::<Vec<_>>()),
        "error": error,
    })
}

/// What rule matcher MATCHER asks for, for explanations; NTH_ARG is the
/// position of an `args` check among the rule's argument matchers.
fn wanted(rule: &Rule, matcher: &str, nth_arg: usize) -> Json {
    match matcher {
        "tool" => json!(rule.tool),
        "tool-regexp" => json!(rule.tool_regexp),
        "args" => match rule.args.get(nth_arg) {
            Some((key, m)) => json!({"key": key, "matcher": arg_matcher_json(m)}),
            None => Json::Null,
        },
        "path" => json!(rule.path),
        "path-outside" => json!(rule.path_outside),
        "command-prefix" => json!(rule.command_prefix),
        "command-regexp" => json!(rule.command_regexp),
        "buffer" => json!(rule.buffer),
        "backend" => json!(rule.backend),
        "model" => json!(rule.model),
        "cwd" => json!(rule.cwd),
        _ => Json::Null,
    }
}

/// An argument matcher in its serde form, as a rule would write it.
pub fn arg_matcher_json(m: &ArgMatcher) -> Json {
    match m {
        ArgMatcher::Glob(g) => json!(g),
        ArgMatcher::Regexp(r) => json!({ "regexp": r }),
        ArgMatcher::Equal(v) => json!({ "equal": v }),
        ArgMatcher::Present(b) => json!({ "present": b }),
        ArgMatcher::MaxLength(n) => json!({ "max-length": n }),
        ArgMatcher::Min(n) => json!({ "min": n }),
        ArgMatcher::Max(n) => json!({ "max": n }),
        ArgMatcher::Any(items) => Json::Array(items.iter().map(arg_matcher_json).collect()),
        ArgMatcher::All(items) => Json::Array(vec![json!({
            "all": items.iter().map(arg_matcher_json).collect::<Vec<_>>()
        })]),
    }
}

fn pairs_json(pairs: &[(String, Json)]) -> Json {
    Json::Object(pairs.iter().cloned().collect())
}

/// The effects a rule gives besides its decision, as written (empty ones left out).
fn effects_json(rule: &Rule) -> Json {
    let mut map = serde_json::Map::new();
    let mut put = |k: &str, v: Json| {
        map.insert(k.to_string(), v);
    };
    if let Some(r) = &rule.reason {
        put("reason", json!(r));
    }
    if !rule.set_args.is_empty() {
        put("set-args", pairs_json(&rule.set_args));
    }
    if !rule.default_args.is_empty() {
        put("default-args", pairs_json(&rule.default_args));
    }
    if !rule.remove_args.is_empty() {
        put("remove-args", json!(rule.remove_args));
    }
    if let Some(r) = &rule.result {
        put("result", json!(r));
    }
    if let Some(c) = &rule.context {
        put("context", json!(c));
    }
    if rule.suppress_output {
        put("suppress-output", json!(true));
    }
    if !rule.redact.is_empty() {
        put("redact", json!(rule.redact));
    }
    if let Some(n) = rule.max_output {
        put("max-output", json!(n));
    }
    if let Some(spec) = &rule.sandbox {
        put("sandbox", spec.to_value());
    }
    Json::Object(map)
}

/// What a matcher was checked on, as JSON.
fn on_json(policy: &Policy, on: &On<'_>) -> Json {
    match on {
        On::Name(name) => json!(name),
        On::Arg { key, value } => json!({"key": key, "value": value.map(Arg::to_json)}),
        On::Paths(cands) => paths_json(cands),
        On::Commands {
            cands,
            rule,
            kind,
            uncertain,
        } => {
            let prefixes: Vec<Vec<String>> = match kind {
                CommandMatcher::Prefix => policy.rules[*rule]
                    .rule
                    .command_prefix
                    .iter()
                    .filter_map(|p| crate::compile::prefix_words(p).ok())
                    .collect(),
                CommandMatcher::Regexp => Vec::new(),
            };
            // (An allow rule's names: a program the table does not know is allowed only
            // by a rule that names it.)
            let rule_names = policy.rules[*rule]
                .allow_side
                .then_some(&policy.rules[*rule].names[..]);
            let mut items = commands_json(cands, *rule, *kind, &prefixes, rule_names);
            if let Json::Array(list) = &mut items {
                let mut seen = std::collections::HashSet::new();
                for (key, why) in uncertain {
                    if seen.insert((*key, *why)) {
                        list.push(json!({"key": key, "uncertain": why, "matched": false}));
                    }
                }
            }
            items
        }
    }
}

fn paths_json(cands: &[(&PathCand, bool)]) -> Json {
    Json::Array(
        cands
            .iter()
            .map(|(c, matched)| {
                json!({
                    "raw": c.raw,
                    "path": c.norm.as_ref().ok(),
                    "lexical": c.lexical,
                    "unreadable": c.norm.as_ref().err(),
                    "from": match &c.source {
                        PathSource::Arg(_) => "argument",
                        PathSource::Redirect(_) => "redirection",
                        PathSource::Word(_) => "command word",
                        PathSource::Pattern(_) => "glob pattern",
                        PathSource::Embedded(_) => "named in an argument",
                    },
                    "key": key_of(&c.source),
                    "matched": matched,
                })
            })
            .collect(),
    )
}

/// The first of PREFIXES that the words of CMD start with, as written.
fn matched_prefix(cmd: &SimpleCommand, prefixes: &[Vec<String>]) -> Option<String> {
    prefixes
        .iter()
        .find(|p| {
            [&cmd.argv, &cmd.written]
                .iter()
                .any(|words| words.len() >= p.len() && words[..p.len()] == p[..])
        })
        .map(|p| p.join(" "))
}

/// The commands of CANDS as rule R's matcher KIND saw them; for an allow rule, NAMES
/// are the programs it names: a command whose program only a rule naming it allows
/// says so where the rule does not (`needs-naming`).
fn commands_json(
    cands: &[&CmdCand],
    r: usize,
    kind: CommandMatcher,
    prefixes: &[Vec<String>],
    names: Option<&[String]>,
) -> Json {
    Json::Array(
        cands
            .iter()
            .flat_map(|c| {
                let mut items: Vec<Json> = c
                    .line
                    .commands
                    .iter()
                    .zip(&c.hits)
                    .map(|(cmd, h)| {
                        let mut item = json!({
                            "key": c.key,
                            "command": cmd.argv.join(" "),
                            "written": cmd.written.join(" "),
                            "privileged": cmd.privileged,
                            "opaque": cmd.opaque,
                            "matched": kind.hit(h, r),
                        });
                        if kind == CommandMatcher::Prefix {
                            item["prefix"] = json!(matched_prefix(cmd, prefixes));
                        }
                        let name = cmd.argv.first().map(String::as_str).unwrap_or_default();
                        if cmd.program.needs_naming()
                            && names.is_some_and(|n| !n.iter().any(|m| m == name))
                        {
                            item["needs-naming"] = json!(format!(
                                "`{name}` is a program the table does not know, or one that runs the project's code: only an allow rule that names it allows it (`:command-prefix \"{name}\"`)"
                            ));
                        }
                        item
                    })
                    .collect();
                if let Some(why) = &c.line.opaque {
                    items.push(json!({"key": c.key, "opaque": why, "matched": false}));
                }
                if let Some(why) = &c.line.uncertain {
                    items.push(json!({"key": c.key, "uncertain": why, "matched": false}));
                }
                if let Some(why) = &c.line.truncated {
                    items.push(json!({"key": c.key, "truncated": why, "matched": false}));
                }
                items
            })
            .collect(),
    )
}
