//! The program table: what each program does with its words. Each entry's option list
//! is in `opts.rs`, `text_opts.rs` or `file_opts.rs` (drafted from the program's own
//! `--help`); its examples are checked by `tests/programs.rs` through the reading.
//!
//! To add a program: draft its options with `scripts/table-opts.py`, set the roles of the
//! options that take values, write its entry here with the roles of its operands and a
//! few examples, and run `cargo test --release --test programs`.

use super::file_opts::*;
use super::opts::*;
use super::text_opts::*;
use super::Role::*;
use super::{all, ex, first, Effect, Example, Operands, Program, Style, BASE};

/// Every program the table knows.
pub(super) static PROGRAMS: &[Program] = &[
    Program {
        names: &["rg"],
        style: Style::Exact,
        opts: RG,
        operands: first(
            Pattern,
            &["e", "regexp", "f", "file", "files", "type-list"],
            WalkVisible,
        )
        .or(".", WalkVisible),
        examples: &[
            ex("rg -n TODO src", &["src"]),
            ex("rg --files", &["."]),
            ex("rg TODO", &["."]),
            ex("rg -e .env -g '!*.lock' .", &["."]),
            ex(
                "rg --no-hidden --no-follow --no-messages TODO src",
                &["src"],
            ),
            Example {
                line: "rg --pre 'rm x' --no-pre foo .",
                paths: &["."],
                runs: &["rm x"],
                unknown: &[],
            },
            Example {
                line: "rg --pre 'rm -rf x' foo .",
                paths: &["."],
                runs: &["rm -rf x"],
                unknown: &[],
            },
            Example {
                line: "rg --pre=sh foo",
                paths: &["."],
                runs: &["sh"],
                unknown: &[],
            },
            Example {
                line: "rg --pr=sh foo",
                paths: &["."],
                runs: &[],
                unknown: &["--pr=sh"],
            },
        ],
        ..BASE
    },
    Program {
        names: &["fd", "fdfind"],
        style: Style::Exact,
        opts: FD,
        operands: first(Pattern, &[], List).or(".", List),
        examples: &[
            ex("fd -e rs . src", &["src"]),
            ex("fdfind -H -E .git .env", &["."]),
            ex("fd --search-path src x", &["src"]),
            Example {
                line: "fd -t f . -x rm -f {} ;",
                paths: &["."],
                runs: &["rm -f {}"],
                unknown: &[],
            },
            Example {
                line: "fd -X rm",
                paths: &["."],
                runs: &["rm {}"],
                unknown: &[],
            },
            // A placeholder other than `{}` is a name only fd knows (`{/.}`: the base
            // name without its extension, opened in the directory fd runs in).
            Example {
                line: "fd -e md -x grep -l x {/.}",
                paths: &["."],
                runs: &["grep -l x {/.}"],
                unknown: &["{/.}"],
            },
            ex("fd --base-directory /tmp x", &["/tmp", "."]),
            ex("fd -e c --format {/.} . src", &["src"]),
        ],
        reading_hook: Some(super::hooks::fd_names_at_end),
        ..BASE
    },
    Program {
        names: &["grep", "egrep", "fgrep"],
        opts: GREP,
        operands: first(Pattern, &["e", "regexp", "f", "file"], Read),
        examples: &[
            ex("grep -rn TODO --exclude=.env .", &["."]),
            ex("grep -r TODO", &["."]),
            // `-e` after it makes the first operand a file too (getopt permutes).
            ex("grep f.txt -e x", &["f.txt"]),
            ex("grep -R -f pats.txt", &["pats.txt", "."]),
            ex("grep --directories=recurse x d", &["d"]),
            ex("grep -d skip x d", &["d"]),
            ex("grep x", &[]),
            ex("grep x .env", &[".env"]),
            ex("grep -e a -e b f g", &["f", "g"]),
            ex("grep -f pats.txt src", &["pats.txt", "src"]),
            ex("grep -C3 -nE 'a|b' f", &["f"]),
            ex("grep -5 x f", &["f"]),
            Example {
                line: "grep --frobnicate x f",
                paths: &["f"],
                runs: &[],
                unknown: &["--frobnicate"],
            },
        ],
        ..BASE
    },
    Program {
        names: &["ls"],
        opts: LS,
        operands: all(Read).or(".", Read),
        examples: &[
            ex("ls -la", &["."]),
            ex("ls -R", &["."]),
            ex("ls -la --ignore=.env src ~/x", &["src", "~/x"]),
            ex("ls -w 80 -T 4 d", &["d"]),
        ],
        ..BASE
    },
    Program {
        names: &["cat"],
        opts: CAT,
        operands: all(Read),
        examples: &[
            ex("cat .env", &[".env"]),
            ex("cat -n a - b", &["a", "-", "b"]),
        ],
        ..BASE
    },
    Program {
        names: &["echo"],
        style: Style::Loose,
        opts: ECHO,
        examples: &[ex("echo .env", &[]), ex("echo -n -x y", &[])],
        ..BASE
    },
    Program {
        names: &["head"],
        opts: HEAD,
        operands: all(Read),
        examples: &[
            ex("head -n 20 src/a.rs", &["src/a.rs"]),
            ex("head -5 f", &["f"]),
        ],
        ..BASE
    },
    Program {
        names: &["tail"],
        opts: TAIL,
        operands: all(Read),
        examples: &[
            ex("tail -f -n 100 log.txt", &["log.txt"]),
            ex("tail -3 f", &["f"]),
        ],
        ..BASE
    },
    Program {
        names: &["wc"],
        opts: WC,
        operands: all(Read),
        examples: &[
            ex("wc -l a b", &["a", "b"]),
            ex("wc --files0-from=list", &["list"]),
        ],
        ..BASE
    },
    Program {
        names: &["sort"],
        opts: SORT,
        operands: all(Read),
        examples: &[
            ex("sort -u -k2,2 -t: f", &["f"]),
            ex("sort -o out.txt in.txt", &["out.txt", "in.txt"]),
            Example {
                line: "sort --compress-program=gzip f",
                paths: &["f"],
                runs: &["gzip"],
                unknown: &[],
            },
        ],
        ..BASE
    },
    Program {
        names: &["uniq"],
        opts: UNIQ,
        operands: Operands {
            last: Some(Write),
            ..all(Read)
        },
        examples: &[ex("uniq -c", &[]), ex("uniq -d in out", &["in", "out"])],
        ..BASE
    },
    Program {
        names: &["cut"],
        opts: CUT,
        operands: all(Read),
        examples: &[ex("cut -d: -f1 /etc/passwd", &["/etc/passwd"])],
        ..BASE
    },
    Program {
        names: &["tr"],
        opts: TR,
        examples: &[ex("tr -d '\\r'", &[]), ex("tr a-z A-Z", &[])],
        ..BASE
    },
    Program {
        names: &["pwd"],
        style: Style::Posix,
        opts: PWD,
        examples: &[ex("pwd -P", &[])],
        ..BASE
    },
    Program {
        names: &["basename"],
        opts: BASENAME,
        examples: &[
            ex("basename ~/.ssh/id_rsa", &[]),
            ex("basename -s .rs src/a.rs", &[]),
        ],
        ..BASE
    },
    Program {
        names: &["dirname"],
        opts: DIRNAME,
        examples: &[ex("dirname ~/.ssh/id_rsa", &[])],
        ..BASE
    },
    Program {
        names: &["realpath"],
        opts: REALPATH,
        operands: all(Read),
        examples: &[ex("realpath --relative-to=. src/a", &[".", "src/a"])],
        ..BASE
    },
    Program {
        names: &["readlink"],
        opts: READLINK,
        operands: all(Read),
        examples: &[ex("readlink -f link", &["link"])],
        ..BASE
    },
    Program {
        names: &["stat"],
        opts: STAT,
        operands: all(Read),
        examples: &[ex("stat -c %s f", &["f"])],
        ..BASE
    },
    Program {
        names: &["du"],
        opts: DU,
        operands: all(List).or(".", List),
        examples: &[
            ex("du -sh --exclude=.git .", &["."]),
            ex("du -sh", &["."]),
            ex("du -d 1 src", &["src"]),
        ],
        ..BASE
    },
    Program {
        names: &["df"],
        opts: DF,
        operands: all(Read),
        examples: &[ex("df -h .", &["."])],
        ..BASE
    },
    Program {
        names: &["diff"],
        opts: DIFF,
        // Any operand may be a directory, whose files it compares (`diff ../a ../b`
        // opens `../a/.env`), or the directory of the other's name (`diff id_rsa
        // ~/.ssh` opens `~/.ssh/id_rsa`): each is read as a tree (helper-85).
        operands: all(Walk),
        examples: &[
            ex("diff -u a b", &["a", "b"]),
            ex("diff -ru -x .env old new", &["old", "new"]),
            ex(
                "diff --new-line-format=+%L --old-line-format=-%L --unchanged-line-format= a b",
                &["a", "b"],
            ),
            ex("diff --changed-group-format=%> a b", &["a", "b"]),
        ],
        ..BASE
    },
    Program {
        names: &["cmp"],
        opts: CMP,
        operands: all(Read),
        examples: &[ex("cmp -s a b", &["a", "b"])],
        ..BASE
    },
    Program {
        names: &["comm"],
        opts: COMM,
        operands: all(Read),
        examples: &[ex("comm -12 a b", &["a", "b"])],
        ..BASE
    },
    Program {
        names: &["mkdir"],
        opts: MKDIR,
        operands: all(Write),
        effects: &[Effect::Dirs],
        examples: &[
            ex("mkdir -p build/out", &["build/out"]),
            ex("mkdir -m 700 d", &["d"]),
        ],
        ..BASE
    },
    Program {
        names: &["rmdir"],
        opts: RMDIR,
        operands: all(Write),
        effects: &[Effect::Dirs],
        examples: &[ex("rmdir -p a/b", &["a/b"])],
        ..BASE
    },
    Program {
        names: &["touch"],
        opts: TOUCH,
        operands: all(Write),
        examples: &[
            ex("touch -d yesterday f", &["f"]),
            ex("touch -r ref f", &["ref", "f"]),
        ],
        ..BASE
    },
    Program {
        names: &["cp"],
        opts: CP,
        operands: Operands {
            last: Some(Write),
            ..all(Read)
        },
        effects: &[Effect::Links, Effect::Dirs],
        // It copies or makes links only so (`-a`, `-d`, `-P`, `-R`/`-r` copy them as
        // links; `-s`, `-l` make them).
        links_with: &[
            "symbolic-link",
            "link",
            "archive",
            "d",
            "no-dereference",
            "R",
            "r",
            "recursive",
            "preserve",
            // A backup renames what is at the destination, a link included.
            "backup",
            "b",
            "suffix",
        ],
        examples: &[
            ex("cp .env /tmp", &[".env", "/tmp", "/tmp/.env"]),
            ex("cp .env /tmp/", &[".env", "/tmp/", "/tmp/.env"]),
            ex("cp -r src -t /tmp/x", &["src", "/tmp/x", "/tmp/x/src"]),
            ex("cp -a src ~/backup", &["src", "~/backup", "~/backup/src"]),
            ex(
                "cp .bashrc \"$HOME\"",
                &[".bashrc", "$HOME", "$HOME/.bashrc"],
            ),
            ex("cp -rT k ..", &["k", ".."]),
            ex(
                "cp -b -S v README.md .en",
                &[
                    "README.md",
                    ".en",
                    ".en/README.md",
                    ".en/README.mdv",
                    ".env",
                ],
            ),
            ex("cp --backup a b", &["a", "b", "b/a", "b/a~", "b~"]),
            ex("cp -a src ~/backup/", &["src", "~/backup/", "~/backup/src"]),
            ex("cp x/.bashrc ~/", &["x/.bashrc", "~/", "~/.bashrc"]),
            ex("cp -r x/. d/", &["x/.", "d/", "d"]),
            ex("cp -T a b", &["a", "b"]),
        ],
        reading_hook: Some(super::dest::into_directory),
        ..BASE
    },
    Program {
        names: &["mv"],
        opts: MV,
        operands: all(Write),
        effects: &[Effect::Links, Effect::Dirs],
        examples: &[
            ex("mv -f a b", &["a", "b", "b/a"]),
            ex("mv x/.bashrc ~", &["x/.bashrc", "~", "~/.bashrc"]),
            ex("mv -t /tmp a d/", &["/tmp", "a", "d/", "/tmp/a", "/tmp/d"]),
            ex("mv -T a b", &["a", "b"]),
            ex("mv --t=/tmp a", &["/tmp", "a", "/tmp/a"]),
            ex("mv -vt/tmp a", &["/tmp", "a", "/tmp/a"]),
        ],
        reading_hook: Some(super::dest::into_directory),
        ..BASE
    },
    Program {
        names: &["ln"],
        opts: LN,
        operands: Operands {
            last: Some(Write),
            ..all(Read)
        },
        effects: &[Effect::Links],
        examples: &[
            ex(
                "ln -sf target name",
                &["target", "name", "name/target", "name/target"],
            ),
            ex("ln -s /x/.bashrc", &["/x/.bashrc", ".bashrc"]),
            ex("ln -s a/b c/d ~/", &["~/", "~/b", "~/d", "~/a/b", "~/c/d"]),
            ex("ln -sfT target name", &["target", "name"]),
            ex(
                "ln -s ../src build/src-link",
                &[
                    "build/src-link",
                    "build/src-link/src",
                    "build/src-link/../src",
                    "build/../src",
                ],
            ),
            ex("ln -sT ../x d/l", &["d/l", "d/../x"]),
            ex(
                "ln -s -t /opt/b ../lib/x",
                &["/opt/b", "/opt/b/x", "/opt/b/../lib/x"],
            ),
            ex(
                "ln -sr ../src build/l",
                &["../src", "build/l", "build/l/src"],
            ),
            ex(
                "ln -s --re ../src build/l",
                &["../src", "build/l", "build/l/src"],
            ),
            ex("ln -s --t=a/b ../../x", &["a/b", "a/b/x", "a/b/../../x"]),
            ex("ln -vsta/b ../../x", &["a/b", "a/b/x", "a/b/../../x"]),
            ex("ln ../src build/l", &["../src", "build/l", "build/l/src"]),
            ex("ln -fb -Sv x .en", &["x", ".en", ".en/x", ".en/xv", ".env"]),
        ],
        reading_hook: Some(super::dest::links_into_directory),
        ..BASE
    },
    Program {
        names: &["rm"],
        opts: RM,
        operands: all(Write),
        effects: &[Effect::Dirs],
        examples: &[ex("rm -rf build", &["build"]), ex("rm -- -f", &["-f"])],
        ..BASE
    },
    Program {
        names: &["chmod"],
        opts: CHMOD,
        operands: first(Data, &["reference"], Write),
        examples: &[
            ex("chmod +x run.sh", &["run.sh"]),
            ex("chmod -R 755 d", &["d"]),
            ex("chmod --reference=a b", &["a", "b"]),
        ],
        ..BASE
    },
    Program {
        names: &["chown"],
        opts: CHOWN,
        operands: first(Data, &["reference"], Write),
        examples: &[ex("chown -R u:g d", &["d"])],
        ..BASE
    },
    Program {
        names: &["date"],
        opts: DATE,
        examples: &[
            ex("date +%s", &[]),
            ex("date -u -d @0", &[]),
            ex("date -r f", &["f"]),
            // A zone named in a date string is a file date reads.
            ex("date -d 'TZ=\"/root/.ssh/k\" now'", &["/root/.ssh/k"]),
            ex(
                "date --date='TZ=\"../../x\" 09:00'",
                &["/usr/share/zoneinfo/../../x"],
            ),
            ex("date -f dates.txt", &["dates.txt"]),
        ],
        ..BASE
    },
    Program {
        names: &["true"],
        style: Style::Loose,
        examples: &[ex("true", &[])],
        ..BASE
    },
    Program {
        names: &["false"],
        style: Style::Loose,
        examples: &[ex("false", &[])],
        ..BASE
    },
    Program {
        names: &["seq"],
        style: Style::Loose,
        opts: SEQ,
        examples: &[
            ex("seq 1 10", &[]),
            ex("seq -w -s, 1 10", &[]),
            ex("seq -1 1", &[]),
        ],
        ..BASE
    },
    Program {
        names: &["tee"],
        opts: TEE,
        operands: all(Write),
        examples: &[ex("tee -a out.log", &["out.log"])],
        ..BASE
    },
    Program {
        names: &["sed"],
        opts: SED,
        operands: first(Code, &["e", "expression", "f", "file"], Read),
        examples: &[
            ex("sed -n 1,20p src/a.rs", &["src/a.rs"]),
            ex("sed -i 's/a/b/' f", &["f", "sed??????"]),
            ex("sed -e s/a/b/ -e s/c/d/ f g", &["f", "g"]),
            Example {
                line: "sed -i.bak -f script.sed f src/g",
                paths: &[
                    "f",
                    "src/g",
                    "sed??????",
                    "src/sed??????",
                    "f.bak",
                    "src/g.bak",
                ],
                runs: &["script.sed"],
                unknown: &[],
            },
            ex("sed --in-place -n p /etc/x", &["/etc/x", "/etc/sed??????"]),
            // The backup: the suffix appended, or each `*` the file's name.
            ex("sed -i.bak s/a/b/ f", &["f", "sed??????", "f.bak"]),
            ex(
                "sed -i'/root/.ssh/k*' s/a/b/ s",
                &["s", "sed??????", "/root/.ssh/ks"],
            ),
            ex(
                "sed -E --in-place='bak/*.old' s/a/b/ d/f",
                &["d/f", "d/sed??????", "bak/d/f.old"],
            ),
            // The last -i gives no suffix: no backup (each -i notes its temporary file).
            ex("sed -i.x -i s/a/b/ f", &["f", "sed??????", "sed??????"]),
        ],
        reading_hook: Some(super::sed::backups),
        ..BASE
    },
    Program {
        names: &["gzip"],
        opts: GZIP,
        operands: all(Write),
        examples: &[
            ex("gzip -9 f", &["f", "f.gz"]),
            ex("gzip -S .x -k f", &["f", "f.x"]),
            ex("gzip -c f", &["f"]),
            // `c` does not exist: gzip tries `c.gz`, `c.z`, `c-z`, `c.Z` (and writes `c`).
            ex(
                "gzip -dk a.tgz b-gz c",
                &[
                    "a.tgz", "b-gz", "c", "c.gz", "c.z", "c-z", "c.Z", "a.tar", "b", "c.gz",
                ],
            ),
            ex(
                "gzip -l dump",
                &["dump", "dump.gz", "dump.z", "dump-z", "dump.Z"],
            ),
            ex("gzip -r d", &["d", "d.gz"]),
        ],
        reading_hook: Some(super::compress::gzip_outputs),
        ..BASE
    },
    Program {
        names: &["gunzip"],
        opts: GZIP,
        operands: all(Write),
        examples: &[
            ex("gunzip -k f.gz", &["f.gz", "f"]),
            ex("gunzip -f .bashrc.gz", &[".bashrc.gz", ".bashrc"]),
            ex("gunzip -t f.gz", &["f.gz"]),
            Example {
                line: "gunzip -N f.gz",
                paths: &["f.gz"],
                runs: &[],
                unknown: &["--name"],
            },
        ],
        reading_hook: Some(super::compress::gunzip_outputs),
        ..BASE
    },
    Program {
        names: &["zcat"],
        opts: GZIP,
        operands: all(Read),
        examples: &[
            ex("zcat f.gz", &["f.gz"]),
            // The `-S` suffix first (helper-82: `zcat -f -S nv .e` printed `.env`).
            ex(
                "zcat -f -S nv .e",
                &[".e", ".env", ".e.gz", ".e.z", ".e-z", ".e.Z"],
            ),
            // Every file below `.` and `~`, the uncompressed ones printed with `-f`.
            ex("zcat -rf . ~", &[".", "~"]),
        ],
        reading_hook: Some(super::compress::zcat_walks),
        ..BASE
    },
    Program {
        names: &["make", "gmake"],
        opts: MAKE,
        // The makefile it reads first: even `make -n` runs its `$(shell ...)` (helper-45).
        config: &["$UP/GNUmakefile", "$UP/makefile", "$UP/Makefile"],
        operands: Operands {
            assign: Some(&[
                ("SHELL", Argv),
                (".SHELLFLAGS", Hidden),
                ("MAKEFLAGS", Hidden),
                ("MFLAGS", Hidden),
                ("MAKE", Argv),
            ]),
            ..all(Data)
        }
        .or(".", Read),
        effects: &[Effect::ProjectCode],
        reading_hook: Some(super::make_code::make_assignments),
        examples: &[
            ex("make -j4 test", &[".", "test"]),
            ex("make 'x.a(a.o b.o)'", &[".", "x.a", "a.o", "b.o"]),
            Example {
                line: "make test 'SHE$()LL=/bin/x' PATH=/tmp/b:/usr/bin",
                paths: &[".", "test"],
                runs: &[
                    "the makefile line of its operand `SHE$()LL=/bin/x`",
                    "the makefile line of its operand `PATH=/tmp/b:/usr/bin`",
                ],
                unknown: &[],
            },
            Example {
                line: "make test SHELL:=/bin/x 'SHELL =/bin/y'",
                paths: &[".", "test"],
                runs: &["/bin/x", "/bin/y"],
                unknown: &[],
            },
            Example {
                line: "make test 'x:=$(shell rm -f y)'",
                paths: &[".", "test"],
                runs: &["the makefile line of its operand `x:=$(shell rm -f y)`"],
                unknown: &[],
            },
            Example {
                line: "make test 'x!=rm -f y' MAKEFILES=/tmp/m.mk",
                paths: &[".", "/tmp/m.mk", "test"],
                runs: &[
                    "rm -f y",
                    "the makefile line of its operand `MAKEFILES=/tmp/m.mk`",
                ],
                unknown: &[],
            },
            ex("make -C sub all", &["sub", ".", "all"]),
            ex("make CC=clang", &["."]),
            Example {
                line: "make SHELL=/tmp/x all",
                paths: &[".", "all"],
                runs: &["/tmp/x"],
                unknown: &[],
            },
            Example {
                line: "make --eval='x:;rm -rf y' x",
                paths: &[".", "x"],
                runs: &["x:;rm -rf y"],
                unknown: &[],
            },
            ex("make -f other.mk", &["other.mk"]),
            ex("make -flink-out/id_rsa", &["link-out/id_rsa"]),
        ],
        ..BASE
    },
    Program {
        names: &["which"],
        style: Style::Posix,
        opts: &[super::flag("a", ""), super::flag("s", "")],
        examples: &[ex("which -a python3", &[])],
        ..BASE
    },
    Program {
        names: &["file"],
        opts: FILE,
        operands: all(Read),
        examples: &[
            ex("file -b f", &["f"]),
            ex("file -C -m m", &["m", "magic.mgc"]),
            ex("file -f names.txt", &["names.txt"]),
        ],
        ..BASE
    },
    Program {
        names: &["tree"],
        style: Style::Exact,
        opts: TREE,
        operands: all(List).or(".", List),
        examples: &[
            ex("tree -R -L 1 -H . -o out.html a", &["out.html", "a"]),
            ex("tree -L 2 -I node_modules src", &["src"]),
            ex("tree -a", &["."]),
            ex("tree -H . --hintro=.env", &[".env", "."]),
            ex(
                "tree --gitfile ~/.ssh/id_rsa --infofile=i --info",
                &["~/.ssh/id_rsa", "i", "."],
            ),
        ],
        ..BASE
    },
    Program {
        names: &["nl"],
        opts: NL,
        operands: all(Read),
        examples: &[ex("nl -ba f", &["f"])],
        ..BASE
    },
    Program {
        names: &["paste"],
        opts: PASTE,
        operands: all(Read),
        examples: &[ex("paste -sd, f", &["f"])],
        ..BASE
    },
    Program {
        names: &["sha256sum"],
        opts: SHA256SUM,
        operands: all(Read),
        examples: &[
            ex("sha256sum -c sums", &["sums"]),
            ex("sha256sum f g", &["f", "g"]),
        ],
        ..BASE
    },
    Program {
        names: &["md5sum"],
        opts: MD5SUM,
        operands: all(Read),
        examples: &[ex("md5sum f", &["f"]), ex("md5sum --check sums", &["sums"])],
        ..BASE
    },
    Program {
        names: &["base64", "base32"],
        opts: BASE64,
        operands: all(Read),
        examples: &[ex("base64 -w0 f", &["f"]), ex("base64 -d", &[])],
        ..BASE
    },
    Program {
        names: &["od"],
        opts: OD,
        operands: all(Read),
        examples: &[ex("od -An -tx1 f", &["f"])],
        ..BASE
    },
    Program {
        names: &["find"],
        style: Style::SingleDash,
        opts: FIND,
        operands: all(List).or(".", List),
        effects: &[Effect::OpensCwd],
        examples: &[
            ex("find . -name .env -print", &["."]),
            ex("find -name '*.rs'", &["."]),
            ex("find -newer stamp", &["stamp", "."]),
            ex("find /tmp -name x", &["/tmp", "."]),
            ex(
                "find src -type f -newer stamp ( -name '*.rs' -o -name '*.toml' )",
                &["src", "stamp", "."],
            ),
            ex("find -L /tmp -maxdepth 1 -mtime +7 -delete", &["/tmp", "."]),
            ex("find . -fprint out.txt", &[".", "out.txt"]),
            ex(
                "find src -fprintf out.txt '%p\\n'",
                &["src", "out.txt", "."],
            ),
            Example {
                line: "find . -name '*.o' -exec rm -f {} ;",
                paths: &["."],
                runs: &["rm -f {}"],
                unknown: &[],
            },
        ],
        ..BASE
    },
];

const ECHO: &[super::Opt] = &[
    super::flag("n", ""),
    super::flag("e", ""),
    super::flag("E", ""),
];

/// find's options and primaries (its hook in `wrap/` reads `-exec` for the reading of
/// the line; this list types its words).
const FIND: &[super::Opt] = {
    use super::{flag, rest, val};
    &[
        flag("", "H"),
        flag("", "L"),
        flag("", "P"),
        val("", "D", Data),
        // The optimisation levels: the order find evaluates its tests in.
        flag("", "O0"),
        flag("", "O1"),
        flag("", "O2"),
        flag("", "O3"),
        val("", "name", OnlyName),
        val("", "iname", OnlyNameAnyCase),
        val("", "path", Pattern),
        val("", "ipath", Pattern),
        val("", "wholename", Pattern),
        val("", "iwholename", Pattern),
        val("", "regex", Pattern),
        val("", "iregex", Pattern),
        val("", "lname", Pattern),
        val("", "ilname", Pattern),
        val("", "type", FileType),
        val("", "xtype", Data),
        val("", "user", Data),
        val("", "group", Data),
        val("", "uid", Data),
        val("", "gid", Data),
        val("", "perm", Data),
        val("", "size", Data),
        val("", "mtime", Data),
        val("", "atime", Data),
        val("", "ctime", Data),
        val("", "mmin", Data),
        val("", "amin", Data),
        val("", "cmin", Data),
        val("", "used", Data),
        val("", "newer", Read),
        val("", "anewer", Read),
        val("", "cnewer", Read),
        val("", "newermt", Date),
        val("", "newerct", Date),
        val("", "newerat", Date),
        val("", "newerBt", Date),
        val("", "samefile", Read),
        val("", "inum", Data),
        val("", "links", Data),
        val("", "maxdepth", Data),
        val("", "mindepth", Data),
        val("", "printf", Data),
        val("", "fprint", Write),
        val("", "fprint0", Write),
        val("", "fls", Write),
        super::lead_pair("fprintf", Write),
        val("", "context", Data),
        val("", "regextype", Data),
        val("", "files0-from", NamesFrom),
        val("", "fstype", Data),
        // The command run on each file found opens it: the tree is walked, not listed.
        rest("", "exec", Argv).does(super::Does::Operands(Walk, &[])),
        rest("", "execdir", Argv).does(super::Does::Operands(Walk, &[])),
        rest("", "ok", Argv).does(super::Does::Operands(Walk, &[])),
        rest("", "okdir", Argv).does(super::Does::Operands(Walk, &[])),
        flag("", "print"),
        flag("", "print0"),
        flag("", "ls"),
        flag("", "delete").does(super::Does::Operands(WriteTree, &[])),
        flag("", "prune"),
        flag("", "quit"),
        flag("", "true"),
        flag("", "false"),
        flag("", "empty"),
        flag("", "executable"),
        flag("", "readable"),
        flag("", "writable"),
        flag("", "nouser"),
        flag("", "nogroup"),
        flag("", "depth"),
        flag("", "d"),
        flag("", "mount"),
        flag("", "xdev"),
        flag("", "noleaf"),
        flag("", "ignore_readdir_race"),
        flag("", "noignore_readdir_race"),
        flag("", "daystart"),
        flag("", "warn"),
        flag("", "nowarn"),
        flag("", "follow"),
        flag("", "a"),
        flag("", "and"),
        flag("", "o"),
        flag("", "or"),
        flag("", "not"),
        flag("", "help"),
        flag("", "version"),
    ]
};
