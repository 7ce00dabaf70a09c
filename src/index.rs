//! Sets of globs and regexps, each member owned by a rule (or a leaf), and the
//! bit sets over rules that one call's hits become.
//!
//! Compiling gathers every matcher of one kind into one set ([`GlobIndexBuilder`],
//! [`RegexIndexBuilder`]); matching a call runs each set once ([`glob_hits`],
//! [`regex_hits`]) and maps the set's match indices back to rules.

use crate::error::{Error, Result};
use globset::{Candidate, Glob, GlobSet, GlobSetBuilder};
use regex::{RegexSet, RegexSetBuilder};

/// Size limit of one compiled regexp (bytes of its compiled form).
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Size limit of a compiled set of regexps.
pub const REGEX_SET_SIZE_LIMIT: usize = 256 << 20;

/// Size limit of the lazy DFA cache of a set of regexps (or of a redactor).
pub const REGEX_SET_DFA_LIMIT: usize = 8 << 20;

/// A set of globs or regexps, each owned by a rule (or a leaf).
#[derive(Debug)]
pub struct Index<S> {
    pub set: S,
    pub owner: Vec<usize>,
}

/// A set of small integers (rule or leaf numbers below LEN). It grows to its
/// largest member only, so an empty set costs nothing however large LEN is.
#[derive(Debug, Clone)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    pub fn new(len: usize) -> BitSet {
        BitSet {
            words: Vec::new(),
            len,
        }
    }
    pub fn set(&mut self, i: usize) {
        if i >= self.len {
            return;
        }
        let w = i / 64;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (i % 64);
    }
    pub fn get(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// Add the members of OTHER.
    pub fn union_with(&mut self, other: &BitSet) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }
    /// The members, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(n, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    n * 64 + bit
                })
            })
        })
    }
}

impl PartialEq for BitSet {
    fn eq(&self, other: &BitSet) -> bool {
        let (a, b) = (&self.words, &other.words);
        let n = a.len().max(b.len());
        (0..n).all(|i| a.get(i).copied().unwrap_or(0) == b.get(i).copied().unwrap_or(0))
    }
}

impl Eq for BitSet {}

/// Gathers globs of one kind and builds their set.
pub struct GlobIndexBuilder {
    builder: GlobSetBuilder,
    owner: Vec<usize>,
}

impl Default for GlobIndexBuilder {
    fn default() -> Self {
        GlobIndexBuilder {
            builder: GlobSetBuilder::new(),
            owner: Vec::new(),
        }
    }
}

impl GlobIndexBuilder {
    pub fn add(&mut self, glob: Glob, owner: usize) {
        self.builder.add(glob);
        self.owner.push(owner);
    }

    pub fn build(self, what: &str) -> Result<Index<GlobSet>> {
        let set = self
            .builder
            .build()
            .map_err(|e| Error::new(format!("cannot build the {what} glob set: {e}")))?;
        Ok(Index {
            set,
            owner: self.owner,
        })
    }
}

/// Gathers regexps of one kind (already checked one by one) and builds their set.
#[derive(Default)]
pub struct RegexIndexBuilder {
    patterns: Vec<String>,
    owner: Vec<usize>,
}

impl RegexIndexBuilder {
    pub fn add(&mut self, pattern: &str, owner: usize) {
        self.patterns.push(pattern.to_string());
        self.owner.push(owner);
    }

    pub fn build(self, what: &str) -> Result<Index<RegexSet>> {
        let set = RegexSetBuilder::new(&self.patterns)
            .size_limit(REGEX_SET_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SET_DFA_LIMIT)
            .build()
            .map_err(|e| {
                Error::new(format!(
                    "cannot build the {what} regexp set: {}",
                    regex_message(&e)
                ))
            })?;
        Ok(Index {
            set,
            owner: self.owner,
        })
    }
}

/// The last `error: ` line of a regexp syntax error, else all of it.
pub fn syntax_message(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| l.starts_with("error: "))
        .map(|l| l.trim_start_matches("error: ").to_string())
        .unwrap_or_else(|| text.to_string())
}

pub fn regex_message(e: &regex::Error) -> String {
    match e {
        regex::Error::Syntax(text) => syntax_message(text),
        regex::Error::CompiledTooBig(limit) => {
            format!("compiled form exceeds the size limit of {limit} bytes")
        }
        other => other.to_string(),
    }
}

pub fn glob_hits(index: &Index<GlobSet>, text: &str, bits: &mut BitSet, scratch: &mut Vec<usize>) {
    if index.set.is_empty() {
        return;
    }
    index
        .set
        .matches_candidate_into(&Candidate::new(text), scratch);
    for &g in scratch.iter() {
        bits.set(index.owner[g]);
    }
}

pub fn regex_hits(index: &Index<RegexSet>, text: &str, bits: &mut BitSet) {
    // Most texts match none: one early-exit scan then, not a list of every
    // pattern of the set.
    if index.set.is_empty() || !index.set.is_match(text) {
        return;
    }
    for m in index.set.matches(text).iter() {
        bits.set(index.owner[m]);
    }
}
