//! The globs of fnmatch(3), as GNU grep, find and tar read them (and git's pathspecs,
//! which match as fnmatch does without `FNM_PATHNAME`), turned into globset's.

use globset::GlobMatcher;

/// The glob grep's, find's and tar's fnmatch reads in TEXT; Err where globset would
/// read it otherwise: POSIX classes, collating symbols and equivalence classes (`[:`,
/// `[.`, `[=` anywhere), and a backslash in a pattern with a bracket (fnmatch takes
/// `\` in `[a\-z]` as an escape, globset as a member). fnmatch has no `**` (two stars
/// are one: `**/.env` matches no name without a `/`, where globset's `**/` matches
/// nothing at all) and no braces (`*.{md,txt}` is a name with braces): runs of stars
/// are made one and braces escaped for globset. Checked against GNU grep and find by
/// `tests/name_globs_real.rs`. In any case when FOLD (`find -iname`: fnmatch's
/// `FNM_CASEFOLD`), where a bracket or a letter past ASCII is not read (how a range
/// folds, and `İ` or the Kelvin sign, are the locale's: helper-56).
pub(super) fn fnmatch(text: &str, fold: bool) -> Result<GlobMatcher, ()> {
    if ["[:", "[.", "[="].iter().any(|s| text.contains(s))
        || (text.contains('[') && (text.contains('\\') || fold))
        || (fold && !text.is_ascii())
    {
        return Err(());
    }
    let mut glob = String::with_capacity(text.len() + 4);
    let mut chars = text.chars().peekable();
    let mut bracket = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                glob.push(c);
                if let Some(next) = chars.next() {
                    glob.push(next);
                }
                continue;
            }
            '[' if !bracket => {
                bracket = true;
                glob.push(c);
                // `[!]x]`, `[]x]`: a `]` first is a member.
                if let Some(&n) = chars.peek().filter(|n| matches!(n, '!' | '^')) {
                    glob.push(n);
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    glob.push(']');
                    chars.next();
                }
                continue;
            }
            ']' if bracket => bracket = false,
            '*' if !bracket && glob.ends_with('*') && !glob.ends_with("\\*") => continue,
            '{' | '}' | ',' if !bracket => glob.push('\\'),
            _ => {}
        }
        glob.push(c);
    }
    globset::GlobBuilder::new(&glob)
        .case_insensitive(fold)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|_| ())
}
