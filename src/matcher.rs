//! Does one rule match one prepared call, and why: each matcher of the rule
//! is checked in turn, and for explanations the check keeps what it looked
//! at ([`On`]), which `explain` renders.

use crate::index::BitSet;
use crate::path;
use crate::policy::{CArg, CRule, OutsideDir};
use crate::prepare::{key_of, CmdCand, CmdHits, PathCand, PathSource, Prepared};
use crate::rule::Arg;
use crate::shell::Unsure;
use serde_json::Value as Json;

/// Tools whose argument is code the package cannot read (Emacs Lisp): an allow
/// rule allows a call to one only when its `:tool` names it literally, never
/// through a pattern (`"*"`, `:tool-regexp`) or a rule without `:tool`.
pub const CODE_TOOLS: &[&str] = &[
    "Eval",
    "eval_elisp",
    "elisp_eval",
    "eval_emacs_lisp",
    "emacs_eval",
    "evaluate_elisp",
    "execute_elisp",
    "run_elisp",
];

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
        /// For an allow rule: the paths that keep their commands from being
        /// covered (see [`PathCand::uncertain`]), as (command argument, why).
        uncertain: Vec<(&'a str, &'a str)>,
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

    /// Whether rule R hits the generous reading of the command with hits H.
    pub fn unsure_hit(self, h: &CmdHits, r: usize) -> bool {
        match self {
            CommandMatcher::Prefix => h.unsure_prefix_any(r),
            CommandMatcher::Regexp => h.unsure_regexp_any(r),
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

/// Which matches a check counts (DESIGN.md, "Certain and unsure matches").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Every match, unsure ones included: whether the rule matches.
    All,
    /// Only the certain matches: whether a deny-side rule's match is certain.
    Certain,
}

/// The checks of one rule: kept only when explaining, and stopped at the
/// first failure otherwise.
struct Checks<'a> {
    explain: bool,
    all: bool,
    made: Vec<Check<'a>>,
    reach: Reach,
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
        self.check_rule_with(r, explain, false, Reach::All)
    }

    /// Why every match of rule R, a deny-side rule that matches, is unsure (DESIGN.md,
    /// "Certain and unsure matches"); empty when one of its matches is certain.
    pub fn unsure_reasons(&self, r: usize) -> Vec<Unsure> {
        let rule = &self.policy.rules[r];
        if rule.allow_side || self.check_rule_with(r, false, false, Reach::Certain).0 {
            return Vec::new();
        }
        let mut out: Vec<Unsure> = Vec::new();
        for c in self.commands() {
            if !self.relevant_command(rule, c) {
                continue;
            }
            for (simple, h) in c.line.commands.iter().zip(&c.hits) {
                let hit = |unsure: bool| {
                    let (p, x) = if unsure {
                        (h.unsure_prefix_any(r), h.unsure_regexp_any(r))
                    } else {
                        (h.prefix_any(r), h.regexp_any(r))
                    };
                    (rule.has_cmd_prefix && p) || (rule.has_cmd_regexp && x)
                };
                // (A generous line a bound truncated matches every command rule.)
                let truncated =
                    c.line.truncated.is_some() && (rule.has_cmd_prefix || rule.has_cmd_regexp);
                if let (Some(why), true) = (&c.line.unsure, hit(false) || hit(true) || truncated) {
                    out.push(why.clone());
                }
                if let (Some(g), true) = (&simple.generous, hit(true)) {
                    out.push(g.why.clone());
                }
            }
        }
        if rule.has_path || !rule.path_outside.is_empty() {
            let tests = PathTests::new(self, rule, r);
            for c in self.paths() {
                let Some(why) = &c.unsure else { continue };
                if !self.relevant_path(rule, &c.source) {
                    continue;
                }
                if (rule.has_path && tests.glob(c))
                    || (!rule.path_outside.is_empty() && tests.outside(c))
                {
                    out.push(why.clone());
                }
            }
        }
        out.sort();
        out.dedup();
        out
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
        reach: Reach,
    ) -> (bool, Vec<Check<'_>>) {
        let mut checks = Checks {
            explain,
            all: true,
            made: Vec::new(),
            reach,
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
        // A tool that evaluates code is allowed only by a rule that names it.
        if rule.allow_side && CODE_TOOLS.contains(&call.name.as_str()) {
            let named = rule
                .tool_literals
                .as_ref()
                .is_some_and(|names| names.contains(&call.name));
            if !checks.check("tool", named, name) {
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
    ///
    /// When R also has command matchers, its matchers must hold for one and
    /// the same simple command: a deny-side rule needs a command its command
    /// matchers hit among whose paths (its words and redirections, and the
    /// path arguments) its path matchers hold; an allow rule's paths are
    /// checked per command it covers (see [`Prepared::covers`]).
    fn check_paths(&'p self, r: usize, checks: &mut Checks<'p>) -> bool {
        let rule = &self.policy.rules[r];
        if !rule.has_path && rule.path_outside.is_empty() {
            return true;
        }
        let per_command = rule.has_cmd_prefix || rule.has_cmd_regexp;
        if per_command && rule.allow_side {
            return true;
        }
        let reach = checks.reach;
        let cands: Vec<&PathCand> = self
            .paths()
            .iter()
            .filter(|c| self.relevant_path(rule, &c.source))
            .filter(|c| reach == Reach::All || c.unsure.is_none())
            .collect();
        let tests = PathTests::new(self, rule, r);
        // The simple commands this rule's command matchers hit (deny side).
        let hit: Option<Vec<(usize, usize)>> = per_command.then(|| self.hit_commands(r, reach));
        let holds = |test: &dyn Fn(&PathCand) -> bool| -> bool {
            match &hit {
                None => combine(rule.allow_side, &cands, test),
                Some(hit) => hit.iter().any(|cmd| {
                    cands
                        .iter()
                        .any(|c| (c.cmds.is_empty() || c.cmds.contains(cmd)) && test(c))
                }),
            }
        };
        if rule.has_path {
            let glob = |c: &PathCand| tests.glob(c);
            let ok = match &hit {
                // Both path matchers on one and the same command.
                Some(hit) if !rule.path_outside.is_empty() => hit.iter().any(|cmd| {
                    let mine = |c: &&&PathCand| c.cmds.is_empty() || c.cmds.contains(cmd);
                    cands.iter().filter(mine).any(|c| tests.glob(c))
                        && cands.iter().filter(mine).any(|c| tests.outside(c))
                }),
                _ => holds(&glob),
            };
            if !checks.check("path", ok, || paths_on(&cands, glob)) {
                return false;
            }
        }
        if !rule.path_outside.is_empty() {
            let outside = |c: &PathCand| tests.outside(c);
            let ok = match &hit {
                Some(_) if rule.has_path => true,
                _ => holds(&outside),
            };
            if !checks.check("path-outside", ok, || paths_on(&cands, outside)) {
                return false;
            }
        }
        true
    }

    /// The simple commands (as indexes into `commands()`) that rule R's
    /// command matchers all hit, in any of their forms.
    fn hit_commands(&self, r: usize, reach: Reach) -> Vec<(usize, usize)> {
        let rule = &self.policy.rules[r];
        let mut out = Vec::new();
        for (ci, c) in self.commands().iter().enumerate() {
            if !self.relevant_command(rule, c)
                || (reach == Reach::Certain && c.line.unsure.is_some())
            {
                continue;
            }
            for (i, h) in c.hits.iter().enumerate() {
                let certain = (!rule.has_cmd_prefix || h.prefix_any(r))
                    && (!rule.has_cmd_regexp || h.regexp_any(r));
                let unsure = reach == Reach::All
                    && (!rule.has_cmd_prefix || h.prefix_any(r) || h.unsure_prefix_any(r))
                    && (!rule.has_cmd_regexp || h.regexp_any(r) || h.unsure_regexp_any(r));
                let hit = certain || unsure;
                // Commands a bound kept out of the line may be any: all of them count.
                if hit || c.line.truncated.is_some() {
                    out.push((ci, i));
                }
            }
        }
        out
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
            // Named in an argument's text: where the tool writes.
            PathSource::Embedded(k) => rule.path_keys.contains(k, true),
            // Patterns (and what they match) widen deny-side rules only.
            PathSource::Pattern(k) => !rule.allow_side && rule.path_keys.contains(k, true),
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
        let indexed: Vec<(usize, &CmdCand)> = self
            .commands()
            .iter()
            .enumerate()
            .filter(|(_, c)| self.relevant_command(rule, c) && !(rule.allow_side && c.deny_only))
            .filter(|(_, c)| checks.reach == Reach::All || c.line.unsure.is_none())
            .collect();
        let cands: Vec<&CmdCand> = indexed.iter().map(|(_, c)| *c).collect();
        // An allow rule matches when the whole line is allowed (every
        // simple command covered by some allow rule) and it covers part of it.
        let allowed = rule.allow_side
            && !cands.is_empty()
            && self.line_allowed()
            && indexed
                .iter()
                .any(|(ci, c)| (0..c.line.commands.len()).any(|i| self.covers(r, (*ci, i))));
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
            let reach = checks.reach;
            let ok = if rule.allow_side {
                allowed
            } else {
                cands.iter().any(|c| {
                    c.line.truncated.is_some()
                        || c.hits.iter().any(|h| {
                            kind.hit(h, r) || (reach == Reach::All && kind.unsure_hit(h, r))
                        })
                })
            };
            let on = || On::Commands {
                cands: cands.clone(),
                rule: r,
                kind,
                uncertain: if rule.allow_side {
                    self.paths()
                        .iter()
                        .filter(|p| !p.cmds.is_empty())
                        .filter_map(|p| Some((key_of(&p.source), p.uncertain.as_deref()?)))
                        .collect()
                } else {
                    Vec::new()
                },
            };
            if !checks.check(matcher, ok, on) {
                return false;
            }
        }
        true
    }

    /// Whether allow rule R covers simple command CMD (with hits H): its
    /// prefixes and regexps, on the written form when run through sudo.
    /// Whether allow rule R covers the simple command CMD (command argument,
    /// command): its prefixes and regexps hit the command's allow form (the
    /// privileged form when run through `sudo`), and its path matchers, if
    /// any, hold for every path of that command's redirections and the call's
    /// path arguments (at least one).
    fn covers(&self, r: usize, cmd: (usize, usize)) -> bool {
        let rule = &self.policy.rules[r];
        let Some(c) = self.commands().get(cmd.0) else {
            return false;
        };
        let (Some(simple), Some(h)) = (c.line.commands.get(cmd.1), c.hits.get(cmd.1)) else {
            return false;
        };
        // A path only the running shell knows (`/proc/self/cwd/x`, `/dev/fd/3/x`):
        // no allow rule covers its command.
        if self.uncertain_cmds().contains(&cmd) {
            return false;
        }
        // A program the table does not know: only a rule that names it allows it.
        if simple.program.needs_naming()
            && !simple.argv.first().is_some_and(|n| {
                rule.names
                    .iter()
                    .any(|m| m == n || (self.policy.options.case_fold && m.eq_ignore_ascii_case(n)))
            })
        {
            return false;
        }
        let covered = |form: usize| {
            (!rule.has_cmd_prefix || h.prefix_at(form, r))
                && (!rule.has_cmd_regexp || h.regexp_at(form, r))
        };
        let hit = covered(simple.allow_form()) || simple.inert_allow_form().is_some_and(covered);
        if !hit || (!rule.has_path && rule.path_outside.is_empty()) {
            return hit;
        }
        let tests = PathTests::new(self, rule, r);
        let mine: Vec<&PathCand> = self
            .paths()
            .iter()
            .filter(|p| {
                self.relevant_path(rule, &p.source) && (p.cmds.is_empty() || p.cmds.contains(&cmd))
            })
            .collect();
        !mine.is_empty()
            && mine.iter().all(|p| {
                (!rule.has_path || tests.glob(p))
                    && (rule.path_outside.is_empty() || tests.outside(p))
            })
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
                        && self.check_rule_with(r, false, true, Reach::All).0
                })
                .collect();
            let cands: Vec<(usize, &CmdCand)> = self
                .commands()
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.deny_only)
                .collect();
            !cands.is_empty()
                && cands.iter().all(|(ci, c)| {
                    c.line.is_certain()
                        && !c.line.commands.is_empty()
                        && (0..c.line.commands.len()).all(|i| {
                            allowers.iter().any(|&r| {
                                self.relevant_command(&self.policy.rules[r], c)
                                    && self.covers(r, (*ci, i))
                            })
                        })
                })
        })
    }
}

/// Rule R's path matchers, for one call.
struct PathTests<'a> {
    rule: &'a CRule,
    r: usize,
    /// Its `:path-outside` directories, resolved for the call.
    dirs: Vec<String>,
}

impl<'a> PathTests<'a> {
    fn new(prepared: &Prepared<'_>, rule: &'a CRule, r: usize) -> PathTests<'a> {
        let dirs = if rule.path_outside.is_empty() {
            Vec::new()
        } else {
            prepared.outside_dirs(rule)
        };
        PathTests { rule, r, dirs }
    }

    /// Whether C matches the rule's `:path` globs.
    fn glob(&self, c: &PathCand) -> bool {
        c.glob_match(self.r, self.rule.allow_side)
    }

    /// Whether C lies outside every `:path-outside` directory. An unreadable
    /// path counts as outside for deny-side rules, and never satisfies an
    /// allow rule.
    fn outside(&self, c: &PathCand) -> bool {
        let out_of = |p: &str| !self.dirs.iter().any(|d| path::is_within(p, d));
        match (&c.norm, &c.lexical) {
            (Err(_), _) => !self.rule.allow_side,
            (Ok(p), None) => out_of(p),
            (Ok(p), Some(l)) if self.rule.allow_side => out_of(p) && out_of(l),
            (Ok(p), Some(l)) => out_of(p) || out_of(l),
        }
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
