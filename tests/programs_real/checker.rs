//! Checking one invocation: run it for real under strace in a fresh scratch (a work
//! directory, the cwd; a home; a /tmp; an empty directory: `trace::work`), and compare
//! what it did with what the reading found.

use super::invocations::Invocation;
use super::known::{Finding, Kind};
use super::trace::work::{Dirs, GIT_OWN};
use super::trace::{self, Event, Op, Run, Scratch};
use gptel_rust_hooks::compile;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::prepare::Prepared;
use gptel_rust_hooks::rule::{self, Call};
use gptel_rust_hooks::shell::{self, lookup, read, Role};
use serde_json::json;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// Seconds one invocation may run.
const RUN_SECONDS: u64 = 5;

pub(crate) struct Checker {
    pub(crate) scratch: Scratch,
    pub(crate) dirs: Dirs,
    pub(crate) policy: Policy,
    /// Per program name: (paths, program basenames) its baseline runs touched.
    pub(crate) baselines: HashMap<String, (BTreeSet<String>, BTreeSet<String>)>,
    pub(crate) runs: usize,
}

/// A path with the parts that change from run to run made plain (`/proc/123/` ->
/// `/proc/N/`).
pub(crate) fn plain_path(p: &str) -> String {
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

pub(crate) fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

pub(crate) fn inside(p: &str, dir: &str) -> bool {
    p == dir || p.starts_with(&format!("{dir}/"))
}

/// Whether P is a name the path TEMPLATE stands for: the reading's name of a file no
/// word gives (`sed -i`'s `dir/sed??????`, `history -w`'s `FILE-*.tmp`), `?` any one
/// character, `*` any run of characters other than `/`.
pub(crate) fn template(t: &str, p: &str) -> bool {
    fn fits(t: &[char], p: &[char]) -> bool {
        match t.split_first() {
            None => p.is_empty(),
            Some(('*', rest)) => (0..=p.len())
                .take_while(|&n| n == 0 || p[n - 1] != '/')
                .any(|n| fits(rest, &p[n..])),
            Some((&c, rest)) => p
                .split_first()
                .is_some_and(|(&d, more)| (c == '?' || c == d) && fits(rest, more)),
        }
    }
    let (t, p): (Vec<char>, Vec<char>) = (t.chars().collect(), p.chars().collect());
    t.iter().any(|c| matches!(c, '?' | '*')) && fits(&t, &p)
}

impl Checker {
    pub(crate) fn new() -> Checker {
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

    pub(crate) fn run_line(&mut self, line: &str, cwd: &Path) -> Run {
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
    pub(crate) fn baseline(&mut self, name: &str) -> (BTreeSet<String>, BTreeSet<String>) {
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
    pub(crate) fn check(&mut self, inv: &Invocation) -> Vec<Finding> {
        let line = inv.line();
        self.check_line(inv, &line)
    }

    /// Run LINE, an invocation of INV's program, and return its findings.
    pub(crate) fn check_line(&mut self, inv: &Invocation, line: &str) -> Vec<Finding> {
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
    pub(crate) fn judge(
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
    pub(crate) fn shrink(&mut self, inv: &Invocation, kind: Kind, mut budget: usize) -> Invocation {
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
