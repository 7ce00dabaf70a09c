//! The paths a call names: its path arguments, the redirection targets of
//! its command lines, and (for deny-side rules) the words of its simple
//! commands, each normalized once and matched against every path glob.

use super::Prepared;
use crate::index::{glob_hits, BitSet};
use crate::path;
use crate::rule::Arg;

/// At most this many path candidates are taken from command words.
pub const MAX_WORD_PATHS: usize = 1024;

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

pub fn key_of(source: &PathSource) -> &str {
    match source {
        PathSource::Arg(k) | PathSource::Redirect(k) | PathSource::Word(k) => k,
    }
}

impl Prepared<'_> {
    fn is_path_key(&self, key: &str) -> bool {
        self.policy.any_path_keys.contains(key)
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
            for form in path::fallback_forms(raw, home.as_deref(), cwd.as_deref()) {
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
                for form in path::fallback_forms(d, home.as_deref(), current.as_deref()) {
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
                    Some(t) => path::fallback_forms(t, home.as_deref(), current.as_deref())
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
                                let (home, cwd) = self.home_and_cwd();
                                let case_fold = self.path_env().case_fold;
                                let found = path::expand_glob(
                                    w,
                                    home.as_deref(),
                                    cwd.as_deref(),
                                    case_fold,
                                );
                                for found in found {
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
}
