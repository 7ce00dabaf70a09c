//! The invocations made of each table entry: from its examples, and from its options
//! and operand roles, filled by role.

use super::words::words;
use gptel_rust_hooks::shell::{table, Program, Role, Value, Verified};
use std::collections::BTreeSet;
use std::path::Path;

#[derive(Debug, Clone)]
pub(crate) struct Invocation {
    /// The entry (`git log` for a subcommand).
    pub(crate) entry: String,
    /// The words, program name first.
    pub(crate) words: Vec<String>,
    /// From an example of the entry (else generated).
    pub(crate) example: bool,
}

impl Invocation {
    pub(crate) fn line(&self) -> String {
        self.words
            .iter()
            .map(|w| quote(w))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// An invocation of LINE (plain words, quotes allowed).
    pub(crate) fn of(entry: &str, line: &str) -> Invocation {
        Invocation {
            entry: entry.to_string(),
            words: words(line),
            example: false,
        }
    }
}

/// W quoted for bash when it needs it.
pub(crate) fn quote(w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%~^".contains(c))
        && !w.starts_with('~')
        || w.starts_with("~/")
            && w[2..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A word for a value or operand of ROLE, or None when no generic word fits (code).
pub(crate) fn word_for(role: Role) -> Option<Vec<String>> {
    let w = match role {
        Role::Data => "1",
        Role::DataFile => "@f2",
        Role::Form => "x=@f2",
        Role::Read => "f2",
        Role::Write => "out1",
        Role::Walk
        | Role::WalkFollow
        | Role::WalkVisible
        | Role::List
        | Role::WalkTracked
        | Role::ShowTracked
        | Role::WalkUnignored
        | Role::WriteTracked
        | Role::Chdir
        | Role::WriteTree => "d1",
        Role::NamesFrom => "names.txt",
        Role::Pattern => "TODO",
        Role::SkipName
        | Role::SkipDir
        | Role::OnlyName
        | Role::OnlyNameAnyCase
        | Role::NameGlob => "*.txt",
        Role::FileType => "f",
        Role::Extension => "txt",
        Role::TypeName => "txt",
        Role::Url => "http://127.0.0.1:9/x",
        Role::Date => "2020-01-02 03:04",
        Role::WriteCommit => "HEAD",
        Role::Argv => "echo",
        Role::Shell | Role::Words => "echo hi",
        Role::Code | Role::Hidden => return None,
    };
    Some(vec![w.to_string()])
}

/// The operands of PROGRAM, filled by role; FIRST_TAKEN when an option took the first
/// operand's place.
pub(crate) fn operands(p: &Program, first_taken: bool) -> Option<Vec<String>> {
    let ops = &p.operands;
    let mut out = Vec::new();
    if let (Some(first), false) = (ops.first, first_taken) {
        out.extend(word_for(first)?);
    }
    if ops.rest != Role::Data || ops.first.is_none() {
        out.extend(word_for(ops.rest)?);
    }
    if let Some(last) = ops.last {
        out.extend(word_for(last)?);
    }
    Some(out)
}

/// Every invocation of PROGRAM (at PREFIX: its name, then subcommand names).
pub(crate) fn invocations_of(
    p: &'static Program,
    prefix: &[String],
    entry: &str,
    out: &mut Vec<Invocation>,
) {
    let push = |words: Vec<String>, example: bool, out: &mut Vec<Invocation>| {
        out.push(Invocation {
            entry: entry.to_string(),
            words,
            example,
        })
    };
    for e in p.examples {
        push(words(e.line), true, out);
    }
    if let Some(ops) = operands(p, false) {
        push([prefix.to_vec(), ops].concat(), false, out);
    }
    for o in p.opts {
        let taken = p
            .operands
            .unless
            .iter()
            .any(|u| *u == o.short || *u == o.long);
        let Some(ops) = operands(p, taken) else {
            continue;
        };
        let value = match o.value {
            Value::None => Some(Vec::new()),
            Value::Pair => word_for(o.role).map(|v| [vec!["x".to_string()], v].concat()),
            _ => word_for(o.role),
        };
        let Some(mut value) = value else {
            continue;
        };
        if o.value == Value::UntilSemicolon {
            value.push(";".into());
        }
        let mut spellings: Vec<Vec<String>> = Vec::new();
        if !o.long.is_empty() {
            spellings.push(match (o.value, value.as_slice()) {
                (Value::None, _) => vec![format!("--{}", o.long)],
                (Value::Optional, [v]) => vec![format!("--{}={v}", o.long)],
                _ => [vec![format!("--{}", o.long)], value.clone()].concat(),
            });
        }
        if !o.short.is_empty() {
            spellings.push(match (o.value, value.as_slice()) {
                (Value::None, _) => vec![format!("-{}", o.short)],
                (Value::Optional, [v]) => vec![format!("-{}{v}", o.short)],
                _ => [vec![format!("-{}", o.short)], value.clone()].concat(),
            });
        }
        for s in spellings {
            push([prefix.to_vec(), s, ops.clone()].concat(), false, out);
        }
    }
    for s in p.subs {
        let mut pre = prefix.to_vec();
        pre.push(s.name().to_string());
        invocations_of(s, &pre, &format!("{entry} {}", s.name()), out);
    }
}

/// Where a program of the table is installed, by any of its names; or the name of a
/// builtin of bash (`cd`, `export`), which bash runs itself.
pub(crate) fn installed(p: &Program) -> Option<String> {
    for n in p.names {
        for d in ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            let path = format!("{d}/{n}");
            if Path::new(&path).exists() {
                return Some(n.to_string());
            }
        }
    }
    p.names
        .iter()
        .find(|n| bash_builtins().contains(**n))
        .map(|n| n.to_string())
}

/// The builtins of bash (`compgen -b`).
pub(crate) fn bash_builtins() -> &'static BTreeSet<String> {
    static BUILTINS: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    BUILTINS.get_or_init(|| {
        let out = std::process::Command::new("/bin/bash")
            .args(["-c", "compgen -b"])
            .output()
            .expect("run bash");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    })
}

/// Every invocation of every installed entry; and the entries not installed.
pub(crate) fn invocations() -> (Vec<Invocation>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for p in table() {
        if let Verified::Not(_) = p.verified {
            continue;
        }
        let Some(name) = installed(p) else {
            missing.push(p.name().to_string());
            continue;
        };
        let before = out.len();
        invocations_of(p, std::slice::from_ref(&name), p.name(), &mut out);
        // Examples are written with the entry's first name: run the installed one.
        for inv in &mut out[before..] {
            if inv
                .words
                .first()
                .is_some_and(|w| p.names.contains(&w.as_str()))
            {
                inv.words[0] = name.clone();
            }
        }
    }
    (out, missing)
}
