//! awk's reader checked against the real awks: programs made from a small grammar of
//! what the reader's lexer decides on (`print` and its parentheses, `>` and `>>`,
//! `/` as a regular expression or a division, strings, brackets, `||`, comments, line
//! ends) are run by gawk, mawk, busybox awk and the one true awk in an empty directory
//! beside one input file. Every program the reader calls known must leave that
//! directory as it was in every awk: a file made there is a `>` the lexer took for a
//! comparison, a bypass. (`system`, `getline` and `|` are refused before the lexer
//! runs, so a file is the only effect left to look for.)
//!
//! `make test` runs a seeded sample (`AWK_PROGRAMS`, 1,500 by default); the awks come
//! from `make programs`.

mod common;
#[path = "common/sample.rs"]
mod sample;

use gptel_rust_hooks::shell::read_code;
use sample::{names, Lcg};
use std::process::{Command, Stdio};

/// The awks, each as its argv before the program.
const AWKS: &[&[&str]] = &[&["gawk"], &["mawk"], &["busybox", "awk"], &["original-awk"]];

const ATOMS: &[&str] = &[
    "$1",
    "$2",
    "NF",
    "x",
    "1",
    "2",
    "\"s\"",
    "\"o>p\"",
    "\"a|b\"",
    "a[$1]",
    "length",
    "x++",
    "/a|b/",
    "/x>y/",
    "/[/]/",
    "/[[:alpha:]]/",
    "/[]/]/",
    "/\\//",
    "$NF",
];

const OPS: &[&str] = &[
    " > ", ">", " >= ", " / ", "/", " < ", " || ", " && ", " ", " + ", " ~ ", " ? 1 : ", ">>", "|",
];

fn expr(g: &mut Lcg, depth: usize) -> String {
    match if depth > 2 { 0 } else { g.next(5) } {
        0 | 1 => g.pick(ATOMS).to_string(),
        2 => format!("({})", expr(g, depth + 1)),
        3 => format!("!{}", expr(g, depth + 1)),
        _ => format!(
            "{}{}{}",
            expr(g, depth + 1),
            g.pick(OPS),
            expr(g, depth + 1)
        ),
    }
}

fn statement(g: &mut Lcg) -> String {
    match g.next(6) {
        0 | 1 => format!("print {}", expr(g, 0)),
        2 => format!("print {}, {}", expr(g, 0), expr(g, 0)),
        3 => format!(
            "printf(\"%s\\n\", {}) {}",
            expr(g, 0),
            g.pick(&["", "> \"p\""])
        ),
        4 => format!("if ({}) {}", expr(g, 0), statement(g)),
        _ => format!("x = {}", expr(g, 0)),
    }
}

fn program(g: &mut Lcg) -> String {
    let mut p = String::new();
    for _ in 0..=g.next(2) {
        if g.next(2) == 0 {
            p.push_str(&expr(g, 0));
        }
        if g.next(4) > 0 {
            p.push_str(" { ");
            for k in 0..=g.next(3) {
                if k > 0 {
                    p.push_str(g.pick(&["; ", "\n", ";\n", ",\n"]));
                }
                p.push_str(&statement(g));
            }
            p.push_str(g.pick(&[" }", " } # > \"c\"", "\n}"]));
        }
        p.push_str(g.pick(&["\n", "; ", " "]));
    }
    p
}

#[test]
fn known_programs_make_no_file_in_any_awk() {
    for awk in AWKS {
        let found = Command::new(awk[0])
            .args(&awk[1..])
            .arg("BEGIN{}")
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            found,
            "{}: not installed here (make programs)",
            awk.join(" ")
        );
    }
    let n: usize = std::env::var("AWK_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let dir = common::process_dir("grh-awk-real");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let input = "5 a/b x>y\n1 c|d 2\n";
    std::fs::write(dir.join("f"), input).expect("write");
    let mut g = Lcg(23);
    let (mut known, mut ran, mut bypasses) = (0, 0, Vec::new());
    for _ in 0..n {
        let p = program(&mut g);
        let reading = read_code("awk", &p).expect("awk has a reader");
        if reading.unknown.is_some() {
            continue;
        }
        known += 1;
        for awk in AWKS {
            let out = Command::new("timeout")
                .arg("2")
                .args(*awk)
                .arg(&p)
                .arg("f")
                .current_dir(&dir)
                .stdin(Stdio::null())
                .output()
                .expect("run awk");
            ran += usize::from(out.status.success());
            if names(&dir) != ["f"]
                || std::fs::read_to_string(dir.join("f")).ok().as_deref() != Some(input)
            {
                bypasses.push(format!("{}: {p:?} made {:?}", awk.join(" "), names(&dir)));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).expect("mkdir");
                std::fs::write(dir.join("f"), input).expect("write");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("awk programs: {n} made, {known} known, {ran} runs that succeeded");
    assert!(
        bypasses.is_empty(),
        "known programs that wrote a file:\n{}",
        bypasses.join("\n")
    );
    // The sample must reach the lexer's decisions: programs that awk runs, known ones.
    assert!(known * 10 > n, "too few known programs: {known} of {n}");
    assert!(
        ran > known,
        "too few programs ran: {ran} runs of {known} known programs"
    );
}

/// A name right after a number is a name of its own to every awk (helper-52: `x =
/// 1system("…")` is `1` and a call of `system`, and ran the command, allowed): each
/// spelling of a number, then a call that makes a file, in every awk. Where one awk
/// makes the file, the reader must not call the program known.
#[test]
fn names_right_after_numbers_are_names() {
    const NUMBERS: &[&str] = &[
        "1", "0", "10", ".5", "1.", "1.5", "1e2", "1E+2", "0x1f", "011",
    ];
    const CALLS: &[&str] = &["system(\"touch made\")", "getline < \"made\""];
    let dir = common::process_dir("grh-awk-numbers");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let (mut made, mut bypasses) = (0, Vec::new());
    for number in NUMBERS {
        for call in CALLS {
            let p = format!("BEGIN {{ x = {number}{call} }}");
            let reading = read_code("awk", &p).expect("awk has a reader");
            let quiet = reading.unknown.is_none() && reading.shell.is_empty();
            for awk in AWKS {
                let _ = Command::new("timeout")
                    .arg("2")
                    .args(*awk)
                    .arg(&p)
                    .current_dir(&dir)
                    .stdin(Stdio::null())
                    .output()
                    .expect("run awk");
                if !names(&dir).is_empty() {
                    made += 1;
                    if quiet {
                        bypasses.push(format!("{}: {p:?} made {:?}", awk.join(" "), names(&dir)));
                    }
                    let _ = std::fs::remove_dir_all(&dir);
                    std::fs::create_dir_all(&dir).expect("mkdir");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        bypasses.is_empty(),
        "programs read as known that made a file:\n{}",
        bypasses.join("\n")
    );
    assert!(made > 0, "no awk ran a call right after a number");
}
