//! Programs a line runs that its words do not name (helper-40's and helper-41's rounds): the editor,
//! diff tools, gpg and browsers git starts; git's configuration and hooks written
//! earlier in the line; a program written into a directory of `PATH` earlier in the
//! line and run by its name; a start-up file (the loader's, PAM's, ssh's, git's system
//! files and helpers, HOME's dotfiles) written earlier in the line (helper-42's round).
//! None of them may be certain; the everyday forms beside them stay allowed.

mod common;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A home with a repository `proj` (its `.git` made by git itself).
fn home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = common::process_dir("grh-git-starts");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("proj/src")).expect("mkdir");
        std::fs::create_dir_all(dir.join(".emacs.d/lisp")).expect("mkdir");
        std::fs::write(dir.join("proj/src/a.rs"), "fn a() {}\n").expect("write");
        let ok = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(dir.join("proj"))
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "git init");
        // A repository whose configuration names project files (helper-43).
        std::fs::create_dir_all(dir.join("proj2/.husky")).expect("mkdir");
        std::fs::create_dir_all(dir.join("proj2/scripts")).expect("mkdir");
        for args in [
            &["init", "-q"][..],
            &["config", "core.hooksPath", ".husky"],
            &["config", "include.path", "../.gitconfig"],
            &["config", "filter.x.clean", "./tools/clean --quiet"],
            // helper-44: a script as an argument, an option's file, a directory.
            &["config", "diff.y.textconv", "sh conv/run.sh"],
            &["config", "core.sshCommand", "ssh -F cfg/ssh_config"],
            &["config", "filter.z.smudge", "cd scripts && ./smudge"],
        ] {
            let ok = std::process::Command::new("git")
                .args(args)
                .current_dir(dir.join("proj2"))
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "git {args:?}");
        }
        dir.canonicalize().expect("canonical home")
    })
}

fn policy() -> &'static Policy {
    static P: OnceLock<Policy> = OnceLock::new();
    P.get_or_init(|| {
        let rules = json!([
            {"id": "git", "tool": "shell", "command-prefix": "git", "decision": "allow"},
            {"id": "cargo", "tool": "shell", "command-prefix": "cargo", "decision": "allow"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}
        ]);
        compiled(rules)
    })
}

/// RULES compiled with the fixture's home.
fn compiled(rules: serde_json::Value) -> Policy {
    let opts = Options {
        home: Some(home().to_path_buf()),
        ..Options::default()
    };
    compile::compile(rule::rules_from_value(&rules).expect("rules"), opts).expect("policy")
}

/// The decision of POLICY on LINE run in DIR of the home.
fn decide(policy: &Policy, dir: &str, line: &str) -> Option<Decision> {
    let call = Call::from_value(&json!({
        "name": "shell", "args": {"command": line},
        "cwd": home().join(dir).to_string_lossy()
    }))
    .expect("a shell call");
    eval::evaluate(policy, &call).decision
}

/// Each line of CASES, run in `proj` under RULES, decides as it says.
fn expect_each(rules: serde_json::Value, cases: &[(&str, Option<Decision>)]) {
    let policy = compiled(rules);
    for (line, want) in cases {
        assert_eq!(decide(&policy, "proj", line), *want, "{line}");
    }
}

fn decision(line: &str) -> Option<Decision> {
    decision_in("proj", line)
}

/// The decision on LINE run in DIR of the home.
fn decision_in(dir: &str, line: &str) -> Option<Decision> {
    decide(policy(), dir, line)
}

fn check(allowed: &[&str], not_allowed: &[&str]) {
    for line in allowed {
        assert_eq!(decision(line), Some(Decision::Allow), "{line}");
    }
    for line in not_allowed {
        assert_ne!(decision(line), Some(Decision::Allow), "{line}");
    }
}

#[test]
fn what_git_starts_is_not_certain() {
    check(
        &[
            "git commit -m x",
            "git commit --amend --no-edit",
            "git commit --fixup HEAD",
            "git tag v1",
            "git tag -a v1 -m release",
            "git merge feature",
            "git rebase main",
            "git notes add -m x HEAD",
            "git log -3",
            // The strategies git builds in; `-X` is an option of the strategy.
            "git merge -s ours feature",
            "git rebase -s ort -X theirs main",
            "git cherry-pick --strategy=recursive -X patience abc",
            "git pull -s resolve",
            "git bisect start HEAD HEAD~1",
            "git bisect good",
        ],
        &[
            // The editor: no message, or asked for.
            "printf ':!id\\n:q!\\n' | git commit -a",
            "git commit --amend",
            "git commit -c HEAD",
            "git commit --squash HEAD",
            "git commit --fixup=amend:HEAD",
            "git tag -a v1",
            "git rebase -i HEAD~3",
            "git rebase --continue",
            "git merge --edit feature",
            "git cherry-pick -e abc",
            "git notes add",
            "git notes edit HEAD",
            "git config --edit",
            "git branch --edit-description",
            // Hunks edited in the editor (`e`).
            "printf 'e\\n' | git add -p",
            "git checkout -p",
            "git stash push -p",
            // Tools, gpg, browsers.
            "git difftool -y",
            "git mergetool",
            "git commit -S -m x",
            "git tag -s v1 -m x",
            "git merge --verify-signatures x",
            "git log --show-signature",
            "git verify-commit HEAD",
            "git help -w commit",
            // helper-41: the editor of `replace --edit`, gpg for a format's signature
            // placeholders, a remote helper named by a URL.
            "git replace --edit HEAD",
            "git log --format=%G?",
            "git log -1 --pretty='%h %GS'",
            "git ls-remote zz::x",
            "git remote add o zz::x",
            // helper-46: a strategy git does not build in runs `git-merge-NAME` (a
            // file where git runs, for a name with a `/`); `bisect visualize` runs
            // gitk, tig or the `git*` program its word names.
            "git rebase -f -s x/../e.sh HEAD~1",
            "git cherry-pick --strategy=x/../e.sh HEAD~1",
            "git revert --strategy x/../e.sh HEAD",
            "git pull --rebase -s x/../e.sh",
            "git merge -s foo main",
            "git merge --strat=foo main",
            "git bisect view git-credential-x",
            "git bisect visualize",
            "git bisect view --stat",
        ],
    );
}

#[test]
fn git_after_its_configuration_is_written_is_not_certain() {
    check(
        &["git status && git diff", "echo x > a.txt && git status"],
        &[
            "printf '[core]\\n\\tfsmonitor = /tmp/evil.sh\\n' >> .git/config && git status",
            "printf '#!/bin/sh\\nid\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git commit -q --allow-empty -m x",
            "cp /tmp/x .git/config; git log",
            "cd src && printf '[alias]\\n\\tst = !id\\n' >> ../.git/config && git st",
            "echo '[alias] x = !id' >> ~/.gitconfig; git status",
            "sed -i s/a/b/ .git/config && git log",
            // A doubled slash is one to the kernel (helper-41).
            "printf x >> .git//config && git status",
            "cp /tmp/evil .git//hooks/pre-commit && git commit --allow-empty -qm x",
        ],
    );
}

#[test]
fn a_program_written_into_path_then_run_by_name_is_not_certain() {
    check(
        &[
            "ls; echo hi > x.txt; cat x.txt",
            "cat /usr/local/bin/foo",
            "ls ~/.local/bin; echo done",
            "cd ~ && ls",
            "cp src/a.rs ~ && ls",
        ],
        &[
            "printf '#!/bin/sh\\nid\\n' > /usr/local/bin/ls; chmod +x /usr/local/bin/ls; ls",
            "cp /tmp/evil ~/.local/bin/ && ls",
            "echo id > ~/bin/x; x",
            "cp /tmp/evil ~/.cargo/bin/git && git status",
            "tee /usr/bin/cat < /tmp/evil >/dev/null; cat README.md",
            // A directory of PATH made by a tree copied, linked or moved above it, and a
            // doubled slash (helper-41).
            "cp -r /tmp/evilroot ~/.local && ls",
            "ln -s /tmp/evilroot ~/.local && ls",
            "mv /tmp/evilroot ~/.local && ls",
            "cp /tmp/evil ~//.local/bin/ls && ls",
            "cp /tmp/evil /usr//local/bin/ls && ls",
        ],
    );
}

#[test]
fn a_program_after_a_start_up_file_is_written_is_not_certain() {
    check(
        &[
            "cat /etc/hosts > out.txt && ls",
            "ls /usr/bin > list.txt && wc -l list.txt",
            "grep -r foo /usr/include > out.txt; wc -l out.txt",
            "echo x >> ~/.bashrc; echo done",
            "git log --oneline > /tmp/log.txt && wc -l /tmp/log.txt",
            "tar czf /tmp/a.tgz src && ls",
            // A redirection that only reads (`<`) writes nothing; nor does an empty
            // directory made.
            "wc -l < /etc/passwd; ls",
            "mkdir -p ~/.cache/x && ls",
            "mkdir -p ~/.local/bin && ls",
            "sort < /etc/hosts > out.txt && cat out.txt",
            "{ cat; } < ~/.bashrc; ls",
        ],
        &[
            "wc -l < /etc/profile > /etc/profile; ls",
            "mkdir -p ~/.local/bin && cp /tmp/evil ~/.local/bin/ls && ls",
            "mkdir -p ~/.config/git && echo x > ~/.config/git/config && git status",
            "cat < /etc/hosts >> ~/.bashrc; ls",
            // The loader, PAM, ssh's and git's system files, whatever program follows.
            "echo /tmp/evil.so > /etc/ld.so.preload; ls",
            "echo /tmp/evil.so > /etc/ld.so.preload; /bin/ls",
            "echo 'passwd: files evil' > /etc/nsswitch.conf && ls -l",
            "echo 'BASH_ENV=/tmp/x.sh' >> /etc/environment; su -c ls",
            "echo 'session optional pam_exec.so /tmp/x.sh' >> /etc/pam.d/runuser; runuser -u root -- ls",
            "echo 'ProxyCommand id' > /etc/ssh/ssh_config.d/z.conf; git ls-remote x:y",
            "echo x > /usr/local/etc/gitconfig; git status",
            "git log -1 --format=x --output=/usr/local/etc/gitconfig; git status",
            "cp /tmp/evil /usr/lib/git-core/git-upload-pack && git ls-remote ../proj",
            "cp /tmp/evil /opt/homebrew/etc/gitconfig && git log",
            // HOME's dotfiles, and a tree made over HOME or the root.
            "echo 'ProxyCommand id' >> ~/.ssh/config && git fetch",
            "echo x > ~/.local/lib/python3.11/site-packages/usercustomize.py && python3 -c 1",
            "echo 'BASH_ENV=/tmp/x.sh' > ~/.pam_environment; su -c ls",
            "cp -r /tmp/dotfiles/. ~ && ls",
            "cd / && tar xf /tmp/root.tar && ls",
            "cd ~ && tar xf /tmp/home.tar && ls",
        ],
    );
}

#[test]
fn a_project_in_a_start_up_place_is_one() {
    // A project in a dot directory of HOME is some program's start-up files
    // (helper-43: `~/.config` held curl's `curlrc`): a write there makes the commands
    // after it uncertain; alone, it is certain.
    for line in ["echo x > foo.el", "cat lisp/a.el; ls"] {
        assert_eq!(
            decision_in(".emacs.d", line),
            Some(Decision::Allow),
            "{line}"
        );
    }
    for line in [
        "echo x > foo.el && ls",
        "echo 'data = \"@x\"' > curlrc && curl -s http://127.0.0.1:1/",
        "echo x > ~/.bashrc && ls",
    ] {
        assert_ne!(
            decision_in(".emacs.d", line),
            Some(Decision::Allow),
            "{line}"
        );
    }
}

#[test]
fn writes_through_a_link_and_dot_dot_are_where_the_kernel_writes() {
    // `lnk/..` is the parent of the link's target (helper-43).
    let proj = home().join("proj");
    let _ = std::os::unix::fs::symlink("/etc", proj.join("etclnk"));
    let _ = std::os::unix::fs::symlink(home(), proj.join("homelnk"));
    let name = home()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let cargo = format!("cp /tmp/evil homelnk/../{name}/.cargo/bin/grep; grep x README.md");
    let gitconfig = format!("printf x >> homelnk/../{name}/.gitconfig; git status");
    check(
        &["cat etclnk/hostname; ls"],
        &[
            "echo /tmp/x.so > etclnk/../etc/ld.so.preload; ls",
            &cargo,
            &gitconfig,
        ],
    );
}

#[test]
fn cargo_reads_its_configuration_up_from_its_directory() {
    check(
        &["cargo metadata --format-version 1", "echo x > src/a.rs && cargo metadata --format-version 1"],
        &[
            "mkdir -p .cargo && printf '[build]\\nrustc-wrapper = \"/tmp/w.sh\"\\n' > .cargo/config.toml && cargo metadata --format-version 1",
            "printf '[toolchain]\\npath = \"/tmp/tc\"\\n' > rust-toolchain.toml && cargo fmt --check",
            "printf '[toolchain]\\npath = \"/tmp/tc\"\\n' > ../rust-toolchain.toml && cargo --version",
        ],
    );
}

#[test]
fn git_c_of_a_key_git_never_runs_is_certain() {
    check(
        &[
            "git -c color.ui=never log --oneline -3",
            "git -c color.ui=never -c core.quotepath=off status",
            "git -c user.name=x -c user.email=x@y commit -m msg",
            "git -c advice.detachedHead=false log -1",
            // A key alone is set to true (not certain until this session).
            "git -c color.ui log",
        ],
        &[
            "git -c core.pager=cat log",
            "git -c alias.x='!id' x",
            "git -c core.pager log",
            "git -c core.sshCommand=id fetch",
            "git -c color.ui=never -c include.path=/tmp/x status",
            "git -c safe.directory='*' status",
        ],
    );
    // A rule naming the subcommand covers it, as it covers `git --no-pager log`.
    let rules = json!([{"tool": "shell", "command-prefix": "git log", "decision": "allow"}]);
    expect_each(
        rules,
        &[
            ("git -c color.ui=never log -3", Some(Decision::Allow)),
            ("git -c core.pager=cat log -3", None),
        ],
    );
}

#[test]
fn what_gits_configuration_names_is_its_configuration() {
    for line in [
        "echo 'id' >> .husky/pre-commit && git commit -qam wip",
        "printf '[core]\\n\\tfsmonitor = id\\n' > .gitconfig && git status",
        "cp /tmp/evil tools/clean && git add -A",
        "echo id > conv/run.sh; git diff",
        "echo 'ProxyCommand id' > cfg/ssh_config; git fetch",
        "echo id > scripts/smudge && git checkout -- a.txt",
    ] {
        assert_ne!(decision_in("proj2", line), Some(Decision::Allow), "{line}");
    }
    for line in ["echo x > a.txt && git status", "git status && git diff"] {
        assert_eq!(decision_in("proj2", line), Some(Decision::Allow), "{line}");
    }
}

#[test]
fn rustups_proxies_read_the_toolchain_file_up_from_their_directory() {
    let rules = json!([{"tool": "shell", "command-prefix": ["rustfmt", "rustc", "printf"], "decision": "allow"}]);
    expect_each(
        rules,
        &[
        ("rustfmt src/a.rs", Some(Decision::Allow)),
        ("rustc --version", Some(Decision::Allow)),
        (
            "printf '[toolchain]\\npath = \"/tmp/tc\"\\n' > ../rust-toolchain; rustfmt src/a.rs",
            None,
        ),
        ("printf x > rust-toolchain.toml && rustc --version", None),
        ],
    );
}

#[test]
fn git_help_that_prints_a_list_is_certain() {
    check(
        &["git help --all", "git help -g", "git help --config"],
        &["git help log", "git help --web log"],
    );
}

#[test]
fn npmrc_makefiles_and_less_tags_are_what_they_name() {
    // helper-45: a project `.npmrc` names files npm reads; even `make -n` runs a
    // makefile's `$(shell ...)`; `less -t TAG` opens the file a tags file names.
    let rules = json!([
        {"tool": "shell", "command-prefix": ["npm ls", "make -n", "echo", "printf", "less"], "decision": "allow"}
    ]);
    expect_each(
        rules,
        &[
            ("npm ls", Some(Decision::Allow)),
            ("make -n", Some(Decision::Allow)),
            ("less README.md", Some(Decision::Allow)),
            ("echo x > a.txt && npm ls", Some(Decision::Allow)),
            ("echo 'userconfig=/tmp/k' > .npmrc; npm ls", None),
            ("echo 'x:=$(shell id)' > GNUmakefile; make -n", None),
            ("printf 'all:\\n' > Makefile && make -n", None),
            ("less -t k", None),
            ("less --tag=k -T t2", None),
        ],
    );
}

/// What git starts is described, not read as a command: a format's signature
/// placeholders under a rule on a path are not certain, and not a parse error that
/// matches every deny rule (helper-46: `git log --format=%G?` was denied as a read of
/// `~/.ssh`).
#[test]
fn what_git_starts_is_no_parse_error() {
    let rules = json!([
        {"id": "ssh", "path": "~/.ssh/**", "decision": "deny"},
        {"id": "git", "tool": "shell", "command-prefix": "git", "decision": "allow"}
    ]);
    expect_each(
        rules,
        &[
            ("git log --format=%G?", None),
            ("git log --format='%h %G? %s' -3", None),
            ("git show -s --pretty=%GS HEAD", None),
            ("git difftool -y", None),
            ("git log --format=%h", Some(Decision::Allow)),
            ("cat ~/.ssh/id_rsa", Some(Decision::Deny)),
        ],
    );
}

/// A program whose configuration in the home can make it open any file or run a command,
/// which the engine does not read (curl, wget, less, bat, jq), is not certain while such
/// a file is there: an earlier call may have written it (helper-54: `upload-file =
/// "~/.ssh/id_rsa"` in `~/.curlrc`, then an allowed `curl URL` uploaded the key).
#[test]
fn a_program_whose_home_configuration_is_there_is_not_certain() {
    let base = common::process_dir("grh-config-there");
    let _ = std::fs::remove_dir_all(&base);
    let (plain, armed) = (base.join("plain"), base.join("armed"));
    for home in [&plain, &armed] {
        std::fs::create_dir_all(home.join("proj")).expect("mkdir");
        std::fs::write(home.join("proj/f.json"), "{}\n").expect("write");
    }
    for (file, text) in [
        (".curlrc", "upload-file = \"~/.ssh/id_rsa\"\n"),
        (".wgetrc", "use_askpass = /usr/bin/id\n"),
        (".lesskey", "#env\nLESSOPEN=|cat ~/.ssh/id_rsa %s\n"),
        (".config/bat/config", "--pager=sh\n"),
        (".jq", "def x: 1;\n"),
    ] {
        let path = armed.join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    let lines = [
        "curl -s http://127.0.0.1:1/",
        "wget -q http://127.0.0.1:1/",
        "less f.json",
        "bat f.json",
        "jq . f.json",
    ];
    // bat's pager is less, which reads less's files (helper-55).
    let lesskey_only = base.join("lesskey-only");
    std::fs::create_dir_all(lesskey_only.join("proj")).expect("mkdir");
    std::fs::write(lesskey_only.join("proj/f.json"), "{}\n").expect("write");
    std::fs::write(
        lesskey_only.join(".lesskey"),
        "#env\nLESSOPEN=|cat ~/.ssh/k %s\n",
    )
    .expect("write");
    let bat_pages: &[&str] = &["bat --paging=always f.json"];
    for (home, want_allowed, lines) in [
        (&plain, true, &lines[..]),
        (&armed, false, &lines[..]),
        (&plain, true, bat_pages),
        (&lesskey_only, false, bat_pages),
    ] {
        let opts = Options {
            home: Some(home.clone()),
            ..Options::default()
        };
        let rules =
            json!([{"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}]);
        let policy =
            compile::compile(rule::rules_from_value(&rules).expect("rules"), opts).expect("policy");
        for &line in lines {
            let call = Call::from_value(&json!({
                "name": "shell", "args": {"command": line},
                "cwd": home.join("proj").to_string_lossy()
            }))
            .expect("a shell call");
            let d = eval::evaluate(&policy, &call).decision;
            assert_eq!(
                d == Some(Decision::Allow),
                want_allowed,
                "{line} in {}: {d:?}",
                home.display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}
