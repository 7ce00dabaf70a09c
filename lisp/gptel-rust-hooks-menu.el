;;; gptel-rust-hooks-menu.el --- The permissions screen of gptel-rust-hooks -*- lexical-binding: t; -*-

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

;; M-x gptel-rust-hooks shows the policy in force for the current
;; directory, by source: the preset, `gptel-rust-hooks-rules', the rules
;; added from the prompt, those added for this session and this buffer,
;; the policy files and the project's file with its trust.  Each rule is
;; one line: its decision and a summary.  A transient menu (the keys
;; work in the buffer too) adds, edits (in the rule's own source),
;; disables, deletes, trusts, forgets, explains a call and opens the log.
;;
;; The data behind the screen is `gptel-rust-hooks-menu-sources'; each
;; action is a function of an entry of it, so that it can be used (and
;; tested) without the screen.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pp)
(require 'transient)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-sources)

;;;; Declarations for the byte compiler

(declare-function gptel-rust-hooks-log "gptel-rust-hooks-log" ())
(declare-function custom-file "cus-edit" (&optional no-error))
(declare-function gptel-rust-hooks-forget-added-rules "gptel-rust-hooks-ui" ())
(declare-function gptel-rust-hooks-ui--short "gptel-rust-hooks-ui" (value &optional width))
(declare-function gptel-rust-hooks-ui--decision-face "gptel-rust-hooks-ui" (decision))

;;;; The data model

(defconst gptel-rust-hooks-menu--buffer "*gptel-rust-hooks*"
  "The name of the permissions screen's buffer.")

(defvar-local gptel-rust-hooks-menu--directory nil
  "The directory whose policy the permissions screen shows.")

(defvar-local gptel-rust-hooks-menu--request-buffer nil
  "The buffer the permissions screen was opened from, for its added rules.")

(defun gptel-rust-hooks-menu--summary (rule)
  "Return a one-line summary of the Lisp RULE: what it matches and does."
  (let ((parts nil))
    (cl-flet ((add (key fmt)
                (when (plist-member rule key)
                  (let ((v (plist-get rule key)))
                    (push (format fmt (if (and (consp v) (cl-every #'stringp v))
                                          (if (> (length v) 4)
                                              (format "%s, … (%d more)"
                                                      (string-join (cl-subseq v 0 4) ", ")
                                                      (- (length v) 4))
                                            (string-join v ", "))
                                        (gptel-rust-hooks-ui--short v 40)))
                          parts)))))
      (add :tool "tool %s")
      (add :tool-regexp "tool ~ %s")
      (add :command-prefix "command %s")
      (add :command-regexp "command ~ %s")
      (add :path "path %s")
      (add :path-outside "path outside %s")
      (add :cwd "from %s")
      (add :args "args %s")
      (add :buffer "buffer %s")
      (add :backend "backend %s")
      (add :model "model %s")
      (add :set-args "set %s")
      (add :default-args "default %s")
      (add :remove-args "remove %s")
      (add :result "result %s")
      (add :redact "redact %s")
      (add :max-output "max output %s")
      (add :sandbox "sandbox %s")
      (add :reason "\"%s\""))
    (gptel-rust-hooks-ui--short
     (if parts (string-join (nreverse parts) "; ") "every call")
     160)))

(defun gptel-rust-hooks-menu--entries (kind source rules)
  "Return the entries of the source of KIND, SOURCE, whose rules are RULES."
  (cl-loop for rule in rules
           for i from 1
           collect (list :kind kind :source source :index i :rule rule
                         :id (or (and (proper-list-p rule) (plist-get rule :id))
                                 (format "rule %d" i))
                         :decision (let ((d (and (proper-list-p rule)
                                                 (plist-get rule :decision))))
                                     (if (stringp d) (intern d) d))
                         :disabled (and (proper-list-p rule) (plist-get rule :disabled) t)
                         :summary (if (proper-list-p rule)
                                      (gptel-rust-hooks-menu--summary rule)
                                    "not a rule"))))

(defun gptel-rust-hooks-menu--json-entries (kind source text)
  "Return the entries of the source of KIND, SOURCE, a JSON policy TEXT.
Each carries the `:line' its rule starts on."
  (let ((rules (gptel-rust-hooks--json-rules (or text "")))
        (lines (gptel-rust-hooks-menu--json-lines text)))
    (cl-loop for e in (gptel-rust-hooks-menu--entries kind source rules)
             for line in (append lines (make-list (length rules) nil))
             collect (append e (list :line line)))))

(defun gptel-rust-hooks-menu--json-lines (text)
  "Return the line each object of the JSON list TEXT starts on."
  (when text
    (with-temp-buffer
      (insert text)
      (goto-char (point-min))
      (let ((lines nil))
        (when (search-forward "[" nil t)
          (condition-case nil
              (while (progn (skip-chars-forward " \t\r\n,")
                            (eq (char-after) ?{))
                (push (line-number-at-pos) lines)
                (forward-sexp 1))
            (error nil)))
        (nreverse lines)))))

(defun gptel-rust-hooks-menu--file-text (file)
  "Return the text of FILE, or nil when it cannot be read."
  (ignore-errors
    (with-temp-buffer
      (insert-file-contents file)
      (buffer-string))))

(defun gptel-rust-hooks-menu-sources (&optional directory buffer)
  "Return the policy in force for calls from DIRECTORY, by source.
DIRECTORY defaults to `default-directory'; BUFFER (default the current
one) is the request buffer whose added rules count.  Each source is a
plist: `:kind' (`preset', `option', `prompt', `session', `buffer',
`file' or `project'), `:label', `:file' for files, `:trusted' for a
project file, `:error' when it cannot be used, and `:entries', one
per rule: (:kind :source :index :rule :id :decision :disabled :summary),
with `:line' for a rule of a JSON file."
  (let* ((directory (file-name-as-directory (expand-file-name (or directory default-directory))))
         (buffer (or buffer (current-buffer)))
         (sources nil))
    (cl-flet ((add (kind label rules &rest more)
                (let ((source (append (list :kind kind :label label) more)))
                  (push (append source
                                (list :entries (gptel-rust-hooks-menu--entries
                                                kind source rules)))
                        sources))))
      (when gptel-rust-hooks-preset
        (let ((layer (condition-case err
                         (gptel-rust-hooks--preset-layer gptel-rust-hooks-preset directory)
                       (gptel-rust-hooks-rule-error (list :error (cadr err))))))
          (add 'preset (format "Preset `%s' (gptel-rust-hooks-preset)%s"
                               gptel-rust-hooks-preset
                               (let ((root (gptel-rust-hooks--preset-root directory)))
                                 (if root (format " for the project %s"
                                                  (abbreviate-file-name root))
                                   ": no project here, only its denials apply")))
               (plist-get layer :rules) :error (plist-get layer :error))))
      (add 'option "Your rules (gptel-rust-hooks-rules)" gptel-rust-hooks-rules
           :error (and gptel-rust-hooks--rules-error (cadr gptel-rust-hooks--rules-error)))
      (let ((file (expand-file-name gptel-rust-hooks-prompt-rules-file)))
        (add 'prompt (format "Added from the prompt (%s)" (abbreviate-file-name file))
             (ignore-errors (gptel-rust-hooks--prompt-rules)) :file file))
      (add 'session "Added for this Emacs session" gptel-rust-hooks--session-rules)
      (add 'buffer (format "Added for the buffer %s" (buffer-name buffer))
           (buffer-local-value 'gptel-rust-hooks--buffer-rules buffer)
           :buffer buffer)
      (dolist (file gptel-rust-hooks-policy-files)
        (let* ((file (expand-file-name file))
               (source (list :kind 'file :label (format "Policy file %s"
                                                        (abbreviate-file-name file))
                             :file file
                             :error (and (not (file-readable-p file))
                                         "missing or unreadable"))))
          (push (append source (list :entries (gptel-rust-hooks-menu--json-entries
                                               'file source
                                               (gptel-rust-hooks-menu--file-text file))))
                sources)))
      (when-let* ((file (and gptel-rust-hooks-project-policies
                             (gptel-rust-hooks--find-project-file directory))))
        (let* ((trusted (and (gptel-rust-hooks-project-trusted-p file) t))
               (source (list :kind 'project
                             :label (format "Project file %s (%s)"
                                            (abbreviate-file-name file)
                                            (if trusted "trusted"
                                              "untrusted: only its deny, ask and stop rules apply"))
                             :file file :trusted trusted)))
          (push (append source (list :entries (gptel-rust-hooks-menu--json-entries
                                               'project source
                                               (gptel-rust-hooks-menu--file-text file))))
                sources))))
    (nreverse sources)))

(defun gptel-rust-hooks-menu--entry-for (kind index &optional directory)
  "Return the entry of the source of KIND whose rule in force is INDEXth.
INDEX counts the rules handed to the module, which leave out disabled
ones.  DIRECTORY is as for `gptel-rust-hooks-menu-sources'."
  (let ((source (cl-find kind (gptel-rust-hooks-menu-sources directory)
                         :key (lambda (s) (plist-get s :kind)))))
    (nth (1- index) (cl-remove-if (lambda (e) (plist-get e :disabled))
                                  (plist-get source :entries)))))

;;;; Actions on an entry

(defun gptel-rust-hooks-menu--source-rules (entry)
  "Return the list of rules ENTRY's source holds now."
  (let ((source (plist-get entry :source)))
    (pcase (plist-get entry :kind)
      ('option gptel-rust-hooks-rules)
      ('prompt (gptel-rust-hooks--prompt-rules))
      ('session gptel-rust-hooks--session-rules)
      ('buffer (buffer-local-value 'gptel-rust-hooks--buffer-rules
                                   (plist-get source :buffer))))))

(defun gptel-rust-hooks-menu--set-source-rules (entry rules)
  "Make ENTRY's source hold RULES, where it lives; return a message.
The message says what was done: saved in which file, or set for the
session only."
  (let ((source (plist-get entry :source)))
    (pcase (plist-get entry :kind)
      ('option
       ;; Compiles first: a bad rule signals and changes nothing.
       (customize-set-variable 'gptel-rust-hooks-rules rules)
       (require 'cus-edit)
       (if (custom-file t)
           (progn (customize-save-variable 'gptel-rust-hooks-rules rules)
                  (format "saved in %s" (abbreviate-file-name (custom-file))))
         "set for this session only: Emacs runs without an init file to save it in"))
      ('prompt
       (gptel-rust-hooks--compile rules)
       (format "saved in %s"
               (abbreviate-file-name (gptel-rust-hooks--write-prompt-rules rules))))
      ('session
       (gptel-rust-hooks--compile rules)
       (setq gptel-rust-hooks--session-rules rules)
       "for this Emacs session")
      ('buffer
       (gptel-rust-hooks--compile rules)
       (with-current-buffer (plist-get source :buffer)
         (setq gptel-rust-hooks--buffer-rules rules))
       (format "for the buffer %s" (buffer-name (plist-get source :buffer))))
      (_ (user-error "Rules of %s are edited in their file: press RET or e to visit it"
                     (plist-get source :label))))))

(defun gptel-rust-hooks-menu--check-current (entry)
  "Signal unless ENTRY's rule is still where ENTRY says; return the rules."
  (let ((rules (gptel-rust-hooks-menu--source-rules entry)))
    (unless (equal (nth (1- (plist-get entry :index)) rules) (plist-get entry :rule))
      (user-error "The rules of this source changed meanwhile: press g to refresh"))
    rules))

(defun gptel-rust-hooks-menu-replace-rule (entry rule)
  "Replace ENTRY's rule by RULE (nil: delete it) in its source; return a message."
  (let* ((rules (copy-sequence (gptel-rust-hooks-menu--check-current entry)))
         (i (1- (plist-get entry :index))))
    (gptel-rust-hooks-menu--set-source-rules
     entry (if rule
               (progn (setf (nth i rules) rule) rules)
             (append (cl-subseq rules 0 i) (nthcdr (1+ i) rules))))))

(defun gptel-rust-hooks-menu-toggle-rule (entry)
  "Disable ENTRY's rule, or enable it when disabled; return a message."
  (let ((rule (plist-get entry :rule)))
    (gptel-rust-hooks-menu-replace-rule
     entry (if (plist-get rule :disabled)
               (gptel-rust-hooks--plist-without rule :disabled)
             (append rule (list :disabled t))))))

(defun gptel-rust-hooks-menu-delete-rule (entry)
  "Delete ENTRY's rule from its source; return a message."
  (gptel-rust-hooks-menu-replace-rule entry nil))

(defun gptel-rust-hooks-menu-add-rule (kind rule &optional buffer)
  "Add to the source of KIND the RULE, last; return a message.
KIND is `option', `prompt', `session' or `buffer' (BUFFER's rules)."
  (let ((entry (list :kind kind :source (list :kind kind :buffer (or buffer (current-buffer))))))
    (gptel-rust-hooks-menu--set-source-rules
     entry (append (gptel-rust-hooks-menu--source-rules entry) (list rule)))))

;;;; Editing a rule

(defvar-local gptel-rust-hooks-menu--editing nil
  "What the rule edit buffer edits: (ENTRY . KIND); ENTRY nil adds to KIND.")

(defvar gptel-rust-hooks-rule-edit-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'gptel-rust-hooks-rule-edit-finish)
    (define-key map (kbd "C-c C-k") #'gptel-rust-hooks-rule-edit-abort)
    map)
  "Keymap of `gptel-rust-hooks-rule-edit-mode'.")

(define-derived-mode gptel-rust-hooks-rule-edit-mode emacs-lisp-mode "GRH-Rule"
  "Major mode to edit one rule of this package, a plist.
\\[gptel-rust-hooks-rule-edit-finish] checks that it compiles and saves it in its source;
\\[gptel-rust-hooks-rule-edit-abort] leaves it unchanged.

\\{gptel-rust-hooks-rule-edit-mode-map}")

(defun gptel-rust-hooks-menu--edit-buffer (rule editing header)
  "Show a buffer editing RULE for EDITING, with the HEADER comment."
  (let ((buffer (get-buffer-create "*gptel-rust-hooks-rule*")))
    (with-current-buffer buffer
      (erase-buffer)
      (gptel-rust-hooks-rule-edit-mode)
      (insert (mapconcat (lambda (l) (concat ";; " l)) (split-string header "\n") "\n")
              "\n;; C-c C-c: save, C-c C-k: cancel.\n\n")
      (let ((print-length nil) (print-level nil))
        (insert (pp-to-string rule)))
      (goto-char (point-min))
      (forward-line (1+ (length (split-string header "\n"))))
      (setq gptel-rust-hooks-menu--editing editing))
    (pop-to-buffer buffer)
    buffer))

(defun gptel-rust-hooks-edit-rule (entry)
  "Edit ENTRY's rule where it lives.
A rule of a JSON file is visited at its line; another opens in a small
buffer of its own, and \\[gptel-rust-hooks-rule-edit-finish] saves it in its source."
  (interactive (list (gptel-rust-hooks-menu--entry-at-point)))
  (unless entry (user-error "No rule here"))
  (pcase (plist-get entry :kind)
    ((or 'file 'project)
     (find-file-other-window (plist-get (plist-get entry :source) :file))
     (goto-char (point-min))
     (when (plist-get entry :line) (forward-line (1- (plist-get entry :line)))))
    ('preset
     (user-error "A preset's rules are fixed: add a rule to your own rules to extend or \
narrow it (an allow rule cannot undo its denials)"))
    (_ (gptel-rust-hooks-menu--edit-buffer
        (plist-get entry :rule) (cons entry (plist-get entry :kind))
        (format "Rule %d of %s" (plist-get entry :index)
                (plist-get (plist-get entry :source) :label))))))

(defun gptel-rust-hooks-rule-edit-finish ()
  "Save the edited rule in its source, once it reads and compiles."
  (interactive)
  (let* ((editing gptel-rust-hooks-menu--editing)
         (rule (condition-case err
                   (save-excursion
                     (goto-char (point-min))
                     (read (current-buffer)))
                 (error (user-error "Not a rule: %s" (error-message-string err))))))
    (unless (and (proper-list-p rule) (keywordp (car rule)))
      (user-error "A rule is a plist, such as (:tool \"shell\" :decision ask)"))
    (condition-case err
        (gptel-rust-hooks--compile (list rule))
      (gptel-rust-hooks-rule-error (user-error "%s" (cadr err))))
    (let ((message (if (car editing)
                       (gptel-rust-hooks-menu-replace-rule (car editing) rule)
                     (gptel-rust-hooks-menu-add-rule
                      (cdr editing) rule gptel-rust-hooks-menu--request-buffer))))
      (quit-window t)
      (gptel-rust-hooks-menu--refresh-screen)
      (message "gptel-rust-hooks: rule %s" message))))

(defun gptel-rust-hooks-rule-edit-abort ()
  "Leave the rule unchanged."
  (interactive)
  (quit-window t))

;;;; The screen

(defvar gptel-rust-hooks-permissions-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map special-mode-map)
    (define-key map "?" #'gptel-rust-hooks-menu)
    (define-key map "h" #'gptel-rust-hooks-menu)
    (define-key map "n" #'gptel-rust-hooks-menu-next)
    (define-key map "p" #'gptel-rust-hooks-menu-previous)
    (define-key map (kbd "RET") #'gptel-rust-hooks-edit-rule)
    (define-key map "a" #'gptel-rust-hooks-menu-add)
    (define-key map "e" #'gptel-rust-hooks-edit-rule)
    (define-key map "d" #'gptel-rust-hooks-menu-toggle)
    (define-key map "k" #'gptel-rust-hooks-menu-delete)
    (define-key map "t" #'gptel-rust-hooks-menu-trust)
    (define-key map "f" #'gptel-rust-hooks-menu-forget)
    (define-key map "x" #'gptel-rust-hooks-explain)
    (define-key map "l" #'gptel-rust-hooks-log)
    map)
  "Keymap of `gptel-rust-hooks-permissions-mode'.")

(define-derived-mode gptel-rust-hooks-permissions-mode special-mode "GRH-Permissions"
  "Major mode of the permissions screen: the policy in force, by source.

\\{gptel-rust-hooks-permissions-mode-map}"
  (setq-local revert-buffer-function #'gptel-rust-hooks-menu--revert)
  (setq-local truncate-lines t))

(defun gptel-rust-hooks-menu--revert (&rest _)
  "Show the policy in force again."
  (gptel-rust-hooks-menu--render))

(defun gptel-rust-hooks-menu--render ()
  "Fill the permissions screen of the current buffer."
  (let ((inhibit-read-only t)
        (line (line-number-at-pos))
        (default-directory (or gptel-rust-hooks-menu--directory default-directory)))
    (erase-buffer)
    (insert (propertize (format "Tool-call permissions for %s\n"
                                (abbreviate-file-name default-directory))
                        'face 'bold)
            (format "Calls no rule decides: %s.  Mode: %s.\n\n"
                    (pcase gptel-rust-hooks-default-decision
                      ('nil "gptel's own confirmation settings")
                      (d (symbol-name d)))
                    (if gptel-rust-hooks-mode "on" "off")))
    (dolist (source (gptel-rust-hooks-menu-sources
                     default-directory
                     (and (buffer-live-p gptel-rust-hooks-menu--request-buffer)
                          gptel-rust-hooks-menu--request-buffer)))
      (insert (propertize (plist-get source :label) 'face 'bold
                          'gptel-rust-hooks-source source)
              "\n")
      (when (plist-get source :error)
        (insert "  " (propertize (format "%s" (plist-get source :error)) 'face 'error) "\n"))
      (if (null (plist-get source :entries))
          (insert (propertize "  (no rules)\n" 'face 'shadow
                              'gptel-rust-hooks-source source))
        (dolist (entry (plist-get source :entries))
          (let ((start (point))
                (decision (plist-get entry :decision)))
            (insert "  "
                    (propertize (format "%-6s" (or decision "-"))
                                'face (gptel-rust-hooks-ui--decision-face
                                       (and decision (symbol-name decision))))
                    " " (propertize (format "%s" (plist-get entry :id)) 'face 'bold)
                    "  " (plist-get entry :summary) "\n")
            (when (plist-get entry :disabled)
              (add-face-text-property start (point) 'shadow)
              (save-excursion (goto-char (+ start 2)) (insert "[off] ")))
            (put-text-property start (point) 'gptel-rust-hooks-entry entry))))
      (insert "\n"))
    (insert (propertize "? or h: the menu of actions; g: refresh\n" 'face 'shadow))
    (goto-char (point-min))
    (forward-line (1- line))))

(defun gptel-rust-hooks-menu--entry-at-point ()
  "Return the entry of the rule at point on the permissions screen, or nil."
  (get-text-property (point) 'gptel-rust-hooks-entry))

(defun gptel-rust-hooks-menu--source-at-point ()
  "Return the source of the line at point on the permissions screen, or nil."
  (or (plist-get (gptel-rust-hooks-menu--entry-at-point) :source)
      (get-text-property (point) 'gptel-rust-hooks-source)))

(defun gptel-rust-hooks-menu--refresh-screen ()
  "Show the permissions screen again, if there is one."
  (when-let* ((buffer (get-buffer gptel-rust-hooks-menu--buffer)))
    (with-current-buffer buffer (gptel-rust-hooks-menu--render))))

(defun gptel-rust-hooks-menu--screen-buffer ()
  "Return the permissions screen's buffer, or signal."
  (or (get-buffer gptel-rust-hooks-menu--buffer)
      (user-error "No permissions screen: M-x gptel-rust-hooks")))

(defmacro gptel-rust-hooks-menu--on-screen (&rest body)
  "Run BODY in the permissions screen's buffer, then refresh it."
  (declare (indent 0) (debug t))
  `(with-current-buffer (if (derived-mode-p 'gptel-rust-hooks-permissions-mode)
                            (current-buffer)
                          (gptel-rust-hooks-menu--screen-buffer))
     (prog1 (progn ,@body)
       (gptel-rust-hooks-menu--render))))

;;;; Commands

(defun gptel-rust-hooks-menu--show (directory request-buffer)
  "Show the permissions screen for DIRECTORY and REQUEST-BUFFER; return it."
  (let ((buffer (get-buffer-create gptel-rust-hooks-menu--buffer)))
    (with-current-buffer buffer
      (gptel-rust-hooks-permissions-mode)
      (setq gptel-rust-hooks-menu--directory directory
            gptel-rust-hooks-menu--request-buffer request-buffer
            default-directory directory)
      (gptel-rust-hooks-menu--render)
      (goto-char (point-min))
      (gptel-rust-hooks-menu-next))
    buffer))

;;;###autoload
(defun gptel-rust-hooks ()
  "Show the permissions screen: the policy in force here, by source.
Each rule shows its decision and a summary; the menu of actions (a
transient, also on \\`?' in the screen) adds, edits, disables,
deletes, trusts, forgets, explains a call and opens the log."
  (interactive)
  (let ((buffer (gptel-rust-hooks-menu--show default-directory
                                             (unless (derived-mode-p 'gptel-rust-hooks-permissions-mode)
                                               (current-buffer)))))
    (pop-to-buffer buffer)
    (gptel-rust-hooks-menu)))

(defun gptel-rust-hooks-menu-next ()
  "Move to the next rule on the permissions screen."
  (interactive)
  (gptel-rust-hooks-menu--on-screen
    (forward-line 1)
    (while (and (not (eobp)) (not (gptel-rust-hooks-menu--entry-at-point)))
      (forward-line 1))
    (when-let* ((window (get-buffer-window (current-buffer))))
      (set-window-point window (point)))))

(defun gptel-rust-hooks-menu-previous ()
  "Move to the previous rule on the permissions screen."
  (interactive)
  (gptel-rust-hooks-menu--on-screen
    (forward-line -1)
    (while (and (not (bobp)) (not (gptel-rust-hooks-menu--entry-at-point)))
      (forward-line -1))
    (when-let* ((window (get-buffer-window (current-buffer))))
      (set-window-point window (point)))))

(defun gptel-rust-hooks-menu--entry-or-error ()
  "Return the entry at point on the screen, or signal."
  (or (with-current-buffer (if (derived-mode-p 'gptel-rust-hooks-permissions-mode)
                               (current-buffer)
                             (gptel-rust-hooks-menu--screen-buffer))
        (gptel-rust-hooks-menu--entry-at-point))
      (user-error "No rule at point: move to one with n and p")))

(defun gptel-rust-hooks-menu-toggle ()
  "Disable the rule at point, or enable it again."
  (interactive)
  (let ((entry (gptel-rust-hooks-menu--entry-or-error)))
    (gptel-rust-hooks-menu--on-screen
      (message "gptel-rust-hooks: `%s' %s, %s" (plist-get entry :id)
               (if (plist-get entry :disabled) "enabled" "disabled")
               (gptel-rust-hooks-menu-toggle-rule entry)))))

(defun gptel-rust-hooks-menu-delete ()
  "Delete the rule at point from its source, after asking."
  (interactive)
  (let ((entry (gptel-rust-hooks-menu--entry-or-error)))
    (when (yes-or-no-p (format "Delete the rule `%s'? " (plist-get entry :id)))
      (gptel-rust-hooks-menu--on-screen
        (message "gptel-rust-hooks: deleted `%s', %s" (plist-get entry :id)
                 (gptel-rust-hooks-menu-delete-rule entry))))))

(defun gptel-rust-hooks-menu-add (kind)
  "Add a rule to the source KIND, written in a buffer of its own.
Interactively, KIND is that of the source at point when rules can be
added to it, else read."
  (interactive
   (list (let ((here (plist-get (ignore-errors
                                  (with-current-buffer (gptel-rust-hooks-menu--screen-buffer)
                                    (gptel-rust-hooks-menu--source-at-point)))
                                :kind)))
           (if (memq here '(option prompt session buffer))
               here
             (cdr (assoc (completing-read "Add a rule to: "
                                          '("your rules (gptel-rust-hooks-rules)"
                                            "the rules added from the prompt (their file)"
                                            "this Emacs session")
                                          nil t)
                         '(("your rules (gptel-rust-hooks-rules)" . option)
                           ("the rules added from the prompt (their file)" . prompt)
                           ("this Emacs session" . session))))))))
  (let ((request (ignore-errors (buffer-local-value 'gptel-rust-hooks-menu--request-buffer
                                                    (gptel-rust-hooks-menu--screen-buffer)))))
    (with-current-buffer (gptel-rust-hooks-menu--edit-buffer
                          '(:id "my-rule" :tool "shell" :command-prefix "make"
                                :decision allow)
                          (cons nil kind)
                          (format "A new rule for %s" kind))
      (setq gptel-rust-hooks-menu--request-buffer request))))

(defun gptel-rust-hooks-menu-trust ()
  "Trust the project file of the screen's directory as it is now."
  (interactive)
  (let ((default-directory (buffer-local-value 'default-directory
                                               (gptel-rust-hooks-menu--screen-buffer))))
    (call-interactively #'gptel-rust-hooks-trust-project)
    (gptel-rust-hooks-menu--refresh-screen)))

(defun gptel-rust-hooks-menu-forget ()
  "Forget what is at point: a project file's trust, or rules added for a while.
On the project file, untrust it; on rules added for the session or the
buffer, remove them all; on a rule added from the prompt, delete it."
  (interactive)
  (let ((source (with-current-buffer (gptel-rust-hooks-menu--screen-buffer)
                  (gptel-rust-hooks-menu--source-at-point))))
    (pcase (plist-get source :kind)
      ('project (gptel-rust-hooks-untrust-project (plist-get source :file)))
      ((or 'session 'buffer)
       (with-current-buffer (or (plist-get source :buffer) (current-buffer))
         (gptel-rust-hooks-forget-added-rules)))
      ('prompt (gptel-rust-hooks-menu-delete))
      (_ (user-error "Move to the project file or to rules added for a while first")))
    (gptel-rust-hooks-menu--refresh-screen)))

(defun gptel-rust-hooks-menu-refresh ()
  "Show the policy in force again."
  (interactive)
  (gptel-rust-hooks-menu--on-screen nil))

(defun gptel-rust-hooks-menu--entry-description ()
  "Return the transient's heading: the rule at point on the screen."
  (let ((entry (ignore-errors (gptel-rust-hooks-menu--entry-or-error))))
    (if entry
        (format "Rule `%s' (%s)" (plist-get entry :id)
                (plist-get (plist-get entry :source) :label))
      "No rule at point")))

;;;###autoload (autoload 'gptel-rust-hooks-menu "gptel-rust-hooks-menu" nil t)
(transient-define-prefix gptel-rust-hooks-menu ()
  "The actions of the permissions screen of this package."
  [:description gptel-rust-hooks-menu--entry-description
   ["Move"
    ("n" "Next rule" gptel-rust-hooks-menu-next :transient t)
    ("p" "Previous rule" gptel-rust-hooks-menu-previous :transient t)
    ("g" "Refresh" gptel-rust-hooks-menu-refresh :transient t)]
   ["Rule"
    ("a" "Add" gptel-rust-hooks-menu-add)
    ("e" "Edit in its source" gptel-rust-hooks-edit-rule)
    ("d" "Disable / enable" gptel-rust-hooks-menu-toggle :transient t)
    ("k" "Delete" gptel-rust-hooks-menu-delete :transient t)]
   ["Project and added rules"
    ("t" "Trust the project file" gptel-rust-hooks-menu-trust)
    ("f" "Forget (trust, added rules)" gptel-rust-hooks-menu-forget)]
   ["Calls"
    ("x" "Explain a call" gptel-rust-hooks-explain)
    ("l" "Open the log" gptel-rust-hooks-log)]])

(provide 'gptel-rust-hooks-menu)
;;; gptel-rust-hooks-menu.el ends here
