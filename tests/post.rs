//! Post-call effects, table-driven: which rules apply to a call, each effect
//! alone, their order, the secret patterns (one true positive and one near
//! miss per family), and multi-megabyte results.
//!
//! Secret-looking test strings are assembled at run time so that no literal
//! in this file looks like a credential to a scanner.

use gptel_rust_hooks::compile::compile;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::post::{self, post, redactor, truncate, withheld, PostOutcome};
use gptel_rust_hooks::redact::{self, redact, redactor_for, Redactor, REDACTED, SECRET_PATTERNS};
use gptel_rust_hooks::rule::{rules_from_json_text, Call};
use serde_json::json;
use std::time::Instant;

// ---------------------------------------------------------------------------
// Helpers

fn options(secrets: bool) -> Options {
    Options {
        redact_secrets: secrets,
        home: Some("/home/u".into()),
        ..Options::default()
    }
}

fn policy_with(rules: serde_json::Value, secrets: bool) -> Policy {
    let (rules, _) = rules_from_json_text(&rules.to_string()).expect("rules read");
    compile(rules, options(secrets)).expect("rules compile")
}

fn policy(rules: serde_json::Value) -> Policy {
    policy_with(rules, false)
}

fn call(value: serde_json::Value) -> Call {
    Call::from_value(&value).expect("call read")
}

/// The result the model sees for CALL under POLICY (the original when unchanged).
fn seen(policy: &Policy, call: &Call) -> String {
    let out = post(policy, call);
    out.result
        .unwrap_or_else(|| call.result.clone().unwrap_or_default())
}

fn labels(policy: &Policy, out: &PostOutcome) -> Vec<String> {
    out.applied
        .iter()
        .map(|&r| policy.rules[r].label.clone())
        .collect()
}

fn secret_pattern(name: &str) -> &'static str {
    SECRET_PATTERNS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, p)| *p)
        .unwrap_or_else(|| panic!("no secret pattern named {name}"))
}

fn rep(s: &str, n: usize) -> String {
    s.repeat(n)
}

// ---------------------------------------------------------------------------
// Each effect alone: (rules, call, what the model sees)

macro_rules! effect {
    ($name:ident, $rules:expr, $call:expr, $want:expr) => {
        #[test]
        fn $name() {
            let p = policy($rules);
            assert_eq!(seen(&p, &call($call)), $want);
        }
    };
}

effect!(
    redact_one_pattern,
    json!([{"tool": "read_file", "redact": "password=\\S+"}]),
    json!({"name": "read_file", "args": {"path": "a"}, "result": "user=bob password=hunter2 ok"}),
    "user=bob [REDACTED] ok"
);

effect!(
    redact_list_of_patterns_every_match,
    json!([{"tool": "read_file", "redact": ["\\d{3}-\\d{4}", "[a-z]+@example\\.com"]}]),
    json!({"name": "read_file", "result": "call 555-1234 or mail joe@example.com, or 555-9876"}),
    "call [REDACTED] or mail [REDACTED], or [REDACTED]"
);

effect!(
    redact_no_match_leaves_result,
    json!([{"tool": "read_file", "redact": "password=\\S+"}]),
    json!({"name": "read_file", "result": "nothing secret"}),
    "nothing secret"
);

effect!(
    suppress_output_notice,
    json!([{"id": "quiet", "tool": "list_directory", "suppress-output": true}]),
    json!({"name": "list_directory", "args": {"path": "."}, "result": "a\nb\nc\n"}),
    "[gptel-rust-hooks: the output of tool `list_directory` (6 characters) was withheld by quiet]"
);

effect!(
    suppress_output_false_is_no_effect,
    json!([{"tool": "list_directory", "suppress-output": false}]),
    json!({"name": "list_directory", "result": "a\nb\n"}),
    "a\nb\n"
);

effect!(
    max_output_truncates_with_note,
    json!([{"tool": "shell", "max-output": 5}]),
    json!({"name": "shell", "result": "0123456789"}),
    "01234\n[gptel-rust-hooks: output truncated: 5 of 10 characters not shown]"
);

effect!(
    max_output_counts_characters_not_bytes,
    json!([{"tool": "shell", "max-output": 3}]),
    json!({"name": "shell", "result": "ééééé"}),
    "ééé\n[gptel-rust-hooks: output truncated: 2 of 5 characters not shown]"
);

effect!(
    max_output_not_reached_no_change,
    json!([{"tool": "shell", "max-output": 10}]),
    json!({"name": "shell", "result": "0123456789"}),
    "0123456789"
);

effect!(
    max_output_zero_cuts_all,
    json!([{"tool": "shell", "max-output": 0}]),
    json!({"name": "shell", "result": "abc"}),
    "\n[gptel-rust-hooks: output truncated: 3 of 3 characters not shown]"
);

effect!(
    smallest_max_output_wins,
    json!([{"tool": "shell", "max-output": 8}, {"tool": "*", "max-output": 4}]),
    json!({"name": "shell", "result": "0123456789"}),
    "0123\n[gptel-rust-hooks: output truncated: 6 of 10 characters not shown]"
);

effect!(
    context_appended_after_blank_line,
    json!([{"tool": "query_database", "context": "Use PostgreSQL syntax."}]),
    json!({"name": "query_database", "result": "3 rows"}),
    "3 rows\n\nUse PostgreSQL syntax."
);

effect!(
    context_after_trailing_newline,
    json!([{"tool": "query_database", "context": "Use PostgreSQL syntax."}]),
    json!({"name": "query_database", "result": "3 rows\n"}),
    "3 rows\n\nUse PostgreSQL syntax."
);

effect!(
    context_of_empty_result_is_context,
    json!([{"tool": "query_database", "context": "Use PostgreSQL syntax."}]),
    json!({"name": "query_database", "result": ""}),
    "Use PostgreSQL syntax."
);

effect!(
    context_of_missing_result_is_context,
    json!([{"tool": "query_database", "context": "Use PostgreSQL syntax."}]),
    json!({"name": "query_database"}),
    "Use PostgreSQL syntax."
);

effect!(
    contexts_in_rule_order,
    json!([
        {"tool": "query_database", "context": "First."},
        {"tool": "*", "context": "Second."}
    ]),
    json!({"name": "query_database", "result": "ok"}),
    "ok\n\nFirst.\n\nSecond."
);

// ---------------------------------------------------------------------------
// Order of effects

effect!(
    order_redact_before_truncate,
    // The secret straddles the cut: it is redacted first, so no part of it shows.
    json!([{"tool": "shell", "redact": "SECRET\\d+", "max-output": 12}]),
    json!({"name": "shell", "result": "key: SECRET12345 and more"}),
    "key: [REDACT\n[gptel-rust-hooks: output truncated: 12 of 24 characters not shown]"
);

effect!(
    order_context_after_truncate_never_cut,
    json!([{"tool": "shell", "max-output": 4, "context": "Context stays."}]),
    json!({"name": "shell", "result": "0123456789"}),
    "0123\n[gptel-rust-hooks: output truncated: 6 of 10 characters not shown]\n\nContext stays."
);

effect!(
    order_suppress_wins_over_redact_and_truncate,
    json!([
        {"id": "cut", "tool": "search_files", "redact": "x", "max-output": 3},
        {"id": "hide", "tool": "search_files", "suppress-output": true, "context": "Ask for less."}
    ]),
    json!({"name": "search_files", "result": "xxxxxxxx"}),
    "[gptel-rust-hooks: the output of tool `search_files` (8 characters) was withheld by hide]\n\nAsk for less."
);

#[test]
fn order_all_effects_reported_applied_in_rule_order() {
    let p = policy(json!([
        {"id": "c", "tool": "shell", "context": "C."},
        {"id": "none", "tool": "shell", "decision": "allow"},
        {"id": "r", "tool": "shell", "redact": "a+"},
        {"id": "m", "tool": "shell", "max-output": 100},
        {"id": "other", "tool": "read_file", "context": "never"}
    ]));
    let out = post(&p, &call(json!({"name": "shell", "result": "baaab aab"})));
    assert_eq!(
        out,
        PostOutcome {
            result: Some("b[REDACTED]b [REDACTED]b\n\nC.".into()),
            applied: vec![0, 2, 3],
            redactions: 2,
        }
    );
    assert_eq!(labels(&p, &out), ["c", "r", "m"]);
}

// ---------------------------------------------------------------------------
// Which calls the effects apply to: the same matchers as decisions

macro_rules! applies {
    ($name:ident, $rule:expr, $call:expr, $want:expr) => {
        #[test]
        fn $name() {
            let mut rule = $rule;
            rule["context"] = json!("CTX");
            let p = policy(json!([rule]));
            let mut c = $call;
            c["result"] = json!("out");
            let got = seen(&p, &call(c));
            let want: bool = $want;
            assert_eq!(got == "out\n\nCTX", want, "{got:?}");
            assert_eq!(got == "out", !want, "{got:?}");
        }
    };
}

applies!(
    tool_glob_matches,
    json!({"tool": "query_*"}),
    json!({"name": "query_database"}),
    true
);
applies!(
    tool_glob_whole_name,
    json!({"tool": "query"}),
    json!({"name": "query_database"}),
    false
);
applies!(
    tool_list_any,
    json!({"tool": ["list_directory", "search_files"]}),
    json!({"name": "search_files"}),
    true
);
applies!(
    tool_regexp,
    json!({"tool-regexp": "^query_"}),
    json!({"name": "query_database"}),
    true
);
applies!(
    args_glob_matches,
    json!({"tool": "read_file", "args": {"path": "*.env"}}),
    json!({"name": "read_file", "args": {"path": "/srv/app/.env"}}),
    true
);
applies!(
    args_glob_no_match,
    json!({"tool": "read_file", "args": {"path": "*.env"}}),
    json!({"name": "read_file", "args": {"path": "/srv/app/main.rs"}}),
    false
);
applies!(
    args_regexp,
    json!({"tool": "query_database", "args": {"sql": {"regexp": "(?i)^\\s*select"}}}),
    json!({"name": "query_database", "args": {"sql": "SELECT 1"}}),
    true
);
applies!(
    args_absent_no_match,
    json!({"tool": "query_database", "args": {"sql": {"regexp": "select"}}}),
    json!({"name": "query_database", "args": {}}),
    false
);
applies!(
    path_glob,
    json!({"tool": "read_file", "path": "**/*.log"}),
    json!({"name": "read_file", "args": {"path": "/var/log/app/x.log"}, "cwd": "/home/u"}),
    true
);
applies!(
    command_prefix,
    json!({"tool": "shell", "command-prefix": "psql"}),
    json!({"name": "shell", "args": {"command": "psql -c select"}}),
    true
);
applies!(
    command_prefix_other_command,
    json!({"tool": "shell", "command-prefix": "psql"}),
    json!({"name": "shell", "args": {"command": "ls -la"}}),
    false
);
applies!(
    no_matcher_matches_every_call,
    json!({}),
    json!({"name": "anything"}),
    true
);

#[test]
fn rules_without_post_effects_do_not_apply() {
    let p = policy(json!([{"tool": "shell", "decision": "deny"}]));
    let c = call(json!({"name": "shell", "result": "out"}));
    assert!(!p.has_post_effects);
    assert!(post::applying(&p, &c).is_empty());
    assert!(!post::needs_result(&p, &[]));
    assert_eq!(
        post(&p, &c),
        PostOutcome {
            result: None,
            applied: vec![],
            redactions: 0
        }
    );
}

#[test]
fn result_not_needed_when_no_rule_applies() {
    let p = policy(json!([{"tool": "query_database", "context": "C."}]));
    let other = call(json!({"name": "read_file"}));
    assert!(post::applying(&p, &other).is_empty());
    assert!(!post::needs_result(&p, &post::applying(&p, &other)));
    // With the secret patterns on, every result must be read.
    let s = policy_with(json!([{"tool": "query_database", "context": "C."}]), true);
    assert!(post::needs_result(&s, &post::applying(&s, &other)));
}

#[test]
fn unchanged_result_is_none() {
    // No copy is handed back when nothing changed.
    let p = policy(json!([{"tool": "shell", "redact": "nope", "max-output": 100}]));
    let out = post(&p, &call(json!({"name": "shell", "result": "fine"})));
    assert_eq!(out.result, None);
    assert_eq!(out.applied, vec![0]);
}

// ---------------------------------------------------------------------------
// Redaction machinery

#[test]
fn patterns_of_all_applying_rules_joined_into_one_regexp() {
    let p = policy(json!([
        {"tool": "*", "redact": "alpha"},
        {"tool": "*", "redact": ["beta", "gam+a"]},
        {"tool": "shell", "redact": "delta"}
    ]));
    let c = call(json!({"name": "read_file", "result": "alpha beta gammma delta"}));
    let applied = post::applying(&p, &c);
    assert_eq!(applied, vec![0, 1]);
    assert!(matches!(*redactor(&p, &applied), Redactor::Joined(_)));
    assert_eq!(seen(&p, &c), "[REDACTED] [REDACTED] [REDACTED] delta");
    // Cached: the same set of rules gets the same redactor.
    let a = redactor(&p, &applied);
    let b = redactor(&p, &applied);
    assert!(std::sync::Arc::ptr_eq(&a, &b));
}

#[test]
fn duplicate_group_names_still_redact_every_pattern() {
    // Joining these fails (a group name repeats); each still applies.
    let patterns = ["(?P<n>\\d{4})-x", "(?P<n>[A-Z]{3})-y"];
    assert!(redact::join(&patterns).is_none());
    assert!(matches!(redactor_for(&patterns), Redactor::Each(_)));
    let p = policy(json!([
        {"tool": "*", "redact": patterns[0]},
        {"tool": "*", "redact": patterns[1]}
    ]));
    assert_eq!(
        seen(&p, &call(json!({"name": "t", "result": "1234-x ABC-y ok"}))),
        "[REDACTED] [REDACTED] ok"
    );
}

#[test]
fn nothing_to_redact() {
    assert!(matches!(redactor_for(&[]), Redactor::Nothing));
    let (text, n) = redact(&Redactor::Nothing, "abc").expect("redacts");
    assert_eq!((text.as_ref(), n), ("abc", 0));
}

#[test]
fn broken_redactor_fails_closed() {
    // A pattern that cannot be built withholds the output rather than show it.
    assert!(redact(&Redactor::Broken("bad".into()), "secret").is_err());
    assert!(matches!(redactor_for(&["("]), Redactor::Broken(_)));
}

#[test]
fn redacted_marker_and_notice_texts() {
    assert_eq!(REDACTED, "[REDACTED]");
    assert_eq!(
        withheld("t", 3, "rule 2"),
        "[gptel-rust-hooks: the output of tool `t` (3 characters) was withheld by rule 2]"
    );
    assert_eq!(truncate("abc", 3), None);
    assert_eq!(truncate("", 0), None);
}

#[test]
fn non_text_result_is_json_text() {
    // A result gptel holds as data reaches the engine as JSON text.
    let p = policy(json!([{"tool": "t", "redact": "\\d+"}]));
    let mut c = call(json!({"name": "t"}));
    c.result = Some(json!({"rows": 42}).to_string());
    assert_eq!(seen(&p, &c), "{\"rows\":[REDACTED]}");
}

// ---------------------------------------------------------------------------
// Secret patterns: every family, one true positive and one near miss

/// (family, text holding a secret, what it must become, a near miss left alone)
fn secret_cases() -> Vec<(&'static str, String, String, String)> {
    let a = |n| rep("a1B2", n);
    let up = |n| rep("Q7", n);
    vec![
        (
            "private key block",
            format!(
                "x\n-----BEGIN RSA {}-----\nMIIEow\nIBAAK\n-----END RSA {}-----\ny",
                "PRIVATE KEY", "PRIVATE KEY"
            ),
            "x\n[REDACTED]\ny".into(),
            format!(
                "-----BEGIN {}-----\nMIIBIjAN\n-----END PUBLIC KEY-----",
                "PUBLIC KEY"
            ),
        ),
        (
            "OpenAI or Anthropic API key",
            format!("OPENAI_API_KEY={}proj-{}", "sk-", a(6)),
            "OPENAI_API_KEY=[REDACTED]".into(),
            // A word ending in "sk-" is no key, nor is a short one.
            format!("task-{} and {}short", a(6), "sk-"),
        ),
        (
            "OpenAI or Anthropic API key",
            format!("key: {}ant-api03-{}", "sk-", a(8)),
            "key: [REDACTED]".into(),
            format!("{}ant-abc", "sk-"),
        ),
        (
            "AWS access key id",
            format!("id={}{}", "AKIA", up(8)),
            "id=[REDACTED]".into(),
            // Lower case, or one character short.
            format!("{}{} {}{}", "AKIA", rep("q7", 8), "AKIA", &up(8)[1..]),
        ),
        (
            "AWS secret access key",
            format!("aws_secret_access_key = {}", &rep("wJalrXUt/K+=", 4)[..40]),
            "[REDACTED]".into(),
            format!("aws_secret_access_key = {}", &rep("wJalrXUt", 4)[..30]),
        ),
        (
            "GitHub token",
            format!("token {}_{}", "ghp", rep("A1b2C3", 6)),
            "token [REDACTED]".into(),
            // An unknown prefix letter, and too short.
            format!("{}_{} {}_{}", "ghx", rep("A1b2C3", 6), "ghp", rep("A1", 5)),
        ),
        (
            "GitHub token",
            format!("{}_{}", "github_pat", rep("11AbCd_", 4)),
            "[REDACTED]".into(),
            format!("{}_{}", "github_pat", "short"),
        ),
        (
            "Google API key",
            format!("key={}{}", "AIza", &rep("Sy-9_xZ", 5)),
            "key=[REDACTED]".into(),
            format!("key={}{}", "AIza", &rep("Sy-9_xZ", 4)),
        ),
        (
            "Slack token",
            format!("{}-{}", "xoxb", "123456789012-abcdefABCDEF"),
            "[REDACTED]".into(),
            format!("{}-{}", "xoxz", "123456789012-abcdefABCDEF"),
        ),
        (
            "Stripe live key",
            format!("{}_live_{}", "sk", rep("4eC39HqLyjWD", 2)),
            "[REDACTED]".into(),
            format!("{}_test_{}", "sk", rep("4eC39HqLyjWD", 2)),
        ),
        (
            "Hugging Face token",
            format!("HF_TOKEN={}_{}", "hf", rep("aBcDeFgHiJ", 3)),
            "HF_TOKEN=[REDACTED]".into(),
            format!("{}_{}", "hf", "aBcDeF"),
        ),
        (
            "JSON Web Token",
            format!(
                "{}.{}.{}",
                "eyJhbGciOiJIUzI1NiJ9",
                "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
                "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
            ),
            "[REDACTED]".into(),
            format!(
                "{}.{}",
                "eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiIxMjM0NTY3ODkwIn0"
            ),
        ),
        (
            "bearer token",
            format!("Authorization: Bearer {}", rep("abc.DEF_123-", 2)),
            "Authorization: [REDACTED]".into(),
            "Authorization: Bearer short".into(),
        ),
    ]
}

#[test]
fn every_secret_family_has_cases() {
    let cases = secret_cases();
    for (name, _) in SECRET_PATTERNS {
        assert!(
            cases.iter().any(|(n, ..)| n == name),
            "no test case for secret family {name}"
        );
    }
}

#[test]
fn secret_true_positives_each_pattern() {
    for (name, text, want, _) in secret_cases() {
        let r = redactor_for(&[secret_pattern(name)]);
        let (got, n) = redact(&r, &text).expect("redacts");
        assert_eq!(got, want, "{name}: {text:?}");
        assert_eq!(n, 1, "{name}: {text:?}");
    }
}

#[test]
fn secret_near_misses_each_pattern() {
    for (name, _, _, near) in secret_cases() {
        let r = redactor_for(&[secret_pattern(name)]);
        let (got, n) = redact(&r, &near).expect("redacts");
        assert_eq!((got.as_ref(), n), (near.as_str(), 0), "{name}");
    }
}

#[test]
fn secret_patterns_through_policy_only_when_switched_on() {
    let rules = json!([]);
    let off = policy_with(rules.clone(), false);
    let on = policy_with(rules, true);
    for (name, text, want, near) in secret_cases() {
        let c = call(json!({"name": "read_file", "result": text}));
        assert_eq!(seen(&off, &c), text, "{name} redacted while off");
        assert_eq!(seen(&on, &c), want, "{name}");
        let c = call(json!({"name": "read_file", "result": near}));
        assert_eq!(seen(&on, &c), near, "{name} near miss redacted");
    }
    // All families joined into one regexp.
    assert!(matches!(*redactor(&on, &[]), Redactor::Joined(_)));
}

#[test]
fn secret_patterns_join_with_rule_patterns() {
    let p = policy_with(json!([{"tool": "*", "redact": "internal-\\d+"}]), true);
    let text = format!("host internal-42 key {}{}", "AKIA", rep("Q7", 8));
    assert_eq!(
        seen(&p, &call(json!({"name": "t", "result": text}))),
        "host [REDACTED] key [REDACTED]"
    );
}

// ---------------------------------------------------------------------------
// Multi-megabyte results

/// About MB megabytes of log-like text with a secret every EVERY lines,
/// and how many secrets it holds.
fn big_text(mb: usize, every: usize) -> (String, usize) {
    let key = format!("{}{}", "AKIA", rep("Q7", 8));
    let mut text = String::with_capacity(mb << 20);
    let mut n = 0;
    let mut line = 0;
    while text.len() < mb << 20 {
        line += 1;
        if line % every == 0 {
            text.push_str(&format!("{line:08} token={key} password=pw{line} é\n"));
            n += 1;
        } else {
            text.push_str(&format!(
                "{line:08} GET /api/items/{line} 200 0.{:03}s Ünïcödé ok\n",
                line % 1000
            ));
        }
    }
    (text, n)
}

#[test]
fn multi_megabyte_redaction_one_pass() {
    let (text, n) = big_text(8, 1000);
    assert!(text.len() >= 8 << 20);
    let p = policy_with(
        json!([{"tool": "read_file", "redact": "password=\\S+"}]),
        true,
    );
    let c = call(json!({"name": "read_file", "args": {"path": "/var/log/big.log"}}));
    let applied = post::applying(&p, &c);
    assert!(matches!(*redactor(&p, &applied), Redactor::Joined(_)));
    let start = Instant::now();
    let out = post::apply(&p, "read_file", &text, applied);
    let took = start.elapsed();
    eprintln!(
        "multi_megabyte_redaction_one_pass: {} bytes, {} redactions in {took:?}",
        text.len(),
        out.redactions
    );
    // The key and the password of every secret line.
    assert_eq!(out.redactions, 2 * n);
    let result = out.result.expect("changed");
    assert!(!result.contains("AKIA"));
    assert!(!result.contains("password=pw"));
    assert_eq!(result.matches("token=[REDACTED] [REDACTED] é").count(), n);
    assert_eq!(result.lines().count(), text.lines().count());
    // Generous bound: one pass over 8 MB takes milliseconds in release.
    assert!(took.as_secs() < 20, "took {took:?}");
}

#[test]
fn multi_megabyte_truncate_and_suppress() {
    let (text, _) = big_text(4, 100_000);
    let chars = text.chars().count();
    let p = policy(json!([{"tool": "shell", "max-output": 1000, "context": "C."}]));
    let out = post::apply(&p, "shell", &text, vec![0]);
    let want = format!(
        "{}\n[gptel-rust-hooks: output truncated: {} of {chars} characters not shown]\n\nC.",
        text.chars().take(1000).collect::<String>(),
        chars - 1000
    );
    assert_eq!(out.result.as_deref(), Some(want.as_str()));

    let p = policy(json!([{"id": "q", "tool": "search_files", "suppress-output": true}]));
    let out = post::apply(&p, "search_files", &text, vec![0]);
    assert_eq!(out.result, Some(withheld("search_files", chars, "q")));
}

#[test]
fn multi_megabyte_no_rule_applies_untouched() {
    let (text, _) = big_text(4, 1000);
    let p = policy(json!([{"tool": "query_database", "redact": "AKIA\\w+"}]));
    let mut c = call(json!({"name": "read_file"}));
    c.result = Some(text);
    assert_eq!(
        post(&p, &c),
        PostOutcome {
            result: None,
            applied: vec![],
            redactions: 0
        }
    );
}

#[test]
fn untrusted_layer_keeps_tightening_effects() {
    use gptel_rust_hooks::compile::compile_layers;
    use gptel_rust_hooks::policy::Layer;
    let (rules, lines) = rules_from_json_text(
        &json!([{"tool": "*", "redact": "s3cr3t", "max-output": 100, "context": "dropped"}])
            .to_string(),
    )
    .expect("rules read");
    let p = compile_layers(
        vec![Layer {
            source: Some("/p/.gptel-hooks.json".into()),
            trusted: false,
            rules,
            lines,
        }],
        options(false),
    )
    .expect("compiles");
    assert_eq!(
        seen(&p, &call(json!({"name": "t", "result": "a s3cr3t b"}))),
        "a [REDACTED] b"
    );
}
