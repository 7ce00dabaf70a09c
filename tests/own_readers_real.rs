//! Words a program reads by its own rules, not bash's (helper-58): a command line it
//! splits into words itself (bat's `--pager`: `;` and `#` are plain characters there), a string it gives to `$SHELL` (`script -c`, `flock -c`: the call's
//! `SHELL` may name zsh), files named in option values of wrappers (`script -O`,
//! `flock FILE -c`), makefile lines given as operands (`x:=$(shell ...)`, `x!=CMD`),
//! git's `--bare` (the project directory as the repository), file operands and option
//! values of git (`interpret-trailers FILE`, `ls-files --exclude-per-directory`,
//! `config --blob=REV:PATH`), a pattern list `zip -x@FILE`, an optional value (`du
//! --time`), an option after the operand it makes a file (`grep .env -e x`), make's
//! `NAME:=` and `NAME =` spellings.
//!
//! Each line runs for real in bash under bubblewrap and strace (`tests/trace`), in a
//! project with a `.env` (tracked, written as git configuration) beside a home with
//! `~/.ssh/id_rsa`. Where the run opens a secret or runs `rm` the line must not be
//! allowed, and the run must have done so (else the case proves nothing); the everyday
//! forms stay allowed.

mod trace;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::Path;
use trace::repo::git_out;
use trace::{Op, Scratch};

/// The project: a repository with a tracked `.env`, a Makefile, and a home with a key.
fn project(s: &Scratch) -> (std::path::PathBuf, std::path::PathBuf) {
    let home = s.root.join("home");
    let proj = home.join("proj");
    std::fs::create_dir_all(home.join(".ssh")).expect("make .ssh");
    std::fs::create_dir_all(proj.join("src")).expect("make the project");
    std::fs::write(home.join(".ssh/id_rsa"), "SSH-SECRET\n").expect("write the key");
    std::fs::write(proj.join(".env"), "[db]\n\tpassword = ENV-SECRET\n").expect("write .env");
    std::fs::write(proj.join("README.md"), "hello\n").expect("write README");
    std::fs::write(proj.join("src/a.rs"), "fn main() {}\n").expect("write a.rs");
    std::fs::write(proj.join("Makefile"), "test:\n\t@echo testing\n").expect("write Makefile");
    std::fs::write(proj.join("victim"), "x\n").expect("write victim");
    trace::git(&proj, &["init", "-q"]);
    trace::git(
        &proj,
        &["add", "-f", ".env", "README.md", "src", "Makefile"],
    );
    trace::git(&proj, &["commit", "-qm", "init"]);
    (home, proj)
}

/// Deny `~/.ssh/**`, `**/.env` and `rm`; allow git and every other command.
fn decider(home: &Path, proj: &Path) -> impl Fn(&str) -> Option<Decision> {
    decider_with(
        home,
        proj,
        json!([
            {"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"},
            {"id": "rm", "tool": "shell", "command-prefix": ["rm"], "decision": "deny"},
            {"id": "git", "tool": "shell", "command-prefix": ["git", "make test"], "decision": "allow"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
        ]),
    )
}

/// A rule that allows make and one that allows every other command, after RULES.
fn make_decider(
    home: &Path,
    proj: &Path,
    rules: &[serde_json::Value],
) -> impl Fn(&str) -> Option<Decision> {
    let mut all = rules.to_vec();
    all.push(
        json!({"id": "make", "tool": "shell", "command-prefix": ["make"], "decision": "allow"}),
    );
    all.push(json!({"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}));
    decider_with(home, proj, serde_json::Value::Array(all))
}

/// RULES, with HOME, deciding shell calls run in PROJ.
fn decider_with(
    home: &Path,
    proj: &Path,
    rules: serde_json::Value,
) -> impl Fn(&str) -> Option<Decision> {
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let options = Options {
        home: Some(home.to_path_buf()),
        ..Options::default()
    };
    let p = compile::compile(rules, options).expect("policy compiles");
    let dir = proj.to_path_buf();
    move |line: &str| {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": &dir});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    }
}

/// What of the rules the run did: a secret opened, removed or linked (any `.env` of the
/// project), or `rm` run.
fn touched(run: &trace::Run, home: &Path, proj: &Path) -> Vec<String> {
    let ssh = format!("{}/.ssh", home.display());
    // Any `.env` of the project (the rules say `**/.env`).
    let project = format!("{}/", proj.display());
    let env = |p: &str| p.starts_with(&project) && (p.ends_with("/.env") || p.contains("/.env/"));
    run.events
        .iter()
        .filter(|e| e.ok || e.op == Op::Exec)
        .filter(|e| match e.op {
            Op::Exec => e.path.ends_with("/rm"),
            Op::Read
            | Op::Write
            | Op::Chmod
            | Op::RenameTo
            | Op::Unlink
            | Op::Truncate
            | Op::Link => e.path == ssh || e.path.starts_with(&format!("{ssh}/")) || env(&e.path),
            _ => false,
        })
        .map(|e| format!("{:?} {}", e.op, e.path))
        .collect()
}

/// Whether `bash -c LINE`, run in PROJ with HOME, prints a secret (one git prints from
/// its store is never opened as a file).
fn prints_secret(line: &str, home: &Path, proj: &Path) -> bool {
    let out = std::process::Command::new("timeout")
        .args(["10", "bash", "-c", line])
        .current_dir(proj)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CEILING_DIRECTORIES", home)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run bash");
    String::from_utf8_lossy(&out.stdout).contains("SECRET")
}

/// The failure of LINE, decided D, whose run did DID (its errors STDERR): it must have
/// touched a secret (else the case proves nothing) and been denied or asked (or, when
/// UNDECIDED_OK, left to gptel's own confirmation: not allowed).
fn check_touching(
    line: &str,
    d: Option<Decision>,
    did: &[String],
    stderr: &str,
    undecided_ok: bool,
) -> Option<String> {
    if did.is_empty() {
        return Some(format!("`{line}`: the run touched no secret ({stderr})"));
    }
    let ok = matches!(d, Some(Decision::Deny | Decision::Ask)) || (undecided_ok && d.is_none());
    (!ok).then(|| format!("`{line}`: {d:?}, but the run did {did:?}"))
}

/// The failures of LINES, each decided by DECIDE and run for real in PROJ with HOME (AT):
/// see [`check_touching`].
fn check_lines(
    s: &Scratch,
    decide: &impl Fn(&str) -> Option<Decision>,
    lines: &[&str],
    at: (&Path, &Path),
    undecided_ok: bool,
) -> Vec<String> {
    check_lines_restoring(s, decide, lines, at, undecided_ok, &|| ())
}

/// [`check_lines`], calling RESTORE after each run (to put back what it changed).
fn check_lines_restoring(
    s: &Scratch,
    decide: &impl Fn(&str) -> Option<Decision>,
    lines: &[&str],
    at: (&Path, &Path),
    undecided_ok: bool,
    restore: &dyn Fn(),
) -> Vec<String> {
    let (home, proj) = at;
    lines
        .iter()
        .filter_map(|line| {
            let d = decide(line);
            let (run, did) = run_touching(s, line, home, proj);
            restore();
            check_touching(line, d, &did, &run.stderr, undecided_ok)
        })
        .collect()
}

/// A RESTORE for [`check_lines_restoring`]: the project's `victim` file written again.
fn victim_again(proj: &Path) -> impl Fn() + '_ {
    move || std::fs::write(proj.join("victim"), "x\n").expect("write victim")
}

/// The failures of LINES that DECIDE allows (each does what a rule is about, shown
/// where a real run's trace cannot: a walk opens names relative to its directory).
fn not_allowed(decide: &impl Fn(&str) -> Option<Decision>, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter(|line| decide(line) == Some(Decision::Allow))
        .map(|line| format!("`{line}`: allowed"))
        .collect()
}

/// The failure of LINE, decided D, whose run did DID: it must have done something the
/// rules are about (else the case proves nothing) and not been allowed (an undecided
/// line is left to gptel's own confirmation).
fn check_not_allowed(line: &str, d: Option<Decision>, did: &[String]) -> Option<String> {
    (d == Some(Decision::Allow) || did.is_empty())
        .then(|| format!("`{line}`: {d:?}, and the run did {did:?}"))
}

/// The failures of the everyday LINES, which DECIDE must allow.
fn everyday(decide: &impl Fn(&str) -> Option<Decision>, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|line| {
            let d = decide(line);
            (d != Some(Decision::Allow)).then(|| format!("`{line}`: {d:?}, not allowed"))
        })
        .collect()
}

/// Run LINE for real in PROJ with HOME: the run, and what of the rules it did (a secret
/// opened, `rm` run, or, when strace shows nothing, a secret printed).
fn run_touching(s: &Scratch, line: &str, home: &Path, proj: &Path) -> (trace::Run, Vec<String>) {
    let run = s.run(&["bash", "-c", line], proj, home, None, 10);
    let mut did = touched(&run, home, proj);
    if did.is_empty() && prints_secret(line, home, proj) {
        did.push("printed the secret".into());
    }
    (run, did)
}

/// The failures of the everyday LINE: its run must do nothing the rules are about, and
/// DECIDE must allow it.
fn everyday_run(
    s: &Scratch,
    decide: &impl Fn(&str) -> Option<Decision>,
    line: &str,
    home: &Path,
    proj: &Path,
) -> Vec<String> {
    let run = s.run(&["bash", "-c", line], proj, home, None, 10);
    let did = touched(&run, home, proj);
    let mut failures = Vec::new();
    if !did.is_empty() {
        failures.push(format!("`{line}`: the everyday run did {did:?}"));
    }
    let d = decide(line);
    if d != Some(Decision::Allow) {
        failures.push(format!("`{line}`: {d:?}, not allowed"));
    }
    failures
}

/// `../` enough times to climb from DIR to `/`.
fn to_root(dir: &Path) -> String {
    "../".repeat(dir.components().count() - 1)
}

#[test]
fn words_programs_read_by_their_own_rules() {
    let s = Scratch::new("own-readers");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let up = to_root(&proj);
    let bypasses = [
        // A command line bat splits itself: `;#` is part of a word, not a comment.
        "mkdir -p 'x;#' && batcat --paging=always --pager='cat x;#/../.env' README.md".to_string(),
        format!("mkdir -p 'c;#' && batcat --paging=always --pager='c;#/{up}usr/bin/rm -f victim' README.md"),
        "mkdir -p 'k;#' && batcat --paging=always --pager 'cat k;#/../../.ssh/id_rsa' README.md".to_string(),
        // `script -c` and `flock -c` run their string in `$SHELL`: zsh reads `$HOME[1,-1]`
        // as the whole home, bash as a glob that matches nothing.
        "SHELL=/usr/bin/zsh script -qc 'cat $HOME[1,-1]/.ssh/id_rsa' /dev/null".to_string(),
        "SHELL=/usr/bin/zsh flock /tmp/lock -c 'cat $HOME[1,-1]/.ssh/id_rsa'".to_string(),
        "export SHELL=/usr/bin/zsh; script -qc 'cat ${HOME[1,-1]}/.ssh/id_rsa' /dev/null".to_string(),
        // zsh's `:h` modifier: the parent of the project, the home.
        "SHELL=/usr/bin/zsh script -qc 'cat $PWD:h/.ssh/id_rsa' /dev/null".to_string(),
        "SHELL=/usr/bin/zsh flock -n /tmp/lock -c 'cat $PWD:h/.ssh/id_rsa'".to_string(),
        // Files the wrappers write or open themselves.
        "script -q -c 'echo x' -O .env".to_string(),
        "script -q --log-out=../.ssh/authorized_keys -c 'echo x'".to_string(),
        "script -q -B .env -c true".to_string(),
        "flock -n .env -c true".to_string(),
        "flock ../.ssh/id_rsa --command true".to_string(),
        // Makefile lines given as operands run or read at once.
        "SHELL=/bin/sh make test 'x:=$(shell rm -f victim)'".to_string(),
        "SHELL=/bin/sh make test 'x!=rm -f victim'".to_string(),
        "make test 'x:=$(info $(file <.env))'".to_string(),
        "make test 'y ::= $(file <../.ssh/id_rsa)'".to_string(),
        // git's file operands and option values.
        "git interpret-trailers .env".to_string(),
        "git interpret-trailers --only-input ~/.ssh/id_rsa".to_string(),
        "git ls-files -o --exclude-per-directory=.env".to_string(),
        "git config --blob=HEAD:.env -l".to_string(),
        "git config --bl HEAD:./.env --get db.password".to_string(),
        "git config --blob=:.env --list".to_string(),
        // zip reads a pattern list named `@FILE`.
        "zip -r /tmp/o.zip src -x@.env".to_string(),
        "zip -r /tmp/o.zip src -i@../.ssh/id_rsa".to_string(),
        // `du --time` takes no next word: `~/.ssh` is walked.
        "du -a --time ../.ssh".to_string(),
        // helper-59: an option that makes the first operand a file counts wherever it
        // stands (GNU getopt and clap permute).
        "grep .env -e ENV".to_string(),
        "egrep ../.ssh/id_rsa --regexp=SSH".to_string(),
        "grep -n .env --file=README.md".to_string(),
        "rg .env --regexp SECRET".to_string(),
        "jq -n ../.ssh/id_rsa -f".to_string(),
        "chmod .env --reference=README.md".to_string(),
        // make reads `NAME:=`, `NAME ::=`, `NAME =` as it reads `NAME=`.
        "make test SHELL:=/usr/bin/cat .SHELLFLAGS:=../.ssh/id_rsa".to_string(),
        // make expands names.
        "make test 'SHE$()LL=/usr/bin/rm'".to_string(),
        "make test 'SHELL =/usr/bin/rm'".to_string(),
        "make test SHELL::=/usr/bin/rm".to_string(),
        "make test MAKEFILES:=.env".to_string(),
        // bat's splitter ends a comment at a newline.
        "batcat --paging=always --pager=$'cat #x\\n.env' README.md".to_string(),
    ];
    let mut failures = Vec::new();
    for line in &bypasses {
        let run = s.run(&["bash", "-c", line], &proj, &home, None, 10);
        let mut did = touched(&run, &home, &proj);
        if line.starts_with("git config") && prints_secret(line, &home, &proj) {
            did.push("printed the secret".into());
        }
        let d = decide(line);
        failures.extend(check_touching(line, d, &did, &run.stderr, true));
        trace::git(&proj, &["checkout", "-q", "--", "."]);
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
        let _ = std::fs::remove_file(proj.join(".env.bak"));
    }
    // The files bare git would take for its repository, written by earlier calls;
    // `git --bare` then uses them and runs the command of their `config`.
    for f in ["objects/info", "refs/heads", "info"] {
        std::fs::create_dir_all(proj.join(f)).expect("make bare dirs");
    }
    std::fs::write(proj.join("objects/info/alternates"), "../.git/objects\n").expect("write");
    let head = std::fs::read_to_string(proj.join(".git/refs/heads/main")).expect("read head");
    std::fs::write(proj.join("refs/heads/main"), head).expect("write ref");
    std::fs::write(proj.join("HEAD"), "ref: refs/heads/main\n").expect("write HEAD");
    std::fs::write(proj.join("info/attributes"), "* diff=x\n").expect("write attributes");
    std::fs::write(
        proj.join("config"),
        "[core]\n\tbare = true\n[diff \"x\"]\n\ttextconv = rm -f victim\n",
    )
    .expect("write config");
    for line in ["git --bare log -p -1", "git --no-pager --bare show HEAD"] {
        let run = s.run(&["bash", "-c", line], &proj, &home, None, 10);
        let did = touched(&run, &home, &proj);
        failures.extend(check_touching(line, decide(line), &did, &run.stderr, true));
    }
    for f in ["objects", "refs", "info", "HEAD", "config"] {
        let p = proj.join(f);
        let _ = std::fs::remove_dir_all(&p);
        let _ = std::fs::remove_file(&p);
    }
    // The everyday forms: nothing the rules are about, and allowed.
    for line in [
        "batcat --paging=never README.md",
        "batcat --paging=always --pager='less -R' README.md",
        "make test",
        "make test CC=clang",
        "git log -1 --oneline",
        "git --no-pager log -1",
        "git init --bare /tmp/b.git",
        "git interpret-trailers --trailer 'Signed-off-by: a' README.md",
        "git config --get user.name",
        "zip -r /tmp/o.zip src -x '*.o'",
        "du -a --time src",
        "flock /tmp/lock true",
        "grep -e hello README.md",
        "grep -y HELLO README.md",
        "rg -e fn src",
        "chmod 644 README.md",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-61's families, each line run for real: a walk under another name (`zcat -r`
/// is `gzip -cdr`), rg 13 applying no anchored ignore line to a start spelled `./.`,
/// git's merge strategies writing the tree (a link from a commit), the directory
/// before the last `cd` (`~-`, `$OLDPWD`), and `ln -r`'s target read from here. Each
/// must open a secret in the run and be decided by the deny rule (deny, or ask on an
/// unsure match): not allowed, and not left undecided.
#[test]
fn helper61_walks_merges_and_previous_directories() {
    let s = Scratch::new("own-readers-61");
    let (home, proj) = project(&s);
    // A branch whose README.md is a link to the key.
    trace::git(&proj, &["checkout", "-qb", "evil"]);
    std::fs::remove_file(proj.join("README.md")).expect("remove README");
    std::os::unix::fs::symlink("../.ssh/id_rsa", proj.join("README.md")).expect("link");
    trace::git(&proj, &["add", "README.md"]);
    trace::git(&proj, &["commit", "-qm", "evil"]);
    trace::git(&proj, &["checkout", "-q", "main"]);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    // (an ignore file the project holds first, the line)
    let cases: &[(Option<&str>, &str)] = &[
        (None, "zcat -rf ."),
        (None, "zcat --recursive --force ../.ssh"),
        (None, "zcat -r -f -- ."),
        (Some("/.env\n"), "rg --hidden SECRET ./././"),
        (Some("/.env\n"), "rg --hidden SECRET ././src/.."),
        (
            None,
            "git merge-recursive HEAD -- HEAD evil && cat README.md",
        ),
        (None, "git merge-resolve HEAD -- HEAD evil; cat README.md"),
        (None, "cd .. && cd proj && cat ~-/.ssh/id_rsa"),
        (None, "cd .. && cd proj && cat \"$OLDPWD\"/.ssh/id_rsa"),
        (None, "cd .. && cd proj && cd ~- && cat .ssh/id_rsa"),
        (None, "ln -sr .. src/x && cat src/x/.ssh/id_rsa"),
        (None, "ln --relative -s .. src/y && cat src/y/.ssh/id_rsa"),
    ];
    for (ignore, line) in cases {
        if let Some(text) = ignore {
            std::fs::write(proj.join(".gitignore"), text).expect("write .gitignore");
        }
        let d = decide(line);
        let run = s.run(&["bash", "-c", line], &proj, &home, None, 10);
        let mut did = touched(&run, &home, &proj);
        // A file read through a link the line made shows as the link's name: run it
        // again, from the tree as it was (the first run's links and merge undone), for
        // what it prints.
        for link in ["src/x", "src/y"] {
            let _ = std::fs::remove_file(proj.join(link));
        }
        trace::git(&proj, &["reset", "-q", "--hard", "main"]);
        if did.is_empty() && prints_secret(line, &home, &proj) {
            did.push("printed the secret".into());
        }
        failures.extend(check_touching(line, d, &did, &run.stderr, false));
        let _ = std::fs::remove_file(proj.join(".gitignore"));
        for link in ["src/x", "src/y"] {
            let _ = std::fs::remove_file(proj.join(link));
        }
        trace::git(&proj, &["reset", "-q", "--hard", "main"]);
    }
    // The everyday forms stay allowed.
    failures.extend(everyday(
        &decide,
        &[
            "zcat -f README.md",
            "rg fn ./src",
            "rg -l fn .",
            "cd src && cat ../README.md",
            "ln -sr README.md src/r",
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-63: a walked directory spelled with `//` (which the kernel reads as `/`) met no
/// path rule, and find's tests after `-exec` were read as choosing what it is handed.
/// Each line touches a secret when run; each must be denied or asked.
#[test]
fn helper63_doubled_slashes_and_tests_after_the_action() {
    let s = Scratch::new("own-readers-63");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    failures.extend(check_lines(
        &s,
        &decide,
        &[
            "grep -r SECRET ~//",
            "grep -r SECRET .//",
            "grep -r SECRET \"$HOME//\"",
            "grep -rl SECRET ~/.//",
            "rg -uu SECRET ~//",
            "rg --hidden SECRET .//",
            "find ~// -type f -exec cat {} +",
            "cd ~ && grep -r SECRET .//.ssh",
            "tar cf - ~// 2>/dev/null | tar tvf - >/dev/null",
            "git grep --no-index SECRET .//",
            "find . -type f -exec cat {} + -name '*.md'",
            "find . -type f -exec cat {} \\; -name '*.md'",
            "find . -exec grep -l SECRET {} + -type d",
        ],
        (&home, &proj),
        false,
    ));
    // The everyday forms stay allowed.
    failures.extend(everyday(
        &decide,
        &[
            "grep -r fn src//",
            "cat src//a.rs",
            "find . -type f -name '*.md' -exec cat {} +",
            "find src -type f -exec cat {} + -print",
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-64: bash's builtins that open files or run stored commands: `enable NAME`
/// loads NAME when it is no builtin, `bind`'s operands and files are readline lines
/// whose `$include` opens any file, `history -s WORDS; fc -s` runs WORDS.
#[test]
fn helper64_builtins_that_load_include_and_replay() {
    let s = Scratch::new("own-readers-64");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &[
            "enable ~/.ssh/id_rsa",
            "enable -n ./.env",
            "enable -- ../.ssh/id_rsa",
            "bind '$include ~/.ssh/id_rsa' 2>&1",
            "bind -p '$include ../.ssh/id_rsa' >/dev/null 2>&1",
            "echo '$include ~/.ssh/id_rsa' > n.txt; bind -f n.txt 2>&1",
            "history -s cat ~/.ssh/id_rsa; fc -s",
            "history -s rm -f victim; fc -s",
        ],
        (&home, &proj),
        false,
        &victim_again(&proj),
    ));
    // Certain without `fc` or a bind that is opaque anyway: the readings themselves.
    for line in [
        "history -s cat ~/.ssh/id_rsa",
        "bind '$include ~/.ssh/id_rsa'",
        "bind '$ include ../.ssh/id_rsa'",
    ] {
        let d = decide(line);
        if d != Some(Decision::Deny) {
            failures.push(format!("`{line}`: {d:?}, not denied"));
        }
    }
    // The everyday forms are allowed.
    failures.extend(everyday(
        &decide,
        &[
            "help cd",
            "ulimit -a",
            "mapfile -t x < README.md",
            "times",
            "history 5",
            "enable -n kill",
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-66: a program that takes itself to be interactive reads files the line does
/// not name: git pages through less when its output is a terminal (`/dev/ptmx` is one
/// any line can open), and less runs the `LESSOPEN` of a lesskey an earlier call wrote;
/// `read -e` starts readline, which reads `~/.inputrc` and what it `$include`s. `fc`
/// runs a stored command with `OLD=NEW` applied, or `$FCEDIT`. A quoted `~+`, `~-`,
/// `~user` or `~` at a word's start, and any `~` after it, is a name in the directory
/// (a link of that name made earlier leads anywhere: helper-65). git rm's patterns
/// match the index only, git stops outside a repository, `enable -p` loads nothing.
#[test]
fn helper66_terminals_history_editors_and_literal_tildes() {
    let s = Scratch::new("own-readers-66");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    // What an earlier call left, then the line.
    let lesskey = "#env\nLESSOPEN=|-cat ~/.ss?/id_rsa >&2; cat %s\n";
    let inputrc = "$include ~/.ssh/id_rsa\n";
    let cases: &[(&str, &str, &str)] = &[
        (".lesskey", lesskey, "git log > /dev/ptmx"),
        (".lesskey", lesskey, "git -p status > /dev/ptmx"),
        (".lesskey", lesskey, "git log"),
        (".inputrc", inputrc, "read -t 1 -e x < /dev/ptmx"),
        (".inputrc", inputrc, "read -t 1 -re x < /dev/ptmx 2>&1"),
        (".inputrc", inputrc, "bash -c 'read -t 1 -e x' < /dev/ptmx"),
        ("", "", "history -s ls victim; fc -s ls=rm"),
        ("", "", "history -s echo victim; fc -e - echo=rm"),
        ("", "", "history -s victim; FCEDIT=rm fc"),
        ("proj/~+", "", "cat '~+/.ssh/id_rsa'"),
        ("proj/~-", "", "grep -r SECRET \"~-/.ssh\""),
        ("proj/~", "", "cat ./~/.ssh/id_rsa"),
        ("proj/~+", "", "cat src/../~+/.ssh/id_rsa"),
    ];
    for (file, text, line) in cases {
        let _ = std::fs::remove_file(home.join(".lesskey"));
        let _ = std::fs::remove_file(home.join(".inputrc"));
        if let Some(link) = file.strip_prefix("proj/") {
            let _ = std::fs::remove_file(proj.join(link));
            std::os::unix::fs::symlink(&home, proj.join(link)).expect("make the link");
        } else if !file.is_empty() {
            std::fs::write(home.join(file), text).expect("write the file");
        }
        let d = decide(line);
        let run = s.run(&["setsid", "bash", "-c", line], &proj, &home, None, 10);
        let mut did = touched(&run, &home, &proj);
        // (strace shows a path through the link as written.)
        if did.is_empty()
            && (run.stderr.contains("SSH-SECRET") || prints_secret(line, &home, &proj))
        {
            did.push("printed the secret".into());
        }
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
        if let Some(link) = file.strip_prefix("proj/") {
            let _ = std::fs::remove_file(proj.join(link));
        }
        // `git log` pages only on a terminal: not here; the decision still may not
        // allow it while a lesskey is there.
        if *line == "git log" {
            did.push("a lesskey in the home".into());
        }
        failures.extend(check_touching(line, d, &did, &run.stderr, true));
    }
    let _ = std::fs::remove_file(home.join(".inputrc"));
    // A lesskey of key bindings only runs nothing.
    std::fs::write(home.join(".lesskey"), "#command\nj forw-line\n").expect("write");
    if decide("git log") != Some(Decision::Allow) {
        failures.push("`git log` with a lesskey of key bindings: not allowed".into());
    }
    let _ = std::fs::remove_file(home.join(".lesskey"));
    // The everyday forms, and what opens nothing (helper-66's over-blocks).
    std::fs::write(proj.join(".gitignore"), "/.env\n").expect("write .gitignore");
    trace::git(&proj, &["rm", "-q", "--cached", ".env"]);
    trace::git(&proj, &["add", ".gitignore"]);
    trace::git(&proj, &["commit", "-qm", "untrack"]);
    for line in [
        "git log",
        "git --no-pager log",
        "read -r x < README.md",
        "echo done > /dev/null",
        "git rm -n '.e*'",
        "git rm -n ':(glob)**'",
        "git rm -rn '.*'",
        // (git outside a repository: tests/over_blocks.rs, whose home is in no
        // repository; this scratch directory may be inside the clone's.)
        "enable -p .env",
        "enable -ps .env",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-67: `git diff A B` runs as `--no-index` by itself when A or B is outside the
/// work tree or there is no repository, and then prints every file below both; `git
/// apply --check` opens the files its patch names; a quoted `~+` as a directory (`cd`,
/// `pushd`, `env -C`, `tar -C`) names a directory of that name; a command given by
/// `export`, `declare -x`, `env` or `GIT_PROXY_COMMAND`/`TAR_OPTIONS` is one.
#[test]
fn helper67_implied_no_index_checks_tilde_directories_and_exported_commands() {
    let s = Scratch::new("own-readers-67");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let outside = s.root.join("outside");
    std::fs::create_dir_all(&outside).expect("make a directory outside");
    std::fs::write(outside.join("x"), "x\n").expect("write outside");
    std::fs::write(
        proj.join("b.diff"),
        "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-x\n+y\n",
    )
    .expect("write the patch");
    let out = outside.display().to_string();
    let mut failures = Vec::new();
    let cases: Vec<(bool, String)> =
        vec![
        (false, format!("git diff . {out}")),
        (false, format!("git diff --stat -- . {out}")),
        (false, format!("git diff .. {out} >/dev/null")),
        (false, format!("cd .. && git diff proj {out}")),
        (false, "git apply --check b.diff".to_string()),
        (true, "cd '~+' && cat .ssh/id_rsa".to_string()),
        (true, "pushd '~+' >/dev/null && cat .ssh/id_rsa".to_string()),
        (true, "env -C '~+' cat .ssh/id_rsa".to_string()),
        (true, "tar -C '~+' -cf - .ssh | tar -tvf - >/dev/null".to_string()),
        (false, "export FCEDIT=rm; history -s true; fc".to_string()),
        (false, "declare -x FCEDIT='rm -f'; history -s true; fc".to_string()),
        (false, "env FCEDIT=rm bash -c 'history -s true; fc'".to_string()),
        (false, "GIT_PROXY_COMMAND=rm git ls-remote git://zz/y".to_string()),
        (
            false,
            "TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=rm' tar -cf /dev/null README.md"
                .to_string(),
        ),
    ];
    for (link, line) in &cases {
        if *link {
            std::os::unix::fs::symlink(&home, proj.join("~+")).expect("make the link");
        }
        let d = decide(line);
        let (run, did) = run_touching(&s, line, &home, &proj);
        let _ = std::fs::remove_file(proj.join("~+"));
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
        failures.extend(check_touching(line, d, &did, &run.stderr, true));
    }
    // Never certain: the helpers print the passwords they keep.
    failures.extend(not_allowed(
        &decide,
        &["git credential fill", "git credential-cache get"],
    ));
    // The everyday forms, where `.env` is untracked and ignored.
    std::fs::write(proj.join(".gitignore"), "/.env\n").expect("write .gitignore");
    trace::git(&proj, &["rm", "-q", "--cached", ".env"]);
    trace::git(&proj, &["add", ".gitignore"]);
    trace::git(&proj, &["commit", "-qm", "untrack"]);
    failures.extend(everyday(
        &decide,
        &[
            "git diff main",
            "git diff HEAD~1 HEAD",
            "git diff HEAD -- src",
            "git diff src/a.rs README.md",
            "git apply --stat b.diff",
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-68: a value `read` gives an environment variable from data (`TZ=:FILE` makes
/// `ls` open FILE), a prompt's substitution (`PS4` under `set -x`), and a directory
/// named `~+` (either reading of `'~+'` may be bash's: unsure, asked, not denied).
#[test]
fn helper68_values_from_data_prompts_and_tilde_directories() {
    let s = Scratch::new("own-readers-68");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    std::fs::write(
        proj.join("tz.txt"),
        format!(":{}/.ssh/id_rsa\n", home.display()),
    )
    .expect("write tz.txt");
    let mut failures = Vec::new();
    for line in [
        "IFS= read -r TZ < tz.txt; export TZ; ls -l >/dev/null",
        "read -r TZ < tz.txt; export TZ; date >/dev/null",
        "set -x; PS4='$(rm -f victim)'; true",
    ] {
        let d = decide(line);
        let run = s.run(&["bash", "-c", line], &proj, &home, None, 10);
        let did = touched(&run, &home, &proj);
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
        failures.extend(check_touching(line, d, &did, &run.stderr, true));
    }
    // A directory named `~+` that holds a secret: `'~+'` may be it or the project.
    std::fs::create_dir_all(proj.join("~+")).expect("make ~+");
    std::fs::write(proj.join("~+/.env"), "ENV-SECRET\n").expect("write ~+/.env");
    for line in ["grep -r x '~+'", "tar -cf /tmp/o.tar '~+'"] {
        let d = decide(line);
        if d != Some(Decision::Ask) {
            failures.push(format!("`{line}`: {d:?}, not asked"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A repository with an ignored, untracked `.env` (the project's is tracked), in HOME.
fn ignored_env_repo(home: &Path, name: &str) -> std::path::PathBuf {
    let dir = home.join(name);
    std::fs::create_dir_all(dir.join("src")).expect("make the repository");
    std::fs::write(dir.join("src/a.rs"), "fn main() {}\n").expect("write a.rs");
    std::fs::write(dir.join(".gitignore"), ".env\n").expect("write .gitignore");
    trace::git(&dir, &["init", "-q"]);
    trace::git(&dir, &["add", "."]);
    trace::git(&dir, &["commit", "-qm", "init"]);
    std::fs::write(dir.join(".env"), "KEY=ENV-SECRET\n").expect("write .env");
    dir
}

/// helper-69: a repository git refuses (`core.bare = true`, a format on the line of its
/// section's header, a common directory whose format it does not read) makes `git diff
/// A B` a `--no-index` diff, which prints the ignored `.env`: never allowed. A linked work
/// tree's repository is one git uses: `git diff src .` there is allowed and opens nothing.
#[test]
fn helper69_repositories_git_refuses() {
    let s = Scratch::new("own-readers-69");
    let (home, _) = project(&s);
    let mut failures = Vec::new();
    let bare = ignored_env_repo(&home, "bare");
    trace::git(&bare, &["config", "core.bare", "true"]);
    let header = ignored_env_repo(&home, "header");
    let config = header.join(".git/config");
    let text = std::fs::read_to_string(&config).expect("read config");
    std::fs::write(
        &config,
        format!("{text}[core] repositoryformatversion = 9\n"),
    )
    .expect("write config");
    let common = ignored_env_repo(&home, "common");
    let copied = std::process::Command::new("cp")
        .args(["-a", ".git", "../common-git"])
        .current_dir(&common)
        .status()
        .expect("copy .git");
    assert!(copied.success());
    std::fs::rename(home.join("common-git"), common.join(".git/common")).expect("move it in");
    trace::git(
        &common,
        &[
            "config",
            "-f",
            ".git/common/config",
            "core.repositoryformatversion",
            "9",
        ],
    );
    std::fs::write(common.join(".git/commondir"), "common\n").expect("write commondir");
    // A `.git` another user owns (git refuses it whatever owns the work tree). Only root
    // can give it away: CI runs as root.
    let owned = ignored_env_repo(&home, "owned");
    let given = std::process::Command::new("chown")
        .args(["-R", "nobody", ".git"])
        .current_dir(&owned)
        .status()
        .is_ok_and(|s| s.success());
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    assert!(given || !root, "chown as root failed");
    let owned_case = given.then(|| (&owned, "git diff src .".to_string()));
    for (dir, line) in [
        (&bare, format!("git diff src {}", bare.display())),
        (&header, "git diff src .".to_string()),
        (&common, "git diff src .".to_string()),
    ]
    .into_iter()
    .chain(owned_case)
    {
        let decide = decider(&home, dir);
        let d = decide(&line);
        let (run, did) = run_touching(&s, &line, &home, dir);
        failures.extend(check_touching(&line, d, &did, &run.stderr, false));
    }
    // A linked work tree (its `.git` a file naming `.git/worktrees/linked` of another).
    let main = ignored_env_repo(&home, "main");
    trace::git(&main, &["worktree", "add", "-q", "../linked"]);
    let linked = home.join("linked");
    std::fs::write(linked.join(".env"), "KEY=ENV-SECRET\n").expect("write linked .env");
    let decide = decider(&home, &linked);
    failures.extend(everyday_run(&s, &decide, "git diff src .", &home, &linked));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-69: what make runs of values the line gives it, for a rule that allows make:
/// a variable its own rules run as a program (`CC`, as an operand or from the
/// environment), `$(shell CMD)` in an operand however it is spaced, and `MAKEFLAGS`.
#[test]
fn helper69_make_runs_values_of_the_line() {
    let s = Scratch::new("own-readers-69-make");
    let (home, proj) = project(&s);
    std::fs::write(proj.join("x.c"), "int main(void) { return 0; }\n").expect("write x.c");
    let decide = make_decider(
        &home,
        &proj,
        &[json!({"id": "rm", "tool": "shell", "command-prefix": ["rm"], "decision": "deny"})],
    );
    let mut failures = Vec::new();
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &[
            "make CC='rm -f victim;' x.o",
            "make -n 'x := $(shell rm -f victim)'",
            "make -n '.DEFAULT_GOAL=$(shell rm -f victim)'",
            "CC='rm -f victim;' make x.o",
            "export CC='rm -f victim;'; make x.o",
            "MAKEFLAGS='--eval=x:=$(shell rm -f victim)' make -n",
        ],
        (&home, &proj),
        false,
        &|| {
            victim_again(&proj)();
            let _ = std::fs::remove_file(proj.join("x.o"));
        },
    ));
    for line in [
        "make -n CC=cc x.o",
        "make -n CFLAGS='-O2 -g' x.o",
        "make test",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-72: dash's globs match `.` and `..` (bash 5.2's skip them), so a string `sh`
/// runs reads `../.ssh/id_rsa` through `.*/.ssh/id_rsa`; a relative word that climbs
/// above the work tree's top makes `git diff A B` a `--no-index` diff wherever it leads
/// back; `git grep --no-index` with excludes alone walks `.`; `git grep --untracked`
/// skips what git ignores (and reads it with `--no-exclude-standard`).
#[test]
fn helper72_dash_globs_and_words_above_the_top() {
    let s = Scratch::new("own-readers-72");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    failures.extend(check_lines(
        &s,
        &decide,
        &[
            "sh -c 'cat .*/.ssh/id_rsa'",
            "sh -c 'cat .[.]/.ssh/id_rsa'",
            "dash -c 'cat ..*/.ssh/id_rsa'",
            "sed -n '1e cat .?/.ssh/id_rsa' README.md",
            "find . -maxdepth 0 -exec sh -c 'cat .*/.ssh/id_rsa' \\;",
            "sh -c 'grep -r SSH-SECRET .*'",
        ],
        (&home, &proj),
        false,
    ));
    failures.extend(everyday_run(
        &s,
        &decide,
        "sh -c 'wc -l *.md'",
        &home,
        &proj,
    ));
    let repo = ignored_env_repo(&home, "above");
    let decide = decider(&home, &repo);
    failures.extend(check_lines(
        &s,
        &decide,
        &[
            "git diff src ../above",
            "git diff ./../above/src .",
            "git grep --no-index KEY -- ':!*.c'",
            "git grep --untracked --no-exclude-standard KEY",
        ],
        (&home, &repo),
        false,
    ));
    for line in [
        "git diff HEAD -- src",
        "git grep --untracked -l main",
        "git grep --untracked -n main -- src",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &repo));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-72: a make value with shell syntax beyond words is a line a recipe may run
/// that no reading of its words shows whole (`CC='echo ... | base64 -d | sh;'` ran
/// `rm`): a rule that allows make does not allow it.
#[test]
fn helper72_make_values_beyond_words() {
    let s = Scratch::new("own-readers-72-make");
    let (home, proj) = project(&s);
    std::fs::write(proj.join("x.c"), "int main(void) { return 0; }\n").expect("write x.c");
    let decide = make_decider(&home, &proj, &[]);
    let mut failures = Vec::new();
    for line in [
        // `rm -f victim`, in base64.
        "make x.o CC='echo cm0gLWYgdmljdGlt | base64 -d | sh;'",
        "make x.o CC='cat ~/.ssh/id_rsa | cat;'",
    ] {
        let d = decide(line);
        let (_, did) = run_touching(&s, line, &home, &proj);
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
        let _ = std::fs::remove_file(proj.join("x.o"));
        failures.extend(check_not_allowed(line, d, &did));
    }
    for line in [
        "make -n CC=clang-16 x.o",
        "make -n CFLAGS='-DNAME=\"x\" -O2' x.o",
    ] {
        let d = decide(line);
        if d != Some(Decision::Allow) {
            failures.push(format!("`{line}`: {d:?}, not allowed"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-73: dash reads `[^` as a set that holds `^` (only `[!` negates), so
/// `.en[^v]` is `.env` and `.[^.]` is `..` in a string `sh` runs; a loop inside such a
/// string gives its variable the words of its list (they were read as no path: `sh -c
/// 'for f in ~/.ssh/id_rsa; do cat "$f"; done'` was allowed); a make value with a glob is
/// not certain (`CC='/bin/r[m] ...'` names no program a rule reads), and an option with a
/// path glued to it (`CFLAGS=-include.env`) is read for deny rules.
#[test]
fn helper73_dash_classes_loops_in_strings_and_make_values() {
    let s = Scratch::new("own-readers-73");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    failures.extend(check_lines(
        &s,
        &decide,
        &[
            "sh -c 'cat .[^.]/.ssh/id_rsa'",
            "sh -c 'cat .en[^v]'",
            "sed -n '1e cat ../.ss[^h]/id_rsa' README.md",
            "sh -c 'for f in ~/.ssh/id_rsa; do cat \"$f\"; done'",
            "bash -c 'for f in ../.ssh/id_rsa; do cat $f; done'",
            "sh -c 'for f in .[^.]/.ssh/id_rsa; do cat \"$f\"; done'",
        ],
        (&home, &proj),
        false,
    ));
    for line in [
        "for f in README.md src/a.rs; do wc -l \"$f\"; done",
        "sh -c 'for f in README.md; do wc -l \"$f\"; done'",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    std::fs::write(proj.join("x.c"), "int main(void) { return 0; }\n").expect("write x.c");
    let decide = make_decider(
        &home,
        &proj,
        &[
            json!({"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"}),
        ],
    );
    for line in [
        "make x.o CC='/bin/r[m] -f victim #'",
        "make x.o CFLAGS=-include.env",
        "make x.o CFLAGS=-include../.ssh/id_rsa",
    ] {
        let d = decide(line);
        let (_, did) = run_touching(&s, line, &home, &proj);
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
        let _ = std::fs::remove_file(proj.join("x.o"));
        failures.extend(check_not_allowed(line, d, &did));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-74 and helper-75: a loop inside a string a shell runs gets the words of every
/// list of its name (an outer `for f in README.md` gave it its values); a make value's
/// commands joined by commas (gcc's `-wrapper`) and its strings run where make's `-C`
/// moves it are read for deny rules; the word bash hands a program from a glob starts
/// with `-` where its first name does (`*/.ssh/id_rsa` beside a directory `-f..`); a
/// quoted `^` first in a bracket is a member; `.*` may be `..` (bash before 5.2); a
/// loop's variable as a redirection target is each word of its list (helper-76).
#[test]
fn helper74_loops_of_one_name_commas_and_handed_words() {
    let s = Scratch::new("own-readers-74");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    for (line, undecided_ok) in [
        (
            "for f in README.md; do :; done; sh -c 'for f in .env; do cat \"$f\"; done'",
            false,
        ),
        (
            "for f in README.md; do sh -c 'for f in ../.ssh/id_rsa; do cat \"$f\"; done'; done",
            false,
        ),
        ("cat .en[\\^v]", true),
        // helper-76: the variable as a redirection target.
        (
            "bash -c 'for f in ../.ssh/id_rsa; do cat < \"$f\"; done'",
            false,
        ),
        ("sh -c 'for f in .env; do wc -l < $f; done'", false),
    ] {
        let d = decide(line);
        let (run, did) = run_touching(&s, line, &home, &proj);
        failures.extend(check_touching(line, d, &did, &run.stderr, undecided_ok));
    }
    // `date -f FILE` prints each line of FILE it cannot read as a date.
    std::fs::create_dir_all(proj.join("-f../.ssh")).expect("make -f../.ssh");
    std::fs::write(proj.join("-f../.ssh/id_rsa"), "x\n").expect("write a decoy");
    let line = "date */.ssh/id_rsa";
    let d = decide(line);
    let (run, did) = run_touching(&s, line, &home, &proj);
    failures.extend(check_touching(line, d, &did, &run.stderr, true));
    std::fs::remove_dir_all(proj.join("-f..")).expect("remove -f..");
    for line in [
        "cat .*/.ssh/id_rsa",
        "git -c core.pager='cat .*/.ssh/id_rsa #' log",
        "python3 tool.py ~/.ssh/*",
    ] {
        let d = decide(line);
        if !matches!(d, Some(Decision::Deny | Decision::Ask)) {
            failures.push(format!("`{line}`: {d:?}, not denied"));
        }
    }
    failures.extend(everyday_run(&s, &decide, "echo *.md", &home, &proj));
    failures.extend(everyday_run(
        &s,
        &decide,
        "for f in a.log b.log; do echo x > \"$f\"; done",
        &home,
        &proj,
    ));
    std::fs::write(proj.join("x.c"), "int main(void) { return 0; }\n").expect("write x.c");
    let decide = make_decider(
        &home,
        &proj,
        &[
            json!({"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"}),
        ],
    );
    for line in [
        "make x.o 'CFLAGS=-wrapper cat,.env,--'",
        "make -C .. proj/x.o 'CC=cat .ssh/id_rsa #'",
    ] {
        let d = decide(line);
        let (_, did) = run_touching(&s, line, &home, &proj);
        let _ = std::fs::remove_file(proj.join("x.o"));
        failures.extend(check_not_allowed(line, d, &did));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-77: a word made of a variable's value that starts with `-` is an option to
/// the program (`d=-r; grep "$d" SECRET ..` walks `..`; `--from-file=.env` reads it),
/// which the reading of the words as written (an operand with a `$`) did not show: not
/// certain; a command the table reads as unknown until the value is in (`git $d`) is
/// read again with it (`d=grep; git $d --no-index SECRET` walks the directory).
#[test]
fn helper77_values_that_are_options_or_subcommands() {
    let s = Scratch::new("own-readers-77");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &[
            "for f in --from-file=.env; do diff \"$f\" README.md; done",
            "for f in --from-file=../.ssh/id_rsa; do diff \"$f\" README.md; done",
            "d=-r; grep \"$d\" SECRET ..",
            "for f in -r; do grep \"$f\" SECRET ..; done",
            "for f in --pre=rm; do rg \"$f\" x victim; done",
            "sh -c 'for f in -f.env; do grep \"$f\" README.md; done'",
            "d=grep; git $d --no-index SECRET",
            "for s in grep; do git \"$s\" --no-index SECRET; done",
        ],
        (&home, &proj),
        true,
        &victim_again(&proj),
    ));
    for line in [
        "d=src; ls \"$d\"",
        "for t in log; do git $t -1; done",
        "for f in README.md src/a.rs; do grep -c x \"$f\"; done",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    // make's own rules join several values into one command (`$(CC) $(CFLAGS) ...`).
    std::fs::write(proj.join("x.c"), "int main(void) { return 0; }\n").expect("write x.c");
    let decide = make_decider(
        &home,
        &proj,
        &[
            json!({"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"}),
            json!({"id": "rm", "tool": "shell", "command-prefix": ["rm"], "decision": "deny"}),
        ],
    );
    let line = "make x.o CC=env 'CFLAGS=-Srm -f victim --'";
    let d = decide(line);
    let (_, did) = run_touching(&s, line, &home, &proj);
    std::fs::write(proj.join("victim"), "x\n").expect("write victim");
    failures.extend(check_not_allowed(line, d, &did));
    // (grep's walk opens names relative to the directory it reads: not in the trace.)
    let line = "make x.o CC=grep 'CFLAGS=-r SECRET ..'";
    if decide(line) == Some(Decision::Allow) {
        failures.push(format!("`{line}`: allowed"));
    }
    let line = "make x.o CC=cc 'CFLAGS=-O2 -Wall'";
    if decide(line) != Some(Decision::Allow) {
        failures.push(format!("`{line}`: not allowed"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-79: a command whose words hold the values the line gives its variables is
/// read again with them, roles and all: a directory it walks (`d=..; grep -r KEY $d`),
/// a pathspec (`git grep KEY -- $d`), sed's script (`d=r../.ssh/id_rsa; sed $d f`);
/// make's targets are files its rules may write, an archive member's files too (`make
/// 'x.a(../.ssh/id_rsa)'` runs `ar rv x.a ../.ssh/id_rsa`).
#[test]
fn helper79_values_read_again_and_make_targets() {
    let s = Scratch::new("own-readers-79");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    failures.extend(check_lines(
        &s,
        &decide,
        &[
            "d=r../.ssh/id_rsa; sed $d README.md",
            "for d in r.env; do sed \"$d\" README.md; done",
            "d=w.env; sed -n $d README.md",
        ],
        (&home, &proj),
        true,
    ));
    trace::git(&proj, &["checkout", "-q", "--", ".env"]);
    // (Walks open names relative to the directory they read: not in the trace.)
    failures.extend(not_allowed(
        &decide,
        &[
            "d=..; grep -r SECRET $d",
            "for d in ..; do grep -r SECRET \"$d\"; done",
            "d=.; git grep SECRET -- $d",
            "d=.; tar czf /tmp/x.tgz $d",
        ],
    ));
    for line in [
        "d=src; ls \"$d\"",
        "for f in README.md; do sed -n 1p \"$f\"; done",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    let decide = make_decider(
        &home,
        &proj,
        &[
            json!({"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"}),
        ],
    );
    let line = "make 'x.a(../.ssh/id_rsa)'";
    let d = decide(line);
    let (_, did) = run_touching(&s, line, &home, &proj);
    failures.extend(check_not_allowed(line, d, &did));
    let line = "make .env";
    if decide(line) == Some(Decision::Allow) {
        failures.push(format!("`{line}`: allowed"));
    }
    // helper-80: read again, a command would lose its wrappers (`sudo`, `xargs -a F`).
    let decide = decider_with(
        &home,
        &proj,
        json!([
            {"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"},
            {"id": "sudo", "tool": "shell", "command-prefix": ["sudo"], "decision": "deny"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
        ]),
    );
    failures.extend(not_allowed(
        &decide,
        &[
            "d=x; sudo rm \"$d\"",
            "for f in a b; do sudo rm $f; done",
            "d=x; xargs -a ~/.ssh/id_rsa echo $d",
            "d=id_rsa; env -C ~/.ssh cat $d",
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-81: a command given the line's values behind a wrapper (`nice`, `timeout`,
/// `command`) is read again with its wrappers (`d=e; nice sed $d` runs sed's `e`; `d=log;
/// timeout 5 git $d -p` prints the store); the values a string a shell runs gives its own
/// variables are put in (`sh -c 'd=.env; cat $d'` read `$d` as no file); make looks for
/// the targets and members it does not find in `VPATH` (`make 'x.a(.ssh/id_rsa)'
/// VPATH=..` ran `ar rv x.a ../.ssh/id_rsa`).
#[test]
fn helper81_values_behind_wrappers_in_strings_and_vpath() {
    let s = Scratch::new("own-readers-81");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = Vec::new();
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &[
            "d=e; echo rm -f victim | nice sed $d",
            "sh -c 'd=e; echo rm -f victim | nice sed $d'",
            "d=r../.ssh/id_rsa; timeout 5 sed $d README.md",
            "sh -c 'd=.env; cat $d'",
            "bash -c 'd=.ssh/id_rsa; cd ..; cat \"$d\"'",
            "d=grep; timeout 5 git $d --no-index ENV-SECRET",
            "d=show; command git $d HEAD:.env",
        ],
        (&home, &proj),
        true,
        &victim_again(&proj),
    ));
    failures.extend(check_lines(
        &s,
        &decide,
        &["d=w.env; timeout 5 sed -n $d README.md"],
        (&home, &proj),
        true,
    ));
    trace::git(&proj, &["checkout", "-q", "--", ".env"]);
    // (Walks open names relative to the directory they read: not in the trace.)
    failures.extend(not_allowed(
        &decide,
        &[
            "d=..; timeout 5 grep -r SECRET $d",
            "sh -c 'd=..; grep -r SECRET $d'",
            "sh -c 'd=-r; grep $d SECRET ..'",
            "d=..; timeout 5 cp -r $d /tmp/x",
        ],
    ));
    for line in [
        "d=src; timeout 10 grep -rn main $d",
        "sh -c 'd=src; ls \"$d\"'",
        "for f in README.md; do nice wc -l \"$f\"; done",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    let decide = make_decider(
        &home,
        &proj,
        &[
            json!({"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"}),
        ],
    );
    for line in [
        "make 'x.a(.ssh/id_rsa)' VPATH=..",
        "make 'x.a(.ssh/id_rsa)' VPATH=src:..",
    ] {
        let d = decide(line);
        let (_, did) = run_touching(&s, line, &home, &proj);
        let _ = std::fs::remove_file(proj.join("x.a"));
        failures.extend(check_not_allowed(line, d, &did));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-82: file names a program builds from its words. gzip looks for a name to
/// decompress with its suffixes (`zcat dump.sql` opens `dump.sql.gz`; `-S` any text),
/// unzip with `.zip`; make's built-in rules read a target's sources (`make secret` runs
/// `cat secret.sh >secret`) and remake a missing makefile (`Makefile.sh`).
#[test]
fn helper82_names_programs_build() {
    let s = Scratch::new("own-readers-82");
    let (home, proj) = project(&s);
    let run = |args: &[&str]| {
        let ok = std::process::Command::new(args[0])
            .args(&args[1..])
            .current_dir(&proj)
            .status()
            .expect("run a setup command")
            .success();
        assert!(ok, "{args:?}");
    };
    std::fs::write(proj.join("dump.sql"), "DB-SECRET\n").expect("write dump.sql");
    run(&["gzip", "-f", "dump.sql"]);
    std::fs::write(proj.join("k.txt"), "ZIP-SECRET\n").expect("write k.txt");
    run(&["zip", "-q", "keys.zip", "k.txt"]);
    std::fs::remove_file(proj.join("k.txt")).expect("remove k.txt");
    std::fs::write(proj.join("secret.sh"), "echo MAKE-SECRET\n").expect("write secret.sh");
    std::os::unix::fs::symlink("../.ssh/id_rsa", proj.join("notes.sh")).expect("link notes.sh");
    let nomk = proj.join("nomk");
    std::fs::create_dir_all(&nomk).expect("make nomk");
    std::os::unix::fs::symlink("../../.ssh/id_rsa", nomk.join("Makefile.sh"))
        .expect("link Makefile.sh");
    let rules = json!([
        {"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env", "**/*.sql.gz", "**/keys.zip", "**/secret.sh"], "decision": "deny"},
        {"id": "make", "tool": "shell", "command-prefix": ["make"], "decision": "allow"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
    ]);
    let decide = decider_with(&home, &proj, rules.clone());
    let mut failures = check_lines(
        &s,
        &decide,
        &[
            "zcat -f -S nv .e",
            "zcat -f -S sh/id_rsa ../.s",
            "gzip -dcf -S nv .e",
            "zcat dump.sql",
            "gunzip -c dump.sql",
            "unzip -p keys",
            "make secret && cat secret",
            "make notes && cat notes",
        ],
        (&home, &proj),
        false,
    );
    let decide_nomk = decider_with(&home, &nomk, rules);
    failures.extend(check_lines(
        &s,
        &decide_nomk,
        &["make; cat Makefile"],
        (&home, &nomk),
        false,
    ));
    for line in [
        "zcat -f README.md",
        "gzip -c README.md > /dev/null",
        "make test",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-84: a builtin given a variable's name by an expansion sets a variable the
/// text does not name (`x=d; printf -v $x %s .env; cat $d`): not certain; `cp --parents`
/// puts each source's whole path in the destination; gzip strips a suffix in any case
/// (`gunzip -f .env.GZ` writes `.env`) and `q/.gz` has none (`zcat q/.gz` reads
/// `q/.gz.gz`).
#[test]
fn helper84_names_from_expansions_parents_and_suffix_cases() {
    let s = Scratch::new("own-readers-84");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let mut failures = check_lines(
        &s,
        &decide,
        &[
            "d=README.md; x=d; printf -v $x %s .env; cat $d",
            "d=README.md; x=d; read $x <<< .env; cat \"$d\"",
            "d=README.md; x=d; export $x=.env; cat \"$d\"",
            "d=README.md; x=-vd; printf $x %s .env; cat \"$d\"",
            "sh -c 'd=README.md; x=d; export $x=.env; cat \"$d\"'",
        ],
        (&home, &proj),
        true,
    );
    std::fs::create_dir_all(proj.join(".ssh")).expect("make proj/.ssh");
    std::fs::write(proj.join(".ssh/authorized_keys"), "ssh-rsa X\n").expect("write keys");
    std::fs::create_dir_all(proj.join("q")).expect("make q");
    std::os::unix::fs::symlink("../../.ssh/id_rsa.gz", proj.join("q/.gz.gz"))
        .expect("link q/.gz.gz");
    let key = std::fs::read(home.join(".ssh/id_rsa")).expect("read the key");
    let gz = |path: &Path, data: &[u8]| {
        let mut child = std::process::Command::new("gzip")
            .arg("-c")
            .stdin(std::process::Stdio::piped())
            .stdout(std::fs::File::create(path).expect("create a .gz"))
            .spawn()
            .expect("run gzip");
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("gzip's input")
            .write_all(data)
            .expect("write to gzip");
        assert!(child.wait().expect("gzip ends").success());
    };
    gz(&home.join(".ssh/id_rsa.gz"), &key);
    gz(&proj.join(".env.GZ"), b"PWNED=1\n");
    failures.extend(check_lines(
        &s,
        &decide,
        &[
            "cp --parents .ssh/authorized_keys ..",
            "gunzip -f .env.GZ",
            "zcat q/.gz",
        ],
        (&home, &proj),
        true,
    ));
    trace::git(&proj, &["checkout", "-q", "--", ".env"]);
    failures.extend(everyday_run(
        &s,
        &decide,
        "d=README.md; printf '%s\\n' \"$d\"",
        &home,
        &proj,
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-85's round: a destination that is a directory however it is spelled (`cp
/// .ssh-copy "$HOME"` writes `$HOME/NAME`), a tree's contents copied into one (`cp -rT
/// k ..`, `cp -r k/. "$HOME"`), `diff` of directories (it compares their files) or of
/// a file and a directory (`diff id_rsa ~/.ssh` opens `~/.ssh/id_rsa`), and the backups
/// `cp`, `mv` and `ln` make (`cp -b -S v x .en` renames `.en` to `.env`).
#[test]
fn helper85_destinations_diff_and_backups() {
    let s = Scratch::new("own-readers-85");
    let (home, proj) = project(&s);
    let decide = decider(&home, &proj);
    let key = home.join(".ssh/id_rsa");
    let restore = || {
        std::fs::write(&key, "SSH-SECRET\n").expect("write the key");
        let _ = std::fs::remove_file(home.join(".ssh/authorized_keys"));
        let _ = std::fs::remove_dir_all(proj.join("k"));
        let _ = std::fs::remove_dir_all(home.join("o"));
        let _ = std::fs::remove_file(proj.join(".en"));
        trace::git(&proj, &["checkout", "-q", "--", ".env"]);
    };
    let mut failures = check_lines_restoring(
        &s,
        &decide,
        &[
            "mkdir -p k/.ssh && echo ssh-rsa X > k/.ssh/authorized_keys && cp -r k/.ssh \"$HOME\"",
            "mkdir -p k/.ssh && echo X > k/.ssh/id_rsa && cp -rT k ..",
            "mkdir -p k/.ssh && echo X > k/.ssh/id_rsa && cp -r k/. \"$HOME\"",
            "mkdir -p ../o && echo X > ../o/.env && diff ../proj ../o",
            "mkdir -p ../o && echo X > ../o/.env && diff \"$PWD\" ~/o",
            "echo API=x > .en && cp -b -S v README.md .en",
            "echo API=x > .en && mv -b --suffix=v README.md .en; git checkout -q README.md",
            "echo API=x > .en && ln -fb -Sv README.md .en",
        ],
        (&home, &proj),
        true,
        &restore,
    );
    // A rule on the key alone (not the directory): the name the program builds.
    let decide = decider_with(
        &home,
        &proj,
        json!([
            {"id": "key", "tool": "shell", "path": ["~/.ssh/id_rsa"], "decision": "deny"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
        ]),
    );
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &[
            "echo X > id_rsa && diff id_rsa ~/.ssh; rm -f id_rsa",
            "echo X > id_rsa && cp id_rsa ~/.ssh; rm -f id_rsa",
            "echo X > id_rsa && mv id_rsa ../.ssh",
        ],
        (&home, &proj),
        true,
        &restore,
    ));
    for line in [
        "cp README.md src",
        "cp -r src src-copy",
        "diff -u README.md src/a.rs; true",
        "diff -q src src; true",
    ] {
        failures.extend(everyday_run(&s, &decider(&home, &proj), line, &home, &proj));
        let _ = std::fs::remove_file(proj.join("src/README.md"));
        let _ = std::fs::remove_dir_all(proj.join("src-copy"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-87's round: a tree copied with backups renames files below the destination
/// (`cp -rT -S v t .` renamed `./.en` to `./.env`), `diff --from-file=DIR` compares DIR's
/// files (`-N` prints those only there), and the string literals of code no reader reads
/// are read as shell strings for deny rules (`python3 -c 'import os; os.system("cat
/// .env")'`, with a rule that names python3).
#[test]
fn helper87_tree_backups_diff_from_file_and_code_strings() {
    let s = Scratch::new("own-readers-87");
    let (home, proj) = project(&s);
    let decide = decider_with(
        &home,
        &proj,
        json!([
            {"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"},
            {"id": "rm", "tool": "shell", "command-prefix": ["rm"], "decision": "deny"},
            {"id": "python", "tool": "shell", "command-prefix": ["python3"], "decision": "allow"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
        ]),
    );
    let restore = || {
        let _ = std::fs::remove_dir_all(proj.join("t"));
        let _ = std::fs::remove_file(proj.join(".en"));
        let _ = std::fs::remove_file(proj.join(".en~"));
        trace::git(&proj, &["checkout", "-q", "--", ".env"]);
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
    };
    let failures = check_lines_restoring(
        &s,
        &decide,
        &[
            "mkdir t && echo A=1 > t/.en && echo B=2 > .en && cp -rT -S v t .",
            "diff -rN --from-file=.. src",
            "python3 -c 'import os; os.system(\"cat .env\")'",
            "python3 -c 'import os; os.system(\"rm -f victim\")'",
            "python3 -c 'import subprocess; subprocess.run([\"cat\", \".env\"])'",
        ],
        (&home, &proj),
        true,
        &restore,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The branches helper-90's and helper-92's lines move between in PROJ: `other` tracks
/// `.env`, one commit past `main`; `base` (tagged `kept`, checked out) ignores it.
fn branches(proj: &Path) {
    trace::git(proj, &["checkout", "-qb", "other"]);
    std::fs::write(proj.join("README.md"), "hello again\n").expect("write README");
    trace::git(proj, &["commit", "-qam", "more"]);
    trace::git(proj, &["checkout", "-q", "main"]);
    trace::git(proj, &["checkout", "-qb", "base"]);
    trace::git(proj, &["rm", "-q", "--cached", ".env"]);
    std::fs::write(proj.join(".gitignore"), ".env\n").expect("write .gitignore");
    trace::git(proj, &["add", ".gitignore"]);
    trace::git(proj, &["commit", "-qm", "untrack"]);
    trace::git(proj, &["tag", "kept"]);
}

/// git writes the files of the commit it moves to, not only those its index lists
/// (helper-90's session): `git checkout other` overwrote an ignored `.env` that branch
/// `other` tracks. Each revision's tree is read from git's store; a revision git takes
/// from elsewhere (`git pull`, a rebase) is an unsure match; a pathspec or a branch
/// without the file writes nothing of it (`git checkout .` was denied for nothing).
#[test]
fn helper90_revisions_git_writes_out() {
    let s = Scratch::new("own-readers-90");
    let (home, proj) = project(&s);
    branches(&proj);
    let decide = decider(&home, &proj);
    // (`git reset --hard other` moves `base` too.)
    let restore = || {
        trace::git(&proj, &["checkout", "-qf", "base"]);
        trace::git(&proj, &["reset", "-q", "--hard", "kept"]);
        std::fs::write(proj.join(".env"), "[db]\n\tpassword = ENV-SECRET\n").expect("write .env");
    };
    // (helper-91) A branch and a tag of one name: `git checkout` takes the branch.
    trace::git(&proj, &["branch", "amb", "other"]);
    trace::git(&proj, &["tag", "amb", "kept"]);
    // (helper-97) A branch and `refs/NAME`: `git restore -s` takes the branch too.
    trace::git(&proj, &["branch", "amb2", "other"]);
    trace::git(&proj, &["update-ref", "refs/amb2", "kept"]);
    restore();
    let mut failures = check_lines_restoring(
        &s,
        &decide,
        &[
            "git checkout -q other",
            // The branch the last checkout left (`other`, after the restore).
            "git checkout -q -",
            "git checkout -q amb",
            "git restore -s amb2 .",
            // It checks out `other` first, then replays `base`'s commits.
            "git rebase -q other",
            "git switch -q other",
            "git reset -q --hard other",
            "git restore --source=other .",
            "git checkout -q other~0",
            "git checkout -q other -- .",
        ],
        (&home, &proj),
        false,
        &restore,
    );
    // What the store cannot say is unsure: asked, not allowed.
    for line in [
        "git pull -q",
        "git rebase -q --root",
        "git checkout -q other^{commit}",
        "git branch -qf x other && git checkout -q x",
    ] {
        let d = decide(line);
        if d != Some(Decision::Ask) {
            failures.push(format!("`{line}`: {d:?}, not asked"));
        }
    }
    for line in [
        // The last checkout left `base` (the restore's).
        "git checkout -q -",
        "git checkout -q .",
        "git checkout -q -- src",
        "git checkout -q base",
        "git restore .",
        "git reset -q --hard",
        "git status && git checkout -q -b feature",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
        restore();
    }
    // (helper-91) A stash named by its number is `stash@{N}`: one that holds `.env`.
    trace::git(&proj, &["checkout", "-qf", "other"]);
    std::fs::write(proj.join(".env"), "STASHED\n").expect("write .env");
    trace::git(&proj, &["stash", "-q"]);
    restore();
    for line in [
        "git stash pop 0",
        "git stash apply -q 0",
        "git stash branch sb 0",
        "git stash pop",
    ] {
        let d = decide(line);
        if d == Some(Decision::Allow) {
            failures.push(format!("`{line}`: allowed, its stash holds `.env`"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// helper-89: a variable before a program that runs the project's code is text that
/// code may run (make reads it as a variable of its command line: a recipe's `$(PY)`
/// of `PY=rm make test` ran `rm`, and make's built-in rules build commands of several),
/// and a string read generously takes the dot options its program's words name
/// (`-O dotglob`) and its glob alternations written out (`@(.e|.x)nv`).
#[test]
fn helper89_variables_before_make_and_generous_dots() {
    let s = Scratch::new("own-readers-89");
    let (home, proj) = project(&s);
    std::fs::write(
        proj.join("Makefile"),
        "PY ?= python3\ntest:\n\t$(PY) victim\n",
    )
    .expect("write Makefile");
    std::fs::write(proj.join("x.c"), "int x;\n").expect("write x.c");
    let decide = decider_with(
        &home,
        &proj,
        json!([
            {"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "**/.env"], "decision": "deny"},
            {"id": "rm", "tool": "shell", "command-prefix": ["rm"], "decision": "deny"},
            {"id": "named", "tool": "shell", "command-prefix": ["make", "prlimit"], "decision": "allow"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
        ]),
    );
    let restore = || {
        std::fs::write(proj.join("victim"), "x\n").expect("write victim");
        let _ = std::fs::remove_file(proj.join("x.o"));
        let _ = std::fs::remove_file(proj.join("a0"));
    };
    let mut failures = check_lines_restoring(
        &s,
        &decide,
        &[
            "PY=rm make test",
            "PY=rm make -s test",
            "CC=env CFLAGS=-Srm make x.o CPPFLAGS=-f OUTPUT_OPTION=victim",
            "prlimit --nofile=1024 bash -O dotglob -c 'cat *'",
            "prlimit --nofile=1024 bash -O extglob -c 'cat @(.e|.x)nv'",
            // (helper-92) Past the bound on brace expansion: any command, any path.
            "prlimit --nofile=1024 bash -c 'cat {,a}{,a}{,a}{,a}{,a}{,a}{,a}{,a}{,a}.env'",
            "prlimit --nofile=1024 bash -c '{,a}{,a}{,a}{,a}{,a}{,a}{,a}{,a}{,a}rm -f victim'",
            // (helper-92) A value only the string's shell knows.
            "cd ~ && cd proj && prlimit --nofile=1024 bash -c 'cat ~-/.ssh/id_rsa'",
            "export X=~; prlimit --nofile=1024 bash -c 'cat $X/.ssh/id_rsa'",
            // (helper-93) A command's output in backquotes, a directory of the stack.
            "prlimit --nofile=1024 bash -c 'cat `echo .e`nv'",
            "prlimit --nofile=1024 bash -c 'cd ..; pushd / >/dev/null; cat ~1/.ssh/id_rsa'",
            // (helper-94) A command named at run time; a script on a shell's input.
            "prlimit --nofile=1024 bash -c 'cat${IFS}.env'",
            "prlimit --nofile=1024 bash -c 'x=rm; $x -f victim'",
            "prlimit --nofile=1024 bash <<< 'cat .env'",
            "echo 'rm -f victim' | prlimit --nofile=1024 bash",
            // A command named by a glob (the reading's own mark, not a guess from its
            // text: `/usr/bin/r[m]` holds no `$`).
            "prlimit --nofile=1024 bash -c '/usr/bin/r[m] -f victim'",
            // (helper-95) In the string, what bash's own reading leaves undecided: a
            // script from the input, a name `hash -p` gives another program, `xargs`.
            "prlimit --nofile=1024 bash -c 'source /dev/stdin' <<< 'rm -f victim'",
            "echo 'rm -f victim' | prlimit --nofile=1024 bash -c 'sh -s'",
            "echo 'rm -f victim' | prlimit --nofile=1024 bash -c bash",
            "prlimit --nofile=1024 bash -c 'exec bash' <<< 'rm -f victim'",
            "prlimit --nofile=1024 bash -c 'hash -p /bin/rm ls; ls -f victim'",
            "echo .env | prlimit --nofile=1024 bash -c 'xargs cat'",
            // (helper-96) A glob names a program after a `cd`, through `*/`, or a link
            // the string made; bash's table of commands written; zsh's `=rm`; a script
            // a shell reads through a name for a descriptor.
            "prlimit --nofile=1024 bash -c 'cd /bin && r[m] -f \"$OLDPWD/victim\"'",
            "prlimit --nofile=1024 bash -c 'cd / && */r[m] -f \"$OLDPWD/victim\"'",
            "prlimit --nofile=1024 bash -c 'BASH_CMDS[x]=/bin/rm; x -f victim'",
            "prlimit --nofile=1024 zsh -c '=rm -f victim'",
            "prlimit --nofile=1024 bash -c 'bash /dev/stdin <<<\"cat .env\"'",
            "prlimit --nofile=1024 bash -c 'exec 3<<<\"rm -f victim\"; sh /dev/fd/3'",
            // (helper-97) A program the table knows among an unknown one's words.
            "prlimit --nofile=1024 sed 1r.env README.md",
            "prlimit --nofile=1024 sed 's/.*/rm\\x20-f\\x20victim/e' README.md",
        ],
        (&home, &proj),
        true,
        &restore,
    );
    for line in [
        "CC=clang make -n x.o",
        "PY=python3 make -n test",
        "LANG=C make -n test",
        "prlimit --nofile=1024 bash -c 'echo hi'",
        "prlimit --nofile=1024 bash -c \"'echo' hi\"",
        "prlimit --nofile=1024 bash -c 'echo hi' bash",
        "prlimit --nofile=1024 ls '*.md'",
    ] {
        failures.extend(everyday_run(&s, &decide, line, &home, &proj));
        restore();
    }
    // A string outside what the reading reads for certain leaves its command undecided
    // (helper-96), as a line of the call's own: not allowed, not denied.
    for line in [
        "prlimit --nofile=1024 bash -c 'echo {1..3}'",
        "prlimit --nofile=1024 zsh -c 'echo hi'",
    ] {
        if decide(line).is_some() {
            failures.push(format!("`{line}`: {:?}, not undecided", decide(line)));
        }
    }
    // A glob names a link the string made (helper-96): every deny-side rule, unsure.
    for line in ["prlimit --nofile=1024 bash -c 'ln -s /bin/rm a0; ./a* -f victim'"] {
        if decide(line) != Some(Decision::Ask) {
            failures.push(format!("`{line}`: {:?}, not asked", decide(line)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The bytes the hexadecimal HEX spells.
fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).expect("hex"))
        .collect()
}

/// The object name git prints, trimmed.
fn oid(out: Vec<u8>) -> String {
    String::from_utf8_lossy(&out).trim().to_string()
}

/// helper-92: git's store read as git reads it. A loose object forged under the name of
/// a packed tree is not what git reads (it looks in the packs first); the branch the
/// last checkout left is the name up to the reflog message's first ` to `; a tree's
/// directory where an ignored file stands removes the file; a mode written with a
/// leading zero (`040000`) is a directory; `git revert A..B` writes the trees of the
/// commits' parents, A's among them.
#[test]
fn helper92_store_read_as_git_reads_it() {
    let s = Scratch::new("own-readers-92");
    let (home, proj) = project(&s);
    branches(&proj);
    let base = oid(git_out(&proj, &["rev-parse", "base"], b""));
    // `g2`: `.env` a directory. `g9`: a directory `d` holding `.env`, its mode `040000`.
    let x = oid(git_out(
        &proj,
        &["hash-object", "-w", "--stdin"],
        b"SECRET=x\n",
    ));
    let inner = oid(git_out(
        &proj,
        &["mktree"],
        format!("100644 blob {x}\tx\n").as_bytes(),
    ));
    // Each beside `base`'s files, `.gitignore` among them.
    let listed = String::from_utf8_lossy(&git_out(&proj, &["ls-tree", "base"], b"")).to_string();
    let g2 = oid(git_out(
        &proj,
        &["mktree"],
        format!("{listed}040000 tree {inner}\t.env\n").as_bytes(),
    ));
    let holds = oid(git_out(
        &proj,
        &["mktree"],
        format!("100644 blob {x}\t.env\n").as_bytes(),
    ));
    // (`d` sorts between `README.md` and `src`.)
    let mut raw = Vec::new();
    for line in listed.lines() {
        let (head, name) = line.split_once('\t').expect("an entry");
        let fields: Vec<&str> = head.split(' ').collect();
        let [mode, _, id] = fields[..] else {
            panic!("an entry: {line}");
        };
        if name == "src" {
            raw.extend(b"040000 d\0");
            raw.extend(hex_bytes(&holds));
        }
        raw.extend(format!("{} {name}\0", mode.trim_start_matches('0')).as_bytes());
        raw.extend(hex_bytes(id));
    }
    let g9 = oid(git_out(
        &proj,
        &["hash-object", "-w", "--literally", "-t", "tree", "--stdin"],
        &raw,
    ));
    for (branch, tree) in [("g2", &g2), ("g9", &g9)] {
        let commit = oid(git_out(
            &proj,
            &["commit-tree", tree, "-p", &base, "-m", branch],
            b"",
        ));
        trace::git(
            &proj,
            &["update-ref", &format!("refs/heads/{branch}"), &commit],
        );
    }
    let decide = decider(&home, &proj);
    let restore = || {
        trace::git(&proj, &["checkout", "-qf", "base"]);
        trace::git(&proj, &["reset", "-q", "--hard", "kept"]);
        let _ = std::fs::remove_dir_all(proj.join(".env"));
        let _ = std::fs::remove_dir_all(proj.join("d"));
        std::fs::write(proj.join(".env"), "[db]\n\tpassword = ENV-SECRET\n").expect("write .env");
    };
    restore();
    let lines = [
        "git checkout -q g2",
        "git reset -q --hard g2",
        "git checkout -q g9",
    ];
    let mut failures = check_lines_restoring(&s, &decide, &lines, (&home, &proj), false, &restore);
    // A reflog message with two ` to `: git takes `other`.
    trace::git(
        &proj,
        &[
            "update-ref",
            "-m",
            "checkout: moving from other to x to base",
            "HEAD",
            "base",
        ],
    );
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &["git checkout -q -"],
        (&home, &proj),
        false,
        &restore,
    ));
    // Packed, then `other`'s tree forged as a loose file holding `base`'s.
    trace::git(&proj, &["gc", "-q"]);
    let tree = oid(git_out(&proj, &["rev-parse", "other^{tree}"], b""));
    let body = git_out(&proj, &["cat-file", "tree", "base^{tree}"], b"");
    let mut object = format!("tree {}\0", body.len()).into_bytes();
    object.extend(body);
    let loose = proj.join(".git/objects").join(&tree[..2]);
    std::fs::create_dir_all(&loose).expect("make the object directory");
    std::fs::write(
        loose.join(&tree[2..]),
        miniz_oxide::deflate::compress_to_vec_zlib(&object, 6),
    )
    .expect("write the forged object");
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &["git checkout -q other", "git reset -q --hard other"],
        (&home, &proj),
        false,
        &restore,
    ));
    // `ser`: `.env` added, then removed, then another commit; reverting the last two
    // brings back the first's `.env`.
    trace::git(&proj, &["checkout", "-qb", "ser", "kept"]);
    std::fs::write(proj.join(".env"), "SER\n").expect("write .env");
    trace::git(&proj, &["add", "-f", ".env"]);
    trace::git(&proj, &["commit", "-qm", "add"]);
    trace::git(&proj, &["rm", "-q", "--cached", ".env"]);
    trace::git(&proj, &["commit", "-qm", "remove"]);
    std::fs::write(proj.join("README.md"), "third\n").expect("write README");
    trace::git(&proj, &["commit", "-qam", "third"]);
    let tip = oid(git_out(&proj, &["rev-parse", "ser"], b""));
    let at_ser = || {
        trace::git(&proj, &["checkout", "-qf", "ser"]);
        trace::git(&proj, &["reset", "-q", "--hard", &tip]);
        std::fs::write(proj.join(".env"), "[db]\n\tpassword = ENV-SECRET\n").expect("write .env");
    };
    at_ser();
    failures.extend(check_lines_restoring(
        &s,
        &decide,
        &[
            "git revert --no-edit HEAD~2..HEAD",
            "git revert -n HEAD~2..HEAD",
        ],
        (&home, &proj),
        false,
        &at_ser,
    ));
    // (helper-93) A reflog entry deleted first changes what `-` names: `base` now,
    // `other` (which tracks `.env`) once the newest entry is gone.
    trace::git(&proj, &["checkout", "-qf", "other"]);
    trace::git(&proj, &["checkout", "-qf", "base"]);
    trace::git(&proj, &["checkout", "-qf", "kept"]);
    assert_eq!(decide("git checkout -q -"), Some(Decision::Allow));
    for line in [
        "git reflog delete HEAD@{0} && git checkout -q -",
        "git reflog delete HEAD@{0}; git checkout -q @{-1}",
    ] {
        if decide(line) == Some(Decision::Allow) {
            failures.push(format!("`{line}`: allowed"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
