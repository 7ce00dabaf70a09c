//! The Lisp boundary: reading rules and calls from Lisp, building answers.
//!
//! Every `car`/`cdr`/`funcall` from a module is a call back into Lisp, so a
//! call is read with as few of them as possible: `plist-get` for the fields
//! the policy needs, `car`/`cdr` along the argument plist (no copy of it: what a
//! decision allocates in Lisp, the garbage collector pays for later), and
//! values of only the arguments some rule looks at. Lisp data from the LLM is
//! hostile: circular and dotted lists are refused (`proper-list-p`), nesting and
//! size are bounded, and text that is not UTF-8 becomes an opaque value.

use crate::error::Error;
use crate::eval::{ArgSource, Outcome};
use crate::policy::{Layer, Options, Policy};
use crate::record::Record;
use crate::rule::{Arg, Call, Decision};
use crate::sandbox::{SandboxContext, Wrapped};
use crate::schema::{ArgSpec, Misfit, Schema};
use emacs::{Env, IntoLisp, Result, Value, Vector};
use serde_json::{Map, Number, Value as Json};

emacs::use_symbols! {
    kw_name => ":name"
    kw_args => ":args"
    kw_buffer => ":buffer"
    kw_backend => ":backend"
    kw_model => ":model"
    kw_result => ":result"
    kw_stop => ":stop"
    kw_stop_reason => ":stop-reason"
    kw_block => ":block"
    kw_confirm => ":confirm"
    kw_json_false => ":json-false"
    kw_false => ":false"
    kw_null => ":null"
    sym_t => "t"
    sym_string => "string"
    sym_integer => "integer"
    sym_float => "float"
    sym_symbol => "symbol"
    sym_cons => "cons"
    sym_vector => "vector"
}

emacs::use_functions! {
    plist_get => "plist-get"
    vconcat => "vconcat"
    proper_list_p => "proper-list-p"
    car => "car"
    cdr => "cdr"
    symbol_name => "symbol-name"
    fboundp => "fboundp"
    replace_regexp_in_string => "replace-regexp-in-string"
}

/// The vector `gptel-rust-hooks--mod-pre` answers in: made once, filled anew by
/// each decision, so that a decision allocates no vector in Lisp (what it allocates
/// there, the garbage collector pays for later). Its caller reads it at once; the
/// next decision overwrites it. Lisp threads take turns holding Emacs's global lock,
/// and none runs between a decision and that read.
static PRE_OUT: std::sync::OnceLock<emacs::GlobalRef> = std::sync::OnceLock::new();

/// The slots of the decision's answer vector (see [`PRE_OUT`]).
pub const PRE_SLOTS: usize = 6;

/// ITEMS in the decision's answer vector, made on the first call.
pub fn pre_out<'e>(env: &'e Env, items: [Value<'e>; PRE_SLOTS]) -> Result<Value<'e>> {
    let out = match PRE_OUT.get() {
        Some(v) => v.bind(env),
        None => {
            let v = env.make_vector(PRE_SLOTS, ())?.value();
            PRE_OUT.get_or_init(|| v.make_global_ref()).bind(env)
        }
    };
    let vector: Vector = out.into_rust()?;
    for (i, item) in items.into_iter().enumerate() {
        vector.set(i, item)?;
    }
    Ok(out)
}

/// Deepest nesting read from Lisp data.
pub const MAX_DEPTH: usize = 32;
/// Most values read from one Lisp datum of a call.
pub const MAX_NODES: usize = 100_000;
/// Most values read from the rules of one layer: the user's own, so only
/// a bound against a runaway structure (10,000 typical rules hold ~82,000).
pub const MAX_RULE_NODES: usize = 20_000_000;
/// Most arguments a call may have.
pub const MAX_ARGS: usize = 4096;

/// What Lisp data looks like to the reader.
enum Kind {
    Nil,
    T,
    False,
    Keyword(String),
    Symbol(String),
    Str,
    Int,
    Float,
    Cons,
    Vector,
    Other,
}

fn kind(env: &Env, v: Value<'_>) -> Result<Kind> {
    if !v.is_not_nil() {
        return Ok(Kind::Nil);
    }
    let ty = env.type_of(v)?;
    // Most common first: strings, keywords, lists.
    Ok(if ty == sym_string.bind(env) {
        Kind::Str
    } else if ty == sym_symbol.bind(env) {
        if v == sym_t.bind(env) {
            Kind::T
        } else if v == kw_json_false.bind(env) || v == kw_false.bind(env) {
            Kind::False
        } else {
            let name: String = env.call(symbol_name, [v])?.into_rust()?;
            match name.strip_prefix(':') {
                Some(k) => Kind::Keyword(k.to_string()),
                None => Kind::Symbol(name),
            }
        }
    } else if ty == sym_cons.bind(env) {
        Kind::Cons
    } else if ty == sym_integer.bind(env) {
        Kind::Int
    } else if ty == sym_float.bind(env) {
        Kind::Float
    } else if ty == sym_vector.bind(env) {
        Kind::Vector
    } else {
        Kind::Other
    })
}

/// Most argument keys whose names [`keyword_name`] remembers.
const MAX_KNOWN_KEYS: usize = 64;

thread_local! {
    /// Argument keys seen before and their names: a call's keys are nearly
    /// always among them, and `eq` costs less than `symbol-name` and a copy.
    static KNOWN_KEYS: std::cell::RefCell<Vec<(emacs::GlobalRef, Option<String>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The name of V without its colon when V is a keyword, else None: the
/// argument keys of a call, read with one call into Lisp (`symbol-name`,
/// which refuses what is not a symbol) rather than [`kind`]'s dozen, or
/// with none for a key seen before.
fn keyword_name(env: &Env, v: Value<'_>) -> Result<Option<String>> {
    let known = KNOWN_KEYS.with(|keys| {
        keys.borrow()
            .iter()
            .find(|(key, _)| key.bind(env) == v)
            .map(|(_, name)| name.clone())
    });
    if let Some(name) = known {
        return Ok(name);
    }
    let name = read_keyword_name(env, v)?;
    // Only keywords are remembered: interned, they are the same object
    // next time (a symbol or string key could be another with that name).
    if name.is_some() {
        KNOWN_KEYS.with(|keys| {
            let mut keys = keys.borrow_mut();
            if keys.len() < MAX_KNOWN_KEYS {
                keys.push((v.make_global_ref(), name.clone()));
            }
        });
    }
    Ok(name)
}

fn read_keyword_name(env: &Env, v: Value<'_>) -> Result<Option<String>> {
    let name: String = match env.call(symbol_name, [v]) {
        Ok(name) => name.into_rust()?,
        Err(_) => return Ok(None),
    };
    Ok(match name.strip_prefix(':') {
        // `:json-false` and `:false` read as false, as in [`kind`].
        Some("json-false" | "false") if v == kw_json_false.bind(env) || v == kw_false.bind(env) => {
            None
        }
        Some(k) => Some(k.to_string()),
        None => None,
    })
}

/// The elements of a proper list or vector V, as a vector; an error for a
/// circular or dotted list.
fn elements<'e>(env: &'e Env, v: Value<'e>) -> std::result::Result<Vector<'e>, String> {
    let vector = env
        .call(vconcat, [v])
        .map_err(|_| "a circular or dotted list".to_string())?;
    vector
        .into_rust::<Vector>()
        .map_err(|_| "a list that cannot be read".to_string())
}

fn too_many_values() -> String {
    format!("too many values (at most {MAX_NODES} in a call, {MAX_RULE_NODES} in rules)")
}

/// Read a Lisp datum as a serde value: keyword plists become objects (keys
/// without the colon), other lists and vectors arrays, symbols their names,
/// `t` true, `:json-false` false, nil null.
pub fn to_json(
    env: &Env,
    v: Value<'_>,
    depth: usize,
    budget: &mut usize,
) -> std::result::Result<Json, String> {
    to_json_kind(env, v, None, depth, budget)
}

/// [`to_json`] of V, whose kind K may be known already.
fn to_json_kind(
    env: &Env,
    v: Value<'_>,
    k: Option<Kind>,
    depth: usize,
    budget: &mut usize,
) -> std::result::Result<Json, String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested deeper than {MAX_DEPTH} levels"));
    }
    if *budget == 0 {
        return Err(too_many_values());
    }
    *budget -= 1;
    let k = match k {
        Some(k) => k,
        None => kind(env, v).map_err(|e| e.to_string())?,
    };
    Ok(match k {
        Kind::Nil => Json::Null,
        Kind::T => Json::Bool(true),
        Kind::False => Json::Bool(false),
        Kind::Keyword(k) => Json::String(k),
        Kind::Symbol(s) => Json::String(s),
        Kind::Str => Json::String(
            v.into_rust::<String>()
                .map_err(|_| "a string that is not valid UTF-8 text".to_string())?,
        ),
        Kind::Int => Json::from(
            v.into_rust::<i64>()
                .map_err(|_| "an integer out of range".to_string())?,
        ),
        Kind::Float => Number::from_f64(v.into_rust::<f64>().map_err(|e| e.to_string())?)
            .map(Json::Number)
            .ok_or_else(|| "a float that is not finite".to_string())?,
        Kind::Cons | Kind::Vector => {
            let items = elements(env, v)?;
            let n = items.len();
            if n > *budget {
                return Err(too_many_values());
            }
            let mut values = Vec::with_capacity(n);
            // The kinds of the items at even positions, found to tell a
            // plist, and passed down so that no item is asked twice.
            let mut kinds: Vec<Option<Kind>> = Vec::with_capacity(n);
            for i in 0..n {
                let item: Value = items.get(i).map_err(|e| e.to_string())?;
                kinds.push(if i % 2 == 0 {
                    Some(kind(env, item).map_err(|e| e.to_string())?)
                } else {
                    None
                });
                values.push(item);
            }
            let plist = matches!(k, Kind::Cons)
                && n % 2 == 0
                && n > 0
                && kinds
                    .iter()
                    .step_by(2)
                    .all(|k| matches!(k, Some(Kind::Keyword(_))));
            if plist {
                let mut map = Map::new();
                for (i, pair) in values.chunks(2).enumerate() {
                    let key =
                        match to_json_kind(env, pair[0], kinds[2 * i].take(), depth + 1, budget)? {
                            Json::String(s) => s,
                            _ => return Err("a plist key that is not a keyword".into()),
                        };
                    let value = to_json_kind(env, pair[1], None, depth + 1, budget)?;
                    map.entry(key).or_insert(value);
                }
                Json::Object(map)
            } else {
                Json::Array(
                    values
                        .into_iter()
                        .zip(kinds)
                        .map(|(item, k)| to_json_kind(env, item, k, depth + 1, budget))
                        .collect::<std::result::Result<_, _>>()?,
                )
            }
        }
        Kind::Other => {
            return Err("an object that is not text, a number, a symbol or a list".into())
        }
    })
}

/// Read a list of strings, such as file names.
pub fn read_strings(env: &Env, v: Value<'_>) -> Result<Vec<String>> {
    if !v.is_not_nil() {
        return Ok(Vec::new());
    }
    let items = elements(env, v).map_err(emacs::Error::msg)?;
    (0..items.len())
        .map(|i| items.get::<Value>(i)?.into_rust::<String>())
        .collect()
}

/// Text that is not valid Unicode (raw bytes, characters past U+10FFFF),
/// with each such character replaced by U+FFFD.
fn lossy_string(env: &Env, v: Value<'_>) -> Option<String> {
    let fixed = env
        .call(
            replace_regexp_in_string,
            ("[^\u{0}-\u{10FFFF}]", "\u{FFFD}", v, true, true),
        )
        .ok()?;
    fixed.into_rust::<String>().ok()
}

/// Read an argument value; what cannot be read becomes [`Arg::Opaque`],
/// text that is not valid Unicode [`Arg::Invalid`].
fn to_arg(env: &Env, v: Value<'_>) -> Arg {
    // A string, the common case, is copied at once; anything else fails
    // the copy and is read by kind below.
    if v.is_not_nil() {
        if let Ok(s) = v.into_rust::<String>() {
            return Arg::Str(s);
        }
    }
    let k = match kind(env, v) {
        Ok(k) => k,
        Err(e) => return Arg::Opaque(e.to_string()),
    };
    // A string, the common case, is copied once (not into JSON, then out).
    if let Kind::Str = k {
        return match v.into_rust::<String>() {
            Ok(s) => Arg::Str(s),
            Err(_) => match lossy_string(env, v) {
                Some(s) => Arg::Invalid(s),
                None => Arg::Opaque("text that is not valid Unicode".into()),
            },
        };
    }
    let mut budget = MAX_NODES;
    match to_json_kind(env, v, Some(k), 0, &mut budget) {
        Ok(j) => Arg::from_json(&j),
        Err(why) => Arg::Opaque(why),
    }
}

fn string_or_name(env: &Env, v: Value<'_>) -> Option<String> {
    match kind(env, v).ok()? {
        Kind::Str => v.into_rust::<String>().ok(),
        Kind::Symbol(s) => Some(s),
        Kind::Keyword(k) => Some(k),
        _ => None,
    }
}

/// A call read from Lisp, with the original argument values for edits.
pub struct LispCall<'e> {
    pub call: Call,
    pub values: Vec<Value<'e>>,
}

/// Why a call could not be read; the call is then blocked.
pub type Malformed = String;

/// Read the hook's plist INFO for POLICY, with CWD the request's directory.
pub fn read_call<'e>(
    env: &'e Env,
    policy: &Policy,
    info: Value<'e>,
    cwd: Value<'e>,
    read_all: bool,
) -> std::result::Result<LispCall<'e>, Malformed> {
    let get = |key: &'static emacs::OnceGlobalRef| -> std::result::Result<Value<'e>, Malformed> {
        env.call(plist_get, (info, key.bind(env)))
            .map_err(|_| "the hook's argument is not a plist".to_string())
    };
    let mut call = Call::default();
    let name = get(kw_name)?;
    call.name = match name.into_rust::<String>() {
        Ok(text) => text,
        Err(_) => match kind(env, name).map_err(|e| e.to_string())? {
            Kind::Str => return Err("the tool name is not valid UTF-8 text".into()),
            _ => return Err("the call has no tool name (:name is not a string)".into()),
        },
    };
    let args = get(kw_args)?;
    let mut values = Vec::new();
    if args.is_not_nil() {
        if !matches!(kind(env, args).map_err(|e| e.to_string())?, Kind::Cons) {
            return Err(":args is not a plist".into());
        }
        // Its length, or nil for a circular or dotted list; walked with
        // `car`/`cdr` after, with no copy made in Lisp.
        let n = env
            .call(proper_list_p, [args])
            .ok()
            .filter(|n| n.is_not_nil())
            .and_then(|n| n.into_rust::<i64>().ok())
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| ":args is a circular or dotted list".to_string())?;
        if n % 2 != 0 {
            return Err(format!(":args is a plist of odd length {n}"));
        }
        if n / 2 > MAX_ARGS {
            return Err(format!(":args has more than {MAX_ARGS} arguments"));
        }
        let step = |list: Value<'e>| -> std::result::Result<(Value<'e>, Value<'e>), Malformed> {
            let head = env.call(car, [list]).map_err(|e| e.to_string())?;
            let tail = env.call(cdr, [list]).map_err(|e| e.to_string())?;
            Ok((head, tail))
        };
        let mut rest = args;
        for i in 0..n / 2 {
            let (key, tail) = step(rest)?;
            let (value, tail) = step(tail)?;
            rest = tail;
            let key = match keyword_name(env, key).map_err(|e| e.to_string())? {
                Some(k) => k,
                None => return Err(format!(":args key number {} is not a keyword", i + 1)),
            };
            let arg = if read_all || policy.needed_args.contains(&key) {
                to_arg(env, value)
            } else {
                Arg::Unread
            };
            call.args.push((key, arg));
            values.push(value);
        }
    }
    if read_all || policy.needs_buffer {
        call.buffer = string_or_name(env, get(kw_buffer)?);
    }
    if read_all || policy.needs_backend {
        let backend = get(kw_backend)?;
        call.backend = match kind(env, backend).map_err(|e| e.to_string())? {
            Kind::Str => backend.into_rust::<String>().ok(),
            Kind::Nil => None,
            _ => {
                // gptel may be loaded after the module: look the accessor
                // up by name, on the calls that need it.
                let accessor = env
                    .intern("gptel-backend-name")
                    .map_err(|e| e.to_string())?;
                let defined = env
                    .call(fboundp, [accessor])
                    .map(|v| v.is_not_nil())
                    .unwrap_or(false);
                if defined {
                    env.call(accessor, [backend])
                        .ok()
                        .and_then(|v| string_or_name(env, v))
                } else {
                    None
                }
            }
        };
    }
    if read_all || policy.needs_model {
        call.model = string_or_name(env, get(kw_model)?);
    }
    if cwd.is_not_nil() {
        call.cwd = cwd.into_rust::<String>().ok();
    }
    Ok(LispCall { call, values })
}

/// Read the `:result' of the hook's plist INFO: text as it is (text that
/// is not valid Unicode with U+FFFD for each bad character), other data as
/// JSON text, nil as None. The text crosses the boundary once.
pub fn read_result<'e>(
    env: &'e Env,
    info: Value<'e>,
) -> std::result::Result<Option<String>, Malformed> {
    let result = env
        .call(plist_get, (info, kw_result.bind(env)))
        .map_err(|_| "the hook's argument is not a plist".to_string())?;
    Ok(match kind(env, result).map_err(|e| e.to_string())? {
        Kind::Str => Some(match result.into_rust::<String>() {
            Ok(s) => s,
            Err(_) => lossy_string(env, result)
                .ok_or_else(|| "the tool result is not valid Unicode text".to_string())?,
        }),
        Kind::Nil => None,
        _ => Some(
            to_json(env, result, 0, &mut MAX_NODES.clone())
                .map(|j| j.to_string())
                .map_err(|why| format!("the tool result is {why}"))?,
        ),
    })
}

/// Turn a serde value into Lisp as gptel's JSON reader would: objects are
/// plists, arrays vectors, false `:json-false`, null nil.
pub fn from_json<'e>(env: &'e Env, j: &Json) -> Result<Value<'e>> {
    match j {
        Json::Null => ().into_lisp(env),
        Json::Bool(true) => true.into_lisp(env),
        Json::Bool(false) => Ok(kw_json_false.bind(env)),
        Json::Number(n) => match n.as_i64() {
            Some(i) => i.into_lisp(env),
            None => n.as_f64().unwrap_or(0.0).into_lisp(env),
        },
        Json::String(s) => s.as_str().into_lisp(env),
        Json::Array(items) => {
            let values = items
                .iter()
                .map(|i| from_json(env, i))
                .collect::<Result<Vec<_>>>()?;
            env.vector(&values)
        }
        Json::Object(map) => {
            let mut values = Vec::with_capacity(map.len() * 2);
            for (k, v) in map {
                values.push(env.intern(&format!(":{k}"))?);
                values.push(from_json(env, v)?);
            }
            env.list(&values)
        }
    }
}

/// The argument plist of an edited call.
pub fn args_plist<'e>(
    env: &'e Env,
    args: &[(String, ArgSource)],
    originals: &[Value<'e>],
) -> Result<Value<'e>> {
    let mut items = Vec::with_capacity(args.len() * 2);
    for (k, src) in args {
        items.push(env.intern(&format!(":{k}"))?);
        items.push(match src {
            ArgSource::Original(i) => match originals.get(*i) {
                Some(v) => *v,
                None => ().into_lisp(env)?,
            },
            ArgSource::New(j) => from_json(env, j)?,
        });
    }
    env.list(&items)
}

/// The plist gptel's pre-tool hook expects for OUTCOME.
pub fn answer<'e>(env: &'e Env, outcome: &Outcome, originals: &[Value<'e>]) -> Result<Value<'e>> {
    let reason = || outcome.reason.clone().unwrap_or_default();
    let mut items: Vec<Value> = Vec::with_capacity(6);
    match outcome.decision {
        Some(Decision::Stop) => {
            return env.list((kw_stop.bind(env), true, kw_stop_reason.bind(env), reason()))
        }
        Some(Decision::Deny) => return env.list((kw_block.bind(env), reason())),
        Some(Decision::Ask) => {
            items.push(kw_confirm.bind(env));
            items.push(true.into_lisp(env)?);
        }
        Some(Decision::Allow) => {
            items.push(kw_confirm.bind(env));
            items.push(().into_lisp(env)?);
        }
        None => {}
    }
    // With a canned result the tool does not run, so edited arguments would
    // change nothing but the call replayed to the model; gptel 0.9.9.6 also
    // mishandles :args together with :result among parallel calls.
    if let (Some(args), None) = (&outcome.args, &outcome.result) {
        items.push(kw_args.bind(env));
        items.push(args_plist(env, args, originals)?);
    }
    if let Some(result) = &outcome.result {
        items.push(kw_result.bind(env));
        items.push(result.as_str().into_lisp(env)?);
    }
    if items.is_empty() {
        ().into_lisp(env)
    } else {
        env.list(&items)
    }
}

/// Read the compile options plist.
pub fn read_options(env: &Env, v: Value<'_>) -> std::result::Result<Options, Error> {
    let mut options = Options::default();
    let j = to_json(env, v, 0, &mut MAX_NODES.clone())
        .map_err(|why| Error::new(format!("options: {why}")))?;
    let map = match j {
        Json::Null => return Ok(options),
        Json::Object(map) => map,
        other => {
            return Err(Error::new(format!(
                "options: expected a plist, got `{other}`"
            )))
        }
    };
    let strings = |key: &str, v: &Json| -> std::result::Result<Vec<String>, Error> {
        match v {
            Json::Null => Ok(Vec::new()),
            Json::Array(items) => items
                .iter()
                .map(|i| {
                    i.as_str().map(str::to_string).ok_or_else(|| {
                        Error::new(format!("option {key}: expected a list of strings"))
                    })
                })
                .collect(),
            Json::String(s) => Ok(vec![s.clone()]),
            _ => Err(Error::new(format!(
                "option {key}: expected a list of strings"
            ))),
        }
    };
    for (k, v) in &map {
        match k.as_str() {
            "path-keys" => options.path_keys = strings(k, v)?,
            "command-keys" => options.command_keys = strings(k, v)?,
            "default-decision" => {
                options.default_decision = match v {
                    Json::Null => None,
                    Json::String(s) => Some(Decision::parse(s).ok_or_else(|| {
                        Error::new(format!(
                            "gptel-rust-hooks-default-decision: unknown decision `{s}` (known: nil, allow, ask, deny)"
                        ))
                    }).and_then(|d| match d {
                        Decision::Stop => Err(Error::new(
                            "gptel-rust-hooks-default-decision: `stop` is not a default (known: nil, allow, ask, deny)",
                        )),
                        d => Ok(d),
                    })?),
                    other => {
                        return Err(Error::new(format!(
                            "gptel-rust-hooks-default-decision: expected a decision, got `{other}`"
                        )))
                    }
                }
            }
            "unsure-decision" => {
                options.unsure_decision = match v {
                    Json::Null => Decision::Ask,
                    Json::String(s) => match Decision::parse(s) {
                        Some(d @ (Decision::Ask | Decision::Deny)) => d,
                        _ => {
                            return Err(Error::new(format!(
                                "gptel-rust-hooks-unsure-decision: unknown decision `{s}` (known: ask, deny)"
                            )))
                        }
                    },
                    other => {
                        return Err(Error::new(format!(
                            "gptel-rust-hooks-unsure-decision: expected `ask` or `deny`, got `{other}`"
                        )))
                    }
                }
            }
            "case-fold" => options.case_fold = v.as_bool().unwrap_or(false),
            "home" => options.home = v.as_str().map(Into::into),
            "redact-secrets" => options.redact_secrets = v.as_bool().unwrap_or(false),
            other => return Err(Error::new(format!("unknown option `:{other}`"))),
        }
    }
    Ok(options)
}

/// Read compile layers: a list of (:source FILE :trusted BOOL :rules RULES)
/// or (:source FILE :trusted BOOL :json TEXT).
pub fn read_layers(env: &Env, v: Value<'_>) -> std::result::Result<Vec<Layer>, Error> {
    let items = match kind(env, v).map_err(|e| Error::new(e.to_string()))? {
        Kind::Nil => return Ok(Vec::new()),
        Kind::Cons => elements(env, v).map_err(|why| Error::new(format!("layers: {why}")))?,
        _ => return Err(Error::new("layers: expected a list")),
    };
    let mut layers = Vec::with_capacity(items.len());
    for i in 0..items.len() {
        let item: Value = items.get(i).map_err(|e| Error::new(e.to_string()))?;
        let get = |key: &str| -> std::result::Result<Value<'_>, Error> {
            let k = env.intern(key).map_err(|e| Error::new(e.to_string()))?;
            env.call(plist_get, (item, k))
                .map_err(|_| Error::new(format!("layer {}: not a plist", i + 1)))
        };
        let source = string_or_name(env, get(":source")?);
        let trusted = get(":trusted")?.is_not_nil();
        let json = get(":json")?;
        let (rules, lines) = if json.is_not_nil() {
            let text: String = json
                .into_rust()
                .map_err(|_| Error::new("policy file text is not valid UTF-8"))?;
            crate::rule::rules_from_json_text(&text)
        } else {
            let value = to_json(env, get(":rules")?, 0, &mut MAX_RULE_NODES.clone())
                .map_err(|why| Error::new(format!("rules: {why}")))?;
            crate::rule::rules_from_value(&value).map(|r| {
                let n = r.len();
                (r, vec![None; n])
            })
        }
        .map_err(|e| match &source {
            Some(s) => e.in_source(s),
            None => e,
        })?;
        layers.push(Layer {
            source,
            trusted,
            rules,
            lines,
        });
    }
    Ok(layers)
}

/// A list of the strings ITEMS.
pub fn string_list<'e>(env: &'e Env, items: &[String]) -> Result<Value<'e>> {
    let values: Vec<Value> = items
        .iter()
        .map(|m| m.as_str().into_lisp(env))
        .collect::<Result<_>>()?;
    env.list(&values)
}

/// A decision record as (DECISION MATCHED BY REASON MICROSECONDS TIME), or nil.
pub fn record_list<'e>(env: &'e Env, record: Option<&Record>) -> Result<Value<'e>> {
    let Some(r) = record else {
        return ().into_lisp(env);
    };
    let decision = match r.decision {
        Some(d) => env.intern(d)?,
        None => ().into_lisp(env)?,
    };
    env.list((
        decision,
        string_list(env, &r.matched)?,
        r.by.clone(),
        r.reason.clone(),
        r.micros,
        r.at,
    ))
}

/// Read a tool's arguments: a list of (NAME TYPE REQUIRED), NAME a string,
/// TYPE the text naming its type or nil, REQUIRED a boolean.
pub fn read_schema(env: &Env, v: Value<'_>) -> std::result::Result<Schema, String> {
    let items = match to_json(env, v, 0, &mut MAX_NODES.clone())? {
        Json::Null => return Ok(Schema::default()),
        Json::Array(items) => items,
        _ => return Err("a tool's arguments: expected a list".into()),
    };
    let args = items
        .iter()
        .map(|item| match item.as_array().map(Vec::as_slice) {
            Some([Json::String(name), ty, required]) => Ok(ArgSpec {
                name: name.clone(),
                ty: ty.as_str().map(str::to_string),
                required: required.as_bool().unwrap_or(false),
            }),
            _ => Err(format!(
                "a tool's argument: expected (NAME TYPE REQUIRED), got `{item}`"
            )),
        })
        .collect::<std::result::Result<_, _>>()?;
    Ok(Schema { args })
}

/// Why the call to tool NAME did not fit, as (:tool NAME :stage STAGE
/// :problems TEXTS :rules LABELS).
pub fn misfit_plist<'e>(env: &'e Env, name: &str, misfit: &Misfit) -> Result<Value<'e>> {
    env.list((
        env.intern(":tool")?,
        name,
        env.intern(":stage")?,
        env.intern(misfit.stage)?,
        env.intern(":problems")?,
        string_list(env, &misfit.problems)?,
        env.intern(":rules")?,
        string_list(env, &misfit.rules)?,
    ))
}

/// Read the sandbox settings plist of a call: `(:temp DIR :socket-dirs DIRS
/// :program NAME :exec-path DIRS :shell SHELL :unavailable REASON)`; nil is
/// none. Settings that cannot be read leave every sandboxed call blocked,
/// with a reason that says so.
pub fn read_sandbox_context(env: &Env, v: Value<'_>) -> Option<SandboxContext> {
    if !v.is_not_nil() {
        return None;
    }
    let unreadable = |why: String| SandboxContext {
        unavailable: Some(format!(
            "cannot sandbox the call: the sandbox settings cannot be read: {why}"
        )),
        ..SandboxContext::default()
    };
    let map = match to_json(env, v, 0, &mut MAX_NODES.clone()) {
        Ok(Json::Object(map)) => map,
        Ok(_) => return Some(unreadable("not a plist".into())),
        Err(why) => return Some(unreadable(why)),
    };
    let text = |key: &str| map.get(key).and_then(Json::as_str).map(str::to_string);
    let texts = |key: &str| -> Vec<String> {
        match map.get(key) {
            Some(Json::Array(items)) => items
                .iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect(),
            Some(Json::String(s)) => vec![s.clone()],
            _ => Vec::new(),
        }
    };
    Some(SandboxContext {
        temp: text("temp").unwrap_or_default(),
        socket_dirs: texts("socket-dirs"),
        program: text("program").unwrap_or_else(|| crate::sandbox::DEFAULT_PROGRAM.into()),
        exec_path: texts("exec-path"),
        shell: text("shell").unwrap_or_else(|| "/bin/sh".into()),
        unavailable: text("unavailable"),
    })
}

/// What the log and the tool runner need of a confined call.
#[derive(Debug, Clone)]
pub struct SandboxNote {
    /// Each confined command argument, by key.
    pub wrapped: Vec<(String, Wrapped)>,
    /// The confinement on one line ([`crate::sandbox::Confinement::describe`]).
    pub describe: String,
    /// The confinement and its rules as JSON text.
    pub json: String,
    /// The labels of the rules whose `:sandbox` applies.
    pub rules: Vec<String>,
}

/// The Lisp form of NOTE: `(:values (KEY WRAPPED ...) :describe TEXT :json
/// TEXT :rules LABELS)`, WRAPPED a string (a command line) or a list of
/// strings (a command given as words).
pub fn sandbox_note<'e>(env: &'e Env, note: &SandboxNote) -> Result<Value<'e>> {
    let mut values = Vec::with_capacity(note.wrapped.len() * 2);
    for (key, w) in &note.wrapped {
        values.push(env.intern(&format!(":{key}"))?);
        values.push(match w {
            Wrapped::Line(line) => line.as_str().into_lisp(env)?,
            Wrapped::Argv(words) => string_list(env, words)?,
        });
    }
    env.list((
        env.intern(":values")?,
        env.list(&values)?,
        env.intern(":describe")?,
        note.describe.as_str(),
        env.intern(":json")?,
        note.json.as_str(),
        env.intern(":rules")?,
        string_list(env, &note.rules)?,
    ))
}
