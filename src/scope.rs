//! Memos that live for one scope: a thread-local cell that the outermost call of
//! [`within`] fills and empties again when it returns (or unwinds).

use std::cell::RefCell;
use std::thread::LocalKey;

/// Run F with CELL holding a fresh `T` until F returns, unless an enclosing call
/// already did: then F shares it.
pub(crate) fn within<T: Default + 'static, R>(
    cell: &'static LocalKey<RefCell<Option<T>>>,
    f: impl FnOnce() -> R,
) -> R {
    struct Reset<T: 'static>(Option<&'static LocalKey<RefCell<Option<T>>>>);
    impl<T: 'static> Drop for Reset<T> {
        fn drop(&mut self) {
            if let Some(cell) = self.0 {
                cell.with(|m| m.borrow_mut().take());
            }
        }
    }
    let outermost = cell.with(|m| {
        let mut m = m.borrow_mut();
        let outermost = m.is_none();
        if outermost {
            *m = Some(T::default());
        }
        outermost
    });
    let _reset = Reset(outermost.then_some(cell));
    f()
}
