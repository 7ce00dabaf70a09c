//! A name the line makes that bash's glob then hands a later command as an option: the
//! glob is expanded against the file system when the call is decided, before the line
//! runs, so a file an earlier command of the line writes is not among the names it
//! finds (helper-49: `echo > ./--expression=e && sed -n p *` ran sed's `e`; `echo >
//! -o.env; sort *.*` wrote `.env`). A command with a glob after an earlier command of
//! its line writes a path whose name starts with `-` is not certain. (A tree copied,
//! moved or unpacked earlier makes what lies below it uncertain anyway: see `changes`.)
//! So is a command whose glob of data (`echo *`, see `data_glob_names`) names a file
//! that starts with `-` now.

use super::facts::Facts;
use super::paths::{PathCand, PathSource};
use super::{places, Prepared};
use crate::shell;

impl Prepared<'_> {
    /// Mark the commands with a glob that run after an earlier command of their line
    /// writes a path whose name starts with `-` (FACTS: what the lines' commands do).
    pub(super) fn line_dash_names(&self, out: &mut Vec<PathCand>, facts: &Facts) {
        let mut more = Vec::new();
        for (ci, cand) in self.commands().iter().enumerate() {
            let line = &cand.line;
            // Only a command with a glob can be handed a name (most lines have none:
            // what each command writes is not read then).
            let globbed: Vec<bool> = line.commands.iter().map(has_glob).collect();
            if line.commands.len() < 2 || !globbed.iter().any(|g| *g) {
                continue;
            }
            let mut made: Vec<(usize, String)> = out
                .iter()
                .filter(|p| dashed(&p.raw))
                .flat_map(|p| {
                    p.cmds
                        .iter()
                        .filter(|k| k.0 == ci && facts.makes(self, p, ci, k.1))
                        .map(|k| (k.1, p.raw.clone()))
                })
                .collect();
            // What the table says each command writes, however it is given: an operand
            // after `--` (`touch -- -R`), an option's value (`sort -o-r`, `tar cf -r`),
            // a file its code writes (`sed -n 'w -r'`), a name it makes (`sed -i'-r*'`):
            // a word that starts with `-` is no path candidate of its own.
            for (k, c) in line.commands.iter().enumerate() {
                made.extend(written(c).into_iter().filter(|w| dashed(w)).map(|w| (k, w)));
            }
            if made.is_empty() {
                continue;
            }
            for (i, globbed) in globbed.iter().enumerate() {
                let Some((_, name)) = made
                    .iter()
                    .find(|(k, _)| *globbed && super::runs_before(line, *k, i))
                else {
                    continue;
                };
                let mut marker = self.path_cand(PathSource::Word(cand.key.clone()), name);
                marker.cmds = vec![(ci, i)];
                marker.uncertain = Some(format!(
                    "an earlier command of the line makes `{}`, which a glob of this command may hand it as an option",
                    name.chars().take(200).collect::<String>()
                ));
                more.push(marker);
            }
        }
        out.extend(more);
    }
}

impl Prepared<'_> {
    /// The names the data glob W of the command at AT makes where it runs (PLACE; see
    /// [`shell::SimpleCommand::data_globs`]): no path candidates, but one that starts
    /// with `-` is an option to the program (`date *` beside a file `-f.env` reads
    /// `.env`), which makes the command uncertain, as it does for any glob
    /// ([`Prepared::word_cands`]); so does an expansion past a bound. GLOBS: how its
    /// globs match dotfiles (see [`crate::path::expand_glob`]).
    pub(super) fn data_glob_names(
        &self,
        out: &mut Vec<PathCand>,
        key: &str,
        w: &str,
        place: &places::Dirs,
        at: (usize, usize),
        globs: (bool, bool),
    ) {
        let show = |t: &str| t.chars().take(100).collect::<String>();
        for expansion in self.glob_expansions(w, place.0, &place.1, globs) {
            let why = match (expansion.dashed(), expansion.incomplete) {
                (Some(name), _) => format!(
                    "the glob `{}` names `{}`, which the program reads as an option",
                    show(w),
                    show(&name)
                ),
                (None, Some(why)) => format!(
                    "whether the glob `{}` names a file that starts with `-` is not known: {why}",
                    show(w)
                ),
                (None, None) => continue,
            };
            out.push(self.uncertain_marker(key, w, at, why));
            return;
        }
    }
}

/// Whether a word of C may be a glob bash expands.
fn has_glob(c: &shell::SimpleCommand) -> bool {
    c.argv
        .iter()
        .skip(1)
        .chain(&c.paths)
        .any(|w| w.contains(['*', '?', '[']))
}

/// The paths the program table says C writes or makes: its words in roles that write,
/// and the files its code writes.
fn written(c: &shell::SimpleCommand) -> Vec<String> {
    use shell::Role::{Write, WriteTracked, WriteTree};
    let Some(p) = c.argv.first().and_then(|n| shell::lookup(n)) else {
        return Vec::new();
    };
    let r = shell::read(p, c.argv.get(1..).unwrap_or(&[]));
    let mut out: Vec<String> = r
        .parts
        .iter()
        .filter(|x| matches!(x.role, Write | WriteTree | WriteTracked))
        .map(|x| x.text.clone())
        .collect();
    for run in &r.runs {
        if let shell::Run::Code(text) = run {
            out.extend(
                shell::read_code(p.name(), text)
                    .into_iter()
                    .flat_map(|code| code.writes),
            );
        }
    }
    out
}

/// Whether the last component of the path RAW starts with `-`.
fn dashed(raw: &str) -> bool {
    raw.trim_end_matches('/')
        .rsplit('/')
        .next()
        .is_some_and(|n| n.starts_with('-') && n.len() > 1)
}
