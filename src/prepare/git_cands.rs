//! git's repository and store, for the engine: a git command whose repository is not
//! the `.git` of a work tree is never certain ([`git_repo`]), and what git prints from
//! its store meets the rules on the paths its index lists ([`git_index`]).

use super::git_index;
use super::git_repo::{self, Repo};
use super::walks::Walked;
use super::{PathCand, PathSource, Prepared};
use crate::index::BitSet;
use crate::shell;
use std::path::Path;

/// Environment variables that make git use another repository, work tree or index
/// than the one it finds.
const GIT_ENV: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
];

/// Base names of what makes a directory a repository to git: another command of the
/// line that names one may make a repository there before git runs.
const REPO_NAMES: &[&str] = &["HEAD", "config", "commondir", "objects", "refs", ".git"];

/// Programs that only read or list what they are given: a `.git` they name is not one
/// they make.
const READERS: &[&str] = &[
    "ls", "cat", "test", "[", "stat", "file", "du", "tree", "head", "tail", "wc", "grep", "rg",
    "find", "realpath", "readlink", "basename", "dirname", "echo",
];

/// The first of [`GIT_ENV`] set in this process's environment (which the command
/// inherits).
fn git_env() -> Option<&'static str> {
    GIT_ENV
        .iter()
        .copied()
        .find(|v| std::env::var_os(v).is_some())
}

impl Prepared<'_> {
    /// For the `git` command I of LINE (the command argument CI, with KEY), run in the
    /// request's directory or any of DIRS: when the repository git would use is not
    /// the `.git` directory of a work tree, a candidate that keeps every allow rule
    /// from covering it, saying why.
    pub(super) fn git_repo_cands(
        &self,
        out: &mut Vec<PathCand>,
        key: &str,
        line: &shell::CommandLine,
        i: usize,
        dirs: &[String],
        ci: usize,
    ) {
        let Some(c) = line.commands.get(i) else {
            return;
        };
        if c.argv.first().map(String::as_str) != Some("git") {
            return;
        }
        let Some(why) = self.git_repo_why(line, i, dirs) else {
            return;
        };
        let mut cand = self.unchecked(PathSource::Word(key.to_string()), why, vec![(ci, i)]);
        cand.hits = BitSet::new(self.n());
        out.push(cand);
    }

    /// Why the repository git command I of LINE uses may not be the `.git` of a work
    /// tree; None when it is, or when git finds none.
    fn git_repo_why(&self, line: &shell::CommandLine, i: usize, dirs: &[String]) -> Option<String> {
        let c = line.commands.get(i)?;
        if let Some(o) = c
            .argv
            .iter()
            .skip(1)
            .find(|w| w.starts_with("--git-dir") || w.starts_with("--work-tree"))
        {
            return Some(format!("`{o}` names the repository git uses"));
        }
        if global_bare(&c.argv) {
            return Some(
                "`--bare` makes git take its directory for the repository (`GIT_DIR=.`)".into(),
            );
        }
        if let Some(v) = git_env() {
            return Some(format!(
                "`{v}` in the environment names the repository git uses"
            ));
        }
        for (k, other) in line.commands.iter().enumerate() {
            if k == i || other.argv.first().map(String::as_str) == Some("git") {
                continue;
            }
            let reader = other
                .argv
                .first()
                .is_some_and(|n| READERS.contains(&n.as_str()));
            let makes = |w: &&String, redirect: bool| {
                let w = w.trim_end_matches('/');
                let mut parts = w.rsplit('/');
                let base = parts.next().unwrap_or(w);
                // The files of a `.git` are the repository's own (see the module).
                if parts.any(|c| c == ".git") {
                    return false;
                }
                match base {
                    ".git" => redirect || !reader,
                    _ => REPO_NAMES.contains(&base),
                }
            };
            let named = other
                .paths
                .iter()
                .find(|w| makes(w, false))
                .or_else(|| other.redirects.iter().find(|w| makes(w, true)));
            if let Some(w) = named {
                return Some(format!(
                    "another command of the line names `{w}`, which may make a repository git then uses"
                ));
            }
        }
        // The request's directory and those the line may move to (absolute ones
        // even when the request's is not known).
        let cwd = self.path_env().cwd.clone();
        let mut bases: Vec<std::path::PathBuf> = cwd.iter().cloned().collect();
        for d in dirs {
            match &cwd {
                Some(c) => bases.push(c.join(d)),
                None if d.starts_with('/') => bases.push(d.into()),
                None => {}
            }
        }
        for base in bases {
            if let Repo::Other(why) = self.discover(&base) {
                return Some(why);
            }
        }
        None
    }

    /// What git prints from its store below DIR (absolute, normalized): the rules of
    /// RULES that a path its index lists under DIR matches, or, with COMMIT, a path
    /// its index or that revision's tree holds (what `git checkout COMMIT` writes).
    /// Where it WRITES them, the directories above each path too: git removes a file
    /// where a directory of the tree stands (helper-92: a tree with `.env/x` removed an
    /// ignored `.env`).
    pub(super) fn store_meets(
        &self,
        dir: &str,
        rules: &BitSet,
        commit: Option<&str>,
        writes: bool,
    ) -> Walked {
        let unread = |why: String| Walked::Unread(shell::Unsure::GitStore(why));
        let (top, git_dir, common) = match self.discover(Path::new(dir)) {
            // git stops, unless `grep.fallbackToNoIndex` may be set: `git grep` then reads
            // the directory (helper-71).
            Repo::None if super::git_tops::user_configs_may_fall_back() => {
                return unread(
                    "git finds no repository here, and `grep.fallbackToNoIndex` may make `git grep` read the directory"
                        .into(),
                )
            }
            Repo::None => return Walked::Meets(BitSet::new(self.n())),
            Repo::Other(why) => return unread(why),
            Repo::Dotgit {
                top,
                git_dir,
                common,
            } => (top, git_dir, common),
        };
        if let Some(v) = git_env() {
            return unread(format!(
                "`{v}` in the environment names another repository or index"
            ));
        }
        // A repository git refuses is one it reads nothing of, and `git grep` then reads
        // the directory where `grep.fallbackToNoIndex` says so (helper-69).
        if !git_repo::git_accepts(&top, &git_dir, &common) {
            return unread(format!(
                "git may refuse `{}` (its owner, format or `core.bare`)",
                git_dir.display()
            ));
        }
        if git_index::sha256(&common) {
            return unread(format!(
                "`{}` names its objects by SHA-256",
                git_dir.display()
            ));
        }
        let paths = match git_index::tracked_paths(&git_repo::index_of(&git_dir)) {
            Ok(p) => p,
            Err(why) => return unread(why),
        };
        let committed =
            match commit.map(|rev| self.stores.borrow_mut().tree_paths(&git_dir, &common, rev)) {
                Some(Err(why)) => return unread(why),
                Some(Ok(p)) => p.unwrap_or_default(),
                None => Default::default(),
            };
        let rel = Path::new(dir)
            .strip_prefix(&top)
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_default();
        let fold = self.path_env().case_fold;
        let mut found = BitSet::new(self.n());
        // The top, then each path in turn.
        let mut text = top.to_string_lossy().trim_end_matches('/').to_string();
        if fold {
            text = text.to_lowercase();
        }
        text.push('/');
        let top_len = text.len();
        // The directories of the work tree looked at, and whether each is a link.
        let mut links: std::collections::HashMap<String, Option<bool>> =
            std::collections::HashMap::new();
        // The directories above the paths written, met once each.
        let mut above: std::collections::HashSet<String> = std::collections::HashSet::new();
        for p in paths.iter().chain(committed.iter()) {
            let under = rel.is_empty()
                || p.strip_prefix(rel.as_str())
                    .is_some_and(|r| r.is_empty() || r.starts_with('/'));
            if !under {
                continue;
            }
            match leading_link(&top, p, &mut links) {
                Ok(None) => {}
                Ok(Some(dir)) => {
                    return Walked::Leaves(shell::Unsure::GitStore(format!(
                        "`{dir}` in the work tree is a symbolic link: git reads the tracked files below it through it"
                    )))
                }
                Err(why) => return unread(why),
            }
            text.truncate(top_len);
            if fold {
                text.push_str(&p.to_lowercase());
            } else {
                text.push_str(p);
            }
            self.meet(&text, rules, &mut found);
            if writes {
                let mut end = top_len;
                while let Some(k) = text[end..].find('/') {
                    end += k;
                    if !above.contains(&text[..end]) {
                        above.insert(text[..end].to_string());
                        self.meet(&text[..end], rules, &mut found);
                    }
                    end += 1;
                }
            }
            // Every rule asked about is met: no path can add one (with none asked
            // about, each path is looked at for a link).
            if rules.iter().next().is_some() && rules.iter().all(|r| found.get(r)) {
                break;
            }
        }
        Walked::Meets(found)
    }
}

/// Most directories of the work tree one look through git's paths checks for links.
const MAX_LINK_LOOKS: usize = 10_000;

/// The first directory of PATH (a path of the index, relative to the work tree's TOP)
/// that is a symbolic link in the work tree, if any: `git grep` opens the tracked file
/// through it (git checks out no file below a link, but a link can take a tracked
/// directory's place: `git checkout` of a branch where it is a link, then `git reset`).
/// LINKS remembers what each directory is (None: not there). Err past
/// [`MAX_LINK_LOOKS`] directories.
fn leading_link(
    top: &Path,
    path: &str,
    links: &mut std::collections::HashMap<String, Option<bool>>,
) -> Result<Option<String>, String> {
    let mut missing = false;
    for (at, _) in path.match_indices('/') {
        let dir = &path[..at];
        let found = match links.get(dir) {
            Some(found) => *found,
            // Below a directory that is not there, none is.
            None if missing => Some(false),
            None => {
                // Bounded (helper-92: a tree of 25,000 directories took 210 ms).
                if links.len() >= MAX_LINK_LOOKS {
                    return Err(format!(
                        "more than {MAX_LINK_LOOKS} directories of the work tree to look at for links"
                    ));
                }
                let found = match std::fs::symlink_metadata(top.join(dir)) {
                    Ok(m) => Some(m.file_type().is_symlink()),
                    Err(_) => None,
                };
                links.insert(dir.to_owned(), found);
                found
            }
        };
        match found {
            Some(true) => return Ok(Some(dir.to_owned())),
            Some(false) => {}
            None => missing = true,
        }
    }
    Ok(None)
}

impl Prepared<'_> {
    /// The top and the `.git` directory of the work tree DIR is in, if it is in one.
    pub(super) fn repo_of(&self, dir: &str) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
        match self.discover(Path::new(dir)) {
            Repo::Dotgit { top, git_dir, .. } => Some((top, git_dir)),
            _ => None,
        }
    }

    /// Where git finds its repository from DIR ([`git_repo::discover`]), looked up once
    /// per call.
    fn discover(&self, dir: &Path) -> Repo {
        if let Some(repo) = self.repos.borrow().get(dir) {
            return repo.clone();
        }
        let repo = git_repo::discover(dir);
        self.repos
            .borrow_mut()
            .insert(dir.to_path_buf(), repo.clone());
        repo
    }
}

/// Whether git's own options in ARGV (before its subcommand) hold `--bare`, which makes
/// git use the directory it runs in as the repository, its `config` included (`git
/// --bare log`); `git init --bare` and `git clone --bare` are the subcommand's.
fn global_bare(argv: &[String]) -> bool {
    let mut words = argv.iter().skip(1);
    while let Some(w) = words.next() {
        match w.as_str() {
            "--bare" => return true,
            // git's own options that take the next word as their value.
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env"
            | "--super-prefix" | "--list-cmds" | "--attr-source" => {
                words.next();
            }
            w if w.starts_with('-') => {}
            _ => return false,
        }
    }
    false
}
