//! The command after all wrappers: the builtins that run strings (`eval`, `trap`,
//! `alias`...) or evaluate variable names (`declare`, `read`, `printf -v`, `unset`...),
//! and then the final `SimpleCommand` (see [`super::emit`]).

use super::*;

/// The command after all wrappers: builtins that run strings or evaluate variable names.
pub(super) fn final_command(cx: &mut Cx, fr: &Frame, words: &[Word], mut st: State, hops: usize) {
    let base = words.first().map(|w| basename(&w.text)).unwrap_or("");
    let args = words.get(1..).unwrap_or(&[]);
    let mut strings: Vec<String> = Vec::new();
    match base {
        "eval" => {
            note(&mut st.opaque, "`eval` runs a string built at run time");
            if args.iter().all(|w| w.is_static) {
                let parts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                strings.push(parts.join(" "));
            }
        }
        // (With no file it stops at once: `PATH=. make` gives make no script.)
        "source" | "." if !args.is_empty() => note(
            &mut st.opaque,
            format!("`{base}` runs the commands in a file"),
        ),
        "alias" => {
            for w in args {
                if let Some((_, value)) = w.text.split_once('=') {
                    note(&mut st.opaque, "an alias changes what a command name runs");
                    strings.push(value.to_owned());
                }
            }
        }
        "trap" => {
            let (_, operands) = builtin_args(args, "", &mut st);
            if let (Some(action), true) = (operands.first(), operands.len() > 1) {
                if !action.is_static {
                    note(
                        &mut st.opaque,
                        format!("`trap` action `{}` is not static", show(&action.text)),
                    );
                } else if action.text != "-" {
                    strings.push(action.text.clone());
                }
            }
        }
        // Where later relative words are read: a directory the reading cannot know
        // makes every one of them uncertain.
        // `cd -` goes back to `$OLDPWD`, which may come from the environment.
        "cd" if args.iter().any(|w| w.text == "-") => note(
            &mut st.uncertain,
            "`cd -` goes to a directory the reading cannot know",
        ),
        "cd" | "pushd"
            if args.iter().any(|w| {
                (!w.is_static && !crate::shell::values::only_known_parameters(&w.text)) || w.pattern
            }) =>
        {
            note(
                &mut st.uncertain,
                format!("`{base}` goes to a directory the reading cannot know"),
            )
        }
        // Options that change how later lines are read: `set -k` makes `ls PATH=x`
        // an assignment, `set -P` makes `cd` follow links, `shopt` changes globs and
        // aliases.
        "shopt" => note(&mut st.opaque, "`shopt` changes how later words are read"),
        "set"
            if args.iter().any(|w| {
                let t = w.text.as_str();
                !w.is_static
                    || ((t.starts_with('-') || t.starts_with('+'))
                        && !t.starts_with("--")
                        && t.chars().skip(1).any(|c| !"euxvo".contains(c)))
            }) || args.windows(2).any(|p| {
                matches!(p[0].text.as_str(), "-o" | "+o")
                    && !matches!(
                        p[1].text.as_str(),
                        "pipefail" | "errexit" | "nounset" | "xtrace" | "verbose"
                    )
            }) =>
        {
            note(&mut st.opaque, "`set` changes how later words are read")
        }
        "hash" if has_option_letter(args, 'p') => {
            note(&mut st.opaque, "`hash -p` changes what a command name runs");
        }
        "enable" if has_option_letter(args, 'f') => {
            note(&mut st.opaque, "`enable -f` loads code into the shell");
        }
        // A name that is no builtin is a shared object bash 5.2 loads (`enable x` opens
        // `./x`), unless `-d` (which deletes one loaded). Its options end at the first
        // operand or `--` (helper-65: `enable ./y.so -d` loads `./y.so`).
        "enable" if enable_loads(args) => {
            note(
                &mut st.opaque,
                "`enable NAME` loads code into the shell when NAME is no builtin",
            );
        }
        "fc" => note(&mut st.opaque, "`fc` runs commands from history"),
        // readline reads its init file (`$INPUTRC`, `~/.inputrc`) first, and its operands
        // are lines of one: a `$include` line in either opens any file and prints it in
        // its errors (helper-64: `bind '$include ~/.ssh/id_rsa'`).
        "bind" => note(
            &mut st.opaque,
            "`bind` reads readline's init files, whose `$include` lines open any file",
        ),
        "let" => {
            for w in args {
                if !(w.is_static && arith_is_literal(&w.text)) {
                    note(
                        &mut st.opaque,
                        format!("arithmetic `{}` may run commands", show(&w.text)),
                    );
                }
            }
        }
        "declare" | "typeset" | "local" | "readonly" | "export" => {
            declare_like(base, args, &mut st, &mut strings)
        }
        "mapfile" | "readarray" | "read" | "unset" | "printf" | "wait" | "getopts" | "test"
        | "[" => set_names(base, args, &mut st),
        _ => {}
    }
    // What the command runs is read with its state: a copy is kept only when
    // it is small or may be needed (a `find -exec` segment's state holds the
    // whole `find`, and copying it for each of them cost the most of a long one).
    let size = st.written.len() + st.forms.iter().map(Vec::len).sum::<usize>();
    let outer =
        (size <= 64 || !strings.is_empty() || known::runs_commands(words)).then(|| st.clone());
    emit(cx, words, st);
    known::nested(cx, fr, words, outer.as_ref(), hops);
    if let Some(outer) = &outer {
        for s in strings {
            shell_string(cx, fr, &s, outer);
        }
    }
}

/// The builtins BASE that set or test variables named by their words (`read`, `unset`,
/// `printf -v`, `mapfile`, `test -v`...) with ARGS: a name that evaluates code (an
/// array subscript) makes ST opaque (see [`check_names`]).
fn set_names(base: &str, args: &[Word], st: &mut State) {
    match base {
        "mapfile" | "readarray" => {
            let (values, operands) = builtin_args(args, "CcdnOsu", st);
            if values.iter().any(|(o, _)| *o == 'C') {
                note(&mut st.opaque, format!("`{base} -C` runs a callback"));
            }
            check_names(&operands, base, st);
        }
        "read" => {
            let (values, operands) = builtin_args(args, "adinNptu", st);
            let named: Vec<Word> = values
                .into_iter()
                .filter(|(o, _)| *o == 'a')
                .map(|(_, w)| w)
                .chain(operands)
                .collect();
            check_names(&named, base, st);
        }
        "unset" => {
            let (_, operands) = builtin_args(args, "", st);
            check_names(&operands, base, st);
        }
        "printf" | "wait" => {
            let (values, _) = builtin_args(args, if base == "printf" { "v" } else { "p" }, st);
            let named: Vec<Word> = values.into_iter().map(|(_, w)| w).collect();
            check_names(&named, base, st);
        }
        "getopts" => {
            let (_, operands) = builtin_args(args, "", st);
            check_names(operands.get(1..2).unwrap_or(&[]), base, st);
        }
        "test" | "[" => {
            for pair in args.windows(2) {
                if let [op, name] = pair {
                    if op.text == "-v" || op.text == "-R" {
                        check_names(std::slice::from_ref(name), base, st);
                    }
                }
            }
        }
        _ => {}
    }
}

/// `declare`, `typeset`, `local`, `readonly`, `export` (BASE) with ARGS: options that
/// make later assignments evaluate code, values parsed again as arrays (their elements,
/// for STRINGS to read as a command's words), and the names they set.
fn declare_like(base: &str, args: &[Word], st: &mut State, strings: &mut Vec<String>) {
    let (_, operands) = builtin_args(args, "", st);
    let attribute_opts = args
        .iter()
        .filter(|w| w.text.starts_with(['-', '+']))
        .any(|w| w.text.contains(['i', 'n']));
    if attribute_opts && matches!(base, "declare" | "typeset" | "local") {
        note(
            &mut st.opaque,
            format!("`{base} -i` or `-n` makes later assignments evaluate code"),
        );
    }
    // With `-a` or `-A` (or, for `declare`, `typeset` and `local`, a name that is
    // an array already), a value in parentheses is parsed again as a compound
    // assignment, so `declare -a a='($(rm x))'` runs `rm x`: its elements are
    // read as a command's words.
    let arrays = args
        .iter()
        .filter(|w| w.text.starts_with(['-', '+']))
        .any(|w| w.text.contains(['a', 'A']));
    if arrays || matches!(base, "declare" | "typeset" | "local") {
        for w in &operands {
            let Some(value) = w
                .text
                .split_once('=')
                .and_then(|(_, v)| v.strip_prefix('('))
            else {
                continue;
            };
            note(
                &mut st.opaque,
                format!("`{base}` parses `{}` again as an array", show(&w.text)),
            );
            strings.push(format!(": {}", value.strip_suffix(')').unwrap_or(value)));
        }
    }
    // `export FCEDIT=rm`, `declare -x GIT_PAGER='rm x'`: a command for deny rules.
    for w in &operands {
        if let Some((name, value)) = w.text.split_once('=') {
            strings.extend(crate::shell::word::command_values(
                name.trim_end_matches('+'),
                value,
            ));
        }
    }
    check_names(&operands, base, st);
}

/// Some word of ARGS is an option cluster holding LETTER.
/// Whether `enable ARGS` loads a shared object: an operand that is no builtin (bash reads
/// options up to the first operand or `--`), without `-d`.
fn enable_loads(args: &[Word]) -> bool {
    let mut options = true;
    let mut delete = false;
    for w in args {
        if options && w.is_static && w.text == "--" {
            options = false;
        } else if options && w.is_static && w.text.len() > 1 && w.text.starts_with('-') {
            // `-d` deletes a loaded builtin, `-p` prints the list (helper-66: `enable -p
            // .env` opens nothing): neither loads its operands.
            delete |= w.text.contains(['d', 'p']);
        } else {
            options = false;
            if delete {
                return false;
            }
            if !(w.is_static && crate::shell::BASH_BUILTINS.contains(&w.text.as_str())) {
                return true;
            }
        }
    }
    false
}

fn has_option_letter(args: &[Word], letter: char) -> bool {
    args.iter()
        .any(|w| w.text.starts_with('-') && w.text.contains(letter))
}

/// Split a builtin's ARGS into option values (for the options in WITH_VALUE) and
/// operands. A non-static option word makes ST opaque.
fn builtin_args(args: &[Word], with_value: &str, st: &mut State) -> (Vec<(char, Word)>, Vec<Word>) {
    let mut values = Vec::new();
    let mut operands = Vec::new();
    let mut j = 0;
    let mut options_done = false;
    while let Some(w) = args.get(j) {
        j += 1;
        let t = w.text.as_str();
        if options_done || !(t.starts_with('-') || t.starts_with('+')) || t == "-" {
            options_done = true;
            operands.push(w.clone());
            continue;
        }
        if !w.is_static {
            note(
                &mut st.opaque,
                format!("builtin option `{}` is not static", show(t)),
            );
            continue;
        }
        if t == "--" {
            options_done = true;
            continue;
        }
        let body = t.get(1..).unwrap_or("");
        for (k, ch) in body.char_indices() {
            if with_value.contains(ch) {
                let rest = body.get(k + ch.len_utf8()..).unwrap_or("");
                if !rest.is_empty() {
                    values.push((ch, Word::literal(rest)));
                } else if let Some(v) = args.get(j) {
                    values.push((ch, v.clone()));
                    j += 1;
                }
                break;
            }
        }
    }
    (values, operands)
}

/// Variable names given to builtin CMD: `a[$(cmd)]` or `$x` there makes bash evaluate
/// code.
fn check_names(names: &[Word], cmd: &str, st: &mut State) {
    for w in names {
        // The part before `=` shows expansions as written, so `$x` and `a[$i]` fail.
        let name = w.text.split('=').next().unwrap_or("").trim_end_matches('+');
        if !is_inert_var_name(name) {
            note(
                &mut st.opaque,
                format!("`{cmd}` variable name `{}` may run commands", show(&w.text)),
            );
        } else if is_dangerous_var(name) {
            // `read PATH`, `printf -v PATH`, `mapfile BASH_ENV`: assignments.
            note(
                &mut st.opaque,
                format!("`{cmd}` assigns `{name}`, which can change what runs"),
            );
        } else if !is_assignable(name.split('[').next().unwrap_or(name))
            || (matches!(cmd, "read" | "mapfile" | "readarray" | "printf" | "getopts")
                && crate::shell::word::is_inert_env(name))
        {
            // (An environment variable given a value from data, `read -r TZ < f`:
            // helper-68, `TZ=:FILE` makes `ls` open FILE.)
            note(
                &mut st.uncertain,
                format!("`{cmd}` assigns `{name}`, which a program may read"),
            );
        }
    }
}
