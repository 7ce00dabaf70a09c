//! The store reader against git itself: loose and packed repositories, names, ranges.

use super::*;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn repo(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grh-objects-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    git(&d, &["init", "-q"]);
    std::fs::create_dir(d.join("src")).unwrap();
    for k in 0..30 {
        std::fs::write(
            d.join("src").join(format!("f{k}.rs")),
            format!("fn f{k}() {{}}\n").repeat(40),
        )
        .unwrap();
    }
    std::fs::write(d.join("README"), "hello\n").unwrap();
    git(&d, &["add", "."]);
    git(&d, &["commit", "-qm", "one"]);
    git(&d, &["checkout", "-qb", "other"]);
    std::fs::write(d.join(".env"), "SECRET\n").unwrap();
    std::fs::write(d.join("src/f1.rs"), "changed\n".repeat(40)).unwrap();
    git(&d, &["add", "-f", ".env", "src/f1.rs"]);
    git(&d, &["commit", "-qm", "two"]);
    git(&d, &["tag", "-a", "-m", "t", "v1"]);
    git(&d, &["checkout", "-q", "main"]);
    d
}

fn paths(d: &Path, rev: &str) -> Result<Vec<String>, String> {
    let g = d.join(".git");
    let mut p = Store::open(&g, &g)?
        .tree_paths(rev)?
        .ok_or_else(|| format!("no revision {rev}"))?
        .to_vec();
    p.sort();
    Ok(p)
}

/// Each revision's files, as `git ls-tree -r --name-only` lists them.
fn agrees(d: &Path, revs: &[&str]) {
    for rev in revs {
        let mut want: Vec<String> = git(d, &["ls-tree", "-r", "--name-only", rev])
            .lines()
            .map(str::to_string)
            .collect();
        want.sort();
        assert_eq!(paths(d, rev).unwrap(), want, "{rev}");
    }
}

#[test]
fn loose_and_packed_trees_agree_with_git() {
    let d = repo("agree");
    let revs = [
        "main",
        "other",
        "v1",
        "HEAD",
        "other~1",
        "other^",
        "v1^0",
        "refs/heads/other",
        "tags/v1",
    ];
    agrees(&d, &revs);
    assert!(paths(&d, "other").unwrap().contains(&".env".to_string()));
    assert!(!paths(&d, "main").unwrap().contains(&".env".to_string()));
    // Packed, with deltas, and the references packed too.
    let short = git(&d, &["rev-parse", "other"])[..7].to_string();
    agrees(&d, &[short.as_str()]);
    git(&d, &["gc", "-q", "--aggressive"]);
    assert!(!d.join(".git/refs/heads/other").exists());
    agrees(&d, &revs);
    agrees(&d, &[short.as_str()]);
    let full = git(&d, &["rev-parse", "other"]);
    agrees(&d, &[full.as_str()]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_store_read_again_lists_every_file_again() {
    let d = repo("again");
    let g = d.join(".git");
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let mut one = Store::open(&g, &g).unwrap();
    let first = one.tree_paths("other").unwrap().unwrap();
    assert_eq!(sorted(first.to_vec()), paths(&d, "other").unwrap());
    // Another name of the same commit: its files, listed once.
    assert!(Rc::ptr_eq(
        &one.tree_paths("other~0").unwrap().unwrap(),
        &first
    ));
    // The trees again, for another commit that shares them: all of them.
    let main = sorted(one.tree_paths("main").unwrap().unwrap().to_vec());
    assert_eq!(main, paths(&d, "main").unwrap());
    let both = sorted(one.tree_paths("other^@").unwrap().unwrap().to_vec());
    assert_eq!(both, sorted([first.to_vec(), main.clone()].concat()));
    let first = sorted(first.to_vec());
    // One decision's stores: each revision read once, then kept (the objects gone,
    // it still answers), and another revision read from the store kept open.
    let mut stores = Stores::default();
    let kept = stores.tree_paths(&g, &g, "other").unwrap().unwrap();
    assert_eq!(sorted(kept.to_vec()), first);
    std::fs::rename(g.join("objects"), d.join("objects.away")).unwrap();
    let again = stores.tree_paths(&g, &g, "other").unwrap().unwrap();
    assert!(std::rc::Rc::ptr_eq(&kept, &again));
    assert!(stores.tree_paths(&g, &g, "main").is_err());
    std::fs::rename(d.join("objects.away"), g.join("objects")).unwrap();
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn what_is_not_read_says_why() {
    let d = repo("why");
    let g = d.join(".git");
    for rev in [
        "@{-7}x",
        "main@{upstream}",
        "other^{commit}",
        "other~1@{0}",
        ":/two",
        "main...other",
        "FETCH_HEAD",
    ] {
        assert!(
            Store::open(&g, &g).unwrap().tree_paths(rev).is_err(),
            "{rev}"
        );
    }
    // The branch the last checkout left (`other`), and a range.
    assert_eq!(paths(&d, "-").unwrap(), paths(&d, "other").unwrap());
    assert_eq!(paths(&d, "@{-1}").unwrap(), paths(&d, "other").unwrap());
    assert!(paths(&d, "main..other")
        .unwrap()
        .contains(&".env".to_string()));
    assert_eq!(paths(&d, "other..main").unwrap(), Vec::<String>::new());
    // No such name or parent: git reads the word as a path, or stops.
    for rev in ["src", "HEAD~5", "main^2", ".", "*.c", "ffffffffff"] {
        let found = Store::open(&g, &g).unwrap().tree_paths(rev).unwrap();
        assert_eq!(found, None, "{rev}");
    }
    // A remote branch of that name: `git checkout feature` may make one of it.
    std::fs::create_dir_all(g.join("refs/remotes/origin")).unwrap();
    std::fs::write(
        g.join("refs/remotes/origin/feature"),
        git(&d, &["rev-parse", "other"]) + "\n",
    )
    .unwrap();
    assert!(paths(&d, "feature").unwrap_err().contains("remote branch"));
    assert_eq!(
        paths(&d, "origin/feature").unwrap(),
        paths(&d, "other").unwrap()
    );
    // The stash and its parents.
    std::fs::write(d.join("README"), "changed\n").unwrap();
    std::fs::write(d.join("new.txt"), "x\n").unwrap();
    git(&d, &["stash", "-u"]);
    assert!(paths(&d, "stash^@")
        .unwrap()
        .contains(&"new.txt".to_string()));
    assert!(!paths(&d, "stash").unwrap().contains(&"new.txt".to_string()));
    assert_eq!(paths(&d, "stash@{0}").unwrap(), paths(&d, "stash").unwrap());
    std::fs::write(g.join("objects/info/alternates"), "/x\n").unwrap();
    assert!(paths(&d, "main").unwrap_err().contains("borrows"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn commit_graphs_are_read_as_git_reads_them() {
    let d = repo("graph");
    let g = d.join(".git");
    let revs = ["main", "other", "other~1", "v1^", "HEAD"];
    // One file, then a chain of them: each revision's files as git lists them.
    git(&d, &["commit-graph", "write", "--reachable"]);
    assert!(g.join("objects/info/commit-graph").exists());
    agrees(&d, &revs);
    std::fs::remove_file(g.join("objects/info/commit-graph")).unwrap();
    git(&d, &["commit-graph", "write", "--reachable", "--split"]);
    git(&d, &["checkout", "-qb", "more", "other"]);
    git(&d, &["commit", "-q", "--allow-empty", "-m", "more"]);
    git(&d, &["checkout", "-q", "main"]);
    git(
        &d,
        &["commit-graph", "write", "--reachable", "--split=no-merge"],
    );
    let chain = std::fs::read_to_string(g.join("objects/info/commit-graphs/commit-graph-chain"));
    assert_eq!(chain.unwrap().lines().count(), 2);
    agrees(&d, &revs);
    agrees(&d, &["more", "more~1", "more~2"]);
    let _ = std::fs::remove_dir_all(g.join("objects/info/commit-graphs"));
    // A graph naming another tree for `other` (helper-93).
    git(&d, &["commit-graph", "write", "--reachable"]);
    let file = g.join("objects/info/commit-graph");
    let mut bytes = std::fs::read(&file).unwrap();
    let (theirs, ours) = (
        git(&d, &["rev-parse", "other^{tree}"]),
        git(&d, &["rev-parse", "main^{tree}"]),
    );
    let (theirs, ours) = (
        hex(theirs.as_bytes()).unwrap(),
        hex(ours.as_bytes()).unwrap(),
    );
    // (Every commit of that tree: `more` has `other`'s too.)
    while let Some(at) = bytes.windows(20).position(|w| w == theirs) {
        bytes[at..at + 20].copy_from_slice(&ours);
    }
    std::fs::write(&file, &bytes).unwrap();
    // git's commands take one or the other (`git checkout` the commit's, `git
    // cherry-pick` the graph's: helper-94): unsure.
    assert!(paths(&d, "other").unwrap_err().contains("disagree"));
    // One this reading does not take as git would: unsure.
    bytes[4] = 2;
    std::fs::write(&file, &bytes).unwrap();
    assert!(paths(&d, "other").unwrap_err().contains("commit-graph"));
    // Nor where the configuration says whether git reads it.
    std::fs::remove_file(&file).unwrap();
    git(&d, &["config", "core.commitGraph", "false"]);
    assert!(paths(&d, "other").unwrap_err().contains("commit-graph"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_pack_git_rejects_is_not_read() {
    let d = repo("rejected");
    let g = d.join(".git");
    git(&d, &["gc", "-q"]);
    let idx = std::fs::read_dir(g.join("objects/pack"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "idx"))
        .unwrap();
    assert!(paths(&d, "other").unwrap().contains(&".env".to_string()));
    // git looks objects up through a multi-pack-index first (helper-94): not read here.
    git(&d, &["multi-pack-index", "write"]);
    assert!(paths(&d, "other").unwrap_err().contains("multi-pack-index"));
    std::fs::remove_file(g.join("objects/pack/multi-pack-index")).unwrap();
    // The pack's checksum, as the index repeats it, changed: git reads no object of it
    // (helper-93), so neither does this reading.
    let mut bytes = std::fs::read(&idx).unwrap();
    let at = bytes.len() - 40;
    bytes[at] ^= 0xff;
    std::fs::write(&idx, &bytes).unwrap();
    assert!(paths(&d, "other")
        .unwrap_err()
        .contains("does not match its index"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_entry_of_another_size_than_its_header_is_not_read() {
    let d = repo("sized");
    let g = d.join(".git");
    git(&d, &["gc", "-q"]);
    let pack = std::fs::read_dir(g.join("objects/pack"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "pack"))
        .unwrap();
    let tree = git(&d, &["rev-parse", "other^{tree}"]);
    let listed = git(&d, &["verify-pack", "-v", &pack.to_string_lossy()]);
    let at: usize = listed
        .lines()
        .find(|l| l.starts_with(&tree))
        .and_then(|l| l.split_whitespace().nth(4))
        .unwrap()
        .parse()
        .unwrap();
    let good = std::fs::read(&pack).unwrap();
    // Its header's size (the low four bits of its first byte, here) changed by 5: git
    // takes the entry as corrupt and reads the object from elsewhere (helper-95: a
    // genuine loose copy, while this reading took the pack's).
    for delta in [5i16, -5] {
        let mut bytes = good.clone();
        let low = i16::from(bytes[at] & 0x0f) + delta;
        if !(0..16).contains(&low) {
            continue;
        }
        bytes[at] = (bytes[at] & 0xf0) | low as u8;
        std::fs::write(&pack, &bytes).unwrap();
        let found = Command::new("git")
            .args(["ls-tree", "other"])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(!found.status.success(), "git read it ({delta})");
        assert!(paths(&d, "other").is_err(), "{delta}");
    }
    std::fs::write(&pack, &good).unwrap();
    assert!(paths(&d, "other").unwrap().contains(&".env".to_string()));
    // A loose object whose header gives another size is as corrupt to git.
    std::fs::write(d.join("fresh"), "not packed\n").unwrap();
    let blob = git(&d, &["hash-object", "-w", "fresh"]);
    let loose = g.join("objects").join(&blob[..2]).join(&blob[2..]);
    let raw = inflate(&std::fs::read(&loose).unwrap(), 1 << 20).unwrap();
    let forged = [
        b"blob 5\0".as_slice(),
        &raw[raw.iter().position(|&b| b == 0).unwrap() + 1..],
    ]
    .concat();
    std::fs::write(
        &loose,
        miniz_oxide::deflate::compress_to_vec_zlib(&forged, 6),
    )
    .unwrap();
    let store = Store::open(&g, &g).unwrap();
    let oid: Oid = (0..20)
        .map(|k| u8::from_str_radix(&blob[2 * k..2 * k + 2], 16).unwrap())
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    assert!(store.loose(&oid).is_err());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_log_of_head_git_may_read_otherwise_is_unsure() {
    let d = repo("reflog");
    let log = d.join(".git/logs/HEAD");
    let good = std::fs::read_to_string(&log).unwrap();
    assert_eq!(paths(&d, "-").unwrap(), paths(&d, "other").unwrap());
    let last = good.lines().last().unwrap().to_string();
    let (head, message) = last.split_once('\t').unwrap();
    let (who, _) = head.rsplit_once(' ').unwrap();
    let (who, _) = who.rsplit_once(' ').unwrap();
    // Entries git skips as damaged, or reads where this reading would not.
    for bad in [
        format!("{who} 0 +0000\t{message}\n"),
        format!("{who} 1700000000 +000\t{message}\n"),
        format!("{who} 1700000000 +0000 \t{message}\n"),
        format!("{who} 1700000000 +0000{message}\n"),
        format!("{who} 1700000000 +0000\t{message}"),
        // A NUL ends the message git reads (helper-95: `moving from benign\0 to main`).
        format!("{who} 1700000000 +0000\tcheckout: moving from main\0 to other\n"),
    ] {
        std::fs::write(&log, format!("{good}{bad}")).unwrap();
        assert!(paths(&d, "-").unwrap_err().contains("log of HEAD"), "{bad}");
    }
    // An entry with no message, as `git update-ref` without `-m` writes it: no tab,
    // and git still takes the checkout before it.
    std::fs::write(&log, &good).unwrap();
    let head = git(&d, &["rev-parse", "HEAD"]);
    git(&d, &["update-ref", "HEAD", &head]);
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(!written.lines().last().unwrap().contains('\t'), "{written}");
    assert_eq!(git(&d, &["rev-parse", "--abbrev-ref", "@{-1}"]), "other");
    assert_eq!(paths(&d, "-").unwrap(), paths(&d, "other").unwrap());
    let _ = std::fs::remove_dir_all(&d);
}
