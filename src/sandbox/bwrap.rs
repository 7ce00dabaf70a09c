//! The bubblewrap program ([`Sandbox`]) and the words that run a command
//! under a [`Confinement`]: for a command line ([`Sandbox::wrap_line`]) and
//! for an argv list ([`Sandbox::wrap_argv`]).

use super::confine::Confinement;
use super::{exists, path_error, resolve_path, show, within, Result, SandboxError};
use std::cell::RefCell;
use std::fs;
use std::io;
use std::path::Path;
use std::process::{Command, Stdio};

/// The bubblewrap program's default name (`gptel-rust-hooks-sandbox-program`).
pub const DEFAULT_PROGRAM: &str = "bwrap";

/// Most located programs [`Sandbox::cached`] keeps.
const MAX_KEPT: usize = 4;

/// The first bubblewrap release with `--disable-userns` (0.8.0).
const DISABLE_USERNS_SINCE: (u32, u32, u32) = (0, 8, 0);

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
            sockets: Vec::new(),
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

    /// [`Sandbox::locate`] and [`Sandbox::probe`] NAME in DIRS, once: a
    /// program that passed the probe is kept for the next call with the same
    /// NAME and DIRS (at most a few are kept); a failure is not kept, so that
    /// installing bubblewrap needs no restart.
    pub fn cached(name: &str, dirs: &[String]) -> Result<Sandbox> {
        thread_local! {
            static KEPT: RefCell<Vec<(String, Vec<String>, Sandbox)>> =
                const { RefCell::new(Vec::new()) };
        }
        let hit = KEPT.with(|kept| {
            kept.borrow()
                .iter()
                .find(|(n, d, _)| n == name && d == dirs)
                .map(|(_, _, s)| s.clone())
        });
        if let Some(sandbox) = hit {
            return Ok(sandbox);
        }
        let sandbox = Sandbox::locate(name, dirs)?.probe()?;
        KEPT.with(|kept| {
            let mut kept = kept.borrow_mut();
            if kept.len() >= MAX_KEPT {
                kept.remove(0);
            }
            kept.push((name.to_string(), dirs.to_vec(), sandbox.clone()));
        });
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
        let mut hides: Vec<&String> = conf.hide.iter().chain(&conf.sockets).collect();
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

/// Shells known to read a command line as POSIX `sh` does: the names
/// [`Sandbox::wrap_line`]'s quoting is written for.
pub const POSIX_SHELLS: &[&str] = &[
    "sh", "bash", "dash", "ash", "zsh", "ksh", "ksh93", "mksh", "pdksh", "yash", "posh", "busybox",
];

/// Ok when SHELL (a name or a path, as `shell-file-name` gives it) is one of
/// [`POSIX_SHELLS`]: a command line wrapped for it is read back as written.
pub fn posix_shell(shell: &str) -> Result<()> {
    let name = shell.rsplit('/').next().unwrap_or(shell);
    if POSIX_SHELLS.contains(&name) {
        Ok(())
    } else {
        Err(SandboxError::NotPosixShell {
            shell: shell.to_string(),
        })
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
