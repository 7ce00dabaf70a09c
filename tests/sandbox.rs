//! Sandboxed calls, run through the real bubblewrap.
//!
//! Each test builds a fresh tree under cargo's temporary directory (see
//! `Fixture`), confines a command with `gptel_rust_hooks::sandbox`, runs it as
//! a tool would (`sh -c LINE`, like `shell-command-to-string`, or an argv
//! list, like `call-process`), and checks the real effects: files present or
//! absent on the host, what a listener received, what the command printed.
//! Command lines are only ever run by the test's own scripts; the red-team
//! lines of the shell tests are given to a recorder that prints them, never
//! to a shell.

use std::collections::BTreeSet;
use std::fs;
use std::io::{ErrorKind, Read};
use std::net::TcpListener;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use gptel_rust_hooks::sandbox::{
    literal_paths, shell_quote, sockets_under, Confinement, Sandbox, SandboxEnv, SandboxError,
    SandboxSpec,
};
use serde_json::{json, Value as Json};

// ---------------------------------------------------------------------------
// Fixture

/// A fresh directory tree, removed on drop:
///
/// ```text
/// {root}/home/              the home directory for `~`
/// {root}/home/.ssh/id_rsa   a secret
/// {root}/home/proj/         the request's directory
/// {root}/outside/           a directory no default lets the command write
/// {root}/tmp/               the temporary directory
/// ```
struct Fixture {
    root: String,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl Fixture {
    fn new() -> Fixture {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "sandbox-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        fs::create_dir_all(&dir).expect("create fixture root");
        let root = fs::canonicalize(&dir)
            .expect("canonicalize fixture root")
            .to_str()
            .expect("UTF-8 fixture root")
            .to_string();
        let fx = Fixture { root };
        for d in ["home/.ssh", "home/proj", "outside", "tmp"] {
            fx.mkdir(d);
        }
        fx.write("home/.ssh/id_rsa", "TOPSECRET-KEY\n");
        fx
    }

    /// The absolute path of REL in the tree.
    fn p(&self, rel: &str) -> String {
        if rel.is_empty() {
            self.root.clone()
        } else {
            format!("{}/{rel}", self.root)
        }
    }

    fn mkdir(&self, rel: &str) {
        fs::create_dir_all(self.p(rel)).expect("mkdir in fixture");
    }

    fn write(&self, rel: &str, text: &str) {
        fs::write(self.p(rel), text).expect("write in fixture");
    }

    fn exists(&self, rel: &str) -> bool {
        fs::symlink_metadata(self.p(rel)).is_ok()
    }

    fn read(&self, rel: &str) -> Option<String> {
        fs::read_to_string(self.p(rel)).ok()
    }

    fn home(&self) -> String {
        self.p("home")
    }

    fn proj(&self) -> String {
        self.p("home/proj")
    }

    fn temp(&self) -> String {
        self.p("tmp")
    }

    /// A script file at REL (made executable).
    fn script(&self, rel: &str, text: &str) -> String {
        self.write(rel, text);
        let path = self.p(rel);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod script");
        path
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

/// The confinement of SPEC for a request from the project, with the
/// fixture's home and temporary directory and no deny rules.
fn resolve(fx: &Fixture, spec: &SandboxSpec) -> Confinement {
    resolve_with(fx, spec, &[])
}

/// The same, with the deny rules' `:path` patterns DENY.
fn resolve_with(fx: &Fixture, spec: &SandboxSpec, deny: &[&str]) -> Confinement {
    resolve_in(fx, &fx.proj(), spec, deny)
}

/// The same, for a request from DIR.
fn resolve_in(fx: &Fixture, dir: &str, spec: &SandboxSpec, deny: &[&str]) -> Confinement {
    let home = fx.home();
    let temp = fx.temp();
    let socket_dirs = vec![fx.p("run")];
    let env = SandboxEnv {
        dir,
        home: Some(&home),
        temp: &temp,
        socket_dirs: &socket_dirs,
    };
    let literals: Vec<String> = deny.iter().flat_map(|p| literal_paths(p)).collect();
    Confinement::resolve(spec, &env, &literals).expect("resolve spec")
}

fn spec(value: Json) -> SandboxSpec {
    SandboxSpec::from_value(&value)
        .expect("spec reads")
        .expect("spec is a sandbox")
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The real bubblewrap, located on PATH and probed once.
fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        Sandbox::locate("bwrap", &path_dirs())
            .and_then(Sandbox::probe)
            .unwrap_or_else(|e| panic!("bubblewrap is needed for these tests: {e}"))
    })
}

fn path_dirs() -> Vec<String> {
    std::env::var("PATH")
        .unwrap_or_default()
        .split(':')
        .map(String::from)
        .collect()
}

/// Run LINE confined by CONF, as `shell-command-to-string` runs a command:
/// `OUTER -c WRAPPED` from CWD, the confined shell being `/bin/sh`.
fn run_line(conf: &Confinement, cwd: &str, line: &str) -> Output {
    run_line_with(conf, cwd, "/bin/sh", "/bin/sh", line)
}

fn run_line_with(conf: &Confinement, cwd: &str, outer: &str, shell: &str, line: &str) -> Output {
    let wrapped = sandbox()
        .wrap_line(conf, cwd, shell, line)
        .expect("wrap the line");
    let mut cmd = Command::new(outer);
    cmd.arg("-c").arg(&wrapped).stdin(Stdio::null());
    if Path::new(cwd).is_dir() {
        cmd.current_dir(cwd);
    }
    cmd.output().expect("run the outer shell")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn describe(out: &Output) -> String {
    format!(
        "status {}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        stdout(out),
        stderr(out)
    )
}

// ---------------------------------------------------------------------------
// Writing

#[test]
fn defaults_write_inside_the_request_directory_and_nowhere_else() {
    let fx = Fixture::new();
    // A script the rules could not see into: it writes in and out.
    fx.script(
        "home/proj/build.sh",
        "echo in > inside.txt\n\
         mkdir -p sub && echo deep > sub/deeper.txt\n\
         echo out > ../outside.txt 2>/dev/null || echo refused-parent\n\
         echo out > \"$1/escape.txt\" 2>/dev/null || echo refused-abs\n\
         echo out > \"$HOME/.profile-evil\" 2>/dev/null || echo refused-home\n",
    );
    let conf = resolve(&fx, &SandboxSpec::default());
    assert_eq!(conf.write, vec![fx.proj()]);
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!("sh build.sh {}", fx.p("outside")),
    );
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(fx.read("home/proj/inside.txt").as_deref(), Some("in\n"));
    assert_eq!(
        fx.read("home/proj/sub/deeper.txt").as_deref(),
        Some("deep\n")
    );
    assert_eq!(
        stdout(&out),
        "refused-parent\nrefused-abs\nrefused-home\n",
        "{}",
        describe(&out)
    );
    assert!(!fx.exists("home/outside.txt"));
    assert!(!fx.exists("outside/escape.txt"));
    assert!(!fx.exists("home/.profile-evil"));
}

#[test]
fn writes_outside_fail_with_a_read_only_file_system() {
    let fx = Fixture::new();
    let conf = resolve(&fx, &SandboxSpec::default());
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!("echo x > {}/f", fx.p("outside")),
    );
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(
        stderr(&out).contains("Read-only file system"),
        "{}",
        describe(&out)
    );
    assert!(!fx.exists("outside/f"));
}

#[test]
fn the_temporary_directory_is_writable_and_private() {
    let fx = Fixture::new();
    fx.write("tmp/host-file", "host\n");
    let conf = resolve(&fx, &SandboxSpec::default());
    assert_eq!(conf.private, vec![fx.temp()]);
    let t = fx.temp();
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!(
            "ls -A {t}; echo scratch > {t}/made-inside && cat {t}/made-inside; \
             mkdir {t}/d && echo ok > {t}/d/x && cat {t}/d/x"
        ),
    );
    assert!(out.status.success(), "{}", describe(&out));
    // Empty inside (the host's file is not there), writable, and ...
    assert_eq!(stdout(&out), "scratch\nok\n", "{}", describe(&out));
    // ... private: nothing written inside reaches the host, nothing is lost.
    assert!(!fx.exists("tmp/made-inside"));
    assert!(!fx.exists("tmp/d"));
    assert_eq!(fx.read("tmp/host-file").as_deref(), Some("host\n"));
}

#[test]
fn an_extra_writable_directory_and_the_network_when_the_spec_says_so() {
    let fx = Fixture::new();
    fx.mkdir("cache");
    let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("port").port();
    let line = format!(
        "echo c > {cache}/x; echo hello-from-sandbox > /dev/tcp/127.0.0.1/{port}",
        cache = fx.p("cache")
    );

    // Defaults: the cache is read-only, and no network.
    let defaults = resolve(&fx, &SandboxSpec::default());
    let out = run_line_with(&defaults, &fx.proj(), "/bin/sh", "/bin/bash", &line);
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(!fx.exists("cache/x"));
    assert_eq!(received(&listener), None, "{}", describe(&out));

    // An extra writable directory and the network.
    let open = resolve(
        &fx,
        &spec(json!({"write": [".", fx.p("cache")], "network": true})),
    );
    assert_eq!(open.write, vec![fx.proj(), fx.p("cache")]);
    assert!(open.network);
    let out = run_line_with(&open, &fx.proj(), "/bin/sh", "/bin/bash", &line);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(fx.read("cache/x").as_deref(), Some("c\n"));
    assert_eq!(
        received(&listener).as_deref(),
        Some("hello-from-sandbox\n"),
        "{}",
        describe(&out)
    );
}

/// What a connection to LISTENER sent, if one was made. The command has
/// exited when this runs, so a connection it made is already queued.
fn received(listener: &TcpListener) -> Option<String> {
    listener.set_nonblocking(true).expect("nonblocking");
    let deadline = Instant::now() + Duration::from_millis(300);
    loop {
        match listener.accept() {
            Ok((mut stream, _)) => {
                stream.set_nonblocking(false).expect("blocking");
                stream
                    .set_read_timeout(Some(Duration::from_secs(5)))
                    .expect("timeout");
                let mut text = String::new();
                let _ = stream.read_to_string(&mut text);
                return Some(text);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(_) => return None,
        }
    }
}

#[test]
fn no_network_means_no_loopback_either() {
    let fx = Fixture::new();
    let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("port").port();
    let conf = resolve(&fx, &SandboxSpec::default());
    let out = run_line_with(
        &conf,
        &fx.proj(),
        "/bin/sh",
        "/bin/bash",
        &format!("echo leak > /dev/tcp/127.0.0.1/{port} && echo connected"),
    );
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(!stdout(&out).contains("connected"), "{}", describe(&out));
    assert_eq!(received(&listener), None);
    // The same line unconfined does reach the listener: the test can fail.
    let plain = Command::new("/bin/bash")
        .arg("-c")
        .arg(format!("echo leak > /dev/tcp/127.0.0.1/{port}"))
        .output()
        .expect("run bash");
    assert!(plain.status.success(), "{}", describe(&plain));
    assert_eq!(received(&listener).as_deref(), Some("leak\n"));
}

// ---------------------------------------------------------------------------
// Hiding

#[test]
fn a_hidden_secret_cannot_be_read() {
    let fx = Fixture::new();
    fx.write("home/proj/.env", "API_KEY=TOPSECRET-ENV\n");
    // The deny rules' literal paths hide them by default.
    let conf = resolve_with(
        &fx,
        &SandboxSpec::default(),
        &["~/.ssh/**", "./.env", "**/*.pem"],
    );
    assert_eq!(conf.hide, vec![fx.p("home/.ssh"), fx.p("home/proj/.env")]);
    fx.script(
        "home/proj/peek.sh",
        "cat ~/.ssh/id_rsa; ls -A ~/.ssh; cat .env; cat \"$PWD/.env\"\n\
         echo key > ~/.ssh/authorized_keys 2>/dev/null || echo no-write-ssh\n\
         echo X > .env 2>/dev/null || echo no-write-env\n\
         rm -f .env 2>/dev/null || echo no-rm-env\n\
         umount ~/.ssh 2>/dev/null || echo no-umount\n\
         mount -o remount,bind,rw / 2>/dev/null || echo no-remount\n\
         unshare -Urm true 2>/dev/null || echo no-userns\n\
         cat ~/.ssh/id_rsa .env 2>/dev/null\n",
    );
    let out = run_line(&conf, &fx.proj(), &format!("HOME={} sh peek.sh", fx.home()));
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(!text.contains("TOPSECRET"), "{}", describe(&out));
    assert_eq!(
        stdout(&out),
        "no-write-ssh\nno-write-env\nno-rm-env\nno-umount\nno-remount\nno-userns\n",
        "{}",
        describe(&out)
    );
    // The host's files are untouched.
    assert_eq!(
        fx.read("home/.ssh/id_rsa").as_deref(),
        Some("TOPSECRET-KEY\n")
    );
    assert_eq!(
        fx.read("home/proj/.env").as_deref(),
        Some("API_KEY=TOPSECRET-ENV\n")
    );
    assert!(!fx.exists("home/.ssh/authorized_keys"));
}

#[test]
fn hidden_wins_over_writable() {
    let fx = Fixture::new();
    fx.mkdir("home/proj/secrets");
    fx.write("home/proj/secrets/db", "TOPSECRET-DB\n");
    fx.mkdir("home/.config/app");
    // A hidden directory inside a writable one stays hidden; a writable
    // directory inside a hidden one is neither writable nor visible.
    let conf = resolve(
        &fx,
        &spec(json!({
            "write": [".", "~/.config/app"],
            "hide": ["./secrets", "~/.config"]
        })),
    );
    assert_eq!(conf.write, vec![fx.proj()]);
    assert_eq!(
        conf.hide,
        vec![fx.p("home/proj/secrets"), fx.p("home/.config")]
    );
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!(
            "cat secrets/db; ls -A secrets; echo x > secrets/new || echo no-write; \
             echo y > {}/x || echo no-app; echo z > ok.txt",
            fx.p("home/.config/app")
        ),
    );
    assert!(!stdout(&out).contains("TOPSECRET"), "{}", describe(&out));
    assert_eq!(stdout(&out), "no-write\nno-app\n", "{}", describe(&out));
    assert!(!fx.exists("home/proj/secrets/new"));
    assert!(!fx.exists("home/.config/app/x"));
    assert_eq!(fx.read("home/proj/ok.txt").as_deref(), Some("z\n"));
}

#[test]
fn a_command_whose_directory_is_hidden_is_refused() {
    let fx = Fixture::new();
    // Explicitly hiding the home holds the project: building refuses.
    let conf = resolve(&fx, &spec(json!({"hide": ["~"]})));
    let err = sandbox()
        .wrap_line(&conf, &fx.proj(), "/bin/sh", "true")
        .expect_err("the cwd is hidden");
    assert_eq!(
        err,
        SandboxError::CwdHidden {
            cwd: fx.proj(),
            hidden: fx.home()
        }
    );
    assert!(err.to_string().contains("which the sandbox hides"), "{err}");
    // A deny rule for the whole home does not hide it by default: the
    // command could not run at all; its other literal paths still hide.
    let conf = resolve_with(&fx, &SandboxSpec::default(), &["~/**", "~/.ssh/"]);
    assert_eq!(conf.hide, vec![fx.p("home/.ssh")]);
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!("cat {}/.ssh/id_rsa; pwd", fx.home()),
    );
    assert_eq!(
        stdout(&out),
        format!("{}\n", fx.proj()),
        "{}",
        describe(&out)
    );
}

#[test]
fn the_home_directory_writable_with_its_secrets_hidden() {
    let fx = Fixture::new();
    let conf = resolve(&fx, &spec(json!({"write": "~", "hide": ["~/.ssh"]})));
    assert_eq!(conf.write, vec![fx.home()]);
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!(
            "HOME={}; echo n > ~/notes; cat ~/.ssh/id_rsa; echo k > ~/.ssh/k || echo no-ssh",
            fx.home()
        ),
    );
    assert_eq!(stdout(&out), "no-ssh\n", "{}", describe(&out));
    assert_eq!(fx.read("home/notes").as_deref(), Some("n\n"));
    assert!(!fx.exists("home/.ssh/k"));
}

// ---------------------------------------------------------------------------
// Combining

#[test]
fn several_rules_combine_to_the_strictest() {
    let fx = Fixture::new();
    fx.mkdir("home/proj/build");
    fx.mkdir("home/cache");
    let defaults = resolve(&fx, &SandboxSpec::default());
    let wide = resolve(
        &fx,
        &spec(json!({"write": [".", "~/cache"], "hide": [], "network": true})),
    );
    let narrow = resolve(&fx, &spec(json!({"write": ["./build"], "network": true})));
    let hiding = resolve(
        &fx,
        &spec(json!({"write": "~", "hide": "~/.ssh", "network": true})),
    );
    let all = Confinement::strictest([defaults.clone(), wide, narrow, hiding]).expect("some");
    assert_eq!(all.write, vec![fx.p("home/proj/build")]);
    assert_eq!(all.hide, vec![fx.p("home/.ssh")]);
    assert_eq!(all.private, vec![fx.temp()]);
    assert!(!all.network, "the defaults forbid the network");
    let out = run_line(
        &all,
        &fx.proj(),
        &format!(
            "echo b > build/x; echo p > p.txt || echo no-proj; echo c > {}/x || echo no-cache",
            fx.p("home/cache")
        ),
    );
    assert_eq!(stdout(&out), "no-proj\nno-cache\n", "{}", describe(&out));
    assert_eq!(fx.read("home/proj/build/x").as_deref(), Some("b\n"));
    assert!(!fx.exists("home/proj/p.txt"));
    assert!(!fx.exists("home/cache/x"));
    assert_eq!(Confinement::strictest(Vec::new()), None);
}

/// Intersection by containment, on confinements built by hand.
#[test]
fn writable_directories_intersect_by_containment() {
    fn conf(write: &[&str], hide: &[&str], network: bool) -> Confinement {
        Confinement {
            write: strings(write),
            read_only: Vec::new(),
            private: Vec::new(),
            hide: strings(hide),
            sockets: Vec::new(),
            network,
        }
    }
    let cases: &[(&[&str], &[&str], &[&str])] = &[
        (&["/home/u/p"], &["/home/u"], &["/home/u/p"]),
        (&["/home/u"], &["/home/u/p"], &["/home/u/p"]),
        (&["/home/u/p"], &["/home/u/p"], &["/home/u/p"]),
        (&["/home/u/proj"], &["/home/u/proj-evil"], &[]),
        (&["/home/u/proj-evil"], &["/home/u/proj"], &[]),
        (&["/a", "/b"], &["/b/c", "/a/x", "/z"], &["/a/x", "/b/c"]),
        (&["/"], &["/srv/p", "/tmp/q"], &["/srv/p", "/tmp/q"]),
        (&[], &["/srv/p"], &[]),
    ];
    for (a, b, want) in cases {
        let got = conf(a, &[], true).and(&conf(b, &[], false));
        let got: BTreeSet<String> = got.write.into_iter().collect();
        let want: BTreeSet<String> = strings(want).into_iter().collect();
        assert_eq!(got, want, "{a:?} and {b:?}");
    }
    let both = conf(&["/p"], &["/a"], true).and(&conf(&["/p"], &["/b", "/a/x"], true));
    assert_eq!(both.hide, strings(&["/a", "/b"]));
    assert!(both.network);
    let one_off = conf(&["/p"], &[], true).and(&conf(&["/p"], &[], false));
    assert!(!one_off.network);
}

// ---------------------------------------------------------------------------
// Argv commands, odd paths, symlinks, a missing cwd

#[test]
fn an_argv_command_is_confined_the_same_way() {
    let fx = Fixture::new();
    let conf = resolve_with(&fx, &SandboxSpec::default(), &["~/.ssh/**"]);
    let argv = strings(&[
        "/bin/sh",
        "-c",
        "echo a > in.txt; echo b > \"$1/out.txt\" || echo refused; cat \"$2\" || echo hidden",
        "name",
        &fx.p("outside"),
        &fx.p("home/.ssh/id_rsa"),
    ]);
    let words = sandbox()
        .wrap_argv(&conf, &fx.proj(), &argv)
        .expect("wrap argv");
    assert_eq!(words[0], sandbox().program());
    assert_eq!(&words[words.len() - argv.len()..], &argv[..]);
    assert_eq!(words[words.len() - argv.len() - 1], "--");
    let out = Command::new(&words[0])
        .args(&words[1..])
        .current_dir(fx.proj())
        .output()
        .expect("run bwrap");
    assert!(stdout(&out).starts_with("refused\n"), "{}", describe(&out));
    assert!(!stdout(&out).contains("TOPSECRET"), "{}", describe(&out));
    assert_eq!(fx.read("home/proj/in.txt").as_deref(), Some("a\n"));
    assert!(!fx.exists("outside/out.txt"));
}

#[test]
fn paths_with_spaces_quotes_and_newlines() {
    let fx = Fixture::new();
    let odd = "we ird 'q' \"d\" $x `y` \\ \n-nl";
    fx.mkdir(&format!("home/{odd}"));
    fx.mkdir(&format!("home/{odd}/sec ret"));
    fx.write(&format!("home/{odd}/sec ret/k"), "TOPSECRET-ODD\n");
    let dir = fx.p(&format!("home/{odd}"));
    let conf = resolve_in(&fx, &dir, &spec(json!({"hide": ["./sec ret"]})), &[]);
    assert_eq!(conf.write, vec![dir.clone()]);
    // As a command line...
    let out = run_line(
        &conf,
        &dir,
        "echo a > 'it'\\''s here'; cat 'sec ret/k'; pwd",
    );
    assert_eq!(stdout(&out), format!("{dir}\n"), "{}", describe(&out));
    assert_eq!(
        fx.read(&format!("home/{odd}/it's here")).as_deref(),
        Some("a\n")
    );
    // ... and as an argv list.
    let words = sandbox()
        .wrap_argv(
            &conf,
            &dir,
            &strings(&[
                "/bin/sh",
                "-c",
                "echo b > \"$0\"; cat 'sec ret/k'",
                "new\nfile",
            ]),
        )
        .expect("wrap argv");
    let out = Command::new(&words[0])
        .args(&words[1..])
        .current_dir(&dir)
        .output()
        .expect("run");
    assert!(!stdout(&out).contains("TOPSECRET"), "{}", describe(&out));
    assert_eq!(
        fx.read(&format!("home/{odd}/new\nfile")).as_deref(),
        Some("b\n")
    );
    // The one-line description escapes the newline.
    assert!(!conf.describe(Some(&fx.home())).contains('\n'));
}

#[test]
fn symlinked_directories_resolve_to_their_targets() {
    let fx = Fixture::new();
    fx.mkdir("real/proj");
    fx.mkdir("real/secret");
    fx.write("real/secret/k", "TOPSECRET-LINK\n");
    symlink(fx.p("real/proj"), fx.p("home/link-proj")).expect("symlink");
    symlink(fx.p("outside"), fx.p("real/proj/out")).expect("symlink");
    symlink(fx.p("real/secret"), fx.p("home/secret-link")).expect("symlink");
    let link = fx.p("home/link-proj");
    let conf = resolve_in(&fx, &link, &spec(json!({"hide": ["~/secret-link"]})), &[]);
    // Writable and hidden paths are the links' targets.
    assert_eq!(conf.write, vec![fx.p("real/proj")]);
    assert_eq!(conf.hide, vec![fx.p("real/secret")]);
    let out = run_line(
        &conf,
        &link,
        &format!(
            "pwd -P; echo a > a.txt; echo b > out/b.txt || echo no-out; \
             cat {}/k {}/k; echo",
            fx.p("home/secret-link"),
            fx.p("real/secret")
        ),
    );
    // The command runs where it was started, through the link.
    let args = sandbox().args(&conf, &link).expect("args");
    assert!(args.windows(2).any(|w| w[0] == "--chdir" && w[1] == link));
    assert!(
        stdout(&out).starts_with(&format!("{}\n", fx.p("real/proj"))),
        "{}",
        describe(&out)
    );
    assert!(stdout(&out).contains("no-out"), "{}", describe(&out));
    assert!(!stdout(&out).contains("TOPSECRET"), "{}", describe(&out));
    assert_eq!(fx.read("real/proj/a.txt").as_deref(), Some("a\n"));
    assert!(!fx.exists("outside/b.txt"));
}

#[test]
fn a_link_planted_in_the_project_opens_no_writable_path_outside_it() {
    let fx = Fixture::new();
    fx.mkdir("home/.emacs.d");
    fx.mkdir("home/proj/inside-target");
    fx.mkdir("fast-disk/build");
    // A first sandboxed call, allowed to write the project, plants links
    // where the spec names writable directories.
    let conf = resolve(&fx, &SandboxSpec::default());
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!(
            "ln -s {} out && ln -s inside-target cache && echo planted",
            fx.p("home/.emacs.d")
        ),
    );
    assert_eq!(stdout(&out), "planted\n", "{}", describe(&out));
    // The next call's `./out` does not become `~/.emacs.d`; a link that stays
    // inside the project is followed; an absolute path the user wrote is
    // taken as written, links and all.
    symlink(fx.p("fast-disk/build"), fx.p("build-link")).expect("symlink");
    let conf = resolve(
        &fx,
        &spec(json!({"write": [".", "./out", "cache", fx.p("build-link"), "out/../cache"]})),
    );
    assert_eq!(
        conf.write,
        vec![fx.proj(), fx.p("fast-disk/build")],
        "{conf:?}"
    );
    let nested = resolve(&fx, &spec(json!({"write": ["./out", "./cache"]})));
    assert_eq!(nested.write, vec![fx.p("home/proj/inside-target")]);
    let out = run_line(&nested, &fx.proj(), "echo x > out/init.el || echo refused");
    assert_eq!(stdout(&out), "refused\n", "{}", describe(&out));
    assert!(!fx.exists("home/.emacs.d/init.el"));
}

#[test]
fn a_working_directory_that_does_not_exist_runs_nothing() {
    let fx = Fixture::new();
    let gone = fx.p("home/gone");
    let conf = resolve(&fx, &spec(json!({"write": [fx.p("outside")]})));
    let out = run_line(&conf, &gone, &format!("echo ran > {}/ran", fx.p("outside")));
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(stderr(&out).contains("chdir"), "{}", describe(&out));
    assert!(!fx.exists("outside/ran"), "the command ran elsewhere");
    // A relative working directory is refused before anything runs.
    let err = sandbox()
        .wrap_line(&conf, "home/proj", "/bin/sh", "true")
        .expect_err("relative cwd");
    assert!(matches!(err, SandboxError::Path { .. }), "{err}");
}

#[test]
fn writable_paths_that_do_not_exist_are_skipped() {
    let fx = Fixture::new();
    let conf = resolve(
        &fx,
        &spec(json!({"write": [".", "./not-yet", "/no/such/dir"]})),
    );
    let args = sandbox().args(&conf, &fx.proj()).expect("args");
    assert!(!args
        .iter()
        .any(|a| a.contains("not-yet") || a == "/no/such/dir"));
    let out = run_line(&conf, &fx.proj(), "echo ok > ok");
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(fx.read("home/proj/ok").as_deref(), Some("ok\n"));
}

#[test]
fn a_project_inside_the_temporary_directory_stays_writable_through() {
    let fx = Fixture::new();
    fx.mkdir("tmp/proj");
    fx.write("tmp/other", "x\n");
    let dir = fx.p("tmp/proj");
    let conf = resolve_in(&fx, &dir, &SandboxSpec::default(), &[]);
    let out = run_line(&conf, &dir, "echo w > w; ls -A ..");
    // The project is the host's (written through); the rest of temp is private.
    assert_eq!(stdout(&out), "proj\n", "{}", describe(&out));
    assert_eq!(fx.read("tmp/proj/w").as_deref(), Some("w\n"));
}

// ---------------------------------------------------------------------------
// Host sockets

#[test]
fn host_sockets_are_hidden_when_the_network_is_off() {
    let fx = Fixture::new();
    fx.mkdir("run/user/1000");
    let sock = fx.p("run/user/1000/agent.sock");
    let listener = UnixListener::bind(&sock).expect("bind socket");
    listener.set_nonblocking(true).expect("nonblocking");
    fx.write("run/user/1000/plain-file", "x\n");
    assert_eq!(sockets_under(&[&fx.p("run")], 1000), vec![sock.clone()]);
    assert_eq!(sockets_under(&[&fx.p("run")], 1), Vec::<String>::new());
    let connect = |conf: &Confinement| {
        let argv = strings(&[
            "/usr/bin/python3",
            "-c",
            "import socket,sys\n\
             s=socket.socket(socket.AF_UNIX)\n\
             s.connect(sys.argv[1]); s.sendall(b'hi'); print('connected')",
            &sock,
        ]);
        let words = sandbox().wrap_argv(conf, &fx.proj(), &argv).expect("wrap");
        Command::new(&words[0])
            .args(&words[1..])
            .output()
            .expect("run")
    };
    // No network: the socket under the socket directories is hidden.
    let closed = resolve(&fx, &SandboxSpec::default());
    assert_eq!(closed.sockets, vec![sock.clone()], "{closed:?}");
    assert!(closed
        .describe(None)
        .ends_with("; no network (1 host socket covered)"));
    let out = connect(&closed);
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(listener.accept().is_err(), "no connection");
    // Neither a read-only file system nor a network namespace stops a
    // connection to a socket file: with the network on, it is reachable.
    let open = resolve(&fx, &spec(json!({"network": true})));
    assert!(open.sockets.is_empty(), "{open:?}");
    let out = connect(&open);
    assert_eq!(stdout(&out), "connected\n", "{}", describe(&out));
    assert!(listener.accept().is_ok(), "the listener got the connection");
    // Combined, the network is off and the socket hidden again.
    let both = Confinement::strictest([open, closed]).expect("some");
    assert!(!both.network && both.sockets.contains(&sock), "{both:?}");
}

#[test]
fn a_writable_projects_git_directory_stays_read_only() {
    let fx = Fixture::new();
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(fx.proj())
            .output()
            .expect("run git")
    };
    assert!(git(&["init", "-q"]).status.success());
    let config = fx.read("home/proj/.git/config").expect("config");
    let conf = resolve(&fx, &SandboxSpec::default());
    assert_eq!(conf.read_only, vec![fx.p("home/proj/.git")]);
    // Git runs what its config and hooks name, later and unconfined (Magit
    // runs git all the time): none of it can be planted from inside.
    let commit = "git -c user.name=t -c user.email=t@example.invalid \
                  commit -q --allow-empty -m m 2>/dev/null && echo committed";
    let out = run_line(
        &conf,
        &fx.proj(),
        &format!(
            "git status --short >/dev/null && echo status\n\
             git config core.fsmonitor ./evil 2>/dev/null || echo no-config\n\
             echo 'touch pwned' > .git/hooks/post-checkout 2>/dev/null || echo no-hook\n\
             mv .git .git-old 2>/dev/null || echo no-move\n\
             {commit} || echo no-commit\n\
             echo w > work.txt"
        ),
    );
    assert_eq!(
        stdout(&out),
        "status\nno-config\nno-hook\nno-move\nno-commit\n",
        "{}",
        describe(&out)
    );
    assert_eq!(fx.read("home/proj/.git/config"), Some(config));
    assert!(!fx.exists("home/proj/.git/hooks/post-checkout"));
    assert!(!fx.exists("home/proj/.git-old"));
    assert_eq!(fx.read("home/proj/work.txt").as_deref(), Some("w\n"));
    // A spec that lists `.git` as writable lets the command commit.
    let conf = resolve(&fx, &spec(json!({"write": [".", "./.git"]})));
    assert_eq!(conf.read_only, Vec::<String>::new());
    let out = run_line(&conf, &fx.proj(), commit);
    assert_eq!(stdout(&out), "committed\n", "{}", describe(&out));
    assert!(git(&["log", "--oneline"]).status.success());
    // Combined with the defaults, the strictest holds: read-only again.
    let both = resolve(&fx, &SandboxSpec::default()).and(&conf);
    assert_eq!(both.read_only, vec![fx.p("home/proj/.git")]);
}

// ---------------------------------------------------------------------------
// The sandbox program

#[test]
fn a_missing_sandbox_program_is_an_error_that_says_what_to_install() {
    let dirs = path_dirs();
    let err = Sandbox::locate("gptel-rust-hooks-no-such-bwrap", &dirs).expect_err("missing");
    assert_eq!(
        err,
        SandboxError::NotFound {
            program: "gptel-rust-hooks-no-such-bwrap".into()
        }
    );
    assert!(
        err.to_string().contains("apt-get install bubblewrap"),
        "{err}"
    );
    let err =
        Sandbox::locate("/usr/bin/gptel-rust-hooks-no-such-bwrap", &dirs).expect_err("missing");
    assert!(matches!(err, SandboxError::NotFound { .. }), "{err}");
    // A file that is not executable, a directory, a relative path.
    let fx = Fixture::new();
    fx.write("bwrap", "#!/bin/sh\n");
    let err = Sandbox::locate(&fx.p("bwrap"), &dirs).expect_err("not executable");
    assert!(
        matches!(&err, SandboxError::NotExecutable { why, .. } if why == "not executable"),
        "{err}"
    );
    assert!(Sandbox::locate(&fx.p("tmp"), &dirs).is_err());
    assert!(Sandbox::locate("./bwrap", &dirs).is_err());
    // Found on the given directories only.
    assert!(Sandbox::locate("bwrap", &[]).is_err());
    assert!(Sandbox::locate("bwrap", &strings(&["/usr/bin"])).is_ok());
    // Not Linux.
    let err = Sandbox::locate_on("macos", "bwrap", &dirs).expect_err("not linux");
    assert_eq!(err, SandboxError::NotLinux { os: "macos".into() });
    assert!(
        err.to_string().contains("need Linux with bubblewrap"),
        "{err}"
    );
}

/// PROGRAM, a script the test just wrote, located and probed. A fork another test
/// thread makes while the script is open for writing holds it open until that child
/// runs its program, and running the script then fails with "Text file busy": the
/// probe is tried again, up to a second, while that is its error.
fn probed(program: &str) -> Result<Sandbox, SandboxError> {
    for _ in 0..100 {
        match Sandbox::locate(program, &[]).and_then(Sandbox::probe) {
            Err(e) if e.to_string().contains("Text file busy") => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            other => return other,
        }
    }
    Sandbox::locate(program, &[]).and_then(Sandbox::probe)
}

#[test]
fn a_program_that_is_not_bubblewrap_fails_the_probe() {
    let fx = Fixture::new();
    let fake = fx.script("fake-bwrap", "#!/bin/sh\necho 'not it'\n");
    let err = probed(&fake).expect_err("not bubblewrap");
    assert!(matches!(err, SandboxError::Broken { .. }), "{err}");
    let fails = fx.script(
        "failing-bwrap",
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'bubblewrap 0.8.0'; exit 0; }\n\
         echo 'bwrap: No permissions to create new namespace' >&2; exit 1\n",
    );
    let err = probed(&fails).expect_err("cannot create namespaces");
    assert!(err.to_string().contains("No permissions"), "{err}");
    // An old bubblewrap works without `--disable-userns`.
    let old = fx.script(
        "old-bwrap",
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'bubblewrap 0.6.1'; exit 0; }\n\
         for a; do [ \"$a\" = --disable-userns ] && exit 9; done; exit 0\n",
    );
    let old = probed(&old).expect("0.6.1 probes");
    let conf = Confinement {
        write: Vec::new(),
        read_only: Vec::new(),
        private: Vec::new(),
        hide: Vec::new(),
        sockets: Vec::new(),
        network: false,
    };
    assert!(!old
        .args(&conf, "/")
        .expect("args")
        .contains(&"--disable-userns".to_string()));
    assert!(sandbox()
        .args(&conf, "/")
        .expect("args")
        .contains(&"--disable-userns".to_string()));
}

// ---------------------------------------------------------------------------
// Quoting

/// Lines that stress a shell's quoting; each is fed to the wrapper and must
/// reach the confined shell byte for byte.
fn tricky_lines() -> Vec<String> {
    let fragments: &[&str] = &[
        "'",
        "''",
        "'\\''",
        "\"",
        "\\",
        "\\\\",
        "\\'",
        "$'a\\'b'",
        "$'\\x41\\n'",
        "$HOME",
        "${x:-'y'}",
        "$(echo 'hi')",
        "`id`",
        "\n",
        "\r\n",
        "\t",
        "<<EOF\nbody 'q' \"d\" $x\nEOF\n",
        "<<-'E'\n\t$y\n\tE\n",
        "--",
        "-c",
        "-",
        "--help",
        "é",
        "日本語",
        "🦀",
        "\u{202e}",
        "\u{200b}",
        "\u{1}",
        "\u{7f}",
        "%s%n",
        "!!",
        "*",
        "~",
        ";",
        "&&",
        "|",
        "#",
        " ",
        "  ",
        "a",
        "echo",
        "printf %s",
        "x=1",
        "{a,b}",
        "[!x]",
    ];
    let mut lines: Vec<String> = vec![
        String::new(),
        " ".into(),
        "'".into(),
        "'\\''".into(),
        "-".into(),
        "--".into(),
        "-c".into(),
        "--version".into(),
        "-e 'x'".into(),
        "\\".into(),
        "\n".into(),
        "a\n\nb\n".into(),
        "printf '%s\\n' \"$0\"".into(),
        "cat <<'EOF'\n'\\''\nEOF".into(),
        "echo ''''''".into(),
        "echo \"'\"'\"'".into(),
    ];
    // A fixed pseudo-random walk over the fragments (xorshift).
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let n = 1 + (next() % 7) as usize;
        let mut line = String::new();
        for _ in 0..n {
            line.push_str(fragments[(next() % fragments.len() as u64) as usize]);
        }
        lines.push(line);
    }
    lines
}

/// The command lines of the shell red-team tests (never run: recorded).
fn redteam_lines() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/redteam");
    let mut lines = BTreeSet::new();
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("read tests/data/redteam")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for file in files {
        let text = fs::read_to_string(&file).expect("read family");
        let family: Json = serde_json::from_str(&text).expect("family is JSON");
        for case in family["cases"].as_array().expect("cases") {
            if let Some(Json::String(line)) = case["call"]["args"].get("command") {
                lines.insert(line.clone());
            }
        }
    }
    lines.into_iter().collect()
}

#[test]
fn the_confined_shell_receives_exactly_the_line() {
    let fx = Fixture::new();
    // A "shell" that prints its `-c` argument instead of running it.
    let recorder = fx.script("rec", "#!/bin/sh\nprintf '%s' \"$2\"\n");
    let conf = resolve(&fx, &SandboxSpec::default());
    let mut lines = tricky_lines();
    let red = redteam_lines();
    assert!(red.len() > 300, "only {} red-team lines", red.len());
    lines.extend(red);
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        // Every line through dash; every other one through bash as well.
        let outers: &[&str] = if i % 2 == 0 {
            &["/bin/sh", "/bin/bash"]
        } else {
            &["/bin/sh"]
        };
        for outer in outers {
            let out = run_line_with(&conf, &fx.proj(), outer, &recorder, line);
            assert!(
                out.status.success(),
                "{outer}: {line:?}\n{}",
                describe(&out)
            );
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                line.as_str(),
                "{outer}: line {line:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn a_line_runs_the_same_confined_and_unconfined() {
    let fx = Fixture::new();
    let conf = resolve(&fx, &SandboxSpec::default());
    let lines = [
        "cat <<'EOF'\n$HOME 'x' \"y\" \\ `z`\nEOF",
        "cat <<EOF\na $((1+2)) b\\\nc\nEOF",
        "printf '%s|' a 'b c' \"d'e\" 'f\\g' \"$0\"; echo",
        "set -- 'a b' c; echo $# \"$1\"",
        "x='it'\\''s'; echo \"$x\"",
        "echo \"$PWD\"; echo ~ | wc -c",
        "echo -- -n; echo '-n'",
        "echo é 日本語 🦀",
        "for i in 1 2 3; do printf '%s ' \"$i\"; done\necho",
        "f() { echo \"[$*]\"; }; f 1 '2  3'",
        "false || echo $?; (exit 3); echo $?",
        "echo a\\\nb",
    ];
    for line in lines {
        let plain = Command::new("/bin/sh")
            .arg("-c")
            .arg(line)
            .current_dir(fx.proj())
            .output()
            .expect("run sh");
        let confined = run_line(&conf, &fx.proj(), line);
        assert_eq!(
            (stdout(&confined), confined.status.code()),
            (stdout(&plain), plain.status.code()),
            "line {line:?}\n{}",
            describe(&confined)
        );
    }
    // The exit status passes through.
    let out = run_line(&conf, &fx.proj(), "exit 7");
    assert_eq!(out.status.code(), Some(7));
}

#[test]
fn shell_quote_reads_back_as_the_word() {
    for word in [
        "", "a", "'", "''", "a'b", "'a'", "x\ny", "$x", "\\", "-n", "é",
    ] {
        let out = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("printf '%s' {}", shell_quote(word)))
            .output()
            .expect("run sh");
        assert_eq!(String::from_utf8_lossy(&out.stdout), word, "{word:?}");
    }
    assert_eq!(shell_quote("it's"), "'it'\\''s'");
    // Quotes outside any quoted part: no empty `''` that zsh's RC_QUOTES reads.
    assert_eq!(shell_quote("''"), "\\'\\'");
    assert_eq!(shell_quote("'a'"), "\\''a'\\'");
    assert_eq!(shell_quote(""), "''");
}

#[test]
fn a_nul_byte_is_refused() {
    let fx = Fixture::new();
    let conf = resolve(&fx, &SandboxSpec::default());
    assert_eq!(
        sandbox().wrap_line(&conf, &fx.proj(), "/bin/sh", "echo a\0b"),
        Err(SandboxError::Nul)
    );
    assert_eq!(
        sandbox().wrap_argv(&conf, &fx.proj(), &strings(&["echo", "a\0b"])),
        Err(SandboxError::Nul)
    );
}

// ---------------------------------------------------------------------------
// Specs, literal paths, descriptions

#[test]
fn specs_read_from_lisp_and_json_forms() {
    let ok: &[(Json, Option<SandboxSpec>)] = &[
        (json!(true), Some(SandboxSpec::default())),
        (Json::Null, None),
        (json!(false), None),
        (
            json!({"write": ".", "network": true}),
            Some(SandboxSpec {
                write: Some(strings(&["."])),
                hide: None,
                network: true,
            }),
        ),
        (
            json!({"write": null, "hide": ["~/.ssh", "/etc/shadow"]}),
            Some(SandboxSpec {
                write: Some(Vec::new()),
                hide: Some(strings(&["~/.ssh", "/etc/shadow"])),
                network: false,
            }),
        ),
        (json!({}), Some(SandboxSpec::default())),
    ];
    for (value, want) in ok {
        assert_eq!(SandboxSpec::from_value(value).as_ref(), Ok(want), "{value}");
    }
    let bad: &[(Json, &str)] = &[
        (json!("yes"), ":sandbox: expected t or a plist (:write DIRS :hide PATHS :network BOOL), got a string `yes`"),
        (json!({"writ": "."}), ":sandbox: unknown key `:writ` (did you mean `:write`?) (known: :write, :hide, :network)"),
        (json!({"write": 3}), ":sandbox: :write: expected a string or a list of strings, got a number `3`"),
        (json!({"hide": [true]}), ":sandbox: :hide: expected a string or a list of strings, got a boolean `true`"),
        (json!({"network": "no"}), ":sandbox: :network: expected t or nil, got a string `no`"),
        (json!({"write": ""}), ":sandbox: :write: ``: an empty path (write `.` for the request's directory)"),
        (json!({"write": "~bob/x"}), ":sandbox: :write: `~bob/x`: `~user` is not supported here; write the directory out"),
    ];
    for (value, want) in bad {
        let err = SandboxSpec::from_value(value).expect_err("bad spec");
        assert_eq!(err.to_string(), *want, "{value}");
        assert_eq!(
            err.in_rule(2, Some("sandboxed-tests")).to_string(),
            format!("rule 3 (`sandboxed-tests`): {want}")
        );
    }
    assert_eq!(SandboxSpec::default().to_value(), json!(true));
    assert_eq!(
        spec(json!({"write": ["."], "network": true})).to_value(),
        json!({"write": ["."], "network": true})
    );
}

#[test]
fn literal_paths_of_path_globs() {
    let cases: &[(&str, &[&str])] = &[
        ("~/.ssh/**", &["~/.ssh"]),
        ("~/.ssh/", &["~/.ssh"]),
        ("~/.ssh", &["~/.ssh"]),
        ("/etc/shadow", &["/etc/shadow"]),
        (
            "~/.aws/{credentials,config}",
            &["~/.aws/credentials", "~/.aws/config"],
        ),
        ("~/.aws/{cred*,config}", &["~/.aws/config"]),
        ("{/etc/a,/etc/b/**}", &["/etc/a", "/etc/b"]),
        (
            "/srv/{a,b}/{c,d}",
            &["/srv/a/c", "/srv/a/d", "/srv/b/c", "/srv/b/d"],
        ),
        ("secret/**", &["secret"]),
        ("./.env", &["./.env"]),
        ("/odd\\*name", &["/odd*name"]),
        ("**/.env", &[]),
        (".env", &[]),
        ("*.pem", &[]),
        ("~/.ssh/id_*", &[]),
        ("/etc/*", &[]),
        ("/srv/**/secret", &[]),
        ("/", &[]),
        ("/**", &[]),
        ("~", &[]),
        ("~bob/.ssh/**", &[]),
        ("/a/../b", &[]),
        ("/a/{b,c", &[]),
        ("/a/b}", &[]),
        ("/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}", &[]),
        ("/é/{ü,ß}/**", &["/é/ü", "/é/ß"]),
        ("/\\{a,b\\}", &["/{a,b}"]),
    ];
    for (pattern, want) in cases {
        assert_eq!(literal_paths(pattern), strings(want), "{pattern}");
    }
    // Hostile patterns (a project's policy file) end quickly, without a crash.
    let deep = format!("/{}", "{a}".repeat(100_000));
    assert_eq!(literal_paths(&deep), Vec::<String>::new());
    let nested = format!("/{}x{}", "{".repeat(50_000), "}".repeat(50_000));
    assert_eq!(literal_paths(&nested), Vec::<String>::new());
}

#[test]
fn the_confinement_is_described_for_the_log_and_the_prompt() {
    let fx = Fixture::new();
    fx.mkdir("home/.aws");
    let conf = resolve_with(
        &fx,
        &spec(json!({"write": [".", "/no/such"]})),
        &["~/.ssh/**", "~/.aws/"],
    );
    assert_eq!(
        conf.to_json(),
        json!({
            "write": [fx.proj(), "/no/such"],
            "read-only": [],
            "private": [fx.temp()],
            "hide": [fx.p("home/.ssh"), fx.p("home/.aws")],
            "sockets": [],
            "network": false
        })
    );
    assert_eq!(
        conf.describe(Some(&fx.home())),
        format!(
            "write ~/proj, /no/such; private {}; hide ~/.ssh, ~/.aws; no network",
            fx.temp()
        )
    );
    let open = Confinement {
        write: Vec::new(),
        read_only: Vec::new(),
        private: Vec::new(),
        hide: Vec::new(),
        sockets: Vec::new(),
        network: true,
    };
    assert_eq!(open.describe(None), "write nothing; hide nothing; network");
}

// ---------------------------------------------------------------------------
// Overhead

#[test]
fn overhead_of_a_sandboxed_true() {
    let fx = Fixture::new();
    let conf = resolve_with(&fx, &SandboxSpec::default(), &["~/.ssh/**"]);
    let wrapped = sandbox()
        .wrap_line(&conf, &fx.proj(), "/bin/sh", "true")
        .expect("wrap");
    let median = |line: &str| {
        let mut times: Vec<Duration> = (0..50)
            .map(|_| {
                let start = Instant::now();
                let status = Command::new("/bin/sh")
                    .arg("-c")
                    .arg(line)
                    .current_dir(fx.proj())
                    .status()
                    .expect("run");
                assert!(status.success(), "{line}");
                start.elapsed()
            })
            .collect();
        times.sort();
        times[times.len() / 2]
    };
    let plain = median("true");
    let confined = median(&wrapped);
    eprintln!(
        "sandbox overhead: `sh -c true` median {:.2} ms, sandboxed {:.2} ms, overhead {:.2} ms \
         (50 runs each)",
        plain.as_secs_f64() * 1e3,
        confined.as_secs_f64() * 1e3,
        (confined.saturating_sub(plain)).as_secs_f64() * 1e3
    );
    assert!(confined < Duration::from_secs(1), "{confined:?}");
}
