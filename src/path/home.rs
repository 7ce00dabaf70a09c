//! Home directories: `~` from the environment's home, `~user` from `/etc/passwd`, and
//! the shell a user logs in with.

use super::{check_text, error, forbidden, show, PathEnv, PathError};
use std::fs;
use std::io::Read;
use std::path::Path;

/// Largest `/etc/passwd` read for `~user`.
const MAX_PASSWD_BYTES: u64 = 16 << 20;

const PASSWD: &str = "/etc/passwd";

pub(super) fn path_str<'a>(p: &'a Path, what: &str) -> Result<&'a str, PathError> {
    let s = p
        .to_str()
        .ok_or_else(|| error(format!("the {what} `{}` is not UTF-8", p.display())))?;
    check_text(s, what)?;
    if !s.starts_with('/') {
        return Err(error(format!("the {what} `{}` is not absolute", show(s))));
    }
    Ok(s)
}

pub(super) fn env_home(env: &PathEnv) -> Result<&str, PathError> {
    match &env.home {
        Some(h) => path_str(h, "home directory"),
        None => Err(error("`~` needs a home directory and none is known".into())),
    }
}

/// The home directory of USER, from `/etc/passwd`, if it has one there.
pub fn user_home(user: &str) -> Option<String> {
    passwd_home(user).ok()
}

/// The home directory of USER, from `/etc/passwd`.
pub(super) fn passwd_home(user: &str) -> Result<String, PathError> {
    if user.contains(':') || user.contains('/') {
        return Err(error(format!("unknown user `{}`", show(user))));
    }
    let mut text = String::new();
    fs::File::open(PASSWD)
        .and_then(|f| f.take(MAX_PASSWD_BYTES).read_to_string(&mut text))
        .map_err(|e| error(format!("`~{}`: cannot read {PASSWD}: {e}", show(user))))?;
    for line in text.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        if fields.len() >= 6 && fields[0] == user {
            let dir = fields[5];
            if !dir.starts_with('/') || dir.chars().any(forbidden) {
                return Err(error(format!(
                    "`~{}`: home directory `{}` in {PASSWD} is not absolute",
                    show(user),
                    show(dir)
                )));
            }
            return Ok(dir.to_string());
        }
    }
    Err(error(format!(
        "unknown user `{}` (not in {PASSWD})",
        show(user)
    )))
}

/// The login shell of USER, from `/etc/passwd` (its seventh field, as written; empty
/// when the field is: `/bin/sh` then).
pub fn user_shell(user: &str) -> Option<String> {
    if user.contains(':') || user.contains('/') {
        return None;
    }
    let mut text = String::new();
    fs::File::open(PASSWD)
        .and_then(|f| f.take(MAX_PASSWD_BYTES).read_to_string(&mut text))
        .ok()?;
    text.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() >= 7 && fields[0] == user).then(|| fields[6].to_string())
    })
}

/// A user name as `~user` in a pattern: portable login-name characters.
pub(super) fn plausible_user(user: &str) -> bool {
    !user.is_empty()
        && !user.starts_with('-')
        && user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}
