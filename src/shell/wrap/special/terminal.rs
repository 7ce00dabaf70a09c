//! Terminal multiplexers: `tmux` and `screen`.

use super::*;

/// Read the short options at WORDS[K..] loosely (any letter not in VALUED a flag, those
/// in VALUED taking the rest of the word or the next one; up to `--` or the first word
/// without a dash): the values found, and the index of the first operand.
fn loose_short(words: &[Word], mut k: usize, valued: &str) -> (Vec<(char, String)>, usize) {
    let mut values = Vec::new();
    while let Some(w) = words.get(k) {
        let t = w.text.as_str();
        if t == "--" {
            return (values, k + 1);
        }
        let Some(body) = t.strip_prefix('-').filter(|b| !b.is_empty()) else {
            break;
        };
        k += 1;
        for (at, ch) in body.char_indices() {
            if valued.contains(ch) {
                let rest = &body[at + ch.len_utf8()..];
                if rest.is_empty() {
                    values.extend(words.get(k).map(|w| (ch, w.text.clone())));
                    k += 1;
                } else {
                    values.push((ch, rest.to_owned()));
                }
                break;
            }
        }
    }
    (values, k)
}

/// `tmux [options] COMMAND [flags] [SHELL-COMMAND...] [; COMMAND...]`: `new-session`,
/// `new-window`, `split-window`, `respawn-pane`, `respawn-window`, `run-shell`,
/// `display-popup`, `pipe-pane` run a shell command (one word through `sh -c`, more
/// words directly; `-c DIR` its directory), `if-shell` its first operand, `send-keys`
/// types its keys into a shell, `tmux -c STR` runs STR: each read as a shell string for
/// deny rules, and the line is never allowed.
pub(in crate::shell::wrap) fn tmux(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
) -> Step {
    let (global, start) = loose_short(words, 1, "cfLST");
    let mut strings: Vec<String> = global
        .into_iter()
        .filter(|(o, _)| *o == 'c')
        .map(|(_, v)| v)
        .collect();
    // The commands, split at `;` words (and words ending with an unescaped `;`).
    let mut commands: Vec<Vec<Word>> = vec![Vec::new()];
    for w in words.get(start..).unwrap_or(&[]) {
        let t = w.text.as_str();
        if t == ";" {
            commands.push(Vec::new());
        } else if let Some(head) = t.strip_suffix(';').filter(|h| !h.ends_with('\\')) {
            if let Some(last) = commands.last_mut() {
                last.push(Word {
                    text: head.to_owned(),
                    ..w.clone()
                });
            }
            commands.push(Vec::new());
        } else if let Some(last) = commands.last_mut() {
            last.push(w.clone());
        }
    }
    let mut unreadable = None;
    for c in &commands {
        let Some(name) = c.first() else { continue };
        let (valued, dir_opt) = match name.text.as_str() {
            "new-session" | "new" => ("cefFnstxy", 'c'),
            "new-window" | "neww" => ("cefFnt", 'c'),
            "split-window" | "splitw" => ("celFpt", 'c'),
            "respawn-pane" | "respawnp" | "respawn-window" | "respawnw" => ("cet", 'c'),
            "run-shell" | "run" => ("cdt", 'c'),
            "display-popup" | "popup" => ("bcdehsStTwxy", 'd'),
            "pipe-pane" | "pipep" => ("t", '\0'),
            "if-shell" | "if" => ("t", '\0'),
            "send-keys" | "send" => ("cNt", '\0'),
            "source-file" | "source" => {
                unreadable = Some("`tmux source-file` runs the commands in a file".to_owned());
                continue;
            }
            _ => continue,
        };
        let (values, at) = loose_short(c, 1, valued);
        let operands = c.get(at..).unwrap_or(&[]);
        if operands.is_empty() {
            continue;
        }
        if let Some(w) = operands.iter().find(|w| !w.is_static) {
            unreadable = Some(format!("`tmux` argument `{}` is not static", show(&w.text)));
        }
        let text = match name.text.as_str() {
            "if-shell" | "if" => {
                unreadable = Some("`tmux if-shell` runs tmux commands".to_owned());
                operands[0].text.clone()
            }
            "send-keys" | "send" => operands
                .iter()
                .map(|w| match w.text.as_str() {
                    "Enter" | "C-m" | "KPEnter" | "C-j" => "\n",
                    t => t,
                })
                .collect::<Vec<_>>()
                .join(" "),
            _ if operands.len() == 1 => operands[0].text.clone(),
            _ => operands
                .iter()
                .map(|w| format!("'{}'", w.text.replace('\'', "'\\''")))
                .collect::<Vec<_>>()
                .join(" "),
        };
        match values.iter().rev().find(|(o, _)| *o == dir_opt) {
            Some((_, dir)) => {
                strings.push(format!("cd '{}' && {text}", dir.replace('\'', "'\\''")))
            }
            None => strings.push(text),
        }
    }
    if strings.is_empty() {
        return match unreadable {
            Some(why) => Step::Opaque(why),
            None => Step::Itself,
        };
    }
    note(
        &mut st.opaque,
        unreadable.unwrap_or_else(|| "`tmux` runs a command in a shell".to_owned()),
    );
    emit(cx, words, st.clone());
    for s in strings {
        posix_string(cx, fr, &s, st);
    }
    Step::Done
}

/// `screen [options] [CMD ARGS...]` runs CMD in a new window (`-X CMD` sends it a
/// screen command): looked through for deny rules, never allowed.
pub(in crate::shell::wrap) fn screen(words: &[Word], st: &mut State) -> Step {
    if words.iter().skip(1).any(|w| {
        matches!(
            w.text.as_str(),
            "-ls" | "-list" | "-wipe" | "-v" | "-version"
        )
    }) {
        return Step::Itself;
    }
    let (values, at) = loose_short(words, 1, "ceghpSsTtX");
    if values.iter().any(|(o, _)| *o == 'X') {
        return Step::Opaque("`screen -X` sends a command to a screen session".into());
    }
    if values.iter().any(|(o, _)| matches!(o, 'c' | 's')) {
        note(&mut st.opaque, "`screen -c` or `-s` names a file it runs");
    }
    note(
        &mut st.uncertain,
        "`screen` runs its command in a new window",
    );
    if at < words.len() {
        Step::Inner(at)
    } else {
        Step::Opaque("`screen` without a command starts a shell".into())
    }
}
