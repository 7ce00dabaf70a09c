//! `:sandbox` in the rule language and in the decision: reading it (Lisp and
//! JSON forms, errors that name the rule and the key), where it may stand
//! (not on deny or stop rules; an untrusted project may confine), and what
//! evaluation makes of it (DESIGN.md, "Sandboxed calls"): which rules'
//! specs apply, the default hidden paths, the strictest combination, the
//! confined commands (run here through the real bubblewrap, as a tool
//! would run them), and every way it fails closed.

use gptel_rust_hooks::compile;
use gptel_rust_hooks::error::Error;
use gptel_rust_hooks::eval::{self, Outcome};
use gptel_rust_hooks::explain;
use gptel_rust_hooks::policy::{Layer, Options, Policy};
use gptel_rust_hooks::rule::{self, Arg, Call, Decision};
use gptel_rust_hooks::sandbox::{self, SandboxContext, SandboxResult, SandboxSpec, Wrapped};
use serde_json::{json, Value as Json};
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------
// Fixture

/// A fresh tree under cargo's temporary directory, removed on drop:
/// `home/` (the home, with `.ssh/id_rsa`), `home/proj/` (the request's
/// directory), `outside/`, `secret/key`, `tmp/` (the temporary directory).
struct Fixture {
    root: String,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl Fixture {
    fn new() -> Fixture {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "sandbox-rules-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create fixture");
        let root = fs::canonicalize(&dir)
            .expect("canonicalize fixture")
            .to_str()
            .expect("UTF-8 fixture")
            .to_string();
        let fx = Fixture { root };
        for d in ["home/.ssh", "home/proj", "outside", "secret", "tmp"] {
            fs::create_dir_all(fx.p(d)).expect("mkdir");
        }
        fs::write(fx.p("home/.ssh/id_rsa"), "SSH-SECRET\n").expect("write");
        fs::write(fx.p("secret/key"), "KEY-SECRET\n").expect("write");
        // The script the rules cannot see into.
        fs::write(
            fx.p("home/proj/probe.sh"),
            format!(
                "echo in > inside.txt && echo wrote-inside\n\
                 echo out > {out}/outside.txt 2>/dev/null && echo wrote-outside\n\
                 cat {root}/secret/key 2>/dev/null || echo no-key\n\
                 cat {root}/home/.ssh/id_rsa 2>/dev/null || echo no-ssh\n",
                out = fx.p("outside"),
                root = fx.root
            ),
        )
        .expect("write probe");
        fx
    }

    fn p(&self, rel: &str) -> String {
        format!("{}/{rel}", self.root)
    }

    fn exists(&self, rel: &str) -> bool {
        Path::new(&self.p(rel)).exists()
    }

    fn options(&self) -> Options {
        Options {
            case_fold: false,
            home: Some(self.p("home").into()),
            ..Options::default()
        }
    }

    fn policy(&self, rules: Json) -> Policy {
        compile::compile(
            rule::rules_from_value(&rules).unwrap_or_else(|e| panic!("rules: {e}")),
            self.options(),
        )
        .unwrap_or_else(|e| panic!("policy does not compile: {e}"))
    }

    fn context(&self) -> SandboxContext {
        SandboxContext {
            temp: self.p("tmp"),
            socket_dirs: vec![self.p("run")],
            program: "bwrap".into(),
            exec_path: path_dirs(),
            shell: "/bin/sh".into(),
            unavailable: None,
        }
    }

    /// A shell call from the project.
    fn shell(&self, command: Json) -> Call {
        Call::from_value(&json!({"name": "shell", "args": {"command": command},
                                 "cwd": format!("{}/", self.p("home/proj"))}))
        .expect("call")
    }

    fn evaluate(&self, policy: &Policy, call: &Call) -> Outcome {
        eval::evaluate_with(policy, call, Some(&self.context()))
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn path_dirs() -> Vec<String> {
    std::env::var("PATH")
        .unwrap_or_default()
        .split(':')
        .map(String::from)
        .collect()
}

fn parse_error(rules: Json) -> String {
    match rule::rules_from_value(&rules) {
        Ok(_) => panic!("rules read, but should not: {rules}"),
        Err(e) => e.to_string(),
    }
}

fn compile_error(rules: Json) -> String {
    let read: Result<Policy, Error> =
        rule::rules_from_value(&rules).and_then(|r| compile::compile(r, Options::default()));
    match read {
        Ok(_) => panic!("policy compiled, but should not: {rules}"),
        Err(e) => e.to_string(),
    }
}

/// The confined command of OUTCOME under KEY.
fn wrapped<'a>(outcome: &'a Outcome, key: &str) -> &'a Wrapped {
    let plan = outcome
        .sandbox
        .as_ref()
        .and_then(|s| s.plan())
        .unwrap_or_else(|| panic!("the call is not confined: {outcome:?}"));
    &plan
        .wrapped
        .iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no confined `{key}`"))
        .1
}

/// Run a confined command as a tool would: a line with `/bin/sh -c` (as
/// `shell-command-to-string`), words as an argv (as `call-process`), from DIR.
fn run(w: &Wrapped, dir: &str) -> Output {
    let mut cmd = match w {
        Wrapped::Line(line) => {
            let mut c = Command::new("/bin/sh");
            c.arg("-c").arg(line);
            c
        }
        Wrapped::Argv(words) => {
            let mut c = Command::new(&words[0]);
            c.args(&words[1..]);
            c
        }
    };
    cmd.current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

// ---------------------------------------------------------------------------
// Reading `:sandbox`

#[test]
fn sandbox_reads_as_t_or_a_plist_in_lisp_and_json_forms() {
    let rules = rule::rules_from_value(&json!([
        {"tool": "shell", "sandbox": true},
        {"tool": "shell", "sandbox": {"write": [".", "~/.cache/go-build"], "network": true}},
        {"tool": "shell", "sandbox": null},
        {"tool": "shell", "sandbox": {"hide": "~/.aws"}},
    ]))
    .expect("rules read");
    assert_eq!(rules[0].sandbox, Some(SandboxSpec::default()));
    assert_eq!(
        rules[1].sandbox,
        Some(SandboxSpec {
            write: Some(vec![".".into(), "~/.cache/go-build".into()]),
            hide: None,
            network: true,
        })
    );
    assert_eq!(rules[2].sandbox, None);
    assert_eq!(
        rules[3].sandbox.as_ref().and_then(|s| s.hide.clone()),
        Some(vec!["~/.aws".to_string()])
    );
    assert!(rule::RULE_KEYS.contains(&"sandbox"));
}

#[test]
fn bad_sandbox_values_are_errors_that_name_the_rule_and_the_key() {
    assert_eq!(
        parse_error(json!([{}, {}, {"id": "tests", "sandbox": {"write": 3}}])),
        "rule 3 (`tests`): :sandbox: :write: expected a string or a list of strings, got a number `3`"
    );
    assert_eq!(
        parse_error(json!([{"sandbox": "yes"}])),
        "rule 1: :sandbox: expected t or a plist (:write DIRS :hide PATHS :network BOOL), got a \
         string `yes`"
    );
    assert_eq!(
        parse_error(json!([{"id": "net", "sandbox": {"netwrk": true}}])),
        "rule 1 (`net`): :sandbox: unknown key `:netwrk` (did you mean `:network`?) (known: \
         :write, :hide, :network)"
    );
    assert_eq!(
        parse_error(json!([{"sandbox": {"network": "no"}}])),
        "rule 1: :sandbox: :network: expected t or nil, got a string `no`"
    );
    assert_eq!(
        parse_error(json!([{"sandbox": {"write": ["~bob/x"]}}])),
        "rule 1: :sandbox: :write: `~bob/x`: `~user` is not supported here; write the directory \
         out"
    );
    // A misspelt rule key is caught as before, with the new key suggested.
    assert_eq!(
        parse_error(json!([{"sandbx": true}])),
        "rule 1: unknown key `:sandbx` (did you mean `:sandbox`?)"
    );
}

#[test]
fn a_json_policy_file_names_the_file_and_line_of_a_bad_sandbox() {
    let text = "[\n  {\"id\": \"ok\", \"sandbox\": true},\n  {\"id\": \"bad\",\n   \"sandbox\": {\"write\": [1]}}\n]";
    let e = rule::rules_from_json_text(text)
        .map(|_| ())
        .expect_err("a bad sandbox");
    assert_eq!(
        e.to_string(),
        "rule 2 (`bad`): :sandbox: :write: expected a string or a list of strings, got a number \
         `1` (line 3)"
    );
}

#[test]
fn sandbox_on_a_deny_or_stop_rule_is_a_compile_error() {
    assert_eq!(
        compile_error(json!([{"id": "x", "tool": "shell", "decision": "deny", "sandbox": true}])),
        "rule 1 (`x`): :sandbox: a deny rule never lets a call run, so its sandbox would never \
         apply (put :sandbox on an allow or ask rule, or on a rule without :decision)"
    );
    assert!(
        compile_error(json!([{"decision": "stop", "sandbox": {"network": true}}]))
            .starts_with("rule 1: :sandbox: a stop rule never lets a call run")
    );
    for decision in [json!("allow"), json!("ask"), Json::Null] {
        let rules = json!([{"tool": "shell", "decision": decision, "sandbox": true}]);
        compile::compile(
            rule::rules_from_value(&rules).expect("rules"),
            Options::default(),
        )
        .unwrap_or_else(|e| panic!("{rules}: {e}"));
    }
}

#[test]
fn an_untrusted_project_may_confine_but_not_allow() {
    let fx = Fixture::new();
    let layers = vec![Layer {
        source: Some("/p/.gptel-hooks.json".into()),
        trusted: false,
        rules: rule::rules_from_value(&json!([
            {"id": "confine", "tool": "shell", "decision": "allow", "sandbox": {"network": true}},
            {"id": "only-sandbox", "tool": "shell", "sandbox": true},
        ]))
        .expect("rules"),
        lines: vec![None, None],
    }];
    let policy = compile::compile_layers(layers, fx.options()).expect("compiles");
    // Both rules are kept: their sandboxes only confine; the allow is dropped.
    assert_eq!(policy.rules.len(), 2);
    assert_eq!(policy.rules[0].rule.decision, None);
    assert_eq!(policy.sandboxing, vec![0, 1]);
    assert!(
        policy.notes[0].contains("ignored allow"),
        "{:?}",
        policy.notes
    );
    let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
    assert_eq!(outcome.decision, None);
    let plan = outcome
        .sandbox
        .as_ref()
        .and_then(|s| s.plan())
        .expect("confined");
    // The strictest of the two: no network.
    assert!(!plan.confinement.network);
}

// ---------------------------------------------------------------------------
// Evaluation: when a sandbox applies

#[test]
fn an_allowed_call_runs_confined_by_the_defaults() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"id": "tests", "tool": "shell", "command-prefix": "sh probe.sh", "decision": "allow",
         "sandbox": true},
        {"id": "secrets", "path": [fx.p("secret/**"), "~/.ssh/**"], "decision": "deny"},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
    assert_eq!(outcome.decision, Some(Decision::Allow));
    assert_eq!(outcome.by, Some(0));
    let sandboxing = outcome.sandbox.as_ref().expect("sandboxed");
    assert_eq!(sandboxing.rules, vec![0]);
    assert_eq!(sandboxing.keys, vec!["command".to_string()]);
    let plan = sandboxing.plan().expect("confined");
    assert_eq!(plan.confinement.write, vec![fx.p("home/proj")]);
    assert_eq!(plan.confinement.private, vec![fx.p("tmp")]);
    assert_eq!(
        plan.confinement.hide,
        vec![fx.p("secret"), fx.p("home/.ssh")],
        "what the rules deny, the sandbox hides"
    );
    assert!(!plan.confinement.network);
    assert_eq!(plan.cwd, fx.p("home/proj"));
    let o = run(wrapped(&outcome, "command"), &fx.p("home/proj"));
    assert_eq!(out(&o), "wrote-inside\nno-key\nno-ssh\n", "{o:?}");
    assert!(fx.exists("home/proj/inside.txt"));
    assert!(!fx.exists("outside/outside.txt"));
}

#[test]
fn an_extra_writable_directory_when_the_spec_says_so() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"tool": "shell", "decision": "allow",
         "sandbox": {"write": [".", fx.p("outside")], "network": true}},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
    let plan = outcome
        .sandbox
        .as_ref()
        .and_then(|s| s.plan())
        .expect("confined");
    assert!(plan.confinement.network);
    let o = run(wrapped(&outcome, "command"), &fx.p("home/proj"));
    assert_eq!(
        out(&o),
        "wrote-inside\nwrote-outside\nKEY-SECRET\nSSH-SECRET\n",
        "no deny rule: nothing hidden"
    );
    assert!(fx.exists("outside/outside.txt"));
}

#[test]
fn ask_and_no_decision_are_sandboxed_too() {
    let fx = Fixture::new();
    for decision in [json!("ask"), Json::Null] {
        let policy = fx.policy(json!([{"tool": "shell", "decision": decision, "sandbox": true}]));
        let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
        assert!(
            outcome.sandbox.as_ref().and_then(|s| s.plan()).is_some(),
            "{decision}: {outcome:?}"
        );
    }
}

#[test]
fn several_matching_rules_combine_to_the_strictest() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"id": "wide", "tool": "shell", "decision": "allow",
         "sandbox": {"write": [".", fx.p("outside")], "network": true}},
        {"id": "narrow", "command-prefix": "sh", "sandbox": {"hide": [fx.p("secret")]}},
        {"id": "other", "tool": "read_file", "sandbox": {"write": []}},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
    let sandboxing = outcome.sandbox.as_ref().expect("sandboxed");
    assert_eq!(sandboxing.rules, vec![0, 1], "only the matching rules");
    let plan = sandboxing.plan().expect("confined");
    assert_eq!(plan.each.len(), 2);
    assert_eq!(plan.confinement.write, vec![fx.p("home/proj")]);
    assert_eq!(plan.confinement.hide, vec![fx.p("secret")]);
    assert!(!plan.confinement.network);
    let o = run(wrapped(&outcome, "command"), &fx.p("home/proj"));
    assert_eq!(out(&o), "wrote-inside\nno-key\nSSH-SECRET\n", "{o:?}");
    assert!(!fx.exists("outside/outside.txt"));
}

#[test]
fn a_command_given_as_words_is_confined_the_same_way() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"tool": "shell", "command-prefix": "sh probe.sh", "decision": "allow", "sandbox": true},
        {"path": fx.p("secret/**"), "decision": "deny"},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!(["sh", "probe.sh"])));
    let Wrapped::Argv(words) = wrapped(&outcome, "command") else {
        panic!("an argv command gives words");
    };
    assert!(words[0].ends_with("/bwrap"), "{words:?}");
    assert_eq!(&words[words.len() - 3..], ["--", "sh", "probe.sh"]);
    let o = run(wrapped(&outcome, "command"), &fx.p("home/proj"));
    assert_eq!(out(&o), "wrote-inside\nno-key\nSSH-SECRET\n", "{o:?}");
    assert!(!fx.exists("outside/outside.txt"));
}

#[test]
fn the_confined_shell_gets_exactly_the_line_the_model_wrote() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"tool": "shell", "sandbox": true}]));
    let line = "printf '%s|' \"it's\" 'a\"b' $'c\\td' \"$(printf '%s' x\\ y)\" ; echo \\$HOME'`'";
    let plain = Command::new("/bin/bash")
        .arg("-c")
        .arg(line)
        .current_dir(fx.p("home/proj"))
        .output()
        .expect("bash");
    let mut context = fx.context();
    context.shell = "/bin/bash".into();
    let outcome = eval::evaluate_with(&policy, &fx.shell(json!(line)), Some(&context));
    let confined = run(wrapped(&outcome, "command"), &fx.p("home/proj"));
    assert_eq!(out(&confined), out(&plain), "{confined:?}");
    assert_eq!(out(&plain), "it's|a\"b|c\td|x y|$HOME`\n");
}

#[test]
fn the_edited_command_is_the_one_confined() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"tool": "shell", "set-args": {"command": "sh probe.sh"}},
        {"tool": "shell", "command-prefix": "sh probe.sh", "sandbox": {"write": []}},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("echo the-model-wrote-this")));
    assert!(outcome.args.is_some());
    assert_eq!(
        outcome.sandbox.as_ref().map(|s| s.rules.clone()),
        Some(vec![1])
    );
    let o = run(wrapped(&outcome, "command"), &fx.p("home/proj"));
    assert_eq!(
        out(&o),
        "KEY-SECRET\nSSH-SECRET\n",
        "nothing writable: {o:?}"
    );
    assert!(!fx.exists("home/proj/inside.txt"));
}

#[test]
fn a_working_directory_argument_is_where_the_command_runs() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"tool": "shell", "sandbox": true}]));
    let call = Call::from_value(&json!({
        "name": "shell",
        "args": {"command": "pwd", "working_directory": "../../outside"},
        "cwd": fx.p("home/proj"),
    }))
    .expect("call");
    let outcome = fx.evaluate(&policy, &call);
    let plan = outcome
        .sandbox
        .as_ref()
        .and_then(|s| s.plan())
        .expect("confined");
    assert_eq!(plan.cwd, fx.p("outside"));
    let o = run(wrapped(&outcome, "command"), &fx.p("home/proj"));
    assert_eq!(out(&o), format!("{}\n", fx.p("outside")));
}

#[test]
fn the_rules_own_command_keys_say_what_is_confined() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"tool": "run", "command-keys": ["code"], "sandbox": true},
    ]));
    let call = Call::from_value(
        &json!({"name": "run", "args": {"code": "true", "command": "x"},
                                        "cwd": fx.p("home/proj")}),
    )
    .expect("call");
    let outcome = fx.evaluate(&policy, &call);
    assert_eq!(
        outcome.sandbox.as_ref().map(|s| s.keys.clone()),
        Some(vec!["code".to_string()])
    );
}

// ---------------------------------------------------------------------------
// Evaluation: when no sandbox applies

#[test]
fn a_deny_always_beats_the_sandbox() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"tool": "shell", "decision": "allow", "sandbox": true},
        {"id": "no-sh", "command-prefix": "sh", "decision": "deny", "reason": "No sh."},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
    assert_eq!(outcome.decision, Some(Decision::Deny));
    assert_eq!(outcome.reason.as_deref(), Some("No sh."));
    assert_eq!(outcome.sandbox, None);
}

#[test]
fn a_canned_result_runs_nothing_to_confine() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"tool": "shell", "sandbox": true, "result": "canned"}]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
    assert_eq!(outcome.result.as_deref(), Some("canned"));
    assert_eq!(outcome.sandbox, None);
}

#[test]
fn a_call_without_a_command_argument_has_nothing_to_confine() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"tool": "*", "decision": "allow", "sandbox": true}]));
    let call = Call::from_value(&json!({"name": "read_file", "args": {"path": "x"},
                                        "cwd": fx.p("home/proj")}))
    .expect("call");
    let outcome = fx.evaluate(&policy, &call);
    assert_eq!(outcome.decision, Some(Decision::Allow));
    assert_eq!(
        outcome.sandbox.map(|s| s.result),
        Some(SandboxResult::NoCommand)
    );
}

#[test]
fn a_deny_rule_for_another_tool_hides_nothing_from_the_shell() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"tool": "shell", "sandbox": true},
        {"tool": "write_file", "path": "/etc/**", "decision": "deny"},
        {"tool-regexp": "^read", "path": fx.p("secret/**"), "decision": "deny"},
        {"tool": ["shell", "bash"], "path": "~/.ssh/**", "decision": "stop"},
        {"path": "**/.env", "decision": "deny"},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("sh probe.sh")));
    let plan = outcome
        .sandbox
        .as_ref()
        .and_then(|s| s.plan())
        .expect("confined");
    assert_eq!(plan.confinement.hide, vec![fx.p("home/.ssh")]);
}

// ---------------------------------------------------------------------------
// Failing closed

#[test]
fn a_missing_sandbox_program_blocks_the_call_saying_what_to_install() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"id": "tests", "tool": "shell", "command-prefix": "make", "decision": "allow",
         "sandbox": true},
        {"id": "echo", "tool": "shell", "command-prefix": "echo", "decision": "allow"},
    ]));
    let mut context = fx.context();
    context.program = "no-such-bwrap".into();
    let outcome = eval::evaluate_with(&policy, &fx.shell(json!("make test")), Some(&context));
    assert_eq!(outcome.decision, Some(Decision::Deny));
    assert_eq!(outcome.by, Some(0));
    assert_eq!(
        outcome.reason.as_deref(),
        Some(
            "gptel-rust-hooks: cannot sandbox the call (the :sandbox of `tests`): the sandbox \
             program `no-such-bwrap` was not found; install bubblewrap (Debian, Ubuntu: \
             `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`; Arch: `pacman -S \
             bubblewrap`) or set `gptel-rust-hooks-sandbox-program`"
        )
    );
    assert!(outcome.sandbox.as_ref().and_then(|s| s.failure()).is_some());
    // A call no sandbox rule matches runs as before.
    let other = eval::evaluate_with(&policy, &fx.shell(json!("echo hi")), Some(&context));
    assert_eq!(other.decision, Some(Decision::Allow));
    assert_eq!(other.sandbox, None);
}

#[test]
fn without_sandbox_settings_a_sandboxed_call_is_blocked() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"tool": "shell", "decision": "allow", "sandbox": true}]));
    let outcome = eval::evaluate(&policy, &fx.shell(json!("ls")));
    assert_eq!(outcome.decision, Some(Decision::Deny));
    assert!(
        outcome
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("the sandbox settings were not given")),
        "{outcome:?}"
    );
    let mut context = fx.context();
    context.unavailable = Some("cannot sandbox the call: its directory is remote".into());
    let outcome = eval::evaluate_with(&policy, &fx.shell(json!("ls")), Some(&context));
    assert_eq!(
        outcome.reason.as_deref(),
        Some("gptel-rust-hooks: cannot sandbox the call (the :sandbox of `rule 1`): its directory is remote")
    );
}

#[test]
fn a_default_decision_never_outlasts_a_failed_sandbox() {
    let fx = Fixture::new();
    let policy = compile::compile(
        rule::rules_from_value(&json!([{"tool": "shell", "sandbox": true}])).expect("rules"),
        Options {
            default_decision: Some(Decision::Allow),
            ..fx.options()
        },
    )
    .expect("compiles");
    let mut context = fx.context();
    context.program = "/nonexistent/bwrap".into();
    let outcome = eval::evaluate_with(&policy, &fx.shell(json!("ls")), Some(&context));
    assert_eq!(outcome.decision, Some(Decision::Deny));
    assert!(!outcome.by_default);
}

#[test]
fn a_command_line_needs_a_posix_shell_but_words_do_not() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"tool": "shell", "sandbox": true}]));
    let mut context = fx.context();
    context.shell = "/usr/bin/fish".into();
    let line = eval::evaluate_with(&policy, &fx.shell(json!("ls")), Some(&context));
    assert_eq!(line.decision, Some(Decision::Deny));
    assert!(
        line.reason.as_deref().is_some_and(
            |r| r.contains("`/usr/bin/fish` (`shell-file-name`), which is not a POSIX shell")
        ),
        "{line:?}"
    );
    let words = eval::evaluate_with(&policy, &fx.shell(json!(["ls"])), Some(&context));
    assert!(words.sandbox.as_ref().and_then(|s| s.plan()).is_some());
    for shell in ["sh", "/bin/bash", "/usr/bin/zsh", "dash", "/bin/ksh"] {
        assert!(sandbox::posix_shell(shell).is_ok(), "{shell}");
    }
}

#[test]
fn commands_that_cannot_be_confined_block_the_call() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"id": "box", "tool": "shell", "sandbox": true}]));
    for (command, why) in [
        (json!("echo \u{0}x"), "NUL byte"),
        (json!([]), "is an empty list"),
        (json!(["ls", 3]), "holds something other than text"),
        (json!(42), "neither a command line nor a list of words"),
    ] {
        let outcome = fx.evaluate(&policy, &fx.shell(command.clone()));
        assert_eq!(outcome.decision, Some(Decision::Deny), "{command}");
        let reason = outcome.reason.unwrap_or_default();
        assert!(
            reason.starts_with("gptel-rust-hooks: cannot sandbox the call (the :sandbox of `box`)")
                && reason.contains(why),
            "{command}: {reason}"
        );
    }
    // A hidden request directory: the command could not even start.
    let policy = fx.policy(json!([
        {"tool": "shell", "sandbox": {"hide": ["."]}},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("ls")));
    assert!(outcome
        .reason
        .unwrap_or_default()
        .contains("which the sandbox hides"),);
}

#[test]
fn a_relative_request_directory_cannot_be_sandboxed() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([{"tool": "shell", "sandbox": true}]));
    let call = Call::from_value(&json!({"name": "shell", "args": {"command": "ls"},
                                        "cwd": "proj/"}))
    .expect("call");
    let outcome = fx.evaluate(&policy, &call);
    assert_eq!(outcome.decision, Some(Decision::Deny));
    // `~/proj/`, as Emacs often gives it, is the home's.
    let call = Call::from_value(&json!({"name": "shell", "args": {"command": "ls"},
                                        "cwd": "~/proj/"}))
    .expect("call");
    let outcome = fx.evaluate(&policy, &call);
    let plan = outcome
        .sandbox
        .as_ref()
        .and_then(|s| s.plan())
        .expect("confined");
    assert_eq!(plan.cwd, fx.p("home/proj"));
}

// ---------------------------------------------------------------------------
// Explaining, and a call edited after its decision

#[test]
fn explain_shows_each_rules_spec_and_the_combined_confinement() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"id": "a", "tool": "shell", "decision": "allow", "sandbox": {"network": true}},
        {"id": "b", "tool": "shell", "sandbox": true},
    ]));
    let x = explain::explain_with(&policy, &fx.shell(json!("ls")), Some(&fx.context()));
    let sandbox = &x["sandbox"];
    assert_eq!(sandbox["status"], "confined");
    assert_eq!(sandbox["rules"][0]["rule"], "a");
    assert_eq!(sandbox["rules"][0]["spec"], json!({"network": true}));
    assert_eq!(sandbox["rules"][1]["spec"], json!(true));
    assert_eq!(sandbox["rules"][0]["confinement"]["network"], json!(true));
    assert_eq!(sandbox["confinement"]["network"], json!(false));
    assert_eq!(
        sandbox["describe"],
        json!(format!(
            "write ~/proj; private {}; hide nothing; no network",
            fx.p("tmp")
        ))
    );
    assert_eq!(sandbox["keys"], json!(["command"]));
    assert_eq!(
        x["rules"][0]["effects"]["sandbox"],
        json!({"network": true})
    );
    // Not confined: no sandbox section.
    let x = explain::explain_with(&policy, &fx.shell(json!("ls")), None);
    assert_eq!(x["sandbox"]["status"], "failed");
    let policy = fx.policy(json!([{"tool": "shell", "decision": "allow"}]));
    let x = explain::explain_with(&policy, &fx.shell(json!("ls")), Some(&fx.context()));
    assert_eq!(x["sandbox"], Json::Null);
}

#[test]
fn an_edited_command_is_rewrapped_in_the_sandbox_it_replaces() {
    let fx = Fixture::new();
    let policy = fx.policy(json!([
        {"tool": "shell", "sandbox": true},
        {"path": fx.p("secret/**"), "decision": "deny"},
    ]));
    let outcome = fx.evaluate(&policy, &fx.shell(json!("true")));
    let plan = outcome
        .sandbox
        .as_ref()
        .and_then(|s| s.plan())
        .expect("confined");
    let json = plan.to_json();
    for command in [
        Arg::Str("sh probe.sh".into()),
        Arg::List(vec![Arg::Str("sh".into()), Arg::Str("probe.sh".into())]),
    ] {
        let w = sandbox::rewrap(&json, &command).expect("rewrap");
        let o = run(&w, &fx.p("home/proj"));
        assert_eq!(
            out(&o),
            "wrote-inside\nno-key\nSSH-SECRET\n",
            "{command:?}: {o:?}"
        );
        assert!(!fx.exists("outside/outside.txt"));
    }
    assert!(sandbox::rewrap(&json, &Arg::Int(3)).is_err());
    assert!(sandbox::rewrap(&json!({"write": []}), &Arg::Str("ls".into())).is_err());
}
