//! Command lines -> simple commands.
//!
//! A command line is read the way bash reads it and broken into the simple commands it
//! would run: across `;` `&&` `||` `|` `&` and newlines, inside subshells, groups, `if`,
//! `for`, `while`, `until`, `case`, function bodies, `$(...)`, backticks, `<(...)`,
//! arithmetic and here-documents, and inside the strings given to `sh -c` and friends.
//! Each simple command is then normalized: leading assignments are dropped, wrappers such
//! as `env`, `sudo`, `timeout` or `xargs` are looked through, quotes are removed and
//! `/bin/rm` becomes `rm`. Whatever cannot be read statically is marked opaque, and an
//! opaque command never counts as allowed.
//!
//! Parser choice. We use `brush-parser`, the parser of the brush shell: it is pure Rust
//! (no C toolchain), maintained, has a synchronous API, covers bash syntax (`[[ ]]`,
//! arrays, `$(...)`, backticks, process substitution, here-documents, functions, `case`,
//! `coproc`) and returns a parse error instead of silently recovering. `yash-syntax`
//! parses POSIX sh only (it rejects `[[`) behind an async API; `tree-sitter-bash` needs a C
//! build and recovers from errors by inserting `ERROR` nodes, which a security check would
//! have to re-detect; `conch-parser` is unmaintained. brush-parser can overflow the stack on
//! very deep nesting and contains `unwrap`s, so a parse is bounded first (length, counted
//! nesting), lines longer than a few hundred bytes run on a thread of their own with a
//! large stack, and a panic anywhere makes the line opaque. A line in the certain
//! subset (see `certain`) is read without brush-parser, exactly; it is the only kind of
//! line an allow rule may allow. `tests/shell.rs` checks that brush-parser's reading of
//! such lines agrees, and `tests/bash_oracle.rs` checks the reading against real bash.
//!
//! Known limits: programs that interpret their own arguments as code (`awk`, `python -c`,
//! `git -c alias...`, `ssh host CMD`, `rsync -e`, `parallel`) are single commands here;
//! only the wrappers listed in `wrap/` are looked through; globs and expansions in
//! arguments are kept as written (`rm $opts /` is not `rm -rf /`); `xargs` appends
//! arguments we cannot see. Arithmetic on variables, `declare -i`, array subscripts and
//! the like are opaque, since bash evaluates variable values there as code.

// The files: `walk` (brush-parser's syntax tree), `expand` (words and what nests in
// them), `certain` (the certain subset, read exactly), `guess` (commands guessed where a parse
// fails), `scan` (raw second looks), `guard` (bounds and the parser thread), `word`
// (word helpers), `wrap/` (wrappers, privileged commands, builtins).
mod certain;
mod expand;
mod guard;
mod guess;
mod scan;
mod walk;
mod word;
mod wrap;

pub use scan::{second_looks, substitution_regions, Looks};

/// Whether NAME, set in a command's environment, can change which programs run or
/// load code into them (`PATH`, `LD_*`, `BASH_ENV`, `PAGER`, ...).
pub fn is_dangerous_env(name: &str) -> bool {
    word::is_dangerous_var(name)
}

/// Whether NAME may be set in a command's environment with its reading still
/// certain: an environment variable known to be inert, or a lower-case shell name.
pub fn is_assignable_env(name: &str) -> bool {
    word::is_assignable(name)
}

/// Mark LINE opaque for WHY, unless it is already.
pub fn note_opaque(line: &mut CommandLine, why: &str) {
    if line.opaque.is_none() {
        line.opaque = Some(why.to_string());
    }
}

/// Why FORM (a command's words) reads the names of the files it opens from data, if it
/// does: `--files0-from`, `--files-from` (`sort`, `wc`, `du`, `tar`, `rsync`...), tar's
/// `-T`, `cpio`.
pub fn names_from_data(form: &[String]) -> Option<String> {
    let name = form.first()?.as_str();
    let args = form.get(1..).unwrap_or(&[]);
    let long = args
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a.starts_with("--files0-from") || a.starts_with("--files-from"));
    let tar_t = name == "tar"
        && args
            .iter()
            .take_while(|a| *a != "--")
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('T'));
    (long || tar_t || name == "cpio").then(|| {
        format!("`{name}` reads the names of the files it opens from data the line does not show")
    })
}

/// Why FORM (a command's words, its name a basename) reads what symbolic links lead to
/// while it walks a directory tree, if it does: what it reads then depends on the links
/// in the tree, which the line does not show (`grep -R x .` reads `~/.ssh` through a link
/// to it). `grep -R`, `rg -L`, `find -L`/`-follow`, `ls -RL`, `du -L`, `cp -rL`, `tar -h`,
/// `rsync -L`/`--copy-dirlinks`, `chmod`/`chown`/`chgrp -RL`, `tree -l`, and `zip -r`
/// without `-y`.
pub fn follows_links(form: &[String]) -> Option<String> {
    let name = form.first()?.as_str();
    let args = form.get(1..).unwrap_or(&[]);
    // Short options, bundled or not, up to `--`; and the long ones.
    let mut short = String::new();
    let mut long: Vec<&str> = Vec::new();
    for a in args {
        if a == "--" {
            break;
        }
        if let Some(l) = a.strip_prefix("--") {
            long.push(l.split('=').next().unwrap_or(l));
        } else if let Some(cluster) = a.strip_prefix('-') {
            short.extend(cluster.chars().take_while(char::is_ascii_alphabetic));
        }
    }
    let has = |c: char| short.contains(c);
    let has_long = |l: &str| long.contains(&l);
    let follows = match name {
        "grep" | "egrep" | "fgrep" | "zgrep" => has('R') || has_long("dereference-recursive"),
        "rg" => has('L') || has_long("follow"),
        // `-follow` is a primary: a word of its own, anywhere.
        "find" => {
            args.iter()
                .take_while(|a| a.starts_with('-'))
                .any(|a| a == "-L")
                || args.iter().any(|a| a == "-follow")
        }
        "ls" => (has('L') || has_long("dereference")) && (has('R') || has_long("recursive")),
        "du" => has('L') || has_long("dereference"),
        "cp" => {
            (has('L') || has_long("dereference"))
                && (has('r')
                    || has('R')
                    || has('a')
                    || has_long("recursive")
                    || has_long("archive"))
        }
        "tar" => {
            has_long("dereference")
                || args
                    .first()
                    .is_some_and(|a| !a.starts_with('-') && a.contains('h'))
                || args
                    .iter()
                    .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('h'))
        }
        "rsync" => has('L') || has_long("copy-links") || has_long("copy-dirlinks") || has('K'),
        "chmod" | "chown" | "chgrp" => (has('R') || has_long("recursive")) && has('L'),
        "tree" => has('l'),
        "zip" => {
            (has('r') || has('R') || has_long("recurse-paths"))
                && !has('y')
                && !has_long("symlinks")
        }
        _ => false,
    };
    follows.then(|| {
        format!(
            "`{name}` follows symbolic links in the tree it walks: what it reads depends on them"
        )
    })
}

/// The directories the options of FORM (a command's words, its name a basename) move
/// it to: `env -C DIR`/`--chdir=DIR`, `sudo -D DIR`/`--chdir=DIR`, `git -C DIR`,
/// `make -C DIR`/`--directory=DIR`, `tar -C DIR`/`--directory=DIR`, `ninja -C DIR`,
/// `cargo -C DIR`, `pnpm -C DIR`/`--dir DIR`, `npm --prefix DIR`, `yarn --cwd DIR`.
/// Read as getopt reads them: short options bundled (`env -iC DIR`, `tar -cC DIR`,
/// tar's `cC DIR` without a dash), long ones abbreviated (`--chd=DIR`, `--dir DIR`).
/// Every option of the program is not known here, so a word is never skipped as an
/// option's value: what is not a directory here is only a path word elsewhere.
pub fn chdir_options(form: &[String]) -> Vec<String> {
    // (the short option, the short options that take a value, the long option)
    let (short, valued, long): (char, &str, &str) = match form.first().map(String::as_str) {
        Some("env") => ('C', "uSC", "chdir"),
        Some("sudo") => ('D', "CDghprtUuT", "chdir"),
        Some("git") => ('C', "Cc", ""),
        Some("ninja") => ('C', "Cfjkld", ""),
        Some("cargo") => ('C', "CjpZ", ""),
        Some("make" | "gmake") => ('C', "CfIjlOoW", "directory"),
        Some("tar" | "gtar" | "bsdtar") => ('C', "CbfFgHIKLNTVX", "directory"),
        Some("pnpm") => ('C', "C", "dir"),
        Some("npm") => ('\0', "", "prefix"),
        Some("yarn") => ('\0', "", "cwd"),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let is_tar = matches!(
        form.first().map(String::as_str),
        Some("tar" | "gtar" | "bsdtar")
    );
    for (k, w) in form.iter().enumerate().skip(1) {
        let next = || form.get(k + 1).cloned();
        if w == "--" {
            break;
        }
        if let Some(opt) = w.strip_prefix("--") {
            let (name, value) = match opt.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (opt, None),
            };
            // Any prefix: getopt takes an unambiguous one (`env --c=DIR`), and an
            // ambiguous one is an error that runs nothing.
            if !long.is_empty() && !name.is_empty() && long.starts_with(name) {
                out.extend(value.or_else(next));
            }
            continue;
        }
        // `tar cC DIR`: the first word is a bundle of options without a dash, whose
        // values are the next words in order.
        let old_style = is_tar && k == 1 && !w.starts_with('-');
        let Some(cluster) = w.strip_prefix('-').or(old_style.then_some(w.as_str())) else {
            continue;
        };
        // GNU tar also takes a dashed cluster's values from the next words in order
        // (`tar -cfC - DIR`): read both ways.
        if is_tar && !old_style && cluster.ends_with(short) {
            let values = cluster.chars().filter(|c| valued.contains(*c)).count();
            out.extend(form.get(k + values).cloned());
        }
        let mut values = 0;
        for (at, ch) in cluster.char_indices() {
            if !valued.contains(ch) {
                continue;
            }
            let rest = &cluster[at + ch.len_utf8()..];
            if old_style {
                values += 1;
                if ch == short {
                    out.extend(form.get(k + values).cloned());
                }
                continue;
            }
            if ch == short {
                out.extend(if rest.is_empty() {
                    next()
                } else {
                    Some(rest.to_string())
                });
            }
            break;
        }
    }
    out
}

/// Words of LINE that reach commands through variables, read from the raw text for
/// deny-side path rules (what `$f` may name): the values of assignments
/// (`f=~/.ssh/id_rsa; cat $f`), of arrays (`a=(x y)`) and of parameter operators
/// (`${x:-~/.ssh/id_rsa}`), the words of `for NAME in WORDS` lists, and the words that
/// use those names with each value put in (`x=../home; cat $x/.ssh/id_rsa`). Each with
/// its quotes dropped, and again with its backslashes taken as escapes.
pub fn value_words(line: &str) -> Vec<String> {
    const MAX_VALUES: usize = 1024;
    let tokens = value_tokens(line);
    let mut values: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() && out.len() < MAX_VALUES {
        let t = tokens[i].as_str();
        i += 1;
        if t == "in" && i >= 3 && tokens[i - 3] == "for" {
            let name = tokens[i - 2].clone();
            while let Some(w) = tokens.get(i).filter(|w| !matches!(w.as_str(), "do" | ";")) {
                values.push((name.clone(), w.clone()));
                i += 1;
            }
            continue;
        }
        if let Some((name, value)) = t.split_once('=') {
            // `a[0]=V` assigns an element of `a`.
            let name = name.trim_end_matches('+');
            let name = match name.split_once('[') {
                Some((base, sub)) if sub.ends_with(']') => base,
                _ => name,
            };
            let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if is_name && value.is_empty() && tokens.get(i).is_some_and(|w| w == "(") {
                while let Some(w) = tokens.get(i + 1).filter(|w| *w != ")") {
                    // `a=([1]=V)`: an element given its index.
                    let element = match w.strip_prefix('[').and_then(|r| r.split_once("]=")) {
                        Some((_, v)) => v.to_string(),
                        None => w.clone(),
                    };
                    values.push((name.to_string(), element));
                    i += 1;
                }
                i += 1;
            } else if is_name && !value.is_empty() {
                values.push((name.to_string(), value.to_string()));
            }
        }
        values.extend(operator_defaults(t));
    }
    values.extend(positional_values(&tokens));
    for (name, v) in &values {
        push_unquoted(&mut out, v);
        // `$'...'` as bash decodes it (`$'\x73'` is `s`).
        if v.contains("$'") {
            push_unquoted(&mut out, &decode_ansi_c(v));
        }
        // Each part of a `:` list (`x=a:~/b`, whose `~` bash expands), and the time
        // zone file `TZ` names (`TZ=:/path`, relative to the zone directory).
        if v.contains(':') {
            for part in v.split(':').filter(|p| !p.is_empty()) {
                push_unquoted(&mut out, part);
            }
        }
        if name == "TZ" {
            let zone = v.trim_start_matches(':');
            if !zone.starts_with(['/', '~']) && !zone.is_empty() {
                push_unquoted(&mut out, &format!("/usr/share/zoneinfo/{zone}"));
            }
        }
    }
    // The words that use a name given a value here, with each value in its place (at
    // most 256 of each, so that no line costs more than 65,536 replacements).
    // A word made longer than 4,096 bytes is left out, and all of them hold at most
    // 256 KB: a value used many times in one word must not make the line cost more.
    values.truncate(256);
    let mut bytes = 0;
    for t in tokens.iter().filter(|t| t.contains('$')).take(256) {
        // `${x:-../home}/.ssh/x`: the word with each operator's operand in its place.
        let defaults = replace_operators(t);
        if defaults != *t && out.len() < MAX_VALUES {
            push_unquoted(&mut out, &defaults);
        }
        for (name, v) in &values {
            let uses = t.matches(name.as_str()).count();
            if out.len() >= MAX_VALUES || t.len() + uses * v.len() > 4096 || bytes > 256 * 1024 {
                continue;
            }
            let braced = format!("${{{name}}}");
            let with = t.replace(&braced, v);
            let with = replace_name(&with, name, v);
            // `${a[0]}`, `${a[@]}`: any element of `a`.
            let with = replace_elements(&with, name, v);
            if with != *t {
                bytes += with.len();
                push_unquoted(&mut out, &with);
            }
        }
    }
    // `HOME` given a value in the line (`for HOME in .`, `HOME=/x`): `~` is that value.
    for (_, v) in values.iter().filter(|(name, _)| name == "HOME").take(16) {
        for t in tokens.iter().filter(|t| t.starts_with('~')).take(256) {
            let rest = &t[1..];
            if (rest.is_empty() || rest.starts_with('/')) && out.len() < MAX_VALUES {
                push_unquoted(&mut out, &format!("{v}{rest}"));
            }
        }
    }
    out.truncate(MAX_VALUES);
    out
}

/// What the positional parameters used in TOKENS may be when a `-c` string is given
/// them (`sh -c 'cat $1/.ssh/x' _ ~`): each plain word after the first `-c` option, at
/// most 16, for each of `$1`...`$9`, `$@`, `$*` the text uses.
fn positional_values(tokens: &[String]) -> Vec<(String, String)> {
    let Some(at) = tokens
        .iter()
        .position(|t| t.starts_with('-') && !t.starts_with("--") && t.ends_with('c'))
    else {
        return Vec::new();
    };
    let words: Vec<&String> = tokens[at + 1..]
        .iter()
        .filter(|t| !t.contains('$') && !matches!(t.as_str(), "(" | ")" | ";"))
        .take(16)
        .collect();
    let mut out = Vec::new();
    for name in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"] {
        let used =
            |t: &String| t.contains(&format!("${name}")) || t.contains(&format!("${{{name}"));
        if tokens.iter().any(used) {
            out.extend(words.iter().map(|w| (name.to_string(), (*w).clone())));
        }
    }
    out
}

/// The raw text of LINE split into words at blanks and `;&|` and backquotes, with `(`,
/// `)` and `;` as words of their own; at most 4,096 words.
fn value_tokens(line: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut cur = String::new();
    for c in line.chars() {
        if tokens.len() >= 4096 {
            break;
        }
        if c.is_whitespace() || "&|`;()".contains(c) {
            if !cur.is_empty() {
                tokens.push(std::mem::take(&mut cur));
            }
            if "();".contains(c) {
                tokens.push(c.to_string());
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    tokens
}

/// The operands of the parameter operators in T that give a value (`${x:-W}`,
/// `${x=W}`, `${x:+W}`...), with the parameter's name.
fn operator_defaults(t: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(at) = rest.find("${") {
        rest = &rest[at + 2..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_len);
        let after = after.strip_prefix(':').unwrap_or(after);
        let Some(operand) = after.strip_prefix(['-', '=', '+', '?']) else {
            continue;
        };
        let end = operand.find('}').unwrap_or(operand.len());
        if !name.is_empty() && end > 0 {
            out.push((name.to_string(), operand[..end].to_string()));
        }
    }
    out
}

/// T with every `${NAME[...]}` made V.
fn replace_elements(t: &str, name: &str, v: &str) -> String {
    let pat = format!("${{{name}[");
    let mut out = String::new();
    let mut rest = t;
    while let Some(at) = rest.find(&pat) {
        out.push_str(&rest[..at]);
        let after = &rest[at + pat.len()..];
        match after.find("]}") {
            Some(end) => {
                out.push_str(v);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&pat);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// T with every `${NAME<op>WORD}` that gives a value (`:-`, `-`, `:=`, `=`, `:+`, `+`)
/// made WORD (the innermost first, so nested ones are read too).
fn replace_operators(t: &str) -> String {
    let mut text = t.to_string();
    // Each turn takes one `${` away; a word longer than 4,096 bytes is left out.
    let turns = if t.len() > 4096 {
        0
    } else {
        t.matches("${").count()
    };
    for _ in 0..turns {
        let Some(at) = text.rfind("${") else { break };
        let rest = &text[at + 2..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let after = &rest[name_len..];
        let colon = usize::from(after.starts_with(':'));
        let after = &after[colon..];
        let Some(end) = after.find('}') else { break };
        match after.strip_prefix(['-', '=', '+']) {
            Some(op) if name_len > 0 => {
                let operand = op[..end - 1].to_string();
                let stop = at + 2 + name_len + colon + end + 1;
                text = format!("{}{operand}{}", &text[..at], &text[stop..]);
            }
            // Another form stays, out of the way of the outer ones.
            _ => text.replace_range(at..at + 1, "\u{1}"),
        }
    }
    text.replace('\u{1}', "$")
}

/// V with every `$'...'` decoded as bash does.
fn decode_ansi_c(v: &str) -> String {
    let mut out = String::new();
    let mut rest = v;
    while let Some(at) = rest.find("$'") {
        out.push_str(&rest[..at]);
        let body = &rest[at + 2..];
        // The closing quote: the first `'` not escaped by a backslash.
        let mut end = None;
        let mut escaped = false;
        for (k, c) in body.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '\'' if !escaped => {
                    end = Some(k);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(end) = end else {
            out.push_str(&rest[at..]);
            return out;
        };
        out.push_str(&word::ansi_c(&body[..end]));
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

/// T with every `$NAME` (not followed by more of a name) made V.
fn replace_name(t: &str, name: &str, v: &str) -> String {
    let pat = format!("${name}");
    let mut out = String::new();
    let mut rest = t;
    while let Some(at) = rest.find(&pat) {
        let after = &rest[at + pat.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(&pat);
        } else {
            out.push_str(v);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Push W with its quotes dropped, and again with its backslashes taken as escapes
/// (`~/.s\sh` is `~/.ssh` to bash) when that differs.
fn push_unquoted(out: &mut Vec<String>, w: &str) {
    let plain = w.replace("$'", "'").replace(['\'', '"'], "");
    let mut escaped = String::with_capacity(plain.len());
    let mut chars = plain.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            escaped.extend(chars.next());
        } else {
            escaped.push(c);
        }
    }
    if escaped != plain && !escaped.is_empty() {
        out.push(escaped);
    }
    if !plain.is_empty() {
        out.push(plain);
    }
}

/// One simple command after normalization.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// What runs: the innermost command's words, unquoted, with leading
    /// assignments and wrappers removed and `argv[0]` reduced to its basename.
    pub argv: Vec<String>,
    /// The words as written (unquoted, assignments removed), wrappers included:
    /// `sudo -u x rm f`, `bash -c 'rm f'`, `find . -exec rm {} ;`.
    /// Equal to `argv` when nothing was looked through (except that `argv[0]` is
    /// a basename: `/bin/rm f` has `argv` `rm f` and `written` `/bin/rm f`).
    pub written: Vec<String>,
    /// Looked through a wrapper that changes privileges (`sudo`, `doas`, ...).
    pub privileged: bool,
    /// Why this command cannot be read statically, if so.
    pub opaque: Option<String>,
    /// Every form of the command a rule may name, outermost first: the words as
    /// written, then the command at each wrapper looked through, its name reduced to
    /// a basename (`nohup /usr/bin/sudo rm x` has `nohup /usr/bin/sudo rm x`,
    /// `nohup sudo rm x`, `sudo rm x` and `rm x`). A deny rule matches any of them.
    pub forms: Vec<Vec<String>>,
    /// The form that starts at the first privilege wrapper (`sudo rm x`), when
    /// `privileged`: the only form an allow rule may cover.
    pub privileged_form: Option<usize>,
    /// The words read as paths: the program's arguments, and the words of the
    /// wrappers before it that look like paths (`env -C /etc`, `flock /tmp/lock`),
    /// but never a wrapper's name or its other options (`nice -n 19`, `timeout 5`).
    pub paths: Vec<String>,
    /// The redirection targets of this command and of the compound commands around
    /// it (not those of a command it is substituted into).
    pub redirects: Vec<String>,
}

impl SimpleCommand {
    /// The form an allow rule must cover: the privileged form when run through a
    /// privilege wrapper, else the words that run.
    pub fn allow_form(&self) -> usize {
        match (self.privileged, self.privileged_form) {
            (true, Some(i)) => i,
            (true, None) => 0,
            (false, _) => self.forms.len().saturating_sub(1),
        }
    }
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommandLine {
    /// Every simple command, nested ones included, in the order the shell starts
    /// them: the commands hidden in a command's words come before the command.
    pub commands: Vec<SimpleCommand>,
    /// Redirection targets, unquoted; a target with expansions is kept as written.
    pub redirects: Vec<String>,
    /// Why the line as a whole cannot be read, if so.
    pub opaque: Option<String>,
    /// Why the reading is not certain, if so: the line (or a line nested in it) has a
    /// construct outside the certain subset, or the reading reached a bound. A line
    /// whose reading is not certain is never allowed; deny rules still see it.
    pub uncertain: Option<String>,
    /// Why some simple commands were not kept, if a bound was reached: every deny-side
    /// command rule then matches the line.
    pub truncated: Option<String>,
}

impl CommandLine {
    /// True when neither the line nor any simple command is opaque.
    pub fn is_static(&self) -> bool {
        self.opaque.is_none() && self.commands.iter().all(|c| c.opaque.is_none())
    }

    /// True when the reading is certain and static: what an allow rule may allow.
    pub fn is_certain(&self) -> bool {
        self.uncertain.is_none() && self.is_static()
    }
}

/// How many times a command line may nest inside another (`$(...)`, `sh -c`, `eval`,
/// parameter expansion operands) before the line is opaque.
pub const MAX_DEPTH: usize = 8;

/// Parse LINE as a shell would.
pub fn parse(line: &str) -> CommandLine {
    let owned = line.to_owned();
    match guard::run(line.len(), move || walk::parse_line(&owned)) {
        Ok(parsed) => parsed,
        Err(why) => guessed(line.to_owned(), why),
    }
}

/// What rules see of LINE: its reading (for every rule), and the readings of its
/// second looks (for deny, ask and stop rules only), taken when the reading is not
/// certain: the substitutions and here-documents of the line as bash reads them.
pub fn read_for_rules(line: &str) -> (CommandLine, Vec<CommandLine>) {
    let mut main = parse(line);
    // A certain reading is exact: it needs no second look.
    if main.uncertain.is_none() {
        return (main, Vec::new());
    }
    let looks = second_looks(line, &main);
    if let Some(why) = looks.cut {
        main.truncated.get_or_insert(why);
    }
    // One thread for them all.
    let texts = looks.texts;
    let len = texts.iter().map(String::len).sum();
    let batch = texts.clone();
    let second = guard::run(len, move || {
        batch
            .iter()
            .map(|t| walk::parse_line(t))
            .collect::<Vec<_>>()
    })
    .unwrap_or_else(|_| texts.iter().map(|t| parse(t)).collect());
    (main, second)
}

/// Parse LINE as [`parse`] does, but with brush-parser even when the line is
/// in the certain subset (no shortcut): for tests that check the two readings agree.
#[doc(hidden)]
pub fn parse_slow(line: &str) -> CommandLine {
    let owned = line.to_owned();
    match guard::run(line.len(), move || walk::parse_line_slow(&owned)) {
        Ok(parsed) => parsed,
        Err(why) => guessed(line.to_owned(), why),
    }
}

/// Judge a command given as a list of words (an argv: no shell syntax is applied to the
/// words themselves, but `bash -c STR` and the like are parsed).
pub fn from_argv(argv: &[String]) -> CommandLine {
    let owned = argv.to_vec();
    let len = argv.iter().map(|w| w.len() + 1).sum();
    match guard::run(len, move || walk::from_argv(&owned)) {
        Ok(parsed) => parsed,
        Err(why) => guessed(argv.join(" "), why),
    }
}

/// When parsing failed badly (WHY), an opaque line with the commands guessed from the
/// raw text of LINE without brush-parser, so that deny rules still see them.
fn guessed(line: String, why: String) -> CommandLine {
    let len = line.len();
    let mut out = guard::run(len, move || walk::guess_line(&line)).unwrap_or_default();
    out.opaque = Some(why);
    out
}
