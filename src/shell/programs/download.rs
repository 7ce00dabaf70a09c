//! The files downloaders name after their URLs: `wget URL` saves the URL's last path
//! component (`index.html` for a directory) in the current directory, and so does `curl
//! -O URL`. The name comes from the URL the line shows, so the reading adds it as a
//! written [`Kind::Implied`] part: `wget https://x.org/.bashrc` run from `~` writes
//! `~/.bashrc` when it does not exist yet.

use super::{curl_glob, Kind, Part, Reading, Role};

/// The file names a download of URL is saved under: the last component of its path
/// (without the fragment; with QUERY, also with its query: wget saves `a?x=1`),
/// `DIRECTORY` when the path names a directory (None: the program refuses such a URL),
/// and the name percent-decoded too when it holds a `%` (wget decodes, curl does not).
/// Empty when the URL's name is not known from its text (a glob `[1-3]`, `{a,b}`).
fn saved_names(url: &str, directory: Option<&str>, query: bool) -> Vec<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split('#').next().unwrap_or("");
    let (rest, asked) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    // The host is the first component; the path the rest.
    let path = rest.split_once('/').map_or("", |(_, p)| p);
    let base = path.rsplit('/').next().unwrap_or("");
    let mut out = Vec::new();
    match (base, directory) {
        ("" | "." | "..", Some(d)) => out.push(d.to_owned()),
        ("" | "." | "..", None) => {}
        (b, _) => {
            out.push(b.to_owned());
            if let Some(decoded) = percent_decoded(b).filter(|d| d != b) {
                out.push(decoded);
            }
        }
    }
    if let (true, Some(q), Some(name)) = (query, asked, out.first().cloned()) {
        out.push(format!("{name}?{}", q.replace('/', "%2F")));
    }
    out
}

/// TEXT with its `%XX` escapes decoded, when they decode to UTF-8.
fn percent_decoded(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while let Some(&b) = bytes.get(k) {
        let hex = bytes
            .get(k + 1..k + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                k += 3;
            }
            _ => {
                out.push(b);
                k += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Add to R a written part for each name in NAMES, after its last part.
fn add_written(r: &mut Reading, names: Vec<String>) {
    for name in names {
        if !r
            .parts
            .iter()
            .any(|p| p.text == name && p.role == Role::Write)
        {
            r.parts.push(Part {
                text: name,
                kind: Kind::Implied,
                role: Role::Write,
            });
        }
    }
}

/// The option word WORD (an option part as written) of wget: whether the option whose
/// value follows it is `-O` (`--output-document`, or an abbreviation of it that only
/// it has: `--output-d`; a bundle whose first option with a value is `O`).
fn wget_output_document(word: &str) -> bool {
    if let Some(long) = word.strip_prefix("--") {
        let name = long.split_once('=').map_or(long, |(n, _)| n);
        return name.len() >= "output-d".len() && "output-document".starts_with(name);
    }
    // wget's short options that take a value.
    const VALUED: &str = "oaOiPeTtwQUlDAR";
    word.strip_prefix('-')
        .and_then(|b| b.chars().find(|c| VALUED.contains(*c)))
        == Some('O')
}

/// wget: unless `-O FILE` names the one file it writes, each URL is saved under its
/// name (`index.html` for a directory) in the current directory (or `-P DIR`, which
/// the reading looks at both ways).
pub(super) fn wget_saves(r: &mut Reading) {
    let to_document = r.parts.windows(2).any(|w| {
        w[0].kind == Kind::Option
            && w[1].kind == Kind::Value
            && w[1].role == Role::Write
            && wget_output_document(&w[0].text)
    });
    if to_document {
        return;
    }
    let names: Vec<String> = r
        .parts
        .iter()
        .filter(|p| p.kind == Kind::Operand && p.role == Role::Url)
        .flat_map(|p| saved_names(&p.text, Some("index.html"), true))
        .collect();
    add_written(r, names);
}

/// The local path a `file:` URL names (`file:///p`, `file://HOST/p`, `file:/p`, any
/// case), with the query and fragment cut off too when it has them: curl reads it
/// (`curl file:///home/u/.ssh/id_rsa` prints the key), or writes it with `-T`.
fn file_url_paths(url: &str) -> Vec<String> {
    let Some(rest) = url
        .get(..5)
        .filter(|s| s.eq_ignore_ascii_case("file:"))
        .and_then(|_| url.get(5..))
    else {
        return Vec::new();
    };
    let path = match rest.strip_prefix("//") {
        Some(after) => after.find('/').map_or("", |k| &after[k..]),
        None => rest,
    };
    if path.is_empty() {
        return Vec::new();
    }
    let mut out = vec![path.to_owned()];
    let cut = path.split(['?', '#']).next().unwrap_or(path);
    for p in [cut.to_owned()]
        .into_iter()
        .chain(percent_decoded(path))
        .chain(percent_decoded(cut))
    {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The files a curl `--write-out` FORMAT writes: each `%output{NAME}` or
/// `%output{>>NAME}` (helper-46's lead).
fn output_files(format: &str) -> Vec<String> {
    format
        .split("%output{")
        .skip(1)
        .filter_map(|rest| rest.split_once('}'))
        .map(|(name, _)| name.strip_prefix(">>").unwrap_or(name).to_owned())
        .filter(|name| !name.is_empty())
        .collect()
}

/// The file of curl's `--cert CERT:PASSWORD` value V, when it has a password: up to the
/// first `:` that no `\` escapes, `\:` read as `:` and `\\` as `\`.
fn cert_file(v: &str) -> Option<String> {
    let mut file = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(x @ (':' | '\\')) => file.push(x),
                Some(x) => {
                    file.push('\\');
                    file.push(x);
                }
                None => file.push('\\'),
            },
            ':' => return Some(file),
            c => file.push(c),
        }
    }
    None
}

/// curl: a `file:` URL reads (with `-T`, writes) the local path it names; with `-O`
/// (`--remote-name`) or `--remote-name-all`, the URLs are saved under their names in
/// the current directory (or `--output-dir`, looked at both ways). Unless `-g`, curl
/// expands globs itself (see `curl_glob`: `{.ssh}`, `[1-3]`, which bash leaves alone) in
/// its URLs and in the files `-T` uploads, and puts what they matched for `#1`, `#2`...
/// in the names `-o` gives: each name they give is read; a glob that gives too many, or
/// that curl refuses, names files the reading does not know.
pub(super) fn curl_files(r: &mut Reading) {
    let globs = !r.has_option("globoff");
    let expand = |w: &str| match globs && w.contains(['[', '{']) {
        true => curl_glob::expand(w),
        false => Some(vec![(w.to_owned(), Vec::new())]),
    };
    let mut added: Vec<(String, Role)> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for v in r.option_values("upload-file") {
        match expand(v) {
            Some(names) => added.extend(
                names
                    .into_iter()
                    .filter(|(t, _)| t != v)
                    .map(|(t, _)| (t, Role::Read)),
            ),
            None => unknown.push(format!("-T {v}")),
        }
    }
    // `-E FILE:PASSWORD`: curl opens FILE, the word up to its first `:` not after a `\`
    // (the whole word is read too).
    for v in ["cert", "proxy-cert"]
        .into_iter()
        .flat_map(|o| r.option_values(o))
    {
        if let Some(file) = cert_file(v) {
            added.push((file, Role::Read));
        }
    }
    let urls: Vec<(String, Option<Vec<curl_glob::Expansion>>)> = curl_urls(r)
        .into_iter()
        .map(|u| (u.clone(), expand(&u)))
        .collect();
    let saves = r.has_option("remote-name") || r.has_option("remote-name-all");
    // `-o NAME#1`: for each name a globbed URL gives.
    let outputs: Vec<&str> = r
        .option_values("output")
        .into_iter()
        .filter(|v| has_glob_reference(v))
        .collect();
    for (url, names) in &urls {
        match names {
            Some(names) => {
                for o in &outputs {
                    for (_, matches) in names.iter().filter(|(_, m)| !m.is_empty()) {
                        added.push((curl_glob::fill(o, matches), Role::Write));
                    }
                }
            }
            // Only where its names are files: a `file:` URL, `-O`, `-o NAME#1`.
            None if is_file_url(url) || saves || !outputs.is_empty() => unknown.push(url.clone()),
            None => {}
        }
    }
    // The local files of `file:` URLs.
    let role = if r.has_option("upload-file") {
        Role::Write
    } else {
        Role::Read
    };
    for (_, names) in &urls {
        for (name, _) in names.iter().flatten() {
            added.extend(file_url_paths(name).into_iter().map(|p| (p, role)));
        }
    }
    // The files `-O` saves.
    if saves {
        for (url, names) in &urls {
            let saved: Vec<String> = names
                .iter()
                .flatten()
                .flat_map(|(name, _)| saved_names(name, None, false))
                .collect();
            if saved.is_empty() && names.is_some() {
                unknown.push(format!("-O {url}"));
            }
            added.extend(saved.into_iter().map(|s| (s, Role::Write)));
        }
    }
    // curl 8.3 and later: `-w '%output{FILE}'` (`%output{>>FILE}` appends) sends the
    // rest of the format to FILE; a format read from a file may name any.
    for v in r.option_values("write-out") {
        match v.strip_prefix('@') {
            Some(_) => unknown.push(format!("-w {v} (its `%output{{FILE}}` writes FILE)")),
            None => added.extend(output_files(v).into_iter().map(|f| (f, Role::Write))),
        }
    }
    r.unknown.extend(unknown);
    for (text, role) in added {
        if !r.parts.iter().any(|p| p.text == text && p.role == role) {
            r.parts.push(Part {
                text,
                kind: Kind::Implied,
                role,
            });
        }
    }
}

/// Whether URL is a `file:` URL (any case).
fn is_file_url(url: &str) -> bool {
    url.get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
}

/// Whether curl's output name V holds `#N`, which curl replaces with what the URL's
/// Nth glob matched.
fn has_glob_reference(v: &str) -> bool {
    v.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'#' && w[1].is_ascii_digit())
}

/// curl's URLs: its operands, and the values of `--url` (not those of `-x`, a proxy).
fn curl_urls(r: &Reading) -> Vec<String> {
    r.parts
        .iter()
        .enumerate()
        .filter(|(k, p)| {
            p.role == Role::Url
                && (p.kind == Kind::Operand
                    || k.checked_sub(1)
                        .and_then(|b| r.parts.get(b))
                        .is_some_and(|o| o.text == "--url" || o.text.starts_with("--url=")))
        })
        .map(|(_, p)| p.text.clone())
        .collect()
}
