//! A program's own configuration, written by the line before it runs: `curl` reads
//! `~/.curlrc`, `less` its lesskey file, `bat` its config directory, and what they hold
//! can make them run commands or open other files (`url = "file:///root/.ssh/id_rsa"`,
//! `LESSOPEN=|cmd`). The table names those files ([`crate::shell::Program::config`]);
//! a program is not certain after an earlier command of its line names such a file (a
//! redirection to it, a copy onto it, any word that is it or lies below it) or moves,
//! links or extracts over it (see `changes`). The file is then a candidate of the
//! program, for the rules on it. What an earlier call wrote is not seen (README, "Not
//! covered").

use super::facts::Facts;
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

/// The programs whose configuration in the home can make them open any file or run a
/// command (`upload-file`, `post_file`, `use_askpass`, a lesskey's `LESSOPEN`, bat's
/// `--pager`) and which the engine does not read: one is not certain while such a file
/// is there (helper-54: `echo 'upload-file = "~/.ssh/id_rsa"' > ~/.curlrc` in one
/// call made the next call's allowed `curl URL` upload the key). Each with the files
/// meant, or all of its files in the home: git starts less as its pager when its output
/// is a terminal, and less reads its lesskey (helper-66: `git log > /dev/ptmx` ran the
/// `LESSOPEN` an earlier call wrote to `~/.lesskey`); git's own files git_repo reads.
const READ_AS_IT_IS: &[(&str, &[&str])] = &[
    ("curl", &[]),
    ("wget", &[]),
    ("less", &[]),
    ("bat", &[]),
    ("jq", &[]),
    ("git", crate::shell::LESS_HOME),
];

/// Whether the lesskey file PATH may set variables (`LESSOPEN`, which runs a command):
/// a source file with an `#env` section, a compiled one (`~/.less`, which starts with
/// lesskey's magic bytes and may hold one), or one that cannot be read. A source file
/// of key bindings only (`#command`, `#line-edit`) does not; one not there does not.
fn lesskey_may_set(path: &std::path::Path) -> bool {
    match path::read_small(path, 1 << 20) {
        Ok(text) => {
            text.starts_with(b"\0M+G")
                || text
                    .split(|b| *b == b'\n')
                    .any(|l| l.trim_ascii_start().starts_with(b"#env"))
        }
        Err(e) => !path::absent(&e),
    }
}

impl Prepared<'_> {
    /// Mark the programs of each line that read a configuration file an earlier command
    /// of their line names or changes (FACTS: the lines' directories and changes).
    pub(super) fn line_configs(&self, out: &mut Vec<PathCand>, facts: &Facts) {
        let (home, bases) = (facts.home.clone(), &facts.bases);
        let fold = self.path_env().case_fold;
        let mut more = Vec::new();
        // Each program's files, looked for once per call.
        let mut memo: std::collections::HashMap<&str, Vec<(String, Vec<String>)>> =
            std::collections::HashMap::new();
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
            let changed = match facts.changes(ci) {
                true => facts.changed(self, ci),
                false => &[],
            };
            // A candidate an earlier command than I may write.
            let written_before = |p: &PathCand, i: usize| {
                p.cmds.iter().any(|k| {
                    k.0 == ci && super::runs_before(line, k.1, i) && facts.writes(self, p, ci, k.1)
                })
            };
            // The file FIRST, a candidate of command I that makes it uncertain for WHY.
            let config_cand = |first: &str, why: String, i: usize| {
                let mut c = self.path_cand(PathSource::Word(cand.key.clone()), first);
                c.cmds = vec![(ci, i)];
                c.uncertain = Some(why);
                c
            };
            for (i, program, config) in readers {
                // A file in the home that one of [`READ_AS_IT_IS`] reads, there now: an
                // earlier call may have written it, and what it holds is not read.
                // (`git --no-pager`, `git -P` page through nothing: options before the
                // subcommand; `git grep -P` is a Perl pattern.)
                let argv = &line.commands[i].argv;
                let globals = shell::git_subcommand(argv).map_or(&argv[..0], |k| &argv[..k]);
                let no_pager =
                    program == "git" && globals.iter().any(|w| w == "--no-pager" || w == "-P");
                let as_it_is = READ_AS_IT_IS.iter().find(|(p, _)| *p == program);
                if let Some((_, only)) = as_it_is.filter(|_| !no_pager) {
                    let files = memo.entry(program).or_insert_with(|| {
                        self.config_files(program, config, home.as_deref(), bases, fold)
                    });
                    for (shown, forms) in files.iter() {
                        let in_home = (shown.starts_with("~/")
                            || shown.starts_with("$XDG_CONFIG_HOME/"))
                            && (only.is_empty() || only.contains(&shown.as_str()));
                        let Some(first) = forms.first().filter(|_| in_home) else {
                            continue;
                        };
                        if !forms.iter().any(|f| std::path::Path::new(f).exists()) {
                            continue;
                        }
                        // A lesskey that only binds keys runs nothing where no key is
                        // pressed (a tool's command has no terminal).
                        if shell::LESS_HOME.contains(&shown.as_str())
                            && !forms
                                .iter()
                                .any(|f| lesskey_may_set(std::path::Path::new(f)))
                        {
                            continue;
                        }
                        let why = format!(
                            "`{program}` reads `{shown}`, which is there (an earlier call may have written it): what it names or runs is not read"
                        );
                        more.push(config_cand(first, why, i));
                    }
                }
                // Nothing before it writes or changes anything: its files are not
                // looked for (they cost the file system a visit each).
                let writers = out.iter().any(|p| written_before(p, i));
                if !writers && !changed.iter().any(|(j, _, _)| before(i, *j)) {
                    continue;
                }
                let files = memo.entry(program).or_insert_with(|| {
                    self.config_files(program, config, home.as_deref(), bases, fold)
                });
                // A word of an earlier command: the file, or below its directory.
                // (Not a command that only reads it: `cat .git/config`.)
                let named = out.iter().any(|p| {
                    written_before(p, i)
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
                for (shown, forms) in files.iter() {
                    let Some(first) = forms.first() else {
                        continue;
                    };
                    let why = format!(
                        "`{}` reads `{shown}` as its configuration, which an earlier command of the line writes or changes",
                        program
                    );
                    more.push(config_cand(first, why, i));
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
            if program == "git" && !shell::LESS_HOME.contains(entry) {
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
            .filter_map(|w| path::word_lexical(w, self.path_env()).ok())
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
            all.extend(path::word_lexical(&p.raw, self.path_env()).ok());
        }
        if fold {
            all.iter_mut().for_each(|f| *f = f.to_lowercase());
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::lesskey_may_set;

    #[test]
    fn a_lesskey_of_key_bindings_sets_nothing() {
        let dir = std::env::temp_dir().join(format!("grh-lesskey-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("make the directory");
        let file = |name: &str, text: &[u8]| {
            let p = dir.join(name);
            std::fs::write(&p, text).expect("write the lesskey");
            p
        };
        let keys = file("keys", b"#command\nj forw-line\n#line-edit\n^A home\n");
        let env = file("env", b"#command\nj forw-line\n  #env\nLESSOPEN=|cat %s\n");
        let compiled = file("compiled", b"\0M+Gc\x05\0j\x01");
        assert!(!lesskey_may_set(&keys));
        assert!(lesskey_may_set(&env));
        assert!(lesskey_may_set(&compiled));
        assert!(!lesskey_may_set(&dir.join("absent")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
