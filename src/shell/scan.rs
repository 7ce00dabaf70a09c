//! The raw scan of a command line's text, beside the parse, for the second looks that
//! deny-side rules get at a line outside the certain subset, where a parser may read as
//! data what bash runs.
//!
//! The scan follows bash's quoting contexts with a stack: single quotes, `$'...'` (where
//! `\'` escapes the quote), double quotes, `${...}` (inside double quotes a `'` there is
//! an ordinary character and `"` opens a nested string; outside, both quote), `$(...)`,
//! backquotes, comments (a `#` that starts a word, to the end of the line), and
//! here-documents read as bash reads them: the body starts after the line that holds the
//! operator; in an unquoted body a backslash-newline joins two lines before the line is
//! compared with the delimiter; `<<-` strips leading tabs from the joined line; a missing
//! delimiter ends the body at the end of the text.
//!
//! What the scan finds ([`Scan`]) is read by [`super::looks`] into the second looks and
//! the scripts; the walk asks it how many words a text has ([`words_up_to`]) and for a
//! text without its comments ([`without_comments`]).

use std::borrow::Cow;

/// The context a command line starts in.
pub(super) const TOP: Ctx = Ctx::Normal {
    paren: false,
    arith: false,
};

/// Longest text scanned: the longest line parsed.
pub(super) const MAX_SCANNED: usize = super::guard::MAX_LINE;

/// Most substitutions one scan collects.
pub(super) const MAX_REGIONS: usize = 256;

/// Deepest nesting of quoting contexts followed.
const MAX_CONTEXTS: usize = 256;

/// A quoting context of bash's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Ctx {
    /// Unquoted text of a command line, or of a `$(...)` in it (`paren`: a `)` closes
    /// it; `arith`: inside an arithmetic command `((...))`, where `#` starts no comment).
    Normal {
        paren: bool,
        arith: bool,
    },
    /// `'...'`; `sub`: after a `[` (`a['$(x)']=1`, `printf -v 'a[$(x)]'`), where the
    /// text may reach bash's arithmetic as a subscript, which bash expands like text in
    /// double quotes: a `$(` or backquote after it runs.
    Single {
        sub: bool,
    },
    /// `$'...'`.
    AnsiC,
    Double,
    /// `${...}`, inside double quotes or not; `arith`: a subscript or a substring's
    /// offset follows the name (`${a['$(x)']}`, `${x:'$(x)'}`), arithmetic, where a
    /// `'` quotes nothing.
    Brace {
        in_double: bool,
        arith: bool,
    },
    /// `$[...]`, the old arithmetic expansion: a `'` quotes nothing.
    Bracket,
    Backquote,
    /// The body of an unquoted here-document: quotes are ordinary characters.
    Body,
}

/// A substitution found by a scan.
#[derive(Clone)]
pub(super) enum Region {
    /// The text from byte offset `at` up to the `)` that closes it in the scan's model
    /// (`end`), or to the end of the text when none does, or when the scan's model may
    /// close it too early: a `case` pattern's `)` closes nothing in bash.
    From { at: usize, end: Option<usize> },
    /// The command of a backquoted substitution.
    Text(String),
}

/// Most other ends tried for a substitution whose end the scan cannot tell.
const MAX_CUTS: usize = 16;

impl Region {
    /// The texts bash may read for this substitution of WHOLE: one, or, when the scan
    /// cannot tell where it ends, the rest of WHOLE first, then the text up to each of
    /// the next [`MAX_CUTS`] `)` (bash ends it at the `)` its parser closes it with).
    pub(super) fn texts(self, whole: &str) -> Vec<String> {
        match self {
            Region::From { at, end } => {
                let span = end.and_then(|end| whole.get(at..end));
                match span {
                    Some(span) if !span.contains("case") => vec![span.to_string()],
                    _ => {
                        let rest = whole.get(at..).unwrap_or("");
                        let mut out = vec![rest.to_string()];
                        let cuts = rest.match_indices(')').map(|(k, _)| k).take(MAX_CUTS);
                        out.extend(cuts.map(|k| rest[..k].to_string()));
                        out
                    }
                }
            }
            Region::Text(t) => vec![t],
        }
    }
}

/// A here-document waiting for its body.
struct Pending {
    delimiter: String,
    quoted: bool,
    strip_tabs: bool,
    /// Which of the scan's edits replaces its operator.
    edit: usize,
}

/// What one scan found.
#[derive(Clone, Default)]
pub(super) struct Scan {
    /// Where a `$(`, `<(` or `>(` substitution's text starts (a byte offset), or the
    /// text of a backquoted one as bash reads it.
    pub(super) regions: Vec<Region>,
    /// Spans to take out of the text for the here-document view, with their
    /// replacement: operators (`<<WORD` to a here-string of the body bash reads) and
    /// bodies (to nothing).
    pub(super) edits: Vec<(usize, usize, Cow<'static, str>)>,
    /// The unquoted bodies, backslash-newlines joined.
    pub(super) bodies: Vec<String>,
    /// Comments: from a `#` that starts a word to the end of its line.
    pub(super) comments: Vec<(usize, usize)>,
    /// The words of here-strings, as written.
    pub(super) strings: Vec<(usize, usize)>,
    /// More than [`MAX_REGIONS`] substitutions were found: the rest are not in `regions`.
    pub(super) cut: bool,
    /// Words and operators read in unquoted text (see [`words_up_to`]).
    pub(super) words: usize,
}

impl Scan {
    /// There is room for one more region.
    fn room(&self) -> bool {
        self.regions.len() < MAX_REGIONS
    }

    /// Keep region R, if there is room.
    fn region(&mut self, r: Region) {
        if self.room() {
            self.regions.push(r);
        } else {
            self.cut = true;
        }
    }
}

/// The bytes of a shell operator.
const OPERATOR: [bool; 256] = byte_set(b";&|()<>");

/// The bytes after which a word starts: blanks, newline, operators.
const SEPARATES: [bool; 256] = byte_set(b" \t\n;&|()<>");

/// The bytes that mean something in unquoted text (with the word separators): a run
/// of other bytes inside a word is skipped at once.
const NORMAL_SPECIAL: [bool; 256] = byte_set(b" \t\n;&|()<>\\'\"$`#");

/// The bytes that mean something inside double quotes, `${...}` and unquoted
/// here-document bodies.
const DOUBLE_SPECIAL: [bool; 256] = byte_set(b"\\$`\"'}]<>");

/// The bytes that mean something inside single quotes: the closing quote, and what a
/// subscript may run.
const SINGLE_SPECIAL: [bool; 256] = byte_set(b"'[$`");

/// Where the run of bytes of BYTES from I that are not in SPECIAL ends.
fn skip_plain(bytes: &[u8], i: usize, special: &[bool; 256]) -> usize {
    bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| special[usize::from(b)]))
        .map_or(bytes.len(), |k| i + k)
}

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut out = [false; 256];
    let mut k = 0;
    while k < bytes.len() {
        out[bytes[k] as usize] = true;
        k += 1;
    }
    out
}

/// Shortest text whose scan is kept for the rest of a reading (see [`with_scans`]).
const MEMO_BYTES: usize = 4096;
/// Most scans kept.
const MEMO_SCANS: usize = 4;

thread_local! {
    /// The scans of long texts made in the current [`with_scans`] scope: one reading
    /// looks at the same line several times (its words, substitutions, comments,
    /// here-document view, here-strings), and each scan of a long line costs
    /// milliseconds.
    static SCANS: std::cell::RefCell<Option<Vec<(String, Scan)>>> =
        const { std::cell::RefCell::new(None) };
}

/// Run F with the scans of long texts kept until it returns (the outermost scope
/// drops them).
pub(crate) fn with_scans<T>(f: impl FnOnce() -> T) -> T {
    crate::scope::within(&SCANS, f)
}

/// F of the scan of TEXT from the top context kept in the [`with_scans`] scope, if
/// there is one.
fn kept<R>(text: &str, f: impl FnOnce(&Scan) -> R) -> Option<R> {
    if text.len() < MEMO_BYTES {
        return None;
    }
    SCANS.with(|m| {
        m.borrow()
            .as_ref()?
            .iter()
            .find(|(t, _)| t == text)
            .map(|(_, found)| f(found))
    })
}

pub(super) fn scan(text: &str, base: Ctx) -> Scan {
    if base != TOP {
        return scan_words(text, base, usize::MAX);
    }
    if let Some(found) = kept(text, Scan::clone) {
        return found;
    }
    let found = scan_words(text, base, usize::MAX);
    if text.len() >= MEMO_BYTES {
        SCANS.with(|m| {
            if let Some(m) = m.borrow_mut().as_mut() {
                if m.len() >= MEMO_SCANS {
                    m.remove(0);
                }
                m.push((text.to_owned(), found.clone()));
            }
        });
    }
    found
}

/// [`scan`] TEXT, stopping once more than MAX_WORDS words are read (see [`words_up_to`]).
fn scan_words(text: &str, base: Ctx, max_words: usize) -> Scan {
    let bytes = text.as_bytes();
    let mut out = Scan::default();
    let mut stack = vec![base];
    let mut pending: Vec<Pending> = Vec::new();
    let mut i = 0;
    // Just past the last character a backslash escaped, or a `)` that closed a
    // substitution (`\ #`, `\<newline>#` and `$(x)#` start no comment).
    let mut escaped = 0;
    // The substitutions open in the scan's model: the depth of the stack below their
    // context, and their region.
    let mut open: Vec<(usize, usize)> = Vec::new();
    // The here-string word being read: where it starts, and the depth of its context.
    let mut string: Option<(usize, usize)> = None;
    while i < bytes.len() {
        let b = bytes[i];
        let top = *stack.last().unwrap_or(&base);
        if let Some((start, depth)) = string {
            if stack.len() <= depth && SEPARATES[usize::from(b)] {
                if i > start {
                    out.strings.push((start, i));
                }
                string = None;
            }
        }
        let push = |stack: &mut Vec<Ctx>, c: Ctx| {
            if stack.len() < MAX_CONTEXTS {
                stack.push(c);
            }
        };
        let word_start = i == 0 || (i != escaped && SEPARATES[usize::from(bytes[i - 1])]);
        match top {
            Ctx::Single { sub } => match b {
                b'\'' => {
                    stack.pop();
                    i += 1;
                }
                // A subscript follows a name (`'a[$(x)]'`, `a'[$(x)]'`): a `[` after
                // anything else (`PS1='[\u@\h] '`) starts none.
                b'[' => {
                    if subscript_at(bytes, i) {
                        if let Some(top) = stack.last_mut() {
                            *top = Ctx::Single { sub: true };
                        }
                    }
                    i += 1;
                }
                b'$' if sub && bytes.get(i + 1) == Some(&b'(') => {
                    out.region(Region::From {
                        at: i + 2,
                        end: None,
                    });
                    i += 2;
                }
                // The substitution runs to its closing backquote, which opens none.
                b'`' if sub => {
                    out.region(backquoted(text, i + 1, false));
                    i = backquote_end(bytes, i + 1);
                }
                b'$' | b'`' => i += 1,
                _ => i = skip_plain(bytes, i, &SINGLE_SPECIAL),
            },
            Ctx::AnsiC => {
                match b {
                    b'\\' => i += 1,
                    b'\'' => {
                        stack.pop();
                    }
                    _ => {}
                }
                i += 1;
            }
            Ctx::Backquote => {
                match b {
                    b'\\' => i += 1,
                    b'`' => {
                        stack.pop();
                    }
                    b'$' if bytes.get(i + 1) == Some(&b'(') => out.region(Region::From {
                        at: i + 2,
                        end: None,
                    }),
                    _ => {}
                }
                i += 1;
            }
            Ctx::Double | Ctx::Body | Ctx::Brace { .. } | Ctx::Bracket => {
                let unquoted_brace = matches!(
                    top,
                    Ctx::Brace {
                        in_double: false,
                        ..
                    }
                );
                let quotes_quote = matches!(
                    top,
                    Ctx::Brace {
                        in_double: false,
                        arith: false
                    }
                );
                match b {
                    b'\\' => i += 2,
                    b'$' if bytes.get(i + 1) == Some(&b'(') => {
                        i = open_region(bytes, i, &mut stack, &mut out, &mut open);
                    }
                    // In an unquoted `${x:-...}` (any operator) bash runs `<(...)`.
                    b'<' | b'>' if unquoted_brace && bytes.get(i + 1) == Some(&b'(') => {
                        i = open_region(bytes, i, &mut stack, &mut out, &mut open);
                    }
                    // `${x:1<<E}` holds no here-document for bash, but does for
                    // brush-parser: the here-document view escapes it.
                    b'<' if matches!(top, Ctx::Brace { .. }) && bytes.get(i + 1) == Some(&b'<') => {
                        let run = bytes[i..].iter().take_while(|&&c| c == b'<').count();
                        let with = match run {
                            2 => Cow::Borrowed(r"\<\<"),
                            _ => Cow::Owned(r"\<".repeat(run)),
                        };
                        out.edits.push((i, i + run, with));
                        i += run;
                    }
                    b'$' if bytes.get(i + 1) == Some(&b'{') => {
                        let in_double = !unquoted_brace;
                        let arith = arith_parameter(bytes, i + 2);
                        push(&mut stack, Ctx::Brace { in_double, arith });
                        i += 2;
                    }
                    b'$' if bytes.get(i + 1) == Some(&b'[') => {
                        push(&mut stack, Ctx::Bracket);
                        i += 2;
                    }
                    b']' if top == Ctx::Bracket => {
                        stack.pop();
                        i += 1;
                    }
                    b'`' => {
                        if out.room() {
                            out.region(backquoted(text, i + 1, top == Ctx::Double));
                        } else {
                            out.cut = true;
                        }
                        push(&mut stack, Ctx::Backquote);
                        i += 1;
                    }
                    b'"' if top == Ctx::Double => {
                        stack.pop();
                        i += 1;
                    }
                    b'"' if matches!(top, Ctx::Brace { .. }) => {
                        push(&mut stack, Ctx::Double);
                        i += 1;
                    }
                    b'\'' if quotes_quote => {
                        push(&mut stack, Ctx::Single { sub: false });
                        i += 1;
                    }
                    b'}' if matches!(top, Ctx::Brace { .. }) => {
                        stack.pop();
                        i += 1;
                    }
                    _ => i = skip_plain(bytes, i + 1, &DOUBLE_SPECIAL),
                }
            }
            Ctx::Normal { paren, arith } => {
                if (word_start && !b.is_ascii_whitespace()) || OPERATOR[usize::from(b)] {
                    out.words += 1;
                    if out.words > max_words {
                        break;
                    }
                }
                match b {
                    b'\\' => {
                        i += 2;
                        escaped = i;
                    }
                    // In arithmetic bash reads a `'` as a letter: `$(( '$(x)' ))` runs `x`.
                    b'\'' if arith => i += 1,
                    b'\'' => {
                        let sub = i > 0 && bytes[i - 1] == b'[';
                        push(&mut stack, Ctx::Single { sub });
                        i += 1;
                    }
                    b'"' => {
                        push(&mut stack, Ctx::Double);
                        i += 1;
                    }
                    b'$' if bytes.get(i + 1) == Some(&b'\'') => {
                        push(&mut stack, Ctx::AnsiC);
                        i += 2;
                    }
                    b'$' | b'<' | b'>' if bytes.get(i + 1) == Some(&b'(') => {
                        i = open_region(bytes, i, &mut stack, &mut out, &mut open);
                    }
                    b'$' if bytes.get(i + 1) == Some(&b'{') => {
                        let arith = arith_parameter(bytes, i + 2);
                        push(
                            &mut stack,
                            Ctx::Brace {
                                in_double: false,
                                arith,
                            },
                        );
                        i += 2;
                    }
                    b'$' if bytes.get(i + 1) == Some(&b'[') => {
                        push(&mut stack, Ctx::Bracket);
                        i += 2;
                    }
                    b'`' => {
                        if out.room() {
                            out.region(backquoted(text, i + 1, false));
                        } else {
                            out.cut = true;
                        }
                        push(&mut stack, Ctx::Backquote);
                        i += 1;
                    }
                    b'(' if word_start && bytes.get(i + 1) == Some(&b'(') => {
                        let c = Ctx::Normal {
                            paren: true,
                            arith: true,
                        };
                        push(&mut stack, c);
                        push(&mut stack, c);
                        i += 2;
                    }
                    b'(' if paren => {
                        push(&mut stack, Ctx::Normal { paren: true, arith });
                        i += 1;
                    }
                    // `$(cmd)#x` is one word: a `#` right after a `)` starts no comment.
                    b')' if paren => {
                        stack.pop();
                        if let Some(&(_, r)) = open.last().filter(|o| o.0 == stack.len()) {
                            if let Some(Region::From { end, .. }) = out.regions.get_mut(r) {
                                *end = Some(i);
                            }
                            open.pop();
                        }
                        i += 1;
                        escaped = i;
                    }
                    b'#' if word_start && !arith => {
                        let start = i;
                        while i < bytes.len() && bytes[i] != b'\n' {
                            i += 1;
                        }
                        out.comments.push((start, i));
                    }
                    b'<' if bytes.get(i + 1) == Some(&b'<') && bytes.get(i + 2) == Some(&b'<') => {
                        i += 3;
                        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
                            i += 1;
                        }
                        string = Some((i, stack.len()));
                    }
                    // `<<` in arithmetic shifts bits.
                    b'<' if bytes.get(i + 1) == Some(&b'<') && arith => i += 2,
                    b'<' if bytes.get(i + 1) == Some(&b'<') => {
                        i = heredoc_operator(text, i, &mut pending, &mut out);
                    }
                    b'\n' => {
                        i += 1;
                        if !pending.is_empty() {
                            i = bodies(text, i, std::mem::take(&mut pending), &mut out);
                        }
                    }
                    // The rest of a run of ordinary bytes starts no word and means nothing.
                    _ if !NORMAL_SPECIAL[usize::from(b)] => {
                        i = skip_plain(bytes, i + 1, &NORMAL_SPECIAL);
                    }
                    _ => i += 1,
                }
            }
        }
    }
    if let Some((start, _)) = string.filter(|&(start, _)| start < bytes.len()) {
        out.strings.push((start, bytes.len()));
    }
    out
}

/// Whether the `${` parameter whose name starts at AT of BYTES is followed by arithmetic:
/// a subscript (`${a[...]}`) or a substring's offset (`${x:...}`, not `${x:-...}`).
fn arith_parameter(bytes: &[u8], at: usize) -> bool {
    let rest = bytes.get(at..).unwrap_or(&[]);
    let rest = rest.strip_prefix(b"!").unwrap_or(rest);
    let name = match rest.first() {
        Some(b'#' | b'?' | b'@' | b'*' | b'$' | b'!' | b'-') => 1,
        _ => rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count(),
    };
    match &rest[name.min(rest.len())..] {
        [b'[', ..] => true,
        [b':', next, ..] => !matches!(next, b'-' | b'=' | b'?' | b'+'),
        _ => false,
    }
}

/// Enter the `$(`, `<(` or `>(` at I of BYTES (`$((`: arithmetic, two contexts), a
/// region of OUT, open until the stack is back below its contexts (OPEN); return where
/// scanning goes on.
fn open_region(
    bytes: &[u8],
    i: usize,
    stack: &mut Vec<Ctx>,
    out: &mut Scan,
    open: &mut Vec<(usize, usize)>,
) -> usize {
    let arith = bytes[i] == b'$' && bytes.get(i + 2) == Some(&b'(');
    let c = Ctx::Normal { paren: true, arith };
    let depth = stack.len();
    let contexts = 1 + usize::from(arith);
    if depth + contexts <= MAX_CONTEXTS {
        stack.extend(std::iter::repeat_n(c, contexts));
        if out.room() {
            open.push((depth, out.regions.len()));
        }
    }
    out.region(Region::From {
        at: i + 2,
        end: None,
    });
    i + 2 + usize::from(arith)
}

/// Whether the `[` at AT of BYTES may start a subscript: it follows a name's letter,
/// quotes aside (`a['$(x)']`, `'a[$(x)]'`, `"a"'[$(x)]'`).
fn subscript_at(bytes: &[u8], at: usize) -> bool {
    bytes[..at]
        .iter()
        .rev()
        .find(|&&b| b != b'\'' && b != b'"')
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Just past the backquote that closes the backquoted text starting at AT of BYTES, in
/// single quotes (a backslash escapes the byte after it): or at the `'` that ends the
/// quotes first (nothing escapes it there), or the end of the text.
fn backquote_end(bytes: &[u8], at: usize) -> usize {
    let mut k = at;
    while k < bytes.len() {
        match bytes[k] {
            b'\'' => return k,
            b'\\' if bytes.get(k + 1) != Some(&b'\'') => k += 2,
            b'`' => return k + 1,
            _ => k += 1,
        }
    }
    bytes.len()
}

/// The command of the backquoted substitution whose text starts at AT, as bash reads
/// it: up to the first unescaped backquote (or the end of the text), with the
/// backslashes of `\$`, ``\` `` and `\\` taken out (and of `\"` when it is inside
/// double quotes, IN_DOUBLE).
fn backquoted(text: &str, at: usize, in_double: bool) -> Region {
    let mut out = String::new();
    let mut chars = text.get(at..).unwrap_or("").chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => break,
            '\\' => match chars.peek() {
                Some(&n) if matches!(n, '$' | '`' | '\\') || (in_double && n == '"') => {
                    out.push(n);
                    chars.next();
                }
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
    Region::Text(out)
}

/// Read the here-document operator at AT (`<<` or `<<-`, then its delimiter word);
/// return where scanning goes on.
fn heredoc_operator(text: &str, at: usize, pending: &mut Vec<Pending>, out: &mut Scan) -> usize {
    let bytes = text.as_bytes();
    let mut j = at + 2;
    let strip_tabs = bytes.get(j) == Some(&b'-');
    if strip_tabs {
        j += 1;
    }
    while bytes.get(j).is_some_and(|c| *c == b' ' || *c == b'\t') {
        j += 1;
    }
    let start = j;
    let mut quote: Option<u8> = None;
    while let Some(&c) = bytes.get(j) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'\\' => j += 1,
            None if b" \t\n;&|<>()".contains(&c) => break,
            None => {}
        }
        j += 1;
    }
    let j = j.min(bytes.len());
    let word = &text[start..j];
    let quoted = word.contains(['\'', '"', '\\']);
    let delimiter = unquote(word);
    if !delimiter.is_empty() {
        pending.push(Pending {
            delimiter,
            quoted,
            strip_tabs,
            edit: out.edits.len(),
        });
        // A body never read (the text ends on the operator's line) is empty.
        out.edits.push((at, j, Cow::Borrowed(" <<< '' ")));
    }
    j
}

/// WORD with its quotes and backslashes removed, as bash makes a delimiter of it.
fn unquote(word: &str) -> String {
    let mut out = String::new();
    let mut chars = word.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => out.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => out.extend(chars.next()),
            (None, c) => out.push(c),
        }
    }
    out
}

/// Read the bodies of PENDING here-documents from AT (just after the newline that ends
/// their line), as bash reads them; return where the text goes on.
fn bodies(text: &str, at: usize, pending: Vec<Pending>, out: &mut Scan) -> usize {
    let bytes = text.as_bytes();
    let mut k = at;
    for doc in pending {
        let start = k;
        let mut body = String::new();
        let mut line = String::new();
        loop {
            if k >= bytes.len() {
                // A missing delimiter: the body runs to the end of the text.
                break;
            }
            let newline = bytes[k..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |p| k + p);
            let raw = &text[k..newline];
            // A line without a backslash (or of a quoted body) is the line as written.
            if doc.quoted || !raw.contains('\\') {
                let compared = if doc.strip_tabs {
                    raw.trim_start_matches('\t')
                } else {
                    raw
                };
                k = (newline + 1).min(bytes.len());
                if compared == doc.delimiter {
                    break;
                }
                body.push_str(compared);
                body.push('\n');
                continue;
            }
            // One logical line: an unquoted body joins backslash-newlines.
            line.clear();
            let mut end = k;
            while end < bytes.len() {
                let c = bytes[end];
                if !doc.quoted && c == b'\\' && bytes.get(end + 1) == Some(&b'\n') {
                    end += 2;
                    continue;
                }
                if c == b'\n' {
                    break;
                }
                if !doc.quoted && c == b'\\' && end + 1 < bytes.len() {
                    // An escaped character (`\\` among them) is kept, and never joins.
                    let n = next_char_len(text, end + 1);
                    line.push_str(&text[end..end + 1 + n]);
                    end += 1 + n;
                    continue;
                }
                let n = next_char_len(text, end);
                line.push_str(&text[end..end + n]);
                end += n;
            }
            let next = (end + 1).min(bytes.len());
            let compared = if doc.strip_tabs {
                line.trim_start_matches('\t')
            } else {
                line.as_str()
            };
            if compared == doc.delimiter {
                k = next;
                break;
            }
            body.push_str(compared);
            body.push('\n');
            k = next;
        }
        out.edits.push((start, k, Cow::Borrowed("")));
        // What the command reads, as a here-string the parser reads exactly: a program
        // that runs its standard input as a script (`bash <<E`) is read with it.
        let text = if doc.quoted {
            body.clone()
        } else {
            unescape_body(&body)
        };
        if let Some(edit) = out.edits.get_mut(doc.edit) {
            edit.2 = Cow::Owned(format!(" <<< '{}' ", text.replace('\'', r"'\''")));
        }
        if !doc.quoted {
            out.bodies.push(body);
        }
    }
    k
}

/// The text of an unquoted here-document BODY (backslash-newlines already joined) with
/// what its expansion does to backslashes: `\$`, ``\` `` and `\\` lose theirs;
/// expansions are kept as written.
fn unescape_body(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek().filter(|n| matches!(n, '$' | '`' | '\\')) {
                out.push(n);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// The length of the character at byte I of TEXT (1 past the end).
fn next_char_len(text: &str, i: usize) -> usize {
    text.get(i..)
        .and_then(|t| t.chars().next())
        .map_or(1, char::len_utf8)
}

/// How many words and operators TEXT has outside quotes and here-document bodies (inside
/// substitutions too), counting no further than N + 1: about as many tokens as
/// brush-parser makes of it, and its substitutions.
pub(crate) fn words_up_to(text: &str, n: usize) -> usize {
    kept(text, |found| found.words.min(n.saturating_add(1)))
        .unwrap_or_else(|| scan_words(text, TOP, n).words)
}

/// Whether TEXT has more than N words (see [`words_up_to`]); each takes a byte at least.
pub(crate) fn more_words_than(text: &str, n: usize) -> bool {
    text.len() > n && words_up_to(text, n) > n
}

/// TEXT without its comments, as bash reads it (a parser that stumbles on a comment
/// inside `$(...)` reads it then); None when it has none.
pub fn without_comments(text: &str) -> Option<String> {
    if text.len() > MAX_SCANNED || !text.contains('#') {
        return None;
    }
    let comments = scan(text, TOP).comments;
    if comments.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in comments {
        out.push_str(text.get(at..start)?);
        at = end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// LINE with the text of each `$(...)` and `<(...)` that holds no `<<` taken out (`$()`,
/// `<()`): bash runs them with its own standard input, so what runs there reads no
/// here-document or here-string of the line (a `>(...)` reads what its command writes);
/// None when it has none.
pub fn without_unfed_substitutions(line: &str) -> Option<String> {
    if line.len() > MAX_SCANNED || !line.contains(['(', '`']) {
        return None;
    }
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for region in scan(line, TOP).regions {
        let Region::From {
            at: start,
            end: Some(end),
        } = region
        else {
            continue;
        };
        let opener = start.checked_sub(2).map(|k| bytes[k]);
        let text = line.get(start..end)?;
        if start < at || !matches!(opener, Some(b'$' | b'<')) || text.contains("<<") {
            continue;
        }
        out.push_str(line.get(at..start)?);
        at = end;
    }
    if at == 0 {
        return None;
    }
    out.push_str(line.get(at..)?);
    Some(out)
}
