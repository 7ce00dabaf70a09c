//! The option lists of git's less everyday subcommands (see `git.rs`; the everyday
//! ones are in `git_opts.rs`).

use super::Role::*;
use super::{flag, opt, val, Opt, Role};

const D: Role = Data;

/// bisect, sparse-checkout, mergetool: their common options (`bisect run CMD` gives a
/// command: the `wrap` reader reads it).
pub(super) const BISECT: &[Opt] = &[
    val("", "term-old", D),
    val("", "term-new", D),
    val("", "term-good", D),
    val("", "term-bad", D),
    flag("", "no-checkout"),
    flag("", "first-parent"),
    flag("", "cone"),
    flag("", "no-cone"),
    flag("", "sparse-index"),
    flag("", "skip-checks"),
    flag("", "stdin"),
    val("t", "tool", D),
    flag("y", "no-prompt"),
    flag("", "prompt"),
    flag("g", "gui"),
    flag("", "no-gui"),
    flag("O", ""),
    flag("", "tool-help"),
];

pub(super) const MERGE_BASE: &[Opt] = &[
    flag("a", "all"),
    flag("", "octopus"),
    flag("", "independent"),
    flag("", "is-ancestor"),
    flag("", "fork-point"),
];

pub(super) const LS_REMOTE: &[Opt] = &[
    flag("h", "heads"),
    flag("", "branches"),
    flag("t", "tags"),
    flag("", "refs"),
    flag("q", "quiet"),
    flag("", "exit-code"),
    flag("", "get-url"),
    val("", "sort", D),
    val("o", "server-option", D),
    flag("", "symref"),
];

/// `hash-object` (`--stdin-paths` reads names from data: see `hooks::names_from_data`).
pub(super) const HASH_OBJECT: &[Opt] = &[
    val("t", "", D),
    flag("w", ""),
    flag("", "stdin"),
    flag("", "stdin-paths"),
    val("", "path", D),
    flag("", "no-filters"),
    flag("", "literally"),
];

/// Plumbing that lists refs, objects and names (rev-list, for-each-ref, show-ref,
/// symbolic-ref, ls-tree, name-rev, count-objects, var).
pub(super) const PLUMBING: &[Opt] = &[
    flag("", "all"),
    flag("", "count"),
    flag("", "objects"),
    flag("", "left-only"),
    flag("", "right-only"),
    flag("", "left-right"),
    flag("", "reverse"),
    flag("", "first-parent"),
    flag("", "no-merges"),
    flag("", "merges"),
    val("n", "max-count", D),
    val("", "since", D),
    val("", "until", D),
    val("", "format", D),
    val("", "sort", D),
    val("", "points-at", D),
    opt("", "merged", D),
    opt("", "no-merged", D),
    val("", "contains", D),
    val("", "no-contains", D),
    val("", "exclude", Pattern),
    flag("", "shell"),
    flag("", "perl"),
    flag("", "python"),
    flag("", "tcl"),
    flag("", "ignore-case"),
    flag("", "head"),
    flag("", "heads"),
    flag("", "tags"),
    flag("", "branches"),
    flag("d", "dereference"),
    opt("s", "hash", D),
    flag("", "verify"),
    flag("", "exists"),
    flag("q", "quiet"),
    opt("", "abbrev", D),
    flag("", "short"),
    flag("", "delete"),
    val("m", "", D),
    flag("", "no-recurse"),
    flag("r", ""),
    flag("t", ""),
    flag("l", "long"),
    flag("z", ""),
    flag("", "name-only"),
    flag("", "name-status"),
    flag("", "object-only"),
    flag("", "full-name"),
    flag("", "full-tree"),
    val("", "refs", Pattern),
    flag("", "annotate-stdin"),
    flag("", "no-undefined"),
    flag("", "always"),
    flag("v", "verbose"),
    flag("H", "human-readable"),
];

/// check-ignore and check-attr: their operands (and the names `--stdin` reads) are
/// matched against rules, not opened.
pub(super) const CHECK: &[Opt] = &[
    flag("q", "quiet"),
    flag("v", "verbose"),
    flag("n", "non-matching"),
    flag("z", ""),
    flag("", "no-index"),
    flag("a", "all"),
    flag("", "cached"),
    val("", "source", D),
    flag("", "stdin"),
];

pub(super) const FORMAT_PATCH: &[Opt] = &[
    val("o", "output-directory", Write),
    flag("", "stdout"),
    flag("", "cover-letter"),
    flag("n", "numbered"),
    flag("N", "no-numbered"),
    val("v", "reroll-count", D),
    val("", "subject-prefix", D),
    flag("s", "signoff"),
    flag("", "root"),
    flag("#", ""),
    opt("", "thread", D),
    val("", "base", D),
    val("", "to", D),
    val("", "cc", D),
    opt("", "from", D),
    flag("k", "keep-subject"),
    flag("", "no-stat"),
    flag("q", "quiet"),
    flag("", "zero-commit"),
];

pub(super) const ARCHIVE: &[Opt] = &[
    val("", "format", D),
    val("o", "output", Write),
    val("", "prefix", D),
    flag("l", "list"),
    flag("v", "verbose"),
    flag("", "worktree-attributes"),
    flag("#", ""),
];

pub(super) const MAINTENANCE: &[Opt] = &[
    flag("", "aggressive"),
    flag("", "auto"),
    opt("", "prune", D),
    flag("", "no-prune"),
    flag("q", "quiet"),
    flag("", "force"),
    flag("", "keep-largest-pack"),
    flag("", "progress"),
    flag("", "no-progress"),
    flag("", "build-options"),
];

/// `submodule` and its subcommands (`foreach` gives a command: not listed, the `wrap`
/// reader reads it).
pub(super) const SUBMODULE: &[Opt] = &[
    flag("q", "quiet"),
    flag("", "init"),
    flag("", "recursive"),
    flag("", "remote"),
    flag("", "no-fetch"),
    flag("", "checkout"),
    flag("", "rebase"),
    flag("", "merge"),
    flag("f", "force"),
    val("", "depth", D),
    val("j", "jobs", D),
    val("", "filter", D),
    flag("", "single-branch"),
    flag("", "cached"),
    flag("", "files"),
    val("b", "branch", D),
    val("", "name", D),
];
