//! What `find -exec CMD {}` and `fd -x`/`-X CMD` hand on is chosen by the names and
//! types they are given (`-name '*.md'`, `-type d`, `fd -e md`), but a command that walks
//! a directory it is handed (`grep -r`, `rm -r`) opens every file below it: `find . -type
//! d -exec grep -r KEY {} +` printed `x.md/.env`, allowed, before the reading knew.
//! Each line runs in bash in a project whose directory `x.md` holds a `.env`; where the
//! real program prints the secret the line is never allowed, and the everyday forms
//! (`-type f`, a command that reads only the files it is given) stay allowed.

mod common;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::Path;
use std::process::Command;

/// fd's name here: `fdfind` on Debian, `fd` elsewhere.
fn fd_name() -> &'static str {
    ["fdfind", "fd"]
        .into_iter()
        .find(|f| Command::new(f).arg("--version").output().is_ok())
        .expect("fd is installed (make deps)")
}

/// What `bash -c LINE` prints in DIR.
fn run(dir: &Path, line: &str) -> String {
    let out = Command::new("timeout")
        .args(["5", "bash", "-c", line])
        .current_dir(dir)
        .output()
        .expect("run bash");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The decision on a line run in DIR under a policy that denies the paths SECRETS and
/// allows every other command.
fn decider(secrets: &[&str], dir: &Path) -> impl Fn(&str) -> Option<Decision> {
    let rules = json!([
        {"id": "secrets", "path": secrets, "decision": "deny"},
        {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let p = compile::compile(rules, Options::default()).expect("policy compiles");
    let dir = dir.to_path_buf();
    move |line: &str| {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": &dir});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    }
}

/// A project in BASE (made anew) whose directory `x.md` holds a `.env`, with `docs/y.md`,
/// `a.txt` and an empty `out`.
fn project(base: &Path) -> std::path::PathBuf {
    let _ = std::fs::remove_dir_all(base);
    let proj = base.join("proj");
    for d in ["x.md", "docs", "out"] {
        std::fs::create_dir_all(proj.join(d)).expect("mkdir");
    }
    std::fs::write(proj.join("x.md/.env"), "KEY SECRET\n").expect("write");
    std::fs::write(proj.join("docs/y.md"), "KEY plain\n").expect("write");
    std::fs::write(proj.join("a.txt"), "KEY plain\n").expect("write");
    proj
}

/// LINES run in bash in PROJ and decided by DECIDE: those allowed whose real run read
/// the secret, how many read it, how many were allowed.
fn judge(
    proj: &Path,
    decide: &dyn Fn(&str) -> Option<Decision>,
    lines: &[String],
) -> (Vec<String>, usize, usize) {
    let (mut bypasses, mut secret, mut allowed) = (Vec::new(), 0, 0);
    for line in lines {
        // `cp -r` copies what it reads: the copy shows it.
        let _ = std::fs::remove_dir_all(proj.join("out"));
        std::fs::create_dir_all(proj.join("out")).expect("mkdir");
        let printed =
            run(proj, line).contains("SECRET") || run(proj, "grep -rs KEY out").contains("SECRET");
        let d = decide(line);
        secret += usize::from(printed);
        allowed += usize::from(d == Some(Decision::Allow));
        if printed && d == Some(Decision::Allow) {
            bypasses.push(line.clone());
        }
    }
    (bypasses, secret, allowed)
}

/// The names chosen, the commands run on them, and the forms of handing them on.
const FILTERS: &[&str] = &[
    "",
    "-name '*.md'",
    "-iname '*.MD'",
    "-name 'x*'",
    "-type d",
    "-type f",
    "-type l",
    "-type f,d",
    "-type f -name '*.md'",
    "-type f -o -name '*.md'",
    "-name '*.md' -type d",
    // helper-56: `-o`, `,` and `-prune` hand on what the tests before them reject.
    "-type d -o",
    "-name '*.md' -o",
    "-name x.md -prune -o",
    "-name '*.md' ,",
    "( -type d ) -o",
    // helper-61: find's other tests choose too.
    "-empty",
    "-size -1k",
    "-mindepth 2",
    "-maxdepth 1",
    "-newer a.txt",
    "-false",
    // `!` and `-o`, handed on through xargs too (`\( ... \) -exec`).
    "! -name '*.md'",
    "-type f -not -name '*.txt'",
    "! -path './x.md/*'",
    "( -name '*.md' -o -name '*.txt' )",
    "-name x.md -prune -o -type f",
    "-name x.md -prune -o -type f -print",
];
const COMMANDS: &[&str] = &[
    "grep -r KEY",
    "grep -rl KEY",
    "grep -l KEY",
    "cat",
    "ls -R",
    "cp -r -t out",
    "head -n 5",
];
const FD_FILTERS: &[&str] = &[
    "",
    "-e md",
    "-t d",
    "-t f",
    "-e md -t f",
    "-H -e md",
    // fd's extensions hold in any case, with a leading `.` or not, a directory's name
    // too; its kinds are spelled long too.
    "-H -e MD",
    "-H -e .md -t f",
    "-H -t file -e md",
    "-H -t directory",
    "-H -t x",
    "-H -t e",
    "-H -e md -e txt",
    "-H -t f -t d",
];

#[test]
fn a_directory_handed_on_is_walked_by_a_command_that_walks() {
    let base = common::process_dir("grh-find-hands");
    let proj = project(&base);
    let decide = decider(&["**/.env"], &proj);
    let fd = fd_name();
    let mut lines = Vec::new();
    for f in FILTERS {
        for c in COMMANDS {
            lines.push(format!("find . {f} -exec {c} {{}} +"));
            lines.push(format!("find . {f} -exec {c} {{}} \\;"));
        }
    }
    // Tests after the action choose nothing of what it is handed (helper-63: `find .
    // -type f -exec cat {} + -name '*.md'` cats every file).
    for f in [
        "-name '*.md'",
        "-iname '*.MD'",
        "-type d",
        "-name '*.md' -type d",
    ] {
        for before in ["", "-type f", "-name '*.md'"] {
            for c in ["cat", "grep -l KEY", "grep -r KEY"] {
                lines.push(format!("find . {before} -exec {c} {{}} + {f}"));
                lines.push(format!("find . {before} -exec {c} {{}} \\; {f}"));
            }
        }
    }
    for f in FD_FILTERS {
        for c in COMMANDS {
            lines.push(format!("{fd} {f} -X {c}"));
            lines.push(format!("{fd} {f} -x {c}"));
        }
    }
    let (bypasses, secret, allowed) = judge(&proj, &decide, &lines);
    eprintln!(
        "find and fd handing on: {} lines; {secret} read the secret, {allowed} allowed",
        lines.len()
    );
    assert!(
        bypasses.is_empty(),
        "allowed, and the real program read the secret:\n{}",
        bypasses.join("\n")
    );
    assert!(secret >= 20, "too few lines read the secret: {secret}");
    // The everyday forms are allowed.
    for line in [
        "find . -type f -name '*.md' -exec grep -r KEY {} +",
        "find . -name '*.md' -exec grep -l KEY {} +",
        "find . -name '*.md' -exec cat {} +",
        "find . -type d -exec ls -R {} +",
        // helper-56 F9: fd's `-e` and `-t` choose what it hands on.
        "fdfind -t f -e md -X grep -r KEY",
        "fdfind -H -e md -t f -x grep -l KEY",
        "fdfind -H -e md -X cat",
        "fdfind -H -t d -X ls",
        "fd -H --type directory --exec-batch ls",
    ] {
        assert_eq!(decide(line), Some(Decision::Allow), "{line}");
    }
    // find's tests the reading does not follow: where they hand on no secret, the match
    // on the walk is unsure, never a certain deny (helper-61).
    for f in ["-false", "-empty", "-size +1M", "-mindepth 3", "-quit"] {
        let line = format!("find . -type f {f} -exec cat {{}} +");
        assert!(!run(&proj, &line).contains("SECRET"), "{line}");
        assert_eq!(decide(&line), Some(Decision::Ask), "{line}");
    }
    // A directory named by the extension is handed on, and walked.
    for line in [
        "fdfind -H -e md -X grep -r KEY",
        "fdfind -H -e md -x grep -r KEY",
    ] {
        assert_ne!(decide(line), Some(Decision::Allow), "{line}");
        assert!(run(&proj, line).contains("SECRET"), "{line}");
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// fd hands its command what it finds as its names are, links among them (which the
/// command opens through), and puts the names into any word holding a placeholder
/// (helper-57): those lines are never allowed where the real fd prints the secret; `-e`
/// drops every leading dot of its value.
#[test]
fn fd_hands_links_and_names_in_words() {
    let base = common::process_dir("grh-fd-hands");
    let _ = std::fs::remove_dir_all(&base);
    let proj = base.join("proj");
    for d in ["docs", "h", "sub"] {
        std::fs::create_dir_all(proj.join(d)).expect("mkdir");
    }
    std::fs::create_dir_all(base.join(".ssh")).expect("mkdir");
    std::fs::write(base.join(".ssh/id_rsa"), "KEY SECRET\n").expect("write");
    std::fs::write(proj.join("sub/k.pem"), "KEY SECRET\n").expect("write");
    std::fs::write(proj.join("docs/y.md"), "KEY plain\n").expect("write");
    std::fs::write(proj.join("h/.env"), "KEY SECRET\n").expect("write");
    let decide = decider(&["**/.ssh/**", "**/.env", "**/*.pem"], &proj);
    let fd = fd_name();
    let mut reads = vec![
        format!("{fd} -e ..pem -X cat"),
        format!("{fd} --extension=...pem -x cat"),
        format!("{fd} -t d '^h$' -x cat {{}}/.env"),
        format!("{fd} -t d '^h$' -X cat {{//}}/h/.env"),
        format!("{fd} -t d '^h$' -x cat ../.ss{{/}}/id_rsa"),
    ];
    let plain = [
        format!("{fd} -e md -X cat"),
        format!("{fd} -t f -e md -X cat"),
        // `-e env` matches no name that is only `.env`.
        format!("{fd} -H -e env -X cat"),
    ];
    // Links: one to the key among the files, one to its directory.
    std::os::unix::fs::symlink(base.join(".ssh/id_rsa"), proj.join("docs/notes.md")).expect("link");
    std::os::unix::fs::symlink(base.join(".ssh"), proj.join("lnkdir")).expect("link");
    reads.extend([
        format!("{fd} -e md -X cat"),
        format!("{fd} -t l -X cat"),
        format!("{fd} -X cat"),
        format!("{fd} -L -X cat"),
        format!("{fd} -L -t f -X cat"),
        format!("{fd} -t l -x grep -r KEY"),
    ]);
    for line in &reads {
        assert!(
            run(&proj, line).contains("SECRET"),
            "{line} reads no secret"
        );
        assert_ne!(decide(line), Some(Decision::Allow), "{line}");
    }
    // With no link: the everyday forms are allowed; `-t f` keeps links out.
    std::fs::remove_file(proj.join("docs/notes.md")).expect("rm");
    std::fs::remove_file(proj.join("lnkdir")).expect("rm");
    for line in &plain {
        assert!(!run(&proj, line).contains("SECRET"), "{line}");
        assert_eq!(decide(line), Some(Decision::Allow), "{line}");
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// The walk that looks below a directory for what a rule is about gives up on nothing
/// silently: a tree whose paths are too long to name (GNU grep and tar go down by
/// handles, helper-56) is not read, nor a pattern of `find -iname` past ASCII (the
/// locale folds `İ` and the Kelvin sign).
#[test]
fn what_the_look_cannot_name_is_not_read() {
    let base = common::process_dir("grh-deep");
    let _ = std::fs::remove_dir_all(&base);
    let proj = base.join("proj");
    std::fs::create_dir_all(&proj).expect("mkdir");
    std::fs::write(proj.join("id_rsa"), "KEY SECRET\n").expect("write");
    let deep = r#"n=$(printf 'd%.0s' $(seq 250)); for i in $(seq 17); do mkdir $n && cd $n || exit 1; done; echo 'KEY SECRET' > .env"#;
    run(&proj, deep);
    let decide = decider(&["**/.env", "**/id_rsa"], &proj);
    for line in [
        "grep -r KEY d*",
        "find . -iname '\u{130}d_rsa' -exec cat {} +",
    ] {
        assert_ne!(decide(line), Some(Decision::Allow), "{line}");
    }
    assert!(run(&proj, "grep -r KEY d*").contains("SECRET"));
    let _ = std::fs::remove_dir_all(&base);
}

/// `find ... | xargs CMD` hands CMD what find prints, as `-exec CMD {} +` does: run in
/// bash over every filter and command above, no line that prints the secret is allowed,
/// and the everyday forms are. Without `-print0 | xargs -0`, xargs cuts a name at a
/// blank (`./k .env` is `./k` and `.env`): in a tree that holds one, the line is not
/// allowed, while the `-0` form of it stays allowed.
#[test]
fn find_piped_into_xargs_hands_what_it_prints() {
    let base = common::process_dir("grh-find-xargs");
    let proj = project(&base);
    let decide = decider(&["**/.env"], &proj);
    let mut lines = Vec::new();
    for f in FILTERS {
        for c in COMMANDS {
            lines.push(format!("find . {f} | xargs {c}"));
            lines.push(format!("find . {f} -print0 | xargs -0 -r {c}"));
            lines.push(format!("find . {f} -print | xargs -n 2 -P 2 {c}"));
        }
    }
    let (bypasses, secret, allowed) = judge(&proj, &decide, &lines);
    eprintln!(
        "find piped into xargs: {} lines; {secret} read the secret, {allowed} allowed",
        lines.len()
    );
    assert!(
        bypasses.is_empty(),
        "allowed, and the real program read the secret:\n{}",
        bypasses.join("\n")
    );
    assert!(secret >= 20, "too few lines read the secret: {secret}");
    assert!(allowed >= 40, "too few lines allowed: {allowed}");
    for line in [
        "find . -name '*.md' | xargs grep -l KEY",
        "find . -type f -name '*.md' -print0 | xargs -0 cat",
        "find docs -type f | xargs wc -l",
        "find . -name '*.md' -print | xargs -r -n 1 head -n 5",
        // helper-100: sed's own `sed??????` is no name the line writes.
        "find docs -name '*.md' | xargs sed -i 's/KEY/KEY/'",
        // `!` and `-o` (they were names from data).
        "find docs -type f ! -name '*.txt' | xargs grep -l KEY",
        "find docs -name '*.md' -o -name '*.txt' | xargs wc -l",
        "find docs -type f -not -path '*/node_modules/*' -print0 | xargs -0 wc -l",
    ] {
        assert!(!run(&proj, line).contains("SECRET"), "{line}");
        assert_eq!(decide(line), Some(Decision::Allow), "{line}");
    }
    // xargs cuts `./k .env` in two and cats `.env`; with `-0` it does not.
    std::fs::write(proj.join(".env"), "KEY SECRET\n").expect("write");
    std::fs::write(proj.join("k .env"), "KEY plain\n").expect("write");
    let cut = "find . -name 'k*' | xargs cat";
    assert!(run(&proj, cut).contains("SECRET"), "{cut}");
    assert_ne!(decide(cut), Some(Decision::Allow), "{cut}");
    let whole = "find . -name 'k*' -print0 | xargs -0 cat";
    assert!(!run(&proj, whole).contains("SECRET"), "{whole}");
    assert_eq!(decide(whole), Some(Decision::Allow), "{whole}");
    // helper-98: what reaches xargs's input besides find's names (another input, find's
    // errors with its patterns under `-D`), and names the line makes before find runs,
    // are never allowed where bash reads the secret.
    std::fs::write(proj.join("names.txt"), ".env\n").expect("write");
    std::fs::write(proj.join("docs/g .env x"), "plain\n").expect("write");
    for line in [
        "find docs -type f | xargs cat < names.txt",
        "echo .env > n.txt; find docs -type f | xargs cat < n.txt",
        "find docs -type f | xargs cat 3<names.txt <&3",
        "find -D tree docs -name 'x .env y' -type f 2>&1 | xargs cat --",
        "touch 'docs/k .env'; find docs -type f | xargs cat",
        "mkdir -p 'docs/m .env' && find docs | xargs cat",
        "cp a.txt 'docs/c .env' && find docs -type f | xargs cat",
        // helper-99: find's warnings copy its patterns into what xargs reads; a
        // command that writes makes a name find prints of one it does not.
        "find docs -path 'q .env /' 2>/dev/stdout | xargs cat --",
        "find docs -path 'q .env /' 2>/dev/fd/1 | xargs cat --",
        "gzip -kr docs && find docs -name '*.gz' | xargs cat",
    ] {
        assert!(run(&proj, line).contains("SECRET"), "{line}");
        assert_ne!(decide(line), Some(Decision::Allow), "{line}");
        for made in [
            "docs/k .env",
            "docs/m .env",
            "docs/c .env",
            "docs/g .env x.gz",
            "docs/y.md.gz",
        ] {
            let _ = std::fs::remove_dir_all(proj.join(made));
            let _ = std::fs::remove_file(proj.join(made));
        }
    }
    // Options bundled, `--`, a command whose code is given, names the filters skip.
    std::fs::write(proj.join("docs/z z.txt"), "plain\n").expect("write");
    for line in [
        "find docs -name '*.md' -print0 | xargs -0r cat",
        "find docs -name '*.md' | xargs -tn1 -- cat",
        "find docs -name '*.md' | xargs sed -n 1p",
        "find docs -name '*.md' 2>/dev/null | xargs grep -l KEY | head -5 2>&1",
    ] {
        assert!(!run(&proj, line).contains("SECRET"), "{line}");
        assert_eq!(decide(line), Some(Decision::Allow), "{line}");
    }
    assert_ne!(
        decide("find docs -type f | xargs cat"),
        Some(Decision::Allow),
        "docs holds `z z.txt`"
    );
    // helper-99: git reads a name find hands it as a pathspec, `*` a pattern.
    std::fs::write(proj.join("*"), "plain\n").expect("write");
    let git = "find . -maxdepth 1 -name '[*]' -exec git grep --no-index KEY -- {} +";
    assert!(run(&proj, git).contains("SECRET"), "{git}");
    assert_ne!(decide(git), Some(Decision::Allow), "{git}");
    let _ = std::fs::remove_file(proj.join("*"));
    // What the pair is not read as: names from data, as before.
    for line in [
        "find . -name '*.md' , -name y | xargs cat",
        "find -L . -name '*.md' | xargs cat",
        "find . -name '*.md' | xargs -I{} cat {}",
        "find . -name '*.md' | nice xargs cat",
        "{ find . -name '*.md'; echo .env; } | xargs cat",
        "find docs -name '*.md' 2>&1 | xargs cat",
    ] {
        assert_ne!(decide(line), Some(Decision::Allow), "{line}");
    }
    let _ = std::fs::remove_dir_all(&base);
}
