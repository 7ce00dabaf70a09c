//! `xargs`: a command whose last words come from its input.

use super::*;

pub(in crate::shell::wrap) fn xargs(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &mut State,
    hops: usize,
) -> Step {
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
            let mut st = st.clone();
            st.path_words
                .extend(known::wrapper_paths(words, words.len()));
            final_command(cx, fr, &[Word::literal("echo")], st, hops);
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
                let shell = shell_named(base).is_some();
                let inside = replace.as_deref().filter(|r| !r.is_empty()).and_then(|r| {
                    words
                        .iter()
                        .skip(o.next + 1)
                        .find(|w| (shell || w.text != r) && w.text.contains(r))
                });
                // Unless the command takes any word as data (`xargs -I{} echo f{}.txt`).
                let args: Vec<String> = words.iter().skip(1).map(|w| w.text.clone()).collect();
                let data = crate::shell::programs::xargs_gives_data(&args);
                if let Some(w) = inside.filter(|_| !data) {
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
                    if crate::shell::chdir_options(&form)
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
                // (Not where its input is what a `find` before it prints: the reading
                // as `find -exec` reads what the command makes of it, `{}` for each
                // name: see `wrap::piped`.)
                let texts: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
                let found = cx.names_found.as_ref() == Some(&texts);
                let runner =
                    XARGS_RUNNERS.contains(&base) || (shell_named(base).is_some() && !with_c);
                if runner && !found {
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
