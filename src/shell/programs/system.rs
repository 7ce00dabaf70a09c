//! Programs that print what the system is (its environment, processors, memory, load,
//! configuration values, locales) and `column`, which lays out the files it reads: what
//! a coding agent runs to look around. Their options from their own `--help` (coreutils
//! 9.1, procps 4.0, glibc 2.36, util-linux 2.38). `free -s`/`-c` (which repeat until
//! stopped) and `locale -m` (which runs `gzip` on each character map) are left out:
//! unknown, so not certain.

use super::Role::*;
use super::{all, ex, first, flag, val, Opt, Program, Role, BASE};

const D: Role = Data;

const PRINTENV: &[Opt] = &[flag("0", "null"), flag("", "help"), flag("", "version")];

const NPROC: &[Opt] = &[
    flag("", "all"),
    val("", "ignore", D),
    flag("", "help"),
    flag("", "version"),
];

const UPTIME: &[Opt] = &[
    flag("p", "pretty"),
    flag("s", "since"),
    flag("h", "help"),
    flag("V", "version"),
];

const FREE: &[Opt] = &[
    flag("b", "bytes"),
    flag("k", "kibi"),
    flag("m", "mebi"),
    flag("g", "gibi"),
    flag("", "tebi"),
    flag("", "pebi"),
    flag("", "kilo"),
    flag("", "mega"),
    flag("", "giga"),
    flag("", "tera"),
    flag("", "peta"),
    flag("h", "human"),
    flag("", "si"),
    flag("l", "lohi"),
    flag("L", "line"),
    flag("t", "total"),
    flag("v", "committed"),
    flag("w", "wide"),
    flag("", "help"),
    flag("V", "version"),
];

const GETCONF: &[Opt] = &[flag("a", ""), val("v", "", D)];

const LOCALE: &[Opt] = &[
    flag("a", "all-locales"),
    flag("c", "category-name"),
    flag("k", "keyword-name"),
    flag("v", "verbose"),
    flag("", "help"),
    flag("V", "version"),
];

const COLUMN: &[Opt] = &[
    flag("t", "table"),
    val("s", "separator", D),
    val("o", "output-separator", D),
    val("c", "output-width", D),
    flag("x", "fillrows"),
    val("n", "table-name", D),
    val("N", "table-columns", D),
    val("l", "table-columns-limit", D),
    val("R", "table-right", D),
    val("T", "table-truncate", D),
    val("E", "table-noextreme", D),
    val("W", "table-wrap", D),
    val("H", "table-hide", D),
    val("O", "table-order", D),
    flag("e", "table-header-repeat"),
    flag("L", "keep-empty-lines"),
    flag("J", "json"),
    val("r", "tree", D),
    val("i", "tree-id", D),
    val("p", "tree-parent", D),
    flag("d", "table-noheadings"),
    flag("h", "help"),
    flag("V", "version"),
];

/// Every program of this file.
pub(super) static PROGRAMS: &[Program] = &[
    Program {
        names: &["printenv"],
        opts: PRINTENV,
        examples: &[ex("printenv HOME", &[]), ex("printenv -0", &[])],
        ..BASE
    },
    Program {
        names: &["nproc"],
        opts: NPROC,
        examples: &[ex("nproc --all", &[]), ex("nproc --ignore=1", &[])],
        ..BASE
    },
    Program {
        names: &["uptime"],
        opts: UPTIME,
        examples: &[ex("uptime -p", &[])],
        ..BASE
    },
    Program {
        names: &["free"],
        opts: FREE,
        examples: &[ex("free -h", &[]), ex("free -mt", &[])],
        ..BASE
    },
    Program {
        names: &["getconf"],
        style: super::Style::Posix,
        opts: GETCONF,
        // `getconf NAME [PATH]`: a path's value is asked of its file system.
        operands: first(Data, &["a"], Read),
        examples: &[
            ex("getconf PAGESIZE", &[]),
            ex("getconf PATH_MAX /tmp", &["/tmp"]),
        ],
        ..BASE
    },
    Program {
        names: &["locale"],
        opts: LOCALE,
        examples: &[ex("locale", &[]), ex("locale -a", &[])],
        ..BASE
    },
    Program {
        names: &["column"],
        opts: COLUMN,
        operands: all(Read),
        examples: &[
            ex("column -t -s, data.csv", &["data.csv"]),
            ex("column -t", &[]),
        ],
        ..BASE
    },
];
