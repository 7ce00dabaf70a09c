//! `xargs`: whether the words it takes from its input can only be data to its command.

/// Whether every word `xargs` (given ARGS) takes from its input can only be data to the
/// command it runs: that command's program takes any word as data
/// ([`super::Program::data_whatever_given`]: `xargs -n1 basename`, `xargs -I{} echo
/// file{}.txt`; with no command xargs runs `echo`), named by a plain name the input
/// does not make (`xargs -I e echo e` puts the input in `echo`'s name).
pub(crate) fn xargs_gives_data(args: &[String]) -> bool {
    let Some(xargs) = super::lookup("xargs") else {
        return false;
    };
    let r = super::read(xargs, args);
    if !r.is_known() {
        return false;
    }
    let name = match r.runs.as_slice() {
        [] => "echo".to_string(),
        [super::Run::Argv(words)] => match words.first() {
            Some(name) => name.clone(),
            None => return false,
        },
        _ => return false,
    };
    let replace = r
        .given
        .iter()
        .rev()
        .find(|g| g.short == "I" || g.long == "replace")
        .map(|g| g.value.clone().unwrap_or_else(|| "{}".to_owned()));
    if replace.is_some_and(|r| r.is_empty() || name.contains(r.as_str())) || name.contains('/') {
        return false;
    }
    // xargs runs a program, never bash's builtin: only those GNU ships as programs too
    // are the same (`xargs command rm` runs no builtin `command`; a `command` on the
    // PATH is none the table knows).
    let builtin = super::BASH_BUILTINS.contains(&name.as_str())
        && !XARGS_BUILTIN_PROGRAMS.contains(&name.as_str());
    !builtin && super::lookup(&name).is_some_and(super::Program::data_whatever_given)
}

/// bash's builtins that GNU coreutils or procps install as programs of the same name,
/// which the table reads alike (`/usr/bin/echo`, `/usr/bin/kill`).
const XARGS_BUILTIN_PROGRAMS: &[&str] = &["echo", "printf", "kill", "pwd", "true", "false"];
