//! The files gzip names after its operands: `gzip f` writes `f.gz` (and removes `f`),
//! `gunzip f.gz` (`gzip -d`) writes `f`: run from `~`, `gunzip -f .bashrc.gz` writes
//! `~/.bashrc`. The reading adds them as written [`Kind::Implied`] parts.

use super::{Kind, Part, Reading, Role};

/// Whether R gives gzip's option SHORT or LONG (any unique prefix of it: gzip reads
/// options as getopt_long does; the reader has already refused an ambiguous one).
fn given(r: &Reading, short: char, long: &str) -> bool {
    r.parts.iter().any(|p| {
        p.kind == Kind::Option
            && match p.text.strip_prefix("--") {
                Some(l) => {
                    let name = l.split_once('=').map_or(l, |(n, _)| n);
                    !name.is_empty() && long.starts_with(name)
                }
                // A bundle, up to `S`, the only short option with a value.
                None => p
                    .text
                    .strip_prefix('-')
                    .is_some_and(|b| b.split('S').next().unwrap_or("").contains(short)),
            }
    })
}

/// The value of `-S SUFFIX` (`--suffix`), if given.
fn suffix(r: &Reading) -> Option<String> {
    r.parts.windows(2).find_map(|w| {
        let option = &w[0].text;
        let is_suffix = match option.strip_prefix("--") {
            Some(l) => {
                let name = l.split_once('=').map_or(l, |(n, _)| n);
                name.len() >= 2 && "suffix".starts_with(name)
            }
            None => option.starts_with('-') && option.contains('S'),
        };
        (w[0].kind == Kind::Option && w[1].kind == Kind::Value && is_suffix)
            .then(|| w[1].text.clone())
    })
}

/// The file gzip -d writes for NAME given SUFFIX: NAME without a suffix it knows
/// (`.tgz` and `.taz` become `.tar`), or None when it has none.
fn decompressed(name: &str, suffix: &str) -> Option<String> {
    for (s, to) in [
        (suffix, ""),
        (".gz", ""),
        (".z", ""),
        ("-gz", ""),
        ("-z", ""),
        ("_z", ""),
        (".Z", ""),
        (".tgz", ".tar"),
        (".taz", ".tar"),
    ] {
        if let Some(stem) = name
            .strip_suffix(s)
            .filter(|st| !st.is_empty() && !s.is_empty())
        {
            return Some(format!("{stem}{to}"));
        }
    }
    None
}

/// gzip's files: each operand's `.gz` (or `-S`) twin, written when it compresses, or
/// its name without the suffix when it decompresses (with no suffix it knows, it reads
/// and removes the twin). Nothing with `-c`, `-t`, `-l`; `-N` restores a name the
/// archive holds, which the line does not show.
fn outputs(r: &mut Reading, decompress: bool) {
    if given(r, 'c', "stdout") || given(r, 't', "test") || given(r, 'l', "list") {
        return;
    }
    let decompress = decompress || given(r, 'd', "decompress") || given(r, 'd', "uncompress");
    if decompress && given(r, 'N', "name") {
        r.unknown.push("--name".into());
        return;
    }
    let suffix = suffix(r).unwrap_or_else(|| ".gz".into());
    let names: Vec<String> = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && p.role.is_path() && p.text != "-")
        .map(|p| match decompress {
            true => decompressed(&p.text, &suffix).unwrap_or_else(|| format!("{}{suffix}", p.text)),
            false => format!("{}{suffix}", p.text),
        })
        .collect();
    for name in names {
        r.parts.push(Part {
            text: name,
            kind: Kind::Implied,
            role: Role::Write,
        });
    }
}

/// `gzip`: compresses, or decompresses with `-d`.
pub(super) fn gzip_outputs(r: &mut Reading) {
    outputs(r, false);
}

/// `gunzip`: decompresses.
pub(super) fn gunzip_outputs(r: &mut Reading) {
    outputs(r, true);
}

/// `zcat` (`gzip -cd "$@"`): with `-r` it reads every file below a directory operand,
/// printing those that are not compressed as they are with `-f` (helper-61: `zcat -rf ~`
/// printed `~/.ssh/id_rsa`); without `-f` it still opens each one.
pub(super) fn zcat_walks(r: &mut Reading) {
    if !given(r, 'r', "recursive") {
        return;
    }
    for p in &mut r.parts {
        if p.kind == Kind::Operand && p.role == Role::Read {
            p.role = Role::Walk;
        }
    }
}
