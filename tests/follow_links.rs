//! Commands that read through the symbolic links of the trees they walk (`grep -R`,
//! `find -exec CMD {}`, `rg -L`, `ls -RL`, `du -L`): the engine looks at those trees,
//! and such a command is certain while they hold no link. A link anywhere below them,
//! a tree too large to look through, a directory only the shell knows, or a command of
//! the line that may make a link first keeps every allow rule from covering it.

mod common;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::{Path, PathBuf};

/// A home of its own for test NAME: `proj` with `src/a/b/x.rs`, `docs/y.md` and
/// `sub/z.rs`, `~/.ssh/id_rsa`, and a symbolic link to `~/.ssh` at each of LINKS
/// (relative to `proj`).
fn home(name: &str, links: &[&str]) -> PathBuf {
    let dir = common::process_dir(&format!("gptel-rust-hooks-links-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    for d in ["proj/src/a/b", "proj/docs", "proj/sub", ".ssh"] {
        std::fs::create_dir_all(dir.join(d)).expect("create the tree");
    }
    for f in [
        "proj/src/a/b/x.rs",
        "proj/docs/y.md",
        "proj/sub/z.rs",
        ".ssh/id_rsa",
    ] {
        std::fs::write(dir.join(f), "TODO\n").expect("write a file");
    }
    for l in links {
        std::os::unix::fs::symlink(dir.join(".ssh"), dir.join("proj").join(l)).expect("link");
    }
    dir.canonicalize().expect("canonical home")
}

/// COMMAND run in HOME's `proj`, under a policy that denies `~/.ssh/**` and allows
/// every other command (`cd` by name).
fn decide(home: &Path, command: &str) -> Option<Decision> {
    let rules = json!([
        {"id": "secrets", "tool": "shell", "path": "~/.ssh/**", "decision": "deny"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
        {"id": "by-name", "tool": "shell", "command-prefix": "cd", "decision": "allow"}
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let options = Options {
        case_fold: false,
        home: Some(home.to_path_buf()),
        ..Options::default()
    };
    let policy = compile::compile(rules, options).expect("policy compiles");
    let cwd = home.join("proj");
    let value = json!({"name": "shell", "args": {"command": command}, "cwd": cwd});
    let call = Call::from_value(&value).expect("call reads");
    eval::evaluate(&policy, &call).decision
}

/// Lines that read through the links of `src` (and of the directory they run in).
const FOLLOWING: &[&str] = &[
    "grep -R TODO src",
    "grep -rR TODO src docs",
    "grep --dereference-recursive TODO src",
    "find src -name '*.rs' -exec grep -l TODO {} +",
    "find src -type f -name '*.rs' -o -name '*.md' -exec cat {} \\;",
    "find -L src -name '*.rs'",
    "rg -L TODO src",
    "ls -RL src",
    "du -L src",
    "grep -R TODO src/*",
    "cd src && grep -R TODO .",
    "bash -c 'grep -R TODO src'",
];

#[test]
fn trees_without_links_are_certain() {
    let h = home("none", &[]);
    for line in FOLLOWING {
        assert_eq!(decide(&h, line), Some(Decision::Allow), "{line}");
    }
    // No word names a tree: the one it runs in.
    assert_eq!(decide(&h, "grep -R TODO"), Some(Decision::Allow));
    assert_eq!(decide(&h, "rg -L TODO"), Some(Decision::Allow));
}

#[test]
fn a_link_anywhere_below_is_not() {
    for at in ["src/k", "src/a/b/k"] {
        let h = home(&at.replace('/', "-"), &[at]);
        for line in FOLLOWING {
            assert_ne!(decide(&h, line), Some(Decision::Allow), "{line} with {at}");
        }
        // The same commands without following links read the link, not through it.
        for line in ["grep -r TODO src", "find src -name '*.rs'", "ls -R src"] {
            assert_eq!(decide(&h, line), Some(Decision::Allow), "{line} with {at}");
        }
        // Trees without the link stay certain.
        assert_eq!(decide(&h, "grep -R TODO docs sub"), Some(Decision::Allow));
    }
}

#[test]
fn the_directory_it_runs_in_is_looked_at() {
    let h = home("cwd", &["k"]);
    for line in [
        "grep -R TODO",
        "rg -L TODO",
        "grep -R TODO *",
        "find . -exec cat {} +",
    ] {
        assert_ne!(decide(&h, line), Some(Decision::Allow), "{line}");
    }
    // After `cd DIR &&`, DIR only.
    assert_eq!(
        decide(&h, "cd sub && grep -R TODO ."),
        Some(Decision::Allow)
    );
    let h = home("sub", &["sub/k"]);
    assert_ne!(
        decide(&h, "cd sub && grep -R TODO ."),
        Some(Decision::Allow)
    );
    assert_eq!(
        decide(&h, "cd src && grep -R TODO ."),
        Some(Decision::Allow)
    );
}

#[test]
fn what_the_look_cannot_see_is_not_certain() {
    let h = home("unseen", &[]);
    for line in [
        // A link made earlier in the line, or in a loop.
        "ln -s ~/.ssh src/k && grep -R TODO src",
        "for i in 1 2; do grep -R TODO src; ln -sf ~/.ssh src/k; done",
        "mv docs src/d; grep -R TODO src",
        "tar xf a.tar -C src && grep -R TODO src",
        // A directory only the shell knows.
        "grep -R TODO \"$d\"",
        "grep -R TODO $(pwd)/src",
    ] {
        assert_ne!(decide(&h, line), Some(Decision::Allow), "{line}");
    }
}

#[test]
fn a_tree_too_large_to_look_through_is_not_certain() {
    let h = home("large", &[]);
    let big = h.join("proj/big");
    std::fs::create_dir_all(&big).expect("create big");
    for k in 0..20_050 {
        std::fs::write(big.join(k.to_string()), "").expect("write");
    }
    assert_ne!(decide(&h, "grep -R TODO big"), Some(Decision::Allow));
    assert_eq!(decide(&h, "grep -r TODO big"), Some(Decision::Allow));
}
