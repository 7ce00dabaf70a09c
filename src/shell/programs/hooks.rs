//! What programs do with their options that the rules must know: the directories their
//! options move them to, whether they follow symbolic links in the trees they walk, and
//! whether they read the names of the files they open from data.

// ---------------------------------------------------------------------------------------
// Options as getopt_long reads them.

/// One option of a command, read as getopt_long reads it (see [`options`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Opt<'a> {
    /// A short option's letter (`I` of `-cI`), or a long one's name as written (`use`
    /// of `--use=rm`).
    pub name: &'a str,
    pub long: bool,
    /// A short option's value, or a long one's glued with `=`.
    value: Option<&'a str>,
    /// The word after the option's word: a long option's value when it takes one.
    next: Option<&'a str>,
}

impl<'a> Opt<'a> {
    /// This is the long option NAME, written out or abbreviated to any prefix (`--use`
    /// for `--use-compress-program`): getopt_long takes an unambiguous prefix, and an
    /// ambiguous one is an error that runs nothing, so reading it as NAME only blocks
    /// such an error. SHADOWS: the program's other options whose names are prefixes of
    /// NAME, which a word written out names (`--checkpoint` is not `--checkpoint-action`).
    pub fn is_long(&self, name: &str, shadows: &[&str]) -> bool {
        self.long
            && !self.name.is_empty()
            && name.starts_with(self.name)
            && !shadows.contains(&self.name)
    }

    /// This is the short option SHORT or the long option LONG (see [`Opt::is_long`]);
    /// `'\0'` and `""` name none.
    pub fn is(&self, short: char, long: &str) -> bool {
        if self.long {
            self.is_long(long, &[])
        } else {
            self.name.starts_with(short) && self.name.len() == short.len_utf8()
        }
    }

    /// The value of an option that takes one: a short one's, a long one's glued value
    /// or the next word.
    pub fn value(&self) -> Option<&'a str> {
        if self.long {
            self.value.or(self.next)
        } else {
            self.value
        }
    }
}

/// The options of ARGS (a command's words after its name) up to `--`, after operands too,
/// read as getopt_long reads them: short ones bundled (`-xzf F`), those in VALUED taking
/// the rest of the bundle or the next word; long ones abbreviated (see [`Opt::is_long`]),
/// their value glued with `=` or the next word. With OLD (tar), a first word without a
/// dash is a bundle too, whose letters in VALUED take the next words in order (`tar cIf
/// PROG F`).
pub(crate) fn options<'a>(args: &'a [String], valued: &str, old: bool) -> Vec<Opt<'a>> {
    let mut out = Vec::new();
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        let next = args.get(k).map(String::as_str);
        if w == "--" {
            break;
        }
        if let Some(l) = w.strip_prefix("--") {
            let (name, value) = match l.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (l, None),
            };
            out.push(Opt {
                name,
                long: true,
                value,
                next,
            });
            continue;
        }
        let old_style = old && k == 1 && !w.starts_with('-');
        let Some(bundle) = w.strip_prefix('-').or(old_style.then_some(w.as_str())) else {
            continue;
        };
        let mut taken = 0;
        for (at, ch) in bundle.char_indices() {
            let end = at + ch.len_utf8();
            let name = &bundle[at..end];
            let value = if !valued.contains(ch) {
                None
            } else if old_style {
                taken += 1;
                args.get(k + taken - 1).map(String::as_str)
            } else if end < bundle.len() {
                Some(&bundle[end..])
            } else {
                taken = 1;
                next
            };
            out.push(Opt {
                name,
                long: false,
                value,
                next,
            });
            if value.is_some() && !old_style {
                break;
            }
        }
        k += taken;
    }
    out
}

/// The short options of tar that take a value.
pub(crate) const TAR_VALUED: &str = "CbfFgHIKLNTVX";

/// Whether NAME (a basename) is a tar.
pub(crate) fn is_tar(name: &str) -> bool {
    matches!(name, "tar" | "gtar" | "bsdtar")
}

/// Where git's subcommand is in FORM (`git -C DIR -c K=V log`): after the options of git
/// itself, which git reads exactly (no abbreviations), those without `=` taking the next
/// word.
pub(crate) fn git_subcommand(form: &[String]) -> Option<usize> {
    let mut k = 1;
    while let Some(w) = form.get(k) {
        if w == "--" {
            return form.get(k + 1).map(|_| k + 1);
        }
        if !w.starts_with('-') {
            return Some(k);
        }
        let valued = matches!(
            w.as_str(),
            "-C" | "-c"
                | "--git-dir"
                | "--work-tree"
                | "--namespace"
                | "--super-prefix"
                | "--config-env"
                | "--attr-source"
        );
        k += if valued { 2 } else { 1 };
    }
    None
}

/// Why FORM (a command's words, its name a basename) reads the names of the files it
/// opens or writes from data the line does not show, if it does: `--files0-from`,
/// `--files-from` (`sort`, `wc`, `du`, `tar`, `rsync`...) and their abbreviations
/// (`--files0=-`), tar's `-T`, and its extraction to files (`-x` but `-xO`, `-d`: the
/// members' names come from the archive, and may lead through links) or `--transform`;
/// `cpio`, `patch` (names from the patch), `unzip` (unless it lists, tests or prints:
/// the table's `links_unless`), `xargs` (the words it gives its command); git's
/// `--pathspec-from-file`, `apply` (but `--check`, `--stat`, `--numstat`, `--summary`),
/// `am`, `fast-import`, `mktree`, `checkout-index`, `read-tree -u`, `hash-object
/// --stdin-paths`, `update-index --stdin`/`--cacheinfo`/`--index-info`: files and links
/// named in a patch, a stream or the index (`git apply` makes `h -> ..`).
pub fn names_from_data(form: &[String]) -> Option<String> {
    let name = form.first()?.as_str();
    if name == "xargs" {
        return (!super::xargs::xargs_gives_data(form.get(1..).unwrap_or(&[]))).then(|| {
            "`xargs` gives its command words from its input, which the line does not show".into()
        });
    }
    let args = form.get(1..).unwrap_or(&[]);
    // What the table types as a file of names (`file -f`, `wc --files0-from`).
    if let Some(p) = super::lookup(name) {
        let r = super::read(p, args);
        if let Some(part) = r.parts.iter().find(|x| x.role == super::Role::NamesFrom) {
            let from = match part.text.as_str() {
                "-" => "its standard input".to_owned(),
                t => format!("`{t}`"),
            };
            return Some(format!(
                "`{}` reads the names of the files it opens from {from}, which the line does not show",
                p.name()
            ));
        }
    }
    let tar = is_tar(name);
    let opts = options(args, if tar { TAR_VALUED } else { "" }, tar);
    let has = |short: char, long: &str| opts.iter().any(|o| o.is(short, long));
    // Abbreviated only as far as other programs' options allow (tar's `--file`).
    let any = opts.iter().any(|o| {
        o.long
            && [
                ("files0-from", "files0"),
                ("files-from", "files-"),
                ("pathspec-from-file", "pathspec"),
            ]
            .iter()
            .any(|(full, least)| full.starts_with(o.name) && o.name.starts_with(least))
    });
    let reads = any
        || match name {
            "wc" | "du" | "sort" => has('\0', "files0-from"),
            // Extracting to files (not `-xO`), comparing with them, renaming them: as the
            // table reads tar's words; bsdtar, which it does not know, by hand.
            _ if tar && name != "bsdtar" => super::lookup(name).is_none_or(|p| {
                let r = super::read(p, args);
                !r.is_known()
                    || p.may_make_links(args)
                    || ["diff", "compare", "transform", "xform"]
                        .iter()
                        .any(|o| r.has_option(o))
            }),
            _ if tar => {
                opts.iter().any(|o| o.is_long("files-from", &["file"]))
                    || has('T', "")
                    || has('x', "extract")
                    || has('\0', "get")
                    || has('d', "diff")
                    || has('\0', "compare")
                    || has('\0', "transform")
                    || has('\0', "xform")
                    || (name == "bsdtar" && has('s', ""))
            }
            "cpio" | "patch" => true,
            "find" => args.iter().any(|a| a == "-files0-from"),
            // Unless it only lists, tests or prints.
            // Unless it only lists, tests or prints: read as the table reads it.
            "unzip" => super::lookup(name).is_none_or(|p| p.may_make_links(args)),
            "git" => git_subcommand(form).is_some_and(|at| {
                let sub = form.get(at).map_or("", String::as_str);
                let opts = options(form.get(at + 1..).unwrap_or(&[]), "", false);
                let has =
                    |long: &str, shadows: &[&str]| opts.iter().any(|o| o.is_long(long, shadows));
                let short = |c: char| opts.iter().any(|o| o.is(c, ""));
                match sub {
                    // A patch names the files it creates, renames, copies, edits and the
                    // links it makes, and the files `--check` opens to see whether it
                    // applies (helper-67: a binary patch's error printed the object name
                    // of `~/.ssh/id_rsa`); only the reports read nothing but the patch.
                    "apply" => {
                        has("unsafe-paths", &[])
                            || has("apply", &[])
                            || has("check", &[])
                            || !["stat", "numstat", "summary"].iter().any(|l| has(l, &[]))
                    }
                    // Patches from mail, a stream naming marks files (`feature
                    // import-marks=FILE`), a tree or index entries from data (a link
                    // `120000`), files written from the index.
                    "am" | "fast-import" | "mktree" | "checkout-index" => true,
                    "read-tree" => short('u'),
                    // `--stdin` is the content, not names.
                    "hash-object" => has("stdin-paths", &["stdin"]),
                    "update-index" => {
                        has("stdin", &[]) || has("cacheinfo", &[]) || has("index-info", &[])
                    }
                    _ => false,
                }
            }),
            _ => false,
        };
    reads.then(|| {
        format!("`{name}` reads the names of the files it opens from data the line does not show")
    })
}

/// Why FORM (a command's words, its name a basename) reads what symbolic links lead to
/// while it walks a directory tree, if it does: what it reads then depends on the links
/// in the tree, which the line does not show (`grep -R x .` reads `~/.ssh` through a link
/// to it). `grep -R`, `rg -L`, `find -L`/`-follow` and `find -exec` without `-type`,
/// `ls -RL`, `du -L`, `cp -rL`, `tar -h`, `rsync -L`/`-k`/`-K`, `chmod`/`chown`/`chgrp
/// -RL`, `tree -l`, `zip -r` without `-y`, `diff` without `--no-dereference` (any of
/// its operands may be a directory, whose files it opens through links: helper-85), `gzip`/`gunzip -r` with `-c` or `-f` and `zcat -r`; long options
/// abbreviated too (`--deref`).
pub fn follows_links(form: &[String]) -> Option<String> {
    let name = form.first()?.as_str();
    let args = form.get(1..).unwrap_or(&[]);
    let tar = is_tar(name);
    let valued = match name {
        "grep" | "egrep" | "fgrep" | "zgrep" => "efmABCdD",
        "ls" => "ITw",
        "cp" => "St",
        "rsync" => "eBfTM",
        "tree" => "LPIoHT",
        "diff" => "CDFIUWLSxX",
        "gzip" | "gunzip" | "zcat" => "S",
        _ if tar => TAR_VALUED,
        _ => "",
    };
    let opts = options(args, valued, tar);
    let has = |short: char, long: &str| opts.iter().any(|o| o.is(short, long));
    let follows = match name {
        "grep" | "egrep" | "fgrep" | "zgrep" => has('R', "dereference-recursive"),
        "rg" => has('L', "follow"),
        "fd" | "fdfind" => fd_follows(args),
        "find" => find_follows(args),
        "ls" => has('L', "dereference") && has('R', "recursive"),
        "du" => has('L', "dereference"),
        "cp" => {
            has('L', "dereference")
                && (has('r', "recursive") || has('R', "") || has('a', "archive"))
        }
        _ if tar => has('h', "dereference"),
        "rsync" => has('L', "copy-links") || has('k', "copy-dirlinks") || has('K', "keep-dirlinks"),
        "chmod" | "chown" | "chgrp" => has('R', "recursive") && has('L', ""),
        "tree" => has('l', ""),
        // GNU gzip opens what a link in the tree leads to when it writes to standard
        // output or is forced (helper-48: `gzip -rc .` printed a key through `up ->
        // ..`; plain `gzip -r` refuses links).
        "gzip" | "gunzip" | "zcat" => {
            has('r', "recursive")
                && (name == "zcat"
                    || has('c', "stdout")
                    || has('\0', "to-stdout")
                    || has('f', "force"))
        }
        "zip" => {
            (has('r', "recurse-paths") || has('R', ""))
                && !has('y', "")
                && !args.iter().any(|a| a == "--symlinks")
        }
        // GNU diff reads through links in the directories it compares, at the top too
        // (`diff . /tmp/x` reads `./x`), and any operand may be one (`diff ../a ../b`).
        "diff" => !has('\0', "no-dereference"),
        _ => false,
    };
    follows.then(|| {
        format!(
            "`{name}` follows symbolic links in the tree it walks: what it reads depends on them"
        )
    })
}

/// Whether `find` with ARGS (its words after its name) follows symbolic links: `-L`,
/// `-follow`, or an `-exec`, `-execdir`, `-ok` or `-okdir` given `{}`, which hands the
/// program the names of links it then opens through them, unless a `-type` without `l`
/// before it keeps links out, in an expression without `-o`, `!`, `(`, `,` or `-xtype`
/// (read conservatively: a primary not known here counts as following).
fn find_follows(args: &[String]) -> bool {
    // The primaries that take one value (`-newerXY` too), and those that take none.
    const VALUED: &str = "-name -iname -path -ipath -wholename -iwholename -regex -iregex \
        -lname -ilname -user -group -uid -gid -perm -size -mtime -atime -ctime -mmin -amin \
        -cmin -used -newer -anewer -cnewer -samefile -inum -links -maxdepth -mindepth \
        -printf -fprint -fprint0 -fls -context -regextype -fstype -files0-from";
    const PLAIN: &str = "-print -print0 -ls -delete -prune -quit -true -false -empty \
        -executable -readable -writable -nouser -nogroup -depth -d -mount -xdev -noleaf \
        -ignore_readdir_race -noignore_readdir_race -daystart -warn -nowarn -a -and -H -P";
    let listed = |list: &str, t: &str| list.split_whitespace().any(|p| p == t);
    // Options before the starting points.
    let mut k = 0;
    while let Some(a) = args.get(k) {
        match a.as_str() {
            "-L" => return true,
            "-H" | "-P" => k += 1,
            "-D" => k += 2,
            _ if a.starts_with("-O") => k += 1,
            _ => break,
        }
    }
    let mut links_out = false;
    let mut plain = true;
    while let Some(a) = args.get(k) {
        k += 1;
        let t = a.as_str();
        if matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
            let mut braces = false;
            let mut prev = "";
            while let Some(u) = args.get(k) {
                k += 1;
                if u == ";" || (u == "+" && prev == "{}") {
                    break;
                }
                braces |= u.contains("{}");
                prev = u;
            }
            if braces && !(links_out && plain) {
                return true;
            }
            continue;
        }
        match t {
            "-follow" | "-xtype" => return true,
            "-type" => {
                if args
                    .get(k)
                    .is_some_and(|v| !v.is_empty() && !v.contains('l'))
                    && plain
                {
                    links_out = true;
                }
                k += 1;
            }
            _ if listed(VALUED, t) || (t.starts_with("-newer") && t.len() == 8) => k += 1,
            "-fprintf" => k += 2,
            _ if listed(PLAIN, t) => {}
            // A starting point.
            _ if !t.starts_with('-') && !matches!(t, "(" | ")" | "!" | ",") && !links_out => {}
            _ => plain = false,
        }
    }
    false
}

/// The directories the options of FORM (a command's words, its name a basename) move
/// it to: `env -C DIR`/`--chdir=DIR`, `sudo -D DIR`/`--chdir=DIR`, `git -C DIR`,
/// `make -C DIR`/`--directory=DIR`, `tar -C DIR`/`--directory=DIR`, `ninja -C DIR`,
/// `cargo -C DIR`, `pnpm -C DIR`/`--dir DIR`, `npm --prefix DIR`, `yarn --cwd DIR`,
/// `unshare -w DIR`/`--wd=DIR`, `nsenter -wDIR`/`--wd=DIR`, `start-stop-daemon -d DIR`/
/// `--chdir DIR`; `env -S STR` read as the words STR splits into; a new root or a login
/// shell's home (`chroot DIR`, `su -`, `sudo -i`: see `login.rs`).
/// Read as getopt reads them: short options bundled (`env -iC DIR`, `tar -cC DIR`,
/// tar's `cC DIR` without a dash), long ones abbreviated (`--chd=DIR`, `--dir DIR`).
/// Every option of the program is not known here, so a word is never skipped as an
/// option's value: what is not a directory here is only a path word elsewhere.
pub fn chdir_options(form: &[String]) -> Vec<String> {
    let mut out = super::login::root_or_login_dirs(form).unwrap_or_default();
    // (the short option, the short options that take a value, the long option)
    let (short, valued, long): (char, &str, &str) = match form.first().map(String::as_str) {
        Some("env") => ('C', "uSC", "chdir"),
        Some("sudo") => ('D', super::SUDO_VALUED, "chdir"),
        Some("git") => ('C', "Cc", ""),
        Some("ninja") => ('C', "Cfjkld", ""),
        Some("cargo") => ('C', "CjpZ", ""),
        Some("make" | "gmake") => ('C', "CfIjlOoW", "directory"),
        Some("tar" | "gtar" | "bsdtar") => ('C', TAR_VALUED, "directory"),
        Some("pnpm") => ('C', "C", "dir"),
        Some("npm") => ('\0', "", "prefix"),
        Some("unshare") => ('w', "wRSGl", "wd"),
        Some("nsenter") => ('w', "tSGw", "wd"),
        Some("start-stop-daemon") => ('d', "pxnugsRaNPIkcrdO", "chdir"),
        Some("yarn") => ('\0', "", "cwd"),
        // Where they write what they download (their other words stay where they are:
        // read both ways).
        Some("curl") => ('\0', "", "output-dir"),
        Some("wget") => ('P', "oaOiPeTtwQUlDAR", "directory-prefix"),
        _ => return out,
    };
    let split;
    let form = if form.first().is_some_and(|n| n == "env") {
        split = super::env_split::env_split_form(form);
        &split[..]
    } else {
        form
    };
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
        // (`tar -cfC - DIR`): read both ways. A cluster with one value (`-C DIR`) has
        // one reading, listed once: the directories are relative to each other.
        let values = cluster.chars().filter(|c| valued.contains(*c)).count();
        if is_tar && !old_style && cluster.ends_with(short) && values > 1 {
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

// ---------------------------------------------------------------------------------------
// Hooks of entries (`Program::args_hook`, `Program::reading_hook`, `Role::DataFile`).

/// The file a [`super::Role::DataFile`] word names, if any: `@FILE`, `NAME@FILE` (no `=`
/// before the `@`), `NAME=@FILE`, `NAME=<FILE`, the rest of the word (curl's `-d @FILE`
/// takes it whole). `@-` is standard input.
pub(super) fn data_files(word: &str) -> Vec<String> {
    let after = if let Some(rest) = word.strip_prefix('@') {
        rest
    } else if let Some((_, rest)) = word.split_once("=@").or_else(|| word.split_once("=<")) {
        rest
    } else {
        match word.split_once('@') {
            Some((name, rest)) if !name.contains('=') => rest,
            _ => return Vec::new(),
        }
    };
    (!after.is_empty() && after != "-")
        .then(|| after.to_owned())
        .into_iter()
        .collect()
}

/// The files a curl form field names (see [`super::Role::Form`]), read as curl's form
/// parser reads them: spaces around a name dropped, a name in double quotes kept whole
/// (a `\` escaping the next character), `;` and `,` inside quotes no separators.
pub(super) fn form_files(word: &str) -> Vec<String> {
    let Some((_, value)) = word.split_once('=') else {
        return Vec::new();
    };
    let Some(mut rest) = value.strip_prefix('@').or_else(|| value.strip_prefix('<')) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let mut add = |f: String| {
        if !f.is_empty() && f != "-" && !out.contains(&f) {
            out.push(f);
        }
    };
    loop {
        let (file, after) = form_part(rest);
        add(file);
        rest = after;
        while let Some(p) = rest.strip_prefix(';') {
            let (param, after) = form_part(p);
            if let Some(f) = param
                .strip_prefix("headers=@")
                .or_else(|| param.strip_prefix("headers=<"))
            {
                add(unquoted(f.trim()));
            }
            rest = after;
        }
        match rest.strip_prefix(',') {
            Some(next) => rest = next,
            None => return out,
        }
    }
}

/// The part of a form field at the start of S, up to a `;` or `,` outside double
/// quotes, spaces around it dropped and a whole-quoted part unquoted; and what follows.
fn form_part(s: &str) -> (String, &str) {
    let mut quoted = false;
    let mut escaped = false;
    let mut end = s.len();
    for (k, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ';' | ',' if !quoted => {
                end = k;
                break;
            }
            _ => {}
        }
    }
    (unquoted(s[..end].trim()), &s[end..])
}

/// TEXT without the double quotes around it (and their escapes), when it has them.
fn unquoted(text: &str) -> String {
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) => crate::shell::word::unbackslash(inner),
        None => text.to_owned(),
    }
}

/// tar's words as getopt reads them when its first word is a bundle without a dash
/// (`tar czf out.tgz src` is `tar -c -z -f out.tgz src`): each letter of [`TAR_VALUED`]
/// in it takes the next words in order. None when the first word has a dash.
pub(super) fn tar_old_style(args: &[String]) -> Option<Vec<String>> {
    let first = args.first()?;
    if first.starts_with('-') || first.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut values = args.iter().skip(1);
    for ch in first.chars() {
        out.push(format!("-{ch}"));
        if TAR_VALUED.contains(ch) {
            out.extend(values.next().cloned());
        }
    }
    out.extend(values.cloned());
    Some(out)
}

/// less: an operand `+CMD` is a command less runs at the start (`+F`, `+/x`, and `+!CMD`
/// runs CMD in a shell): never certain.
pub(super) fn less_commands(r: &mut super::Reading) {
    use super::{Kind, Role, Run};
    let mut hidden = Vec::new();
    for p in r.parts.iter_mut() {
        if p.kind == Kind::Operand && p.text.starts_with('+') {
            p.role = Role::Hidden;
            // `+!CMD`: the shell command itself, for deny rules.
            hidden.push(p.text.strip_prefix("+!").unwrap_or(&p.text).to_owned());
        }
    }
    r.runs.extend(hidden.into_iter().map(Run::Hidden));
}

/// sqlite3: without SQL among its operands it reads its SQL (and dot-commands such as
/// `.shell`) from standard input, which the line does not show: never certain.
pub(super) fn sqlite_stdin(r: &mut super::Reading) {
    use super::{Kind, Role, Run};
    let code = r
        .parts
        .iter()
        .any(|p| p.role == Role::Code && p.kind == Kind::Operand);
    if !code {
        r.runs.push(Run::Hidden("SQL from standard input".into()));
    }
}

/// jq: the operands after `--args` or `--jsonargs` (but the filter) are strings for
/// `$ARGS`, not files; and a `-f` given no value (jq 1.6 takes the first operand for
/// the program file: `jq -n f.json -f`) makes that operand code the reading does not
/// read, as `-f FILE`'s is.
pub(super) fn jq_args(r: &mut super::Reading) {
    use super::{Kind, Role, Run};
    let from_file = r.given.iter().find(|g| g.long == "from-file");
    // The filter is the first operand, unless `-f` took a file as its value.
    let mut filter = from_file.is_none_or(|g| g.value.is_none());
    if let Some(p) = from_file
        .filter(|g| g.value.is_none())
        .and_then(|_| r.parts.iter().find(|p| p.kind == Kind::Operand))
    {
        r.runs
            .push(Run::Hidden(format!("the jq program in `{}`", p.text)));
    }
    let mut strings = false;
    for p in &mut r.parts {
        match p.kind {
            Kind::Option if matches!(p.text.as_str(), "--args" | "--jsonargs") => strings = true,
            Kind::Operand if filter => filter = false,
            Kind::Operand if strings => p.role = Role::Data,
            _ => {}
        }
    }
}

/// unzip: an archive named that does not exist is looked for with `.zip` and `.ZIP`
/// added (helper-82: `unzip -p keys` printed `keys.zip`; strace of UnZip 6.0).
pub(super) fn unzip_suffix(r: &mut super::Reading) {
    use super::{Kind, Part, Role};
    let Some(archive) = r
        .parts
        .iter()
        .find(|p| p.kind == Kind::Operand && p.role.is_path())
        .map(|p| p.text.clone())
    else {
        return;
    };
    r.parts.extend([".zip", ".ZIP"].iter().map(|s| Part {
        text: format!("{archive}{s}"),
        kind: Kind::Implied,
        role: Role::Read,
    }));
}

/// zip: a pattern list `-x@FILE` (`-i@FILE`) is read from FILE. An archive named
/// without a `.` gets `.zip` added (`zip out d` writes `out.zip`);
/// with `-f` (`--freshen`), `-u` (`--update`) or `-FS` (`--filesync`) it opens the files
/// its entries name: the archive is then a file of names too.
pub(super) fn zip_suffix(r: &mut super::Reading) {
    use super::{Kind, Part, Role};
    // `-x@FILE`, `-i @FILE`: zip reads its list of patterns from FILE.
    let lists: Vec<String> = ["exclude", "include"]
        .iter()
        .flat_map(|o| r.option_values(o))
        .filter_map(|v| v.strip_prefix('@'))
        .map(str::to_owned)
        .collect();
    r.parts.extend(lists.into_iter().map(|text| Part {
        text,
        kind: Kind::Implied,
        role: Role::Read,
    }));
    let names = ["freshen", "update", "filesync"]
        .iter()
        .any(|o| r.has_option(o));
    if let Some(archive) = r
        .parts
        .iter()
        .find(|p| p.kind == Kind::Operand && p.role == Role::Write)
        .map(|p| p.text.clone())
        .filter(|_| names)
    {
        r.parts.push(Part {
            text: archive,
            kind: Kind::Implied,
            role: Role::NamesFrom,
        });
    }
    let Some(at) = r
        .parts
        .iter()
        .position(|p| p.kind == Kind::Operand && p.role == Role::Write)
    else {
        return;
    };
    let name = r.parts[at].text.clone();
    let base = name.rsplit('/').next().unwrap_or(&name);
    if !base.contains('.') && name != "-" {
        r.parts.insert(
            at + 1,
            Part {
                text: format!("{name}.zip"),
                kind: Kind::Operand,
                role: Role::Write,
            },
        );
    }
}

/// mktemp: with `-p DIR` or `--tmpdir[=DIR]` (no DIR: `$TMPDIR`, else `/tmp`), or `-t`
/// (`$TMPDIR` first, then DIR, then `/tmp`), its template is read from that directory, not the current one (`mktemp -p /tmp
/// ../root/.ssh/xXXX` makes `/root/.ssh/xXXX...`): the template there is added as a
/// written part.
pub(super) fn mktemp_dir(r: &mut super::Reading) {
    use super::{Kind, Part, Role};
    let tmp = || {
        std::env::var("TMPDIR")
            .ok()
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "/tmp".to_owned())
    };
    let given = r
        .given
        .iter()
        .rev()
        .find(|g| g.long == "tmpdir" || (g.long.is_empty() && g.short == "p"));
    let from_env = std::env::var("TMPDIR").is_ok_and(|t| !t.is_empty());
    let dir = match given {
        // With `-t`, `$TMPDIR` comes before the directory given.
        Some(_) if r.has_option("t") && from_env => tmp(),
        Some(g) => g
            .value
            .clone()
            .filter(|v| !v.is_empty())
            .unwrap_or_else(tmp),
        None if r.has_option("t") => tmp(),
        None => return,
    };
    let templates: Vec<String> = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && !p.text.starts_with('/'))
        .map(|p| format!("{}/{}", dir.trim_end_matches('/'), p.text))
        .collect();
    for text in templates {
        r.parts.push(Part {
            text,
            kind: Kind::Implied,
            role: Role::Write,
        });
    }
}

/// fd's placeholders, which it replaces in each word of the command it runs.
const FD_PLACEHOLDERS: &[&str] = &["{}", "{/}", "{//}", "{.}", "{/.}"];

/// fd's `-x CMD`/`-X CMD`: a command with no placeholder (`{}`, `{/}`, `{//}`, `{.}`,
/// `{/.}`) is given the names found at its end (`fd -e md -X grep -r KEY` runs `grep -r
/// KEY a.md b.md`, not `grep -r KEY` on the directory it runs in). A placeholder inside
/// a longer word (`~/.ss{/}/id_rsa`: helper-57) makes a name only the walk knows: the
/// word is one the reading does not know.
///
/// Its `-t KIND` is read as find's `-type` letters (`f`/`file`, `d`/`directory`,
/// `l`/`symlink`; any other kind as all three), which is what the walk reads.
pub(super) fn fd_names_at_end(r: &mut super::Reading) {
    for p in r
        .parts
        .iter_mut()
        .filter(|p| p.role == super::Role::FileType)
    {
        p.text = match p.text.as_str() {
            "f" | "file" => "f",
            "d" | "directory" => "d",
            "l" | "symlink" => "l",
            _ => "fdl",
        }
        .to_owned();
    }
    let mut unknown = Vec::new();
    for run in &mut r.runs {
        if let super::Run::Argv(argv) = run {
            let held = |w: &String| FD_PLACEHOLDERS.iter().any(|p| w.contains(p));
            unknown.extend(argv.iter().filter(|w| held(w) && *w != "{}").cloned());
            if !argv.is_empty() && !argv.iter().skip(1).any(held) {
                argv.push("{}".to_owned());
            }
        }
    }
    r.unknown.extend(unknown);
}

/// Whether fd with ARGS (its words after its name) opens what symbolic links lead to:
/// with `-L`/`--follow`, and when it runs a command (`-x`, `-X`), which opens the links
/// it is handed, unless every `-t` keeps links out (`-t f`, `-t d`). Read
/// conservatively: a cluster holding `L` follows, one holding `x` or `X` runs.
fn fd_follows(args: &[String]) -> bool {
    let mut runs = false;
    let mut kinds: Vec<&str> = Vec::new();
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        match a.as_str() {
            "--follow" => return true,
            "-x" | "-X" | "--exec" | "--exec-batch" => {
                runs = true;
                break;
            }
            "-t" | "--type" => {
                kinds.extend(args.get(k).map(String::as_str));
                k += 1;
            }
            "--" => break,
            t if t.starts_with("--type=") => kinds.push(&t["--type=".len()..]),
            t if t.starts_with("--exec") => runs = true,
            t if t.starts_with('-') && !t.starts_with("--") => {
                if t.contains('L') {
                    return true;
                }
                if t.contains(['x', 'X']) {
                    runs = true;
                    break;
                }
                // A glued kind (`-tf`) is not read: links count.
                if t.starts_with("-t") {
                    kinds.push("");
                }
            }
            _ => {}
        }
    }
    runs && (kinds.is_empty()
        || !kinds
            .iter()
            .all(|t| matches!(*t, "f" | "file" | "d" | "directory")))
}
