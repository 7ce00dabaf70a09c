//! The command lines of a call's command arguments, parsed once, and the
//! command-prefix and command-regexp rules each simple command hits.

use super::Prepared;
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
                        put_plain_values(&mut main, s);
                        put_loop_values(&mut main, s);
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

/// In LINE, a certain reading of TEXT, each word that expands a variable the line gives a
/// plain value (`d=build; rm -rf "$d"`: see [`shell::plain_values`]) with the
/// value put in, as bash runs it: every rule sees the words that run (`d=-rf; rm $d x`
/// is `rm -rf x`, `d=push; git $d` is `git push`).
fn put_plain_values(line: &mut CommandLine, text: &str) {
    if !line.is_certain() || !text.contains('$') {
        return;
    }
    let values = shell::plain_values(text);
    if values.is_empty() {
        return;
    }
    let put = |words: &mut Vec<String>| {
        for w in words.iter_mut() {
            if let Some(with) = shell::values::put_values(w, &values) {
                *w = with;
            }
        }
    };
    let mut why = None;
    for c in &mut line.commands {
        let before = c.argv.clone();
        let wrapped = wrapped(c);
        put(&mut c.argv);
        put(&mut c.written);
        put(&mut c.paths);
        put(&mut c.redirects);
        for form in &mut c.forms {
            put(form);
        }
        why = why.or(settle(c, &before, wrapped));
    }
    if let Some(why) = why {
        line.uncertain.get_or_insert(why);
    }
}

/// Read C again, whose words were BEFORE and now hold the values the line gives its
/// variables: its reading as written is not the one bash's words get. A word that
/// becomes an option (helper-77: `d=-r; grep "$d" x ..`, `for f in --pre=rm; do rg "$f"
/// x .; done`) makes the line uncertain (why, returned); otherwise the command is read
/// from its words again, roles and all (`d=grep; git $d --no-index x` is git grep's
/// walk; helper-79: `d=..; grep -r KEY $d` walks `..`, `d=r../.ssh/id_rsa; sed $d f` is
/// sed's script).
fn settle(c: &mut SimpleCommand, before: &[String], wrapped: bool) -> Option<String> {
    if let Some(why) = option_from_value(before, &c.argv) {
        return Some(why);
    }
    if c.argv == before {
        return None;
    }
    let shown = c.argv.join(" ").chars().take(200).collect::<String>();
    // A glob among the values is read where the paths are (its names, each tested for a
    // leading `-`: see `Prepared::glob_expansions`); the words as written stay (helper-80).
    let globbed = c
        .argv
        .iter()
        .zip(before)
        .any(|(is, was)| is != was && is.contains(['*', '?', '[']));
    if globbed {
        return None;
    }
    // Read again, the command would lose what its wrappers and assignments say (helper-80:
    // `d=x; sudo rm "$d"` would be `rm x`): its reading as written stays.
    if wrapped {
        return None;
    }
    let again = shell::from_argv(&c.argv);
    let Some((first, rest)) = again.commands.split_first().filter(|_| again.is_certain()) else {
        return Some(format!(
            "`{shown}` with the values the line gives its words is not certain"
        ));
    };
    // Commands it runs would be read out of their place in the line.
    if !rest.is_empty() {
        return Some(format!(
            "`{shown}` with the values the line gives its words runs other commands"
        ));
    }
    let (redirects, place) = (std::mem::take(&mut c.redirects), c.place.take());
    *c = first.clone();
    c.redirects = redirects;
    c.place = place;
    None
}

/// Whether C runs behind wrappers or assignments (`sudo`, `env -C`, `FOO=1`, `xargs -a
/// F`): its words as written are more than the command's.
fn wrapped(c: &SimpleCommand) -> bool {
    c.written != c.argv || c.privileged || c.forms.len() > 1
}

/// Why a command is not certain whose words were BEFORE and, with the values the line
/// gives its variables put in, are AFTER: a word that becomes an option (helper-77: `d=-r;
/// grep "$d" x ..`, `for f in --pre=rm; do rg "$f" x .; done`), which the program's
/// reading of the words as written (an operand with a `$`) does not show.
fn option_from_value(before: &[String], after: &[String]) -> Option<String> {
    let (was, is) = before
        .iter()
        .zip(after)
        .skip(1)
        .find(|(was, is)| was != is && is.starts_with('-') && !was.starts_with('-'))?;
    Some(format!(
        "`{}` is `{}`, which the program reads as an option",
        was.chars().take(100).collect::<String>(),
        is.chars().take(100).collect::<String>()
    ))
}

/// Most values of a `for` loop put into the commands of its body, per command; past it
/// the line is not certain.
const MAX_LOOP_VALUES: usize = 64;

/// In LINE, a certain reading of TEXT, each command with a word that is a `for` loop's
/// variable over a plain list (`for o in -rf -f; do rm $o x; done`) read once for each
/// of its values, as bash runs it: the command with the first value put in, and a copy
/// for each other value. Command rules then see the words that run (`rm -rf x`), as path
/// rules already do.
fn put_loop_values(line: &mut CommandLine, text: &str) {
    if !line.is_certain() || !text.contains("for ") {
        return;
    }
    let mut copies = Vec::new();
    let mut option = None;
    for c in &mut line.commands {
        let Some(name) = c
            .argv
            .iter()
            .find_map(|w| super::line_values::loop_name(w).map(str::to_owned))
        else {
            continue;
        };
        if !super::line_values::plain_lists(text, &name) {
            continue;
        }
        let values = super::line_values::loop_values(text, &name);
        if values.is_empty() {
            continue;
        }
        if values.len() > MAX_LOOP_VALUES {
            line.uncertain.get_or_insert_with(|| {
                format!("a `for` loop of more than {MAX_LOOP_VALUES} values in a command's words")
            });
            return;
        }
        let with = |value: &str| {
            let pair = [(name.clone(), value.to_owned())];
            let mut copy = c.clone();
            let put = |words: &mut Vec<String>| {
                for w in words.iter_mut() {
                    if let Some(v) = shell::values::put_values(w, &pair) {
                        *w = v;
                    }
                }
            };
            put(&mut copy.argv);
            put(&mut copy.written);
            for form in &mut copy.forms {
                put(form);
            }
            copy
        };
        let wrapped = wrapped(c);
        for v in values.iter().skip(1) {
            let mut copy = with(v);
            copy.place = None;
            option = option.or(settle(&mut copy, &c.argv, wrapped));
            copies.push(copy);
        }
        if let Some(first) = values.first() {
            let mut put = with(first);
            option = option.or(settle(&mut put, &c.argv, wrapped));
            *c = put;
        }
    }
    line.commands.extend(copies);
    if let Some(why) = option {
        line.uncertain.get_or_insert(why);
    }
}
