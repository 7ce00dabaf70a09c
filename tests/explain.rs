//! Explanations (what each matcher wanted, the prefix that matched, the
//! edits) and where policy-file errors point (file, rule, line).

use gptel_rust_hooks::compile::{compile, compile_layers};
use gptel_rust_hooks::explain;
use gptel_rust_hooks::policy::{Layer, Options, Policy};
use gptel_rust_hooks::rule::{rules_from_json_text, rules_from_value, Call};
use serde_json::{json, Value as Json};

fn policy(rules: Json) -> Policy {
    let rules = rules_from_value(&rules).expect("rules read");
    compile(rules, Options::default()).expect("policy compiles")
}

fn call(value: Json) -> Call {
    Call::from_value(&value).expect("call read")
}

fn file_error(text: &str) -> String {
    let layer = || -> Result<Policy, String> {
        let (rules, lines) =
            rules_from_json_text(text).map_err(|e| e.in_source("p.json").to_string())?;
        compile_layers(
            vec![Layer {
                source: Some("p.json".into()),
                trusted: true,
                rules,
                lines,
            }],
            Options::default(),
        )
        .map_err(|e| e.to_string())
    };
    match layer() {
        Ok(_) => panic!("policy compiled"),
        Err(e) => e,
    }
}

#[test]
fn matchers_say_what_they_want() {
    let p = policy(json!([
        {"id": "r", "tool": ["shell", "bash"], "tool-regexp": "^sh",
         "args": {"n": {"min": 1}, "m": ["a*", {"regexp": "b"}]}, "model": "gpt-*"}
    ]));
    let e = explain::explain(
        &p,
        &call(json!({"name": "shell", "args": {"n": 2, "m": "x"}})),
    );
    let wants: Vec<Json> = e["rules"][0]["matchers"]
        .as_array()
        .expect("matchers")
        .iter()
        .map(|m| json!([m["matcher"], m["matched"], m["want"]]))
        .collect();
    assert_eq!(
        wants,
        vec![
            json!(["tool", true, ["shell", "bash"]]),
            json!(["tool-regexp", true, ["^sh"]]),
            json!(["model", false, ["gpt-*"]]),
            json!(["args", true, {"key": "n", "matcher": {"min": 1.0}}]),
            json!(["args", false, {"key": "m", "matcher": ["a*", {"regexp": "b"}]}]),
        ]
    );
}

#[test]
fn command_prefix_check_names_the_prefix() {
    let p = policy(
        json!([{"tool": "shell", "command-prefix": ["git status", "ls"], "decision": "deny"}]),
    );
    let e = explain::explain(
        &p,
        &call(json!({"name": "shell", "args": {"command": "git status -s"}})),
    );
    let m = &e["rules"][0]["matchers"][1];
    assert_eq!(m["matcher"], json!("command-prefix"));
    assert_eq!(m["want"], json!(["git status", "ls"]));
    assert_eq!(m["on"][0]["command"], json!("git status -s"));
    assert_eq!(m["on"][0]["prefix"], json!("git status"));
}

#[test]
fn edits_and_effects_are_listed() {
    let p = policy(json!([
        {"id": "t", "tool": "shell", "default-args": {"timeout": 30}, "reason": "why"},
        {"id": "r", "tool": "shell", "remove-args": ["env"], "set-args": {"x": 1}},
        {"id": "other", "tool": "read_file", "set-args": {"y": 2}},
    ]));
    let e = explain::explain(
        &p,
        &call(json!({"name": "shell", "args": {"command": "ls", "env": "A=1"}})),
    );
    assert_eq!(
        e["edits"],
        json!([
            {"rule": "t", "source": null, "line": null, "set-args": {},
             "default-args": {"timeout": 30}, "remove-args": []},
            {"rule": "r", "source": null, "line": null, "set-args": {"x": 1},
             "default-args": {}, "remove-args": ["env"]},
        ])
    );
    assert_eq!(e["edits-applied"], json!(true));
    assert_eq!(
        e["edited-args"],
        json!({"command": "ls", "timeout": 30, "x": 1})
    );
    assert_eq!(
        e["rules"][0]["effects"],
        json!({"reason": "why", "default-args": {"timeout": 30}})
    );
    assert_eq!(e["rules"][0]["matched-after-edits"], json!(true));
    assert_eq!(e["rules"][2]["matched-after-edits"], json!(false));
}

#[test]
fn edits_of_a_denied_call_are_not_applied() {
    let p = policy(json!([
        {"tool": "shell", "set-args": {"x": 1}},
        {"id": "no", "tool": "shell", "decision": "deny"},
    ]));
    let e = explain::explain(&p, &call(json!({"name": "shell", "args": {}})));
    assert_eq!(
        (
            e["edits"].as_array().map(Vec::len),
            e["edits-applied"].clone(),
            e["decision"].clone()
        ),
        (Some(1), json!(false), json!("deny"))
    );
}

#[test]
fn result_rule_is_named() {
    let p = policy(json!([{"id": "canned", "tool": "w", "result": "Sunny."}]));
    let e = explain::explain(&p, &call(json!({"name": "w"})));
    assert_eq!(
        (e["result"].clone(), e["result-rule"].clone()),
        (json!("Sunny."), json!("canned"))
    );
}

#[test]
fn file_errors_name_file_rule_and_line() {
    // Reading: an unknown key, on the rule's line.
    assert_eq!(
        file_error(
            "[\n {\"tool\": \"a\", \"decision\": \"deny\"},\n\n {\"id\": \"x\", \"tol\": \"b\"}\n]"
        ),
        "p.json: rule 2 (`x`): unknown key `:tol` (did you mean `:tool`?) (line 4)"
    );
    // Compiling: a bad glob, on the rule's line.
    assert_eq!(
        file_error("[{\"tool\": \"a\"},\n {\"id\": \"g\", \"tool\": \"[\"}]"),
        "p.json: rule 2 (`g`): :tool: invalid glob `[`: unclosed character class; missing ']' (line 2)"
    );
    // Invalid JSON: line and column.
    assert_eq!(
        file_error("[\n {\"tool\": \"a\",}\n]"),
        "p.json: line 2, column 15: invalid JSON: trailing comma"
    );
}

#[test]
fn failing_example_in_a_file_names_rule_example_and_line() {
    assert_eq!(
        file_error(
            "[\n {\"id\": \"no-rm\", \"tool\": \"shell\", \"args\": {\"command\": \"rm*\"},\n  \"decision\": \"deny\",\n  \"examples\": {\"match\": [{\"name\": \"shell\", \"args\": {\"command\": \"ls\"}}]}}\n]"
        ),
        "p.json: rule 1 (`no-rm`): :examples: example :match `(:name \"shell\" :args (:command \"ls\"))` does not match the rule (no match on args) (line 2)"
    );
}
