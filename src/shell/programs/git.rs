//! git: its own options (written out, before the subcommand) and its everyday
//! subcommands (parse-options: long options abbreviated, short ones bundled).
//!
//! git runs code from the repository it works in: `core.fsmonitor`, `core.pager`,
//! `core.editor`, diff and merge drivers, clean and smudge filters, textconv, hooks on
//! commit, merge, rebase, checkout and push: the whole program has
//! [`Effect::ProjectCode`], as `make` has. `-c KEY=VALUE` and `--config-env` may name a
//! command ([`Role::Hidden`]: never certain); the `wrap` reader reads the commands
//! configuration values, `ext::` URLs and options such as `--upload-pack` give it.
//! Operands are read as paths (pathspecs, and revisions read generously).

use super::git_opts::*;
use super::git_other_opts::{
    ARCHIVE, BISECT, CHECK, FORMAT_PATCH, HASH_OBJECT, LS_REMOTE, MAINTENANCE, MERGE_BASE,
    PLUMBING, SUBMODULE,
};
use super::git_plumbing::{join, reading, PLUMBING_SUBS};
use super::git_rev_opts::REVS;
use super::git_tree::TOP;
use super::Role::*;
use super::{all, ex, first, Effect, Example, Program, Style, BASE};

/// It changes the work tree: files and directories, links a commit holds among them.
const TREE: &[Effect] = &[Effect::Links, Effect::Dirs];
/// It changes the work tree and runs hooks (merge, rebase, checkout).
const TREE_HOOKS: &[Effect] = &[Effect::Links, Effect::Dirs, Effect::ProjectCode];
const NET: &[Effect] = &[Effect::Network];

const WORKTREE_SUBS: &[Program] = &[
    Program {
        operands: first(Write, &[], Data),
        ..sub(
            &["add"],
            WORKTREE_ADD,
            Data,
            TREE_HOOKS,
            &[ex("git worktree add -b t ../wt main", &["../wt"])],
        )
    },
    sub(
        &["list", "prune", "lock", "unlock"],
        WORKTREE_ADD,
        Read,
        &[],
        &[ex("git worktree list --porcelain", &[])],
    ),
    sub(
        &["remove", "move", "repair"],
        WORKTREE_ADD,
        Write,
        TREE,
        &[ex("git worktree remove -f ../wt", &["../wt"])],
    ),
];

const STASH_SUBS: &[Program] = &[
    Program {
        operands: all(WriteTree).or(TOP, WriteTracked),
        ..sub(
            &["push", "save"],
            STASH,
            WriteTree,
            TREE,
            &[ex("git stash push -m wip src", &["src", TOP])],
        )
    },
    Program {
        operands: all(Data).or(TOP, WriteTracked),
        ..sub(
            // `branch NAME` checks out the stash's base commit and applies it
            // (helper-62: a link from that commit was read through after it).
            &["pop", "apply", "branch"],
            STASH,
            Data,
            TREE,
            &[
                ex("git stash pop --index", &[TOP]),
                ex("git stash branch b stash@{1}", &[TOP]),
            ],
        )
    },
    sub(
        &["list", "show"],
        REVS,
        Data,
        &[],
        &[ex("git stash show -p stash@{0}", &[TOP])],
    ),
    sub(
        &["drop", "clear", "create", "store"],
        STASH,
        Data,
        &[],
        &[ex("git stash drop -q", &[])],
    ),
];

const REMOTE_SUBS: &[Program] = &[
    sub(
        &[
            "add",
            "remove",
            "rm",
            "rename",
            "set-url",
            "get-url",
            "set-head",
            "set-branches",
        ],
        REMOTE,
        Data,
        &[],
        &[ex("git remote add origin https://x.org/r.git", &[])],
    ),
    sub(
        &["show", "prune", "update"],
        REMOTE,
        Data,
        NET,
        &[
            ex("git remote show -n origin", &["origin"]),
            ex("git remote prune origin ../other", &["origin", "../other"]),
        ],
    ),
];

const OWN_SUBS: &[Program] = &[
    Program {
        operands: all(WalkTracked).or(TOP, WalkTracked),
        ..sub(
            &["status"],
            STATUS,
            Walk,
            &[],
            &[
                ex("git status --short", &[TOP]),
                ex("git status -sb src", &["src", TOP]),
            ],
        )
    },
    sub(
        &["diff"],
        REVS,
        Walk,
        &[],
        &[
            ex("git diff --stat HEAD~1 -- src", &["HEAD~1", "src", TOP]),
            ex("git diff --cached", &[TOP]),
            ex("git diff --output=d.patch", &["d.patch", TOP]),
            ex("git diff HEAD~1", &["HEAD~1", TOP]),
        ],
    ),
    sub(
        &["log", "show", "whatchanged"],
        REVS,
        Read,
        &[],
        &[
            ex("git log --oneline -5", &[]),
            ex("git log -n 3 --format=%H -- a.rs", &["a.rs"]),
            // An object's file is no path where git runs: it is read under the top
            // of the work tree (`:/.env`, see `wrap::options`).
            ex("git show HEAD:.env", &[]),
            ex("git show HEAD", &["HEAD", TOP]),
            ex("git log -p -- src", &["src"]),
            ex("git log -p ./src", &["./src"]),
            ex("git log -p src", &["src", TOP]),
            ex("git log --stat --color -3", &[]),
            ex("git log -U1", &[TOP]),
        ],
    ),
    sub(
        &["shortlog"],
        SHORTLOG,
        Read,
        &[],
        &[ex("git shortlog -sn", &[])],
    ),
    Program {
        operands: all(WalkTracked).or(TOP, WalkTracked),
        ..sub(
            // `stage` is git's own other name for `add`.
            &["add", "stage"],
            ADD,
            Walk,
            &[],
            &[
                ex("git add -A", &[TOP]),
                ex("git add src/a.rs .env", &["src/a.rs", ".env", TOP]),
            ],
        )
    },
    Program {
        operands: all(WalkTracked).or(TOP, WalkTracked),
        ..sub(
            &["commit"],
            COMMIT,
            Walk,
            &[Effect::ProjectCode],
            &[
                ex("git commit -am 'fix: x'", &[TOP]),
                ex("git commit -F msg.txt", &["msg.txt", TOP]),
            ],
        )
    },
    sub(
        &["branch"],
        BRANCH,
        Data,
        &[],
        &[ex("git branch -vv", &[]), ex("git branch -D old", &[])],
    ),
    sub(
        &["checkout"],
        CHECKOUT,
        WriteTree,
        TREE_HOOKS,
        &[
            ex("git checkout -b feature", &[TOP]),
            ex("git checkout -- a.rs", &["a.rs", TOP]),
            ex("git checkout main", &["main", TOP]),
        ],
    ),
    Program {
        operands: all(Data).or(TOP, WriteTracked),
        ..sub(
            &["switch"],
            SWITCH,
            Data,
            TREE_HOOKS,
            &[ex("git switch -c feature", &[TOP])],
        )
    },
    sub(
        &["restore"],
        RESTORE,
        WriteTree,
        TREE,
        &[ex("git restore --staged a.rs", &["a.rs", TOP])],
    ),
    Program {
        subs: STASH_SUBS,
        operands: all(WriteTree).or(TOP, WriteTracked),
        ..sub(
            &["stash"],
            STASH,
            WriteTree,
            TREE,
            &[ex("git stash", &[TOP]), ex("git stash -u", &[TOP])],
        )
    },
    // The repository fetched from, when a path (`git fetch ../other main`): git reads
    // its store (`git_store::fetched`; a remote's name or a URL names no file here).
    sub(
        &["fetch"],
        FETCH,
        Data,
        NET,
        &[
            ex("git fetch --all --prune", &[]),
            ex("git fetch ../other main", &["../other"]),
        ],
    ),
    Program {
        operands: all(Data).or(TOP, WriteTracked),
        ..sub(
            &["pull"],
            FETCH,
            Data,
            &[
                Effect::Network,
                Effect::Links,
                Effect::Dirs,
                Effect::ProjectCode,
            ],
            &[
                ex("git pull --rebase origin main", &["origin", TOP]),
                ex("git pull ../other main", &["../other", TOP]),
            ],
        )
    },
    sub(
        &["push"],
        PUSH,
        Data,
        &[Effect::Network, Effect::ProjectCode],
        &[
            ex("git push -u origin HEAD", &["origin"]),
            ex("git push --tags ../other", &["../other"]),
        ],
    ),
    Program {
        operands: first(Read, &[], Write),
        ..sub(
            &["clone"],
            CLONE,
            Data,
            &[Effect::Network, Effect::Links, Effect::Dirs],
            &[ex(
                "git clone --depth 1 https://x.org/r.git r",
                &["https://x.org/r.git", "r"],
            )],
        )
    },
    sub(
        &["rev-parse"],
        REV_PARSE,
        Data,
        &[],
        &[
            ex("git rev-parse --show-toplevel", &[]),
            ex("git rev-parse --abbrev-ref HEAD", &[]),
        ],
    ),
    Program {
        operands: all(WalkTracked).or(".", WalkTracked),
        ..sub(
            &["ls-files"],
            LS_FILES,
            Walk,
            &[],
            &[
                ex("git ls-files -m -x .env src", &["src", TOP]),
                ex("git ls-files", &["."]),
                ex("git ls-files '*.c'", &["."]),
                ex("git ls-files -- 'src/*.rs' a.rs", &["a.rs", "src"]),
            ],
        )
    },
    Program {
        operands: first(Pattern, &["e", "f"], WalkTracked).or(".", WalkTracked),
        ..sub(
            &["grep"],
            GREP,
            Walk,
            &[],
            &[
                ex("git grep -n TODO -- src", &["src"]),
                ex("git grep --no-index KEY", &["."]),
                ex("git grep KEY -- '*.env'", &["."]),
                ex(
                    "git grep --untracked KEY -- 'src/*.env'",
                    &["src/*.env", "src"],
                ),
            ],
        )
    },
    sub(
        &["blame"],
        BLAME,
        Read,
        &[],
        &[ex("git blame -L 10,20 a.rs", &["a.rs"])],
    ),
    Program {
        subs: REMOTE_SUBS,
        ..sub(&["remote"], REMOTE, Data, &[], &[ex("git remote -v", &[])])
    },
    sub(
        &["tag"],
        TAG,
        Data,
        &[],
        &[ex("git tag -a v1 -m release", &[]), ex("git tag -l", &[])],
    ),
    sub(
        &["init"],
        INIT,
        Write,
        &[Effect::Dirs],
        &[ex("git init -b main repo", &["repo"])],
    ),
    sub(
        &["reset"],
        RESET,
        WriteTree,
        TREE,
        &[
            ex("git reset --hard HEAD~1", &["HEAD~1", TOP]),
            ex("git reset -q -- a.rs", &["a.rs", TOP]),
        ],
    ),
    // The merge strategies, run by `git merge` and on their own (`git merge-recursive
    // BASE -- HEAD OTHER` merges into the work tree).
    Program {
        operands: all(Data).or(TOP, WriteTracked),
        ..sub(
            &[
                "merge-recursive",
                "merge-resolve",
                "merge-octopus",
                "merge-subtree",
                "merge-ours",
                "merge-recursive-ours",
                "merge-recursive-theirs",
            ],
            &[],
            Data,
            TREE_HOOKS,
            &[ex("git merge-recursive HEAD~1 -- HEAD b", &[TOP])],
        )
    },
    Program {
        operands: all(Data).or(TOP, WriteTracked),
        ..sub(
            &["merge", "rebase", "cherry-pick", "revert"],
            MERGE,
            Data,
            TREE_HOOKS,
            &[
                ex("git merge --no-ff feature", &[TOP]),
                ex("git rebase --onto main a b", &[TOP]),
                ex("git cherry-pick -x abc123", &[TOP]),
            ],
        )
    },
    Program {
        subs: WORKTREE_SUBS,
        ..sub(
            &["worktree"],
            WORKTREE_ADD,
            Data,
            TREE,
            &[ex("git worktree prune", &[])],
        )
    },
    sub(
        &["config"],
        CONFIG,
        Data,
        &[],
        &[
            ex("git config --get user.email", &[]),
            ex("git config -f cfg --list", &["cfg"]),
        ],
    ),
    sub(
        &["cat-file"],
        CAT_FILE,
        Data,
        &[],
        &[
            ex("git cat-file -p HEAD", &[TOP]),
            ex("git cat-file -p HEAD:src/x.rs", &[]),
            ex("git cat-file blob HEAD~1:.env", &[]),
            Example {
                line: "git cat-file --batch",
                paths: &[],
                runs: &[],
                unknown: &["--batch"],
            },
        ],
    ),
    sub(
        &["describe"],
        DESCRIBE,
        Data,
        &[],
        &[ex("git describe --tags --always --dirty", &[TOP])],
    ),
    sub(
        &["apply"],
        APPLY,
        Read,
        TREE,
        &[ex("git apply --check fix.patch", &["fix.patch"])],
    ),
    // They move and remove the files git tracks below their operands.
    sub(
        &["mv"],
        MV_RM_CLEAN,
        WriteTracked,
        TREE,
        &[ex("git mv -f a.rs b.rs", &["a.rs", "b.rs"])],
    ),
    sub(
        &["rm"],
        MV_RM_CLEAN,
        WriteTracked,
        &[Effect::Dirs],
        &[
            ex("git rm -r build", &["build"]),
            // Out of the index only: the work tree is read, not written.
            ex("git rm -r --cached build .env", &["build", ".env"]),
        ],
    ),
    Program {
        opts: CLEAN,
        operands: all(WriteTree).or(".", WriteTree),
        ..sub(
            &["clean"],
            MV_RM_CLEAN,
            WriteTree,
            &[Effect::Dirs],
            &[
                ex("git clean -fdx -e .env", &["."]),
                ex("git clean -n build", &["build"]),
            ],
        )
    },
    // Other subcommands of git itself (third-party ones, `git fame`, `git lfs`, run a
    // program `git-NAME`: unknown).
    Program {
        operands: all(Data).or(TOP, WriteTracked),
        ..sub(
            &["bisect"],
            BISECT,
            Data,
            TREE_HOOKS,
            &[
                ex("git bisect start HEAD v1", &[TOP]),
                ex("git bisect reset", &[TOP]),
            ],
        )
    },
    Program {
        operands: all(Pattern).or(TOP, WriteTracked),
        ..sub(
            &["sparse-checkout"],
            BISECT,
            Pattern,
            TREE,
            &[ex("git sparse-checkout set --cone src", &[TOP])],
        )
    },
    sub(
        &["mergetool"],
        BISECT,
        Read,
        TREE_HOOKS,
        &[Example {
            line: "git mergetool --no-prompt",
            paths: &[TOP],
            runs: &["a diff or merge tool (diff.tool, merge.tool, or vimdiff)"],
            unknown: &[],
        }],
    ),
    sub(
        &[
            "cherry",
            "range-diff",
            "request-pull",
            "pack-refs",
            "update-ref",
            "rerere",
            "mktag",
        ],
        PLUMBING,
        Data,
        &[],
        &[ex("git cherry -v main", &[])],
    ),
    sub(
        &["interpret-trailers"],
        INTERPRET_TRAILERS,
        Write,
        &[],
        &[ex(
            "git interpret-trailers --trailer 'Signed-off-by: a' msg.txt",
            &["msg.txt"],
        )],
    ),
    // Plumbing and other subcommands that read the repository and write nothing of
    // the work tree.
    sub(
        &["merge-base"],
        MERGE_BASE,
        Data,
        &[],
        &[ex("git merge-base --is-ancestor a b", &[])],
    ),
    sub(
        &["ls-remote"],
        LS_REMOTE,
        Data,
        NET,
        &[
            ex("git ls-remote --heads origin", &["origin"]),
            ex("git ls-remote ../other", &["../other"]),
        ],
    ),
    sub(
        &["hash-object"],
        HASH_OBJECT,
        Read,
        &[],
        &[ex("git hash-object -w f", &["f"])],
    ),
    sub(
        &[
            "rev-list",
            "for-each-ref",
            "show-ref",
            "symbolic-ref",
            "ls-tree",
            "name-rev",
            "count-objects",
            "var",
        ],
        PLUMBING,
        Data,
        &[],
        &[
            ex("git rev-list --count HEAD", &[]),
            ex("git for-each-ref --format=%(refname) refs/heads", &[]),
        ],
    ),
    // `git reflog` is `git reflog show`, `git log -g`: log's options (helper-78: `git
    // reflog -5`); its patches are the store's (`git_store.rs`).
    sub(
        &["reflog"],
        REVS,
        Data,
        &[],
        &[
            ex("git reflog -5", &[]),
            ex("git reflog show --oneline -3 main", &[]),
        ],
    ),
    sub(
        &["check-ignore", "check-attr"],
        CHECK,
        Pattern,
        &[],
        &[ex("git check-ignore -q .env", &[])],
    ),
    sub(
        &["format-patch"],
        FORMAT_PATCH,
        Data,
        &[],
        &[ex("git format-patch -o out -3", &["out", TOP])],
    ),
    sub(
        &["archive"],
        ARCHIVE,
        Data,
        &[],
        &[ex(
            "git archive --format=tar -o a.tar HEAD",
            &["a.tar", TOP],
        )],
    ),
    sub(
        &["gc", "version"],
        MAINTENANCE,
        Data,
        &[],
        &[ex("git gc --auto", &[])],
    ),
    Program {
        subs: SUBMODULE_SUBS,
        ..sub(
            &["submodule"],
            SUBMODULE,
            Data,
            &[],
            &[ex("git submodule", &[])],
        )
    },
];

const SUBMODULE_SUBS: &[Program] = &[
    sub(
        &[
            "status",
            "init",
            "deinit",
            "sync",
            "summary",
            "absorbgitdirs",
            "set-url",
            "set-branch",
        ],
        SUBMODULE,
        Read,
        &[],
        &[ex("git submodule status --recursive", &[])],
    ),
    sub(
        &["update"],
        SUBMODULE,
        Read,
        &[
            Effect::Network,
            Effect::Links,
            Effect::Dirs,
            Effect::ProjectCode,
        ],
        &[ex("git submodule update --init --recursive", &[])],
    ),
    Program {
        operands: first(Read, &[], Write),
        ..sub(
            &["add"],
            SUBMODULE,
            Read,
            &[Effect::Network, Effect::Links, Effect::Dirs],
            &[ex(
                "git submodule add https://x.org/r.git lib/r",
                &["https://x.org/r.git", "lib/r"],
            )],
        )
    },
];

/// git's subcommands: this file's and the plumbing's (`git_plumbing.rs`).
const SUBS: [Program; OWN_SUBS.len() + PLUMBING_SUBS.len()] = join(OWN_SUBS, PLUMBING_SUBS);

/// Every program of this file.
pub(super) static PROGRAMS: &[Program] = &[Program {
    names: &["git"],
    style: Style::Exact,
    opts: GIT,
    subs: &SUBS,
    effects: &[Effect::ProjectCode],
    reading_hook: Some(reading),
    // The repository's configuration, hooks and attributes (`$GIT_DIR`: the repository
    // git finds from the line's directory), the user's and the system's: what they say
    // runs (core.fsmonitor, aliases, hooks, filters). And less's (`LESS_HOME`): git
    // starts it as its pager when its output is a terminal.
    config: &[
        "$GIT_DIR/",
        "~/.gitconfig",
        "$XDG_CONFIG_HOME/git/",
        "/etc/gitconfig",
        "/etc/gitattributes",
        "~/.lesskey",
        "~/.less",
        "$XDG_CONFIG_HOME/lesskey",
        "$XDG_CONFIG_HOME/less",
    ],
    examples: &[
        ex("git -C sub status", &["sub", TOP]),
        ex("git --no-pager log -1", &[]),
        Example {
            line: "git -c core.pager=sh log",
            paths: &[],
            runs: &["core.pager=sh"],
            unknown: &[],
        },
        Example {
            line: "git frobnicate x",
            paths: &["x"],
            runs: &[],
            unknown: &["frobnicate"],
        },
        Example {
            line: "git status --frob",
            paths: &[TOP],
            runs: &[],
            unknown: &["--frob"],
        },
    ],
    ..BASE
}];
