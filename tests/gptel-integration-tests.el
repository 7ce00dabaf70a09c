;;; gptel-integration-tests.el --- gptel-rust-hooks inside real gptel  -*- lexical-binding: t; -*-

;;; Commentary:

;; The package's public names (DESIGN.md) exercised through gptel's own
;; tool-call code: `gptel-rust-hooks-mode' on, `gptel-rust-hooks-rules'
;; set with `customize-set-variable', then gptel's state machine (see
;; `gptel-rust-hooks-test-with-fsm') or whole `gptel-send' conversations
;; against tests/fake_openai_server.py.
;;
;; Run from the project root, with the package's lisp/ on the load path
;; and `gptel-rust-hooks-module-directory' pointing at the built module:
;;
;;   emacs -Q --batch -L lisp -L tests \
;;     --eval '(setq gptel-rust-hooks-module-directory "target/release")' \
;;     -l tests/test-helper.el -l tests/gptel-integration-tests.el \
;;     -f ert-run-tests-batch-and-exit

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)

(defconst gptel-integration-tests--rm-call
  '((:name "shell" :args (:command "rm -rf /tmp/x") :id "call_rm"))
  "One shell call that removes files.")

(defconst gptel-integration-tests--shell-tool
  '("shell" ("command" ("timeout" integer)))
  "A shell tool taking a command and an optional timeout.")

(defun gptel-integration-tests--error-text (reason)
  "Return the tool result gptel gives a call blocked with REASON."
  (concat "<tool_call_error>\n" reason "\n</tool_call_error>"))

(defun gptel-integration-tests--contents (messages)
  "Return the :content of each message in MESSAGES."
  (mapcar (lambda (m) (plist-get m :content)) messages))

(defun gptel-integration-tests--by-id (messages)
  "Return ((TOOL-CALL-ID . CONTENT) ...) for tool MESSAGES."
  (mapcar (lambda (m) (cons (plist-get m :tool_call_id) (plist-get m :content)))
          messages))

;;;; The mode

(ert-deftest gptel::mode-adds-and-removes-exactly-its-hooks ()
  "On: the two package functions are on gptel's hooks; off: exactly they go."
  (let ((gptel-pre-tool-call-functions (list #'ignore))
        (gptel-post-tool-call-functions (list #'ignore))
        (was-on gptel-rust-hooks-mode))
    (unwind-protect
        (progn
          (gptel-rust-hooks-mode 1)
          (should (memq #'gptel-rust-hooks-pre-tool-call gptel-pre-tool-call-functions))
          (should (memq #'gptel-rust-hooks-post-tool-call gptel-post-tool-call-functions))
          (gptel-rust-hooks-mode -1)
          (should (equal gptel-pre-tool-call-functions (list #'ignore)))
          (should (equal gptel-post-tool-call-functions (list #'ignore))))
      (gptel-rust-hooks-mode (if was-on 1 -1)))))

(ert-deftest gptel::mode-off-lets-tools-run ()
  "With the mode off, a deny rule has no effect on gptel."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
    (gptel-rust-hooks-mode -1)
    (let ((r (gptel-rust-hooks-test-with-fsm :calls gptel-integration-tests--rm-call)))
      (should (equal (plist-get r :ran) '(("shell" :command "rm -rf /tmp/x")))))))

;;;; Decisions, on gptel's state machine

(ert-deftest gptel::deny-reaches-model ()
  "A deny rule blocks the call; the model gets gptel's error text with the reason."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
    (let ((denied (gptel-rust-hooks-test-with-fsm
                    :calls gptel-integration-tests--rm-call))
          (other (gptel-rust-hooks-test-with-fsm
                   :calls '((:name "shell" :args (:command "ls -l") :id "call_ls")))))
      (should-not (plist-get denied :ran))
      (should (eq (plist-get (gptel-rust-hooks-test-call denied "shell") :error) t))
      (should (equal (plist-get denied :tool-messages)
                     `((:role "tool" :tool_call_id "call_rm"
                              :content ,(gptel-integration-tests--error-text "no rm")))))
      (should (eq (plist-get denied :state) 'WAIT))
      ;; The rule does not reach other commands.
      (should (equal (plist-get other :ran) '(("shell" :command "ls -l")))))))

(ert-deftest gptel::deny-any-simple-command ()
  "A deny rule matches when any simple command of the line matches."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
    (dolist (command '("ls && rm -rf /" "echo $(rm x)" "env FOO=1 rm x"
                       "/bin/rm x" "bash -c 'rm x'"))
      (let ((r (gptel-rust-hooks-test-with-fsm
                 :calls `((:name "shell" :args (:command ,command))))))
        (should-not (plist-get r :ran))
        (should (equal (gptel-integration-tests--contents (plist-get r :tool-messages))
                       (list (gptel-integration-tests--error-text "no rm"))))))))

(ert-deftest gptel::stop-ends-request ()
  "A stop rule ends the request with the reason, before any tool runs."
  (gptel-rust-hooks-test-with-mode
      '((:tool "y" :decision stop :reason "halt"))
    (let ((r (gptel-rust-hooks-test-with-fsm
               :calls '((:name "y" :args (:q "1"))))))
      (should-not (plist-get r :ran))
      (should (eq (plist-get r :state) 'ERRS))
      (should (equal (plist-get r :error) "halt"))
      (should (equal (plist-get r :stop-reason) "halt"))
      (should-not (plist-get r :sent)))))

(ert-deftest gptel::ask-sets-confirm-t ()
  "An ask rule sets the call's :confirm to t, so gptel asks."
  (gptel-rust-hooks-test-with-mode '((:tool "z" :decision ask))
    (let ((pre (gptel-rust-hooks-test-with-fsm
                 :run 'pre
                 :calls '((:name "z" :args (:q "1")))))
          (all (gptel-rust-hooks-test-with-fsm
                 :calls '((:name "z" :args (:q "1")))
                 :confirm-tool-calls nil))
          (accepted (gptel-rust-hooks-test-with-fsm
                      :calls '((:name "z" :args (:q "1")))
                      :confirm-tool-calls nil
                      :on-confirm 'accept)))
      (should (plist-member (gptel-rust-hooks-test-call pre "z") :confirm))
      (should (eq (plist-get (gptel-rust-hooks-test-call pre "z") :confirm) t))
      (should (equal (plist-get all :pending) '(("z" :q "1"))))
      (should-not (plist-get all :ran))
      (should (equal (plist-get accepted :ran) '(("z" :q "1")))))))

(ert-deftest gptel::allow-sets-confirm-nil ()
  "An allow rule sets the call's :confirm to nil: a confirming tool runs unasked."
  (gptel-rust-hooks-test-with-mode '((:tool "read_file" :decision allow))
    (let ((pre (gptel-rust-hooks-test-with-fsm
                 :run 'pre
                 :calls '((:name "read_file" :args (:path "/etc/hosts")))))
          (all (gptel-rust-hooks-test-with-fsm
                 :calls '((:name "read_file" :args (:path "/etc/hosts")))
                 :tools '(("read_file" ("path") :confirm t))
                 :confirm-tool-calls t)))
      (should (plist-member (gptel-rust-hooks-test-call pre "read_file") :confirm))
      (should (null (plist-get (gptel-rust-hooks-test-call pre "read_file") :confirm)))
      (should-not (plist-get all :pending))
      (should (equal (plist-get all :ran) '(("read_file" :path "/etc/hosts")))))))

(ert-deftest gptel::no-decision-leaves-gptel-alone ()
  "A call no rule decides keeps gptel's own confirmation settings."
  (gptel-rust-hooks-test-with-mode '((:tool "other" :decision deny))
    (let ((pre (gptel-rust-hooks-test-with-fsm
                 :run 'pre
                 :calls '((:name "read_file" :args (:path "/etc/hosts")))))
          (asks (gptel-rust-hooks-test-with-fsm
                  :calls '((:name "read_file" :args (:path "/etc/hosts")))
                  :tools '(("read_file" ("path") :confirm t))
                  :confirm-tool-calls 'auto)))
      (should-not (plist-member (gptel-rust-hooks-test-call pre "read_file") :confirm))
      (should (equal (plist-get asks :pending) '(("read_file" :path "/etc/hosts")))))))

(ert-deftest gptel::allow-cannot-undo-deny ()
  "The most restrictive decision wins, whatever the rule order."
  (dolist (rules '(((:tool "shell" :decision allow)
                    (:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
                   ((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm")
                    (:tool "shell" :decision allow))))
    (gptel-rust-hooks-test-with-mode rules
      (let ((r (gptel-rust-hooks-test-with-fsm :calls gptel-integration-tests--rm-call)))
        (should-not (plist-get r :ran))
        (should (equal (gptel-integration-tests--contents (plist-get r :tool-messages))
                       (list (gptel-integration-tests--error-text "no rm"))))))))

(ert-deftest gptel::allow-needs-every-simple-command ()
  "An allow rule for ls allows `ls -la && ls /tmp' but not `ls; rm x'."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "ls" :decision allow))
    (let ((mixed (gptel-rust-hooks-test-with-fsm
                   :run 'pre
                   :calls '((:name "shell" :args (:command "ls; rm x")))))
          (plain (gptel-rust-hooks-test-with-fsm
                   :run 'pre
                   :calls '((:name "shell" :args (:command "ls -la && ls /tmp"))))))
      (should-not (and (plist-member (gptel-rust-hooks-test-call mixed "shell") :confirm)
                       (null (plist-get (gptel-rust-hooks-test-call mixed "shell") :confirm))))
      (should (plist-member (gptel-rust-hooks-test-call plain "shell") :confirm))
      (should (null (plist-get (gptel-rust-hooks-test-call plain "shell") :confirm))))))

;;;; Argument edits and results

(ert-deftest gptel::default-args-reach-tool ()
  "Default arguments are added where absent; the tool function receives them."
  (gptel-rust-hooks-test-with-mode '((:tool "shell" :default-args (:timeout 30000)))
    (let ((absent (gptel-rust-hooks-test-with-fsm
                    :calls '((:name "shell" :args (:command "ls")))
                    :tools (list gptel-integration-tests--shell-tool)))
          (present (gptel-rust-hooks-test-with-fsm
                     :calls '((:name "shell" :args (:command "ls" :timeout 5)))
                     :tools (list gptel-integration-tests--shell-tool))))
      (should (equal (plist-get absent :ran) '(("shell" :command "ls" :timeout 30000))))
      (should (equal (plist-get present :ran) '(("shell" :command "ls" :timeout 5)))))))

(ert-deftest gptel::set-and-remove-args-reach-tool ()
  "Set and removed arguments are what the tool function receives."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :set-args (:timeout 10) :remove-args (:env)))
    (let ((r (gptel-rust-hooks-test-with-fsm
               :calls '((:name "shell" :args (:command "ls" :timeout 99 :env "X=1")))
               :tools '(("shell" ("command" ("timeout" integer) "env"))))))
      (should (equal (plist-get r :ran) '(("shell" :command "ls" :timeout 10)))))))

(ert-deftest gptel::edited-args-redecided ()
  "An edit that makes the call match a deny rule gets it denied."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :set-args (:command "rm -rf /"))
        (:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
    (let ((r (gptel-rust-hooks-test-with-fsm
               :calls '((:name "shell" :args (:command "ls"))))))
      (should-not (plist-get r :ran))
      (should (equal (gptel-integration-tests--contents (plist-get r :tool-messages))
                     (list (gptel-integration-tests--error-text "no rm")))))))

(ert-deftest gptel::result-replaces-call ()
  "A :result rule: the tool does not run; the model gets the result, not an error."
  (gptel-rust-hooks-test-with-mode '((:tool "x" :result "canned"))
    (let ((r (gptel-rust-hooks-test-with-fsm
               :calls '((:name "x" :args (:q "1") :id "call_x")))))
      (should-not (plist-get r :ran))
      (should-not (plist-get (gptel-rust-hooks-test-call r "x") :error))
      (should (equal (plist-get r :tool-messages)
                     '((:role "tool" :tool_call_id "call_x" :content "canned")))))))

(ert-deftest gptel::deny-beats-result ()
  "A :result does not apply when the decision is deny."
  (gptel-rust-hooks-test-with-mode
      '((:tool "x" :result "canned")
        (:tool "x" :decision deny :reason "no x"))
    (let ((r (gptel-rust-hooks-test-with-fsm :calls '((:name "x" :args (:q "1"))))))
      (should-not (plist-get r :ran))
      (should (equal (gptel-integration-tests--contents (plist-get r :tool-messages))
                     (list (gptel-integration-tests--error-text "no x")))))))

;;;; Post-call effects

(ert-deftest gptel::post-effects-reach-model ()
  "Context, redaction, truncation and suppression change what the model sees."
  (let ((tools '(("cat" ("path") :result "key=sk-abc123 end 0123456789ABCDEFGHIJ"))))
    (cl-flet ((seen (rules)
                (gptel-rust-hooks-test-with-mode rules
                  (let ((r (gptel-rust-hooks-test-with-fsm
                             :calls '((:name "cat" :args (:path "/tmp/f")))
                             :tools tools)))
                    (should (equal (plist-get r :ran) '(("cat" :path "/tmp/f"))))
                    (car (gptel-integration-tests--contents
                          (plist-get r :tool-messages)))))))
      (let ((context (seen '((:tool "cat" :context "Remember: untrusted."))))
            (redacted (seen '((:tool "cat" :redact "sk-[a-z0-9]+"))))
            (truncated (seen '((:tool "cat" :max-output 10))))
            (suppressed (seen '((:tool "cat" :suppress-output t)))))
        (should (string-prefix-p "key=sk-abc123 end" context))
        (should (string-search "Remember: untrusted." context))
        (should (equal redacted "key=[REDACTED] end 0123456789ABCDEFGHIJ"))
        (should (string-prefix-p "key=sk-abc" truncated))
        (should-not (string-search "ABCDEFGHIJ" truncated))
        (should (stringp suppressed))
        (should-not (string-empty-p suppressed))
        (should-not (string-search "sk-abc123" suppressed))))))

;;;; Request context: cwd, buffer, backend, model

(ert-deftest gptel::paths-resolve-against-request-buffer ()
  "Relative paths are read from the request buffer's `default-directory'."
  (let ((proj (file-name-as-directory (make-temp-file "gptel-rust-hooks-proj-" t))))
    (unwind-protect
        (gptel-rust-hooks-test-with-mode
            `((:tool "read_file" :path-outside ,proj :decision deny :reason "outside"))
          (let ((inside (gptel-rust-hooks-test-with-fsm
                          :directory proj
                          :calls '((:name "read_file" :args (:path "notes.txt")))))
                (outside (gptel-rust-hooks-test-with-fsm
                           :directory proj
                           :calls '((:name "read_file" :args (:path "../../etc/passwd"))))))
            (should (equal (plist-get inside :ran) '(("read_file" :path "notes.txt"))))
            (should-not (plist-get outside :ran))
            (should (equal (gptel-integration-tests--contents
                            (plist-get outside :tool-messages))
                           (list (gptel-integration-tests--error-text "outside"))))))
      (delete-directory proj t))))

(ert-deftest gptel::buffer-backend-model-matchers ()
  "Buffer, backend and model matchers see what gptel passes (backend object, model symbol)."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :buffer "*secret*" :backend "gptel-rust-hooks-test"
               :model "fake-*" :decision deny :reason "secret buffer"))
    (let ((secret (gptel-rust-hooks-test-with-fsm
                    :buffer-name "*secret*"
                    :calls '((:name "shell" :args (:command "ls")))))
          (public (gptel-rust-hooks-test-with-fsm
                    :buffer-name "*public*"
                    :calls '((:name "shell" :args (:command "ls"))))))
      (should-not (plist-get secret :ran))
      (should (equal (gptel-integration-tests--contents (plist-get secret :tool-messages))
                     (list (gptel-integration-tests--error-text "secret buffer"))))
      (should (equal (plist-get public :ran) '(("shell" :command "ls")))))))

(ert-deftest gptel::evaluate-agrees-with-hook ()
  "`gptel-rust-hooks-evaluate' returns the plist the hook gives gptel."
  (let ((rules '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm")
                 (:tool "y" :decision stop :reason "halt")
                 (:tool "read_file" :decision allow))))
    (should (equal (gptel-rust-hooks-evaluate
                    '(:name "shell" :args (:command "rm -rf /")) rules)
                   '(:block "no rm")))
    (let ((stop (gptel-rust-hooks-evaluate '(:name "y" :args (:q "1")) rules)))
      (should (eq (plist-get stop :stop) t))
      (should (equal (plist-get stop :stop-reason) "halt")))
    (let ((allow (gptel-rust-hooks-evaluate
                  '(:name "read_file" :args (:path "/etc/hosts")) rules)))
      (should (plist-member allow :confirm))
      (should-not (plist-get allow :confirm))
      (should-not (plist-get allow :block)))))

;;;; Errors

(ert-deftest gptel::bad-rule-refused-policy-kept ()
  "A misspelt key is refused with `gptel-rust-hooks-rule-error'; the old policy stays."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
    (should-error (customize-set-variable
                   'gptel-rust-hooks-rules
                   '((:tool "shell" :decison allow)))
                  :type 'gptel-rust-hooks-rule-error)
    (should-error (customize-set-variable
                   'gptel-rust-hooks-rules
                   '((:tool "shell" :decision alow)))
                  :type 'gptel-rust-hooks-rule-error)
    (let ((r (gptel-rust-hooks-test-with-fsm :calls gptel-integration-tests--rm-call)))
      (should-not (plist-get r :ran))
      (should (equal (gptel-integration-tests--contents (plist-get r :tool-messages))
                     (list (gptel-integration-tests--error-text "no rm")))))))

(ert-deftest gptel::examples-checked-at-compile ()
  "A rule whose :examples disagree with it does not compile."
  (gptel-rust-hooks-test-with-mode nil
    (should-error (customize-set-variable
                   'gptel-rust-hooks-rules
                   '((:tool "shell" :command-prefix "rm" :decision deny
                            :examples (:match ((:name "shell" :args (:command "ls")))))))
                  :type 'gptel-rust-hooks-rule-error)))

(ert-deftest gptel::malformed-call-blocked ()
  "A call whose arguments are not a plist is blocked with a package reason."
  (gptel-rust-hooks-test-with-mode '((:tool "*" :decision allow))
    (let ((r (gptel-rust-hooks-test-with-fsm
               :run 'pre
               :raw-args t
               :calls '((:name "shell" :args "rm -rf /")))))
      (should (eq (plist-get (gptel-rust-hooks-test-call r "shell") :error) t))
      (should (string-prefix-p "<tool_call_error>\ngptel-rust-hooks: "
                               (plist-get (gptel-rust-hooks-test-call r "shell") :result))))))

(ert-deftest gptel::malformed-call-stops-when-asked ()
  "With `gptel-rust-hooks-on-error' `stop', a malformed call stops the request."
  (gptel-rust-hooks-test-with-mode '((:tool "*" :decision allow))
    (let* ((gptel-rust-hooks-on-error 'stop)
           (r (gptel-rust-hooks-test-with-fsm
                :raw-args t
                :calls '((:name "shell" :args "rm -rf /")))))
      (should (eq (plist-get r :state) 'ERRS))
      (should (string-prefix-p "gptel-rust-hooks: " (plist-get r :error)))
      (should-not (plist-get r :ran)))))

(ert-deftest gptel::hostile-args-fail-closed ()
  "Odd-length, circular, nested, huge and non-UTF-8 arguments: rm never runs.
Each call either matches the deny rule or is malformed; both block it.
Under ERT `debug-on-error' is t, so a hook that signalled would fail the
test instead of being demoted by gptel."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
    (let* ((circular (list :command "rm x" :more nil))
           (deep (let ((v "rm x")) (dotimes (_ 100000) (setq v (list :a v))) v)))
      (setcdr (last circular) circular)
      (pcase-dolist (`(,label . ,args)
                     `(("odd length" . (:command "rm -rf /" :dangling))
                       ("circular" . ,circular)
                       ("deeply nested" . (:command "rm -rf /" :nested ,deep))
                       ("huge" . (:command ,(concat "rm " (make-string 1000000 ?x))))
                       ("not UTF-8" . (:command ,(decode-coding-string "rm \377\376"
                                                                       'utf-8)))))
        (ert-info (label :prefix "Arguments: ")
          (let ((r (gptel-rust-hooks-test-with-fsm
                     :run 'pre
                     :raw-args t
                     :calls (list (list :name "shell" :args args)))))
            (should (eq (plist-get (gptel-rust-hooks-test-call r "shell") :error) t))))))))

(ert-deftest gptel::odd-values-answered ()
  "Vectors, numbers and nil where strings are expected: the hook still answers."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm")
        (:tool "read_file" :path-outside "/srv" :decision deny :reason "outside"))
    (dolist (call '((:name "shell" :args (:command ["rm" "-rf" "/"]))
                    (:name "shell" :args (:command 42))
                    (:name "shell" :args (:command nil))
                    (:name "shell" :args (:command (:nested "rm x")))
                    (:name "read_file" :args (:path ["/etc/passwd"]))
                    (:name "shell" :args nil)))
      (let ((r (gptel-rust-hooks-test-with-fsm
                 :run 'pre
                 :raw-args t
                 :calls (list call))))
        ;; Allowed, blocked or left alone, but never a stop or a signal.
        (should-not (plist-get r :error))))))

;;;; Whole conversations with gptel-send

(ert-deftest gptel::conversation-deny-and-allow-in-one-turn ()
  "Two parallel calls: the denied one never runs, the allowed one does; both answered."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm")
        (:tool "read_file" :decision allow))
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls
                          ((:name "shell" :args (:command "rm -rf /") :id "call_rm")
                           (:name "read_file" :args (:path "/etc/hostname") :id "call_read")))
                         (:content "Read it, could not delete."))
               :tools '(("shell" ("command")) ("read_file" ("path") :confirm t))
               :confirm-tool-calls 'auto)))
      (should-not (plist-get r :timed-out))
      (should (eq (plist-get r :state) 'DONE))
      (should-not (plist-get r :prompted))
      (should (equal (plist-get r :ran) '(("read_file" :path "/etc/hostname"))))
      (should (= (length (plist-get r :requests)) 2))
      (should (equal (gptel-integration-tests--by-id (cadr (plist-get r :tool-messages)))
                     `(("call_rm" . ,(gptel-integration-tests--error-text "no rm"))
                       ("call_read" . "read_file: ok"))))
      (should (string-search "Read it, could not delete." (plist-get r :text))))))

(ert-deftest gptel::conversation-multi-turn ()
  "Turn by turn: an edited call runs, a later rm is denied, the answer lands."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :default-args (:timeout 30000))
        (:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls ((:name "shell" :args (:command "ls") :id "call_1")))
                         (:tool-calls ((:name "shell" :args (:command "ls && rm -rf ~")
                                              :id "call_2")))
                         (:content "Stopped at rm."))
               :tools (list gptel-integration-tests--shell-tool))))
      (should (eq (plist-get r :state) 'DONE))
      (should (equal (plist-get r :ran) '(("shell" :command "ls" :timeout 30000))))
      (should (= (length (plist-get r :requests)) 3))
      (should (equal (gptel-integration-tests--by-id (nth 1 (plist-get r :tool-messages)))
                     '(("call_1" . "shell: ok"))))
      ;; The third request replays the whole conversation.
      (should (equal (gptel-integration-tests--by-id (nth 2 (plist-get r :tool-messages)))
                     `(("call_1" . "shell: ok")
                       ("call_2" . ,(gptel-integration-tests--error-text "no rm")))))
      ;; The replayed assistant call carries the arguments that really ran.
      (let* ((assistant (cl-find-if (lambda (m) (plist-get m :tool_calls))
                                    (plist-get (nth 1 (plist-get r :requests)) :messages)))
             (fn (plist-get (car (plist-get assistant :tool_calls)) :function)))
        (should (equal (gptel-rust-hooks-test--json-decode (plist-get fn :arguments))
                       '(:command "ls" :timeout 30000))))
      (should (string-search "Stopped at rm." (plist-get r :text))))))

(ert-deftest gptel::conversation-ask-prompts-user ()
  "An ask rule makes gptel prompt even with confirmation off; accepting runs it."
  (gptel-rust-hooks-test-with-mode '((:tool "z" :decision ask :reason "check z"))
    (let ((accepted (gptel-rust-hooks-test-with-conversation
                      :script '((:tool-calls ((:name "z" :args (:q "1"))))
                                (:content "ok"))
                      :confirm-tool-calls nil
                      :on-confirm 'accept))
          (rejected (gptel-rust-hooks-test-with-conversation
                      :script '((:tool-calls ((:name "z" :args (:q "1"))))
                                (:content "ok"))
                      :confirm-tool-calls nil
                      :on-confirm 'reject)))
      (should (equal (plist-get accepted :prompted) '(("z" :q "1"))))
      (should (equal (plist-get accepted :ran) '(("z" :q "1"))))
      (should (eq (plist-get accepted :state) 'DONE))
      (should (equal (plist-get rejected :prompted) '(("z" :q "1"))))
      (should-not (plist-get rejected :ran))
      (should (= (length (plist-get rejected :requests)) 1)))))

(ert-deftest gptel::conversation-stop ()
  "A stop rule ends the conversation: no tool runs, no follow-up request."
  (gptel-rust-hooks-test-with-mode '((:tool "y" :decision stop :reason "halt"))
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls ((:name "y" :args (:q "1"))))
                         (:content "never sent")))))
      (should (eq (plist-get r :state) 'ERRS))
      (should (equal (plist-get r :error) "halt"))
      (should-not (plist-get r :ran))
      (should (= (length (plist-get r :requests)) 1))
      (should-not (string-search "never sent" (plist-get r :text))))))

(ert-deftest gptel::conversation-result-and-redact ()
  "A canned result replaces the call; a redaction rewrites real output."
  (gptel-rust-hooks-test-with-mode
      '((:tool "x" :result "canned")
        (:tool "cat" :redact "sk-[a-z0-9]+"))
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls ((:name "x" :args (:q "1") :id "call_x")
                                       (:name "cat" :args (:path "/k") :id "call_cat")))
                         (:content "done"))
               :tools '(("x" ("q")) ("cat" ("path") :result "token sk-abc1 here")))))
      (should (eq (plist-get r :state) 'DONE))
      (should (equal (plist-get r :ran) '(("cat" :path "/k"))))
      (should (equal (gptel-integration-tests--by-id (cadr (plist-get r :tool-messages)))
                     '(("call_x" . "canned")
                       ("call_cat" . "token [REDACTED] here")))))))

(ert-deftest gptel::conversation-result-with-edits-among-parallel-calls ()
  "A :result rule with argument edits, among parallel calls, ends cleanly.
gptel 0.9.9.6 mishandles a pre-hook answer holding both :args and
:result when other calls are pending (see
harness::args-with-result-among-parallel-calls): its state machine runs
past DONE.  The package must not give gptel that combination."
  (gptel-rust-hooks-test-with-mode
      '((:tool "x" :default-args (:z "1") :result "canned"))
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls ((:name "x" :args (:q "1") :id "c1")
                                       (:name "shell" :args (:command "ls") :id "c2")))
                         (:content "All done."))
               :tools '(("x" ("q" "z")) ("shell" ("command"))))))
      (should (equal (plist-get r :ran) '(("shell" :command "ls"))))
      (should (equal (gptel-integration-tests--by-id (cadr (plist-get r :tool-messages)))
                     '(("c1" . "canned") ("c2" . "shell: ok"))))
      (should (eq (plist-get r :state) 'DONE)))))

(provide 'gptel-integration-tests)
;;; gptel-integration-tests.el ends here
