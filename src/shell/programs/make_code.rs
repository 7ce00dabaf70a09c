//! What a make variable given on make's command line runs (helper-69): its value is
//! text make puts in the recipes that name it, so a recipe may run it as a command
//! (`make CC='rm -f x;' x.o`: make's own rule for `.o` runs `$(CC)`), and each
//! `$(shell CMD)` in it runs CMD when make expands it (`make 'x := $(shell rm x)'`,
//! `.DEFAULT_GOAL=$(shell ...)`); the commands make's built-in rules build of several
//! such values ([`BUILT_IN_RECIPES`], checked against `make -p`); and the files its
//! targets name (`target_files`).

use super::CodeReading;

/// make: every operand with a `=` is a line of makefile it reads, a variable defined as
/// make's `parse_variable_definition` reads it: the name up to the operator (`=`, `:=`,
/// `::=`, `:::=`, `+=`, `?=`, `!=`), blanks around it dropped (`SHELL:=/bin/rm`, `'SHELL
/// =x'` set `SHELL` as `SHELL=x` does). Read here in every spelling: `SHELL` and `MAKE`
/// set plainly (`=`, `:=`...) name the program make runs (a command of the line); any
/// other definition of them, `.SHELLFLAGS`, `MAKEFLAGS`, `MFLAGS`, `GNUMAKEFLAGS` and
/// `MAKEFILES` (whose words are makefiles it reads: paths too), `NAME!=CMD` (runs CMD),
/// a value with a `$` (`$(shell CMD)`, `$(file <F)`), a name make may read otherwise (a
/// blank or a `$` inside it: make expands names) and a variable that changes what the
/// recipes run (`PATH`, `LD_PRELOAD`: make exports its command line's variables) are never
/// certain; the words of `MAKEFILES` and `.SHELLFLAGS` are paths too (`NAME!=CMD`'s CMD is read as a shell string for
/// deny rules). Every value is make code besides (see [`read`]): its `$(shell CMD)`
/// calls are commands of the line, and the value one a recipe may run.
/// (`NAME=VALUE` with a plain operator is read by the table's `assign` list as well.)
pub(super) fn make_assignments(r: &mut super::Reading) {
    use super::{Kind, Part, Role, Run};
    let mut runs = Vec::new();
    let mut paths = Vec::new();
    let mut given = Vec::new();
    let mut targets = Vec::new();
    for p in r.parts.iter_mut() {
        if p.kind != Kind::Operand {
            continue;
        }
        let Some((head, value)) = p.text.split_once('=') else {
            targets.extend(target_files(&p.text));
            continue;
        };
        let op_at = head.trim_end_matches([':', '+', '?', '!']).len();
        let (name, op) = (head[..op_at].trim(), &head[op_at..]);
        let plain = matches!(op, "" | ":" | "::" | ":::");
        let flags = matches!(
            name,
            ".SHELLFLAGS" | "MAKEFLAGS" | "MFLAGS" | "GNUMAKEFLAGS" | "MAKEFILES"
        );
        let hidden = value.contains('$')
            || !(plain || op == "+" || op == "?")
            // make expands a name too (`SHE$()LL=x` sets `SHELL`).
            || name.contains(['$', ' ', '\t'])
            || flags
            // Exported to every recipe's shell (`PATH=`, `LD_PRELOAD=`, `BASH_ENV=`).
            || crate::shell::is_dangerous_env(name)
            || (matches!(name, "SHELL" | "MAKE") && !plain);
        if matches!(name, "MAKEFILES" | ".SHELLFLAGS") {
            paths.extend(value.split_whitespace().map(str::to_owned));
        }
        // The value is text a recipe may run, and its `$(shell CMD)` calls run CMD
        // (helper-69: `make CC='rm -f x;' x.o`): read for deny rules (`make_code.rs`).
        runs.push(Run::Code(value.to_owned()));
        if op != "!" {
            // `NAME+=VALUE` adds VALUE to what NAME holds (helper-80: `RM+=-r`).
            let value = match (op, built_in_value(name)) {
                ("+", Some(was)) => format!("{was} {value}"),
                _ => value.to_owned(),
            };
            given.push((name.to_owned(), value));
        }
        if hidden {
            p.role = Role::Hidden;
            runs.push(if op == "!" {
                // `x!=CMD`: a shell command.
                Run::Hidden(value.to_owned())
            } else {
                Run::Starts(format!("the makefile line of its operand `{}`", p.text))
            });
        } else if matches!(name, "SHELL" | "MAKE") && head != name {
            // `SHELL:=/bin/x`, `SHELL =/bin/x` (`SHELL=/bin/x` is the table's `assign`).
            p.role = Role::Argv;
            runs.push(Run::Argv(vec![value.trim().to_owned()]));
        }
    }
    // make looks for a target or member it does not find in the directories of `VPATH`
    // (helper-81: `make 'x.a(.ssh/id_rsa)' VPATH=..` ran `ar rv x.a ../.ssh/id_rsa`).
    let dirs: Vec<&str> = given
        .iter()
        .filter(|(name, _)| matches!(name.as_str(), "VPATH" | "GPATH"))
        .flat_map(|(_, v)| v.split([':', ' ', '\t']).filter(|d| !d.is_empty()))
        .collect();
    let found: Vec<(String, Role)> = targets
        .iter()
        .filter(|(t, _)| !t.starts_with('/'))
        .flat_map(|(t, role)| {
            dirs.iter()
                .map(move |d| (format!("{}/{t}", d.trim_end_matches('/')), *role))
        })
        .collect();
    targets.extend(found);
    // The files make's built-in rules may read to make each target and makefile
    // (helper-82: `make secret` ran `cat secret.sh >secret`, plain `make` remade a
    // missing `Makefile` from `Makefile.sh`).
    let given_files: Vec<String> = ["file", "makefile"]
        .iter()
        .flat_map(|o| r.option_values(o))
        .map(str::to_owned)
        .collect();
    let makefiles = match given_files {
        files if files.is_empty() => ["GNUmakefile", "makefile", "Makefile"]
            .map(str::to_owned)
            .to_vec(),
        files => files,
    };
    // `-r` takes the built-in rules away, and `-R` does too (GNU make 4.3: `make -R
    // x` beside `x.sh` has no rule to make `x`).
    let built_in = !r.has_option("no-builtin-rules") && !r.has_option("no-builtin-variables");
    let names: Vec<String> = targets
        .iter()
        .map(|(t, _)| t.clone())
        .chain(makefiles)
        .filter(|_| built_in)
        .collect();
    let mut sources: Vec<(String, Role)> = Vec::new();
    for name in &names {
        for source in built_in_sources(name) {
            if !sources.contains(&source) {
                sources.push(source);
            }
        }
        if sources.len() > MAX_SOURCES {
            r.unknown.push(format!(
                "more than {MAX_SOURCES} files make's built-in rules may read"
            ));
            sources.clear();
            break;
        }
    }
    // The commands make's own rules build of several values (helper-77: `CC=env
    // 'CFLAGS=-Srm -f x --'` runs `env -Srm -f x -- -c ...`), read as values are.
    runs.extend(built_in_commands(&given).into_iter().map(Run::Code));
    r.runs.extend(runs);
    r.parts.extend(paths.into_iter().map(|text| Part {
        text,
        kind: Kind::Implied,
        role: Role::Read,
    }));
    r.parts.extend(targets.into_iter().map(|(text, role)| Part {
        text,
        kind: Kind::Implied,
        role,
    }));
    r.parts.extend(sources.into_iter().map(|(text, role)| Part {
        text,
        kind: Kind::Found,
        role,
    }));
}

/// Most files make's built-in rules may read that a command's reading lists; past it,
/// the command is not certain.
const MAX_SOURCES: usize = 160;

/// The pattern rules of make's database with prerequisites (GNU make 4.3, `make -p -f
/// /dev/null`), as (target, prerequisites): what make may read to make a file it has no
/// rule for (`%: %.sh` makes `x` by `cat x.sh >x`). Checked against the installed make
/// by `built_in_sources_are_makes`.
const BUILT_IN_RULES: &[(&str, &[&str])] = &[
    ("%.c", &["%.l"]),
    ("%.c", &["%.w"]),
    ("%.c", &["%.w", "%.ch"]),
    ("%.c", &["%.y"]),
    ("%.dvi", &["%.tex"]),
    ("%.dvi", &["%.texi"]),
    ("%.dvi", &["%.texinfo"]),
    ("%.dvi", &["%.txinfo"]),
    ("%.f", &["%.F"]),
    ("%.f", &["%.r"]),
    ("%.info", &["%.texi"]),
    ("%.info", &["%.texinfo"]),
    ("%.info", &["%.txinfo"]),
    ("%.ln", &["%.c"]),
    ("%.ln", &["%.l"]),
    ("%.ln", &["%.y"]),
    ("%.m", &["%.ym"]),
    ("%.o", &["%.C"]),
    ("%.o", &["%.F"]),
    ("%.o", &["%.S"]),
    ("%.o", &["%.c"]),
    ("%.o", &["%.cc"]),
    ("%.o", &["%.cpp"]),
    ("%.o", &["%.f"]),
    ("%.o", &["%.m"]),
    ("%.o", &["%.mod"]),
    ("%.o", &["%.p"]),
    ("%.o", &["%.r"]),
    ("%.o", &["%.s"]),
    ("%.out", &["%"]),
    ("%.p", &["%.web"]),
    ("%.r", &["%.l"]),
    ("%.s", &["%.S"]),
    ("%.sym", &["%.def"]),
    ("%.tex", &["%.w"]),
    ("%.tex", &["%.w", "%.ch"]),
    ("%.tex", &["%.web"]),
    ("%", &["%.C"]),
    ("%", &["%.F"]),
    ("%", &["%.S"]),
    ("%", &["%.c"]),
    ("%", &["%.cc"]),
    ("%", &["%.cpp"]),
    ("%", &["%.f"]),
    ("%", &["%.m"]),
    ("%", &["%.mod"]),
    ("%", &["%.o"]),
    ("%", &["%.p"]),
    ("%", &["%.r"]),
    ("%", &["%.s"]),
    ("%", &["%.sh"]),
];

/// The terminal rules of make's database (`%:: RCS/%,v`): any file may be checked out
/// of these by `co` or `get`.
const CHECKOUTS: &[&str] = &["%,v", "RCS/%", "RCS/%,v", "SCCS/s.%", "s.%"];

/// make's `.SUFFIXES`: a file with one of them gets no rule whose target is `%` alone
/// (make's dummy rules for them keep those off).
const SUFFIXES: &[&str] = &[
    ".out", ".a", ".ln", ".o", ".c", ".cc", ".C", ".cpp", ".p", ".f", ".F", ".m", ".r", ".y", ".l",
    ".ym", ".yl", ".s", ".S", ".mod", ".sym", ".def", ".h", ".info", ".dvi", ".tex", ".texinfo",
    ".texi", ".txinfo", ".w", ".ch", ".web", ".sh", ".elc", ".el",
];

/// TEXT as a glob that matches only TEXT: each glob character in a class of its own.
fn literal(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '*' | '?' | '[' | ']' | '\\' => format!("[{c}]"),
            c => c.to_string(),
        })
        .collect()
}

/// The files make's built-in rules may read to make NAME (which has no rule of its
/// own), as globs of the files that exist: every rule of [`BUILT_IN_RULES`] keeps the
/// stem (`x` of `x.o`, or NAME itself without a suffix of [`SUFFIXES`]) and adds a
/// suffix that starts with `.` (or none: `%.out: %`), however deep a chain goes (`x`
/// from `x.o` from `x.c` from `x.y`), and [`CHECKOUTS`] put `,v`, `s.`, `RCS/`,
/// `SCCS/` around any of them: the stem and `*` after `.` or `,`, `s.`, `RCS/` and
/// `SCCS/s.` before it, in NAME's directory (make matches a pattern without `/` to the
/// name's last part). Checked by `built_in_sources_of_a_target`.
fn built_in_sources(name: &str) -> Vec<(String, super::Role)> {
    use super::Role;
    let (dir, base) = match name.rsplit_once('/') {
        Some((d, b)) => (format!("{d}/"), b),
        None => (String::new(), name),
    };
    if base.is_empty() || base == "." || base == ".." {
        return Vec::new();
    }
    let stem = SUFFIXES
        .iter()
        .filter_map(|s| base.strip_suffix(s).filter(|st| !st.is_empty()))
        .min_by_key(|st| st.len())
        .unwrap_or(base);
    let s = literal(stem);
    let dir = literal(&dir);
    // What the rules' prerequisites make of the stem: itself (`%.out: %`), or it and a
    // suffix (`%: %.sh`).
    let prerequisites = || BUILT_IN_RULES.iter().flat_map(|(_, p)| p.iter());
    let mut globs: Vec<String> = Vec::new();
    if prerequisites().any(|p| *p == "%") {
        globs.push(s.clone());
    }
    if prerequisites().any(|p| p.starts_with("%.")) {
        globs.push(format!("{s}.*"));
    }
    // What a checkout makes of any of those (`RCS/%,v` of `x.c` is `RCS/x.c,v`), but
    // for one another covers (`RCS/x*` covers `RCS/x*,v`).
    let checkouts: Vec<String> = CHECKOUTS
        .iter()
        .map(|c| c.replace('%', &format!("{s}*")))
        .collect();
    for c in &checkouts {
        if !c
            .strip_suffix(",v")
            .is_some_and(|bare| checkouts.iter().any(|o| o == bare))
        {
            globs.push(c.clone());
        }
    }
    globs
        .into_iter()
        .map(|g| (format!("{dir}{g}"), Role::Read))
        .filter(|(p, _)| p != name)
        .collect()
}

/// The files make's rules may make of the target WORD, written: the target itself,
/// which a built-in rule writes (helper-79: `make .env` beside `.env.sh` wrote `.env`
/// with `cat .env.sh`), and for an archive member `LIB(MEMBERS)` the archive and each
/// member, which make reads and may make too (`make 'x.a(../.ssh/id_rsa)'` ran `ar rv
/// x.a ../.ssh/id_rsa`).
fn target_files(word: &str) -> Vec<(String, super::Role)> {
    use super::Role::Write;
    let member = word
        .strip_suffix(')')
        .and_then(|w| w.split_once('('))
        .filter(|(lib, _)| !lib.is_empty());
    match member {
        Some((lib, members)) => std::iter::once((lib.to_string(), Write))
            .chain(members.split_whitespace().map(|m| (m.to_string(), Write)))
            .collect(),
        None => vec![(word.to_string(), Write)],
    }
}

/// The reading of VALUE, a make variable's value: its `$(shell ...)` calls are
/// shell lines it runs, and the whole value one it may run (unsure). A value with
/// shell syntax beyond words (a `;`, a pipe, a substitution: helper-72's `make x.o
/// CC='echo ... | base64 -d | sh;'`) is a line a recipe may run that no reading of its
/// words shows whole: not read.
pub(super) fn read(value: &str) -> CodeReading {
    let unknown = value.find(LINE_SYNTAX).map(|at| {
        let c = value[at..].chars().next().unwrap_or(';');
        format!("a make variable's value with `{c}` in it may run as a recipe's shell line")
    });
    CodeReading {
        shell: shell_calls(value),
        // The value as a recipe's command, and as the words of one (make's own rules
        // give `CFLAGS` to `cc`: `CFLAGS=-include.env` reads `.env`).
        maybe: vec![value.to_string(), format!("cc {value}")],
        unknown,
        ..CodeReading::default()
    }
}

/// The recipes of make's built-in rules (GNU make 4.3, `make -p -f /dev/null`), each
/// with the variables of its commands put in down to those no other variable of the
/// database makes (`$(COMPILE.c)` is `$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c`):
/// what a variable given on the command line may run with the others. Checked against
/// the installed make by `built_in_recipes_are_makes`.
const BUILT_IN_RECIPES: &[&str] = &[
    "$(AR) $(ARFLAGS) $@ $<",
    "$(AS) $(ASFLAGS) $(TARGET_MACH) -o $@ $<",
    "$(CC) $(ASFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_MACH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(CC) $(ASFLAGS) $(CPPFLAGS) $(TARGET_MACH) -c -o $@ $<",
    "$(CC) $(ASFLAGS) $(LDFLAGS) $(TARGET_MACH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $<",
    "$(CC) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(CC) -E $(CPPFLAGS) $< > $@",
    "$(CO) $(COFLAGS) $< $@",
    "$(CTANGLE) $< - $@",
    "$(CTANGLE) $^ $@",
    "$(CWEAVE) $< - $@",
    "$(CWEAVE) $^ $@",
    "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $<",
    "$(FC) $(FFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(FC) $(FFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -F $(OUTPUT_OPTION) $<",
    "$(FC) $(FFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $<",
    "$(FC) $(FFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(FC) $(FFLAGS) $(RFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(FC) $(FFLAGS) $(RFLAGS) $(TARGET_ARCH) -F $(OUTPUT_OPTION) $<",
    "$(FC) $(FFLAGS) $(RFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $<",
    "$(FC) $(FFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $<",
    "$(GET) $(GFLAGS) $(SCCS_OUTPUT_OPTION) $<",
    "$(LEX) $(LFLAGS) -t $< > $*.c",
    "$(LEX) $(LFLAGS) -t $< > $@",
    "$(LINT) $(LINTFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -C$* $<",
    "$(LINT) $(LINTFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -C$* y.tab.c",
    "$(LINT) $(LINTFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -i $*.c -o $@",
    "$(M2C) $(M2FLAGS) $(DEFFLAGS) $(TARGET_ARCH) -o $@ $<",
    "$(M2C) $(M2FLAGS) $(MODFLAGS) $(TARGET_ARCH) -o $@ $<",
    "$(M2C) $(M2FLAGS) $(MODFLAGS) $(TARGET_ARCH) -o $@ -e $@ $^",
    "$(MAKEINFO) $(MAKEINFO_FLAGS) $< -o $@",
    "$(OBJC) $(OBJCFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(OBJC) $(OBJCFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $<",
    "$(PC) $(PFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LOADLIBES) $(LDLIBS) -o $@",
    "$(PC) $(PFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $<",
    "$(RM) $*.c",
    "$(RM) $@",
    "$(RM) y.tab.c",
    "$(TANGLE) $<",
    "$(TEX) $<",
    "$(TEXI2DVI) $(TEXI2DVI_FLAGS) $<",
    "$(WEAVE) $<",
    "$(YACC) $(YFLAGS) $<",
];

/// The values make's database gives the variables of [`BUILT_IN_RECIPES`] (the rest
/// are empty).
const BUILT_IN_VALUES: &[(&str, &str)] = &[
    ("AR", "ar"),
    ("ARFLAGS", "rv"),
    ("AS", "as"),
    ("CC", "cc"),
    ("CO", "co"),
    ("CTANGLE", "ctangle"),
    ("CWEAVE", "cweave"),
    ("CXX", "g++"),
    ("FC", "f77"),
    ("GET", "get"),
    ("LEX", "lex"),
    ("LINT", "lint"),
    ("M2C", "m2c"),
    ("MAKEINFO", "makeinfo"),
    ("OBJC", "cc"),
    ("OUTPUT_OPTION", "-o $@"),
    ("PC", "pc"),
    ("RM", "rm -f"),
    ("TANGLE", "tangle"),
    ("TEX", "tex"),
    ("TEXI2DVI", "texi2dvi"),
    ("WEAVE", "weave"),
    ("YACC", "yacc"),
];

/// The commands of [`BUILT_IN_RECIPES`] that use a variable GIVEN (name, value) sets,
/// with every variable's value put in (the given one, else the database's) and the
/// automatic variables (`$@`, `$<`...) a name `x`; up to a redirection (`> $@`), which
/// writes the target. At most one per recipe; none when nothing is given.
fn built_in_commands(given: &[(String, String)]) -> Vec<String> {
    let value = |name: &str| {
        given
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .or_else(|| built_in_value(name))
            .unwrap_or("")
    };
    let mut out = Vec::new();
    for recipe in BUILT_IN_RECIPES {
        let command = recipe.split(" > ").next().unwrap_or(recipe);
        let names = recipe_names(command);
        if !names.iter().any(|n| given.iter().any(|(g, _)| g == n)) {
            continue;
        }
        let mut text = command.to_string();
        for name in names {
            text = text.replace(&format!("$({name})"), value(name));
        }
        for auto in ["$@", "$<", "$^", "$*"] {
            text = text.replace(auto, "x");
        }
        out.push(text);
    }
    out
}

/// The value make's database gives NAME (see [`BUILT_IN_VALUES`]).
fn built_in_value(name: &str) -> Option<&'static str> {
    BUILT_IN_VALUES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
}

/// The names of the variables `$(NAME)` RECIPE uses.
fn recipe_names(recipe: &str) -> Vec<&str> {
    recipe
        .split("$(")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(name, _)| name))
        .collect()
}

/// What makes a shell line more than a command's words: lists, pipes, redirections,
/// subshells, substitutions, and globs, which the recipe's shell expands (a command
/// named by one, `CC='/bin/r[m] -f x #'`, is no name a rule reads).
const LINE_SYNTAX: &[char] = &[';', '|', '&', '<', '>', '(', ')', '`', '\n', '*', '?', '['];

/// The text of each `$(shell TEXT)` and `${shell TEXT}` in VALUE, nested ones too, up
/// to its closing bracket (make counts the brackets of the same kind inside); to the
/// end where none closes it.
fn shell_calls(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in value.match_indices('$') {
        let rest = &value[at + 1..];
        let (open, close) = match rest.chars().next() {
            Some('(') => ('(', ')'),
            Some('{') => ('{', '}'),
            _ => continue,
        };
        let Some(args) = rest[1..].strip_prefix("shell") else {
            continue;
        };
        if !args.starts_with([' ', '\t']) {
            continue;
        }
        let mut depth = 1usize;
        let mut end = args.len();
        for (k, c) in args.char_indices() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    end = k;
                    break;
                }
            }
        }
        out.push(args[..end].trim().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shell_calls;

    #[test]
    fn shell_calls_as_make_expands_them() {
        assert_eq!(shell_calls("$(shell rm -f x)"), ["rm -f x"]);
        assert_eq!(shell_calls("a ${shell\tls (x)} b"), ["ls (x)"]);
        assert_eq!(
            shell_calls("$(shell echo $(shell rm y))"),
            ["echo $(shell rm y)", "rm y"]
        );
        assert_eq!(shell_calls("$(shell rm z"), ["rm z"]);
        assert!(shell_calls("$(shellx) $(SHELL) $$(shell rm) plain").len() <= 1);
        assert!(shell_calls("gcc -O2").is_empty());
    }

    #[test]
    fn built_in_commands_join_the_values_given() {
        let given = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            super::built_in_commands(&pairs)
        };
        let made = given(&[("CC", "env"), ("CFLAGS", "-Srm -f victim --")]);
        assert!(
            made.contains(&"env -Srm -f victim --   -c -o x x".to_string()),
            "{made:?}"
        );
        let made = given(&[("CPPFLAGS", "-DX")]);
        assert!(made.contains(&"cc -E -DX x".to_string()), "{made:?}");
        assert!(made.iter().all(|m| !m.contains(['$', '>'])), "{made:?}");
        assert!(given(&[("PREFIX", "/usr")]).is_empty());
        assert!(given(&[]).is_empty());
    }

    /// The installed make's database of built-in rules and variables (`make -p -f
    /// /dev/null`, in the C locale).
    fn make_database() -> String {
        let out = std::process::Command::new("make")
            .args(["-p", "-f", "/dev/null"])
            .env("LC_ALL", "C")
            .output()
            .expect("run make -p (make deps installs make)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// [`super::BUILT_IN_RECIPES`] and [`super::BUILT_IN_VALUES`] are what the
    /// installed make's database says (`make -p -f /dev/null`), its variables put in.
    #[test]
    fn built_in_recipes_are_makes() {
        let db = make_database();
        let mut values = std::collections::HashMap::new();
        let mut recipes = std::collections::BTreeSet::new();
        for line in db.lines() {
            if let Some(recipe) = line.strip_prefix('\t') {
                recipes.insert(
                    recipe
                        .trim()
                        .trim_start_matches(['@', '+', '-'])
                        .to_string(),
                );
            } else if let Some((name, value)) = line.split_once(" = ").or(line.split_once(" := ")) {
                if !name.contains([' ', '#', ':']) {
                    values.insert(name.to_string(), value.to_string());
                }
            }
        }
        let expand = |text: &str| {
            let mut text = text.to_string();
            for _ in 0..8 {
                let names: Vec<String> = super::recipe_names(&text)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                let mut changed = false;
                for name in names {
                    if let Some(v) = values.get(&name).filter(|v| v.contains("$(")) {
                        text = text.replace(&format!("$({name})"), v);
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            text
        };
        let mut found = std::collections::BTreeSet::new();
        for recipe in &recipes {
            let mut made = expand(recipe)
                .trim_start_matches(['@', '+', '-'])
                .to_string();
            // `+$(if $(wildcard $@),,$(CO) $(COFLAGS) $< $@)`: the command it runs.
            if let Some(inner) = made.strip_prefix("$(if $(wildcard $@),,") {
                made = inner.trim_end_matches(')').to_string();
            }
            if made.contains("$(") {
                found.insert(made);
            }
        }
        let table: std::collections::BTreeSet<String> = super::BUILT_IN_RECIPES
            .iter()
            .map(|r| r.to_string())
            .collect();
        assert_eq!(found, table, "make's built-in recipes");
        for (name, value) in super::BUILT_IN_VALUES {
            assert_eq!(
                values.get(*name).map(String::as_str),
                Some(*value),
                "{name}"
            );
        }
        for recipe in super::BUILT_IN_RECIPES {
            for name in super::recipe_names(recipe) {
                let known = super::BUILT_IN_VALUES.iter().any(|(n, _)| *n == name);
                let empty = values.get(name).is_none_or(|v| v.is_empty());
                assert!(known || empty, "{name} has a value in make's database");
            }
        }
    }

    #[test]
    fn values_beyond_words_are_not_read() {
        for v in [
            "echo x | sh",
            "rm x;",
            "a && b",
            "cat <f",
            "$(shell ls)",
            "`id`",
        ] {
            assert!(super::read(v).unknown.is_some(), "{v}");
        }
        for v in ["gcc", "-O2 -g -Wall", "-DNAME=\"x\"", "/usr/bin/clang-16"] {
            assert!(super::read(v).unknown.is_none(), "{v}");
        }
    }

    /// The pattern rules, checkouts and suffixes of [`super::BUILT_IN_RULES`],
    /// [`super::CHECKOUTS`] and [`super::SUFFIXES`] are those of the installed make's
    /// database, no more and no fewer.
    #[test]
    fn built_in_sources_are_makes() {
        let db = make_database();
        let mut rules = std::collections::BTreeSet::new();
        let mut checkouts = std::collections::BTreeSet::new();
        let mut suffixes = Vec::new();
        let mut implicit = false;
        for line in db.lines() {
            if line.starts_with("# Implicit Rules") {
                implicit = true;
            } else if line.starts_with("# ") && line.ends_with("Variables") {
                implicit = false;
            }
            if let Some(list) = line.strip_prefix(".SUFFIXES: ") {
                suffixes = list.split_whitespace().map(str::to_owned).collect();
            }
            if !implicit || !line.starts_with('%') || line.contains('=') {
                continue;
            }
            if let Some((_, p)) = line.split_once(":: ") {
                checkouts.insert(p.trim().to_string());
            } else if let Some((t, p)) = line.split_once(": ") {
                let p: Vec<String> = p.split_whitespace().map(str::to_owned).collect();
                rules.insert((t.to_string(), p));
            }
        }
        let ours: std::collections::BTreeSet<(String, Vec<String>)> = super::BUILT_IN_RULES
            .iter()
            .map(|(t, p)| (t.to_string(), p.iter().map(|s| s.to_string()).collect()))
            .collect();
        assert_eq!(ours, rules);
        let ours: std::collections::BTreeSet<String> =
            super::CHECKOUTS.iter().map(|c| c.to_string()).collect();
        assert_eq!(ours, checkouts);
        assert_eq!(super::SUFFIXES, suffixes.as_slice());
    }

    /// `-r` and `-R` take the built-in rules away: no source of theirs is read.
    #[test]
    fn no_built_in_rules_no_sources() {
        let make = crate::shell::lookup("make").expect("make is in the table");
        let found = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            crate::shell::read(make, &args)
                .parts
                .iter()
                .filter(|p| p.kind == crate::shell::Kind::Found)
                .count()
        };
        assert!(found(&["secret"]) > 0);
        assert_eq!(found(&["-r", "secret"]), 0);
        assert_eq!(found(&["-Rn", "secret"]), 0);
        assert_eq!(found(&["--no-builtin-rules", "secret"]), 0);
    }

    #[test]
    fn built_in_sources_of_a_target() {
        // Every rule keeps the stem and adds `.` and a suffix, or nothing: a chain of
        // them, however deep, names `STEM` or `STEM.…`; a checkout wraps any of those.
        for (target, prerequisites) in super::BUILT_IN_RULES {
            let suffix = target.strip_prefix('%').expect("a pattern");
            assert!(
                suffix.is_empty() || super::SUFFIXES.contains(&suffix),
                "{target}"
            );
            for p in prerequisites.iter() {
                let rest = p.strip_prefix('%').expect("a pattern");
                assert!(rest.is_empty() || super::SUFFIXES.contains(&rest), "{p}");
            }
        }
        for c in super::CHECKOUTS {
            assert!(
                ["%,v", "RCS/%", "RCS/%,v", "SCCS/s.%", "s.%"].contains(c),
                "{c}"
            );
        }
        let globs = |name: &str| -> Vec<globset::GlobMatcher> {
            super::built_in_sources(name)
                .iter()
                .map(|(g, _)| {
                    globset::GlobBuilder::new(g)
                        .literal_separator(true)
                        .build()
                        .expect("a glob")
                        .compile_matcher()
                })
                .collect()
        };
        let covered = |name: &str, file: &str| globs(name).iter().any(|g| g.is_match(file));
        for (name, file) in [
            ("src/x", "src/x.sh"),
            ("src/x", "src/x.c"),
            ("src/x", "src/x.y"),
            ("src/x", "src/RCS/x,v"),
            ("src/x", "src/RCS/x.c,v"),
            ("src/x", "src/SCCS/s.x.c"),
            ("src/x", "src/s.x.l"),
            ("src/x", "src/x.c,v"),
            ("x.o", "x.c"),
            ("x.o", "x.w"),
            ("x.out", "x"),
            ("Makefile", "Makefile.sh"),
            (".env", ".env.sh"),
            ("a[1]", "a[1].c"),
        ] {
            assert!(covered(name, file), "{name}: {file}");
        }
        assert!(!covered("src/x", "src/y.c"));
        assert!(!covered("src/x", "x.c"));
        assert!(!covered("a[1]", "a1.c"));
    }
}
