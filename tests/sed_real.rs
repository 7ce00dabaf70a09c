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
        let reading = read_code("sed", &s).expect("sed has a reader");
        let quiet =
            reading.unknown.is_none() && reading.shell.is_empty() && reading.writes.is_empty();
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
