//! The directories a command line may be in at each point: its `cd`s, `pushd`s and
//! tool working directories, each of which may fail, with `CDPATH` and the bounds on how
//! many directories a line may lead to.

use super::paths::*;
use super::CmdCand;
use super::{places, Prepared};
use crate::path;
use crate::rule::Arg;
use crate::shell;
use crate::shell::SimpleCommand;
use std::collections::HashMap;

/// Where a directory leads from a base: its readings (the first as written,
/// collapsed), or None when only the shell can know.
type Led = Option<Vec<String>>;

/// A set of directories the shell may be in (None: the request's own, unknown).
type Currents = Vec<Option<String>>;

/// The directories the call's lines may run in besides the request's (see
/// [`Prepared::other_dirs`]).
pub(super) struct OtherDirs {
    pub dirs: Vec<String>,
    /// Why they cannot be known, if so, with the word of the directory only the
    /// running shell knows when that is why.
    pub lost: Option<(String, Option<String>)>,
    /// Where each placed command runs.
    pub per: Option<PerCommand>,
}

impl Prepared<'_> {
    /// Directories a command line's relative words may be relative to,
    /// besides the request's: the working directory the call names, `cd`
    /// and `pushd` targets in the line (in order, and through `CDPATH`), and
    /// the directories options move a command to (`env -C DIR`, `git -C DIR`,
    /// `make -C DIR`, `tar -C DIR`, `sudo -D DIR`); and why one of them cannot
    /// be known, when one cannot (`cd /dev/fd/3`: a directory only the shell
    /// knows, and every relative word after it is in it).
    ///
    /// A directory through a process's directory in `/proc` is where it leads
    /// (`cd /proc/self/cwd/..` is the parent of the directory the shell is in,
    /// as tracked so far), never the path as written: a tracked directory is
    /// always a physical one.
    pub(super) fn other_dirs(&self, values: &mut LineValues, cost: &mut usize) -> OtherDirs {
        let mut reading = DirReading::new(self, values, cost);
        for (ci, cand) in self.commands().iter().enumerate() {
            if !reading.read_line(ci, cand) {
                break;
            }
        }
        reading.finish()
    }

    /// The `CDPATH` directories a `cd` in the call may use: those the lines give it
    /// (`CDPATH=/ cd etc`, `export CDPATH=...`, `for CDPATH in ..`, `CDPATH+=..`, an
    /// array, another variable's value) and the one Emacs runs with; and whether a
    /// line names `CDPATH` where no value could be read (`read CDPATH`): a `cd` may
    /// then lead anywhere.
    pub(super) fn cdpath(&self) -> (Vec<String>, bool) {
        let mut out: Vec<String> = std::env::var("CDPATH")
            .map(|v| v.split(':').map(str::to_string).collect())
            .unwrap_or_default();
        let mut unknown = false;
        for (key, value) in &self.call.args {
            if let (true, Arg::Str(text)) = (self.is_command_key(key), value) {
                if !text.contains("CDPATH") {
                    continue;
                }
                let values = shell::values::values_of(text, "CDPATH");
                unknown |= values.is_empty();
                for v in values {
                    out.extend(v.split(':').map(str::to_string));
                }
            }
        }
        out.retain(|d| !d.is_empty());
        out.sort();
        out.dedup();
        (out, unknown)
    }
}

/// The state of reading where a call's lines may be, threaded through their commands
/// (see [`Prepared::other_dirs`]).
struct DirReading<'p, 'a> {
    prepared: &'p Prepared<'a>,
    /// The value words of each command argument, read once.
    values: &'p mut LineValues,
    /// What reading directories has cost so far (see [`path_cost`]).
    cost: &'p mut usize,
    home: Option<String>,
    case_fold: bool,
    cdpath: Vec<String>,
    cdpath_unknown: bool,
    /// Where each directory leads from each base, each pair read once (`git -C $x` a
    /// hundred times from one directory).
    led: HashMap<(String, Option<String>), Led>,
    /// Why the directories cannot be known, once one cannot.
    lost: Option<String>,
    /// The word of the first directory only the running shell knows, when that is why
    /// they cannot be known and the word is a command's output (`cd "$(git rev-parse
    /// --show-toplevel)"`: a match that rests on it is unsure, DESIGN.md's "Certain and
    /// unsure matches"). Not a bound reached, and not the shell's own state (`cd $!`,
    /// `cd /dev/fd/3`, `cd /proc/$$`): no everyday line goes there, and a match past
    /// them stays certain.
    lost_to_shell: Option<String>,
    /// Every directory found so far.
    dirs: Vec<String>,
    /// Every directory the shell may be in at this point of the line: a `cd` may
    /// fail (`cd missing; cd ..` goes up from where the line started), so each
    /// adds where it leads and keeps where it was.
    currents: Currents,
    /// Whether the line's directory is one only the shell knows.
    unknown: bool,
    places: places::Places,
}

/// What one `cd`, `pushd` or `popd` leads to from the directories it may run in.
#[derive(Default)]
struct CdOutcome {
    /// The directories it may lead to.
    next: Currents,
    /// Whether it leads somewhere known from one of them at least.
    reached: bool,
}

impl<'p, 'a> DirReading<'p, 'a> {
    /// The state for the lines of PREPARED, with the directory the call names of its own
    /// (its working-directory argument) read.
    fn new(
        prepared: &'p Prepared<'a>,
        values: &'p mut LineValues,
        cost: &'p mut usize,
    ) -> DirReading<'p, 'a> {
        let (home, current) = prepared.home_and_cwd();
        let workdir = path::DEFAULT_WORKDIR_KEYS
            .iter()
            .any(|key| prepared.call.arg(key).is_some());
        let places = places::Places::new(prepared.commands(), current.clone(), workdir);
        let (cdpath, cdpath_unknown) = prepared.cdpath();
        let mut reading = DirReading {
            prepared,
            values,
            cost,
            home,
            case_fold: prepared.path_env().case_fold,
            cdpath,
            cdpath_unknown,
            led: HashMap::new(),
            lost: None,
            lost_to_shell: None,
            dirs: Vec::new(),
            currents: Vec::new(),
            unknown: false,
            places,
        };
        for key in path::DEFAULT_WORKDIR_KEYS {
            if let Some(Arg::Str(d)) = prepared.call.arg(key) {
                let all = reading.go(d, current.as_deref()).unwrap_or_default();
                reading.dirs.extend(all);
            }
        }
        reading.currents = vec![current];
        reading
    }

    /// The directories found, sorted; why they cannot be known, if so; and where each
    /// placed command runs.
    fn finish(mut self) -> OtherDirs {
        self.dirs.sort();
        self.dirs.dedup();
        OtherDirs {
            dirs: self.dirs,
            lost: self.lost.map(|why| (why, self.lost_to_shell)),
            per: self.places.finish(),
        }
    }

    /// Note that the directory D is one only the running shell knows, when it is (see
    /// [`shell_only`]).
    fn shell_only(&mut self, d: &str) {
        if self.lost.is_none() && shell_only(d, &mut self.lost) && output_only(d) {
            self.lost_to_shell = Some(d.to_owned());
        }
    }

    /// Where the directory D leads from BASE (see [`Led`]); past the bound on
    /// reading paths, or when only the shell knows, None and why in `lost`.
    fn go(&mut self, d: &str, base: Option<&str>) -> Led {
        let key = (d.to_string(), base.map(str::to_string));
        if !self.led.contains_key(&key) {
            *self.cost += path_cost(d) + base.map_or(0, path_cost);
            if *self.cost > MAX_PATH_COST {
                self.lost.get_or_insert_with(|| {
                    "more directories to read than the bound on reading paths allows".to_string()
                });
                return None;
            }
        }
        let home = self.home.as_deref();
        // A `~` bash leaves as it is: `cd '~+'` goes to a directory of that name, where
        // there is one (helper-67).
        let literal = base
            .and_then(|b| super::kernel_words::literal_tilde_path(d, b, self.prepared.path_env()));
        let all = self
            .led
            .entry(key)
            .or_insert_with(|| {
                let read = path::readings(d, home, base);
                match read.process {
                    path::Process::Outside => Some(read.forms.into_iter().chain(literal).collect()),
                    path::Process::Reads(to) => Some(vec![to]),
                    path::Process::OpenFile | path::Process::Unknowable => None,
                }
            })
            .clone();
        if all.is_none() {
            self.lost.get_or_insert_with(|| {
                format!(
                    "`{}` is a directory only the running shell knows",
                    d.chars().take(200).collect::<String>()
                )
            });
        }
        all
    }

    /// The directories a glob D names from BASE (`cd lnk?`, `git -C ../h*`).
    fn globbed(&mut self, d: &str, base: Option<&str>) -> Vec<String> {
        if !d.contains(['*', '?', '[']) {
            return Vec::new();
        }
        let home = self.home.as_deref();
        let text = with_dirs(d, home, base);
        let found = path::expand_glob(&text, home, base, self.case_fold, (true, false));
        if let Some(why) = found.incomplete {
            self.lost.get_or_insert(why);
        }
        found.found
    }

    /// The values the line under KEY gives its variables that name no variable.
    fn plain_values(&mut self, key: &str) -> Vec<String> {
        let of = self.prepared.line_values(self.values, key);
        of.iter().filter(|v| !v.contains('$')).cloned().collect()
    }

    /// Reads the line CAND (number CI) over once for each time its `cd`s may run: a
    /// `cd` in a loop or a function may run again and again (`for i in 1 2; do cd ..;
    /// done`), so until the directories it may be in stop growing (each pass adds one
    /// at least, so the directory bound ends it). False once a bound is met: no need
    /// to read on.
    fn read_line(&mut self, ci: usize, cand: &CmdCand) -> bool {
        let passes = cd_passes(cand);
        let mut pass = 1;
        let mut seen = self.currents.clone();
        loop {
            for (k, c) in cand.line.commands.iter().enumerate() {
                // Past a bound every relative word counts as matching: no need to read on.
                if self.lost.is_some() || path::budget_spent() {
                    return false;
                }
                self.read_command(ci, cand, k, c);
            }
            let more = match passes {
                shell::Runs::Once => false,
                shell::Runs::AtMost(n) => pass < n,
                shell::Runs::Any => true,
            };
            // A subshell's directories grow too (`(for i in 1 2; do cd ..; done; rm x)`).
            let now: Currents = self
                .currents
                .iter()
                .chain(self.places.in_subshells())
                .cloned()
                .collect();
            if !more || now.iter().all(|d| seen.contains(d)) {
                return true;
            }
            pass += 1;
            seen.extend(now);
            seen.sort();
            seen.dedup();
            self.currents.clone_from(&seen);
            self.places.new_pass();
        }
    }

    /// Reads command K (C) of the line CAND (number CI): the directories its options
    /// move it to, and where it leads when it is a `cd`, `pushd` or `popd`.
    fn read_command(&mut self, ci: usize, cand: &CmdCand, k: usize, c: &SimpleCommand) {
        // Where this command runs: its subshell's directories, or where the
        // command it runs right after left it (`cd d && rm x`).
        let (bases, saved) = self
            .places
            .enter(ci, k, &cand.line.commands, &mut self.currents);
        let to = places::cd_to(c);
        let (is_cd, target) = match to {
            None => (false, None),
            Some(places::CdTo::Dir { dir, .. }) => (true, Some(dir)),
            Some(_) => (true, None),
        };
        let mut outcome = CdOutcome::default();
        for cur in &bases {
            if too_many(&mut self.dirs) {
                break;
            }
            // Each directory option is relative to the one before it (`git -C
            // .. -C home`, `env -C a env -C b`), and a `cd` in a shell it
            // starts (`env -C .. bash -c 'cd home'`) to the last.
            let (mut mine, base) = self.option_dirs(&cand.key, c, cur.clone());
            self.places.own(ci, k, &mine);
            self.dirs.append(&mut mine);
            // `cd -`, `popd`: back where the line was ([`Self::after_cd`]).
            if !is_cd || to == Some(places::CdTo::Back) {
                continue;
            }
            let to = self.cd_to(&cand.key, target, base, &mut outcome.next);
            if let Some(n) = to {
                self.dirs.push(n.clone());
                outcome.next.push(Some(n));
                outcome.reached = true;
            }
        }
        if let Some(to) = to {
            self.after_cd(ci, k, to, outcome);
        }
        if self.currents.len() > MAX_DIRS || self.dirs.len() > 4 * MAX_DIRS {
            self.lost.get_or_insert_with(|| {
                format!("more than {MAX_DIRS} directories the line may be in")
            });
            self.currents.truncate(MAX_DIRS);
        }
        self.places.leave(ci, saved, &mut self.currents);
    }

    /// The directories the options of C (a command of the line under KEY) move it to
    /// from BASE (its own: `git -C d`, `make -C d`), and the last of them (BASE when
    /// none), where a `cd` in a shell it starts begins.
    fn option_dirs(
        &mut self,
        key: &str,
        c: &SimpleCommand,
        mut base: Option<String>,
    ) -> (Vec<String>, Option<String>) {
        let mut mine: Vec<String> = Vec::new();
        for form in &c.forms {
            for d in shell::chdir_options(form) {
                if self.unknown && !d.starts_with(['/', '~']) {
                    continue;
                }
                // `git -C "$f"`: where any value the line gives leads,
                // and home; `tar -C /proc -C $$`: only the shell knows.
                if !shell::values::only_known_parameters(&d) {
                    self.shell_only(&d);
                    mine.extend(self.home.clone());
                    for v in self.plain_values(key) {
                        // Past the bound the line is lost anyway (below).
                        if mine.len() > 4 * MAX_DIRS || too_many(&mut self.dirs) {
                            break;
                        }
                        let all = self.go(&v, base.as_deref());
                        mine.extend(all.unwrap_or_default());
                    }
                }
                mine.extend(self.globbed(&d, base.as_deref()));
                let all = self.go(&d, base.as_deref()).unwrap_or_default();
                base = all.first().cloned().or(base);
                mine.extend(all);
            }
        }
        (mine, base)
    }

    /// Where a `cd` of the line under KEY to TARGET (None: no operand) leads from
    /// BASE, as written; the other directories it may lead to (through `CDPATH`, a
    /// glob, the values of a variable) are added to NEXT. None when it leads nowhere
    /// known.
    fn cd_to(
        &mut self,
        key: &str,
        target: Option<&str>,
        base: Option<String>,
        next: &mut Currents,
    ) -> Option<String> {
        let Some(t) = target else {
            return self.home.clone();
        };
        // Relative to a directory only the shell knows: still unknown.
        if self.unknown && !t.starts_with(['/', '~']) {
            return None;
        }
        // `cd ~-` is `cd -` ([`Self::after_cd`] adds where the line was); quoted, a
        // directory of that name, where there is one.
        if t == "~-" {
            let literal = base.as_deref().and_then(|b| {
                super::kernel_words::literal_tilde_path(t, b, self.prepared.path_env())
            });
            if let Some(l) = literal {
                self.dirs.push(l.clone());
                next.push(Some(l));
            }
            return base;
        }
        self.through_cdpath(t, base.as_deref(), next);
        for g in self.globbed(t, base.as_deref()) {
            self.dirs.push(g.clone());
            next.push(Some(g));
        }
        // `x=../home; cd $x`: any value the line gives a variable,
        // and home (`cd $!` with no job is `cd`).
        if t.contains('$') {
            self.shell_only(t);
            next.push(self.home.clone());
            self.dirs.extend(self.home.clone());
            for v in self.plain_values(key) {
                if too_many(&mut self.dirs) {
                    break;
                }
                let all = self.go(&v, base.as_deref()).unwrap_or_default();
                self.moved_to(all, next);
            }
        }
        // Lexically and through the links before `..` (`cd -P lnk/..`).
        match self.go(t, base.as_deref()) {
            Some(all) => {
                self.places.led(&all);
                self.dirs.extend(all.iter().skip(1).cloned());
                all.into_iter().next()
            }
            None => {
                self.unknown = true;
                None
            }
        }
    }

    /// `cd etc` (and `cd .ssh`) may go to any CDPATH directory's `etc` (T) from BASE,
    /// added to NEXT; bash skips CDPATH for `/x`, `.`, `..`, `./x`, `../x`.
    fn through_cdpath(&mut self, t: &str, base: Option<&str>, next: &mut Currents) {
        let skips = t.starts_with(['/', '~'])
            || t == "."
            || t == ".."
            || t.starts_with("./")
            || t.starts_with("../");
        if skips {
            return;
        }
        if self.cdpath_unknown {
            self.lost.get_or_insert_with(|| {
                "`CDPATH` is given a value the reading cannot know".to_string()
            });
        }
        // A CDPATH entry is itself a path: `~`, relative entries.
        for entry in self.cdpath.clone() {
            let bases = self.go(&entry, base);
            for b in bases.unwrap_or_default() {
                let all = self.go(t, Some(&b)).unwrap_or_default();
                self.moved_to(all, next);
            }
        }
    }

    /// A `cd` may have led to the directory read ALL ways (the first as written): the
    /// first is one of NEXT, each one of the directories found.
    fn moved_to(&mut self, all: Vec<String>, next: &mut Currents) {
        self.places.led(&all);
        next.extend(all.first().cloned().map(Some));
        self.dirs.extend(all);
    }

    /// After command K of line CI, a `cd`, `pushd` or `popd` that goes TO, with OUTCOME:
    /// the directories the shell may be in are where it led and where it was (it may
    /// fail).
    fn after_cd(&mut self, ci: usize, k: usize, to: places::CdTo, outcome: CdOutcome) {
        let CdOutcome { mut next, reached } = outcome;
        // `cd -`, `popd`, `pushd +1`: back to any directory the line was in, or to the
        // `OLDPWD` it inherits.
        let back = match to {
            places::CdTo::Back => true,
            places::CdTo::Dir { dir, .. } => matches!(dir, "~-" | "$OLDPWD" | "${OLDPWD}"),
            places::CdTo::Home => false,
        };
        if back {
            next.extend(self.dirs.iter().cloned().map(Some));
        }
        if back {
            if let Ok(old) = std::env::var("OLDPWD") {
                self.dirs.push(old.clone());
                next.push(Some(old));
            }
        }
        if reached {
            self.places.reached(ci, k, &next);
        }
        next.append(&mut self.currents);
        next.sort();
        next.dedup();
        if reached {
            self.unknown = false;
        }
        self.currents = next;
    }
}

/// How many times the `cd`s of the line CAND may run: the most of any of them (in a
/// loop or a function).
fn cd_passes(cand: &CmdCand) -> shell::Runs {
    cand.line
        .repeated
        .iter()
        .filter(|(k, _)| cand.line.commands.get(*k).is_some_and(places::changes_dir))
        .fold(shell::Runs::Once, |most, (_, runs)| match (most, *runs) {
            (shell::Runs::Any, _) | (_, shell::Runs::Any) => shell::Runs::Any,
            (shell::Runs::AtMost(a), shell::Runs::AtMost(b)) => shell::Runs::AtMost(a.max(b)),
            (shell::Runs::Once, r) | (r, shell::Runs::Once) => r,
        })
}

/// Whether DIRS, the directories a line's words may be relative to, are more than
/// the bound allows ([`MAX_DIRS`] four times over); repeats do not count (`cd /a; cd
/// /b` adds `/b` once for each directory the line may be in before it).
pub(super) fn too_many(dirs: &mut Vec<String>) -> bool {
    if dirs.len() <= 4 * MAX_DIRS {
        return false;
    }
    dirs.sort();
    dirs.dedup();
    dirs.len() > 4 * MAX_DIRS
}

/// W with `$HOME` (and `${HOME}`) made HOME, and `$PWD`, `$OLDPWD`, `~+`, `~-` made
/// DIR: a directory the line may be in.
pub(super) fn with_dirs(w: &str, home: Option<&str>, dir: Option<&str>) -> String {
    let mut text = w.to_string();
    if let Some(h) = home {
        for var in ["${HOME}", "$HOME"] {
            text = text.replace(var, h);
        }
    }
    if let Some(d) = dir {
        for var in ["${PWD}", "$PWD", "${OLDPWD}", "$OLDPWD"] {
            text = text.replace(var, d);
        }
        for var in ["~+", "~-"] {
            if text == var || text.starts_with(&format!("{var}/")) {
                text = format!("{d}{}", &text[2..]);
            }
        }
    }
    text
}

/// Whether what only the running shell knows in the directory D is a command's
/// output (`$(...)`, backquotes), and no parameter of the shell's own state (`$$`, `$!`)
/// or path of the process (`/proc`, `/dev/fd`) is in it.
fn output_only(d: &str) -> bool {
    (d.contains("$(") || d.contains('`'))
        && !d.contains("$$")
        && !d.contains("$!")
        && !d.contains("/proc")
        && !d.contains("/dev/")
}

/// When the directory D names what only the running shell knows (`$$`, `$!`, a
/// command's output: see [`shell::values::names_shell_state`]), say so in LOST: every
/// relative word after it may be anywhere. Whether it does.
pub(super) fn shell_only(d: &str, lost: &mut Option<String>) -> bool {
    let only = shell::values::names_shell_state(d);
    if only {
        lost.get_or_insert_with(|| {
            format!(
                "`{}` is a directory only the running shell knows",
                d.chars().take(200).collect::<String>()
            )
        });
    }
    only
}
