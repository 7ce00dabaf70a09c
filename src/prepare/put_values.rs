//! The values of a `for` loop over a plain list put into its commands' words, as bash
//! runs them, so that command rules see the words that run (`for o in -rf -f; do rm $o
//! x; done` is both `rm -rf x` and `rm -f x`); a command whose words change is read
//! again with them ([`settle`]). (Plain values, `d=build`, are put in where the line is
//! read: `shell::walk`.)

use crate::shell::{self, CommandLine, SimpleCommand};

/// Read C again, whose words were BEFORE and now hold the values the line gives its
/// variables: its reading as written is not the one bash's words get. A word that
/// becomes an option (helper-77: `d=-r; grep "$d" x ..`, `for f in --pre=rm; do rg "$f"
/// x .; done`) makes the line uncertain (why, returned); otherwise the command is read
/// from its words again, roles and all (`d=grep; git $d --no-index x` is git grep's
/// walk; helper-79: `d=..; grep -r KEY $d` walks `..`, `d=r../.ssh/id_rsa; sed $d f` is
/// sed's script), wrappers included (see [`read_again`]).
fn settle(c: &mut SimpleCommand, before: &[String]) -> Option<String> {
    if let Some(why) = option_from_value(before, &c.argv) {
        return Some(why);
    }
    if c.argv == before {
        return None;
    }
    // A glob among the values is read where the paths are (its names, each tested for a
    // leading `-`: see `Prepared::glob_expansions`); the words as written stay (helper-80).
    let globbed = c
        .argv
        .iter()
        .zip(before)
        .any(|(is, was)| is != was && is.contains(['*', '?', '[']));
    if globbed {
        return None;
    }
    read_again(c, before)
}

/// Read C again from the outermost of its forms that ends with the words that run: its
/// wrappers and the program together (helper-81: `d=e; nice sed $d` runs sed's `e`, and
/// kept as written behind `nice` it was allowed; helper-80: `d=x; sudo rm "$d"` read
/// from `rm x` alone lost `sudo`). What lies outside that form (a shell given a string,
/// `find -exec`) is kept: its forms, privilege and paths (those not among the words
/// that run, BEFORE the values were put in, or after). Why the command is not certain,
/// if so.
fn read_again(c: &mut SimpleCommand, before: &[String]) -> Option<String> {
    let k = c
        .forms
        .iter()
        .position(|f| f.ends_with(&c.argv))
        .unwrap_or(c.forms.len());
    let form = c.forms.get(k).unwrap_or(&c.argv);
    let shown = || form.join(" ").chars().take(200).collect::<String>();
    let again = shell::from_argv(form);
    let Some((first, rest)) = again.commands.split_first().filter(|_| again.is_certain()) else {
        return Some(format!(
            "`{}` with the values the line gives its words is not certain",
            shown()
        ));
    };
    // Commands it runs would be read out of their place in the line.
    if !rest.is_empty() {
        return Some(format!(
            "`{}` with the values the line gives its words runs other commands",
            shown()
        ));
    }
    let mut n = first.clone();
    // The paths and roles of what lies outside the form (`env -C DIR sh -c ..`): those
    // that are not the program's own words.
    if k > 0 {
        let outside =
            |w: &String| !c.argv.contains(w) && !before.contains(w) && !n.paths.contains(w);
        let paths: Vec<String> = c.paths.iter().filter(|w| outside(w)).cloned().collect();
        let roles: Vec<_> = c
            .roles
            .iter()
            .filter(|(_, w)| outside(w))
            .cloned()
            .collect();
        n.paths.extend(paths);
        n.roles.extend(roles);
    }
    n.privileged_form = match c.privileged_form {
        Some(at) if at < k => Some(at),
        _ => n.privileged_form.map(|at| at + k),
    };
    n.inert_form = match c.inert_form {
        Some(at) if at < k => Some(at),
        _ => n.inert_form.map(|at| at + k),
    };
    n.privileged |= c.privileged;
    n.opaque = n.opaque.or(c.opaque.take());
    let mut forms: Vec<Vec<String>> = c.forms.drain(..k).collect();
    forms.append(&mut n.forms);
    n.forms = forms;
    n.written = std::mem::take(&mut c.written);
    n.redirects = std::mem::take(&mut c.redirects);
    n.place = c.place.take();
    *c = n;
    None
}

/// Why a command is not certain whose words were BEFORE and, with the values the line
/// gives its variables put in, are AFTER: a word that becomes an option (helper-77: `d=-r;
/// grep "$d" x ..`, `for f in --pre=rm; do rg "$f" x .; done`), which the program's
/// reading of the words as written (an operand with a `$`) does not show.
fn option_from_value(before: &[String], after: &[String]) -> Option<String> {
    let (was, is) = before
        .iter()
        .zip(after)
        .skip(1)
        .find(|(was, is)| was != is && is.starts_with('-') && !was.starts_with('-'))?;
    Some(format!(
        "`{}` is `{}`, which the program reads as an option",
        was.chars().take(100).collect::<String>(),
        is.chars().take(100).collect::<String>()
    ))
}

/// Most values of a `for` loop put into the commands of its body, per command; past it
/// the line is not certain.
const MAX_LOOP_VALUES: usize = 64;

/// In LINE, a certain reading of TEXT, each command with a word that is a `for` loop's
/// variable over a plain list (`for o in -rf -f; do rm $o x; done`) read once for each
/// of its values, as bash runs it: the command with the first value put in, and a copy
/// for each other value. Command rules then see the words that run (`rm -rf x`), as path
/// rules already do.
pub(super) fn put_loop_values(line: &mut CommandLine, text: &str) {
    if !line.is_certain() || !text.contains("for ") {
        return;
    }
    let mut copies = Vec::new();
    let mut option = None;
    for c in &mut line.commands {
        let Some(name) = c
            .argv
            .iter()
            .find_map(|w| super::line_values::loop_name(w).map(str::to_owned))
        else {
            continue;
        };
        if !super::line_values::plain_lists(text, &name) {
            continue;
        }
        let values = super::line_values::loop_values(text, &name);
        if values.is_empty() {
            continue;
        }
        if values.len() > MAX_LOOP_VALUES {
            line.uncertain.get_or_insert_with(|| {
                format!("a `for` loop of more than {MAX_LOOP_VALUES} values in a command's words")
            });
            return;
        }
        let with = |value: &str| {
            let pair = [(name.clone(), value.to_owned())];
            let mut copy = c.clone();
            let put = |words: &mut Vec<String>| {
                for w in words.iter_mut() {
                    if let Some(v) = shell::values::put_values(w, &pair) {
                        *w = v;
                    }
                }
            };
            put(&mut copy.argv);
            put(&mut copy.written);
            for form in &mut copy.forms {
                put(form);
            }
            copy
        };
        for v in values.iter().skip(1) {
            let mut copy = with(v);
            copy.place = None;
            option = option.or(settle(&mut copy, &c.argv));
            copies.push(copy);
        }
        if let Some(first) = values.first() {
            let mut put = with(first);
            option = option.or(settle(&mut put, &c.argv));
            *c = put;
        }
    }
    line.commands.extend(copies);
    if let Some(why) = option {
        line.uncertain.get_or_insert(why);
    }
}
