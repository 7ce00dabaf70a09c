//! The program table's reading of the command after its wrappers: which words are
//! paths, whether every option is known, and the commands its words give it to run.

use super::*;
use crate::shell::programs::{lookup, read, read_code, Effect, Program, Reading, Role, Run};
use crate::shell::Known;

/// The table's reading of ARGV (its name a basename), if its program is in the table.
fn reading(argv: &[String]) -> Option<(&'static Program, Reading)> {
    let p = lookup(argv.first()?)?;
    Some((p, read(p, argv.get(1..).unwrap_or(&[]))))
}

/// The words of the wrapper WORDS, before its command at N, that rules read as its
/// paths: those the table puts in path roles (`xargs -a FILE`, `timeout`'s none), and
/// any other that looks like a path or has a value glued to an option (a wrapper's
/// option the table does not know).
pub(super) fn wrapper_paths(words: &[Word], n: usize) -> Vec<String> {
    let own = words.get(..n).unwrap_or(words);
    let mut argv: Vec<String> = own.iter().map(|w| w.text.clone()).collect();
    if let Some(first) = argv.first_mut() {
        *first = super::basename(first).to_owned();
    }
    let name_static = own.first().is_some_and(|w| w.is_static && !w.pattern);
    let mut out: Vec<String> = match reading(&argv).filter(|_| name_static) {
        Some((_, r)) => r.paths().into_iter().map(str::to_owned).collect(),
        None => Vec::new(),
    };
    for w in own.iter().skip(1) {
        let glued = w.text.starts_with('-') && w.text.len() > 2;
        if (super::looks_like_path(&w.text) || glued) && !out.contains(&w.text) {
            out.push(w.text.clone());
        }
    }
    out
}

/// What the table knows of the command WORDS (ARGV: its words, the name a basename),
/// and the words rules read as its paths: for a known program with every option known,
/// the words in path roles, and the words only the shell knows (`$f`, a glob), which
/// may be anything; else every word after the name. Third, the words a known program
/// walks or reads names from, with their roles (see [`super::super::SimpleCommand::roles`]).
pub(super) fn typed_paths(
    words: &[Word],
    argv: &[String],
) -> (Known, Vec<String>, Vec<(Role, String)>) {
    let every = || argv.iter().skip(1).cloned().collect();
    let name_static = words.first().is_some_and(|w| w.is_static && !w.pattern);
    let Some((p, r)) = reading(argv).filter(|_| name_static) else {
        return (Known::Unknown, every(), Vec::new());
    };
    let roles = r
        .parts
        .iter()
        .filter(|p| p.role.is_walked())
        .map(|p| (p.role, p.text.clone()))
        .collect();
    // The words are all candidates; what it walks or reads names from still is.
    let all = || {
        let mut paths: Vec<String> = every();
        for p in r
            .parts
            .iter()
            .filter(|p| p.kind == super::super::Kind::Implied)
        {
            paths.push(p.text.clone());
        }
        paths
    };
    // A subcommand the table does not know (`git fame`, `cargo deb`: a program of its
    // own that the program runs) is read as a program the table does not know: only a
    // rule that names the program allows it.
    if unknown_subcommand_only(&r) {
        return (Known::Unknown, all(), roles);
    }
    if !r.is_known() {
        return (Known::UnknownOption, all(), roles);
    }
    // A program that runs the project's own code (a Makefile's recipes, a package's
    // scripts) does whatever that code says: as for a program the table does not
    // know, only a rule that names it allows it.
    let sub = r.sub.and_then(|s| p.sub(s));
    let named = p.effects.contains(&Effect::ProjectCode)
        || sub.is_some_and(|s| s.effects.contains(&Effect::ProjectCode));
    let mut paths: Vec<String> = r.paths().into_iter().map(str::to_owned).collect();
    for run in &r.runs {
        match run {
            // Code in its own language: what its reader finds it opens; a language
            // without a reader is read as a program the table does not know.
            Run::Code(text) => match read_code(p.name(), text) {
                Some(code) if code.unknown.is_none() => {
                    paths.extend(code.reads.iter().chain(&code.writes).cloned());
                }
                Some(_) => return (Known::UnknownOption, all(), roles),
                None => return (Known::Unknown, all(), roles),
            },
            // A script file whose commands are not read (`sed -f FILE`) is a file
            // it reads too.
            Run::Hidden(text) => paths.push(text.clone()),
            Run::Argv(_) | Run::Shell(_) | Run::Starts(_) => {}
        }
    }
    for w in words.iter().skip(1) {
        if (!w.is_static || w.pattern) && !paths.contains(&w.text) {
            paths.push(w.text.clone());
        }
    }
    let known = if named { Known::Named } else { Known::Known };
    (known, paths, roles)
}

/// The glob words of WORDS (ARGV: their texts, the name a basename) that are data to a
/// known program however many names bash makes of each (`echo .*`, `printf '%s\n'
/// *.md`): read with the word given twice, it is still known, no copy of the word is in
/// a path role, the other words keep their roles, and it runs the same commands (not
/// `grep .* f`, whose second name would be a file it reads).
pub(super) fn data_globs(words: &[Word], argv: &[String]) -> Vec<String> {
    let Some((p, r)) = reading(argv) else {
        return Vec::new();
    };
    let roles = |r: &Reading| -> Vec<(Role, String)> {
        let mut v: Vec<(Role, String)> = (r.parts.iter())
            .filter(|q| q.role.is_walked())
            .map(|q| (q.role, q.text.clone()))
            .collect();
        v.dedup();
        v
    };
    let paths: std::collections::BTreeSet<&str> = r.paths().into_iter().collect();
    let own_roles = roles(&r);
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate().skip(1) {
        if !(w.is_static && w.pattern) || w.text.starts_with('-') || out.contains(&w.text) {
            continue;
        }
        let Some(args) = argv.get(1..) else { break };
        let mut twice = args.to_vec();
        twice.insert(i - 1, w.text.clone());
        let r2 = read(p, &twice);
        let paths2: std::collections::BTreeSet<&str> = r2.paths().into_iter().collect();
        if r2.is_known()
            && paths == paths2
            && !paths.contains(w.text.as_str())
            && r.runs == r2.runs
            && own_roles == roles(&r2)
        {
            out.push(w.text.clone());
        }
    }
    out
}

/// Whether the only word of R the table does not know is its subcommand.
fn unknown_subcommand_only(r: &Reading) -> bool {
    match r.unknown.as_slice() {
        [u] => r
            .parts
            .iter()
            .any(|x| x.text == *u && x.kind == super::super::Kind::Subcommand),
        _ => false,
    }
}

/// Read the command WORDS (after its wrappers, in ST) through the table: an unknown
/// option makes the line uncertain; the commands its words give it to run are read as
/// commands of their own (after it), its shell strings as lines, and text that makes it
/// run commands the reading does not read makes the line uncertain.
/// Whether the command WORDS runs commands the table knows of, which [`nested`]
/// reads with the command's state.
pub(super) fn runs_commands(words: &[Word]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    let mut named: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    named[0] = basename(&first.text).to_owned();
    reading(&named).is_some_and(|(_, r)| !r.runs.is_empty())
}

/// Read what the command WORDS runs, with ST its state (None only when
/// [`runs_commands`] says it runs nothing).
pub(super) fn nested(cx: &mut Cx, fr: &Frame, words: &[Word], st: Option<&State>, hops: usize) {
    let argv: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let Some(base) = argv.first().map(|n| basename(n).to_owned()) else {
        return;
    };
    let mut named = argv.clone();
    named[0] = base.clone();
    let Some((p, r)) = reading(&named) else {
        return;
    };
    if let Some(u) = r.unknown.first().filter(|_| !unknown_subcommand_only(&r)) {
        let what = if r
            .parts
            .iter()
            .any(|x| x.text == *u && x.kind == super::super::Kind::Subcommand)
        {
            "subcommand"
        } else {
            "option"
        };
        cx.uncertain(format!(
            "`{}` {what} `{}` is not in the program table",
            p.name(),
            show(u)
        ));
    }
    if r.runs.is_empty() {
        return;
    }
    let Some(st) = st else {
        // Not so by `runs_commands`; were it, what it runs is not read: fail closed.
        cx.line_opaque(format!("`{}` runs commands that were not read", p.name()));
        return;
    };
    let mut inner = st.clone();
    // What it runs may be given the files it reads (`rg --pre CMD`, `fd -x CMD {}`).
    inner
        .path_words
        .extend(r.paths().into_iter().map(str::to_owned));
    for run in &r.runs {
        match run {
            Run::Argv(a) if !a.is_empty() => {
                let ws: Vec<Word> = a.iter().map(|t| Word::literal(t.clone())).collect();
                let mut inner = inner.clone();
                if let Some(why) = super::special::names_as_code(&ws) {
                    note(&mut inner.uncertain, why);
                }
                through(cx, fr, &ws, inner, hops + 1);
            }
            Run::Argv(_) => {}
            Run::Code(text) => {
                if let Some(code) = read_code(p.name(), text) {
                    if let Some(why) = code.unknown {
                        cx.uncertain(why);
                    }
                    // The shell a program's code runs is `/bin/sh` (sed's `e`, awk's
                    // `system`, make's `$(shell)`): dash, which reads `&>` otherwise
                    // (helper-71: `sed '1e true &>/dev/null git clean -ffdx'`).
                    for line in &code.shell {
                        posix_string(cx, fr, line, &inner);
                    }
                }
            }
            Run::Shell(s) => posix_string(cx, fr, s, &inner),
            Run::Starts(s) => cx.uncertain(format!("`{}` starts {s}", p.name())),
            Run::Hidden(s) => {
                cx.uncertain(format!(
                    "`{}` is given text that makes it run commands (`{}`)",
                    p.name(),
                    show(s)
                ));
                posix_string(cx, fr, s, &inner);
            }
        }
    }
}
