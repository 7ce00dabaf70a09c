//! Wrappers that run a command under a lock, a timer or a recorder: `flock`, `watch`, `script`.

use super::*;

/// `flock [opts] FILE CMD...`, `flock [opts] FILE -c STR`, `flock [opts] FD`.
pub(in crate::shell::wrap) fn flock(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
) -> Step {
    let o = match simple_wrapper(words, &FLOCK) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    let mut string = o.value(&["c", "command"]).map(str::to_owned);
    let file = o.next;
    match words.get(file) {
        None => return Step::Itself,
        Some(w) if !w.is_static => {
            return Step::Opaque(format!("`flock` operand `{}` is not static", show(&w.text)))
        }
        Some(_) => {}
    }
    if string.is_none() {
        if let Some(w) = words.get(file + 1) {
            if w.is_static && (w.text == "-c" || w.text == "--command") {
                match words.get(file + 2) {
                    Some(s) if s.is_static => string = Some(s.text.clone()),
                    _ => return Step::Opaque("`flock -c` string is not static".into()),
                }
            }
        }
    }
    match string {
        Some(s) => {
            // The lock file is opened (made when missing) before the string runs.
            if let Some(w) = words.get(file) {
                st.path_words.push(w.text.clone());
            }
            in_user_shell(cx, fr, "flock -c", &s, st);
            Step::Done
        }
        None if file + 1 < words.len() => Step::Inner(file + 1),
        None => Step::Itself,
    }
}

/// Read S, a string WHO gives to the shell the `SHELL` variable names (`sh` when
/// unset: `script -c`, `flock -c`, `su -m -c`): that variable is the call's, which
/// the line or the environment may set to any shell (zsh reads `$HOME[1,-1]` or
/// `x:h` otherwise than bash), so the string is never certain; read as `sh` reads it
/// for the deny rules.
pub(in crate::shell::wrap) fn in_user_shell(
    cx: &mut Cx,
    fr: &Frame,
    who: &str,
    s: &str,
    st: &mut State,
) {
    note(&mut st.uncertain, in_user_shell_why(who));
    posix_string(cx, fr, s, st);
}

/// Why WHO's string or command, run in `$SHELL`, is not certain.
pub(in crate::shell::wrap) fn in_user_shell_why(who: &str) -> String {
    format!("`{who}` runs its string in `$SHELL`, which may be a shell other than bash")
}

/// `watch CMD...` runs `sh -c "CMD..."`; `watch -x CMD...` runs CMD.
pub(in crate::shell::wrap) fn watch(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
) -> Step {
    let o = match simple_wrapper(words, &WATCH) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    if o.has(&["x", "exec"]) {
        return Step::Inner(o.next);
    }
    let rest = words.get(o.next..).unwrap_or(&[]);
    if rest.is_empty() {
        return Step::Itself;
    }
    if let Some(w) = rest.iter().find(|w| !w.is_static) {
        return Step::Opaque(format!(
            "`watch` argument `{}` is not static",
            show(&w.text)
        ));
    }
    let joined: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
    posix_string(cx, fr, &joined.join(" "), st);
    Step::Done
}

/// `script [options] [file]` runs a shell, or `-c STR` in one. Options anywhere before
/// `--` (getopt permutes them); the operand is the file it writes.
pub(in crate::shell::wrap) fn script(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
) -> Step {
    let (o, operands) = match permuted(words, &SCRIPT) {
        Ok(p) => p,
        Err(why) => {
            let strings = loose_values(words, 'c', &["command"]);
            return unreadable_with_strings(cx, fr, words, st, why, &strings);
        }
    };
    st.path_words.extend(
        operands
            .iter()
            .filter_map(|&k| words.get(k))
            .map(|w| w.text.clone()),
    );
    // The files it logs to (`-O`, `--log-io`, `-T`, `--timing=FILE`...).
    st.path_words.extend(o.list.iter().filter_map(|(n, v)| {
        let logs = matches!(
            n.as_str(),
            "B" | "I" | "O" | "T" | "t" | "log-io" | "log-in" | "log-out" | "log-timing" | "timing"
        );
        v.clone().filter(|_| logs)
    }));
    let string = o
        .list
        .into_iter()
        .rev()
        .find(|(n, _)| n == "c" || n == "command")
        .and_then(|(_, v)| v);
    match string {
        Some(s) => {
            in_user_shell(cx, fr, "script -c", &s, st);
            Step::Done
        }
        None => Step::Opaque("`script` without `-c` starts a shell".into()),
    }
}
