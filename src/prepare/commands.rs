//! The command lines of a call's command arguments, parsed once, and the
//! command-prefix and command-regexp rules each simple command hits.

use super::{put_values, Prepared};
use crate::index::{regex_hits, BitSet};
use crate::rule::Arg;
use crate::shell::{self, CommandLine, SimpleCommand};

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

/// The command-prefix and command-regexp rules one simple command hits, in
/// each of its forms (see [`crate::shell::SimpleCommand::forms`]).
#[derive(Debug)]
pub struct CmdHits {
    /// Per form: (prefix hits, regexp hits).
    pub forms: Vec<(BitSet, BitSet)>,
    /// Per form of its generous reading (deny side only, unsure): (prefix hits,
    /// regexp hits).
    pub unsure_forms: Vec<(BitSet, BitSet)>,
}

impl CmdHits {
    /// Whether rule R's prefix hits the form at FORM.
    pub fn prefix_at(&self, form: usize, r: usize) -> bool {
        self.forms.get(form).is_some_and(|(p, _)| p.get(r))
    }

    /// Whether rule R's regexp hits the form at FORM.
    pub fn regexp_at(&self, form: usize, r: usize) -> bool {
        self.forms.get(form).is_some_and(|(_, x)| x.get(r))
    }

    /// Whether rule R's prefix hits any form.
    pub fn prefix_any(&self, r: usize) -> bool {
        self.forms.iter().any(|(p, _)| p.get(r))
    }

    /// Whether rule R's regexp hits any form.
    pub fn regexp_any(&self, r: usize) -> bool {
        self.forms.iter().any(|(_, x)| x.get(r))
    }

    /// Whether rule R's prefix hits a form of the generous reading.
    pub fn unsure_prefix_any(&self, r: usize) -> bool {
        self.unsure_forms.iter().any(|(p, _)| p.get(r))
    }

    /// Whether rule R's regexp hits a form of the generous reading.
    pub fn unsure_regexp_any(&self, r: usize) -> bool {
        self.unsure_forms.iter().any(|(_, x)| x.get(r))
    }
}

impl Prepared<'_> {
    pub(super) fn is_command_key(&self, key: &str) -> bool {
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
                        let (mut main, second) = shell::read_for_rules(s);
                        put_values::put_loop_values(&mut main, s);
                        lines.push((main, false));
                        lines.extend(second.into_iter().map(|l| (l, true)));
                    }
                    Arg::Invalid(s) => {
                        let mut line = shell::parse(s);
                        line.opaque = Some("a command that is not valid Unicode text".into());
                        lines.push((line, false));
                    }
                    Arg::List(items) => {
                        let words = Arg::strings(items);
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
                // The generous reading of what the table does not know: more forms and
                // path words on the commands, and the lines of their quoted operands
                // (deny side only).
                let mut widening = shell::Widening::default();
                let mut generous = Vec::new();
                for (line, _) in &mut lines {
                    generous.extend(shell::widen(line, &mut widening));
                }
                lines.extend(generous.into_iter().map(|l| (l, true)));
                let env = self.env_problem();
                for (mut line, deny_only) in lines {
                    if let Some((why, dangerous)) = &env {
                        if *dangerous {
                            shell::note_opaque(&mut line, why);
                        }
                        // A shell the environment changes may match `.` names.
                        line.dot_globs = true;
                        if line.uncertain.is_none() {
                            line.uncertain = Some(why.clone());
                        }
                    }
                    let hits = line.commands.iter().map(|c| self.command_hits(c)).collect();
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

    fn command_hits(&self, c: &SimpleCommand) -> CmdHits {
        // On case-insensitive file systems `RM` runs `rm`: compare folded
        // (prefixes were folded when the policy was compiled).
        let fold =
            |words: &[String]| -> Vec<String> { words.iter().map(|w| w.to_lowercase()).collect() };
        let hits = |forms: &[Vec<String>]| -> Vec<(BitSet, BitSet)> {
            forms
                .iter()
                .map(|form| {
                    if self.policy.options.case_fold {
                        self.word_hits(&fold(form))
                    } else {
                        self.word_hits(form)
                    }
                })
                .collect()
        };
        CmdHits {
            forms: hits(&c.forms),
            unsure_forms: c
                .generous
                .as_ref()
                .map_or_else(Vec::new, |g| hits(&g.forms)),
        }
    }

    /// Why an argument that sets the command's environment (`env`,
    /// `environment`, `env_vars`: an object, or a list of `NAME=VALUE`)
    /// makes its reading uncertain, and whether it can change what runs
    /// (`PATH`, `LD_*`, `BASH_ENV` and the like), if it does.
    fn env_problem(&self) -> Option<(String, bool)> {
        let mut worst: Option<(String, bool)> = None;
        for key in crate::path::DEFAULT_ENV_KEYS {
            let names: Vec<String> = match self.call.arg(key) {
                None | Some(Arg::Null) => continue,
                Some(Arg::Map(pairs)) => pairs.iter().map(|(k, _)| k.clone()).collect(),
                Some(Arg::List(items)) => items
                    .iter()
                    .map(|i| match i {
                        Arg::Str(s) => s.split('=').next().unwrap_or("").to_string(),
                        _ => String::new(),
                    })
                    .collect(),
                Some(_) => vec![String::new()],
            };
            for name in names {
                let dangerous = name.is_empty() || shell::is_dangerous_env(&name);
                if dangerous || !shell::is_assignable_env(&name) {
                    let why = if name.is_empty() {
                        format!(
                            "argument `{key}` sets the environment in a way that cannot be read"
                        )
                    } else {
                        format!("argument `{key}` sets `{name}`, which can change what the command does")
                    };
                    if worst.as_ref().is_none_or(|(_, d)| dangerous && !d) {
                        worst = Some((why, dangerous));
                    }
                }
            }
        }
        worst
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
