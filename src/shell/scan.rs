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
//! What the scan finds ([`Scan`]) is read by `looks.rs` into the second looks and
//! the scripts; the walk asks it how many words a text has ([`words_up_to`]) and for a
//! text without its comments ([`without_comments`]).

mod heredoc;

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

/// What one scan found.
#[derive(Clone, Default)]
pub(super) struct Scan {
    /// Where a `$(`, `<(` or `>(` substitution's text starts (a byte offset), or the
    /// text of a backquoted one as bash reads it.
    pub(super) regions: Vec<Region>,
    /// Spans to take out of the text for the here-document view, with their
    /// replacement: operators (`<<WORD` to a here-string of the body bash reads) and
    /// bodies (to nothing).
    pub(super) edits: Vec<heredoc::Edit>,
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
    let mut s = Scanner::new(text, base);
    while s.i < s.bytes.len() {
        let b = s.bytes[s.i];
        let top = *s.stack.last().unwrap_or(&base);
        s.end_here_string(b);
        match top {
            Ctx::Single { sub } => s.single(b, sub),
            Ctx::AnsiC => s.ansi_c(b),
            Ctx::Backquote => s.backquote(b),
            Ctx::Double | Ctx::Body | Ctx::Brace { .. } | Ctx::Bracket => s.quoted(b, top),
            Ctx::Normal { paren, arith } => {
                let word_start = s.word_start();
                if (word_start && !b.is_ascii_whitespace()) || OPERATOR[usize::from(b)] {
                    s.out.words += 1;
                    if s.out.words > max_words {
                        break;
                    }
                }
                s.normal(b, paren, arith, word_start);
            }
        }
    }
    s.finish()
}

/// The state of one scan (see [`scan_words`]): where it is in the text, in which
/// quoting contexts, and what it found so far.
struct Scanner<'t> {
    text: &'t str,
    bytes: &'t [u8],
    out: Scan,
    /// The quoting contexts open, the innermost last.
    stack: Vec<Ctx>,
    /// The here-documents whose bodies start after this line.
    pending: Vec<heredoc::Pending>,
    /// Where the scan is (a byte offset).
    i: usize,
    /// Just past the last character a backslash escaped, or a `)` that closed a
    /// substitution (`\ #`, `\<newline>#` and `$(x)#` start no comment).
    escaped: usize,
    /// The substitutions open in the scan's model: the depth of the stack below their
    /// context, and their region.
    open: Vec<(usize, usize)>,
    /// The here-string word being read: where it starts, and the depth of its context.
    string: Option<(usize, usize)>,
}

impl<'t> Scanner<'t> {
    fn new(text: &'t str, base: Ctx) -> Scanner<'t> {
        Scanner {
            text,
            bytes: text.as_bytes(),
            out: Scan::default(),
            stack: vec![base],
            pending: Vec::new(),
            i: 0,
            escaped: 0,
            open: Vec::new(),
            string: None,
        }
    }

    /// What the scan found, with a here-string that runs to the end of the text.
    fn finish(mut self) -> Scan {
        let len = self.bytes.len();
        if let Some((start, _)) = self.string.filter(|&(start, _)| start < len) {
            self.out.strings.push((start, len));
        }
        self.out
    }

    /// Enter the quoting context C, unless the stack is as deep as followed.
    fn push(&mut self, c: Ctx) {
        if self.stack.len() < MAX_CONTEXTS {
            self.stack.push(c);
        }
    }

    /// Whether the byte at the scan's place starts a word.
    fn word_start(&self) -> bool {
        let i = self.i;
        i == 0 || (i != self.escaped && SEPARATES[usize::from(self.bytes[i - 1])])
    }

    /// The here-string word being read ends at B, a separator in its own context.
    fn end_here_string(&mut self, b: u8) {
        if let Some((start, depth)) = self.string {
            if self.stack.len() <= depth && SEPARATES[usize::from(b)] {
                if self.i > start {
                    self.out.strings.push((start, self.i));
                }
                self.string = None;
            }
        }
    }

    /// Enter the substitution at the scan's place (see [`open_region`]).
    fn open_region(&mut self) {
        self.i = open_region(
            self.bytes,
            self.i,
            &mut self.stack,
            &mut self.out,
            &mut self.open,
        );
    }

    /// Keep the backquoted substitution that starts after the scan's place (IN_DOUBLE:
    /// inside double quotes) and enter it.
    fn backquoted(&mut self, in_double: bool) {
        if self.out.room() {
            self.out
                .region(backquoted(self.text, self.i + 1, in_double));
        } else {
            self.out.cut = true;
        }
        self.push(Ctx::Backquote);
        self.i += 1;
    }

    /// B in `'...'` (SUB: after a subscript's `[`).
    fn single(&mut self, b: u8, sub: bool) {
        let i = self.i;
        match b {
            b'\'' => {
                self.stack.pop();
                self.i += 1;
            }
            // A subscript follows a name (`'a[$(x)]'`, `a'[$(x)]'`): a `[` after
            // anything else (`PS1='[\u@\h] '`) starts none.
            b'[' => {
                if subscript_at(self.bytes, i) {
                    if let Some(top) = self.stack.last_mut() {
                        *top = Ctx::Single { sub: true };
                    }
                }
                self.i += 1;
            }
            b'$' if sub && self.bytes.get(i + 1) == Some(&b'(') => {
                self.out.region(Region::From {
                    at: i + 2,
                    end: None,
                });
                self.i += 2;
            }
            // The substitution runs to its closing backquote, which opens none.
            b'`' if sub => {
                self.out.region(backquoted(self.text, i + 1, false));
                self.i = backquote_end(self.bytes, i + 1);
            }
            b'$' | b'`' => self.i += 1,
            _ => self.i = skip_plain(self.bytes, i, &SINGLE_SPECIAL),
        }
    }

    /// B in `$'...'`.
    fn ansi_c(&mut self, b: u8) {
        match b {
            b'\\' => self.i += 1,
            b'\'' => {
                self.stack.pop();
            }
            _ => {}
        }
        self.i += 1;
    }

    /// B in a backquoted substitution.
    fn backquote(&mut self, b: u8) {
        match b {
            b'\\' => self.i += 1,
            b'`' => {
                self.stack.pop();
            }
            b'$' if self.bytes.get(self.i + 1) == Some(&b'(') => self.out.region(Region::From {
                at: self.i + 2,
                end: None,
            }),
            _ => {}
        }
        self.i += 1;
    }

    /// B in double quotes, an unquoted here-document body, `${...}` or `$[...]` (TOP).
    fn quoted(&mut self, b: u8, top: Ctx) {
        let i = self.i;
        let next = self.bytes.get(i + 1);
        let brace = matches!(top, Ctx::Brace { .. });
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
            b'\\' => self.i += 2,
            b'$' if next == Some(&b'(') => self.open_region(),
            // In an unquoted `${x:-...}` (any operator) bash runs `<(...)`.
            b'<' | b'>' if unquoted_brace && next == Some(&b'(') => self.open_region(),
            // `${x:1<<E}` holds no here-document for bash, but does for
            // brush-parser: the here-document view escapes it.
            b'<' if brace && next == Some(&b'<') => {
                let run = self.bytes[i..].iter().take_while(|&&c| c == b'<').count();
                let with = match run {
                    2 => Cow::Borrowed(r"\<\<"),
                    _ => Cow::Owned(r"\<".repeat(run)),
                };
                self.out.edits.push((i, i + run, with));
                self.i += run;
            }
            b'$' if next == Some(&b'{') => {
                let in_double = !unquoted_brace;
                let arith = arith_parameter(self.bytes, i + 2);
                self.push(Ctx::Brace { in_double, arith });
                self.i += 2;
            }
            b'$' if next == Some(&b'[') => {
                self.push(Ctx::Bracket);
                self.i += 2;
            }
            b']' if top == Ctx::Bracket => {
                self.stack.pop();
                self.i += 1;
            }
            b'`' => self.backquoted(top == Ctx::Double),
            b'"' if top == Ctx::Double => {
                self.stack.pop();
                self.i += 1;
            }
            b'"' if brace => {
                self.push(Ctx::Double);
                self.i += 1;
            }
            b'\'' if quotes_quote => {
                self.push(Ctx::Single { sub: false });
                self.i += 1;
            }
            b'}' if brace => {
                self.stack.pop();
                self.i += 1;
            }
            _ => self.i = skip_plain(self.bytes, i + 1, &DOUBLE_SPECIAL),
        }
    }

    /// B in unquoted text (PAREN, ARITH: see [`Ctx::Normal`]; WORD_START: B starts a
    /// word): the quotes and expansions it opens.
    fn normal(&mut self, b: u8, paren: bool, arith: bool, word_start: bool) {
        let i = self.i;
        let next = self.bytes.get(i + 1);
        match b {
            b'\\' => {
                self.i += 2;
                self.escaped = self.i;
            }
            // In arithmetic bash reads a `'` as a letter: `$(( '$(x)' ))` runs `x`.
            b'\'' if arith => self.i += 1,
            b'\'' => {
                let sub = i > 0 && self.bytes[i - 1] == b'[';
                self.push(Ctx::Single { sub });
                self.i += 1;
            }
            b'"' => {
                self.push(Ctx::Double);
                self.i += 1;
            }
            b'$' if next == Some(&b'\'') => {
                self.push(Ctx::AnsiC);
                self.i += 2;
            }
            b'$' | b'<' | b'>' if next == Some(&b'(') => self.open_region(),
            b'$' if next == Some(&b'{') => {
                let arith = arith_parameter(self.bytes, i + 2);
                self.push(Ctx::Brace {
                    in_double: false,
                    arith,
                });
                self.i += 2;
            }
            b'$' if next == Some(&b'[') => {
                self.push(Ctx::Bracket);
                self.i += 2;
            }
            b'`' => self.backquoted(false),
            _ => self.structure(b, paren, arith, word_start),
        }
    }

    /// B in unquoted text that opens no quote or expansion: parentheses, comments,
    /// here-strings and here-documents, the end of a line, ordinary bytes.
    fn structure(&mut self, b: u8, paren: bool, arith: bool, word_start: bool) {
        let i = self.i;
        let next = self.bytes.get(i + 1);
        match b {
            b'(' if word_start && next == Some(&b'(') => {
                let c = Ctx::Normal {
                    paren: true,
                    arith: true,
                };
                self.push(c);
                self.push(c);
                self.i += 2;
            }
            b'(' if paren => {
                self.push(Ctx::Normal { paren: true, arith });
                self.i += 1;
            }
            // `$(cmd)#x` is one word: a `#` right after a `)` starts no comment.
            b')' if paren => {
                self.stack.pop();
                let depth = self.stack.len();
                if let Some(&(_, r)) = self.open.last().filter(|o| o.0 == depth) {
                    if let Some(Region::From { end, .. }) = self.out.regions.get_mut(r) {
                        *end = Some(i);
                    }
                    self.open.pop();
                }
                self.i += 1;
                self.escaped = self.i;
            }
            b'#' if word_start && !arith => {
                let end = skip_line(self.bytes, i);
                self.out.comments.push((i, end));
                self.i = end;
            }
            b'<' if next == Some(&b'<') && self.bytes.get(i + 2) == Some(&b'<') => {
                let mut at = i + 3;
                while matches!(self.bytes.get(at), Some(b' ' | b'\t')) {
                    at += 1;
                }
                self.i = at;
                self.string = Some((at, self.stack.len()));
            }
            // `<<` in arithmetic shifts bits.
            b'<' if next == Some(&b'<') && arith => self.i += 2,
            b'<' if next == Some(&b'<') => {
                self.i = heredoc::operator(self.text, i, &mut self.pending, &mut self.out.edits);
            }
            b'\n' => {
                self.i += 1;
                if !self.pending.is_empty() {
                    let pending = std::mem::take(&mut self.pending);
                    let out = &mut self.out;
                    self.i = heredoc::bodies(
                        self.text,
                        self.i,
                        pending,
                        &mut out.edits,
                        &mut out.bodies,
                    );
                }
            }
            // The rest of a run of ordinary bytes starts no word and means nothing.
            _ if !NORMAL_SPECIAL[usize::from(b)] => {
                self.i = skip_plain(self.bytes, i + 1, &NORMAL_SPECIAL);
            }
            _ => self.i += 1,
        }
    }
}

/// Where the line of BYTES that holds I ends: its newline, or the end of the text.
fn skip_line(bytes: &[u8], i: usize) -> usize {
    bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        .map_or(bytes.len(), |k| i + k)
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
