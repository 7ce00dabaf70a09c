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
        // gzip matches a suffix in any case (`.env.GZ` is `.env`), after a name that is
        // more than a directory (`q/.gz` has none: gzip looks for `q/.gz.gz`).
        let lower = name.to_ascii_lowercase();
        if let Some(stem) = lower
            .strip_suffix(&s.to_ascii_lowercase())
            .map(|st| &name[..st.len()])
            .filter(|st| !st.is_empty() && !st.ends_with('/') && !s.is_empty())
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

/// The suffixes gzip tries, after the `-S` one, on a name it is to decompress, test
/// or list that does not exist and has no suffix it knows (`zcat dump.sql` opens
/// `dump.sql.gz`; strace of gzip 1.12: `.gz`, `.z`, `-z`, `.Z`).
const LOOKED_UP: &[&str] = &[".gz", ".z", "-z", ".Z"];

/// The files gzip may open for R's operands when it decompresses, tests or lists
/// (DECOMPRESS, or `-d`, `-t`, `-l`): each name with the suffixes it tries (helper-82:
/// `zcat -f -S nv .e` printed `.env`, `zcat dump.sql` printed `dump.sql.gz`), read.
fn looked_up(r: &mut Reading, decompress: bool) {
    let decompress = decompress
        || [
            ('d', "decompress"),
            ('d', "uncompress"),
            ('t', "test"),
            ('l', "list"),
        ]
        .iter()
        .any(|(short, long)| given(r, *short, long));
    if !decompress {
        return;
    }
    let given_suffix = suffix(r);
    let suffixes: Vec<&str> = given_suffix
        .iter()
        .map(String::as_str)
        .chain(LOOKED_UP.iter().copied())
        .collect();
    let tried: Vec<String> = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && p.role.is_path() && p.text != "-")
        .filter(|p| decompressed(&p.text, given_suffix.as_deref().unwrap_or("")).is_none())
        // A directory (`zcat -r . ~`) has no twin.
        .filter(|p| !matches!(p.text.rsplit('/').next(), Some("" | "." | ".." | "~")))
        .flat_map(|p| suffixes.iter().map(move |s| format!("{}{s}", p.text)))
        .collect();
    r.parts.extend(tried.into_iter().map(|text| Part {
        text,
        kind: Kind::Implied,
        role: Role::Read,
    }));
}

/// `gzip`: compresses, or decompresses with `-d`.
pub(super) fn gzip_outputs(r: &mut Reading) {
    looked_up(r, false);
    outputs(r, false);
}

/// `gunzip`: decompresses.
pub(super) fn gunzip_outputs(r: &mut Reading) {
    looked_up(r, true);
    outputs(r, true);
}

/// `zcat` (`gzip -cd "$@"`): with `-r` it reads every file below a directory operand,
/// printing those that are not compressed as they are with `-f` (helper-61: `zcat -rf ~`
/// printed `~/.ssh/id_rsa`); without `-f` it still opens each one.
pub(super) fn zcat_walks(r: &mut Reading) {
    looked_up(r, true);
    if !given(r, 'r', "recursive") {
        return;
    }
    for p in &mut r.parts {
        if p.kind == Kind::Operand && p.role == Role::Read {
            p.role = Role::Walk;
        }
    }
}
