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

use super::walk::{note, parse_into, Cx, Frame};
use super::word::{arith_is_literal, basename, is_dangerous_var, is_inert_var_name, show, Word};
use super::SimpleCommand;

/// Most wrappers looked through in one command.
const MAX_HOPS: usize = 32;

/// What is known about the command being normalized.
#[derive(Clone)]
struct State {
    written: Vec<String>,
    privileged: bool,
    opaque: Option<String>,
    /// Here-documents and here-strings given to the command as standard input.
    stdin: Vec<String>,
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
    let (written, privileged) = match &fr.outer {
        Some(o) => (o.written.clone(), o.privileged),
        None => (words.iter().map(|w| w.text.clone()).collect(), false),
    };
    let st = State {
        written,
        privileged,
        opaque: hazard,
        stdin,
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
    let base = basename(&name.text);
    let step = match base {
        "env" => env(cx, fr, words, &mut st, hops),
        "command" => simple_wrapper(words, &COMMAND).map_or_else(Step::from, |o| {
            if o.has(&["v", "V"]) {
                Step::Itself
            } else {
                Step::Inner(o.next)
            }
        }),
        "builtin" | "nohup" | "noglob" | "nocorrect" => inner_after(words, &NONE),
        "exec" => inner_after(words, &EXEC),
        "time" => inner_after(words, &TIME),
        "nice" => inner_after(words, &NICE),
        "stdbuf" => inner_after(words, &STDBUF),
        "setsid" => inner_after(words, &SETSID),
        "unbuffer" => inner_after(words, &UNBUFFER),
        "timeout" => after_operand(words, &TIMEOUT, &[]),
        "chrt" => after_operand(words, &CHRT, &["p", "pid", "m", "max"]),
        "taskset" => after_operand(words, &TASKSET, &["p", "pid"]),
        "chroot" => match after_operand(words, &CHROOT, &[]) {
            Step::Itself => Step::Opaque("`chroot` without a command starts a shell".into()),
            s => s,
        },
        "ionice" => simple_wrapper(words, &IONICE).map_or_else(Step::from, |o| {
            if o.has(&["p", "P", "u", "pid", "pgid", "uid"]) {
                Step::Itself
            } else {
                Step::Inner(o.next)
            }
        }),
        "busybox" | "toybox" => match words.get(1) {
            Some(w) if !w.text.starts_with('-') => Step::Inner(1),
            _ => Step::Itself,
        },
        "flock" => flock(cx, fr, words, &mut st),
        "watch" => watch(cx, fr, words, &mut st),
        "script" => script(cx, fr, words, &mut st),
        "xargs" => xargs(cx, fr, words, &mut st),
        "find" => {
            find(cx, fr, words, &st, hops);
            Step::Done
        }
        "sudo" => {
            st.privileged = true;
            sudo(words, &mut st)
        }
        "sudoedit" => {
            st.privileged = true;
            Step::Itself
        }
        "doas" => {
            st.privileged = true;
            doas(words)
        }
        "pkexec" => {
            st.privileged = true;
            match simple_wrapper(words, &PKEXEC) {
                Ok(o) if o.next < words.len() => Step::Inner(o.next),
                Ok(_) => Step::Opaque("`pkexec` without a command starts a shell".into()),
                Err(why) => Step::Opaque(why),
            }
        }
        "su" => {
            st.privileged = true;
            su(cx, fr, words, &mut st, false)
        }
        "runuser" => {
            st.privileged = true;
            su(cx, fr, words, &mut st, true)
        }
        b if SHELLS.contains(&b) => shell(cx, fr, words, &mut st, b),
        _ => Step::Itself,
    };
    match step {
        Step::Inner(n) => match words.get(n..) {
            Some(rest) if !rest.is_empty() => through(cx, fr, rest, st, hops + 1),
            _ => final_command(cx, fr, words, st),
        },
        Step::Itself => final_command(cx, fr, words, st),
        Step::Opaque(why) => {
            note(&mut st.opaque, why);
            emit(cx, words, st);
        }
        Step::Done => {}
    }
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
    } else if t.contains('/') && !in_system_dir(t) {
        // `./ls` may be anything the agent wrote; `/usr/bin/ls` is `ls`.
        Some(format!("`{}` runs a program by path", show(t)))
    } else {
        None
    }
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

/// PATH names a file directly inside a system directory.
fn in_system_dir(path: &str) -> bool {
    let Some((dir, _)) = path.rsplit_once('/') else {
        return false;
    };
    let parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    if !path.starts_with('/') || parts.iter().any(|p| *p == "." || *p == "..") {
        return false;
    }
    let normal = format!("/{}", parts.join("/"));
    SYSTEM_DIRS.contains(&normal.as_str())
}

/// Add WORDS as a simple command.
fn emit(cx: &mut Cx, words: &[Word], st: State) {
    let mut argv: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    if let (Some(first), Some(w)) = (argv.first_mut(), words.first()) {
        if w.is_static {
            *first = basename(&w.text).to_owned();
        }
    }
    cx.push(SimpleCommand {
        argv,
        written: st.written,
        privileged: st.privileged,
        opaque: st.opaque,
    });
}

/// Parse S as a shell command line given to the command in ST.
fn shell_string(cx: &mut Cx, fr: &Frame, s: &str, st: &State) {
    let inner = fr.inside(st.written.clone(), st.privileged);
    let from = cx.out.commands.len();
    parse_into(cx, &inner, s);
    if cx.out.commands.len() == from {
        if let Some(why) = &st.opaque {
            cx.line_opaque(why.clone());
        }
    }
    cx.mark_since(from, &st.opaque);
}

// ---------------------------------------------------------------------------------------
// Options.

/// The options a wrapper knows. Short options are single characters; `args` take a value
/// (attached or the next word), `opt_args` only an attached one. Long options may be
/// abbreviated, as getopt_long allows. `digits`: `-10` is an option (`nice`).
struct Spec {
    flags: &'static str,
    args: &'static str,
    opt_args: &'static str,
    long_flags: &'static [&'static str],
    long_args: &'static [&'static str],
    long_opt_args: &'static [&'static str],
    digits: bool,
}

const NONE: Spec = Spec {
    flags: "",
    args: "",
    opt_args: "",
    long_flags: &[],
    long_args: &[],
    long_opt_args: &[],
    digits: false,
};
const COMMAND: Spec = Spec {
    flags: "pvV",
    ..NONE
};
const EXEC: Spec = Spec {
    flags: "cl",
    args: "a",
    ..NONE
};
const TIME: Spec = Spec {
    flags: "pavq",
    args: "fo",
    long_flags: &["portability", "append", "verbose", "quiet"],
    long_args: &["format", "output"],
    ..NONE
};
const NICE: Spec = Spec {
    args: "n",
    long_args: &["adjustment"],
    digits: true,
    ..NONE
};
const STDBUF: Spec = Spec {
    args: "ioe",
    long_args: &["input", "output", "error"],
    ..NONE
};
const SETSID: Spec = Spec {
    flags: "cfw",
    long_flags: &["ctty", "fork", "wait"],
    ..NONE
};
const UNBUFFER: Spec = Spec { flags: "p", ..NONE };
const TIMEOUT: Spec = Spec {
    flags: "vf",
    args: "sk",
    long_flags: &["preserve-status", "foreground", "verbose"],
    long_args: &["signal", "kill-after"],
    ..NONE
};
const CHRT: Spec = Spec {
    flags: "abdefioprRvm",
    args: "TPD",
    long_flags: &[
        "all-tasks",
        "batch",
        "deadline",
        "ext",
        "fifo",
        "idle",
        "other",
        "pid",
        "rr",
        "reset-on-fork",
        "verbose",
        "max",
    ],
    long_args: &["sched-runtime", "sched-period", "sched-deadline"],
    ..NONE
};
const TASKSET: Spec = Spec {
    flags: "apc",
    long_flags: &["all-tasks", "pid", "cpu-list"],
    ..NONE
};
const CHROOT: Spec = Spec {
    long_flags: &["skip-chdir"],
    long_args: &["userspec", "groups"],
    ..NONE
};
const IONICE: Spec = Spec {
    flags: "t",
    args: "cnpPu",
    long_flags: &["ignore"],
    long_args: &["class", "classdata", "pid", "pgid", "uid"],
    ..NONE
};
const ENV: Spec = Spec {
    flags: "iv0",
    args: "uCSa",
    long_flags: &[
        "ignore-environment",
        "null",
        "debug",
        "list-signal-handling",
    ],
    long_args: &["unset", "chdir", "split-string", "argv0"],
    long_opt_args: &["block-signal", "default-signal", "ignore-signal"],
    ..NONE
};
const FLOCK: Spec = Spec {
    flags: "sexnuoF",
    args: "wEc",
    long_flags: &[
        "shared",
        "exclusive",
        "unlock",
        "nonblock",
        "nb",
        "close",
        "no-fork",
        "verbose",
    ],
    long_args: &["timeout", "wait", "conflict-exit-code", "command"],
    ..NONE
};
const WATCH: Spec = Spec {
    flags: "bcCdegprtwx",
    args: "nqs",
    long_flags: &[
        "beep", "color", "no-color", "errexit", "chgexit", "precise", "no-rerun", "no-title",
        "no-wrap", "exec",
    ],
    long_args: &["interval", "equexit", "shotsdir"],
    long_opt_args: &["differences"],
    ..NONE
};
const XARGS: Spec = Spec {
    flags: "0prtxo",
    args: "aEdILnPs",
    opt_args: "eil",
    long_flags: &[
        "null",
        "interactive",
        "no-run-if-empty",
        "verbose",
        "exit",
        "show-limits",
        "open-tty",
    ],
    long_args: &[
        "arg-file",
        "delimiter",
        "max-args",
        "max-procs",
        "max-chars",
        "process-slot-var",
    ],
    long_opt_args: &["eof", "replace", "max-lines"],
    ..NONE
};
const SUDO: Spec = Spec {
    flags: "ABbEeHiKklNnPSsVv",
    args: "aCcDgpRrTtUu",
    opt_args: "h",
    long_flags: &[
        "askpass",
        "background",
        "bell",
        "edit",
        "set-home",
        "login",
        "remove-timestamp",
        "reset-timestamp",
        "list",
        "non-interactive",
        "preserve-groups",
        "shell",
        "stdin",
        "validate",
        "no-update",
    ],
    long_args: &[
        "auth-type",
        "close-from",
        "login-class",
        "chdir",
        "group",
        "host",
        "prompt",
        "chroot",
        "role",
        "type",
        "command-timeout",
        "other-user",
        "user",
    ],
    long_opt_args: &["preserve-env"],
    ..NONE
};
const DOAS: Spec = Spec {
    flags: "Lns",
    args: "uC",
    ..NONE
};
const PKEXEC: Spec = Spec {
    long_flags: &["disable-internal-agent", "keep-cwd"],
    long_args: &["user"],
    ..NONE
};
const SCRIPT: Spec = Spec {
    flags: "aefqkE",
    args: "cBIOTmo",
    opt_args: "t",
    long_flags: &["append", "return", "flush", "force", "quiet"],
    long_args: &[
        "command",
        "log-io",
        "log-in",
        "log-out",
        "log-timing",
        "logging-format",
        "echo",
        "output-limit",
    ],
    long_opt_args: &["timing"],
    ..NONE
};
const SU: Spec = Spec {
    flags: "flmpPhV",
    args: "cgGswu",
    long_flags: &["login", "preserve-environment", "pty", "fast"],
    long_args: &[
        "command",
        "session-command",
        "shell",
        "group",
        "supp-group",
        "whitelist-environment",
        "user",
    ],
    ..NONE
};

/// Options found: (name, value) in order; `next` indexes the first word after them.
struct Opts {
    list: Vec<(String, Option<String>)>,
    next: usize,
}

impl Opts {
    fn has(&self, names: &[&str]) -> bool {
        self.list.iter().any(|(n, _)| names.contains(&n.as_str()))
    }

    fn value(&self, names: &[&str]) -> Option<&str> {
        self.list
            .iter()
            .rev()
            .find(|(n, v)| names.contains(&n.as_str()) && v.is_some())
            .and_then(|(_, v)| v.as_deref())
    }
}

/// Scan the options of the wrapper WORDS[0], stopping at the first operand or `--`.
fn simple_wrapper(words: &[Word], spec: &Spec) -> Result<Opts, String> {
    let mut list = Vec::new();
    let mut j = 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Err(format!(
                "`{}` argument `{}` is not static",
                show(command_name(words)),
                show(t)
            ));
        }
        if t == "--" {
            j += 1;
            break;
        }
        if !t.starts_with('-') || t == "-" {
            break;
        }
        j = option_word(words, j, spec, &mut list)?;
    }
    Ok(Opts { list, next: j })
}

fn command_name(words: &[Word]) -> &str {
    words.first().map(|w| w.text.as_str()).unwrap_or("")
}

/// Read the option word WORDS[J] (static, starting with `-`) into LIST; the index of the
/// word after it and its value.
fn option_word(
    words: &[Word],
    mut j: usize,
    spec: &Spec,
    list: &mut Vec<(String, Option<String>)>,
) -> Result<usize, String> {
    let cmd = command_name(words);
    let t = words.get(j).map(|w| w.text.as_str()).unwrap_or("");
    if let Some(long) = t.strip_prefix("--") {
        let (given, inline) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        let (name, kind) = long_option(given, spec)
            .ok_or_else(|| format!("unknown option `{}` of `{}`", show(t), show(cmd)))?;
        let value = match (kind, inline) {
            (LongKind::Flag, Some(_)) => {
                return Err(format!(
                    "option `{}` of `{}` takes no value",
                    show(t),
                    show(cmd)
                ))
            }
            (LongKind::Flag, None) | (LongKind::OptArg, None) => None,
            (_, Some(v)) => Some(v.to_owned()),
            (LongKind::Arg, None) => {
                j += 1;
                Some(static_value(words.get(j), t, cmd)?)
            }
        };
        list.push((name.to_owned(), value));
        return Ok(j + 1);
    }
    let body = t.get(1..).unwrap_or("");
    if spec.digits && !body.is_empty() && body.chars().all(|c| c.is_ascii_digit()) {
        list.push(("n".to_owned(), Some(body.to_owned())));
        return Ok(j + 1);
    }
    for (k, ch) in body.char_indices() {
        let rest = body.get(k + ch.len_utf8()..).unwrap_or("");
        if spec.flags.contains(ch) {
            list.push((ch.to_string(), None));
        } else if spec.args.contains(ch) {
            let value = if rest.is_empty() {
                j += 1;
                static_value(words.get(j), t, cmd)?
            } else {
                rest.to_owned()
            };
            list.push((ch.to_string(), Some(value)));
            break;
        } else if spec.opt_args.contains(ch) {
            let value = (!rest.is_empty()).then(|| rest.to_owned());
            list.push((ch.to_string(), value));
            break;
        } else {
            return Err(format!("unknown option `-{ch}` of `{}`", show(cmd)));
        }
    }
    Ok(j + 1)
}

fn static_value(w: Option<&Word>, option: &str, cmd: &str) -> Result<String, String> {
    match w {
        Some(w) if w.is_static => Ok(w.text.clone()),
        Some(w) => Err(format!(
            "value `{}` of `{}` is not static",
            show(&w.text),
            show(option)
        )),
        None => Err(format!(
            "option `{}` of `{}` needs a value",
            show(option),
            show(cmd)
        )),
    }
}

#[derive(Clone, Copy)]
enum LongKind {
    Flag,
    Arg,
    OptArg,
}

/// The long option GIVEN names, exactly or as the only one it abbreviates.
fn long_option(given: &str, spec: &Spec) -> Option<(&'static str, LongKind)> {
    let all = spec
        .long_flags
        .iter()
        .chain(&["help", "version"])
        .map(|n| (*n, LongKind::Flag))
        .chain(spec.long_args.iter().map(|n| (*n, LongKind::Arg)))
        .chain(spec.long_opt_args.iter().map(|n| (*n, LongKind::OptArg)));
    let mut found = None;
    let mut count = 0;
    for (name, kind) in all {
        if name == given {
            return Some((name, kind));
        }
        if !given.is_empty() && name.starts_with(given) {
            found = Some((name, kind));
            count += 1;
        }
    }
    if count == 1 {
        found
    } else {
        None
    }
}

/// The command after the wrapper's options.
fn inner_after(words: &[Word], spec: &Spec) -> Step {
    match simple_wrapper(words, spec) {
        Ok(o) => Step::Inner(o.next),
        Err(why) => Step::Opaque(why),
    }
}

/// The command after the wrapper's options and one operand (`timeout DURATION`), unless
/// one of SELF_OPTS makes the wrapper act on its own.
fn after_operand(words: &[Word], spec: &Spec, self_opts: &[&str]) -> Step {
    match simple_wrapper(words, spec) {
        Ok(o) if o.has(self_opts) => Step::Itself,
        Ok(o) => match words.get(o.next) {
            Some(w) if !w.is_static => Step::Opaque(format!(
                "`{}` operand `{}` is not static",
                show(command_name(words)),
                show(&w.text)
            )),
            Some(_) if o.next + 1 < words.len() => Step::Inner(o.next + 1),
            _ => Step::Itself,
        },
        Err(why) => Step::Opaque(why),
    }
}

// ---------------------------------------------------------------------------------------
// Wrappers with more to them.

fn env(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State, hops: usize) -> Step {
    let o = match simple_wrapper(words, &ENV) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    if let Some(s) = o.value(&["S", "split-string"]) {
        // `env -S STR` splits STR into words, which may hold more options.
        if s.contains(['\\', '$', '\'', '"', '#', '`']) {
            return Step::Opaque("`env -S` string with quotes or escapes".into());
        }
        let mut next: Vec<Word> = words.iter().take(1).cloned().collect();
        next.extend(s.split_ascii_whitespace().map(Word::literal));
        next.extend(words.iter().skip(o.next).cloned());
        through(cx, fr, &next, st.clone(), hops + 1);
        return Step::Done;
    }
    let mut j = o.next;
    if words.get(j).is_some_and(|w| w.is_static && w.text == "-") {
        j += 1;
    }
    while let Some(w) = words.get(j) {
        if !w.is_static {
            return Step::Opaque(format!("`env` argument `{}` is not static", show(&w.text)));
        }
        match w.text.split_once('=') {
            Some((name, _)) => {
                if is_dangerous_var(name) {
                    note(
                        &mut st.opaque,
                        format!("assignment to `{name}` can change what runs"),
                    );
                }
                j += 1;
            }
            None => break,
        }
    }
    Step::Inner(j)
}

fn sudo(words: &[Word], st: &mut State) -> Step {
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
                if is_dangerous_var(name) {
                    note(
                        &mut st.opaque,
                        format!("assignment to `{name}` can change what runs"),
                    );
                }
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

fn doas(words: &[Word]) -> Step {
    match simple_wrapper(words, &DOAS) {
        Ok(o) if o.has(&["C", "L"]) => Step::Itself,
        Ok(o) if o.has(&["s"]) || o.next >= words.len() => {
            Step::Opaque("`doas` without a command starts a shell".into())
        }
        Ok(o) => Step::Inner(o.next),
        Err(why) => Step::Opaque(why),
    }
}

/// `su` and `runuser`: options anywhere (getopt permutes them), `-c STR` runs STR in a
/// shell, operands after the user go to that shell. `runuser -u USER CMD...` runs CMD.
fn su(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State, runuser: bool) -> Step {
    let cmd = words.first().map(|w| w.text.clone()).unwrap_or_default();
    if runuser {
        match simple_wrapper(words, &SU) {
            Ok(o) if o.has(&["u", "user"]) && !o.has(&["c", "command", "session-command"]) => {
                return Step::Inner(o.next)
            }
            Ok(_) => {}
            Err(why) => return Step::Opaque(why),
        }
    }
    let mut strings: Vec<String> = Vec::new();
    let mut operands = 0;
    let mut j = 1;
    let mut after_dashes = false;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Step::Opaque(format!("`{cmd}` argument `{}` is not static", show(t)));
        }
        if after_dashes || t == "-" || !t.starts_with('-') {
            if t != "-" {
                operands += 1;
            }
            j += 1;
            continue;
        }
        if t == "--" {
            after_dashes = true;
            j += 1;
            continue;
        }
        let mut list = Vec::new();
        j = match option_word(words, j, &SU, &mut list) {
            Ok(next) => next,
            Err(why) => return Step::Opaque(why),
        };
        for (n, v) in list {
            match n.as_str() {
                "c" | "command" | "session-command" => strings.extend(v),
                "s" | "shell" => {
                    let shell = v.as_deref().map(basename).unwrap_or("");
                    if !matches!(shell, "sh" | "bash" | "dash") {
                        note(
                            &mut st.opaque,
                            format!("`{cmd}` runs its command in `{}`", show(shell)),
                        );
                    }
                }
                _ => {}
            }
        }
    }
    if operands > 1 {
        return Step::Opaque(format!("`{cmd}` passes extra arguments to the shell"));
    }
    if strings.is_empty() {
        return Step::Opaque(format!("`{cmd}` without `-c` starts a shell"));
    }
    for s in &strings {
        shell_string(cx, fr, s, st);
    }
    Step::Done
}

/// `flock [opts] FILE CMD...`, `flock [opts] FILE -c STR`, `flock [opts] FD`.
fn flock(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
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
            shell_string(cx, fr, &s, st);
            Step::Done
        }
        None if file + 1 < words.len() => Step::Inner(file + 1),
        None => Step::Itself,
    }
}

/// `watch CMD...` runs `sh -c "CMD..."`; `watch -x CMD...` runs CMD.
fn watch(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
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
    shell_string(cx, fr, &joined.join(" "), st);
    Step::Done
}

/// `script [options] [file]` runs a shell, or `-c STR` in one.
fn script(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    let mut j = 1;
    let mut string = None;
    while let Some(w) = words.get(j) {
        if !w.is_static {
            return Step::Opaque(format!(
                "`script` argument `{}` is not static",
                show(&w.text)
            ));
        }
        if !w.text.starts_with('-') || w.text == "-" {
            j += 1;
            continue;
        }
        let mut list = Vec::new();
        j = match option_word(words, j, &SCRIPT, &mut list) {
            Ok(next) => next,
            Err(why) => return Step::Opaque(why),
        };
        if let Some(v) = list
            .into_iter()
            .filter(|(n, _)| n == "c" || n == "command")
            .find_map(|(_, v)| v)
        {
            string = Some(v);
        }
    }
    match string {
        Some(s) => {
            shell_string(cx, fr, &s, st);
            Step::Done
        }
        None => Step::Opaque("`script` without `-c` starts a shell".into()),
    }
}

fn xargs(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State) -> Step {
    let o = match simple_wrapper(words, &XARGS) {
        Ok(o) => o,
        Err(why) => return Step::Opaque(why),
    };
    let replace: Option<String> = o
        .list
        .iter()
        .rev()
        .find(|(n, _)| matches!(n.as_str(), "I" | "i" | "replace"))
        .map(|(_, v)| v.clone().unwrap_or_else(|| "{}".to_owned()));
    match words.get(o.next) {
        // With no command xargs runs `echo`.
        None => {
            final_command(cx, fr, &[Word::literal("echo")], st.clone());
            Step::Done
        }
        Some(name) => match replace {
            Some(r) if !r.is_empty() && name.text.contains(r.as_str()) => {
                Step::Opaque("`xargs` builds the command name from its input".into())
            }
            _ => Step::Inner(o.next),
        },
    }
}

/// `find` is a command; each `-exec CMD ... ;` (`-execdir`, `-ok`, `-okdir`, or `+`
/// after `{}`) is another, written as the whole find command.
fn find(cx: &mut Cx, fr: &Frame, words: &[Word], st: &State, hops: usize) {
    let mut own = st.clone();
    if let Some(w) = words.iter().find(|w| !w.is_static) {
        note(
            &mut own.opaque,
            format!("`find` argument `{}` is not static", show(&w.text)),
        );
    }
    emit(cx, words, own);
    let mut j = 1;
    while let Some(w) = words.get(j) {
        j += 1;
        if !matches!(w.text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            continue;
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

const SHELLS: &[&str] = &[
    "sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "ksh93", "mksh", "lksh", "pdksh", "oksh",
    "loksh", "yash", "posh", "fish", "csh", "tcsh",
];

/// Long options of bash and dash that take no value.
const SHELL_LONG: &[&str] = &[
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
fn shell(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State, kind: &str) -> Step {
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
                j += 2;
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
        let mut values = 0;
        for ch in body.chars() {
            match ch {
                'c' => c = true,
                's' => stdin = true,
                'o' | 'O' => values += 1,
                ch if ch.is_ascii_alphabetic() => {}
                _ => {
                    return Step::Opaque(format!("unknown option `{}` of `{kind}`", show(t)));
                }
            }
        }
        j += 1 + values;
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
        shell_string(cx, fr, &s.text, st);
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
            shell_string(cx, fr, &text, st);
        }
        return Step::Done;
    }
    Step::Itself
}

/// Text that zsh and ksh read as bash does: no globs, braces, parentheses, tildes,
/// backslashes, history or `=cmd` expansion.
fn plain(s: &str) -> bool {
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

// ---------------------------------------------------------------------------------------
// The command itself.

/// The command after all wrappers: builtins that run strings or evaluate variable names.
fn final_command(cx: &mut Cx, fr: &Frame, words: &[Word], mut st: State) {
    let base = words.first().map(|w| basename(&w.text)).unwrap_or("");
    let args = words.get(1..).unwrap_or(&[]);
    let mut strings: Vec<String> = Vec::new();
    match base {
        "eval" => {
            note(&mut st.opaque, "`eval` runs a string built at run time");
            if args.iter().all(|w| w.is_static) {
                let parts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                strings.push(parts.join(" "));
            }
        }
        "source" | "." => note(
            &mut st.opaque,
            format!("`{base}` runs the commands in a file"),
        ),
        "alias" => {
            for w in args {
                if let Some((_, value)) = w.text.split_once('=') {
                    note(&mut st.opaque, "an alias changes what a command name runs");
                    strings.push(value.to_owned());
                }
            }
        }
        "trap" => {
            let (_, operands) = builtin_args(args, "", &mut st);
            if let (Some(action), true) = (operands.first(), operands.len() > 1) {
                if !action.is_static {
                    note(
                        &mut st.opaque,
                        format!("`trap` action `{}` is not static", show(&action.text)),
                    );
                } else if action.text != "-" {
                    strings.push(action.text.clone());
                }
            }
        }
        "mapfile" | "readarray" => {
            let (values, operands) = builtin_args(args, "CcdnOsu", &mut st);
            if values.iter().any(|(o, _)| *o == 'C') {
                note(&mut st.opaque, format!("`{base} -C` runs a callback"));
            }
            check_names(&operands, base, &mut st);
        }
        "hash" if has_option_letter(args, 'p') => {
            note(&mut st.opaque, "`hash -p` changes what a command name runs");
        }
        "enable" if has_option_letter(args, 'f') => {
            note(&mut st.opaque, "`enable -f` loads code into the shell");
        }
        "fc" => note(&mut st.opaque, "`fc` runs commands from history"),
        "let" => {
            for w in args {
                if !(w.is_static && arith_is_literal(&w.text)) {
                    note(
                        &mut st.opaque,
                        format!("arithmetic `{}` may run commands", show(&w.text)),
                    );
                }
            }
        }
        "declare" | "typeset" | "local" | "readonly" | "export" => {
            let (_, operands) = builtin_args(args, "", &mut st);
            let attribute_opts = args
                .iter()
                .filter(|w| w.text.starts_with(['-', '+']))
                .any(|w| w.text.contains(['i', 'n']));
            if attribute_opts && matches!(base, "declare" | "typeset" | "local") {
                note(
                    &mut st.opaque,
                    format!("`{base} -i` or `-n` makes later assignments evaluate code"),
                );
            }
            for w in &operands {
                let name = w.text.split('=').next().unwrap_or("").trim_end_matches('+');
                if is_dangerous_var(name) {
                    note(
                        &mut st.opaque,
                        format!("assignment to `{name}` can change what runs"),
                    );
                }
            }
            check_names(&operands, base, &mut st);
        }
        "read" => {
            let (values, operands) = builtin_args(args, "adinNptu", &mut st);
            let named: Vec<Word> = values
                .into_iter()
                .filter(|(o, _)| *o == 'a')
                .map(|(_, w)| w)
                .chain(operands)
                .collect();
            check_names(&named, base, &mut st);
        }
        "unset" => {
            let (_, operands) = builtin_args(args, "", &mut st);
            check_names(&operands, base, &mut st);
        }
        "printf" | "wait" => {
            let (values, _) = builtin_args(args, if base == "printf" { "v" } else { "p" }, &mut st);
            let named: Vec<Word> = values.into_iter().map(|(_, w)| w).collect();
            check_names(&named, base, &mut st);
        }
        "getopts" => {
            let (_, operands) = builtin_args(args, "", &mut st);
            check_names(operands.get(1..2).unwrap_or(&[]), base, &mut st);
        }
        "test" | "[" => {
            for pair in args.windows(2) {
                if let [op, name] = pair {
                    if op.text == "-v" || op.text == "-R" {
                        check_names(std::slice::from_ref(name), base, &mut st);
                    }
                }
            }
        }
        _ => {}
    }
    let outer = st.clone();
    emit(cx, words, st);
    for s in strings {
        shell_string(cx, fr, &s, &outer);
    }
}

/// Some word of ARGS is an option cluster holding LETTER.
fn has_option_letter(args: &[Word], letter: char) -> bool {
    args.iter()
        .any(|w| w.text.starts_with('-') && w.text.contains(letter))
}

/// Split a builtin's ARGS into option values (for the options in WITH_VALUE) and
/// operands. A non-static option word makes ST opaque.
fn builtin_args(args: &[Word], with_value: &str, st: &mut State) -> (Vec<(char, Word)>, Vec<Word>) {
    let mut values = Vec::new();
    let mut operands = Vec::new();
    let mut j = 0;
    let mut options_done = false;
    while let Some(w) = args.get(j) {
        j += 1;
        let t = w.text.as_str();
        if options_done || !(t.starts_with('-') || t.starts_with('+')) || t == "-" {
            options_done = true;
            operands.push(w.clone());
            continue;
        }
        if !w.is_static {
            note(
                &mut st.opaque,
                format!("builtin option `{}` is not static", show(t)),
            );
            continue;
        }
        if t == "--" {
            options_done = true;
            continue;
        }
        let body = t.get(1..).unwrap_or("");
        for (k, ch) in body.char_indices() {
            if with_value.contains(ch) {
                let rest = body.get(k + ch.len_utf8()..).unwrap_or("");
                if !rest.is_empty() {
                    values.push((ch, Word::literal(rest)));
                } else if let Some(v) = args.get(j) {
                    values.push((ch, v.clone()));
                    j += 1;
                }
                break;
            }
        }
    }
    (values, operands)
}

/// Variable names given to builtin CMD: `a[$(cmd)]` or `$x` there makes bash evaluate
/// code.
fn check_names(names: &[Word], cmd: &str, st: &mut State) {
    for w in names {
        // The part before `=` shows expansions as written, so `$x` and `a[$i]` fail.
        let name = w.text.split('=').next().unwrap_or("").trim_end_matches('+');
        if !is_inert_var_name(name) {
            note(
                &mut st.opaque,
                format!("`{cmd}` variable name `{}` may run commands", show(&w.text)),
            );
        }
    }
}
