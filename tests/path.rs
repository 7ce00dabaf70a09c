//! Path normalization, containment and path patterns, table-driven.
//!
//! Normalization cases run inside a fresh temporary tree with real symbolic
//! links (see `Fixture`); `{root}` in a case stands for that tree's real path.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use gptel_rust_hooks::path::{
    default_case_fold, glob, is_within, lexical, normalize, normalize_dir, parse_pattern,
    parse_pattern_with, relative_to, PathEnv, PathError, PathPattern, DEFAULT_COMMAND_KEYS,
    DEFAULT_PATH_KEYS,
};

// ---------------------------------------------------------------------------
// Fixture

/// A temporary tree, removed on drop:
///
/// ```text
/// {root}/home/u/.ssh/id_rsa
/// {root}/home/u/proj/src/main.rs
/// {root}/home/u/proj/out        -> {root}/outside       (absolute, leaves the project)
/// {root}/home/u/proj/rel        -> ../../../outside     (relative, leaves the project)
/// {root}/home/u/proj/hop        -> out                  (a link to a link)
/// {root}/home/u/proj/passwd     -> /etc/passwd
/// {root}/home/u/proj/dangling   -> /etc/gptel-rust-hooks-no-such-file
/// {root}/home/u/proj/dangle-rel -> ../../../outside/new/file
/// {root}/home/u/proj/loop1      -> loop2,  loop2 -> loop1
/// {root}/home/u/proj/self       -> self
/// {root}/home/u/proj/deep       -> {root}/outside/deep/dir
/// {root}/home/u/proj/srclink    -> src
/// {root}/home/u/proj-evil/x
/// {root}/homelink               -> home/u
/// {root}/outside/secret
/// {root}/outside/deep/dir/
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
        let name = format!(
            "gptel-rust-hooks-path-{}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst),
            nanos
        );
        let dir = std::env::temp_dir().join(name);
        fs::create_dir_all(&dir).expect("create fixture root");
        let root = fs::canonicalize(&dir)
            .expect("canonicalize fixture root")
            .to_str()
            .expect("UTF-8 temp dir")
            .to_string();
        let fx = Fixture { root };
        fx.build();
        fx
    }

    fn p(&self, rel: &str) -> PathBuf {
        PathBuf::from(format!("{}/{rel}", self.root))
    }

    #[cfg(unix)]
    fn build(&self) {
        use std::os::unix::fs::symlink;
        for d in [
            "home/u/.ssh",
            "home/u/proj/src",
            "home/u/proj-evil",
            "outside/deep/dir",
        ] {
            fs::create_dir_all(self.p(d)).expect("mkdir");
        }
        for f in [
            "home/u/.ssh/id_rsa",
            "home/u/proj/src/main.rs",
            "home/u/proj-evil/x",
            "outside/secret",
        ] {
            fs::write(self.p(f), "x").expect("write");
        }
        let links: &[(&str, String)] = &[
            ("home/u/proj/out", format!("{}/outside", self.root)),
            ("home/u/proj/rel", "../../../outside".into()),
            ("home/u/proj/hop", "out".into()),
            ("home/u/proj/passwd", "/etc/passwd".into()),
            (
                "home/u/proj/dangling",
                "/etc/gptel-rust-hooks-no-such-file".into(),
            ),
            ("home/u/proj/dangle-rel", "../../../outside/new/file".into()),
            ("home/u/proj/loop1", "loop2".into()),
            ("home/u/proj/loop2", "loop1".into()),
            ("home/u/proj/self", "self".into()),
            (
                "home/u/proj/deep",
                format!("{}/outside/deep/dir", self.root),
            ),
            ("home/u/proj/srclink", "src".into()),
            ("homelink", "home/u".into()),
        ];
        for (link, target) in links {
            symlink(target, self.p(link)).expect("symlink");
        }
    }

    #[cfg(not(unix))]
    fn build(&self) {}

    /// `{root}` replaced by the fixture's real root.
    fn sub(&self, s: &str) -> String {
        s.replace("{root}", &self.root)
    }

    /// Home `{root}/home/u`, cwd `{root}/home/u/proj`.
    fn env(&self, case_fold: bool) -> PathEnv {
        PathEnv {
            home: Some(self.p("home/u")),
            cwd: Some(self.p("home/u/proj")),
            case_fold,
        }
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

// ---------------------------------------------------------------------------
// Macros

/// `norm!(name, RAW, EXPECTED)`: RAW normalizes to EXPECTED (`{root}`
/// substituted in both). `norm!(name, RAW, EXPECTED, fold)` with case folding.
macro_rules! norm {
    ($name:ident, $raw:expr, $expected:expr) => {
        norm!($name, $raw, $expected, false);
    };
    ($name:ident, $raw:expr, $expected:expr, $fold:expr) => {
        #[cfg(unix)]
        #[test]
        fn $name() {
            let fx = Fixture::new();
            let raw = fx.sub($raw);
            let mut expected = fx.sub($expected);
            if $fold {
                expected = expected.to_lowercase();
            }
            assert_eq!(
                normalize(&raw, &fx.env($fold)),
                Ok(expected),
                "raw: {raw:?}"
            );
        }
    };
}

/// `nnorm!(name, RAW, NEEDLE)`: RAW is refused, with NEEDLE in the message.
macro_rules! nnorm {
    ($name:ident, $raw:expr, $needle:expr) => {
        #[cfg(unix)]
        #[test]
        fn $name() {
            let fx = Fixture::new();
            let raw = fx.sub($raw);
            match normalize(&raw, &fx.env(false)) {
                Ok(p) => panic!("{raw:?} normalized to {p:?}, expected an error"),
                Err(PathError(msg)) => {
                    assert!(
                        msg.contains($needle),
                        "{raw:?}: message {msg:?} lacks {:?}",
                        $needle
                    )
                }
            }
        }
    };
}

/// Home of the pattern tests; it does not exist, so nothing resolves.
const HOME: &str = "/nonexistent-gptel-home/u";
/// Cwd of the pattern tests.
const CWD: &str = "/nonexistent-gptel-home/u/proj";

fn pattern_env(case_fold: bool) -> PathEnv {
    PathEnv {
        home: Some(PathBuf::from(HOME)),
        cwd: None,
        case_fold,
    }
}

/// Does PATTERN match the (already normalized) PATH, built exactly as the
/// evaluator builds it?
fn pattern_matches(pattern: &str, path: &str, env: &PathEnv, cwd: &str) -> bool {
    let compiled = parse_pattern_with(pattern, env)
        .unwrap_or_else(|e| panic!("pattern {pattern:?} refused: {e}"));
    let glob = globset::GlobBuilder::new(compiled.as_str())
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(env.case_fold)
        .build()
        .unwrap_or_else(|e| panic!("pattern {pattern:?} -> {compiled:?}: {e}"));
    let mut set = globset::GlobSetBuilder::new();
    set.add(glob);
    let set = set.build().expect("glob set");
    match &compiled {
        PathPattern::Absolute(_) => set.is_match(path),
        PathPattern::CwdRelative(_) => relative_to(path, cwd).is_some_and(|rel| set.is_match(rel)),
    }
}

/// `matches!(name, PATTERN, PATH)`: PATTERN matches PATH (home `HOME`, cwd `CWD`;
/// `~` in PATH is `HOME`). A fourth argument `fold` turns case folding on.
macro_rules! matches {
    ($name:ident, $pat:expr, $path:expr) => {
        matches!($name, $pat, $path, false);
    };
    ($name:ident, $pat:expr, $path:expr, $fold:expr) => {
        #[test]
        fn $name() {
            let path = $path.replace('~', HOME);
            assert!(
                pattern_matches($pat, &path, &pattern_env($fold), CWD),
                "{:?} should match {path:?}",
                $pat
            );
        }
    };
}

/// `nmatches!(name, PATTERN, PATH)`: PATTERN does not match PATH.
macro_rules! nmatches {
    ($name:ident, $pat:expr, $path:expr) => {
        nmatches!($name, $pat, $path, false);
    };
    ($name:ident, $pat:expr, $path:expr, $fold:expr) => {
        #[test]
        fn $name() {
            let path = $path.replace('~', HOME);
            assert!(
                !pattern_matches($pat, &path, &pattern_env($fold), CWD),
                "{:?} should not match {path:?}",
                $pat
            );
        }
    };
}

/// `compiles!(name, PATTERN, EXPECTED)`: the exact translation.
macro_rules! compiles {
    ($name:ident, $pat:expr, $expected:expr) => {
        #[test]
        fn $name() {
            let got = parse_pattern($pat, Some(Path::new(HOME)));
            assert_eq!(got, Ok($expected), "pattern {:?}", $pat);
        }
    };
}

/// `syntaxerr!(name, PATTERN, NEEDLE)`: PATTERN is refused, NEEDLE in the message.
macro_rules! syntaxerr {
    ($name:ident, $pat:expr, $needle:expr) => {
        #[test]
        fn $name() {
            match parse_pattern($pat, Some(Path::new(HOME))) {
                Ok(p) => panic!("pattern {:?} compiled to {p:?}, expected an error", $pat),
                Err(PathError(msg)) => {
                    assert!(
                        msg.contains($needle),
                        "{:?}: message {msg:?} lacks {:?}",
                        $pat,
                        $needle
                    )
                }
            }
        }
    };
}

/// `within!(name, PATH, DIR, BOOL)`.
macro_rules! within {
    ($name:ident, $path:expr, $dir:expr, $expected:expr) => {
        #[test]
        fn $name() {
            assert_eq!(
                is_within($path, $dir),
                $expected,
                "is_within({:?}, {:?})",
                $path,
                $dir
            );
        }
    };
}

// ---------------------------------------------------------------------------
// normalize: expansion and lexical collapse

norm!(norm_tilde, "~", "{root}/home/u");
norm!(norm_tilde_slash, "~/", "{root}/home/u");
norm!(norm_tilde_file, "~/x", "{root}/home/u/x");
norm!(norm_tilde_ssh, "~/.ssh/id_rsa", "{root}/home/u/.ssh/id_rsa");
norm!(
    norm_relative,
    "src/main.rs",
    "{root}/home/u/proj/src/main.rs"
);
norm!(
    norm_relative_dot,
    "./src/./main.rs",
    "{root}/home/u/proj/src/main.rs"
);
norm!(
    norm_relative_missing,
    "new/dir/file",
    "{root}/home/u/proj/new/dir/file"
);
norm!(
    norm_relative_up,
    "../proj-evil/x",
    "{root}/home/u/proj-evil/x"
);
norm!(
    norm_dotdot_to_etc,
    "{root}/home/u/proj/../../../../../../../../etc/passwd",
    "/etc/passwd"
);
norm!(norm_dotdot_above_root, "/../../etc/passwd", "/etc/passwd");
norm!(norm_leading_slashes, "//etc/passwd", "/etc/passwd");
norm!(norm_three_leading_slashes, "///etc/passwd", "/etc/passwd");
norm!(
    norm_trailing_slash,
    "{root}/home/u/proj/",
    "{root}/home/u/proj"
);
norm!(
    norm_trailing_dot,
    "{root}/home/u/proj/.",
    "{root}/home/u/proj"
);
norm!(
    norm_dot_components,
    "{root}/./home/./u/./proj",
    "{root}/home/u/proj"
);
norm!(norm_root, "/", "/");
norm!(norm_root_dotdot, "/..", "/");
norm!(norm_dot, ".", "{root}/home/u/proj");
norm!(
    norm_missing_dotdot_lexical,
    "nope/../src/main.rs",
    "{root}/home/u/proj/src/main.rs"
);
norm!(
    norm_through_file,
    "src/main.rs/x",
    "{root}/home/u/proj/src/main.rs/x"
);
norm!(
    norm_backup_tilde_suffix,
    "src/main.rs~",
    "{root}/home/u/proj/src/main.rs~"
);
norm!(norm_tilde_inside_name, "a~/b", "{root}/home/u/proj/a~/b");
norm!(
    norm_colon_later,
    "{root}/home/u/proj/a:b",
    "{root}/home/u/proj/a:b"
);
norm!(
    norm_unicode,
    "{root}/home/u/proj/Über.txt",
    "{root}/home/u/proj/Über.txt"
);

// case folding
norm!(
    norm_fold_on,
    "{root}/home/u/PROJ/Src/MAIN.rs",
    "{root}/home/u/proj/src/main.rs",
    true
);
norm!(
    norm_fold_unicode,
    "{root}/home/u/proj/ÜBER",
    "{root}/home/u/proj/über",
    true
);
norm!(
    norm_fold_off,
    "{root}/home/u/PROJ/Src",
    "{root}/home/u/PROJ/Src"
);

// ---------------------------------------------------------------------------
// normalize: symbolic links

norm!(norm_link_out, "out/secret", "{root}/outside/secret");
norm!(norm_link_out_itself, "out", "{root}/outside");
norm!(norm_link_rel, "rel/secret", "{root}/outside/secret");
norm!(norm_link_to_link, "hop/secret", "{root}/outside/secret");
norm!(
    norm_link_missing_below,
    "out/new/file",
    "{root}/outside/new/file"
);
norm!(norm_link_passwd, "passwd", "/etc/passwd");
norm!(
    norm_link_dangling,
    "dangling",
    "/etc/gptel-rust-hooks-no-such-file"
);
norm!(
    norm_link_dangling_rel,
    "dangle-rel",
    "{root}/outside/new/file"
);
norm!(
    norm_link_home,
    "{root}/homelink/.ssh/id_rsa",
    "{root}/home/u/.ssh/id_rsa"
);
norm!(
    norm_link_absolute_arg,
    "{root}/home/u/proj/out/secret",
    "{root}/outside/secret"
);
// `..` after a link whose target sits beside it: both readings agree.
norm!(
    norm_dotdot_after_link_agree,
    "srclink/../src/main.rs",
    "{root}/home/u/proj/src/main.rs"
);
// `..` after a link into missing territory beyond it is physical.
norm!(
    norm_dotdot_below_link,
    "out/deep/../secret",
    "{root}/outside/secret"
);

nnorm!(
    nnorm_link_loop,
    "loop1",
    "too many levels of symbolic links"
);
nnorm!(
    nnorm_link_loop_below,
    "loop1/x",
    "too many levels of symbolic links"
);
nnorm!(nnorm_link_self, "self", "too many levels of symbolic links");
// `..` after a link: the kernel reads `{root}/outside/deep/x`, Emacs `proj/x`.
nnorm!(nnorm_dotdot_after_link, "deep/../x", "ambiguous");
nnorm!(
    nnorm_dotdot_after_link_abs,
    "{root}/home/u/proj/deep/../../secret",
    "ambiguous"
);

// ---------------------------------------------------------------------------
// normalize: refusals

nnorm!(nnorm_empty, "", "empty path");
nnorm!(nnorm_nul, "a\0b", "NUL");
nnorm!(nnorm_zwsp, "{root}/home/u/proj/a\u{200B}b", "U+200B");
nnorm!(nnorm_rlo, "{root}/home/u/proj/\u{202E}txt.exe", "U+202E");
nnorm!(nnorm_lri, "x\u{2066}y", "U+2066");
nnorm!(nnorm_word_joiner, "x\u{2060}y", "U+2060");
nnorm!(nnorm_bom, "\u{FEFF}/etc/passwd", "U+FEFF");
nnorm!(nnorm_soft_hyphen, "/etc/pass\u{AD}wd", "U+00AD");
nnorm!(nnorm_lrm, "/etc/\u{200E}passwd", "U+200E");
nnorm!(nnorm_newline, "/etc/passwd\n", "U+000A");
nnorm!(
    nnorm_unknown_user,
    "~gptel-no-such-user-xyz/x",
    "unknown user"
);
nnorm!(nnorm_dollar, "$HOME/.ssh/id_rsa", "`$`");
nnorm!(
    nnorm_inner_double_slash,
    "{root}/home/u/proj//etc/passwd",
    "`//`"
);
nnorm!(nnorm_double_slash_mixed, "//etc///passwd", "`//`");
nnorm!(nnorm_trailing_double_slash, "/etc//", "`//`");
nnorm!(nnorm_inner_tilde, "src/~/x", "`/~`");
nnorm!(nnorm_root_tilde, "/~", "`/~`");
nnorm!(nnorm_tramp_sudo, "/sudo::/etc/shadow", "TRAMP");
nnorm!(nnorm_tramp_ssh, "/ssh:host:/etc/passwd", "TRAMP");
nnorm!(nnorm_quoted, "/:/etc/passwd", "TRAMP");
nnorm!(
    nnorm_tramp_via_dotdot,
    "../../../../../../../../../sudo::/etc/shadow",
    "TRAMP"
);

#[test]
fn norm_relative_without_cwd() {
    let env = PathEnv {
        home: None,
        cwd: None,
        case_fold: false,
    };
    assert!(normalize("x", &env).is_err());
    assert!(normalize("~/x", &env).is_err());
    assert_eq!(normalize("/", &env), Ok("/".into()));
}

#[test]
fn norm_relative_cwd_refused() {
    let env = PathEnv {
        home: None,
        cwd: Some(PathBuf::from("rel/dir")),
        case_fold: false,
    };
    assert!(normalize("x", &env).is_err());
}

#[test]
fn norm_remote_cwd_refused() {
    let env = PathEnv {
        home: None,
        cwd: Some(PathBuf::from("/ssh:host:/home/u/")),
        case_fold: false,
    };
    assert!(normalize("x", &env).is_err());
}

#[cfg(target_os = "linux")]
#[test]
fn norm_tilde_root() {
    let env = PathEnv::default();
    assert_eq!(normalize("~root", &env), Ok("/root".into()));
    // `/root` may be unreadable; then both are refused alike.
    assert_eq!(
        normalize("~root/x", &env).ok(),
        normalize("/root/x", &env).ok()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn norm_proc_magic_links() {
    let env = PathEnv::default();
    for raw in [
        "/proc/self/fd/0",
        "/dev/stdin",
        "/dev/fd/1",
        "/proc/self/root/etc/passwd",
        "/proc/self/cwd/x",
        "/proc/thread-self/exe",
    ] {
        match normalize(raw, &env) {
            Ok(p) => panic!("{raw:?} normalized to {p:?}, expected a refusal"),
            Err(PathError(msg)) => assert!(msg.contains("a running process"), "{raw:?}: {msg}"),
        }
    }
    // A process's own files depend on the process that opens them (Emacs, or the
    // shell a tool starts): never resolved against Emacs's pid.
    for raw in ["/proc/self/status", "/proc/self/environ", "/proc/1/environ"] {
        assert!(normalize(raw, &env).is_err(), "{raw:?}");
    }
    let own = format!("/proc/{}/status", std::process::id());
    assert!(normalize(&own, &env).is_err(), "{own:?}");
    // Other /proc files are ordinary paths.
    assert_eq!(
        normalize("/proc/cpuinfo", &env).as_deref(),
        Ok("/proc/cpuinfo")
    );
}

/// Where a path through a process's directory leads for a shell in a given
/// directory: the kernel's links by their meaning, `thread-self` a level below
/// `self`, anything past an open file unknowable, and never a loop.
#[test]
fn readings_through_proc() {
    use gptel_rust_hooks::path::{readings, Process};
    let reads = |raw: &str, cwd: &str| readings(raw, Some("/home/u"), Some(cwd)).process;
    let at = |s: &str| Process::Reads(s.to_string());
    let cases: &[(&str, &str, Process)] = &[
        ("/proc/self/cwd/x", "/w", at("/w/x")),
        ("/proc/self/cwd/..", "/w/d", at("/w")),
        ("/proc/self/root/etc/x", "/w", at("/etc/x")),
        ("/proc/thread-self/../../root/etc/x", "/w", at("/etc/x")),
        ("/proc/thread-self/../../cwd/../x", "/w/d", at("/w/x")),
        ("/proc/thread-self/cwd/x", "/w", at("/w/x")),
        ("/proc/self/task/7/../../root/x", "/w", at("/x")),
        ("/proc//self/./cwd//x", "/w", at("/w/x")),
        ("/proc/1/cwd", "/w", at("/w")),
        ("/dev/fd/../cwd/x", "/w", at("/w/x")),
        ("/proc/self/environ", "/w", at("/proc/self/environ")),
        ("/proc/thread-self/environ", "/w", at("/proc/self/environ")),
        ("/proc/self/../cpuinfo", "/w", at("/proc/cpuinfo")),
        ("/dev/fd/3", "/w", Process::OpenFile),
        ("/dev/stdin", "/w", Process::OpenFile),
        ("/proc/self/fd/1", "/w", Process::OpenFile),
        ("/dev/fd/3/x", "/w", Process::Unknowable),
        ("/dev/fd/3/..", "/w", Process::Unknowable),
        ("/dev/fd/3/", "/w", Process::Unknowable),
        ("/dev/stdin/x", "/w", Process::Unknowable),
        ("/proc/self/fd/3/x", "/w", Process::Unknowable),
        ("/proc/thread-self/fd/0/x", "/w", Process::Unknowable),
        // A directory that is itself a process's is no directory for `cwd`.
        ("/proc/self/cwd/..", "/proc/self/cwd", Process::Unknowable),
        ("/proc/self/cwd/x", "/dev/fd/3", Process::Unknowable),
        ("..", "/proc/self/cwd", Process::Unknowable),
        ("/proc/cpuinfo", "/w", Process::Outside),
        ("/proc/meminfo", "/w", Process::Outside),
        ("/procx/self/cwd", "/w", Process::Outside),
        ("/dev/null", "/w", Process::Outside),
    ];
    for (raw, cwd, want) in cases {
        assert_eq!(&reads(raw, cwd), want, "{raw:?} in {cwd:?}");
    }
    // `cwd` without a known directory: unknowable.
    assert_eq!(
        readings("/proc/self/cwd/x", None, None).process,
        Process::Unknowable
    );
    // Long chains end: every component is read once.
    let chain = "/proc/self/cwd/..".repeat(5_000);
    assert_eq!(reads(&chain, "/proc/self/cwd"), Process::Unknowable);
    let chain = format!("/{}", "dev/fd/../cwd/../../".repeat(5_000));
    let _ = reads(&chain, "/w");
}

/// The cheaper forms of the readings and of normalizing (issue 25) answer as
/// the full ones: `reading_process` is the process of `readings`, and
/// `normalize_and_lexical` is `normalize` and `lexical` side by side, through
/// links, `..`, `/proc`, `$HOME`/`$PWD` and refused spellings alike.
#[test]
fn cheaper_forms_agree() {
    use gptel_rust_hooks::path::{normalize_and_lexical, reading_process, readings};
    let fx = Fixture::new();
    let raws = [
        "src/main.rs",
        "out/secret",
        "rel/secret",
        "hop/../x",
        "srclink/../out",
        "dangling",
        "loop1/x",
        "~/.ssh/id_rsa",
        "$HOME/.ssh/id_rsa",
        "${PWD}/src",
        "~+/src",
        "${HOME:-/x}/.ssh",
        "${PWD%/}/x",
        "/proc/self/cwd/src",
        "/proc/self/root/etc/passwd",
        "/dev/fd/3/x",
        "/dev/stdin",
        "file:///etc/passwd",
        "/ssh:host:/etc/passwd",
        "a\tb",
        "",
        ".",
        "..",
        "/",
    ];
    for case_fold in [false, true] {
        let env = fx.env(case_fold);
        let home = fx.sub("{root}/home/u");
        let cwd = fx.sub("{root}/home/u/proj");
        for raw in raws {
            assert_eq!(
                reading_process(raw, Some(&home), Some(&cwd)),
                readings(raw, Some(&home), Some(&cwd)).process,
                "{raw:?}"
            );
            assert_eq!(
                reading_process(raw, None, None),
                readings(raw, None, None).process,
                "{raw:?} without home or cwd"
            );
            assert_eq!(
                normalize_and_lexical(raw, &env),
                (normalize(raw, &env), lexical(raw, &env)),
                "{raw:?} (case fold {case_fold})"
            );
        }
    }
}

#[test]
fn norm_too_long() {
    let raw = format!("/{}", "a/".repeat(40_000));
    assert!(normalize(&raw, &PathEnv::default()).is_err());
}

#[test]
fn norm_deep_but_short_enough() {
    // Many components that do not exist: no stat storm, no overflow.
    let raw = format!("/nonexistent-gptel{}", "/a".repeat(2000));
    let got = normalize(&raw, &PathEnv::default());
    assert_eq!(got, Ok(raw));
}

#[cfg(unix)]
#[test]
fn norm_dir() {
    let fx = Fixture::new();
    let env = fx.env(false);
    assert_eq!(normalize_dir("~/", &env), Ok(fx.sub("{root}/home/u")));
    assert_eq!(
        normalize_dir(&fx.sub("{root}/homelink/"), &env),
        Ok(fx.sub("{root}/home/u"))
    );
    assert!(normalize_dir("proj", &env).is_err());
    assert!(normalize_dir("./proj", &env).is_err());
}

#[cfg(unix)]
#[test]
fn norm_lexical_keeps_links() {
    let fx = Fixture::new();
    let env = fx.env(false);
    assert_eq!(
        lexical("out/secret", &env),
        Ok(fx.sub("{root}/home/u/proj/out/secret"))
    );
    assert_eq!(
        lexical("out/../x", &env),
        Ok(fx.sub("{root}/home/u/proj/x"))
    );
    assert_eq!(
        lexical("~/X", &fx.env(true)),
        Ok(fx.sub("{root}/home/u/x").to_lowercase())
    );
    assert!(lexical("/sudo::/etc", &env).is_err());
}

// ---------------------------------------------------------------------------
// is_within / relative_to

within!(within_same, "/home/u/proj", "/home/u/proj", true);
within!(within_inside, "/home/u/proj/a/b", "/home/u/proj", true);
within!(
    within_sibling_prefix,
    "/home/u/proj-evil/x",
    "/home/u/proj",
    false
);
within!(
    within_sibling_prefix_itself,
    "/home/u/proj-evil",
    "/home/u/proj",
    false
);
within!(within_parent, "/home/u", "/home/u/proj", false);
within!(within_root_everything, "/etc/passwd", "/", true);
within!(within_root_root, "/", "/", true);
within!(within_root_child, "/a", "/", true);
within!(
    within_dir_trailing_slash,
    "/home/u/proj/x",
    "/home/u/proj/",
    true
);
within!(within_relative_path, "home/u/proj/x", "/home/u/proj", false);
within!(within_empty_dir, "/x", "", false);
within!(within_unicode, "/home/ü/x", "/home/ü", true);

#[test]
fn relative_to_cases() {
    assert_eq!(
        relative_to("/home/u/proj/src/a.rs", "/home/u/proj"),
        Some("src/a.rs")
    );
    assert_eq!(relative_to("/home/u/proj", "/home/u/proj"), Some(""));
    assert_eq!(relative_to("/home/u/proj-evil/a", "/home/u/proj"), None);
    assert_eq!(relative_to("/etc/passwd", "/"), Some("etc/passwd"));
    assert_eq!(relative_to("/home/u/proj/a", "/home/u/proj/"), Some("a"));
}

// ---------------------------------------------------------------------------
// Pattern translation

compiles!(
    compile_name,
    ".env",
    PathPattern::Absolute("**/.env".into())
);
compiles!(
    compile_name_glob,
    "*.pem",
    PathPattern::Absolute("**/*.pem".into())
);
compiles!(
    compile_any_prefix,
    "**/.env",
    PathPattern::Absolute("**/.env".into())
);
compiles!(compile_everything, "**", PathPattern::Absolute("**".into()));
compiles!(
    compile_root_dir,
    "/",
    PathPattern::Absolute("{/,/**}".into())
);
compiles!(
    compile_root_glob,
    "/etc/*",
    PathPattern::Absolute("/etc/*".into())
);
compiles!(
    compile_home_dir_slash,
    "~/.ssh/",
    PathPattern::Absolute(format!("{{{HOME}/.ssh,{HOME}/.ssh/**}}"))
);
compiles!(
    compile_home_dir_stars,
    "~/.ssh/**",
    PathPattern::Absolute(format!("{{{HOME}/.ssh,{HOME}/.ssh/**}}"))
);
compiles!(compile_home_exact, "~", PathPattern::Absolute(HOME.into()));
compiles!(
    compile_cwd_glob,
    "src/*.rs",
    PathPattern::CwdRelative("src/*.rs".into())
);
compiles!(
    compile_cwd_dir,
    "build/**",
    PathPattern::CwdRelative("{build,build/**}".into())
);
compiles!(
    compile_cwd_dot_slash,
    "./Makefile",
    PathPattern::CwdRelative("Makefile".into())
);
compiles!(
    compile_name_dir,
    "node_modules/",
    PathPattern::Absolute("{**/node_modules,**/node_modules/**}".into())
);
compiles!(
    compile_dot_dropped,
    "/etc/./passwd",
    PathPattern::Absolute("/etc/passwd".into())
);
compiles!(
    compile_double_slash,
    "/etc//passwd",
    PathPattern::Absolute("/etc/passwd".into())
);
compiles!(
    compile_bare_comma_in_dir,
    "/tmp/a,b/",
    PathPattern::Absolute("{/tmp/a\\,b,/tmp/a\\,b/**}".into())
);
compiles!(
    compile_tilde_not_user,
    "~$*.docx",
    PathPattern::Absolute("**/~$*.docx".into())
);

compiles!(
    compile_cwd_itself_and_below,
    "./",
    PathPattern::CwdRelative("**".into())
);
compiles!(
    compile_cwd_itself,
    ".",
    PathPattern::CwdRelative(String::new())
);
compiles!(
    compile_braces_tilde_names,
    "{~*,*~}",
    PathPattern::Absolute("**/{~*,*~}".into())
);
compiles!(
    compile_escaped_bang,
    "\\!x",
    PathPattern::Absolute("**/\\!x".into())
);

syntaxerr!(err_unclosed_class, "[", "unclosed character class");
syntaxerr!(err_leading_bang, "!*.pem", "negation");
syntaxerr!(err_group_root_branch, "{/etc,/var}/**", "would never match");
syntaxerr!(
    err_group_home_branch,
    "{~/.ssh,~/.aws}/",
    "would never match"
);
syntaxerr!(
    err_group_nested_root_branch,
    "{a,{b,/c}}/x",
    "would never match"
);
syntaxerr!(
    err_unclosed_class_in_path,
    "/etc/[abc",
    "unclosed character class"
);
syntaxerr!(err_unclosed_alternate, "/etc/{a,b", "unclosed alternate");
syntaxerr!(err_dotdot, "/etc/../root/**", "`..`");
syntaxerr!(err_dotdot_relative, "../other/**", "`..`");
syntaxerr!(err_empty, "", "empty pattern");
syntaxerr!(err_invisible, "/etc/pass\u{200B}wd", "U+200B");
syntaxerr!(
    err_unknown_user,
    "~gptel-no-such-user-xyz/**",
    "unknown user"
);

#[test]
fn err_tilde_without_home() {
    assert!(parse_pattern("~/.ssh/**", None).is_err());
}

// ---------------------------------------------------------------------------
// Pattern matching, end to end through globset

// A name in any directory.
matches!(m_env_deep, ".env", "/a/b/.env");
matches!(m_env_root, ".env", "/.env");
nmatches!(nm_env_envrc, ".env", "/a/b/.envrc");
nmatches!(nm_env_prefix, ".env", "/a/b/x.env");
nmatches!(nm_env_dir_contents, ".env", "/a/.env/x");
matches!(m_any_env_deep, "**/.env", "/a/b/.env");
nmatches!(nm_any_env_envrc, "**/.env", "/a/b/.envrc");
matches!(m_pem, "*.pem", "/home/u/keys/server.pem");
matches!(m_pem_root, "*.pem", "/server.pem");
nmatches!(nm_pem_suffix, "*.pem", "/home/u/server.pem.bak");
nmatches!(nm_pem_dir, "*.pem", "/home/u/x.pem/inner");

// A directory and everything in it.
matches!(m_ssh_stars_file, "~/.ssh/**", "~/.ssh/id_rsa");
matches!(m_ssh_stars_deep, "~/.ssh/**", "~/.ssh/a/b");
matches!(m_ssh_stars_itself, "~/.ssh/**", "~/.ssh");
nmatches!(nm_ssh_stars_sibling, "~/.ssh/**", "~/.sshx");
nmatches!(nm_ssh_stars_sibling_file, "~/.ssh/**", "~/.ssh-old/id_rsa");
matches!(m_ssh_slash_file, "~/.ssh/", "~/.ssh/id_rsa");
matches!(m_ssh_slash_itself, "~/.ssh/", "~/.ssh");
nmatches!(nm_ssh_slash_parent, "~/.ssh/", "~");
matches!(m_node_modules, "node_modules/", "/p/node_modules/x/y.js");
matches!(m_node_modules_itself, "node_modules/", "/p/node_modules");
matches!(m_root_everything, "/", "/etc/passwd");
matches!(m_root_itself, "/", "/");
matches!(m_stars_everything, "**", "/etc/passwd");

// `*` stays in one component.
matches!(m_etc_star, "/etc/*", "/etc/passwd");
nmatches!(nm_etc_star_deep, "/etc/*", "/etc/a/b");
nmatches!(nm_etc_star_itself, "/etc/*", "/etc");
matches!(m_etc_stars, "/etc/**", "/etc/a/b");
nmatches!(nm_etc_exact_contents, "/etc/passwd", "/etc/passwd/x");
matches!(m_middle_stars, "/a/**/z", "/a/b/c/z");
matches!(m_middle_stars_zero, "/a/**/z", "/a/z");

// Relative to the cwd.
matches!(
    m_src_rs,
    "src/*.rs",
    "/nonexistent-gptel-home/u/proj/src/main.rs"
);
nmatches!(
    nm_src_rs_deep,
    "src/*.rs",
    "/nonexistent-gptel-home/u/proj/src/a/main.rs"
);
nmatches!(nm_src_rs_elsewhere, "src/*.rs", "/other/src/main.rs");
nmatches!(
    nm_src_rs_nested_src,
    "src/*.rs",
    "/nonexistent-gptel-home/u/proj/x/src/main.rs"
);
matches!(
    m_build_itself,
    "build/**",
    "/nonexistent-gptel-home/u/proj/build"
);
matches!(
    m_build_deep,
    "build/**",
    "/nonexistent-gptel-home/u/proj/build/a/b"
);
matches!(
    m_dot_slash,
    "./Makefile",
    "/nonexistent-gptel-home/u/proj/Makefile"
);
nmatches!(
    nm_dot_slash_deep,
    "./Makefile",
    "/nonexistent-gptel-home/u/proj/sub/Makefile"
);

// Classes and alternations pass through.
matches!(m_class, "/etc/[ps]*", "/etc/passwd");
nmatches!(nm_class, "/etc/[ps]*", "/etc/hosts");
matches!(m_alt, "~/{.ssh,.gnupg}/", "~/.gnupg/private-keys-v1.d/x");
matches!(m_alt_itself, "~/{.ssh,.gnupg}/", "~/.ssh");
nmatches!(nm_alt, "~/{.ssh,.gnupg}/", "~/.aws/credentials");
matches!(
    m_alt_cwd,
    "{src,lib}/*.rs",
    "/nonexistent-gptel-home/u/proj/lib/x.rs"
);
matches!(m_bare_comma_dir, "/tmp/a,b/", "/tmp/a,b/x");
nmatches!(nm_bare_comma_dir, "/tmp/a,b/", "/tmp/a");
matches!(m_posix_class, "/x/[[:digit:],]/", "/x/,/y");

// Case folding.
matches!(m_fold_ascii, "~/.SSH/**", "~/.ssh/id_rsa", true);
matches!(m_fold_unicode, "/Über/**", "/über/x", true);
nmatches!(nm_fold_off, "~/.SSH/**", "~/.ssh/id_rsa", false);

// Metacharacters in a home directory are literal.
#[test]
fn m_home_with_metacharacters() {
    let env = PathEnv {
        home: Some(PathBuf::from("/nonexistent-gptel/[a]{b,c}*")),
        cwd: None,
        case_fold: false,
    };
    let cwd = "/";
    assert!(pattern_matches(
        "~/.ssh/",
        "/nonexistent-gptel/[a]{b,c}*/.ssh/k",
        &env,
        cwd
    ));
    assert!(!pattern_matches(
        "~/.ssh/",
        "/nonexistent-gptel/a/b/.ssh/k",
        &env,
        cwd
    ));
    assert!(!pattern_matches(
        "~/.ssh/",
        "/nonexistent-gptel/[a]b*/.ssh/k",
        &env,
        cwd
    ));
}

// ---------------------------------------------------------------------------
// Normalization and patterns together, with real links

#[cfg(unix)]
#[test]
fn e2e_symlinked_home() {
    // Home is given through a link; paths resolve through it, so must patterns.
    let fx = Fixture::new();
    let env = PathEnv {
        home: Some(fx.p("homelink")),
        cwd: Some(fx.p("home/u/proj")),
        case_fold: false,
    };
    let path = normalize("~/.ssh/id_rsa", &env).expect("normalize");
    assert_eq!(path, fx.sub("{root}/home/u/.ssh/id_rsa"));
    assert!(pattern_matches("~/.ssh/", &path, &env, "/"));
    assert!(pattern_matches("~/.ssh/**", &path, &env, "/"));
    // The written form matches too.
    let written = fx.sub("{root}/homelink/.ssh/id_rsa");
    assert!(pattern_matches("~/.ssh/", &written, &env, "/"));
}

#[cfg(unix)]
#[test]
fn e2e_link_out_of_project() {
    let fx = Fixture::new();
    let env = fx.env(false);
    let cwd = normalize_dir(&fx.sub("{root}/home/u/proj"), &env).expect("cwd");
    let outside = normalize_dir(&fx.sub("{root}/outside"), &env).expect("outside");
    let path = normalize("out/secret", &env).expect("normalize");
    assert!(!is_within(&path, &cwd), "{path} escapes the project");
    assert!(is_within(&path, &outside));
    assert!(pattern_matches(
        &fx.sub("{root}/outside/"),
        &path,
        &env,
        &cwd
    ));
    // An allow pattern for the project does not cover it.
    assert!(!pattern_matches("**/proj/**", &path, &env, &cwd));
    // A pattern written through the link resolves like the path.
    assert!(pattern_matches(
        &fx.sub("{root}/home/u/proj/out/*"),
        &path,
        &env,
        &cwd
    ));
}

#[cfg(unix)]
#[test]
fn e2e_dangling_link_to_etc() {
    let fx = Fixture::new();
    let env = fx.env(false);
    let path = normalize("dangling", &env).expect("normalize");
    assert!(pattern_matches("/etc/**", &path, &env, "/"));
    let path = normalize("passwd", &env).expect("normalize");
    assert!(pattern_matches("/etc/passwd", &path, &env, "/"));
}

#[cfg(unix)]
#[test]
fn e2e_cwd_relative() {
    let fx = Fixture::new();
    let env = fx.env(false);
    let cwd = normalize_dir(&fx.sub("{root}/home/u/proj"), &env).expect("cwd");
    let path = normalize("src/main.rs", &env).expect("normalize");
    assert!(pattern_matches("src/*.rs", &path, &env, &cwd));
    assert!(pattern_matches("./src/", &path, &env, &cwd));
    assert!(!pattern_matches("lib/*.rs", &path, &env, &cwd));
}

#[cfg(unix)]
#[test]
fn e2e_case_fold() {
    let fx = Fixture::new();
    let env = fx.env(true);
    let path = normalize("~/.SSH/ID_RSA", &env).expect("normalize");
    assert!(pattern_matches("~/.ssh/", &path, &env, "/"));
    assert!(pattern_matches("~/.Ssh/", &path, &env, "/"));
}

// ---------------------------------------------------------------------------
// glob() and defaults

#[test]
fn glob_helper_builds() {
    let p = parse_pattern("~/.ssh/**", Some(Path::new(HOME))).expect("pattern");
    let g = glob(&p, false).expect("glob").compile_matcher();
    assert!(g.is_match(format!("{HOME}/.ssh")));
    assert!(g.is_match(format!("{HOME}/.ssh/a/b")));
    assert!(glob(&PathPattern::Absolute("[".into()), false).is_err());
}

#[test]
fn default_lists() {
    assert!(DEFAULT_PATH_KEYS.contains(&"path"));
    assert!(DEFAULT_PATH_KEYS.contains(&"file_path"));
    assert!(DEFAULT_COMMAND_KEYS.contains(&"command"));
    assert_eq!(
        default_case_fold(),
        cfg!(any(target_os = "macos", target_os = "ios", windows))
    );
}

// ---------------------------------------------------------------------------
// Properties

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn env() -> PathEnv {
        PathEnv {
            home: Some(PathBuf::from(HOME)),
            cwd: Some(PathBuf::from(CWD)),
            case_fold: false,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Any string normalizes to a clean absolute path, or is refused.
        #[test]
        fn normalize_is_total(raw in "\\PC{0,48}|[a-z./~:$]{0,24}") {
            if let Ok(p) = normalize(&raw, &env()) {
                prop_assert!(p.starts_with('/'), "{p:?}");
                prop_assert!(p == "/" || !p.ends_with('/'), "{p:?}");
                prop_assert!(
                    !p.split('/').skip(1).any(|c| c.is_empty() && p != "/" || c == "." || c == ".."),
                    "{p:?}"
                );
                prop_assert!(!p.chars().any(|c| c == '\0'));
            }
        }

        /// Any pattern is refused or builds with the evaluator's flags.
        #[test]
        fn pattern_is_total(pat in "[a-z~/.*?\\[\\]{},!:^\\\\-]{0,24}") {
            if let Ok(p) = parse_pattern(&pat, Some(Path::new(HOME))) {
                prop_assert!(glob(&p, false).is_ok(), "{pat:?} -> {p:?}");
            }
        }

        /// A home full of glob syntax is literal: `~/` covers it and only it.
        #[test]
        fn home_is_literal(name in "[a-z*?\\[\\]{},!^\\\\-]{1,10}", child in "[a-z]{1,5}") {
            let home = format!("/nonexistent-gptel/{name}");
            let env = PathEnv { home: Some(PathBuf::from(&home)), cwd: None, case_fold: false };
            let below = format!("{home}/{child}");
            let sibling = format!("{home}{child}");
            let itself = pattern_matches("~/", &home, &env, "/");
            let inside = pattern_matches("~/", &below, &env, "/");
            let beside = pattern_matches("~/", &sibling, &env, "/");
            let other = pattern_matches("~/", "/nonexistent-gptel/x", &env, "/");
            prop_assert!(itself, "home {:?}", home);
            prop_assert!(inside, "below {:?}", below);
            prop_assert!(!beside, "sibling {:?}", sibling);
            prop_assert!(!other || name == "x", "other, home {:?}", home);
        }

        /// `is_within` is a whole-component prefix test.
        #[test]
        fn within_is_by_components(a in "(/[ab]{1,2}){0,4}", b in "(/[ab]{1,2}){0,3}") {
            let a = if a.is_empty() { "/".to_string() } else { a };
            let b = if b.is_empty() { "/".to_string() } else { b };
            let ca: Vec<&str> = a.split('/').filter(|c| !c.is_empty()).collect();
            let cb: Vec<&str> = b.split('/').filter(|c| !c.is_empty()).collect();
            prop_assert_eq!(is_within(&a, &b), ca.starts_with(&cb), "{} in {}", a, b);
        }
    }
}

// ---------------------------------------------------------------------------
// The per-decision memo of file-system lookups, and `realpath`

mod memo {
    use super::Fixture;
    use gptel_rust_hooks::path::{normalize, realpath, with_memo};
    use std::fs;

    const PATHS: &[&str] = &[
        "src/main.rs",
        "out/secret",
        "rel/secret",
        "hop/deep/dir",
        "passwd",
        "dangling",
        "dangle-rel",
        "loop1",
        "self",
        "deep/../secret",
        "srclink/../src/main.rs",
        "srclink/main.rs",
        "nope/x",
        "~/.ssh/id_rsa",
        "../../../homelink/proj/out/secret",
        "/proc/self/root/etc/passwd",
    ];

    /// Every path normalizes to the same answer with the memo as without,
    /// each alone and all in one scope (where later ones reuse prefixes).
    #[test]
    fn memo_changes_no_answer() {
        let fx = Fixture::new();
        let env = fx.env(false);
        let alone: Vec<_> = PATHS.iter().map(|p| normalize(p, &env)).collect();
        let each: Vec<_> = PATHS
            .iter()
            .map(|p| with_memo(|| normalize(p, &env)))
            .collect();
        let shared: Vec<_> = with_memo(|| {
            // Twice over, so the second pass reads only remembered names.
            for p in PATHS {
                let _ = normalize(p, &env);
            }
            PATHS.iter().map(|p| normalize(p, &env)).collect()
        });
        assert_eq!(alone, each);
        assert_eq!(alone, shared);
        assert!(alone.iter().any(|r| r.is_err()), "some cases are refused");
        assert!(alone.iter().filter(|r| r.is_ok()).count() >= 8);
    }

    /// Within one scope a link is read once; the next scope sees a change.
    #[test]
    fn memo_lasts_one_scope() {
        let fx = Fixture::new();
        let env = fx.env(false);
        let link = fx.p("home/u/proj/moving");
        std::os::unix::fs::symlink(fx.p("home/u/proj/src"), &link).expect("symlink");
        let before = fx.sub("{root}/home/u/proj/src/main.rs");
        let after = fx.sub("{root}/outside/main.rs");
        let (first, second) = with_memo(|| {
            let first = normalize("moving/main.rs", &env);
            fs::remove_file(&link).expect("rm link");
            std::os::unix::fs::symlink(fx.p("outside"), &link).expect("symlink");
            (first, normalize("moving/main.rs", &env))
        });
        assert_eq!(first.as_deref(), Ok(before.as_str()));
        assert_eq!(
            second.as_deref(),
            Ok(before.as_str()),
            "one scope, one reading"
        );
        let third = with_memo(|| normalize("moving/main.rs", &env));
        assert_eq!(
            third.as_deref(),
            Ok(after.as_str()),
            "a new scope reads again"
        );
        assert_eq!(
            normalize("moving/main.rs", &env).as_deref(),
            Ok(after.as_str())
        );
    }

    /// `realpath` is the C library's, for what exists, and None otherwise.
    #[test]
    fn realpath_is_canonicalize() {
        let fx = Fixture::new();
        for rel in [
            "home/u/proj/src/main.rs",
            "home/u/proj/out",
            "home/u/proj/rel",
            "home/u/proj/hop",
            "home/u/proj/deep/../secret",
            "home/u/proj/srclink/../src",
            "home/u/proj/dangling",
            "home/u/proj/loop1",
            "home/u/proj/nope",
            "homelink/proj/srclink/main.rs",
            "",
        ] {
            let abs = fx.sub(&format!("{{root}}/{rel}"));
            let want = fs::canonicalize(&abs)
                .ok()
                .and_then(|p| p.into_os_string().into_string().ok());
            assert_eq!(realpath(&abs), want, "{rel}");
            assert_eq!(with_memo(|| realpath(&abs)), want, "{rel} in a scope");
        }
        assert_eq!(realpath("/proc/self/root"), Some("/".to_string()));
    }
}

#[test]
fn kernel_slashes_reads_runs_of_slashes_as_one() {
    use gptel_rust_hooks::path::kernel_slashes;
    for (raw, want) in [
        ("~//.ssh", "~/.ssh"),
        (".//", "./"),
        ("//tmp///x//", "/tmp/x/"),
        ("a/b", "a/b"),
        ("é//ü", "é/ü"),
    ] {
        assert_eq!(kernel_slashes(raw), want, "{raw}");
    }
}
