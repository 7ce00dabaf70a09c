//! sed's script language, read for what it does besides editing its input: the files
//! its `r`, `R`, `w`, `W` commands and `s///w` flag open, and the commands its `e`
//! command and `s///e` flag run (GNU sed 4.9). A script the reader cannot follow to
//! its end is unknown as a whole: no part of it is taken to be harmless. Also the
//! backups `-i SUFFIX` makes ([`backups`]).

use super::code::short;
use super::{CodeReading, Kind, Part, Reading, Role};

/// The backups `sed -iSUFFIX` (`--in-place=SUFFIX`, the last one given) renames each
/// file to, added as written parts: each `*` in SUFFIX is the file's name as given
/// (`-i'bak/*'` moves `d/f` to `bak/d/f`, `-i'/root/.ssh/k*'` moves `s` to
/// `/root/.ssh/ks`), and a SUFFIX without one is appended (`f.bak`); the name is read
/// from the current directory, as sed renames it.
pub(super) fn backups(r: &mut Reading) {
    let Some(suffix) = r
        .given
        .iter()
        .rfind(|g| g.long == "in-place")
        .and_then(|g| g.value.clone())
        .filter(|s| !s.is_empty())
    else {
        return;
    };
    let files: Vec<String> = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && p.role == Role::Write && p.text != "-")
        .map(|p| p.text.clone())
        .collect();
    for f in files {
        let text = if suffix.contains('*') {
            suffix.replace('*', &f)
        } else {
            format!("{f}{suffix}")
        };
        r.parts.push(Part {
            text,
            kind: Kind::Implied,
            role: Role::Write,
        });
    }
}

/// The commands that take no argument.
const PLAIN: &str = "=dDgGhHnNpPxzF";

/// Read the sed SCRIPT (an `-e` value or the first operand).
pub fn read(script: &str) -> CodeReading {
    let mut out = CodeReading::default();
    let mut r = Reader {
        s: script.as_bytes(),
        i: 0,
        out: &mut out,
    };
    if let Err(why) = r.script() {
        out.unknown = Some(format!("sed script `{}`: {why}", short(script)));
    }
    out
}

struct Reader<'a, 'o> {
    s: &'a [u8],
    i: usize,
    out: &'o mut CodeReading,
}

type Step = Result<(), String>;

impl Reader<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// The text up to the end of the line (not including the newline).
    fn rest_of_line(&mut self) -> String {
        let from = self.i;
        while !matches!(self.peek(), None | Some(b'\n')) {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[from..self.i]).into_owned()
    }

    fn script(&mut self) -> Step {
        loop {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b';')) {
                self.i += 1;
            }
            let Some(_) = self.peek() else {
                return Ok(());
            };
            self.command()?;
        }
    }

    fn command(&mut self) -> Step {
        if self.peek() == Some(b'#') {
            self.rest_of_line();
            return Ok(());
        }
        self.address()?;
        self.blanks();
        if self.peek() == Some(b',') {
            self.i += 1;
            self.blanks();
            match self.peek() {
                Some(b'+' | b'~') => {
                    self.i += 1;
                    self.number();
                }
                _ => self.address()?,
            }
            self.blanks();
        }
        while self.peek() == Some(b'!') {
            self.i += 1;
            self.blanks();
        }
        let Some(c) = self.next() else {
            return Err("an address without a command".into());
        };
        match c {
            b'{' | b'}' => Ok(()),
            c if PLAIN.as_bytes().contains(&c) => self.end(),
            b'l' | b'L' | b'q' | b'Q' => {
                self.blanks();
                self.number();
                self.end()
            }
            b':' | b'b' | b't' | b'T' | b'v' => {
                // A label (or a version) starts after blanks and ends at a blank, `;`
                // or a newline, as GNU sed's `read_label` reads it: what follows is
                // the next command (`:x e CMD` runs CMD; helper-47). Ending it at `}`
                // too reads it shorter than sed would, which only leaves more to read
                // as commands.
                self.blanks();
                while !matches!(
                    self.peek(),
                    None | Some(b'\n' | b';' | b'}' | b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
                ) {
                    self.i += 1;
                }
                Ok(())
            }
            b'a' | b'i' | b'c' => {
                self.text();
                Ok(())
            }
            b'r' | b'R' => {
                let f = self.file_name()?;
                self.out.reads.push(f);
                Ok(())
            }
            b'w' | b'W' => {
                let f = self.file_name()?;
                self.out.writes.push(f);
                Ok(())
            }
            b'e' => {
                self.blanks();
                // Its command is text as `a`'s is: a line ending with a backslash goes
                // on to the next, and sed takes escapes off (`\x2e` is `.`).
                let from = self.i;
                self.text();
                let raw = String::from_utf8_lossy(&self.s[from..self.i]);
                let raw = raw.strip_suffix('\n').unwrap_or(&raw).to_string();
                if raw.trim().is_empty() {
                    return Err("`e` runs the pattern space as a command".into());
                }
                if raw.contains('\\') {
                    self.out.shell.push(unescape(&raw));
                    self.out.shell.push(raw);
                    return Err(
                        "`e`'s command holds a backslash: sed runs it with its escapes taken off"
                            .into(),
                    );
                }
                self.out.shell.push(raw);
                Ok(())
            }
            b's' => self.substitute(),
            b'y' => {
                let d = self.delimiter()?;
                self.delimited(d)?;
                self.delimited(d)?;
                self.end()
            }
            c => Err(format!("unknown command `{}`", char::from(c))),
        }
    }

    /// After a command: blanks, then `;`, `}`, `#`, a newline or the end.
    fn end(&mut self) -> Step {
        self.blanks();
        match self.peek() {
            None | Some(b';' | b'\n' | b'}' | b'#') => Ok(()),
            Some(c) => Err(format!("`{}` after a command", char::from(c))),
        }
    }

    fn number(&mut self) -> bool {
        let from = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i > from
    }

    /// An address, if one is here: a line number (`first~step`), `$`, `/RE/` or
    /// `\cREc` with its `I`/`M` flags.
    fn address(&mut self) -> Step {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                self.number();
                if self.peek() == Some(b'~') {
                    self.i += 1;
                    self.number();
                }
            }
            Some(b'$') => self.i += 1,
            Some(b'/') => {
                self.i += 1;
                self.delimited(b'/')?;
                self.regex_flags();
            }
            Some(b'\\') => {
                self.i += 1;
                let d = self.delimiter()?;
                self.delimited(d)?;
                self.regex_flags();
            }
            _ => {}
        }
        Ok(())
    }

    fn regex_flags(&mut self) {
        while matches!(self.peek(), Some(b'I' | b'M')) {
            self.i += 1;
        }
    }

    fn delimiter(&mut self) -> Result<u8, String> {
        match self.next() {
            Some(b'\n' | b'\\') | None => Err("a missing or invalid delimiter".into()),
            Some(d) => Ok(d),
        }
    }

    /// A regular expression or replacement up to the delimiter D (consumed). A bracket
    /// expression that holds D is not read: whether D ends it there is not followed.
    fn delimited(&mut self, d: u8) -> Step {
        loop {
            let Some(c) = self.next() else {
                return Err("an unterminated expression".into());
            };
            match c {
                // The delimiter first, as GNU sed's match_slash reads (`s[a[b[`).
                c if c == d => return Ok(()),
                b'\\' => {
                    self.next().ok_or("an unterminated expression")?;
                }
                b'[' => self.bracket(d)?,
                _ => {}
            }
        }
    }

    /// The rest of a bracket expression after its `[`, read as GNU sed's own
    /// `snarf_char_class` reads it (not as POSIX says): a `^`, then a `]`, are members;
    /// a `[` then `.`, `:` or `=` opens an element that only that character doubled
    /// before a `]` closes (`[[...]]//;b.]]` is one bracket to sed), and a backslash is
    /// a member. One that holds the delimiter D is not read.
    fn bracket(&mut self, d: u8) -> Step {
        let mut holds = false;
        let mut c = self.next();
        for first in [b'^', b']'] {
            if c == Some(first) {
                holds |= first == d;
                c = self.next();
            }
        }
        // 0: outside an element; 1: after a `[`; 2: in an element; 3: after its
        // closing character.
        let (mut state, mut delim) = (0u8, 0u8);
        loop {
            let Some(ch) = c else {
                return Err("an unterminated bracket expression".into());
            };
            holds |= ch == d;
            match ch {
                b'\n' => return Err("a newline in a bracket expression".into()),
                b'.' | b':' | b'=' if state == 1 => {
                    (delim, state) = (ch, 2);
                    c = self.next();
                    continue;
                }
                b'.' | b':' | b'=' if state == 2 && ch == delim => {
                    state = 3;
                    c = self.next();
                    continue;
                }
                b'[' => {
                    if state == 0 {
                        state = 1;
                    }
                    c = self.next();
                    continue;
                }
                b']' if state <= 1 && holds => {
                    return Err("a delimiter inside a bracket expression".into())
                }
                b']' if state <= 1 => return Ok(()),
                b']' if state == 3 => state = 0,
                _ => {}
            }
            state &= !1;
            c = self.next();
        }
    }

    fn substitute(&mut self) -> Step {
        let d = self.delimiter()?;
        self.delimited(d)?;
        let from = self.i;
        self.delimited(d)?;
        let replacement = &self.s[from..self.i.saturating_sub(1).max(from)];
        loop {
            match self.peek() {
                Some(b'g' | b'p' | b'i' | b'I' | b'm' | b'M') => self.i += 1,
                Some(c) if c.is_ascii_digit() => {
                    self.number();
                }
                Some(b'e') => {
                    // The command is the line as replaced: the replacement, when the
                    // expression matches the whole line; read so for deny rules, raw
                    // and with sed's escapes taken off.
                    let raw = String::from_utf8_lossy(replacement).into_owned();
                    let plain = unescape(&raw);
                    if plain != raw {
                        self.out.shell.push(plain);
                    }
                    self.out.shell.push(raw);
                    return Err("`s///e` runs the pattern space as a command".into());
                }
                Some(b'w') => {
                    self.i += 1;
                    let f = self.file_name()?;
                    self.out.writes.push(f);
                    return Ok(());
                }
                _ => return self.end(),
            }
        }
    }

    /// The file name of `r`, `w` and `s///w`: the rest of the line, after blanks.
    fn file_name(&mut self) -> Result<String, String> {
        self.blanks();
        let f = self.rest_of_line();
        if f.is_empty() {
            return Err("a missing file name".into());
        }
        Ok(f)
    }

    /// The text of `a`, `i`, `c`: the rest of the line, and the lines after it while
    /// one ends with a backslash.
    fn text(&mut self) {
        let mut escaped = false;
        while let Some(c) = self.next() {
            if c == b'\n' && !escaped {
                return;
            }
            escaped = c == b'\\' && !escaped;
        }
    }
}

/// TEXT with each backslash escape replaced by the character it escapes (`\n` by a
/// newline).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('x') => {
                    let hex: String = chars
                        .clone()
                        .take(2)
                        .take_while(char::is_ascii_hexdigit)
                        .collect();
                    match u8::from_str_radix(&hex, 16) {
                        Ok(b) if b.is_ascii() => {
                            out.push(char::from(b));
                            for _ in 0..hex.len() {
                                chars.next();
                            }
                        }
                        _ => out.push('x'),
                    }
                }
                Some(e) => out.push(e),
                None => out.push(c),
            },
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn everyday_scripts_do_nothing_else() {
        for s in [
            "1,20p",
            "s/a/b/",
            "s/a/b/g;s|x|y|2",
            "/^#/d",
            "$!N;s/\\n/ /",
            ":a;N;$!ba;s/\\n/ /g",
            "1~3{p;q}",
            "/start/,/end/{/x/!d}",
            "y/abc/xyz/",
            "1i\\\nheader",
            "$a last line; w not-a-file",
            "s/[/]/x/",
        ] {
            let r = read(s);
            if s == "s/[/]/x/" {
                assert!(r.unknown.is_some(), "{s}");
                continue;
            }
            assert_eq!(r.unknown, None, "{s}");
            assert!(
                r.reads.is_empty() && r.writes.is_empty() && r.shell.is_empty(),
                "{s}: {r:?}"
            );
        }
    }

    #[test]
    fn files_and_commands_are_found() {
        let r = read("1r /home/u/.ssh/id_rsa");
        assert_eq!(r.reads, ["/home/u/.ssh/id_rsa"]);
        let r = read("w out.txt");
        assert_eq!(r.writes, ["out.txt"]);
        let r = read("s/a/b/w ~/.ssh/authorized_keys");
        assert_eq!(r.writes, ["~/.ssh/authorized_keys"]);
        let r = read("1e id -u");
        assert_eq!(r.shell, ["id -u"]);
        let r = read("p;R f\nq");
        assert_eq!(r.reads, ["f"]);
        assert!(read("s/.*/id/e").unknown.is_some());
        // What `s///e` runs is read for deny rules.
        let r = read("s/.*/cat .env/e");
        assert!(r.unknown.is_some());
        assert_eq!(r.shell, ["cat .env"]);
        let r = read("s|^.*|cat\\ ~/.ssh/k|pe");
        assert_eq!(r.shell, ["cat ~/.ssh/k", "cat\\ ~/.ssh/k"]);
        assert!(read("e").unknown.is_some());
        assert!(read("1k").unknown.is_some());
        assert!(read("s/a/b").unknown.is_some());
    }

    /// A label ends at a blank, as GNU sed reads it (helper-47): what follows is a
    /// command (`echo a | sed ':x e echo hi'` prints `hi`).
    #[test]
    fn a_label_ends_at_a_blank() {
        for (script, shell) in [
            (":x e id", "id"),
            (":x\te id", "id"),
            (": x e id", "id"),
            ("b x e id\n:x", "id"),
            ("tx e id\n:x", "id"),
            ("v 4.2 e id", "id"),
        ] {
            let r = read(script);
            assert_eq!(r.shell, [shell], "{script}");
        }
        assert!(read(":a s/^/id/e;p").unknown.is_some());
        assert_eq!(read(":x w out").writes, ["out"]);
        assert_eq!(read(":a N;$!ba;s/\\n/ /g").unknown, None);
    }

    /// `e`'s command goes on after a backslash and a newline, its escapes taken off,
    /// as GNU sed runs it (helper-53: `1e # \<NL>cat \x2eenv` ran `# \ncat .env`).
    #[test]
    fn e_runs_its_text_as_sed_reads_it() {
        let r = read("1e # \\\ncat \\x2eenv");
        assert!(r.unknown.is_some());
        assert!(
            r.shell.contains(&"# \ncat .env".to_string()),
            "{:?}",
            r.shell
        );
        assert_eq!(read("1e id -u\np").shell, ["id -u"]);
        assert_eq!(read("1e id -u\np").unknown, None);
    }

    /// A bracket ends where GNU sed's `snarf_char_class` ends it: an element whose
    /// closing character is doubled stays open (helper-53).
    #[test]
    fn brackets_end_as_sed_ends_them() {
        assert!(read("s/[[...]]//;b.]]/cat<.env/ep").unknown.is_some());
        assert!(read("/[[...]]/b.]]/e rm -rf x").unknown.is_some());
        assert_eq!(read("s/[]a]/x/g").unknown, None);
        assert_eq!(read("s/[[:alpha:]]/x/g").unknown, None);
        assert!(read("s/[[:alpha:]/]/x/e").unknown.is_some());
    }
}
