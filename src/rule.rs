//! Rule and call types, and their reading from a serde value.
//!
//! Rules reach the engine on one path whatever their origin: a Lisp plist is
//! turned into a [`serde_json::Value`] by the boundary, a JSON policy file is
//! parsed into one, and [`Rule::from_value`] reads either with the same key
//! names (`command-prefix`, `set-args`, ...).

pub(crate) mod sandbox;

use crate::error::{Error, Result};
pub use sandbox::{literal_paths, SandboxSpec, SPEC_KEYS};
use serde_json::{Map, Value as Json};
use std::fmt;

/// What a rule decides, ordered by severity: `Allow < Ask < Deny < Stop`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Decision {
    Allow,
    Ask,
    Deny,
    Stop,
}

impl Decision {
    /// Read a decision name.
    pub fn parse(name: &str) -> Option<Decision> {
        match name {
            "allow" => Some(Decision::Allow),
            "ask" => Some(Decision::Ask),
            "deny" => Some(Decision::Deny),
            "stop" => Some(Decision::Stop),
            _ => None,
        }
    }

    /// The decision's name, as written in rules.
    pub fn name(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
            Decision::Stop => "stop",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A matcher for one named argument.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgMatcher {
    /// The whole value matches this glob (`*` crosses `/`).
    Glob(String),
    /// The value contains a match of this regexp.
    Regexp(String),
    /// The value equals this one.
    Equal(Json),
    /// The argument is present (true) or absent (false).
    Present(bool),
    /// The value is a string of at most N characters.
    MaxLength(u64),
    /// The value is a number >= N.
    Min(f64),
    /// The value is a number <= N.
    Max(f64),
    /// Any of these matches.
    Any(Vec<ArgMatcher>),
    /// All of these match.
    All(Vec<ArgMatcher>),
}

/// Self-tests of a rule, checked when the policy is compiled.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Examples {
    /// Calls the rule must match.
    pub matching: Vec<Call>,
    /// Calls the rule must not match.
    pub not_matching: Vec<Call>,
}

/// One rule, as the user wrote it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rule {
    pub id: Option<String>,
    pub tool: Vec<String>,
    pub tool_regexp: Vec<String>,
    pub args: Vec<(String, ArgMatcher)>,
    pub path: Vec<String>,
    pub path_outside: Vec<String>,
    pub path_keys: Option<Vec<String>>,
    pub command_prefix: Vec<String>,
    pub command_regexp: Vec<String>,
    pub command_keys: Option<Vec<String>>,
    pub buffer: Vec<String>,
    pub backend: Vec<String>,
    pub model: Vec<String>,
    pub cwd: Vec<String>,
    pub decision: Option<Decision>,
    pub reason: Option<String>,
    pub set_args: Vec<(String, Json)>,
    pub default_args: Vec<(String, Json)>,
    pub remove_args: Vec<String>,
    pub result: Option<String>,
    pub context: Option<String>,
    pub suppress_output: bool,
    pub redact: Vec<String>,
    pub max_output: Option<u64>,
    /// `:sandbox`: run the call's shell command confined (`t` is the defaults).
    pub sandbox: Option<SandboxSpec>,
    pub examples: Examples,
}

/// Every key a rule may have, in the order the reference lists them.
pub const RULE_KEYS: &[&str] = &[
    "id",
    "tool",
    "tool-regexp",
    "args",
    "path",
    "path-outside",
    "path-keys",
    "command-prefix",
    "command-regexp",
    "command-keys",
    "buffer",
    "backend",
    "model",
    "cwd",
    "decision",
    "reason",
    "set-args",
    "default-args",
    "remove-args",
    "result",
    "context",
    "suppress-output",
    "redact",
    "max-output",
    "sandbox",
    "examples",
];

/// A short description of a value's type, for error messages.
pub fn type_name(value: &Json) -> &'static str {
    match value {
        Json::Null => "nil",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "a plist",
    }
}

/// A value, shortened for error messages.
pub fn short(value: &Json) -> String {
    let text = match value {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut out: String = text.chars().take(60).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn wrong_type(key: &str, expected: &str, got: &Json) -> Error {
    Error::key(
        key,
        format!(
            "expected {expected}, got {} `{}`",
            type_name(got),
            short(got)
        ),
    )
}

fn string(key: &str, value: &Json) -> Result<String> {
    match value {
        Json::String(s) => Ok(s.clone()),
        other => Err(wrong_type(key, "a string", other)),
    }
}

fn opt_string(key: &str, value: &Json) -> Result<Option<String>> {
    match value {
        Json::Null => Ok(None),
        other => string(key, other).map(Some),
    }
}

/// A string or a list of strings (nil is the empty list).
fn strings(key: &str, value: &Json) -> Result<Vec<String>> {
    match value {
        Json::Null => Ok(Vec::new()),
        Json::String(s) => Ok(vec![s.clone()]),
        Json::Array(items) => items
            .iter()
            .map(|item| match item {
                Json::String(s) => Ok(s.clone()),
                other => Err(wrong_type(key, "a string or a list of strings", other)),
            })
            .collect(),
        other => Err(wrong_type(key, "a string or a list of strings", other)),
    }
}

/// A matcher's pattern or non-empty list of patterns: an empty list
/// would silently match nothing (or, read as "no matcher", everything).
fn patterns(key: &str, value: &Json) -> Result<Vec<String>> {
    let list = strings(key, value)?;
    if list.is_empty() {
        return Err(Error::key(
            key,
            format!(
                "empty {}: give at least one pattern, or leave the key out",
                if value.is_null() {
                    "value (nil)"
                } else {
                    "list"
                }
            ),
        ));
    }
    Ok(list)
}

fn boolean(key: &str, value: &Json) -> Result<bool> {
    match value {
        Json::Null => Ok(false),
        Json::Bool(b) => Ok(*b),
        other => Err(wrong_type(key, "t or nil", other)),
    }
}

fn count(key: &str, value: &Json) -> Result<u64> {
    match value {
        Json::Number(n) => n
            .as_u64()
            .ok_or_else(|| wrong_type(key, "a non-negative integer", value)),
        other => Err(wrong_type(key, "a non-negative integer", other)),
    }
}

fn number(key: &str, value: &Json) -> Result<f64> {
    match value {
        Json::Number(n) => n.as_f64().ok_or_else(|| wrong_type(key, "a number", value)),
        other => Err(wrong_type(key, "a number", other)),
    }
}

/// A plist of (KEY VALUE ...): an object (nil is empty).
fn pairs(key: &str, value: &Json) -> Result<Vec<(String, Json)>> {
    match value {
        Json::Null => Ok(Vec::new()),
        Json::Object(map) => Ok(map.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        other => Err(wrong_type(key, "a plist (KEY VALUE ...)", other)),
    }
}

fn arg_matcher(key: &str, value: &Json) -> Result<ArgMatcher> {
    match value {
        Json::String(s) => Ok(ArgMatcher::Glob(s.clone())),
        Json::Array(items) if !items.is_empty() => Ok(ArgMatcher::Any(
            items
                .iter()
                .map(|item| arg_matcher(key, item))
                .collect::<Result<_>>()?,
        )),
        Json::Object(map) if !map.is_empty() => {
            let mut all = Vec::new();
            for (kind, operand) in map {
                let ctx = format!("{key} {kind}");
                let named = |e: Error| {
                    Error::key("args", format!(":{kind}: {}", e.message)).for_argument(key)
                };
                let m = match kind.as_str() {
                    "glob" => ArgMatcher::Glob(string(&ctx, operand).map_err(named)?),
                    "regexp" => ArgMatcher::Regexp(string(&ctx, operand).map_err(named)?),
                    "equal" => ArgMatcher::Equal(operand.clone()),
                    "present" => ArgMatcher::Present(boolean(&ctx, operand).map_err(named)?),
                    "max-length" => ArgMatcher::MaxLength(count(&ctx, operand).map_err(named)?),
                    "min" => ArgMatcher::Min(number(&ctx, operand).map_err(named)?),
                    "max" => ArgMatcher::Max(number(&ctx, operand).map_err(named)?),
                    other => {
                        return Err(Error::key(
                            "args",
                            format!(
                                "unknown matcher `:{other}` for argument `{key}` (known: :glob, :regexp, :equal, :present, :max-length, :min, :max)"
                            ),
                        ))
                    }
                };
                all.push(m);
            }
            Ok(if all.len() == 1 {
                all.remove(0)
            } else {
                ArgMatcher::All(all)
            })
        }
        other => Err(Error::key(
            "args",
            format!(
                "expected a glob string or a matcher such as (:regexp RE), got {} `{}`",
                type_name(other),
                short(other)
            ),
        )
        .for_argument(key)),
    }
}

fn examples(value: &Json) -> Result<Examples> {
    let map = match value {
        Json::Null => return Ok(Examples::default()),
        Json::Object(map) => map,
        other => {
            return Err(wrong_type(
                "examples",
                "(:match (CALL ...) :no-match (CALL ...))",
                other,
            ))
        }
    };
    let mut out = Examples::default();
    for (k, v) in map {
        let calls = match v {
            Json::Null => Vec::new(),
            Json::Object(_) => {
                vec![Call::from_value(v).map_err(|e| e.with_key_prefix("examples"))?]
            }
            Json::Array(items) => items
                .iter()
                .map(|c| Call::from_value(c).map_err(|e| e.with_key_prefix("examples")))
                .collect::<Result<_>>()?,
            other => return Err(wrong_type("examples", "a list of calls", other)),
        };
        match k.as_str() {
            "match" => out.matching = calls,
            "no-match" => out.not_matching = calls,
            other => {
                return Err(Error::key(
                    "examples",
                    format!("unknown key `:{other}` (known: :match, :no-match)"),
                ))
            }
        }
    }
    Ok(out)
}

impl Error {
    fn with_key_prefix(mut self, prefix: &str) -> Error {
        self.key = Some(match self.key.take() {
            Some(k) => format!("{prefix} {k}"),
            None => prefix.to_string(),
        });
        self
    }
}

/// Suggest the known key closest to a misspelt one.
fn suggestion(key: &str) -> Option<&'static str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                let cost = usize::from(ca != *cb);
                cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
            }
            prev = cur;
        }
        prev[b.len()]
    }
    RULE_KEYS
        .iter()
        .map(|k| (distance(key, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}

impl Rule {
    /// Read one rule from its serde form (an object with the rule keys).
    /// Errors name the key and the problem; the caller adds the rule.
    pub fn from_value(value: &Json) -> Result<Rule> {
        let map: &Map<String, Json> = match value {
            Json::Object(map) => map,
            other => {
                return Err(Error::new(format!(
                    "expected a plist such as (:tool \"shell\" :decision deny), got {} `{}`",
                    type_name(other),
                    short(other)
                )))
            }
        };
        let mut rule = Rule::default();
        // Read the id first, so that errors about other keys can name the rule.
        if let Some(id) = map.get("id") {
            rule.id = opt_string("id", id)?;
        }
        for (key, v) in map {
            match key.as_str() {
                "id" => {}
                "tool" => rule.tool = patterns(key, v)?,
                "tool-regexp" => rule.tool_regexp = patterns(key, v)?,
                "args" => {
                    rule.args = pairs(key, v)?
                        .iter()
                        .map(|(k, m)| Ok((k.clone(), arg_matcher(k, m)?)))
                        .collect::<Result<_>>()?
                }
                "path" => rule.path = patterns(key, v)?,
                "path-outside" => rule.path_outside = patterns(key, v)?,
                "path-keys" => rule.path_keys = Some(strings(key, v)?),
                "command-prefix" => rule.command_prefix = patterns(key, v)?,
                "command-regexp" => rule.command_regexp = patterns(key, v)?,
                "command-keys" => rule.command_keys = Some(strings(key, v)?),
                "buffer" => rule.buffer = patterns(key, v)?,
                "backend" => rule.backend = patterns(key, v)?,
                "model" => rule.model = patterns(key, v)?,
                "cwd" => rule.cwd = patterns(key, v)?,
                "decision" => {
                    rule.decision = match v {
                        Json::Null => None,
                        Json::String(s) => Some(Decision::parse(s).ok_or_else(|| {
                            Error::key(
                                key,
                                format!("unknown decision `{s}` (known: allow, ask, deny, stop)"),
                            )
                        })?),
                        other => {
                            return Err(wrong_type(key, "one of allow, ask, deny, stop", other))
                        }
                    }
                }
                "reason" => rule.reason = opt_string(key, v)?,
                "set-args" => rule.set_args = pairs(key, v)?,
                "default-args" => rule.default_args = pairs(key, v)?,
                "remove-args" => rule.remove_args = strings(key, v)?,
                "result" => rule.result = opt_string(key, v)?,
                "context" => rule.context = opt_string(key, v)?,
                "suppress-output" => rule.suppress_output = boolean(key, v)?,
                "redact" => rule.redact = strings(key, v)?,
                "max-output" => {
                    rule.max_output = match v {
                        Json::Null => None,
                        other => Some(count(key, other)?),
                    }
                }
                "sandbox" => rule.sandbox = SandboxSpec::from_value(v)?,
                "examples" => rule.examples = examples(v)?,
                other => {
                    let hint = match suggestion(other) {
                        Some(k) => format!(" (did you mean `:{k}`?)"),
                        None => String::new(),
                    };
                    return Err(Error::new(format!("unknown key `:{other}`{hint}")));
                }
            }
        }
        Ok(rule)
    }

    /// The rule's name in reasons and logs: its id, else `rule N`.
    pub fn label(&self, index: usize) -> String {
        match &self.id {
            Some(id) => id.clone(),
            None => format!("rule {}", index + 1),
        }
    }
}

/// An argument value of a call, as the engine sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    List(Vec<Arg>),
    Map(Vec<(String, Arg)>),
    /// Not read: no rule of the policy looks at this argument.
    Unread,
    /// Text that was not valid Unicode, decoded with U+FFFD in place of
    /// what could not be read: deny-side rules see it, allow rules never match it.
    Invalid(String),
    /// Could not be read (non-UTF-8 text, too deep, a circular list, an
    /// unknown object); never counts as allowed.
    Opaque(String),
}

impl Arg {
    /// The strings of a list of strings (a command given as argv); None when
    /// this is not a list or an item is not a string.
    pub fn strings(items: &[Arg]) -> Option<Vec<String>> {
        items
            .iter()
            .map(|w| match w {
                Arg::Str(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    /// Convert a serde value into an argument.
    pub fn from_json(value: &Json) -> Arg {
        match value {
            Json::Null => Arg::Null,
            Json::Bool(b) => Arg::Bool(*b),
            Json::Number(n) => match n.as_i64() {
                Some(i) => Arg::Int(i),
                None => Arg::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Json::String(s) => Arg::Str(s.clone()),
            Json::Array(items) => Arg::List(items.iter().map(Arg::from_json).collect()),
            Json::Object(map) => Arg::Map(
                map.iter()
                    .map(|(k, v)| (k.clone(), Arg::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// A JSON rendering, for logs and explanations.
    pub fn to_json(&self) -> Json {
        match self {
            Arg::Str(s) => Json::String(s.clone()),
            Arg::Int(i) => Json::from(*i),
            Arg::Float(f) => serde_json::Number::from_f64(*f)
                .map(Json::Number)
                .unwrap_or(Json::Null),
            Arg::Bool(b) => Json::Bool(*b),
            Arg::Null => Json::Null,
            Arg::List(items) => Json::Array(items.iter().map(Arg::to_json).collect()),
            Arg::Map(pairs) => Json::Object(
                pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
            Arg::Unread => Json::String("#<not read>".into()),
            Arg::Invalid(s) => Json::String(format!("#<not valid Unicode: {s}>")),
            Arg::Opaque(why) => Json::String(format!("#<unreadable: {why}>")),
        }
    }
}

/// One tool call, as the hook receives it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Call {
    pub name: String,
    /// Arguments in order; a key may repeat in hostile input.
    pub args: Vec<(String, Arg)>,
    pub buffer: Option<String>,
    pub backend: Option<String>,
    pub model: Option<String>,
    /// The request buffer's `default-directory`.
    pub cwd: Option<String>,
    /// The tool's result (post-call only).
    pub result: Option<String>,
}

impl Call {
    /// The first value of argument KEY.
    pub fn arg(&self, key: &str) -> Option<&Arg> {
        self.args.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Read a call from its serde form: `{"name": ..., "args": {...}, ...}`.
    pub fn from_value(value: &Json) -> Result<Call> {
        let Json::Object(map) = value else {
            let (ty, text) = (type_name(value), short(value));
            let example = "(:name \"shell\" :args (:command \"ls\"))";
            return Err(Error::new(format!(
                "expected a call such as {example}, got {ty} `{text}`"
            )));
        };
        let mut call = Call::default();
        for (key, v) in map {
            match key.as_str() {
                "name" => call.name = string("name", v)?,
                "args" => {
                    call.args = pairs("args", v)?
                        .iter()
                        .map(|(k, v)| (k.clone(), Arg::from_json(v)))
                        .collect()
                }
                "buffer" => call.buffer = opt_string("buffer", v)?,
                "backend" => call.backend = opt_string("backend", v)?,
                "model" => call.model = opt_string("model", v)?,
                "cwd" => call.cwd = opt_string("cwd", v)?,
                "result" => call.result = opt_string("result", v)?,
                other => {
                    return Err(Error::new(format!(
                        "unknown call key `:{other}` (known: :name, :args, :buffer, :backend, :model, :cwd, :result)"
                    )))
                }
            }
        }
        Ok(call)
    }

    /// A JSON rendering of the call, for explanations and logs.
    pub fn to_json(&self) -> Json {
        let mut map = Map::new();
        map.insert("name".into(), Json::String(self.name.clone()));
        map.insert(
            "args".into(),
            Json::Object(
                self.args
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
        );
        for (k, v) in [
            ("buffer", &self.buffer),
            ("backend", &self.backend),
            ("model", &self.model),
            ("cwd", &self.cwd),
        ] {
            if let Some(v) = v {
                map.insert(k.into(), Json::String(v.clone()));
            }
        }
        Json::Object(map)
    }
}

/// Read a list of rules from its serde form. Errors name the rule.
pub fn rules_from_value(value: &Json) -> Result<Vec<Rule>> {
    let items = match value {
        Json::Null => return Ok(Vec::new()),
        Json::Array(items) => items,
        other => {
            return Err(Error::new(format!(
                "expected a list of rules, got {} `{}`",
                type_name(other),
                short(other)
            )))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let id = item.get("id").and_then(Json::as_str);
            Rule::from_value(item).map_err(|e| e.in_rule(i, id))
        })
        .collect()
}

/// The 1-based line where each element of the top-level JSON array in
/// TEXT starts (empty when TEXT is not an array).
pub fn element_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut line = 1;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut expect_value = false;
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if depth == 1 && expect_value && !c.is_whitespace() && c != ']' {
            lines.push(line);
            expect_value = false;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth == 1 && c == '[' {
                    expect_value = true;
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => expect_value = true,
            _ => {}
        }
    }
    lines
}

/// Read the rules of a JSON policy file's TEXT, with each rule's line.
/// Errors give the line and column of invalid JSON, and name the rule.
pub fn rules_from_json_text(text: &str) -> Result<(Vec<Rule>, Vec<Option<usize>>)> {
    let value: Json = serde_json::from_str(text).map_err(|e| {
        Error::new(format!(
            "line {}, column {}: invalid JSON: {}",
            e.line(),
            e.column(),
            e.to_string()
                .rsplit_once(" at line")
                .map(|(m, _)| m.to_string())
                .unwrap_or_else(|| e.to_string())
        ))
    })?;
    let lines = element_lines(text);
    let rules = rules_from_value(&value).map_err(|e| {
        match e.rule.as_ref().and_then(|rule| lines.get(rule.index)) {
            Some(&line) => e.at_line(line),
            None => e,
        }
    })?;
    let lines = (0..rules.len()).map(|i| lines.get(i).copied()).collect();
    Ok((rules, lines))
}
