//! Which repository git uses, found as git itself finds it (`setup.c`,
//! `setup_git_directory_gently_1`): in each directory from the command's up, a `.git`
//! (a directory git takes for a repository, or a file `gitdir: PATH`) first, then the
//! directory itself when it is a git directory (a `HEAD` file, `objects/` and `refs/`:
//! a bare repository).
//!
//! git runs code its repository's configuration names (`core.fsmonitor`,
//! `core.pager`, filters, hooks). The repository of a work tree is its `.git`, which a
//! policy can guard (the `workspace` preset asks for writes into any `.git`); a bare
//! repository is plain files anywhere (`x/HEAD`, `x/objects/`, `x/refs/`, `x/config`),
//! which no such rule sees. So git is read as certain only where the repository it
//! uses lies in a directory named `.git` (the `.git` of a work tree, a submodule's or
//! linked work tree's `.git/modules/...` or `.git/worktrees/...`).

use super::git_config_paths;
use std::path::{Component, Path, PathBuf};

/// Where git finds its repository, from some directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Repo {
    /// None: git stops (`not a git repository`).
    None,
    /// A repository in a `.git` directory: TOP is the work tree (or, run inside the
    /// repository, the repository itself), GIT_DIR the repository, COMMON the directory
    /// its `commondir` names (a linked work tree's; else GIT_DIR).
    Dotgit {
        top: PathBuf,
        git_dir: PathBuf,
        common: PathBuf,
    },
    /// A repository git would use that is not one of those: why.
    Other(String),
}

/// Most directories looked at on the way up.
const MAX_DEPTH: usize = 256;

/// The repository git finds from DIR (absolute).
pub(super) fn discover(dir: &Path) -> Repo {
    for here in dir.ancestors().take(MAX_DEPTH) {
        let dotgit = here.join(".git");
        // Most directories have none: one `lstat`, remembered for the decision.
        let there = match crate::path::lexists(&dotgit) {
            Ok(there) => there,
            Err(_) => return Repo::Other(format!("`{}` cannot be read", dotgit.display())),
        };
        if there {
            match std::fs::metadata(&dotgit) {
                Ok(m) if m.is_file() => return gitfile(here, &dotgit),
                Ok(m) if m.is_dir() => {
                    let common = common_dir(&dotgit);
                    if surely_git_dir(&dotgit, &common) {
                        return trusted(here, &dotgit, &common);
                    }
                    // git goes on up past a `.git` that is no repository to it; one that
                    // looks partly like one may be read otherwise by git.
                    if maybe_git_dir(&dotgit) {
                        return Repo::Other(format!(
                            "`{}` may or may not be a repository to git",
                            dotgit.display()
                        ));
                    }
                }
                // A `.git` of another kind (a link to nowhere, a device): git's reading
                // of it is not modelled.
                Ok(_) => {
                    return Repo::Other(format!(
                        "`{}` is neither file nor directory",
                        dotgit.display()
                    ))
                }
                // `lstat` found it, `stat` does not: a link to nowhere.
                Err(e) if crate::path::absent(&e) => {
                    return Repo::Other(format!("`{}` is a dangling link", dotgit.display()));
                }
                Err(_) => return Repo::Other(format!("`{}` cannot be read", dotgit.display())),
            }
        }
        if maybe_git_dir(here) {
            let common = common_dir(here);
            if in_dotgit(here) && surely_git_dir(here, &common) {
                // git reads `core.worktree` here too (`setup_bare_git_dir`).
                return elsewhere(here, &common).unwrap_or(Repo::Dotgit {
                    top: here.to_path_buf(),
                    git_dir: here.to_path_buf(),
                    common,
                });
            }
            return Repo::Other(format!(
                "git takes `{}` for a bare repository (its configuration may name commands)",
                here.display()
            ));
        }
    }
    Repo::None
}

/// The repository of HERE's `.git` directory DOTGIT (its common directory COMMON):
/// one named `.git` after links.
fn trusted(here: &Path, dotgit: &Path, common: &Path) -> Repo {
    match canonical(dotgit) {
        Some(real) if in_dotgit(&real) => elsewhere(&real, common).unwrap_or(Repo::Dotgit {
            top: here.to_path_buf(),
            git_dir: real,
            common: common.to_path_buf(),
        }),
        _ => Repo::Other(format!(
            "`{}` leads to a repository outside any `.git` directory",
            dotgit.display()
        )),
    }
}

/// The repository a `.git` file names (`gitdir: PATH`, relative to its directory).
fn gitfile(here: &Path, dotgit: &Path) -> Repo {
    let other = |why: &str| Repo::Other(format!("`{}` {why}", dotgit.display()));
    let text = match crate::path::read_small(dotgit, 4096) {
        Ok(t) => t,
        _ => return other("is a file that cannot be read"),
    };
    let text = String::from_utf8_lossy(&text);
    let Some(target) = text.strip_prefix("gitdir: ") else {
        return other("is not a `gitdir:` file");
    };
    let target = here.join(target.trim_end_matches(['\n', '\r']));
    match canonical(&target) {
        Some(real) if in_dotgit(&real) => {
            let common = common_dir(&real);
            if !surely_git_dir(&real, &common) {
                return other(&format!(
                    "names `{}`, which git may not take for a repository",
                    target.display()
                ));
            }
            elsewhere(&real, &common).unwrap_or(Repo::Dotgit {
                top: here.to_path_buf(),
                git_dir: real,
                common,
            })
        }
        _ => other(&format!(
            "names `{}`, a repository outside any `.git` directory",
            target.display()
        )),
    }
}

/// PATH with every link resolved (`realpath`), through the decision's memo of the names
/// it looked at: the directories above a repository were looked at on the way up.
fn canonical(path: &Path) -> Option<PathBuf> {
    match path.to_str() {
        Some(text) => crate::path::realpath(text).map(PathBuf::from),
        None => std::fs::canonicalize(path).ok(),
    }
}

/// Why git's work tree for the repository GIT_DIR (its common directory COMMON) may lie elsewhere than the directory
/// holding its `.git`, if it may: its configuration (or its common directory's, for a
/// linked work tree; `config.worktree` too), or a file it includes, sets
/// `core.worktree` or turns on `extensions.worktreeConfig` (helper-50: `core.worktree
/// = $HOME` in a project's `.git/config` made `git diff` read `~/.ssh`). The user's and
/// the system's configuration are not read here (README, "Not covered": what an
/// earlier call wrote).
fn elsewhere(git_dir: &Path, common: &Path) -> Option<Repo> {
    let mut files = vec![git_dir.join("config"), git_dir.join("config.worktree")];
    if common != git_dir {
        files.push(common.join("config"));
    }
    let mut seen = 0;
    while let Some(file) = files.pop() {
        let why = |what: &str| {
            Some(Repo::Other(format!(
                "`{}` {what}: git's work tree may be elsewhere",
                file.display()
            )))
        };
        let text = match crate::path::read_small(&file, 1 << 20) {
            Ok(text) => text,
            // git skips a file it includes that is not there.
            Err(e) if crate::path::absent(&e) => continue,
            Err(e) => return why(&format!("cannot be read ({e})")),
        };
        seen += 1;
        if seen > git_config_paths::MAX_FILES {
            return why("includes too many files to read");
        }
        let text = String::from_utf8_lossy(&text);
        if let Some(what) = sets_worktree(&text) {
            return why(what);
        }
        let dir = file.parent().unwrap_or(git_dir);
        for inc in included(&text) {
            match inc.strip_prefix("~/") {
                Some(rest) => match std::env::var_os("HOME") {
                    Some(h) => files.push(Path::new(&h).join(rest)),
                    None => return why("includes a file under an unknown home"),
                },
                None if inc.starts_with('~') || inc.contains("%(") => {
                    return why("includes a file the reading does not place")
                }
                None => files.push(dir.join(inc)),
            }
        }
    }
    None
}

/// What of git's configuration TEXT may set the work tree: `worktree` (in `[core]`) or
/// `worktreeConfig` (in `[extensions]`). Read loosely (that key in any section, case
/// and blanks aside): a false alarm only keeps git from being certain.
fn sets_worktree(text: &str) -> Option<&'static str> {
    for (_, key, _) in git_config_paths::sections(text) {
        let name: String = key
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        match name.as_str() {
            "worktree" => return Some("sets `core.worktree`"),
            "worktreeconfig" => return Some("turns on `extensions.worktreeConfig`"),
            _ => {}
        }
    }
    None
}

/// The files git's configuration TEXT includes: each `path` of an `[include]` or
/// `[includeIf ...]` section, whatever its condition, unquoted.
fn included(text: &str) -> Vec<String> {
    git_config_paths::sections(text)
        .into_iter()
        .filter(|(section, key, _)| section.starts_with("include") && key == "path")
        .filter_map(|(_, _, value)| value.filter(|v| !v.is_empty()))
        .collect()
}

/// Whether git surely uses the repository GIT_DIR (its common directory COMMON) it finds
/// for the work tree TOP, as [`discover`] found it, rather than refusing it and going on
/// as where there is none (helper-68, helper-69: `git diff A B` is then a `--no-index`
/// diff, and `git grep` with `grep.fallbackToNoIndex` reads the directory): the user owns
/// the work tree, its `.git` (a directory or a file), the git directory and the common
/// one (git refuses another owner's: `ensure_valid_ownership`; `safe.directory` is not
/// read here), and the configuration of both has a format git reads
/// (`repositoryformatversion` 0 or 1, no `[extensions]`, which may name one it does not
/// know) and no `bare` but a false one (`core.bare = true`: no work tree). Read loosely
/// (those keys in any section): a false alarm only walks more.
pub(super) fn git_accepts(top: &Path, git_dir: &Path, common: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    // Safety: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    let dotgit = top.join(".git");
    let owned = |p: &Path, meta: std::io::Result<std::fs::Metadata>| {
        meta.is_ok_and(|m| m.uid() == uid) || (p == dotgit && top == git_dir)
    };
    let owners = [
        (top, std::fs::metadata(top)),
        (dotgit.as_path(), std::fs::symlink_metadata(&dotgit)),
        (git_dir, std::fs::metadata(git_dir)),
        (common, std::fs::metadata(common)),
    ];
    if !owners.into_iter().all(|(p, m)| owned(p, m)) {
        return false;
    }
    let mut configs = vec![common.join("config")];
    if git_dir != common {
        configs.push(git_dir.join("config"));
    }
    configs.iter().enumerate().all(|(k, file)| {
        let text = match crate::path::read_small(file, 1 << 20) {
            Ok(text) => text,
            // A linked work tree's own directory has no configuration.
            Err(e) if k > 0 && crate::path::absent(&e) => return true,
            Err(_) => return false,
        };
        let text = String::from_utf8_lossy(&text);
        git_config_paths::sections(&text)
            .iter()
            .all(|(section, key, value)| match key.as_str() {
                _ if section.starts_with("extensions") => false,
                // git's booleans: `bare` alone is true.
                "bare" => matches!(
                    value
                        .as_deref()
                        .map(|v| v.trim().to_ascii_lowercase())
                        .as_deref(),
                    Some("false" | "no" | "off" | "0" | "")
                ),
                "repositoryformatversion" => {
                    matches!(value.as_deref().map(str::trim), Some("0" | "1"))
                }
                _ => true,
            })
    })
}

/// Whether a component of PATH is `.git`.
fn in_dotgit(path: &Path) -> bool {
    path.components()
        .any(|c| matches!(c, Component::Normal(n) if n == ".git"))
}

/// Whether git surely takes DIR for a git directory (`is_git_directory`): a valid
/// `HEAD` and the `objects` and `refs` directories, here or in the directory its
/// `commondir` names.
fn surely_git_dir(dir: &Path, common: &Path) -> bool {
    let searchable = |p: PathBuf| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o111 != 0)
    };
    valid_head(&dir.join("HEAD"))
        && searchable(common.join("objects"))
        && searchable(common.join("refs"))
}

/// The common directory the git directory DIR's `commondir` file names (a linked work
/// tree's), else DIR.
fn common_dir(dir: &Path) -> PathBuf {
    match crate::path::read_small(&dir.join("commondir"), 4096) {
        Ok(text) => dir.join(String::from_utf8_lossy(&text).trim_end_matches(['\n', '\r'])),
        Err(_) => dir.to_path_buf(),
    }
}

/// Whether git may take DIR for a git directory: it has a `HEAD` of any kind, and
/// `objects` and `refs` or a `commondir` (this errs towards yes).
fn maybe_git_dir(dir: &Path) -> bool {
    let there = |n: &str| crate::path::lexists(&dir.join(n)).unwrap_or(true);
    there("HEAD") && ((there("objects") && there("refs")) || there("commondir"))
}

/// git's `validate_headref`: a link into `refs/`, `ref: refs/...`, or an object name.
fn valid_head(head: &Path) -> bool {
    if let Ok(target) = std::fs::read_link(head) {
        return target.starts_with("refs/");
    }
    let Ok(text) = crate::path::read_small(head, 1 << 16) else {
        return false;
    };
    let text = &text[..text.len().min(256)];
    if let Some(rest) = text.strip_prefix(b"ref:") {
        let rest = rest.trim_ascii_start();
        return rest.starts_with(b"refs/");
    }
    text.len() >= 40 && text[..40].iter().all(u8::is_ascii_hexdigit)
}

/// The index of the repository GIT_DIR: its `index` file.
pub(super) fn index_of(git_dir: &Path) -> PathBuf {
    git_dir.join("index")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bare(dir: &Path) {
        std::fs::create_dir_all(dir.join("objects")).unwrap();
        std::fs::create_dir_all(dir.join("refs")).unwrap();
        std::fs::write(dir.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    }

    /// A configuration that may put the work tree elsewhere makes the repository one
    /// git is not read as certain in (helper-50).
    #[test]
    fn a_work_tree_set_elsewhere_is_no_certain_one() {
        for text in [
            "[core]\n\tworktree = /home/u\n",
            "[core] worktree = /home/u\n",
            "[CORE]\n  WorkTree=/home/u\n",
            "[extensions]\n\tworktreeConfig = true\n",
        ] {
            assert!(sets_worktree(text).is_some(), "{text}");
        }
        assert_eq!(included("[include]\n\tpath = other\n"), ["other"]);
        assert_eq!(
            included("[includeIf \"gitdir:/x/\"]\n\tpath = \"o x\"\n[core]\npath = no\n"),
            ["o x"]
        );
        for text in [
            "[core]\n\tbare = false\n\tfilemode = true\n",
            "[remote \"worktree\"]\n\turl = x\n",
            "[gc]\n\tworktreePruneExpire = now\n",
        ] {
            assert_eq!(sets_worktree(text), None, "{text}");
        }
        let root = std::env::temp_dir().join(format!("grh-git-worktree-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        bare(&root.join("w/.git"));
        std::fs::write(root.join("w/.git/config"), "[core] worktree = /\n").unwrap();
        let root = root.canonicalize().unwrap();
        assert!(matches!(discover(&root.join("w")), Repo::Other(_)));
        // Run inside the repository itself, git reads it too (`setup_bare_git_dir`).
        assert!(matches!(discover(&root.join("w/.git")), Repo::Other(_)));
        std::fs::write(root.join("w/.git/config"), "[core]\n\tbare = false\n").unwrap();
        assert!(matches!(discover(&root.join("w")), Repo::Dotgit { .. }));
        // Through a file it includes, relative to the including file.
        std::fs::write(root.join("w/.git/config"), "[include]\n\tpath = ../x.cfg\n").unwrap();
        assert!(matches!(discover(&root.join("w")), Repo::Dotgit { .. }));
        std::fs::write(root.join("w/x.cfg"), "[core]\n\tworktree = /\n").unwrap();
        assert!(matches!(discover(&root.join("w")), Repo::Other(_)));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn finds_repositories_as_git_does() {
        let root = std::env::temp_dir().join(format!("grh-git-repo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        // A work tree, its `.git` a repository.
        bare(&root.join("w/.git"));
        std::fs::create_dir_all(root.join("w/src")).unwrap();
        let root = root.canonicalize().unwrap();
        match discover(&root.join("w/src")) {
            Repo::Dotgit { top, .. } => assert_eq!(top, root.join("w")),
            r => panic!("{r:?}"),
        }
        // Inside the `.git` itself.
        assert!(matches!(
            discover(&root.join("w/.git")),
            Repo::Dotgit { .. }
        ));
        // A bare repository of plain files.
        bare(&root.join("x"));
        std::fs::create_dir_all(root.join("x/sub")).unwrap();
        assert!(matches!(discover(&root.join("x")), Repo::Other(_)));
        assert!(matches!(discover(&root.join("x/sub")), Repo::Other(_)));
        // A `.git` that is no repository to git: it goes on up, to the bare one.
        std::fs::create_dir_all(root.join("x/sub/.git")).unwrap();
        assert!(matches!(discover(&root.join("x/sub")), Repo::Other(_)));
        // A `.git` file naming a repository outside any `.git`, and one inside.
        std::fs::create_dir_all(root.join("g")).unwrap();
        std::fs::write(root.join("g/.git"), "gitdir: ../x\n").unwrap();
        assert!(matches!(discover(&root.join("g")), Repo::Other(_)));
        bare(&root.join("w/.git/worktrees/g2"));
        std::fs::create_dir_all(root.join("g2")).unwrap();
        std::fs::write(root.join("g2/.git"), "gitdir: ../w/.git/worktrees/g2\n").unwrap();
        assert!(matches!(discover(&root.join("g2")), Repo::Dotgit { .. }));
        // A `.git` link to a bare repository.
        std::fs::create_dir_all(root.join("l")).unwrap();
        std::os::unix::fs::symlink(root.join("x"), root.join("l/.git")).unwrap();
        assert!(matches!(discover(&root.join("l")), Repo::Other(_)));
        let _ = std::fs::remove_dir_all(&root);
    }
}
