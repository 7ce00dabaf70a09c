//! gptel-rust-hooks: a rule engine deciding every gptel tool call.
//!
//! The engine (`rule`, `compile`, `eval`, `path`, `shell`, `error`) never
//! touches Emacs; `lisp` is the boundary, and this file is the module glue:
//! the `#[defun]`s Emacs calls, each named `gptel-rust-hooks--mod-...`.

pub mod compile;
pub mod error;
pub mod eval;
pub mod lisp;
pub mod path;
pub mod post;
pub mod rule;
pub mod sandbox;
pub mod shell;

use compile::Policy;
use emacs::{defun, Env, IntoLisp, Result, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::time::Instant;

emacs::plugin_is_GPL_compatible!();

// A compiled policy is immutable: Emacs holds it in a user-ptr and every
// call borrows it.
impl emacs::Transfer for Policy {}

/// The module's version; the package refuses a module of another version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

emacs::use_symbols! {
    rule_error => "gptel-rust-hooks-rule-error"
    call_error => "gptel-rust-hooks-call-error"
}

#[emacs::module(
    name = "gptel-rust-hooks-module",
    defun_prefix = "gptel-rust-hooks--mod",
    separator = "-",
    mod_in_name = false
)]
fn init(_: &Env) -> Result<()> {
    Ok(())
}

/// What the last decision was, for the log.
struct Last {
    decision: Option<&'static str>,
    matched: Vec<String>,
    by: Option<String>,
    reason: Option<String>,
    micros: f64,
}

thread_local! {
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
    /// The decisions the log holds, oldest first, by increasing number: the
    /// log keeps only a number per call, and reads a record when shown.
    static RECORDS: RefCell<(i64, VecDeque<(i64, Last)>)> =
        const { RefCell::new((0, VecDeque::new())) };
}

fn signal_rule_error<T>(env: &Env, e: error::Error) -> Result<T> {
    env.signal(rule_error, (e.to_string(),))
}

/// Return the version of the gptel-rust-hooks module.
#[defun]
fn version() -> Result<&'static str> {
    Ok(VERSION)
}

/// Do nothing with INFO and return nil: the floor of a module call.
#[defun]
fn noop(_info: Value<'_>) -> Result<()> {
    Ok(())
}

/// Return PATH normalized as rules see it, relative to the directory CWD.
///
/// `~' is expanded, `.' and `..' collapsed and symbolic links resolved;
/// return nil when the path cannot be read.
#[defun]
fn normalize(path: String, cwd: Option<String>) -> Result<Option<String>> {
    let env = path::PathEnv {
        home: std::env::var_os("HOME").map(Into::into),
        cwd: cwd.map(Into::into),
        case_fold: path::default_case_fold(),
    };
    Ok(path::normalize(&path, &env).ok())
}

/// Return a number that changes when any of FILES changes.
///
/// FILES is a list of file names.  The number covers, for each file and
/// for the file a symbolic link leads to, whether it exists, its size, its
/// modification and change times and its inode.
#[defun]
fn stamp(env: &Env, files: Value<'_>) -> Result<i64> {
    Ok(stamp_files(&lisp::read_strings(env, files)?))
}

fn stamp_files(files: &[String]) -> i64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for file in files {
        file.hash(&mut h);
        for meta in [std::fs::symlink_metadata(file), std::fs::metadata(file)] {
            match meta {
                Ok(m) => {
                    (m.len(), m.modified().ok(), m.is_dir()).hash(&mut h);
                    #[cfg(unix)]
                    {
                        use std::os::unix::fs::MetadataExt;
                        (m.dev(), m.ino(), m.ctime(), m.ctime_nsec()).hash(&mut h);
                    }
                }
                Err(e) => e.raw_os_error().hash(&mut h),
            }
        }
    }
    // A fixnum on every Emacs.
    (h.finish() >> 4) as i64
}

/// Compile RULES, a list of rule plists, under OPTIONS into a policy.
///
/// OPTIONS is a plist with `:path-keys', `:command-keys', `:default-decision',
/// `:case-fold' and `:home'.  A bad rule signals `gptel-rust-hooks-rule-error'.
#[defun(user_ptr(direct))]
fn compile<'e>(env: &'e Env, rules: Value<'e>, options: Value<'e>) -> Result<Policy> {
    let options = match lisp::read_options(env, options) {
        Ok(o) => o,
        Err(e) => return signal_rule_error(env, e),
    };
    let value = match lisp::to_json(env, rules, 0, &mut lisp::MAX_RULE_NODES.clone()) {
        Ok(v) => v,
        Err(why) => return signal_rule_error(env, error::Error::new(format!("rules: {why}"))),
    };
    let rules = match rule::rules_from_value(&value) {
        Ok(r) => r,
        Err(e) => return signal_rule_error(env, e),
    };
    match compile::compile(rules, options) {
        Ok(p) => Ok(p),
        Err(e) => signal_rule_error(env, e),
    }
}

/// Compile LAYERS under OPTIONS into one policy.
///
/// Each layer is a plist (:source FILE :trusted BOOL :rules RULES) or
/// (:source FILE :trusted BOOL :json TEXT); :source nil means the user's
/// Lisp rules.  An untrusted layer can only tighten.  A bad rule signals
/// `gptel-rust-hooks-rule-error' naming the file and the rule.
#[defun(user_ptr(direct))]
fn compile_layers<'e>(env: &'e Env, layers: Value<'e>, options: Value<'e>) -> Result<Policy> {
    let options = match lisp::read_options(env, options) {
        Ok(o) => o,
        Err(e) => return signal_rule_error(env, e),
    };
    match lisp::read_layers(env, layers).and_then(|l| compile::compile_layers(l, options)) {
        Ok(p) => Ok(p),
        Err(e) => signal_rule_error(env, e),
    }
}

/// Return what untrusted layers of POLICY had ignored, a list of strings.
#[defun]
fn notes<'e>(env: &'e Env, policy: Value<'e>) -> Result<Value<'e>> {
    let policy: &Policy = policy.into_rust()?;
    let notes: Vec<Value> = policy
        .notes
        .iter()
        .map(|n| n.as_str().into_lisp(env))
        .collect::<Result<_>>()?;
    env.list(&notes)
}

/// Return the number of rules of POLICY.
#[defun]
fn rule_count(policy: Value<'_>) -> Result<usize> {
    let policy: &Policy = policy.into_rust()?;
    Ok(policy.rules.len())
}

fn malformed<'e>(env: &'e Env, why: &str) -> Result<Value<'e>> {
    env.signal(
        call_error,
        (format!("gptel-rust-hooks: malformed tool call: {why}"),),
    )
}

/// Decide the tool call INFO (a gptel hook plist) by POLICY; CWD is the request's directory.
///
/// Return the plist for `gptel-pre-tool-call-functions'.  A call that cannot
/// be read signals `gptel-rust-hooks-call-error'.
#[defun]
fn pre<'e>(env: &'e Env, policy: Value<'e>, info: Value<'e>, cwd: Value<'e>) -> Result<Value<'e>> {
    // A call that fails leaves no stale record for the log.
    set_last(None);
    let policy: &Policy = policy.into_rust()?;
    let start = Instant::now();
    let read = match lisp::read_call(env, policy, info, cwd, false, false) {
        Ok(r) => r,
        Err(why) => return malformed(env, &why),
    };
    let outcome = eval::evaluate(policy, &read.call);
    let answer = lisp::answer(env, &outcome, &read.values)?;
    let micros = start.elapsed().as_secs_f64() * 1e6;
    set_last(Some(Last {
        decision: outcome.decision.map(rule::Decision::name),
        matched: outcome
            .decided
            .matched
            .iter()
            .map(|&r| policy.rules[r].label.clone())
            .collect(),
        by: outcome.by.map(|r| policy.rules[r].label.clone()),
        reason: outcome.reason.clone(),
        micros,
    }));
    Ok(answer)
}

fn set_last(value: Option<Last>) {
    LAST.with(|last| *last.borrow_mut() = value);
}

/// Apply POLICY's post-call effects to the tool call INFO, which has `:result'.
///
/// Return (:result NEW) when the result the model sees changes, else nil.
/// The result is read only when some rule applies to the call (or secrets
/// are redacted), and then crosses the boundary once each way.
#[defun]
fn post<'e>(env: &'e Env, policy: Value<'e>, info: Value<'e>, cwd: Value<'e>) -> Result<Value<'e>> {
    set_last(None);
    let policy: &Policy = policy.into_rust()?;
    let start = Instant::now();
    let record = |outcome: &post::PostOutcome| {
        set_last(Some(Last {
            decision: None,
            matched: outcome
                .applied
                .iter()
                .map(|&r| policy.rules[r].label.clone())
                .collect(),
            by: None,
            reason: (outcome.redactions > 0).then(|| format!("{} redactions", outcome.redactions)),
            micros: start.elapsed().as_secs_f64() * 1e6,
        }))
    };
    let mut outcome = post::PostOutcome {
        result: None,
        applied: Vec::new(),
        redactions: 0,
    };
    if !policy.has_post_effects && !policy.options.redact_secrets {
        record(&outcome);
        return ().into_lisp(env);
    }
    let mut read = match lisp::read_call(env, policy, info, cwd, false, false) {
        Ok(r) => r,
        Err(why) => return malformed(env, &why),
    };
    let applied = post::applying(policy, &read.call);
    if post::needs_result(policy, &applied) {
        read.call.result = match lisp::read_result(env, info) {
            Ok(r) => r,
            Err(why) => return malformed(env, &why),
        };
        outcome = post::apply(
            policy,
            &read.call.name,
            read.call.result.as_deref().unwrap_or(""),
            applied,
        );
    } else {
        outcome.applied = applied;
    }
    record(&outcome);
    match outcome.result {
        Some(text) => env.list((lisp::kw_result.bind(env), text)),
        None => ().into_lisp(env),
    }
}

/// Explain how POLICY decides the call INFO; CWD is the request's directory.
///
/// Return a JSON string: every rule, each matcher, edits and the outcome.
#[defun]
fn explain<'e>(
    env: &'e Env,
    policy: Value<'e>,
    info: Value<'e>,
    cwd: Value<'e>,
) -> Result<Value<'e>> {
    let policy: &Policy = policy.into_rust()?;
    let read = match lisp::read_call(env, policy, info, cwd, false, true) {
        Ok(r) => r,
        Err(why) => return malformed(env, &why),
    };
    eval::explain(policy, &read.call).to_string().into_lisp(env)
}

/// Forget the last decision, so that a call failing before it is decided
/// is not credited with an earlier call's rules.
#[defun]
fn forget_last() -> Result<()> {
    set_last(None);
    Ok(())
}

/// Return what the last decision was: (DECISION MATCHED BY REASON MICROSECONDS).
#[defun]
fn last(env: &Env) -> Result<Value<'_>> {
    LAST.with(|last| match &*last.borrow() {
        None => ().into_lisp(env),
        Some(l) => last_list(env, l),
    })
}

/// Keep the last decision among the KEEP latest kept, and return its number.
///
/// Return nil when there is no last decision.  The module forgets it as
/// the last one, so that a call failing before it is decided is not
/// credited with it; `gptel-rust-hooks--mod-record-data' reads it by number
/// while it is among the KEEP latest.
#[defun]
fn take_last(keep: i64) -> Result<Option<i64>> {
    let Some(last) = LAST.with(|last| last.borrow_mut().take()) else {
        return Ok(None);
    };
    let keep = usize::try_from(keep).unwrap_or(0).clamp(1, 1 << 20);
    Ok(Some(RECORDS.with(|records| {
        let mut records = records.borrow_mut();
        records.0 += 1;
        let id = records.0;
        records.1.push_back((id, last));
        while records.1.len() > keep {
            records.1.pop_front();
        }
        id
    })))
}

/// Return the decision number ID kept by `gptel-rust-hooks--mod-take-last'.
///
/// The list is (DECISION MATCHED BY REASON MICROSECONDS), as from
/// `gptel-rust-hooks--mod-last'; nil when ID is no longer kept.
#[defun]
fn record_data(env: &Env, id: i64) -> Result<Value<'_>> {
    RECORDS.with(|records| {
        let records = records.borrow();
        match records.1.binary_search_by_key(&id, |(i, _)| *i) {
            Ok(at) => last_list(env, &records.1[at].1),
            Err(_) => ().into_lisp(env),
        }
    })
}

fn last_list<'e>(env: &'e Env, l: &Last) -> Result<Value<'e>> {
    let decision = match l.decision {
        Some(d) => env.intern(d)?,
        None => ().into_lisp(env)?,
    };
    let matched: Vec<Value> = l
        .matched
        .iter()
        .map(|m| m.as_str().into_lisp(env))
        .collect::<Result<_>>()?;
    env.list((
        decision,
        env.list(&matched)?,
        l.by.clone(),
        l.reason.clone(),
        l.micros,
    ))
}
