//! The programs git starts that its words do not name: the editor (`core.editor`,
//! `$GIT_EDITOR`, `$VISUAL`, `$EDITOR`, else `vi`) for a message, a todo list or a
//! hunk; the diff and merge tools of `difftool` and `mergetool`; gpg (`gpg.program`)
//! to sign or to check signatures; man, info or a browser for `help`. Each takes its
//! orders from wherever it likes: vi reads its commands from the line's own standard
//! input (`printf ':!rm x\n:q!\n' | git commit -a` runs `rm`), so none is certain:
//! read as [`Run::Starts`] (a [`super::Program::reading_hook`] of git's).
//!
//! When git does not start the editor is the narrow part, read per subcommand: a
//! message given (`-m`, `-F`, `-C`, `--no-edit`, a plain `--fixup`) and no `-e`, `-c`,
//! `--squash`, `-p`, `-i`.

use super::git_tree::subcommands;
use super::{Kind, Reading, Run};

/// What git starts with the words of R, if it starts something its words do not name.
fn starts(r: &Reading) -> Option<&'static str> {
    const EDITOR: &str = "the editor (core.editor, $GIT_EDITOR, $VISUAL, $EDITOR or vi)";
    const GPG: &str = "gpg (gpg.program), to sign or check a signature";
    let subs = subcommands(r);
    let subs: Vec<&str> = subs.iter().map(String::as_str).collect();
    let has = |o: &str| r.has_option(o);
    let message = has("message") || has("file") || has("reuse-message");
    let hunks = has("patch") || has("interactive") || has("edit");
    match subs.as_slice() {
        ["commit"] => {
            let fixup = r
                .option_values("fixup")
                .iter()
                .any(|v| !v.starts_with("amend:") && !v.starts_with("reword:"));
            if has("dry-run") {
                None
            } else if has("gpg-sign") {
                Some(GPG)
            } else if hunks
                || has("reedit-message")
                || has("squash")
                || !(message || fixup || has("no-edit"))
            {
                Some(EDITOR)
            } else {
                None
            }
        }
        ["tag"] if has("sign") => Some(GPG),
        ["tag"] if has("annotate") && !message => Some(EDITOR),
        ["merge" | "rebase" | "cherry-pick" | "revert" | "pull" | "am"] => {
            if r.option_values("strategy")
                .iter()
                .any(|s| !MERGE_STRATEGIES.contains(s))
            {
                Some("git-merge-STRATEGY: a strategy git does not build in is a program from PATH (a name with a `/`: a file where git runs)")
            } else if has("gpg-sign") || has("verify-signatures") {
                Some(GPG)
            } else if hunks || has("continue") || has("edit-todo") {
                Some(EDITOR)
            } else {
                None
            }
        }
        // `git bisect visualize` runs gitk (with $DISPLAY), or the program its word
        // names (`tig`, `git*` from PATH).
        ["bisect"] if matches!(verb(r), Some("visualize" | "view")) => {
            Some("gitk, tig or the `git*` program its word names, to show the bisection")
        }
        // Its verb is its first operand (`git notes add -m x HEAD`).
        ["notes"] => match verb(r) {
            Some("edit") => Some(EDITOR),
            Some("add" | "append") if !message || has("reedit-message") => Some(EDITOR),
            _ => None,
        },
        ["add" | "checkout" | "reset" | "restore" | "stash" | "commit-tree"]
        | ["stash", "push" | "save"]
            if hunks =>
        {
            Some(EDITOR)
        }
        // The credential helpers print the passwords they keep (helper-67: `git
        // credential fill` printed `~/.git-credentials`'s): the helpers git's
        // configuration names, or the cache daemon's memory, which no path shows.
        ["credential"] => Some("the credential helpers git's configuration names (credential.helper), which print the passwords they keep"),
        ["credential-cache"] => Some("the credential cache daemon, which prints the passwords it keeps"),
        ["commit-tree"] if has("gpg-sign") => Some(GPG),
        ["config"] if has("edit") => Some(EDITOR),
        ["branch"] if has("edit-description") => Some(EDITOR),
        ["log" | "show" | "whatchanged"] if has("show-signature") => Some(GPG),
        ["verify-commit" | "verify-tag"] => Some(GPG),
        ["difftool" | "mergetool"] if !has("tool-help") => {
            Some("a diff or merge tool (diff.tool, merge.tool, or vimdiff)")
        }
        // Lists (`--all`, `--guides`, `--config`...) are printed; a page is shown.
        ["help"] if !lists_only(r) => Some("man, info or a browser"),
        ["replace"] if has("edit") => Some(EDITOR),
        _ => None,
    }
}

/// The merge strategies git builds in (`git merge -s`, `rebase -s`, `cherry-pick
/// --strategy`): any other name runs `git-merge-NAME`, found in git's exec path or PATH,
/// or a file where git runs when the name holds a `/` (helper-46: `rebase -s
/// x/../e.sh` ran `./e.sh`).
pub const MERGE_STRATEGIES: &[&str] =
    &["ort", "recursive", "resolve", "octopus", "ours", "subtree"];

/// The first operand of R: a subcommand's verb (`git notes add`, `git bisect view`).
fn verb(r: &Reading) -> Option<&str> {
    r.parts
        .iter()
        .find(|p| p.kind == Kind::Operand)
        .map(|p| p.text.as_str())
}

/// Whether `git help` with the words of R prints a list and opens no page: a listing
/// option and no operand.
fn lists_only(r: &Reading) -> bool {
    const LISTS: &[&str] = &[
        "-a",
        "--all",
        "-g",
        "--guides",
        "-c",
        "--config",
        "--user-interfaces",
        "--developer-interfaces",
    ];
    let words: Vec<&str> = r
        .parts
        .iter()
        .filter(|p| p.kind != Kind::Subcommand)
        .map(|p| p.text.as_str())
        .collect();
    words.iter().any(|w| LISTS.contains(w))
        && words
            .iter()
            .all(|w| LISTS.contains(w) || *w == "--no-verbose")
}

/// What git starts for its words anywhere: a format's signature placeholders (`%G?`,
/// `%GS`, `%GK`: gpg checks each commit's signature), a remote helper named by a URL
/// (`zz::x` runs `git-remote-zz` from PATH; `ext::` is read by the `wrap` reader).
fn starts_for_words(r: &Reading) -> Option<String> {
    // The subcommands that take a URL (`git grep 'a::b'` is a pattern).
    let urls = subcommands(r).first().is_some_and(|s| {
        matches!(
            s.as_str(),
            "ls-remote" | "fetch" | "pull" | "push" | "clone" | "remote" | "submodule" | "archive"
        )
    });
    for p in &r.parts {
        if p.text.contains("%G") {
            return Some("gpg (gpg.program), for a format's signature placeholders".into());
        }
        if urls && (p.kind == Kind::Operand || p.kind == Kind::Option) {
            let t = p.text.rsplit('=').next().unwrap_or(&p.text);
            if let Some((scheme, _)) = t.split_once("::") {
                let named = !scheme.is_empty()
                    && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                    && scheme
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
                if named && scheme != "ext" {
                    return Some(format!("git-remote-{scheme}, a remote helper from PATH"));
                }
            }
        }
    }
    None
}

/// git's reading hook part: what it starts (never certain).
pub(super) fn tools(r: &mut Reading) {
    // Other credential helpers (`git credential-osxkeychain get`, `credential-libsecret`,
    // `credential-manager`) print the passwords they keep (helper-68).
    if r.unknown
        .first()
        .is_some_and(|u| u.starts_with("credential"))
    {
        r.runs.push(Run::Starts(
            "a credential helper, which prints the passwords it keeps".into(),
        ));
    }
    if let Some(what) = starts(r) {
        r.runs.push(Run::Starts(what.to_owned()));
    }
    if let Some(what) = starts_for_words(r) {
        r.runs.push(Run::Starts(what));
    }
}
