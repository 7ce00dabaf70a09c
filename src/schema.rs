//! The arguments a tool declares, and how a call fits them.
//!
//! gptel passes a tool function only the arguments the tool declares, in
//! their declared order: a call that names others, or lacks a required
//! one, is blocked before any rule sees it, and again when rules edited it
//! so. The Lisp side reads a tool's argument list once and hands it over;
//! the module keeps it compiled (a [`Schema`]) and checks every call to
//! that tool against it.

/// One argument a tool declares.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgSpec {
    /// The argument's name (its plist key without the colon).
    pub name: String,
    /// Its type as the tool gives it (`any` when none), or None when the
    /// type is not a name (a JSON schema, say).
    pub ty: Option<String>,
    /// True unless the tool says it is optional.
    pub required: bool,
}

/// The arguments of one tool, in their declared order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Schema {
    pub args: Vec<ArgSpec>,
}

impl Schema {
    /// True when the tool declares the argument KEY.
    pub fn declares(&self, key: &str) -> bool {
        self.args.iter().any(|a| a.name == key)
    }

    /// How a call whose arguments are ARGS, (KEY PRESENT) pairs in order,
    /// does not fit: first each undeclared argument, then each required
    /// one that is absent. An argument whose value is nil is absent.
    pub fn problems<'a>(&self, args: impl Iterator<Item = (&'a str, bool)> + Clone) -> Vec<String> {
        let mut problems: Vec<String> = args
            .clone()
            .filter(|(k, _)| !self.declares(k))
            .map(|(k, _)| format!("unknown argument `{k}`"))
            .collect();
        for spec in self.args.iter().filter(|a| a.required) {
            if !args.clone().any(|(k, present)| present && k == spec.name) {
                problems.push(format!("missing required argument `{}`", spec.name));
            }
        }
        problems
    }

    /// A sentence naming the arguments: "it takes `path` (string, required)".
    pub fn text(&self) -> String {
        if self.args.is_empty() {
            return "it takes no arguments".into();
        }
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                format!(
                    "`{}` ({}{})",
                    a.name,
                    a.ty.as_deref()
                        .map(|t| format!("{t}, "))
                        .unwrap_or_default(),
                    if a.required { "required" } else { "optional" }
                )
            })
            .collect();
        format!("it takes {}", args.join(", "))
    }
}

/// Why a call did not fit its tool's arguments, for the answer and the log.
#[derive(Debug, Clone, PartialEq)]
pub struct Misfit {
    /// `call` (the model's arguments) or `edit` (after rules edited them).
    pub stage: &'static str,
    pub problems: Vec<String>,
    /// The labels of the rules that edited the call (stage `edit`).
    pub rules: Vec<String>,
    /// The block reason given to the model.
    pub reason: String,
}

impl Misfit {
    /// The model's call to tool NAME does not fit SCHEMA, as PROBLEMS say.
    pub fn call(name: &str, schema: &Schema, problems: Vec<String>) -> Misfit {
        let reason = format!(
            "gptel-rust-hooks: the call to tool `{name}` does not fit its arguments: {}; {}",
            problems.join(", "),
            schema.text()
        );
        Misfit {
            stage: "call",
            problems,
            rules: Vec::new(),
            reason,
        }
    }

    /// RULES edited the call to tool NAME so that it no longer fits SCHEMA.
    pub fn edit(name: &str, schema: &Schema, problems: Vec<String>, rules: Vec<String>) -> Misfit {
        let who = if rules.is_empty() {
            "the rules".to_string()
        } else {
            rules
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let reason = format!(
            "gptel-rust-hooks: {who} edited the arguments of tool `{name}` so that they do not fit it: {}; {}",
            problems.join(", "),
            schema.text()
        );
        Misfit {
            stage: "edit",
            problems,
            rules,
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_file() -> Schema {
        Schema {
            args: vec![
                ArgSpec {
                    name: "path".into(),
                    ty: Some("string".into()),
                    required: true,
                },
                ArgSpec {
                    name: "limit".into(),
                    ty: Some("integer".into()),
                    required: false,
                },
            ],
        }
    }

    #[test]
    fn problems_unknown_then_missing() {
        let s = read_file();
        let args = [("file_path", true)];
        assert_eq!(
            s.problems(args.iter().copied()),
            vec![
                "unknown argument `file_path`".to_string(),
                "missing required argument `path`".to_string()
            ]
        );
        let nil_path = [("path", false), ("limit", true)];
        assert_eq!(
            s.problems(nil_path.iter().copied()),
            vec!["missing required argument `path`".to_string()]
        );
        let fits = [("path", true)];
        assert!(s.problems(fits.iter().copied()).is_empty());
    }

    #[test]
    fn text_names_each_argument() {
        assert_eq!(
            read_file().text(),
            "it takes `path` (string, required), `limit` (integer, optional)"
        );
        assert_eq!(Schema::default().text(), "it takes no arguments");
        let untyped = Schema {
            args: vec![ArgSpec {
                name: "q".into(),
                ty: None,
                required: false,
            }],
        };
        assert_eq!(untyped.text(), "it takes `q` (optional)");
    }

    #[test]
    fn edits_of_undeclared_arguments_are_skipped_and_named() {
        use crate::compile::compile;
        use crate::eval::{evaluate_declared, ArgSource};
        use crate::policy::Options;
        use crate::rule::{rules_from_value, Arg, Call, Decision};
        let rules = rules_from_value(&serde_json::json!([
            {"id": "t", "tool": "read_file", "set-args": {"bogus": 1}, "decision": "allow"},
            {"id": "lim", "tool": "read_file", "default-args": {"limit": 5, "extra": 2}},
            {"id": "no-bogus", "tool": "read_file", "args": {"bogus": {"present": true}},
             "decision": "deny"}
        ]))
        .unwrap();
        let policy = compile(rules, Options::default()).unwrap();
        let call = Call {
            name: "read_file".into(),
            args: vec![("path".into(), Arg::Str("/a".into()))],
            ..Call::default()
        };
        let schema = read_file();
        let declares = |k: &str| schema.declares(k);
        let (outcome, skipped) = evaluate_declared(&policy, &call, None, Some(&declares));
        assert_eq!(
            skipped,
            vec![(0, "bogus".to_string()), (1, "extra".to_string())]
        );
        // The skipped edit is not decided again: the deny rule never sees `bogus`.
        assert_eq!(outcome.decision, Some(Decision::Allow));
        let keys: Vec<&str> = outcome
            .args
            .as_ref()
            .unwrap()
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, vec!["path", "limit"]);
        assert!(matches!(
            outcome.args.as_ref().unwrap()[0].1,
            ArgSource::Original(0)
        ));
        // Without a schema, every edit applies (and the edited call is denied).
        let (outcome, skipped) = evaluate_declared(&policy, &call, None, None);
        assert!(skipped.is_empty());
        assert_eq!(outcome.decision, Some(Decision::Deny));
    }

    #[test]
    fn misfit_reasons() {
        let m = Misfit::call(
            "now",
            &Schema::default(),
            vec!["unknown argument `tz`".into()],
        );
        assert_eq!(
            m.reason,
            "gptel-rust-hooks: the call to tool `now` does not fit its arguments: unknown argument `tz`; it takes no arguments"
        );
        let m = Misfit::edit(
            "read_file",
            &read_file(),
            vec!["missing required argument `path`".into()],
            vec!["bad-edit".into()],
        );
        assert!(m
            .reason
            .starts_with("gptel-rust-hooks: `bad-edit` edited the arguments of tool `read_file`"));
        assert_eq!(m.stage, "edit");
    }
}
