;;; gptel-rust-hooks-sources.el --- Presets and rules added from the prompt -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The gptel-rust-hooks developers

;; Author: The gptel-rust-hooks developers
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

;; Two sources of rules besides `gptel-rust-hooks-rules' and the JSON
;; policy files, loaded with gptel-rust-hooks:
;;
;; - Presets (`gptel-rust-hooks-preset'): a ready-made policy for the
;;   project a call comes from, compiled before the user's rules, which
;;   extend it.
;;
;; - The rules added from gptel's prompt for a project ("always allow
;;   ... this project"), kept in `gptel-rust-hooks-prompt-rules-file', a
;;   file of their own that no init file or Customize rewrites.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'gptel-rust-hooks)

;;;; Customization

(defcustom gptel-rust-hooks-preset-read-tools
  '("read_file" "read_text_file" "read_multiple_files" "read_media_file"
    "list_directory" "list_directory_with_sizes" "directory_tree" "search_files"
    "get_file_info" "list_files" "find_files" "view_file" "grep" "glob"
    "Read" "LS" "Glob" "Grep")
  "Tools that only read files: a preset allows them on paths inside the project.
The defaults cover gptel's README, gptel-agent, llm-tool-collection and
the MCP filesystem server."
  :type '(repeat string)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-preset-write-tools
  '("write_file" "edit_file" "create_file" "create_directory" "make_directory"
    "move_file" "str_replace" "Write" "Edit" "MultiEdit" "Insert" "Mkdir")
  "Tools that write files: the preset `workspace' allows them inside the project."
  :type '(repeat string)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-preset-read-commands
  '("git status" "git diff" "git log" "git show" "git blame" "git ls-files"
    "git rev-parse" "git describe" "git show-ref" "git rev-list"
    "pwd" "ls" "cat" "head" "tail" "wc" "grep" "rg" "file" "stat" "diff" "cmp"
    "comm" "du" "cut" "tr" "nl" "paste" "od" "basename" "dirname" "realpath"
    "readlink" "which" "seq" "sleep" "echo" "printf" "true" "false" "test" "["
    "cd" "pushd" "popd"
    "git branch --list" "git branch --show-current" "git tag -l" "git tag --list"
    "git stash list" "md5sum" "sha1sum" "sha256sum" "sha512sum")
  "Shell commands that only read: a preset allows them run from the project.
Each is a command prefix, read word by word; the command line must be
certain and every simple command of it allowed.  They may read files
outside the project too, as `read-only' tools of other agents do;
secrets stay denied (and hidden, when sandboxed).  A line that writes
\(a redirection `>' to a file, an option `--ou...' such as git's
`--output') is not allowed by the preset: it is asked; `2>/dev/null',
`2>&1' and a `>' inside quotes are no writes.  Add only commands none of
whose options writes a file: `sort -o', `tree -o', `find -delete' and
sed's `w' do, for some.  A prefix allows every word after it: `git
branch --list' is here, as git refuses it with `-d', `-m' or a new
branch's name, but not `git branch'.  A command an option makes a
program run (rg's `--pre CMD') is a command of its own, which this list
must allow too."
  :type '(repeat string)
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-preset-secrets
  '("~/.ssh" "~/.ssh/**" "~/.aws" "~/.aws/**" "~/.gnupg" "~/.gnupg/**"
    "~/.config/gcloud/**" "~/.azure/**" "~/.kube/config" "~/.docker/config.json"
    "~/.netrc" "~/.authinfo" "~/.authinfo.gpg" "~/.git-credentials"
    "~/.config/git/credentials" "~/.pgpass"
    "~/.pypirc" "~/.npmrc" "~/.config/gh/hosts.yml" "~/.password-store/**"
    "~/.cargo/credentials" "~/.cargo/credentials.toml" "~/.vault-token"
    "~/.terraform.d/credentials.tfrc.json" "~/.config/hub"
    "/proc/*/environ" "/proc/self/environ"
    "~/.my.cnf" "~/.bash_history" "~/.zsh_history" "~/.s3cfg" "~/.gem/credentials"
    "~/.config/github-copilot/**" "~/.config/rclone/rclone.conf"
    ".env" ".env~" ".env.[!est]*" ".env.e[!x]*" ".env.ex[!a]*" ".env.s[!a]*"
    ".env.sa[!m]*" ".env.t[!e]*" ".env.te[!m]*" ".env.*.local" ".envrc"
    "id_rsa" "id_ecdsa" "id_ed25519" "id_dsa"
    "id_rsa[!.]*" "id_ecdsa[!.]*" "id_ed25519[!.]*" "id_dsa[!.]*"
    "id_rsa.[!p]*" "id_ecdsa.[!p]*" "id_ed25519.[!p]*" "id_dsa.[!p]*"
    "*.key" "privkey.pem" "*-key.pem" "*.p12" "*.pfx" "*.jks" "credentials.json")
  "Path globs of secrets that every preset denies to every tool and command.
A glob without a slash matches that name in any directory.  Every
`.env.NAME' is one (`.env.local', `.env.prod', `.env.bak', `.env.dev'),
but the example files (`.env.example', `.env.sample', `.env.template'),
which the bracket globs leave out; every key named after ssh's (`id_rsa',
`id_rsa_github', `id_rsa.bak'), but the public ones (`id_rsa.pub').  Not
`*.pem', which names certificates too (a private key's: `privkey.pem',
`*-key.pem', `*.key')."
  :type '(repeat string)
  :group 'gptel-rust-hooks)

;;;; Declarations for the byte compiler

(declare-function gptel-rust-hooks--mod-compile-layers "ext:gptel-rust-hooks-module"
                  (layers options))

;;;; Internal variables

(defconst gptel-rust-hooks--project-markers
  '(".git" ".hg" ".jj" ".project" ".gptel-hooks.json")
  "Files or directories whose presence makes a directory a project's root.")

(defvar gptel-rust-hooks--preset-memo (make-hash-table :test #'equal)
  "(PRESET ROOT SANDBOX) -> the preset's layer for the project ROOT.
The same layer for the same key, so that its compiled policy is reused.")

(defvar gptel-rust-hooks--prompt-rules-read nil
  "(FILE . STAMP) of the prompt rules file as last read, or nil.")

;;;; Disabled rules

(defvar gptel-rust-hooks--enabled-memo (make-hash-table :test #'eq :weakness 'key)
  "Rule lists with disabled rules -> the same lists without them.")

(defun gptel-rust-hooks--enabled (rules)
  "Return RULES without those marked `:disabled', and without that key.
A list with no disabled rule is returned as it is; another gets the
same new list each time, so that compiled policies are reused."
  (if (not (and (proper-list-p rules)
                (cl-some (lambda (r) (and (proper-list-p r) (plist-member r :disabled)))
                         rules)))
      rules
    (or (gethash rules gptel-rust-hooks--enabled-memo)
        (puthash rules
                 (cl-loop for r in rules
                          unless (and (proper-list-p r) (plist-get r :disabled))
                          collect (if (and (proper-list-p r) (plist-member r :disabled))
                                      (gptel-rust-hooks--plist-without r :disabled)
                                    r))
                 gptel-rust-hooks--enabled-memo))))

(defun gptel-rust-hooks--plist-without (plist key)
  "Return a copy of PLIST without KEY."
  (cl-loop for (k v) on plist by #'cddr
           unless (eq k key) append (list k v)))

;;;; Emacs regexp habits

(defconst gptel-rust-hooks--regexp-keys
  '(:tool-regexp :command-regexp :redact)
  "The rule keys whose values are Rust regexps (besides `:args' (:regexp RE)).")

(defun gptel-rust-hooks--emacs-regexp-p (re)
  "Return the Rust form of RE when it looks written in Emacs syntax, else nil.
That is when it has an Emacs alternation, both parentheses of an Emacs
group, or an Emacs anchor of the start or end of the text."
  (when (and (stringp re)
             (or (string-match-p "\\\\|" re)
                 (and (string-match-p "\\\\(" re) (string-match-p "\\\\)" re))
                 (string-match-p "\\\\[`']" re)))
    (let ((case-fold-search nil))
      (replace-regexp-in-string
       "\\\\\\([(|){}`']\\)"
       (lambda (m)
         (pcase (aref m 1)
           (?` "\\A") (?' "\\z")
           (c (string c))))
       (replace-regexp-in-string "\\\\(\\?:" "(?:" re t t)
       t t))))

(defun gptel-rust-hooks--rule-regexps (rule)
  "Return ((KEY . RE) ...): the regexps of the rule plist RULE."
  (when (proper-list-p rule)
    (append
     (cl-loop for key in gptel-rust-hooks--regexp-keys
              for value = (plist-get rule key)
              append (mapcar (lambda (re) (cons key re))
                             (if (listp value) value (list value))))
     (let ((args (plist-get rule :args)))
       (and (proper-list-p args)
            (cl-loop for (name matcher) on args by #'cddr
                     when (and (consp matcher) (eq (car matcher) :regexp))
                     collect (cons (format ":args %s (:regexp ...)" name)
                                   (cadr matcher))))))))

(defun gptel-rust-hooks--regexp-warnings (rules)
  "Return the warnings for the Emacs-syntax regexps of RULES, a list of strings."
  (when (proper-list-p rules)
    (cl-loop for rule in rules
             for i from 1
             append
             (cl-loop for (key . re) in (gptel-rust-hooks--rule-regexps rule)
                      for rust = (gptel-rust-hooks--emacs-regexp-p re)
                      when rust
                      collect
                      (format "rule %d%s: %s `%s` looks like an Emacs regexp, which \
never matches here: write it in Rust regex syntax, `%s`"
                              i (if (stringp (plist-get rule :id))
                                    (format " (`%s`)" (plist-get rule :id))
                                  "")
                              key re rust)))))

(defun gptel-rust-hooks--check-regexps (rules source)
  "Warn once about each Emacs-syntax regexp in RULES, from SOURCE (a string)."
  (dolist (w (gptel-rust-hooks--regexp-warnings rules))
    (gptel-rust-hooks--report (format "gptel-rust-hooks: %s: %s" source w))))

(defun gptel-rust-hooks--json-rules (text)
  "Return the rules of the JSON policy TEXT as Lisp plists, or nil."
  (let ((rules (ignore-errors
                 (json-parse-string text :object-type 'plist :array-type 'list
                                    :null-object nil :false-object nil))))
    (and (proper-list-p rules) rules)))

;;;; Policy files, checked when set

(defun gptel-rust-hooks--policy-file-problem (file)
  "Return why the policy FILE cannot be used, or nil.
It must exist and hold JSON; once the module is loaded, its rules must
compile."
  (let ((file (expand-file-name file)))
    (cond
     ((not (file-readable-p file)) (format "policy file %s is missing or unreadable" file))
     (t
      (let ((text (with-temp-buffer
                    (set-buffer-multibyte nil)
                    (insert-file-contents-literally file)
                    (decode-coding-string (buffer-string) 'utf-8 t))))
        (condition-case err
            (progn
              ;; Signals `json-error' on a trailing comma, for one.
              (ignore (json-parse-string text))
              (when (gptel-rust-hooks--module-loaded-p)
                (gptel-rust-hooks--mod-compile-layers
                 (list (list :source file :trusted t :json text))
                 (gptel-rust-hooks--options)))
              (gptel-rust-hooks--check-regexps (gptel-rust-hooks--json-rules text) file)
              nil)
          (json-error (format "policy file %s is not valid JSON: %s"
                              file (error-message-string err)))
          (gptel-rust-hooks-rule-error (cadr err))))))))

(defun gptel-rust-hooks--set-policy-files (symbol value)
  "Set SYMBOL to the policy files VALUE after checking each of them.
A file that is missing, is not JSON or does not compile signals
`gptel-rust-hooks-rule-error' and changes nothing."
  (unless (listp value)
    (signal 'gptel-rust-hooks-rule-error
            (list "gptel-rust-hooks-policy-files: expected a list of files")))
  (dolist (file value)
    (when-let* ((problem (if (stringp file)
                             (gptel-rust-hooks--policy-file-problem file)
                           (format "%S is not a file name" file))))
      (signal 'gptel-rust-hooks-rule-error
              (list (format "gptel-rust-hooks: %s; the policy files in force stay in force"
                            problem)))))
  (set-default symbol value))

;;;; Presets

(defun gptel-rust-hooks--preset-root (directory)
  "Return the root of the project DIRECTORY lies in, or nil.
That is the nearest directory above DIRECTORY (or itself) holding one of
`gptel-rust-hooks--project-markers', else DIRECTORY; nil when that is
the home directory, /, or a remote directory."
  (when (and (stringp directory) (not (file-remote-p directory)))
    (let* ((dir (file-name-as-directory (expand-file-name directory)))
           (root (file-name-as-directory
                  (expand-file-name
                   (or (cl-some (lambda (m) (locate-dominating-file dir m))
                                gptel-rust-hooks--project-markers)
                       dir))))
           (true (file-name-as-directory (file-truename root))))
      (unless (member true (list (file-name-as-directory (file-truename "~")) "/"))
        true))))

(defun gptel-rust-hooks--glob-quote (string)
  "Return STRING with the glob special characters escaped."
  (replace-regexp-in-string "[][*?{}\\\\!]" "\\\\\\&" string))

(defun gptel-rust-hooks--dir-globs (dir)
  "Return the path globs of DIR and everything below it."
  (let ((dir (gptel-rust-hooks--glob-quote (directory-file-name (expand-file-name dir)))))
    (list dir (concat (if (equal dir "/") "" dir) "/**"))))

(defun gptel-rust-hooks--sandbox-here-p ()
  "Return non-nil when bubblewrap can be found to sandbox calls."
  (and (eq system-type 'gnu/linux)
       (stringp gptel-rust-hooks-sandbox-program)
       (if (string-match-p "/" gptel-rust-hooks-sandbox-program)
           (file-executable-p gptel-rust-hooks-sandbox-program)
         (executable-find gptel-rust-hooks-sandbox-program))
       t))

(defconst gptel-rust-hooks--no-write-regexp
  (concat "^(?:"
          "'[^']*'"                              ; single quotes: data
          "|\"(?:[^\"\\\\$`]|\\$[A-Za-z_][A-Za-z0-9_]*|\\$\\{[A-Za-z_][A-Za-z0-9_]*\\})*\"" ; double quotes, only $NAME/${NAME} expanded
          "|[0-9]*>&(?:[0-9]+|-)(?:[\\s;&|)]|$)"  ; 2>&1, >&2, >&-
          "|[0-9&]?>>?[ \t]*/dev/null(?:[\\s;&|)]|$)" ; to /dev/null
          "|[^'\">-]|-[^'\">-]|--[^'\">o]|--o[^u'\">]" ; no other > or --ou
          ")*-*$")
  "A Rust regexp for a command line with no write by redirection or `--ou...'.
A redirection `>' to a file, or an option starting `--ou' (git's
`--output'), makes a line write; `2>/dev/null', `2>&1', `>&2' and a
`>' inside single quotes or inside double quotes where nothing but
`$NAME' or `${NAME}' is expanded (a value is never read again as
syntax; a `$(...)' could write) do not.  The preset allows read-only
commands only on lines this matches, as an allow rule's path matchers
do not see a command's words.")

(defconst gptel-rust-hooks--no-output-option-regexp
  "^(?:[^-]|-[^-]|--[^o]|--o[^u])*-*$"
  "A Rust regexp for a simple command none of whose words starts `--ou'.
It is matched against the command's words as the shell gives them,
quotes removed and values the line gave put in (`git log \='--output=F\='',
`v=--output=F; git log \"$v\"'): git's `--output' writes a file.")

(defun gptel-rust-hooks--preset-rules (preset root sandbox)
  "Return the rules of PRESET for the project ROOT (nil for none).
With SANDBOX, the shell commands they allow run sandboxed."
  (let* ((in (and root (gptel-rust-hooks--dir-globs root)))
         (temp (directory-file-name (expand-file-name temporary-file-directory)))
         (confined (and sandbox '(:sandbox t))))
    (append
     `((:id "secrets"
        :path ,gptel-rust-hooks-preset-secrets
        :decision deny
        :reason "This file holds secrets (keys, tokens, credentials): it is not for the model; ask the user."
        :examples (:match ((:name "shell" :args (:command "cat ~/.ssh/id_rsa"))
                           (:name "read_file" :args (:path "/srv/app/.env"))
                           (:name "read_file" :args (:path "/srv/app/.envrc"))
                           (:name "read_file" :args (:path "/srv/app/.env.staging"))
                           (:name "shell" :args (:command "cat /srv/app/tls/server.key"))
                           (:name "shell" :args (:command "cat ~/.cargo/credentials.toml"))
                           (:name "read_file" :args (:path "/srv/app/.env.bak"))
                           (:name "read_file" :args (:path "/srv/app/.env.dev"))
                           (:name "read_file" :args (:path "/srv/app/.env.save"))
                           (:name "read_file" :args (:path "/srv/app/.env.testing"))
                           (:name "shell" :args (:command "cat /srv/app/deploy/id_rsa_github")))
                   :no-match ((:name "read_file" :args (:path "/srv/app/.env.example"))
                              (:name "read_file" :args (:path "/srv/app/.env.sample"))
                              (:name "read_file" :args (:path "/srv/app/.env.template"))
                              (:name "read_file" :args (:path "/srv/app/ca.pem"))
                              (:name "read_file" :args (:path "/srv/app/deploy/id_rsa.pub"))))))
     (when root
       `((:id "recursive-delete-outside-project"
          ;; rm takes any unique prefix of a long option: `--r' is `--recursive'.
          :command-regexp "^rm\\s(.*\\s)?(-[a-zA-Z]*[rR][a-zA-Z]*|--r[a-z]*)(\\s|$)"
          :path-outside (,(directory-file-name root) ,temp)
          :decision deny
          :reason ,(format "Recursive deletes outside the project %s are not allowed."
                           (abbreviate-file-name root)))
         (:id "read-in-project"
          :tool ,gptel-rust-hooks-preset-read-tools
          :path ,in
          :decision allow)
         ,@(mapcar (lambda (key)
                     `(:id ,(format "read-only-commands (%s)" key)
                       :command-prefix ,gptel-rust-hooks-preset-read-commands
                       :command-regexp ,gptel-rust-hooks--no-output-option-regexp
                       :command-keys (,key)
                       :args (,(intern (concat ":" key))
                              (:regexp ,gptel-rust-hooks--no-write-regexp))
                       :cwd ,in
                       :decision allow
                       ,@confined))
                   gptel-rust-hooks-command-keys)))
     (when (and root (eq preset 'workspace))
       `((:id "write-in-project"
          :tool ,gptel-rust-hooks-preset-write-tools
          :path ,in
          :decision allow)
         (:id "git-internals"
          :tool ,gptel-rust-hooks-preset-write-tools
          ;; Any .git in the project, not only its own: `git -C sub' or a
          ;; command run in sub/ obeys sub/.git/config (core.fsmonitor, hooks).
          :path ,(mapcar (lambda (g) (concat (car in) g))
                         '("/.git" "/.git/**" "/**/.git" "/**/.git/**"))
          :decision ask
          :reason "A write into a .git directory or file (hooks, config) can make git run code later."))))))

(defun gptel-rust-hooks--preset-layer (preset directory)
  "Return the rule layer of PRESET for a call from DIRECTORY.
Signal `gptel-rust-hooks-rule-error' for an unknown PRESET."
  (unless (memq preset '(read-only workspace))
    (setq gptel-rust-hooks--broken
          (format "gptel-rust-hooks-preset: unknown preset `%s`" preset))
    (signal 'gptel-rust-hooks-rule-error
            (list (format "gptel-rust-hooks: gptel-rust-hooks-preset: unknown preset `%s`, \
expected read-only or workspace" preset))))
  (let* ((root (gptel-rust-hooks--preset-root directory))
         (key (list preset root (gptel-rust-hooks--sandbox-here-p))))
    (or (gethash key gptel-rust-hooks--preset-memo)
        (puthash key
                 (list :source (format "preset: %s" preset) :trusted t
                       :rules (gptel-rust-hooks--preset-rules preset root (nth 2 key)))
                 gptel-rust-hooks--preset-memo))))

;;;; Rules added from the prompt

(defun gptel-rust-hooks--prompt-rules-stamp (file)
  "Return what tells whether FILE changed, or nil when it is missing."
  (when-let* ((attrs (file-attributes file)))
    (list (file-attribute-modification-time attrs) (file-attribute-size attrs))))

(defun gptel-rust-hooks--read-prompt-rules (file)
  "Return the rules in FILE, a Lisp list of rule plists; nil when missing.
Signal `gptel-rust-hooks-rule-error' when FILE cannot be read as one."
  (when (file-exists-p file)
    (let ((rules (condition-case err
                     (with-temp-buffer
                       (insert-file-contents file)
                       (goto-char (point-min))
                       (prog1 (read (current-buffer))
                         (skip-chars-forward " \t\n")
                         (while (looking-at ";") (forward-line 1)
                                (skip-chars-forward " \t\n"))
                         (unless (eobp) (error "Text after the list"))))
                   (end-of-file nil)
                   (error (signal 'gptel-rust-hooks-rule-error
                                  (list (format "gptel-rust-hooks: %s: %s"
                                                file (error-message-string err))))))))
      (unless (and (proper-list-p rules) (cl-every #'proper-list-p rules))
        (signal 'gptel-rust-hooks-rule-error
                (list (format "gptel-rust-hooks: %s: expected a list of rules" file))))
      rules)))

(defun gptel-rust-hooks--prompt-rules ()
  "Return the rules added from the prompt, read again when their file changed.
A file that cannot be read or does not compile is reported once and
adds no rule: these rules only ever allowed calls."
  (let* ((file (expand-file-name gptel-rust-hooks-prompt-rules-file))
         (stamp (gptel-rust-hooks--prompt-rules-stamp file)))
    (unless (and (not (eq gptel-rust-hooks--prompt-rules :unread))
                 (equal gptel-rust-hooks--prompt-rules-read (cons file stamp)))
      (setq gptel-rust-hooks--prompt-rules-read (cons file stamp))
      (setq gptel-rust-hooks--prompt-rules
            (condition-case err
                (let ((rules (gptel-rust-hooks--read-prompt-rules file)))
                  (when rules
                    (gptel-rust-hooks--compile rules)
                    (gptel-rust-hooks--check-regexps rules file))
                  rules)
              (gptel-rust-hooks-rule-error
               (gptel-rust-hooks--report
                (format "%s; the rules added from the prompt are not in force"
                        (let ((text (cadr err)))
                          (if (string-prefix-p "gptel-rust-hooks: " text) text
                            (concat "gptel-rust-hooks: " file ": " text)))))
               nil))))
    gptel-rust-hooks--prompt-rules))

(defun gptel-rust-hooks--write-prompt-rules (rules)
  "Write RULES to `gptel-rust-hooks-prompt-rules-file' and put them in force.
The file is written under a new name and renamed into place.  Return
the file."
  (let* ((file (expand-file-name gptel-rust-hooks-prompt-rules-file))
         (dir (file-name-directory file)))
    (make-directory dir t)
    (let ((tmp (make-temp-file (expand-file-name ".gptel-rust-hooks-rules-" dir))))
      (unwind-protect
          (progn
            (with-temp-file tmp
              (insert ";; -*- mode: lisp-data; -*-\n"
                      ";; Rules added from gptel's prompt by gptel-rust-hooks, "
                      "a list of rule plists.\n"
                      ";; Edit with M-x gptel-rust-hooks (the permissions screen).\n")
              (let ((print-length nil) (print-level nil) (print-escape-newlines t))
                (insert "(")
                (let ((first t))
                  (dolist (rule rules)
                    (unless first (insert "\n "))
                    (setq first nil)
                    (prin1 rule (current-buffer))))
                (insert ")\n")))
            (rename-file tmp file t))
        (when (file-exists-p tmp) (ignore-errors (delete-file tmp)))))
    (setq gptel-rust-hooks--prompt-rules rules
          gptel-rust-hooks--prompt-rules-read
          (cons file (gptel-rust-hooks--prompt-rules-stamp file)))
    file))

(defun gptel-rust-hooks--add-prompt-rule (rule)
  "Add RULE to the rules added from the prompt, saved in their file.
Return the file."
  (gptel-rust-hooks--write-prompt-rules
   (append (gptel-rust-hooks--prompt-rules) (list rule))))

(provide 'gptel-rust-hooks-sources)
;;; gptel-rust-hooks-sources.el ends here
