//! The candidates of what a command walks and reads names from (its
//! [`shell::SimpleCommand::roles`]): each walked directory against the deny-side path
//! rules it reaches, and what the walk finds below it (see [`super::walks`]).

use super::git_tops::git_top;
use super::paths::*;
use super::walks::{self, Filters, Walked};
use super::words::WordBudget;
use super::{places, Prepared};
use crate::index::BitSet;
use crate::shell::{self, Role, Unsure};

/// One walk of a command: what it is, where it runs and what it may meet.
struct Walk<'a> {
    /// The command, and where it is in the call (command argument, command).
    c: &'a shell::SimpleCommand,
    at: (usize, usize),
    role: Role,
    /// Deny-side rules that match a name in any directory, when the walk opens files.
    anywhere: BitSet,
    /// What the command's options choose of the files it opens; Err when the reading
    /// cannot trust them.
    filters: Result<Filters, ()>,
    /// The request's directory, and whether names fold case there.
    cwd: Option<String>,
    fold: bool,
}

impl Prepared<'_> {
    /// The candidates of what command C (at AT) walks and reads names from (its
    /// [`shell::SimpleCommand::roles`]): a walked directory meets every deny-side rule
    /// whose glob starts at a directory the walk reaches, or starts above it and
    /// reaches deep enough (`~/.ssh/**` and `grep -r x ~`). A glob that matches a name
    /// in any directory (`.env`) meets a walk that opens the files below it when the
    /// directory holds such a file (see `walks`): unsure when the command's patterns
    /// choose the files it opens (`grep -r x --exclude=.env .`) or the directory is too
    /// large to look through; a walk of names only (`find . -name .env`) does not meet
    /// it. A file of names meets every deny-side path rule, unsure.
    pub(super) fn role_cands(
        &self,
        out: &mut Vec<PathCand>,
        key: &str,
        c: &shell::SimpleCommand,
        place: &places::Dirs,
        at: (usize, usize),
        budget: &mut WordBudget,
    ) {
        let no_index = self.implied_no_index(key, c, place.0, &place.1);
        for (role, w) in c.roles.iter().chain(&no_index) {
            if budget.exceeded.is_some() {
                return;
            }
            if *role == Role::NamesFrom {
                let why = format!("`{w}` names the files the command opens");
                let mut cand = self.unchecked(PathSource::Word(key.to_string()), why, vec![at]);
                cand.hits = self.deny_side_rules();
                cand.unsure = Some(Unsure::NamesFrom(w.clone()));
                out.push(cand);
                continue;
            }
            if self.policy.path_anchors.is_empty() {
                continue;
            }
            // A revision git writes out: the walk is of the top of the work tree, by
            // the revision's files (`git_objects`).
            // (`REV\0SPEC`: from the pathspec SPEC: `git_commits`.)
            let (w, commit) = match role {
                Role::WriteCommit => match w.split_once('\0') {
                    Some((rev, spec)) => (spec, Some(rev.to_string())),
                    None => (":/", Some(w.clone())),
                },
                _ => (w.as_str(), None),
            };
            let mut filters = self.walk_filters(out, c, *role, w, at);
            if let Ok(f) = &mut filters {
                f.commit = commit;
            }
            let walk = Walk {
                c,
                at,
                role: *role,
                anywhere: self.anywhere_rules(*role),
                filters,
                cwd: self
                    .path_env()
                    .cwd
                    .as_ref()
                    .map(|p| p.to_string_lossy().into_owned()),
                fold: self.path_env().case_fold,
            };
            self.walk_cands(out, key, w, &walk, place, budget);
        }
    }

    /// Every deny-side rule of the policy.
    fn deny_side_rules(&self) -> BitSet {
        let mut hits = BitSet::new(self.n());
        for r in (0..self.n()).filter(|&r| self.deny_side(r)) {
            hits.set(r);
        }
        hits
    }

    /// Whether rule R is on the deny side (deny, ask, stop).
    fn deny_side(&self, r: usize) -> bool {
        self.policy.rules.get(r).is_some_and(|x| !x.allow_side)
    }

    /// The deny-side rules that match a name in any directory, which a walk of ROLE
    /// meets when it opens the files below a directory holding one (see `walks`).
    fn anywhere_rules(&self, role: Role) -> BitSet {
        let mut anywhere = BitSet::new(self.n());
        if walks::opens_files(role) {
            for a in self.policy.path_anchors.anywhere() {
                if self.deny_side(a.rule) {
                    anywhere.set(a.rule);
                }
            }
        }
        anywhere
    }

    /// What C's options choose of the files its walk of ROLE from W opens: not what
    /// its ignore files choose when the line may change them before it (at AT), nor
    /// git's pathspecs where names may fold case.
    fn walk_filters(
        &self,
        out: &[PathCand],
        c: &shell::SimpleCommand,
        role: Role,
        w: &str,
        at: (usize, usize),
    ) -> Result<Filters, ()> {
        let mut filters = Filters::of(c)?;
        if filters.reads_ignores(role) && self.ignores_change_before(out, at) {
            return Err(());
        }
        if filters.pathspecs.is_some() && self.pathspecs_may_fold() {
            filters.pathspecs = None;
        }
        if let Some(p) = &mut filters.pathspecs {
            p.set_root(w);
        }
        Ok(filters)
    }

    /// The candidates of WALK from the word W (of the command argument KEY), in each
    /// directory PLACE says it may run in.
    fn walk_cands(
        &self,
        out: &mut Vec<PathCand>,
        key: &str,
        w: &str,
        walk: &Walk,
        place: &places::Dirs,
        budget: &mut WordBudget,
    ) {
        // Where C runs: the request's directory (HERE) and DIRS.
        let (here, dirs) = (place.0, &place.1[..]);
        // git's top, looked for from where C runs.
        let (from, above) = match (here, dirs.split_first()) {
            (true, _) | (false, None) => (walk.cwd.as_deref(), dirs),
            (false, Some((first, rest))) => (Some(first.as_str()), rest),
        };
        let mut made = Vec::new();
        for w in git_top(w, from, above, budget.repo_stops) {
            self.word_cands(&mut made, key, false, &w, dirs, here, budget);
        }
        // git's tracked files where git finds no repository: none, git stops
        // (helper-66: `git -C .. grep KEY` outside any repository).
        let tracked = matches!(
            walk.role,
            Role::WalkTracked | Role::ShowTracked | Role::WriteTracked | Role::WriteCommit
        );
        if tracked && walk.c.argv.first().is_some_and(|n| n == "git") {
            let stops = budget.repo_stops;
            made.retain(|m| {
                m.norm
                    .as_ref()
                    .map_or(true, |n| !stops.at(std::path::Path::new(n)))
            });
        }
        let tilde = made.iter().find_map(|m| match &m.unsure {
            Some(u @ Unsure::QuotedTilde(_)) => Some(u.clone()),
            _ => None,
        });
        let start = out.len();
        for m in made {
            self.walked_cand(out, m, walk, budget);
        }
        // A word whose `~` may be quoted (see `literal_tilde`): every match of its
        // walks is unsure, either reading may be the one bash makes (helper-68).
        if let Some(why) = &tilde {
            for p in &mut out[start..] {
                p.unsure.get_or_insert_with(|| why.clone());
            }
        }
    }

    /// The candidates of WALK from the directory M: the directory itself against the
    /// rules it reaches, and what the walk finds below it.
    fn walked_cand(
        &self,
        out: &mut Vec<PathCand>,
        m: PathCand,
        walk: &Walk,
        budget: &mut WordBudget,
    ) {
        let blank = |hits: BitSet, unsure: Option<Unsure>| PathCand {
            source: m.source.clone(),
            raw: m.raw.clone(),
            norm: m.norm.clone(),
            lexical: m.lexical.clone(),
            hits,
            lexical_hits: BitSet::new(self.n()),
            cmds: vec![walk.at],
            uncertain: None,
            unsure,
        };
        // A walked directory the reading cannot resolve (`lnk/..`: the kernel goes up
        // from the link's target; a name Emacs would read otherwise) meets every rule,
        // unsure: no rule's directory is known to be apart from it. (A word with `$`
        // is read with the values the line gives it.)
        if m.norm.is_err() && !m.raw.contains('$') && walks::opens_files(walk.role) {
            let why = Unsure::UnreadWalk(m.raw.clone());
            out.push(blank(self.deny_side_rules(), Some(why)));
        }
        let mut reached = BitSet::new(self.n());
        // git's store is looked at for every deny-side rule: a link in the work tree
        // can lead its walk anywhere.
        let store = walk.role == Role::ShowTracked;
        if walk.anywhere.iter().next().is_some() || store {
            if let Ok(dir) = &m.norm {
                let (met, unsure) = self.walk_found(out, dir, walk, budget, &mut reached);
                if met.iter().next().is_some() {
                    out.push(blank(met, unsure));
                }
            }
        }
        for form in m.norm.iter().chain(m.lexical.iter()) {
            let form = match walk.fold {
                true => form.to_lowercase(),
                false => form.clone(),
            };
            self.policy
                .path_anchors
                .reaching(&form, walk.cwd.as_deref(), |a| {
                    if self.deny_side(a.rule) {
                        reached.set(a.rule);
                    }
                });
        }
        if reached.iter().next().is_none() {
            return;
        }
        let mut hits = m.hits;
        hits.union_with(&reached);
        out.push(PathCand {
            hits,
            cmds: vec![walk.at],
            ..m
        });
    }

    /// What WALK finds below DIR, looked at once per call for the same directory,
    /// role, words and filters: the rules it surely meets go into REACHED (matched
    /// with DIR's own candidate); the rules it may meet come back, with why unsure.
    fn walk_found(
        &self,
        out: &[PathCand],
        dir: &str,
        walk: &Walk,
        budget: &mut WordBudget,
        reached: &mut BitSet,
    ) -> (BitSet, Option<Unsure>) {
        let filters = walk.filters.as_ref().ok();
        // Options not read here may bring dotfiles back (rg's `-g '*'`, `-t`): the
        // look then sees every file, and a match is unsure.
        let look = match walk.role {
            Role::WalkVisible | Role::WalkUnignored if filters.is_none() => Role::Walk,
            r => r,
        };
        // The same words with or without their filters trusted.
        let root = filters
            .and_then(|f| f.pathspecs.as_ref())
            .and_then(|p| p.root().map(str::to_string));
        let key = (
            dir.to_string(),
            look,
            filters.is_some(),
            walk.c.argv.clone(),
            root,
            filters.and_then(|f| f.commit.clone()),
        );
        // git's index as it is now is not the one a git command before it in the line
        // leaves (`git add -N . && git diff`).
        let stale = walks::opens_tracked(look) && self.index_changes_before(out, walk.at);
        let moved = look == Role::WriteCommit && self.git_runs_before(walk.at);
        let found = match budget.walked.get(&key) {
            _ if stale => Walked::Unread(Unsure::GitStore(
                "a command before it in the line may change git's index".into(),
            )),
            _ if moved => Walked::Unread(Unsure::GitStore(
                "a git command before it in the line may change what the revision names".into(),
            )),
            Some(found) => found.clone(),
            None => {
                let found = self.walk_meets(
                    dir,
                    look,
                    &walk.anywhere,
                    filters.unwrap_or(&Filters::default()),
                    &mut budget.walk_left,
                );
                budget.walked.insert(key, found.clone());
                found
            }
        };
        match found {
            Walked::Meets(met) if filters.is_none_or(|f| f.narrowed) => {
                (met, Some(Unsure::Filtered(dir.to_string())))
            }
            Walked::Meets(met) => {
                reached.union_with(&met);
                (BitSet::new(self.n()), None)
            }
            Walked::TooLarge => (
                walk.anywhere.clone(),
                Some(Unsure::LargeWalk(dir.to_string())),
            ),
            Walked::Unread(why) => (walk.anywhere.clone(), Some(why)),
            Walked::Leaves(why) => (self.deny_side_rules(), Some(why)),
        }
    }
}
