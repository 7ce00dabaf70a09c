//! What the tests that run generated programs in a real interpreter share
//! (`awk_real.rs`, `sed_real.rs`): a seeded generator of choices, and the names a
//! program left in its directory.

use std::path::Path;

/// A small generator of numbers, for a seeded sample.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below N.
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }

    /// One of XS.
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next(xs.len())]
    }
}

/// The names in DIR, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
