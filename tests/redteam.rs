//! The red-team suite: every case of `tests/data/redteam/*.json`, and a
//! property that no composition hides a denied command.
//!
//! A case file is one family of attacks:
//!
//! ```text
//! {"family": "chaining", "description": "...",
//!  "options": {"case-fold": true, "home": "@ROOT@/homelink"}?,
//!  "policy": [RULE...],
//!  "cases": [{"name": "...", "call": {"name": "bash", "args": {...}, "cwd": "..."},
//!             "expect": "deny" | "ask" | "allow" | "stop" | "none" | "not-allow",
//!             "note": "..."?}]}
//! ```
//!
//! `expect` is the decision the engine must reach: `none` means no rule
//! decided, `not-allow` anything but allow. Rules and calls are read as a
//! JSON policy file is. Every string of the policy and the call may use the
//! placeholders of the fixture tree ([`Fixture`]): `@ROOT@`, `@HOME@`,
//! `@PROJ@`, `@TMP@`. (Not `$HOME`: a `$` in a command is the shell's.)
//!
//! `tests/redteam-tests.el` runs the same files through
//! `gptel-rust-hooks-evaluate`, on the same fixture tree.
//!
//! Each family is one `#[test]` that reports every failing case at once; set
//! `REDTEAM_EXPLAIN=1` to print the engine's explanation of each failure, and
//! `REDTEAM_CASES=N` to run the composition properties on N lines (512), and
//! `REDTEAM_RANDOM=1` to draw them at random (they are the same every run).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::explain;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use proptest::prelude::*;
use serde_json::{json, Value as Json};

// ---------------------------------------------------------------------------
// Fixture

/// A temporary tree, removed on drop (the ERT runner builds the same one):
///
/// ```text
/// @ROOT@/tmp/                                                    @TMP@
/// @ROOT@/homelink                -> home                         a home reached by a link
/// @ROOT@/projlink                -> home/proj                    a project reached by a link
/// @ROOT@/home/                                                   @HOME@
/// @ROOT@/home/.ssh/{id_rsa,authorized_keys,config}
/// @ROOT@/home/.sshrc                     a sibling name of .ssh
/// @ROOT@/home/.aws/credentials
/// @ROOT@/home/proj-evil/x                a sibling of the project
/// @ROOT@/home/proj/                                              @PROJ@
/// @ROOT@/home/proj/{README.md,.env,.env.example,src/main.rs}
/// @ROOT@/home/proj/link-out      -> @ROOT@/home/.ssh             leaves the project
/// @ROOT@/home/proj/rel-out       -> ../.ssh                      relative, leaves it
/// @ROOT@/home/proj/key-link      -> @ROOT@/home/.ssh/id_rsa
/// @ROOT@/home/proj/chain1        -> chain2 -> @ROOT@/home/.ssh/id_rsa
/// @ROOT@/home/proj/etc-link      -> /etc
/// @ROOT@/home/proj/passwd-link   -> /etc/passwd
/// @ROOT@/home/proj/evil-link     -> @ROOT@/home/proj-evil
/// @ROOT@/home/proj/dangling      -> @ROOT@/home/.ssh/new_key     (absent)
/// @ROOT@/home/proj/dangling-evil -> @ROOT@/home/proj-evil/new    (absent)
/// @ROOT@/home/proj/loop-a        -> loop-b -> loop-a
/// @ROOT@/home/proj/inner-link    -> src                          stays inside
/// @ROOT@/home/proj/readme-link   -> README.md                    stays inside
/// ```
struct Fixture {
    root: PathBuf,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl Fixture {
    fn new() -> Fixture {
        let name = format!(
            "gptel-redteam-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        let dir = std::env::temp_dir().join(name);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create fixture root");
        let root = fs::canonicalize(&dir).expect("canonical fixture root");
        let fx = Fixture { root };
        fx.build();
        fx
    }

    fn build(&self) {
        let r = |p: &str| self.root.join(p);
        for d in [
            "tmp",
            "home/.ssh",
            "home/.aws",
            "home/proj/src",
            // The project is a repository to git's discovery (the git families).
            "home/proj/.git",
            "home/proj-evil",
        ] {
            fs::create_dir_all(r(d)).expect("fixture dir");
        }
        for (f, text) in [
            ("home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n"),
            ("home/.ssh/authorized_keys", "ssh-ed25519 AAAA user\n"),
            ("home/.ssh/config", "Host *\n"),
            ("home/.sshrc", "# not a key\n"),
            ("home/.aws/credentials", "[default]\n"),
            ("home/proj-evil/x", "evil\n"),
            ("home/proj/README.md", "# proj\n"),
            ("home/proj/.env", "SECRET=1\n"),
            ("home/proj/.env.example", "SECRET=\n"),
            ("home/proj/src/main.rs", "fn main() {}\n"),
        ] {
            fs::write(r(f), text).expect("fixture file");
        }
        let abs = |p: &str| self.root.join(p).to_string_lossy().into_owned();
        for (link, target) in [
            ("home/proj/link-out", abs("home/.ssh")),
            ("home/proj/rel-out", "../.ssh".to_string()),
            ("home/proj/key-link", abs("home/.ssh/id_rsa")),
            ("home/proj/chain1", "chain2".to_string()),
            ("home/proj/chain2", abs("home/.ssh/id_rsa")),
            ("home/proj/etc-link", "/etc".to_string()),
            ("home/proj/passwd-link", "/etc/passwd".to_string()),
            ("home/proj/evil-link", abs("home/proj-evil")),
            ("home/proj/dangling", abs("home/.ssh/new_key")),
            ("home/proj/dangling-evil", abs("home/proj-evil/new")),
            ("home/proj/loop-a", "loop-b".to_string()),
            ("home/proj/loop-b", "loop-a".to_string()),
            ("home/proj/inner-link", "src".to_string()),
            ("home/proj/readme-link", "README.md".to_string()),
            ("homelink", "home".to_string()),
            ("projlink", "home/proj".to_string()),
        ] {
            std::os::unix::fs::symlink(target, r(link)).expect("fixture link");
        }
    }

    fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    /// Replace the placeholders in S.
    fn subst(&self, s: &str) -> String {
        let p = |rel: &str| self.root.join(rel).to_string_lossy().into_owned();
        s.replace("@PROJ@", &p("home/proj"))
            .replace("@HOME@", &p("home"))
            .replace("@TMP@", &p("tmp"))
            .replace("@ROOT@", &self.root.to_string_lossy())
    }

    /// Replace the placeholders in every string of V.
    fn subst_json(&self, v: &Json) -> Json {
        match v {
            Json::String(s) => Json::String(self.subst(s)),
            Json::Array(items) => Json::Array(items.iter().map(|i| self.subst_json(i)).collect()),
            Json::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.subst_json(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        // remove_dir_all does not follow symbolic links.
        let _ = fs::remove_dir_all(&self.root);
    }
}

// ---------------------------------------------------------------------------
// Case files

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/redteam")
}

fn read_family(family: &str) -> Json {
    let path = data_dir().join(format!("{family}.json"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn family_names() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(data_dir())
        .expect("tests/data/redteam")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

const EXPECTATIONS: &[&str] = &["deny", "ask", "allow", "stop", "none", "not-allow"];

fn satisfies(expect: &str, got: Option<Decision>) -> bool {
    match expect {
        "allow" => got == Some(Decision::Allow),
        "ask" => got == Some(Decision::Ask),
        "deny" => got == Some(Decision::Deny),
        "stop" => got == Some(Decision::Stop),
        "none" => got.is_none(),
        "not-allow" => got != Some(Decision::Allow),
        other => panic!("unknown expectation `{other}`"),
    }
}

fn decision_name(d: Option<Decision>) -> &'static str {
    d.map_or("none", Decision::name)
}

/// The family's options: `case-fold` (default false) and `home` (default
/// `@HOME@`).
fn options(fx: &Fixture, family: &Json) -> Options {
    let case_fold = family
        .pointer("/options/case-fold")
        .and_then(Json::as_bool)
        .unwrap_or(false);
    let home = family
        .pointer("/options/home")
        .and_then(Json::as_str)
        .map(|h| PathBuf::from(fx.subst(h)))
        .unwrap_or_else(|| fx.home());
    Options {
        home: Some(home),
        case_fold,
        ..Options::default()
    }
}

fn compile_family(fx: &Fixture, family: &Json) -> Policy {
    let rules = rule::rules_from_value(&fx.subst_json(&family["policy"]))
        .unwrap_or_else(|e| panic!("policy: {e}"));
    compile::compile(rules, options(fx, family)).unwrap_or_else(|e| panic!("policy: {e}"))
}

/// A short rendering of a call for failure messages.
fn show_call(call: &Json) -> String {
    let args = call["args"].to_string();
    let mut out: String = args.chars().take(160).collect();
    if out.len() < args.len() {
        out.push('…');
    }
    format!("{} {}", call["name"].as_str().unwrap_or("?"), out)
}

/// Run every case of FAMILY; panic with the list of failures.
fn run_family(family: &str) {
    let fx = Fixture::new();
    let data = read_family(family);
    assert_eq!(data["family"], family, "the family name is the file name");
    let policy = compile_family(&fx, &data);
    let cases = data["cases"].as_array().expect("cases");
    let explain = std::env::var_os("REDTEAM_EXPLAIN").is_some();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("case name");
        let expect = case["expect"].as_str().expect("case expect");
        let call_json = fx.subst_json(&case["call"]);
        let call = match Call::from_value(&call_json) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("  {name}: bad call: {e}"));
                continue;
            }
        };
        let outcome = eval::evaluate(&policy, &call);
        if !satisfies(expect, outcome.decision) {
            let by = outcome
                .by
                .map(|r| format!(" by {}", policy.rules[r].label))
                .unwrap_or_default();
            let mut line = format!(
                "  {name}: expected {expect}, got {}{by}: {}",
                decision_name(outcome.decision),
                show_call(&call_json)
            );
            if explain {
                let ex = explain::explain(&policy, &call);
                line.push_str(&format!(
                    "\n{}",
                    serde_json::to_string_pretty(&ex).unwrap_or_default()
                ));
            }
            failures.push(line);
        }
    }
    assert!(
        failures.is_empty(),
        "redteam family `{family}`: {} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

macro_rules! families {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                run_family($file);
            }
        )*
        const FAMILIES: &[&str] = &[$($file),*];
    };
}

families! {
    chaining => "chaining",
    link_destinations => "link-destinations",
    archive_modes => "archive-modes",
    program_configs => "program-configs",
    program_own_names => "program-own-names",
    walk_filters => "walk-filters",
    eleventh_round => "eleventh-round",
    twelfth_round => "twelfth-round",
    thirteenth_round => "thirteenth-round",
    fourteenth_round => "fourteenth-round",
    parser_confusion => "parser-confusion",
    substitution => "substitution",
    shell_c => "shell-c",
    wrappers => "wrappers",
    wrappers_more => "wrappers-more",
    assignments => "assignments",
    quoting => "quoting",
    command_paths => "command-paths",
    dynamic => "dynamic",
    parse_errors => "parse-errors",
    argv_lists => "argv-lists",
    invisible => "invisible",
    lookalike => "lookalike",
    path_traversal => "path-traversal",
    symlinks => "symlinks",
    home_relative => "home-relative",
    unreadable_paths => "unreadable-paths",
    shell_paths => "shell-paths",
    cwd_change => "cwd-change",
    multi_paths => "multi-paths",
    allowed => "allowed",
    case_fold => "case-fold",
    home_symlink => "home-symlink",
    heredocs => "heredocs",
    pexp_quotes => "pexp-quotes",
    privilege_chains => "privilege-chains",
    process_paths => "process-paths",
    assigning_builtins => "assigning-builtins",
    overblocks => "overblocks",
    agent_tools => "agent-tools",
    readme_attacks => "readme-attacks",
    second_attacks => "second-attacks",
    third_attacks => "third-attacks",
    review_attacks => "review-attacks",
    fifth_round => "fifth-round",
    sixth_wrappers => "sixth-wrappers",
    sixth_options => "sixth-options",
    sixth_looks => "sixth-looks",
    sixth_paths => "sixth-paths",
    seventh_lead => "seventh-lead",
    seventh_quickstart => "seventh-quickstart",
    seventh_git => "seventh-git",
    eighth_git => "eighth-git",
    seventh_shell => "seventh-shell",
    seventh_wrap => "seventh-wrap",
    seventh_c => "seventh-c",
    over_tmp => "over-tmp",
    over_workspace => "over-workspace",
}

#[test]
fn every_family_file_is_run() {
    let mut listed: Vec<String> = FAMILIES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        family_names(),
        listed,
        "add a line to `families!` for each file"
    );
}

#[test]
fn cases_are_well_formed() {
    let fx = Fixture::new();
    let mut total = 0;
    let mut problems = Vec::new();
    for family in family_names() {
        let data = read_family(&family);
        let mut seen = std::collections::HashSet::new();
        let cases = data["cases"].as_array().expect("cases");
        total += cases.len();
        for case in cases {
            let name = case["name"].as_str().unwrap_or("");
            if name.is_empty() || !seen.insert(name.to_string()) {
                problems.push(format!("{family}: missing or repeated name `{name}`"));
            }
            match case["expect"].as_str() {
                Some(e) if EXPECTATIONS.contains(&e) => {}
                other => problems.push(format!("{family}/{name}: bad expect {other:?}")),
            }
            if let Err(e) = Call::from_value(&fx.subst_json(&case["call"])) {
                problems.push(format!("{family}/{name}: {e}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(total >= 150, "only {total} red-team cases");
}

// ---------------------------------------------------------------------------
// Property: composition never hides a denied command

/// A command line built from allowed and denied simple commands.
#[derive(Debug, Clone)]
enum Tree {
    /// Index into `ALLOWED` or `DENIED`, and into `PREFIXES` (a wrapper,
    /// an assignment or a spelling of the command name put in front).
    Allowed(usize, usize),
    Denied(usize, usize),
    /// `A OP B` for OP in `OPERATORS`.
    List(usize, Box<Tree>, Box<Tree>),
    /// A one-child construct of `WRAPS`.
    Wrap(usize, Box<Tree>),
    /// `if A; then B; else C; fi`
    If(Box<Tree>, Box<Tree>, Box<Tree>),
    /// `while A; do B; done`
    While(Box<Tree>, Box<Tree>),
}

const ALLOWED: &[&str] = &["git status", "ls -la", "echo hi", "grep -r x ."];
const DENIED: &[&str] = &[
    "rm -rf /",
    "cat ~/.ssh/id_rsa",
    "echo x > ~/.ssh/authorized_keys",
    "git diff --no-index /dev/null ~/.ssh/id_rsa",
];
/// Put before a simple command: none of these changes which program runs
/// (`\\` and `/usr/bin/` respell the name), so none changes the decision,
/// except `sudo`, which an allow rule does not cover (denied leaves only).
const PREFIXES: &[&str] = &[
    "",
    "env ",
    "env -i ",
    "FOO=1 ",
    "command ",
    "nohup ",
    "timeout 5 ",
    "nice -n 5 ",
    "stdbuf -oL ",
    "\\",
    "/usr/bin/",
    "sudo ",
];
/// The prefixes an allowed leaf may take.
const ALLOWED_PREFIXES: usize = PREFIXES.len() - 1;

const OPERATORS: &[&str] = &[" && ", " || ", "; ", " | ", " & ", "\n", " |& "];

/// How many constructs in `Wrap` (see `render`).
const WRAPS: usize = 19;

fn sh_single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Escape S for the inside of a double-quoted string.
fn dq_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if matches!(c, '\\' | '"' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn render(t: &Tree) -> String {
    match t {
        Tree::Allowed(i, p) => format!("{}{}", PREFIXES[*p], ALLOWED[*i]),
        Tree::Denied(i, p) => format!("{}{}", PREFIXES[*p], DENIED[*i]),
        Tree::List(op, a, b) => format!("{}{}{}", render(a), OPERATORS[*op], render(b)),
        Tree::If(a, b, c) => format!(
            "if {}; then {}; else {}; fi",
            render(a),
            render(b),
            render(c)
        ),
        Tree::While(a, b) => format!("while {}; do {}; done", render(a), render(b)),
        Tree::Wrap(w, a) => {
            // Spaces inside `$( )` and `( )`: `$((` and `((` would be arithmetic.
            let x = render(a);
            match w {
                0 => format!("( {x} )"),
                1 => format!("{{ {x}; }}"),
                2 => format!("echo $( {x} )"),
                3 => format!("echo \"$( {x} )\""),
                // Inside backticks a backslash or backtick is escaped.
                4 => format!("echo `{}`", x.replace('\\', "\\\\").replace('`', "\\`")),
                5 => format!("bash -c {}", sh_single_quote(&x)),
                6 => format!("sh -c {}", sh_single_quote(&x)),
                7 => format!("grep x <( {x} )"),
                8 => format!("for i in a b; do {x}; done"),
                9 => format!("case a in a) {x};; esac"),
                10 => format!("f() {{ {x}; }}"),
                11 => format!("until {x}; do echo; done"),
                // `time` is a keyword only where a pipeline starts.
                12 => format!("{{ time {x}; }}"),
                13 => format!("x=$( {x} ) git status"),
                // A delimiter that no here-document inside X uses; the group
                // lets an operator follow the terminator line.
                14 => {
                    let n = x.matches("<<EOF").count() + 1;
                    format!("{{ grep x <<EOF{n}\n$( {x} )\nEOF{n}\n}}")
                }
                15 => format!("grep x <<< \"$( {x} )\""),
                16 => format!("echo ${{v:-$( {x} )}}"),
                17 => format!("[[ -n \"$( {x} )\" ]] && echo"),
                _ => format!("bash -c \"{}\"", dq_escape(&x)),
            }
        }
    }
}

fn has_denied(t: &Tree) -> bool {
    match t {
        Tree::Allowed(..) => false,
        Tree::Denied(..) => true,
        Tree::List(_, a, b) | Tree::While(a, b) => has_denied(a) || has_denied(b),
        Tree::If(a, b, c) => has_denied(a) || has_denied(b) || has_denied(c),
        Tree::Wrap(_, a) => has_denied(a),
    }
}

fn tree(denied_leaves: bool) -> impl Strategy<Value = Tree> {
    let leaf = if denied_leaves {
        prop_oneof![
            3 => (0..ALLOWED.len(), 0..ALLOWED_PREFIXES).prop_map(|(i, p)| Tree::Allowed(i, p)),
            1 => (0..DENIED.len(), 0..PREFIXES.len()).prop_map(|(i, p)| Tree::Denied(i, p)),
        ]
        .boxed()
    } else {
        (0..ALLOWED.len(), 0..ALLOWED_PREFIXES)
            .prop_map(|(i, p)| Tree::Allowed(i, p))
            .boxed()
    };
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (0..OPERATORS.len(), inner.clone(), inner.clone()).prop_map(|(o, a, b)| Tree::List(
                o,
                Box::new(a),
                Box::new(b)
            )),
            (0..WRAPS, inner.clone()).prop_map(|(w, a)| Tree::Wrap(w, Box::new(a))),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, b, c)| Tree::If(
                Box::new(a),
                Box::new(b),
                Box::new(c)
            )),
            (inner.clone(), inner).prop_map(|(a, b)| Tree::While(Box::new(a), Box::new(b))),
        ]
    })
}

/// allow git, ls, echo, grep (one rule each, or ONE-RULE for all four); deny
/// rm; deny ~/.ssh and everything in it.
fn property_policy(fx: &Fixture, one_rule: bool) -> Policy {
    let allow = if one_rule {
        json!([{"id": "allow-basics", "tool": "bash",
                "command-prefix": ["git", "ls", "echo", "grep"], "decision": "allow"}])
    } else {
        json!([
            {"id": "allow-git", "tool": "bash", "command-prefix": "git", "decision": "allow"},
            {"id": "allow-ls", "tool": "bash", "command-prefix": "ls", "decision": "allow"},
            {"id": "allow-echo", "tool": "bash", "command-prefix": "echo", "decision": "allow"},
            {"id": "allow-grep", "tool": "bash", "command-prefix": "grep", "decision": "allow"}
        ])
    };
    let mut rules = allow.as_array().cloned().unwrap_or_default();
    rules.push(json!({"id": "no-rm", "tool": "bash", "command-prefix": "rm", "decision": "deny"}));
    rules.push(json!({"id": "no-ssh", "path": ["~/.ssh", "~/.ssh/**"], "decision": "deny"}));
    let rules = Json::Array(rules);
    let rules = rule::rules_from_value(&rules).expect("property rules");
    compile::compile(
        rules,
        Options {
            home: Some(fx.home()),
            case_fold: false,
            ..Options::default()
        },
    )
    .expect("property policy")
}

/// Whether the line of T is in the certain subset (see `src/shell/certain/`): only
/// then may its allowed commands be allowed. `FOO=1` assigns a name not known to be
/// inert; `|&`, `case`, functions, a here-document body with `$(...)`, `${v:-...}` and
/// `[[ ]]` are outside the subset.
fn certain(t: &Tree) -> bool {
    match t {
        Tree::Allowed(_, p) | Tree::Denied(_, p) => PREFIXES[*p] != "FOO=1 ",
        Tree::List(op, a, b) => OPERATORS[*op] != " |& " && certain(a) && certain(b),
        Tree::If(a, b, c) => certain(a) && certain(b) && certain(c),
        Tree::While(a, b) => certain(a) && certain(b),
        // A command's output as a word (`echo $(x)`) may name any file; in double
        // quotes, `echo` only prints it (3: `echo "$( x )"` is certain).
        Tree::Wrap(w, a) => !matches!(w, 2 | 4 | 9 | 10 | 14 | 16 | 17) && certain(a),
    }
}

/// Run the property: every tree made with denied leaves when DENIED (and
/// holding one) or without, must come out WANT under `property_policy` (a tree
/// of allowed leaves outside the certain subset: no decision at all).
fn check_compositions(denied: bool, one_rule: bool, want: Decision) {
    use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
    let fx = Fixture::new();
    let policy = property_policy(&fx, one_rule);
    let cwd = fx.root.join("home/proj").to_string_lossy().into_owned();
    let cases = std::env::var("REDTEAM_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(512);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    // The same lines every run unless REDTEAM_RANDOM is set.
    let mut runner = if std::env::var_os("REDTEAM_RANDOM").is_some() {
        TestRunner::new(config)
    } else {
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    };
    let result = runner.run(&tree(denied), |t| {
        if has_denied(&t) != denied {
            return Ok(());
        }
        let line = render(&t);
        let got = decide_line(&policy, &cwd, &line);
        let want = if want == Decision::Allow && !certain(&t) {
            None
        } else {
            Some(want)
        };
        if got == want {
            Ok(())
        } else {
            Err(TestCaseError::fail(format!(
                "got {} for:\n{line}",
                decision_name(got)
            )))
        }
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

fn decide_line(policy: &Policy, cwd: &str, line: &str) -> Option<Decision> {
    let call = Call::from_value(&json!({
        "name": "bash",
        "args": {"command": line},
        "cwd": cwd,
    }))
    .expect("call");
    eval::evaluate(policy, &call).decision
}

/// A denied command composed with allowed ones, by any operator or nesting,
/// is denied.
#[test]
fn composition_never_hides_a_denied_command() {
    check_compositions(true, false, Decision::Deny);
}

/// The same, when one rule allows all four commands.
#[test]
fn composition_never_hides_a_denied_command_one_allow_rule() {
    check_compositions(true, true, Decision::Deny);
}

/// Allowed commands composed the same ways stay allowed.
#[test]
fn composition_of_allowed_commands_is_allowed() {
    check_compositions(false, false, Decision::Allow);
}

/// The same, when one rule allows all four commands.
#[test]
fn composition_of_allowed_commands_is_allowed_one_allow_rule() {
    check_compositions(false, true, Decision::Allow);
}

/// The generator writes lines that bash accepts (`bash -n`); run with
/// `cargo test --test redteam -- --ignored` where bash is installed.
#[test]
// Runs in every test run: it checks that the generated lines are real bash.
fn generated_lines_parse_in_bash() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    for denied in [true, false] {
        let strategy = tree(denied);
        for _ in 0..500 {
            let line = render(&strategy.new_tree(&mut runner).unwrap().current());
            let out = std::process::Command::new("bash")
                .args(["-n", "-c", &line])
                .output()
                .expect("bash");
            assert!(
                out.status.success() && out.stderr.is_empty(),
                "bash -n rejects:\n{line}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// The property's generator really produces every construct.
#[test]
fn property_renders_each_construct() {
    for w in 0..WRAPS {
        let line = render(&Tree::Wrap(w, Box::new(Tree::Denied(0, 0))));
        assert!(line.contains("rm -rf /"), "{line}");
    }
    assert_eq!(
        render(&Tree::Wrap(
            5,
            Box::new(Tree::Wrap(5, Box::new(Tree::Denied(0, 0))))
        )),
        "bash -c 'bash -c '\\''rm -rf /'\\'''"
    );
}

// ---------------------------------------------------------------------------
// Large inputs that do not fit a case file

/// A denied command at the end of a very long line is still found.
#[test]
fn denied_command_after_a_long_line() {
    let fx = Fixture::new();
    let policy = property_policy(&fx, false);
    let cwd = fx.root.join("home/proj").to_string_lossy().into_owned();
    let line = format!("{}rm -rf /", "git status; ".repeat(2000));
    assert_eq!(decide_line(&policy, &cwd, &line), Some(Decision::Deny));
}

/// A path too long to normalize still meets a deny rule: Emacs collapses
/// `x/..` and opens ~/.ssh/id_rsa.
#[test]
fn overlong_path_to_a_key_is_denied() {
    let fx = Fixture::new();
    let policy = property_policy(&fx, false);
    let path = format!(
        "{}/.ssh/{}id_rsa",
        fx.home().to_string_lossy(),
        "x/../".repeat(14_000)
    );
    let call = Call::from_value(&json!({"name": "read_file", "args": {"path": path}})).unwrap();
    assert_eq!(
        eval::evaluate(&policy, &call).decision,
        Some(Decision::Deny)
    );
}
