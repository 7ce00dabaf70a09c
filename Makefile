# gptel-rust-hooks — build, test, demo.  `make help` lists the targets.

EMACS    ?= emacs
CARGO    ?= cargo
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
MODULE   := target/release/libgptel_rust_hooks.so
MODULE_COPY := lisp/gptel-rust-hooks-module.so
DEPS_DIR := .deps
ELPA_SRC := $(DEPS_DIR)/root/usr/share/emacs/site-lisp/elpa-src

ifdef GPTEL_DIR
GPTEL_LOAD := -L $(GPTEL_DIR) $(foreach d,$(wildcard $(GPTEL_DIR)/../compat-* $(GPTEL_DIR)/../transient-* $(GPTEL_DIR)/../cond-let-*),-L $(d))
else
GPTEL_LOAD = $(foreach d,$(wildcard $(ELPA_SRC)/*),-L $(d))
endif
BATCH = $(EMACS) -Q --batch -L lisp -L tests $(GPTEL_LOAD) \
	--eval '(setq gptel-rust-hooks-module-directory "$(CURDIR)/target/release")'
ERT_FILES := $(sort $(wildcard tests/*-tests.el))

.PHONY: all help deps emacs gptel package-lint test test-rust test-elisp demo lint bench fuzz clean

all: $(MODULE_COPY) ## Build the module (cargo build --release) and place it beside the package

help: ## Show this help
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 14

$(MODULE): Cargo.toml $(wildcard src/*.rs src/*/*.rs)
	$(CARGO) build --release

$(MODULE_COPY): $(MODULE)
	cp $(MODULE) $(MODULE_COPY)

emacs: ## Install Emacs (emacs-nox from Debian) where it is missing
	@command -v $(EMACS) >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq emacs-nox; }

gptel: ## Fetch gptel and its dependencies into .deps (skipped when GPTEL_DIR is set)
ifndef GPTEL_DIR
	@bash scripts/fetch-gptel.sh $(DEPS_DIR)
endif

deps: emacs gptel ## Install what the tests and the demo need

test: deps all test-rust test-elisp ## Run every test: cargo tests, then ERT through real gptel

test-rust: ## Run the cargo tests of the engine
	$(CARGO) test --release

test-elisp: deps all ## Run the ERT tests (module, real gptel, whole conversations)
	$(BATCH) $(foreach f,$(ERT_FILES),-l $(f)) -f ert-run-tests-batch-and-exit

demo: deps all ## Decide a batch of realistic tool calls with the shipped example policy
	$(BATCH) -l examples/demo.el -f gptel-rust-hooks-demo-run

package-lint: ## Install package-lint (elpa-package-lint from Debian) where it is missing
	@ls -d /usr/share/emacs/site-lisp/elpa-src/package-lint-* >/dev/null 2>&1 \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq elpa-package-lint; }

lint: deps package-lint all ## cargo fmt --check, clippy -D warnings, byte-compile -Werror, checkdoc, package-lint
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(BATCH) $(foreach d,$(wildcard /usr/share/emacs/site-lisp/elpa-src/package-lint-* /usr/share/emacs/site-lisp/elpa-src/let-alist-*),-L $(d)) -l scripts/lint.el -f gptel-rust-hooks-lint-run lisp/gptel-rust-hooks.el lisp/gptel-rust-hooks-log.el lisp/gptel-rust-hooks-ui.el

bench: deps all ## Run the benchmarks: the Emacs table (bench/bench.el), then cargo bench
	@mkdir -p bench/elc
	$(BATCH) --eval '(setq byte-compile-dest-file-function (lambda (f) (expand-file-name (file-name-nondirectory (concat (file-name-sans-extension f) ".elc")) "bench/elc")))' \
	  -f batch-byte-compile lisp/gptel-rust-hooks.el bench/bench.el
	$(BATCH) -l bench/elc/gptel-rust-hooks.elc -l bench/elc/bench.elc \
	  --eval '(setq gptel-rust-hooks-bench-output "bench-results/emacs.md")' \
	  -f gptel-rust-hooks-bench-run
	$(CARGO) bench --bench engine

FUZZ_SECONDS ?= 300
fuzz: ## Run the bash oracle's generator for FUZZ_SECONDS (default 300) with random seeds; print every disagreement, shrunk
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(CARGO) test --release --test bash_oracle -- --ignored --exact fuzz --nocapture

clean: ## Remove build products and fetched dependencies
	$(CARGO) clean
	rm -rf $(DEPS_DIR) $(MODULE_COPY) lisp/*.elc tests/*.elc bench/elc
