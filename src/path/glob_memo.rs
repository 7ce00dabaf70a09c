//! What glob expansion keeps from one call to the next: the matchers of glob parts,
//! built once (the same parts come back decision after decision: `make test` reads
//! `test.*`, `RCS/test*`, `s.test*`... for make's implicit rules, and building a matcher
//! costs more than reading a directory), and the names in each directory read, for one
//! decision ([`super::with_memo`]: one `make test` reads its directory for a dozen
//! globs).

use globset::{GlobBuilder, GlobMatcher};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// How many matchers are kept; past it the cache starts again. Each is a compiled
/// program with no search cache of its own: every use is a clone, whose cache goes with
/// it.
const MAX_KEPT: usize = 128;

/// How many directories one decision keeps the names of.
const MAX_LISTED: usize = 256;

/// The matchers built, by part and whether case is folded (None: globset cannot read
/// the part).
type Built = HashMap<(String, bool), Option<GlobMatcher>>;

/// The names read in each directory (None: it could not be read), in the order read,
/// at most the bound the caller gave and one more.
type Listed = HashMap<String, Option<Rc<Vec<String>>>>;

thread_local! {
    static BUILT: RefCell<Built> = RefCell::new(HashMap::new());
    /// The directories read in the current [`super::with_memo`] scope.
    pub(super) static LISTED: RefCell<Option<Listed>> = const { RefCell::new(None) };
}

/// The matcher of PART, one part of a path glob (no `/`), as bash matches it against a
/// name: `\` escapes, and CASE_FOLD matches in any case. None when globset cannot read
/// it.
pub(super) fn part_matcher(part: &str, case_fold: bool) -> Option<GlobMatcher> {
    BUILT.with(|built| {
        let key = (part.to_string(), case_fold);
        if let Some(m) = built.borrow().get(&key) {
            return m.clone();
        }
        let m = GlobBuilder::new(part)
            .literal_separator(true)
            .backslash_escape(true)
            .case_insensitive(case_fold)
            .build()
            .ok()
            .map(|g| g.compile_matcher());
        let mut built = built.borrow_mut();
        if built.len() >= MAX_KEPT {
            built.clear();
        }
        built.insert(key, m.clone());
        m
    })
}

/// The names in the directory DIR (its entries, `.` and `..` aside), in the order the
/// system gives them, MOST and one more at most, and whether they were read now; read
/// once in the current [`super::with_memo`] scope. None when it cannot be read.
pub(super) fn names_in(dir: &str, most: usize) -> Option<(Rc<Vec<String>>, bool)> {
    let kept = LISTED.with(|l| l.borrow().as_ref().and_then(|l| l.get(dir).cloned()));
    if let Some(names) = kept {
        return names.map(|n| (n, false));
    }
    let names = std::fs::read_dir(dir).ok().map(|entries| {
        let names = entries
            .flatten()
            .take(most.saturating_add(1))
            .map(|e| e.file_name().to_string_lossy().into_owned());
        Rc::new(names.collect::<Vec<String>>())
    });
    LISTED.with(|l| {
        if let Some(l) = l.borrow_mut().as_mut() {
            if l.len() < MAX_LISTED {
                l.insert(dir.to_string(), names.clone());
            }
        }
    });
    names.map(|n| (n, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matcher_is_built_once_and_matches_as_built() {
        let a = part_matcher("s.test*", false).expect("a glob");
        assert!(a.is_match("s.test.c") && !a.is_match("S.test.c"));
        let kept = BUILT.with(|b| b.borrow().len());
        let b = part_matcher("s.test*", false).expect("a glob");
        assert!(b.is_match("s.test.c"));
        assert_eq!(
            BUILT.with(|b| b.borrow().len()),
            kept,
            "the second is the first, kept"
        );
        let folded = part_matcher("s.test*", true).expect("a glob");
        assert!(folded.is_match("S.TEST.c"));
        let escaped = part_matcher("a\\*", false).expect("a glob");
        assert!(escaped.is_match("a*") && !escaped.is_match("ab"));
    }

    #[test]
    fn a_directory_is_read_once_in_a_scope() {
        let dir = std::env::temp_dir().join(format!("grh-names-in-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a")).expect("mkdir");
        let d = dir.display().to_string();
        super::super::with_memo(|| {
            let (first, fresh) = names_in(&d, 10).expect("read");
            assert!(fresh && *first == ["a"]);
            std::fs::create_dir_all(dir.join("b")).expect("mkdir");
            let (again, fresh) = names_in(&d, 10).expect("read");
            assert!(!fresh && Rc::ptr_eq(&first, &again), "kept for the scope");
        });
        // A new scope reads it again; at most the bound and one more.
        let mut now = names_in(&d, 10).expect("read").0.to_vec();
        now.sort();
        assert_eq!(now, ["a", "b"]);
        assert_eq!(names_in(&d, 0).expect("read").0.len(), 1);
        assert!(names_in(&format!("{d}/missing"), 10).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
