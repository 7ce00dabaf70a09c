;;; harness-tests.el --- Prove the gptel test harness with plain hooks  -*- lexical-binding: t; -*-

;;; Commentary:

;; Each hook key gptel documents, returned by a plain lambda, shown to
;; have its effect through gptel's own code: first on a state machine
;; driven by gptel's handlers (no network), then in whole `gptel-send'
;; conversations against tests/fake_openai_server.py.
;;
;; Run from the project root:
;;
;;   emacs -Q --batch -L tests -l tests/test-helper.el \
;;     -l tests/harness-tests.el -f ert-run-tests-batch-and-exit

;;; Code:

(require 'test-helper)

(defconst harness-tests--rm-call
  '((:name "shell" :args (:command "rm -rf /tmp/x") :id "call_rm"))
  "One shell call, as the LLM sent it.")

(defun harness-tests--hook (answer)
  "Return a hook function that always answers ANSWER."
  (lambda (_call) answer))

(defun harness-tests--error-text (reason)
  "Return the tool result that gptel gives a call blocked with REASON."
  (concat "<tool_call_error>\n" reason "\n</tool_call_error>"))

(defun harness-tests--tool-contents (result)
  "Return the contents of the tool messages in the last request of RESULT."
  (mapcar (lambda (m) (plist-get m :content))
          (car (last (plist-get result :tool-messages)))))

(defconst harness-tests--script
  '((:tool-calls ((:name "shell" :args (:command "rm -rf /tmp/x") :id "call_rm")))
    (:content "All done."))
  "The server asks for one shell call, then answers with text.")

;;;; State machine, no network

(ert-deftest harness::no-hook-runs-tool ()
  "Without hooks the tool runs and its output is sent back."
  (let ((r (gptel-rust-hooks-test-with-fsm
             :calls harness-tests--rm-call
             :pre nil :post nil)))
    (should (equal (plist-get r :ran) '(("shell" :command "rm -rf /tmp/x"))))
    (should (equal (plist-get r :states) '(TYPE TPRE TOOL TRET WAIT)))
    (should (equal (plist-get r :tool-messages)
                   '((:role "tool" :tool_call_id "call_rm" :content "shell: ok"))))))

(ert-deftest harness::hook-receives-documented-call ()
  "The pre hook gets name, args, buffer name, backend object, model symbol, cwd."
  (let* ((seen nil)
         (dir (file-name-as-directory temporary-file-directory))
         (r (gptel-rust-hooks-test-with-fsm
              :calls harness-tests--rm-call
              :buffer-name "*harness chat*"
              :directory dir
              :pre (list (lambda (call) (push (cons default-directory call) seen) nil)))))
    (should (equal (plist-get r :ran) '(("shell" :command "rm -rf /tmp/x"))))
    (should (= (length seen) 1))
    (pcase-let ((`(,cwd . ,call) (car seen)))
      (should (equal cwd dir))
      (should (equal (plist-get call :name) "shell"))
      (should (equal (plist-get call :args) '(:command "rm -rf /tmp/x")))
      (should (string-prefix-p "*harness chat*" (plist-get call :buffer)))
      (should (gptel-backend-p (plist-get call :backend)))
      (should (equal (gptel-backend-name (plist-get call :backend)) "gptel-rust-hooks-test"))
      (should (eq (plist-get call :model) gptel-rust-hooks-test-model)))))

(ert-deftest harness::block-reaches-model ()
  "`:block' REASON: the tool does not run; the model gets gptel's error text."
  (let ((r (gptel-rust-hooks-test-with-fsm
             :calls harness-tests--rm-call
             :pre (list (harness-tests--hook '(:block "no"))))))
    (should-not (plist-get r :ran))
    (should (eq (plist-get (gptel-rust-hooks-test-call r "shell") :error) t))
    (should (equal (plist-get r :tool-messages)
                   `((:role "tool" :tool_call_id "call_rm"
                            :content ,(harness-tests--error-text "no")))))
    (should (eq (plist-get r :state) 'WAIT))))

(ert-deftest harness::stop-ends-request ()
  "`:stop' with `:stop-reason': the request ends in ERRS with the reason."
  (let ((r (gptel-rust-hooks-test-with-fsm
             :calls harness-tests--rm-call
             :pre (list (harness-tests--hook '(:stop t :stop-reason "halt"))))))
    (should-not (plist-get r :ran))
    (should (eq (plist-get r :state) 'ERRS))
    (should (equal (plist-get r :error) "halt"))
    (should (equal (plist-get r :stop-reason) "halt"))
    (should-not (plist-get r :sent))))

(ert-deftest harness::confirm-nil-and-args-edit-call ()
  "`:confirm' nil overrides a confirming tool; edited `:args' are what runs."
  (let ((r (gptel-rust-hooks-test-with-fsm
             :calls harness-tests--rm-call
             :tools '(("shell" ("command" ("timeout" integer)) :confirm t))
             :confirm-tool-calls t
             :pre (list (harness-tests--hook
                         '(:confirm nil :args (:command "ls" :timeout 30000)))))))
    (should-not (plist-get r :pending))
    (should (equal (plist-get r :ran) '(("shell" :command "ls" :timeout 30000))))
    ;; The assistant message replayed to the model carries the edited call.
    (let* ((assistant (cl-find "assistant" (plist-get r :sent)
                               :key (lambda (m) (plist-get m :role)) :test #'equal))
           (fn (plist-get (aref (plist-get assistant :tool_calls) 0) :function)))
      (should (equal (gptel-rust-hooks-test--json-decode (plist-get fn :arguments))
                     '(:command "ls" :timeout 30000))))))

(ert-deftest harness::confirm-t-asks ()
  "`:confirm' t makes gptel ask even when it would not; accepting runs it."
  (let ((asked (gptel-rust-hooks-test-with-fsm
                 :calls harness-tests--rm-call
                 :confirm-tool-calls nil
                 :pre (list (harness-tests--hook '(:confirm t)))))
        (accepted (gptel-rust-hooks-test-with-fsm
                    :calls harness-tests--rm-call
                    :confirm-tool-calls nil
                    :on-confirm 'accept
                    :pre (list (harness-tests--hook '(:confirm t))))))
    (should-not (plist-get asked :ran))
    (should (equal (plist-get asked :pending) '(("shell" :command "rm -rf /tmp/x"))))
    (should (eq (plist-get asked :state) 'TOOL))
    (should (equal (plist-get accepted :ran) '(("shell" :command "rm -rf /tmp/x"))))
    (should (eq (plist-get accepted :state) 'WAIT))))

(ert-deftest harness::pre-only-sets-confirm ()
  "After `gptel--handle-pre-tool' alone, `:confirm' sits on the call plist."
  (dolist (answer '(t nil))
    (let ((r (gptel-rust-hooks-test-with-fsm
               :run 'pre
               :calls harness-tests--rm-call
               :pre (list (harness-tests--hook (list :confirm answer))))))
      (should (plist-member (gptel-rust-hooks-test-call r "shell") :confirm))
      (should (eq (plist-get (gptel-rust-hooks-test-call r "shell") :confirm) answer))
      (should (eq (plist-get r :state) 'TPRE))
      (should-not (plist-get r :ran)))))

(ert-deftest harness::result-replaces-call ()
  "`:result': the tool does not run and the model gets the given result."
  (let ((r (gptel-rust-hooks-test-with-fsm
             :calls harness-tests--rm-call
             :pre (list (harness-tests--hook '(:result "canned"))))))
    (should-not (plist-get r :ran))
    (should-not (plist-get (gptel-rust-hooks-test-call r "shell") :error))
    (should (equal (mapcar (lambda (m) (plist-get m :content)) (plist-get r :tool-messages))
                   '("canned")))))

(ert-deftest harness::post-result-changes-model-input ()
  "Post hook `:result': the tool runs, but the model gets the new result."
  (let* ((seen nil)
         (r (gptel-rust-hooks-test-with-fsm
              :calls harness-tests--rm-call
              :pre nil
              :post (list (lambda (call) (push call seen) '(:result "changed"))))))
    (should (equal (plist-get r :ran) '(("shell" :command "rm -rf /tmp/x"))))
    (should (equal (plist-get (car seen) :result) "shell: ok"))
    (should (equal (mapcar (lambda (m) (plist-get m :content)) (plist-get r :tool-messages))
                   '("changed")))))

(ert-deftest harness::signalling-hook-lets-tool-run ()
  "A hook that signals lets the tool run: gptel demotes its error."
  (let* ((inhibit-message t)
         ;; ERT binds `debug-on-error', which makes `with-demoted-errors'
         ;; let errors through; a user's Emacs does not.
         (debug-on-error nil)
         (r (gptel-rust-hooks-test-with-fsm
              :calls harness-tests--rm-call
              :pre (list (lambda (_call) (error "Boom"))))))
    (should (equal (plist-get r :ran) '(("shell" :command "rm -rf /tmp/x"))))))

(ert-deftest harness::parallel-calls-each-decided ()
  "Two calls in one response: one blocked, one run, both answered."
  (let ((r (gptel-rust-hooks-test-with-fsm
             :calls '((:name "shell" :args (:command "rm x") :id "call_a")
                      (:name "read_file" :args (:path "/etc/hosts") :id "call_b"))
             :pre (list (lambda (call)
                          (and (equal (plist-get call :name) "shell") '(:block "no")))))))
    (should (equal (plist-get r :ran) '(("read_file" :path "/etc/hosts"))))
    (should (equal (mapcar (lambda (m) (list (plist-get m :tool_call_id) (plist-get m :content)))
                           (plist-get r :tool-messages))
                   `(("call_a" ,(harness-tests--error-text "no"))
                     ("call_b" "read_file: ok"))))))

;; Known gptel 0.9.9.6 defect, kept visible: a pre hook answer with both
;; :args and :result is merged into the call (`gptel--merge-plists') before
;; `gptel--process-tool-call' counts the calls still without a result, so
;; with parallel calls the machine moves on early, and TPRE's trailing
;; `gptel--fsm-transition' then moves it once more: past DONE, to nil.
;; This test states the right outcome and is expected to fail until gptel
;; is fixed; a package answer should not combine :args with :result.
(ert-deftest harness::args-with-result-among-parallel-calls ()
  "Known gptel defect: `:args' with `:result' on one of two calls overruns DONE."
  :expected-result :failed
  (let ((r (gptel-rust-hooks-test-with-conversation
             :timeout 10
             :script '((:tool-calls ((:name "x" :args (:q "1") :id "c1")
                                     (:name "shell" :args (:command "ls") :id "c2")))
                       (:content "All done."))
             :pre (list (lambda (call)
                          (and (equal (plist-get call :name) "x")
                               '(:args (:q "2") :result "canned")))))))
    (should (equal (plist-get r :ran) '(("shell" :command "ls"))))
    (should (equal (harness-tests--tool-contents r) '("canned" "shell: ok")))
    (should (eq (plist-get r :state) 'DONE))))

;;;; Whole conversations against the fake server

(ert-deftest harness::conversation-without-hooks ()
  "A whole `gptel-send': the tool runs, its output goes back, the answer lands."
  (let ((r (gptel-rust-hooks-test-with-conversation
             :script harness-tests--script
             :pre nil :post nil)))
    (should-not (plist-get r :timed-out))
    (should (eq (plist-get r :state) 'DONE))
    (should (equal (plist-get r :ran) '(("shell" :command "rm -rf /tmp/x"))))
    (should (= (length (plist-get r :requests)) 2))
    (should (equal (car (plist-get r :tool-messages)) nil))
    (should (equal (cadr (plist-get r :tool-messages))
                   '((:role "tool" :tool_call_id "call_rm" :content "shell: ok"))))
    ;; The first request offered the tool to the model.
    (should (equal (mapcar (lambda (tool) (plist-get (plist-get tool :function) :name))
                           (plist-get (car (plist-get r :requests)) :tools))
                   '("shell")))
    (should (string-match-p "All done\\." (plist-get r :text)))))

(ert-deftest harness::conversation-from-script-file ()
  "A JSON script file under tests/data drives the server too."
  (let ((r (gptel-rust-hooks-test-with-conversation
             :script "data/shell-then-text.json"
             :tools '(("shell" ("command")))
             :pre nil :post nil)))
    (should (eq (plist-get r :state) 'DONE))
    (should (equal (plist-get r :ran) '(("shell" :command "ls"))))
    (should (string-match-p "Listed\\." (plist-get r :text)))))

(ert-deftest harness::conversation-block-reaches-model ()
  "`:block' in a conversation: the follow-up request carries the error text."
  (let ((r (gptel-rust-hooks-test-with-conversation
             :script harness-tests--script
             :pre (list (harness-tests--hook '(:block "no"))))))
    (should (eq (plist-get r :state) 'DONE))
    (should-not (plist-get r :ran))
    (should (equal (harness-tests--tool-contents r)
                   (list (harness-tests--error-text "no"))))))

(ert-deftest harness::conversation-stop-ends-request ()
  "`:stop' in a conversation: no follow-up request, the request errs with the reason."
  (let ((r (gptel-rust-hooks-test-with-conversation
             :script harness-tests--script
             :pre (list (harness-tests--hook '(:stop t :stop-reason "halt"))))))
    (should (eq (plist-get r :state) 'ERRS))
    (should (equal (plist-get r :error) "halt"))
    (should-not (plist-get r :ran))
    (should (= (length (plist-get r :requests)) 1))))

(ert-deftest harness::conversation-args-edited ()
  "`:args' in a conversation: the tool receives the edited arguments."
  (let ((r (gptel-rust-hooks-test-with-conversation
             :script harness-tests--script
             :tools '(("shell" ("command" ("timeout" integer))))
             :pre (list (harness-tests--hook '(:confirm nil :args (:command "ls" :timeout 5)))))))
    (should (eq (plist-get r :state) 'DONE))
    (should (equal (plist-get r :ran) '(("shell" :command "ls" :timeout 5))))))

(ert-deftest harness::conversation-result-and-post-result ()
  "Pre `:result' skips the tool; post `:result' rewrites what the model gets."
  (let ((pre (gptel-rust-hooks-test-with-conversation
               :script harness-tests--script
               :pre (list (harness-tests--hook '(:result "canned")))))
        (post (gptel-rust-hooks-test-with-conversation
                :script harness-tests--script
                :pre nil
                :post (list (harness-tests--hook '(:result "changed"))))))
    (should-not (plist-get pre :ran))
    (should (equal (harness-tests--tool-contents pre) '("canned")))
    (should (equal (plist-get post :ran) '(("shell" :command "rm -rf /tmp/x"))))
    (should (equal (harness-tests--tool-contents post) '("changed")))))

(ert-deftest harness::conversation-confirm-prompt ()
  "`:confirm' t: gptel shows its prompt; accepting it runs the tool, rejecting does not."
  (let ((accepted (gptel-rust-hooks-test-with-conversation
                    :script harness-tests--script
                    :confirm-tool-calls nil
                    :on-confirm 'accept
                    :pre (list (harness-tests--hook '(:confirm t)))))
        (rejected (gptel-rust-hooks-test-with-conversation
                    :script harness-tests--script
                    :confirm-tool-calls nil
                    :on-confirm 'reject
                    :pre (list (harness-tests--hook '(:confirm t))))))
    (should (equal (plist-get accepted :prompted) '(("shell" :command "rm -rf /tmp/x"))))
    (should (equal (plist-get accepted :ran) '(("shell" :command "rm -rf /tmp/x"))))
    (should (eq (plist-get accepted :state) 'DONE))
    (should (equal (plist-get rejected :prompted) '(("shell" :command "rm -rf /tmp/x"))))
    (should-not (plist-get rejected :ran))
    (should (= (length (plist-get rejected :requests)) 1))))

(ert-deftest harness::conversation-with-curl ()
  "The same conversation sent with curl instead of url.el."
  (skip-unless (executable-find "curl"))
  (let ((r (gptel-rust-hooks-test-with-conversation
             :script harness-tests--script
             :use-curl t
             :pre (list (harness-tests--hook '(:block "no"))))))
    (should (eq (plist-get r :state) 'DONE))
    (should-not (plist-get r :ran))
    (should (equal (harness-tests--tool-contents r)
                   (list (harness-tests--error-text "no"))))))

(ert-deftest harness::server-stops-when-stdin-closes ()
  "The fake server exits by itself once its parent closes the pipe."
  (let* ((script (gptel-rust-hooks-test--write-script '((:content "x"))))
         (log (make-temp-file "gptel-rust-hooks-requests-" nil ".jsonl"))
         (server (gptel-rust-hooks-test-start-server script log)))
    (unwind-protect
        (let ((proc (car server))
              (deadline (+ (float-time) 5)))
          (should (integerp (cdr server)))
          (process-send-eof proc)
          (while (and (process-live-p proc) (< (float-time) deadline))
            (accept-process-output proc 0.05))
          (should-not (process-live-p proc)))
      (gptel-rust-hooks-test-stop-server (car server))
      (delete-file script)
      (delete-file log))))

(provide 'harness-tests)
;;; harness-tests.el ends here
