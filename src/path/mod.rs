//! Path normalization, containment and gitignore-like path globs.
//!
//! A path argument is hostile input. Before any rule sees it, [`normalize`]
//! turns it into the one absolute path that the tool will touch, or refuses it.
//! A refused path ([`PathError`]) never counts as allowed.
//!
//! The tools that gptel runs are Emacs Lisp functions, so a path means what
//! Emacs makes of it, and sometimes what a program given the path makes of it.
//! Where the two readings can differ, normalization refuses the path:
//!
//! - `substitute-in-file-name` (gptel-agent's `Grep` calls it) expands `$VAR`
//!   and restarts the name at an inner `//` or `/~`: `/proj//etc/passwd` is
//!   `/etc/passwd` to it and `/proj/etc/passwd` to `expand-file-name`. Such
//!   paths are refused (a leading run of slashes is fine).
//! - A first component holding `:` is a TRAMP name (`/sudo::/etc/shadow`) or a
//!   quoted name (`/:/etc`): refused.
//! - `expand-file-name` collapses `..` before the kernel follows symbolic links;
//!   the kernel (and realpath(3)) resolves a link first. When `..` comes after
//!   a link and the two readings name different files, the path is refused.
//! - `~user` is looked up in `/etc/passwd`; an unknown user is refused.
//!
//! Otherwise the path is expanded (`~`, relative to the cwd), its `.`, `..` and
//! repeated slashes are collapsed, and every symbolic link along it is followed
//! (at most [`MAX_SYMLINK_HOPS`]), a dangling last link included: writing
//! through `proj/x -> /etc/passwd` is writing `/etc/passwd`. Components that do
//! not exist are kept as written.
//!
//! Patterns ([`parse_pattern`]) read like gitignore and compile to `globset`
//! globs; build them with [`glob`] or with exactly the flags it uses.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod anchor;
mod forms;
mod glob_memo;
mod home;
mod pattern;
mod read;
pub use read::{absent, is_special, is_terminal, read_small};

pub use anchor::{Anchor, Anchors};
pub use forms::{
    diff_targets, expand_glob, fallback_forms, reading_process, readings, Expansion, Process,
    Readings,
};
use home::{env_home, passwd_home, path_str, plausible_user};
pub use home::{user_home, user_shell};
pub use pattern::{glob, parse_pattern, parse_pattern_with, PathPattern};

/// What normalization needs to know about the call.
#[derive(Debug, Clone, Default)]
pub struct PathEnv {
    /// The home directory for `~`.
    pub home: Option<PathBuf>,
    /// The request's working directory (absolute), for relative paths.
    pub cwd: Option<PathBuf>,
    /// Fold case before matching (case-insensitive file systems).
    pub case_fold: bool,
}

/// Why a path could not be normalized; such a path never counts as allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError(pub String);

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PathError {}

/// Argument names that hold a path, in the tool collections gptel users run.
///
/// - `path`: llm-tool-collection (skissue/llm-tool-collection: `create_file`,
///   `create_directory`, `glob`, `grep`, `ls`); gptel-agent (karthink/gptel-agent,
///   `gptel-agent-tools.el`: `Edit`, `Insert`, `Write`, `Glob`, `Grep`); the MCP
///   filesystem server (modelcontextprotocol/servers `src/filesystem`: `read_file`,
///   `write_file`, `edit_file`, `list_directory`, ...); gptel's README `create_file`.
/// - `paths`: MCP filesystem `read_multiple_files` (an array of paths).
/// - `file`: llm-tool-collection `view_file`, `edit_file`, `replace_file`.
/// - `file_path`: gptel-agent `Read`.
/// - `filepath`: the `read_file` example tool copied into many gptel configs.
/// - `filename`: gptel's README `create_file` and gptel-agent `Write` (a name
///   joined to the `path` directory; see [`DEFAULT_PATH_JOINS`]).
/// - `directory`: the `list_directory`/`make_directory` example tools in gptel configs.
/// - `dir`: working-directory argument of `run_shell_command`-style tools in gptel configs.
/// - `parent`: gptel-agent `Mkdir` (the directory the new `name` goes in).
/// - `source`, `destination`: MCP filesystem `move_file`.
/// - `working_directory`: swissarmyhammer's MCP shell `execute` tool; `workdir`,
///   `work_dir`, `working_dir`: the same in other shell tools.
/// - `cwd`: shell tools' working directory (a `Bash` tool schema from the
///   `@duyetbot/types` package, found by code search).
pub const DEFAULT_PATH_KEYS: &[&str] = &[
    "path",
    "paths",
    "file",
    "files",
    "file_path",
    "filepath",
    "filePath",
    "file_name",
    "filename",
    "absolute_path",
    "notebook_path",
    "directory",
    "dir",
    "dirpath",
    "folder",
    "parent",
    "target",
    "source",
    "destination",
    "src",
    "dest",
    "old_path",
    "new_path",
    "working_directory",
    "workdir",
    "work_dir",
    "working_dir",
    "cwd",
];

/// Argument names that hold a shell command line.
///
/// - `command`: llm-tool-collection `bash`; gptel-agent `Bash`; the MCP shell
///   servers and Claude-Code-style `Bash` tools (a string, sometimes an argv array).
/// - `cmd`: `run_shell_command`/`shell_execute` tools in gptel user configs
///   (found by code search).
/// - `script`: no shell tool using it was found; kept as asked. A JavaScript
///   evaluator (macher-agent's Deno tool) uses it, and its code then reads as an
///   opaque command line, which never counts as allowed.
pub const DEFAULT_COMMAND_KEYS: &[&str] = &["command", "cmd", "script", "shell_command"];

/// Argument names that hold a glob of files (gptel-agent `Glob`'s `pattern`
/// and `Grep`'s `glob`, llm-tool-collection `grep`'s `include`): read as
/// paths, expanded against the `path` argument, for deny-side rules only.
pub const DEFAULT_GLOB_KEYS: &[&str] = &["pattern", "glob", "include"];

/// Argument names that set a command's environment: a command with one is unreadable.
pub const DEFAULT_ENV_KEYS: &[&str] = &["env", "environment", "env_vars"];

/// The arguments of an edit given as a unified diff, whose `---`/`+++` lines name the
/// files it changes: the flags that say the text is a diff (gptel-agent's `Edit`: `diff`
/// true, the diff in `new_str`; others' `diffp` with `new_str_or_diff`), and the
/// arguments that may hold one (`ApplyPatch`'s `patch`, a `diff` given as text).
pub const DIFF_FLAG_KEYS: &[&str] = &["diff", "diffp"];

/// See [`DIFF_FLAG_KEYS`]: the arguments that may hold a diff's text.
pub const DIFF_TEXT_KEYS: &[&str] = &[
    "new_str",
    "new_str_or_diff",
    "patch",
    "diff",
    "unified_diff",
];

/// Whether TEXT reads as a unified diff: a `--- ` line, a `+++ ` line and a hunk.
pub fn looks_like_diff(text: &str) -> bool {
    let mut minus = false;
    let mut plus = false;
    for line in text.lines() {
        minus |= line.starts_with("--- ");
        plus |= line.starts_with("+++ ");
        if minus && plus && line.starts_with("@@") {
            return true;
        }
    }
    false
}

/// Argument names that name the directory a command runs in.
pub const DEFAULT_WORKDIR_KEYS: &[&str] = &[
    "working_directory",
    "workdir",
    "work_dir",
    "working_dir",
    "cwd",
    "directory",
    "dir",
];

/// Pairs `(DIRECTORY-KEY, NAME-KEY)` of tools that split one path over two
/// arguments and open `(expand-file-name NAME DIRECTORY)`: gptel's README
/// `create_file` and gptel-agent `Write` (`path`, `filename`), gptel-agent
/// `Mkdir` (`parent`, `name`). An evaluator should also judge the joined path.
pub const DEFAULT_PATH_JOINS: &[(&str, &str)] = &[("path", "filename"), ("parent", "name")];

/// Symbolic links followed in one path before giving up, as Linux does.
pub const MAX_SYMLINK_HOPS: usize = 40;

/// Longest path or pattern accepted, in bytes (Linux's `PATH_MAX`). A longer word of a
/// command is not read as a path: it counts as matching every deny-side path rule.
pub const MAX_PATH_BYTES: usize = 4096;

/// True on systems whose file systems usually ignore case (macOS, Windows).
pub fn default_case_fold() -> bool {
    cfg!(any(target_os = "macos", target_os = "ios", windows))
}

fn error(msg: String) -> PathError {
    PathError(msg)
}

// ---------------------------------------------------------------------------
// Characters

/// Characters refused anywhere in a path or pattern: controls, and characters
/// that are invisible or change the direction of text, which would make the
/// path shown to the user differ from the path used.
fn forbidden(c: char) -> bool {
    matches!(
        c as u32,
        0x00..=0x1F
            | 0x7F..=0x9F
            | 0xAD
            | 0x061C
            | 0x180E
            | 0x200B..=0x200F
            | 0x2028..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x2069
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0xE0000..=0xE007F
    )
}

/// S for an error message: forbidden characters escaped, long text cut.
fn show(s: &str) -> String {
    const MAX: usize = 200;
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == MAX {
            out.push('…');
            break;
        }
        if forbidden(c) {
            out.push_str(&format!("\\u{{{:X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn check_text(s: &str, what: &str) -> Result<(), PathError> {
    if s.is_empty() {
        return Err(error(format!("empty {what}")));
    }
    if s.len() > MAX_PATH_BYTES {
        return Err(error(format!(
            "{what} is too long ({} bytes, at most {MAX_PATH_BYTES})",
            s.len()
        )));
    }
    if let Some(c) = s.chars().find(|&c| forbidden(c)) {
        let kind = if c == '\0' {
            "a NUL character".to_string()
        } else {
            format!("an invisible or control character U+{:04X}", c as u32)
        };
        return Err(error(format!("{what} `{}` contains {kind}", show(s))));
    }
    Ok(())
}

/// RAW as the kernel reads its slashes: each run of `/` is one (`~//.ssh` is `~/.ssh`).
/// For a word a shell hands to a program, which passes it to the kernel unchanged; never
/// for a file name Emacs reads, where `//` starts the name over.
pub fn kernel_slashes(raw: &str) -> std::borrow::Cow<'_, str> {
    if !raw.contains("//") {
        return raw.into();
    }
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out.into()
}

/// [`lexical`] of RAW, a word a shell hands to a program, as the kernel reads its slashes
/// (see [`kernel_slashes`]).
pub fn word_lexical(raw: &str, env: &PathEnv) -> Result<String, PathError> {
    lexical(&kernel_slashes(raw), env)
}

/// Refuse what `substitute-in-file-name` would read differently from
/// `expand-file-name`: `$` (variables), and `//` or `/~` after the start.
fn check_emacs_syntax(raw: &str) -> Result<(), PathError> {
    if raw.contains('$') {
        return Err(error(format!(
            "path `{}` contains `$`, which `substitute-in-file-name` expands",
            show(raw)
        )));
    }
    let b = raw.as_bytes();
    let lead = b.iter().take_while(|&&c| c == b'/').count();
    for i in lead.max(1)..b.len() {
        if b[i - 1] == b'/' && (b[i] == b'/' || b[i] == b'~') {
            return Err(error(format!(
                "path `{}` contains `/{}` after its start, where `substitute-in-file-name` \
                 starts the name over",
                show(raw),
                b[i] as char
            )));
        }
    }
    Ok(())
}

/// Lowercase every character, one at a time (no context rules, so that a path
/// and a pattern fold alike).
fn fold(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// Lowercase the non-ASCII characters of a glob; globset's `case_insensitive`
/// folds ASCII only, and leaving ASCII alone keeps ranges like `[A-z]` intact.
fn fold_glob(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Lexical form

/// RAW made absolute: `~` expanded, joined to the cwd when relative.
fn absolute(raw: &str, env: &PathEnv) -> Result<String, PathError> {
    check_text(raw, "path")?;
    check_emacs_syntax(raw)?;
    if let Some(after) = raw.strip_prefix('~') {
        let (user, rest) = match after.find('/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, ""),
        };
        let home = if user.is_empty() {
            env_home(env)?.to_string()
        } else {
            passwd_home(user).map_err(|e| error(format!("path `{}`: {e}", show(raw))))?
        };
        Ok(format!("{home}/{rest}"))
    } else if raw.starts_with('/') {
        Ok(raw.to_string())
    } else {
        match &env.cwd {
            Some(cwd) => Ok(format!("{}/{raw}", path_str(cwd, "working directory")?)),
            None => Err(error(format!(
                "relative path `{}` needs a working directory and none is known",
                show(raw)
            ))),
        }
    }
}

/// Collapse `.`, `..` (never above `/`) and empty components.
fn collapse<'a>(comps: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in comps {
        match c {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            c => out.push(c.to_string()),
        }
    }
    out
}

fn join(comps: &[String]) -> String {
    if comps.is_empty() {
        return "/".to_string();
    }
    let mut s = String::new();
    for c in comps {
        s.push('/');
        s.push_str(c);
    }
    s
}

/// The absolute path and its lexical components, TRAMP names refused.
fn lexical_parts(raw: &str, env: &PathEnv) -> Result<(String, Vec<String>), PathError> {
    let abs = absolute(raw, env)?;
    let lexical = collapse(abs.split('/'));
    let first_raw = abs.split('/').find(|c| !c.is_empty());
    for first in [first_raw, lexical.first().map(String::as_str)]
        .into_iter()
        .flatten()
    {
        if first.contains(':') {
            return Err(error(format!(
                "path `{}` names a remote or quoted file (`/{}` is TRAMP syntax)",
                show(raw),
                show(first)
            )));
        }
    }
    Ok((abs, lexical))
}

/// RAW expanded and collapsed as `expand-file-name` does, without following
/// symbolic links; case folded when the env says so. Refuses what
/// [`normalize`] refuses for its spelling (but does not touch the file system).
///
/// Useful beside [`normalize`]: a deny rule can match either form, so that a
/// pattern naming a symlink as written (`secrets/**` where `secrets` links
/// outside the cwd) still catches it.
pub fn lexical(raw: &str, env: &PathEnv) -> Result<String, PathError> {
    let (_, comps) = lexical_parts(raw, env)?;
    let s = join(&comps);
    Ok(if env.case_fold { fold(&s) } else { s })
}

// ---------------------------------------------------------------------------
// Symbolic links

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A path from a call: any file-system error other than "does not exist"
    /// refuses the path.
    Strict,
    /// A pattern's literal prefix: what cannot be inspected is kept as written.
    Lenient,
}

/// What one absolute name is, as [`resolve`] needs to know it.
#[derive(Clone)]
enum Node {
    /// A file or directory that is not a symbolic link.
    Plain,
    /// Nothing by that name (or a prefix is not a directory).
    Missing,
    /// A symbolic link and its target, or why the target cannot be read
    /// (never read for a /proc magic link).
    Link(Result<std::ffi::OsString, String>),
    /// The name cannot be inspected (permission denied, I/O error).
    Failed(String),
}

thread_local! {
    /// The names inspected in the current [`with_memo`] scope.
    static MEMO: RefCell<Option<HashMap<String, Node>>> = const { RefCell::new(None) };
    /// What [`realpath`] found for the names it was given in the current
    /// [`with_memo`] scope.
    static REAL: RefCell<Option<HashMap<String, Option<String>>>> = const { RefCell::new(None) };
    /// The file-system work left to the current decision (see [`with_budget`]):
    /// operations, and when its time ends.
    static BUDGET: std::cell::Cell<Option<(usize, Instant)>> = const { std::cell::Cell::new(None) };
}

/// Most file-system operations (`lstat`, `readlink`, directory entries read) one
/// decision may make.
pub const MAX_FS_OPS: usize = 4096;

/// Longest time one decision may spend on the file system.
pub const MAX_FS_TIME: Duration = Duration::from_millis(12);

/// Lookups a decision may always make, whatever the time: the time bound is for
/// decisions that look at many files, so that a busy machine does not turn a
/// decision of a few paths into a refusal.
pub const MIN_FS_OPS: usize = 512;

/// Why a file-system operation was refused: the decision's budget is spent.
pub const BUDGET_SPENT: &str = "the file-system budget of one decision is spent";

/// Run F as one decision: within it, the file system is inspected at most
/// [`MAX_FS_OPS`] times and for at most [`MAX_FS_TIME`]; past that, a path
/// that needs more is unreadable (never allowed; deny-side rules still see
/// its written and lexical forms). Also a [`with_memo`] scope.
pub fn with_budget<T>(f: impl FnOnce() -> T) -> T {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            if self.0 {
                BUDGET.with(|b| b.set(None));
            }
        }
    }
    let outermost = BUDGET.with(|b| {
        let outermost = b.get().is_none();
        if outermost {
            b.set(Some((MAX_FS_OPS, Instant::now() + MAX_FS_TIME)));
        }
        outermost
    });
    let _reset = Reset(outermost);
    with_memo(f)
}

/// Whether the current decision's file-system budget is spent.
pub fn budget_spent() -> bool {
    BUDGET.with(|b| b.get().is_some_and(|(left, _)| left == 0))
}

/// Spend N file-system operations of the current decision's budget; false when
/// it is spent (outside [`with_budget`], always true).
pub fn spend(n: usize) -> bool {
    BUDGET.with(|b| match b.get() {
        None => true,
        Some((left, until)) => {
            let used = MAX_FS_OPS - left;
            if left < n || (used >= MIN_FS_OPS && Instant::now() > until) {
                b.set(Some((0, until)));
                false
            } else {
                b.set(Some((left - n, until)));
                true
            }
        }
    })
}

/// Most names one [`with_memo`] scope remembers.
const MAX_MEMO: usize = 4096;

/// Run F with each name's inspection remembered: within F, the common
/// prefixes of many paths (the cwd, a project's directories) cost one
/// `lstat` each, and every path sees the same file system.
///
/// One call decision is one scope; nothing is remembered across them, so a
/// link changed between two calls is seen by the second.
pub fn with_memo<T>(f: impl FnOnce() -> T) -> T {
    let listed = || crate::scope::within(&glob_memo::LISTED, f);
    crate::scope::within(&MEMO, || crate::scope::within(&REAL, listed))
}

/// Inspect the absolute name PATH with `lstat` (and `readlink` for a link),
/// or take what the current [`with_memo`] scope already found.
fn inspect(path: &str) -> Node {
    if let Some(node) = MEMO.with(|m| m.borrow().as_ref().and_then(|m| m.get(path).cloned())) {
        return node;
    }
    if !spend(1) {
        return Node::Failed(BUDGET_SPENT.into());
    }
    let node = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Node::Link(if is_magic_link(path) {
            Err("a /proc link".into())
        } else {
            fs::read_link(path)
                .map(PathBuf::into_os_string)
                .map_err(|e| e.to_string())
        }),
        Ok(_) => Node::Plain,
        Err(e) if absent(&e) => Node::Missing,
        Err(e) => Node::Failed(e.to_string()),
    };
    MEMO.with(|m| {
        if let Some(m) = m.borrow_mut().as_mut() {
            if m.len() < MAX_MEMO {
                m.insert(path.to_string(), node.clone());
            }
        }
    });
    node
}

/// Whether something (a link included) is named PATH, by `lstat`, remembered for the
/// current [`with_memo`] scope as every name [`normalize`] inspects: git's repository
/// discovery asks for the same `.git` and `HEAD` of each directory above a command
/// many times in one decision. Err: it cannot be inspected (or the budget is spent).
pub fn lexists(path: &Path) -> Result<bool, String> {
    let Some(text) = path.to_str() else {
        return match fs::symlink_metadata(path) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e.to_string()),
        };
    };
    match inspect(text) {
        Node::Plain | Node::Link(_) => Ok(true),
        Node::Missing => Ok(false),
        Node::Failed(why) => Err(why),
    }
}

/// Follow every symbolic link along COMPS, like realpath(3), but keep the
/// components that do not exist as written. `..` applies to the resolved
/// prefix (physical), and lexically inside missing directories.
fn resolve<S: AsRef<str>>(comps: &[S], mode: Mode, raw: &str) -> Result<Vec<String>, PathError> {
    let mut pending: VecDeque<String> = comps.iter().map(|c| c.as_ref().to_string()).collect();
    let mut out: Vec<String> = Vec::new();
    // `cur` is `join(out)`; `ends[i]` is its length after `out[i]`.
    let mut cur = String::new();
    let mut ends: Vec<usize> = Vec::new();
    // Depth of the first component known not to exist (no lstat below it).
    let mut missing: Option<usize> = None;
    let mut hops = 0usize;

    while let Some(c) = pending.pop_front() {
        match c.as_str() {
            "" | "." => continue,
            ".." => {
                out.pop();
                ends.pop();
                cur.truncate(ends.last().copied().unwrap_or(0));
                if missing.is_some_and(|d| out.len() < d) {
                    missing = None;
                }
                continue;
            }
            _ => {}
        }
        cur.push('/');
        cur.push_str(&c);
        out.push(c);
        ends.push(cur.len());
        if missing.is_some() {
            continue;
        }
        match inspect(&cur) {
            Node::Link(target) => {
                if is_magic_link(&cur) {
                    if mode == Mode::Strict {
                        return Err(error(format!(
                            "path `{}` goes through `{}`, a /proc link whose target is not a path",
                            show(raw),
                            show(&cur)
                        )));
                    }
                    missing = Some(out.len());
                    continue;
                }
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Err(error(format!(
                        "path `{}`: too many levels of symbolic links (more than {MAX_SYMLINK_HOPS})",
                        show(raw)
                    )));
                }
                let target = match target {
                    Ok(t) => t,
                    Err(e) if mode == Mode::Strict => {
                        return Err(error(format!(
                            "path `{}`: cannot read symbolic link `{}`: {e}",
                            show(raw),
                            show(&cur)
                        )));
                    }
                    Err(_) => {
                        missing = Some(out.len());
                        continue;
                    }
                };
                let target = target.into_string().map_err(|t| {
                    error(format!(
                        "path `{}`: symbolic link `{}` points to a name that is not UTF-8 ({})",
                        show(raw),
                        show(&cur),
                        t.to_string_lossy()
                    ))
                })?;
                if target.is_empty() {
                    return Err(error(format!(
                        "path `{}`: symbolic link `{}` is empty",
                        show(raw),
                        show(&cur)
                    )));
                }
                out.pop();
                ends.pop();
                if target.starts_with('/') {
                    out.clear();
                    ends.clear();
                }
                cur.truncate(ends.last().copied().unwrap_or(0));
                for part in target.split('/').rev() {
                    pending.push_front(part.to_string());
                }
            }
            Node::Plain => {}
            Node::Missing => {
                missing = Some(out.len());
            }
            Node::Failed(e) => {
                if mode == Mode::Strict {
                    return Err(error(format!(
                        "path `{}`: cannot inspect `{}`: {e}",
                        show(raw),
                        show(&cur)
                    )));
                }
                missing = Some(out.len());
            }
        }
    }
    Ok(out)
}

/// The absolute name ABS with every symbolic link resolved, when it names
/// an existing file: `realpath(3)`, through the current [`with_memo`] scope.
pub fn realpath(abs: &str) -> Option<String> {
    if let Some(real) = REAL.with(|m| m.borrow().as_ref().and_then(|m| m.get(abs).cloned())) {
        return real;
    }
    let real = realpath_uncached(abs);
    REAL.with(|m| {
        if let Some(m) = m.borrow_mut().as_mut() {
            if m.len() < MAX_MEMO {
                m.insert(abs.to_string(), real.clone());
            }
        }
    });
    real
}

fn realpath_uncached(abs: &str) -> Option<String> {
    let comps: Vec<&str> = abs.split('/').collect();
    if let Ok(out) = resolve(&comps, Mode::Strict, abs) {
        let real = join(&out);
        match inspect(&real) {
            Node::Plain => return Some(real),
            Node::Missing | Node::Failed(_) => return None,
            // A /proc link the kernel follows to an open object.
            Node::Link(_) => {}
        }
    }
    fs::canonicalize(abs)
        .ok()
        .and_then(|p| p.into_os_string().into_string().ok())
}

/// A symbolic link under `/proc` other than `/proc/self` and
/// `/proc/thread-self`: `fd/N`, `cwd`, `root`, `exe`, `map_files/...` are
/// "magic" links that the kernel follows to an open object, which may be a
/// pipe, a deleted file or a file in another mount namespace; their text is
/// not a path to resolve. (`/dev/fd`, `/dev/stdin` lead here.)
fn is_magic_link(link: &str) -> bool {
    link.starts_with("/proc/") && link != "/proc/self" && link != "/proc/thread-self"
}

// ---------------------------------------------------------------------------
// Public path functions

/// Normalize RAW: expand `~`/`~user`, make absolute against the cwd, collapse
/// `.`/`..`/`//`, resolve symlinks along the longest existing prefix, fold case.
///
/// The result is absolute, without a trailing slash (`/` stays `/`). See the
/// module documentation for what is refused.
pub fn normalize(raw: &str, env: &PathEnv) -> Result<String, PathError> {
    let (abs, lexical) = lexical_parts(raw, env)?;
    normalize_parts(raw, env, abs, &lexical)
}

/// RAW as the kernel reads it, links resolved before each `..` (`lnk/../x` is `x` in
/// the parent of `lnk`'s target), even where [`normalize`] refuses it as ambiguous.
pub fn physical(raw: &str, env: &PathEnv) -> Option<String> {
    let (abs, _) = lexical_parts(raw, env).ok()?;
    let comps: Vec<&str> = abs.split('/').collect();
    let s = join(&resolve(&comps, Mode::Strict, raw).ok()?);
    Some(if env.case_fold { fold(&s) } else { s })
}

/// ABS, an absolute path a shell handed on, as the kernel reads it: every character
/// literal (a `~` anywhere, a `$`, a `:` are plain), runs of `/` one, links resolved
/// before each `..`. None for a relative ABS or one the file system refuses to show.
pub fn kernel_literal(abs: &str, env: &PathEnv) -> Option<String> {
    if !abs.starts_with('/') {
        return None;
    }
    let comps: Vec<&str> = abs.split('/').collect();
    let s = join(&resolve(&comps, Mode::Strict, abs).ok()?);
    Some(if env.case_fold { fold(&s) } else { s })
}

/// [`normalize`] and [`lexical`] of RAW, its spelling read once for both.
pub fn normalize_and_lexical(
    raw: &str,
    env: &PathEnv,
) -> (Result<String, PathError>, Result<String, PathError>) {
    match lexical_parts(raw, env) {
        Ok((abs, lexical)) => {
            let normal = normalize_parts(raw, env, abs, &lexical);
            let s = join(&lexical);
            (normal, Ok(if env.case_fold { fold(&s) } else { s }))
        }
        Err(e) => (Err(e.clone()), Err(e)),
    }
}

/// [`normalize`] of RAW, whose absolute spelling is ABS and lexical
/// components LEXICAL.
fn normalize_parts(
    raw: &str,
    env: &PathEnv,
    abs: String,
    lexical: &[String],
) -> Result<String, PathError> {
    let process_file = |comps: &[String]| {
        // Only a path through `/proc` or `/dev` reaches a process's files
        // (what `walk` answers at once for the others, without its copies).
        if !comps.iter().any(|c| c == "proc" || c == "dev") {
            return Ok(());
        }
        let comps: Vec<&str> = comps.iter().map(String::as_str).collect();
        if forms::walk(&comps, None, false).0 != Process::Outside {
            Err(error(format!(
                "path `{}` names a file of a running process (`/{}`), which depends on the \
                 process that opens it",
                show(raw),
                show(&comps.iter().take(2).copied().collect::<Vec<_>>().join("/"))
            )))
        } else {
            Ok(())
        }
    };
    process_file(lexical)?;
    let raw_comps: Vec<&str> = abs.split('/').collect();
    // `/dev/fd/../cwd/x`: the kernel follows `/dev/fd` before `..`.
    if raw_comps.iter().any(|c| *c == "proc" || *c == "dev") {
        process_file(&raw_comps.iter().map(|c| c.to_string()).collect::<Vec<_>>())?;
    }
    let physical = resolve(&raw_comps, Mode::Strict, raw)?;
    // A link that leads into `/proc` (`lnk -> /dev/fd`).
    process_file(&physical)?;
    if raw_comps.contains(&"..") {
        let via_lexical = resolve(lexical, Mode::Strict, raw)?;
        if via_lexical != physical {
            return Err(error(format!(
                "path `{}` is ambiguous: `..` after a symbolic link means `{}` to the kernel \
                 but `{}` to Emacs",
                show(raw),
                show(&join(&physical)),
                show(&join(&via_lexical))
            )));
        }
    }
    let s = join(&physical);
    Ok(if env.case_fold { fold(&s) } else { s })
}

/// Normalize DIR, a directory given in a rule (`:path-outside`, `:cwd`): it
/// must be absolute or start with `~`, and is resolved like [`normalize`].
/// Normalize the call's cwd with this too before [`relative_to`].
pub fn normalize_dir(dir: &str, env: &PathEnv) -> Result<String, PathError> {
    if !(dir.starts_with('/') || dir.starts_with('~')) {
        return Err(error(format!(
            "directory `{}` must be absolute or start with `~`",
            show(dir)
        )));
    }
    normalize(dir, env)
}

/// True when normalized PATH is DIR or lies inside it, by whole components.
///
/// Both must come from [`normalize`]/[`normalize_dir`] with the same env.
pub fn is_within(path: &str, dir: &str) -> bool {
    if !path.starts_with('/') || !dir.starts_with('/') {
        return false;
    }
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() {
        return true; // DIR is `/`.
    }
    path == dir || (path.starts_with(dir) && path.as_bytes().get(dir.len()) == Some(&b'/'))
}

/// PATH relative to CWD when it lies inside it (`""` for CWD itself).
///
/// Both must be normalized with the same env (`normalize_dir` for the cwd).
pub fn relative_to<'a>(path: &'a str, cwd: &str) -> Option<&'a str> {
    if !is_within(path, cwd) {
        return None;
    }
    let len = cwd.trim_end_matches('/').len();
    path.get(len..).map(|rest| rest.trim_start_matches('/'))
}
