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

use std::path::{Component, Path, PathBuf};

/// Where git finds its repository, from some directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Repo {
    /// None: git stops (`not a git repository`).
    None,
    /// A repository in a `.git` directory: TOP is the work tree (or, run inside the
    /// repository, the repository itself), GIT_DIR the repository.
    Dotgit { top: PathBuf, git_dir: PathBuf },
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
                    if surely_git_dir(&dotgit) {
                        return trusted(here, &dotgit);
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
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                    ) =>
                {
                    return Repo::Other(format!("`{}` is a dangling link", dotgit.display()));
                }
                Err(_) => return Repo::Other(format!("`{}` cannot be read", dotgit.display())),
            }
        }
        if maybe_git_dir(here) {
            if in_dotgit(here) && surely_git_dir(here) {
                return Repo::Dotgit {
                    top: here.to_path_buf(),
                    git_dir: here.to_path_buf(),
                };
            }
            return Repo::Other(format!(
                "git takes `{}` for a bare repository (its configuration may name commands)",
                here.display()
            ));
        }
    }
    Repo::None
}

/// The repository of HERE's `.git` directory DOTGIT: one named `.git` after links.
fn trusted(here: &Path, dotgit: &Path) -> Repo {
    match std::fs::canonicalize(dotgit) {
        Ok(real) if in_dotgit(&real) => Repo::Dotgit {
            top: here.to_path_buf(),
            git_dir: real,
        },
        _ => Repo::Other(format!(
            "`{}` leads to a repository outside any `.git` directory",
            dotgit.display()
        )),
    }
}

/// The repository a `.git` file names (`gitdir: PATH`, relative to its directory).
fn gitfile(here: &Path, dotgit: &Path) -> Repo {
    let other = |why: &str| Repo::Other(format!("`{}` {why}", dotgit.display()));
    let text = match std::fs::read(dotgit) {
        Ok(t) if t.len() <= 4096 => t,
        _ => return other("is a file that cannot be read"),
    };
    let text = String::from_utf8_lossy(&text);
    let Some(target) = text.strip_prefix("gitdir: ") else {
        return other("is not a `gitdir:` file");
    };
    let target = here.join(target.trim_end_matches(['\n', '\r']));
    match std::fs::canonicalize(&target) {
        Ok(real) if in_dotgit(&real) && surely_git_dir(&real) => Repo::Dotgit {
            top: here.to_path_buf(),
            git_dir: real,
        },
        _ => other(&format!(
            "names `{}`, a repository outside any `.git` directory",
            target.display()
        )),
    }
}

/// Whether a component of PATH is `.git`.
fn in_dotgit(path: &Path) -> bool {
    path.components()
        .any(|c| matches!(c, Component::Normal(n) if n == ".git"))
}

/// Whether git surely takes DIR for a git directory (`is_git_directory`): a valid
/// `HEAD` and the `objects` and `refs` directories, here or in the directory its
/// `commondir` names.
fn surely_git_dir(dir: &Path) -> bool {
    let common = match std::fs::read_to_string(dir.join("commondir")) {
        Ok(c) => dir.join(c.trim_end_matches(['\n', '\r'])),
        Err(_) => dir.to_path_buf(),
    };
    let searchable = |p: PathBuf| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o111 != 0)
    };
    valid_head(&dir.join("HEAD"))
        && searchable(common.join("objects"))
        && searchable(common.join("refs"))
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
    let Ok(text) = std::fs::read(head) else {
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
