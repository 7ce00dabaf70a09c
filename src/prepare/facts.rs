//! What the passes after the words of a call's lines (`changes`, `configs`, `lookups`)
//! ask about each line, made once per line and only when first asked: which of its
//! commands change the file system and what they change, and which only read the words
//! they name.

use super::changes::{change_of, Change, ChangeRead};
use super::paths::{PathCand, PathSource};
use super::Prepared;
use crate::shell;
use std::cell::OnceCell;

/// The line's directories and, per line of the call, what the passes share.
pub(super) struct Facts {
    /// The request's directory and the other directories the lines may be in.
    pub bases: Vec<String>,
    pub home: Option<String>,
    lines: Vec<LineFacts>,
}

/// One line's shared facts.
struct LineFacts {
    /// Each command that changes paths, by its index in the line.
    changes: Vec<(usize, Change)>,
    /// The changes read from the bases (a file-system visit each).
    read: OnceCell<Vec<ChangeRead>>,
    /// Per command: whether it only reads the words it names.
    reads: OnceCell<Vec<bool>>,
}

impl Facts {
    /// The facts of P's lines, in DIRS besides the request's directory.
    pub fn new(p: &Prepared<'_>, dirs: &[String]) -> Facts {
        let (home, cwd) = p.home_and_cwd();
        let mut bases: Vec<String> = cwd.into_iter().collect();
        bases.extend(dirs.iter().cloned());
        let lines = p
            .commands()
            .iter()
            .map(|cand| LineFacts {
                changes: cand
                    .line
                    .commands
                    .iter()
                    .enumerate()
                    .filter_map(|(j, c)| Some((j, change_of(&c.argv)?)))
                    .collect(),
                read: OnceCell::new(),
                reads: OnceCell::new(),
            })
            .collect();
        Facts { bases, home, lines }
    }

    /// Whether a command of line CI changes paths.
    pub fn changes(&self, ci: usize) -> bool {
        self.lines.get(ci).is_some_and(|l| !l.changes.is_empty())
    }

    /// The changes of line CI, read (see [`Prepared::change_pairs`]).
    pub fn changed(&self, p: &Prepared<'_>, ci: usize) -> &[ChangeRead] {
        let Some(l) = self.lines.get(ci) else {
            return &[];
        };
        l.read
            .get_or_init(|| p.change_pairs(&l.changes, &self.bases, self.home.as_deref()))
    }

    /// Whether command I of line CI only reads the words it names
    /// ([`only_reads`]).
    pub fn only_reads(&self, p: &Prepared<'_>, ci: usize, i: usize) -> bool {
        let Some(l) = self.lines.get(ci) else {
            return false;
        };
        let reads = l.reads.get_or_init(|| {
            p.commands()
                .get(ci)
                .map(|c| c.line.commands.iter().map(only_reads).collect())
                .unwrap_or_default()
        });
        reads.get(i).copied().unwrap_or(false)
    }

    /// Whether command K of line CI may write candidate CAND of it: CAND is the target
    /// of an output redirection of the line (a target only read, `< FILE`, is not), or
    /// a word of a command that does more than read the words it names or make empty
    /// directories there.
    pub fn writes(&self, p: &Prepared<'_>, cand: &PathCand, ci: usize, k: usize) -> bool {
        self.changes_path(p, cand, ci, k, false)
    }

    /// Whether command K of line CI may write or make candidate CAND of it: as
    /// [`Facts::writes`], an empty directory made included.
    pub fn makes(&self, p: &Prepared<'_>, cand: &PathCand, ci: usize, k: usize) -> bool {
        self.changes_path(p, cand, ci, k, true)
    }

    /// [`Facts::writes`], counting an empty directory made when DIRS.
    fn changes_path(
        &self,
        p: &Prepared<'_>,
        cand: &PathCand,
        ci: usize,
        k: usize,
        dirs: bool,
    ) -> bool {
        let input = || {
            p.commands()
                .get(ci)
                .is_some_and(|c| c.line.inputs.contains(&cand.raw))
        };
        let makes_dirs = || {
            p.commands()
                .get(ci)
                .and_then(|c| c.line.commands.get(k))
                .is_some_and(makes_only_dirs)
        };
        match cand.source {
            PathSource::Redirect(_) => !input(),
            _ => !self.only_reads(p, ci, k) && (dirs || !makes_dirs()),
        }
    }
}

/// Whether C only reads the words it names: a program the table knows, every word
/// read, none in a role that writes, runs or moves (`cat .git/config`, `ls
/// ~/.local/bin`; its redirections are candidates of their own, see [`Facts::writes`]).
fn only_reads(c: &shell::SimpleCommand) -> bool {
    use shell::Role::*;
    let Some(p) = c.argv.first().and_then(|n| shell::lookup(n)) else {
        return false;
    };
    // Talking to the network, running the project's code (git's hooks, what `make`
    // runs: a program the table knows as `Named`) or opening its directory write none
    // of its words.
    let writes = |e: &shell::Effect| {
        matches!(
            e,
            shell::Effect::Links | shell::Effect::Dirs | shell::Effect::Privilege
        )
    };
    let read = matches!(c.program, shell::Known::Known | shell::Known::Named);
    if !read || p.effects.iter().any(writes) {
        return false;
    }
    let r = shell::read(p, c.argv.get(1..).unwrap_or(&[]));
    // Code its reader reads to the end and finds writing nothing, running nothing
    // (helper-90's user: `awk -F: '{print $1}' /etc/passwd | head` was read as writing
    // `/etc/passwd`, a place `head` may read as it starts).
    let inert_code = |run: &shell::Run| match run {
        shell::Run::Code(text) => shell::read_code(p.name(), text).is_some_and(|k| {
            k.unknown.is_none() && k.writes.is_empty() && k.shell.is_empty() && k.maybe.is_empty()
        }),
        _ => false,
    };
    r.is_known()
        && r.runs.iter().all(inert_code)
        && r.parts.iter().all(|x| {
            matches!(
                x.role,
                Data | Read
                    | Code
                    | Walk
                    | WalkFollow
                    | WalkVisible
                    | List
                    | WalkTracked
                    | ShowTracked
                    | WalkUnignored
                    | Chdir
                    | Pattern
            )
        })
}

/// Whether C only makes empty directories (`mkdir -p ~/.cache/x`): no program reads
/// code or configuration from an empty directory, in a start-up place, a directory of
/// `PATH` or where a configuration file is looked for.
fn makes_only_dirs(c: &shell::SimpleCommand) -> bool {
    let Some(name) = c.argv.first() else {
        return false;
    };
    let base = name.rsplit('/').next().unwrap_or(name);
    base == "mkdir"
        && matches!(c.program, shell::Known::Known)
        && c.redirects.is_empty()
        && shell::lookup(name).is_some_and(|p| {
            let r = shell::read(p, c.argv.get(1..).unwrap_or(&[]));
            r.is_known() && r.runs.is_empty()
        })
}
