//! The names a `find` hands to an `xargs` that splits them again (`find . -name '*.rs'
//! | xargs grep x`, read as `find ... -exec grep x {} +`: see
//! [`shell::SimpleCommand::names_split`]): xargs cuts a name at blanks and takes quotes
//! and backslashes as its own, so `./k .env` is `./k` and `.env`, and `./x -rf` hands
//! `rm` an option. The trees find walks are looked through, bounded: a name there with
//! such a character (or a byte past ASCII, which a locale may read as a blank) makes
//! the command uncertain, as does a tree too large to look through. The look is of the
//! trees as they are when the call is decided: a command of the line that may run
//! before `find` or beside it and may make such a name (one the table does not know,
//! one that moves, copies or extracts trees, or one that makes a path whose name holds
//! such a character or a glob: `touch 'src/k .env'; find src | xargs cat`) makes it
//! uncertain too; where any command of the line may write before or beside it, every
//! name below the trees is looked at, not only those find prints (`gzip -r src` makes
//! `d .env x.gz` of `d .env x`).

use super::changes::change_of;
use super::facts::Facts;
use super::paths::PathCand;
use super::walks::{cannot_list, Filters, MAX_WALK_ENTRIES};
use super::Prepared;
use crate::shell;
use std::path::PathBuf;

/// Whether xargs may read NAME otherwise than as one word: a blank, a quote, a
/// backslash, a control character, or a byte past ASCII.
fn splits(name: &[u8]) -> bool {
    name.iter().any(|&b| {
        b.is_ascii_whitespace() || b.is_ascii_control() || b >= 0x80 || b"'\"\\".contains(&b)
    })
}

/// Why a name below DIR (walked as `find` does, not through links) that find prints
/// may be split by xargs, if one may: the first such path, or a tree past the bound.
/// What find prints is what FILTERS' names pass (all, without them), below a
/// directory it enters; a directory's name is part of every name below it.
fn split_below(dir: &str, filters: Option<&Filters>) -> Option<String> {
    let printed = |name: &str| filters.is_none_or(|f| f.opens(name));
    let mut stack = vec![(PathBuf::from(dir), false)];
    let mut entries = 0usize;
    while let Some((d, cut)) = stack.pop() {
        let list = match std::fs::read_dir(&d) {
            Ok(list) => list,
            Err(e) if cannot_list(&e) => continue,
            Err(e) => return Some(format!("`{}` could not be listed: {e}", d.display())),
        };
        for entry in list {
            let Ok(entry) = entry else {
                return Some(format!("`{}` could not be listed", d.display()));
            };
            entries += 1;
            if entries > MAX_WALK_ENTRIES {
                return Some(format!(
                    "`{dir}` holds more than {MAX_WALK_ENTRIES} entries, not looked through"
                ));
            }
            let name = entry.file_name();
            let cut = cut || splits(name.as_encoded_bytes());
            if cut && printed(&name.to_string_lossy()) {
                return Some(format!("`{}` is a name it may cut", entry.path().display()));
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push((entry.path(), cut));
            }
        }
    }
    None
}

/// Whether RAW, a path candidate, is the word ROOT as written or put in a directory a
/// `cd` before it led to (`/p/src/.` for `.`).
fn written_as(raw: &str, root: &str) -> bool {
    raw == root
        || raw
            .strip_suffix(root)
            .is_some_and(|dir| dir.starts_with('/') && dir.ends_with('/'))
}

impl Prepared<'_> {
    /// Mark uncertain each `find` of the lines whose names an `xargs` splits again,
    /// where a tree it walks holds a name xargs may split, or where it walks is not
    /// known.
    pub(super) fn line_split_names(&self, out: &mut Vec<PathCand>, facts: &Facts) {
        let mut more = Vec::new();
        for (ci, cand) in self.commands().iter().enumerate() {
            for (i, c) in cand.line.commands.iter().enumerate() {
                if !c.names_split {
                    continue;
                }
                // A command that writes may make a name out of one find does not print
                // (`gzip -r src` makes `d .env x.gz` of `d .env x`): every name then.
                let line = &cand.line;
                let writes = (0..line.commands.len())
                    .any(|k| super::runs_before(line, k, i) && self.may_write(out, facts, ci, k));
                let why = self
                    .split_made(out, facts, ci, i)
                    .or_else(|| self.split_roots(out, c, (ci, i), writes));
                let Some(why) = why else {
                    continue;
                };
                let why =
                    format!("`xargs` splits what `find` prints at blanks and quotes, and {why}");
                more.push(self.uncertain_marker(&cand.key, ".", (ci, i), why));
            }
        }
        out.extend(more);
    }

    /// Why a command of line CI that may run before or beside its command I may make a
    /// name xargs splits, if one may (a candidate that only marks its command uncertain
    /// names no path).
    fn split_made(&self, out: &[PathCand], facts: &Facts, ci: usize, i: usize) -> Option<String> {
        let line = &self.commands().get(ci)?.line;
        for (k, c) in line.commands.iter().enumerate() {
            if !super::runs_before(line, k, i) {
                continue;
            }
            let name = c.argv.first().map_or("", String::as_str);
            if c.program != shell::Known::Known || c.opaque.is_some() {
                return Some(format!(
                    "`{name}`, which may run before it, may make any name"
                ));
            }
            if change_of(&c.argv).is_some() {
                return Some(format!(
                    "`{name}`, which may run before it, moves, copies or unpacks names"
                ));
            }
            // A glob the line wrote (`cp other/* src`), not a name the table says the
            // program makes from a template (`sed -i`'s `sed??????`: letters, digits).
            let written = |raw: &str| {
                c.argv
                    .iter()
                    .chain(&c.redirects)
                    .any(|w| written_as(raw, w))
            };
            let made = out.iter().find(|p| {
                p.cmds.contains(&(ci, k))
                    && p.uncertain.is_none()
                    && (splits(p.raw.as_bytes())
                        || (p.raw.contains(['*', '?', '[']) && written(&p.raw)))
                    && facts.makes(self, p, ci, k)
            });
            if let Some(p) = made {
                return Some(format!(
                    "`{name}`, which may run before it, makes `{}`",
                    p.raw
                ));
            }
        }
        None
    }

    /// Whether command K of line CI may write a file: a program the table does not
    /// know or whose words it does not all read, one that makes links or directories,
    /// a word in a role that writes, an output redirection (to no `/dev/null`).
    fn may_write(&self, out: &[PathCand], facts: &Facts, ci: usize, k: usize) -> bool {
        use shell::Role::{Write, WriteCommit, WriteTracked, WriteTree};
        let Some(c) = self.commands().get(ci).and_then(|l| l.line.commands.get(k)) else {
            return true;
        };
        let Some(p) = c.argv.first().and_then(|n| shell::lookup(n)) else {
            return true;
        };
        let r = shell::read(p, c.argv.get(1..).unwrap_or_default());
        let makes = |e: &shell::Effect| matches!(e, shell::Effect::Links | shell::Effect::Dirs);
        let special = |raw: &str| matches!(raw, "/dev/null" | "/dev/stdout" | "/dev/stderr");
        c.program != shell::Known::Known
            || !r.is_known()
            || p.effects.iter().any(makes)
            || r.parts
                .iter()
                .any(|x| matches!(x.role, Write | WriteTree | WriteTracked | WriteCommit))
            || out.iter().any(|m| {
                matches!(m.source, super::paths::PathSource::Redirect(_))
                    && m.cmds.contains(&(ci, k))
                    && !special(&m.raw)
                    && facts.writes(self, m, ci, k)
            })
    }

    /// Why the trees C (at AT) walks may hold a name xargs splits, if they may: among
    /// the names find prints, or among all when the line WRITES before or beside it.
    fn split_roots(
        &self,
        out: &[PathCand],
        c: &shell::SimpleCommand,
        at: (usize, usize),
        writes: bool,
    ) -> Option<String> {
        let p = c.argv.first().and_then(|n| shell::lookup(n))?;
        let r = shell::read(p, c.argv.get(1..).unwrap_or_default());
        let mut roots: Vec<&str> = r
            .parts
            .iter()
            .filter(|q| q.kind == shell::Kind::Operand)
            .map(|q| q.text.as_str())
            .collect();
        if roots.is_empty() {
            roots.push(".");
        }
        let filters = Filters::of(c).ok().filter(|_| !writes);
        for root in roots {
            if splits(root.as_bytes()) {
                return Some(format!("`{root}` holds one"));
            }
            let dirs: Vec<&str> = out
                .iter()
                .filter(|m| m.cmds.contains(&at) && written_as(&m.raw, root))
                .filter_map(|m| m.norm.as_ref().ok().map(String::as_str))
                .collect();
            if dirs.is_empty() {
                return Some(format!("where `{root}` is is not known"));
            }
            for dir in dirs {
                if let Some(why) = split_below(dir, filters.as_ref()) {
                    return Some(why);
                }
            }
        }
        None
    }
}
