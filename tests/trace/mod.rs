//! Run a command for real, in a sandbox, under `strace -f`, and read back what it did.
//!
//! Shared by `tests/programs_real.rs` (the program table verified against the real
//! programs) and `tests/measure_corpus.rs` (`make measure`).
//!
//! - `bwrap` with the host's root read-only, fresh `/dev` and `/proc`, a private `/tmp`,
//!   every namespace unshared (no network), and one scratch directory bound writable at
//!   its own path, so that paths inside the sandbox are paths outside it too (the engine
//!   reads them on the host, before the run).
//! - Inside, `strace -f -y` runs the command with a clean environment (`HOME`, `PATH`,
//!   `LANG=C.UTF-8`, `TMPDIR`, and `GIT_CEILING_DIRECTORIES` at the scratch, so that git
//!   never finds the checkout the tests run in), stdin from `/dev/null`, under a deadline.
//! - The trace is read into [`Event`]s: each program executed, each file opened (read,
//!   write, create, directory), removed, made, renamed, linked or changed, with absolute,
//!   lexically collapsed paths. A relative path is resolved against the process's
//!   directory: strace's `-y` shows it on every `AT_FDCWD`, `chdir` moves it, a child
//!   inherits its parent's.

#![allow(dead_code)]

pub mod work;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a process did to a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// `execve`: the path of the program.
    Exec,
    /// Opened for reading only (a directory included).
    Read,
    /// Opened for writing (`O_WRONLY`, `O_RDWR`, `O_CREAT`, `O_TRUNC`, `O_APPEND`).
    Write,
    /// `unlink`, `unlinkat`.
    Unlink,
    /// `rmdir`, `unlinkat(AT_REMOVEDIR)`.
    Rmdir,
    Mkdir,
    /// The source of a rename (the destination is a [`Op::RenameTo`] event).
    RenameFrom,
    RenameTo,
    /// The new name of a hard or symbolic link.
    Link,
    Chmod,
    Truncate,
    Chdir,
}

impl Op {
    /// Whether the operation changes the file system.
    pub fn changes(self) -> bool {
        !matches!(self, Op::Exec | Op::Read | Op::Chdir)
    }
}

/// One system call that named a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub pid: u32,
    pub op: Op,
    /// Absolute, `.` and `..` collapsed without following links.
    pub path: String,
    /// The call succeeded.
    pub ok: bool,
    /// For [`Op::Exec`]: the argv.
    pub argv: Vec<String>,
}

/// What one run did.
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub status: i32,
    pub timed_out: bool,
    pub events: Vec<Event>,
    /// The first bytes of stderr.
    pub stderr: String,
}

/// A scratch directory bound writable into the sandbox at its own path.
pub struct Scratch {
    pub root: PathBuf,
    out: PathBuf,
}

impl Scratch {
    /// A new, empty scratch directory under the target's temporary directory.
    pub fn new(name: &str) -> Scratch {
        assert!(
            Path::new("/usr/bin/bwrap").exists(),
            "the real-program tests need bubblewrap (/usr/bin/bwrap; `make deps`)"
        );
        assert!(
            Path::new("/usr/bin/strace").exists(),
            "the real-program tests need strace (/usr/bin/strace; `make deps`)"
        );
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let base = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("trace-{name}-{}-{k}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("s");
        let out = base.join("out");
        std::fs::create_dir_all(&root).expect("create the scratch directory");
        std::fs::create_dir_all(&out).expect("create the trace directory");
        Scratch { root, out }
    }

    /// Run ARGV in the sandbox, in directory CWD (inside the scratch), with HOME, for at
    /// most SECONDS. `/tmp` (and `TMPDIR`) is a private, empty directory, or directory TMP
    /// of the scratch when given.
    pub fn run(
        &self,
        argv: &[&str],
        cwd: &Path,
        home: &Path,
        tmp: Option<&Path>,
        seconds: u64,
    ) -> Run {
        let trace = self.out.join("trace");
        let _ = std::fs::remove_file(&trace);
        let root = self.root.to_string_lossy().into_owned();
        let out = self.out.to_string_lossy().into_owned();
        let mut cmd = Command::new("/usr/bin/bwrap");
        cmd.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
        match tmp {
            Some(dir) => cmd.arg("--bind").arg(dir).arg("/tmp"),
            None => cmd.args(["--tmpfs", "/tmp"]),
        };
        let env = [
            ("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"),
            ("LANG", "C.UTF-8"),
            ("TMPDIR", "/tmp"),
            ("USER", "user"),
            ("GIT_CONFIG_NOSYSTEM", "1"),
            // As in an agent's environment (Emacs sets it): make's `$(shell ...)` in a
            // variable given on its command line runs only with it.
            ("SHELL", "/bin/bash"),
        ];
        cmd.args(["--bind", &root, &root, "--bind", &out, &out])
            .args(["--unshare-all", "--die-with-parent", "--new-session"])
            .arg("--chdir")
            .arg(cwd)
            .arg("--clearenv")
            .args(["--setenv", "HOME"])
            .arg(home);
        for (k, v) in env {
            cmd.args(["--setenv", k, v]);
        }
        // git looks for a repository no higher than the scratch: the checkout the tests
        // run in (their scratch is below its `target/`) is no repository of the run's.
        let ceiling = self.root.parent().unwrap_or(&self.root);
        cmd.args(["--setenv", "GIT_CEILING_DIRECTORIES"])
            .arg(ceiling);
        cmd.args(["/usr/bin/strace", "-f", "-qq", "-y", "-s", "4096"])
            .args(["-e", "signal=none", "-e", TRACED, "-o"])
            .arg(&trace)
            .arg("--")
            .args(argv)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start bwrap");
        let mut err = child.stderr.take().expect("stderr");
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut buf = Vec::new();
            let _ = (&mut err).take(4096).read_to_end(&mut buf);
            let _ = std::io::copy(&mut err, &mut std::io::sink());
            buf
        });
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let mut timed_out = false;
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if Instant::now() > deadline => {
                    timed_out = true;
                    let _ = child.kill();
                    break child.wait().expect("wait for bwrap");
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => panic!("wait for bwrap: {e}"),
            }
        };
        let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
        let text = std::fs::read(&trace).unwrap_or_default();
        let first_cwd = cwd.to_string_lossy().into_owned();
        Run {
            status: status.code().unwrap_or(-1),
            timed_out,
            events: parse_trace(&String::from_utf8_lossy(&text), &first_cwd),
            stderr,
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(base) = self.root.parent() {
            make_writable(base);
            let _ = std::fs::remove_dir_all(base);
        }
    }
}

/// Give every directory under DIR its owner's write and search bits (a run may have
/// taken them away), so that it can be removed.
pub fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return;
    };
    if !meta.is_dir() {
        return;
    }
    let _ = std::fs::set_permissions(
        dir,
        std::fs::Permissions::from_mode(meta.permissions().mode() | 0o700),
    );
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            make_writable(&e.path());
        }
    }
}

#[path = "../common/git.rs"]
pub mod repo;
pub use repo::git;

const TRACED: &str =
    "trace=execve,execveat,open,openat,openat2,creat,unlink,unlinkat,rmdir,mkdir,mkdirat,\
rename,renameat,renameat2,link,linkat,symlink,symlinkat,chmod,fchmodat,truncate,chdir,fchdir,\
clone,clone3,fork,vfork";

/// Collapse `.` and `..` of absolute path P without following links.
pub fn collapse(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}

/// P made absolute against DIR, collapsed.
pub fn absolute(dir: &str, p: &str) -> String {
    if p.starts_with('/') {
        collapse(p)
    } else {
        collapse(&format!("{dir}/{p}"))
    }
}

/// Read a strace `-f -y` log. FIRST_CWD is the directory of the first process.
pub fn parse_trace(text: &str, first_cwd: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let mut cwd: HashMap<u32, String> = HashMap::new();
    let mut pending: HashMap<u32, String> = HashMap::new();
    for raw in text.lines() {
        let Some((pid, rest)) = raw.split_once(' ') else {
            continue;
        };
        let Ok(pid) = pid.trim().parse::<u32>() else {
            continue;
        };
        let rest = rest.trim_start();
        // `<unfinished ...>` / `<... NAME resumed>`: join the halves.
        let line = if let Some(head) = rest.strip_suffix(" <unfinished ...>") {
            pending.insert(pid, head.to_string());
            continue;
        } else if let Some(tail) = rest.strip_prefix("<... ") {
            let Some(head) = pending.remove(&pid) else {
                continue;
            };
            let tail = tail.split_once(" resumed>").map_or("", |(_, t)| t);
            format!("{head}{tail}")
        } else {
            rest.to_string()
        };
        if !cwd.contains_key(&pid) {
            // A new process: the directory of the one whose fork is under way.
            let parent = pending
                .iter()
                .find(|(_, h)| ["clone", "fork", "vfork"].iter().any(|c| h.starts_with(c)))
                .and_then(|(p, _)| cwd.get(p).cloned());
            cwd.insert(pid, parent.unwrap_or_else(|| first_cwd.to_string()));
        }
        let here = cwd.get(&pid).cloned().unwrap_or_default();
        if let Some(call) = Call::parse(&line) {
            call.events(pid, &here, &mut cwd, &mut events);
        }
    }
    events
}

/// One system call line: name, arguments, return value.
struct Call {
    name: String,
    args: Vec<String>,
    ret: String,
}

impl Call {
    fn parse(line: &str) -> Option<Call> {
        let open = line.find('(')?;
        let name = line[..open].to_string();
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        let (args, rest) = split_args(&line[open + 1..]);
        let ret = rest
            .split_once('=')
            .map_or("", |(_, r)| r)
            .trim()
            .to_string();
        Some(Call { name, args, ret })
    }

    fn ok(&self) -> bool {
        !self.ret.starts_with('-') && !self.ret.is_empty() && !self.ret.starts_with('?')
    }

    /// The directory a `*at` call's DIRFD argument names, else HERE.
    fn dir(&self, i: usize, here: &str) -> String {
        self.args
            .get(i)
            .and_then(|a| fd_path(a))
            .unwrap_or_else(|| here.to_string())
    }

    fn path(&self, i: usize, dir: &str) -> Option<String> {
        let s = unquote(self.args.get(i)?)?;
        Some(absolute(dir, &s))
    }

    fn events(&self, pid: u32, here: &str, cwd: &mut HashMap<u32, String>, out: &mut Vec<Event>) {
        let ok = self.ok();
        let mut push = |op: Op, path: Option<String>, argv: Vec<String>| {
            if let Some(path) = path {
                out.push(Event {
                    pid,
                    op,
                    path,
                    ok,
                    argv,
                });
            }
        };
        // Keep the process's directory as strace shows it.
        for a in &self.args {
            if let Some(d) = a
                .strip_prefix("AT_FDCWD<")
                .and_then(|d| d.strip_suffix('>'))
            {
                cwd.insert(pid, d.to_string());
            }
        }
        let here = cwd.get(&pid).cloned().unwrap_or_else(|| here.to_string());
        let here = here.as_str();
        match self.name.as_str() {
            "execve" => push(Op::Exec, self.path(0, here), self.argv(1)),
            "execveat" => push(Op::Exec, self.path(1, &self.dir(0, here)), self.argv(2)),
            "open" => push(open_op(self.args.get(1)), self.path(0, here), Vec::new()),
            "creat" => push(Op::Write, self.path(0, here), Vec::new()),
            "openat" | "openat2" => {
                let op = open_op(self.args.get(2));
                push(op, self.path(1, &self.dir(0, here)), Vec::new())
            }
            "unlink" => push(Op::Unlink, self.path(0, here), Vec::new()),
            "rmdir" => push(Op::Rmdir, self.path(0, here), Vec::new()),
            "unlinkat" => {
                let dir = self.args.get(2).is_some_and(|f| f.contains("AT_REMOVEDIR"));
                push(
                    if dir { Op::Rmdir } else { Op::Unlink },
                    self.path(1, &self.dir(0, here)),
                    Vec::new(),
                )
            }
            "mkdir" => push(Op::Mkdir, self.path(0, here), Vec::new()),
            "mkdirat" => push(Op::Mkdir, self.path(1, &self.dir(0, here)), Vec::new()),
            "rename" => {
                push(Op::RenameFrom, self.path(0, here), Vec::new());
                push(Op::RenameTo, self.path(1, here), Vec::new());
            }
            "renameat" | "renameat2" => {
                push(Op::RenameFrom, self.path(1, &self.dir(0, here)), Vec::new());
                push(Op::RenameTo, self.path(3, &self.dir(2, here)), Vec::new());
            }
            "link" | "symlink" => push(Op::Link, self.path(1, here), Vec::new()),
            "linkat" => push(Op::Link, self.path(3, &self.dir(2, here)), Vec::new()),
            "symlinkat" => push(Op::Link, self.path(2, &self.dir(1, here)), Vec::new()),
            "chmod" | "truncate" => {
                let op = if self.name == "chmod" {
                    Op::Chmod
                } else {
                    Op::Truncate
                };
                push(op, self.path(0, here), Vec::new())
            }
            "fchmodat" => push(Op::Chmod, self.path(1, &self.dir(0, here)), Vec::new()),
            "chdir" => {
                let to = self.path(0, here);
                if ok {
                    if let Some(to) = &to {
                        cwd.insert(pid, to.clone());
                    }
                }
                push(Op::Chdir, to, Vec::new())
            }
            "fchdir" => {
                if let Some(d) = self.args.first().and_then(|a| fd_path(a)) {
                    if ok {
                        cwd.insert(pid, d.clone());
                    }
                    push(Op::Chdir, Some(d), Vec::new())
                }
            }
            "clone" | "clone3" | "fork" | "vfork" => {
                if let Some(child) = self
                    .ret
                    .split_whitespace()
                    .next()
                    .and_then(|r| r.parse::<u32>().ok())
                {
                    cwd.entry(child).or_insert_with(|| here.to_string());
                }
            }
            _ => {}
        }
    }

    fn argv(&self, i: usize) -> Vec<String> {
        let Some(list) = self.args.get(i) else {
            return Vec::new();
        };
        let inner = list.trim().trim_start_matches('[').trim_end_matches(']');
        let (items, _) = split_args(&format!("{inner})"));
        items.iter().filter_map(|s| unquote(s)).collect()
    }
}

/// The operation of an `open` with FLAGS.
fn open_op(flags: Option<&String>) -> Op {
    let f = flags.map_or("", |s| s.as_str());
    if ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"]
        .iter()
        .any(|w| f.contains(w))
    {
        Op::Write
    } else {
        Op::Read
    }
}

/// The path strace `-y` shows for a descriptor argument (`3</a/b>`, `AT_FDCWD</a>`).
fn fd_path(arg: &str) -> Option<String> {
    let start = arg.find('<')?;
    let end = arg.rfind('>')?;
    (end > start).then(|| arg[start + 1..end].to_string())
}

/// Split S, the text after a call's `(`, into its top-level arguments; also return what
/// follows the closing `)`.
fn split_args(s: &str) -> (Vec<String>, &str) {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        if in_str {
            cur.push(c);
            if c == '\\' {
                if let Some((_, n)) = chars.next() {
                    cur.push(n);
                }
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                cur.push(c);
            }
            '[' | '{' | '(' | '<' => {
                depth += 1;
                cur.push(c);
            }
            ']' | '}' | '>' if depth > 0 => {
                depth -= 1;
                cur.push(c);
            }
            ')' if depth > 0 => {
                depth -= 1;
                cur.push(c);
            }
            ')' => {
                if !cur.trim().is_empty() {
                    args.push(cur.trim().to_string());
                }
                return (args, &s[i + 1..]);
            }
            ',' if depth == 0 => {
                args.push(cur.trim().to_string());
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        args.push(cur.trim().to_string());
    }
    (args, "")
}

/// The text of a strace string argument (`"a\nb"`), or None when it is not one.
fn unquote(arg: &str) -> Option<String> {
    let body = arg.strip_prefix('"')?;
    let end = body.rfind('"')?;
    let body = &body[..end];
    let mut out: Vec<u8> = Vec::new();
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let n = b[i + 1];
        i += 2;
        match n {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'v' => out.push(0x0b),
            b'f' => out.push(0x0c),
            b'x' => {
                let hex = std::str::from_utf8(&b[i..(i + 2).min(b.len())]).unwrap_or("");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                i += 2;
            }
            b'0'..=b'7' => {
                let mut v = u32::from(n - b'0');
                let mut k = 0;
                while k < 2 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    k += 1;
                }
                out.push(v as u8);
            }
            other => out.push(other),
        }
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod parse_tests {
    use super::*;

    #[test]
    fn trace_lines_give_events() {
        let log = "\
10 execve(\"/usr/bin/rm\", [\"rm\", \"-f\", \"a b\"], 0x1 /* 3 vars */) = 0
10 openat(AT_FDCWD</p>, \"x/../y\", O_WRONLY|O_CREAT, 0666) = 3</p/y>
10 chdir(\"sub\") = 0
10 mkdir(\"d\", 0777) = 0
10 clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
11 unlinkat(AT_FDCWD</p/sub>, \"k\\\"q\", 0) = -1 ENOENT (No such file or directory)
10 <... clone resumed>, child_tidptr=0x7) = 11
10 renameat2(AT_FDCWD</p/sub>, \"a\", 4</etc>, \"b\", RENAME_NOREPLACE) = 0
";
        let ev = parse_trace(log, "/p");
        let got: Vec<(Op, &str, bool)> = ev.iter().map(|e| (e.op, e.path.as_str(), e.ok)).collect();
        assert_eq!(
            got,
            vec![
                (Op::Exec, "/usr/bin/rm", true),
                (Op::Write, "/p/y", true),
                (Op::Chdir, "/p/sub", true),
                (Op::Mkdir, "/p/sub/d", true),
                (Op::Unlink, "/p/sub/k\"q", false),
                (Op::RenameFrom, "/p/sub/a", true),
                (Op::RenameTo, "/etc/b", true),
            ]
        );
        assert_eq!(ev[0].argv, vec!["rm", "-f", "a b"]);
    }
}
