//! The bash oracle: run command lines in real bash inside a sandbox, record every program
//! bash executes with its exact words, and compare that with a reading of the line.
//!
//! How a line runs (see `standin.rs`):
//! - `bwrap` with the host's root read-only, a private tmpfs `/tmp`, fresh `/dev` and
//!   `/proc`, every namespace unshared (no network), all capabilities dropped, and the
//!   stand-in directory mounted over `/usr/local/bin`. One sandbox runs a batch of lines.
//! - Inside, a driver (`standin.rs --driver`) runs each line as `bash -c LINE` in an
//!   empty environment (`PATH` is the stand-in directory only, plus the variables
//!   `gen.rs` documents), in a fresh work directory, stdin from `/dev/null`, SIGPIPE
//!   ignored, in a process group killed after a deadline, with fd 9 a pipe it reads.
//! - Every program name a line may run is a stand-in that writes one record (its name,
//!   its arguments, whether a privilege wrapper ran above it) to fd 9 and then exits
//!   (`plain`), execs the real program (`env`, `timeout`, `xargs`, `find`, `bash`, ...),
//!   or skips its options and execs the rest (`sudo`, `doas`). The driver reads fd 9
//!   until every process holding it has exited, so background jobs are recorded too.
//!
//! The comparison rules are in [`compare`]; the generator is in `gen.rs`.

pub mod gen;

use gen::{Class, Generated, STANDINS};
use regex::Regex;
use std::collections::{BTreeSet, HashMap};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------
// Running lines.

/// One program bash executed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exec {
    /// The program's name (the stand-in's, whatever `argv[0]` was), then its arguments.
    pub words: Vec<String>,
    /// A privilege wrapper (`sudo`, `doas`) ran above it.
    pub privileged: bool,
}

/// What happened when bash ran one line.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub status: i32,
    pub execs: Vec<Exec>,
    /// The record cap was reached, or a program still held the pipe at the deadline.
    pub incomplete: bool,
    /// The first bytes bash wrote to stderr.
    pub stderr: String,
}

/// Seconds a line may run.
const LINE_SECONDS: u32 = 3;
/// Bytes of records kept per line.
const RECORD_CAP: u32 = 256 * 1024;
/// Lines per sandbox.
const BATCH: usize = 250;

/// The stand-ins, built once per test process.
pub struct Sandbox {
    bin: PathBuf,
}

static SANDBOX: OnceLock<Sandbox> = OnceLock::new();

/// The sandbox, set up on first use. Panics with a clear message when bash 5 or
/// bubblewrap is missing: the test never skips itself.
pub fn sandbox() -> &'static Sandbox {
    SANDBOX.get_or_init(Sandbox::setup)
}

fn hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

impl Sandbox {
    fn setup() -> Sandbox {
        let version = Command::new("/bin/bash")
            .args(["-c", "echo $BASH_VERSION"])
            .output()
            .unwrap_or_else(|e| panic!("the bash oracle needs /bin/bash (bash 5): {e}"));
        let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
        assert!(
            version.starts_with('5'),
            "the bash oracle needs bash 5 as /bin/bash, found {version:?}"
        );
        assert!(
            Path::new("/usr/bin/bwrap").exists(),
            "the bash oracle needs bubblewrap (/usr/bin/bwrap, Debian package bubblewrap) to run generated lines safely"
        );
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bash-oracle");
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).expect("create the oracle's directory");
        // The stand-in program.
        let source = include_str!("standin.rs");
        let stamp = dir.join("standin.hash");
        let exe = bin.join(".standin");
        let want = format!("{:x}", hash(source));
        if std::fs::read_to_string(&stamp).ok().as_deref() != Some(want.as_str()) || !exe.exists() {
            let src = dir.join("standin.rs");
            std::fs::write(&src, source).unwrap();
            let tmp = bin.join(format!(".standin.{}", std::process::id()));
            let out = Command::new("rustc")
                .args(["-O", "--edition", "2021", "-o"])
                .arg(&tmp)
                .arg(&src)
                .output()
                .unwrap_or_else(|e| {
                    panic!("the bash oracle compiles its stand-in with rustc: {e}")
                });
            assert!(
                out.status.success(),
                "rustc failed on the stand-in:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::fs::rename(&tmp, &exe).unwrap();
            std::fs::write(&stamp, &want).unwrap();
        }
        for (name, kind) in STANDINS {
            let p = bin.join(name);
            let text = format!("#!/usr/local/bin/.standin {name} {kind}\n");
            if std::fs::read_to_string(&p).ok().as_deref() != Some(text.as_str()) {
                std::fs::write(&p, &text).unwrap();
            }
            set_mode(&p, 0o755);
        }
        let sb = Sandbox { bin };
        // Smoke test: a stand-in, a real wrapper and sudo.
        let out = sb.run_batch(&["prog1 _1 'a b'; env sudo -u root rm _2 x".to_string()]);
        let words: Vec<Vec<String>> = out[0].execs.iter().map(|e| e.words.clone()).collect();
        let want: Vec<Vec<String>> = [
            vec!["prog1", "_1", "a b"],
            vec!["env", "sudo", "-u", "root", "rm", "_2", "x"],
            vec!["sudo", "-u", "root", "rm", "_2", "x"],
            vec!["rm", "_2", "x"],
        ]
        .iter()
        .map(|v| v.iter().map(|s| s.to_string()).collect())
        .collect();
        assert_eq!(words, want, "the oracle's smoke test failed: {:?}", out[0]);
        assert!(out[0].execs[3].privileged && !out[0].execs[1].privileged);
        sb
    }

    /// Run LINES in bash; several sandboxes at once (`ORACLE_JOBS`, default 2).
    pub fn run(&self, lines: &[String]) -> Vec<Outcome> {
        let jobs: usize = std::env::var("ORACLE_JOBS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2);
        let chunks: Vec<&[String]> = lines.chunks(BATCH).collect();
        let mut results: Vec<Option<Vec<Outcome>>> = vec![None; chunks.len()];
        let next = std::sync::atomic::AtomicUsize::new(0);
        let slots = std::sync::Mutex::new(&mut results);
        std::thread::scope(|s| {
            for _ in 0..jobs.max(1) {
                s.spawn(|| loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if k >= chunks.len() {
                        break;
                    }
                    let out = self.run_batch(chunks[k]);
                    slots.lock().unwrap()[k] = Some(out);
                });
            }
        });
        results.into_iter().flat_map(|r| r.unwrap()).collect()
    }

    /// Run LINES in one sandbox.
    pub fn run_batch(&self, lines: &[String]) -> Vec<Outcome> {
        let mut child = Command::new("/usr/bin/bwrap")
            .args([
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                "--proc",
                "/proc",
                "--tmpfs",
                "/tmp",
                "--ro-bind",
            ])
            .arg(&self.bin)
            .args([
                "/usr/local/bin",
                "--unshare-all",
                "--die-with-parent",
                "--new-session",
                "--cap-drop",
                "ALL",
                "--chdir",
                "/tmp",
                "--clearenv",
                "/usr/local/bin/.standin",
                "--driver",
            ])
            .arg(RECORD_CAP.to_string())
            .arg(LINE_SECONDS.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start bwrap: {e}"));
        let mut input = Vec::new();
        for l in lines {
            assert!(!l.contains('\0'), "a line cannot hold NUL: {l:?}");
            input.extend_from_slice(l.as_bytes());
            input.push(0);
        }
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let mut stderr = child.stderr.take().unwrap();
        let err_reader = std::thread::spawn(move || {
            let mut e = Vec::new();
            let _ = stderr.read_to_end(&mut e);
            e
        });
        let mut out = Vec::new();
        child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
        let _ = writer.join();
        let status = child.wait().unwrap();
        let err = err_reader.join().unwrap();
        let parsed = parse_driver(&out);
        assert!(
            parsed.len() == lines.len(),
            "the sandbox ran {} of {} lines (bwrap {status}): {}",
            parsed.len(),
            lines.len(),
            String::from_utf8_lossy(&err)
        );
        parsed
    }
}

fn set_mode(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode));
}

/// The driver's output: `S i\n`, `LEN FLAG\n` + records, `E status errlen\n` + stderr.
fn parse_driver(mut b: &[u8]) -> Vec<Outcome> {
    fn line<'a>(b: &mut &'a [u8]) -> Option<&'a str> {
        let nl = b.iter().position(|&c| c == b'\n')?;
        let l = std::str::from_utf8(&b[..nl]).ok()?;
        *b = &b[nl + 1..];
        Some(l)
    }
    let mut outs = Vec::new();
    while !b.is_empty() {
        let Some(s) = line(&mut b) else { break };
        if !s.starts_with("S ") {
            break;
        }
        let Some(head) = line(&mut b) else { break };
        let mut it = head.split(' ');
        let len: usize = it.next().and_then(|v| v.parse().ok()).unwrap_or(0);
        let flag = it.next().unwrap_or("-");
        if b.len() < len {
            break;
        }
        let recs = &b[..len];
        b = &b[len..];
        let Some(end) = line(&mut b) else { break };
        let mut it = end.split(' ').skip(1);
        let status: i32 = it.next().and_then(|v| v.parse().ok()).unwrap_or(-1);
        let elen: usize = it
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
            .min(b.len());
        let stderr = String::from_utf8_lossy(&b[..elen]).into_owned();
        b = &b[elen..];
        outs.push(Outcome {
            status,
            execs: parse_records(recs),
            incomplete: flag != "-" || status == 124 || status == 137,
            stderr,
        });
    }
    outs
}

fn parse_records(recs: &[u8]) -> Vec<Exec> {
    let mut fields = recs.split(|&c| c == 0);
    let mut execs = Vec::new();
    while let Some(count) = fields.next() {
        let Some(n) = std::str::from_utf8(count)
            .ok()
            .and_then(|c| c.parse::<usize>().ok())
        else {
            break;
        };
        let Some(flags) = fields.next() else { break };
        let mut words = Vec::with_capacity(n);
        for _ in 0..n {
            match fields.next() {
                Some(w) => words.push(String::from_utf8_lossy(w).into_owned()),
                None => break,
            }
        }
        if words.len() == n {
            execs.push(Exec {
                words,
                privileged: flags == b"p",
            });
        }
    }
    execs
}

// ---------------------------------------------------------------------------------------
// The reading, as the comparison sees it.

/// What a reading says a line runs.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub commands: Vec<ReadCommand>,
    /// The reading claims to be exact (an allow rule may rely on it).
    pub certain: bool,
    /// The line as a whole was read (no parse error, no line-wide doubt): its commands
    /// are the reading's, not guesses from the raw text.
    pub readable: bool,
}

#[derive(Debug, Clone, Default)]
pub struct ReadCommand {
    /// What runs, `argv[0]` a basename, words unquoted, expansions kept as written.
    pub argv: Vec<String>,
    /// The words as written, wrappers included.
    pub written: Vec<String>,
    /// The command as each hop of its wrappers sees it (`sudo rm x` inside
    /// `bash -c 'nohup sudo rm x'`), what deny rules for a wrapper match.
    pub forms: Vec<Vec<String>>,
    pub privileged: bool,
    /// The reading does not claim to know what this command runs.
    pub opaque: bool,
    /// Found by a second look (deny, ask and stop rules only): a guess at what bash may
    /// run, so it counts for soundness and is never an over-report.
    pub second_look: bool,
}

// ---------------------------------------------------------------------------------------
// The comparison.

/// What a disagreement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Bash ran a program the reading does not have (with these words): a deny rule for
    /// it does not match; on a certain line, an allow rule allows what it never saw.
    Missed,
    /// Bash ran a program under `sudo`/`doas` that the reading has, but not as
    /// privileged: a rule for the written form (`sudo rm`) does not see it.
    Unprivileged,
    /// Bash ran a wrapper (`nohup`, `env`, `sudo`, `bash`...) written inside a string the
    /// reading parsed again (`bash -c '...'`, `eval`): the reading has the command it
    /// ran, but not the wrapper's own words (its written words are the outer string's),
    /// so a rule for the wrapper as written does not match.
    HiddenWrapper,
    /// A line the reading calls certain ran a file's commands (`fromfile`).
    CertainRunsFile,
    /// The reading has a program that bash did not run although the line leaves it no
    /// way to (a comment, a quoted string, a line where every command runs): an
    /// over-block, and on a certain line an exactness miss.
    OverReport,
    /// The generator was wrong about bash (a `Must` command did not run, a `Data` one
    /// did, or bash found a syntax error in a line meant to be well formed). Not the
    /// reading's fault; the test fails on it so the generator stays honest.
    Model,
}

/// One disagreement.
#[derive(Debug, Clone)]
pub struct Finding {
    pub kind: Kind,
    /// The reading called the line certain.
    pub certain: bool,
    /// The exec's words (Missed, Unprivileged, CertainRunsFile, Model), or the reading
    /// command's argv (OverReport).
    pub words: Vec<String>,
    /// The tags of the construct it came from (the whole line's without an id).
    pub tags: BTreeSet<&'static str>,
    pub note: String,
}

impl Finding {
    /// One line: `Missed (certain): rm _3 x`.
    pub fn describe(&self) -> String {
        let c = if self.certain { " (certain)" } else { "" };
        let note = if self.note.is_empty() {
            String::new()
        } else {
            format!(" [{}]", self.note)
        };
        format!("{:?}{c}: {}{note}", self.kind, show_words(&self.words))
    }
}

pub fn show_words(w: &[String]) -> String {
    w.iter()
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./=:+,@%{}".contains(c))
            {
                w.clone()
            } else {
                format!("{w:?}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Bash builtins and keywords (bash 5.2 `compgen -b`, `compgen -k`): the reading lists
/// them as commands, bash does not exec them.
const BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
    "if",
    "then",
    "else",
    "elif",
    "fi",
    "case",
    "esac",
    "for",
    "select",
    "while",
    "until",
    "do",
    "done",
    "in",
    "function",
    "time",
    "{",
    "}",
    "!",
    "[[",
    "]]",
    "coproc",
];

/// Stand-ins that run another program: their own records are matched against the
/// written words of a reading command (`nohup sudo rm x` has records for `nohup`, `sudo`
/// and `rm`; the reading has one command, argv `rm x`, written `nohup sudo rm x`).
const WRAPPERS: &[&str] = &[
    "env", "nohup", "timeout", "nice", "xargs", "find", "stdbuf", "setsid", "taskset", "flock",
    "ionice", "bash", "sh", "sudo", "doas",
];

fn basename(w: &str) -> &str {
    w.rsplit('/').next().unwrap_or(w)
}

/// The id in WORDS: the first word `_N` after the name.
fn id_of(words: &[String]) -> Option<usize> {
    words
        .iter()
        .skip(1)
        .find_map(|w| w.strip_prefix('_').and_then(|n| n.parse().ok()))
}

/// The first id anywhere in WORDS, inside strings too (`bash -c 'ls _3'` has 3).
fn deep_id(words: &[String]) -> Option<usize> {
    words.iter().skip(1).find_map(|w| {
        w.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .find_map(|t| t.strip_prefix('_').and_then(|n| n.parse().ok()))
    })
}

/// A reading word compared with the words bash passed.
///
/// The reading keeps expansions as written (`$x`, `${x:-y}`, `$(cmd)`, backquotes, globs,
/// `~`, `{}` of find and xargs, `<(...)`): bash replaces them by text nobody can know
/// statically, and an unquoted one may split into several words or vanish. So a reading
/// word with such parts is a pattern: each part matches any text, the rest literally, and
/// it matches a run of consecutive exec words joined by one blank (zero words when it has
/// nothing literal). A literal `$` the reading got from quoted text looks the same and
/// matches itself, so the rule can only make the comparison more lenient, never report a
/// difference bash did not make. Everything else must be equal, byte for byte.
#[derive(Debug)]
enum Pat {
    Lit(String),
    Glob { re: Regex, empty_ok: bool },
}

fn pattern(w: &str) -> Pat {
    let b: Vec<char> = w.chars().collect();
    let mut re = String::from("(?s)^");
    let mut lit = String::new();
    let mut holes = 0;
    let mut nlit = 0;
    let mut i = 0;
    let hole = |re: &mut String, lit: &mut String, holes: &mut i32| {
        re.push_str(&regex::escape(lit));
        lit.clear();
        re.push_str(".*");
        *holes += 1;
    };
    // The index after the bracket that closes the one at I (OPEN, CLOSE), or the end;
    // quoted text (kept as written inside an expansion) skipped. For `(`, when more `)`
    // than `(` follow the match (a `case` pattern's `)` closed it early), the last `)`
    // of the word (unless a backquote follows, which makes the rest a hole anyway).
    let close = |i: usize, open: char, close: char| -> usize {
        let mut depth = 0;
        let mut k = i;
        let mut end = b.len();
        while k < b.len() {
            if b[k] == '\\' {
                k += 2;
                continue;
            }
            // A comment inside `$(`: to the end of its line, brackets and all.
            if open == '(' && b[k] == '#' && k > 0 && " \t\n;&|(".contains(b[k - 1]) {
                k += b[k..]
                    .iter()
                    .position(|&c| c == '\n')
                    .unwrap_or(b.len() - k);
                continue;
            }
            if b[k] == '\'' || b[k] == '"' {
                // In `$'...'` and `"..."` a backslash escapes the quote; in `'...'` not.
                let q = b[k];
                let escapes = q == '"' || (k > 0 && b[k - 1] == '$');
                k += 1;
                while k < b.len() && b[k] != q {
                    k += if escapes && b[k] == '\\' { 2 } else { 1 };
                }
                k += 1;
                continue;
            }
            if b[k] == open {
                depth += 1;
            } else if b[k] == close {
                depth -= 1;
                if depth == 0 {
                    end = k + 1;
                    break;
                }
            }
            k += 1;
        }
        if open == '(' && end < b.len() && !b[end..].contains(&'`') {
            let rest = &b[end..];
            let opens = rest.iter().filter(|&&c| c == '(').count();
            let closes = rest.iter().filter(|&&c| c == ')').count();
            if closes > opens {
                end = b.len() - b.iter().rev().position(|&c| c == ')').unwrap();
            }
        }
        end
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        match c {
            '$' if next == Some('(') => {
                hole(&mut re, &mut lit, &mut holes);
                i = close(i + 1, '(', ')');
            }
            '$' if next == Some('{') => {
                hole(&mut re, &mut lit, &mut holes);
                i = close(i + 1, '{', '}');
            }
            '$' if next == Some('[') => {
                hole(&mut re, &mut lit, &mut holes);
                i = close(i + 1, '[', ']');
            }
            '$' if next.is_some_and(|n| n.is_ascii_alphabetic() || n == '_') => {
                hole(&mut re, &mut lit, &mut holes);
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == '_') {
                    i += 1;
                }
            }
            // `$$`: the reading shows `\$$x` (a literal `$`, then `$x`) as `$$x` too, so
            // `$$` with a name after it is one hole, and `$$(` a `$` before a hole.
            '$' if next == Some('$') => {
                hole(&mut re, &mut lit, &mut holes);
                match b.get(i + 2) {
                    Some('(') | Some('{') => i += 1,
                    Some(c) if c.is_ascii_digit() || "@*#?-!".contains(*c) => i += 3,
                    Some('$') => i += 2,
                    _ => {
                        i += 2;
                        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == '_') {
                            i += 1;
                        }
                    }
                }
            }
            '$' if next.is_some_and(|n| n.is_ascii_digit() || "@*#?-!".contains(n)) => {
                hole(&mut re, &mut lit, &mut holes);
                i += 2;
            }
            // A backquote: the reading shows a quoted one (`\``) the same, so nothing
            // tells which pairs with which; the rest of the word is one hole.
            '`' => {
                hole(&mut re, &mut lit, &mut holes);
                i = b.len();
            }
            '<' | '>' if next == Some('(') => {
                hole(&mut re, &mut lit, &mut holes);
                i = close(i + 1, '(', ')');
            }
            '*' | '?' => {
                hole(&mut re, &mut lit, &mut holes);
                i += 1;
            }
            '[' if b[i + 1..].contains(&']') => {
                hole(&mut re, &mut lit, &mut holes);
                i = i + 1 + b[i + 1..].iter().position(|&c| c == ']').unwrap() + 1;
            }
            '{' if next == Some('}') => {
                hole(&mut re, &mut lit, &mut holes);
                i += 2;
            }
            '{' if {
                let end = close(i, '{', '}');
                let inner: String = b[i..end].iter().collect();
                end <= b.len()
                    && inner.ends_with('}')
                    && (inner.contains(',') || inner.contains(".."))
            } =>
            {
                hole(&mut re, &mut lit, &mut holes);
                i = close(i, '{', '}');
            }
            '~' if i == 0 || b[i - 1] == '=' || b[i - 1] == ':' => {
                // `~`, `~user`, `~+`, `~-`: the login name's characters.
                hole(&mut re, &mut lit, &mut holes);
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || "_.+-".contains(b[i])) {
                    i += 1;
                }
            }
            _ => {
                lit.push(c);
                nlit += 1;
                i += 1;
            }
        }
    }
    if holes == 0 {
        return Pat::Lit(w.to_string());
    }
    let empty_ok = nlit == 0;
    re.push_str(&regex::escape(&lit));
    re.push('$');
    Pat::Glob {
        re: Regex::new(&re).unwrap_or_else(|_| Regex::new("(?s)^.*$").unwrap()),
        empty_ok,
    }
}

/// Cache of patterns (the same words come back constantly).
struct Matcher {
    pats: HashMap<String, std::rc::Rc<Pat>>,
}

impl Matcher {
    fn new() -> Matcher {
        Matcher {
            pats: HashMap::new(),
        }
    }

    fn pat(&mut self, w: &str) -> std::rc::Rc<Pat> {
        if let Some(p) = self.pats.get(w) {
            return p.clone();
        }
        let p = std::rc::Rc::new(pattern(w));
        self.pats.insert(w.to_string(), p.clone());
        p
    }

    /// READ (reading words, `[0]` compared by basename) against EXEC; APPEND: EXEC may
    /// have more words at the end (xargs adds its input).
    fn words(&mut self, read: &[String], exec: &[String], append: bool) -> bool {
        if read.is_empty() || exec.is_empty() {
            return false;
        }
        let name = self.pat(basename_of_pattern(&read[0]));
        let name_ok = match &*name {
            Pat::Lit(l) => basename(l) == exec[0],
            Pat::Glob { re, .. } => re.is_match(&exec[0]),
        };
        if !name_ok {
            return false;
        }
        let pats: Vec<std::rc::Rc<Pat>> = read[1..].iter().map(|w| self.pat(w)).collect();
        let exec = &exec[1..];
        // DP: can pats[i..] match exec[j..]?
        let (n, m) = (pats.len(), exec.len());
        let mut ok = vec![vec![false; m + 1]; n + 1];
        for (j, cell) in ok[n].iter_mut().enumerate() {
            *cell = j == m || append;
        }
        for i in (0..n).rev() {
            for j in (0..=m).rev() {
                ok[i][j] = match &*pats[i] {
                    Pat::Lit(l) => j < m && exec[j] == *l && ok[i + 1][j + 1],
                    Pat::Glob { re, empty_ok } => {
                        (*empty_ok && ok[i + 1][j])
                            || (j + 1..=m)
                                .any(|k| ok[i + 1][k] && re.is_match(&exec[j..k].join(" ")))
                    }
                };
            }
        }
        ok[0][0]
    }
}

/// The basename of a reading word that may hold expansions: cut at the last `/` that
/// is not inside an expansion.
fn basename_of_pattern(w: &str) -> &str {
    if !w.contains('$') && !w.contains('`') {
        return basename(w);
    }
    let mut depth = 0i32;
    let mut cut = 0;
    for (i, c) in w.char_indices() {
        match c {
            '(' | '{' | '`' => depth += 1,
            ')' | '}' => depth -= 1,
            '/' if depth <= 0 => cut = i + 1,
            _ => {}
        }
    }
    &w[cut..]
}

/// Compare what bash ran (OUT) for the generated line G with reading R.
///
/// - Soundness: every exec must match a reading command: its argv, or for a wrapper's
///   own exec, a run of the command's written words starting at that wrapper (find's
///   terminator and xargs' input may follow). Under `sudo`, the command must be
///   privileged in the reading. `fromfile` (the commands of `rc.sh`) is left out, except
///   that a certain line must not run it.
/// - Over-report: a reading command bash did not exec (builtins, the line's functions and
///   commands the reading marks opaque aside, on a line read as a whole) is reported when the generator knows it cannot run (its id is `Data`), or
///   when the line is determined (every command in it runs) and the command has no id.
/// - Model: every `Must` id ran, no `Data` id did, and bash found no syntax error in a
///   line the generator meant as well formed.
pub fn compare(g: &Generated, out: &Outcome, r: &Reading) -> Vec<Finding> {
    let mut m = Matcher::new();
    let mut found = Vec::new();
    let tags_of = |id: Option<usize>| -> BTreeSet<&'static str> {
        match id.and_then(|i| g.ids.get(i)) {
            Some(info) if id != Some(0) => info.tags.clone(),
            _ => g.tags.clone(),
        }
    };
    // xargs adds its input at the end (also one written inside a `bash -c` string).
    let appends = |c: &ReadCommand, upto: usize| {
        c.written
            .iter()
            .take(upto)
            .any(|w| basename(w) == "xargs" || w.contains("xargs "))
    };
    for e in &out.execs {
        let name = e.words[0].as_str();
        let id = id_of(&e.words);
        if name == "fromfile" {
            // Reported when the reading does not show the file being run (`bash rc.sh`
            // is a program running a script, like `make`; `bash --rcfile rc.sh -c ls`
            // read as `ls` is not).
            let shown = r
                .commands
                .iter()
                .any(|c| c.argv.iter().any(|w| w.contains("rc.sh")));
            if r.certain && !shown {
                found.push(Finding {
                    kind: Kind::CertainRunsFile,
                    certain: true,
                    words: e.words.clone(),
                    tags: g.tags.clone(),
                    note: String::new(),
                });
            }
            continue;
        }
        let mut matched = false;
        let mut privileged_match = false;
        for c in &r.commands {
            let by_argv = m.words(&c.argv, &e.words, appends(c, c.written.len()));
            let mut by_written = false;
            if !by_argv && WRAPPERS.contains(&name) {
                'forms: for form in std::iter::once(&c.written).chain(&c.forms) {
                    for k in 0..form.len() {
                        if basename(&form[k]) == name {
                            let rest = &form[k..];
                            if (1..=rest.len())
                                .any(|j| m.words(&rest[..j], &e.words, appends(c, k)))
                            {
                                by_written = true;
                                break 'forms;
                            }
                        }
                    }
                }
            }
            if by_argv || by_written {
                matched = true;
                if c.privileged || !by_argv {
                    privileged_match = true;
                }
            }
        }
        // A wrapper the reading lost while it found what the wrapper ran: written inside a
        // string word of a command (`bash -c '...'`), or in a script read from stdin,
        // where the reading has the command of the same id (for a shell, the first id in
        // its string).
        let deep = deep_id(&e.words);
        let hidden = !matched
            && WRAPPERS.contains(&name)
            && e.words.len() > 1
            && r.commands.iter().any(|c| {
                c.written
                    .iter()
                    .skip(1)
                    .any(|w| w.contains(' ') && w.contains(name))
                    || (deep.is_some() && id_of(&c.argv) == deep)
            });
        if hidden {
            found.push(Finding {
                kind: Kind::HiddenWrapper,
                certain: r.certain,
                words: e.words.clone(),
                tags: tags_of(id),
                note: String::new(),
            });
        } else if !matched {
            found.push(Finding {
                kind: Kind::Missed,
                certain: r.certain,
                words: e.words.clone(),
                tags: tags_of(id),
                note: if e.privileged {
                    "under sudo".into()
                } else {
                    String::new()
                },
            });
        } else if e.privileged && !WRAPPERS.contains(&name) && !privileged_match {
            found.push(Finding {
                kind: Kind::Unprivileged,
                certain: r.certain,
                words: e.words.clone(),
                tags: tags_of(id),
                note: String::new(),
            });
        }
    }
    // Over-reports (a line that was not read as a whole has guessed commands, by design).
    for c in r
        .commands
        .iter()
        .filter(|c| r.readable && !c.opaque && !c.second_look)
    {
        let Some(first) = c.argv.first() else {
            continue;
        };
        let name = basename_of_pattern(first);
        if BUILTINS.contains(&name)
            || g.functions.contains(name)
            || matches!(pattern(name), Pat::Glob { .. })
        {
            continue;
        }
        let ran = out
            .execs
            .iter()
            .any(|e| m.words(&c.argv, &e.words, appends(c, c.written.len())));
        if ran {
            continue;
        }
        let id = id_of(&c.argv);
        let class = id.and_then(|i| g.ids.get(i)).map(|i| i.class);
        let report = match class {
            Some(Class::Data) => true,
            None => g.determined() && !out.incomplete,
            _ => false,
        };
        if report {
            found.push(Finding {
                kind: Kind::OverReport,
                certain: r.certain,
                words: c.argv.clone(),
                tags: tags_of(id),
                note: if class == Some(Class::Data) {
                    "text bash never runs".into()
                } else {
                    String::new()
                },
            });
        }
    }
    // The generator's own claims (not on a line whose command substitution bash failed
    // to parse again, see below).
    if !out.incomplete && !out.stderr.contains("command substitution: line") {
        let ran: BTreeSet<usize> = out
            .execs
            .iter()
            .filter(|e| !WRAPPERS.contains(&e.words[0].as_str()))
            .filter_map(|e| id_of(&e.words))
            .collect();
        for (i, info) in g.ids.iter().enumerate().skip(1) {
            let bad = match info.class {
                Class::Must => !ran.contains(&i),
                Class::Data => ran.contains(&i),
                Class::Maybe => false,
            };
            if bad {
                found.push(Finding {
                    kind: Kind::Model,
                    certain: r.certain,
                    words: vec![format!("_{i}")],
                    tags: info.tags.clone(),
                    note: format!(
                        "{:?} id {}",
                        info.class,
                        if info.class == Class::Must {
                            "did not run"
                        } else {
                            "ran"
                        }
                    ),
                });
            }
        }
        // bash's own parse errors only (not `test: syntax error` or arithmetic ones, which
        // are run-time statuses), and not in a command substitution (bash 5.2 prints a
        // substitution back to text and parses it again; its printer has bugs the
        // generator does not model) or in dash's strings.
        let parse_error = |l: &str| {
            // `/bin/bash:` is the line's shell; `bash:`/`sh:` a shell it started, which may
            // read text the generator does not claim to be well formed.
            l.starts_with("/bin/bash:")
                && (l.contains("syntax error near unexpected token")
                    || l.contains("syntax error: unexpected end of file")
                    || l.contains("unexpected EOF while looking for matching"))
                && !l.contains("command substitution")
        };
        let reprinted = out.stderr.contains("command substitution: line");
        if out.stderr.lines().any(parse_error)
            && !reprinted
            && !g.tags.contains("unsure")
            && !g.tags.contains("shell-c.sh")
            && !g.ids.is_empty()
        {
            found.push(Finding {
                kind: Kind::Model,
                certain: r.certain,
                words: vec![],
                tags: g.tags.clone(),
                note: format!(
                    "bash: {}",
                    out.stderr.lines().find(|l| parse_error(l)).unwrap_or("")
                ),
            });
        }
    }
    found
}

// ---------------------------------------------------------------------------------------
// Generating, running, comparing, shrinking.

/// One line's result.
#[derive(Debug, Clone)]
pub struct Checked {
    pub gen: Generated,
    pub outcome: Outcome,
    pub reading: Reading,
    pub findings: Vec<Finding>,
}

/// Generate, run and compare the lines of SEEDS.
pub fn check_seeds(seeds: impl Iterator<Item = u64>, read: fn(&str) -> Reading) -> Vec<Checked> {
    let gens: Vec<Generated> = seeds
        .map(|s| gen::generate(&mut gen::Tape::random(s)))
        .collect();
    check(gens, read)
}

/// Run and compare generated lines.
pub fn check(gens: Vec<Generated>, read: fn(&str) -> Reading) -> Vec<Checked> {
    let lines: Vec<String> = gens.iter().map(|g| g.line.clone()).collect();
    let outs = sandbox().run(&lines);
    gens.into_iter()
        .zip(outs)
        .map(|(g, o)| {
            let r = read(&g.line);
            let findings = compare(&g, &o, &r);
            Checked {
                gen: g,
                outcome: o,
                reading: r,
                findings,
            }
        })
        .collect()
}

/// A line given as text (a known example): no ids; DETERMINED says every command in it
/// runs.
pub fn plain(line: &str, determined: bool) -> Generated {
    let mut tags = BTreeSet::new();
    if !determined {
        tags.insert("unsure");
    }
    Generated {
        line: line.to_string(),
        ids: Vec::new(),
        functions: BTreeSet::new(),
        tags,
        choices: Vec::new(),
    }
}

/// Shrink C while KEEP holds of some finding: lower and delete choices of its tape and
/// generate again, in batches run together, until nothing smaller keeps the finding (or
/// DEADLINE passes).
pub fn shrink(
    c: &Checked,
    read: fn(&str) -> Reading,
    keep: &dyn Fn(&Finding, &Checked) -> bool,
    deadline: std::time::Instant,
) -> Checked {
    let mut best = c.clone();
    for _round in 0..40 {
        if std::time::Instant::now() > deadline {
            break;
        }
        let ch = &best.gen.choices;
        let mut cands: Vec<Vec<u32>> = Vec::new();
        // Cut the tail, delete blocks, zero and lower single choices.
        for cut in [ch.len() / 2, ch.len() * 3 / 4, ch.len().saturating_sub(1)] {
            cands.push(ch[..cut].to_vec());
        }
        for size in [16, 8, 4, 2, 1] {
            for start in (0..ch.len()).step_by(size) {
                let mut v = ch.clone();
                v.drain(start..(start + size).min(ch.len()));
                cands.push(v);
            }
        }
        for i in 0..ch.len() {
            if ch[i] > 0 {
                let mut v = ch.clone();
                v[i] = 0;
                cands.push(v.clone());
                if ch[i] > 1 {
                    v[i] = ch[i] / 2;
                    cands.push(v.clone());
                    v[i] = ch[i] - 1;
                    cands.push(v);
                }
            }
        }
        let mut seen = BTreeSet::new();
        let gens: Vec<Generated> = cands
            .iter()
            .map(|t| gen::generate(&mut gen::Tape::replay(t)))
            .filter(|g| {
                g.line.len() < best.gen.line.len()
                    || (g.line.len() == best.gen.line.len() && g.choices < best.gen.choices)
            })
            .filter(|g| seen.insert(g.line.clone()))
            .take(160)
            .collect();
        if gens.is_empty() {
            break;
        }
        let results = check(gens, read);
        let better = results
            .into_iter()
            .filter(|r| r.findings.iter().any(|f| keep(f, r)))
            .min_by_key(|r| (r.gen.line.len(), r.gen.choices.len()));
        match better {
            Some(b) => best = b,
            None => break,
        }
    }
    best
}
