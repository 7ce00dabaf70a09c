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
use crate::shell::Role;
use std::collections::HashSet;
use std::path::PathBuf;

/// Most directory entries looked at for one walked directory.
pub(super) const MAX_WALK_ENTRIES: usize = 20_000;

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
    pub(super) fn walk_meets(&self, dir: &str, role: Role, rules: &BitSet) -> Walked {
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
                if role == Role::WalkVisible && name.to_string_lossy().starts_with('.') {
                    continue;
                }
                let path = entry.path();
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
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let descend = kind.is_dir()
                    || (kind.is_symlink()
                        && role == Role::WalkFollow
                        && std::fs::metadata(&path).is_ok_and(|m| m.is_dir()));
                if descend {
                    stack.push(path);
                }
            }
        }
        Walked::Meets(found)
    }
}
