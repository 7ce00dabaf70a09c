;;; always-allow-tests.el --- "Always allow" from gptel's confirmation prompt -*- lexical-binding: t; -*-

;;; Commentary:

;; When gptel asks to confirm tool calls, `gptel-rust-hooks-always-allow'
;; (C-c C-a on the prompt, `a' in the minibuffer prompt) adds an allow
;; rule: this exact call, this command prefix, or this tool under a
;; directory; for this buffer, this Emacs session or the project (saved in
;; `gptel-rust-hooks-prompt-rules-file', never in the project file).  The
;; prompts are gptel's own: `gptel--display-tool-calls' called directly,
;; and whole `gptel-send' conversations against the fake server.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-ui)

(defun always-tests--tool (name args)
  "Make a gptel tool NAME recording what it receives; ARGS are optional strings."
  (gptel-rust-hooks-test-make-tool name args))

(defun always-tests--prompt (calls &optional use-minibuffer)
  "Show gptel's own confirmation prompt for CALLS, ((TOOL ARGS) ...).
Return (:buffer :info :tool-calls :results): RESULTS is a cons whose
car collects what each call's callback received.  With USE-MINIBUFFER,
gptel asks in the minibuffer, and the answer is handled before return."
  (let* ((buffer (generate-new-buffer "*always-allow-test*"))
         (results (list nil))
         (info nil)
         (tool-calls nil))
    (with-current-buffer buffer
      (text-mode)
      (setq-local gptel-tools (mapcar #'car calls))
      (insert "Please use the tools.\n")
      (setq info (list :buffer buffer
                       :position (point-max-marker)
                       :backend (gptel-rust-hooks-test-backend)
                       :model gptel-rust-hooks-test-model
                       :tools (mapcar #'car calls)))
      (setq tool-calls
            (mapcar (lambda (c)
                      (list (car c) (cadr c)
                            (lambda (result) (push result (car results)))))
                    calls))
      (gptel--display-tool-calls tool-calls info use-minibuffer))
    (list :buffer buffer :info info :tool-calls tool-calls :results results)))

(defun always-tests--overlay (buffer)
  "Return gptel's pending tool-call overlay in BUFFER, or nil."
  (gptel-rust-hooks-test--pending-overlay buffer))

(defmacro always-tests--answering (answers &rest body)
  "Run BODY answering `read-multiple-choice' by ANSWERS, ((PROMPT-REGEXP . KEY) ...).
Prompts that match no regexp signal an error.  The choices offered are
collected in `always-tests--offered', newest first."
  (declare (indent 1) (debug t))
  `(let ((always-tests--offered nil))
     (cl-letf (((symbol-function 'read-multiple-choice)
                (lambda (prompt choices &rest _)
                  (push (cons prompt (mapcar #'car choices)) always-tests--offered)
                  (let ((key (cdr (cl-find-if (lambda (a) (string-match-p (car a) prompt))
                                              ,answers))))
                    (or (assq key choices)
                        (error "Unexpected prompt %S with %S" prompt choices))))))
       ,@body)))

(defvar always-tests--offered nil
  "The prompts `always-tests--answering' answered, with their choice keys.")

(defun always-tests--kill (prompt)
  "Kill the buffer of PROMPT, an `always-tests--prompt' result."
  (gptel-rust-hooks-test--kill-buffer (plist-get prompt :buffer)))

;;;; On gptel's prompt in the buffer

(ert-deftest always::exact-call-for-the-session-from-the-buffer-prompt ()
  "C-c C-a on gptel's prompt: allow this exact call for the session, then run it."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode nil
      (let* ((gptel-rust-hooks-test--ran nil)
             (read-file (always-tests--tool "read_file" '("path" "limit")))
             (p (always-tests--prompt `((,read-file (:path "/tmp/a")))))
             (ov (always-tests--overlay (plist-get p :buffer))))
        (unwind-protect
            (with-current-buffer (plist-get p :buffer)
              (should ov)
              ;; gptel's prompt offers our key, beside its own.
              (should (string-match-p "Always allow (gptel-rust-hooks): C-c C-a"
                                      (cl-some (lambda (o) (overlay-get o 'after-string))
                                               (overlays-in (point-min) (point-max)))))
              (goto-char (overlay-start ov))
              (should (eq (key-binding (kbd "C-c C-a")) #'gptel-rust-hooks-always-allow))
              (should (eq (key-binding (kbd "C-c C-c")) #'gptel--accept-tool-calls))
              (always-tests--answering '(("\\`Always allow" . ?e) ("\\`For" . ?s))
                                       (call-interactively (key-binding (kbd "C-c C-a"))))
              ;; The rule was added for the session...
              (should (equal gptel-rust-hooks--session-rules
                             '((:id "always-allow read_file (:path \"/tmp/a\")"
                                    :tool "read_file"
                                    :args (:path (:equal "/tmp/a") :limit (:present nil))
                                    :decision allow))))
              ;; ...and gptel ran the call, as C-c C-c would have.
              (should-not (always-tests--overlay (current-buffer)))
              (should (equal gptel-rust-hooks-test--ran '(("read_file" :path "/tmp/a"))))
              (should (equal (car (plist-get p :results)) '("read_file: ok")))
              ;; This exact call is allowed from now on; others are not.
              (should (equal (gptel-rust-hooks-pre-tool-call
                              '(:name "read_file" :args (:path "/tmp/a")))
                             '(:confirm nil)))
              ;; The log shows which rule decided.
              (should (equal (plist-get (car (gptel-rust-hooks-log-entries)) :deciding)
                             "always-allow read_file (:path \"/tmp/a\") in session"))
              (should (null (gptel-rust-hooks-pre-tool-call
                             '(:name "read_file" :args (:path "/tmp/a" :limit 5)))))
              (should (null (gptel-rust-hooks-pre-tool-call
                             '(:name "read_file" :args (:path "/tmp/b")))))
              ;; Explain shows it.
              (let ((data (gptel-rust-hooks-explain '(:name "read_file" :args (:path "/tmp/a")))))
                (should (equal (plist-get data :deciding-rule)
                               "always-allow read_file (:path \"/tmp/a\") in session"))))
          (always-tests--kill p))))))

(ert-deftest always::never-overrides-deny-or-ask ()
  "An added allow rule cannot undo a deny; a call our ask rule decides is refused."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode '((:id "ask-writes" :tool "write_file" :decision ask)
                                       (:id "no-tmp-b" :tool "shell" :command-prefix "rm"
                                            :decision deny :reason "No rm."))
      (let* ((write (always-tests--tool "write_file" '("path" "content")))
             (p (always-tests--prompt `((,write (:path "/tmp/w" :content "x"))))))
        (unwind-protect
            (with-current-buffer (plist-get p :buffer)
              (goto-char (overlay-start (always-tests--overlay (current-buffer))))
              (let ((err (should-error (call-interactively #'gptel-rust-hooks-always-allow)
                                       :type 'user-error)))
                ;; Issue 24: the refusal says how to visit the rule.
                (should (equal (cadr err) "Rule `ask-writes` decides this call; an allow \
rule cannot override it (edit that rule: C-c C-v on the prompt visits it)")))
              ;; And that key does.
              (save-current-buffer
                (call-interactively #'gptel-rust-hooks-visit-asking-rule)
                (with-current-buffer "*gptel-rust-hooks-rule*"
                  (goto-char (point-min))
                  (should (equal (read (current-buffer))
                                 '(:id "ask-writes" :tool "write_file" :decision ask)))))
              (should (null gptel-rust-hooks--session-rules))
              ;; The prompt is still there.
              (should (always-tests--overlay (current-buffer))))
          (always-tests--kill p)))
      ;; An allow rule for the whole shell tool leaves the deny in force.
      (setq gptel-rust-hooks--session-rules
            (list (gptel-rust-hooks-ui--always-rule 'directory '(:name "shell" :args nil) "/")))
      (should (equal (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:command "rm x")))
                     '(:block "No rm.")))
      (should (equal (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:command "ls")))
                     '(:confirm nil))))))

(ert-deftest always::tool-under-a-directory-for-the-project ()
  "For the project, the rule goes to the prompt rules file with a :cwd matcher.
Not into `gptel-rust-hooks-rules', which an init file sets again at the
next start (issue 24), and not into the custom file, which Emacs -Q has
none of."
  (gptel-rust-hooks-test-with-state
    (let* ((root (file-name-as-directory
                  (file-truename (make-temp-file "gptel-rust-hooks-always-" t))))
           (project-file (expand-file-name ".gptel-hooks.json" root))
           (project-text "[{\"tool\": \"shell\", \"decision\": \"ask\"}]")
           (saved (make-temp-file "gptel-rust-hooks-added-" nil ".eld"))
           (gptel-rust-hooks-prompt-rules-file saved)
           (other (file-name-as-directory (make-temp-file "gptel-rust-hooks-other-" t))))
      (unwind-protect
          (gptel-rust-hooks-test-with-mode '((:id "mine" :tool "x" :decision deny))
            (with-temp-file project-file (insert project-text))
            (make-directory (expand-file-name "src" root))
            (let* ((read-file (always-tests--tool "read_file" '("path")))
                   (p (always-tests--prompt
                       `((,read-file (:path ,(expand-file-name "src/a.c" root)))))))
              (unwind-protect
                  (with-current-buffer (plist-get p :buffer)
                    (setq default-directory (expand-file-name "src/" root))
                    (goto-char (overlay-start (always-tests--overlay (current-buffer))))
                    (cl-letf (((symbol-function 'read-directory-name)
                               (lambda (_prompt dir &rest _)
                                 ;; Offered: the project's root.
                                 (should (equal dir root))
                                 dir)))
                      (always-tests--answering '(("\\`Always allow" . ?d) ("\\`For" . ?p))
                                               (gptel-rust-hooks-always-allow)))
                    (should-not (always-tests--overlay (current-buffer))))
                (always-tests--kill p)))
            (let ((rule (car (last (gptel-rust-hooks--prompt-rules))))
                  (dir (directory-file-name root)))
              ;; The user's option is left alone.
              (should (equal gptel-rust-hooks-rules '((:id "mine" :tool "x" :decision deny))))
              (should (equal (length (gptel-rust-hooks--prompt-rules)) 1))
              (should (equal rule
                             `(:id ,(format "always-allow read_file under %s, in %s"
                                            (abbreviate-file-name root)
                                            (abbreviate-file-name root))
                                   :tool "read_file" :path ,(concat dir "/**") :decision allow
                                   :cwd (,dir ,(concat dir "/**")))))
              ;; Saved for future sessions, in the file of its own: a new
              ;; session (nothing read yet) reads it back.
              (should (equal (let ((gptel-rust-hooks--prompt-rules :unread))
                               (gptel-rust-hooks--prompt-rules))
                             (list rule)))
              ;; Never in the project file.
              (should (equal (with-temp-buffer (insert-file-contents project-file)
                                               (buffer-string))
                             project-text)))
            (let ((inside `(:name "read_file" :args (:path ,(expand-file-name "src/b.c" root))))
                  (outside '(:name "read_file" :args (:path "/etc/hosts"))))
              (let ((default-directory root))
                (should (equal (gptel-rust-hooks-pre-tool-call inside) '(:confirm nil)))
                (should (null (gptel-rust-hooks-pre-tool-call outside))))
              ;; From another directory the rule does not apply.
              (let ((default-directory other))
                (should (null (gptel-rust-hooks-pre-tool-call inside))))))
        (delete-directory root t)
        (delete-directory other t)
        (delete-file saved)))))

(ert-deftest always::one-of-several-calls-leaves-the-others-asking ()
  "With two calls pending, allowing one runs nothing: the other still waits."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode nil
      (let* ((gptel-rust-hooks-test--ran nil)
             (read-file (always-tests--tool "read_file" '("path")))
             (p (always-tests--prompt `((,read-file (:path "/tmp/a"))
                                        (,read-file (:path "/tmp/b")))))
             (offered nil))
        (unwind-protect
            (with-current-buffer (plist-get p :buffer)
              (goto-char (overlay-start (always-tests--overlay (current-buffer))))
              (cl-letf (((symbol-function 'completing-read)
                         (lambda (_prompt names &rest _)
                           (setq offered (mapcar #'car names))
                           (cadr offered))))
                (always-tests--answering '(("\\`Always allow" . ?e) ("\\`For" . ?b))
                  (gptel-rust-hooks-always-allow)))
              (should (equal offered '("1: read_file (:path \"/tmp/a\")"
                                       "2: read_file (:path \"/tmp/b\")")))
              (should (equal (mapcar (lambda (r) (plist-get r :id)) gptel-rust-hooks--buffer-rules)
                             '("always-allow read_file (:path \"/tmp/b\")")))
              ;; Nothing ran; gptel still asks about both.
              (should-not gptel-rust-hooks-test--ran)
              (should (= 2 (length (overlay-get (always-tests--overlay (current-buffer))
                                                'gptel-tool)))))
          (always-tests--kill p))))))

;;;; In the minibuffer prompt

(ert-deftest always::minibuffer-prompt-offers-always-allow ()
  "gptel's minibuffer prompt gets the choice `a'; after the rule, the calls run."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode nil
      (let* ((gptel-rust-hooks-test--ran nil)
             (shell (always-tests--tool "shell" '("command")))
             (answers '(("wants to run" . ?a) ("\\`Always allow" . ?p) ("\\`For" . ?b)))
             (p nil))
        (unwind-protect
            (always-tests--answering answers
                                     (cl-letf (((symbol-function 'read-string)
                                                (lambda (_prompt initial &rest _)
                                                  (should (equal initial "git status"))
                                                  "git status, git log")))
                                       (setq p (always-tests--prompt `((,shell (:command "git status -s"))) t)))
                                     ;; gptel's own prompt, with our choice added; then ours.
                                     (should (equal (mapcar #'cdr (reverse always-tests--offered))
                                                    '((?y ?n ?r ?i ?a) (?e ?p ?d) (?b ?s ?p))))
                                     (with-current-buffer (plist-get p :buffer)
                                       (should (equal gptel-rust-hooks--buffer-rules
                                                      '((:id "always-allow shell `git status`, `git log`"
                                                             :tool "shell" :command-prefix ("git status" "git log")
                                                             :decision allow))))
                                       ;; Every simple command must start with an allowed prefix.
                                       (should (equal (gptel-rust-hooks-pre-tool-call
                                                       '(:name "shell" :args (:command "git log && git status")))
                                                      '(:confirm nil)))
                                       (should (null (gptel-rust-hooks-pre-tool-call
                                                      '(:name "shell" :args (:command "git status; rm -rf /")))))))
          (when p (always-tests--kill p)))
        (should (equal gptel-rust-hooks-test--ran '(("shell" :command "git status -s"))))
        ;; Only that buffer has the rule.
        (with-temp-buffer
          (should (null (gptel-rust-hooks-pre-tool-call
                         '(:name "shell" :args (:command "git status"))))))))))

(ert-deftest always::prompt-shows-which-rule-asks-and-why ()
  "gptel's prompt names the rule that asks and its reason, and visits it."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode '((:id "ask-writes" :tool "write_file" :decision ask
                                            :reason "Writes need a look."))
      (let* ((write (always-tests--tool "write_file" '("path" "content")))
             (other (always-tests--tool "other" '("q")))
             (p (always-tests--prompt `((,write (:path "/tmp/w" :content "x"))
                                        (,other (:q "1"))))))
        (unwind-protect
            (with-current-buffer (plist-get p :buffer)
              (let* ((ov (always-tests--overlay (current-buffer)))
                     (shown (mapconcat (lambda (o) (or (overlay-get o 'after-string) ""))
                                       (overlays-in (point-min) (point-max)) "")))
                (should (string-match-p
                         "write_file asked by rule `ask-writes': Writes need a look\\.  (C-c C-v visits it)"
                         shown))
                ;; The call no rule asks for gets no line.
                (should-not (string-match-p "other asked" shown))
                (goto-char (overlay-start ov))
                (call-interactively #'gptel-rust-hooks-visit-asking-rule)
                (with-current-buffer "*gptel-rust-hooks-rule*"
                  (goto-char (point-min))
                  (should (equal (plist-get (read (current-buffer)) :id) "ask-writes")))))
          (always-tests--kill p))))))

(ert-deftest always::minibuffer-prompt-offers-to-visit-the-asking-rule ()
  "In the minibuffer prompt, `v' visits the rule that asks, then asks again."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode '((:id "ask-writes" :tool "write_file" :decision ask
                                            :reason "Writes need a look."))
      (let* ((write (always-tests--tool "write_file" '("path" "content")))
             (answers (list (cons "wants to run" ?v)))
             (p nil))
        (unwind-protect
            (always-tests--answering answers
              (cl-letf* ((rmc (symbol-function 'read-multiple-choice))
                         (seen nil)
                         ((symbol-function 'read-multiple-choice)
                          (lambda (prompt choices &rest rest)
                            (push prompt seen)
                            ;; The second time, reject: the prompt ends.
                            (if (cdr seen) (assq ?n choices)
                              (apply rmc prompt choices rest)))))
                (setq p (always-tests--prompt `((,write (:path "/tmp/w" :content "x"))) t))
                (should (= (length seen) 2))
                (should (string-match-p "asked by rule `ask-writes': Writes need a look"
                                        (car (last seen)))))
              (should (equal (cdar always-tests--offered) '(?y ?n ?r ?i ?a ?v)))
              (with-current-buffer "*gptel-rust-hooks-rule*"
                (goto-char (point-min))
                (should (equal (plist-get (read (current-buffer)) :id) "ask-writes"))))
          (when p (always-tests--kill p)))))))

(ert-deftest always::rule-that-would-not-match-is-refused ()
  "A prefix that does not cover the call adds nothing."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode nil
      (let* ((shell (always-tests--tool "shell" '("command")))
             (p (always-tests--prompt `((,shell (:command "make && make install"))))))
        (unwind-protect
            (with-current-buffer (plist-get p :buffer)
              (goto-char (overlay-start (always-tests--overlay (current-buffer))))
              (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "make test")))
                (always-tests--answering '(("\\`Always allow" . ?p) ("\\`For" . ?s))
                                         (let ((err (should-error (gptel-rust-hooks-always-allow) :type 'user-error)))
                                           (should (string-match-p "\\`This rule would not allow the call: .*:examples: \
example :match .* does not match the rule (no match on command-prefix)"
                                                                   (cadr err))))))
              (should (null gptel-rust-hooks--session-rules))
              (should (always-tests--overlay (current-buffer))))
          (always-tests--kill p))))))

(ert-deftest always::mode-off-removes-the-offer ()
  "Off, gptel's prompt is gptel's alone."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode nil
      (should (advice-member-p #'gptel-rust-hooks-ui--display-tool-calls 'gptel--display-tool-calls))
      (gptel-rust-hooks-mode -1)
      (should-not (advice-member-p #'gptel-rust-hooks-ui--display-tool-calls
                                   'gptel--display-tool-calls))
      (let* ((tool (always-tests--tool "read_file" '("path")))
             (p (always-tests--prompt `((,tool (:path "/tmp/a"))))))
        (unwind-protect
            (with-current-buffer (plist-get p :buffer)
              (goto-char (overlay-start (always-tests--overlay (current-buffer))))
              (should-not (key-binding (kbd "C-c C-a")))
              (should-not (cl-find-if (lambda (o)
                                        (string-match-p "gptel-rust-hooks"
                                                        (or (overlay-get o 'after-string) "")))
                                      (overlays-in (point-min) (point-max)))))
          (always-tests--kill p))))))

;;;; A whole conversation

(ert-deftest always::conversation-prefix-for-the-buffer ()
  "Through `gptel-send': allowing `git status' for the buffer stops the prompts for it."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode nil
      (let* ((seen-rules nil)
             (r (gptel-rust-hooks-test-with-conversation
                  :tools '(("shell" ("command")))
                  :confirm-tool-calls t
                  :script '((:tool-calls ((:name "shell" :args (:command "git status"))))
                            (:tool-calls ((:name "shell" :args (:command "git status -s"))))
                            (:tool-calls ((:name "shell" :args (:command "git push"))))
                            (:content "Done."))
                  :on-confirm
                  (lambda (asked)
                    (if (equal asked '(("shell" :command "git status")))
                        (progn
                          (goto-char (overlay-start (gptel-rust-hooks-test--pending-overlay
                                                     (current-buffer))))
                          (cl-letf (((symbol-function 'read-string)
                                     (lambda (_prompt initial &rest _) initial)))
                            (always-tests--answering '(("\\`Always allow" . ?p)
                                                       ("\\`For" . ?b))
                                                     (call-interactively (key-binding (kbd "C-c C-a")))))
                          'handled)
                      (setq seen-rules gptel-rust-hooks--buffer-rules)
                      nil)))))
        (should-not (plist-get r :timed-out))
        (should (equal (plist-get r :prompted)
                       '(("shell" :command "git status") ("shell" :command "git push"))))
        (should (equal (plist-get r :ran)
                       '(("shell" :command "git status") ("shell" :command "git status -s"))))
        (should (equal (plist-get r :pending) '(("shell" :command "git push"))))
        (should (equal seen-rules
                       '((:id "always-allow shell `git status`" :tool "shell"
                              :command-prefix ("git status") :decision allow))))
        ;; The model got both results.
        (should (equal (mapcar (lambda (msgs) (mapcar (lambda (m) (plist-get m :content)) msgs))
                               (plist-get r :tool-messages))
                       '(nil ("shell: ok") ("shell: ok" "shell: ok"))))))))

(provide 'always-allow-tests)
;;; always-allow-tests.el ends here
