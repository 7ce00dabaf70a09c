//! git's plumbing subcommands, each with its own options (from `git SUB -h` and `man
//! git-SUB`, git 2.47): one letter means one thing in one subcommand only (`git
//! diff-tree -p` is a flag, `git commit-tree -p PARENT` takes a value). Writes into the
//! repository's own directory (`repack`, `prune`, `fsck --lost-found`) are not paths of
//! the line, as for `gc`; a file named by an option is.

use super::git_opts::sub;
use super::git_tree::TOP;
use super::Role::*;
use super::{
    all, ex, first, flag, opt, val, Example, Kind, Opt, Part, Program, Reading, Role, Run, BASE,
};

const D: Role = Data;

const SHOW_BRANCH: &[Opt] = &[
    flag("a", "all"),
    flag("", "no-all"),
    flag("r", "remotes"),
    flag("", "no-remotes"),
    opt("", "color", D),
    flag("", "no-color"),
    opt("", "more", D),
    flag("", "no-more"),
    flag("", "list"),
    flag("", "no-list"),
    flag("", "name"),
    flag("", "no-name"),
    flag("", "current"),
    flag("", "no-current"),
    flag("", "sha1-name"),
    flag("", "no-sha1-name"),
    flag("", "merge-base"),
    flag("", "independent"),
    flag("", "topo-order"),
    flag("", "date-order"),
    flag("", "topics"),
    flag("", "sparse"),
    opt("g", "reflog", D),
];

/// `commit-tree`: `-F FILE` reads the message from FILE.
const COMMIT_TREE: &[Opt] = &[
    val("p", "", D),
    val("m", "", D),
    val("F", "", Read),
    opt("S", "gpg-sign", D),
    flag("", "no-gpg-sign"),
];

const COLUMN: &[Opt] = &[
    val("", "command", D),
    opt("", "mode", D),
    flag("", "no-mode"),
    val("", "raw-mode", D),
    val("", "width", D),
    val("", "indent", D),
    val("", "nl", D),
    val("", "padding", D),
];

/// `commit-graph write`: it writes the graph into `--object-dir DIR`.
const COMMIT_GRAPH_WRITE: &[Opt] = &[
    val("", "object-dir", Write),
    flag("", "reachable"),
    flag("", "stdin-packs"),
    flag("", "stdin-commits"),
    flag("", "append"),
    flag("", "changed-paths"),
    flag("", "no-changed-paths"),
    opt("", "split", D),
    val("", "max-commits", D),
    val("", "size-multiple", D),
    val("", "expire-time", D),
    val("", "max-new-filters", D),
    flag("", "progress"),
    flag("", "no-progress"),
];

/// `commit-graph verify` (and `commit-graph` itself): it reads `--object-dir DIR`.
const COMMIT_GRAPH: &[Opt] = &[
    val("", "object-dir", Read),
    flag("", "shallow"),
    flag("", "progress"),
    flag("", "no-progress"),
];

const PRUNE: &[Opt] = &[
    flag("n", "dry-run"),
    flag("v", "verbose"),
    flag("", "progress"),
    flag("", "no-progress"),
    val("", "expire", D),
    flag("", "exclude-promisor-objects"),
];

/// verify-commit and verify-tag (`--format` is verify-tag's only).
const VERIFY: &[Opt] = &[flag("v", "verbose"), flag("", "raw"), val("", "format", D)];

const STRIPSPACE: &[Opt] = &[flag("s", "strip-comments"), flag("c", "comment-lines")];

const WRITE_TREE: &[Opt] = &[flag("", "missing-ok"), val("", "prefix", D)];

/// `repack`: `--expire-to` and `--filter-to` name a pack prefix it writes.
const REPACK: &[Opt] = &[
    flag("a", ""),
    flag("A", ""),
    flag("", "cruft"),
    val("", "cruft-expiration", D),
    val("", "max-cruft-size", D),
    flag("d", ""),
    flag("f", ""),
    flag("F", ""),
    flag("n", ""),
    flag("q", "quiet"),
    flag("l", "local"),
    flag("b", "write-bitmap-index"),
    flag("i", "delta-islands"),
    val("", "unpack-unreachable", D),
    flag("k", "keep-unreachable"),
    val("", "window", D),
    val("", "window-memory", D),
    val("", "depth", D),
    val("", "threads", D),
    val("", "max-pack-size", D),
    val("", "filter", D),
    flag("", "pack-kept-objects"),
    val("", "keep-pack", D),
    val("g", "geometric", D),
    flag("m", "write-midx"),
    val("", "expire-to", Write),
    val("", "filter-to", Write),
];

/// `fsck` (`--lost-found` writes into the repository's directory, as `gc` does).
const FSCK: &[Opt] = &[
    flag("v", "verbose"),
    flag("", "unreachable"),
    flag("", "dangling"),
    flag("", "no-dangling"),
    flag("", "tags"),
    flag("", "root"),
    flag("", "cache"),
    flag("", "reflogs"),
    flag("", "no-reflogs"),
    flag("", "full"),
    flag("", "no-full"),
    flag("", "connectivity-only"),
    flag("", "strict"),
    flag("", "lost-found"),
    flag("", "progress"),
    flag("", "no-progress"),
    flag("", "name-objects"),
    flag("", "no-name-objects"),
];

/// diff-files, diff-index and diff-tree: the diff options they share (`-O FILE` reads
/// the order of the paths from FILE; `--output FILE` writes) and their own, none of
/// which gives a letter two meanings among the three.
const DIFF_PLUMBING: &[Opt] = &[
    flag("p", "patch"),
    flag("u", ""),
    flag("s", "no-patch"),
    opt("U", "unified", D),
    flag("", "raw"),
    flag("", "patch-with-raw"),
    flag("", "patch-with-stat"),
    opt("", "stat", D),
    flag("", "numstat"),
    flag("", "shortstat"),
    opt("", "dirstat", D),
    flag("", "summary"),
    flag("", "name-only"),
    flag("", "name-status"),
    flag("z", ""),
    opt("", "abbrev", D),
    flag("", "full-index"),
    flag("", "binary"),
    opt("B", "break-rewrites", D),
    opt("M", "find-renames", D),
    opt("C", "find-copies", D),
    flag("", "find-copies-harder"),
    flag("", "no-renames"),
    flag("D", "irreversible-delete"),
    val("l", "", D),
    val("", "diff-filter", D),
    val("S", "", D),
    val("G", "", Pattern),
    flag("", "pickaxe-all"),
    flag("", "pickaxe-regex"),
    val("O", "", Read),
    flag("R", ""),
    opt("", "relative", D),
    flag("", "no-relative"),
    flag("a", "text"),
    flag("w", "ignore-all-space"),
    flag("b", "ignore-space-change"),
    flag("", "ignore-space-at-eol"),
    flag("", "ignore-blank-lines"),
    flag("", "exit-code"),
    flag("", "quiet"),
    flag("", "no-ext-diff"),
    flag("", "no-textconv"),
    opt("", "ignore-submodules", D),
    val("", "src-prefix", D),
    val("", "dst-prefix", D),
    flag("", "no-prefix"),
    opt("", "color", D),
    flag("", "no-color"),
    opt("", "word-diff", D),
    val("", "output", Write),
    flag("", "minimal"),
    flag("", "patience"),
    flag("", "histogram"),
    flag("", "check"),
    // diff-files
    flag("0", ""),
    flag("1", "base"),
    flag("2", "ours"),
    flag("3", "theirs"),
    flag("c", ""),
    flag("", "cc"),
    flag("q", ""),
    // diff-index
    flag("", "cached"),
    flag("m", ""),
    flag("", "merge-base"),
    // diff-tree
    flag("r", ""),
    flag("t", ""),
    flag("", "root"),
    flag("", "stdin"),
    flag("v", ""),
    flag("", "no-commit-id"),
    opt("", "pretty", D),
    val("", "format", D),
    flag("", "always"),
    flag("", "combined-all-paths"),
];

/// `bundle` (`create FILE` writes FILE; the others read it).
const BUNDLE: &[Opt] = &[
    flag("q", "quiet"),
    flag("", "progress"),
    flag("", "no-progress"),
    flag("", "all"),
    flag("#", ""),
    val("", "since", D),
    val("", "version", D),
];

/// `notes` and its subcommands (`-F FILE` reads the message from FILE; `add` and `edit`
/// without `-m` run the editor, code of git's configuration).
const NOTES: &[Opt] = &[
    val("", "ref", D),
    flag("f", "force"),
    flag("", "allow-empty"),
    opt("", "separator", D),
    flag("", "no-separator"),
    flag("", "stripspace"),
    flag("", "no-stripspace"),
    val("m", "message", D),
    val("F", "file", Read),
    val("c", "reedit-message", D),
    val("C", "reuse-message", D),
    val("s", "strategy", D),
    flag("", "commit"),
    flag("", "abort"),
    flag("v", "verbose"),
    flag("q", "quiet"),
    flag("n", "dry-run"),
    flag("", "ignore-missing"),
    flag("", "stdin"),
    val("", "for-rewrite", D),
];

/// `fast-export`: `--export-marks FILE` writes FILE, `--import-marks FILE` reads it.
const FAST_EXPORT: &[Opt] = &[
    val("", "progress", D),
    val("", "signed-tags", D),
    val("", "signed-commits", D),
    val("", "tag-of-filtered-object", D),
    val("", "reencode", D),
    val("", "export-marks", Write),
    val("", "import-marks", Read),
    val("", "import-marks-if-exists", Read),
    flag("", "fake-missing-tagger"),
    flag("", "full-tree"),
    flag("", "use-done-feature"),
    flag("", "no-data"),
    flag("", "data"),
    val("", "refspec", D),
    flag("", "anonymize"),
    val("", "anonymize-map", D),
    flag("", "reference-excluded-parents"),
    flag("", "show-original-ids"),
    flag("", "mark-tags"),
    flag("", "all"),
    flag("", "branches"),
    flag("", "tags"),
    flag("#", ""),
    val("n", "max-count", D),
    val("", "since", D),
    val("", "until", D),
];

const CHECK_REF_FORMAT: &[Opt] = &[
    flag("", "normalize"),
    flag("", "branch"),
    flag("", "allow-onelevel"),
    flag("", "no-allow-onelevel"),
    flag("", "refspec-pattern"),
];

/// `replace` (`--edit` runs the editor, code of git's configuration).
const REPLACE: &[Opt] = &[
    flag("l", "list"),
    flag("d", "delete"),
    flag("e", "edit"),
    flag("g", "graft"),
    flag("", "convert-graft-file"),
    flag("f", "force"),
    flag("", "raw"),
    val("", "format", D),
];

/// `maintenance` and its subcommands (`--config-file FILE` of `register` and
/// `unregister` writes FILE).
const MAINTENANCE_OPTS: &[Opt] = &[
    flag("", "auto"),
    flag("", "detach"),
    flag("", "no-detach"),
    val("", "schedule", D),
    flag("", "quiet"),
    flag("", "no-quiet"),
    val("", "task", D),
    val("", "scheduler", D),
    val("", "config-file", Write),
    flag("", "force"),
];

const BUNDLE_SUBS: &[Program] = &[
    Program {
        operands: first(Write, &[], Data),
        ..sub(
            &["create"],
            BUNDLE,
            Data,
            &[],
            &[ex(
                "git bundle create r.bundle --all",
                &["r.bundle", TOP, "r.bundle.lock"],
            )],
        )
    },
    Program {
        operands: first(Read, &[], Data),
        ..sub(
            &["verify", "list-heads", "unbundle"],
            BUNDLE,
            Data,
            &[],
            &[ex("git bundle verify -q r.bundle", &["r.bundle"])],
        )
    },
];

const COMMIT_GRAPH_SUBS: &[Program] = &[
    sub(
        &["write"],
        COMMIT_GRAPH_WRITE,
        Data,
        &[],
        &[
            ex("git commit-graph write --reachable --changed-paths", &[]),
            ex("git commit-graph write --object-dir o --append", &["o"]),
        ],
    ),
    sub(
        &["verify"],
        COMMIT_GRAPH,
        Data,
        &[],
        &[ex("git commit-graph verify --shallow", &[])],
    ),
];

/// The plumbing subcommands of this file (joined to git's others in `git.rs`).
pub(super) const PLUMBING_SUBS: &[Program] = &[
    sub(
        &["show-branch"],
        SHOW_BRANCH,
        Data,
        &[],
        &[
            ex("git show-branch --all --list", &[]),
            ex("git show-branch --sha1-name --current main", &[]),
            ex("git show-branch -r --more=5 a b", &[]),
        ],
    ),
    sub(
        &["commit-tree"],
        COMMIT_TREE,
        Data,
        &[],
        &[
            ex("git commit-tree t -p HEAD -m msg", &[]),
            Example {
                line: "git commit-tree t -F msg.txt -S",
                paths: &["msg.txt"],
                runs: &["gpg (gpg.program), to sign or check a signature"],
                unknown: &[],
            },
        ],
    ),
    sub(
        &["column"],
        COLUMN,
        Data,
        &[],
        &[ex("git column --mode=column --width 80 --padding 2", &[])],
    ),
    Program {
        subs: COMMIT_GRAPH_SUBS,
        ..sub(
            &["commit-graph"],
            COMMIT_GRAPH,
            Data,
            &[],
            &[ex("git commit-graph verify", &[])],
        )
    },
    sub(
        &["prune"],
        PRUNE,
        Data,
        &[],
        &[ex("git prune -n --progress --expire now", &[])],
    ),
    sub(
        &["verify-commit", "verify-tag"],
        VERIFY,
        Data,
        &[],
        &[
            Example {
                line: "git verify-commit --raw -v HEAD",
                paths: &[],
                runs: &["gpg (gpg.program), to sign or check a signature"],
                unknown: &[],
            },
            Example {
                line: "git verify-tag --format=%(tag) v1",
                paths: &[],
                runs: &["gpg (gpg.program), to sign or check a signature"],
                unknown: &[],
            },
        ],
    ),
    sub(
        &["stripspace"],
        STRIPSPACE,
        Data,
        &[],
        &[ex("git stripspace -s", &[]), ex("git stripspace -c", &[])],
    ),
    sub(
        &["write-tree"],
        WRITE_TREE,
        Data,
        &[],
        &[ex("git write-tree --missing-ok --prefix=src/", &[])],
    ),
    sub(
        &["repack"],
        REPACK,
        Data,
        &[],
        &[
            ex("git repack -a -d -q", &[]),
            ex("git repack -ad --expire-to=../old", &["../old"]),
        ],
    ),
    sub(
        &["fsck"],
        FSCK,
        Data,
        &[],
        &[
            ex("git fsck --tags --root", &[]),
            // It writes the blobs no ref reaches into `.git/lost-found/`.
            ex("git fsck --lost-found", &[TOP]),
        ],
    ),
    Program {
        operands: all(WalkTracked).or(TOP, WalkTracked),
        ..sub(
            &["diff-files"],
            DIFF_PLUMBING,
            WalkTracked,
            &[],
            &[
                ex("git diff-files --summary", &[TOP]),
                ex("git diff-files -p -0 a.rs", &["a.rs"]),
            ],
        )
    },
    Program {
        operands: first(Data, &[], WalkTracked).or(TOP, WalkTracked),
        ..sub(
            &["diff-index"],
            DIFF_PLUMBING,
            WalkTracked,
            &[],
            &[
                ex("git diff-index --quiet HEAD", &[TOP]),
                ex("git diff-index -m HEAD src", &["src"]),
            ],
        )
    },
    sub(
        &["diff-tree"],
        DIFF_PLUMBING,
        Read,
        &[],
        &[
            ex("git diff-tree -r --patch a b", &["a", "b", TOP]),
            ex(
                "git diff-tree -O order.txt -p a b",
                &["order.txt", "a", "b", TOP],
            ),
        ],
    ),
    Program {
        subs: BUNDLE_SUBS,
        ..sub(
            &["bundle"],
            BUNDLE,
            Data,
            &[],
            &[ex(
                "git bundle create b.bundle -5 HEAD",
                &["b.bundle", TOP, "b.bundle.lock"],
            )],
        )
    },
    sub(
        &["notes"],
        NOTES,
        Data,
        &[],
        &[
            ex("git notes append --message=x HEAD", &[]),
            ex("git notes add -F note.txt HEAD", &["note.txt"]),
        ],
    ),
    sub(
        &["fast-export"],
        FAST_EXPORT,
        Read,
        &[],
        &[
            ex("git fast-export --progress 5 --all", &[TOP]),
            ex("git fast-export --export-marks=m --all", &["m", TOP]),
        ],
    ),
    sub(
        &["check-ref-format"],
        CHECK_REF_FORMAT,
        Data,
        &[],
        &[ex("git check-ref-format --normalize refs/heads/x", &[])],
    ),
    sub(
        &["replace"],
        REPLACE,
        Data,
        &[],
        &[Example {
            line: "git replace --edit HEAD",
            paths: &[TOP],
            runs: &["the editor (core.editor, $GIT_EDITOR, $VISUAL, $EDITOR or vi)"],
            unknown: &[],
        }],
    ),
    // `git credential fill` and the cache ask helpers for passwords (see `git_tools`);
    // the store keeps them in `~/.git-credentials` and `~/.config/git/credentials`, or
    // the `--file` it is given.
    sub(
        &["credential"],
        &[],
        Data,
        &[],
        &[Example {
            line: "git credential fill",
            paths: &[],
            runs: &["the credential helpers git's configuration names (credential.helper), which print the passwords they keep"],
            unknown: &[],
        }],
    ),
    sub(
        &["credential-cache"],
        &[val("", "timeout", Data), val("", "socket", Read)],
        Data,
        &[],
        &[Example {
            line: "git credential-cache get",
            paths: &[],
            runs: &["the credential cache daemon, which prints the passwords it keeps"],
            unknown: &[],
        }],
    ),
    // (Its files without `--file`: `credential_store`.)
    sub(
        &["credential-store"],
        &[val("", "file", Write)],
        Data,
        &[],
        &[
            ex(
                "git credential-store get",
                &["~/.git-credentials", "~/.config/git/credentials"],
            ),
            ex("git credential-store --file=c.txt get", &["c.txt"]),
        ],
    ),
    sub(
        &["maintenance"],
        MAINTENANCE_OPTS,
        Data,
        &[],
        &[ex("git maintenance run --task gc --quiet", &[])],
    ),
];

/// `git credential-store`: without `--file` it reads and writes the user's credential
/// files.
fn credential_store(r: &mut Reading) {
    if r.sub != Some("credential-store") || r.has_option("file") {
        return;
    }
    for text in ["~/.git-credentials", "~/.config/git/credentials"] {
        r.parts.push(Part {
            text: text.into(),
            kind: Kind::Implied,
            role: Write,
        });
    }
}

/// git's [`Program::reading_hook`]: the work tree, the store and `add` (`git_store`),
/// then the lock file of `bundle create FILE`: git writes `FILE.lock` beside FILE and
/// renames it over FILE (seen under strace, git 2.47).
pub(super) fn reading(r: &mut Reading) {
    // `-c KEY=VALUE` of a key whose value git never runs (`color.ui=never`): data.
    for p in r.parts.iter_mut() {
        if p.kind == Kind::Value && p.role == Hidden && super::inert_config(&p.text) {
            p.role = Data;
        }
    }
    r.runs
        .retain(|run| !matches!(run, Run::Hidden(t) if super::inert_config(t)));
    super::git_store::git_reading(r);
    super::git_tools::tools(r);
    credential_store(r);
    // An object name (`HEAD:src/x`) is no path where git runs: the file it names is
    // read under the top of the work tree (see `wrap::options`).
    let objects = r
        .sub
        .is_some_and(|s| super::OBJECT_SUBCOMMANDS.contains(&s));
    for p in r.parts.iter_mut() {
        if objects
            && p.kind == Kind::Operand
            && p.role.is_path()
            && super::object_path(&p.text).is_some()
        {
            p.role = Data;
        }
    }
    let mut subs = r.parts.iter().filter(|p| p.kind == Kind::Subcommand);
    let create = matches!(
        (subs.next(), subs.next()),
        (Some(a), Some(b)) if a.text == "bundle" && b.text == "create"
    );
    if !create {
        return;
    }
    let file = r
        .parts
        .iter()
        .find(|p| p.kind == Kind::Operand && p.role == Write && p.text != "-")
        .map(|p| format!("{}.lock", p.text));
    if let Some(text) = file {
        r.parts.push(Part {
            text,
            kind: Kind::Implied,
            role: Write,
        });
    }
}

/// SUBS and MORE as one list (the length N is checked when the table is built).
pub(super) const fn join<const N: usize>(subs: &[Program], more: &[Program]) -> [Program; N] {
    let mut out = [BASE; N];
    let mut i = 0;
    while i < subs.len() {
        out[i] = subs[i];
        i += 1;
    }
    let mut j = 0;
    while j < more.len() {
        out[i + j] = more[j];
        j += 1;
    }
    out
}
