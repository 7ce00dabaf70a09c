//! `env [options] [NAME=VALUE]... CMD...` and its `-S` split string.

use super::*;

/// `env [options] [NAME=VALUE]... CMD...`. Each `-S STR` (`--split-string`, bundled,
/// glued or abbreviated) is put in its place as the words STR splits into, and env
/// reads its options again from there (`env -S '-C .. cat x'` is `env -C .. cat x`):
/// such a line is outside the certain subset.
pub(in crate::shell::wrap) fn env(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    hops: usize,
) -> Step {
    let mut list = Vec::new();
    let mut j = 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Step::Opaque(format!("`env` argument `{}` is not static", show(t)));
        }
        if t == "--" || !t.starts_with('-') || t == "-" {
            break;
        }
        let from = list.len();
        let next = match option_word(words, j, &ENV, &mut list) {
            Ok(n) => n,
            Err(why) => return Step::Opaque(why),
        };
        let string = list[from..]
            .iter()
            .find(|(n, _)| n == "S" || n == "split-string")
            .and_then(|(_, v)| v.clone());
        if let Some(s) = string {
            note(
                &mut st.uncertain,
                "`env -S` splits a string into words, which may hold more options",
            );
            let mut spliced: Vec<Word> = words.get(..j).unwrap_or(&[]).to_vec();
            // The options bundled before it (`-iS STR`).
            if let Some(head) = t
                .strip_prefix('-')
                .filter(|b| !b.starts_with('-'))
                .and_then(|b| b.split_once('S'))
                .map(|(head, _)| head)
                .filter(|h| !h.is_empty())
            {
                spliced.push(Word::literal(format!("-{head}")));
            }
            spliced.extend(
                crate::shell::programs::env_split_string(&s)
                    .into_iter()
                    .map(|(text, dynamic)| Word {
                        text,
                        is_static: !dynamic,
                        pattern: false,
                    }),
            );
            spliced.extend(words.get(next..).unwrap_or(&[]).iter().cloned());
            through(cx, fr, &spliced, st.clone(), hops + 1);
            return Step::Done;
        }
        j = next;
    }
    let o = match simple_wrapper(words, &ENV) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    let mut j = o.next;
    if words.get(j).is_some_and(|w| w.is_static && w.text == "-") {
        j += 1;
    }
    while let Some(w) = words.get(j) {
        if !w.is_static {
            return Step::Opaque(format!("`env` argument `{}` is not static", show(&w.text)));
        }
        match w.text.split_once('=') {
            Some((name, value)) => {
                note_assignment("env", name, st);
                // `env GIT_CONFIG_VALUE_0='!rm x' ... git q`, `env FCEDIT=rm fc`.
                for code in crate::shell::word::command_values(name, value) {
                    shell_string(cx, fr, &code, st);
                }
                j += 1;
            }
            None => break,
        }
    }
    // No command: it prints the environment, as `printenv` does (helper-70: `env |
    // grep X` was undecided with no reason). With other options or assignments it is
    // read as a program the table does not know.
    if j >= words.len() {
        let words: Vec<&str> = words.iter().skip(1).map(|w| w.text.as_str()).collect();
        if let [] | ["-0" | "--null"] = words.as_slice() {
            let mut printenv = vec![Word::literal("printenv")];
            printenv.extend(words.iter().map(|w| Word::literal(*w)));
            through(cx, fr, &printenv, st.clone(), hops + 1);
            return Step::Done;
        }
        return Step::Itself;
    }
    Step::Inner(j)
}
