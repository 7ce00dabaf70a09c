//! Wrappers with more to them than options: `env`, `sudo`, `doas`, `su`, `flock`,
//! `watch`, `script`, `xargs`, `find -exec` and the shells.

use super::spec::*;
use super::*;

/// `env [options] [NAME=VALUE]... CMD...`. Each `-S STR` (`--split-string`, bundled,
/// glued or abbreviated) is put in its place as the words STR splits into, and env
/// reads its options again from there (`env -S '-C .. cat x'` is `env -C .. cat x`):
/// such a line is outside the certain subset.
pub(super) fn env(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State, hops: usize) -> Step {
    let mut list = Vec::new();
    let mut j = 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Step::Opaque(format!("`env` argument `{}` is not static", show(t)));
        }
        if t == "--" || !t.starts_with('-') || t == "-" {
            break;
        }
        let from = list.len();
        let next = match option_word(words, j, &ENV, &mut list) {
            Ok(n) => n,
            Err(why) => return Step::Opaque(why),
        };
        let string = list[from..]
            .iter()
            .find(|(n, _)| n == "S" || n == "split-string")
            .and_then(|(_, v)| v.clone());
        if let Some(s) = string {
            note(
                &mut st.uncertain,
                "`env -S` splits a string into words, which may hold more options",
            );
            let mut spliced: Vec<Word> = words.get(..j).unwrap_or(&[]).to_vec();
            // The options bundled before it (`-iS STR`).
            if let Some(head) = t
                .strip_prefix('-')
                .filter(|b| !b.starts_with('-'))
                .and_then(|b| b.split_once('S'))
                .map(|(head, _)| head)
                .filter(|h| !h.is_empty())
            {
                spliced.push(Word::literal(format!("-{head}")));
            }
            spliced.extend(
                crate::shell::programs::env_split_string(&s)
                    .into_iter()
                    .map(|(text, dynamic)| Word {
                        text,
                        is_static: !dynamic,
                        pattern: false,
                    }),
            );
            spliced.extend(words.get(next..).unwrap_or(&[]).iter().cloned());
            through(cx, fr, &spliced, st.clone(), hops + 1);
            return Step::Done;
        }
        j = next;
    }
    let o = match simple_wrapper(words, &ENV) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    let mut j = o.next;
    if words.get(j).is_some_and(|w| w.is_static && w.text == "-") {
        j += 1;
    }
    while let Some(w) = words.get(j) {
        if !w.is_static {
            return Step::Opaque(format!("`env` argument `{}` is not static", show(&w.text)));
        }
        match w.text.split_once('=') {
            Some((name, value)) => {
                note_assignment("env", name, st);
                // `env GIT_CONFIG_VALUE_0='!rm x' ... git q`.
                for code in crate::shell::word::git_config_values(name, value) {
                    shell_string(cx, fr, &code, st);
                }
                j += 1;
            }
            None => break,
        }
    }
    Step::Inner(j)
}

/// An assignment `NAME=...` that the wrapper WHO makes for its command: a name that
/// can change what runs makes it opaque, one outside the certain subset uncertain.
fn note_assignment(who: &str, name: &str, st: &mut State) {
    if is_dangerous_var(name) {
        note(
            &mut st.opaque,
            format!("assignment to `{name}` can change what runs"),
        );
    } else if !is_assignable(name) {
        note(
            &mut st.uncertain,
            format!("`{who}` sets `{name}`, which a program may read"),
        );
    }
}

pub(super) fn sudo(words: &[Word], st: &mut State) -> Step {
    let o = match simple_wrapper(words, &SUDO) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    let help = o.list.iter().any(|(n, v)| n == "h" && v.is_none());
    if help
        || o.has(&[
            "e",
            "edit",
            "l",
            "list",
            "v",
            "validate",
            "V",
            "version",
            "K",
            "remove-timestamp",
            "help",
        ])
    {
        return Step::Itself;
    }
    let mut j = o.next;
    while let Some(w) = words.get(j) {
        if !w.is_static {
            break;
        }
        match w.text.split_once('=') {
            Some((name, _)) if is_inert_var_name(name) || is_dangerous_var(name) => {
                note_assignment("sudo", name, st);
                j += 1;
            }
            _ => break,
        }
    }
    if j >= words.len() {
        return if o.has(&["s", "shell", "i", "login"]) {
            Step::Opaque("`sudo` without a command starts a shell".into())
        } else {
            Step::Itself
        };
    }
    Step::Inner(j)
}

pub(super) fn doas(words: &[Word]) -> Step {
    match simple_wrapper(words, &DOAS) {
        Ok(o) if o.has(&["C", "L"]) => Step::Itself,
        Ok(o) if o.has(&["s"]) || o.next >= words.len() => {
            Step::Opaque("`doas` without a command starts a shell".into())
        }
        Ok(o) => Step::Inner(o.next),
        Err(why) => Step::Opaque(why),
    }
}

/// `su` and `runuser`: options anywhere before `--` (getopt permutes them), the first
/// operand the user, the others (also after `--`) the shell's own arguments: `su root --
/// -ec STR` runs `bash -ec STR`, `su -c STR root x` runs `bash -c STR x`. The shell's
/// argv is read as any shell's. `runuser -u USER CMD...` runs the operands.
pub(super) fn su(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    runuser: bool,
    hops: usize,
) -> Step {
    let cmd = words.first().map(|w| w.text.clone()).unwrap_or_default();
    let (o, operands) = match permuted(words, &SU) {
        Ok(p) => p,
        Err(why) => {
            let strings = loose_values(words, 'c', &["command", "session-command"]);
            return unreadable_with_strings(cx, fr, words, st, why, &strings);
        }
    };
    let has = |names: &[&str]| o.has(names);
    if runuser && has(&["u", "user"]) {
        if has(&[
            "c",
            "command",
            "session-command",
            "s",
            "shell",
            "f",
            "fast",
            "l",
            "login",
        ]) {
            // runuser refuses these with `-u`: nothing runs.
            return Step::Itself;
        }
        let inner: Vec<Word> = operands
            .iter()
            .filter_map(|&k| words.get(k).cloned())
            .collect();
        if inner.is_empty() {
            return Step::Itself;
        }
        through(cx, fr, &inner, st.clone(), hops + 1);
        return Step::Done;
    }
    // The last `-c` wins; a `-` before the user makes a login shell.
    let string = o
        .list
        .iter()
        .rev()
        .find(|(n, _)| matches!(n.as_str(), "c" | "command" | "session-command"))
        .and_then(|(_, v)| v.clone());
    let mut operands = operands.into_iter().peekable();
    let _login = operands.next_if(|&k| words.get(k).is_some_and(|w| w.text == "-"));
    let _user = operands.next();
    let extra: Vec<Word> = operands.filter_map(|k| words.get(k).cloned()).collect();
    // The shell's argv as su builds it: PROGRAM, `-f`, `-c STR`, then the extra operands.
    let su_argv = |program: &str| {
        let mut argv = vec![Word::literal(program)];
        if has(&["f", "fast"]) {
            argv.push(Word::literal("-f"));
        }
        if let Some(s) = &string {
            argv.push(Word::literal("-c"));
            argv.push(Word::literal(s));
        }
        argv.extend(extra.iter().cloned());
        argv
    };
    let mut kind = "bash";
    if let Some(shell) = o
        .list
        .iter()
        .rev()
        .find(|(n, _)| n == "s" || n == "shell")
        .and_then(|(_, v)| v.as_deref())
    {
        let base = basename(shell);
        // `su -s /usr/bin/rm root -- -rf x` runs `rm -rf x`: a program that is not a
        // shell gets the shell's arguments (`-f`, `-c STR`, the extra operands).
        if !SHELLS.contains(&base) {
            note(
                &mut st.opaque,
                format!("`{cmd}` runs `{}` as its shell", show(shell)),
            );
            through(cx, fr, &su_argv(shell), st.clone(), hops + 1);
            return Step::Done;
        }
        if !matches!(base, "sh" | "bash" | "dash") {
            note(
                &mut st.opaque,
                format!("`{cmd}` runs its command in `{}`", show(base)),
            );
        }
        if let Some(known) = SHELLS.iter().find(|s| **s == base) {
            kind = known;
        }
    }
    if string.is_none() && extra.is_empty() {
        // What a here-document or here-string feeds it is read for deny rules.
        note(
            &mut st.opaque,
            format!("`{cmd}` without `-c` starts a shell"),
        );
        emit(cx, words, st.clone());
        for text in std::mem::take(&mut st.stdin) {
            shell_string(cx, fr, &text, st);
        }
        return Step::Done;
    }
    if !extra.is_empty() {
        note(
            &mut st.opaque,
            format!("`{cmd}` passes extra arguments to the shell"),
        );
    }
    match shell(cx, fr, &su_argv(kind), st, kind, hops) {
        // A script file: the shell runs it as the user.
        Step::Itself => Step::Opaque(format!("`{cmd}` runs a script file in a shell")),
        step => step,
    }
}

/// WORDS could not be read for WHY: the command is opaque, and the shell strings its
/// options may still give (STRINGS) are read for deny rules.
fn unreadable_with_strings(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    why: String,
    strings: &[String],
) -> Step {
    if strings.is_empty() {
        return Step::Opaque(why);
    }
    note(&mut st.opaque, why);
    emit(cx, words, st.clone());
    for s in strings {
        posix_string(cx, fr, s, st);
    }
    Step::Done
}

/// `flock [opts] FILE CMD...`, `flock [opts] FILE -c STR`, `flock [opts] FD`.
pub(super) fn flock(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    let o = match simple_wrapper(words, &FLOCK) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    let mut string = o.value(&["c", "command"]).map(str::to_owned);
    let file = o.next;
    match words.get(file) {
        None => return Step::Itself,
        Some(w) if !w.is_static => {
            return Step::Opaque(format!("`flock` operand `{}` is not static", show(&w.text)))
        }
        Some(_) => {}
    }
    if string.is_none() {
        if let Some(w) = words.get(file + 1) {
            if w.is_static && (w.text == "-c" || w.text == "--command") {
                match words.get(file + 2) {
                    Some(s) if s.is_static => string = Some(s.text.clone()),
                    _ => return Step::Opaque("`flock -c` string is not static".into()),
                }
            }
        }
    }
    match string {
        Some(s) => {
            posix_string(cx, fr, &s, st);
            Step::Done
        }
        None if file + 1 < words.len() => Step::Inner(file + 1),
        None => Step::Itself,
    }
}

/// `watch CMD...` runs `sh -c "CMD..."`; `watch -x CMD...` runs CMD.
pub(super) fn watch(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    let o = match simple_wrapper(words, &WATCH) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    if o.has(&["x", "exec"]) {
        return Step::Inner(o.next);
    }
    let rest = words.get(o.next..).unwrap_or(&[]);
    if rest.is_empty() {
        return Step::Itself;
    }
    if let Some(w) = rest.iter().find(|w| !w.is_static) {
        return Step::Opaque(format!(
            "`watch` argument `{}` is not static",
            show(&w.text)
        ));
    }
    let joined: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
    posix_string(cx, fr, &joined.join(" "), st);
    Step::Done
}

/// `script [options] [file]` runs a shell, or `-c STR` in one. Options anywhere before
/// `--` (getopt permutes them); the operand is the file it writes.
pub(super) fn script(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    let (o, operands) = match permuted(words, &SCRIPT) {
        Ok(p) => p,
        Err(why) => {
            let strings = loose_values(words, 'c', &["command"]);
            return unreadable_with_strings(cx, fr, words, st, why, &strings);
        }
    };
    st.path_words.extend(
        operands
            .iter()
            .filter_map(|&k| words.get(k))
            .map(|w| w.text.clone()),
    );
    let string = o
        .list
        .into_iter()
        .rev()
        .find(|(n, _)| n == "c" || n == "command")
        .and_then(|(_, v)| v);
    match string {
        Some(s) => {
            posix_string(cx, fr, &s, st);
            Step::Done
        }
        None => Step::Opaque("`script` without `-c` starts a shell".into()),
    }
}

pub(super) fn xargs(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State, hops: usize) -> Step {
    let o = match simple_wrapper(words, &XARGS) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    // `--process-slot-var=NAME` sets NAME in each command's environment
    // (`BASH_ENV` makes `bash -c` source a file).
    if let Some(name) = o.value(&["process-slot-var"]) {
        if !is_assignable(name) {
            note(
                &mut st.opaque,
                format!(
                    "`xargs --process-slot-var` sets `{}`, which a program may read",
                    show(name)
                ),
            );
        }
    }
    let replace: Option<String> = o
        .list
        .iter()
        .rev()
        .find(|(n, _)| matches!(n.as_str(), "I" | "i" | "replace"))
        .map(|(_, v)| v.clone().unwrap_or_else(|| "{}".to_owned()));
    match words.get(o.next) {
        // With no command xargs runs `echo`.
        None => {
            final_command(cx, fr, &[Word::literal("echo")], st.clone(), hops);
            Step::Done
        }
        Some(name) => match replace {
            Some(r) if !r.is_empty() && name.text.contains(r.as_str()) => {
                Step::Opaque("`xargs` builds the command name from its input".into())
            }
            _ => {
                // GNU xargs puts each input line in place of the string inside a word
                // too (`sh -c 'ls {}'`): the word is data read at run time.
                // Given to a shell, even the whole word may be its script (`sh -c {}`).
                let base = name.text.rsplit('/').next().unwrap_or("");
                let shell = SHELLS.contains(&base);
                let inside = replace.as_deref().filter(|r| !r.is_empty()).and_then(|r| {
                    words
                        .iter()
                        .skip(o.next + 1)
                        .find(|w| (shell || w.text != r) && w.text.contains(r))
                });
                if let Some(w) = inside {
                    note(
                        &mut st.uncertain,
                        format!("`xargs` puts each input line into `{}`", show(&w.text)),
                    );
                }
                // `xargs -I{} sh -c {} <<<'rm x'`: the command again with what a
                // here-document or here-string gives it put in place of the string
                // (the whole text and each line), as without `-I` it is appended.
                if let (Some(r), Some(_)) = (replace.as_deref().filter(|r| !r.is_empty()), inside) {
                    let cmd = words.get(o.next..).unwrap_or(&[]);
                    let items: Vec<String> = st
                        .stdin
                        .iter()
                        .flat_map(|t| {
                            std::iter::once(t.clone()).chain(
                                t.lines()
                                    .take(MAX_XARGS_LINES)
                                    .filter(|l| *l != t.trim_end_matches('\n'))
                                    .map(str::to_owned),
                            )
                        })
                        .collect();
                    let mut spent = 0;
                    for item in items {
                        let given: Vec<Word> = cmd
                            .iter()
                            .map(|w| Word {
                                text: w.text.replace(r, &item),
                                ..w.clone()
                            })
                            .collect();
                        spent += given.iter().map(|w| w.text.len()).sum::<usize>();
                        if spent > MAX_XARGS_GIVEN {
                            cx.truncate(format!(
                                "`xargs -I` makes words of more than {} KB",
                                MAX_XARGS_GIVEN >> 10
                            ));
                            break;
                        }
                        let mut again = st.clone();
                        note(
                            &mut again.opaque,
                            "`xargs` puts its input into the command's words",
                        );
                        again.stdin.clear();
                        through(cx, fr, &given, again, hops + 1);
                    }
                }
                // `xargs -I X git -C X`: a directory read from the input.
                if let Some(r) = replace.as_deref().filter(|r| !r.is_empty()) {
                    let mut form: Vec<String> =
                        words.iter().skip(o.next).map(|w| w.text.clone()).collect();
                    if let Some(first) = form.first_mut() {
                        *first = base.to_owned();
                    }
                    if super::super::chdir_options(&form)
                        .iter()
                        .any(|d| d.contains(r))
                    {
                        note(
                            &mut st.uncertain,
                            format!("`xargs -I {}` names a directory from its input", show(r)),
                        );
                    }
                }
                // A program that runs its arguments as a command (`xargs env`, `xargs
                // nice`, `xargs xargs`), or a shell that runs a script file named by
                // them, may get its command from xargs's input.
                let with_c = words.iter().skip(o.next + 1).any(|w| {
                    w.text.starts_with('-') && !w.text.starts_with("--") && w.text.contains('c')
                });
                if XARGS_RUNNERS.contains(&base) || (SHELLS.contains(&base) && !with_c) {
                    note(
                        &mut st.opaque,
                        format!("`xargs {base}` may take the command it runs from the input"),
                    );
                }
                Step::Inner(o.next)
            }
        },
    }
}

/// Most lines of a here-document given to `xargs -I` read one by one.
const MAX_XARGS_LINES: usize = 64;

/// Most bytes of the words `xargs -I` makes from its input items, all together.
const MAX_XARGS_GIVEN: usize = 256 << 10;

/// Programs that run their arguments as a command.
const XARGS_RUNNERS: &[&str] = &[
    "xargs",
    "env",
    "nice",
    "nohup",
    "timeout",
    "sudo",
    "doas",
    "command",
    "exec",
    "builtin",
    "time",
    "stdbuf",
    "setsid",
    "ionice",
    "chrt",
    "taskset",
    "flock",
    "chroot",
    "unbuffer",
    "runuser",
    "su",
    "watch",
    "strace",
    "ltrace",
    "nsenter",
    "unshare",
    "firejail",
    "busybox",
    "script",
    "parallel",
    "eval",
    "fakeroot",
    "proot",
    "systemd-run",
    "run-parts",
    // Their command or program can come from the input too.
    "find",
    "awk",
    "gawk",
    "mawk",
    "nawk",
    "sed",
    "perl",
    "python",
    "python3",
    "ruby",
    "node",
    "php",
    "lua",
    "tclsh",
    "sg",
    "setpriv",
    "prlimit",
    "numactl",
    "runcon",
    "valgrind",
    "faketime",
    "torsocks",
    "proxychains",
    "proxychains4",
    "xvfb-run",
    "pkexec",
    "dbus-run-session",
    // Options that run a program, which xargs may append from its input
    // (`--use-compress-program=`, `git -c alias.x=!cmd`, `sort --compress-program`,
    // `rsync -e`, `ssh -oProxyCommand=`, `make --eval`, `vim -c '!cmd'`...).
    "tar",
    "gtar",
    "bsdtar",
    "git",
    "sort",
    "rsync",
    "make",
    "gmake",
    "ssh",
    "scp",
    "sftp",
    "zip",
    "rg",
    "less",
    "man",
    "vim",
    "vi",
    "view",
    "ex",
    "nvim",
    "emacs",
    "nano",
    "gdb",
    "sdiff",
    "diff3",
    "hg",
];

/// `find` is a command; each `-exec CMD ... ;` (`-execdir`, `-ok`, `-okdir`, or `+`
/// after `{}`) is another, written as the whole find command.
pub(super) fn find(cx: &mut Cx, fr: &Frame, words: &[Word], st: &State, hops: usize) {
    let mut own = st.clone();
    if let Some(w) = words.iter().find(|w| !w.is_static) {
        note(
            &mut own.opaque,
            format!("`find` argument `{}` is not static", show(&w.text)),
        );
    }
    emit(cx, words, own);
    // The starting points: the words after the options (`-H`, `-L`, `-P`, `-D X`,
    // `-OLEVEL`) up to the first expression word; `.` when none.
    let mut k = 1;
    while let Some(t) = words.get(k).map(|w| w.text.as_str()) {
        match t {
            "-H" | "-L" | "-P" => k += 1,
            "-D" => k += 2,
            _ if t.starts_with("-O") => k += 1,
            _ => break,
        }
    }
    let mut starts: Vec<String> = words
        .iter()
        .skip(k)
        .take_while(|w| !w.text.starts_with('-') && !matches!(w.text.as_str(), "(" | "!" | ","))
        .map(|w| w.text.clone())
        .collect();
    if starts.is_empty() {
        starts.push(".".to_owned());
    }
    let mut execs = 0;
    let mut j = 1;
    while let Some(w) = words.get(j) {
        j += 1;
        // A primary's value is not a primary (`-name -exec`).
        let t = w.text.as_str();
        if FIND_VALUED.contains(&t) || (t.starts_with("-newer") && t.len() == 8) {
            j += 1;
            continue;
        }
        if t == "-fprintf" {
            j += 2;
            continue;
        }
        if !matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
            continue;
        }
        // Each command is read with the whole `find` line: a bound keeps many of
        // them from costing the square of the line.
        execs += 1;
        if execs > MAX_FIND_EXECS {
            cx.truncate(format!("more than {MAX_FIND_EXECS} commands in one `find`"));
            break;
        }
        let start = j;
        let mut end = None;
        while let Some(u) = words.get(j) {
            let prev_braces = j > start && words.get(j - 1).is_some_and(|p| p.text == "{}");
            if u.text == ";" || (u.text == "+" && prev_braces) {
                end = Some(j);
                break;
            }
            j += 1;
        }
        let stop = end.unwrap_or(words.len());
        let segment = words.get(start..stop).unwrap_or(&[]);
        let mut inner = st.clone();
        // `{}` is any file under the starting points (`find .. -exec rm -rf {} +`).
        if segment.iter().any(|u| u.text.contains("{}")) {
            inner.path_words.extend(starts.iter().cloned());
        }
        if matches!(w.text.as_str(), "-execdir" | "-okdir") {
            note(
                &mut inner.uncertain,
                format!(
                    "`find {}` runs its command in each file's directory",
                    w.text
                ),
            );
        }
        // GNU find puts each file's name in place of `{}` inside a word too.
        if let Some(u) = segment
            .iter()
            .find(|u| u.text != "{}" && u.text.contains("{}"))
        {
            note(
                &mut inner.uncertain,
                format!("`find` puts each file's name into `{}`", show(&u.text)),
            );
        }
        if end.is_none() {
            note(
                &mut inner.opaque,
                format!("`find {}` is not terminated", w.text),
            );
        }
        if segment.is_empty() {
            cx.line_opaque(format!("`find {}` without a command", w.text));
        } else {
            through(cx, fr, segment, inner, hops + 1);
        }
        j = stop + 1;
    }
}

/// Most `-exec` (and `-ok`...) commands read in one `find`.
const MAX_FIND_EXECS: usize = 16;

/// The primaries of `find` that take one value (`-newerXY` too).
const FIND_VALUED: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
    "-type",
    "-xtype",
    "-user",
    "-group",
    "-uid",
    "-gid",
    "-perm",
    "-size",
    "-mtime",
    "-atime",
    "-ctime",
    "-mmin",
    "-amin",
    "-cmin",
    "-used",
    "-newer",
    "-anewer",
    "-cnewer",
    "-samefile",
    "-inum",
    "-links",
    "-maxdepth",
    "-mindepth",
    "-printf",
    "-fprint",
    "-fprint0",
    "-fls",
    "-context",
    "-regextype",
    "-files0-from",
    "-fstype",
];

pub(super) const SHELLS: &[&str] = &[
    "sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "ksh93", "mksh", "lksh", "pdksh", "oksh",
    "loksh", "yash", "posh", "fish", "csh", "tcsh",
];

/// Long options of bash and dash that take no value.
pub(super) const SHELL_LONG: &[&str] = &[
    "login",
    "noprofile",
    "norc",
    "posix",
    "restricted",
    "verbose",
    "noediting",
    "debugger",
    "dump-strings",
    "dump-po-strings",
    "pretty-print",
    "help",
    "version",
];

/// A shell: `-c STR` runs STR; otherwise a script file, or standard input.
pub(super) fn shell(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    kind: &str,
    hops: usize,
) -> Step {
    // Debian's `sh` is dash, and its strings are read as dash reads them too.
    let posix = matches!(kind, "sh" | "dash" | "ash" | "posh");
    let mut c = false;
    let mut stdin = false;
    let mut j = 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Step::Opaque(format!("`{kind}` argument `{}` is not static", show(t)));
        }
        if t == "-" || t == "--" {
            j += 1;
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            if matches!(long, "rcfile" | "init-file") {
                let file = words.get(j + 1).map_or("", |w| w.text.as_str());
                note(
                    &mut st.opaque,
                    format!(
                        "`{kind} --{long} {}` runs the commands in that file",
                        show(file)
                    ),
                );
                if !file.is_empty() {
                    st.path_words.push(file.to_owned());
                }
                j += 2;
            } else if long == "login" {
                note(
                    &mut st.opaque,
                    format!("`{kind} --login` runs the profile files first"),
                );
                j += 1;
            } else if SHELL_LONG.contains(&long) {
                j += 1;
            } else {
                return Step::Opaque(format!("unknown option `{}` of `{kind}`", show(t)));
            }
            continue;
        }
        let Some(body) = t.strip_prefix('-').or_else(|| t.strip_prefix('+')) else {
            break;
        };
        if body.is_empty() {
            break;
        }
        // Option letters whose value is the next word (`-o pipefail`, `-O extglob`).
        let mut values = Vec::new();
        for ch in body.chars() {
            match ch {
                'c' => c = true,
                's' => stdin = true,
                // An interactive shell runs ~/.bashrc (or $ENV) first.
                'i' if t.starts_with('-') => {
                    note(
                        &mut st.opaque,
                        format!("`{kind} -i` runs its startup files first"),
                    );
                }
                // A login shell runs ~/.bash_profile or ~/.profile first.
                'l' if t.starts_with('-') => {
                    note(
                        &mut st.opaque,
                        format!("`{kind} -l` runs the profile files first"),
                    );
                }
                'o' | 'O' => values.push(ch),
                'e' | 'u' | 'x' | 'v' | 'n' | 'r' => {}
                // `-k` makes `ls PS4=...` an assignment, `-f` turns globs off, `-B`,
                // `-H`, `-P`, `-a`...: the string would not be read as bash reads it.
                ch if ch.is_ascii_alphabetic() => note(
                    &mut st.opaque,
                    format!("`{kind} -{ch}` changes how its commands are read"),
                ),
                _ => {
                    return Step::Opaque(format!("unknown option `{}` of `{kind}`", show(t)));
                }
            }
        }
        for (k, letter) in values.iter().enumerate() {
            let value = words.get(j + 1 + k).map_or("", |w| w.text.as_str());
            let inert = matches!(
                value,
                "pipefail" | "errexit" | "nounset" | "xtrace" | "verbose"
            );
            if *letter == 'O' || !inert {
                note(
                    &mut st.opaque,
                    format!(
                        "`{kind} -{letter} {}` changes how its commands are read",
                        show(value)
                    ),
                );
            }
        }
        j += 1 + values.len();
    }
    if c {
        let Some(s) = words.get(j) else {
            return Step::Opaque(format!("`{kind} -c` without a command string"));
        };
        if !s.is_static {
            return Step::Opaque(format!(
                "`{kind} -c` string `{}` is not static",
                show(&s.text)
            ));
        }
        match kind {
            "fish" | "csh" | "tcsh" => {
                note(&mut st.opaque, format!("`{kind}` syntax is not read"));
            }
            "zsh" | "ksh" | "ksh93" | "mksh" | "lksh" | "pdksh" | "oksh" | "loksh" | "yash"
                if !plain(&s.text) =>
            {
                note(
                    &mut st.opaque,
                    format!("`{kind}` syntax differs from bash in `{}`", show(&s.text)),
                );
            }
            _ => {}
        }
        // The words after the string are its positional parameters: what `$1` and
        // `$@` hand its commands, so paths of theirs.
        let params: Vec<String> = words.iter().skip(j + 1).map(|w| w.text.clone()).collect();
        st.path_words.extend(params.iter().cloned());
        let from = cx.out.commands.len();
        if posix {
            posix_string(cx, fr, &s.text, st);
        } else {
            shell_string(cx, fr, &s.text, st);
        }
        // For deny rules, the string again with its positional parameters put in
        // (`bash -c '$0 -rf ~' rm`): the line is not certain anyway.
        let given = with_positional(&s.text, &params);
        if given != s.text {
            shell_string(cx, fr, &given, st);
        }
        // A string of no simple command (`x=1`, `[[ ... ]]`): the shell itself ran.
        if cx.out.commands.len() == from {
            emit(cx, words, st.clone());
        }
        return Step::Done;
    }
    if stdin || j >= words.len() {
        // What a here-document or here-string feeds it is read for deny rules.
        note(
            &mut st.opaque,
            format!("`{kind}` reads commands from standard input"),
        );
        emit(cx, words, st.clone());
        for text in std::mem::take(&mut st.stdin) {
            if posix {
                posix_string(cx, fr, &text, st);
            } else {
                shell_string(cx, fr, &text, st);
            }
        }
        return Step::Done;
    }
    // The first operand is a script file (after `--` too: `bash -- -c` runs the file
    // `-c`), and the words after it are its arguments, never options (`bash s -c ls`).
    let Some(file) = words.get(j) else {
        return Step::Itself;
    };
    if !file.is_static || file.text.contains("{}") {
        // `bash -- <(...)`, `find -exec bash {}`: a script chosen at run time.
        return Step::Opaque(format!(
            "`{kind}` runs the script file `{}`, named at run time",
            show(&file.text)
        ));
    }
    if file.pattern {
        // `echo 'rm y' > s; bash [s]`: the script is whatever file the glob matches,
        // which may be one the line wrote.
        note(
            &mut st.uncertain,
            format!(
                "`{kind}` runs the script file `{}`, a glob",
                show(&file.text)
            ),
        );
    } else if let Some(why) = named_before(cx, &file.text) {
        note(&mut st.uncertain, why);
    }
    if !file.text.contains('/') && !file.text.is_empty() {
        // Without a `/`, bash looks NAME up in `PATH` when the directory has no such
        // file (`bash gzexe README.md` runs /usr/bin/gzexe, `bash ldd /bin/ls`): the
        // words from NAME on are then also a command.
        // Programs in `PATH` that are shell scripts have names without a dot (`gzexe`,
        // `ldd`, `zgrep`); a project's scripts have one (`bash probe.sh`).
        if !file.text.contains('.') {
            note(
                &mut st.uncertain,
                format!(
                    "`{kind} {}` runs a script from `PATH` when the directory has no such file",
                    show(&file.text)
                ),
            );
            if let Some(rest) = words.get(j..) {
                let mut inner = st.clone();
                inner.uncertain = None;
                through(cx, fr, rest, inner, hops + 1);
            }
        }
    }
    Step::Itself
}

/// Most words of earlier commands compared with the name of a script file; past it, a
/// command before may have written the script.
const MAX_SCRIPT_LOOKS: usize = 4_096;

/// Why the script file FILE may hold what the line wrote, if so: a command read before
/// names it, as a redirection target or a word (`echo 'rm x' > s; bash s`, `sort -os`),
/// so the line's own data would run as code, as with `echo 'rm x' | bash`.
fn named_before(cx: &Cx, file: &str) -> Option<String> {
    let name = basename(file);
    let names = |w: &String| {
        let Some(head) = w.strip_suffix(name) else {
            return false;
        };
        head.is_empty() || head.ends_with(['/', '=']) || head.starts_with('-')
    };
    let earlier = cx
        .out
        .redirects
        .iter()
        .chain(cx.out.commands.iter().flat_map(|c| &c.paths));
    let mut looked = 0;
    for w in earlier {
        looked += 1;
        if looked > MAX_SCRIPT_LOOKS || (!name.is_empty() && names(w)) {
            return Some(format!(
                "the script file `{}` may be written by the line",
                show(file)
            ));
        }
    }
    None
}

/// Text that zsh and ksh read as bash does: no globs, braces, parentheses, tildes,
/// backslashes, history or `=cmd` expansion.
pub(super) fn plain(s: &str) -> bool {
    let mut word_start = true;
    for c in s.chars() {
        let ok = c.is_ascii_alphanumeric()
            || " \t\n_./,:@%+-'\";|&$".contains(c)
            || (c == '=' && !word_start);
        if !ok {
            return false;
        }
        word_start = c.is_ascii_whitespace() || ";|&".contains(c);
    }
    true
}

/// TEXT with those of `$0`...`$9` (and `${N}`) that PARAMS give made their words, and
/// `$@`, `$*` all of them from `$1` on; at most 64 KB longer.
fn with_positional(text: &str, params: &[String]) -> String {
    if !text.contains('$') || params.is_empty() {
        return text.to_string();
    }
    let mut out = text.to_string();
    if params.len() > 1 {
        let all = params[1..].join(" ");
        for pat in ["${@}", "$@", "${*}", "$*"] {
            out = out.replace(pat, &all);
        }
    }
    // Only those given: `xargs sh -c 'rm $1' _` appends what it reads.
    for (n, value) in params.iter().enumerate().take(10) {
        out = out
            .replace(&format!("${{{n}}}"), value)
            .replace(&format!("${n}"), value);
        if out.len() > text.len() + (64 << 10) {
            return text.to_string();
        }
    }
    out
}

/// `sg [-] GROUP [-c] STR` runs STR with `/bin/sh -c` in the group; `sg [-] GROUP` and
/// `newgrp [-] [GROUP]` start a shell that reads standard input (a here-document or
/// here-string given to them is its script). Privileged, as `su -c` is.
pub(super) fn group_shell(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    let cmd = words.first().map_or("", |w| w.text.as_str());
    let mut j = 1;
    if words.get(j).is_some_and(|w| w.text == "-") {
        j += 1;
    }
    // The group.
    j += 1;
    if words.get(j).is_some_and(|w| w.text == "-c") && words.len() > j + 1 {
        j += 1;
    }
    let string = (basename(cmd) == "sg").then(|| words.get(j)).flatten();
    match string {
        Some(s) if s.is_static => {
            note(
                &mut st.opaque,
                format!("`{}` runs a string in a shell as another group", show(cmd)),
            );
            emit(cx, words, st.clone());
            posix_string(cx, fr, &s.text, st);
        }
        Some(s) => {
            note(
                &mut st.opaque,
                format!("`{}` string `{}` is not static", show(cmd), show(&s.text)),
            );
            emit(cx, words, st.clone());
        }
        None => {
            note(
                &mut st.opaque,
                format!("`{}` starts a shell that reads standard input", show(cmd)),
            );
            emit(cx, words, st.clone());
            for text in std::mem::take(&mut st.stdin) {
                posix_string(cx, fr, &text, st);
            }
        }
    }
    Step::Done
}

/// The value of the option WORDS[K] when it is the short option SHORT (alone at the end
/// of a cluster, or with its value glued) or the long option LONG (or an abbreviation of
/// at least MIN letters, `=VALUE` or the next word); with the index of the word after.
fn option_value(
    words: &[Word],
    k: usize,
    short: char,
    long: &str,
    min: usize,
) -> Option<(String, usize)> {
    let t = words.get(k)?.text.as_str();
    let next = || words.get(k + 1).map(|w| (w.text.clone(), k + 2));
    if let Some(l) = t.strip_prefix("--") {
        let (name, value) = match l.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (l, None),
        };
        if name.len() < min || !long.starts_with(name) {
            return None;
        }
        return match value {
            Some(v) => Some((v.to_owned(), k + 1)),
            None => next(),
        };
    }
    let body = t.strip_prefix('-')?;
    let rest = body.strip_prefix(short)?;
    if rest.is_empty() {
        next()
    } else {
        Some((rest.to_owned(), k + 1))
    }
}

/// `start-stop-daemon --start --exec PROG -- ARGS` (or `--startas PROG`, `-x`, `-a`)
/// runs PROG with ARGS: read for deny rules, never allowed.
pub(super) fn start_stop_daemon(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    hops: usize,
) -> Step {
    let mut program = None;
    let mut startas = None;
    let mut k = 1;
    let mut args: &[Word] = &[];
    while let Some(w) = words.get(k) {
        if w.text == "--" {
            args = words.get(k + 1..).unwrap_or(&[]);
            break;
        }
        if let Some((v, n)) = option_value(words, k, 'a', "startas", 6) {
            startas = Some(v);
            k = n;
        } else if let Some((v, n)) = option_value(words, k, 'x', "exec", 3) {
            program = Some(v);
            k = n;
        } else {
            k += 1;
        }
    }
    let Some(prog) = startas.or(program) else {
        return Step::Itself;
    };
    note(
        &mut st.opaque,
        format!("`start-stop-daemon` runs `{}`", show(&prog)),
    );
    emit(cx, words, st.clone());
    let mut argv = vec![Word::literal(prog)];
    argv.extend(args.iter().cloned());
    through(cx, fr, &argv, st.clone(), hops + 1);
    Step::Done
}

/// `unshare [options] [PROG ARGS...]` and `nsenter [options] [PROG ARGS...]` run PROG
/// (or `$SHELL`) in other namespaces, `--wd DIR` (`-w`) in DIR: looked through for deny
/// rules, never allowed (a namespace may change what paths mean).
pub(super) fn namespaces(words: &[Word], st: &mut State) -> Step {
    let cmd = basename(command_name(words));
    let spec = if cmd == "unshare" { &UNSHARE } else { &NSENTER };
    note(
        &mut st.uncertain,
        format!("`{cmd}` runs its command in other namespaces"),
    );
    match simple_wrapper(words, spec) {
        Ok(o) if o.next < words.len() => Step::Inner(o.next),
        Ok(_) => Step::Opaque(format!("`{cmd}` without a command starts a shell")),
        Err(why) => Step::Opaque(why),
    }
}

/// Read the short options at WORDS[K..] loosely (any letter not in VALUED a flag, those
/// in VALUED taking the rest of the word or the next one; up to `--` or the first word
/// without a dash): the values found, and the index of the first operand.
fn loose_short(words: &[Word], mut k: usize, valued: &str) -> (Vec<(char, String)>, usize) {
    let mut values = Vec::new();
    while let Some(w) = words.get(k) {
        let t = w.text.as_str();
        if t == "--" {
            return (values, k + 1);
        }
        let Some(body) = t.strip_prefix('-').filter(|b| !b.is_empty()) else {
            break;
        };
        k += 1;
        for (at, ch) in body.char_indices() {
            if valued.contains(ch) {
                let rest = &body[at + ch.len_utf8()..];
                if rest.is_empty() {
                    values.extend(words.get(k).map(|w| (ch, w.text.clone())));
                    k += 1;
                } else {
                    values.push((ch, rest.to_owned()));
                }
                break;
            }
        }
    }
    (values, k)
}

/// `tmux [options] COMMAND [flags] [SHELL-COMMAND...] [; COMMAND...]`: `new-session`,
/// `new-window`, `split-window`, `respawn-pane`, `respawn-window`, `run-shell`,
/// `display-popup`, `pipe-pane` run a shell command (one word through `sh -c`, more
/// words directly; `-c DIR` its directory), `if-shell` its first operand, `send-keys`
/// types its keys into a shell, `tmux -c STR` runs STR: each read as a shell string for
/// deny rules, and the line is never allowed.
pub(super) fn tmux(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    let (global, start) = loose_short(words, 1, "cfLST");
    let mut strings: Vec<String> = global
        .into_iter()
        .filter(|(o, _)| *o == 'c')
        .map(|(_, v)| v)
        .collect();
    // The commands, split at `;` words (and words ending with an unescaped `;`).
    let mut commands: Vec<Vec<Word>> = vec![Vec::new()];
    for w in words.get(start..).unwrap_or(&[]) {
        let t = w.text.as_str();
        if t == ";" {
            commands.push(Vec::new());
        } else if let Some(head) = t.strip_suffix(';').filter(|h| !h.ends_with('\\')) {
            if let Some(last) = commands.last_mut() {
                last.push(Word {
                    text: head.to_owned(),
                    ..w.clone()
                });
            }
            commands.push(Vec::new());
        } else if let Some(last) = commands.last_mut() {
            last.push(w.clone());
        }
    }
    let mut unreadable = None;
    for c in &commands {
        let Some(name) = c.first() else { continue };
        let (valued, dir_opt) = match name.text.as_str() {
            "new-session" | "new" => ("cefFnstxy", 'c'),
            "new-window" | "neww" => ("cefFnt", 'c'),
            "split-window" | "splitw" => ("celFpt", 'c'),
            "respawn-pane" | "respawnp" | "respawn-window" | "respawnw" => ("cet", 'c'),
            "run-shell" | "run" => ("cdt", 'c'),
            "display-popup" | "popup" => ("bcdehsStTwxy", 'd'),
            "pipe-pane" | "pipep" => ("t", '\0'),
            "if-shell" | "if" => ("t", '\0'),
            "send-keys" | "send" => ("cNt", '\0'),
            "source-file" | "source" => {
                unreadable = Some("`tmux source-file` runs the commands in a file".to_owned());
                continue;
            }
            _ => continue,
        };
        let (values, at) = loose_short(c, 1, valued);
        let operands = c.get(at..).unwrap_or(&[]);
        if operands.is_empty() {
            continue;
        }
        if let Some(w) = operands.iter().find(|w| !w.is_static) {
            unreadable = Some(format!("`tmux` argument `{}` is not static", show(&w.text)));
        }
        let text = match name.text.as_str() {
            "if-shell" | "if" => {
                unreadable = Some("`tmux if-shell` runs tmux commands".to_owned());
                operands[0].text.clone()
            }
            "send-keys" | "send" => operands
                .iter()
                .map(|w| match w.text.as_str() {
                    "Enter" | "C-m" | "KPEnter" | "C-j" => "\n",
                    t => t,
                })
                .collect::<Vec<_>>()
                .join(" "),
            _ if operands.len() == 1 => operands[0].text.clone(),
            _ => operands
                .iter()
                .map(|w| format!("'{}'", w.text.replace('\'', "'\\''")))
                .collect::<Vec<_>>()
                .join(" "),
        };
        match values.iter().rev().find(|(o, _)| *o == dir_opt) {
            Some((_, dir)) => {
                strings.push(format!("cd '{}' && {text}", dir.replace('\'', "'\\''")))
            }
            None => strings.push(text),
        }
    }
    if strings.is_empty() {
        return match unreadable {
            Some(why) => Step::Opaque(why),
            None => Step::Itself,
        };
    }
    note(
        &mut st.opaque,
        unreadable.unwrap_or_else(|| "`tmux` runs a command in a shell".to_owned()),
    );
    emit(cx, words, st.clone());
    for s in strings {
        posix_string(cx, fr, &s, st);
    }
    Step::Done
}

/// `screen [options] [CMD ARGS...]` runs CMD in a new window (`-X CMD` sends it a
/// screen command): looked through for deny rules, never allowed.
pub(super) fn screen(words: &[Word], st: &mut State) -> Step {
    if words.iter().skip(1).any(|w| {
        matches!(
            w.text.as_str(),
            "-ls" | "-list" | "-wipe" | "-v" | "-version"
        )
    }) {
        return Step::Itself;
    }
    let (values, at) = loose_short(words, 1, "ceghpSsTtX");
    if values.iter().any(|(o, _)| *o == 'X') {
        return Step::Opaque("`screen -X` sends a command to a screen session".into());
    }
    if values.iter().any(|(o, _)| matches!(o, 'c' | 's')) {
        note(&mut st.opaque, "`screen -c` or `-s` names a file it runs");
    }
    note(
        &mut st.uncertain,
        "`screen` runs its command in a new window",
    );
    if at < words.len() {
        Step::Inner(at)
    } else {
        Step::Opaque("`screen` without a command starts a shell".into())
    }
}
