//! Words after quote removal, and the small pure helpers the walker uses on them.

use brush_parser::word::{BraceExpressionMember, BraceExpressionOrText};

/// A word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    /// Static parts unquoted; expansions (`$x`, `$(...)`, ...) kept as written.
    pub text: String,
    /// No expansion at all: `text` is exactly what the program receives.
    pub is_static: bool,
    /// Unquoted glob or brace characters, or the result of a brace expansion: as a
    /// command name it could be anything.
    pub pattern: bool,
}

impl Word {
    /// A word that is exactly TEXT.
    pub fn literal(text: impl Into<String>) -> Self {
        Word {
            text: text.into(),
            is_static: true,
            pattern: false,
        }
    }
}

/// TEXT with each backslash dropped and the character after it kept as it is (a
/// program's own quoting: curl's `-F "name"`, `git grep`'s pathspec magic).
pub(crate) fn unbackslash(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

/// TEXT shortened for a message.
pub(crate) fn show(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", text.get(..i).unwrap_or("")),
        None => text.to_owned(),
    }
}

/// The last component of a command name: `/bin/rm` -> `rm`.
pub(crate) fn basename(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// Unquoted characters that make a word a pattern (glob, extglob, brace).
pub(crate) fn has_pattern_chars(text: &str) -> bool {
    text.contains(['*', '?', '[', ']', '{', '}'])
        || ["@(", "!(", "+("].iter().any(|p| text.contains(p))
}

/// Decode the body of `$'...'` as bash does. A NUL ends the string, as in bash.
pub(crate) fn ansi_c(body: &str) -> String {
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let decoded: Option<u32> = match e {
            'a' => Some(7),
            'b' => Some(8),
            'e' | 'E' => Some(27),
            'f' => Some(12),
            'n' => Some(10),
            'r' => Some(13),
            't' => Some(9),
            'v' => Some(11),
            '\\' | '\'' | '"' | '?' => Some(u32::from(e)),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                Some(v & 0xFF)
            }
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut v: u32 = 0;
                let mut n = 0;
                while n < max {
                    match chars.peek().and_then(|d| d.to_digit(16)) {
                        Some(d) => {
                            v = v.saturating_mul(16).saturating_add(d);
                            chars.next();
                            n += 1;
                        }
                        None => break,
                    }
                }
                if n == 0 {
                    out.push('\\');
                    out.push(e);
                    continue;
                }
                Some(v)
            }
            'c' => match chars.next() {
                Some(x) => Some(u32::from(x) & 0x1F),
                None => {
                    out.push_str("\\c");
                    continue;
                }
            },
            _ => None,
        };
        match decoded {
            Some(0) => break,
            // Invalid code points become U+FFFD, which no command name contains.
            Some(v) => out.push(char::from_u32(v).unwrap_or('\u{FFFD}')),
            None => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// TEXT made what bash reads as dash reads TEXT, for a second reading of a string run
/// by `sh`: dash has no `$'...'` or `$"..."` (a `$`, then a quoted string: `'$''...'`
/// to bash; brush-parser reads `\$'` as `$'`) and reads `&>` as `&` then `>`. Escaped
/// ones stay as they are; inside double quotes only the words' text changes.
pub(crate) fn as_dash(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut backslashes = 0;
    let mut prev = '\0';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let escaped = backslashes % 2 == 1;
        let next = chars.peek().copied();
        if !escaped && c == '$' && matches!(next, Some('\'' | '"')) {
            out.push_str("'$'");
        } else {
            out.push(c);
        }
        if !escaped && c == '&' && next == Some('>') && !matches!(prev, '<' | '>') {
            out.push(' ');
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        prev = c;
    }
    out
}

/// The command inside backquotes as the shell reads it: a backslash before `$`, a
/// backquote or a backslash (and, inside double quotes, a double quote) is removed.
pub(crate) fn unbackquote(body: &str, in_double_quotes: bool) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek() {
                if matches!(n, '$' | '`' | '\\') || (in_double_quotes && n == '"') {
                    out.push(n);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// Arithmetic TEXT made of numbers and operators only. Anything else (a variable name,
/// `$`, a subscript) can make bash evaluate a variable's value as an expression, and
/// `a[$(cmd)]` in that value runs `cmd`.
pub(crate) fn arith_is_literal(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_digit() || c.is_ascii_whitespace() || "+-*/%<>=!&|^~?:,()".contains(c))
}

/// A variable name as a builtin receives it (`read NAME`, `declare NAME=...`): true when
/// it cannot make bash evaluate anything (`x`, `a[3]`), false for `a[$i]`, `a[i]`, `$x`.
pub(crate) fn is_inert_var_name(name: &str) -> bool {
    let (base, sub) = match name.split_once('[') {
        Some((b, rest)) => match rest.strip_suffix(']') {
            Some(s) => (b, Some(s)),
            None => return false,
        },
        None => (name, None),
    };
    let ident = base
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident && sub.is_none_or(subscript_is_literal)
}

/// An array subscript that needs no evaluation: digits, `@` or `*`.
pub(crate) fn subscript_is_literal(sub: &str) -> bool {
    let s = sub.trim();
    s == "@" || s == "*" || (!s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
}

/// Variables whose value makes the shell or a common program run other code, or changes
/// what a command name runs.
pub(crate) fn is_dangerous_var(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "PYTHONHOME",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "NODE_OPTIONS",
        "NODE_PATH",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
    ];
    // Git variables that only label or trace; the others can name hooks, editors,
    // pagers, ssh commands or configuration.
    const GIT_INERT: &[&str] = &[
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_COMMITTER_DATE",
        "GIT_TERMINAL_PROMPT",
        "GIT_OPTIONAL_LOCKS",
        "GIT_FLUSH",
        "GIT_MERGE_AUTOEDIT",
        "GIT_TRACE",
    ];
    if GIT_INERT.contains(&name) {
        return false;
    }
    is_shell_or_loader_var(name)
        || EXACT.contains(&name)
        || COMMAND_VARS.contains(&name)
        || name.starts_with("GIT_")
}

/// Variables that change what the shell runs or what every program loads (`PATH`,
/// `BASH_ENV`, `LD_PRELOAD`, a function by environment), and those whose values tar and
/// less run: never assigned before a command whose reading is certain, whatever the
/// program (see [`takes_any_environment`]); `IFS` too, but before `read`.
pub(crate) fn is_loader_var(name: &str) -> bool {
    name == "IFS" || is_shell_or_loader_var(name)
}

/// The variables of [`is_loader_var`] but `IFS`, each also one of [`is_dangerous_var`].
fn is_shell_or_loader_var(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "PATH",
        "CDPATH",
        "BASH_ENV",
        "ENV",
        "PS1",
        "PS2",
        "PS3",
        "PS4",
        "SHELLOPTS",
        "BASHOPTS",
        "BASH_LOADABLES_PATH",
        "EXECIGNORE",
        "PROMPT",
        "TAR_OPTIONS",
        "LESSOPEN",
        "LESSCLOSE",
    ];
    EXACT.contains(&name)
        || ["BASH_FUNC_", "LD_", "DYLD_"]
            .iter()
            .any(|p| name.starts_with(p))
}

/// Whether NAME=VALUE may stand before a program that takes any variable
/// ([`takes_any_environment`]) with the line still certain: NAME is no variable of
/// [`is_loader_var`] and VALUE is one word ([`is_one_word_value`]). The program's code
/// may run it as a command (make's `CC=clang`, a recipe's `$(PY)` of `PY=rm`): it is
/// read generously for deny rules (`SimpleCommand::env_values`). The certain subset and
/// the walk of the syntax tree both ask it.
pub(crate) fn given_any_program(name: &str, value: &str) -> bool {
    !is_loader_var(name) && !MAKE_READS.contains(&name) && is_one_word_value(value)
}

/// Variables make reads as more than text of its recipes: where to look for targets
/// (`VPATH=.. make 'x.a(.ssh/id_rsa)'`), makefiles and options to read.
const MAKE_READS: &[&str] = &[
    "VPATH",
    "GPATH",
    "MAKEFILES",
    "MAKEFLAGS",
    "GNUMAKEFLAGS",
    "MFLAGS",
];

/// Whether VALUE, given to a variable no list knows, is one plain word that a deny
/// rule reads whole as the path it may be: letters, digits, `_`, `.`, `/`, `+`, `-`,
/// and after a leading `-` none that starts a path (`-Dwarnings`, not `-r./.env`).
pub(crate) fn is_one_word_value(value: &str) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '+' | '-');
    match value.strip_prefix('-') {
        Some(rest) => rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-')),
        None => !value.is_empty() && value.chars().all(plain),
    }
}

/// Whether the program NAME takes any variable in its environment as it takes any of
/// its words: it runs the project's code ([`crate::shell::Effect::ProjectCode`]: make,
/// python, node, pytest, go...), so only a rule that names it allows it, and that code
/// may do whatever a variable makes it do (`PYTHONPATH=src python3 -m pytest`, `PORT=3000
/// node server.js`); but not one whose configuration the table reads from a place a
/// variable moves (git's `$GIT_DIR/` and `~/.gitconfig`, cargo's `~/.cargo/`, npm's
/// `~/.npmrc`: `HOME=/tmp/x git status`, `CARGO_HOME=/tmp/x cargo build` read another).
/// Not a variable of [`is_loader_var`]; one a program runs as a command is still read
/// as one ([`command_values`]).
pub(crate) fn takes_any_environment(name: &str) -> bool {
    crate::shell::lookup(name).is_some_and(|p| {
        p.effects.contains(&crate::shell::Effect::ProjectCode)
            && !p.config.iter().any(|c| {
                ["~/", "$XDG_CONFIG_HOME/", "$GIT_DIR/"]
                    .iter()
                    .any(|moved| c.starts_with(moved))
            })
    })
}

/// Variables whose value is a command a program runs: an editor, pager, browser,
/// askpass program, remote shell or proxy (read for deny rules by [`command_values`]).
const COMMAND_VARS: &[&str] = &[
    "EDITOR",
    "VISUAL",
    "FCEDIT",
    "PAGER",
    "MANPAGER",
    "BROWSER",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "PROMPT_COMMAND",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "GIT_EXTERNAL_DIFF",
    "GIT_PROXY_COMMAND",
    "SUDO_EDITOR",
    "SELECTED_EDITOR",
    "RSYNC_RSH",
    "RSYNC_CONNECT_PROG",
    "CVS_RSH",
    "SYSTEMD_PAGER",
    "SYSTEMD_EDITOR",
    "GH_PAGER",
    "GH_EDITOR",
    "KUBE_EDITOR",
    "PSQL_PAGER",
    "BAT_PAGER",
    "DELTA_PAGER",
    "ALTERNATE_EDITOR",
];

/// The variables make's own rules run as programs (`$(CC) -c x.c`, `$(RM) x`), which
/// make takes from the environment (helper-69: `CC='rm x;' make x.o`): read for deny
/// rules by [`command_values`], as the project's code they run in is make's to allow.
const MAKE_PROGRAMS: &[&str] = &[
    "AR", "AS", "CC", "CXX", "CPP", "FC", "M2C", "PC", "CO", "GET", "LEX", "YACC", "LINT",
    "MAKEINFO", "TEX", "TEXI2DVI", "WEAVE", "CWEAVE", "TANGLE", "CTANGLE", "RM", "LD",
];

/// The commands the environment variable NAME, set to VALUE, makes a program run, as
/// shell strings: an editor, pager, browser or askpass program (`FCEDIT=rm fc` runs `rm
/// FILE`: helper-66), less's input filters (`LESSOPEN='|CMD %s'`), and git's
/// configuration given by environment (see [`git_config_values`]); none for other names.
pub(crate) fn command_values(name: &str, value: &str) -> Vec<String> {
    match name {
        _ if COMMAND_VARS.contains(&name) => vec![value.to_owned()],
        // The prompts a shell that is not interactive shows are expanded there (`set -x`
        // shows PS4, `select` PS3): their substitutions run (`PS4='$(rm x)'`). (PS1 and
        // PS2 only in an interactive shell, which is never certain.)
        "PS3" | "PS4" => vec![format!(": {value}")],
        // tar reads options from it first (`--to-command=CMD`, `--checkpoint-action=exec=CMD`).
        "TAR_OPTIONS" => vec![format!("tar {value}")],
        // make reads its options from them first (`--eval=$(shell CMD)`).
        "MAKEFLAGS" | "GNUMAKEFLAGS" | "MFLAGS" => vec![format!("make {value}")],
        _ if MAKE_PROGRAMS.contains(&name) => vec![value.to_owned()],
        // `|CMD`, `||CMD`, `|-CMD`, `-CMD`.
        "LESSOPEN" | "LESSCLOSE" => vec![value.trim_start_matches(['|', '-']).to_owned()],
        _ => git_config_values(name, value),
    }
}

/// The values of git configuration that the environment variable NAME, set to VALUE,
/// gives (any may be a command, its `!` dropped: `alias.q=!rm x`): `GIT_CONFIG_VALUE_N`,
/// and each single-quoted string of `GIT_CONFIG_PARAMETERS` (`'alias.q'='!rm x'`, keys
/// included); none for other names.
pub(crate) fn git_config_values(name: &str, value: &str) -> Vec<String> {
    let values: Vec<&str> = if name.starts_with("GIT_CONFIG_VALUE_") {
        vec![value]
    } else if name == "GIT_CONFIG_PARAMETERS" {
        value.split('\'').skip(1).step_by(2).collect()
    } else {
        Vec::new()
    };
    values
        .into_iter()
        .map(|v| v.strip_prefix('!').unwrap_or(v).to_owned())
        .collect()
}

/// An environment variable known to change nothing about what a command runs, or
/// which files it reads as code: what a certain line may assign before a command.
/// A list of what is known inert, not of what is known dangerous: `HOME`,
/// `XDG_CONFIG_HOME`, `GIT_*`, `PAGER`, `RUSTC_WRAPPER`, `AWS_CONFIG_FILE` and
/// countless others make programs read configuration or run commands.
pub(crate) fn is_inert_env(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "LANG",
        "LANGUAGE",
        "TZ",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "COLUMNS",
        "LINES",
        "CI",
        "DEBUG",
        "VERBOSE",
        "RUST_BACKTRACE",
        "RUST_LOG",
        "RUST_TEST_THREADS",
        "CARGO_TERM_COLOR",
        "CARGO_INCREMENTAL",
        "PYTHONUNBUFFERED",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONHASHSEED",
        "NODE_ENV",
        // A date format (`ls`, `du`) and a timestamp (reproducible builds): values
        // that name no file. Not `TERM`: Emacs loads `term/TERM.el` from its load
        // path, so a `TERM` with a `/` names a file of code.
        "TIME_STYLE",
        "SOURCE_DATE_EPOCH",
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_COMMITTER_DATE",
        "GIT_TERMINAL_PROMPT",
        "GIT_OPTIONAL_LOCKS",
    ];
    EXACT.contains(&name)
        || (name.starts_with("LC_")
            && name[3..]
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b == b'_'))
}

/// A name a certain line may assign: an inert environment variable, or a lower-case
/// shell variable (which no program reads, but for the `*_proxy` ones).
pub(crate) fn is_assignable(name: &str) -> bool {
    is_inert_env(name)
        || (name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            && !name.ends_with("_proxy"))
}

/// The words a brace expansion gives, as raw shell text, or None when there would be
/// more than LIMIT of them.
pub(crate) fn expand_braces(pieces: &[BraceExpressionOrText], limit: usize) -> Option<Vec<String>> {
    let mut acc = vec![String::new()];
    for piece in pieces {
        let alternatives = match piece {
            BraceExpressionOrText::Text(t) => vec![t.clone()],
            BraceExpressionOrText::Expr(members) => {
                let mut alts = Vec::new();
                for m in members {
                    alts.extend(expand_member(m, limit)?);
                    if alts.len() > limit {
                        return None;
                    }
                }
                alts
            }
        };
        if acc.len().saturating_mul(alternatives.len()) > limit {
            return None;
        }
        acc = acc
            .iter()
            .flat_map(|a| alternatives.iter().map(move |b| format!("{a}{b}")))
            .collect();
    }
    Some(acc)
}

fn expand_member(m: &BraceExpressionMember, limit: usize) -> Option<Vec<String>> {
    match m {
        BraceExpressionMember::Child(pieces) => expand_braces(pieces, limit),
        BraceExpressionMember::NumberSequence {
            start,
            end,
            increment,
        } => {
            let seq = sequence(i128::from(*start), i128::from(*end), *increment, limit)?;
            Some(seq.into_iter().map(|n| n.to_string()).collect())
        }
        BraceExpressionMember::CharSequence {
            start,
            end,
            increment,
        } => {
            let seq = sequence(
                i128::from(u32::from(*start)),
                i128::from(u32::from(*end)),
                *increment,
                limit,
            )?;
            Some(
                seq.into_iter()
                    .filter_map(|n| u32::try_from(n).ok().and_then(char::from_u32))
                    .map(|c| {
                        // Characters between `Z` and `a` are punctuation: keep them literal.
                        if c.is_ascii_alphanumeric() {
                            c.to_string()
                        } else {
                            format!("\\{c}")
                        }
                    })
                    .collect(),
            )
        }
    }
}

fn sequence(start: i128, end: i128, increment: i64, limit: usize) -> Option<Vec<i128>> {
    let step = i128::from(increment).abs().max(1);
    let count = (end - start).abs() / step + 1;
    if count > i128::try_from(limit).unwrap_or(i128::MAX) {
        return None;
    }
    let dir = if end >= start { step } else { -step };
    Some((0..count).map(|k| start + k * dir).collect())
}
