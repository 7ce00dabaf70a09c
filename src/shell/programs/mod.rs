//! What programs do with their words: one table of program knowledge (`table`), read by
//! one option reader (`read`), and small hooks where a fact needs code (`hooks`: the
//! directories options move a program to, links followed, names read from data, env's
//! `-S`).
//!
//! The table is closed-world on the allow side: a program it does not know, or an option
//! of a known program it does not list, makes the reading of the command not fully known
//! (see [`Reading::unknown`] and [`crate::shell::Program`]). Each entry carries examples
//! that `tests/programs.rs` checks through [`read`], and the load-time checks there keep
//! the entries consistent (every directory or argv option takes a value, no name in two
//! entries).

mod archive;
mod awk;
mod builtin_hooks;
mod builtins;
mod code;
mod compress;
mod curl_glob;
mod dest;
mod dev;
mod dev_opts;
mod dev_subs;
mod download;
mod env_split;
mod file_opts;
mod git;
mod git_commits;
mod git_object;
mod git_opts;
mod git_other_opts;
mod git_plumbing;
mod git_rev_opts;
mod git_store;
mod git_tools;
mod git_tree;
mod hooks;
mod jq;
mod login;
mod make_code;
mod opts;
mod pip_opts;
mod read;
mod sed;
mod system;
mod table;
mod text_opts;
mod xargs;

pub use builtins::BASH_BUILTINS;
pub use code::{read_code, read_whole};
pub use dev::LESS_HOME;
pub(crate) use env_split::env_split_string;
pub(crate) use git_commits::unknown_revision;
pub(crate) use git_object::{
    index_path, object_path, ObjectPath, INDEX_PATH_SUBCOMMANDS, OBJECT_SUBCOMMANDS,
};
pub use git_opts::{inert_config, INERT_CONFIG};
pub(crate) use git_store::quiet_patterns;
pub use git_tools::MERGE_STRATEGIES;
pub(crate) use git_tree::pathspec_excludes;
pub use hooks::{chdir_options, follows_links, names_from_data};
pub(crate) use hooks::{git_subcommand, is_tar, options, TAR_VALUED};
pub(crate) use login::{SUDO_LONG_VALUED, SUDO_VALUED, SU_LONG_VALUED, SU_VALUED};
pub use read::{Given, Kind, Part, Reading, Run};
pub(crate) use xargs::xargs_gives_data;

use std::collections::HashMap;
use std::sync::OnceLock;

/// What a piece of code does besides its program's plain work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeReading {
    /// Files it reads.
    pub reads: Vec<String>,
    /// Files it writes.
    pub writes: Vec<String>,
    /// Shell command lines it runs.
    pub shell: Vec<String>,
    /// Text it may run as shell command lines, or not (the strings of an awk program
    /// that calls `system`): read generously, each match unsure.
    pub maybe: Vec<String>,
    /// Why the code could not be read to its end, or runs what the reading cannot know:
    /// the command is then not certain.
    pub unknown: Option<String>,
}

/// How a program reads its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// GNU getopt_long: short options bundled (`-xzf F`), long ones abbreviated to any
    /// unique prefix (`--ign=x` for `--ignore`), options and operands in any order,
    /// `--` ends the options.
    Gnu,
    /// Like [`Style::Gnu`], but long options are written out in full (clap's programs,
    /// `rg`, `fd`; git): an abbreviation is an error.
    Exact,
    /// POSIX getopt: short options bundled, the options end at the first operand.
    Posix,
    /// Long options written with one dash (`find -name`, `go -v`), not bundled; options
    /// and operands in any order.
    SingleDash,
    /// Like [`Style::Posix`], but a word that does not read as known options is an
    /// operand (`echo -x` prints `-x`): nothing is unknown.
    Loose,
}

/// What an option takes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Nothing: a flag.
    None,
    /// One value: the rest of a bundle, after `=`, or the next word.
    Required,
    /// A value only when glued (`-ovalue`, `--opt=value`).
    Optional,
    /// Two values, the next two words: a name, then a value of the option's role (`jq
    /// --arg NAME VALUE`, `--slurpfile NAME FILE`).
    Pair,
    /// Two values, the next two words: one of the option's role, then data (`find
    /// -fprintf FILE FORMAT`).
    LeadPair,
    /// Every word after it, up to a word `;` (`fd -x CMD ARGS ;`, `find -exec ... ;`, or
    /// `+` after `{}`) or the end.
    UntilSemicolon,
}

/// What a word (an option's value or an operand) is to its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Nothing beyond itself: a flag, a number, a name, text it prints.
    Data,
    /// A path it reads.
    Read,
    /// A path it writes (or creates, removes, changes).
    Write,
    /// A directory tree it walks, not following symbolic links below the top.
    Walk,
    /// A directory tree it walks following symbolic links.
    WalkFollow,
    /// A directory tree it walks, skipping the names that start with `.` below the top
    /// and not following symbolic links there (`rg` unless `--hidden`).
    WalkVisible,
    /// A directory tree whose names it reads (and whose files it may stat), not their
    /// contents (`find`, `fd`, `du`, `tree`, `ls -R`).
    List,
    /// git's work tree, of which it reads only the files git tracks (`git status`, `git
    /// diff`, `git add -A`: an untracked or ignored `.env` is not opened).
    WalkTracked,
    /// git's work tree, of which it writes only the files git tracks (`git checkout`,
    /// `git stash` without `-u`/`-a`).
    WriteTracked,
    /// A revision whose files git writes into its work tree, besides those it tracks
    /// (`git checkout main`, `git reset --hard v1`, `git merge topic`: an ignored `.env`
    /// the index does not list is overwritten where the commit holds one). The word is
    /// the revision (`REV^@`: with its parents' files, a stash's; `REV\0SPEC`: below the
    /// pathspec SPEC only); the walk is of the top of the work tree (or SPEC), by the
    /// paths of the commit's tree (`prepare::git_objects`).
    WriteCommit,
    /// git's store: the files git tracks under the word (its index lists them), whose
    /// contents git prints from the index, a commit's tree or history (`git diff`,
    /// `git show`, `git log -p`, `git grep`): read as [`Role::WalkTracked`], and the
    /// rules on a name in any directory meet the paths of the index.
    ShowTracked,
    /// A tree whose files it reads, except those git ignores, and the files git tracks
    /// there (`git add .`, `git add -A`).
    WalkUnignored,
    /// A path it writes (removes, changes) with everything below it (`rm -r`,
    /// `chmod -R`), not following symbolic links below the top.
    WriteTree,
    /// A directory it moves to before doing anything else.
    Chdir,
    /// A file whose data names the files it opens (`--files-from`).
    NamesFrom,
    /// A program it runs, with the words after it (`fd -x CMD ARGS`, `timeout 5 CMD`): a
    /// command of its own.
    Argv,
    /// A string it gives a shell to run.
    Shell,
    /// A command line it splits into words itself and runs, with no shell (bat's
    /// `--pager`, go's `-toolexec`): `;`, `|`, `<` are plain characters to
    /// it. Read as that program and its words where every way of splitting reads the
    /// line alike (plain words, quotes holding plain text), else as [`Role::Hidden`].
    Words,
    /// Code in the program's own language (an awk program, `python -c`, a jq filter):
    /// allowing the program allows its code.
    Code,
    /// Text that makes it run commands the reading does not read (`make --eval`, a
    /// makefile given by `-f`): never certain.
    Hidden,
    /// A pattern (a regular expression, a glob, an exclusion): not a path.
    Pattern,
    /// A glob of the base names of files its walk skips (`grep --exclude`).
    SkipName,
    /// A glob of the base names of directories its walk skips (`grep --exclude-dir`).
    SkipDir,
    /// A glob of the base names of the only files its walk opens (`grep --include`,
    /// `find -name`).
    OnlyName,
    /// As [`Role::OnlyName`], matched in any case (`find -iname`).
    OnlyNameAnyCase,
    /// A glob of the names its walk opens, or with a leading `!` of those it skips, the
    /// last that matches winning; it overrides the walk's skipping of dotfiles and
    /// ignored files for the names it matches (`rg -g`).
    NameGlob,
    /// A name of the file types its walk chooses files by (rg's `-t`, `-T`,
    /// `--type-add`, `--type-clear`): the globs of the program's own type table
    /// (`prepare::rg_types`) choose the files it opens, dotfiles among them.
    TypeName,
    /// The kinds of file its walk hands on (`find -type d`: directories only; fd's
    /// `-t d`, `-t file`).
    FileType,
    /// A file name extension that chooses what its walk hands on, in any case, a
    /// directory's name too (fd's `-e md`: `a.md`, `B.MD`, a directory `x.md`).
    Extension,
    /// A URL.
    Url,
    /// A date string (GNU `parse_datetime`: `date -d`, `touch -d`, `find -newermt`): a
    /// `TZ="ZONE"` in it makes the program read the time zone file ZONE (a path, or one
    /// below `/usr/share/zoneinfo`), and where a date or a file may be given (tar's
    /// `--mtime`, `--newer`) one starting with `/` or `.` is a file it reads. Those files
    /// are added as [`Role::Read`] parts.
    Date,
    /// Data, or a file it reads named in it: `@FILE`, `NAME@FILE`, `NAME=@FILE`,
    /// `NAME=<FILE` (curl's `-d`, `--data-urlencode`, `-F`, `-H`, `-K`): the file is
    /// read as a [`Role::Read`] word of its own.
    DataFile,
    /// A curl form field (`-F`): `NAME=@FILE` or `NAME=<FILE`, FILE followed by
    /// `;PARAM`s (a `headers=@FILE` among them names a file too) and, after a `,`, by
    /// more files: each is read as a [`Role::Read`] word of its own.
    Form,
}

impl Role {
    /// A path role: the word names a file or directory on this machine.
    pub fn is_path(self) -> bool {
        self.is_tree()
            || matches!(
                self,
                Role::Read | Role::Write | Role::Chdir | Role::NamesFrom
            )
    }

    /// A directory tree it walks, lists or writes: it may open what is below the word.
    pub fn is_tree(self) -> bool {
        matches!(
            self,
            Role::Walk
                | Role::WalkFollow
                | Role::WalkVisible
                | Role::List
                | Role::WalkTracked
                | Role::ShowTracked
                | Role::WalkUnignored
                | Role::WriteTracked
                | Role::WriteTree
        )
    }

    /// The word is walked or names what is (read by `prepare::role_cands`): a tree
    /// role, a file of names, a revision git writes out.
    pub fn is_walked(self) -> bool {
        self.is_tree() || matches!(self, Role::NamesFrom | Role::WriteCommit)
    }

    /// The word makes the program run a command or code.
    pub fn runs(self) -> bool {
        matches!(
            self,
            Role::Argv | Role::Shell | Role::Words | Role::Code | Role::Hidden
        )
    }
}

/// What a program does besides reading and writing the paths of its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Makes or moves symbolic or hard links.
    Links,
    /// Makes, moves or removes directories.
    Dirs,
    /// Talks to the network.
    Network,
    /// Changes privileges.
    Privilege,
    /// Runs code from files of the project it works in (a Makefile's recipes, a
    /// package's scripts, `build.rs`).
    ProjectCode,
    /// Opens its working directory whatever its operands (`find` keeps it open to
    /// come back to): the reading adds `.`, read, as a [`Kind::Implied`] part.
    OpensCwd,
}

/// One option of a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opt {
    /// Its short letter (`"r"`), or `""`.
    pub short: &'static str,
    /// Its long name without dashes (`"recursive"`), or `""`.
    pub long: &'static str,
    pub value: Value,
    /// The role of its value (`Role::Data` for a flag).
    pub role: Role,
    /// What giving it does to the rest of the reading ([`Does::Nothing`] for most).
    pub does: Does,
}

/// What giving an option does to a program's reading beyond its own value: data on the
/// option, read by the one option reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Does {
    /// Nothing more.
    Nothing,
    /// The operands it reads become ROLE when ROLE walks (`grep -r`, `cp -r`: `cp`'s
    /// destination stays written), the operands it writes become ROLE when it is
    /// [`Role::WriteTree`] (`rm -r`); with no operand in a path role the program works
    /// on `.` in that role (`grep -r x` walks the cwd), but a tree written is only one
    /// the program works on anyway (`find -delete`; `rm -r` alone removes nothing).
    /// With VALUES, only when the option's value is one of them (`grep -d recurse`).
    Operands(Role, &'static [&'static str]),
    /// The operands in path roles are written in place, through a file named TEMPLATE
    /// (`?`: any character) made beside each and renamed over it (`sed -i`): the
    /// operands become [`Role::Write`], and each directory gets a written path.
    Beside(&'static str),
    /// It writes NAME in its directory (`file -C` writes `magic.mgc`).
    Writes(&'static str),
    /// It reads the names of the files it opens from its standard input (`zip -@`): a
    /// [`Role::NamesFrom`] part `-` is added.
    NamesFromStdin,
    /// The words after it are the operands of what its value names, none an option of
    /// the program's (`python -m MOD ARGS`, `python -c CODE ARGS`: helper-78's `python3
    /// -m pytest --maxfail=1` is no option of python's).
    Ends,
    /// Given twice or more (`rg -uu`, `rg -u -u`), as [`Does::Operands`] with ROLE; once,
    /// nothing (`rg -u` is `--no-ignore` only: dotfiles stay skipped).
    Twice(Role),
}

impl Opt {
    /// The option with effect DOES.
    pub const fn does(self, does: Does) -> Opt {
        Opt { does, ..self }
    }
}

/// A flag: `-SHORT`, `--LONG`.
pub const fn flag(short: &'static str, long: &'static str) -> Opt {
    Opt {
        short,
        long,
        value: Value::None,
        role: Role::Data,
        does: Does::Nothing,
    }
}

/// An option that takes a value of ROLE.
pub const fn val(short: &'static str, long: &'static str, role: Role) -> Opt {
    Opt {
        short,
        long,
        value: Value::Required,
        role,
        does: Does::Nothing,
    }
}

/// An option whose value of ROLE is optional (glued only).
pub const fn opt(short: &'static str, long: &'static str, role: Role) -> Opt {
    Opt {
        short,
        long,
        value: Value::Optional,
        role,
        does: Does::Nothing,
    }
}

/// An option that takes two values, a name and one of ROLE (`jq --arg NAME VALUE`).
pub const fn pair(long: &'static str, role: Role) -> Opt {
    Opt {
        short: "",
        long,
        value: Value::Pair,
        role,
        does: Does::Nothing,
    }
}

/// An option that takes two values, one of ROLE and then data (`find -fprintf FILE
/// FORMAT`).
pub const fn lead_pair(long: &'static str, role: Role) -> Opt {
    Opt {
        value: Value::LeadPair,
        ..pair(long, role)
    }
}

/// An option that takes every word after it up to `;` as a value of ROLE (`fd -x`).
pub const fn rest(short: &'static str, long: &'static str, role: Role) -> Opt {
    Opt {
        short,
        long,
        value: Value::UntilSemicolon,
        role,
        does: Does::Nothing,
    }
}

/// The roles of a program's operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operands {
    /// The role of the first operand, unless an option of `unless` is given.
    pub first: Option<Role>,
    /// Options (short letters or long names) that take the first operand's place
    /// (grep's `-e`/`-f`: the first operand is then a file).
    pub unless: &'static [&'static str],
    /// The role of the other operands.
    pub rest: Role,
    /// The role of the last operand, when there are two or more (`cp A B`).
    pub last: Option<Role>,
    /// Operands `NAME=VALUE` are assignments (make): the names listed have the role
    /// given, every other value is data.
    pub assign: Option<&'static [(&'static str, Role)]>,
    /// The operand the program works on when the words give none in a path role (and
    /// no option gives a value of the same role): `ls` reads `.`, `rg x` and `find`
    /// walk it. Not a word of the line: the reading adds it as a [`Kind::Implied`] part.
    pub implicit: Option<(&'static str, Role)>,
}

impl Operands {
    /// These operands, with WORD in ROLE when the words give none (see `implicit`).
    pub const fn or(self, word: &'static str, role: Role) -> Operands {
        Operands {
            implicit: Some((word, role)),
            ..self
        }
    }
}

/// Every operand has ROLE.
pub const fn all(role: Role) -> Operands {
    Operands {
        first: None,
        unless: &[],
        rest: role,
        last: None,
        assign: None,
        implicit: None,
    }
}

/// The first operand has FIRST (unless one of UNLESS is given), the others REST.
pub const fn first(first: Role, unless: &'static [&'static str], rest: Role) -> Operands {
    Operands {
        first: Some(first),
        unless,
        rest,
        last: None,
        assign: None,
        implicit: None,
    }
}

/// An example of a program's reading, checked by `tests/programs.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// A command line of one simple command (quotes allowed).
    pub line: &'static str,
    /// Exactly the words the reading finds in path roles, in order.
    pub paths: &'static [&'static str],
    /// The commands it runs (argv words joined by a space, shell strings as written).
    pub runs: &'static [&'static str],
    /// The options the reading does not know.
    pub unknown: &'static [&'static str],
}

/// An example with these PATHS, running nothing, every option known.
pub const fn ex(line: &'static str, paths: &'static [&'static str]) -> Example {
    Example {
        line,
        paths,
        runs: &[],
        unknown: &[],
    }
}

/// Whether `tests/programs_real.rs` runs an entry's program for real here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verified {
    /// It is run (it must be installed: `make programs`), each example and generated
    /// invocation checked under `strace`.
    Here,
    /// It is not, for this reason (network, privilege, not installable here).
    Not(&'static str),
}

/// A program's words as it reads them, when they differ from how they are written.
pub type ArgsHook = fn(&[String]) -> Option<Vec<String>>;

/// One program of the table.
#[derive(Debug, Clone, Copy)]
pub struct Program {
    /// Its names (the first is its own; then aliases and distribution renames).
    pub names: &'static [&'static str],
    /// It is installed under versioned names too (`python3.12`, `zsh-5.9`).
    pub versioned: bool,
    pub style: Style,
    pub opts: &'static [Opt],
    pub operands: Operands,
    /// Its subcommands (`git log`): the first operand names one; its options and
    /// operands are then the subcommand's. An unknown subcommand is unknown.
    pub subs: &'static [Program],
    pub effects: &'static [Effect],
    /// When not empty, [`Effect::Links`] holds only with one of these options, by their
    /// table names (the long name, or the short one when it has none): `cp -a`, `tar -x`.
    pub links_with: &'static [&'static str],
    /// [`Effect::Links`] does not hold with one of these options (table names, as
    /// [`Program::links_with`]): `unzip -l` lists and extracts nothing.
    pub links_unless: &'static [&'static str],
    /// The files it reads at its start as its own configuration, which can make it run
    /// commands or open other files (`~/.curlrc`, `~/.lesskey`): `~/` is the home,
    /// `$XDG_CONFIG_HOME/` that directory (`~/.config/` read too), `$GIT_DIR/` the
    /// repository git finds, `$UP/` the line's directory and each directory above it
    /// (cargo's `.cargo/config.toml`), a trailing `/` a directory of them. A line that writes or changes one before it runs the program
    /// is not certain (see `prepare::configs`).
    pub config: &'static [&'static str],
    pub examples: &'static [Example],
    /// Whether the real-program verification runs it here.
    pub verified: Verified,
    /// Its words as it reads them, when they differ from how they are written (tar's
    /// first word, a bundle of options without a dash: `tar czf F` is `tar -c -z -f F`).
    pub args_hook: Option<ArgsHook>,
    /// What its reading adds that the table's data cannot say (`less +CMD` runs a
    /// command of less; `sqlite3 DB` reads its SQL from standard input).
    pub reading_hook: Option<fn(&mut Reading)>,
}

/// An entry with no options, operands of ROLE and nothing else.
pub const BASE: Program = Program {
    names: &[],
    versioned: false,
    style: Style::Gnu,
    opts: &[],
    operands: all(Role::Data),
    subs: &[],
    effects: &[],
    links_with: &[],
    links_unless: &[],
    config: &[],
    examples: &[],
    verified: Verified::Here,
    args_hook: None,
    reading_hook: None,
};

impl Program {
    /// Its own name.
    pub fn name(&self) -> &'static str {
        self.names.first().copied().unwrap_or("")
    }

    /// No option or operand of it (or of a subcommand) runs a command, a shell string or
    /// code, and it runs no code of the project's files.
    pub fn runs_nothing(&self) -> bool {
        let ops = &self.operands;
        !self.opts.iter().any(|o| o.role.runs())
            && !ops.first.is_some_and(Role::runs)
            && !ops.rest.runs()
            && !ops.last.is_some_and(Role::runs)
            && !ops.assign.is_some_and(|a| a.iter().any(|(_, r)| r.runs()))
            && !self.effects.contains(&Effect::ProjectCode)
            && self.subs.iter().all(Program::runs_nothing)
    }

    /// Every word it may be given is data to it, whatever the word is: no subcommand,
    /// no effect, no configuration, no hook, every option a flag or data and every
    /// operand data (`echo`, `basename`): words only the running shell or `xargs`'s
    /// input gives it name no file and run nothing.
    pub fn data_whatever_given(&self) -> bool {
        let ops = &self.operands;
        let data = |r: Option<Role>| r.is_none_or(|r| r == Role::Data);
        self.subs.is_empty()
            && self.effects.is_empty()
            && self.config.is_empty()
            && self.args_hook.is_none()
            && self.reading_hook.is_none()
            && self
                .opts
                .iter()
                .all(|o| o.role == Role::Data && o.does == Does::Nothing)
            && data(ops.first)
            && ops.rest == Role::Data
            && data(ops.last)
            && ops.assign.is_none()
            && ops.implicit.is_none()
    }

    /// Whether it has EFFECT (a subcommand's included).
    pub fn has(&self, effect: Effect) -> bool {
        self.effects.contains(&effect) || self.subs.iter().any(|s| s.has(effect))
    }

    /// Its subcommand NAME.
    pub fn sub(&self, name: &str) -> Option<&'static Program> {
        self.subs.iter().find(|s| s.names.contains(&name))
    }

    /// Whether it may make or move a symbolic link given ARGS (its words after its
    /// name): it runs code of its own or text the reading does not read (`sed 'e ln -s
    /// ..'`, `make --eval`); or it has [`Effect::Links`] (of the subcommand ARGS name
    /// when it has subcommands: an unknown one may), with [`Program::links_with`] and
    /// [`Program::links_unless`] read as the program reads its words (`tar xzf` is `tar
    /// -x -z -f`, `cp --arch` is `--archive`); an option the table does not know may be
    /// one of them. The commands it runs (`find -exec ln`) are read as commands of their
    /// own. The project's code it runs ([`Effect::ProjectCode`]: a recipe, a hook, git's
    /// `core.fsmonitor`) is not counted: only a rule that names the program allows it,
    /// and that code may open any file itself, so a link it makes for another command
    /// of the line gives it nothing more (helper-86: `git log --oneline | tee
    /// build/log.txt` was not certain: git may make `build` a link first).
    pub fn may_make_links(&self, args: &[String]) -> bool {
        let r = read(self, args);
        // Code its reader reads whole makes none: the shell lines it runs (`sed 'e ln
        // -s ..'`) are commands of their own (helper-70: `... | xargs sed -i 's/a/b/'`
        // was read as one that may).
        if r.runs.iter().any(|x| match x {
            Run::Code(text) => !read_whole(self.name(), text),
            Run::Hidden(_) | Run::Starts(_) => true,
            Run::Argv(_) | Run::Shell(_) => false,
        }) {
            return true;
        }
        if !self.subs.is_empty() {
            // The innermost subcommand (`git stash pop`).
            let mut sub: Option<&Program> = None;
            for p in r.parts.iter().filter(|p| p.kind == Kind::Subcommand) {
                sub = sub.unwrap_or(self).sub(&p.text);
                if sub.is_none() {
                    break;
                }
            }
            return match sub {
                Some(s) => s.has(Effect::Links),
                // A subcommand the table does not know, or none.
                None => !r.is_known() || self.effects.contains(&Effect::Links),
            };
        }
        if !self.effects.contains(&Effect::Links) {
            return false;
        }
        if self.links_with.is_empty() && self.links_unless.is_empty() {
            return true;
        }
        if !r.is_known() {
            return true;
        }
        let given = |names: &[&str]| names.iter().any(|o| r.has_option(o));
        (self.links_with.is_empty() || given(self.links_with)) && !given(self.links_unless)
    }
}

/// Read ARGS (a command's words after its name) as PROGRAM reads them: through its
/// [`Program::args_hook`] first, the files named in [`Role::DataFile`] words added as
/// [`Role::Read`] words, then its [`Program::reading_hook`].
pub fn read(program: &Program, args: &[String]) -> Reading {
    let rewritten = program.args_hook.and_then(|h| h(args));
    let mut r = read::read(program, rewritten.as_deref().unwrap_or(args));
    let mut k = 0;
    while let Some(p) = r.parts.get(k) {
        k += 1;
        let files = match p.role {
            Role::DataFile => hooks::data_files(&p.text),
            Role::Form => hooks::form_files(&p.text),
            _ => continue,
        };
        let kind = p.kind;
        for file in files {
            r.parts.insert(
                k,
                Part {
                    text: file,
                    kind,
                    role: Role::Read,
                },
            );
            k += 1;
        }
    }
    if let Some(h) = program.reading_hook {
        h(&mut r);
    }
    r
}

/// Every program of the table: the everyday tools (`table.rs`), shell builtins and small
/// utilities (`builtins.rs`), developer programs (`dev.rs`, `git.rs`).
pub fn table() -> &'static [Program] {
    static ALL: OnceLock<Vec<Program>> = OnceLock::new();
    ALL.get_or_init(|| {
        [
            table::PROGRAMS,
            builtins::PROGRAMS,
            dev::PROGRAMS,
            git::PROGRAMS,
            system::PROGRAMS,
        ]
        .concat()
    })
}

/// The entry of each name of the table.
fn by_name() -> &'static HashMap<&'static str, &'static Program> {
    static NAMES: OnceLock<HashMap<&'static str, &'static Program>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut out = HashMap::new();
        for p in table() {
            for n in p.names {
                out.entry(*n).or_insert(p);
            }
        }
        out
    })
}

/// The program NAME (a command name; a path is reduced to its basename) names: by any of
/// its names, or a versioned name of a program installed so (`python3.12`, `zsh-5.9`).
pub fn lookup(name: &str) -> Option<&'static Program> {
    let base = name.rsplit('/').next().unwrap_or(name);
    if base.is_empty() {
        return None;
    }
    if let Some(p) = by_name().get(base) {
        return Some(p);
    }
    // `python3.12` -> `python3`, `zsh-5.9` -> `zsh`: a version is digits and dots,
    // after a `-` or right after the name.
    let stem = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if stem.len() == base.len() || stem.is_empty() {
        return None;
    }
    let version = &base[stem.len()..];
    if !version.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let stem = stem.strip_suffix('-').unwrap_or(stem);
    let digits = base[..base.len() - version.len()].len();
    // `python3.12`: also try the name with the first digit kept (`python3`).
    let keep_major = version
        .char_indices()
        .find(|(_, c)| *c == '.')
        .map(|(k, _)| &base[..digits + k]);
    [keep_major, Some(stem)]
        .into_iter()
        .flatten()
        .find_map(|n| by_name().get(n).copied().filter(|p| p.versioned))
}
