//! A grammar of bash command lines, drawn from a tape of choices.
//!
//! Every decision the generator makes is one number drawn from a [`Tape`]: from a seeded
//! PRNG while generating, from a stored list while replaying. Option 0 is always the
//! simplest one (a plain word, no nesting, the shortest list), and a tape that runs out
//! gives 0s, so a failing line is shrunk by shrinking its tape (deleting and lowering
//! choices) and generating again: what the generator knows about the line (below) stays
//! true of every shrunk line. See `shrink` in `mod.rs`.
//!
//! Besides the text, the generator records what it knows about the line:
//! - Every program it writes as a command (always a stand-in, see `STANDINS`) gets an id
//!   word `_N` as its first argument, and the id a class: `Must` (bash runs it whatever
//!   happens: no control flow, expansion or error can skip it), `Maybe` (control flow
//!   decides, or the generator does not claim to know bash's reading), or `Data` (text
//!   bash never runs: a comment, a quoted string, the body of a quoted here-document).
//!   The harness checks the generator against bash: every `Must` id ran, no `Data` id ran.
//! - The tags of the constructs each id sits in (`heredoc.cont-delim`, `pexp.dq-sq`,
//!   `wrap.priv-chain`...), so a disagreement is attributed to the construct it came from.
//! - The names of functions the line defines (commands the reading lists but bash does
//!   not exec).
//!
//! The line runs with these variables in its environment (see the driver): `s='a b'`,
//! `e=''`, `n=3`, `p=prog1`, `g='*.c'`; `u` is unset. The generator never assigns them
//! (assignments go to `x`, `y`, `z`, whose state it does not track), so it knows which
//! operand of `${v:-w}` and the like bash expands. The work directory holds `a.c`, `b.c`
//! and `rc.sh` (which runs `fromfile rc`), and nothing else.

use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------
// The tape.

/// The choices of one line.
#[derive(Debug, Clone)]
pub struct Tape {
    /// Choices to replay (values are clamped to the options at hand).
    given: Vec<u32>,
    /// Choices made so far, after clamping: the tape of the line generated.
    pub used: Vec<u32>,
    /// PRNG state when generating fresh choices past the given ones.
    rng: Option<u64>,
}

impl Tape {
    /// Fresh choices from SEED.
    pub fn random(seed: u64) -> Tape {
        Tape {
            given: Vec::new(),
            used: Vec::new(),
            rng: Some(seed ^ 0x9e37_79b9_7f4a_7c15),
        }
    }

    /// Replay CHOICES; past their end every choice is 0.
    pub fn replay(choices: &[u32]) -> Tape {
        Tape {
            given: choices.to_vec(),
            used: Vec::new(),
            rng: None,
        }
    }

    /// A number in 0..N.
    fn draw(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        let pos = self.used.len();
        let v = if pos < self.given.len() {
            self.given[pos].min(n - 1)
        } else if let Some(state) = self.rng.as_mut() {
            // splitmix64
            *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            (z % n as u64) as u32
        } else {
            0
        };
        self.used.push(v);
        v
    }
}

// ---------------------------------------------------------------------------------------
// What the generator knows.

/// Whether bash runs a command the generator wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Must,
    Maybe,
    Data,
}

/// The context a command is generated in: whether it runs for sure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Must,
    Maybe,
}

impl Mode {
    fn and(self, sure: bool) -> Mode {
        if sure {
            self
        } else {
            Mode::Maybe
        }
    }
}

/// One id: its class and the tags of the constructs around it.
#[derive(Debug, Clone)]
pub struct IdInfo {
    pub class: Class,
    pub tags: BTreeSet<&'static str>,
}

/// A generated line.
#[derive(Debug, Clone)]
pub struct Generated {
    pub line: String,
    /// Indexed by id (id 0 is unused).
    pub ids: Vec<IdInfo>,
    pub functions: BTreeSet<String>,
    /// Every tag used in the line.
    pub tags: BTreeSet<&'static str>,
    /// The tape that generates this line.
    pub choices: Vec<u32>,
}

impl Generated {
    /// No id is `Maybe` and nothing made the generator unsure: every program bash may
    /// run is one the generator wrote as `Must`.
    pub fn determined(&self) -> bool {
        !self.tags.contains("unsure") && self.ids.iter().skip(1).all(|i| i.class != Class::Maybe)
    }
}

/// Programs that exist on the private `PATH`, and what their stand-ins do.
pub const STANDINS: &[(&str, &str)] = &[
    ("ls", "plain"),
    ("cat", "plain"),
    ("rm", "plain"),
    ("git", "plain"),
    ("grep", "plain"),
    ("cp", "plain"),
    ("mv", "plain"),
    ("chmod", "plain"),
    ("curl", "plain"),
    ("make", "plain"),
    ("touch", "plain"),
    ("prog1", "plain"),
    ("prog2", "plain"),
    ("prog3", "plain"),
    ("echo", "plain"),
    ("true", "plain"),
    ("printf", "plain"),
    ("fromfile", "plain"),
    ("nope", "fail"),
    ("false", "fail"),
    ("env", "real"),
    ("nohup", "real"),
    ("timeout", "real"),
    ("nice", "real"),
    ("xargs", "real"),
    ("find", "real"),
    ("stdbuf", "real"),
    ("setsid", "real"),
    ("taskset", "real"),
    ("flock", "real"),
    ("ionice", "real"),
    ("bash", "real"),
    ("sh", "real"),
    ("sudo", "sudo"),
    ("doas", "doas"),
];

/// Stand-ins the generator writes as commands (with an id).
const PROGRAMS: &[&str] = &[
    "ls", "cat", "rm", "git", "grep", "cp", "mv", "chmod", "curl", "make", "touch", "prog1",
    "prog2", "prog3",
];

/// Plain arguments.
const ARGS: &[&str] = &[
    "a", "-l", "-rf", "x.txt", "src/a.c", "--flag=v", "/tmp/x", ".", "..", "-", "--", "b c", "=",
    "a=b", "%s", "{}", "!", ":", "@", "+x",
];

const FUNCTIONS: &[&str] = &["fa", "fb", "fc"];

/// Delimiters of here-documents.
const DELIMS: &[&str] = &["EOF", "E", "END", "X_1", "e-f"];

// ---------------------------------------------------------------------------------------
// The generator.

struct Gen<'t> {
    tape: &'t mut Tape,
    /// Nodes left to generate; past 0 every choice is the simplest.
    budget: i32,
    depth: u32,
    ids: Vec<IdInfo>,
    tags: Vec<&'static str>,
    all_tags: BTreeSet<&'static str>,
    functions: BTreeSet<String>,
    /// Pending here-document bodies, one list per input stream (the line, a `$(...)`,
    /// a `-c` string): a body follows the next newline of its stream.
    streams: Vec<Vec<String>>,
    /// Something happened after which the generator no longer knows what runs (a
    /// here-document whose end bash may find elsewhere): every later id is `Maybe`.
    chaos: bool,
    /// Inside text a shell expands and then runs again (an unquoted here-document read by
    /// a shell): data and commands are both `Maybe`.
    data_as_maybe: u32,
    /// Inside `$(...)`, backquotes or `<(...)`.
    in_sub: u32,
    /// Inside an expansion in a here-document body.
    in_body: u32,
    /// Inside a script a shell reads from its stdin (`bash -s <<<`, `bash <<E`): a
    /// program reading stdin (xargs) would eat the rest of the script.
    stdin_script: u32,
    /// Delimiters of the here-documents being generated (outer ones first).
    delims: Vec<String>,
    /// Inside the command of a `find -exec`.
    in_find: u32,
    /// bash 5.2 prints a command substitution holding a here-document inside a compound
    /// command back to text and parses it again, not always well: the whole line is
    /// then `Maybe`.
    downgrade_all: bool,
}

/// Generate one line from TAPE.
pub fn generate(tape: &mut Tape) -> Generated {
    let mut g = Gen {
        tape,
        budget: 0,
        depth: 0,
        ids: vec![IdInfo {
            class: Class::Data,
            tags: BTreeSet::new(),
        }],
        tags: Vec::new(),
        all_tags: BTreeSet::new(),
        functions: BTreeSet::new(),
        streams: vec![Vec::new()],
        chaos: false,
        data_as_maybe: 0,
        in_sub: 0,
        in_body: 0,
        stdin_script: 0,
        delims: Vec::new(),
        in_find: 0,
        downgrade_all: false,
    };
    g.budget = 4 + g.draw(28) as i32;
    let mut line = g.script(Mode::Must, false);
    if g.chance(6) {
        let op = if ends_bg(&line) {
            ""
        } else {
            g.one(&[";", " ;", " &"])
        };
        line.push_str(op);
        g.tag("trailing-op");
    }
    line.push_str(&g.end_top());
    if g.downgrade_all {
        g.all_tags.insert("unsure");
        for i in g.ids.iter_mut().skip(1) {
            i.class = Class::Maybe;
        }
    }
    Generated {
        line,
        ids: g.ids,
        functions: g.functions,
        tags: g.all_tags,
        choices: g.tape.used.clone(),
    }
}

impl Gen<'_> {
    fn draw(&mut self, n: u32) -> u32 {
        self.tape.draw(n)
    }

    /// An index into WEIGHTS, drawn by weight; index 0 is the simplest option.
    fn pick(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut v = self.draw(total);
        for (i, w) in weights.iter().enumerate() {
            if v < *w {
                return i;
            }
            v -= w;
        }
        0
    }

    /// Like `pick`, but only option 0 once the budget or the depth is spent.
    fn pick_rec(&mut self, weights: &[u32]) -> usize {
        if self.budget <= 0 || self.depth >= 5 {
            self.draw(1);
            return 0;
        }
        self.budget -= 1;
        self.pick(weights)
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.draw(100) >= 100 - percent
    }

    fn one<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.draw(options.len() as u32) as usize]
    }

    /// Run F inside construct TAG.
    fn with<T>(&mut self, tag: &'static str, f: impl FnOnce(&mut Self) -> T) -> T {
        self.tags.push(tag);
        self.all_tags.insert(tag);
        self.depth += 1;
        let out = f(self);
        self.depth -= 1;
        self.tags.pop();
        out
    }

    fn tag(&mut self, tag: &'static str) {
        self.all_tags.insert(tag);
    }

    /// A new id of CLASS, as the word `_N`.
    fn id(&mut self, class: Class) -> String {
        let class = if (self.chaos || self.data_as_maybe > 0) && class != Class::Maybe {
            Class::Maybe
        } else {
            class
        };
        let mut tags: BTreeSet<&'static str> = self.tags.iter().copied().collect();
        if self.chaos {
            tags.insert("chaos");
        }
        self.ids.push(IdInfo { class, tags });
        format!("_{}", self.ids.len() - 1)
    }

    fn mode_id(&mut self, m: Mode) -> String {
        self.id(match m {
            Mode::Must => Class::Must,
            Mode::Maybe => Class::Maybe,
        })
    }

    /// Text that looks like a command but is data: `prog2 _N a`.
    fn fake(&mut self) -> String {
        let name = self.one(PROGRAMS);
        let id = self.id(Class::Data);
        match self.draw(4) {
            0 => format!("{name} {id}"),
            1 => format!("$({name} {id})"),
            2 => format!("`{name} {id}`"),
            _ => format!("{name} {id} -rf x"),
        }
    }

    // -----------------------------------------------------------------------------------
    // Scripts, lists, pipelines.

    /// A newline token of the current stream, followed by the here-document bodies it
    /// ends.
    fn newline(&mut self) -> String {
        let bodies = std::mem::take(self.streams.last_mut().unwrap());
        let mut s = String::from("\n");
        for b in bodies {
            s.push_str(&b);
        }
        s
    }

    fn has_pending(&self) -> bool {
        self.streams.iter().any(|s| !s.is_empty())
    }

    /// Parse a nested stream (`$(...)`, a `-c` string): F generates its text, which ends
    /// with the bodies still pending in it.
    fn stream(&mut self, f: impl FnOnce(&mut Self) -> String) -> String {
        self.in_sub += 1;
        let s = self.fresh_stream(f);
        self.in_sub -= 1;
        s
    }

    /// A string another shell parses from scratch (`bash -c`, `eval`).
    fn script_string(&mut self, f: impl FnOnce(&mut Self) -> String) -> String {
        let saved = std::mem::take(&mut self.in_sub);
        let s = self.fresh_stream(f);
        self.in_sub = saved;
        s
    }

    fn fresh_stream(&mut self, f: impl FnOnce(&mut Self) -> String) -> String {
        self.streams.push(Vec::new());
        let mut s = f(self);
        let pending = self.streams.pop().unwrap();
        if !pending.is_empty() {
            s.push('\n');
            for b in pending {
                s.push_str(&b);
            }
        }
        s
    }

    /// The end of the line: bodies still pending, maybe without their last newline or
    /// delimiter (bash warns and ends the document at the end of input).
    fn end_top(&mut self) -> String {
        let pending = std::mem::take(&mut self.streams[0]);
        if pending.is_empty() {
            if self.chance(5) {
                self.tag("trailing-newline");
                return "\n".into();
            }
            return String::new();
        }
        let mut s = String::from("\n");
        let n = pending.len();
        for (i, b) in pending.into_iter().enumerate() {
            if i + 1 == n {
                match self.pick(&[6, 2, 2]) {
                    0 => s.push_str(&b),
                    1 => {
                        self.tag("heredoc.no-final-newline");
                        s.push_str(b.strip_suffix('\n').unwrap_or(&b));
                    }
                    _ => {
                        // The delimiter line is missing: the body runs to the end.
                        self.tag("heredoc.unterminated");
                        let body = b.strip_suffix('\n').unwrap_or(&b);
                        let cut = body.rfind('\n').map(|i| &body[..i + 1]).unwrap_or("");
                        s.push_str(cut);
                    }
                }
            } else {
                s.push_str(&b);
            }
        }
        s
    }

    /// A script: lines of lists. ONELINE: no newline token (no here-document, no
    /// comment), lists joined by `;`.
    fn script(&mut self, m: Mode, oneline: bool) -> String {
        let oneline = oneline || self.has_pending_outer();
        let n = 1 + self.pick_rec(&[5, 3, 2, 1]);
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                if oneline || self.draw(3) == 0 {
                    if ends_bg(&s) {
                        s.push(' ');
                    } else {
                        s.push_str(self.one(&["; ", ";", " ; "]));
                    }
                } else {
                    let nl = self.newline();
                    s.push_str(&nl);
                }
            }
            // A function definition and its call, as lists of their own (in a pipeline
            // or after `&&` the definition would not reach the call).
            let text = if self.chance(4) {
                self.with("function", |g| g.function(m, oneline))
            } else {
                self.list(m, oneline).0
            };
            s.push_str(&text);
            if !oneline && self.chance(8) {
                s.push_str(&self.comment());
                let nl = self.newline();
                s.push_str(&nl);
                // A command after the comment's newline keeps the script well formed.
                let (text, _) = self.list(m, oneline);
                s.push_str(&text);
            }
        }
        s
    }

    /// Bodies pending in an outer stream make newlines of inner streams murky.
    fn has_pending_outer(&self) -> bool {
        let k = self.streams.len();
        k > 1 && self.streams[..k - 1].iter().any(|s| !s.is_empty())
    }

    fn comment(&mut self) -> String {
        self.with("comment", |g| {
            let fake = g.fake();
            let pre = g.one(&[" # ", " #", "  #  ", "\t# "]);
            let junk = g.one(&[
                "", " && ", " ; ", " | ", " ) ", " '", " \"", " `", " $(", " \\",
            ]);
            if !junk.is_empty() {
                // Text that would open or continue something outside a comment.
                g.tag("comment.junk");
            }
            format!("{pre}{fake}{junk}")
        })
    }

    /// An and-or list, maybe put in the background. Returns the text and the status.
    fn list(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        let (mut s, mut st) = self.pipeline(m, oneline);
        let more = self.pick_rec(&[6, 3, 1]);
        for _ in 0..more {
            let and = self.draw(2) == 0;
            let op = if and { " && " } else { " || " };
            let runs = if and {
                st == Some(true)
            } else {
                st == Some(false)
            };
            s.push_str(op);
            if !oneline && self.chance(10) {
                let nl = self.newline();
                s.push_str(&nl);
            }
            let (t, st2) = self.pipeline(m.and(runs), oneline);
            s.push_str(&t);
            st = match (and, st) {
                (true, Some(true)) | (false, Some(false)) => st2,
                (true, Some(false)) => Some(false),
                (false, Some(true)) => Some(true),
                _ => None,
            };
        }
        if self.chance(7) {
            self.tag("background");
            s.push_str(" &");
            st = Some(true);
        }
        (s, st)
    }

    fn pipeline(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        let bang = self.chance(5);
        let n = 1 + self.pick_rec(&[6, 3, 1]);
        let mut s = String::new();
        let mut st = None;
        // bash 5.2 rejects `$(time (...))`.
        if self.in_sub == 0 && self.chance(3) {
            self.tag("time");
            s.push_str(self.one(&["time ", "time -p "]));
        }
        if bang {
            s.push_str("! ");
        }
        for i in 0..n {
            if i > 0 {
                let op = if self.draw(5) == 0 {
                    self.tag("pipe-stderr");
                    " |& "
                } else {
                    " | "
                };
                s.push_str(op);
                if !oneline && self.chance(5) {
                    let nl = self.newline();
                    s.push_str(&nl);
                }
            }
            let (t, st1) = self.command(m, oneline);
            s.push_str(&t);
            st = st1;
        }
        if bang {
            st = st.map(|b| !b);
        }
        (s, st)
    }

    // -----------------------------------------------------------------------------------
    // Commands.

    fn command(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        let weights = [
            30,                          // simple stand-in
            8,                           // builtin
            5,                           // subshell
            5,                           // group
            4,                           // if
            3,                           // for
            3,                           // while read / until
            3,                           // case
            3,                           // function
            3,                           // [[ ]]
            2,                           // (( ))
            10,                          // wrapper chain
            7,                           // shell -c
            if oneline { 0 } else { 8 }, // here-document
            3,                           // assignment-only
            2,                           // coproc / time
            2,                           // rc files and the like
        ];
        match self.pick_rec(&weights) {
            0 => self.simple(m),
            1 => self.builtin(m, oneline),
            2 => self.with("subshell", |g| {
                let body = g.script(m, oneline);
                let body = if body.starts_with('(') {
                    format!(" {body}")
                } else {
                    body
                };
                (format!("({body})"), None)
            }),
            3 => self.with("group", |g| {
                let body = g.script(m, oneline);
                let end = if ends_bg(&body) || ends_semi(&body) {
                    " }"
                } else {
                    "; }"
                };
                (format!("{{ {body}{end}"), None)
            }),
            4 => self.with("if", |g| g.if_cmd(m, oneline)),
            5 => self.with("for", |g| g.for_cmd(m, oneline)),
            6 => self.with("while", |g| g.while_cmd(m, oneline)),
            7 => self.with("case", |g| g.case_cmd(m, oneline)),
            8 => self.builtin(m, oneline),
            9 => self.with("dbracket", |g| g.dbracket(m)),
            10 => self.with("arith", |g| {
                let e = g.arith_expr(m);
                (format!("(( {e} ))"), Some(true))
            }),
            11 => self.wrapped(m),
            12 => self.shell_c(m),
            13 => self.with("heredoc", |g| g.heredoc_cmd(m)),
            14 => self.with("assign", |g| g.assignment_only(m)),
            15 => self.with("coproc", |g| {
                // bash reads `coproc WORD WORD...` in odd ways (a name, or not).
                let (t, _) = g.simple(Mode::Maybe);
                // Its stdin is a pipe from the shell, open until the shell exits.
                (format!("coproc {t} </dev/null"), Some(true))
            }),
            _ => self.with("runs-file", |g| g.runs_file(m)),
        }
    }

    /// A stand-in program with its id and arguments. Returns the words as text.
    fn program_words(&mut self, m: Mode) -> (String, bool) {
        let name = self.one(PROGRAMS);
        let name_text = self.command_name(name);
        let id = self.mode_id(m);
        let mut s = format!("{name_text} {id}");
        let nargs = self.pick_rec(&[4, 4, 2, 1]);
        for _ in 0..nargs {
            s.push(' ');
            let w = self.word(m);
            s.push_str(&w);
        }
        (s, name != "nope")
    }

    /// NAME as a command word, in one of the ways bash reads as NAME.
    fn command_name(&mut self, name: &str) -> String {
        match self.pick(&[20, 2, 2, 2, 2, 2, 2, 2, 1, 1]) {
            0 => name.to_string(),
            1 => format!("\\{name}"),
            2 => {
                let (a, b) = name.split_at(1);
                format!("{a}''{b}")
            }
            3 => format!("\"{name}\""),
            4 => format!("'{name}'"),
            5 => {
                self.tag("ansi-c");
                let (a, b) = name.split_at(1);
                format!("$'\\x{:02x}{b}'", a.as_bytes()[0])
            }
            6 => format!("/usr/local/bin/{name}"),
            7 => {
                self.tag("cont");
                let (a, b) = name.split_at(1);
                format!("{a}\\\n{b}")
            }
            8 => {
                // The name from an expansion: the reading cannot know it.
                self.tag("name-expansion");
                if name == "prog1" {
                    "$p".into()
                } else {
                    format!("$(echo {name})")
                }
            }
            _ => {
                self.tag("name-quoted-parts");
                let (a, b) = name.split_at(1);
                format!("\"{a}\"'{b}'")
            }
        }
    }

    fn simple(&mut self, m: Mode) -> (String, Option<bool>) {
        let mut s = String::new();
        // Assignments before the command.
        for _ in 0..self.pick_rec(&[8, 2, 1]) {
            let a = self.assignment_word(m, false);
            s.push_str(&a);
            s.push(' ');
        }
        // Redirections first (written after the words): one whose target is built by
        // an expansion may fail, and then the command does not run.
        let mut redirs = String::new();
        let mut risky = false;
        for _ in 0..self.pick_rec(&[6, 3, 1]) {
            redirs.push(' ');
            let r = self.redirect(m);
            risky |= r.starts_with("> \"o");
            redirs.push_str(&r);
        }
        let (words, ok) = self.program_words(m.and(!risky));
        s.push_str(&words);
        s.push_str(&redirs);
        (s, if risky { None } else { Some(ok) })
    }

    fn assignment_word(&mut self, m: Mode, alone: bool) -> String {
        let var = self.one(&["x", "y", "z"]);
        match self.pick(&[6, 2, 2, if alone { 2 } else { 0 }, 1]) {
            0 => {
                let w = self.word(m);
                format!("{var}={w}")
            }
            1 => {
                let w = self.word(m);
                format!("{var}+={w}")
            }
            2 => self.with("tilde", |g| {
                let w = g.one(&["~", "~/x", "a:~/b", "~root"]);
                format!("{var}={w}")
            }),
            3 => self.with("array", |g| {
                if g.in_sub > 0 {
                    // bash 5.2 prints a command substitution back to text and parses it
                    // again; its printer loses quoting in array elements.
                    g.downgrade_all = true;
                }
                let a = g.word(m);
                let b = g.word(m);
                format!("{var}=({a} {b})")
            }),
            _ => {
                // A variable bash reads to find programs: never certain, and the
                // generator does not know what runs after it.
                self.tag("assign.danger");
                self.tag("unsure");
                self.chaos = true;
                self.downgrade_all = true;
                let v = self.one(&["PATH", "BASH_ENV", "LD_PRELOAD", "PS4", "IFS", "ENV"]);
                let w = self.one(&["/tmp", "rc.sh", "x", "'$(prog3 ps4)'"]);
                format!("{v}={w}")
            }
        }
    }

    fn redirect(&mut self, m: Mode) -> String {
        self.with("redirect", |g| match g.pick(&[6, 3, 2, 2, 2, 2, 2, 2, 1]) {
            0 => format!("> {}", g.one(&["out", "/dev/null", "o.txt"])),
            1 => "2>&1".into(),
            2 => format!(">> {}", g.one(&["out", "log"])),
            3 => format!("< {}", g.one(&["a.c", "/dev/null", "rc.sh"])),
            4 => "&> out".into(),
            5 => {
                // A target built by a substitution (with a literal part: an empty
                // target would stop the command).
                let t = g.dq_content(m);
                format!("> \"o{t}\"")
            }
            6 => g.with("herestring", |g| {
                let w = g.word(m);
                format!("<<< {w}")
            }),
            7 => g.with("procsub", |g| {
                let body = g.stream(|g| g.script(m, true));
                format!("> >{}", &dollar_paren(&body)[1..])
            }),
            _ => format!("{}>{}", g.one(&["3", "4"]), g.one(&["out", "/dev/null"])),
        })
    }

    fn builtin(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        match self.pick_rec(&[4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1]) {
            0 => {
                let w = self.word(m);
                // Its status: a write into a pipe nobody reads fails.
                (format!("echo {w}"), None)
            }
            1 => {
                // Directories that are the work directory: elsewhere the relative
                // redirections and `rc.sh` of later commands would fail.
                let d = self.one(&[".", "~", "\"$HOME\"", "-- ."]);
                (format!("cd {d}"), Some(true))
            }
            2 => self.with("assign.printf-v", |g| {
                let var = g.one(&["x", "y", "PATH", "BASH_ENV"]);
                if var.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                    g.tag("assign.danger");
                    g.tag("unsure");
                    g.chaos = true;
                    g.downgrade_all = true;
                }
                let w = g.word(m);
                (format!("printf -v {var} '%s' {w}"), Some(true))
            }),
            3 => self.with("assign.read", |g| {
                let var = g.one(&["x", "y", "PATH", "LD_PRELOAD"]);
                if var.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                    g.tag("assign.danger");
                    g.tag("unsure");
                    g.chaos = true;
                    g.downgrade_all = true;
                }
                let w = g.dq_word(m);
                (format!("read -r {var} <<< {w}"), Some(true))
            }),
            4 => self.with("assign.mapfile", |g| {
                let cmd = g.one(&["mapfile -t", "readarray", "mapfile"]);
                let var = g.one(&["x", "y"]);
                let w = g.dq_word(m);
                (format!("{cmd} {var} <<< {w}"), Some(true))
            }),
            5 => {
                let w = self.word(m);
                (format!("export x={w}"), Some(true))
            }
            6 => {
                let w = self.word(m);
                (format!("test -n {w}"), None)
            }
            7 => {
                let t = self.one(&["true", ":", "false"]);
                (t.to_string(), Some(t != "false"))
            }
            8 => self.with("eval", |g| {
                let body = g.stream(|g| g.script(m, true));
                (format!("eval {}", sq(&body)), None)
            }),
            9 => self.with("trap", |g| {
                // A later trap would replace this one.
                let body = g.stream(|g| g.script(Mode::Maybe, true));
                (format!("trap {} EXIT", sq(&body)), Some(true))
            }),
            10 => {
                let w = self.word(m);
                let v = self.word(m);
                (format!("printf '%s\\n' {w} {v}"), None)
            }
            11 => {
                let w = self.word(m);
                (format!("declare x={w}"), Some(true))
            }
            _ => {
                // Data only: words that spell commands.
                let f = self.fake();
                let t = if oneline || self.draw(2) == 0 {
                    format!("echo {}", sq(&f))
                } else {
                    format!("echo \"{}\"", escape_dq(&f))
                };
                self.tag("data");
                (t, None)
            }
        }
    }

    fn if_cmd(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        let (cond, st) = self.list(m, oneline);
        let then_runs = st == Some(true);
        let else_runs = st == Some(false);
        let sep1 = self.sep(&cond, oneline);
        let body = self.script(m.and(then_runs), oneline);
        let sep2 = self.sep(&body, oneline);
        let mut s = format!("if {cond}{sep1}then {body}{sep2}");
        if self.draw(2) == 0 {
            let e = self.script(m.and(else_runs), oneline);
            let sep3 = self.sep(&e, oneline);
            s.push_str(&format!("else {e}{sep3}"));
        }
        s.push_str("fi");
        (s, None)
    }

    /// What ends PREV before a keyword: `; ` or a newline (after `&`, a blank).
    fn sep(&mut self, prev: &str, oneline: bool) -> String {
        if oneline || self.draw(3) > 0 {
            if ends_bg(prev) {
                " ".into()
            } else {
                "; ".into()
            }
        } else {
            self.newline()
        }
    }

    fn for_cmd(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        // Not `i`, the variable of C-style loops (bash evaluates its value as code).
        let var = self.one(&["x", "y"]);
        if self.draw(4) == 0 {
            self.tag("arith");
            let sep = self.sep("", oneline);
            let body = self.script(m, oneline);
            let sep2 = self.sep(&body, oneline);
            // `i`: the generator never assigns it (bash evaluates its value as code).
            return (
                format!("for ((i=0; i<1; i++)){sep}do {body}{sep2}done"),
                None,
            );
        }
        // At least one literal word: the body runs.
        let mut words = vec![self.one(&["a", "1", "'b c'", "-"]).to_string()];
        for _ in 0..self.pick_rec(&[3, 2, 1]) {
            let w = self.word(m);
            words.push(w);
        }
        let sep = self.sep("", oneline);
        let body = self.script(m, oneline);
        let sep2 = self.sep(&body, oneline);
        (
            format!("for {var} in {}{sep}do {body}{sep2}done", words.join(" ")),
            None,
        )
    }

    fn while_cmd(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        let kind = self.draw(3);
        let sep = self.sep("", oneline);
        let body = self.script(if kind == 0 { m } else { Mode::Maybe }, oneline);
        let sep2 = self.sep(&body, oneline);
        match kind {
            // Runs the body once: one line of input.
            0 => (
                format!("while read -r x{sep}do {body}{sep2}done <<< a"),
                None,
            ),
            1 => (format!("until true{sep}do {body}{sep2}done"), None),
            _ => (format!("while false{sep}do {body}{sep2}done"), None),
        }
    }

    fn case_cmd(&mut self, m: Mode, oneline: bool) -> (String, Option<bool>) {
        let word = match self.draw(3) {
            0 => "a".to_string(),
            1 => "\"$s\"".to_string(),
            _ => {
                let w = self.word(m);
                format!("x{w}")
            }
        };
        let mut s = format!("case {word} in");
        // Arms that do not match (the patterns are expanded, the bodies do not run),
        // then `*)`, which matches.
        let n = self.pick_rec(&[3, 2, 1]);
        for _ in 0..n {
            let pat = match self.draw(4) {
                0 => "zz".to_string(),
                1 => "'zz'|\"yy\"".to_string(),
                2 => {
                    // A pattern from a substitution: empty output matches an empty
                    // word only, and WORD is never empty.
                    let c = self.stream(|g| g.script(m, true));
                    self.tag("cmdsub");
                    format!("zz{}", dollar_paren(&c))
                }
                _ => "(zz".into(),
            };
            // No earlier arm matches, so `;&` and `;;&` change nothing.
            let body = self.script(Mode::Maybe, true);
            let term = self.one(&[";;", ";;", ";&", ";;&"]);
            s.push_str(&format!(" {pat}) {body}{term}"));
        }
        let body = self.script(m, true);
        let nl = if oneline || self.draw(2) == 0 {
            " ".to_string()
        } else {
            self.newline()
        };
        s.push_str(&format!(" *) {body};;{nl}esac"));
        (s, None)
    }

    fn function(&mut self, m: Mode, oneline: bool) -> String {
        let name = self.one(FUNCTIONS).to_string();
        self.functions.insert(name.clone());
        let call = self.draw(4) > 0;
        // The body runs when the function is called, after whatever comes between.
        let body = self.script(m.and(call), oneline);
        let end = if ends_bg(&body) { " }" } else { "; }" };
        let def = match self.draw(3) {
            0 => format!("{name}() {{ {body}{end}"),
            1 => format!("function {name} {{ {body}{end}"),
            _ => format!("{name}() ( {body} )"),
        };
        if call {
            let args = if self.draw(2) == 0 { "" } else { " a b" };
            let sep = self.sep("", oneline);
            format!("{def}{sep}{name}{args}")
        } else {
            def
        }
    }

    fn dbracket(&mut self, m: Mode) -> (String, Option<bool>) {
        let a = self.dq_word(m);
        let t = match self.draw(5) {
            0 => format!("[[ -n {a} ]]"),
            1 => format!("[[ {a} == a* ]]"),
            2 => {
                let b = self.word(Mode::Maybe);
                format!("[[ -z {a} || -n {b} ]]")
            }
            3 => format!("[[ {a} =~ ^(a|b)$ ]]"),
            _ => format!("[[ ! -e {a} ]]"),
        };
        (t, None)
    }

    fn arith_expr(&mut self, m: Mode) -> String {
        match self.draw(5) {
            0 => "1 + 2".into(),
            1 => {
                // Only a stand-in, which prints nothing: builtins could print text that
                // makes the expression invalid.
                let c = self.stream(|g| g.program_words(m).0);
                self.tag("cmdsub");
                format!("$({c}) 1")
            }
            2 => "n + 1".into(),
            3 => "$n * 2".into(),
            _ => "1 ? 2 : 3".into(),
        }
    }

    fn assignment_only(&mut self, m: Mode) -> (String, Option<bool>) {
        let n = 1 + self.pick_rec(&[4, 2]);
        let mut v = Vec::new();
        for _ in 0..n {
            v.push(self.assignment_word(m, true));
        }
        (v.join(" "), None)
    }

    fn runs_file(&mut self, m: Mode) -> (String, Option<bool>) {
        let k = self.draw(8);
        if k == 3 {
            self.tag("shell-c.sh");
        }
        // dash does not read bash syntax; an interactive shell in a pipeline may stop.
        let (words, _) = self.program_words(m.and(!matches!(k, 0 | 1 | 3)));
        let t = match k {
            0 => format!("bash --rcfile rc.sh -i -c {}", sq(&words)),
            1 => format!("bash --init-file rc.sh -ic {}", sq(&words)),
            2 => format!("BASH_ENV=rc.sh bash -c {}", sq(&words)),
            3 => format!("ENV=rc.sh sh -i -c {}", sq(&words)),
            4 => format!("source rc.sh; {words}"),
            5 => format!(". ./rc.sh; {words}"),
            6 => format!("bash rc.sh; {words}"),
            _ => format!("env BASH_ENV=rc.sh bash -c {}", sq(&words)),
        };
        self.tag("unsure");
        (t, None)
    }

    // -----------------------------------------------------------------------------------
    // Wrappers and shells.

    fn wrapped(&mut self, m: Mode) -> (String, Option<bool>) {
        let n = 1 + self.pick_rec(&[5, 3, 1]);
        let mut parts = Vec::new();
        let mut sure = true;
        let mut status_known = true;
        let mut seen_priv = false;
        let mut tags: Vec<&'static str> = Vec::new();
        for k in 0..n {
            let (mut text, s, known, mut tag, privileged) = self.wrapper();
            // Builtins wrap only as the first word (`nohup command x` looks for a
            // program named `command`).
            if k > 0 && (text.starts_with("exec") || text == "command") {
                text = "env".into();
                tag = "wrap.env";
            }
            // find -exec ends at the first `;`: one find per chain.
            if text.starts_with("find") && parts.iter().any(|p: &String| p.starts_with("find")) {
                text = "nohup".into();
                tag = "wrap.nohup";
            }
            if privileged && (k > 0) {
                tags.push("wrap.priv-chain");
            }
            if privileged {
                seen_priv = true;
            }
            if !privileged && seen_priv {
                tags.push("wrap.under-priv");
            }
            tags.push(tag);
            sure &= s;
            status_known &= known;
            parts.push(text);
        }
        for t in &tags {
            self.tags.push(t);
            self.all_tags.insert(t);
        }
        let inner_mode = m.and(sure);
        // xargs reads stdin itself and gives its command /dev/null.
        let reads_stdin = parts.iter().any(|p| p.starts_with("xargs"));
        // Under find -exec: a word `;` or `{} +` of the command ends it early, and quotes
        // and expansions can make one; the generator claims nothing there.
        let finds = parts.iter().any(|p| p.starts_with("find"));
        let inner_mode = inner_mode.and(!finds);
        self.in_find += finds as u32;
        let (last, ok) = if self.draw(5) == 0 {
            let inner_mode = inner_mode.and(!reads_stdin);
            let (t, st) = self.shell_c(inner_mode);
            (t, st)
        } else {
            let (w, ok) = self.program_words(inner_mode);
            (w, Some(ok))
        };
        self.in_find -= finds as u32;
        for _ in &tags {
            self.tags.pop();
        }
        let mut s = parts.join(" ");
        s.push(' ');
        s.push_str(&last);
        // Each find -exec needs its terminator.
        let finds = parts.iter().filter(|p| p.starts_with("find")).count();
        if finds > 0 {
            // `{} +` only where `{}` is not already an argument.
            let term = if s.contains("{}") {
                self.one(&[" \\;", " ';'", " \";\""])
            } else {
                self.one(&[" \\;", " ';'", " \";\"", " {} +"])
            };
            s.push_str(term);
        }
        let st = if status_known { ok } else { None };
        // `( exec ... )` only: exec ends the shell it runs in.
        if parts.iter().any(|p| p.starts_with("exec")) {
            return (format!("( {s} )"), st);
        }
        (s, st)
    }

    /// One wrapper: (text, the command surely runs, status passes through, tag, privileged).
    fn wrapper(&mut self) -> (String, bool, bool, &'static str, bool) {
        match self.pick(&[4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 2]) {
            0 => {
                let o = self.one(&[
                    "",
                    " --",
                    " -C /",
                    " --chdir=/tmp",
                    " -u HOME",
                    " x=1",
                    " -i PATH=/usr/local/bin",
                    " -C ..",
                ]);
                // In another directory, relative redirections of the command may fail.
                let moved = o.contains('C') || o.contains("chdir");
                (format!("env{o}"), !moved, !moved, "wrap.env", false)
            }
            1 => {
                let o = self.one(&[
                    "",
                    " -u root",
                    " -E",
                    " -n",
                    " --",
                    " x=1",
                    " -u root --",
                    " -Eu root",
                    " -H",
                ]);
                (format!("sudo{o}"), true, true, "wrap.sudo", true)
            }
            2 => {
                let o = self.one(&["", " -u root", " -n"]);
                (format!("doas{o}"), true, true, "wrap.doas", true)
            }
            3 => (
                format!(
                    "timeout {}",
                    self.one(&[
                        "5",
                        "-s KILL 5",
                        "-k 1 5",
                        "--foreground 5s",
                        "--kill-after=1 5",
                        "--preserve-status 5"
                    ])
                ),
                true,
                true,
                "wrap.timeout",
                false,
            ),
            4 => (
                format!(
                    "nice{}",
                    self.one(&["", " -n 5", " -5", " --adjustment=3", " -n5"])
                ),
                true,
                true,
                "wrap.nice",
                false,
            ),
            5 => ("nohup".into(), true, true, "wrap.nohup", false),
            6 if self.stdin_script == 0 => {
                let o = self.one(&["", " -n 1", " -0", " -L 1", " -P 2", " --"]);
                (format!("xargs{o}"), true, false, "wrap.xargs", false)
            }
            6 => ("nohup".into(), true, true, "wrap.nohup", false),
            7 => {
                let o = self.one(&["-exec", "-execdir", "-name '*' -exec", "-type d -exec"]);
                (
                    format!("find . -maxdepth 0 {o}"),
                    true,
                    false,
                    "wrap.find",
                    false,
                )
            }
            8 => ("command".into(), true, true, "wrap.command", false),
            9 => (
                format!("stdbuf {}", self.one(&["-oL", "-i0", "-e 0", "--output=L"])),
                true,
                true,
                "wrap.stdbuf",
                false,
            ),
            10 => (
                format!("setsid{}", self.one(&["", " -w", " -f"])),
                true,
                false,
                "wrap.setsid",
                false,
            ),
            11 => {
                // `exec -c`: an empty environment, so a wrapper below it finds real
                // programs on the default PATH.
                let o = self.one(&["", " -a foo", " -c", " -l"]);
                (
                    format!("exec{o}"),
                    o != " -c",
                    o != " -c",
                    "wrap.exec",
                    false,
                )
            }
            12 => ("taskset -c 0".into(), false, false, "wrap.taskset", false),
            13 => ("flock /tmp/l".into(), true, true, "wrap.flock", false),
            _ => {
                // A wrapper that may not run its command.
                let o = if self.stdin_script > 0 {
                    self.one(&["find . -maxdepth 0 -ok", "ionice -c 3"])
                } else {
                    self.one(&[
                        "xargs -r",
                        "xargs -I{}",
                        "find . -maxdepth 0 -ok",
                        "ionice -c 3",
                        "xargs -a /dev/null",
                    ])
                };
                (o.to_string(), false, false, "wrap.maybe", false)
            }
        }
    }

    /// `bash -c SCRIPT` and friends.
    fn shell_c(&mut self, m: Mode) -> (String, Option<bool>) {
        self.with("shell-c", |g| {
            let (shell, posix) = match g.pick(&[6, 2, 1, 1, 1, 1, 1, 1]) {
                0 => ("bash -c", false),
                1 => ("sh -c", true),
                2 => ("bash -lc", false),
                3 => ("bash --norc -e -o pipefail -c", false),
                4 => ("bash -c --", false),
                5 => ("bash -xc", false),
                6 => ("bash -s <<<", false),
                _ => ("bash --noprofile -c", false),
            };
            if posix {
                g.tag("shell-c.sh");
            }
            // dash does not read bash syntax; a login shell runs the profile first.
            // `-x` writes a trace that may go into a pipe nobody reads.
            let inner_mode = if posix
                || shell.contains("-lc")
                || shell.contains("-e ")
                || shell.contains("-x")
            {
                m.and(false)
            } else {
                m
            };
            let quoting = g.pick(&[5, 3, 2, 1]);
            let oneline = quoting == 3;
            let stdin = shell.contains("<<<");
            g.stdin_script += stdin as u32;
            let body = g.script_string(|g| g.script(inner_mode, oneline));
            g.stdin_script -= stdin as u32;
            let q = match quoting {
                0 => {
                    g.tag("shell-c.sq");
                    sq(&body)
                }
                1 => {
                    g.tag("shell-c.dq");
                    dq(&body)
                }
                2 => {
                    g.tag("shell-c.ansi");
                    ansi(&body)
                }
                _ => {
                    g.tag("shell-c.bare");
                    bare(&body)
                }
            };
            let extra = if shell.contains("<<<") {
                ""
            } else {
                g.one(&["", "", " arg0", " _ a b"])
            };
            (format!("{shell} {q}{extra}"), None)
        })
    }

    // -----------------------------------------------------------------------------------
    // Here-documents.

    fn heredoc_cmd(&mut self, m: Mode) -> (String, Option<bool>) {
        if self.in_sub > 0 {
            self.tag("heredoc.in-comsub");
            self.downgrade_all = true;
        }
        // What reads the document: a program (the body is data), or a shell (the body
        // is commands).
        let shell = self.draw(5) == 0;
        let mut s = if shell {
            self.tag("heredoc.shell");
            let sh = self.one(&["bash", "bash -s", "sh"]);
            if sh == "sh" {
                self.tag("shell-c.sh");
            }
            format!("{sh} ")
        } else {
            let (w, _) = self.program_words(m);
            format!("{w} ")
        };
        let n = 1 + self.pick_rec(&[6, 2, 1]);
        if n > 1 {
            self.tag("heredoc.several");
            if shell {
                self.tag("heredoc.shell-several");
            }
        }
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            // With several documents on one command only the last one is its input.
            let dash_shell = s.starts_with("sh ");
            let body_mode = if shell && i + 1 == n {
                Some(m.and(!dash_shell))
            } else {
                None
            };
            let r = self.heredoc(m, body_mode);
            s.push_str(&r);
        }
        // (More commands on the line after the operator come from `script`, which joins
        // lists with `;` and puts the bodies after its next newline.)
        (s, None)
    }

    /// One here-document operator; its body goes to the pending list of the stream.
    /// SHELL_BODY: the body is read by a shell in that mode (its lines are commands).
    fn heredoc(&mut self, m: Mode, shell_body: Option<Mode>) -> String {
        // Not the delimiter of a document this one is nested in (its line would end the
        // outer document too).
        let mut base = self.one(DELIMS).to_string();
        if self.delims.contains(&base) {
            base = DELIMS
                .iter()
                .find(|d| !self.delims.iter().any(|a| a == *d))
                .map(|d| d.to_string())
                .unwrap_or_else(|| format!("D{}", self.delims.len()));
        }
        self.delims.push(base.clone());
        let dash = self.draw(4) == 0;
        if dash {
            self.tag("heredoc.dash");
        }
        let (delim_text, quoted) = match self.pick(&[6, 2, 2, 1, 1, 1]) {
            0 => (base.clone(), false),
            1 => (format!("'{base}'"), true),
            2 => (format!("\"{base}\""), true),
            3 => (format!("\\{base}"), true),
            4 => {
                let (a, b) = base.split_at(1);
                (format!("{a}\"{b}\""), true)
            }
            _ => {
                let (a, b) = base.split_at(1);
                (format!("{a}''{b}"), true)
            }
        };
        if quoted {
            self.tag("heredoc.quoted");
        }
        let op = if dash { "<<-" } else { "<<" };
        let space = self.one(&["", " "]);
        // The body. A shell reading an unquoted body runs what the expansion left: data
        // and commands alike are `Maybe` there.
        let murky = shell_body.is_some() && !quoted;
        if murky {
            self.data_as_maybe += 1;
        }
        let stdin = shell_body.is_some();
        self.stdin_script += stdin as u32;
        let lines = 1 + self.pick_rec(&[3, 3, 2, 1]);
        let mut body = String::new();
        for _ in 0..lines {
            let tabs = if dash {
                self.one(&["", "\t", "\t\t"])
            } else {
                ""
            };
            let line = self.heredoc_line(quoted, shell_body, &base);
            body.push_str(tabs);
            body.push_str(&line);
            body.push('\n');
        }
        // The delimiter line.
        let tabs = if dash { self.one(&["", "\t"]) } else { "" };
        match self.pick(&[12, 1, 1, 1]) {
            0 => body.push_str(&format!("{tabs}{base}\n")),
            1 => {
                // Split by backslash-newline: bash joins the lines of an unquoted
                // body before it compares them with the delimiter.
                self.tag("heredoc.cont-delim");
                let (a, b) = base.split_at(1);
                body.push_str(&format!("{tabs}{a}\\\n{b}\n"));
                self.chaos = true;
                self.downgrade_all = true;
                let after = self.fake_line(m, shell_body, quoted);
                body.push_str(&after);
                body.push_str(&format!("{base}\n"));
            }
            2 => {
                // Not the delimiter: trailing blank, then the real one.
                self.tag("heredoc.near-delim");
                body.push_str(&format!("{base} \n"));
                let after = self.fake_line(m, shell_body, quoted);
                body.push_str(&after);
                body.push_str(&format!("{tabs}{base}\n"));
            }
            _ => {
                // A delimiter followed by a carriage return is not the delimiter.
                self.tag("cr");
                self.tag("heredoc.near-delim");
                body.push_str(&format!("{base}\r\n"));
                let after = self.fake_line(m, shell_body, quoted);
                body.push_str(&after);
                body.push_str(&format!("{tabs}{base}\n"));
            }
        }
        if murky {
            self.data_as_maybe -= 1;
        }
        self.stdin_script -= stdin as u32;
        self.delims.pop();
        self.streams.last_mut().unwrap().push(body);
        format!("{op}{space}{delim_text}")
    }

    /// A line between a near-delimiter and the delimiter: data, or commands when a shell
    /// reads the body.
    fn fake_line(&mut self, m: Mode, shell_body: Option<Mode>, quoted: bool) -> String {
        match shell_body {
            Some(sm) => {
                let (w, _) = self.program_words(sm.and(m == Mode::Must));
                format!("{w}\n")
            }
            None => {
                let f = self.fake_in_body(quoted);
                format!("{f}\n")
            }
        }
    }

    /// Data text for a here-document body: escaped where the body is expanded.
    fn fake_in_body(&mut self, quoted: bool) -> String {
        let f = self.fake();
        if quoted {
            f
        } else {
            escape_dq(&f)
        }
    }

    /// One line of a here-document body.
    fn heredoc_line(&mut self, quoted: bool, shell_body: Option<Mode>, delim: &str) -> String {
        if let Some(sm) = shell_body {
            // A command line for the shell reading the body.
            let (w, _) = self.program_words(if quoted { sm } else { Mode::Maybe });
            return w;
        }
        let expands = !quoted;
        let line = match self.pick(&[4, 3, 3, 2, 2, 2, 2, 2, 1]) {
            0 => self
                .one(&[
                    "text",
                    "a b c",
                    "'quoted'",
                    "\"dq\"",
                    "# not a comment",
                    ")",
                    "}",
                ])
                .to_string(),
            1 => self.fake_in_body(quoted),
            2 => {
                if expands {
                    // The body's backslash-newlines are joined inside the substitution
                    // too: what runs is not quite what was written.
                    self.tag("cmdsub");
                    self.data_as_maybe += 1;
                    let c = self.stream(|g| g.script(Mode::Maybe, true));
                    self.data_as_maybe -= 1;
                    format!("x {} y", dollar_paren(&c))
                } else {
                    self.fake_in_body(quoted)
                }
            }
            3 => {
                if expands {
                    // Backslashes in a body are processed before the backquotes see
                    // them: what runs is not quite what was written.
                    self.tag("backtick");
                    self.data_as_maybe += 1;
                    let c = self.stream(|g| g.script(Mode::Maybe, true));
                    self.data_as_maybe -= 1;
                    format!("`{}`", backtick_escape(&c))
                } else {
                    self.fake_in_body(quoted)
                }
            }
            4 => {
                // Backslash-newline inside the body.
                self.tag("heredoc.cont-body");
                let f = self.fake_in_body(quoted);
                format!("a \\\n{f}")
            }
            5 => {
                // `$\` newline `(...)`: joined into `$(...)` in an unquoted body.
                self.tag("heredoc.dollar-cont");
                let name = self.one(PROGRAMS);
                let id = self.id(if expands { Class::Maybe } else { Class::Data });
                format!("$\\\n({name} {id})")
            }
            6 => {
                if expands {
                    // Expansions in a body are read like double quotes, but not quite.
                    // bash reads some operands in a body differently and may fail the
                    // whole command: the generator claims nothing about such a line.
                    self.in_body += 1;
                    let pe = self.with("pexp", |g| g.param_exp(Mode::Maybe, true));
                    self.in_body -= 1;
                    self.tag("heredoc.pexp");
                    self.downgrade_all = true;
                    format!("v={pe}")
                } else {
                    self.fake_in_body(quoted)
                }
            }
            7 => {
                // A backslash before data (doubled where the body is expanded).
                let f = self.fake_in_body(quoted);
                if quoted {
                    format!("\\{f}")
                } else {
                    format!("\\\\{f}")
                }
            }
            _ => {
                // A line that starts like the delimiter.
                format!("{delim}x")
            }
        };
        // Never the delimiter itself.
        if line == delim {
            format!("{line}.")
        } else {
            line
        }
    }

    // -----------------------------------------------------------------------------------
    // Words.

    /// One shell word; commands in it run in mode M.
    fn word(&mut self, m: Mode) -> String {
        let parts = 1 + self.pick_rec(&[8, 3, 1]);
        let mut s = String::new();
        for _ in 0..parts {
            let p = self.word_part(m, s.is_empty());
            s.push_str(&p);
        }
        s
    }

    fn word_part(&mut self, m: Mode, first: bool) -> String {
        let w = [
            20, // plain
            6,  // single quotes
            8,  // double quotes
            3,  // $'...'
            3,  // backslash escape
            2,  // continuation
            5,  // $var
            8,  // ${...}
            6,  // $(...)
            3,  // backticks
            2,  // arithmetic
            3,  // brace expansion
            3,  // glob
            2,  // tilde
            2,  // process substitution
            2,  // # inside a word
            1,  // carriage return
            1,  // $"..."
        ];
        match self.pick_rec(&w) {
            0 => {
                let a = self.one(ARGS);
                // Under find -exec, `{}` is replaced and `{} +` would end the command.
                let a = if self.in_find > 0 && a == "{}" {
                    "a"
                } else {
                    a
                };
                a.replace(' ', "\\ ")
            }
            1 => self.with("sq", |g| {
                let inner = match g.draw(4) {
                    0 => g
                        .one(&["a b", "rm -rf /", "\"", "\\", "#", "a;b", "$s"])
                        .to_string(),
                    _ => g.fake(),
                };
                format!("'{}'", inner.replace('\'', ""))
            }),
            2 => self.dq_word(m),
            3 => self.with("ansi-c", |g| {
                let e = g.one(&[
                    "a\\nb", "\\x41", "\\101", "\\'", "\\\\", "\\e[0m", "\\u00e9", "\\t", "it\\'s",
                    "\\\"",
                ]);
                if g.draw(3) == 0 {
                    let f = g.fake();
                    format!("$'{}'", f.replace('\\', "\\\\").replace('\'', "\\'"))
                } else {
                    format!("$'{e}'")
                }
            }),
            4 => {
                let c = self.one(&[
                    "\\;", "\\|", "\\&", "\\$", "\\ ", "\\'", "\\\"", "\\#", "\\(", "\\`", "\\\\",
                    "\\a",
                ]);
                // Under find -exec a `;` word would end the command early.
                if c == "\\;" && self.in_find > 0 {
                    "\\|".into()
                } else {
                    c.to_string()
                }
            }
            5 => {
                self.tag("cont");
                if first {
                    "a\\\nb".into()
                } else {
                    "\\\nc".into()
                }
            }
            6 => {
                self.tag("var");
                self.one(&[
                    "$s", "$e", "$u", "$n", "${s}", "$1", "$#", "$?", "$$", "$x", "$g",
                ])
                .to_string()
            }
            7 => self.with("pexp", |g| g.param_exp(m, false)),
            8 => self.with("cmdsub", |g| g.cmdsub(m)),
            9 => self.with("backtick", |g| {
                let c = g.stream(|g| g.script(m, true));
                format!("`{}`", backtick_escape(&c))
            }),
            10 => self.with("arith", |g| {
                let e = g.arith_expr(m);
                if g.draw(4) == 0 {
                    format!("$[{e}]")
                } else {
                    format!("$(({e}))")
                }
            }),
            11 => self.with("brace", |g| match g.draw(5) {
                0 => "{a,b}".into(),
                1 => "x{1..3}".into(),
                2 => "{,-}y".into(),
                3 => {
                    let c = g.cmdsub(m);
                    format!("{{a,{c}}}")
                }
                _ => "{a,b".into(),
            }),
            12 => {
                self.tag("glob");
                self.one(&["*.c", "?.c", "[ab].c", "*", "*.none", "[!a]*"])
                    .to_string()
            }
            13 => {
                self.tag("tilde");
                if first {
                    self.one(&["~", "~/x", "~root/x", "~+"]).to_string()
                } else {
                    "~".into()
                }
            }
            14 if first => self.with("procsub", |g| {
                let body = g.stream(|g| g.script(m, true));
                let op = g.one(&["<(", ">("]);
                format!("{op}{}", &dollar_paren(&body)[2..])
            }),
            14 | 15 => {
                self.tag("hash-in-word");
                if first {
                    "a#b".into()
                } else {
                    "#c".into()
                }
            }
            16 => {
                self.tag("cr");
                "a\rb".into()
            }
            _ => {
                self.tag("locale-dq");
                let c = self.dq_content(m);
                format!("$\"{c}\"")
            }
        }
    }

    /// Backquotes inside double quotes or an operand: quotes and backslashes in them are
    /// processed once more in ways the generator does not model, so what is in them is
    /// `Maybe`.
    fn murky_backtick(&mut self) -> String {
        self.data_as_maybe += 1;
        let c = self.stream(|g| g.script(Mode::Maybe, true));
        self.data_as_maybe -= 1;
        format!("`{}`", backtick_escape(&c))
    }

    /// `$(...)`, sometimes with a comment or odd spacing.
    fn cmdsub(&mut self, m: Mode) -> String {
        self.tag("cmdsub");
        match self.pick(&[10, 2, 2, 1]) {
            0 => {
                let c = self.stream(|g| g.script(m, false));
                let c = if c.starts_with('(') {
                    format!(" {c}")
                } else {
                    c
                };
                dollar_paren(&c)
            }
            1 if !self.has_pending() => self.with("comment.cmdsub", |g| {
                // A comment inside `$(`: runs to the end of its line, `)` included.
                let f = g.fake();
                let c = g.stream(|g| g.script(m, true));
                format!("$( # {f} )\n{c}\n)")
            }),
            2 => {
                let c = self.stream(|g| g.script(m, true));
                format!("$( {c} )")
            }
            _ => {
                let c = self.stream(|g| g.script(m, true));
                format!("\"{}\"", dollar_paren(&c))
            }
        }
    }

    /// A double-quoted word.
    fn dq_word(&mut self, m: Mode) -> String {
        self.with("dq", |g| {
            let c = g.dq_content(m);
            format!("\"{c}\"")
        })
    }

    /// The inside of double quotes.
    fn dq_content(&mut self, m: Mode) -> String {
        let n = 1 + self.pick_rec(&[5, 3, 1]);
        let mut s = String::new();
        for _ in 0..n {
            let p = match self.pick_rec(&[8, 3, 4, 3, 2, 2, 2, 2, 1]) {
                0 => self
                    .one(&[
                        "a", "b c", "'", "#", "x y", ";", "|", "&&", "{a,b}", "*.c", "~",
                    ])
                    .to_string(),
                1 => self
                    .one(&["$s", "${e}", "$u", "$n", "$@", "$*"])
                    .to_string(),
                2 => self.with("cmdsub", |g| {
                    let c = g.stream(|g| g.script(m, true));
                    dollar_paren(&c)
                }),
                3 => self.with("pexp", |g| g.param_exp(m, true)),
                4 => self.with("backtick", |g| g.murky_backtick()),
                5 => {
                    // Escaped: data.
                    let f = self.fake();
                    escape_dq(&f)
                }
                6 => self
                    .one(&["\\\"", "\\\\", "\\$", "\\`", "\\a", "\\\n"])
                    .to_string(),
                7 => "$((1+2))".into(),
                _ => {
                    self.tag("cr");
                    "\r".into()
                }
            };
            s.push_str(&p);
        }
        s
    }

    /// `${v...}` with an operator; IN_DQ: inside double quotes.
    fn param_exp(&mut self, m: Mode, in_dq: bool) -> String {
        if in_dq {
            self.tag("pexp.dq");
        }
        let var = self.one(&["s", "e", "u", "n", "p", "x"]);
        let set = matches!(var, "s" | "e" | "n" | "p");
        let nonempty = matches!(var, "s" | "n" | "p");
        let known = var != "x";
        // (operator, the operand is expanded, tag)
        let ops: &[(&str, Option<bool>, &'static str)] = &[
            ("", None, "pexp.plain"),
            (":-", Some(!nonempty), "pexp.default"),
            ("-", Some(!set), "pexp.default"),
            (":+", Some(nonempty), "pexp.alt"),
            ("+", Some(set), "pexp.alt"),
            (":=", Some(!nonempty), "pexp.assign"),
            ("=", Some(!set), "pexp.assign"),
            (":?", Some(!nonempty), "pexp.error"),
            ("?", Some(!set), "pexp.error"),
            ("#", Some(nonempty), "pexp.pattern"),
            ("##", Some(nonempty), "pexp.pattern"),
            ("%", Some(nonempty), "pexp.pattern"),
            ("%%", Some(nonempty), "pexp.pattern"),
            ("/", Some(nonempty), "pexp.replace"),
            ("//", Some(nonempty), "pexp.replace"),
            ("/#", Some(nonempty), "pexp.replace"),
            ("/%", Some(nonempty), "pexp.replace"),
            ("^", Some(nonempty), "pexp.case"),
            ("^^", Some(nonempty), "pexp.case"),
            (",", Some(nonempty), "pexp.case"),
            (",,", Some(nonempty), "pexp.case"),
            ("@Q", None, "pexp.transform"),
            ("@E", None, "pexp.transform"),
            ("@A", None, "pexp.transform"),
            ("@U", None, "pexp.transform"),
            ("@a", None, "pexp.transform"),
            (":", Some(set), "pexp.substring"),
            ("#len", None, "pexp.length"),
        ];
        let k = self.draw(ops.len() as u32) as usize;
        let (op, expands, tag) = ops[k];
        // `${u?}` stops the shell before the command it is in runs: only on `s`.
        let (var, expands) = if op.contains('?') {
            ("s", Some(false))
        } else {
            (var, expands)
        };
        let known = known || op.contains('?');
        // bash fails on `${v:$(...)}` in a here-document body, and stops the command.
        let (op, expands) = if op == ":" && self.in_body > 0 {
            (":-", Some(!nonempty))
        } else {
            (op, expands)
        };
        self.tag(tag);
        match op {
            "" => format!("${{{var}}}"),
            "#len" => format!("${{#{var}}}"),
            "@Q" | "@E" | "@A" | "@U" | "@a" => format!("${{{var}{op}}}"),
            _ => {
                let expands = expands.unwrap_or(false);
                let inner_mode = if expands && known { m } else { Mode::Maybe };
                let operand = self.pexp_operand(inner_mode, in_dq, op);
                if op.starts_with(':') && op.len() == 1 {
                    // Substring: arithmetic offsets.
                    return format!("${{{var}:{operand}}}");
                }
                if op.starts_with('/') && self.draw(2) == 0 {
                    let rep = self.pexp_operand(Mode::Maybe, in_dq, op);
                    return format!("${{{var}{op}{operand}/{rep}}}");
                }
                format!("${{{var}{op}{operand}}}")
            }
        }
    }

    /// The operand of `${v OP operand}`: quoting nests here in ways the reading may get
    /// wrong (inside double quotes, single quotes are ordinary characters for `:-` and
    /// friends, and quote characters for pattern operators).
    fn pexp_operand(&mut self, m: Mode, in_dq: bool, op: &str) -> String {
        let substring = op == ":";
        // A substring offset is one arithmetic expression: one part.
        let n = if substring {
            1
        } else {
            1 + self.pick_rec(&[4, 2, 1])
        };
        let mut s = String::new();
        for _ in 0..n {
            let p = if substring {
                match self.draw(3) {
                    0 => "1".to_string(),
                    1 => {
                        let c = self.stream(|g| g.program_words(m).0);
                        self.tag("cmdsub");
                        format!("$({c}) 1")
                    }
                    _ => "1:1".into(),
                }
            } else {
                match self.pick_rec(&[5, 4, 3, 3, 2, 2, 1]) {
                    0 => self
                        .one(&["w", "a b", "-", "*", "#", "x y z"])
                        .replace(' ', if in_dq { " " } else { "\\ " }),
                    1 => self.with("cmdsub", |g| {
                        let c = g.stream(|g| g.script(m, true));
                        dollar_paren(&c)
                    }),
                    2 => {
                        // Single quotes around a substitution.
                        let tag = if in_dq { "pexp.dq-sq" } else { "pexp.sq" };
                        self.with(tag, |g| {
                            let name = g.one(PROGRAMS);
                            let literal_quotes = in_dq
                                && matches!(op, ":-" | "-" | ":+" | "+" | ":=" | "=" | ":?" | "?");
                            let id = if literal_quotes {
                                // bash: the quotes are characters, the substitution runs.
                                g.mode_id(m)
                            } else if in_dq {
                                g.id(Class::Maybe)
                            } else {
                                g.id(Class::Data)
                            };
                            if g.draw(2) == 0 {
                                format!("'$({name} {id})'")
                            } else {
                                format!("'`{name} {id}`'")
                            }
                        })
                    }
                    3 => self.with("dq", |g| {
                        let c = g.dq_content(m);
                        format!("\"{c}\"")
                    }),
                    4 => self.with("backtick", |g| g.murky_backtick()),
                    5 => self.with("pexp.nested", |g| g.param_exp(m, in_dq)),
                    _ => {
                        let c = self.one(&["\\}", "\\'", "\\\"", "}", "'x'"]);
                        if c == "}" {
                            // Ends the expansion early: what follows is not an operand,
                            // and its quotes pair up differently.
                            self.tag("unsure");
                            self.downgrade_all = true;
                        }
                        if c == "\\'" && in_dq {
                            self.tag("unsure");
                        }
                        c.to_string()
                    }
                }
            };
            s.push_str(&p);
        }
        s
    }
}

// ---------------------------------------------------------------------------------------
// Quoting a script for a shell word.

/// 'single quoted'.
pub fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// TEXT ends with a `;` that ends a command (not `\;`, find's terminator).
fn ends_semi(text: &str) -> bool {
    text.ends_with(';') && !text.ends_with("\\;")
}

/// TEXT ends with the `&` of a background job (not `\&`).
fn ends_bg(text: &str) -> bool {
    text.ends_with('&') && !text.ends_with("\\&")
}

/// `$(C)`, with a blank when C starts with `(` (`$((` is arithmetic).
fn dollar_paren(c: &str) -> String {
    if c.starts_with('(') {
        format!("$( {c})")
    } else {
        format!("$({c})")
    }
}

/// "double quoted".
fn dq(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '\\' | '"' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// $'ANSI-C quoted'.
fn ansi(s: &str) -> String {
    let mut out = String::from("$'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Every special character backslash-escaped (a newline single-quoted).
fn bare(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c == '\n' {
            out.push_str("'\n'");
        } else if c.is_ascii_alphanumeric() || "_-./=,+:@%".contains(c) {
            out.push(c);
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    if out.is_empty() {
        "''".into()
    } else {
        out
    }
}

/// Text of a script put between backticks: `\`, `` ` `` and `$` escaped as bash wants.
fn backtick_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c == '\\' || c == '`' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text made data inside double quotes or an unquoted here-document: `$`, `` ` `` and
/// `\` escaped, `"` dropped.
fn escape_dq(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => {}
            '$' | '`' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}
