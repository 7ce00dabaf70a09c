//! `exec`: the command it runs, a login shell (`exec -l`) or a renamed program (`exec -a`).

use super::*;

/// `exec [-cl] [-a NAME] CMD...`.
pub(in crate::shell::wrap) fn exec(words: &[Word], st: &mut State) -> Step {
    let step = inner_after(words, &EXEC);
    if let Step::Inner(k) = &step {
        // A `-` before argv[0] (`-l`, `-a -bash`) makes a shell a login shell.
        let opts = words.get(1..*k).unwrap_or(&[]);
        let login = opts.iter().any(|w| {
            let Some(body) = w.text.strip_prefix('-').filter(|b| !b.starts_with('-')) else {
                return false;
            };
            // `-a NAME` glued: `-a-bash`, `-la-x`.
            match body.find('a') {
                Some(a) => body[..a].contains('l') || body[a + 1..].starts_with('-'),
                None => body.contains('l'),
            }
        }) || opts.windows(2).any(|p| {
            p[0].text.starts_with('-') && p[0].text.ends_with('a') && p[1].text.starts_with('-')
        });
        if login {
            note(
                    &mut st.opaque,
                    "`exec -l` (or `-a -NAME`) starts a login shell, which runs the profile files first",
                );
        }
        // `exec -a git-grep git -Orm .` is `git grep -Orm .`, and stdbuf looks
        // for its library beside its name: what a program does by its name is
        // not what the words say.
        let renamed = opts.iter().any(|w| {
            w.text
                .strip_prefix('-')
                .is_some_and(|b| !b.starts_with('-') && b.contains('a'))
        });
        if renamed {
            note(
                    &mut st.uncertain,
                    "`exec -a NAME` runs a program under another name, which some act on (`git-NAME` is `git NAME`)",
                );
        }
    }
    step
}
