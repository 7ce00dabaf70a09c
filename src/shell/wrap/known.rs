//! The program table's reading of the command after its wrappers: which words are
//! paths, whether every option is known, and the commands its words give it to run.

use super::*;
use crate::shell::programs::{lookup, read, Program, Reading, Run};
use crate::shell::Known;

/// The table's reading of ARGV (its name a basename), if its program is in the table.
fn reading(argv: &[String]) -> Option<(&'static Program, Reading)> {
    let p = lookup(argv.first()?)?;
    Some((p, read(p, argv.get(1..).unwrap_or(&[]))))
}

/// What the table knows of the command WORDS (ARGV: its words, the name a basename),
/// and the words rules read as its paths: for a known program with every option known,
/// the words in path roles, and the words only the shell knows (`$f`, a glob), which
/// may be anything; else every word after the name.
pub(super) fn typed_paths(words: &[Word], argv: &[String]) -> (Known, Vec<String>) {
    let every = || argv.iter().skip(1).cloned().collect();
    let name_static = words.first().is_some_and(|w| w.is_static && !w.pattern);
    let Some((_, r)) = reading(argv).filter(|_| name_static) else {
        return (Known::Unknown, every());
    };
    if !r.is_known() {
        return (Known::UnknownOption, every());
    }
    let mut paths: Vec<String> = r.paths().into_iter().map(str::to_owned).collect();
    for w in words.iter().skip(1) {
        if (!w.is_static || w.pattern) && !paths.contains(&w.text) {
            paths.push(w.text.clone());
        }
    }
    (Known::Known, paths)
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
    if let Some(u) = r.unknown.first() {
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
                through(cx, fr, &ws, inner.clone(), hops + 1);
            }
            Run::Argv(_) | Run::Code(_) => {}
            Run::Shell(s) => shell_string(cx, fr, s, &inner),
            Run::Hidden(s) => {
                cx.uncertain(format!(
                    "`{}` is given text that makes it run commands (`{}`)",
                    p.name(),
                    show(s)
                ));
                shell_string(cx, fr, s, &inner);
            }
        }
    }
}
