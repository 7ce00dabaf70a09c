//! Where a command after a `cd` runs, checked against bash: each line runs in a project
//! whose `secret` a rule denies (that one file, by its path), with `src/a.rs` beside
//! it, once with `;` and once with a newline between its commands. Where bash reads the
//! secret the line is never allowed; where the `cd` surely succeeded (`cd src || exit`,
//! `if cd src; then`, `cd src || { echo no >&2; exit 1; }`) what follows is read in `src`
//! only, and everyday lines are allowed. helper-101 and helper-102's families are among
//! the templates: a condition that ends with `&`, `exit --help`, a group whose `exit` is
//! never reached (an assignment to a readonly variable or an expansion error throws
//! the rest of the line away, and bash goes on with the next line).

mod common;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::Path;
use std::process::Command;

/// What `bash -c LINE` prints in DIR.
fn run(dir: &Path, line: &str) -> String {
    let out = Command::new("timeout")
        .args(["5", "bash", "-c", line])
        .current_dir(dir)
        .output()
        .expect("run bash");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The lines, `{J}` a separator of commands and `{T}` the command that reads.
const TEMPLATES: &[&str] = &[
    "cd src || exit{J}{T}",
    "cd nosuch || exit{J}{T}",
    "cd nosuch || exit 1{J}{T}",
    "cd nosuch || exit --help{J}{T}",
    "cd nosuch || exit '--help'{J}{T}",
    "cd nosuch || exit 1 2{J}{T}",
    "cd nosuch || exit 1 >/nonexistent/x{J}{T}",
    "cd src || { echo no >&2; exit 1; }{J}{T}",
    "cd nosuch || { echo no >&2; exit 1; }{J}{T}",
    "cd nosuch || { exit 1; } 2>/nonexistent/x{J}{T}",
    "readonly x=1; cd nosuch || { x=2; exit; }{J}{T}",
    "readonly x=1; cd nosuch || { printf -v x no; exit; }{J}{T}",
    "cd nosuch || { echo \"$((1/0))\"; exit; }{J}{T}",
    "cd nosuch || { echo no >\"$((1/0))\"; exit; }{J}{T}",
    "cd nosuch || { exit 1 & }{J}{T}",
    "cd nosuch || { exit 1; echo; }{J}{T}",
    "cd nosuch || exit | cat{J}{T}",
    "{ cd src || exit; } | cat{J}{T}",
    "(cd src || exit){J}{T}",
    "cd src || exit{J}ls | head -1{J}{T}",
    "cd nosuch || exit{J}true | cd src{J}{T}",
    "cd src || exit{J}x=1{J}{T}",
    "cd src || exit{J}true{J}{T}",
    // helper-103: the assignment throws the rest of its line away, `cd` and all.
    "cd .. || exit; readonly q=1; q=2; cd proj || exit{J}{T}",
    "cd .. || exit; readonly q=1; q=2; cd proj/src || exit{J}{T}",
    "cd nosuch || true{J}{T}",
    "cd nosuch; {T}",
    "if cd src; then {T}; fi",
    "if cd src; then true{J}{T}{J}fi",
    "if cd nosuch & then {T}; fi",
    "if false; then :; elif cd nosuch & then {T}; fi",
    "if cd nosuch; then :; else {T}; fi",
    "if cd nosuch; then :; fi{J}{T}",
    "if ! cd nosuch; then {T}; fi",
    "if cd nosuch || true; then {T}; fi",
    "cd -P src && {T}",
    "cd -L -- src && {T}",
    "cd -- nosuch && {T}",
    "cd nosuch src && {T}",
    "pushd src >/dev/null && {T}",
    "pushd -n src >/dev/null && {T}",
    "pushd -- -1 >/dev/null; {T}",
];

/// What each line reads: the secret from the project, from `src`, and a plain file.
const READS: &[&str] = &["cat secret", "cat ../secret", "cat a.rs"];

#[test]
fn a_command_after_cd_is_read_where_bash_runs_it() {
    let base = common::process_dir("grh-cd-places");
    let _ = std::fs::remove_dir_all(&base);
    let proj = base.join("proj");
    std::fs::create_dir_all(proj.join("src")).expect("mkdir");
    std::fs::write(proj.join("secret"), "SECRET\n").expect("write");
    std::fs::write(proj.join("src/a.rs"), "fn main() {}\n").expect("write");
    let proj = proj.canonicalize().expect("canonicalize");
    let rules = json!([
        {"id": "secret", "path": proj.join("secret").display().to_string(), "decision": "deny"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let policy = compile::compile(rules, Options::default()).expect("policy compiles");
    let decide = |line: &str| {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": &proj});
        eval::evaluate(&policy, &Call::from_value(&value).expect("call reads")).decision
    };
    let (mut bypasses, mut read, mut allowed, mut lines) = (Vec::new(), 0, 0, 0);
    for t in TEMPLATES {
        for j in ["; ", "\n"] {
            for r in READS {
                let line = t.replace("{J}", j).replace("{T}", r);
                let printed = run(&proj, &line).contains("SECRET");
                let d = decide(&line);
                lines += 1;
                read += usize::from(printed);
                allowed += usize::from(d == Some(Decision::Allow));
                if printed && d == Some(Decision::Allow) {
                    bypasses.push(line);
                }
            }
        }
    }
    eprintln!("cd places: {lines} lines; {read} read the secret, {allowed} allowed");
    assert!(
        bypasses.is_empty(),
        "allowed, and bash read the secret:\n{}",
        bypasses.join("\n---\n")
    );
    assert!(read >= 50, "too few lines read the secret: {read}");
    assert!(allowed >= 80, "too few lines allowed: {allowed}");
    // Everyday lines: the `cd` surely succeeded, and what follows reads in `src` only.
    for line in [
        "cd src || exit; cat secret",
        "cd src || exit 1; cat a.rs",
        "cd src || { echo 'no src' >&2; exit 1; }; cat a.rs",
        "if cd src; then cat a.rs; fi",
        "cd src || exit; ls | head -1; cat a.rs",
        "cd -P src && cat secret",
        "pushd src >/dev/null && cat a.rs",
    ] {
        assert!(!run(&proj, line).contains("SECRET"), "{line}");
        assert_eq!(decide(line), Some(Decision::Allow), "{line}");
    }
    let _ = std::fs::remove_dir_all(&base);
}
