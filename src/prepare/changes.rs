//! The line's own changes to the file system: a path an earlier command of the line
//! moves, links, copies with its links or extracts to, and everything below it, is not
//! what it is now for the commands after it (`ln -s .. k && mv src d2 && mv k src && cat
//! src/.ssh/id_rsa`). Such a path is never certain; where the line names what now lies
//! there (`mv k src`: what `k` was; `ln -s .. k`: `..` from `k`'s directory), deny-side
//! rules also see the path read through it.
//!
//! The programs that change paths this way are listed in [`change_of`], in one place.

use super::paths::{PathCand, PathSource};
use super::Prepared;
use crate::path;
use crate::shell;

/// Programs that move, link or copy links of their operands: the last operand (or the
/// `-t DIR` value) becomes what the others were. `cp` only with the options that copy
/// links (see [`super::paths::may_make_links`]).
const MOVERS: &[&str] = &["mv", "ln", "rsync", "cp", "install", "link"];

/// Programs (by their first name in the table, so `gtar` is `tar`) that write a tree of
/// files they read from an archive, links included, in their directory (when they
/// extract: the table's [`crate::shell::Program::links_with`]): every path below the
/// directories the line may be in is not certain after them. (git's subcommands that
/// write the tree from a commit: [`git_change`].)
const EXTRACTORS: &[&str] = &["tar", "bsdtar", "unzip", "cpio", "7z", "7za", "pax", "ar"];

/// Programs that open none of their words (their redirections are another matter).
const DATA_ONLY: &[&str] = &["echo", "printf", "true", "false", ":"];

/// What a command changes, in the words it was given.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Change {
    /// Each of `changed` (operands) may be a new file or link; `into` holds what each
    /// source now is, as (destination word, source word, whether the source is read
    /// from the destination's directory: a symbolic link's target).
    Moves {
        changed: Vec<String>,
        into: Vec<(String, String, bool)>,
    },
    /// A whole tree in the line's directories.
    Tree,
    /// git's work trees: those the line's directories are in, and those of the
    /// directories its words name (`-C DIR`, `--work-tree=DIR`).
    GitTree(Vec<String>),
}

/// What the command ARGV changes (see [`MOVERS`], [`EXTRACTORS`]), if anything.
pub(super) fn change_of(argv: &[String]) -> Option<Change> {
    let written = argv.first()?.as_str();
    let program = shell::lookup(written);
    let name = program
        .and_then(|p| p.names.first().copied())
        .unwrap_or(written);
    let args = argv.get(1..).unwrap_or(&[]);
    // Only when it extracts, as the table reads its words (`tar czf`, `unzip -l` write
    // no file of the tree).
    if EXTRACTORS.contains(&name) && program.is_none_or(|p| p.may_make_links(args)) {
        return Some(Change::Tree);
    }
    if name == "git" {
        return git_change(program, args);
    }
    if !MOVERS.contains(&name) || (name == "cp" && !super::paths::may_make_links(argv)) {
        return None;
    }
    let (symbolic, target, operands, backup) = match program {
        // Read as the program reads its words (`ln -s --t=a ../d`, `mv -vta d`: the table's
        // one option reader knows abbreviations and bundles); options it does not know
        // may name anything: the whole tree.
        Some(program) => {
            let r = shell::read(program, args);
            if !r.is_known() {
                return Some(Change::Tree);
            }
            let operands: Vec<String> = r
                .parts
                .iter()
                .filter(|p| p.kind == shell::Kind::Operand)
                .map(|p| p.text.clone())
                .collect();
            let target = r
                .option_values("target-directory")
                .last()
                .map(|v| (*v).to_owned());
            let backup = ["backup", "b", "suffix"].iter().any(|o| r.has_option(o));
            (
                // `ln -sr TARGET LINK` writes TARGET as seen from here, made relative
                // to LINK's directory: what the link leads to is TARGET read from here
                // (helper-61: `ln -sr .. src/x` leads to the home, not the project).
                name == "ln" && r.has_option("symbolic") && !r.has_option("relative"),
                target,
                operands,
                backup,
            )
        }
        None => by_hand(name, argv),
    };
    let (dest, sources) = match target {
        Some(t) => (t, operands.clone()),
        // `ln TARGET` makes the link here, named as TARGET's last component.
        None if operands.len() == 1 && name == "ln" => {
            match operands[0].trim_end_matches('/').rsplit('/').next() {
                // `~` (or `~user`) alone is named by the home it expands to.
                Some(b) if !matches!(b, "" | "." | "..") && !b.starts_with('~') => {
                    (b.to_owned(), operands.clone())
                }
                _ => return Some(Change::Tree),
            }
        }
        None => {
            let dest = operands.last()?.clone();
            let sources = operands[..operands.len() - 1].to_vec();
            (dest, sources)
        }
    };
    let mut changed = operands;
    changed.push(dest.clone());
    // A backup (`-b`, `--backup`, `-S SUFFIX`) renames what was at the destination to a
    // name beside it (`DEST~`, `DEST.~1~`, `DEST.bak`) that no word gives: everything in
    // the destination's directory is changed.
    if backup {
        changed.push(match dest.trim_end_matches('/').rsplit_once('/') {
            Some(("", _)) => "/".to_owned(),
            Some((parent, _)) => parent.to_owned(),
            None => ".".to_owned(),
        });
    }
    let mut into = Vec::new();
    for s in &sources {
        // Into an existing directory (`mv k dir` is `dir/k`) or in its place.
        into.push((dest.clone(), s.clone(), symbolic));
        if let Some(base) = s.trim_end_matches('/').rsplit('/').next() {
            if !base.is_empty() {
                into.push((format!("{dest}/{base}"), s.clone(), symbolic));
            }
        }
    }
    Some(Change::Moves { changed, into })
}

/// The words of ARGV, a mover the table does not know (`rsync`, `install`, `link`), read
/// by hand: whether it makes symbolic links, its `-t DIR`, and its operands (every word
/// not an option).
fn by_hand(name: &str, argv: &[String]) -> (bool, Option<String>, Vec<String>, bool) {
    let symbolic = name == "ln"
        && argv.iter().skip(1).any(|w| {
            w == "--symbolic" || (w.starts_with('-') && !w.starts_with("--") && w.contains('s'))
        });
    let mut operands: Vec<String> = Vec::new();
    let mut target: Option<String> = None;
    let mut words = argv.iter().skip(1);
    let mut options = true;
    while let Some(w) = words.next() {
        if options && w == "--" {
            options = false;
        } else if options && (w == "-t" || w == "--target-directory") {
            target = words.next().cloned();
        } else if let Some(t) = w.strip_prefix("--target-directory=").filter(|_| options) {
            target = Some(t.to_string());
        } else if let Some(t) = w.strip_prefix("-t").filter(|t| options && !t.is_empty()) {
            target = Some(t.to_string());
        } else if !(options && w.starts_with('-') && w.len() > 1) {
            operands.push(w.clone());
        }
    }
    // Any backup option, generously (`-avb`, `--backup-dir=D`, `--suffix=.x`).
    let backup = argv.iter().skip(1).any(|w| {
        w.starts_with("--backup")
            || w.starts_with("--suffix")
            || (w.starts_with('-') && !w.starts_with("--") && w.contains(['b', 'S']))
    });
    (symbolic, target, operands, backup)
}

/// What `git` with ARGS (its words after its name) changes: the work tree, when its
/// subcommand writes it from a commit, links included (the table's
/// [`shell::Effect::Links`] on it: `checkout`, `merge`, the merge strategies
/// `merge-recursive`...), or the table does not know its subcommand or an option (an
/// alias may be anything).
fn git_change(program: Option<&'static shell::Program>, args: &[String]) -> Option<Change> {
    let Some(program) = program else {
        return Some(Change::GitTree(Vec::new()));
    };
    let r = shell::read(program, args);
    // The innermost subcommand's entry (`git stash pop`): whether the table says it
    // makes links ([`shell::Effect::Links`]: it writes the tree from a commit).
    let mut entry: Option<&shell::Program> = None;
    for p in r.parts.iter().filter(|p| p.kind == shell::Kind::Subcommand) {
        entry = entry.unwrap_or(program).sub(&p.text);
    }
    let writes = !r.is_known() || entry.is_some_and(|e| e.has(shell::Effect::Links));
    if !writes {
        return None;
    }
    // The directories git moves to, the work trees it is given, and its subcommand's
    // paths (`git clone REPO DIR`, `git worktree add DIR`: a new work tree there).
    let mut dirs: Vec<String> = r
        .parts
        .iter()
        .filter(|p| p.kind == shell::Kind::Value && p.role == shell::Role::Chdir)
        .map(|p| p.text.clone())
        .collect();
    dirs.extend(r.option_values("work-tree").into_iter().map(str::to_owned));
    dirs.extend(
        r.parts
            .iter()
            .filter(|p| p.kind == shell::Kind::Operand && p.role.is_path())
            .map(|p| p.text.clone()),
    );
    Some(Change::GitTree(dirs))
}

/// How many readings through the line's changes one path may get, in all.
const MAX_THROUGH: usize = 64;

impl Prepared<'_> {
    /// Mark the candidates in OUT of line CI that lie at or below a path an earlier
    /// command of their line changes (see the module's text), and add, for deny-side
    /// rules, the paths they are read as through those changes. READ are the line's
    /// changes, read from BASES: the directories the line may be in.
    pub(super) fn line_changes(
        &self,
        out: &mut Vec<PathCand>,
        ci: usize,
        read: &[ChangeRead],
        bases: &[String],
    ) {
        let Some(cand) = self.commands().get(ci) else {
            return;
        };
        let line = &cand.line;
        let mut more = Vec::new();
        let repeated = |j: usize| line.repeated.iter().any(|(k, _)| *k == j);
        // Whether command I may run after command J of the line (itself, in a loop).
        let after = |i: usize, j: usize| (i == j && repeated(j)) || super::runs_before(line, j, i);
        for p in out.iter_mut() {
            // The words of a command that opens none of them (`git pull || echo
            // failed`) are no path it reads through a change.
            let word = matches!(p.source, PathSource::Word(_));
            let opens = |i: usize| {
                !word
                    || !line.commands.get(i).is_some_and(|c| {
                        DATA_ONLY.contains(&c.argv.first().map_or("", String::as_str))
                    })
            };
            let Some(last) = p
                .cmds
                .iter()
                .filter(|k| k.0 == ci && opens(k.1))
                .map(|k| k.1)
                .max()
            else {
                continue;
            };
            // As normalized, as written (also when a link made it unreadable).
            let written = path::word_lexical(&p.raw, self.path_env()).ok();
            let mut mine: Vec<&String> = p.norm.iter().chain(p.lexical.iter()).collect();
            if let Some(w) = written.as_ref().filter(|w| !mine.contains(w)) {
                mine.push(w);
            }
            let within = |dirs: &[String]| {
                mine.iter()
                    .any(|m| dirs.iter().any(|d| path::is_within(m, d)))
            };
            // The readings of this path through the changes before its command.
            let mut through: Vec<(String, usize)> =
                mine.iter().map(|m| ((*m).clone(), last)).collect();
            let mut k = 0;
            let mut why = None;
            while k < through.len() && through.len() < MAX_THROUGH {
                let (at, before) = through[k].clone();
                k += 1;
                for (j, changed, pairs) in read {
                    if !after(before, *j) {
                        continue;
                    }
                    let hit = match changed {
                        None => within(bases),
                        Some(changed) => changed.iter().any(|c| path::is_within(&at, c)),
                    };
                    if hit && why.is_none() {
                        why = Some(format!(
                                "`{}` is at or below a path an earlier command of the line moves, links or extracts to",
                                p.raw.chars().take(200).collect::<String>()
                            ));
                    }
                    for (dest, src) in pairs {
                        if let Some(rest) = path::relative_to(&at, dest) {
                            let now = match rest.is_empty() {
                                true => src.clone(),
                                false => format!("{}/{rest}", src.trim_end_matches('/')),
                            };
                            if through.len() < MAX_THROUGH
                                && !through.iter().any(|(t, _)| *t == now)
                            {
                                through.push((now, *j));
                            }
                        }
                    }
                }
            }
            let Some(why) = why else {
                continue;
            };
            p.uncertain.get_or_insert_with(|| why.clone());
            for (t, _) in through.into_iter().skip(mine.len()) {
                let source = PathSource::Word(cand.key.clone());
                let mut c = self.path_cand(source, &t);
                c.cmds.clone_from(&p.cmds);
                c.uncertain = Some(why.clone());
                more.push(c);
            }
        }
        out.extend(more);
    }

    /// The absolute forms of word W: as written from each of FROM (`~` is HOME), and
    /// resolved.
    fn absolute_forms(&self, w: &str, from: &[String], home: Option<&str>) -> Vec<String> {
        let w = match (w.strip_prefix('~'), home) {
            (Some(rest), Some(h)) if rest.is_empty() || rest.starts_with('/') => {
                format!("{h}{rest}")
            }
            _ => w.to_string(),
        };
        let joined: Vec<String> = match w.starts_with('/') {
            true => vec![w],
            false => from
                .iter()
                .map(|b| format!("{}/{w}", b.trim_end_matches('/')))
                .collect(),
        };
        let mut all = Vec::new();
        for j in joined {
            let j = path::kernel_slashes(&j);
            all.extend(path::lexical(&j, self.path_env()).ok());
            all.extend(path::normalize(&j, self.path_env()).ok());
        }
        all.sort();
        all.dedup();
        all
    }

    /// Per change of CHANGES (the line read from BASES): its command's index, the paths
    /// it changes (None: the whole tree), and its (destination, source) pairs.
    pub(super) fn change_pairs(
        &self,
        changes: &[(usize, Change)],
        bases: &[String],
        home: Option<&str>,
    ) -> Vec<ChangeRead> {
        let forms = |w: &str, from: &[String]| self.absolute_forms(w, from, home);
        let mut read = Vec::new();
        for (j, change) in changes {
            match change {
                Change::Tree => read.push((*j, None, Vec::new())),
                Change::GitTree(words) => {
                    // The line's directories, the directories the words name from them,
                    // and the top of the work tree each is in.
                    let mut roots: Vec<String> = bases.to_vec();
                    for w in words {
                        roots.extend(forms(w, bases));
                    }
                    let tops: Vec<String> = roots
                        .iter()
                        .filter_map(|d| self.repo_of(d))
                        .map(|(top, _)| top.to_string_lossy().into_owned())
                        .collect();
                    roots.extend(tops);
                    roots.sort();
                    roots.dedup();
                    read.push((*j, Some(roots), Vec::new()));
                }
                Change::Moves { changed, into } => {
                    let changed = changed.iter().flat_map(|w| forms(w, bases)).collect();
                    let mut pairs = Vec::new();
                    for (d, s, symbolic) in into {
                        for dest in forms(d, bases) {
                            // A link's target is read from the link's directory.
                            let from = match (symbolic, dest.rsplit_once('/')) {
                                (true, Some((parent, _))) => {
                                    vec![if parent.is_empty() {
                                        "/".into()
                                    } else {
                                        parent.into()
                                    }]
                                }
                                _ => bases.to_vec(),
                            };
                            for src in forms(s, &from) {
                                pairs.push((dest.clone(), src));
                            }
                        }
                    }
                    read.push((*j, Some(changed), pairs));
                }
            }
        }
        read
    }
}

/// A change of a line, read: its command's index, the paths it changes (None: the whole
/// tree below the line's directories), and its (destination, source) pairs.
pub(super) type ChangeRead = (usize, Option<Vec<String>>, Vec<(String, String)>);

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn movers_and_extractors() {
        assert_eq!(change_of(&argv("cp a b")), None);
        assert_eq!(change_of(&argv("git add b")), None);
        assert!(matches!(
            change_of(&argv("git checkout main")),
            Some(Change::GitTree(_))
        ));
        assert_eq!(change_of(&argv("tar xf t.tar")), Some(Change::Tree));
        // Extractors only when they extract, their words read as they read them.
        for line in [
            "tar -xzf t.tgz",
            "tar --ext -f t.tar",
            "tar -v --get -f t.tar",
            "tar -c --bogus -f t.tar d",
            "unzip a.zip",
            "unzip a.zip -l",
            "unzip -o a.zip -d out",
            "unzip -Z a.zip",
        ] {
            assert_eq!(change_of(&argv(line)), Some(Change::Tree), "{line}");
        }
        for line in [
            "tar czf t.tgz src",
            "tar -cvf t.tar src",
            "tar tzf t.tgz",
            "tar --list -f t.tar",
            "tar -xOf t.tar f",
            "unzip -l a.zip",
            "unzip -qq -t a.zip",
            "unzip -p a.zip f",
        ] {
            assert_eq!(change_of(&argv(line)), None, "{line}");
        }
        assert_eq!(
            change_of(&argv("mv k src")),
            Some(Change::Moves {
                changed: argv("k src src"),
                into: vec![
                    ("src".into(), "k".into(), false),
                    ("src/k".into(), "k".into(), false)
                ],
            })
        );
        let Some(Change::Moves { into, .. }) = change_of(&argv("ln -s .. k")) else {
            panic!("ln is a mover");
        };
        assert_eq!(into[0], ("k".into(), "..".into(), true));
        let Some(Change::Moves { changed, .. }) = change_of(&argv("cp -a -t d x y")) else {
            panic!("cp -a is a mover");
        };
        assert_eq!(changed, argv("x y d"));
    }

    /// The destination however the program lets it be spelled (GNU's abbreviated long
    /// options, short options bundled with the value glued), as the table reads it.
    #[test]
    fn destination_spellings() {
        for line in [
            "ln -s --t=a ../d",
            "ln -s --tar=a ../d",
            "ln -s --target-dir a ../d",
            "ln -vsta ../d",
            "ln -s -t a ../d",
            "mv --target=a ../d",
            "mv -vta ../d",
            "cp -a --ta=a ../d",
        ] {
            let Some(Change::Moves { changed, into }) = change_of(&argv(line)) else {
                panic!("{line}: a mover");
            };
            assert_eq!(changed, argv("../d a"), "{line}");
            let symbolic = line.starts_with("ln");
            assert_eq!(
                into,
                vec![
                    ("a".into(), "../d".into(), symbolic),
                    ("a/d".into(), "../d".into(), symbolic)
                ],
                "{line}"
            );
        }
        // An option the table does not know: anything may change.
        assert_eq!(change_of(&argv("ln --bogus a b")), Some(Change::Tree));
        // `-r`: the target as seen from here, not from the link's directory.
        for line in [
            "ln -sr .. src/x",
            "ln --relative -s .. src/x",
            "ln -s --rel .. src/x",
        ] {
            let Some(Change::Moves { into, .. }) = change_of(&argv(line)) else {
                panic!("{line}: a mover");
            };
            assert_eq!(into[0], ("src/x".into(), "..".into(), false), "{line}");
        }
    }

    /// A backup renames the destination beside it: its directory is changed.
    #[test]
    fn backups_change_the_destination_directory() {
        for (line, parent) in [
            ("mv -Tb e sub", "."),
            ("mv -T --suffix=.bak e d/sub", "d"),
            ("ln -sTb zz /tmp/fh", "/tmp"),
            ("mv --backup=t -T e sub", "."),
            ("rsync -avb a b", "."),
        ] {
            let Some(Change::Moves { changed, .. }) = change_of(&argv(line)) else {
                panic!("{line}: a mover");
            };
            assert!(changed.iter().any(|c| c == parent), "{line}: {changed:?}");
        }
        // A tree copied with backups is not read (`dest.rs`): the whole tree.
        assert!(matches!(
            change_of(&argv("cp -a -S .x -T k h")),
            Some(Change::Tree)
        ));
        let Some(Change::Moves { changed, .. }) = change_of(&argv("mv -T e sub")) else {
            panic!("mv is a mover");
        };
        assert_eq!(changed, argv("e sub sub"));
    }

    /// git's subcommand read through the table, past its own options; its `-C` and
    /// `--work-tree` directories; an alias or unknown option may be anything.
    #[test]
    fn git_work_trees() {
        // The tree is written, and the directories named are among its roots (the
        // subcommand's path operands are too: `evil` may be a path).
        let tree = |line: &str, dirs: &str| match change_of(&argv(line)) {
            Some(Change::GitTree(got)) => {
                for d in argv(dirs) {
                    assert!(got.contains(&d), "{line}: {got:?} lacks {d}");
                }
            }
            other => panic!("{line}: {other:?}"),
        };
        tree("git -C . checkout -q evil", ".");
        tree("git -C a -C b switch x", "a b");
        tree("git --work-tree=w reset --hard", "w");
        tree("git -c a.b=c merge x", "");
        tree("git mv l hx", "");
        tree("git sparse-checkout set h", "");
        tree("git co evil", "");
        // Every subcommand the table says makes links (helper-61: the merge strategies).
        for sub in [
            "merge-recursive",
            "merge-resolve",
            "merge-subtree",
            "stash pop",
            "stash branch",
            "am",
        ] {
            tree(&format!("git {sub} x"), "");
        }
        assert_eq!(change_of(&argv("git stash list")), None);
        assert_eq!(change_of(&argv("git stash drop")), None);
        assert_eq!(change_of(&argv("git commit -m x")), None);
        assert_eq!(change_of(&argv("git -C . log")), None);
        assert_eq!(change_of(&argv("git status")), None);
        assert_eq!(change_of(&argv("gtar xf t.tar")), Some(Change::Tree));
        // A new work tree where the words say.
        let Some(Change::GitTree(dirs)) = change_of(&argv("git clone -q -b x repo /tmp/cl")) else {
            panic!("clone writes a tree");
        };
        assert!(dirs.iter().any(|d| d == "/tmp/cl"), "{dirs:?}");
        let Some(Change::GitTree(dirs)) = change_of(&argv("git worktree add -q ../wt x")) else {
            panic!("worktree writes a tree");
        };
        assert!(dirs.iter().any(|d| d == "../wt"), "{dirs:?}");
    }

    /// `ln TARGET`: the link is made here, named as TARGET's last component.
    #[test]
    fn one_operand_links_here() {
        for line in ["ln -sfn /root", "ln -sfnv -- /root/", "ln -s ~/root"] {
            let Some(Change::Moves { into, .. }) = change_of(&argv(line)) else {
                panic!("{line}: a mover");
            };
            assert!(
                into.iter().any(|(d, _, sym)| d == "root" && *sym),
                "{line}: {into:?}"
            );
        }
        assert_eq!(change_of(&argv("ln -s ..")), Some(Change::Tree));
        assert_eq!(change_of(&argv("ln -sfn ~")), Some(Change::Tree));
        assert_eq!(change_of(&argv("ln -sfn ~/")), Some(Change::Tree));
    }
}
