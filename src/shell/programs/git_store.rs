//! What git prints from its store: the subcommands that print the contents of the files
//! it tracks (from the index, a commit's tree or history) while no word names a file:
//! `git diff`, `git show`, `git log -p`, `git grep`, `git stash show -p`, `git
//! cat-file`, `git archive`, `git format-patch`. Their pathspecs (or, with none, the
//! top of the work tree) are read in [`Role::ShowTracked`]: the engine meets the rules
//! on the paths git's index lists under them (`prepare::git_index`).

use super::git_object::object_path;
use super::git_tree::{sub_options, subcommands, work_tree, TOP};
use super::{Kind, Part, Reading, Role};

/// git's reading hook (a [`super::Program::reading_hook`]): the work tree
/// ([`work_tree`]), then the store ([`store`]).
pub(super) fn git_reading(r: &mut Reading) {
    // `git stage` is `git add`.
    if let Some(p) = r
        .parts
        .iter_mut()
        .find(|p| p.kind == Kind::Subcommand && p.text == "stage")
    {
        p.text = "add".into();
    }
    work_tree(r);
    super::git_commits::commits(r);
    store(r);
    add(r);
    rm_cached(r);
    fetched(r);
}

/// `git rm --cached`: it takes the paths out of the index and leaves the work tree as
/// it is; it reads the tracked files below them, to check that none has changes only
/// the index holds: [`Role::WalkTracked`], not written.
fn rm_cached(r: &mut Reading) {
    if subcommands(r) != ["rm"] {
        return;
    }
    let options = sub_options(r);
    let options: Vec<&str> = options.iter().map(String::as_str).collect();
    if given(&options, '\0', "cached") {
        for p in r.parts.iter_mut().filter(|p| p.kind == Kind::Operand) {
            p.role = Role::WalkTracked;
        }
    }
}

/// The repository a subcommand talks to, when it is a path: git reads a word that names
/// no configured remote as a URL or a path (`git fetch ../other main` reads that
/// repository's store, whose history later readers print: `git log -p FETCH_HEAD`; `git
/// ls-remote DIR` and `git remote show DIR` read its refs; `git push DIR` writes objects
/// and refs into it, checked under strace). A remote's name or a URL names no file here.
/// The first operand of fetch, pull, ls-remote and push, every one of `remote show` and
/// `remote prune`.
fn fetched(r: &mut Reading) {
    let subs = subcommands(r);
    let (role, all) = match subs.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["fetch" | "pull" | "ls-remote", ..] => (Role::Walk, false),
        ["push", ..] => (Role::WriteTree, false),
        ["remote", "show" | "prune", ..] => (Role::Walk, true),
        _ => return,
    };
    let last_sub = r.parts.iter().rposition(|p| p.kind == Kind::Subcommand);
    let operands = r
        .parts
        .iter_mut()
        .skip(last_sub.map_or(0, |k| k + 1))
        .filter(|p| p.kind == Kind::Operand);
    for p in operands.take(if all { usize::MAX } else { 1 }) {
        p.role = role;
    }
}

/// `git add`: it reads (hashes) the untracked files below its pathspecs that git does
/// not ignore, and the tracked ones (`git add .`, `git add src`; with `-A`/`--all` and
/// no pathspec, the whole tree): [`Role::WalkUnignored`]; with `-N` their names only.
/// With `-f`/`--force` the ignored files too ([`Role::Walk`]); with `-u`/`--update`
/// only the tracked ones.
fn add(r: &mut Reading) {
    if subcommands(r) != ["add"] {
        return;
    }
    let options = sub_options(r);
    let options: Vec<&str> = options.iter().map(String::as_str).collect();
    let given = |short: char, long: &str| given(&options, short, long);
    // `-N` (`--intent-to-add`) records the paths only: their contents are not read.
    let role = if given('N', "intent-to-add") {
        Role::List
    } else if given('f', "force") {
        Role::Walk
    } else if given('u', "update") {
        return;
    } else {
        Role::WalkUnignored
    };
    let all = given('A', "all");
    let mut pathspecs = false;
    for p in r.parts.iter_mut() {
        if p.kind == Kind::Operand && p.role == Role::WalkTracked && p.text != TOP {
            p.role = role;
            pathspecs = true;
        }
    }
    if all && !pathspecs {
        for p in r.parts.iter_mut() {
            if p.text == TOP && p.role == Role::WalkTracked {
                p.role = role;
            }
        }
    }
}

/// Long options of `git log`/`show`/`diff` that print the contents of files (a patch),
/// as written or abbreviated.
const PATCH_LONG: &[&str] = &[
    "patch",
    "patch-with-stat",
    "patch-with-raw",
    "unified",
    "word-diff",
    "color-words",
    "remerge-diff",
    "cc",
    "combined-all-paths",
    "binary",
    "function-context",
    "diff-merges",
    "ext-diff",
    "textconv",
    // The added lines with whitespace errors (helper-80), and `--dd`.
    "check",
    "dd",
];

/// Short options of `git log` that print a patch (`-U3` and `-L1,5:f` with a value).
const PATCH_SHORT: &[char] = &['p', 'u', 'U', 'L', 'm', 'c', 'W'];

/// Short options of `git log` whose value follows glued: the rest of the word is it.
const VALUE_SHORT: &[char] = &['n', 'S', 'G', 'M', 'C', 'O', 'l'];

/// Whether the option OPT (as written) makes `git log` print a patch.
fn prints_patch(opt: &str) -> bool {
    if let Some(long) = opt.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        // `--color` is an option of its own, not an abbreviation of `--color-words`.
        return !name.is_empty()
            && name != "color"
            && PATCH_LONG.iter().any(|p| p.starts_with(name));
    }
    let Some(short) = opt.strip_prefix('-') else {
        return false;
    };
    for ch in short.chars() {
        if PATCH_SHORT.contains(&ch) {
            return true;
        }
        if VALUE_SHORT.contains(&ch) {
            return false;
        }
    }
    false
}

/// Whether git's subcommand SUB, given ARGS (its words after it, as written), prints no
/// file's contents whatever its pathspecs match: the history's names and messages (`git
/// log --oneline`, `shortlog`, `rev-list`), a diff's names or counts (`git diff
/// --stat`). A pathspec pattern there is read as the files it matches below where it
/// starts, now (`prepare/git_pathspecs.rs`): where git prints contents the history may
/// hold others, and the line is not certain (helper-78: `git log --oneline -- '*.rs'`
/// was denied).
pub(crate) fn quiet_patterns<S: AsRef<str>>(sub: &str, args: &[S]) -> bool {
    let options: Vec<&str> = args
        .iter()
        .map(AsRef::as_ref)
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-'))
        .collect();
    match sub {
        "diff" => names_only(&options),
        "log" | "whatchanged" | "diff-tree" => !log_prints(&options),
        "shortlog" | "rev-list" => true,
        _ => false,
    }
}

/// Whether OPTIONS (as written) make `git log` (and the subcommands that take its
/// options) print contents: a patch, or the pickaxe's search of every file.
fn log_prints(options: &[&str]) -> bool {
    options
        .iter()
        .any(|o| prints_patch(o) || searches_contents(o))
}

/// Options of `git diff`/`git show` after which they print names, counts or messages,
/// not contents (`git show -s`, `git diff --stat`).
const NAMES_ONLY: &[&str] = &[
    "-s",
    "--no-patch",
    "--stat",
    "--shortstat",
    "--numstat",
    "--dirstat",
    "--name-only",
    "--name-status",
    "--summary",
    "--raw",
    "--quiet",
];

/// Whether OPTIONS make `git diff`/`git show` print no file's contents: one of
/// [`NAMES_ONLY`] and nothing that prints a patch.
fn names_only(options: &[&str]) -> bool {
    options
        .iter()
        .any(|o| NAMES_ONLY.contains(&o.split('=').next().unwrap_or(o)))
        && !options.iter().any(|o| prints_patch(o))
}

/// Whether the option OPT (as written) makes `git log` search the contents of files:
/// the pickaxe (`-S`, `-G`, `--pickaxe-regex`, `--find-object`), also glued to its value
/// or after other short options (`-iS`).
fn searches_contents(opt: &str) -> bool {
    if let Some(long) = opt.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        return name.len() >= 2
            && ["pickaxe-regex", "find-object"]
                .iter()
                .any(|p| p.starts_with(name));
    }
    let Some(short) = opt.strip_prefix('-') else {
        return false;
    };
    for ch in short.chars() {
        if ch == 'S' || ch == 'G' {
            return true;
        }
        if VALUE_SHORT.contains(&ch) {
            return false;
        }
    }
    false
}

/// Long options of `git log`/`show`/`diff` after which what they print is not kept
/// within their pathspecs: the whole commit's patch (`--full-diff`, `--pickaxe-all`),
/// the files a path was renamed or copied from (`--follow`, `--find-copies-harder`).
const WIDENS: &[&str] = &["full-diff", "follow", "pickaxe-all", "find-copies-harder"];

/// Whether the option OPT (as written, or abbreviated) is one of [`WIDENS`].
fn widens(opt: &str) -> bool {
    let Some(long) = opt.strip_prefix("--") else {
        return false;
    };
    let name = long.split('=').next().unwrap_or(long);
    name.len() >= 3 && WIDENS.iter().any(|w| w.starts_with(name))
}

/// Read what the subcommands that print tracked contents reach as
/// [`Role::ShowTracked`]: the pathspecs after `--` when there are some (and no option
/// of [`WIDENS`]), else every operand in a path role and the top of the work tree (a
/// revision alone, `git show HEAD`, prints the whole tree's changes).
pub(super) fn store(r: &mut Reading) {
    let subs = subcommands(r);
    let subs: Vec<&str> = subs.iter().map(String::as_str).collect();
    let options = sub_options(r);
    let options: Vec<&str> = options.iter().map(String::as_str).collect();
    // `git grep` prints lines of the files git tracks (not with `--untracked` or
    // `--no-index`, which read the directory: a walk of its own).
    if subs == ["grep"] {
        grep(r);
        return;
    }
    if !prints(r, &subs, &options) {
        // `git diff --stat` (names and counts) compares the files git tracks, as a
        // patch does: not the untracked ones below its pathspecs (helper-52: `git diff
        // --stat -- .` was denied in a project with an untracked `.env`).
        if subs == ["diff"] && !options.contains(&"--no-index") {
            for p in r.parts.iter_mut() {
                if p.kind == Kind::Operand && p.role == Role::Walk {
                    p.role = Role::WalkTracked;
                }
            }
        }
        return;
    }
    shown(r, &subs, &options);
}

/// Whether the git subcommand SUBS, given OPTIONS (as written), prints or writes out
/// what the store holds.
fn prints(r: &Reading, subs: &[&str], options: &[&str]) -> bool {
    let has = |long: &str| options.iter().any(|o| o.strip_prefix("--") == Some(long));
    match subs {
        // `--no-index` compares two files outside the store, as written.
        ["diff"] => !has("no-index") && !names_only(options),
        // `git stash list` takes log's options (`git stash list -p`); the pickaxe
        // (`-S`, `-G`, `--find-object`) searches every file's contents and names the
        // commits and files that hold a string: an oracle of what they hold.
        // The plumbing diffs take the same options (`git diff-tree -p --root HEAD`).
        ["log" | "whatchanged" | "diff-tree" | "diff-index" | "diff-files" | "reflog"]
        | ["stash", "list"] => log_prints(options),
        // And what writes the store's contents out whole: a stream (`fast-export`,
        // `pack-objects --stdout`, `bundle create`), a merge's result (`merge-tree`),
        // a blob into a file (`unpack-file`), a diff of ranges or by a tool.
        // `git show` prints a blob whole whatever its options (`git show -s BLOB`):
        // names only when every revision is surely a commit.
        ["show"] => !names_only(options) || !revisions_are_commits(r),
        // Copying an object into a note (`git notes add -C BLOB`), putting one object
        // in another's place (`git replace`), or printing what refs point to whole
        // (`git for-each-ref --format=%(raw)`, also `tag -l`/`branch`): any tracked
        // file's contents, now or in a later call.
        // Also among other short options (`-fC OBJ`).
        ["notes"] => given(options, 'C', "reuse-message") || given(options, 'c', "reedit-message"),
        ["replace"] => !options
            .iter()
            .any(|o| matches!(*o, "-l" | "--list" | "-d" | "--delete")),
        // A ref made to name what may be a blob (`git tag t BLOB`, `git update-ref
        // refs/replace/X BLOB`, `git symbolic-ref HEAD refs/tags/t`), which later
        // readers (`git show -s t`) print whole.
        ["update-ref"] => {
            !options.iter().any(|o| matches!(*o, "-d")) && {
                let words = operand_words(r);
                words.len() != 2 || words[0].starts_with("refs/replace") || !surely_commit(words[1])
            }
        }
        ["symbolic-ref"] => operand_words(r)
            .get(1)
            .is_some_and(|target| !target.starts_with("refs/heads/")),
        ["tag"]
            if !options
                .iter()
                .any(|o| matches!(*o, "-l" | "--list" | "-d" | "--delete" | "-v" | "--verify")) =>
        {
            operand_words(r).get(1).is_some_and(|o| !surely_commit(o)) || formats_objects(r)
        }
        ["for-each-ref" | "tag" | "branch"] => formats_objects(r),
        ["format-patch"]
        | ["archive"]
        | ["fast-export"]
        | ["merge-tree"]
        | ["unpack-file"]
        | ["range-diff"]
        | ["difftool"]
        | ["pack-objects"]
        | ["bundle", "create"]
        | ["request-pull"] => true,
        ["stash", "show"] => options.iter().any(|o| {
            *o == "-p"
                || o.strip_prefix("--")
                    .is_some_and(|l| l.len() >= 2 && "patch".starts_with(l))
        }),
        // `-t`, `-s`, `-e` print an object's type or size, or test it.
        ["cat-file"] => !options
            .iter()
            .any(|o| matches!(*o, "-t" | "-s" | "-e") || o.starts_with("--batch")),
        // The changes shown to be chosen (`git add -p`, `git checkout -p`) or under
        // the message (`git status -v`, `git commit -v --dry-run`).
        ["status"] => given(options, 'v', "verbose"),
        ["commit"] => ["verbose", "patch", "interactive"]
            .iter()
            .any(|l| given(options, l.chars().next().unwrap_or('-'), l)),
        // `git add -e` writes the diff to `.git/ADD_EDIT.patch` for an editor.
        ["add"] => ["patch", "interactive", "edit"]
            .iter()
            .any(|l| given(options, l.chars().next().unwrap_or('-'), l)),
        ["checkout" | "reset" | "restore" | "stash"] | ["stash", "push" | "save"] => {
            given(options, 'p', "patch") || given(options, 'i', "interactive")
        }
        // `--lost-found` writes the blobs no ref reaches into `.git/lost-found/`.
        ["fsck"] => given(options, '\0', "lost-found"),
        _ => false,
    }
}

/// Mark what the printing subcommand SUBS (given OPTIONS) shows of the store as
/// [`Role::ShowTracked`]: its pathspecs, or the top of the work tree.
fn shown(r: &mut Reading, subs: &[&str], options: &[&str]) {
    let end = r.parts.iter().position(|p| p.kind == Kind::End);
    let after_end = |k: usize| end.is_some_and(|e| k > e);
    // Without `--`, an operand git takes for a revision prints the whole tree; one no
    // revision can be spelt as (`.`, `./src`, `../x`, `/abs`: no ref name starts with
    // `.` or `/`) is a pathspec.
    let mut operands = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && p.role.is_path() && p.text != TOP)
        .peekable();
    // `diff-files` takes no revision, `diff-index` one, read as data: the words in a
    // path role are pathspecs.
    let only_pathspecs = matches!(subs, ["diff-files"] | ["diff-index"]);
    let sure = operands.peek().is_some()
        && (only_pathspecs || (end.is_none() && operands.all(|p| no_rev(&p.text))));
    // Without `--`, git takes revisions first and the rest for paths: an operand no
    // revision can be spelt as is a pathspec, and the words before it revisions or
    // pathspecs (`git show HEAD~1 .` prints HEAD~1's changes below `.` only).
    let implied = end.is_none()
        && r.parts
            .iter()
            .any(|p| p.kind == Kind::Operand && p.role.is_path() && no_rev(&p.text));
    // A blob given as a revision is printed whole, whatever the pathspecs.
    let revisions_commits = subs != ["show"] || revisions_are_commits(r);
    let pathspecs = sure
        || implied
        || r.parts
            .iter()
            .enumerate()
            .any(|(k, p)| after_end(k) && p.kind == Kind::Operand && p.role.is_path());
    // `git show REV:PATH` prints that file only (its word names PATH), and so does
    // `git cat-file -p REV:PATH` (or `cat-file blob REV:PATH`), whose operands are
    // objects, not paths.
    let cat_file = subs == ["cat-file"];
    let objects: Vec<&str> = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && (cat_file || p.role.is_path()))
        .map(|p| p.text.as_str())
        .skip_while(|o| cat_file && matches!(*o, "blob" | "tree" | "commit" | "tag"))
        .collect();
    // git reads `..` in a word first (a range: `HEAD:src..` is `HEAD:src..HEAD`, every
    // commit between, patches and all): only a word without it is one file.
    // `REV:` names REV's root tree, which they print as a list of names (not `:/x:`, a
    // commit found by its message, printed whole).
    let root_tree = |o: &str| o.len() > 1 && o.ends_with(':') && !o.starts_with(':');
    let shows_files = (cat_file || subs == ["show"])
        && !objects.is_empty()
        && objects
            .iter()
            .all(|o| (object_path(o).is_some() || root_tree(o)) && !o.contains(".."));
    for (k, p) in r.parts.iter_mut().enumerate() {
        let operand = p.kind == Kind::Operand && p.role.is_path() && p.text != TOP;
        if operand && (!pathspecs || sure || implied || after_end(k)) && !is_write(p.role) {
            p.role = Role::ShowTracked;
        }
    }
    if (pathspecs && revisions_commits && !options.iter().any(|o| widens(o))) || shows_files {
        return;
    }
    match r
        .parts
        .iter_mut()
        .find(|p| p.text == TOP && p.role.is_path())
    {
        Some(p) if !is_write(p.role) => p.role = Role::ShowTracked,
        Some(_) => {}
        None => r.parts.push(Part {
            text: TOP.to_string(),
            kind: Kind::Implied,
            role: Role::ShowTracked,
        }),
    }
}

/// Whether OPTIONS (as written) give the flag SHORT (alone or among others: `-sv`) or
/// LONG (or an abbreviation of it).
fn given(options: &[&str], short: char, long: &str) -> bool {
    options.iter().any(|o| match o.strip_prefix("--") {
        Some(l) => {
            let name = l.split('=').next().unwrap_or(l);
            name.len() >= 2 && long.starts_with(name)
        }
        None => o.strip_prefix('-').is_some_and(|s| s.contains(short)),
    })
}

/// Whether an operand no revision can be spelt as (`.`, `./src`, `../x`, `/abs`: no
/// ref name starts with `.` or `/`): a pathspec.
fn no_rev(t: &str) -> bool {
    t == "." || t == ".." || t.starts_with("./") || t.starts_with("../") || t.starts_with('/')
}

/// Whether REV surely names a commit: `HEAD` or `@`, stepped back with `~N` or `^N`.
/// Any other name (`main`, `v1`, an object's hex name, `FETCH_HEAD`) may be a tag or a
/// blob, which `git show` and `git grep` print whole.
fn surely_commit(rev: &str) -> bool {
    let steps = rev
        .strip_prefix("HEAD")
        .or_else(|| rev.strip_prefix('@'))
        .unwrap_or("x");
    steps
        .chars()
        .all(|c| c == '~' || c == '^' || c.is_ascii_digit())
}

/// Whether a word of R asks a `--format` for the objects refs name, whole
/// (`%(raw)`, `%(contents)`).
fn formats_objects(r: &Reading) -> bool {
    r.parts.iter().any(|p| {
        let t = p.text.to_ascii_lowercase();
        t.contains("%(raw") || t.contains("%(contents")
    })
}

/// The operands of R after its subcommand, as written.
fn operand_words(r: &Reading) -> Vec<&str> {
    r.parts
        .iter()
        .skip_while(|p| p.kind != Kind::Subcommand)
        .filter(|p| p.kind == Kind::Operand && p.text != TOP)
        .map(|p| p.text.as_str())
        .collect()
}

/// Options of the revision walk that name revisions by the refs.
const REF_OPTIONS: &[&str] = &[
    "all",
    "tags",
    "branches",
    "remotes",
    "glob",
    "reflog",
    "alternate-refs",
    "indexed-objects",
    "stdin",
    "bisect",
    "exclude",
];

/// Whether every operand of R before `--` that may be a revision (not a pathspec no
/// revision is spelt as, nor an object `REV:PATH`) surely names a commit.
fn revisions_are_commits(r: &Reading) -> bool {
    let end = r.parts.iter().position(|p| p.kind == Kind::End);
    // Options that give revisions by the refs (`git show -s --tags`: a tag may name a
    // blob).
    let by_refs = r.parts.iter().any(|p| {
        p.kind == Kind::Option
            && p.text.strip_prefix("--").is_some_and(|l| {
                let name = l.split('=').next().unwrap_or(l);
                REF_OPTIONS.contains(&name)
            })
    });
    !by_refs
        && r.parts
            .iter()
            .enumerate()
            .filter(|(k, p)| {
                p.kind == Kind::Operand
                    && p.role.is_path()
                    && p.text != TOP
                    && end.is_none_or(|e| *k < e)
                    && !no_rev(&p.text)
                    && object_path(&p.text).is_none()
            })
            .all(|(_, p)| surely_commit(&p.text))
}

/// `git grep`: its pathspecs, and the revisions it may be given in their place (`git
/// grep KEY HEAD` searches HEAD's tree below the directory it runs in: `.` too, unless
/// `--` gives pathspecs).
fn grep(r: &mut Reading) {
    // Whether the long option LONG is given (git takes a unique prefix of three letters
    // or more).
    let given = |long: &str| {
        r.parts.iter().any(|p| {
            let name = p.text.strip_prefix("--").unwrap_or_default();
            let name = name.split('=').next().unwrap_or(name);
            p.kind == Kind::Option && name.len() > 2 && long.starts_with(name)
        })
    };
    // `--recurse-submodules` prints the files of submodules too, which the index of the
    // repository does not list: a walk of every file.
    let recurse = given("recurse-submodules");
    // `--untracked` adds the untracked files git does not ignore (the ignored ones too
    // with `--no-exclude-standard`; `--no-index` reads them all).
    let unignored =
        given("untracked") && !given("no-index") && !given("no-exclude-standard") && !recurse;
    let role = if recurse {
        Role::Walk
    } else {
        Role::ShowTracked
    };
    let mut tracked = false;
    for p in r.parts.iter_mut() {
        if p.role == Role::WalkTracked {
            p.role = role;
            tracked = true;
        }
    }
    if unignored {
        for p in r.parts.iter_mut() {
            if p.role == Role::Walk {
                p.role = Role::WalkUnignored;
            }
        }
    }
    // An exclude (`:!*.md`) only takes files away: no path, and with excludes alone
    // git searches from `.` (the files it tracks there, or with `--untracked` and
    // `--no-index` every one it walks: helper-72, `git grep --no-index X -- ':!*.c'`).
    let walks = |role: Role| matches!(role, Role::Walk | Role::WalkUnignored);
    let mut excluded_walk = None;
    for p in r.parts.iter_mut() {
        let walked = p.role == role || walks(p.role);
        if p.kind == Kind::Operand && walked && super::pathspec_excludes(&p.text) {
            excluded_walk = excluded_walk.or(Some(p.role).filter(|&r| walks(r)));
            p.role = Role::Pattern;
        }
    }
    let end = r.parts.iter().position(|p| p.kind == Kind::End);
    let pathspecs = end.is_some_and(|e| r.parts.iter().skip(e + 1).any(|p| p.role.is_path()));
    let here = r.parts.iter().any(|p| p.text == "." && p.role == role);
    if tracked && !pathspecs && !here {
        r.parts.push(Part {
            text: ".".to_string(),
            kind: Kind::Implied,
            role,
        });
    }
    if let Some(walk) = excluded_walk {
        if !r.parts.iter().any(|p| walks(p.role)) {
            r.parts.push(Part {
                text: ".".to_string(),
                kind: Kind::Implied,
                role: walk,
            });
        }
    }
    // A blob (or a tag of one) given as a revision is searched whole, wherever git runs
    // (`cd src && git grep KEY BLOB`).
    if tracked && !revisions_are_commits(r) {
        r.parts.push(Part {
            text: TOP.to_string(),
            kind: Kind::Implied,
            role,
        });
    }
}

/// Whether ROLE writes (a role the store's reading must not weaken).
fn is_write(role: Role) -> bool {
    matches!(role, Role::Write | Role::WriteTree | Role::WriteTracked)
}

#[cfg(test)]
mod tests {
    use super::prints_patch;

    #[test]
    fn options_that_print_a_patch() {
        for o in [
            "-p",
            "-u",
            "-U5",
            "--patch",
            "--pat",
            "--unified=1",
            "--cc",
            "-L1,2:f",
        ] {
            assert!(prints_patch(o), "{o}");
        }
        for o in [
            "--oneline",
            "--stat",
            "--color",
            "--color=always",
            "--pretty=%H",
            "-n5",
            "-Spassword",
            "--graph",
            "-np",
        ] {
            assert!(!prints_patch(o), "{o}");
        }
    }
}
