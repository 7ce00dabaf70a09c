//! Policy + call -> outcome, following DESIGN.md "How a call is decided".
//!
//! A call is prepared once ([`Prepared`]): its candidate rules come from the
//! tool index, and every other matcher kind is computed lazily, once per call,
//! as a bit set over rules (paths normalized once, command lines parsed once).

use crate::compile::{CArg, CRule, Driver, Index, OutsideDir, Policy};
use crate::error::{Error, Result};
use crate::path::{self, PathEnv};
use crate::rule::{Arg, ArgMatcher, Call, Decision, Rule};
use crate::shell::{self, CommandLine, SimpleCommand};
use globset::{Candidate, GlobSet};
use regex::RegexSet;
use serde_json::{json, Value as Json};
use std::borrow::Cow;
use std::cell::OnceCell;

/// At most this many path candidates are taken from command words.
pub const MAX_WORD_PATHS: usize = 1024;

/// A set of small integers (rule or leaf numbers below LEN). It grows to its
/// largest member only, so an empty set costs nothing however large LEN is.
#[derive(Debug, Clone)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    pub fn new(len: usize) -> BitSet {
        BitSet {
            words: Vec::new(),
            len,
        }
    }
    pub fn set(&mut self, i: usize) {
        if i >= self.len {
            return;
        }
        let w = i / 64;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (i % 64);
    }
    pub fn get(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// Add the members of OTHER.
    pub fn union_with(&mut self, other: &BitSet) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }
    /// The members, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(n, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    n * 64 + bit
                })
            })
        })
    }
}

impl PartialEq for BitSet {
    fn eq(&self, other: &BitSet) -> bool {
        let (a, b) = (&self.words, &other.words);
        let n = a.len().max(b.len());
        (0..n).all(|i| a.get(i).copied().unwrap_or(0) == b.get(i).copied().unwrap_or(0))
    }
}

impl Eq for BitSet {}

fn glob_hits(index: &Index<GlobSet>, text: &str, bits: &mut BitSet, scratch: &mut Vec<usize>) {
    if index.set.is_empty() {
        return;
    }
    index
        .set
        .matches_candidate_into(&Candidate::new(text), scratch);
    for &g in scratch.iter() {
        bits.set(index.owner[g]);
    }
}

fn regex_hits(index: &Index<RegexSet>, text: &str, bits: &mut BitSet) {
    // Most texts match none: one early-exit scan then, not a list of every
    // pattern of the set.
    if index.set.is_empty() || !index.set.is_match(text) {
        return;
    }
    for m in index.set.matches(text).iter() {
        bits.set(index.owner[m]);
    }
}

/// Where a path candidate came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSource {
    /// A path argument.
    Arg(String),
    /// A redirection target of the command line in this argument.
    Redirect(String),
    /// A word of a simple command in this argument (deny side only).
    Word(String),
}

/// One path a call names, normalized.
#[derive(Debug)]
pub struct PathCand {
    pub source: PathSource,
    pub raw: String,
    /// The normalized path, or why it could not be read.
    pub norm: std::result::Result<String, String>,
    /// The path as written, expanded and collapsed without following links,
    /// when that differs from `norm`.
    pub lexical: Option<String>,
    /// Rules whose `:path` globs match the normalized path.
    pub hits: BitSet,
    /// Rules whose `:path` globs match the lexical path (when there is one).
    pub lexical_hits: BitSet,
}

impl PathCand {
    /// Whether rule R's `:path` globs match: either form for deny-side
    /// rules, both forms for allow rules.
    pub fn glob_match(&self, r: usize, allow_side: bool) -> bool {
        if allow_side && self.norm.is_err() {
            return false;
        }
        match &self.lexical {
            None => self.hits.get(r),
            Some(_) if allow_side => self.hits.get(r) && self.lexical_hits.get(r),
            Some(_) => self.hits.get(r) || self.lexical_hits.get(r),
        }
    }
}

/// The simple commands of one command argument, with the rules they hit.
#[derive(Debug)]
pub struct CmdCand {
    pub key: String,
    pub line: CommandLine,
    /// Read only to give deny-side rules a second look (a raw scan for
    /// substitutions the parser may have read as quoted text); never
    /// considered by allow rules.
    pub deny_only: bool,
    /// Per simple command: prefix hits on argv, on the written words,
    /// regexp hits on argv, on the written words.
    pub hits: Vec<[BitSet; 4]>,
}

/// A call prepared for matching against one policy.
pub struct Prepared<'p> {
    pub policy: &'p Policy,
    pub call: &'p Call,
    /// Home, cwd (normalized) and case folding, made on first use: only
    /// calls that meet a path or cwd matcher pay for resolving the cwd.
    path_env: OnceCell<PathEnv>,
    tool_globs: OnceCell<BitSet>,
    tool_regexps: OnceCell<BitSet>,
    buffer: OnceCell<BitSet>,
    backend: OnceCell<BitSet>,
    model: OnceCell<BitSet>,
    cwd: OnceCell<BitSet>,
    paths: OnceCell<Vec<PathCand>>,
    commands: OnceCell<Vec<CmdCand>>,
    line_allowed: OnceCell<bool>,
    /// Leaf hits of each argument key, by the key's position in the policy.
    arg_leaves: Vec<OnceCell<BitSet>>,
}

/// One matcher of a rule, checked: for explanations.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub matcher: &'static str,
    pub matched: bool,
    pub on: Json,
}

fn key_of(source: &PathSource) -> &str {
    match source {
        PathSource::Arg(k) | PathSource::Redirect(k) | PathSource::Word(k) => k,
    }
}

impl<'p> Prepared<'p> {
    /// Prepare CALL for POLICY; nothing is computed until asked for.
    pub fn new(policy: &'p Policy, call: &'p Call) -> Prepared<'p> {
        Prepared {
            policy,
            call,
            path_env: OnceCell::new(),
            tool_globs: OnceCell::new(),
            tool_regexps: OnceCell::new(),
            buffer: OnceCell::new(),
            backend: OnceCell::new(),
            model: OnceCell::new(),
            cwd: OnceCell::new(),
            paths: OnceCell::new(),
            commands: OnceCell::new(),
            line_allowed: OnceCell::new(),
            arg_leaves: (0..policy.arg_index.len())
                .map(|_| OnceCell::new())
                .collect(),
        }
    }

    fn n(&self) -> usize {
        self.policy.rules.len()
    }

    fn path_env(&self) -> &PathEnv {
        self.path_env.get_or_init(|| {
            let policy = self.policy;
            let cwd = self.call.cwd.as_deref().and_then(|c| {
                let env = PathEnv {
                    home: policy.options.home.clone(),
                    cwd: None,
                    case_fold: policy.options.case_fold,
                };
                path::normalize_dir(c, &env).ok()
            });
            PathEnv {
                home: policy.options.home.clone(),
                cwd: cwd.map(Into::into),
                case_fold: policy.options.case_fold,
            }
        })
    }

    /// The rules that can match this call, in rule order: those that no
    /// index drives, and those that the index of their driver hits (see
    /// [`Driver`]). Each driver's index runs only when its gate admits the
    /// call's tool, so the work follows the hits, not the size of the policy.
    pub fn candidates(&self) -> Vec<usize> {
        let policy = self.policy;
        let mut out: Vec<usize> = policy.always.clone();
        let admits = |d: Driver| policy.gates[d as usize].admits(&self.call.name);
        let take = |out: &mut Vec<usize>, bits: &BitSet, d: Driver| {
            out.extend(bits.iter().filter(|&r| policy.rules[r].driver == d));
        };
        take(&mut out, self.tool_glob_hits(), Driver::Tool);
        take(&mut out, self.tool_regexp_hits(), Driver::Tool);
        if admits(Driver::ArgLeaf) {
            for (key, _) in &self.call.args {
                if let Some(leaves) = self.arg_leaf_hits(key) {
                    for leaf in leaves.iter() {
                        let r = policy.leaf_owner[leaf];
                        if policy.rules[r].driver == Driver::ArgLeaf {
                            out.push(r);
                        }
                    }
                }
            }
        }
        if admits(Driver::Path) {
            for c in self.paths() {
                take(&mut out, &c.hits, Driver::Path);
                take(&mut out, &c.lexical_hits, Driver::Path);
            }
        }
        if admits(Driver::CmdPrefix) || admits(Driver::CmdRegexp) {
            for c in self.commands() {
                for h in &c.hits {
                    take(&mut out, &h[0], Driver::CmdPrefix);
                    take(&mut out, &h[1], Driver::CmdPrefix);
                    take(&mut out, &h[2], Driver::CmdRegexp);
                    take(&mut out, &h[3], Driver::CmdRegexp);
                }
            }
        }
        if admits(Driver::Cwd) {
            take(&mut out, self.cwd_hits(), Driver::Cwd);
        }
        if admits(Driver::Buffer) {
            take(
                &mut out,
                self.name_hits(&self.buffer, &policy.buffer, self.call.buffer.as_deref()),
                Driver::Buffer,
            );
        }
        if admits(Driver::Backend) {
            take(
                &mut out,
                self.name_hits(&self.backend, &policy.backend, self.call.backend.as_deref()),
                Driver::Backend,
            );
        }
        if admits(Driver::Model) {
            take(
                &mut out,
                self.name_hits(&self.model, &policy.model, self.call.model.as_deref()),
                Driver::Model,
            );
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn tool_glob_hits(&self) -> &BitSet {
        self.tool_globs.get_or_init(|| {
            let mut bits = BitSet::new(self.n());
            glob_hits(
                &self.policy.tool_globs,
                &self.call.name,
                &mut bits,
                &mut Vec::new(),
            );
            bits
        })
    }

    fn tool_regexp_hits(&self) -> &BitSet {
        self.tool_regexps.get_or_init(|| {
            let mut bits = BitSet::new(self.n());
            regex_hits(&self.policy.tool_regexps, &self.call.name, &mut bits);
            bits
        })
    }

    fn name_hits<'a>(
        &self,
        cell: &'a OnceCell<BitSet>,
        index: &Index<GlobSet>,
        value: Option<&str>,
    ) -> &'a BitSet {
        cell.get_or_init(|| {
            let mut bits = BitSet::new(self.n());
            if let Some(v) = value {
                glob_hits(index, v, &mut bits, &mut Vec::new());
            }
            bits
        })
    }

    fn cwd_hits(&self) -> &BitSet {
        self.cwd.get_or_init(|| {
            let mut bits = BitSet::new(self.n());
            if let Some(cwd) = &self.path_env().cwd {
                glob_hits(
                    &self.policy.cwd,
                    &cwd.to_string_lossy(),
                    &mut bits,
                    &mut Vec::new(),
                );
            }
            bits
        })
    }

    fn is_path_key(&self, key: &str) -> bool {
        self.policy.any_path_keys.contains(key)
    }

    fn is_command_key(&self, key: &str) -> bool {
        self.policy.any_command_keys.contains(key)
    }

    /// The command lines of the call's command arguments, parsed once.
    pub fn commands(&self) -> &Vec<CmdCand> {
        self.commands.get_or_init(|| {
            let mut out = Vec::new();
            for (key, value) in &self.call.args {
                if !self.is_command_key(key) {
                    continue;
                }
                let mut lines: Vec<(CommandLine, bool)> = Vec::new();
                match value {
                    Arg::Null => continue,
                    Arg::Str(s) => {
                        let main = shell::parse(s);
                        let mut second: Vec<String> = substitution_regions(s)
                            .into_iter()
                            .map(str::to_string)
                            .collect();
                        // The strings given to `sh -c` are command lines too.
                        for c in &main.commands {
                            for pair in c.written.windows(2) {
                                if pair[0].starts_with('-') && pair[0].ends_with('c') {
                                    second.extend(
                                        substitution_regions(&pair[1])
                                            .into_iter()
                                            .map(str::to_string),
                                    );
                                }
                            }
                        }
                        lines.push((main, false));
                        for region in second.iter().take(MAX_REGIONS) {
                            lines.push((shell::parse(region), true));
                        }
                    }
                    Arg::Invalid(s) => {
                        let mut line = shell::parse(s);
                        line.opaque = Some("a command that is not valid Unicode text".into());
                        lines.push((line, false));
                    }
                    Arg::List(items) => {
                        let words: Option<Vec<String>> = items
                            .iter()
                            .map(|i| match i {
                                Arg::Str(s) => Some(s.clone()),
                                _ => None,
                            })
                            .collect();
                        match words {
                            Some(w) => {
                                lines.push((shell::from_argv(&w), false));
                                // A tool that joins the words into a shell line
                                // would run what the operators in them say.
                                let joined = w.join(" ");
                                if joined.contains([';', '|', '&', '<', '>', '$', '`', '(', '\n']) {
                                    lines.push((shell::parse(&joined), false));
                                }
                            }
                            None => lines.push((
                                CommandLine {
                                    opaque: Some("a command list with non-string words".into()),
                                    ..CommandLine::default()
                                },
                                false,
                            )),
                        }
                    }
                    other => lines.push((
                        CommandLine {
                            opaque: Some(format!(
                                "a command that is not text: {}",
                                other.to_json()
                            )),
                            ..CommandLine::default()
                        },
                        false,
                    )),
                }
                for (line, deny_only) in lines {
                    let hits = line
                        .commands
                        .iter()
                        .map(|c| self.command_hits(&c.argv, &c.written))
                        .collect();
                    out.push(CmdCand {
                        key: key.clone(),
                        line,
                        deny_only,
                        hits,
                    });
                }
            }
            out
        })
    }

    fn command_hits(&self, argv: &[String], written: &[String]) -> [BitSet; 4] {
        // On case-insensitive file systems `RM` runs `rm`: compare folded
        // (prefixes were folded when the policy was compiled).
        let fold =
            |words: &[String]| -> Vec<String> { words.iter().map(|w| w.to_lowercase()).collect() };
        let (argv_f, written_f);
        let (argv, written) = if self.policy.options.case_fold {
            argv_f = fold(argv);
            written_f = fold(written);
            (&argv_f[..], &written_f[..])
        } else {
            (argv, written)
        };
        let n = self.n();
        let mut out = [
            BitSet::new(n),
            BitSet::new(n),
            BitSet::new(n),
            BitSet::new(n),
        ];
        for (slot, words) in [(0, argv), (1, written)] {
            if let Some(first) = words.first() {
                if let Some(prefixes) = self.policy.cmd_prefix.get(first) {
                    for (rule, prefix) in prefixes {
                        if words.len() >= prefix.len() && words[..prefix.len()] == prefix[..] {
                            out[slot].set(*rule);
                        }
                    }
                }
            }
            if !self.policy.cmd_regexps.set.is_empty() {
                regex_hits(
                    &self.policy.cmd_regexps,
                    &words.join(" "),
                    &mut out[slot + 2],
                );
            }
        }
        out
    }

    fn glob_hits_for(&self, p: &str) -> BitSet {
        let mut hits = BitSet::new(self.n());
        let mut scratch = Vec::new();
        glob_hits(&self.policy.path_abs, p, &mut hits, &mut scratch);
        if !self.policy.path_rel.set.is_empty() {
            if let Some(cwd) = &self.path_env().cwd {
                if let Some(rel) = path::relative_to(p, &cwd.to_string_lossy()) {
                    // The cwd itself is `.` (so `./**` covers it, `src/*` not).
                    let rel = if rel.is_empty() { "." } else { rel };
                    glob_hits(&self.policy.path_rel, rel, &mut hits, &mut scratch);
                }
            }
        }
        hits
    }

    fn path_cand(&self, source: PathSource, raw: &str) -> PathCand {
        let norm = path::normalize(raw, self.path_env()).map_err(|e| e.0);
        let mut hits = match &norm {
            Ok(p) => self.glob_hits_for(p),
            Err(_) => BitSet::new(self.n()),
        };
        let lexical = match (&norm, path::lexical(raw, self.path_env())) {
            (Ok(n), Ok(l)) if *n != l => Some(l),
            _ => None,
        };
        let lexical_hits = match &lexical {
            Some(l) => self.glob_hits_for(l),
            None => BitSet::new(0),
        };
        if norm.is_err() {
            // A path refused for allow rules is still shown to deny-side
            // rules, read the ways the kernel or a shell could read it.
            let (home, cwd) = self.home_and_cwd();
            for form in fallback_forms(raw, home.as_deref(), cwd.as_deref()) {
                let form = if self.path_env().case_fold {
                    form.to_lowercase()
                } else {
                    form
                };
                let more = self.glob_hits_for(&form);
                hits.union_with(&more);
            }
        }
        PathCand {
            source,
            raw: raw.to_string(),
            norm,
            lexical,
            hits,
            lexical_hits,
        }
    }

    /// The home directory and the request's directory, as text.
    fn home_and_cwd(&self) -> (Option<String>, Option<String>) {
        let env = self.path_env();
        let text =
            |p: &Option<std::path::PathBuf>| p.as_ref().map(|p| p.to_string_lossy().into_owned());
        (text(&env.home), text(&env.cwd))
    }

    /// The files a shell glob WORD names now, as bash would expand it
    /// (dot files included, which only widens what deny rules see).
    fn expand_glob(&self, word: &str) -> Vec<String> {
        const MAX_FOUND: usize = 256;
        let (home, cwd) = self.home_and_cwd();
        let text = match (word.strip_prefix('~'), &home) {
            (Some(rest), Some(h)) if rest.is_empty() || rest.starts_with('/') => {
                format!("{h}{rest}")
            }
            _ => word.to_string(),
        };
        let text = if text.starts_with('/') {
            text
        } else {
            match &cwd {
                Some(c) => format!("{}/{text}", c.trim_end_matches('/')),
                None => return Vec::new(),
            }
        };
        let mut found = vec![String::new()];
        for part in text.split('/').filter(|p| !p.is_empty()) {
            let mut next = Vec::new();
            for base in &found {
                if !part.contains(['*', '?', '[']) {
                    next.push(format!("{base}/{part}"));
                    continue;
                }
                let Ok(glob) = globset::GlobBuilder::new(part)
                    .literal_separator(true)
                    .case_insensitive(self.path_env().case_fold)
                    .build()
                else {
                    continue;
                };
                let matcher = glob.compile_matcher();
                let dir = if base.is_empty() { "/" } else { base.as_str() };
                let Ok(entries) = std::fs::read_dir(dir) else {
                    continue;
                };
                for entry in entries.flatten().take(4096) {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if matcher.is_match(&name) && next.len() < MAX_FOUND {
                        next.push(format!("{base}/{name}"));
                    }
                }
            }
            found = next;
            if found.is_empty() {
                break;
            }
        }
        found.retain(|f| !f.is_empty());
        found
    }

    /// The same path candidate, resolved against another directory DIR
    /// (after `cd DIR`, or the tool's own working directory).
    fn path_cand_in(&self, source: PathSource, raw: &str, dir: &str) -> PathCand {
        let joined = format!("{}/{raw}", dir.trim_end_matches('/'));
        self.path_cand(source, &joined)
    }

    /// Directories a command line's relative words may be relative to,
    /// besides the request's: `cd`/`pushd` targets in the line (in order),
    /// and a working directory the call names.
    fn other_dirs(&self) -> Vec<String> {
        let (home, mut current) = self.home_and_cwd();
        let mut dirs = Vec::new();
        for key in ["working_directory", "workdir", "cwd", "directory", "dir"] {
            if let Some(Arg::Str(d)) = self.call.arg(key) {
                for form in fallback_forms(d, home.as_deref(), current.as_deref()) {
                    dirs.push(form);
                }
            }
        }
        for cand in self.commands() {
            for c in &cand.line.commands {
                if !matches!(
                    c.argv.first().map(String::as_str),
                    Some("cd" | "pushd" | "popd")
                ) {
                    continue;
                }
                let target = c.argv.iter().skip(1).find(|w| !w.starts_with('-'));
                let next = match target {
                    None => home.clone(),
                    Some(t) => fallback_forms(t, home.as_deref(), current.as_deref())
                        .into_iter()
                        .next(),
                };
                if let Some(n) = next {
                    dirs.push(n.clone());
                    current = Some(n);
                }
            }
        }
        dirs.sort();
        dirs.dedup();
        dirs
    }

    /// A path that was not valid Unicode: deny-side rules match what could
    /// be read of it; it never satisfies an allow rule.
    fn invalid_path_cand(&self, source: PathSource, lossy: &str) -> PathCand {
        let mut cand = self.path_cand(source, lossy);
        cand.norm = Err("a path that is not valid Unicode text".into());
        cand
    }

    fn unreadable(&self, source: PathSource, raw: String, why: String) -> PathCand {
        PathCand {
            source,
            raw,
            norm: Err(why),
            lexical: None,
            hits: BitSet::new(self.n()),
            lexical_hits: BitSet::new(0),
        }
    }

    /// Every path the call names: path arguments, redirection targets, and
    /// the words of its simple commands.
    pub fn paths(&self) -> &Vec<PathCand> {
        self.paths.get_or_init(|| {
            let mut out = Vec::new();
            for (key, value) in &self.call.args {
                if !self.is_path_key(key) {
                    continue;
                }
                let source = || PathSource::Arg(key.clone());
                match value {
                    Arg::Null => {}
                    Arg::Str(s) => out.push(self.path_cand(source(), s)),
                    Arg::Invalid(s) => out.push(self.invalid_path_cand(source(), s)),
                    Arg::List(items) => {
                        for item in items {
                            match item {
                                Arg::Str(s) => out.push(self.path_cand(source(), s)),
                                Arg::Invalid(s) => out.push(self.invalid_path_cand(source(), s)),
                                other => out.push(self.unreadable(
                                    source(),
                                    other.to_json().to_string(),
                                    "a path that is not text".into(),
                                )),
                            }
                        }
                    }
                    other => out.push(self.unreadable(
                        source(),
                        other.to_json().to_string(),
                        "a path that is not text".into(),
                    )),
                }
            }
            // Tools that open (expand-file-name NAME DIR) name one path in two
            // arguments: judge the joined path too.
            for (dir_key, name_key) in path::DEFAULT_PATH_JOINS {
                if let (Some(Arg::Str(dir)), Some(Arg::Str(name))) =
                    (self.call.arg(dir_key), self.call.arg(name_key))
                {
                    let joined = if name.starts_with('/') || name.starts_with('~') {
                        name.clone()
                    } else {
                        format!("{}/{name}", dir.trim_end_matches('/'))
                    };
                    out.push(self.path_cand(PathSource::Arg((*dir_key).to_string()), &joined));
                }
            }
            let mut words = 0usize;
            let dirs = if self.commands().is_empty() {
                Vec::new()
            } else {
                self.other_dirs()
            };
            for cand in self.commands() {
                // A word that appears twice in one command line (in `argv`
                // and `written`, or in two commands) is judged once.
                let mut seen: std::collections::HashSet<String> = Default::default();
                for target in &cand.line.redirects {
                    out.push(self.path_cand(PathSource::Redirect(cand.key.clone()), target));
                    if !target.starts_with('/') && !target.starts_with('~') {
                        for d in &dirs {
                            let source = PathSource::Word(cand.key.clone());
                            out.push(self.path_cand_in(source, target, d));
                        }
                    }
                }
                for c in &cand.line.commands {
                    // The words as written repeat argv when nothing was looked through.
                    let written = if c.written == c.argv {
                        &[][..]
                    } else {
                        c.written.get(1..).unwrap_or(&[])
                    };
                    for word in c.argv.iter().skip(1).chain(written) {
                        let mut push = |w: &str| {
                            if words >= MAX_WORD_PATHS
                                || w.is_empty()
                                || !seen.insert(w.to_string())
                            {
                                return;
                            }
                            words += 1;
                            let source = || PathSource::Word(cand.key.clone());
                            out.push(self.path_cand(source(), w));
                            // The shell expands globs before the program runs.
                            if w.contains(['*', '?', '[']) {
                                for found in self.expand_glob(w) {
                                    out.push(self.path_cand(source(), &found));
                                }
                            }
                            if !w.starts_with('/') && !w.starts_with('~') {
                                for d in &dirs {
                                    out.push(self.path_cand_in(source(), w, d));
                                }
                            }
                        };
                        match word.strip_prefix('-') {
                            // An option with a path glued to it: `-f~/.ssh/x`,
                            // `--file=/etc/passwd`, `-t/root`.
                            Some(opt) => {
                                if let Some((_, after)) = opt.split_once('=') {
                                    push(after);
                                } else if let Some(i) = opt.find(['/', '~']) {
                                    push(&opt[i..]);
                                }
                            }
                            None => {
                                push(word);
                                if let Some((_, after)) = word.split_once('=') {
                                    push(after);
                                }
                            }
                        }
                    }
                }
            }
            out
        })
    }

    /// The argument leaves (of every rule) that KEY's value hits, or None
    /// when no rule has a glob or regexp leaf for KEY.
    fn arg_leaf_hits(&self, key: &str) -> Option<&BitSet> {
        let index = self.policy.arg_index.get(key)?;
        Some(self.arg_leaves[index.pos].get_or_init(|| {
            let mut bits = BitSet::new(self.policy.arg_leaves);
            let text: Option<Cow<'_, str>> = match self.call.arg(key) {
                Some(Arg::Str(s)) => Some(Cow::Borrowed(s)),
                Some(Arg::Int(i)) => Some(Cow::Owned(i.to_string())),
                Some(Arg::Float(f)) => Some(Cow::Owned(f.to_string())),
                Some(Arg::Bool(b)) => Some(Cow::Owned(b.to_string())),
                _ => None,
            };
            if let Some(text) = text {
                glob_hits(&index.globs, &text, &mut bits, &mut Vec::new());
                regex_hits(&index.regexps, &text, &mut bits);
            }
            bits
        }))
    }

    fn arg_matches(&self, key: &str, m: &CArg, leaves: &BitSet) -> bool {
        let value = self.call.arg(key);
        match m {
            CArg::Leaf(n) => leaves.get(*n),
            CArg::Present(want) => value.is_some_and(|v| *v != Arg::Null) == *want,
            CArg::Equal(j) => value.is_some_and(|v| arg_equal(v, j)),
            CArg::MaxLength(n) => {
                matches!(value, Some(Arg::Str(s)) if s.chars().count() as u64 <= *n)
            }
            CArg::Min(n) => number(value).is_some_and(|x| x >= *n),
            CArg::Max(n) => number(value).is_some_and(|x| x <= *n),
            CArg::Any(items) => items.iter().any(|i| self.arg_matches(key, i, leaves)),
            CArg::All(items) => items.iter().all(|i| self.arg_matches(key, i, leaves)),
        }
    }

    fn relevant_path(&self, rule: &CRule, source: &PathSource) -> bool {
        match source {
            PathSource::Arg(k) => rule
                .path_keys
                .contains(k, self.policy.default_path_keys.contains(k)),
            PathSource::Redirect(k) => rule
                .command_keys
                .contains(k, self.policy.default_command_keys.contains(k)),
            // Command words widen deny-side rules only.
            PathSource::Word(k) => {
                !rule.allow_side
                    && rule
                        .command_keys
                        .contains(k, self.policy.default_command_keys.contains(k))
            }
        }
    }

    /// Check each matcher of rule R in turn; stop at the first that fails
    /// unless EXPLAIN. Returns whether all matched, and the checks made.
    pub fn check_rule(&self, r: usize, explain: bool) -> (bool, Vec<Check>) {
        self.check_rule_with(r, explain, false)
    }

    /// Whether allow rule R covers simple command CMD (with hits H): its
    /// prefixes and regexps, on the written form when run through sudo.
    fn covers(&self, r: usize, cmd: &shell::SimpleCommand, h: &[BitSet; 4]) -> bool {
        let rule = &self.policy.rules[r];
        let off = usize::from(cmd.privileged);
        (!rule.has_cmd_prefix || h[off].get(r)) && (!rule.has_cmd_regexp || h[2 + off].get(r))
    }

    fn relevant_command(&self, rule: &CRule, c: &CmdCand) -> bool {
        rule.command_keys
            .contains(&c.key, self.policy.default_command_keys.contains(&c.key))
    }

    /// Whether every simple command of every command argument is covered by
    /// some allow rule whose other matchers match (DESIGN: "Allow rules allow
    /// a command line only when EVERY simple command in it is allowed").
    fn line_allowed(&self) -> bool {
        *self.line_allowed.get_or_init(|| {
            let allowers: Vec<usize> = self
                .candidates()
                .into_iter()
                .filter(|&r| {
                    let rule = &self.policy.rules[r];
                    rule.allow_side
                        && (rule.has_cmd_prefix || rule.has_cmd_regexp)
                        && self.check_rule_with(r, false, true).0
                })
                .collect();
            let cands: Vec<&CmdCand> = self.commands().iter().filter(|c| !c.deny_only).collect();
            !cands.is_empty()
                && cands.iter().all(|c| {
                    c.line.is_static()
                        && !c.line.commands.is_empty()
                        && c.line.commands.iter().zip(&c.hits).all(|(cmd, h)| {
                            allowers.iter().any(|&r| {
                                self.relevant_command(&self.policy.rules[r], c)
                                    && self.covers(r, cmd, h)
                            })
                        })
                })
        })
    }

    fn check_rule_with(&self, r: usize, explain: bool, skip_commands: bool) -> (bool, Vec<Check>) {
        let rule = &self.policy.rules[r];
        let mut checks = Vec::new();
        let mut all = true;
        macro_rules! check {
            ($name:expr, $ok:expr, $on:expr) => {{
                let ok: bool = $ok;
                if explain {
                    checks.push(Check {
                        matcher: $name,
                        matched: ok,
                        on: $on,
                    });
                }
                if !ok {
                    all = false;
                    if !explain {
                        return (false, checks);
                    }
                }
            }};
        }
        if rule.has_tool_glob {
            let ok = match &rule.tool_literals {
                Some(names) => names.contains(&self.call.name),
                None => self.tool_glob_hits().get(r),
            };
            check!("tool", ok, Json::String(self.call.name.clone()));
        }
        if rule.has_tool_regexp {
            check!(
                "tool-regexp",
                self.tool_regexp_hits().get(r),
                Json::String(self.call.name.clone())
            );
        }
        if rule.has_buffer {
            let hits = self.name_hits(
                &self.buffer,
                &self.policy.buffer,
                self.call.buffer.as_deref(),
            );
            check!("buffer", hits.get(r), json!(self.call.buffer));
        }
        if rule.has_backend {
            let hits = self.name_hits(
                &self.backend,
                &self.policy.backend,
                self.call.backend.as_deref(),
            );
            check!("backend", hits.get(r), json!(self.call.backend));
        }
        if rule.has_model {
            let hits = self.name_hits(&self.model, &self.policy.model, self.call.model.as_deref());
            check!("model", hits.get(r), json!(self.call.model));
        }
        if rule.has_cwd {
            check!(
                "cwd",
                self.cwd_hits().get(r),
                json!(self.path_env().cwd.as_ref().map(|c| c.to_string_lossy()))
            );
        }
        let no_leaves = BitSet::new(0);
        for (key, m) in &rule.args {
            let leaves = self.arg_leaf_hits(key).unwrap_or(&no_leaves);
            check!(
                "args",
                self.arg_matches(key, m, leaves),
                json!({"key": key, "value": self.call.arg(key).map(Arg::to_json)})
            );
        }
        if rule.has_path || !rule.path_outside.is_empty() {
            let cands: Vec<&PathCand> = self
                .paths()
                .iter()
                .filter(|c| self.relevant_path(rule, &c.source))
                .collect();
            if rule.has_path {
                let glob = |c: &&PathCand| c.glob_match(r, rule.allow_side);
                let ok = combine(rule.allow_side, &cands, glob);
                check!("path", ok, paths_json(&cands, glob));
            }
            if !rule.path_outside.is_empty() {
                // Directories relative to the cwd are resolved now; without a
                // cwd they are unknown, and nothing counts as inside them.
                let dirs: Vec<String> = rule
                    .path_outside
                    .iter()
                    .filter_map(|d| match d {
                        OutsideDir::Absolute(d) => Some(d.clone()),
                        OutsideDir::CwdRelative(d) => self
                            .path_env()
                            .cwd
                            .as_ref()
                            .and_then(|_| path::normalize(d, self.path_env()).ok()),
                    })
                    .collect();
                let out_of = |p: &str| !dirs.iter().any(|d| path::is_within(p, d));
                let outside = |c: &&PathCand| match (&c.norm, &c.lexical) {
                    // An unreadable path counts as outside for deny-side
                    // rules, and never satisfies an allow rule.
                    (Err(_), _) => !rule.allow_side,
                    (Ok(p), None) => out_of(p),
                    (Ok(p), Some(l)) if rule.allow_side => out_of(p) && out_of(l),
                    (Ok(p), Some(l)) => out_of(p) || out_of(l),
                };
                let ok = combine(rule.allow_side, &cands, outside);
                check!("path-outside", ok, paths_json(&cands, outside));
            }
        }
        if (rule.has_cmd_prefix || rule.has_cmd_regexp) && !skip_commands {
            let cands: Vec<&CmdCand> = self
                .commands()
                .iter()
                .filter(|c| self.relevant_command(rule, c) && !(rule.allow_side && c.deny_only))
                .collect();
            // An allow rule matches when the whole line is allowed (every
            // simple command covered by some allow rule) and it covers part of it.
            let allowed = rule.allow_side
                && !cands.is_empty()
                && self.line_allowed()
                && cands.iter().any(|c| {
                    c.line
                        .commands
                        .iter()
                        .zip(&c.hits)
                        .any(|(cmd, h)| self.covers(r, cmd, h))
                });
            if rule.has_cmd_prefix {
                let ok = if rule.allow_side {
                    allowed
                } else {
                    command_ok(false, &cands, r, 0)
                };
                let prefixes: Vec<Vec<String>> = if explain {
                    rule.rule
                        .command_prefix
                        .iter()
                        .filter_map(|p| crate::compile::prefix_words(p).ok())
                        .collect()
                } else {
                    Vec::new()
                };
                check!("command-prefix", ok, commands_json(&cands, r, 0, &prefixes));
            }
            if rule.has_cmd_regexp {
                let ok = if rule.allow_side {
                    allowed
                } else {
                    command_ok(false, &cands, r, 2)
                };
                check!("command-regexp", ok, commands_json(&cands, r, 2, &[]));
            }
        }
        (all, checks)
    }

    /// Whether rule R matches the call.
    pub fn matches(&self, r: usize) -> bool {
        self.check_rule(r, false).0
    }
}

/// ANY candidate (deny side), or ALL of at least one (allow side).
fn combine<T>(allow_side: bool, cands: &[T], ok: impl Fn(&T) -> bool) -> bool {
    if allow_side {
        !cands.is_empty() && cands.iter().all(ok)
    } else {
        cands.iter().any(ok)
    }
}

/// Whether a deny-side rule R hits any simple command (as run or as written).
fn command_ok(_allow_side: bool, cands: &[&CmdCand], r: usize, slot: usize) -> bool {
    cands
        .iter()
        .any(|c| c.hits.iter().any(|h| h[slot].get(r) || h[slot + 1].get(r)))
}

fn paths_json(cands: &[&PathCand], ok: impl Fn(&&PathCand) -> bool) -> Json {
    Json::Array(
        cands
            .iter()
            .map(|c| {
                json!({
                    "raw": c.raw,
                    "path": c.norm.as_ref().ok(),
                    "lexical": c.lexical,
                    "unreadable": c.norm.as_ref().err(),
                    "from": match &c.source {
                        PathSource::Arg(_) => "argument",
                        PathSource::Redirect(_) => "redirection",
                        PathSource::Word(_) => "command word",
                    },
                    "key": key_of(&c.source),
                    "matched": ok(c),
                })
            })
            .collect(),
    )
}

/// The first of PREFIXES that the words of CMD start with, as written.
fn matched_prefix(cmd: &SimpleCommand, prefixes: &[Vec<String>]) -> Option<String> {
    prefixes
        .iter()
        .find(|p| {
            [&cmd.argv, &cmd.written]
                .iter()
                .any(|words| words.len() >= p.len() && words[..p.len()] == p[..])
        })
        .map(|p| p.join(" "))
}

fn commands_json(cands: &[&CmdCand], r: usize, slot: usize, prefixes: &[Vec<String>]) -> Json {
    Json::Array(
        cands
            .iter()
            .flat_map(|c| {
                let line_opaque = c.line.opaque.clone();
                let mut items: Vec<Json> = c
                    .line
                    .commands
                    .iter()
                    .zip(&c.hits)
                    .map(|(cmd, h)| {
                        let mut item = json!({
                            "key": c.key,
                            "command": cmd.argv.join(" "),
                            "written": cmd.written.join(" "),
                            "privileged": cmd.privileged,
                            "opaque": cmd.opaque,
                            "matched": h[slot].get(r) || h[slot + 1].get(r),
                        });
                        if slot == 0 {
                            item["prefix"] = json!(matched_prefix(cmd, prefixes));
                        }
                        item
                    })
                    .collect();
                if let Some(why) = line_opaque {
                    items.push(json!({"key": c.key, "opaque": why, "matched": false}));
                }
                items
            })
            .collect(),
    )
}

fn number(value: Option<&Arg>) -> Option<f64> {
    match value {
        Some(Arg::Int(i)) => Some(*i as f64),
        Some(Arg::Float(f)) => Some(*f),
        _ => None,
    }
}

/// Whether argument VALUE equals the rule's JSON value.
pub fn arg_equal(value: &Arg, j: &Json) -> bool {
    match (value, j) {
        (Arg::Str(a), Json::String(b)) => a == b,
        (Arg::Int(a), Json::Number(b)) => b.as_i64() == Some(*a) || b.as_f64() == Some(*a as f64),
        (Arg::Float(a), Json::Number(b)) => b.as_f64() == Some(*a),
        (Arg::Bool(a), Json::Bool(b)) => a == b,
        (Arg::Null, Json::Null) => true,
        (Arg::List(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| arg_equal(x, y))
        }
        (Arg::Map(a), Json::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| arg_equal(v, w)))
        }
        _ => false,
    }
}

/// The decision of the rules that match a call, before edits.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// Every matching rule, in rule order.
    pub matched: Vec<usize>,
    /// The most restrictive decision of theirs.
    pub decision: Option<Decision>,
    /// The first matching rule with that decision.
    pub by: Option<usize>,
}

/// Collect the rules that match CALL and their most restrictive decision.
pub fn decide(policy: &Policy, call: &Call) -> Decided {
    let prepared = Prepared::new(policy, call);
    decide_prepared(&prepared)
}

/// Like [`decide`], for a call already prepared.
pub fn decide_prepared(prepared: &Prepared<'_>) -> Decided {
    path::with_memo(|| decide_in_memo(prepared))
}

fn decide_in_memo(prepared: &Prepared<'_>) -> Decided {
    let policy = prepared.policy;
    let matched: Vec<usize> = prepared
        .candidates()
        .into_iter()
        .filter(|&r| prepared.matches(r))
        .collect();
    let decision = matched
        .iter()
        .filter_map(|&r| policy.rules[r].rule.decision)
        .max();
    let by = decision.and_then(|d| {
        matched
            .iter()
            .copied()
            .find(|&r| policy.rules[r].rule.decision == Some(d))
    });
    Decided {
        matched,
        decision,
        by,
    }
}

/// Where an argument of the edited call comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgSource {
    /// The original argument at this position of the call's args.
    Original(usize),
    /// A value set by a rule.
    New(Json),
}

/// The full outcome of a pre-call evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub decided: Decided,
    /// The decision after edits were re-decided (the stricter stands).
    pub decision: Option<Decision>,
    /// True when no rule decided and the default decision applied.
    pub by_default: bool,
    /// The rule whose decision stands (before or after edits).
    pub by: Option<usize>,
    pub reason: Option<String>,
    /// The edited argument list, when some rule edited it.
    pub args: Option<Vec<(String, ArgSource)>>,
    /// The decision of the edited call, when there were edits.
    pub redecided: Option<Decided>,
    /// The canned result, when one applies.
    pub result: Option<String>,
    /// The rule that gave the result.
    pub result_by: Option<usize>,
}

/// Apply the argument edits of the MATCHED rules, in rule order.
pub fn apply_edits(
    policy: &Policy,
    call: &Call,
    matched: &[usize],
) -> Option<Vec<(String, ArgSource)>> {
    let mut edited = false;
    let mut args: Vec<(String, ArgSource)> = call
        .args
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.clone(), ArgSource::Original(i)))
        .collect();
    for &r in matched {
        let rule = &policy.rules[r].rule;
        for (k, v) in &rule.set_args {
            edited = true;
            match args.iter_mut().find(|(key, _)| key == k) {
                Some(slot) => slot.1 = ArgSource::New(v.clone()),
                None => args.push((k.clone(), ArgSource::New(v.clone()))),
            }
            // A repeated key must not keep an old value behind the new one.
            let mut seen = false;
            args.retain(|(key, _)| {
                if key != k {
                    return true;
                }
                let keep = !seen;
                seen = true;
                keep
            });
        }
        for (k, v) in &rule.default_args {
            let present = args.iter().any(|(key, src)| {
                key == k
                    && match src {
                        ArgSource::Original(i) => call.args[*i].1 != Arg::Null,
                        ArgSource::New(j) => !j.is_null(),
                    }
            });
            if !present {
                edited = true;
                args.retain(|(key, _)| key != k);
                args.push((k.clone(), ArgSource::New(v.clone())));
            }
        }
        for k in &rule.remove_args {
            if args.iter().any(|(key, _)| key == k) {
                edited = true;
                args.retain(|(key, _)| key != k);
            }
        }
    }
    edited.then_some(args)
}

/// The call with ARGS in place of its own.
pub fn edited_call(call: &Call, args: &[(String, ArgSource)]) -> Call {
    Call {
        args: args
            .iter()
            .map(|(k, src)| {
                let v = match src {
                    ArgSource::Original(i) => call.args[*i].1.clone(),
                    ArgSource::New(j) => Arg::from_json(j),
                };
                (k.clone(), v)
            })
            .collect(),
        ..call.clone()
    }
}

/// Evaluate CALL against POLICY: decision, reason, edits and result.
///
/// The file system is inspected once per name for the whole evaluation
/// (see [`path::with_memo`]).
pub fn evaluate(policy: &Policy, call: &Call) -> Outcome {
    path::with_memo(|| evaluate_in_memo(policy, call))
}

fn evaluate_in_memo(policy: &Policy, call: &Call) -> Outcome {
    let decided = decide(policy, call);
    let mut decision = decided.decision;
    let mut by = decided.by;
    let mut args = None;
    let mut redecided = None;
    let blocked = |d: Option<Decision>| matches!(d, Some(Decision::Deny | Decision::Stop));
    if !blocked(decision) {
        if let Some(edits) = apply_edits(policy, call, &decided.matched) {
            let again = decide(policy, &edited_call(call, &edits));
            if again.decision > decision {
                decision = again.decision;
                by = again.by;
            }
            redecided = Some(again);
            args = Some(edits);
        }
    }
    let by_default = decision.is_none() && policy.options.default_decision.is_some();
    if by_default {
        decision = policy.options.default_decision;
    }
    let (result, result_by) = if blocked(decision) {
        (None, None)
    } else {
        match decided
            .matched
            .iter()
            .find_map(|&r| policy.rules[r].rule.result.clone().map(|s| (s, r)))
        {
            Some((s, r)) => (Some(s), Some(r)),
            None => (None, None),
        }
    };
    if blocked(decision) {
        args = None;
    }
    let reason = decision.map(|d| match by {
        Some(r) => {
            let rule = &policy.rules[r];
            rule.rule
                .reason
                .clone()
                .unwrap_or_else(|| generated_reason(d, &rule.label, &call.name))
        }
        None => format!(
            "gptel-rust-hooks: no rule decides tool `{}`; the default decision is {d}",
            call.name
        ),
    });
    Outcome {
        decided,
        decision,
        by_default,
        by,
        reason,
        args,
        redecided,
        result,
        result_by,
    }
}

fn generated_reason(d: Decision, label: &str, tool: &str) -> String {
    let verb = match d {
        Decision::Allow => "allowed",
        Decision::Ask => "needs confirmation",
        Decision::Deny => "denied",
        Decision::Stop => "stopped the request",
    };
    format!("gptel-rust-hooks: tool `{tool}` {verb} by {label}")
}

/// What rule matcher MATCHER asks for, for explanations; NTH_ARG is the
/// position of an `args` check among the rule's argument matchers.
fn wanted(rule: &Rule, matcher: &str, nth_arg: usize) -> Json {
    match matcher {
        "tool" => json!(rule.tool),
        "tool-regexp" => json!(rule.tool_regexp),
        "args" => match rule.args.get(nth_arg) {
            Some((key, m)) => json!({"key": key, "matcher": arg_matcher_json(m)}),
            None => Json::Null,
        },
        "path" => json!(rule.path),
        "path-outside" => json!(rule.path_outside),
        "command-prefix" => json!(rule.command_prefix),
        "command-regexp" => json!(rule.command_regexp),
        "buffer" => json!(rule.buffer),
        "backend" => json!(rule.backend),
        "model" => json!(rule.model),
        "cwd" => json!(rule.cwd),
        _ => Json::Null,
    }
}

/// An argument matcher in its serde form, as a rule would write it.
pub fn arg_matcher_json(m: &ArgMatcher) -> Json {
    match m {
        ArgMatcher::Glob(g) => json!(g),
        ArgMatcher::Regexp(r) => json!({ "regexp": r }),
        ArgMatcher::Equal(v) => json!({ "equal": v }),
        ArgMatcher::Present(b) => json!({ "present": b }),
        ArgMatcher::MaxLength(n) => json!({ "max-length": n }),
        ArgMatcher::Min(n) => json!({ "min": n }),
        ArgMatcher::Max(n) => json!({ "max": n }),
        ArgMatcher::Any(items) => Json::Array(items.iter().map(arg_matcher_json).collect()),
        ArgMatcher::All(items) => Json::Array(vec![json!({
            "all": items.iter().map(arg_matcher_json).collect::<Vec<_>>()
        })]),
    }
}

fn pairs_json(pairs: &[(String, Json)]) -> Json {
    Json::Object(pairs.iter().cloned().collect())
}

/// The effects a rule gives besides its decision, as written (empty ones left out).
fn effects_json(rule: &Rule) -> Json {
    let mut map = serde_json::Map::new();
    let mut put = |k: &str, v: Json| {
        map.insert(k.to_string(), v);
    };
    if let Some(r) = &rule.reason {
        put("reason", json!(r));
    }
    if !rule.set_args.is_empty() {
        put("set-args", pairs_json(&rule.set_args));
    }
    if !rule.default_args.is_empty() {
        put("default-args", pairs_json(&rule.default_args));
    }
    if !rule.remove_args.is_empty() {
        put("remove-args", json!(rule.remove_args));
    }
    if let Some(r) = &rule.result {
        put("result", json!(r));
    }
    if let Some(c) = &rule.context {
        put("context", json!(c));
    }
    if rule.suppress_output {
        put("suppress-output", json!(true));
    }
    if !rule.redact.is_empty() {
        put("redact", json!(rule.redact));
    }
    if let Some(n) = rule.max_output {
        put("max-output", json!(n));
    }
    Json::Object(map)
}

/// Explain CALL: every rule, each of its matchers, edits and outcome, as JSON.
pub fn explain(policy: &Policy, call: &Call) -> Json {
    path::with_memo(|| explain_in_memo(policy, call))
}

fn explain_in_memo(policy: &Policy, call: &Call) -> Json {
    let prepared = Prepared::new(policy, call);
    let outcome = evaluate(policy, call);
    let rules: Vec<Json> = policy
        .rules
        .iter()
        .enumerate()
        .map(|(r, rule)| {
            let (matched, checks) = prepared.check_rule(r, true);
            let mut nth_arg = 0;
            let matchers: Vec<Json> = checks
                .iter()
                .map(|c| {
                    let want = wanted(&rule.rule, c.matcher, nth_arg);
                    if c.matcher == "args" {
                        nth_arg += 1;
                    }
                    json!({"matcher": c.matcher, "matched": c.matched, "on": c.on, "want": want})
                })
                .collect();
            json!({
                "index": rule.origin.index + 1,
                "source": rule.origin.source,
                "line": rule.origin.line,
                "trusted": rule.origin.trusted,
                "id": rule.label,
                "decision": rule.rule.decision.map(Decision::name),
                "effects": effects_json(&rule.rule),
                "matched": matched,
                "matched-after-edits": outcome.redecided.as_ref().map(|d| d.matched.contains(&r)),
                "deciding": outcome.by == Some(r),
                "matchers": matchers,
            })
        })
        .collect();
    let edited = outcome
        .args
        .as_ref()
        .map(|a| edited_call(call, a).to_json()["args"].clone());
    let edits: Vec<Json> = outcome
        .decided
        .matched
        .iter()
        .map(|&r| &policy.rules[r])
        .filter(|rule| {
            !(rule.rule.set_args.is_empty()
                && rule.rule.default_args.is_empty()
                && rule.rule.remove_args.is_empty())
        })
        .map(|rule| {
            json!({
                "rule": rule.label,
                "source": rule.origin.source,
                "line": rule.origin.line,
                "set-args": pairs_json(&rule.rule.set_args),
                "default-args": pairs_json(&rule.rule.default_args),
                "remove-args": rule.rule.remove_args,
            })
        })
        .collect();
    json!({
        "call": call.to_json(),
        "rules": rules,
        "matched": outcome.decided.matched.iter().map(|&r| policy.rules[r].label.clone()).collect::<Vec<_>>(),
        "decision-before-edits": outcome.decided.decision.map(Decision::name),
        "decision-after-edits": outcome.redecided.as_ref().and_then(|d| d.decision).map(Decision::name),
        "edits": edits,
        "edits-applied": outcome.args.is_some(),
        "edited-args": edited,
        "decision": outcome.decision.map(Decision::name),
        "by-default": outcome.by_default,
        "deciding-rule": outcome.by.map(|r| policy.rules[r].label.clone()),
        "reason": outcome.reason,
        "result": outcome.result,
        "result-rule": outcome.result_by.map(|r| policy.rules[r].label.clone()),
        "notes": policy.notes,
    })
}

/// Check every rule's `:examples`; the first that disagrees is an error.
pub fn check_examples(policy: &Policy) -> Result<()> {
    for (r, rule) in policy.rules.iter().enumerate() {
        let ex = &rule.rule.examples;
        for (calls, want) in [(&ex.matching, true), (&ex.not_matching, false)] {
            for call in calls {
                let prepared = Prepared::new(policy, call);
                let (got, checks) = prepared.check_rule(r, true);
                if got != want {
                    let failed: Vec<&str> = checks
                        .iter()
                        .filter(|c| c.matched != want || !want)
                        .filter(|c| !c.matched || !want)
                        .map(|c| c.matcher)
                        .collect();
                    let detail = if want {
                        format!(" (no match on {})", failed.join(", "))
                    } else {
                        String::new()
                    };
                    let err = Error::key(
                        "examples",
                        format!(
                            "example {} `{}` {}{detail}",
                            if want { ":match" } else { ":no-match" },
                            call_short(call),
                            if want {
                                "does not match the rule"
                            } else {
                                "matches the rule but should not"
                            },
                        ),
                    )
                    .in_rule(rule.origin.index, rule.rule.id.as_deref());
                    return Err(rule.origin.locate(err));
                }
            }
        }
    }
    Ok(())
}

fn call_short(call: &Call) -> String {
    let args: Vec<String> = call
        .args
        .iter()
        .map(|(k, v)| format!(":{k} {}", v.to_json()))
        .collect();
    format!("(:name {:?} :args ({}))", call.name, args.join(" "))
}

/// Readings of RAW that a kernel, a shell or another program could give
/// it, for paths the strict normalization refuses: `$HOME`/`$PWD`/`~+`
/// expanded, a TRAMP, `/:` or `file://` prefix dropped, `/proc/self/root`
/// dropped, repeated slashes collapsed, `.` and `..` collapsed lexically,
/// and the longest existing prefix resolved by the kernel before `..`.
pub fn fallback_forms(raw: &str, home: Option<&str>, cwd: Option<&str>) -> Vec<String> {
    let mut text: String = raw.chars().filter(|c| !c.is_control()).collect();
    if let Some(h) = home {
        for var in ["${HOME}", "$HOME"] {
            text = text.replace(var, h);
        }
    }
    if let Some(c) = cwd {
        for var in ["${PWD}", "$PWD", "~+"] {
            text = text.replace(var, c);
        }
    }
    if let Some(rest) = text.strip_prefix("file://") {
        text = rest.to_string();
    }
    if let Some(rest) = text.strip_prefix("/:") {
        text = rest.to_string();
    }
    // `/method:host:/path`: the remote part names a path on some host.
    if let Some(rest) = text.strip_prefix('/') {
        let first = rest.split('/').next().unwrap_or("");
        if first.contains(':') {
            text = rest[first.len()..].to_string();
        }
    }
    if text == "~" || text.starts_with("~/") {
        match home {
            Some(h) => text = format!("{h}{}", &text[1..]),
            None => return Vec::new(),
        }
    }
    if !text.starts_with('/') {
        match cwd {
            Some(c) => text = format!("{}/{text}", c.trim_end_matches('/')),
            None => return Vec::new(),
        }
    }
    let mut parts: Vec<&str> = text
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.len() >= 3 && parts[0] == "proc" && parts[2] == "root" {
        parts.drain(..3);
    }
    let lexical = {
        let mut out: Vec<&str> = Vec::new();
        for p in &parts {
            if *p == ".." {
                out.pop();
            } else {
                out.push(p);
            }
        }
        format!("/{}", out.join("/"))
    };
    let mut forms = vec![lexical];
    // The kernel resolves links before `..`: canonicalize the longest
    // existing prefix as written, then collapse the rest.
    for cut in (1..=parts.len()).rev() {
        let prefix = format!("/{}", parts[..cut].join("/"));
        if let Some(real) = path::realpath(&prefix) {
            let mut out: Vec<String> = real
                .split('/')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            for p in &parts[cut..] {
                if *p == ".." {
                    out.pop();
                } else {
                    out.push((*p).to_string());
                }
            }
            forms.push(format!("/{}", out.join("/")));
            break;
        }
    }
    forms.dedup();
    forms
}

/// Most raw substitution regions scanned in one command line.
const MAX_REGIONS: usize = 16;

/// The text after each `$(` and backquote of LINE that bash would expand:
/// outside single quotes (but inside double quotes, where a `'` is just a
/// character), not escaped, not in a quoted here-document. A second look
/// for deny-side rules at commands a parser might take for quoted text;
/// parse errors in a region still show its commands (guessed) to deny rules.
pub fn substitution_regions(line: &str) -> Vec<&str> {
    if line.len() > 4096 {
        return Vec::new();
    }
    #[derive(PartialEq)]
    enum Q {
        Normal,
        Single,
        Double,
    }
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut state = Q::Normal;
    // Here-documents waiting for the end of the line: (delimiter, quoted, strip tabs).
    let mut pending: Vec<(String, bool, bool)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() && out.len() < MAX_REGIONS {
        let b = bytes[i];
        match state {
            Q::Single => {
                if b == b'\'' {
                    state = Q::Normal;
                }
            }
            Q::Normal | Q::Double => {
                if b == b'\\' {
                    i += 2;
                    continue;
                }
                if b == b'$' && bytes.get(i + 1) == Some(&b'(') {
                    out.push(&line[i + 2..]);
                } else if b == b'`' {
                    out.push(&line[i + 1..]);
                } else if b == b'"' {
                    state = if state == Q::Double {
                        Q::Normal
                    } else {
                        Q::Double
                    };
                } else if b == b'\'' && state == Q::Normal {
                    state = Q::Single;
                } else if state == Q::Normal && bytes[i..].starts_with(b"<<<") {
                    i += 3;
                    continue;
                } else if state == Q::Normal && bytes[i..].starts_with(b"<<") {
                    let mut j = i + 2;
                    let strip = bytes.get(j) == Some(&b'-');
                    if strip {
                        j += 1;
                    }
                    while bytes.get(j).is_some_and(|c| *c == b' ' || *c == b'\t') {
                        j += 1;
                    }
                    let start = j;
                    while bytes.get(j).is_some_and(|c| !b" \t\n;|&<>()".contains(c)) {
                        j += 1;
                    }
                    let word = &line[start..j];
                    let quoted = word.contains(['\'', '"', '\\']);
                    let delim: String = word
                        .chars()
                        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                        .collect();
                    if !delim.is_empty() {
                        pending.push((delim, quoted, strip));
                    }
                    i = j;
                    continue;
                } else if b == b'\n' && state == Q::Normal && !pending.is_empty() {
                    // Skip the bodies of quoted here-documents; unquoted ones
                    // are scanned on (their expansions run).
                    let mut k = i + 1;
                    for (delim, quoted, strip) in std::mem::take(&mut pending) {
                        loop {
                            let end = line[k..].find('\n').map_or(line.len(), |e| k + e);
                            let text = &line[k..end];
                            let text = if strip {
                                text.trim_start_matches('\t')
                            } else {
                                text
                            };
                            if !quoted {
                                for (o, _) in text.match_indices("$(") {
                                    if out.len() < MAX_REGIONS {
                                        let at = end - text.len() + o;
                                        out.push(&line[at + 2..]);
                                    }
                                }
                            }
                            k = (end + 1).min(line.len());
                            if text == delim || end >= line.len() {
                                break;
                            }
                        }
                    }
                    i = k;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}
