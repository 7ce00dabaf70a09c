//! Wrapper options: what each wrapper knows, and reading its words.

use super::*;

/// The options a wrapper knows. Short options are single characters; `args` take a value
/// (attached or the next word), `opt_args` only an attached one. Long options may be
/// abbreviated, as getopt_long allows. `digits`: `-10` is an option (`nice`).
pub(super) struct Spec {
    pub(super) flags: &'static str,
    pub(super) args: &'static str,
    pub(super) opt_args: &'static str,
    pub(super) long_flags: &'static [&'static str],
    pub(super) long_args: &'static [&'static str],
    pub(super) long_opt_args: &'static [&'static str],
    pub(super) digits: bool,
}

pub(super) const NONE: Spec = Spec {
    flags: "",
    args: "",
    opt_args: "",
    long_flags: &[],
    long_args: &[],
    long_opt_args: &[],
    digits: false,
};
pub(super) const COMMAND: Spec = Spec {
    flags: "pvV",
    ..NONE
};
pub(super) const EXEC: Spec = Spec {
    flags: "cl",
    args: "a",
    ..NONE
};
pub(super) const TIME: Spec = Spec {
    flags: "pavq",
    args: "fo",
    long_flags: &["portability", "append", "verbose", "quiet"],
    long_args: &["format", "output"],
    ..NONE
};
pub(super) const NICE: Spec = Spec {
    args: "n",
    long_args: &["adjustment"],
    digits: true,
    ..NONE
};
pub(super) const STDBUF: Spec = Spec {
    args: "ioe",
    long_args: &["input", "output", "error"],
    ..NONE
};
pub(super) const SETSID: Spec = Spec {
    flags: "cfw",
    long_flags: &["ctty", "fork", "wait"],
    ..NONE
};
pub(super) const UNBUFFER: Spec = Spec { flags: "p", ..NONE };
pub(super) const TIMEOUT: Spec = Spec {
    flags: "vf",
    args: "sk",
    long_flags: &["preserve-status", "foreground", "verbose"],
    long_args: &["signal", "kill-after"],
    ..NONE
};
pub(super) const CHRT: Spec = Spec {
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
pub(super) const TASKSET: Spec = Spec {
    flags: "apc",
    long_flags: &["all-tasks", "pid", "cpu-list"],
    ..NONE
};
pub(super) const CHROOT: Spec = Spec {
    long_flags: &["skip-chdir"],
    long_args: &["userspec", "groups"],
    ..NONE
};
pub(super) const IONICE: Spec = Spec {
    flags: "t",
    args: "cnpPu",
    long_flags: &["ignore"],
    long_args: &["class", "classdata", "pid", "pgid", "uid"],
    ..NONE
};
pub(super) const ENV: Spec = Spec {
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
pub(super) const FLOCK: Spec = Spec {
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
pub(super) const WATCH: Spec = Spec {
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
pub(super) const XARGS: Spec = Spec {
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
pub(super) const SUDO: Spec = Spec {
    flags: "ABbEeHiKklNnPSsVv",
    args: crate::shell::programs::SUDO_VALUED,
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
    long_args: crate::shell::programs::SUDO_LONG_VALUED,
    long_opt_args: &["preserve-env"],
    ..NONE
};
pub(super) const DOAS: Spec = Spec {
    flags: "Lns",
    args: "uC",
    ..NONE
};
pub(super) const PKEXEC: Spec = Spec {
    long_flags: &["disable-internal-agent", "keep-cwd"],
    long_args: &["user"],
    ..NONE
};
// util-linux 2.38: `-E`/`--echo WHEN` takes a value (`-qEnever`).
pub(super) const SCRIPT: Spec = Spec {
    flags: "aefqkVh",
    args: "cBIOTmoE",
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
pub(super) const SU: Spec = Spec {
    flags: "flmpPhV",
    args: crate::shell::programs::SU_VALUED,
    long_flags: &["login", "preserve-environment", "pty", "fast"],
    long_args: crate::shell::programs::SU_LONG_VALUED,
    ..NONE
};

/// Read all of WORDS[1..] as GNU getopt_long does when it permutes (util-linux `su`,
/// `runuser`, `script`): options anywhere before `--`, the operands in order (their
/// indices). Any word that is not static fails: it may be an option.
pub(super) fn permuted(words: &[Word], spec: &Spec) -> Result<(Opts, Vec<usize>), String> {
    let mut list = Vec::new();
    let mut operands = Vec::new();
    let mut j = 1;
    let mut dashes = false;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Err(not_static(words, t));
        }
        if dashes || !t.starts_with('-') || t == "-" {
            operands.push(j);
            j += 1;
        } else if t == "--" {
            dashes = true;
            j += 1;
        } else {
            j = option_word(words, j, spec, &mut list)?;
        }
    }
    Ok((
        Opts {
            list,
            next: words.len(),
        },
        operands,
    ))
}

/// The values an unreadable option list may still give the option SHORT or a long
/// option in LONG (or an abbreviation): read for deny rules when [`permuted`] fails,
/// since an unknown option must not hide a command. Glued values too (`-qcCMD`,
/// `--command=CMD`), and the next word after a cluster that ends with SHORT.
pub(super) fn loose_values(words: &[Word], short: char, long: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let next = |k: usize| words.get(k + 1).map(|w| w.text.clone());
    for (k, w) in words.iter().enumerate().skip(1) {
        let t = w.text.as_str();
        if let Some(l) = t.strip_prefix("--") {
            let (given, inline) = match l.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (l, None),
            };
            if !given.is_empty() && long.iter().any(|n| n.starts_with(given)) {
                out.extend(inline.or_else(|| next(k)));
            }
        } else if let Some(body) = t.strip_prefix('-') {
            if let Some(at) = body.find(short) {
                let rest = body.get(at + short.len_utf8()..).unwrap_or("");
                out.extend(if rest.is_empty() {
                    next(k)
                } else {
                    Some(rest.to_owned())
                });
            }
        }
    }
    out
}

/// Options found: (name, value) in order; `next` indexes the first word after them.
pub(super) struct Opts {
    pub(super) list: Vec<(String, Option<String>)>,
    pub(super) next: usize,
}

impl Opts {
    pub(super) fn has(&self, names: &[&str]) -> bool {
        self.list.iter().any(|(n, _)| names.contains(&n.as_str()))
    }

    pub(super) fn value(&self, names: &[&str]) -> Option<&str> {
        self.list
            .iter()
            .rev()
            .find(|(n, v)| names.contains(&n.as_str()) && v.is_some())
            .and_then(|(_, v)| v.as_deref())
    }
}

/// Why the options of WORDS cannot be read: their argument T is not static.
fn not_static(words: &[Word], t: &str) -> String {
    format!(
        "`{}` argument `{}` is not static",
        show(command_name(words)),
        show(t)
    )
}

/// Scan the options of the wrapper WORDS[0], stopping at the first operand or `--`.
pub(super) fn simple_wrapper(words: &[Word], spec: &Spec) -> Result<Opts, String> {
    let mut list = Vec::new();
    let mut j = 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if !w.is_static {
            return Err(not_static(words, t));
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

pub(super) fn command_name(words: &[Word]) -> &str {
    words.first().map(|w| w.text.as_str()).unwrap_or("")
}

/// Read the option word WORDS[J] (static, starting with `-`) into LIST; the index of the
/// word after it and its value.
pub(super) fn option_word(
    words: &[Word],
    mut j: usize,
    spec: &Spec,
    list: &mut Vec<(String, Option<String>)>,
) -> Result<usize, String> {
    let cmd = command_name(words);
    let t = words.get(j).map(|w| w.text.as_str()).unwrap_or("");
    // `nice -10`, `nice --10` (an adjustment of -10) and `nice -+10`.
    let body = t.get(1..).unwrap_or("");
    let number = body.strip_prefix(['-', '+']).unwrap_or(body);
    if spec.digits && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) {
        list.push(("n".to_owned(), Some(body.to_owned())));
        return Ok(j + 1);
    }
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

pub(super) fn static_value(w: Option<&Word>, option: &str, cmd: &str) -> Result<String, String> {
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
pub(super) enum LongKind {
    Flag,
    Arg,
    OptArg,
}

/// The long option GIVEN names, exactly or as the only one it abbreviates.
pub(super) fn long_option(given: &str, spec: &Spec) -> Option<(&'static str, LongKind)> {
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
pub(super) fn inner_after(words: &[Word], spec: &Spec) -> Step {
    match simple_wrapper(words, spec) {
        Ok(o) => Step::Inner(o.next),
        Err(why) => Step::Opaque(why),
    }
}

/// The command after the wrapper's options and one operand (`timeout DURATION`), unless
/// one of SELF_OPTS makes the wrapper act on its own.
pub(super) fn after_operand(words: &[Word], spec: &Spec, self_opts: &[&str]) -> Step {
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
/// util-linux 2.38 `unshare`: the namespace options take an optional file (`--mount=F`).
pub(super) const UNSHARE: Spec = Spec {
    flags: "imnpuUCTfcrV",
    args: "wRSGl",
    long_flags: &[
        "fork",
        "map-root-user",
        "map-current-user",
        "map-auto",
        "keep-caps",
        "kill-child",
    ],
    long_args: &[
        "wd",
        "root",
        "setuid",
        "setgid",
        "setgroups",
        "propagation",
        "map-user",
        "map-group",
        "map-users",
        "map-groups",
        "load-interp",
        "monotonic",
        "boottime",
    ],
    long_opt_args: &[
        "mount",
        "uts",
        "ipc",
        "net",
        "pid",
        "user",
        "cgroup",
        "time",
        "mount-proc",
    ],
    ..NONE
};
/// util-linux 2.38 `nsenter`: `-m[FILE]`, `-r[DIR]`, `-w[DIR]` take optional glued values.
pub(super) const NSENTER: Spec = Spec {
    flags: "aeFZV",
    args: "tSG",
    opt_args: "muinpUCTrw",
    long_flags: &[
        "all",
        "env",
        "no-fork",
        "follow-context",
        "preserve-credentials",
    ],
    long_args: &["target", "setuid", "setgid", "user-parent"],
    long_opt_args: &[
        "mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "root", "wd",
    ],
    ..NONE
};
