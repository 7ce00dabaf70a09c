//! The logging stand-in of the bash oracle (see `tests/oracle/mod.rs`), compiled by the
//! test with `rustc` and run only inside the sandbox.
//!
//! Every program name the generated lines may run is a two-line script on the private
//! `PATH` whose interpreter is this program: `#!/usr/local/bin/.standin NAME KIND`. The
//! kernel runs it as `.standin "NAME KIND" SCRIPT ARGS...`, so the program's name is known
//! even when the caller gave another `argv[0]` (`exec -a foo rm`).
//!
//! Each run writes one record to fd 9 (a pipe the driver reads until every holder exits),
//! in one `write` so records of concurrent programs do not interleave:
//! `COUNT \0 FLAGS \0 NAME \0 ARG1 \0 ... ARGn \0`, COUNT the number of words (NAME
//! included), FLAGS `p` when a privilege stand-in ran above this program (fd 8 is open:
//! `sudo` opens it before it execs, so everything below it inherits it), else `-`.
//!
//! KIND says what to do after logging:
//! - `plain`: exit 0 (`fail`: exit 1), printing nothing and reading nothing (the
//!   driver ignores SIGPIPE, so a builtin writing into its pipe does not kill the shell;
//!   stand-ins exec with their own code, not `std::process::Command`, which would set
//!   it back to the default);
//! - `real`: exec the real program of that name (`/usr/bin/env`, `/bin/bash`...), which
//!   then finds the other stand-ins on `PATH`;
//! - `sudo`, `doas`: skip the wrapper's options, open fd 8 and exec the rest.
//!
//! `.standin --driver CAP SECONDS` is the driver that runs the lines (see `driver`).

use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;

extern "C" {
    fn dup2(old: i32, new: i32) -> i32;
    fn execvp(file: *const std::ffi::c_char, argv: *const *const std::ffi::c_char) -> i32;
}

/// Exec FILE with ARGV (`argv[0]` included), looked up on `PATH` when FILE has no `/`.
/// Not `std::process::Command`: it resets SIGPIPE to its default in the new program,
/// and the driver wants it ignored all the way down.
fn exec(file: &std::ffi::OsStr, argv: &[&std::ffi::OsStr]) -> std::io::Error {
    use std::ffi::CString;
    let file = CString::new(file.as_bytes()).unwrap_or_default();
    let args: Vec<CString> = argv.iter().map(|a| CString::new(a.as_bytes()).unwrap_or_default()).collect();
    let mut ptrs: Vec<*const std::ffi::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    ptrs.push(std::ptr::null());
    // SAFETY: NUL-terminated strings and a NULL-terminated array that outlive the call.
    unsafe {
        execvp(file.as_ptr(), ptrs.as_ptr());
    }
    std::io::Error::last_os_error()
}

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).map(|a| a.as_bytes()) == Some(b"--driver") {
        driver(&args);
        return;
    }
    if args.len() < 3 {
        eprintln!("standin: run as a script interpreter");
        std::process::exit(126);
    }
    let spec = String::from_utf8_lossy(args[1].as_bytes()).into_owned();
    let mut spec = spec.split_whitespace();
    let name = spec.next().unwrap_or("?").to_string();
    let kind = spec.next().unwrap_or("plain").to_string();
    let rest: Vec<&[u8]> = args[3..].iter().map(|a| a.as_bytes()).collect();
    log(&name, &rest);
    match kind.as_str() {
        "plain" => std::process::exit(0),
        "fail" => std::process::exit(1),
        "real" => {
            let real = ["/usr/bin/", "/bin/", "/usr/sbin/"]
                .iter()
                .map(|d| format!("{d}{name}"))
                .find(|p| std::path::Path::new(p).exists())
                .unwrap_or_else(|| format!("/usr/bin/{name}"));
            let mut argv: Vec<&std::ffi::OsStr> = vec![std::ffi::OsStr::new(&name)];
            argv.extend(args[3..].iter().map(|a| a.as_os_str()));
            let err = exec(std::ffi::OsStr::new(&real), &argv);
            eprintln!("standin: {name}: {err}");
            std::process::exit(126);
        }
        "sudo" | "doas" => privileged(&kind, &args[3..]),
        _ => std::process::exit(0),
    }
}

/// One record on fd 9, in one write.
fn log(name: &str, args: &[&[u8]]) {
    let privileged = std::path::Path::new("/proc/self/fd/8").exists();
    let mut rec = Vec::new();
    rec.extend_from_slice(format!("{}\0", args.len() + 1).as_bytes());
    rec.extend_from_slice(if privileged { b"p\0" } else { b"-\0" });
    rec.extend_from_slice(name.as_bytes());
    rec.push(0);
    for a in args {
        rec.extend_from_slice(a);
        rec.push(0);
    }
    // fd 9 is the driver's pipe; if a line closed it the record is lost (and the test
    // reports a program the reading found but bash "did not run", never the reverse).
    let mut out = unsafe_fd(9);
    let _ = out.write_all(&rec);
    std::mem::forget(out);
}

fn unsafe_fd(fd: i32) -> std::fs::File {
    use std::os::unix::io::FromRawFd;
    // SAFETY: the file is forgotten after use, never closed here.
    unsafe { std::fs::File::from_raw_fd(fd) }
}

/// `sudo` / `doas`: skip options, mark privilege with fd 8, exec the command.
fn privileged(kind: &str, args: &[std::ffi::OsString]) -> ! {
    let words: Vec<String> = args
        .iter()
        .map(|a| String::from_utf8_lossy(a.as_bytes()).into_owned())
        .collect();
    // Options taking a value.
    let with_value: &[char] = if kind == "sudo" {
        &['u', 'g', 'C', 'D', 'h', 'p', 'r', 't', 'U', 'T', 'c']
    } else {
        &['u', 'C']
    };
    let mut i = 0;
    let mut shell = false;
    let mut envs: Vec<(String, String)> = Vec::new();
    while i < words.len() {
        let w = &words[i];
        if w == "--" {
            i += 1;
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let takes = ["user", "group", "chdir", "host", "prompt", "role", "type", "other-user"];
            let name = long.split('=').next().unwrap_or("");
            if name == "shell" || name == "login" {
                shell = true;
            }
            i += if takes.contains(&name) && !long.contains('=') { 2 } else { 1 };
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            let cluster: Vec<char> = w[1..].chars().collect();
            let mut skip = 1;
            for (k, &ch) in cluster.iter().enumerate() {
                match ch {
                    's' | 'i' => shell = true,
                    // list, validate, version, edit: no command runs.
                    'l' | 'v' | 'V' | 'e' => std::process::exit(0),
                    _ => {}
                }
                if with_value.contains(&ch) {
                    if k + 1 == cluster.len() {
                        skip = 2;
                    }
                    break;
                }
            }
            i += skip;
            continue;
        }
        break;
    }
    // `sudo VAR=value cmd`.
    while kind == "sudo" && i < words.len() {
        match words[i].split_once('=') {
            Some((k, v)) if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                envs.push((k.to_string(), v.to_string()));
                i += 1;
            }
            _ => break,
        }
    }
    let rest = &args[i.min(args.len())..];
    // Mark privilege for everything below: fd 8, inherited across exec.
    if let Ok(f) = std::fs::File::open("/dev/null") {
        use std::os::unix::io::IntoRawFd;
        let fd = f.into_raw_fd();
        // SAFETY: plain dup2 on descriptors we own.
        unsafe {
            dup2(fd, 8);
        }
    }
    let joined;
    let mut argv: Vec<&std::ffi::OsStr> = Vec::new();
    if shell {
        // `sudo -s CMD ARGS`: the shell runs the words joined, specials escaped.
        let mut j = String::new();
        for w in &words[i.min(words.len())..] {
            if !j.is_empty() {
                j.push(' ');
            }
            for ch in w.chars() {
                if !(ch.is_ascii_alphanumeric() || "_-$".contains(ch)) {
                    j.push('\\');
                }
                j.push(ch);
            }
        }
        joined = std::ffi::OsString::from(j);
        argv.push(std::ffi::OsStr::new("/usr/local/bin/bash"));
        if !joined.is_empty() {
            argv.push(std::ffi::OsStr::new("-c"));
            argv.push(&joined);
        }
    } else {
        if rest.is_empty() {
            std::process::exit(1);
        }
        argv.extend(rest.iter().map(|a| a.as_os_str()));
    }
    for (k, v) in envs {
        std::env::set_var(k, v);
    }
    let err = exec(argv[0], &argv);
    eprintln!("standin: {kind}: {err}");
    std::process::exit(if err.kind() == std::io::ErrorKind::NotFound { 127 } else { 126 });
}

/// The line's environment (see `gen.rs`): a private `PATH`, fixed variables, `u` unset.
const LINE_ENV: &[(&str, &str)] = &[
    ("PATH", "/usr/local/bin"),
    ("LANG", "C.UTF-8"),
    ("s", "a b"),
    ("e", ""),
    ("n", "3"),
    ("p", "prog1"),
    ("g", "*.c"),
];

/// `.standin --driver CAP SECONDS`: run each NUL-terminated line of stdin as
/// `bash -c LINE`, in a fresh work directory holding `a.c`, `b.c` and `rc.sh`, with the
/// environment above, stdin and stdout `/dev/null`, SIGPIPE ignored, in a process group
/// of its own, and fd 9 the write end of a pipe. Read the pipe until every process
/// holding it has exited (background jobs included), at most CAP bytes; kill the group
/// when the line runs longer than SECONDS or keeps the pipe open 2 s after it ended.
/// Print per line: `S i\n`, `LEN FLAG\n` + records (FLAG `-`, or `T` truncated, `W`
/// still held open), `E STATUS ERRLEN\n` + the first bytes of stderr.
fn driver(args: &[std::ffi::OsString]) {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;
    extern "C" {
        fn setpgid(pid: i32, pgid: i32) -> i32;
        fn signal(sig: i32, handler: usize) -> usize;
        fn kill(pid: i32, sig: i32) -> i32;
        fn close(fd: i32) -> i32;
    }
    let num = |i: usize, d: u64| {
        args.get(i)
            .and_then(|a| a.to_str())
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let cap = num(2, 1 << 20) as usize;
    let secs = num(3, 3);
    let mut input = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut input);
    let mut out = std::io::stdout().lock();
    let lines: Vec<&[u8]> = input.split(|&c| c == 0).collect();
    let n = lines.len().saturating_sub(1);
    for (i, line) in lines[..n].iter().enumerate() {
        let w = format!("/tmp/w/{i}");
        let _ = std::fs::create_dir_all(&w);
        let _ = std::fs::write(format!("{w}/a.c"), "");
        let _ = std::fs::write(format!("{w}/b.c"), "");
        let _ = std::fs::write(format!("{w}/rc.sh"), "fromfile rc\n");
        let err_path = format!("/tmp/w/{i}.err");
        let err_file = std::fs::File::create(&err_path).unwrap();
        let (reader, writer) = std::io::pipe().unwrap();
        use std::os::unix::io::AsRawFd;
        let wfd = writer.as_raw_fd();
        let mut cmd = Command::new("/bin/bash");
        cmd.arg("-c")
            .arg(std::ffi::OsStr::from_bytes(line))
            .env_clear()
            .envs(LINE_ENV.iter().copied())
            .env("HOME", &w)
            .current_dir(&w)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(err_file));
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                setpgid(0, 0);
                signal(13, 1); // SIGPIPE: SIG_IGN
                if wfd != 9 {
                    dup2(wfd, 9);
                    close(wfd);
                }
                Ok(())
            });
        }
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                let _ = write!(out, "S {i}\n0 -\nE 126 {}\n{e}", e.to_string().len());
                continue;
            }
        };
        drop(writer);
        let pid = child.id() as i32;
        // The pipe, read on a thread until EOF.
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = reader;
            let mut data = Vec::new();
            let mut truncated = false;
            let mut buf = [0u8; 65536];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => {
                        let room = cap.saturating_sub(data.len());
                        if k > room {
                            truncated = true;
                        }
                        data.extend_from_slice(&buf[..k.min(room)]);
                    }
                }
            }
            let _ = tx.send((data, truncated));
        });
        // The shell, waited for on a thread so that the wait has a deadline.
        let (stx, srx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = stx.send(child.wait());
        });
        let status = match srx.recv_timeout(Duration::from_secs(secs)) {
            Ok(Ok(st)) => st.code().unwrap_or(128 + st.signal().unwrap_or(0)),
            _ => {
                // SAFETY: plain kill of the line's process group.
                unsafe {
                    kill(-pid, 9);
                }
                let _ = srx.recv_timeout(Duration::from_secs(2));
                124
            }
        };
        let (data, flag) = match rx.recv_timeout(Duration::from_secs(2)) {
            Ok((d, t)) => (d, if t { "T" } else { "-" }),
            Err(_) => {
                // SAFETY: as above.
                unsafe {
                    kill(-pid, 9);
                }
                match rx.recv_timeout(Duration::from_secs(1)) {
                    Ok((d, _)) => (d, "W"),
                    Err(_) => (Vec::new(), "W"),
                }
            }
        };
        let mut err = Vec::new();
        if let Ok(f) = std::fs::File::open(&err_path) {
            let _ = f.take(300).read_to_end(&mut err);
        }
        let _ = write!(out, "S {i}\n{} {flag}\n", data.len());
        let _ = out.write_all(&data);
        let _ = write!(out, "E {status} {}\n", err.len());
        let _ = out.write_all(&err);
    }
    let _ = out.flush();
}
