//! Options that give a program a command to run: tar's `-I PROG`, git's `-c
//! alias.x=!CMD`, `sort --compress-program=PROG` and the like, read as getopt_long reads
//! them (abbreviated, bundled: see [`options`]). Such a command is read as a shell string
//! for deny rules, and the line is never allowed.

use super::*;
use crate::shell::programs::{
    git_subcommand, index_path, inert_config, is_tar, object_path, options, quiet_patterns,
    ObjectPath, INDEX_PATH_SUBCOMMANDS, OBJECT_SUBCOMMANDS, TAR_VALUED,
};

/// Whether the program NAME (a basename) has options that give it a command to run,
/// which [`option_code`] reads.
pub(super) fn gives_code(name: &str) -> bool {
    is_tar(name) || matches!(name, "git" | "sort" | "split" | "sdiff" | "diff3" | "zip")
}

/// The commands that the options of NAME (see [`gives_code`]) give it to run, read as
/// shell strings (for deny rules; the command is never allowed): tar's `-I`/
/// `--use-compress-program`, `--checkpoint-action=exec=CMD`, `--to-command`,
/// `--rsh-command`, `--rmt-command`, `-F`/`--info-script`/`--new-volume-script`; `sort
/// --compress-program`, `split --filter`, `sdiff`/`diff3 --diff-program`, `zip -TT`/
/// `--unzip-command`; git's (see [`git`]).
pub(super) fn option_code(cx: &mut Cx, fr: &Frame, words: &[Word], st: &mut State, name: &str) {
    let form: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let args = form.get(1..).unwrap_or(&[]);
    let mut code: Vec<String> = Vec::new();
    if name == "git" {
        git(&form, st, &mut code);
    } else {
        let tar = is_tar(name);
        for o in options(args, if tar { TAR_VALUED } else { "" }, tar) {
            let given = match name {
                // `exec=CMD`.
                _ if tar && o.is_long("checkpoint-action", &["checkpoint"]) => {
                    code.extend(
                        o.value()
                            .map(|v| v.split_once('=').map_or(v, |(_, c)| c))
                            .map(str::to_owned),
                    );
                    continue;
                }
                _ if tar => {
                    o.is('I', "use-compress-program")
                        || o.is('F', "info-script")
                        || [
                            "new-volume-script",
                            "to-command",
                            "rsh-command",
                            "rmt-command",
                        ]
                        .iter()
                        .any(|l| o.is_long(l, &[]))
                }
                "sort" => o.is_long("compress-program", &[]),
                "split" => o.is_long("filter", &[]),
                "sdiff" | "diff3" => o.is_long("diff-program", &[]),
                "zip" => o.is_long("unzip-command", &[]),
                _ => false,
            };
            if given {
                code.extend(o.value().map(str::to_owned));
            }
        }
        // zip's `-TT CMD`, a short option of two letters.
        if name == "zip" {
            for (k, a) in args.iter().enumerate() {
                match a.strip_prefix("-TT") {
                    Some("") => code.extend(args.get(k + 1).cloned()),
                    Some(v) => code.push(v.trim_start_matches('=').to_owned()),
                    None => {}
                }
            }
        }
    }
    for c in code {
        note(
            &mut st.uncertain,
            format!("`{name}` is given a command to run (`{}`)", show(&c)),
        );
        shell_string(cx, fr, &c, st);
    }
}

/// Whether git's global options WORDS (before its subcommand) are ones that change
/// nothing a rule is about: no pager, no locks, no replacement objects, no lazy fetch,
/// no advice, literal pathspecs, `-C DIR` (where the paths are read) and `-c KEY=VALUE`
/// of a key git never runs (see `programs::inert_config`). Another configuration, another repository (`--git-dir`, `--work-tree`) or another
/// reading of pathspecs is not.
fn inert_globals(words: &[String]) -> bool {
    let mut words = words.iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "-C" => {
                if words.next().is_none() {
                    return false;
                }
            }
            // A key whose value git never runs (`-c color.ui=never`).
            "-c" => {
                if !words.next().is_some_and(|kv| inert_config(kv)) {
                    return false;
                }
            }
            "-P"
            | "-p"
            | "--no-pager"
            | "--paginate"
            | "--no-optional-locks"
            | "--no-replace-objects"
            | "--no-lazy-fetch"
            | "--no-advice"
            | "--literal-pathspecs" => {}
            _ => return false,
        }
    }
    true
}

/// Most directories above the line's that a git pathspec `:/x` is read in.
const MAX_TOP: usize = 32;

/// The commands git is given in FORM, into CODE; what else makes it uncertain, into ST,
/// with the form of git without its global options (`git push` of `git -C . push`):
/// before the subcommand (read exactly, as git reads them) `-c KEY=VALUE` and
/// `--config-env` (any value may be a command: `alias.x=!CMD`, `core.sshCommand`), and
/// `--exec-path=DIR` (a directory of `git-*` programs); after it, `--upload-pack`,
/// `--receive-pack`, `--exec`, `clone -c`/`-u`, `difftool -x`, `grep -O`, `rebase -x`,
/// `filter-branch`, `send-email` and `instaweb` programs, `submodule foreach CMD`,
/// `bisect run CMD`, `--template` (a directory of hooks), a `git config` that writes
/// (see [`config`]), and pathspec magic (`:/x`, `:(top)x`: paths under the top of the
/// work tree, which the reading cannot know).
fn git(form: &[String], st: &mut State, code: &mut Vec<String>) {
    let at = git_subcommand(form).unwrap_or(form.len());
    // A configuration value read as a command: an alias without `!` runs a git
    // subcommand (`alias.u='rm --cached'` is `git rm --cached`), with it a shell command.
    let value = |kv: &str| match kv.split_once('=') {
        Some((key, v)) if key.to_ascii_lowercase().starts_with("alias.") => {
            match v.strip_prefix('!') {
                Some(shell) => shell.to_owned(),
                None => format!("git {v}"),
            }
        }
        Some((_, v)) => v.to_owned(),
        None => kv.to_owned(),
    };
    let named = |kv: &str| kv.split_once('=').map_or(kv, |(_, v)| v).to_owned();
    let mut trees: Vec<String> = Vec::new();
    for (k, t) in form.iter().enumerate().take(at).skip(1) {
        let next = form.get(k + 1);
        match t.as_str() {
            "-c" => code.extend(next.filter(|v| !inert_config(v)).map(|v| value(v))),
            // The value is in the environment variable named: its name is all we have.
            "--config-env" => code.extend(next.map(|v| named(v))),
            "--work-tree" => trees.extend(next.cloned()),
            _ => {
                if let Some(kv) = t.strip_prefix("--config-env=") {
                    code.push(named(kv));
                } else if let Some(kv) = t.strip_prefix("-c").filter(|kv| !inert_config(kv)) {
                    code.push(value(kv));
                }
                if let Some(tree) = t.strip_prefix("--work-tree=") {
                    trees.push(tree.to_owned());
                }
                if let Some(dir) = t.strip_prefix("--exec-path=") {
                    note(
                        &mut st.uncertain,
                        format!("`git` runs the `git-*` programs of `{}`", show(dir)),
                    );
                }
            }
        }
    }
    let Some(sub) = form.get(at) else {
        return;
    };
    // `git -C . push`, `git --no-pager push`: for deny, ask and stop rules, the
    // command git runs is `git push` too, as a wrapper's is (allow rules still cover
    // the words as written).
    if at > 1 {
        let mut run = vec!["git".to_owned()];
        run.extend(form.iter().skip(at).cloned());
        // Allow rules cover it too when the options before the subcommand change
        // nothing a rule is about (`git --no-pager log`, `git -C sub status`: the
        // directory is read where paths are).
        if inert_globals(form.get(1..at).unwrap_or(&[])) {
            st.inert_form = Some(st.forms.len());
        }
        st.forms.push(run);
    }
    let args = form.get(at + 1..).unwrap_or(&[]);
    let given = command_options(sub);
    let shorts: String = given
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| *c != '\0')
        .collect();
    for o in options(args, &shorts, false) {
        if matches!(sub.as_str(), "clone" | "init") && o.is_long("template", &[]) {
            note(
                &mut st.uncertain,
                format!("`git {sub} --template` copies hooks that git runs"),
            );
        }
        if !given.iter().any(|(c, l)| o.is(*c, l)) {
            continue;
        }
        let v = o.value().unwrap_or_default();
        code.push(if o.is('c', "config") {
            value(v)
        } else {
            v.to_owned()
        });
    }
    // A command in the words after `foreach` or `run`: its first word is a shell string,
    // the others its arguments.
    let after = match sub.as_str() {
        "submodule" | "submodule--helper" => "foreach",
        "bisect" => "run",
        _ => "",
    };
    // Plumbing that runs an operand: `git remote-ext REMOTE CMD` (the command of an
    // `ext::` URL), `git merge-index PROGRAM -a`.
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    match (sub.as_str(), operands.as_slice()) {
        ("remote-ext", [_, cmd, ..]) => code.push(cmd.to_string()),
        ("merge-index", [program, ..]) => code.push(program.to_string()),
        _ => {}
    }
    if let Some(p) = args.iter().position(|a| !after.is_empty() && a == after) {
        let mut rest = args.iter().skip(p + 1).skip_while(|a| a.starts_with('-'));
        if let Some(first) = rest.next() {
            let mut cmd = first.clone();
            for a in rest {
                cmd.push_str(&format!(" '{}'", a.replace('\'', r"'\''")));
            }
            code.push(cmd);
        }
    }
    if sub == "config" {
        config(args, st, code);
    }
    // `ext::CMD` URLs, wherever git may take one: an operand, a remote's URL, a
    // `url.ext::CMD.insteadOf` key.
    for w in form.iter().skip(1) {
        if let Some(cmd) = ext_command(w) {
            code.push(cmd);
        }
    }
    pathspec_words(form, at, sub, args, &trees, st);
    for c in code.iter_mut() {
        if let Some(s) = c.strip_prefix('!') {
            *c = s.to_owned();
        }
    }
}

/// The (short, long) options of git's subcommand SUB whose value is a command.
fn command_options(sub: &str) -> &'static [(char, &'static str)] {
    match sub {
        "clone" => &[('u', "upload-pack"), ('c', "config")],
        "fetch" | "pull" | "ls-remote" => &[('\0', "upload-pack")],
        "fetch-pack" => &[('\0', "upload-pack"), ('\0', "exec")],
        "push" | "send-pack" => &[('\0', "receive-pack"), ('\0', "exec")],
        "archive" => &[('\0', "exec")],
        "difftool" => &[('x', "extcmd")],
        "grep" => &[('O', "open-files-in-pager")],
        "rebase" => &[('x', "exec")],
        "filter-branch" => &[
            ('\0', "setup"),
            ('\0', "env-filter"),
            ('\0', "tree-filter"),
            ('\0', "index-filter"),
            ('\0', "parent-filter"),
            ('\0', "msg-filter"),
            ('\0', "commit-filter"),
            ('\0', "tag-name-filter"),
        ],
        "send-email" => &[
            ('\0', "sendmail-cmd"),
            ('\0', "smtp-server"),
            ('\0', "to-cmd"),
            ('\0', "cc-cmd"),
            ('\0', "header-cmd"),
        ],
        "instaweb" => &[('d', "httpd"), ('b', "browser")],
        "daemon" => &[('\0', "access-hook")],
        _ => &[],
    }
}

/// The objects `git config --blob=REV:PATH` (or `--bl REV:PATH`: git takes a unique
/// prefix) reads as configuration, where SUB is `config` and ARGS its words.
fn config_blobs<'a>(sub: &str, args: &'a [String]) -> Vec<&'a str> {
    let mut blobs: Vec<&str> = Vec::new();
    if sub != "config" {
        return blobs;
    }
    let mut words = args.iter();
    while let Some(a) = words.next() {
        let Some(long) = a.strip_prefix("--") else {
            continue;
        };
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        if name.len() >= 2 && "blob".starts_with(name) {
            blobs.extend(value.or_else(|| words.next().map(String::as_str)));
        }
    }
    blobs
}

/// The paths git's pathspecs and `REV:PATH` objects name (FORM: git's words, the
/// subcommand SUB at AT, ARGS after it; TREES: its `--work-tree`s), for ST's path words;
/// a pathspec that git matches as a pattern makes the command uncertain.
fn pathspec_words(
    form: &[String],
    at: usize,
    sub: &str,
    args: &[String],
    trees: &[String],
    st: &mut State,
) {
    let literal = form.iter().take(at).any(|w| w == "--literal-pathspecs");
    let icase = form.iter().take(at).any(|w| w == "--icase-pathspecs");
    if icase {
        note(
            &mut st.uncertain,
            "`git --icase-pathspecs` matches pathspecs in any case",
        );
    }
    // `git ls-files` matches its pathspecs against the names it lists and prints names
    // only (not with `--eol` or `--format`, which read the files): a pattern there is
    // no path, and the walk of where it starts is the table's (`git_tree.rs`).
    let names_only = sub == "ls-files"
        && !args
            .iter()
            .any(|a| a.starts_with("--eol") || a.starts_with("--format"));
    // `git grep` walks the directory where a pattern starts (only the files git tracks
    // there, unless `--untracked`, `--no-index` or `--recurse-submodules`), which holds
    // every file the pattern may name (`git_tree.rs`; `prepare/git_pathspecs.rs` reads
    // what the pattern chooses of an untracked walk). So does `git rm`, which matches
    // its pathspecs against the index (see `git_tree.rs`). Magic (`:(icase)`, `:/`) is
    // read there only where git matches the index.
    let given = |longs: &[&str]| {
        args.iter().any(|a| {
            let name = a.strip_prefix("--").unwrap_or_default();
            let name = name.split('=').next().unwrap_or(name);
            name.len() >= 2 && longs.iter().any(|l| l.starts_with(name))
        })
    };
    let tracked_walk = sub == "grep"
        && !given(&[
            "untracked",
            "no-index",
            "recurse-submodules",
            "no-exclude-standard",
        ]);
    let tracked_patterns = tracked_walk || sub == "rm";
    // So does a subcommand that prints no file's contents (`git log --oneline`, `git diff
    // --stat`): what the pattern chooses of the walk where it starts is read.
    let walked_patterns = sub == "grep" || sub == "rm" || quiet_patterns(sub, args);
    for spec in pathspecs(sub, args) {
        if literal || spec.starts_with(':') {
            continue;
        }
        if icase {
            st.path_words.push(spec.to_lowercase());
        }
        if (names_only || walked_patterns) && spec.contains(['*', '?', '[']) {
            continue;
        }
        if spec.contains(['*', '?', '[', '\\']) {
            note(
                &mut st.uncertain,
                format!(
                    "`git` pathspec `{}` is a pattern that git matches (`*` crosses `/`)",
                    show(spec)
                ),
            );
            // `\.env` is `.env`.
            let unescaped = unbackslash(spec);
            if icase {
                st.path_words.push(unescaped.to_lowercase());
            }
            st.path_words.push(unescaped);
        }
    }
    let blobs = config_blobs(sub, args);
    if OBJECT_SUBCOMMANDS.contains(&sub) || !blobs.is_empty() {
        let operands = args
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-') && OBJECT_SUBCOMMANDS.contains(&sub));
        // `--blob=:PATH`: the index's file.
        for path in blobs.iter().filter_map(|b| index_path(b)) {
            st.path_words
                .extend(trees.iter().map(|t| format!("{t}/{path}")));
            st.path_words.push(format!(":/{path}"));
        }
        for a in operands.chain(blobs) {
            match object_path(a) {
                // Under the top of the work tree, which the engine finds from the
                // directory git runs in (`:/`, as for `git status`); under each
                // `--work-tree` too.
                Some(ObjectPath::Top(path)) => {
                    let top = format!(":/{path}");
                    st.path_words
                        .extend(trees.iter().map(|t| format!("{t}/{path}")));
                    st.path_words.push(top);
                }
                Some(ObjectPath::Here(path)) => st.path_words.extend(magic_paths(path, trees)),
                None => {}
            }
        }
    }
    for a in args {
        if let Some(spec) = a.strip_prefix(':') {
            if object_path(a).is_some() && OBJECT_SUBCOMMANDS.contains(&sub) {
                continue;
            }
            // `git show :README.md`: the index's file, under the top of the work tree.
            if let Some(path) = index_path(a).filter(|_| INDEX_PATH_SUBCOMMANDS.contains(&sub)) {
                st.path_words
                    .extend(trees.iter().map(|t| format!("{t}/{path}")));
                st.path_words.push(format!(":/{path}"));
                continue;
            }
            // An exclude only takes files away from the tracked walk (`git_store.rs`);
            // where git matches the index only, the table walks what it tracks below the
            // top of the work tree (`git_tree.rs`).
            if tracked_patterns {
                continue;
            }
            note(
                &mut st.uncertain,
                format!(
                    "`git` pathspec `{}` names paths under the top of the work tree",
                    show(a)
                ),
            );
            let paths = magic_paths(spec, trees);
            // `:(icase).ENV` is `.env` too.
            if icase || spec.split(')').next().is_some_and(|m| m.contains("icase")) {
                st.path_words.extend(paths.iter().map(|p| p.to_lowercase()));
            }
            st.path_words.extend(paths);
        }
    }
}

/// The command an `ext::` URL in W runs, as a shell string for deny rules: git splits
/// it at spaces, `% ` is a space and `%%` a `%` (`ext::sh -c cat% .env` runs `sh -c
/// 'cat .env'`). The URL starts the word, follows a `=` (`remote.o.url=ext::rm x`) or
/// `url.` (a key: `url.ext::rm x.insteadOf=foo`, where it ends at `.insteadOf`); not
/// `git grep 'Context::new'`.
fn ext_command(w: &str) -> Option<String> {
    let lower = w.to_ascii_lowercase();
    let at = lower.match_indices("ext::").map(|(k, _)| k).find(|&k| {
        let before = &lower[..k];
        before.is_empty() || before.ends_with('=') || before.ends_with("url.")
    })?;
    let mut url = &w[at + 5..];
    let lower = url.to_ascii_lowercase();
    if let Some(end) = [".insteadof", ".pushinsteadof"]
        .iter()
        .filter_map(|k| lower.rfind(k))
        .min()
    {
        url = &url[..end];
    }
    let mut words: Vec<String> = vec![String::new()];
    let mut chars = url.chars();
    while let Some(c) = chars.next() {
        match c {
            '%' => match chars.next() {
                Some(' ') => words.last_mut()?.push(' '),
                Some('%') => words.last_mut()?.push('%'),
                // `%s`, `%S`, `%G`, `%V`: the service and the like.
                Some(c) => words.last_mut()?.push_str(&format!("%{c}")),
                None => words.last_mut()?.push('%'),
            },
            ' ' => words.push(String::new()),
            c => words.last_mut()?.push(c),
        }
    }
    let words: Vec<String> = words.into_iter().filter(|w| !w.is_empty()).collect();
    let (first, rest) = words.split_first()?;
    let mut cmd = first.clone();
    for a in rest {
        cmd.push_str(&format!(" '{}'", a.replace('\'', r"'\''")));
    }
    Some(cmd)
}

/// The subcommands of git whose operands are pathspecs (after `--`, and before it the
/// operands that are no revision), with their options that take the next word as a
/// value (short letters, long names), which are no pathspec (`commit -m 'fix *'`).
const PATHSPEC_SUBS: &[(&str, &str, &[&str])] = &[
    ("add", "", &["chmod"]),
    ("rm", "", &[]),
    ("clean", "e", &["exclude"]),
    ("checkout", "bB", &["orphan", "conflict"]),
    ("restore", "s", &["source"]),
    ("reset", "", &[]),
    ("stash", "m", &["message"]),
    (
        "commit",
        "mFCct",
        &[
            "message",
            "file",
            "reuse-message",
            "reedit-message",
            "fixup",
            "squash",
            "author",
            "date",
            "template",
            "cleanup",
            "trailer",
        ],
    ),
    ("status", "", &[]),
    ("diff", "SGO", &["output"]),
    ("difftool", "xt", &["extcmd", "tool"]),
    (
        "log",
        "SGLn",
        &[
            "grep",
            "author",
            "committer",
            "since",
            "until",
            "after",
            "before",
            "max-count",
            "skip",
            "output",
        ],
    ),
    (
        "whatchanged",
        "SGn",
        &[
            "grep",
            "author",
            "committer",
            "since",
            "until",
            "after",
            "before",
            "max-count",
            "skip",
        ],
    ),
    ("show", "SG", &["grep", "output"]),
    (
        "shortlog",
        "",
        &["grep", "author", "committer", "since", "until"],
    ),
    (
        "grep",
        "efABCmO",
        &[
            "max-depth",
            "threads",
            "context",
            "after-context",
            "before-context",
            "max-count",
        ],
    ),
    (
        "ls-files",
        "xX",
        &["exclude", "exclude-from", "exclude-per-directory"],
    ),
    ("ls-tree", "", &[]),
    (
        "archive",
        "o",
        &["format", "output", "prefix", "remote", "exec"],
    ),
    ("blame", "LSC", &["contents", "since"]),
    ("sparse-checkout", "", &[]),
    ("check-ignore", "", &[]),
    ("check-attr", "", &[]),
    ("mv", "", &[]),
    ("format-patch", "o", &["output-directory"]),
    ("rev-list", "n", &["max-count", "skip"]),
    ("diff-files", "", &[]),
    ("diff-index", "", &[]),
    ("diff-tree", "", &[]),
];

/// The words of ARGS (after git's subcommand SUB) that git reads as pathspecs, as far
/// as the reading can tell: every operand after `--`, and before it, for the
/// subcommands of [`PATHSPEC_SUBS`], the operands that are no option's value; `grep`'s
/// first operand is its pattern unless `-e`/`-f` give one.
fn pathspecs<'a>(sub: &str, args: &'a [String]) -> Vec<&'a String> {
    let Some((_, shorts, longs)) = PATHSPEC_SUBS.iter().find(|(s, _, _)| *s == sub) else {
        // Another subcommand (or an alias of one): what follows `--`.
        let after = args.iter().skip_while(|a| *a != "--").skip(1);
        return after.collect();
    };
    let mut out = Vec::new();
    let mut pattern = sub == "grep";
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        if a == "--" {
            out.extend(args.iter().skip(k));
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            if !long.contains('=') && longs.contains(&long) {
                k += 1;
            }
            continue;
        }
        if let Some(bundle) = a.strip_prefix('-').filter(|b| !b.is_empty()) {
            // The first letter that takes a value takes the rest, or the next word.
            if let Some(at) = bundle.find(|c: char| shorts.contains(c)) {
                if at + 1 == bundle.len() {
                    k += 1;
                }
                pattern &= !bundle[..=at].ends_with(['e', 'f']) || sub != "grep";
            }
            continue;
        }
        if pattern {
            pattern = false;
            continue;
        }
        out.push(a);
    }
    out
}

/// A `git config` (ARGS, its words after `config`) that writes is never allowed, and the
/// values it writes go into CODE: any of them may be a command a later git runs
/// (`alias.x '!CMD'`, `core.fsmonitor`, `core.pager`...). It reads only with `--get`,
/// `--get-all`, `--get-regexp`, `--get-urlmatch`, `--get-color`, `--get-colorbool`,
/// `-l`/`--list`, `get` or `list`, or with one operand and no option that writes.
fn config(args: &[String], st: &mut State, code: &mut Vec<String>) {
    const READS: &[&str] = &[
        "get",
        "get-all",
        "get-regexp",
        "get-urlmatch",
        "get-color",
        "get-colorbool",
        "list",
    ];
    const WRITES: &[&str] = &[
        "add",
        "replace-all",
        "unset",
        "unset-all",
        "rename-section",
        "remove-section",
        "edit",
    ];
    // Long options that take the next word as their value.
    const VALUED: &[&str] = &["file", "blob", "type", "default", "comment", "value"];
    let (mut read, mut write) = (false, false);
    let mut operands: Vec<&String> = Vec::new();
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        if a == "--" {
            operands.extend(args.iter().skip(k));
            break;
        }
        if let Some(l) = a.strip_prefix("--") {
            let name = l.split('=').next().unwrap_or(l);
            read |= READS.contains(&name);
            write |= WRITES
                .iter()
                .any(|w| !name.is_empty() && w.starts_with(name));
            if !l.contains('=') && name.len() > 1 && VALUED.iter().any(|v| v.starts_with(name)) {
                k += 1;
            }
        } else if let Some(bundle) = a.strip_prefix('-').filter(|b| !b.is_empty()) {
            read |= bundle.starts_with('l');
            write |= bundle.contains('e');
            if bundle.ends_with(['f', 't']) {
                k += 1;
            }
        } else {
            operands.push(a);
        }
    }
    let first = operands.first().map(|o| o.as_str());
    let named = matches!(
        first,
        Some("set" | "unset" | "rename-section" | "remove-section" | "edit")
    );
    read |= matches!(first, Some("get" | "list"));
    if !(write || named || (!read && operands.len() > 1)) {
        return;
    }
    note(
        &mut st.uncertain,
        "`git config` writes settings that a later `git` may run as commands",
    );
    code.extend(
        operands
            .iter()
            .skip(if named { 2 } else { 1 })
            .map(|v| v.to_string()),
    );
}

/// The paths of a git pathspec with magic (SPEC, after its `:`), for deny rules: its
/// pattern under the top of the work tree when the magic says so (`:/x`, `:(top)x`): in
/// each of TREES (`--work-tree`) and each directory above the line's; else under the
/// line's directory (`:!x`, `:(glob)x`).
fn magic_paths(spec: &str, trees: &[String]) -> Vec<String> {
    let (top, pattern) = match spec.strip_prefix('(') {
        Some(long) => match long.split_once(')') {
            Some((magic, p)) => (magic.split(',').any(|m| m.trim() == "top"), p),
            None => (false, long),
        },
        None => {
            let body = spec.trim_start_matches(['/', '!', '^']);
            let magic = spec.get(..spec.len() - body.len()).unwrap_or("");
            (magic.contains('/'), body.strip_prefix(':').unwrap_or(body))
        }
    };
    let pattern = if pattern.is_empty() { "." } else { pattern };
    if !top {
        return vec![pattern.to_owned()];
    }
    let mut out: Vec<String> = trees.iter().map(|t| format!("{t}/{pattern}")).collect();
    let mut up = String::new();
    for _ in 0..=MAX_TOP {
        out.push(format!("{up}{pattern}"));
        up.push_str("../");
    }
    out
}
