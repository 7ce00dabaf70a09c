//! git's repository and store, in real repositories made by the real git (issue 23, the
//! adversary's git families):
//!
//! - A directory git takes for a bare repository (plain files `HEAD`, `objects/`,
//!   `refs/`, `config` that no `.git` rule sees) is one whose configuration may name
//!   commands (`core.fsmonitor`): a git command that would use it, or any repository
//!   that is not the `.git` of a work tree, is never allowed.
//! - What git prints from its store (`git diff`, `git show`, `git log -p`, `git grep`,
//!   `git cat-file -p`, `git archive`...) meets the rules on a name in any directory
//!   (`.env`) on the paths git's index lists: denied in a project that tracks `.env`,
//!   allowed in one that does not; asked when the index cannot be read.

mod common;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::explain;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use Decision::{Allow, Ask, Deny};

/// Run git with ARGS in DIR; it must succeed.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs (make deps installs it)");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("create dirs");
    std::fs::write(path, text).expect("write file");
}

/// A home of our own:
///
/// ```text
/// clean/        a repository that tracks src/main.rs; .env there, untracked and ignored
/// clean/x/      a bare repository of plain files (HEAD, objects/, refs/, config)
/// clean/y/.git  a file `gitdir: ../x`
/// tracks/       a repository that tracks .env and src/main.rs
/// loose/        a repository that tracks src/main.rs; .env there, untracked, not ignored
/// broken/       a repository whose index is not an index
/// ```
fn home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = common::process_dir("grh-git-store");
        let _ = std::fs::remove_dir_all(&dir);
        for name in ["clean", "tracks", "broken", "loose"] {
            let repo = dir.join(name);
            write(&repo.join("src/main.rs"), "fn main() {}\n");
            write(&repo.join(".env"), "KEY=secret\n");
            git(&repo, &["init", "-q"]);
            if name == "clean" {
                write(&repo.join(".gitignore"), ".env\n");
                git(&repo, &["add", ".gitignore", "src"]);
            } else if name == "loose" {
                git(&repo, &["add", "src"]);
            } else {
                git(&repo, &["add", "-A"]);
            }
            git(&repo, &["commit", "-q", "-m", "one"]);
            write(&repo.join("src/main.rs"), "fn main() { let _ = 1; }\n");
            write(&repo.join(".env"), "KEY=other\n");
        }
        write(&dir.join("broken/.git/index"), "DIRC not an index");
        let bare = dir.join("clean/x");
        for d in ["objects", "refs"] {
            std::fs::create_dir_all(bare.join(d)).expect("create dirs");
        }
        write(&bare.join("HEAD"), "ref: refs/heads/main\n");
        write(
            &bare.join("config"),
            "[core]\n\tfsmonitor = touch /tmp/pwned\n",
        );
        write(&dir.join("clean/y/.git"), "gitdir: ../x\n");
        // A build directory git ignores, larger than a walk looks through, with a key.
        let target = dir.join("clean/target");
        std::fs::create_dir_all(&target).expect("create dirs");
        for k in 0..20_050 {
            std::fs::write(target.join(format!("o{k}")), "").expect("write file");
        }
        write(&target.join("test.pem"), "KEY");
        write(&dir.join("clean/.gitignore"), ".env\ntarget/\n");
        write(&dir.join("loose/keys/dev.pem"), "KEY");
        dir.canonicalize().expect("canonicalize temp home")
    })
}

fn h(rest: &str) -> String {
    format!("{}/{rest}", home().display())
}

/// The preset's shape: secrets by name anywhere, git's readers allowed.
fn policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        let rules = json!([
            {"id": "secrets", "path": [".env", "id_rsa", "*.pem", "~/.ssh/**"], "decision": "deny"},
            {"id": "read-only", "command-prefix": ["git", "cd", "mkdir", "ls", "printf", "rg", "cat"],
             "decision": "allow"},
        ]);
        let rules = rule::rules_from_value(&rules).expect("rules read");
        let options = Options {
            case_fold: false,
            home: Some(home().to_path_buf()),
            ..Options::default()
        };
        compile::compile(rules, options).expect("policy compiles")
    })
}

fn call(cwd: &str, command: &str) -> Call {
    let value = json!({"name": "shell", "args": {"command": command}, "cwd": h(cwd)});
    Call::from_value(&value).expect("call reads")
}

fn decision(cwd: &str, command: &str) -> Option<Decision> {
    eval::evaluate(policy(), &call(cwd, command)).decision
}

fn explained(cwd: &str, command: &str) -> String {
    explain::explain(policy(), &call(cwd, command)).to_string()
}

/// Every line of LINES, run in CWD, decides WANT.
fn all_decide(cwd: &str, lines: &[&str], want: Option<Decision>) {
    let wrong: Vec<String> = lines
        .iter()
        .map(|l| (l, decision(cwd, l)))
        .filter(|(_, d)| *d != want)
        .map(|(l, d)| format!("{l}: {d:?}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "in {cwd}, want {want:?}:\n{}",
        wrong.join("\n")
    );
}

/// The everyday readers stay allowed in a project that does not track a secret (its
/// `.env` is there, ignored, and changed).
#[test]
fn readers_allowed_where_no_secret_is_tracked() {
    all_decide(
        "clean",
        &[
            "git status",
            "git diff",
            "git diff --cached",
            "git diff HEAD~0 -- src",
            "git show",
            "git show HEAD --stat",
            "git log -p",
            "git log --oneline -5",
            "git grep -n main",
            "git grep main HEAD",
            "git cat-file -p HEAD",
            "git stash show -p",
            // A patch or the pickaxe, where the index lists no secret.
            "git stash list -p",
            "git stash list --patch --oneline",
            "git log -S KEY --oneline",
            "git log -G '^KEY=' --name-only",
            "git format-patch -1 --stdout",
            "git archive HEAD",
            "git fast-export --all",
            "git merge-tree HEAD HEAD HEAD",
            "git bundle create x.bundle --all",
            "cd src && git diff",
            // git rm matches a pattern against the index.
            "git rm -n -- '*.rs'",
        ],
        Some(Allow),
    );
    // Not where the pattern may name an untracked file.
    for line in [
        "git diff --no-index '*' x",
        "git add '*'",
        "git diff '*.md'",
        "git log -p -- '*.env'",
    ] {
        assert_ne!(decision("loose", line), Some(Allow), "{line}");
    }
}

/// In a project that tracks `.env`, what prints tracked contents meets the rule; what
/// prints names, messages or other pathspecs does not.
#[test]
fn readers_of_the_store_meet_tracked_secrets() {
    all_decide(
        "tracks",
        &[
            "git diff",
            "git diff HEAD",
            "git diff --cached",
            "git show",
            "git show HEAD~0",
            "git show HEAD:.env",
            "git log -p",
            "git log --patch -1",
            "git log -U1",
            "git grep KEY",
            "git grep KEY HEAD",
            "git grep --recurse-submodules KEY",
            "git cat-file -p HEAD:.env",
            "git cat-file blob HEAD:.env",
            "git stash show -p",
            // `stash list` takes log's options; the pickaxe searches every file.
            "git stash list -p",
            "git log -S KEY --oneline",
            "git format-patch -1 --stdout",
            "git archive HEAD",
            "cd src && git diff",
            "cd src && git grep KEY ..",
            // A word that may be a branch is read as one: the whole tree's changes.
            "git log -p src",
            // `;`: the `cd` may fail and git run where the line started.
            "cd src; git diff .",
            "cd src && git add -A",
            // An object's name splits at the first `:` outside `{...}`, as git splits it.
            "git show HEAD@{0:0}:.env",
            "git show 'HEAD@{12:00}:.env'",
            "git cat-file -p 'HEAD^{/:*}:.env'",
            "git cat-file -p 'HEAD@{2030-01-01 00:00:00}:.env'",
            "git show 'HEAD@{12:00}'",
            "git cat-file -p HEAD:./.env",
            "cd src && git show HEAD:../.env",
            // A pathspec that names the secret, after a revision; a revision that may
            // be a blob's tag, printed whole whatever the pathspecs.
            "git show HEAD~1 ./.env",
            "cd src && git show HEAD ../.env",
            "cd src && git show v1 .",
            // A range after a file (helper-53): every commit between, whole.
            "git show 'HEAD:src..'",
            "git show ':/one:'",
            "git show 'HEAD:..'",
            "git show 'HEAD:src/..'",
            "git show ':0:README.md..'",
            "git show 'HEAD:src/main.rs..'",
            "cd src && git show 'HEAD:./main.rs..'",
            // Options that print more than the pathspecs name.
            "git log -p --full-diff ./src",
            "git log -p --follow -- src/main.rs",
            "git show --full-diff HEAD -- src",
            "git log -p --pickaxe-all -S main -- src",
            // A blob (or what may be a tag of one) is printed whole by `git show`,
            // whatever its options and pathspecs, and searched whole by `git grep`.
            "git show -s 7b229ed",
            "git show --stat v1",
            "git show --name-only FETCH_HEAD",
            "git show 7b229ed -- src",
            "cd src && git grep KEY 7b229ed",
            // The plumbing diffs print patches too.
            "git diff-tree -p --root HEAD",
            "git diff-index -p --cached HEAD",
            "git diff-files -p",
            // An object copied into a note, put in another's place, printed whole by ref.
            "git notes add -C 7b229ed HEAD",
            "git notes add --reuse-message=7b229ed HEAD",
            "git replace 65ef226 7b229ed",
            "git for-each-ref --format='%(raw)' refs/tags",
            "git tag -l --format='%(contents)'",
            // Revisions named by the refs, and refs made to name what may be a blob.
            "git show -s --tags",
            "git show --stat --all",
            "git show --name-only --remotes",
            "git tag t 7b229ed",
            "git update-ref refs/replace/16ab89a 7b229ed",
            "git update-ref refs/tags/x 7b229ed",
            "git symbolic-ref HEAD refs/tags/t",
        ],
        Some(Deny),
    );
    all_decide(
        "tracks",
        &[
            "git status",
            "git log --oneline",
            "git log --stat",
            // Names, counts and messages only.
            "git diff --stat",
            "git diff --name-only",
            "git show --stat",
            "git show -s HEAD",
            "git show --no-patch HEAD",
            "git diff -- src",
            "git log -p -- src",
            "git show HEAD -- src",
            "git show HEAD:src/main.rs",
            // The root tree: a list of names (helper-53's O2).
            "git show HEAD:",
            "git cat-file -p HEAD:",
            // One object, by its path: that file only.
            "git cat-file -p HEAD:src/main.rs",
            "git cat-file blob HEAD~0:src/main.rs",
            // No revision is spelt `./src` or `.`: a pathspec.
            "git log -p ./src",
            "cd src && git log -p .",
            "cd src && git diff .",
            "cd src && git add .",
            "git ls-files",
            "git grep KEY -- src",
            "git grep KEY HEAD -- src",
            "git show 'HEAD@{0}:src/main.rs'",
            "git cat-file -p 'HEAD^{/x:y}:src/main.rs'",
            "git show HEAD:./src/main.rs",
            "git show -s HEAD~2",
            "git show --stat @^",
            "git show HEAD~1 -- src",
            // Without `--`, an operand no revision is spelt as is a pathspec, and the
            // revisions before it are limited to it (helper-52's O3).
            "cd src && git show HEAD~1 .",
            "cd src && git log -p HEAD .",
            "git diff HEAD ./src",
            // Names and counts of the tracked files below a pathspec.
            "git diff --stat .",
            "git diff --stat -- .",
            "cd src && git grep KEY HEAD",
            "git diff-tree --stat HEAD",
            "git notes add -m x HEAD",
            "git replace -l",
            "git for-each-ref --format='%(refname)'",
            "git tag -l",
            "git tag v9 HEAD",
            "git tag v8",
            "git update-ref refs/heads/b HEAD~1",
            "git symbolic-ref HEAD refs/heads/main",
            "git symbolic-ref HEAD",
        ],
        Some(Allow),
    );
    let why = explained("tracks", "git diff");
    assert!(why.contains("secrets"), "{why}");
}

/// `git diff --stat` with a pathspec compares the files git tracks below it, as a patch
/// does, not the untracked ones (helper-52's O2: it was denied for an untracked `.env`);
/// with `--no-index` it compares the files as they are.
#[test]
fn diff_stat_reads_tracked_files() {
    all_decide(
        "loose",
        &[
            "git diff --stat -- .",
            "git diff --stat .",
            "git diff --numstat src .",
        ],
        Some(Allow),
    );
    assert_eq!(
        decision("loose", "git diff --stat --no-index . ../clean"),
        Some(Deny)
    );
}

/// An index that cannot be read: the store's readers are asked (an unsure match), its
/// other commands decide as before.
#[test]
fn unreadable_index_is_unsure() {
    all_decide("broken", &["git diff", "git log -p", "git show"], Some(Ask));
    let why = explained("broken", "git diff");
    assert!(why.contains("index"), "{why}");
    all_decide("broken", &["git log --oneline"], Some(Allow));
}

/// A repository git finds that is not the `.git` of a work tree (a bare one of plain
/// files, a `.git` file naming one, or one the line names) is never allowed; the
/// work tree's own repository is.
#[test]
fn repositories_not_in_a_dotgit_are_never_allowed() {
    for (cwd, line) in [
        ("clean", "cd x && git status"),
        ("clean/x", "git status"),
        ("clean/x", "git log --oneline"),
        ("clean", "git -C x status"),
        ("clean", "cd y && git status"),
        ("clean", "git --git-dir=x status"),
        ("clean", "git --work-tree=src status"),
        ("clean", "mkdir -p z/objects z/refs && cd z && git status"),
        (
            "clean",
            "printf 'ref: refs/heads/m' > z/HEAD; cd z && git log",
        ),
    ] {
        assert_eq!(decision(cwd, line), None, "{cwd}: {line}");
    }
    let why = explained("clean/x", "git status");
    assert!(why.contains("bare repository"), "{why}");
    // The work tree's repository, from the top, a subdirectory and inside `.git`.
    all_decide(
        "clean",
        &[
            "git status",
            "git -C src status",
            "ls x",
            "cat .git/config && git status",
            "ls -a .git; git log",
        ],
        Some(Allow),
    );
    // A `.git` file the line makes names the repository git then uses.
    assert_eq!(
        decision(
            "clean",
            "printf 'gitdir: ../x' > src/.git && cd src && git status"
        ),
        None
    );
    all_decide("clean/src", &["git status", "git log"], Some(Allow));
    all_decide("clean/.git", &["git log --oneline"], Some(Allow));
}

/// `git add` reads the untracked files git does not ignore below its pathspecs, and the
/// tracked ones: an ignored `.env` is not read, one git does not ignore is (issue 23).
#[test]
fn add_reads_what_git_does_not_ignore() {
    let everyday = [
        "git add .",
        "git add -A",
        "git add --all",
        "git add src",
        "git add -u",
        "cd src && git add .",
    ];
    all_decide("clean", &everyday, Some(Allow));
    // `-f` reads the ignored files too: `target/` is too large to look through.
    all_decide("clean", &["git add -f .", "git add --force -A"], Some(Ask));
    all_decide(
        "loose",
        &[
            "git add .",
            "git add -A",
            "git add -v --all",
            "git add -f .",
        ],
        Some(Deny),
    );
    all_decide(
        "loose",
        &["git add src", "git add -u", "git add -- src"],
        Some(Allow),
    );
    // Fetching from a repository that is a path reads its store.
    all_decide("clean", &["git fetch ../tracks main"], Some(Deny));
    all_decide(
        "clean",
        &["git fetch origin", "git fetch --all"],
        Some(Allow),
    );
    // Names only: `-N` records the paths, `git clean -n` prints what it would remove.
    all_decide(
        "loose",
        &["git add -N .", "git clean -n", "git clean -nd"],
        Some(Allow),
    );
    all_decide("tracks", &["git add -A", "git add ."], Some(Deny));
    // An index that cannot be read: unsure.
    all_decide("broken", &["git add ."], Some(Ask));
}

/// rg skips what git ignores: `rg TODO` looks through a repository whose ignored
/// `target/` is larger than a walk looks through, and does not meet the key there; with
/// `--no-ignore` it would read them (asked: too large to look through). A key rg does
/// not skip is met.
#[test]
fn rg_skips_what_git_ignores() {
    all_decide(
        "clean",
        &["rg TODO", "rg -n TODO src", "rg TODO ."],
        Some(Allow),
    );
    all_decide(
        "clean",
        // One `-u` is `--no-ignore`: rg reads what git ignores (target/ holds a key).
        &[
            "rg --no-ignore TODO",
            "rg --no-ignore-vcs TODO",
            "rg -u TODO",
            "rg -iu TODO",
            "rg --unrestricted TODO",
        ],
        Some(Ask),
    );
    all_decide("clean", &["rg TODO target"], Some(Ask));
    all_decide("loose", &["rg TODO", "rg TODO keys"], Some(Deny));
}

#[test]
fn abbreviated_option_values_are_read() {
    // GNU grep takes `-d rec` for `-d recurse`: a walk that opens the untracked .env.
    all_decide(
        "loose",
        &[
            "grep -d rec KEY .",
            "grep -drec KEY .",
            "grep --dir=rec KEY .",
            "grep --directories=recu KEY",
        ],
        Some(Deny),
    );
    // Not a walk (grep is not allowed by this policy: no decision, and no deny).
    all_decide("loose", &["grep -d read KEY src/main.rs"], None);
}

/// What writes the files git tracks (`git stash`, `git reset --hard`, `git rm -r`)
/// meets the rules on the tracked paths, and so does what shows their changes to be
/// chosen or under a message (`git add -p`, `git status -v`); `git rm --cached` leaves
/// the work tree alone (it reads what it names: `git rm --cached .env` meets the rule). Checked under strace by the red team: each of these opened,
/// unlinked or printed `.env`.
#[test]
fn writers_and_verbose_readers_meet_tracked_secrets() {
    all_decide(
        "tracks",
        &[
            "git stash",
            "git stash push",
            "git reset --hard",
            "git checkout -f",
            "git rm -rqf .",
            "git status -v",
            "git status -vv",
            "git status --verbose",
            "git commit -a -v --dry-run --no-status",
            // git's other name for `add`, the merge strategies, a stash's message and
            // branch, the diff `add -e` writes for an editor, the blobs `fsck` writes
            // out, a note copied among other short options (helper-38, under strace).
            "git stage .",
            "git merge-recursive HEAD -- HEAD HEAD~1",
            "git stash save msg",
            "git stash -q save m",
            "git stash branch x",
            "git fsck --lost-found",
            "git notes add -fC 7b229ed HEAD",
            "git rm --cached .env",
            // A new branch, forced: HEAD's files are put back.
            "git checkout -f -b y",
            "git checkout -fb y",
            "git switch -c y --discard-changes",
            // An orphan branch switched to empties the work tree.
            "git switch --orphan y",
            // A bare `--` names no pathspec: the whole tree (helper-39).
            "git checkout -f HEAD --",
            "git reset --hard --",
            "git reset --keep HEAD --",
            // `git stash -- PATHSPEC` is `git stash push`.
            "git stash -- .",
            "git stash -q -- .",
        ],
        Some(Deny),
    );
    all_decide(
        "tracks",
        &[
            "git rm -r --cached .",
            "git status -sb",
            "git status --short",
            // A branch made at HEAD, a reset that keeps the work tree.
            "git checkout -b feature",
            "git switch -c feature",
            "git checkout --orphan x",
            "git reset --soft HEAD~1",
            "git reset HEAD~1",
            "git fsck",
            "git stash -- src",
        ],
        Some(Allow),
    );
    all_decide(
        "clean",
        &["git stash", "git reset --hard", "git status -v"],
        Some(Allow),
    );
    // `git add -p` (also `checkout -p`, `reset --patch`, `add -e`, a note re-edited)
    // starts the editor on an `e` answer, which takes its commands from the line's
    // standard input (helper-40): never certain. The tracked `.env` it shows is a
    // certain match, as `git status -v`'s is (denied; asked from a818408 until the
    // editor's description stopped being read as a command). In a clean repository
    // it is not allowed, and no deny rule names a word of it: no decision (it was
    // asked while the description was a parse error, which matched every rule).
    all_decide(
        "tracks",
        &[
            "git add -p",
            "git checkout -p",
            "git reset --patch",
            "git stage -p",
            "git add -e",
            "git notes append -fc 7b229ed HEAD",
        ],
        Some(Deny),
    );
    all_decide("clean", &["git add -p"], None);
}

/// git's index as read before the line runs is not the one a git command earlier in
/// the line leaves: `git add -N .` puts an untracked `.env` in it, and the `git diff`
/// after prints it (an unsure match, asked). A `git add` that reads what it adds was
/// checked against the same rules: the readers after it are decided on the index.
#[test]
fn the_line_changes_the_index_before_a_reader() {
    all_decide(
        "loose",
        &[
            "git add -N . && git diff",
            "git add --intent-to-add . && git log -p",
            "git read-tree HEAD && git diff",
        ],
        Some(Ask),
    );
    all_decide(
        "clean",
        &[
            "git add src && git diff --cached",
            "git add -A && git diff --cached --stat",
        ],
        Some(Allow),
    );
}

/// A file of a commit (`REV:PATH`) is read under the top of the work tree the engine
/// finds, so a line with another command is certain (helper-49: `git show
/// HEAD:src/x | cat` was read in each directory above, 32 deep, directories that do not
/// exist, and was never certain), and the rules on the file still see it.
#[test]
fn a_file_of_a_commit_is_read_under_the_top() {
    all_decide(
        "clean",
        &[
            "git show HEAD:src/main.rs | cat",
            "cd src && git show HEAD:src/main.rs | cat",
            "git show HEAD:./src/main.rs && ls",
        ],
        Some(Allow),
    );
    all_decide(
        "tracks",
        &[
            "git show HEAD:.env | cat",
            "cd src && git show HEAD:.env | cat",
            "cd src && git show HEAD:../.env",
        ],
        Some(Deny),
    );
}
