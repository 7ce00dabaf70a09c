//! The program table: each entry's examples, read through the one option reader, and the
//! checks that keep the table consistent (run when the table "loads": with `cargo test`).

use std::collections::HashMap;

use gptel_rust_hooks::shell::{lookup, read, table, Program, Role, Value};

mod words;
use words::words;

/// Every program with its subcommands.
fn every_program() -> Vec<(&'static Program, String)> {
    fn walk(p: &'static Program, path: String, out: &mut Vec<(&'static Program, String)>) {
        out.push((p, path.clone()));
        for s in p.subs {
            walk(s, format!("{path} {}", s.name()), out);
        }
    }
    let mut out = Vec::new();
    for p in table() {
        walk(p, p.name().to_owned(), &mut out);
    }
    out
}

#[test]
fn examples_read_as_written() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (p, at) in every_program() {
        for e in p.examples {
            count += 1;
            let w = words(e.line);
            let Some(found) = w.first().and_then(|n| lookup(n)) else {
                failures.push(format!("{at}: `{}`: program not found", e.line));
                continue;
            };
            let r = read(found, &w[1..]);
            let paths = r.paths();
            let runs = r.shown_runs();
            let want = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            if paths != e.paths {
                failures.push(format!(
                    "{at}: `{}`: paths {paths:?}, want {:?}",
                    e.line, e.paths
                ));
            }
            if runs != want(e.runs) {
                failures.push(format!(
                    "{at}: `{}`: runs {runs:?}, want {:?}",
                    e.line, e.runs
                ));
            }
            if r.unknown != want(e.unknown) {
                failures.push(format!(
                    "{at}: `{}`: unknown {:?}, want {:?}",
                    e.line, r.unknown, e.unknown
                ));
            }
        }
    }
    assert!(count > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_entry_has_examples() {
    let bare: Vec<String> = table()
        .iter()
        .filter(|p| p.examples.is_empty())
        .map(|p| p.name().to_owned())
        .collect();
    assert!(bare.is_empty(), "entries without examples: {bare:?}");
}

#[test]
fn no_name_in_two_entries() {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    let mut twice = Vec::new();
    for p in table() {
        for n in p.names {
            if let Some(other) = seen.insert(n, p.name()) {
                twice.push(format!("`{n}` in `{other}` and `{}`", p.name()));
            }
        }
    }
    assert!(twice.is_empty(), "{}", twice.join("\n"));
}

#[test]
fn every_name_looks_up_its_entry() {
    for p in table() {
        for n in p.names {
            let found = lookup(n).map(Program::name);
            assert_eq!(found, Some(p.name()), "{n}");
            let path = format!("/usr/bin/{n}");
            assert_eq!(lookup(&path).map(Program::name), Some(p.name()), "{path}");
        }
    }
    assert!(lookup("no-such-program-here").is_none());
}

#[test]
fn options_are_well_formed() {
    let mut bad = Vec::new();
    for (p, at) in every_program() {
        let mut shorts = HashMap::new();
        let mut longs = HashMap::new();
        for o in p.opts {
            let name = format!("{at}: -{} --{}", o.short, o.long);
            if o.short.is_empty() && o.long.is_empty() {
                bad.push(format!("{name}: no name"));
            }
            if o.short.chars().count() > 1 {
                bad.push(format!("{name}: a short option is one letter"));
            }
            // A directory, argv, shell string, code or path has to be given: an option
            // with such a role takes a value.
            if o.value == Value::None && o.role != Role::Data {
                bad.push(format!("{name}: role {:?} without a value", o.role));
            }
            if matches!(o.role, Role::Chdir | Role::Argv | Role::Shell)
                && o.value == Value::Optional
            {
                bad.push(format!("{name}: role {:?} with an optional value", o.role));
            }
            if !o.short.is_empty() && shorts.insert(o.short, ()).is_some() {
                bad.push(format!("{name}: short option twice"));
            }
            if !o.long.is_empty() && longs.insert(o.long, ()).is_some() {
                bad.push(format!("{name}: long option twice"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn runs_nothing_follows_the_roles() {
    let rg = lookup("rg").expect("rg");
    assert!(!rg.runs_nothing(), "rg --pre runs a program");
    let cat = lookup("cat").expect("cat");
    assert!(cat.runs_nothing());
    for p in table() {
        let runs = p.opts.iter().any(|o| o.role.runs());
        assert!(!(runs && p.runs_nothing()), "{}", p.name());
    }
}
