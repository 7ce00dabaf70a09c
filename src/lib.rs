//! gptel-rust-hooks: a rule engine deciding every gptel tool call.
//!
//! The stages, each in its own file, imports running one way (from the
//! boundary down): `rule` (rules and calls as written) -> `compile` (rules
//! into a `policy`, built from `index` sets, examples checked by `examples`)
//! -> `prepare` (a call's paths and commands, once) -> `matcher` (one rule
//! against a prepared call) -> `eval` (the decision) -> `explain`, `post`
//! (after the call, with `redact`). `path` and `shell` are leaves; `error`
//! names the rule at fault; `schema` checks a call against its tool's
//! arguments; `record` is a decision as the log reads it.
//!
//! Only this file and `lisp` (the boundary) touch Emacs: this file is the
//! module glue, the `#[defun]`s Emacs calls, each named
//! `gptel-rust-hooks--mod-...`.

pub mod compile;
pub mod error;
pub mod eval;
pub mod examples;
pub mod explain;
pub mod index;
pub mod lisp;
pub mod matcher;
pub mod path;
pub mod policy;
pub mod post;
pub mod prepare;
pub mod record;
pub mod redact;
pub mod rule;
pub mod sandbox;
pub mod schema;
mod scope;
pub mod shell;
pub mod stamp;

use emacs::{defun, Env, IntoLisp, Result, Value};
use policy::Policy;
use record::Record;
use std::time::Instant;

emacs::plugin_is_GPL_compatible!();

// A compiled policy is immutable: Emacs holds it in a user-ptr and every
// call borrows it.
impl emacs::Transfer for Policy {}

// A tool's compiled arguments and a decision's record, likewise.
impl emacs::Transfer for schema::Schema {}
impl emacs::Transfer for Record {}

/// The module's version; the package refuses a module of another version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

emacs::use_symbols! {
    rule_error => "gptel-rust-hooks-rule-error"
    call_error => "gptel-rust-hooks-call-error"
    error_symbol => "gptel-rust-hooks-error"
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

fn signal_rule_error<T>(env: &Env, e: error::Error) -> Result<T> {
    env.signal(rule_error, (e.to_string(),))
}

fn malformed<'e>(env: &'e Env, why: &str) -> Result<Value<'e>> {
    env.signal(
        call_error,
        (format!("gptel-rust-hooks: malformed tool call: {why}"),),
    )
}

/// Return the version of the gptel-rust-hooks module.
#[defun]
fn version() -> Result<&'static str> {
    Ok(VERSION)
}

/// The build id of the sources the module was built from (build.rs, the
/// same id as scripts/build-id.sh).
pub const BUILD_ID: &str = env!("GPTEL_RUST_HOOKS_BUILD_ID");

/// The text the package looks for in a module file before it loads it, so
/// that it never loads a module of another version.
const MODULE_MARK: &str = concat!(
    "gptel-rust-hooks-module ",
    env!("CARGO_PKG_VERSION"),
    " ",
    env!("GPTEL_RUST_HOOKS_BUILD_ID"),
    "\n"
);

/// Return the build id of the sources the module was built from.
#[defun]
fn build_id() -> Result<&'static str> {
    // Read through black_box, so that the whole mark stays in the file.
    let mark = std::hint::black_box(MODULE_MARK);
    Ok(mark.trim_end().rsplit(' ').next().unwrap_or(BUILD_ID))
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
    Ok(stamp::stamp_files(&lisp::read_strings(env, files)?))
}

/// Compile RULES, a list of rule plists, under OPTIONS into a policy.
///
/// OPTIONS is a plist with `:path-keys', `:command-keys', `:default-decision',
/// `:case-fold' and `:home'.  A bad rule signals `gptel-rust-hooks-rule-error'.
#[defun(user_ptr(direct))]
fn compile<'e>(env: &'e Env, rules: Value<'e>, options: Value<'e>) -> Result<Policy> {
    let compiled = lisp::read_options(env, options).and_then(|options| {
        let value = lisp::to_json(env, rules, 0, &mut lisp::MAX_RULE_NODES.clone())
            .map_err(|why| error::Error::new(format!("rules: {why}")))?;
        compile::compile(rule::rules_from_value(&value)?, options)
    });
    compiled.or_else(|e| signal_rule_error(env, e))
}

/// Compile LAYERS under OPTIONS into one policy.
///
/// Each layer is a plist (:source FILE :trusted BOOL :rules RULES) or
/// (:source FILE :trusted BOOL :json TEXT); :source nil means the user's
/// Lisp rules.  An untrusted layer can only tighten.  A bad rule signals
/// `gptel-rust-hooks-rule-error' naming the file and the rule.
#[defun(user_ptr(direct))]
fn compile_layers<'e>(env: &'e Env, layers: Value<'e>, options: Value<'e>) -> Result<Policy> {
    let compiled = lisp::read_options(env, options)
        .and_then(|options| compile::compile_layers(lisp::read_layers(env, layers)?, options));
    compiled.or_else(|e| signal_rule_error(env, e))
}

/// Return what untrusted layers of POLICY had ignored, a list of strings.
#[defun]
fn notes<'e>(env: &'e Env, policy: Value<'e>) -> Result<Value<'e>> {
    let policy: &Policy = policy.into_rust()?;
    lisp::string_list(env, &policy.notes)
}

/// Return the number of rules of POLICY.
#[defun]
fn rule_count(policy: Value<'_>) -> Result<usize> {
    let policy: &Policy = policy.into_rust()?;
    Ok(policy.rules.len())
}

/// What the log and the tool runner keep of OUTCOME's sandbox, if the call
/// is confined.
fn sandbox_note(policy: &Policy, outcome: &eval::Outcome) -> Option<lisp::SandboxNote> {
    let sandboxing = outcome.sandbox.as_ref()?;
    let plan = sandboxing.plan()?;
    let rules: Vec<String> = sandboxing
        .rules
        .iter()
        .map(|&r| policy.rules[r].label.clone())
        .collect();
    let mut json = plan.to_json();
    json["rules"] = serde_json::json!(rules);
    let home = policy.options.home.as_ref().and_then(|h| h.to_str());
    Some(lisp::SandboxNote {
        wrapped: plan.wrapped.clone(),
        describe: plan.confinement.describe(home),
        json: json.to_string(),
        rules,
    })
}

/// Compile ARGS, the arguments a tool declares, for `gptel-rust-hooks--mod-pre'.
///
/// ARGS is a list of (NAME TYPE REQUIRED): NAME a string, TYPE the text
/// naming its type or nil, REQUIRED non-nil unless it is optional.
#[defun(user_ptr(direct))]
fn schema<'e>(env: &'e Env, args: Value<'e>) -> Result<schema::Schema> {
    match lisp::read_schema(env, args) {
        Ok(schema) => Ok(schema),
        Err(why) => env.signal(error_symbol, (format!("gptel-rust-hooks: {why}"),)),
    }
}

/// Decide the tool call INFO (a gptel hook plist) by POLICY; CWD is the request's directory.
///
/// SANDBOX is the plist of sandbox settings (see
/// `gptel-rust-hooks--sandbox-context'), or nil when POLICY has no rule
/// with `:sandbox'.  SCHEMA is the tool's arguments compiled by
/// `gptel-rust-hooks--mod-schema', or nil when they are not checked.
///
/// Return a vector [ANSWER RECORD SANDBOX MISFIT BY SKIPPED]: ANSWER the
/// plist for `gptel-pre-tool-call-functions'; RECORD the decision for
/// the log, read by `gptel-rust-hooks--mod-record-data' (nil when the
/// call did not fit its tool); SANDBOX how the call runs confined (see
/// `gptel-rust-hooks--sandboxed'), or nil; MISFIT why the call did not
/// fit its tool's arguments, (:tool NAME :stage STAGE :problems TEXTS
/// :rules LABELS), or nil; BY the label of the rule that decided a call
/// asked, denied or stopped, or nil; SKIPPED a list of texts, one per
/// argument edit skipped because the tool does not declare the argument.
/// A call that cannot be read signals `gptel-rust-hooks-call-error'.
#[defun]
fn pre<'e>(
    env: &'e Env,
    policy: Value<'e>,
    info: Value<'e>,
    cwd: Value<'e>,
    sandbox: Value<'e>,
    schema: Value<'e>,
) -> Result<Value<'e>> {
    let policy: &Policy = policy.into_rust()?;
    let start = Instant::now();
    let read = match lisp::read_call(env, policy, info, cwd, false) {
        Ok(r) => r,
        Err(why) => return malformed(env, &why),
    };
    let schema: Option<&schema::Schema> = if schema.is_not_nil() {
        Some(schema.into_rust()?)
    } else {
        None
    };
    let nil = ().into_lisp(env)?;
    let name = read.call.name.as_str();
    if let Some(schema) = schema {
        let problems = schema.problems(
            read.call
                .args
                .iter()
                .zip(&read.values)
                .map(|((k, _), v)| (k.as_str(), v.is_not_nil())),
        );
        if !problems.is_empty() {
            let misfit = schema::Misfit::call(name, schema, problems);
            let answer = env.list((lisp::kw_block.bind(env), misfit.reason.as_str()))?;
            let misfit = lisp::misfit_plist(env, name, &misfit)?;
            return lisp::pre_out(env, [answer, nil, nil, misfit, nil, nil]);
        }
    }
    let context = lisp::read_sandbox_context(env, sandbox);
    let declares = |k: &str| schema.is_none_or(|s| s.declares(k));
    let (outcome, skipped) = eval::evaluate_declared(
        policy,
        &read.call,
        context.as_ref(),
        schema.map(|_| &declares as &dyn Fn(&str) -> bool),
    );
    let label = |r: usize| policy.rules[r].label.clone();
    let edited_misfit = match (schema, &outcome.args, &outcome.result) {
        (Some(schema), Some(args), None) => {
            let problems = schema.problems(args.iter().map(|(k, src)| {
                let present = match src {
                    eval::ArgSource::Original(i) => {
                        read.values.get(*i).is_some_and(|v| v.is_not_nil())
                    }
                    eval::ArgSource::New(j) => !j.is_null(),
                };
                (k.as_str(), present)
            }));
            (!problems.is_empty()).then(|| {
                let rules = outcome
                    .decided
                    .matched
                    .iter()
                    .filter(|&&r| {
                        let rule = &policy.rules[r].rule;
                        !(rule.set_args.is_empty()
                            && rule.default_args.is_empty()
                            && rule.remove_args.is_empty())
                    })
                    .map(|&r| label(r))
                    .collect();
                schema::Misfit::edit(name, schema, problems, rules)
            })
        }
        _ => None,
    };
    let (answer, misfit) = match &edited_misfit {
        Some(m) => (
            env.list((lisp::kw_block.bind(env), m.reason.as_str()))?,
            lisp::misfit_plist(env, name, m)?,
        ),
        None => (lisp::answer(env, &outcome, &read.values)?, nil),
    };
    let sandbox = match (&edited_misfit, sandbox_note(policy, &outcome)) {
        (None, Some(note)) => lisp::sandbox_note(env, &note)?,
        _ => nil,
    };
    let by = match (outcome.decision, outcome.by) {
        (Some(d), Some(r)) if d != rule::Decision::Allow => label(r).into_lisp(env)?,
        _ => nil,
    };
    let skipped = if skipped.is_empty() {
        nil
    } else {
        let texts: Vec<String> = skipped
            .iter()
            .map(|(r, k)| {
                format!(
                    "gptel-rust-hooks: {} sets argument `{k}`, which tool `{name}` does not declare: that edit is skipped",
                    policy.rules[*r].label
                )
            })
            .collect();
        lisp::string_list(env, &texts)?
    };
    let record = Box::new(Record {
        decision: outcome.decision.map(rule::Decision::name),
        matched: outcome.decided.matched.iter().map(|&r| label(r)).collect(),
        by: outcome.by.map(label),
        reason: outcome.reason.clone(),
        micros: start.elapsed().as_secs_f64() * 1e6,
        at: record::now(),
    })
    .into_lisp(env)?;
    lisp::pre_out(env, [answer, record, sandbox, misfit, by, skipped])
}

/// Apply POLICY's post-call effects to the tool call INFO, which has `:result'.
///
/// Return a vector [ANSWER RECORD]: ANSWER is (:result NEW) when the
/// result the model sees changes, else nil; RECORD what the post-call
/// rules did, for the log (see `gptel-rust-hooks--mod-record-data').
/// The result is read only when some rule applies to the call (or secrets
/// are redacted), and then crosses the boundary once each way.
#[defun]
fn post<'e>(env: &'e Env, policy: Value<'e>, info: Value<'e>, cwd: Value<'e>) -> Result<Value<'e>> {
    let policy: &Policy = policy.into_rust()?;
    let start = Instant::now();
    let answer_and_record = |outcome: post::PostOutcome| -> Result<Value<'e>> {
        let record = Box::new(Record {
            decision: None,
            matched: outcome
                .applied
                .iter()
                .map(|&r| policy.rules[r].label.clone())
                .collect(),
            by: None,
            reason: (outcome.redactions > 0).then(|| format!("{} redactions", outcome.redactions)),
            micros: start.elapsed().as_secs_f64() * 1e6,
            at: record::now(),
        })
        .into_lisp(env)?;
        let answer = match outcome.result {
            Some(text) => env.list((lisp::kw_result.bind(env), text))?,
            None => ().into_lisp(env)?,
        };
        env.vector((answer, record))
    };
    let mut outcome = post::PostOutcome {
        result: None,
        applied: Vec::new(),
        redactions: 0,
    };
    if !policy.has_post_effects && !policy.options.redact_secrets {
        return answer_and_record(outcome);
    }
    let read = match lisp::read_call(env, policy, info, cwd, false) {
        Ok(r) => r,
        Err(why) => return malformed(env, &why),
    };
    let applied = post::applying(policy, &read.call);
    if post::needs_result(policy, &applied) {
        let result = match lisp::read_result(env, info) {
            Ok(r) => r,
            Err(why) => return malformed(env, &why),
        };
        outcome = post::apply(
            policy,
            &read.call.name,
            result.as_deref().unwrap_or(""),
            applied,
        );
    } else {
        outcome.applied = applied;
    }
    answer_and_record(outcome)
}

/// Explain how POLICY decides the call INFO; CWD is the request's directory.
///
/// SANDBOX is as for `gptel-rust-hooks--mod-pre'.  Return a JSON string:
/// every rule, each matcher, edits, the sandbox and the outcome.
#[defun]
fn explain<'e>(
    env: &'e Env,
    policy: Value<'e>,
    info: Value<'e>,
    cwd: Value<'e>,
    sandbox: Value<'e>,
) -> Result<Value<'e>> {
    let policy: &Policy = policy.into_rust()?;
    let read = match lisp::read_call(env, policy, info, cwd, true) {
        Ok(r) => r,
        Err(why) => return malformed(env, &why),
    };
    let context = lisp::read_sandbox_context(env, sandbox);
    explain::explain_with(policy, &read.call, context.as_ref())
        .to_string()
        .into_lisp(env)
}

/// Return non-nil when some rule of POLICY has `:sandbox'.
///
/// Only then does a call need its sandbox settings.
#[defun]
fn sandboxes(policy: Value<'_>) -> Result<bool> {
    let policy: &Policy = policy.into_rust()?;
    Ok(!policy.sandboxing.is_empty())
}

/// Return COMMAND confined as the sandbox SANDBOX, JSON text, confines.
///
/// SANDBOX is the `:json' of the sandbox `gptel-rust-hooks--mod-pre'
/// gave for the call COMMAND was edited from; COMMAND is a command line
/// (a string) or a list of words (a list of strings).  Signal
/// `gptel-rust-hooks-error' when it cannot be confined.
#[defun]
fn sandbox_rewrap<'e>(env: &'e Env, sandbox: String, command: Value<'e>) -> Result<Value<'e>> {
    let plan: serde_json::Value = match serde_json::from_str(&sandbox) {
        Ok(plan) => plan,
        Err(e) => return env.signal(error_symbol, (format!("gptel-rust-hooks: {e}"),)),
    };
    let command = lisp::to_json(env, command, 0, &mut lisp::MAX_NODES.clone())
        .map(|j| rule::Arg::from_json(&j))
        .unwrap_or(rule::Arg::Null);
    match sandbox::rewrap(&plan, &command) {
        Ok(sandbox::Wrapped::Line(line)) => line.into_lisp(env),
        Ok(sandbox::Wrapped::Argv(words)) => lisp::string_list(env, &words),
        Err(why) => env.signal(error_symbol, (format!("gptel-rust-hooks: {why}"),)),
    }
}

/// Return what the decision RECORD was: (DECISION MATCHED BY REASON MICROSECONDS TIME).
///
/// RECORD is the record `gptel-rust-hooks--mod-pre' or
/// `gptel-rust-hooks--mod-post' returned with the answer; TIME is when
/// the decision was made, in seconds since the epoch.
#[defun]
fn record_data<'e>(env: &'e Env, record: Value<'e>) -> Result<Value<'e>> {
    let record: &Record = record.into_rust()?;
    lisp::record_list(env, Some(record))
}
