//! Rules' `:examples`, checked when the policy is compiled: each example
//! call goes through the same matcher as a real call.

use crate::error::{Error, Result};
use crate::policy::Policy;
use crate::prepare::Prepared;
use crate::rule::Call;

/// Check every rule's `:examples`; the first that disagrees is an error.
pub fn check_examples(policy: &Policy) -> Result<()> {
    for (r, rule) in policy.rules.iter().enumerate() {
        let ex = &rule.rule.examples;
        for (calls, want) in [(&ex.matching, true), (&ex.not_matching, false)] {
            for call in calls {
                let prepared = Prepared::new(policy, call);
                let (got, checks) = prepared.check_rule(r, true);
                if got != want {
                    let failed: Vec<&str> = checks
                        .iter()
                        .filter(|c| c.matched != want || !want)
                        .filter(|c| !c.matched || !want)
                        .map(|c| c.matcher)
                        .collect();
                    let detail = if want {
                        format!(" (no match on {})", failed.join(", "))
                    } else {
                        String::new()
                    };
                    let err = Error::key(
                        "examples",
                        format!(
                            "example {} `{}` {}{detail}",
                            if want { ":match" } else { ":no-match" },
                            call_short(call),
                            if want {
                                "does not match the rule"
                            } else {
                                "matches the rule but should not"
                            },
                        ),
                    )
                    .in_rule(rule.origin.index, rule.rule.id.as_deref());
                    return Err(rule.origin.locate(err));
                }
            }
        }
    }
    Ok(())
}

fn call_short(call: &Call) -> String {
    let args: Vec<String> = call
        .args
        .iter()
        .map(|(k, v)| format!(":{k} {}", v.to_json()))
        .collect();
    format!("(:name {:?} :args ({}))", call.name, args.join(" "))
}
