//! sed's reader checked against GNU sed: scripts made from a small grammar of what the
//! reader decides on (labels and branches and where they end, blocks, addresses,
//! `;`, newlines, blanks and tabs between commands, `e`, `w`, `s///e` and `s///w`)
//! are run by `sed -n` in an empty directory beside one input file. Every script the
//! reader calls known and finds no command or file in must leave that directory as it
//! was: a file made there is an `e` or a `w` the reader did not see, a bypass
//! (helper-47: `:x e CMD` was read as the label `x e CMD`). The scripts that run or
//! write name a file `made`, so one effect is enough to look for.
//!
//! `make test` runs a seeded sample (`SED_SCRIPTS`, 1,500 by default).

mod common;
#[path = "common/sample.rs"]
mod sample;

use gptel_rust_hooks::shell::read_code;
use sample::{names, Lcg};
use std::process::{Command, Stdio};

/// The commands, each with what may come before it.
const COMMANDS: &[&str] = &[
    ":x",
    ": x",
    ":x}",
    "tx",
    "t x",
    "b",
    "b end",
    "p",
    "N",
    "x",
    "=",
    "s/a/b/",
    "y/a/b/",
    "{",
    "}",
    "q",
    "#c",
    "e touch made",
    // `e`'s command goes on after a backslash and a newline (helper-53).
    "e # \\\ntouch made",
    "e true \\x3b touch made",
    "e",
    "w made",
    "s/^/touch made/e",
    "s/a/b/w made",
    "r f",
    "v",
    "v 4.2",
];
const ADDRESSES: &[&str] = &["", "", "", "1", "$", "/a/", "1,$", "$!", "1!"];

const BETWEEN: &[&str] = &[";", "\n", " ", "\t", "", " ;", ";\n", "} ", "{"];

/// A script of one to five commands.
fn script(g: &mut Lcg) -> String {
    let mut s = String::new();
    for k in 0..=g.next(5) {
        if k > 0 {
            s.push_str(g.pick(BETWEEN));
        }
        s.push_str(g.pick(ADDRESSES));
        s.push_str(g.pick(COMMANDS));
    }
    if g.next(3) == 0 {
        s.push_str("\n:end");
    }
    s
}

/// Whether GNU sed's own reading of a script, the program `sed --debug` prints (each
/// command on a line, after its address and a blank; `s` always with `/`, a `/` inside
/// escaped, its flags last), runs the pattern space or writes a file: an `e`, `w` or
/// `W` command, or an `s` with an `e` or `w` flag.
fn sed_runs_or_writes(program: &str) -> bool {
    program.lines().skip(1).any(|line| {
        let command = after_address(line.trim_start());
        match command.chars().next() {
            Some('e' | 'w' | 'W') => true,
            Some('s') => s_flags(command).contains(['e', 'w']),
            _ => false,
        }
    })
}

/// The program GNU sed reads SCRIPT as (`sed --debug`), run in DIR (a `w` file is made
/// there); empty when sed refuses it.
fn sed_program(dir: &std::path::Path, script: &str) -> String {
    let out = Command::new("timeout")
        .args(["1", "sed", "--debug", "-n"])
        .arg(script)
        .arg("/dev/null")
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run sed --debug");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// LINE after the address sed prints before its command (`1! `, `/a\/b/I,+3 `).
fn after_address(line: &str) -> &str {
    let mut chars = line.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '/' => {
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '/' => break,
                        _ => {}
                    }
                }
            }
            ' ' => return line[k..].trim_start(),
            c if c.is_ascii_digit() || "$~+,!IM".contains(c) => {}
            _ => return &line[k..],
        }
    }
    ""
}

/// The flags of the `s` command COMMAND as sed prints it (`s/a\/b/c/ep3`).
fn s_flags(command: &str) -> &str {
    let mut slashes = 0;
    let mut chars = command.char_indices().skip(1);
    while let Some((k, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '/' => {
                slashes += 1;
                if slashes == 3 {
                    return &command[k + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// Whether sed's reader says SCRIPT runs nothing a rule could see and writes nothing
/// (the first), and whether it runs no command at all (the second): `e # x` runs a
/// command in which the shell reading finds none.
fn quiet(script: &str) -> (bool, bool) {
    let reading = read_code("sed", script).expect("sed has a reader");
    let quiet = reading.unknown.is_none()
        && reading.writes.is_empty()
        && reading.shell.iter().all(|c| {
            let line = gptel_rust_hooks::shell::parse(c);
            line.is_certain() && line.commands.is_empty() && line.redirects.is_empty()
        });
    (quiet, quiet && reading.shell.is_empty())
}

#[test]
fn sed_debug_is_read() {
    let program = "SED PROGRAM:\n  s/[]\\/]/;s/e\n  /./ p\n";
    assert!(sed_runs_or_writes(program));
    assert!(!sed_runs_or_writes(
        "SED PROGRAM:\n  s/a\\/e/w/g\n  /e/I,+3! {\n    p\n  }\n"
    ));
    assert!(sed_runs_or_writes("SED PROGRAM:\n  /x\\/y/ s/a/b/wout\n"));
    assert!(sed_runs_or_writes("SED PROGRAM:\n  0~2 Ww2\n"));
    assert!(sed_runs_or_writes("SED PROGRAM:\n  $ e \n"));
    assert!(!sed_runs_or_writes(
        "SED PROGRAM:\n  /w/ y/a/b/cde/\n  :e\n  t e\n"
    ));
}

#[test]
fn known_scripts_run_and_write_nothing_unseen() {
    let n: usize = std::env::var("SED_SCRIPTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let dir = common::process_dir("grh-sed-real");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let input = "a\nb\n";
    std::fs::write(dir.join("f"), input).expect("write");
    let mut g = Lcg(47);
    let (mut clean, mut ran, mut seen_made, mut bypasses) = (0, 0, 0, Vec::new());
    for _ in 0..n {
        let s = script(&mut g);
        let (quiet, no_command) = quiet(&s);
        clean += usize::from(quiet);
        let out = Command::new("timeout")
            .args(["1", "sed", "-n"])
            .arg(&s)
            .arg("f")
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .expect("run sed");
        ran += usize::from(out.status.success());
        // What sed itself read the script as: an `e` or a `w` the reader did not see
        // is a bypass whether or not this input reaches it.
        let program = sed_program(&dir, &s);
        if no_command && sed_runs_or_writes(&program) {
            bypasses.push(format!("{s:?} is, to sed:\n{program}"));
        }
        if names(&dir) != ["f"] {
            seen_made += 1;
            if quiet {
                bypasses.push(format!("{s:?} made {:?}", names(&dir)));
            }
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(dir.join("f"), input).expect("write");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "sed scripts: {n} made, {clean} read as running and writing nothing, {ran} ran, {seen_made} made a file"
    );
    assert!(
        bypasses.is_empty(),
        "scripts read as running and writing nothing that made a file:\n{}",
        bypasses.join("\n")
    );
    // The sample must reach the reader's decisions both ways.
    assert!(clean * 10 > n, "too few quiet scripts: {clean} of {n}");
    assert!(
        seen_made * 10 > n,
        "too few scripts made a file: {seen_made} of {n}"
    );
    assert!(ran * 4 > n, "too few scripts ran: {ran} of {n}");
}

/// Where a bracket expression ends (`[]/]` holds `]` and `/`; `[[:alpha:]/]` holds `/`),
/// checked against sed's own reading: an `s`, `y` or address whose expression is one of
/// BRACKETS, then what may follow it (helper-52: `s/[]/]/;s/e;/./p` is, to sed, an `s`
/// with the flag `e`; the reader ended the bracket at its first `]`).
const BRACKETS: &[&str] = &[
    "[]",
    "[^]",
    "[]a",
    "[",
    "[[:alpha:]",
    "[[:alpha:]]",
    "[[.a.]",
    "[[=a=]",
    "[[.].]",
    "[[=]=]",
    "[[:]",
    "[a\\",
    "\\[",
    "[\\]",
    "[^",
    "a",
    "[[]",
    "[]]",
    "[:]",
    // An element whose closing character is doubled stays open (helper-53).
    "[[...]]",
    "[[..]",
    "[[=.=]]",
    "[[:a:]",
    "[a[.b.]",
    "[[===]]",
    "[^]]",
];
const MIDDLES: &[&str] = &[
    "]", "x", "", "]]", "/", ":]", ".]", "=]", "[", "a]", "\\/", "/;b.]]", ".]]", "=]]", ":]]",
];
const TAILS: &[&str] = &[
    ";s/e;/./p",
    "e",
    "w made",
    ";p",
    "g;s/x/y/e",
    "/;e",
    "/e",
    "/w made",
    "/x/e",
    "]/x/e",
    "/g",
    ";s/a/b/w made",
    "/x/p",
    "]/e;p",
    "/;s/x/y/e",
    "/x/ep",
    "/e touch made",
    "/;b.]]/x/ep",
    "/;bx]]//e",
    "/;b=]]/x/w made",
];

#[test]
fn brackets_end_where_sed_ends_them() {
    let dir = common::process_dir("grh-sed-brackets");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut g = Lcg(52);
    let (mut quiet_n, mut effects, mut bypasses) = (0, 0, Vec::new());
    let n = 3000;
    for _ in 0..n {
        let head = g.pick(&["s/", "s/", "y/", "/", "\\|", "s|", "1,/"]);
        let delimiter = if head.contains('|') { "|" } else { "/" };
        let mut s = format!("{head}{}", g.pick(BRACKETS));
        if g.next(2) == 0 {
            s.push_str(g.pick(BRACKETS));
        }
        s.push_str(delimiter);
        s.push_str(g.pick(MIDDLES));
        s.push_str(&g.pick(TAILS).replace('/', delimiter));
        let (_, quiet) = quiet(&s);
        quiet_n += usize::from(quiet);
        let program = sed_program(&dir, &s);
        if sed_runs_or_writes(&program) {
            effects += 1;
            if quiet {
                bypasses.push(format!("{s:?} is, to sed:\n{program}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("sed brackets: {n} scripts, {quiet_n} read as running and writing nothing, {effects} run or write to sed");
    assert!(
        bypasses.is_empty(),
        "scripts read as running and writing nothing that sed reads as running or writing:\n{}",
        bypasses.join("\n")
    );
    // Most scripts hold a delimiter in a bracket (not read) or are not sed's: the
    // sample must still reach both decisions.
    assert!(quiet_n * 50 > n, "too few quiet scripts: {quiet_n} of {n}");
    assert!(
        effects * 20 > n,
        "too few scripts run or write: {effects} of {n}"
    );
}
