//! Path patterns: gitignore-like globs, read against the home directory
//! and compiled to `globset` globs ([`glob`] or exactly its flags).

use super::*;

/// A path pattern in its compiled glob form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathPattern {
    /// Matched against the normalized absolute path.
    Absolute(String),
    /// Matched against the path relative to the call's cwd (when inside it).
    CwdRelative(String),
}

impl PathPattern {
    /// The glob string.
    pub fn as_str(&self) -> &str {
        match self {
            PathPattern::Absolute(s) | PathPattern::CwdRelative(s) => s,
        }
    }
}

/// The `globset` builder every path pattern must be compiled with:
/// `literal_separator(true)`, `backslash_escape(true)`,
/// `case_insensitive(case_fold)`, nothing else.
fn build_glob(s: &str, case_fold: bool) -> Result<globset::Glob, globset::Error> {
    globset::GlobBuilder::new(s)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(case_fold)
        .build()
}

/// Compile PATTERN with the flags its translation assumes (see [`build_glob`]:
/// `literal_separator(true)`, `backslash_escape(true)`, `case_insensitive(case_fold)`).
pub fn glob(pattern: &PathPattern, case_fold: bool) -> Result<globset::Glob, PathError> {
    build_glob(pattern.as_str(), case_fold).map_err(|e| {
        error(format!(
            "invalid glob `{}`: {}",
            show(pattern.as_str()),
            e.kind()
        ))
    })
}

/// Translate a user's gitignore-like pattern into a `globset` glob string.
///
/// Same as [`parse_pattern_with`] with only HOME known and case kept.
pub fn parse_pattern(pattern: &str, home: Option<&Path>) -> Result<PathPattern, PathError> {
    let env = PathEnv {
        home: home.map(Path::to_path_buf),
        cwd: None,
        case_fold: false,
    };
    parse_pattern_with(pattern, &env)
}

/// Translate a user's gitignore-like pattern into a `globset` glob string.
///
/// - `*`, `?`, `[...]` stay within one component, `**` crosses components,
///   `{a,b}` alternates.
/// - `~/...` is the home directory, `~user/...` a user's; `/...` is anchored at
///   the root. Both are [`PathPattern::Absolute`].
/// - A pattern without `/` (`.env`, `*.pem`), or one that starts with `**/`,
///   matches in any directory: Absolute `**/.env`.
/// - A trailing `/` or `/**` means the directory and everything in it: both
///   `~/.ssh/` and `~/.ssh/**` match `~/.ssh` itself and all below it. Without
///   one a pattern matches exactly what it names (`/etc/*` is not `/etc/a/b`).
/// - Any other relative pattern (`src/*.rs`, `./build`) is
///   [`PathPattern::CwdRelative`], matched against [`relative_to`] the cwd.
/// - `.` components are dropped; `..` is refused.
/// - The leading literal components of an absolute pattern are resolved like a
///   path (symbolic links followed), so `/tmp/x` still matches on a system
///   where `/tmp` links to `/private/tmp`; the pattern then matches both the
///   resolved and the written prefix.
/// - With `env.case_fold`, non-ASCII letters are lowercased (globset folds ASCII).
pub fn parse_pattern_with(pattern: &str, env: &PathEnv) -> Result<PathPattern, PathError> {
    check_text(pattern, "pattern")?;
    build_glob(pattern, false)
        .map_err(|e| error(format!("invalid glob `{}`: {}", show(pattern), e.kind())))?;
    let translated = translate(pattern, env)?;
    let translated = match translated {
        PathPattern::Absolute(s) if env.case_fold => PathPattern::Absolute(fold_glob(&s)),
        PathPattern::CwdRelative(s) if env.case_fold => PathPattern::CwdRelative(fold_glob(&s)),
        p => p,
    };
    build_glob(translated.as_str(), env.case_fold).map_err(|e| {
        error(format!(
            "pattern `{}` translates to `{}`, which globset refuses: {}",
            show(pattern),
            show(translated.as_str()),
            e.kind()
        ))
    })?;
    Ok(translated)
}

enum Anchor {
    /// At the root, after these literal (unescaped) components.
    Root(Vec<String>),
    /// In any directory.
    Anywhere,
    /// At the call's cwd.
    Cwd,
}

fn translate(pattern: &str, env: &PathEnv) -> Result<PathPattern, PathError> {
    if pattern.starts_with('!') {
        return Err(error(format!(
            "pattern `{}`: a leading `!` (gitignore's negation) is not supported; \
             write `\\!` for a name that starts with `!`",
            show(pattern)
        )));
    }
    if leading_group_has_absolute_branch(pattern) {
        return Err(error(format!(
            "pattern `{}`: an alternative that starts with `/` or `~` would never match; \
             give each as its own pattern",
            show(pattern)
        )));
    }
    let (anchor, body) = anchor(pattern, env)?;
    let dir_suffix = body.ends_with('/');
    let mut comps: Vec<&str> = body
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    if comps.contains(&"..") {
        return Err(error(format!(
            "pattern `{}`: `..` is not allowed in a path pattern",
            show(pattern)
        )));
    }
    let mut dir = dir_suffix;
    if comps.last() == Some(&"**") {
        comps.pop();
        dir = true;
    }
    match anchor {
        Anchor::Root(base) => {
            let n_lit = comps.iter().take_while(|c| !has_meta(c)).count();
            let mut literal: Vec<String> = collapse(base.iter().map(String::as_str));
            literal.extend(comps[..n_lit].iter().map(|c| c.to_string()));
            let rest = comps[n_lit..].join("/");
            let resolved = resolve(&literal, Mode::Lenient, pattern)?;
            let mut alternatives = vec![with_rest(&resolved, &rest)];
            if resolved != literal {
                alternatives.push(with_rest(&literal, &rest));
            }
            let globs: Vec<String> = alternatives
                .iter()
                .map(|q| if dir { dir_glob(q) } else { q.clone() })
                .collect();
            Ok(PathPattern::Absolute(alternation(globs)))
        }
        Anchor::Anywhere => {
            if comps.is_empty() || comps == ["**"] {
                return Ok(PathPattern::Absolute("**".into()));
            }
            let mut q = comps.join("/");
            if comps[0] != "**" {
                q = format!("**/{q}");
            }
            Ok(PathPattern::Absolute(if dir { dir_glob(&q) } else { q }))
        }
        Anchor::Cwd => {
            if comps.is_empty() {
                return Ok(PathPattern::CwdRelative(if dir {
                    "**".into()
                } else {
                    String::new()
                }));
            }
            let q = comps.join("/");
            Ok(PathPattern::CwdRelative(if dir { dir_glob(&q) } else { q }))
        }
    }
}

/// Where PATTERN is anchored, and the rest of it.
fn anchor<'a>(pattern: &'a str, env: &PathEnv) -> Result<(Anchor, &'a str), PathError> {
    if let Some(after) = pattern.strip_prefix('~') {
        let (user, rest) = match after.find('/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, ""),
        };
        let home = if user.is_empty() {
            Some(
                env_home(env)
                    .map_err(|e| error(format!("pattern `{}`: {e}", show(pattern))))?
                    .to_string(),
            )
        } else if plausible_user(user) {
            Some(
                passwd_home(user)
                    .map_err(|e| error(format!("pattern `{}`: {e}", show(pattern))))?,
            )
        } else {
            None // `~$x.docx` and the like: a plain name.
        };
        if let Some(home) = home {
            let base = home.split('/').map(str::to_string).collect();
            return Ok((Anchor::Root(base), rest));
        }
    }
    if pattern.starts_with('/') {
        return Ok((Anchor::Root(Vec::new()), pattern));
    }
    let mut body = pattern;
    let mut at_cwd = false;
    while let Some(rest) = body.strip_prefix("./") {
        body = rest.trim_start_matches('/');
        at_cwd = true;
    }
    if body == "." {
        return Ok((Anchor::Cwd, ""));
    }
    if body.is_empty() {
        return Ok((Anchor::Cwd, "/")); // `./`: the cwd and everything in it.
    }
    if at_cwd {
        return Ok((Anchor::Cwd, body));
    }
    if !body.trim_end_matches('/').contains('/') || body.starts_with("**/") {
        return Ok((Anchor::Anywhere, body));
    }
    Ok((Anchor::Cwd, body))
}

/// True when PATTERN starts with `{` and a branch of that group starts with `/`,
/// `~/` or is `~`: anchoring happens before alternation, so such a branch
/// would be read relative to the cwd and never match.
fn leading_group_has_absolute_branch(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    if chars.first() != Some(&'{') {
        return false;
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => i += 1,
            '[' => i += class_len(&chars[i - 1..]).saturating_sub(1),
            '{' | ',' => {
                if c == '{' {
                    depth += 1;
                }
                let rest = &chars[i..];
                let tilde = rest.first() == Some(&'~')
                    && matches!(rest.get(1), None | Some('/' | ',' | '}'));
                if rest.first() == Some(&'/') || tilde {
                    return true;
                }
            }
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    false
}

/// True when a pattern component holds glob syntax (or a character whose
/// meaning depends on context): it is not a literal file name.
fn has_meta(c: &str) -> bool {
    c.contains(['*', '?', '[', ']', '{', '}', '\\', ','])
}

/// Escape a literal file name for a glob built with `backslash_escape(true)`.
fn escape_glob(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\' | ',') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The glob for literal components PREFIX followed by glob text REST.
fn with_rest(prefix: &[String], rest: &str) -> String {
    let mut s = String::new();
    for c in prefix {
        s.push('/');
        s.push_str(&escape_glob(c));
    }
    if !rest.is_empty() {
        s.push('/');
        s.push_str(rest);
    }
    if s.is_empty() {
        s.push('/');
    }
    s
}

/// Q and everything below it.
fn dir_glob(q: &str) -> String {
    if q == "/" {
        return "{/,/**}".into();
    }
    let q = escape_bare_commas(q);
    format!("{{{q},{q}/**}}")
}

/// One glob matching any of GLOBS.
fn alternation(globs: Vec<String>) -> String {
    if globs.len() == 1 {
        return globs.into_iter().next().unwrap_or_default();
    }
    let parts: Vec<String> = globs.iter().map(|g| escape_bare_commas(g)).collect();
    format!("{{{}}}", parts.join(","))
}

/// Escape the commas of GLOB that are outside any `{...}` and `[...]`, so that
/// GLOB can become one branch of an alternation. Follows globset's parser:
/// `\` escapes, a class's first `]` is literal, `[:name:]` is one unit.
fn escape_bare_commas(glob: &str) -> String {
    let chars: Vec<char> = glob.chars().collect();
    let mut out = String::with_capacity(glob.len() + 4);
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => {
                out.push(c);
                if let Some(&n) = chars.get(i) {
                    out.push(n);
                    i += 1;
                }
            }
            '[' => {
                let len = class_len(&chars[i - 1..]).max(1);
                out.extend(&chars[i - 1..i - 1 + len]);
                i += len - 1;
            }
            '{' => {
                depth += 1;
                out.push(c);
            }
            '}' => {
                depth = depth.saturating_sub(1);
                out.push(c);
            }
            ',' if depth == 0 => out.push_str("\\,"),
            c => out.push(c),
        }
    }
    out
}

/// Length of the `[...]` class at the start of S as globset reads it (`]`
/// first is literal, `[:name:]` is one unit), or all of S when unclosed.
fn class_len(s: &[char]) -> usize {
    let mut i = 1;
    if let Some('!' | '^') = s.get(i) {
        i += 1;
    }
    let mut first = true;
    while let Some(&d) = s.get(i) {
        if d == '[' {
            if let Some(len) = posix_class_len(&s[i..]) {
                i += len;
                first = false;
                continue;
            }
        }
        i += 1;
        if d == ']' && !first {
            return i;
        }
        first = false;
    }
    s.len()
}

/// Length of a `[:name:]` unit at the start of S as globset reads it (up to
/// eight lowercase letters), or None.
fn posix_class_len(s: &[char]) -> Option<usize> {
    if s.first() != Some(&'[') || s.get(1) != Some(&':') {
        return None;
    }
    let mut i = 2;
    let mut name = 0;
    loop {
        match s.get(i) {
            Some(':') if s.get(i + 1) == Some(&']') => return Some(i + 2),
            Some(c) if c.is_ascii_lowercase() && name < 8 => {
                name += 1;
                i += 1;
            }
            _ => return None,
        }
    }
}
