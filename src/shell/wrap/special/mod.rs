//! Wrappers with more to them than options: `env`, `sudo`, `doas`, `su`, `flock`,
//! `watch`, `script`, `xargs`, `find -exec` and the shells.

use super::spec::*;
use super::*;
use crate::shell::shell_named;

mod daemons;
mod env;
mod exec;
mod find;
mod privilege;
mod runners;
mod shells;
mod terminal;
mod xargs;

pub(super) use daemons::*;
pub(super) use env::*;
pub(super) use exec::*;
pub(super) use find::*;
pub(super) use privilege::*;
pub(super) use runners::*;
pub(super) use shells::*;
pub(super) use terminal::*;
pub(super) use xargs::*;

/// An assignment `NAME=...` that the wrapper WHO makes for its command: a name that
/// can change what runs makes it opaque, one outside the certain subset uncertain.
pub(super) fn note_assignment(who: &str, name: &str, st: &mut State) {
    if is_dangerous_var(name) {
        note(
            &mut st.opaque,
            format!("assignment to `{name}` can change what runs"),
        );
    } else if !is_assignable(name) {
        note(
            &mut st.uncertain,
            format!("`{who}` sets `{name}`, which a program may read"),
        );
    }
}

/// WORDS could not be read for WHY: the command is opaque, and the shell strings its
/// options may still give (STRINGS) are read for deny rules.
pub(super) fn unreadable_with_strings(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    why: String,
    strings: &[String],
) -> Step {
    if strings.is_empty() {
        return Step::Opaque(why);
    }
    note(&mut st.opaque, why);
    emit(cx, words, st.clone());
    for s in strings {
        posix_string(cx, fr, s, st);
    }
    Step::Done
}

/// Why the command WORDS, which a program runs with file names put in its `{}` or
/// after its words (`find -exec CMD {} +`, `fd -x CMD`, `rg --pre CMD`), may take a
/// file's name for code, if it may: a known program reads a `{}`, or a word after its
/// own, as code or a command (`find * -exec sed -n {} +` with a file named `e` runs
/// sed's `e`; `rg --pre=sed x` runs `sed FILE`: helper-48).
pub(crate) fn names_as_code(words: &[Word]) -> Option<String> {
    let name = words.first()?;
    let p = crate::shell::lookup(&name.text)?;
    let mut args: Vec<String> = words.iter().skip(1).map(|w| w.text.clone()).collect();
    args.push("{}".to_owned());
    let r = crate::shell::read(p, &args);
    // git reads a name as a pathspec, a pattern where it holds `*`, `?`, `[` (helper-99:
    // `find . -name '[*]' -exec git grep KEY -- {} +` read `.env`).
    if p.name() == "git" {
        let named = r.parts.iter().any(|x| {
            x.text.contains("{}") && x.kind == crate::shell::Kind::Operand && x.role.is_path()
        });
        if named {
            return Some("a file's name is a pathspec `git` may read as a pattern".into());
        }
    }
    r.parts
        .iter()
        .find(|x| x.text.contains("{}") && x.role.runs())
        .map(|x| {
            format!(
                "a file's name may be `{}`'s {} (`{}`)",
                p.name(),
                match x.role {
                    crate::shell::Role::Code => "code",
                    _ => "command",
                },
                show(&x.text)
            )
        })
}
