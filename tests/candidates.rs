//! The indexes that propose candidate rules never drop a rule that matches:
//! deciding a call through them gives the same matching rules as checking
//! every rule of the policy, and path globs split into their branches match
//! what the whole glob matches.

use globset::{GlobBuilder, GlobSetBuilder};
use gptel_rust_hooks::compile::{compile, glob_branches};
use gptel_rust_hooks::eval::decide;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::prepare::Prepared;
use gptel_rust_hooks::rule::{rules_from_value, Arg, Call};
use serde_json::json;

fn s(text: &str) -> Arg {
    Arg::Str(text.into())
}

fn call(name: &str, args: &[(&str, Arg)]) -> Call {
    Call {
        name: name.into(),
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        buffer: Some("*gptel*".into()),
        backend: Some("ChatGPT".into()),
        model: Some("gpt-4o".into()),
        cwd: Some("/tmp/".into()),
        result: None,
    }
}

#[test]
fn candidates_lose_no_matching_rule() {
    let rules = rules_from_value(&json!([
        {"decision": "ask"},
        {"tool": "read_file", "decision": "allow"},
        {"tool": "read_*", "path": "/tmp/**", "decision": "deny"},
        {"tool": ["read_file", "write_file"], "path": "/tmp/**", "decision": "allow"},
        {"tool-regexp": "^wri", "decision": "ask"},
        {"tool": "write_file", "path-outside": "/tmp", "decision": "ask"},
        {"path": "~/.ssh/**", "decision": "deny"},
        {"path": "*.pem", "decision": "stop"},
        {"path": "src/**", "decision": "allow"},
        {"tool": "shell", "command-prefix": "ls", "decision": "allow"},
        {"tool": "shell", "command-prefix": ["rm -rf", "sudo"], "decision": "deny"},
        {"command-regexp": "curl .*\\|", "decision": "deny"},
        {"tool": "shell", "command-regexp": "^git", "decision": "allow"},
        {"tool": "query_db", "args": {"sql": {"regexp": "(?i)drop table"}}, "decision": "deny"},
        {"tool": "query_db", "args": {"database": "analytics"}, "decision": "allow"},
        {"tool": "query_db", "args": {"database": ["prod", {"regexp": "^stag"}]}, "decision": "ask"},
        {"tool": "query_db", "args": {"limit": {"max": 100}, "sql": {"glob": "SELECT*", "max-length": 200}},
         "decision": "allow"},
        {"args": {"force": {"equal": true}}, "decision": "ask"},
        {"args": {"path": {"present": false}}, "tool": "read_file", "decision": "deny"},
        {"tool": "edit", "path-keys": ["target_file"], "path": "/etc/**", "decision": "deny"},
        {"tool": "run", "command-keys": ["script"], "command-prefix": "make", "decision": "allow"},
        {"cwd": "/tmp/**", "decision": "ask"},
        {"tool": "read_file", "cwd": "/home/**", "decision": "deny"},
        {"buffer": "*gptel*", "tool": "web_*", "decision": "ask"},
        {"backend": "ChatGPT", "decision": "allow"},
        {"model": "gpt-4*", "tool": "shell", "decision": "ask"},
        {"tool": "weather", "result": "Sunny."},
        {"tool": "shell", "default-args": {"timeout": 30}},
    ]))
    .unwrap();
    let policy = compile(rules, Options::default()).unwrap();
    let calls = vec![
        call("read_file", &[("path", s("/tmp/a.txt"))]),
        call("read_file", &[("path", s("/etc/passwd"))]),
        call("read_file", &[("path", s("key.pem"))]),
        call("read_file", &[("path", s("src/main.rs"))]),
        call("read_file", &[]),
        call("read_file", &[("path", Arg::Int(3))]),
        call("write_file", &[("path", s("/var/x")), ("content", s("hi"))]),
        call("shell", &[("command", s("ls -la"))]),
        call("shell", &[("command", s("rm -rf /"))]),
        call("shell", &[("command", s("git status"))]),
        call("shell", &[("command", s("curl x | sh"))]),
        call("shell", &[("command", Arg::List(vec![s("ls"), s("/tmp")]))]),
        call(
            "query_db",
            &[("sql", s("DROP TABLE users")), ("database", s("prod"))],
        ),
        call(
            "query_db",
            &[
                ("sql", s("SELECT 1")),
                ("database", s("analytics")),
                ("limit", Arg::Int(10)),
            ],
        ),
        call("query_db", &[("database", s("staging"))]),
        call("anything", &[("force", Arg::Bool(true))]),
        call("edit", &[("target_file", s("/etc/hosts"))]),
        call("run", &[("script", s("make all"))]),
        call("web_search", &[("query", s("x"))]),
        call("weather", &[]),
    ];
    for c in &calls {
        let prepared = Prepared::new(&policy, c);
        let every: Vec<usize> = (0..policy.rules.len())
            .filter(|&r| prepared.matches(r))
            .collect();
        assert_eq!(decide(&policy, c).matched, every, "call {c:?}");
    }
}

#[test]
fn glob_branches_match_as_the_whole_glob() {
    let globs = [
        "{/a/b,/a/b/**}",
        "{{/x,/x/**},{/y/z,/y/z/**}}",
        "{/a\\,b,/c}",
        "{/a/[,}]x,/b}",
        "{/a/*.rs,/b/**/c}",
        "/plain/**",
        "{/a,/b}/c",
        "{/a,}",
        "{/a,{,/b}}",
    ];
    let paths = [
        "/a/b",
        "/a/b/c",
        "/a/bc",
        "/x",
        "/x/1/2",
        "/y/z",
        "/y/zz",
        "/a,b",
        "/c",
        "/a/,x",
        "/a/}x",
        "/a/m.rs",
        "/a/d/m.rs",
        "/b/c",
        "/b/q/r/c",
        "/plain",
        "/plain/x",
        "/a/c",
        "/a",
        "",
    ];
    let build = |g: &str| {
        GlobBuilder::new(g)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .unwrap()
    };
    for glob in globs {
        let whole = build(glob).compile_matcher();
        let mut set = GlobSetBuilder::new();
        for b in glob_branches(glob) {
            set.add(build(&b));
        }
        let set = set.build().unwrap();
        for path in paths {
            assert_eq!(
                whole.is_match(path),
                set.is_match(path),
                "glob {glob} branches {:?} on {path}",
                glob_branches(glob)
            );
        }
    }
}
