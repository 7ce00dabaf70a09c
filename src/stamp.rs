//! A number that changes when any of a list of files changes, so that the
//! package reads a policy file again only when it may have changed.

use std::hash::{Hash, Hasher};

/// A number (a fixnum on every Emacs) covering, for each of FILES and for
/// the file a symbolic link leads to, whether it exists, its size, its
/// modification and change times and its inode.
pub fn stamp_files(files: &[String]) -> i64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for file in files {
        file.hash(&mut h);
        for meta in [std::fs::symlink_metadata(file), std::fs::metadata(file)] {
            match meta {
                Ok(m) => {
                    (m.len(), m.modified().ok(), m.is_dir()).hash(&mut h);
                    #[cfg(unix)]
                    {
                        use std::os::unix::fs::MetadataExt;
                        (m.dev(), m.ino(), m.ctime(), m.ctime_nsec()).hash(&mut h);
                    }
                }
                Err(e) => e.raw_os_error().hash(&mut h),
            }
        }
    }
    // Four bits spare: a fixnum on every Emacs.
    (h.finish() >> 4) as i64
}
