//! Command lines -> simple commands.
//!
//! INTERFACE (fixed; the implementation is being written):

/// One simple command after normalization.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// What runs: the innermost command's words, unquoted, with leading
    /// assignments and wrappers removed and `argv[0]` reduced to its basename.
    pub argv: Vec<String>,
    /// The words as written (unquoted, assignments removed), wrappers included:
    /// `sudo -u x rm f`, `bash -c 'rm f'`, `find . -exec rm {} ;`.
    /// Equal to `argv` when nothing was looked through.
    pub written: Vec<String>,
    /// Looked through a wrapper that changes privileges (`sudo`, `doas`, ...).
    pub privileged: bool,
    /// Why this command cannot be read statically, if so.
    pub opaque: Option<String>,
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommandLine {
    /// Every simple command, in source order, nested ones included.
    pub commands: Vec<SimpleCommand>,
    /// Static redirection targets, unquoted.
    pub redirects: Vec<String>,
    /// Why the line as a whole cannot be read, if so.
    pub opaque: Option<String>,
}

impl CommandLine {
    /// True when neither the line nor any simple command is opaque.
    pub fn is_static(&self) -> bool {
        self.opaque.is_none() && self.commands.iter().all(|c| c.opaque.is_none())
    }
}

/// Parse LINE as a shell would.
pub fn parse(line: &str) -> CommandLine {
    let argv: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    from_argv(&argv)
}

/// Judge a command given as a list of words.
pub fn from_argv(argv: &[String]) -> CommandLine {
    CommandLine {
        commands: vec![SimpleCommand {
            argv: argv.to_vec(),
            written: argv.to_vec(),
            privileged: false,
            opaque: Some("stub".into()),
        }],
        redirects: vec![],
        opaque: Some("stub parser".into()),
    }
}
