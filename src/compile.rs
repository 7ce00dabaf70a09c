//! Rules -> policy: every matcher kind gathered into one set (a `GlobSet` or
//! `RegexSet` per kind, match indices mapped back to rules), then each rule's
//! `:examples` checked through the matcher.

use crate::error::{Error, Result};
use crate::index::{syntax_message, GlobIndexBuilder, RegexIndexBuilder, REGEX_SIZE_LIMIT};
use crate::path::{self, PathEnv, PathPattern};
use crate::policy::{
    ArgIndex, CArg, CRule, Driver, Gates, Keys, Layer, Options, Origin, OutsideDir, Policy,
};
use crate::rule::{ArgMatcher, Decision, Rule};
use globset::{Glob, GlobBuilder};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

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
            let glob = whole_value_glob("args", g).map_err(|e| e.for_argument(key))?;
            let leaf = *next_leaf;
            *next_leaf += 1;
            arg_builder(builders, key).globs.add(glob, leaf);
            CArg::Leaf(leaf)
        }
        ArgMatcher::Regexp(r) => {
            regex("args", r).map_err(|e| e.for_argument(key))?;
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

/// The programs RULE's command matchers name, which it may allow though the program
/// table does not know them: each word of a `:command-prefix` (as a basename), and the
/// literal words a `:command-regexp` starts with after `^`, each ended by a blank, `\s`,
/// `\b`, `$` or the end (`^make\b`, `^terraform plan`, `^(?:...)` names none; `^rm.*`
/// names none, since `rm.*` may be `rmdir`).
pub fn named_programs(rule: &Rule) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in &rule.command_prefix {
        for w in prefix_words(p).unwrap_or_default() {
            out.push(w.rsplit('/').next().unwrap_or(&w).to_owned());
        }
    }
    for re in &rule.command_regexp {
        out.extend(regexp_names(re));
    }
    out
}

/// The literal words regexp RE starts with after `^` (see [`named_programs`]).
fn regexp_names(re: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some(rest) = re.strip_prefix('^') else {
        return out;
    };
    let mut word = String::new();
    let mut chars = rest.chars();
    let mut end = |word: &mut String| {
        if !word.is_empty() {
            out.push(std::mem::take(word));
        }
    };
    loop {
        match chars.next() {
            None | Some('$') => {
                end(&mut word);
                break;
            }
            Some(' ') => end(&mut word),
            Some('\\') => match chars.next() {
                Some('s' | 'b') => end(&mut word),
                Some(c @ ('.' | '-' | '+' | '/' | ' ')) => word.push(c),
                _ => break,
            },
            Some(c) if c.is_ascii_alphanumeric() || "-_/:@%,=".contains(c) => word.push(c),
            Some(_) => break,
        }
    }
    out.iter()
        .map(|w| w.rsplit('/').next().unwrap_or(w).to_owned())
        .collect()
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
    // A sandbox only confines: an untrusted project may ask for one.
    let tightens = rule.decision.is_some()
        || rule.sandbox.is_some()
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
    let mut builder = Builder::new(options);
    let mut compiled = Vec::with_capacity(rules.len());
    for (i, (rule, origin)) in rules.into_iter().enumerate() {
        compiled.push(builder.add(i, rule, origin)?);
    }
    let policy = builder.finish(compiled)?;
    crate::examples::check_examples(&policy)?;
    Ok(policy)
}

/// The index each driver kind's rules are in, gathered while compiling.
struct Builder {
    options: Options,
    /// Home and case folding, for the rules' patterns (no cwd: relative
    /// patterns are matched relative to each call's).
    path_env: PathEnv,
    default_path_keys: HashSet<String>,
    default_command_keys: HashSet<String>,
    tool_globs: GlobIndexBuilder,
    tool_regexps: RegexIndexBuilder,
    buffer: GlobIndexBuilder,
    backend: GlobIndexBuilder,
    model: GlobIndexBuilder,
    cwd: GlobIndexBuilder,
    path_abs: GlobIndexBuilder,
    path_rel: GlobIndexBuilder,
    path_anchors: Vec<path::Anchor>,
    cmd_regexps: RegexIndexBuilder,
    cmd_prefix: HashMap<String, Vec<(usize, Vec<String>)>>,
    args: HashMap<String, ArgIndexBuilder>,
    leaf_owner: Vec<usize>,
    next_leaf: usize,
    always: Vec<usize>,
    gates: Gates,
    needed_args: HashSet<String>,
    uses_default_path_keys: bool,
    uses_default_command_keys: bool,
}

impl Builder {
    fn new(options: Options) -> Builder {
        Builder {
            path_env: PathEnv {
                home: options.home.clone(),
                cwd: None,
                case_fold: options.case_fold,
            },
            default_path_keys: options.path_keys.iter().cloned().collect(),
            default_command_keys: options.command_keys.iter().cloned().collect(),
            options,
            tool_globs: GlobIndexBuilder::default(),
            tool_regexps: RegexIndexBuilder::default(),
            buffer: GlobIndexBuilder::default(),
            backend: GlobIndexBuilder::default(),
            model: GlobIndexBuilder::default(),
            cwd: GlobIndexBuilder::default(),
            path_abs: GlobIndexBuilder::default(),
            path_rel: GlobIndexBuilder::default(),
            path_anchors: Vec::new(),
            cmd_regexps: RegexIndexBuilder::default(),
            cmd_prefix: HashMap::new(),
            args: HashMap::new(),
            leaf_owner: Vec::new(),
            next_leaf: 0,
            always: Vec::new(),
            gates: Gates::default(),
            needed_args: HashSet::new(),
            uses_default_path_keys: false,
            uses_default_command_keys: false,
        }
    }

    /// Compile RULE, the Ith of the policy, from ORIGIN. Errors name the
    /// rule and where it came from.
    fn add(&mut self, i: usize, rule: Rule, origin: Origin) -> Result<CRule> {
        let located = |e: Error| origin.locate(e.in_rule(origin.index, rule.id.as_deref()));
        let parts = self.add_matchers(i, &rule).map_err(located)?;
        Ok(self.finish_rule(i, rule, origin, parts))
    }

    /// Every matcher of RULE (the Ith) into its index, and its effects checked.
    fn add_matchers(&mut self, i: usize, rule: &Rule) -> Result<RuleParts> {
        // A literal name cannot be a bad glob: it is built only if it
        // enters the tool index (most are compared as strings).
        let mut tool_globs = Vec::with_capacity(rule.tool.len());
        for g in rule.tool.iter().filter(|g| !is_literal_glob(g)) {
            tool_globs.push(whole_value_glob("tool", g)?);
        }
        for r in &rule.tool_regexp {
            regex("tool-regexp", r)?;
        }
        for (list, builder, key) in [
            (&rule.buffer, &mut self.buffer, "buffer"),
            (&rule.backend, &mut self.backend, "backend"),
            (&rule.model, &mut self.model, "model"),
        ] {
            for g in list {
                builder.add(whole_value_glob(key, g)?, i);
            }
        }
        self.add_paths(i, rule)?;
        let path_outside = self.path_outside(rule)?;
        self.add_commands(i, rule)?;
        let args = self.add_args(i, rule)?;
        check_effects(rule)?;
        let tool_literals = (!rule.tool.is_empty() && rule.tool.iter().all(|g| is_literal_glob(g)))
            .then(|| rule.tool.clone());
        let driver = driver(rule, &args, tool_literals.is_some());
        // Literal names are compared as strings, unless the tool index
        // drives the rule or it has other tool globs.
        if driver == Driver::Tool || tool_literals.is_none() {
            for g in rule.tool.iter().filter(|g| is_literal_glob(g)) {
                tool_globs.push(whole_value_glob("tool", g)?);
            }
        }
        Ok(RuleParts {
            tool_globs,
            tool_literals,
            driver,
            path_outside,
            args,
        })
    }

    fn add_paths(&mut self, i: usize, rule: &Rule) -> Result<()> {
        let case_fold = self.options.case_fold;
        for g in &rule.cwd {
            let pattern = match path::parse_pattern_with(g, &self.path_env)
                .map_err(|e| Error::key("cwd", e.0))?
            {
                PathPattern::Absolute(p) => p,
                PathPattern::CwdRelative(p) => format!("**/{p}"),
            };
            add_path_glob(&mut self.cwd, "cwd", &pattern, case_fold, i)?;
        }
        for g in &rule.path {
            let pattern =
                path::parse_pattern_with(g, &self.path_env).map_err(|e| Error::key("path", e.0))?;
            let relative = matches!(pattern, PathPattern::CwdRelative(_));
            let mut branches = vec![pattern.as_str().to_string()];
            // `{{q,q/**},{r,r/**}}`: every branch, however deep the alternation.
            for _ in 0..4 {
                branches = branches.iter().flat_map(|b| glob_branches(b)).collect();
            }
            for b in &branches {
                self.path_anchors
                    .push(path::Anchor::of(i, b, relative, self.options.case_fold));
            }
            match pattern {
                PathPattern::Absolute(p) => {
                    add_path_glob(&mut self.path_abs, "path", &p, case_fold, i)?
                }
                PathPattern::CwdRelative(p) => {
                    add_path_glob(&mut self.path_rel, "path", &p, case_fold, i)?
                }
            }
        }
        Ok(())
    }

    /// The `:path-outside` directories of RULE: absolute ones normalized now,
    /// relative ones checked now and resolved against each call's directory.
    fn path_outside(&self, rule: &Rule) -> Result<Vec<OutsideDir>> {
        let mut dirs = Vec::new();
        for d in &rule.path_outside {
            let fail = |e: path::PathError| Error::key("path-outside", e.0);
            if d.starts_with('/') || d.starts_with('~') {
                dirs.push(OutsideDir::Absolute(
                    path::normalize_dir(d, &self.path_env).map_err(fail)?,
                ));
            } else {
                let root = PathEnv {
                    cwd: Some(PathBuf::from("/")),
                    ..self.path_env.clone()
                };
                path::lexical(d, &root).map_err(fail)?;
                dirs.push(OutsideDir::CwdRelative(d.clone()));
            }
        }
        Ok(dirs)
    }

    fn add_commands(&mut self, i: usize, rule: &Rule) -> Result<()> {
        for p in &rule.command_prefix {
            let mut words = prefix_words(p)?;
            if self.options.case_fold {
                words = words.iter().map(|w| w.to_lowercase()).collect();
            }
            self.cmd_prefix
                .entry(words[0].clone())
                .or_default()
                .push((i, words));
        }
        for r in &rule.command_regexp {
            regex("command-regexp", r)?;
            self.cmd_regexps.add(r, i);
        }
        Ok(())
    }

    fn add_args(&mut self, i: usize, rule: &Rule) -> Result<Vec<(String, CArg)>> {
        let mut args = Vec::new();
        let first_leaf = self.next_leaf;
        for (key, m) in &rule.args {
            self.needed_args.insert(key.clone());
            args.push((
                key.clone(),
                compile_arg(key, m, &mut self.args, &mut self.next_leaf)?,
            ));
        }
        self.leaf_owner
            .extend(std::iter::repeat_n(i, self.next_leaf - first_leaf));
        Ok(args)
    }

    /// Which argument keys RULE reads for paths and for commands.
    fn keys(&mut self, rule: &Rule, has_paths: bool, has_cmds: bool) -> (Keys, Keys) {
        let mut own = |keys: &Option<Vec<String>>| {
            keys.as_ref().map(|keys| {
                self.needed_args.extend(keys.iter().cloned());
                Keys::Own(keys.iter().cloned().collect())
            })
        };
        let path_keys = own(&rule.path_keys);
        let command_keys = own(&rule.command_keys);
        if path_keys.is_none() {
            self.uses_default_path_keys |= has_paths;
        }
        if command_keys.is_none() {
            // Deny-side path rules also read command words as paths, and a
            // sandbox confines the command arguments.
            self.uses_default_command_keys |= has_cmds || has_paths || rule.sandbox.is_some();
        }
        (
            path_keys.unwrap_or(Keys::Default),
            command_keys.unwrap_or(Keys::Default),
        )
    }

    /// RULE (the Ith) compiled, its driver chosen and entered in its index.
    fn finish_rule(&mut self, i: usize, rule: Rule, origin: Origin, parts: RuleParts) -> CRule {
        let has_paths = !rule.path.is_empty() || !parts.path_outside.is_empty();
        let has_cmds = !rule.command_prefix.is_empty() || !rule.command_regexp.is_empty();
        let (path_keys, command_keys) = self.keys(&rule, has_paths, has_cmds);
        let label = match &origin.source {
            Some(source) => format!("{} in {}", rule.label(origin.index), short_source(source)),
            None => rule.label(origin.index),
        };
        let (tool_literals, driver) = (parts.tool_literals, parts.driver);
        match (&tool_literals, self.gates.get_mut(driver)) {
            (_, None) if driver == Driver::Always => self.always.push(i),
            (_, None) => {}
            (Some(tools), Some(gate)) => gate.tools.extend(tools.iter().cloned()),
            (None, Some(gate)) => gate.any = true,
        }
        for glob in parts.tool_globs {
            self.tool_globs.add(glob, i);
        }
        for r in &rule.tool_regexp {
            self.tool_regexps.add(r, i);
        }
        CRule {
            origin,
            tool_literals,
            driver,
            has_tool_glob: !rule.tool.is_empty(),
            has_tool_regexp: !rule.tool_regexp.is_empty(),
            has_path: !rule.path.is_empty(),
            has_cmd_prefix: !rule.command_prefix.is_empty(),
            has_cmd_regexp: !rule.command_regexp.is_empty(),
            has_buffer: !rule.buffer.is_empty(),
            has_backend: !rule.backend.is_empty(),
            has_model: !rule.model.is_empty(),
            has_cwd: !rule.cwd.is_empty(),
            args: parts.args,
            path_outside: parts.path_outside,
            path_keys,
            command_keys,
            allow_side: rule.decision == Some(Decision::Allow),
            names: named_programs(&rule),
            label,
            rule,
        }
    }

    /// The policy of the COMPILED rules, every index built.
    fn finish(mut self, compiled: Vec<CRule>) -> Result<Policy> {
        if self.uses_default_path_keys {
            self.needed_args
                .extend(self.default_path_keys.iter().cloned());
            for (dir, name) in path::DEFAULT_PATH_JOINS {
                self.needed_args.insert(dir.to_string());
                self.needed_args.insert(name.to_string());
            }
        }
        // What path rules also read: glob patterns, diffs, the directory a
        // command runs in.
        if self.uses_default_path_keys || self.uses_default_command_keys {
            let extra = path::DEFAULT_GLOB_KEYS
                .iter()
                .chain(path::DEFAULT_WORKDIR_KEYS)
                .chain(path::DIFF_FLAG_KEYS)
                .chain(path::DIFF_TEXT_KEYS);
            self.needed_args.extend(extra.map(|k| k.to_string()));
        }
        if self.uses_default_command_keys {
            self.needed_args
                .extend(self.default_command_keys.iter().cloned());
            self.needed_args
                .extend(path::DEFAULT_ENV_KEYS.iter().map(|k| k.to_string()));
        }
        let mut arg_index = HashMap::new();
        for (pos, (key, b)) in self.args.into_iter().enumerate() {
            let idx = ArgIndex {
                pos,
                globs: b.globs.build("argument")?,
                regexps: b.regexps.build("argument")?,
            };
            arg_index.insert(key, idx);
        }
        let sandboxing = compiled
            .iter()
            .enumerate()
            .filter(|(_, r)| r.rule.sandbox.is_some())
            .map(|(i, _)| i)
            .collect();
        let hide_literals = compiled
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r.rule.decision, Some(Decision::Deny | Decision::Stop)))
            .filter_map(|(i, r)| {
                let mut literals: Vec<String> = Vec::new();
                for p in r
                    .rule
                    .path
                    .iter()
                    .flat_map(|p| crate::rule::literal_paths(p))
                {
                    if !literals.contains(&p) {
                        literals.push(p);
                    }
                }
                (!literals.is_empty()).then_some((i, literals))
            })
            .collect();
        let has_post_effects = compiled.iter().any(|r| {
            r.rule.context.is_some()
                || r.rule.suppress_output
                || !r.rule.redact.is_empty()
                || r.rule.max_output.is_some()
        });
        let mut any_path_keys = self.default_path_keys.clone();
        let mut any_command_keys = self.default_command_keys.clone();
        for r in &compiled {
            if let Keys::Own(keys) = &r.path_keys {
                any_path_keys.extend(keys.iter().cloned());
            }
            if let Keys::Own(keys) = &r.command_keys {
                any_command_keys.extend(keys.iter().cloned());
            }
        }
        Ok(Policy {
            any_path_keys,
            any_command_keys,
            needs_buffer: compiled.iter().any(|r| r.has_buffer),
            needs_backend: compiled.iter().any(|r| r.has_backend),
            needs_model: compiled.iter().any(|r| r.has_model),
            has_post_effects,
            sandboxing,
            hide_literals,
            rules: compiled,
            options: self.options,
            default_path_keys: self.default_path_keys,
            default_command_keys: self.default_command_keys,
            needed_args: self.needed_args,
            tool_globs: self.tool_globs.build("tool")?,
            tool_regexps: self.tool_regexps.build("tool")?,
            always: self.always,
            gates: self.gates,
            leaf_owner: self.leaf_owner,
            buffer: self.buffer.build("buffer")?,
            backend: self.backend.build("backend")?,
            model: self.model.build("model")?,
            cwd: self.cwd.build("cwd")?,
            path_abs: self.path_abs.build("path")?,
            path_rel: self.path_rel.build("path")?,
            path_anchors: path::Anchors::new(self.path_anchors),
            cmd_prefix: self.cmd_prefix,
            cmd_regexps: self.cmd_regexps.build("command")?,
            arg_index,
            arg_leaves: self.next_leaf,
            redact_cache: Default::default(),
            notes: Vec::new(),
        })
    }
}

/// What [`Builder::add_matchers`] made of a rule beyond its indexes.
struct RuleParts {
    /// The rule's tool globs that enter the tool index.
    tool_globs: Vec<Glob>,
    /// The tool names, when every tool matcher is a literal glob.
    tool_literals: Option<Vec<String>>,
    driver: Driver,
    path_outside: Vec<OutsideDir>,
    args: Vec<(String, CArg)>,
}

/// RULE's effects that can be wrong: redaction regexps, empty edit values,
/// a `:sandbox` that could never apply.
fn check_effects(rule: &Rule) -> Result<()> {
    if let (Some(_), Some(d @ (Decision::Deny | Decision::Stop))) = (&rule.sandbox, rule.decision) {
        return Err(Error::key(
            "sandbox",
            format!(
                "a {d} rule never lets a call run, so its sandbox would never apply \
                 (put :sandbox on an allow or ask rule, or on a rule without :decision)"
            ),
        ));
    }
    for r in &rule.redact {
        regex("redact", r)?;
    }
    for (which, edits) in [
        ("set-args", &rule.set_args),
        ("default-args", &rule.default_args),
    ] {
        for (key, value) in edits {
            if value.as_object().is_some_and(|m| m.is_empty()) {
                return Err(Error::key(which, "empty value").for_argument(key));
            }
        }
    }
    Ok(())
}

/// The most selective index RULE needs (see [`Driver`]); an index other
/// than the tool's drives it only when its `:tool` names are literal
/// (TOOLS_LITERAL: they gate that index) or it has no tool matcher.
fn driver(rule: &Rule, args: &[(String, CArg)], tools_literal: bool) -> Driver {
    let has_tool = !(rule.tool.is_empty() && rule.tool_regexp.is_empty());
    if has_tool && !tools_literal {
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
    }
}
