//! `cargo bench --bench engine`: the engine alone, without Emacs.
//!
//! Compile and evaluate the policies of `bench/bench.el` (the same generator:
//! 9 base rules, then fillers of five kinds that match none of the calls),
//! and the memory a compiled policy holds, counted by a global allocator
//! (bytes allocated and not freed while compiling, the policy kept).

#[path = "../tests/common/mod.rs"]
mod common;

use divan::{black_box, Bencher};
use gptel_rust_hooks::compile::compile;
use gptel_rust_hooks::eval::evaluate;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::post::post;
use gptel_rust_hooks::rule::{rules_from_value, Arg, Call, Rule};
use serde_json::{json, Value as Json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::OnceLock;

/// The system allocator, counting the bytes in use.
struct Counting;

static IN_USE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        IN_USE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        IN_USE.fetch_add(new as isize - layout.size() as isize, Ordering::Relaxed);
        System.realloc(ptr, layout, new)
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const SIZES: &[usize] = &[10, 100, 1000, 10_000];

fn root() -> &'static str {
    static ROOT: OnceLock<String> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = common::process_dir("grhb-engine");
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.txt"), "hello\n").unwrap();
        let dir = std::fs::canonicalize(dir).unwrap();
        dir.to_str().unwrap().to_string()
    })
}

/// The rules every policy starts with (as in bench.el).
fn base_rules(root: &str) -> Vec<Json> {
    let inside = format!("{root}/**");
    vec![
        json!({"id": "ssh", "path": "~/.ssh/**", "decision": "deny", "reason": "No secrets."}),
        json!({"id": "read-project", "tool": ["read_file", "list_dir"], "path": inside, "decision": "allow"}),
        json!({"id": "outside", "tool": ["read_file", "write_file"], "path-outside": root, "decision": "ask"}),
        json!({"id": "no-rm", "tool": "shell", "command-prefix": ["rm -rf", "sudo"], "decision": "deny"}),
        json!({"id": "safe-shell", "tool": "shell",
               "command-prefix": ["git log", "git status", "grep", "head", "ls", "wc", "cd"],
               "decision": "allow"}),
        json!({"id": "drop", "tool": "query_db", "args": {"sql": {"regexp": "DROP TABLE"}}, "decision": "deny"}),
        json!({"id": "analytics", "tool": "query_db", "args": {"database": "analytics"}, "decision": "allow"}),
        json!({"id": "key-write", "tool": "write_file",
               "args": {"content": {"regexp": "BEGIN [A-Z]+ PRIVATE KEY"}}, "decision": "deny"}),
        json!({"id": "write-project", "tool": "write_file", "path": inside, "decision": "allow"}),
    ]
}

/// Generated rule number I, of five kinds, none matching the calls.
fn filler(i: usize) -> Json {
    let p = format!("/srv/p{i}");
    match i % 5 {
        0 => json!({"tool": format!("mcp__srv{i}__*"), "decision": "ask"}),
        1 => json!({"tool": "read_file", "path": format!("{p}/secret/**"), "decision": "deny"}),
        2 => json!({"tool": ["read_file", "write_file"], "cwd": format!("{p}/**"),
                    "path-outside": p, "decision": "ask"}),
        3 => json!({"tool": "shell", "command-prefix": format!("tool{i} run"),
                    "decision": if (i / 5).is_multiple_of(2) { "allow" } else { "deny" }}),
        _ => {
            json!({"tool": "query_db", "args": {"sql": {"regexp": format!("DROP TABLE t{i}[ ;]")}},
                    "decision": "deny"})
        }
    }
}

fn rules(n: usize) -> Vec<Rule> {
    let mut all = base_rules(root());
    let base = all.len();
    all.extend((0..n.saturating_sub(base)).map(filler));
    rules_from_value(&Json::Array(all)).expect("the generated rules read")
}

fn policy(n: usize) -> &'static Policy {
    static POLICIES: OnceLock<Vec<Policy>> = OnceLock::new();
    let all = POLICIES.get_or_init(|| {
        SIZES
            .iter()
            .map(|&n| compile(rules(n), Options::default()).expect("the generated rules compile"))
            .collect()
    });
    &all[SIZES.iter().position(|&s| s == n).unwrap()]
}

fn call(name: &str, args: &[(&str, Arg)]) -> Call {
    Call {
        name: name.into(),
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        buffer: Some("*gptel*".into()),
        backend: Some("bench".into()),
        model: Some("gpt-4o".into()),
        cwd: Some(format!("{}/", root())),
        result: None,
    }
}

fn s(text: &str) -> Arg {
    Arg::Str(text.into())
}

/// The realistic calls of bench.el.
fn calls() -> &'static [(&'static str, Call)] {
    static CALLS: OnceLock<Vec<(&'static str, Call)>> = OnceLock::new();
    CALLS.get_or_init(|| {
        let root = root();
        vec![
            (
                "query_db",
                call(
                    "query_db",
                    &[
                        ("database", s("analytics")),
                        ("sql", s("SELECT id, name FROM users WHERE id = 42")),
                        ("limit", Arg::Int(100)),
                        ("timeout", Arg::Int(30)),
                    ],
                ),
            ),
            (
                "read_file",
                call("read_file", &[("path", s(&format!("{root}/src/a.txt")))]),
            ),
            (
                "shell_pipeline",
                call(
                    "shell",
                    &[("command", s("git log --oneline | grep fix | head -n 5"))],
                ),
            ),
            (
                "shell_5_commands",
                call(
                    "shell",
                    &[(
                        "command",
                        s("cd src && ls -la | grep foo; git status && wc -l a.txt"),
                    )],
                ),
            ),
            (
                "write_file_1mb",
                call(
                    "write_file",
                    &[
                        ("path", s(&format!("{root}/src/out.txt"))),
                        ("content", Arg::Str("x".repeat(1 << 20))),
                    ],
                ),
            ),
        ]
    })
}

fn main() {
    // Memory a compiled policy holds, before the timings.
    for &n in SIZES {
        let rules = rules(n);
        let before = IN_USE.load(Ordering::Relaxed);
        let policy = compile(rules, Options::default()).unwrap();
        let held = IN_USE.load(Ordering::Relaxed) - before;
        println!(
            "memory: a compiled {n}-rule policy holds {:.2} MB ({held} bytes in use after compiling, the rules moved in)",
            held as f64 / 1e6
        );
        drop(black_box(policy));
    }
    divan::main();
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn compile_policy(bencher: Bencher, n: usize) {
    bencher
        .with_inputs(|| rules(n))
        .bench_values(|rules| compile(rules, Options::default()).unwrap());
}

fn decide(bencher: Bencher, n: usize, which: &str) {
    let policy = policy(n);
    let call = &calls().iter().find(|(name, _)| *name == which).unwrap().1;
    bencher.bench(|| evaluate(black_box(policy), black_box(call)));
}

#[divan::bench(args = SIZES)]
fn evaluate_query_db(bencher: Bencher, n: usize) {
    decide(bencher, n, "query_db");
}

#[divan::bench(args = SIZES)]
fn evaluate_read_file(bencher: Bencher, n: usize) {
    decide(bencher, n, "read_file");
}

#[divan::bench(args = SIZES)]
fn evaluate_shell_pipeline(bencher: Bencher, n: usize) {
    decide(bencher, n, "shell_pipeline");
}

#[divan::bench(args = SIZES)]
fn evaluate_shell_5_commands(bencher: Bencher, n: usize) {
    decide(bencher, n, "shell_5_commands");
}

#[divan::bench(args = SIZES)]
fn evaluate_write_file_1mb(bencher: Bencher, n: usize) {
    decide(bencher, n, "write_file_1mb");
}

#[divan::bench(sample_count = 20)]
fn pathological_regexp_1mb(bencher: Bencher) {
    let rules = rules_from_value(&json!([
        {"tool": "write_file", "args": {"content": {"regexp": r"^(\w+\s?)*$"}}, "decision": "deny"}
    ]))
    .unwrap();
    let policy = compile(rules, Options::default()).unwrap();
    let mut content = "aaaaaaaaaaaaaaa ".repeat((1 << 20) / 16);
    content.push('!');
    let call = call(
        "write_file",
        &[("path", s("/tmp/x.txt")), ("content", Arg::Str(content))],
    );
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

#[divan::bench(sample_count = 10)]
fn redact_5mb_secrets(bencher: Bencher) {
    let options = Options {
        redact_secrets: true,
        ..Options::default()
    };
    let policy = compile(rules(10), options).unwrap();
    let mut text = String::new();
    let mut i = 0usize;
    while text.len() < 5 << 20 {
        if i.is_multiple_of(997) {
            text.push_str(&format!(
                "2026-01-01 12:00:{:02} DEBUG auth header Authorization: Bearer abcdefghijklmnopqrstuvwxyz{i:06} and key sk-proj{i:026}\n",
                i % 60
            ));
        } else {
            text.push_str(&format!(
                "2026-01-01 12:00:{:02} INFO request {i} served /api/v1/items?page={} in {} ms\n",
                i % 60,
                i % 100,
                i % 250
            ));
        }
        i += 1;
    }
    let mut call = calls()[1].1.clone();
    call.result = Some(text);
    bencher.bench(|| post(black_box(&policy), black_box(&call)));
}

/// What the shell cases cost without resolving command words as paths: the
/// parse alone, and a policy with no path rule (so no word is a path).
#[divan::bench]
fn shell_parse_5_commands(bencher: Bencher) {
    let line = "cd src && ls -la | grep foo; git status && wc -l a.txt";
    bencher.bench(|| gptel_rust_hooks::shell::parse(black_box(line)));
}

#[divan::bench]
fn evaluate_shell_5_commands_no_path_rules(bencher: Bencher) {
    let shell_rules: Vec<Json> = base_rules(root())
        .into_iter()
        .filter(|r| r.get("tool") == Some(&json!("shell")))
        .collect();
    let policy = compile(
        rules_from_value(&Json::Array(shell_rules)).unwrap(),
        Options::default(),
    )
    .unwrap();
    let call = &calls()
        .iter()
        .find(|(name, _)| *name == "shell_5_commands")
        .unwrap()
        .1;
    bencher.bench(|| evaluate(black_box(&policy), black_box(call)));
}

/// The slowest adversarial lines found: a glob that would walk much of /usr, a line of
/// 20,000 path words, 2,048 commands. Each must stay under ~20 ms (the file-system budget
/// of one decision is 4,096 lookups or 12 ms; past a bound the line is not allowed).
fn adversarial(line: &str) -> (Policy, Call) {
    let policy = compile(
        rules_from_value(&json!([
            {"tool": "shell", "command-prefix": ["cat", "ls"], "decision": "allow"},
            {"tool": "shell", "command-prefix": "rm", "decision": "deny"},
            {"path": ["~/.ssh/**", ".env"], "decision": "deny"}
        ]))
        .unwrap(),
        Options::default(),
    )
    .unwrap();
    (policy, call("shell", &[("command", s(line))]))
}

#[divan::bench(sample_count = 20)]
fn adversarial_glob_usr(bencher: Bencher) {
    let (policy, call) = adversarial("cat /usr/*/*/*/*.h");
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

#[divan::bench(sample_count = 20)]
fn adversarial_20000_words(bencher: Bencher) {
    let words: Vec<String> = (0..20_000).map(|i| format!("src/f{i}.txt")).collect();
    let (policy, call) = adversarial(&format!("cat {}", words.join(" ")));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

#[divan::bench(sample_count = 20)]
fn adversarial_2048_commands(bencher: Bencher) {
    let (policy, call) = adversarial(&"ls a;".repeat(2_048));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

#[divan::bench(sample_count = 10)]
fn adversarial_5000_operators(bencher: Bencher) {
    let (policy, call) = adversarial(&format!("echo {}", "${x:-y} ".repeat(5_000)));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

#[divan::bench(sample_count = 10)]
fn adversarial_3000_substitutions(bencher: Bencher) {
    let (policy, call) = adversarial(&format!("echo {}", "$(ls) ".repeat(3_000)));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// A link followed by `..`, 500 times in one word (each `..` goes back through it).
#[divan::bench(sample_count = 10)]
fn adversarial_link_dotdot(bencher: Bencher) {
    let dir = std::env::temp_dir().join(format!("grh-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(dir.join("real/sub"));
    let _ = std::os::unix::fs::symlink(dir.join("real"), dir.join("lnk"));
    let word = format!("{}/{}x", dir.display(), "lnk/sub/../".repeat(500));
    let (policy, call) = adversarial(&format!("cat {word}"));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[divan::bench(sample_count = 10)]
fn adversarial_find_1000_execs(bencher: Bencher) {
    let (policy, call) = adversarial(&format!("find . {}", ["-exec cat {} +"; 1000].join(" ")));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

#[divan::bench(sample_count = 10)]
fn adversarial_shell_string_2000_commands(bencher: Bencher) {
    let (policy, call) = adversarial(&format!("bash -c '{}'", "ls x; ".repeat(2_000)));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

#[divan::bench(sample_count = 10)]
fn adversarial_300_pushd(bencher: Bencher) {
    let line: Vec<String> = (0..300).map(|i| format!("pushd x{i}")).collect();
    let (policy, call) = adversarial(&format!("{}; cat README", line.join("; ")));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// Sixteen substitutions, then one command of 30,000 words: each substitution was read
/// again up to the end of the line, and the words were copied into guesses (28 s).
#[divan::bench(sample_count = 10)]
fn adversarial_16_substitutions_30000_words(bencher: Bencher) {
    let (policy, call) = adversarial(&format!(
        "echo {}; ls {}",
        "$(ls) ".repeat(16),
        "a ".repeat(30_000)
    ));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// 200 nested substitutions around 3,000 commands.
#[divan::bench(sample_count = 10)]
fn adversarial_200_nested_substitutions(bencher: Bencher) {
    let (policy, call) = adversarial(&format!(
        "echo {}{}{}",
        "$(".repeat(200),
        "ls a ".repeat(3_000),
        ")".repeat(200)
    ));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// 101 substitutions with a `case` (each read again to the end of the line), then 3,000
/// commands.
#[divan::bench(sample_count = 10)]
fn adversarial_101_case_substitutions(bencher: Bencher) {
    let (policy, call) = adversarial(&format!(
        "echo {}{}",
        "$(case x in a) ls;; esac) ".repeat(101),
        "ls a ".repeat(3_000)
    ));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// The longest line fully read, 128 KB less a little: `ls "$(ls)" "a" "a" ...`.
#[divan::bench(sample_count = 10)]
fn adversarial_longest_read(bencher: Bencher) {
    let (policy, call) = adversarial(&fit("ls \"$(ls)\" ", "\"a\" ", ""));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// A line of one megabyte: past the longest read, only its first 128 KB are guessed at.
#[divan::bench(sample_count = 10)]
fn adversarial_one_megabyte(bencher: Bencher) {
    let line = format!("ls \"$(ls)\" {}", "\"a\" ".repeat(250_000));
    let (policy, call) = adversarial(&line[..line.len().min((1 << 20) - 16)]);
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// PREFIX, UNIT repeated, SUFFIX: as long as fits in a line fully read (127 KB).
fn fit(prefix: &str, unit: &str, suffix: &str) -> String {
    let n = (127 * 1024 - prefix.len() - suffix.len()) / unit.len();
    format!("{prefix}{}{suffix}", unit.repeat(n))
}

/// A here-document of 26,000 commands given to `bash`: read as bash's script, with
/// its second looks (the slowest line of this size we know).
#[divan::bench(sample_count = 10)]
fn adversarial_heredoc_to_bash(bencher: Bencher) {
    let (policy, call) = adversarial(&fit("bash <<E\n", "ls a\n", "E"));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// Eight nested `$(echo` around a 127 KB string: each level was copied and parsed
/// again (brush-parser's word parser reads a substitution once per level it is in).
#[divan::bench(sample_count = 10)]
fn adversarial_8_nested_around_a_long_string(bencher: Bencher) {
    let (policy, call) = adversarial(&fit(
        &format!("echo {}\"", "$(echo ".repeat(8)),
        "a",
        &format!("\"{}", ")".repeat(8)),
    ));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// An assignment of 23,000 `${a:-$(ls)}`: values put into words (once 380 ms).
#[divan::bench(sample_count = 10)]
fn adversarial_operator_values(bencher: Bencher) {
    let (policy, call) = adversarial(&fit("x=", "${a:-$(ls)}", ""));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// `sh -c` with 11,800 `ls \$'a'`: read as bash, then again as dash reads it.
#[divan::bench(sample_count = 10)]
fn adversarial_dash_string(bencher: Bencher) {
    let (policy, call) = adversarial(&fit("sh -c \"", "ls \\$'a'; ", "\""));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// `a=x; v0=$a$a; v1=$v0$v0; ...` 250 links, then 50 `git -C $v249 status`, in
/// `sh -c`: values put into words, each in every directory the line may be in (a
/// timing adversary's slowest line, 213 ms before path candidates were bounded).
#[divan::bench(sample_count = 10)]
fn adversarial_variable_chain(bencher: Bencher) {
    let mut line = "a=x; ".to_string();
    for i in 0..250 {
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("v{}", i - 1)
        };
        line.push_str(&format!("v{i}=${prev}${prev}; "));
    }
    let tail: Vec<String> = (0..50)
        .map(|i| format!("git -C $v{} status", 249 - i))
        .collect();
    line.push_str(&tail.join(" ; "));
    let (policy, call) = adversarial(&format!("sh -c '{line}'"));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// A `for` loop over 4,000 words of four brace expansions each.
#[divan::bench(sample_count = 10)]
fn adversarial_for_over_braces(bencher: Bencher) {
    let words = vec!["{a,b}{c,d}{e,f}{g,h}"; 4000].join(" ");
    let (policy, call) = adversarial(&format!("for i in {words}; do cat $i; done"));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// 120 values of 1 KB for one variable, `cd $x`, 100 `git -C $x status`, 256 `$x/$x`.
#[divan::bench(sample_count = 10)]
fn adversarial_many_long_values(bencher: Bencher) {
    let values: Vec<String> = (0..120)
        .map(|i| format!("x={}{i}", "y".repeat(1000)))
        .collect();
    let line = format!(
        "{}; cd $x; {}cat {}",
        values.join("; "),
        "git -C $x status; ".repeat(100),
        vec!["$x/$x"; 256].join(" ")
    );
    let (policy, call) = adversarial(&line);
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// 1,000 `git -C` with an absolute directory of 40 components each (`/usr/share/doc/./././x/..`):
/// every directory is a path to read.
#[divan::bench(sample_count = 10)]
fn adversarial_many_long_directories(bencher: Bencher) {
    let line: Vec<String> = (0..1000)
        .map(|i| {
            format!(
                "git -C /usr/share/doc/{}/{} status",
                vec!["."; i % 50].join("/"),
                "x/..".repeat(i / 50 + 1)
            )
        })
        .collect();
    let (policy, call) = adversarial(&line.join("; "));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// 3,000 absolute words of six components: the paths to read reach their bound.
#[divan::bench(sample_count = 10)]
fn adversarial_3000_absolute_words(bencher: Bencher) {
    let words: Vec<String> = (0..3000)
        .map(|i| format!("/usr/share/doc/bash/f{i}.txt"))
        .collect();
    let (policy, call) = adversarial(&format!("cat {}", words.join(" ")));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}

/// A glob whose last part is 4,000 stars, after `cd` to a glob of directories.
#[divan::bench(sample_count = 10)]
fn adversarial_glob_of_4000_stars(bencher: Bencher) {
    let (policy, call) = adversarial(&format!("cd /usr/*/; ls */{}Z", "*".repeat(4000)));
    bencher.bench(|| evaluate(black_box(&policy), black_box(&call)));
}
