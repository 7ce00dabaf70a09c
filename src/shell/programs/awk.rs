//! awk's program text, read for what makes it more than a filter of its input: a
//! program is known only when none of the constructs that run commands, open files or
//! change which files it reads can be in it (gawk 5.2, mawk 1.3.4, busybox awk, the
//! one true awk).
//!
//! - `system()` runs a command, `getline` reads a file or a command.
//! - `ARGV`, `ARGC` change the files it reads after `BEGIN`; gawk's `SYMTAB` reaches
//!   them by name, `PROCINFO` and `FUNCTAB` call functions by name, `ENVIRON["TZ"]`
//!   makes the time functions read a zone file.
//! - `@` is gawk's `@include`, `@load` and its calls by name (`f = "system"; @f(x)`).
//! - A backslash before a newline joins lines, and a carriage return is a blank to
//!   one awk and a line end to another: both refused rather than followed.
//!
//! Those are looked for in the whole text, strings and comments included. What needs
//! the program's tokens is read by a lexer ([`Lexer`]) that every awk agrees with
//! where it goes on, and that gives up (unknown) where they may part:
//!
//! - `|` outside a string or a regular expression pipes (`print | "sh"`, `"cmd" |
//!   getline`, gawk's `|&`); `||` is the logical or in every awk.
//! - `>` in a `print` or `printf` statement outside its parentheses writes a file (the
//!   rule of gawk's, mawk's and busybox's lexers: `print $1 > 2` makes a file `2`,
//!   `print ($1 > 2)` compares); `>>` always appends. Any other `>` compares, and `>=`
//!   is a comparison in every awk (the longest token).
//! - A `/` starts a regular expression where an operand is awaited and divides after
//!   one (a name, a number, `]`); after a string, a regular expression, `$`, `++`,
//!   `--`, `)` (which may end an `if (…)`) or a keyword other than `print` the awks
//!   part, and the program is unknown. A bracket expression inside a regular expression is taken to its latest
//!   possible end (escapes, `[:class:]`, a leading `]`), and a `/` in it is unknown.

use super::code::{find_word, short};
use super::{CodeReading, Reading, Role, Run};

/// Words that make a program unknown wherever they stand.
const WORDS: &[&str] = &[
    "system", "getline", "ARGV", "ARGC", "ENVIRON", "PROCINFO", "SYMTAB", "FUNCTAB",
];

/// Read the awk program TEXT. An unknown one may run any of its strings as a command
/// (`system("rm x")`, `print | "sh"`): each is read generously, as a shell line that
/// may run, for deny rules.
pub(super) fn read(text: &str) -> CodeReading {
    let Some(why) = why_unknown(text) else {
        return CodeReading::default();
    };
    CodeReading {
        maybe: strings(text),
        unknown: Some(format!("awk program `{}`: {why}", short(text))),
        ..CodeReading::default()
    }
}

/// The string literals of TEXT, their escapes undone (`\"`, `\\`; others kept).
fn strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some(e @ ('"' | '\\' | '/')) => s.push(e),
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some(e) => {
                        s.push('\\');
                        s.push(e);
                    }
                    None => {}
                },
                c => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

fn why_unknown(text: &str) -> Option<String> {
    if text.contains('@') {
        return Some("`@` includes, loads or calls by name".into());
    }
    if let Some(w) = find_word(text, WORDS) {
        return Some(format!("`{w}`"));
    }
    if text.contains("\\\n") || text.contains("\\\r") {
        return Some("a backslash joins two lines".into());
    }
    if text.contains('\r') {
        return Some("a carriage return".into());
    }
    Lexer {
        b: text.as_bytes(),
        i: 0,
        depth: 0,
        print: None,
        prev: Prev::Operator,
    }
    .run()
    .err()
}

/// What the token before a `/` makes of it.
#[derive(Clone, Copy, PartialEq)]
enum Prev {
    /// An operand is awaited: a regular expression starts.
    Operator,
    /// An operand ended: a division.
    Operand,
    /// The awks part (after a string, a regular expression, `$`, `++`, a keyword).
    Unsure,
}

/// Keywords after which a `/` starts a regular expression (`print /x/`).
const REGEX_AFTER: &[&str] = &["print", "printf"];

/// awk's keywords and built-in functions: a `/` after one of them is unsure (gawk's
/// `length` needs no parentheses; `return /x/`, `case /x/` are rare).
const KEYWORDS: &[&str] = &[
    "BEGIN",
    "END",
    "BEGINFILE",
    "ENDFILE",
    "if",
    "else",
    "while",
    "for",
    "do",
    "break",
    "continue",
    "next",
    "nextfile",
    "exit",
    "return",
    "delete",
    "in",
    "function",
    "func",
    "switch",
    "case",
    "default",
    "length",
    "substr",
    "index",
    "split",
    "sub",
    "gsub",
    "gensub",
    "match",
    "sprintf",
    "sin",
    "cos",
    "atan2",
    "exp",
    "log",
    "sqrt",
    "int",
    "rand",
    "srand",
    "tolower",
    "toupper",
    "close",
    "fflush",
    "and",
    "or",
    "xor",
    "compl",
    "lshift",
    "rshift",
    "strftime",
    "systime",
    "mktime",
    "asort",
    "asorti",
    "patsplit",
    "isarray",
    "typeof",
    "strtonum",
    "dcgettext",
    "dcngettext",
    "bindtextdomain",
];

/// A lexer of awk's tokens, as far as the reading needs them (module doc).
struct Lexer<'t> {
    b: &'t [u8],
    i: usize,
    /// Open parentheses.
    depth: i32,
    /// Inside a `print` or `printf` statement begun at this depth.
    print: Option<i32>,
    prev: Prev,
}

impl Lexer<'_> {
    fn at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    fn run(&mut self) -> Result<(), String> {
        while let Some(c) = self.at(0) {
            self.i += 1;
            match c {
                b' ' | b'\t' => {}
                b'\n' => self.prev = Prev::Operator,
                b'#' => self.skip_comment(),
                b'"' => {
                    self.string()?;
                    self.prev = Prev::Unsure;
                }
                b'/' => match self.prev {
                    Prev::Operator => {
                        self.regex()?;
                        self.prev = Prev::Unsure;
                    }
                    Prev::Operand => {
                        if self.at(0) == Some(b'=') {
                            self.i += 1;
                        }
                        self.prev = Prev::Operator;
                    }
                    Prev::Unsure => return Err("a `/` that may start a regular expression".into()),
                },
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.name(),
                b'0'..=b'9' | b'.' => {
                    while matches!(self.at(0), Some(c) if c.is_ascii_alphanumeric() || c == b'.') {
                        self.i += 1;
                    }
                    self.prev = Prev::Operand;
                }
                b'(' => {
                    self.depth += 1;
                    self.prev = Prev::Operator;
                }
                // After `if (…)`, `while (…)`, `for (…)` a statement starts, a regular
                // expression among them (helper-41): a `/` after `)` is unsure.
                b')' => {
                    self.depth -= 1;
                    if self.print.is_some_and(|d| self.depth < d) {
                        return Err("an unbalanced `)`".into());
                    }
                    self.prev = Prev::Unsure;
                }
                b']' => self.prev = Prev::Operand,
                b';' | b'}' => {
                    self.print = None;
                    self.prev = Prev::Operator;
                }
                b'>' => match self.at(0) {
                    Some(b'=') => {
                        self.i += 1;
                        self.prev = Prev::Operator;
                    }
                    Some(b'>') => return Err("`>>` appends to a file".into()),
                    _ if self.print == Some(self.depth) => {
                        return Err("`>` in print writes a file".into())
                    }
                    _ => self.prev = Prev::Operator,
                },
                b'|' => {
                    if self.at(0) == Some(b'|') && self.at(1) != Some(b'|') {
                        self.i += 1;
                        self.prev = Prev::Operator;
                    } else {
                        return Err("`|` runs a command".into());
                    }
                }
                b'+' | b'-' if self.at(0) == Some(c) => {
                    self.i += 1;
                    self.prev = Prev::Unsure;
                }
                b'$' => self.prev = Prev::Unsure,
                b'\\' => return Err("a backslash outside a string".into()),
                b'!' | b'~' | b'=' | b'<' | b'*' | b'%' | b'^' | b'?' | b':' | b'&' | b','
                | b'{' | b'[' | b'+' | b'-' => self.prev = Prev::Operator,
                _ => return Err(format!("`{}`", char::from(c).escape_default())),
            }
        }
        Ok(())
    }

    fn skip_comment(&mut self) {
        while self.at(0).is_some_and(|c| c != b'\n') {
            self.i += 1;
        }
    }

    fn name(&mut self) {
        let start = self.i - 1;
        while matches!(self.at(0), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
            self.i += 1;
        }
        let word = std::str::from_utf8(&self.b[start..self.i]).unwrap_or("");
        self.prev = if REGEX_AFTER.contains(&word) {
            self.print = Some(self.depth);
            Prev::Operator
        } else if KEYWORDS.contains(&word) {
            Prev::Unsure
        } else {
            Prev::Operand
        };
    }

    /// A string, its opening `"` read.
    fn string(&mut self) -> Result<(), String> {
        loop {
            match self.at(0) {
                None | Some(b'\n') => return Err("a string without its end".into()),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => self.i += 2,
                Some(_) => self.i += 1,
            }
        }
    }

    /// A regular expression, its opening `/` read.
    fn regex(&mut self) -> Result<(), String> {
        loop {
            match self.at(0) {
                None | Some(b'\n') => return Err("a regular expression without its end".into()),
                Some(b'/') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => self.i += 2,
                Some(b'[') => {
                    self.i += 1;
                    self.bracket()?;
                }
                Some(_) => self.i += 1,
            }
        }
    }

    /// A bracket expression, its `[` read, to its latest possible end: escapes skip a
    /// character (gawk's), `[:class:]` (and `[.x.]`, `[=x=]`) is inside it, a `]` first
    /// is a member. The awks part on a `/` or a line end inside one.
    fn bracket(&mut self) -> Result<(), String> {
        const UNCLOSED: &str = "a `/` or a line end in a bracket expression";
        if self.at(0) == Some(b'^') {
            self.i += 1;
        }
        if self.at(0) == Some(b']') {
            self.i += 1;
        }
        loop {
            match self.at(0) {
                None | Some(b'\n') | Some(b'/') => return Err(UNCLOSED.into()),
                Some(b']') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => self.i += 2,
                Some(b'[') if matches!(self.at(1), Some(b':' | b'.' | b'=')) => {
                    let Some(close) = self.at(1) else {
                        return Ok(());
                    };
                    self.i += 2;
                    while !(self.at(0) == Some(close) && self.at(1) == Some(b']')) {
                        match self.at(0) {
                            None | Some(b'\n') | Some(b'/') => return Err(UNCLOSED.into()),
                            _ => self.i += 1,
                        }
                    }
                    self.i += 2;
                }
                Some(_) => self.i += 1,
            }
        }
    }
}

/// gawk reads each `-e` source after the one before: the text of all of them is read
/// once more joined, so no word is made across two of them.
pub(super) fn sources(r: &mut Reading) {
    let code: Vec<&str> = r
        .parts
        .iter()
        .filter(|p| p.role == Role::Code)
        .map(|p| p.text.as_str())
        .collect();
    if code.len() > 1 {
        let joined = code.concat();
        r.runs.push(Run::Code(joined));
    }
}

#[cfg(test)]
mod tests {
    use super::{read, why_unknown};

    #[test]
    fn an_unknown_programs_strings_are_shell_lines() {
        let r = read("BEGIN{system(\"rm -rf \\\"/tmp/x\\\"\"); print \"a\" | \"sh\"}");
        assert_eq!(r.maybe, ["rm -rf \"/tmp/x\"", "a", "sh"]);
        assert!(read("{print \"x\"}").maybe.is_empty());
    }

    #[test]
    fn filters_are_known() {
        for p in [
            "{print $1}",
            "NR>=5 && NR<=15",
            "{s+=$2} END {print s}",
            "/foo/ {n++} END {print n}",
            "{ printf \"%s %d\\n\", $1, length($0) }",
            "$3 == \"x\" { print NR \": \" $0 }",
            // Comparisons outside print, and inside its parentheses.
            "$3 > 100",
            "NR>1{print $2}",
            "length > 80",
            "{ if ($1 > max) max = $1 } END { print max }",
            "{ print ($1 > 5 ? \"big\" : \"small\") }",
            "$3 > 100 { print $1 }; $2 > 3 { print }",
            "{ print $1 }\n$2 > 3",
            // `||`, and `|` or `>` inside strings and regular expressions.
            "/foo|bar/ { n++ }",
            "$1 == \"a\" || $2 == \"b\"",
            "{ print \"a > b | c\" }",
            "/^#/ { next } { print }",
            "$0 ~ /[[:space:]]+$/",
            "$0 ~ /[]x]/ && /[^]y]/",
            // Divisions after operands.
            "{ sum += $NF } END { printf \"%.2f\\n\", sum/NR }",
            "{ print $1/$2, x[1] / 3 }",
            "{ x /= 2 }",
            "!seen[$0]++",
            "BEGIN { FS = \":\" } $3 >= 1000 { print $1 } # users > 1000",
        ] {
            assert_eq!(why_unknown(p), None, "{p}");
        }
    }

    #[test]
    fn commands_files_and_argv_are_unknown() {
        for p in [
            "BEGIN{system(\"rm x\")}",
            "{print | \"sh\"}",
            "{print > \"/root/.ssh/k\"}",
            "{print >> \"f\"}",
            "BEGIN{while ((getline l < \"/root/.ssh/k\") > 0) print l}",
            "BEGIN{ARGV[1]=\"/root/.ssh/k\"; ARGC=2} {print}",
            "BEGIN{SYMTAB[\"ARG\" \"V\"][1]=\"k\"}",
            "BEGIN{f=\"sys\" \"tem\"; @f(\"id\")}",
            "@include \"x\"",
            "BEGIN{ENVIRON[\"TZ\"]=\"/root/.ssh/k\"; print strftime()}",
            "BEGIN{sys\\\ntem(\"id\")}",
            "{print $1 |& \"cat\"}",
            "BEGIN { \"date\" | getline d }",
            // `>` in a print statement outside its parentheses.
            "{ print $1 > 2 }",
            "{ print $1, $2 > \"f\" }",
            "{ printf(\"%s\\n\", $1) > \"f\" }",
            "{ print a[$1 > 2] }",
            "{ if ($1 > 2) print $1 > \"f\" }",
            "{ print $1\n$2 > \"f\" }",
            "{ print $1,\n$2 > \"f\" }",
            "/x/; print > \"f\"",
            "{ print $1 |\"sh\" }",
            "{ print $1 ||| \"sh\" }",
            // Where the awks may part on a `/`, or a construct has no end.
            "{ print \"a\" /x/ }",
            "{ x = $ /y/ }",
            "NR==1 { if (NF) /#/; print \"x\" > \"f\" }",
            "{ while (0) /a/ / 1; print > \"f\" }",
            "{ print (a) / 2 }",
            "{ i++ /x/ 1 }",
            "/a[/]b/",
            "/[\\]/]/ { print > \"f\" }",
            "/[[:alpha:]/]/",
            "{ print \"x }",
            "/x",
            "{ print $1 }\r\n",
            "{ print (a)) > \"f\" }",
        ] {
            assert!(why_unknown(p).is_some(), "{p}");
        }
    }
}
