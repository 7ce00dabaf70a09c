//! What several test files share: a directory of this test process's own.

use std::path::PathBuf;

/// `$TMPDIR/PREFIX-PID`, after removing what earlier test processes left.
///
/// Fixtures kept for a whole test binary (a `OnceLock` home) have no
/// teardown, so each run would leave one directory behind: a directory
/// whose process no longer runs is removed here instead.
pub fn process_dir(prefix: &str) -> PathBuf {
    let tmp = std::env::temp_dir();
    if let Ok(entries) = std::fs::read_dir(&tmp) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|n| n.strip_prefix(prefix))
                .and_then(|n| n.strip_prefix('-'))
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists()
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    tmp.join(format!("{prefix}-{}", std::process::id()))
}
