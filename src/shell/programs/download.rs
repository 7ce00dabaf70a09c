//! The files downloaders name after their URLs: `wget URL` saves the URL's last path
//! component (`index.html` for a directory) in the current directory, and so does `curl
//! -O URL`. The name comes from the URL the line shows, so the reading adds it as a
//! written [`Kind::Implied`] part: `wget https://x.org/.bashrc` run from `~` writes
//! `~/.bashrc` when it does not exist yet.

use super::{Kind, Part, Reading, Role};

/// The file names a download of URL is saved under: the last component of its path
/// (without the fragment; with QUERY, also with its query: wget saves `a?x=1`),
/// `DIRECTORY` when the path names a directory (None: the program refuses such a URL),
/// and the name percent-decoded too when it holds a `%` (wget decodes, curl does not).
/// Empty when the URL's name is not known from its text (a glob `[1-3]`, `{a,b}`).
fn saved_names(url: &str, directory: Option<&str>, globs: bool, query: bool) -> Vec<String> {
    if globs && url.contains(['[', '{']) {
        return Vec::new();
    }
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
        .flat_map(|p| saved_names(&p.text, Some("index.html"), false, true))
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

/// curl: a `file:` URL reads (with `-T`, writes) the local path it names; with `-O`
/// (`--remote-name`) or `--remote-name-all`, the URLs are saved under their names in
/// the current directory (or `--output-dir`, looked at both ways). A URL with a glob
/// (`[1-10]`, `{a,b}`, unless `-g`) names files the reading does not know.
pub(super) fn curl_files(r: &mut Reading) {
    curl_local(r);
    curl_saves(r);
}

/// The local files of curl's `file:` URLs (see [`curl_files`]).
fn curl_local(r: &mut Reading) {
    let upload = r.parts.iter().any(|p| {
        p.kind == Kind::Option
            && (p.text == "--upload-file"
                || p.text.starts_with("--upload-file=")
                || (!p.text.starts_with("--")
                    && p.text
                        .strip_prefix('-')
                        .is_some_and(|b| short_in_bundle(b, 'T'))))
    });
    let globs = !r.parts.iter().any(|p| {
        p.kind == Kind::Option
            && (p.text == "--globoff"
                || (!p.text.starts_with("--")
                    && p.text
                        .strip_prefix('-')
                        .is_some_and(|b| short_in_bundle(b, 'g'))))
    });
    let role = if upload { Role::Write } else { Role::Read };
    let urls: Vec<String> = curl_urls(r);
    for url in urls {
        let paths = file_url_paths(&url);
        if paths.is_empty() {
            continue;
        }
        if globs && url.contains(['[', '{']) {
            r.unknown.push(url.clone());
            continue;
        }
        for text in paths {
            r.parts.push(Part {
                text,
                kind: Kind::Implied,
                role,
            });
        }
    }
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

/// The files curl's `-O` saves (see [`curl_files`]).
fn curl_saves(r: &mut Reading) {
    let option = |short: char, long: &str| {
        r.parts.iter().any(|p| {
            p.kind == Kind::Option
                && match p.text.strip_prefix("--") {
                    Some(l) => l == long,
                    None => p
                        .text
                        .strip_prefix('-')
                        .is_some_and(|b| short_in_bundle(b, short)),
                }
        })
    };
    if !option('O', "remote-name") && !option('\0', "remote-name-all") {
        return;
    }
    let globs = !option('g', "globoff");
    let urls = curl_urls(r);
    for url in urls {
        let names = saved_names(&url, None, globs, false);
        if names.is_empty() {
            r.unknown.push(format!("-O {url}"));
        }
        add_written(r, names);
    }
}

/// Whether the bundle B (an option word without its dash) holds the flag SHORT before
/// any of curl's options that take a value (whose value is the rest of the word).
fn short_in_bundle(b: &str, short: char) -> bool {
    // curl's short options that take a value (`curl --help all`).
    const VALUED: &str = "bcCdDeEFHKmoPQrTtuUwxXYyz";
    for c in b.chars() {
        if c == short {
            return true;
        }
        if VALUED.contains(c) {
            return false;
        }
    }
    false
}
