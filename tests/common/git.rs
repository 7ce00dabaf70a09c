//! What the tests that make a scratch git repository share: one way to run git there.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Run git with ARGS in DIR, a scratch repository: who commits and the first branch's
/// name given on its command line, no configuration of the machine's or the user's read,
/// and no repository above DIR found.
pub fn git(dir: &Path, args: &[&str]) {
    git_out(dir, args, b"");
}

/// Run git with ARGS in DIR as [`git`] does, given INPUT: its output.
pub fn git_out(dir: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new("git")
        .args([
            "-c",
            "user.name=dev",
            "-c",
            "user.email=dev@example.invalid",
        ])
        .args(["-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CEILING_DIRECTORIES", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run git");
    child
        .stdin
        .take()
        .expect("git's input")
        .write_all(input)
        .expect("give git its input");
    let out = child.wait_with_output().expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
