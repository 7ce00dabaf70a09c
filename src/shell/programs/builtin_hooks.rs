//! What the table's data cannot say of bash's builtins: `read -e` starts readline,
//! `fc` runs stored commands, `history` reads and writes files or stores a command,
//! and `bind`'s lines include files.

use super::Role::*;

/// `read -e` reads its line with readline when its input is a terminal, and readline
/// first reads `~/.inputrc` (or `$INPUTRC`, then `/etc/inputrc`), following each
/// `$include` and printing every line it cannot read in its errors (helper-66: an earlier
/// call's `$include .env` in `~/.inputrc` printed `.env`): files the reading does not
/// know, so the line is never certain.
pub(super) fn read_line_editing(r: &mut super::Reading) {
    if r.given.iter().any(|g| g.short == "e") {
        r.runs.push(super::Run::Starts(
            "readline, which reads `~/.inputrc` (or `$INPUTRC`) and the files it `$include`s"
                .into(),
        ));
    }
}

/// `fc` runs commands from the history: with `-s` (or `-e -`) again at once, each
/// `OLD=NEW` operand replacing the first OLD in the command (helper-66: `history -s ls
/// x; fc -s ls=rm` runs `rm x`), so NEW is read as a command for deny rules; else,
/// but with `-l`, in an editor (`-e`'s, a command of the line; or `$FCEDIT`, `$EDITOR`,
/// `vi`), running what it saves.
pub(super) fn fc_runs(r: &mut super::Reading) {
    use super::Run;
    let has = |l: &str| r.given.iter().any(|g| g.short == l);
    let editor = r.given.iter().find(|g| g.short == "e");
    let again = has("s") || editor.is_some_and(|g| g.value.as_deref() == Some("-"));
    if again {
        // `-e -` is no editor.
        r.runs.retain(|x| *x != Run::Argv(vec!["-".into()]));
        for p in &mut r.parts {
            if p.kind == super::Kind::Value && p.role == Argv && p.text == "-" {
                p.role = Data;
            }
        }
    }
    if has("l") && !again {
        return;
    }
    if again {
        let news: Vec<String> = r
            .parts
            .iter()
            .filter(|p| p.kind == super::Kind::Operand)
            .filter_map(|p| Some(p.text.split_once('=')?.1.to_owned()))
            .filter(|new| !new.is_empty())
            .collect();
        r.runs.extend(news.into_iter().map(Run::Hidden));
        r.runs.push(Run::Starts("commands from the history".into()));
    } else if editor.is_none() {
        r.runs.push(Run::Starts(
            "the editor `$FCEDIT` or `$EDITOR` (or `vi`), on commands from the history, which it then runs".into(),
        ));
    }
}

/// `history`'s operand is the file `-n`/`-r` read or `-a`/`-w` write; with `-s` its
/// operands, joined, are a command line `fc` runs (helper-64: `history -s rm -rf x; fc
/// -s` runs `rm`): read as a shell string.
pub(super) fn history_file(r: &mut super::Reading) {
    let has = |l: &str| r.given.iter().any(|g| g.short == l);
    if has("s") {
        let words: Vec<&str> = r
            .parts
            .iter()
            .filter(|p| p.kind == super::Kind::Operand)
            .map(|p| p.text.as_str())
            .collect();
        let line = words.join(" ");
        r.runs.push(super::Run::Shell(line));
        return;
    }
    let role = if has("r") || has("n") {
        Read
    } else if has("a") || has("w") {
        Write
    } else {
        return;
    };
    let mut beside = Vec::new();
    for p in &mut r.parts {
        if p.kind == super::Kind::Operand {
            p.role = role;
            beside.push(format!("{}-*.tmp", p.text));
        }
    }
    // `-w` over a file that is there writes `FILE-PID.tmp` and renames it over it.
    if role == Write {
        for text in beside {
            r.parts.push(super::Part {
                text,
                kind: super::Kind::Implied,
                role: Write,
            });
        }
    }
}

/// `bind`'s operands are lines of an init file: `$include FILE` (in any case, blanks
/// after `$` allowed) opens
/// FILE, `~` expanded by readline; the file `-f` reads may hold such lines, so it names
/// the files bind opens too.
pub(super) fn bind_includes(r: &mut super::Reading) {
    let mut more = Vec::new();
    for p in &r.parts {
        // readline takes blanks after the `$` too (`$ include F`).
        let directive = p.text.trim_start().strip_prefix('$').map(str::trim_start);
        let file = directive.and_then(|d| {
            let (word, rest) = (d.get(..7)?, d.get(7..)?);
            // The directive ends at a blank (`$include.env` is an unknown one).
            let ends = rest.is_empty() || rest.starts_with([' ', '\t']);
            (ends && word.eq_ignore_ascii_case("include")).then(|| rest.trim())
        });
        match p.kind {
            super::Kind::Operand if file.is_some_and(|f| !f.is_empty()) => {
                more.push((file.unwrap_or_default().to_string(), Read));
            }
            super::Kind::Value if p.role == Read => more.push((p.text.clone(), NamesFrom)),
            _ => {}
        }
    }
    for (text, role) in more {
        r.parts.push(super::Part {
            text,
            kind: super::Kind::Implied,
            role,
        });
    }
}
