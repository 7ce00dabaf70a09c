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
        let dir = if self.relative {
            let Some(cwd) = cwd else { return true };
            match self.dir.as_str() {
                "" => cwd.to_string(),
                d => format!("{}/{d}", cwd.trim_end_matches('/')),
            }
        } else {
            self.dir.clone()
        };
        // The walk reaches the directory the glob starts at.
        if is_within(&dir, walked) {
            return true;
        }
        // It starts inside the glob's directory: deep enough?
        if is_within(walked, &dir) {
            let below = walked[dir.trim_end_matches('/').len()..]
                .split('/')
                .filter(|c| !c.is_empty())
                .count();
            return self.deep || below < self.depth;
        }
        false
    }
}
