//! A line the certain subset reads (`certain::read`) put into the context: its simple
//! commands read through the program table as the walk over brush-parser's tree reads
//! its own, with the values the line gives put in, its redirections in the order bash
//! meets them, and where each command runs.

use super::assigned::give_env_values;
use super::certain;
use super::state::{Cx, Frame};
use super::word::Word;
use super::{wrap, After};

/// Put LINE, the certain reading of a text read in frame FR, into CX.
pub(super) fn put_certain(cx: &mut Cx, fr: &Frame, mut line: certain::CertainLine) {
    put_values(&mut line);
    cx.out.inputs.extend(
        line.redirects
            .iter()
            .filter(|r| !line.outputs.contains(r))
            .cloned(),
    );
    // The line's redirections, in the order bash meets them: each command's
    // before its words are read (a script file is checked against the targets
    // written before it: `bash s && cat x > s` writes `s` after running it).
    let mut redirects = line.redirects.into_iter().peekable();
    cx.out.concurrent |= line.concurrent;
    // The command each certain command pushed last with a place, by its index,
    // and its words, for the one its output is piped into.
    let (mut placed, mut said): (Vec<Option<usize>>, Vec<wrap::Fed>) = (vec![], vec![]);
    for c in line.commands {
        let after = c.after.and_then(|a| {
            let k = placed.get(a.command).copied().flatten()?;
            Some(After { command: k, ..a })
        });
        let around = std::mem::take(&mut cx.subshells);
        cx.subshells.clone_from(&c.subshells);
        cx.shells = cx
            .shells
            .max(c.subshells.iter().copied().max().unwrap_or(0));
        cx.last_placed = None;
        let from_here = cx.out.commands.len();
        if c.substituted {
            cx.nested += 1;
        }
        let words: Vec<Word> = c
            .words
            .into_iter()
            .map(|w| Word {
                text: w.text,
                is_static: !w.dynamic,
                pattern: w.glob,
            })
            .collect();
        let fed = c.piped_from.and_then(|k| said.get(k)).cloned();
        said.push(wrap::Fed {
            words: words.clone(),
            redirections: c.redirections.clone(),
        });
        put_redirects(cx, &mut redirects, &c.redirects);
        let own = std::mem::take(&mut cx.own_redirects);
        for r in c.redirects {
            if !cx.own_redirects.contains(&r.text) {
                cx.own_redirects.push(r.text);
            }
        }
        // Only assignments (of inert names): they change the shell itself.
        if !words.is_empty() {
            let from = cx.out.commands.len();
            let (fed, own) = (fed.as_ref(), &c.redirections);
            cx.repeated(c.runs, |cx| {
                wrap::piped_command(cx, fr, fed, words, own, None, c.stdin)
            });
            let given: Vec<String> = c.assignments.iter().map(|a| a.text.clone()).collect();
            give_env_values(cx, from, &given);
        }
        cx.own_redirects = own;
        if c.substituted {
            cx.nested -= 1;
        }
        cx.subshells = around;
        let this = cx.last_placed.take();
        cx.run_after(from_here, after);
        placed.push(this);
    }
    cx.out.redirects.extend(redirects);
}

/// In LINE, each word and redirection target that expands a variable the text gives a
/// plain value (`d=build; rm -rf "$d"`, `sh -c 'd=.env; cat $d'`: see `certain::Plain`)
/// with the value put in, as bash runs it: the program's reading of its words then reads
/// the value, roles and all (`d=-r; grep "$d" KEY ..` walks `..`, `d=e; nice sed $d` runs
/// sed's `e`, `d=src; cd "$d"` goes to `src`), and every rule sees the words that run.
fn put_values(line: &mut certain::CertainLine) {
    if line.values.is_empty() {
        return;
    }
    let values = std::mem::take(&mut line.values);
    let put = |w: &mut certain::CWord| {
        if w.plain_vars.is_empty() {
            return;
        }
        if let Some(text) = super::values::put_values(&w.text, &values) {
            w.dynamic = text.contains('$');
            w.text = text;
        }
    };
    for c in &mut line.commands {
        c.words.iter_mut().for_each(put);
        c.redirects.iter_mut().for_each(put);
    }
    for r in line.redirects.iter_mut().chain(&mut line.outputs) {
        if let Some(text) = super::values::put_values(r, &values) {
            *r = text;
        }
    }
}

/// Put into CX's redirections those of REDIRECTS (the certain line's, in order) that
/// the command with OWN redirections meets: the next ones while they are its own; all
/// the rest when one of its own is not next (the order is then not known, and every
/// target counts as written before it).
fn put_redirects(
    cx: &mut Cx,
    redirects: &mut std::iter::Peekable<std::vec::IntoIter<String>>,
    own: &[certain::CWord],
) {
    while let Some(r) = redirects.next_if(|r| own.iter().any(|o| o.text == *r)) {
        cx.out.redirects.push(r);
    }
    if own.iter().any(|o| !cx.out.redirects.contains(&o.text)) {
        cx.out.redirects.extend(redirects);
    }
}
