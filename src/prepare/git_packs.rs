//! git's packs (`gitformat-pack(5)`): a pack's index (version 2), the offsets of its
//! objects, and the deltas its objects are stored as, for `git_objects`.

use std::path::{Path, PathBuf};

/// An object's name (SHA-1).
pub(super) type Oid = [u8; 20];

/// Largest single object inflated.
pub(super) const MAX_OBJECT: usize = 32 << 20;

/// The error of a store whose data is not as git writes it.
pub(super) fn bad() -> String {
    "git's store holds data not as git writes it".into()
}

/// One pack: its index file's bytes and the offsets of its objects, sorted (an
/// object's data ends where the next begins).
pub(super) struct Pack {
    pub(super) path: PathBuf,
    idx: Vec<u8>,
    count: usize,
    pub(super) ends: Vec<u64>,
}

impl Pack {
    /// Where in the pack the object OID starts, if the pack holds it.
    pub(super) fn find(&self, oid: &Oid) -> Option<u64> {
        let fan = |b: usize| -> usize {
            let at = 8 + 4 * b;
            self.idx
                .get(at..at + 4)
                .map_or(0, |s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]) as usize)
        };
        let first = usize::from(oid[0]);
        let (mut lo, mut hi) = (if first == 0 { 0 } else { fan(first - 1) }, fan(first));
        let names = 8 + 256 * 4;
        while lo < hi {
            let mid = (lo + hi) / 2;
            let at = names + 20 * mid;
            let name = self.idx.get(at..at + 20)?;
            match name.cmp(&oid[..]) {
                std::cmp::Ordering::Equal => return self.offset(mid),
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// The objects of the pack whose names start with the hexadecimal digits PREFIX (two
    /// at least), up to two (enough to tell one from several).
    pub(super) fn starting(&self, prefix: &str) -> Vec<Oid> {
        let Some(first) = prefix.get(..2).and_then(|h| u8::from_str_radix(h, 16).ok()) else {
            return Vec::new();
        };
        let fan = |b: usize| -> usize {
            let at = 8 + 4 * b;
            self.idx
                .get(at..at + 4)
                .map_or(0, |s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]) as usize)
        };
        let first = usize::from(first);
        let (lo, hi) = (if first == 0 { 0 } else { fan(first - 1) }, fan(first));
        let names = 8 + 256 * 4;
        let mut out = Vec::new();
        for n in lo..hi.min(self.count) {
            let Some(name) = self.idx.get(names + 20 * n..names + 20 * n + 20) else {
                break;
            };
            let shown: String = name.iter().map(|b| format!("{b:02x}")).collect();
            if shown.starts_with(prefix) {
                if let Ok(oid) = name.try_into() {
                    out.push(oid);
                }
                if out.len() > 1 {
                    break;
                }
            }
        }
        out
    }

    /// The offset of the Nth object of the index.
    fn offset(&self, n: usize) -> Option<u64> {
        let small = 8 + 256 * 4 + 24 * self.count + 4 * n;
        let s = self.idx.get(small..small + 4)?;
        let off = u32::from_be_bytes([s[0], s[1], s[2], s[3]]);
        if off & 0x8000_0000 == 0 {
            return Some(u64::from(off));
        }
        let large = 8 + 256 * 4 + 28 * self.count + 8 * (off & 0x7fff_ffff) as usize;
        let s = self.idx.get(large..large + 8)?;
        Some(u64::from_be_bytes(s.try_into().ok()?))
    }
}

/// The index of a pack (version 2) at IDX, with its objects' offsets sorted.
pub(super) fn read_idx(idx: &Path) -> Result<Pack, String> {
    let shown = idx.display();
    let bytes = crate::path::read_small(idx, 1 << 30)
        .map_err(|e| format!("`{shown}` cannot be read: {e}"))?;
    if bytes.get(..8) != Some(&[0xff, b't', b'O', b'c', 0, 0, 0, 2][..]) {
        return Err(format!("`{shown}` is not a pack index git 2 writes"));
    }
    let count = bytes
        .get(8 + 255 * 4..8 + 256 * 4)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]) as usize)
        .ok_or_else(bad)?;
    let path = idx.with_extension("pack");
    let pack_len = std::fs::metadata(&path)
        .map_err(|e| format!("`{}` cannot be read: {e}", path.display()))?
        .len();
    pack_matches(&path, pack_len, count, &bytes)?;
    let mut pack = Pack {
        path,
        idx: bytes,
        count,
        ends: Vec::new(),
    };
    let mut ends = Vec::with_capacity(count + 1);
    for n in 0..count {
        ends.push(pack.offset(n).ok_or_else(bad)?);
    }
    // The last object ends before the pack's 20-byte checksum.
    ends.push(pack_len.saturating_sub(20));
    ends.sort_unstable();
    pack.ends = ends;
    Ok(pack)
}

/// Whether the pack at PATH (LEN bytes) is one git reads with the index IDX of COUNT
/// objects, as its `open_packed_git_1` checks: its header (`PACK`, version 2 or 3)
/// counts as many objects, and it ends with the checksum the index repeats. git reads
/// no object of a pack that fails (helper-93: it read a forged tree's loose copy while
/// the reading took the pack's): Err then.
fn pack_matches(path: &Path, len: u64, count: usize, idx: &[u8]) -> Result<(), String> {
    use std::io::{Read, Seek, SeekFrom};
    let shown = path.display();
    let unread = |e: std::io::Error| format!("`{shown}` cannot be read: {e}");
    let mismatch = || {
        Err(format!(
            "`{shown}` does not match its index: git may not read it"
        ))
    };
    if len < 32 || idx.len() < 40 {
        return mismatch();
    }
    let mut file = std::fs::File::open(path).map_err(unread)?;
    let mut head = [0u8; 12];
    file.read_exact(&mut head).map_err(unread)?;
    let version = u32::from_be_bytes([head[4], head[5], head[6], head[7]]);
    let objects = u32::from_be_bytes([head[8], head[9], head[10], head[11]]) as usize;
    if &head[..4] != b"PACK" || !matches!(version, 2 | 3) || objects != count {
        return mismatch();
    }
    let mut tail = [0u8; 20];
    file.seek(SeekFrom::Start(len - 20))
        .and_then(|_| file.read_exact(&mut tail))
        .map_err(unread)?;
    if tail[..] != idx[idx.len() - 40..idx.len() - 20] {
        return mismatch();
    }
    Ok(())
}

/// DATA inflated (zlib), at most MAX bytes.
pub(super) fn inflate(data: &[u8], max: usize) -> Result<Vec<u8>, String> {
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(data, max.max(1))
        .map_err(|_| "an object git's store holds cannot be inflated".to_string())
}

/// DATA, a pack entry's zlib stream, inflated to the SIZE its header gives, or why not:
/// git takes an entry only when the stream ends at exactly that size, and reads the
/// object from elsewhere otherwise (helper-95: a shorter stream under another tree's
/// name).
pub(super) fn inflate_sized(data: &[u8], size: usize) -> Result<Vec<u8>, String> {
    let out = inflate(data, size)?;
    if out.len() != size {
        return Err("an object in a pack is not the size its entry gives".into());
    }
    Ok(out)
}

/// BASE with the delta DELTA applied (`gitformat-pack(5)`, "Deltified representation").
pub(super) fn apply_delta(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, String> {
    let mut i = 0;
    let mut size = || -> Result<usize, String> {
        let (mut n, mut shift) = (0usize, 0u32);
        loop {
            let c = *delta.get(i).ok_or_else(bad)?;
            i += 1;
            n |= usize::from(c & 0x7f).checked_shl(shift).ok_or_else(bad)?;
            shift += 7;
            if c & 0x80 == 0 {
                return Ok(n);
            }
        }
    };
    let (from, to) = (size()?, size()?);
    if from != base.len() || to > MAX_OBJECT {
        return Err(bad());
    }
    let mut out = Vec::with_capacity(to);
    while i < delta.len() {
        let op = delta[i];
        i += 1;
        if op & 0x80 != 0 {
            let mut field = |bits: std::ops::Range<u8>| -> Result<usize, String> {
                let mut v = 0usize;
                for (k, bit) in bits.enumerate() {
                    if op & (1 << bit) != 0 {
                        v |= usize::from(*delta.get(i).ok_or_else(bad)?) << (8 * k);
                        i += 1;
                    }
                }
                Ok(v)
            };
            let off = field(0..4)?;
            let len = match field(4..7)? {
                0 => 0x10000,
                n => n,
            };
            out.extend_from_slice(
                base.get(off..off.checked_add(len).ok_or_else(bad)?)
                    .ok_or_else(bad)?,
            );
        } else if op != 0 {
            let n = usize::from(op);
            out.extend_from_slice(delta.get(i..i + n).ok_or_else(bad)?);
            i += n;
        } else {
            return Err(bad());
        }
    }
    if out.len() != to {
        return Err(bad());
    }
    Ok(out)
}
