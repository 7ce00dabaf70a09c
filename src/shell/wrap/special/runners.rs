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
            posix_string(cx, fr, &s, st);
            Step::Done
        }
        None if file + 1 < words.len() => Step::Inner(file + 1),
        None => Step::Itself,
    }
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
    let string = o
        .list
        .into_iter()
        .rev()
        .find(|(n, _)| n == "c" || n == "command")
        .and_then(|(_, v)| v);
    match string {
        Some(s) => {
            posix_string(cx, fr, &s, st);
            Step::Done
        }
        None => Step::Opaque("`script` without `-c` starts a shell".into()),
    }
}
