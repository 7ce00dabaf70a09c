//! The directories a command line may be in at each point: its `cd`s, `pushd`s and
//! tool working directories, each of which may fail, with `CDPATH` and the bounds on how
//! many directories a line may lead to.

use super::paths::*;
use super::{places, Prepared};
use crate::path;
use crate::rule::Arg;
use crate::shell;

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
    pub(super) fn other_dirs(
        &self,
        values: &mut LineValues,
        cost: &mut usize,
    ) -> (Vec<String>, Option<String>, Option<PerCommand>) {
        let (home, mut current) = self.home_and_cwd();
        let workdir = path::DEFAULT_WORKDIR_KEYS
            .iter()
            .any(|key| self.call.arg(key).is_some());
        let mut places = places::Places::new(self.commands(), current.clone(), workdir);
        let mut lost: Option<String> = None;
        let mut dirs = Vec::new();
        // Where the directory D leads from BASE: its readings (the first as
        // written, collapsed), or None when only the shell can know; each pair
        // read once (`git -C $x` a hundred times from one directory).
        type Led = Option<Vec<String>>;
        let mut led: std::collections::HashMap<(String, Option<String>), Led> =
            std::collections::HashMap::new();
        let mut go = |d: &str, base: Option<&str>, lost: &mut Option<String>| -> Led {
            let key = (d.to_string(), base.map(str::to_string));
            if !led.contains_key(&key) {
                *cost += path_cost(d) + base.map_or(0, path_cost);
                if *cost > MAX_PATH_COST {
                    lost.get_or_insert_with(|| {
                        "more directories to read than the bound on reading paths allows"
                            .to_string()
                    });
                    return None;
                }
            }
            let all = led
                .entry(key)
                .or_insert_with(|| {
                    let read = path::readings(d, home.as_deref(), base);
                    match read.process {
                        path::Process::Outside => Some(read.forms),
                        path::Process::Reads(to) => Some(vec![to]),
                        path::Process::OpenFile | path::Process::Unknowable => None,
                    }
                })
                .clone();
            if all.is_none() {
                lost.get_or_insert_with(|| {
                    format!(
                        "`{}` is a directory only the running shell knows",
                        d.chars().take(200).collect::<String>()
                    )
                });
            }
            all
        };
        // The directories a glob D names from BASE (`cd lnk?`, `git -C ../h*`).
        let case_fold = self.path_env().case_fold;
        let globbed = |d: &str, base: Option<&str>, lost: &mut Option<String>| -> Vec<String> {
            if !d.contains(['*', '?', '[']) {
                return Vec::new();
            }
            let text = with_dirs(d, home.as_deref(), base);
            let found = path::expand_glob(&text, home.as_deref(), base, case_fold, true);
            if let Some(why) = found.incomplete {
                lost.get_or_insert(why);
            }
            found.found
        };
        for key in path::DEFAULT_WORKDIR_KEYS {
            if let Some(Arg::Str(d)) = self.call.arg(key) {
                dirs.extend(go(d, current.as_deref(), &mut lost).unwrap_or_default());
            }
        }
        // Every directory the shell may be in at this point of the line: a `cd` may
        // fail (`cd missing; cd ..` goes up from where the line started), so each
        // adds where it leads and keeps where it was.
        let mut currents: Vec<Option<String>> = vec![current.take()];
        // Whether the line's directory is one only the shell knows.
        let mut unknown = false;
        let (cdpath, cdpath_unknown) = self.cdpath();
        'commands: for (ci, cand) in self.commands().iter().enumerate() {
            // A `cd` in a loop or a function may run again and again (`for i in 1 2; do
            // cd ..; done`): the line is read over once for each time it may run, or
            // until the directories it may be in stop growing (each pass adds one at
            // least, so the directory bound ends it).
            let passes = cand
                .line
                .repeated
                .iter()
                .filter(|(k, _)| {
                    cand.line.commands.get(*k).is_some_and(|c| {
                        matches!(
                            c.argv.first().map(String::as_str),
                            Some("cd" | "pushd" | "popd")
                        )
                    })
                })
                .fold(shell::Runs::Once, |most, (_, runs)| match (most, *runs) {
                    (shell::Runs::Any, _) | (_, shell::Runs::Any) => shell::Runs::Any,
                    (shell::Runs::AtMost(a), shell::Runs::AtMost(b)) => {
                        shell::Runs::AtMost(a.max(b))
                    }
                    (shell::Runs::Once, r) | (r, shell::Runs::Once) => r,
                });
            let mut pass = 1;
            let mut seen = currents.clone();
            'passes: loop {
                for (k, c) in cand.line.commands.iter().enumerate() {
                    // Past a bound every relative word counts as matching: no need to read on.
                    if lost.is_some() || path::budget_spent() {
                        break 'commands;
                    }
                    // Where this command runs: its subshell's directories, or where the
                    // command it runs right after left it (`cd d && rm x`).
                    let (bases, saved) = places.enter(ci, k, &cand.line.commands, &mut currents);
                    let is_cd = matches!(
                        c.argv.first().map(String::as_str),
                        Some("cd" | "pushd" | "popd")
                    );
                    let target = c.argv.iter().skip(1).find(|w| !w.starts_with('-'));
                    // `cd -`: back to where the line was, or to the `OLDPWD` it inherits.
                    let back = c.argv.first().is_some_and(|n| n == "cd")
                        && c.argv.iter().skip(1).any(|w| w == "-");
                    let mut next: Vec<Option<String>> = Vec::new();
                    let mut reached = false;
                    for cur in &bases {
                        if too_many(&mut dirs) {
                            break;
                        }
                        // Each directory option is relative to the one before it (`git -C
                        // .. -C home`, `env -C a env -C b`), and a `cd` in a shell it
                        // starts (`env -C .. bash -c 'cd home'`) to the last.
                        let mut base = cur.clone();
                        // The directories its options move it to: its own.
                        let mut mine: Vec<String> = Vec::new();
                        for form in &c.forms {
                            for d in shell::chdir_options(form) {
                                if unknown && !d.starts_with(['/', '~']) {
                                    continue;
                                }
                                // `git -C "$f"`: where any value the line gives leads,
                                // and home; `tar -C /proc -C $$`: only the shell knows.
                                if !shell::values::only_known_parameters(&d) {
                                    shell_only(&d, &mut lost);
                                    mine.extend(home.clone());
                                    let of = self.line_values(values, &cand.key);
                                    for v in of.iter().filter(|v| !v.contains('$')) {
                                        // Past the bound the line is lost anyway (below).
                                        if mine.len() > 4 * MAX_DIRS || too_many(&mut dirs) {
                                            break;
                                        }
                                        let all = go(v, base.as_deref(), &mut lost);
                                        mine.extend(all.unwrap_or_default());
                                    }
                                }
                                mine.extend(globbed(&d, base.as_deref(), &mut lost));
                                let all = go(&d, base.as_deref(), &mut lost).unwrap_or_default();
                                base = all.first().cloned().or(base);
                                mine.extend(all);
                            }
                        }
                        places.own(ci, k, &mine);
                        dirs.append(&mut mine);
                        if !is_cd {
                            continue;
                        }
                        let to = match target {
                            None => home.clone(),
                            // Relative to a directory only the shell knows: still unknown.
                            Some(t) if unknown && !t.starts_with(['/', '~']) => continue,
                            Some(t) => {
                                // `cd etc` (and `cd .ssh`) may go to any CDPATH directory's
                                // `etc`; bash skips CDPATH for `/x`, `.`, `..`, `./x`, `../x`.
                                let skips = t.starts_with(['/', '~'])
                                    || t == "."
                                    || t == ".."
                                    || t.starts_with("./")
                                    || t.starts_with("../");
                                if !skips && cdpath_unknown {
                                    lost.get_or_insert_with(|| {
                                        "`CDPATH` is given a value the reading cannot know"
                                            .to_string()
                                    });
                                }
                                if !skips {
                                    // A CDPATH entry is itself a path: `~`, relative entries.
                                    for entry in &cdpath {
                                        let bases = go(entry, base.as_deref(), &mut lost);
                                        for b in bases.unwrap_or_default() {
                                            let all =
                                                go(t, Some(&b), &mut lost).unwrap_or_default();
                                            places.led(&all);
                                            next.extend(all.first().cloned().map(Some));
                                            dirs.extend(all);
                                        }
                                    }
                                }
                                for g in globbed(t, base.as_deref(), &mut lost) {
                                    dirs.push(g.clone());
                                    next.push(Some(g));
                                }
                                // `x=../home; cd $x`: any value the line gives a variable,
                                // and home (`cd $!` with no job is `cd`).
                                if t.contains('$') {
                                    shell_only(t, &mut lost);
                                    next.push(home.clone());
                                    dirs.extend(home.clone());
                                    let of = self.line_values(values, &cand.key);
                                    for v in of.iter().filter(|v| !v.contains('$')) {
                                        if too_many(&mut dirs) {
                                            break;
                                        }
                                        let all =
                                            go(v, base.as_deref(), &mut lost).unwrap_or_default();
                                        places.led(&all);
                                        next.extend(all.first().cloned().map(Some));
                                        dirs.extend(all);
                                    }
                                }
                                // Lexically and through the links before `..` (`cd -P lnk/..`).
                                match go(t, base.as_deref(), &mut lost) {
                                    Some(all) => {
                                        places.led(&all);
                                        dirs.extend(all.iter().skip(1).cloned());
                                        all.into_iter().next()
                                    }
                                    None => {
                                        unknown = true;
                                        continue;
                                    }
                                }
                            }
                        };
                        if let Some(n) = to {
                            dirs.push(n.clone());
                            next.push(Some(n));
                            reached = true;
                        }
                    }
                    if is_cd {
                        // `popd` (and `cd -`) go back to any directory the line was in.
                        if back || c.argv.first().is_some_and(|n| n == "popd") {
                            next.extend(dirs.iter().cloned().map(Some));
                        }
                        if back {
                            if let Ok(old) = std::env::var("OLDPWD") {
                                dirs.push(old.clone());
                                next.push(Some(old));
                            }
                        }
                        if reached {
                            places.reached(ci, k, &next);
                        }
                        next.append(&mut currents);
                        next.sort();
                        next.dedup();
                        if reached {
                            unknown = false;
                        }
                        currents = next;
                    }
                    if currents.len() > MAX_DIRS || dirs.len() > 4 * MAX_DIRS {
                        lost.get_or_insert_with(|| {
                            format!("more than {MAX_DIRS} directories the line may be in")
                        });
                        currents.truncate(MAX_DIRS);
                    }
                    places.leave(ci, saved, &mut currents);
                }
                let more = match passes {
                    shell::Runs::Once => false,
                    shell::Runs::AtMost(n) => pass < n,
                    shell::Runs::Any => true,
                };
                // A subshell's directories grow too (`(for i in 1 2; do cd ..; done; rm x)`).
                let now: Vec<Option<String>> = currents
                    .iter()
                    .chain(places.in_subshells())
                    .cloned()
                    .collect();
                if !more || now.iter().all(|d| seen.contains(d)) {
                    break 'passes;
                }
                pass += 1;
                seen.extend(now);
                seen.sort();
                seen.dedup();
                currents.clone_from(&seen);
                places.new_pass();
            }
        }
        dirs.sort();
        dirs.dedup();
        (dirs, lost, places.finish())
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

/// When the directory D names what only the running shell knows (`$$`, `$!`, a
/// command's output: see [`shell::values::names_shell_state`]), say so in LOST: every
/// relative word after it may be anywhere.
pub(super) fn shell_only(d: &str, lost: &mut Option<String>) {
    if shell::values::names_shell_state(d) {
        lost.get_or_insert_with(|| {
            format!(
                "`{}` is a directory only the running shell knows",
                d.chars().take(200).collect::<String>()
            )
        });
    }
}
