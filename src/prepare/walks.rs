//! What a walk opens: a directory a command walks and reads the files of (`grep -r x .`,
//! `rg x`, `cp -r d e`, `rm -r d`) is looked through, bounded, for the files that
//! deny-side path rules with a glob matching in any directory (`.env`, `**/*.pem`) are
//! about. Such a rule meets the walk when the directory holds one: `grep -r KEY .`
//! opens `./.env`, and `grep -rn TODO src` meets nothing when `src` holds none.
//!
//! The look follows the program's walk: names that start with `.` are skipped below the
//! top for [`Role::WalkVisible`] (`rg` without `--hidden`), symbolic links to
//! directories are followed only for [`Role::WalkFollow`] (each directory once). Past
//! [`MAX_WALK_ENTRIES`] entries the look stops: the rules are then met, unsure.

use super::Prepared;
use crate::index::BitSet;
use crate::shell::{self, Role};
use globset::{Glob, GlobMatcher};
use std::collections::HashSet;
use std::path::PathBuf;

/// Most directory entries looked at for one walked directory.
pub(super) const MAX_WALK_ENTRIES: usize = 20_000;

/// The base-name globs a command's options give its walk (`grep --exclude=.env`,
/// `--exclude-dir=node_modules`, `--include=*.py`).
#[derive(Default)]
pub(super) struct Filters {
    skip: Vec<GlobMatcher>,
    skip_dir: Vec<GlobMatcher>,
    only: Vec<GlobMatcher>,
}

impl Filters {
    /// The filters of C's words; Err when some option chooses the files in a way not
    /// read here (a pattern option other than these, or a glob that does not compile).
    pub(super) fn of(c: &shell::SimpleCommand) -> Result<Filters, ()> {
        let mut out = Filters::default();
        let Some(p) = c.argv.first().and_then(|n| shell::lookup(n)) else {
            return Ok(out);
        };
        let r = shell::read(p, c.argv.get(1..).unwrap_or_default());
        for (k, part) in r.parts.iter().enumerate() {
            if part.kind != shell::Kind::Value {
                continue;
            }
            let list = match part.role {
                Role::SkipName => &mut out.skip,
                Role::SkipDir => &mut out.skip_dir,
                Role::OnlyName => &mut out.only,
                Role::Pattern if !takes_first(p, r.parts.get(k.wrapping_sub(1))) => return Err(()),
                _ => continue,
            };
            let glob = Glob::new(&part.text).map_err(|_| ())?;
            list.push(glob.compile_matcher());
        }
        Ok(out)
    }

    /// Whether the walk opens a file named NAME.
    fn opens(&self, name: &str) -> bool {
        !self.skip.iter().any(|g| g.is_match(name))
            && (self.only.is_empty() || self.only.iter().any(|g| g.is_match(name)))
    }

    /// Whether the walk enters a directory named NAME.
    fn enters(&self, name: &str) -> bool {
        !self.skip_dir.iter().any(|g| g.is_match(name))
    }
}

/// Whether OPT, the part before a pattern value, is an option that takes the place of
/// the program's first operand (grep's `-e`: the pattern searched for, not a filter).
fn takes_first(p: &shell::Program, opt: Option<&shell::Part>) -> bool {
    let Some(opt) = opt else { return false };
    p.operands
        .unless
        .iter()
        .any(|u| match opt.text.strip_prefix("--") {
            Some(long) => long == *u,
            None => u.len() == 1 && opt.text.ends_with(u),
        })
}

/// What looking through a walked directory found.
pub(super) enum Walked {
    /// The rules (of those asked about) some file below it matches; empty: none.
    Meets(BitSet),
    /// It has more than [`MAX_WALK_ENTRIES`] entries.
    TooLarge,
}

/// Whether ROLE walks a tree and opens (reads or writes) the files in it.
pub(super) fn opens_files(role: Role) -> bool {
    matches!(
        role,
        Role::Walk | Role::WalkFollow | Role::WalkVisible | Role::WriteTree
    )
}

impl Prepared<'_> {
    /// Look through DIR (absolute, normalized), walked in ROLE, for files the rules of
    /// RULES match.
    pub(super) fn walk_meets(
        &self,
        dir: &str,
        role: Role,
        rules: &BitSet,
        filters: &Filters,
    ) -> Walked {
        let fold = self.path_env().case_fold;
        let mut found = BitSet::new(self.n());
        let mut stack: Vec<PathBuf> = vec![PathBuf::from(dir)];
        let mut seen: HashSet<PathBuf> = HashSet::new();
        let mut entries = 0usize;
        while let Some(d) = stack.pop() {
            if role == Role::WalkFollow {
                if let Ok(real) = std::fs::canonicalize(&d) {
                    if !seen.insert(real) {
                        continue;
                    }
                }
            }
            // A file, or a directory it cannot list: the walk opens nothing more there.
            let Ok(list) = std::fs::read_dir(&d) else {
                continue;
            };
            for entry in list.flatten() {
                entries += 1;
                if entries > MAX_WALK_ENTRIES {
                    return Walked::TooLarge;
                }
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if role == Role::WalkVisible && name.starts_with('.') {
                    continue;
                }
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let path = entry.path();
                let is_dir = kind.is_dir()
                    || (kind.is_symlink()
                        && role == Role::WalkFollow
                        && std::fs::metadata(&path).is_ok_and(|m| m.is_dir()));
                if is_dir && !filters.enters(&name) {
                    continue;
                }
                if !is_dir && !filters.opens(&name) {
                    continue;
                }
                let text = path.to_string_lossy();
                let text = if fold {
                    text.to_lowercase()
                } else {
                    text.into_owned()
                };
                for r in self.glob_hits_for(&text).iter() {
                    if rules.get(r) {
                        found.set(r);
                    }
                }
                if is_dir {
                    stack.push(path);
                }
            }
        }
        Walked::Meets(found)
    }
}
