//! `find ... | xargs CMD`: the names xargs appends to CMD are those find prints, so the
//! pair is read as `find ... -exec CMD {} +` besides the xargs command itself (whose
//! words from its input are then no longer data the line does not show). find's tests
//! choose what is handed on exactly as they do for `-exec` (with `-o` and no printing of
//! its own, `\( ... \) -exec`: find prints what its whole expression passes); what they do
//! not read (`,`, another action, `-L`) leaves the pair as it was: names from data.
//!
//! Without `-print0 | xargs -0`, xargs splits what it reads again at blanks, quotes and
//! backslashes (`./k .env` is `./k` and `.env`, and `./x -rf` gives `rm` an option):
//! the find command is then marked [`super::SimpleCommand::names_split`], and the engine
//! looks through the trees it walks for such a name (`prepare::split_names`).

use super::super::word::Word;
use brush_parser::ast;

/// A simple command as another one piped from it sees it: its words, and its own
/// redirections, each as written with its target, blanks taken out (`2>/dev/null`,
/// `<f`, `2>&1`; a here-document or here-string as its operator).
#[derive(Clone, Default)]
pub(crate) struct Fed {
    pub words: Vec<Word>,
    pub redirections: Vec<String>,
}

/// What a `find` command piped into `xargs` hands on, read as `find -exec`.
pub(crate) struct FindFeed {
    /// find's words with `-exec CMD... {} +` in place of its printing.
    pub exec: Vec<String>,
    /// xargs splits the names again at blanks and quotes (no `-print0 | xargs -0`).
    pub split: bool,
}

/// find's words that make it do more than print what its tests pass, or read names
/// from data, or join its tests by `,` (whose first part's actions run, and whose
/// value is its last part's): the pair is then not read as `-exec`.
const FIND_OTHERWISE: &[&str] = &[
    "-exec",
    "-execdir",
    "-ok",
    "-okdir",
    "-delete",
    "-printf",
    "-fprint",
    "-fprint0",
    "-fprintf",
    "-ls",
    "-fls",
    "-quit",
    "-files0-from",
    "-L",
    "-follow",
    "-D",
    ",",
    "-print",
    "-print0",
];

/// xargs's options that change neither the words it makes nor where its command runs,
/// and whether each takes a number.
const XARGS_PLAIN: &[(&str, bool)] = &[
    ("-0", false),
    ("--null", false),
    ("-r", false),
    ("--no-run-if-empty", false),
    ("-t", false),
    ("--verbose", false),
    ("-x", false),
    ("--exit", false),
    ("-n", true),
    ("--max-args", true),
    ("-P", true),
    ("--max-procs", true),
    ("-s", true),
    ("--max-chars", true),
];

/// FED, a simple command whose output is the standard input of WORDS (redirected by
/// REDIRECTIONS), read with them as `find ... -exec CMD {} +`, where FED is `find` and
/// WORDS `xargs` whose every word is plain (no expansion, no pattern), and the pair can
/// be read so. The pipe must carry find's output alone into xargs's input: find may
/// send its errors to `/dev/null` and xargs its outputs to files; nothing else (`2>&1`
/// and `2>/dev/stdout` put find's errors, which copy its patterns, among the names;
/// `< FILE` gives xargs another input).
pub(crate) fn find_feeds(fed: &Fed, words: &[Word], redirections: &[String]) -> Option<FindFeed> {
    let errors_away = fed
        .redirections
        .iter()
        .all(|r| matches!(r.as_str(), "2>/dev/null" | "2>>/dev/null"));
    // (xargs's own outputs may go anywhere: `>out.txt 2>&1`.)
    let input_kept = redirections
        .iter()
        .all(|r| !r.contains('<') && !r.starts_with('0'));
    if !errors_away || !input_kept {
        return None;
    }
    let fed = &fed.words;
    let plain = |ws: &[Word]| ws.iter().all(|w| w.is_static && !w.pattern);
    if fed.first()?.text != "find" || words.first()?.text != "xargs" {
        return None;
    }
    if !plain(fed) || !plain(words) {
        return None;
    }
    let mut find: Vec<String> = fed.iter().map(|w| w.text.clone()).collect();
    // One printing at the end, in place of which `-exec` goes (`-prune -o -type f
    // -print`), or none: find then prints what its whole expression passes, and `-exec`
    // must follow all of it (`-name a -o -name b` is `\( -name a -o -name b \) -exec`).
    let (printed, print0) = match find.last().map(String::as_str) {
        Some("-print0") => (true, true),
        Some("-print") => (true, false),
        _ => (false, false),
    };
    if printed {
        find.pop();
    }
    if find.iter().any(|w| FIND_OTHERWISE.contains(&w.as_str())) {
        return None;
    }
    if !printed && find.iter().any(|w| matches!(w.as_str(), "-o" | "-or")) {
        find.insert(expression_start(&find), "(".into());
        find.push(")".into());
    }
    let (nul, at) = xargs_options(words)?;
    let cmd: Vec<String> = words.get(at..)?.iter().map(|w| w.text.clone()).collect();
    // `{}` and `;` in CMD are find's (`-exec` puts the names in each `{}`).
    if cmd.is_empty() || cmd.iter().any(|w| w.contains("{}") || w == ";") || nul != print0 {
        return None;
    }
    // A command that takes any word as data is read as such already.
    let args: Vec<String> = words.iter().skip(1).map(|w| w.text.clone()).collect();
    if crate::shell::programs::xargs_gives_data(&args) {
        return None;
    }
    find.push("-exec".into());
    find.extend(cmd);
    find.extend(["{}".to_string(), "+".to_string()]);
    Some(FindFeed {
        exec: find,
        split: !nul,
    })
}

/// Where find's expression starts in WORDS (`find`, its options, its roots, ...): at the
/// first word after the options `-H`, `-P`, `-O<level>` that starts with `-` or is `(`
/// or `!`.
fn expression_start(words: &[String]) -> usize {
    let option = |w: &str| matches!(w, "-H" | "-P") || w.starts_with("-O");
    let root = |w: &str| !w.starts_with('-') && w != "(" && w != "!";
    let mut k = 1;
    while words.get(k).is_some_and(|w| option(w)) {
        k += 1;
    }
    while words.get(k).is_some_and(|w| root(w)) {
        k += 1;
    }
    k
}

/// Whether WORDS (`xargs ...`) read null-terminated names, and where its command
/// starts, when every option before it is one of [`XARGS_PLAIN`].
fn xargs_options(words: &[Word]) -> Option<(bool, usize)> {
    let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mut nul = false;
    let mut k = 1;
    while let Some(t) = words.get(k).map(|w| w.text.as_str()) {
        if !t.starts_with('-') || t == "-" {
            return Some((nul, k));
        }
        if t == "--" {
            return Some((nul, k + 1));
        }
        let (name, value) = match t.split_once('=') {
            Some((n, v)) if t.starts_with("--") => (n, Some(v)),
            _ => (t, None),
        };
        match XARGS_PLAIN.iter().find(|(o, _)| *o == name) {
            Some((o, false)) if value.is_none() => nul |= matches!(*o, "-0" | "--null"),
            Some((_, true)) => match value {
                Some(v) if number(v) => {}
                None if words.get(k + 1).is_some_and(|w| number(&w.text)) => k += 1,
                _ => return None,
            },
            // `-0r`, `-tn5`, `-rn 2`: short options bundled, the last may take a number.
            _ if !t.starts_with("--") => {
                let letters = t.get(1..).unwrap_or_default();
                let flags = letters
                    .find(|c: char| !matches!(c, '0' | 'r' | 't' | 'x'))
                    .unwrap_or(letters.len());
                let (flags, valued) = letters.split_at(flags);
                nul |= flags.contains('0');
                match valued.strip_prefix(['n', 'P', 's']) {
                    Some("") if words.get(k + 1).is_some_and(|w| number(&w.text)) => k += 1,
                    Some(rest) if number(rest) => {}
                    None if valued.is_empty() => {}
                    _ => return None,
                }
            }
            _ => return None,
        }
        k += 1;
    }
    None
}

/// The redirections of S, each as written with its target (`2>/dev/null`, `<f`,
/// `2>&1`; a here-document or here-string as its operator: see [`Fed`]).
pub(crate) fn redirections_of(s: &ast::SimpleCommand) -> Vec<String> {
    use ast::IoFileRedirectKind as K;
    let items = s.prefix.iter().flat_map(|p| p.0.iter());
    let items = items.chain(s.suffix.iter().flat_map(|p| p.0.iter()));
    items
        .filter_map(|item| match item {
            ast::CommandPrefixOrSuffixItem::IoRedirect(r) => Some(r),
            _ => None,
        })
        .map(|r| {
            let fd = |fd: &Option<ast::IoFd>| fd.map(|n| n.to_string()).unwrap_or_default();
            match r {
                ast::IoRedirect::File(n, kind, target) => {
                    let op = match kind {
                        K::Read => "<",
                        K::Write => ">",
                        K::Append => ">>",
                        K::ReadAndWrite => "<>",
                        K::Clobber => ">|",
                        K::DuplicateInput => "<&",
                        K::DuplicateOutput => ">&",
                    };
                    let target = match target {
                        ast::IoFileRedirectTarget::Filename(w) => w.value.clone(),
                        ast::IoFileRedirectTarget::Fd(n) => n.to_string(),
                        _ => "(...)".to_string(),
                    };
                    format!("{}{op}{target}", fd(n))
                }
                ast::IoRedirect::HereDocument(n, _) => format!("{}<<", fd(n)),
                ast::IoRedirect::HereString(n, _) => format!("{}<<<", fd(n)),
                ast::IoRedirect::OutputAndError(w, append) => {
                    let op = if *append { "&>>" } else { "&>" };
                    format!("{op}{}", w.value)
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split(' ').map(Word::literal).collect()
    }

    fn read(find: &str, xargs: &str) -> Option<(String, bool)> {
        let fed = Fed {
            words: words(find),
            redirections: Vec::new(),
        };
        find_feeds(&fed, &words(xargs), &[]).map(|f| (f.exec.join(" "), f.split))
    }

    #[test]
    fn only_the_pipe_carries_names() {
        let fed = |r: &[&str]| Fed {
            words: words("find . -name *.rs"),
            redirections: r.iter().map(|s| s.to_string()).collect(),
        };
        let xargs = words("xargs cat");
        let read = |f: &[&str], x: &[&str]| {
            let x: Vec<String> = x.iter().map(|s| s.to_string()).collect();
            find_feeds(&fed(f), &xargs, &x).is_some()
        };
        assert!(read(&["2>/dev/null"], &[">out", "2>err"]));
        assert!(read(&["2>>/dev/null"], &["&>log", "2>&1"]));
        for (f, x) in [
            (&["2>&1"][..], &[][..]),
            (&["2>/dev/stdout"], &[]),
            (&["2>/dev/fd/1"], &[]),
            (&["2>err.txt"], &[]),
            (&[">&2"], &[]),
            (&["&>/dev/null"], &[]),
            (&["<f"], &[]),
            (&[], &["<f"]),
            (&[], &["<&3"]),
            (&[], &["0<f"]),
            (&[], &["<<<"]),
            (&[], &["<<"]),
            (&[], &["0>&3"]),
        ] {
            assert!(!read(f, x), "{f:?} {x:?}");
        }
    }

    #[test]
    fn find_piped_into_xargs_is_find_exec() {
        let exec = |s: &str, split| Some((s.to_string(), split));
        assert_eq!(
            read("find . -name *.rs", "xargs grep -l TODO"),
            exec("find . -name *.rs -exec grep -l TODO {} +", true)
        );
        assert_eq!(
            read("find src -type f -print0", "xargs -0 -r wc -l"),
            exec("find src -type f -exec wc -l {} +", false)
        );
        assert_eq!(
            read("find . -name *.pyc -print", "xargs -n 1 -P4 rm -f"),
            exec("find . -name *.pyc -exec rm -f {} +", true)
        );
        assert_eq!(
            read("find . -type f -print0", "xargs -0r cat"),
            exec("find . -type f -exec cat {} +", false)
        );
        assert_eq!(
            read("find . -type f -print0", "xargs -r0tn 2 -- cat"),
            exec("find . -type f -exec cat {} +", false)
        );
        assert_eq!(
            read("find . -type f", "xargs -tn5 cat"),
            exec("find . -type f -exec cat {} +", true)
        );
        // `!` and `-o`: `-exec` follows the whole expression, or takes the place of its
        // printing.
        assert_eq!(
            read("find . -type f ! -path ./.git/*", "xargs wc -l"),
            exec("find . -type f ! -path ./.git/* -exec wc -l {} +", true)
        );
        assert_eq!(
            read("find . -name a -o -not -name b", "xargs cat"),
            exec("find . ( -name a -o -not -name b ) -exec cat {} +", true)
        );
        assert_eq!(
            read("find -P -O2 a b ( -name *.c -or -name *.h )", "xargs cat"),
            exec(
                "find -P -O2 a b ( ( -name *.c -or -name *.h ) ) -exec cat {} +",
                true
            )
        );
        assert_eq!(
            read("find -name a -o -name b", "xargs cat"),
            exec("find ( -name a -o -name b ) -exec cat {} +", true)
        );
        assert_eq!(
            read(
                "find . -path ./.git -prune -o -type f -print0",
                "xargs -0 cat"
            ),
            exec(
                "find . -path ./.git -prune -o -type f -exec cat {} +",
                false
            )
        );
        for xargs in [
            "xargs -ra f cat",
            "xargs -0I x cat",
            "xargs -rn cat",
            "xargs -r-0 cat",
        ] {
            assert_eq!(read("find . -type f -print0", xargs), None, "{xargs}");
        }
        assert_eq!(
            read("find . -type f", "xargs --max-args=2 --null cat"),
            None,
            "-0 without -print0"
        );
        for (find, xargs) in [
            ("find . -name *.rs -print0", "xargs grep x"),
            ("find . -name a , -name b", "xargs cat"),
            ("find . -name a -print -o -name b", "xargs cat"),
            ("find -L . -type f", "xargs cat"),
            ("find -D tree . -type f", "xargs cat"),
            ("find . -type f -print -quit", "xargs cat"),
            ("find . -type f -exec true ;", "xargs cat"),
            ("find . -type f", "xargs -I {} cat {}"),
            ("find . -type f", "xargs -a list cat"),
            ("find . -type f", "xargs -d , cat"),
            ("find . -type f", "xargs -n x cat"),
            ("find . -type f", "xargs sh -c cat_{}"),
            ("find . -type f", "xargs"),
            ("find . -type f", "xargs basename"),
            ("ls", "xargs cat"),
            ("find . -type f", "nice xargs cat"),
        ] {
            assert_eq!(read(find, xargs), None, "{find} | {xargs}");
        }
    }
}
