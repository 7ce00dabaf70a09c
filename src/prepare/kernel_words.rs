//! What the kernel and the programs make of words where the path reading alone would
//! read them otherwise: a `~` bash leaves as it is (after a word's start, or quoted at
//! it), a redirection target that is nobody's file (`/dev/null`), and one that is a
//! terminal, which makes the program interactive.

use super::paths::{PathCand, PathSource};
use super::Prepared;
use crate::index::BitSet;
use crate::path;
use crate::shell;

/// Whether the redirection target T is nobody's file: `/dev/null`, which reads empty and
/// keeps nothing, and the standard streams (`/dev/stdout`, `/dev/fd/2`, ...), which bash
/// opens as a duplicate of a descriptor the shell already has, as `>&1` does (a file
/// the line opened there is a target of its own).
pub(super) fn nobodys_file(t: &str) -> bool {
    matches!(
        t,
        "/dev/null"
            | "/dev/stdin"
            | "/dev/stdout"
            | "/dev/stderr"
            | "/dev/fd/0"
            | "/dev/fd/1"
            | "/dev/fd/2"
    )
}

/// Mark uncertain the redirection targets of MADE that are terminals (`/dev/ptmx`,
/// `/dev/tty`, `/dev/pts/N`, or a link to one): a program given one as its standard
/// input or output takes itself to be interactive and reads what the reading does not
/// (git pages through less, which runs a lesskey's `LESSOPEN`; `read -e` starts
/// readline, which reads `~/.inputrc` and what it includes). A relative one the reading
/// cannot place (the line changes directory) is looked for in each of BASES.
pub(super) fn mark_terminals(made: &mut [PathCand], bases: &[String]) {
    let is_terminal = |p: &str| path::is_terminal(std::path::Path::new(p));
    for p in made {
        let terminal = match &p.norm {
            Ok(n) => is_terminal(n),
            Err(_) if p.raw.starts_with('/') => is_terminal(&p.raw),
            Err(_) => bases
                .iter()
                .any(|b| is_terminal(&format!("{}/{}", b.trim_end_matches('/'), p.raw))),
        };
        if terminal && p.uncertain.is_none() {
            p.uncertain = Some(format!(
                "`{}` is a terminal: a program with it as its input or output takes itself to be interactive (a pager, readline) and reads files the reading does not",
                p.raw.chars().take(200).collect::<String>()
            ));
        }
    }
}

impl Prepared<'_> {
    /// The kernel's reading of W (from SOURCE; in the request's directory when HERE,
    /// and in each of DIRS) where a `~` in it is one bash leaves as it is, for deny-side
    /// rules: after the start (`./~+/x`, `a/~/b`: literal always, which the path
    /// reading refuses as Emacs's syntax), or at the start when quoted (`'~+/x'`,
    /// `"~/x"`: helper-65, a link named `~+` made earlier leads anywhere), which the
    /// reading cannot tell from the expanded one: read only where a file of that first
    /// name is there, and unsure.
    pub(super) fn literal_tilde(
        &self,
        source: PathSource,
        w: &str,
        here: bool,
        dirs: &[String],
    ) -> Vec<PathCand> {
        let start = w.starts_with('~');
        if !(start || w.contains("/~")) {
            return Vec::new();
        }
        let mut bases: Vec<String> = Vec::new();
        if w.starts_with('/') {
            bases.push(String::new());
        } else {
            if here {
                bases.extend(self.home_and_cwd().1);
            }
            bases.extend(dirs.iter().cloned());
        }
        let deny_side = |r: usize| self.policy.rules.get(r).is_some_and(|x| !x.allow_side);
        let mut out = Vec::new();
        for base in bases {
            let Some(lit) = literal_tilde_path(w, &base, self.path_env()) else {
                continue;
            };
            let mut hits = BitSet::new(self.n());
            for r in self.glob_hits_for(&lit).iter().filter(|&r| deny_side(r)) {
                hits.set(r);
            }
            out.push(PathCand {
                source: source.clone(),
                raw: w.to_string(),
                norm: Ok(lit),
                lexical: None,
                hits,
                lexical_hits: BitSet::new(self.n()),
                cmds: Vec::new(),
                uncertain: None,
                unsure: start.then(|| shell::Unsure::QuotedTilde(w.to_string())),
            });
        }
        out
    }
}

/// W read in BASE as the kernel reads a `~` bash leaves as it is (see
/// [`Prepared::literal_tilde`]): after W's start always; at its start only where an entry
/// of that first name is in BASE. None when W has no such `~`, or the file system
/// refuses to show it.
pub(super) fn literal_tilde_path(w: &str, base: &str, env: &path::PathEnv) -> Option<String> {
    let start = w.starts_with('~');
    if !(start || w.contains("/~")) {
        return None;
    }
    let base = base.trim_end_matches('/');
    if start {
        let first = w.split('/').next().unwrap_or(w);
        let there = path::lexists(std::path::Path::new(&format!("{base}/{first}")));
        if there.is_ok_and(|t| !t) {
            return None;
        }
    }
    // (`kernel_literal` reads a run of `/` as one.)
    let abs = match w.starts_with('/') {
        true => w.to_string(),
        false => format!("{base}/{w}"),
    };
    path::kernel_literal(&abs, env)
}
