//! The decision record the audit log reads: what the rules decided for one
//! call. The module returns it with the answer, as a user-ptr the log
//! keeps, and the log reads it only when an entry is shown or written.

/// What one decision was, for the log.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The decision's name, or None (no decision, or a post-call record).
    pub decision: Option<&'static str>,
    /// The labels of the rules that matched (or applied after the call).
    pub matched: Vec<String>,
    /// The label of the deciding rule.
    pub by: Option<String>,
    /// The reason given, or what the post-call effects did.
    pub reason: Option<String>,
    /// How long the decision took.
    pub micros: f64,
    /// When it was made, in seconds since the epoch (the log's time: read
    /// here, the log allocates no float in Lisp per call).
    pub at: f64,
}

/// The time now in seconds since the epoch, for [`Record::at`].
pub fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}
