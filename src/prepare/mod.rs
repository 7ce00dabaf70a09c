//! A call prepared once for matching against one policy ([`Prepared`]): its
//! candidate rules come from the indexes, and every matcher kind is computed
//! lazily, once per call, as a bit set over rules. Paths are normalized once
//! ([`paths`]), command lines parsed once ([`commands`]).

mod changes;
mod changes_before;
mod commands;
mod configs;
mod dash_names;
mod dirs;
mod facts;
mod fnmatch;
mod git_add;
mod git_cands;
mod git_config_paths;
mod git_globals;
mod git_graph;
mod git_index;
mod git_objects;
mod git_packs;
mod git_pathspecs;
mod git_reflog;
mod git_repo;
mod git_tops;
mod ignore_lines;
mod kernel_words;
mod line_values;
mod links;
mod lookups;
mod made_links;
mod paths;
mod places;
mod put_values;
mod rg_types;
mod rg_walk;
mod role_cands;
mod split_names;
mod walk_stalls;
mod walks;
mod words;

pub use commands::{CmdCand, CmdHits};
pub use paths::{key_of, PathCand, PathSource, MAX_WORD_PATHS};

use crate::index::{glob_hits, regex_hits, BitSet, Index};
use crate::path::{self, PathEnv};
use crate::policy::{Driver, Policy};
use crate::rule::{Arg, Call};
use globset::GlobSet;
use std::borrow::Cow;
use std::cell::OnceCell;

/// A call prepared for matching against one policy.
pub struct Prepared<'p> {
    pub policy: &'p Policy,
    pub call: &'p Call,
    /// Home, cwd (normalized) and case folding, made on first use: only
    /// calls that meet a path or cwd matcher pay for resolving the cwd.
    pub(crate) path_env: OnceCell<PathEnv>,
    pub(crate) tool_globs: OnceCell<BitSet>,
    pub(crate) tool_regexps: OnceCell<BitSet>,
    pub(crate) buffer: OnceCell<BitSet>,
    pub(crate) backend: OnceCell<BitSet>,
    pub(crate) model: OnceCell<BitSet>,
    pub(crate) cwd: OnceCell<BitSet>,
    pub(crate) paths: OnceCell<Vec<PathCand>>,
    pub(crate) commands: OnceCell<Vec<CmdCand>>,
    pub(crate) line_allowed: OnceCell<bool>,
    /// Whether no command line of the call names `PWD` or `HOME` but to expand them.
    pub(crate) pwd_home_free: OnceCell<bool>,
    /// The simple commands no allow rule may cover (see [`PathCand::uncertain`]).
    pub(crate) uncertain_cmds: OnceCell<std::collections::HashSet<(usize, usize)>>,
    /// Where git finds its repository from each directory asked about in this call
    /// (the same directories are asked for each git command and each of its words).
    repos: std::cell::RefCell<std::collections::HashMap<std::path::PathBuf, git_repo::Repo>>,
    /// git's object stores, opened once a call (see [`git_objects::Stores`]).
    stores: std::cell::RefCell<git_objects::Stores>,
    /// Leaf hits of each argument key, by the key's position in the policy.
    arg_leaves: Vec<OnceCell<BitSet>>,
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
            pwd_home_free: OnceCell::new(),
            uncertain_cmds: OnceCell::new(),
            repos: std::cell::RefCell::new(std::collections::HashMap::new()),
            stores: std::cell::RefCell::default(),
            arg_leaves: (0..policy.arg_index.len())
                .map(|_| OnceCell::new())
                .collect(),
        }
    }

    pub(crate) fn n(&self) -> usize {
        self.policy.rules.len()
    }

    pub(crate) fn path_env(&self) -> &PathEnv {
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
        let admits = |d: Driver| policy.gates.admits(d, &self.call.name);
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
                    for (prefix, regexp) in h.forms.iter().chain(&h.unsure_forms) {
                        take(&mut out, prefix, Driver::CmdPrefix);
                        take(&mut out, regexp, Driver::CmdRegexp);
                    }
                }
                // Commands a bound left out may be anything: every deny-side
                // command rule is a candidate.
                if c.line.truncated.is_some() {
                    out.extend((0..policy.rules.len()).filter(|&r| {
                        let rule = &policy.rules[r];
                        !rule.allow_side
                            && matches!(rule.driver, Driver::CmdPrefix | Driver::CmdRegexp)
                    }));
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

    pub(crate) fn tool_glob_hits(&self) -> &BitSet {
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

    pub(crate) fn tool_regexp_hits(&self) -> &BitSet {
        self.tool_regexps.get_or_init(|| {
            let mut bits = BitSet::new(self.n());
            regex_hits(&self.policy.tool_regexps, &self.call.name, &mut bits);
            bits
        })
    }

    pub(crate) fn name_hits<'a>(
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

    pub(crate) fn cwd_hits(&self) -> &BitSet {
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

    /// The argument leaves (of every rule) that KEY's value hits, or None
    /// when no rule has a glob or regexp leaf for KEY.
    pub(crate) fn arg_leaf_hits(&self, key: &str) -> Option<&BitSet> {
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

    /// The simple commands, as (command argument, command), that a path of
    /// theirs keeps every allow rule from covering (see [`PathCand::uncertain`]).
    pub(crate) fn uncertain_cmds(&self) -> &std::collections::HashSet<(usize, usize)> {
        self.uncertain_cmds.get_or_init(|| {
            self.paths()
                .iter()
                .filter(|p| p.uncertain.is_some())
                .flat_map(|p| p.cmds.iter().copied())
                .collect()
        })
    }

    /// The home directory and the request's directory, as text.
    pub(crate) fn home_and_cwd(&self) -> (Option<String>, Option<String>) {
        let env = self.path_env();
        let text =
            |p: &Option<std::path::PathBuf>| p.as_ref().map(|p| p.to_string_lossy().into_owned());
        let home = text(&env.home);
        // A request directory that cannot be normalized (a TRAMP name, a `$`
        // in it) is no directory for allow rules; deny-side rules read it as
        // the kernel or a shell could.
        let cwd = text(&env.cwd).or_else(|| {
            let c = self.call.cwd.as_deref()?;
            path::fallback_forms(c, home.as_deref(), None)
                .into_iter()
                .next()
        });
        (home, cwd)
    }
}

/// Whether command J of LINE may run before command I of it (I itself aside): it comes
/// earlier, it runs in a loop, or commands of the line run at the same time (`(sleep 1;
/// curl ...) & echo ... > ~/.curlrc`, `curl ... | echo ... > ~/.curlrc`: a later command
/// may act first).
pub(super) fn runs_before(line: &crate::shell::CommandLine, j: usize, i: usize) -> bool {
    let repeated = line.repeated.iter().any(|(k, _)| *k == j);
    j != i && (j < i || repeated || line.concurrent)
}
