//! Words of the certain subset: quotes, escapes, parameters and substitutions, read
//! into a [`CWord`] (see the subset in the parent module).

use super::{ends_word, is_name_start, is_word_char, read_at, CWord, Reader, Stop, WordText};
use crate::shell::word::{show, unbackquote};
use crate::shell::MAX_DEPTH;

impl Reader<'_> {
    /// A word of the subset.
    pub(super) fn word(&mut self) -> Result<WordText, String> {
        let mut w = WordText::default();
        let start = self.i;
        let mut unquoted = true;
        while let Some(c) = self.peek() {
            match c {
                b'<' | b'>' if self.peek_at(1) == Some(b'(') => {
                    unquoted = false;
                    let shown = if c == b'<' { "<(...)" } else { ">(...)" };
                    // It runs beside the command, and may outlast it.
                    self.concurrent = true;
                    self.i += 2;
                    self.substitution(&mut w.word, None)?;
                    w.word.text.push_str(shown);
                }
                b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b')' => break,
                b'\'' => {
                    unquoted = false;
                    w.quoted = true;
                    self.single_quoted(&mut w.word)?;
                }
                b'"' => {
                    unquoted = false;
                    w.quoted = true;
                    self.i += 1;
                    self.double_quoted(&mut w.word)?;
                }
                b'\\' if self.peek_at(1) == Some(b'\n') => self.i += 2,
                b'\\' => {
                    unquoted = false;
                    w.quoted = true;
                    self.escaped(&mut w.word)?;
                }
                // A `$` at the end of a word is itself (`NAME$`, `cur:\\$ x`).
                b'$' if ends_word(self.peek_at(1)) && self.peek_at(1) != Some(b'(') => {
                    unquoted = false;
                    w.word.text.push('$');
                    self.i += 1;
                }
                b'$' => {
                    unquoted = false;
                    w.word.bare = true;
                    self.dollar(&mut w.word)?;
                }
                b'`' => {
                    unquoted = false;
                    w.word.bare = true;
                    self.backquoted(&mut w.word, false)?;
                }
                // Inside a word `~` is a letter, unless bash may take the word for an
                // assignment and the `~` starts a tilde-prefix there, right after `=` or
                // `:` (`a=~/x`, `a=b:~/x` expand it; `--source=HEAD~1` does not).
                b'~' if self.i != start => {
                    // After quotes that gave nothing (`""~/x`) the word would read as
                    // `~/x`.
                    let prev = self.src.as_bytes().get(self.i - 1).copied();
                    let prefix = matches!(prev, Some(b'=' | b':' | b'\'' | b'"'));
                    if w.word.text.is_empty() || (self.src[start..self.i].contains('=') && prefix) {
                        return Err(self.outside("`~` after `=` in a word"));
                    }
                    w.word.text.push('~');
                    self.i += 1;
                }
                b'~' => {
                    if !(ends_word(self.peek_at(1)) || self.peek_at(1) == Some(b'/')) {
                        return Err(self.outside("`~user`"));
                    }
                    w.word.text.push('~');
                    self.i += 1;
                }
                // `=` and `%` are letters, first or not (`[ a = b ]`, `--separator =`);
                // where bash reads `%` as a job, the command that holds the word says so
                // (see [`special_word`]).
                b'{' if self.i == start
                    && self.peek_at(1) == Some(b'}')
                    && ends_word(self.peek_at(2)) =>
                {
                    w.word.text.push_str("{}");
                    self.i += 2;
                }
                // A brace inside a word that brace expansion cannot take (`HEAD@{1}`,
                // `@{u}..`): a letter.
                b'{' | b'}' if self.i != start && !self.braces_may_expand(start) => {
                    w.word.text.push(char::from(c));
                    self.i += 1;
                }
                b'[' | b']' if self.i == start && ends_word(self.peek_at(1)) => {
                    w.word.text.push(char::from(c));
                    self.i += 1;
                }
                b'*' | b'?' | b'[' | b']' => {
                    unquoted = false;
                    w.word.glob = true;
                    w.word.text.push(char::from(c));
                    self.i += 1;
                }
                // A run of plain letters at once (the arm below, byte by byte).
                c if is_plain(c) => {
                    let run = self.bytes[self.i..]
                        .iter()
                        .position(|&b| !is_plain(b))
                        .unwrap_or(self.bytes.len() - self.i);
                    w.word.text.push_str(&self.src[self.i..self.i + run]);
                    self.i += run;
                }
                c if is_word_char(c) => {
                    let ch = self.char_here();
                    if ch.is_control() || crate::shell::guard::is_invisible(ch) {
                        return Err(self.outside("a control or invisible character"));
                    }
                    w.word.text.push(ch);
                    self.i += ch.len_utf8();
                }
                // `!` is a letter: a shell that runs a string expands no history. Not
                // before `(` (an extended glob), nor first in a command name (see
                // [`special_word`]); `!` alone there is the reserved word.
                b'!' if self.peek_at(1) != Some(b'(') => {
                    w.word.text.push('!');
                    self.i += 1;
                }
                _ => {
                    let what = match c {
                        b'{' | b'}' => "a brace",
                        b'(' => "a parenthesis",
                        b'!' => "`!(`",
                        _ => "a control character",
                    };
                    return Err(self.outside(what));
                }
            }
            if unquoted {
                w.unquoted_prefix = w.word.text.len();
            }
        }
        // A quoted `!` or `^` first in a bracket expression is a member, not a negation
        // (`.en[\^v]` matches `.env`): the glob as read here would negate it.
        let raw = &self.src[start..self.i];
        if w.word.glob
            && ["[\\!", "[\\^", "['!", "['^", "[\"!", "[\"^"]
                .iter()
                .any(|q| raw.contains(q))
        {
            return Err(self.outside("a quoted `!` or `^` first in a bracket expression"));
        }
        self.word_value(&mut w.word, raw);
        Ok(w)
    }

    /// The single-quoted text at the quote here, into W: as written.
    fn single_quoted(&mut self, w: &mut CWord) -> Result<(), String> {
        self.i += 1;
        let Some(len) = self.bytes[self.i..].iter().position(|&b| b == b'\'') else {
            return Err("an unterminated single quote".into());
        };
        let text = &self.src[self.i..self.i + len];
        if let Some(c) = crate::shell::guard::hidden(text, true) {
            return Err(format!("a quoted character U+{:04X}", u32::from(c)));
        }
        w.text.push_str(text);
        self.i += len + 1;
        Ok(())
    }

    /// The character the backslash here escapes, into W (not a newline: a line
    /// continuation, skipped by the caller).
    fn escaped(&mut self, w: &mut CWord) -> Result<(), String> {
        self.i += 1;
        if self.peek().is_none() {
            return Err("a backslash at the end of the text".into());
        }
        let ch = self.char_here();
        if (ch.is_control() && ch != '\t') || crate::shell::guard::is_invisible(ch) {
            return Err(self.outside("a control or invisible character"));
        }
        w.text.push(ch);
        self.i += ch.len_utf8();
        Ok(())
    }

    /// Whether the value of W, written RAW, is known. `$?`, `$#`, `$$`, `$!` and `$-`
    /// are digits or letters: known enough in a word without `/` (`/proc/$$/cwd` is
    /// not). A loop variable's value is a word of its list when the word is the
    /// variable alone, quoted (`"$f"`), or unquoted with a plain list; and only when
    /// the line gives it no other value (checked at the end).
    fn word_value(&mut self, w: &mut CWord, raw: &str) {
        for name in &w.plain_vars {
            if !self.plain_uses.contains(name) {
                self.plain_uses.push(name.clone());
            }
        }
        // The text must read as the same names (`"$o"f` is `$of` unquoted: not known).
        if !w.plain_vars.is_empty() {
            let names: Vec<(String, String)> = w
                .plain_vars
                .iter()
                .map(|n| (n.clone(), String::new()))
                .collect();
            if crate::shell::values::put_values(&w.text, &names).is_none() {
                w.unknowable(|| {
                    format!(
                        "`{}`: a variable that runs into the text after it",
                        show(raw)
                    )
                });
            }
        }
        if w.numeric && (w.text.contains('/') || w.text.starts_with('~')) {
            w.unknowable(|| format!("`{}`: a path built from a shell parameter", show(raw)));
        }
        let Some(name) = w.loop_vars.first().cloned() else {
            return;
        };
        let alone = [format!("${name}"), format!("${{{name}}}")];
        let quoted = alone.iter().any(|a| raw == format!("\"{a}\""));
        let plain = alone.iter().any(|a| raw == a)
            && self
                .loops
                .iter()
                .rev()
                .find(|l| l.name == name)
                .is_some_and(|l| l.plain);
        if w.loop_vars.len() > 1 || !(quoted || plain) {
            w.unknowable(|| {
                format!(
                    "`{}`: a loop variable is known only as a word of its own (`\"${name}\"`)",
                    show(raw)
                )
            });
        } else if !self.loop_uses.contains(&name) {
            self.loop_uses.push(name);
        }
    }

    /// True when the word that starts at START may hold a brace expansion: a `,`, a
    /// `{` with `..` and then `}` after it, or a quote, escape, expansion, `<`, `>` or
    /// parenthesis (which this look does not follow) anywhere in the text up to the next
    /// blank or `;&|`.
    fn braces_may_expand(&self, start: usize) -> bool {
        let end = (start..self.bytes.len())
            .find(|&k| b" \t\n;&|".contains(&self.bytes[k]))
            .unwrap_or(self.bytes.len());
        let raw = &self.src[start..end];
        if raw.contains([',', '\'', '"', '\\', '$', '`', '<', '>', '(', ')']) {
            return true;
        }
        raw.find('{')
            .and_then(|open| raw[open..].find("..").map(|dots| open + dots))
            .is_some_and(|dots| raw[dots..].contains('}'))
    }

    /// The rest of a double-quoted string, after its opening quote.
    pub(super) fn double_quoted(&mut self, w: &mut CWord) -> Result<(), String> {
        loop {
            let Some(c) = self.peek() else {
                return Err("an unterminated double quote".into());
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(());
                }
                // A `$` before a blank or the closing quote is itself (`"go$ | py$"`).
                b'$' if matches!(self.peek_at(1), Some(b'"' | b' ' | b'\t' | b'\n')) => {
                    w.text.push('$');
                    self.i += 1;
                }
                b'$' => self.dollar(w)?,
                b'`' => self.backquoted(w, true)?,
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.i += 2,
                    Some(e @ (b'$' | b'`' | b'"' | b'\\')) => {
                        w.text.push(char::from(e));
                        self.i += 2;
                    }
                    _ => {
                        w.text.push('\\');
                        self.i += 1;
                    }
                },
                // A run of printable ASCII (and blanks) that means nothing here, at once.
                c if is_plain_in_double(c) => {
                    let run = self.bytes[self.i..]
                        .iter()
                        .position(|&b| !is_plain_in_double(b))
                        .unwrap_or(self.bytes.len() - self.i);
                    w.text.push_str(&self.src[self.i..self.i + run]);
                    self.i += run;
                }
                _ => {
                    let ch = self.char_here();
                    if (ch.is_control() && ch != '\n' && ch != '\t')
                        || crate::shell::guard::is_invisible(ch)
                    {
                        return Err(self.outside("a control or invisible character"));
                    }
                    w.text.push(ch);
                    self.i += ch.len_utf8();
                }
            }
        }
    }

    /// A `$` expansion of the subset: a parameter or a command substitution.
    pub(super) fn dollar(&mut self, w: &mut CWord) -> Result<(), String> {
        let start = self.i;
        w.dynamic = true;
        match self.peek_at(1) {
            Some(b'(') if self.peek_at(2) == Some(b'(') => {
                Err(self.outside("an arithmetic expansion"))
            }
            Some(b'(') => {
                self.i += 2;
                self.substitution(w, Some(start))
            }
            Some(b'{') => {
                let rest = &self.bytes[self.i + 2..];
                let len = rest
                    .iter()
                    .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
                    .count();
                let named = len > 0 && is_name_start(rest[0]);
                if !named || rest.get(len) != Some(&b'}') {
                    return Err(self.outside("a parameter expansion with an operator"));
                }
                self.i += len + 3;
                w.text.push_str(&self.src[start..self.i]);
                self.parameter(w, &self.src[start + 2..start + 2 + len]);
                Ok(())
            }
            Some(c) if is_name_start(c) => {
                self.i += 1;
                while self
                    .peek()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    self.i += 1;
                }
                w.text.push_str(&self.src[start..self.i]);
                self.parameter(w, &self.src[start + 1..self.i]);
                Ok(())
            }
            Some(c) if c.is_ascii_digit() || b"#?@*$!-".contains(&c) => {
                self.i += 2;
                w.text.push_str(&self.src[start..self.i]);
                if b"#?$!-".contains(&c) {
                    w.numeric = true;
                } else {
                    let shown = &self.src[start..self.i];
                    w.unknowable(|| {
                        format!("`{shown}`, a positional parameter the reading does not know")
                    });
                }
                Ok(())
            }
            _ => Err(self.outside("a `$` that is not a parameter or a substitution")),
        }
    }

    /// The parameter NAME expanded in W: its value is known when it is `HOME` or `PWD`
    /// (which the path rules read), or the variable of a `for` loop around it
    /// (see [`Reader::word`]); any other variable may hold anything.
    fn parameter(&self, w: &mut CWord, name: &str) {
        // Not `OLDPWD`: bash takes it from the environment, where it may be anything.
        if matches!(name, "HOME" | "PWD") {
            return;
        }
        let plain = || self.plain.iter().any(|p| p.name == name);
        match self.loops.iter().rev().find(|l| l.name == name) {
            Some(l) if l.listed => w.loop_vars.push(name.to_string()),
            None if plain() => w.plain_vars.push(name.to_string()),
            _ => w.unknowable(|| {
                format!("`${name}`, a variable whose value the reading does not know")
            }),
        }
    }

    /// The list of a `$(`, `<(` or `>(` substitution, after its opening; the word gets
    /// its text as written from START, when given.
    pub(super) fn substitution(
        &mut self,
        w: &mut CWord,
        start: Option<usize>,
    ) -> Result<(), String> {
        self.enter()?;
        self.substituted += 1;
        let waiting = self.pending.len();
        let listed = self.list(Stop::Paren);
        self.depth -= 1;
        self.substituted -= 1;
        listed?;
        if self.pending.len() > waiting {
            return Err("a here-document whose body is not inside its substitution".into());
        }
        w.dynamic = true;
        if let Some(start) = start {
            w.text.push_str(&self.src[start..self.i]);
            w.unknowable(|| "the output of a command substitution".into());
        }
        Ok(())
    }

    /// A backquoted command substitution; QUOTED: inside double quotes.
    pub(super) fn backquoted(&mut self, w: &mut CWord, quoted: bool) -> Result<(), String> {
        let start = self.i;
        self.i += 1;
        loop {
            match self.peek() {
                None => return Err("an unterminated backquote".into()),
                Some(b'\\') => self.i += 2,
                Some(b'`') => break,
                Some(_) => self.i += 1,
            }
        }
        let body = unbackquote(&self.src[start + 1..self.i], quoted);
        self.i += 1;
        if self.depth >= MAX_DEPTH {
            return Err(format!("commands nested more than {MAX_DEPTH} deep"));
        }
        let inner = read_at(&body, self.depth + 1, self.substituted + 1)?;
        self.concurrent |= inner.concurrent;
        self.out.extend(inner.commands);
        self.redirects.extend(inner.redirects);
        self.outputs.extend(inner.outputs);
        w.dynamic = true;
        w.text.push_str(&self.src[start..self.i]);
        w.unknowable(|| "the output of a command substitution".into());
        Ok(())
    }
}

/// bash's builtins whose operands may name a job (`%1`, `%%`, `%-`, `%name`, `%?text`).
const JOB_BUILTINS: &[&str] = &["fg", "bg", "kill", "wait", "jobs", "disown"];

/// Why the word W, after the words BEFORE of its simple command, is outside the subset
/// for what its first character may mean there.
///
/// - `%`: a job, which the reading does not follow. bash resumes a job for a command
///   name that starts with `%`, quoted or not (`%1` is `fg %1`, `%1 &` is `bg %1`), and a
///   job builtin reads its operands as jobs by their value (`kill '%1'`), so such an
///   operand must be one whose value is known not to start with `%`. Everywhere else `%`
///   is a letter (`stat -c %s f`, `date +%s`, `printf %s x`).
/// - `!`: history in an interactive shell (`!!`, `!ls`), the only place it would matter
///   being the command name; as an operand it is a letter (`test ! -d d`, `git
///   range-diff A^! B^!`).
pub(super) fn special_word(before: &[CWord], w: &CWord) -> Option<&'static str> {
    if before.is_empty() {
        if w.text.starts_with('!') {
            return Some("a command name that starts with `!`");
        }
        return (w.text.starts_with('%') || w.dynamic || w.glob)
            .then_some("a command name that may name a job (`%`)");
    }
    // A value that starts with what the text starts with: a letter written there, or
    // the digits of `$$`, `$!`, `$?`, `$#` (or `$-`'s letters): no `%` (helper-70:
    // `kill -0 $$`).
    let starts_known = ["$$", "$!", "$?", "$#", "$-"]
        .iter()
        .any(|p| w.text.starts_with(p))
        || !w.text.starts_with(['$', '`']);
    let job = w.text.starts_with('%') || w.glob || (w.dynamic && !starts_known);
    (job && runs_job_builtin(before))
        .then_some("an operand of a job builtin that may name a job (`%`)")
}

/// Whether W, whose value the reading may not know, is an operand of bash's `echo`
/// (BEFORE: the words before it) with every expansion in double quotes: echo prints
/// it, and bash neither splits nor globs it (`echo "$PATH"`, `echo "$(date)"`, whose
/// commands are read as commands of the line).
pub(super) fn echoed(before: &[CWord], w: &CWord) -> bool {
    let plain = |b: &CWord| !b.dynamic && !b.glob && b.unknown.is_none();
    before.first().is_some_and(|b| b.text == "echo")
        && before.iter().all(plain)
        && !w.bare
        && !w.glob
}

/// Whether the words BEFORE may run a job builtin: its name (or a name only the shell
/// knows) first, or after `command` or `builtin` and their options.
fn runs_job_builtin(before: &[CWord]) -> bool {
    for b in before {
        if b.dynamic || b.glob || JOB_BUILTINS.contains(&b.text.as_str()) {
            return true;
        }
        if !matches!(b.text.as_str(), "command" | "builtin") && !b.text.starts_with('-') {
            return false;
        }
    }
    false
}

/// A letter that every arm of [`Reader::word`] but the last leaves alone, wherever it is.
fn is_plain(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'/' | b'.' | b'_' | b'-')
}

/// A byte that stands for itself inside double quotes: printable ASCII other than
/// `"`, `$`, backquote and backslash, and the blanks.
fn is_plain_in_double(c: u8) -> bool {
    matches!(c, b' '..=b'~' | b'\t' | b'\n') && !matches!(c, b'"' | b'$' | b'`' | b'\\')
}
