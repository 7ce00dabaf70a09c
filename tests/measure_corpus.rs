//! Measures of the reading on real command lines (`make measure`; not part of `make test`).
//!
//! - `tldr`: the example lines of tldr-pages (`pages/common`, `pages/linux`; extracted by
//!   `scripts/tldr-lines.py` into `tests/data/tldr-lines.tsv`, placeholders filled
//!   plainly): how many lines there are, the share whose reading is certain, and the share
//!   an allow-everything shell rule (`:tool "shell" :command-regexp "" :decision allow`)
//!   allows.
//! - `everyday`: the lines of `tests/data/everyday.txt`, each decided with the workspace
//!   policy ([`workspace_policy`]) and then run in bash, for real, in a fresh copy of a
//!   scratch project under bubblewrap and `strace -f` (see `tests/trace/mod.rs`). A block
//!   (deny or ask) is *for nothing* when the run shows no effect any blocking rule is
//!   about; an effect is *missed* when the line was allowed and the run shows it.
//!
//! `MEASURE_VERBOSE=1` prints every line of each class; `MEASURE_OUT=FILE` writes the
//! everyday table (line, decision, rules, effects) as TSV.

mod trace;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use gptel_rust_hooks::shell;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use trace::{Event, Op, Scratch};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn verbose() -> bool {
    std::env::var_os("MEASURE_VERBOSE").is_some()
}

fn compile_policy(rules: serde_json::Value, home: Option<PathBuf>) -> Policy {
    let rules = rule::rules_from_value(&rules).expect("the measure's policy reads");
    compile::compile(
        rules,
        Options {
            home,
            ..Options::default()
        },
    )
    .expect("the measure's policy compiles")
}

fn shell_call(line: &str, cwd: &Path) -> Call {
    Call::from_value(&json!({"name": "shell", "args": {"command": line}, "cwd": cwd}))
        .expect("a shell call")
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

// ---------------------------------------------------------------------------------------
// tldr-pages

#[test]
#[ignore = "a measure: `make measure`"]
fn tldr() {
    let text = std::fs::read_to_string(data("tldr-lines.tsv")).expect("tests/data/tldr-lines.tsv");
    let lines: Vec<(&str, &str)> = text.lines().filter_map(|l| l.split_once('\t')).collect();
    assert!(
        lines.len() > 20_000,
        "the extraction holds {} lines",
        lines.len()
    );
    let cwd = std::env::temp_dir();
    let policy = compile_policy(
        json!([{"id": "all", "tool": "shell", "command-regexp": "", "decision": "allow"}]),
        None,
    );
    let start = Instant::now();
    let (mut certain, mut allowed, mut known) = (0usize, 0usize, 0usize);
    let mut why: BTreeMap<String, usize> = BTreeMap::new();
    let mut uncertain_pages: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_program: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_option: BTreeMap<String, usize> = BTreeMap::new();
    for (page, line) in &lines {
        let (read, _) = shell::read_for_rules(line);
        if read.is_certain() {
            certain += 1;
            if read
                .commands
                .iter()
                .all(|c| c.program == shell::Known::Known)
            {
                known += 1;
            }
        } else {
            let reason = read
                .opaque
                .clone()
                .or_else(|| read.commands.iter().find_map(|c| c.opaque.clone()))
                .or_else(|| read.uncertain.clone())
                .unwrap_or_default();
            // The kind of reason, without the line's own words.
            let kind: String = reason
                .split('`')
                .next()
                .unwrap_or("")
                .chars()
                .take(70)
                .collect();
            *why.entry(kind.clone()).or_default() += 1;
            *uncertain_pages.entry(page).or_default() += 1;
            if verbose() {
                println!("REASON\t{reason}\t{line}");
            }
            if let Some((prog, opt)) = not_in_table(&reason) {
                *by_program.entry(prog.clone()).or_default() += 1;
                *by_option.entry(format!("{prog} {opt}")).or_default() += 1;
                if verbose() {
                    println!("not in the table: {line}");
                }
            }
        }
        let outcome = eval::evaluate(&policy, &shell_call(line, &cwd));
        if outcome.decision == Some(Decision::Allow) {
            allowed += 1;
        } else if verbose() {
            println!("not allowed: {line}");
        }
    }
    let n = lines.len();
    println!(
        "\ntldr-pages: {n} lines ({:.1} s): certain {certain} ({:.1}%), allowed under an \
         allow-everything shell rule {allowed} ({:.1}%); certain with every program read \
         through the table {known} ({:.1}%)",
        start.elapsed().as_secs_f64(),
        pct(certain, n),
        pct(allowed, n),
        pct(known, n)
    );
    let mut kinds: Vec<(&String, &usize)> = why.iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(a.1));
    println!("why not certain (first words of the reason), most frequent first:");
    for (k, c) in kinds.iter().take(25) {
        println!("  {c:6}  {k}");
    }
    for (title, counts) in [
        ("program", &by_program),
        ("option (or subcommand)", &by_option),
    ] {
        let mut top: Vec<(&String, &usize)> = counts.iter().collect();
        top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let total: usize = counts.values().sum();
        println!("lines uncertain for a word the table does not know ({total}), by {title}:");
        for (k, c) in top.iter().take(40) {
            println!("  {c:6}  {k}");
        }
    }
    assert!(
        allowed <= certain,
        "an allow rule allows only lines whose reading is certain ({allowed} allowed, {certain} certain)"
    );
}

/// The program and the word of a reason "`P` option `O` is not in the program table"
/// (or subcommand).
fn not_in_table(reason: &str) -> Option<(String, String)> {
    let rest = reason.strip_suffix("` is not in the program table")?;
    let mut parts = rest.split('`');
    let (_, prog, kind, opt) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let kind = kind.trim();
    Some((prog.to_string(), format!("{kind} {opt}")))
}

// ---------------------------------------------------------------------------------------
// The everyday corpus

/// The rules of the workspace policy, in this order (their index is the rule's).
const SECRETS: usize = 0;
const RM_OUTSIDE: usize = 1;
const WRITE_OUTSIDE: usize = 2;

/// Programs that write the paths they are given: what "ask for writes outside the
/// project" names in a rule (the rule language has no notion of a write).
const WRITERS: &str = "^(cp|mv|ln|install|tee|touch|mkdir|rmdir|chmod|chown|truncate|dd|rsync|tar|unzip|zip|gzip|patch)( |$)|^sed( .*)? (-i|--in-place)|^perl( .*)? -[a-z]*i";

/// The workspace policy: deny `rm` outside the project, ask for writes outside it (and
/// the temporary directory), deny `~/.ssh/**` and `~/.aws/**`, allow the rest.
fn workspace_policy(project: &Path, home: &Path) -> Policy {
    let p = project.to_string_lossy();
    compile_policy(
        json!([
            {"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "~/.aws/**"], "decision": "deny"},
            {"id": "rm-outside", "tool": "shell", "command-prefix": "rm", "path-outside": p, "decision": "deny"},
            {"id": "write-outside", "tool": "shell", "command-regexp": WRITERS,
             "path-outside": [p, "/tmp"], "decision": "ask"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}
        ]),
        Some(home.to_path_buf()),
    )
}

/// Write the scratch home (with the project in `proj/`) under DIR.
fn make_home(dir: &Path) {
    let files: &[(&str, &str)] = &[
        (".ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n"),
        (".ssh/config", "Host example\n  User git\n"),
        (".aws/credentials", "[default]\naws_access_key_id = FAKE\n"),
        (".gitconfig", "[user]\n\tname = dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n"),
        (".bashrc", "# empty\n"),
        (".config/tool.conf", "x=1\n"),
        ("notes.txt", "notes\n"),
        ("bin/.keep", ""),
        (".cache/pip/wheel", "cached"),
        (".local/bin/.keep", ""),
        ("other/file", "a sibling of the project"),
        ("tmp/x/file", "a scratch file of the machine's /tmp"),
        ("tmp/build-cache/file", "cached"),
        ("tmp/agent-scratch.txt", "scratch"),
        ("proj/README.md", "# Demo\nA readme. TODO: more.\n"),
        ("proj/.env", "SECRET=1\n"),
        ("proj/.gitignore", "build/\n__pycache__/\n"),
        ("proj/Makefile", "CC ?= cc\nall build: build/app\nbuild/app: src/main.c src/util.c\n\tmkdir -p build\n\t$(CC) -Wall -o $@ src/main.c src/util.c\ntest check: all\n\t./build/app\nclean:\n\trm -rf build\n"),
        ("proj/src/Makefile", "all:\n\t$(CC) -c util.c -o util.o\n"),
        ("proj/src/main.c", "#include <stdio.h>\n#include \"util.h\"\n/* TODO: args */\nint main(void) {\n  printf(\"hello %d\\n\", add(1, 2));\n  return 0;\n}\n"),
        ("proj/src/util.c", "#include \"util.h\"\nint add(int a, int b) { return a + b; } /* foo */\n"),
        ("proj/src/util.h", "int add(int a, int b);\n"),
        ("proj/src/util/helper.c", "void helper(void) {}\n"),
        ("proj/tests/Makefile", "check:\n\t@echo ok\n"),
        ("proj/tests/test_util.py", "def test_add():\n    assert 1 + 2 == 3\n"),
        ("proj/docs/guide.md", "# Guide\nFIXME\n"),
        ("proj/docs/api.md", "# API\n"),
        ("proj/data/input.csv", "a,1\nb,2\nc,3\n"),
        ("proj/data/words.txt", "pear\napple\npear\nfig\n"),
        ("proj/data/config.json", "{\"a\": 1}\n"),
        ("proj/scripts/build.sh", "#!/bin/sh\necho building\n"),
        ("proj/scripts/tool.py", "import sys\ndef main():\n    print('tool')\nmain()\n"),
        ("proj/build/main.o", "obj"),
        ("proj/build/app", "#!/bin/sh\necho app\n"),
        ("proj/build/out/result", "out"),
        ("proj/build/tmp/t", "t"),
        ("proj/build/a.o", "obj"),
        ("proj/build/fix.patch", "--- a/src/util.c\n+++ b/src/util.c\n@@ -1 +1 @@\n-#include \"util.h\"\n+#include \"util.h\" \n"),
        ("proj/build/empty/.keep", ""),
    ];
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("make a directory");
        std::fs::write(&p, text).expect("write a fixture file");
    }
    let _ = std::fs::remove_file(dir.join("proj/build/empty/.keep"));
    let proj = dir.join("proj");
    trace::git(&proj, &["init", "-q"]);
    trace::git(&proj, &["add", "-A"]);
    trace::git(&proj, &["commit", "-q", "-m", "first"]);
    std::fs::write(proj.join("docs/guide.md"), "# Guide\nFIXME: more\n").expect("write");
    trace::git(&proj, &["commit", "-q", "-am", "second"]);
}

/// The kinds of effect the workspace policy is about, as the run shows them.
#[derive(Debug, Default)]
struct Effects {
    /// A path inside `~/.ssh` or `~/.aws` touched (opened, executed, changed).
    secrets: BTreeSet<String>,
    /// A path outside the project, which existed before the run, removed.
    removed_outside: BTreeSet<String>,
    /// A path outside the project and the temporary directory written, made, moved,
    /// linked, changed or removed.
    written_outside: BTreeSet<String>,
}

impl Effects {
    fn of(events: &[Event], project: &str, home: &str) -> Effects {
        let inside = |p: &str, dir: &str| p == dir || p.starts_with(&format!("{dir}/"));
        let nobodys = |p: &str| {
            [
                "/dev/null",
                "/dev/tty",
                "/dev/stdout",
                "/dev/stderr",
                "/dev/zero",
                "/dev/full",
            ]
            .contains(&p)
                || p.starts_with("/dev/pts/")
                || p.starts_with("/proc/")
        };
        let ssh = format!("{home}/.ssh");
        let aws = format!("{home}/.aws");
        let mut made: BTreeSet<&str> = BTreeSet::new();
        let mut out = Effects::default();
        for e in events.iter().filter(|e| e.ok) {
            let p = e.path.as_str();
            if (inside(p, &ssh) && p != ssh) || (inside(p, &aws) && p != aws) {
                out.secrets.insert(p.to_string());
            }
            if matches!(e.op, Op::Write | Op::Mkdir | Op::RenameTo | Op::Link) {
                made.insert(p);
            }
            let outside_project = !inside(p, project);
            if matches!(e.op, Op::Unlink | Op::Rmdir) && outside_project && !made.contains(p) {
                out.removed_outside.insert(p.to_string());
            }
            if e.op.changes() && outside_project && !inside(p, "/tmp") && !nobodys(p) {
                out.written_outside.insert(p.to_string());
            }
        }
        out
    }

    /// Whether the run shows an effect rule R is about.
    fn for_rule(&self, r: usize) -> bool {
        match r {
            SECRETS => !self.secrets.is_empty(),
            RM_OUTSIDE => !self.removed_outside.is_empty(),
            WRITE_OUTSIDE => !self.written_outside.is_empty() || !self.removed_outside.is_empty(),
            _ => false,
        }
    }

    fn any(&self) -> bool {
        (0..3).any(|r| self.for_rule(r))
    }

    fn show(&self) -> String {
        let mut s = Vec::new();
        for (name, set) in [
            ("secrets", &self.secrets),
            ("removed-outside", &self.removed_outside),
            ("written-outside", &self.written_outside),
        ] {
            if !set.is_empty() {
                let first: Vec<&str> = set.iter().take(3).map(String::as_str).collect();
                s.push(format!("{name}: {}", first.join(" ")));
            }
        }
        s.join("; ")
    }
}

#[test]
#[ignore = "a measure: `make measure`"]
fn everyday() {
    let text = std::fs::read_to_string(data("everyday.txt")).expect("tests/data/everyday.txt");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let scratch = Scratch::new("everyday");
    let template = scratch.root.join("template");
    make_home(&template);
    let home = scratch.root.join("home");
    let project = home.join("proj");
    // The run's /tmp: the template's `tmp/`, moved out of the home.
    let tmp = scratch.root.join("tmp");
    let reset = || {
        for d in [&home, &tmp] {
            trace::make_writable(d);
            let _ = std::fs::remove_dir_all(d);
        }
        let st = Command::new("cp")
            .arg("-a")
            .arg(&template)
            .arg(&home)
            .status()
            .expect("cp");
        assert!(st.success(), "copy the scratch home");
        std::fs::rename(home.join("tmp"), &tmp).expect("move the run's /tmp into place");
    };
    reset();
    let policy = workspace_policy(&project, &home);
    // Decide every line on the fresh tree first: the decision comes before the run.
    let decided: Vec<(Option<Decision>, Vec<usize>)> = lines
        .iter()
        .map(|l| {
            let o = eval::evaluate(&policy, &shell_call(l, &project));
            (o.decision, o.decided.matched.clone())
        })
        .collect();
    let (h, p) = (
        home.to_string_lossy().into_owned(),
        project.to_string_lossy().into_owned(),
    );
    let mut blocks = 0;
    let mut for_nothing = Vec::new();
    let mut missed = Vec::new();
    let mut weaker = Vec::new();
    let mut effects_total = 0;
    let mut tsv = String::new();
    let mut slow = Vec::new();
    let start = Instant::now();
    for (line, (decision, matched)) in lines.iter().zip(&decided) {
        reset();
        let t0 = Instant::now();
        let run = scratch.run(&["/bin/bash", "-c", line], &project, &home, Some(&tmp), 5);
        if run.timed_out || t0.elapsed().as_secs_f64() > 2.0 {
            slow.push((line, t0.elapsed().as_secs_f64()));
        }
        let fx = Effects::of(&run.events, &p, &h);
        if fx.any() {
            effects_total += 1;
        }
        let blocking: Vec<usize> = matched
            .iter()
            .copied()
            .filter(|&r| {
                matches!(
                    policy.rules[r].rule.decision,
                    Some(Decision::Deny | Decision::Ask)
                )
            })
            .collect();
        let blocked = matches!(
            decision,
            Some(Decision::Deny | Decision::Ask | Decision::Stop)
        );
        let class = if blocked {
            blocks += 1;
            if blocking.iter().any(|&r| fx.for_rule(r)) {
                if fx.for_rule(RM_OUTSIDE) && *decision == Some(Decision::Ask) {
                    weaker.push((line, fx.show()));
                }
                "block"
            } else {
                for_nothing.push((line, decision, blocking.clone()));
                "for-nothing"
            }
        } else if fx.any() {
            missed.push((line, fx.show()));
            "missed"
        } else {
            "allowed"
        };
        let names: Vec<&str> = matched
            .iter()
            .map(|&r| policy.rules[r].label.as_str())
            .collect();
        tsv.push_str(&format!(
            "{class}\t{}\t{}\t{}\t{line}\n",
            decision.map_or("none", Decision::name),
            names.join(","),
            fx.show()
        ));
    }
    if let Ok(out) = std::env::var("MEASURE_OUT") {
        std::fs::write(out, tsv).expect("write MEASURE_OUT");
    }
    let n = lines.len();
    println!(
        "\neveryday corpus: {n} lines run under strace ({:.1} s); {effects_total} with an effect \
         the policy is about",
        start.elapsed().as_secs_f64()
    );
    println!(
        "blocks (deny or ask): {blocks}; for nothing: {} ({:.0}% of blocks); real effects \
         missed (allowed): {}; removals outside the project only asked: {}",
        for_nothing.len(),
        pct(for_nothing.len(), blocks),
        missed.len(),
        weaker.len()
    );
    println!("blocks for nothing:");
    for (line, d, rules) in &for_nothing {
        let names: Vec<&str> = rules
            .iter()
            .map(|&r| policy.rules[r].label.as_str())
            .collect();
        println!(
            "  {:5} [{}] {line}",
            d.map_or("none", Decision::name),
            names.join(",")
        );
    }
    println!("effects missed:");
    for (line, fx) in &missed {
        println!("  {line}    => {fx}");
    }
    if !weaker.is_empty() {
        println!("removals outside the project that were only asked:");
        for (line, fx) in &weaker {
            println!("  {line}    => {fx}");
        }
    }
    if !slow.is_empty() {
        println!("lines that ran longer than 2 s (5 s is the deadline): {slow:?}");
    }
    assert!(n > 200, "the corpus holds {n} lines");
    assert!(
        effects_total > 0,
        "some line of the corpus has an effect the policy is about"
    );
}
