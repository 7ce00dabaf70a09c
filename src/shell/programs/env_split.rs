//! GNU `env -S STR` (`--split-string=STR`): the words env splits a string into, and the
//! command line env runs once each such string is split.

use std::collections::VecDeque;

/// The words GNU `env -S STR` (`--split-string=STR`) splits STR into: blanks separate
/// them; single quotes keep all but `\\` and `\'`; double quotes keep blanks; a
/// backslash outside single quotes escapes `\\ \' \" # $ _ c f n r t v` (`\_` separates
/// words outside quotes and is a space inside; `\c` ends the string); a `#` that starts a
/// word ends it; `${NAME}` is kept as written (env puts the variable's value there, not
/// split). Each word with whether it holds a `${NAME}`. An escape env refuses is read as
/// the character it escapes: the reading is for deny rules only, and env then runs
/// nothing.
pub(crate) fn env_split_string(s: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut word = String::new();
    // A word was started (`''` is an empty word), and it holds `${NAME}`.
    let (mut started, mut dynamic) = (false, false);
    let (mut sq, mut dq) = (false, false);
    let mut chars = s.chars().peekable();
    let mut end = |word: &mut String, started: &mut bool, dynamic: &mut bool| {
        if *started {
            out.push((std::mem::take(word), *dynamic));
        }
        *started = false;
        *dynamic = false;
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' if !sq && !dq => {
                end(&mut word, &mut started, &mut dynamic)
            }
            '\'' if !dq => {
                sq = !sq;
                started = true;
            }
            '"' if !sq => {
                dq = !dq;
                started = true;
            }
            '#' if !sq && !dq && !started => break,
            '$' if !sq && chars.peek() == Some(&'{') => {
                word.push('$');
                dynamic = true;
                started = true;
            }
            '\\' if sq && !matches!(chars.peek(), Some('\\' | '\'')) => {
                word.push(c);
            }
            '\\' => {
                let Some(e) = chars.next() else {
                    word.push(c);
                    started = true;
                    break;
                };
                match e {
                    '_' if !dq => {
                        end(&mut word, &mut started, &mut dynamic);
                        continue;
                    }
                    '_' => word.push(' '),
                    'c' if !dq => break,
                    'f' => word.push('\x0c'),
                    'n' => word.push('\n'),
                    'r' => word.push('\r'),
                    't' => word.push('\t'),
                    'v' => word.push('\x0b'),
                    e => word.push(e),
                }
                started = true;
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    end(&mut word, &mut started, &mut dynamic);
    out
}

/// FORM (`env` and its words) with the string of each `-S`/`--split-string` (bundled,
/// glued, abbreviated: `-iS STR`, `-SSTR`, `--sp=STR`) put in its place as the words it
/// splits into, as GNU env reads them (`env -S '-C .. cat x'` is `env -C .. cat x`).
/// The options end at the first operand or `--`.
pub(crate) fn env_split_form(form: &[String]) -> Vec<String> {
    let mut out: Vec<String> = form.iter().take(1).cloned().collect();
    let mut words: VecDeque<String> = form.iter().skip(1).cloned().collect();
    let mut splits = 0;
    while let Some(w) = words.pop_front() {
        if w == "--" || !w.starts_with('-') || w == "-" || splits >= MAX_ENV_SPLITS {
            out.push(w);
            break;
        }
        let mut string = None;
        if let Some(l) = w.strip_prefix("--") {
            let (name, value) = match l.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (l, None),
            };
            // Only `--split-string` starts with `s`.
            if !name.is_empty() && "split-string".starts_with(name) {
                string = Some(value.or_else(|| words.pop_front()).unwrap_or_default());
            } else {
                // Long options of env that take the next word as their value.
                let valued = ["unset", "chdir", "argv0"]
                    .iter()
                    .any(|n| !name.is_empty() && n.starts_with(name));
                out.push(w.clone());
                if valued && value.is_none() {
                    out.extend(words.pop_front());
                }
            }
        } else {
            let body = &w[1..];
            let mut head = String::from("-");
            let mut value_next = false;
            for (at, ch) in body.char_indices() {
                let rest = &body[at + ch.len_utf8()..];
                if ch == 'S' {
                    string = Some(if rest.is_empty() {
                        words.pop_front().unwrap_or_default()
                    } else {
                        rest.to_owned()
                    });
                    break;
                }
                head.push(ch);
                if "uCa".contains(ch) {
                    head.push_str(rest);
                    value_next = rest.is_empty();
                    break;
                }
            }
            if head.len() > 1 {
                out.push(head);
            }
            if value_next {
                out.extend(words.pop_front());
            }
        }
        if let Some(s) = string {
            splits += 1;
            for (w, _) in env_split_string(&s).into_iter().rev() {
                words.push_front(w);
            }
        }
    }
    out.extend(words);
    out
}

/// Most `-S` strings of one `env` split by [`env_split_form`]; past them the words are
/// left as they are (the line is outside the certain subset anyway).
const MAX_ENV_SPLITS: usize = 64;
