//! The compiled policy: what compiling builds and evaluation reads.
//!
//! A policy is immutable once built; the boundary keeps it in a user-ptr and
//! evaluates every call against it.

use crate::error::Error;
use crate::index::Index;
use crate::path;
use crate::redact::RedactCache;
use crate::rule::{Decision, Rule};
use globset::GlobSet;
use regex::RegexSet;
use serde_json::Value as Json;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// Settings that apply to the whole policy.
#[derive(Debug, Clone)]
pub struct Options {
    /// Argument keys that hold paths.
    pub path_keys: Vec<String>,
    /// Argument keys that hold shell command lines.
    pub command_keys: Vec<String>,
    /// What calls no rule decides get.
    pub default_decision: Option<Decision>,
    /// What a `deny` rule decides when every match it has is unsure (DESIGN.md,
    /// "Certain and unsure matches"): `Ask` (the default) or `Deny`.
    pub unsure_decision: Decision,
    /// Fold case of paths before matching.
    pub case_fold: bool,
    /// The home directory, for `~` in rules and calls.
    pub home: Option<PathBuf>,
    /// Redact well-known secrets from every result.
    pub redact_secrets: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            path_keys: path::DEFAULT_PATH_KEYS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            command_keys: path::DEFAULT_COMMAND_KEYS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            default_decision: None,
            unsure_decision: Decision::Ask,
            case_fold: path::default_case_fold(),
            home: std::env::var_os("HOME").map(PathBuf::from),
            redact_secrets: false,
        }
    }
}

/// Which argument keys a rule reads for paths or commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keys {
    /// The policy's keys.
    Default,
    /// The rule's own keys.
    Own(HashSet<String>),
}

impl Keys {
    /// Whether KEY is one of these, given whether it is a default key.
    pub fn contains(&self, key: &str, is_default: bool) -> bool {
        match self {
            Keys::Default => is_default,
            Keys::Own(set) => set.contains(key),
        }
    }
}

/// The matcher whose index proposes a rule as a candidate for a call. It is
/// one the rule needs, so a rule it does not propose cannot match: a call is
/// checked only against the rules its indexes hit, however many rules share
/// its tool name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    /// No indexed matcher: a candidate for every call.
    Always,
    Tool,
    ArgLeaf,
    Path,
    CmdPrefix,
    CmdRegexp,
    Cwd,
    Buffer,
    Backend,
    Model,
}

/// Which calls may meet rules of one driver kind: those whose tool is one of
/// the literal tool names of these rules, or every call when one has no
/// tool matcher. A driver's index runs only for calls its gate admits.
#[derive(Debug, Clone, Default)]
pub struct Gate {
    pub any: bool,
    pub tools: HashSet<String>,
}

impl Gate {
    /// Whether a call to tool NAME may meet one of the rules.
    pub fn admits(&self, name: &str) -> bool {
        self.any || self.tools.contains(name)
    }
}

/// The gate of each driver kind that has one (rules driven by the tool
/// index, or by no index, need none).
#[derive(Debug, Clone, Default)]
pub struct Gates {
    pub arg_leaf: Gate,
    pub path: Gate,
    pub cmd_prefix: Gate,
    pub cmd_regexp: Gate,
    pub cwd: Gate,
    pub buffer: Gate,
    pub backend: Gate,
    pub model: Gate,
}

impl Gates {
    /// The gate of DRIVER, or None for `Always` and `Tool`.
    pub fn get_mut(&mut self, driver: Driver) -> Option<&mut Gate> {
        Some(match driver {
            Driver::Always | Driver::Tool => return None,
            Driver::ArgLeaf => &mut self.arg_leaf,
            Driver::Path => &mut self.path,
            Driver::CmdPrefix => &mut self.cmd_prefix,
            Driver::CmdRegexp => &mut self.cmd_regexp,
            Driver::Cwd => &mut self.cwd,
            Driver::Buffer => &mut self.buffer,
            Driver::Backend => &mut self.backend,
            Driver::Model => &mut self.model,
        })
    }

    /// Whether a call to tool NAME may meet rules driven by DRIVER.
    pub fn admits(&self, driver: Driver, name: &str) -> bool {
        let gate = match driver {
            Driver::Always | Driver::Tool => return true,
            Driver::ArgLeaf => &self.arg_leaf,
            Driver::Path => &self.path,
            Driver::CmdPrefix => &self.cmd_prefix,
            Driver::CmdRegexp => &self.cmd_regexp,
            Driver::Cwd => &self.cwd,
            Driver::Buffer => &self.buffer,
            Driver::Backend => &self.backend,
            Driver::Model => &self.model,
        };
        gate.admits(name)
    }
}

/// A compiled argument matcher: glob and regexp leaves run as sets.
#[derive(Debug, Clone)]
pub enum CArg {
    /// Leaf N of the glob or regexp sets for this key.
    Leaf(usize),
    Equal(Json),
    Present(bool),
    MaxLength(u64),
    Min(f64),
    Max(f64),
    Any(Vec<CArg>),
    All(Vec<CArg>),
}

/// Where a rule came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The policy file, or None for the user's Lisp rules.
    pub source: Option<String>,
    /// 0-based position in its layer.
    pub index: usize,
    /// 1-based line of the rule in its file, when known.
    pub line: Option<usize>,
    /// False for a project policy the user has not trusted.
    pub trusted: bool,
}

impl Origin {
    /// Add this origin's file, and the rule's line in it, to error E.
    pub fn locate(&self, e: Error) -> Error {
        let e = match self.line {
            Some(line) => e.at_line(line),
            None => e,
        };
        match &self.source {
            Some(source) => e.in_source(source),
            None => e,
        }
    }
}

/// One layer of rules: the user's, a policy file's, a project's.
#[derive(Debug, Clone, Default)]
pub struct Layer {
    pub source: Option<String>,
    pub trusted: bool,
    pub rules: Vec<Rule>,
    /// The line of each rule in the file, when known.
    pub lines: Vec<Option<usize>>,
}

/// A `:path-outside` directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutsideDir {
    /// Absolute, normalized when the policy was compiled.
    Absolute(String),
    /// Relative to the request's directory (`.` is the directory itself).
    CwdRelative(String),
}

/// One rule, compiled.
#[derive(Debug)]
pub struct CRule {
    /// The rule as written (less what an untrusted layer may not do).
    pub rule: Rule,
    /// Where it came from.
    pub origin: Origin,
    /// How reasons and logs name it.
    pub label: String,
    pub has_tool_glob: bool,
    pub has_tool_regexp: bool,
    pub has_path: bool,
    pub has_cmd_prefix: bool,
    pub has_cmd_regexp: bool,
    pub has_buffer: bool,
    pub has_backend: bool,
    pub has_model: bool,
    pub has_cwd: bool,
    pub args: Vec<(String, CArg)>,
    /// `:path-outside` directories.
    pub path_outside: Vec<OutsideDir>,
    pub path_keys: Keys,
    pub command_keys: Keys,
    /// Deny-side rules match when ANY candidate matches; allow rules when ALL do.
    pub allow_side: bool,
    /// The tool names, when every tool matcher is a literal glob (checked by
    /// comparing strings; such rules are in the tool index only when it
    /// drives them).
    pub tool_literals: Option<Vec<String>>,
    /// The matcher whose index proposes this rule.
    pub driver: Driver,
    /// The programs its command matchers name (built by `compile::named_programs`):
    /// the only programs outside the program table it may allow.
    pub names: Vec<String>,
}

/// The glob and regexp leaves of the `:args` matchers of one argument key.
#[derive(Debug)]
pub struct ArgIndex {
    /// Position of this key among the policy's argument keys.
    pub pos: usize,
    pub globs: Index<GlobSet>,
    pub regexps: Index<RegexSet>,
}

/// A compiled policy.
#[derive(Debug)]
pub struct Policy {
    pub rules: Vec<CRule>,
    pub options: Options,
    pub default_path_keys: HashSet<String>,
    pub default_command_keys: HashSet<String>,
    /// The default path keys and every rule's own: the keys whose values
    /// are read as paths for some rule.
    pub any_path_keys: HashSet<String>,
    /// The same for command keys.
    pub any_command_keys: HashSet<String>,
    /// Every key that some rule looks at (paths, commands, `:args`).
    pub needed_args: HashSet<String>,
    /// Tool matchers of the rules the tool index drives, and of the rules
    /// whose tool matchers are not all literal.
    pub tool_globs: Index<GlobSet>,
    pub tool_regexps: Index<RegexSet>,
    /// Rules no index drives: candidates for every call.
    pub always: Vec<usize>,
    /// Per driver kind, which calls its rules may meet.
    pub gates: Gates,
    /// The rule of each argument leaf.
    pub leaf_owner: Vec<usize>,
    pub buffer: Index<GlobSet>,
    pub backend: Index<GlobSet>,
    pub model: Index<GlobSet>,
    pub cwd: Index<GlobSet>,
    /// `:path` globs matched against the absolute path.
    pub path_abs: Index<GlobSet>,
    /// `:path` globs matched against the path relative to the cwd.
    pub path_rel: Index<GlobSet>,
    /// Where each `:path` glob starts: what a walk of a directory may reach.
    pub path_anchors: crate::path::Anchors,
    /// `:command-prefix` words, indexed by their first word.
    pub cmd_prefix: HashMap<String, Vec<(usize, Vec<String>)>>,
    pub cmd_regexps: Index<RegexSet>,
    /// Argument leaf sets, by argument key.
    pub arg_index: HashMap<String, ArgIndex>,
    /// Total number of argument leaves.
    pub arg_leaves: usize,
    /// What the policy needs to read from a call.
    pub needs_buffer: bool,
    pub needs_backend: bool,
    pub needs_model: bool,
    /// The policy has rules that act after the call.
    pub has_post_effects: bool,
    /// The rules with `:sandbox`, in rule order.
    pub sandboxing: Vec<usize>,
    /// The paths each deny or stop rule's `:path` patterns name literally,
    /// as written ([`crate::rule::literal_paths`]), by rule: what a
    /// sandboxed call to a tool those rules apply to hides by default.
    pub hide_literals: Vec<(usize, Vec<String>)>,
    /// Joined redaction regexps, built on first use.
    pub redact_cache: RedactCache,
    /// What was ignored in untrusted layers, one line each.
    pub notes: Vec<String>,
}
