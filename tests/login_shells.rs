//! Commands run in another directory than the line's: a login shell (`su -`, `runuser
//! -l`, `sudo -i`) and `pkexec` run in the user's home, `chroot DIR` in DIR. Their
//! relative paths are read from there: `.ssh/id_rsa` is root's key.

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;

#[test]
fn relative_paths_read_from_where_the_command_runs() {
    let home = gptel_rust_hooks::path::user_home("root").expect("root has a home");
    let rules = json!([
        {"id": "ssh", "path": "~/.ssh/**", "decision": "deny"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let options = Options {
        home: Some(home.clone().into()),
        ..Options::default()
    };
    let p = compile::compile(rules, options).expect("policy compiles");
    let project = std::env::temp_dir();
    let decide = |line: &str| {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": project});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    };
    let from_root = home.trim_start_matches('/');
    for line in [
        "pkexec cat .ssh/id_rsa".to_string(),
        "pkexec --user root cat .ssh/id_rsa".to_string(),
        "sudo -i cat .ssh/id_rsa".to_string(),
        "sudo -iu root cat .ssh/id_rsa".to_string(),
        "runuser -l root -c 'cat .ssh/id_rsa'".to_string(),
        "su - -c 'cat .ssh/id_rsa'".to_string(),
        "su -lc 'cat .ssh/id_rsa'".to_string(),
        format!("chroot / cat {from_root}/.ssh/id_rsa"),
        format!("chroot --userspec=0:0 / cat {from_root}/.ssh/id_rsa"),
        // sudo's own chroot: the command's paths are below the new root (helper-40).
        format!("sudo -R {home} cat /.ssh/id_rsa"),
        format!("sudo --chroot={home} cat /.ssh/id_rsa"),
    ] {
        assert_ne!(decide(&line), Some(Decision::Allow), "{line}");
    }
    // sudo's options that take a value, read as the wrappers' reader reads them (one
    // list, `programs::SUDO_VALUED`): a value is not the command, and `-i` after it
    // still starts a login shell in root's home.
    for line in [
        "sudo --prompt x -i cat .ssh/id_rsa",
        "sudo -p x -i cat .ssh/id_rsa",
        "sudo -R / -i cat .ssh/id_rsa",
        "sudo --close-from 3 --login cat .ssh/id_rsa",
        "sudo -hlocalhost -i cat .ssh/id_rsa",
    ] {
        assert_eq!(decide(line), Some(Decision::Deny), "{line}");
    }
    // Where it keeps the directory, or reads nothing of the home.
    assert_eq!(
        decide("pkexec --keep-cwd cat README.md"),
        Some(Decision::Allow)
    );
    assert_eq!(
        decide("chroot --skip-chdir / cat README.md"),
        Some(Decision::Allow)
    );
}

/// `su USER -c STR` gives STR to USER's login shell from /etc/passwd (`su -m`: to
/// `$SHELL`), not to bash: read as bash only when that shell is one whose reading is
/// checked; `su sync -c STR` runs `/bin/sync -c STR` (helper-40).
#[test]
fn su_runs_the_users_own_shell() {
    let shell_of = |user: &str| gptel_rust_hooks::path::user_shell(user);
    let rules = json!([
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
    ]);
    let p = compile::compile(
        rule::rules_from_value(&rules).expect("rules"),
        Options::default(),
    )
    .expect("policy compiles");
    let decide = |line: &str| {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": "/tmp"});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    };
    // The users of this machine whose shell is no shell (Debian's `sync`, `nobody`).
    let mut others = 0;
    for user in ["sync", "nobody", "daemon", "bin"] {
        let Some(shell) = shell_of(user) else {
            continue;
        };
        if shell.ends_with("/bash") || shell.ends_with("/sh") || shell.ends_with("/dash") {
            continue;
        }
        others += 1;
        let line = format!("su {user} -c 'cat README.md'");
        assert_ne!(decide(&line), Some(Decision::Allow), "{line} ({shell})");
    }
    assert!(others > 0, "no user with another shell in /etc/passwd");
    assert_ne!(decide("su no-such-user -c 'ls'"), Some(Decision::Allow));
    let root = shell_of("root").expect("root's shell");
    if root.ends_with("/bash") || root.ends_with("/sh") {
        assert_eq!(decide("su root -c 'cat README.md'"), Some(Decision::Allow));
        assert_eq!(decide("su -c 'cat README.md'"), Some(Decision::Allow));
    }
}
