//! Code in an interpreter's own language, read by its reader (awk's programs, jq's
//! filters, sed's scripts): a filter that only reads its input is certain and allowed;
//! code that runs commands, opens files or comes from a file the line does not show is
//! not, and the commands an unknown awk program may run meet deny rules.

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::sync::OnceLock;

fn policy() -> &'static Policy {
    static P: OnceLock<Policy> = OnceLock::new();
    P.get_or_init(|| {
        let rules = json!([
            {"id": "ssh", "path": "~/.ssh/**", "decision": "deny"},
            {"id": "rm", "tool": "shell", "command-prefix": "rm", "decision": "deny"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}
        ]);
        let rules = rule::rules_from_value(&rules).expect("rules read");
        let opts = Options {
            home: Some("/home/u".into()),
            ..Options::default()
        };
        compile::compile(rules, opts).expect("policy compiles")
    })
}

fn decision(line: &str) -> Option<Decision> {
    let call = Call::from_value(&json!({
        "name": "shell", "args": {"command": line}, "cwd": "/home/u/proj"
    }))
    .expect("a shell call");
    eval::evaluate(policy(), &call).decision
}

#[test]
fn filters_are_allowed() {
    for line in [
        "awk '{print $1}' data.csv",
        "awk -F, '{s+=$2} END {print s}' data.csv",
        "awk 'NR>=5 && NR<=15' src/main.c",
        "ps aux | awk '{print $2}' | head",
        "gawk -e '{n++}' -e 'END{print n}' f",
        // Comparisons, `||`, and `|` or `>` in regular expressions and strings.
        "awk '$3 > 100 {print $1}' data.txt",
        "awk 'NR>1 {print $2}' f.csv",
        "awk 'length > 120' src/main.rs",
        "awk '{print ($2 > 0 ? \"up\" : \"down\")}' f",
        "awk '/TODO|FIXME/ {n++} END {print n}' src/main.rs",
        "awk '$1 == \"a\" || $1 == \"b\"' f",
        "awk '{print \"->\", $0}' f",
        "jq . package.json",
        "jq -r '.dependencies | keys[]' package.json",
        "curl -s http://localhost:8080/x | jq '.items | length'",
    ] {
        assert_eq!(decision(line), Some(Decision::Allow), "{line}");
    }
}

#[test]
fn code_that_does_more_is_not_allowed() {
    for line in [
        // Commands, files, and the files it reads changed by the program.
        "awk 'BEGIN{system(\"id\")}'",
        "awk '{print > \"out\"}' f",
        "awk '{print | \"sort\"}' f",
        "awk '$3 > 100 {print $1 > \"big\"}' f",
        "awk '{print $1, $2 > $3}' f",
        "awk '{printf(\"%s\\n\", $1) > \"out\"}' f",
        // A regular expression after `if (…)`, and `-e`, which the one true awk
        // ignores (its value is then the program) (helper-41).
        "awk 'NR==1 { if (NF) /#/; print \"x\" > (\".e\" \"nv\") }' f",
        "nawk 'NR==1{ if (1) /a/ / 1; print \"k\" > \"x\" }' f",
        "awk -e1 'BEGIN{system(\"id\")}'",
        "original-awk -e -f p.awk f",
        "awk 'BEGIN{ARGV[1]=\"/etc/shadow\"; ARGC=2} {print}'",
        "gawk 'BEGIN{f=\"system\"; @f(\"id\")}'",
        "gawk -e 'BEGIN{sys' -e 'tem(\"id\")}'",
        "jq -n 'import \"data\" as $d; $d'",
        // Code from a file the line does not show.
        "awk -f prog.awk f",
        "gawk -E prog.awk",
        "gawk -l ./ext.so -e 'BEGIN{}'",
        "gawk -W source='BEGIN{system(\"id\")}' f",
        "jq -f prog.jq f.json",
        "sed -f script.sed f",
    ] {
        assert_ne!(decision(line), Some(Decision::Allow), "{line}");
    }
}

#[test]
fn an_unknown_programs_commands_meet_deny_rules() {
    for line in [
        "awk 'BEGIN{system(\"rm -rf /tmp/x\")}'",
        "awk '{print | \"rm -f \" $1}' list",
        "awk '{print}' ~/.ssh/id_rsa",
        "jq -n --rawfile k ~/.ssh/id_rsa '$k'",
    ] {
        let d = decision(line);
        assert!(
            matches!(d, Some(Decision::Deny | Decision::Ask)),
            "{line}: {d:?}"
        );
    }
}
