//! The one list of shells: every part of the reading that asks whether a program is a
//! shell (its `-c` string, its script operand, a script it may read from standard
//! input) asks here.
//!
//! Only the shells the differential test runs, bash and dash (as `sh` too), can be
//! read with certainty. Every other shell, and a versioned name (`bash5.2`, `zsh-5.9`:
//! not the bash the test runs), is read as bash reads it and generously for deny rules,
//! and is never allowed.

/// Shell names, each a program that reads a command line from `-c`, a script file or
/// its standard input.
const SHELLS: &[&str] = &[
    "sh", "bash", "rbash", "dash", "ash", "hush", "zsh", "ksh", "ksh93", "mksh", "lksh", "pdksh",
    "oksh", "loksh", "yash", "posh", "fish", "csh", "tcsh",
];

/// The shells whose reading the differential test checks.
const CHECKED: &[&str] = &["sh", "bash", "dash"];

/// A program name that names a shell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShellName {
    /// The shell, without a version: `zsh` for `zsh-5.9`.
    pub kind: &'static str,
    /// Whether its reading can be certain: bash or dash, by its own name.
    pub checked: bool,
}

/// The shell BASE (a basename) names, if any: a shell's name, or one followed by a
/// version (`bash5.2`, `zsh-5.9`, `ksh2020`).
pub(crate) fn shell_named(base: &str) -> Option<ShellName> {
    if let Some(kind) = SHELLS.iter().find(|s| **s == base) {
        return Some(ShellName {
            kind,
            checked: CHECKED.contains(kind),
        });
    }
    // The longest name that starts BASE and leaves a version.
    SHELLS
        .iter()
        .filter(|s| {
            base.strip_prefix(**s).is_some_and(|rest| {
                let rest = rest.strip_prefix(['-', '.']).unwrap_or(rest);
                rest.starts_with(|c: char| c.is_ascii_digit())
                    && rest.chars().all(|c| c.is_ascii_digit() || c == '.')
            })
        })
        .max_by_key(|s| s.len())
        .map(|kind| ShellName {
            kind,
            checked: false,
        })
}

/// Files zsh reads before any `-c` string or script (`~/.zshenv`, through `$ZDOTDIR`
/// too) and, as a login or interactive shell, after: paths a zsh command opens.
pub(crate) const ZSH_STARTUP_FILES: &[&str] = &[
    "/etc/zsh/zshenv",
    "/etc/zshenv",
    "~/.zshenv",
    "$ZDOTDIR/.zshenv",
    "/etc/zsh/zprofile",
    "/etc/zsh/zshrc",
    "/etc/zsh/zlogin",
    "~/.zprofile",
    "~/.zshrc",
    "~/.zlogin",
    "$ZDOTDIR/.zprofile",
    "$ZDOTDIR/.zshrc",
    "$ZDOTDIR/.zlogin",
];
