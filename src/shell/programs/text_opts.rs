//! Option lists of the text tools (`cat`, `sort`, `sed`, ...; see `opts.rs`).

use super::Role::*;
use super::{flag, opt, val, Does, Opt, Role};

const D: Role = Data;

pub(super) const CAT: &[Opt] = &[
    flag("A", "show-all"),
    flag("b", "number-nonblank"),
    flag("e", ""),
    flag("E", "show-ends"),
    flag("n", "number"),
    flag("s", "squeeze-blank"),
    flag("t", ""),
    flag("T", "show-tabs"),
    flag("u", ""),
    flag("v", "show-nonprinting"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const HEAD: &[Opt] = &[
    val("c", "bytes", D),
    val("n", "lines", D),
    flag("q", "quiet"),
    flag("", "silent"),
    flag("v", "verbose"),
    flag("z", "zero-terminated"),
    flag("", "help"),
    flag("", "version"),
    flag("#", ""),
];

pub(super) const TAIL: &[Opt] = &[
    val("c", "bytes", D),
    opt("", "follow", D),
    flag("f", ""),
    flag("F", ""),
    val("n", "lines", D),
    val("", "max-unchanged-stats", D),
    val("", "pid", D),
    flag("q", "quiet"),
    flag("", "silent"),
    flag("", "retry"),
    val("s", "sleep-interval", D),
    flag("v", "verbose"),
    flag("z", "zero-terminated"),
    flag("", "help"),
    flag("", "version"),
    flag("#", ""),
];

pub(super) const WC: &[Opt] = &[
    flag("c", "bytes"),
    flag("m", "chars"),
    flag("l", "lines"),
    val("", "files0-from", NamesFrom),
    flag("L", "max-line-length"),
    flag("w", "words"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const SORT: &[Opt] = &[
    flag("b", "ignore-leading-blanks"),
    flag("d", "dictionary-order"),
    flag("f", "ignore-case"),
    flag("g", "general-numeric-sort"),
    flag("i", "ignore-nonprinting"),
    flag("M", "month-sort"),
    flag("h", "human-numeric-sort"),
    flag("n", "numeric-sort"),
    flag("R", "random-sort"),
    val("", "random-source", Read),
    flag("r", "reverse"),
    val("", "sort", D),
    flag("V", "version-sort"),
    val("", "batch-size", D),
    flag("c", ""),
    // `--check=quiet`: a value only glued (`-c` takes none).
    opt("", "check", D),
    flag("C", ""),
    val("", "compress-program", Argv),
    flag("", "debug"),
    val("", "files0-from", NamesFrom),
    val("k", "key", D),
    flag("m", "merge"),
    val("o", "output", Write),
    flag("s", "stable"),
    val("S", "buffer-size", D),
    val("t", "field-separator", D),
    val("T", "temporary-directory", Write),
    val("", "parallel", D),
    flag("u", "unique"),
    flag("z", "zero-terminated"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const UNIQ: &[Opt] = &[
    flag("c", "count"),
    flag("d", "repeated"),
    flag("D", ""),
    opt("", "all-repeated", D),
    val("f", "skip-fields", D),
    opt("", "group", D),
    flag("i", "ignore-case"),
    val("s", "skip-chars", D),
    flag("u", "unique"),
    flag("z", "zero-terminated"),
    val("w", "check-chars", D),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const CUT: &[Opt] = &[
    val("b", "bytes", D),
    val("c", "characters", D),
    val("d", "delimiter", D),
    val("f", "fields", D),
    flag("n", ""),
    flag("", "complement"),
    flag("s", "only-delimited"),
    val("", "output-delimiter", D),
    flag("z", "zero-terminated"),
    flag("", "help"),
    flag("", "version"),
    flag("M", ""),
];

pub(super) const TR: &[Opt] = &[
    flag("c", ""),
    flag("C", ""),
    flag("", "complement"),
    flag("d", "delete"),
    flag("s", "squeeze-repeats"),
    flag("t", "truncate-set1"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const DATE: &[Opt] = &[
    val("d", "date", Date),
    flag("", "debug"),
    // Each line a date string, whose `TZ="FILE"` names a file it reads.
    val("f", "file", NamesFrom),
    opt("I", "iso-8601", D),
    flag("", "resolution"),
    flag("R", "rfc-email"),
    val("", "rfc-3339", D),
    val("r", "reference", Read),
    val("s", "set", Date),
    flag("u", "utc"),
    flag("", "universal"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const SEQ: &[Opt] = &[
    val("f", "format", D),
    val("s", "separator", D),
    flag("w", "equal-width"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const TEE: &[Opt] = &[
    flag("a", "append"),
    flag("i", "ignore-interrupts"),
    flag("p", ""),
    opt("", "output-error", D),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const SED: &[Opt] = &[
    flag("n", "quiet"),
    flag("", "silent"),
    flag("", "debug"),
    val("e", "expression", Code),
    // A script file: its commands (`e CMD`, `w FILE`) are not read.
    val("f", "file", Hidden),
    flag("", "follow-symlinks"),
    opt("i", "in-place", D).does(Does::Beside("sed??????")),
    val("l", "line-length", D),
    flag("", "posix"),
    flag("E", ""),
    flag("r", ""),
    flag("", "regexp-extended"),
    flag("s", "separate"),
    flag("", "sandbox"),
    flag("u", "unbuffered"),
    flag("z", "null-data"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const NL: &[Opt] = &[
    val("b", "body-numbering", D),
    val("d", "section-delimiter", D),
    val("f", "footer-numbering", D),
    val("h", "header-numbering", D),
    val("i", "line-increment", D),
    val("l", "join-blank-lines", D),
    val("n", "number-format", D),
    flag("p", "no-renumber"),
    val("s", "number-separator", D),
    val("v", "starting-line-number", D),
    val("w", "number-width", D),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const PASTE: &[Opt] = &[
    val("d", "delimiters", D),
    flag("s", "serial"),
    flag("z", "zero-terminated"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const SHA256SUM: &[Opt] = &[
    flag("b", "binary"),
    // The operands list the files it opens and their sums.
    flag("c", "check").does(Does::Operands(NamesFrom, &[])),
    flag("", "tag"),
    flag("t", "text"),
    flag("z", "zero"),
    flag("", "ignore-missing"),
    flag("", "quiet"),
    flag("", "status"),
    flag("", "strict"),
    flag("w", "warn"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const MD5SUM: &[Opt] = &[
    flag("b", "binary"),
    // The operands list the files it opens and their sums.
    flag("c", "check").does(Does::Operands(NamesFrom, &[])),
    flag("", "tag"),
    flag("t", "text"),
    flag("z", "zero"),
    flag("", "ignore-missing"),
    flag("", "quiet"),
    flag("", "status"),
    flag("", "strict"),
    flag("w", "warn"),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const BASE64: &[Opt] = &[
    flag("d", "decode"),
    flag("i", "ignore-garbage"),
    val("w", "wrap", D),
    flag("", "help"),
    flag("", "version"),
];

pub(super) const OD: &[Opt] = &[
    val("A", "address-radix", D),
    val("", "endian", D),
    val("j", "skip-bytes", D),
    val("N", "read-bytes", D),
    opt("", "strings", D),
    val("S", "", D),
    val("t", "format", D),
    flag("v", "output-duplicates"),
    opt("w", "width", D),
    flag("", "traditional"),
    flag("", "help"),
    flag("", "version"),
    flag("a", ""),
    flag("b", ""),
    flag("c", ""),
    flag("d", ""),
    flag("f", ""),
    flag("i", ""),
    flag("l", ""),
    flag("o", ""),
    flag("s", ""),
    flag("x", ""),
];
