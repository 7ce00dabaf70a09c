//! Plain command lines, split without brush-parser.

use super::walk::RESERVED;

/// The simple commands of SRC when it is plain, else None.
///
/// Plain means: words of ordinary characters (ASCII letters, digits and
/// `-_./,:@%+`) separated by blanks, commands separated by `;`, `&&`, `||`
/// and `|`, no reserved word and no `=` anywhere. Bash reads such a line as
/// exactly these words, quote removal and expansion change none of them, and
/// no redirection, substitution, glob, brace or assignment can hide in it;
/// so the words go to [`wrap::command`] as brush-parser's walk would give
/// them, at a tenth of its cost. Anything else (an empty command, a trailing
/// operator, `&`, `|&`, `;;`, a newline) is left to brush-parser.
/// `tests/shell.rs` checks the two agree on generated lines.
pub(crate) fn plain_commands(src: &str) -> Option<Vec<Vec<&str>>> {
    let plain = |c: u8| c.is_ascii_alphanumeric() || b"-_./,:@%+".contains(&c);
    let bytes = src.as_bytes();
    let mut commands = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        if c == b' ' || c == b'\t' {
            i += 1;
        } else if plain(c) {
            let start = i;
            while bytes.get(i).is_some_and(|&c| plain(c)) {
                i += 1;
            }
            let w = &src[start..i];
            if RESERVED.contains(&w) {
                return None;
            }
            current.push(w);
        } else {
            let len = match (c, bytes.get(i + 1)) {
                (b'&', Some(b'&')) | (b'|', Some(b'|')) => 2,
                (b'|' | b';', _) => 1,
                _ => return None,
            };
            if current.is_empty() {
                return None;
            }
            commands.push(std::mem::take(&mut current));
            i += len;
        }
    }
    if current.is_empty() {
        return None;
    }
    commands.push(current);
    Some(commands)
}
