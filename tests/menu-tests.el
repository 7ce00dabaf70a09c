;;; menu-tests.el --- The permissions screen: its data and its actions -*- lexical-binding: t; -*-

;;; Commentary:

;; M-x gptel-rust-hooks shows the policy in force by source, and a
;; transient menu of actions.  These tests drive the data behind it
;; (`gptel-rust-hooks-menu-sources') and each action, without a user:
;; disable, delete, edit in the rule's own source, add, and the screen's
;; buffer.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-menu)

(defmacro menu-tests--with-sources (vars &rest body)
  "Run BODY with fresh state, a project and files bound to VARS.
VARS is (ROOT POLICY-FILE PROMPT-FILE); all are deleted after."
  (declare (indent 1) (debug t))
  (let ((root (nth 0 vars)) (policy (nth 1 vars)) (prompt (nth 2 vars)))
    `(let* ((,root (file-name-as-directory
                    (file-truename (make-temp-file "gptel-rust-hooks-menu-" t))))
            (,policy (make-temp-file "gptel-rust-hooks-policy-" nil ".json"
                                     "[\n  {\"id\": \"p1\", \"tool\": \"x\", \"decision\": \"deny\"},\n\n  {\"id\": \"p2\", \"tool\": \"y\", \"decision\": \"ask\"}\n]\n"))
            (,prompt (make-temp-file "gptel-rust-hooks-added-" nil ".eld")))
       (unwind-protect
           (gptel-rust-hooks-test-with-state
             (let ((gptel-rust-hooks-prompt-rules-file ,prompt)
                   (gptel-rust-hooks-preset 'workspace)
                   (custom-file nil)
                   (user-init-file nil))
               (make-directory (expand-file-name ".git" ,root))
               (with-temp-file (expand-file-name ".gptel-hooks.json" ,root)
                 (insert "[{\"id\": \"proj\", \"tool\": \"z\", \"decision\": \"allow\"}]"))
               (with-temp-file ,prompt
                 (insert "((:id \"added\" :tool \"shell\" :command-prefix \"make\" :decision allow))"))
               (customize-set-variable 'gptel-rust-hooks-rules
                                       '((:id "no-rm" :command-prefix "rm" :decision deny
                                              :reason "No rm.")
                                         (:id "t-ask" :tool "t" :decision ask)))
               (customize-set-variable 'gptel-rust-hooks-policy-files (list ,policy))
               (setq gptel-rust-hooks--session-rules '((:id "s" :tool "s" :decision allow)))
               ,@body))
         (delete-directory ,root t)
         (delete-file ,policy)
         (when (file-exists-p ,prompt) (delete-file ,prompt))))))

(defun menu-tests--source (sources kind)
  "Return the source of KIND among SOURCES."
  (cl-find kind sources :key (lambda (s) (plist-get s :kind))))

(defun menu-tests--entry (sources kind id)
  "Return the entry ID of the source KIND among SOURCES."
  (cl-find id (plist-get (menu-tests--source sources kind) :entries)
           :key (lambda (e) (plist-get e :id)) :test #'equal))

(defun menu-tests--decide (call directory)
  "Return the pre-tool answer for CALL from DIRECTORY."
  (let ((default-directory directory))
    (gptel-rust-hooks-pre-tool-call call)))

(ert-deftest menu::sources-in-order-with-decisions-and-summaries ()
  "The policy in force by source: preset, option, prompt, session, buffer, files."
  (menu-tests--with-sources (root policy prompt)
    (let ((sources (gptel-rust-hooks-menu-sources root)))
      (should (equal (mapcar (lambda (s) (plist-get s :kind)) sources)
                     '(preset option prompt session buffer file project)))
      (should (string-match-p "Preset `workspace'.*for the project"
                              (plist-get (menu-tests--source sources 'preset) :label)))
      (should (string-match-p "\\`path ~/\\.ssh, ~/\\.ssh/\\*\\*, ~/\\.aws, ~/\\.aws/\\*\\*, … ([0-9]+ more)"
                              (plist-get (menu-tests--entry sources 'preset "secrets") :summary)))
      (let ((e (menu-tests--entry sources 'option "no-rm")))
        (should (eq (plist-get e :decision) 'deny))
        (should (equal (plist-get e :summary) "command rm; \"No rm.\"")))
      (should (equal (plist-get (menu-tests--entry sources 'prompt "added") :summary)
                     "tool shell; command make"))
      (should (menu-tests--entry sources 'session "s"))
      ;; A JSON file's rules carry their line.
      (should (equal (plist-get (menu-tests--entry sources 'file "p2") :line) 4))
      (should (equal (plist-get (menu-tests--entry sources 'file "p2") :decision) 'ask))
      ;; The project file, and its trust.
      (let ((project (menu-tests--source sources 'project)))
        (should (null (plist-get project :trusted)))
        (should (string-match-p "untrusted" (plist-get project :label)))
        (should (equal (mapcar (lambda (e) (plist-get e :id)) (plist-get project :entries))
                       '("proj")))))))

(ert-deftest menu::disable-and-enable-a-rule-of-the-option ()
  "Disabling marks the rule in its source and takes it out of force."
  (menu-tests--with-sources (root _policy _prompt)
    (should (plist-get (menu-tests--decide '(:name "shell" :args (:command "rm x")) root)
                       :block))
    (let ((entry (menu-tests--entry (gptel-rust-hooks-menu-sources root) 'option "no-rm")))
      (should (string-match-p "session only" (gptel-rust-hooks-menu-toggle-rule entry))))
    (should (eq (plist-get (car gptel-rust-hooks-rules) :disabled) t))
    (should-not (plist-get (menu-tests--decide '(:name "shell" :args (:command "rm x")) root)
                           :block))
    (let ((entry (menu-tests--entry (gptel-rust-hooks-menu-sources root) 'option "no-rm")))
      (should (plist-get entry :disabled))
      (gptel-rust-hooks-menu-toggle-rule entry))
    (should (equal (car gptel-rust-hooks-rules)
                   '(:id "no-rm" :command-prefix "rm" :decision deny :reason "No rm.")))
    (should (plist-get (menu-tests--decide '(:name "shell" :args (:command "rm x")) root)
                       :block))))

(ert-deftest menu::option-saved-when-there-is-a-custom-file ()
  "With a custom file, an edit of the option is saved there, and says so."
  (menu-tests--with-sources (root _policy _prompt)
    (let* ((saved (make-temp-file "gptel-rust-hooks-custom-" nil ".el"))
           (custom-file saved)
           (user-init-file saved))
      (unwind-protect
          (let ((entry (menu-tests--entry (gptel-rust-hooks-menu-sources root) 'option "t-ask")))
            (should (equal (gptel-rust-hooks-menu-delete-rule entry)
                           (format "saved in %s" (abbreviate-file-name saved))))
            (should (equal (mapcar (lambda (r) (plist-get r :id)) gptel-rust-hooks-rules)
                           '("no-rm")))
            (should (string-match-p "no-rm" (with-temp-buffer (insert-file-contents saved)
                                                              (buffer-string))))
            (should-not (string-match-p "t-ask" (with-temp-buffer (insert-file-contents saved)
                                                                  (buffer-string)))))
        (delete-file saved)))))

(ert-deftest menu::delete-a-rule-added-from-the-prompt ()
  "Deleting a rule added from the prompt rewrites its file."
  (menu-tests--with-sources (root _policy prompt)
    (should (equal (menu-tests--decide '(:name "shell" :args (:command "make")) root)
                   '(:confirm nil)))
    (let ((entry (menu-tests--entry (gptel-rust-hooks-menu-sources root) 'prompt "added")))
      (should (string-prefix-p "saved in " (gptel-rust-hooks-menu-delete-rule entry))))
    (should (equal (with-temp-buffer (insert-file-contents prompt) (goto-char (point-min))
                                     (read (current-buffer)))
                   nil))
    (should (null (menu-tests--decide '(:name "shell" :args (:command "make")) root)))))

(ert-deftest menu::edit-a-rule-in-its-own-buffer ()
  "Editing opens the rule alone; C-c C-c checks and saves it where it lives."
  (menu-tests--with-sources (root _policy _prompt)
    (let ((entry (menu-tests--entry (gptel-rust-hooks-menu-sources root) 'session "s")))
      (gptel-rust-hooks-edit-rule entry)
      (with-current-buffer "*gptel-rust-hooks-rule*"
        (goto-char (point-min))
        (should (equal (read (current-buffer)) '(:id "s" :tool "s" :decision allow)))
        ;; A bad rule is refused, and nothing changes.
        (goto-char (point-min))
        (re-search-forward "allow")
        (replace-match "alow")
        (should-error (gptel-rust-hooks-rule-edit-finish) :type 'user-error)
        (should (equal gptel-rust-hooks--session-rules '((:id "s" :tool "s" :decision allow))))
        (goto-char (point-min))
        (re-search-forward "alow")
        (replace-match "deny")
        (gptel-rust-hooks-rule-edit-finish))
      (should (equal gptel-rust-hooks--session-rules '((:id "s" :tool "s" :decision deny))))
      (should (plist-get (menu-tests--decide '(:name "s" :args nil) root) :block)))))

(ert-deftest menu::edit-a-json-rule-visits-its-line ()
  "A rule of a policy file is edited in the file, at its line."
  (menu-tests--with-sources (root policy _prompt)
    (let ((entry (menu-tests--entry (gptel-rust-hooks-menu-sources root) 'file "p2")))
      (gptel-rust-hooks-edit-rule entry)
      (should (equal (buffer-file-name) policy))
      (should (= (line-number-at-pos) 4))
      (should (looking-at " *{\"id\": \"p2\""))
      (kill-buffer))))

(ert-deftest menu::add-a-rule-to-a-source ()
  "A rule added to the rules from the prompt lands in their file."
  (menu-tests--with-sources (root _policy prompt)
    (gptel-rust-hooks-menu-add-rule 'prompt '(:id "new" :tool "n" :decision allow))
    (let ((gptel-rust-hooks--prompt-rules :unread))
      (should (equal (mapcar (lambda (r) (plist-get r :id)) (gptel-rust-hooks--prompt-rules))
                     '("added" "new"))))
    (should (string-match-p "\"new\"" (with-temp-buffer (insert-file-contents prompt)
                                                        (buffer-string))))
    ;; A bad rule is refused.
    (should-error (gptel-rust-hooks-menu-add-rule 'session '(:tool "n" :decison allow))
                  :type 'gptel-rust-hooks-rule-error)
    (should (equal gptel-rust-hooks--session-rules '((:id "s" :tool "s" :decision allow))))))

(ert-deftest menu::a-changed-source-is-not-overwritten ()
  "An entry read before its source changed is refused, not applied blindly."
  (menu-tests--with-sources (root _policy _prompt)
    (let ((entry (menu-tests--entry (gptel-rust-hooks-menu-sources root) 'session "s")))
      (setq gptel-rust-hooks--session-rules '((:id "other" :tool "o" :decision deny)))
      (should-error (gptel-rust-hooks-menu-delete-rule entry) :type 'user-error)
      (should (equal gptel-rust-hooks--session-rules '((:id "other" :tool "o" :decision deny)))))))

(ert-deftest menu::screen-lists-sources-and-acts-at-point ()
  "The screen shows each source and rule; d at a rule disables it."
  (menu-tests--with-sources (root _policy _prompt)
    (let ((buffer (gptel-rust-hooks-menu--show root (current-buffer))))
      (unwind-protect
          (with-current-buffer buffer
            (let ((text (buffer-string)))
              (dolist (label '("Preset `workspace'" "Your rules (gptel-rust-hooks-rules)"
                               "Added from the prompt" "Added for this Emacs session"
                               "Policy file" "Project file"))
                (should (string-search label text)))
              (should (string-match-p "deny +no-rm +command rm" text)))
            (goto-char (point-min))
            (re-search-forward "no-rm")
            (should (equal (plist-get (gptel-rust-hooks-menu--entry-at-point) :id) "no-rm"))
            (gptel-rust-hooks-menu-toggle)
            (should (plist-get (car gptel-rust-hooks-rules) :disabled))
            (goto-char (point-min))
            (re-search-forward "no-rm")
            (should (string-match-p "\\[off\\]" (buffer-substring (line-beginning-position)
                                                                  (line-end-position)))))
        (kill-buffer buffer)))))

(ert-deftest menu::transient-and-gptel-menu-entry ()
  "The screen's menu is a transient; `gptel-menu' offers the screen."
  (should (get 'gptel-rust-hooks-menu 'transient--prefix))
  (should (commandp #'gptel-rust-hooks))
  (require 'gptel-transient)
  (gptel-rust-hooks-ui--add-menu-entry)
  (if (condition-case nil
          ;; Whether this transient can search gptel's menu at all (transient
          ;; 0.13 on Emacs 28 cannot: `kbd' of an info line's nil key).
          (progn (transient-get-suffix 'gptel-menu "t") t)
        (error nil))
      (let ((suffix (transient-get-suffix 'gptel-menu '(0 2 3))))
        (should (equal (plist-get (cdr suffix) :key) "R"))
        (should (eq (plist-get (cdr suffix) :command) 'gptel-rust-hooks))
        ;; Added once only.
        (gptel-rust-hooks-ui--add-menu-entry)
        (should-not (eq (plist-get (cdr (transient-get-suffix 'gptel-menu '(0 2 4))) :command)
                        'gptel-rust-hooks)))
    ;; Left alone, without an error.
    (should-not (gptel-rust-hooks-ui--layout-has-p (get 'gptel-menu 'transient--layout)
                                                   'gptel-rust-hooks))))

(provide 'menu-tests)
;;; menu-tests.el ends here
