//! The symbolic links a line's own commands may make (`ln -s`, `cp -a`, `tar x`, `git
//! checkout`: see `may_make_links`), and which of the line's commands may read through
//! them: those started after a maker, beside it, or again.

use super::paths::may_make_links;
use crate::shell;

/// The commands of a line that may make a symbolic link (see `may_make_links`), and
/// when they run.
pub(super) struct Links {
    makers: Vec<usize>,
    /// The makers whose own words may be read through a link they make: a program that
    /// copies or moves its sources in turn, given more than two words that are no
    /// options (`cp -r x/. dest/k/.ssh/id_rsa dest/` copies `x/k`, a link, then reads
    /// through it: helper-71).
    own: Vec<usize>,
    /// Commands may run at the same time (`&`, a pipeline): a later one may act first.
    concurrent: bool,
    /// The commands that may run more than once (in a loop or a function).
    repeated: Vec<usize>,
}

impl Links {
    pub(super) fn of(line: &shell::CommandLine) -> Links {
        let makers: Vec<usize> = (line.commands.iter().enumerate())
            .filter(|(_, c)| may_make_links(&c.argv))
            .map(|(i, _)| i)
            .collect();
        let own = makers
            .iter()
            .copied()
            .filter(|&i| {
                let words = line.commands.get(i).map_or(&[][..], |c| &c.argv[..]);
                let copies = words
                    .first()
                    .is_some_and(|n| matches!(n.as_str(), "cp" | "mv" | "install" | "rsync"));
                copies && words.iter().skip(1).filter(|w| !w.starts_with('-')).count() > 2
            })
            .collect();
        Links {
            concurrent: line.concurrent,
            repeated: line.repeated.iter().map(|(i, _)| *i).collect(),
            makers,
            own,
        }
    }

    /// Whether a link one of the makers makes may lie along a path a command of CMDS
    /// opens: one started before it (the line's commands are in the order the shell
    /// starts them), any where commands run at the same time or it may run again. (A
    /// maker's own words are not read through the links it makes where it has one
    /// source and one destination: GNU `cp` and `tar` refuse to write through a link
    /// they just made; with more, a later source may be read through a link an earlier
    /// one made.)
    pub(super) fn before(&self, cmds: &[(usize, usize)]) -> bool {
        let Some(&first) = self.makers.first() else {
            return false;
        };
        cmds.iter().any(|&(_, i)| {
            first < i
                || self.own.contains(&i)
                || (self.concurrent && self.makers.iter().any(|&j| j != i))
                || self.repeated.contains(&i)
        })
    }
}
