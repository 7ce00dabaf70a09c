//! The shells: `bash -c STR`, a script operand, `sh -s` with its input, and the group shells.

use super::*;

/// Long options of bash and dash that take no value.
pub(in crate::shell::wrap) const SHELL_LONG: &[&str] = &[
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
pub(in crate::shell::wrap) fn shell(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    kind: &str,
    hops: usize,
) -> Step {
    // Debian's `sh` is dash, and its strings are read as dash reads them too.
    let posix = matches!(kind, "sh" | "dash" | "ash" | "posh");
    let (c, stdin, j) = match shell_options(words, st, kind) {
        Ok(read) => read,
        Err(step) => return step,
    };
    if c {
        return string_operand(cx, fr, words, st, kind, posix, j);
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
    script_operand(cx, fr, words, st, kind, hops, j)
}

/// The options of the shell KIND in WORDS: whether `-c` and `-s` are given, and the
/// index of the first operand; startup files and options that change the reading are
/// noted in ST.
fn shell_options(words: &[Word], st: &mut State, kind: &str) -> Result<(bool, bool, usize), Step> {
    let mut c = false;
    let mut stdin = false;
    let mut j = 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Err(Step::Opaque(format!(
                "`{kind}` argument `{}` is not static",
                show(t)
            )));
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
                return Err(Step::Opaque(format!(
                    "unknown option `{}` of `{kind}`",
                    show(t)
                )));
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
                    return Err(Step::Opaque(format!(
                        "unknown option `{}` of `{kind}`",
                        show(t)
                    )));
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
    Ok((c, stdin, j))
}

/// `KIND -c STRING [ARGS...]`, the string at WORDS[J]: its commands, read as bash (or
/// dash when POSIX) reads them.
fn string_operand(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    kind: &str,
    posix: bool,
    j: usize,
) -> Step {
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
    Step::Done
}

/// `KIND FILE [ARGS...]`, FILE at WORDS[J]: a script file the shell runs.
fn script_operand(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    kind: &str,
    hops: usize,
    j: usize,
) -> Step {
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
pub(in crate::shell::wrap) fn plain(s: &str) -> bool {
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
pub(in crate::shell::wrap) fn group_shell(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
) -> Step {
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
