//! What the commands of a line that run before a walk may change of what it reads: the
//! ignore files a walk obeys, the paths git's index lists, the revisions git's store
//! names (`Prepared::ignores_change_before`, `index_changes_before`, `git_runs_before`).

use super::paths::PathCand;
use super::walks::IGNORE_FILES;
use super::Prepared;
use crate::path;
use crate::shell::{self, Role};

/// git's subcommands that change no reference (no branch, tag, remote branch, stash or
/// `HEAD`) besides those of [`GIT_READS`]: a revision a command after them reads is what
/// the store says now.
const KEEPS_REFS: &[&str] = &["add", "rm", "mv", "restore", "clean"];

impl Prepared<'_> {
    /// Whether a command of the line may change the ignore files command AT (line,
    /// command) reads before it runs: an earlier one (or one repeated in a loop) names a
    /// path that is, or lies in, an ignore file, a `.git` directory or git's
    /// configuration in the home (`rm .gitignore`, `echo '!.env' > .ignore`, `mv .git
    /// x`); writes a whole tree (an extraction, `git checkout`, `rm -r`, `find -delete`)
    /// or copies one (`cp -r d/. sub`: a walk and a written path); names files found at
    /// run time (`find -exec rm {} +`); or is a git command other than one that only
    /// reads (`git init sub` starts a repository whose ignore files apply there, `git rm
    /// -r .` removes `.gitignore`). A command after it in a loop is read from its words
    /// as written, a glob or `$` in them counting.
    pub(super) fn ignores_change_before(&self, out: &[PathCand], at: (usize, usize)) -> bool {
        self.changes_before(out, at, false)
    }

    /// Whether a command of the line that runs before the one at AT may change the
    /// paths git's index lists: as [`Prepared::ignores_change_before`], but for a `git
    /// add` whose own walk met the rules (all but `-N`): the paths it puts in the index
    /// are ones that walk looked at.
    pub(super) fn index_changes_before(&self, out: &[PathCand], at: (usize, usize)) -> bool {
        self.changes_before(out, at, true)
    }

    /// Whether a git command of the line runs before the one at AT: it may change what
    /// a revision names (`git fetch && git checkout origin/main`, `git branch -f x y`,
    /// `git commit`), which is then not what the store says now.
    pub(super) fn git_runs_before(&self, at: (usize, usize)) -> bool {
        let (ci, i) = at;
        let Some(cand) = self.commands().get(ci) else {
            return false;
        };
        let line = &cand.line;
        line.commands.iter().enumerate().any(|(j, c)| {
            let sub = shell::git_subcommand(&c.argv).and_then(|k| c.argv.get(k));
            super::runs_before(line, j, i)
                && c.argv.first().is_some_and(|n| n == "git")
                && !(git_reads(&c.argv) || sub.is_some_and(|s| KEEPS_REFS.contains(&s.as_str())))
        })
    }

    fn changes_before(&self, out: &[PathCand], at: (usize, usize), index: bool) -> bool {
        let (ci, i) = at;
        let Some(cand) = self.commands().get(ci) else {
            return false;
        };
        let line = &cand.line;
        let before = |j: usize| super::runs_before(line, j, i);
        let home = self.home_and_cwd().0;
        let names = |p: &str| names_ignore_file(p, home.as_deref());
        for (j, c) in line.commands.iter().enumerate().filter(|(j, _)| before(*j)) {
            if index && checked_add(c) {
                continue;
            }
            if matches!(
                super::changes::change_of(&c.argv),
                Some(super::changes::Change::Tree | super::changes::Change::GitTree(_))
            ) || changes_trees(c)
            {
                return true;
            }
            if j > i
                && c.argv
                    .iter()
                    .chain(&c.redirects)
                    .chain(&c.paths)
                    .any(|w| names(w) || w.contains(['*', '?', '[', '$']))
            {
                return true;
            }
        }
        out.iter().any(|p| {
            p.cmds.iter().any(|k| k.0 == ci && before(k.1))
                && p.norm
                    .iter()
                    .chain(p.lexical.iter())
                    .chain(std::iter::once(&p.raw))
                    .any(|f| names(f))
        })
    }
}

/// Whether PATH is, or lies in, an ignore file rg or git reads, a `.git` directory, or
/// git's configuration in HOME (`~/.config/git`, `~/.gitconfig`).
fn names_ignore_file(path: &str, home: Option<&str>) -> bool {
    let path = path.trim_end_matches('/');
    let mut parts = path.split('/');
    let last = path.rsplit('/').next().unwrap_or(path);
    IGNORE_FILES.contains(&last)
        || parts.any(|c| c == ".git")
        || home.is_some_and(|h| {
            let h = h.trim_end_matches('/');
            path::is_within(path, &format!("{h}/.config/git")) || path == format!("{h}/.gitconfig")
        })
}

/// Whether C is a `git add` that reads what it adds (not `-N`, which records names).
fn checked_add(c: &shell::SimpleCommand) -> bool {
    git_sub(&c.argv) == Some("add")
        && c.argv.first().is_some_and(|n| n == "git")
        && !c.roles.iter().any(|(r, _)| *r == Role::List)
}

/// git's subcommands that change neither the work tree, the index, the repositories
/// nor their configuration.
const GIT_READS: &[&str] = &[
    "status",
    "log",
    "diff",
    "show",
    "rev-parse",
    "ls-files",
    "ls-tree",
    "grep",
    "blame",
    "describe",
    "shortlog",
    "cat-file",
    "rev-list",
    "whatchanged",
    "reflog",
    "version",
    "help",
    "diff-files",
    "diff-index",
    "diff-tree",
    "for-each-ref",
    "name-rev",
    // helper-78: `git diff $(git merge-base HEAD main)` was unsure.
    "merge-base",
    "show-ref",
    "show-branch",
    "count-objects",
    "cherry",
    "check-ignore",
    "check-attr",
];

/// Whether the git command ARGV only reads: its subcommand is one of [`GIT_READS`], and
/// for `git reflog` not one that deletes entries (helper-93: `git reflog delete
/// HEAD@{0} && git checkout -` made `-` another branch).
fn git_reads(argv: &[String]) -> bool {
    let Some(at) = shell::git_subcommand(argv) else {
        return false;
    };
    let sub = argv.get(at).map_or("", String::as_str);
    GIT_READS.contains(&sub)
        && !(sub == "reflog"
            && argv
                .get(at + 1)
                .is_some_and(|w| matches!(w.as_str(), "delete" | "expire" | "drop")))
}

/// Whether the command C writes or copies a whole tree (its reading has a role that
/// writes a tree, or walks one while it writes a path), names files found at run time
/// (`{}`), or is a git command that may change what git or rg ignore.
fn changes_trees(c: &shell::SimpleCommand) -> bool {
    let writes_tree = c
        .roles
        .iter()
        .any(|(r, _)| matches!(r, Role::WriteTree | Role::WriteTracked | Role::WriteCommit));
    let copies_tree = c.roles.iter().any(|(r, _)| r.is_tree())
        && c.argv
            .first()
            .and_then(|n| shell::lookup(n))
            .is_some_and(|p| {
                shell::read(p, c.argv.get(1..).unwrap_or_default())
                    .parts
                    .iter()
                    .any(|x| x.role == Role::Write)
            });
    let found = c.argv.iter().any(|w| w.contains("{}"));
    let git = c.argv.first().is_some_and(|n| n == "git") && !git_reads(&c.argv);
    writes_tree || copies_tree || found || git
}

/// git's subcommand in ARGV (`git -C d rm x` is `rm`), if any.
fn git_sub(argv: &[String]) -> Option<&str> {
    shell::git_subcommand(argv)
        .and_then(|k| argv.get(k))
        .map(String::as_str)
}
