# gptel-rust-hooks — build, test, demo.  `make help` lists the targets.

DEPS_DIR := .deps
# `make test` runs the ERT suite on the system's Emacs (28.2 on Debian 12) and on
# Emacs 30.1 unpacked into .deps by scripts/fetch-emacs.sh; EMACS=... runs it on that one.
EMACS30  := $(DEPS_DIR)/bin/emacs-30.1
ifneq ($(filter environment command line,$(origin EMACS)),)
TEST_EMACSEN := $(EMACS)
else
EMACS    := emacs
TEST_EMACSEN := emacs $(EMACS30)
endif
CARGO    ?= cargo
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
MODULE   := target/release/libgptel_rust_hooks.so
MODULE_COPY := lisp/gptel-rust-hooks-module.so
ELPA_SRC := $(DEPS_DIR)/root/usr/share/emacs/site-lisp/elpa-src

ifdef GPTEL_DIR
GPTEL_LOAD := -L $(GPTEL_DIR) $(foreach d,$(wildcard $(GPTEL_DIR)/../compat-* $(GPTEL_DIR)/../transient-* $(GPTEL_DIR)/../cond-let-* $(GPTEL_DIR)/../llama-*),-L $(d))
else
GPTEL_LOAD = $(foreach d,$(wildcard $(ELPA_SRC)/*),-L $(d))
endif
# The tests load the module cargo just built, and never touch the user's store.
BATCH_WITH = $(1) -Q --batch -L lisp -L tests $(GPTEL_LOAD) \
	--eval '(setq gptel-rust-hooks-module-directory "$(CURDIR)/target/release")' \
	--eval '(setq gptel-rust-hooks-module-store (expand-file-name "gptel-rust-hooks-test-store/" temporary-file-directory))'
BATCH = $(call BATCH_WITH,$(EMACS))
ERT_FILES := $(sort $(wildcard tests/*-tests.el))

# The manual: doc/gptel-rust-hooks.org, exported to Texinfo by the system Emacs's own
# ox-texinfo (the .texi is committed: MELPA builds its Info from it), then makeinfo.
DOC_EMACS := emacs
DOC_ORG  := doc/gptel-rust-hooks.org
DOC_TEXI := doc/gptel-rust-hooks.texi
DOC_INFO := doc/gptel-rust-hooks.info
DOC_EXPORT = $(DOC_EMACS) -Q --batch --eval '(require (quote ox-texinfo))' \
	--eval '(with-current-buffer (find-file-noselect "$(1)") (org-export-to-file (quote texinfo) "$(2)"))'

.PHONY: all help deps emacs bubblewrap texinfo programs gptel package-lint test test-rust test-elisp test-doc doc doc-if-makeinfo demo lint bench fuzz measure clean

all: $(MODULE_COPY) doc-if-makeinfo ## Build the module (cargo build --release), place it beside the package, build the manual

help: ## Show this help
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 14

$(MODULE): Cargo.toml Cargo.lock build.rs $(shell find src -name "*.rs")
	$(CARGO) build --release --locked

# A running Emacs may have the old copy mapped: write a new file, rename it into place.
$(MODULE_COPY): $(MODULE)
	cp $(MODULE) $(MODULE_COPY:.so=).tmp-$$$$.so && mv -f $(MODULE_COPY:.so=).tmp-$$$$.so $(MODULE_COPY)

emacs: ## Install the Emacsen the tests run on: emacs-nox (Debian) where missing, Emacs 30.1 into .deps
ifneq ($(filter emacs,$(TEST_EMACSEN)),)
	@command -v emacs >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq emacs-nox; }
endif
ifneq ($(filter $(EMACS30),$(TEST_EMACSEN)),)
	@bash scripts/fetch-emacs.sh $(DEPS_DIR)
endif

texinfo: ## Install texinfo (makeinfo, install-info, to build the Info manual) where it is missing
	@command -v makeinfo >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq texinfo; }

doc: $(DOC_INFO) doc/dir ## Build the Info manual: doc/gptel-rust-hooks.org -> .texi -> .info and doc/dir

# `make' in a clone without texinfo still builds the module; `make test' installs texinfo
# (make deps) and always builds the manual (test-doc).
doc-if-makeinfo:
	@if command -v makeinfo >/dev/null 2>&1; then $(MAKE) --no-print-directory doc; \
	 else echo "makeinfo not found: the Info manual is not built (make texinfo, then make doc)"; fi

$(DOC_TEXI): $(DOC_ORG)
	$(call DOC_EXPORT,$(DOC_ORG),$(notdir $(DOC_TEXI)))

$(DOC_INFO): $(DOC_TEXI)
	@command -v makeinfo >/dev/null 2>&1 || { echo "makeinfo not found: run make texinfo (Debian's texinfo)" >&2; exit 1; }
	makeinfo --no-split $(DOC_TEXI) -o $(DOC_INFO)

doc/dir: $(DOC_INFO)
	rm -f doc/dir && install-info --dir-file=doc/dir $(DOC_INFO)

# The committed .texi must be the export of the committed .org (MELPA reads the .texi).
test-doc: doc ## Check that doc/gptel-rust-hooks.texi is the export of the .org, and makeinfo accepts it
	@tmp=$$(mktemp -d) && cp $(DOC_ORG) $$tmp/ \
	  && (cd $$tmp && $(call DOC_EXPORT,$(notdir $(DOC_ORG)),$(notdir $(DOC_TEXI)))) \
	  && if cmp -s $$tmp/$(notdir $(DOC_TEXI)) $(DOC_TEXI); then rm -rf $$tmp; \
	     else diff -u $(DOC_TEXI) $$tmp/$(notdir $(DOC_TEXI)) | head -40; rm -rf $$tmp; \
	       echo "$(DOC_TEXI) is not the export of $(DOC_ORG): run make doc and commit it" >&2; exit 1; fi

bubblewrap: ## Install bubblewrap (bwrap, for sandboxed calls) where it is missing
	@command -v bwrap >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq bubblewrap; }

# The programs tests/programs_real.rs runs for real (the program table's verification) and
# the everyday corpus of `make measure` runs under strace. One `dpkg -s` when all are there.
PROGRAMS_DEB := strace ripgrep fd-find zsh busybox gawk git curl make tar sed grep findutils coreutils diffutils patch file \
	jq sqlite3 zip unzip wget bat nodejs less xxd procps python3 hostname tree bsdextrautils mawk original-awk
programs: ## Install the programs the real-program verification runs (Debian packages) where missing
	@dpkg -s $(PROGRAMS_DEB) >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PROGRAMS_DEB); }

gptel: ## Fetch gptel and its dependencies into .deps (skipped when GPTEL_DIR is set)
ifndef GPTEL_DIR
	@bash scripts/fetch-gptel.sh $(DEPS_DIR)
endif

deps: emacs bubblewrap texinfo programs gptel ## Install what the tests, the demo and the manual need

test: deps all test-rust test-doc test-elisp ## Run every test: cargo tests, the manual, then ERT on Emacs 28.2 and 30.1 (EMACS=... one)

test-rust: ## Run the cargo tests of the engine
	$(CARGO) test --release

# One recipe line per Emacs: the first that fails stops the run.
define ERT_ON
	@echo "ERT on $(1): $$($(1) -Q --batch --eval '(princ emacs-version)')"
	$(call BATCH_WITH,$(1)) $(foreach f,$(ERT_FILES),-l $(f)) -f ert-run-tests-batch-and-exit

endef

test-elisp: deps all ## Run the ERT tests (module, real gptel, whole conversations) on each Emacs
	$(foreach e,$(TEST_EMACSEN),$(call ERT_ON,$(e)))

demo: deps all ## Decide a batch of realistic tool calls with the shipped example policy
	$(BATCH) -l examples/demo.el -f gptel-rust-hooks-demo-run

package-lint: ## Install package-lint (elpa-package-lint from Debian) where it is missing
	@ls -d /usr/share/emacs/site-lisp/elpa-src/package-lint-* >/dev/null 2>&1 \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq elpa-package-lint; }

lint: deps package-lint all ## cargo fmt --check, clippy -D warnings, byte-compile -Werror, checkdoc, package-lint
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(BATCH) $(foreach d,$(wildcard /usr/share/emacs/site-lisp/elpa-src/package-lint-* /usr/share/emacs/site-lisp/elpa-src/let-alist-*),-L $(d)) -l scripts/lint.el -f gptel-rust-hooks-lint-run lisp/gptel-rust-hooks.el lisp/gptel-rust-hooks-log.el lisp/gptel-rust-hooks-ui.el lisp/gptel-rust-hooks-sources.el lisp/gptel-rust-hooks-menu.el

# The targets are compared with bench/results.md, the previous run kept in the
# repository, which the new run then replaces: commit it with the change it measures.
BENCH_CARGO ?= 1
bench: deps all ## Run the benchmarks: the Emacs table and its targets (vs bench/results.md), then cargo bench
	@mkdir -p bench/elc bench-results
	$(BATCH) --eval '(setq byte-compile-dest-file-function (lambda (f) (expand-file-name (file-name-nondirectory (concat (file-name-sans-extension f) ".elc")) "bench/elc")))' \
	  -f batch-byte-compile lisp/gptel-rust-hooks.el lisp/gptel-rust-hooks-log.el bench/bench.el
	$(BATCH) -L bench/elc -l bench/elc/gptel-rust-hooks.elc -l bench/elc/gptel-rust-hooks-log.elc -l bench/elc/bench.elc \
	  --eval '(setq gptel-rust-hooks-bench-output "bench-results/emacs.md")' \
	  --eval '(setq gptel-rust-hooks-bench-previous "bench/results.md")' \
	  -f gptel-rust-hooks-bench-run
	cp bench-results/emacs.md bench/results.md
ifeq ($(BENCH_CARGO),1)
	$(CARGO) bench --bench engine
endif

FUZZ_SECONDS ?= 300
# FUZZ=bash (default): the bash oracle's generator with random seeds. FUZZ=programs: every
# invocation tests/programs_real.rs makes of every table entry, run for real under strace.
FUZZ ?= bash
fuzz: ## Run the bash oracle (FUZZ=programs: the real-program verification of the table) for FUZZ_SECONDS (default 300); print every disagreement, shrunk
ifeq ($(FUZZ),programs)
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(CARGO) test --release --test programs_real -- --ignored --exact all_invocations --nocapture
else
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(CARGO) test --release --test bash_oracle -- --ignored --exact fuzz --nocapture
endif

clean: ## Remove build products and fetched dependencies
	$(CARGO) clean
	rm -rf $(DEPS_DIR) $(MODULE_COPY) lisp/*.elc tests/*.elc bench/elc $(DOC_INFO) doc/dir

measure: programs ## Measure the reading: tldr-pages' examples (certain, allowed) and the everyday corpus run under strace
	$(CARGO) test --release --test measure_corpus -- --ignored --nocapture --test-threads 1
