//! A rule's `:sandbox` as written ([`SandboxSpec`]), read with the rest of the rule, and
//! the paths a deny rule's `:path` pattern names literally ([`literal_paths`]): what the
//! sandbox hides by default. The sandbox makes a spec concrete for one call.

use super::{short, type_name};
use crate::error::{show, Error, Result as RuleResult};
use serde_json::{json, Map, Value as Json};

/// The keys of a `:sandbox` plist, in the order the reference lists them.
pub const SPEC_KEYS: &[&str] = &["write", "hide", "network"];

/// A rule's `:sandbox`, as written: `t` is [`SandboxSpec::default`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSpec {
    /// `:write`: the directories the command may write, as written (`.` is
    /// the request's directory, `~` the home, a relative name is relative to
    /// the request's directory). `None`: the default, the request's directory.
    /// The temporary directory is always writable, and always private.
    pub write: Option<Vec<String>>,
    /// `:hide`: the paths made unreadable, as written. `None`: the default,
    /// every existing path the deny rules' `:path` patterns name literally.
    pub hide: Option<Vec<String>>,
    /// `:network`: false (the default) means no network at all, loopback
    /// included.
    pub network: bool,
}

impl SandboxSpec {
    /// Read `:sandbox`'s value in its serde form: `t` (true) is the defaults,
    /// nil (null) and `:json-false` (false) are no sandbox, a plist (object)
    /// with [`SPEC_KEYS`] sets them. A `:write` or `:hide` given as nil is the
    /// empty list (nothing writable, nothing hidden), not the default.
    ///
    /// Errors are about the key `sandbox` and name the inner key:
    /// ``:sandbox: :write: expected a string or a list of strings, got number `3` ``;
    /// the caller adds the rule.
    pub fn from_value(value: &Json) -> RuleResult<Option<SandboxSpec>> {
        let map: &Map<String, Json> = match value {
            Json::Null | Json::Bool(false) => return Ok(None),
            Json::Bool(true) => return Ok(Some(SandboxSpec::default())),
            Json::Object(map) => map,
            other => {
                return Err(spec_error(format!(
                    "expected t or a plist (:write DIRS :hide PATHS :network BOOL), got {} `{}`",
                    type_name(other),
                    short(other)
                )))
            }
        };
        let mut spec = SandboxSpec::default();
        for (key, v) in map {
            match key.as_str() {
                "write" => spec.write = Some(spec_paths(key, v)?),
                "hide" => spec.hide = Some(spec_paths(key, v)?),
                "network" => {
                    spec.network = match v {
                        Json::Null | Json::Bool(false) => false,
                        Json::Bool(true) => true,
                        other => {
                            return Err(spec_error(format!(
                                ":network: expected t or nil, got {} `{}`",
                                type_name(other),
                                short(other)
                            )))
                        }
                    }
                }
                other => {
                    let hint = SPEC_KEYS
                        .iter()
                        .find(|k| near(k, other))
                        .map(|k| format!(" (did you mean `:{k}`?)"))
                        .unwrap_or_default();
                    return Err(spec_error(format!(
                        "unknown key `:{}`{hint} (known: :write, :hide, :network)",
                        show(other)
                    )));
                }
            }
        }
        Ok(Some(spec))
    }

    /// The spec in its serde form, for explain and the log: `true` for the
    /// defaults, else an object with the keys that were given.
    pub fn to_value(&self) -> Json {
        if *self == SandboxSpec::default() {
            return Json::Bool(true);
        }
        let mut map = Map::new();
        if let Some(write) = &self.write {
            map.insert("write".into(), json!(write));
        }
        if let Some(hide) = &self.hide {
            map.insert("hide".into(), json!(hide));
        }
        map.insert("network".into(), Json::Bool(self.network));
        Json::Object(map)
    }
}

fn spec_error(message: String) -> Error {
    Error::key("sandbox", message)
}

/// True when A and B differ by at most one edit (a typo of a key).
fn near(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let (mut i, mut j, mut edits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        edits += 1;
        if edits > 1 {
            return false;
        }
        match a.len().cmp(&b.len()) {
            std::cmp::Ordering::Greater => i += 1,
            std::cmp::Ordering::Less => j += 1,
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    edits + (a.len() - i) + (b.len() - j) <= 1
}

/// `:write`/`:hide`: a string or a list of strings (nil: none), each a usable
/// path as written.
fn spec_paths(key: &str, value: &Json) -> RuleResult<Vec<String>> {
    let wrong = |got: &Json| {
        spec_error(format!(
            ":{key}: expected a string or a list of strings, got {} `{}`",
            type_name(got),
            short(got)
        ))
    };
    let list: Vec<String> = match value {
        Json::Null => Vec::new(),
        Json::String(s) => vec![s.clone()],
        Json::Array(items) => items
            .iter()
            .map(|item| match item {
                Json::String(s) => Ok(s.clone()),
                other => Err(wrong(other)),
            })
            .collect::<RuleResult<_>>()?,
        other => return Err(wrong(other)),
    };
    for path in &list {
        if let Some(why) = unusable(path) {
            return Err(spec_error(format!(":{key}: `{}`: {why}", show(path))));
        }
    }
    Ok(list)
}

/// Why PATH, as written in a spec, cannot be used; `None` when it can.
pub(crate) fn unusable(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        Some("an empty path (write `.` for the request's directory)")
    } else if path.contains('\0') {
        Some("a path with a NUL byte")
    } else if path.starts_with('~') && !(path == "~" || path.starts_with("~/")) {
        Some("`~user` is not supported here; write the directory out")
    } else {
        None
    }
}

// ---------------------------------------------------------------------------
// Literal paths of a path pattern

/// Most alternatives [`literal_paths`] expands one pattern's braces into.
const MAX_ALTERNATIVES: usize = 64;

/// The paths a path pattern (a deny rule's `:path`) names literally, as
/// written (`~` and relative names unexpanded): what the sandbox hides by
/// default.
///
/// A pattern names a path literally when, after its braces are expanded, it
/// is a plain path (`/etc/shadow`), or a plain directory followed by `/**` or
/// `/` (`~/.ssh/**` and `~/.ssh/` are the directory `~/.ssh` and everything
/// below it). Anything with a wildcard left names no path literally, since
/// hiding the directory it starts from would hide more than the rule denies
/// (`/etc/*` would hide `/etc`). So:
///
/// - `~/.ssh/**` gives `~/.ssh`; `/etc/shadow` gives `/etc/shadow`;
/// - `~/.aws/{credentials,config}` gives `~/.aws/credentials` and `~/.aws/config`;
/// - `secret/**` gives `secret` (relative to the request's directory);
/// - `**/.env`, `.env` (any directory), `~/.ssh/id_*`, `/` give nothing.
///
/// A pattern that the path globs would refuse (unbalanced braces, `..`),
/// or whose braces expand to more than 64 alternatives, gives nothing.
pub fn literal_paths(pattern: &str) -> Vec<String> {
    let mut alternatives = Vec::new();
    if !expand_braces(pattern, 0, &mut alternatives) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for alt in alternatives {
        if let Some(path) = literal_path(&alt) {
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out
}

/// The path one brace-free pattern names literally (see [`literal_paths`]).
fn literal_path(pattern: &str) -> Option<String> {
    // Without a `/`, a pattern names a file in any directory.
    if !pattern.contains('/') || pattern.starts_with("**/") {
        return None;
    }
    let mut p = pattern;
    if let Some(rest) = p.strip_suffix("/**") {
        p = rest;
    }
    let p = p.trim_end_matches('/');
    if p.is_empty() {
        return None;
    }
    let mut literal = String::with_capacity(p.len());
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => literal.push(chars.next()?),
            '*' | '?' | '[' | ']' | '{' | '}' => return None,
            c => literal.push(c),
        }
    }
    if literal.is_empty() || literal.split('/').any(|c| c == "..") || unusable(&literal).is_some() {
        return None;
    }
    Some(literal)
}

/// Expand the braces of PATTERN into OUT (`a{b,c}` -> `ab`, `ac`), keeping
/// escapes; false when they are unbalanced or expand too far. DEPTH counts
/// the brace groups expanded on the way here.
fn expand_braces(pattern: &str, depth_in: usize, out: &mut Vec<String>) -> bool {
    if depth_in > MAX_ALTERNATIVES {
        return false;
    }
    let bytes = pattern.as_bytes();
    // Find the first unescaped `{` and its matching `}`.
    let mut open = None;
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => {
                if depth == 0 {
                    open = Some(i);
                }
                depth += 1;
            }
            b',' if depth == 1 => commas.push(i),
            b'}' => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
                if depth == 0 {
                    let Some(start) = open else { return false };
                    let (head, tail) = (&pattern[..start], &pattern[i + 1..]);
                    let mut from = start + 1;
                    for end in commas.iter().copied().chain(std::iter::once(i)) {
                        let item = format!("{head}{}{tail}", &pattern[from..end]);
                        if !expand_braces(&item, depth_in + 1, out) {
                            return false;
                        }
                        from = end + 1;
                    }
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if depth != 0 || out.len() >= MAX_ALTERNATIVES {
        return false;
    }
    out.push(pattern.to_string());
    true
}
