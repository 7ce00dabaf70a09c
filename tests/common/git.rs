//! What the tests that make a scratch git repository share: one way to run git there.

use std::path::Path;
use std::process::Command;

/// Run git with ARGS in DIR, a scratch repository: who commits and the first branch's
/// name given on its command line, no configuration of the machine's or the user's read,
/// and no repository above DIR found.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
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
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
