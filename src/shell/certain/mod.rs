//! The certain subset: command lines whose reading is exact, read without brush-parser.
//!
//! An allow rule allows a command line only when its reading is certain: every construct
//! in it belongs to this subset of the shell language, whose reading `tests/bash_oracle.rs`
//! checks against real bash (generated lines run with logging stand-ins for programs: the
//! programs bash runs must be exactly commands read here, with the same words). A line
//! outside it is read by brush-parser for deny, ask and stop rules, and never allowed.
//!
//! The subset:
//! - words of ordinary characters: ASCII letters and digits, `-_./,:@%+=^#`, and any
//!   character beyond ASCII that is not a control or invisible character; `~` as the
//!   first character, alone or before `/`, and as a letter later in a word but right
//!   after `=`, `:` or a quote in a word with an `=` (`HEAD~1`, `--source=HEAD~1`);
//!   `=` anywhere; `%` as a letter, but not where bash may read a job (a command name,
//!   an operand of `kill`, `wait`, `fg`, `bg`, `jobs`, `disown` that does not start
//!   with a letter or `$$`, `$!`: see `words::special_word`); `!` as a letter, but not first in a command
//!   name nor before `(`; `{}`, `[` and `]` as whole words; `{` and `}` after the
//!   first character of a word that has no `,`, no `{`..`..`..`}`, no quote, escape or
//!   `$` (`stash@{0}`, `@{u}..`);
//! - single quotes; double quotes, in which `\` escapes `$`, a backquote, `"`, `\` and a
//!   newline and is kept before anything else; outside quotes a backslash escapes any
//!   character, and a backslash-newline joins two lines;
//! - in words: the globs `*`, `?`, `[...]`; `$HOME` and `$PWD` (which the path rules
//!   read; not `$OLDPWD`, which bash may take from the environment); a `for` loop's variable as a word of its own (`"$f"`, or `$f` over a
//!   list of plain words) when nothing else in the text names it; `$#`, `$?`, `$$`, `$!`,
//!   `$-` in a word without `/`; the process substitutions `<(...)` and `>(...)`, and the
//!   command substitutions `$(...)` and backquotes where their output is no command's word
//!   (an assignment's value, a here-string), whose text is itself in the subset (their
//!   commands are part of the reading). Any other expansion in a command's word or a
//!   redirection target gives a value only the running shell knows, which may name any
//!   file: see [`CWord::unknown`];
//! - commands separated by `;`, `&`, `&&`, `||`, `|` and newlines; comments from a `#`
//!   that starts a word to the end of the line; `time` and `time -p` at the start of a
//!   pipeline (after `|`, `time` is a program);
//! - subshells `( ... )`, groups `{ ...; }`, `if`/`elif`/`else`, `while`, `until` and
//!   `for NAME in WORDS` loops (every command in them is part of the reading, whether it
//!   runs or not);
//! - assignments `NAME=WORD` alone or before a command, to names known to change nothing
//!   that runs: the inert environment variables of [`super::word::is_inert_env`]
//!   (`LANG`, `LC_*`, `TZ`, `NO_COLOR`, ...) and lower-case shell variables (not
//!   `*_proxy`), but not a `TZ` that names a file or a locale name with a `/`; the same
//!   for a `for` loop's variable;
//! - redirections `<`, `>`, `>>` of an optional descriptor (`2>`) to a word without a
//!   glob or `~`, `&>` and `&>>` to such a word (both outputs), the duplications `>&N`,
//!   `<&N`, `>&-`, `<&-`, here-strings `<<< WORD`,
//!   and here-documents `<<WORD`, `<<-WORD` on a simple command, whose body has no `$`,
//!   backquote or backslash unless the delimiter is quoted, ends with its delimiter line
//!   and lies inside the substitution that holds its command.
//!
//! Outside it: `$'...'`, `$"..."`, `${...}` with an operator, `$((...))`, `((...))`, every
//! other `$`; brace expansion; `case`, `select`, `[[ ]]`, functions, `coproc`, the
//! reserved word `!`; `>&WORD`, `>|`, `<>`, `|&`, `;;`; assignments to other names; a
//! command of redirections
//! only; an empty command and a trailing operator (syntax errors); control characters
//! other than tab and newline; nesting deeper than [`super::MAX_DEPTH`]; more than
//! [`MAX_WORDS`] words.

mod compound;
mod list;
mod names;
mod redirect;
mod settings;
mod words;

use names::{assigned_elsewhere, may_make_references, names_from_expansions, shell_string_at};
pub(crate) use settings::charset;
use settings::{assignment_name, names_a_file, shell_options, subscript_expands};

use super::state::RESERVED;
use super::word::{given_any_program, is_assignable, takes_any_environment};
use super::{exits, After, MAX_DEPTH};

/// A word of a certain line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct CWord {
    /// After quote removal; expansions kept as written.
    pub text: String,
    /// It holds an expansion or a substitution: the program may receive other words.
    pub dynamic: bool,
    /// It holds an unquoted glob: the program may receive the names it matches.
    pub glob: bool,
    /// It holds an expansion or a substitution outside double quotes: bash splits
    /// and globs what it gives.
    pub bare: bool,
    /// Why the reading cannot know what it expands to, if so: a variable the line
    /// may give any value, a positional parameter, a command's output.
    pub unknown: Option<String>,
    /// It holds `$?`, `$#`, `$$`, `$!` or `$-` (digits or option letters).
    pub numeric: bool,
    /// The loop variables it expands.
    pub loop_vars: Vec<String>,
    /// The variables with a plain value (see [`Plain`]) it expands.
    pub plain_vars: Vec<String>,
}

impl CWord {
    /// Note WHY the value of this word cannot be known, unless noted already.
    fn unknowable(&mut self, why: impl FnOnce() -> String) {
        if self.unknown.is_none() {
            self.unknown = Some(why());
        }
    }
}

/// The word W, when its value is known: a word whose value only the running shell
/// knows may name any file, which no rule can check.
fn known(w: CWord) -> Result<CWord, String> {
    match &w.unknown {
        Some(why) => Err(why.clone()),
        None => Ok(w),
    }
}

/// One simple command of a certain line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct CertainCommand {
    /// The assignments before it, as `NAME=VALUE` words.
    pub assignments: Vec<CWord>,
    /// The words, after quote removal.
    pub words: Vec<CWord>,
    /// The redirection targets that name files (its own and those of the compound
    /// commands around it).
    pub redirects: Vec<CWord>,
    /// The here-documents and here-strings it reads as standard input.
    pub stdin: Vec<String>,
    /// How many times the loops around it may run it.
    pub runs: crate::shell::Runs,
    /// The subshells `( ... )` of the line's own text around it (see
    /// [`crate::shell::Place`]); none inside a substitution.
    pub subshells: Vec<usize>,
    /// The command (an index in the line's commands) it runs right after (see
    /// [`crate::shell::Place::after`]).
    pub after: Option<After>,
    /// It is inside a substitution: its place is not the line's own.
    pub substituted: bool,
    /// The simple command (an index in the line's commands) whose output is its
    /// standard input: the one right before it in a pipeline.
    pub piped_from: Option<usize>,
    /// Its own redirections as written, blanks taken out (`2>/dev/null`, `<f`, `2>&1`).
    pub redirections: Vec<String>,
}

/// A certain line: its commands, in the order bash starts them (a command substitution
/// before the command whose word holds it), and every redirection target in the order
/// brush-parser's walk finds them (a compound command's before its body's).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct CertainLine {
    pub commands: Vec<CertainCommand>,
    pub redirects: Vec<String>,
    /// The targets of its output redirections (`>`, `>>`): those of `redirects` not
    /// here are only read (`< FILE`).
    pub outputs: Vec<String>,
    /// The variables its words expand whose value the line gives (see [`Plain`]), as
    /// (name, value).
    pub values: Vec<(String, String)>,
    /// Whether commands of it may run at the same time (see
    /// [`crate::shell::CommandLine::concurrent`]): an `&`, a pipeline, a process
    /// substitution.
    pub concurrent: bool,
}

/// The reading of SRC when every construct in it is in the certain subset; else why
/// not, naming the first construct outside it.
pub(crate) fn read(src: &str) -> Result<CertainLine, String> {
    read_at(src, 0, 0)
}

/// The reading of SRC nested DEPTH deep, SUBSTITUTED of them in substitutions.
fn read_at(src: &str, depth: usize, substituted: usize) -> Result<CertainLine, String> {
    let mut r = Reader {
        src,
        bytes: src.as_bytes(),
        i: 0,
        depth,
        substituted,
        out: Vec::new(),
        pending: Vec::new(),
        redirects: Vec::new(),
        outputs: Vec::new(),
        after_pipe: false,
        loops: Vec::new(),
        loop_uses: Vec::new(),
        runs: crate::shell::Runs::Once,
        headers: Vec::new(),
        words: 0,
        shells: 0,
        subshells: Vec::new(),
        simple: None,
        entry: None,
        list_end: None,
        list_exits: false,
        group_exits: false,
        op: (0, 0),
        plain: Vec::new(),
        plain_uses: Vec::new(),
        concurrent: false,
    };
    r.list(Stop::Eof)?;
    for c in &r.out {
        if let Some(why) = c.assignments.iter().chain(&c.words).find_map(charset) {
            return Err(why);
        }
        if let Some(why) = shell_options(&c.words) {
            return Err(why);
        }
        if let Some(why) = names_from_expansions(&c.words) {
            return Err(why);
        }
        // The string a shell runs is read as code, its own words checked there
        // (helper-83: `bash -c 'd=x; [ -d "$d" ] || mkdir "$d"'`).
        let string = shell_string_at(&c.words);
        let words = c
            .words
            .iter()
            .enumerate()
            .filter(|(k, _)| Some(*k) != string)
            .map(|(_, w)| w);
        let texts = c.assignments.iter().chain(words).chain(&c.redirects);
        let texts = texts
            .map(|w| w.text.as_str())
            .chain(c.stdin.iter().map(String::as_str));
        if let Some(text) = texts.into_iter().find(|t| subscript_expands(t)) {
            return Err(format!(
                "`{}`, a subscript with an expansion, which bash runs if the text reaches arithmetic",
                super::word::show(text)
            ));
        }
    }
    let references = may_make_references(src);
    for name in &r.loop_uses {
        if let Some(why) = assigned_elsewhere(src, references, name, &r.headers) {
            return Err(why);
        }
    }
    let mut values = Vec::new();
    for name in &r.plain_uses {
        if let Some(p) = r.plain.iter().find(|p| &p.name == name) {
            if let Some(why) = assigned_elsewhere(src, references, name, &[p.at]) {
                return Err(why);
            }
            values.push((p.name.clone(), p.value.clone()));
        }
    }
    Ok(CertainLine {
        commands: r.out,
        redirects: r.redirects,
        outputs: r.outputs,
        values,
        concurrent: r.concurrent,
    })
}

/// What ends a command list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The end of the text.
    Eof,
    /// The `)` of a substitution or a subshell.
    Paren,
    /// One of these reserved words in command position.
    Words(&'static [&'static str]),
}

/// What ended a command.
#[derive(PartialEq, Eq, Clone, Copy)]
enum End {
    /// `;`, `&` or a newline: the next command may be absent.
    List,
    /// `&&`, `||` or `|`: a command must follow (newlines may come first).
    Continue,
    /// The end of the list: the end of the text or its `)`.
    Close,
    /// The reserved word that ends the list, consumed.
    Word(&'static str),
}

/// A here-document whose body comes after the line.
struct Pending {
    delimiter: String,
    quoted: bool,
    strip_tabs: bool,
    /// The index in `out` of the command that reads it.
    command: usize,
}

struct Reader<'a> {
    src: &'a str,
    bytes: &'a [u8],
    i: usize,
    /// How many substitutions and compound commands this text is nested in.
    depth: usize,
    /// How many command and process substitutions (backquotes too) it is nested in.
    substituted: usize,
    out: Vec<CertainCommand>,
    pending: Vec<Pending>,
    /// Every redirection target, in brush-parser's order.
    redirects: Vec<String>,
    /// The targets of output redirections.
    outputs: Vec<String>,
    /// The command being read comes after a `|`: `time` there is a program, not the
    /// reserved word.
    after_pipe: bool,
    /// The `for` loops around the text being read, innermost last.
    loops: Vec<Loop>,
    /// The loop variables used as words (checked against the whole text at the end).
    loop_uses: Vec<String>,
    /// How many times the loops around the text being read may run it.
    runs: crate::shell::Runs,
    /// Where the name of each `for` loop starts.
    headers: Vec<usize>,
    /// Words read so far: bounded by [`MAX_WORDS`].
    words: usize,
    /// How many subshells of the line's own text were read, and those around the text
    /// being read.
    shells: usize,
    subshells: Vec<usize>,
    /// Whether commands read so far may run at the same time (see [`CertainLine`]).
    concurrent: bool,
    /// The index of the simple command the last [`Reader::command`] read, if it read one.
    simple: Option<usize>,
    /// The command the first of the next list read runs right after (an `if` condition's
    /// last, for its `then` body).
    entry: Option<After>,
    /// The command whose success the last list read means (see [`Reader::list`]).
    list_end: Option<After>,
    /// The last item of the last list read is `exit` alone, run in its shell.
    list_exits: bool,
    /// The command read last is a group `{ ...; exit N; }` with no redirection: it
    /// ends the shell (see [`Reader::list`]).
    group_exits: bool,
    /// The last operator that ended a command: its first byte and its length.
    op: (u8, usize),
    /// The variables the line gives a plain value (see [`Plain`]), and those of them its
    /// words expand (each checked against the whole text at the end).
    plain: Vec<Plain>,
    plain_uses: Vec<String>,
}

/// A variable given a plain value by an assignment alone (`d=build`) that always runs in
/// the line's own shell: at the top of the line (in no compound command, subshell,
/// substitution or loop), first in its list and not in a pipeline or in the background.
/// A word after it that expands the variable gets that value, when nothing else in the
/// text names the variable (`read d`, `d+=x`, `for d`, `unset d`...: checked at the end).
pub(crate) struct Plain {
    name: String,
    value: String,
    /// Where its name starts in the text.
    at: usize,
}

/// The name and value of the assignment W, when its value is plain text: no expansion,
/// glob, blank, `~` or quote to make it other than the text, not empty, and `=` (not
/// `+=`) right after the name.
fn plain_assignment(w: &CWord) -> Option<(String, String)> {
    if w.dynamic || w.glob || w.unknown.is_some() {
        return None;
    }
    let (name, value) = w.text.split_once('=')?;
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let plain_value = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:@%+=^".contains(c));
    (name.chars().all(ident) && !name.starts_with(|c: char| c.is_ascii_digit()) && plain_value)
        .then(|| (name.to_string(), value.to_string()))
}

/// Most words of one text read here (each costs about a microsecond to read and judge);
/// a longer text is outside the subset.
const MAX_WORDS: usize = 8_192;

/// A `for` loop around the text being read.
struct Loop {
    name: String,
    /// It has a list (`for NAME in WORDS`): else it runs over the positional
    /// parameters, which the reading does not know.
    listed: bool,
    /// Every word of its list is plain (no expansion, glob or blank): the value of an
    /// unquoted `$NAME` is then the word itself.
    plain: bool,
}

/// A word being read.
#[derive(Default)]
struct WordText {
    word: CWord,
    /// Some of it was quoted or escaped.
    quoted: bool,
    /// Byte length of the unquoted, unexpanded prefix of the text.
    unquoted_prefix: usize,
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-_./,:@%+=^~#".contains(&c) || c >= 0x80
}

/// A character that starts a parameter name after `$`.
fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// A byte that ends a word.
fn ends_word(c: Option<u8>) -> bool {
    matches!(
        c,
        None | Some(b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')')
    )
}

/// Reserved words that end a list, by the compound command that reads it.
const THEN: &[&str] = &["then"];
const IF_BODY: &[&str] = &["elif", "else", "fi"];
const FI: &[&str] = &["fi"];
const DO: &[&str] = &["do"];
const DONE: &[&str] = &["done"];
const BRACE_END: &[&str] = &["}"];

impl Stop {
    /// This stop when KEEP holds for it, else one with no reserved words.
    fn filter(self, keep: impl FnOnce(&Stop) -> bool) -> Stop {
        if keep(&self) {
            self
        } else {
            Stop::Eof
        }
    }
}

impl Reader<'_> {
    /// The redirection written from FROM (its descriptor) to its target's end, blanks out.
    fn written_op(&self, from: usize) -> String {
        let text = self.bytes.get(from..self.i).unwrap_or_default();
        let text = String::from_utf8_lossy(text);
        text.split_whitespace().collect()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.bytes.get(self.i + k).copied()
    }

    /// The character at the current position (the text is valid UTF-8).
    fn char_here(&self) -> char {
        self.src[self.i..].chars().next().unwrap_or('\u{FFFD}')
    }

    /// A construct outside the subset, at the current position.
    fn outside(&self, what: &str) -> String {
        let near: String = self.src[self.i..].chars().take(24).collect();
        format!("{what} near `{}`", super::word::show(&near))
    }

    /// One level deeper (a substitution or a compound command), bounded.
    fn enter(&mut self) -> Result<(), String> {
        if self.depth >= MAX_DEPTH {
            return Err(format!("commands nested more than {MAX_DEPTH} deep"));
        }
        self.depth += 1;
        Ok(())
    }

    /// Note the plain values the assignments alone of command I give (see [`Plain`]).
    fn note_plain(&mut self, i: usize) {
        let at_top = self.loops.is_empty() && self.subshells.is_empty();
        let Some(c) = self.out.get(i).filter(|c| c.words.is_empty() && at_top) else {
            return;
        };
        let mut found = Vec::new();
        for w in &c.assignments {
            let Some((name, value)) = plain_assignment(w) else {
                continue;
            };
            // Where the name starts: the last `NAME=VALUE` in the text up to here.
            let text = format!("{name}={value}");
            if let Some(at) = self.src[..self.i].rfind(&text) {
                found.push(Plain { name, value, at });
            }
        }
        self.plain.extend(found);
    }

    fn end_list(&self, word: Option<&'static str>) -> Result<Option<&'static str>, String> {
        if self.peek().is_none() && !self.pending.is_empty() {
            return Err("a here-document without its body".into());
        }
        Ok(word)
    }

    fn unterminated(&self, stop: Stop) -> String {
        match stop {
            Stop::Paren => "an unterminated `(`".into(),
            Stop::Words(w) => format!("a missing `{}`", w.join("` or `")),
            Stop::Eof => "the end of the text".into(),
        }
    }

    /// Skip blanks, backslash-newlines and comments; newlines too when NEWLINES (reading
    /// the bodies of the here-documents that wait for them).
    fn skip_blanks(&mut self, newlines: bool) -> Result<(), String> {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' => self.i += 1,
                b'\n' if newlines => {
                    self.i += 1;
                    self.bodies()?;
                }
                b'\\' if self.peek_at(1) == Some(b'\n') => self.i += 2,
                b'#' => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// The bodies of the here-documents waiting for the newline just read.
    fn bodies(&mut self) -> Result<(), String> {
        for doc in std::mem::take(&mut self.pending) {
            let mut body = String::new();
            loop {
                if self.i >= self.bytes.len() {
                    return Err(format!(
                        "a here-document without its delimiter `{}`",
                        doc.delimiter
                    ));
                }
                let len = self.bytes.len();
                let end = self.bytes[self.i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(len, |n| self.i + n);
                let raw = &self.src[self.i..end];
                self.i = if end < len { end + 1 } else { len };
                let line = if doc.strip_tabs {
                    raw.trim_start_matches('\t')
                } else {
                    raw
                };
                if line == doc.delimiter {
                    break;
                }
                if !doc.quoted && line.contains(['$', '`', '\\']) {
                    return Err(format!(
                        "a here-document body with `$`, a backquote or a backslash (delimiter `{}` is not quoted)",
                        doc.delimiter
                    ));
                }
                if let Some(c) = super::guard::hidden(line, false) {
                    return Err(format!(
                        "a here-document body with the character U+{:04X}",
                        u32::from(c)
                    ));
                }
                body.push_str(line);
                body.push('\n');
            }
            if let Some(c) = self.out.get_mut(doc.command) {
                c.stdin.push(body);
            }
        }
        Ok(())
    }

    /// One command (simple or compound) and what ended it; a reserved word of STOP in
    /// command position ends the list instead.
    fn command(&mut self, stop: Stop) -> Result<End, String> {
        let mut command = CertainCommand::default();
        let mut heredocs: Vec<(String, bool, bool)> = Vec::new();
        let mut timed = false;
        let after_pipe = std::mem::take(&mut self.after_pipe);
        loop {
            self.skip_blanks(false)?;
            let Some(c) = self.peek() else {
                if stop != Stop::Eof {
                    return Err(self.unterminated(stop));
                }
                return self.finish(command, heredocs, End::Close);
            };
            if let Some((len, end)) = self.operator(c, stop)? {
                self.after_pipe = c == b'|' && len == 1;
                self.op = (c, len);
                self.i += len;
                if end == End::List && c == b'\n' {
                    let end = self.finish(command, heredocs, end)?;
                    self.bodies()?;
                    return Ok(end);
                }
                return self.finish(command, heredocs, end);
            }
            if c == b'&' {
                let from = self.i;
                self.both_outputs()?;
                self.redirect(&mut command, &mut heredocs)?;
                command.redirections.push(self.written_op(from));
                continue;
            }
            let substitution = matches!(c, b'<' | b'>') && self.peek_at(1) == Some(b'(');
            if matches!(c, b'<' | b'>') && !substitution {
                let from = self.i;
                self.redirect(&mut command, &mut heredocs)?;
                command.redirections.push(self.written_op(from));
                continue;
            }
            let first = command.words.is_empty() && command.assignments.is_empty();
            if first {
                if let Stop::Words(words) = stop.filter(|_| !timed) {
                    // `}` cannot be read as a word of the subset: look for it first.
                    if let Some(w) = words.iter().find(|w| self.word_here(w)) {
                        self.i += w.len();
                        return Ok(End::Word(w));
                    }
                }
                if let Some(end) = self.compound(stop)? {
                    // A compound command is no simple command to run after.
                    self.simple = None;
                    return Ok(end);
                }
            }
            let at = self.i;
            let word = self.word()?;
            self.words += 1;
            if self.words > MAX_WORDS {
                return Err(format!("more than {MAX_WORDS} words"));
            }
            // A word of digits alone right before `<` or `>` is a descriptor.
            let descriptor = !word.quoted
                && !word.word.dynamic
                && !word.word.text.is_empty()
                && word.word.text.bytes().all(|b| b.is_ascii_digit())
                && matches!(self.peek(), Some(b'<' | b'>'))
                && self.peek_at(1) != Some(b'(');
            if descriptor {
                self.redirect(&mut command, &mut heredocs)?;
                command.redirections.push(self.written_op(at));
                continue;
            }
            if !command.words.is_empty() {
                let word = match words::echoed(&command.words, &word.word) {
                    true => word.word,
                    false => known(word.word)?,
                };
                if let Some(why) = words::special_word(&command.words, &word) {
                    self.i = at;
                    return Err(self.outside(why));
                }
                command.words.push(word);
                continue;
            }
            if !word.word.plain_vars.is_empty() {
                self.i = at;
                return Err(self.outside("a command name from a variable"));
            }
            if let Some(name) = assignment_name(&word) {
                assignment_in_subset(name, &word.word)?;
                command.assignments.push(word.word);
                continue;
            }
            if !word.quoted && RESERVED.contains(&word.word.text.as_str()) {
                let text = word.word.text.as_str();
                if let Stop::Words(words) = stop {
                    if let Some(w) = words.iter().find(|w| **w == text) {
                        if !command.assignments.is_empty() || timed {
                            return Err(format!("`{w}` after an assignment or `time`"));
                        }
                        return Ok(End::Word(w));
                    }
                }
                if text == "time" && after_pipe {
                    self.i = at;
                    return Err(self.outside("`time` after `|` (bash runs the program `time`)"));
                }
                if text == "time" && !timed && command.assignments.is_empty() {
                    timed = true;
                    self.skip_blanks(false)?;
                    if self.src[self.i..].starts_with("-p") && ends_word(self.peek_at(2)) {
                        self.i += 2;
                        self.skip_blanks(false)?;
                    }
                    // `time [-p] [--] COMMAND`.
                    if self.src[self.i..].starts_with("--") && ends_word(self.peek_at(2)) {
                        self.i += 2;
                    }
                    continue;
                }
                self.i = at;
                return Err(self.outside(&format!("the reserved word `{text}`")));
            }
            let word = known(word.word)?;
            if let Some(why) = words::special_word(&[], &word) {
                self.i = at;
                return Err(self.outside(why));
            }
            if word.text != "read" && sets_ifs(&command) {
                return Err("an assignment to `IFS`, which may change what runs".into());
            }
            if let Some(name) = other_variable(&command) {
                if !takes_any_environment(&word.text) {
                    return Err(format!(
                        "an assignment to `{name}`, which may change what runs"
                    ));
                }
            }
            command.words.push(word);
        }
    }

    /// The operator at C that ends a command, as (its length, what it ends), if any.
    fn operator(&self, c: u8, stop: Stop) -> Result<Option<(usize, End)>, String> {
        let next = self.peek_at(1);
        Ok(Some(match (c, next) {
            (b'\n', _) => (1, End::List),
            (b')', _) if stop == Stop::Paren => (1, End::Close),
            (b')', _) => return Err(self.outside("a parenthesis")),
            (b';', Some(b';' | b'&')) => return Err(self.outside("`;;`")),
            (b';', _) => (1, End::List),
            (b'&', Some(b'&')) => (2, End::Continue),
            // `&>WORD` and `&>>WORD`: a redirection (of both outputs), read at `&`.
            (b'&', Some(b'>')) => return Ok(None),
            (b'&', _) => (1, End::List),
            (b'|', Some(b'|')) => (2, End::Continue),
            (b'|', Some(b'&')) => return Err(self.outside("`|&`")),
            (b'|', _) => (1, End::Continue),
            _ => return Ok(None),
        }))
    }

    /// The simple command read, with its here-documents waiting for the newline.
    fn finish(
        &mut self,
        mut command: CertainCommand,
        heredocs: Vec<(String, bool, bool)>,
        end: End,
    ) -> Result<End, String> {
        if command.words.is_empty() {
            if sets_ifs(&command) {
                return Err("an assignment to `IFS`, which may change what runs".into());
            }
            if let Some(name) = other_variable(&command) {
                return Err(format!(
                    "an assignment to `{name}`, which may change what runs"
                ));
            }
            if !command.redirects.is_empty() || !heredocs.is_empty() || !command.stdin.is_empty() {
                return Err("a command of redirections only".into());
            }
            if command.assignments.is_empty() {
                return Err(self.outside("an empty command"));
            }
        }
        let index = self.out.len();
        command.runs = self.runs;
        command.subshells.clone_from(&self.subshells);
        command.substituted = self.substituted > 0;
        self.simple = Some(index);
        self.out.push(command);
        for (delimiter, quoted, strip_tabs) in heredocs {
            self.pending.push(Pending {
                delimiter,
                quoted,
                strip_tabs,
                command: index,
            });
        }
        Ok(end)
    }
}

/// Why the assignment WORD to NAME before a command is outside the subset, if it is.
/// `IFS= read -r line`: before `read`, a builtin that is not special, the assignment
/// changes only how `read` splits the line it reads (bash restores `IFS` after it);
/// checked at the command's name. Another variable is only before a program that takes
/// any (checked at its name: see `other_variable`), with one word in it (read as a
/// path, and as a command for deny rules: `CC=clang make`), not more than one word or
/// path (`NODE_OPTIONS='--require ./.env'`, `PYTHONPATH=src:../x`):
/// its value is read as one path.
fn assignment_in_subset(name: &str, word: &CWord) -> Result<(), String> {
    if name == "IFS" {
        return Ok(());
    }
    let value = word.text.split_once('=').map_or("", |(_, v)| v);
    if !is_assignable(name) && !given_any_program(name, value) {
        return Err(format!(
            "an assignment to `{name}`, which may change what runs"
        ));
    }
    match names_a_file(name, word) {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// The first variable COMMAND's assignments give that is neither assignable anywhere
/// ([`is_assignable`]) nor one the shell or loader reads: one only a program that takes
/// any variable may be given (`PYTHONPATH=src python3`).
fn other_variable(command: &CertainCommand) -> Option<&str> {
    command
        .assignments
        .iter()
        .filter_map(|a| a.text.split_once('=').map(|(n, _)| n))
        .map(|n| n.trim_end_matches('+'))
        .find(|n| !is_assignable(n) && *n != "IFS")
}

/// Whether COMMAND's assignments set `IFS` (which the subset allows only before `read`).
fn sets_ifs(command: &CertainCommand) -> bool {
    command
        .assignments
        .iter()
        .any(|a| a.text.starts_with("IFS=") || a.text.starts_with("IFS+="))
}
