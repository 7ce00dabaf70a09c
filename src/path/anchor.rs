//! Where a `:path` glob starts, for walks: a command that walks a directory (`grep -r x
//! ~`, `find ~`, `rg x` in its directory) may open any file below it, so a rule whose
//! glob can match below that directory meets the walk (`~/.ssh/**` meets a walk of `~`).

use super::is_within;

/// One branch of a rule's `:path` glob (as translated, see
/// [`super::parse_pattern_with`]), reduced to where it starts and how deep it reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// The rule.
    pub rule: usize,
    /// The literal directory the glob starts at: absolute, or relative to the call's
    /// cwd when `relative` (empty: the cwd).
    pub dir: String,
    pub relative: bool,
    /// It matches in any directory (`**/.env`): a walk of any directory may meet it.
    pub anywhere: bool,
    /// How many components below `dir` it matches, when not `deep`.
    pub depth: usize,
    /// A `**` below `dir`: it matches at any depth.
    pub deep: bool,
}

/// A component of a translated glob that is not a literal name.
fn has_meta(c: &str) -> bool {
    c.contains(['*', '?', '[', ']', '{', '}', '\\', ','])
}

impl Anchor {
    /// The anchor of BRANCH, a glob with no alternation at its top, of RULE.
    pub fn of(rule: usize, branch: &str, relative: bool, case_fold: bool) -> Anchor {
        let comps: Vec<&str> = branch.split('/').filter(|c| !c.is_empty()).collect();
        let anywhere = !relative && comps.first() == Some(&"**");
        let literal = if anywhere {
            0
        } else {
            comps.iter().take_while(|c| !has_meta(c)).count()
        };
        let mut dir = comps[..literal].join("/");
        if !relative {
            dir.insert(0, '/');
        }
        if case_fold {
            dir = dir.to_lowercase();
        }
        let rest = &comps[literal..];
        Anchor {
            rule,
            dir,
            relative,
            anywhere,
            depth: rest.len(),
            deep: rest.iter().any(|c| c.contains("**")),
        }
    }

    /// Whether a walk of the directory WALKED (absolute, normalized) may reach a path
    /// the glob matches; relative anchors are in CWD (the call's directory; unknown:
    /// yes).
    pub fn reaches(&self, walked: &str, cwd: Option<&str>) -> bool {
        if self.anywhere {
            return true;
        }
        let dir: std::borrow::Cow<str> = if self.relative {
            let Some(cwd) = cwd else { return true };
            match self.dir.as_str() {
                "" => cwd.into(),
                d => format!("{}/{d}", cwd.trim_end_matches('/')).into(),
            }
        } else {
            self.dir.as_str().into()
        };
        // The walk reaches the directory the glob starts at.
        if is_within(&dir, walked) {
            return true;
        }
        // It starts inside the glob's directory: deep enough?
        if is_within(walked, &dir) {
            return self.deep_enough(below(walked, &dir));
        }
        false
    }

    /// Whether the glob matches something BELOW components under its directory.
    fn deep_enough(&self, below: usize) -> bool {
        self.deep || below < self.depth
    }
}

/// How many components WALKED lies below DIR, which holds it.
fn below(walked: &str, dir: &str) -> usize {
    walked[dir.trim_end_matches('/').len()..]
        .split('/')
        .filter(|c| !c.is_empty())
        .count()
}

/// The anchors of a policy, indexed by directory: what a walk reaches is found in the
/// walked directory's few ancestors and in the range of directories below it, so the
/// work follows the hits, not the number of `:path` rules.
#[derive(Debug, Clone, Default)]
pub struct Anchors {
    all: Vec<Anchor>,
    /// Absolute anchors that do not match anywhere, as (directory, anchor), sorted.
    sorted: Vec<(String, usize)>,
    /// Relative anchors (in the call's directory): looked through one by one.
    relative: Vec<usize>,
    /// Anchors that match in any directory.
    anywhere: Vec<usize>,
}

impl Anchors {
    /// Index ALL.
    pub fn new(all: Vec<Anchor>) -> Anchors {
        let mut sorted = Vec::new();
        let mut relative = Vec::new();
        let mut anywhere = Vec::new();
        for (i, a) in all.iter().enumerate() {
            if a.relative {
                relative.push(i);
            } else if a.anywhere {
                anywhere.push(i);
            } else {
                sorted.push((a.dir.trim_end_matches('/').to_string(), i));
            }
        }
        sorted.sort();
        Anchors {
            all,
            sorted,
            relative,
            anywhere,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// The anchors that match in any directory (`**/.env`).
    pub fn anywhere(&self) -> impl Iterator<Item = &Anchor> {
        self.anywhere.iter().map(|&i| &self.all[i])
    }

    /// Call F with each anchor that does not match anywhere and that a walk of WALKED
    /// (absolute, normalized) reaches, as [`Anchor::reaches`] says; relative anchors
    /// are in CWD. An anchor may come more than once.
    pub fn reaching(&self, walked: &str, cwd: Option<&str>, mut f: impl FnMut(&Anchor)) {
        for &i in &self.relative {
            let a = &self.all[i];
            if !a.anywhere && a.reaches(walked, cwd) {
                f(a);
            }
        }
        if !walked.starts_with('/') {
            return;
        }
        let walked_dir = walked.trim_end_matches('/');
        // The walked directory, then those below it (`walked/...`, which sort together;
        // below the root: every one).
        let exact = self
            .sorted
            .partition_point(|(d, _)| d.as_str() < walked_dir);
        for (d, i) in &self.sorted[exact..] {
            if d != walked_dir {
                break;
            }
            f(&self.all[*i]);
        }
        let prefix = format!("{walked_dir}/");
        let from = self
            .sorted
            .partition_point(|(d, _)| d.as_str() < prefix.as_str());
        for (d, i) in &self.sorted[from..] {
            if !d.starts_with(&prefix) {
                break;
            }
            f(&self.all[*i]);
        }
        // Directories above it: each ancestor in turn, deep enough.
        let mut ancestor = walked_dir;
        while let Some(cut) = ancestor.rfind('/') {
            ancestor = &ancestor[..cut];
            let at = self.sorted.partition_point(|(d, _)| d.as_str() < ancestor);
            for (d, i) in &self.sorted[at..] {
                if d != ancestor {
                    break;
                }
                let a = &self.all[*i];
                if a.deep_enough(below(walked, d)) {
                    f(a);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `Anchors::reaching` finds, as sorted anchor indexes.
    fn found(anchors: &Anchors, walked: &str, cwd: Option<&str>) -> Vec<usize> {
        let mut out = Vec::new();
        anchors.reaching(walked, cwd, |a| out.push(a.rule));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// What each anchor's own `reaches` says, one by one.
    fn linear(all: &[Anchor], walked: &str, cwd: Option<&str>) -> Vec<usize> {
        all.iter()
            .filter(|a| !a.anywhere && a.reaches(walked, cwd))
            .map(|a| a.rule)
            .collect()
    }

    #[test]
    fn reaching_examples() {
        let globs = [
            "/home/u/.ssh/**",
            "/srv/p1/secret/**",
            "/srv/p10/**",
            "/srv/p1/*",
            "/*/x",
            "/etc/*/x",
            "**/.env",
        ];
        let all: Vec<Anchor> = globs
            .iter()
            .enumerate()
            .map(|(i, g)| Anchor::of(i, g, false, false))
            .collect();
        let anchors = Anchors::new(all);
        assert_eq!(found(&anchors, "/home", None), vec![0, 4]);
        assert_eq!(found(&anchors, "/srv/p1", None), vec![1, 3]);
        assert_eq!(found(&anchors, "/srv/p1/a", None), Vec::<usize>::new());
        assert_eq!(found(&anchors, "/srv/p10/a/b", None), vec![2]);
        assert_eq!(found(&anchors, "/etc", None), vec![4, 5]);
        assert_eq!(found(&anchors, "/etc/a", None), vec![5]);
        assert_eq!(found(&anchors, "/", None), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(
            anchors.anywhere().map(|a| a.rule).collect::<Vec<_>>(),
            vec![6]
        );
    }

    fn component() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("a".to_string()),
            Just("a0".to_string()),
            Just("a!".to_string()),
            Just("b".to_string()),
            Just("*".to_string()),
            Just("**".to_string()),
            Just(".ssh".to_string()),
        ]
    }

    proptest! {
        /// The index finds what each anchor's `reaches` finds, for any glob and walk.
        #[test]
        fn reaching_is_reaches(
            globs in prop::collection::vec(
                (prop::collection::vec(component(), 0..5), any::<bool>()), 1..12),
            walked in prop::collection::vec(
                prop_oneof![Just("a"), Just("a0"), Just("a!"), Just("a-"), Just("b"), Just(".ssh")], 0..5),
            trailing in any::<bool>(),
            cwd in prop::option::of(prop::collection::vec(prop_oneof![Just("a"), Just("b")], 0..3)),
        ) {
            let all: Vec<Anchor> = globs
                .iter()
                .enumerate()
                .map(|(i, (comps, relative))| {
                    let glob = if *relative { comps.join("/") } else { format!("/{}", comps.join("/")) };
                    Anchor::of(i, &glob, *relative, false)
                })
                .collect();
            let mut walked = format!("/{}", walked.join("/"));
            if trailing && walked.len() > 1 {
                walked.push('/');
            }
            let cwd = cwd.map(|c| format!("/{}", c.join("/")));
            let anchors = Anchors::new(all.clone());
            prop_assert_eq!(found(&anchors, &walked, cwd.as_deref()), linear(&all, &walked, cwd.as_deref()));
        }
    }
}
