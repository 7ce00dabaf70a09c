//! The one option reader: a program's words read through its table entry.

use super::{Does, Effect, Opt, Program, Role, Style, Value};

/// What a word of a command is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An option (or a bundle of them) as written.
    Option,
    /// An option's value (glued ones split off: `FILE` of `--file=FILE`).
    Value,
    /// An operand.
    Operand,
    /// The name of a subcommand (`log` of `git log`).
    Subcommand,
    /// `--`, the end of the options.
    End,
    /// No word: a path the program opens that the words imply (the `.` that `ls` lists
    /// when given no operand, the temporary file `sed -i` writes beside its file).
    Implied,
    /// No word: a file the program looks for by a name it builds from a word, which it
    /// opens where it exists (make's built-in rules: `x.sh` for a target `x`). Not in
    /// the table's examples (see [`Reading::written_paths`]).
    Found,
}

/// One word of a command, or one value split off a word, with what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    pub kind: Kind,
    /// The role of a value or operand ([`Role::Data`] for options and names).
    pub role: Role,
}

/// Something a command runs, given by its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Run {
    /// A program and its words (`fd -x rm {}`, `rg --pre CMD`).
    Argv(Vec<String>),
    /// A string given to a shell.
    Shell(String),
    /// Code in the program's own language.
    Code(String),
    /// Text that makes it run commands the reading does not read (`make --eval`).
    Hidden(String),
    /// A program it starts that its words do not name (git's editor, gpg, a merge
    /// strategy from PATH), described for the reason: never certain, and not read as a
    /// command or a path.
    Starts(String),
}

/// How a program reads its words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    /// Each word, in order, with what it is.
    pub parts: Vec<Part>,
    /// The options (or subcommand) the table does not know, as written.
    pub unknown: Vec<String>,
    /// What it runs.
    pub runs: Vec<Run>,
    /// The subcommand read, if any (its name; the innermost of nested ones: `push` of
    /// `git stash push`).
    pub sub: Option<&'static str>,
    /// The options given, as the table names them (however they were spelled: `--t=a`,
    /// `-vta` and `--target-directory a` are all `target-directory` with the value `a`).
    pub given: Vec<Given>,
}

/// An option given to a command, by its table names, with the value it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    pub long: &'static str,
    pub short: &'static str,
    pub value: Option<String>,
}

impl Reading {
    /// The words in path roles, in order.
    pub fn paths(&self) -> Vec<&str> {
        self.parts
            .iter()
            .filter(|p| p.role.is_path())
            .map(|p| p.text.as_str())
            .collect()
    }

    /// The words in path roles, in order, but for those the program looks for by a
    /// name it builds ([`Kind::Found`]): what a table's example lists.
    pub fn written_paths(&self) -> Vec<&str> {
        self.parts
            .iter()
            .filter(|p| p.role.is_path() && p.kind != Kind::Found)
            .map(|p| p.text.as_str())
            .collect()
    }

    /// The values of each giving of the option named LONG (its long name in the table,
    /// or its short one when it has no long one), in order; an empty list when it was
    /// not given.
    pub fn option_values(&self, long: &str) -> Vec<&str> {
        self.given
            .iter()
            .filter(|g| g.long == long || (g.long.is_empty() && g.short == long))
            .filter_map(|g| g.value.as_deref())
            .collect()
    }

    /// Whether the option named LONG (see [`Reading::option_values`]) was given.
    pub fn has_option(&self, long: &str) -> bool {
        self.given
            .iter()
            .any(|g| g.long == long || (g.long.is_empty() && g.short == long))
    }

    /// Every option and subcommand was known.
    pub fn is_known(&self) -> bool {
        self.unknown.is_empty()
    }

    /// The commands it runs, as [`Run`]s show them (for reasons and tests): argv words
    /// joined by a space, shell strings and hidden text as written (not its own code).
    pub fn shown_runs(&self) -> Vec<String> {
        self.runs
            .iter()
            .filter_map(|r| match r {
                Run::Argv(a) => Some(a.join(" ")),
                Run::Shell(s) | Run::Hidden(s) | Run::Starts(s) => Some(s.clone()),
                Run::Code(_) => None,
            })
            .collect()
    }

    /// Note option O as given; its value, if it took one, is the part at AT.
    fn note_given(&mut self, o: &'static Opt, at: usize) {
        let value = self
            .parts
            .get(at)
            .filter(|p| p.kind == Kind::Value)
            .map(|p| p.text.clone());
        self.given.push(Given {
            long: o.long,
            short: o.short,
            value,
        });
    }

    fn push(&mut self, text: &str, kind: Kind, role: Role) {
        self.parts.push(Part {
            text: text.to_owned(),
            kind,
            role,
        });
    }

    /// A value of ROLE: a part, and what it runs (and for a date, the files it reads).
    fn value(&mut self, text: &str, role: Role) {
        self.push(text, Kind::Value, role);
        self.run(role, text);
        if role == Role::Date {
            for file in date_files(text) {
                self.push(&file, Kind::Implied, Role::Read);
            }
        }
    }

    fn run(&mut self, role: Role, text: &str) {
        match role {
            Role::Argv => self.runs.push(Run::Argv(vec![text.to_owned()])),
            Role::Shell => self.runs.push(Run::Shell(text.to_owned())),
            Role::Code => self.runs.push(Run::Code(text.to_owned())),
            Role::Hidden => self.runs.push(Run::Hidden(text.to_owned())),
            Role::Words => match plain_words(text) {
                Some(argv) => self.runs.push(Run::Argv(argv)),
                None => {
                    self.runs.push(Run::Hidden(text.to_owned()));
                    // For deny rules, each piece between blanks, quotes and the
                    // characters a splitter may take apart is a path it may open
                    // (`cat #x<newline>.env`: bat's splitter ends the comment at the
                    // newline and runs `cat .env`).
                    let pieces = text
                        .split(|c: char| c.is_whitespace() || "'\"\\;|&<>()#`".contains(c))
                        .filter(|w| !w.is_empty());
                    for piece in pieces {
                        self.push(piece, Kind::Implied, Role::Read);
                    }
                }
            },
            _ => {}
        }
    }
}

/// The words of TEXT, a command line a program splits itself ([`Role::Words`]), when
/// every splitter reads it alike: words of letters, digits and `_-./=:,+@%^` apart by
/// blanks, and whole words in quotes (`'...'`, or `"..."` holding those and blanks; go's
/// `quoted.Split` counts a quote only at a word's start and ends the word at the closing
/// one). None for anything a splitter may read otherwise (`$`, `\`, `#`, `;`, `|`, `<`,
/// `*`, `~`, a newline, a quote inside a word) and for no word at all.
pub fn plain_words(text: &str) -> Option<Vec<String>> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./=:,+@%^".contains(c);
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' | '"' if word.is_none() => {
                let mut w = String::new();
                loop {
                    match chars.next()? {
                        q if q == c => break,
                        x if plain(x) || x == ' ' || (c == '\'' && x != '\n') => w.push(x),
                        _ => return None,
                    }
                }
                if chars.peek().is_some_and(|n| !matches!(n, ' ' | '\t')) {
                    return None;
                }
                words.push(w);
            }
            c if plain(c) => word.get_or_insert_with(String::new).push(c),
            _ => return None,
        }
    }
    words.extend(word);
    (!words.is_empty()).then_some(words)
}

/// The files the date string TEXT makes a program read (see [`Role::Date`]): itself
/// when it starts with `/`, `.` or `~`, and the zone file of each `TZ="ZONE"` in it (`\`
/// escaping the next character), a relative ZONE below `/usr/share/zoneinfo`.
fn date_files(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if text.starts_with(['/', '.', '~']) {
        out.push(text.to_owned());
    }
    let mut rest = text;
    while let Some(at) = rest.find("TZ=\"") {
        let mut zone = String::new();
        let mut chars = rest[at + 4..].chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => zone.extend(chars.next()),
                '"' => break,
                c => zone.push(c),
            }
        }
        rest = chars.as_str();
        let zone = zone.trim_start_matches(':');
        // A parameter the shell puts in (`"TZ=\"$HOME/x\""`) may make it a path.
        if zone.starts_with(['/', '$']) {
            out.push(zone.to_owned());
        }
        if !zone.is_empty() && !zone.starts_with('/') {
            out.push(format!("/usr/share/zoneinfo/{zone}"));
        }
    }
    out
}

/// Read ARGS (a command's words after its name) as PROGRAM reads them.
pub fn read(program: &Program, args: &[String]) -> Reading {
    let mut out = Reading::default();
    read_into(program, args, &mut out);
    out
}

/// The words an option of value [`Value::UntilSemicolon`] takes from ARGS: up to `;`,
/// or `+` right after `{}`, or the end; and how many words that is (the end included).
fn until_semicolon(args: &[String]) -> (Vec<String>, usize) {
    let mut taken = Vec::new();
    for (k, w) in args.iter().enumerate() {
        if w == ";" || (w == "+" && taken.last().is_some_and(|p: &String| p == "{}")) {
            return (taken, k + 1);
        }
        taken.push(w.clone());
    }
    let n = taken.len();
    (taken, n)
}

/// The option named LONG of PROGRAM: written out, or (GNU) a unique prefix of one.
fn long_opt(program: &Program, name: &str) -> Option<&'static Opt> {
    let opts: &'static [Opt] = program.opts;
    if name.is_empty() {
        return None;
    }
    if let Some(o) = opts.iter().find(|o| o.long == name) {
        return Some(o);
    }
    if program.style != Style::Gnu {
        return None;
    }
    let mut found = opts.iter().filter(|o| o.long.starts_with(name));
    let first = found.next()?;
    // Ambiguous: getopt_long refuses it (unless every match is the same option).
    found.all(|o| o == first).then_some(first)
}

/// The short option CH of PROGRAM (`#` in the table stands for any digit: `head -5`).
fn short_opt(program: &Program, ch: char) -> Option<&'static Opt> {
    let opts: &'static [Opt] = program.opts;
    opts.iter().find(|o| {
        let mut s = o.short.chars();
        match (s.next(), s.next()) {
            (Some('#'), None) => ch.is_ascii_digit(),
            (Some(c), None) => c == ch,
            _ => false,
        }
    })
}

/// Whether WORD is a bundle of known flags only (for [`Style::Loose`]).
fn all_flags(program: &Program, word: &str) -> bool {
    word.len() > 1
        && word[1..]
            .chars()
            .all(|c| short_opt(program, c).is_some_and(|o| o.value == Value::None))
}

/// Read the option word W of PROGRAM into OUT, with ARGS from K the words after it:
/// its value, taken from them where it takes one, and its effect, added to EFFECTS. How
/// many of them it took, and whether it ends the program's options ([`Does::Ends`]).
fn read_option(
    program: &Program,
    w: &str,
    args: &[String],
    k: usize,
    out: &mut Reading,
    effects: &mut Vec<Does>,
) -> (usize, bool) {
    let single = program.style == Style::SingleDash;
    if let Some(long) = w.strip_prefix("--").or(single.then(|| &w[1..])) {
        let (name, glued) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        let found = long_opt(program, long)
            .map(|o| (o, None))
            .or_else(|| long_opt(program, name).map(|o| (o, glued)));
        let Some((o, glued)) = found else {
            out.push(w, Kind::Option, Role::Data);
            out.unknown.push(w.to_string());
            return (0, false);
        };
        out.push(w, Kind::Option, Role::Data);
        let at = out.parts.len();
        let took = take_value(o, glued, args, k, out, true);
        out.note_given(o, at);
        effects.extend(effect(o, out.parts.get(at)));
        return (took, o.does == Does::Ends);
    }
    // A bundle of short options.
    out.push(w, Kind::Option, Role::Data);
    for (at, ch) in w.char_indices().skip(1) {
        let rest = &w[at + ch.len_utf8()..];
        let Some(o) = short_opt(program, ch) else {
            out.unknown.push(format!("-{ch}"));
            break;
        };
        if o.value == Value::None {
            out.note_given(o, out.parts.len());
            effects.extend(effect(o, None));
            continue;
        }
        let glued = (!rest.is_empty()).then_some(rest);
        let at = out.parts.len();
        let took = take_value(o, glued, args, k, out, false);
        out.note_given(o, at);
        effects.extend(effect(o, out.parts.get(at)));
        return (took, o.does == Does::Ends);
    }
    (0, false)
}

fn read_into(program: &Program, args: &[String], out: &mut Reading) {
    let mut operands: Vec<usize> = Vec::new();
    // The options of this level are those noted from here on (a subcommand's are read
    // into the same reading).
    let first_given = out.given.len();
    // The effects of the options given (`grep -r`, `sed -i`), applied at the end.
    let mut effects: Vec<Does> = Vec::new();
    let mut done = false;
    // After `--` no word names a subcommand (`git stash -- PATHSPEC` is `git stash push`).
    let mut ended = false;
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        let style = program.style;
        let dashed = w.len() > 1 && w.starts_with('-');
        if !done && w == "--" {
            out.push(w, Kind::End, Role::Data);
            done = true;
            ended = true;
            continue;
        }
        if !done && dashed && (style != Style::Loose || all_flags(program, w)) {
            let (took, ends) = read_option(program, w, args, k, out, &mut effects);
            k += took;
            done |= ends;
            continue;
        }
        // An operand.
        if !program.subs.is_empty() && operands.is_empty() && !ended {
            match program.sub(w) {
                Some(sub) => {
                    out.push(w, Kind::Subcommand, Role::Data);
                    out.sub = sub.names.first().copied();
                    read_into(sub, args.get(k..).unwrap_or(&[]), out);
                }
                None => {
                    out.push(w, Kind::Subcommand, Role::Data);
                    out.unknown.push(w.clone());
                    effects.clear();
                    // Unknown words: read as paths, the generous reading.
                    for rest in args.get(k..).unwrap_or(&[]) {
                        out.push(rest, Kind::Operand, Role::Read);
                    }
                }
            }
            return;
        }
        if matches!(style, Style::Posix | Style::Loose) {
            done = true;
        }
        // find's operators.
        if style == Style::SingleDash && matches!(w.as_str(), "(" | ")" | "!" | ",") {
            out.push(w, Kind::Option, Role::Data);
            continue;
        }
        let ops = &program.operands;
        if let Some(assign) = ops.assign {
            if let Some((name, value)) = w.split_once('=').filter(|(n, _)| is_name(n)) {
                let role = assign
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or(Role::Data, |(_, r)| *r);
                out.push(w, Kind::Operand, Role::Data);
                out.value(value, role);
                continue;
            }
        }
        let skip_first = ops.unless.iter().any(|u| {
            out.given
                .get(first_given..)
                .unwrap_or(&[])
                .iter()
                .any(|g| g.long == *u || g.short == *u)
        });
        let role = match (operands.len(), ops.first) {
            (0, Some(first)) if !skip_first => first,
            _ => ops.rest,
        };
        if role == Role::Argv {
            let argv: Vec<String> = args.get(k - 1..).unwrap_or(&[]).to_vec();
            for a in &argv {
                out.push(a, Kind::Operand, Role::Argv);
            }
            out.runs.push(Run::Argv(argv));
            break;
        }
        operands.push(out.parts.len());
        out.push(w, Kind::Operand, role);
        out.run(role, w);
    }
    // getopt_long and clap read options anywhere: an option that takes the first
    // operand's role away counts wherever it stands (`grep .env -e x` reads the file
    // `.env`; `jq -n FILE -f` runs FILE; `chmod .env --reference=f` changes `.env`).
    let ops = &program.operands;
    if matches!(program.style, Style::Gnu | Style::Exact) {
        let given = out.given.get(first_given..).unwrap_or(&[]);
        let taken = ops
            .unless
            .iter()
            .any(|u| given.iter().any(|g| g.long == *u || g.short == *u));
        if let (Some(first), Some(&at), true) = (ops.first, operands.first(), taken) {
            if let Some(p) = out.parts.get_mut(at).filter(|p| p.role == first) {
                p.role = ops.rest;
            }
        }
    }
    // The last operand's own role (`cp A B`), set once they are all known.
    if let (Some(last), Some(&at), true) =
        (program.operands.last, operands.last(), operands.len() >= 2)
    {
        if let Some(p) = out.parts.get_mut(at) {
            p.role = last;
        }
    }
    apply(program, &operands, &effects, out);
}

/// The effect of option O given with VALUE (the part its value became, if any), when
/// it has one.
fn effect(o: &Opt, value: Option<&Part>) -> Option<Does> {
    match o.does {
        Does::Nothing => None,
        // A value the program takes abbreviated (GNU argmatch: `grep -d rec` is
        // `recurse`), read generously: any prefix of one of VALUES.
        Does::Operands(_, values) if !values.is_empty() => value
            .filter(|v| {
                v.kind == Kind::Value
                    && !v.text.is_empty()
                    && values.iter().any(|w| w.starts_with(v.text.as_str()))
            })
            .map(|_| o.does),
        does => Some(does),
    }
}

/// Apply the EFFECTS of the options given to the OPERANDS (indexes into OUT's parts) of
/// PROGRAM, and add the operand it works on when the words give none.
fn apply(program: &Program, operands: &[usize], effects: &[Does], out: &mut Reading) {
    let mut implicit = program.operands.implicit;
    // An option that makes the operands lists of names acts last, wherever it is given:
    // `rg --files --hidden` and `rg --hidden --files` list names, read no file.
    let lists = |d: &Does| matches!(d, Does::Operands(Role::List, _));
    let order = effects
        .iter()
        .enumerate()
        .filter(|(_, d)| !lists(d))
        .chain(effects.iter().enumerate().filter(|(_, d)| lists(d)));
    for (k, given) in order {
        // An option that acts when given twice acts once, at its first giving.
        let does = match *given {
            Does::Twice(role) => {
                let times = effects.iter().filter(|d| *d == given).count();
                if times < 2
                    || effects
                        .get(..k)
                        .is_some_and(|before| before.contains(given))
                {
                    continue;
                }
                Does::Operands(role, &[])
            }
            does => does,
        };
        match does {
            Does::Nothing | Does::Twice(_) | Does::Ends => {}
            Does::Operands(role, _) => {
                // The role it changes: a read into a walk, a write into a tree's, a
                // walk into one that sees more (`rg --hidden`, `rg -L`).
                let changes = |from: Role| match role {
                    Role::WriteTree => matches!(from, Role::Write | Role::List | Role::Walk),
                    Role::Walk => matches!(
                        from,
                        Role::Read | Role::WalkVisible | Role::WalkTracked | Role::List
                    ),
                    Role::WalkFollow => {
                        matches!(from, Role::Read | Role::Walk | Role::WalkVisible)
                    }
                    Role::List => matches!(
                        from,
                        Role::Read | Role::Walk | Role::WalkVisible | Role::WalkFollow
                    ),
                    _ => from == Role::Read,
                };
                for &at in operands {
                    if let Some(p) = out.parts.get_mut(at).filter(|p| changes(p.role)) {
                        p.role = role;
                    }
                }
                implicit = match (role, implicit) {
                    // A program that writes a tree works on none it is not given
                    // (`rm -r` alone removes nothing; `xargs rm -rf` removes the names
                    // of its input, not `.`), but for one that works on `.` unless
                    // given a path (`find -delete`).
                    (Role::WriteTree, None) => None,
                    (Role::WriteTree, Some((word, _))) => Some((word, role)),
                    _ => Some((".", role)),
                };
            }
            Does::Beside(template) => {
                let mut dirs: Vec<String> = Vec::new();
                for &at in operands {
                    let Some(p) = out.parts.get_mut(at).filter(|p| p.role.is_path()) else {
                        continue;
                    };
                    p.role = Role::Write;
                    // `-` is standard input: nothing is written beside it.
                    if p.text == "-" {
                        continue;
                    }
                    let beside = match p.text.rsplit_once('/') {
                        Some(("", _)) => format!("/{template}"),
                        Some((dir, _)) => format!("{dir}/{template}"),
                        None => template.to_owned(),
                    };
                    if !dirs.contains(&beside) {
                        dirs.push(beside);
                    }
                }
                for d in dirs {
                    out.push(&d, Kind::Implied, Role::Write);
                }
            }
            Does::Writes(name) => out.push(name, Kind::Implied, Role::Write),
            Does::NamesFromStdin => out.push("-", Kind::Implied, Role::NamesFrom),
        }
    }
    let cwd = |out: &Reading| out.parts.iter().any(|p| p.text == "." && p.role.is_path());
    if program.effects.contains(&Effect::OpensCwd) && !cwd(out) && implicit.is_none() {
        out.push(".", Kind::Implied, Role::Read);
    }
    let Some((word, role)) = implicit else {
        return;
    };
    let operand = operands
        .iter()
        .any(|&at| out.parts.get(at).is_some_and(|p| p.role.is_path()));
    let same = out
        .parts
        .iter()
        .any(|p| p.kind == Kind::Value && p.role == role);
    if !operand && !same {
        out.push(word, Kind::Implied, role);
    } else if program.effects.contains(&Effect::OpensCwd) && !cwd(out) {
        out.push(".", Kind::Implied, Role::Read);
    }
}

/// Read the value of option O (GLUED to its word, if so) from ARGS at K on, into OUT;
/// how many words of ARGS it took. LONG: the option was written long (a required value
/// is then the next word only when nothing is glued; an optional one is never the next
/// word).
fn take_value(
    o: &Opt,
    glued: Option<&str>,
    args: &[String],
    k: usize,
    out: &mut Reading,
    long: bool,
) -> usize {
    match o.value {
        Value::None => {
            if let (Some(_), true) = (glued, long) {
                // `--all=x`: getopt_long refuses it; nothing runs.
                out.unknown.push(format!("--{}=", o.long));
            }
            0
        }
        Value::Optional => {
            if let Some(v) = glued {
                out.value(v, o.role);
            }
            0
        }
        Value::Required => match glued {
            Some(v) => {
                out.value(v, o.role);
                0
            }
            None => match args.get(k) {
                Some(v) => {
                    out.value(v, o.role);
                    1
                }
                None => 0,
            },
        },
        Value::Pair => {
            // A glued first value (`--arg=x`) is not a pair: the program refuses it.
            let (Some(name), Some(v)) = (args.get(k), args.get(k + 1)) else {
                return args.len().saturating_sub(k);
            };
            out.push(name, Kind::Value, Role::Data);
            out.value(v, o.role);
            2
        }
        Value::LeadPair => {
            let (Some(first), Some(v)) = (args.get(k), args.get(k + 1)) else {
                return args.len().saturating_sub(k);
            };
            out.value(first, o.role);
            out.push(v, Kind::Value, Role::Data);
            2
        }
        Value::UntilSemicolon => {
            let mut taken = Vec::new();
            if let Some(v) = glued {
                taken.push(v.to_owned());
            }
            let (more, n) = until_semicolon(args.get(k..).unwrap_or(&[]));
            taken.extend(more);
            for t in &taken {
                out.push(t, Kind::Value, o.role);
            }
            match o.role {
                Role::Argv => out.runs.push(Run::Argv(taken)),
                role => {
                    let text = taken.join(" ");
                    out.run(role, &text);
                }
            }
            n
        }
    }
}

/// NAME is a variable name.
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

#[cfg(test)]
mod tests {
    use super::plain_words;

    /// Only lines every splitter (bat's shell-words, go's `quoted.Split`) reads alike.
    #[test]
    fn plain_words_are_read_alike_by_every_splitter() {
        let words = |t: &str| plain_words(t).map(|w| w.join("|"));
        assert_eq!(words("less -R"), Some("less|-R".into()));
        assert_eq!(words("  cat\t'a b'  \"c d\" "), Some("cat|a b|c d".into()));
        assert_eq!(words("cat ''"), Some("cat|".into()));
        for odd in [
            "cat x;#/../.env",
            "cat #x\n.env",
            "cat 'x'.env",
            "cat a'b c'",
            "cat \"a\"b",
            "cat $HOME",
            "cat ~/x",
            "cat *.md",
            "cat a\\ b",
            "cat 'unclosed",
            "",
            "   ",
        ] {
            assert_eq!(plain_words(odd), None, "{odd:?}");
        }
    }
}
