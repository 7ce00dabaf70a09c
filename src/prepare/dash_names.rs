//! A name the line makes that bash's glob then hands a later command as an option: the
//! glob is expanded against the file system when the call is decided, before the line
//! runs, so a file an earlier command of the line writes is not among the names it
//! finds (helper-49: `echo > ./--expression=e && sed -n p *` ran sed's `e`; `echo >
//! -o.env; sort *.*` wrote `.env`). A command with a glob after an earlier command of
//! its line writes a path whose name starts with `-` is not certain. (A tree copied,
//! moved or unpacked earlier makes what lies below it uncertain anyway: see `changes`.)

use super::facts::Facts;
use super::paths::{PathCand, PathSource};
use super::Prepared;

impl Prepared<'_> {
    /// Mark the commands with a glob that run after an earlier command of their line
    /// writes a path whose name starts with `-` (FACTS: what the lines' commands do).
    pub(super) fn line_dash_names(&self, out: &mut Vec<PathCand>, facts: &Facts) {
        let mut more = Vec::new();
        for (ci, cand) in self.commands().iter().enumerate() {
            let line = &cand.line;
            if line.commands.len() < 2 {
                continue;
            }
            let mut made: Vec<(usize, &str)> = out
                .iter()
                .filter(|p| dashed(&p.raw))
                .flat_map(|p| {
                    p.cmds
                        .iter()
                        .filter(|k| k.0 == ci && facts.makes(self, p, ci, k.1))
                        .map(|k| (k.1, p.raw.as_str()))
                })
                .collect();
            // An operand after `--` is no option to the command that makes it (`touch
            // -- -R`), and not read as a path word.
            for (k, c) in line.commands.iter().enumerate() {
                let after = c.argv.iter().skip_while(|w| *w != "--").skip(1);
                for w in after.filter(|w| dashed(w)) {
                    if !facts.only_reads(self, ci, k) {
                        made.push((k, w.as_str()));
                    }
                }
            }
            if made.is_empty() {
                continue;
            }
            for (i, c) in line.commands.iter().enumerate() {
                let globbed = c
                    .argv
                    .iter()
                    .skip(1)
                    .chain(&c.paths)
                    .any(|w| w.contains(['*', '?', '[']));
                let Some((_, name)) = made
                    .iter()
                    .find(|(k, _)| globbed && super::runs_before(line, *k, i))
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

/// Whether the last component of the path RAW starts with `-`.
fn dashed(raw: &str) -> bool {
    raw.trim_end_matches('/')
        .rsplit('/')
        .next()
        .is_some_and(|n| n.starts_with('-') && n.len() > 1)
}
