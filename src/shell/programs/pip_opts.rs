//! pip's option lists (for `dev.rs`): its general options, which it takes after any
//! subcommand too, and each subcommand's own (`pip SUB --help`, pip 23).

use super::Role::*;
use super::{flag, val, Opt, Role};

const D: Role = Data;

/// pip's general options, which it takes after its subcommand too (`pip SUB --help`,
/// "General Options"), after the options OPTS of that subcommand. Not `--python
/// PYTHON`, which runs pip with another interpreter, nor `--keyring-provider
/// subprocess`, which runs the `keyring` program: unknown.
macro_rules! pip_opts {
    ($($o:expr),* $(,)?) => {
        &[
            $($o,)*
            flag("h", "help"),
            flag("", "debug"),
            flag("", "isolated"),
            flag("", "require-virtualenv"),
            flag("v", "verbose"),
            flag("V", "version"),
            flag("q", "quiet"),
            val("", "log", Write),
            flag("", "no-input"),
            val("", "proxy", D),
            val("", "retries", D),
            val("", "timeout", D),
            val("", "exists-action", D),
            val("", "trusted-host", D),
            val("", "cert", Read),
            val("", "client-cert", Read),
            val("", "cache-dir", Write),
            flag("", "no-cache-dir"),
            flag("", "disable-pip-version-check"),
            flag("", "no-color"),
            flag("", "no-python-version-warning"),
            val("", "use-feature", D),
            val("", "use-deprecated", D),
            val("", "root-user-action", D),
        ]
    };
}

pub(super) const PIP: &[Opt] = pip_opts![];

/// `pip install`, `download`, `wheel`: it builds and installs packages, running their
/// build code (`setup.py`), a project's too (`pip install -e .`).
pub(super) const PIP_INSTALL: &[Opt] = pip_opts![
    val("r", "requirement", Read),
    val("c", "constraint", Read),
    val("e", "editable", Read),
    val("t", "target", Write),
    flag("", "user"),
    val("", "root", Write),
    val("", "prefix", Write),
    val("", "src", Write),
    flag("U", "upgrade"),
    val("", "upgrade-strategy", D),
    flag("", "force-reinstall"),
    flag("I", "ignore-installed"),
    flag("", "no-deps"),
    flag("", "pre"),
    flag("", "no-build-isolation"),
    val("", "no-binary", D),
    val("", "only-binary", D),
    flag("", "prefer-binary"),
    val("i", "index-url", Url),
    val("", "extra-index-url", Url),
    flag("", "no-index"),
    val("f", "find-links", Read),
    flag("", "dry-run"),
    val("", "report", Write),
    flag("", "break-system-packages"),
    flag("", "require-hashes"),
    flag("", "no-warn-script-location"),
    flag("", "compile"),
    flag("", "no-compile"),
    flag("y", "yes"),
    val("d", "dest", Write),
    val("w", "wheel-dir", Write),
    val("", "platform", D),
    val("", "python-version", D),
    val("", "implementation", D),
    val("", "abi", D),
    flag("", "ignore-requires-python"),
    flag("", "use-pep517"),
    flag("", "check-build-dependencies"),
    val("", "progress-bar", D),
    flag("", "no-verify"),
    flag("", "no-clean"),
];

/// `pip list`.
pub(super) const PIP_LIST: &[Opt] = pip_opts![
    flag("o", "outdated"),
    flag("u", "uptodate"),
    flag("e", "editable"),
    flag("l", "local"),
    flag("", "user"),
    val("", "format", D),
    flag("", "not-required"),
    val("", "path", Read),
    val("", "exclude", D),
    flag("", "exclude-editable"),
    flag("", "include-editable"),
    flag("", "pre"),
    val("i", "index-url", Url),
    val("", "extra-index-url", Url),
    flag("", "no-index"),
    val("f", "find-links", Read),
];

/// `pip freeze`, `pip inspect`.
pub(super) const PIP_FREEZE: &[Opt] = pip_opts![
    val("r", "requirement", Read),
    flag("l", "local"),
    flag("", "user"),
    val("", "path", Read),
    flag("", "all"),
    flag("", "exclude-editable"),
    val("", "exclude", D),
];

/// `pip show`.
pub(super) const PIP_SHOW: &[Opt] = pip_opts![flag("f", "files")];

/// `pip uninstall`.
pub(super) const PIP_UNINSTALL: &[Opt] = pip_opts![
    val("r", "requirement", Read),
    flag("y", "yes"),
    flag("", "break-system-packages"),
];

/// `pip hash FILE...`.
pub(super) const PIP_HASH: &[Opt] = pip_opts![val("a", "algorithm", D)];

/// `pip cache`.
pub(super) const PIP_CACHE: &[Opt] = pip_opts![val("", "format", D)];

/// `pip index`, `pip debug`: the target they read for.
pub(super) const PIP_INDEX: &[Opt] = pip_opts![
    val("", "platform", D),
    val("", "python-version", D),
    val("", "implementation", D),
    val("", "abi", D),
    flag("", "ignore-requires-python"),
    flag("", "pre"),
    val("", "no-binary", D),
    val("", "only-binary", D),
    val("i", "index-url", Url),
    val("", "extra-index-url", Url),
    flag("", "no-index"),
    val("f", "find-links", Read),
];

/// `pip config`: which file. Not `--editor EDITOR`, a program `pip config edit` runs:
/// unknown.
pub(super) const PIP_CONFIG: &[Opt] =
    pip_opts![flag("", "global"), flag("", "user"), flag("", "site"),];
