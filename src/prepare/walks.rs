//! What a walk opens: a directory a command walks and reads the files of (`grep -r x .`,
//! `rg x`, `cp -r d e`, `rm -r d`) is looked through, bounded, for the files that
//! deny-side path rules with a glob matching in any directory (`.env`, `**/*.pem`) are
//! about. Such a rule meets the walk when the directory holds one: `grep -r KEY .`
//! opens `./.env`, and `grep -rn TODO src` meets nothing when `src` holds none.
//!
//! The look follows the program's walk: names that start with `.` are skipped below the
//! top for [`Role::WalkVisible`] (`rg` without `--hidden`), symbolic links to
//! directories are followed only for [`Role::WalkFollow`] (each directory once). Past
//! [`MAX_WALK_ENTRIES`] entries the look stops: the rules are then met, unsure.

use super::fnmatch::fnmatch;
use super::git_pathspecs::Pathspecs;
use super::Prepared;
use crate::index::BitSet;
use crate::shell::{self, Role};
use globset::{Glob, GlobMatcher};
use std::collections::HashSet;
use std::path::PathBuf;

/// Most directory entries looked at for one walked directory.
pub(super) const MAX_WALK_ENTRIES: usize = 20_000;

/// Most directory entries looked at for one call, all its walks together.
pub(super) const MAX_CALL_WALK_ENTRIES: usize = 4 * MAX_WALK_ENTRIES;

/// The base-name globs a command's options give its walk (`grep --exclude=.env`,
/// `--exclude-dir=node_modules`, `--include=*.py`).
#[derive(Default)]
pub(super) struct Filters {
    /// `--include` (true) and `--exclude` (false) globs, in the order given.
    names: Vec<(bool, GlobMatcher)>,
    /// Some of `names` match in any case (`find -iname`): a name past ASCII, which the
    /// locale folds its own way, is opened.
    any_case: bool,
    skip_dir: Vec<GlobMatcher>,
    /// `find -type`: the kinds of file handed on (`f` files, `d` directories...).
    types: Option<String>,
    /// rg with its ignore files read (see `rg_walk`), and which of them.
    rg_ignores: bool,
    pub(super) rg_reads: RgIgnores,
    /// rg's `-g` globs, which bring back the dotfiles and ignored files they match: the
    /// walk is then one of every file, the globs choosing.
    overrides: bool,
    /// rg's file types (`-t md`), which choose the files it opens and bring back the
    /// dotfiles a type it selects matches (`-t sh` opens `.bashrc`).
    pub(super) rg_types: Option<ignore::types::Types>,
    /// `git grep --untracked`'s pathspec patterns (`-- '*.rs'`).
    pub(super) pathspecs: Option<Pathspecs>,
    /// What find's tests pass it hands to a command that opens every file below a
    /// directory it is given (`find . -type d -name __pycache__ -exec rm -rf {} +`): a
    /// directory they pass is opened whole, a file they pass is opened, nothing else.
    handed_trees: bool,
    /// find's tests not read here (`-size`, `-mtime`, `-maxdepth`, `-prune`...) in an
    /// expression of tests joined by `-a` alone: each may only reject what the names
    /// and types read pass, so a file they pass is opened or not (an unsure match), and
    /// one they reject is not (helper-86: `find . -maxdepth 1 -name '*.json' -exec cat
    /// {} +` was asked where `.env` is).
    pub(super) narrowed: bool,
    /// The revision whose files a [`Role::WriteCommit`] walk writes besides those of the
    /// index (`main` of `git checkout main`).
    pub(super) commit: Option<String>,
}

/// Whether find's words, read as R, hold tests other than names and types (`-size`,
/// `-empty`, `-mindepth`, `-newer`, `-false`, `-quit`, `-prune`...): in an expression
/// without `-o`, `,`, parentheses or a negation (see [`chosen_otherwise`]) each may only
/// reject more (helper-61: read as passing every file, `find . -type f -empty -exec cat
/// {} +` was a certain deny where `.env` is not empty).
fn narrows(r: &shell::Reading) -> bool {
    r.given
        .iter()
        .any(|g| !FIND_PASSES.contains(&g.long) && !FIND_READ.contains(&g.long))
}

/// Whether the options of the program NAME, read as R, choose the files it walks in a
/// way the filters do not read: find's `-o`, `,` and parentheses, a negation, tar's
/// `--anchored`, rg's `--glob-case-insensitive`.
fn chosen_otherwise(name: &str, r: &shell::Reading) -> bool {
    // find's `-o`, `,`, parentheses and `-prune` make what `-exec` is given other than
    // what the tests before it accept (helper-56: `find . -type d -o -exec cat {} +`
    // cats every file): its names and types are then not read.
    // (`-prune` alone only keeps find out of what it passes: see `narrows`.)
    if name == "find"
        && r.parts
            .iter()
            .any(|q| matches!(q.text.as_str(), "-o" | "-or" | "," | "(" | ")"))
    {
        return true;
    }
    // A negation (`find ! -name '*.rs'`) turns an include into an exclude; tar's
    // `--anchored` and `--no-wildcards` make its `--exclude` match less than a base
    // name; rg's `--glob-case-insensitive` its `-g` globs more.
    if r.parts.iter().any(|q| q.text == "!" || q.text == "-not")
        || ["anchored", "no-wildcards", "glob-case-insensitive"]
            .iter()
            .any(|o| r.has_option(o))
    {
        return true;
    }
    false
}

impl Filters {
    /// The filters of C's words; Err when some option chooses the files in a way not
    /// read here (a pattern option other than these, or a glob that does not compile).
    pub(super) fn of(c: &shell::SimpleCommand) -> Result<Filters, ()> {
        let mut out = Filters {
            rg_ignores: rg_default_ignores(c),
            rg_reads: RgIgnores::of(c.argv.get(1..).unwrap_or_default()),
            // rg's `--ignore-file`: its `!` lines bring back dotfiles as `-g` globs do
            // (`rg --ignore-file <(echo '!.env') KEY` reads `.env`).
            overrides: rg_ignore_file(c),
            ..Filters::default()
        };
        let Some(p) = c.argv.first().and_then(|n| shell::lookup(n)) else {
            return Ok(out);
        };
        let r = shell::read(p, c.argv.get(1..).unwrap_or_default());
        if p.name() == "git" {
            out.pathspecs = Pathspecs::of(c, &r);
        }
        if chosen_otherwise(p.name(), &r) {
            return Err(());
        }
        out.narrowed = p.name() == "find" && narrows(&r);
        // GNU tar's `--exclude` applies to the names after it only (`tar cf a.tar .
        // --exclude=.env` reads .env; tar says the option "has no effect"): one after
        // the first name skips nothing read here.
        let first_name = (p.name() == "tar")
            .then(|| r.parts.iter().position(|x| x.kind == shell::Kind::Operand))
            .flatten();
        // find's tests after its first action choose nothing of what that action is
        // handed (helper-63: `find . -type f -exec cat {} + -name '*.md'` cats `.env`:
        // find runs `-exec` before the later test); the actions after it get less.
        let first_action = (p.name() == "find")
            .then(|| {
                r.parts.iter().position(|x| {
                    x.kind == shell::Kind::Option && FIND_ACTS.contains(&x.text.as_str())
                })
            })
            .flatten();
        for (k, part) in r.parts.iter().enumerate() {
            if part.kind != shell::Kind::Value || first_action.is_some_and(|a| a < k) {
                continue;
            }
            if part.role == Role::SkipName && first_name.is_some_and(|f| f < k) {
                continue;
            }
            let include = match part.role {
                Role::TypeName => {
                    if out.rg_types.is_none() {
                        out.rg_types = super::rg_types::types(&r.given)?;
                    }
                    continue;
                }
                Role::FileType => {
                    let all = out.types.get_or_insert_with(String::new);
                    // find's letters (fd's reading hook gives its kinds as those).
                    all.push_str(&part.text);
                    continue;
                }
                // fd's `-e md`: names that end in `.md` in any case after at least one
                // character (not `.md` itself; every leading `.` of the value dropped:
                // `-e ..md` is `-e md`), a directory's too.
                Role::Extension => {
                    let ext = part.text.trim_start_matches('.');
                    if ext.is_empty() || ext.contains(['*', '?', '[', ']', '{', '}', '\\', '/']) {
                        return Err(());
                    }
                    out.any_case = true;
                    out.names.push((true, fnmatch(&format!("?*.{ext}"), true)?));
                    continue;
                }
                Role::SkipName => false,
                Role::OnlyName | Role::OnlyNameAnyCase => true,
                // Read as grep's `--include`/`--exclude` (a name no glob matches is
                // opened unless the first is an include, where rg would skip it when
                // any is: the reading opens more), on base names only.
                Role::NameGlob => {
                    let (include, text) = match part.text.strip_prefix('!') {
                        Some(rest) => (false, rest),
                        None => (true, part.text.as_str()),
                    };
                    // A `-g` value is a line of an ignore file: a comment (`#`), an
                    // empty one, trailing spaces (trimmed) and escapes are not read.
                    if text.contains(['/', '\\', '#'])
                        || text.contains("[[:")
                        || text.trim().is_empty()
                        || text.ends_with(char::is_whitespace)
                    {
                        return Err(());
                    }
                    let glob = Glob::new(text).map_err(|_| ())?.compile_matcher();
                    out.names.push((include, glob));
                    // Only a glob without `!` brings back what it matches; `!` globs
                    // alone skip more (`rg -g '!target'` still skips dotfiles).
                    if include {
                        out.overrides = true;
                        out.rg_ignores = false;
                    }
                    continue;
                }
                Role::SkipDir => {
                    let glob = fnmatch(&part.text, false)?;
                    out.skip_dir.push(glob);
                    continue;
                }
                Role::Pattern if !takes_first(p, r.parts.get(k.wrapping_sub(1))) => return Err(()),
                _ => continue,
            };
            let any_case = part.role == Role::OnlyNameAnyCase;
            out.any_case |= any_case;
            let glob = fnmatch(&part.text, any_case)?;
            out.names.push((include, glob));
        }
        // What `find -exec` and `fd -x` choose to hand on is not all the command opens
        // when it walks a directory (or a link to one) it is handed: every file below is
        // then opened, unless `-type` hands on neither (`-type f`).
        let no_dirs = out.types.as_ref().is_some_and(|t| !t.contains(['d', 'l']));
        // Where the tests are names and types, what they pass is what is opened, whole
        // (helper-70: `find . -type d -name __pycache__ -exec rm -rf {} +` was read as
        // removing every file).
        if exec_walks(&r) && !no_dirs && p.name() == "find" && !out.names.is_empty() {
            out.handed_trees = true;
        } else if exec_walks(&r) && !no_dirs {
            return Ok(Filters {
                rg_ignores: out.rg_ignores,
                rg_reads: out.rg_reads,
                overrides: out.overrides,
                narrowed: out.narrowed,
                ..Filters::default()
            });
        }
        // An option the table does not know may choose files otherwise than the globs
        // read: they are then not trusted to skip anything.
        let chooses = !out.names.is_empty()
            || !out.skip_dir.is_empty()
            || out.types.is_some()
            || out.rg_types.is_some()
            || out.pathspecs.is_some();
        if chooses && !r.is_known() {
            return Err(());
        }
        Ok(out)
    }

    /// Whether the walk hands on files that are not directories (`find -type d` does
    /// not).
    pub(super) fn hands_files(&self) -> bool {
        self.types
            .as_ref()
            .is_none_or(|t| t.contains(['f', 'l']) || t.contains(|c: char| !"dbcps,".contains(c)))
    }

    /// Whether the walk opens a file named NAME: as GNU grep decides, the last
    /// `--include` or `--exclude` that matches it says; when none does, it is opened
    /// unless the first of them is an `--include`.
    pub(super) fn opens(&self, name: &str) -> bool {
        if self.any_case && !name.is_ascii() {
            return true;
        }
        // rg's `-g` globs say first; then its types.
        if let Some(t) = &self.rg_types {
            let globbed = self.names.iter().any(|(_, g)| g.is_match(name));
            if !globbed && !super::rg_types::opens(t, name) {
                return false;
            }
        }
        match self.names.iter().rev().find(|(_, g)| g.is_match(name)) {
            Some((include, _)) => *include,
            None => self.names.first().is_none_or(|(include, _)| !include),
        }
    }

    /// Whether a walk that skips dotfiles opens the one named NAME (a directory when
    /// DIR): where one of rg's selected types matches it.
    pub(super) fn brings_back(&self, name: &str, dir: bool) -> bool {
        !dir && self
            .rg_types
            .as_ref()
            .is_some_and(|t| super::rg_types::brings_back(t, name))
    }

    /// Whether a walk in ROLE reads ignore files to choose what it opens: rg's (its
    /// `.gitignore`, `.ignore`, `.rgignore`, a `!` line of which brings a dotfile back)
    /// and git's (`git add`).
    pub(super) fn reads_ignores(&self, role: Role) -> bool {
        matches!(role, Role::WalkUnignored | Role::WalkVisible)
            || (role == Role::Walk && self.rg_ignores)
    }

    /// Whether the walk is handed the directory named NAME to open whole (see
    /// `handed_trees`).
    fn hands_tree(&self, name: &str) -> bool {
        self.handed_trees && self.types.as_ref().is_none_or(|t| t.contains('d')) && self.opens(name)
    }

    /// Whether the walk enters a directory named NAME.
    pub(super) fn enters(&self, name: &str) -> bool {
        !self.skip_dir.iter().any(|g| g.is_match(name))
    }
}

/// Whether E, an error listing a directory, is one the program meets too (the top is a
/// file, the directory went away, or it may not be listed), so the walk opens nothing
/// there; any other error leaves the walk unread.
pub(super) fn cannot_list(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{NotADirectory, NotFound, PermissionDenied};
    matches!(e.kind(), NotADirectory | NotFound | PermissionDenied)
}

/// Whether a command R runs on the names it finds (`find -exec CMD {} +`, `fd -x CMD`,
/// `fd -X CMD`, which adds the names at the end) may open the files below a directory
/// it is handed (`grep -r`, `rm -r`, `cp -r`): the names and types that choose what is
/// handed on (`-name '*.md'`, `-type d`) then do not choose what it opens
/// (`find . -type d -exec grep -r KEY {} +` reads every file). So may a program the
/// table does not know, one given an option it does not know, or one that runs another.
fn exec_walks(r: &shell::Reading) -> bool {
    r.runs.iter().any(|run| {
        let shell::Run::Argv(words) = run else {
            return false;
        };
        let Some((name, args)) = words.split_first() else {
            return false;
        };
        let Some(p) = shell::lookup(name) else {
            return true;
        };
        let mut args = args.to_vec();
        if !args.iter().any(|a| a.contains("{}")) {
            args.push("{}".into());
        }
        let read = shell::read(p, &args);
        !read.is_known()
            || !read.runs.is_empty()
            || read
                .parts
                .iter()
                .any(|q| q.text.contains("{}") && (opens_files(q.role) || q.role == Role::Chdir))
    })
}

/// Whether OPT, the part before a pattern value, is an option that takes the place of
/// the program's first operand (grep's `-e`: the pattern searched for, not a filter).
fn takes_first(p: &shell::Program, opt: Option<&shell::Part>) -> bool {
    let Some(opt) = opt else { return false };
    p.operands
        .unless
        .iter()
        .any(|u| match opt.text.strip_prefix("--") {
            Some(long) => long == *u,
            None => u.len() == 1 && opt.text.ends_with(u),
        })
}

/// What looking through a walked directory found.
#[derive(Clone)]
pub(super) enum Walked {
    /// The rules (of those asked about) some file below it matches; empty: none.
    Meets(BitSet),
    /// It has more than [`MAX_WALK_ENTRIES`] entries (or, with names folded, it could
    /// not be listed).
    TooLarge,
    /// What it opens cannot be known: why (git's index not read).
    Unread(shell::Unsure),
    /// It may open files outside the tree, through a symbolic link it goes through
    /// (`git grep` below a tracked directory a link replaced): every deny-side rule.
    Leaves(shell::Unsure),
}

/// Whether ROLE walks a tree and opens (reads or writes) the files in it.
pub(super) fn opens_files(role: Role) -> bool {
    matches!(
        role,
        Role::Walk
            | Role::WalkFollow
            | Role::WalkVisible
            | Role::WriteTree
            | Role::ShowTracked
            | Role::WriteTracked
            | Role::WriteCommit
            | Role::WalkUnignored
    )
}

/// Whether ROLE prints or writes the files git's index lists (and only those). (A
/// walk of them that prints names and counts, `git status`, is not one.)
pub(super) fn opens_tracked(role: Role) -> bool {
    matches!(
        role,
        Role::ShowTracked | Role::WriteTracked | Role::WriteCommit
    )
}

impl Prepared<'_> {
    /// Look through DIR (absolute, normalized), walked in ROLE, for files the rules of
    /// RULES match.
    pub(super) fn walk_meets(
        &self,
        dir: &str,
        role: Role,
        rules: &BitSet,
        filters: &Filters,
        left: &mut usize,
    ) -> Walked {
        // What git prints from its store, or writes in the work tree (`git stash`,
        // `git reset --hard`, `git rm -r`): the files its index lists.
        if opens_tracked(role) {
            let commit = filters
                .commit
                .as_deref()
                .filter(|_| role == Role::WriteCommit);
            let writes = matches!(role, Role::WriteTracked | Role::WriteCommit);
            return self.store_meets(dir, rules, commit, writes);
        }
        // What `git add` reads: what git does not ignore, and what it tracks.
        // (Every file, where git may ignore otherwise than the walker.)
        if role == Role::WalkUnignored {
            return match self.unignored_meets(dir, rules, filters, left) {
                Some(walked) => walked,
                None => self.walk_meets(dir, Role::Walk, rules, filters, left),
            };
        }
        let fold = self.path_env().case_fold;
        // rg's `-g` brings back the dotfiles it matches.
        let role = match role {
            Role::WalkVisible if filters.overrides => Role::Walk,
            role => role,
        };
        // rg's own walk, when its ignore handling is the default (dotfiles too with
        // `--hidden`: rg's walk is then `Walk`) and rg reads its ignore files as the
        // walker does.
        if matches!(role, Role::WalkVisible | Role::Walk) && filters.rg_ignores && !fold {
            let skip_hidden = role == Role::WalkVisible;
            if let Some(walked) = self.rg_meets(dir, skip_hidden, rules, filters, left) {
                return walked;
            }
        }
        // A `!` line in an ignore file rg reads can bring a dotfile back: then the walk
        // is read as one of every file.
        if role == Role::WalkVisible && ignores_negate(dir) {
            return self.walk_meets(dir, Role::Walk, rules, filters, left);
        }
        // With names folded, DIR is the folded spelling, which a case-sensitive file
        // system may not have: a top that cannot be listed is then not known empty.
        if fold {
            if let Err(e) = std::fs::read_dir(dir) {
                if e.kind() != std::io::ErrorKind::NotADirectory {
                    return Walked::TooLarge;
                }
            }
        }
        let mut found = BitSet::new(self.n());
        // Each directory to look through, and whether it is in a tree handed on whole.
        let root = std::path::Path::new(dir)
            .file_name()
            .map(|n| n.to_string_lossy());
        // find tests its start as written too (`.`, `src/..`: helper-71, `find . -type d
        // -name '.*' -exec grep -r ...` hands on `.`), which is not its name here.
        let whole = root.is_some_and(|n| filters.hands_tree(&n))
            || [".", ".."].iter().any(|n| filters.hands_tree(n));
        let mut stack: Vec<(PathBuf, bool)> = vec![(PathBuf::from(dir), whole)];
        let mut seen: HashSet<PathBuf> = HashSet::new();
        let mut entries = 0usize;
        while let Some((d, whole)) = stack.pop() {
            if role == Role::WalkFollow {
                if let Ok(real) = std::fs::canonicalize(&d) {
                    if !seen.insert(real) {
                        continue;
                    }
                }
            }
            // A file, or a directory it may not list: the walk opens nothing more there.
            // A path too long to name (the program goes down by handles: helper-56's
            // 17 directories of 250-byte names) or another error: not looked through.
            let list = match std::fs::read_dir(&d) {
                Ok(list) => list,
                Err(e) if cannot_list(&e) => continue,
                Err(_) => return Walked::TooLarge,
            };
            for entry in list.flatten() {
                entries += 1;
                if entries > MAX_WALK_ENTRIES || *left == 0 {
                    return Walked::TooLarge;
                }
                *left -= 1;
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if role == Role::WalkVisible
                    && IGNORE_FILES.contains(&name.as_ref())
                    && negates(&entry.path())
                {
                    return self.walk_meets(dir, Role::Walk, rules, filters, left);
                }
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if role == Role::WalkVisible
                    && name.starts_with('.')
                    && !filters.brings_back(&name, kind.is_dir())
                {
                    continue;
                }
                let path = entry.path();
                let is_dir = kind.is_dir()
                    || (kind.is_symlink()
                        && role == Role::WalkFollow
                        && std::fs::metadata(&path).is_ok_and(|m| m.is_dir()));
                if is_dir && !filters.enters(&name) {
                    continue;
                }
                let opened = is_dir
                    || whole
                    || (filters.hands_files()
                        && filters.opens(&name)
                        && (fold
                            || filters
                                .pathspecs
                                .as_ref()
                                .is_none_or(|s| s.opens(dir, &path))));
                if !opened {
                    continue;
                }
                let text = path.to_string_lossy();
                let text = if fold {
                    text.to_lowercase()
                } else {
                    text.into_owned()
                };
                self.meet(&text, rules, &mut found);
                if is_dir {
                    stack.push((path, whole || filters.hands_tree(&name)));
                }
            }
        }
        Walked::Meets(found)
    }
}

/// The ignore files rg reads in each directory it walks (and above it).
pub(super) const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".rgignore"];

/// Whether the ignore file at PATH has a `!` line (which whitelists what it names, a
/// dotfile too); one that is there but cannot be read counts as having one.
fn negates(path: &std::path::Path) -> bool {
    match crate::path::read_small(path, 1 << 20) {
        Ok(text) => String::from_utf8_lossy(&text)
            .lines()
            .any(|l| l.trim_start().starts_with('!')),
        Err(e) => !crate::path::absent(&e) || path.exists(),
    }
}

/// Whether an ignore file of DIR or a directory above it, a repository's
/// `.git/info/exclude` there, or git's own in the home has a `!` line.
fn ignores_negate(dir: &str) -> bool {
    let here = std::path::Path::new(dir);
    let global = super::git_globals::excludes_files();
    here.ancestors()
        .flat_map(|a| {
            IGNORE_FILES
                .iter()
                .map(move |f| a.join(f))
                .chain(std::iter::once(a.join(".git/info/exclude")))
        })
        .chain(global)
        .any(|p| negates(&p))
}

impl Prepared<'_> {
    /// Set in FOUND the rules of RULES whose `:path` globs match TEXT, a path a walk
    /// or git's index holds (folded already when names fold).
    pub(super) fn meet(&self, text: &str, rules: &BitSet, found: &mut BitSet) {
        for r in self.glob_hits_for(text).iter() {
            if rules.get(r) {
                found.set(r);
            }
        }
    }
}

/// Whether the rg command C has `--ignore-file` (rg takes no abbreviation of it).
fn rg_ignore_file(c: &shell::SimpleCommand) -> bool {
    c.argv.first().is_some_and(|n| n == "rg")
        && c.argv
            .iter()
            .skip(1)
            .any(|w| w == "--ignore-file" || w.starts_with("--ignore-file="))
}

/// Which of its ignore files rg reads (rg 13's `--no-ignore-dot`, `-vcs`, `-parent`,
/// `-global`, `-exclude`, each undone by its `--ignore-*` twin given after it;
/// `--no-ignore-messages` and `--no-ignore-files` change no walk here): checked against
/// the real rg by `tests/ignore_walks.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RgIgnores {
    /// `.ignore` files (`.rgignore` stays read).
    pub(super) dot: bool,
    /// `.gitignore`, and with it the global excludes file and `info/exclude`.
    pub(super) vcs: bool,
    /// The ignore files of the directories above the start.
    pub(super) parent: bool,
    /// git's global excludes file.
    pub(super) global: bool,
    /// The repository's `info/exclude`.
    pub(super) exclude: bool,
}

impl Default for RgIgnores {
    fn default() -> Self {
        RgIgnores {
            dot: true,
            vcs: true,
            parent: true,
            global: true,
            exclude: true,
        }
    }
}

/// A field of [`RgIgnores`].
type RgField = fn(&mut RgIgnores) -> &mut bool;

impl RgIgnores {
    /// What rg's long option LONG (without `--`) does here: the field it sets and to
    /// what; `Some(None)` for one that changes no walk; None for any other.
    fn flag(long: &str) -> Option<Option<(RgField, bool)>> {
        let (name, on) = match long.strip_prefix("no-") {
            Some(rest) => (rest, false),
            None => (long, true),
        };
        let field: RgField = match name {
            "ignore-dot" => |r| &mut r.dot,
            "ignore-vcs" => |r| &mut r.vcs,
            "ignore-parent" => |r| &mut r.parent,
            "ignore-global" => |r| &mut r.global,
            "ignore-exclude" => |r| &mut r.exclude,
            "ignore-messages" | "ignore-files" => return Some(None),
            _ => return None,
        };
        Some(Some((field, on)))
    }

    /// Those of rg's words ARGS (after its name), read in order.
    fn of(args: &[String]) -> RgIgnores {
        let mut out = RgIgnores::default();
        for w in args {
            if w == "--" {
                break;
            }
            if let Some(Some((field, on))) = w.strip_prefix("--").and_then(RgIgnores::flag) {
                *field(&mut out) = on;
            }
        }
        out
    }
}

/// find's options and actions that pass every file on to the actions after them (or
/// act on none: `-help`), by their table names.
const FIND_PASSES: &[&str] = &[
    // Its global options: how it treats links (`-L` is read as following them), debug.
    "H",
    "L",
    "P",
    "D",
    "O0",
    "O1",
    "O2",
    "O3",
    "print",
    "print0",
    "ls",
    "printf",
    "fprint",
    "fprint0",
    "fprintf",
    "fls",
    "depth",
    "d",
    "noleaf",
    "ignore_readdir_race",
    "noignore_readdir_race",
    "daystart",
    "warn",
    "nowarn",
    "regextype",
    "a",
    "and",
    "true",
    "follow",
    "exec",
    "execdir",
    "ok",
    "okdir",
    "delete",
    "help",
    "version",
];

/// find's actions that hand what they are given on to a program or delete it.
const FIND_ACTS: &[&str] = &["-exec", "-execdir", "-ok", "-okdir", "-delete"];

/// find's tests this module reads as find does: names and kinds.
const FIND_READ: &[&str] = &["name", "iname", "type"];

/// Whether the rg command C walks with its ignore files read by the `ignore` crate in
/// `rg_walk` (some of them dropped: [`RgIgnores`]): not with `--no-ignore`,
/// `--no-require-git`, a `-u` (one is `--no-ignore`; read generously: any short option
/// word holding `u`) or `--unrestricted`, nor under a configuration file that may give
/// any of them, nor with `--ignore-file FILE` ([`rg_ignore_file`]).
fn rg_default_ignores(c: &shell::SimpleCommand) -> bool {
    c.argv.first().is_some_and(|n| n == "rg")
        && std::env::var_os("RIPGREP_CONFIG_PATH").is_none()
        && !rg_ignore_file(c)
        && !c.argv.iter().skip(1).any(|w| match w.strip_prefix("--") {
            Some(long) => {
                // Those that drop some ignore files are [`RgIgnores`]'s.
                (long.starts_with("no-ignore") && RgIgnores::flag(long).is_none())
                    || long.starts_with("no-require-git")
                    || (long.len() >= 2 && "unrestricted".starts_with(long))
            }
            None => w.starts_with('-') && w.contains('u'),
        })
        && !c.roles.iter().any(|(_, w)| dotted_start(w))
}

/// Whether WORD begins with two `.` components (`./.`, `././src`) or holds `//`
/// (`sub//`, `.//sub`, `//top/sub`): rg 13 (and fd 8, with the
/// same `ignore` crate) strips the start spelled so from the paths it walks and then
/// matches an anchored ignore line (`/.env`, `/secrets/`) against a rest that does not
/// start at the ignore file's directory, so no such line applies (helper-61: `rg KEY
/// ./.` read `src/local.key` that `src/.gitignore`'s `/local.key` hides from `rg KEY
/// .`; helper-63: `rg KEY ././/` the same). Only the directories it walks count, not its
/// pattern (`rg 'https://' .`).
fn dotted_start(word: &str) -> bool {
    let mut parts = word.split('/').filter(|c| !c.is_empty());
    (parts.next() == Some(".") && parts.next() == Some(".")) || word.contains("//")
}
