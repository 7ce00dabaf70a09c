//! Bounds checked before brush-parser sees a string, and the thread it runs on.
//!
//! brush-parser recurses once per nesting level (about 3-7 KB of stack each in a release
//! build, several times that in a debug build) and would overflow on `"{ ".repeat(10_000)`.
//! Stack overflow aborts the process, so we bound the nesting cheaply first, with counts
//! that can only over-estimate it, and run the whole parse on a thread with a large stack.

use brush_parser::Token;

/// Stack of the parsing thread. Only the pages touched are committed.
const STACK_BYTES: usize = 256 << 20;
/// Longest line read; of a longer one, only guesses from its first `MAX_LINE` bytes
/// (truncated: never allowed). Every look at a line costs tens of nanoseconds a byte.
/// It is Linux's bound on one argument (`MAX_ARG_STRLEN`): no longer line can be
/// given to a shell as its `-c` string.
pub(crate) const MAX_LINE: usize = 128 << 10;
/// Most nesting openers (counted, not matched) in one string handed to brush-parser.
const MAX_OPENERS: usize = 1_000;
/// Most tokens in one string handed to brush-parser (about 1 µs each with the walk);
/// past it, commands are guessed from the raw text.
pub(crate) const MAX_TOKENS: usize = 8_192;

/// Most bytes of text one reading hands to brush-parser, nested texts included (each
/// `$(...)` of a line is parsed again at its depth); past it, commands are guessed from
/// the raw text. About 10 ns a byte.
pub(crate) const MAX_PARSED_BYTES: usize = 192 << 10;
/// Most words (counted by the scan) one reading hands to brush-parser, nested texts
/// included; past it, commands are guessed from the raw text. About 0.3 µs a word, with
/// the walk.
pub(crate) const MAX_PARSED_WORDS: usize = 2 * MAX_TOKENS;

/// Most bytes of raw text one reading guesses commands from where it does not parse,
/// nested texts and second looks included; past it, the rest is not guessed at (the
/// line is truncated either way).
pub(crate) const MAX_GUESSED_BYTES: usize = 192 << 10;

/// Longest text parsed on the calling thread. Every nesting level takes at least two
/// bytes of text and a few KB of brush-parser's stack, so this keeps the parse far
/// inside the caller's stack (Emacs's main thread has megabytes); starting the big-stack
/// thread costs about 0.2 ms, more than the whole decision.
const INLINE_BYTES: usize = 256;

/// Run F for a text of LEN bytes: inline when it is short, else on a thread with a large
/// stack. A panic in F is caught either way. Err: why it gave no answer.
pub(crate) fn run<T, F>(len: usize, f: F) -> Result<T, String>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    if len <= INLINE_BYTES {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
            .map_err(|_| "the shell parser panicked".to_owned())
    } else {
        on_big_stack(f)
    }
}

/// Run F on a fresh thread with a large stack. Err: why it gave no answer (it panicked,
/// or the thread could not start).
pub(crate) fn on_big_stack<T, F>(f: F) -> Result<T, String>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let spawned = std::thread::Builder::new()
        .name("gptel-rust-hooks-shell".into())
        .stack_size(STACK_BYTES)
        .spawn(f);
    match spawned {
        Ok(handle) => handle
            .join()
            .map_err(|_| "the shell parser panicked".to_owned()),
        Err(_) => Err("cannot start the shell parser thread".to_owned()),
    }
}

/// A character that is invisible or changes the direction of text: the line may not
/// read as it runs.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
        | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}'
        | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF9}'..='\u{FFFB}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// The first character of TEXT that the certain subset does not take in quoted text
/// or a here-document body: a control character other than tab (and newline, when
/// NEWLINE is true), or an invisible one.
pub(crate) fn hidden(text: &str, newline: bool) -> Option<char> {
    let shown = |c: char| c == '\t' || (newline && c == '\n');
    // No invisible character is ASCII.
    if text.is_ascii() {
        return text
            .bytes()
            .map(char::from)
            .find(|&c| c.is_ascii_control() && !shown(c));
    }
    text.chars()
        .find(|&c| (c.is_control() && !shown(c)) || is_invisible(c))
}

/// A control character other than tab and newline.
pub(crate) fn is_control(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n') || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Why TEXT must not be handed to brush-parser, if so: its length, and nesting counted on
/// the raw text before tokenizing.
pub(crate) fn check_text(text: &str) -> Result<(), String> {
    if text.len() > MAX_LINE {
        return Err(format!("longer than {MAX_LINE} bytes"));
    }
    // `${ cmd; }` and `${| cmd; }` run commands in bash 5.3 and ksh; brush-parser
    // misreads them, and zsh's `${(flags)x}` can evaluate code.
    // The tokenizer recurses once per `$(`, `${`, `<(`, `>(`, `$[` and backquote.
    let bytes = text.as_bytes();
    let mut openers = 0usize;
    let mut unsupported = None;
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        match b {
            b'`' => openers += 1,
            b'$' if matches!(next, Some(b'(' | b'{' | b'[')) => {
                openers += 1;
                let odd = matches!(bytes.get(i + 2), Some(b' ' | b'\t' | b'\n' | b'|' | b'('));
                if next == Some(b'{') && odd && unsupported.is_none() {
                    unsupported = Some(i);
                }
            }
            b'<' | b'>' if next == Some(b'(') => openers += 1,
            _ => {}
        }
    }
    if let Some(i) = unsupported {
        let near = text.get(i..).unwrap_or("");
        return Err(format!(
            "unsupported expansion near `{}`",
            super::word::show(near)
        ));
    }
    if openers > MAX_OPENERS {
        return Err(format!("more than {MAX_OPENERS} nested expansions"));
    }
    Ok(())
}

/// Why TEXT contains a character that makes it opaque, if so.
pub(crate) fn check_chars(text: &str) -> Result<(), String> {
    // No invisible character is ASCII.
    if text.is_ascii() {
        return match text.bytes().find(|&b| is_control(char::from(b))) {
            Some(b) => Err(format!("control character U+{:04X}", u32::from(b))),
            None => Ok(()),
        };
    }
    match text.chars().find(|&c| is_invisible(c) || is_control(c)) {
        Some(c) if is_invisible(c) => Err(format!(
            "invisible or direction-changing character U+{:04X}",
            u32::from(c)
        )),
        Some(c) => Err(format!("control character U+{:04X}", u32::from(c))),
        None => Ok(()),
    }
}

/// Why TOKENS are too many or nest too deep for brush-parser's recursive descent, if so.
/// Every token that can open a nesting level counts, whether or not it closes later.
pub(crate) fn check_tokens(tokens: &[Token]) -> Result<(), String> {
    if tokens.len() > MAX_TOKENS {
        return Err(format!("more than {MAX_TOKENS} tokens"));
    }
    let openers = tokens
        .iter()
        .filter(|t| match t {
            Token::Operator(s, _) => s == "(",
            Token::Word(s, _) => matches!(
                s.as_str(),
                "{" | "if"
                    | "while"
                    | "until"
                    | "for"
                    | "case"
                    | "select"
                    | "coproc"
                    | "function"
                    | "[["
                    | "!"
            ),
        })
        .count();
    if openers > MAX_OPENERS {
        return Err(format!("more than {MAX_OPENERS} nested commands"));
    }
    Ok(())
}
