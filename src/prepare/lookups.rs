//! What a later command of a line reads without naming it, that an earlier one wrote.
//!
//! A command named without a `/` is the first file of that name in the directories of
//! `PATH`: a line that writes there first (`printf … > /usr/local/bin/ls; chmod +x
//! /usr/local/bin/ls; ls`, `cp evil ~/.local/bin/git && git status`) runs a program it
//! made, whatever the name says. And every program reads, as it starts, files no word
//! names: the loader's `/etc/ld.so.preload` and libraries, PAM's configuration for
//! `su`, ssh's and git's system files and helpers (`/usr/local/etc/gitconfig`,
//! `/usr/lib/git-core/git-upload-pack`), HOME's dotfiles (`~/.ssh/config`, a Python
//! `usercustomize.py` under `~/.local/lib`). A command is not certain after an earlier
//! command of its line names such a place or anything in it (a redirection, a copy's
//! destination, `chmod`; not a command that only reads, `ls ~/.local/bin`), makes a
//! tree above it (`cp -r`, `mv`, `ln`) or extracts or checks out there, as a program
//! after a change to its configuration is not (see `configs`). The directories of
//! `PATH` are those of this process's `PATH` and the usual ones besides
//! (`/usr/local/bin`, `~/.local/bin`, `~/bin`, `~/.cargo/bin`...): the shell's own
//! `PATH` may differ from ours. A project that lies in a start-up place (`~/.emacs.d`,
//! `/opt/app`) is one: what a line writes there may be what the next program reads.

use super::facts::Facts;
use super::paths::{PathCand, PathSource};
use super::Prepared;
use crate::path;

/// Directories on most `PATH`s, besides this process's own.
const USUAL: &[&str] = &[
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
    "~/.local/bin",
    "~/bin",
    "~/.cargo/bin",
];

/// bash's builtins that run another program or code (`command ls`, `exec ls`, `eval`,
/// `hash -p`, `enable` loading a shared object): their command name is looked up as any.
const RUNS_OTHERS: &[&str] = &["builtin", "command", "enable", "eval", "exec", "hash"];

/// Whether NAME is one of bash's builtins that run no other program: never looked up in
/// `PATH` (`enable -n`, which would make it so, is a program the table does not know).
fn runs_nothing_else(name: &str) -> bool {
    crate::shell::BASH_BUILTINS.contains(&name) && !RUNS_OTHERS.contains(&name)
}

/// Whether C may make a tree of files where it writes: a move, a link, a recursive
/// copy, an extraction (see `changes`).
fn makes_trees(c: &crate::shell::SimpleCommand) -> bool {
    let Some(name) = c.argv.first() else {
        return false;
    };
    let table = crate::shell::lookup(name);
    let first = table.and_then(|p| p.names.first().copied()).unwrap_or(name);
    match first {
        "mv" | "ln" | "rsync" | "link" => true,
        "cp" => table.is_none_or(|p| {
            let r = crate::shell::read(p, c.argv.get(1..).unwrap_or(&[]));
            !r.is_known()
                || ["recursive", "archive", "R", "r"]
                    .iter()
                    .any(|o| r.has_option(o))
        }),
        _ => super::changes::change_of(&c.argv).is_some(),
    }
}

/// Where every program looks as it starts, whatever its words say: the system's
/// configuration (the loader's `/etc/ld.so.preload`, `/etc/nsswitch.conf`, PAM's
/// `/etc/pam.d` and `/etc/environment`, ssh's and git's system files), its programs,
/// libraries and helpers (`/usr/lib/git-core`, `/usr/local/etc/gitconfig`), the
/// kernel's tunables; and HOME's dotfiles (see [`Places::startup`]).
const STARTUP: &[&str] = &[
    "/etc",
    "/usr",
    "/opt",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/bin",
    "/sbin",
    "/nix",
    "/gnu",
    "/snap",
    "/proc/sys",
    "/sys",
];

/// The places a later command of a line reads without naming them, absolute (lexical
/// and with links resolved, folded as the file system folds names).
struct Places {
    /// The directories of `PATH` and [`USUAL`].
    path: Vec<String>,
    /// [`STARTUP`].
    startup: Vec<String>,
    /// HOME, whose entries that start with `.` are start-up files too (`~/.bashrc`,
    /// `~/.ssh/config`, `~/.config/`, `~/.pam_environment`, `~/.local/lib`).
    homes: Vec<String>,
}

impl Places {
    /// The directory of PATH (as `path`) and the start-up place (as `startup`) that a
    /// word with FORMS writes in, or below when it makes a TREE there; None for neither.
    fn written(&self, forms: &[String], tree: bool) -> Option<(Option<String>, Option<String>)> {
        let find = |f: &dyn Fn(&str) -> Option<String>| forms.iter().find_map(|x| f(x));
        let path = find(&|x| self.path_dir(x, true).cloned()).or_else(|| {
            tree.then(|| find(&|x| self.path_dir(x, false).cloned()))
                .flatten()
        });
        let startup = find(&|x| self.startup(x, true))
            .or_else(|| tree.then(|| find(&|x| self.startup(x, false))).flatten());
        (path.is_some() || startup.is_some()).then_some((path, startup))
    }

    /// The directory of PATH that F is in (INSIDE) or lies above (not INSIDE).
    fn path_dir(&self, f: &str, inside: bool) -> Option<&String> {
        self.path.iter().find(|d| match inside {
            true => path::is_within(f, d),
            false => path::is_within(d, f),
        })
    }

    /// The start-up place F is in (INSIDE), or one below F (not INSIDE).
    fn startup(&self, f: &str, inside: bool) -> Option<String> {
        if let Some(d) = self.startup.iter().find(|d| match inside {
            true => path::is_within(f, d),
            false => path::is_within(d, f),
        }) {
            return Some(d.clone());
        }
        self.homes.iter().find_map(|h| {
            if !inside {
                return path::is_within(h, f).then(|| format!("{}/.*", h.trim_end_matches('/')));
            }
            let rest = f.strip_prefix(h.trim_end_matches('/'))?.strip_prefix('/')?;
            let first = rest.split('/').next().filter(|n| n.starts_with('.'))?;
            Some(format!("{}/{first}", h.trim_end_matches('/')))
        })
    }
}

/// What an earlier command K of a line writes that a later one may read without naming
/// it: a directory of PATH (for a command named without a `/`), a start-up place (for
/// any command).
struct Written {
    k: usize,
    path: Option<String>,
    startup: Option<String>,
}

impl Prepared<'_> {
    /// Mark the commands that run after an earlier command of their line writes where
    /// they look without naming it: a directory of `PATH` or a file in it, for a
    /// command named without a `/`; a start-up place ([`STARTUP`], HOME's dotfiles),
    /// for every command but bash's builtins. DIRS are the directories the lines may
    /// be in besides the request's.
    pub(super) fn line_lookups(&self, out: &mut Vec<PathCand>, dirs: &[String], facts: &Facts) {
        let fold = self.path_env().case_fold;
        let bases = &facts.bases;
        let (mut lexical, mut resolved): (Option<Places>, Option<Places>) = (None, None);
        let project: Vec<String> = match fold {
            true => bases.iter().map(|b| b.to_lowercase()).collect(),
            false => bases.clone(),
        };
        let mut more = Vec::new();
        for (ci, cand) in self.commands().iter().enumerate() {
            let line = &cand.line;
            if line.commands.len() < 2 {
                continue;
            }
            // Each command's words: whether it may make trees there.
            let trees: Vec<bool> = line.commands.iter().map(makes_trees).collect();
            let mut writers: Vec<(usize, &PathCand, bool)> = Vec::new();
            for p in out.iter() {
                for k in p.cmds.iter().filter(|k| k.0 == ci) {
                    let writes = facts.writes(self, p, ci, k.1);
                    let tree = trees.get(k.1).copied().unwrap_or(false);
                    if writes || tree {
                        writers.push((k.1, p, tree));
                    }
                }
            }
            // What an extraction or a checkout may write: the line's directories, or
            // those it names.
            if writers.is_empty() && !facts.changes(ci) {
                continue;
            }
            let mut written: Vec<Written> = Vec::new();
            for (k, p, tree) in writers {
                let forms = self.forms(p, fold);
                // In a place, of a command that writes there; or above it, of one that
                // makes the tree below (`cp -r evil ~/.local`, `mv`, an extraction).
                // The places as written first; resolved (a file-system visit each) only
                // for a word outside the line's directories: a place that is a link
                // into the project is a directory the model writes anyway (README, "Not
                // covered": a project's `.venv/bin` in PATH).
                let lex = lexical.get_or_insert_with(|| self.places(dirs, fold, false));
                let mut hit = lex.written(&forms, tree);
                let outside = || {
                    !forms
                        .iter()
                        .all(|f| project.iter().any(|b| path::is_within(f, b)))
                };
                if hit.is_none() && outside() {
                    let all = resolved.get_or_insert_with(|| self.places(dirs, fold, true));
                    hit = all.written(&forms, tree);
                }
                if let Some((path, startup)) = hit {
                    written.push(Written { k, path, startup });
                }
            }
            if facts.changes(ci) {
                for (k, roots, _) in facts.changed(self, ci) {
                    let roots = roots.as_ref().unwrap_or(bases);
                    let pl = resolved.get_or_insert_with(|| self.places(dirs, fold, true));
                    let startup = roots.iter().find_map(|r| {
                        let r = if fold { r.to_lowercase() } else { r.clone() };
                        pl.startup(&r, true).or_else(|| pl.startup(&r, false))
                    });
                    written.extend(startup.map(|s| Written {
                        k: *k,
                        path: None,
                        startup: Some(s),
                    }));
                }
            }
            if written.is_empty() {
                continue;
            }
            for (i, c) in line.commands.iter().enumerate() {
                let Some(name) = c
                    .argv
                    .first()
                    .filter(|n| !n.is_empty() && !runs_nothing_else(n))
                else {
                    continue;
                };
                let before = written.iter().filter(|w| super::runs_before(line, w.k, i));
                let found = before.clone().find_map(|w| {
                    let dir = w.path.as_ref().filter(|_| !name.contains('/'))?;
                    Some((
                        format!("{}/{name}", dir.trim_end_matches('/')),
                        format!("`{name}` is looked up in PATH, and an earlier command of the line names `{dir}`, a directory of it"),
                    ))
                }).or_else(|| {
                    before.clone().find_map(|w| {
                        let place = w.startup.as_ref()?;
                        Some((
                            place.clone(),
                            format!("`{name}` may read `{place}` as it starts (the loader's, PAM's or its own configuration, a library, a helper), and an earlier command of the line writes there"),
                        ))
                    })
                });
                let Some((file, why)) = found else {
                    continue;
                };
                let mut made = self.path_cand(PathSource::Word(cand.key.clone()), &file);
                made.cmds = vec![(ci, i)];
                made.uncertain = Some(why);
                more.push(made);
            }
        }
        out.extend(more);
    }

    /// The places of [`Places`], for a line in the request's directory or DIRS.
    fn places(&self, dirs: &[String], fold: bool, resolve: bool) -> Places {
        let (home, _) = self.home_and_cwd();
        let startup: Vec<String> = STARTUP.iter().map(|s| (*s).to_owned()).collect();
        let homes = self.forms_of(&home.into_iter().collect::<Vec<_>>(), fold, resolve);
        Places {
            path: self.path_dirs(dirs, fold, resolve),
            startup: self.forms_of(&startup, fold, resolve),
            homes,
        }
    }

    /// The directories of `PATH` and [`USUAL`], absolute: as written (an empty or
    /// relative entry in each of the line's directories) and with links resolved.
    fn path_dirs(&self, dirs: &[String], fold: bool, resolve: bool) -> Vec<String> {
        let (home, cwd) = self.home_and_cwd();
        let mut bases: Vec<String> = cwd.into_iter().collect();
        bases.extend(dirs.iter().cloned());
        let env = std::env::var("PATH").unwrap_or_default();
        let mut written: Vec<String> = Vec::new();
        for entry in env.split(':').chain(USUAL.iter().copied()) {
            if let Some(rest) = entry.strip_prefix("~/") {
                written.extend(
                    home.as_ref()
                        .map(|h| format!("{}/{rest}", h.trim_end_matches('/'))),
                );
            } else if entry.starts_with('/') {
                written.push(entry.to_owned());
            } else {
                written.extend(
                    bases
                        .iter()
                        .map(|b| format!("{}/{entry}", b.trim_end_matches('/'))),
                );
            }
        }
        self.forms_of(&written, fold, resolve)
    }
}

#[cfg(test)]
mod tests {
    use super::runs_nothing_else;

    /// Every name the lookup skips is one bash runs as a builtin, never from PATH.
    #[test]
    fn builtins_are_bash_builtins() {
        let out = std::process::Command::new("bash")
            .args(["-c", "compgen -b"])
            .output()
            .expect("bash runs");
        let bash = String::from_utf8_lossy(&out.stdout);
        let bash: Vec<&str> = bash.lines().collect();
        assert!(bash.contains(&"cd"), "compgen -b lists bash's builtins");
        let skipped = crate::shell::BASH_BUILTINS
            .iter()
            .filter(|n| runs_nothing_else(n));
        for name in skipped {
            assert!(bash.contains(name), "`{name}` is not a bash builtin");
        }
        for name in ["builtin", "command", "enable", "eval", "exec", "hash"] {
            assert!(!runs_nothing_else(name), "`{name}` runs other programs");
        }
    }
}
