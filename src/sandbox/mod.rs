//! Sandboxed calls: a rule's `:sandbox`, the confinement of one call, and the
//! bubblewrap command that applies it (DESIGN.md, "Sandboxed calls").
//!
//! The stages, in the order a call meets them:
//!
//! 1. [`SandboxSpec`] (`rule/sandbox.rs`, read with the rule): what a rule wrote, `t` or
//!    `(:write DIRS :hide PATHS :network BOOL)`, read by [`SandboxSpec::from_value`].
//!    Directories are as written (`.`, `~/x`, `build`).
//! 2. [`Confinement::resolve`] (`confine.rs`): one spec made concrete for one call, against
//!    the call's [`SandboxEnv`] (the request's directory, the home, the
//!    temporary directory): absolute paths with symbolic links resolved. The
//!    default hidden paths come from the deny rules' `:path` patterns, through
//!    [`literal_paths`] (`rule/sandbox.rs`).
//! 3. [`Confinement::strictest`]: several matching rules' confinements made
//!    into one, the strictest: writable only where every rule lets a command
//!    write, hidden what any rule hides, network only if all allow it.
//! 4. [`Sandbox`] (`bwrap.rs`): the located bubblewrap program, and the words that run a
//!    command under a confinement: [`Sandbox::wrap_line`] for a command line
//!    (a new line that a POSIX shell reads as `bwrap ARGS... -- SHELL -c
//!    'LINE'`, so the confined shell gets exactly LINE) and
//!    [`Sandbox::wrap_argv`] for a command given as a list of words.
//! 5. [`plan()`] (`plan.rs`): the above for one decided call: the matching
//!    rules' specs, resolved against the call's [`SandboxContext`] and
//!    combined, and each command argument of the call wrapped; whatever
//!    fails becomes the reason the caller blocks the call with.
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

mod bwrap;
mod confine;
mod plan;

pub use crate::rule::{literal_paths, SandboxSpec, SPEC_KEYS};
pub use bwrap::{posix_shell, shell_quote, Sandbox, DEFAULT_PROGRAM, POSIX_SHELLS};
pub use confine::{sockets_under, Confinement, SandboxEnv};
pub use plan::{
    plan, rewrap, Plan, SandboxContext, SandboxResult, Sandboxing, Wrapped, WORKING_DIRECTORY_KEYS,
};

use crate::error::show;
use std::fmt;
use std::fs;

/// Most components a sandbox path may have; longer paths are refused.
const MAX_COMPONENTS: usize = 1024;

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
    /// The shell that would read a confined command line is not a POSIX shell.
    NotPosixShell {
        /// The shell, as configured (`shell-file-name`).
        shell: String,
    },
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
            SandboxError::NotPosixShell { shell } => write!(
                f,
                "cannot sandbox the call: its command line would be read by `{}` \
                 (`shell-file-name`), which is not a POSIX shell; set `shell-file-name` to \
                 /bin/sh or bash",
                show(shell)
            ),
        }
    }
}

impl std::error::Error for SandboxError {}

/// Shorthand for results whose error is [`SandboxError`].
pub type Result<T> = std::result::Result<T, SandboxError>;

fn path_error(path: &str, why: impl Into<String>) -> SandboxError {
    SandboxError::Path {
        path: path.to_string(),
        why: why.into(),
    }
}

// ---------------------------------------------------------------------------
// Paths

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
