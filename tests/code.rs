//! Code in a program's own language (sed's script): what it opens and runs is read by
//! the program's reader, so an allow-everything rule does not let a script run a
//! command or write a file a deny rule guards, and everyday scripts stay allowed.

mod common;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use Decision::{Allow, Deny};

fn home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = common::process_dir("gptel-rust-hooks-code");
        std::fs::create_dir_all(dir.join("proj/src")).expect("create temp home");
        std::fs::create_dir_all(dir.join(".ssh")).expect("create temp home");
        dir.canonicalize().expect("canonicalize temp home")
    })
}

fn h(rest: &str) -> String {
    format!("{}/{rest}", home().display())
}

fn policy() -> Policy {
    let rules = json!([
        {"id": "no-ssh", "path": "~/.ssh/**", "decision": "deny"},
        {"id": "no-id", "command-prefix": "id", "decision": "deny"},
        {"id": "allow-all", "command-regexp": "", "decision": "allow"},
    ]);
    let options = Options {
        home: Some(home().to_path_buf()),
        ..Options::default()
    };
    let rules = rule::rules_from_value(&rules).unwrap_or_else(|e| panic!("bad rules: {e}"));
    compile::compile(rules, options).unwrap_or_else(|e| panic!("policy does not compile: {e}"))
}

fn decide(command: &str) -> Option<Decision> {
    let value = json!({"name": "shell", "args": {"command": command}, "cwd": h("proj")});
    let call = Call::from_value(&value).unwrap_or_else(|e| panic!("bad call: {e}"));
    eval::evaluate(&policy(), &call).decision
}

#[test]
fn everyday_sed_scripts_stay_allowed() {
    for line in [
        "sed -n 1,20p src/a.rs",
        "sed -n '/fn main/,/^}/p' src/main.rs",
        "sed -i 's/old/new/g' src/a.rs",
        "sed -e 's/a/b/' -e '/^#/d' src/a.rs",
        "sed ':a;N;$!ba;s/\\n/ /g' src/a.rs",
    ] {
        assert_eq!(decide(line), Some(Allow), "{line}");
    }
}

#[test]
fn files_a_sed_script_opens_meet_path_rules() {
    for line in [
        "sed -n 'r ~/.ssh/id_rsa' src/a.rs",
        "sed '1R ~/.ssh/id_rsa' src/a.rs",
        "sed 'w ~/.ssh/authorized_keys' src/a.rs",
        "sed -e 's/x/y/w ~/.ssh/authorized_keys' src/a.rs",
    ] {
        assert_eq!(decide(line), Some(Deny), "{line}");
    }
}

#[test]
fn commands_a_sed_script_runs_are_commands() {
    // `e CMD` runs CMD: a deny rule for it holds.
    assert_eq!(decide("sed '1e id -u' src/a.rs"), Some(Deny));
    // `e` alone and `s///e` run the text being edited: not certain, never allowed.
    for line in [
        "sed 's/.*/id -u/e' src/a.rs",
        "sed '1e' src/a.rs",
        "sed -f script.sed src/a.rs",
        "sed 'k' src/a.rs",
    ] {
        assert_ne!(decide(line), Some(Allow), "{line}");
    }
    // No rule decides it: the default decision does (the allow-everything rule
    // allows only certain lines).
    assert_eq!(decide("sed 's/.*/ls/e' src/a.rs"), None);
}

#[test]
fn a_program_that_runs_the_projects_code_needs_a_rule_naming_it() {
    // make runs the recipes of a makefile the model may have written: an
    // allow-everything rule names no program, so it does not allow make.
    for line in [
        "make",
        "make test",
        "make -f evil.mk x",
        "make --makefile=evil.mk",
    ] {
        assert_eq!(decide(line), None, "{line}");
    }
    let rules = json!([
        {"id": "tests", "command-prefix": "make test", "decision": "allow"},
    ]);
    let options = Options {
        home: Some(home().to_path_buf()),
        ..Options::default()
    };
    let rules = rule::rules_from_value(&rules).unwrap_or_else(|e| panic!("bad rules: {e}"));
    let named = compile::compile(rules, options).unwrap_or_else(|e| panic!("{e}"));
    let value = json!({"name": "shell", "args": {"command": "make test"}, "cwd": h("proj")});
    let call = Call::from_value(&value).unwrap_or_else(|e| panic!("bad call: {e}"));
    assert_eq!(eval::evaluate(&named, &call).decision, Some(Allow));
}

#[test]
fn a_glob_that_names_an_option_is_not_certain() {
    let dir = home().join("proj/dash");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("--from-file=x"), "").expect("write");
    std::fs::write(dir.join("a.txt"), "").expect("write");
    let value = json!({"name": "shell", "args": {"command": "diff [-]* a.txt"},
                       "cwd": dir.to_string_lossy()});
    let call = Call::from_value(&value).unwrap_or_else(|e| panic!("bad call: {e}"));
    assert_eq!(eval::evaluate(&policy(), &call).decision, None);
    // Where no name starts with `-`, the same glob is read as the files it names.
    let value = json!({"name": "shell", "args": {"command": "cat *.txt"},
                       "cwd": dir.to_string_lossy()});
    let call = Call::from_value(&value).unwrap_or_else(|e| panic!("bad call: {e}"));
    assert_eq!(eval::evaluate(&policy(), &call).decision, Some(Allow));
}

#[test]
fn a_star_does_not_name_dot_files_on_a_certain_line() {
    let dir = home().join("proj/dots");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join(".secret"), "").expect("write");
    std::fs::write(dir.join("a.txt"), "").expect("write");
    let rules = json!([
        {"id": "no-secret", "path": ".secret", "decision": "deny"},
        {"id": "allow-all", "command-regexp": "", "decision": "allow"},
    ]);
    let options = Options {
        home: Some(home().to_path_buf()),
        ..Options::default()
    };
    let rules = rule::rules_from_value(&rules).unwrap_or_else(|e| panic!("bad rules: {e}"));
    let policy = compile::compile(rules, options).unwrap_or_else(|e| panic!("{e}"));
    let decide_in = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command},
                           "cwd": dir.to_string_lossy()});
        let call = Call::from_value(&value).unwrap_or_else(|e| panic!("bad call: {e}"));
        eval::evaluate(&policy, &call).decision
    };
    // bash's `*` skips names that start with `.`; `.*` does not.
    assert_eq!(decide_in("wc -l *"), Some(Allow));
    assert_eq!(decide_in("cat .*"), Some(Deny));
    // A line that may change bash's options is read with dot files named.
    assert_eq!(decide_in("shopt -s dotglob; cat *"), Some(Deny));
    assert_eq!(decide_in("eval 'shopt -s dotglob'; cat *"), Some(Deny));
}

#[test]
fn a_checksum_list_names_the_files_it_opens() {
    // `sha256sum -c LIST` opens the files LIST names: which ones is not known, so the
    // line is not certain and a path rule's match on it is unsure (ask by default).
    for line in [
        "sha256sum -c sums.txt",
        "md5sum --check sums.txt",
        "sha256sum -c",
    ] {
        assert_ne!(decide(line), Some(Allow), "{line}");
    }
    assert_eq!(decide("sha256sum src/a.rs"), Some(Allow));
}

#[test]
fn a_loop_variable_is_each_of_its_values_to_command_rules() {
    let rules = json!([
        {"id": "no-rf", "command-prefix": "rm -rf", "decision": "deny"},
        {"id": "no-push-origin", "command-prefix": "git push origin", "decision": "deny"},
        {"id": "rm-git", "command-prefix": ["rm", "git"], "decision": "allow"},
    ]);
    let options = Options {
        home: Some(home().to_path_buf()),
        ..Options::default()
    };
    let rules = rule::rules_from_value(&rules).unwrap_or_else(|e| panic!("bad rules: {e}"));
    let policy = compile::compile(rules, options).unwrap_or_else(|e| panic!("{e}"));
    let decide_with = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": h("proj")});
        let call = Call::from_value(&value).unwrap_or_else(|e| panic!("bad call: {e}"));
        eval::evaluate(&policy, &call).decision
    };
    assert_eq!(
        decide_with("for o in -rf; do rm $o build; done"),
        Some(Deny)
    );
    assert_eq!(
        decide_with("for o in -f -rf; do rm $o build; done"),
        Some(Deny)
    );
    assert_eq!(
        decide_with("for r in origin; do git push $r; done"),
        Some(Deny)
    );
    assert_eq!(decide_with("for f in a b; do rm -f $f; done"), Some(Allow));
    assert_eq!(
        decide_with("for f in a b; do rm -f \"$f\"; done"),
        Some(Allow)
    );
}
