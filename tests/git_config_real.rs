//! git's configuration keys the reading takes for inert (`git -c color.ui=never log` is
//! as certain as `git log`), checked against git itself: each key of
//! `shell::INERT_CONFIG` is given a command as its value, in the forms git runs
//! commands in (`!CMD`, a plain command, a shell line), and git runs `log`, `status`,
//! `diff`, `commit` and `show` with it under `strace -f` (no terminal, so no pager).
//! Every program started must be git itself (its own `maintenance`, say), and the
//! command's mark file must not appear. An alias run by name is the control: the same
//! check must see it run. (What a key does in a subcommand not run here rests on git's
//! documentation of the key: each is a colour, a name, a count or a choice of words.)

mod common;

use gptel_rust_hooks::shell::{inert_config, INERT_CONFIG};
use std::path::Path;
use std::process::Command;

/// A concrete key for each entry (`color.*` → `color.ui` and a slot of its own).
fn keys() -> Vec<String> {
    INERT_CONFIG
        .iter()
        .flat_map(|k| match k.strip_suffix('*') {
            Some(prefix) => vec![format!("{prefix}ui"), format!("{prefix}diff.meta")],
            None => vec![(*k).to_owned()],
        })
        .collect()
}

/// The programs git started with `-c KV` running ARGS in REPO (basenames, after git
/// itself), and whether MARK was made.
fn run(repo: &Path, kv: &str, args: &[&str], mark: &Path) -> (Vec<String>, bool) {
    let trace = repo.join("trace.txt");
    let _ = std::fs::remove_file(&trace);
    let _ = std::fs::remove_file(mark);
    let status = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=execve", "-o"])
        .arg(&trace)
        .args(["git", "-c", kv])
        .args(args)
        .current_dir(repo)
        .env("HOME", repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_PAGER", "")
        .env_remove("PAGER")
        .env("GIT_EDITOR", "true")
        .output();
    assert!(status.is_ok(), "strace runs git");
    let text = std::fs::read_to_string(&trace).unwrap_or_default();
    let programs = text
        .lines()
        .filter(|l| l.contains("execve(\"") && !l.contains("= -1 "))
        .skip(1)
        .filter_map(|l| l.split('"').nth(1))
        .map(|p| p.rsplit('/').next().unwrap_or(p).to_owned())
        .collect();
    (programs, mark.exists())
}

#[test]
fn inert_keys_run_nothing_in_git() {
    let dir = common::process_dir("grh-git-config");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .env("HOME", &dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(dir.join("a.txt"), "a\n").expect("write");
    git(&["add", "a.txt"]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qm",
        "one",
    ]);
    std::fs::write(dir.join("a.txt"), "b\n").expect("write");
    let mark = dir.join("MARK");
    let m = mark.to_string_lossy().into_owned();
    let values = [
        format!("!touch {m}"),
        format!("touch {m}"),
        format!("sh -c 'touch {m}'"),
    ];
    let runs: &[&[&str]] = &[
        &["log", "-1", "-p"],
        &["status"],
        &["diff"],
        &["show", "HEAD"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qam",
            "x",
        ],
    ];
    let mut checked = 0;
    for key in keys() {
        assert!(inert_config(&format!("{key}=x")), "{key}");
        for v in &values {
            for args in runs {
                let kv = format!("{key}={v}");
                let (programs, made) = run(&dir, &kv, args, &mark);
                assert!(!made, "git -c {kv:?} {args:?} ran the command");
                assert!(
                    programs.iter().all(|p| p == "git" || p.starts_with("git-")),
                    "git -c {kv:?} {args:?} started {programs:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked} runs");
    // The control: a key git runs is seen running by the same check.
    let (programs, made) = run(&dir, &format!("alias.zz=!touch {m}"), &["zz"], &mark);
    assert!(made, "the alias ran");
    assert!(
        programs.iter().any(|p| p != "git"),
        "the check sees the shell git starts ({programs:?})"
    );
    assert!(!inert_config("core.pager=cat"));
    // A key alone is set to true (`git -c color.ui log`).
    assert!(inert_config("color.ui"));
    assert!(!inert_config("core.fsmonitor"));
    let _ = std::fs::remove_dir_all(&dir);
}
