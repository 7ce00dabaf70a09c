//! Git's global files, found as git and the `ignore` crate (the walker this engine
//! runs for rg and `git add`) find them: the user's configuration (`~/.gitconfig`,
//! `$XDG_CONFIG_HOME/git/config`, an empty `XDG_CONFIG_HOME` read as unset, so
//! `~/.config/git/config`), the others git and the crate read but rg 13 does not
//! (`GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `/etc/gitconfig`), and the global excludes
//! file. One place, so that every walk looks at the same files.

use std::ffi::OsString;
use std::path::PathBuf;

/// The environment variable NAME as a path, when it is set and not empty (git and the
/// crate take an empty `HOME` or `XDG_CONFIG_HOME` as unset).
fn var(name: &str) -> Option<PathBuf> {
    non_empty(std::env::var_os(name))
}

/// VALUE as a path, when it is there and not empty.
fn non_empty(value: Option<OsString>) -> Option<PathBuf> {
    value.filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The user's configuration directory: `$XDG_CONFIG_HOME`, else `~/.config`.
fn xdg_dir() -> Option<PathBuf> {
    xdg_dir_in(&var)
}

/// [`xdg_dir`] in the environment ENV.
fn xdg_dir_in(env: &dyn Fn(&str) -> Option<PathBuf>) -> Option<PathBuf> {
    env("XDG_CONFIG_HOME").or_else(|| env("HOME").map(|h| h.join(".config")))
}

/// The user's configuration files the crate reads to find the excludes file, the
/// home's first (the one whose `core.excludesFile` wins, for the crate as for git).
pub(super) fn user_configs() -> Vec<PathBuf> {
    user_configs_in(&var)
}

/// [`user_configs`] in the environment ENV.
fn user_configs_in(env: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<PathBuf> {
    [
        env("HOME").map(|h| h.join(".gitconfig")),
        xdg_dir_in(env).map(|x| x.join("git/config")),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Every global configuration file git or the crate may open: the user's, then
/// `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `/etc/gitconfig` and the system file of
/// each git on `PATH` (see [`system_configs`]).
pub(super) fn all_configs() -> Vec<PathBuf> {
    let mut files = user_configs();
    files.extend(var("GIT_CONFIG_GLOBAL"));
    files.extend(var("GIT_CONFIG_SYSTEM"));
    files.push(PathBuf::from("/etc/gitconfig"));
    files.extend(system_configs(std::env::var_os("PATH").as_deref()));
    files.dedup();
    files
}

/// The system configuration files of the gits on SEARCH (a `PATH`): git reads
/// `PREFIX/etc/gitconfig` for the prefix it was built with, `/etc/gitconfig` for `/usr`
/// (helper-69: `/usr/local/bin/git` reads `/usr/local/etc/gitconfig`, Homebrew's
/// `/opt/homebrew/etc/gitconfig`). The prefix is taken to be the directory above the
/// one git is in, as found on the path and with its links resolved.
fn system_configs(search: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in search.map(std::env::split_paths).into_iter().flatten() {
        let git = dir.join("git");
        if !git.is_file() {
            continue;
        }
        let real = std::fs::canonicalize(&git).ok();
        for bin in [Some(git), real].into_iter().flatten() {
            let prefix = bin.parent().and_then(|d| d.parent());
            if let Some(prefix) = prefix.filter(|p| *p != std::path::Path::new("/usr")) {
                let file = prefix.join("etc/gitconfig");
                if !files.contains(&file) {
                    files.push(file);
                }
            }
        }
    }
    files
}

/// The global excludes files a walk may read: the one the crate finds (a
/// `core.excludesFile` of the user's configuration, else the default), and the default
/// `git/ignore` of the configuration directory, generously under both spellings of it.
pub(super) fn excludes_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ignore::gitignore::gitconfig_excludes_path()
        .into_iter()
        .collect();
    files.extend(xdg_dir().map(|x| x.join("git/ignore")));
    files.extend(var("HOME").map(|h| h.join(".config/git/ignore")));
    files.dedup();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An environment of PAIRS.
    fn env(pairs: &'static [(&str, &str)]) -> impl Fn(&str) -> Option<PathBuf> {
        move |name| {
            non_empty(
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| OsString::from(v)),
            )
        }
    }

    #[test]
    fn the_system_file_of_each_git_on_the_path() {
        let search = std::env::join_paths(["/nowhere/bin", "/usr/bin", "/usr/local/bin", "/bin"])
            .expect("path");
        let files = system_configs(Some(&search));
        // `/usr/local/bin/git` where this machine has one, and never `/usr/etc`.
        assert!(
            !files.contains(&PathBuf::from("/usr/etc/gitconfig")),
            "{files:?}"
        );
        if std::path::Path::new("/usr/local/bin/git").is_file() {
            assert!(
                files.contains(&PathBuf::from("/usr/local/etc/gitconfig")),
                "{files:?}"
            );
        }
        let dir = std::env::temp_dir().join(format!("grh-sysgit-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("opt/bin")).expect("mkdir");
        std::fs::write(dir.join("opt/bin/git"), "").expect("write");
        let files = system_configs(Some(dir.join("opt/bin").as_os_str()));
        let want = std::fs::canonicalize(&dir)
            .expect("real")
            .join("opt/etc/gitconfig");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            files.iter().any(|f| f.ends_with("opt/etc/gitconfig")),
            "{files:?} {want:?}"
        );
    }

    #[test]
    fn an_empty_xdg_directory_is_the_home_one() {
        let want = ["/h/.gitconfig", "/h/.config/git/config"].map(PathBuf::from);
        const EMPTY: &[(&str, &str)] = &[("HOME", "/h"), ("XDG_CONFIG_HOME", "")];
        const UNSET: &[(&str, &str)] = &[("HOME", "/h")];
        for pairs in [EMPTY, UNSET] {
            assert_eq!(user_configs_in(&env(pairs)), want);
        }
        let set = user_configs_in(&env(&[("HOME", "/h"), ("XDG_CONFIG_HOME", "/x")]));
        assert_eq!(set, ["/h/.gitconfig", "/x/git/config"].map(PathBuf::from));
        // No home: no relative `.gitconfig` or `.config/git/config`.
        assert!(user_configs_in(&env(&[("HOME", "")])).is_empty());
        assert_eq!(all_configs().last(), Some(&PathBuf::from("/etc/gitconfig")));
    }
}
