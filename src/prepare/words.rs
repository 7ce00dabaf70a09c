//! The words of a call's command lines as path candidates: redirection targets and the
//! words of each simple command, in every directory its command may run in, with the
//! values the line gives its variables and loops, within the bounds on how many words and
//! paths a decision reads.

use super::dirs::*;
use super::git_tops::{git_tops, repo_stops, RepoStops};
use super::kernel_words::{mark_terminals, nobodys_file};
use super::made_links::Links;
use super::paths::*;
use super::walks;
use super::{places, CmdCand, Prepared};
use crate::path;
use crate::shell;

impl Prepared<'_> {
    /// The redirection targets and path words of the simple commands, each
    /// a candidate of the commands it belongs to.
    pub(super) fn command_paths(&self, out: &mut Vec<PathCand>) {
        if self.commands().is_empty() {
            return;
        }
        let mut line_values = LineValues::new();
        let mut budget = WordBudget {
            cwd: self.home_and_cwd().1.as_deref().map_or(0, path_cost),
            walk_left: walks::MAX_CALL_WALK_ENTRIES,
            ..WordBudget::default()
        };
        let OtherDirs { dirs, lost, per } = self.other_dirs(&mut line_values, &mut budget.cost);
        // Past the bound on directories, every relative word counts as matching anyway.
        let (dirs, per) = match lost {
            Some(_) => (Vec::new(), None),
            None => (dirs, per),
        };
        for (ci, cand) in self.commands().iter().enumerate() {
            let line_start = out.len();
            let values: &[String] = match cand.deny_only {
                false => self.line_values(&mut line_values, &cand.key),
                true => &[],
            };
            self.line_paths(out, ci, cand, &dirs, per.as_ref(), values, &mut budget);
            // A line read generously: every match in it is unsure; and a word only its
            // shell knows the value of (`$X/.ssh/x`, `$OLDPWD/..`, `~-/..`: the
            // environment's) may be any path (helper-92), while no allow rule reads the
            // line to stop the command it is part of.
            if let Some(why) = &cand.line.unsure {
                let mut any = Vec::new();
                for made in &mut out[line_start..] {
                    made.unsure.get_or_insert_with(|| why.clone());
                    if runtime_word(&made.raw, made.norm.is_err()) {
                        let mut all = self.unchecked(
                            made.source.clone(),
                            made.raw.clone(),
                            made.cmds.clone(),
                        );
                        all.unsure = Some(shell::Unsure::ShellValue(made.raw.clone()));
                        any.push(all);
                    }
                }
                out.extend(any);
            }
        }
        let facts = super::facts::Facts::new(self, &dirs);
        for ci in 0..self.commands().len() {
            if facts.changes(ci) {
                self.line_changes(out, ci, facts.changed(self, ci), &facts.bases);
            }
        }
        self.line_configs(out, &facts);
        self.line_lookups(out, &dirs, &facts);
        self.line_dash_names(out, &facts);
        self.line_split_names(out, &facts);
        scripts_named_twice(self.commands(), out);
        if path::budget_spent() {
            budget
                .exceeded
                .get_or_insert_with(|| path::BUDGET_SPENT.to_string());
        }
        self.unchecked_lines(out, budget.exceeded, lost);
    }

    /// The candidates of the words of CAND, line CI: in DIRS, the line's directories,
    /// or those PER says each of its commands runs in; with VALUES, what its
    /// variables carry to the commands (`f=~/.ssh/x; cat $f`).
    #[allow(clippy::too_many_arguments)]
    fn line_paths(
        &self,
        out: &mut Vec<PathCand>,
        ci: usize,
        cand: &CmdCand,
        dirs: &[String],
        per: Option<&PerCommand>,
        values: &[String],
        budget: &mut WordBudget,
    ) {
        let line = &cand.line;
        budget.dots = line.may_glob_dots();
        budget.dash_globs = line.dash_globs;
        budget.repo_stops = repo_stops(line);
        let all: Vec<(usize, usize)> = (0..line.commands.len()).map(|i| (ci, i)).collect();
        let (sets, set_of) = command_sets(ci, line.commands.len(), dirs, per);
        let loop_words = self.loop_words(cand);
        let plain = self.plain_words(cand);
        let cwd = self.home_and_cwd().1;
        // Where a relative redirection target may be.
        let bases: Vec<String> = cwd.iter().chain(dirs).cloned().collect();
        let tops = git_tops(line, cwd.as_deref(), &sets, &set_of, budget.repo_stops);
        let mut words = LineWords::new(self, cand, sets);
        let mut attributed = std::collections::HashSet::new();
        for (i, c) in line.commands.iter().enumerate() {
            let one = ((ci, i), set_of[i]);
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
                    (&[one.0][..], one.1)
                };
                let first = out.len();
                // A loop's variable as the target (helper-76: `bash -c 'for f in .env;
                // do cat < "$f"; done'`): each word of its list, as for an operand.
                match loop_words.get(target) {
                    Some(list) => {
                        for v in list {
                            words.push(out, true, v, cmds, set, budget);
                        }
                    }
                    None if self.names_a_loop(cand, target) => {
                        out.push(self.unread_value(&cand.key, target, (ci, i)));
                    }
                    None => {}
                }
                words.push(out, true, target, cmds, set, budget);
                mark_terminals(&mut out[first..], &bases);
            }
            // The words of a program the table does not know, or of one given an
            // option it does not know, are path candidates only generously: a match
            // on them is unsure.
            // Only its own words: those of wrappers before it (`xargs -a FILE`, `chroot
            // DIR`) are read for certain.
            let base = c
                .argv
                .first()
                .map_or("", |n| n.rsplit('/').next().unwrap_or(n));
            let unsure = match c.program {
                shell::Known::UnknownOption => Some(shell::Unsure::UnknownOption(base.to_owned())),
                shell::Known::Unknown
                    if c.argv
                        .first()
                        .is_some_and(|n| shell::lookup(n).is_none() && !shell::reads_itself(n)) =>
                {
                    Some(shell::Unsure::UnknownProgram(base.to_owned()))
                }
                _ => None,
            };
            let own: std::collections::HashSet<&str> =
                c.argv.iter().skip(1).map(String::as_str).collect();
            for word in &c.paths {
                words.unsure = unsure.clone().filter(|_| own.contains(word.as_str()));
                match word.strip_prefix('-') {
                    Some(opt) => words.option_value(out, opt, one, budget),
                    None => match tops.get(&(i, word.as_str())) {
                        Some(list) => {
                            for top in list {
                                words.word(out, top, one, budget);
                            }
                        }
                        None => {
                            let word = plain.get(word).unwrap_or(word);
                            // A loop's variable whose values were not found in the
                            // line's text (a loop inside a string a shell runs: `sh -c
                            // 'for f in ~/.ssh/x; do cat "$f"; done'`): not certain.
                            if !loop_words.contains_key(word) && self.names_a_loop(cand, word) {
                                out.push(self.unread_value(&cand.key, word, (ci, i)));
                            }
                            words.operand(out, word, &loop_words, one, budget);
                        }
                    },
                }
            }
            words.unsure = None;
            let place = &words.sets[set_of[i]];
            for g in &c.data_globs {
                let globs = (budget.dots, budget.dots || budget.dash_globs);
                self.data_glob_names(out, &cand.key, g, place, (ci, i), globs);
            }
            self.role_cands(out, &cand.key, c, place, (ci, i), budget);
            self.followed_links(
                out,
                &cand.key,
                line,
                (ci, i),
                (place.0, &place.1),
                &mut budget.links,
                &mut budget.walk_left,
            );
            self.git_repo_cands(out, &cand.key, line, i, &place.1, ci);
        }
        self.generous_cands(out, ci, cand, dirs, budget);
        // A redirection of no simple command (`> f` alone): every command's.
        for target in &line.redirects {
            if !attributed.contains(target) && !nobodys_file(target) {
                let first = out.len();
                words.push(out, true, target, &all, 0, budget);
                mark_terminals(&mut out[first..], &bases);
            }
        }
        for w in values {
            words.push(out, false, w, &all, 0, budget);
        }
    }

    /// The generous reading's path words of CAND, line CI (deny side, unsure): each
    /// its own candidate, never shared with a certain one.
    fn generous_cands(
        &self,
        out: &mut Vec<PathCand>,
        ci: usize,
        cand: &CmdCand,
        dirs: &[String],
        budget: &mut WordBudget,
    ) {
        for (i, c) in cand.line.commands.iter().enumerate() {
            let Some(g) = &c.generous else { continue };
            for w in &g.paths {
                if budget.exceeded.is_some() {
                    break;
                }
                let first = out.len();
                self.word_cands(out, &cand.key, false, w, dirs, true, budget);
                for made in &mut out[first..] {
                    made.cmds = vec![(ci, i)];
                    made.unsure = Some(g.why.clone());
                }
            }
        }
    }

    /// The candidates that say a line's words were not all read: for the commands a
    /// bound kept out of a line, and, past a bound on words (EXCEEDED) or directories
    /// (LOST), for every command. Past a directory only the running shell knows (a
    /// `cd "$(...)"`, LOST's word), each match is unsure: it rests on a value the reading
    /// cannot know; past a bound, certain.
    fn unchecked_lines(
        &self,
        out: &mut Vec<PathCand>,
        exceeded: Option<String>,
        lost: Option<(String, Option<String>)>,
    ) {
        for (ci, cand) in self.commands().iter().enumerate() {
            // Commands a bound kept out of the line may name any file.
            // (Unsure in a generous reading, as its every match is.)
            if let Some(why) = &cand.line.truncated {
                let cmds = (0..cand.line.commands.len()).map(|i| (ci, i)).collect();
                let mut made =
                    self.unchecked(PathSource::Word(cand.key.clone()), why.clone(), cmds);
                made.unsure.clone_from(&cand.line.unsure);
                out.push(made);
            }
        }
        let lost = lost.map(|(why, word)| (why, word.map(shell::Unsure::ShellValue)));
        for (why, unsure) in exceeded.map(|w| (w, None)).into_iter().chain(lost) {
            for (ci, cand) in self.commands().iter().enumerate() {
                let cmds = (0..cand.line.commands.len()).map(|i| (ci, i)).collect();
                let mut made =
                    self.unchecked(PathSource::Word(cand.key.clone()), why.clone(), cmds);
                made.unsure.clone_from(&unsure);
                out.push(made);
            }
        }
    }

    /// What the glob W expands to in each directory bash may expand it in: the
    /// request's directory (when HERE, or W names no directory of the line's) and each
    /// of DIRS (W relative, or naming the directory: `$PWD/*`, `~+/*`). GLOBS: how its
    /// globs match (see [`path::expand_glob`]).
    pub(super) fn glob_expansions(
        &self,
        w: &str,
        here: bool,
        dirs: &[String],
        globs: (bool, bool),
    ) -> Vec<path::Expansion> {
        let (home, cwd) = self.home_and_cwd();
        let relative = !w.starts_with('/') && !w.starts_with('~');
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
        bases
            .iter()
            .map(|base| {
                let text = with_dirs(w, home.as_deref(), base.as_deref());
                let case_fold = self.path_env().case_fold;
                path::expand_glob(&text, home.as_deref(), base.as_deref(), case_fold, globs)
            })
            .collect()
    }

    /// The candidates of one command word W (a redirection target when
    /// REDIRECT) of command argument KEY: as written (when HERE: its command may run in
    /// the request's directory, or W is absolute), its glob's matches, and relative to
    /// each of DIRS.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn word_cands(
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
        let literal = self.literal_tilde(source(), w, here, dirs);
        if let Some(u) = literal.iter().find_map(|l| l.unsure.clone()) {
            cand.uncertain.get_or_insert_with(|| {
                format!(
                    "`{}` names a file in the directory when its `~` is quoted, and one of that name is there",
                    w.chars().take(200).collect::<String>()
                )
            });
            // Either reading may be the one bash makes: a match on this one is unsure
            // too (helper-68: `grep -r x '~+'` where a directory `~+` is there).
            cand.unsure.get_or_insert(u);
        }
        if here || !relative {
            out.push(cand);
        }
        out.extend(literal);
        // The shell expands globs before the program runs (in a redirection target
        // too), in whichever directory the line is in.
        if w.contains(['*', '?', '[']) {
            let globs = (budget.dots, budget.dots || budget.dash_globs);
            for expansion in self.glob_expansions(w, here, dirs, globs) {
                for found in &expansion.found {
                    let mut cand = self.path_cand(source(), found);
                    // A word bash hands that starts with `-` is an option to the
                    // program that gets it (`diff [-]* f` with a file
                    // `--from-file=.env`): what the command does is not what its
                    // written words say.
                    let name = expansion.handed(found);
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
                out.push(self.path_cand_at(source(), w, Some(d)));
            }
        } else if relative {
            for d in dirs {
                out.push(self.path_cand_in(source(), w, d));
            }
        } else if out.last().is_some_and(|c| c.uncertain.is_some()) {
            // `/proc/self/cwd/x` is x in whichever directory the line is in.
            for d in dirs {
                out.push(self.path_cand_at(source(), w, Some(d)));
            }
        }
    }
}

/// The directories words are read in for each of a line's N commands (line CI): the
/// line's DIRS (the first set), and those of each command placed (see [`places`]; PER),
/// each set once; and which set each command's is.
fn command_sets(
    ci: usize,
    n: usize,
    dirs: &[String],
    per: Option<&PerCommand>,
) -> (Vec<places::Dirs>, Vec<usize>) {
    let mut sets: Vec<places::Dirs> = vec![(true, dirs.to_vec())];
    let set_of: Vec<usize> = (0..n)
        .map(|i| match per.and_then(|p| p.get(&(ci, i))) {
            None => 0,
            Some(d) => sets.iter().position(|s| s == d).unwrap_or_else(|| {
                sets.push(d.clone());
                sets.len() - 1
            }),
        })
        .collect();
    (sets, set_of)
}

/// One command, and which of its line's sets of directories it runs in.
type OneCommand = ((usize, usize), usize);

/// The words of one line being made candidates: a word judged once per line, for
/// every command it belongs to.
struct LineWords<'w, 'p> {
    prepared: &'w Prepared<'p>,
    key: &'w str,
    /// The directories words are read in (see [`command_sets`]).
    sets: Vec<places::Dirs>,
    /// How many commands the line has.
    every: usize,
    /// A line that may make a symbolic link (`ln -s .. h; cat h/.ssh/id_rsa`, `git
    /// apply`, `cp -a lnk h`) may read through it: the commands that may make one.
    links: Links,
    /// The candidates made for each word (a redirection or not, in a set, whether a
    /// link made before may lie along it): `out[range]`.
    at: std::collections::HashMap<(bool, &'w str, usize, bool, bool), std::ops::Range<usize>>,
    /// Which commands each of those candidates has (a word of every command of a long
    /// line is looked up once per command).
    has: std::collections::HashSet<(usize, (usize, usize))>,
    /// Why a match on the words being read is unsure, if it is (the words of a program
    /// the table does not know): their candidates are shared only with other such words.
    unsure: Option<shell::Unsure>,
}

impl<'w, 'p> LineWords<'w, 'p> {
    fn new(
        prepared: &'w Prepared<'p>,
        cand: &'w CmdCand,
        sets: Vec<places::Dirs>,
    ) -> LineWords<'w, 'p> {
        let commands = &cand.line.commands;
        LineWords {
            prepared,
            key: &cand.key,
            sets,
            every: commands.len(),
            links: Links::of(&cand.line),
            at: std::collections::HashMap::new(),
            has: std::collections::HashSet::new(),
            unsure: None,
        }
    }

    /// The candidates of W (a redirection target when REDIRECT) for the commands CMDS,
    /// read in the directories of SET: made once, and given more commands after.
    fn push(
        &mut self,
        out: &mut Vec<PathCand>,
        redirect: bool,
        w: &'w str,
        cmds: &[(usize, usize)],
        set: usize,
        budget: &mut WordBudget,
    ) {
        // Past a bound every word is unchecked: the candidate that says so
        // matches every deny-side path rule, for every command.
        if w.is_empty() || budget.exceeded.is_some() {
            return;
        }
        // `$OLDPWD` and `~-` name the directory before the last `cd`: any the line may
        // have been in, not only the command's own (helper-61: `cd .. && cd proj &&
        // cat ~-/.ssh/id_rsa`).
        let set = match ["$OLDPWD", "${OLDPWD}", "~-"].iter().any(|v| w.contains(v)) {
            true => 0,
            false => set,
        };
        let linked = self.links.before(cmds);
        let key = (redirect, w, set, self.unsure.is_some(), linked);
        if let Some(made) = self.at.get(&key) {
            // Every candidate here belongs to commands of this line only: one
            // with `every` of them has them all.
            for k in made.clone() {
                let have = &mut out[k].cmds;
                if have.len() == self.every {
                    continue;
                }
                if cmds.len() == self.every {
                    *have = cmds.to_vec();
                    continue;
                }
                for c in cmds {
                    if self.has.insert((k, *c)) {
                        have.push(*c);
                    }
                }
            }
            return;
        }
        let first = out.len();
        let (here, in_dirs) = &self.sets[set];
        self.prepared
            .word_cands(out, self.key, redirect, w, in_dirs, *here, budget);
        for (k, made) in out.iter_mut().enumerate().skip(first) {
            if linked && made.uncertain.is_none() {
                let (home, cwd) = self.prepared.home_and_cwd();
                if let Some(why) = through_missing(made, home.as_deref(), cwd.as_deref()) {
                    made.norm = Err(why.clone());
                    made.uncertain = Some(why);
                }
            }
            made.cmds = cmds.to_vec();
            if made.unsure.is_none() {
                made.unsure.clone_from(&self.unsure);
            }
            // One with every command needs no more.
            if cmds.len() < self.every {
                self.has.extend(cmds.iter().map(|c| (k, *c)));
            }
        }
        self.at.insert(key, first..out.len());
    }

    /// The candidates of W, a word of the one command ONE.
    fn word(
        &mut self,
        out: &mut Vec<PathCand>,
        w: &'w str,
        one: OneCommand,
        budget: &mut WordBudget,
    ) {
        self.push(out, false, w, &[one.0], one.1, budget);
    }

    /// The candidates of an option OPT (without its first `-`) of the command ONE with
    /// a path glued to it: `-f~/.ssh/x`, `--file=/etc/passwd`, `-t/root`.
    fn option_value(
        &mut self,
        out: &mut Vec<PathCand>,
        opt: &'w str,
        one: OneCommand,
        budget: &mut WordBudget,
    ) {
        if let Some((_, after)) = opt.split_once('=') {
            self.word(out, after, one, budget);
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
                self.word(out, &opt[k..], one, budget);
            }
        } else if let Some(k) = opt.find(['/', '~']) {
            self.word(out, &opt[k..], one, budget);
        }
    }

    /// The candidates of an operand WORD of the command ONE (its variables' values put
    /// in); LOOP_WORDS: the lists of the line's loop variables.
    fn operand(
        &mut self,
        out: &mut Vec<PathCand>,
        word: &'w str,
        loop_words: &'w std::collections::HashMap<String, Vec<String>>,
        one: OneCommand,
        budget: &mut WordBudget,
    ) {
        // A loop variable of a certain line (`for f in src/*.rs; do rm
        // "$f"; done`) is one of the words of its list.
        if let Some(list) = loop_words.get(word) {
            for v in list {
                self.word(out, v, one, budget);
            }
            return;
        }
        self.word(out, word, one, budget);
        // A response file (`gcc @args`, `nm @f`, `curl -d @f`,
        // `javac @f`): the program reads the file named after `@`.
        if let Some(file) = word.strip_prefix('@').filter(|f| !f.is_empty()) {
            self.word(out, file, one, budget);
        }
        if let Some((_, after)) = word.split_once('=') {
            self.word(out, after, one, budget);
        }
    }
}

/// A walk looked at once per call: its directory, role, whether its filters are
/// trusted, the command's words, the root word where pathspecs choose by it, and the
/// revision whose files it writes (`git checkout main`).
pub(super) type WalkKey = (
    String,
    shell::Role,
    bool,
    Vec<String>,
    Option<String>,
    Option<String>,
);

/// How many command words a call may have checked as paths.
#[derive(Default)]
pub(super) struct WordBudget {
    taken: usize,
    /// What reading the paths made from them cost (see [`path_cost`]): each word in
    /// every directory the line may be in; and the directories themselves.
    cost: usize,
    /// What the request's directory adds to each relative word it reads.
    cwd: usize,
    /// Why some words were not checked, once a bound is reached.
    pub(super) exceeded: Option<String>,
    /// Whether the globs of the line being read match names that start with `.` (see
    /// [`path::expand_glob`]): yes, unless the line is certain (bash reads it with its
    /// default options, no `dotglob`).
    dots: bool,
    /// Whether they match `.` and `..` too (see [`shell::CommandLine::dash_globs`]).
    dash_globs: bool,
    /// Whether git stops where it finds no repository in the line being read: nothing
    /// of the line can make one before it runs (see [`repo_stops`]).
    pub(super) repo_stops: RepoStops,
    /// What the walks of the call found, by (directory, role, command words), and how
    /// many directory entries they may still look at (see `walks`).
    pub(super) walked: std::collections::HashMap<WalkKey, walks::Walked>,
    pub(super) walk_left: usize,
    /// What looking for symbolic links found (see `links`).
    links: super::links::Looks,
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

/// Whether W, a word of a string read generously (UNREAD: its path could not be
/// read), holds a value only its shell knows: a parameter the reading does not know
/// (`$X`, `${X}`, `$OLDPWD`; `$HOME` is read), a command's output (`` `echo .e`nv ``,
/// helper-93), a directory of the shell's stack (`~-`, `~1`, `~+1`, `~-0`).
fn runtime_word(w: &str, unread: bool) -> bool {
    (unread && w.contains('$')) || w.contains('`') || stack_tilde(w)
}

/// Whether W starts with a tilde naming a directory of the shell's stack: `~-` (the
/// previous directory), `~N`, `~+N`, `~-N` (`~+` is the current one, read).
fn stack_tilde(w: &str) -> bool {
    let Some(rest) = w.strip_prefix('~') else {
        return false;
    };
    let head = rest.split('/').next().unwrap_or("");
    let (sign, digits) = match head.strip_prefix(['+', '-']) {
        Some(d) => (&head[..1], d),
        None => ("", head),
    };
    let numbered = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    numbered || (sign == "-" && digits.is_empty())
}
