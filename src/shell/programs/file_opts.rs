//! Option lists of the tools that name, make, move and change files (`cp`, `rm`,
//! `make`, ...; see `opts.rs`).

use super::Role::*;
use super::{flag, opt, val, Does, Opt, Role};

const D: Role = Data;

pub(super) const PWD: &[Opt] = &[
    flag("L", "logical"),
    flag("P", "physical"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const BASENAME: &[Opt] = &[
    flag("a", "multiple"),
    val("s", "suffix", D),
    flag("z", "zero"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const DIRNAME: &[Opt] = &[flag("z", "zero"), flag("", "help"), flag("", "version")];

pub(super) const REALPATH: &[Opt] = &[
    flag("e", "canonicalize-existing"),
    flag("m", "canonicalize-missing"),
    flag("L", "logical"),
    flag("P", "physical"),
    flag("q", "quiet"),
    val("", "relative-to", Read),
    val("", "relative-base", Read),
    flag("s", "strip"),
    flag("", "no-symlinks"),
    flag("z", "zero"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const READLINK: &[Opt] = &[
    flag("f", "canonicalize"),
    flag("e", "canonicalize-existing"),
    flag("m", "canonicalize-missing"),
    flag("n", "no-newline"),
    flag("q", "quiet"),
    flag("s", "silent"),
    flag("v", "verbose"),
    flag("z", "zero"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const STAT: &[Opt] = &[
    flag("L", "dereference"),
    flag("f", "file-system"),
    val("", "cached", D),
    val("c", "format", D),
    val("", "printf", D),
    flag("t", "terse"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const MKDIR: &[Opt] = &[
    val("m", "mode", D),
    flag("p", "parents"),
    flag("v", "verbose"),
    flag("Z", ""),
    opt("", "context", D),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const RMDIR: &[Opt] = &[
    flag("", "ignore-fail-on-non-empty"),
    flag("p", "parents"),
    flag("v", "verbose"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const TOUCH: &[Opt] = &[
    flag("a", ""),
    flag("c", "no-create"),
    val("d", "date", Date),
    flag("f", ""),
    flag("h", "no-dereference"),
    flag("m", ""),
    val("r", "reference", Read),
    val("t", "", D),
    val("", "time", D),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const CP: &[Opt] = &[
    flag("a", "archive").does(Does::Operands(Walk, &[])),
    flag("", "attributes-only"),
    opt("", "backup", D),
    flag("b", ""),
    flag("", "copy-contents"),
    flag("d", ""),
    flag("f", "force"),
    flag("i", "interactive"),
    flag("H", ""),
    flag("l", "link"),
    flag("L", "dereference"),
    flag("n", "no-clobber"),
    flag("P", "no-dereference"),
    flag("p", ""),
    opt("", "preserve", D),
    val("", "no-preserve", D),
    flag("", "parents"),
    flag("R", "").does(Does::Operands(Walk, &[])),
    flag("r", "").does(Does::Operands(Walk, &[])),
    flag("", "recursive").does(Does::Operands(Walk, &[])),
    opt("", "reflink", D),
    flag("", "remove-destination"),
    val("", "sparse", D),
    flag("", "strip-trailing-slashes"),
    flag("s", "symbolic-link"),
    val("S", "suffix", D),
    val("t", "target-directory", Write),
    flag("T", "no-target-directory"),
    flag("u", "update"),
    flag("v", "verbose"),
    flag("x", "one-file-system"),
    flag("Z", ""),
    opt("", "context", D),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const MV: &[Opt] = &[
    opt("", "backup", D),
    flag("b", ""),
    flag("f", "force"),
    flag("i", "interactive"),
    flag("n", "no-clobber"),
    flag("", "strip-trailing-slashes"),
    val("S", "suffix", D),
    val("t", "target-directory", Write),
    flag("T", "no-target-directory"),
    flag("u", "update"),
    flag("v", "verbose"),
    flag("Z", "context"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const LN: &[Opt] = &[
    opt("", "backup", D),
    flag("b", ""),
    flag("d", ""),
    flag("F", ""),
    flag("", "directory"),
    flag("f", "force"),
    flag("i", "interactive"),
    flag("L", "logical"),
    flag("n", "no-dereference"),
    flag("P", "physical"),
    flag("r", "relative"),
    flag("s", "symbolic"),
    val("S", "suffix", D),
    val("t", "target-directory", Write),
    flag("T", "no-target-directory"),
    flag("v", "verbose"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const RM: &[Opt] = &[
    flag("f", "force"),
    flag("i", ""),
    flag("I", ""),
    opt("", "interactive", D),
    flag("", "one-file-system"),
    flag("", "no-preserve-root"),
    opt("", "preserve-root", D),
    flag("r", "").does(Does::Operands(WriteTree, &[])),
    flag("R", "").does(Does::Operands(WriteTree, &[])),
    flag("", "recursive").does(Does::Operands(WriteTree, &[])),
    flag("d", "dir"),
    flag("v", "verbose"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const CHMOD: &[Opt] = &[
    flag("c", "changes"),
    flag("f", "silent"),
    flag("", "quiet"),
    flag("v", "verbose"),
    flag("", "no-preserve-root"),
    flag("", "preserve-root"),
    val("", "reference", Read),
    flag("R", "recursive").does(Does::Operands(WriteTree, &[])),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const CHOWN: &[Opt] = &[
    flag("c", "changes"),
    flag("f", "silent"),
    flag("", "quiet"),
    flag("v", "verbose"),
    flag("", "dereference"),
    flag("h", "no-dereference"),
    val("", "from", D),
    flag("", "no-preserve-root"),
    flag("", "preserve-root"),
    val("", "reference", Read),
    flag("R", "recursive").does(Does::Operands(WriteTree, &[])),
    flag("H", ""),
    flag("L", ""),
    flag("P", ""),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const GZIP: &[Opt] = &[
    flag("c", "stdout"),
    flag("d", "decompress"),
    flag("f", "force"),
    flag("h", "help"),
    flag("k", "keep"),
    flag("l", "list"),
    flag("L", "license"),
    flag("n", "no-name"),
    flag("N", "name"),
    flag("q", "quiet"),
    // Every file below a directory operand, each compressed or decompressed in place.
    flag("r", "recursive").does(Does::Operands(WriteTree, &[])),
    flag("", "rsyncable"),
    val("S", "suffix", D),
    flag("t", "test"),
    flag("v", "verbose"),
    flag("V", "version"),
    flag("1", "fast"),
    flag("9", "best"),
    flag("#", ""),
];

pub(super) const MAKE: &[Opt] = &[
    flag("b", ""),
    flag("m", ""),
    flag("B", "always-make"),
    val("C", "directory", Chdir),
    flag("d", ""),
    opt("", "debug", D),
    flag("e", "environment-overrides"),
    val("E", "eval", Hidden),
    val("f", "file", Read),
    val("", "makefile", Read),
    flag("h", "help"),
    flag("i", "ignore-errors"),
    val("I", "include-dir", Read),
    opt("j", "jobs", D),
    flag("k", "keep-going"),
    opt("l", "load-average", D),
    opt("", "max-load", D),
    flag("L", "check-symlink-times"),
    flag("n", "just-print"),
    flag("", "dry-run"),
    flag("", "recon"),
    val("o", "old-file", D),
    val("", "assume-old", D),
    opt("O", "output-sync", D),
    flag("p", "print-data-base"),
    flag("q", "question"),
    flag("r", "no-builtin-rules"),
    flag("R", "no-builtin-variables"),
    flag("s", "silent"),
    flag("", "quiet"),
    flag("", "no-silent"),
    flag("S", "no-keep-going"),
    flag("", "stop"),
    flag("t", "touch"),
    flag("", "trace"),
    flag("v", "version"),
    flag("w", "print-directory"),
    flag("", "no-print-directory"),
    val("W", "what-if", D),
    val("", "new-file", D),
    val("", "assume-new", D),
    flag("", "warn-undefined-variables"),
];
