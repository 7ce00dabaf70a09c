//! A small, bounded reader of git's index (`.git/index`, the format of git's
//! `Documentation/gitformat-index.txt`): the paths of the files git tracks, which is
//! what git prints from its store (`git diff`, `git show`, `git log -p`, `git grep`).
//!
//! Versions 2, 3 and 4 (prefix-compressed names) are read. What would make the list
//! incomplete is not read, and says so: a split index (the `link` extension: the
//! entries live in a shared index too), a sparse index (a directory entry stands for
//! the files below it, the `sdir` extension), a repository whose objects are named by
//! SHA-256 (its entries are longer), and an index past the bounds.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

/// Largest index file read (bytes).
pub(super) const MAX_INDEX_BYTES: u64 = 64 << 20;

/// Most entries read from one index.
pub(super) const MAX_INDEX_ENTRIES: usize = 400_000;

/// The fixed part of an entry before its object name: ctime, mtime, dev, ino, mode,
/// uid, gid, size (ten 32-bit fields).
const STAT_BYTES: usize = 40;

/// The length of an object name (SHA-1).
const OID_BYTES: usize = 20;

/// The mode of a sparse index's directory entry.
const MODE_DIR: u32 = 0o040000;

/// Whether the repository of common directory COMMON names its objects by SHA-256
/// (its configuration sets `extensions.objectFormat`; an entry's object name is then
/// longer): read as it is written, a configuration that cannot be read counts as one.
pub(super) fn sha256(common: &Path) -> bool {
    match crate::path::read_small(&common.join("config"), 1 << 20) {
        Ok(text) => text
            .to_ascii_lowercase()
            .windows(b"objectformat".len())
            .any(|w| w == b"objectformat"),
        Err(e) => !crate::path::absent(&e),
    }
}

/// The paths the index at PATH lists, read once while the file stays the same (its
/// size and modification time): a call's walks ask for the same index again.
pub(super) fn tracked_paths(path: &Path) -> Result<Rc<Vec<String>>, String> {
    type Last = Option<(PathBuf, u64, Option<SystemTime>, Rc<Vec<String>>)>;
    thread_local! {
        static LAST: RefCell<Last> = const { RefCell::new(None) };
    }
    let stamp = std::fs::metadata(path)
        .ok()
        .map(|m| (m.len(), m.modified().ok()));
    if let Some((len, time)) = stamp {
        let hit = LAST.with(|l| match &*l.borrow() {
            Some((p, n, t, paths)) if p == path && *n == len && *t == time && time.is_some() => {
                Some(paths.clone())
            }
            _ => None,
        });
        if let Some(paths) = hit {
            return Ok(paths);
        }
    }
    let paths = Rc::new(read_paths(path)?);
    if let Some((len, time)) = stamp {
        LAST.with(|l| *l.borrow_mut() = Some((path.to_path_buf(), len, time, paths.clone())));
    }
    Ok(paths)
}

/// The paths the index at PATH lists (relative to the top of the work tree, `/`
/// separated, in the index's order), or why they cannot be known. A missing index is
/// an empty one (a repository with nothing added yet).
fn read_paths(path: &Path) -> Result<Vec<String>, String> {
    let shown = path.display();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if crate::path::absent(&e) => return Ok(Vec::new()),
        Err(e) => return Err(format!("git's index `{shown}` cannot be read ({e})")),
    };
    if meta.len() > MAX_INDEX_BYTES {
        return Err(format!(
            "git's index `{shown}` is larger than {} MB",
            MAX_INDEX_BYTES >> 20
        ));
    }
    let data = crate::path::read_small(path, MAX_INDEX_BYTES)
        .map_err(|e| format!("git's index `{shown}` cannot be read ({e})"))?;
    parse(&data).map_err(|why| format!("git's index `{shown}` is not read: {why}"))
}

/// The paths of the index DATA.
pub(super) fn parse(data: &[u8]) -> Result<Vec<String>, String> {
    let mut r = Reader { data, at: 0 };
    if r.take(4)? != b"DIRC" {
        return Err("no `DIRC` signature".into());
    }
    let version = r.u32()?;
    if !(2..=4).contains(&version) {
        return Err(format!("version {version}"));
    }
    let count = r.u32()? as usize;
    if count > MAX_INDEX_ENTRIES {
        return Err(format!("more than {MAX_INDEX_ENTRIES} entries"));
    }
    let mut out: Vec<String> = Vec::with_capacity(count);
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = r.at;
        let stat = r.take(STAT_BYTES)?;
        let mode = u32::from_be_bytes([stat[24], stat[25], stat[26], stat[27]]);
        r.take(OID_BYTES)?;
        let flags = r.u16()?;
        if flags & 0x4000 != 0 {
            if version < 3 {
                return Err("an extended entry in a version 2 index".into());
            }
            r.u16()?;
        }
        let name = if version == 4 {
            let strip = r.varint()?;
            let keep = previous
                .len()
                .checked_sub(strip)
                .ok_or("a name that strips more than the previous one has")?;
            let mut name = previous[..keep].to_vec();
            name.extend_from_slice(r.until_nul()?);
            name
        } else {
            let name = r.until_nul()?.to_vec();
            // 1 to 8 NULs end the entry at a multiple of eight bytes (one is read).
            let len = r.at - start;
            let padded = (len + 7) & !7;
            r.take(padded - len)?;
            name
        };
        if mode & 0o170000 == MODE_DIR || name.ends_with(b"/") {
            return Err("a sparse index (a directory entry stands for its files)".into());
        }
        out.push(String::from_utf8_lossy(&name).into_owned());
        previous = name;
    }
    // Extensions, until the checksum at the end.
    while data.len().saturating_sub(r.at) > OID_BYTES {
        let sig = r.take(4)?;
        let size = r.u32()? as usize;
        match sig {
            b"link" => return Err("a split index (the `link` extension)".into()),
            b"sdir" => return Err("a sparse index (the `sdir` extension)".into()),
            _ => {
                r.take(size)?;
            }
        }
    }
    Ok(out)
}

/// A cursor over an index's bytes; every read is bounded by the data.
struct Reader<'d> {
    data: &'d [u8],
    at: usize,
}

impl<'d> Reader<'d> {
    fn take(&mut self, n: usize) -> Result<&'d [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(end) = end else {
            return Err("it ends too early".into());
        };
        let out = &self.data[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    /// The bytes up to the next NUL, which is read too.
    fn until_nul(&mut self) -> Result<&'d [u8], String> {
        let rest = &self.data[self.at..];
        let Some(n) = rest.iter().position(|&b| b == 0) else {
            return Err("a name without its NUL".into());
        };
        self.at += n + 1;
        Ok(&rest[..n])
    }

    /// git's offset number (`varint.c`): seven bits a byte, high bit set on all but
    /// the last, each continuation adding one.
    fn varint(&mut self) -> Result<usize, String> {
        let mut c = self.take(1)?[0];
        let mut val = usize::from(c & 0x7f);
        while c & 0x80 != 0 {
            c = self.take(1)?[0];
            val = val
                .checked_add(1)
                .and_then(|v| v.checked_mul(128))
                .and_then(|v| v.checked_add(usize::from(c & 0x7f)))
                .ok_or("a number too large")?;
        }
        Ok(val)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index of VERSION with NAMES, as git writes it (stat data zero).
    fn index(version: u32, names: &[&str], ext: &[u8]) -> Vec<u8> {
        let mut out = b"DIRC".to_vec();
        out.extend(version.to_be_bytes());
        out.extend((names.len() as u32).to_be_bytes());
        let mut previous = "";
        for name in names {
            let start = out.len();
            out.extend([0u8; STAT_BYTES - 16]);
            out.extend(0o100644u32.to_be_bytes());
            out.extend([0u8; 12]);
            out.extend([7u8; OID_BYTES]);
            out.extend((name.len().min(0xfff) as u16).to_be_bytes());
            if version == 4 {
                let common = previous
                    .bytes()
                    .zip(name.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                let strip = previous.len() - common;
                assert!(strip < 128);
                out.push(strip as u8);
                out.extend(&name.as_bytes()[common..]);
                out.push(0);
            } else {
                out.extend(name.as_bytes());
                let len = out.len() - start;
                let padded = (len + 8) & !7;
                out.extend(std::iter::repeat_n(0, padded - len));
            }
            previous = name;
        }
        out.extend(ext);
        out.extend([0u8; OID_BYTES]);
        out
    }

    #[test]
    fn reads_versions_2_3_4() {
        let names = ["a.rs", "src/.env", "src/main.rs", "src/x/y"];
        for v in [2, 3, 4] {
            assert_eq!(parse(&index(v, &names, &[])).unwrap(), names, "version {v}");
        }
    }

    #[test]
    fn skips_extensions_but_not_split_or_sparse() {
        let mut tree = b"TREE".to_vec();
        tree.extend(3u32.to_be_bytes());
        tree.extend(b"abc");
        assert_eq!(parse(&index(2, &["a"], &tree)).unwrap(), ["a"]);
        let mut link = b"link".to_vec();
        link.extend(0u32.to_be_bytes());
        assert!(parse(&index(2, &["a"], &link)).is_err());
        assert!(parse(&index(2, &["dir/"], &[])).is_err());
    }

    #[test]
    fn truncated_or_foreign_data_is_an_error() {
        let full = index(2, &["a", "b/c"], &[]);
        for n in 0..full.len() - OID_BYTES {
            assert!(parse(&full[..n]).is_err(), "cut at {n}");
        }
        assert!(parse(b"DIRC\0\0\0\x05\0\0\0\0").is_err());
        assert!(parse(b"PACK").is_err());
    }
}
