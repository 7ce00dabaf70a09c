//! The trees a command reads through symbolic links (`grep -R x .`, `find . -exec cat
//! {} +`, `rg -L`, `cp -rL`; see [`crate::shell::follows_links`]): what it opens depends
//! on the links in them, which its words do not show. The engine looks: a command whose
//! trees hold no link reads what it would read without following them, and is read as
//! certain; one whose trees hold a link, are too large to look through, or that an
//! earlier command of its line may change (`ln -s ~/.ssh k && grep -R x .`) is not
//! certain, and no allow rule covers it.

use super::changes::change_of;
use super::paths::{PathCand, PathSource};
use super::walks::MAX_WALK_ENTRIES;
use super::Prepared;
use crate::index::BitSet;
use crate::shell;
use std::path::{Path, PathBuf};

/// What the looks of one call found, so that no tree, word list or line is looked at
/// twice (`find . -exec cat {} + -exec cat {} + ...` has a thousand commands alike).
#[derive(Default)]
pub(super) struct Looks {
    /// Each tree looked below.
    trees: std::collections::HashMap<String, Links>,
    /// Why each command's words (its path words, where it runs) may lead to a link.
    whys: std::collections::HashMap<(Vec<String>, bool, Vec<String>), Option<String>>,
    /// The command of each line (by its index) that may change a tree first.
    changers: std::collections::HashMap<usize, Option<String>>,
}

/// What looking for links below a directory found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Links {
    /// No symbolic link anywhere below it.
    None,
    /// This one (the first met).
    Found(String),
    /// It has more entries than one look may read.
    TooLarge,
}

impl Prepared<'_> {
    /// For command I of line CI (command argument KEY), run in the request's directory
    /// (HERE) and in each of DIRS: when it reads through links and its trees are not
    /// known to hold none, a candidate that keeps every allow rule from covering it,
    /// saying why. LOOKS remembers what the call's looks found; LEFT is how many
    /// directory entries the call may still read.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn followed_links(
        &self,
        out: &mut Vec<PathCand>,
        key: &str,
        line: &shell::CommandLine,
        (ci, i): (usize, usize),
        (here, dirs): (bool, &[String]),
        looks: &mut Looks,
        left: &mut usize,
    ) {
        let Some(c) = line.commands.get(i) else {
            return;
        };
        let Some(follows) = &c.follows else {
            return;
        };
        // A command of the line may make a link, move one or extract an archive there
        // before it runs (or, in a loop, after it ran once).
        let changer = looks
            .changers
            .entry(ci)
            .or_insert_with(|| {
                let o = line
                    .commands
                    .iter()
                    .find(|o| change_of(&o.argv).is_some())?;
                Some(format!(
                    "`{}` in the line may change the tree first",
                    o.argv.first().map_or("", String::as_str)
                ))
            })
            .clone();
        let words: Vec<String> = c
            .roles
            .iter()
            .map(|(_, w)| w)
            .chain(&c.paths)
            .filter(|w| !w.starts_with('-'))
            .cloned()
            .collect();
        let memo = (words, here, dirs.to_vec());
        let more = match changer {
            Some(why) => Some(why),
            None => match looks.whys.get(&memo) {
                Some(why) => why.clone(),
                None => {
                    let why = self.links_why(&memo.0, here, dirs, &mut looks.trees, left);
                    looks.whys.insert(memo, why.clone());
                    why
                }
            },
        };
        let why = match more {
            Some(more) => format!("{follows} ({more})"),
            None => return,
        };
        let mut cand = self.unchecked(PathSource::Word(key.to_string()), why, vec![(ci, i)]);
        cand.hits = BitSet::new(self.n());
        out.push(cand);
    }

    /// Why the trees below WORDS (a command's path words, run in the request's
    /// directory when HERE and in each of DIRS) may hold a link, if they may. LOOKED
    /// holds each tree's look.
    fn links_why(
        &self,
        words: &[String],
        here: bool,
        dirs: &[String],
        looked: &mut std::collections::HashMap<String, Links>,
        left: &mut usize,
    ) -> Option<String> {
        let mut trees: Vec<String> = Vec::new();
        // Whether a word is a glob in the directory it runs in (`*`).
        let mut globbed = false;
        for w in words {
            // A glob (`src/*`): the directory it expands in, which holds what it names.
            let literal: Vec<&str> = w
                .split('/')
                .take_while(|part| !part.contains(['*', '?', '[']))
                .collect();
            let w = &match literal.join("/") {
                s if s.len() == w.len() => s,
                s if s.is_empty() && w.starts_with('/') => "/".to_string(),
                s if s.is_empty() => {
                    globbed = true;
                    continue;
                }
                s => s,
            };
            let mut cands = Vec::new();
            let relative = !w.starts_with(['/', '~']);
            if here || !relative {
                cands.push(self.path_cand(PathSource::Word(String::new()), w));
            }
            if relative {
                for d in dirs {
                    cands.push(self.path_cand_in(PathSource::Word(String::new()), w, d));
                }
            }
            for cand in cands {
                match cand.norm {
                    Ok(p) if Path::new(&p).is_dir() => trees.push(p),
                    Ok(_) => {}
                    // A word only the running shell knows is a tree the look cannot
                    // find (what it names is another candidate's matter).
                    Err(_) => return Some(format!("`{w}` cannot be looked through")),
                }
            }
        }
        // No word (`grep -R x`, `rg -L x`), or a glob: the directory it runs in, which
        // holds what a glob there expands to. Words that are files only (`diff a b`)
        // walk no tree.
        if trees.is_empty() && (globbed || words.is_empty()) {
            let mut cwd: Vec<String> = dirs.to_vec();
            if here {
                match &self.path_env().cwd {
                    Some(d) => cwd.push(d.to_string_lossy().into_owned()),
                    None => return Some("the directory it runs in is not known".into()),
                }
            }
            trees.extend(cwd);
        }
        for tree in trees {
            let found = match looked.get(&tree) {
                Some(found) => found.clone(),
                None => {
                    let found = find_link(Path::new(&tree), left);
                    looked.insert(tree.clone(), found.clone());
                    found
                }
            };
            match found {
                Links::None => {}
                Links::Found(link) => return Some(format!("`{link}` is a symbolic link")),
                Links::TooLarge => {
                    return Some(format!("`{tree}` is too large to look through for links"))
                }
            }
        }
        None
    }
}

/// The first symbolic link below DIR (not following any), reading at most
/// [`MAX_WALK_ENTRIES`] entries and no more than LEFT in all.
pub(super) fn find_link(dir: &Path, left: &mut usize) -> Links {
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    let mut entries = 0usize;
    while let Some(d) = stack.pop() {
        // A directory it may not list: the program may not either; any other error
        // (a path too long to name) leaves the tree unread.
        let list = match std::fs::read_dir(&d) {
            Ok(list) => list,
            Err(e) if super::walks::cannot_list(&e) => continue,
            Err(_) => return Links::TooLarge,
        };
        for entry in list.flatten() {
            entries += 1;
            if entries > MAX_WALK_ENTRIES || *left == 0 {
                return Links::TooLarge;
            }
            *left -= 1;
            let Ok(kind) = entry.file_type() else {
                return Links::Found(entry.path().to_string_lossy().into_owned());
            };
            if kind.is_symlink() {
                return Links::Found(entry.path().to_string_lossy().into_owned());
            }
            if kind.is_dir() {
                stack.push(entry.path());
            }
        }
    }
    Links::None
}
