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
    readings(raw, home, cwd).forms
}

/// Where a path leads when it goes through a process's directory in `/proc`
/// (`/proc/self`, `/proc/thread-self`, `/proc/PID`, `task/TID` under them) or
/// through `/dev/fd`, `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, which lead there.
/// Such a path names a file of the process that opens it (the shell a command
/// runs in), never Emacs's: it is never allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Process {
    /// The path never enters a process's directory.
    Outside,
    /// It enters one and names this file, as far as it can be read here
    /// (`/proc/self/cwd/x` is x in the command's directory, `/proc/self/root/x` is `/x`).
    Reads(String),
    /// It ends at one of the process's open files (`/dev/stdin`, `/dev/fd/3`,
    /// `/proc/self/fd/1`): which file that is, only the redirection that opened
    /// it says.
    OpenFile,
    /// It goes on through an open file (`/dev/fd/3/x`, `/dev/fd/3/..`), or through
    /// `cwd` when the command's directory is not known: what it names only the
    /// running shell knows.
    Unknowable,
}

impl Process {
    /// Why a path RAW that reads this way is never allowed, when it is not.
    pub fn why(&self, raw: &str) -> Option<String> {
        if *self == Process::Outside {
            return None;
        }
        let raw = super::show(raw);
        match self {
            Process::Outside => None,
            Process::Reads(_) | Process::OpenFile => Some(format!(
                "`{raw}` names a file of the process that opens it (`/proc/self`, `/dev/fd`), \
                 which only the running shell knows"
            )),
            Process::Unknowable => Some(format!(
                "`{raw}` goes through an open file or a directory that only the running shell knows"
            )),
        }
    }
}

/// What deny-side rules see of a path: its [`fallback_forms`], and where it
/// leads through `/proc`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readings {
    pub forms: Vec<String>,
    pub process: Process,
}

/// The readings of RAW (see [`fallback_forms`]) and, when it goes through a
/// process's directory, where it leads for a shell whose directory is CWD.
pub fn readings(raw: &str, home: Option<&str>, cwd: Option<&str>) -> Readings {
    readings_as(raw, home, cwd, true)
}

/// How RAW reads through a process's directory: the `process` of
/// [`readings`], without the forms (and the lookups that find them).
pub fn reading_process(raw: &str, home: Option<&str>, cwd: Option<&str>) -> Process {
    readings_as(raw, home, cwd, false).process
}

/// [`readings`], with its forms only when WITH_FORMS.
fn readings_as(raw: &str, home: Option<&str>, cwd: Option<&str>, with_forms: bool) -> Readings {
    let none = |process| Readings {
        forms: Vec::new(),
        process,
    };
    let mut text: String = raw.chars().filter(|c| !c.is_control()).collect();
    match with_operators_read(&text) {
        Some(read) => text = read,
        None => return none(Process::Unknowable),
    }
    if let Some(h) = home.filter(|_| text.contains('$')) {
        for var in ["${HOME}", "$HOME"] {
            text = text.replace(var, h);
        }
    }
    if let Some(c) = cwd {
        // `$OLDPWD` and `~-` name a directory the line was in: callers read the path
        // against each of them as the directory.
        if text.contains(['$', '~']) {
            for var in ["${PWD}", "$PWD", "~+", "${OLDPWD}", "$OLDPWD"] {
                text = text.replace(var, c);
            }
        }
        if text == "~-" || text.starts_with("~-/") {
            text = format!("{c}{}", &text[2..]);
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
            None => return none(Process::Outside),
        }
    }
    if !text.starts_with('/') {
        match cwd {
            Some(c) => text = format!("{}/{text}", c.trim_end_matches('/')),
            // `/proc/self/cwd` is no directory to be relative to.
            None => return none(Process::Outside),
        }
    }
    let written: Vec<&str> = text.split('/').collect();
    if !with_forms {
        return none(walk(&written, cwd, true).0);
    }
    let parts: Vec<&str> = written
        .iter()
        .copied()
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let lexical = join(&collapse(parts.iter().copied()));
    let mut forms = vec![lexical];
    let (process, physical) = walk(&written, cwd, true);
    match &process {
        Process::Outside => {
            // The kernel resolves links before `..`: canonicalize the longest
            // existing prefix as written, then collapse the rest. A prefix exists
            // only if every shorter one does (the kernel walks from the left), so
            // the longest is found by bisection: a path of many `lnk/..` costs
            // a few lookups, not one per component.
            let real_at = |cut: usize| realpath(&format!("/{}", parts[..cut].join("/")));
            let (mut lo, mut hi) = (0, parts.len());
            let mut found = None;
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                match real_at(mid) {
                    Some(real) => {
                        lo = mid;
                        found = Some((mid, real));
                    }
                    None => hi = mid - 1,
                }
            }
            if let Some((cut, real)) = found.filter(|(cut, _)| *cut == lo) {
                let comps = real.split('/').chain(parts[cut..].iter().copied());
                forms.push(join(&collapse(comps)));
            }
            forms.push(physical);
        }
        // Never resolved against Emacs's own /proc entries.
        Process::Reads(view) => forms.push(view.clone()),
        Process::OpenFile | Process::Unknowable => {}
    }
    forms.dedup();
    Readings { forms, process }
}

/// TEXT with each `${HOME...}`, `${PWD...}` and `${OLDPWD...}` that has an operator read:
/// `:-`, `-`, `:=`, `=`, `:?`, `?` give the variable itself (these are always set), `:+`
/// and `+` their operand. None when another operator makes a text of the value that
/// only the shell computes (`${HOME%/}`, `${PWD/proj/.ssh}`, `${PWD::-4}`): what the
/// path names is then unknowable.
fn with_operators_read(text: &str) -> Option<String> {
    let mut out = text.to_string();
    if !text.contains("${") {
        return Some(out);
    }
    for name in ["HOME", "PWD", "OLDPWD"] {
        let open = format!("${{{name}");
        let mut from = 0;
        while let Some(found) = out[from..].find(&open) {
            let at = from + found;
            let rest = &out[at + open.len()..];
            // `${HOME}` is read as it is, and `${HOMEDIR}` is another variable.
            if rest.starts_with(|c: char| c == '}' || c.is_ascii_alphanumeric() || c == '_') {
                from = at + open.len();
                continue;
            }
            let end = rest.find('}')?;
            let op = &rest[..end];
            if op.contains("${") {
                return None;
            }
            // One `:` (`${PWD::-4}` is a substring, `${PWD:-x}` a default).
            let operand = op.strip_prefix(':').unwrap_or(op);
            let with = match operand.chars().next() {
                Some('-' | '=' | '?') => format!("${{{name}}}"),
                Some('+') => operand[1..].to_string(),
                _ => return None,
            };
            out.replace_range(at..at + open.len() + end + 1, &with);
            from = at + with.len();
        }
    }
    Some(out)
}

/// The name under which a process's directory holds the thread that
/// `/proc/thread-self` is (`/proc/self/task/TID`).
const THREAD: &str = "thread-self";

/// How many components of STACK are a process's directory in `/proc`:
/// `proc/PID` (or `self`) is 2, `proc/PID/task/TID` 4; None outside one.
fn process_base(stack: &[String]) -> Option<usize> {
    // `$$`, `$BASHPID`, `${PPID}`: what the shell puts there is a process's number.
    let is_process = |p: &str| {
        p == "self" || p.contains('$') || (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    match stack {
        [a, p, t, _, ..] if a == "proc" && is_process(p) && t == "task" => Some(4),
        [a, p, ..] if a == "proc" && is_process(p) => Some(2),
        _ => None,
    }
}

/// Whether STACK ends at an open file of a process (`proc/self/fd/N`).
fn at_open_file(stack: &[String]) -> bool {
    process_base(stack).is_some_and(|b| stack.len() == b + 2 && stack[b] == "fd")
}

/// How the kernel reads COMPS, the components of an absolute path as written
/// (`..`, `.` and empty ones kept), for a process whose directory is CWD, and
/// the path it reaches. The links the kernel follows through `/proc` are
/// followed here by their meaning, never by reading Emacs's own entries:
/// `/dev/fd` is `/proc/self/fd`, `/dev/stdin` `/proc/self/fd/0`, `/proc/net`
/// `self/net`, `/proc/thread-self` `self/task/TID` (so its `../..` is
/// `/proc/self`), `cwd` CWD and `root` `/`; `PID` counts as the process itself.
/// With FOLLOW, the other symbolic links along the path are followed as
/// [`resolve`](super::resolve) does (spending the decision's file-system budget),
/// so that a link into `/proc` is seen and `..` after a link means what it means
/// to the kernel; without it nothing is looked up.
///
/// Bounded by construction: each component is read once, and at most
/// [`MAX_SYMLINK_HOPS`](super::MAX_SYMLINK_HOPS) links are followed, past which
/// (the kernel's ELOOP) the path is [`Process::Unknowable`]. CWD is taken as a
/// physical directory: one that itself goes through a process's directory is
/// no directory to read `cwd` as, and gives [`Process::Unknowable`].
pub(crate) fn walk(comps: &[&str], cwd: Option<&str>, follow: bool) -> (Process, String) {
    let unknowable = || (Process::Unknowable, String::new());
    // Only a path through `/proc` or `/dev` reaches a process's files without a link:
    // with none to follow, any other is read as written.
    if !follow && !comps.iter().any(|c| *c == "proc" || *c == "dev") {
        return (
            Process::Outside,
            super::join(&super::collapse(comps.iter().copied())),
        );
    }
    let mut w = Walker::new(comps);
    while let Some(c) = w.pending.pop_front() {
        // Anything after an open file reads through it: a directory, or the
        // parent of one, that only the shell knows (`/dev/fd/3/x`, `/dev/fd/3/.`).
        if at_open_file(&w.stack) {
            return unknowable();
        }
        match c.as_str() {
            "" | "." => continue,
            ".." => {
                w.up();
                continue;
            }
            _ => w.down(c),
        }
        let base = process_base(&w.stack);
        let went = match known_link(&w.stack, base) {
            Some(Known::Cwd) => w.enter_cwd(cwd),
            Some(Known::To(target)) => w.jump(target),
            None if base.is_some() => {
                // Inside a process's directory: never looked up (it is Emacs's here).
                w.entered = true;
                true
            }
            None if !follow || w.missing.is_some() => true,
            None => w.follow(),
        };
        if !went {
            return unknowable();
        }
    }
    w.finish()
}

/// A link under `/proc` or `/dev` whose meaning is known (see [`walk`]).
enum Known {
    /// To these components, from `/`.
    To(Vec<String>),
    /// To the directory the process is in.
    Cwd,
}

/// The link STACK (the components read so far) is when its meaning is known; BASE:
/// how many of them are a process's directory (see [`process_base`]).
fn known_link(stack: &[String], base: Option<usize>) -> Option<Known> {
    if !stack.first().is_some_and(|f| f == "proc" || f == "dev") {
        return None;
    }
    let to = |names: &[&str]| Some(Known::To(names.iter().map(|s| s.to_string()).collect()));
    let s: Vec<&str> = stack.iter().map(String::as_str).collect();
    match (s.as_slice(), base) {
        (["dev", "fd"], _) => to(&["proc", "self", "fd"]),
        (["dev", "stdin"], _) => to(&["proc", "self", "fd", "0"]),
        (["dev", "stdout"], _) => to(&["proc", "self", "fd", "1"]),
        (["dev", "stderr"], _) => to(&["proc", "self", "fd", "2"]),
        (["proc", "net"], _) => to(&["proc", "self", "net"]),
        (["proc", "mounts"], _) => to(&["proc", "self", "mounts"]),
        (["proc", "thread-self"], _) => to(&["proc", "self", "task", THREAD]),
        (_, Some(b)) if s.len() == b + 1 && s[b] == "root" => Some(Known::To(Vec::new())),
        (_, Some(b)) if s.len() == b + 1 && s[b] == "cwd" => Some(Known::Cwd),
        _ => None,
    }
}

/// The state of a [`walk`]: the components still to read, and where it is.
struct Walker {
    pending: std::collections::VecDeque<String>,
    stack: Vec<String>,
    /// `join(stack)`; `ends[i]` is its length after `stack[i]`.
    cur: String,
    ends: Vec<usize>,
    /// Depth of the first component known not to exist (no lookup below it).
    missing: Option<usize>,
    /// Whether the walk went through a process's directory.
    entered: bool,
    /// How many links it followed.
    hops: usize,
}

impl Walker {
    fn new(comps: &[&str]) -> Walker {
        Walker {
            pending: comps.iter().map(|c| c.to_string()).collect(),
            stack: Vec::new(),
            cur: String::new(),
            ends: Vec::new(),
            missing: None,
            entered: false,
            hops: 0,
        }
    }

    /// `..`: up one component.
    fn up(&mut self) {
        self.stack.pop();
        self.ends.pop();
        self.cur.truncate(self.ends.last().copied().unwrap_or(0));
        if self.missing.is_some_and(|d| self.stack.len() < d) {
            self.missing = None;
        }
    }

    /// Down into the component C.
    fn down(&mut self, c: String) {
        self.cur.push('/');
        self.cur.push_str(&c);
        self.stack.push(c);
        self.ends.push(self.cur.len());
    }

    /// One more link followed; false past [`MAX_SYMLINK_HOPS`](super::MAX_SYMLINK_HOPS)
    /// (the kernel's ELOOP).
    fn hop(&mut self) -> bool {
        self.hops += 1;
        self.hops <= super::MAX_SYMLINK_HOPS
    }

    /// Through a process's `cwd`, to CWD: false when it is not known, or not a
    /// physical directory.
    fn enter_cwd(&mut self, cwd: Option<&str>) -> bool {
        let Some(dir) = cwd else {
            return false;
        };
        let dir_comps: Vec<&str> = dir.split('/').collect();
        if !dir.starts_with('/') || walk(&dir_comps, None, false).0 != Process::Outside {
            return false;
        }
        // Already physical: onto the stack, not read again.
        self.stack = collapse(dir_comps.iter().copied());
        if !self.hop() {
            return false;
        }
        self.entered = true;
        self.cur.clear();
        self.ends.clear();
        for c in &self.stack {
            self.cur.push('/');
            self.cur.push_str(c);
            self.ends.push(self.cur.len());
        }
        self.missing = None;
        true
    }

    /// Through a link whose meaning is known, to TARGET (from `/`): false past the
    /// bound on links.
    fn jump(&mut self, target: Vec<String>) -> bool {
        if !self.hop() {
            return false;
        }
        self.entered = true;
        self.stack.clear();
        self.ends.clear();
        self.cur.clear();
        self.missing = None;
        for part in target.into_iter().rev() {
            self.pending.push_front(part);
        }
        true
    }

    /// The path so far looked up, as [`resolve`](super::resolve) does: a link is
    /// followed (its target read next); false past the bound on links.
    fn follow(&mut self) -> bool {
        use super::{inspect, Node};
        match inspect(&self.cur) {
            Node::Link(Ok(target)) => {
                if !self.hop() {
                    return false;
                }
                let Ok(target) = target.into_string() else {
                    self.missing = Some(self.stack.len());
                    return true;
                };
                self.stack.pop();
                self.ends.pop();
                if target.starts_with('/') {
                    self.stack.clear();
                    self.ends.clear();
                }
                self.cur.truncate(self.ends.last().copied().unwrap_or(0));
                for part in target.split('/').rev() {
                    self.pending.push_front(part.to_string());
                }
            }
            Node::Plain => {}
            // A link whose text is not a path, a name that cannot be looked up
            // or is not there: kept as written.
            Node::Link(Err(_)) | Node::Missing | Node::Failed(_) => {
                self.missing = Some(self.stack.len());
            }
        }
        true
    }

    /// How the kernel reads the path walked, and the path it reaches.
    fn finish(self) -> (Process, String) {
        let stack = self.stack;
        if !self.entered {
            return (Process::Outside, join(&stack));
        }
        if at_open_file(&stack) {
            return (Process::OpenFile, join(&stack));
        }
        // A thread's files are its process's (`/proc/thread-self/environ`).
        let shown = match process_base(&stack) {
            Some(4) if stack.len() > 4 => {
                let mut s = stack[..2].to_vec();
                s.extend_from_slice(&stack[4..]);
                join(&s)
            }
            _ => join(&stack),
        };
        (Process::Reads(shown.clone()), shown)
    }
}

/// What expanding a shell glob found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expansion {
    /// The files it names now (at most [`MAX_GLOB_MATCHES`], and `.` and `..`), absolute.
    pub found: Vec<String>,
    /// Why the expansion is incomplete, if it is: a bound was reached.
    pub incomplete: Option<String>,
    /// How many leading names of each of `found` are the directory a relative glob was
    /// expanded in (0 for an absolute one): bash hands the program the rest.
    cwd_parts: usize,
}

impl Expansion {
    /// The first word bash hands the program that starts with `-`, which the program
    /// reads as an option (`date */.ssh/id_rsa` beside a directory `-f..` is `date
    /// -f../.ssh/id_rsa`).
    pub fn dashed(&self) -> Option<String> {
        self.found
            .iter()
            .map(|f| self.handed(f))
            .find(|h| h.starts_with('-'))
    }

    /// The word bash hands the program for FOUND, one of `found`: relative to the
    /// directory it was expanded in where the glob is relative.
    pub fn handed(&self, found: &str) -> String {
        if self.cwd_parts == 0 {
            return found.to_string();
        }
        let names: Vec<&str> = found.split('/').filter(|n| !n.is_empty()).collect();
        names.get(self.cwd_parts..).unwrap_or_default().join("/")
    }
}

/// The files a shell glob WORD names now, as bash would expand it against
/// HOME and CWD. With DOTS, a pattern matches names that start with `.` too (as
/// under `shopt -s dotglob`: for a line whose shell options the reading does not
/// know, which only widens what deny rules see); without, only a pattern part that
/// starts with `.` does, as bash's defaults have it (`*` is not `.env`); such a part
/// matches `.` and `..` too, as bash's globs do before 5.2 (or without `globskipdots`)
/// and dash's do. With DASH, the names dash's globs match too: `[^` is no negation
/// there (`.en[^v]` is `.env` to dash: only `[!` negates).
/// Each directory read spends the decision's file-system budget.
pub fn expand_glob(
    word: &str,
    home: Option<&str>,
    cwd: Option<&str>,
    case_fold: bool,
    (dots, dash): (bool, bool),
) -> Expansion {
    let mut out = Expansion::default();
    if word.len() > super::MAX_PATH_BYTES {
        out.incomplete = Some(format!(
            "a glob longer than {} bytes is not expanded",
            super::MAX_PATH_BYTES
        ));
        return out;
    }
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
            Some(c) => {
                out.cwd_parts = c.split('/').filter(|n| !n.is_empty()).count();
                format!("{}/{text}", c.trim_end_matches('/'))
            }
            None => return out,
        }
    };
    // A bracket expression with classes (`[[:alpha:]]`, `[[=h=]]`, `[[.h.]]`) matches one
    // character, some of them: read as `?`, which matches that one and any other.
    let text = classes_as_any(&text);
    // Extended globs (`@(...)`, `!(...)`), and a class that could not be read so, mean
    // what the glob library does not read.
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
        let pattern = part.contains(['*', '?', '[']);
        // `**` is `*` to bash without `globstar`.
        let part = match pattern {
            true => collapse_stars(part),
            false => part.to_string(),
        };
        // No name is longer than 255 bytes, so a longer part matches none; the
        // matcher of one far longer costs what no decision may.
        if pattern && part.len() > MAX_GLOB_PART {
            out.incomplete = Some(format!(
                "the glob `{}` has a part longer than {MAX_GLOB_PART} bytes",
                super::show(word)
            ));
            return out;
        }
        let build = |part: &str| super::glob_memo::part_matcher(part, case_fold);
        let matcher = match pattern {
            true => build(&part),
            false => None,
        };
        // dash reads `[^` as a set that holds `^`.
        let dash_matcher = match pattern && dash && part.contains("[^") {
            true => build(&part.replace("[^", "[\\^")),
            false => None,
        };
        let matches = |name: &str| {
            matcher.as_ref().is_some_and(|m| m.is_match(name))
                || dash_matcher.as_ref().is_some_and(|m| m.is_match(name))
        };
        for base in &found {
            if !pattern {
                next.push(format!("{base}/{part}"));
                continue;
            }
            if matcher.is_none() && dash_matcher.is_none() {
                continue;
            }
            let dir = if base.is_empty() { "/" } else { base.as_str() };
            if !super::spend(1) {
                out.incomplete
                    .get_or_insert_with(|| super::BUDGET_SPENT.into());
                continue;
            }
            let Some((entries, fresh)) = super::glob_memo::names_in(dir, MAX_DIR_ENTRIES) else {
                continue;
            };
            // Names this decision read already cost no file-system work: a little for
            // each 64 of them matched again (`make test` globs its directory a dozen
            // times).
            if !fresh && !super::spend(1 + entries.len() / 64) {
                out.incomplete
                    .get_or_insert_with(|| super::BUDGET_SPENT.into());
                continue;
            }
            // bash before 5.2 (no `globskipdots`) and dash match `.` and `..` too.
            if part.starts_with('.') && next.len() < MAX_GLOB_MATCHES {
                for name in [".", ".."].into_iter().filter(|n| matches(n)) {
                    next.push(format!("{base}/{name}"));
                }
            }
            for (n, name) in entries.iter().enumerate() {
                if n >= MAX_DIR_ENTRIES {
                    out.incomplete
                        .get_or_insert_with(|| format!("`{dir}` has too many entries to read"));
                    break;
                }
                if fresh && !super::spend(1) {
                    out.incomplete
                        .get_or_insert_with(|| super::BUDGET_SPENT.into());
                    break;
                }
                if !dots && name.starts_with('.') && !part.starts_with('.') {
                    continue;
                }
                if matches(name) {
                    if next.len() >= MAX_GLOB_MATCHES {
                        out.incomplete.get_or_insert_with(|| {
                            format!("the glob `{word}` names more than {MAX_GLOB_MATCHES} files")
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

/// Longest part of a glob matched against directory entries (a name has at most 255
/// bytes, and a pattern part at least one for each character that is not `*`).
const MAX_GLOB_PART: usize = 512;

/// PART with each run of `*` made one: the same pattern, read in one pass.
/// TEXT with each bracket expression that holds a class, an equivalence class or a
/// collating symbol (`[[:space:]]`, `[^[:alpha:]_]`, `[[=e=]]`) made `?`: a glob that
/// matches every name the bracket matches, and more. An expression that does not end
/// is kept as it is.
fn classes_as_any(text: &str) -> String {
    if !["[:", "[=", "[."].iter().any(|p| text.contains(p)) {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '[' {
            if let Some(end) = bracket_end(&chars, i) {
                let inner: String = chars[i..=end].iter().collect();
                if inner.contains("[:") || inner.contains("[=") || inner.contains("[.") {
                    out.push('?');
                } else {
                    out.push_str(&inner);
                }
                i = end + 1;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The index of the `]` that ends the bracket expression opened at CHARS[START], as bash
/// reads it: a `!` or `^` first, then a `]` first is a member; `[:...:]`, `[=...=]` and
/// `[....]` are whole members; a `/` ends no expression (None).
fn bracket_end(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start + 1;
    if matches!(chars.get(i), Some('!' | '^')) {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    while let Some(&c) = chars.get(i) {
        match c {
            '/' => return None,
            ']' => return Some(i),
            '[' if matches!(chars.get(i + 1), Some(':' | '=' | '.')) => {
                let kind = chars[i + 1];
                // A `/` ends the component, and so the class, before its `:]`.
                let close = (i + 2..chars.len().saturating_sub(1))
                    .take_while(|&k| chars[k] != '/')
                    .find(|&k| chars[k] == kind && chars[k + 1] == ']')?;
                i = close + 2;
            }
            _ => i += 1,
        }
    }
    None
}

fn collapse_stars(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let (mut escaped, mut star) = (false, false);
    for c in part.chars() {
        if escaped {
            escaped = false;
            star = false;
        } else if c == '\\' {
            escaped = true;
            star = false;
        } else if c == '*' {
            if star {
                continue;
            }
            star = true;
        } else {
            star = false;
        }
        out.push(c);
    }
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

#[cfg(test)]
mod tests {
    use super::classes_as_any;

    #[test]
    fn bracket_classes_read_as_any_character() {
        for (text, want) in [
            ("/p/[[:space:]]", "/p/?"),
            ("/p/id_[[:alpha:]]sa", "/p/id_?sa"),
            ("/p/[^[:alpha:]_]x", "/p/?x"),
            ("/p/[![=e=]]", "/p/?"),
            ("/p/[]]x", "/p/[]]x"),
            ("/p/[ab]", "/p/[ab]"),
            // The first `[` is not closed: a literal `[`, then the bracket `[:alpha:]`.
            ("/p/[[:alpha:]", "/p/[?"),
            ("/p/[[:a/b:]]", "/p/[[:a/b:]]"),
        ] {
            assert_eq!(classes_as_any(text), want, "{text}");
        }
    }
}

#[cfg(test)]
mod dash_tests {
    use super::expand_glob;

    #[test]
    fn dash_globs_match_dot_dirs_and_read_caret_as_a_member() {
        let dir = std::env::temp_dir().join(format!("grh-dash-globs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        for f in [".env", "^x", "a"] {
            std::fs::write(dir.join(f), "").expect("write");
        }
        let d = dir.to_string_lossy().into_owned();
        let names = |word: &str, dash: bool| {
            let mut found: Vec<String> = expand_glob(word, None, Some(&d), false, (false, dash))
                .found
                .iter()
                .map(|f| f.rsplit('/').next().unwrap_or("").to_string())
                .collect();
            found.sort();
            found
        };
        // `.` and `..` whichever shell (bash before 5.2 matches them too).
        assert_eq!(names(".*", false), [".", "..", ".env"]);
        assert_eq!(names(".*", true), [".", "..", ".env"]);
        assert_eq!(names(".[^.]", false), Vec::<String>::new());
        assert_eq!(names(".[^.]", true), [".."]);
        assert_eq!(names(".en[^v]", false), Vec::<String>::new());
        assert_eq!(names(".en[^v]", true), [".env"]);
        assert_eq!(names("[^a]*", false), ["^x"]);
        assert_eq!(names("[^a]*", true), ["^x", "a"]);
        assert_eq!(names(".[!.]*", true), [".env"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
