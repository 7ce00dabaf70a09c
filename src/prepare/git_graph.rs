//! git's commit-graph (`gitformat-commit-graph(5)`): where a repository has one, git
//! takes the tree and the parents of a commit it lists from it, not from the commit
//! object (helper-93: a graph that names another tree made `git cherry-pick` write a
//! `.env` the commit's own tree does not hold). Read as git's `commit-graph.c` reads it:
//! `objects/info/commit-graph`, else the chain `objects/info/commit-graphs/`.

use super::git_packs::Oid;
use std::path::Path;

/// Most bytes of one commit-graph file read.
const MAX_GRAPH: u64 = 512 << 20;

/// "No parent" in a commit's data.
const NO_PARENT: u32 = 0x7000_0000;

/// The parents past the first are listed in the extra-edge list.
const EXTRA_EDGES: u32 = 0x8000_0000;

/// One file of a commit-graph (a chain has several, the base first).
struct File {
    bytes: Vec<u8>,
    /// Where its object names (OIDL), commit data (CDAT) and extra edges (EDGE) start.
    oidl: usize,
    cdat: usize,
    edge: Option<usize>,
    /// How many commits it lists, and how many its base files list before it.
    count: usize,
    base: usize,
}

/// A repository's commit-graph.
pub(super) struct Graph {
    files: Vec<File>,
}

/// What git reads of a commit the graph lists.
pub(super) struct Commit {
    pub(super) tree: Oid,
    pub(super) parents: Vec<Oid>,
}

impl Graph {
    /// The commit-graph of the store whose common directory is COMMON, if it has one;
    /// Err where git may read it otherwise than here (a file this reading does not
    /// take as git would).
    pub(super) fn load(common: &Path) -> Result<Option<Graph>, String> {
        let info = common.join("objects/info");
        let one = info.join("commit-graph");
        if crate::path::lexists(&one).unwrap_or(true) {
            let file = read_file(&one, 0)?;
            return Ok(Some(Graph { files: vec![file] }));
        }
        let chain = info.join("commit-graphs/commit-graph-chain");
        let text = match crate::path::read_small(&chain, 1 << 20) {
            Ok(text) => text,
            Err(e) if crate::path::absent(&e) => return Ok(None),
            Err(e) => return Err(format!("`{}` cannot be read: {e}", chain.display())),
        };
        let mut files: Vec<File> = Vec::new();
        for line in String::from_utf8_lossy(&text).lines() {
            let name = line.trim();
            if name.len() != 40 || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(unknown(&chain));
            }
            let base = files.last().map_or(0, |f| f.base + f.count);
            let file = read_file(
                &info.join(format!("commit-graphs/graph-{name}.graph")),
                base,
            )?;
            files.push(file);
        }
        Ok((!files.is_empty()).then_some(Graph { files }))
    }

    /// What git reads of the commit OID from the graph, if the graph lists it.
    pub(super) fn commit(&self, oid: &Oid) -> Result<Option<Commit>, String> {
        let Some((f, local)) = self.find(oid) else {
            return Ok(None);
        };
        let file = &self.files[f];
        let bad = || "a commit-graph entry this reading cannot read".to_string();
        let at = file.cdat + 36 * local;
        let entry = file.bytes.get(at..at + 36).ok_or_else(bad)?;
        let tree: Oid = entry[..20].try_into().map_err(|_| bad())?;
        let word =
            |k: usize| u32::from_be_bytes([entry[k], entry[k + 1], entry[k + 2], entry[k + 3]]);
        let (first, second) = (word(20), word(24));
        let mut positions = Vec::new();
        if first != NO_PARENT {
            positions.push(first);
        }
        if second & EXTRA_EDGES != 0 {
            let edge = file.edge.ok_or_else(bad)?;
            let mut k = (second & !EXTRA_EDGES) as usize;
            loop {
                let at = edge + 4 * k;
                let w = file.bytes.get(at..at + 4).ok_or_else(bad)?;
                let w = u32::from_be_bytes([w[0], w[1], w[2], w[3]]);
                positions.push(w & !EXTRA_EDGES);
                if w & EXTRA_EDGES != 0 || positions.len() > 100_000 {
                    break;
                }
                k += 1;
            }
        } else if second != NO_PARENT {
            positions.push(second);
        }
        let parents = positions
            .into_iter()
            .map(|p| self.oid_at(p as usize).ok_or_else(bad))
            .collect::<Result<Vec<Oid>, String>>()?;
        Ok(Some(Commit { tree, parents }))
    }

    /// The file that lists OID and where in it, searching from the top of a chain down,
    /// as git does.
    fn find(&self, oid: &Oid) -> Option<(usize, usize)> {
        self.files.iter().enumerate().rev().find_map(|(f, file)| {
            let fan = |b: usize| -> usize {
                let at = file.oidl - 1024 + 4 * b;
                file.bytes
                    .get(at..at + 4)
                    .map_or(0, |s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]) as usize)
            };
            let first = usize::from(oid[0]);
            let lo = if first == 0 { 0 } else { fan(first - 1) };
            let hi = fan(first).min(file.count);
            let names = |k: usize| file.bytes.get(file.oidl + 20 * k..file.oidl + 20 * k + 20);
            let (mut lo, mut hi) = (lo, hi);
            while lo < hi {
                let mid = (lo + hi) / 2;
                match names(mid)?.cmp(&oid[..]) {
                    std::cmp::Ordering::Equal => return Some((f, mid)),
                    std::cmp::Ordering::Less => lo = mid + 1,
                    std::cmp::Ordering::Greater => hi = mid,
                }
            }
            None
        })
    }

    /// The commit at the position POS of the whole graph (base files first).
    fn oid_at(&self, pos: usize) -> Option<Oid> {
        let file = self
            .files
            .iter()
            .find(|f| (f.base..f.base + f.count).contains(&pos))?;
        let at = file.oidl + 20 * (pos - file.base);
        file.bytes.get(at..at + 20)?.try_into().ok()
    }
}

/// Why the commit-graph at PATH is not read: git may read it otherwise.
fn unknown(path: &Path) -> String {
    format!(
        "the commit-graph `{}` is not one this reading knows git reads alike",
        path.display()
    )
}

/// The commit-graph file at PATH, whose base files list BASE commits: its header
/// (`CGPH`, version 1, SHA-1), its chunks, and the fan-out git checks.
fn read_file(path: &Path, base: usize) -> Result<File, String> {
    let bytes = crate::path::read_small(path, MAX_GRAPH)
        .map_err(|e| format!("`{}` cannot be read: {e}", path.display()))?;
    let no = || unknown(path);
    let head = bytes.get(..8).ok_or_else(no)?;
    let (chunks, bases) = (usize::from(head[6]), usize::from(head[7]));
    if &head[..4] != b"CGPH" || head[4] != 1 || head[5] != 1 {
        return Err(no());
    }
    // A chain's files name their bases; this reading takes a chain's order for theirs.
    if (base == 0) != (bases == 0) {
        return Err(no());
    }
    let mut table = std::collections::HashMap::new();
    let mut ends = Vec::new();
    for k in 0..=chunks {
        let at = 8 + 12 * k;
        let e = bytes.get(at..at + 12).ok_or_else(no)?;
        let id: [u8; 4] = e[..4].try_into().map_err(|_| no())?;
        let offset = u64::from_be_bytes(e[4..12].try_into().map_err(|_| no())?);
        let offset = usize::try_from(offset).map_err(|_| no())?;
        if offset > bytes.len() || ends.last().is_some_and(|&l| offset < l) {
            return Err(no());
        }
        ends.push(offset);
        if k < chunks {
            table.insert(id, offset);
        }
    }
    let (Some(&oidf), Some(&oidl), Some(&cdat)) =
        (table.get(b"OIDF"), table.get(b"OIDL"), table.get(b"CDAT"))
    else {
        return Err(no());
    };
    let fan = bytes.get(oidf..oidf + 1024).ok_or_else(no)?;
    let count = u32::from_be_bytes([fan[1020], fan[1021], fan[1022], fan[1023]]) as usize;
    if oidl != oidf + 1024 || bytes.len() < oidl + 20 * count || bytes.len() < cdat + 36 * count {
        return Err(no());
    }
    Ok(File {
        oidl,
        cdat,
        edge: table.get(b"EDGE").copied(),
        count,
        base,
        bytes,
    })
}
