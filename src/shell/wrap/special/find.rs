//! `find -exec`, `-execdir`, `-ok`, `-okdir`: the commands find runs.

use super::*;

/// `find` is a command; each `-exec CMD ... ;` (`-execdir`, `-ok`, `-okdir`, or `+`
/// after `{}`) is another, written as the whole find command.
pub(in crate::shell::wrap) fn find(
    cx: &mut Cx,
    fr: &Frame,
    words: &[Word],
    st: &State,
    hops: usize,
) {
    let mut own = st.clone();
    if let Some(w) = words.iter().find(|w| !w.is_static) {
        note(
            &mut own.opaque,
            format!("`find` argument `{}` is not static", show(&w.text)),
        );
    }
    emit(cx, words, own);
    // The starting points: the words after the options (`-H`, `-L`, `-P`, `-D X`,
    // `-OLEVEL`) up to the first expression word; `.` when none.
    let mut k = 1;
    while let Some(t) = words.get(k).map(|w| w.text.as_str()) {
        match t {
            "-H" | "-L" | "-P" => k += 1,
            "-D" => k += 2,
            _ if t.starts_with("-O") => k += 1,
            _ => break,
        }
    }
    let mut starts: Vec<String> = words
        .iter()
        .skip(k)
        .take_while(|w| !w.text.starts_with('-') && !matches!(w.text.as_str(), "(" | "!" | ","))
        .map(|w| w.text.clone())
        .collect();
    if starts.is_empty() {
        starts.push(".".to_owned());
    }
    let mut execs = 0;
    let mut j = 1;
    while let Some(w) = words.get(j) {
        j += 1;
        // A primary's value is not a primary (`-name -exec`).
        let t = w.text.as_str();
        if FIND_VALUED.contains(&t) || (t.starts_with("-newer") && t.len() == 8) {
            j += 1;
            continue;
        }
        if t == "-fprintf" {
            j += 2;
            continue;
        }
        if !matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
            continue;
        }
        // Each command is read with the whole `find` line: a bound keeps many of
        // them from costing the square of the line.
        execs += 1;
        if execs > MAX_FIND_EXECS {
            cx.truncate(format!("more than {MAX_FIND_EXECS} commands in one `find`"));
            break;
        }
        let start = j;
        let mut end = None;
        while let Some(u) = words.get(j) {
            let prev_braces = j > start && words.get(j - 1).is_some_and(|p| p.text == "{}");
            if u.text == ";" || (u.text == "+" && prev_braces) {
                end = Some(j);
                break;
            }
            j += 1;
        }
        let stop = end.unwrap_or(words.len());
        let segment = words.get(start..stop).unwrap_or(&[]);
        let mut inner = st.clone();
        // `{}` is any file under the starting points (`find .. -exec rm -rf {} +`).
        if segment.iter().any(|u| u.text.contains("{}")) {
            inner.path_words.extend(starts.iter().cloned());
        }
        if let Some(why) = names_as_code(segment) {
            note(&mut inner.uncertain, why);
        }
        if matches!(w.text.as_str(), "-execdir" | "-okdir") {
            note(
                &mut inner.uncertain,
                format!(
                    "`find {}` runs its command in each file's directory",
                    w.text
                ),
            );
        }
        // GNU find puts each file's name in place of `{}` inside a word too.
        if let Some(u) = segment
            .iter()
            .find(|u| u.text != "{}" && u.text.contains("{}"))
        {
            note(
                &mut inner.uncertain,
                format!("`find` puts each file's name into `{}`", show(&u.text)),
            );
        }
        if end.is_none() {
            note(
                &mut inner.opaque,
                format!("`find {}` is not terminated", w.text),
            );
        }
        if segment.is_empty() {
            cx.line_opaque(format!("`find {}` without a command", w.text));
        } else {
            // Once for each file found (`;`) or each batch of them (`+`).
            cx.repeated(crate::shell::Runs::Any, |cx| {
                through(cx, fr, segment, inner, hops + 1);
            });
        }
        j = stop + 1;
    }
}

/// Most `-exec` (and `-ok`...) commands read in one `find`.
const MAX_FIND_EXECS: usize = 16;

/// The primaries of `find` that take one value (`-newerXY` too).
const FIND_VALUED: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
    "-type",
    "-xtype",
    "-user",
    "-group",
    "-uid",
    "-gid",
    "-perm",
    "-size",
    "-mtime",
    "-atime",
    "-ctime",
    "-mmin",
    "-amin",
    "-cmin",
    "-used",
    "-newer",
    "-anewer",
    "-cnewer",
    "-samefile",
    "-inum",
    "-links",
    "-maxdepth",
    "-mindepth",
    "-printf",
    "-fprint",
    "-fprint0",
    "-fls",
    "-context",
    "-regextype",
    "-files0-from",
    "-fstype",
];
