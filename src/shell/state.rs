//! The state of one reading: the line being built ([`Cx`]), where a nested text is read
//! ([`Frame`]), what brush-parser may still be given ([`Budget`]), and the bounds of a
//! line. Shared by the walk and every reader it hands words to; it reads nothing itself:
//! a nested text is read through [`Cx::read`], the one entry point the walk gives it.

use super::guard;
use super::scan;
use super::{CommandLine, Runs};
use brush_parser::ParserOptions;
use std::rc::Rc;

/// Deepest syntax tree walked; brush-parser's own bound (see `guard`) is larger.
pub(crate) const MAX_AST_DEPTH: usize = 200;
/// Most simple commands kept for one line.
pub(crate) const MAX_COMMANDS: usize = 2_048;
/// Most words in the simple commands kept for one line.
pub(crate) const MAX_LINE_WORDS: usize = 16_384;
/// Most bytes of outer commands copied into the commands read from their strings.
pub(crate) const MAX_COPIED: usize = 4 << 20;
/// Most words brace expansion may add to one line (and words it is tried on).
pub(crate) const MAX_EXPANDED_WORDS: usize = 2_048;
/// Most words one brace expansion may give.
pub(crate) const BRACE_LIMIT: usize = 256;
/// Most `{` in a word handed to brush-parser's (recursive) brace expansion parser.
pub(crate) const MAX_BRACES_IN_WORD: usize = 64;

/// The command that a nested command line was given to (`bash -c STR`, `eval STR`):
/// commands found in STR are written as that command.
pub(crate) struct Outer {
    pub written: Vec<String>,
    pub privileged: bool,
    /// The outer command's forms, up to the one that runs the string.
    pub forms: Vec<Vec<String>>,
    pub privileged_form: Option<usize>,
    /// The outer command's path words, and redirections, which the string's commands
    /// share.
    pub paths: Vec<String>,
}

/// Where a command line is being read.
#[derive(Clone, Default)]
pub(crate) struct Frame {
    /// How many command lines this one is nested in.
    pub depth: usize,
    /// The command a `-c` string or the like came from, if any.
    pub outer: Option<Rc<Outer>>,
}

impl Frame {
    /// One level deeper, same outer command.
    pub fn deeper(&self) -> Frame {
        Frame {
            depth: self.depth + 1,
            outer: self.outer.clone(),
        }
    }

    /// One level deeper, inside a string given to the command OUTER.
    pub fn inside(&self, outer: Outer) -> Frame {
        Frame {
            depth: self.depth + 1,
            outer: Some(Rc::new(outer)),
        }
    }
}

/// How a nested text is read: the walk's entry point, given to [`Cx::new`].
pub(crate) type Reader = fn(&mut Cx, &Frame, &str);

/// The line being built.
pub(crate) struct Cx {
    pub out: CommandLine,
    /// Reads a nested text into this line (see [`Cx::read`]).
    reader: Reader,
    pub words_left: usize,
    pub opts: ParserOptions,
    /// The walk stopped at `MAX_AST_DEPTH` in the line being walked.
    pub too_deep: bool,
    /// Guess from raw text only; never call brush-parser.
    pub raw_only: bool,
    /// Parse every line with brush-parser, certain ones too (see [`certain`]): what the
    /// certain reading must agree with.
    pub no_shortcut: bool,
    /// The redirection targets of the simple command being read.
    pub own_redirects: Vec<String>,
    /// The redirection targets of the compound commands around it.
    pub enclosing_redirects: Vec<String>,
    /// Bytes of outer commands copied into the commands of their strings (each command
    /// of `bash -c '...'` carries the outer command as a form): bounded.
    pub copied: usize,
    /// Words copied into commands guessed where a parse failed: bounded.
    pub guessed: usize,
    /// Words in the commands pushed: bounded.
    pub words: usize,
    /// What brush-parser may still be given in this reading: bytes, and words (see
    /// [`scan::words`]). Every nested text a reading parses again spends from it.
    pub parse_budget: Budget,
    /// How many times the loops and function bodies around the command being read may
    /// run it.
    pub runs: Runs,
    /// How many texts the command being read is nested in (a string given to a shell, a
    /// substitution, a guess): its commands get no [`super::Place`] when any.
    pub nested: usize,
    /// The subshells `( ... )` around the command being read, and how many the line has.
    pub subshells: Vec<usize>,
    pub shells: usize,
    /// The last command pushed with a place, by index.
    pub last_placed: Option<usize>,
    /// The line defines a function: a call may change directory anywhere, so no command
    /// keeps its place.
    pub functions: bool,
    /// The command about to be read is the first of a pipeline `time` times.
    pub timed_first: bool,
    /// What each long form tells about the commands run through it (see
    /// [`FormFacts`]), read once in this reading.
    pub form_facts: std::collections::HashMap<Vec<String>, Rc<FormFacts>>,
    /// The simple command whose output the one about to be read takes as its standard
    /// input (the one before it in a pipeline), if any.
    pub piped: Option<super::wrap::Fed>,
    /// The last simple command read (for [`Cx::piped`]).
    pub last_simple: Option<super::wrap::Fed>,
    /// The `xargs` command (its words) whose input is the names a `find` before it
    /// prints, read as `find -exec` (see `wrap::piped`): not names from data.
    pub names_found: Option<Vec<String>>,
}

/// What a form's words tell about a command run through it: the directories it moves
/// to (`git -C DIR`), why it reads file names from data, why it reads through links.
/// A wrapper's form is read for every command it runs (`find . -exec A {} + -exec B
/// {} + ...` carries the whole find line to each): a form of [`LONG_FORM`] words or
/// more is read once a reading.
#[derive(Debug, Default)]
pub(crate) struct FormFacts {
    pub dirs: Vec<String>,
    pub names_from_data: Option<String>,
    pub follows: Option<String>,
}

/// Forms at least this long are read once a reading (shorter ones cost less to read
/// than to remember).
pub(crate) const LONG_FORM: usize = 32;

/// What brush-parser may still be given in one reading.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub bytes: usize,
    pub words: usize,
    /// Bytes of raw text commands may still be guessed from.
    pub guessed: usize,
    /// What the certain subset's reader may still be given (bytes, times nesting).
    pub certain: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            bytes: guard::MAX_PARSED_BYTES,
            words: guard::MAX_PARSED_WORDS,
            guessed: guard::MAX_GUESSED_BYTES,
            certain: guard::MAX_PARSED_BYTES,
        }
    }
}

impl Budget {
    /// Spend what parsing TEXT costs; Err (spending nothing) when it is more than what
    /// is left.
    pub(crate) fn spend(&mut self, text: &str) -> Result<(), String> {
        let words = scan::words_up_to(text, self.words);
        // The tokenizer copies a substitution's text into each token it is nested in.
        let cost = text.len().saturating_mul(nesting(text).max(1));
        if cost > self.bytes || words > self.words {
            return Err(format!(
                "more than {} KB or {} words handed to the shell parser in one line",
                guard::MAX_PARSED_BYTES >> 10,
                guard::MAX_PARSED_WORDS
            ));
        }
        self.bytes -= cost;
        self.words -= words;
        Ok(())
    }

    /// Spend what the certain subset's reader costs on TEXT: it copies a
    /// substitution's text into each word it is nested in. Err (spending nothing,
    /// the text then outside the subset) when that is more than what is left.
    pub(crate) fn spend_certain(&mut self, text: &str) -> Result<(), String> {
        let cost = text.len().saturating_mul(nesting(text).max(1));
        if cost > self.certain {
            return Err(format!(
                "more than {} KB read in one line",
                guard::MAX_PARSED_BYTES >> 10
            ));
        }
        self.certain -= cost;
        Ok(())
    }

    /// Spend what brush-parser's word parser costs on WORD beyond its tokenizing:
    /// it reads each substitution of the word again at every level it is nested
    /// in (`$(echo $(echo ...))`), so its length once a level. Err (spending
    /// nothing) when that is more than what is left.
    pub(crate) fn spend_word(&mut self, word: &str) -> Result<(), String> {
        let deep = nesting(word);
        let cost = word.len().saturating_mul(deep);
        if cost > self.bytes {
            return Err(format!(
                "a word of {} bytes with substitutions nested {deep} deep: more than {} KB handed to the shell parser in one line",
                word.len(),
                guard::MAX_PARSED_BYTES >> 10
            ));
        }
        self.bytes -= cost;
        Ok(())
    }
}

/// How deep substitutions (`$(`, `<(`, `>(`, backquotes) nest in TEXT, with the
/// parentheses inside them, counted on the raw bytes (quotes ignored): what the
/// parser's cost grows with.
fn nesting(text: &str) -> usize {
    let bytes = text.as_bytes();
    // For each open parenthesis, whether it is counted.
    let mut open: Vec<bool> = Vec::new();
    let (mut depth, mut deepest, mut backquoted) = (0usize, 0usize, false);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => {
                let opens = depth > 0
                    || i.checked_sub(1)
                        .is_some_and(|k| matches!(bytes[k], b'$' | b'<' | b'>'));
                open.push(opens);
                if opens {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
            }
            b')' if open.pop() == Some(true) => depth = depth.saturating_sub(1),
            b'`' => {
                if backquoted {
                    depth = depth.saturating_sub(1);
                } else {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                backquoted = !backquoted;
            }
            _ => {}
        }
    }
    deepest
}

/// Record WHY in SLOT unless a reason is already there.
pub(crate) fn note(slot: &mut Option<String>, why: impl Into<String>) {
    if slot.is_none() {
        *slot = Some(why.into());
    }
}

impl Cx {
    /// A new reading whose nested texts READER reads.
    pub fn new(reader: Reader) -> Cx {
        Cx {
            out: CommandLine::default(),
            reader,
            words_left: MAX_EXPANDED_WORDS,
            // Bash reads `-c` strings and scripts with `extglob` off: `!(cmd)` there is
            // `! (cmd)`, not a pattern.
            opts: ParserOptions {
                enable_extended_globbing: false,
                ..ParserOptions::default()
            },
            too_deep: false,
            raw_only: false,
            no_shortcut: false,
            own_redirects: Vec::new(),
            enclosing_redirects: Vec::new(),
            copied: 0,
            guessed: 0,
            words: 0,
            parse_budget: Budget::default(),
            runs: Runs::Once,
            nested: 0,
            subshells: Vec::new(),
            shells: 0,
            last_placed: None,
            functions: false,
            timed_first: false,
            form_facts: std::collections::HashMap::new(),
            piped: None,
            last_simple: None,
            names_found: None,
        }
    }

    /// A new reading with the same reader (a guess kept apart from the line).
    pub fn fresh(&self) -> Cx {
        Cx::new(self.reader)
    }

    /// Read SRC, a command line nested in this one (a string given to a shell, a
    /// substitution), in frame FR: the one way a reader of words reads commands.
    pub fn read(&mut self, fr: &Frame, src: &str) {
        (self.reader)(self, fr, src)
    }

    /// Run F for the commands of a text nested in the line's own (their place unknown).
    pub fn unplaced<T>(&mut self, f: impl FnOnce(&mut Cx) -> T) -> T {
        self.nested += 1;
        let out = f(self);
        self.nested -= 1;
        out
    }

    /// Run F for the commands of a subshell `( ... )` of the line's own text.
    pub fn in_subshell<T>(&mut self, f: impl FnOnce(&mut Cx) -> T) -> T {
        self.shells += 1;
        self.subshells.push(self.shells);
        let out = self.subshell(f);
        self.subshells.pop();
        out
    }

    /// Give the commands pushed with a place from index FROM on (those one simple
    /// command of the line's text runs: `find . -exec cat {} +` is two) the command
    /// AFTER they run after.
    pub fn run_after(&mut self, from: usize, after: Option<super::After>) {
        for c in self.out.commands.iter_mut().skip(from) {
            if let Some(place) = c.place.as_mut() {
                place.after = after;
            }
        }
    }

    /// Run F with the commands it reads run N times more (a loop's, a function's).
    pub fn repeated<T>(&mut self, n: Runs, f: impl FnOnce(&mut Cx) -> T) -> T {
        let outer = self.runs;
        self.runs = outer.times(n);
        let out = f(self);
        self.runs = outer;
        out
    }

    /// Run F for commands that run in a subshell: a `cd` there ends with it, so it does
    /// not carry from one pass of a loop to the next (they are not marked repeated).
    pub fn subshell<T>(&mut self, f: impl FnOnce(&mut Cx) -> T) -> T {
        let outer = std::mem::take(&mut self.runs);
        let out = f(self);
        self.runs = outer;
        out
    }

    /// Mark the whole line opaque.
    pub fn line_opaque(&mut self, why: impl Into<String>) {
        note(&mut self.out.opaque, why);
        self.out.concurrent = true;
    }

    /// Mark the line's reading uncertain: no allow rule may allow it.
    pub fn uncertain(&mut self, why: impl Into<String>) {
        note(&mut self.out.uncertain, why);
    }

    /// Mark the line truncated for WHY: a bound kept commands out of it (uncertain and
    /// opaque too).
    pub fn truncate(&mut self, why: String) {
        self.uncertain(why.clone());
        note(&mut self.out.truncated, why.clone());
        self.line_opaque(why);
    }

    /// Whether a bound on what one line keeps (commands, words, copied outer
    /// commands) is reached: nothing more can be added, so reading on is wasted.
    pub fn full(&self) -> bool {
        self.out.commands.len() >= MAX_COMMANDS
            || self.words >= MAX_LINE_WORDS
            || self.copied > MAX_COPIED
    }

    /// Whether a command of N more words may be read; if not, the line is truncated.
    pub fn room_for(&mut self, n: usize) -> bool {
        if self.words + n <= MAX_LINE_WORDS {
            return true;
        }
        self.truncate(format!("more than {MAX_LINE_WORDS} words in its commands"));
        false
    }

    /// Add a simple command, with the redirections that apply to it.
    pub fn push(&mut self, mut command: super::SimpleCommand) {
        self.words += command.written.len();
        let why = if self.out.commands.len() >= MAX_COMMANDS {
            Some(format!("more than {MAX_COMMANDS} commands"))
        } else if self.words > MAX_LINE_WORDS {
            Some(format!("more than {MAX_LINE_WORDS} words in its commands"))
        } else {
            None
        };
        if let Some(why) = why {
            self.truncate(why);
        } else {
            for r in self.own_redirects.iter().chain(&self.enclosing_redirects) {
                if !command.redirects.contains(r) {
                    command.redirects.push(r.clone());
                }
            }
            if self.runs != Runs::Once {
                self.out.repeated.push((self.out.commands.len(), self.runs));
            }
            if self.nested == 0 {
                command.place = Some(super::Place {
                    subshells: self.subshells.clone(),
                    after: None,
                });
                self.last_placed = Some(self.out.commands.len());
            }
            self.out.commands.push(command);
        }
    }

    /// Record redirection target TARGET for the simple command being read.
    pub fn redirect_to(&mut self, target: String) {
        if !self.own_redirects.contains(&target) {
            self.own_redirects.push(target.clone());
        }
        self.out.redirects.push(target);
    }

    /// Run F with no redirections applying: the commands of a substitution do not
    /// share the redirections of the command it is part of.
    pub fn isolated<T>(&mut self, f: impl FnOnce(&mut Cx) -> T) -> T {
        let own = std::mem::take(&mut self.own_redirects);
        let enclosing = std::mem::take(&mut self.enclosing_redirects);
        let out = self.subshell(f);
        self.own_redirects = own;
        self.enclosing_redirects = enclosing;
        out
    }

    /// Mark the commands added since index FROM opaque for WHY, unless they already are.
    pub fn mark_since(&mut self, from: usize, why: &Option<String>) {
        if let Some(why) = why {
            for c in self.out.commands.iter_mut().skip(from) {
                note(&mut c.opaque, why.clone());
            }
        }
    }
}

/// How the reason for a text brush-parser could not split into words starts.
pub(crate) const TOKENIZE_ERROR: &str = "parse error (words)";

/// How the reason a text bash would stop at (a syntax error) is not read starts.
pub(crate) const PARSE_ERROR: &str = "parse error";

/// Words that are reserved in command position.
pub(crate) const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
    "esac", "select", "function", "coproc", "time", "{", "}", "!", "[[", "]]",
];
