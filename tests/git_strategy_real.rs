//! The merge strategies the reading takes for git's own (`shell::MERGE_STRATEGIES`:
//! `git rebase -s ort` is as certain as `git rebase`), checked against git itself: each
//! is given to `merge`, `cherry-pick` and `rebase` under `strace -f`, and every program
//! started must be an installed one named by an absolute path (git, its helpers in its
//! exec path, and what its own scripts run: `resolve` and `octopus` are shell scripts
//! of git's that run `sed`), none in the work tree. A strategy named by a path is the
//! control (helper-46: `-s x/../e.sh` runs `./e.sh` when a directory `git-merge-x`
//! exists): the same check must see it run.

mod common;

use gptel_rust_hooks::shell::MERGE_STRATEGIES;
use std::path::Path;
use std::process::Command;

/// Run git with ARGS in REPO, no editor, no system or user configuration.
fn git(repo: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(repo)
        .env("HOME", repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_EDITOR", "true")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The programs (as execve was given them, after git itself) git started running ARGS
/// in REPO.
fn started(repo: &Path, args: &[&str]) -> Vec<String> {
    let trace = repo.join("../trace.txt");
    let _ = std::fs::remove_file(&trace);
    let ran = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=execve", "-o"])
        .arg(&trace)
        .args(["git", "-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(repo)
        .env("HOME", repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_EDITOR", "true")
        .output();
    assert!(ran.is_ok(), "strace runs git");
    let text = std::fs::read_to_string(&trace).unwrap_or_default();
    text.lines()
        .filter(|l| l.contains("execve(\"") && !l.contains("= -1 "))
        .skip(1)
        .filter_map(|l| l.split('"').nth(1))
        .map(str::to_owned)
        .collect()
}

/// Whether PROGRAM, as execve was given it, is an installed program: an absolute path
/// outside DIR.
fn installed(program: &str, dir: &Path) -> bool {
    program.starts_with('/') && !Path::new(program).starts_with(dir)
}

/// A repository with `main` and a branch `side` that changed another file, and an
/// executable `e.sh` and a directory `git-merge-x` committed on `main`.
fn repo(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("git-merge-x")).expect("mkdir");
    std::fs::write(dir.join("git-merge-x/keep"), "").expect("write");
    std::fs::write(dir.join("e.sh"), "#!/bin/sh\nexit 1\n").expect("write");
    let ok = Command::new("chmod")
        .args(["+x", "e.sh"])
        .current_dir(dir)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "chmod");
    std::fs::write(dir.join("a.txt"), "a\n").expect("write");
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "."],
        &["commit", "-qm", "one"],
        &["checkout", "-qb", "side"],
    ] {
        assert!(git(dir, args), "git {args:?}");
    }
    std::fs::write(dir.join("b.txt"), "b\n").expect("write");
    assert!(git(dir, &["add", "b.txt"]), "add");
    assert!(git(dir, &["commit", "-qm", "two"]), "commit");
    assert!(git(dir, &["checkout", "-q", "main"]), "checkout");
    std::fs::write(dir.join("c.txt"), "c\n").expect("write");
    assert!(git(dir, &["add", "c.txt"]), "add");
    assert!(git(dir, &["commit", "-qm", "three"]), "commit");
}

#[test]
fn built_in_strategies_start_no_file_of_the_work_tree() {
    let base = common::process_dir("grh-git-strategy");
    let dir = base.join("r");
    let forms: [fn(&str) -> Vec<String>; 3] = [
        |s| {
            vec![
                "merge".into(),
                "--no-edit".into(),
                "-s".into(),
                s.into(),
                "side".into(),
            ]
        },
        |s| {
            vec![
                "cherry-pick".into(),
                format!("--strategy={s}"),
                "side".into(),
            ]
        },
        |s| {
            vec![
                "rebase".into(),
                "-q".into(),
                "-s".into(),
                s.into(),
                "side".into(),
            ]
        },
    ];
    let mut runs = 0;
    for s in MERGE_STRATEGIES {
        for form in &forms {
            repo(&dir);
            let args = form(s);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let programs = started(&dir, &args);
            assert!(
                programs.iter().all(|p| installed(p, &dir)),
                "git {args:?} started {programs:?}"
            );
            runs += 1;
        }
    }
    assert_eq!(runs, MERGE_STRATEGIES.len() * forms.len());
    // The control: a strategy named by a path runs the file.
    for form in &forms[1..] {
        repo(&dir);
        let args = form("x/../e.sh");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let programs = started(&dir, &args);
        assert!(
            programs
                .iter()
                .any(|p| !installed(p, &dir) && p.ends_with("e.sh")),
            "git {args:?} started {programs:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}
