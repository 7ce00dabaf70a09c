//! A command named without a `/` is the first file of that name in the directories of
//! `PATH`: a line that writes there first (`printf … > /usr/local/bin/ls; chmod +x
//! /usr/local/bin/ls; ls`, `cp evil ~/.local/bin/git && git status`) runs a program it
//! made, whatever the name says. A command is not certain after an earlier command of
//! its line names one of those directories or anything in them (a redirection, a
//! copy's destination, `chmod`; not a command that only reads, `ls ~/.local/bin`), as
//! a program after a change to its configuration is not (see `configs`). The
//! directories are those of this process's `PATH` and the usual ones besides
//! (`/usr/local/bin`, `~/.local/bin`, `~/bin`, `~/.cargo/bin`...): the shell's own
//! `PATH` may differ from ours.

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

/// bash's builtins that run no other program: never looked up in `PATH` (`enable -n`,
/// which would make them so, is a program the table does not know).
const BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "caller",
    "cd",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

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

impl Prepared<'_> {
    /// Mark the commands named without a `/` that run after an earlier command of
    /// their line names a directory of `PATH` or a file in it. DIRS are the
    /// directories the lines may be in besides the request's.
    pub(super) fn line_lookups(&self, out: &mut Vec<PathCand>, dirs: &[String]) {
        let fold = self.path_env().case_fold;
        let mut path_dirs: Option<Vec<String>> = None;
        let mut more = Vec::new();
        for (ci, cand) in self.commands().iter().enumerate() {
            let line = &cand.line;
            if line.commands.len() < 2 {
                continue;
            }
            for (i, c) in line.commands.iter().enumerate() {
                let Some(name) = c.argv.first().filter(|n| {
                    !n.is_empty() && !n.contains('/') && !BUILTINS.contains(&n.as_str())
                }) else {
                    continue;
                };
                // A word of an earlier command that does more than read it, or may make
                // a tree: before it, the directories of PATH are not looked up.
                let writes = |p: &PathCand| {
                    super::named_before(p, ci, line, i, |c| !super::configs::only_reads(c))
                };
                let trees = |p: &PathCand| super::named_before(p, ci, line, i, makes_trees);
                if !out.iter().any(|p| writes(p) || trees(p)) {
                    continue;
                }
                let pd = path_dirs.get_or_insert_with(|| self.path_dirs(dirs, fold));
                // A word in a directory of PATH, of a command that does more than read
                // it; or one above it, of a command that makes the tree below (`cp -r
                // evil ~/.local`, `ln -s evil ~/.local`, `mv`, an extraction).
                let hit = out.iter().find_map(|p| {
                    let forms = self.forms(p, fold);
                    let inside = pd
                        .iter()
                        .find(|d| forms.iter().any(|f| path::is_within(f, d)))
                        .filter(|_| writes(p));
                    let above = || {
                        pd.iter()
                            .find(|d| forms.iter().any(|f| path::is_within(d, f)))
                            .filter(|_| trees(p))
                    };
                    inside.or_else(above).cloned()
                });
                let Some(dir) = hit else {
                    continue;
                };
                let why = format!(
                    "`{name}` is looked up in PATH, and an earlier command of the line names `{dir}`, a directory of it"
                );
                let file = format!("{}/{name}", dir.trim_end_matches('/'));
                let mut made = self.path_cand(PathSource::Word(cand.key.clone()), &file);
                made.cmds = vec![(ci, i)];
                made.uncertain = Some(why);
                more.push(made);
            }
        }
        out.extend(more);
    }

    /// The directories of `PATH` and [`USUAL`], absolute: as written (an empty or
    /// relative entry in each of the line's directories) and with links resolved.
    fn path_dirs(&self, dirs: &[String], fold: bool) -> Vec<String> {
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
        self.abs_forms(&written, fold)
    }
}

#[cfg(test)]
mod tests {
    use super::BUILTINS;

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
        for name in BUILTINS {
            assert!(bash.contains(name), "`{name}` is not a bash builtin");
        }
    }
}
