//! The directories each simple command of a call's lines may run in, as the reading of
//! directory changes (`paths::other_dirs`) follows them: a command runs where the
//! shell is when it starts, not wherever the line goes. `cd d && rm x` runs `rm` in `d`
//! only (bash runs it only once the `cd` succeeded); `rm x; cd /etc` runs `rm` where the
//! line started; `(cd /etc); rm x` too (a subshell's `cd` ends with it). What the
//! reading cannot place keeps the whole line's directories: a command of a string a
//! shell is given, of a substitution, of a guess, and every command of a line that may
//! change directory in ways not followed here (a function, `eval`, `source`, `trap`...).

use super::CmdCand;
use crate::shell::SimpleCommand;
use std::collections::HashMap;

/// The directories one command's relative words are read in: whether the request's
/// own directory is one of them (its words as written), and the others.
pub(super) type Dirs = (bool, Vec<String>);

/// Builtins and programs after which no command of the line is placed: they may change
/// the shell's directory, or what `cd` is, in ways the reading does not follow.
const UNFOLLOWED: &[&str] = &[
    "eval", "source", ".", "trap", "enable", "alias", "shopt", "exec", "coproc",
];

/// Whether C changes the directory of the shell it runs in.
pub(super) fn changes_dir(c: &SimpleCommand) -> bool {
    matches!(
        c.argv.first().map(String::as_str),
        Some("cd" | "pushd" | "popd")
    )
}

/// Where a `cd`, `pushd` or `popd` goes, as bash reads its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CdTo<'c> {
    /// Home: `cd` alone.
    Home,
    /// Back to a directory the line was in, or to the `OLDPWD` it inherits: `cd -`,
    /// `popd`, `pushd` alone, `pushd +1`.
    Back,
    /// The directory its operand names (the first, after any options and `--`: `cd --
    /// -x` goes to `-x`). PLAIN: it goes there when it succeeds, with no wrapper, no
    /// option but `-L`, `-P` and `-e`, and one operand (`cd -P src`, `pushd src`);
    /// else it may stay where it was (`pushd -n d`, `cd a b`).
    Dir { dir: &'c str, plain: bool },
}

/// Where C goes, when it is a `cd`, `pushd` or `popd`.
pub(super) fn cd_to(c: &SimpleCommand) -> Option<CdTo<'_>> {
    let name = c.argv.first().map(String::as_str)?;
    let letters = match name {
        "cd" => "LPe",
        "pushd" => "n",
        "popd" => return Some(CdTo::Back),
        _ => return None,
    };
    // `pushd +1`, `pushd -0`: a directory of the stack.
    let rotates = |w: &str| {
        name == "pushd"
            && w.len() > 1
            && w.starts_with(['+', '-'])
            && w[1..].bytes().all(|b| b.is_ascii_digit())
    };
    let mut known = c.written == c.argv;
    let mut operands: Vec<&str> = Vec::new();
    let mut options = true;
    for w in &c.argv[1..] {
        if options && rotates(w) {
            return Some(CdTo::Back);
        }
        if options && w == "--" {
            options = false;
        } else if options && w.len() > 1 && w.starts_with('-') {
            known &= w[1..].chars().all(|l| letters.contains(l));
            // `pushd -n d` only puts `d` on the stack.
            known &= name != "pushd";
        } else {
            // Options end at the first operand (`pushd -- -1` goes to `-1`).
            options = false;
            operands.push(w);
        }
    }
    Some(match operands[..] {
        [] if name == "cd" => CdTo::Home,
        [] | ["-"] => CdTo::Back,
        [dir, ..] => CdTo::Dir {
            dir,
            plain: known && operands.len() == 1 && !dir.is_empty(),
        },
    })
}

/// Whether C is a plain `cd DIR` of the shell itself (see [`CdTo::Dir`]): the commands
/// after it that run only once it succeeded run in DIR.
fn plain_cd(c: &SimpleCommand) -> bool {
    matches!(cd_to(c), Some(CdTo::Dir { plain: true, .. }))
}

/// A set of directories the shell may be in (None: the request's own, unknown).
type Set = Vec<Option<String>>;

/// The state of following where each command runs.
pub(super) struct Places {
    /// Whether commands are placed at all (see the module's documentation).
    exact: bool,
    /// The request's directory: where the line starts.
    initial: Option<String>,
    /// The directories each subshell may be in, by (command argument, subshell).
    shells: HashMap<(usize, usize), Set>,
    /// Every reading of a directory a `cd` led to (lexically, through links), by the first.
    forms: HashMap<String, Vec<String>>,
    /// Where each placed command may run, over every pass, by (command argument, command).
    bases: HashMap<(usize, usize), Set>,
    /// The directories a command's own options move it to (`git -C d`, `make -C d`).
    own: HashMap<(usize, usize), Vec<String>>,
    /// Where each command ran, and where each plain `cd` led, in this pass.
    ran_in: HashMap<(usize, usize), Set>,
    reached: HashMap<(usize, usize), Set>,
}

impl Places {
    /// The state for COMMANDS, lines that start in INITIAL; WORKDIR: the call names a
    /// working directory of its own (no command is placed).
    pub(super) fn new(commands: &[CmdCand], initial: Option<String>, workdir: bool) -> Places {
        let unfollowed = commands.iter().flat_map(|c| &c.line.commands).any(|c| {
            let named = |w: Option<&String>| w.is_some_and(|w| UNFOLLOWED.contains(&w.as_str()));
            named(c.argv.first())
                || named(c.written.first())
                || c.forms.iter().any(|f| named(f.first()))
                || (c.place.is_none() && changes_dir(c))
        });
        Places {
            exact: !workdir && !unfollowed,
            initial,
            shells: HashMap::new(),
            forms: HashMap::new(),
            bases: HashMap::new(),
            own: HashMap::new(),
            ran_in: HashMap::new(),
            reached: HashMap::new(),
        }
    }

    /// A new pass over the lines (a `cd` in a loop): every shell starts from CURRENTS.
    pub(super) fn new_pass(&mut self) {
        self.shells.clear();
        self.ran_in.clear();
        self.reached.clear();
    }

    /// Where command K of line CI (C) runs, given CURRENTS, the directories its shell may
    /// be in: swapped in for the subshell it runs in (restore with [`Places::leave`]).
    /// Returns the directories it runs in, and the saved ones of the shell around.
    pub(super) fn enter(
        &mut self,
        ci: usize,
        k: usize,
        line: &[SimpleCommand],
        currents: &mut Set,
    ) -> (Set, Option<(usize, Set)>) {
        let Some(place) = line.get(k).and_then(|c| c.place.as_ref()) else {
            return (currents.clone(), None);
        };
        if !self.exact {
            return (currents.clone(), None);
        }
        let mut saved = None;
        if let Some(&inner) = place.subshells.last() {
            // Each subshell starts where the one around it is when it starts.
            let mut around = currents.clone();
            for &s in &place.subshells {
                around = self
                    .shells
                    .entry((ci, s))
                    .or_insert_with(|| around.clone())
                    .clone();
            }
            let mine = self.shells.remove(&(ci, inner)).unwrap_or(around);
            saved = Some((inner, std::mem::replace(currents, mine)));
        }
        // Where the command it runs right after ran, or where that one led when it is a
        // plain `cd` that surely succeeded.
        let after = place.after.and_then(|a| {
            let before = line.get(a.command)?;
            match (changes_dir(before), plain_cd(before) && a.succeeded) {
                (false, _) => self.ran_in.get(&(ci, a.command)).cloned(),
                (true, true) => self
                    .reached
                    .get(&(ci, a.command))
                    .filter(|r| !r.is_empty())
                    .cloned(),
                (true, false) => None,
            }
        });
        let runs_in = after.unwrap_or_else(|| currents.clone());
        self.ran_in.insert((ci, k), runs_in.clone());
        self.bases
            .entry((ci, k))
            .or_default()
            .extend(runs_in.iter().cloned());
        (runs_in, saved)
    }

    /// Back from command CI, K: its subshell's directories (CURRENTS) kept, the shell's
    /// around it restored from SAVED.
    pub(super) fn leave(&mut self, ci: usize, saved: Option<(usize, Set)>, currents: &mut Set) {
        if let Some((inner, around)) = saved {
            let mine = std::mem::replace(currents, around);
            self.shells.insert((ci, inner), mine);
        }
    }

    /// Every directory a subshell may be in now (a pass over a loop goes on while they
    /// grow, as the line's own do).
    pub(super) fn in_subshells(&self) -> impl Iterator<Item = &Option<String>> {
        self.shells.values().flatten()
    }

    /// Command K of line CI, a `cd`, led to NEXT when it succeeded.
    pub(super) fn reached(&mut self, ci: usize, k: usize, next: &[Option<String>]) {
        self.reached.insert((ci, k), next.to_vec());
    }

    /// A `cd` led to the directory read ALL ways, the first as written.
    pub(super) fn led(&mut self, all: &[String]) {
        if let Some(first) = all.first() {
            let forms = self.forms.entry(first.clone()).or_default();
            forms.extend(all.iter().skip(1).cloned());
        }
    }

    /// Command CI, K moves itself to the directories DIRS by its options.
    pub(super) fn own(&mut self, ci: usize, k: usize, dirs: &[String]) {
        if !dirs.is_empty() {
            self.own
                .entry((ci, k))
                .or_default()
                .extend(dirs.iter().cloned());
        }
    }

    /// The directories each placed command runs in, when commands are placed.
    pub(super) fn finish(self) -> Option<HashMap<(usize, usize), Dirs>> {
        if !self.exact {
            return None;
        }
        let mut out = HashMap::new();
        for (at, set) in self.bases {
            let here = set.contains(&self.initial);
            let mut dirs: Vec<String> = Vec::new();
            for d in set.into_iter().flatten() {
                // The other readings of where a `cd` led (`cd -P lnk/..` is `.` as
                // written, and where the link's parent is), the request's own too.
                dirs.extend(self.forms.get(&d).into_iter().flatten().cloned());
                if Some(&d) != self.initial.as_ref() {
                    dirs.push(d);
                }
            }
            dirs.extend(self.own.get(&at).into_iter().flatten().cloned());
            dirs.sort();
            dirs.dedup();
            out.insert(at, (here, dirs));
        }
        Some(out)
    }
}
