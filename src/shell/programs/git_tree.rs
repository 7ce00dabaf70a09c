//! git's work tree: where the subcommands that work on it reach, which the table's data
//! cannot say (see `git.rs`, and the manual's "The program table").

use super::Role::{
    Pattern, ShowTracked, Walk, WalkTracked, WalkUnignored, Write, WriteTracked, WriteTree,
};
use super::{Kind, Part, Reading, Role};

/// The top of the work tree, as git itself spells it in a pathspec: the implicit
/// operand of the subcommands that work on the whole tree whatever the directory they
/// run in (`git status`, `git add -A`, `git stash`). The engine reads it as the nearest
/// directory at or above the command's that holds a `.git` (`prepare::git_tops::git_top`).
pub(super) const TOP: &str = ":/";

/// git's subcommands in R, as written (`stash`, `push` of `git stash push`).
pub(super) fn subcommands(r: &Reading) -> Vec<String> {
    r.parts
        .iter()
        .filter(|p| p.kind == Kind::Subcommand)
        .map(|p| p.text.clone())
        .collect()
}

/// The options given after git's subcommand, as written (git's own, `-c`, `-C`, come
/// before it).
pub(super) fn sub_options(r: &Reading) -> Vec<String> {
    r.parts
        .iter()
        .skip_while(|p| p.kind != Kind::Subcommand)
        .filter(|p| p.kind == Kind::Option)
        .map(|p| p.text.clone())
        .collect()
}

/// What the table's data cannot say of git's subcommands that work on the index and
/// the work tree (a [`super::Program::reading_hook`]):
///
/// - They refresh the index first: git reads (hashes) every tracked file whose stat
///   data changed, anywhere in the work tree, whatever the pathspecs (`git stash push
///   src`, `git restore -p a.rs`, `git ls-files -m src`, `git describe --dirty`, `git
///   mergetool f2` read `d1/a.txt` too): [`TOP`] is walked.
/// - The operands of `diff`, `checkout` and `reset` may be revisions as well as
///   pathspecs (`git diff HEAD`, `git checkout main`, `git reset --hard HEAD~1`): which
///   a word is, git decides from the repository. Unless `--` says where the pathspecs
///   start, `checkout` and `reset` may write the whole tree: [`TOP`] is written.
pub(super) fn work_tree(r: &mut Reading) {
    patterns(r);
    let subs = subcommands(r);
    let subs: Vec<&str> = subs.iter().map(String::as_str).collect();
    tracked_writes(r, &subs);
    let options = || r.parts.iter().filter(|p| p.kind == Kind::Option);
    // `ls-files -m`/`-d` (`--modified`, `--deleted`): it compares the tracked files.
    let compares = options().any(|p| match p.text.strip_prefix("--") {
        Some(long) => long == "modified" || long == "deleted",
        None => p.text.contains(['m', 'd']),
    });
    // `describe --dirty`/`--broken`: it compares the tree with HEAD.
    let dirty = options().any(|p| p.text.starts_with("--dirty") || p.text.starts_with("--broken"));
    // `--` with pathspecs after it (a bare `--` at the end names none: the whole tree).
    let ended = r
        .parts
        .iter()
        .skip_while(|p| p.kind != Kind::End)
        .any(|p| p.kind == Kind::Operand);
    // `stash -u`/`-a` (`--include-untracked`, `--all`): the untracked (and ignored)
    // files are stashed and removed too.
    let untracked = options().any(|p| match p.text.strip_prefix("--") {
        Some(long) => long == "include-untracked" || long == "all",
        None => p.text.contains(['u', 'a']),
    });
    let operands = r
        .parts
        .iter()
        .any(|p| p.kind == Kind::Operand && p.text != TOP);
    // A branch made at HEAD (`git checkout -b x`, `git switch -c x`; not with `-f` or
    // `--discard-changes`, which put HEAD's files back) and a reset that keeps the work
    // tree (`--soft`, the default `--mixed`) write no file of it.
    // (`git switch --orphan` empties the work tree; `git checkout --orphan` keeps it.)
    let orphan_switch = subs.first() == Some(&"switch") && r.has_option("orphan");
    let new_branch = ["b", "B", "orphan", "create", "force-create"]
        .iter()
        .any(|o| r.has_option(o))
        && !orphan_switch
        && !["force", "discard-changes"].iter().any(|o| r.has_option(o));
    let keeps_tree = !["hard", "merge", "keep"].iter().any(|o| r.has_option(o));
    // `git stash save MSG`: the words are the message, the whole tree is stashed;
    // `git stash branch NAME` checks out and applies it.
    if matches!(subs.as_slice(), ["stash", "save"]) {
        for p in r.parts.iter_mut().filter(|p| p.kind == Kind::Operand) {
            p.role = super::Role::Data;
        }
    }
    // Only what git tracks is read or written (an ignored `.env` is not opened; see
    // [`Role::WalkTracked`]).
    let role = match subs.as_slice() {
        ["stash"] | ["stash", "push" | "save"] if r.has_option("all") => WriteTree,
        ["stash"] | ["stash", "push" | "save"] if untracked => WalkUnignored,
        ["checkout" | "switch"] if new_branch && !operands => WalkTracked,
        ["reset"] if keeps_tree => WalkTracked,
        ["stash", "save" | "branch"] => WriteTracked,
        ["checkout" | "reset"] if !ended => WriteTracked,
        ["status" | "diff" | "commit" | "checkout" | "reset" | "restore" | "add"]
        | ["stash"]
        | ["stash", "push"] => WalkTracked,
        ["ls-files"] if compares => WalkTracked,
        ["describe"] if dirty => WalkTracked,
        ["mergetool"] => WalkTracked,
        _ => return,
    };
    // `git diff --no-index A B` compares two files, outside any repository.
    if r.parts.iter().any(|p| p.text == "--no-index") {
        return;
    }
    let made = matches!(subs.as_slice(), ["checkout" | "switch" | "reset"]);
    match r
        .parts
        .iter_mut()
        .find(|p| p.text == TOP && p.role.is_path())
    {
        Some(p) if role != WalkTracked || made => p.role = role,
        Some(_) => {}
        None => r.parts.push(Part {
            text: TOP.to_string(),
            kind: Kind::Implied,
            role,
        }),
    }
}

/// What the subcommands SUBS of R write below their pathspecs where it is less than
/// every file there (helper-70: `git restore .` was denied by a rule for an ignored
/// `.env` it never touches):
///
/// - `restore` (no `--source`) and `checkout -- PATHS`: the tracked files;
///   `restore --staged` none of the work tree (with `--worktree` too: left as it is);
/// - `clean` (no `-x`, `-X`, second `-f`): the untracked files git does not ignore;
/// - `stash push`: the tracked files, with `-u` also those git does not ignore (`-a`:
///   left as it is, every file).
fn tracked_writes(r: &mut Reading, subs: &[&str]) {
    let forced = r.given.iter().filter(|g| g.long == "force").count();
    let untracked = r.has_option("include-untracked");
    // `restore --staged` writes the index only (from HEAD); with `--worktree` too, the
    // work tree, from HEAD (read as a revision, `git_commits`).
    let staged = r.has_option("staged");
    let to = match subs {
        ["restore"] if staged && !r.has_option("worktree") => WalkTracked,
        // Where git writes a revision's files, that revision is read too
        // (`git_commits`): `git restore --source=main .`, `git checkout main -- .`.
        ["restore"] => WriteTracked,
        // Each word is a revision or a pathspec of what git tracks: either way, only
        // the tracked files or the revision's are written (`git checkout .`).
        ["checkout"] => WriteTracked,
        ["clean"] if !r.has_option("x") && !r.has_option("X") && forced < 2 => WalkUnignored,
        ["stash"] | ["stash", "push"] if r.has_option("all") => return,
        ["stash"] | ["stash", "push"] if untracked => WalkUnignored,
        ["stash"] | ["stash", "push"] => WriteTracked,
        _ => return,
    };
    for p in r.parts.iter_mut() {
        if matches!(p.kind, Kind::Operand | Kind::Implied) && p.role == WriteTree && p.text != TOP {
            p.role = to;
        }
    }
}

/// A pathspec with a pattern in it (`git grep x -- '*.env'`, `git ls-files '*.c'`):
/// git matches it over the tree (its `*` crosses `/` and matches a leading `.`), so
/// what it may name is anything below the directory it starts at (`src` of `src/*.c`,
/// `.` of `*.c`): that directory is walked (written whole where the operand is
/// written: `git clean -f '*.o'`; only its tracked files where git reads only those:
/// `git grep x -- '*.rs'`). Where git prints names only, `git ls-files` (not
/// with `--eol` or `--format`, which read the files), the pattern is no path, as
/// `find DIR -name P`'s is not.
fn patterns(r: &mut Reading) {
    let subs = subcommands(r);
    let (listing, grep) = (subs == ["ls-files"], subs == ["grep"]);
    // `git rm` matches the pattern against the index only: the walk is one of what git
    // tracks. (Not `git diff`, which runs as `--no-index` by itself outside a repository
    // or given a path outside it (helper-65), nor `log`/`show`, which match it in a
    // commit's tree or the history, not the index.)
    let tracked_only = subs == ["rm"];
    let reads = r.parts.iter().any(|p| {
        p.kind == Kind::Option && (p.text.starts_with("--eol") || p.text.starts_with("--format"))
    });
    let mut starts: Vec<(String, Role)> = Vec::new();
    for p in r.parts.iter_mut() {
        let pattern = p.text.contains(['*', '?', '[']);
        if p.kind != Kind::Operand || !p.role.is_path() {
            continue;
        }
        // A pathspec with magic (`:(glob)**`, `:!x`, `:/x`) where git matches the index
        // only names files of the index below the top of the work tree (helper-66:
        // `git rm -n ':(glob)**'` was read as `**` in the directory).
        let index_only = tracked_only || (grep && matches!(p.role, WalkTracked | ShowTracked));
        // (`git grep`'s excludes only take files away: `git_store.rs`.)
        if p.text.starts_with(':') && index_only && !(grep && pathspec_excludes(&p.text)) {
            let role = match p.role {
                Write | WriteTree => WriteTracked,
                _ => ShowTracked,
            };
            p.role = Pattern;
            if !starts.contains(&(TOP.to_string(), role)) {
                starts.push((TOP.to_string(), role));
            }
            continue;
        }
        if !pattern || p.text.starts_with(':') {
            continue;
        }
        // Where git reads only what it tracks (`git grep`, `git diff`), so does the
        // pattern's walk: the files of the index below where it starts.
        let role = match p.role {
            Write | WriteTree if tracked_only => WriteTracked,
            Write | WriteTree => WriteTree,
            WalkTracked | ShowTracked => p.role,
            _ if tracked_only => ShowTracked,
            _ => Walk,
        };
        // The pattern names no file of its own where git lists names, or where it
        // reads only tracked files (`git grep`): the walk below holds them all.
        // Nor where it matches the index only (`git rm '.e*'`: helper-66).
        if (listing && !reads)
            || (grep && matches!(p.role, WalkTracked | ShowTracked))
            || tracked_only
        {
            p.role = Pattern;
        }
        let literal: Vec<&str> = p
            .text
            .split('/')
            .take_while(|c| !c.contains(['*', '?', '[', '\\']))
            .collect();
        let start = match literal.join("/") {
            s if s.is_empty() && p.text.starts_with('/') => "/".to_string(),
            s if s.is_empty() => ".".to_string(),
            s => s,
        };
        if !starts.contains(&(start.clone(), role)) {
            starts.push((start, role));
        }
    }
    for (start, role) in starts {
        r.parts.push(Part {
            text: start,
            kind: Kind::Implied,
            role,
        });
    }
}

/// Whether TEXT is a pathspec whose magic excludes what it matches (`:!*.md`, `:^x`,
/// `:/!x`, `:(exclude)x`, `:(glob,exclude)x`): it only takes files away from the
/// others (with excludes alone, git starts from `.`).
pub(crate) fn pathspec_excludes(text: &str) -> bool {
    let Some(spec) = text.strip_prefix(':') else {
        return false;
    };
    if let Some(long) = spec.strip_prefix('(') {
        let magic = long.split(')').next().unwrap_or_default();
        return long.contains(')') && magic.split(',').any(|m| m.trim() == "exclude");
    }
    spec.chars()
        .take_while(|c| matches!(c, '/' | '!' | '^'))
        .any(|c| c == '!' || c == '^')
}

#[cfg(test)]
mod tests {
    use super::pathspec_excludes;

    #[test]
    fn exclude_magic() {
        for t in [
            ":!*.md",
            ":^x",
            ":/!x",
            ":(exclude)x",
            ":(glob,exclude)*.md",
        ] {
            assert!(pathspec_excludes(t), "{t}");
        }
        for t in [
            "*.md",
            ":/x",
            ":(top)x",
            ":(glob)!x",
            ":x!",
            ":(exclude",
            "!x",
        ] {
            assert!(!pathspec_excludes(t), "{t}");
        }
    }
}
