//! Command lines -> simple commands.
//!
//! A command line is read the way bash reads it and broken into the simple commands it
//! would run: across `;` `&&` `||` `|` `&` and newlines, inside subshells, groups, `if`,
//! `for`, `while`, `until`, `case`, function bodies, `$(...)`, backticks, `<(...)`,
//! arithmetic and here-documents, and inside the strings given to `sh -c` and friends.
//! Each simple command is then normalized: leading assignments are dropped, wrappers such
//! as `env`, `sudo`, `timeout` or `xargs` are looked through, quotes are removed and
//! `/bin/rm` becomes `rm`. Whatever cannot be read statically is marked opaque, and an
//! opaque command never counts as allowed.
//!
//! Parser choice. We use `brush-parser`, the parser of the brush shell: it is pure Rust
//! (no C toolchain), maintained, has a synchronous API, covers bash syntax (`[[ ]]`,
//! arrays, `$(...)`, backticks, process substitution, here-documents, functions, `case`,
//! `coproc`) and returns a parse error instead of silently recovering. `yash-syntax`
//! parses POSIX sh only (it rejects `[[`) behind an async API; `tree-sitter-bash` needs a C
//! build and recovers from errors by inserting `ERROR` nodes, which a security check would
//! have to re-detect; `conch-parser` is unmaintained. brush-parser can overflow the stack on
//! very deep nesting and contains `unwrap`s, so a parse is bounded first (length, counted
//! nesting), lines longer than a few hundred bytes run on a thread of their own with a
//! large stack, and a panic anywhere makes the line opaque. A line in the certain
//! subset (see `certain`) is read without brush-parser, exactly; it is the only kind of
//! line an allow rule may allow. `tests/shell.rs` checks that brush-parser's reading of
//! such lines agrees, and `tests/bash_oracle.rs` checks the reading against real bash.
//!
//! Known limits: programs that interpret their own arguments as code (`awk`, `python -c`,
//! `git -c alias...`, `ssh host CMD`, `rsync -e`, `parallel`) are single commands here;
//! only the wrappers listed in `wrap/` are looked through; globs and expansions in
//! arguments are kept as written (`rm $opts /` is not `rm -rf /`); `xargs` appends
//! arguments we cannot see. Arithmetic on variables, `declare -i`, array subscripts and
//! the like are opaque, since bash evaluates variable values there as code.

// The files: `walk` (brush-parser's syntax tree), `expand` (words and what nests in
// them), `certain` (the certain subset, read exactly), `guess` (commands guessed where a parse
// fails), `scan` (raw second looks), `guard` (bounds and the parser thread), `word`
// (word helpers), `wrap/` (wrappers, privileged commands, builtins), `programs` (what
// programs do with their options: directories, links followed, names from data),
// `values` (the values a line gives its variables, for deny-side path rules).
mod assigned;
mod certain;
mod expand;
mod generous;
mod guard;
mod guess;
mod looks;
mod programs;
mod put_certain;
mod scan;
pub(crate) mod shells;
mod state;
mod unsure;
pub(crate) mod values;
mod walk;
mod word;
mod wrap;

pub use generous::{widen, Generous, Widening, MAX_GENEROUS_BYTES};
pub use looks::{scripts, second_looks, substitution_regions, Looks, Scripts, Spent};
pub use programs::{
    chdir_options, follows_links, inert_config, lookup, names_from_data, read, read_code,
    read_whole, table, Effect, Given, Kind, Opt as ProgramOpt, Part, Program, Reading, Role, Run,
    Style, Value, Verified, BASH_BUILTINS, INERT_CONFIG, LESS_HOME, MERGE_STRATEGIES,
};
pub(crate) use programs::{git_subcommand, quiet_patterns, unknown_revision};
pub(crate) use shells::shell_named;
pub use unsure::Unsure;
pub use values::value_words;

/// The variables LINE, a line in the certain subset, expands with a value it gave them
/// plainly (`d=build; rm -rf "$d"`: see `certain::Plain`), as (name, value); none when
/// the line is not in the subset. (Here, not in `values`: `certain` reads values.)
pub(crate) fn plain_values(line: &str) -> Vec<(String, String)> {
    certain::read(line).map(|l| l.values).unwrap_or_default()
}

/// Whether NAME, set in a command's environment, can change which programs run or
/// load code into them (`PATH`, `LD_*`, `BASH_ENV`, `PAGER`, ...).
pub fn is_dangerous_env(name: &str) -> bool {
    word::is_dangerous_var(name)
}

/// Whether NAME may be set in a command's environment with its reading still
/// certain: an environment variable known to be inert, or a lower-case shell name.
pub fn is_assignable_env(name: &str) -> bool {
    word::is_assignable(name)
}

/// Mark LINE opaque for WHY, unless it is already.
pub fn note_opaque(line: &mut CommandLine, why: &str) {
    if line.opaque.is_none() {
        line.opaque = Some(why.to_string());
    }
}

/// One simple command after normalization.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// What runs: the innermost command's words, unquoted, with leading
    /// assignments and wrappers removed and `argv[0]` reduced to its basename.
    pub argv: Vec<String>,
    /// The words as written (unquoted, assignments removed), wrappers included:
    /// `sudo -u x rm f`, `bash -c 'rm f'`, `find . -exec rm {} ;`.
    /// Equal to `argv` when nothing was looked through (except that `argv[0]` is
    /// a basename: `/bin/rm f` has `argv` `rm f` and `written` `/bin/rm f`).
    pub written: Vec<String>,
    /// Looked through a wrapper that changes privileges (`sudo`, `doas`, ...).
    pub privileged: bool,
    /// Why this command cannot be read statically, if so.
    pub opaque: Option<String>,
    /// Every form of the command a rule may name, outermost first: the words as
    /// written, then the command at each wrapper looked through, its name reduced to
    /// a basename (`nohup /usr/bin/sudo rm x` has `nohup /usr/bin/sudo rm x`,
    /// `nohup sudo rm x`, `sudo rm x` and `rm x`). A deny rule matches any of them.
    pub forms: Vec<Vec<String>>,
    /// The form that starts at the first privilege wrapper (`sudo rm x`), when
    /// `privileged`: the only form an allow rule may cover.
    pub privileged_form: Option<usize>,
    /// A form an allow rule may cover besides the words that run, when not
    /// `privileged`: the program without global options that change nothing a rule is
    /// about (`git --no-pager log` is `git log`; see `wrap::options`).
    pub inert_form: Option<usize>,
    /// The words read as paths: the program's arguments, and the words of the
    /// wrappers before it that look like paths (`env -C /etc`, `flock /tmp/lock`),
    /// but never a wrapper's name or its other options (`nice -n 19`, `timeout 5`).
    pub paths: Vec<String>,
    /// The redirection targets of this command and of the compound commands around
    /// it (not those of a command it is substituted into).
    pub redirects: Vec<String>,
    /// What the program table knows of the program that runs (`argv[0]`).
    pub program: Known,
    /// Its generous reading, for deny-side rules only, when the table does not know
    /// its program to run nothing (see [`widen`]).
    pub generous: Option<Generous>,
    /// The variables given right before it (`NAME=VALUE`) where its program takes any
    /// variable ([`word::takes_any_environment`]: it runs the project's code, which may
    /// run a value as a command: make's recipes run `$(PY)` of `PY=rm make test`): their
    /// values are read generously for deny rules, as shell strings (make's as its
    /// command line's variables are: `make_code`).
    pub env_values: Vec<String>,
    /// The words of `paths` the program table says it walks or writes whole (any file
    /// below them may be opened: `grep -r x ~`, `find`, `rg x` in its directory, `rm
    /// -r`) or reads the names of files from (`file -f list`), with that role.
    pub roles: Vec<(Role, String)>,
    /// Why it reads what symbolic links in the trees it walks lead to, if it does
    /// (`grep -R x .`, `find . -exec cat {} +`): what it opens then depends on the
    /// links there, which the words do not show. The engine looks at those trees; the
    /// command is certain only while they hold no link (`prepare::links`).
    pub follows: Option<String>,
    /// Where it runs, for the directory it runs in: known for the commands of the
    /// line's own text (not of a string it gives a shell, a substitution or a guess).
    pub place: Option<Place>,
    /// Its glob words that are data to the program however many names bash makes of
    /// them (`echo .*`): not in `paths`; a name one makes that starts with `-` still
    /// makes the command uncertain (an option to the program).
    pub data_globs: Vec<String>,
    /// Its name is a value only the running shell knows: an expansion (`$x`,
    /// `cat${IFS}`, `$(cmd)`), or a glob or brace pattern (`{cat,.env}`, `r[m]`).
    pub named_at_run_time: bool,
    /// It is a `find` whose output an `xargs` splits again at blanks, quotes and
    /// backslashes (`find . -name '*.rs' | xargs grep x`, read as `find ... -exec grep x
    /// {} +`): certain only while no name below the trees it walks holds one
    /// (`prepare::split_names`).
    pub names_split: bool,
}

/// Where a simple command of a line's own text runs, as far as the directory goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Place {
    /// The subshells `( ... )` around it, outermost first, numbered from 1 in the line.
    pub subshells: Vec<usize>,
    /// The simple command that ran right before it in the same shell, when the reading
    /// knows which: it runs where that one left the shell.
    pub after: Option<After>,
}

/// A simple command another runs right after, in the same shell (see [`Place::after`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct After {
    /// Its index in `commands`.
    pub command: usize,
    /// Whether it surely succeeded: the one before in a list joined by `&&` from its
    /// start (`cd d && rm x`), the last of an `if` condition before its `then` body
    /// (`if cd d; then rm x; fi`), one whose failure exits the shell (`cd d || exit; rm
    /// x`). Else it only ran (`a; b`), and a failed `cd` left the shell where it was.
    pub succeeded: bool,
}

/// Whether WORDS (None: a word whose value only the running shell knows) are `exit`
/// with a number or none: bash ends the shell (`exit --help` prints help and goes on).
pub(crate) fn exits(words: &[Option<&str>]) -> bool {
    let number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    match words {
        [Some("exit")] => true,
        [Some("exit"), Some(n)] => number(n),
        _ => false,
    }
}

/// Whether WORDS, a simple command with no assignment and no here-document, cannot
/// throw away the rest of the line bash runs (as an expansion error or an assignment to
/// a readonly variable does, bash then going on with the next line): `echo`, `printf`
/// (not `-v`), `:`, `true` or `false`, with no expansion in any word.
pub(crate) fn quiet(words: &[&str]) -> bool {
    let name = words.first().copied().unwrap_or_default();
    matches!(name, "echo" | "printf" | ":" | "true" | "false")
        && words.iter().all(|w| !w.contains(['$', '`']))
        && !(name == "printf" && words.iter().any(|w| w.starts_with("-v")))
}

impl After {
    /// Command K, which surely succeeded.
    pub fn succeeded(k: usize) -> After {
        After {
            command: k,
            succeeded: true,
        }
    }

    /// Command K, which ran and may have failed.
    pub fn ran(k: usize) -> After {
        After {
            command: k,
            succeeded: false,
        }
    }
}

/// What the program table knows of a simple command's program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Known {
    /// Not in the table (or not read through it): only an allow rule that names the
    /// program allows it, and every word is a path candidate.
    #[default]
    Unknown,
    /// In the table, and every option and operand read: `paths` holds the words in
    /// path roles only.
    Known,
    /// In the table, but an option or subcommand is not: the line is not certain, and
    /// every word is a path candidate.
    UnknownOption,
    /// In the table and every word read, but what it does is the project's own code (a
    /// Makefile's recipes, git's hooks and configuration, a package's scripts): `paths`
    /// holds the words in path roles, and only an allow rule that names the program
    /// allows it.
    Named,
}

impl Known {
    /// Only an allow rule that names the program allows the command.
    pub fn needs_naming(self) -> bool {
        matches!(self, Known::Unknown | Known::Named)
    }
}

impl SimpleCommand {
    /// The form an allow rule must cover: the privileged form when run through a
    /// privilege wrapper, else the words that run.
    pub fn allow_form(&self) -> usize {
        match (self.privileged, self.privileged_form) {
            (true, Some(i)) => i,
            (true, None) => 0,
            (false, _) => self.forms.len().saturating_sub(1),
        }
    }

    /// The other form an allow rule may cover (see [`SimpleCommand::inert_form`]).
    pub fn inert_allow_form(&self) -> Option<usize> {
        self.inert_form.filter(|_| !self.privileged)
    }
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommandLine {
    /// Every simple command, nested ones included, in the order the shell starts
    /// them: the commands hidden in a command's words come before the command.
    pub commands: Vec<SimpleCommand>,
    /// Redirection targets, unquoted; a target with expansions is kept as written.
    pub redirects: Vec<String>,
    /// The redirection targets of a certain reading that no redirection of the line
    /// writes (`wc -l < /etc/passwd`): only read. Empty for other readings.
    pub inputs: Vec<String>,
    /// Why the line as a whole cannot be read, if so.
    pub opaque: Option<String>,
    /// Why the reading is not certain, if so: the line (or a line nested in it) has a
    /// construct outside the certain subset, or the reading reached a bound. A line
    /// whose reading is not certain is never allowed; deny rules still see it.
    pub uncertain: Option<String>,
    /// Why some simple commands were not kept, if a bound was reached: every deny-side
    /// command rule then matches the line.
    pub truncated: Option<String>,
    /// Why a word was left unexpanded at a bound (brace expansion past [`BRACE_LIMIT`]
    /// words): a generous reading is then truncated (helper-92: `prlimit bash -c
    /// '{,a}{,a}…rm -rf x'` ran `rm` no deny rule saw).
    ///
    /// [`BRACE_LIMIT`]: state::BRACE_LIMIT
    pub unexpanded: Option<String>,
    /// The commands that may run more than once, by index in `commands`, with how many
    /// times: in the body or the condition of a loop, or in a function (a `cd` there
    /// may go on and on).
    pub repeated: Vec<(usize, Runs)>,
    /// Whether commands of the line may run at the same time, so that a later one may
    /// act first: a command started in the background (`&`) or a pipeline of two or
    /// more. Set too when the line could not be parsed.
    pub concurrent: bool,
    /// Why every match in this line is unsure, when the line is a generous reading (a
    /// quoted operand of a program the table does not know, read as a shell string).
    pub unsure: Option<Unsure>,
    /// Some of its commands are read from a string a shell runs (`sh -c`, `bash -c`,
    /// sed's `e`, make's `$(shell)`), which may be dash: their globs are read as dash's
    /// too (`[^` is no negation there: `.en[^v]` is `.env`).
    pub dash_globs: bool,
    /// For a line read generously (`unsure`): whether its text, or a line it is read
    /// from, may make its globs match names that start with `.` (see
    /// [`generous::may_glob_dots`]).
    pub dot_globs: bool,
}

/// How many times a command may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Runs {
    #[default]
    Once,
    /// At most this many times (a `for` loop over a list of plain words).
    AtMost(usize),
    /// Any number of times (`while`, `until`, a function, a list only bash expands).
    Any,
}

impl Runs {
    /// A command run SELF times by each of N runs of what is around it.
    pub fn times(self, n: Runs) -> Runs {
        let count = |r: Runs| match r {
            Runs::Once => Some(1),
            Runs::AtMost(k) => Some(k),
            Runs::Any => None,
        };
        match count(self)
            .zip(count(n))
            .and_then(|(a, b)| a.checked_mul(b))
        {
            Some(1) => Runs::Once,
            Some(k) => Runs::AtMost(k),
            None => Runs::Any,
        }
    }
}

impl CommandLine {
    /// True when neither the line nor any simple command is opaque.
    pub fn is_static(&self) -> bool {
        self.opaque.is_none() && self.commands.iter().all(|c| c.opaque.is_none())
    }

    /// True when the reading is certain and static: what an allow rule may allow.
    pub fn is_certain(&self) -> bool {
        self.uncertain.is_none() && self.is_static()
    }

    /// Whether the line's globs may match names that start with `.` (as under bash's
    /// `dotglob`): where its shell's options are not known (the reading is not certain,
    /// or not static). A line read generously is text a program the table does not
    /// know may give some shell, whose reading is rarely certain (`print(2 * 3)`):
    /// there only where [`CommandLine::dot_globs`] says so.
    pub fn may_glob_dots(&self) -> bool {
        match self.unsure {
            Some(_) => self.dot_globs,
            None => !self.is_certain(),
        }
    }
}

/// How many times a command line may nest inside another (`$(...)`, `sh -c`, `eval`,
/// parameter expansion operands) before the line is opaque.
pub const MAX_DEPTH: usize = 8;

/// Parse LINE as a shell would.
pub fn parse(line: &str) -> CommandLine {
    if let Some(head) = too_long(line) {
        return head;
    }
    let owned = line.to_owned();
    match on_parser(line.len(), move || walk::parse_line(&owned)) {
        Ok(parsed) => parsed,
        Err(why) => guessed(line.to_owned(), why),
    }
}

/// What rules see of LINE: its reading (for every rule), and the readings of its
/// second looks (for deny, ask and stop rules only), taken when the reading is not
/// certain: the substitutions and here-documents of the line as bash reads them, and,
/// when the line runs a shell, its here-documents and here-strings read as scripts.
pub fn read_for_rules(line: &str) -> (CommandLine, Vec<CommandLine>) {
    if let Some(head) = too_long(line) {
        return (head, Vec::new());
    }
    scan::with_scans(|| read_for_rules_in(line))
}

/// When LINE is longer than [`guard::MAX_LINE`], its reading: the commands guessed
/// from its first [`guard::MAX_LINE`] bytes (for deny rules), truncated, so never
/// allowed. Reading costs tens of nanoseconds a byte on every look at the line;
/// the bound keeps a decision within its time.
fn too_long(line: &str) -> Option<CommandLine> {
    if line.len() <= guard::MAX_LINE {
        return None;
    }
    let mut end = guard::MAX_LINE;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let why = format!(
        "longer than {} bytes (only its first {} are guessed at)",
        guard::MAX_LINE,
        guard::MAX_LINE
    );
    let mut out = guessed(line[..end].to_owned(), why.clone());
    out.uncertain.get_or_insert_with(|| why.clone());
    out.truncated.get_or_insert(why);
    Some(out)
}

/// Run F for a text of LEN bytes where brush-parser may run (see [`guard::run`]), with
/// the scans of long texts kept while it runs.
fn on_parser<T, F>(len: usize, f: F) -> Result<T, String>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    guard::run(len, move || scan::with_scans(f))
}

/// [`read_for_rules`], in one scope of kept scans.
fn read_for_rules_in(line: &str) -> (CommandLine, Vec<CommandLine>) {
    let mut main = parse(line);
    // A shell may read any here-document or here-string of its line as its script
    // (`bash /dev/stdin <<E`, `{ bash; } <<E`, `exec <<E` then `bash`): not certain.
    let feeds = line.contains("<<")
        || main
            .commands
            .iter()
            .any(|c| c.written.iter().any(|w| w.contains("<<")));
    let shell = feeds && main.commands.iter().any(runs_scripts);
    if main.uncertain.is_none() {
        // A certain reading is exact: it needs no second look.
        if !shell || !shell_may_be_fed(line) {
            return (main, Vec::new());
        }
        main.uncertain = Some(
            "a here-document or here-string on a line that runs a shell, which may read it".into(),
        );
    }
    let looks = second_looks(line, &main);
    if let Some(why) = looks.cut {
        main.truncated.get_or_insert(why);
    }
    // One thread and one budget for them all. Each script is no longer than the line.
    let Looks {
        texts,
        mut groups,
        whole,
        strings,
        spent,
        ..
    } = looks;
    let len = texts.iter().map(String::len).sum::<usize>() + if feeds { line.len() } else { 0 };
    let batch = texts.clone();
    let source = feeds.then(|| line.to_owned());
    let first = groups.last().map_or(0, |g| g + 1);
    let read = on_parser(len, move || {
        let feeding = source.map(|line| (line, strings, spent, first));
        read_looks(batch, feeding, shell)
    });
    let mut second = match read {
        Ok((second, scripts)) => {
            if let Some(s) = scripts {
                groups.extend(s.groups);
                if let Some(why) = s.cut {
                    main.truncated.get_or_insert(why);
                }
            }
            second
        }
        Err(why) => {
            // The scripts are not read: fail closed.
            if shell {
                main.truncated.get_or_insert(why);
            }
            texts.iter().map(|t| parse(t)).collect()
        }
    };
    // Of the ends a substitution may have, bash reads the one its parser closes it with:
    // where one of them parses, those the parser cannot even split into words are the
    // wrong ends, not texts bash runs.
    let read: std::collections::HashSet<usize> = groups
        .iter()
        .zip(&second)
        .filter(|(_, l)| !unreadable(l))
        .map(|(g, _)| *g)
        .collect();
    for (g, l) in groups.iter().zip(second.iter_mut()) {
        if read.contains(g) && unreadable(l) {
            *l = CommandLine::default();
        }
    }
    // A line brush-parser could not split into words (a here-document in a
    // substitution) whose here-document view it reads whole: the view is its reading.
    let view_read = whole
        .and_then(|k| second.get(k))
        .is_some_and(|v| v.truncated.is_none());
    if unreadable(&main) && view_read {
        main.truncated = None;
    }
    (main, second)
}

/// Whether a shell of LINE, a line in the certain subset that runs one, may read one of
/// its here-documents or here-strings: one runs outside the `$(...)` and `<(...)` that
/// hold no `<<` (which bash runs with its own standard input: `grep x <<< "$(bash -c
/// ls)"` feeds bash nothing).
fn shell_may_be_fed(line: &str) -> bool {
    scan::without_unfed_substitutions(line)
        .is_none_or(|outside| parse(&outside).commands.iter().any(runs_scripts))
}

/// What a line's scripts are made from: the line, the strings its commands give to
/// `-c`-style options, what its second looks spent of their bounds, and the first group
/// free for them (see [`scripts`]).
type Feeding = (String, Vec<String>, Spent, usize);

/// Read TEXTS, the second looks at a line, in one budget; then, when the line feeds
/// text to commands (FEEDING) and runs a shell (SHELL, or a command of TEXTS), its
/// scripts, which are returned too.
fn read_looks(
    mut texts: Vec<String>,
    feeding: Option<Feeding>,
    shell: bool,
) -> (Vec<CommandLine>, Option<Scripts>) {
    let Some((line, strings, spent, first)) = feeding else {
        return (walk::parse_lines(&texts), None);
    };
    let scripts_of = |texts: &[String]| scripts(&line, &strings, texts, spent, first);
    if shell {
        let mut s = scripts_of(&texts);
        texts.append(&mut s.texts);
        return (walk::parse_lines(&texts), Some(s));
    }
    // As `walk::parse_lines` does, deciding on the scripts on the way.
    let mut budget = state::Budget::default();
    let mut read = |text: &String| {
        let mut cx = state::Cx::new(walk::parse_into);
        cx.parse_budget = budget;
        walk::parse_into(&mut cx, &state::Frame::default(), text);
        budget = cx.parse_budget;
        cx.out
    };
    let mut out: Vec<CommandLine> = texts.iter().map(&mut read).collect();
    if !out.iter().any(|l| l.commands.iter().any(runs_scripts)) {
        return (out, None);
    }
    let s = scripts_of(&texts);
    out.extend(s.texts.iter().map(read));
    (out, Some(s))
}

/// Programs besides shells (see [`shells`]) that may read their standard input (or a
/// file given on it) as a script: `source`, and programs that start a shell (`su`,
/// `script`, `at`...).
const SCRIPT_READERS: &[&str] = &["source", ".", "su", "runuser", "script", "at", "batch"];

/// Programs that start a shell when given no command (`sudo -s`, `chroot DIR`).
const SHELL_WITHOUT_COMMAND: &[&str] = &["sudo", "doas", "chroot", "busybox", "toybox"];

/// Whether the program NAME, not in the program table, is one the reading knows by
/// itself, so that its words are read for certain: bash's builtins and shells that run
/// a file (`source FILE`, `bash FILE`), the wrappers that start a shell or edit a file
/// (`sudo -e FILE`, `sudoedit FILE`), and the names [`generous::runs_nothing`] keeps.
pub fn reads_itself(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    SCRIPT_READERS.contains(&base)
        || SHELL_WITHOUT_COMMAND.contains(&base)
        || matches!(base, "sudoedit" | "pkexec")
        || shells::shell_named(base).is_some()
        || generous::runs_nothing(base)
}

/// Whether C may read a script its line feeds it: what runs after its wrappers (`nice
/// bash /dev/stdin`, `bash -c bash`) is a shell (or a version of one: `bash5.2`,
/// `zsh-5.9`), `source`, a program that starts one, or a name the reading cannot know
/// (`$sh`, `b?sh`). A shell given `-c STR` reads STR: its commands are looked at instead.
fn runs_scripts(c: &SimpleCommand) -> bool {
    let Some(name) = c.argv.first() else {
        return false;
    };
    let base = word::basename(name);
    let dynamic = name.contains(['$', '`', '*', '?']) || (name.contains('[') && name.contains(']'));
    dynamic
        || shells::shell_named(base).is_some()
        || SCRIPT_READERS.contains(&base)
        || SHELL_WITHOUT_COMMAND.contains(&base)
}

/// Whether LINE could not be split into words: truncated by a tokenizer error.
fn unreadable(line: &CommandLine) -> bool {
    line.truncated
        .as_deref()
        .is_some_and(|why| why.starts_with(state::TOKENIZE_ERROR))
}

/// Parse LINE as [`parse`] does, but with brush-parser even when the line is
/// in the certain subset (no shortcut): for tests that check the two readings agree.
#[doc(hidden)]
pub fn parse_slow(line: &str) -> CommandLine {
    let owned = line.to_owned();
    match on_parser(line.len(), move || walk::parse_line_slow(&owned)) {
        Ok(parsed) => parsed,
        Err(why) => guessed(line.to_owned(), why),
    }
}

/// Judge a command given as a list of words (an argv: no shell syntax is applied to the
/// words themselves, but `bash -c STR` and the like are parsed).
pub fn from_argv(argv: &[String]) -> CommandLine {
    let owned = argv.to_vec();
    let len = argv.iter().map(|w| w.len() + 1).sum();
    match on_parser(len, move || walk::from_argv(&owned)) {
        Ok(parsed) => parsed,
        Err(why) => guessed(argv.join(" "), why),
    }
}

/// When parsing failed badly (WHY), an opaque line with the commands guessed from the
/// raw text of LINE without brush-parser, so that deny rules still see them.
fn guessed(line: String, why: String) -> CommandLine {
    let len = line.len();
    let mut out = on_parser(len, move || walk::guess_line(&line)).unwrap_or_default();
    out.opaque = Some(why);
    out.concurrent = true;
    out
}
