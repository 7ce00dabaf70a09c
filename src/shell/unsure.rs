//! Why a deny-side match is unsure (DESIGN.md, "Certain and unsure matches"): it rests
//! only on what the reading cannot know. A match with no such reason is certain.

use std::fmt;

/// What a match rests on that the reading cannot know.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unsure {
    /// A value only the running shell knows (`"$d"`, a command's output): the word as
    /// written.
    ShellValue(String),
    /// A word of a program the table does not know, read generously: the program.
    UnknownProgram(String),
    /// A word of a known program given an option the table does not know, or code its
    /// reader cannot read (the program may stop at it, or read its words otherwise):
    /// the program.
    UnknownOption(String),
    /// A shell other than bash and dash, whose reading is not checked against it: the
    /// shell.
    OtherShell(String),
    /// A file a known program reads the names of the files it opens from (`file -f
    /// list`): the names are not in the line. The file.
    NamesFrom(String),
    /// A directory a program walks holds a file the rule is about, and the command has
    /// patterns that choose the files it opens (`grep -r --include=*.py x .`): the
    /// directory.
    Filtered(String),
    /// A directory a program walks has more entries than the reading looks through: the
    /// directory.
    LargeWalk(String),
    /// A directory a program walks, named by a path the reading cannot read as one
    /// (`lnk/..`, which the kernel reads through the link's target): the word.
    UnreadWalk(String),
    /// What git prints from its store cannot be known: why (its index is not read, the
    /// repository is not one the reading trusts).
    GitStore(String),
    /// A word that starts with `~` names a file of that name in the directory when its
    /// `~` is quoted (`'~+/x'`), which the reading does not tell from the expanded one,
    /// and such a file is there: the word.
    QuotedTilde(String),
}

impl fmt::Display for Unsure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short = |s: &str| s.chars().take(120).collect::<String>();
        match self {
            Unsure::ShellValue(w) => write!(
                f,
                "`{}` is a value only the running shell knows",
                short(w)
            ),
            Unsure::UnknownProgram(p) => write!(
                f,
                "`{}` is a program whose words are read generously (what it does with them is not known)",
                short(p)
            ),
            Unsure::UnknownOption(p) => write!(
                f,
                "`{}` was given words the program table does not read (an unknown option, or code it cannot read): what it does with them is not known",
                short(p)
            ),
            Unsure::OtherShell(s) => write!(
                f,
                "`{}` is a shell whose reading is not checked against it (read as bash reads it, and generously)",
                short(s)
            ),
            Unsure::NamesFrom(n) => write!(
                f,
                "`{}` gives the names of the files the command opens, which the line does not show",
                short(n)
            ),
            Unsure::Filtered(d) => write!(
                f,
                "`{}` holds a file the rule is about, and the command's patterns choose which files it opens",
                short(d)
            ),
            Unsure::LargeWalk(d) => write!(
                f,
                "`{}` has more entries than the reading looks through for a walk",
                short(d)
            ),
            Unsure::UnreadWalk(w) => write!(
                f,
                "`{}` is a directory the command walks that the reading cannot resolve",
                short(w)
            ),
            Unsure::QuotedTilde(w) => write!(
                f,
                "`{}` names a file in the directory when its `~` is quoted, and one of that name is there",
                short(w)
            ),
            Unsure::GitStore(why) => write!(
                f,
                "which files git opens from its index or store is not known: {}",
                short(why)
            ),
        }
    }
}
