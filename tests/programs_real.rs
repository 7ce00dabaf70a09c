//! The program table verified against the real programs, as `tests/bash_oracle.rs`
//! verifies the bash reading against bash.
//!
//! For each entry of the table (`shell::table()`, subcommands included) whose program is
//! installed here, invocations are made from the entry's examples and from its options
//! and operand roles ([`invocations`]): each option spelled long and short, its value and
//! the operands filled by role (a file to read, a directory to walk, a new file to write,
//! a file of names, a pattern, data, `echo` as a command to run). Each runs for real in
//! bash, in a fresh scratch directory, under bubblewrap (no network, only the scratch
//! writable) and `strace -f` (see `tests/trace/mod.rs`). Then:
//!
//! - every program executed must be a command of the reading (`shell::read_for_rules`,
//!   what rules see): its basename is the `argv[0]` of one of them ([`Kind::Exec`]);
//! - every file opened, made, removed or changed in the scratch must be one the reading
//!   found: equal to a path candidate of the call (`Prepared::paths`, what path rules
//!   see), an ancestor of one, or below one that the table says the program walks, moves
//!   to or writes (`shell::read`, its roles) ([`Kind::Opened`]); when the command has no
//!   path at all and the program works in its directory anyway (`rg x`, `ls`), the
//!   finding is [`Kind::ImplicitCwd`];
//! - what the program opens by itself is ignored: the baseline of each program is what
//!   `NAME --version` and `NAME` alone open, run in an empty directory. A file outside the
//!   scratch's work directory that is not in the baseline is a program's own file (its
//!   configuration, `/etc/passwd` for `ls -l`): counted and shown as [`Kind::Own`], not a
//!   disagreement (the sandbox's hiding is for those, see the README).
//!
//! - for `git`, the work directory is a repository (`trace::work::TRACKED` committed, `.env`
//!   ignored, some files untracked; made once and copied for each run): the
//!   repository (`.git`) and the files at the top that configure git ([`GIT_OWN`]) are
//!   its own, and so is its move to the top; the rest of the tree is judged as above
//!   (git's `:/`, the top, is the work directory).
//!
//! Every disagreement is printed with its entry, shrunk (words dropped while the same
//! kind of finding stays). `KNOWN` lists the families the table has today, each with why;
//! a disagreement outside them fails the test. An entry that cannot be verified here says
//! so in the table (`verified: Verified::Not(WHY)`); every other one must be installed
//! (`make programs`) or be a builtin of bash, and `verified_entries_run` runs each.
//!
//! `make test` runs `sample`: every example, and generated invocations drawn with a fixed
//! seed, for at most `SAMPLE_SECONDS`. `make fuzz FUZZ=programs` runs `all_invocations`
//! (every invocation of every entry, FUZZ_SECONDS at most) and prints every family.

#[path = "programs_real/checker.rs"]
mod checker;
#[path = "programs_real/invocations.rs"]
mod invocations;
#[path = "programs_real/known.rs"]
mod known;
mod trace;
mod words;

use checker::Checker;
use invocations::{installed, invocations, Invocation};
use known::{family, Finding, Kind, KNOWN};

use gptel_rust_hooks::shell::{table, Verified};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// Seconds `make test` gives the sample.
const SAMPLE_SECONDS: u64 = 45;

/// The entries the table marks as not verifiable here, with why.
fn unverified() -> Vec<(&'static str, &'static str)> {
    table()
        .iter()
        .filter_map(|p| match p.verified {
            Verified::Not(why) => Some((p.name(), why)),
            Verified::Here => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The tests.

/// A small generator of numbers, for a seeded sample.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

struct Report {
    entries: usize,
    verified: BTreeSet<String>,
    missing: Vec<String>,
    ran: usize,
    /// (entry, invocation, finding, family) of every disagreement.
    disagreements: Vec<(Invocation, Finding, Option<&'static str>)>,
    own: BTreeMap<String, BTreeSet<String>>,
}

/// Check INVS until DEADLINE.
fn verify(invs: &[Invocation], missing: Vec<String>, deadline: Instant) -> (Report, Checker) {
    let mut checker = Checker::new();
    let mut report = Report {
        entries: table().len(),
        verified: BTreeSet::new(),
        missing,
        ran: 0,
        disagreements: Vec::new(),
        own: BTreeMap::new(),
    };
    for inv in invs {
        if Instant::now() > deadline {
            break;
        }
        report.ran += 1;
        report
            .verified
            .insert(inv.entry.split(' ').next().unwrap_or("").to_string());
        for f in checker.check(inv) {
            if f.kind.disagrees() {
                let fam = family(inv, &f).map(|k| k.name);
                report.disagreements.push((inv.clone(), f, fam));
            } else {
                report
                    .own
                    .entry(inv.entry.clone())
                    .or_default()
                    .insert(f.what);
            }
        }
    }
    (report, checker)
}

/// Print REPORT, shrinking the first disagreement of each (entry, kind) outside the known
/// families; return how many disagreements are outside them.
fn print(report: &Report, checker: &mut Checker, shrink: bool) -> usize {
    println!(
        "\nprogram table: {} entries; {} verified against the real program here ({}); not \
         installed: {:?}; unverifiable: {:?}; {} invocations ran ({} runs with baselines)",
        report.entries,
        report.verified.len(),
        report
            .verified
            .iter()
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        report.missing,
        unverified(),
        report.ran,
        checker.runs
    );
    let mut by_family: BTreeMap<&str, usize> = BTreeMap::new();
    let mut seen: BTreeSet<(String, Kind)> = BTreeSet::new();
    let mut new = 0;
    let every = std::env::var("FUZZ_ALL").is_ok();
    let mut shown: BTreeSet<(String, Kind, String)> = BTreeSet::new();
    for (inv, f, fam) in &report.disagreements {
        if every && fam.is_none() && shown.insert((inv.entry.clone(), f.kind, f.what.clone())) {
            println!(
                "ALL [{}] {:?} `{}`: {:?} {}",
                inv.entry,
                f.kind,
                inv.line(),
                f.op,
                f.what
            );
        }
        match fam {
            Some(name) => *by_family.entry(name).or_default() += 1,
            None => {
                new += 1;
                if seen.insert((inv.entry.clone(), f.kind)) {
                    let small = if shrink {
                        checker.shrink(inv, f.kind, 8)
                    } else {
                        inv.clone()
                    };
                    println!(
                        "DISAGREE [{}] {:?}: `{}` (shrunk from `{}`): {}{}",
                        inv.entry,
                        f.kind,
                        small.line(),
                        inv.line(),
                        f.op.map(|o| format!("{o:?} ")).unwrap_or_default(),
                        f.what
                    );
                }
            }
        }
    }
    println!("known families: {by_family:?}");
    for k in KNOWN {
        if by_family.contains_key(k.name) {
            println!("  {}: {}", k.name, k.why);
        }
    }
    for (entry, files) in &report.own {
        let first: Vec<&String> = files.iter().take(4).collect();
        println!("own files of {entry} (not disagreements): {first:?}");
    }
    new
}

/// Each known family's example still disagrees (else the family is closed: remove it).
#[test]
fn known_families_still_disagree() {
    let mut c = Checker::new();
    let mut closed = Vec::new();
    for k in KNOWN {
        let inv = Invocation::of(k.example.0, k.example.1);
        let found = c.check(&inv);
        let still = found
            .iter()
            .any(|f| f.kind == k.kind && family(&inv, f).is_some_and(|g| g.name == k.name));
        if !still {
            closed.push(format!("{}: `{}`: {found:?}", k.name, k.example.1));
        }
    }
    assert!(
        closed.is_empty(),
        "these known families no longer disagree on their example; remove them from KNOWN:\n{}",
        closed.join("\n")
    );
}

/// `make test`: every example, then generated invocations in a seeded order, for at most
/// SAMPLE_SECONDS.
#[test]
fn sample() {
    let start = Instant::now();
    let (all, missing) = invocations();
    assert!(
        !all.is_empty(),
        "no entry of the table is installed here (`make deps`)"
    );
    let (mut examples, mut generated): (Vec<Invocation>, Vec<Invocation>) =
        all.into_iter().partition(|i| i.example);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for i in (1..generated.len()).rev() {
        let j = (xorshift(&mut state) % (i as u64 + 1)) as usize;
        generated.swap(i, j);
    }
    examples.extend(generated);
    let (report, mut checker) = verify(
        &examples,
        missing,
        start + Duration::from_secs(SAMPLE_SECONDS),
    );
    let new = print(&report, &mut checker, true);
    println!("total {:.1} s", start.elapsed().as_secs_f64());
    assert!(report.ran > 0, "no invocation ran");
    assert_eq!(
        new, 0,
        "disagreements with the real programs outside the known families (above)"
    );
}

/// Every entry the table marks verified here is installed (or a builtin of bash) and
/// runs: its first example, checked as `sample` checks it.
#[test]
fn verified_entries_run() {
    let mut c = Checker::new();
    let mut problems = Vec::new();
    let mut ran = 0;
    for p in table() {
        if let Verified::Not(why) = p.verified {
            assert!(!why.trim().is_empty(), "{}: no reason", p.name());
            continue;
        }
        let Some(name) = installed(p) else {
            problems.push(format!("{}: marked verified, not installed here", p.name()));
            continue;
        };
        let Some(e) = p.examples.first() else {
            problems.push(format!("{}: no example to run", p.name()));
            continue;
        };
        let mut inv = Invocation::of(p.name(), e.line);
        inv.example = true;
        if let Some(w) = inv.words.first_mut() {
            *w = name;
        }
        let before = c.runs;
        for f in c.check(&inv) {
            if f.kind.disagrees() && family(&inv, &f).is_none() {
                problems.push(format!("{}: `{}`: {f:?}", p.name(), inv.line()));
            }
        }
        if c.runs > before {
            ran += 1;
        }
    }
    println!(
        "{ran} verified entries ran; not verifiable here: {:?}",
        unverified()
    );
    assert!(ran > 0);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `make fuzz FUZZ=programs`: every invocation of every entry (or of the entries named
/// in `FUZZ_ENTRIES`, comma-separated), FUZZ_SECONDS at most.
#[test]
#[ignore = "run by `make fuzz FUZZ=programs`"]
fn all_invocations() {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let start = Instant::now();
    let (mut all, missing) = invocations();
    // `FUZZ_ENTRIES=git,tar`: only these entries (their subcommands included).
    if let Ok(only) = std::env::var("FUZZ_ENTRIES") {
        let names: Vec<&str> = only.split(',').map(str::trim).collect();
        all.retain(|i| names.contains(&i.entry.split(' ').next().unwrap_or("")));
    }
    // `FUZZ_SKIP=N`: from the Nth invocation on (the rest of a run that ran out of time).
    if let Some(n) = std::env::var("FUZZ_SKIP")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        all.drain(..n.min(all.len()));
    }
    let (report, mut checker) = verify(&all, missing, start + Duration::from_secs(secs));
    let new = print(&report, &mut checker, true);
    println!(
        "{} of {} invocations in {:.0} s",
        report.ran,
        all.len(),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(new, 0, "disagreements outside the known families (above)");
}

/// The checker itself: a line that walks a directory the reading does not see is a
/// disagreement, and the reading's own operand is not.
#[test]
fn checker_sees_a_walk_the_reading_misses() {
    let mut c = Checker::new();
    // `cat f1` opens f1, which the reading has.
    let ok = c.check(&Invocation::of("cat", "cat f1"));
    assert!(ok.iter().all(|f| !f.kind.disagrees()), "{ok:?}");
    // A name only the running shell makes: the reading cannot see it.
    let hidden = Invocation::of("cat", "cat d1/a.txt");
    let plain = c.check(&hidden);
    assert!(
        plain.iter().all(|f| !f.kind.disagrees()),
        "the plain line agrees: {plain:?}"
    );
    let bad = c.check_line(&hidden, "cat $(printf d1/%s a.txt)");
    assert!(
        bad.iter()
            .any(|f| f.kind == Kind::Opened && f.what.ends_with("d1/a.txt")),
        "{bad:?}"
    );
}
