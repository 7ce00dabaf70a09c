//! Service starters and namespace entries: `start-stop-daemon`, `unshare`/`nsenter`.

use super::*;

/// The value of the option WORDS[K] when it is the short option SHORT (alone at the end
/// of a cluster, or with its value glued) or the long option LONG (or an abbreviation of
/// at least MIN letters, `=VALUE` or the next word); with the index of the word after.
fn option_value(
    words: &[Word],
    k: usize,
    short: char,
    long: &str,
    min: usize,
) -> Option<(String, usize)> {
    let t = words.get(k)?.text.as_str();
    let next = || words.get(k + 1).map(|w| (w.text.clone(), k + 2));
    if let Some(l) = t.strip_prefix("--") {
        let (name, value) = match l.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (l, None),
        };
        if name.len() < min || !long.starts_with(name) {
            return None;
        }
        return match value {
            Some(v) => Some((v.to_owned(), k + 1)),
            None => next(),
        };
    }
    let body = t.strip_prefix('-')?;
    let rest = body.strip_prefix(short)?;
    if rest.is_empty() {
        next()
    } else {
        Some((rest.to_owned(), k + 1))
    }
}

/// `start-stop-daemon --start --exec PROG -- ARGS` (or `--startas PROG`, `-x`, `-a`)
/// runs PROG with ARGS: read for deny rules, never allowed.
pub(in crate::shell::wrap) fn start_stop_daemon(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    hops: usize,
) -> Step {
    let mut program = None;
    let mut startas = None;
    let mut k = 1;
    let mut args: &[Word] = &[];
    while let Some(w) = words.get(k) {
        if w.text == "--" {
            args = words.get(k + 1..).unwrap_or(&[]);
            break;
        }
        if let Some((v, n)) = option_value(words, k, 'a', "startas", 6) {
            startas = Some(v);
            k = n;
        } else if let Some((v, n)) = option_value(words, k, 'x', "exec", 3) {
            program = Some(v);
            k = n;
        } else {
            k += 1;
        }
    }
    let Some(prog) = startas.or(program) else {
        return Step::Itself;
    };
    note(
        &mut st.opaque,
        format!("`start-stop-daemon` runs `{}`", show(&prog)),
    );
    emit(cx, words, st.clone());
    let mut argv = vec![Word::literal(prog)];
    argv.extend(args.iter().cloned());
    through(cx, fr, &argv, st.clone(), hops + 1);
    Step::Done
}

/// `unshare [options] [PROG ARGS...]` and `nsenter [options] [PROG ARGS...]` run PROG
/// (or `$SHELL`) in other namespaces, `--wd DIR` (`-w`) in DIR: looked through for deny
/// rules, never allowed (a namespace may change what paths mean).
pub(in crate::shell::wrap) fn namespaces(words: &[Word], st: &mut State) -> Step {
    let cmd = basename(command_name(words));
    let spec = if cmd == "unshare" { &UNSHARE } else { &NSENTER };
    note(
        &mut st.uncertain,
        format!("`{cmd}` runs its command in other namespaces"),
    );
    match simple_wrapper(words, spec) {
        Ok(o) if o.next < words.len() => Step::Inner(o.next),
        Ok(_) => Step::Opaque(format!("`{cmd}` without a command starts a shell")),
        Err(why) => Step::Opaque(why),
    }
}
