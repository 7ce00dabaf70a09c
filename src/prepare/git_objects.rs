//! A small, bounded reader of git's object store (`gitformat-pack(5)`, loose objects
//! in `objects/xx/...`) and its references: the paths of the files a commit's tree
//! holds, which git writes into the work tree when it moves to that commit (`git
//! checkout main`, `git reset --hard v1`, `git merge topic`: helper-90's session found
//! `git checkout other` overwriting an ignored `.env` the index does not list).
//!
//! A revision is read where it is a name git resolves without its history or the
//! network: `HEAD`, a full object name, a branch, tag or remote branch (loose or in
//! `packed-refs`), `stash`, with `~N`, `^` and `^N` after it. Anything else (`@{-1}`,
//! `main@{upstream}`, an abbreviated name, `:/text`, a range) is not read and says why,
//! and so is a store that may hold other objects than its files show (alternates,
//! replacement refs, grafts, `reftable`, SHA-256).

use super::git_graph::{Commit as GraphCommit, Graph};
use super::git_packs::{apply_delta, bad, inflate, inflate_sized, read_idx, Oid, Pack, MAX_OBJECT};
use super::git_reflog::reflog_entry;
use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Most objects (commits, tags, trees) read from one store in one decision.
const MAX_OBJECTS: usize = 5_000;

/// Most bytes of objects inflated from one store in one decision.
const MAX_BYTES: usize = 64 << 20;

/// Longest time one decision reads one store (and looks through the paths it lists).
pub(super) const MAX_TIME: std::time::Duration = std::time::Duration::from_millis(40);

/// Most paths listed from one tree.
const MAX_PATHS: usize = 200_000;

/// Most commits a range (`A..B`: a rebase's) gives.
const MAX_RANGE: usize = 500;

/// Most commits of a range's base looked at.
const MAX_RANGE_BASE: usize = 2_000;

/// Longest chain of deltas followed (git packs with at most 50 by default).
const MAX_DELTA_DEPTH: usize = 256;

/// A tree entry's mode, read as git's `decode_tree_entry` reads it: octal digits, any
/// number of them (`040000` is a directory too: helper-92).
fn tree_mode(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 11 {
        return None;
    }
    digits.iter().try_fold(0u32, |m, &d| {
        matches!(d, b'0'..=b'7').then(|| (m << 3) | u32::from(d - b'0'))
    })
}

/// The kinds of object git stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Commit,
    Tree,
    Blob,
    Tag,
}

/// The object store of one repository, read within the bounds above.
pub(super) struct Store {
    common: PathBuf,
    git_dir: PathBuf,
    packs: Option<Vec<Pack>>,
    objects: usize,
    bytes: usize,
    /// The trees listed already, by where they stand (several commits share most).
    listed: std::collections::HashSet<(String, Oid)>,
    /// `packed-refs`, read once: empty where there is none, Err where it cannot be read.
    packed_refs: std::cell::OnceCell<Result<Vec<u8>, String>>,
    /// The objects read, by name.
    read: HashMap<Oid, Rc<(Kind, Vec<u8>)>>,
    /// When it was opened: its reading is bounded in time too ([`MAX_TIME`]).
    started: std::time::Instant,
    /// The commit-graph, read once.
    graph: std::cell::OnceCell<Result<Option<Graph>, String>>,
    /// Each commit's files, listed once: `git checkout NAME` asks for `refs/heads/NAME`
    /// and for `NAME`, most often one commit.
    files: HashMap<Oid, Rc<Vec<String>>>,
}

/// The stores of the repositories one decision asks about, each opened once, and the
/// files of each revision listed once: `git checkout REV -- a b c` asks for REV's files
/// for each pathspec, and every walk of a line for the same revision.
#[derive(Default)]
pub(super) struct Stores {
    open: HashMap<PathBuf, Result<Store, String>>,
    trees: HashMap<(PathBuf, String), Revision>,
}

/// What [`Store::tree_paths`] found for one revision, kept.
type Revision = Result<Option<std::rc::Rc<Vec<String>>>, String>;

impl Stores {
    /// [`Store::tree_paths`] of REV in the repository whose git directory is GIT_DIR
    /// (common directory COMMON), read once a decision. The bounds of one store hold
    /// across every revision read from it.
    pub(super) fn tree_paths(&mut self, git_dir: &Path, common: &Path, rev: &str) -> Revision {
        let key = (git_dir.to_path_buf(), rev.to_string());
        if let Some(found) = self.trees.get(&key) {
            return found.clone();
        }
        let store = self
            .open
            .entry(git_dir.to_path_buf())
            .or_insert_with(|| Store::open(git_dir, common));
        let found = match store {
            Ok(s) => s.tree_paths(rev),
            Err(why) => Err(why.clone()),
        };
        self.trees.insert(key, found.clone());
        found
    }
}

impl Store {
    /// The store of the repository whose git directory is GIT_DIR and common directory
    /// COMMON, or why what it holds cannot be known from its files.
    pub(super) fn open(git_dir: &Path, common: &Path) -> Result<Store, String> {
        let shown = common.display();
        for (file, what) in [
            (
                "objects/info/alternates",
                "borrows objects from another store",
            ),
            ("info/grafts", "has grafts"),
            ("shallow", "is shallow"),
        ] {
            if crate::path::lexists(&common.join(file)).unwrap_or(true) {
                return Err(format!("the repository `{shown}` {what}"));
            }
        }
        let config = crate::path::read_small(&common.join("config"), 1 << 20)
            .map_err(|e| format!("`{shown}/config` cannot be read: {e}"))?
            .to_ascii_lowercase();
        if config
            .windows(b"refstorage".len())
            .any(|w| w == b"refstorage")
            || config
                .windows(b"objectformat".len())
                .any(|w| w == b"objectformat")
        {
            return Err(format!(
                "the repository `{shown}` keeps references or objects in another format"
            ));
        }
        // Whether git reads its commit-graph (`core.commitGraph`) is not read here.
        if config.split(|&b| b == b'\n').any(|line| {
            let key = line.split(|&b| b == b'=').next().unwrap_or(line);
            key.trim_ascii() == b"commitgraph"
        }) {
            return Err(format!(
                "the repository `{shown}` sets whether git reads its commit-graph"
            ));
        }
        // git looks objects up through a multi-pack-index first (helper-94: one whose
        // pack's own index had been changed); it is not read here.
        if crate::path::lexists(&common.join("objects/pack/multi-pack-index")).unwrap_or(true)
            || crate::path::lexists(&common.join("objects/pack/multi-pack-index.d")).unwrap_or(true)
        {
            return Err(format!(
                "the repository `{shown}` has a multi-pack-index, which this reading does not read"
            ));
        }
        if crate::path::lexists(&common.join("refs/replace")).unwrap_or(true) {
            return Err(format!("the repository `{shown}` has replacement objects"));
        }
        Ok(Store {
            common: common.to_path_buf(),
            git_dir: git_dir.to_path_buf(),
            packs: None,
            objects: 0,
            bytes: 0,
            listed: std::collections::HashSet::new(),
            packed_refs: std::cell::OnceCell::new(),
            read: HashMap::new(),
            started: std::time::Instant::now(),
            graph: std::cell::OnceCell::new(),
            files: HashMap::new(),
        })
    }

    /// The paths (relative to the top of the work tree) of the files of the tree the
    /// revision REV names (`REV^@`: the trees of its parents too), or why they cannot
    /// be known. None where git surely finds no such revision (it then stops, or reads
    /// the word as a path).
    pub(super) fn tree_paths(&mut self, rev: &str) -> Result<Option<Rc<Vec<String>>>, String> {
        self.listed.clear();
        let (rev, parents) = match rev.strip_suffix("^@") {
            Some(base) => (base, true),
            None => (rev, false),
        };
        // `A..B`: the commits B reaches and A does not (`git rebase A`, `git cherry-pick
        // A..B`), each tree's files.
        if let Some((a, b)) = rev.split_once("..").filter(|(_, b)| !b.starts_with('.')) {
            let (Some(a), Some(b)) = (self.resolve(a)?, self.resolve(b)?) else {
                return Ok(None);
            };
            let mut out = Vec::new();
            for c in self.range(a, b)? {
                let tree = self.tree_of(c)?;
                self.list(tree, "", &mut out, 0)?;
                // `git revert A..B` writes the trees of their parents, A's among them
                // (helper-92).
                if parents {
                    for p in self.parents(c)? {
                        let tree = self.tree_of(p)?;
                        self.list(tree, "", &mut out, 0)?;
                    }
                }
            }
            return Ok(Some(Rc::new(out)));
        }
        let Some(commit) = self.resolve(rev)? else {
            return Ok(None);
        };
        if let Some(files) = self.files.get(&commit).filter(|_| !parents) {
            return Ok(Some(files.clone()));
        }
        let mut commits = vec![commit];
        if parents {
            commits.extend(self.parents(commit)?);
        }
        let mut out = Vec::new();
        for c in commits {
            let tree = self.tree_of(c)?;
            self.list(tree, "", &mut out, 0)?;
        }
        let out = Rc::new(out);
        if !parents {
            self.files.insert(commit, out.clone());
        }
        Ok(Some(out))
    }

    /// The commits B reaches that A does not (at most [`MAX_RANGE`]; past it, why not
    /// read). A's history is looked at up to [`MAX_RANGE_BASE`] commits: past that, more
    /// of B's commits are taken, never fewer.
    fn range(&mut self, a: Oid, b: Oid) -> Result<Vec<Oid>, String> {
        let mut base = std::collections::HashSet::new();
        let mut todo = vec![a];
        while let Some(c) = todo.pop() {
            if base.len() >= MAX_RANGE_BASE {
                break;
            }
            if base.insert(c) {
                todo.extend(self.parents(c)?);
            }
        }
        let (mut out, mut seen) = (Vec::new(), std::collections::HashSet::new());
        let mut todo = vec![b];
        while let Some(c) = todo.pop() {
            if base.contains(&c) || !seen.insert(c) {
                continue;
            }
            if out.len() >= MAX_RANGE {
                return Err(format!("more than {MAX_RANGE} commits to replay"));
            }
            out.push(c);
            todo.extend(self.parents(c)?);
        }
        Ok(out)
    }

    /// The parents of the commit OID.
    fn parents(&mut self, oid: Oid) -> Result<Vec<Oid>, String> {
        Ok(self.commit(oid)?.parents)
    }

    /// The branch the Nth checkout before the last one left (`@{-N}`, `-`), from
    /// `logs/HEAD` as git's `interpret_nth_prior_checkout` reads it; None where there
    /// were fewer.
    fn prior_checkout(&self, n: usize) -> Result<Option<String>, String> {
        let log = crate::path::read_small(&self.git_dir.join("logs/HEAD"), 64 << 20)
            .map_err(|e| format!("git's log of HEAD cannot be read: {e}"))?;
        // Every entry as git writes it, or the log is not read (helper-94: entries git
        // skips as damaged, or reads without a tab).
        if !log.is_empty() && !log.ends_with(b"\n") {
            return Err("git's log of HEAD does not end with a whole entry".into());
        }
        let text = String::from_utf8_lossy(&log);
        if let Some(line) = text.lines().find(|l| !reflog_entry(l)) {
            return Err(format!(
                "git's log of HEAD has an entry this reading does not read as git does: `{}`",
                line.chars().take(80).collect::<String>()
            ));
        }
        // The message is what follows the entry's first tab; git counts only those
        // that start so and hold ` to `, and takes the name up to the first (helper-92:
        // `moving from other to x to main` left `other`).
        let from = text
            .lines()
            .rev()
            .filter_map(|l| l.split_once('\t').map(|(_, m)| m))
            .filter_map(|m| m.strip_prefix("checkout: moving from "))
            .filter_map(|m| m.split_once(" to ").map(|(from, _)| from))
            .nth(n.saturating_sub(1))
            .map(str::to_string);
        Ok(from)
    }

    /// The object REV names, peeled to a commit; None where git surely finds none.
    fn resolve(&mut self, rev: &str) -> Result<Option<Oid>, String> {
        let unread = || format!("git resolves `{rev}` from more than the repository's names");
        if let Some(why) = crate::shell::unknown_revision(rev) {
            return Err(why.into());
        }
        // The name, then its `~N`, `^`, `^N` steps.
        let cut = rev.find(['~', '^']).unwrap_or(rev.len());
        let (name, mut steps) = rev.split_at(cut);
        let Some(mut oid) = self.name(name)? else {
            return Ok(None);
        };
        while let Some(c) = steps.chars().next() {
            // (`^{commit}`, `^{/text}`, `@{1}`: not read.)
            if !matches!(c, '~' | '^') || steps[1..].starts_with('{') {
                return Err(unread());
            }
            let digits = steps[1..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(steps.len(), |k| k + 1);
            let n = match &steps[1..digits] {
                "" => 1,
                d => d.parse::<usize>().map_err(|_| unread())?,
            };
            steps = &steps[digits..];
            oid = self.peel(oid)?;
            // (Each step reads an object: `HEAD~99999999` stops at the bound.)
            let (times, k) = match c {
                '~' => (n, 1),
                _ if n == 0 => (0, 1),
                _ => (1, n),
            };
            for _ in 0..times {
                match self.parent(oid, k)? {
                    Some(p) => oid = p,
                    None => return Ok(None),
                }
            }
        }
        self.peel(oid).map(Some)
    }

    /// What the name NAME (no `~`/`^` after it) refers to, found as git's
    /// `get_oid_basic` finds it: a full object name, else the first reference of
    /// `NAME`, `refs/NAME`, `refs/tags/NAME`, `refs/heads/NAME`, `refs/remotes/NAME`,
    /// `refs/remotes/NAME/HEAD` that exists. None where there is none (and no remote
    /// branch `git checkout` or `git switch` may make a branch of); Err where git may
    /// read it otherwise.
    fn name(&mut self, name: &str) -> Result<Option<Oid>, String> {
        let unread = || {
            Err(format!(
                "git resolves `{name}` from more than the repository's names"
            ))
        };
        // `git checkout -` is `@{-1}`: the branch the last checkout left.
        let n = match name {
            "-" => Some(1),
            _ => name
                .strip_prefix("@{-")
                .and_then(|n| n.strip_suffix('}'))
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n > 0),
        };
        if let Some(n) = n {
            return match self.prior_checkout(n)? {
                Some(from) if !from.contains("@{") => self.name(&from),
                _ => Ok(None),
            };
        }
        let name = match name {
            "@" => "HEAD",
            "stash@{0}" => "stash",
            n => n,
        };
        if name.is_empty() || name.contains("@{") || name.contains("..") || name.contains(':') {
            return unread();
        }
        // No name of a reference (`check-ref-format`): a path to git (`.`, `src/`,
        // `*.c`), or an option.
        if name.starts_with(['-', '.', '/'])
            || name.ends_with(['/', '.'])
            || name.ends_with(".lock")
            || name.contains("/.")
            || name.contains("//")
            || name.contains(|c: char| c.is_ascii_control() || " *?[\\".contains(c))
        {
            return Ok(None);
        }
        if let Some(oid) = hex(name.as_bytes()) {
            return Ok(Some(oid));
        }
        for full in [
            name.to_string(),
            format!("refs/{name}"),
            format!("refs/tags/{name}"),
            format!("refs/heads/{name}"),
            format!("refs/remotes/{name}"),
            format!("refs/remotes/{name}/HEAD"),
        ] {
            match self.reference(&full, 0) {
                Ok(Some(oid)) => return Ok(Some(oid)),
                Ok(None) => {}
                Err(()) => return unread(),
            }
        }
        // An abbreviated object name (after the references, as git looks).
        if (4..40).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_hexdigit()) {
            let mut found = self.loose_starting(&name.to_ascii_lowercase())?;
            for p in self.packs()? {
                found.extend(p.starting(&name.to_ascii_lowercase()));
            }
            found.sort_unstable();
            found.dedup();
            match found.as_slice() {
                [one] => return Ok(Some(*one)),
                [] => {}
                _ => return Err(format!("`{name}` abbreviates several objects")),
            }
        }
        if self.remote_branch(name) {
            return Err(format!(
                "git may make the branch `{name}` from a remote branch of that name"
            ));
        }
        Ok(None)
    }

    /// The loose objects whose names start with the hexadecimal digits PREFIX, up to two.
    fn loose_starting(&self, prefix: &str) -> Result<Vec<Oid>, String> {
        let dir = self.common.join("objects").join(&prefix[..2]);
        let list = match std::fs::read_dir(&dir) {
            Ok(list) => list,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("`{}` cannot be listed: {e}", dir.display())),
        };
        let mut out = Vec::new();
        for e in list.flatten() {
            let full = format!("{}{}", &prefix[..2], e.file_name().to_string_lossy());
            if full.starts_with(prefix) {
                out.extend(hex(full.as_bytes()));
                if out.len() > 1 {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// Whether a remote branch `refs/remotes/R/NAME` may exist (loose or packed).
    fn remote_branch(&self, name: &str) -> bool {
        let remotes = self.common.join("refs/remotes");
        let loose = match std::fs::read_dir(&remotes) {
            Ok(list) => list
                .flatten()
                .any(|r| crate::path::lexists(&r.path().join(name)).unwrap_or(true)),
            Err(e) => e.kind() != std::io::ErrorKind::NotFound,
        };
        let tail = format!("/{name}");
        loose
            || self.packed_refs().map_or(true, |t| {
                t.split(|&b| b == b'\n').any(|l| {
                    let l = String::from_utf8_lossy(l);
                    l.contains(" refs/remotes/") && l.ends_with(tail.as_str())
                })
            })
    }

    /// The text of `packed-refs` (empty where there is none), read once.
    fn packed_refs(&self) -> Result<&[u8], String> {
        self.packed_refs
            .get_or_init(|| {
                match crate::path::read_small(&self.common.join("packed-refs"), 64 << 20) {
                    Ok(text) => Ok(text),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
                    Err(e) => Err(format!("`packed-refs` cannot be read: {e}")),
                }
            })
            .as_deref()
            .map_err(Clone::clone)
    }

    /// The object the reference FULL names: Ok(None) where there is none, Err where
    /// git may read it otherwise (a file that is not a reference, a loop).
    fn reference(&self, full: &str, depth: usize) -> Result<Option<Oid>, ()> {
        if depth > 5 || full.split('/').any(|c| c.is_empty() || c.starts_with('.')) {
            return Err(());
        }
        // HEAD and the like (all capitals) and a work tree's own references live in its
        // git directory; the others in the common one.
        let own = !full.contains('/')
            || ["refs/worktree/", "refs/bisect/", "refs/rewritten/"]
                .iter()
                .any(|p| full.starts_with(p));
        if !full.contains('/') && !full.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') {
            // `refs/NAME` and below, only.
            return Ok(None);
        }
        let dir = if own { &self.git_dir } else { &self.common };
        match crate::path::read_small(&dir.join(full), 4096) {
            Ok(text) => {
                let text = text.trim_ascii();
                if let Some(to) = text.strip_prefix(b"ref:") {
                    let to = std::str::from_utf8(to.trim_ascii()).map_err(|_| ())?;
                    return self.reference(to, depth + 1)?.map(Some).ok_or(());
                }
                // (FETCH_HEAD's lines name several commits: not read.)
                if text.len() != 40 {
                    return Err(());
                }
                hex(text).map(Some).ok_or(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.packed(full),
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => self.packed(full),
            Err(_) => Err(()),
        }
    }

    /// The object the reference FULL names in `packed-refs`, if it is there; Err where
    /// that cannot be read.
    fn packed(&self, full: &str) -> Result<Option<Oid>, ()> {
        let text = self.packed_refs().map_err(|_| ())?;
        Ok(text.split(|&b| b == b'\n').find_map(|line| {
            let (oid, name) = line.split_at_checked(40)?;
            (name.strip_prefix(b" ")? == full.as_bytes())
                .then(|| hex(oid))
                .flatten()
        }))
    }

    /// The commit OID is or a tag names (through tags).
    fn peel(&mut self, mut oid: Oid) -> Result<Oid, String> {
        for _ in 0..16 {
            let obj = self.object(&oid)?;
            let (kind, data) = (obj.0, &obj.1);
            match kind {
                Kind::Commit => return Ok(oid),
                Kind::Tag => oid = header_oid(data, b"object ").ok_or_else(bad)?,
                _ => return Err("the revision names no commit".into()),
            }
        }
        Err("a chain of tags too long to follow".into())
    }

    /// The Nth parent of the commit OID, if it has one (none in a repository without
    /// grafts and a shallow history: git finds no such revision).
    fn parent(&mut self, oid: Oid, n: usize) -> Result<Option<Oid>, String> {
        Ok(self.commit(oid)?.parents.get(n - 1).copied())
    }

    /// What git reads of the commit OID from the repository's commit-graph, if that
    /// lists it (see [`Graph`]).
    fn graphed(&self, oid: &Oid) -> Result<Option<GraphCommit>, String> {
        match self.graph.get_or_init(|| Graph::load(&self.common)) {
            Ok(Some(g)) => g.commit(oid),
            Ok(None) => Ok(None),
            Err(why) => Err(why.clone()),
        }
    }

    /// The tree and parents of the commit OID: its object's, which must be the
    /// commit-graph's where that lists it. git takes one or the other by command
    /// (`git cherry-pick` the graph's, `git checkout` the object's: helper-94), so where
    /// they differ what it writes is not known.
    fn commit(&mut self, oid: Oid) -> Result<GraphCommit, String> {
        let obj = self.object(&oid)?;
        let data = &obj.1;
        let own = GraphCommit {
            tree: header_oid(data, b"tree ").ok_or_else(bad)?,
            parents: headers(data)
                .filter_map(|l| l.strip_prefix(b"parent "))
                .filter_map(hex40)
                .collect(),
        };
        match self.graphed(&oid)? {
            Some(g) if g.tree != own.tree || g.parents != own.parents => Err(format!(
                "the commit-graph and the commit {} disagree",
                show(&oid)
            )),
            _ => Ok(own),
        }
    }

    /// The tree of the commit OID.
    fn tree_of(&mut self, oid: Oid) -> Result<Oid, String> {
        Ok(self.commit(oid)?.tree)
    }

    /// The paths of the files below the tree OID, each after PREFIX, into OUT (a tree
    /// listed at PREFIX already is not again).
    fn list(
        &mut self,
        oid: Oid,
        prefix: &str,
        out: &mut Vec<String>,
        depth: usize,
    ) -> Result<(), String> {
        if depth > 4096 {
            return Err("a tree too deep to read".into());
        }
        if !self.listed.insert((prefix.to_string(), oid)) {
            return Ok(());
        }
        let obj = self.object(&oid)?;
        let (kind, data) = (obj.0, &obj.1);
        if kind != Kind::Tree {
            return Err(bad());
        }
        let mut rest = &data[..];
        while !rest.is_empty() {
            let space = rest.iter().position(|&b| b == b' ').ok_or_else(bad)?;
            let nul = rest.iter().position(|&b| b == 0).ok_or_else(bad)?;
            let mode = tree_mode(&rest[..space]).ok_or_else(bad)?;
            let name = String::from_utf8_lossy(rest.get(space + 1..nul).ok_or_else(bad)?);
            let child: Oid = rest
                .get(nul + 1..nul + 21)
                .and_then(|s| s.try_into().ok())
                .ok_or_else(bad)?;
            rest = &rest[nul + 21..];
            let path = format!("{prefix}{name}");
            if mode & 0o170000 == 0o040000 {
                self.list(child, &format!("{path}/"), out, depth + 1)?;
            } else {
                out.push(path);
                if out.len() > MAX_PATHS {
                    return Err("the tree holds too many files to read".into());
                }
            }
        }
        Ok(())
    }

    /// The kind and data of the object OID, from a pack or a loose file, each read once
    /// (a tree many directories share is listed at each: helper-92's 25,000 took 436 ms).
    fn object(&mut self, oid: &Oid) -> Result<Rc<(Kind, Vec<u8>)>, String> {
        if let Some(found) = self.read.get(oid) {
            return Ok(found.clone());
        }
        self.objects += 1;
        if self.objects > MAX_OBJECTS {
            return Err("more objects than are read for one revision".into());
        }
        if self.started.elapsed() > MAX_TIME {
            return Err(format!(
                "reading git's store took more than {} ms",
                MAX_TIME.as_millis()
            ));
        }
        // As git looks: in the packs, then the loose files (helper-92: a loose file
        // forged under the name of a packed tree is not what git reads).
        let found = match self.packed_object(oid, 0)? {
            Some(found) => found,
            None => self
                .loose(oid)?
                .ok_or_else(|| format!("object {} is not in the repository's store", show(oid)))?,
        };
        self.bytes += found.1.len();
        if self.bytes > MAX_BYTES {
            return Err("more object data than is read for one revision".into());
        }
        let found = Rc::new(found);
        self.read.insert(*oid, found.clone());
        Ok(found)
    }

    /// The loose object OID, if there is one.
    fn loose(&self, oid: &Oid) -> Result<Option<(Kind, Vec<u8>)>, String> {
        let name = show(oid);
        let path = self
            .common
            .join("objects")
            .join(&name[..2])
            .join(&name[2..]);
        let raw = match crate::path::read_small(&path, MAX_OBJECT as u64) {
            Ok(raw) => raw,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("`{}` cannot be read: {e}", path.display())),
        };
        let data = inflate(&raw, MAX_OBJECT + 64)?;
        let nul = data.iter().position(|&b| b == 0).ok_or_else(bad)?;
        let mut header = data[..nul].split(|&b| b == b' ');
        let kind = match header.next() {
            Some(b"commit") => Kind::Commit,
            Some(b"tree") => Kind::Tree,
            Some(b"blob") => Kind::Blob,
            Some(b"tag") => Kind::Tag,
            _ => return Err(bad()),
        };
        // The size the header gives, as git checks it (an object of another size is
        // corrupt to git).
        let size = header.next().and_then(|s| std::str::from_utf8(s).ok());
        if header.next().is_some() || size != Some((data.len() - nul - 1).to_string().as_str()) {
            return Err(bad());
        }
        Ok(Some((kind, data[nul + 1..].to_vec())))
    }

    /// The packs of the store, read once.
    fn packs(&mut self) -> Result<&[Pack], String> {
        if self.packs.is_none() {
            let dir = self.common.join("objects/pack");
            let mut packs = Vec::new();
            let list = match std::fs::read_dir(&dir) {
                Ok(list) => list.flatten().map(|e| e.path()).collect::<Vec<_>>(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(format!("`{}` cannot be listed: {e}", dir.display())),
            };
            for idx in list
                .iter()
                .filter(|p| p.extension().is_some_and(|x| x == "idx"))
            {
                packs.push(read_idx(idx)?);
            }
            self.packs = Some(packs);
        }
        Ok(self.packs.as_deref().unwrap_or_default())
    }

    /// The object OID from a pack, if one holds it.
    fn packed_object(
        &mut self,
        oid: &Oid,
        depth: usize,
    ) -> Result<Option<(Kind, Vec<u8>)>, String> {
        let packs = self.packs()?;
        let found: Vec<(usize, u64)> = packs
            .iter()
            .enumerate()
            .filter_map(|(k, p)| p.find(oid).map(|at| (k, at)))
            .collect();
        let Some(&(k, at)) = found.first() else {
            return Ok(None);
        };
        let first = self.entry(k, at, depth)?;
        // Which of several packs git takes its copy from depends on their order: where
        // the copies differ, what it reads is not known.
        for &(k, at) in &found[1..] {
            if self.entry(k, at, depth)? != first {
                return Err(format!(
                    "object {} differs between the repository's packs",
                    show(oid)
                ));
            }
        }
        Ok(Some(first))
    }

    /// The object at offset AT of pack K, its deltas applied.
    fn entry(&mut self, k: usize, at: u64, depth: usize) -> Result<(Kind, Vec<u8>), String> {
        if depth > MAX_DELTA_DEPTH {
            return Err("a chain of deltas too long to follow".into());
        }
        let (path, end) = {
            let packs = self.packs()?;
            let pack = packs.get(k).ok_or_else(bad)?;
            let end = pack
                .ends
                .iter()
                .find(|&&e| e > at)
                .copied()
                .ok_or_else(bad)?;
            (pack.path.clone(), end)
        };
        let len = usize::try_from(end - at).map_err(|_| bad())?;
        if len > MAX_OBJECT {
            return Err("an object too large to read".into());
        }
        let mut file = std::fs::File::open(&path)
            .map_err(|e| format!("`{}` cannot be read: {e}", path.display()))?;
        let mut raw = vec![0u8; len];
        file.seek(SeekFrom::Start(at))
            .and_then(|_| file.read_exact(&mut raw))
            .map_err(|e| format!("`{}` cannot be read: {e}", path.display()))?;
        // The header: the kind, then the size, 7 bits a byte.
        let mut i = 0;
        let mut c = *raw.first().ok_or_else(bad)?;
        let kind = (c >> 4) & 7;
        let mut size = usize::from(c & 15);
        let mut shift = 4;
        while c & 0x80 != 0 {
            i += 1;
            c = *raw.get(i).ok_or_else(bad)?;
            size |= usize::from(c & 0x7f).checked_shl(shift).ok_or_else(bad)?;
            shift += 7;
        }
        i += 1;
        if size > MAX_OBJECT {
            return Err("an object too large to read".into());
        }
        let plain = |kind: u8| match kind {
            1 => Some(Kind::Commit),
            2 => Some(Kind::Tree),
            3 => Some(Kind::Blob),
            4 => Some(Kind::Tag),
            _ => None,
        };
        if let Some(kind) = plain(kind) {
            return Ok((kind, inflate_sized(raw.get(i..).ok_or_else(bad)?, size)?));
        }
        let base = match kind {
            // OFS_DELTA: the base is that many bytes before this entry.
            6 => {
                let mut c = *raw.get(i).ok_or_else(bad)?;
                let mut back = u64::from(c & 0x7f);
                while c & 0x80 != 0 {
                    i += 1;
                    c = *raw.get(i).ok_or_else(bad)?;
                    back = back
                        .checked_add(1)
                        .and_then(|b| b.checked_shl(7))
                        .ok_or_else(bad)?
                        | u64::from(c & 0x7f);
                }
                i += 1;
                let base_at = at.checked_sub(back).ok_or_else(bad)?;
                self.entry(k, base_at, depth + 1)?
            }
            // REF_DELTA: the base is named.
            7 => {
                let base: Oid = raw
                    .get(i..i + 20)
                    .and_then(|s| s.try_into().ok())
                    .ok_or_else(bad)?;
                i += 20;
                match self.packed_object(&base, depth + 1)? {
                    Some(found) => found,
                    None => self.loose(&base)?.ok_or_else(bad)?,
                }
            }
            _ => return Err(bad()),
        };
        let delta = inflate_sized(raw.get(i..).ok_or_else(bad)?, size)?;
        Ok((base.0, apply_delta(&base.1, &delta)?))
    }
}

/// The header lines of a commit or tag (up to the blank line).
fn headers(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data.split(|&b| b == b'\n').take_while(|l| !l.is_empty())
}

/// The object a header line starting with KEY names.
fn header_oid(data: &[u8], key: &[u8]) -> Option<Oid> {
    headers(data)
        .find_map(|l| l.strip_prefix(key))
        .and_then(hex40)
}

/// The object a line's first 40 characters name.
fn hex40(line: &[u8]) -> Option<Oid> {
    hex(line.get(..40)?)
}

/// The object the 40 hexadecimal digits TEXT name.
fn hex(text: &[u8]) -> Option<Oid> {
    if text.len() != 40 {
        return None;
    }
    let mut oid = [0u8; 20];
    for (k, pair) in text.chunks(2).enumerate() {
        let s = std::str::from_utf8(pair).ok()?;
        oid[k] = u8::from_str_radix(s, 16).ok()?;
    }
    Some(oid)
}

/// OID in hexadecimal.
fn show(oid: &Oid) -> String {
    oid.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests;
