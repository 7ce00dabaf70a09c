//! Other readings of a path that the strict normalization refuses, and a
//! shell glob's matches: what deny-side rules see besides the normal form.

use super::{collapse, join, realpath};

/// Most files one shell glob is expanded to.
const MAX_GLOB_MATCHES: usize = 256;
/// Most entries of one directory read while expanding a shell glob.
const MAX_DIR_ENTRIES: usize = 4096;

/// Readings of RAW that a kernel, a shell or another program could give
/// it, for paths the strict normalization refuses: `$HOME`/`$PWD`/`~+`
/// expanded, a TRAMP, `/:` or `file://` prefix dropped, `/proc/self/root`
/// dropped, repeated slashes collapsed, `.` and `..` collapsed lexically,
/// and the longest existing prefix resolved by the kernel before `..`.
pub fn fallback_forms(raw: &str, home: Option<&str>, cwd: Option<&str>) -> Vec<String> {
    let mut text: String = raw.chars().filter(|c| !c.is_control()).collect();
    if let Some(h) = home {
        for var in ["${HOME}", "$HOME"] {
            text = text.replace(var, h);
        }
    }
    if let Some(c) = cwd {
        for var in ["${PWD}", "$PWD", "~+"] {
            text = text.replace(var, c);
        }
    }
    if let Some(rest) = text.strip_prefix("file://") {
        text = rest.to_string();
    }
    if let Some(rest) = text.strip_prefix("/:") {
        text = rest.to_string();
    }
    // `/method:host:/path`: the remote part names a path on some host.
    if let Some(rest) = text.strip_prefix('/') {
        let first = rest.split('/').next().unwrap_or("");
        if first.contains(':') {
            text = rest[first.len()..].to_string();
        }
    }
    if text == "~" || text.starts_with("~/") {
        match home {
            Some(h) => text = format!("{h}{}", &text[1..]),
            None => return Vec::new(),
        }
    }
    if !text.starts_with('/') {
        match cwd {
            Some(c) => text = format!("{}/{text}", c.trim_end_matches('/')),
            None => return Vec::new(),
        }
    }
    let parts: Vec<&str> = text
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let lexical = join(&collapse(parts.iter().copied()));
    let mut forms = vec![lexical];
    if let Some(view) = process_view(&parts, cwd) {
        // `/proc/self/cwd/x` is x in the directory of whatever process reads
        // it: the shell's (the request's directory), or Emacs's own. Never
        // resolve these against Emacs's /proc entries.
        forms.extend(view);
        forms.dedup();
        return forms;
    }
    // The kernel resolves links before `..`: canonicalize the longest
    // existing prefix as written, then collapse the rest.
    for cut in (1..=parts.len()).rev() {
        let prefix = format!("/{}", parts[..cut].join("/"));
        if let Some(real) = realpath(&prefix) {
            let comps = real.split('/').chain(parts[cut..].iter().copied());
            forms.push(join(&collapse(comps)));
            break;
        }
    }
    forms.dedup();
    forms
}

/// What expanding a shell glob found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expansion {
    /// The files it names now (at most [`MAX_GLOB_MATCHES`]).
    pub found: Vec<String>,
    /// Why the expansion is incomplete, if it is: a bound was reached.
    pub incomplete: Option<String>,
}

/// The files a shell glob WORD names now, as bash would expand it against
/// HOME and CWD (dot files included, which only widens what deny rules see).
/// Each directory read spends the decision's file-system budget.
pub fn expand_glob(
    word: &str,
    home: Option<&str>,
    cwd: Option<&str>,
    case_fold: bool,
) -> Expansion {
    let mut out = Expansion::default();
    let text = match (word.strip_prefix('~'), home) {
        (Some(rest), Some(h)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{h}{rest}")
        }
        _ => word.to_string(),
    };
    let text = if text.starts_with('/') {
        text
    } else {
        match cwd {
            Some(c) => format!("{}/{text}", c.trim_end_matches('/')),
            None => return out,
        }
    };
    // Bracket expressions with classes (`[[:alpha:]]`, `[[=h=]]`, `[[.h.]]`) and
    // extended globs (`@(...)`, `!(...)`) mean what the glob library does not read.
    if ["[:", "[=", "[.", "@(", "!(", "+(", "*(", "?("]
        .iter()
        .any(|p| text.contains(p))
    {
        out.incomplete = Some(format!(
            "the glob `{}` has a bracket class or an extended pattern",
            super::show(word)
        ));
        return out;
    }
    let mut found = vec![String::new()];
    for part in text.split('/').filter(|p| !p.is_empty()) {
        let mut next = Vec::new();
        for base in &found {
            if !part.contains(['*', '?', '[']) {
                next.push(format!("{base}/{part}"));
                continue;
            }
            let Ok(glob) = globset::GlobBuilder::new(part)
                .literal_separator(true)
                .case_insensitive(case_fold)
                .build()
            else {
                continue;
            };
            let matcher = glob.compile_matcher();
            let dir = if base.is_empty() { "/" } else { base.as_str() };
            if !super::spend(1) {
                out.incomplete
                    .get_or_insert_with(|| super::BUDGET_SPENT.into());
                continue;
            }
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for (n, entry) in entries.flatten().enumerate() {
                if n >= MAX_DIR_ENTRIES || !super::spend(1) {
                    out.incomplete
                        .get_or_insert_with(|| format!("`{dir}` has too many entries to read"));
                    break;
                }
                let name = entry.file_name().to_string_lossy().into_owned();
                if matcher.is_match(&name) {
                    if next.len() >= MAX_GLOB_MATCHES {
                        out.incomplete.get_or_insert_with(|| {
                            format!("`{word}` names more than {MAX_GLOB_MATCHES} files")
                        });
                        break;
                    }
                    next.push(format!("{base}/{name}"));
                }
            }
        }
        found = next;
        if found.is_empty() {
            break;
        }
    }
    found.retain(|f| !f.is_empty());
    out.found = found;
    out
}

/// The files a unified diff TEXT patches: the names of its `---` and `+++`
/// lines (up to a tab, `/dev/null` left out), each as written and, when it
/// starts with `a/` or `b/`, without that prefix (what `patch -p1` opens).
pub fn diff_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line
            .strip_prefix("--- ")
            .or_else(|| line.strip_prefix("+++ "))
        else {
            continue;
        };
        let name = rest.split('\t').next().unwrap_or("").trim();
        let name = name
            .strip_prefix('"')
            .and_then(|n| n.strip_suffix('"'))
            .unwrap_or(name);
        if name.is_empty() || name == "/dev/null" {
            continue;
        }
        out.push(name.to_string());
        if let Some(stripped) = name.strip_prefix("a/").or_else(|| name.strip_prefix("b/")) {
            out.push(stripped.to_string());
        }
    }
    out
}

/// How the kernel reads PARTS, the components of an absolute path (`..` kept), where it
/// goes through `/proc` or `/dev/fd`, `/dev/stdin`...: those name files of the process
/// that opens the path (the shell a command runs in, whose directory is CWD), never
/// Emacs's. The links the kernel follows there (`/dev/fd` to `/proc/self/fd`,
/// `/proc/net` to `self/net`, `PID` and `thread-self` as the process itself, `cwd`,
/// `root`) are followed here, `..` after them included, so `/dev/fd/../cwd/x` is CWD/x.
/// None when the path never enters `/proc`; Some(None) when where it ends cannot be
/// known (through an open file, or `cwd` without CWD); else Some(the path it names).
pub(crate) fn process_view(parts: &[&str], cwd: Option<&str>) -> Option<Option<String>> {
    let own = |names: &[&str]| -> Vec<String> { names.iter().map(|s| s.to_string()).collect() };
    let mut stack: Vec<String> = Vec::new();
    let (mut touched, mut unknown) = (false, false);
    for &p in parts {
        match p {
            "" | "." => continue,
            ".." => {
                stack.pop();
            }
            _ => stack.push(p.to_string()),
        }
        loop {
            let s: Vec<&str> = stack.iter().map(String::as_str).collect();
            let next = match s.as_slice() {
                ["dev", "fd"] => own(&["proc", "self", "fd"]),
                ["dev", "stdin"] => own(&["proc", "self", "fd", "0"]),
                ["dev", "stdout"] => own(&["proc", "self", "fd", "1"]),
                ["dev", "stderr"] => own(&["proc", "self", "fd", "2"]),
                ["proc", "net"] => own(&["proc", "self", "net"]),
                ["proc", "mounts"] => own(&["proc", "self", "mounts"]),
                ["proc", "thread-self"] => own(&["proc", "self"]),
                ["proc", pid] if pid.bytes().all(|b| b.is_ascii_digit()) => own(&["proc", "self"]),
                ["proc", "self", "task", _] => own(&["proc", "self"]),
                ["proc", "self", "root"] => Vec::new(),
                ["proc", "self", "cwd"] => match cwd {
                    Some(c) => c
                        .split('/')
                        .filter(|c| !c.is_empty())
                        .map(String::from)
                        .collect(),
                    None => {
                        unknown = true;
                        break;
                    }
                },
                ["proc", "self", "fd", _] => {
                    unknown = true;
                    break;
                }
                _ => break,
            };
            touched = true;
            stack = next;
        }
        touched |= stack.len() >= 2 && stack[0] == "proc" && stack[1] == "self";
    }
    if !touched {
        return None;
    }
    Some((!unknown).then(|| format!("/{}", stack.join("/"))))
}
