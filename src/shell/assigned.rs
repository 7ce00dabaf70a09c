//! What the assignments before a command give its program besides the variables: the
//! values a program runs as commands (an editor, a pager, git's configuration by
//! environment), read as command lines for deny rules, and the values given to a
//! program that takes any variable, kept for its generous reading
//! (`SimpleCommand::env_values`).

use super::expand::word;
use super::state::{Cx, Frame};
use super::word::{command_values, given_any_program, takes_any_environment};
use brush_parser::ast;

/// The values of an assignment A that name commands, read as shell strings for deny
/// rules (see [`command_values`]): an editor or pager (`FCEDIT=rm fc`), or git
/// configuration by environment, any of whose values may be a command
/// (`GIT_CONFIG_VALUE_0='!rm x'` with `GIT_CONFIG_KEY_0=alias.q`, as `git -c alias.q='!rm
/// x'`). The assignment itself is never allowed (see `word::is_dangerous_var`).
/// Before a program that takes any variable (ANY_ENV), a value [`given_any_program`]
/// keeps certain is read generously instead (`SimpleCommand::env_values`).
pub(super) fn assigned_code(cx: &mut Cx, fr: &Frame, a: &ast::Assignment, any_env: bool) {
    let ast::AssignmentName::VariableName(name) = &a.name else {
        return;
    };
    let ast::AssignmentValue::Scalar(w) = &a.value else {
        return;
    };
    // A value with expansions was walked already; its commands are seen. One in single
    // quotes is its text (`PS4='$(rm x)'`, `GIT_PAGER='rm $x'`: helper-68), as is one
    // whose every `$` and backquote is escaped (`X="\$(shell rm x)"`: helper-69).
    let escaped = {
        let mut bare = String::with_capacity(w.value.len());
        let mut chars = w.value.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                c => bare.push(c),
            }
        }
        !bare.contains(['$', '`'])
    };
    let value = if w.value.contains(['$', '`']) && !escaped {
        match w
            .value
            .strip_prefix('\'')
            .and_then(|v| v.strip_suffix('\''))
        {
            Some(inner) if !inner.contains('\'') => inner.to_string(),
            _ => return,
        }
    } else {
        let mut h = None;
        word(cx, fr, &w.value, &mut h).text
    };
    if any_env && given_any_program(name, &value) {
        return;
    }
    for code in command_values(name, &value) {
        let from = cx.out.commands.len();
        cx.isolated(|cx| cx.read(&fr.deeper(), &code));
        cx.mark_since(
            from,
            &Some(format!("`{name}` names a command a program may run")),
        );
    }
}

/// Give the commands pushed since FROM whose program takes any variable
/// ([`takes_any_environment`]) the assignments GIVEN before them (`NAME=VALUE`): see
/// `SimpleCommand::env_values`.
pub(super) fn give_env_values(cx: &mut Cx, from: usize, given: &[String]) {
    if given.is_empty() {
        return;
    }
    for c in cx.out.commands.iter_mut().skip(from) {
        if c.argv.first().is_some_and(|n| takes_any_environment(n)) {
            c.env_values = given.to_vec();
        }
    }
}

/// The assignments before S's name, `NAME=VALUE` as text (read quietly: walked
/// already for their own substitutions).
pub(super) fn env_values(cx: &Cx, fr: &Frame, s: &ast::SimpleCommand) -> Vec<String> {
    let mut out = Vec::new();
    for item in s.prefix.iter().flat_map(|p| p.0.iter()) {
        if let ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) = item {
            if let (ast::AssignmentName::VariableName(name), ast::AssignmentValue::Scalar(w)) =
                (&a.name, &a.value)
            {
                let mut quiet = cx.fresh();
                let mut h = None;
                let value = word(&mut quiet, fr, &w.value, &mut h).text;
                out.push(format!("{name}={value}"));
            }
        }
    }
    out
}
