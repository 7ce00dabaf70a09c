//! The scratch of `tests/programs_real.rs`: a work directory (the cwd), a home, a
//! `/tmp`, an empty directory; for git, the work directory is a repository.

use super::{git, make_writable, Scratch};
use std::path::{Path, PathBuf};

/// The files of the work directory every invocation starts from.
pub const WORK_FILES: &[(&str, &str)] = &[
    ("f1", "alpha TODO one\n"),
    ("f2", "beta TODO two\n"),
    (".env", "SECRET=1\n"),
    ("names.txt", "f1\nf2\n"),
    // The words `invocations::word_for` gives a value or operand the table calls data
    // or a pattern: files of those names, so that a program opening what the table reads
    // as data or a pattern opens a file the checker sees.
    ("1", "data TODO\n"),
    ("TODO", "pattern TODO\n"),
    ("d1/a.txt", "TODO a\n"),
    ("d1/sub/b.txt", "TODO b\n"),
    ("d1/.hidden", "TODO h\n"),
];

/// For git's entries the work directory is a repository: these files committed (a
/// `.gitignore` that ignores `.env`, as real projects do), `names.txt` and `d1/.hidden`
/// untracked, `.env` ignored.
pub const TRACKED: &[&str] = &["f1", "f2", "d1/a.txt", "d1/sub/b.txt", ".gitignore"];

/// The files at the top of a work tree that configure git (read by it whatever the
/// line says, as its `.git`).
pub const GIT_OWN: &[&str] = &[".gitignore", ".gitattributes", ".mailmap", ".gitmodules"];

/// The home's `.gitconfig`: who commits, and the first branch's name.
pub const GITCONFIG: &str =
    "[user]\n\tname = dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n";

pub struct Dirs {
    pub work: PathBuf,
    pub home: PathBuf,
    pub tmp: PathBuf,
    pub empty: PathBuf,
    /// The work directory as a repository, made once (untraced) and copied for each
    /// invocation of git.
    pub repo: PathBuf,
}

impl Dirs {
    pub fn new(scratch: &Scratch) -> Dirs {
        let r = &scratch.root;
        Dirs {
            work: r.join("work"),
            home: r.join("home"),
            tmp: r.join("tmp"),
            empty: r.join("empty"),
            repo: r.join("repo"),
        }
    }

    /// Write the files of the work directory into DIR.
    fn lay(dir: &Path) {
        for (name, text) in WORK_FILES {
            let p = dir.join(name);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, text).expect("write a scratch file");
        }
    }

    /// Make the repository the work directory is copied from for git (once).
    fn make_repo(&self) {
        if self.repo.join(".git").exists() {
            return;
        }
        let _ = std::fs::remove_dir_all(&self.repo);
        std::fs::create_dir_all(&self.repo).expect("make the repository");
        Dirs::lay(&self.repo);
        std::fs::write(self.repo.join(".gitignore"), ".env\n").expect("write .gitignore");
        git(&self.repo, &["init", "-q"]);
        git(&self.repo, &[["add", "--"].as_slice(), TRACKED].concat());
        git(&self.repo, &["commit", "-q", "-m", "first"]);
    }

    /// Lay the scratch anew, with EXTRA files (relative to the work directory, `~/` to
    /// the home) and EXTRA_DIRS; the work directory a repository when REPO.
    pub fn reset(&self, extra: &[String], extra_dirs: &[String], repo: bool) {
        for d in [&self.work, &self.home, &self.tmp, &self.empty] {
            make_writable(d);
            let _ = std::fs::remove_dir_all(d);
            if d != &self.work || !repo {
                std::fs::create_dir_all(d).expect("make a scratch directory");
            }
        }
        if repo {
            self.make_repo();
            let ok = std::process::Command::new("cp")
                .arg("-a")
                .arg(&self.repo)
                .arg(&self.work)
                .status()
                .expect("run cp");
            assert!(ok.success(), "copy the repository");
        } else {
            Dirs::lay(&self.work);
        }
        std::fs::write(self.home.join(".gitconfig"), GITCONFIG).expect("write .gitconfig");
        let place = |w: &str| match w.strip_prefix("~/") {
            Some(rest) => self.home.join(rest),
            None => self.work.join(w),
        };
        for d in extra_dirs {
            let p = place(d);
            let _ = std::fs::create_dir_all(&p);
            let _ = std::fs::write(p.join("inner.txt"), "TODO inner\n");
        }
        for f in extra {
            let p = place(f);
            if p.exists() {
                continue;
            }
            if let Some(parent) = p.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(&p, "TODO extra\n");
        }
    }
}
