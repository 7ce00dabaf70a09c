//! The walks of rg and `git add`, checked against the real programs: for each spelling
//! of an ignore file below (`.gitignore`, `.ignore`, `.rgignore`, `.git/info/exclude`,
//! one in a directory above the repository, a link), real rg and real git are asked
//! which files they would read, from the top and from a subdirectory, and a line that
//! reads a file a deny rule is about is never allowed.
//! (Where the reading is broader than the program, an over-block, it is counted and
//! printed, not failed.)

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// (the case, the ignore file relative to the repository, its bytes)
const CASES: &[(&str, &str, &[u8])] = &[
    ("plain", ".gitignore", b".env\nk.pem\n"),
    ("bom", ".gitignore", b"\xef\xbb\xbf.env\nk.pem\n"),
    ("bom-second", ".gitignore", b"x\n\xef\xbb\xbf.env\n"),
    ("posix", ".gitignore", b".en[[:alpha:]]\nk.[[:alpha:]]em\n"),
    ("crlf", ".gitignore", b".env\r\nk.pem\r\n"),
    ("caret", ".gitignore", b".[^x]nv\nk.[^x]em\n"),
    ("bang", ".gitignore", b".[!x]nv\nk.[!x]em\n"),
    ("range", ".gitignore", b".[a-f]nv\n[j-l].pem\n"),
    ("bracket-dot", ".gitignore", b"[.]env\n"),
    ("backslash", ".gitignore", b"\\.env\nk\\.pem\n"),
    ("trailing-space", ".gitignore", b".env \nk.pem  \n"),
    ("escaped-space", ".gitignore", b".env\\ \nk.pem\\ \n"),
    ("tab", ".gitignore", b".env\t\nk.pem\t\n"),
    ("two-stars", ".gitignore", b"**/.env\n**/k.pem\n"),
    ("rooted-stars", ".gitignore", b"/**/.env\n"),
    ("stars-only", ".gitignore", b"**\n"),
    ("star", ".gitignore", b"*\n"),
    ("rooted", ".gitignore", b"/.env\n/k.pem\n"),
    ("dot-slash", ".gitignore", b"./.env\n./k.pem\n"),
    ("dot-dot", ".gitignore", b"a/../.env\n"),
    ("dir-only", ".gitignore", b".env/\nk.pem/\n"),
    ("glob", ".gitignore", b"*.env\n*.pem\n"),
    ("prefix", ".gitignore", b".e*\nk*\n"),
    ("question", ".gitignore", b".e?v\nk.p?m\n"),
    ("suffix-star", ".gitignore", b".env*\nk.pem*\n"),
    ("upper", ".gitignore", b".ENV\nK.PEM\n"),
    ("negated", ".gitignore", b"*\n!.env\n"),
    ("negated-back", ".gitignore", b".env\n!.env\n"),
    ("negated-dir", ".gitignore", b"*\n!*/\n"),
    ("comment", ".gitignore", b"#.env\n"),
    ("escaped-hash", ".gitignore", b"\\#x\n.env\n"),
    ("escaped-bang", ".gitignore", b"\\!.env\n.env\n"),
    ("nul", ".gitignore", b".env\0\nk.pem\n"),
    ("no-newline", ".gitignore", b".env"),
    ("dot-ignore", ".ignore", b".env\nk.pem\n"),
    ("dot-ignore-bom", ".ignore", b"\xef\xbb\xbf.env\n"),
    ("rgignore", ".rgignore", b".env\nk.pem\n"),
    ("rgignore-posix", ".rgignore", b".en[[:alpha:]]\n"),
    ("exclude", ".git/info/exclude", b".env\nk.pem\n"),
    ("exclude-bom", ".git/info/exclude", b"\xef\xbb\xbf.env\n"),
    ("exclude-posix", ".git/info/exclude", b".en[[:alpha:]]\n"),
    ("parent-gitignore", "../.gitignore", b".env\nk.pem\n"),
    ("parent-ignore", "../.ignore", b".env\nk.pem\n"),
    ("parent-bom", "../.ignore", b"\xef\xbb\xbf.env\n"),
    // Patterns with a `/`, which rg 13 does not apply below where it starts.
    ("slash-rooted", ".gitignore", b"/sub/.env\n/sub/k.pem\n"),
    ("slash", ".gitignore", b"sub/.env\nsub/k.pem\n"),
    ("slash-deep", ".gitignore", b"sub/**/k.pem\nsub/.e*\n"),
    ("slash-ignore", ".ignore", b"sub/.env\nsub/k.pem\n"),
    ("slash-rgignore", ".rgignore", b"/sub/.env\n/sub/k.pem\n"),
    (
        "slash-exclude",
        ".git/info/exclude",
        b"sub/.env\nsub/k.pem\n",
    ),
    (
        "slash-parent",
        "../.ignore",
        b"repo/sub/.env\nrepo/sub/k.pem\n",
    ),
    ("sub-own", "sub/.gitignore", b".env\nk.pem\n"),
    // Globs rg 13 or git read otherwise than the walker: nested groups and an unclosed
    // class (rg 13 drops the line), braces (git reads them as text).
    ("nested", ".gitignore", b"{.env,{a,b}}\n{k.pem,{a,b}}\n"),
    ("nested-ignore", ".ignore", b"{.env,{a,b}}\n{k.pem,{a,b}}\n"),
    (
        "nested-sub",
        "sub/.rgignore",
        b"{.env,{a,b}}\n{k.pem,{a,b}}\n",
    ),
    ("unclosed", ".ignore", b"{.env,[}\n{k.pem,[}\n"),
    ("unclosed-git", ".gitignore", b"{.env,[}\n{k.pem,[}\n"),
    ("braces", ".gitignore", b"{.env,x}\n{k.pem,x}\n"),
    ("braces-one", ".gitignore", b"{.env}\n.env{,}\nk.pem{,}\n"),
    (
        "braces-exclude",
        ".git/info/exclude",
        b"{.env,x}\n{k.pem,x}\n",
    ),
    ("braces-sub", "sub/.gitignore", b"{.env,x}\n{k.pem,x}\n"),
    ("class-slash", ".gitignore", b"sub[/].env\nsub[/]k.pem\n"),
    ("escaped-blank", ".gitignore", b".env\\  \nk.pem\\  \n"),
    ("sub-own-slash", "sub/.gitignore", b"/.env\n/k.pem\n"),
    // Anchored lines at the top and below (`sub/.gitignore` gets the same).
    ("rooted-both", ".gitignore", b"/.env\n/k.pem\n"),
    // A `.gitignore` that is a link (to `ignored.txt`, which lists the secrets): git
    // does not follow it.
    ("linked", "ignored.txt", b".env\nk.pem\n"),
    ("linked-sub", "sub/ignored.txt", b".env\nk.pem\n"),
    // An excludes file the repository's configuration names (git reads it; the
    // walker reads the global one only).
    ("config-excludes", "excluded.txt", b".env\nk.pem\n"),
];

fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env_remove("RIPGREP_CONFIG_PATH")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .unwrap_or_else(|e| panic!("{program} runs (make deps installs it): {e}"));
    // rg exits 1 when it finds no file, 2 when it drops an ignore line it cannot
    // parse; `git add` 1 when a pathspec it is given is ignored (it still lists what
    // it adds).
    let dropped = String::from_utf8_lossy(&out.stderr).contains("error parsing glob");
    assert!(
        out.status.success()
            || out.status.code() == Some(1)
            || (out.status.code() == Some(2) && dropped),
        "{program} {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A repository for CASE below BASE: `.env` and `k.pem` (what the rules are about)
/// and `code.rs`, the same in `sub/`, and the ignore file (`ignored.txt` in a case
/// named `linked...`, with `.gitignore` beside it a link to it; `excluded.txt`, named by
/// `core.excludesFile`).
fn repo(base: &Path, (name, file, bytes): (&str, &str, &[u8])) -> PathBuf {
    let dir = base.join(name).join("repo");
    std::fs::create_dir_all(dir.join("sub")).expect("create dirs");
    run(&dir, "git", &["init", "-q"]);
    for f in [".env", "k.pem", "code.rs"] {
        std::fs::write(dir.join(f), "KEY=1\n").expect("write file");
        std::fs::write(dir.join("sub").join(f), "KEY=1\n").expect("write file");
    }
    let path = dir.join(file);
    std::fs::write(&path, bytes).expect("write the ignore file");
    if name == "config-excludes" {
        run(
            &dir,
            "git",
            &["config", "core.excludesFile", "excluded.txt"],
        );
    }
    if name == "rooted-both" {
        std::fs::write(dir.join("sub/.gitignore"), bytes).expect("write sub's ignore file");
    }
    if name.starts_with("linked") {
        let link = path.with_file_name(".gitignore");
        std::os::unix::fs::symlink("ignored.txt", link).expect("make the link");
    }
    dir
}

fn policy() -> Policy {
    let rules = json!([
        {"id": "secrets", "path": [".env", "*.pem"], "decision": "deny"},
        {"id": "tools", "command-prefix": ["rg", "git add", "cd"], "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    compile::compile(rules, Options::default()).expect("policy compiles")
}

fn decide(p: &Policy, dir: &Path, line: &str) -> Option<Decision> {
    let value = json!({"name": "shell", "args": {"command": line}, "cwd": dir});
    let call = Call::from_value(&value).expect("call reads");
    eval::evaluate(p, &call).decision
}

/// Whether the listing of OUT (one name a line, maybe quoted by git) names a secret.
fn names_secret(out: &str) -> bool {
    out.lines()
        .any(|l| l.contains(".env") || l.contains("k.pem"))
}

#[test]
fn walks_never_allow_what_the_real_program_reads() {
    let base = std::env::temp_dir().join(format!("grh-ignore-walks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let p = policy();
    let mut bypasses = Vec::new();
    let mut over = Vec::new();
    for case in CASES {
        let dir = repo(&base, *case);
        let checks = [
            ("rg --hidden KEY", run(&dir, "rg", &["--hidden", "--files"])),
            ("rg KEY", run(&dir, "rg", &["--files"])),
            ("git add .", run(&dir, "git", &["add", "--dry-run", "."])),
            (
                "rg --hidden KEY sub",
                run(&dir, "rg", &["--hidden", "--files", "sub"]),
            ),
            ("rg KEY sub", run(&dir, "rg", &["--files", "sub"])),
            (
                "git add sub",
                run(&dir, "git", &["add", "--dry-run", "sub"]),
            ),
            (
                "cd sub && rg --hidden KEY",
                run(&dir.join("sub"), "rg", &["--hidden", "--files"]),
            ),
            // Each ignore file rg drops on its own (helper-61: all were read as every
            // ignore file dropped).
            (
                "rg --hidden --no-ignore-dot KEY",
                run(&dir, "rg", &["--hidden", "--no-ignore-dot", "--files"]),
            ),
            (
                "rg --hidden --no-ignore-vcs KEY",
                run(&dir, "rg", &["--hidden", "--no-ignore-vcs", "--files"]),
            ),
            (
                "rg --hidden --no-ignore-parent KEY",
                run(&dir, "rg", &["--hidden", "--no-ignore-parent", "--files"]),
            ),
            (
                "rg --hidden --no-ignore-exclude --no-ignore-global KEY",
                run(
                    &dir,
                    "rg",
                    &[
                        "--hidden",
                        "--no-ignore-exclude",
                        "--no-ignore-global",
                        "--files",
                    ],
                ),
            ),
            (
                "rg --no-ignore-vcs --ignore-vcs --no-ignore-messages KEY",
                run(
                    &dir,
                    "rg",
                    &[
                        "--no-ignore-vcs",
                        "--ignore-vcs",
                        "--no-ignore-messages",
                        "--files",
                    ],
                ),
            ),
            // Two `.` components first: rg 13 applies no anchored line (helper-61).
            (
                "rg --hidden KEY ./.",
                run(&dir, "rg", &["--hidden", "--files", "./."]),
            ),
            (
                "rg KEY ./././sub/..",
                run(&dir, "rg", &["--files", "./././sub/.."]),
            ),
            // A start with `//` in it: rg 13 applies anchored lines to none, or to some
            // (helper-63: `rg KEY ././/`, `rg KEY .//sub`).
            (
                "rg --hidden KEY .//",
                run(&dir, "rg", &["--hidden", "--files", ".//"]),
            ),
            (
                "rg --hidden KEY .//sub",
                run(&dir, "rg", &["--hidden", "--files", ".//sub"]),
            ),
            ("rg KEY sub//", run(&dir, "rg", &["--files", "sub//"])),
            // A `//` in the pattern is no start (helper-65).
            (
                "rg --hidden 'https://KEY' .",
                run(&dir, "rg", &["--hidden", "--files", "."]),
            ),
        ];
        for (line, listing) in checks {
            let reads = names_secret(&listing);
            let d = decide(&p, &dir, line);
            if reads && d == Some(Decision::Allow) {
                bypasses.push(format!(
                    "{}: `{line}` allowed; it reads:\n{listing}",
                    case.0
                ));
            }
            if !reads && d != Some(Decision::Allow) {
                over.push(format!("{}: `{line}` {d:?}", case.0));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    println!(
        "{} cases x 18 lines; over-blocks ({}):\n{}",
        CASES.len(),
        over.len(),
        over.join("\n")
    );
    assert!(bypasses.is_empty(), "{}", bypasses.join("\n"));
}

/// A `.jj` directory with no `.git` beside it: the walker takes it for a repository and
/// honours `.gitignore` there; rg 13 does not, and reads what it lists.
#[test]
fn jujutsu_directory_is_no_repository_for_rg() {
    let base = std::env::temp_dir().join(format!("grh-ignore-jj-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let p = policy();
    for (top, start) in [("", ""), ("", "sub"), ("sub", "sub")] {
        let dir = base.join(format!("jj-{}-{}", top.len(), start.len()));
        std::fs::create_dir_all(dir.join("sub")).expect("create dirs");
        std::fs::create_dir_all(dir.join(top).join(".jj")).expect("create .jj");
        for f in [".env", "k.pem", "code.rs"] {
            std::fs::write(dir.join(f), "KEY=1\n").expect("write file");
            std::fs::write(dir.join("sub").join(f), "KEY=1\n").expect("write file");
        }
        std::fs::write(dir.join(top).join(".gitignore"), ".env\nk.pem\n").expect("write");
        let at = dir.join(start);
        for (line, args) in [
            ("rg --hidden KEY", &["--hidden", "--files"][..]),
            ("rg KEY", &["--files"][..]),
        ] {
            let listing = run(&at, "rg", args);
            assert!(
                names_secret(&listing),
                "{line} in {}: {listing}",
                at.display()
            );
            let d = decide(&p, &at, line);
            assert_ne!(d, Some(Decision::Allow), "{line} in {}", at.display());
        }
        // With a `.git` beside the `.jj`, rg honours `.gitignore` and the walk is read.
        if top.is_empty() {
            run(&dir, "git", &["init", "-q"]);
            assert!(!names_secret(&run(&at, "rg", &["--hidden", "--files"])));
            assert_eq!(decide(&p, &at, "rg --hidden KEY"), Some(Decision::Allow));
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// A line that changes the ignore files before rg or `git add` walks (`rm .gitignore;
/// rg --hidden KEY`) is never allowed when the walk, run for real after the change,
/// reads a secret; and a line that changes none is decided as the walk alone.
#[test]
fn ignore_files_changed_by_the_line() {
    let base = std::env::temp_dir().join(format!("grh-ignore-changed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let rules = json!([
        {"id": "secrets", "path": [".env", "*.pem"], "decision": "deny"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
        {"id": "git", "tool": "shell", "command-prefix": "git", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let p = compile::compile(rules, Options::default()).expect("policy compiles");
    let lines = [
        ("rm .gitignore; ", "rg --hidden --files", "rg --hidden KEY"),
        ("echo '!.env' >> .gitignore; ", "rg --files", "rg KEY"),
        (
            "echo '!.env' > .ignore; ",
            "rg --hidden --files",
            "rg --hidden KEY",
        ),
        ("mv .git g; ", "rg --hidden --files", "rg --hidden KEY"),
        ("rm .git*; ", "rg --hidden --files", "rg --hidden KEY"),
        (
            "echo '!.env' >> .gitignore; ",
            "git add --dry-run .",
            "git add .",
        ),
        (
            "echo x > notes.txt; ",
            "rg --hidden --files",
            "rg --hidden KEY",
        ),
        // Named by a pattern, by `{}`, or not at all.
        (
            "find . -maxdepth 1 -name '.giti*' -delete; ",
            "rg --hidden --files",
            "rg --hidden KEY",
        ),
        (
            "find . -maxdepth 1 -name '.giti*' -exec rm {} +; ",
            "rg --hidden --files",
            "rg --hidden KEY",
        ),
        (
            "git init -q sub; ",
            "rg --hidden --files",
            "rg --hidden KEY",
        ),
    ];
    let mut wrong = Vec::new();
    let mut allowed = 0;
    for (k, (before, real, read)) in lines.iter().enumerate() {
        let dir = repo(
            &base.join(k.to_string()),
            ("plain", ".gitignore", b".env\nk.pem\n"),
        );
        let line = format!("{before}{read}");
        let d = decide(&p, &dir, &line);
        let listing = run(&dir, "bash", &["-c", &format!("{before}{real}")]);
        if names_secret(&listing) && d == Some(Decision::Allow) {
            wrong.push(format!("`{line}` allowed; it reads:\n{listing}"));
        }
        if d == Some(Decision::Allow) {
            allowed += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The line that changes no ignore file stays allowed.
    assert_eq!(
        allowed, 1,
        "only `echo x > notes.txt; rg --hidden KEY` is allowed"
    );
}

/// rg's `--ignore-file FILE` adds FILE's lines to its ignore rules, `!` lines too: a
/// whitelisted hidden file is searched (`rg --ignore-file <(echo '!.env') KEY` printed
/// the secret, allowed). Whatever FILE holds, where it comes from (a process
/// substitution, a file the line writes, one already there) and however the option is
/// spelled, a line whose real rg lists a secret is never allowed.
#[test]
fn ignore_file_option() {
    let base = std::env::temp_dir().join(format!("grh-ignore-file-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let rules = json!([
        // `.env` only: the walk of every file also meets the ignored `k.pem`, which
        // would hide whether the dotfile is seen.
        {"id": "secrets", "path": [".env"], "decision": "deny"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let p = compile::compile(rules, Options::default()).expect("policy compiles");
    // (what the line runs first, the option and its value)
    let lines = [
        ("", "--ignore-file <(echo '!.env')"),
        ("", "--ignore-file=<(printf '%s\\n' '!.env')"),
        ("echo '!.env' > x.txt; ", "--ignore-file x.txt"),
        ("", "--ignore-file notes.txt"),
        ("", "--ignore-file=notes.txt"),
        ("", "--ignore-file notes.txt --ignore-file-case-insensitive"),
    ];
    let mut wrong = Vec::new();
    let mut seen = 0;
    for (k, (before, option)) in lines.iter().enumerate() {
        let dir = repo(
            &base.join(k.to_string()),
            ("plain", ".gitignore", b"k.pem\n"),
        );
        // A file an earlier call left, whitelisting the hidden secret.
        std::fs::write(dir.join("notes.txt"), "!.env\n").expect("write notes.txt");
        let listing = run(
            &dir,
            "bash",
            &["-c", &format!("{before}rg --files {option}")],
        );
        let line = format!("{before}rg {option} KEY");
        if listing.lines().any(|l| l.contains(".env")) {
            seen += 1;
            if decide(&p, &dir, &line) == Some(Decision::Allow) {
                wrong.push(format!("`{line}` allowed; rg --files lists:\n{listing}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(seen, lines.len(), "every line's real rg lists a secret");
}

/// `git grep` with a pattern pathspec reads the files git tracks that match it, below
/// where the pattern starts: never allowed where the real git grep prints a secret,
/// never denied where it prints none and no secret is tracked (an ignored `.env`).
/// (With a tracked `.env`, the reading walks every tracked file below the start: a
/// pattern that does not match it is an over-block, printed, not failed.)
#[test]
fn git_grep_pattern_pathspecs() {
    let base = std::env::temp_dir().join(format!("grh-git-grep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let rules = json!([
        {"id": "secrets", "path": [".env", "*.pem"], "decision": "deny"},
        {"id": "git", "tool": "shell", "command-prefix": "git", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let p = compile::compile(rules, Options::default()).expect("policy compiles");
    let lines = [
        "git grep -n KEY -- '*.rs'",
        "git grep -n KEY -- 'sub/*.rs'",
        "git grep -n KEY -- '*.env'",
        "git grep -n KEY -- '*'",
        "git grep -n KEY -- '.e*'",
        "git grep -n KEY -- 'sub/*'",
        "git grep -n KEY -- ':!*.md'",
        "git grep -n KEY -- ':(exclude)code.rs'",
        "git grep -n KEY -- ':^*.rs' sub",
        "git grep -n KEY -- ':/!sub'",
    ];
    let mut wrong = Vec::new();
    for tracked in [false, true] {
        let dir = repo(
            &base.join(tracked.to_string()),
            ("plain", ".gitignore", b".env\nk.pem\n"),
        );
        run(&dir, "git", &["add", "."]);
        if tracked {
            run(&dir, "git", &["add", "-f", ".env", "sub/.env"]);
        }
        for line in lines {
            let d = decide(&p, &dir, line);
            let printed = run(&dir, "bash", &["-c", line]);
            let reads = names_secret(&printed);
            if reads && d == Some(Decision::Allow) {
                wrong.push(format!(
                    "`{line}` (tracked .env: {tracked}) allowed; it prints:\n{printed}"
                ));
            }
            if !reads && d == Some(Decision::Deny) {
                let why = format!("`{line}` (tracked .env: {tracked}) denied; it prints no secret");
                if tracked {
                    println!("over-block: {why}");
                } else {
                    wrong.push(why);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A tracked directory whose place a symbolic link took (`git checkout` of a branch
/// where it is a link, then `git reset`): `git grep` reads the tracked files through
/// it, so the line is never allowed where a rule is about where the link leads.
#[test]
fn git_grep_through_a_linked_directory() {
    let base = std::env::temp_dir().join(format!("grh-git-grep-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let outside = base.join("outside");
    let dir = base.join("repo");
    std::fs::create_dir_all(&outside).expect("create dirs");
    std::fs::create_dir_all(dir.join("cfg")).expect("create dirs");
    std::fs::write(outside.join("config"), "KEY=secret\n").expect("write file");
    std::fs::write(dir.join("cfg/config"), "x\n").expect("write file");
    run(&dir, "git", &["init", "-q"]);
    run(&dir, "git", &["add", "cfg/config"]);
    std::fs::remove_dir_all(dir.join("cfg")).expect("remove cfg");
    std::os::unix::fs::symlink(&outside, dir.join("cfg")).expect("make the link");
    let rules = json!([
        {"id": "outside", "path": format!("{}/**", outside.display()), "decision": "deny"},
        {"id": "git", "tool": "shell", "command-prefix": "git", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let p = compile::compile(rules, Options::default()).expect("policy compiles");
    let mut wrong = Vec::new();
    for line in [
        "git grep -n KEY",
        "git grep -n KEY -- '*'",
        "git grep -n KEY -- 'c*'",
    ] {
        let printed = run(&dir, "bash", &["-c", line]);
        assert!(
            printed.contains("secret"),
            "git grep reads through the link: {printed}"
        );
        if decide(&p, &dir, line) == Some(Decision::Allow) {
            wrong.push(line);
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(
        wrong.is_empty(),
        "allowed, reading through the link: {wrong:?}"
    );
}

/// GNU tar's `--exclude` applies to the names after it only: after them it skips
/// nothing (tar says so and reads the file). Real tar lists what it archives; a line
/// whose archive holds the secret is never allowed, one whose does not is, but for an
/// exclusion between two names, which the reading drops.
#[test]
fn tar_excludes_apply_to_the_names_after_them() {
    let dir = std::env::temp_dir().join(format!("grh-tar-exclude-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).expect("make dir");
    std::fs::write(dir.join("sub/.env"), "SECRET=1\n").expect("write");
    std::fs::write(dir.join("sub/a.txt"), "a\n").expect("write");
    std::fs::write(dir.join("b.txt"), "b\n").expect("write");
    let rules = json!([
        {"id": "secrets", "path": ".env", "decision": "deny"},
        {"id": "tar", "command-prefix": "tar", "decision": "allow"},
    ]);
    let p = compile::compile(
        rule::rules_from_value(&rules).expect("rules read"),
        Options::default(),
    )
    .expect("policy compiles");
    let lines: &[&[&str]] = &[
        &["--exclude=.env", "-cvf", "/dev/null", "sub"],
        &["-cvf", "/dev/null", "--exclude=.env", "sub", "b.txt"],
        &["-cvf", "/dev/null", "sub", "--exclude=.env"],
        &["-cvf", "/dev/null", "b.txt", "--exclude", ".env", "sub"],
        &["-cvf", "/dev/null", "sub", "--exclude", ".env", "b.txt"],
        &["cvf", "/dev/null", "sub", "--exclude=.env"],
    ];
    let (mut wrong, mut over) = (Vec::new(), Vec::new());
    for args in lines {
        // tar exits 2 after its "has no effect" warning; it has archived by then.
        let out = Command::new("tar")
            .args(*args)
            .current_dir(&dir)
            .output()
            .expect("tar runs");
        let listing = String::from_utf8_lossy(&out.stdout).into_owned();
        let reads = names_secret(&listing);
        let line = format!("tar {}", args.join(" "));
        let d = decide(&p, &dir, &line);
        if reads && d == Some(Decision::Allow) {
            wrong.push(format!("`{line}` {d:?}; tar archived:\n{listing}"));
        }
        if !reads && d != Some(Decision::Allow) {
            over.push(format!("`{line}` {d:?}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // An exclusion between two names is dropped for both (the one after it skips it).
    assert_eq!(
        over,
        ["`tar -cvf /dev/null b.txt --exclude .env sub` Some(Deny)"],
        "over-blocks"
    );
}

/// An earlier call may leave a FIFO where git or rg reads a small file (`mkfifo
/// .gitignore`, `.git/HEAD`, `.git/config`, `info/exclude`, a `commondir`): the
/// decision runs in Emacs's own thread and must come back, never waiting on it; and
/// what it cannot read is never allowed where a secret may be read.
#[test]
fn a_fifo_never_stalls_the_decision() {
    let base = std::env::temp_dir().join(format!("grh-ignore-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let places = [
        ".gitignore",
        ".ignore",
        ".rgignore",
        "sub/.gitignore",
        "sub/.rgignore",
        ".git/info/exclude",
        ".git/HEAD",
        ".git/config",
        ".git/commondir",
        ".git/index",
    ];
    let p = std::sync::Arc::new(policy());
    for (i, place) in places.iter().enumerate() {
        let dir = base.join(format!("f{i}"));
        std::fs::create_dir_all(dir.join("sub")).expect("create dirs");
        run(&dir, "git", &["init", "-q"]);
        for f in [".env", "code.rs", "sub/.env", "sub/code.rs"] {
            std::fs::write(dir.join(f), "KEY=1\n").expect("write file");
        }
        let fifo = dir.join(place);
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success(), "mkfifo {place}");
        for (line, at) in [
            ("rg KEY", ""),
            ("rg --hidden KEY", ""),
            ("rg --hidden KEY", "sub"),
            ("git add -A", ""),
            ("git add sub", ""),
            ("rg -uu KEY", ""),
        ] {
            let (tx, rx) = std::sync::mpsc::channel();
            let (p, at) = (p.clone(), dir.join(at));
            std::thread::spawn(move || {
                let _ = tx.send(decide(&p, &at, line));
            });
            let d = rx
                .recv_timeout(std::time::Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("`{line}` with a FIFO at {place}: no decision"));
            // `--hidden` reads `.env` unless an ignore file, here unreadable, says no.
            if line.contains("--hidden") || line.starts_with("git add") || line.contains("-uu") {
                assert_ne!(d, Some(Decision::Allow), "`{line}` with a FIFO at {place}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}
