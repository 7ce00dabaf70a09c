//! The wrappers that run a command as another user: `sudo`, `doas`, `su`.

use super::*;

pub(in crate::shell::wrap) fn sudo(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
) -> Step {
    let o = match simple_wrapper(words, &SUDO) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    let help = o.list.iter().any(|(n, v)| n == "h" && v.is_none());
    if help
        || o.has(&[
            "e",
            "edit",
            "l",
            "list",
            "v",
            "validate",
            "V",
            "version",
            "K",
            "remove-timestamp",
            "help",
        ])
    {
        return Step::Itself;
    }
    let mut j = o.next;
    while let Some(w) = words.get(j) {
        if !w.is_static {
            break;
        }
        match w.text.split_once('=') {
            Some((name, value)) if is_inert_var_name(name) || is_dangerous_var(name) => {
                note_assignment("sudo", name, st);
                for code in crate::shell::word::command_values(name, value) {
                    shell_string(cx, fr, &code, st);
                }
                j += 1;
            }
            _ => break,
        }
    }
    if o.has(&["i", "login"]) && j < words.len() {
        note(
            &mut st.opaque,
            "`sudo -i` runs its command in a login shell, which runs the user's profile files",
        );
    }
    if j >= words.len() {
        return if o.has(&["s", "shell", "i", "login"]) {
            Step::Opaque("`sudo` without a command starts a shell".into())
        } else {
            Step::Itself
        };
    }
    Step::Inner(j)
}

pub(in crate::shell::wrap) fn doas(words: &[Word]) -> Step {
    match simple_wrapper(words, &DOAS) {
        Ok(o) if o.has(&["C", "L"]) => Step::Itself,
        Ok(o) if o.has(&["s"]) || o.next >= words.len() => {
            Step::Opaque("`doas` without a command starts a shell".into())
        }
        Ok(o) => Step::Inner(o.next),
        Err(why) => Step::Opaque(why),
    }
}

/// `su` and `runuser`: options anywhere before `--` (getopt permutes them), the first
/// operand the user, the others (also after `--`) the shell's own arguments: `su root --
/// -ec STR` runs `bash -ec STR`, `su -c STR root x` runs `bash -c STR x`. The shell's
/// argv is read as any shell's. `runuser -u USER CMD...` runs the operands.
pub(in crate::shell::wrap) fn su(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    runuser: bool,
    hops: usize,
) -> Step {
    let cmd = words.first().map(|w| w.text.clone()).unwrap_or_default();
    let (o, operands) = match permuted(words, &SU) {
        Ok(p) => p,
        Err(why) => {
            let strings = loose_values(words, 'c', &["command", "session-command"]);
            return unreadable_with_strings(cx, fr, words, st, why, &strings);
        }
    };
    let has = |names: &[&str]| o.has(names);
    // `-P`: the command runs on a pseudo-terminal, the line's input typed into it as
    // keys (helper-69: `printf '!rm x\nq' | su -c 'less f' -P root` ran `rm`): it takes
    // itself to be interactive (a pager, readline), as under `unbuffer`.
    if has(&["P", "pty"]) {
        note(
            &mut st.uncertain,
            format!("`{cmd} -P` runs its command on a terminal (a pager, readline, keys typed in)"),
        );
    }
    if runuser && has(&["u", "user"]) {
        if has(&[
            "c",
            "command",
            "session-command",
            "s",
            "shell",
            "f",
            "fast",
            "l",
            "login",
        ]) {
            // runuser refuses these with `-u`: nothing runs.
            return Step::Itself;
        }
        let inner: Vec<Word> = operands
            .iter()
            .filter_map(|&k| words.get(k).cloned())
            .collect();
        if inner.is_empty() {
            return Step::Itself;
        }
        through(cx, fr, &inner, st.clone(), hops + 1);
        return Step::Done;
    }
    // The last `-c` wins; a `-` before the user makes a login shell.
    let string = o
        .list
        .iter()
        .rev()
        .find(|(n, _)| matches!(n.as_str(), "c" | "command" | "session-command"))
        .and_then(|(_, v)| v.clone());
    let mut operands = operands.into_iter().peekable();
    let login = operands.next_if(|&k| words.get(k).is_some_and(|w| w.text == "-"));
    // Its directory is the user's home (`login.rs`, for the paths of its commands).
    if login.is_some() || has(&["l", "login"]) {
        note(
            &mut st.opaque,
            format!("`{cmd}` starts a login shell, which runs the user's profile files"),
        );
    }
    let user = operands
        .next()
        .and_then(|k| words.get(k))
        .map_or("root", |w| w.text.as_str())
        .to_owned();
    let extra: Vec<Word> = operands.filter_map(|k| words.get(k).cloned()).collect();
    // The shell's argv as su builds it: PROGRAM, `-f`, `-c STR`, then the extra operands.
    let su_argv = |program: &str| {
        let mut argv = vec![Word::literal(program)];
        if has(&["f", "fast"]) {
            argv.push(Word::literal("-f"));
        }
        if let Some(s) = &string {
            argv.push(Word::literal("-c"));
            argv.push(Word::literal(s));
        }
        argv.extend(extra.iter().cloned());
        argv
    };
    let mut kind = "bash";
    if let Some(shell) = o
        .list
        .iter()
        .rev()
        .find(|(n, _)| n == "s" || n == "shell")
        .and_then(|(_, v)| v.as_deref())
    {
        let base = basename(shell);
        // `su -s /usr/bin/rm root -- -rf x` runs `rm -rf x`: a program that is not a
        // shell gets the shell's arguments (`-f`, `-c STR`, the extra operands).
        let Some(named) = shell_named(base) else {
            note(
                &mut st.opaque,
                format!("`{cmd}` runs `{}` as its shell", show(shell)),
            );
            through(cx, fr, &su_argv(shell), st.clone(), hops + 1);
            return Step::Done;
        };
        if !named.checked {
            note(
                &mut st.opaque,
                format!("`{cmd}` runs its command in `{}`", show(base)),
            );
        }
        kind = named.kind;
    } else {
        // No `-s`: the user's login shell from /etc/passwd (`/bin/sh` when empty), or
        // with `-m`/`-p` the `SHELL` of the environment; `su sync -c STR` runs
        // `/bin/sync -c STR` (helper-40).
        let shell = if has(&["m", "p", "preserve-environment"]) {
            // The call's `SHELL`, which the line or the environment may set to any shell.
            note(&mut st.opaque, super::runners::in_user_shell_why(&cmd));
            std::env::var("SHELL").ok()
        } else {
            crate::path::user_shell(&user)
        }
        .map(|s| {
            if s.is_empty() {
                "/bin/sh".to_owned()
            } else {
                s
            }
        });
        match shell.as_deref().map(|s| (s, shell_named(basename(s)))) {
            Some((_, Some(named))) => {
                if !named.checked {
                    note(
                        &mut st.opaque,
                        format!("`{cmd}` runs its command in `{}`", show(named.kind)),
                    );
                }
                kind = named.kind;
            }
            Some((shell, None)) => {
                note(
                    &mut st.opaque,
                    format!(
                        "`{cmd}` runs `{}`, the shell of `{}`",
                        show(shell),
                        show(&user)
                    ),
                );
                through(cx, fr, &su_argv(shell), st.clone(), hops + 1);
                return Step::Done;
            }
            None => note(
                &mut st.opaque,
                format!("`{cmd}`: the shell of `{}` is not known", show(&user)),
            ),
        }
    }
    if string.is_none() && extra.is_empty() {
        // What a here-document or here-string feeds it is read for deny rules.
        note(
            &mut st.opaque,
            format!("`{cmd}` without `-c` starts a shell"),
        );
        emit(cx, words, st.clone());
        for text in std::mem::take(&mut st.stdin) {
            shell_string(cx, fr, &text, st);
        }
        return Step::Done;
    }
    if !extra.is_empty() {
        note(
            &mut st.opaque,
            format!("`{cmd}` passes extra arguments to the shell"),
        );
    }
    match shell(cx, fr, &su_argv(kind), st, kind, hops) {
        // A script file: the shell runs it as the user.
        Step::Itself => Step::Opaque(format!("`{cmd}` runs a script file in a shell")),
        step => step,
    }
}
