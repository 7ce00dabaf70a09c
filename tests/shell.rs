//! Command lines -> simple commands: table-driven tests of `shell::parse` and
//! `shell::from_argv`, and a property test that a hidden `rm -rf /` is always found.

use gptel_rust_hooks::shell::{from_argv, parse, CommandLine, SimpleCommand};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Builders for expected values.

/// A plain command: ARGV as written, nothing looked through.
fn c(argv: &[&str]) -> SimpleCommand {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    SimpleCommand {
        written: argv.clone(),
        argv,
        privileged: false,
        opaque: None,
        ..SimpleCommand::default()
    }
}

/// What the tables compare: the commands (argv, written, privileged, opaque), the
/// redirections and the line's opacity. How certain the reading is, and what else a
/// command records (its path words, its wrapper forms), is tested apart.
fn shape(line: CommandLine) -> CommandLine {
    CommandLine {
        commands: line
            .commands
            .into_iter()
            .map(|c| SimpleCommand {
                argv: c.argv,
                written: c.written,
                privileged: c.privileged,
                opaque: c.opaque,
                ..SimpleCommand::default()
            })
            .collect(),
        redirects: line.redirects,
        opaque: line.opaque,
        ..CommandLine::default()
    }
}

trait Cmd {
    fn w(self, written: &[&str]) -> Self;
    fn root(self) -> Self;
    fn op(self, why: &str) -> Self;
}

impl Cmd for SimpleCommand {
    /// Written differently from its argv.
    fn w(mut self, written: &[&str]) -> Self {
        self.written = written.iter().map(|s| s.to_string()).collect();
        self
    }
    /// Looked through a privilege wrapper.
    fn root(mut self) -> Self {
        self.privileged = true;
        self
    }
    /// Opaque for WHY.
    fn op(mut self, why: &str) -> Self {
        self.opaque = Some(why.into());
        self
    }
}

/// A static line.
fn ok(commands: Vec<SimpleCommand>) -> CommandLine {
    CommandLine {
        commands,
        redirects: vec![],
        opaque: None,
        ..CommandLine::default()
    }
}

/// A line with redirection targets.
fn redir(commands: Vec<SimpleCommand>, redirects: &[&str]) -> CommandLine {
    CommandLine {
        commands,
        redirects: redirects.iter().map(|s| s.to_string()).collect(),
        opaque: None,
        ..CommandLine::default()
    }
}

/// A line opaque as a whole.
fn bad(commands: Vec<SimpleCommand>, why: &str) -> CommandLine {
    CommandLine {
        commands,
        redirects: vec![],
        opaque: Some(why.into()),
        ..CommandLine::default()
    }
}

/// One test per entry: `name: LINE => EXPECTED,`.
macro_rules! parses {
    ($($name:ident: $line:expr => $want:expr,)*) => {
        $(
            #[test]
            fn $name() {
                assert_eq!(shape(parse($line)), $want, "line: {:?}", $line);
            }
        )*
    };
}

/// One test per entry: `name: [WORDS] => EXPECTED,`.
macro_rules! argv {
    ($($name:ident: [$($word:expr),*] => $want:expr,)*) => {
        $(
            #[test]
            fn $name() {
                let words: Vec<String> = vec![$($word.to_string()),*];
                assert_eq!(shape(from_argv(&words)), $want, "argv: {:?}", words);
            }
        )*
    };
}

// ---------------------------------------------------------------------------------------
// Lists, pipelines and compound commands: every simple command is found.

parses! {
    and_list: "git status && rm -rf /" => ok(vec![c(&["git", "status"]), c(&["rm", "-rf", "/"])]),
    or_list: "false || rm x" => ok(vec![c(&["false"]), c(&["rm", "x"])]),
    semicolon: "ls; rm x" => ok(vec![c(&["ls"]), c(&["rm", "x"])]),
    semicolon_no_space: "ls;rm x" => ok(vec![c(&["ls"]), c(&["rm", "x"])]),
    newline: "ls\nrm x" => ok(vec![c(&["ls"]), c(&["rm", "x"])]),
    background: "sleep 1 & rm x" => ok(vec![c(&["sleep", "1"]), c(&["rm", "x"])]),
    pipe: "cat f | rm x" => ok(vec![c(&["cat", "f"]), c(&["rm", "x"])]),
    pipe_stderr: "ls |& rm x" => ok(vec![c(&["ls"]), c(&["rm", "x"])]),
    bang: "! rm x" => ok(vec![c(&["rm", "x"])]),
    time_keyword: "time rm x" => ok(vec![c(&["rm", "x"])]),
    subshell: "(cd /; rm x)" => ok(vec![c(&["cd", "/"]), c(&["rm", "x"])]),
    group: "{ ls; rm x; }" => ok(vec![c(&["ls"]), c(&["rm", "x"])]),
    if_body: "if true; then rm x; fi" => ok(vec![c(&["true"]), c(&["rm", "x"])]),
    if_condition: "if rm x; then :; else ls; fi" => ok(vec![c(&["rm", "x"]), c(&[":"]), c(&["ls"])]),
    elif_body: "if a; then b; elif c; then rm x; fi" =>
        ok(vec![c(&["a"]), c(&["b"]), c(&["c"]), c(&["rm", "x"])]),
    while_body: "while true; do rm x; done" => ok(vec![c(&["true"]), c(&["rm", "x"])]),
    until_body: "until rm x; do :; done" => ok(vec![c(&["rm", "x"]), c(&[":"])]),
    for_body: "for f in a b; do rm $f; done" => ok(vec![c(&["rm", "$f"])]),
    case_body: "case a in a) rm x;; esac" => ok(vec![c(&["rm", "x"])]),
    case_paren_pattern: "case a in (a|b) rm x;; *) ls;; esac" => ok(vec![c(&["rm", "x"]), c(&["ls"])]),
    function_body: "f() { rm x; }; f" => ok(vec![c(&["rm", "x"]), c(&["f"])]),
    function_keyword: "function f { rm x; }" => ok(vec![c(&["rm", "x"])]),
    coproc: "coproc rm x" => ok(vec![c(&["rm", "x"])]),
    comment_is_data: "git status # && rm x" => ok(vec![c(&["git", "status"])]),
    comment_then_newline: "ls #\nrm x" => ok(vec![c(&["ls"]), c(&["rm", "x"])]),
    line_continuation_in_name: "r\\\nm -rf /" => ok(vec![c(&["rm", "-rf", "/"])]),
}

// ---------------------------------------------------------------------------------------
// Commands hidden inside words.

parses! {
    dollar_paren: "echo $(rm x)" => ok(vec![c(&["rm", "x"]), c(&["echo", "$(rm x)"])]),
    backquotes: "echo `rm x`" => ok(vec![c(&["rm", "x"]), c(&["echo", "`rm x`"])]),
    nested_backquotes: "echo `echo \\`rm x\\``" => ok(vec![
        c(&["rm", "x"]),
        c(&["echo", "`rm x`"]),
        c(&["echo", "`echo \\`rm x\\``"]),
    ]),
    escaped_dollar_in_backquotes: "echo `echo \\$(rm x)`" => ok(vec![
        c(&["rm", "x"]),
        c(&["echo", "$(rm x)"]),
        c(&["echo", "`echo \\$(rm x)`"]),
    ]),
    in_double_quotes: "echo \"a $(rm x) b\"" => ok(vec![c(&["rm", "x"]), c(&["echo", "a $(rm x) b"])]),
    in_assignment: "X=$(rm -rf /) ls" => ok(vec![c(&["rm", "-rf", "/"]), c(&["ls"])]),
    in_bare_assignment: "x=`rm y`" => ok(vec![c(&["rm", "y"])]),
    in_array_assignment: "a=(1 $(rm x) 2)" => ok(vec![c(&["rm", "x"])]),
    in_default_value: "echo ${x:-$(rm x)}" => ok(vec![c(&["rm", "x"]), c(&["echo", "${x:-$(rm x)}"])]),
    in_process_substitution: "cat <(rm x)" => ok(vec![c(&["rm", "x"]), c(&["cat", "<(...)"])]),
    in_output_process_substitution: "ls > >(rm x)" => ok(vec![c(&["rm", "x"]), c(&["ls"])]),
    in_for_words: "for i in $(rm z); do :; done" => ok(vec![c(&["rm", "z"]), c(&[":"])]),
    in_case_word: "case $(rm x) in *) ;; esac" => ok(vec![c(&["rm", "x"])]),
    in_test: "[[ -n $(rm y) ]]" => ok(vec![c(&["rm", "y"])]),
    in_here_string: "cat <<< \"$(rm x)\"" => ok(vec![c(&["rm", "x"]), c(&["cat"])]),
    in_unquoted_heredoc: "cat <<EOF\n$(rm x)\nEOF" => ok(vec![c(&["rm", "x"]), c(&["cat"])]),
    in_redirect_target: "ls > \"$(rm x)\"" => redir(vec![c(&["rm", "x"]), c(&["ls"])], &["$(rm x)"]),
    heredoc_then_command: "cat <<EOF; rm a\nbody\nEOF" => ok(vec![c(&["cat"]), c(&["rm", "a"])]),
    nested_substitutions: "echo $(echo \"$(rm f)\")" => ok(vec![
        c(&["rm", "f"]),
        c(&["echo", "$(rm f)"]),
        c(&["echo", "$(echo \"$(rm f)\")"]),
    ]),
    subshell_looking_like_arithmetic: "echo $((rm x) )" => ok(vec![c(&["rm", "x"]), c(&["echo", "$((rm x) )"])]),
}

// ---------------------------------------------------------------------------------------
// Quoted strings are data.

parses! {
    single_quoted_data: "echo 'rm -rf /'" => ok(vec![c(&["echo", "rm -rf /"])]),
    double_quoted_data: "grep -r \"rm -rf\" ." => ok(vec![c(&["grep", "-r", "rm -rf", "."])]),
    commit_message: "git commit -m \"rm stuff\"" => ok(vec![c(&["git", "commit", "-m", "rm stuff"])]),
    quoted_substitution: "echo '$(rm x)'" => ok(vec![c(&["echo", "$(rm x)"])]),
    escaped_substitution: "echo \"\\$(rm x)\"" => ok(vec![c(&["echo", "$(rm x)"])]),
    quoted_heredoc: "cat <<'EOF'\n$(rm x)\nEOF" => ok(vec![c(&["cat"])]),
    ansi_c_in_double_quotes: "\"$'rm'\" x" => ok(vec![c(&["$'rm'", "x"])]),
    expansion_argument_kept: "rm -rf $HOME" => ok(vec![c(&["rm", "-rf", "$HOME"])]),
    quoted_expansion_argument: "rm -rf \"$HOME/.cache\"" => ok(vec![c(&["rm", "-rf", "$HOME/.cache"])]),
}

// ---------------------------------------------------------------------------------------
// Quoting and paths in command names.

parses! {
    backslash_name: "\\rm x" => ok(vec![c(&["rm", "x"])]),
    absolute_name: "/bin/rm x" => ok(vec![c(&["rm", "x"]).w(&["/bin/rm", "x"])]),
    usr_bin_name: "/usr/bin/rm x" => ok(vec![c(&["rm", "x"]).w(&["/usr/bin/rm", "x"])]),
    doubled_slash_name: "/usr//bin/rm x" => ok(vec![c(&["rm", "x"]).w(&["/usr//bin/rm", "x"])]),
    relative_name: "./rm -rf /" => ok(vec![c(&["rm", "-rf", "/"])
        .w(&["./rm", "-rf", "/"])
        .op("`./rm` runs a program by path")]),
    writable_dir_name: "/tmp/ls" => ok(vec![c(&["ls"]).w(&["/tmp/ls"]).op("`/tmp/ls` runs a program by path")]),
    dotdot_name: "/usr/bin/../../tmp/ls" => ok(vec![c(&["ls"])
        .w(&["/usr/bin/../../tmp/ls"])
        .op("`/usr/bin/../../tmp/ls` runs a program by path")]),
    empty_quotes_in_name: "r''m x" => ok(vec![c(&["rm", "x"])]),
    double_quoted_name: "\"rm\" x" => ok(vec![c(&["rm", "x"])]),
    mixed_quotes_name: "'r'\"m\" x" => ok(vec![c(&["rm", "x"])]),
    ansi_c_name: "$'rm' x" => ok(vec![c(&["rm", "x"])]),
    ansi_c_hex_name: "$'\\x72\\155' x" => ok(vec![c(&["rm", "x"])]),
    brace_expanded_argument: "cat ~/.{ssh,aws}/id_rsa" =>
        ok(vec![c(&["cat", "~/.ssh/id_rsa", "~/.aws/id_rsa"])]),
    tilde_argument: "cat ~/.ssh/id_rsa" => ok(vec![c(&["cat", "~/.ssh/id_rsa"])]),
}

// ---------------------------------------------------------------------------------------
// Assignments and wrappers are looked through.

parses! {
    assignment_prefix: "FOO=1 rm x" => ok(vec![c(&["rm", "x"])]),
    two_assignments: "A=1 B=\"x y\" rm x" => ok(vec![c(&["rm", "x"])]),
    env_plain: "env rm x" => ok(vec![c(&["rm", "x"]).w(&["env", "rm", "x"])]),
    env_flags: "env -i -u HOME -- FOO=1 rm x" => ok(vec![c(&["rm", "x"]).w(&["env", "-i", "-u", "HOME", "--", "FOO=1", "rm", "x"])]),
    env_options_end_at_assignment: "env FOO=1 -i rm" => ok(vec![c(&["-i", "rm"]).w(&["env", "FOO=1", "-i", "rm"])]),
    env_split_string: "env -S 'rm -rf /'" => ok(vec![c(&["rm", "-rf", "/"]).w(&["env", "-S", "rm -rf /"])]),
    // It prints the environment, as printenv does (helper-70).
    env_alone: "env" => ok(vec![c(&["printenv"]).w(&["env"])]),
    env_alone_null: "env -0" => ok(vec![c(&["printenv", "-0"]).w(&["env", "-0"])]),
    env_alone_unset: "env -u HOME" => ok(vec![c(&["env", "-u", "HOME"])]),
    command_wrapper: "command -p rm x" => ok(vec![c(&["rm", "x"]).w(&["command", "-p", "rm", "x"])]),
    command_lookup: "command -v rm" => ok(vec![c(&["command", "-v", "rm"])]),
    builtin_wrapper: "builtin cd /" => ok(vec![c(&["cd", "/"]).w(&["builtin", "cd", "/"])]),
    exec_wrapper: "exec -a foo rm x" => ok(vec![c(&["rm", "x"]).w(&["exec", "-a", "foo", "rm", "x"])]),
    exec_alone: "exec 3>log" => redir(vec![c(&["exec"])], &["log"]),
    nohup_wrapper: "nohup rm x" => ok(vec![c(&["rm", "x"]).w(&["nohup", "rm", "x"])]),
    time_command: "command time -p rm x" => ok(vec![c(&["rm", "x"]).w(&["command", "time", "-p", "rm", "x"])]),
    timeout_nice: "timeout -s KILL 5 nice -n 3 rm x" =>
        ok(vec![c(&["rm", "x"]).w(&["timeout", "-s", "KILL", "5", "nice", "-n", "3", "rm", "x"])]),
    timeout_long: "timeout --kill-after=1 5s rm x" => ok(vec![c(&["rm", "x"]).w(&["timeout", "--kill-after=1", "5s", "rm", "x"])]),
    timeout_alone: "timeout 5" => ok(vec![c(&["timeout", "5"])]),
    nice_legacy: "nice -10 rm x" => ok(vec![c(&["rm", "x"]).w(&["nice", "-10", "rm", "x"])]),
    ionice_stdbuf_setsid: "ionice -c 3 stdbuf -oL setsid -f rm x" =>
        ok(vec![c(&["rm", "x"]).w(&["ionice", "-c", "3", "stdbuf", "-oL", "setsid", "-f", "rm", "x"])]),
    ionice_pid: "ionice -p 42" => ok(vec![c(&["ionice", "-p", "42"])]),
    chrt_taskset: "chrt -r 5 taskset -c 1 rm x" =>
        ok(vec![c(&["rm", "x"]).w(&["chrt", "-r", "5", "taskset", "-c", "1", "rm", "x"])]),
    flock_command: "flock /tmp/l rm x" => ok(vec![c(&["rm", "x"]).w(&["flock", "/tmp/l", "rm", "x"])]),
    flock_string: "flock -n /tmp/l -c 'rm x'" => ok(vec![c(&["rm", "x"]).w(&["flock", "-n", "/tmp/l", "-c", "rm x"])]),
    watch_string: "watch -n 1 rm x" => ok(vec![c(&["rm", "x"]).w(&["watch", "-n", "1", "rm", "x"])]),
    busybox: "busybox rm x" => ok(vec![c(&["rm", "x"]).w(&["busybox", "rm", "x"])]),
    wrappers_by_path: "/usr/bin/env /bin/rm x" => ok(vec![c(&["rm", "x"]).w(&["/usr/bin/env", "/bin/rm", "x"])]),
    sudo: "sudo rm x" => ok(vec![c(&["rm", "x"]).w(&["sudo", "rm", "x"]).root()]),
    sudo_flags: "sudo -u root -E rm -rf /" =>
        ok(vec![c(&["rm", "-rf", "/"]).w(&["sudo", "-u", "root", "-E", "rm", "-rf", "/"]).root()]),
    sudo_clustered: "sudo -Eu root -- rm x" => ok(vec![c(&["rm", "x"]).w(&["sudo", "-Eu", "root", "--", "rm", "x"]).root()]),
    sudo_env_assignment: "sudo FOO=1 rm x" => ok(vec![c(&["rm", "x"]).w(&["sudo", "FOO=1", "rm", "x"]).root()]),
    sudo_list: "sudo -l" => ok(vec![c(&["sudo", "-l"]).root()]),
    doas: "doas -u root rm x" => ok(vec![c(&["rm", "x"]).w(&["doas", "-u", "root", "rm", "x"]).root()]),
    pkexec: "pkexec --user root rm x" => ok(vec![c(&["rm", "x"]).w(&["pkexec", "--user", "root", "rm", "x"]).root()]),
    runuser_u: "runuser -u bob -- rm x" => ok(vec![c(&["rm", "x"]).w(&["runuser", "-u", "bob", "--", "rm", "x"]).root()]),
    su_c: "su -c 'rm x' root" => ok(vec![c(&["rm", "x"]).w(&["su", "-c", "rm x", "root"]).root()]),
    su_login_c: "su - root -c \"rm w\"" => ok(vec![c(&["rm", "w"])
        .w(&["su", "-", "root", "-c", "rm w"])
        .root()
        .op("`su` starts a login shell, which runs the user's profile files")]),
    su_other_shell: "su -s /bin/zsh -c 'rm x'" => ok(vec![c(&["rm", "x"])
        .w(&["su", "-s", "/bin/zsh", "-c", "rm x"])
        .root()
        .op("`su` runs its command in `zsh`")]),
    script_c: "script -q -c 'rm x' /dev/null" => ok(vec![c(&["rm", "x"]).w(&["script", "-q", "-c", "rm x", "/dev/null"])]),
    su_clustered: "su -lc 'rm x'" => ok(vec![c(&["rm", "x"])
        .w(&["su", "-lc", "rm x"])
        .root()
        .op("`su` starts a login shell, which runs the user's profile files")]),
    xargs: "xargs rm" => ok(vec![c(&["rm"]).w(&["xargs", "rm"])]),
    xargs_flags: "xargs -0 -n 1 -I{} rm -f {}" => ok(vec![c(&["rm", "-f", "{}"]).w(&["xargs", "-0", "-n", "1", "-I{}", "rm", "-f", "{}"])]),
    xargs_echo: "xargs" => ok(vec![c(&["echo"]).w(&["xargs"])]),
    xargs_shell: "xargs -n1 sh -c 'rm $1' _" => ok(vec![c(&["rm", "$1"]).w(&["xargs", "-n1", "sh", "-c", "rm $1", "_"])]),
    find_exec: "find . -exec rm {} \\;" => ok(vec![
        c(&["find", ".", "-exec", "rm", "{}", ";"]),
        c(&["rm", "{}"]).w(&["find", ".", "-exec", "rm", "{}", ";"]),
    ]),
    find_exec_plus: "find . -name '*.o' -execdir rm -f {} +" => ok(vec![
        c(&["find", ".", "-name", "*.o", "-execdir", "rm", "-f", "{}", "+"]),
        c(&["rm", "-f", "{}"]).w(&["find", ".", "-name", "*.o", "-execdir", "rm", "-f", "{}", "+"]),
    ]),
    find_two_execs: "find . -ok mv {} /tmp ';' -exec sudo rm {} ';'" => ok(vec![
        c(&["find", ".", "-ok", "mv", "{}", "/tmp", ";", "-exec", "sudo", "rm", "{}", ";"]),
        c(&["mv", "{}", "/tmp"]).w(&["find", ".", "-ok", "mv", "{}", "/tmp", ";", "-exec", "sudo", "rm", "{}", ";"]),
        c(&["rm", "{}"]).w(&["find", ".", "-ok", "mv", "{}", "/tmp", ";", "-exec", "sudo", "rm", "{}", ";"]).root(),
    ]),
    find_without_exec: "find . -name x -delete" => ok(vec![c(&["find", ".", "-name", "x", "-delete"])]),
}

// ---------------------------------------------------------------------------------------
// Shell strings are parsed again.

parses! {
    bash_c: "bash -c 'rm x'" => ok(vec![c(&["rm", "x"]).w(&["bash", "-c", "rm x"])]),
    sh_c_list: "sh -c 'ls && rm y'" => ok(vec![
        c(&["ls"]).w(&["sh", "-c", "ls && rm y"]),
        c(&["rm", "y"]).w(&["sh", "-c", "ls && rm y"]),
    ]),
    bash_lc: "bash -lc \"rm x\"" => ok(vec![c(&["rm", "x"]).w(&["bash", "-lc", "rm x"]).op("`bash -l` runs the profile files first")]),
    bash_options_before_c: "bash --norc -e -o pipefail -c 'rm x'" =>
        ok(vec![c(&["rm", "x"]).w(&["bash", "--norc", "-e", "-o", "pipefail", "-c", "rm x"])]),
    dash_c: "dash -c 'rm x'" => ok(vec![c(&["rm", "x"]).w(&["dash", "-c", "rm x"])]),
    zsh_c_plain: "zsh -c 'rm x'" => ok(vec![c(&["rm", "x"]).w(&["zsh", "-c", "rm x"])]),
    ksh_c_plain: "ksh -c 'rm x'" => ok(vec![c(&["rm", "x"]).w(&["ksh", "-c", "rm x"])]),
    bash_c_nested: "bash -c 'bash -c \"rm deep\"'" => ok(vec![c(&["rm", "deep"]).w(&["bash", "-c", "bash -c \"rm deep\""])]),
    sudo_bash_c: "sudo bash -c 'rm z'" => ok(vec![c(&["rm", "z"]).w(&["sudo", "bash", "-c", "rm z"]).root()]),
    bash_c_substitution: "bash -c 'echo $(rm x)'" => ok(vec![
        c(&["rm", "x"]).w(&["bash", "-c", "echo $(rm x)"]),
        c(&["echo", "$(rm x)"]).w(&["bash", "-c", "echo $(rm x)"]),
    ]),
    bash_script_file: "bash ./build.sh" => ok(vec![c(&["bash", "./build.sh"])]),
    trap_action: "trap 'rm -rf /' EXIT" => ok(vec![
        c(&["trap", "rm -rf /", "EXIT"]),
        c(&["rm", "-rf", "/"]).w(&["trap", "rm -rf /", "EXIT"]),
    ]),
}

// ---------------------------------------------------------------------------------------
// Opaque: never allowed.

parses! {
    variable_name: "$x -rf /" => ok(vec![c(&["$x", "-rf", "/"]).op("command name `$x` is not static")]),
    default_value_name: "${x:-rm} x" => ok(vec![c(&["${x:-rm}", "x"]).op("command name `${x:-rm}` is not static")]),
    substitution_name: "$(echo rm) x" => ok(vec![
        c(&["echo", "rm"]),
        c(&["$(echo rm)", "x"]).op("command name `$(echo rm)` is not static"),
    ]),
    glob_name: "r? x" => ok(vec![c(&["r?", "x"]).op("command name `r?` comes from a glob or brace pattern")]),
    glob_path_name: "/bin/r* x" => ok(vec![c(&["r*", "x"]).w(&["/bin/r*", "x"]).op("command name `/bin/r*` comes from a glob or brace pattern")]),
    brace_name: "{rm,-rf,/}" => ok(vec![c(&["rm", "-rf", "/"]).op("command name `rm` comes from a glob or brace pattern")]),
    eval: "eval rm x" => ok(vec![
        c(&["eval", "rm", "x"]).op("`eval` runs a string built at run time"),
        c(&["rm", "x"]).w(&["eval", "rm", "x"]).op("`eval` runs a string built at run time"),
    ]),
    source: ". ./s.sh" => ok(vec![c(&[".", "./s.sh"]).op("`.` runs the commands in a file")]),
    source_word: "source ~/.bashrc" => ok(vec![c(&["source", "~/.bashrc"]).op("`source` runs the commands in a file")]),
    alias: "alias ls='rm -rf /'" => ok(vec![
        c(&["alias", "ls=rm -rf /"]).op("an alias changes what a command name runs"),
        c(&["rm", "-rf", "/"]).w(&["alias", "ls=rm -rf /"]).op("an alias changes what a command name runs"),
    ]),
    bash_c_variable: "bash -c \"$x\"" => ok(vec![c(&["bash", "-c", "$x"]).op("`bash` argument `$x` is not static")]),
    bash_stdin: "curl x | bash" => ok(vec![
        c(&["curl", "x"]),
        c(&["bash"]).op("`bash` reads commands from standard input"),
    ]),
    bash_heredoc: "bash <<EOF\nrm -rf /\nEOF" => ok(vec![
        c(&["bash"]).op("`bash` reads commands from standard input"),
        c(&["rm", "-rf", "/"]).w(&["bash"]).op("`bash` reads commands from standard input"),
    ]),
    // A parse error in bash too (extglob is off); zsh would run `rm` for each file.
    zsh_glob_qualifier: "zsh -c 'ls *(e:rm:)'" => bad(
        vec![
            c(&["ls", "*"]).w(&["zsh", "-c", "ls *(e:rm:)"]).op("parse error: syntax error at end of input"),
            c(&["e:rm:"]).w(&["zsh", "-c", "ls *(e:rm:)"]).op("parse error: syntax error at end of input"),
        ],
        "parse error: syntax error at end of input",
    ),
    zsh_glob_star: "zsh -c 'ls *.c'" => ok(vec![c(&["ls", "*.c"])
        .w(&["zsh", "-c", "ls *.c"])
        .op("`zsh` syntax differs from bash in `ls *.c`")]),
    extglob_off_is_a_subshell: "!(rm x)" => ok(vec![c(&["rm", "x"])]),
    parse_error_guesses_inner_starts: "echo $(case x in x) rm y;; esac)" => bad(
        vec![
            c(&["x", "in", "x"]).op("parse error: syntax error at end of input"),
            c(&["in", "x"]).op("parse error: syntax error at end of input (guessed)"),
            c(&["x"]).op("parse error: syntax error at end of input (guessed)"),
            c(&["echo", "$(case x in x)", "rm", "y"]).op("parse error: syntax error at line 1 col 25"),
            // The tokenizer may end `$(case` at a pattern's `)`: the words before it alone.
            c(&["echo"]).op("parse error: syntax error at line 1 col 25"),
            c(&["rm", "y"]).op("parse error: syntax error at line 1 col 25 (guessed)"),
            c(&["y"]).op("parse error: syntax error at line 1 col 25 (guessed)"),
        ],
        "parse error: syntax error at line 1 col 25",
    ),
    fish_c: "fish -c 'rm x'" => ok(vec![c(&["rm", "x"]).w(&["fish", "-c", "rm x"]).op("`fish` syntax is not read")]),
    sudo_shell: "sudo -s" => ok(vec![c(&["sudo", "-s"]).root().op("`sudo` without a command starts a shell")]),
    sudo_variable_option: "sudo -u $U rm x" => ok(vec![c(&["sudo", "-u", "$U", "rm", "x"]).root().op("value `$U` of `-u` is not static")]),
    unknown_wrapper_option: "timeout --bogus 5 rm x" => ok(vec![c(&["timeout", "--bogus", "5", "rm", "x"]).op("unknown option `--bogus` of `timeout`")]),
    su_shell: "su root" => ok(vec![c(&["su", "root"]).root().op("`su` without `-c` starts a shell")]),
    xargs_name_from_input: "xargs -I{} {} x" => ok(vec![c(&["xargs", "-I{}", "{}", "x"]).op("`xargs` builds the command name from its input")]),
    find_variable: "find . $args" => ok(vec![c(&["find", ".", "$args"]).op("`find` argument `$args` is not static")]),
    path_assignment: "PATH=/tmp ls" => ok(vec![c(&["ls"]).op("assignment to `PATH` can change what runs")]),
    // PS4 is expanded where `set -x` shows it: its substitution is read (helper-68).
    ps4_assignment: "PS4='$(rm x)' bash -xc ls" => ok(vec![
        c(&["rm", "x"]).op("`PS4` names a command a program may run"),
        c(&[":", "$(rm x)"]).op("`PS4` names a command a program may run"),
        c(&["ls"]).w(&["bash", "-xc", "ls"]).op("assignment to `PS4` can change what runs"),
    ]),
    standalone_path_assignment: "PATH=/tmp; ls" => bad(vec![c(&["ls"])], "assignment to `PATH` can change what runs"),
    // The value is a command git runs: read for deny rules (helper-66's `FCEDIT=rm fc`).
    git_ssh_command: "GIT_SSH_COMMAND='rm -rf ~' git fetch" => ok(vec![
        c(&["rm", "-rf", "~"]).op("`GIT_SSH_COMMAND` names a command a program may run"),
        c(&["git", "fetch"]).op("assignment to `GIT_SSH_COMMAND` can change what runs"),
    ]),
    fcedit_command: "FCEDIT='rm -f' fc" => ok(vec![
        c(&["rm", "-f"]).op("`FCEDIT` names a command a program may run"),
        c(&["fc"]).op("assignment to `FCEDIT` can change what runs"),
    ]),
    lessopen_command: "LESSOPEN='|-cat ~/.ssh/id_rsa %s' less f" => ok(vec![
        c(&["cat", "~/.ssh/id_rsa", "%s"]).op("`LESSOPEN` names a command a program may run"),
        c(&["less", "f"]).op("assignment to `LESSOPEN` can change what runs"),
    ]),
    env_ld_preload: "env LD_PRELOAD=/tmp/x.so ls" => ok(vec![c(&["ls"]).w(&["env", "LD_PRELOAD=/tmp/x.so", "ls"]).op("assignment to `LD_PRELOAD` can change what runs")]),
    git_author_is_fine: "GIT_AUTHOR_NAME=x git commit -m x" => ok(vec![c(&["git", "commit", "-m", "x"])]),
    ifs_read_is_fine: "IFS= read -r line" => ok(vec![c(&["read", "-r", "line"])]),
    arithmetic_variable: "x=a; echo $((x))" => ok(vec![c(&["echo", "$((x))"]).op("arithmetic `x` may run commands through variables")]),
    arithmetic_literal_is_fine: "echo $((1 + 2))" => ok(vec![c(&["echo", "$((1 + 2))"])]),
    arithmetic_substitution: "echo $((1+$(rm c)))" => ok(vec![
        c(&["rm", "c"]),
        c(&["echo", "$((1+$(rm c)))"]).op("arithmetic `1+$(rm c)` may run commands through variables"),
    ]),
    arithmetic_command: "((x++))" => bad(vec![], "arithmetic `x++` may run commands through variables"),
    // Bash reads `( (` as two subshells; the line is in the certain subset.
    nested_subshells_with_blanks: "( ( rm -rf / ) )" => ok(vec![c(&["rm", "-rf", "/"])]),
    arithmetic_subshell: "((rm -rf /) )" => bad(
        vec![c(&["rm", "-rf", "/"]).op("may be a subshell inside `((...))`")],
        "arithmetic `rm -rf /` may run commands through variables",
    ),
    double_bracket_arithmetic: "[[ $x -eq 1 ]]" => bad(vec![], "arithmetic comparison of `$x` may run commands"),
    array_subscript: "echo ${a[$i]}" => ok(vec![c(&["echo", "${a[$i]}"]).op("array subscript `$i` may run commands")]),
    indirect_expansion: "echo ${!x}" => ok(vec![c(&["echo", "${!x}"]).op("indirect expansion `${!...}` may run commands")]),
    prompt_expansion: "echo ${x@P}" => ok(vec![c(&["echo", "${x@P}"]).op("prompt expansion `${...@P}` may run commands")]),
    read_subscript: "read 'a[$(rm x)]'" => ok(vec![c(&["read", "a[$(rm x)]"]).op("`read` variable name `a[$(rm x)]` may run commands")]),
    printf_v_subscript: "printf -v 'a[$i]' %s x" => ok(vec![c(&["printf", "-v", "a[$i]", "%s", "x"]).op("`printf` variable name `a[$i]` may run commands")]),
    test_v_subscript: "test -v 'a[$(rm x)]'" => ok(vec![c(&["test", "-v", "a[$(rm x)]"]).op("`test` variable name `a[$(rm x)]` may run commands")]),
    declare_integer: "declare -i x=5" => ok(vec![c(&["declare", "-i", "x=5"]).op("`declare -i` or `-n` makes later assignments evaluate code")]),
    export_path: "export PATH=/tmp:$PATH" => ok(vec![c(&["export", "PATH=/tmp:$PATH"]).op("assignment to `PATH` can change what runs")]),
    let_arith: "let x=y+1" => ok(vec![c(&["let", "x=y+1"]).op("arithmetic `x=y+1` may run commands")]),
    mapfile_callback: "mapfile -C cb -c 1 arr < f" => redir(vec![c(&["mapfile", "-C", "cb", "-c", "1", "arr"]).op("`mapfile -C` runs a callback")], &["f"]),
    hash_p: "hash -p /tmp/x ls" => ok(vec![c(&["hash", "-p", "/tmp/x", "ls"]).op("`hash -p` changes what a command name runs")]),
    parse_error: "ls (" => bad(vec![c(&["ls"]).op("parse error: syntax error at end of input")], "parse error: syntax error at end of input"),
    parse_error_keeps_earlier_lines: "rm -rf /\nls )" => bad(vec![
        c(&["rm", "-rf", "/"]).op("parse error: syntax error at line 2 col 4"),
        c(&["ls"]).op("parse error: syntax error at line 2 col 4"),
    ], "parse error: syntax error at line 2 col 4"),
    unterminated_quote: "rm -rf / 'x" => CommandLine {
        commands: vec![
            c(&["rm", "-rf", "/", "x"]).op("parse error (words): unterminated single quote at 1,10"),
            c(&["x"]).op("parse error (words): unterminated single quote at 1,10 (guessed)"),
        ],
        redirects: vec![],
        opaque: Some("parse error (words): unterminated single quote at 1,10".into()),
        ..CommandLine::default()
    },
    zero_width_space: "ls\u{200b} -l" => bad(
        vec![c(&["ls\u{200b}", "-l"]).op("command name `ls\u{200b}` has non-ASCII characters")],
        "invisible or direction-changing character U+200B",
    ),
    bidi_override_in_argument: "echo \u{202e}x" => bad(vec![c(&["echo", "\u{202e}x"])], "invisible or direction-changing character U+202E"),
    soft_hyphen: "r\u{00ad}m x" => bad(
        vec![c(&["r\u{00ad}m", "x"]).op("command name `r\u{00ad}m` has non-ASCII characters")],
        "invisible or direction-changing character U+00AD",
    ),
    cyrillic_lookalike: "g\u{0456}t status" => ok(vec![c(&["g\u{0456}t", "status"]).op("command name `g\u{0456}t` has non-ASCII characters")]),
    carriage_return: "ls\rrm" => bad(vec![c(&["ls\rrm"])], "control character U+000D"),
    bash_53_funsub: "echo ${ rm x; }" => CommandLine {
        commands: vec![
            c(&["echo"]).op("unsupported expansion near `${ rm x; }`"),
            c(&["rm", "x"]).op("unsupported expansion near `${ rm x; }`"),
            c(&["x"]).op("unsupported expansion near `${ rm x; }` (guessed)"),
        ],
        redirects: vec![],
        opaque: Some("unsupported expansion near `${ rm x; }`".into()),
        ..CommandLine::default()
    },
}

// ---------------------------------------------------------------------------------------
// Redirections.

parses! {
    redirect_write: "echo hi > ~/.ssh/authorized_keys" => redir(vec![c(&["echo", "hi"])], &["~/.ssh/authorized_keys"]),
    redirect_read: "cat < /etc/shadow" => redir(vec![c(&["cat"])], &["/etc/shadow"]),
    redirect_kinds: "cmd >> a 2> b &> c >| d <> e &>> f" => redir(vec![c(&["cmd"])], &["a", "b", "c", "d", "e", "f"]),
    redirect_quoted: "echo x >'my file'" => redir(vec![c(&["echo", "x"])], &["my file"]),
    redirect_duplicates_are_not_files: "ls 2>&1 >&3 <&-" => ok(vec![c(&["ls"])]),
    redirect_ampersand_file: "ls >& out" => redir(vec![c(&["ls"])], &["out"]),
    redirect_expanded_descriptor: "echo x >&\"$fd\"" => redir(vec![c(&["echo", "x"]).op("descriptor `$fd` may run commands")], &["$fd"]),
    redirect_descriptor_variable: "echo x {a[$i]}>log" => redir(
        vec![c(&["echo", "x", "{a[$i]}"]).op("descriptor variable `a[$i]` may run commands")],
        &["log"],
    ),
    // brush-parser reads `{fd}` as a word, so `exec` seems to run `{fd}`: opaque, safely.
    redirect_named_descriptor: "exec {fd}>log" => redir(
        vec![c(&["{fd}"]).w(&["exec", "{fd}"]).op("command name `{fd}` comes from a glob or brace pattern")],
        &["log"],
    ),
    redirect_expansion_kept: "echo x > \"$HOME/.bashrc\"" => redir(vec![c(&["echo", "x"])], &["$HOME/.bashrc"]),
    redirect_on_group: "{ ls; } > out" => redir(vec![c(&["ls"])], &["out"]),
    redirect_in_bash_c: "bash -c 'echo x > /etc/passwd'" => redir(vec![c(&["echo", "x"]).w(&["bash", "-c", "echo x > /etc/passwd"])], &["/etc/passwd"]),
    heredoc_is_not_a_target: "cat <<EOF > out\nhello\nEOF" => redir(vec![c(&["cat"])], &["out"]),
    here_string_is_not_a_target: "cat <<< /etc/shadow" => ok(vec![c(&["cat"])]),
    redirect_only: "> /etc/motd" => redir(vec![], &["/etc/motd"]),
}

// ---------------------------------------------------------------------------------------
// `from_argv`: one command given as words.

argv! {
    argv_plain: ["rm", "-rf", "/"] => ok(vec![c(&["rm", "-rf", "/"])]),
    argv_basename: ["/usr/bin/rm", "x"] => ok(vec![c(&["rm", "x"]).w(&["/usr/bin/rm", "x"])]),
    argv_no_shell_syntax: ["echo", "$(rm x)", ";", "rm"] => ok(vec![c(&["echo", "$(rm x)", ";", "rm"])]),
    argv_dollar_name_is_literal: ["$x"] => ok(vec![c(&["$x"])]),
    argv_sudo: ["sudo", "-u", "root", "rm", "x"] => ok(vec![c(&["rm", "x"]).w(&["sudo", "-u", "root", "rm", "x"]).root()]),
    argv_bash_c: ["bash", "-c", "ls; rm x"] => ok(vec![
        c(&["ls"]).w(&["bash", "-c", "ls; rm x"]),
        c(&["rm", "x"]).w(&["bash", "-c", "ls; rm x"]),
    ]),
    argv_env_bash_c: ["env", "FOO=1", "bash", "-c", "rm x"] => ok(vec![c(&["rm", "x"]).w(&["env", "FOO=1", "bash", "-c", "rm x"])]),
    argv_empty: [] => bad(vec![], "empty command"),
    argv_invisible: ["rm\u{200d}", "x"] => bad(
        vec![c(&["rm\u{200d}", "x"]).op("command name `rm\u{200d}` has non-ASCII characters")],
        "invisible or direction-changing character U+200D",
    ),
    argv_relative: ["./ls"] => ok(vec![c(&["ls"]).w(&["./ls"]).op("`./ls` runs a program by path")]),
}

// ---------------------------------------------------------------------------------------
// Bounds: hostile input is opaque, never a crash.

#[test]
fn deep_parens_are_opaque() {
    let line = "(".repeat(100_000);
    let got = parse(&line);
    assert!(!got.is_static());
}

#[test]
fn deep_substitutions_are_opaque() {
    let line = "$(".repeat(50_000);
    let got = parse(&line);
    assert!(!got.is_static());
}

#[test]
fn deep_closed_substitutions_are_opaque() {
    let line = format!("echo {}rm x{}", "$(".repeat(10_000), ")".repeat(10_000));
    assert!(!parse(&line).is_static());
}

#[test]
fn deep_groups_are_opaque_but_searched() {
    let n = 5_000;
    let line = format!("{}rm -rf /{}", "{ ".repeat(n), "; }".repeat(n));
    let got = parse(&line);
    assert!(!got.is_static());
    assert!(got
        .commands
        .iter()
        .any(|c| c.argv.starts_with(&["rm".into(), "-rf".into()])));
}

#[test]
fn groups_at_the_walk_bound_are_searched() {
    let n = 300;
    let line = format!("{}rm -rf /{}", "{ ".repeat(n), "; }".repeat(n));
    let got = parse(&line);
    assert_eq!(
        got.opaque.as_deref(),
        Some("commands nested more than 200 deep")
    );
    assert!(got
        .commands
        .iter()
        .any(|c| c.argv.starts_with(&["rm".into(), "-rf".into()])));
}

#[test]
fn deep_ifs_and_cases_and_tests_are_opaque() {
    let n = 20_000;
    for line in [
        format!("{}ls{}", "if true; then ".repeat(n), "; fi".repeat(n)),
        format!("{}ls{}", "case x in x) ".repeat(n), ";; esac".repeat(n)),
        format!("[[ {}x ]]", "! ".repeat(n)),
        format!("[[ {}x{} ]]", "( ".repeat(n), " )".repeat(n)),
        format!("echo {}x{}", "${x:-".repeat(n), "}".repeat(n)),
        format!("cat {}ls{}", "<(cat ".repeat(n), ")".repeat(n)),
        format!("{}ls", "coproc ".repeat(n)),
        format!("echo {}1{}", "$((".repeat(n), "))".repeat(n)),
    ] {
        assert!(!parse(&line).is_static(), "{}", &line[..40]);
    }
}

#[test]
fn nesting_past_the_depth_bound_is_opaque() {
    let mut line = "rm -rf /".to_string();
    for _ in 0..12 {
        line = format!("bash -c '{}'", line.replace('\'', "'\\''"));
    }
    let got = parse(&line);
    // The quoting grows the line fourfold a level: the bound on copies of the outer
    // commands, or on the line's length, may come first.
    let why = got.opaque.as_deref().unwrap_or("");
    assert!(
        why == "nested more than 8 levels deep"
            || why.contains("more than 4 MB")
            || why.starts_with("longer than 131072 bytes"),
        "{why}"
    );
    assert!(
        got.truncated.is_some() || why.starts_with("nested"),
        "{got:?}"
    );
}

#[test]
fn huge_lines_do_not_hang() {
    let t = std::time::Instant::now();
    for line in [
        format!("echo {}", "a".repeat(1 << 20)),
        "ls; ".repeat(250_000),
        format!(
            "cat <<'EOF'\n{}EOF",
            "int main() { return (1+2)*3; }\n".repeat(30_000)
        ),
        "echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b} ".repeat(500),
        format!("echo {}", "$(ls) ".repeat(50_000)),
        format!("echo {}", "a".repeat(2 << 20)),
    ] {
        let _ = parse(&line);
    }
    assert!(t.elapsed() < std::time::Duration::from_secs(60));
}

#[test]
fn brace_sequences_are_bounded() {
    let got = shape(parse("echo {1..99999999999999}"));
    assert_eq!(
        got,
        ok(vec![c(&["echo", "{1..99999999999999}"])
            .op("brace expansion `{1..99999999999999}` is too large")])
    );
}

// ---------------------------------------------------------------------------------------
// Property: a denied command hidden anywhere is found, or the line is opaque.

const SAFE: &[&str] = &[
    "ls",
    "echo hi",
    "git status",
    "cat f",
    "true",
    "pwd",
    "grep -r x .",
];
const OPS: &[&str] = &[" ; ", " && ", " || ", " | ", " & ", "\n"];

/// Quote S as one single-quoted shell word.
fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Wrap the command list S in nesting KIND.
fn wrap(kind: u8, s: &str) -> String {
    match kind % 9 {
        0 => format!("( {s} )"),
        1 => format!("{{ {s}; }}"),
        // `$((` would start arithmetic, as it does in bash: keep a blank after `$(`.
        2 => format!("echo $( {s} )"),
        3 => format!("echo \"$( {s} )\""),
        4 => format!("echo `{}`", s.replace('\\', "\\\\").replace('`', "\\`")),
        5 => format!("bash -c {}", single_quote(s)),
        6 => format!("if true; then {s}; fi"),
        7 => format!("X=$( {s} ) ls"),
        _ => format!("sudo sh -c {}", single_quote(s)),
    }
}

fn finds_rm(line: &str) -> bool {
    let got = parse(line);
    let found = got
        .commands
        .iter()
        .any(|c| c.argv.starts_with(&["rm".to_string(), "-rf".to_string()]));
    found || got.opaque.is_some()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn hidden_rm_is_found(
        safe in prop::collection::vec(0..SAFE.len(), 0..5),
        ops in prop::collection::vec(0..OPS.len(), 6),
        at in 0usize..6,
        nesting in prop::collection::vec(any::<u8>(), 0..5),
        outer in prop::collection::vec((0..SAFE.len(), 0..OPS.len()), 0..3),
    ) {
        let mut cmds: Vec<&str> = safe.iter().map(|&i| SAFE[i]).collect();
        let at = at.min(cmds.len());
        cmds.insert(at, "rm -rf /");
        let mut line = String::new();
        for (k, cmd) in cmds.iter().enumerate() {
            if k > 0 {
                line.push_str(OPS[ops[k % ops.len()]]);
            }
            line.push_str(cmd);
        }
        for kind in &nesting {
            line = wrap(*kind, &line);
        }
        for (s, op) in &outer {
            line = format!("{}{}{}", SAFE[*s], OPS[*op], line);
        }
        prop_assert!(finds_rm(&line), "not found in {:?}", line);
        // With at most 4 levels of nesting the line is always read, so it is found.
        let got = parse(&line);
        prop_assert!(got.commands.iter().any(|c| c.argv.starts_with(&["rm".to_string(), "-rf".to_string()])), "{:?}", line);
    }

    #[test]
    fn arbitrary_text_never_panics(line in "\\PC{0,200}") {
        let _ = parse(&line);
    }

    #[test]
    fn shell_like_text_never_panics(line in "[ a-z$(){}`'\"\\\\;&|<>!#=*?\\[\\]\n-]{0,120}") {
        let _ = parse(&line);
    }
}

#[test]
fn nesting_just_under_the_bound_is_parsed() {
    let n = 990;
    for line in [
        format!("{}rm -rf /{}", "{ ".repeat(n), "; }".repeat(n)),
        format!("{}rm -rf /{}", "if true; then ".repeat(n), "; fi".repeat(n)),
        format!("echo {}rm -rf /{}", "$(".repeat(n), ")".repeat(n)),
        format!("echo {}x{}", "${x:-".repeat(n), "}".repeat(n)),
        format!("cat {}rm -rf /{}", "<(cat ".repeat(n), ")".repeat(n)),
        format!("[[ {}x ]]", "! ".repeat(n)),
        format!("[[ {}x{} ]]", "( ".repeat(n), " )".repeat(n)),
        format!("{}ls", "coproc ".repeat(n)),
        format!("echo {}1{}", "$((".repeat(n), "))".repeat(n)),
        format!(
            "{}{}rm -rf /{}{}",
            "{ ".repeat(n / 2),
            "( ".repeat(n / 2),
            " )".repeat(n / 2),
            "; }".repeat(n / 2)
        ),
    ] {
        let got = parse(&line);
        assert!(!got.is_static(), "{}", &line[..40]);
        if line.contains("rm -rf") && !line.starts_with("echo $(") {
            assert!(
                got.commands
                    .iter()
                    .any(|c| c.argv.starts_with(&["rm".into(), "-rf".into()])),
                "{}",
                &line[..40]
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Differential: what bash really runs is what we find. Programs on a fake PATH log their
// names; every logged name must be a command we found, unless the line is opaque.

#[cfg(unix)]
mod against_bash {
    use super::*;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    const LOGGED: &[&str] = &["rm", "ls", "cat", "foo"];
    const REAL: &[&str] = &[
        "env", "timeout", "nice", "nohup", "xargs", "find", "sh", "bash", "dash",
    ];

    struct Sandbox {
        dir: PathBuf,
    }

    impl Sandbox {
        fn new() -> Option<Sandbox> {
            // bash is part of every Debian system; without it this suite fails
            // rather than skipping itself.
            assert!(
                Path::new("/bin/bash").exists(),
                "the differential tests need /bin/bash"
            );
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("shell-diff-{}-{n}", std::process::id()));
            let bin = dir.join("bin");
            std::fs::create_dir_all(&bin).ok()?;
            for name in LOGGED {
                let path = bin.join(name);
                std::fs::write(
                    &path,
                    "#!/bin/sh\nprintf '%s\\n' \"${0##*/}\" >> \"$LOG\"\n",
                )
                .ok()?;
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).ok()?;
            }
            for name in REAL {
                for dir in ["/usr/bin", "/bin"] {
                    let real = Path::new(dir).join(name);
                    if real.exists() {
                        let _ = std::os::unix::fs::symlink(&real, bin.join(name));
                        break;
                    }
                }
            }
            Some(Sandbox { dir })
        }

        /// The names of the logged programs bash runs for LINE.
        fn run(&self, line: &str) -> Vec<String> {
            let log = self.dir.join("log");
            let _ = std::fs::remove_file(&log);
            let _ = Command::new("/bin/bash")
                .args(["--norc", "--noprofile", "-c", &format!("{line}\nwait")])
                .current_dir(&self.dir)
                .env_clear()
                .env("PATH", self.dir.join("bin"))
                .env("LOG", &log)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            std::fs::read_to_string(&log)
                .unwrap_or_default()
                .lines()
                .map(str::to_owned)
                .collect()
        }
    }

    impl Drop for Sandbox {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn leaf() -> impl Strategy<Value = String> {
        let names = prop::sample::select(vec![
            "rm",
            "'rm'",
            "\"rm\"",
            "r\\m",
            "\\rm",
            "$'rm'",
            "$'\\x72m'",
            "r''m",
            "ls",
            "cat",
            "foo",
            "env rm",
            "env -i FOO=1 rm",
            "command rm",
            "nice -n 1 rm",
            "timeout 5 rm",
            "X=1 rm",
            "builtin command rm",
            "echo x | xargs rm",
            "sh -c rm",
            "bash -c 'rm x'",
            "echo",
            "true",
            "echo rm",
            "echo 'rm'",
            "# rm",
            "x=$(rm)",
            "eval rm",
            "find . -maxdepth 0 -exec rm {} \\;",
            "r\\\nm",
            "echo $((1+2))",
            "! rm",
            "time rm",
            "declare y=$(rm)",
            "a=(1 $(rm) 2)",
            "[[ -n $(rm) ]]",
            "echo ${u:-$(rm)}",
            "cat < <(rm)",
            "exec 3>/dev/null; rm",
            "echo \\$(rm)",
            "echo '$(rm)'",
            "echo \"\\$(rm)\"",
            "echo $'\\'' rm'",
            "echo {a,b}; rm",
            "echo \"#\"; rm",
            "echo a#b rm",
            "cat <<< 'rm'",
            "nohup rm",
            "env -S 'rm x'",
        ]);
        let args = prop::sample::select(vec![
            "",
            " x",
            " -rf x",
            " 'a b'",
            " \"$(foo)\"",
            " >/dev/null",
            " 2>&1",
            " <<<$(cat)",
            " #; rm",
            " \\; rm",
            " ';' rm",
        ]);
        (names, args).prop_map(|(n, a)| format!("{n}{a}"))
    }

    fn line() -> impl Strategy<Value = String> {
        leaf().prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    inner.clone(),
                    prop::sample::select(vec!["; ", " && ", " || ", " | ", "\n", " & ",])
                )
                    .prop_map(|(a, b, op)| format!("{a}{op}{b}")),
                inner.clone().prop_map(|a| format!("( {a} )")),
                inner.clone().prop_map(|a| format!("{{ {a}; }}")),
                inner.clone().prop_map(|a| format!("echo $( {a} )")),
                inner.clone().prop_map(|a| format!("echo \"$( {a} )\"")),
                inner.clone().prop_map(|a| format!(
                    "echo `{}`",
                    a.replace('\\', "\\\\").replace('`', "\\`")
                )),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("if {a}; then {b}; fi")),
                inner
                    .clone()
                    .prop_map(|a| format!("for i in 1; do {a}; done")),
                inner
                    .clone()
                    .prop_map(|a| format!("case x in x) {a};; esac")),
                inner.clone().prop_map(|a| format!("f() {{ {a}; }}; f")),
                inner
                    .clone()
                    .prop_map(|a| format!("bash -c {}", single_quote(&a))),
                inner
                    .clone()
                    .prop_map(|a| format!("sh -c {}", single_quote(&a))),
                inner
                    .clone()
                    .prop_map(|a| format!("cat <<EOF\n$( {a} )\nEOF")),
                inner.clone().prop_map(|a| format!("cat <<'EOF'\n{a}\nEOF")),
                inner.clone().prop_map(|a| format!("X=$( {a} ) true")),
                inner
                    .clone()
                    .prop_map(|a| format!("echo {}", single_quote(&a))),
                inner
                    .clone()
                    .prop_map(|a| format!("cat <<-EOF\n\t$( {a} )\n\tEOF")),
                inner
                    .clone()
                    .prop_map(|a| format!("cat <<E\"O\"F\n$( {a} )\nEOF")),
                inner
                    .clone()
                    .prop_map(|a| format!("while ! true; do {a}; done; {a}")),
                inner.clone().prop_map(|a| format!("echo ${{u:-$( {a} )}}")),
                inner.clone().prop_map(|a| format!("cat <( {a} )")),
                inner.clone().prop_map(|a| format!("[[ -n $( {a} ) ]]")),
                inner.clone().prop_map(|a| format!("{a} # comment")),
                inner.clone().prop_map(|a| format!("{a} \\\n")),
            ]
        })
    }

    #[test]
    fn sandbox_logs_what_runs() {
        let Some(sandbox) = Sandbox::new() else {
            return;
        };
        let mut ran = sandbox.run("rm x; echo rm; env cat; ls | x=1 foo");
        ran.sort();
        assert_eq!(ran, ["cat", "foo", "ls", "rm"]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::default())]

        #[test]
        fn what_bash_runs_is_found(line in line()) {
            let Some(sandbox) = Sandbox::new() else { return Ok(()); };
            let ran = sandbox.run(&line);
            let got = parse(&line);
            if got.is_static() {
                for name in &ran {
                    prop_assert!(
                        got.commands.iter().any(|c| c.argv.first() == Some(name)),
                        "bash ran `{}` for {:?}, we found {:?}",
                        name,
                        line,
                        got.commands
                    );
                }
            }
        }
    }
}

#[test]
fn a_panic_in_the_parser_is_opaque_and_harmless() {
    // brush-parser unwraps the number in a brace sequence.
    let got = shape(parse("rm -rf /; echo {99999999999999999999..1}"));
    assert_eq!(
        got,
        bad(
            vec![
                c(&["rm", "-rf", "/"]).op("not parsed"),
                c(&["echo"]).op("not parsed"),
                c(&["99999999999999999999..1"]).op("not parsed"),
            ],
            "the shell parser panicked"
        )
    );
    assert_eq!(shape(parse("ls")), ok(vec![c(&["ls"])]));
}

// ---------------------------------------------------------------------------------------
// The plain-line shortcut: a line of plain words and `;` `&&` `||` `|` is split without
// brush-parser. It must give exactly what brush-parser's walk gives.

mod shortcut {
    use gptel_rust_hooks::shell::{parse, parse_slow};
    use proptest::prelude::*;

    /// Words wrappers, shells and option parsing care about, and a few that
    /// are not plain (the shortcut must step aside for them).
    const WORDS: &[&str] = &[
        "sudo",
        "doas",
        "env",
        "-i",
        "bash",
        "sh",
        "-c",
        "xargs",
        "rm",
        "-rf",
        "/",
        "git",
        "status",
        "cd",
        "..",
        "timeout",
        "5",
        "nice",
        "-n",
        "command",
        "exec",
        "eval",
        "nohup",
        "find",
        ".",
        "-exec",
        "-delete",
        "ls",
        "-la",
        "src/a.txt",
        "/etc/passwd",
        "source",
        "python3",
        "-m",
        "kill",
        "%1",
        "user@host",
        "ssh",
        "a:b",
        "--",
        "stdbuf",
        "-oL",
        "busybox",
        "chroot",
        "/mnt",
        "setsid",
        "builtin",
        "watch",
        "su",
        "-",
        "/bin/rm",
        "./x.sh",
        "chmod",
        "+x",
        "sudo.",
        "-u",
        "root",
        "nohup",
        "time",
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "exit",
        "exit",
        "1",
        "pushd",
        "in",
        "do",
        "!",
        "a=b",
        "~",
        "$HOME",
        "'q'",
        "*",
        "{a,b}",
        "#c",
        "x\\y",
    ];
    const OPS: &[&str] = &[
        " ", " ", " ", " && ", " || ", " | ", "; ", ";", "|", "&&", "\t", " & ", "\n", " |& ",
        ";;", " ( ", " > ",
    ];

    fn line() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            4 => (0..WORDS.len()).prop_map(|i| WORDS[i].to_string()),
            1 => "[a-z0-9._/:@%+,-]{1,6}",
        ];
        (
            prop::collection::vec((word, 0..OPS.len()), 1..10),
            prop::bool::ANY,
            prop::bool::ANY,
        )
            .prop_map(|(items, lead, trail)| {
                let mut line = String::new();
                if lead {
                    line.push(' ');
                }
                for (k, (w, op)) in items.iter().enumerate() {
                    if k > 0 {
                        line.push_str(OPS[*op]);
                    }
                    line.push_str(w);
                }
                if trail {
                    line.push_str(OPS[items[0].1]);
                }
                line
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn shortcut_agrees_with_brush(line in line()) {
            prop_assert_eq!(parse(&line), parse_slow(&line), "line {:?}", line);
        }
    }

    #[test]
    fn shortcut_agrees_on_wrapped_and_nested_lines() {
        for line in [
            "cd src && ls -la | grep foo; git status && wc -l a.txt",
            "sudo -u root rm -rf /",
            "bash -c rm",
            "env -i bash -c ls",
            "xargs rm -rf",
            "find . -exec rm -rf /",
            "timeout 5 nice -n 5 rm -rf /tmp/x",
            "command exec eval rm -rf /",
            "busybox rm -rf /",
            "git status; git log --oneline | head -n 5 || true",
            "ls;",
            "ls && ",
            "| ls",
            "ls & rm x",
            "/bin/rm -rf /",
            "nohup setsid chroot /mnt rm -rf /",
            "time -- rm -rf x",
            "sudo && time -p -- sudo",
            "bash /mnt && sudo > /mnt",
            "bash /mnt; cat x > /mnt",
            "bash /mnt > /mnt",
            "cat x > /mnt; bash /mnt",
            "{ cat x; } > /mnt; bash /mnt",
            "{ bash /mnt; } > /mnt",
            "bash /mnt && { cat x > /mnt; }",
            "echo $(cat x > /mnt) && bash /mnt",
            "bash /mnt $(cat x > /mnt)",
            "bash s && cat x > s && bash s",
            "cat /mnt | bash /mnt > /o; cat x > /mnt",
        ] {
            assert_eq!(parse(line), parse_slow(line), "line {line:?}");
        }
    }

    /// `time -- CMD`: the `--` ends the reserved word's options (bash 5.2), in the
    /// parser's reading too; a `--` anywhere else is a program.
    #[test]
    fn time_dashes_are_the_reserved_words() {
        let slow = parse_slow("time -- rm -rf x");
        assert_eq!(slow.commands[0].argv, ["rm", "-rf", "x"]);
        assert_eq!(slow.uncertain, None);
        let other = parse_slow("{ -- rm x; }");
        assert!(other.uncertain.is_some(), "{other:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Options read as getopt_long reads them (`programs`, `wrap/options`).

fn form(line: &str) -> Vec<String> {
    line.split(' ').map(str::to_owned).collect()
}

#[test]
fn links_followed_in_every_spelling() {
    use gptel_rust_hooks::shell::follows_links;
    for line in [
        "grep --dere x .",
        "grep -r x . --dereference-r",
        "tar -cf o.tar --deref .",
        "tar chf o.tar .",
        "diff -rN src .",
        "diff --recursive a b",
        "diff . /tmp/key-link",
        // Any operand may be a directory (helper-85: `diff ../a ../b`).
        "diff -u a b",
        "find . -xtype f -exec cat {} +",
        "find . -type l -exec cat {} +",
        "find . -name x -exec ls {} ;",
        "find . -type f -o -type l -exec cat {} +",
        "find . -exec cat {} + -type f",
        "find . ( -type f ) -exec cat {} +",
    ] {
        assert!(follows_links(&form(line)).is_some(), "{line}");
    }
    for line in [
        "grep -rn TODO src",
        "grep -eR x file",
        "tar -czf out.tgz src",
        "diff -r --no-dereference src .",
        "find . -type f -name *.rs -exec grep -o foo {} +",
        "find . -type d -exec ls {} +",
        "find . -name x -print",
    ] {
        assert!(follows_links(&form(line)).is_none(), "{line}");
    }
}

#[test]
fn names_from_data_in_every_spelling() {
    use gptel_rust_hooks::shell::names_from_data;
    for line in [
        "wc --files0=-",
        "sort --files0-f=-",
        "wc --f=-",
        "tar -c --files=list",
        "tar -xf a.tar",
        "tar xf a.tar",
        "tar --get -f a.tar",
        "tar -cf a.tar --xform s,a,b, a",
        "git -C .. apply --unsafe-p",
        "git hash-object --stdin-paths",
        "git add --pathspec-from-file=-",
        "patch -p1",
        "xargs cat",
    ] {
        assert!(names_from_data(&form(line)).is_some(), "{line}");
    }
    for line in [
        "tar --file=a.tar -c src",
        "tar -tf a.tar",
        "tar -cfx.tar src",
        "git hash-object --stdin",
        "sort -u file",
        "wc -l file",
    ] {
        assert!(names_from_data(&form(line)).is_none(), "{line}");
    }
}

/// The commands LINE runs, by name, and whether its reading is certain.
fn run_names(line: &str) -> (Vec<String>, bool) {
    let l = parse(line);
    let names = l.commands.iter().map(|c| c.argv[0].clone()).collect();
    (names, l.is_certain())
}

#[test]
fn options_that_give_commands_in_every_spelling() {
    for line in [
        "tar -cf /dev/null --use=rm x",
        "tar -c --use-compress-program rm -f /dev/null x",
        "tar -cIrm -f /dev/null x",
        "tar cIf rm a.tar x",
        "tar cvIf rm a.tar x",
        "tar -cf a.tar --checkpoint=1 --checkpoint-act=exec=rm x",
        "tar -xf a.tar --to-c=rm",
        "tar -cf a.tar --rmt-command=rm x:y",
        "sort -S 1K --compress=rm",
        "split --filter='rm $FILE'",
        "sdiff --diff-prog=rm a b",
        "zip -T -TT rm a.zip x",
        "git ls-remote --upl=rm .",
        "git archive --remote=. --exec=rm HEAD",
        "git clone -c core.sshCommand=rm x:y c",
        "git clone --config core.sshCommand=rm x:y c",
        "git clone -u rm . c",
        "git grep --no-index -Orm x",
        "git difftool -yx rm a b",
        "git difftool --extcmd=rm a b",
        "git rebase -x rm HEAD~1",
        "git bisect run rm b",
        "git submodule foreach 'rm q'",
        "git config --global alias.q '!rm x'",
        "git config set alias.q '!rm x'",
        "git config -f c --add core.pager rm",
        "git -c alias.q='!rm x' q",
        "git --config-env alias.q=rm q",
    ] {
        let (names, certain) = run_names(line);
        assert!(names.iter().any(|n| n == "rm"), "{line}: {names:?}");
        assert!(!certain, "{line}");
    }
    for line in [
        "tar -czf out.tgz src",
        "tar --checkpoint=1000 -czf out.tgz src",
        "tar -cfI a.tar x",
        "git log --oneline",
        "git diff HEAD~1",
        "git status",
        "git config user.name",
        "git config --get user.email",
        "git config -l",
        "sort -u file",
        "git log --cc -1",
    ] {
        let (names, certain) = run_names(line);
        assert!(certain, "{line}: {names:?}");
        assert!(!names.iter().any(|n| n == "rm"), "{line}: {names:?}");
    }
}

/// An assignment to `IFS` before `read` changes only how `read` splits its line (bash
/// restores `IFS` after a builtin that is not special): certain there, and nowhere else
/// (helper-64's F8).
#[test]
fn ifs_only_before_read_is_certain() {
    for line in [
        "IFS= read -r line < README.md",
        "while IFS= read -r line; do echo \"$line\"; done < README.md",
        "IFS=: read -r a b <<< \"x:y\"",
    ] {
        assert!(parse(line).is_certain(), "{line}");
    }
    // A value from data for a variable programs read (`TZ=:FILE` opens FILE).
    for line in [
        "read -r TZ < f",
        "IFS= read -r LANG < f",
        "printf -v LC_ALL %s x",
    ] {
        assert!(!parse(line).is_certain(), "{line}");
    }
    assert!(parse("export LANG=C").is_certain());
    // unbuffer runs its command on a terminal (helper-68).
    assert!(!parse("unbuffer -p git log").is_certain());
    // So do `su -P` and `runuser -P` (helper-69), however `--pty` is spelled.
    for line in [
        "su -c 'less README.md' -P root",
        "su --pt -c 'less f' root",
        "runuser -u root -P -- less f",
        "runuser --pty -u root -- less f",
    ] {
        assert!(!parse(line).is_certain(), "{line}");
    }
    assert!(parse("su -c 'ls' root").is_certain());
    // sed's `e` runs its command in /bin/sh, dash: `true &>f rm x` is `true &` and
    // `>f rm x` there (helper-71).
    let l = parse("sed -n '1e true &>/dev/null rm -rf x' f");
    assert!(l
        .commands
        .iter()
        .any(|c| c.argv.first().is_some_and(|n| n == "rm")));
    for line in [
        "IFS=x; echo $PATH",
        "IFS=/ eval 'echo a/b'",
        "IFS=x sh -c 'echo $0'",
        "IFS=: cat a:b",
        "IFS= export x",
    ] {
        assert!(!parse(line).is_certain(), "{line}");
    }
}

#[test]
fn git_pathspec_magic_is_read_from_the_top() {
    for line in [
        "git add :/.ssh/id_rsa",
        "git add ':(top).ssh/id_rsa'",
        "git log -- ':!src'",
        "git --exec-path=/tmp zz",
        "git init --template=/tmp/t x",
    ] {
        assert!(!parse(line).is_certain(), "{line}");
    }
    let l = parse("git --work-tree=/w add :/.ssh/id_rsa");
    let paths = &l.commands[0].paths;
    for p in [
        "/w/.ssh/id_rsa",
        ".ssh/id_rsa",
        "../.ssh/id_rsa",
        "../../.ssh/id_rsa",
    ] {
        assert!(paths.iter().any(|w| w == p), "{p} in {paths:?}");
    }
}

#[test]
fn git_pathspec_patterns_are_not_certain() {
    for line in [
        // An escaped pathspec is not read as git reads it (deny rules see `.env`).
        r"git grep --no-index . -- '\.env'",
        "git add '*id_rsa'",
        r"git clean -fx -- '.en\v'",
        "git log -p -- 'src/*.rs'",
        // `--check` prints the added lines with whitespace errors (helper-80).
        "git log --check -- 'src/*.rs'",
        "git --icase-pathspecs add .ENV",
        "git diff --no-index '*.env' x",
        // git diff runs as --no-index by itself given a path outside the repository.
        "git diff 'x[1]' /tmp/y",
        "git diff '*.md'",
        "git g --no-index . -- '*id_rsa'",
        "git format-patch -o out HEAD~1 '*.env'",
    ] {
        assert!(!parse(line).is_certain(), "{line}");
    }
    for line in [
        "git add src/main.rs",
        "git log -- README.md",
        // Where git prints no file's contents, what the pattern matches below where it
        // starts is read (`prepare/git_pathspecs.rs`; helper-78).
        "git log -- 'src/*.rs'",
        "git diff --stat -- '*.rs'",
        r"git grep -e 'a\|b'",
        r"git grep 'foo\.bar' -- src",
        // Over the files git tracks, walked from where the pattern starts; over every
        // file there with `--untracked` and `--no-index` (helper-67: what the pattern
        // chooses of that walk is read, `prepare/git_pathspecs.rs`).
        "git grep -e x -- '.en?'",
        "git grep --untracked -e x -- '.en?'",
        "git -C .. grep --no-index . -- '*id_rsa'",
        // So does git rm, over the index, with magic too (helper-66).
        "git rm --cached -- '*.log'",
        "git rm -n ':(glob)**'",
        "git grep -e x -- ':(glob)src/**'",
        "git commit -m 'fix * and ?'",
        "git log --grep 'fix*' -S 'a*'",
        "git --literal-pathspecs add '*x'",
        "git branch --list 'feat*'",
    ] {
        assert!(parse(line).is_certain(), "{line}");
    }
    // Deny rules see the name git reads.
    let l = parse(r"git grep --no-index . -- '\.env'");
    assert!(l.commands[0].paths.iter().any(|p| p == ".env"));
    let l = parse("git --icase-pathspecs add .ENV");
    assert!(l.commands[0].paths.iter().any(|p| p == ".env"));
}

#[test]
fn git_reads_names_and_links_from_data() {
    use gptel_rust_hooks::shell::names_from_data;
    for line in [
        "git apply",
        "git apply --unidiff-zero x.patch",
        "git apply --stat --apply x.patch",
        "git am",
        "git fast-import --allow-unsafe-features",
        "git mktree",
        "git checkout-index -a --prefix=x/",
        "git read-tree -u -m HEAD",
        "git update-index --add --cacheinfo 120000,abc,h",
        "git update-index --index-info",
        // `--check` opens the files the patch names (helper-67).
        "git apply --check x.patch",
        "git apply --stat --check x.patch",
    ] {
        assert!(names_from_data(&form(line)).is_some(), "{line}");
    }
    for line in [
        "git apply --stat x.patch",
        "git apply --numstat --summary x.patch",
        "git read-tree HEAD",
        "git update-index --refresh",
    ] {
        assert!(names_from_data(&form(line)).is_none(), "{line}");
    }
}

#[test]
fn git_ext_urls_and_config_by_environment_are_commands() {
    for line in [
        "git ls-remote 'ext::rm x'",
        "git remote add o 'ext::rm% -f x'",
        "git -c 'url.ext::rm x.insteadOf=foo' fetch foo",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='!rm x' git q",
        "GIT_CONFIG_PARAMETERS=\"'alias.q'='!rm x'\" git q",
        "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='!rm x' git q",
    ] {
        let (names, certain) = run_names(line);
        assert!(names.iter().any(|n| n == "rm"), "{line}: {names:?}");
        assert!(!certain, "{line}");
    }
    let l = parse("git ls-remote 'ext::sh -c cat% .env'");
    let cat = l.commands.iter().find(|c| c.argv[0] == "cat");
    assert_eq!(
        cat.map(|c| c.argv.clone()),
        Some(vec!["cat".into(), ".env".into()]),
        "{l:?}"
    );
}

#[test]
fn git_objects_name_paths_under_the_top() {
    for (line, path) in [
        // `:/` is the top of the work tree, which the engine finds from the directory
        // git runs in (it was each directory above, 32 deep, which made any line with
        // another command uncertain).
        ("git show HEAD:.env", ":/.env"),
        ("git cat-file -p HEAD~2:.env", ":/.env"),
        ("git show :0:.env", ":/.env"),
        ("git diff HEAD:src/x main:src/x", ":/src/x"),
        // The index's file (helper-51's over-block: `git show :README.md` was read as
        // pathspec magic, uncertain).
        ("git show :.env", ":/.env"),
        ("git cat-file -p :src/x", ":/src/x"),
    ] {
        let l = parse(line);
        let paths = &l.commands[0].paths;
        assert!(paths.iter().any(|p| p == path), "{path} in {paths:?}");
    }
    assert!(parse("git show HEAD:src/main.rs").is_certain());
    assert!(parse("git show :README.md").is_certain());
    // Pathspec magic stays what it was: not certain.
    assert!(!parse("git show ':!README.md'").is_certain());
    assert!(!parse("git show ':(top)README.md'").is_certain());
    assert!(parse("git fetch origin main:main").is_certain());
}

#[test]
fn git_global_options_leave_the_subcommand_for_deny_rules() {
    for line in [
        "git -C . push origin main",
        "git --no-pager push",
        "git -P push",
        "git --git-dir=.git push",
        "git -C. push",
    ] {
        let l = parse(line);
        let forms = &l.commands[0].forms;
        assert!(
            forms
                .iter()
                .any(|f| f.get(..2) == Some(&["git".into(), "push".into()])),
            "{line}: {forms:?}"
        );
    }
}

/// Round 7: a here-document inside a substitution (bash 5.2 ends it at a body line
/// `EOF)`), a locale whose character set may take a backslash into a character, and a
/// subscript with an expansion are outside the certain subset; the lines bash runs are
/// found for deny rules.
#[test]
fn seventh_round_readings_outside_the_subset() {
    for line in [
        "x=$(cat <<EOF\nEOF)\nrm y\nEOF\n)",
        "cat <(cat <<EOF\nEOF)\nrm y\nEOF\n)",
        "x=`cat <<EOF\nEOF`\nrm y\nEOF\n`",
        "LC_ALL=zh_CN.GBK bash -c 'echo a'",
        "LANG=zh_CN.GBK\necho a",
        "export LC_CTYPE=ja_JP.SJIS; ls",
        "env LC_ALL=zh_TW.BIG5 ls",
        "for LANG in zh_CN.GB18030; do ls; done",
        "LANG=zh_TW ls",
        "printf -v 'a[$(rm x)]' x",
        "declare 'a[$(rm x)]=1'",
        "a['$(rm x)']=1",
        "declare -i x; x='a[$(rm x)]'",
        "declare -i x; for x in 'a[`rm x`]'; do :; done",
        "shopt -s nocaseglob; cat .EN[V]",
        "builtin shopt -u globskipdots; ls",
        "set -f; ls *",
        "set -o noglob; ls",
        "env BASHOPTS=extglob ls",
    ] {
        assert!(!parse(line).is_certain(), "{line}");
    }
    for line in [
        "x=$(cat README.md)",
        "cat <<'EOF'\nEOF)\nEOF",
        "LC_ALL=C sort x",
        "LANG=en_US.UTF-8 ls",
        "LC_CTYPE=C.utf8 ls",
        "LANG= ls",
        "export LANG=POSIX; ls",
        "LANG=de_DE.ISO-8859-1@euro ls",
        "grep -n '^[$]' x",
        "echo 'a[1]'",
        "set -euo pipefail; ls",
        "set -e; ls",
    ] {
        assert!(parse(line).is_certain(), "{line}");
    }
    for line in [
        "printf -v 'a[$(rm x)]' x",
        "let 'a[$(rm x)]'",
        "a['$(rm x)']=1",
        "echo $(( '$(rm x)' ))",
        "(( '$(rm x)' ))",
        "echo $[ '$(rm x)' ]",
        "x=abc; echo ${x:'$(rm x)'}",
        "declare -i x; read x <<< 'a[$(rm x)]'",
    ] {
        let (names, _) = run_names(line);
        let seen = gptel_rust_hooks::shell::read_for_rules(line);
        let mut all: Vec<String> = names;
        all.extend(
            seen.1
                .iter()
                .flat_map(|l| l.commands.iter().map(|c| c.argv[0].clone())),
        );
        assert!(all.iter().any(|n| n == "rm"), "{line}: {all:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Seventh round: wrappers that run commands in other ways.

/// The argvs LINE's reading holds.
fn argvs(line: &str) -> Vec<Vec<String>> {
    parse(line).commands.into_iter().map(|c| c.argv).collect()
}

fn holds(line: &str, argv: &[&str]) -> bool {
    argvs(line)
        .iter()
        .any(|a| a.iter().map(String::as_str).eq(argv.iter().copied()))
}

#[test]
fn env_split_string_is_spliced_and_uncertain() {
    for line in [
        "env -S '-C .. cat x'",
        "env -iS '-C .. cat x'",
        "env '-S-C .. cat x'",
        "env --sp='-C .. cat x'",
        "env -S '-C ..' -S 'cat x'",
        "env -S '-C ..' cat x",
    ] {
        assert!(holds(line, &["cat", "x"]), "{line}: {:?}", argvs(line));
        assert!(parse(line).uncertain.is_some(), "{line}");
    }
    assert!(holds("env -S 'rm\\_x'", &["rm", "x"]));
    assert!(holds("env -S 'rm \"a b\" # c'", &["rm", "a b"]));
    assert!(holds("env -S \"rm 'x y'\"", &["rm", "x y"]));
}

#[test]
fn env_split_string_directories() {
    let form = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        gptel_rust_hooks::shell::chdir_options(&form(&["env", "-S", "-C .. cat x"])),
        vec![".."]
    );
    assert_eq!(
        gptel_rust_hooks::shell::chdir_options(&form(&["tar", "-C", "src", "-C", "../.."])),
        vec!["src", "../.."]
    );
    assert_eq!(
        gptel_rust_hooks::shell::chdir_options(&form(&["unshare", "--wd=..", "cat"])),
        vec![".."]
    );
}

#[test]
fn programs_run_by_wrappers_are_read() {
    for (line, argv) in [
        ("su -s /usr/bin/rm root -- -rf x", &["rm", "-rf", "x"][..]),
        ("runuser --shell=/bin/rm root -c x", &["rm", "-c", "x"]),
        ("sg root 'rm x'", &["rm", "x"]),
        ("sg - root -c 'rm x'", &["rm", "x"]),
        ("newgrp root <<< 'rm x'", &["rm", "x"]),
        ("start-stop-daemon -S --exec /usr/bin/rm -- x", &["rm", "x"]),
        ("start-stop-daemon -S -a /bin/rm -- x", &["rm", "x"]),
        ("tmux new -d 'rm z'", &["rm", "z"]),
        ("tmux new-window -c /tmp rm z", &["rm", "z"]),
        ("tmux -c 'rm z'", &["rm", "z"]),
        ("screen -dmS x rm z", &["rm", "z"]),
        ("unshare -r --wd=.. rm z", &["rm", "z"]),
        ("nsenter -t 1 -m rm z", &["rm", "z"]),
        ("xargs -0 -I{} sh -c {} <<<'rm x'", &["rm", "x"]),
    ] {
        assert!(holds(line, argv), "{line}: {:?}", argvs(line));
        assert!(
            parse(line).uncertain.is_some()
                || parse(line).commands.iter().any(|c| c.opaque.is_some()),
            "{line}"
        );
    }
    let sg = parse("sg root 'rm x'");
    assert!(sg
        .commands
        .iter()
        .any(|c| c.privileged && c.argv[0] == "rm"));
}

/// `enable NAME` loads a shared object when NAME is no builtin (bash 5.2 opens `./NAME`):
/// such a line is opaque; the builtin list it is read against is bash's own.
#[test]
fn enable_loads_what_is_no_builtin() {
    let out = std::process::Command::new("bash")
        .args(["-c", "compgen -b"])
        .output()
        .expect("run bash");
    let mut real: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    real.sort();
    let mut ours: Vec<String> = gptel_rust_hooks::shell::BASH_BUILTINS
        .iter()
        .map(|s| s.to_string())
        .collect();
    ours.sort();
    assert_eq!(ours, real, "bash's builtins (compgen -b)");
    for line in [
        "enable evil",
        "enable -n ./x.so",
        "enable -s x",
        "enable -- x",
        "enable -f ./x.so x",
        // Options end at the first operand (helper-65).
        "enable ./y.so -d",
        "enable kill -./y.so",
        "enable -- -./y.so",
    ] {
        assert!(
            parse(line).commands.iter().any(|c| c.opaque.is_some()),
            "{line}"
        );
    }
    for line in ["enable -n kill", "enable echo", "enable -p", "enable -d x"] {
        assert!(parse(line).is_certain(), "{line}");
    }
}
