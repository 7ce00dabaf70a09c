//! git's `:/`, the top of the work tree (git's own spelling, and the implicit operand
//! of the subcommands that work on all of it): the nearest directory at or above where
//! git runs that holds a `.git`; and where git finds no repository and surely stops,
//! nothing (helper-66: `git -C .. grep KEY` outside any repository opens nothing).

use super::git_repo;
use super::kernel_words::nobodys_file;
use super::places;
use crate::path;
use crate::shell;

/// git's `:/` words of LINE's commands (the top of its work tree, see [`git_top`]), per
/// (command, word): each read in CWD and the directories of the command's set (SETS,
/// SET_OF).
pub(super) fn git_tops<'l>(
    line: &'l shell::CommandLine,
    cwd: Option<&str>,
    sets: &[places::Dirs],
    set_of: &[usize],
    stops: RepoStops,
) -> std::collections::HashMap<(usize, &'l str), Vec<String>> {
    line.commands
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.argv
                .first()
                .is_some_and(|n| n.rsplit('/').next() == Some("git"))
        })
        .flat_map(|(i, c)| c.paths.iter().map(move |w| (i, w)))
        .filter(|(_, w)| w.starts_with(":/"))
        .map(|(i, w)| {
            let in_dirs = set_of
                .get(i)
                .and_then(|&k| sets.get(k))
                .map_or(&[][..], |d| &d.1[..]);
            ((i, w.as_str()), git_top(w, cwd, in_dirs, stops))
        })
        .collect()
}

/// Whether git run in DIR surely finds no repository: no `.git` of any kind in DIR or
/// above it, and no directory there git takes for a bare repository.
fn no_repository(dir: &std::path::Path) -> bool {
    let dotgit = dir
        .ancestors()
        .any(|a| crate::path::lexists(&a.join(".git")).unwrap_or(true));
    !dotgit && super::git_repo::discover(dir) == super::git_repo::Repo::None
}

/// Whether git, finding no repository from where it runs in LINE, surely stops: every
/// command of the line is a git command that makes no repository (not `init`, `clone`,
/// `worktree`, `submodule`) and sets no configuration that makes `git grep` walk
/// without one (`grep.fallbackToNoIndex`), or a builtin that changes no file (`cd`,
/// `pushd`, `popd`, `pwd`, `true`, `:`); no redirection but to nobody's file; nothing
/// opaque; and no configuration of the user's or the system's that may name
/// `grep.fallbackToNoIndex` (or include a file that does). Else a line may make a
/// `.git` before git looks (`echo 'gitdir: /x' > .git; git status`), and the
/// directory is walked as if it were the top.
pub(super) fn repo_stops(line: &shell::CommandLine) -> RepoStops {
    let quiet = |targets: &[String]| targets.iter().all(|t| nobodys_file(t));
    if line.opaque.is_some() || !quiet(&line.redirects) {
        return RepoStops::No;
    }
    let mut greps = false;
    for c in &line.commands {
        if c.opaque.is_some() || !quiet(&c.redirects) {
            return RepoStops::No;
        }
        let name = c.argv.first().map_or("", String::as_str);
        if matches!(name, "cd" | "pushd" | "popd" | "pwd" | "true" | ":") {
            continue;
        }
        // `--git-dir` names a repository wherever git runs.
        let elsewhere = |w: &String| {
            let w = w.to_ascii_lowercase();
            w.contains("fallbacktonoindex")
                || w.starts_with("--git-dir")
                || w.starts_with("--work-tree")
        };
        if name != "git" || c.written.iter().any(elsewhere) {
            return RepoStops::No;
        }
        let sub = shell::git_subcommand(&c.argv).and_then(|k| c.argv.get(k));
        match sub.map(String::as_str) {
            Some("init" | "clone" | "worktree" | "submodule") => return RepoStops::No,
            Some("grep") => greps = true,
            _ => {}
        }
    }
    match greps {
        true => RepoStops::UnlessFallback,
        false => RepoStops::Yes,
    }
}

/// Whether git stops where it finds no repository, for a line (see [`repo_stops`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum RepoStops {
    /// No: the line may make or name a repository first.
    #[default]
    No,
    /// Yes.
    Yes,
    /// Yes, unless the user's or the system's configuration may make `git grep` walk
    /// without one (read only where git finds none).
    UnlessFallback,
}

impl RepoStops {
    /// Whether git run in DIR stops at once (`not a git repository`): it surely finds
    /// no repository there, and the line lets it stop.
    pub(super) fn at(self, dir: &std::path::Path) -> bool {
        match self {
            RepoStops::No => false,
            RepoStops::Yes => no_repository(dir),
            RepoStops::UnlessFallback => no_repository(dir) && !user_configs_may_fall_back(),
        }
    }
}

/// Whether the user's or the system's git configuration may set `grep.fallbackToNoIndex`
/// (it names it, includes another file, or cannot be read), or the environment gives
/// configuration.
pub(super) fn user_configs_may_fall_back() -> bool {
    let env = ["GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_DIR"];
    if env.iter().any(|v| std::env::var_os(v).is_some()) {
        return true;
    }
    super::git_globals::all_configs()
        .iter()
        .any(|f| match path::read_small(f, 1 << 20) {
            Ok(text) => {
                let text = String::from_utf8_lossy(&text).to_ascii_lowercase();
                text.contains("fallbacktonoindex") || text.contains("include")
            }
            Err(e) => !path::absent(&e),
        })
}

/// W, a walked word, with git's `:/` (the top of the work tree: git's own spelling, and
/// the implicit operand of the subcommands that work on all of it, `git status`, `git
/// add -A`) read as the nearest directory at or above the command's directory (CWD, or
/// any of DIRS) that holds a `.git`; with none, that directory (git finds no
/// repository and stops), or none at all when STOPS and git's own search finds none
/// there (see [`repo_stops`]). Any other word is itself.
pub(super) fn git_top(
    w: &str,
    cwd: Option<&str>,
    dirs: &[String],
    stops: RepoStops,
) -> Vec<String> {
    let Some(rest) = w.strip_prefix(":/") else {
        return vec![w.to_string()];
    };
    let Some(cwd) = cwd else {
        return vec![w.to_string()];
    };
    let mut out = Vec::new();
    for base in std::iter::once(cwd).chain(dirs.iter().map(String::as_str)) {
        let here = std::path::Path::new(base);
        let top = match here
            .ancestors()
            .find(|a| crate::path::lexists(&a.join(".git")).unwrap_or(false))
        {
            Some(top) => top,
            // helper-66: `git -C .. grep KEY` where `..` is in no repository walks
            // nothing (`fatal: not a git repository`).
            None if stops.at(here) => continue,
            None => here,
        };
        let top = top.to_string_lossy();
        let word = match rest {
            "" => top.into_owned(),
            r => format!("{}/{r}", top.trim_end_matches('/')),
        };
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

/// The two operands of `git diff` (ARGV: git's words) that git takes for the two files
/// or directories of a `--no-index` diff when one of them is outside the work tree or
/// there is no repository (`builtin/diff.c`): exactly two words from the first that is
/// no option (or the first after `--`) to the end, and no `--no-index` before them (an
/// explicit one the table reads).
pub(super) fn diff_pair(argv: &[String]) -> Option<[&str; 2]> {
    let k = shell::git_subcommand(argv)?;
    if argv.get(k).map(String::as_str) != Some("diff") {
        return None;
    }
    let args = argv.get(k + 1..)?;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        if a == "--no-index" {
            return None;
        }
        if !a.starts_with('-') {
            break;
        }
        i += 1;
    }
    match args.get(i..) {
        Some([a, b]) => Some([a.as_str(), b.as_str()]),
        _ => None,
    }
}

impl super::Prepared<'_> {
    /// The walks `git diff A B` (command C, under KEY) makes when git runs it as
    /// `--no-index` by itself (helper-67: `git diff . /media` printed every file of the
    /// project): from where it runs (the request's directory when HERE, and DIRS), git
    /// finds no repository (or one the reading does not trust), or A or B is outside its
    /// work tree. It then reads every file below both.
    pub(super) fn implied_no_index(
        &self,
        key: &str,
        c: &shell::SimpleCommand,
        here: bool,
        dirs: &[String],
    ) -> Vec<(shell::Role, String)> {
        let Some(pair) = diff_pair(&c.argv) else {
            return Vec::new();
        };
        let cwd = self.home_and_cwd().1;
        let bases: Vec<String> = cwd
            .filter(|_| here)
            .into_iter()
            .chain(dirs.iter().cloned())
            .collect();
        let outside = bases.iter().any(|base| {
            let top = match super::git_repo::discover(std::path::Path::new(base)) {
                super::git_repo::Repo::Dotgit {
                    top,
                    git_dir,
                    common,
                } if surely_used(std::path::Path::new(base), &top, &git_dir, &common) => top,
                _ => return true,
            };
            // git reads a relative word from the top as text (`prefix_path_gently`):
            // one that climbs above the top is outside, wherever it leads back
            // (helper-72: `git diff src ../proj` from the top).
            let depth = prefix_depth(std::path::Path::new(base), &top);
            let top = top.to_string_lossy();
            pair.iter().any(|w| {
                if !w.starts_with('/') && depth.is_none_or(|d| climbs_above(d, w)) {
                    return true;
                }
                let p = self.path_cand_at(
                    super::paths::PathSource::Word(key.to_string()),
                    w,
                    Some(base),
                );
                match &p.norm {
                    Ok(n) => !path::is_within(n, &top),
                    Err(_) => true,
                }
            })
        });
        match outside {
            true => pair
                .iter()
                .map(|w| (shell::Role::Walk, w.to_string()))
                .collect(),
            false => Vec::new(),
        }
    }
}

/// How many directories below the work tree TOP the directory BASE is (git's prefix),
/// if it is below it (spelt so, or once links are resolved).
fn prefix_depth(base: &std::path::Path, top: &std::path::Path) -> Option<usize> {
    let depth = |b: &std::path::Path| b.strip_prefix(top).ok().map(|r| r.components().count());
    depth(base).or_else(|| depth(&std::fs::canonicalize(base).ok()?))
}

/// Whether the relative path W, read from DEPTH directories below the top as git reads
/// it (`normalize_path_copy`: each `..` takes away the name before it), climbs above
/// the top.
fn climbs_above(depth: usize, w: &str) -> bool {
    let mut depth = depth;
    for part in w.split('/') {
        match part {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            },
            _ => depth += 1,
        }
    }
    false
}

/// Whether git run in BASE surely uses the repository GIT_DIR (common directory COMMON)
/// of the work tree TOP that the reading found there (helper-68: where it does not, `git
/// diff A B` is a `--no-index` diff): git accepts it ([`git_repo::git_accepts`]), and
/// BASE and every directory up to TOP are on one file system (git stops looking at a
/// mount point).
fn surely_used(
    base: &std::path::Path,
    top: &std::path::Path,
    git_dir: &std::path::Path,
    common: &std::path::Path,
) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(here) = std::fs::metadata(base) else {
        return false;
    };
    let one_device = base
        .ancestors()
        .take_while(|a| a.starts_with(top))
        .all(|a| std::fs::metadata(a).is_ok_and(|m| m.dev() == here.dev()));
    one_device && git_repo::git_accepts(top, git_dir, common)
}

#[cfg(test)]
mod tests {
    use super::climbs_above;

    #[test]
    fn relative_words_as_git_reads_them() {
        for (depth, w, above) in [
            (0, "../proj", true),
            (0, "./../proj/.", true),
            (0, "src/../..", true),
            (0, "src/..", false),
            (0, "src//./a", false),
            (1, "..", false),
            (1, "../../proj", true),
            (1, "../proj/src", false),
            (2, "../../x/../..", true),
        ] {
            assert_eq!(climbs_above(depth, w), above, "{depth} {w}");
        }
    }
}
