//! Reading the small files a decision looks at (git's `HEAD`, `config` and index,
//! ignore files) without ever waiting: an earlier call may have put a FIFO or a device
//! where a file was (`mkfifo .git/HEAD`), and a decision runs in Emacs's own thread.

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Opening a FIFO returns at once; a terminal is never made the controlling one.
const OPEN_FLAGS: i32 = libc::O_NONBLOCK | libc::O_NOCTTY;

/// The null device's number (major 1, minor 3): `/dev/null` reads as empty.
const NULL_DEVICE: u64 = (1 << 8) | 3;

/// Whether META is the null device's (`/dev/null`, or a link to it).
fn is_null(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.file_type().is_char_device() && meta.rdev() == NULL_DEVICE
}

/// The bytes of the regular file PATH (links followed), at most MAX of them. A FIFO,
/// socket or device is an error (never waited on), as is a larger file.
pub fn read_small(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(OPEN_FLAGS)
        .open(path)?;
    let meta = file.metadata()?;
    if is_null(&meta) {
        return Ok(Vec::new());
    }
    if !meta.is_file() {
        return Err(io::Error::other(format!(
            "`{}` is not a regular file",
            path.display()
        )));
    }
    if meta.len() > max {
        return Err(io::Error::other(format!(
            "`{}` is larger than {max} bytes",
            path.display()
        )));
    }
    let mut text = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut text)?;
    if text.len() as u64 > max {
        return Err(io::Error::other(format!(
            "`{}` is larger than {max} bytes",
            path.display()
        )));
    }
    Ok(text)
}

/// Whether the error E of opening or reading a file says it is not there (no such
/// name, or a name above it that is not a directory).
pub fn absent(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
    )
}

/// Whether PATH (links followed) is a FIFO, socket or device other than `/dev/null`: a
/// file a reader of it may wait on for ever (or read for ever: `/dev/zero`).
pub fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        !is_null(&m) && (t.is_fifo() || t.is_socket() || t.is_char_device() || t.is_block_device())
    })
}

/// Whether PATH (links followed) is a terminal: a virtual console or serial line (major
/// 4), `/dev/tty`, `/dev/console` or `/dev/ptmx` (major 5), or a pseudo-terminal's end
/// (majors 136 to 143). A program whose standard input or output is one takes itself
/// to be interactive: git starts its pager, readline reads `~/.inputrc` (helper-66).
pub fn is_terminal(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).is_ok_and(|m| {
        let rdev = m.rdev();
        let major = ((rdev >> 8) & 0xfff) | ((rdev >> 32) & !0xfff);
        m.file_type().is_char_device() && matches!(major, 4 | 5 | 136..=143)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_waits_on_a_fifo() {
        let dir = std::env::temp_dir().join(format!("grh-read-small-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("HEAD");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(is_special(&fifo));
        let err = read_small(&fifo, 4096).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let file = dir.join("config");
        fs::write(&file, "[core]\n").unwrap();
        assert!(!is_special(&file));
        assert!(!is_special(&dir));
        assert_eq!(read_small(&file, 7).unwrap(), b"[core]\n");
        assert!(read_small(&file, 6).is_err());
        assert_eq!(
            read_small(&dir.join("none"), 7).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert!(!is_special(Path::new("/dev/null")));
        assert!(is_terminal(Path::new("/dev/ptmx")));
        assert!(is_terminal(Path::new("/dev/tty")));
        assert!(!is_terminal(Path::new("/dev/null")));
        assert!(!is_terminal(Path::new("/dev/zero")));
        assert!(!is_terminal(Path::new("/tmp")));
        assert_eq!(read_small(Path::new("/dev/null"), 7).unwrap(), b"");
        assert!(is_special(Path::new("/dev/zero")));
        assert!(read_small(Path::new("/dev/zero"), 7).is_err());
        let _ = fs::remove_dir_all(&dir);
    }
}
