//! The command lines of a call's command arguments, parsed once, and the
//! command-prefix and command-regexp rules each simple command hits.

use super::Prepared;
use crate::index::{regex_hits, BitSet};
use crate::rule::Arg;
use crate::shell::{self, CommandLine};

/// The simple commands of one command argument, with the rules they hit.
#[derive(Debug)]
pub struct CmdCand {
    pub key: String,
    pub line: CommandLine,
    /// Read only to give deny-side rules a second look (a raw scan for
    /// substitutions the parser may have read as quoted text); never
    /// considered by allow rules.
    pub deny_only: bool,
    /// The rules each simple command hits, in the order of `line.commands`.
    pub hits: Vec<CmdHits>,
}

/// The command-prefix and command-regexp rules one simple command hits, on
/// the words that run (`argv`) and on the words as written (`written`).
#[derive(Debug)]
pub struct CmdHits {
    pub prefix_argv: BitSet,
    pub prefix_written: BitSet,
    pub regexp_argv: BitSet,
    pub regexp_written: BitSet,
}

impl CmdHits {
    /// The prefix hits on the words as run, or as written when PRIVILEGED
    /// (an allow rule covers a command run through `sudo` only by its
    /// written form).
    pub fn prefix(&self, privileged: bool) -> &BitSet {
        if privileged {
            &self.prefix_written
        } else {
            &self.prefix_argv
        }
    }

    /// The regexp hits, chosen as for [`CmdHits::prefix`].
    pub fn regexp(&self, privileged: bool) -> &BitSet {
        if privileged {
            &self.regexp_written
        } else {
            &self.regexp_argv
        }
    }

    /// Whether rule R's prefix hits either form.
    pub fn prefix_any(&self, r: usize) -> bool {
        self.prefix_argv.get(r) || self.prefix_written.get(r)
    }

    /// Whether rule R's regexp hits either form.
    pub fn regexp_any(&self, r: usize) -> bool {
        self.regexp_argv.get(r) || self.regexp_written.get(r)
    }
}

impl Prepared<'_> {
    fn is_command_key(&self, key: &str) -> bool {
        self.policy.any_command_keys.contains(key)
    }

    /// The command lines of the call's command arguments, parsed once.
    pub fn commands(&self) -> &Vec<CmdCand> {
        self.commands.get_or_init(|| {
            let mut out = Vec::new();
            for (key, value) in &self.call.args {
                if !self.is_command_key(key) {
                    continue;
                }
                let mut lines: Vec<(CommandLine, bool)> = Vec::new();
                match value {
                    Arg::Null => continue,
                    Arg::Str(s) => {
                        let main = shell::parse(s);
                        let second = shell::second_looks(s, &main);
                        lines.push((main, false));
                        for region in second {
                            lines.push((shell::parse(&region), true));
                        }
                    }
                    Arg::Invalid(s) => {
                        let mut line = shell::parse(s);
                        line.opaque = Some("a command that is not valid Unicode text".into());
                        lines.push((line, false));
                    }
                    Arg::List(items) => {
                        let words: Option<Vec<String>> = items
                            .iter()
                            .map(|i| match i {
                                Arg::Str(s) => Some(s.clone()),
                                _ => None,
                            })
                            .collect();
                        match words {
                            Some(w) => {
                                lines.push((shell::from_argv(&w), false));
                                // A tool that joins the words into a shell line
                                // would run what the operators in them say.
                                let joined = w.join(" ");
                                if joined.contains([';', '|', '&', '<', '>', '$', '`', '(', '\n']) {
                                    lines.push((shell::parse(&joined), false));
                                }
                            }
                            None => lines.push((
                                CommandLine {
                                    opaque: Some("a command list with non-string words".into()),
                                    ..CommandLine::default()
                                },
                                false,
                            )),
                        }
                    }
                    other => lines.push((
                        CommandLine {
                            opaque: Some(format!(
                                "a command that is not text: {}",
                                other.to_json()
                            )),
                            ..CommandLine::default()
                        },
                        false,
                    )),
                }
                for (line, deny_only) in lines {
                    let hits = line
                        .commands
                        .iter()
                        .map(|c| self.command_hits(&c.argv, &c.written))
                        .collect();
                    out.push(CmdCand {
                        key: key.clone(),
                        line,
                        deny_only,
                        hits,
                    });
                }
            }
            out
        })
    }

    fn command_hits(&self, argv: &[String], written: &[String]) -> CmdHits {
        // On case-insensitive file systems `RM` runs `rm`: compare folded
        // (prefixes were folded when the policy was compiled).
        let fold =
            |words: &[String]| -> Vec<String> { words.iter().map(|w| w.to_lowercase()).collect() };
        let (argv_f, written_f);
        let (argv, written) = if self.policy.options.case_fold {
            argv_f = fold(argv);
            written_f = fold(written);
            (&argv_f[..], &written_f[..])
        } else {
            (argv, written)
        };
        let (prefix_argv, regexp_argv) = self.word_hits(argv);
        let (prefix_written, regexp_written) = self.word_hits(written);
        CmdHits {
            prefix_argv,
            prefix_written,
            regexp_argv,
            regexp_written,
        }
    }

    /// The prefix and regexp rules that WORDS hit.
    fn word_hits(&self, words: &[String]) -> (BitSet, BitSet) {
        let mut prefix = BitSet::new(self.n());
        let mut regexp = BitSet::new(self.n());
        if let Some(prefixes) = words.first().and_then(|w| self.policy.cmd_prefix.get(w)) {
            for (rule, p) in prefixes {
                if words.len() >= p.len() && words[..p.len()] == p[..] {
                    prefix.set(*rule);
                }
            }
        }
        if !self.policy.cmd_regexps.set.is_empty() {
            regex_hits(&self.policy.cmd_regexps, &words.join(" "), &mut regexp);
        }
        (prefix, regexp)
    }
}
