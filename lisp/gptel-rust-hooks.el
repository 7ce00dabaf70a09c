;;; gptel-rust-hooks.el --- Decide every gptel tool call by compiled rules -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The gptel-rust-hooks developers

;; Author: The gptel-rust-hooks developers
;; Version: 0.2.0
;; Package-Requires: ((emacs "27.1") (gptel "0.9.9.5"))
;; Keywords: tools, convenience
;; URL: https://github.com/gptel-rust-hooks/gptel-rust-hooks

;; This file is not part of GNU Emacs.

;; This program is free software; you can redistribute it and/or modify
;; it under the terms of the GNU General Public License as published by
;; the Free Software Foundation, either version 3 of the License, or
;; (at your option) any later version.

;; This program is distributed in the hope that it will be useful,
;; but WITHOUT ANY WARRANTY; without even the implied warranty of
;; MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
;; GNU General Public License for more details.

;; You should have received a copy of the GNU General Public License
;; along with this program.  If not, see <https://www.gnu.org/licenses/>.

;;; Commentary:

;; gptel-rust-hooks decides every tool call an LLM makes through gptel.
;; You write rules in `gptel-rust-hooks-rules' (or JSON policy files); a
;; Rust dynamic module compiles them once into a native policy (glob sets,
;; regexp sets, a real shell parser, path normalization) and answers
;; `gptel-pre-tool-call-functions' in microseconds: allow, ask, deny with
;; a reason, stop the request, edit the arguments or give a canned result.
;;
;; Quick start:
;;
;;   (setq gptel-rust-hooks-default-decision 'ask)
;;   (setq gptel-rust-hooks-preset 'workspace)
;;   (gptel-rust-hooks-mode 1)
;;
;; The preset allows reads and read-only commands inside the project,
;; denies secrets and recursive deletes outside it, and runs the commands
;; it allows sandboxed where bubblewrap is installed; whatever no rule
;; decides is asked.  Extend it with your own rules:
;;
;;   (setq gptel-rust-hooks-rules
;;         '((:id "make" :tool "shell" :command-prefix "make" :decision allow)))
;;
;; M-x gptel-rust-hooks shows the rules in force by source, and lets
;; you add, edit, disable, delete, trust, explain and open the log.
;;
;; The module loads when the mode turns on.  With none yet, turning
;; the mode on offers to download a prebuilt one
;; (`gptel-rust-hooks-download-module', checked against the SHA-256
;; shipped with the package) or to build it
;; (`gptel-rust-hooks-build-module', needs cargo).  Modules live in
;; `gptel-rust-hooks-module-store', one file per version and build, so
;; an upgrade never writes over the module a running Emacs has loaded.
;;
;; The package fails closed: whatever goes wrong inside it (a missing
;; module, rules that do not compile, a malformed call) blocks the call
;; rather than letting gptel run it.

;;; Code:

(require 'cl-lib)
(require 'format-spec)
(require 'json)
(require 'subr-x)

;;;; Customization

(defgroup gptel-rust-hooks nil
  "Decide every gptel tool call by compiled rules."
  :group 'gptel
  :prefix "gptel-rust-hooks-")

(defconst gptel-rust-hooks-version "0.2.0"
  "The version of this package; the module must report the same.")

(defconst gptel-rust-hooks--rule-options
  '((:id string)
    (:disabled boolean)
    (:tool (choice string (repeat string)))
    (:tool-regexp (choice regexp (repeat regexp)))
    (:args (plist :key-type symbol :value-type sexp))
    (:path (choice string (repeat string)))
    (:path-outside (choice directory (repeat directory)))
    (:path-keys (repeat string))
    (:command-prefix (choice string (repeat string)))
    (:command-regexp (choice regexp (repeat regexp)))
    (:command-keys (repeat string))
    (:buffer string)
    (:backend string)
    (:model string)
    (:cwd (choice string (repeat string)))
    (:decision (choice (const allow) (const ask) (const deny) (const stop)))
    (:reason string)
    (:set-args (plist :key-type symbol :value-type sexp))
    (:default-args (plist :key-type symbol :value-type sexp))
    (:remove-args (repeat symbol))
    (:result string)
    (:context string)
    (:suppress-output boolean)
    (:redact (choice regexp (repeat regexp)))
    (:max-output integer)
    (:sandbox (choice (const :tag "The defaults" t)
                      (plist :tag "Settings"
                             :options ((:write (repeat string))
                                       (:hide (repeat string))
                                       (:network boolean)))))
    (:examples (plist :options ((:match (repeat sexp))
                                (:no-match (repeat sexp))))))
  "The keys of a rule, with their Customize types.")

(defcustom gptel-rust-hooks-rules nil
  "The rules that decide gptel's tool calls, a list of plists.

Each rule is a plist of matchers (`:tool', `:tool-regexp', `:args',
`:path', `:path-outside', `:command-prefix', `:command-regexp',
`:buffer', `:backend', `:model', `:cwd') and effects (`:decision',
`:reason', `:set-args', `:default-args', `:remove-args', `:result',
`:context', `:suppress-output', `:redact', `:max-output', `:sandbox'), with
optional `:id', `:path-keys', `:command-keys' and `:examples'.  Every
matcher a rule gives must match.  The most restrictive decision of all
matching rules wins: stop > deny > ask > allow.  See the README for the
full reference.

Setting this option with `customize-set-variable' or Customize
compiles the rules; a bad rule signals `gptel-rust-hooks-rule-error'
and the rules in force stay in force."
  :type `(repeat (plist :tag "Rule"
                        :key-type symbol
                        :value-type sexp
                        :options ,gptel-rust-hooks--rule-options))
  :set #'gptel-rust-hooks--set-rules
  :initialize #'custom-initialize-default
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-default-decision nil
  "The decision for calls no rule decides.
nil leaves gptel's own confirmation settings alone."
  :type '(choice (const :tag "Leave it to gptel" nil)
                 (const allow) (const ask) (const deny))
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-preset nil
  "A ready-made policy your rules extend, or nil.

`read-only': reads inside the project are allowed (the tools of
`gptel-rust-hooks-preset-read-tools' on paths inside it, and the shell
commands of `gptel-rust-hooks-preset-read-commands' run from it);
secrets (~/.ssh, ~/.aws, ~/.gnupg, .env files, ...) are denied to every
tool and command, and so are recursive deletes outside the project and
the temporary directory.  Where bubblewrap exists, the shell commands
it allows run sandboxed; where it does not, they run unconfined (never
blocked for want of it).

`workspace': all of `read-only', and the file tools of
`gptel-rust-hooks-preset-write-tools' may also write inside the
project, except into its .git directory (asked).

The project is the directory holding .git (or .hg, .jj, .project,
.gptel-hooks.json) above the request's directory, else that directory;
never your home directory or /: there, only the denials apply.  The
preset's rules come before `gptel-rust-hooks-rules' and show as the
source \"preset: NAME\"; a call they leave undecided gets
`gptel-rust-hooks-default-decision'."
  :type '(choice (const :tag "None" nil)
                 (const :tag "Read-only: reads in the project" read-only)
                 (const :tag "Workspace: reads and writes in the project" workspace))
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-prompt-rules-file
  (locate-user-emacs-file "gptel-rust-hooks-rules.eld")
  "The file keeping the rules you add from gptel's prompt for a project.
\"Always allow ... this project\" writes its rule here, a file of its
own that no init file or Customize rewrites.  It holds a Lisp list of
rules, loaded with the policy (the source \"added from the prompt\")."
  :type 'file
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-unsure-decision 'ask
  "What a deny rule decides when every match it has is unsure.
A match is unsure when it rests only on what the reading of a command
cannot know: a value only the running shell knows (`rm -rf \"$d\"'
under `:path-outside'), or a word of a program the program table does
not know, read generously (`strace rm -rf x').  `ask' (the default)
asks the user, with a reason that names the rule and what is unknown;
`deny' denies as the rule says.  Ask and stop rules are not changed."
  :type '(choice (const :tag "Ask the user" ask) (const :tag "Deny" deny))
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-on-error 'block
  "What an internal error becomes: block the call, or stop the request."
  :type '(choice (const block) (const stop))
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-validate-calls t
  "Whether calls to tools gptel knows are checked against the tool's arguments.
A call with an argument the tool does not declare, or without one it
requires, is blocked before any rule runs, with a reason that names the
expected arguments.  Arguments edited by rules are checked the same way.
Calls to tools gptel does not know are left alone."
  :type 'boolean
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-path-keys
  '("path" "paths" "file" "files" "file_path" "filepath" "filePath" "file_name"
    "filename" "absolute_path" "notebook_path" "directory" "dir" "dirpath" "folder"
    "parent" "target" "source" "destination" "src" "dest" "dst" "old_path" "new_path"
    "oldPath" "newPath" "source_path" "sourcePath" "destination_path"
    "destinationPath" "target_path" "targetPath" "from_path" "to_path" "output"
    "out" "output_path" "outputPath" "outfile" "output_file" "input_path"
    "working_directory" "workdir" "work_dir" "working_dir" "cwd")
  "Argument names whose values are file or directory paths.
The defaults cover the tools of gptel's README, gptel-agent,
llm-tool-collection and the MCP filesystem server."
  :type '(repeat string)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-command-keys '("command" "cmd" "script" "shell_command")
  "Argument names whose values are shell command lines."
  :type '(repeat string)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-case-fold
  (and (memq system-type '(darwin windows-nt ms-dos cygwin)) t)
  "Whether paths are compared without regard to case."
  :type 'boolean
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-redact-secrets nil
  "Whether to redact well-known secrets from every tool result.
The patterns cover API keys of the big providers (OpenAI, Anthropic,
Google, AWS, GitHub, Slack, Stripe, Hugging Face), private key blocks,
JSON Web Tokens and bearer tokens; each match becomes [REDACTED]."
  :type 'boolean
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-policy-files nil
  "JSON policy files whose rules apply after `gptel-rust-hooks-rules'.
Each file holds a JSON list of rules with the same keys as the Lisp
form, without the colon.  A file that changes is read again on the next
call; one that no longer compiles keeps its last good rules in force.

Setting this option with `customize-set-variable', `setopt' or
Customize checks each file first: a file that is missing, is not JSON
or (once the module is loaded) does not compile signals
`gptel-rust-hooks-rule-error', and the files in force stay in force."
  :type '(repeat file)
  :set #'gptel-rust-hooks--set-policy-files
  :initialize #'custom-initialize-default
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-project-policies t
  "Whether a project's .gptel-hooks.json applies to calls from it.
The file is found by walking up from the request's directory.  Unless
the project is trusted, only its deny, ask and stop rules apply."
  :type 'boolean
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-trusted-directories nil
  "Directories whose project policy files may also allow and edit calls."
  :type '(repeat directory)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-trusted-project-files nil
  "Project policy files marked trusted, with the SHA-256 of their text.
A file whose text changed is untrusted again.  Set by
`gptel-rust-hooks-trust-project'."
  :type '(alist :key-type file :value-type string)
  :group 'gptel-rust-hooks)

(defconst gptel-rust-hooks-project-file ".gptel-hooks.json"
  "The name of a project's policy file.")

(defcustom gptel-rust-hooks-sandbox-program "bwrap"
  "The bubblewrap executable that runs sandboxed calls.
A name is looked up in the variable `exec-path'; a name with a slash
must be an absolute file name.  When it cannot be found or cannot set
up a sandbox, every call a rule's `:sandbox' applies to is blocked."
  :type 'string
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-sandbox-socket-dirs
  '("/run" "$XDG_RUNTIME_DIR" "$SSH_AUTH_SOCK" "~/.gnupg")
  "Where the sockets a sandboxed call without network must not reach are.
A read-only file system and a network namespace do not stop a program
from connecting to a Unix-domain socket, so a sandbox without network
also covers every socket under these directories (Docker, D-Bus, SSH
and GPG agents, an Emacs server).  An entry $VAR is the value of the
environment variable VAR (skipped when unset); an entry that names a
file stands for the directory holding it; an entry that does not exist
is skipped."
  :type '(repeat string)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-module-directory nil
  "Directory holding a module you built or placed yourself, or nil.
When set, its gptel-rust-hooks-module.so (or cargo's
libgptel_rust_hooks.so) is loaded before any other module, whatever
sources it was built from, provided it is of this version."
  :type '(choice (const :tag "None" nil) directory)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-module-store (locate-user-emacs-file "gptel-rust-hooks/")
  "Directory keeping the built and downloaded modules, one file per build.
Its modules/ holds gptel-rust-hooks-module-VERSION-BUILDID.so; its
target/ is cargo's build directory, shared by every version, so that a
rebuild after an upgrade is incremental.  It lies outside every
directory a package manager replaces; old builds are deleted once a
newer one is in use."
  :type 'directory
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-cargo-program nil
  "The cargo program that builds the module, or nil to search for it.
nil searches the variable `exec-path', then $CARGO_HOME/bin and ~/.cargo/bin."
  :type '(choice (const :tag "Search" nil) file)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-module-url
  "https://github.com/gptel-rust-hooks/gptel-rust-hooks/releases/download/v%v/%f"
  "Where `gptel-rust-hooks-download-module' fetches a prebuilt module.
%v is the package version, %s the system (such as x86_64-linux), %f the
file name the manifest shipped with the package gives.  Whatever the
URL, the file must have the SHA-256 that manifest gives."
  :type 'string
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-module-install 'ask
  "What turning the mode on does when there is no module.
`ask' offers to download a prebuilt module or to build one (in batch,
with no user to ask, it only warns); `download' downloads it, or builds
it when none is listed for this system; `build' builds it; nil only
warns.  Until a module is loaded, every tool call is blocked."
  :type '(choice (const :tag "Ask" ask) (const :tag "Download" download)
                 (const :tag "Build" build) (const :tag "Only warn" nil))
  :group 'gptel-rust-hooks)

;;;; Internal variables

(define-error 'gptel-rust-hooks-error "gptel-rust-hooks error")
(define-error 'gptel-rust-hooks-rule-error "Bad gptel-rust-hooks rule"
  'gptel-rust-hooks-error)
(define-error 'gptel-rust-hooks-call-error "Malformed tool call"
  'gptel-rust-hooks-error)
(define-error 'gptel-rust-hooks-module-error "gptel-rust-hooks module unavailable"
  'gptel-rust-hooks-error)

(defconst gptel-rust-hooks--module-name "gptel-rust-hooks-module"
  "The module's feature name and file name without suffix.")

(defconst gptel-rust-hooks--package-directory
  (file-name-directory (or load-file-name buffer-file-name default-directory))
  "The directory this package was loaded from.
A constant, so that reloading the package from a new directory (an
upgrade) sets it again.")

(defconst gptel-rust-hooks--manifest-name "gptel-rust-hooks-modules.sha256"
  "The manifest of prebuilt modules, beside the package's Lisp.")

(defconst gptel-rust-hooks--minimum-rust '(1 88)
  "The oldest Rust (cargo) that builds the module.")

(defvar gptel-rust-hooks--loaded-module nil
  "The file the module was loaded from in this session, or nil.")

(defvar gptel-rust-hooks--build-id-memo nil
  "(ROOT . BUILD-ID) of the sources hashed last.")

(defvar gptel-rust-hooks--offer-timer nil
  "The idle timer that will offer to install the missing module, or nil.")

(defvar gptel-rust-hooks--reported nil
  "Error messages already reported in *Messages*.")

(defvar gptel-rust-hooks--record-function nil
  "Function called as (KIND INFO ANSWER) after each decision, or nil.
KIND is `pre' or `post'; the audit log sets this.  The module's record
of the decision is then in `gptel-rust-hooks--last-record'.")

(defvar gptel-rust-hooks--last-record nil
  "The module's record of the decision the hook made last, or nil.
A user-ptr that `gptel-rust-hooks--mod-record-data' reads; nil when the
call was not decided by the rules (an error, or a call that did not fit
its tool).  Set before `gptel-rust-hooks--record-function' runs.")

(defvar gptel-rust-hooks--last-by nil
  "The label of the rule that asked, denied or stopped the latest call, or nil.")

(defvar gptel-rust-hooks--policy nil
  "The compiled policy used for the latest call (a module user-ptr), or nil.")

(defvar gptel-rust-hooks--good-rules :none
  "The latest value of `gptel-rust-hooks-rules' that compiled, or :none.")

(defvar gptel-rust-hooks--checked-rules :none
  "The value of `gptel-rust-hooks-rules' checked last, compared with `eq'.")

(defvar gptel-rust-hooks--rules-error nil
  "The error of the rules checked last when no earlier rules compiled.")

(defvar gptel-rust-hooks--files (make-hash-table :test #'equal)
  "Policy files read so far: FILE -> its `gptel-rust-hooks--pfile'.")

(defvar gptel-rust-hooks--cache nil
  "Compiled policies, most recent first: a list of (KEY . POLICY).")

(defconst gptel-rust-hooks--cache-size 8
  "How many compiled policies `gptel-rust-hooks--cache' keeps.")

(defvar gptel-rust-hooks--broken nil
  "Why the policy cannot be had, a string, or nil: the lighter shows it.")

(defvar gptel-rust-hooks--prompt-rules :unread
  "The rules of `gptel-rust-hooks-prompt-rules-file', or :unread.")

(defvar gptel-rust-hooks--session-rules nil
  "Rules added for this Emacs session, e.g. by \"always allow\".")

(defvar-local gptel-rust-hooks--buffer-rules nil
  "Rules added for requests from this buffer, e.g. by \"always allow\".")

(defvar gptel-rust-hooks--project-lookup nil
  "The latest project file lookup: (DIRECTORY TIME FILE).")

(defconst gptel-rust-hooks--project-lookup-seconds 2
  "How long a project file lookup for a directory is reused, in whole seconds.
The clock is read in whole seconds (see `gptel-rust-hooks--seconds'), so
a lookup is reused for one to two seconds.  Calls come in bursts from
one directory, and each step of the walk up costs a file system call.")

(defvar gptel-rust-hooks--memo (make-hash-table :test #'equal)
  "The policy found for a call from each directory, to reuse for the next.
DIRECTORY -> its `gptel-rust-hooks--memo-entry', which says when the
policy may be reused: see `gptel-rust-hooks--current-policy'.")

;; Loaded again (an upgrade that reloads the package, from a new
;; directory): no policy the old code compiled is reused, so the next call
;; loads the module again, which refuses one of another version.
(clrhash gptel-rust-hooks--memo)

(defvar gptel-rust-hooks--last-schema nil
  "Why the latest decided call did not fit its tool's arguments, or nil.
A plist (:tool NAME :stage STAGE :problems PROBLEMS :rules RULES):
STAGE is `call' (the model's arguments, checked before any rule) or
`edit' (the arguments after RULES edited them); PROBLEMS is a list of
strings.  Set before `gptel-rust-hooks--record-function' runs.")

(defvar gptel-rust-hooks--schemas (make-hash-table :test #'eq :weakness 'key)
  "Tool -> (ARGS SCHEMA . COMPILED): the schema read from the tool's ARGS.
COMPILED is the module's form of SCHEMA, made on first use, or nil.")

(defvar gptel-rust-hooks--sandboxes-memo nil
  "(POLICY . SANDBOXES): whether the compiled POLICY has a `:sandbox' rule.")

;; Loaded again: the tools' compiled arguments, like the policies, are
;; the old module's.
(clrhash gptel-rust-hooks--schemas)

(defvar gptel-rust-hooks--decided (make-hash-table :test #'eq :weakness 'key)
  "Tool calls decided so far: gptel's tool-call plist -> its decision.
The decision is a `gptel-rust-hooks--decision'.  When gptel is about to
run the call with the name and arguments that were decided, it is not
decided again.")

(defvar gptel-rust-hooks--pre-tool-info nil
  "The request info of the state machine whose pre-tool hook runs, or nil.
Bound while `gptel--handle-pre-tool' runs, so that the pre-tool hook
function can tell which of gptel's tool calls it decided.")

(defvar gptel-rust-hooks--missing-internals nil
  "The gptel internals the guard needs that are missing, or nil.
Set when the mode turns on; see `gptel-rust-hooks--check-internals'.")

(defvar gptel-rust-hooks--internals-reported nil
  "Non-nil once missing gptel internals were reported.")

(defvar gptel-rust-hooks--sandboxed (make-hash-table :test #'eq :weakness 'key)
  "Argument lists of calls that run sandboxed -> their sandbox.
The sandbox is the plist `gptel-rust-hooks--mod-pre' gave:
`:values' holds each confined command argument, `:describe' the
confinement on one line, `:json' it as JSON text, `:rules' the rules
whose `:sandbox' applies.")

(defvar gptel-rust-hooks--last-sandbox nil
  "The sandbox of the call the pre-tool hook decided last, or nil.
Set before `gptel-rust-hooks--record-function' runs.")

(defvar gptel-rust-hooks--sandbox-showing nil
  "Non-nil while gptel shows tool calls rather than running them.
`gptel--map-tool-args' then gives the arguments as the model wrote
them: gptel's confirmation prompt shows the command that was decided.")

(defvar gptel-rust-hooks--sandbox-edits nil
  "Pending calls being run from gptel's inspect buffer, with their sandbox.
A list of (ENTRY . SANDBOX), ENTRY the (TOOL ARGS CALLBACK) list gptel
runs, whose ARGS your edit replaces.  See
`gptel-rust-hooks--sandbox-inspected'.")

;;;; Declarations for the byte compiler

(defvar gptel-pre-tool-call-functions)
(defvar gptel-post-tool-call-functions)
(declare-function gptel-tool-p "gptel-request" (object))
(declare-function gptel-tool-name "gptel-request" (tool))
(declare-function gptel-tool-args "gptel-request" (tool))
(declare-function gptel-get-tool "gptel-request" (path))
(declare-function gptel-fsm-info "gptel-request" (fsm))
(declare-function gptel-fsm-table "gptel-request" (fsm))
(declare-function gptel-fsm-handlers "gptel-request" (fsm))
(declare-function gptel--fsm-transition "gptel-request" (machine &optional new-state))
(declare-function gptel--process-tool-call "gptel-request" (fsm tool-spec tool-call result))
(declare-function gptel--inject-tool-call "gptel-request" (backend data tool-call new-call))
(declare-function gptel--to-string "gptel-request" (s))
(defvar gptel-request--handlers)
(defvar gptel-use-tools)
(defvar gptel-tools)
(defvar gptel--known-tools)
(declare-function gptel-rust-hooks--mod-version "ext:gptel-rust-hooks-module" ())
(declare-function gptel-rust-hooks--mod-build-id "ext:gptel-rust-hooks-module" ())
(defvar url-http-response-status)
(declare-function gptel-rust-hooks--mod-compile "ext:gptel-rust-hooks-module" (rules options))
(declare-function gptel-rust-hooks--mod-compile-layers "ext:gptel-rust-hooks-module" (layers options))
(declare-function gptel-rust-hooks--mod-notes "ext:gptel-rust-hooks-module" (policy))
(declare-function gptel-rust-hooks--mod-rule-count "ext:gptel-rust-hooks-module" (policy))
(declare-function gptel-rust-hooks--mod-pre "ext:gptel-rust-hooks-module"
                  (policy info cwd sandbox schema))
(declare-function gptel-rust-hooks--mod-schema "ext:gptel-rust-hooks-module" (args))
(declare-function gptel-rust-hooks--mod-record-data "ext:gptel-rust-hooks-module" (record))
(declare-function gptel-rust-hooks--mod-post "ext:gptel-rust-hooks-module" (policy info cwd))
(declare-function gptel-rust-hooks--mod-explain "ext:gptel-rust-hooks-module"
                  (policy info cwd sandbox))
(declare-function gptel-rust-hooks--mod-sandboxes "ext:gptel-rust-hooks-module" (policy))
(declare-function gptel-rust-hooks--mod-stamp "ext:gptel-rust-hooks-module" (files))
(declare-function custom-file "cus-edit" (&optional no-error))
(declare-function gptel-rust-hooks-ui--show-explanation "gptel-rust-hooks-ui"
                  (data call rules))
(declare-function gptel-rust-hooks-ui--read-call "gptel-rust-hooks-ui" ())
(declare-function gptel-rust-hooks-ui--enable "gptel-rust-hooks-ui" ())
(declare-function gptel-rust-hooks--preset-layer "gptel-rust-hooks-sources" (preset directory))
(declare-function gptel-rust-hooks--prompt-rules "gptel-rust-hooks-sources" ())
(declare-function gptel-rust-hooks--enabled "gptel-rust-hooks-sources" (rules))
(declare-function gptel-rust-hooks--check-regexps "gptel-rust-hooks-sources" (rules source))
(declare-function gptel-rust-hooks--json-rules "gptel-rust-hooks-sources" (text))
(declare-function gptel-rust-hooks--set-policy-files "gptel-rust-hooks-sources" (symbol value))
(declare-function gptel-rust-hooks "gptel-rust-hooks-menu" ())
(declare-function gptel-rust-hooks-ui--disable "gptel-rust-hooks-ui" ())

;;;; Module

;; Where the module lives.  Builds and downloads go into
;; `gptel-rust-hooks-module-store', outside every directory a package
;; manager replaces: modules/ holds one file per build, named by version
;; and build id, and target/ is cargo's build directory, shared by all
;; versions.  Every file is written under a new name and renamed into
;; place, so a module an Emacs has loaded is never written to.  A module
;; file carries the text "gptel-rust-hooks-module VERSION BUILD-ID\n",
;; read before it is loaded: a module of another version is never loaded.

(defun gptel-rust-hooks--module-loaded-p ()
  "Return non-nil when the module is loaded."
  (fboundp 'gptel-rust-hooks--mod-pre))

(defun gptel-rust-hooks--error-text (err)
  "Return the text of the error ERR, without the quotes of its data.
For the package's own errors that is the message they carry."
  (if (and (symbolp (car-safe err))
           (memq 'gptel-rust-hooks-error (get (car err) 'error-conditions))
           (stringp (cadr err)))
      (cadr err)
    (error-message-string err)))

(defun gptel-rust-hooks--source-root ()
  "Return the directory holding Cargo.toml for this package, or nil."
  (locate-dominating-file gptel-rust-hooks--package-directory "Cargo.toml"))

(defun gptel-rust-hooks--file-sha256-literal (file)
  "Return the SHA-256 of FILE's bytes."
  (with-temp-buffer
    (set-buffer-multibyte nil)
    (insert-file-contents-literally file)
    (secure-hash 'sha256 (current-buffer))))

(defun gptel-rust-hooks--sources-build-id (root)
  "Return the build id of the Rust sources in ROOT, as scripts/build-id.sh.
That is the first 16 hex digits of the SHA-256 of the lines
\"SHA256  PATH\" of Cargo.toml, Cargo.lock, build.rs and src/**/*.rs,
in bytewise order of their paths, each file read with its CR bytes
removed.  build.rs gives the module the same id."
  (let ((files (sort (append
                      (cl-remove-if-not
                       (lambda (f) (file-regular-p (expand-file-name f root)))
                       (list "Cargo.toml" "Cargo.lock" "build.rs"))
                      (mapcar (lambda (f) (file-relative-name f root))
                              (directory-files-recursively
                               (expand-file-name "src" root) "\\.rs\\'")))
                     #'string<)))
    (substring
     (secure-hash
      'sha256
      (mapconcat
       (lambda (f)
         (with-temp-buffer
           (set-buffer-multibyte nil)
           (insert-file-contents-literally (expand-file-name f root))
           (goto-char (point-min))
           (while (search-forward "\r" nil t) (replace-match "" t t))
           (concat (secure-hash 'sha256 (current-buffer)) "  " f "\n")))
       files ""))
     0 16)))

(defun gptel-rust-hooks--manifest ()
  "Return the shipped manifest as (:version V :build-id ID :entries ENTRIES).
ENTRIES are (SYSTEM SHA256 FILE), one per system with a prebuilt
module.  Return nil when the package has no manifest."
  (let ((file (expand-file-name gptel-rust-hooks--manifest-name
                                gptel-rust-hooks--package-directory))
        version id entries)
    (when (file-readable-p file)
      (with-temp-buffer
        (insert-file-contents file)
        (dolist (line (split-string (buffer-string) "\n" t "[ \t\r]+"))
          (cond ((string-match "\\`# version: *\\([^ ]+\\)\\'" line)
                 (setq version (match-string 1 line)))
                ((string-match "\\`# build-id: *\\([0-9a-f]+\\)\\'" line)
                 (setq id (match-string 1 line)))
                ((string-match "\\`\\([a-z0-9_]+-[a-z]+\\) +\\([0-9a-f]\\{64\\}\\) +\\([^ /\\\\]+\\)\\'"
                               line)
                 (push (list (match-string 1 line) (match-string 2 line)
                             (match-string 3 line))
                       entries)))))
      (list :version version :build-id id :entries (nreverse entries)))))

(defun gptel-rust-hooks--system ()
  "Return this Emacs's system as the manifest names it, such as x86_64-linux.
Return nil on a system with no prebuilt modules."
  (let ((arch (car (split-string system-configuration "-")))
        (os (pcase system-type
              ('gnu/linux "linux")
              ('darwin "darwin")
              ((or 'windows-nt 'cygwin) "windows"))))
    (and os (concat (if (member arch '("arm64" "aarch64")) "aarch64" arch) "-" os))))

(defun gptel-rust-hooks--version-on-disk ()
  "Return the version the package's file on disk defines, or nil.
That is the value its `gptel-rust-hooks-version' gets (package-build
rewrites the Version: header of a MELPA package).  After an upgrade
in place that this Emacs has not reloaded (package-vc pulls into the
same directory and keeps the old Lisp running) it is the new version,
while `gptel-rust-hooks-version' is the old one."
  (let ((file (expand-file-name "gptel-rust-hooks.el" gptel-rust-hooks--package-directory)))
    (when (file-readable-p file)
      (with-temp-buffer
        (insert-file-contents file nil 0 16384)
        (and (re-search-forward "^(defconst gptel-rust-hooks-version \"\\([0-9][0-9.]*\\)\"" nil t)
             (match-string 1))))))

(defun gptel-rust-hooks--installable-versions ()
  "Return the versions whose modules may be installed.
They are this one and the one on disk."
  (delete-dups (delq nil (list gptel-rust-hooks-version
                               (gptel-rust-hooks--version-on-disk)))))

(defun gptel-rust-hooks--manifest-entry (&optional manifest)
  "Return MANIFEST's (SYSTEM SHA256 FILE) for this system and version, or nil.
MANIFEST defaults to the shipped one.  Its version must be this one, or
the one on disk after an upgrade in place (whose manifest it is)."
  (let ((manifest (or manifest (gptel-rust-hooks--manifest)))
        (system (gptel-rust-hooks--system)))
    (and system
         (member (plist-get manifest :version) (gptel-rust-hooks--installable-versions))
         (assoc system (plist-get manifest :entries)))))

(defun gptel-rust-hooks--expected-build-id ()
  "Return the build id the module should have, or nil when unknown.
It is that of the Rust sources beside the package, else the manifest's."
  (let ((root (gptel-rust-hooks--source-root)))
    (if (not root)
        (let ((manifest (gptel-rust-hooks--manifest)))
          (and (equal (plist-get manifest :version) gptel-rust-hooks-version)
               (plist-get manifest :build-id)))
      (setq root (expand-file-name root))
      (if (equal (car gptel-rust-hooks--build-id-memo) root)
          (cdr gptel-rust-hooks--build-id-memo)
        (let ((id (ignore-errors (gptel-rust-hooks--sources-build-id root))))
          (setq gptel-rust-hooks--build-id-memo (cons root id))
          id)))))

(defun gptel-rust-hooks--modules-directory ()
  "Return the store's directory of modules."
  (expand-file-name "modules/" gptel-rust-hooks-module-store))

(defun gptel-rust-hooks--store-file (build-id &optional version)
  "Return the file in the store for the module of BUILD-ID and VERSION.
VERSION defaults to this one."
  (expand-file-name (format "%s-%s-%s%s" gptel-rust-hooks--module-name
                            (or version gptel-rust-hooks-version) build-id
                            (or module-file-suffix ".so"))
                    (gptel-rust-hooks--modules-directory)))

(defun gptel-rust-hooks--module-mark (file)
  "Return (VERSION BUILD-ID) that the module FILE carries, or nil.
Modules before 0.2.0 carry none."
  (with-temp-buffer
    (set-buffer-multibyte nil)
    (insert-file-contents-literally file)
    (goto-char (point-min))
    (let (found)
      (while (and (not found) (search-forward "gptel-rust-hooks-module " nil t))
        (when (looking-at "\\([0-9][0-9.]*\\) \\([0-9a-f]\\{16\\}\\)\n")
          (setq found (list (match-string 1) (match-string 2)))))
      found)))

(defun gptel-rust-hooks--cargo-file-name ()
  "Return the name of the library cargo builds."
  (concat (if (eq system-type 'windows-nt) "" "lib") "gptel_rust_hooks"
          (or module-file-suffix ".so")))

(defun gptel-rust-hooks--own-candidates ()
  "Return the files in `gptel-rust-hooks-module-directory', or nil."
  (when gptel-rust-hooks-module-directory
    (list (expand-file-name (concat gptel-rust-hooks--module-name
                                    (or module-file-suffix ".so"))
                            gptel-rust-hooks-module-directory)
          (expand-file-name (gptel-rust-hooks--cargo-file-name)
                            gptel-rust-hooks-module-directory))))

(defun gptel-rust-hooks--module-candidates ()
  "Return the files the module may be loaded from, best first.
They are the files of `gptel-rust-hooks-module-directory', the store's
module of the expected build id, the copy `make' leaves beside the
package, the checkout's target/release/, then the store's other modules
of this version, newest first."
  (let* ((root (gptel-rust-hooks--source-root))
         (id (gptel-rust-hooks--expected-build-id))
         (dir (gptel-rust-hooks--modules-directory))
         (others (and (file-directory-p dir)
                      (sort (directory-files
                             dir t (concat "\\`" (regexp-quote gptel-rust-hooks--module-name)
                                           "-" (regexp-quote gptel-rust-hooks-version)
                                           "-[0-9a-f]\\{16\\}"
                                           (regexp-quote (or module-file-suffix ".so"))
                                           "\\'"))
                            #'file-newer-than-file-p))))
    (cl-remove-duplicates
     (delq nil
           (append (gptel-rust-hooks--own-candidates)
                   (list (and id (gptel-rust-hooks--store-file id))
                         (expand-file-name (concat gptel-rust-hooks--module-name
                                                   (or module-file-suffix ".so"))
                                           gptel-rust-hooks--package-directory)
                         (and root (expand-file-name
                                    (concat "target/release/" (gptel-rust-hooks--cargo-file-name))
                                    root)))
                   others))
     :test #'equal :from-end t)))

(defun gptel-rust-hooks--find-module ()
  "Return the module file to load, or nil when there is none.
A file of `gptel-rust-hooks-module-directory' is taken when it carries
this version.  Of the others, the first that carries this version and
the expected build id, else the first that carries this version (its
build id is reported once it is loaded).  A file of another version, or
one without the mark of a version (before 0.2.0), is never loaded; one
in `gptel-rust-hooks-module-directory' is reported."
  (let ((id (gptel-rust-hooks--expected-build-id))
        (own (gptel-rust-hooks--own-candidates))
        found fallback refused)
    (dolist (file (gptel-rust-hooks--module-candidates))
      (when (and (not found) (file-exists-p file))
        (let ((mark (ignore-errors (gptel-rust-hooks--module-mark file))))
          (cond ((not (equal (car mark) gptel-rust-hooks-version))
                 (when (member file own)
                   (push (format "%s is %s, not %s" (abbreviate-file-name file)
                                 (if mark
                                     (format "the module of gptel-rust-hooks %s" (car mark))
                                   "a module of gptel-rust-hooks before 0.2.0")
                                 gptel-rust-hooks-version)
                         refused)))
                ((or (member file own) (null id) (equal (cadr mark) id))
                 (setq found file))
                ((null fallback) (setq fallback file))))))
    (when refused
      (let ((text (format "%s; build this version there, or set `gptel-rust-hooks-module-directory' to nil"
                          (string-join (nreverse refused) "; "))))
        (if (or found fallback)
            (gptel-rust-hooks--report (concat "gptel-rust-hooks: " text))
          (signal 'gptel-rust-hooks-module-error (list text)))))
    (or found fallback)))

(defun gptel-rust-hooks--what-to-run ()
  "Return what the user can run to get a module, as a string."
  (let ((entry (ignore-errors (gptel-rust-hooks--manifest-entry)))
        (root (gptel-rust-hooks--source-root)))
    (string-join
     (delq nil
           (list (and entry (format "M-x gptel-rust-hooks-download-module (a prebuilt module for %s)"
                                    (car entry)))
                 (and root (format "M-x gptel-rust-hooks-build-module (needs cargo, Rust %d.%d+)"
                                   (car gptel-rust-hooks--minimum-rust)
                                   (cadr gptel-rust-hooks--minimum-rust)))
                 ;; In a clone; a package manager's copy builds in the store.
                 (and root (file-exists-p (expand-file-name "Makefile" root))
                      (not (and (bound-and-true-p package-user-dir)
                                (file-in-directory-p root package-user-dir)))
                      (format "`make' in %s" (abbreviate-file-name root)))
                 (and (not entry) (not root)
                      "nothing here: install the package with its Rust sources, or set \
`gptel-rust-hooks-module-directory' to where your module is")))
     ", or ")))

(defun gptel-rust-hooks--no-module-message ()
  "Say that there is no module, where it was looked for and what to run."
  (format "no module for gptel-rust-hooks %s (build %s) in %s; run %s"
          gptel-rust-hooks-version
          (or (gptel-rust-hooks--expected-build-id) "unknown")
          (mapconcat #'abbreviate-file-name (gptel-rust-hooks--module-candidates) ", ")
          (gptel-rust-hooks--what-to-run)))

(defun gptel-rust-hooks--check-build-id ()
  "Report the loaded module if it was built from other sources than those beside."
  (let ((id (and (fboundp 'gptel-rust-hooks--mod-build-id)
                 (gptel-rust-hooks--mod-build-id)))
        (want (gptel-rust-hooks--expected-build-id)))
    (when (and want (not (equal id want)))
      (gptel-rust-hooks--report
       (format "gptel-rust-hooks: the module loaded from %s was built from other sources \
(build %s) than those beside the package (build %s); run M-x gptel-rust-hooks-build-module, \
then restart Emacs"
               (abbreviate-file-name (or gptel-rust-hooks--loaded-module "the module"))
               (or id "unknown") want)))))

(defun gptel-rust-hooks--load-module ()
  "Load the module unless it is loaded; signal a clear error when impossible."
  (unless (gptel-rust-hooks--module-loaded-p)
    (unless (and (fboundp 'module-load) module-file-suffix)
      (signal 'gptel-rust-hooks-module-error
              (list "this Emacs was built without dynamic module support (configure --with-modules)")))
    (setq gptel-rust-hooks--build-id-memo nil)
    (let ((file (gptel-rust-hooks--find-module)))
      (unless file
        (signal 'gptel-rust-hooks-module-error (list (gptel-rust-hooks--no-module-message))))
      (module-load file)
      (setq gptel-rust-hooks--loaded-module (expand-file-name file))
      (gptel-rust-hooks--check-build-id)
      (gptel-rust-hooks--clean-store)))
  (let ((version (gptel-rust-hooks--mod-version)))
    (unless (equal version gptel-rust-hooks-version)
      (signal 'gptel-rust-hooks-module-error
              (list (format "the module loaded from %s is version %s but the package is %s; \
restart Emacs (a loaded module cannot be unloaded), then run %s if it is still missing"
                            (abbreviate-file-name (or gptel-rust-hooks--loaded-module "the module"))
                            version gptel-rust-hooks-version
                            (gptel-rust-hooks--what-to-run)))))))

;;;;; Installing into the store

(defun gptel-rust-hooks--clean-store (&rest keep)
  "Delete the store's modules but the expected one, the loaded one and KEEP.
The expected one is that of this version and, after an upgrade in place
not yet reloaded, that of the version on disk.  A module that another
Emacs has loaded stays mapped in it; on Windows, where it cannot be
deleted, it is tried again next time.  Unfinished copies more than a
day old go too."
  (let* ((dir (gptel-rust-hooks--modules-directory))
         (id (gptel-rust-hooks--expected-build-id))
         (keep (mapcar #'expand-file-name
                       (delq nil (append (and id (mapcar (lambda (v) (gptel-rust-hooks--store-file id v))
                                                         (gptel-rust-hooks--installable-versions)))
                                         (list gptel-rust-hooks--loaded-module)
                                         keep)))))
    (when (file-directory-p dir)
      (dolist (file (directory-files dir t (concat "\\`" (regexp-quote gptel-rust-hooks--module-name))))
        (unless (member file keep)
          (ignore-errors (delete-file file))))
      (dolist (file (directory-files dir t "\\`\\.new-"))
        (when (time-less-p (time-add (file-attribute-modification-time (file-attributes file))
                                     86400)
                           nil)
          (ignore-errors (delete-file file)))))))

(defun gptel-rust-hooks--install-module (file)
  "Install the module FILE in the store under its version and build id.
FILE is copied to a new name in the store and renamed into place, so a
file an Emacs has loaded is never written to.  Load it when no module
is loaded; else say that Emacs must restart to use it.  FILE may also
be the module of the version on disk after an upgrade in place that
this Emacs has not reloaded: it is installed for the next start.
Return the file installed."
  (let* ((mark (or (gptel-rust-hooks--module-mark file)
                   (user-error "%s carries no version mark: it is not a module of gptel-rust-hooks %s"
                               (abbreviate-file-name file) gptel-rust-hooks-version)))
         (_ (unless (member (car mark) (gptel-rust-hooks--installable-versions))
              (user-error "%s is the module of gptel-rust-hooks %s, not %s"
                          (abbreviate-file-name file) (car mark)
                          (string-join (gptel-rust-hooks--installable-versions) " or "))))
         (dest (gptel-rust-hooks--store-file (cadr mark) (car mark)))
         (dir (file-name-directory dest)))
    (make-directory dir t)
    (unless (file-exists-p dest)
      (let ((tmp (make-temp-file (expand-file-name ".new-" dir) nil
                                 (or module-file-suffix ".so"))))
        (unwind-protect
            (progn
              (copy-file file tmp t)
              (set-file-modes tmp #o755)
              (condition-case nil
                  (rename-file tmp dest)
                ;; Another Emacs installed the same build meanwhile.
                (file-already-exists nil)))
          (when (file-exists-p tmp) (ignore-errors (delete-file tmp))))))
    (cond ((not (equal (car mark) gptel-rust-hooks-version))
           (message "gptel-rust-hooks: installed %s for gptel-rust-hooks %s, the version now on disk; \
restart Emacs to use it (this session runs %s)"
                    (abbreviate-file-name dest) (car mark) gptel-rust-hooks-version))
          ((not (gptel-rust-hooks--module-loaded-p))
           (gptel-rust-hooks--load-module)
           (message "gptel-rust-hooks: installed and loaded %s" (abbreviate-file-name dest)))
          ((equal (expand-file-name dest) gptel-rust-hooks--loaded-module)
           (message "gptel-rust-hooks: %s is the module loaded now" (abbreviate-file-name dest)))
          (t
           (message "gptel-rust-hooks: installed %s; restart Emacs to use it \
(the module loaded from %s cannot be unloaded)"
                    (abbreviate-file-name dest)
                    (abbreviate-file-name (or gptel-rust-hooks--loaded-module "elsewhere")))))
    (gptel-rust-hooks--clean-store dest)
    dest))

;;;;; Building

(defun gptel-rust-hooks--cargo ()
  "Return the cargo program to build with, or nil.
That is `gptel-rust-hooks-cargo-program', else cargo on the variable
`exec-path', in $CARGO_HOME/bin or in ~/.cargo/bin (where rustup puts
it, often not on the path of an Emacs started from a desktop menu)."
  (let ((exe (if (memq system-type '(windows-nt ms-dos)) "cargo.exe" "cargo")))
    (or (and gptel-rust-hooks-cargo-program
             (or (executable-find gptel-rust-hooks-cargo-program)
                 (let ((file (expand-file-name gptel-rust-hooks-cargo-program)))
                   (and (file-executable-p file) file))))
        (executable-find "cargo")
        (cl-loop for dir in (list (let ((home (getenv "CARGO_HOME")))
                                    (and home (not (string-empty-p home))
                                         (expand-file-name "bin" home)))
                                  (expand-file-name "~/.cargo/bin"))
                 for file = (and dir (expand-file-name exe dir))
                 when (and file (file-executable-p file)) return file))))

(defun gptel-rust-hooks--cargo-version (cargo)
  "Return CARGO's version as (MAJOR MINOR), or nil."
  (with-temp-buffer
    (when (eq 0 (ignore-errors (call-process cargo nil t nil "--version")))
      (goto-char (point-min))
      (when (re-search-forward "cargo \\([0-9]+\\)\\.\\([0-9]+\\)" nil t)
        (list (string-to-number (match-string 1)) (string-to-number (match-string 2)))))))

(defun gptel-rust-hooks--build-finished (built status)
  "Install BUILT if the build finished with STATUS \"finished\"."
  (if (not (string-prefix-p "finished" status))
      (message "gptel-rust-hooks: cargo build failed: %s (see *gptel-rust-hooks-build*)"
               (string-trim status))
    (condition-case err
        (gptel-rust-hooks--install-module built)
      (error (message "gptel-rust-hooks: %s" (gptel-rust-hooks--error-text err))))))

;;;###autoload
(defun gptel-rust-hooks-build-module ()
  "Build the module with cargo in a compilation buffer, then install it.
cargo builds in `gptel-rust-hooks-module-store' (target/), and the module
is installed there under its version and build id.  It is loaded unless
a module is loaded already; then restart Emacs to use it.  Return the
compilation buffer."
  (interactive)
  (let* ((root (or (gptel-rust-hooks--source-root)
                   (user-error "No Cargo.toml found above %s: install the package with its Rust sources, \
or run M-x gptel-rust-hooks-download-module"
                               gptel-rust-hooks--package-directory)))
         (cargo (or (gptel-rust-hooks--cargo)
                    (user-error "Cargo is not installed (looked on exec-path, in $CARGO_HOME/bin and ~/.cargo/bin): \
get it from https://rustup.rs or set gptel-rust-hooks-cargo-program, then run this again")))
         (version (gptel-rust-hooks--cargo-version cargo))
         (target (expand-file-name "target/" gptel-rust-hooks-module-store))
         (built (expand-file-name (concat "release/" (gptel-rust-hooks--cargo-file-name)) target)))
    (when (and version (version-list-< version gptel-rust-hooks--minimum-rust))
      (user-error "%s is cargo %d.%d; the module needs Rust %d.%d or newer (rustup update)"
                  cargo (car version) (cadr version)
                  (car gptel-rust-hooks--minimum-rust) (cadr gptel-rust-hooks--minimum-rust)))
    (setq gptel-rust-hooks--build-id-memo nil)
    (make-directory target t)
    (let* ((default-directory (file-name-as-directory (expand-file-name root)))
           (process-environment
            (append (list (concat "CARGO_TARGET_DIR=" (directory-file-name target))
                          ;; rustc beside cargo, when cargo is off PATH.
                          (concat "PATH=" (directory-file-name (file-name-directory cargo))
                                  path-separator (or (getenv "PATH") "")))
                    process-environment))
           (buffer (compilation-start
                    (concat (shell-quote-argument cargo) " build --release --locked")
                    t (lambda (_) "*gptel-rust-hooks-build*"))))
      (with-current-buffer buffer
        (add-hook 'compilation-finish-functions
                  (lambda (_buffer status) (gptel-rust-hooks--build-finished built status))
                  nil t))
      buffer)))

;;;;; Downloading

(defun gptel-rust-hooks--fetch (url file)
  "Write what URL holds into FILE; signal a `user-error' unless it is there."
  (require 'url)
  (let ((buffer (condition-case err
                    (url-retrieve-synchronously url t t 120)
                  (error (user-error "Could not download %s: %s" url
                                     (error-message-string err))))))
    (unless buffer (user-error "Could not download %s" url))
    (unwind-protect
        (with-current-buffer buffer
          (set-buffer-multibyte nil)
          (goto-char (point-min))
          (let ((coding-system-for-write 'binary))
            (if (not (string-match-p "\\`https?:" url))
                (write-region (point-min) (point-max) file nil 'silent)
              (let ((status (bound-and-true-p url-http-response-status)))
                (unless (eql status 200)
                  (user-error "Could not download %s: HTTP status %s" url (or status "unknown"))))
              (unless (re-search-forward "\r?\n\r?\n" nil t)
                (user-error "Could not download %s: no body" url))
              (write-region (point) (point-max) file nil 'silent))))
      (kill-buffer buffer))))

;;;###autoload
(defun gptel-rust-hooks-download-module ()
  "Download the prebuilt module for this system, check its SHA-256, install it.
The file comes from `gptel-rust-hooks-module-url'.  It must have the
SHA-256 that the manifest shipped with the package gives for this
system and version, or it is refused.  It is installed in
`gptel-rust-hooks-module-store' and loaded unless a module is loaded
already; then restart Emacs to use it."
  (interactive)
  (let* ((manifest (or (gptel-rust-hooks--manifest)
                       (user-error "No %s beside the package: build the module (M-x gptel-rust-hooks-build-module)"
                                   gptel-rust-hooks--manifest-name)))
         (system (or (gptel-rust-hooks--system)
                     (user-error "No prebuilt modules for %s: build the module (M-x gptel-rust-hooks-build-module)"
                                 system-configuration)))
         (entry (or (gptel-rust-hooks--manifest-entry manifest)
                    (user-error "No prebuilt module for %s in gptel-rust-hooks %s%s: build it (M-x gptel-rust-hooks-build-module)"
                                system gptel-rust-hooks-version
                                (if (equal (plist-get manifest :version) gptel-rust-hooks-version)
                                    (format " (there are: %s)"
                                            (if (plist-get manifest :entries)
                                                (mapconcat #'car (plist-get manifest :entries) ", ")
                                              "none"))
                                  (format " (the manifest lists version %s)"
                                          (plist-get manifest :version))))))
         (_ (setq gptel-rust-hooks--build-id-memo nil))
         (url (format-spec gptel-rust-hooks-module-url
                           `((?v . ,(plist-get manifest :version)) (?s . ,system)
                             (?f . ,(nth 2 entry)))))
         (dir (gptel-rust-hooks--modules-directory))
         (tmp (progn (make-directory dir t)
                     (make-temp-file (expand-file-name ".new-" dir) nil
                                     (or module-file-suffix ".so")))))
    (unwind-protect
        (progn
          (message "gptel-rust-hooks: downloading %s..." url)
          (gptel-rust-hooks--fetch url tmp)
          (let ((sum (gptel-rust-hooks--file-sha256-literal tmp)))
            (unless (equal sum (nth 1 entry))
              (user-error "Refused %s: its SHA-256 is %s, the manifest shipped with the package says %s"
                          url sum (nth 1 entry))))
          (gptel-rust-hooks--install-module tmp))
      (ignore-errors (delete-file tmp)))))

;;;;; First use

(defun gptel-rust-hooks--offer-module ()
  "Offer to download or build the missing module.
What it does is `gptel-rust-hooks-module-install'; with `ask' and no user
to ask (batch), nothing: the warning said what to run."
  (setq gptel-rust-hooks--offer-timer nil)
  (unless (gptel-rust-hooks--module-loaded-p)
    (let* ((entry (ignore-errors (gptel-rust-hooks--manifest-entry)))
           (cargo (and (gptel-rust-hooks--source-root) (gptel-rust-hooks--cargo)))
           (choice
            (pcase gptel-rust-hooks-module-install
              ('download (cond (entry ?d) (cargo ?b)))
              ('build (and cargo ?b))
              ('ask
               (and (not noninteractive)
                    (or entry cargo)
                    (car (read-multiple-choice
                          "gptel-rust-hooks has no module; until it has one, every tool call is blocked"
                          (append
                           (and entry
                                `((?d "download"
                                      ,(format "the prebuilt module for %s, checked against the SHA-256 shipped with the package"
                                               (car entry)))))
                           (and cargo '((?b "build" "cargo build --release, 1 to 5 minutes")))
                           '((?n "not now" "later: M-x gptel-rust-hooks-download-module or -build-module"))))))))))
      (pcase choice
        (?d (condition-case err
                (gptel-rust-hooks-download-module)
              (error (message "gptel-rust-hooks: %s" (gptel-rust-hooks--error-text err))
                     (when cargo (gptel-rust-hooks-build-module)))))
        (?b (gptel-rust-hooks-build-module))))))

(defun gptel-rust-hooks--offer-module-later ()
  "Run `gptel-rust-hooks--offer-module' once Emacs waits for the user.
During startup that is after the init files; in a daemon, when its
first frame is made.  In batch it runs at once."
  (cond (noninteractive
         (condition-case err
             (gptel-rust-hooks--offer-module)
           (error (message "gptel-rust-hooks: %s" (gptel-rust-hooks--error-text err)))))
        ((and (daemonp) (equal (terminal-name) "initial_terminal"))
         (add-hook 'server-after-make-frame-hook #'gptel-rust-hooks--offer-module-in-frame))
        (t
         (when (timerp gptel-rust-hooks--offer-timer)
           (cancel-timer gptel-rust-hooks--offer-timer))
         (setq gptel-rust-hooks--offer-timer
               (run-with-idle-timer 0 nil #'gptel-rust-hooks--offer-module)))))

(defun gptel-rust-hooks--offer-module-in-frame ()
  "Offer the missing module in the daemon's first frame, once."
  (remove-hook 'server-after-make-frame-hook #'gptel-rust-hooks--offer-module-in-frame)
  (gptel-rust-hooks--offer-module-later))

;;;; Policy

(defun gptel-rust-hooks--set-rules (symbol value)
  "Set SYMBOL to the rules VALUE after checking that they compile.
A bad rule signals `gptel-rust-hooks-rule-error' and changes nothing."
  (when (gptel-rust-hooks--module-loaded-p)
    (gptel-rust-hooks--compile value)
    (gptel-rust-hooks--check-regexps value "gptel-rust-hooks-rules")
    (setq gptel-rust-hooks--good-rules value
          gptel-rust-hooks--checked-rules value
          gptel-rust-hooks--rules-error nil))
  (set-default symbol value))

(defun gptel-rust-hooks--options ()
  "Return the compile options plist from the user options."
  (list :path-keys gptel-rust-hooks-path-keys
        :command-keys gptel-rust-hooks-command-keys
        :default-decision gptel-rust-hooks-default-decision
        :unsure-decision gptel-rust-hooks-unsure-decision
        :case-fold gptel-rust-hooks-case-fold
        :redact-secrets gptel-rust-hooks-redact-secrets
        :home (expand-file-name "~")))

;; A policy is compiled from layers, in order: the user's rules, the
;; session's and the buffer's added rules, the user's policy files, and the
;; project's file.  Each distinct combination is compiled once and cached.

(defun gptel-rust-hooks--compile (rules)
  "Compile RULES with the current options; signal on a bad rule.
Rules marked `:disabled' are left out."
  (gptel-rust-hooks--load-module)
  (gptel-rust-hooks--mod-compile (gptel-rust-hooks--enabled rules)
                                 (gptel-rust-hooks--options)))

(defun gptel-rust-hooks--user-rules ()
  "Return the user's rules in force: the latest that compiled.
Rules that do not compile are reported once; with no earlier rules
that compiled, their error is signaled on every call."
  (unless (eq gptel-rust-hooks-rules gptel-rust-hooks--checked-rules)
    (setq gptel-rust-hooks--checked-rules gptel-rust-hooks-rules)
    (condition-case err
        (progn (gptel-rust-hooks--compile gptel-rust-hooks-rules)
               (gptel-rust-hooks--check-regexps gptel-rust-hooks-rules
                                                "gptel-rust-hooks-rules")
               (setq gptel-rust-hooks--good-rules gptel-rust-hooks-rules
                     gptel-rust-hooks--rules-error nil))
      (gptel-rust-hooks-rule-error
       (setq gptel-rust-hooks--rules-error err)
       (when (listp gptel-rust-hooks--good-rules)
         (gptel-rust-hooks--report
          (format "gptel-rust-hooks: the new rules do not compile, the previous ones stay in force: %s"
                  (cadr err)))))))
  (if (listp gptel-rust-hooks--good-rules)
      gptel-rust-hooks--good-rules
    (signal (car gptel-rust-hooks--rules-error) (cdr gptel-rust-hooks--rules-error))))

;; A policy file is read again when its modification time, size or inode
;; changes.  Its text is checked to compile on its own, once per text and
;; trust level; a text that does not compile leaves the last text that did
;; in force, and says so once.

(cl-defstruct (gptel-rust-hooks--pfile (:constructor gptel-rust-hooks--pfile-create)
                                       (:copier nil))
  "A policy file as last read."
  (stamp nil :documentation "(MTIME SIZE INODE) when read, or nil when missing")
  (text nil :documentation "Its text, decoded as UTF-8, or nil")
  (sha256 nil :documentation "The SHA-256 of its bytes, or nil")
  (error nil :documentation "Why it could not be read, or nil")
  (checked nil :documentation "Alist TRUSTED -> (TEXT ERROR GOOD-TEXT GOOD-SHA256)"))

(defun gptel-rust-hooks--file-stamp (file)
  "Return what tells whether FILE changed: (MTIME SIZE INODE), or nil."
  (when-let* ((attrs (file-attributes file)))
    (list (file-attribute-modification-time attrs)
          (file-attribute-size attrs)
          (file-attribute-inode-number attrs))))

(defun gptel-rust-hooks--read-policy-file (file)
  "Return the `gptel-rust-hooks--pfile' of FILE, read again if it changed."
  (let ((stamp (gptel-rust-hooks--file-stamp file))
        (entry (gethash file gptel-rust-hooks--files)))
    (unless (and entry (equal stamp (gptel-rust-hooks--pfile-stamp entry))
                 (or stamp (gptel-rust-hooks--pfile-error entry)))
      (unless entry
        (setq entry (gptel-rust-hooks--pfile-create))
        (puthash file entry gptel-rust-hooks--files))
      (setf (gptel-rust-hooks--pfile-stamp entry) stamp
            (gptel-rust-hooks--pfile-text entry) nil
            (gptel-rust-hooks--pfile-sha256 entry) nil
            (gptel-rust-hooks--pfile-error entry) nil)
      (if (not stamp)
          (setf (gptel-rust-hooks--pfile-error entry)
                (format "policy file %s is missing" file))
        (condition-case err
            (with-temp-buffer
              (set-buffer-multibyte nil)
              (insert-file-contents-literally file)
              (setf (gptel-rust-hooks--pfile-sha256 entry)
                    (secure-hash 'sha256 (current-buffer))
                    (gptel-rust-hooks--pfile-text entry)
                    (decode-coding-string (buffer-string) 'utf-8 t)))
          (error
           (setf (gptel-rust-hooks--pfile-error entry)
                 (format "cannot read policy file %s: %s"
                         file (error-message-string err)))))))
    entry))

(defun gptel-rust-hooks--file-sha256 (file)
  "Return the SHA-256 of FILE's current bytes, or nil when it cannot be read."
  (gptel-rust-hooks--pfile-sha256 (gptel-rust-hooks--read-policy-file file)))

(defun gptel-rust-hooks--file-good-text (file trusted)
  "Return the text of policy FILE to compile, TRUSTED or not, or nil.
That is its current text when it compiles, else the last one that did.
A text that does not compile is reported once."
  (let* ((entry (gptel-rust-hooks--read-policy-file file))
         (text (gptel-rust-hooks--pfile-text entry))
         (slot (assq trusted (gptel-rust-hooks--pfile-checked entry)))
         (state (or (cdr slot) (list nil nil nil nil))))
    (unless slot
      (push (cons trusted state) (gptel-rust-hooks--pfile-checked entry)))
    (unless (and text (eq text (nth 0 state)))
      (let ((error (or (gptel-rust-hooks--pfile-error entry)
                       (condition-case err
                           (progn
                             (gptel-rust-hooks--mod-compile-layers
                              (list (list :source file :trusted trusted :json text))
                              (gptel-rust-hooks--options))
                             nil)
                         (gptel-rust-hooks-rule-error (cadr err))))))
        (setf (nth 0 state) text)
        (unless (equal error (nth 1 state))
          (when (nth 1 state)
            ;; A fixed file may break again the same way: say so again then.
            (setq gptel-rust-hooks--reported
                  (delete (gptel-rust-hooks--file-message (nth 1 state) (nth 2 state))
                          gptel-rust-hooks--reported)))
          (setf (nth 1 state) error)
          (when error
            (gptel-rust-hooks--report
             (gptel-rust-hooks--file-message error (nth 2 state)))))
        (unless error
          (gptel-rust-hooks--check-regexps (gptel-rust-hooks--json-rules text) file)
          (setf (nth 2 state) text
                (nth 3 state) (gptel-rust-hooks--pfile-sha256 entry)))))
    (nth 2 state)))

(defun gptel-rust-hooks--file-message (error good)
  "Return the report of a policy file's ERROR; GOOD is its last good text."
  (format "gptel-rust-hooks: %s%s" error
          (if good "; its last rules that compiled stay in force" "")))

(defun gptel-rust-hooks--file-layer (file trusted required)
  "Return the layer of policy FILE, TRUSTED or not, or nil.
When the file never compiled, signal if REQUIRED, else return nil."
  (let ((text (gptel-rust-hooks--file-good-text file trusted)))
    (cond (text (list :source file :trusted trusted :json text))
          (required
           (let ((state (cdr (assq trusted (gptel-rust-hooks--pfile-checked
                                            (gethash file gptel-rust-hooks--files))))))
             (setq gptel-rust-hooks--broken (nth 1 state))
             (signal 'gptel-rust-hooks-rule-error
                     (list (concat "gptel-rust-hooks: " (nth 1 state)))))))))

(defsubst gptel-rust-hooks--seconds ()
  "Return the current time in whole seconds since the epoch.
Read on every call: `float-time' would allocate a float (what a call
allocates, the garbage collector pays for later); this allocates nothing."
  (time-convert nil 'integer))

(defun gptel-rust-hooks--project-file (directory)
  "Return the project policy file that applies to DIRECTORY, or nil.
The latest lookup is reused for one to two seconds; see
`gptel-rust-hooks--find-project-file'."
  (let ((last gptel-rust-hooks--project-lookup)
        (now (gptel-rust-hooks--seconds)))
    (if (and last (equal (car last) directory)
             (< (- now (nth 1 last)) gptel-rust-hooks--project-lookup-seconds))
        (nth 2 last)
      (let ((file (gptel-rust-hooks--find-project-file directory)))
        (setq gptel-rust-hooks--project-lookup (list directory now file))
        file))))

(defun gptel-rust-hooks--find-project-file (directory)
  "Return the project policy file that applies to DIRECTORY, or nil.
It is found by walking up from DIRECTORY, as `locate-dominating-file'
does but without its cost on every call; remote directories have none."
  (when (and (stringp directory) (not (file-remote-p directory)))
    (let ((dir (file-name-as-directory (expand-file-name directory)))
          (found nil)
          ;; A local directory: no file name handler applies, and each
          ;; would cost a regexp search per step.
          (file-name-handler-alist nil))
      (while (and dir (not found)
                  (not (string-match-p locate-dominating-stop-dir-regexp dir)))
        (let ((file (concat dir gptel-rust-hooks-project-file))
              (parent (file-name-directory (directory-file-name dir))))
          (if (file-regular-p file)
              (setq found file)
            (setq dir (and parent (not (equal parent dir)) parent)))))
      found)))

(defun gptel-rust-hooks-project-trusted-p (file)
  "Return non-nil when the project policy FILE is trusted.
It is when its directory lies in `gptel-rust-hooks-trusted-directories',
or when it is in `gptel-rust-hooks-trusted-project-files' with the
SHA-256 of its current bytes."
  (let* ((file (expand-file-name file))
         (root (file-name-directory file)))
    (or (cl-some (lambda (dir) (file-in-directory-p root dir))
                 gptel-rust-hooks-trusted-directories)
        (when-let* ((want (cdr (assoc file gptel-rust-hooks-trusted-project-files)))
                    ((stringp want))
                    (have (gptel-rust-hooks--file-sha256 file)))
          (string= (downcase want) have)))))

(defun gptel-rust-hooks--project-layer (file)
  "Return the layer of the project policy FILE, or nil.
A file trusted by its SHA-256 is untrusted once it changes; if the
changed file does not compile, the text the user trusted stays."
  (let ((trusted (and (gptel-rust-hooks-project-trusted-p file) t)))
    (or (gptel-rust-hooks--file-layer file trusted nil)
        (let ((state (cdr (assq t (gptel-rust-hooks--pfile-checked
                                   (gethash file gptel-rust-hooks--files))))))
          (when-let* (((not trusted))
                      ((nth 2 state))
                      (want (cdr (assoc file gptel-rust-hooks-trusted-project-files)))
                      ((stringp want))
                      ((equal (downcase want) (nth 3 state))))
            (list :source file :trusted t :json (nth 2 state)))))))

(defun gptel-rust-hooks--layers (directory &optional project)
  "Return the rule layers that apply to a call from DIRECTORY.
PROJECT is the project policy file already found for DIRECTORY, or
`none' for none; nil means look for it."
  (let ((layers (list (list :source nil :trusted t
                            :rules (gptel-rust-hooks--enabled
                                    (gptel-rust-hooks--user-rules))))))
    (when-let* ((preset (and gptel-rust-hooks-preset
                             (gptel-rust-hooks--preset-layer gptel-rust-hooks-preset
                                                             directory))))
      (setq layers (list (car layers) preset)))
    (when-let* ((added (gptel-rust-hooks--enabled (gptel-rust-hooks--prompt-rules))))
      (push (list :source (expand-file-name gptel-rust-hooks-prompt-rules-file)
                  :trusted t :rules added)
            layers))
    (when gptel-rust-hooks--session-rules
      (push (list :source "session" :trusted t
                  :rules (gptel-rust-hooks--enabled gptel-rust-hooks--session-rules))
            layers))
    (when gptel-rust-hooks--buffer-rules
      (push (list :source "buffer" :trusted t
                  :rules (gptel-rust-hooks--enabled gptel-rust-hooks--buffer-rules))
            layers))
    (dolist (file gptel-rust-hooks-policy-files)
      (push (gptel-rust-hooks--file-layer (expand-file-name file) t t) layers))
    (when-let* ((project (cond ((eq project 'none) nil)
                               (project)
                               (gptel-rust-hooks-project-policies
                                (gptel-rust-hooks--project-file directory))))
                (layer (gptel-rust-hooks--project-layer project)))
      (push layer layers))
    (nreverse layers)))

(defun gptel-rust-hooks--layer-key (layer)
  "Return what LAYER's compiled form depends on."
  (list (plist-get layer :source) (plist-get layer :trusted)
        (or (plist-get layer :json) (plist-get layer :rules))))

(defun gptel-rust-hooks--key-equal (a b)
  "Return non-nil when the policy keys A and B are the same.
A key is (OPTIONS . LAYER-KEYS): options are compared with `equal';
each layer's source and trust with `equal', its rules or text with `eq'."
  (and (equal (car a) (car b))
       (let ((la (cdr a)) (lb (cdr b)))
         (and (= (length la) (length lb))
              (cl-every (lambda (x y)
                          (and (equal (nth 0 x) (nth 0 y))
                               (eq (nth 1 x) (nth 1 y))
                               (eq (nth 2 x) (nth 2 y))))
                        la lb)))))

(eval-and-compile
  (defconst gptel-rust-hooks--memo-inputs
    '(gptel-rust-hooks-rules gptel-rust-hooks--good-rules
      gptel-rust-hooks--checked-rules gptel-rust-hooks--rules-error
      gptel-rust-hooks--session-rules gptel-rust-hooks--buffer-rules
      gptel-rust-hooks-policy-files gptel-rust-hooks-project-policies
      gptel-rust-hooks-trusted-directories gptel-rust-hooks-trusted-project-files
      gptel-rust-hooks-path-keys gptel-rust-hooks-command-keys
      gptel-rust-hooks-default-decision gptel-rust-hooks-unsure-decision
      gptel-rust-hooks-case-fold
      gptel-rust-hooks-redact-secrets gptel-rust-hooks--cache gptel-rust-hooks--files
      gptel-rust-hooks-preset gptel-rust-hooks--prompt-rules
      gptel-rust-hooks-prompt-rules-file gptel-rust-hooks-sandbox-program)
    "The variables the policy in force depends on, besides files, compared with `eq'."))

(defmacro gptel-rust-hooks--memo-inputs ()
  "Return the values of the variable `gptel-rust-hooks--memo-inputs' lists."
  `(vector ,@gptel-rust-hooks--memo-inputs))

(defmacro gptel-rust-hooks--memo-inputs-p (saved)
  "Return non-nil when the memo inputs are still the values saved in SAVED."
  (macroexp-let2 nil saved saved
    `(and ,@(cl-loop for var in gptel-rust-hooks--memo-inputs
                     for i from 0
                     collect `(eq (aref ,saved ,i) ,var)))))

(cl-defstruct (gptel-rust-hooks--memo-entry
               (:constructor gptel-rust-hooks--memo-entry-create)
               (:copier nil))
  "The policy found for a call from one directory, and when it holds."
  (lookup nil :documentation "The project file lookup it used, or nil")
  (inputs nil :documentation "The values of the memo inputs then, a vector")
  (files nil :documentation "The policy and project files it was read from")
  (stamp nil :documentation "The module's stamp of FILES then")
  (policy nil :documentation "The compiled policy"))

(defun gptel-rust-hooks--current-policy ()
  "Return the compiled policy for a call from `default-directory'.
Compile it when the rules, files or options changed; signal when no
policy can be had (the call is then blocked).

The policy found for a directory is reused (see `gptel-rust-hooks--memo')
while the memo inputs are `eq' to those it saved, the module's stamp of
its policy and project files is unchanged, and the project file lookup
it used (nil without project policies) is still the latest and not
older than `gptel-rust-hooks--project-lookup-seconds'.  So changed
rules or options, and a policy or project file that changed or went
away, are seen on the next call; a project file that newly appears
above the directory within that many seconds."
  (let ((memo (gethash default-directory gptel-rust-hooks--memo)))
    (if (and memo
             (gptel-rust-hooks--memo-inputs-p (gptel-rust-hooks--memo-entry-inputs memo))
             (let ((lookup (gptel-rust-hooks--memo-entry-lookup memo)))
               (or (null lookup)
                   (and (eq lookup gptel-rust-hooks--project-lookup)
                        (< (- (gptel-rust-hooks--seconds) (nth 1 lookup))
                           gptel-rust-hooks--project-lookup-seconds))))
             (let ((files (gptel-rust-hooks--memo-entry-files memo)))
               (or (null files)
                   (eql (gptel-rust-hooks--memo-entry-stamp memo)
                        (gptel-rust-hooks--mod-stamp files)))))
        (setq gptel-rust-hooks--policy (gptel-rust-hooks--memo-entry-policy memo))
      (gptel-rust-hooks--find-policy))))

(defun gptel-rust-hooks--find-policy ()
  "Return the compiled policy for a call from `default-directory', and memo it.
Look for the project file, read the policy files that changed, and
compile what no cached policy covers."
  (gptel-rust-hooks--load-module)
  (let* ((directory default-directory)
         (project (and gptel-rust-hooks-project-policies
                       (gptel-rust-hooks--project-file directory)))
         (lookup (and gptel-rust-hooks-project-policies
                      gptel-rust-hooks--project-lookup))
         (files (append (mapcar #'expand-file-name gptel-rust-hooks-policy-files)
                        (and project (list project))
                        ;; Edited outside Emacs: seen on the next call.  A
                        ;; missing one costs no stat per call; Emacs makes it
                        ;; through `gptel-rust-hooks--prompt-rules', a memo input.
                        (let ((added (expand-file-name gptel-rust-hooks-prompt-rules-file)))
                          (and (file-exists-p added) (list added)))))
         ;; Stamped before they are read: a change while reading shows next time.
         (stamp (and files (gptel-rust-hooks--mod-stamp files)))
         (layers (gptel-rust-hooks--layers directory (or project 'none)))
         (key (cons (list gptel-rust-hooks-path-keys gptel-rust-hooks-command-keys
                          gptel-rust-hooks-default-decision
                          gptel-rust-hooks-unsure-decision gptel-rust-hooks-case-fold
                          gptel-rust-hooks-redact-secrets (expand-file-name "~"))
                    (mapcar #'gptel-rust-hooks--layer-key layers)))
         (hit (cl-assoc key gptel-rust-hooks--cache :test #'gptel-rust-hooks--key-equal)))
    (unless hit
      (setq hit (cons key (gptel-rust-hooks--mod-compile-layers
                           layers (gptel-rust-hooks--options))))
      (push hit gptel-rust-hooks--cache)
      (when (> (length gptel-rust-hooks--cache) gptel-rust-hooks--cache-size)
        (setcdr (nthcdr (1- gptel-rust-hooks--cache-size) gptel-rust-hooks--cache) nil))
      (when-let* ((notes (gptel-rust-hooks--mod-notes (cdr hit))))
        (gptel-rust-hooks--report
         (format "gptel-rust-hooks: untrusted project policy, only its deny, ask and stop \
rules apply (M-x gptel-rust-hooks-trust-project to trust it): %s"
                 (string-join notes "; ")))))
    (when (>= (hash-table-count gptel-rust-hooks--memo) 64)
      (clrhash gptel-rust-hooks--memo))
    (puthash directory
             (gptel-rust-hooks--memo-entry-create
              :lookup lookup :inputs (gptel-rust-hooks--memo-inputs)
              :files files :stamp stamp :policy (cdr hit))
             gptel-rust-hooks--memo)
    (setq gptel-rust-hooks--broken nil)
    (setq gptel-rust-hooks--policy (cdr hit))))

;;;; Tool schemas

;; gptel passes a tool function only the arguments the tool declares, in
;; their declared order; a call that names others, or lacks a required one,
;; is checked here before any rule sees it, and again after rules edit it.

(defun gptel-rust-hooks--tool-spec (name)
  "Return the gptel tool called NAME, or nil when gptel does not know one.
The current buffer's `gptel-tools' (the tools of a request from it) come
first, then gptel's registry of tools."
  (when (and (stringp name) (fboundp 'gptel-tool-p))
    (or (and (boundp 'gptel-tools) (proper-list-p gptel-tools)
             (cl-loop for tool in gptel-tools
                      when (and (gptel-tool-p tool) (equal (gptel-tool-name tool) name))
                      return tool))
        (let ((tool (if (and (boundp 'gptel--known-tools) (listp gptel--known-tools))
                        ;; What `gptel-get-tool' does for a name, without
                        ;; the error (and its garbage) for an unknown one.
                        (cl-loop for category in gptel--known-tools
                                 thereis (and (consp category) (listp (cdr category))
                                              (cdr (assoc name (cdr category)))))
                      (and (fboundp 'gptel-get-tool)
                           (ignore-errors (gptel-get-tool name))))))
          (and tool (gptel-tool-p tool) tool)))))

(defun gptel-rust-hooks--tool-schema-entry (tool)
  "Return TOOL's entry of `gptel-rust-hooks--schemas', read again if it changed."
  (let ((specs (gptel-tool-args tool))
        (hit (gethash tool gptel-rust-hooks--schemas)))
    (if (and hit (eq (car hit) specs))
        hit
      (let* ((schema
              (if (not (proper-list-p specs))
                  :unknown
                (catch 'unknown
                  (mapcar (lambda (spec)
                            (let ((name (and (proper-list-p spec) (plist-get spec :name))))
                              (unless (stringp name) (throw 'unknown :unknown))
                              (list name (plist-get spec :type)
                                    (and (memq (plist-get spec :optional) '(nil :json-false)) t)
                                    (intern (concat ":" name)))))
                          specs))))
             (entry (cons specs (cons schema nil))))
        (puthash tool entry gptel-rust-hooks--schemas)
        entry))))

(defun gptel-rust-hooks--tool-schema (tool)
  "Return the arguments TOOL declares, or :unknown when they cannot be read.
Each is (NAME TYPE REQUIRED KEYWORD), KEYWORD the argument's plist key."
  (cadr (gptel-rust-hooks--tool-schema-entry tool)))

(defun gptel-rust-hooks--type-text (type)
  "Return the text naming the argument type TYPE, or nil when it is no name."
  (cond ((null type) "any")
        ((stringp type) type)
        ((symbolp type) (symbol-name type))))

(defun gptel-rust-hooks--compiled-schema (tool)
  "Return the module's form of TOOL's arguments, or nil when they are unknown.
It is made once per argument list of TOOL, and checks every call to it."
  (let ((entry (gptel-rust-hooks--tool-schema-entry tool)))
    (or (cddr entry)
        (let ((schema (cadr entry)))
          (and (listp schema)
               (setcdr (cdr entry)
                       (gptel-rust-hooks--mod-schema
                        (mapcar (lambda (arg)
                                  (list (nth 0 arg)
                                        (gptel-rust-hooks--type-text (nth 1 arg))
                                        (nth 2 arg)))
                                schema))))))))

(defun gptel-rust-hooks--schema-problems (schema args)
  "Return how SCHEMA does not fit the argument plist ARGS, a list of strings.
An argument whose value is nil counts as absent.  ARGS that are not a
plist with keyword keys are left to the module, which blocks them.
The hook does not use this: the module checks calls against its own
form of SCHEMA (`gptel-rust-hooks--compiled-schema').  Explain does."
  (let ((n (proper-list-p args)))
    (when (and n (cl-evenp n)
               (cl-loop for k in args by #'cddr always (keywordp k)))
      (let ((unknown (cl-loop for k in args by #'cddr
                              unless (cl-find k schema :key #'cl-fourth :test #'eq)
                              collect (format "unknown argument `%s`"
                                              (substring (symbol-name k) 1))))
            (missing (cl-loop for arg in schema
                              when (and (nth 2 arg) (null (plist-get args (nth 3 arg))))
                              collect (format "missing required argument `%s`"
                                              (car arg)))))
        (nconc unknown missing)))))

;;;; Deciding a call

(defun gptel-rust-hooks--sandboxes-p (policy)
  "Return non-nil when some rule of the compiled POLICY has `:sandbox'."
  (let ((memo gptel-rust-hooks--sandboxes-memo))
    (if (eq (car memo) policy)
        (cdr memo)
      (cdr (setq gptel-rust-hooks--sandboxes-memo
                 (cons policy (gptel-rust-hooks--mod-sandboxes policy)))))))

(defun gptel-rust-hooks--decide (policy info cwd)
  "Return the pre-tool answer of POLICY for the call INFO from CWD.
This is where a call is decided, in one module call.  A call to a tool
gptel knows is first checked against the tool's arguments: one that
does not fit is blocked before any rule runs.  Otherwise the rules
decide it; an argument edit the tool does not declare is skipped (with
a warning, once), and arguments edited by the rules are checked the
same way.  Set `gptel-rust-hooks--last-schema' to why the call did not
fit, or nil, and `gptel-rust-hooks--last-record',
`gptel-rust-hooks--last-sandbox' and `gptel-rust-hooks--last-by' to the
decision's record, sandbox and deciding rule."
  (setq gptel-rust-hooks--last-schema nil
        gptel-rust-hooks--last-record nil
        gptel-rust-hooks--last-sandbox nil
        gptel-rust-hooks--last-by nil)
  (let* ((tool (and gptel-rust-hooks-validate-calls
                    (gptel-rust-hooks--tool-spec (plist-get info :name))))
         (out (gptel-rust-hooks--mod-pre
               policy info cwd
               (and (gptel-rust-hooks--sandboxes-p policy)
                    (gptel-rust-hooks--sandbox-context cwd))
               (and tool (gptel-rust-hooks--compiled-schema tool))))
         (answer (aref out 0))
         (misfit (aref out 3)))
    (setq gptel-rust-hooks--last-record (aref out 1)
          gptel-rust-hooks--last-sandbox (aref out 2)
          gptel-rust-hooks--last-schema misfit
          gptel-rust-hooks--last-by (aref out 4))
    (when (eq (plist-get misfit :stage) 'edit)
      (gptel-rust-hooks--report (plist-get answer :block)))
    (dolist (skipped (aref out 5))
      (gptel-rust-hooks--warn-once skipped))
    answer))

;;;; Hook functions

(defun gptel-rust-hooks--report (message)
  "Show MESSAGE in *Messages* unless it was shown before."
  (unless (member message gptel-rust-hooks--reported)
    (push message gptel-rust-hooks--reported)
    (message "%s" message)))

(defun gptel-rust-hooks--warn-once (text)
  "Show the warning TEXT unless it was shown before."
  (unless (member text gptel-rust-hooks--reported)
    (push text gptel-rust-hooks--reported)
    (display-warning 'gptel-rust-hooks text :warning)))

(defconst gptel-rust-hooks--misconfigured
  "gptel-rust-hooks: the tool call was blocked because the gptel-rust-hooks \
policy is misconfigured; the user has been shown the error"
  "What the model is told when the policy in force cannot be compiled.
The error itself names the user's files: it goes to the user only.")

(defun gptel-rust-hooks--fail (err)
  "Return the answer that fails closed for the error ERR, and report it.
The user sees the error.  When it is a bad rule (the policy cannot be
compiled), the model is told only that the policy is misconfigured."
  (let* ((rule-error (and (symbolp (car-safe err))
                          (memq 'gptel-rust-hooks-rule-error
                                (get (car err) 'error-conditions))))
         (text (if (and (symbolp (car-safe err))
                        (memq 'gptel-rust-hooks-error (get (car err) 'error-conditions))
                        (stringp (cadr err)))
                   (cadr err)
                 (error-message-string err)))
         (msg (if (string-prefix-p "gptel-rust-hooks: " text)
                  text
                (concat "gptel-rust-hooks: " text)))
         (model (if rule-error gptel-rust-hooks--misconfigured msg)))
    (gptel-rust-hooks--report msg)
    (if (eq gptel-rust-hooks-on-error 'stop)
        (list :stop t :stop-reason model)
      (list :block model))))

(defun gptel-rust-hooks--strip-prefix (text)
  "Return TEXT without a leading \"gptel-rust-hooks: \"."
  (string-remove-prefix "gptel-rust-hooks: " text))

(defun gptel-rust-hooks--tell-user (info answer)
  "Show in the echo area why the rules asked, denied or stopped the call INFO.
ANSWER is the hook's answer; the deciding rule is
`gptel-rust-hooks--last-by'.  A call that did not fit its tool was
reported already, when at all."
  (when (and (consp answer) (not gptel-rust-hooks--last-schema))
    (let ((name (plist-get info :name))
          (by (and gptel-rust-hooks--last-by
                   (format "`%s` " gptel-rust-hooks--last-by))))
      (cond
       ;; Formatted first: `message' would turn the backquotes into curved quotes.
       ((plist-get answer :stop)
        (message "%s" (format "gptel-rust-hooks: %sstopped the request at tool `%s`: %s"
                              (or by "") name
                              (gptel-rust-hooks--strip-prefix
                               (or (plist-get answer :stop-reason) "")))))
       ((plist-member answer :block)
        (message "%s" (format "gptel-rust-hooks: %sdenied tool `%s`: %s"
                              (or by "") name
                              (gptel-rust-hooks--strip-prefix
                               (format "%s" (plist-get answer :block))))))
       ((and (plist-get answer :confirm) gptel-rust-hooks--last-record)
        (when-let* ((reason (nth 3 (gptel-rust-hooks--mod-record-data
                                    gptel-rust-hooks--last-record))))
          (message "%s%s" (if (string-prefix-p "gptel-rust-hooks: " reason)
                              reason
                            (concat "gptel-rust-hooks: " reason))
                   (if-let* ((sandbox gptel-rust-hooks--last-sandbox))
                       (concat "; it will run sandboxed: "
                               (plist-get sandbox :describe))
                     ""))))))))

(defun gptel-rust-hooks-pre-tool-call (info)
  "Decide the tool call INFO for `gptel-pre-tool-call-functions'.
Return gptel's plist: `:stop'/`:stop-reason', `:block', `:confirm',
`:args' or `:result'.  Never signals: any error blocks the call."
  (let ((answer
         (condition-case err
             (let ((answer (gptel-rust-hooks--decide
                            (gptel-rust-hooks--current-policy) info default-directory)))
               ;; A sandboxed call that cannot be remembered so must not run.
               (gptel-rust-hooks--sandbox-remember info answer)
               (when (and (consp answer)
                          (or (plist-get answer :confirm) (plist-member answer :block)
                              (plist-get answer :stop)))
                 (ignore-errors (gptel-rust-hooks--tell-user info answer)))
               answer)
           (t (setq gptel-rust-hooks--last-sandbox nil
                    gptel-rust-hooks--last-record nil)
              (gptel-rust-hooks--fail err)))))
    (when gptel-rust-hooks--pre-tool-info
      (ignore-errors (gptel-rust-hooks--remember-hook-decision info answer)))
    (when gptel-rust-hooks--record-function
      (ignore-errors (funcall gptel-rust-hooks--record-function 'pre info answer)))
    answer))

(defun gptel-rust-hooks-post-tool-call (info)
  "Apply the rules' post-call effects to the result in INFO.
Return (:result NEW) for `gptel-post-tool-call-functions' when the
result the model sees changes.  Never signals: any error blocks the
result."
  (setq gptel-rust-hooks--last-record nil)
  (let ((answer
         (condition-case err
             (let ((out (gptel-rust-hooks--mod-post (gptel-rust-hooks--current-policy)
                                                    info default-directory)))
               (setq gptel-rust-hooks--last-record (aref out 1))
               (aref out 0))
           (t (setq gptel-rust-hooks--last-record nil)
              (gptel-rust-hooks--fail err)))))
    (when gptel-rust-hooks--record-function
      (ignore-errors (funcall gptel-rust-hooks--record-function 'post info answer)))
    answer))

;;;; Every tool call gptel runs

;; gptel runs the pre-tool hook only in `gptel-send''s state machine (its
;; TPRE state) and the post-tool hook only where TRET runs
;; `gptel--handle-post-tool'.  A plain `gptel-request' with tools, and
;; every package built on it, runs tools with no hook.  Every state
;; machine runs its tools through `gptel--handle-tool-use' and hands every
;; result to `gptel--process-tool-call', so the mode advises those two:
;; just before gptel would run a tool function, each pending call is
;; decided (unless the pre-tool hook decided it with the name and
;; arguments it still has) and the decision is imposed on it; each result
;; gets the post-call effects unless our post-tool hook will see it.

(defconst gptel-rust-hooks--gptel-internals
  '(gptel--handle-tool-use gptel--process-tool-call gptel--fsm-transition
    gptel-fsm-info gptel-fsm-table gptel-fsm-handlers gptel-tool-name
    gptel--inject-tool-call gptel--to-string)
  "The gptel functions the guard of every tool call relies on.
Besides these, it advises `gptel--handle-pre-tool' (gptel.el) to tell
which calls the pre-tool hook decided, and looks for
`gptel--handle-post-tool' in a state machine's TRET handlers.")

(cl-defstruct (gptel-rust-hooks--decision
               (:constructor gptel-rust-hooks--decision-create)
               (:copier nil))
  "How one of gptel's tool calls was decided."
  (answer nil :documentation "The pre-tool answer")
  (name nil :documentation "The tool name that was decided")
  (args nil :documentation "The arguments the tool will get, copied")
  (sandbox nil :documentation "How the call runs sandboxed, or nil"))

(defun gptel-rust-hooks--args-copy (args)
  "Return what `gptel-rust-hooks--same-args-p' compares ARGS by.
A proper list is copied, so that a later in-place change shows."
  (if (proper-list-p args) (copy-sequence args) args))

(defun gptel-rust-hooks--same-args-p (saved args)
  "Return non-nil when SAVED was copied from ARGS and they did not change since."
  (if (proper-list-p args)
      (and (proper-list-p saved)
           (let ((a saved) (b args))
             (while (and a b (eq (car a) (car b)))
               (setq a (cdr a) b (cdr b)))
             (and (null a) (null b))))
    (eq saved args)))

(defun gptel-rust-hooks--remember (call answer)
  "Remember that gptel's tool CALL was decided with ANSWER.
The arguments remembered are those the tool will get: the answer's
edited ones if any, else the call's; with them, the sandbox of the
decision just made (`gptel-rust-hooks--last-sandbox')."
  (puthash call
           (gptel-rust-hooks--decision-create
            :answer answer
            :name (plist-get call :name)
            :args (gptel-rust-hooks--args-copy
                   (if (plist-member answer :args)
                       (plist-get answer :args)
                     (plist-get call :args)))
            :sandbox gptel-rust-hooks--last-sandbox)
           gptel-rust-hooks--decided))

(defun gptel-rust-hooks--remember-hook-decision (info answer)
  "Remember for the call INFO of gptel's TPRE state the pre-tool hook's ANSWER.
The call is the pending tool call of `gptel-rust-hooks--pre-tool-info'
with INFO's name and the very same arguments object."
  (let ((name (plist-get info :name))
        (args (plist-get info :args)))
    (when-let* ((call (cl-loop for call in (plist-get gptel-rust-hooks--pre-tool-info
                                                      :tool-use)
                               when (and (eq (plist-get call :args) args)
                                         (equal (plist-get call :name) name))
                               return call)))
      (gptel-rust-hooks--remember call answer))))

(defun gptel-rust-hooks--note-pre-tool (run fsm)
  "Call RUN on FSM, telling our pre-tool hook which request it decides.
Around advice for `gptel--handle-pre-tool'."
  (let ((gptel-rust-hooks--pre-tool-info (gptel-fsm-info fsm)))
    (funcall run fsm)))

(defun gptel-rust-hooks--call-decision (call info)
  "Return (ANSWER . FRESH): how gptel's tool CALL of the request INFO is decided.
When the pre-tool hook (or an earlier pass) decided CALL with the name
and arguments it has now, that ANSWER stands and FRESH is nil.
Otherwise CALL is decided now, as the pre-tool hook would, from the
request buffer, and FRESH is t."
  (let ((seen (gethash call gptel-rust-hooks--decided))
        (args (plist-get call :args)))
    (if (and seen
             (equal (gptel-rust-hooks--decision-name seen) (plist-get call :name))
             (gptel-rust-hooks--same-args-p (gptel-rust-hooks--decision-args seen) args))
        (progn
          ;; The same arguments in another list (a hook function after
          ;; ours handed back a copy) run in the sandbox they were decided
          ;; to run in: the tool finds it under the list it is given.
          (when-let* ((sandbox (gptel-rust-hooks--decision-sandbox seen)))
            (when (consp args)
              (puthash args sandbox gptel-rust-hooks--sandboxed)))
          (cons (gptel-rust-hooks--decision-answer seen) nil))
      (let* ((buffer (plist-get info :buffer))
             (answer (with-current-buffer (if (buffer-live-p buffer) buffer (current-buffer))
                       (gptel-rust-hooks-pre-tool-call
                        (list :name (plist-get call :name) :args args
                              :buffer (and (buffer-live-p buffer) (buffer-name buffer))
                              :backend (plist-get info :backend)
                              :model (plist-get info :model))))))
        (gptel-rust-hooks--remember call answer)
        (cons answer t)))))

(defun gptel-rust-hooks--tool-named (name tools)
  "Return the tool called NAME among TOOLS, gptel tools, or nil."
  (cl-loop for tool in tools
           when (equal (gptel-tool-name tool) name) return tool))

(defun gptel-rust-hooks--error-result (reason name)
  "Return gptel's result for a call blocked with REASON: an error naming NAME."
  (concat "<tool_call_error>\n"
          (if (stringp reason) reason (format "Tool %s blocked by user" name))
          "\n</tool_call_error>"))

(defun gptel-rust-hooks--impose (fsm call answer fresh)
  "Make FSM's tool CALL follow ANSWER; return non-nil if CALL is answered.
A block or a result answers the call in gptel's way, without running it;
edited arguments (when FRESH, not yet applied by gptel) are what the
tool will get and what the model's history shows; `:confirm t' makes
gptel ask whatever another hook function said; `:confirm nil' (when
FRESH) lets the call run unasked unless a hook function asked already."
  (let* ((info (gptel-fsm-info fsm))
         (name (plist-get call :name))
         (spec (gptel-rust-hooks--tool-named name (plist-get info :tools)))
         (block (plist-get answer :block))
         (result (plist-get answer :result)))
    (cond
     (block
      (plist-put call :error t)
      (gptel--process-tool-call fsm spec call (gptel-rust-hooks--error-result block name))
      t)
     (result
      (gptel--process-tool-call fsm spec call result)
      t)
     (t
      (when (and fresh (plist-member answer :args))
        (let ((args (plist-get answer :args)))
          (when args
            (gptel--inject-tool-call (plist-get info :backend) (plist-get info :data)
                                     call (list :args args)))
          (plist-put call :args args)))
      (cond ((plist-get answer :confirm)
             (plist-put call :confirm t))
            ((and fresh (plist-member answer :confirm)
                  (not (plist-member call :confirm)))
             (plist-put call :confirm nil)))
      nil))))

(defun gptel-rust-hooks--stop-request (fsm reason)
  "End the request of FSM with REASON: no tool runs, nothing more is sent.
The request's callback sees the error, as it sees a failed request."
  (let ((info (gptel-fsm-info fsm)))
    (plist-put info :stop-reason reason)
    (plist-put info :status "Stopped by gptel-rust-hooks")
    (plist-put info :error reason)
    (when-let* ((callback (plist-get info :callback)))
      (with-demoted-errors "gptel-rust-hooks: the request's callback failed: %S"
        (funcall callback nil info)))
    (gptel--fsm-transition fsm 'ERRS)))

(defun gptel-rust-hooks--guard-calls (fsm)
  "Decide the tool calls FSM is about to run, and impose the decisions.
Every call is decided before any decision is imposed: a stop among them
ends the request with none run.  Return non-nil when no call is left
for gptel to run."
  (let* ((info (gptel-fsm-info fsm))
         (tools (plist-get info :tools))
         (decided nil)
         (stop nil))
    (dolist (call (plist-get info :tool-use))
      ;; gptel answers a call to a tool it does not have without running one.
      (unless (or (plist-get call :result)
                  (not (gptel-rust-hooks--tool-named (plist-get call :name) tools)))
        (let ((decision (gptel-rust-hooks--call-decision call info)))
          (when (and (not stop) (plist-get (car decision) :stop))
            (setq stop (car decision)))
          (push (cons call decision) decided))))
    (cond
     ((null decided) nil)
     (stop (gptel-rust-hooks--stop-request fsm (plist-get stop :stop-reason))
           t)
     (t
      (dolist (d (nreverse decided))
        (unless (gptel-rust-hooks--impose fsm (car d) (cadr d) (cddr d))
          (gptel-rust-hooks--sandbox-confirm fsm (car d))))
      (cl-loop for call in (plist-get (gptel-fsm-info fsm) :tool-use)
               always (plist-get call :result))))))

(defun gptel-rust-hooks--guard-tool-use (run fsm)
  "Let RUN run the tool calls of FSM still to run, once they are decided.
Around advice for `gptel--handle-tool-use', where every state machine
runs its tools.  If deciding fails, the calls are blocked (or the
request stopped, by `gptel-rust-hooks-on-error'), never run undecided."
  (unless (condition-case err
              (gptel-rust-hooks--guard-calls fsm)
            (error
             (let ((answer (gptel-rust-hooks--fail err)))
               (if (plist-get answer :stop)
                   (gptel-rust-hooks--stop-request fsm (plist-get answer :stop-reason))
                 (dolist (call (plist-get (gptel-fsm-info fsm) :tool-use))
                   (unless (plist-get call :result)
                     (gptel-rust-hooks--impose fsm call answer nil)))))
             t))
    (funcall run fsm)))

(defun gptel-rust-hooks--hook-has-p (function value symbol)
  "Return non-nil when FUNCTION runs from VALUE, a buffer's value of hook SYMBOL.
A t in VALUE stands for the global value of SYMBOL."
  (if (listp value)
      (or (memq function value)
          (and (memq t value)
               (let ((global (default-value symbol)))
                 (if (listp global) (memq function global) (eq global function)))))
    (eq value function)))

(defun gptel-rust-hooks--post-hook-runs-p (fsm)
  "Return non-nil when gptel will run our post-tool hook for FSM's results.
That is when FSM goes from TOOL to TRET, whose handlers run
`gptel--handle-post-tool', and the request buffer's post-tool hook has
`gptel-rust-hooks-post-tool-call'."
  (let ((buffer (plist-get (gptel-fsm-info fsm) :buffer)))
    (and (memq 'gptel--handle-post-tool (alist-get 'TRET (gptel-fsm-handlers fsm)))
         (rassq 'TRET (alist-get 'TOOL (gptel-fsm-table fsm)))
         (buffer-live-p buffer)
         (gptel-rust-hooks--hook-has-p
          #'gptel-rust-hooks-post-tool-call
          (buffer-local-value 'gptel-post-tool-call-functions buffer)
          'gptel-post-tool-call-functions))))

(defun gptel-rust-hooks--result-for-model (fsm call result)
  "Return for FSM's tool CALL its RESULT with the post-call effects applied.
When our post-tool hook will see the result, it is left to the hook.  A
post-call answer that blocks (or an error here) marks CALL as erred and
gives gptel's error text instead; one that stops ends the request after
this turn, as gptel does for a post-tool hook that stops."
  (let* ((name (plist-get call :name))
         (text result)
         (answer
          (condition-case err
              (unless (gptel-rust-hooks--post-hook-runs-p fsm)
                (let* ((info (gptel-fsm-info fsm))
                       (buffer (plist-get info :buffer)))
                  (setq text (if (stringp result) result (gptel--to-string result)))
                  (with-current-buffer (if (buffer-live-p buffer) buffer (current-buffer))
                    (gptel-rust-hooks-post-tool-call
                     (list :name name :args (plist-get call :args) :result text
                           :buffer (and (buffer-live-p buffer) (buffer-name buffer))
                           :backend (plist-get info :backend)
                           :model (plist-get info :model))))))
            (error (gptel-rust-hooks--fail err)))))
    (cond
     ((plist-get answer :stop)
      (let ((reason (plist-get answer :stop-reason)))
        (ignore-errors
          (let ((info (gptel-fsm-info fsm)))
            (plist-put info :stop-reason reason)
            (plist-put info :status "Stopped by gptel-rust-hooks")
            (plist-put info :error reason)))
        (plist-put call :error t)
        (gptel-rust-hooks--error-result reason name)))
     ((plist-get answer :block)
      (plist-put call :error t)
      (gptel-rust-hooks--error-result (plist-get answer :block) name))
     ((plist-get answer :result))
     (t text))))

(defun gptel-rust-hooks--guard-result (process fsm tool-spec call result)
  "Call PROCESS on FSM, TOOL-SPEC, CALL and RESULT as the model may see it.
Around advice for `gptel--process-tool-call': RESULT is passed after the
post-call effects, see `gptel-rust-hooks--result-for-model'."
  (funcall process fsm tool-spec call
           (gptel-rust-hooks--result-for-model fsm call result)))

(defun gptel-rust-hooks--check-internals ()
  "Return the gptel internals the guard needs that are missing, or nil.
gptel-request is loaded first if it can be."
  (require 'gptel-request nil t)
  (append
   (cl-remove-if #'fboundp gptel-rust-hooks--gptel-internals)
   (unless (and (boundp 'gptel-request--handlers)
                (memq 'gptel--handle-tool-use
                      (alist-get 'TOOL gptel-request--handlers)))
     (list 'gptel-request--handlers))))

(defun gptel-rust-hooks--request-guarded-p (args)
  "Return non-nil when a `gptel-request' called with ARGS runs its tools hooked.
That is when its state machine, the `:fsm' of ARGS, goes through TPRE,
which runs `gptel--handle-pre-tool', and the request buffer's pre-tool
hook has `gptel-rust-hooks-pre-tool-call'."
  (let ((fsm (plist-get (cdr args) :fsm))
        (buffer (or (plist-get (cdr args) :buffer) (current-buffer))))
    (ignore-errors
      (and fsm
           (rassq 'TPRE (alist-get 'TYPE (gptel-fsm-table fsm)))
           (memq 'gptel--handle-pre-tool (alist-get 'TPRE (gptel-fsm-handlers fsm)))
           (buffer-live-p buffer)
           (gptel-rust-hooks--hook-has-p
            #'gptel-rust-hooks-pre-tool-call
            (buffer-local-value 'gptel-pre-tool-call-functions buffer)
            'gptel-pre-tool-call-functions)))))

(defun gptel-rust-hooks--withhold-tools (request &rest args)
  "Call REQUEST, `gptel-request', with ARGS, offering no tools if unguarded.
Around advice used when gptel's internals the guard needs are missing:
a request whose tool calls no hook would decide is sent without tools,
so that the model cannot call any."
  (if (gptel-rust-hooks--request-guarded-p args)
      (apply request args)
    (with-current-buffer (let ((buffer (plist-get (cdr args) :buffer)))
                           (if (buffer-live-p buffer) buffer (current-buffer)))
      (let ((gptel-use-tools nil))
        (apply request args)))))

(defun gptel-rust-hooks--guard-enable ()
  "Guard every tool call gptel runs; when gptel's internals are missing, say so.
Without them, requests whose tool calls no hook decides get no tools."
  (setq gptel-rust-hooks--missing-internals (gptel-rust-hooks--check-internals))
  (if (null gptel-rust-hooks--missing-internals)
      (progn
        (advice-add 'gptel--handle-pre-tool :around #'gptel-rust-hooks--note-pre-tool)
        (advice-add 'gptel--handle-tool-use :around #'gptel-rust-hooks--guard-tool-use)
        (advice-add 'gptel--process-tool-call :around #'gptel-rust-hooks--guard-result))
    (unless gptel-rust-hooks--internals-reported
      (setq gptel-rust-hooks--internals-reported t)
      (display-warning
       'gptel-rust-hooks
       (format "this gptel lacks %s, which gptel-rust-hooks needs to decide tool calls \
made outside `gptel-send' (plain `gptel-request', gptel-agent's subagents); \
such requests are sent without tools"
               (mapconcat (lambda (s) (format "`%s'" s))
                          gptel-rust-hooks--missing-internals ", "))
       :warning))
    (advice-add 'gptel-request :around #'gptel-rust-hooks--withhold-tools)))

(defun gptel-rust-hooks--guard-disable ()
  "Remove exactly what `gptel-rust-hooks--guard-enable' added."
  (advice-remove 'gptel--handle-pre-tool #'gptel-rust-hooks--note-pre-tool)
  (advice-remove 'gptel--handle-tool-use #'gptel-rust-hooks--guard-tool-use)
  (advice-remove 'gptel--process-tool-call #'gptel-rust-hooks--guard-result)
  (advice-remove 'gptel-request #'gptel-rust-hooks--withhold-tools))

;;;; Sandboxed calls

;; A rule's `:sandbox' confines the shell command of a call that will run.
;; The module decides the call as the model wrote it, then resolves the
;; confinement and writes the confined command (bubblewrap's command line
;; around it); `gptel-rust-hooks--sandbox-remember' keeps that under the
;; call's very argument list.  The model's record of its call is left
;; alone (an `:args' answer would be injected into the conversation and the
;; confined line decided again): instead, every path gptel takes to a tool
;; function goes through `gptel--map-tool-args', with the call's argument
;; list, and the advice on it hands the tool function the confined command
;; in place of the one the model wrote.

(declare-function gptel-tool-confirm "gptel-request" (tool))
(declare-function gptel--map-tool-args "gptel-request" (tool-spec args))
(declare-function gptel-rust-hooks--mod-sandbox-rewrap "ext:gptel-rust-hooks-module"
                  (sandbox value))
(defvar gptel-confirm-tool-calls)

(defun gptel-rust-hooks--socket-dirs ()
  "Return `gptel-rust-hooks-sandbox-socket-dirs' as absolute directories."
  (let ((dirs nil))
    (dolist (entry gptel-rust-hooks-sandbox-socket-dirs)
      (when-let* ((name (if (and (stringp entry) (string-prefix-p "$" entry))
                            (getenv (substring entry 1))
                          entry))
                  ((and (stringp name) (not (string-empty-p name))))
                  (file (expand-file-name name))
                  ;; A missing ~/.gnupg must not stand for the whole home.
                  ((file-exists-p file)))
        (push (if (file-directory-p file)
                  (directory-file-name file)
                (directory-file-name (file-name-directory file)))
              dirs)))
    (nreverse dirs)))

(defun gptel-rust-hooks--sandbox-unavailable (cwd)
  "Return why no call from CWD can be sandboxed here, or nil."
  (cond
   ((not (advice-member-p #'gptel-rust-hooks--sandbox-args 'gptel--map-tool-args))
    (if (fboundp 'gptel--map-tool-args)
        "cannot sandbox the call: `gptel-rust-hooks-mode' is off, so nothing would \
confine the command when gptel runs it"
      "cannot sandbox the call: this gptel lacks `gptel--map-tool-args', through \
which gptel-rust-hooks hands a tool its confined command"))
   ((file-remote-p cwd)
    (format "cannot sandbox the call: its directory `%s` is remote, and the sandbox \
runs local commands only" cwd))))

(defun gptel-rust-hooks--sandbox-context (cwd)
  "Return the sandbox settings for a call from CWD.
The plist `gptel-rust-hooks--mod-pre' takes, when some rule of the
policy has `:sandbox': the temporary directory, the
socket directories, the sandbox program and the variable `exec-path'
to find it in,
the shell that reads a confined command line (`shell-file-name'), and
why no call can be sandboxed here, if so."
  (list :temp (expand-file-name temporary-file-directory)
        :socket-dirs (gptel-rust-hooks--socket-dirs)
        :program gptel-rust-hooks-sandbox-program
        :exec-path (cl-remove-if-not #'stringp exec-path)
        :shell shell-file-name
        :unavailable (gptel-rust-hooks--sandbox-unavailable cwd)))

(defun gptel-rust-hooks--sandbox-remember (info answer)
  "Remember how the call INFO, answered with ANSWER, runs sandboxed.
The sandbox is the module's of the decision just made
\(`gptel-rust-hooks--last-sandbox'); it is kept under the argument list
the tool will get (ANSWER's edited one, else INFO's), and forgotten for
it when the call is not sandboxed."
  (let ((sandbox gptel-rust-hooks--last-sandbox)
        (args (if (plist-member answer :args)
                  (plist-get answer :args)
                (plist-get info :args))))
    (when (or (plist-get answer :block) (plist-get answer :stop)
              (plist-member answer :result))
      (setq sandbox nil))
    (setq gptel-rust-hooks--last-sandbox sandbox)
    (when (consp args)
      (cond (sandbox (puthash args sandbox gptel-rust-hooks--sandboxed))
            ;; Most calls are not sandboxed, and none before them was.
            ((> (hash-table-count gptel-rust-hooks--sandboxed) 0)
             (remhash args gptel-rust-hooks--sandboxed))))))

(defun gptel-rust-hooks--sandbox-of (args)
  "Return the sandbox the call with argument list ARGS runs in, or nil.
An argument list from gptel's inspect buffer, edited by you, runs in the
sandbox of the call it replaces."
  (and (consp args)
       (or (gethash args gptel-rust-hooks--sandboxed)
           (cl-loop for (entry . sandbox) in gptel-rust-hooks--sandbox-edits
                    when (eq (nth 1 entry) args)
                    return (list :rewrap sandbox)))))

(defun gptel-rust-hooks--sandbox-values (tool-spec args values sandbox)
  "Return TOOL-SPEC's argument values from ARGS, VALUES, confined by SANDBOX.
Each command argument SANDBOX confines is replaced by its confined
form: a command line by the line that runs it under the sandbox, a list
of words (a list or a vector, kept so) by the words that do."
  (let ((rewrap (plist-get sandbox :rewrap))
        (wrapped (plist-get sandbox :values)))
    (cl-loop for spec in (gptel-tool-args tool-spec)
             for value in values
             collect
             (let ((key (intern (concat ":" (plist-get spec :name)))))
               (cond
                ((null value) value)
                (rewrap
                 (if (plist-member (plist-get rewrap :values) key)
                     (let ((w (gptel-rust-hooks--mod-sandbox-rewrap
                               (plist-get rewrap :json)
                               (if (vectorp value) (append value nil) value))))
                       (if (vectorp value) (vconcat w) w))
                   value))
                ((plist-member wrapped key)
                 (unless (eq value (plist-get args key))
                   (signal 'gptel-rust-hooks-error
                           (list "gptel-rust-hooks: the command changed after it was decided")))
                 (let ((w (plist-get wrapped key)))
                   (if (vectorp value) (vconcat w) w)))
                (t value))))))

(defun gptel-rust-hooks--sandbox-args (map tool-spec args)
  "Call MAP, `gptel--map-tool-args', on TOOL-SPEC and ARGS; confine the result.
Around advice: when the call with the argument list ARGS was decided to
run sandboxed, its command arguments are confined (see
`gptel-rust-hooks--sandbox-values'), unless gptel only shows the call."
  (let ((values (funcall map tool-spec args)))
    (if-let* (((not gptel-rust-hooks--sandbox-showing))
              (sandbox (gptel-rust-hooks--sandbox-of args)))
        (gptel-rust-hooks--sandbox-values tool-spec args values sandbox)
      values)))

(defun gptel-rust-hooks--sandbox-running (run &rest args)
  "Call RUN with ARGS; tool calls it runs get their confined commands.
Around advice for `gptel--accept-tool-calls', which runs the calls of
gptel's confirmation prompt, perhaps from inside the prompt itself."
  (let ((gptel-rust-hooks--sandbox-showing nil))
    (apply run args)))

(defun gptel-rust-hooks--sandbox-inspected (accept &rest args)
  "Call ACCEPT with ARGS, keeping the sandbox of calls you edit.
Around advice for `gptel--inspect-accept-tool-calls', run in gptel's
inspect buffer: a call you edit there gets a new argument list, which
runs in the sandbox of the call it replaces."
  (let ((gptel-rust-hooks--sandbox-edits
         (cl-loop for ov in (overlays-in (point-min) (point-max))
                  for entry = (overlay-get ov 'gptel-tool)
                  for sandbox = (and (consp entry) (consp (cdr entry))
                                     (gethash (nth 1 entry) gptel-rust-hooks--sandboxed))
                  when sandbox collect (cons entry sandbox))))
    (apply accept args)))

(defun gptel-rust-hooks--sandbox-confirm (fsm call)
  "Settle whether gptel asks before running FSM's sandboxed CALL.
When no hook function said, gptel asks its own settings, and a tool's
`:confirm' function would be given the confined command: ask them here,
with the command as the model wrote it, and put the answer on CALL."
  (when (and (not (plist-member call :confirm))
             (not (plist-get call :result))
             (gethash (plist-get call :args) gptel-rust-hooks--sandboxed))
    (let* ((info (gptel-fsm-info fsm))
           (buffer (plist-get info :buffer))
           (spec (gptel-rust-hooks--tool-named (plist-get call :name)
                                               (plist-get info :tools))))
      (when spec
        (with-current-buffer (if (buffer-live-p buffer) buffer (current-buffer))
          (plist-put call :confirm
                     (and gptel-confirm-tool-calls
                          (or (eq gptel-confirm-tool-calls t)
                              (when-let* ((confirm (gptel-tool-confirm spec)))
                                (or (not (functionp confirm))
                                    (condition-case nil
                                        (let ((gptel-rust-hooks--sandbox-showing t))
                                          (apply confirm (gptel--map-tool-args
                                                          spec (plist-get call :args))))
                                      ;; A predicate that fails asks.
                                      (error t)))))
                          t)))))))

(defun gptel-rust-hooks--sandbox-enable ()
  "Hand tool functions the confined commands of sandboxed calls."
  (when (fboundp 'gptel--map-tool-args)
    (advice-add 'gptel--map-tool-args :around #'gptel-rust-hooks--sandbox-args)
    (advice-add 'gptel--accept-tool-calls :around #'gptel-rust-hooks--sandbox-running)
    (advice-add 'gptel--inspect-accept-tool-calls :around
                #'gptel-rust-hooks--sandbox-inspected)))

(defun gptel-rust-hooks--sandbox-disable ()
  "Remove exactly what `gptel-rust-hooks--sandbox-enable' added."
  (advice-remove 'gptel--map-tool-args #'gptel-rust-hooks--sandbox-args)
  (advice-remove 'gptel--accept-tool-calls #'gptel-rust-hooks--sandbox-running)
  (advice-remove 'gptel--inspect-accept-tool-calls #'gptel-rust-hooks--sandbox-inspected))

;;;; Commands

(defun gptel-rust-hooks--policy-for (rules cwd)
  "Return the policy for RULES, or the one in force for a call from CWD."
  (if rules
      (gptel-rust-hooks--compile rules)
    (let ((default-directory (file-name-as-directory cwd)))
      (gptel-rust-hooks--current-policy))))

(defun gptel-rust-hooks--call-cwd (call)
  "Return the directory CALL comes from: its `:cwd', else `default-directory'."
  (or (plist-get call :cwd) default-directory))

(defun gptel-rust-hooks-evaluate (call &optional rules)
  "Return the plist the pre-tool hook would return for CALL.
CALL is a hook plist such as (:name \"shell\" :args (:command \"ls\")),
optionally with `:cwd'.  With RULES, decide by those instead of the
rules in force; a bad rule signals `gptel-rust-hooks-rule-error'."
  (let ((cwd (gptel-rust-hooks--call-cwd call))
        ;; Not a hook call: leave no record the log could credit to one.
        (gptel-rust-hooks--last-record nil)
        (gptel-rust-hooks--last-sandbox nil)
        (gptel-rust-hooks--last-by nil))
    (gptel-rust-hooks--decide (gptel-rust-hooks--policy-for rules cwd) call cwd)))

(defun gptel-rust-hooks--explain-data (policy call cwd)
  "Return how POLICY decides CALL from CWD, the module's explanation as a plist."
  (json-parse-string (gptel-rust-hooks--mod-explain
                      policy call cwd (and (gptel-rust-hooks--sandboxes-p policy)
                                           (gptel-rust-hooks--sandbox-context cwd)))
                     :object-type 'plist :array-type 'list
                     :null-object nil :false-object nil))

(defun gptel-rust-hooks--schema-report (call)
  "Return what CALL's tool declares and how CALL fits it, as a plist, or nil.
Nil when schemas are not checked or gptel does not know the tool."
  (when-let* ((tool (and gptel-rust-hooks-validate-calls
                         (gptel-rust-hooks--tool-spec (plist-get call :name))))
              (schema (gptel-rust-hooks--tool-schema tool))
              ((listp schema)))
    (list :tool (plist-get call :name)
          :arguments (mapcar (lambda (a) (list :name (nth 0 a) :type (nth 1 a)
                                               :required (and (nth 2 a) t)))
                             schema)
          :problems (gptel-rust-hooks--schema-problems schema (plist-get call :args)))))

(defun gptel-rust-hooks-explain (call &optional rules display)
  "Return which rules match CALL and why, and the outcome, as a plist.
CALL and RULES are as for `gptel-rust-hooks-evaluate'.

The plist has, among others: `:rules', every rule with whether it
matched and, for each of its matchers, what it was checked on (`:on',
such as the normalized path or the simple command and the prefix that
matched) and what it asks for (`:want'); `:edits', the argument edits
of the matching rules; `:decision-before-edits' and
`:decision-after-edits'; `:decision', `:deciding-rule' and `:reason';
`:schema', the tool's declared arguments and how CALL fits them;
`:notes', what untrusted policies had ignored; and `:answer', the plist
the pre-tool hook returns.

Interactively, explain the call at point in the log buffer, or one read
from the minibuffer (a tool name and JSON arguments), and DISPLAY it in
the buffer *gptel-rust-hooks-explain*."
  (interactive (list (gptel-rust-hooks-ui--read-call) nil t))
  (let* ((gptel-rust-hooks--last-record nil)
         (gptel-rust-hooks--last-sandbox nil)
         (gptel-rust-hooks--last-by nil)
         (gptel-rust-hooks--last-schema nil)
         (cwd (gptel-rust-hooks--call-cwd call))
         (policy (gptel-rust-hooks--policy-for rules cwd))
         (data (gptel-rust-hooks--explain-data policy call cwd))
         (answer (gptel-rust-hooks--decide policy call cwd))
         (data (append data (list :schema (gptel-rust-hooks--schema-report call)
                                  :schema-failure gptel-rust-hooks--last-schema
                                  :answer answer))))
    (when display
      (gptel-rust-hooks-ui--show-explanation data call rules))
    data))

(defun gptel-rust-hooks--save-option (symbol value)
  "Set the user option SYMBOL to VALUE and save it for future sessions.
In an Emacs started without an init file, it is only set.  Return the
file it was saved in, or nil."
  (require 'cus-edit)
  (let ((file (custom-file t)))
    (if file
        (let ((inhibit-message t))
          (customize-save-variable symbol value)
          file)
      (customize-set-variable symbol value)
      nil)))

(defun gptel-rust-hooks--read-project-file ()
  "Return the project policy file for `default-directory', or signal."
  (or (gptel-rust-hooks--project-file default-directory)
      (user-error "No %s in %s or above" gptel-rust-hooks-project-file
                  (abbreviate-file-name default-directory))))

;;;###autoload
(defun gptel-rust-hooks-trust-project (file &optional confirm)
  "Trust the project policy FILE as it is now: let its rules allow and edit calls.
Record FILE's SHA-256 in `gptel-rust-hooks-trusted-project-files' and save
it; a later change to the file makes it untrusted again.  Interactively,
FILE is the project's .gptel-hooks.json above `default-directory', shown
first; with CONFIRM, ask before trusting.  Return the SHA-256."
  (interactive
   (progn
     (gptel-rust-hooks--load-module)
     (let ((file (gptel-rust-hooks--read-project-file)))
       (view-file-other-window file)
       (list file t))))
  (let* ((file (expand-file-name file))
         (sha (or (gptel-rust-hooks--file-sha256 file)
                  (user-error "Cannot read %s" file))))
    (when (and confirm
               (not (yes-or-no-p
                     (format "Let %s (SHA-256 %s…) allow and edit calls? "
                             (abbreviate-file-name file) (substring sha 0 12)))))
      (user-error "Not trusted"))
    (let ((saved (gptel-rust-hooks--save-option
                  'gptel-rust-hooks-trusted-project-files
                  (cons (cons file sha)
                        (cl-remove file gptel-rust-hooks-trusted-project-files
                                   :key #'car :test #'equal)))))
      (message "gptel-rust-hooks: trusted %s, %s" (abbreviate-file-name file)
               (if saved (format "saved in %s" (abbreviate-file-name saved))
                 "for this session only (no init file to save it in)")))
    sha))

;;;###autoload
(defun gptel-rust-hooks-untrust-project (file)
  "Forget that the project policy FILE was trusted."
  (interactive (list (gptel-rust-hooks--read-project-file)))
  (let ((file (expand-file-name file)))
    (gptel-rust-hooks--save-option
     'gptel-rust-hooks-trusted-project-files
     (cl-remove file gptel-rust-hooks-trusted-project-files :key #'car :test #'equal))
    (when (gptel-rust-hooks-project-trusted-p file)
      (message "gptel-rust-hooks: %s is still trusted by `gptel-rust-hooks-trusted-directories'"
               (abbreviate-file-name file)))))

;;;; Mode

(defvar gptel-rust-hooks--lighter-map nil
  "The keymap of the mode-line lighter, made once.")

(defun gptel-rust-hooks--lighter ()
  "Return the mode-line lighter: \" GRH\", or \" GRH!\" with a problem."
  (let ((problem (or (and (not (gptel-rust-hooks--module-loaded-p))
                          "the module is not loaded: every tool call is blocked")
                     (and gptel-rust-hooks--rules-error
                          (format "%s" (cadr gptel-rust-hooks--rules-error)))
                     gptel-rust-hooks--broken)))
    (if problem
        (propertize " GRH!" 'face 'error
                    'help-echo (concat "gptel-rust-hooks: " problem
                                       "\nmouse-1: the permissions screen")
                    'local-map (gptel-rust-hooks--lighter-map))
      (propertize " GRH" 'help-echo "gptel-rust-hooks decides every tool call\n\
mouse-1: the permissions screen"
                  'local-map (gptel-rust-hooks--lighter-map)))))

(defun gptel-rust-hooks--lighter-map ()
  "Return the keymap of the mode-line lighter."
  (or gptel-rust-hooks--lighter-map
      (setq gptel-rust-hooks--lighter-map
            (make-mode-line-mouse-map 'mouse-1 #'gptel-rust-hooks))))

;;;###autoload
(define-minor-mode gptel-rust-hooks-mode
  "Decide every gptel tool call by `gptel-rust-hooks-rules'.
On, it loads the module, compiles the rules, adds
`gptel-rust-hooks-pre-tool-call' and `gptel-rust-hooks-post-tool-call'
to gptel's hooks, advises gptel's tool runner so that every tool call
gptel runs is decided (plain `gptel-request' and custom state machines
included, see the README's \"Which calls are decided\") and offers
\"always allow\" on gptel's tool-call confirmation prompt; off, it
removes exactly those.

The mode line shows \"GRH\" while it is on, \"GRH!\" when the
module is missing or rules in force failed to compile."
  :global t
  :lighter (:eval (gptel-rust-hooks--lighter))
  :group 'gptel-rust-hooks
  (if gptel-rust-hooks-mode
      (progn
        (condition-case err
            (progn (gptel-rust-hooks--load-module)
                   (gptel-rust-hooks--current-policy))
          (error
           ;; Stay on: every call is blocked until this is fixed.
           (display-warning 'gptel-rust-hooks
                            (format "%s; every tool call will be blocked until this is fixed"
                                    (gptel-rust-hooks--error-text err))
                            :error)
           (unless (gptel-rust-hooks--module-loaded-p)
             (gptel-rust-hooks--offer-module-later))))
        (add-hook 'gptel-pre-tool-call-functions #'gptel-rust-hooks-pre-tool-call)
        (add-hook 'gptel-post-tool-call-functions #'gptel-rust-hooks-post-tool-call)
        (gptel-rust-hooks--guard-enable)
        (gptel-rust-hooks--sandbox-enable)
        (gptel-rust-hooks-ui--enable))
    (remove-hook 'gptel-pre-tool-call-functions #'gptel-rust-hooks-pre-tool-call)
    (remove-hook 'gptel-post-tool-call-functions #'gptel-rust-hooks-post-tool-call)
    (gptel-rust-hooks--guard-disable)
    (gptel-rust-hooks--sandbox-disable)
    (gptel-rust-hooks-ui--disable)))

(provide 'gptel-rust-hooks)
(require 'gptel-rust-hooks-log)

;; The explain buffer and "always allow" live in their own file, which
;; requires this one; so do the presets and the rules added from the
;; prompt, and the permissions screen.
(cl-eval-when (load eval)
  (require 'gptel-rust-hooks-sources)
  (require 'gptel-rust-hooks-ui))
;;; gptel-rust-hooks.el ends here
