//! The deny side's generous reading of what the table does not know (DESIGN.md, "What
//! programs do with their words"): the words of a program not known to run nothing are
//! also read as commands (each suffix that starts at a non-option word: `strace -f rm
//! -rf x` holds `rm -rf x`), its quoted operands as shell strings, and each word split at
//! `=` `@` `<` `:` `;` as path candidates (`curl -F x=@FILE`). None of it is ever read by
//! an allow rule, and every match it gives is unsure ([`Unsure`]).
//!
//! The reading is bounded by [`MAX_GENEROUS_BYTES`] per command argument: the suffixes of
//! a command of N words hold N²/2 words, so a long line fails closed instead (truncated:
//! every deny-side rule matches it, as for any other bound).

use super::unsure::Unsure;
use super::word::basename;
use super::{CommandLine, SimpleCommand};

/// Most bytes the generous reading of one command argument may make (suffix forms, path
/// pieces and shell strings read, nested ones included); past it the line is truncated.
pub const MAX_GENEROUS_BYTES: usize = 1 << 20;

/// Most pieces of one option word read as paths glued to it (see `generous_of`).
const MAX_GLUED_PIECES: usize = 8;

/// How deep quoted operands are read as shell strings inside one another.
const MAX_GENEROUS_DEPTH: usize = 3;

/// The generous reading of one simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generous {
    /// Why its matches are unsure.
    pub why: Unsure,
    /// Each suffix of its words that starts at a non-option word, its first word
    /// reduced to a basename: more forms for deny-side command rules.
    pub forms: Vec<Vec<String>>,
    /// The pieces of its words split at `=` `@` `<` `:` `;`: more path words for
    /// deny-side path rules.
    pub paths: Vec<String>,
}

/// What the generous reading of one command argument may still spend, and how deep it
/// is (see [`widen`]).
#[derive(Debug, Clone)]
pub struct Widening {
    left: usize,
    depth: usize,
    /// Whether the line being widened may make globs match `.` names: the strings
    /// read from it may too (an exported `BASHOPTS` reaches the shell a program starts).
    dots: bool,
}

impl Default for Widening {
    fn default() -> Widening {
        Widening {
            left: MAX_GENEROUS_BYTES,
            depth: 0,
            dots: false,
        }
    }
}

impl Widening {
    /// Whether N more bytes may be made; if not, none may any more.
    fn take(&mut self, n: usize) -> bool {
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                true
            }
            None => {
                self.left = 0;
                false
            }
        }
    }
}

/// Names that stay known to run nothing though the program table has no entry for
/// them: `[[` (a word of bash's own syntax, never a program) and `alias` (a builtin
/// whose words are names and text; the alias it defines is read where it is used);
/// `bash`, `sh` and `dash` reach here only without a command to run (the `wrap` reader
/// reads `-c` strings and the shells' own words), as a script they read is the
/// project's, read as their `-c` would be read.
const STILL_LISTED: &[&str] = &["[[", "alias", "bash", "dash", "sh"];

/// Whether the program NAME is known to run nothing and to open only its own words:
/// the program table says so ([`crate::shell::Program::runs_nothing`]), or it is one of
/// [`STILL_LISTED`].
pub fn runs_nothing(name: &str) -> bool {
    STILL_LISTED.contains(&name) || super::lookup(name).is_some_and(|p| p.runs_nothing())
}

/// Whether the known command ARGV runs code of its program's own language that the
/// table's reader does not read whole (`python -c`, `sqlite3 DB SQL`, an awk program
/// that calls `system`, a make value a recipe runs): the deny side reads its words
/// generously too, its code as shell strings. Code read whole (`jq '.[] | .a * 2'`,
/// `awk '{print $4 * 2}'`) is read by its reader only.
fn runs_code(argv: &[String]) -> bool {
    let Some(p) = argv.first().and_then(|n| super::lookup(n)) else {
        return false;
    };
    super::read(p, argv.get(1..).unwrap_or(&[]))
        .runs
        .iter()
        .any(|r| matches!(r, super::Run::Code(text) if !super::read_whole(p.name(), text)))
}

/// The strings the code the command ARGV runs may give a shell, as its language's
/// reader finds them (an awk program's strings, when it calls `system` or pipes); for
/// code no reader reads (`python -c`, `node -e`), its string literals, each and all of
/// them joined (helper-87: `os.system("rm -rf x")`, `subprocess.run(["cat", ".env"])`:
/// the code as a whole does not parse as a shell line).
fn code_strings(argv: &[String]) -> Vec<String> {
    let Some(p) = argv.first().and_then(|n| super::lookup(n)) else {
        return Vec::new();
    };
    super::read(p, argv.get(1..).unwrap_or(&[]))
        .runs
        .iter()
        .flat_map(|r| match r {
            super::Run::Code(text) => match super::read_code(p.name(), text) {
                Some(c) => c.maybe,
                None => {
                    let mut all = literals(text);
                    if all.len() > 1 {
                        all.push(all.join(" "));
                    }
                    all
                }
            },
            _ => Vec::new(),
        })
        .collect()
}

/// The strings C's code may run (see [`code_strings`]), and the values of the variables
/// given right before it ([`SimpleCommand::env_values`]): make reads those as the
/// variables of its command line (its built-in rules build commands of several: `CC=env
/// CFLAGS=-Srm make x.o`); another program's code may run each as a command.
fn env_strings(c: &SimpleCommand) -> Vec<String> {
    if c.env_values.is_empty() {
        return code_strings(&c.argv);
    }
    if c.argv
        .first()
        .and_then(|n| super::lookup(n))
        .is_some_and(|p| p.name() == "make")
    {
        let mut argv = c.argv.clone();
        argv.extend(c.env_values.iter().cloned());
        return code_strings(&argv);
    }
    let mut out = code_strings(&c.argv);
    out.extend(
        c.env_values
            .iter()
            .filter_map(|a| a.split_once('=').map(|(_, v)| v.to_string())),
    );
    out
}

/// The string literals of TEXT, code in a language the table has no reader for: what
/// lies between two `'`, `"` or `` ` `` (a backslash keeps the character after it).
fn literals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if !matches!(c, '\'' | '"' | '`') {
            continue;
        }
        let mut s = String::new();
        while let Some(d) = chars.next() {
            match d {
                '\\' => s.extend(chars.next()),
                d if d == c => break,
                d => s.push(d),
            }
        }
        if !s.trim().is_empty() {
            out.push(s);
        }
    }
    out
}

/// Why the command C is read generously, if it is: the program table did not read all
/// its words, and its program is not known to run nothing. A command a shell whose
/// reading is not checked runs (`zsh -c 'rm $PWD:h'`) is read generously whatever its
/// program.
fn unknown(c: &SimpleCommand) -> Option<Unsure> {
    let other_shell = c.forms.iter().find_map(|f| {
        let named = super::shell_named(basename(f.first()?))?;
        (!named.checked).then(|| Unsure::OtherShell(named.kind.to_string()))
    });
    if other_shell.is_some() {
        return other_shell;
    }
    let name = c.argv.first()?;
    let base = basename(name);
    // The table read every word of it, and its nested commands are commands already;
    // the code it runs is not read.
    // (Nor the values given to it that the project's code may run: `PY=rm make test`.)
    if matches!(c.program, super::Known::Known | super::Known::Named) {
        return (runs_code(&c.argv) || !c.env_values.is_empty())
            .then(|| Unsure::UnknownProgram(base.to_string()));
    }
    if runs_nothing(base) {
        return None;
    }
    Some(Unsure::UnknownProgram(base.to_string()))
}

/// Most suffixes of one command's words read as commands of their own.
const MAX_SUFFIX_READINGS: usize = 4;

/// Read the commands of LINE generously for deny rules: each command whose program is
/// not known to run nothing gets its [`Generous`] reading, and its quoted operands are
/// read as shell strings, whose lines (read generously too, each marked unsure) are
/// returned. Past the bound of WIDENING, LINE is truncated.
pub fn widen(line: &mut CommandLine, widening: &mut Widening) -> Vec<CommandLine> {
    if widening.depth == 0 {
        widening.dots = line.may_glob_dots();
    }
    let mut strings: Vec<Text> = Vec::new();
    let mut over = false;
    // A shell among an unknown program's words whose reading is not checked (zsh's
    // `=rm` is `/usr/bin/rm`: helper-95): its strings are read as bash's, not certain.
    let mut other_shell_inside: Option<String> = None;
    // Each suffix of an unknown program's words that starts at a program the table
    // knows, read as a command of its own (helper-97: `prlimit sed 1r.env a.txt` opens
    // `.env`, `prlimit tar -xf x.tar --to-command=rm` runs `rm`).
    let mut suffixes: Vec<(Vec<String>, Unsure)> = Vec::new();
    for c in &mut line.commands {
        let Some(why) = unknown(c) else {
            continue;
        };
        if !matches!(c.program, super::Known::Known | super::Known::Named) {
            let string = |w: &String| w.starts_with('-') && !w.starts_with("--") && w.contains('c');
            for at in 1..c.argv.len() {
                let w = &c.argv[at];
                // (Not `bash -c STR NAME`'s NAME, the string's `$0`.)
                let zeroth = at >= 2 && string(&c.argv[at - 2]);
                if !w.starts_with('-') && !zeroth && super::lookup(basename(w)).is_some() {
                    suffixes.push((c.argv[at..].to_vec(), why.clone()));
                    // (Each is a whole reading: the first few, as its forms bound the
                    // rest; a wrapper's command is read through the table.)
                    if suffixes.len() >= MAX_SUFFIX_READINGS {
                        break;
                    }
                }
            }
        }
        if other_shell_inside.is_none() {
            other_shell_inside = c.argv.iter().skip(1).find_map(|w| {
                let named = super::shell_named(basename(w))?;
                (!named.checked).then(|| {
                    format!("`{w}` may run its strings, and its syntax is not read as it reads it")
                })
            });
        }
        match generous_of(&c.argv, widening) {
            Some((generous, mut texts)) => {
                texts.extend(env_strings(c));
                c.generous = Some(Generous {
                    why: why.clone(),
                    ..generous
                });
                // Where its options move it (`make -C ..`, `env -C ..`), its strings run
                // there too (helper-74: `make -C .. x.o 'CC=cat .ssh/id_rsa #'`).
                let mut moved = String::new();
                for form in &c.forms {
                    for d in super::chdir_options(form) {
                        moved.push_str(&format!("cd '{}' && ", d.replace('\'', "'\\''")));
                    }
                }
                // Its own words may set the options its strings run under (helper-89:
                // `uv run bash -O dot\glob -c 'cat *'`, whose text has no `dotglob`).
                let dots = names_dot_options(&c.argv.join(" "));
                let fold = names_case_options(&c.argv.join(" "));
                let stdin = stdin_shell(&c.argv);
                // (The script is no word: the shell's name stands for it.)
                if let Some((at, _)) = &stdin {
                    texts.push(c.argv[*at].clone());
                }
                let stdin = stdin.map(|(_, why)| why);
                let given_strings = shell_strings(&c.argv);
                for own in texts.drain(..) {
                    let given = given_strings.contains(&own);
                    // zsh's and bash's alternatives (`(.|)env`, `@(.e|.x)nv`): see
                    // [`alternatives`] (helper-89, helper-91).
                    for (t, starred) in alternatives(&own, fold) {
                        let whole = t == own;
                        if !moved.is_empty() {
                            strings.push(Text {
                                text: format!("{moved}{t}"),
                                why: why.clone(),
                                dots: dots || starred,
                                stdin: stdin.clone(),
                                own: whole,
                                given,
                            });
                        }
                        strings.push(Text {
                            text: t,
                            why: why.clone(),
                            dots: dots || starred,
                            stdin: stdin.clone(),
                            own: whole,
                            given,
                        });
                    }
                }
            }
            None => {
                over = true;
                break;
            }
        }
    }
    let mut out = Vec::new();
    let mut unsure_inside: Option<String> = other_shell_inside;
    if !over && widening.depth < MAX_GENEROUS_DEPTH {
        widening.depth += 1;
        for (argv, why) in suffixes {
            if !widening.take(argv.iter().map(|w| w.len() + 1).sum()) {
                over = true;
                break;
            }
            let mut read = super::from_argv(&argv);
            read.unsure = Some(why);
            read.dash_globs = true;
            read.dot_globs = widening.dots || read.may_glob_dots();
            out.push(read);
        }
        for t in strings {
            let why = read_string(t, widening, &mut out);
            unsure_inside = unsure_inside.or(why);
            if widening.left == 0 {
                over = true;
                break;
            }
        }
        widening.depth -= 1;
    }
    if let Some(why) = unsure_inside {
        line.uncertain.get_or_insert(why);
    }
    if over {
        let why = format!(
            "its generous reading (programs the table does not know) makes more than {} bytes",
            MAX_GENEROUS_BYTES
        );
        line.uncertain.get_or_insert_with(|| why.clone());
        line.truncated.get_or_insert(why);
    }
    out
}

/// A text of a command's words read generously as a shell string.
struct Text {
    text: String,
    why: Unsure,
    /// Whether its globs match names that start with `.`.
    dots: bool,
    /// Why every deny-side rule counts, where a shell may read its script from its
    /// standard input.
    stdin: Option<String>,
    /// It is the operand's own text, not a reading of its glob groups.
    own: bool,
    /// A shell among the words is given it by `-c`.
    given: bool,
}

/// Read T generously into OUT (its readings, and those of its own strings): why the
/// command it is a word of is not certain, if a shell is given it and its reading is
/// not certain.
fn read_string(t: Text, widening: &mut Widening, out: &mut Vec<CommandLine>) -> Option<String> {
    // Read as a line of the call's own is: with the second looks a shell reading a
    // here-string as its script takes (helper-95: `bash /dev/stdin <<<"cat .env"`,
    // `exec 3<<<…; sh /dev/fd/3`).
    let (mut read, seconds) = super::read_for_rules(&t.text);
    read.unsure = Some(t.why.clone());
    // A program may give it to `/bin/sh`: dash's globs.
    read.dash_globs = true;
    read.dot_globs = widening.dots || t.dots || may_glob_dots(&t.text, &read);
    // A string that is not a whole shell line (`-m "don't"`) is no bound reached: its
    // guessed commands are all the generous reading needs. But a word left unexpanded
    // at a bound may be any command or path; so may a command named by a value only
    // the string's shell knows (helper-94: `cat${IFS}.env`, `r${x}m`, `{cat,.env}`,
    // `x=rm; $x ...`; helper-96: `/usr/bin/r[m]`, `cd /bin && r[m]`), and a script a
    // shell reads from its standard input (`prlimit bash <<< 'cat .env'`).
    // (Not where bash stops at a syntax error: a string that is no shell line.)
    let whole = t.own
        && !read
            .opaque
            .as_deref()
            .is_some_and(|o| o.starts_with(super::state::PARSE_ERROR));
    read.truncated = read
        .unexpanded
        .clone()
        .or_else(|| whole.then(|| named_at_run_time(&read)).flatten())
        .or(t.stdin);
    // A string the reading cannot split is still read as words (guessed).
    let outer = std::mem::replace(&mut widening.dots, read.dot_globs);
    let more = widen(&mut read, widening);
    widening.dots = outer;
    // A string a shell is given whose reading is not certain (a line of the call's own
    // would not be allowed: `source /dev/stdin`, `xargs head`, `hash -p`,
    // `BASH_CMDS[x]=/bin/rm`) leaves the command it is a word of uncertain too: not
    // allowed, whatever rule names its program (helper-95, helper-96).
    let unsure = (whole && t.given)
        .then(|| {
            let opaque = read.commands.iter().find_map(|c| c.opaque.clone());
            read.uncertain.clone().or(opaque)
        })
        .flatten()
        .map(|w| format!("a string its program may give a shell is not read for certain: {w}"));
    for mut second in seconds {
        second.unsure = Some(t.why.clone());
        second.dash_globs = true;
        second.dot_globs = read.dot_globs;
        out.push(second);
    }
    out.push(read);
    out.extend(more);
    unsure
}

/// Why a command of READ (a string read generously) is named by a value only its
/// shell knows, if one is: an expansion, a glob or a brace (helper-95: a glob of the
/// directory it runs in may name a program too, after a `cd` or through `*/`). (Not a
/// name that is a command's output alone, `$(cmd)`: its commands are read, what it
/// prints is not, as anywhere: see "Not covered".)
fn named_at_run_time(read: &CommandLine) -> Option<String> {
    let output = |n: &str| {
        (n.starts_with("$(") && n.ends_with(')'))
            || (n.len() > 1 && n.starts_with('`') && n.ends_with('`'))
    };
    read.commands
        .iter()
        .filter(|c| c.named_at_run_time)
        .filter_map(|c| c.argv.first())
        .find(|n| !output(n))
        .map(|n| format!("`{n}` names a command only the running shell knows"))
}

/// The words of ARGV a shell among them is given by `-c` (`prlimit bash -c STR`,
/// `docker exec c sh -c STR`): shell lines for sure, where the others may be data.
fn shell_strings(argv: &[String]) -> Vec<String> {
    let string = |w: &String| w.starts_with('-') && !w.starts_with("--") && w.contains('c');
    let mut out = Vec::new();
    let mut shell = false;
    for (k, w) in argv.iter().enumerate().skip(1) {
        if super::shell_named(basename(w)).is_some() {
            shell = true;
        } else if shell && string(w) {
            out.extend(argv.get(k + 1).cloned());
        }
    }
    out
}

/// Where and why ARGV, a command the table does not know, may give a shell a script on
/// its standard input, if it may: a word after its own names a shell and no option after
/// that gives it a string (`prlimit bash`, `taskset -c 0 sh -s`, the `sh` of `prlimit
/// bash -c sh` (helper-95); not `prlimit bash -c STR`, read as a string).
fn stdin_shell(argv: &[String]) -> Option<(usize, String)> {
    let string = |w: &String| w.starts_with('-') && !w.starts_with("--") && w.contains('c');
    let given = |at: usize| argv.iter().skip(at + 1).any(string);
    // (`bash -c STR bash`: the last is the string's `$0`, a name.)
    let zeroth = |at: usize| at >= 2 && string(&argv[at - 2]);
    let at = (1..argv.len()).find(|&at| {
        super::shell_named(basename(&argv[at])).is_some() && !given(at) && !zeroth(at)
    })?;
    Some((
        at,
        format!("`{}` may read a script from its standard input", argv[at]),
    ))
}

/// Whether the globs of TEXT, a string some shell may run (READ: its reading), may
/// match names that start with `.`: no shell's do by default (bash, dash, zsh, ksh,
/// fish, busybox), only where an option or variable says so, which TEXT would name
/// (bash's `dotglob`, `GLOBIGNORE` and `BASHOPTS`, zsh's `GLOB_DOTS`, ksh's `FIGNORE`,
/// `BASH_ENV`, in any case, with or without `_` or `-`: zsh's `--glob-dots`) or set through a command that changes
/// options or runs text the reading does not see (`shopt`, `setopt`, `set`,
/// `emulate`, `.`, `source`, `eval`, or a command named by an expansion).
pub fn may_glob_dots(text: &str, read: &CommandLine) -> bool {
    let named = names_dot_options(text);
    // (A command the reading could not parse is opaque, and sets nothing: a shell runs
    // no line it cannot parse.)
    named
        || read.commands.iter().any(|c| {
            c.argv.first().is_none_or(|n| {
                n.contains('$')
                    || matches!(
                        basename(n),
                        "shopt" | "setopt" | "set" | "emulate" | "." | "source" | "eval"
                    )
            })
        })
}

/// Whether TEXT names an option or variable that makes globs match names starting
/// with `.` (see [`may_glob_dots`]), in any case, with or without `_` or `-`.
fn names_dot_options(text: &str) -> bool {
    let folded = folded_options(text);
    [
        "dotglob",
        "globdots",
        "globignore",
        "bashopts",
        "fignore",
        "bashenv",
    ]
    .iter()
    .any(|w| folded.contains(w))
}

/// Whether TEXT names an option that makes globs match in any case (bash's
/// `nocaseglob`, `nocasematch`; zsh's `NO_CASE_GLOB`, `unsetopt CASE_GLOB`), in any
/// case, with or without `_` or `-`.
fn names_case_options(text: &str) -> bool {
    let folded = folded_options(text);
    folded.contains("caseglob") || folded.contains("casematch")
}

/// TEXT as shells spell an option's name in any way they accept: in lower case, without
/// `_`, `-` or `\` (zsh's `NO_DOT_GLOB`, `globDots`; `dot\glob` in a string).
fn folded_options(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '_' | '-' | '\\'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Most texts [`alternatives`] writes out of one.
const MAX_ALTERNATIVES: usize = 16;

/// TEXT, and the texts a reading of its globs needs besides (each with whether its
/// globs match names starting with `.`): where it holds a glob group (zsh's `(.|)env`,
/// `((.e))nv`, bash's extglob `@(.e|.x)nv`, `+(.)env`, `!(x)`; one an extglob character
/// stands before, or a word's character touches: a subshell `(cd x | y)` is none), the
/// text with each outermost group as `*` matching dot names too, and each group's
/// alternatives written out, [`MAX_ALTERNATIVES`] at most; with FOLD (its program's
/// words or the text make globs match in any case), each in lower case too.
pub(crate) fn alternatives(text: &str, fold: bool) -> Vec<(String, bool)> {
    let mut out = vec![(text.to_string(), false)];
    if let Some(starred) = starred(text) {
        out.push((starred, true));
        let mut k = 0;
        while k < out.len() && out.len() < MAX_ALTERNATIVES {
            for t in expand_group(&out[k].0) {
                if !out.iter().any(|(x, _)| *x == t) {
                    out.push((t, false));
                }
            }
            k += 1;
        }
        out.truncate(MAX_ALTERNATIVES);
    }
    if fold || names_case_options(text) {
        let lower: Vec<(String, bool)> = out
            .iter()
            .map(|(t, d)| (t.to_lowercase(), *d))
            .filter(|x| !out.contains(x))
            .collect();
        out.extend(lower);
    }
    out
}

/// The glob groups of TEXT (see [`alternatives`]): where each starts (its extglob
/// character, or its `(`), its `(`, its `)`, and the `|` at its depth; the outermost
/// ones, in order. One pass (a long string of parentheses is read in linear time).
fn groups(text: &str) -> Vec<(usize, usize, usize, Vec<usize>)> {
    let b = text.as_bytes();
    let word = |c: u8| !c.is_ascii_whitespace() && !b";&|()<>$`=".contains(&c);
    // Every balanced pair, with the `|` directly inside it.
    let mut open: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut pairs: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    for (k, c) in b.iter().enumerate() {
        match c {
            b'(' => open.push((k, Vec::new())),
            b'|' => {
                if let Some((_, bars)) = open.last_mut() {
                    bars.push(k);
                }
            }
            b')' => {
                if let Some((o, bars)) = open.pop() {
                    pairs.push((o, k, bars));
                }
            }
            _ => {}
        }
    }
    pairs.sort_unstable_by_key(|p| p.0);
    let mut out = Vec::new();
    let mut end = 0;
    for (open, close, bars) in pairs {
        if open < end && !out.is_empty() {
            continue;
        }
        let before = open.checked_sub(1).and_then(|k| b.get(k).copied());
        let ext = before.is_some_and(|c| b"@!?+*".contains(&c));
        let touches = before.is_some_and(word) || b.get(close + 1).copied().is_some_and(word);
        if ext || touches {
            out.push((open - usize::from(ext), open, close, bars));
            end = close + 1;
        }
    }
    out
}

/// TEXT with each outermost glob group as `*`, if it has one.
fn starred(text: &str) -> Option<String> {
    let groups = groups(text);
    if groups.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut at = 0;
    for (start, _, close, _) in groups {
        out.push_str(&text[at..start]);
        out.push('*');
        at = close + 1;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// TEXT with its first glob group that has alternatives written out, one text per
/// alternative (`?(..)`, `*(..)` also without it; `+(..)`, `*(..)` also as `*`; `!(..)`
/// as `*` alone); none where it has no such group.
fn expand_group(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let Some((start, open, close, bars)) = groups(text).into_iter().next() else {
        return Vec::new();
    };
    let ext = (start < open).then(|| b[start]);
    let head = &text[..start];
    let tail = &text[close + 1..];
    let mut alts = Vec::new();
    let mut from = open + 1;
    for &bar in bars.iter().chain(std::iter::once(&close)) {
        alts.push(&text[from..bar]);
        from = bar + 1;
    }
    match ext {
        Some(b'!') => vec![format!("{head}*{tail}")],
        _ => {
            let mut out: Vec<String> = alts.iter().map(|a| format!("{head}{a}{tail}")).collect();
            if matches!(ext, Some(b'?' | b'*')) {
                out.push(format!("{head}{tail}"));
            }
            if matches!(ext, Some(b'+' | b'*')) {
                out.push(format!("{head}*{tail}"));
            }
            out
        }
    }
}

/// The paths an option word W may have glued to it (`-include.env`, `-I../x`,
/// `-Lsecrets/x`, `-Wl,~/x`): after a single-dash option's letter, and the rest from
/// each `.` or `~` on, and from a `/` that follows the option's name (a few).
fn glued(w: &str) -> Vec<&str> {
    let Some(rest) = w.strip_prefix('-') else {
        return Vec::new();
    };
    let mut out: Vec<&str> = Vec::new();
    if !rest.starts_with('-') {
        out.extend(w.get(2..).filter(|v| !v.is_empty()));
    }
    let name_end = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .map_or(w.len(), |k| k + 1);
    for (k, c) in w.char_indices().skip(1) {
        let starts = matches!(c, '.' | '~') || (c == '/' && k == name_end);
        if starts && !out.contains(&&w[k..]) {
            out.push(&w[k..]);
        }
    }
    out.truncate(MAX_GLUED_PIECES);
    out
}

/// The generous reading of ARGV (its `why` to be set) and the texts of its words to read
/// as shell strings; None past the bound of WIDENING.
fn generous_of(argv: &[String], widening: &mut Widening) -> Option<(Generous, Vec<String>)> {
    // The bytes of each suffix, from the end: counted before any is made.
    let mut suffix_bytes = vec![0usize; argv.len() + 1];
    for i in (0..argv.len()).rev() {
        suffix_bytes[i] = suffix_bytes[i + 1] + argv[i].len() + 1;
    }
    let starts: Vec<usize> = (1..argv.len())
        .filter(|&i| !argv[i].starts_with('-') && !argv[i].is_empty())
        .collect();
    let cost: usize = starts.iter().map(|&i| suffix_bytes[i]).sum();
    if !widening.take(cost) {
        return None;
    }
    let forms = starts
        .iter()
        .map(|&i| {
            let mut form = argv[i..].to_vec();
            form[0] = basename(&form[0]).to_string();
            form
        })
        .collect();
    let mut paths = Vec::new();
    let mut texts = Vec::new();
    for w in argv.iter().skip(1) {
        let pieces: Vec<&str> = w
            .split(['=', '@', '<', ':', ';'])
            .filter(|p| !p.is_empty() && *p != w)
            .collect();
        let mut pieces = pieces;
        for g in glued(w) {
            if !pieces.contains(&g) {
                pieces.push(g);
            }
        }
        if !widening.take(pieces.iter().map(|p| p.len()).sum()) {
            return None;
        }
        paths.extend(pieces.iter().map(|p| p.to_string()));
        // A word with a blank or a shell operator was quoted: a string a program may
        // give a shell (`ssh host 'rm -rf x'`, `parallel 'rm {}'`); `--cmd='rm x'` too.
        let text = match w.split_once('=') {
            Some((opt, value)) if opt.starts_with('-') => value,
            _ => w.as_str(),
        };
        if text.contains([' ', '\t', '\n', ';', '|', '&', '<', '>', '(', '`', '$']) {
            if !widening.take(text.len()) {
                return None;
            }
            texts.push(text.to_string());
        }
        // A program and its words joined by commas (gcc's `-wrapper sh,-c,CMD`, `-Wl,`
        // lists): read as a line of those words too.
        if w.contains(',') {
            if !widening.take(w.len()) {
                return None;
            }
            texts.push(w.replace(',', " "));
        }
    }
    let generous = Generous {
        why: Unsure::UnknownProgram(String::new()),
        forms,
        paths,
    };
    Some((generous, texts))
}

#[cfg(test)]
mod tests {
    #[test]
    fn alternations_are_written_out() {
        let texts = |t: &str| -> Vec<String> {
            alternatives(t, false).into_iter().map(|(t, _)| t).collect()
        };
        assert_eq!(
            texts("cat (.|)env"),
            ["cat (.|)env", "cat *env", "cat .env", "cat env"]
        );
        assert_eq!(
            texts("cat @(.e|.x)nv"),
            ["cat @(.e|.x)nv", "cat *nv", "cat .env", "cat .xnv"]
        );
        assert_eq!(texts("ls !(x|y).c"), ["ls !(x|y).c", "ls *.c"]);
        // Groups of one, nested, or many: the group as `*`, matching dot names.
        for t in [
            "cat +(.)env",
            "cat @(@(.e)|x)nv",
            "cat ((.e))nv",
            "cat ~/@(.ssh)/id_rsa",
        ] {
            let all = alternatives(t, false);
            assert!(
                all.iter().any(|(t, dots)| *dots && t.contains('*')),
                "{t}: {all:?}"
            );
        }
        let many = format!("cat @({}|.e)nv", ["a"; 19].join("|"));
        assert!(alternatives(&many, false).contains(&("cat *nv".to_string(), true)));
        // Any case, where the words say so.
        assert!(texts("cat .EN?").len() == 1);
        assert!(alternatives("cat .EN?", true).contains(&("cat .en?".to_string(), false)));
        assert!(texts("setopt nocaseglob; cat .EN?")
            .contains(&"setopt nocaseglob; cat .en?".to_string()));
        // A subshell, a substitution, a process substitution are no group.
        for t in ["(cd x | y)", "a (x|y) b", "cat $(ls | x)", "diff <(a|b) c"] {
            assert_eq!(texts(t), [t], "{t}");
        }
        // Bounded.
        assert!(alternatives(&"x(a|b|c)".repeat(10), false).len() <= MAX_ALTERNATIVES);
    }

    use super::{alternatives, literals, MAX_ALTERNATIVES};

    #[test]
    fn literals_of_code() {
        assert_eq!(
            literals(r#"import os; os.system("cat .env"); print('a \'b\'')"#),
            ["cat .env", "a 'b'"]
        );
        assert_eq!(
            literals(r#"subprocess.run(["cat", ".env"]); x = `ls ~`"#),
            ["cat", ".env", "ls ~"]
        );
        assert!(literals("print(2 * 3)").is_empty());
        assert!(literals("x = '' + \" \"").is_empty());
    }
}
