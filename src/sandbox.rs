//! Sandboxed calls: a rule's `:sandbox`, the confinement of one call, and the
//! bubblewrap command that applies it (DESIGN.md, "Sandboxed calls").
//!
//! The stages, in the order a call meets them:
//!
//! 1. [`SandboxSpec`]: what a rule wrote, `t` or `(:write DIRS :hide PATHS
//!    :network BOOL)`, read by [`SandboxSpec::from_value`]. Directories are as
//!    written (`.`, `~/x`, `build`).
//! 2. [`Confinement::resolve`]: one spec made concrete for one call, against
//!    the call's [`SandboxEnv`] (the request's directory, the home, the
//!    temporary directory): absolute paths with symbolic links resolved. The
//!    default hidden paths come from the deny rules' `:path` patterns, through
//!    [`literal_paths`].
//! 3. [`Confinement::strictest`]: several matching rules' confinements made
//!    into one, the strictest: writable only where every rule lets a command
//!    write, hidden what any rule hides, network only if all allow it.
//! 4. [`Sandbox`]: the located bubblewrap program, and the words that run a
//!    command under a confinement: [`Sandbox::wrap_line`] for a command line
//!    (a new line that a POSIX shell reads as `bwrap ARGS... -- SHELL -c
//!    'LINE'`, so the confined shell gets exactly LINE) and
//!    [`Sandbox::wrap_argv`] for a command given as a list of words.
//!
//! What the confinement means inside the sandbox:
//!
//! - the whole file system is visible read-only (`--ro-bind / /`);
//! - each writable directory is bound read-write over itself, except its
//!   `.git`, kept read-only (Git would later run what a planted config or hook
//!   names); a writable path that leaves the project through a symbolic link
//!   (one a sandboxed command could have planted) is not writable;
//! - `/proc` and `/dev` are private, and so is the temporary directory: an
//!   empty tmpfs, writable, gone when the command ends;
//! - each hidden path is covered: a directory by an empty read-only tmpfs, any
//!   other file by `/dev/null`. A hidden path always wins: a secret inside a
//!   writable directory stays hidden, and a writable directory inside a hidden
//!   one is not writable (it is not even visible);
//! - no network at all, loopback included (a network namespace of its own),
//!   unless the confinement allows the network; without it, the sockets of
//!   the host's daemons (under the directories the caller names, such as
//!   `/run`) are covered too, since `connect(2)` to a socket file crosses
//!   both a read-only mount and a network namespace;
//! - no capabilities and no further user namespaces (so even a command run as
//!   root cannot unmount a hidden path's cover or remount `/` read-write), a
//!   new session (no `TIOCSTI` into the terminal), and the sandbox ends with
//!   the process that started it.
//!
//! When the sandbox cannot be set up (not Linux, no `bwrap`, a `bwrap` that
//! cannot create namespaces here) the functions return a [`SandboxError`]
//! whose text says what to install: the caller blocks the call, so a
//! sandboxed call never runs unconfined.

use crate::error::{Error, Result as RuleResult};
use serde_json::{json, Map, Value as Json};
use std::fmt;
use std::fs;
use std::io;
use std::path::Path;
use std::process::{Command, Stdio};

/// The bubblewrap program's default name (`gptel-rust-hooks-sandbox-program`).
pub const DEFAULT_PROGRAM: &str = "bwrap";

/// The keys of a `:sandbox` plist, in the order the reference lists them.
pub const SPEC_KEYS: &[&str] = &["write", "hide", "network"];

/// The first bubblewrap release with `--disable-userns` (0.8.0).
const DISABLE_USERNS_SINCE: (u32, u32, u32) = (0, 8, 0);

/// Most components a sandbox path may have; longer paths are refused.
const MAX_COMPONENTS: usize = 1024;

/// Most directory entries looked at for sockets to hide, per call.
const MAX_SOCKET_ENTRIES: usize = 4096;

/// Most alternatives [`literal_paths`] expands one pattern's braces into.
const MAX_ALTERNATIVES: usize = 64;

// ---------------------------------------------------------------------------
// Errors

/// Why a call cannot be sandboxed; the caller blocks the call with this text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxError {
    /// This system is not Linux (bubblewrap needs Linux namespaces).
    NotLinux {
        /// `std::env::consts::OS` of this system.
        os: String,
    },
    /// The sandbox program was not found.
    NotFound {
        /// The program as configured (`bwrap`, or a path).
        program: String,
    },
    /// The sandbox program exists but cannot be run.
    NotExecutable {
        /// The program's path.
        program: String,
        /// What is wrong with it.
        why: String,
    },
    /// The sandbox program ran but cannot set up a sandbox here.
    Broken {
        /// The program's path.
        program: String,
        /// What it said.
        detail: String,
    },
    /// A path of the confinement or the call cannot be used.
    Path {
        /// The path, as given.
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// The command's working directory lies inside a hidden path.
    CwdHidden {
        /// The working directory.
        cwd: String,
        /// The hidden path that holds it.
        hidden: String,
    },
    /// The command holds a NUL byte, which no program can receive.
    Nul,
}

/// The install hint every "cannot find or run bubblewrap" message ends with.
const INSTALL_HINT: &str = "install bubblewrap (Debian, Ubuntu: `apt-get install bubblewrap`; \
     Fedora: `dnf install bubblewrap`; Arch: `pacman -S bubblewrap`) or set \
     `gptel-rust-hooks-sandbox-program`";

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SandboxError::NotLinux { os } => write!(
                f,
                "cannot sandbox the call: sandboxed calls need Linux with bubblewrap (`bwrap`), \
                 and this system is `{os}`"
            ),
            SandboxError::NotFound { program } => write!(
                f,
                "cannot sandbox the call: the sandbox program `{}` was not found; {INSTALL_HINT}",
                show(program)
            ),
            SandboxError::NotExecutable { program, why } => write!(
                f,
                "cannot sandbox the call: the sandbox program `{}` cannot be run ({why}); \
                 {INSTALL_HINT}",
                show(program)
            ),
            SandboxError::Broken { program, detail } => write!(
                f,
                "cannot sandbox the call: `{}` cannot set up a sandbox on this system: {}; \
                 it needs bubblewrap 0.4 or newer and user namespaces (on Debian and Ubuntu \
                 check `sysctl kernel.unprivileged_userns_clone` and AppArmor's \
                 `kernel.apparmor_restrict_unprivileged_userns`)",
                show(program),
                detail.trim()
            ),
            SandboxError::Path { path, why } => {
                write!(f, "cannot sandbox the call: path `{}`: {why}", show(path))
            }
            SandboxError::CwdHidden { cwd, hidden } => write!(
                f,
                "cannot sandbox the call: its directory `{}` lies in `{}`, which the sandbox \
                 hides",
                show(cwd),
                show(hidden)
            ),
            SandboxError::Nul => f.write_str(
                "cannot sandbox the call: the command holds a NUL byte, which no program can \
                 receive",
            ),
        }
    }
}

impl std::error::Error for SandboxError {}

/// Shorthand for results whose error is [`SandboxError`].
pub type Result<T> = std::result::Result<T, SandboxError>;

/// TEXT for a message: control characters escaped, so that a newline in a
/// path cannot forge a second line of a log or prompt.
fn show(text: &str) -> String {
    text.chars().flat_map(char::escape_debug).collect()
}

fn path_error(path: &str, why: impl Into<String>) -> SandboxError {
    SandboxError::Path {
        path: path.to_string(),
        why: why.into(),
    }
}

// ---------------------------------------------------------------------------
// The spec, as a rule writes it

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
                    crate::rule::type_name(other),
                    crate::rule::short(other)
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
                                crate::rule::type_name(other),
                                crate::rule::short(other)
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
            crate::rule::type_name(got),
            crate::rule::short(got)
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
fn unusable(path: &str) -> Option<&'static str> {
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

// ---------------------------------------------------------------------------
// Resolution

/// What resolving a spec needs to know about the call.
#[derive(Debug, Clone, Copy)]
pub struct SandboxEnv<'a> {
    /// The request's directory (absolute): `.` in a spec, and where relative
    /// names start.
    pub dir: &'a str,
    /// The home directory for `~`; `None` when unknown (then `~` is refused).
    pub home: Option<&'a str>,
    /// The temporary directory (`temporary-file-directory`), made private.
    pub temp: &'a str,
    /// Directories searched for Unix-domain sockets to hide when the network
    /// is off ([`sockets_under`]): the caller passes `/run`,
    /// `$XDG_RUNTIME_DIR`, the directory of `$SSH_AUTH_SOCK`, `~/.gnupg`.
    pub socket_dirs: &'a [String],
}

/// The confinement of one call: absolute paths, symbolic links resolved.
///
/// Build one with [`Confinement::resolve`], combine with
/// [`Confinement::strictest`]; every constructor leaves it normalized (no
/// path listed twice, none inside another of its list, no writable or private
/// directory inside a hidden path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confinement {
    /// Directories (or files) the command may write through to the host.
    pub write: Vec<String>,
    /// Paths inside writable directories kept read-only: each writable
    /// directory's `.git` (unless the spec lists it as writable itself), since
    /// Git runs the programs its config and hooks name (`core.fsmonitor`,
    /// `post-checkout`) the next time you or Magit run git outside the
    /// sandbox. Being a mount point, it cannot be renamed or replaced either.
    pub read_only: Vec<String>,
    /// Directories made private: an empty writable tmpfs, discarded after.
    pub private: Vec<String>,
    /// Paths made unreadable.
    pub hide: Vec<String>,
    /// Whether the command may use the network.
    pub network: bool,
}

impl Confinement {
    /// Make SPEC concrete for the call described by ENV.
    ///
    /// `deny_literals` are the literal paths of the deny rules' `:path`
    /// patterns ([`literal_paths`], as written); they are the hidden paths when
    /// the spec gives no `:hide`. Of those, only paths that exist are hidden,
    /// and never `/` nor a directory that holds the request's directory (the
    /// command could not run at all): a rule denying `~/**` hides nothing
    /// from a command run in `~/proj`. An explicit `:hide` is taken as given,
    /// and one that holds the command's directory makes building the command
    /// fail ([`SandboxError::CwdHidden`]).
    pub fn resolve(
        spec: &SandboxSpec,
        env: &SandboxEnv<'_>,
        deny_literals: &[String],
    ) -> Result<Confinement> {
        let dir = absolute_dir(env.dir, "the request's directory")?;
        let temp = absolute_dir(env.temp, "the temporary directory")?;
        let resolve_all = |paths: &[String]| -> Result<Vec<String>> {
            paths.iter().map(|p| expand(p, &dir, env.home)).collect()
        };
        let write = match &spec.write {
            None => vec![dir.clone()],
            Some(paths) => writable(paths, &dir, env.home)?,
        };
        let mut hide: Vec<String> = match &spec.hide {
            Some(paths) => {
                let hide = resolve_all(paths)?;
                if let Some(root) = hide.iter().find(|h| h.as_str() == "/") {
                    return Err(path_error(root, "the sandbox cannot hide `/`"));
                }
                hide.into_iter().filter(|h| exists(h)).collect()
            }
            None => deny_literals
                .iter()
                // A literal that does not expand (`~` without a home) hides nothing.
                .filter_map(|p| expand(p, &dir, env.home).ok())
                .filter(|h| h != "/" && !within(&dir, h) && exists(h))
                .collect(),
        };
        if temp == "/" {
            return Err(path_error(
                env.temp,
                "the temporary directory cannot be `/`, which the sandbox would empty",
            ));
        }
        if !spec.network {
            let dirs: Vec<&str> = env.socket_dirs.iter().map(String::as_str).collect();
            hide.extend(sockets_under(&dirs, MAX_SOCKET_ENTRIES));
        }
        let read_only = write
            .iter()
            .map(|w| format!("{w}/.git"))
            .filter(|git| fs::symlink_metadata(git).is_ok() && !write.contains(git))
            .collect();
        Ok(Confinement {
            write,
            read_only,
            private: vec![temp],
            hide,
            network: spec.network,
        }
        .normalized())
    }

    /// The strictest combination of CONFINEMENTS (those of several matching
    /// rules): a path is writable only if every one lets it be written (by
    /// containment: `/home/u/p` and `/home/u` give `/home/u/p`), hidden if any
    /// hides it, private if any makes it private, and the network is allowed
    /// only if all allow it. `None` when there are none.
    pub fn strictest<I>(confinements: I) -> Option<Confinement>
    where
        I: IntoIterator<Item = Confinement>,
    {
        confinements.into_iter().reduce(|a, b| a.and(&b))
    }

    /// The strictest combination of self and OTHER (see [`Confinement::strictest`]).
    pub fn and(&self, other: &Confinement) -> Confinement {
        let mut write: Vec<String> = Vec::new();
        for a in &self.write {
            for b in &other.write {
                // The common part of two subtrees is the deeper one, if nested.
                if within(a, b) {
                    write.push(a.clone());
                } else if within(b, a) {
                    write.push(b.clone());
                }
            }
        }
        Confinement {
            write,
            read_only: union(&self.read_only, &other.read_only),
            private: union(&self.private, &other.private),
            hide: union(&self.hide, &other.hide),
            network: self.network && other.network,
        }
        .normalized()
    }

    /// Self with duplicates and paths inside others of their list removed, and
    /// writable, read-only or private paths inside a hidden one dropped
    /// (hidden wins). A writable path that is also private is private;
    /// read-only paths outside every writable one are dropped (all is
    /// read-only there).
    fn normalized(self) -> Confinement {
        let hide = outermost(self.hide);
        let visible = |p: &String| !hide.iter().any(|h| within(p, h));
        let private: Vec<String> = outermost(self.private)
            .into_iter()
            .filter(visible)
            .collect();
        let write: Vec<String> = outermost(self.write)
            .into_iter()
            .filter(|w| visible(w) && !private.contains(w))
            .collect();
        // Read-only matters only inside a writable path.
        let read_only = outermost(self.read_only)
            .into_iter()
            .filter(|r| visible(r) && write.iter().any(|w| within(r, w)))
            .collect();
        Confinement {
            write,
            read_only,
            private,
            hide,
            network: self.network,
        }
    }

    /// The confinement for the log, explain and the JSON-lines file:
    /// `{"write": [...], "read-only": [...], "private": [...], "hide": [...],
    /// "network": false}`.
    pub fn to_json(&self) -> Json {
        json!({
            "write": self.write,
            "read-only": self.read_only,
            "private": self.private,
            "hide": self.hide,
            "network": self.network,
        })
    }

    /// The confinement as one line for the log and the ask prompt, with HOME
    /// shown as `~`: ``write ~/proj; read-only ~/proj/.git; private /tmp;
    /// hide ~/.ssh, ~/.aws; no network``.
    pub fn describe(&self, home: Option<&str>) -> String {
        let list = |paths: &[String]| {
            if paths.is_empty() {
                "nothing".to_string()
            } else {
                paths
                    .iter()
                    .map(|p| show(&abbreviate(p, home)))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let mut parts = vec![format!("write {}", list(&self.write))];
        if !self.read_only.is_empty() {
            parts.push(format!("read-only {}", list(&self.read_only)));
        }
        if !self.private.is_empty() {
            parts.push(format!("private {}", list(&self.private)));
        }
        parts.push(format!("hide {}", list(&self.hide)));
        parts.push(
            if self.network {
                "network"
            } else {
                "no network"
            }
            .to_string(),
        );
        parts.join("; ")
    }
}

/// PATH with HOME shown as `~`.
fn abbreviate(path: &str, home: Option<&str>) -> String {
    match home.map(|h| h.trim_end_matches('/')) {
        Some(h) if !h.is_empty() && within(path, h) => format!("~{}", &path[h.len()..]),
        _ => path.to_string(),
    }
}

/// The items of A and of B, A's first, each once.
fn union(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = a.to_vec();
    out.extend(b.iter().filter(|p| !a.contains(p)).cloned());
    out
}

/// PATHS without duplicates and without those inside another of them, in
/// their first order.
fn outermost(paths: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in &paths {
        if out.contains(p) {
            continue;
        }
        if paths.iter().any(|q| q != p && within(p, q)) {
            continue;
        }
        out.push(p.clone());
    }
    out
}

/// True when PATH is DIR or lies inside it, by whole components (both
/// absolute and normalized).
fn within(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() {
        return path.starts_with('/');
    }
    path == dir || (path.starts_with(dir) && path.as_bytes().get(dir.len()) == Some(&b'/'))
}

/// True when PATH names something (a dangling symbolic link is nothing).
fn exists(path: &str) -> bool {
    fs::metadata(path).is_ok()
}

/// DIR, which must be absolute, resolved.
fn absolute_dir(dir: &str, what: &str) -> Result<String> {
    if !dir.starts_with('/') {
        return Err(path_error(dir, format!("{what} must be an absolute path")));
    }
    if dir.contains('\0') {
        return Err(path_error(dir, "a path with a NUL byte"));
    }
    resolve_path(dir)
}

/// The writable PATHS of a spec, resolved against DIR (the request's
/// directory, resolved) and HOME.
///
/// A path that lies, as written, inside the request's directory or inside
/// another of PATHS must resolve inside that one too; one that leaves it
/// through a symbolic link is dropped. Such a link lies where a sandboxed
/// command may have written it (`rm -r out; ln -s ~/.emacs.d out`), and must
/// not make the next call's `./out` a door out of the project.
fn writable(paths: &[String], dir: &str, home: Option<&str>) -> Result<Vec<String>> {
    let written: Vec<String> = paths
        .iter()
        .map(|p| absolute(p, dir, home))
        .collect::<Result<_>>()?;
    let real: Vec<String> = written
        .iter()
        .map(|w| resolve_path(w))
        .collect::<Result<_>>()?;
    let anchors: Vec<(&str, &str)> = std::iter::once((dir, dir))
        .chain(
            written
                .iter()
                .map(String::as_str)
                .zip(real.iter().map(String::as_str)),
        )
        .collect();
    Ok(written
        .iter()
        .zip(&real)
        .filter(|(w, r)| {
            anchors
                .iter()
                .all(|(aw, ar)| !within(w, aw) || within(r, ar))
        })
        .map(|(_, r)| r.clone())
        .collect())
}

/// PATH as a spec writes it (`~`, `.`, relative, absolute), made absolute
/// against DIR and HOME and resolved.
fn expand(path: &str, dir: &str, home: Option<&str>) -> Result<String> {
    resolve_path(&absolute(path, dir, home)?)
}

/// PATH as a spec writes it, made absolute against DIR and HOME, with `.`,
/// `..` and repeated slashes collapsed as text (no link followed).
fn absolute(path: &str, dir: &str, home: Option<&str>) -> Result<String> {
    if let Some(why) = unusable(path) {
        return Err(path_error(path, why));
    }
    let abs = if path == "~" || path.starts_with("~/") {
        let Some(home) = home else {
            return Err(path_error(path, "the home directory is not known"));
        };
        if !home.starts_with('/') {
            return Err(path_error(
                home,
                "the home directory must be an absolute path",
            ));
        }
        format!("{home}/{}", &path[1..])
    } else if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    };
    let mut out: Vec<&str> = Vec::new();
    for c in abs.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.len() > MAX_COMPONENTS {
        return Err(path_error(path, "too many components"));
    }
    Ok(format!("/{}", out.join("/")))
}

/// ABS (absolute) with `.`, `..` and repeated slashes collapsed and every
/// symbolic link along its longest existing prefix resolved, as the kernel
/// resolves it; components past that prefix are kept as written.
fn resolve_path(abs: &str) -> Result<String> {
    let comps: Vec<&str> = abs.split('/').filter(|c| !c.is_empty()).collect();
    if comps.len() > MAX_COMPONENTS {
        return Err(path_error(abs, "too many components"));
    }
    for keep in (0..=comps.len()).rev() {
        let head = format!("/{}", comps[..keep].join("/"));
        let real = match fs::canonicalize(&head) {
            Ok(real) => real,
            Err(_) if keep > 0 => continue,
            Err(e) => return Err(path_error(abs, format!("cannot resolve `/`: {e}"))),
        };
        let Some(real) = real.to_str() else {
            return Err(path_error(abs, "resolves to a name that is not UTF-8 text"));
        };
        let mut out: Vec<&str> = real.split('/').filter(|c| !c.is_empty()).collect();
        for c in &comps[keep..] {
            match *c {
                "." => {}
                ".." => {
                    out.pop();
                }
                c => out.push(c),
            }
        }
        return Ok(format!("/{}", out.join("/")));
    }
    Err(path_error(abs, "cannot be resolved"))
}

// ---------------------------------------------------------------------------
// Host sockets

/// The Unix-domain sockets under ROOTS (not following symbolic links, at most
/// 6 levels deep, at most LIMIT entries looked at in all): the paths a caller
/// adds to the hidden ones when the network is off.
///
/// A read-only file system does not stop `connect(2)` on a socket file, and a
/// network namespace does not either: without this, a confined command can
/// still reach the daemons listening under `/run` and `$XDG_RUNTIME_DIR`
/// (Docker, D-Bus, an SSH or GPG agent, an Emacs server). Hiding a socket
/// binds `/dev/null` over it, so `connect` is refused.
pub fn sockets_under(roots: &[&str], limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut budget = limit;
    for root in roots {
        let Ok(real) = resolve_path(root) else {
            continue;
        };
        walk_sockets(&real, 0, &mut budget, &mut out);
    }
    outermost(out)
}

fn walk_sockets(dir: &str, depth: usize, budget: &mut usize, out: &mut Vec<String>) {
    if depth > 6 {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let (Ok(kind), Some(name)) = (
            entry.file_type(),
            entry.file_name().to_str().map(String::from),
        ) else {
            continue;
        };
        let path = if dir == "/" {
            format!("/{name}")
        } else {
            format!("{dir}/{name}")
        };
        if is_socket(&kind) {
            out.push(path);
        } else if kind.is_dir() {
            walk_sockets(&path, depth + 1, budget, out);
        }
    }
}

// ---------------------------------------------------------------------------
// The bubblewrap program and its command line

/// A located bubblewrap program, ready to wrap commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    /// The program's absolute path.
    program: String,
    /// Whether it takes `--disable-userns` (bubblewrap 0.8.0 and newer).
    disable_userns: bool,
}

impl Sandbox {
    /// Find the sandbox program NAME on this system: a name with a `/` is a
    /// path (it must be absolute), else it is looked up in DIRS (`exec-path`).
    /// Nothing is run: the program is taken to be bubblewrap 0.8.0 or newer
    /// until [`Sandbox::probe`] says otherwise.
    pub fn locate(name: &str, dirs: &[String]) -> Result<Sandbox> {
        Sandbox::locate_on(std::env::consts::OS, name, dirs)
    }

    /// [`Sandbox::locate`] as it would answer on the system OS
    /// (`std::env::consts::OS`): anything but `linux` is refused.
    pub fn locate_on(os: &str, name: &str, dirs: &[String]) -> Result<Sandbox> {
        if os != "linux" {
            return Err(SandboxError::NotLinux { os: os.to_string() });
        }
        let program = if name.contains('/') {
            if !name.starts_with('/') {
                return Err(SandboxError::NotExecutable {
                    program: name.to_string(),
                    why: "a path must be absolute".into(),
                });
            }
            executable(name)?;
            name.to_string()
        } else {
            if name.is_empty() || name.contains('\0') {
                return Err(SandboxError::NotFound {
                    program: name.to_string(),
                });
            }
            dirs.iter()
                .filter(|d| d.starts_with('/'))
                .map(|d| format!("{}/{name}", d.trim_end_matches('/')))
                .find(|p| executable(p).is_ok())
                .ok_or_else(|| SandboxError::NotFound {
                    program: name.to_string(),
                })?
        };
        Ok(Sandbox {
            program,
            disable_userns: true,
        })
    }

    /// Run the program once to learn its version and check that it can set
    /// up a sandbox on this system (a confined `true`); a few milliseconds,
    /// worth doing once per program, not per call.
    pub fn probe(self) -> Result<Sandbox> {
        let program = self.program.clone();
        let broken = |detail: String| SandboxError::Broken {
            program: program.clone(),
            detail,
        };
        let out = Command::new(&self.program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| broken(format!("`--version` failed: {e}")))?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let version = parse_version(&text).ok_or_else(|| {
            broken(format!(
                "`--version` said `{}`, not `bubblewrap X.Y.Z`",
                show(text.trim())
            ))
        })?;
        let sandbox = Sandbox {
            disable_userns: version >= DISABLE_USERNS_SINCE,
            ..self
        };
        let trial = Confinement {
            write: Vec::new(),
            read_only: Vec::new(),
            private: Vec::new(),
            hide: Vec::new(),
            network: false,
        };
        let mut args = sandbox.args(&trial, "/")?;
        args.push("true".into());
        let out = Command::new(&sandbox.program)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| broken(e.to_string()))?;
        if !out.status.success() {
            return Err(broken(format!(
                "a confined `true` failed ({}): {}",
                out.status,
                show(String::from_utf8_lossy(&out.stderr).trim())
            )));
        }
        Ok(sandbox)
    }

    /// The program's absolute path.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The words after the program that confine a command run in CWD (the
    /// command's working directory, unchanged: `--chdir CWD`), up to and
    /// including the `--` that ends them. The command comes after.
    ///
    /// Writable paths and private directories that do not exist are skipped;
    /// hidden paths under a private directory need no cover. Mounts are
    /// ordered so that a deeper path is set up after the one that holds it:
    /// `/tmp/proj` writable inside a private `/tmp` is the host's `/tmp/proj`;
    /// covers for hidden paths come last, so nothing written uncovers them.
    pub fn args(&self, conf: &Confinement, cwd: &str) -> Result<Vec<String>> {
        if !cwd.starts_with('/') {
            return Err(path_error(cwd, "the command's directory must be absolute"));
        }
        if cwd.contains('\0') {
            return Err(SandboxError::Nul);
        }
        let real_cwd = resolve_path(cwd)?;
        for hidden in &conf.hide {
            if within(cwd, hidden) || within(&real_cwd, hidden) {
                return Err(SandboxError::CwdHidden {
                    cwd: cwd.to_string(),
                    hidden: hidden.clone(),
                });
            }
        }
        let mut words: Vec<String> = [
            "--unshare-all",
            "--unshare-user",
            "--cap-drop",
            "ALL",
            "--die-with-parent",
            "--new-session",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if self.disable_userns {
            words.push("--disable-userns".into());
        }
        if conf.network {
            words.push("--share-net".into());
        }
        let mut mounts: Vec<Mount> = vec![
            Mount::new("/", Kind::Root),
            Mount::new("/dev", Kind::Dev),
            Mount::new("/proc", Kind::Proc),
        ];
        for p in conf.private.iter().filter(|p| is_dir(p)) {
            mounts.push(Mount::new(p, Kind::Private));
        }
        for w in conf.write.iter().filter(|w| exists(w)) {
            mounts.push(Mount::new(w, Kind::Write));
        }
        for r in conf.read_only.iter().filter(|r| exists(r)) {
            mounts.push(Mount::new(r, Kind::ReadOnly));
        }
        mounts.sort_by_key(|m| (m.depth, m.kind));
        for m in &mounts {
            m.push_words(&mut words);
        }
        let mut hides: Vec<&String> = conf.hide.iter().collect();
        hides.sort_by_key(|h| depth(h));
        for hidden in hides {
            // The mount the hidden path is seen through: the deepest holding it.
            let seen_through = mounts
                .iter()
                .filter(|m| within(hidden, &m.path))
                .max_by_key(|m| (m.depth, m.kind));
            if seen_through.is_some_and(|m| m.kind.is_private()) {
                continue;
            }
            match fs::metadata(hidden) {
                Ok(meta) if meta.is_dir() => words.extend([
                    "--tmpfs".into(),
                    hidden.clone(),
                    "--remount-ro".into(),
                    hidden.clone(),
                ]),
                Ok(_) => words.extend(["--ro-bind".into(), "/dev/null".into(), hidden.clone()]),
                Err(_) => {}
            }
        }
        words.extend(["--chdir".into(), cwd.to_string(), "--".into()]);
        Ok(words)
    }

    /// LINE, a command line for a POSIX shell, confined: a new command line
    /// that a POSIX shell (`sh`, `bash`, `dash`, `zsh`, `ksh`; not `fish` or
    /// `csh`) reads as `exec BWRAP ARGS... -- SHELL -c LINE`, every word
    /// single-quoted, so that the confined SHELL (`shell-file-name`, or
    /// `/bin/sh`) receives exactly LINE's bytes as its `-c` argument.
    pub fn wrap_line(
        &self,
        conf: &Confinement,
        cwd: &str,
        shell: &str,
        line: &str,
    ) -> Result<String> {
        if line.contains('\0') || shell.contains('\0') {
            return Err(SandboxError::Nul);
        }
        let mut words = vec![self.program.clone()];
        words.extend(self.args(conf, cwd)?);
        words.extend([shell.to_string(), "-c".into(), line.to_string()]);
        let mut out = String::from("exec");
        for w in &words {
            out.push(' ');
            out.push_str(&shell_quote(w));
        }
        Ok(out)
    }

    /// ARGV, a command given as a list of words (program first), confined:
    /// the bubblewrap program and its words, then ARGV unchanged.
    pub fn wrap_argv(&self, conf: &Confinement, cwd: &str, argv: &[String]) -> Result<Vec<String>> {
        if argv.iter().any(|w| w.contains('\0')) {
            return Err(SandboxError::Nul);
        }
        let mut words = vec![self.program.clone()];
        words.extend(self.args(conf, cwd)?);
        words.extend(argv.iter().cloned());
        Ok(words)
    }
}

/// WORD as one single-quoted word for a POSIX shell: `it's` is `'it'\''s'`.
/// Runs of quotes are written `\'` outside any quoted part, so the result
/// never holds an empty `''` pair (zsh's `RC_QUOTES` would read one as a
/// quote); the empty word is `''`.
pub fn shell_quote(word: &str) -> String {
    if word.is_empty() {
        return "''".into();
    }
    let mut out = String::with_capacity(word.len() + 2);
    for (i, part) in word.split('\'').enumerate() {
        if i > 0 {
            out.push_str("\\'");
        }
        if !part.is_empty() {
            out.push('\'');
            out.push_str(part);
            out.push('\'');
        }
    }
    out
}

/// `bubblewrap 0.8.0` -> (0, 8, 0).
fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let v = text.trim().strip_prefix("bubblewrap ")?;
    let mut parts = v.split('.').map(|p| {
        p.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse::<u32>()
            .ok()
    });
    Some((
        parts.next()??,
        parts.next()??,
        parts.next().flatten().unwrap_or(0),
    ))
}

/// Ok when PATH is a regular file someone may execute.
fn executable(path: &str) -> Result<()> {
    let not = |why: String| SandboxError::NotExecutable {
        program: path.to_string(),
        why,
    };
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(not("not a regular file".into())),
        Ok(meta) if !may_execute(&meta) => Err(not("not executable".into())),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(SandboxError::NotFound {
            program: path.to_string(),
        }),
        Err(e) => Err(not(e.to_string())),
    }
}

/// True when some execute bit of META is set.
#[cfg(unix)]
fn may_execute(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn may_execute(_: &fs::Metadata) -> bool {
    true
}

/// True when KIND is a Unix-domain socket.
#[cfg(unix)]
fn is_socket(kind: &fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_socket()
}

#[cfg(not(unix))]
fn is_socket(_: &fs::FileType) -> bool {
    false
}

fn is_dir(path: &str) -> bool {
    Path::new(path).is_dir()
}

/// How many components PATH has (`/` has none).
fn depth(path: &str) -> usize {
    path.split('/').filter(|c| !c.is_empty()).count()
}

/// What a mount sets up; at the same path, a later kind is set up later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// `--ro-bind / /`.
    Root,
    /// `--bind P P`: writable through to the host.
    Write,
    /// `--ro-bind P P`: read-only again inside a writable path.
    ReadOnly,
    /// `--dev /dev`.
    Dev,
    /// `--proc /proc`.
    Proc,
    /// `--tmpfs P`: private and writable.
    Private,
}

impl Kind {
    /// True for mounts that show nothing of the host's files.
    fn is_private(self) -> bool {
        matches!(self, Kind::Dev | Kind::Proc | Kind::Private)
    }
}

/// One mount of the sandbox.
struct Mount {
    path: String,
    depth: usize,
    kind: Kind,
}

impl Mount {
    fn new(path: &str, kind: Kind) -> Mount {
        Mount {
            path: path.to_string(),
            depth: depth(path),
            kind,
        }
    }

    fn push_words(&self, words: &mut Vec<String>) {
        let p = self.path.clone();
        match self.kind {
            Kind::Root => words.extend(["--ro-bind".into(), "/".into(), "/".into()]),
            Kind::Write => words.extend(["--bind".into(), p.clone(), p]),
            Kind::ReadOnly => words.extend(["--ro-bind".into(), p.clone(), p]),
            Kind::Dev => words.extend(["--dev".into(), p]),
            Kind::Proc => words.extend(["--proc".into(), p]),
            Kind::Private => words.extend(["--tmpfs".into(), p]),
        }
    }
}
