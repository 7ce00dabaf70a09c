//! Fallbacks: a line that does not parse is opaque, but bash runs the lines before the
//! error, so deny rules still get to see the commands we can guess.

use super::expand::{expand_word, word};
use super::state::{Cx, Frame, MAX_COMMANDS, RESERVED};
use super::word::{is_inert_var_name, Word};
use super::wrap;
use brush_parser::Token;

/// Guess commands from the tokens of a line that does not parse.
pub(crate) fn fallback_tokens(cx: &mut Cx, fr: &Frame, tokens: &[Token], why: &str) {
    let mut chunk: Vec<&str> = Vec::new();
    let mut skip_next = false;
    for t in tokens {
        match t {
            Token::Word(w, _) => {
                if skip_next {
                    skip_next = false;
                    let mut h = None;
                    let target = word(cx, fr, w, &mut h);
                    cx.redirect_to(target.text);
                } else {
                    chunk.push(w);
                }
            }
            Token::Operator(op, _) => {
                skip_next = false;
                if matches!(
                    op.as_str(),
                    ">" | ">>" | "<" | "<>" | ">|" | "&>" | "&>>" | ">&" | "<&"
                ) {
                    skip_next = true;
                } else if op.starts_with("<<") {
                    // A here-document delimiter or here-string: data.
                } else {
                    fallback_chunk(cx, fr, &chunk, why);
                    chunk.clear();
                }
            }
        }
    }
    fallback_chunk(cx, fr, &chunk, why);
}

/// Read every word of the commands guessed since index FROM as a path too: a guess may
/// take an argument for the command's name (`cat <(x) ~/.ssh/id_rsa` split at `<(`).
fn widen_paths(cx: &mut Cx, from: usize) {
    for c in cx.out.commands.iter_mut().skip(from) {
        let mut have: std::collections::HashSet<String> = c.paths.iter().cloned().collect();
        for w in &c.written {
            if have.insert(w.clone()) {
                c.paths.push(w.clone());
            }
        }
    }
}

pub(crate) fn fallback_chunk(cx: &mut Cx, fr: &Frame, chunk: &[&str], why: &str) {
    let from = cx.out.commands.len();
    guess_chunk(cx, fr, chunk, why);
    widen_paths(cx, from);
}

fn guess_chunk(cx: &mut Cx, fr: &Frame, chunk: &[&str], why: &str) {
    let mut start = 0;
    while let Some(w) = chunk.get(start) {
        let assignment = w
            .split_once('=')
            .is_some_and(|(n, _)| is_inert_var_name(n.trim_end_matches('+')));
        if RESERVED.contains(w) || assignment {
            start += 1;
        } else {
            break;
        }
    }
    if !cx.room_for(chunk.len()) {
        return;
    }
    let mut hazard = Some(why.to_owned());
    let mut words = Vec::new();
    // The words before a `$(case ...` word: the tokenizer may have ended the substitution
    // at a `case` pattern's `)`, where bash does not (`ls x $(case a in *) rm y;; esac)`
    // runs `ls x` with the output of `rm y`), so the command may be these words alone.
    let mut before_case = None;
    for w in chunk.iter().skip(start) {
        if before_case.is_none() && opens_case_substitution(w) {
            before_case = Some(words.clone());
        }
        words.extend(expand_word(cx, fr, w, &mut hazard));
    }
    let guesses = inner_starts(cx, &words, why);
    let before_hazard = hazard.clone();
    if !words.is_empty() {
        wrap::command(cx, fr, words, hazard, Vec::new());
    }
    if let Some(before) = before_case.filter(|b: &Vec<Word>| !b.is_empty()) {
        wrap::command(cx, fr, before, before_hazard, Vec::new());
    }
    for g in guesses {
        cx.push(g);
    }
}

/// Whether the word W holds a command substitution that starts with `case`, which the
/// tokenizer may end at a pattern's `)` (see [`super::scan::Region::texts`]).
fn opens_case_substitution(w: &str) -> bool {
    w.match_indices("$(").any(|(at, _)| {
        let rest = w[at + 2..].trim_start();
        rest.strip_prefix("case")
            .is_some_and(|r| r.starts_with(char::is_whitespace))
    })
}

/// Most words copied into the commands guessed from one line (each guess copies the
/// words after its start: a long chunk would make it quadratic).
const MAX_GUESSED_WORDS: usize = 8_192;

/// Where the parse failed, any word of WORDS may start a command: each plausible start
/// as an opaque command, for deny rules. Bounded, and never parsed further: past
/// [`MAX_GUESSED_WORDS`] words copied into guesses in one line, the line is truncated.
pub(crate) fn inner_starts(cx: &mut Cx, words: &[Word], why: &str) -> Vec<super::SimpleCommand> {
    const MAX_GUESSES: usize = 64;
    let mut out = Vec::new();
    for (k, w) in words.iter().enumerate().skip(1).take(MAX_GUESSES) {
        let name = super::word::basename(&w.text);
        let plausible = w.is_static
            && name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.+-".contains(c));
        if !plausible {
            continue;
        }
        cx.guessed += words.len() - k;
        if cx.guessed > MAX_GUESSED_WORDS {
            cx.truncate(format!(
                "more than {MAX_GUESSED_WORDS} words in guessed commands"
            ));
            break;
        }
        let written: Vec<String> = words.iter().skip(k).map(|w| w.text.clone()).collect();
        let mut argv = written.clone();
        if let Some(first) = argv.first_mut() {
            *first = name.to_owned();
        }
        let mut forms = vec![written.clone()];
        if argv != written {
            forms.push(argv.clone());
        }
        out.push(super::SimpleCommand {
            paths: argv.iter().skip(1).cloned().collect(),
            forms,
            argv,
            written,
            privileged: false,
            privileged_form: None,
            inert_form: None,
            opaque: Some(format!("{why} (guessed)")),
            redirects: Vec::new(),
            program: super::Known::Unknown,
            generous: None,
            env_values: Vec::new(),
            roles: Vec::new(),
            follows: None,
            place: None,
            data_globs: Vec::new(),
            // Only a plain name is guessed a command.
            named_at_run_time: false,
            names_split: false,
        });
    }
    out
}

/// Guess commands from raw text that was not tokenized: quotes dropped, split at blanks
/// and operators.
pub(crate) fn fallback_raw(cx: &mut Cx, fr: &Frame, src: &str, why: &str) {
    let from = cx.out.commands.len();
    guess_raw(cx, fr, src, why);
    widen_paths(cx, from);
}

fn guess_raw(cx: &mut Cx, fr: &Frame, src: &str, why: &str) {
    // Quotes and backslashes are ASCII: dropping them leaves valid UTF-8.
    let kept: Vec<u8> = src
        .bytes()
        .filter(|b| !matches!(b, b'\'' | b'"' | b'\\'))
        .collect();
    let unquoted = match String::from_utf8(kept) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    for chunk in unquoted.split(|c: char| {
        matches!(
            c,
            ';' | '&' | '|' | '(' | ')' | '<' | '>' | '`' | '$' | '\n' | '{' | '}'
        )
    }) {
        let words: Vec<&str> = chunk.split_ascii_whitespace().collect();
        if !cx.room_for(words.len()) {
            break;
        }
        let mut start = 0;
        while words
            .get(start)
            .is_some_and(|w| RESERVED.contains(w) || w.contains('='))
        {
            start += 1;
        }
        let words: Vec<Word> = words
            .iter()
            .skip(start)
            .map(|w| Word::literal(*w))
            .collect();
        if words.is_empty() {
            continue;
        }
        // A command left out is a bound reached: the line is truncated, never quietly
        // shorter.
        if cx.out.commands.len() >= MAX_COMMANDS {
            cx.truncate(format!("more than {MAX_COMMANDS} commands"));
            break;
        }
        if cx.full() {
            cx.truncate("a bound on what one line keeps is reached".into());
            break;
        }
        let guesses = inner_starts(cx, &words, why);
        wrap::command(cx, fr, words, Some(why.to_owned()), Vec::new());
        for g in guesses {
            cx.push(g);
        }
    }
}
