//! Differential test of the shell reading against real bash.
//!
//! Generated command lines run in real bash (bash 5.2, `/bin/bash`) inside bubblewrap,
//! with logging stand-ins for every program on a private `PATH`; what bash executed,
//! word for word, is compared with what [`reading`] says the line runs.
//!
//! - `tests/oracle/gen.rs`: the generator, a grammar of bash drawn from a tape of
//!   choices (deterministic from a seed, shrinkable). It also records what it knows:
//!   which commands must run, which are only text, the constructs around each.
//! - `tests/oracle/standin.rs`: the stand-in program and the driver run in the sandbox.
//! - `tests/oracle/mod.rs`: the sandbox, the comparison rules ([`oracle::compare`]) and
//!   the shrinker.
//!
//! # The comparison (details in `oracle::compare` and `oracle::Pat`)
//!
//! Soundness, on every line: every program bash ran must be one the reading has.
//! - An exec matches a reading command when its words match the command's `argv`
//!   (`argv[0]` compared by basename: `/usr/local/bin/rm` is `rm`). The exec of a wrapper
//!   (`env`, `nohup`, `timeout`, `sudo`, `bash -c`...) matches a run of the command's
//!   `written` words starting at that wrapper: `nohup sudo rm x` is one reading command
//!   (argv `rm x`, written `nohup sudo rm x`) and three execs. A program bash ran under
//!   `sudo`/`doas` (the stand-in marks everything below it) must match a command the
//!   reading calls privileged.
//! - Words the reading keeps as written (`$x`, `${x:-y}`, `$(cmd)`, backquotes, `$((..))`,
//!   globs, `~`, `{}`, `<(...)`) cannot be compared with what bash made of them, which
//!   nobody can know statically. Such a word is a pattern: each expansion matches any
//!   text, the rest must be equal, and it may stand for several exec words (field
//!   splitting, globs: they are compared joined by one blank) or none when it has no
//!   literal part (`$e` empty). A reading word from quoted text looks the same (`'$x'`
//!   unquoted is `$x`), so the rule can only be lenient: it hides a misread expansion,
//!   never invents a difference. Behind `xargs` the exec may have more words at the end.
//!   Every other word must be equal byte for byte.
//! - `fromfile` (the commands of `rc.sh`, which no reading can see) is left out, except
//!   that a certain line must not run it unless the reading shows the file being run.
//!
//! Exactness, on a line the reading calls certain: soundness (any miss is an allow
//! bypass), and no program the reading invents. Control flow makes the second half
//! checkable only where the line leaves no choice: the generator marks every command it
//! writes `Must` (runs whatever happens), `Maybe` (`a || b` with `a` succeeding, an
//! `if` branch, `${x:+...}`: bash decides) or `Data` (a comment, quoted text, a quoted
//! here-document body). A reading command bash did not run is an over-report when it is
//! `Data`, or when it has no id and the whole line is determined (no `Maybe` at all).
//! Stand-ins exit 0 (`nope`, `false` exit 1) and print nothing, so the generator knows
//! the status of what it writes. The generator is checked too: a `Must` command that did
//! not run, a `Data` one that did, or a syntax error is a `Model` failure.
//!
//! The current reading has known bugs: [`KNOWN`] lists them by family, each with a
//! minimal line that shows it. `generated_lines_agree_with_bash` fails on any
//! disagreement outside those families; `known_disagreements_still_disagree` fails when
//! a family's example stops disagreeing, so the list shrinks as the reading is fixed.
//! `make fuzz` runs the generator with random seeds for `FUZZ_SECONDS` and prints every
//! family it hit, with a shrunk line for each.

mod oracle;

use oracle::{Checked, Finding, Kind, ReadCommand, Reading};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The reading under test: the one seam between this test and the project. What the
/// rules see (`shell::read_for_rules`): the line's commands, certain when an allow rule
/// may allow the line (`CommandLine::is_certain`: every construct in the certain subset,
/// no bound reached), and the commands of its second looks, which deny rules see too.
fn reading(line: &str) -> Reading {
    let (parsed, second) = gptel_rust_hooks::shell::read_for_rules(line);
    let command = |c: gptel_rust_hooks::shell::SimpleCommand, second_look: bool| ReadCommand {
        argv: c.argv,
        written: c.written,
        forms: c.forms,
        privileged: c.privileged,
        opaque: c.opaque.is_some(),
        second_look,
    };
    Reading {
        certain: parsed.is_certain(),
        readable: parsed.opaque.is_none(),
        commands: parsed
            .commands
            .into_iter()
            .map(|c| command(c, false))
            .chain(
                second
                    .into_iter()
                    .flat_map(|l| l.commands)
                    .map(|c| command(c, true)),
            )
            .collect(),
    }
}

/// The lines `make test` runs: the generator's lines for these seeds.
const SEEDS: std::ops::Range<u64> = 0..2500;

// ---------------------------------------------------------------------------------------
// Known disagreements.

/// A family of disagreements the current reading has.
struct Known {
    name: &'static str,
    /// What goes wrong, and what it costs (printed by `make fuzz`).
    what: &'static str,
    /// A minimal line of the family; `known_disagreements_still_disagree` checks that
    /// it still gives a disagreement of KIND.
    example: &'static str,
    kind: Kind,
    /// Whether a disagreement on a generated line belongs to the family.
    covers: fn(&Finding, &Checked) -> bool,
}

/// The line has construct TAG somewhere.
fn line_has(c: &Checked, tag: &str) -> bool {
    c.gen.tags.contains(tag)
}

/// A miss of a program, a wrong privilege or an over-report (not a wrapper's own run).
fn misread(f: &Finding) -> bool {
    matches!(f.kind, Kind::Missed | Kind::Unprivileged | Kind::OverReport)
}

const WRAPPER_NAMES: &[&str] = &[
    "env", "nohup", "timeout", "nice", "xargs", "find", "stdbuf", "setsid", "taskset", "flock",
    "ionice", "sudo", "doas", "exec", "command", "time",
];

/// Known families, most specific first: a disagreement counts for the first that covers
/// it. A family is matched on the constructs of the whole line, so a new bug on a line
/// that also holds a known construct hides behind it until that family is fixed.
const KNOWN: &[Known] = &[
    Known {
        name: "hidden-wrapper",
        what: "A wrapper inside a string the reading parses again (`bash -c`, `eval`, `sh -c`, a \
               script on a shell's stdin) gets no command of its own: `bash -c 'nohup ls'` is read \
               as `ls` written `bash -c 'nohup ls'`, so a rule for `nohup`, `env` or `sudo` as \
               written does not match. Soundness (deny rules on the wrapper).",
        example: "if echo @; then sudo -E m\\\nv _1 +x{a,$(case x{} in *) cp _2;;\nesac)}\nchmod _3; make _4; fi\nr''m _5",
        kind: Kind::HiddenWrapper,
        covers: |f, _| f.kind == Kind::HiddenWrapper,
    },
    Known {
        name: "heredoc-line",
        what: "A here-document whose operator shares its line with more syntax (a `$(...)` with \
               `((...))`, `[[...]]` and a line continuation, a pipe, a brace group): \
               brush-parser misplaces the body and reads its lines as commands (or loses \
               some). The second look, which reads bodies as bash does and gives a shell \
               reading its standard input the body bash gives it, has the commands. \
               Exactness (deny rules see more).",
        example: "{ l''s _1 %s \"$( (( 1 + 2 )) | printf -v x '%s' = && [[ \"#\" == a* ]];! \
                  r\\\nm _2)'\" << E | $'\\x6cs' _4; }\na \\\ncp _3 -rf x\nE\n",
        kind: Kind::OverReport,
        covers: |f, c| misread(f) && line_has(c, "heredoc"),
    },
    Known {
        name: "dynamic-name-behind-wrapper",
        what: "`nohup $(echo cat) x`, `sudo $p x`: the reading keeps the wrapper as the command \
               (opaque) instead of looking through it to a command whose name it cannot know. \
               Never allowed; a deny rule sees only the wrapper. Soundness, minor.",
        example: "env $(echo ls) _1",
        kind: Kind::Missed,
        covers: |f, c| {
            // The reading kept the wrapper, opaque, with a `$` word, for this very command.
            let id = f.words.iter().skip(1).find(|w| w.starts_with('_'));
            misread(f)
                && c.reading.commands.iter().any(|r| {
                    r.opaque
                        && r.argv.first().is_some_and(|a| WRAPPER_NAMES.contains(&a.as_str()))
                        && r.argv.iter().any(|w| w.starts_with('$'))
                        && id.is_some_and(|id| r.argv.contains(id))
                })
        },
    },
    Known {
        name: "code-in-variable",
        what: "`PS4=$x; set -x` with `x='$(cmd)'`, `PATH=...`, `BASH_ENV=...` and the \
               like: the value of a variable bash reads as code or as a place to find \
               programs. The reading marks the command opaque (never allowed), but a deny \
               rule does not see the command in a value it does not know (a value written \
               in the assignment, `PS4='$(cmd)'`, is read since helper-68). Soundness (deny \
               rules), minor.",
        example: "x='$(rm _1)'; PS4=$x; set -x; ls _2",
        kind: Kind::Missed,
        // The generator's only code in a variable is `$(prog3 ps4)`.
        covers: |f, _| f.kind == Kind::Missed && f.words.len() == 2 && f.words[0] == "prog3" && f.words[1] == "ps4",
    },
    Known {
        name: "brace-expansion",
        what: "Brace expansion of odd forms (`{a,b{}`, an unclosed `{a,b` next to `{}`): bash \
               leaves the word as it is, the reading expands it. Exactness (words).",
        example: "ls _1 {a,b{}",
        kind: Kind::Missed,
        covers: |f, c| misread(f) && line_has(c, "brace"),
    },
    Known {
        name: "sh-is-dash",
        what: "`sh -c STR` runs dash, which does not read brace expansion, `[[`... the way bash \
               does; the reading reads STR as bash and again as dash reads `$'...'`, `$\"...\"` and \
               `&>`, not brace expansion. Exactness (words).",
        example: "sh -c \"ls _1 {a,b}\"",
        kind: Kind::Missed,
        covers: |f, c| misread(f) && line_has(c, "shell-c.sh"),
    },
    Known {
        name: "locale-string",
        what: "`$\"...\"` (a string translated by the locale, otherwise double-quoted) holding a \
               carriage return or a substitution is misread. Soundness.",
        example: "( (\\ls _1 aa\nls _2 $\"\r\"))",
        kind: Kind::Missed,
        covers: |f, c| misread(f) && line_has(c, "locale-dq"),
    },
    Known {
        name: "procsub-word",
        what: "A process substitution joined to more text (`<(cmd)x`) is one word for bash \
               (`/dev/fd/63x`); the reading splits it in two. Exactness (words).",
        example: "ls _1 ${u:-a} <(ls _2)a",
        kind: Kind::Missed,
        covers: |f, c| misread(f) && line_has(c, "procsub"),
    },
];

/// The known family of F, if any. A disagreement on a line the reading calls certain
/// belongs to no family: the certain subset must agree with bash exactly.
fn family(f: &Finding, c: &Checked) -> Option<&'static Known> {
    if f.certain {
        return None;
    }
    KNOWN.iter().find(|k| (k.covers)(f, c))
}

/// Everything about one line, for a failure message.
fn explain(c: &Checked) -> String {
    let mut s = format!("line: {:?}\n", c.gen.line);
    for f in &c.findings {
        s.push_str(&format!("  {}\n", f.describe()));
    }
    for e in &c.outcome.execs {
        s.push_str(&format!(
            "  bash ran{}: {}\n",
            if e.privileged { " (under sudo)" } else { "" },
            oracle::show_words(&e.words)
        ));
    }
    for r in &c.reading.commands {
        let mut written = oracle::show_words(&r.written);
        if written.len() > 160 {
            written = format!("{}...", written.chars().take(160).collect::<String>());
        }
        s.push_str(&format!(
            "  reading{}{}: {}{}\n",
            if r.privileged { " (privileged)" } else { "" },
            if r.opaque { " (opaque)" } else { "" },
            oracle::show_words(&r.argv),
            if r.written == r.argv {
                String::new()
            } else {
                format!("   (written: {written})")
            }
        ));
    }
    s.push_str(&format!(
        "  certain: {}, read as a whole: {}, bash status {}, stderr {:?}\n",
        c.reading.certain, c.reading.readable, c.outcome.status, c.outcome.stderr
    ));
    s
}

// ---------------------------------------------------------------------------------------
// The tests.

#[test]
fn generated_lines_agree_with_bash() {
    let start = Instant::now();
    let results = oracle::check_seeds(SEEDS, reading);
    let elapsed = start.elapsed();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unknown = Vec::new();
    for c in &results {
        let mut bad = false;
        for f in &c.findings {
            match family(f, c) {
                Some(k) if f.kind != Kind::Model => *counts.entry(k.name).or_default() += 1,
                _ => bad = true,
            }
        }
        if bad {
            unknown.push(c);
        }
    }
    eprintln!(
        "bash oracle: {} lines in {:.1} s ({:.0} lines/s); known disagreements: {:?}",
        results.len(),
        elapsed.as_secs_f64(),
        results.len() as f64 / elapsed.as_secs_f64(),
        counts
    );
    let mut shown: Vec<String> = unknown.iter().take(3).map(|c| explain(c)).collect();
    for c in unknown.iter().skip(3).take(40) {
        let fs: Vec<String> = c
            .findings
            .iter()
            .filter(|f| f.kind == Kind::Model || family(f, c).is_none())
            .map(|f| f.describe())
            .collect();
        shown.push(format!("line: {:?}\n  {}", c.gen.line, fs.join("\n  ")));
    }
    assert!(
        unknown.is_empty(),
        "{} generated lines disagree with bash outside the known families (`Model` means the \
         generator was wrong about bash); the first ones:\n{}",
        unknown.len(),
        shown.join("\n")
    );
}

#[test]
fn known_disagreements_still_disagree() {
    let gens = KNOWN
        .iter()
        .map(|k| oracle::plain(k.example, true))
        .collect();
    let results = oracle::check(gens, reading);
    let mut fixed = Vec::new();
    for (k, c) in KNOWN.iter().zip(&results) {
        if !c.findings.iter().any(|f| f.kind == k.kind) {
            fixed.push(format!("{}: {}", k.name, explain(c)));
        }
    }
    assert!(
        fixed.is_empty(),
        "these known families no longer disagree on their example; remove them from KNOWN (or \
         give a line that still shows them):\n{}",
        fixed.join("\n")
    );
}

/// `make fuzz`: random seeds for FUZZ_SECONDS (default 300); every family of
/// disagreement found, counted, with its first lines (FUZZ_EXAMPLES, default 2) shrunk.
#[test]
#[ignore = "run by `make fuzz` (FUZZ_SECONDS, FUZZ_SEED, FUZZ_EXAMPLES)"]
fn fuzz() {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let secs = env("FUZZ_SECONDS").unwrap_or(300);
    let examples = env("FUZZ_EXAMPLES").unwrap_or(2) as usize;
    let seed0 = env("FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64
    });
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    let batch = 1000u64;
    let mut lines = 0u64;
    let mut next = seed0;
    // family (or a description of a new disagreement) -> (count, first instances)
    type Group = (usize, Vec<(Checked, Finding)>);
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    while Instant::now() < deadline {
        let results = oracle::check_seeds(next..next + batch, reading);
        next += batch;
        lines += results.len() as u64;
        for c in results {
            for f in &c.findings {
                let key = match family(f, &c) {
                    Some(k) if f.kind != Kind::Model => format!("known {}", k.name),
                    _ => format!(
                        "NEW {:?}{}",
                        f.kind,
                        if f.certain { " (certain)" } else { "" }
                    ),
                };
                let g = groups.entry(key).or_default();
                g.0 += 1;
                if g.1.len() < examples && g.1.iter().all(|(o, _)| o.gen.line != c.gen.line) {
                    g.1.push((c.clone(), f.clone()));
                }
            }
        }
    }
    let ran = start.elapsed();
    println!(
        "\nbash oracle fuzz: seeds {seed0}..{next}: {lines} lines in {:.0} s ({:.0} lines/s), {} kinds of disagreement\n",
        ran.as_secs_f64(),
        lines as f64 / ran.as_secs_f64(),
        groups.len()
    );
    for (key, (count, firsts)) in &groups {
        println!("== {key}: {count} disagreements");
        if let Some(k) = KNOWN.iter().find(|k| key == &format!("known {}", k.name)) {
            println!("{}", k.what);
        }
        let mut shown = Vec::new();
        for (c, f) in firsts {
            // Shrink while a disagreement of the same kind, certainty and family remains.
            let (kind, certain) = (f.kind, f.certain);
            let fam = family(f, c).map(|k| k.name);
            let keep = |g: &Finding, cc: &Checked| {
                g.kind == kind && (g.certain || !certain) && family(g, cc).map(|k| k.name) == fam
            };
            let budget = Instant::now() + Duration::from_secs(30);
            let small = oracle::shrink(c, reading, &keep, budget);
            if shown.contains(&small.gen.line) {
                continue;
            }
            shown.push(small.gen.line.clone());
            println!(
                "-- shrunk from {} to {} bytes:",
                c.gen.line.len(),
                small.gen.line.len()
            );
            println!("{}", explain(&small));
        }
    }
    println!("total time {:.0} s", start.elapsed().as_secs_f64());
}

/// Analysis aid: `N=5000 DUMP=/tmp/d.tsv cargo test --release --test bash_oracle --
/// --ignored dump_findings` writes every disagreement of seeds START..START+N as a TSV line (kind,
/// certain, tags of the command, tags of the line, finding, read as a whole, line, family).
#[test]
#[ignore = "analysis aid: set DUMP (and N)"]
fn dump_findings() {
    let path = std::env::var("DUMP").expect("set DUMP to the output file");
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let (start, n) = (env("START").unwrap_or(0), env("N").unwrap_or(2500));
    let res = oracle::check_seeds(start..start + n, reading);
    let mut out = String::new();
    for c in &res {
        for f in &c.findings {
            let tags = |t: &std::collections::BTreeSet<&str>| {
                t.iter().copied().collect::<Vec<_>>().join(",")
            };
            out.push_str(&format!(
                "{:?}\t{}\t{}\t{}\t{}\t{}\t{:?}\t{}\n",
                f.kind,
                f.certain,
                tags(&f.tags),
                tags(&c.gen.tags),
                f.describe().replace(['\t', '\n'], " "),
                c.reading.readable,
                c.gen.line,
                family(f, c).map(|k| k.name).unwrap_or("-")
            ));
        }
    }
    std::fs::write(path, out).unwrap();
}

/// Debugging: `LINE='...' cargo test --release --test bash_oracle -- --ignored explain_line
/// --nocapture` prints what bash ran and what the reading says (DETERMINED=1: every
/// command in the line runs, so a reading command bash did not run is an over-report).
#[test]
#[ignore = "debugging aid: set LINE"]
fn explain_line() {
    let line = std::env::var("LINE").expect("set LINE to the command line to explain");
    let determined = std::env::var("DETERMINED").is_ok_and(|v| v == "1");
    let results = oracle::check(vec![oracle::plain(&line, determined)], reading);
    println!("{}", explain(&results[0]));
}

/// Lines written by hand beside the generated ones (issue 23): backquotes in single
/// quotes (a subscript only after a name), variables given a plain value, and where
/// commands run after `cd`. Each reading must agree with what bash runs.
#[test]
fn written_lines_agree_with_bash() {
    let lines = [
        "export PS1='[`prog1`] '",
        "echo '[`prog1`]' && prog2",
        "echo 'x [`prog1`] y' \"[`prog2`]\"",
        "printf -v 'a[`prog1`]' x; echo \"$a\"",
        "declare a'[`prog1`]'=1",
        "declare -a b='([0]=`prog1`)'",
        "d=build; echo \"$d\" $d ${d}/x && prog1 \"$d\"",
        "d=build && prog1 \"$d/x\"; d2=a.b:c; prog2 $d2",
        "cd /tmp && prog1 x; (cd / && prog2 y) && prog3 z",
        "true || cd / && prog1 x | prog2 && prog3",
        // `%`, `=`, `!` and a lone `$` as letters where bash gives them no meaning.
        "prog1 %s -c %s =x = && prog2 a=b =",
        "prog1 ! -d x '!' a^! && prog2 !x",
        "prog1 a$ \"b$ c$\" \"$\" $ && prog2 x$|prog3",
        "prog1 <=x 2>/dev/null; prog2 %1",
        // A `case` pattern's `)` inside `$( )` ends nothing (the fuzz's `ls _1 $(case a
        // in *) ls _2;; esac)`): bash runs the command before it, and the one inside.
        "prog1 x $(case a in *) prog2 y;; esac)",
    ];
    let gens = lines.iter().map(|l| oracle::plain(l, false)).collect();
    let results = oracle::check(gens, reading);
    let bad: Vec<String> = results
        .iter()
        .filter(|c| !c.findings.is_empty())
        .map(explain)
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
