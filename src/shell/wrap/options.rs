//! Options that give a program a command to run: tar's `-I PROG`, git's `-c
//! alias.x=!CMD` and the like. Such a command is read as a shell string for deny rules,
//! and the line is never allowed.

use super::*;

/// Whether the program NAME (a basename) has options that give it a command to run,
/// which [`option_code`] reads.
pub(super) fn gives_code(name: &str) -> bool {
    matches!(name, "tar" | "git")
}

/// The commands that options of `tar` and `git` (NAME) give them to run, read as shell
/// strings (for deny rules; the command is never allowed): tar's `-I PROG`,
/// `--use-compress-program`, `--checkpoint-action=exec=CMD`, `--to-command`,
/// `--rsh-command`, `-F`/`--info-script`, `--new-volume-script`; git's `-c KEY=VALUE`
/// and `--config-env` before the subcommand (`alias.x=!CMD`, `core.sshCommand`,
/// `core.pager`, ...: any value may be a command).
pub(super) fn option_code(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State, name: &str) {
    let mut code: Vec<String> = Vec::new();
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        let next = words.get(i + 1).map(|w| w.text.clone());
        if name == "git" {
            if !t.starts_with('-') || t == "--" {
                break;
            }
            if t == "-c" || t == "--config-env" {
                code.extend(next);
                i += 2;
                continue;
            }
            if let Some(v) = t
                .strip_prefix("-c")
                .or_else(|| t.strip_prefix("--config-env="))
            {
                code.push(v.to_string());
            }
            // Options that take the next word.
            if matches!(
                t,
                "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--exec-path"
            ) {
                i += 1;
            }
            i += 1;
            continue;
        }
        const LONG: &[&str] = &[
            "--use-compress-program",
            "--checkpoint-action",
            "--to-command",
            "--rsh-command",
            "--info-script",
            "--new-volume-script",
        ];
        if LONG
            .iter()
            .any(|l| t == *l || t.starts_with(&format!("{l}=")))
        {
            match t.split_once('=') {
                Some((_, v)) => code.push(v.to_string()),
                None => code.extend(next),
            }
        } else if t.starts_with('-') && !t.starts_with("--") {
            // A short cluster: what follows `I` or `F` is the program, or the next word.
            if let Some(k) = t.find(['I', 'F']) {
                let v = &t[k + 1..];
                if v.is_empty() {
                    code.extend(next);
                } else {
                    code.push(v.to_string());
                }
            }
        }
        i += 1;
    }
    for c in code {
        let c = c.strip_prefix("exec=").unwrap_or(&c);
        let c = c
            .split_once('=')
            .filter(|_| name == "git")
            .map_or(c, |(_, v)| v);
        let c = c.strip_prefix('!').unwrap_or(c);
        note(
            &mut st.uncertain,
            format!("`{name}` is given a command to run (`{}`)", show(c)),
        );
        shell_string(cx, fr, c, st);
    }
}
