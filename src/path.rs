//! Path normalization, containment and gitignore-like path globs.
//!
//! INTERFACE (fixed; the implementation is being written):

use std::path::PathBuf;

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

/// Normalize RAW: expand `~`/`~user`, make absolute against the cwd, collapse
/// `.`/`..`/`//`, resolve symlinks along the longest existing prefix, fold case.
pub fn normalize(raw: &str, env: &PathEnv) -> Result<String, PathError> {
    let _ = env;
    Err(PathError(format!("stub: `{raw}`")))
}

/// True when normalized PATH is DIR or lies inside it, by whole components.
pub fn is_within(path: &str, dir: &str) -> bool {
    path == dir || (path.starts_with(dir) && path[dir.len()..].starts_with('/'))
}

/// A path pattern in its compiled glob form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathPattern {
    /// Matched against the normalized absolute path.
    Absolute(String),
    /// Matched against the path relative to the call's cwd (when inside it).
    CwdRelative(String),
}

/// Translate a user's gitignore-like pattern into a `globset` glob string.
pub fn parse_pattern(
    pattern: &str,
    home: Option<&std::path::Path>,
) -> Result<PathPattern, PathError> {
    let _ = home;
    Err(PathError(format!("stub: `{pattern}`")))
}

/// PATH relative to CWD when it lies inside it.
pub fn relative_to<'a>(path: &'a str, cwd: &str) -> Option<&'a str> {
    if is_within(path, cwd) {
        Some(path[cwd.len()..].trim_start_matches('/'))
    } else {
        None
    }
}

/// Normalize a directory named in a rule (absolute or `~`), at compile time.
pub fn normalize_dir(dir: &str, env: &PathEnv) -> Result<String, PathError> {
    normalize(dir, env)
}

/// True on systems whose file systems usually ignore case.
pub fn default_case_fold() -> bool {
    cfg!(any(target_os = "macos", target_os = "windows"))
}

/// Argument keys that hold paths, by default.
pub const DEFAULT_PATH_KEYS: &[&str] = &[
    "path",
    "file",
    "file_path",
    "filepath",
    "filename",
    "directory",
    "dir",
    "target",
    "source",
    "destination",
];

/// Argument keys that hold shell command lines, by default.
pub const DEFAULT_COMMAND_KEYS: &[&str] = &["command", "cmd", "script"];
