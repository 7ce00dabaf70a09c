//! The confinement of one call ([`Confinement`]): a spec resolved against
//! the call ([`SandboxEnv`]), and several rules' confinements combined.

use super::{exists, path_error, resolve_path, show, within, Result, MAX_COMPONENTS};
use crate::rule::sandbox::unusable;
use crate::rule::SandboxSpec;
use serde_json::{json, Value as Json};
use std::fs;

/// Most directory entries looked at for sockets to hide, per call.
const MAX_SOCKET_ENTRIES: usize = 4096;

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
    /// The host's Unix-domain sockets covered because the network is off
    /// ([`sockets_under`]): kept apart from `hide` so that descriptions
    /// count them rather than list them.
    pub sockets: Vec<String>,
    /// Whether the command may use the network.
    pub network: bool,
}

impl Confinement {
    /// Make SPEC concrete for the call described by ENV.
    ///
    /// `deny_literals` are the literal paths of the deny rules' `:path`
    /// patterns ([`literal_paths`](super::literal_paths), as written); they are the hidden paths when
    /// the spec gives no `:hide`. Of those, only paths that exist are hidden,
    /// and never `/` nor a directory that holds the request's directory (the
    /// command could not run at all): a rule denying `~/**` hides nothing
    /// from a command run in `~/proj`. An explicit `:hide` is taken as given,
    /// and one that holds the command's directory makes building the command
    /// fail ([`SandboxError::CwdHidden`](super::SandboxError::CwdHidden)).
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
        let hide: Vec<String> = match &spec.hide {
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
        let sockets = if spec.network {
            Vec::new()
        } else {
            let dirs: Vec<&str> = env.socket_dirs.iter().map(String::as_str).collect();
            sockets_under(&dirs, MAX_SOCKET_ENTRIES)
        };
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
            sockets,
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
            sockets: union(&self.sockets, &other.sockets),
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
        // A socket inside a hidden path is covered with it.
        let sockets = outermost(self.sockets)
            .into_iter()
            .filter(visible)
            .collect();
        Confinement {
            write,
            read_only,
            private,
            hide,
            sockets,
            network: self.network,
        }
    }

    /// The confinement for the log, explain and the JSON-lines file:
    /// `{"write": [...], "read-only": [...], "private": [...], "hide": [...],
    /// "sockets": [...], "network": false}`.
    pub fn to_json(&self) -> Json {
        json!({
            "write": self.write,
            "read-only": self.read_only,
            "private": self.private,
            "hide": self.hide,
            "sockets": self.sockets,
            "network": self.network,
        })
    }

    /// The confinement as one line for the log and the ask prompt, with HOME
    /// shown as `~`: ``write ~/proj; read-only ~/proj/.git; private /tmp;
    /// hide ~/.ssh, ~/.aws; no network``, with `(3 host sockets covered)`
    /// after `no network` when there are such.
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
        parts.push(match (self.network, self.sockets.len()) {
            (true, _) => "network".to_string(),
            (false, 0) => "no network".to_string(),
            (false, 1) => "no network (1 host socket covered)".to_string(),
            (false, n) => format!("no network ({n} host sockets covered)"),
        });
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
