//! The paths a call names: its path arguments, the redirection targets of
//! its command lines, and (for deny-side rules) the words of its simple
//! commands, each normalized once and matched against every path glob.

use super::{places, Prepared};
use crate::index::{glob_hits, BitSet};
use crate::path;
use crate::rule::Arg;
use crate::shell;

/// The value words of each command argument (see [`shell::value_words`]), read once.
type LineValues = std::collections::HashMap<String, Vec<String>>;

/// The directories each placed command's relative words are read in (see [`places`]).
type PerCommand = std::collections::HashMap<(usize, usize), places::Dirs>;

/// At most this many command words are checked as paths; past it, the rest
/// counts as matching every deny-side path rule.
pub const MAX_WORD_PATHS: usize = 4_096;

/// How many directories a line may be in at one point (each `cd` may fail).
pub const MAX_DIRS: usize = 32;

/// How much the paths a call's words make (each word read in each directory) and the
/// directories its line moves to may cost to read, in all, counted by [`path_cost`]:
/// about 8 ms of work on a machine of 2026.
pub const MAX_PATH_COST: usize = 160_000;

/// What reading the path P costs, in units of about 50 ns: each path is normalized
/// and read several ways, component by component (an `lstat` or a look in the
/// decision's memo each), so a path costs its bytes, 12 for each component and 32 for
/// itself.
fn path_cost(p: &str) -> usize {
    32 + p.len() + 12 * p.matches('/').count()
}

/// Whether DIRS, the directories a line's words may be relative to, are more than
/// the bound allows ([`MAX_DIRS`] four times over); repeats do not count (`cd /a; cd
/// /b` adds `/b` once for each directory the line may be in before it).
fn too_many(dirs: &mut Vec<String>) -> bool {
    if dirs.len() <= 4 * MAX_DIRS {
        return false;
    }
    dirs.sort();
    dirs.dedup();
    dirs.len() > 4 * MAX_DIRS
}

/// Whether the command ARGV may make a symbolic link: what the program table says
/// ([`crate::shell::Effect::Links`], of the subcommand given, and for `cp` only with the
/// options that copy or make links); any program it does not know may (the commands a
/// program runs, `find -exec ln`, are read as commands of their own).
pub(super) fn may_make_links(argv: &[String]) -> bool {
    let Some(name) = argv.first() else {
        return false;
    };
    match shell::lookup(name) {
        Some(p) => p.may_make_links(argv.get(1..).unwrap_or(&[])),
        None => true,
    }
}

/// Why CAND, a path of a line that may make symbolic links, is not certain: a
/// directory along it does not exist now, so a command of the line may make it a
/// link (`ln -s .. h; cat h/.ssh/id_rsa`). None when its directory exists.
fn through_missing(cand: &PathCand) -> Option<String> {
    let norm = cand.norm.as_ref().ok()?;
    let (parent, _) = norm.rsplit_once('/')?;
    if parent.is_empty() || path::realpath(parent).is_some() {
        return None;
    }
    Some(format!(
        "`{}` is in a directory that does not exist now, which a command of the line may make a link",
        cand.raw.chars().take(200).collect::<String>()
    ))
}

/// The script file a shell command ARGV runs (`bash s`, `sh -e ./s`, `. s`), if any.
fn script_operand(argv: &[String]) -> Option<&str> {
    let name = argv.first()?;
    if !(matches!(name.as_str(), "source" | ".") || shell::shell_named(name).is_some()) {
        return None;
    }
    let mut words = argv.iter().skip(1);
    while let Some(w) = words.next() {
        match w.as_str() {
            "-c" => return None,
            "-o" | "+o" | "-O" | "+O" => {
                words.next();
            }
            "--" => return words.next().map(String::as_str),
            w if w.starts_with(['-', '+']) => {}
            w => return Some(w),
        }
    }
    None
}

/// Mark uncertain the script a shell of a line runs when another command of the line
/// names the same file, however written (`echo 'rm y' > readme-link; bash README.md`,
/// where `readme-link` leads to `README.md`): that command may write it first.
fn scripts_named_twice(commands: &[super::CmdCand], out: &mut [PathCand]) {
    for (ci, cand) in commands.iter().enumerate() {
        for (i, c) in cand.line.commands.iter().enumerate() {
            let Some(script) = script_operand(&c.argv) else {
                continue;
            };
            let runs: Vec<String> = out
                .iter()
                .filter(|p| p.raw == script && p.cmds.contains(&(ci, i)))
                .filter_map(|p| p.norm.as_ref().ok().cloned())
                .collect();
            let other = |p: &PathCand| p.cmds.iter().any(|k| k.0 == ci && k.1 != i);
            let named = out
                .iter()
                .any(|p| other(p) && p.norm.as_ref().is_ok_and(|n| runs.contains(n)));
            if !named {
                continue;
            }
            for p in out.iter_mut() {
                if p.raw == script && p.cmds.contains(&(ci, i)) {
                    p.uncertain.get_or_insert_with(|| {
                        format!(
                            "the script `{}` is a file another command of the line names (and may write)",
                            script.chars().take(200).collect::<String>()
                        )
                    });
                }
            }
        }
    }
}

/// Where a path candidate came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSource {
    /// A path argument.
    Arg(String),
    /// A redirection target of the command line in this argument.
    Redirect(String),
    /// A word of a simple command in this argument (deny side only).
    Word(String),
    /// A glob pattern argument (`pattern`, `glob`, `include`), or a file it
    /// matches: judged by deny-side path rules.
    Pattern(String),
    /// A file named inside this argument's text (a diff's `---`/`+++` names):
    /// judged like a path argument.
    Embedded(String),
}

/// One path a call names, normalized.
#[derive(Debug)]
pub struct PathCand {
    pub source: PathSource,
    pub raw: String,
    /// The normalized path, or why it could not be read.
    pub norm: std::result::Result<String, String>,
    /// The path as written, expanded and collapsed without following links,
    /// when that differs from `norm`.
    pub lexical: Option<String>,
    /// Rules whose `:path` globs match the normalized path.
    pub hits: BitSet,
    /// Rules whose `:path` globs match the lexical path (when there is one).
    pub lexical_hits: BitSet,
    /// The simple commands it belongs to, as (command argument, command)
    /// indexes into `Prepared::commands`; empty for a path argument.
    pub cmds: Vec<(usize, usize)>,
    /// Why no allow rule may cover the commands it belongs to: it names a file
    /// of the running shell's process (`/proc/self/...`, `/dev/fd/...`), or
    /// stands for what a bound kept from being checked.
    pub uncertain: Option<String>,
    /// Why a deny-side match on it is unsure, when it is (DESIGN.md, "Certain and
    /// unsure matches"): a value only the running shell knows, a word of a program
    /// the table does not know read generously.
    pub unsure: Option<shell::Unsure>,
}

impl PathCand {
    /// Whether rule R's `:path` globs match: either form for deny-side
    /// rules, both forms for allow rules.
    pub fn glob_match(&self, r: usize, allow_side: bool) -> bool {
        if allow_side && self.norm.is_err() {
            return false;
        }
        match &self.lexical {
            None => self.hits.get(r),
            Some(_) if allow_side => self.hits.get(r) && self.lexical_hits.get(r),
            Some(_) => self.hits.get(r) || self.lexical_hits.get(r),
        }
    }
}

pub fn key_of(source: &PathSource) -> &str {
    match source {
        PathSource::Arg(k)
        | PathSource::Redirect(k)
        | PathSource::Word(k)
        | PathSource::Pattern(k)
        | PathSource::Embedded(k) => k,
    }
}

impl Prepared<'_> {
    fn is_path_key(&self, key: &str) -> bool {
        self.policy.any_path_keys.contains(key)
    }

    fn glob_hits_for(&self, p: &str) -> BitSet {
        let mut hits = BitSet::new(self.n());
        let mut scratch = Vec::new();
        glob_hits(&self.policy.path_abs, p, &mut hits, &mut scratch);
        if !self.policy.path_rel.set.is_empty() {
            if let Some(cwd) = &self.path_env().cwd {
                if let Some(rel) = path::relative_to(p, &cwd.to_string_lossy()) {
                    // The cwd itself is `.` (so `./**` covers it, `src/*` not).
                    let rel = if rel.is_empty() { "." } else { rel };
                    glob_hits(&self.policy.path_rel, rel, &mut hits, &mut scratch);
                }
            }
        }
        hits
    }

    pub(super) fn path_cand(&self, source: PathSource, raw: &str) -> PathCand {
        self.path_cand_at(source, raw, None)
    }

    /// The candidate for RAW in a shell whose directory is DIR (the request's
    /// when None): what `/proc/self/cwd` is there.
    fn path_cand_at(&self, source: PathSource, raw: &str, dir: Option<&str>) -> PathCand {
        if raw.len() > path::MAX_PATH_BYTES {
            let why = format!("a path longer than {} bytes", path::MAX_PATH_BYTES);
            return self.unchecked(source, why, Vec::new());
        }
        let (home, cwd) = self.home_and_cwd();
        let base = dir.map(str::to_string).or(cwd);
        // `$PWD/x` is x in the shell's directory, `$HOME/x` x at home: read so.
        let shell_word = matches!(source, PathSource::Word(_) | PathSource::Redirect(_));
        let put_in = (shell_word && only_pwd_and_home(raw) && self.pwd_home_free())
            .then(|| with_pwd(raw, home.as_deref(), base.as_deref()));
        let (norm, lexical) =
            path::normalize_and_lexical(put_in.as_deref().unwrap_or(raw), self.path_env());
        let mut norm = norm.map_err(|e| e.0);
        let mut hits = match &norm {
            Ok(p) => self.glob_hits_for(p),
            Err(_) => BitSet::new(self.n()),
        };
        let lexical = match (&norm, lexical) {
            (Ok(n), Ok(l)) if *n != l => Some(l),
            _ => None,
        };
        let lexical_hits = match &lexical {
            Some(l) => self.glob_hits_for(l),
            None => BitSet::new(0),
        };
        // The forms of the readings only when they are used (below).
        let process = path::reading_process(raw, home.as_deref(), base.as_deref());
        let uncertain = process.why(raw);
        if let (Some(why), true) = (&uncertain, norm.is_ok()) {
            norm = Err(why.clone());
        }
        if norm.is_err() {
            let read = path::readings(raw, home.as_deref(), base.as_deref());
            // A path refused for allow rules is still shown to deny-side
            // rules, read the ways the kernel or a shell could read it.
            for form in read.forms {
                let form = if self.path_env().case_fold {
                    form.to_lowercase()
                } else {
                    form
                };
                let more = self.glob_hits_for(&form);
                hits.union_with(&more);
            }
        }
        if process == path::Process::Unknowable {
            // What only the running shell knows may be anything: every
            // deny-side path rule sees it.
            for r in 0..self.n() {
                hits.set(r);
            }
        }
        let unsure = shell_value(raw, &norm, &process);
        PathCand {
            source,
            raw: raw.to_string(),
            norm,
            lexical,
            hits,
            lexical_hits,
            cmds: Vec::new(),
            unsure,
            uncertain,
        }
    }

    /// Whether no command line of the call names `PWD` or `HOME` other than to expand
    /// them (`$PWD`, `${HOME}`): a line that may give them a value (`read PWD`,
    /// `printf -v HOME`, `PWD=/etc`) leaves `$PWD/x` unreadable.
    fn pwd_home_free(&self) -> bool {
        *self.pwd_home_free.get_or_init(|| {
            self.call.args.iter().all(|(key, value)| match value {
                Arg::Str(text) if self.is_command_key(key) => {
                    ["PWD", "HOME"].iter().all(|name| only_expanded(text, name))
                }
                _ => true,
            })
        })
    }

    /// The same path candidate, resolved against another directory DIR
    /// (after `cd DIR`, or the tool's own working directory).
    fn path_cand_in(&self, source: PathSource, raw: &str, dir: &str) -> PathCand {
        let joined = format!("{}/{raw}", dir.trim_end_matches('/'));
        self.path_cand_at(source, &joined, Some(dir))
    }

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
    fn other_dirs(
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
    fn cdpath(&self) -> (Vec<String>, bool) {
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

    /// The value words of the command line under KEY (see [`shell::value_words`]),
    /// read once per call into VALUES.
    fn line_values<'m>(&self, values: &'m mut LineValues, key: &str) -> &'m [String] {
        values
            .entry(key.to_string())
            .or_insert_with(|| match self.call.arg(key) {
                Some(Arg::Str(text)) => shell::value_words(text),
                _ => Vec::new(),
            })
    }

    /// A path that was not valid Unicode: deny-side rules match what could
    /// be read of it; it never satisfies an allow rule.
    fn invalid_path_cand(&self, source: PathSource, lossy: &str) -> PathCand {
        let mut cand = self.path_cand(source, lossy);
        cand.norm = Err("a path that is not valid Unicode text".into());
        cand
    }

    fn unreadable(&self, source: PathSource, raw: String, why: String) -> PathCand {
        PathCand {
            source,
            raw,
            norm: Err(why),
            lexical: None,
            hits: BitSet::new(self.n()),
            lexical_hits: BitSet::new(0),
            cmds: Vec::new(),
            uncertain: None,
            unsure: None,
        }
    }

    /// Every path the call names: path arguments, the files a diff argument
    /// names, glob arguments, redirection targets, and the path words of its
    /// simple commands.
    pub fn paths(&self) -> &Vec<PathCand> {
        self.paths.get_or_init(|| {
            let mut out = Vec::new();
            self.arg_paths(&mut out);
            self.diff_paths(&mut out);
            self.glob_arg_paths(&mut out);
            self.command_paths(&mut out);
            out
        })
    }

    /// The path arguments, and the paths two arguments name together.
    fn arg_paths(&self, out: &mut Vec<PathCand>) {
        for (key, value) in &self.call.args {
            if !self.is_path_key(key) {
                continue;
            }
            let source = || PathSource::Arg(key.clone());
            match value {
                Arg::Null => {}
                Arg::Str(s) => out.push(self.path_cand(source(), s)),
                Arg::Invalid(s) => out.push(self.invalid_path_cand(source(), s)),
                Arg::List(items) => {
                    for item in items {
                        match item {
                            Arg::Str(s) => out.push(self.path_cand(source(), s)),
                            Arg::Invalid(s) => out.push(self.invalid_path_cand(source(), s)),
                            other => out.push(self.unreadable(
                                source(),
                                other.to_json().to_string(),
                                "a path that is not text".into(),
                            )),
                        }
                    }
                }
                other => out.push(self.unreadable(
                    source(),
                    other.to_json().to_string(),
                    "a path that is not text".into(),
                )),
            }
        }
        // Tools that open (expand-file-name NAME DIR) name one path in two
        // arguments: judge the joined path too.
        for (dir_key, name_key) in path::DEFAULT_PATH_JOINS {
            if let (Some(Arg::Str(dir)), Some(Arg::Str(name))) =
                (self.call.arg(dir_key), self.call.arg(name_key))
            {
                let joined = if name.starts_with('/') || name.starts_with('~') {
                    name.clone()
                } else {
                    format!("{}/{name}", dir.trim_end_matches('/'))
                };
                out.push(self.path_cand(PathSource::Arg((*dir_key).to_string()), &joined));
            }
        }
    }

    /// The files a unified diff argument patches: its `---` and `+++` names, with and
    /// without an `a/`/`b/` prefix, relative to the `path` argument (the directory
    /// `patch` runs in). A diff is the text of an argument of [`path::DIFF_TEXT_KEYS`]
    /// when a flag of [`path::DIFF_FLAG_KEYS`] is true, or when the text reads as one
    /// ([`path::looks_like_diff`]: `ApplyPatch`'s `patch`, `diff` given as text).
    fn diff_paths(&self, out: &mut Vec<PathCand>) {
        let flagged = path::DIFF_FLAG_KEYS.iter().any(|k| match self.call.arg(k) {
            Some(Arg::Bool(true)) => true,
            Some(Arg::Str(s)) => s == "true" || s == "t",
            _ => false,
        });
        let texts: Vec<&str> = path::DIFF_TEXT_KEYS
            .iter()
            .filter_map(|k| match self.call.arg(k) {
                Some(Arg::Str(t)) if flagged || path::looks_like_diff(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        if texts.is_empty() {
            return;
        }
        let base = match self.call.arg("path") {
            Some(Arg::Str(p)) => {
                let (home, cwd) = self.home_and_cwd();
                let forms = path::fallback_forms(p, home.as_deref(), cwd.as_deref());
                match forms.first() {
                    // A file's diff is applied in its directory.
                    Some(f) if !std::path::Path::new(f).is_dir() => {
                        f.rsplit_once('/').map(|(d, _)| {
                            if d.is_empty() {
                                "/".to_string()
                            } else {
                                d.to_string()
                            }
                        })
                    }
                    Some(f) => Some(f.clone()),
                    None => None,
                }
            }
            _ => None,
        };
        let source = || PathSource::Embedded("new_str".to_string());
        let mut seen = std::collections::HashSet::new();
        for name in texts.iter().flat_map(|t| path::diff_targets(t)) {
            if !seen.insert(name.clone()) {
                continue;
            }
            match (&base, name.starts_with('/') || name.starts_with('~')) {
                (Some(b), false) => out.push(self.path_cand_in(source(), &name, b)),
                _ => out.push(self.path_cand(source(), &name)),
            }
        }
    }

    /// Glob arguments (`Glob`'s `pattern`, `Grep`'s `glob`, `include`): the
    /// pattern itself and the files it matches now, relative to the `path`
    /// argument; deny side only (a regexp argument may share the name).
    fn glob_arg_paths(&self, out: &mut Vec<PathCand>) {
        // Most calls have no glob argument: they need no directory resolved.
        if !path::DEFAULT_GLOB_KEYS
            .iter()
            .any(|key| matches!(self.call.arg(key), Some(Arg::Str(_))))
        {
            return;
        }
        let (home, cwd) = self.home_and_cwd();
        let base = match self.call.arg("path") {
            Some(Arg::Str(p)) => path::fallback_forms(p, home.as_deref(), cwd.as_deref())
                .into_iter()
                .next(),
            _ => cwd.clone(),
        };
        for key in path::DEFAULT_GLOB_KEYS {
            let Some(Arg::Str(pattern)) = self.call.arg(key) else {
                continue;
            };
            let source = || PathSource::Pattern(key.to_string());
            let absolute = pattern.starts_with('/') || pattern.starts_with('~');
            match (&base, absolute) {
                (Some(b), false) => out.push(self.path_cand_in(source(), pattern, b)),
                _ => out.push(self.path_cand(source(), pattern)),
            }
            let case_fold = self.path_env().case_fold;
            let expansion =
                path::expand_glob(pattern, home.as_deref(), base.as_deref(), case_fold, true);
            for found in &expansion.found {
                out.push(self.path_cand(source(), found));
            }
            if let Some(why) = expansion.incomplete {
                out.push(self.unchecked(source(), why, Vec::new()));
            }
        }
    }

    /// The redirection targets and path words of the simple commands, each
    /// a candidate of the commands it belongs to.
    fn command_paths(&self, out: &mut Vec<PathCand>) {
        if self.commands().is_empty() {
            return;
        }
        let mut line_values = LineValues::new();
        let mut line_start = out.len();
        let mut budget = WordBudget {
            cwd: self.home_and_cwd().1.as_deref().map_or(0, path_cost),
            ..WordBudget::default()
        };
        let (dirs, lost, per) = self.other_dirs(&mut line_values, &mut budget.cost);
        // Past the bound on directories, every relative word counts as matching anyway.
        let (dirs, per) = match lost {
            Some(_) => (Vec::new(), None),
            None => (dirs, per),
        };
        for (ci, cand) in self.commands().iter().enumerate() {
            let line = &cand.line;
            budget.dots = line.uncertain.is_some()
                || line.opaque.is_some()
                || line.commands.iter().any(|c| c.opaque.is_some());
            let all: Vec<(usize, usize)> = (0..cand.line.commands.len()).map(|i| (ci, i)).collect();
            // The directories words are read in: the line's (the first), and those of
            // each command placed (see [`places`]), each set once.
            let mut sets: Vec<places::Dirs> = vec![(true, dirs.clone())];
            let set_of: Vec<usize> = (0..cand.line.commands.len())
                .map(|i| match per.as_ref().and_then(|p| p.get(&(ci, i))) {
                    None => 0,
                    Some(d) => sets.iter().position(|s| s == d).unwrap_or_else(|| {
                        sets.push(d.clone());
                        sets.len() - 1
                    }),
                })
                .collect();
            let every = all.len();
            // What variables carry to the commands (`f=~/.ssh/x; cat $f`).
            let values: &[String] = match cand.deny_only {
                false => self.line_values(&mut line_values, &cand.key),
                true => &[],
            };
            let loop_words = self.loop_words(cand);
            let plain = self.plain_words(cand);
            // A word judged once per line, for every command it belongs to: the
            // candidates made for it are `out[range]`.
            let mut at: std::collections::HashMap<(bool, &str, usize), std::ops::Range<usize>> =
                std::collections::HashMap::new();
            // Which commands each of those candidates has (a word of every command of a
            // long line is looked up once per command).
            let mut has: std::collections::HashSet<(usize, (usize, usize))> =
                std::collections::HashSet::new();
            // A line that may make a symbolic link (`ln -s .. h; cat h/.ssh/id_rsa`,
            // `git apply`, `cp -a lnk h`) may read through it.
            let links = cand.line.commands.len() > 1
                && cand.line.commands.iter().any(|c| may_make_links(&c.argv));
            let mut push = words_of(|out, redirect, w, cmds, set, budget| {
                // Past a bound every word is unchecked: the candidate that says so
                // matches every deny-side path rule, for every command.
                if w.is_empty() || budget.exceeded.is_some() {
                    return;
                }
                if let Some(made) = at.get(&(redirect, w, set)) {
                    // Every candidate here belongs to commands of this line only: one
                    // with `every` of them has them all.
                    for k in made.clone() {
                        let have = &mut out[k].cmds;
                        if have.len() == every {
                            continue;
                        }
                        if cmds.len() == every {
                            *have = cmds.to_vec();
                            continue;
                        }
                        for c in cmds {
                            if has.insert((k, *c)) {
                                have.push(*c);
                            }
                        }
                    }
                    return;
                }
                let first = out.len();
                let (here, in_dirs) = &sets[set];
                self.word_cands(out, &cand.key, redirect, w, in_dirs, *here, budget);
                for (k, made) in out.iter_mut().enumerate().skip(first) {
                    if links && made.uncertain.is_none() {
                        if let Some(why) = through_missing(made) {
                            made.norm = Err(why.clone());
                            made.uncertain = Some(why);
                        }
                    }
                    made.cmds = cmds.to_vec();
                    // One with every command needs no more.
                    if cmds.len() < every {
                        has.extend(cmds.iter().map(|c| (k, *c)));
                    }
                }
                at.insert((redirect, w, set), first..out.len());
            });
            let mut attributed = std::collections::HashSet::new();
            for (i, c) in cand.line.commands.iter().enumerate() {
                // `exec 3<f` (`exec < f`) without a command opens F for every command
                // of the shell after it (`exec 3<f; cat <&3`).
                let opens_for_all = c.argv.len() == 1 && c.argv[0] == "exec";
                for target in &c.redirects {
                    attributed.insert(target.clone());
                    let target = plain.get(target).unwrap_or(target);
                    if nobodys_file(target) {
                        continue;
                    }
                    let (cmds, set) = if opens_for_all {
                        (&all[..], 0)
                    } else {
                        (&[(ci, i)][..], set_of[i])
                    };
                    push(out, true, target, cmds, set, &mut budget);
                }
                for word in &c.paths {
                    match word.strip_prefix('-') {
                        // An option with a path glued to it: `-f~/.ssh/x`,
                        // `--file=/etc/passwd`, `-t/root`.
                        Some(opt) => {
                            if let Some((_, after)) = opt.split_once('=') {
                                push(out, false, after, &[(ci, i)], set_of[i], &mut budget);
                            }
                            // A cluster of short options whose last takes the rest as
                            // its value (`-olnk/x`, `-cflnk/x`, `-f../x`): the value may
                            // start after any letter before the first `/`.
                            if !opt.starts_with('-') && opt.contains(['/', '~', '.']) {
                                let end = opt.find('/').unwrap_or(opt.len());
                                for (k, _) in opt.char_indices().skip(1) {
                                    if k > end {
                                        break;
                                    }
                                    push(out, false, &opt[k..], &[(ci, i)], set_of[i], &mut budget);
                                }
                            } else if let Some(k) = opt.find(['/', '~']) {
                                push(out, false, &opt[k..], &[(ci, i)], set_of[i], &mut budget);
                            }
                        }
                        None => {
                            let word = plain.get(word).unwrap_or(word);
                            // A loop variable of a certain line (`for f in src/*.rs; do rm
                            // "$f"; done`) is one of the words of its list.
                            if let Some(list) = loop_words.get(word.as_str()) {
                                for v in list {
                                    push(out, false, v, &[(ci, i)], set_of[i], &mut budget);
                                }
                                continue;
                            }
                            push(out, false, word, &[(ci, i)], set_of[i], &mut budget);
                            // A response file (`gcc @args`, `nm @f`, `curl -d @f`,
                            // `javac @f`): the program reads the file named after `@`.
                            if let Some(file) = word.strip_prefix('@').filter(|f| !f.is_empty()) {
                                push(out, false, file, &[(ci, i)], set_of[i], &mut budget);
                            }
                            if let Some((_, after)) = word.split_once('=') {
                                push(out, false, after, &[(ci, i)], set_of[i], &mut budget);
                            }
                        }
                    }
                }
                self.role_cands(out, &cand.key, c, &dirs, (ci, i), &mut budget);
            }
            // The generous reading's path words (deny side, unsure): each its own
            // candidate, never shared with a certain one.
            for (i, c) in cand.line.commands.iter().enumerate() {
                let Some(g) = &c.generous else { continue };
                for w in &g.paths {
                    if budget.exceeded.is_some() {
                        break;
                    }
                    let first = out.len();
                    self.word_cands(out, &cand.key, false, w, &dirs, true, &mut budget);
                    for made in &mut out[first..] {
                        made.cmds = vec![(ci, i)];
                        made.unsure = Some(g.why.clone());
                    }
                }
            }
            // A redirection of no simple command (`> f` alone): every command's.
            for target in &cand.line.redirects {
                if !attributed.contains(target) && !nobodys_file(target) {
                    push(out, true, target, &all, 0, &mut budget);
                }
            }
            for w in values {
                push(out, false, w, &all, 0, &mut budget);
            }
            // A line read generously: every match in it is unsure.
            if let Some(why) = &cand.line.unsure {
                for made in &mut out[line_start..] {
                    made.unsure.get_or_insert_with(|| why.clone());
                }
            }
            line_start = out.len();
        }
        self.line_changes(out, &dirs);
        scripts_named_twice(self.commands(), out);
        if path::budget_spent() {
            budget
                .exceeded
                .get_or_insert_with(|| path::BUDGET_SPENT.to_string());
        }
        for (ci, cand) in self.commands().iter().enumerate() {
            // Commands a bound kept out of the line may name any file.
            if let Some(why) = &cand.line.truncated {
                let cmds = (0..cand.line.commands.len()).map(|i| (ci, i)).collect();
                out.push(self.unchecked(PathSource::Word(cand.key.clone()), why.clone(), cmds));
            }
        }
        for why in budget.exceeded.into_iter().chain(lost) {
            for (ci, cand) in self.commands().iter().enumerate() {
                let cmds = (0..cand.line.commands.len()).map(|i| (ci, i)).collect();
                out.push(self.unchecked(PathSource::Word(cand.key.clone()), why.clone(), cmds));
            }
        }
    }

    /// The candidates of what command C (at AT) walks and reads names from (its
    /// [`shell::SimpleCommand::roles`]): a walked directory meets every deny-side rule
    /// whose glob starts at a directory the walk reaches, or starts above it and
    /// reaches deep enough (`~/.ssh/**` and `grep -r x ~`). A glob that matches a name
    /// in any directory (`.env`) does not meet a walk: whether the walk opens one
    /// (`grep -r x --exclude=.env .`, `find . -name .env`) is not known, and such walks
    /// are everyday lines. A file of names meets every deny-side path rule, unsure.
    fn role_cands(
        &self,
        out: &mut Vec<PathCand>,
        key: &str,
        c: &shell::SimpleCommand,
        dirs: &[String],
        at: (usize, usize),
        budget: &mut WordBudget,
    ) {
        let deny_side = |r: usize| self.policy.rules.get(r).is_some_and(|x| !x.allow_side);
        for (role, w) in &c.roles {
            if budget.exceeded.is_some() {
                return;
            }
            if *role == shell::Role::NamesFrom {
                let why = format!("`{w}` names the files the command opens");
                let mut cand = self.unchecked(PathSource::Word(key.to_string()), why, vec![at]);
                let mut hits = BitSet::new(self.n());
                for r in (0..self.n()).filter(|&r| deny_side(r)) {
                    hits.set(r);
                }
                cand.hits = hits;
                cand.unsure = Some(shell::Unsure::NamesFrom(w.clone()));
                out.push(cand);
                continue;
            }
            if self.policy.path_anchors.is_empty() {
                continue;
            }
            let mut made = Vec::new();
            self.word_cands(&mut made, key, false, w, dirs, true, budget);
            let cwd = self.path_env().cwd.as_ref().map(|p| p.to_string_lossy());
            let fold = self.path_env().case_fold;
            for m in made {
                let mut reached = BitSet::new(self.n());
                let forms = m.norm.iter().chain(m.lexical.iter());
                for form in forms {
                    let form = if fold {
                        form.to_lowercase()
                    } else {
                        form.clone()
                    };
                    for a in &self.policy.path_anchors {
                        if !a.anywhere && deny_side(a.rule) && a.reaches(&form, cwd.as_deref()) {
                            reached.set(a.rule);
                        }
                    }
                }
                if reached.iter().next().is_none() {
                    continue;
                }
                let mut hits = m.hits;
                hits.union_with(&reached);
                out.push(PathCand {
                    hits,
                    cmds: vec![at],
                    ..m
                });
            }
        }
    }

    /// The words of CAND's line that are a loop variable alone (`"$f"`), each with the
    /// words of its list, when the line is certain (where such a word is a loop
    /// variable that nothing else gives a value) and the lists are plain text: no
    /// quote, escape or `$` that would make its words other than the text's.
    fn loop_words(&self, cand: &super::CmdCand) -> std::collections::HashMap<String, Vec<String>> {
        let mut out = std::collections::HashMap::new();
        let Some(Arg::Str(text)) = self.call.arg(&cand.key) else {
            return out;
        };
        if !cand.line.is_certain() || cand.deny_only || !text.contains("for ") {
            return out;
        }
        for c in &cand.line.commands {
            for w in &c.paths {
                let Some(name) = loop_name(w) else {
                    continue;
                };
                if out.contains_key(w) || !plain_lists(text, name) {
                    continue;
                }
                let values = shell::values::values_of(text, name);
                if !values.is_empty() {
                    out.insert(w.clone(), values);
                }
            }
        }
        out
    }

    /// The words of CAND's line that expand a variable the line gives a plain value
    /// (`d=build; rm -rf "$d/x"`), each with the values put in, when the line is certain
    /// (see [`shell::values::plain_values`]).
    fn plain_words(&self, cand: &super::CmdCand) -> std::collections::HashMap<String, String> {
        let mut out = std::collections::HashMap::new();
        let Some(Arg::Str(text)) = self.call.arg(&cand.key) else {
            return out;
        };
        if !cand.line.is_certain() || cand.deny_only || !text.contains('$') {
            return out;
        }
        let values = shell::values::plain_values(text);
        if values.is_empty() {
            return out;
        }
        for c in &cand.line.commands {
            for w in c.paths.iter().chain(&c.redirects) {
                if let Some(put) = shell::values::put_values(w, &values) {
                    out.insert(w.clone(), put);
                }
            }
        }
        out
    }

    /// A candidate for what a bound kept from being checked, or what only the
    /// running shell knows (WHY): it counts as matching every deny-side path
    /// rule, never satisfies an allow rule, and no allow rule covers the
    /// commands CMDS it belongs to.
    fn unchecked(&self, source: PathSource, why: String, cmds: Vec<(usize, usize)>) -> PathCand {
        let mut hits = BitSet::new(self.n());
        for r in 0..self.n() {
            hits.set(r);
        }
        PathCand {
            source,
            raw: format!("({why})"),
            norm: Err(why.clone()),
            lexical: None,
            hits,
            lexical_hits: BitSet::new(0),
            cmds,
            uncertain: Some(why),
            unsure: None,
        }
    }

    /// The candidates of one command word W (a redirection target when
    /// REDIRECT) of command argument KEY: as written (when HERE: its command may run in
    /// the request's directory, or W is absolute), its glob's matches, and relative to
    /// each of DIRS.
    #[allow(clippy::too_many_arguments)]
    fn word_cands(
        &self,
        out: &mut Vec<PathCand>,
        key: &str,
        redirect: bool,
        w: &str,
        dirs: &[String],
        here: bool,
        budget: &mut WordBudget,
    ) {
        if !budget.take(w, dirs) {
            return;
        }
        let source = || {
            if redirect {
                PathSource::Redirect(key.to_string())
            } else {
                PathSource::Word(key.to_string())
            }
        };
        let mut cand = self.path_cand(source(), w);
        let relative = !w.starts_with('/') && !w.starts_with('~');
        if redirect && relative && !dirs.is_empty() && cand.norm.is_ok() {
            // The line changes directory: which one the target is in is not certain.
            cand.norm = Err("a relative path in a line that changes directory".into());
        }
        if here || !relative {
            out.push(cand);
        }
        // The shell expands globs before the program runs (in a redirection target
        // too), in whichever directory the line is in.
        if w.contains(['*', '?', '[']) {
            let (home, cwd) = self.home_and_cwd();
            let case_fold = self.path_env().case_fold;
            let names_dir = ["$PWD", "${PWD}", "$OLDPWD", "${OLDPWD}", "~+", "~-"]
                .iter()
                .any(|v| w.contains(v));
            let mut bases = match here || !(relative || names_dir) {
                true => vec![cwd],
                false => Vec::new(),
            };
            if relative || names_dir {
                bases.extend(dirs.iter().cloned().map(Some));
            }
            for base in &bases {
                let text = with_dirs(w, home.as_deref(), base.as_deref());
                let expansion = path::expand_glob(
                    &text,
                    home.as_deref(),
                    base.as_deref(),
                    case_fold,
                    budget.dots,
                );
                for found in &expansion.found {
                    let mut cand = self.path_cand(source(), found);
                    // A name that starts with `-` is an option to the program that
                    // gets it (`diff [-]* f` with a file `--from-file=.env`): what the
                    // command does is not what its written words say.
                    let name = found.rsplit('/').next().unwrap_or(found);
                    if name.starts_with('-') && cand.uncertain.is_none() {
                        cand.uncertain = Some(format!(
                            "the glob `{}` names `{}`, which the program reads as an option",
                            w.chars().take(100).collect::<String>(),
                            name.chars().take(100).collect::<String>()
                        ));
                    }
                    out.push(cand);
                }
                if let Some(why) = expansion.incomplete {
                    budget.exceeded.get_or_insert(why);
                }
            }
        }
        // `$PWD/x` (and `$OLDPWD`, `~+`, `~-`) is x in whichever directory the line is in.
        let names_dir = ["$PWD", "${PWD}", "$OLDPWD", "${OLDPWD}", "~+", "~-"]
            .iter()
            .any(|v| w.contains(v));
        if names_dir {
            for d in dirs {
                out.push(self.path_cand_at(PathSource::Word(key.to_string()), w, Some(d)));
            }
        } else if relative {
            for d in dirs {
                out.push(self.path_cand_in(PathSource::Word(key.to_string()), w, d));
            }
        } else if out.last().is_some_and(|c| c.uncertain.is_some()) {
            // `/proc/self/cwd/x` is x in whichever directory the line is in.
            for d in dirs {
                out.push(self.path_cand_at(PathSource::Word(key.to_string()), w, Some(d)));
            }
        }
    }
}

/// The name W expands when it is one variable alone (`$f`, `${f}`), not one the path
/// rules read themselves (`HOME`, `PWD`, `OLDPWD`).
pub(super) fn loop_name(w: &str) -> Option<&str> {
    let rest = w.strip_prefix('$')?;
    let name = match rest.strip_prefix('{') {
        Some(inner) => inner.strip_suffix('}')?,
        None => rest,
    };
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(name, "HOME" | "PWD" | "OLDPWD");
    ok.then_some(name)
}

/// Whether every `for NAME in` list of TEXT is plain text up to its end (`;`, a newline
/// or `do`): no quote, escape, `$`, backquote or brace, and there is one at least.
pub(super) fn plain_lists(text: &str, name: &str) -> bool {
    let head = format!("for {name} in ");
    let mut found = false;
    for (at, _) in text.match_indices(&head) {
        let list = &text[at + head.len()..];
        let end = list.find([';', '\n']).unwrap_or(list.len());
        let list = &list[..end];
        let list = list.split(" do ").next().unwrap_or(list);
        if list.contains([
            '"', '\'', '\\', '$', '`', '{', '}', '(', ')', '&', '|', '<', '>',
        ]) {
            return false;
        }
        found = true;
    }
    found && text.matches(&format!("{name}=")).count() == 0
}

/// Whether W expands no parameter but `$PWD` and `$HOME` (and `${PWD}`, `${HOME}`),
/// and has at least one of them.
fn only_pwd_and_home(w: &str) -> bool {
    if !w.contains('$') {
        return false;
    }
    let mut rest = w;
    while let Some(at) = rest.find('$') {
        let after = &rest[at + 1..];
        let name = ["{PWD}", "{HOME}", "PWD", "HOME"]
            .into_iter()
            .find(|n| after.starts_with(n));
        let Some(name) = name else {
            return false;
        };
        let tail = &after[name.len()..];
        // `$PWDX` and `$HOME_2` are other variables.
        if !name.starts_with('{')
            && tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            return false;
        }
        rest = tail;
    }
    true
}

/// Whether every NAME in TEXT that is not part of a longer name is expanded (`$NAME`,
/// `${NAME}`).
fn only_expanded(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).all(|(at, _)| {
        let before = &text[..at];
        let after = &text[at + name.len()..];
        before.ends_with('$')
            || (before.ends_with("${") && after.starts_with('}'))
            || before.ends_with(ident)
            || after.starts_with(ident)
    })
}

/// W (see [`only_pwd_and_home`]) with `$HOME` made HOME and `$PWD` made DIR.
fn with_pwd(w: &str, home: Option<&str>, dir: Option<&str>) -> String {
    let mut text = w.to_string();
    if let Some(h) = home {
        for var in ["${HOME}", "$HOME"] {
            text = text.replace(var, h);
        }
    }
    if let Some(d) = dir {
        for var in ["${PWD}", "$PWD"] {
            text = text.replace(var, d);
        }
    }
    text
}

/// Whether the redirection target T is nobody's file: `/dev/null`, which reads empty and
/// keeps nothing, and the standard streams (`/dev/stdout`, `/dev/fd/2`, ...), which bash
/// opens as a duplicate of a descriptor the shell already has, as `>&1` does (a file
/// the line opened there is a target of its own).
fn nobodys_file(t: &str) -> bool {
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

/// W with `$HOME` (and `${HOME}`) made HOME, and `$PWD`, `$OLDPWD`, `~+`, `~-` made
/// DIR: a directory the line may be in.
fn with_dirs(w: &str, home: Option<&str>, dir: Option<&str>) -> String {
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

/// Why a match on the path RAW (normalized to NORM) is unsure, if it is: the whole
/// word is a variable only the running shell knows (`"$d"`; `$HOME`, `$PWD` and
/// `$OLDPWD` are known), or the value of one given a command's output. A word with a known part (`~/.ssh/$x`) matches for certain.
fn shell_value(
    raw: &str,
    norm: &std::result::Result<String, String>,
    _process: &path::Process,
) -> Option<shell::Unsure> {
    if norm.is_ok() {
        return None;
    }
    // The value of a variable given a command's output (`tmp=$(mktemp)`, whose value
    // the line's values read as `$`): as unsure as `$tmp` itself.
    if raw == "$" {
        return Some(shell::Unsure::ShellValue(raw.to_string()));
    }
    let name = raw.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(name);
    let plain = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    (plain && !matches!(name, "HOME" | "PWD" | "OLDPWD"))
        .then(|| shell::Unsure::ShellValue(raw.to_string()))
}

/// When the directory D names what only the running shell knows (`$$`, `$!`, a
/// command's output: see [`shell::values::names_shell_state`]), say so in LOST: every
/// relative word after it may be anywhere.
fn shell_only(d: &str, lost: &mut Option<String>) {
    if shell::values::names_shell_state(d) {
        lost.get_or_insert_with(|| {
            format!(
                "`{}` is a directory only the running shell knows",
                d.chars().take(200).collect::<String>()
            )
        });
    }
}

/// F, as a closure over words that live as long as `'a` (which a closure's own
/// signature cannot say).
fn words_of<'a, F>(f: F) -> F
where
    F: FnMut(&mut Vec<PathCand>, bool, &'a str, &[(usize, usize)], usize, &mut WordBudget),
{
    f
}

/// How many command words a call may have checked as paths.
#[derive(Default)]
struct WordBudget {
    taken: usize,
    /// What reading the paths made from them cost (see [`path_cost`]): each word in
    /// every directory the line may be in; and the directories themselves.
    cost: usize,
    /// What the request's directory adds to each relative word it reads.
    cwd: usize,
    /// Why some words were not checked, once a bound is reached.
    exceeded: Option<String>,
    /// Whether the globs of the line being read match names that start with `.` (see
    /// [`path::expand_glob`]): yes, unless the line is certain (bash reads it with its
    /// default options, no `dotglob`).
    dots: bool,
}

impl WordBudget {
    /// Whether word W may be checked, in the request's directory and in each of DIRS;
    /// past a bound, no.
    fn take(&mut self, w: &str, dirs: &[String]) -> bool {
        // Past the file-system budget every further word would be unchecked anyway.
        if path::budget_spent() {
            self.exceeded
                .get_or_insert_with(|| path::BUDGET_SPENT.to_string());
            return false;
        }
        if self.taken >= MAX_WORD_PATHS {
            self.exceeded.get_or_insert_with(|| {
                format!("more than {MAX_WORD_PATHS} words to check as paths")
            });
            return false;
        }
        // The word as written (from the request's directory), and joined to each
        // directory (`DIR/W`).
        let relative = !w.starts_with(['/', '~']);
        let cost = path_cost(w)
            + if relative { self.cwd } else { 0 }
            + dirs
                .iter()
                .map(|d| path_cost(d) + path_cost(w))
                .sum::<usize>();
        if self.cost + cost > MAX_PATH_COST {
            self.exceeded.get_or_insert_with(|| {
                "more paths to check than the bound on reading paths allows (words in every directory the line may be in)".to_string()
            });
            return false;
        }
        self.taken += 1;
        self.cost += cost;
        true
    }
}
