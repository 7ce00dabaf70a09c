//! The program table verified against the real programs, as `tests/bash_oracle.rs`
//! verifies the bash reading against bash.
//!
//! For each entry of the table (`shell::table()`, subcommands included) whose program is
//! installed here, invocations are made from the entry's examples and from its options
//! and operand roles ([`invocations`]): each option spelled long and short, its value and
//! the operands filled by role (a file to read, a directory to walk, a new file to write,
//! a file of names, a pattern, data, `echo` as a command to run). Each runs for real in
//! bash, in a fresh scratch directory, under bubblewrap (no network, only the scratch
//! writable) and `strace -f` (see `tests/trace/mod.rs`). Then:
//!
//! - every program executed must be a command of the reading (`shell::read_for_rules`,
//!   what rules see): its basename is the `argv[0]` of one of them ([`Kind::Exec`]);
//! - every file opened, made, removed or changed in the scratch must be one the reading
//!   found: equal to a path candidate of the call (`Prepared::paths`, what path rules
//!   see), an ancestor of one, or below one that the table says the program walks, moves
//!   to or writes (`shell::read`, its roles) ([`Kind::Opened`]); when the command has no
//!   path at all and the program works in its directory anyway (`rg x`, `ls`), the
//!   finding is [`Kind::ImplicitCwd`];
//! - what the program opens by itself is ignored: the baseline of each program is what
//!   `NAME --version` and `NAME` alone open, run in an empty directory. A file outside the
//!   scratch's work directory that is not in the baseline is a program's own file (its
//!   configuration, `/etc/passwd` for `ls -l`): counted and shown as [`Kind::Own`], not a
//!   disagreement (the sandbox's hiding is for those, see the README).
//!
//! - for `git`, the work directory is a repository (`trace::work::TRACKED` committed, `.env`
//!   ignored, some files untracked; made once and copied for each run): the
//!   repository (`.git`) and the files at the top that configure git ([`GIT_OWN`]) are
//!   its own, and so is its move to the top; the rest of the tree is judged as above
//!   (git's `:/`, the top, is the work directory).
//!
//! Every disagreement is printed with its entry, shrunk (words dropped while the same
//! kind of finding stays). `KNOWN` lists the families the table has today, each with why;
//! a disagreement outside them fails the test. An entry that cannot be verified here says
//! so in the table (`verified: Verified::Not(WHY)`); every other one must be installed
//! (`make programs`) or be a builtin of bash, and `verified_entries_run` runs each.
//!
//! `make test` runs `sample`: every example, and generated invocations drawn with a fixed
//! seed, for at most `SAMPLE_SECONDS`. `make fuzz FUZZ=programs` runs `all_invocations`
//! (every invocation of every entry, FUZZ_SECONDS at most) and prints every family.

mod trace;
mod words;
use words::words;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::prepare::Prepared;
use gptel_rust_hooks::rule::{self, Call};
use gptel_rust_hooks::shell::{self, lookup, read, table, Program, Role, Value, Verified};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::time::{Duration, Instant};
use trace::work::{Dirs, GIT_OWN};
use trace::{Event, Op, Run, Scratch};

/// Seconds `make test` gives the sample.
const SAMPLE_SECONDS: u64 = 45;
/// Seconds one invocation may run.
const RUN_SECONDS: u64 = 5;

/// The entries the table marks as not verifiable here, with why.
fn unverified() -> Vec<(&'static str, &'static str)> {
    table()
        .iter()
        .filter_map(|p| match p.verified {
            Verified::Not(why) => Some((p.name(), why)),
            Verified::Here => None,
        })
        .collect()
}

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
    /// A program ran that is no command of the reading.
    Exec,
    /// A file of the work directory was opened or changed that the reading did not find.
    Opened,
    /// The command names no path, and the program worked in its directory anyway.
    ImplicitCwd,
    /// A file outside the work directory, not in the program's baseline: its own.
    Own,
}

impl Kind {
    /// Whether a finding of this kind is a disagreement (fails the test).
    fn disagrees(self) -> bool {
        self != Kind::Own
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Finding {
    kind: Kind,
    /// The program executed, or the path opened (scratch paths shown relative).
    what: String,
    op: Option<Op>,
}

/// A known family of disagreements: the table (or the engine) does not model this yet.
struct Known {
    name: &'static str,
    why: &'static str,
    /// An invocation of the family (entry, line); `known_families_still_disagree` checks
    /// that it still gives a disagreement of KIND, so the list shrinks as the table grows.
    example: (&'static str, &'static str),
    kind: Kind,
    covers: fn(&Invocation, &Finding) -> bool,
}

/// Known families, most specific first (the table is young; each is in the report).
const KNOWN: &[Known] = &[
    Known {
        name: "compressor",
        why: "`tar -z`/`-j`/`-J`/`--zstd`/`-a` run the compressor (`gzip`...) through \
              `sh -c`: a flag that runs a program, which the table does not model (its \
              `-I`/`--use-compress-program` is read as a shell string). Deny rules on the \
              compressor's name do not see it.",
        example: ("tar", "tar czf out1 d1"),
        kind: Kind::Exec,
        covers: |inv, f| {
            f.kind == Kind::Exec
                && inv.words.first().is_some_and(|w| w == "tar")
                && [
                    "gzip", "bzip2", "xz", "zstd", "lzma", "lzip", "lzop", "compress", "sh",
                ]
                .iter()
                .any(|c| f.what.starts_with(c) || f.what.starts_with(&format!("/bin/{c}")))
        },
    },
    Known {
        name: "temp-beside",
        why: "`zip` writes the archive to a temporary file (`ziXXXXXX`) in the work \
              directory, curl its cookie jar to `HASH.tmp` beside it, and each renames it \
              into place: the temporary name is no word of the line. Soundness (path \
              rules on the work directory).",
        example: ("zip", "zip -r out1.zip d1"),
        kind: Kind::Opened,
        covers: |inv, f| {
            let base = f.what.rsplit('/').next().unwrap_or("");
            f.kind == Kind::Opened
                && match inv.words.first().map(String::as_str) {
                    Some("zip") => base.starts_with("zi"),
                    Some("curl") => base.ends_with(".tmp"),
                    _ => false,
                }
        },
    },
    Known {
        name: "interpreter-code",
        why: "an interpreter runs what its code says (`awk 'BEGIN{system(\"rm x\")}'`): \
              the table types the code `Code`, and a language with no reader (all but \
              sed's) is read as a program the table does not know: only a rule that names \
              the program allows it, and deny rules read its words generously (unsure).",
        example: ("awk", "awk 'BEGIN{system(\"true\")}'"),
        kind: Kind::Exec,
        covers: |inv, f| {
            f.kind == Kind::Exec
                && inv.words.first().and_then(|n| lookup(n)).is_some_and(|p| {
                    read(p, &inv.words[1..])
                        .runs
                        .iter()
                        .any(|r| matches!(r, shell::Run::Code(_)))
                })
        },
    },
    Known {
        name: "git-helper",
        why: "git runs its own helper programs: for a repository given by a path or URL \
              (`git fetch DIR` runs `git-upload-pack 'DIR'` through `sh -c`), and the \
              subcommands git implements as shell scripts (`git submodule`, `git \
              mergetool` run `sed`, `git-sh-i18n`...): programs of git's exec path or \
              its scripts' own that no word names. Deny rules on their names do not see \
              them.",
        example: ("git submodule", "git submodule status"),
        kind: Kind::Exec,
        covers: |inv, f| {
            const SCRIPTS: &[&str] = &[
                "submodule",
                "mergetool",
                "difftool",
                "request-pull",
                "quiltimport",
                "web--browse",
                "filter-branch",
                "instaweb",
                "bisect",
            ];
            f.kind == Kind::Exec
                && inv.words.first().is_some_and(|w| w == "git")
                && (f.what.starts_with("git-")
                    || f.what.starts_with("/bin/sh -c git-")
                    || f.what.contains("/git-core/git-")
                    || inv.words.iter().any(|w| SCRIPTS.contains(&w.as_str())))
        },
    },
    Known {
        name: "clone-dir",
        why: "`git clone URL` without a directory makes one named after the URL's last \
              component, and `git clone URL` and `git submodule add URL` first look for \
              the URL as a local path (`https:/x.org/r.git`, `//` collapsed): names no \
              word of the line gives as written. Soundness (path rules on the work \
              directory).",
        example: ("git clone", "git clone --depth 1 https://x.org/r.git"),
        kind: Kind::Opened,
        covers: |inv, f| {
            let w = |s: &str| inv.words.iter().any(|x| x == s);
            f.kind == Kind::Opened
                && inv.words.first().is_some_and(|w| w == "git")
                && (w("clone") || (w("submodule") && w("add")))
        },
    },
    Known {
        name: "pager",
        why: "`bat` runs its pager (`less`), or probes it, by itself: no word of the line \
              names it (`--pager CMD` does, and is read). Deny rules on the pager's name \
              do not see it.",
        example: ("bat", "batcat --list-languages"),
        kind: Kind::Exec,
        covers: |inv, f| {
            f.kind == Kind::Exec
                && inv
                    .words
                    .first()
                    .is_some_and(|w| w == "bat" || w == "batcat")
                && (f.what.starts_with("less") || f.what.starts_with("/usr/bin/less"))
        },
    },
];

fn family(inv: &Invocation, f: &Finding) -> Option<&'static Known> {
    KNOWN.iter().find(|k| (k.covers)(inv, f))
}

// The scratch: a work directory (the cwd), a home, a /tmp, an empty directory
// (`trace::work`).

// ---------------------------------------------------------------------------------------
// Invocations.

#[derive(Debug, Clone)]
struct Invocation {
    /// The entry (`git log` for a subcommand).
    entry: String,
    /// The words, program name first.
    words: Vec<String>,
    /// From an example of the entry (else generated).
    example: bool,
}

impl Invocation {
    fn line(&self) -> String {
        self.words
            .iter()
            .map(|w| quote(w))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// An invocation of LINE (plain words, quotes allowed).
    fn of(entry: &str, line: &str) -> Invocation {
        Invocation {
            entry: entry.to_string(),
            words: words(line),
            example: false,
        }
    }
}

/// W quoted for bash when it needs it.
fn quote(w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%~^".contains(c))
        && !w.starts_with('~')
        || w.starts_with("~/")
            && w[2..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A word for a value or operand of ROLE, or None when no generic word fits (code).
fn word_for(role: Role) -> Option<Vec<String>> {
    let w = match role {
        Role::Data => "1",
        Role::DataFile => "@f2",
        Role::Read => "f2",
        Role::Write => "out1",
        Role::Walk
        | Role::WalkFollow
        | Role::WalkVisible
        | Role::List
        | Role::WalkTracked
        | Role::ShowTracked
        | Role::WalkUnignored
        | Role::WriteTracked
        | Role::Chdir
        | Role::WriteTree => "d1",
        Role::NamesFrom => "names.txt",
        Role::Pattern => "TODO",
        Role::SkipName | Role::SkipDir | Role::OnlyName => "*.txt",
        Role::FileType => "f",
        Role::Url => "http://127.0.0.1:9/x",
        Role::Argv => "echo",
        Role::Shell => "echo hi",
        Role::Code | Role::Hidden => return None,
    };
    Some(vec![w.to_string()])
}

/// The operands of PROGRAM, filled by role; FIRST_TAKEN when an option took the first
/// operand's place.
fn operands(p: &Program, first_taken: bool) -> Option<Vec<String>> {
    let ops = &p.operands;
    let mut out = Vec::new();
    if let (Some(first), false) = (ops.first, first_taken) {
        out.extend(word_for(first)?);
    }
    if ops.rest != Role::Data || ops.first.is_none() {
        out.extend(word_for(ops.rest)?);
    }
    if let Some(last) = ops.last {
        out.extend(word_for(last)?);
    }
    Some(out)
}

/// Every invocation of PROGRAM (at PREFIX: its name, then subcommand names).
fn invocations_of(p: &'static Program, prefix: &[String], entry: &str, out: &mut Vec<Invocation>) {
    let push = |words: Vec<String>, example: bool, out: &mut Vec<Invocation>| {
        out.push(Invocation {
            entry: entry.to_string(),
            words,
            example,
        })
    };
    for e in p.examples {
        push(words(e.line), true, out);
    }
    if let Some(ops) = operands(p, false) {
        push([prefix.to_vec(), ops].concat(), false, out);
    }
    for o in p.opts {
        let taken = p
            .operands
            .unless
            .iter()
            .any(|u| *u == o.short || *u == o.long);
        let Some(ops) = operands(p, taken) else {
            continue;
        };
        let value = match o.value {
            Value::None => Some(Vec::new()),
            Value::Pair => word_for(o.role).map(|v| [vec!["x".to_string()], v].concat()),
            _ => word_for(o.role),
        };
        let Some(mut value) = value else {
            continue;
        };
        if o.value == Value::UntilSemicolon {
            value.push(";".into());
        }
        let mut spellings: Vec<Vec<String>> = Vec::new();
        if !o.long.is_empty() {
            spellings.push(match (o.value, value.as_slice()) {
                (Value::None, _) => vec![format!("--{}", o.long)],
                (Value::Optional, [v]) => vec![format!("--{}={v}", o.long)],
                _ => [vec![format!("--{}", o.long)], value.clone()].concat(),
            });
        }
        if !o.short.is_empty() {
            spellings.push(match (o.value, value.as_slice()) {
                (Value::None, _) => vec![format!("-{}", o.short)],
                (Value::Optional, [v]) => vec![format!("-{}{v}", o.short)],
                _ => [vec![format!("-{}", o.short)], value.clone()].concat(),
            });
        }
        for s in spellings {
            push([prefix.to_vec(), s, ops.clone()].concat(), false, out);
        }
    }
    for s in p.subs {
        let mut pre = prefix.to_vec();
        pre.push(s.name().to_string());
        invocations_of(s, &pre, &format!("{entry} {}", s.name()), out);
    }
}

/// Where a program of the table is installed, by any of its names; or the name of a
/// builtin of bash (`cd`, `export`), which bash runs itself.
fn installed(p: &Program) -> Option<String> {
    for n in p.names {
        for d in ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            let path = format!("{d}/{n}");
            if Path::new(&path).exists() {
                return Some(n.to_string());
            }
        }
    }
    p.names
        .iter()
        .find(|n| bash_builtins().contains(**n))
        .map(|n| n.to_string())
}

/// The builtins of bash (`compgen -b`).
fn bash_builtins() -> &'static BTreeSet<String> {
    static BUILTINS: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    BUILTINS.get_or_init(|| {
        let out = std::process::Command::new("/bin/bash")
            .args(["-c", "compgen -b"])
            .output()
            .expect("run bash");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    })
}

/// Every invocation of every installed entry; and the entries not installed.
fn invocations() -> (Vec<Invocation>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for p in table() {
        if let Verified::Not(_) = p.verified {
            continue;
        }
        let Some(name) = installed(p) else {
            missing.push(p.name().to_string());
            continue;
        };
        let before = out.len();
        invocations_of(p, std::slice::from_ref(&name), p.name(), &mut out);
        // Examples are written with the entry's first name: run the installed one.
        for inv in &mut out[before..] {
            if inv
                .words
                .first()
                .is_some_and(|w| p.names.contains(&w.as_str()))
            {
                inv.words[0] = name.clone();
            }
        }
    }
    (out, missing)
}

// ---------------------------------------------------------------------------------------
// Checking one invocation.

struct Checker {
    scratch: Scratch,
    dirs: Dirs,
    policy: Policy,
    /// Per program name: (paths, program basenames) its baseline runs touched.
    baselines: HashMap<String, (BTreeSet<String>, BTreeSet<String>)>,
    runs: usize,
}

/// A path with the parts that change from run to run made plain (`/proc/123/` ->
/// `/proc/N/`).
fn plain_path(p: &str) -> String {
    let mut out = Vec::new();
    for (i, c) in p.split('/').enumerate() {
        if i == 2 && p.starts_with("/proc/") && c.chars().all(|d| d.is_ascii_digit()) {
            out.push("N");
        } else {
            out.push(c);
        }
    }
    out.join("/")
}

fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

fn inside(p: &str, dir: &str) -> bool {
    p == dir || p.starts_with(&format!("{dir}/"))
}

/// Whether P is a name the path TEMPLATE stands for: the reading's name of a file no
/// word gives (`sed -i`'s `dir/sed??????`), `?` any one character.
fn template(t: &str, p: &str) -> bool {
    t.contains('?')
        && t.chars().count() == p.chars().count()
        && t.chars().zip(p.chars()).all(|(a, b)| a == b || a == '?')
}

impl Checker {
    fn new() -> Checker {
        let scratch = Scratch::new("programs");
        let dirs = Dirs::new(&scratch);
        let rules = rule::rules_from_value(&json!([
            {"id": "probe", "tool": "shell", "path": "/nonexistent/**", "decision": "deny"}
        ]))
        .expect("rules");
        let policy = compile::compile(
            rules,
            Options {
                home: Some(dirs.home.clone()),
                ..Options::default()
            },
        )
        .expect("policy");
        Checker {
            scratch,
            dirs,
            policy,
            baselines: HashMap::new(),
            runs: 0,
        }
    }

    fn run_line(&mut self, line: &str, cwd: &Path) -> Run {
        self.runs += 1;
        let (home, tmp) = (self.dirs.home.clone(), self.dirs.tmp.clone());
        self.scratch.run(
            &["/bin/bash", "-c", line],
            cwd,
            &home,
            Some(&tmp),
            RUN_SECONDS,
        )
    }

    /// What NAME opens and runs by itself: `NAME --version` and `NAME` alone, in an empty
    /// directory (and bash's own, which runs them).
    fn baseline(&mut self, name: &str) -> (BTreeSet<String>, BTreeSet<String>) {
        if let Some(b) = self.baselines.get(name) {
            return b.clone();
        }
        let mut paths = BTreeSet::new();
        let mut execs = BTreeSet::new();
        for line in [
            format!("{name} --version"),
            name.to_string(),
            ":".to_string(),
        ] {
            self.dirs.reset(&[], &[], false);
            let empty = self.dirs.empty.clone();
            let run = self.run_line(&line, &empty);
            for e in &run.events {
                if e.op == Op::Exec {
                    execs.insert(basename(&e.path).to_string());
                } else {
                    paths.insert(plain_path(&e.path));
                }
            }
        }
        let b = (paths, execs);
        self.baselines.insert(name.to_string(), b.clone());
        b
    }

    /// Run INV and return its findings.
    fn check(&mut self, inv: &Invocation) -> Vec<Finding> {
        let line = inv.line();
        self.check_line(inv, &line)
    }

    /// Run LINE, an invocation of INV's program, and return its findings.
    fn check_line(&mut self, inv: &Invocation, line: &str) -> Vec<Finding> {
        let Some(name) = inv.words.first().cloned() else {
            return Vec::new();
        };
        let (base_paths, base_execs) = self.baseline(&name);
        let work = self.dirs.work.to_string_lossy().into_owned();
        let home = self.dirs.home.to_string_lossy().into_owned();
        let root = self.scratch.root.to_string_lossy().into_owned();
        // The reading: what rules see.
        let (parsed, second) = shell::read_for_rules(line);
        let commands: Vec<&shell::SimpleCommand> = parsed
            .commands
            .iter()
            .chain(second.iter().flat_map(|l| l.commands.iter()))
            .collect();
        let mut programs: BTreeSet<String> = BTreeSet::from(["bash".to_string()]);
        for c in &commands {
            for f in &c.forms {
                if let Some(w) = f.first() {
                    programs.insert(basename(w).to_string());
                }
            }
        }
        // The path candidates of the call, and the table's roles of the words.
        let call =
            Call::from_value(&json!({"name": "shell", "args": {"command": line}, "cwd": work}))
                .expect("a call");
        let prepared = Prepared::new(&self.policy, &call);
        // git's `:/` is the top of the work tree, which every run here starts at (the
        // engine finds it as `prepare::words::git_top` does).
        let abs = |w: &str| match (w.strip_prefix("~/"), w.strip_prefix(":/")) {
            (Some(rest), _) => trace::absolute(&home, rest),
            _ if w == "~" => home.clone(),
            (None, Some(rest)) => trace::absolute(&work, rest),
            (None, None) => trace::absolute(&work, w),
        };
        let mut cands: BTreeSet<String> = BTreeSet::new();
        for c in prepared.paths() {
            if let Ok(n) = &c.norm {
                cands.insert(trace::collapse(n));
            }
            if let Some(l) = &c.lexical {
                cands.insert(trace::collapse(l));
            }
        }
        // A program that reads the names of the files it opens from a file: the deny
        // side meets every path rule for it, unsure (`Unsure::NamesFrom`).
        let names_from = prepared
            .paths()
            .iter()
            .any(|c| matches!(c.unsure, Some(shell::Unsure::NamesFrom(_))));
        let mut below: BTreeSet<String> = BTreeSet::new();
        let mut typed: Vec<String> = Vec::new();
        let mut files: Vec<String> = Vec::new();
        let mut dirs: Vec<String> = Vec::new();
        for c in &commands {
            let Some(p) = c.argv.first().and_then(|n| lookup(n)) else {
                continue;
            };
            let r = read(p, &c.argv[1..]);
            for part in &r.parts {
                if !part.role.is_path() {
                    continue;
                }
                typed.push(part.text.clone());
                match part.role {
                    r if r.is_tree() || matches!(r, Role::Chdir | Role::Write) => {
                        below.insert(abs(&part.text));
                        if part.role != Role::Write {
                            dirs.push(part.text.clone());
                        }
                    }
                    _ => files.push(part.text.clone()),
                }
            }
        }
        // The scratch, with the files the example names.
        let placeable =
            |w: &String| !w.starts_with(['/', ':']) && !w.contains("..") && w != "-" && w != ".";
        let files: Vec<String> = files.into_iter().filter(placeable).collect();
        let dirs: Vec<String> = dirs.into_iter().filter(placeable).collect();
        let repo = name == "git";
        let git_dir = format!("{work}/.git");
        self.dirs.reset(&files, &dirs, repo);
        let cwd = self.dirs.work.clone();
        let run = self.run_line(line, &cwd);
        let mut out: Vec<Finding> = Vec::new();
        let mut push = |f: Finding| {
            if !out.contains(&f) {
                out.push(f);
            }
        };
        let show = |p: &str| p.strip_prefix(&format!("{root}/")).unwrap_or(p).to_string();
        // No word in a path role of the table (the engine's generous candidates aside).
        let no_paths = typed.is_empty();
        for e in &run.events {
            if e.op == Op::Exec {
                let b = basename(&e.path);
                if e.ok && !programs.contains(b) && !base_execs.contains(b) {
                    push(Finding {
                        kind: Kind::Exec,
                        what: e.argv.join(" "),
                        op: None,
                    });
                }
                continue;
            }
            // A failed open read nothing and changed nothing.
            if !e.ok {
                continue;
            }
            if names_from && inside(&e.path, &work) {
                continue;
            }
            // git's repository is its own store (its index, objects, refs, config),
            // read and written by every subcommand, and the files at the top of the
            // work tree that configure it are its own too: not files of the work tree.
            // It moves to the top before anything else.
            if repo
                && (inside(&e.path, &git_dir)
                    || GIT_OWN.iter().any(|f| e.path == format!("{work}/{f}"))
                    || (e.op == Op::Chdir && e.path == work))
            {
                continue;
            }
            if let Some(f) = self.judge(e, &cands, &below, &base_paths, &work, no_paths) {
                push(Finding {
                    what: show(&f.what),
                    ..f
                });
            }
        }
        out
    }

    /// The finding event E gives, if any.
    fn judge(
        &self,
        e: &Event,
        cands: &BTreeSet<String>,
        below: &BTreeSet<String>,
        base: &BTreeSet<String>,
        work: &str,
        no_paths: bool,
    ) -> Option<Finding> {
        let p = e.path.as_str();
        if base.contains(&plain_path(p)) {
            return None;
        }
        let explained = cands.contains(p)
            || cands.iter().any(|c| inside(c, p) || template(c, p))
            || below.iter().any(|b| inside(p, b));
        if explained {
            return None;
        }
        let kind = if !inside(p, work) {
            Kind::Own
        } else if no_paths {
            Kind::ImplicitCwd
        } else {
            Kind::Opened
        };
        Some(Finding {
            kind,
            what: p.to_string(),
            op: Some(e.op),
        })
    }

    /// INV with words dropped while a finding of KIND stays (at most BUDGET runs).
    fn shrink(&mut self, inv: &Invocation, kind: Kind, mut budget: usize) -> Invocation {
        let mut best = inv.clone();
        let mut i = 1;
        while i < best.words.len() && budget > 0 {
            let mut cand = best.clone();
            cand.words.remove(i);
            budget -= 1;
            if self.check(&cand).iter().any(|f| f.kind == kind) {
                best = cand;
            } else {
                i += 1;
            }
        }
        best
    }
}

// ---------------------------------------------------------------------------------------
// The tests.

/// A small generator of numbers, for a seeded sample.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

struct Report {
    entries: usize,
    verified: BTreeSet<String>,
    missing: Vec<String>,
    ran: usize,
    /// (entry, invocation, finding, family) of every disagreement.
    disagreements: Vec<(Invocation, Finding, Option<&'static str>)>,
    own: BTreeMap<String, BTreeSet<String>>,
}

/// Check INVS until DEADLINE.
fn verify(invs: &[Invocation], missing: Vec<String>, deadline: Instant) -> (Report, Checker) {
    let mut checker = Checker::new();
    let mut report = Report {
        entries: table().len(),
        verified: BTreeSet::new(),
        missing,
        ran: 0,
        disagreements: Vec::new(),
        own: BTreeMap::new(),
    };
    for inv in invs {
        if Instant::now() > deadline {
            break;
        }
        report.ran += 1;
        report
            .verified
            .insert(inv.entry.split(' ').next().unwrap_or("").to_string());
        for f in checker.check(inv) {
            if f.kind.disagrees() {
                let fam = family(inv, &f).map(|k| k.name);
                report.disagreements.push((inv.clone(), f, fam));
            } else {
                report
                    .own
                    .entry(inv.entry.clone())
                    .or_default()
                    .insert(f.what);
            }
        }
    }
    (report, checker)
}

/// Print REPORT, shrinking the first disagreement of each (entry, kind) outside the known
/// families; return how many disagreements are outside them.
fn print(report: &Report, checker: &mut Checker, shrink: bool) -> usize {
    println!(
        "\nprogram table: {} entries; {} verified against the real program here ({}); not \
         installed: {:?}; unverifiable: {:?}; {} invocations ran ({} runs with baselines)",
        report.entries,
        report.verified.len(),
        report
            .verified
            .iter()
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        report.missing,
        unverified(),
        report.ran,
        checker.runs
    );
    let mut by_family: BTreeMap<&str, usize> = BTreeMap::new();
    let mut seen: BTreeSet<(String, Kind)> = BTreeSet::new();
    let mut new = 0;
    let every = std::env::var("FUZZ_ALL").is_ok();
    let mut shown: BTreeSet<(String, Kind, String)> = BTreeSet::new();
    for (inv, f, fam) in &report.disagreements {
        if every && fam.is_none() && shown.insert((inv.entry.clone(), f.kind, f.what.clone())) {
            println!(
                "ALL [{}] {:?} `{}`: {:?} {}",
                inv.entry,
                f.kind,
                inv.line(),
                f.op,
                f.what
            );
        }
        match fam {
            Some(name) => *by_family.entry(name).or_default() += 1,
            None => {
                new += 1;
                if seen.insert((inv.entry.clone(), f.kind)) {
                    let small = if shrink {
                        checker.shrink(inv, f.kind, 8)
                    } else {
                        inv.clone()
                    };
                    println!(
                        "DISAGREE [{}] {:?}: `{}` (shrunk from `{}`): {}{}",
                        inv.entry,
                        f.kind,
                        small.line(),
                        inv.line(),
                        f.op.map(|o| format!("{o:?} ")).unwrap_or_default(),
                        f.what
                    );
                }
            }
        }
    }
    println!("known families: {by_family:?}");
    for k in KNOWN {
        if by_family.contains_key(k.name) {
            println!("  {}: {}", k.name, k.why);
        }
    }
    for (entry, files) in &report.own {
        let first: Vec<&String> = files.iter().take(4).collect();
        println!("own files of {entry} (not disagreements): {first:?}");
    }
    new
}

/// Each known family's example still disagrees (else the family is closed: remove it).
#[test]
fn known_families_still_disagree() {
    let mut c = Checker::new();
    let mut closed = Vec::new();
    for k in KNOWN {
        let inv = Invocation::of(k.example.0, k.example.1);
        let found = c.check(&inv);
        let still = found
            .iter()
            .any(|f| f.kind == k.kind && family(&inv, f).is_some_and(|g| g.name == k.name));
        if !still {
            closed.push(format!("{}: `{}`: {found:?}", k.name, k.example.1));
        }
    }
    assert!(
        closed.is_empty(),
        "these known families no longer disagree on their example; remove them from KNOWN:\n{}",
        closed.join("\n")
    );
}

/// `make test`: every example, then generated invocations in a seeded order, for at most
/// SAMPLE_SECONDS.
#[test]
fn sample() {
    let start = Instant::now();
    let (all, missing) = invocations();
    assert!(
        !all.is_empty(),
        "no entry of the table is installed here (`make deps`)"
    );
    let (mut examples, mut generated): (Vec<Invocation>, Vec<Invocation>) =
        all.into_iter().partition(|i| i.example);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for i in (1..generated.len()).rev() {
        let j = (xorshift(&mut state) % (i as u64 + 1)) as usize;
        generated.swap(i, j);
    }
    examples.extend(generated);
    let (report, mut checker) = verify(
        &examples,
        missing,
        start + Duration::from_secs(SAMPLE_SECONDS),
    );
    let new = print(&report, &mut checker, true);
    println!("total {:.1} s", start.elapsed().as_secs_f64());
    assert!(report.ran > 0, "no invocation ran");
    assert_eq!(
        new, 0,
        "disagreements with the real programs outside the known families (above)"
    );
}

/// Every entry the table marks verified here is installed (or a builtin of bash) and
/// runs: its first example, checked as `sample` checks it.
#[test]
fn verified_entries_run() {
    let mut c = Checker::new();
    let mut problems = Vec::new();
    let mut ran = 0;
    for p in table() {
        if let Verified::Not(why) = p.verified {
            assert!(!why.trim().is_empty(), "{}: no reason", p.name());
            continue;
        }
        let Some(name) = installed(p) else {
            problems.push(format!("{}: marked verified, not installed here", p.name()));
            continue;
        };
        let Some(e) = p.examples.first() else {
            problems.push(format!("{}: no example to run", p.name()));
            continue;
        };
        let mut inv = Invocation::of(p.name(), e.line);
        inv.example = true;
        if let Some(w) = inv.words.first_mut() {
            *w = name;
        }
        let before = c.runs;
        for f in c.check(&inv) {
            if f.kind.disagrees() && family(&inv, &f).is_none() {
                problems.push(format!("{}: `{}`: {f:?}", p.name(), inv.line()));
            }
        }
        if c.runs > before {
            ran += 1;
        }
    }
    println!(
        "{ran} verified entries ran; not verifiable here: {:?}",
        unverified()
    );
    assert!(ran > 0);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `make fuzz FUZZ=programs`: every invocation of every entry (or of the entries named
/// in `FUZZ_ENTRIES`, comma-separated), FUZZ_SECONDS at most.
#[test]
#[ignore = "run by `make fuzz FUZZ=programs`"]
fn all_invocations() {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let start = Instant::now();
    let (mut all, missing) = invocations();
    // `FUZZ_ENTRIES=git,tar`: only these entries (their subcommands included).
    if let Ok(only) = std::env::var("FUZZ_ENTRIES") {
        let names: Vec<&str> = only.split(',').map(str::trim).collect();
        all.retain(|i| names.contains(&i.entry.split(' ').next().unwrap_or("")));
    }
    // `FUZZ_SKIP=N`: from the Nth invocation on (the rest of a run that ran out of time).
    if let Some(n) = std::env::var("FUZZ_SKIP")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        all.drain(..n.min(all.len()));
    }
    let (report, mut checker) = verify(&all, missing, start + Duration::from_secs(secs));
    let new = print(&report, &mut checker, true);
    println!(
        "{} of {} invocations in {:.0} s",
        report.ran,
        all.len(),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(new, 0, "disagreements outside the known families (above)");
}

/// The checker itself: a line that walks a directory the reading does not see is a
/// disagreement, and the reading's own operand is not.
#[test]
fn checker_sees_a_walk_the_reading_misses() {
    let mut c = Checker::new();
    // `cat f1` opens f1, which the reading has.
    let ok = c.check(&Invocation::of("cat", "cat f1"));
    assert!(ok.iter().all(|f| !f.kind.disagrees()), "{ok:?}");
    // A name only the running shell makes: the reading cannot see it.
    let hidden = Invocation::of("cat", "cat d1/a.txt");
    let plain = c.check(&hidden);
    assert!(
        plain.iter().all(|f| !f.kind.disagrees()),
        "the plain line agrees: {plain:?}"
    );
    let bad = c.check_line(&hidden, "cat $(printf d1/%s a.txt)");
    assert!(
        bad.iter()
            .any(|f| f.kind == Kind::Opened && f.what.ends_with("d1/a.txt")),
        "{bad:?}"
    );
}
