//! Over-blocks of the shell reading (issue 23): everyday lines a coding agent runs,
//! allowed under the measure's workspace policy (`tests/measure_corpus.rs`), each beside
//! a near twin that must still be denied or asked.
//!
//! - A command runs in the directory the shell is in when it starts: after `cd DIR &&`
//!   the rest of that list runs in DIR only; a word before a `cd` is not read in its
//!   directory; a subshell's `cd` does not leak out.
//! - A single-quoted `[` that follows no name starts no subscript: ``PS1='[`x`] '`` is
//!   plain text, not a parse error.

mod common;
#[path = "common/git.rs"]
mod repo;

use gptel_rust_hooks::compile;
use gptel_rust_hooks::eval;
use gptel_rust_hooks::policy::{Options, Policy};
use gptel_rust_hooks::rule::{self, Call, Decision};
use gptel_rust_hooks::shell::{self, parse, parse_slow, Place};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use Decision::{Allow, Ask, Deny};

/// A home directory of our own, with a project in it.
fn home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = common::process_dir("gptel-rust-hooks-over");
        for d in ["proj/build", "proj/sub/build", "proj/.git", ".ssh", "other"] {
            std::fs::create_dir_all(dir.join(d)).expect("create temp home");
        }
        dir.canonicalize().expect("canonicalize temp home")
    })
}

fn h(rest: &str) -> String {
    format!("{}/{rest}", home().display())
}

/// The same writers as the measure's policy.
const WRITERS: &str = "^(cp|mv|ln|install|tee|touch|mkdir|rmdir|chmod|chown|truncate|dd|rsync|tar|unzip|zip|gzip|patch)( |$)|^sed( .*)? (-i|--in-place)|^perl( .*)? -[a-z]*i";

/// The workspace policy of `tests/measure_corpus.rs`: deny `rm` outside the project, ask
/// for writes outside it and the temporary directory, deny `~/.ssh/**` and `~/.aws/**`,
/// allow the rest.
fn workspace() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        let p = h("proj");
        let rules = json!([
            {"id": "secrets", "tool": "shell", "path": ["~/.ssh/**", "~/.aws/**"], "decision": "deny"},
            {"id": "rm-outside", "tool": "shell", "command-prefix": "rm", "path-outside": p, "decision": "deny"},
            {"id": "write-outside", "tool": "shell", "command-regexp": WRITERS,
             "path-outside": [p, "/tmp"], "decision": "ask"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"},
            // Programs the table does not know are allowed only by a rule that names them.
            {"id": "by-name", "tool": "shell", "decision": "allow",
             "command-prefix": ["cd", "export", "make", "hostname"]}
        ]);
        let rules = rule::rules_from_value(&rules).expect("rules read");
        let options = Options {
            case_fold: false,
            home: Some(home().to_path_buf()),
            ..Options::default()
        };
        compile::compile(rules, options).expect("policy compiles")
    })
}

/// COMMAND run from the directory CWD (under the temporary home).
fn decision(cwd: &str, command: &str) -> Option<Decision> {
    decision_in(workspace(), cwd, command)
}

/// COMMAND run from the directory CWD (under the temporary home), under POLICY.
fn decision_in(policy: &Policy, cwd: &str, command: &str) -> Option<Decision> {
    let value = json!({"name": "shell", "args": {"command": command}, "cwd": h(cwd)});
    let call = Call::from_value(&value).expect("call reads");
    eval::evaluate(policy, &call).decision
}

/// RULES compiled with the temporary home, and DEFAULT for calls no rule decides.
fn with_home(rules: serde_json::Value, default: Option<Decision>) -> Policy {
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let options = Options {
        home: Some(home().to_path_buf()),
        default_decision: default,
        ..Options::default()
    };
    compile::compile(rules, options).expect("policy compiles")
}

/// Each line, run from the directory given, decides as said.
macro_rules! decides {
    ($($name:ident: $cwd:literal, $command:expr => $decision:expr;)*) => {$(
        #[test]
        fn $name() {
            let command: String = $command.into();
            assert_eq!(decision($cwd, &command), $decision.into(), "{command} (from {})", $cwd);
        }
    )*};
}

decides! {
    // `cd DIR && rest`: the rest runs in DIR only.
    cd_and_rm_in_the_project: "", "cd proj && rm -rf build" => Allow;
    cd_and_make_and_rm: "", "cd proj && make && rm -rf build" => Allow;
    cd_twice_and_rm: "", "cd proj && cd sub && rm -rf build" => Allow;
    cd_and_rm_twice_in_line: "", "cd proj && rm -rf build && rm -f sub/a.o" => Allow;
    // ... but not after `;`, `||`, a `||` earlier in the list, a pipeline, a wrapper.
    cd_then_rm: "", "cd proj; rm -rf build" => Deny;
    cd_or_then_rm: "", "cd proj || true; rm -rf build" => Deny;
    or_before_cd: "", "true || cd proj && rm -rf build" => Deny;
    cd_in_pipeline: "", "cd proj | cat && rm -rf build" => Deny;
    cd_by_sudo: "", "sudo cd proj && rm -rf build" => Deny;
    cd_by_env: "", "env cd proj && rm -rf build" => Deny;
    cd_back_up: "", "cd proj && rm -rf build && cd .. && rm -rf build" => Deny;
    cd_as_function: "", "cd() { :; }; cd proj && rm -rf build" => Deny;
    cd_in_eval: "", "eval 'cd proj' && rm -rf build" => Deny;
    cd_in_subshell_then: "", "(cd proj && make) && rm -rf build" => Deny;
    cd_in_string: "", "bash -c 'cd proj' && rm -rf build" => Deny;
    // The line gives `d` its value (helper-83: `cd "$d"` was a directory not known).
    cd_to_variable: "", "d=proj; cd $d && rm -rf build" => Allow;
    cd_and_pipeline: "", "cd proj && rm -rf build | cat" => Allow;
    cd_and_find_exec: "", "cd proj && find build -name '*.o' -exec rm -f {} +" => Allow;
    cd_and_find_xargs: "", "cd proj && find build -name '*.o' | xargs rm -f" => Allow;
    find_not_path_xargs: "proj", "find . -name '*.o' -not -path './sub/*' | xargs rm -f" => Allow;
    find_or_xargs: "proj", "find . -name '*.o' -o -name '*.a' | xargs rm -f" => Allow;
    find_or_xargs_outside: "proj", "find .. -name '*.o' -o -name '*.a' | xargs rm -f" => Deny;
    cd_or_then_pipeline: "", "cd proj || true; rm -rf build | cat" => Deny;
    cd_then_pipeline: "", "cd proj; rm -rf build | cat" => Deny;
    cd_to_output: "", "d=$(echo proj); cd $d && rm -rf build" => Deny;
    // `cd DIR || exit; rest` and `if cd DIR; then rest`: the rest runs in DIR only, and
    // so does a simple command right after one that runs there (`a; b`). `cd -P`, `cd
    // --` and `pushd` go where `cd` goes (helper-100 found them read in both places).
    cd_or_exit_rm: "", "cd proj || exit; rm -rf build" => Allow;
    cd_or_exit_status_make_rm: "", "cd proj || exit 1; make; rm -rf build" => Allow;
    cd_or_exit_lines: "", "cd proj || exit; make\nrm -rf build | cat" => Deny;
    if_cd_rm: "", "if cd proj; then rm -rf build; fi" => Allow;
    if_cd_make_rm: "", "if cd proj; then\n  make\n  rm -rf build\nfi" => Allow;
    elif_cd_rm: "", "if false; then :; elif cd proj && make; then rm -rf build; fi" => Allow;
    cd_physical_rm: "", "cd -P proj && rm -rf build" => Allow;
    cd_dashes_rm: "", "cd -L -- proj && rm -rf build" => Allow;
    pushd_rm: "", "pushd proj >/dev/null && rm -rf build" => Allow;
    // A group that ends in `exit` (helper-101), and after a pipeline (run in subshells:
    // even a `cd` there leaves the shell where it was) or assignments alone.
    cd_or_group_exit_rm: "", "cd proj || { echo 'no proj' >&2; exit 1; }; rm -rf build" => Allow;
    cd_or_exit_pipeline_rm: "", "cd proj || exit; ls | head; rm -rf build" => Allow;
    cd_or_exit_piped_cd_rm: "", "cd proj || exit; true | cd /; rm -rf build" => Allow;
    // ... but not where the `cd` may have failed, or ran in a shell of its own.
    cd_or_exit_piped: "", "cd proj || exit | cat; rm -rf build" => Deny;
    cd_or_exit_background: "", "cd proj || exit & rm -rf build" => Deny;
    cd_or_exit_in_pipeline: "", "{ cd proj || exit; } | cat; rm -rf build" => Deny;
    cd_or_exit_in_subshell: "", "(cd proj || exit); rm -rf build" => Deny;
    cd_or_echo_exit: "", "cd proj || echo exit; rm -rf build" => Deny;
    cd_or_exit_and: "", "cd proj || exit && true; rm -rf build" => Deny;
    cd_or_exit_cd_back: "", "cd proj || exit; cd ..; rm -rf build" => Deny;
    // helper-101: `exit --help` prints help and goes on; so may a word only the shell
    // knows, or more than one.
    cd_or_exit_help: "", "cd proj || exit --help; rm -rf build" => Deny;
    cd_or_exit_help_quoted: "", "cd proj || exit '--help'; rm -rf build" => Deny;
    cd_or_exit_variable: "", "x=--help; cd proj || exit $x; rm -rf build" => Deny;
    cd_or_exit_two: "", "cd proj || exit 1 2; rm -rf build" => Deny;
    cd_or_group_redirected: "", "cd proj || { exit 1; } >/nonexistent/f; rm -rf build" => Deny;
    cd_or_group_exit_background: "", "cd proj || { exit 1 & }; rm -rf build" => Deny;
    cd_or_group_exit_not_last: "", "cd proj || { exit 1; echo; }; rm -rf build" => Deny;
    cd_or_group_piped: "", "cd proj || { exit 1; } | cat; rm -rf build" => Deny;
    // helper-102: an error that throws the rest of the line away skips the `exit`.
    cd_or_group_readonly: "", "readonly x=1; cd proj || { x=2; exit; }\nrm -rf build" => Deny;
    cd_or_group_expansion: "", "cd proj || { echo \"$((1/0))\"; exit; }\nrm -rf build" => Deny;
    cd_or_group_printf_v: "", "cd proj || { printf -v x no; exit; }\nrm -rf build" => Deny;
    cd_or_group_here_string: "", "cd proj || { cat <<< no; exit; }\nrm -rf build" => Deny;
    // helper-103: an assignment to a variable the line made readonly throws the rest of
    // the line away, `cd` and all, and bash goes on with the next line.
    readonly_before_cd_line: "proj", "cd .. || exit; readonly q=1; q=2; cd proj || exit\nrm -rf build" => Deny;
    cd_or_exit_pipeline_or: "", "cd proj || exit; ls | head || cd /; rm -rf build" => Deny;
    exit_as_function: "", "exit() { :; }; cd proj || exit; rm -rf build" => Deny;
    if_cd_else: "", "if cd proj; then :; else rm -rf build; fi" => Deny;
    if_cd_after_fi: "", "if cd proj; then :; fi; rm -rf build" => Deny;
    if_not_cd: "", "if ! cd proj; then rm -rf build; fi" => Deny;
    if_cd_or: "", "if cd proj || true; then rm -rf build; fi" => Deny;
    if_cd_piped: "", "if cd proj | cat; then rm -rf build; fi" => Deny;
    // helper-101: a condition that ends with `&` succeeds wherever its `cd` went.
    if_cd_background: "", "if cd proj & then rm -rf build; fi" => Deny;
    elif_cd_background: "", "if false; then :; elif cd proj & then rm -rf build; fi" => Deny;
    if_cd_background_line: "", "if cd proj &\nthen rm -rf build; fi" => Deny;
    while_cd: "", "while cd proj; do rm -rf build; cd ..; done" => Deny;
    pushd_no_change: "", "pushd -n proj && rm -rf build" => Deny;
    cd_two_operands: "", "cd proj sub && rm -rf build" => Deny;
    // An operand after `--` is a directory, whatever it starts with: `cd -- -x` goes to
    // `-x` (it was read as `cd` alone: home, and `..` above it), `pushd -- -1` too.
    cd_dashes_dash_dir: "", "cd -- -x && cat ../.ssh/id_rsa" => Deny;
    cd_physical_dash_dir: "", "cd -P -- -x; cat ../.ssh/id_rsa" => Deny;
    pushd_dashes_number: "", "pushd -- -1 && cat ../.ssh/id_rsa" => Deny;
    // helper-83: a variable's name inside a path or a long option is no other
    // assignment of it; plain values are put in where the line is read, at every level.
    name_in_path: "proj", "out=build/out; rm -rf \"$out\"" => Allow;
    name_in_value: "proj", "build=build; rm -rf \"$build\"" => Allow;
    name_in_long_option: "proj", "color=auto; ls --color=\"$color\"" => Allow;
    name_after_dot: "proj", "log=build/cargo.log; ls 2> \"$log\"; tail -2 \"$log\"" => Allow;
    name_in_arithmetic: "proj", "n=5; echo $((10/n--)); rm -rf \"$n\"" => Ask;
    value_of_cd_and_env_c: "proj", "d=build; mkdir -p \"$d\" && cd \"$d\" && ls" => Allow;
    value_of_env_c: "proj", "dir=sub; env -C \"$dir\" ls" => Allow;
    value_of_make_c: "proj", "d=sub; make -C \"$d\" -n" => Allow;
    value_in_a_string: "proj", "f=build/a.o; sh -c \"wc -l $f\"" => Allow;
    value_in_a_string_own: "proj", "sh -c 'd=build; rm -rf \"$d\"'" => Allow;
    value_in_a_string_outside: "proj", "sh -c 'd=/etc; rm -rf \"$d\"'" => Deny;
    test_in_a_string: "proj", "bash -c 'd=build; [ -d \"$d\" ] || mkdir \"$d\"'" => Allow;
    printf_of_a_value: "proj", "d=build; printf '%s\\n' \"$d\"" => Allow;
    rm_outside_after_cd: "proj", "cd /tmp && rm -rf x" => Deny;
    cd_then_subshell: "", "cd proj && (cd /tmp; rm -rf x)" => Deny;
    cd_then_group: "proj", "cd /tmp && { rm -rf x; }" => Deny;
    cd_and_then_list: "", "cd proj && rm -rf build; rm -rf x" => Deny;
    cd_or_rm: "proj", "cd /tmp || rm -rf x" => Deny;
    cd_background: "", "cd proj & rm -rf build" => Deny;
    pushd_and_rm: "proj", "pushd /tmp && rm -rf x" => Deny;
    cd_home_secret: "proj", "cd && cat .ssh/id_rsa" => Deny;
    cd_tilde_secret: "proj", "cd ~ && cat .ssh/id_rsa" => Deny;
    cd_home_variable_secret: "proj", "cd \"$HOME\" && cat .ssh/id_rsa" => Deny;
    cd_unknown_secret: "proj", "cd \"$x\" && cat .ssh/id_rsa" => Deny;
    cd_root_relative_secret: "proj", format!("cd / && cat {}", h(".ssh/id_rsa").trim_start_matches('/')) => Deny;
    cd_root_relative_elsewhere: "proj", format!("cat {}; cd /", h(".ssh/id_rsa").trim_start_matches('/')) => Allow;
    cd_exec: "proj", "cd /tmp && exec rm -rf x" => Deny;
    cd_string_inside: "", "cd proj && bash -c 'rm -rf build'" => Deny;
    // A word before a `cd` is read where the line is then.
    rm_before_cd: "proj", "rm -f x; cd /tmp" => Allow;
    rm_after_cd: "proj", "rm -f x; cd /tmp; rm -f y" => Deny;
    // A subshell's `cd` ends with it.
    subshell_cd: "proj", "(cd /tmp && make); rm -f x" => Allow;
    subshell_cd_alone: "proj", "(cd /etc); rm -f x" => Allow;
    inside_subshell: "proj", "(cd /tmp; rm -f x)" => Deny;
    nested_subshell: "proj", "(cd /tmp; (rm -f x))" => Deny;
    subshell_in_loop: "proj", "(for i in 1 2 3; do cd ..; done; rm -f x)" => Deny;
    loop_cd: "proj", "for i in 1 2; do rm -f x; cd /tmp; done" => Deny;
    // Writes outside the project (and the temporary directory) ask.
    touch_before_cd: "proj", "touch stamp; cd /usr" => Allow;
    touch_after_cd: "proj", "cd /usr; touch stamp" => Ask;
    touch_in_subshell: "proj", "(cd /usr && touch stamp)" => Ask;
    // ``'[`x`]'`` is text: bash runs nothing in it. (An exported `PS1` is never allowed:
    // an interactive shell runs its backquotes; but it is read, no parse error, so no
    // deny rule matches it.)
    ps1_backquotes: "proj", "export PS1='[`hostname`] '" => None;
    ps1_backquotes_rm: "proj", "export PS1='[`rm -rf /tmp/x`] '" => None;
    ps1_escapes: "proj", "export PS1='[\\u@\\h \\W]\\$ '" => None;
    echo_backquotes: "proj", "echo '[`rm -rf /tmp/x`]'" => Allow;
    echo_backquotes_to_file: "proj", "echo '[`date`] done' >> build/log" => Allow;
    // echo prints a value in double quotes, neither split nor globbed (helper-47); the
    // commands of a substitution in it are read as the line's.
    echo_quoted_variable: "proj", "echo \"$PATH\"" => Allow;
    echo_quoted_output: "proj", "echo \"built at $(date)\" && ls" => Allow;
    echo_quoted_output_rm: "proj", "echo \"$(rm -rf /tmp/x)\"" => Deny;
    echo_bare_variable: "proj", "echo $PATH" => None;
    echo_quoted_to_a_shell: "proj", "echo \"$X\" | sh" => None;
    // A variable the line gave a plain value, at its top, has that value.
    plain_value: "proj", "d=build; rm -rf \"$d\"" => Allow;
    plain_value_and: "proj", "d=build && rm -rf \"$d/x\" ${d}/y" => Allow;
    plain_value_redirect: "proj", "d=build; echo hi > \"$d/log\"" => Allow;
    plain_value_outside: "proj", "d=/tmp/x; rm -rf \"$d\"" => Deny;
    plain_value_secret: "proj", "d=.ssh; cat ~/$d/id_rsa" => Deny;
    plain_value_moved: "proj", "d=build; cd /tmp && rm -rf \"$d\"" => Deny;
    // ... but not one the reading cannot follow.
    value_read: "proj", "d=build; read d; rm -rf \"$d\"" => Ask;
    // (The line's other values are read as paths of every command: `/x`, `/tmp`, `~/x`.)
    value_appended: "proj", "d=build; d+=/x; rm -rf \"$d\"" => Deny;
    value_appended_inside: "proj", "d=build; d+=x; rm -rf \"$d\"" => Ask;
    value_reassigned_later: "proj", "d=build; rm -rf \"$d\"; d=/tmp" => Deny;
    value_reassigned_inside: "proj", "d=build; rm -rf \"$d\"; d=src" => Ask;
    value_after_and: "proj", "true && d=build; rm -rf \"$d\"" => Ask;
    value_in_subshell: "proj", "(d=build); rm -rf \"$d\"" => Ask;
    value_in_pipeline: "proj", "d=build | true; rm -rf \"$d\"" => Ask;
    value_in_background: "proj", "d=build & rm -rf \"$d\"" => Ask;
    value_used_before: "proj", "rm -rf \"$d\"; d=build" => Ask;
    value_in_loop: "proj", "for i in 1 2; do d=build; done; rm -rf \"$d\"" => Ask;
    value_in_if: "proj", "if true; then d=build; fi; rm -rf \"$d\"" => Ask;
    value_as_prefix: "proj", "d=build rm -rf \"$d\"" => Ask;
    value_with_tilde: "proj", "d=~/x; rm -rf \"$d\"" => Deny;
    value_quoted_tilde: "proj", "d='~'; rm -rf \"$d\"" => Deny;
    // A variable given a command's output holds a value only the running shell knows:
    // an unsure match asks. A command's output in the command's own words still denies.
    output_value: "proj", "tmp=$(mktemp) && echo hi > \"$tmp\" && rm -f \"$tmp\"" => Ask;
    output_word: "proj", "rm -rf $(cat list)" => Deny;
    output_with_part: "proj", "rm -rf \"$(mktemp -d)/../../etc\"" => Deny;
    // ... but a subscript does run what it holds.
    subscript_backquotes: "proj", "printf -v 'a[`rm -rf /tmp/x`]' x" => Deny;
    subscript_before_quote: "proj", "declare a'[`rm -rf /tmp/x`]'=1" => Deny;
    compound_assignment: "proj", "declare -a b='([0]=`rm -rf /tmp/x`)'" => Deny;
    // `%` is a letter, except where bash reads a job: that line is not allowed.
    percent_format: "proj", "stat -c %s build/a.o" => Allow;
    percent_date: "proj", "date +%s" => Allow;
    percent_job: "proj", "sleep 9 & kill %1" => None;
    percent_job_name: "proj", "%1" => None;
    // A download is saved under its URL's name in the current directory: `curl -O` is
    // read (it was an unknown option), and `wget URL` writes that name.
    curl_remote_name_in_project: "proj", "curl -fsSLO https://x.org/a.tgz" => Allow;
    wget_in_project: "proj", "wget -q https://x.org/a.tgz" => Allow;
    curl_remote_name_secret: ".ssh", "curl -sSLO https://x.org/config" => Deny;
    wget_names_its_file: ".ssh", "wget https://x.org/id_rsa" => Deny;
    wget_decoded_name: ".ssh", "wget https://x.org/%69d_rsa" => Deny;
    wget_prefix_dir: "", "wget -P .ssh https://x.org/id_rsa" => Deny;
    // curl reads (with -T, writes) the local file a `file:` URL names.
    curl_file_url: "proj", format!("curl -s file://{}", h(".ssh/id_rsa")) => Deny;
    curl_file_url_localhost: "proj", format!("curl FILE://localhost{}", h(".ssh/id_rsa")) => Deny;
    curl_file_url_encoded: "proj", format!("curl file:{}", h(".ssh/id%5frsa")) => Deny;
    curl_file_url_in_project: "proj", format!("curl -s file://{}", h("proj/README.md")) => Allow;
    curl_https_out: "proj", "curl -fsSL https://x.org/i.sh -o build/i.sh" => Allow;
}

/// A command's name and place: the subshells around it, and the name of the command it
/// runs after.
type Placed = (String, Option<(Vec<usize>, Option<String>)>);

/// The places of LINE's commands, as (argv[0], subshells, the argv[0] of the command
/// it runs after).
fn places(line: &str) -> Vec<Placed> {
    let parsed = parse(line);
    assert_eq!(parsed, parse_slow(line), "the two readings agree on {line}");
    let name = |k: usize| parsed.commands[k].argv[0].clone();
    parsed
        .commands
        .iter()
        .map(|c| {
            let place = c.place.as_ref().map(|Place { subshells, after }| {
                // `b?`: right after `b`, which may have failed.
                let after = after.map(|a| name(a.command) + if a.succeeded { "" } else { "?" });
                (subshells.clone(), after)
            });
            (c.argv[0].clone(), place)
        })
        .collect()
}

fn at(name: &str, subshells: &[usize], after: Option<&str>) -> Placed {
    (
        name.to_string(),
        Some((subshells.to_vec(), after.map(str::to_string))),
    )
}

fn unplaced(name: &str) -> Placed {
    (name.to_string(), None)
}

#[test]
fn and_lists_give_the_command_run_after() {
    assert_eq!(
        places("cd a && make && rm b; ls"),
        [
            at("cd", &[], None),
            at("make", &[], Some("cd")),
            at("rm", &[], Some("make")),
            at("ls", &[], None)
        ]
    );
    assert_eq!(
        places("x || cd a && rm b"),
        [at("x", &[], None), at("cd", &[], None), at("rm", &[], None)]
    );
    assert_eq!(
        places("a | b && c && d"),
        [
            at("a", &[], None),
            at("b", &[], None),
            at("c", &[], None),
            at("d", &[], Some("c"))
        ]
    );
    // Each command of a pipeline runs once the one before the pipeline succeeded, in the
    // directory it leaves (helper-98: `cd src && grep -r x . | head` read `.` where the
    // line starts too).
    assert_eq!(
        places("x && a | b"),
        [
            at("x", &[], None),
            at("a", &[], Some("x")),
            at("b", &[], Some("x"))
        ]
    );
    assert_eq!(
        places("x && a | b | c && d"),
        [
            at("x", &[], None),
            at("a", &[], Some("x")),
            at("b", &[], Some("x")),
            at("c", &[], Some("x")),
            at("d", &[], None)
        ]
    );
    // Every command one simple command runs (`find -exec`'s too). (The two readings
    // give `find` itself other paths here: its places alone are compared.)
    for line in [
        parse("cd a && find . -exec rm {} +"),
        parse_slow("cd a && find . -exec rm {} +"),
    ] {
        let after: Vec<Option<usize>> = line
            .commands
            .iter()
            .map(|c| c.place.as_ref().and_then(|p| p.after).map(|a| a.command))
            .collect();
        assert_eq!(after, [None, Some(0), Some(0)]);
    }
    assert_eq!(
        places("(cd a) && rm b"),
        [at("cd", &[1], None), at("rm", &[], None)]
    );
}

/// A simple command alone in its item runs right after the one alone before it (`a;
/// b`), which may have failed; after `a || exit` (a succeeded, or bash ended the shell);
/// an `if` body right after its condition's last command, which succeeded.
#[test]
fn items_and_if_bodies_give_the_command_run_after() {
    assert_eq!(
        places("a; b && c; d"),
        [
            at("a", &[], None),
            at("b", &[], Some("a?")),
            at("c", &[], Some("b")),
            at("d", &[], None)
        ]
    );
    assert_eq!(
        places("cd a || exit 1; b; c | d & e"),
        [
            at("cd", &[], None),
            at("exit", &[], None),
            at("b", &[], Some("cd")),
            at("c", &[], Some("b?")),
            at("d", &[], Some("b?")),
            at("e", &[], None)
        ]
    );
    assert_eq!(
        places("if cd a; then b; c; fi; d"),
        [
            at("cd", &[], None),
            at("b", &[], Some("cd")),
            at("c", &[], Some("b?")),
            at("d", &[], None)
        ]
    );
    assert_eq!(
        places("if x; then y; elif cd a && z; then b; else c; fi"),
        [
            at("x", &[], None),
            at("y", &[], Some("x")),
            at("cd", &[], None),
            at("z", &[], Some("cd")),
            at("b", &[], Some("z")),
            at("c", &[], None)
        ]
    );
    // After a pipeline or assignments alone, the shell is where it was; a group that
    // ends in `exit` ends the shell.
    assert_eq!(
        places("cd a || exit; x=1; b | c; d; e"),
        [
            at("cd", &[], None),
            at("exit", &[], None),
            at("b", &[], Some("cd")),
            at("c", &[], Some("cd")),
            at("d", &[], Some("cd")),
            at("e", &[], Some("d?"))
        ]
    );
    assert_eq!(
        places("cd a || { echo no; exit 1; }; b"),
        [
            at("cd", &[], None),
            at("echo", &[], None),
            at("exit", &[], Some("echo?")),
            at("b", &[], Some("cd"))
        ]
    );
    assert_eq!(
        places("if cd a & then b; fi; cd c || exit --help; d"),
        [
            at("cd", &[], None),
            at("b", &[], None),
            at("cd", &[], None),
            at("exit", &[], None),
            at("d", &[], None)
        ]
    );
    // Each line of a script runs after nothing known: bash may throw the rest of the
    // line before it away (helper-103: `readonly q; q=2; cd src || exit` then `cat x`
    // on the next line reads `x` where the line was). Not so inside a compound command.
    assert_eq!(
        places("cd a || exit\nb; c\n\nd &\ne"),
        [
            at("cd", &[], None),
            at("exit", &[], None),
            at("b", &[], None),
            at("c", &[], Some("b?")),
            at("d", &[], None),
            at("e", &[], None)
        ]
    );
    assert_eq!(
        places("a; # c\nb; cat <<E\nx\nE\nd"),
        [
            at("a", &[], None),
            at("b", &[], None),
            at("cat", &[], Some("b?")),
            at("d", &[], None)
        ]
    );
    assert_eq!(
        places("if cd a; then\nb\nc\nfi"),
        [
            at("cd", &[], None),
            at("b", &[], Some("cd")),
            at("c", &[], Some("b?"))
        ]
    );
    assert_eq!(
        places("cd a || exit | cat; b; (c); d"),
        [
            at("cd", &[], None),
            at("exit", &[], None),
            at("cat", &[], None),
            at("b", &[], None),
            at("c", &[1], None),
            at("d", &[], None)
        ]
    );
}

#[test]
fn subshells_are_numbered_and_strings_unplaced() {
    assert_eq!(
        places("(cd a; (ls)); (pwd) && rm x"),
        [
            at("cd", &[1], None),
            at("ls", &[1, 2], None),
            at("pwd", &[3], None),
            at("rm", &[], None)
        ]
    );
    assert_eq!(
        places("cd a && bash -c 'cd b && rm x'"),
        [at("cd", &[], None), unplaced("cd"), unplaced("rm")]
    );
    assert_eq!(
        places("f() { cd a; }; f && rm x"),
        [unplaced("cd"), unplaced("f"), unplaced("rm")]
    );
    // A substitution runs in a subshell of its own: unplaced.
    let line = "x=$(cd a; pwd) && rm b";
    assert!(shell::parse(line)
        .commands
        .iter()
        .all(|c| c.argv[0] == "rm" || c.place.is_none()));
}

/// A plain value is put in the words every rule sees: a command rule matches the words
/// that run (`d=-rf; rm $d x` is `rm -rf x`).
#[test]
fn command_rules_see_plain_values() {
    let rules = json!([
        {"id": "no-rf", "tool": "shell", "command-prefix": "rm -rf", "decision": "deny"},
        {"id": "no-push", "tool": "shell", "command-regexp": "^git push", "decision": "deny"},
        {"id": "rm", "tool": "shell", "command-prefix": ["rm", "git"], "decision": "allow"}
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let policy = compile::compile(rules, Options::default()).expect("policy compiles");
    let decide = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": h("proj")});
        eval::evaluate(&policy, &Call::from_value(&value).expect("call reads")).decision
    };
    assert_eq!(decide("d=-rf; rm $d build"), Some(Deny));
    // `"$o"f` is `$of` once unquoted: not a plain value, never allowed.
    assert_ne!(decide("o=-r && rm \"$o\"f build"), Some(Allow));
    assert_eq!(decide("p=push; git $p origin"), Some(Deny));
    assert_eq!(decide("d=build; rm -f \"$d\""), Some(Allow));
    assert_eq!(decide("p=status; git $p"), Some(Allow));
}

/// `%` is a letter (`stat -c %s f`, `date +%s`); bash reads it as a job only as a command
/// name (`%1` is `fg %1`) and in the operands of its job builtins (`kill %1`), quoted or
/// not, given by a variable or a glob: those lines stay uncertain.
#[test]
fn percent_is_a_letter_except_where_bash_reads_a_job() {
    let certain = |line: &str| shell::read_for_rules(line).0.is_certain();
    for line in [
        "stat -c %s build/a.o",
        "stat --format=%s build/a.o",
        "date +%s",
        "date -u +%Y-%m-%d",
        "printf %s x",
        "printf '%s\\n' x",
        "find . -name '*.c' -printf %p\\\\n",
        "git log -1 --format=%H",
        "echo %1",
        "kill -9 1234",
        "kill -s TERM 1234",
        "x=%1; echo \"$x\"",
        "echo hi > %out",
    ] {
        assert!(certain(line), "certain: {line}");
    }
    for line in [
        "%1",
        "%1 &",
        "'%1'",
        "\"%\"1",
        "%",
        "%-",
        "%?sleep",
        "kill %1",
        "kill -9 %1",
        "kill '%1'",
        "kill -s TERM %+",
        "wait %1",
        "wait -n %1",
        "disown -h %1",
        "fg %1",
        "bg %1",
        "jobs %1",
        "command kill %1",
        "builtin kill %1",
        "command -p kill %%",
        "j=%1; kill \"$j\"",
        "for j in %1 %2; do kill \"$j\"; done",
        "for j in %1; do \"$j\"; done",
        "kill %*",
        "sleep 9 & kill %1",
        "bash -c 'kill %1'",
    ] {
        assert!(!certain(line), "not certain: {line}");
    }
}

/// A deny path rule that matched only what a bound kept from being checked (a glob the
/// reading does not expand) gives a reason that names the rule and what was not checked,
/// not the rule's own reason alone (`This file holds secrets` for `src/+(a|b).rs`); a path
/// the reading did check keeps the rule's own reason.
#[test]
fn an_unchecked_glob_names_the_rule_that_matched() {
    const SECRETS: &str = "This file holds secrets (keys, tokens, credentials): it is not for the model; ask the user.";
    let rules = json!([
        {"id": "secrets", "path": ["~/.ssh/**", ".env"], "decision": "deny", "reason": SECRETS},
        {"id": "no-pem", "path": "*.pem", "decision": "deny"}
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let options = Options {
        home: Some(home().to_path_buf()),
        ..Options::default()
    };
    let policy = compile::compile(rules, options).expect("policy compiles");
    let decide = |name: &str, args: serde_json::Value| {
        let value = json!({"name": name, "args": args, "cwd": h("proj")});
        eval::evaluate(&policy, &Call::from_value(&value).expect("call reads"))
    };
    for (tool, args) in [
        ("glob", json!({"pattern": "src/+(a|b).rs"})),
        (
            "grep",
            json!({"pattern": "x", "include": "**/@(main|util).c"}),
        ),
    ] {
        let o = decide(tool, args.clone());
        assert_eq!(o.decision, Some(Deny), "{tool} {args}");
        let reason = o.reason.unwrap_or_default();
        assert!(
            reason.starts_with(&format!(
                "gptel-rust-hooks: tool `{tool}` denied by secrets:"
            )),
            "{reason}"
        );
        assert!(
            reason.contains("what was not checked counts as matching: the glob"),
            "{reason}"
        );
        assert!(
            reason.ends_with(&format!("the rule says: {SECRETS}")),
            "{reason}"
        );
    }
    // A secret the reading did find: the rule's own reason.
    let o = decide("read_file", json!({"path": h(".ssh/id_rsa")}));
    assert_eq!(
        (o.decision, o.reason.as_deref()),
        (Some(Deny), Some(SECRETS))
    );
    let o = decide("shell", json!({"command": "cat .env"}));
    assert_eq!(
        (o.decision, o.reason.as_deref()),
        (Some(Deny), Some(SECRETS))
    );
}

/// `=` is a letter at the start of a word as anywhere else (`[ a = b ]`, `sort -t =`):
/// bash gives it no meaning there. `x==y` still assigns `=y`, and `=~/x` (a `~` after
/// `=`) stays uncertain.
#[test]
fn equals_is_a_letter() {
    let certain = |line: &str| shell::read_for_rules(line).0.is_certain();
    for line in [
        "[ a = b ]",
        "test abc = abc && echo same",
        "sort -t = -k 2 data/words.txt",
        "cut -d = -f 1 .env.example",
        "grep -c = data/config.json",
    ] {
        assert!(certain(line), "certain: {line}");
    }
    assert!(!certain("echo =~/x"), "a `~` after `=` stays uncertain");
    let read = parse("x==y; =y z");
    let argvs: Vec<&[String]> = read.commands.iter().map(|c| c.argv.as_slice()).collect();
    assert_eq!(argvs, [["=y".to_string(), "z".to_string()].as_slice()]);
    assert_eq!(decision("proj", "[ a = b ] && rm -rf /tmp/x"), Some(Deny));
    assert_eq!(decision("proj", "sort -t = -k 2 build/a.o"), Some(Allow));
}

/// `!` is a letter in an operand (`test ! -d d`, `[ ! -f x ]`, `A^!`): a shell that runs
/// a string expands no history. As a command name (`!!`, `!ls`), the reserved word
/// (`! cmd`) and before `(` (an extended glob) it stays uncertain.
#[test]
fn bang_is_a_letter_in_operands() {
    let certain = |line: &str| shell::read_for_rules(line).0.is_certain();
    for line in [
        "test ! -d build",
        "[ ! -f build/a.o ] && echo missing",
        "git log -1 HEAD^!",
        "echo done!",
        "ls build/[!a]*",
    ] {
        assert!(certain(line), "certain: {line}");
    }
    for line in [
        "!!",
        "!ls",
        "'!x' y",
        "! grep -q x f",
        "if ! cd /tmp; then echo no; fi",
        "ls !(build)",
        "echo a && !x",
    ] {
        assert!(!certain(line), "not certain: {line}");
    }
    assert_eq!(
        decision("proj", "test ! -d build && rm -rf /tmp/x"),
        Some(Deny)
    );
    assert_eq!(
        decision("proj", "[ ! -d build ] || rm -rf build"),
        Some(Allow)
    );
}

/// A `$` that starts no expansion is itself: at the end of a word (`NAME$`), before a
/// blank or the closing quote inside double quotes (`"go$ | py$"`). `$x`, `$'..'`, a
/// `$` before `(` still expand.
#[test]
fn a_lone_dollar_is_a_letter() {
    let certain = |line: &str| shell::read_for_rules(line).0.is_certain();
    for line in [
        "echo COMPUTER_NAME$ x",
        "grep -c 'a' \"go$ | py$\" && echo \"$\"",
        "echo price: 5$; echo a$|cat",
        "echo a$>build/log",
    ] {
        assert!(certain(line), "certain: {line}");
    }
    for line in [
        "echo a$x",
        // (Given to `cat`: in double quotes, `echo` only prints what they hold.)
        "cat \"$x \"",
        "echo $'a\\n'",
        "echo a$(cat f)",
        "cat \"a$(cat f)\"",
        "echo $\"a\"",
    ] {
        assert!(!certain(line), "not certain: {line}");
    }
    let read = parse("echo a$>build/log");
    assert_eq!(read.commands[0].argv, ["echo", "a$"]);
    assert_eq!(read.redirects, ["build/log"]);
}

/// git in a project (a repository) under the preset's rules: its walks of the work tree
/// (`git status` and `git diff` walk all of it, from any directory of it) meet no secret
/// rule, from the top or a subdirectory. From the home, which is in no repository, git
/// stops: nothing is walked.
#[test]
fn git_in_a_project_is_not_blocked() {
    let p = h("proj");
    let rules = json!([
        {"id": "secrets", "decision": "deny",
         "path": ["~/.ssh", "~/.ssh/**", "~/.aws/**", ".env", ".env.local", "id_rsa"]},
        {"id": "recursive-delete-outside-project", "decision": "deny",
         "command-regexp": "^rm\\s(.*\\s)?(-[a-zA-Z]*[rR][a-zA-Z]*|--r[a-z]*)(\\s|$)",
         "path-outside": [p, "/tmp"]},
        {"id": "read-only-commands", "decision": "allow", "cwd": [p.clone(), format!("{p}/**")],
         "command-prefix": ["git status", "git diff", "git log", "git show", "git ls-files", "cd"]},
        {"id": "git-by-name", "decision": "allow",
         "command-prefix": ["git add", "git commit", "git stash", "git grep"]}
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let options = Options {
        case_fold: false,
        home: Some(home().to_path_buf()),
        ..Options::default()
    };
    let policy = compile::compile(rules, options).expect("policy compiles");
    let decide = |cwd: &str, command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": h(cwd)});
        eval::evaluate(&policy, &Call::from_value(&value).expect("call reads")).decision
    };
    for cwd in ["proj", "proj/sub"] {
        for line in [
            "git status",
            "git status --short",
            "git diff",
            "git diff --stat HEAD~1",
            "git diff --cached",
            "git log --oneline -5",
            "git log -p -- src",
            "git show HEAD",
            "git ls-files",
            "git ls-files '*.c'",
            "git ls-files -- 'src/**/*.rs' '*.env'",
            "git add -A",
            "git add -u",
            "git commit -am wip",
            "git stash",
            "git grep -n TODO",
            "git status 2>/dev/null",
            // helper-51's O4: display options of git's diffs, and the index's file.
            "git diff --color-moved",
            "git diff --color-moved=zebra --color-moved-ws=no HEAD",
            "git log -p -W --word-diff-regex=. --stat-width=20",
            "git show --patch-with-stat --diff-algorithm=histogram HEAD",
            "git show :README.md",
            // helper-52's O4.
            "git log --notes -1",
            "git log --decorate-refs=tags/v* --oneline",
            "git diff --color-words HEAD~1",
            // helper-78: where git prints no file's contents, a pattern names the files
            // it matches, not the ignored `.env` beside them.
            "git log --oneline -- '*.rs'",
            "git log --stat -- 'src/*.c'",
            "git diff --stat -- '*.rs'",
            "git log --name-only -- '*.rs'",
        ] {
            assert_eq!(decide(cwd, line), Some(Allow), "{line} (from {cwd})");
        }
        // A secret named as a pathspec is one.
        assert_eq!(decide(cwd, "git grep -n TODO -- .env"), Some(Deny));
        // A pattern `git grep` matches is over the files git tracks, which the reading
        // walks from where the pattern starts: the ignored `.env` is none of them.
        assert_eq!(decide(cwd, "git grep -n TODO -- '*.c'"), Some(Allow));
        assert_eq!(decide(cwd, "git grep -n TODO -- '*'"), Some(Allow));
        // An exclude only takes files away.
        assert_eq!(decide(cwd, "git grep -n TODO -- ':!*.md'"), Some(Allow));
        assert_eq!(
            decide(cwd, "git grep -n TODO -- . ':(exclude)*.md'"),
            Some(Allow)
        );
        // With `--untracked` it reads untracked files too, and with `--no-index` every
        // file: those the pattern matches are read (helper-67), and none is a secret
        // here; one named is. (O7: `--eol` reads the files `ls-files` lists.)
        assert_eq!(
            decide(cwd, "git grep --untracked -n TODO -- '*.c'"),
            Some(Allow)
        );
        assert_eq!(
            decide(cwd, "git grep --no-index -n TODO -- '*.c'"),
            Some(Allow)
        );
        assert_eq!(
            decide(cwd, "git grep --no-index -n TODO -- .env"),
            Some(Deny)
        );
        assert_ne!(decide(cwd, "git ls-files --eol '*.c'"), Some(Allow));
        // Where git prints contents, the history may hold other files: not certain.
        assert_ne!(decide(cwd, "git log -p -- '*.rs'"), Some(Allow));
    }
    assert_eq!(decide("proj", "cd sub && git status"), Some(Allow));
    // From the home, which is in no repository, git stops at once (`not a git
    // repository`: helper-66): no walk. `git status` has no rule for the home.
    assert_eq!(decide("", "git status"), None);
    for line in ["git grep -n TODO", "git add -A"] {
        assert_eq!(decide("", line), Some(Allow), "{line} (from the home)");
    }
    // Unless the line may make one first, or names another repository.
    for line in [
        "git init -q && git add -A",
        "echo 'gitdir: /x' > .git; git add -A",
        "git --git-dir=proj/.git add -A",
        "git -c grep.fallbackToNoIndex=true grep -n TODO",
    ] {
        assert_ne!(decide("", line), Some(Allow), "{line} (from the home)");
    }
}

/// The role rg's walk of its directory has for ARGS (its words after `rg`).
fn rg_walk(args: &[&str]) -> shell::Role {
    let rg = shell::lookup("rg").expect("rg is in the table");
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let r = shell::read(rg, &args);
    assert!(r.is_known(), "rg {args:?} is read to its end");
    let walks: Vec<shell::Role> = r
        .parts
        .iter()
        .filter(|p| p.text == "." && p.role.is_tree())
        .map(|p| p.role)
        .collect();
    assert_eq!(walks.len(), 1, "rg {args:?} walks one directory: {walks:?}");
    walks[0]
}

/// rg: one `-u` is `--no-ignore` only (dotfiles stay skipped, as real rg skips them);
/// `-uu` adds `--hidden`, however the two are spelt; `-uuu` adds `--binary`.
#[test]
fn rg_one_u_skips_dotfiles() {
    use shell::Role::{Walk, WalkVisible};
    assert_eq!(rg_walk(&["KEY"]), WalkVisible);
    assert_eq!(rg_walk(&["-u", "KEY"]), WalkVisible);
    assert_eq!(rg_walk(&["--unrestricted", "-n", "KEY", "."]), WalkVisible);
    assert_eq!(rg_walk(&["-nu", "KEY"]), WalkVisible);
    assert_eq!(rg_walk(&["-uu", "KEY"]), Walk);
    assert_eq!(rg_walk(&["-uuu", "KEY"]), Walk);
    assert_eq!(rg_walk(&["-u", "-n", "-u", "KEY"]), Walk);
    assert_eq!(rg_walk(&["--unrestricted", "-u", "KEY"]), Walk);
    assert_eq!(rg_walk(&["-u", "--hidden", "KEY"]), Walk);
    assert_eq!(rg_walk(&["-.", "KEY"]), Walk);
}

/// rg `--files` lists the names it would search and reads none of them, whatever else
/// is given and in which order (helper-51's over-block: `rg --files --hidden` was
/// denied in a project with a `.env`, as a read of it).
#[test]
fn rg_files_lists_names() {
    use shell::Role::{List, WalkVisible};
    assert_eq!(rg_walk(&["--files"]), List);
    assert_eq!(rg_walk(&["--files", "--hidden"]), List);
    assert_eq!(rg_walk(&["--hidden", "--files"]), List);
    assert_eq!(rg_walk(&["-uu", "--files"]), List);
    assert_eq!(rg_walk(&["--files", "-L", "--hidden"]), List);
    assert_eq!(rg_walk(&["--hidden", "KEY"]), shell::Role::Walk);
    assert_eq!(rg_walk(&["KEY"]), WalkVisible);
}

/// A policy that denies `.env` in any directory and allows the rest.
fn dotenv() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        with_home(
            json!([
                {"id": "dotenv", "tool": "shell", "path": ".env", "decision": "deny"},
                {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}
            ]),
            None,
        )
    })
}

/// gzip names its output after its operand: `gunzip .env.gz` writes `.env`, `gzip .env`
/// writes `.env.gz` (and removes `.env`); `zcat` only reads.
#[test]
fn gzip_writes_its_twin() {
    let decide = |command: &str| decision_in(dotenv(), "proj", command);
    for (command, want) in [
        ("gunzip -k .env.gz", Deny),
        ("gzip -dk .env.gz", Deny),
        ("gunzip -f -S .bak .env.bak", Deny),
        ("gzip -k .env", Deny),
        ("gunzip -k config.gz", Allow),
        ("gunzip -c .env.gz", Allow),
        ("zcat .env.gz", Allow),
        ("gzip -9 build/a.o", Allow),
    ] {
        assert_eq!(decide(command), Some(want), "{command}");
    }
}

/// `cp`, `mv`, `ln` put their sources in a destination directory under their own names:
/// `cp x/.bashrc ~` writes `~/.bashrc`. (They were allowed under a deny rule on
/// `~/.bashrc`.)
#[test]
fn copies_into_a_directory_write_there() {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    let policy = POLICY.get_or_init(|| {
        with_home(
            json!([
                {"id": "bashrc", "tool": "shell", "path": "~/.bashrc", "decision": "deny"},
                {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}
            ]),
            None,
        )
    });
    let decide = |command: &str| decision_in(policy, "proj", command);
    for (command, want) in [
        ("cp x/.bashrc ~/", Deny),
        ("cp x/.bashrc ~", Deny),
        ("cp -t ~ x/.bashrc", Deny),
        ("cp -r x/. ~", Deny),
        ("mv x/.bashrc ~", Deny),
        ("ln -s x/.bashrc ~", Deny),
        ("cp x/.bashrc build/", Allow),
        ("cp -T x/.bashrc ~/bashrc.bak", Allow),
        ("mv a.txt ~/notes.txt", Allow),
    ] {
        assert_eq!(decide(command), Some(want), "{command}");
    }
}

/// `tree -R ... -o F` writes `00Tree.html` in every directory below its operand: the
/// tree is written, not only listed.
#[test]
fn tree_r_writes_the_tree() {
    let tree = shell::lookup("tree").expect("tree is in the table");
    let role = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let r = shell::read(tree, &args);
        r.parts
            .iter()
            .find(|p| p.text == "a" && p.role.is_path())
            .map(|p| p.role)
    };
    assert_eq!(role(&["-L", "1", "a"]), Some(shell::Role::List));
    assert_eq!(
        role(&["-R", "-L", "1", "-H", ".", "-o", "out.html", "a"]),
        Some(shell::Role::WriteTree)
    );
}

/// git's global options that change nothing a rule is about (no pager, `-C DIR`, no
/// locks...) are looked through by allow rules too: an allow rule for `git log` allows
/// `git --no-pager log` (it asked). A configuration, another repository, or a privilege
/// wrapper is not looked through: those still ask.
#[test]
fn git_inert_global_options_are_looked_through() {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    let policy = POLICY.get_or_init(|| {
        with_home(
            json!([
                {"id": "git-read", "tool": "shell", "decision": "allow",
                 "command-prefix": ["git log", "git diff", "git status"]},
                {"id": "no-push", "tool": "shell", "command-prefix": "git push", "decision": "deny"},
            ]),
            Some(Ask),
        )
    });
    let decide = |command: &str| decision_in(policy, "proj", command);
    for (command, want) in [
        ("git --no-pager log -1", Allow),
        ("git -P diff --stat", Allow),
        ("git -C sub status", Allow),
        ("git --no-optional-locks -C .. status --short", Allow),
        ("git --literal-pathspecs log -- '*x'", Allow),
        ("git -c core.pager=less log", Ask),
        ("git -c alias.log='!rm -rf ~' log", Ask),
        ("git --git-dir=/tmp/x log", Ask),
        ("git --work-tree=/ status", Ask),
        ("sudo git --no-pager log", Ask),
        ("git --no-pager push", Deny),
        ("git -C sub push origin main", Deny),
    ] {
        assert_eq!(decide(command), Some(want), "{command}");
    }
}

/// `rg --hidden` reads dotfiles but still skips what `.gitignore` ignores, as rg's own
/// walk does: in a repository that ignores `.env` it reads no `.env` (it was denied);
/// where `.env` is not ignored, or with `--no-ignore`, it does.
#[test]
fn rg_hidden_keeps_the_ignore_files() {
    for (dir, ignore) in [("rg-ignores", ".env\n"), ("rg-keeps", "target/\n")] {
        let root = home().join(dir);
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        std::fs::write(root.join(".gitignore"), ignore).expect("write");
        std::fs::write(root.join(".env"), "KEY=1\n").expect("write");
    }
    let decide = |cwd: &str, command: &str| decision_in(dotenv(), cwd, command);
    for (cwd, command, want) in [
        ("rg-ignores", "rg --hidden KEY", Allow),
        ("rg-ignores", "rg -. -n KEY .", Allow),
        ("rg-ignores", "rg --hidden --no-ignore KEY", Deny),
        ("rg-ignores", "rg -uu KEY", Deny),
        ("rg-ignores", "rg --hidden KEY .env", Deny),
        ("rg-keeps", "rg --hidden KEY", Deny),
        ("rg-keeps", "rg KEY", Allow),
    ] {
        assert_eq!(decide(cwd, command), Some(want), "{command} in {cwd}");
    }
}

/// A home that is itself a repository (its dotfiles kept in git): git run there finds
/// it, and its walks and object paths meet the rules (the other side of helper-66's
/// "git stops outside a repository").
#[test]
fn git_in_a_home_that_is_a_repository_is_read() {
    let home = common::process_dir("gptel-rust-hooks-dotfiles");
    for d in [".git", ".ssh", "proj/.git"] {
        std::fs::create_dir_all(home.join(d)).expect("create the home");
    }
    let home = home.canonicalize().expect("canonicalize the home");
    let rules = json!([
        {"id": "secrets", "decision": "deny", "path": ["~/.ssh/**"]},
        {"id": "git", "decision": "allow", "command-prefix": ["git"]}
    ]);
    let rules = rule::rules_from_value(&rules).expect("rules read");
    let options = Options {
        home: Some(home.clone()),
        ..Options::default()
    };
    let policy = compile::compile(rules, options).expect("policy compiles");
    let proj = home.join("proj");
    for line in [
        "git -C .. show HEAD:.ssh/id_rsa",
        "git -C .. grep KEY",
        "cd .. && git add -A",
    ] {
        let value = json!({"name": "shell", "args": {"command": line}, "cwd": &proj});
        let d = eval::evaluate(&policy, &Call::from_value(&value).expect("call reads")).decision;
        assert_eq!(d, Some(Deny), "{line}");
    }
}

/// helper-70's everyday lines under the workspace policy, each beside a twin that must
/// still be blocked: a directory made by the line and copied into (only a link made
/// before a command lies along its paths: `mkdir` makes none, and `cp` does not write
/// through a link it made), `sed -i` behind `xargs` (its script is no path that a link
/// may lead away), `&>` and `&>>` (both outputs to one file), `env` alone (it prints the
/// environment), `kill` of `$$` or `$!` (digits, never a job).
#[test]
fn helper70_everyday_lines() {
    let decide = |command: &str| decision("proj", command);
    for (command, want) in [
        ("mkdir -p dist && cp -r build dist/", Some(Allow)),
        ("mkdir -p build/out && cp -a sub build/out/", Some(Allow)),
        ("ln -s /etc dist; cp -r build dist/", Some(Ask)),
        // A later source read through a link an earlier one made (helper-71).
        ("mkdir dest && cp -r build/. dest/k/x dest/", Some(Ask)),
        (
            "cp -r build dist/ && ln -s /etc dist/x && cp a dist/x/",
            Some(Ask),
        ),
        ("grep -rl FIXME sub | xargs sed -i 's/FIXME/NOTE/'", None),
        ("ls &> build/ls.log", Some(Allow)),
        ("command -v rg &>/dev/null && echo yes", Some(Allow)),
        ("ls nonexist &>>build/log || echo missing", Some(Allow)),
        ("{ ls; } &> build/out.txt", Some(Allow)),
        ("ls &> ~/.ssh/x", Some(Deny)),
        ("sh -c 'true &>f rm -rf /tmp/x'", Some(Deny)),
        ("sh -c 'ls &>/dev/null'", None),
        ("env", Some(Allow)),
        ("env | grep -i ^npm_ | head", Some(Allow)),
        ("env rm -rf /tmp/x", Some(Deny)),
        ("kill -0 $$", Some(Allow)),
        ("sleep 1 & kill $!", Some(Allow)),
        ("kill %1", None),
        ("kill \"$x\"", None),
    ] {
        assert_eq!(decide(command), want, "{command}");
    }
}

/// helper-70: `find` hands on only what its tests pass: a command that opens every file
/// below a directory it is given (`rm -rf`) opens only the trees of the directories they
/// pass (`find . -type d -name __pycache__ -exec rm -rf {} +` with a `.env` at the top
/// is no match of a rule for `.env`; with one in a `__pycache__` it is).
#[test]
fn find_hands_on_the_trees_its_tests_pass() {
    let dir = common::process_dir("gptel-rust-hooks-pycache");
    for d in ["app/__pycache__", "node_modules/x"] {
        std::fs::create_dir_all(dir.join(d)).expect("make the project");
    }
    std::fs::write(dir.join(".env"), "KEY=1\n").expect("write .env");
    std::fs::write(dir.join("app/__pycache__/m.pyc"), "x\n").expect("write m.pyc");
    let p = dotenv();
    let decide = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": &dir});
        eval::evaluate(p, &Call::from_value(&value).expect("call reads")).decision
    };
    let lines = [
        "find . -type d -name __pycache__ -exec rm -rf {} +",
        "find . -name __pycache__ -type d -exec rm -rf {} +",
        "find . -type d -name 'node_*' -exec rm -rf {} \\;",
    ];
    for line in lines {
        assert_eq!(decide(line), Some(Allow), "{line}");
    }
    assert_eq!(decide("find . -name '.e*' -exec rm -rf {} +"), Some(Deny));
    // find tests its start as written too (helper-71): `.` is named `.`.
    for line in [
        "find . -type d -name '.*' -exec grep -r KEY {} +",
        "find . -type d -iname '?' -exec rm -rf {} +",
        "find app/.. -type d -name .. -exec rm -rf {} +",
    ] {
        assert_eq!(decide(line), Some(Deny), "{line}");
    }
    assert_eq!(
        decide("find . -type d -name app -exec rm -rf {} +"),
        Some(Allow)
    );
    std::fs::write(dir.join("app/__pycache__/.env"), "KEY=1\n").expect("write .env below");
    for line in [
        lines[0],
        lines[1],
        "find . -type d -name app -exec rm -rf {} +",
    ] {
        assert_eq!(
            decide(line),
            Some(Deny),
            "{line} (a .env below __pycache__)"
        );
    }
}

/// helper-70: git's subcommands that write only what git tracks (or a revision's files),
/// or remove only what it does not ignore, meet no rule for an ignored `.env`:
/// `restore`, `checkout [REV] -- PATHS`, `clean` (without `-x`, `-X` or `-ff`), `stash -u` (not `-a`).
/// Where `.env` is neither tracked nor ignored, `clean` and `stash -u` take it.
#[test]
fn git_writes_what_it_tracks() {
    let dir = common::process_dir("gptel-rust-hooks-git-writes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("make the repository");
    std::fs::write(dir.join("src/a.rs"), "fn main() {}\n").expect("write a.rs");
    std::fs::write(dir.join(".gitignore"), ".env\n").expect("write .gitignore");
    repo::git(&dir, &["init", "-q"]);
    repo::git(&dir, &["add", "."]);
    repo::git(&dir, &["commit", "-qm", "init"]);
    std::fs::write(dir.join(".env"), "KEY=1\n").expect("write .env");
    let p = with_home(
        json!([
            {"id": "dotenv", "tool": "shell", "path": "**/.env", "decision": "deny"},
            {"id": "git", "tool": "shell", "command-prefix": "git", "decision": "allow"}
        ]),
        None,
    );
    let decide = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": &dir});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    };
    for (line, want) in [
        ("git restore .", Allow),
        ("git restore --staged src", Allow),
        ("git checkout -- .", Allow),
        ("git clean -fd", Allow),
        ("git stash -u", Allow),
        ("git stash push -- src", Allow),
        // From a revision's tree, read from git's store (`git_objects`): HEAD's holds
        // no `.env`, and a repository of one commit has no `HEAD~1` (git stops).
        // (Where a revision holds one: own_readers_real.rs `helper90_*`.)
        ("git restore --source=HEAD~1 .", Allow),
        ("git restore --staged --worktree .", Allow),
        ("git checkout HEAD~1 -- .", Allow),
        ("git checkout HEAD -- .", Allow),
        ("git reset --hard", Allow),
        ("git clean -fdX", Deny),
        ("git clean -fdx", Deny),
        ("git clean -ffd", Deny),
        ("git stash -a", Deny),
    ] {
        assert_eq!(decide(line), Some(want), "{line}");
    }
    std::fs::remove_file(dir.join(".gitignore")).expect("remove .gitignore");
    for line in ["git clean -fd", "git stash -u"] {
        assert_eq!(decide(line), Some(Deny), "{line} (.env not ignored)");
    }
}

/// helper-72: a glob that is data to its program however many names it makes (`echo
/// .*`, `printf '%s\n' .*`, `basename .*`) names no path; one in a place where a second
/// name would be a file (`grep .* f`), or given to a program that reads its operands,
/// still does. A name it makes that starts with `-` is an option: not certain.
#[test]
fn globs_that_are_data() {
    let dir = common::process_dir("gptel-rust-hooks-data-globs");
    std::fs::create_dir_all(&dir).expect("make the project");
    std::fs::write(dir.join(".env"), "KEY=1\n").expect("write .env");
    std::fs::write(dir.join("README.md"), "x\n").expect("write README.md");
    let p = dotenv();
    let decide = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": &dir});
        eval::evaluate(p, &Call::from_value(&value).expect("call reads")).decision
    };
    for (command, want) in [
        ("echo .*", Some(Allow)),
        ("printf '%s\\n' .* *.md", Some(Allow)),
        ("basename -a .*", Some(Allow)),
        ("echo .* | wc -w", Some(Allow)),
        ("cat .*", Some(Deny)),
        ("grep .* README.md", Some(Deny)),
        ("wc -l .* README.md", Some(Deny)),
        ("sh -c 'echo .*'", Some(Allow)),
    ] {
        assert_eq!(decide(command), want, "{command}");
    }
    std::fs::write(dir.join("-f.env"), "x\n").expect("write -f.env");
    for command in ["date *", "echo *"] {
        assert_eq!(decide(command), None, "{command}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// helper-78: a parameter's value changed by an operator (`${PWD##*/}`, the project's
/// name) is one only the running shell knows: a match on it is unsure, never a
/// certain deny of every path rule.
#[test]
fn operated_parameters_match_unsure() {
    for line in [
        "echo \"${PWD##*/}\"",
        "name=${PWD##*/}; echo \"$name\"",
        "printf '%s\\n' \"${PWD##*/}\"",
    ] {
        assert_ne!(decision("proj", line), Some(Deny), "{line}");
    }
    // A path the word names whatever the operator leaves is still denied.
    assert_eq!(decision("proj", "cat ~/.ssh/id_rsa"), Some(Deny));
}

/// helper-86's everyday lines in a project with a `.env`: a `*` in code the table reads
/// whole (jq, awk) or reads generously (`python3 -c`, `node -e`: no shell's `*` matches
/// `.env` unless the text says so), a pipeline beside git (its project code makes no
/// link the rules do not already allow it), find's tests that only narrow what its
/// names pass, `make -r`, and `xargs rm -rf` (the names of its input, not `.`).
#[test]
fn helper86_code_stars_pipes_and_narrowing_tests() {
    let dir = common::process_dir("gptel-rust-hooks-over-86");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).expect("make data");
    std::fs::write(dir.join(".env"), "SECRET=1\n").expect("write .env");
    std::fs::write(dir.join("data/users.json"), "[]\n").expect("write users.json");
    let policy = with_home(
        json!([
            {"id": "no-env", "tool": "shell", "path": "**/.env", "decision": "deny"},
            {"id": "allow-all", "tool": "shell", "command-regexp": "", "decision": "allow"},
            {"id": "tools", "tool": "shell", "decision": "allow",
             "command-prefix": ["git", "make", "python3", "node", "cargo", "npm"]}
        ]),
        None,
    );
    let decide = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": &dir});
        eval::evaluate(&policy, &Call::from_value(&value).expect("call reads")).decision
    };
    for (command, want) in [
        ("jq '.[] | .score * 10' data/users.json", Some(Allow)),
        ("jq -n '[1,2,3] | map(. * 2)'", Some(Allow)),
        ("awk -F, 'NR>1 {print $4 * 2}' data/users.json", Some(Allow)),
        ("python3 -c 'print(2 * 3)'", Some(Allow)),
        ("node -e 'console.log([1,2].map(x => x * 2))'", Some(Allow)),
        ("git log --oneline | tee build/log.txt", Some(Allow)),
        ("git status | tee build/status.txt", Some(Allow)),
        (
            "find . -maxdepth 1 -name '*.json' -exec cat {} +",
            Some(Allow),
        ),
        (
            "find . -type d -name __pycache__ -prune -exec rm -rf {} +",
            Some(Allow),
        ),
        ("find . -name '*.pyc' -mtime +1 -delete", Some(Allow)),
        (
            "find . -name '*.py' -newer data/users.json -exec wc -l {} +",
            Some(Allow),
        ),
        // What the names pass may be `.env`: unsure, asked.
        ("find . -maxdepth 1 -name '.e*' -exec cat {} +", Some(Ask)),
        ("find . -type f -size -1k -exec cat {} +", Some(Ask)),
        // A string it may give a shell: its `*` is not `.env`, unless the text sets
        // `dotglob` for that shell.
        (
            "python3 -c 'import sys,os; os.system(sys.argv[1])' 'cat *'",
            Some(Allow),
        ),
        (
            "python3 -c 'import sys,os; os.system(sys.argv[1])' 'shopt -s dotglob; cat *'",
            Some(Ask),
        ),
        ("jq . .env", Some(Deny)),
        // A variable before a program that runs the project's code, which may do what
        // it says with any of its words; not one the shell or the loader reads, one a
        // program runs as a command, or one of more than a word.
        ("PYTHONPATH=src python3 -m pytest -q", Some(Allow)),
        ("RUSTFLAGS=-Dwarnings cargo build", None),
        ("FOO=1 git status", None),
        ("PORT=3000 node server.js", Some(Allow)),
        ("FOO=1 make test", Some(Allow)),
        ("PORT=3000 npm start", None),
        ("PYTHONPATH=.env python3 -m pytest", Some(Deny)),
        ("FOO=1 cat data/users.json", None),
        ("PATH=. make", None),
        ("LD_PRELOAD=./x.so make", None),
        ("GIT_EXTERNAL_DIFF=rm git diff", None),
        // Not certain (two words); its value read generously, as text the project's code
        // may run, meets `.env`: an unsure match (helper-89's round).
        ("NODE_OPTIONS='--require ./.env' node -e 1", Some(Ask)),
        ("CC=clang make", Some(Allow)),
        ("VPATH=.. make", None),
        ("PYTHONPATH=src:../x python3 -m pytest", None),
        ("PYTHONPATH=src", None),
        // The names xargs gives rm are not known: not allowed, not denied.
        ("printf 'build\\n' | xargs rm -rf", None),
    ] {
        assert_eq!(decide(command), want, "{command}");
    }
    // What make's built-in rules read (`cat secret.sh >secret`), but under `-r`.
    std::os::unix::fs::symlink(".env", dir.join("secret.sh")).expect("link secret.sh");
    assert_eq!(decide("make secret"), Some(Deny));
    assert_eq!(decide("make -r secret"), Some(Allow));
    let _ = std::fs::remove_dir_all(&dir);
}

/// helper-90's user: code read whole that writes nothing writes none of its words
/// (`awk ... /etc/passwd | head` was undecided: `head` may read `/etc` as it starts);
/// `git checkout .` writes tracked files only; a compiler named before make.
#[test]
fn helper90_everyday_lines() {
    let dir = common::process_dir("gptel-rust-hooks-helper90");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("make the repository");
    std::fs::write(dir.join("src/a.c"), "int main() {}\n").expect("write a.c");
    std::fs::write(dir.join(".gitignore"), ".env\n").expect("write .gitignore");
    repo::git(&dir, &["init", "-q"]);
    repo::git(&dir, &["add", "."]);
    repo::git(&dir, &["commit", "-qm", "init"]);
    std::fs::write(dir.join(".env"), "KEY=1\n").expect("write .env");
    let p = with_home(
        json!([
            {"id": "dotenv", "tool": "shell", "path": "**/.env", "decision": "deny"},
            {"id": "named", "tool": "shell", "command-prefix": ["git", "make"], "decision": "allow"},
            {"id": "rest", "tool": "shell", "command-regexp": "", "decision": "allow"}
        ]),
        None,
    );
    let decide = |command: &str| {
        let value = json!({"name": "shell", "args": {"command": command}, "cwd": &dir});
        eval::evaluate(&p, &Call::from_value(&value).expect("call reads")).decision
    };
    for line in [
        "awk -F: '{print $1}' /etc/passwd | head",
        "awk '{print $1}' /etc/passwd | wc -l",
        "git checkout .",
        "git checkout HEAD -- .",
        "git checkout -- src",
        "CC=clang make",
        "CC=gcc CFLAGS=-O2 make -j4",
    ] {
        assert_eq!(decide(line), Some(Allow), "{line}");
    }
    // Code that writes is still a write of its words.
    assert_ne!(
        decide("awk '{print > \"/etc/x\"}' /etc/passwd | head"),
        Some(Allow)
    );
    // xargs handing its input to a program that takes any word as data.
    for line in [
        "seq -w 1 5 | xargs -I{} echo file{}.txt",
        "ls src/*.c | xargs -n1 basename",
        "find . -name '*.c' -print0 | xargs -0 -n1 echo",
        "cat .gitignore | xargs -I{} echo ignore {}",
        "ls | xargs",
        "git ls-files | xargs -n1 dirname | sort -u",
    ] {
        assert_eq!(decide(line), Some(Allow), "{line}");
    }
    // Not where the input may name a file it opens, or the program.
    for line in [
        "ls | xargs cat",
        "ls | xargs -I e echo e",
        "ls | xargs ./echo",
        "ls | xargs -I{} sh -c 'echo {}'",
        "ls | xargs command cat",
        "ls | xargs env",
    ] {
        assert_eq!(decide(line), None, "{line}");
    }
    assert_eq!(decide("xargs -a .env echo"), Some(Deny));
    let _ = std::fs::remove_dir_all(&dir);
}
