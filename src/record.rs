//! The decision records the audit log reads: what the last decision was,
//! and a ring of the latest ones kept under a number, so that the log keeps
//! only a number per call and reads a record when an entry is shown.

use std::cell::RefCell;
use std::collections::VecDeque;

/// What one decision was, for the log.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The decision's name, or None (no decision, or a post-call record).
    pub decision: Option<&'static str>,
    /// The labels of the rules that matched (or applied after the call).
    pub matched: Vec<String>,
    /// The label of the deciding rule.
    pub by: Option<String>,
    /// The reason given, or what the post-call effects did.
    pub reason: Option<String>,
    /// How long the decision took.
    pub micros: f64,
}

/// Most records the ring may be asked to keep.
pub const MAX_KEPT: usize = 1 << 20;

/// The latest records, oldest first, by increasing number.
#[derive(Default)]
struct Ring {
    last_id: i64,
    kept: VecDeque<(i64, Record)>,
}

thread_local! {
    static LAST: RefCell<Option<Record>> = const { RefCell::new(None) };
    static RING: RefCell<Ring> = RefCell::new(Ring::default());
}

/// Make RECORD (or nothing) the last decision.
pub fn set_last(record: Option<Record>) {
    LAST.with(|last| *last.borrow_mut() = record);
}

/// Call F with the last decision.
pub fn with_last<T>(f: impl FnOnce(Option<&Record>) -> T) -> T {
    LAST.with(|last| f(last.borrow().as_ref()))
}

/// Move the last decision into the ring, which keeps the KEEP latest (at
/// least one, at most [`MAX_KEPT`]); return its number, or None when there
/// is no last decision.
pub fn keep_last(keep: i64) -> Option<i64> {
    let last = LAST.with(|last| last.borrow_mut().take())?;
    let keep = usize::try_from(keep).unwrap_or(0).clamp(1, MAX_KEPT);
    Some(RING.with(|ring| {
        let mut ring = ring.borrow_mut();
        ring.last_id += 1;
        let id = ring.last_id;
        ring.kept.push_back((id, last));
        while ring.kept.len() > keep {
            ring.kept.pop_front();
        }
        id
    }))
}

/// Call F with the record number ID, while the ring keeps it.
pub fn with_kept<T>(id: i64, f: impl FnOnce(Option<&Record>) -> T) -> T {
    RING.with(|ring| {
        let ring = ring.borrow();
        let found = ring
            .kept
            .binary_search_by_key(&id, |(i, _)| *i)
            .ok()
            .map(|at| &ring.kept[at].1);
        f(found)
    })
}
