//! Normalizing one simple command: wrappers looked through, builtins that run strings
//! or evaluate names, and the final `SimpleCommand`.
//!
//! Wrappers looked through: `env`, `command`, `builtin`, `exec`, `nohup`, `time`,
//! `timeout`, `nice`, `ionice`, `stdbuf`, `setsid`, `chrt`, `taskset`, `flock`, `chroot`,
//! `unbuffer`, `watch`, `script -c`, `noglob`, `nocorrect`, `busybox`, `toybox`, `xargs`,
//! `find -exec`;
//! privileged: `sudo`, `doas`, `su`, `runuser`, `pkexec`; shells with `-c`: `sh`, `bash`,
//! `dash`, `ash`, `zsh`, `ksh`, `mksh`, ... Every word up to and including the inner
//! command's name must be static, and every option must be known: otherwise the
//! command is opaque, since an unknown option may take the next word as its value.

mod builtins;
mod known;
mod options;
mod piped;
pub(crate) use piped::{redirections_of, Fed};
mod spec;
mod special;

use builtins::final_command;
use spec::*;
use special::*;

use super::state::{note, Cx, FormFacts, Frame, Outer, LONG_FORM, MAX_COPIED};
use super::word::{
    arith_is_literal, as_dash, basename, is_assignable, is_dangerous_var, is_inert_var_name, show,
    unbackslash, Word,
};
use super::{Runs, SimpleCommand};
use std::rc::Rc;

/// Most wrappers looked through in one command.
const MAX_HOPS: usize = 32;

/// What is known about the command being normalized.
#[derive(Clone)]
struct State {
    pub(super) written: Vec<String>,
    pub(super) privileged: bool,
    pub(super) opaque: Option<String>,
    /// Here-documents and here-strings given to the command as standard input.
    pub(super) stdin: Vec<String>,
    /// The forms of the command so far (see [`SimpleCommand::forms`]).
    pub(super) forms: Vec<Vec<String>>,
    /// The form of the first privilege wrapper.
    pub(super) privileged_form: Option<usize>,
    /// The form without inert global options (see [`SimpleCommand::inert_form`]).
    pub(super) inert_form: Option<usize>,
    /// Words of the wrappers looked through that are read as paths.
    pub(super) path_words: Vec<String>,
    /// Why the reading of this command is not certain, if so.
    pub(super) uncertain: Option<String>,
}

impl State {
    /// A privilege wrapper (`sudo`, `doas`, ...) is the current form.
    pub(super) fn privileged_here(&mut self) {
        self.privileged = true;
        if self.privileged_form.is_none() {
            self.privileged_form = Some(self.forms.len().saturating_sub(1));
        }
    }
}

/// A wrapper's word that names a file or directory: an absolute or home-relative
/// path, a relative one with a `/` or a leading `.`, or such a value after `=`.
fn looks_like_path(word: &str) -> bool {
    let value = match word.split_once('=') {
        Some((_, v)) if word.starts_with('-') => v,
        _ => word,
    };
    !value.starts_with('-') && (value.starts_with(['/', '~', '.']) || value.contains('/'))
}

/// [`command`] for WORDS (with its own REDIRECTIONS, see [`Fed`]) whose standard input
/// is the output of FED, the simple command before it in a pipeline, if any: `find ... |
/// xargs CMD` is read as `find ... -exec CMD {} +` too (see [`piped`]).
pub(crate) fn piped_command(
    cx: &mut Cx,
    fr: &Frame,
    fed: Option<&Fed>,
    words: Vec<Word>,
    redirections: &[String],
    hazard: Option<String>,
    stdin: Vec<String>,
) {
    let Some(feed) = fed.and_then(|f| piped::find_feeds(f, &words, redirections)) else {
        return command(cx, fr, words, hazard, stdin);
    };
    let from = cx.out.commands.len();
    let exec: Vec<Word> = feed.exec.iter().map(Word::literal).collect();
    command(cx, fr, exec, None, Vec::new());
    for c in cx.out.commands.iter_mut().skip(from) {
        if c.argv == feed.exec {
            c.names_split = feed.split;
        }
    }
    let xargs: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let outer = cx.names_found.replace(xargs);
    command(cx, fr, words, hazard, stdin);
    cx.names_found = outer;
}

/// Normalize WORDS, a simple command with its assignments removed, and add it to CX.
/// HAZARD: why it is opaque already, if so. STDIN: the here-documents and here-strings
/// it reads, which a shell reading standard input runs.
pub(crate) fn command(
    cx: &mut Cx,
    fr: &Frame,
    words: Vec<Word>,
    hazard: Option<String>,
    stdin: Vec<String>,
) {
    if let Some(o) = &fr.outer {
        let size: usize = o
            .written
            .iter()
            .chain(o.forms.iter().flatten())
            .map(String::len)
            .sum();
        cx.copied += size + words.iter().map(|w| w.text.len()).sum::<usize>();
        if cx.copied > MAX_COPIED {
            cx.truncate(format!(
                "the commands of its strings carry more than {} MB of the outer commands",
                MAX_COPIED >> 20
            ));
            return;
        }
    }
    let written: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let st = match &fr.outer {
        Some(o) => State {
            written: o.written.clone(),
            privileged: o.privileged,
            opaque: hazard,
            stdin,
            forms: o.forms.clone(),
            privileged_form: o.privileged_form,
            inert_form: None,
            path_words: o.paths.clone(),
            uncertain: None,
        },
        None => State {
            forms: vec![written.clone()],
            written,
            privileged: false,
            opaque: hazard,
            stdin,
            privileged_form: None,
            inert_form: None,
            path_words: Vec::new(),
            uncertain: None,
        },
    };
    through(cx, fr, &words, st, 0);
}

/// What a wrapper leaves to run.
enum Step {
    /// The command starts at this index of the wrapper's words.
    Inner(usize),
    /// The wrapper runs no other command: it is the command.
    Itself,
    /// The wrapper is the command, and it is opaque for this reason.
    Opaque(String),
    /// Everything was added already.
    Done,
}

impl From<String> for Step {
    fn from(why: String) -> Step {
        Step::Opaque(why)
    }
}

/// Look through the wrappers at the start of WORDS.
fn through(cx: &mut Cx, fr: &Frame, words: &[Word], mut st: State, hops: usize) {
    let Some(name) = words.first() else {
        return;
    };
    if hops > MAX_HOPS {
        note(&mut st.opaque, format!("more than {MAX_HOPS} wrappers"));
        return emit(cx, words, st);
    }
    if let Some(why) = name_problem(name) {
        note(&mut st.opaque, why);
        return emit(cx, words, st);
    }
    // `./env rm x` may be anything the agent wrote: never allowed, but deny-side rules
    // read it as the program its name says (a deny rule for `rm` under `env` holds).
    if let Some(why) = by_path(&name.text) {
        note(&mut st.opaque, why);
    }
    let base = basename(&name.text);
    let same = st.forms.last().is_some_and(|f| {
        f.len() == words.len()
            && f.first().is_some_and(|n| n == base)
            && f.iter().zip(words).skip(1).all(|(a, w)| *a == w.text)
    });
    if !same {
        let mut form: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
        form[0] = base.to_owned();
        st.forms.push(form);
    }
    let step = wrapper_step(cx, fr, words, &mut st, base, hops);
    match step {
        Step::Inner(n) => match words.get(n..) {
            Some(rest) if !rest.is_empty() => {
                st.path_words.extend(known::wrapper_paths(words, n));
                // `watch -x CMD` and `xargs CMD` run it again and again.
                if matches!(base, "watch" | "xargs") {
                    cx.repeated(Runs::Any, |cx| through(cx, fr, rest, st, hops + 1));
                } else {
                    through(cx, fr, rest, st, hops + 1)
                }
            }
            _ => final_command(cx, fr, words, st, hops),
        },
        Step::Itself => final_command(cx, fr, words, st, hops),
        Step::Opaque(why) => {
            note(&mut st.opaque, why);
            emit(cx, words, st);
        }
        Step::Done => {}
    }
}

/// What the wrapper BASE (the first of WORDS) leaves to run.
fn wrapper_step(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    base: &str,
    hops: usize,
) -> Step {
    match base {
        "env" => env(cx, fr, words, st, hops),
        "command" => simple_wrapper(words, &COMMAND).map_or_else(Step::from, |o| {
            if o.has(&["v", "V"]) {
                Step::Itself
            } else {
                Step::Inner(o.next)
            }
        }),
        "builtin" | "nohup" | "noglob" | "nocorrect" => inner_after(words, &NONE),
        // `time -- CMD`: the parser leaves the `--` of the reserved word `time`. Bash
        // runs a program named `--` anywhere else: never allowed.
        "--" if words.len() > 1 => {
            note(
                &mut st.uncertain,
                "`--` as a command (after `time` it ends its options)",
            );
            Step::Inner(1)
        }
        "exec" => exec(words, st),
        "time" => inner_after(words, &TIME),
        "nice" => inner_after(words, &NICE),
        "stdbuf" => inner_after(words, &STDBUF),
        "setsid" => {
            // `-f`: it forks and does not wait: its command runs beside the line's.
            if simple_wrapper(words, &SETSID).is_ok_and(|o| o.has(&["f", "fork"])) {
                cx.out.concurrent = true;
            }
            inner_after(words, &SETSID)
        }
        // It runs its command on a pseudo-terminal, its input (`-p`) typed as keys
        // (helper-68: `... | unbuffer -p git log` paged through less, which ran a `!CMD`
        // typed in): the command takes itself to be interactive.
        "unbuffer" => {
            note(
                &mut st.uncertain,
                "`unbuffer` runs its command on a terminal (a pager, readline, keys typed in)",
            );
            inner_after(words, &UNBUFFER)
        }
        "timeout" => after_operand(words, &TIMEOUT, &[]),
        "chrt" => after_operand(words, &CHRT, &["p", "pid", "m", "max"]),
        "taskset" => after_operand(words, &TASKSET, &["p", "pid"]),
        "chroot" => chroot(words, st),
        "ionice" => simple_wrapper(words, &IONICE).map_or_else(Step::from, |o| {
            if o.has(&["p", "P", "u", "pid", "pgid", "uid"]) {
                Step::Itself
            } else {
                Step::Inner(o.next)
            }
        }),
        "busybox" | "toybox" => match words.get(1) {
            Some(w) if !w.text.starts_with('-') => {
                if super::shell_named(basename(&w.text)).is_some() {
                    note(
                        &mut st.uncertain,
                        format!("`{base}`'s shell is not the one whose reading is checked"),
                    );
                }
                Step::Inner(1)
            }
            _ => Step::Itself,
        },
        "flock" => flock(cx, fr, words, st),
        "watch" => cx.repeated(Runs::Any, |cx| watch(cx, fr, words, st)),
        "script" => script(cx, fr, words, st),
        "xargs" => cx.repeated(Runs::Any, |cx| xargs(cx, fr, words, st, hops)),
        "find" => {
            find(cx, fr, words, st, hops);
            Step::Done
        }
        name if options::gives_code(name) => {
            options::option_code(cx, fr, words, st, base);
            Step::Itself
        }
        "sudo" => sudo_step(cx, fr, words, st),
        "sudoedit" => {
            st.privileged_here();
            Step::Itself
        }
        "doas" => {
            st.privileged_here();
            doas(words)
        }
        "pkexec" => {
            st.privileged_here();
            match simple_wrapper(words, &PKEXEC) {
                Ok(o) if o.next < words.len() => Step::Inner(o.next),
                Ok(_) => Step::Opaque("`pkexec` without a command starts a shell".into()),
                Err(why) => Step::Opaque(why),
            }
        }
        "su" => {
            st.privileged_here();
            su(cx, fr, words, st, false, hops)
        }
        "runuser" => {
            st.privileged_here();
            su(cx, fr, words, st, true, hops)
        }
        "start-stop-daemon" => start_stop_daemon(cx, fr, words, st, hops),
        "unshare" | "nsenter" => namespaces(words, st),
        "tmux" => tmux(cx, fr, words, st),
        "screen" => screen(words, st),
        "sg" | "newgrp" => {
            st.privileged_here();
            group_shell(cx, fr, words, st)
        }
        b if super::shell_named(b).is_some() => other_shell(cx, fr, words, st, b, hops),
        _ => Step::Itself,
    }
}

/// sudo: privileged; `-b` runs its command in the background, `-R DIR` under another
/// root, and with `-s` or `-i` its words go to a shell (see [`sudo_shell_line`]).
fn sudo_step(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    st.privileged_here();
    // `-b`: its command runs in the background.
    let o = simple_wrapper(words, &SUDO);
    if o.as_ref().is_ok_and(|o| o.has(&["b", "background"])) {
        cx.out.concurrent = true;
    }
    // `-R DIR` (`--chroot`): as `chroot DIR`, its command's paths are below
    // another root (helper-40: `sudo -R /root cat /.ssh/id_rsa`).
    let new_root = o.as_ref().is_ok_and(|o| {
        o.list.iter().any(|(n, v)| {
            matches!(n.as_str(), "R" | "chroot")
                && !v
                    .as_deref()
                    .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c == '/'))
        })
    });
    if new_root {
        note(
            &mut st.opaque,
            "`sudo -R` runs its command under another root directory",
        );
    }
    let step = sudo(cx, fr, words, st);
    // With `-s` or `-i` sudo gives its command to a shell, each character but
    // letters, digits, `_`, `-` and `$` escaped with a backslash: a `$` in a
    // word is expanded there (`sudo -s cat '.env$X'` reads `.env`).
    let shell = o.is_ok_and(|o| o.has(&["s", "shell", "i", "login"]));
    match (step, shell) {
        (Step::Inner(j), true)
            if words
                .get(j..)
                .unwrap_or(&[])
                .iter()
                .any(|w| w.text.contains('$')) =>
        {
            let line = sudo_shell_line(words.get(j..).unwrap_or(&[]));
            shell_string(cx, fr, &line, st);
            Step::Done
        }
        (step, _) => step,
    }
}

/// chroot: its command's paths are below the new root, and the new root's programs
/// run: read exactly only for `/` (it moves there: see `chdir_options`).
fn chroot(words: &[Word], st: &mut State) -> Step {
    match after_operand(words, &CHROOT, &[]) {
        Step::Itself => Step::Opaque("`chroot` without a command starts a shell".into()),
        // Its command's paths are below the new root, and the new root's programs
        // run: read exactly only for `/` (it moves there: see `chdir_options`).
        Step::Inner(n) => {
            let root = n.checked_sub(1).and_then(|k| words.get(k));
            if !root.is_some_and(|r| r.is_static && r.text.chars().all(|c| c == '/')) {
                note(
                    &mut st.opaque,
                    "`chroot` runs its command under another root directory",
                );
            }
            Step::Inner(n)
        }
        s => s,
    }
}

/// A shell, by any of its names (see [`super::shell_named`]): one whose reading is not
/// checked (zsh, ksh, `bash5.2`...) is never certain, and zsh opens its startup files.
fn other_shell(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    base: &str,
    hops: usize,
) -> Step {
    let Some(named) = super::shell_named(base) else {
        return Step::Itself;
    };
    if !named.checked {
        note(
            &mut st.uncertain,
            format!(
                "`{}` is not a shell whose reading is checked (bash, dash)",
                show(base)
            ),
        );
    }
    if named.kind == "zsh" {
        st.path_words.extend(
            super::shells::ZSH_STARTUP_FILES
                .iter()
                .map(|f| f.to_string()),
        );
    }
    shell(cx, fr, words, st, named.kind, hops)
}

/// Why NAME cannot be read as a command name, if so.
fn name_problem(name: &Word) -> Option<String> {
    let t = &name.text;
    if !name.is_static {
        Some(format!("command name `{}` is not static", show(t)))
    } else if name.pattern {
        Some(format!(
            "command name `{}` comes from a glob or brace pattern",
            show(t)
        ))
    } else if t.is_empty() {
        Some("empty command name".into())
    } else if !t.is_ascii() {
        Some(format!(
            "command name `{}` has non-ASCII characters",
            show(t)
        ))
    } else if basename(t).is_empty() {
        Some(format!("command name `{}` ends with `/`", show(t)))
    } else {
        None
    }
}

/// Why the command name T runs a program by a path that may be anything the agent
/// wrote (`./ls`), if it does; `/usr/bin/ls`, `/usr/./bin/ls` and `/bin/../bin/ls` are `ls`.
fn by_path(t: &str) -> Option<String> {
    (t.contains('/') && !in_system_dir(t)).then(|| format!("`{}` runs a program by path", show(t)))
}

/// Directories an agent cannot write to without privileges.
const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/sbin",
    "/usr/bin",
    "/usr/sbin",
    "/usr/local/bin",
    "/usr/local/sbin",
    "/opt/homebrew/bin",
    "/opt/homebrew/sbin",
    "/run/current-system/sw/bin",
];

/// Where directories an agent cannot write to start: a link under one of them (Debian's
/// `/usr/bin/X11 -> .`) is the system's, not the agent's.
const SYSTEM_ROOTS: &[&str] = &[
    "/bin",
    "/sbin",
    "/usr",
    "/opt/homebrew",
    "/run/current-system",
];

/// PATH names a file directly inside a system directory, once its directory is
/// normalized as the kernel reads it: `.` and `//` collapsed, `/proc/self/root` (and
/// `/proc/thread-self/root`, `/proc/PID/root`) read as `/`, and, under a system root,
/// `..` and links resolved through the file system (`/usr/bin/X11/env`, `/usr/bin/../bin/env`).
fn in_system_dir(path: &str) -> bool {
    let Some((dir, _)) = path.rsplit_once('/') else {
        return false;
    };
    if !path.starts_with('/') {
        return false;
    }
    let mut parts: Vec<&str> = dir
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    while let ["proc", who, "root", ..] = parts[..] {
        if !(who == "self" || who == "thread-self" || who.bytes().all(|b| b.is_ascii_digit())) {
            break;
        }
        parts.drain(..3);
    }
    let normal = format!("/{}", parts.join("/"));
    if !parts.contains(&"..") && SYSTEM_DIRS.contains(&normal.as_str()) {
        return true;
    }
    // `..` read lexically too (`/usr/../tmp/x` is not under `/usr`): a link the line
    // may change is never looked through.
    let mut lexical: Vec<&str> = Vec::new();
    for p in &parts {
        if *p == ".." {
            lexical.pop();
        } else {
            lexical.push(p);
        }
    }
    let lexical = format!("/{}", lexical.join("/"));
    let under = |d: &str| {
        SYSTEM_ROOTS
            .iter()
            .any(|r| d == *r || d.starts_with(&format!("{r}/")))
    };
    let under_root = under(&normal) && under(&lexical);
    under_root
        && crate::path::realpath(&normal).is_some_and(|real| SYSTEM_DIRS.contains(&real.as_str()))
}

/// What FORM tells about a command run through it, read once a reading when long.
fn form_facts(cx: &mut Cx, form: &[String]) -> Rc<FormFacts> {
    if let Some(f) = cx.form_facts.get(form) {
        return f.clone();
    }
    let facts = Rc::new(FormFacts {
        dirs: super::chdir_options(form),
        names_from_data: super::names_from_data(form),
        follows: super::follows_links(form),
    });
    if form.len() >= LONG_FORM {
        cx.form_facts.insert(form.to_vec(), facts.clone());
    }
    facts
}

/// Add WORDS as a simple command.
fn emit(cx: &mut Cx, words: &[Word], mut st: State) {
    let mut argv: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    if let (Some(first), Some(w)) = (argv.first_mut(), words.first()) {
        if w.is_static {
            *first = basename(&w.text).to_owned();
        }
    }
    if let Some(why) = st.uncertain.take() {
        cx.uncertain(why);
    }
    // `find -exec git -C {}`, `xargs -I{} env -C {}`: a directory found at run time.
    let facts: Vec<Rc<FormFacts>> = st
        .forms
        .iter()
        .chain([&argv])
        .map(|f| form_facts(cx, f))
        .collect();
    let dirs = facts.iter().flat_map(|f| f.dirs.iter().cloned());
    // (Not the `xargs` whose input is what a `find` before it prints: see [`piped`].)
    let forms = st.forms.iter().chain([&argv]);
    let found = |form: &Vec<String>| cx.names_found.as_ref() == Some(form);
    let from_data = facts
        .iter()
        .zip(forms)
        .find_map(|(f, form)| f.names_from_data.clone().filter(|_| !found(form)));
    if let Some(why) = from_data {
        cx.uncertain(why);
    }
    // Whether it reads through links in the trees it walks: the engine looks there.
    let follows = facts.iter().find_map(|f| f.follows.clone());
    for d in dirs {
        if d.contains("{}") {
            cx.uncertain(format!(
                "`{}` is a directory that `find` or `xargs` names at run time",
                show(&d)
            ));
        } else if !super::values::only_known_parameters(&d) {
            // `tar -C /proc -C $$`, `git -C "$f"`: only the shell knows where it leads.
            cx.uncertain(format!(
                "`{}` is a directory the reading cannot know",
                show(&d)
            ));
        }
    }
    let (program, typed, roles) = if st.opaque.is_none() {
        known::typed_paths(words, &argv)
    } else {
        // Every word, and what the table knows it opens besides (`bind '$include F'`).
        let (_, typed, roles) = known::typed_paths(words, &argv);
        let mut all: Vec<String> = argv.iter().skip(1).cloned().collect();
        let mut seen: std::collections::HashSet<String> = all.iter().cloned().collect();
        all.extend(typed.into_iter().filter(|t| seen.insert(t.clone())));
        (super::Known::Unknown, all, roles)
    };
    // A glob that is data to the program (`echo .*`) names no path; a name it makes
    // that starts with `-` is still looked for (`prepare::words`).
    // (Not for a program that runs the project's code, which may open its data.)
    let data_globs = match program {
        super::Known::Known => known::data_globs(words, &argv),
        _ => Vec::new(),
    };
    let mut paths = st.path_words;
    paths.extend(typed.into_iter().filter(|t| !data_globs.contains(t)));
    let mut forms = st.forms;
    if forms.first() != Some(&st.written) {
        forms.insert(0, st.written.clone());
        st.privileged_form = st.privileged_form.map(|i| i + 1);
        st.inert_form = st.inert_form.map(|i| i + 1);
    }
    if forms.last() != Some(&argv) {
        forms.push(argv.clone());
    }
    cx.push(SimpleCommand {
        argv,
        written: st.written,
        privileged: st.privileged,
        opaque: st.opaque,
        forms,
        privileged_form: st.privileged_form,
        inert_form: st.inert_form,
        paths,
        redirects: Vec::new(),
        program,
        generous: None,
        env_values: Vec::new(),
        roles,
        follows,
        place: None,
        data_globs,
        named_at_run_time: words.first().is_some_and(|w| !w.is_static || w.pattern),
        names_split: false,
    });
}

/// Parse S as a shell command line given to the command in ST.
/// The line sudo gives the shell for `-s`/`-i` and WORDS: each character but letters,
/// digits, `_`, `-` and `$` escaped with a backslash, the words joined by a space.
fn sudo_shell_line(words: &[Word]) -> String {
    let escape = |w: &Word| {
        w.text
            .chars()
            .flat_map(|c| {
                let plain = c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '$');
                (!plain)
                    .then_some('\\')
                    .into_iter()
                    .chain(std::iter::once(c))
            })
            .collect::<String>()
    };
    words.iter().map(escape).collect::<Vec<_>>().join(" ")
}

/// (Whichever shell runs it, its globs are read as bash's and dash's: see
/// [`super::CommandLine::dash_globs`].)
fn shell_string(cx: &mut Cx, fr: &Frame, s: &str, st: &State) {
    cx.out.dash_globs = true;
    let inner = fr.inside(Outer {
        written: st.written.clone(),
        privileged: st.privileged,
        forms: st.forms.clone(),
        privileged_form: st.privileged_form,
        paths: st.path_words.clone(),
    });
    // `find -exec bash -c 'ls {}'`: what made the shell's command uncertain makes
    // its string so.
    if let Some(why) = &st.uncertain {
        cx.uncertain(why.clone());
    }
    let from = cx.out.commands.len();
    cx.read(&inner, s);
    if cx.out.commands.len() == from {
        if let Some(why) = &st.opaque {
            cx.line_opaque(why.clone());
        }
    }
    cx.mark_since(from, &st.opaque);
}

/// Parse S, a string run by `sh` (dash on Debian), as bash reads it and again as dash
/// reads it where the two differ: dash has no `$'...'`, `$"..."` or `&>`, so `sh -c
/// "echo $'a\\'<newline>rm y ..."` runs `rm y`, and `sh -c 'true &>f rm x'` runs `rm x`
/// (`true &`, then `>f rm x`).
fn posix_string(cx: &mut Cx, fr: &Frame, s: &str, st: &State) {
    shell_string(cx, fr, s, st);
    let dash = as_dash(s);
    if dash != s {
        shell_string(cx, fr, &dash, st);
    }
}
