//! The paths a call names, as candidates matched against every path glob: its path
//! arguments, the files a diff argument patches, glob arguments, and (through
//! [`super::words`], in the directories [`super::dirs`] finds) the words of its command
//! lines; each normalized once.

use super::{places, Prepared};
use crate::index::{glob_hits, BitSet};
use crate::path;
use crate::rule::Arg;
use crate::shell;

/// The value words of each command argument (see [`shell::value_words`]), read once.
pub(super) type LineValues = std::collections::HashMap<String, Vec<String>>;

/// The directories each placed command's relative words are read in (see [`places`]).
pub(super) type PerCommand = std::collections::HashMap<(usize, usize), places::Dirs>;

/// At most this many command words are checked as paths; past it, the rest
/// counts as matching every deny-side path rule.
pub const MAX_WORD_PATHS: usize = 4_096;

/// How many directories a line may be in at one point (each `cd` may fail).
pub const MAX_DIRS: usize = 32;

/// How much the paths a call's words make (each word read in each directory) and the
/// directories its line moves to may cost to read, in all, counted by [`path_cost`]:
/// about 8 ms of work on a machine of 2026.
pub const MAX_PATH_COST: usize = 160_000;

/// What reading the path P costs, in units of about 50 ns: each path is normalized
/// and read several ways, component by component (an `lstat` or a look in the
/// decision's memo each), so a path costs its bytes, 12 for each component and 32 for
/// itself.
pub(super) fn path_cost(p: &str) -> usize {
    32 + p.len() + 12 * p.matches('/').count()
}

/// Whether the command ARGV may make a symbolic link: what the program table says
/// ([`crate::shell::Effect::Links`], of the subcommand given, and for `cp` only with the
/// options that copy or make links); any program it does not know may (the commands a
/// program runs, `find -exec ln`, are read as commands of their own).
pub(super) fn may_make_links(argv: &[String]) -> bool {
    let Some(name) = argv.first() else {
        return false;
    };
    match shell::lookup(name) {
        Some(p) => p.may_make_links(argv.get(1..).unwrap_or(&[])),
        None => true,
    }
}

/// Why CAND, a path of a line that may make symbolic links, is not certain: a
/// directory along it does not exist now, so a command of the line may make it a
/// link (`ln -s .. h; cat h/.ssh/id_rsa`). None when its directory exists.
pub(super) fn through_missing(
    cand: &PathCand,
    home: Option<&str>,
    cwd: Option<&str>,
) -> Option<String> {
    // A `..` after a component that does not exist now: the kernel reads it through
    // what a command of the line may make there (`ln -s /tmp/d sub/l && rm sub/l/../x`).
    if dotdot_after_missing(&cand.raw, home, cwd) {
        return Some(format!(
            "`{}` goes up (`..`) from a path that does not exist now, which a command of the line may make a link",
            cand.raw.chars().take(200).collect::<String>()
        ));
    }
    let norm = cand.norm.as_ref().ok()?;
    let (parent, _) = norm.rsplit_once('/')?;
    if parent.is_empty() || path::realpath(parent).is_some() {
        return None;
    }
    Some(format!(
        "`{}` is in a directory that does not exist now, which a command of the line may make a link",
        cand.raw.chars().take(200).collect::<String>()
    ))
}

/// Whether RAW (relative to CWD, `~` at HOME) has a `..` right after a path that does
/// not exist now (looked up as the kernel would, links followed); unknown bases count.
fn dotdot_after_missing(raw: &str, home: Option<&str>, cwd: Option<&str>) -> bool {
    if !raw.split('/').any(|c| c == "..") {
        return false;
    }
    let abs = match (raw.strip_prefix('~'), raw.starts_with('/')) {
        (Some(rest), _) if rest.is_empty() || rest.starts_with('/') => match home {
            Some(h) => format!("{h}{rest}"),
            None => return true,
        },
        (_, true) => raw.to_owned(),
        _ => match cwd {
            Some(c) => format!("{}/{raw}", c.trim_end_matches('/')),
            None => return true,
        },
    };
    let comps: Vec<&str> = abs.split('/').collect();
    comps.iter().enumerate().any(|(k, c)| {
        let prefix = comps[..k].join("/");
        *c == ".." && !prefix.is_empty() && std::fs::metadata(&prefix).is_err()
    })
}

/// The script file a shell command ARGV runs (`bash s`, `sh -e ./s`, `. s`), if any.
pub(super) fn script_operand(argv: &[String]) -> Option<&str> {
    let name = argv.first()?;
    if !(matches!(name.as_str(), "source" | ".") || shell::shell_named(name).is_some()) {
        return None;
    }
    let mut words = argv.iter().skip(1);
    while let Some(w) = words.next() {
        match w.as_str() {
            "-c" => return None,
            "-o" | "+o" | "-O" | "+O" => {
                words.next();
            }
            "--" => return words.next().map(String::as_str),
            w if w.starts_with(['-', '+']) => {}
            w => return Some(w),
        }
    }
    None
}

/// Mark uncertain the script a shell of a line runs when another command of the line
/// names the same file, however written (`echo 'rm y' > readme-link; bash README.md`,
/// where `readme-link` leads to `README.md`): that command may write it first.
pub(super) fn scripts_named_twice(commands: &[super::CmdCand], out: &mut [PathCand]) {
    for (ci, cand) in commands.iter().enumerate() {
        for (i, c) in cand.line.commands.iter().enumerate() {
            let Some(script) = script_operand(&c.argv) else {
                continue;
            };
            let runs: Vec<String> = out
                .iter()
                .filter(|p| p.raw == script && p.cmds.contains(&(ci, i)))
                .filter_map(|p| p.norm.as_ref().ok().cloned())
                .collect();
            let other = |p: &PathCand| p.cmds.iter().any(|k| k.0 == ci && k.1 != i);
            let named = out
                .iter()
                .any(|p| other(p) && p.norm.as_ref().is_ok_and(|n| runs.contains(n)));
            if !named {
                continue;
            }
            for p in out.iter_mut() {
                if p.raw == script && p.cmds.contains(&(ci, i)) {
                    p.uncertain.get_or_insert_with(|| {
                        format!(
                            "the script `{}` is a file another command of the line names (and may write)",
                            script.chars().take(200).collect::<String>()
                        )
                    });
                }
            }
        }
    }
}

/// Where a path candidate came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSource {
    /// A path argument.
    Arg(String),
    /// A redirection target of the command line in this argument.
    Redirect(String),
    /// A word of a simple command in this argument (deny side only).
    Word(String),
    /// A glob pattern argument (`pattern`, `glob`, `include`), or a file it
    /// matches: judged by deny-side path rules.
    Pattern(String),
    /// A file named inside this argument's text (a diff's `---`/`+++` names):
    /// judged like a path argument.
    Embedded(String),
}

/// One path a call names, normalized.
#[derive(Debug)]
pub struct PathCand {
    pub source: PathSource,
    pub raw: String,
    /// The normalized path, or why it could not be read.
    pub norm: std::result::Result<String, String>,
    /// The path as written, expanded and collapsed without following links,
    /// when that differs from `norm`.
    pub lexical: Option<String>,
    /// Rules whose `:path` globs match the normalized path.
    pub hits: BitSet,
    /// Rules whose `:path` globs match the lexical path (when there is one).
    pub lexical_hits: BitSet,
    /// The simple commands it belongs to, as (command argument, command)
    /// indexes into `Prepared::commands`; empty for a path argument.
    pub cmds: Vec<(usize, usize)>,
    /// Why no allow rule may cover the commands it belongs to: it names a file
    /// of the running shell's process (`/proc/self/...`, `/dev/fd/...`), or
    /// stands for what a bound kept from being checked.
    pub uncertain: Option<String>,
    /// Why a deny-side match on it is unsure, when it is (DESIGN.md, "Certain and
    /// unsure matches"): a value only the running shell knows, a word of a program
    /// the table does not know read generously.
    pub unsure: Option<shell::Unsure>,
}

impl PathCand {
    /// Whether rule R's `:path` globs match: either form for deny-side
    /// rules, both forms for allow rules.
    pub fn glob_match(&self, r: usize, allow_side: bool) -> bool {
        if allow_side && self.norm.is_err() {
            return false;
        }
        match &self.lexical {
            None => self.hits.get(r),
            Some(_) if allow_side => self.hits.get(r) && self.lexical_hits.get(r),
            Some(_) => self.hits.get(r) || self.lexical_hits.get(r),
        }
    }
}

pub fn key_of(source: &PathSource) -> &str {
    match source {
        PathSource::Arg(k)
        | PathSource::Redirect(k)
        | PathSource::Word(k)
        | PathSource::Pattern(k)
        | PathSource::Embedded(k) => k,
    }
}

impl Prepared<'_> {
    pub(super) fn is_path_key(&self, key: &str) -> bool {
        self.policy.any_path_keys.contains(key)
    }

    pub(super) fn glob_hits_for(&self, p: &str) -> BitSet {
        let mut hits = BitSet::new(self.n());
        let mut scratch = Vec::new();
        glob_hits(&self.policy.path_abs, p, &mut hits, &mut scratch);
        if !self.policy.path_rel.set.is_empty() {
            if let Some(cwd) = &self.path_env().cwd {
                if let Some(rel) = path::relative_to(p, &cwd.to_string_lossy()) {
                    // The cwd itself is `.` (so `./**` covers it, `src/*` not).
                    let rel = if rel.is_empty() { "." } else { rel };
                    glob_hits(&self.policy.path_rel, rel, &mut hits, &mut scratch);
                }
            }
        }
        hits
    }

    pub(super) fn path_cand(&self, source: PathSource, raw: &str) -> PathCand {
        self.path_cand_at(source, raw, None)
    }

    /// A candidate that names no path but makes the command at AT (its word W under
    /// KEY) uncertain, for WHY.
    pub(super) fn uncertain_marker(
        &self,
        key: &str,
        w: &str,
        at: (usize, usize),
        why: String,
    ) -> PathCand {
        let mut marker = self.path_cand(PathSource::Word(key.to_string()), w);
        marker.hits = BitSet::new(self.n());
        marker.lexical_hits = BitSet::new(self.n());
        marker.cmds = vec![at];
        marker.uncertain = Some(why);
        marker
    }

    /// The candidate for RAW in a shell whose directory is DIR (the request's
    /// when None): what `/proc/self/cwd` is there.
    pub(super) fn path_cand_at(
        &self,
        source: PathSource,
        raw: &str,
        dir: Option<&str>,
    ) -> PathCand {
        if raw.len() > path::MAX_PATH_BYTES {
            let why = format!("a path longer than {} bytes", path::MAX_PATH_BYTES);
            return self.unchecked(source, why, Vec::new());
        }
        let (home, cwd) = self.home_and_cwd();
        let base = dir.map(str::to_string).or(cwd);
        // `$PWD/x` is x in the shell's directory, `$HOME/x` x at home: read so.
        let shell_word = matches!(source, PathSource::Word(_) | PathSource::Redirect(_));
        // `~+` is `$PWD` at a word's start.
        let tilde_pwd = raw == "~+" || raw.starts_with("~+/");
        let put_in = (shell_word && (only_pwd_and_home(raw) || tilde_pwd) && self.pwd_home_free())
            .then(|| match (tilde_pwd, base.as_deref()) {
                (true, Some(d)) => format!("{d}{}", &raw[2..]),
                _ => with_pwd(raw, home.as_deref(), base.as_deref()),
            });
        let spelled = put_in.as_deref().unwrap_or(raw);
        // The kernel reads `//` as `/` in what the shell hands on (helper-63: `grep -r
        // KEY ~//` walked a directory no rule saw).
        let spelled = match shell_word {
            true => path::kernel_slashes(spelled),
            false => spelled.into(),
        };
        let (norm, lexical) = path::normalize_and_lexical(&spelled, self.path_env());
        let mut norm = norm.map_err(|e| e.0);
        let mut hits = match &norm {
            Ok(p) => self.glob_hits_for(p),
            Err(_) => BitSet::new(self.n()),
        };
        let lexical = match (&norm, lexical) {
            (Ok(n), Ok(l)) if *n != l => Some(l),
            _ => None,
        };
        let lexical_hits = match &lexical {
            Some(l) => self.glob_hits_for(l),
            None => BitSet::new(0),
        };
        // The forms of the readings only when they are used (below).
        let process = path::reading_process(raw, home.as_deref(), base.as_deref());
        let uncertain = process.why(raw);
        if let (Some(why), true) = (&uncertain, norm.is_ok()) {
            norm = Err(why.clone());
        }
        if norm.is_err() {
            let read = path::readings(raw, home.as_deref(), base.as_deref());
            // A path refused for allow rules is still shown to deny-side
            // rules, read the ways the kernel or a shell could read it.
            for form in read.forms {
                let form = if self.path_env().case_fold {
                    form.to_lowercase()
                } else {
                    form
                };
                let more = self.glob_hits_for(&form);
                hits.union_with(&more);
            }
        }
        if process == path::Process::Unknowable {
            // What only the running shell knows may be anything: every
            // deny-side path rule sees it.
            for r in 0..self.n() {
                hits.set(r);
            }
        }
        let unsure = shell_value(raw, &norm, &process);
        PathCand {
            source,
            raw: raw.to_string(),
            norm,
            lexical,
            hits,
            lexical_hits,
            cmds: Vec::new(),
            unsure,
            uncertain,
        }
    }

    /// Whether no command line of the call names `PWD` or `HOME` other than to expand
    /// them (`$PWD`, `${HOME}`): a line that may give them a value (`read PWD`,
    /// `printf -v HOME`, `PWD=/etc`) leaves `$PWD/x` unreadable.
    pub(super) fn pwd_home_free(&self) -> bool {
        *self.pwd_home_free.get_or_init(|| {
            self.call.args.iter().all(|(key, value)| match value {
                Arg::Str(text) if self.is_command_key(key) => {
                    ["PWD", "HOME"].iter().all(|name| only_expanded(text, name))
                }
                _ => true,
            })
        })
    }

    /// The same path candidate, resolved against another directory DIR
    /// (after `cd DIR`, or the tool's own working directory).
    pub(super) fn path_cand_in(&self, source: PathSource, raw: &str, dir: &str) -> PathCand {
        let joined = format!("{}/{raw}", dir.trim_end_matches('/'));
        self.path_cand_at(source, &joined, Some(dir))
    }

    /// The value words of the command line under KEY (see [`shell::value_words`]),
    /// read once per call into VALUES.
    pub(super) fn line_values<'m>(&self, values: &'m mut LineValues, key: &str) -> &'m [String] {
        values
            .entry(key.to_string())
            .or_insert_with(|| match self.call.arg(key) {
                Some(Arg::Str(text)) => shell::value_words(text),
                _ => Vec::new(),
            })
    }

    /// A path that was not valid Unicode: deny-side rules match what could
    /// be read of it; it never satisfies an allow rule.
    pub(super) fn invalid_path_cand(&self, source: PathSource, lossy: &str) -> PathCand {
        let mut cand = self.path_cand(source, lossy);
        cand.norm = Err("a path that is not valid Unicode text".into());
        cand
    }

    pub(super) fn unreadable(&self, source: PathSource, raw: String, why: String) -> PathCand {
        PathCand {
            source,
            raw,
            norm: Err(why),
            lexical: None,
            hits: BitSet::new(self.n()),
            lexical_hits: BitSet::new(0),
            cmds: Vec::new(),
            uncertain: None,
            unsure: None,
        }
    }

    /// Every path the call names: path arguments, the files a diff argument
    /// names, glob arguments, redirection targets, and the path words of its
    /// simple commands.
    pub fn paths(&self) -> &Vec<PathCand> {
        self.paths.get_or_init(|| {
            let mut out = Vec::new();
            self.arg_paths(&mut out);
            self.diff_paths(&mut out);
            self.glob_arg_paths(&mut out);
            self.command_paths(&mut out);
            out
        })
    }

    /// The path arguments, and the paths two arguments name together.
    pub(super) fn arg_paths(&self, out: &mut Vec<PathCand>) {
        for (key, value) in &self.call.args {
            if !self.is_path_key(key) {
                continue;
            }
            let source = || PathSource::Arg(key.clone());
            match value {
                Arg::Null => {}
                Arg::Str(s) => out.push(self.path_cand(source(), s)),
                Arg::Invalid(s) => out.push(self.invalid_path_cand(source(), s)),
                Arg::List(items) => {
                    for item in items {
                        match item {
                            Arg::Str(s) => out.push(self.path_cand(source(), s)),
                            Arg::Invalid(s) => out.push(self.invalid_path_cand(source(), s)),
                            other => out.push(self.unreadable(
                                source(),
                                other.to_json().to_string(),
                                "a path that is not text".into(),
                            )),
                        }
                    }
                }
                other => out.push(self.unreadable(
                    source(),
                    other.to_json().to_string(),
                    "a path that is not text".into(),
                )),
            }
        }
        // Tools that open (expand-file-name NAME DIR) name one path in two
        // arguments: judge the joined path too.
        for (dir_key, name_key) in path::DEFAULT_PATH_JOINS {
            if let (Some(Arg::Str(dir)), Some(Arg::Str(name))) =
                (self.call.arg(dir_key), self.call.arg(name_key))
            {
                let joined = if name.starts_with('/') || name.starts_with('~') {
                    name.clone()
                } else {
                    format!("{}/{name}", dir.trim_end_matches('/'))
                };
                out.push(self.path_cand(PathSource::Arg((*dir_key).to_string()), &joined));
            }
        }
    }

    /// The files a unified diff argument patches: its `---` and `+++` names, with and
    /// without an `a/`/`b/` prefix, relative to the `path` argument (the directory
    /// `patch` runs in). A diff is the text of an argument of [`path::DIFF_TEXT_KEYS`]
    /// when a flag of [`path::DIFF_FLAG_KEYS`] is true, or when the text reads as one
    /// ([`path::looks_like_diff`]: `ApplyPatch`'s `patch`, `diff` given as text).
    pub(super) fn diff_paths(&self, out: &mut Vec<PathCand>) {
        let flagged = path::DIFF_FLAG_KEYS.iter().any(|k| match self.call.arg(k) {
            Some(Arg::Bool(true)) => true,
            Some(Arg::Str(s)) => s == "true" || s == "t",
            _ => false,
        });
        let texts: Vec<&str> = path::DIFF_TEXT_KEYS
            .iter()
            .filter_map(|k| match self.call.arg(k) {
                Some(Arg::Str(t)) if flagged || path::looks_like_diff(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        if texts.is_empty() {
            return;
        }
        let base = match self.call.arg("path") {
            Some(Arg::Str(p)) => {
                let (home, cwd) = self.home_and_cwd();
                let forms = path::fallback_forms(p, home.as_deref(), cwd.as_deref());
                match forms.first() {
                    // A file's diff is applied in its directory.
                    Some(f) if !std::path::Path::new(f).is_dir() => {
                        f.rsplit_once('/').map(|(d, _)| {
                            if d.is_empty() {
                                "/".to_string()
                            } else {
                                d.to_string()
                            }
                        })
                    }
                    Some(f) => Some(f.clone()),
                    None => None,
                }
            }
            _ => None,
        };
        let source = || PathSource::Embedded("new_str".to_string());
        let mut seen = std::collections::HashSet::new();
        for name in texts.iter().flat_map(|t| path::diff_targets(t)) {
            if !seen.insert(name.clone()) {
                continue;
            }
            match (&base, name.starts_with('/') || name.starts_with('~')) {
                (Some(b), false) => out.push(self.path_cand_in(source(), &name, b)),
                _ => out.push(self.path_cand(source(), &name)),
            }
        }
    }

    /// Glob arguments (`Glob`'s `pattern`, `Grep`'s `glob`, `include`): the
    /// pattern itself and the files it matches now, relative to the `path`
    /// argument; deny side only (a regexp argument may share the name).
    pub(super) fn glob_arg_paths(&self, out: &mut Vec<PathCand>) {
        // Most calls have no glob argument: they need no directory resolved.
        if !path::DEFAULT_GLOB_KEYS
            .iter()
            .any(|key| matches!(self.call.arg(key), Some(Arg::Str(_))))
        {
            return;
        }
        let (home, cwd) = self.home_and_cwd();
        let base = match self.call.arg("path") {
            Some(Arg::Str(p)) => path::fallback_forms(p, home.as_deref(), cwd.as_deref())
                .into_iter()
                .next(),
            _ => cwd.clone(),
        };
        for key in path::DEFAULT_GLOB_KEYS {
            let Some(Arg::Str(pattern)) = self.call.arg(key) else {
                continue;
            };
            let source = || PathSource::Pattern(key.to_string());
            let absolute = pattern.starts_with('/') || pattern.starts_with('~');
            match (&base, absolute) {
                (Some(b), false) => out.push(self.path_cand_in(source(), pattern, b)),
                _ => out.push(self.path_cand(source(), pattern)),
            }
            let case_fold = self.path_env().case_fold;
            let expansion = path::expand_glob(
                pattern,
                home.as_deref(),
                base.as_deref(),
                case_fold,
                (true, false),
            );
            for found in &expansion.found {
                out.push(self.path_cand(source(), found));
            }
            if let Some(why) = expansion.incomplete {
                out.push(self.unchecked(source(), why, Vec::new()));
            }
        }
    }

    /// A candidate for what a bound kept from being checked, or what only the
    /// running shell knows (WHY): it counts as matching every deny-side path
    /// rule, never satisfies an allow rule, and no allow rule covers the
    /// commands CMDS it belongs to.
    pub(super) fn unchecked(
        &self,
        source: PathSource,
        why: String,
        cmds: Vec<(usize, usize)>,
    ) -> PathCand {
        let mut hits = BitSet::new(self.n());
        for r in 0..self.n() {
            hits.set(r);
        }
        PathCand {
            source,
            raw: format!("({why})"),
            norm: Err(why.clone()),
            lexical: None,
            hits,
            lexical_hits: BitSet::new(0),
            cmds,
            uncertain: Some(why),
            unsure: None,
        }
    }
}

/// Whether W expands no parameter but `$PWD` and `$HOME` (and `${PWD}`, `${HOME}`),
/// and has at least one of them.
pub(super) fn only_pwd_and_home(w: &str) -> bool {
    if !w.contains('$') {
        return false;
    }
    let mut rest = w;
    while let Some(at) = rest.find('$') {
        let after = &rest[at + 1..];
        let name = ["{PWD}", "{HOME}", "PWD", "HOME"]
            .into_iter()
            .find(|n| after.starts_with(n));
        let Some(name) = name else {
            return false;
        };
        let tail = &after[name.len()..];
        // `$PWDX` and `$HOME_2` are other variables.
        if !name.starts_with('{')
            && tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            return false;
        }
        rest = tail;
    }
    true
}

/// Whether every NAME in TEXT that is not part of a longer name is expanded (`$NAME`,
/// `${NAME}`).
pub(super) fn only_expanded(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).all(|(at, _)| {
        let before = &text[..at];
        let after = &text[at + name.len()..];
        before.ends_with('$')
            || (before.ends_with("${") && after.starts_with('}'))
            || before.ends_with(ident)
            || after.starts_with(ident)
    })
}

/// W (see [`only_pwd_and_home`]) with `$HOME` made HOME and `$PWD` made DIR.
pub(super) fn with_pwd(w: &str, home: Option<&str>, dir: Option<&str>) -> String {
    let mut text = w.to_string();
    if let Some(h) = home {
        for var in ["${HOME}", "$HOME"] {
            text = text.replace(var, h);
        }
    }
    if let Some(d) = dir {
        for var in ["${PWD}", "$PWD"] {
            text = text.replace(var, d);
        }
    }
    text
}

/// Why a match on the path RAW (normalized to NORM) is unsure, if it is: the whole
/// word is a variable only the running shell knows (`"$d"`; `$HOME`, `$PWD` and
/// `$OLDPWD` are known), or the value of one given a command's output. A word with a known part (`~/.ssh/$x`) matches for certain.
pub(super) fn shell_value(
    raw: &str,
    norm: &std::result::Result<String, String>,
    _process: &path::Process,
) -> Option<shell::Unsure> {
    if norm.is_ok() {
        return None;
    }
    // The value of a variable given a command's output (`tmp=$(mktemp)`, whose value
    // the line's values read as `$`): as unsure as `$tmp` itself.
    if raw == "$" {
        return Some(shell::Unsure::ShellValue(raw.to_string()));
    }
    let name = raw.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(name);
    let plain = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    (operated_parameter(raw) || (plain && !matches!(name, "HOME" | "PWD" | "OLDPWD")))
        .then(|| shell::Unsure::ShellValue(raw.to_string()))
}

/// Whether RAW is one parameter's value changed by an operator, the whole word
/// (`${PWD##*/}`, `${f%.c}`): what it is only the running shell knows, whatever the
/// parameter (helper-78: `echo "${PWD##*/}"` was denied for certain by a rule for
/// `~/.ssh`, `cd "${PWD%/*}"` too).
pub(super) fn operated_parameter(raw: &str) -> bool {
    let Some(inner) = raw.strip_prefix("${").and_then(|r| r.strip_suffix('}')) else {
        return false;
    };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let name_len = inner.len() - inner.trim_start_matches(ident).len();
    let (name, op) = inner.split_at(name_len);
    // `${HOME:?}`, `${PWD:-x}`: the value the path rules read, when it is set (helper-80).
    let kept = matches!(name, "HOME" | "PWD" | "OLDPWD") && op.starts_with(':');
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && !inner.contains(['{', '}', '$', '`'])
        && op.starts_with(['#', '%', '/', ':', '^', ','])
        && !kept
}
