//! The files `cp`, `mv` and `ln` make in a destination directory: `cp x/.bashrc ~`
//! writes `~/.bashrc`, a name that is no word of the line. The reading adds `DEST/NAME`
//! for each source NAME as a written [`Kind::Implied`] part, for `-t DIR` and for the
//! last of two or more operands, whatever its spelling: whether `"$HOME"`, `.git` or
//! `/abs/dir` is a directory is known only when the command runs (helper-85: `cp
//! .bashrc "$HOME"` wrote `~/.bashrc`), so both DEST and DEST/NAME are read as written.
//! A source whose name is `.` (`cp -r x/. ~`), and every source under `-T`, puts its
//! contents in DEST itself: a tree copied so writes all below DEST (`cp -rT k ..`).
//! A backup (`-b`, `--backup`, `-S SUF`, which implies it) renames what was at each
//! destination to its name and the suffix (`~` unless `-S` says otherwise): `cp -b -S v
//! x .en` renamed `.en` to `.env`.

use super::{Kind, Part, Reading, Role};

/// The written parts for SOURCES (operand texts and roles) put in DIR: each source's
/// last name, or with PARENTS (`cp --parents`) its whole path as written (helper-84:
/// `cp --parents .ssh/authorized_keys ..` wrote `../.ssh/authorized_keys`).
fn into(dir: &str, sources: &[(String, Role)], parents: bool) -> Vec<Part> {
    let dir = dir.trim_end_matches('/');
    sources
        .iter()
        .filter(|(s, _)| s != "-")
        .map(|(source, role)| {
            let base = match parents {
                true => source.trim_start_matches('/').trim_end_matches('/'),
                false => source
                    .trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .unwrap_or(""),
            };
            // A tree copied, or moved whole: what is below it is written too.
            let tree = role.is_tree() || *role == Role::Write || matches!(base, "" | "." | "..");
            let text = match base {
                "" | "." | ".." if dir.is_empty() => "/".to_owned(),
                "" | "." | ".." => dir.to_owned(),
                b if dir == "." => b.to_owned(),
                b if dir.is_empty() && source.starts_with('/') => format!("/{b}"),
                b => format!("{dir}/{b}"),
            };
            Part {
                text,
                kind: Kind::Implied,
                role: if tree { Role::WriteTree } else { Role::Write },
            }
        })
        .collect()
}

/// Add to R what its sources become in its destination: in the directory `-t DIR`
/// names, else in the last of two or more operands (which may be one: see the module's
/// words), or that operand itself under `-T`; with ONE_HERE, a lone operand is put in
/// the current directory (`ln -s /x/y` makes `./y`). And the backups of them all.
fn add(r: &mut Reading, one_here: bool) {
    let target = target_directory(r);
    // `cp --parents` wants a directory, and puts each source's path in it.
    let parents = r.has_option("parents");
    let operands: Vec<(String, Role)> = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && p.role.is_path())
        .map(|p| (p.text.clone(), p.role))
        .collect();
    let mut added = match (target, operands.split_last()) {
        (Some(dir), _) => into(&dir, &operands, parents),
        (None, Some((_, []))) if one_here => into(".", &operands, false),
        // A tree's contents put in DEST itself (`cp -rT k ..`, `mv -T k d`).
        (None, Some((dest, sources))) if r.has_option("no-target-directory") => {
            let tree = sources
                .iter()
                .any(|(_, role)| role.is_tree() || *role == Role::Write);
            let whole = Part {
                text: dest.0.clone(),
                kind: Kind::Implied,
                role: Role::WriteTree,
            };
            tree.then_some(whole).into_iter().collect()
        }
        (None, Some((dest, sources))) if !sources.is_empty() => into(&dest.0, sources, parents),
        _ => Vec::new(),
    };
    // A tree copied with backups renames what it replaces below the destination to names
    // no word gives (helper-87: `cp -r -S v t d` renamed `d/t/.en` to `d/t/.env`).
    if backs_up(r) && operands.iter().any(|(_, role)| role.is_tree()) {
        r.unknown
            .push("a tree copied with backups: the names of the backups below".into());
    }
    if backs_up(r) {
        let suffix = r
            .option_values("suffix")
            .last()
            .map_or("~".to_owned(), |s| (*s).to_owned());
        let written = operands
            .last()
            .filter(|_| operands.len() > 1 && !r.has_option("target-directory"))
            .map(|(dest, _)| (dest.clone(), Role::Write));
        let backups: Vec<Part> = added
            .iter()
            .map(|p| (p.text.clone(), p.role))
            .chain(written)
            .filter(|(text, _)| !text.ends_with('/') && !text.is_empty())
            .map(|(text, role)| Part {
                text: format!("{text}{suffix}"),
                kind: Kind::Implied,
                role,
            })
            .collect();
        added.extend(backups);
    }
    for p in added {
        // A path written already is written whole (`cp -rT k ..`: `..` and below).
        let upgrade = |q: &Part| q.text == p.text && q.role == Role::Write;
        if p.role == Role::WriteTree && r.parts.iter().any(upgrade) {
            for q in r.parts.iter_mut().filter(|q| upgrade(q)) {
                q.role = Role::WriteTree;
            }
        } else if !r.parts.iter().any(|q| q.text == p.text && q.role == p.role) {
            r.parts.push(p);
        }
    }
}

/// Whether R makes backups of what it replaces: `-b`, `--backup[=CONTROL]`, or `-S
/// SUF`, which implies `-b` (coreutils 9.1); none with `--backup=none` or `off`.
fn backs_up(r: &Reading) -> bool {
    // `none` and `off` make none whatever else is given (`never` is `simple`).
    let control = r.option_values("backup");
    let off = control.last().is_some_and(|c| matches!(*c, "none" | "off"));
    !off && (r.has_option("backup") || r.has_option("b") || r.has_option("suffix"))
}

/// Whether WORD, a destination, is a directory by its text alone.
fn names_a_directory(word: &str) -> bool {
    word.ends_with('/')
        || matches!(word, "." | ".." | "~")
        || word.ends_with("/.")
        || word.ends_with("/..")
}

/// `cp`, `mv`: the sources in the destination directory.
pub(super) fn into_directory(r: &mut Reading) {
    add(r, false);
}

/// `ln`: the links in the destination directory, or in the current one; a symbolic
/// link's relative target read from the link's directory (see [`link_targets`]).
pub(super) fn links_into_directory(r: &mut Reading) {
    add(r, true);
    if r.has_option("symbolic") && !r.has_option("relative") {
        link_targets(r);
    }
}

/// The directory `-t DIR` (`--target-directory=DIR`, however abbreviated or bundled)
/// names: the last one given, which is the one the program uses.
fn target_directory(r: &Reading) -> Option<String> {
    r.option_values("target-directory")
        .last()
        .map(|v| (*v).to_owned())
}

/// `ln -s TARGET... LINK`: a relative TARGET is what it names from the link's directory
/// (`ln -s ../src build/src-link` links to `src`), not from the current one, which
/// `ln` never opens it from: the target is read there instead, from each directory the
/// link is in (the destination directory when the words say it is one, else the
/// directory of the link the last operand names). With `-r`, `ln`
/// itself reads the target from the current directory; a lone target is linked there.
fn link_targets(r: &mut Reading) {
    let dest_dir = target_directory(r);
    let no_dir = r.has_option("no-target-directory");
    let operands: Vec<usize> = (0..r.parts.len())
        .filter(|&i| r.parts[i].kind == Kind::Operand && r.parts[i].role.is_path())
        .collect();
    let (targets, bases): (&[usize], Vec<String>) = match (dest_dir, operands.split_last()) {
        (Some(dir), _) => (&operands[..], vec![dir]),
        (None, Some((_, []))) | (None, None) => return,
        (None, Some((&dest, targets))) => {
            let dest = r.parts[dest].text.clone();
            let parent = match dest.trim_end_matches('/').rsplit_once('/') {
                Some(("", _)) => "/".to_owned(),
                Some((d, _)) => d.to_owned(),
                None => String::new(),
            };
            // A destination that may be a directory only when the command runs holds
            // the link (`DEST/NAME`, its target read from DEST) or is the link (its
            // target read from DEST's directory): both are read.
            let bases = if no_dir {
                vec![parent]
            } else if names_a_directory(&dest) || targets.len() > 1 {
                vec![dest]
            } else {
                vec![dest, parent]
            };
            (targets, bases)
        }
    };
    let mut added = Vec::new();
    for &t in targets {
        let text = r.parts[t].text.clone();
        // An absolute target (or `~`'s) names the same from anywhere.
        if text.starts_with('/') || text.starts_with('~') || text.is_empty() {
            continue;
        }
        let role = r.parts[t].role;
        for base in &bases {
            let named = match base.trim_end_matches('/') {
                "" if base.starts_with('/') => format!("/{text}"),
                "" => text.clone(),
                b => format!("{b}/{text}"),
            };
            added.push(Part {
                text: named,
                kind: Kind::Implied,
                role,
            });
        }
        if !bases.iter().any(|b| b.is_empty()) {
            r.parts[t].role = Role::Data;
        }
    }
    for p in added {
        if !r.parts.iter().any(|q| q.text == p.text && q.role == p.role) {
            r.parts.push(p);
        }
    }
}
