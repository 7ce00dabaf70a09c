//! Archivers' words as they read them, where the table's data cannot say it: unzip's
//! options end at its archive (`unzip_words`), and tar runs a remote shell for an
//! archive named `HOST:FILE` (`tar_remote`).

use super::{Kind, Reading, Role, Run};

/// unzip's words as it reads them: its options end at the archive (`-x` there is a
/// flag; `-d` and `-P` take a value, glued or the next word); after the archive come
/// member names, among which `-x` starts the names to leave out and `-d DIR` (`-dDIR`)
/// is still the directory to extract to, while any other word with a dash is a member
/// name (`unzip a.zip -l` extracts a member `-l`). Rewritten as the options, the `-d`s
/// found after the archive, `--`, then the archive and the names.
pub(super) fn unzip_words(args: &[String]) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while let Some(w) = args.get(k) {
        if w == "--" {
            k += 1;
            break;
        }
        if !(w.len() > 1 && w.starts_with('-')) {
            break;
        }
        out.push(w.clone());
        k += 1;
        // A value letter ends the bundle: the rest of it, or the next word.
        if let Some(at) = w[1..].find(['d', 'P']) {
            if at + 2 == w.len() {
                if let Some(v) = args.get(k) {
                    out.push(v.clone());
                    k += 1;
                }
            }
        }
    }
    let mut names: Vec<String> = Vec::new();
    if let Some(archive) = args.get(k) {
        names.push(archive.clone());
        k += 1;
    }
    while let Some(w) = args.get(k) {
        k += 1;
        if w == "-d" {
            out.push(w.clone());
            if let Some(v) = args.get(k) {
                out.push(v.clone());
                k += 1;
            }
        } else if w.len() > 2 && w.starts_with("-d") {
            out.push(w.clone());
        } else {
            names.push(w.clone());
        }
    }
    out.push("--".into());
    out.extend(names);
    Some(out)
}

/// tar's archives named `HOST:FILE` (a colon after at least one character, no `/`
/// before it; `[USER@]HOST`), unless `--force-local`: tar runs its remote shell (its
/// `--rsh-command`, or `/usr/bin/rsh`) with HOST and `/usr/sbin/rmt` to reach it,
/// added as a command it runs. Given `--rsh-command`, that command is read already.
pub(super) fn tar_remote(r: &mut Reading) {
    if r.has_option("force-local") || r.has_option("rsh-command") {
        return;
    }
    let hosts: Vec<String> = r
        .option_values("file")
        .into_iter()
        .filter_map(remote_host)
        .map(str::to_owned)
        .collect();
    for host in hosts {
        let argv = vec!["rsh".to_owned(), host, "/usr/sbin/rmt".to_owned()];
        for a in &argv {
            r.parts.push(super::Part {
                text: a.clone(),
                kind: Kind::Implied,
                role: Role::Argv,
            });
        }
        r.runs.push(Run::Argv(argv));
    }
}

/// The host of the archive name NAME when tar reads it as remote.
fn remote_host(name: &str) -> Option<&str> {
    let (host, _) = name.split_once(':')?;
    (!host.is_empty() && !host.contains('/')).then_some(host)
}
