;;; gptel-rust-hooks-ui.el --- Explain buffer and "always allow" for gptel-rust-hooks -*- lexical-binding: t; -*-

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

;; The interactive side of gptel-rust-hooks, loaded with it:
;;
;; - `gptel-rust-hooks-explain', called as a command, shows in the buffer
;;   *gptel-rust-hooks-explain* which rules matched a call and why; the
;;   deciding rule is highlighted and each rule is a button that visits
;;   its definition (the rule alone, to edit in its source, or the JSON
;;   file at the rule's line).
;;
;; - When gptel asks to confirm a tool call, `gptel-rust-hooks-always-allow'
;;   (C-c C-a on the prompt, or `a' in the minibuffer prompt) adds an allow
;;   rule for this exact call, this command prefix or this tool under a
;;   directory, for this buffer, this Emacs session or the project (saved
;;   in `gptel-rust-hooks-prompt-rules-file' with a `:cwd' matcher).  An
;;   allow rule never overrides a deny, stop or ask rule; C-c C-v on the
;;   prompt visits the rule that asks.

;;; Code:

(require 'cl-lib)
(require 'json)
(require 'subr-x)
(require 'button)
(require 'gptel-rust-hooks)

;;;; Customization

(defface gptel-rust-hooks-deciding
  '((t :inherit highlight :weight bold :extend t))
  "Face of the rule whose decision stands, in the explain buffer."
  :group 'gptel-rust-hooks)

(defface gptel-rust-hooks-matched
  '((t :inherit success))
  "Face of a matcher or rule that matched, in the explain buffer."
  :group 'gptel-rust-hooks)

(defface gptel-rust-hooks-unmatched
  '((t :inherit shadow))
  "Face of a matcher or rule that did not match, in the explain buffer."
  :group 'gptel-rust-hooks)

(defface gptel-rust-hooks-blocking
  '((t :inherit error))
  "Face of the decisions deny and stop, and of problems, in the explain buffer."
  :group 'gptel-rust-hooks)

(defface gptel-rust-hooks-blocked-block
  '((t :inherit error))
  "Face of the first line of a tool block in a chat whose call was blocked."
  :group 'gptel-rust-hooks)

(defface gptel-rust-hooks-heading
  '((t :inherit bold))
  "Face of the field names in the explain buffer."
  :group 'gptel-rust-hooks)

;;;; Keymaps

(defvar gptel-rust-hooks-explain-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map (make-composed-keymap button-buffer-map special-mode-map))
    (define-key map "n" #'forward-button)
    (define-key map "p" #'backward-button)
    map)
  "Keymap of `gptel-rust-hooks-explain-mode'.")

(defvar gptel-rust-hooks-tool-call-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-a") #'gptel-rust-hooks-always-allow)
    (define-key map (kbd "C-c C-v") #'gptel-rust-hooks-visit-asking-rule)
    map)
  "Keys added to gptel's tool-call confirmation prompt.")

;;;; Internal variables

(defconst gptel-rust-hooks-ui--explain-buffer "*gptel-rust-hooks-explain*"
  "The name of the buffer that shows explanations.")

(defvar-local gptel-rust-hooks-ui--explained nil
  "The (CALL . RULES) this explain buffer shows.")

;;;; Declarations for the byte compiler

(defvar gptel-tool-call-actions-map)
(defvar gptel-backend)
(defvar gptel-model)
(defvar gptel--known-tools)

(declare-function gptel-rust-hooks-log-call-at-point "gptel-rust-hooks-log" ())
(declare-function gptel-rust-hooks-menu--entry-for "gptel-rust-hooks-menu"
                  (kind index &optional directory))

;; The permissions screen needs transient, loaded when it is first used.
(autoload 'gptel-rust-hooks "gptel-rust-hooks-menu"
  "Show the permissions screen: the policy in force here, by source." t)
(autoload 'gptel-rust-hooks-edit-rule "gptel-rust-hooks-menu"
  "Edit ENTRY's rule where it lives." t)
(autoload 'gptel-rust-hooks-menu--entry-for "gptel-rust-hooks-menu")

(declare-function gptel-tool-name "gptel-request" (tool))
(declare-function gptel-tool-args "gptel-request" (tool))
(declare-function gptel-tool-p "gptel-request" (object))
(declare-function gptel-backend-name "gptel-request" (backend))
(declare-function gptel--accept-tool-calls "gptel" (&optional tool-calls ov))
(declare-function gptel-fsm-info "gptel-request" (fsm))
(declare-function gptel--display-tool-results "gptel" (tool-results info))
(declare-function gptel--display-tool-calls "gptel" (tool-calls info &optional use-minibuffer))

;;;; Reading a call

(defun gptel-rust-hooks-ui--known-tool-names ()
  "Return the names of the tools gptel knows, for completion."
  (delete-dups
   (append
    (and (boundp 'gptel-tools) (proper-list-p gptel-tools)
         (fboundp 'gptel-tool-p)
         (mapcar #'gptel-tool-name (cl-remove-if-not #'gptel-tool-p gptel-tools)))
    (and (boundp 'gptel--known-tools)
         (cl-loop for (_category . tools) in gptel--known-tools
                  append (mapcar #'car tools))))))

(defun gptel-rust-hooks-ui--parse-json-args (text)
  "Return the argument plist that gptel would read from the JSON object TEXT."
  (let ((args (condition-case err
                  (json-parse-string text :object-type 'plist :array-type 'array
                                     :null-object nil :false-object :json-false)
                (json-error (user-error "Not JSON: %s" (error-message-string err))))))
    (unless (or (null args) (and (consp args) (keywordp (car args))))
      (user-error "The arguments must be a JSON object, such as {\"path\": \"~/x\"}"))
    args))

(defun gptel-rust-hooks-ui--read-call ()
  "Return a call to explain: the one at point in the log, or one read.
The log provides its call at point with `gptel-rust-hooks-log-call-at-point'.
A call read from the minibuffer comes from the current buffer: its
name, gptel backend and model, and `default-directory'."
  (or (gptel-rust-hooks-log-call-at-point)
      (let* ((name (completing-read "Explain a call to tool: "
                                    (gptel-rust-hooks-ui--known-tool-names)))
             (args (gptel-rust-hooks-ui--parse-json-args
                    ;; Typed as is; empty input is {} (a pre-filled {} with
                    ;; point after it made typed JSON invalid).
                    (read-string (format "Arguments of %s, a JSON object (default {}): " name)
                                 nil nil "{}"))))
        (append (list :name name :args args :buffer (buffer-name))
                (and (boundp 'gptel-backend) gptel-backend
                     (list :backend gptel-backend))
                (and (boundp 'gptel-model) gptel-model (list :model gptel-model))
                (list :cwd default-directory)))))

;;;; Explain buffer

(define-derived-mode gptel-rust-hooks-explain-mode special-mode "GRH-Explain"
  "Major mode of the buffer that explains how a tool call is decided.
Each rule is a button that visits its definition; \\[revert-buffer]
explains the call again with the rules now in force.

\\{gptel-rust-hooks-explain-mode-map}"
  (setq-local revert-buffer-function #'gptel-rust-hooks-ui--explain-revert)
  (setq-local truncate-lines t))

(defun gptel-rust-hooks-ui--explain-revert (&rest _)
  "Explain this buffer's call again."
  (pcase-let ((`(,call . ,rules) gptel-rust-hooks-ui--explained))
    (gptel-rust-hooks-explain call rules t)))

(defun gptel-rust-hooks-ui--short (value &optional width)
  "Return VALUE printed on one line, at most WIDTH (default 72) characters."
  (let ((text (if (stringp value) value (prin1-to-string value))))
    (truncate-string-to-width (replace-regexp-in-string "\n" "⮐" text)
                              (or width 72) nil nil "…")))

(defun gptel-rust-hooks-ui--decision-face (decision)
  "Return the face for DECISION, a string or nil."
  (pcase decision
    ((or "deny" "stop") 'gptel-rust-hooks-blocking)
    ("ask" 'warning)
    ("allow" 'gptel-rust-hooks-matched)
    (_ 'gptel-rust-hooks-unmatched)))

(defun gptel-rust-hooks-ui--insert-field (name &rest texts)
  "Insert a line with field NAME and TEXTS."
  (insert (propertize (format "%-10s " name) 'face 'gptel-rust-hooks-heading))
  (apply #'insert texts)
  (insert "\n"))

(defun gptel-rust-hooks-ui--rule-place (rule)
  "Return where RULE (an explained rule plist) is defined, as text."
  (let ((source (plist-get rule :source))
        (index (plist-get rule :index)))
    (pcase source
      ('nil (format "gptel-rust-hooks-rules #%d" index))
      ("session" (format "added for this session #%d" index))
      ("buffer" (format "added for this buffer #%d" index))
      ((pred gptel-rust-hooks-ui--preset-source-p) (format "%s #%d" source index))
      (_ (format "%s%s%s" (abbreviate-file-name source)
                 (if (plist-get rule :line) (format ":%d" (plist-get rule :line)) "")
                 (if (plist-get rule :trusted) "" ", untrusted"))))))

(defun gptel-rust-hooks-ui--mark (matched)
  "Return the mark of a matcher or rule that MATCHED or not."
  (if matched
      (propertize "✓" 'face 'gptel-rust-hooks-matched)
    (propertize "✗" 'face 'gptel-rust-hooks-unmatched)))

(defun gptel-rust-hooks-ui--describe-on (matcher on)
  "Return what MATCHER was checked on, ON, as lines of text."
  (pcase matcher
    ((or "path" "path-outside")
     (if (null on)
         (list "no path in the call")
       (mapcar (lambda (p)
                 (concat (gptel-rust-hooks-ui--mark (plist-get p :matched)) " "
                         (or (plist-get p :path)
                             (format "unreadable: %s" (plist-get p :unreadable)))
                         (format "  (%s `%s`%s%s)"
                                 (plist-get p :from) (plist-get p :key)
                                 (if (equal (plist-get p :raw) (plist-get p :path)) ""
                                   (format ", written %S" (plist-get p :raw)))
                                 (if (plist-get p :lexical)
                                     (format ", lexically %s" (plist-get p :lexical))
                                   ""))))
               on)))
    ((or "command-prefix" "command-regexp")
     (if (null on)
         (list "no command in the call")
       (mapcar (lambda (c)
                 (concat (gptel-rust-hooks-ui--mark (plist-get c :matched)) " "
                         (if (plist-get c :command)
                             (gptel-rust-hooks-ui--short (plist-get c :command) 60)
                           "")
                         (if (plist-get c :prefix)
                             (format "  (prefix `%s`)" (plist-get c :prefix))
                           "")
                         (if (plist-get c :privileged) "  (privileged)" "")
                         (if (plist-get c :opaque)
                             (format "  (cannot be read: %s)" (plist-get c :opaque))
                           "")
                         (if (plist-get c :needs-naming)
                             (format "  (%s)" (plist-get c :needs-naming))
                           "")
                         (if (plist-get c :uncertain)
                             (format "(not certain: %s)" (plist-get c :uncertain))
                           "")
                         (if (plist-get c :truncated)
                             (format "(not read whole: %s)" (plist-get c :truncated))
                           "")))
               on)))
    ("args"
     (list (format "`%s` %s" (plist-get on :key)
                   (if (plist-get on :value)
                       (concat "= " (gptel-rust-hooks-ui--short (plist-get on :value) 60))
                     "absent"))))
    (_ (list (if on (gptel-rust-hooks-ui--short on 60) "none")))))

(defun gptel-rust-hooks-ui--describe-want (matcher want)
  "Return what MATCHER asks for, WANT, as text."
  (pcase matcher
    ("args" (format "`%s` %s" (plist-get want :key)
                    (gptel-rust-hooks-ui--short (plist-get want :matcher) 50)))
    (_ (mapconcat (lambda (w) (if (stringp w) w (gptel-rust-hooks-ui--short w 40)))
                  (if (listp want) want (list want)) ", "))))

(defun gptel-rust-hooks-ui--insert-rule (rule)
  "Insert the explained RULE with its matchers; the deciding rule is highlighted."
  (let ((start (point))
        (matched (plist-get rule :matched))
        (decision (plist-get rule :decision)))
    (insert (if (plist-get rule :deciding) "▶ " "  ")
            (gptel-rust-hooks-ui--mark matched) " ")
    (insert-text-button (plist-get rule :id)
                        'action #'gptel-rust-hooks-ui--visit-rule-button
                        'gptel-rust-hooks-rule rule
                        'follow-link t
                        'help-echo "Visit this rule's definition")
    (insert "  " (propertize (or decision "no decision")
                             'face (gptel-rust-hooks-ui--decision-face decision))
            (propertize (format "  [%s]" (gptel-rust-hooks-ui--rule-place rule))
                        'face 'gptel-rust-hooks-unmatched))
    (when (plist-get rule :deciding)
      (insert "  ← decides"))
    (when (and (plist-member rule :matched-after-edits)
               (plist-get rule :matched-after-edits)
               (not matched))
      (insert "  (matches the edited call)"))
    (insert "\n")
    (let ((effects (plist-get rule :effects)))
      (cl-loop for (key value) on effects by #'cddr
               do (insert (format "      %s %s\n" key (gptel-rust-hooks-ui--short value 60)))))
    (when-let* ((unsure (plist-get rule :unsure)))
      (insert (format "      unsure match, so it decides %s: %s\n"
                      (or (plist-get rule :unsure-decision) "ask")
                      (mapconcat #'identity unsure "; "))))
    (dolist (m (plist-get rule :matchers))
      (let* ((name (plist-get m :matcher))
             (lines (gptel-rust-hooks-ui--describe-on name (plist-get m :on))))
        (insert (format "      %s %-15s " (gptel-rust-hooks-ui--mark (plist-get m :matched)) name)
                (car lines)
                (propertize (format "   wants %s"
                                    (gptel-rust-hooks-ui--describe-want name (plist-get m :want)))
                            'face 'gptel-rust-hooks-unmatched)
                "\n")
        (dolist (line (cdr lines))
          (insert (make-string 24 ?\s) line "\n"))))
    (when (null (plist-get rule :matchers))
      (insert "        no matcher: matches every call\n"))
    (if (plist-get rule :deciding)
        (let ((ov (make-overlay start (point))))
          (overlay-put ov 'face 'gptel-rust-hooks-deciding)
          (overlay-put ov 'gptel-rust-hooks-deciding t))
      (unless matched
        (add-face-text-property start (point) 'gptel-rust-hooks-unmatched t)))))

(defun gptel-rust-hooks-ui--call-text (call)
  "Return CALL as NAME (ARGS) on one line."
  (format "%s %s" (plist-get call :name)
          (if (plist-get call :args)
              (gptel-rust-hooks-ui--short (plist-get call :args) 100)
            "()")))

(defun gptel-rust-hooks-ui--show-explanation (data call rules)
  "Show the explanation DATA of CALL (decided by RULES) in its buffer."
  (let ((buffer (get-buffer-create gptel-rust-hooks-ui--explain-buffer))
        (explained (plist-get data :call))
        (decision (plist-get data :decision))
        (failure (plist-get data :schema-failure))
        (schema (plist-get data :schema)))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (gptel-rust-hooks-explain-mode)
        (setq gptel-rust-hooks-ui--explained (cons call rules))
        (gptel-rust-hooks-ui--insert-field "Call" (gptel-rust-hooks-ui--call-text call))
        (gptel-rust-hooks-ui--insert-field
         "From"
         (mapconcat (lambda (k)
                      (format "%s %s" (substring (symbol-name k) 1)
                              (or (plist-get explained k) "-")))
                    '(:buffer :backend :model :cwd) ", "))
        (gptel-rust-hooks-ui--insert-field
         "Outcome"
         (cond
          (failure (propertize "blocked: the call does not fit the tool's arguments"
                               'face 'gptel-rust-hooks-blocking))
          (decision
           (concat (propertize decision 'face (gptel-rust-hooks-ui--decision-face decision))
                   (cond ((plist-get data :by-default)
                          " (no rule decides: `gptel-rust-hooks-default-decision')")
                         ((plist-get data :deciding-rule)
                          (format " by %s" (plist-get data :deciding-rule)))
                         (t ""))))
          (t "no rule decides: gptel's own confirmation settings apply")))
        (when (plist-get data :reason)
          (gptel-rust-hooks-ui--insert-field "Reason" (plist-get data :reason)))
        (gptel-rust-hooks-ui--insert-field
         "Answer" (gptel-rust-hooks-ui--short (plist-get data :answer) 200))
        (when-let* ((sandbox (plist-get data :sandbox)))
          (gptel-rust-hooks-ui--insert-field
           "Sandbox"
           (pcase (plist-get sandbox :status)
             ("confined" (plist-get sandbox :describe))
             ("failed" (propertize (or (plist-get sandbox :error) "cannot be confined")
                                   'face 'gptel-rust-hooks-blocking))
             (_ "no command argument: nothing to confine"))
           (format " (by %s)"
                   (mapconcat (lambda (r) (plist-get r :rule))
                              (plist-get sandbox :rules) ", ")))
          (when (cdr (plist-get sandbox :rules))
            (dolist (r (plist-get sandbox :rules))
              (gptel-rust-hooks-ui--insert-field
               "" (format "%s: %S%s" (plist-get r :rule) (plist-get r :spec)
                          (if (plist-get r :describe)
                              (concat " → " (plist-get r :describe))
                            ""))))))
        (when (plist-get data :result)
          (gptel-rust-hooks-ui--insert-field
           "Result" (format "%s (from %s)" (gptel-rust-hooks-ui--short (plist-get data :result))
                            (plist-get data :result-rule))))
        (gptel-rust-hooks-ui--insert-field
         "Schema"
         (cond
          ((null schema) "gptel does not know this tool, or checking is off")
          (t (concat
              (mapconcat (lambda (a) (format "%s%s" (plist-get a :name)
                                             (if (plist-get a :required) "" "?")))
                         (plist-get schema :arguments) " ")
              (if (plist-get schema :problems)
                  (propertize (concat ": " (string-join (plist-get schema :problems) ", "))
                              'face 'gptel-rust-hooks-blocking)
                ": the call fits")))))
        (when (plist-get data :edits)
          (gptel-rust-hooks-ui--insert-field
           "Edits"
           (mapconcat (lambda (e)
                        (string-join
                         (delq nil
                               (list (plist-get e :rule)
                                     (and (plist-get e :set-args)
                                          (format "set %S" (plist-get e :set-args)))
                                     (and (plist-get e :default-args)
                                          (format "default %S" (plist-get e :default-args)))
                                     (and (plist-get e :remove-args)
                                          (format "remove %S" (plist-get e :remove-args)))))
                         " "))
                      (plist-get data :edits) "; ")
           (if (plist-get data :edits-applied) "" " (not applied: the call is blocked)"))
          (when (plist-get data :edits-applied)
            (gptel-rust-hooks-ui--insert-field
             "Edited" (gptel-rust-hooks-ui--short (plist-get data :edited-args) 100))
            (gptel-rust-hooks-ui--insert-field
             "Decisions" (format "%s before the edits, %s after"
                                 (or (plist-get data :decision-before-edits) "none")
                                 (or (plist-get data :decision-after-edits) "none")))))
        (when (and failure (eq (plist-get failure :stage) 'edit))
          (gptel-rust-hooks-ui--insert-field
           "Problem"
           (propertize (format "the edits of %s break the tool's arguments: %s"
                               (string-join (plist-get failure :rules) ", ")
                               (string-join (plist-get failure :problems) ", "))
                       'face 'gptel-rust-hooks-blocking)))
        (dolist (note (plist-get data :notes))
          (gptel-rust-hooks-ui--insert-field "Note" note))
        (let ((all (plist-get data :rules)))
          (insert "\n" (propertize (format "Rules: %d, %d matching\n\n" (length all)
                                           (cl-count-if (lambda (r) (plist-get r :matched))
                                                        all))
                                   'face 'gptel-rust-hooks-heading))
          (dolist (rule all)
            (gptel-rust-hooks-ui--insert-rule rule)))
        (goto-char (point-min))))
    (pop-to-buffer buffer)
    buffer))

;;;; Visiting a rule's definition

(defun gptel-rust-hooks-ui--show-rule (rule where)
  "Show the Lisp RULE, added WHERE, in a help buffer."
  (with-help-window "*gptel-rust-hooks-rule*"
    (princ (format "This rule was added %s:\n\n" where))
    (princ (pp-to-string rule))
    (princ "\nM-x gptel-rust-hooks-forget-added-rules removes the rules added \
for this session and this buffer.\n")))

(defun gptel-rust-hooks-ui--preset-source-p (source)
  "Return non-nil when SOURCE names a preset's layer."
  (and (stringp source) (string-prefix-p "preset: " source)))

(defun gptel-rust-hooks-ui--visit-rule (rule)
  "Visit the definition of the explained RULE."
  (let ((source (plist-get rule :source))
        (index (plist-get rule :index))
        (rules (cdr gptel-rust-hooks-ui--explained))
        (call (car gptel-rust-hooks-ui--explained)))
    (pcase source
      ('nil (if rules
                (gptel-rust-hooks-ui--show-rule (nth (1- index) rules)
                                             "as the RULES argument of the explanation")
              (gptel-rust-hooks-edit-rule
               (gptel-rust-hooks-menu--entry-for 'option index))))
      ((pred gptel-rust-hooks-ui--preset-source-p)
       (gptel-rust-hooks-ui--show-rule
        (nth (1- index) (plist-get (gptel-rust-hooks--preset-layer
                                    gptel-rust-hooks-preset
                                    (or (plist-get call :cwd) default-directory))
                                   :rules))
        (format "by `gptel-rust-hooks-preset' (%s)" source)))
      ((pred (equal (expand-file-name gptel-rust-hooks-prompt-rules-file)))
       (gptel-rust-hooks-edit-rule (gptel-rust-hooks-menu--entry-for 'prompt index)))
      ("session" (gptel-rust-hooks-ui--show-rule
                  (nth (1- index) gptel-rust-hooks--session-rules) "for this Emacs session"))
      ("buffer" (let ((buffer (get-buffer (or (plist-get call :buffer) ""))))
                  (gptel-rust-hooks-ui--show-rule
                   (and buffer (nth (1- index) (buffer-local-value
                                                'gptel-rust-hooks--buffer-rules buffer)))
                   (format "for the buffer %s" (plist-get call :buffer)))))
      (_ (find-file-other-window source)
         (when (plist-get rule :line)
           (goto-char (point-min))
           (forward-line (1- (plist-get rule :line))))))))

(defun gptel-rust-hooks-ui--visit-rule-button (button)
  "Visit the definition of the rule of BUTTON."
  (gptel-rust-hooks-ui--visit-rule (button-get button 'gptel-rust-hooks-rule)))

;;;; Always allow

(defun gptel-rust-hooks-ui--glob-quote (string)
  "Return STRING with the glob special characters escaped."
  (replace-regexp-in-string "[][*?{}\\\\!]" "\\\\\\&" string))

(defun gptel-rust-hooks-ui--dir-globs (dir)
  "Return the path globs of DIR and everything below it."
  (let ((dir (gptel-rust-hooks-ui--glob-quote (directory-file-name (expand-file-name dir)))))
    (list dir (concat (if (equal dir "/") "" dir) "/**"))))

(defun gptel-rust-hooks-ui--command-of (args)
  "Return (KEY . COMMAND-LINE) of the first command argument in ARGS, or nil."
  (cl-loop for (k v) on args by #'cddr
           when (and (keywordp k) (stringp v)
                     (member (substring (symbol-name k) 1) gptel-rust-hooks-command-keys))
           return (cons (substring (symbol-name k) 1) v)))

(defun gptel-rust-hooks-ui--has-paths (args)
  "Return non-nil when ARGS has an argument in `gptel-rust-hooks-path-keys'."
  (cl-loop for (k v) on args by #'cddr
           thereis (and (keywordp k) v
                        (member (substring (symbol-name k) 1) gptel-rust-hooks-path-keys))))

(defun gptel-rust-hooks-ui--default-prefix (command)
  "Return the command prefix to offer for the command line COMMAND."
  (let ((words (split-string (car (split-string command "[;&|\n]" t)) "[ \t]+" t)))
    (string-join (if (and (cadr words) (string-match-p "\\`[[:alnum:]][[:alnum:]_:-]*\\'"
                                                       (cadr words)))
                     (list (car words) (cadr words))
                   (list (car words)))
                 " ")))

(defun gptel-rust-hooks-ui--project-root (directory)
  "Return the root of the project DIRECTORY is in, or DIRECTORY."
  (file-name-as-directory
   (expand-file-name
    (or (cl-some (lambda (marker) (locate-dominating-file directory marker))
                 (list gptel-rust-hooks-project-file ".git" ".hg" ".jj" ".project"))
        directory))))

(defun gptel-rust-hooks-ui--exact-args (name args)
  "Return the `:args' matchers for exactly the call of tool NAME with ARGS.
Arguments the tool declares that ARGS lacks must stay absent."
  (let* ((tool (gptel-rust-hooks--tool-spec name))
         (schema (and tool (gptel-rust-hooks--tool-schema tool)))
         (matchers (cl-loop for (k v) on args by #'cddr
                            append (list k (list :equal v)))))
    (when (listp schema)
      (dolist (arg schema)
        (let ((key (intern (concat ":" (car arg)))))
          (unless (plist-member args key)
            (setq matchers (append matchers (list key (list :present nil))))))))
    matchers))

(defun gptel-rust-hooks-ui--always-rule (kind call directory &optional prefix)
  "Return an allow rule of KIND for CALL from DIRECTORY.
KIND is `exact' (these arguments), `prefix' (the command PREFIX, a
list of prefixes) or `directory' (the tool, with its paths, or the
call's directory when it has none, under DIRECTORY)."
  (let* ((name (plist-get call :name))
         (args (plist-get call :args)))
    (pcase kind
      ('exact
       (append (list :id (format "always-allow %s %s" name
                                 (gptel-rust-hooks-ui--short args 40))
                     :tool (gptel-rust-hooks-ui--glob-quote name))
               (and args (list :args (gptel-rust-hooks-ui--exact-args name args)))
               (list :decision 'allow)))
      ('prefix
       (list :id (format "always-allow %s `%s`" name (string-join prefix "`, `"))
             :tool (gptel-rust-hooks-ui--glob-quote name)
             :command-prefix prefix
             :decision 'allow))
      ('directory
       (append (list :id (format "always-allow %s under %s" name
                                 (abbreviate-file-name directory))
                     :tool (gptel-rust-hooks-ui--glob-quote name))
               (if (gptel-rust-hooks-ui--has-paths args)
                   (list :path (cadr (gptel-rust-hooks-ui--dir-globs directory)))
                 (list :cwd (gptel-rust-hooks-ui--dir-globs directory)))
               (list :decision 'allow))))))

(defun gptel-rust-hooks-ui--in-project (rule root)
  "Return RULE limited to calls from the project ROOT."
  (let ((rule (copy-sequence rule)))
    (plist-put rule :id (format "%s, in %s" (plist-get rule :id)
                                (abbreviate-file-name root)))
    (if (plist-member rule :cwd)
        rule
      (plist-put rule :cwd (gptel-rust-hooks-ui--dir-globs root)))))

(defun gptel-rust-hooks-ui--with-example (rule call cwd)
  "Return RULE with CALL from CWD as the example it must match."
  (append rule (list :examples
                     (list :match (list (list :name (plist-get call :name)
                                              :args (plist-get call :args)
                                              :cwd cwd))))))

(defun gptel-rust-hooks-ui--choose (prompt choices)
  "Ask PROMPT with CHOICES, ((KEY DESCRIPTION VALUE) ...); return VALUE."
  (let ((choice (read-multiple-choice
                 prompt (mapcar (lambda (c) (list (nth 0 c) (nth 1 c))) choices))))
    (nth 2 (assq (car choice) choices))))

(defun gptel-rust-hooks-ui--hook-call (tool-call info)
  "Return the hook plist of the pending TOOL-CALL (TOOL ARGS CALLBACK) of INFO."
  (list :name (gptel-tool-name (car tool-call))
        :args (cadr tool-call)
        :buffer (buffer-name (plist-get info :buffer))
        :backend (plist-get info :backend)
        :model (plist-get info :model)))

(defun gptel-rust-hooks-ui--now-allowed-p (call)
  "Return non-nil when the policy in force allows CALL without asking."
  (let ((answer (gptel-rust-hooks-evaluate call)))
    (and (plist-member answer :confirm)
         (null (plist-get answer :confirm))
         (not (plist-get answer :block))
         (not (plist-get answer :stop)))))

(defun gptel-rust-hooks-ui--blocking-rule (call)
  "Return the label of the rule that asks, denies or stops CALL, or nil."
  (let ((data (gptel-rust-hooks-explain call)))
    (and (member (plist-get data :decision) '("ask" "deny" "stop"))
         (not (plist-get data :by-default))
         (plist-get data :deciding-rule))))

(defun gptel-rust-hooks-ui--add-rule (rule scope buffer root)
  "Add the allow RULE for SCOPE: `buffer' (BUFFER), `session' or `project' (ROOT).
Return the rule as added."
  (pcase scope
    ('buffer
     (with-current-buffer buffer
       (setq gptel-rust-hooks--buffer-rules
             (append gptel-rust-hooks--buffer-rules (list rule)))))
    ('session
     (setq gptel-rust-hooks--session-rules
           (append gptel-rust-hooks--session-rules (list rule))))
    ('project
     (setq rule (gptel-rust-hooks-ui--in-project rule root))
     (gptel-rust-hooks--add-prompt-rule rule)))
  rule)

(defun gptel-rust-hooks-ui--always-allow-calls (tool-calls info)
  "Add an allow rule for one of the pending TOOL-CALLS of the request INFO.
Ask which call, which kind of rule and for how long.  Return non-nil
when every pending call is now allowed without asking."
  (with-current-buffer (plist-get info :buffer)
    (gptel-rust-hooks-ui--always-allow-1 tool-calls info)))

(defun gptel-rust-hooks-ui--always-allow-1 (tool-calls info)
  "Do `gptel-rust-hooks-ui--always-allow-calls' for TOOL-CALLS of INFO.
The request buffer is current."
  (let* ((buffer (plist-get info :buffer))
         (tool-call
          (if (cdr tool-calls)
              (let ((names (cl-loop for c in tool-calls for i from 1
                                    collect (cons (format "%d: %s %s" i (gptel-tool-name (car c))
                                                          (gptel-rust-hooks-ui--short (cadr c) 60))
                                                  c))))
                (cdr (assoc (completing-read "Always allow which call? " names nil t)
                            names)))
            (car tool-calls)))
         (call (gptel-rust-hooks-ui--hook-call tool-call info))
         (cwd (with-current-buffer buffer default-directory))
         (call-from (append call (list :cwd cwd))))
    (when-let* ((rule (gptel-rust-hooks-ui--blocking-rule call-from)))
      (user-error "Rule %s decides this call; an allow rule cannot override it (edit that \
rule: %s on the prompt visits it)"
                  (format "`%s`" rule)
                  (substitute-command-keys
                   "\\<gptel-rust-hooks-tool-call-map>\\[gptel-rust-hooks-visit-asking-rule]")))
    (let* ((command (gptel-rust-hooks-ui--command-of (plist-get call :args)))
           (kind (gptel-rust-hooks-ui--choose
                  "Always allow: "
                  (append '((?e "this exact call" exact))
                          (and command '((?p "this command prefix" prefix)))
                          (if command
                              '((?d "this tool, any command, from a directory" directory))
                            '((?d "this tool under a directory" directory))))))
           (prefix (and (eq kind 'prefix)
                        (split-string
                         (read-string "Allow commands that start with (several: separate with \",\"): "
                                      (gptel-rust-hooks-ui--default-prefix (cdr command)))
                         "[ \t]*,[ \t]*" t "[ \t]+")))
           (directory (and (eq kind 'directory)
                           (read-directory-name "Allow the tool under: "
                                                (gptel-rust-hooks-ui--project-root cwd))))
           (scope (gptel-rust-hooks-ui--choose
                   "For: "
                   '((?b "this buffer" buffer) (?s "this Emacs session" session)
                     (?p "this project (saved in your rules file)" project))))
           (root (gptel-rust-hooks-ui--project-root cwd))
           (rule (gptel-rust-hooks-ui--always-rule kind call directory prefix))
           (checked (gptel-rust-hooks-ui--with-example
                     (if (eq scope 'project) (gptel-rust-hooks-ui--in-project rule root) rule)
                     call cwd)))
      (when (and (eq kind 'prefix) (null prefix))
        (user-error "No command prefix given"))
      ;; The rule must compile, and match the call that prompted it.
      (condition-case err
          (gptel-rust-hooks--compile (list checked))
        (gptel-rust-hooks-rule-error
         (user-error "This rule would not allow the call: %s" (cadr err))))
      (setq rule (gptel-rust-hooks-ui--add-rule rule scope buffer root))
      (message "gptel-rust-hooks: added %s for %s" (format "`%s`" (plist-get rule :id))
               (pcase scope ('buffer (buffer-name buffer)) ('session "this session")
                      ('project (format "%s, saved in %s" (abbreviate-file-name root)
                                        (abbreviate-file-name
                                         (expand-file-name
                                          gptel-rust-hooks-prompt-rules-file))))))
      (let ((waiting (cl-remove-if
                      (lambda (c) (with-current-buffer buffer
                                    (gptel-rust-hooks-ui--now-allowed-p
                                     (append (gptel-rust-hooks-ui--hook-call c info)
                                             (list :cwd cwd)))))
                      tool-calls)))
        (when waiting
          (message "gptel-rust-hooks: added %s; %d of the calls still need your answer"
                   (format "`%s`" (plist-get rule :id)) (length waiting)))
        (null waiting)))))

;;;; Commands

;;;###autoload
(defun gptel-rust-hooks-always-allow ()
  "Add an allow rule for a tool call gptel asks to confirm, then run the calls.
On gptel's confirmation prompt, ask for the call, the kind of rule (this
exact call, this command prefix, this tool under a directory) and its
scope (this buffer, this Emacs session, or the project, saved in
`gptel-rust-hooks-prompt-rules-file' with a `:cwd' matcher).  When every pending
call is then allowed, run them as
\\<gptel-tool-call-actions-map>\\[gptel--accept-tool-calls] on the prompt would.  An
allow rule never overrides a deny, stop or ask rule."
  (interactive)
  (pcase-let ((`(,tool-calls . ,ov) (get-char-property-and-overlay (point) 'gptel-tool)))
    (unless (and tool-calls (overlayp ov))
      (user-error "No tool call awaiting confirmation here"))
    (when (gptel-rust-hooks-ui--always-allow-calls tool-calls (overlay-get ov 'info))
      (gptel--accept-tool-calls tool-calls ov))))

;;;###autoload
(defun gptel-rust-hooks-forget-added-rules ()
  "Remove the rules added for this Emacs session and for the current buffer."
  (interactive)
  (let ((n (+ (length gptel-rust-hooks--session-rules)
              (length gptel-rust-hooks--buffer-rules))))
    (setq gptel-rust-hooks--session-rules nil)
    (kill-local-variable 'gptel-rust-hooks--buffer-rules)
    (message "gptel-rust-hooks: removed %d added rules" n)))

;;;; Integration with gptel's confirmation prompt

(defun gptel-rust-hooks-ui--asking (call)
  "Return why CALL (a hook plist with `:cwd') is asked, as a plist, or nil.
Nil unless the policy in force decides CALL `ask'.  Else `:rule' is the
explained deciding rule (nil when no rule decides, and
`gptel-rust-hooks-default-decision' asks), `:reason' its reason, and
`:call' CALL."
  (when-let* ((data (ignore-errors (gptel-rust-hooks-explain call)))
              ((equal (plist-get data :decision) "ask")))
    (list :call call
          :rule (and (not (plist-get data :by-default))
                     (cl-find-if (lambda (r) (plist-get r :deciding)) (plist-get data :rules)))
          :reason (plist-get data :reason))))

(defun gptel-rust-hooks-ui--asking-note (asked)
  "Return the lines that say why each call of ASKED is asked, or \"\".
ASKED is a list of `gptel-rust-hooks-ui--asking' plists."
  (mapconcat
   (lambda (a)
     (let ((rule (plist-get a :rule)))
       (concat (propertize (plist-get (plist-get a :call) :name) 'face 'font-lock-keyword-face)
               (propertize " asked by " 'face 'font-lock-string-face)
               (if rule
                   (propertize (format "rule `%s'" (plist-get rule :id))
                               'face 'link 'mouse-face 'highlight
                               'help-echo "mouse-1: visit this rule"
                               'keymap (let ((map (make-sparse-keymap)))
                                         (define-key map [mouse-1]
                                           (lambda () (interactive)
                                             (gptel-rust-hooks-ui--visit-asking a)))
                                         map))
                 "`gptel-rust-hooks-default-decision' (no rule decides)")
               (let ((reason (plist-get a :reason)))
                 (if (and reason rule) (concat ": " reason) ""))
               (if rule
                   (propertize (substitute-command-keys
                                "  (\\<gptel-rust-hooks-tool-call-map>\\[gptel-rust-hooks-visit-asking-rule] visits it)")
                               'face 'shadow)
                 "")
               "\n")))
   asked ""))

(defun gptel-rust-hooks-ui--visit-asking (asking)
  "Visit the rule that asks, of the `gptel-rust-hooks-ui--asking' plist ASKING."
  (let ((gptel-rust-hooks-ui--explained (cons (plist-get asking :call) nil)))
    (gptel-rust-hooks-ui--visit-rule (plist-get asking :rule))))

(defun gptel-rust-hooks-ui--asked-calls (tool-calls info)
  "Return why the pending TOOL-CALLS of the request INFO are asked.
A list of `gptel-rust-hooks-ui--asking' plists, for the asked ones."
  (let* ((buffer (plist-get info :buffer))
         (cwd (if (buffer-live-p buffer)
                  (buffer-local-value 'default-directory buffer)
                default-directory)))
    (when (and gptel-rust-hooks-mode (fboundp 'gptel-tool-name))
      (delq nil (mapcar (lambda (c)
                          (gptel-rust-hooks-ui--asking
                           (append (gptel-rust-hooks-ui--hook-call c info) (list :cwd cwd))))
                        tool-calls)))))

;;;###autoload
(defun gptel-rust-hooks-visit-asking-rule ()
  "Visit the rule that asks to confirm a tool call, from gptel's prompt.
With several, choose one."
  (interactive)
  (pcase-let* ((`(,tool-calls . ,ov) (get-char-property-and-overlay (point) 'gptel-tool))
               (asked (and tool-calls (overlayp ov)
                           (cl-remove-if-not
                            (lambda (a) (plist-get a :rule))
                            (gptel-rust-hooks-ui--asked-calls tool-calls
                                                              (overlay-get ov 'info))))))
    (cond
     ((not (and tool-calls (overlayp ov)))
      (user-error "No tool call awaiting confirmation here"))
     ((null asked) (user-error "No rule asks for these calls"))
     ((null (cdr asked)) (gptel-rust-hooks-ui--visit-asking (car asked)))
     (t (let ((names (mapcar (lambda (a) (cons (format "%s: rule `%s'"
                                                       (plist-get (plist-get a :call) :name)
                                                       (plist-get (plist-get a :rule) :id))
                                                   a))
                             asked)))
          (gptel-rust-hooks-ui--visit-asking
           (cdr (assoc (completing-read "Visit the rule of: " names nil t) names))))))))

(defun gptel-rust-hooks-ui--hint ()
  "Return the line that offers \"always allow\" on gptel's prompt."
  (concat (propertize "Always allow (gptel-rust-hooks): " 'face 'font-lock-string-face)
          (propertize (substitute-command-keys
                       "\\<gptel-rust-hooks-tool-call-map>\\[gptel-rust-hooks-always-allow]")
                      'face 'help-key-binding)
          "\n"))

(defun gptel-rust-hooks-ui--gptel-choice-p (choices)
  "Return non-nil when CHOICES are those of gptel's tool-call prompt."
  (and (equal (assq ?y choices) '(?y "Run tools"))
       (assq ?i choices)
       (not (assq ?a choices))))

(defun gptel-rust-hooks-ui--sandbox-note (tool-calls)
  "Return the lines that say which of TOOL-CALLS will run sandboxed, or \"\".
TOOL-CALLS are gptel's pending (TOOL ARGS CALLBACK) lists."
  (mapconcat (lambda (call)
               (if-let* ((sandbox (gethash (nth 1 call) gptel-rust-hooks--sandboxed)))
                   (concat (propertize (gptel-tool-name (car call))
                                       'face 'font-lock-keyword-face)
                           (propertize " will run sandboxed: " 'face 'font-lock-string-face)
                           (plist-get sandbox :describe) "\n")
                 ""))
             tool-calls ""))

(defun gptel-rust-hooks-ui--display-tool-calls (display tool-calls info &optional use-minibuffer)
  "Offer \"always allow\" on gptel's tool-call prompt, and show sandboxes.
Around advice for DISPLAY, `gptel--display-tool-calls', called with
TOOL-CALLS, INFO and USE-MINIBUFFER.  In the buffer, the prompt gets our
keys; in the minibuffer, the choices `a' and `v'.  The prompt shows each
call as the model wrote it, a line for each call a rule asks for,
naming the rule and its reason (\\<gptel-rust-hooks-tool-call-map>\\[gptel-rust-hooks-visit-asking-rule] or `v' visits it), and
a line for each call that will run sandboxed, saying how."
  (let* ((rmc (symbol-function 'read-multiple-choice))
         (asked (gptel-rust-hooks-ui--asked-calls tool-calls info))
         (note (concat (gptel-rust-hooks-ui--asking-note asked)
                       (gptel-rust-hooks-ui--sandbox-note tool-calls)))
         ;; The prompt shows the commands that were decided.
         (gptel-rust-hooks--sandbox-showing t)
         (prompt-ov
          (cl-letf (((symbol-function 'read-multiple-choice)
                     (lambda (prompt choices &rest rest)
                       (if (not (gptel-rust-hooks-ui--gptel-choice-p choices))
                           (apply rmc prompt choices rest)
                         (let ((choice nil)
                               (prompt (concat note prompt)))
                           (while (not choice)
                             (setq choice
                                   (apply rmc prompt
                                          (append choices '((?a "Always allow (rule)"))
                                                  (and (cl-some (lambda (a) (plist-get a :rule))
                                                                asked)
                                                       '((?v "Visit the rule that asks"))))
                                          rest))
                             (when (eq (car choice) ?v)
                               (gptel-rust-hooks-ui--visit-asking
                                (cl-find-if (lambda (a) (plist-get a :rule)) asked))
                               (setq choice nil))
                             (when (eq (car choice) ?a)
                               (setq choice
                                     (cl-letf (((symbol-function 'read-multiple-choice) rmc))
                                       (and (condition-case err
                                                (gptel-rust-hooks-ui--always-allow-calls
                                                 tool-calls info)
                                              (user-error
                                               (message "%s" (error-message-string err))
                                               nil))
                                            (assq ?y choices))))))
                           choice)))))
            (funcall display tool-calls info use-minibuffer))))
    (when (overlayp prompt-ov)
      (when-let* ((buffer (overlay-buffer prompt-ov))
                  (ov (with-current-buffer buffer
                        (cl-find-if (lambda (o) (memq (car tool-calls) (overlay-get o 'gptel-tool)))
                                    (overlays-in (point-min) (point-max))))))
        (let ((map (overlay-get ov 'keymap)))
          (unless (and (keymapp map) (eq (lookup-key map (kbd "C-c C-a"))
                                         #'gptel-rust-hooks-always-allow))
            (overlay-put ov 'keymap (make-composed-keymap gptel-rust-hooks-tool-call-map map))))
        (overlay-put prompt-ov 'after-string
                     (concat note (gptel-rust-hooks-ui--hint)
                             (overlay-get prompt-ov 'after-string)))))
    prompt-ov))

;;;; Blocked calls in the chat

;; gptel folds each tool call and its result into a block in the chat
;; buffer, and a blocked call's block looks like any other: its first
;; line gets a marker and a face here.

(defconst gptel-rust-hooks-ui--blocked-result "<tool_call_error>\n"
  "How the result of a blocked tool call begins (gptel's error text).")

(defun gptel-rust-hooks-ui--mark-blocked (display tool-results info)
  "Call DISPLAY, `gptel--display-tool-results', on TOOL-RESULTS and INFO.
Around advice: then mark the first line of each block it inserted whose
call was blocked with `gptel-rust-hooks-blocked-block' and \"blocked: \"."
  (let* ((blocked (cl-some (lambda (r) (and (stringp (nth 2 r))
                                            (string-prefix-p gptel-rust-hooks-ui--blocked-result
                                                             (nth 2 r))))
                           tool-results))
         (position (plist-get info :position))
         (buffer (and blocked (markerp position) (marker-buffer position)))
         (start (and (buffer-live-p buffer)
                     (with-current-buffer buffer
                       (copy-marker (let ((m (plist-get info :tracking-marker)))
                                      (if (markerp m) m position)))))))
    (prog1 (funcall display tool-results info)
      (when (and start (buffer-live-p buffer))
        (ignore-errors
          (with-current-buffer buffer
            (save-excursion
              (goto-char start)
              (while (re-search-forward "^\\(?:``` tool\\|#\\+begin_tool\\) " nil t)
                (let* ((head-start (line-beginning-position))
                       (head-end (line-end-position))
                       (body-end (save-excursion
                                   (if (re-search-forward "^\\(?:```$\\|#\\+end_tool\\)" nil t)
                                       (point)
                                     (point-max)))))
                  (when (and (save-excursion
                               (search-forward (concat "\n" gptel-rust-hooks-ui--blocked-result)
                                               body-end t))
                             (not (cl-some (lambda (o) (overlay-get o 'gptel-rust-hooks-blocked))
                                           (overlays-at head-start))))
                    (let ((ov (make-overlay head-start head-end nil t)))
                      (overlay-put ov 'gptel-rust-hooks-blocked t)
                      (overlay-put ov 'face 'gptel-rust-hooks-blocked-block)
                      (overlay-put ov 'before-string
                                   (propertize "blocked: " 'face 'gptel-rust-hooks-blocked-block))))
                  (goto-char body-end))))))
        (set-marker start nil)))))

;;;; The private temporary directory of a sandbox

;; A sandboxed command gets an empty, private temporary directory, gone
;; when it ends (bubblewrap's --tmpfs), with the request's directory bound
;; into it when it lies there.  So a file it writes under /tmp (outside
;; its directory) is lost, files there from outside are not seen, and a
;; home directory or a project under /tmp is empty inside.  The model must
;; not believe such a write succeeded: the result it gets says so, and so
;; does the echo area.

(defun gptel-rust-hooks-ui--under-p (file dir)
  "Return non-nil when FILE is DIR or lies inside it (both absolute)."
  (let ((file (file-name-as-directory file))
        (dir (file-name-as-directory dir)))
    (string-prefix-p dir file)))

(defun gptel-rust-hooks-ui--private-temp-note (command cwd)
  "Return why the sandboxed COMMAND, run from CWD, may lose its writes, or nil.
That is when it names a path in the temporary directory outside CWD, or
when the home directory or CWD's project lies in the temporary directory
outside CWD."
  (let* ((temp (directory-file-name (file-truename temporary-file-directory)))
         (cwd (file-truename (file-name-as-directory cwd)))
         (home (file-truename "~"))
         (root (or (gptel-rust-hooks--preset-root cwd) cwd))
         (why nil))
    (when (and (stringp command)
               (let ((start 0) (found nil))
                 (while (and (not found)
                             (string-match (concat "\\(?:\\`\\|[^[:alnum:]_.-]\\)\\("
                                                   (regexp-quote temp)
                                                   "\\(?:/[^][:space:]'\"`;&|<>()]*\\)?\\)")
                                           command start))
                   (setq start (match-end 0))
                   (unless (gptel-rust-hooks-ui--under-p (match-string 1 command) cwd)
                     (setq found t)))
                 found))
      (push (format "it names a path in %s" temp) why))
    (when (and (gptel-rust-hooks-ui--under-p home temp)
               (not (gptel-rust-hooks-ui--under-p home cwd)))
      (push (format "the home directory %s lies in it, so it was empty there" home) why))
    (when (and (gptel-rust-hooks-ui--under-p root temp)
               (not (gptel-rust-hooks-ui--under-p root cwd)))
      (push (format "the project %s lies in it, so only %s was there" root cwd) why))
    (when why
      (format "gptel-rust-hooks: this command ran in a sandbox whose temporary \
directory %s is private: empty (files there from outside were not visible) \
and thrown away when it ended: %s.  Files it wrote there outside %s are \
gone; do not rely on them."
              temp (string-join (nreverse why) "; ") cwd))))

(defun gptel-rust-hooks-ui--sandbox-result (process fsm tool-spec call result)
  "Call PROCESS on FSM, TOOL-SPEC, CALL and RESULT, noting lost writes.
Around advice for `gptel--process-tool-call': when CALL ran sandboxed
and `gptel-rust-hooks-ui--private-temp-note' has a note, it is added to
RESULT, and shown in the echo area."
  (let ((note (ignore-errors
                (when-let* ((args (plist-get call :args))
                            ((consp args))
                            ((gethash args gptel-rust-hooks--sandboxed))
                            ((stringp result))
                            (command (cdr (gptel-rust-hooks-ui--command-of args)))
                            (buffer (plist-get (gptel-fsm-info fsm) :buffer)))
                  (gptel-rust-hooks-ui--private-temp-note
                   command (if (buffer-live-p buffer)
                               (buffer-local-value 'default-directory buffer)
                             default-directory))))))
    (when note (message "%s" note))
    (funcall process fsm tool-spec call (if note (concat result "\n\n" note) result))))

(defun gptel-rust-hooks-ui--enable ()
  "Offer \"always allow\" on gptel's tool-call prompts; warn of lost writes."
  (advice-add 'gptel--display-tool-calls :around #'gptel-rust-hooks-ui--display-tool-calls)
  (advice-add 'gptel--display-tool-results :around #'gptel-rust-hooks-ui--mark-blocked)
  (when (fboundp 'gptel--process-tool-call)
    ;; Innermost: after the post-call effects the guard may apply.
    (advice-add 'gptel--process-tool-call :around #'gptel-rust-hooks-ui--sandbox-result
                '((depth . 100)))))

(defun gptel-rust-hooks-ui--disable ()
  "Remove exactly what `gptel-rust-hooks-ui--enable' added."
  (advice-remove 'gptel--display-tool-calls #'gptel-rust-hooks-ui--display-tool-calls)
  (advice-remove 'gptel--display-tool-results #'gptel-rust-hooks-ui--mark-blocked)
  (advice-remove 'gptel--process-tool-call #'gptel-rust-hooks-ui--sandbox-result))

;;;; An entry in gptel's menu

(declare-function transient-append-suffix "transient" (prefix loc suffix &optional keep-other))
(declare-function transient-get-suffix "transient" (prefix loc))

(defun gptel-rust-hooks-ui--layout-has-p (layout command)
  "Return non-nil when the transient LAYOUT has a suffix running COMMAND."
  (cond ((vectorp layout)
         (cl-some (lambda (x) (gptel-rust-hooks-ui--layout-has-p x command)) layout))
        ((proper-list-p layout)
         (or (and (cl-evenp (length (cdr layout)))
                  (eq (plist-get (cdr layout) :command) command))
             (cl-some (lambda (x) (gptel-rust-hooks-ui--layout-has-p x command)) layout)))))

(defun gptel-rust-hooks-ui--add-menu-entry ()
  "Add the permissions screen to `gptel-menu', after its \"Select tools\".
The suffix is found by its coordinates.  Where transient cannot insert
into `gptel-menu' (transient 0.13 on Emacs 28 fails on its info
lines), the menu is left alone: \[gptel-rust-hooks] still works."
  (let ((loc '(0 2 2)))
    (when (and (fboundp 'transient-append-suffix) (fboundp 'transient-get-suffix)
               (get 'gptel-menu 'transient--layout)
               (not (gptel-rust-hooks-ui--layout-has-p (get 'gptel-menu 'transient--layout)
                                                       'gptel-rust-hooks))
               (eq (plist-get (cdr-safe (ignore-errors (transient-get-suffix 'gptel-menu loc)))
                              :command)
                   'gptel-tools))
      (ignore-errors
        (transient-append-suffix 'gptel-menu loc
          '("R" "Tool permissions (rust-hooks)" gptel-rust-hooks))))))

(defun gptel-rust-hooks-ui--after-load (&rest _)
  "Add the menu entry once gptel's transient menus are loaded."
  (when (featurep 'gptel-transient)
    (remove-hook 'after-load-functions #'gptel-rust-hooks-ui--after-load)
    (gptel-rust-hooks-ui--add-menu-entry)))

(if (featurep 'gptel-transient)
    (gptel-rust-hooks-ui--add-menu-entry)
  (add-hook 'after-load-functions #'gptel-rust-hooks-ui--after-load))

(provide 'gptel-rust-hooks-ui)
;;; gptel-rust-hooks-ui.el ends here
