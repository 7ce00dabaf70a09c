//! The sandbox of one decided call ([`plan`]): which rules' `:sandbox`
//! apply, the confinement they combine to, and the command lines that run
//! the call's commands under it.
//!
//! Evaluation calls [`plan`] after the decision (DESIGN.md, "Sandboxed
//! calls"): the command was decided as written, and what comes out of here
//! is never decided again. Whatever keeps the call from being confined
//! becomes [`SandboxResult::Failed`], whose text the caller blocks the call
//! with.

use super::bwrap::Sandbox;
use super::confine::{Confinement, SandboxEnv};
use super::{show, SandboxError};
use crate::policy::Policy;
use crate::rule::{Arg, Call};
use serde_json::Value as Json;

/// What sandboxing a call needs to know besides the policy; it travels with
/// each call, like the call's directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxContext {
    /// The temporary directory (`temporary-file-directory`), absolute.
    pub temp: String,
    /// Directories whose Unix-domain sockets are hidden when the network is
    /// off (`gptel-rust-hooks-sandbox-socket-dirs`, expanded).
    pub socket_dirs: Vec<String>,
    /// The sandbox program as configured: `bwrap`, or an absolute path.
    pub program: String,
    /// Where a program name is looked up (`exec-path`).
    pub exec_path: Vec<String>,
    /// The shell that reads a confined command line (`shell-file-name`).
    pub shell: String,
    /// Why no call can be sandboxed here whatever its rules say (a remote
    /// directory), when that is so.
    pub unavailable: Option<String>,
}

/// A command argument, confined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wrapped {
    /// A command line: the line a POSIX shell reads as `exec bwrap ... --
    /// SHELL -c LINE`.
    Line(String),
    /// A command given as a list of words: `bwrap ... -- WORDS...`.
    Argv(Vec<String>),
}

/// A call confined: its confinement and its commands under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The strictest combination of the rules' confinements.
    pub confinement: Confinement,
    /// Each rule's own confinement, in the order of [`Sandboxing::rules`].
    pub each: Vec<Confinement>,
    /// The sandbox program that runs the commands.
    pub program: String,
    /// The directory the commands run in.
    pub cwd: String,
    /// The shell that reads a confined command line.
    pub shell: String,
    /// Each confined command argument, by key, in the call's order.
    pub wrapped: Vec<(String, Wrapped)>,
}

/// What came of sandboxing a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxResult {
    /// The call has no command argument: nothing runs in a shell, so
    /// nothing is confined (the tool runs as it is).
    NoCommand,
    /// The call's commands run confined.
    Confined(Box<Plan>),
    /// The call cannot be confined: the reason to block it with.
    Failed(String),
}

/// The sandbox of a decided call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandboxing {
    /// The matching rules whose `:sandbox` applies, in rule order.
    pub rules: Vec<usize>,
    /// The command arguments they confine, in the call's order.
    pub keys: Vec<String>,
    pub result: SandboxResult,
}

impl Sandboxing {
    /// The confined plan, if the call is confined.
    pub fn plan(&self) -> Option<&Plan> {
        match &self.result {
            SandboxResult::Confined(plan) => Some(plan),
            _ => None,
        }
    }

    /// The reason to block the call with, if it cannot be confined.
    pub fn failure(&self) -> Option<&str> {
        match &self.result {
            SandboxResult::Failed(why) => Some(why),
            _ => None,
        }
    }
}

/// The argument names that give a command's working directory, first found wins.
pub const WORKING_DIRECTORY_KEYS: &[&str] = &["working_directory", "workdir", "cwd"];

/// Sandbox CALL (the call that will run: edited, if rules edited it) as
/// RULES (matching rules with `:sandbox`, in rule order) ask, in CONTEXT.
/// HIDES_FOR is whether deny rule R applies to the call's tool: the paths
/// such rules' `:path` names literally are hidden by default.
pub fn plan(
    policy: &Policy,
    call: &Call,
    rules: Vec<usize>,
    hides_for: impl Fn(usize) -> bool,
    context: Option<&SandboxContext>,
) -> Sandboxing {
    let keys: Vec<String> = call
        .args
        .iter()
        .filter(|(key, value)| {
            !matches!(value, Arg::Null)
                && rules.iter().any(|&r| {
                    policy.rules[r]
                        .command_keys
                        .contains(key, policy.default_command_keys.contains(key))
                })
        })
        .map(|(key, _)| key.clone())
        .fold(Vec::new(), |mut keys, key| {
            if !keys.contains(&key) {
                keys.push(key);
            }
            keys
        });
    let result = if keys.is_empty() {
        SandboxResult::NoCommand
    } else {
        match confine(policy, call, &rules, &keys, hides_for, context) {
            Ok(plan) => SandboxResult::Confined(Box::new(plan)),
            Err(why) => SandboxResult::Failed(why),
        }
    };
    Sandboxing {
        rules,
        keys,
        result,
    }
}

/// The block reason for ERROR, naming the rules whose `:sandbox` it is about.
fn failure(policy: &Policy, rules: &[usize], error: &str) -> String {
    let detail = error
        .strip_prefix("cannot sandbox the call: ")
        .unwrap_or(error);
    let labels: Vec<String> = rules
        .iter()
        .map(|&r| format!("`{}`", show(&policy.rules[r].label)))
        .collect();
    format!(
        "gptel-rust-hooks: cannot sandbox the call (the :sandbox of {}): {detail}",
        labels.join(", ")
    )
}

fn confine(
    policy: &Policy,
    call: &Call,
    rules: &[usize],
    keys: &[String],
    hides_for: impl Fn(usize) -> bool,
    context: Option<&SandboxContext>,
) -> Result<Plan, String> {
    let fail = |e: &dyn std::fmt::Display| failure(policy, rules, &e.to_string());
    let Some(context) = context else {
        return Err(fail(
            &"cannot sandbox the call: the sandbox settings were not given",
        ));
    };
    if let Some(why) = &context.unavailable {
        return Err(fail(&why));
    }
    let home = policy
        .options
        .home
        .as_ref()
        .and_then(|h| h.to_str())
        .map(str::to_string);
    let dir = request_dir(call.cwd.as_deref(), home.as_deref()).map_err(|e| fail(&e))?;
    let env = SandboxEnv {
        dir: &dir,
        home: home.as_deref(),
        temp: &context.temp,
        socket_dirs: &context.socket_dirs,
    };
    let literals: Vec<String> = policy
        .hide_literals
        .iter()
        .filter(|(r, _)| hides_for(*r))
        .flat_map(|(_, paths)| paths.iter().cloned())
        .collect();
    let mut each = Vec::with_capacity(rules.len());
    for &r in rules {
        let Some(spec) = &policy.rules[r].rule.sandbox else {
            continue;
        };
        each.push(
            Confinement::resolve(spec, &env, &literals)
                .map_err(|e| failure(policy, &[r], &e.to_string()))?,
        );
    }
    let Some(confinement) = Confinement::strictest(each.iter().cloned()) else {
        return Err(fail(&"cannot sandbox the call: no rule gave a sandbox"));
    };
    let sandbox = Sandbox::cached(&context.program, &context.exec_path)
        .map_err(|e: SandboxError| fail(&e))?;
    let cwd = command_dir(call, &dir, home.as_deref()).map_err(|e| fail(&e))?;
    let mut wrapped = Vec::with_capacity(keys.len());
    for key in keys {
        let Some(value) = call.arg(key) else { continue };
        let w = match value {
            Arg::Str(line) => {
                super::bwrap::posix_shell(&context.shell).map_err(|e| fail(&e))?;
                Wrapped::Line(
                    sandbox
                        .wrap_line(&confinement, &cwd, &context.shell, line)
                        .map_err(|e| fail(&e))?,
                )
            }
            Arg::List(items) => {
                let words = Arg::strings(items);
                match words {
                    Some(words) if !words.is_empty() => Wrapped::Argv(
                        sandbox
                            .wrap_argv(&confinement, &cwd, &words)
                            .map_err(|e| fail(&e))?,
                    ),
                    Some(_) => {
                        return Err(fail(&format!(
                            "cannot sandbox the call: its command `{}` is an empty list",
                            show(key)
                        )))
                    }
                    None => {
                        return Err(fail(&format!(
                            "cannot sandbox the call: its command `{}` is a list that holds \
                             something other than text",
                            show(key)
                        )))
                    }
                }
            }
            Arg::Invalid(_) | Arg::Opaque(_) | Arg::Unread => {
                return Err(fail(&format!(
                    "cannot sandbox the call: its command `{}` cannot be read as text",
                    show(key)
                )))
            }
            _ => {
                return Err(fail(&format!(
                    "cannot sandbox the call: its command `{}` is neither a command line nor a \
                     list of words",
                    show(key)
                )))
            }
        };
        wrapped.push((key.clone(), w));
    }
    Ok(Plan {
        confinement,
        each,
        program: sandbox.program().to_string(),
        cwd,
        shell: context.shell.clone(),
        wrapped,
    })
}

impl Plan {
    /// The plan as JSON, for the log and for [`rewrap`]: the confinement
    /// ([`Confinement::to_json`]) with the program, the directory and the shell.
    pub fn to_json(&self) -> Json {
        let mut json = self.confinement.to_json();
        json["program"] = Json::String(self.program.clone());
        json["cwd"] = Json::String(self.cwd.clone());
        json["shell"] = Json::String(self.shell.clone());
        json
    }
}

/// COMMAND (a command line, or a list of words) confined as the plan PLAN
/// ([`Plan::to_json`]) confines the call it was made for: a call you edited
/// after it was decided runs in the sandbox of the call it replaces.
pub fn rewrap(plan: &Json, command: &Arg) -> Result<Wrapped, String> {
    let text = |key: &str| {
        plan.get(key)
            .and_then(Json::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("cannot sandbox the call: the sandbox has no `{key}`"))
    };
    let paths = |key: &str| -> Result<Vec<String>, String> {
        plan.get(key)
            .and_then(Json::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(Json::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .ok_or_else(|| format!("cannot sandbox the call: the sandbox has no `{key}`"))
    };
    let confinement = Confinement {
        write: paths("write")?,
        read_only: paths("read-only")?,
        private: paths("private")?,
        hide: paths("hide")?,
        sockets: paths("sockets")?,
        network: plan.get("network").and_then(Json::as_bool).unwrap_or(false),
    };
    let (program, cwd, shell) = (text("program")?, text("cwd")?, text("shell")?);
    let sandbox = Sandbox::cached(&program, &[]).map_err(|e| e.to_string())?;
    match command {
        Arg::Str(line) => {
            super::bwrap::posix_shell(&shell).map_err(|e| e.to_string())?;
            sandbox
                .wrap_line(&confinement, &cwd, &shell, line)
                .map(Wrapped::Line)
                .map_err(|e| e.to_string())
        }
        Arg::List(items) => {
            let words = Arg::strings(items);
            match words {
                Some(words) if !words.is_empty() => sandbox
                    .wrap_argv(&confinement, &cwd, &words)
                    .map(Wrapped::Argv)
                    .map_err(|e| e.to_string()),
                _ => Err("cannot sandbox the call: its command is not a list of words".into()),
            }
        }
        _ => Err(
            "cannot sandbox the call: its command is neither a command line nor a list \
                  of words"
                .into(),
        ),
    }
}

/// CWD (the request's directory, as Emacs gives it: perhaps `~/x/`) made
/// absolute with HOME.
fn request_dir(cwd: Option<&str>, home: Option<&str>) -> Result<String, String> {
    let Some(cwd) = cwd else {
        return Err("cannot sandbox the call: the request's directory is not known".into());
    };
    absolute(cwd, None, home).ok_or_else(|| {
        format!(
            "cannot sandbox the call: the request's directory `{}` is not an absolute local \
             directory",
            show(cwd)
        )
    })
}

/// The directory CALL's commands run in: its working directory argument
/// ([`WORKING_DIRECTORY_KEYS`]) made absolute against DIR (the request's
/// directory), else DIR.
fn command_dir(call: &Call, dir: &str, home: Option<&str>) -> Result<String, String> {
    for key in WORKING_DIRECTORY_KEYS {
        match call.arg(key) {
            Some(Arg::Str(d)) => {
                return absolute(d, Some(dir), home).ok_or_else(|| {
                    format!(
                        "cannot sandbox the call: its working directory `{}` cannot be used",
                        show(d)
                    )
                })
            }
            None | Some(Arg::Null) => {}
            Some(_) => {
                return Err(format!(
                    "cannot sandbox the call: its working directory argument `{key}` is not text"
                ))
            }
        }
    }
    Ok(dir.to_string())
}

/// PATH with `~` expanded by HOME and, when relative, joined to DIR, with
/// `.` and `..` collapsed; None when that gives no absolute path (no home,
/// no DIR, `~user`, a NUL).
fn absolute(path: &str, dir: Option<&str>, home: Option<&str>) -> Option<String> {
    if path.is_empty() || path.contains('\0') {
        return None;
    }
    let abs = if path == "~" || path.starts_with("~/") {
        format!("{}{}", home.filter(|h| h.starts_with('/'))?, &path[1..])
    } else if path.starts_with('~') {
        return None;
    } else if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{path}", dir?.trim_end_matches('/'))
    };
    // `.` and `..` collapsed as text, as Emacs reads a directory name.
    let mut out: Vec<&str> = Vec::new();
    for c in abs.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    Some(format!("/{}", out.join("/")))
}
