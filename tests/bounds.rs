//! Every bound of the reading fails closed: a line that reaches one is never allowed,
//! deny rules still see it, and `explain` says which bound was reached.

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::explain;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::prepare::MAX_WORD_PATHS;
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;

fn policy(rules: serde_json::Value) -> Policy {
    let home = std::env::temp_dir().join("gptel-rust-hooks-bounds-home");
    std::fs::create_dir_all(&home).expect("temp home");
    let options = Options {
        home: Some(home),
        ..Options::default()
    };
    compile::compile(rule::rules_from_value(&rules).expect("rules"), options).expect("compile")
}

fn bash(command: &str) -> Call {
    Call::from_value(&json!({"name": "bash", "args": {"command": command}, "cwd": "/tmp"}))
        .expect("call")
}

/// The policy of these tests: cat and ls allowed, rm denied, ~/.ssh denied.
fn rules() -> Policy {
    policy(json!([
        {"id": "allow", "tool": "bash", "command-prefix": ["cat", "ls"], "decision": "allow"},
        {"id": "no-rm", "tool": "bash", "command-prefix": "rm", "decision": "deny"},
        {"id": "no-ssh", "path": "~/.ssh/**", "decision": "deny"}
    ]))
}

fn explained(p: &Policy, c: &Call) -> String {
    explain::explain(p, c).to_string()
}

#[test]
fn a_line_under_the_bounds_is_allowed() {
    let p = rules();
    let c = bash("cat a b c; ls -la");
    assert_eq!(eval::evaluate(&p, &c).decision, Some(Decision::Allow));
}

#[test]
fn too_many_words_to_check_as_paths_is_not_allowed_and_deny_path_rules_see_it() {
    let p = rules();
    let words: Vec<String> = (0..=MAX_WORD_PATHS).map(|i| format!("f{i}")).collect();
    let c = bash(&format!("cat {}", words.join(" ")));
    let o = eval::evaluate(&p, &c);
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    // The reason says the rule matched what was not checked, not a secret.
    let reason = o.reason.unwrap_or_default();
    assert!(
        reason.contains("what was not checked counts as matching"),
        "{reason}"
    );
    // Whichever bound comes first: the words, what reading their paths costs, or the
    // file-system lookups they need (a time bound: which one comes first depends on
    // the machine's speed).
    let text = explained(&p, &c);
    assert!(
        text.contains(&format!("more than {MAX_WORD_PATHS} words"))
            || text.contains("more paths to check than the bound on reading paths allows")
            || text.contains(gptel_rust_hooks::path::BUDGET_SPENT),
        "explain names the bound"
    );
}

#[test]
fn too_many_commands_is_not_allowed_and_deny_command_rules_match() {
    let p = rules();
    let line = "ls;".repeat(2_049);
    let c = bash(&line);
    let o = eval::evaluate(&p, &c);
    let text = explained(&p, &c);
    assert_eq!(
        o.decision,
        Some(Decision::Deny),
        "{}",
        &text[text.len().saturating_sub(2500)..]
    );
    assert_eq!(
        o.by.map(|r| p.rules[r].label.clone()).as_deref(),
        Some("no-rm")
    );
    assert!(explained(&p, &c).contains("more than 2048 commands"));
}

#[test]
fn an_rm_past_the_command_bound_is_denied() {
    let p = rules();
    let line = format!("{}rm -rf ~", "ls;".repeat(2_049));
    let o = eval::evaluate(&p, &bash(&line));
    assert_eq!(o.decision, Some(Decision::Deny));
}

#[test]
fn nesting_past_the_depth_bound_is_not_allowed() {
    let p = rules();
    let mut line = "ls".to_string();
    for _ in 0..20 {
        line = format!("ls $({line})");
    }
    let o = eval::evaluate(&p, &bash(&line));
    assert_ne!(o.decision, Some(Decision::Allow));
}

#[test]
fn a_glob_past_the_file_system_budget_is_not_allowed() {
    // A tree wide enough that expanding */*/*/* takes more lookups than one
    // decision may spend: 20 * 20 * 20 directories.
    let root = std::env::temp_dir().join(format!("gptel-rust-hooks-bounds-{}", std::process::id()));
    for a in 0..20 {
        for b in 0..20 {
            for c in 0..20 {
                std::fs::create_dir_all(root.join(format!("{a}/{b}/{c}"))).expect("tree");
            }
        }
    }
    let p = rules();
    let c = bash(&format!("cat {}/*/*/*/*.h", root.display()));
    let o = eval::evaluate(&p, &c);
    let text = explained(&p, &c);
    let _ = std::fs::remove_dir_all(&root);
    assert_ne!(o.decision, Some(Decision::Allow), "{text}");
    assert!(
        text.contains("budget") || text.contains("glob"),
        "explain names the bound: {text}"
    );
}

/// A directory change through `/proc/self/cwd`, `/proc/self/root` or an open
/// file is decided, and in bounded time: `cd /proc/self/cwd; cd ..` once read
/// the tracked directory `/proc/self/cwd` as its own `cwd`, forever.
#[test]
fn a_cd_through_proc_then_dotdot_is_decided() {
    let p = rules();
    let lines = [
        "cd /proc/self/cwd; cd ..",
        "cd /proc/self/cwd; cd ..; cat .ssh/id_rsa",
        "cd /proc/self/root; cd ../..",
        "cd /dev/fd/3; cd ..",
        "cd /dev/stdin; cd ../..; ls",
        "cd /proc/thread-self/cwd; cd ../..; cd /proc/self/cwd/..",
        "cd /proc/self/cwd/../../proc/self/cwd; cd /proc/self/cwd; cd ..",
        "cd /proc/1/task/1/cwd; cd ..; env -C /proc/self/cwd/.. ls",
    ];
    for line in lines {
        let o = eval::evaluate(&p, &bash(line));
        assert_ne!(o.decision, Some(Decision::Allow), "{line}");
    }
    // The request's own directory names a process's directory.
    for cwd in ["/proc/self/cwd", "/proc/thread-self/cwd/..", "/dev/fd/3"] {
        let c = Call::from_value(&json!({
            "name": "bash",
            "args": {"command": "cat /proc/self/cwd/x; cd ..; cd /proc/self/cwd; cd ..; ls"},
            "cwd": cwd
        }))
        .expect("call");
        let o = eval::evaluate(&p, &c);
        assert_ne!(o.decision, Some(Decision::Allow), "{cwd}");
    }
    // A long chain of them.
    let line = "cd /proc/self/cwd; cd ..; ".repeat(500);
    let o = eval::evaluate(&p, &bash(&line));
    assert_ne!(o.decision, Some(Decision::Allow));
}

#[test]
fn a_value_used_many_times_in_one_word_stays_bounded() {
    // `x=AAA...; echo $x/$x/...`: putting the value into the word must not make a
    // word of the square of the line's length.
    let value = "A".repeat(20_000);
    let uses = vec!["$x"; 3_000].join("/");
    let line = format!("x={value}; ls {uses}");
    let p = rules();
    let d = eval::evaluate(&p, &bash(&line));
    // Decided (a word past the path bounds fails closed), and never allowed.
    assert_ne!(d.decision, Some(Decision::Allow), "{:?}", d.reason);
}

#[test]
fn words_in_many_directories_are_bounded_and_fail_closed() {
    let p = rules();
    let words: Vec<String> = (0..2_000).map(|i| format!("f{i}")).collect();
    let c = bash(&format!("cd a; cd b; cd c; cd d; cat {}", words.join(" ")));
    let o = eval::evaluate(&p, &c);
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    let reason = o.reason.unwrap_or_default();
    assert!(
        reason.contains("paths to check") || reason.contains(gptel_rust_hooks::path::BUDGET_SPENT),
        "{reason}"
    );
}

/// Cat and ls allowed, ~/.ssh denied: no command rule denies anything.
fn paths_only() -> Policy {
    policy(json!([
        {"id": "allow", "tool": "bash", "command-prefix": ["cat", "ls"], "decision": "allow"},
        {"id": "no-ssh", "path": "~/.ssh/**", "decision": "deny"}
    ]))
}

/// The rule that decided O, by id.
fn by(p: &Policy, o: &eval::Outcome) -> Option<String> {
    o.by.map(|r| p.rules[r].label.clone())
}

#[test]
fn a_secret_past_the_command_bound_is_denied_by_the_path_rule() {
    let p = paths_only();
    let line = format!("{}cat ~/.ssh/id_rsa", "ls;".repeat(2_049));
    let o = eval::evaluate(&p, &bash(&line));
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    assert_eq!(by(&p, &o).as_deref(), Some("no-ssh"));
    assert!(o
        .reason
        .unwrap_or_default()
        .contains("more than 2048 commands"));
}

#[test]
fn a_line_past_the_word_bound_is_not_allowed_and_says_so() {
    let p = paths_only();
    let c = bash(&format!("ls {}", "a ".repeat(9_000)));
    let o = eval::evaluate(&p, &c);
    assert_ne!(o.decision, Some(Decision::Allow));
    assert!(explained(&p, &c).contains("more than 8192 words"));
    // Under the bound the same line is allowed.
    let o = eval::evaluate(&p, &bash(&format!("ls {}", "a ".repeat(8_000))));
    assert_eq!(o.decision, Some(Decision::Allow), "{:?}", o.reason);
}

#[test]
fn more_substitutions_than_are_read_again_is_denied() {
    let p = paths_only();
    let subs: Vec<String> = (0..300).map(|i| format!("$(ls {i})")).collect();
    let c = bash(&format!("echo {}", subs.join(" ")));
    let o = eval::evaluate(&p, &c);
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    assert!(o.reason.unwrap_or_default().contains("substitutions"));
}

#[test]
fn second_looks_past_their_words_are_denied() {
    // Nested substitutions: each is read again with those inside it.
    let p = paths_only();
    let line = format!(
        "echo {}{}{}",
        "$(ls ".repeat(6),
        "a ".repeat(1_000),
        ")".repeat(6)
    );
    let c = bash(&line);
    let o = eval::evaluate(&p, &c);
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    let reason = o.reason.unwrap_or_default();
    assert!(reason.contains("to read again"), "{reason}");
}

#[test]
fn guessed_commands_past_their_words_are_denied() {
    // A stray `)`: the text does not parse and every word may start a command.
    let p = paths_only();
    let c = bash(&format!("ls {} )", "a ".repeat(400)));
    let o = eval::evaluate(&p, &c);
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    assert!(o.reason.unwrap_or_default().contains("guessed commands"));
    // A short one is only not allowed.
    let o = eval::evaluate(&p, &bash("ls a a a )"));
    assert_eq!(o.decision, None, "{:?}", o.reason);
}

#[test]
fn a_bound_before_a_disguised_command_fails_closed() {
    // Past the words handed to the parser, or after a line bash runs before a parse
    // error, a command only bash decodes is still denied.
    let p = policy(json!([
        {"id": "allow", "tool": "bash", "command-prefix": ["cat", "ls", "echo"], "decision": "allow"},
        {"id": "no-rm", "command-prefix": "rm", "decision": "deny"},
        {"id": "no-ssh", "path": "~/.ssh/**", "decision": "deny"}
    ]));
    for tail in ["$'\\x72m' -rf x", "r\"\"m -rf x", "cat <(ls) ~/.ssh/id_rsa"] {
        for line in [
            // Past the words handed to the parser: only guessed, so truncated.
            format!("{}{tail}", "echo a b c; ".repeat(1_900)),
            // Bash runs the first line before it meets the open quote.
            format!("{tail}\necho \"open"),
            // A parse error: the tokens are read as commands and paths.
            format!("{tail}\nfi"),
            // Past the nested expansions brush-parser is given.
            format!("echo {}; {tail}", "$(:)".repeat(1_001)),
            // bash 5.3's `${ cmd; }`, which brush-parser misreads.
            format!("echo ${{ x; }}\n{tail}"),
        ] {
            let o = eval::evaluate(&p, &bash(&line));
            assert_eq!(
                o.decision,
                Some(Decision::Deny),
                "{line:.60}: {:?}",
                o.reason
            );
        }
    }
}

#[test]
fn a_substitution_is_read_again_up_to_its_end() {
    // Many substitutions before a long command: each is read again alone, not to the
    // end of the line (which took seconds), and the line is decided.
    let p = paths_only();
    let line = format!(
        "echo {}; ls {} ~/.ssh/id_rsa",
        "$(ls) ".repeat(16),
        "a ".repeat(5_000)
    );
    let o = eval::evaluate(&p, &bash(&line));
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    assert_eq!(by(&p, &o).as_deref(), Some("no-ssh"));
}

#[test]
fn a_path_word_longer_than_path_max_is_not_read_and_fails_closed() {
    // `x/x/x/...` of 1 MB took minutes: a word past PATH_MAX is not read as a path.
    let p = paths_only();
    let c = bash(&format!("cat {}", "x/".repeat(500_000)));
    let o = eval::evaluate(&p, &c);
    assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    let o = eval::evaluate(&p, &bash(&format!("echo {}", "src/a/../".repeat(100_000))));
    assert_ne!(o.decision, Some(Decision::Allow));
}

#[test]
fn a_huge_glob_is_not_expanded_and_fails_closed() {
    let p = paths_only();
    for line in [
        format!("ls {}", "*".repeat(1_000_000)),
        format!("ls {}", "*".repeat(20_000)),
        format!("echo {}", "[a-z]/".repeat(160_000)),
    ] {
        let o = eval::evaluate(&p, &bash(&line));
        assert_eq!(o.decision, Some(Decision::Deny), "{:?}", o.reason);
    }
}
