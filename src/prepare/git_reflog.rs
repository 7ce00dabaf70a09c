//! git's log of HEAD (`logs/HEAD`), its entries read as git writes them: where one is
//! not, the previous branch (`-`, `@{-N}`) is not read from it.

/// Whether LINE is a reflog entry as git writes it: `OLD NEW NAME <EMAIL> TIME ZONE`,
/// then a tab and the message, or nothing where there is no message (`git update-ref`
/// without `-m`); `TIME` no zero, `ZONE` `+hhmm` or `-hhmm`, no NUL anywhere.
pub(super) fn reflog_entry(line: &str) -> bool {
    // (git reads the message as a C string: a NUL ends it, helper-95.)
    if line.contains('\0') {
        return false;
    }
    let head = line.split_once('\t').map_or(line, |(head, _)| head);
    let hex = |w: &str| w.len() == 40 && w.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let (Some(old), Some(new)) = (head.get(..40), head.get(41..81)) else {
        return false;
    };
    if !hex(old) || !hex(new) || head.as_bytes().get(40) != Some(&b' ') {
        return false;
    }
    let who = &head[81..];
    let (Some(open), Some(close)) = (who.find('<'), who.rfind('>')) else {
        return false;
    };
    let email = &who[open + 1..close];
    let when: Vec<&str> = who[close + 1..].split(' ').collect();
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    !email.contains(['<', '>'])
        && who.starts_with(' ')
        && matches!(when.as_slice(), ["", time, zone]
            if digits(time) && !time.starts_with('0')
                && zone.len() == 5 && zone.starts_with(['+', '-']) && digits(&zone[1..]))
}
