//! Does one rule match one prepared call, and why: each matcher of the rule
//! is checked in turn, and for explanations the check keeps what it looked
//! at ([`On`]), which `explain` renders.

use crate::index::BitSet;
use crate::path;
use crate::policy::{CArg, CRule, OutsideDir};
use crate::prepare::{CmdCand, CmdHits, PathCand, PathSource, Prepared};
use crate::rule::Arg;
use crate::shell::SimpleCommand;
use serde_json::Value as Json;

/// What one matcher was checked on.
#[derive(Debug, Clone)]
pub enum On<'a> {
    /// A name of the call: its tool, buffer, backend, model or directory.
    Name(Option<String>),
    /// One named argument and its value.
    Arg {
        key: &'a str,
        value: Option<&'a Arg>,
    },
    /// The path candidates the rule looks at, each with whether it matched.
    Paths(Vec<(&'a PathCand, bool)>),
    /// The command lines the rule looks at, checked for rule RULE's
    /// prefixes or regexps (KIND).
    Commands {
        cands: Vec<&'a CmdCand>,
        rule: usize,
        kind: CommandMatcher,
    },
}

/// Which command matcher a check is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandMatcher {
    Prefix,
    Regexp,
}

impl CommandMatcher {
    /// Whether rule R hits the simple command with hits H (as run or as written).
    pub fn hit(self, h: &CmdHits, r: usize) -> bool {
        match self {
            CommandMatcher::Prefix => h.prefix_any(r),
            CommandMatcher::Regexp => h.regexp_any(r),
        }
    }
}

/// One matcher of a rule, checked.
#[derive(Debug, Clone)]
pub struct Check<'a> {
    /// The matcher's key, without its colon.
    pub matcher: &'static str,
    pub matched: bool,
    /// What it was checked on.
    pub on: Option<On<'a>>,
}

/// The checks of one rule: kept only when explaining, and stopped at the
/// first failure otherwise.
struct Checks<'a> {
    explain: bool,
    all: bool,
    made: Vec<Check<'a>>,
}

impl<'a> Checks<'a> {
    /// Record that MATCHER matched (OK) on what ON gives; false when the
    /// rule has failed and checking should stop.
    fn check(&mut self, matcher: &'static str, ok: bool, on: impl FnOnce() -> On<'a>) -> bool {
        if self.explain {
            self.made.push(Check {
                matcher,
                matched: ok,
                on: Some(on()),
            });
        }
        self.all &= ok;
        self.all || self.explain
    }
}

impl<'p> Prepared<'p> {
    /// Check each matcher of rule R in turn; stop at the first that fails
    /// unless EXPLAIN. Returns whether all matched, and the checks made.
    pub fn check_rule(&self, r: usize, explain: bool) -> (bool, Vec<Check<'_>>) {
        self.check_rule_with(r, explain, false)
    }

    /// Whether rule R matches the call.
    pub fn matches(&self, r: usize) -> bool {
        self.check_rule(r, false).0
    }

    /// [`Prepared::check_rule`], leaving out the command matchers when
    /// SKIP_COMMANDS (to find the allow rules that may cover a line).
    fn check_rule_with(
        &self,
        r: usize,
        explain: bool,
        skip_commands: bool,
    ) -> (bool, Vec<Check<'_>>) {
        let mut checks = Checks {
            explain,
            all: true,
            made: Vec::new(),
        };
        let _ = self.check_names(r, &mut checks)
            && self.check_args(r, &mut checks)
            && self.check_paths(r, &mut checks)
            && (skip_commands || self.check_commands(r, &mut checks));
        (checks.all, checks.made)
    }

    /// The tool, buffer, backend, model and directory matchers of rule R.
    fn check_names(&self, r: usize, checks: &mut Checks<'_>) -> bool {
        let rule = &self.policy.rules[r];
        let call = self.call;
        let name = || On::Name(Some(call.name.clone()));
        if rule.has_tool_glob {
            let ok = match &rule.tool_literals {
                Some(names) => names.contains(&call.name),
                None => self.tool_glob_hits().get(r),
            };
            if !checks.check("tool", ok, name) {
                return false;
            }
        }
        if rule.has_tool_regexp
            && !checks.check("tool-regexp", self.tool_regexp_hits().get(r), name)
        {
            return false;
        }
        let policy = self.policy;
        for (has, matcher, cell, index, value) in [
            (
                rule.has_buffer,
                "buffer",
                &self.buffer,
                &policy.buffer,
                &call.buffer,
            ),
            (
                rule.has_backend,
                "backend",
                &self.backend,
                &policy.backend,
                &call.backend,
            ),
            (
                rule.has_model,
                "model",
                &self.model,
                &policy.model,
                &call.model,
            ),
        ] {
            if has {
                let hits = self.name_hits(cell, index, value.as_deref());
                if !checks.check(matcher, hits.get(r), || On::Name(value.clone())) {
                    return false;
                }
            }
        }
        if rule.has_cwd {
            let cwd = || {
                On::Name(
                    self.path_env()
                        .cwd
                        .as_ref()
                        .map(|c| c.to_string_lossy().into()),
                )
            };
            if !checks.check("cwd", self.cwd_hits().get(r), cwd) {
                return false;
            }
        }
        true
    }

    /// The `:args` matchers of rule R, one check per argument.
    fn check_args(&self, r: usize, checks: &mut Checks<'p>) -> bool {
        let no_leaves = BitSet::new(0);
        for (key, m) in &self.policy.rules[r].args {
            let leaves = self.arg_leaf_hits(key).unwrap_or(&no_leaves);
            let on = || On::Arg {
                key,
                value: self.call.arg(key),
            };
            if !checks.check("args", self.arg_matches(key, m, leaves), on) {
                return false;
            }
        }
        true
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

    /// The `:path` and `:path-outside` matchers of rule R.
    fn check_paths(&'p self, r: usize, checks: &mut Checks<'p>) -> bool {
        let rule = &self.policy.rules[r];
        if !rule.has_path && rule.path_outside.is_empty() {
            return true;
        }
        let cands: Vec<&PathCand> = self
            .paths()
            .iter()
            .filter(|c| self.relevant_path(rule, &c.source))
            .collect();
        if rule.has_path {
            let glob = |c: &PathCand| c.glob_match(r, rule.allow_side);
            let ok = combine(rule.allow_side, &cands, glob);
            if !checks.check("path", ok, || paths_on(&cands, glob)) {
                return false;
            }
        }
        if !rule.path_outside.is_empty() {
            let dirs = self.outside_dirs(rule);
            let out_of = |p: &str| !dirs.iter().any(|d| path::is_within(p, d));
            let outside = |c: &PathCand| match (&c.norm, &c.lexical) {
                // An unreadable path counts as outside for deny-side
                // rules, and never satisfies an allow rule.
                (Err(_), _) => !rule.allow_side,
                (Ok(p), None) => out_of(p),
                (Ok(p), Some(l)) if rule.allow_side => out_of(p) && out_of(l),
                (Ok(p), Some(l)) => out_of(p) || out_of(l),
            };
            let ok = combine(rule.allow_side, &cands, outside);
            if !checks.check("path-outside", ok, || paths_on(&cands, outside)) {
                return false;
            }
        }
        true
    }

    /// RULE's `:path-outside` directories for this call. Directories relative
    /// to the cwd are resolved now; without a cwd they are unknown, and
    /// nothing counts as inside them.
    fn outside_dirs(&self, rule: &CRule) -> Vec<String> {
        rule.path_outside
            .iter()
            .filter_map(|d| match d {
                OutsideDir::Absolute(d) => Some(d.clone()),
                OutsideDir::CwdRelative(d) => self
                    .path_env()
                    .cwd
                    .as_ref()
                    .and_then(|_| path::normalize(d, self.path_env()).ok()),
            })
            .collect()
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

    /// The `:command-prefix` and `:command-regexp` matchers of rule R.
    fn check_commands(&'p self, r: usize, checks: &mut Checks<'p>) -> bool {
        let rule = &self.policy.rules[r];
        if !rule.has_cmd_prefix && !rule.has_cmd_regexp {
            return true;
        }
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
        for (has, matcher, kind) in [
            (
                rule.has_cmd_prefix,
                "command-prefix",
                CommandMatcher::Prefix,
            ),
            (
                rule.has_cmd_regexp,
                "command-regexp",
                CommandMatcher::Regexp,
            ),
        ] {
            if !has {
                continue;
            }
            let ok = if rule.allow_side {
                allowed
            } else {
                cands.iter().any(|c| c.hits.iter().any(|h| kind.hit(h, r)))
            };
            let on = || On::Commands {
                cands: cands.clone(),
                rule: r,
                kind,
            };
            if !checks.check(matcher, ok, on) {
                return false;
            }
        }
        true
    }

    /// Whether allow rule R covers simple command CMD (with hits H): its
    /// prefixes and regexps, on the written form when run through sudo.
    fn covers(&self, r: usize, cmd: &SimpleCommand, h: &CmdHits) -> bool {
        let rule = &self.policy.rules[r];
        (!rule.has_cmd_prefix || h.prefix(cmd.privileged).get(r))
            && (!rule.has_cmd_regexp || h.regexp(cmd.privileged).get(r))
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
                    c.line.is_certain()
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
}

/// ANY candidate (deny side), or ALL of at least one (allow side).
fn combine<T>(allow_side: bool, cands: &[&T], ok: impl Fn(&T) -> bool) -> bool {
    if allow_side {
        !cands.is_empty() && cands.iter().all(|c| ok(c))
    } else {
        cands.iter().any(|c| ok(c))
    }
}

fn paths_on<'a>(cands: &[&'a PathCand], ok: impl Fn(&PathCand) -> bool) -> On<'a> {
    On::Paths(cands.iter().map(|c| (*c, ok(c))).collect())
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
