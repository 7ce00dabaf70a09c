//! Rules -> policy: every matcher kind gathered into one set (a `GlobSet` or
//! `RegexSet` per kind, match indices mapped back to rules), examples checked.
//!
//! A policy is immutable once built; the boundary keeps it in a user-ptr and
//! evaluates every call against it.

use crate::error::{Error, Result};
use crate::path::{self, PathEnv, PathPattern};
use crate::rule::{ArgMatcher, Decision, Rule};
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use regex::{RegexSet, RegexSetBuilder};
use serde_json::Value as Json;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// Size limit of one compiled regexp (bytes of its compiled form).
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// Size limit of a compiled set of regexps.
pub const REGEX_SET_SIZE_LIMIT: usize = 256 << 20;
/// Size limit of a regexp's lazy DFA cache.
pub const REGEX_DFA_LIMIT: usize = 2 << 20;

/// Settings that apply to the whole policy.
#[derive(Debug, Clone)]
pub struct Options {
    /// Argument keys that hold paths.
    pub path_keys: Vec<String>,
    /// Argument keys that hold shell command lines.
    pub command_keys: Vec<String>,
    /// What calls no rule decides get.
    pub default_decision: Option<Decision>,
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

/// The number of [`Driver`] kinds.
pub const DRIVERS: usize = 10;

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

/// True when glob G has no special character: it matches only itself.
fn is_literal_glob(g: &str) -> bool {
    !g.contains(['*', '?', '[', ']', '{', '}', '\\'])
}

/// True when matcher M cannot match unless one of its glob or regexp leaves does.
fn needs_leaf(m: &CArg) -> bool {
    match m {
        CArg::Leaf(_) => true,
        CArg::All(items) => items.iter().any(needs_leaf),
        _ => false,
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
    pub fn locate(&self, mut e: Error) -> Error {
        if let Some(line) = self.line {
            e.message = format!("{} (line {line})", e.message);
        }
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
    pub has_tool: bool,
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
}

impl CRule {
    /// True when the rule has no matcher that looks at paths or commands.
    pub fn needs_paths(&self) -> bool {
        self.has_path || !self.path_outside.is_empty()
    }
}

/// A set of globs or regexps, each owned by a rule (or a leaf).
#[derive(Debug)]
pub struct Index<S> {
    pub set: S,
    pub owner: Vec<usize>,
}

fn whole_value_glob(key: &str, pattern: &str) -> Result<Glob> {
    GlobBuilder::new(pattern)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .map_err(|e| Error::key(key, format!("invalid glob `{pattern}`: {}", e.kind())))
}

fn path_glob(key: &str, pattern: &str, case_fold: bool) -> Result<Glob> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(case_fold)
        .build()
        .map_err(|e| Error::key(key, format!("invalid glob `{pattern}`: {}", e.kind())))
}

/// The branches of GLOB when it is one `{a,b,...}` group as a whole, each
/// split again; else GLOB itself. A set holding the branches matches what
/// GLOB matches, and branches such as `/a/b` and `/a/b/**` run as a hash
/// lookup and a prefix search where the group would be a regexp. Follows
/// globset's parser: `\` escapes one character, a class `[...]` (whose
/// first `]` is literal) holds no braces or commas.
pub fn glob_branches(glob: &str) -> Vec<String> {
    let chars: Vec<char> = glob.chars().collect();
    let whole = || vec![glob.to_string()];
    if chars.len() < 2 || chars[0] != '{' || chars[chars.len() - 1] != '}' {
        return whole();
    }
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                cur.push(c);
                if let Some(&next) = chars.get(i + 1) {
                    cur.push(next);
                }
                i += 2;
                continue;
            }
            '[' => {
                let mut j = i + 1;
                if matches!(chars.get(j), Some('!' | '^')) {
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    j += 1;
                }
                while j < chars.len() && chars[j] != ']' {
                    j += 1;
                }
                if j >= chars.len() {
                    return whole();
                }
                cur.extend(&chars[i..=j]);
                i = j + 1;
                continue;
            }
            '{' => {
                depth += 1;
                if depth > 1 {
                    cur.push(c);
                }
            }
            '}' => {
                if depth == 0 {
                    return whole();
                }
                depth -= 1;
                if depth > 0 {
                    cur.push(c);
                } else if i == chars.len() - 1 {
                    parts.push(std::mem::take(&mut cur));
                } else {
                    return whole();
                }
            }
            ',' if depth == 1 => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
        i += 1;
    }
    // globset ignores empty alternatives (`empty_alternates` is off).
    parts.retain(|p| !p.is_empty());
    if depth != 0 || parts.len() < 2 {
        return whole();
    }
    parts.iter().flat_map(|p| glob_branches(p)).collect()
}

/// Add path glob PATTERN of rule OWNER to BUILDER, as its branches when
/// each of them builds (see [`glob_branches`]), else whole (and a glob that
/// does not build is an error naming it).
fn add_path_glob(
    builder: &mut GlobIndexBuilder,
    key: &str,
    pattern: &str,
    case_fold: bool,
    owner: usize,
) -> Result<()> {
    let branches: Option<Vec<Glob>> = glob_branches(pattern)
        .iter()
        .map(|b| path_glob(key, b, case_fold).ok())
        .collect();
    match branches {
        Some(globs) => {
            for glob in globs {
                builder.add(glob, owner);
            }
        }
        None => builder.add(path_glob(key, pattern, case_fold)?, owner),
    }
    Ok(())
}

/// Check regexp PATTERN as `RegexBuilder` with [`REGEX_SIZE_LIMIT`] would
/// (same syntax, same messages, the same limit on its compiled NFA) without
/// building a matcher: the sets are what run, and building a whole `Regex`
/// for each of 10,000 patterns only to drop it took most of compiling.
fn regex(key: &str, pattern: &str) -> Result<()> {
    use regex_automata::{nfa::thompson, util::syntax};
    let fail = |why: String| Error::key(key, format!("invalid regexp `{pattern}`: {why}"));
    let hir = syntax::parse_with(pattern, &syntax::Config::new())
        .map_err(|e| fail(syntax_message(&e.to_string())))?;
    thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .nfa_size_limit(Some(REGEX_SIZE_LIMIT))
                .shrink(false),
        )
        .build_from_hir(&hir)
        .map_err(|e| {
            fail(match e.size_limit() {
                Some(limit) => format!("compiled form exceeds the size limit of {limit} bytes"),
                None => e.to_string(),
            })
        })?;
    Ok(())
}

/// The last `error: ` line of a regexp syntax error, else all of it.
fn syntax_message(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| l.starts_with("error: "))
        .map(|l| l.trim_start_matches("error: ").to_string())
        .unwrap_or_else(|| text.to_string())
}

fn regex_message(e: &regex::Error) -> String {
    match e {
        regex::Error::Syntax(text) => syntax_message(text),
        regex::Error::CompiledTooBig(limit) => {
            format!("compiled form exceeds the size limit of {limit} bytes")
        }
        other => other.to_string(),
    }
}

/// Gathers globs of one kind and builds their set.
struct GlobIndexBuilder {
    builder: GlobSetBuilder,
    owner: Vec<usize>,
}

impl Default for GlobIndexBuilder {
    fn default() -> Self {
        GlobIndexBuilder {
            builder: GlobSetBuilder::new(),
            owner: Vec::new(),
        }
    }
}

impl GlobIndexBuilder {
    fn add(&mut self, glob: Glob, owner: usize) {
        self.builder.add(glob);
        self.owner.push(owner);
    }

    fn build(self, what: &str) -> Result<Index<GlobSet>> {
        let set = self
            .builder
            .build()
            .map_err(|e| Error::new(format!("cannot build the {what} glob set: {e}")))?;
        Ok(Index {
            set,
            owner: self.owner,
        })
    }
}

/// Gathers regexps of one kind (already checked one by one) and builds their set.
#[derive(Default)]
struct RegexIndexBuilder {
    patterns: Vec<String>,
    owner: Vec<usize>,
}

impl RegexIndexBuilder {
    fn add(&mut self, pattern: &str, owner: usize) {
        self.patterns.push(pattern.to_string());
        self.owner.push(owner);
    }

    fn build(self, what: &str) -> Result<Index<RegexSet>> {
        let set = RegexSetBuilder::new(&self.patterns)
            .size_limit(REGEX_SET_SIZE_LIMIT)
            .dfa_size_limit(REGEX_DFA_LIMIT * 4)
            .build()
            .map_err(|e| {
                Error::new(format!(
                    "cannot build the {what} regexp set: {}",
                    regex_message(&e)
                ))
            })?;
        Ok(Index {
            set,
            owner: self.owner,
        })
    }
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
    /// Per driver kind (`Driver as usize`), which calls its rules may meet.
    pub gates: Vec<Gate>,
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
    pub needs_cwd: bool,
    /// The policy has rules that act after the call.
    pub has_post_effects: bool,
    /// Joined redaction regexps, built on first use.
    pub redact_cache: crate::post::RedactCache,
    /// What was ignored in untrusted layers, one line each.
    pub notes: Vec<String>,
}

struct ArgIndexBuilder {
    globs: GlobIndexBuilder,
    regexps: RegexIndexBuilder,
}

/// The leaf sets being gathered for argument KEY.
fn arg_builder<'a>(
    builders: &'a mut HashMap<String, ArgIndexBuilder>,
    key: &str,
) -> &'a mut ArgIndexBuilder {
    builders
        .entry(key.to_string())
        .or_insert_with(|| ArgIndexBuilder {
            globs: GlobIndexBuilder::default(),
            regexps: RegexIndexBuilder::default(),
        })
}

fn compile_arg(
    key: &str,
    m: &ArgMatcher,
    builders: &mut HashMap<String, ArgIndexBuilder>,
    next_leaf: &mut usize,
) -> Result<CArg> {
    Ok(match m {
        ArgMatcher::Glob(g) => {
            let glob = whole_value_glob("args", g).map_err(|e| Error {
                message: format!("argument `{key}`: {}", e.message),
                ..e
            })?;
            let leaf = *next_leaf;
            *next_leaf += 1;
            arg_builder(builders, key).globs.add(glob, leaf);
            CArg::Leaf(leaf)
        }
        ArgMatcher::Regexp(r) => {
            regex("args", r).map_err(|e| Error {
                message: format!("argument `{key}`: {}", e.message),
                ..e
            })?;
            let leaf = *next_leaf;
            *next_leaf += 1;
            arg_builder(builders, key).regexps.add(r, leaf);
            CArg::Leaf(leaf)
        }
        ArgMatcher::Equal(v) => CArg::Equal(v.clone()),
        ArgMatcher::Present(b) => CArg::Present(*b),
        ArgMatcher::MaxLength(n) => CArg::MaxLength(*n),
        ArgMatcher::Min(n) => CArg::Min(*n),
        ArgMatcher::Max(n) => CArg::Max(*n),
        ArgMatcher::Any(items) => CArg::Any(
            items
                .iter()
                .map(|i| compile_arg(key, i, builders, next_leaf))
                .collect::<Result<_>>()?,
        ),
        ArgMatcher::All(items) => CArg::All(
            items
                .iter()
                .map(|i| compile_arg(key, i, builders, next_leaf))
                .collect::<Result<_>>()?,
        ),
    })
}

/// Split a command prefix into its words, as a shell would read them.
pub fn prefix_words(prefix: &str) -> Result<Vec<String>> {
    let line = crate::shell::parse(prefix);
    let words = match line.commands.as_slice() {
        [one] if line.opaque.is_none() && line.redirects.is_empty() => one.written.clone(),
        _ => prefix.split_whitespace().map(str::to_string).collect(),
    };
    if words.is_empty() {
        return Err(Error::key("command-prefix", "empty prefix"));
    }
    Ok(words)
}

/// Compile RULES under OPTIONS into a policy. Errors name the rule.
pub fn compile(rules: Vec<Rule>, options: Options) -> Result<Policy> {
    let n = rules.len();
    compile_layers(
        vec![Layer {
            source: None,
            trusted: true,
            rules,
            lines: vec![None; n],
        }],
        options,
    )
}

/// The short name of a policy file, for labels.
fn short_source(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

/// Keep of an untrusted rule only what tightens: its deny, ask and stop
/// decisions, redaction, suppression and truncation. Returns None when
/// nothing is left, and what was dropped.
fn restrict(mut rule: Rule) -> (Option<Rule>, Vec<&'static str>) {
    let mut dropped = Vec::new();
    if rule.decision == Some(Decision::Allow) {
        rule.decision = None;
        dropped.push("allow");
    }
    if !rule.set_args.is_empty() || !rule.default_args.is_empty() || !rule.remove_args.is_empty() {
        rule.set_args.clear();
        rule.default_args.clear();
        rule.remove_args.clear();
        dropped.push("argument edits");
    }
    if rule.result.take().is_some() {
        dropped.push(":result");
    }
    if rule.context.take().is_some() {
        dropped.push(":context");
    }
    let tightens = rule.decision.is_some()
        || rule.suppress_output
        || !rule.redact.is_empty()
        || rule.max_output.is_some();
    (tightens.then_some(rule), dropped)
}

/// Compile LAYERS, in order, into one policy. An untrusted layer can only
/// tighten: its allow rules, edits, results and context are ignored.
pub fn compile_layers(layers: Vec<Layer>, options: Options) -> Result<Policy> {
    // Patterns share directories: each is inspected once per compile.
    crate::path::with_memo(|| compile_layers_in_memo(layers, options))
}

fn compile_layers_in_memo(layers: Vec<Layer>, options: Options) -> Result<Policy> {
    let mut notes = Vec::new();
    let mut rules = Vec::new();
    for layer in layers {
        for (index, rule) in layer.rules.into_iter().enumerate() {
            let origin = Origin {
                source: layer.source.clone(),
                index,
                line: layer.lines.get(index).copied().flatten(),
                trusted: layer.trusted,
            };
            if layer.trusted {
                rules.push((rule, origin));
                continue;
            }
            let name = format!(
                "{}: {}",
                layer.source.as_deref().unwrap_or("untrusted rules"),
                rule.label(index)
            );
            let (kept, dropped) = restrict(rule);
            if !dropped.is_empty() {
                notes.push(format!(
                    "{name}: ignored {} (the project is not trusted)",
                    dropped.join(", ")
                ));
            }
            if let Some(rule) = kept {
                rules.push((rule, origin));
            }
        }
    }
    let mut policy = compile_rules(rules, options)?;
    policy.notes = notes;
    Ok(policy)
}

fn compile_rules(rules: Vec<(Rule, Origin)>, options: Options) -> Result<Policy> {
    let path_env = PathEnv {
        home: options.home.clone(),
        cwd: None,
        case_fold: options.case_fold,
    };
    let mut tool_globs = GlobIndexBuilder::default();
    let mut tool_regexps = RegexIndexBuilder::default();
    let mut buffer = GlobIndexBuilder::default();
    let mut backend = GlobIndexBuilder::default();
    let mut model = GlobIndexBuilder::default();
    let mut cwd = GlobIndexBuilder::default();
    let mut path_abs = GlobIndexBuilder::default();
    let mut path_rel = GlobIndexBuilder::default();
    let mut cmd_regexps = RegexIndexBuilder::default();
    let mut cmd_prefix: HashMap<String, Vec<(usize, Vec<String>)>> = HashMap::new();
    let mut arg_builders: HashMap<String, ArgIndexBuilder> = HashMap::new();
    let mut leaf_owner = Vec::new();
    let mut next_leaf = 0usize;
    let mut always = Vec::new();
    let mut gates = vec![Gate::default(); DRIVERS];
    let default_path_keys: HashSet<String> = options.path_keys.iter().cloned().collect();
    let default_command_keys: HashSet<String> = options.command_keys.iter().cloned().collect();
    let mut needed_args: HashSet<String> = HashSet::new();
    let mut uses_default_path_keys = false;
    let mut uses_default_command_keys = false;
    let mut compiled = Vec::with_capacity(rules.len());

    for (i, (rule, origin)) in rules.into_iter().enumerate() {
        let at = |e: Error| origin.locate(e.in_rule(origin.index, rule.id.as_deref()));
        // A literal name cannot be a bad glob: it is built only if it
        // enters the tool index (most are compared as strings).
        let mut own_tool_globs = Vec::with_capacity(rule.tool.len());
        for g in &rule.tool {
            if !is_literal_glob(g) {
                own_tool_globs.push(whole_value_glob("tool", g).map_err(at)?);
            }
        }
        for r in &rule.tool_regexp {
            regex("tool-regexp", r).map_err(at)?;
        }
        for (list, builder, key) in [
            (&rule.buffer, &mut buffer, "buffer"),
            (&rule.backend, &mut backend, "backend"),
            (&rule.model, &mut model, "model"),
        ] {
            for g in list {
                builder.add(whole_value_glob(key, g).map_err(at)?, i);
            }
        }
        for g in &rule.cwd {
            let pattern = match path::parse_pattern_with(g, &path_env)
                .map_err(|e| at(Error::key("cwd", e.0)))?
            {
                PathPattern::Absolute(p) => p,
                PathPattern::CwdRelative(p) => format!("**/{p}"),
            };
            add_path_glob(&mut cwd, "cwd", &pattern, options.case_fold, i).map_err(at)?;
        }
        for g in &rule.path {
            match path::parse_pattern_with(g, &path_env).map_err(|e| at(Error::key("path", e.0)))? {
                PathPattern::Absolute(p) => {
                    add_path_glob(&mut path_abs, "path", &p, options.case_fold, i).map_err(at)?
                }
                PathPattern::CwdRelative(p) => {
                    add_path_glob(&mut path_rel, "path", &p, options.case_fold, i).map_err(at)?
                }
            }
        }
        let mut path_outside = Vec::new();
        for d in &rule.path_outside {
            if d.starts_with('/') || d.starts_with('~') {
                path_outside.push(OutsideDir::Absolute(
                    path::normalize_dir(d, &path_env)
                        .map_err(|e| at(Error::key("path-outside", e.0)))?,
                ));
            } else {
                // Relative to the request's directory: resolved per call.
                path::lexical(
                    d,
                    &PathEnv {
                        cwd: Some(PathBuf::from("/")),
                        ..path_env.clone()
                    },
                )
                .map_err(|e| at(Error::key("path-outside", e.0)))?;
                path_outside.push(OutsideDir::CwdRelative(d.clone()));
            }
        }
        for p in &rule.command_prefix {
            let mut words = prefix_words(p).map_err(at)?;
            if options.case_fold {
                words = words.iter().map(|w| w.to_lowercase()).collect();
            }
            cmd_prefix
                .entry(words[0].clone())
                .or_default()
                .push((i, words));
        }
        for r in &rule.command_regexp {
            regex("command-regexp", r).map_err(at)?;
            cmd_regexps.add(r, i);
        }
        let mut args = Vec::new();
        let first_leaf = next_leaf;
        for (key, m) in &rule.args {
            needed_args.insert(key.clone());
            args.push((
                key.clone(),
                compile_arg(key, m, &mut arg_builders, &mut next_leaf).map_err(at)?,
            ));
        }
        leaf_owner.extend(std::iter::repeat_n(i, next_leaf - first_leaf));
        for r in &rule.redact {
            regex("redact", r).map_err(at)?;
        }
        for (which, edits) in [
            ("set-args", &rule.set_args),
            ("default-args", &rule.default_args),
        ] {
            for (key, value) in edits {
                if value.as_object().is_some_and(|m| m.is_empty()) {
                    return Err(at(Error::key(
                        which,
                        format!("argument `{key}`: empty value"),
                    )));
                }
            }
        }
        let has_paths = !rule.path.is_empty() || !path_outside.is_empty();
        let has_cmds = !rule.command_prefix.is_empty() || !rule.command_regexp.is_empty();
        let path_keys = match &rule.path_keys {
            Some(keys) => {
                needed_args.extend(keys.iter().cloned());
                Keys::Own(keys.iter().cloned().collect())
            }
            None => {
                uses_default_path_keys |= has_paths;
                Keys::Default
            }
        };
        let command_keys = match &rule.command_keys {
            Some(keys) => {
                needed_args.extend(keys.iter().cloned());
                Keys::Own(keys.iter().cloned().collect())
            }
            None => {
                // Deny-side path rules also read command words as paths.
                uses_default_command_keys |= has_cmds || has_paths;
                Keys::Default
            }
        };
        let label = match &origin.source {
            Some(source) => format!("{} in {}", rule.label(origin.index), short_source(source)),
            None => rule.label(origin.index),
        };
        let has_tool = !(rule.tool.is_empty() && rule.tool_regexp.is_empty());
        let tool_literals = (!rule.tool.is_empty() && rule.tool.iter().all(|g| is_literal_glob(g)))
            .then(|| rule.tool.clone());
        // The most selective index the rule needs; an index other than the
        // tool's drives it only when its `:tool` names are literal (they gate
        // that index) or it has no tool matcher.
        let driver = if has_tool && tool_literals.is_none() {
            Driver::Tool
        } else if args.iter().any(|(_, m)| needs_leaf(m)) {
            Driver::ArgLeaf
        } else if !rule.path.is_empty() {
            Driver::Path
        } else if !rule.command_prefix.is_empty() {
            Driver::CmdPrefix
        } else if !rule.command_regexp.is_empty() {
            Driver::CmdRegexp
        } else if !rule.cwd.is_empty() {
            Driver::Cwd
        } else if !rule.buffer.is_empty() {
            Driver::Buffer
        } else if !rule.backend.is_empty() {
            Driver::Backend
        } else if !rule.model.is_empty() {
            Driver::Model
        } else if has_tool {
            Driver::Tool
        } else {
            Driver::Always
        };
        match (&tool_literals, driver) {
            (_, Driver::Always) => always.push(i),
            (_, Driver::Tool) => {}
            (Some(tools), d) => gates[d as usize].tools.extend(tools.iter().cloned()),
            (None, d) => gates[d as usize].any = true,
        }
        if driver == Driver::Tool || tool_literals.is_none() {
            for g in rule.tool.iter().filter(|g| is_literal_glob(g)) {
                own_tool_globs.push(whole_value_glob("tool", g).map_err(at)?);
            }
            for glob in own_tool_globs {
                tool_globs.add(glob, i);
            }
        }
        for r in &rule.tool_regexp {
            tool_regexps.add(r, i);
        }
        compiled.push(CRule {
            origin,
            tool_literals,
            driver,
            has_tool,
            has_tool_glob: !rule.tool.is_empty(),
            has_tool_regexp: !rule.tool_regexp.is_empty(),
            has_path: !rule.path.is_empty(),
            has_cmd_prefix: !rule.command_prefix.is_empty(),
            has_cmd_regexp: !rule.command_regexp.is_empty(),
            has_buffer: !rule.buffer.is_empty(),
            has_backend: !rule.backend.is_empty(),
            has_model: !rule.model.is_empty(),
            has_cwd: !rule.cwd.is_empty(),
            args,
            path_outside,
            path_keys,
            command_keys,
            allow_side: rule.decision == Some(Decision::Allow),
            label,
            rule,
        });
    }
    if uses_default_path_keys {
        needed_args.extend(default_path_keys.iter().cloned());
        for (dir, name) in path::DEFAULT_PATH_JOINS {
            needed_args.insert(dir.to_string());
            needed_args.insert(name.to_string());
        }
    }
    if uses_default_command_keys {
        needed_args.extend(default_command_keys.iter().cloned());
    }
    let mut arg_index = HashMap::new();
    for (pos, (key, b)) in arg_builders.into_iter().enumerate() {
        let idx = ArgIndex {
            pos,
            globs: b.globs.build("argument")?,
            regexps: b.regexps.build("argument")?,
        };
        arg_index.insert(key, idx);
    }
    let has_post_effects = compiled.iter().any(|r| {
        r.rule.context.is_some()
            || r.rule.suppress_output
            || !r.rule.redact.is_empty()
            || r.rule.max_output.is_some()
    });
    let mut any_path_keys = default_path_keys.clone();
    let mut any_command_keys = default_command_keys.clone();
    for r in &compiled {
        if let Keys::Own(keys) = &r.path_keys {
            any_path_keys.extend(keys.iter().cloned());
        }
        if let Keys::Own(keys) = &r.command_keys {
            any_command_keys.extend(keys.iter().cloned());
        }
    }
    let policy = Policy {
        any_path_keys,
        any_command_keys,
        needs_buffer: compiled.iter().any(|r| r.has_buffer),
        needs_backend: compiled.iter().any(|r| r.has_backend),
        needs_model: compiled.iter().any(|r| r.has_model),
        needs_cwd: true,
        has_post_effects,
        rules: compiled,
        options,
        default_path_keys,
        default_command_keys,
        needed_args,
        tool_globs: tool_globs.build("tool")?,
        tool_regexps: tool_regexps.build("tool")?,
        always,
        gates,
        leaf_owner,
        buffer: buffer.build("buffer")?,
        backend: backend.build("backend")?,
        model: model.build("model")?,
        cwd: cwd.build("cwd")?,
        path_abs: path_abs.build("path")?,
        path_rel: path_rel.build("path")?,
        cmd_prefix,
        cmd_regexps: cmd_regexps.build("command")?,
        arg_index,
        arg_leaves: next_leaf,
        redact_cache: Default::default(),
        notes: Vec::new(),
    };
    crate::eval::check_examples(&policy)?;
    Ok(policy)
}
