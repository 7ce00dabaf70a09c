//! A program's own configuration, written by the line before it runs: `curl` reads
//! `~/.curlrc`, `less` its lesskey file, `bat` its config directory, and what they hold
//! can make them run commands or open other files (`url = "file:///root/.ssh/id_rsa"`,
//! `LESSOPEN=|cmd`). The table names those files ([`crate::shell::Program::config`]);
//! a program is not certain after an earlier command of its line names such a file (a
//! redirection to it, a copy onto it, any word that is it or lies below it) or moves,
//! links or extracts over it (see `changes`). The file is then a candidate of the
//! program, for the rules on it. What an earlier call wrote is not seen (README, "Not
//! covered").

use super::changes::change_of;
use super::paths::{PathCand, PathSource};
use super::Prepared;
use crate::path;
use crate::shell;

/// The configuration of programs the table does not read, allowed only by a rule that
/// names them: rustup's proxies run the toolchain `rust-toolchain(.toml)` names, in
/// their directory or any above it (helper-44: `path = "/tmp/tc"` ran its `rustfmt`).
const UNREAD: &[(&[&str], &[&str])] = &[(
    &[
        "rustc",
        "rustdoc",
        "rustfmt",
        "rust-analyzer",
        "rust-gdb",
        "rust-lldb",
        "cargo-fmt",
        "cargo-clippy",
        "clippy-driver",
        "cargo-miri",
        "rustup",
    ],
    &[
        "$UP/rust-toolchain",
        "$UP/rust-toolchain.toml",
        "~/.rustup/",
        "~/.cargo/",
    ],
)];

/// Whether C may write candidate P: P is a redirection's target (`>`, and `<` too), or
/// C does more than read the words it names.
pub(super) fn writes_to(p: &PathCand, c: &shell::SimpleCommand) -> bool {
    matches!(p.source, PathSource::Redirect(_)) || !only_reads(c)
}

/// Whether C only reads the words it names: a program the table knows, every word
/// read, none in a role that writes, runs or moves (`cat .git/config`, `ls
/// ~/.local/bin`; its redirections are candidates of their own, see [`writes_to`]).
pub(super) fn only_reads(c: &shell::SimpleCommand) -> bool {
    use shell::Role::*;
    let Some(p) = c.argv.first().and_then(|n| shell::lookup(n)) else {
        return false;
    };
    // Talking to the network, running the project's code (git's hooks, what `make`
    // runs: a program the table knows as `Named`) or opening its directory write none
    // of its words.
    let writes = |e: &shell::Effect| {
        matches!(
            e,
            shell::Effect::Links | shell::Effect::Dirs | shell::Effect::Privilege
        )
    };
    let read = matches!(c.program, shell::Known::Known | shell::Known::Named);
    if !read || p.effects.iter().any(writes) {
        return false;
    }
    let r = shell::read(p, c.argv.get(1..).unwrap_or(&[]));
    r.is_known()
        && r.runs.is_empty()
        && r.parts.iter().all(|x| {
            matches!(
                x.role,
                Data | Read
                    | Walk
                    | WalkFollow
                    | WalkVisible
                    | List
                    | WalkTracked
                    | ShowTracked
                    | WalkUnignored
                    | Chdir
                    | Pattern
            )
        })
}

impl Prepared<'_> {
    /// Mark the programs of each line that read a configuration file an earlier command
    /// of their line names or changes. DIRS are the directories the lines may be in
    /// besides the request's.
    pub(super) fn line_configs(&self, out: &mut Vec<PathCand>, dirs: &[String]) {
        let (home, cwd) = self.home_and_cwd();
        let mut bases: Vec<String> = cwd.into_iter().collect();
        bases.extend(dirs.iter().cloned());
        let fold = self.path_env().case_fold;
        let mut more = Vec::new();
        for (ci, cand) in self.commands().iter().enumerate() {
            let line = &cand.line;
            let readers: Vec<(usize, &str, &[&str])> = line
                .commands
                .iter()
                .enumerate()
                .filter_map(|(i, c)| {
                    let name = c.argv.first()?;
                    match shell::lookup(name) {
                        Some(p) => Some((i, p.name(), p.config)),
                        None => UNREAD
                            .iter()
                            .find(|(names, _)| names.contains(&name.as_str()))
                            .map(|(_, config)| (i, name.as_str(), *config)),
                    }
                })
                .filter(|(_, _, config)| !config.is_empty())
                .collect();
            if readers.is_empty() {
                continue;
            }
            let before = |i: usize, j: usize| super::runs_before(line, j, i);
            let changes: Vec<_> = line
                .commands
                .iter()
                .enumerate()
                .filter_map(|(j, c)| Some((j, change_of(&c.argv)?)))
                .collect();
            let changed = self.change_pairs(&changes, &bases, home.as_deref());
            for (i, program, config) in readers {
                // Nothing before it writes or changes anything: its files are not
                // looked for (they cost the file system a visit each).
                let writers = out
                    .iter()
                    .any(|p| super::named_before(p, ci, line, i, |c| writes_to(p, c)));
                if !writers && !changed.iter().any(|(j, _, _)| before(i, *j)) {
                    continue;
                }
                let files = self.config_files(program, config, home.as_deref(), &bases, fold);
                // A word of an earlier command: the file, or below its directory.
                // (Not a command that only reads it: `cat .git/config`.)
                let named = out.iter().any(|p| {
                    super::named_before(p, ci, line, i, |c| writes_to(p, c))
                        && self.forms(p, fold).iter().any(|f| {
                            files
                                .iter()
                                .any(|(_, forms)| forms.iter().any(|c| path::is_within(f, c)))
                        })
                });
                // What an earlier command moves, links or extracts over: the file, a
                // directory above it, or the whole tree of the line's directories.
                let moved = changed.iter().any(|(j, paths, _)| {
                    before(i, *j)
                        && files.iter().any(|(_, forms)| {
                            forms.iter().any(|c| match paths {
                                None => bases.iter().any(|b| path::is_within(c, b)),
                                Some(paths) => paths.iter().any(|d| path::is_within(c, d)),
                            })
                        })
                });
                if !(named || moved) {
                    continue;
                }
                for (shown, forms) in &files {
                    let Some(first) = forms.first() else {
                        continue;
                    };
                    let why = format!(
                        "`{}` reads `{shown}` as its configuration, which an earlier command of the line writes or changes",
                        program
                    );
                    let mut c = self.path_cand(PathSource::Word(cand.key.clone()), first);
                    c.cmds = vec![(ci, i)];
                    c.uncertain = Some(why);
                    more.push(c);
                }
            }
        }
        out.extend(more);
    }

    /// PROGRAM's configuration files, each as the table shows it and its absolute
    /// forms: as written from HOME (and `$XDG_CONFIG_HOME`, or `~/.config`; `$GIT_DIR`
    /// the repository git finds from each of BASES, or their `.git`), and with links
    /// resolved (folded when FOLD).
    fn config_files(
        &self,
        program: &str,
        config: &[&str],
        home: Option<&str>,
        bases: &[String],
        fold: bool,
    ) -> Vec<(String, Vec<String>)> {
        let xdg = std::env::var("XDG_CONFIG_HOME")
            .ok()
            .filter(|x| x.starts_with('/'));
        let mut out = Vec::new();
        let mut named: Vec<String> = Vec::new();
        for entry in config {
            let mut written: Vec<String> = Vec::new();
            if let Some(rest) = entry.strip_prefix("~/") {
                written.extend(home.map(|h| format!("{}/{rest}", h.trim_end_matches('/'))));
            } else if let Some(rest) = entry.strip_prefix("$GIT_DIR/") {
                for base in bases {
                    let dir = match super::git_repo::discover(std::path::Path::new(base)) {
                        super::git_repo::Repo::Dotgit { git_dir, .. } => {
                            git_dir.to_string_lossy().into_owned()
                        }
                        _ => format!("{}/.git", base.trim_end_matches('/')),
                    };
                    written.push(format!("{}/{rest}", dir.trim_end_matches('/')));
                }
            } else if let Some(rest) = entry.strip_prefix("$UP/") {
                for base in bases {
                    let mut dir = std::path::Path::new(base);
                    loop {
                        let d = dir.to_string_lossy();
                        written.push(format!("{}/{rest}", d.trim_end_matches('/')));
                        match dir.parent() {
                            Some(up) => dir = up,
                            None => break,
                        }
                    }
                }
            } else if let Some(rest) = entry.strip_prefix("$XDG_CONFIG_HOME/") {
                written.extend(home.map(|h| format!("{}/.config/{rest}", h.trim_end_matches('/'))));
                written.extend(
                    xdg.as_ref()
                        .map(|x| format!("{}/{rest}", x.trim_end_matches('/'))),
                );
            } else {
                written.push((*entry).to_owned());
            }
            // git's configuration files (a directory's `config`) and what they name.
            if program == "git" {
                named.extend(written.iter().map(|w| match w.ends_with('/') {
                    true => format!("{w}config"),
                    false => w.clone(),
                }));
            }
            out.push(((*entry).to_owned(), self.abs_forms(&written, fold)));
        }
        if !named.is_empty() {
            let mut from: Vec<String> = bases.to_vec();
            from.extend(bases.iter().filter_map(|b| {
                match super::git_repo::discover(std::path::Path::new(b)) {
                    super::git_repo::Repo::Dotgit { top, .. } => {
                        Some(top.to_string_lossy().into_owned())
                    }
                    _ => None,
                }
            }));
            for p in super::git_config_paths::named_paths(&named, &from, home) {
                let forms = self.abs_forms(std::slice::from_ref(&p), fold);
                out.push((format!("{p}, which git's configuration names"), forms));
            }
        }
        out
    }

    /// The absolute forms of the paths WRITTEN (absolute, a trailing `/` dropped):
    /// lexical and with links resolved, folded when FOLD, sorted, each once.
    pub(super) fn abs_forms(&self, written: &[String], fold: bool) -> Vec<String> {
        self.forms_of(written, fold, true)
    }

    /// The absolute forms of the paths WRITTEN: lexical, and with links resolved when
    /// RESOLVE (see [`Self::abs_forms`]).
    pub(super) fn forms_of(&self, written: &[String], fold: bool, resolve: bool) -> Vec<String> {
        let mut lexical: Vec<String> = written
            .iter()
            .filter_map(|w| {
                let t = w.trim_end_matches('/');
                path::lexical(if t.is_empty() { "/" } else { t }, self.path_env()).ok()
            })
            .collect();
        lexical.sort();
        lexical.dedup();
        let mut forms: Vec<String> = lexical
            .iter()
            .filter(|_| resolve)
            .filter_map(|w| path::normalize(w, self.path_env()).ok())
            .collect();
        forms.extend(lexical);
        if fold {
            forms.iter_mut().for_each(|f| *f = f.to_lowercase());
        }
        forms.sort();
        forms.dedup();
        forms
    }

    /// The absolute forms of candidate P: normalized, lexical, as written, and as the
    /// kernel reads it when the reading refuses it (folded when FOLD).
    pub(super) fn forms(&self, p: &PathCand, fold: bool) -> Vec<String> {
        let mut all: Vec<String> = p.norm.iter().chain(p.lexical.iter()).cloned().collect();
        all.extend(path::lexical(&p.raw, self.path_env()).ok());
        // A path the reading refuses (`lnk/../etc/x`, ambiguous) is still where the
        // kernel writes (helper-43).
        if p.norm.is_err() {
            all.extend(path::physical(&p.raw, self.path_env()));
        }
        // `/tmp//x/.git/config` is `/tmp/x/.git/config` to the kernel, though not to
        // Emacs's file names, for which such a path is unreadable (helper-41).
        if p.raw.contains("//") {
            let mut raw = p.raw.clone();
            while raw.contains("//") {
                raw = raw.replace("//", "/");
            }
            all.extend(path::lexical(&raw, self.path_env()).ok());
        }
        if fold {
            all.iter_mut().for_each(|f| *f = f.to_lowercase());
        }
        all
    }
}
