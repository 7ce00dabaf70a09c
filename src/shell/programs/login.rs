//! Where a command that changes its root or starts a login shell runs what it runs:
//! `chroot DIR` moves to DIR (its new `/`), `su -`, `su -l USER`, `runuser -l USER`,
//! `sudo -i [-u USER]` and `pkexec` to the user's home (`~USER`). Read for
//! [`super::chdir_options`].

/// The directories FORM (a command's words, its name a basename) moves its command to
/// by a new root or a login shell; None for other programs.
pub(super) fn root_or_login_dirs(form: &[String]) -> Option<Vec<String>> {
    let args = form.get(1..).unwrap_or(&[]);
    Some(match form.first()?.as_str() {
        "chroot" => chroot_dir(args).into_iter().collect(),
        "su" | "runuser" => su_home(args).into_iter().collect(),
        "sudo" => sudo_home(args).into_iter().collect(),
        "pkexec" => pkexec_home(args).into_iter().collect(),
        _ => return None,
    })
}

/// The home of USER, from `/etc/passwd`; `~USER` (which no directory reading resolves:
/// the command's paths are then not certain) for a user it does not list.
fn home(user: &str) -> String {
    crate::path::user_home(user).unwrap_or_else(|| format!("~{user}"))
}

/// `chroot [--userspec=U:G] [--groups=G] [--skip-chdir] NEWROOT [CMD]`: NEWROOT, where
/// it moves before running CMD (not with `--skip-chdir`).
fn chroot_dir(args: &[String]) -> Option<String> {
    let mut words = args.iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "--" => return words.next().cloned(),
            "--skip-chdir" => return None,
            "--userspec" | "--groups" => {
                words.next();
            }
            w if w.starts_with('-') => {}
            _ => return Some(w.clone()),
        }
    }
    None
}

/// The short options of util-linux `su` and `runuser` that take a value (the wrappers'
/// reader, `wrap/spec.rs`, reads them with these too).
pub(crate) const SU_VALUED: &str = "cgGswu";

/// Their long options that take a value.
pub(crate) const SU_LONG_VALUED: &[&str] = &[
    "command",
    "session-command",
    "shell",
    "group",
    "supp-group",
    "whitelist-environment",
    "user",
];

/// The short options of sudo 1.9 that take a value (`-h`'s is optional: glued only).
/// The wrappers' reader (`wrap/spec.rs`), [`super::chdir_options`] and the login home
/// here read sudo with these.
pub(crate) const SUDO_VALUED: &str = "aCcDgpRrTtUu";

/// Its long options that take a value.
pub(crate) const SUDO_LONG_VALUED: &[&str] = &[
    "auth-type",
    "close-from",
    "login-class",
    "chdir",
    "group",
    "host",
    "prompt",
    "chroot",
    "role",
    "type",
    "command-timeout",
    "other-user",
    "user",
];

/// `su [options] [-] [USER [ARGS]]` (options anywhere before `--`, getopt permutes
/// them): `~USER` (`~root` without one) when it starts a login shell (`-`, `-l`,
/// `--login`, any abbreviation of it).
fn su_home(args: &[String]) -> Option<String> {
    let mut login = false;
    let mut user: Option<&String> = None;
    let mut operands = 0;
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        if w == "--" {
            if user.is_none() {
                user = args.get(k).filter(|u| *u != "-");
                login |= args.get(k).is_some_and(|u| u == "-");
            }
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            login |= name.len() >= 2 && "login".starts_with(name);
            let takes = !name.is_empty()
                && SU_LONG_VALUED.iter().any(|l| l.starts_with(name))
                && !long.contains('=');
            if takes {
                k += 1;
            }
            continue;
        }
        if w == "-" {
            login = true;
            continue;
        }
        if let Some(cluster) = w.strip_prefix('-') {
            for (at, ch) in cluster.char_indices() {
                if SU_VALUED.contains(ch) {
                    if at + 1 == cluster.len() {
                        k += 1;
                    }
                    break;
                }
                login |= ch == 'l';
            }
            continue;
        }
        operands += 1;
        if operands == 1 {
            user = Some(w);
        }
    }
    login.then(|| home(user.map_or("root", String::as_str)))
}

/// `sudo [options] CMD`: `~USER` (`-u USER`, else `~root`) with `-i` or `--login`.
fn sudo_home(args: &[String]) -> Option<String> {
    let mut login = false;
    let mut user: Option<String> = None;
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        if w == "--" || !w.starts_with('-') || w == "-" {
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            login |= name.len() >= 3 && "login".starts_with(name);
            // getopt takes an unambiguous prefix; `--u` is `--user` (the only one).
            let valued = !name.is_empty()
                && SUDO_LONG_VALUED.iter().any(|l| l.starts_with(name))
                && !"login".starts_with(name);
            if valued && value.is_none() {
                k += 1;
            }
            if !name.is_empty() && "user".starts_with(name) {
                user = value.or_else(|| args.get(k - 1).cloned());
            }
            continue;
        }
        let cluster = &w[1..];
        for (at, ch) in cluster.char_indices() {
            let rest = &cluster[at + ch.len_utf8()..];
            // `-h` takes a value only glued (`-hHOST`); alone it is `--help`.
            if ch == 'h' {
                break;
            }
            if SUDO_VALUED.contains(ch) {
                if ch == 'u' {
                    user = if rest.is_empty() {
                        args.get(k).cloned()
                    } else {
                        Some(rest.to_owned())
                    };
                }
                if rest.is_empty() {
                    k += 1;
                }
                break;
            }
            login |= ch == 'i';
        }
    }
    login.then(|| home(user.as_deref().unwrap_or("root")))
}

/// `pkexec [--user USER] [--keep-cwd] PROGRAM`: polkit 0.121 and later run PROGRAM in
/// the user's home (`~root` without `--user`) unless `--keep-cwd`.
fn pkexec_home(args: &[String]) -> Option<String> {
    let mut user = None;
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        match w.as_str() {
            "--keep-cwd" => return None,
            "--user" | "-u" => {
                user = args.get(k).cloned();
                k += 1;
            }
            w if w.starts_with("--user=") => user = Some(w["--user=".len()..].to_owned()),
            w if w.starts_with('-') => {}
            _ => break,
        }
    }
    Some(home(user.as_deref().unwrap_or("root")))
}

#[cfg(test)]
mod tests {
    use super::root_or_login_dirs;

    fn dirs(line: &str) -> Vec<String> {
        let form: Vec<String> = line.split(' ').map(str::to_owned).collect();
        root_or_login_dirs(&form).unwrap_or_default()
    }

    #[test]
    fn login_shells_and_new_roots() {
        assert_eq!(dirs("su - -c id"), ["/root"]);
        assert_eq!(dirs("su -c id - bob"), ["~bob"]);
        assert_eq!(dirs("su -l bob"), ["~bob"]);
        assert_eq!(dirs("su --log -c id"), ["/root"]);
        assert_eq!(dirs("su -lc id"), ["/root"]);
        assert!(dirs("su -c id bob").is_empty());
        assert!(dirs("su -s /bin/sh bob").is_empty());
        assert_eq!(dirs("runuser -l bob -c id"), ["~bob"]);
        assert_eq!(dirs("sudo -i id"), ["/root"]);
        assert_eq!(dirs("sudo -u bob -i id"), ["~bob"]);
        assert_eq!(dirs("sudo -iubob id"), ["~bob"]);
        assert_eq!(dirs("sudo --login --user=bob id"), ["~bob"]);
        assert!(dirs("sudo id -i").is_empty());
        assert_eq!(dirs("chroot / cat x"), ["/"]);
        assert_eq!(dirs("chroot --userspec 1:1 /srv cat x"), ["/srv"]);
        assert!(dirs("chroot --skip-chdir / cat x").is_empty());
        assert_eq!(dirs("pkexec cat x"), ["/root"]);
        assert_eq!(dirs("pkexec --user bob cat x"), ["~bob"]);
        assert!(dirs("pkexec --keep-cwd cat x").is_empty());
        assert!(dirs("ls -l").is_empty());
    }
}
