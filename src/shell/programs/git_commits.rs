//! The commits whose files git writes into the work tree (a part of git's
//! [`super::Program::reading_hook`]): moving to another commit (`git checkout main`,
//! `git switch topic`, `git reset --hard v1`), merging one in (`git merge`, `git
//! cherry-pick`, `git revert`), applying a stash, or putting `HEAD`'s files back (`git
//! reset --hard`, `git stash`) writes the files of that commit's tree, not only those
//! the index lists: an ignored `.env` the commit holds is overwritten (helper-90's
//! session: `git checkout other` replaced it). Each revision is a [`Kind::Implied`]
//! part in [`Role::WriteCommit`], read against the repository's store
//! (`prepare::git_objects`); what git takes from elsewhere is a name the store does not
//! resolve, which says why ([`UPSTREAM`], [`REPLAYED`], [`BISECTED`], `FETCH_HEAD`).

use super::git_tree::subcommands;
use super::{Kind, Part, Reading, Role};

/// The branch `git merge` merges with no operand: the configuration names it.
pub(crate) const UPSTREAM: &str = "@{upstream}";
/// The commits a rebase, or a sequence of picks in progress, replays.
pub(crate) const REPLAYED: &str = "@{replayed}";
/// The commits `git bisect` checks out.
pub(crate) const BISECTED: &str = "@{bisected}";
/// The commits the superproject records for its submodules, checked out in their own
/// repositories.
pub(crate) const SUBMODULES: &str = "@{submodules}";

/// Why git's store does not say which files the revision REV (one of the names above)
/// writes, if it is one.
pub(crate) fn unknown_revision(rev: &str) -> Option<&'static str> {
    match rev {
        UPSTREAM => Some("git merges the upstream branch its configuration names"),
        REPLAYED => {
            Some("git replays commits (a rebase, or picks in progress), each writing its own files")
        }
        BISECTED => Some("git bisect checks out the commits it chooses"),
        SUBMODULES => Some("git checks out the commits the superproject records in each submodule's own repository"),
        "FETCH_HEAD" => {
            Some("what git fetches from another repository is not known before it does")
        }
        _ => None,
    }
}

/// The stash git's stash subcommands take for the word W: `stash` for none or `0`,
/// `stash@{N}` for a number N (helper-91: `git stash pop 0`), else W.
fn stash(w: Option<&str>) -> String {
    match w {
        None | Some("0") => "stash".into(),
        Some(n) if n.bytes().all(|b| b.is_ascii_digit()) => format!("stash@{{{n}}}"),
        Some(w) => w.into(),
    }
}

/// Add to R the revisions whose files its subcommand writes into the work tree.
pub(super) fn commits(r: &mut Reading) {
    let subs = subcommands(r);
    let subs: Vec<&str> = subs.iter().map(String::as_str).collect();
    // The operands before `--` (all of them where there is none), and whether there is.
    let ended = r.parts.iter().any(|p| p.kind == Kind::End);
    let operands: Vec<String> = r
        .parts
        .iter()
        .take_while(|p| p.kind != Kind::End)
        .filter(|p| p.kind == Kind::Operand)
        .map(|p| p.text.clone())
        .collect();
    let first = operands.first().cloned();
    let any = |o: &[&str]| o.iter().any(|o| r.has_option(o));
    let head = || vec!["HEAD".to_string()];
    let revs: Vec<String> = match subs.as_slice() {
        // `git checkout [-b NEW] [REV]`, `git checkout REV -- PATHS`: the word may be a
        // revision (what git surely finds no revision of is a path, read as one).
        ["checkout"] | ["switch"] => match first {
            Some(rev) if !(ended && subs == ["switch"]) => vec![rev],
            None if any(&["force", "f", "discard-changes"]) => head(),
            _ => Vec::new(),
        },
        ["reset"] if any(&["hard", "merge", "keep"]) => first.map_or_else(head, |rev| vec![rev]),
        ["merge" | "cherry-pick" | "revert" | "rebase"] if any(&["abort"]) => {
            vec![if subs == ["rebase"] {
                "ORIG_HEAD"
            } else {
                "HEAD"
            }
            .to_string()]
        }
        ["merge" | "cherry-pick" | "revert" | "rebase"] if any(&["quit"]) => Vec::new(),
        ["merge"] if operands.is_empty() && !any(&["continue"]) => vec![UPSTREAM.into()],
        ["merge"] => operands,
        ["cherry-pick"] if !operands.is_empty() => operands,
        // A revert writes the files of each commit's parents.
        ["revert"] if !operands.is_empty() => operands.iter().map(|o| format!("{o}^@")).collect(),
        // `git rebase [--onto BASE] UPSTREAM [BRANCH]`: BRANCH's tree (checked out
        // first), the base's, and each commit of UPSTREAM..BRANCH replayed.
        ["rebase"] if !any(&["root", "continue", "skip", "edit-todo"]) => {
            let upstream = first.unwrap_or_else(|| UPSTREAM.into());
            let branch = operands.get(1).cloned();
            let onto = r
                .given
                .iter()
                .find(|g| g.long == "onto")
                .and_then(|g| g.value.clone());
            let tip = branch.clone().unwrap_or_else(|| "HEAD".into());
            let mut revs = vec![format!("{upstream}..{tip}"), onto.unwrap_or(upstream)];
            revs.extend(branch);
            revs
        }
        ["cherry-pick" | "revert" | "rebase"] => vec![REPLAYED.into()],
        ["pull"] => vec!["FETCH_HEAD".into()],
        ["merge-recursive" | "merge-resolve" | "merge-octopus" | "merge-subtree" | "merge-ours"]
        | ["merge-recursive-ours" | "merge-recursive-theirs"] => r
            .parts
            .iter()
            .filter(|p| p.kind == Kind::Operand)
            .map(|p| p.text.clone())
            .collect(),
        // A stash's files are its commit's and its parents' (the index, the untracked
        // files); `stash branch NAME` checks out its base first.
        ["stash", "pop" | "apply"] => vec![format!("{}^@", stash(first.as_deref()))],
        ["stash", "branch"] => vec![format!("{}^@", stash(operands.get(1).map(String::as_str)))],
        ["submodule", "update"] => vec![SUBMODULES.into()],
        ["stash"] | ["stash", "push" | "save"] => head(),
        // `--source=REV`; with `--staged --worktree`, HEAD's files.
        ["restore"] => match r.given.iter().find(|g| g.long == "source") {
            Some(g) => g.value.clone().into_iter().collect(),
            None if any(&["staged"]) && any(&["worktree"]) => head(),
            None => Vec::new(),
        },
        // `bisect start` checks out a commit once it has a bad and a good one.
        ["bisect"] => match first.as_deref() {
            None | Some("log" | "visualize" | "view" | "terms" | "help") => Vec::new(),
            Some("start") if operands.len() < 3 => Vec::new(),
            Some(_) => vec![BISECTED.into()],
        },
        _ => Vec::new(),
    };
    // Where pathspecs choose what git writes of the revision (`git checkout REV --
    // src`, `git restore --source=REV src`, `git stash -- src`), the walk starts at
    // each: `REV\0SPEC` (a pattern or pathspec magic: the whole tree).
    let after: Vec<String> = r
        .parts
        .iter()
        .skip_while(|p| p.kind != Kind::End)
        .filter(|p| p.kind == Kind::Operand)
        .map(|p| p.text.clone())
        .collect();
    let specs = match subs.as_slice() {
        ["checkout"] => after,
        ["restore"] | ["stash"] | ["stash", "push"] => r
            .parts
            .iter()
            .filter(|p| p.kind == Kind::Operand)
            .map(|p| p.text.clone())
            .collect(),
        _ => Vec::new(),
    };
    let plain = !specs.is_empty()
        && specs
            .iter()
            .all(|s| !s.starts_with(':') && !s.contains(['*', '?', '[', '\0']));
    // A branch of a plain name may win over what rev-parse takes (a tag, `refs/NAME`)
    // where git switches to it or takes it as a source (helper-91: `git checkout x`;
    // helper-97: `git restore -s x`): both are read, wherever the name stands.
    let revs: Vec<String> = revs
        .into_iter()
        .flat_map(|rev| {
            let plain = !rev.starts_with(['-', '@'])
                && !rev.contains(['@', '~', '^', ':'])
                && !rev.contains("..");
            let branch = plain.then(|| format!("refs/heads/{rev}"));
            branch.into_iter().chain([rev])
        })
        .collect();
    for rev in revs {
        let texts = match plain {
            true => specs.iter().map(|s| format!("{rev}\0{s}")).collect(),
            false => vec![rev],
        };
        for text in texts {
            r.parts.push(Part {
                text,
                kind: Kind::Implied,
                role: Role::WriteCommit,
            });
        }
    }
}
