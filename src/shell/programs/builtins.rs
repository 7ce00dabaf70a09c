//! Shell builtins and small utilities: what their words are. The builtins that change how
//! later words are read (`set -k`, `declare -n`, `hash -p`, `shopt`) are made opaque by the
//! `wrap` reader before the table is asked; the table only types their words. `env`,
//! `command`, `nohup`, `time`, `timeout`, `nice` are wrappers, read by `wrap` (see
//! `xargs` in `dev.rs` for one whose entry agrees with it).

use super::text_opts::SHA256SUM;
use super::Role::*;
use super::{
    all, ex, flag, opt, val, Does, Effect, Example, Operands, Opt, Program, Role, Style, BASE,
};

use super::builtin_hooks::{bind_includes, fc_runs, history_file, read_line_editing};

const D: Role = Data;

/// bash 5.2's builtins, as `compgen -b` lists them (checked by `tests/shell.rs`).
pub const BASH_BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// An entry of NAMES whose operands are data and whose options end at the first
/// operand (bash's builtins read their options so).
const fn builtin(names: &'static [&'static str], opts: &'static [Opt]) -> Program {
    Program {
        names,
        style: Style::Posix,
        opts,
        ..BASE
    }
}

const CD: &[Opt] = &[flag("L", ""), flag("P", ""), flag("e", ""), flag("@", "")];

/// `declare`, `typeset`, `local` (which takes declare's options).
const DECLARE: &[Opt] = &[
    flag("a", ""),
    flag("A", ""),
    flag("f", ""),
    flag("F", ""),
    flag("g", ""),
    flag("i", ""),
    flag("I", ""),
    flag("l", ""),
    flag("n", ""),
    flag("r", ""),
    flag("t", ""),
    flag("u", ""),
    flag("x", ""),
    flag("p", ""),
];

/// `set`'s letters (`-o NAME` takes a value; `+x` is an operand to the table, data).
const SET: &[Opt] = &[
    flag("a", ""),
    flag("b", ""),
    flag("e", ""),
    flag("f", ""),
    flag("h", ""),
    flag("k", ""),
    flag("m", ""),
    flag("n", ""),
    val("o", "", D),
    flag("p", ""),
    flag("t", ""),
    flag("u", ""),
    flag("v", ""),
    flag("x", ""),
    flag("B", ""),
    flag("C", ""),
    flag("E", ""),
    flag("H", ""),
    flag("P", ""),
    flag("T", ""),
];

/// `read`: it reads standard input into variables (data), from a descriptor with `-u`.
const READ: &[Opt] = &[
    flag("e", ""),
    flag("r", ""),
    flag("s", ""),
    val("a", "", D),
    val("d", "", D),
    val("i", "", D),
    val("n", "", D),
    val("N", "", D),
    val("p", "", D),
    val("t", "", D),
    val("u", "", D),
];

/// `ulimit`'s letters: which limit, soft or hard; the limit is the operand.
const ULIMIT: &[Opt] = &[
    flag("S", ""),
    flag("H", ""),
    flag("a", ""),
    flag("b", ""),
    flag("c", ""),
    flag("d", ""),
    flag("e", ""),
    flag("f", ""),
    flag("i", ""),
    flag("k", ""),
    flag("l", ""),
    flag("m", ""),
    flag("n", ""),
    flag("p", ""),
    flag("q", ""),
    flag("r", ""),
    flag("s", ""),
    flag("t", ""),
    flag("u", ""),
    flag("v", ""),
    flag("x", ""),
    flag("P", ""),
    flag("R", ""),
    flag("T", ""),
];

/// `history`: its operand is a number (`history 5`) or the words `-p`/`-s` take, but
/// a file with `-a`, `-n`, `-r` or `-w` (bash refuses more than one of them).
const HISTORY: &[Opt] = &[
    flag("c", ""),
    val("d", "", D),
    flag("a", ""),
    flag("n", ""),
    flag("r", ""),
    flag("w", ""),
    flag("p", ""),
    flag("s", ""),
];

/// `enable`'s operands that are no builtin are shared objects it loads (not with `-d`,
/// which deletes one loaded, `-p`, which prints, or `-f FILE`, whose builtins they name).
fn enable_files(r: &mut super::Reading) {
    if r.given.iter().any(|g| matches!(g.short, "d" | "p" | "f")) {
        return;
    }
    let mut searched = Vec::new();
    for p in &mut r.parts {
        if p.kind == super::Kind::Operand && !BASH_BUILTINS.contains(&p.text.as_str()) {
            p.role = Read;
            // A name without `/` is looked for along `BASH_LOADABLES_PATH` too, which
            // the line or the shell's environment may set (helper-66:
            // `BASH_LOADABLES_PATH=~/.ssh enable id_rsa` opens the key): any file.
            if !p.text.contains('/') {
                searched.push(p.text.clone());
            }
        }
    }
    r.parts.extend(searched.into_iter().map(|text| super::Part {
        text,
        kind: super::Kind::Implied,
        role: NamesFrom,
    }));
}

/// `bind`: `-f` reads readline's key bindings from a file; the others name keymaps,
/// functions and key sequences (`-x` binds a command to a key, which only a shell
/// reading lines from a terminal runs), and its operands are lines of such a file (the
/// `wrap` reader makes every `bind` opaque: such lines may `$include` any file).
const BIND: &[Opt] = &[
    val("m", "", D),
    flag("l", ""),
    flag("p", ""),
    flag("P", ""),
    flag("s", ""),
    flag("S", ""),
    flag("v", ""),
    flag("V", ""),
    flag("X", ""),
    val("q", "", D),
    val("u", "", D),
    val("r", "", D),
    val("f", "", Read),
    val("x", "", D),
];

/// `test` and `[`: their unary and binary operators, single-dash words (`-nt`); any
/// other operand is a path they test (read generously: `=` and `]` too).
const TEST: &[Opt] = &[
    flag("", "a"),
    flag("", "b"),
    flag("", "c"),
    flag("", "d"),
    flag("", "e"),
    flag("", "f"),
    flag("", "g"),
    flag("", "G"),
    flag("", "h"),
    flag("", "k"),
    flag("", "L"),
    flag("", "n"),
    flag("", "N"),
    flag("", "o"),
    flag("", "O"),
    flag("", "p"),
    flag("", "r"),
    flag("", "R"),
    flag("", "s"),
    flag("", "S"),
    flag("", "t"),
    flag("", "u"),
    flag("", "v"),
    flag("", "w"),
    flag("", "x"),
    flag("", "z"),
    flag("", "eq"),
    flag("", "ne"),
    flag("", "lt"),
    flag("", "le"),
    flag("", "gt"),
    flag("", "ge"),
    flag("", "nt"),
    flag("", "ot"),
    flag("", "ef"),
];

const HELP: &[Opt] = &[flag("", "help"), flag("", "version")];

const MKTEMP: &[Opt] = &[
    flag("d", "directory"),
    flag("u", "dry-run"),
    flag("q", "quiet"),
    flag("t", ""),
    val("p", "", Write),
    opt("", "tmpdir", Write),
    val("", "suffix", D),
    flag("", "help"),
    flag("", "version"),
];

const FOLD: &[Opt] = &[
    flag("b", "bytes"),
    flag("s", "spaces"),
    val("w", "width", D),
    flag("", "help"),
    flag("", "version"),
];

const REV: &[Opt] = &[flag("0", "zero"), flag("h", "help"), flag("V", "version")];

const TAC: &[Opt] = &[
    flag("b", "before"),
    flag("r", "regex"),
    val("s", "separator", D),
    flag("", "help"),
    flag("", "version"),
];

/// xxd's options are single-dash words it compares by name (`-ps`, `-cols`); a value
/// glued to its option (`-c16`) is not read here (unknown). The options end at the
/// first operand for xxd; here an option word after the operands is still an option
/// (`xxd f -r` writes a file `-r` in its directory).
const XXD: &[Opt] = &[
    flag("", "a"),
    flag("", "autoskip"),
    flag("", "b"),
    flag("", "bits"),
    flag("", "C"),
    flag("", "capitalize"),
    flag("", "d"),
    flag("", "e"),
    flag("", "E"),
    flag("", "EBCDIC"),
    flag("", "h"),
    flag("", "help"),
    flag("", "i"),
    flag("", "include"),
    flag("", "p"),
    flag("", "ps"),
    flag("", "postscript"),
    flag("", "plain"),
    flag("", "r"),
    flag("", "revert"),
    flag("", "u"),
    flag("", "v"),
    flag("", "version"),
    val("", "c", D),
    val("", "cols", D),
    val("", "g", D),
    val("", "groupsize", D),
    val("", "l", D),
    val("", "len", D),
    val("", "n", D),
    val("", "name", D),
    val("", "o", D),
    val("", "offset", D),
    val("", "s", D),
    val("", "seek", D),
    val("", "R", D),
];

const CKSUM: &[Opt] = &[
    val("a", "algorithm", D),
    // The operands list the files it opens and their sums.
    flag("c", "check").does(Does::Operands(NamesFrom, &[])),
    val("l", "length", D),
    flag("", "tag"),
    flag("", "untagged"),
    flag("", "base64"),
    flag("", "raw"),
    flag("z", "zero"),
    flag("", "ignore-missing"),
    flag("", "quiet"),
    flag("", "status"),
    flag("", "strict"),
    flag("w", "warn"),
    flag("", "debug"),
    flag("", "help"),
    flag("", "version"),
];

const UNAME: &[Opt] = &[
    flag("a", "all"),
    flag("s", "kernel-name"),
    flag("n", "nodename"),
    flag("r", "kernel-release"),
    flag("v", "kernel-version"),
    flag("m", "machine"),
    flag("p", "processor"),
    flag("i", "hardware-platform"),
    flag("o", "operating-system"),
    flag("", "help"),
    flag("", "version"),
];

const ID: &[Opt] = &[
    flag("a", ""),
    flag("Z", "context"),
    flag("g", "group"),
    flag("G", "groups"),
    flag("n", "name"),
    flag("r", "real"),
    flag("u", "user"),
    flag("z", "zero"),
    flag("", "help"),
    flag("", "version"),
];

/// Debian's `hostname` (net-tools); an operand sets the host name (root only).
const HOSTNAME: &[Opt] = &[
    flag("a", "alias"),
    flag("A", "all-fqdns"),
    flag("b", "boot"),
    flag("d", "domain"),
    flag("f", "fqdn"),
    flag("", "long"),
    val("F", "file", Read),
    flag("i", "ip-address"),
    flag("I", "all-ip-addresses"),
    flag("s", "short"),
    flag("y", "yp"),
    flag("", "nis"),
    flag("V", "version"),
    flag("h", "help"),
];

/// Every program of this file.
pub(super) static PROGRAMS: &[Program] = &[
    Program {
        operands: all(Chdir),
        examples: &[
            ex("cd src", &["src"]),
            ex("cd -P ..", &[".."]),
            ex("cd", &[]),
        ],
        ..builtin(&["cd"], CD)
    },
    Program {
        operands: all(Chdir),
        examples: &[ex("pushd src", &["src"]), ex("pushd -n /tmp", &["/tmp"])],
        ..builtin(&["pushd"], &[flag("n", "")])
    },
    Program {
        examples: &[ex("popd", &[]), ex("popd -n +1", &[])],
        ..builtin(&["popd"], &[flag("n", "")])
    },
    Program {
        examples: &[
            ex("export A=~/.ssh/id_rsa B", &[]),
            ex("export -n A", &[]),
            ex("export -p", &[]),
        ],
        ..builtin(&["export"], &[flag("f", ""), flag("n", ""), flag("p", "")])
    },
    Program {
        examples: &[
            ex("declare -a a=x", &[]),
            ex("typeset -r X=1", &[]),
            ex("local -x f=.env", &[]),
        ],
        ..builtin(&["declare", "typeset", "local"], DECLARE)
    },
    Program {
        examples: &[ex("readonly -a A B=1", &[])],
        ..builtin(
            &["readonly"],
            &[flag("a", ""), flag("A", ""), flag("f", ""), flag("p", "")],
        )
    },
    Program {
        examples: &[ex("unset -v A B", &[])],
        ..builtin(&["unset"], &[flag("f", ""), flag("v", ""), flag("n", "")])
    },
    Program {
        examples: &[
            ex("set -euo pipefail", &[]),
            ex("set -- a .env", &[]),
            ex("set +x", &[]),
        ],
        ..builtin(&["set"], SET)
    },
    Program {
        style: Style::Loose,
        examples: &[ex("shift 2", &[])],
        ..builtin(&["shift"], &[])
    },
    Program {
        examples: &[
            ex("read -r line", &[]),
            ex("read -p 'Name: ' -t 5 x", &[]),
            Example {
                line: "read -re -t 1 x",
                paths: &[],
                runs: &["readline, which reads `~/.inputrc` (or `$INPUTRC`) and the files it `$include`s"],
                unknown: &[],
            },
        ],
        reading_hook: Some(read_line_editing),
        ..builtin(&["read"], READ)
    },
    Program {
        examples: &[
            ex("history 5", &[]),
            ex("history -d 3", &[]),
            Example {
                line: "history -s make test",
                paths: &[],
                runs: &["make test"],
                unknown: &[],
            },
            // helper-63: bash opens the file (`history -r FILE; history` prints it).
            ex("history -r .env", &[".env"]),
            ex("history -n ~/.bash_history", &["~/.bash_history"]),
            ex("history -w out.txt", &["out.txt", "out.txt-*.tmp"]),
        ],
        reading_hook: Some(history_file),
        ..builtin(&["history"], HISTORY)
    },
    Program {
        // It runs commands from the history (the `wrap` reader makes it opaque): the
        // editor `-e` names is a command of the line; see `fc_runs`.
        examples: &[
            ex("fc -l 10 20", &[]),
            Example {
                line: "fc -e rm",
                paths: &[],
                runs: &["rm"],
                unknown: &[],
            },
            Example {
                line: "fc -e - ls=rm",
                paths: &[],
                runs: &["rm", "commands from the history"],
                unknown: &[],
            },
            Example {
                line: "fc -s ls=rm",
                paths: &[],
                runs: &["rm", "commands from the history"],
                unknown: &[],
            },
            Example {
                line: "fc 3",
                paths: &[],
                runs: &["the editor `$FCEDIT` or `$EDITOR` (or `vi`), on commands from the history, which it then runs"],
                unknown: &[],
            },
        ],
        reading_hook: Some(fc_runs),
        ..builtin(
            &["fc"],
            &[
                val("e", "", Argv),
                flag("l", ""),
                flag("n", ""),
                flag("r", ""),
                flag("s", ""),
            ],
        )
    },
    Program {
        // `-C` runs a callback: the `wrap` reader makes the line opaque.
        examples: &[
            ex("mapfile -t lines", &[]),
            ex("readarray -d '' -n 5 -s 1 -O 2 a", &[]),
        ],
        ..builtin(
            &["mapfile", "readarray"],
            &[
                val("d", "", D),
                val("n", "", D),
                val("O", "", D),
                val("s", "", D),
                flag("t", ""),
                val("u", "", D),
                val("C", "", D),
                val("c", "", D),
            ],
        )
    },
    Program {
        examples: &[ex("help cd", &[]), ex("help -d 'read*'", &[])],
        ..builtin(&["help"], &[flag("d", ""), flag("m", ""), flag("s", "")])
    },
    Program {
        examples: &[ex("ulimit -a", &[]), ex("ulimit -Sn 4096", &[])],
        ..builtin(&["ulimit"], ULIMIT)
    },
    Program {
        examples: &[ex("times", &[])],
        ..builtin(&["times"], &[])
    },
    Program {
        examples: &[ex("caller 0", &[])],
        ..builtin(&["caller"], &[])
    },
    Program {
        examples: &[
            ex("bind -p", &[]),
            ex("bind -q forward-word", &[]),
            ex("bind '\"\\C-x\": kill-line'", &[]),
            ex("bind -f .env", &[".env", ".env"]),
            ex("bind -m vi -f ~/.inputrc", &["~/.inputrc", "~/.inputrc"]),
            ex("bind '$include ~/.ssh/id_rsa'", &["~/.ssh/id_rsa"]),
            ex("bind '$ INCLUDE  x'", &["x"]),
            ex("bind 'aaaaaaaé x' '$includé x'", &[]),
            ex("bind '$include.env'", &[]),
        ],
        reading_hook: Some(bind_includes),
        ..builtin(&["bind"], BIND)
    },
    Program {
        // `enable -f` loads code into the shell, and so does a name that is no builtin
        // (helper-64: `enable ./x.so`): the `wrap` reader makes the line opaque; the
        // files it opens are read here.
        examples: &[
            ex("enable -n kill", &[]),
            ex("enable -f ./ext.so ext", &["./ext.so"]),
            ex("enable -n ./x.so kill", &["./x.so"]),
            ex("enable -d ./x.so", &[]),
            ex("enable -ps .env", &[]),
            ex("enable id_rsa", &["id_rsa", "id_rsa"]),
        ],
        reading_hook: Some(enable_files),
        ..builtin(
            &["enable"],
            &[
                flag("a", ""),
                flag("d", ""),
                flag("n", ""),
                flag("p", ""),
                flag("s", ""),
                val("f", "", Read),
            ],
        )
    },
    Program {
        examples: &[ex("printf '%s\\n' .env", &[]), ex("printf -v x %d 1", &[])],
        ..builtin(&["printf"], &[val("v", "", D)])
    },
    Program {
        style: Style::SingleDash,
        operands: all(Read),
        examples: &[
            ex("test -f .env", &[".env"]),
            ex("[ -d src -a ! -L src ]", &["src", "src", "]"]),
            ex("test a.o -nt a.c", &["a.o", "a.c"]),
            Example {
                line: "[ x -gt -1 ]",
                paths: &["x", "]"],
                runs: &[],
                unknown: &["-1"],
            },
        ],
        ..builtin(&["test", "["], TEST)
    },
    Program {
        style: Style::Loose,
        examples: &[ex(": x y", &[])],
        ..builtin(&[":"], &[])
    },
    Program {
        style: Style::Loose,
        examples: &[ex("exit 1", &[])],
        ..builtin(&["exit"], &[])
    },
    Program {
        style: Style::Loose,
        examples: &[ex("return 0", &[])],
        ..builtin(&["return"], &[])
    },
    Program {
        style: Style::Loose,
        examples: &[ex("break 2", &[])],
        ..builtin(&["break"], &[])
    },
    Program {
        style: Style::Loose,
        examples: &[ex("continue", &[])],
        ..builtin(&["continue"], &[])
    },
    // `command -v NAME`, `command -V NAME`: how a name would run, printed (with no `-v`
    // or `-V`, `command CMD` runs CMD: read as a wrapper before the table).
    Program {
        examples: &[
            ex("command -v rg", &[]),
            ex("command -V ls", &[]),
            ex("command -pv git", &[]),
        ],
        ..builtin(&["command"], &[flag("p", ""), flag("v", ""), flag("V", "")])
    },
    Program {
        examples: &[ex("type -t ls", &[]), ex("type -a python3", &[])],
        ..builtin(
            &["type"],
            &[
                flag("a", ""),
                flag("f", ""),
                flag("P", ""),
                flag("p", ""),
                flag("t", ""),
            ],
        )
    },
    Program {
        examples: &[
            ex("hash -r", &[]),
            Example {
                line: "hash -p /tmp/x ls",
                paths: &[],
                runs: &[],
                unknown: &["-p"],
            },
        ],
        ..builtin(
            &["hash"],
            &[flag("r", ""), flag("d", ""), flag("l", ""), flag("t", "")],
        )
    },
    Program {
        examples: &[ex("umask 022", &[]), ex("umask -S", &[])],
        ..builtin(&["umask"], &[flag("p", ""), flag("S", "")])
    },
    Program {
        examples: &[ex("wait", &[]), ex("wait -n %1", &[])],
        ..builtin(&["wait"], &[flag("n", ""), flag("f", ""), val("p", "", D)])
    },
    Program {
        style: Style::Gnu,
        examples: &[ex("sleep 0.1", &[])],
        ..builtin(&["sleep"], HELP)
    },
    Program {
        style: Style::Gnu,
        operands: all(Write),
        effects: &[Effect::Dirs],
        examples: &[
            ex("mktemp -d", &[]),
            ex("mktemp -p /tmp x.XXXX", &["/tmp", "x.XXXX", "/tmp/x.XXXX"]),
            ex(
                "mktemp --tmpdir=build -d t.XXX",
                &["build", "t.XXX", "build/t.XXX"],
            ),
            // The template is read from the directory `-p` gives.
            ex(
                "mktemp -p d ../e/xXXXXX",
                &["d", "../e/xXXXXX", "d/../e/xXXXXX"],
            ),
        ],
        reading_hook: Some(super::hooks::mktemp_dir),
        ..builtin(&["mktemp"], MKTEMP)
    },
    Program {
        style: Style::Gnu,
        operands: all(Read),
        examples: &[ex("fold -w 80 -s f", &["f"])],
        ..builtin(&["fold"], FOLD)
    },
    Program {
        style: Style::Gnu,
        operands: all(Read),
        examples: &[ex("rev f", &["f"])],
        ..builtin(&["rev"], REV)
    },
    Program {
        style: Style::Gnu,
        operands: all(Read),
        examples: &[ex("tac -s , f", &["f"])],
        ..builtin(&["tac"], TAC)
    },
    Program {
        style: Style::SingleDash,
        operands: Operands {
            last: Some(Write),
            ..all(Read)
        },
        examples: &[
            ex("xxd -l 64 f", &["f"]),
            ex("xxd -r -p hex out.bin", &["hex", "out.bin"]),
            ex("xxd -ps -c 32 f", &["f"]),
            Example {
                line: "xxd -c16 f",
                paths: &["f"],
                runs: &[],
                unknown: &["-c16"],
            },
        ],
        ..builtin(&["xxd"], XXD)
    },
    Program {
        style: Style::Gnu,
        operands: all(Read),
        examples: &[ex("sha1sum f", &["f"]), ex("sha512sum -c sums", &["sums"])],
        ..builtin(
            &["sha1sum", "sha224sum", "sha384sum", "sha512sum", "b2sum"],
            SHA256SUM,
        )
    },
    Program {
        style: Style::Gnu,
        operands: all(Read),
        examples: &[ex("cksum -a sha256 f", &["f"])],
        ..builtin(&["cksum"], CKSUM)
    },
    Program {
        style: Style::Gnu,
        examples: &[ex("uname -sr", &[])],
        ..builtin(&["uname"], UNAME)
    },
    Program {
        style: Style::Gnu,
        examples: &[ex("id -un", &[]), ex("id root", &[])],
        ..builtin(&["id"], ID)
    },
    Program {
        style: Style::Gnu,
        examples: &[ex("whoami", &[])],
        ..builtin(&["whoami"], HELP)
    },
    Program {
        style: Style::Gnu,
        examples: &[ex("hostname -f", &[]), ex("hostname -F f", &["f"])],
        ..builtin(&["hostname"], HOSTNAME)
    },
];
