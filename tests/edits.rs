//! Edits given as unified diffs, in the argument shapes agents' edit tools use: the
//! files a diff's `---`/`+++` lines name are paths of the call.

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::Options;
use gptel_rust_hooks::rule::{self, Call, Decision};
use serde_json::{json, Value as Json};

const DIFF: &str = "--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-x\n+y\n";

fn decide(args: Json) -> Option<Decision> {
    let rules = json!([
        {"id": "no-env", "path": ".env", "decision": "deny"},
        {"id": "edits", "tool": ["Edit", "edit_file", "ApplyPatch"], "decision": "allow"},
    ]);
    let rules = rule::rules_from_value(&rules).unwrap_or_else(|e| panic!("bad rules: {e}"));
    let policy = compile::compile(rules, Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let call = Call::from_value(&json!({"name": "Edit", "args": args, "cwd": "/srv/app"}))
        .unwrap_or_else(|e| panic!("bad call: {e}"));
    eval::evaluate(&policy, &call).decision
}

#[test]
fn a_diff_names_its_files_in_every_shape() {
    for args in [
        // gptel-agent's Edit: `diff` true, the diff in `new_str`.
        json!({"path": "README.md", "new_str": DIFF, "diff": true}),
        // `diffp` with `new_str_or_diff`.
        json!({"path": "README.md", "new_str_or_diff": DIFF, "diffp": true}),
        // The diff given as the text of `diff`, or of `patch`, with no flag.
        json!({"file_path": "README.md", "diff": DIFF}),
        json!({"patch": DIFF}),
        // No flag, but the text reads as a diff.
        json!({"path": "README.md", "new_str_or_diff": DIFF}),
    ] {
        assert_eq!(decide(args.clone()), Some(Decision::Deny), "{args}");
    }
}

#[test]
fn text_that_is_no_diff_names_nothing() {
    let args = json!({"path": "README.md", "new_str": "--- a/.env is a file\n", "old_str": "x"});
    assert_eq!(decide(args), Some(Decision::Allow));
}
