//! The name globs that choose what a walk opens (grep's `--include`, `--exclude`,
//! `--exclude-dir`; find's `-name`, `-iname`) checked against GNU grep and GNU find: globs made of
//! the pieces where fnmatch and other glob readers part (`**`, `[[.n.]]`, `[[=n=]]`,
//! classes, `]` first, ranges, braces, backslashes, `/`) choose whether a walk of a
//! directory holding a `.env` opens it. Where the real program prints the secret, the
//! line is never allowed (helper-52: `grep -r KEY --exclude='**/.env' .` printed it,
//! allowed: the reading matched `**/.env` as globset does, which takes `.env` for it).
//! Where it prints none and the line is denied, an over-block: counted, not failed.
//!
//! `make test` runs a seeded sample (`NAME_GLOBS`, 600 by default).

mod common;
#[path = "common/git.rs"]
mod repo;
#[path = "common/sample.rs"]
mod sample;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::rule::{self, Call, Decision};
use sample::{names, Lcg};
use serde_json::json;
use std::path::Path;
use std::process::Command;

const PIECES: &[&str] = &[
    "*",
    "**",
    "?",
    ".",
    "e",
    "n",
    "v",
    "[n]",
    "[[.n.]]",
    "[[=n=]]",
    "[[:alpha:]]",
    "[!x]",
    "[^x]",
    "[]n]",
    "[m-o]",
    "\\",
    "\\n",
    "/",
    "**/",
    "{",
    "}",
    ",",
    "[",
    "]",
    "config",
    "x",
    ".e",
    "nv",
    // helper-53: a backslash in a bracket is an escape to fnmatch; `[.` and `[=`
    // after other members; braces are themselves.
    "[a\\-z]",
    "[n\\]",
    "[^\\-z]",
    "[\\]-o]",
    "[n.[=.]",
    "[.",
    "[=",
    "-",
    "*.{md,env}",
    "{.env}",
    // find's `-iname` matches in any case.
    "E",
    ".E",
    "NV",
    "[N]",
];

/// A glob of one to five pieces.
fn glob(g: &mut Lcg) -> String {
    (0..=g.next(5)).map(|_| g.pick(PIECES)).collect()
}

/// What `bash -c LINE` prints in DIR.
fn run(dir: &Path, line: &str) -> String {
    let out = Command::new("timeout")
        .args(["5", "bash", "-c", line])
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .output()
        .expect("run bash");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a sample of generated lines did: those that printed the secret, were allowed,
/// were allowed although the secret was printed (bypasses), and were denied for nothing.
#[derive(Default)]
struct Tally {
    secret: usize,
    allowed: usize,
    over: usize,
    bypasses: Vec<String>,
}

impl Tally {
    fn add(&mut self, line: &str, printed: bool, d: Option<Decision>) {
        self.secret += usize::from(printed);
        self.allowed += usize::from(d == Some(Decision::Allow));
        if printed && d == Some(Decision::Allow) {
            self.bypasses.push(line.to_string());
        } else if !printed && d == Some(Decision::Deny) {
            self.over += 1;
        }
    }

    /// No bypass, and more than one in SHARE of the N samples printed the secret, and more
    /// than one in ten was allowed (else the sample tests too little).
    fn check(&self, what: &str, n: usize, share: usize) {
        let Tally {
            secret,
            allowed,
            over,
            bypasses,
        } = self;
        eprintln!(
            "{what}; {secret} printed the secret, {allowed} allowed, {over} denied for nothing"
        );
        assert!(
            bypasses.is_empty(),
            "allowed, and the real program printed the secret:\n{}",
            bypasses.join("\n")
        );
        assert!(
            secret * share > n,
            "too few lines printed the secret: {secret}"
        );
        assert!(allowed * 10 > n, "too few lines were allowed: {allowed}");
    }
}

#[test]
fn name_globs_choose_as_grep_and_find_do() {
    let n: usize = std::env::var("NAME_GLOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let base = common::process_dir("grh-name-globs");
    let _ = std::fs::remove_dir_all(&base);
    // `top`: the secret at the top; `below`: in a directory `config`.
    let top = base.join("top");
    let below = base.join("below");
    for (dir, at) in [(&top, ""), (&below, "config/")] {
        std::fs::create_dir_all(dir.join("config")).expect("mkdir");
        std::fs::write(dir.join(format!("{at}.env")), "KEY SECRET\n").expect("write");
        std::fs::write(dir.join("a.txt"), "KEY plain\n").expect("write");
    }
    assert_eq!(names(&top), [".env", "a.txt", "config"]);
    assert_eq!(names(&below.join("config")), [".env"]);
    let rules = json!([
        {"id": "secrets", "path": "**/.env", "decision": "deny"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let p = compile::compile(rules, Options::default()).expect("policy compiles");
    let decide = |dir: &Path, line: &str| {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": dir});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    };
    // helper-52's lines, then the generated ones.
    for (dir, line) in [
        (&top, "grep -r KEY --exclude='**/.env' ."),
        (&top, "grep -r KEY --include='.e[[.n.]]v' ."),
        (&top, "grep -r KEY --include='.e[[=n=]]v' ."),
        (
            &top,
            "find . -type f -name '.e[[.n.]]v' -exec grep KEY {} +",
        ),
        (&below, "grep -r KEY --exclude-dir='**/config' ."),
    ] {
        assert!(
            run(dir, line).contains("SECRET"),
            "{line} prints the secret"
        );
        assert_ne!(decide(dir, line), Some(Decision::Allow), "{line}");
    }
    let mut g = Lcg(52);
    let mut tally = Tally::default();
    for _ in 0..n {
        let glob = glob(&mut g);
        let quoted = format!("'{glob}'");
        for (dir, line) in [
            (&top, format!("grep -r KEY --exclude={quoted} .")),
            (&top, format!("grep -r KEY --include={quoted} .")),
            (&below, format!("grep -r KEY --exclude-dir={quoted} .")),
            (
                &top,
                format!("find . -name {quoted} -type f -exec cat {{}} +"),
            ),
            (
                &top,
                format!("find . -type f -iname {quoted} -exec cat {{}} +"),
            ),
        ] {
            tally.add(
                &line,
                run(dir, &line).contains("SECRET"),
                decide(dir, &line),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    tally.check(&format!("name globs: {n} globs x 5 lines"), n, 10);
}

/// helper-67: the pathspec patterns of `git grep --untracked` and `--no-index` choose
/// what their walk opens (git matches a pattern against the path from where it runs, its
/// `*` and `?` crossing `/`, or the pattern as written is a directory above it): checked
/// against git on patterns made of the pieces above and `/`, in a repository holding
/// `.env` untracked at the top and below directories whose names patterns meet
/// (`x.rs/`, `[e]/`, `config/`). Where git prints the secret, the line is never allowed.
#[test]
fn git_pathspecs_choose_as_git_does() {
    let n: usize = std::env::var("NAME_GLOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let dir = common::process_dir("grh-git-pathspecs");
    let _ = std::fs::remove_dir_all(&dir);
    for d in ["config", "x.rs", "[e]", "src"] {
        std::fs::create_dir_all(dir.join(d)).expect("mkdir");
    }
    for (f, text) in [
        ("a.txt", "KEY plain\n"),
        ("src/a.rs", "KEY plain\n"),
        (".env", "KEY SECRET\n"),
        ("config/.env", "KEY SECRET\n"),
        ("x.rs/.env", "KEY SECRET\n"),
        ("[e]/.env", "KEY SECRET\n"),
    ] {
        std::fs::write(dir.join(f), text).expect("write");
    }
    repo::git(&dir, &["init", "-q"]);
    repo::git(&dir, &["add", "a.txt", "src"]);
    repo::git(&dir, &["commit", "-qm", "init"]);
    let rules = json!([
        {"id": "secrets", "path": "**/.env", "decision": "deny"},
        {"id": "git", "tool": "shell", "command-prefix": "git", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let p = compile::compile(rules, Options::default()).expect("policy compiles");
    let decide = |line: &str| {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": &dir});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    };
    // The everyday forms: allowed, and git prints no secret. (A quoted pattern is also
    // read as the glob bash would expand unquoted: `'*.rs'` meets `x.rs/.env`.)
    for line in [
        "git grep --untracked -l KEY -- '*.txt'",
        "git grep --no-index -l KEY -- '*.txt' 'src/*'",
    ] {
        assert!(!run(&dir, line).contains("SECRET"), "{line}");
        assert_eq!(decide(line), Some(Decision::Allow), "{line}");
    }
    // Patterns in any case: the walk is read whole.
    for line in [
        "GIT_ICASE_PATHSPECS=1 git grep --untracked -l KEY -- '*.ENV'",
        "git --icase-pathspecs grep --no-index -l KEY -- '*.ENV'",
    ] {
        assert!(run(&dir, line).contains(".env"), "{line} prints a .env");
        assert_ne!(decide(line), Some(Decision::Allow), "{line}");
    }
    let mut g = Lcg(67);
    let mut tally = Tally::default();
    for _ in 0..n {
        let glob: String = (0..=g.next(3)).map(|_| g.pick(PIECES)).collect();
        if glob.contains('\'') {
            continue;
        }
        for mode in ["--untracked", "--no-index"] {
            let line = format!("git grep {mode} -h KEY -- '{glob}'");
            tally.add(&line, run(&dir, &line).contains("SECRET"), decide(&line));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // (Most patterns of a few pieces name no `.env`: about 6% print it.)
    tally.check(&format!("git pathspecs: {n} patterns x 2 lines"), n, 40);
}
