//! What programs do with their options that the rules must know: the directories their
//! options move them to, whether they follow symbolic links in the trees they walk, and
//! whether they read the names of the files they open from data.

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
