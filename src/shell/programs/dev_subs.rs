//! The subcommands of cargo, npm and go (see `dev.rs`): which build and run the
//! project's own code, and what each reads and writes.

use super::dev_opts::*;
use super::Role::*;
use super::{all, ex, Effect, Example, Program, Style, BASE};

// ---------------------------------------------------------------------------------------
// cargo

/// A cargo subcommand that builds and runs the project's code (`build.rs`, procedural
/// macros; tests and the program for `test`, `run`, `bench`).
const fn cargo_builds(names: &'static [&'static str], examples: &'static [Example]) -> Program {
    Program {
        names,
        style: Style::Exact,
        opts: CARGO_BUILD,
        effects: &[Effect::ProjectCode, Effect::Network],
        examples,
        ..BASE
    }
}

pub(super) const CARGO_SUBS: &[Program] = &[
    cargo_builds(&["build", "b"], &[ex("cargo build --release -p core", &[])]),
    cargo_builds(&["check", "c"], &[ex("cargo check --all-targets", &[])]),
    cargo_builds(
        &["test", "t"],
        &[
            ex("cargo test --release --test shell -- --nocapture", &[]),
            ex("cargo test parse_line", &[]),
        ],
    ),
    cargo_builds(
        &["run", "r"],
        &[ex("cargo run --bin tool -- --input .env", &[])],
    ),
    cargo_builds(
        &["clippy"],
        &[ex("cargo clippy --all-targets -- -D warnings", &[])],
    ),
    cargo_builds(&["doc", "d"], &[ex("cargo doc --no-deps", &[])]),
    cargo_builds(&["bench"], &[ex("cargo bench --no-run", &[])]),
    cargo_builds(
        &["rustc", "rustdoc", "fix", "publish", "package"],
        &[ex("cargo fix --allow-dirty", &[])],
    ),
    Program {
        names: &[
            "search",
            "info",
            "report",
            "locate-project",
            "pkgid",
            "generate-lockfile",
            "verify-project",
            "vendor",
            "uninstall",
            "version",
        ],
        style: Style::Exact,
        opts: CARGO_DEPS,
        effects: &[Effect::Network],
        examples: &[ex("cargo generate-lockfile --offline", &[])],
        ..BASE
    },
    Program {
        names: &["fmt"],
        style: Style::Exact,
        opts: CARGO_FMT,
        examples: &[ex("cargo fmt --all -- --check", &[])],
        ..BASE
    },
    Program {
        names: &["clean"],
        style: Style::Exact,
        opts: CARGO_CLEAN,
        effects: &[Effect::Dirs],
        examples: &[ex("cargo clean --target-dir /tmp/t", &["/tmp/t"])],
        ..BASE
    },
    Program {
        names: &["new", "init"],
        style: Style::Exact,
        opts: CARGO_NEW,
        operands: all(Write),
        effects: &[Effect::Dirs],
        examples: &[ex("cargo new --lib tool", &["tool"])],
        ..BASE
    },
    Program {
        names: &["add", "remove", "rm", "update", "fetch"],
        style: Style::Exact,
        opts: CARGO_DEPS,
        effects: &[Effect::Network],
        examples: &[
            ex("cargo add serde -F derive", &[]),
            ex("cargo add --path ../core core", &["../core"]),
        ],
        ..BASE
    },
    Program {
        names: &["metadata", "tree"],
        style: Style::Exact,
        opts: CARGO_INFO,
        effects: &[Effect::Network],
        examples: &[ex("cargo tree -e normal --depth 1", &[])],
        ..BASE
    },
    Program {
        names: &["install"],
        style: Style::Exact,
        opts: CARGO_INSTALL,
        effects: &[Effect::ProjectCode, Effect::Network],
        examples: &[ex("cargo install --path .", &["."])],
        ..BASE
    },
];

// ---------------------------------------------------------------------------------------
// npm, npx

/// An npm subcommand that runs the package's scripts (`install` runs the lifecycle
/// scripts of the package and its dependencies).
const fn npm_runs(names: &'static [&'static str], examples: &'static [Example]) -> Program {
    Program {
        names,
        style: Style::Exact,
        opts: NPM,
        effects: &[Effect::ProjectCode, Effect::Network],
        examples,
        ..BASE
    }
}

pub(super) const NPM_SUBS: &[Program] = &[
    npm_runs(
        &["install", "i", "add", "ci", "update", "up", "rebuild"],
        &[ex("npm install -D typescript", &[]), ex("npm ci", &[])],
    ),
    npm_runs(
        &["run", "run-script", "test", "t", "start", "stop", "restart"],
        &[
            ex("npm run build -- --watch", &[]),
            ex("npm test", &[]),
            Example {
                line: "npm --script-shell /tmp/x run build",
                paths: &[],
                runs: &["/tmp/x"],
                unknown: &[],
            },
        ],
    ),
    npm_runs(
        &["publish", "pack", "version"],
        &[ex("npm pack --dry-run", &[])],
    ),
    npm_runs(
        &["exec", "x", "init", "create", "innit"],
        &[ex("npm exec -- tsc -p .", &[]), ex("npm init -y", &[])],
    ),
    Program {
        names: &["link", "ln"],
        style: Style::Exact,
        opts: NPM,
        effects: &[Effect::Links, Effect::ProjectCode],
        examples: &[ex("npm link", &[])],
        ..BASE
    },
    Program {
        names: &[
            "cache",
            "config",
            "c",
            "set",
            "get",
            "dist-tag",
            "doctor",
            "login",
            "logout",
            "prune",
            "dedupe",
            "ddp",
            "find-dupes",
            "unpublish",
            "deprecate",
            "why",
            "explain",
            "fund",
            "owner",
            "search",
            "s",
            "pkg",
            "query",
            "diff",
            "access",
            "team",
            "token",
            "hook",
            "star",
            "stars",
            "unstar",
            "profile",
            "org",
            "whoami",
            "ping",
            "shrinkwrap",
            "sbom",
        ],
        style: Style::Exact,
        opts: NPM,
        effects: &[Effect::Network, Effect::Dirs],
        examples: &[ex("npm cache clean --force", &[]), ex("npm why react", &[])],
        ..BASE
    },
    Program {
        names: &["uninstall", "remove", "rm", "un"],
        style: Style::Exact,
        opts: NPM,
        examples: &[ex("npm uninstall left-pad", &[])],
        ..BASE
    },
    Program {
        names: &[
            "ls", "list", "outdated", "audit", "view", "info", "root", "bin", "prefix",
        ],
        style: Style::Exact,
        opts: NPM,
        effects: &[Effect::Network],
        examples: &[
            ex("npm ls --depth 0", &[]),
            ex("npm view react version", &[]),
        ],
        ..BASE
    },
];

const fn go_sub(
    names: &'static [&'static str],
    effects: &'static [Effect],
    examples: &'static [Example],
) -> Program {
    Program {
        names,
        style: Style::SingleDash,
        opts: GO_BUILD,
        operands: all(Read),
        effects,
        examples,
        ..BASE
    }
}

const GO_MOD_SUBS: &[Program] = &[
    go_sub(
        &["tidy", "download", "vendor", "verify", "graph", "why"],
        &[Effect::Network],
        &[ex("go mod tidy", &[])],
    ),
    go_sub(
        &["init", "edit"],
        &[],
        &[ex("go mod init example.com/x", &["example.com/x"])],
    ),
];

pub(super) const GO_SUBS: &[Program] = &[
    go_sub(
        &["build", "install", "vet", "list"],
        &[Effect::Network],
        &[ex(
            "go build -o bin/app ./cmd/app",
            &["bin/app", "./cmd/app"],
        )],
    ),
    go_sub(
        &["test", "run", "generate"],
        &[Effect::ProjectCode, Effect::Network],
        &[
            ex("go test -run TestX -v ./...", &["./..."]),
            Example {
                line: "go test -exec 'rm -rf x' .",
                paths: &["."],
                runs: &["rm -rf x"],
                unknown: &[],
            },
        ],
    ),
    go_sub(
        &[
            "fmt", "clean", "env", "version", "doc", "fix", "work", "bug",
        ],
        &[],
        &[ex("go fmt ./...", &["./..."])],
    ),
    go_sub(
        &["get"],
        &[Effect::Network, Effect::ProjectCode],
        &[ex("go get -u", &[])],
    ),
    Program {
        subs: GO_MOD_SUBS,
        ..go_sub(&["mod"], &[], &[ex("go mod download", &[])])
    },
];
