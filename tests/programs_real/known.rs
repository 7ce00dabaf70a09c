//! The families of disagreements the table is known to have today, as data: each with
//! why, an example that must still disagree, and which findings it covers.

use super::invocations::Invocation;
use super::trace::Op;
use gptel_rust_hooks::shell::{self, lookup, read};

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    /// A program ran that is no command of the reading.
    Exec,
    /// A file of the work directory was opened or changed that the reading did not find.
    Opened,
    /// The command names no path, and the program worked in its directory anyway.
    ImplicitCwd,
    /// A file outside the work directory, not in the program's baseline: its own.
    Own,
}

impl Kind {
    /// Whether a finding of this kind is a disagreement (fails the test).
    pub(crate) fn disagrees(self) -> bool {
        self != Kind::Own
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) kind: Kind,
    /// The program executed, or the path opened (scratch paths shown relative).
    pub(crate) what: String,
    pub(crate) op: Option<Op>,
}

/// A known family of disagreements: the table (or the engine) does not model this yet.
pub(crate) struct Known {
    pub(crate) name: &'static str,
    pub(crate) why: &'static str,
    /// An invocation of the family (entry, line); `known_families_still_disagree` checks
    /// that it still gives a disagreement of KIND, so the list shrinks as the table grows.
    pub(crate) example: (&'static str, &'static str),
    pub(crate) kind: Kind,
    pub(crate) covers: fn(&Invocation, &Finding) -> bool,
}

/// Known families, most specific first (the table is young; each is in the report).
pub(crate) const KNOWN: &[Known] = &[
    Known {
        name: "compressor",
        why: "`tar -z`/`-j`/`-J`/`--zstd`/`-a` run the compressor (`gzip`...) through \
              `sh -c`: a flag that runs a program, which the table does not model (its \
              `-I`/`--use-compress-program` is read as a shell string). Deny rules on the \
              compressor's name do not see it.",
        example: ("tar", "tar czf out1 d1"),
        kind: Kind::Exec,
        covers: |inv, f| {
            f.kind == Kind::Exec
                && inv.words.first().is_some_and(|w| w == "tar")
                && [
                    "gzip", "bzip2", "xz", "zstd", "lzma", "lzip", "lzop", "compress", "sh",
                ]
                .iter()
                .any(|c| f.what.starts_with(c) || f.what.starts_with(&format!("/bin/{c}")))
        },
    },
    Known {
        name: "temp-beside",
        why: "`zip` writes the archive to a temporary file (`ziXXXXXX`) in the work \
              directory, curl its cookie jar to `HASH.tmp` beside it, and each renames it \
              into place: the temporary name is no word of the line. Soundness (path \
              rules on the work directory).",
        example: ("zip", "zip -r out1.zip d1"),
        kind: Kind::Opened,
        covers: |inv, f| {
            let base = f.what.rsplit('/').next().unwrap_or("");
            f.kind == Kind::Opened
                && match inv.words.first().map(String::as_str) {
                    Some("zip") => base.starts_with("zi"),
                    Some("curl") => base.ends_with(".tmp"),
                    _ => false,
                }
        },
    },
    Known {
        name: "interpreter-code",
        why: "an interpreter runs what its code says (`awk 'BEGIN{system(\"rm x\")}'`): \
              the table types the code `Code`, and code its language's reader cannot \
              clear (sed's, awk's, jq's; the others have none) is read as a program \
              the table does not know: only a rule that names the program allows it, and deny rules read its words generously (unsure).",
        example: ("awk", "awk 'BEGIN{system(\"true\")}'"),
        kind: Kind::Exec,
        covers: |inv, f| {
            f.kind == Kind::Exec
                && inv.words.first().and_then(|n| lookup(n)).is_some_and(|p| {
                    read(p, &inv.words[1..])
                        .runs
                        .iter()
                        .any(|r| match r {
                            shell::Run::Code(text) => shell::read_code(p.name(), text)
                                .is_none_or(|c| c.unknown.is_some()),
                            _ => false,
                        })
                })
        },
    },
    Known {
        name: "git-helper",
        why: "git runs its own helper programs: for a repository given by a path or URL \
              (`git fetch DIR` runs `git-upload-pack 'DIR'` through `sh -c`), and the \
              subcommands git implements as shell scripts (`git submodule`, `git \
              mergetool` run `sed`, `git-sh-i18n`...): programs of git's exec path or \
              its scripts' own that no word names. Deny rules on their names do not see \
              them.",
        example: ("git submodule", "git submodule status"),
        kind: Kind::Exec,
        covers: |inv, f| {
            const SCRIPTS: &[&str] = &[
                "submodule",
                "mergetool",
                "difftool",
                "request-pull",
                "quiltimport",
                "web--browse",
                "filter-branch",
                "instaweb",
                "bisect",
            ];
            f.kind == Kind::Exec
                && inv.words.first().is_some_and(|w| w == "git")
                && (f.what.starts_with("git-")
                    || f.what.starts_with("/bin/sh -c git-")
                    || f.what.contains("/git-core/git-")
                    || inv.words.iter().any(|w| SCRIPTS.contains(&w.as_str())))
        },
    },
    Known {
        name: "clone-dir",
        why: "`git clone URL` without a directory makes one named after the URL's last \
              component, and `git clone URL` and `git submodule add URL` first look for \
              the URL as a local path (`https:/x.org/r.git`, `//` collapsed): names no \
              word of the line gives as written. Soundness (path rules on the work \
              directory).",
        example: ("git clone", "git clone --depth 1 https://x.org/r.git"),
        kind: Kind::Opened,
        covers: |inv, f| {
            let w = |s: &str| inv.words.iter().any(|x| x == s);
            f.kind == Kind::Opened
                && inv.words.first().is_some_and(|w| w == "git")
                && (w("clone") || (w("submodule") && w("add")))
        },
    },
    Known {
        name: "pager",
        why: "`bat` runs its pager (`less`), or probes it, by itself: no word of the line \
              names it (`--pager CMD` does, and is read). Deny rules on the pager's name \
              do not see it.",
        example: ("bat", "batcat --list-languages"),
        kind: Kind::Exec,
        covers: |inv, f| {
            f.kind == Kind::Exec
                && inv
                    .words
                    .first()
                    .is_some_and(|w| w == "bat" || w == "batcat")
                && (f.what.starts_with("less") || f.what.starts_with("/usr/bin/less"))
        },
    },
];

pub(crate) fn family(inv: &Invocation, f: &Finding) -> Option<&'static Known> {
    KNOWN.iter().find(|k| (k.covers)(inv, f))
}
