;;; every-call-tests.el --- Every tool call gptel runs is decided  -*- lexical-binding: t; -*-

;;; Commentary:

;; DESIGN.md "Which calls are decided", through gptel's own code against
;; tests/fake_openai_server.py:
;;
;; - plain `gptel-request' with tools and its default handlers, a state
;;   machine built like gptel-agent's subagents (WAIT and TOOL handlers
;;   only) and one like gptel-agent's today (pre- and post-tool handlers,
;;   but `gptel-request''s table, which has no TPRE state): deny, stop,
;;   ask, edits, results and redaction, asserting which tool functions
;;   ran, with which arguments, and what the follow-up request carried;
;; - a nested request (a tool that starts a second `gptel-request' with
;;   tools, as gptel-agent's Agent does): its calls are decided too;
;; - hook order on `gptel-send''s path: functions before and after ours
;;   answering `:args', `:name' and `:confirm nil'; a buffer-local hook
;;   list without t;
;; - tools with gptel-agent's and llm-tool-collection's argument names;
;; - gptel internals missing: the mode says so once and sends requests
;;   it cannot guard without tools.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)

(defconst every-call-tests--handlers '(default agent agent-hooks)
  "The state machines every plain-request test runs on.")

(defun every-call-tests--error-text (reason)
  "Return the tool result gptel gives a call blocked with REASON."
  (concat "<tool_call_error>\n" reason "\n</tool_call_error>"))

(defun every-call-tests--by-id (messages)
  "Return ((TOOL-CALL-ID . CONTENT) ...) for tool MESSAGES."
  (mapcar (lambda (m) (cons (plist-get m :tool_call_id) (plist-get m :content)))
          messages))

(defun every-call-tests--results (result)
  "Return ((ID . RESULT-TEXT) ...): what RESULT's run gave the model for each call.
On a machine that sent a follow-up request, that request's tool
messages; on one that stopped in TRET, the results gptel put in its
tool calls (what it would send)."
  (if (cadr (plist-get result :tool-messages))
      (every-call-tests--by-id (cadr (plist-get result :tool-messages)))
    (mapcar (lambda (c) (cons (plist-get c :id) (plist-get c :result)))
            (plist-get result :calls))))

(defun every-call-tests--sent-args (result id)
  "Return the arguments of tool call ID in RESULT's follow-up request.
They are what the model's history says the call was."
  (cl-loop for m in (plist-get (nth 1 (plist-get result :requests)) :messages)
           thereis (cl-loop for c in (plist-get m :tool_calls)
                            when (equal (plist-get c :id) id)
                            return (gptel-rust-hooks-test--json-decode
                                    (plist-get (plist-get c :function) :arguments)))))

(defmacro every-call-tests--on-each-machine (var &rest body)
  "Run BODY with VAR bound to each of `every-call-tests--handlers', labelled."
  (declare (indent 1) (debug (symbolp body)))
  `(dolist (,var every-call-tests--handlers)
     (ert-info ((symbol-name ,var) :prefix "Handlers: ")
       ,@body)))

(defmacro every-call-tests--counting-decisions (&rest body)
  "Run BODY; return (VALUE . N), N the calls decided meanwhile.
A call is decided where `gptel-rust-hooks--decide' runs."
  (declare (indent 0) (debug t))
  (let ((n (make-symbol "n"))
        (count (make-symbol "count")))
    `(let* ((,n 0)
            (,count (lambda (&rest _) (cl-incf ,n))))
       (advice-add 'gptel-rust-hooks--decide :before ,count)
       (unwind-protect
           (let ((value (progn ,@body)))
             (cons value ,n))
         (advice-remove 'gptel-rust-hooks--decide ,count)))))

(defconst every-call-tests--read-tool
  '("Read" ("file_path" ("start_line" integer) ("end_line" integer)))
  "gptel-agent's Read tool, by its argument names.")

(defconst every-call-tests--ssh-rules
  '((:id "ssh" :path "~/.ssh/**" :decision deny :reason "No secrets."))
  "A deny rule for everything under ~/.ssh.")

;;;; Plain gptel-request: deny, stop, ask, edits, results, redaction

(ert-deftest every::request-deny-reaches-model ()
  "A denied call never runs; the model gets gptel's error text, other calls run."
  (gptel-rust-hooks-test-with-mode every-call-tests--ssh-rules
    (every-call-tests--on-each-machine handlers
      (let ((r (gptel-rust-hooks-test-with-request
                 :handlers handlers
                 :script '((:tool-calls ((:name "Read" :args (:file_path "~/.ssh/id_rsa")
                                                :id "c1")
                                         (:name "Read" :args (:file_path "/tmp/notes.txt")
                                                :id "c2")))
                           (:content "Done."))
                 :tools (list every-call-tests--read-tool))))
        (should-not (plist-get r :timed-out))
        (should (equal (plist-get r :ran) '(("Read" :file_path "/tmp/notes.txt"))))
        (should (equal (every-call-tests--results r)
                       `(("c1" . ,(every-call-tests--error-text "No secrets."))
                         ("c2" . "Read: ok"))))
        (if (eq handlers 'agent)
            (progn (should (eq (plist-get r :state) 'TRET))
                   (should (= (length (plist-get r :requests)) 1)))
          (should (eq (plist-get r :state) 'DONE))
          (should (= (length (plist-get r :requests)) 2))
          (should (equal (plist-get r :responses) '("Done."))))))))

(ert-deftest every::request-stop-ends-request ()
  "A stop rule: no tool of the turn runs, the callback sees the error, nothing is sent."
  (gptel-rust-hooks-test-with-mode
      '((:tool "Bash" :command-prefix "sudo" :decision stop :reason "No sudo."))
    (every-call-tests--on-each-machine handlers
      (let ((r (gptel-rust-hooks-test-with-request
                 :handlers handlers
                 :script '((:tool-calls ((:name "Read" :args (:file_path "/tmp/a") :id "c1")
                                         (:name "Bash" :args (:command "sudo rm -rf /")
                                                :id "c2")))
                           (:content "never sent"))
                 :tools (list every-call-tests--read-tool '("Bash" ("command"))))))
        (should-not (plist-get r :timed-out))
        (should-not (plist-get r :ran))
        (should (eq (plist-get r :state) 'ERRS))
        (should (equal (plist-get r :error) "No sudo."))
        (should (equal (plist-get r :stop-reason) "No sudo."))
        (should (memq nil (plist-get r :callbacks)))
        (should (equal (plist-get r :responses) '("No sudo.")))
        (should (= (length (plist-get r :requests)) 1))))))

(ert-deftest every::request-ask-goes-through-gptel-confirmation ()
  "An ask rule: the callback gets the pending call, as for a tool that confirms.
It runs only once accepted, and then the model gets its result."
  (gptel-rust-hooks-test-with-mode
      '((:tool "Bash" :decision ask :reason "Check it."))
    (every-call-tests--on-each-machine handlers
      (let ((waiting (gptel-rust-hooks-test-with-request
                       :handlers handlers
                       :confirm-tool-calls nil
                       :script '((:tool-calls ((:name "Bash" :args (:command "make")
                                                      :id "c1")))
                                 (:content "Built."))
                       :tools '(("Bash" ("command")))))
            (accepted (gptel-rust-hooks-test-with-request
                        :handlers handlers
                        :confirm-tool-calls nil
                        :on-confirm 'accept
                        :script '((:tool-calls ((:name "Bash" :args (:command "make")
                                                       :id "c1")))
                                  (:content "Built."))
                        :tools '(("Bash" ("command"))))))
        (should (equal (plist-get waiting :prompted) '(("Bash" :command "make"))))
        (should (memq 'tool-call (plist-get waiting :callbacks)))
        (should-not (plist-get waiting :ran))
        (should (= (length (plist-get waiting :requests)) 1))
        (should (equal (plist-get accepted :ran) '(("Bash" :command "make"))))
        (should (equal (every-call-tests--results accepted) '(("c1" . "Bash: ok"))))
        (unless (eq handlers 'agent)
          (should (eq (plist-get accepted :state) 'DONE)))))))

(ert-deftest every::request-edits-are-what-the-tool-gets ()
  "Argument edits reach the tool function and the model's history of the call."
  (gptel-rust-hooks-test-with-mode
      '((:tool "Bash" :default-args (:timeout 30000) :remove-args (:env)))
    (every-call-tests--on-each-machine handlers
      (let ((r (gptel-rust-hooks-test-with-request
                 :handlers handlers
                 :script '((:tool-calls ((:name "Bash" :args (:command "ls" :env "X=1")
                                                :id "c1")))
                           (:content "Listed."))
                 :tools '(("Bash" ("command" ("timeout" integer) "env"))))))
        (should (equal (plist-get r :ran) '(("Bash" :command "ls" :timeout 30000))))
        (unless (eq handlers 'agent)
          (should (equal (every-call-tests--sent-args r "c1")
                         '(:command "ls" :timeout 30000))))))))

(ert-deftest every::request-edit-into-deny-blocks ()
  "An edit that makes the call match a deny rule gets it denied."
  (gptel-rust-hooks-test-with-mode
      '((:tool "Bash" :set-args (:command "rm -rf /"))
        (:tool "Bash" :command-prefix "rm" :decision deny :reason "No rm."))
    (every-call-tests--on-each-machine handlers
      (let ((r (gptel-rust-hooks-test-with-request
                 :handlers handlers
                 :script '((:tool-calls ((:name "Bash" :args (:command "ls") :id "c1")))
                           (:content "ok"))
                 :tools '(("Bash" ("command"))))))
        (should-not (plist-get r :ran))
        (should (equal (every-call-tests--results r)
                       `(("c1" . ,(every-call-tests--error-text "No rm.")))))))))

(ert-deftest every::request-result-replaces-call ()
  "A canned result: the tool does not run and the model gets the result, not an error."
  (gptel-rust-hooks-test-with-mode
      '((:tool "get_weather" :result "Sunny (from the policy)."))
    (every-call-tests--on-each-machine handlers
      (let ((r (gptel-rust-hooks-test-with-request
                 :handlers handlers
                 :script '((:tool-calls ((:name "get_weather" :args (:city "Paris") :id "c1")
                                         (:name "Read" :args (:file_path "/tmp/a") :id "c2")))
                           (:content "Nice."))
                 :tools (list '("get_weather" ("city")) every-call-tests--read-tool))))
        (should (equal (plist-get r :ran) '(("Read" :file_path "/tmp/a"))))
        (should (equal (every-call-tests--results r)
                       '(("c1" . "Sunny (from the policy).") ("c2" . "Read: ok"))))
        (should-not (plist-get (cl-find "c1" (plist-get r :calls)
                                        :key (lambda (c) (plist-get c :id)) :test #'equal)
                               :error))))))

(ert-deftest every::request-redaction-applies ()
  "Post-call effects apply on every machine: the model never sees the secret."
  (gptel-rust-hooks-test-with-mode
      '((:tool "Read" :redact "sk-[A-Za-z0-9]+" :context "Untrusted file."))
    (every-call-tests--on-each-machine handlers
      (let* ((r (gptel-rust-hooks-test-with-request
                  :handlers handlers
                  :script '((:tool-calls ((:name "Read" :args (:file_path "/tmp/env")
                                                 :id "c1")))
                            (:content "Read."))
                  :tools '(("Read" ("file_path") :result "OPENAI_KEY=sk-abc123XYZ end"))))
             (seen (cdr (assoc "c1" (every-call-tests--results r)))))
        (should (equal (plist-get r :ran) '(("Read" :file_path "/tmp/env"))))
        (should (string-prefix-p "OPENAI_KEY=[REDACTED] end" seen))
        (should (string-search "Untrusted file." seen))
        (should-not (string-search "sk-abc123XYZ" (format "%S" (plist-get r :requests))))
        ;; Once, however many paths see the result.
        (should (= (cl-count-if (lambda (i) (string-search "Untrusted file." i))
                                (split-string seen "\n"))
                   1))))))

(ert-deftest every::request-allow-runs-a-confirming-tool-unasked ()
  "An allow rule answers for gptel's confirmation, as on `gptel-send''s path."
  (gptel-rust-hooks-test-with-mode '((:tool "Read" :decision allow))
    (every-call-tests--on-each-machine handlers
      (let ((r (gptel-rust-hooks-test-with-request
                 :handlers handlers
                 :confirm-tool-calls t
                 :script '((:tool-calls ((:name "Read" :args (:file_path "/tmp/a") :id "c1")))
                           (:content "ok"))
                 :tools '(("Read" ("file_path") :confirm t)))))
        (should-not (plist-get r :prompted))
        (should (equal (plist-get r :ran) '(("Read" :file_path "/tmp/a"))))))))

(ert-deftest every::request-no-decision-leaves-gptel-alone ()
  "A call no rule decides keeps gptel's own confirmation: a confirming tool asks."
  (gptel-rust-hooks-test-with-mode '((:tool "other" :decision deny))
    (let ((r (gptel-rust-hooks-test-with-request
               :confirm-tool-calls 'auto
               :script '((:tool-calls ((:name "Read" :args (:file_path "/tmp/a") :id "c1")))
                         (:content "ok"))
               :tools '(("Read" ("file_path") :confirm t)))))
      (should (equal (plist-get r :prompted) '(("Read" :file_path "/tmp/a"))))
      (should-not (plist-get r :ran)))))

(ert-deftest every::request-each-call-decided-once ()
  "Each call of a plain request is decided exactly once, where gptel runs it."
  (gptel-rust-hooks-test-with-mode every-call-tests--ssh-rules
    (every-call-tests--on-each-machine handlers
      (pcase-let ((`(,r . ,n)
                   (every-call-tests--counting-decisions
                     (gptel-rust-hooks-test-with-request
                       :handlers handlers
                       :script '((:tool-calls ((:name "Read" :args (:file_path "/tmp/a")
                                                      :id "c1")
                                               (:name "Read" :args (:file_path "~/.ssh/k")
                                                      :id "c2")))
                                 (:tool-calls ((:name "Read" :args (:file_path "/tmp/b")
                                                      :id "c3")))
                                 (:content "ok"))
                       :tools (list every-call-tests--read-tool)))))
        (if (eq handlers 'agent)
            (should (= n 2))
          (should (= n 3))
          (should (equal (plist-get r :ran) '(("Read" :file_path "/tmp/a")
                                              ("Read" :file_path "/tmp/b")))))))))

;;;; A request started from a tool

(defun every-call-tests--agent-tool (inner-handlers)
  "Return an async Agent tool whose function runs a subagent request.
Like gptel-agent's `gptel-agent--task': a `gptel-request' with the
buffer's tools and a state machine with INNER-HANDLERS; its text, or
its error, is the tool's result."
  (gptel-make-tool
   :name "Agent"
   :description "Run a subagent."
   :category "gptel-rust-hooks-test"
   :async t
   :include t
   :args '((:name "prompt" :type string :description "The task."))
   :function
   (lambda (callback prompt)
     (push (list "Agent" :prompt prompt) gptel-rust-hooks-test--ran)
     (gptel-request prompt
       :fsm (gptel-make-fsm :handlers (gptel-rust-hooks-test--handlers inner-handlers))
       :callback
       (lambda (response info)
         (pcase response
           ((pred stringp) (funcall callback response))
           ('nil (funcall callback (format "Error: %s" (plist-get info :error))))))))))

(ert-deftest every::nested-request-calls-decided ()
  "A tool that starts a second request with tools: its calls are decided too."
  (gptel-rust-hooks-test-with-mode every-call-tests--ssh-rules
    (dolist (inner '(default agent-hooks))
      (ert-info ((symbol-name inner) :prefix "Inner handlers: ")
        (let* ((gptel--known-tools (copy-tree gptel--known-tools))
               (r (gptel-rust-hooks-test-with-request
                    :script '((:tool-calls ((:name "Agent" :args (:prompt "Look around.")
                                                   :id "outer")))
                              (:tool-calls ((:name "Read" :args (:file_path "~/.ssh/id_rsa")
                                                   :id "in1")
                                            (:name "Read" :args (:file_path "/tmp/notes")
                                                   :id "in2")))
                              (:content "Subagent: nothing secret found.")
                              (:content "All done."))
                    :tools (list (every-call-tests--agent-tool inner)
                                 (gptel-rust-hooks-test-make-tool
                                  "Read" '("file_path"))))))
          (should-not (plist-get r :timed-out))
          (should (eq (plist-get r :state) 'DONE))
          (should (equal (plist-get r :ran) '(("Agent" :prompt "Look around.")
                                              ("Read" :file_path "/tmp/notes"))))
          (should (= (length (plist-get r :requests)) 4))
          ;; The subagent's follow-up carried the denial to the model...
          (should (equal (every-call-tests--by-id (nth 2 (plist-get r :tool-messages)))
                         `(("in1" . ,(every-call-tests--error-text "No secrets."))
                           ("in2" . "Read: ok"))))
          ;; ... and the outer request got the subagent's answer.
          (should (equal (every-call-tests--by-id (nth 3 (plist-get r :tool-messages)))
                         '(("outer" . "Subagent: nothing secret found."))))
          (should (equal (plist-get r :responses) '("All done."))))))))

;;;; gptel-send: the decision is the last word

(defmacro every-call-tests--with-hook (function depth &rest body)
  "Run BODY with FUNCTION on `gptel-pre-tool-call-functions' at DEPTH."
  (declare (indent 2) (debug t))
  `(progn
     (add-hook 'gptel-pre-tool-call-functions ,function ,depth)
     (unwind-protect (progn ,@body)
       (remove-hook 'gptel-pre-tool-call-functions ,function))))

(ert-deftest every::later-confirm-nil-cannot-loosen-ask ()
  "A hook function after ours answering `:confirm nil' cannot turn our ask silent."
  (gptel-rust-hooks-test-with-mode '((:tool "shell" :decision ask))
    (every-call-tests--with-hook (lambda (_) '(:confirm nil)) 90
      (let ((r (gptel-rust-hooks-test-with-fsm
                 :confirm-tool-calls nil
                 :calls '((:name "shell" :args (:command "make"))))))
        (should (equal (plist-get r :pending) '(("shell" :command "make"))))
        (should-not (plist-get r :ran))))))

(ert-deftest every::earlier-confirm-nil-cannot-loosen-ask ()
  "A hook function before ours answering `:confirm nil' does not outlast our ask."
  (gptel-rust-hooks-test-with-mode '((:tool "shell" :decision ask))
    (every-call-tests--with-hook (lambda (_) '(:confirm nil)) -90
      (let ((r (gptel-rust-hooks-test-with-fsm
                 :confirm-tool-calls nil
                 :calls '((:name "shell" :args (:command "make"))))))
        (should (equal (plist-get r :pending) '(("shell" :command "make"))))
        (should-not (plist-get r :ran))))))

(ert-deftest every::later-confirm-nil-cannot-undo-deny ()
  "A hook function after ours answering `:confirm nil' leaves our deny standing."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "No rm."))
    (every-call-tests--with-hook (lambda (_) '(:confirm nil)) 90
      (let ((r (gptel-rust-hooks-test-with-fsm
                 :calls '((:name "shell" :args (:command "rm -rf /tmp/x") :id "c1")))))
        (should-not (plist-get r :ran))
        (should (equal (every-call-tests--by-id (plist-get r :tool-messages))
                       `(("c1" . ,(every-call-tests--error-text "No rm.")))))))))

(ert-deftest every::later-args-are-decided ()
  "A hook function after ours that edits the arguments gets its edit decided."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "No rm.")
        (:tool "shell" :command-prefix "ls" :decision allow))
    (every-call-tests--with-hook
        (lambda (info)
          (and (equal (plist-get (plist-get info :args) :command) "ls")
               '(:args (:command "rm -rf ~") :confirm nil)))
        90
      (pcase-let ((`(,r . ,n)
                   (every-call-tests--counting-decisions
                     (gptel-rust-hooks-test-with-fsm
                       :calls '((:name "shell" :args (:command "ls") :id "c1"))))))
        (should-not (plist-get r :ran))
        (should (equal (every-call-tests--by-id (plist-get r :tool-messages))
                       `(("c1" . ,(every-call-tests--error-text "No rm.")))))
        ;; Once as the model asked, once as the other function edited it.
        (should (= n 2))))))

(ert-deftest every::later-in-place-edit-is-decided ()
  "A hook function after ours that changes the arguments in place gets them decided."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "No rm.")
        (:tool "shell" :command-prefix "ls" :decision allow))
    (every-call-tests--with-hook
        (lambda (info) (plist-put (plist-get info :args) :command "rm -rf ~") nil)
        90
      (let ((r (gptel-rust-hooks-test-with-fsm
                 :calls '((:name "shell" :args (:command "ls") :id "c1")))))
        (should-not (plist-get r :ran))
        (should (equal (every-call-tests--by-id (plist-get r :tool-messages))
                       `(("c1" . ,(every-call-tests--error-text "No rm.")))))))))

(ert-deftest every::earlier-args-decided-once ()
  "A hook function before ours edits the call: ours decides the edit, once."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "ls" :decision allow))
    (every-call-tests--with-hook
        (lambda (_) '(:args (:command "ls -la")))
        -90
      (pcase-let ((`(,r . ,n)
                   (every-call-tests--counting-decisions
                     (gptel-rust-hooks-test-with-fsm
                       :confirm-tool-calls t
                       :calls '((:name "shell" :args (:command "ls")))))))
        (should (equal (plist-get r :ran) '(("shell" :command "ls -la"))))
        (should-not (plist-get r :pending))
        (should (= n 1))))))

(ert-deftest every::unchanged-call-decided-once ()
  "On `gptel-send''s path, a call nothing changed after our hook is not decided again."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :default-args (:timeout 5))
        (:tool "read_file" :decision allow))
    (pcase-let ((`(,r . ,n)
                 (every-call-tests--counting-decisions
                   (gptel-rust-hooks-test-with-fsm
                     :calls '((:name "shell" :args (:command "ls"))
                              (:name "read_file" :args (:path "/tmp/a")))
                     :tools '(("shell" ("command" ("timeout" integer)))
                              ("read_file" ("path")))))))
      (should (equal (plist-get r :ran) '(("shell" :command "ls" :timeout 5)
                                          ("read_file" :path "/tmp/a"))))
      (should (= n 2)))))

(ert-deftest every::later-rename-is-decided ()
  "A hook function after ours that renames the tool gets the renamed call decided."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :decision deny :reason "No shell.")
        (:tool "read_file" :decision allow))
    (every-call-tests--with-hook
        (lambda (info) (and (equal (plist-get info :name) "read_file") '(:name "shell")))
        90
      (let ((r (gptel-rust-hooks-test-with-fsm
                 :calls '((:name "read_file" :args (:command "id") :id "c1"))
                 :tools '(("read_file" ("command")) ("shell" ("command"))))))
        (should-not (plist-get r :ran))
        (should (equal (every-call-tests--by-id (plist-get r :tool-messages))
                       `(("c1" . ,(every-call-tests--error-text "No shell.")))))))))

(ert-deftest every::buffer-local-hooks-without-t ()
  "A request buffer whose hook lists leave out the global ones is still guarded."
  (gptel-rust-hooks-test-with-mode
      '((:tool "shell" :command-prefix "rm" :decision deny :reason "No rm.")
        (:tool "cat" :redact "sk-[a-z0-9]+"))
    (let ((fsm (gptel-rust-hooks-test-with-fsm
                 :pre (list #'ignore)
                 :post (list #'ignore)
                 :calls '((:name "shell" :args (:command "rm -rf /tmp/x") :id "c1")
                          (:name "cat" :args (:path "/k") :id "c2"))
                 :tools '(("shell" ("command")) ("cat" ("path") :result "key sk-abc1 here"))))
          (chat (gptel-rust-hooks-test-with-conversation
                  :pre (list #'ignore)
                  :post (list #'ignore)
                  :script '((:tool-calls ((:name "shell" :args (:command "rm -rf /tmp/x")
                                                 :id "c1")
                                          (:name "cat" :args (:path "/k") :id "c2")))
                            (:content "done"))
                  :tools '(("shell" ("command")) ("cat" ("path") :result "key sk-abc1 here")))))
      (dolist (r (list fsm chat))
        (should (equal (plist-get r :ran) '(("cat" :path "/k")))))
      (should (equal (every-call-tests--by-id (plist-get fsm :tool-messages))
                     `(("c1" . ,(every-call-tests--error-text "No rm."))
                       ("c2" . "key [REDACTED] here"))))
      (should (equal (every-call-tests--by-id (cadr (plist-get chat :tool-messages)))
                     `(("c1" . ,(every-call-tests--error-text "No rm."))
                       ("c2" . "key [REDACTED] here")))))))

(ert-deftest every::stop-where-no-hook-ran ()
  "A stop decided at the tool runner ends a `gptel-send' request like the hook's."
  (gptel-rust-hooks-test-with-mode '((:tool "y" :decision stop :reason "halt"))
    (let ((r (gptel-rust-hooks-test-with-fsm
               :pre (list #'ignore)
               :calls '((:name "y" :args (:q "1"))))))
      (should-not (plist-get r :ran))
      (should (eq (plist-get r :state) 'ERRS))
      (should (equal (plist-get r :error) "halt"))
      (should-not (plist-get r :sent)))))

;;;; Tools by their real argument names

(defconst every-call-tests--agent-tools
  '(("Read" ("file_path" ("start_line" integer) ("end_line" integer)))
    ("Write" ("path" "filename" "content"))
    ("Edit" ("path" "old_str" "new_str" ("diff" boolean)))
    ("Insert" ("path" ("line_number" integer) "new_str"))
    ("Mkdir" ("parent" "name"))
    ("Glob" ("pattern" "path"))
    ("Grep" ("regex" "path" "glob"))
    ("Bash" ("command"))
    ("Eval" ("expression")))
  "gptel-agent's tools (gptel-agent-tools.el), by their argument names.")

(defconst every-call-tests--collection-tools
  '(("view_file" ("file" ("offset" integer) ("limit" integer)))
    ("edit_file" ("file" "old_string" "new_string"))
    ("create_file" ("path" "content"))
    ("create_directory" ("path"))
    ("ls" ("path" ("ignore" array)))
    ("grep" ("pattern" "include" "path"))
    ("bash" ("command"))
    ("eval_elisp" ("code")))
  "llm-tool-collection's tools, by their argument names.")

(defun every-call-tests--numbered (calls)
  "Return CALLS, (NAME . ARGS) pairs, as script calls with ids c1, c2, ..."
  (cl-loop for (name . args) in calls for i from 1
           collect (list :name name :args args :id (format "c%d" i))))

(defun every-call-tests--check-tools (tools secret benign asked)
  "Run SECRET, BENIGN and ASKED calls to TOOLS through a plain request.
Each is a list of (NAME . ARGS).  SECRET calls must be denied by the
~/.ssh rule, BENIGN ones must run with exactly their arguments, ASKED
ones must wait for confirmation."
  (let* ((calls (append secret benign asked))
         (r (gptel-rust-hooks-test-with-request
              :confirm-tool-calls nil
              :script `((:tool-calls ,(every-call-tests--numbered calls))
                        (:content "ok"))
              :tools tools)))
    (should-not (plist-get r :timed-out))
    (should (equal (plist-get r :ran) benign))
    (should (equal (plist-get r :prompted) asked))
    (cl-loop for call in secret for i from 1
             do (ert-info ((format "%S" call) :prefix "Secret call: ")
                  (should (equal (plist-get (cl-find (format "c%d" i) (plist-get r :calls)
                                                     :key (lambda (c) (plist-get c :id))
                                                     :test #'equal)
                                            :result)
                                 (every-call-tests--error-text "No secrets.")))))))

(ert-deftest every::gptel-agent-tools ()
  "gptel-agent's tools, by their argument names: each path argument is guarded."
  (gptel-rust-hooks-test-with-mode
      (append every-call-tests--ssh-rules
              '((:id "eval" :tool "Eval" :decision ask)))
    (every-call-tests--check-tools
     every-call-tests--agent-tools
     '(("Read" :file_path "~/.ssh/id_rsa" :start_line 1 :end_line 20)
       ("Write" :path "~/.ssh" :filename "authorized_keys" :content "ssh-ed25519 AAAA")
       ("Write" :path "~" :filename ".ssh/config" :content "Host *")
       ("Edit" :path "~/.ssh/config" :old_str "a" :new_str "b" :diff :json-false)
       ("Insert" :path "~/.ssh/authorized_keys" :line_number 0 :new_str "key")
       ("Mkdir" :parent "~" :name ".ssh")
       ("Glob" :pattern "*" :path "~/.ssh")
       ("Grep" :regex "BEGIN" :path "~/.ssh" :glob "*")
       ("Bash" :command "cat ~/.ssh/id_rsa"))
     '(("Read" :file_path "/tmp/notes.txt" :start_line 1 :end_line 5)
       ("Write" :path "/tmp" :filename "out.txt" :content "hello")
       ("Edit" :path "/tmp/out.txt" :old_str "hello" :new_str "bye")
       ("Mkdir" :parent "/tmp" :name "build")
       ("Grep" :regex "TODO" :path "/tmp" :glob "*.el")
       ("Bash" :command "ls -la"))
     '(("Eval" :expression "(+ 1 2)")))))

(ert-deftest every::llm-tool-collection-tools ()
  "llm-tool-collection's tools, by their argument names: each path argument is guarded."
  (gptel-rust-hooks-test-with-mode
      (append every-call-tests--ssh-rules
              '((:id "eval" :tool "eval_elisp" :decision ask)))
    (every-call-tests--check-tools
     every-call-tests--collection-tools
     '(("view_file" :file "~/.ssh/id_rsa" :offset 0 :limit 10)
       ("edit_file" :file "~/.ssh/config" :old_string "a" :new_string "b")
       ("create_file" :path "~/.ssh/rc" :content "x")
       ("create_directory" :path "~/.ssh/keys")
       ("ls" :path "~/.ssh")
       ("grep" :pattern "BEGIN" :include "*" :path "~/.ssh")
       ("bash" :command "cp ~/.ssh/id_rsa /tmp/k"))
     '(("view_file" :file "/tmp/notes.txt")
       ("ls" :path "/tmp")
       ("bash" :command "echo hi"))
     '(("eval_elisp" :code "(emacs-version)")))))

(ert-deftest every::cwd-argument-is-the-command-directory ()
  "A `cwd' or `working_directory' argument is where the command's paths are read."
  (gptel-rust-hooks-test-with-mode
      '((:id "etc-txt" :path "/etc/*.txt" :decision deny :reason "No notes from /etc.")
        (:tool "Bash" :command-prefix "cat" :decision allow))
    (let ((r (gptel-rust-hooks-test-with-request
               :script '((:tool-calls ((:name "Bash" :args (:command "cat notes.txt" :cwd "/etc")
                                              :id "c1")
                                       (:name "Bash" :args (:command "cat notes.txt"
                                                                     :working_directory "/etc")
                                              :id "c2")
                                       (:name "Bash" :args (:command "cat notes.txt" :cwd "/tmp")
                                              :id "c3")))
                         (:content "ok"))
               :tools '(("Bash" ("command" "cwd" "working_directory"))))))
      (should (equal (plist-get r :ran) '(("Bash" :command "cat notes.txt" :cwd "/tmp"))))
      (should (equal (every-call-tests--results r)
                     `(("c1" . ,(every-call-tests--error-text "No notes from /etc."))
                       ("c2" . ,(every-call-tests--error-text "No notes from /etc."))
                       ("c3" . "Bash: ok")))))))

;;;; The mode and gptel's internals

(ert-deftest every::mode-off-removes-exactly-the-guard ()
  "On, gptel's tool runner is advised; off, exactly that advice goes."
  (let ((was-on gptel-rust-hooks-mode))
    (unwind-protect
        (progn
          (gptel-rust-hooks-mode 1)
          (should (advice-member-p #'gptel-rust-hooks--guard-tool-use
                                   'gptel--handle-tool-use))
          (should (advice-member-p #'gptel-rust-hooks--guard-result
                                   'gptel--process-tool-call))
          (should (advice-member-p #'gptel-rust-hooks--note-pre-tool
                                   'gptel--handle-pre-tool))
          (gptel-rust-hooks-mode -1)
          (should-not (advice-member-p #'gptel-rust-hooks--guard-tool-use
                                       'gptel--handle-tool-use))
          (should-not (advice-member-p #'gptel-rust-hooks--guard-result
                                       'gptel--process-tool-call))
          (should-not (advice-member-p #'gptel-rust-hooks--note-pre-tool
                                       'gptel--handle-pre-tool)))
      (gptel-rust-hooks-mode (if was-on 1 -1)))))

(ert-deftest every::mode-off-request-runs-unguarded ()
  "With the mode off, a plain request's tools run whatever the rules say."
  (gptel-rust-hooks-test-with-mode every-call-tests--ssh-rules
    (gptel-rust-hooks-mode -1)
    (let ((r (gptel-rust-hooks-test-with-request
               :script '((:tool-calls ((:name "Read" :args (:file_path "~/.ssh/id_rsa")
                                              :id "c1")))
                         (:content "ok"))
               :tools (list every-call-tests--read-tool))))
      (should (equal (plist-get r :ran) '(("Read" :file_path "~/.ssh/id_rsa")))))))

(ert-deftest every::missing-internals-said-once-and-tools-withheld ()
  "Without the internals it needs, the mode says so once; unguarded requests get no tools.
Requests through `gptel-send''s hooks keep their tools."
  (let ((gptel-rust-hooks--gptel-internals
         (cons 'every-call-tests--no-such-function gptel-rust-hooks--gptel-internals))
        (gptel-rust-hooks--internals-reported nil)
        (gptel-rust-hooks--missing-internals nil)
        (warnings nil))
    (cl-letf (((symbol-function 'display-warning)
               (lambda (_type message &rest _) (push message warnings))))
      (gptel-rust-hooks-test-with-mode every-call-tests--ssh-rules
        (should (equal gptel-rust-hooks--missing-internals
                       '(every-call-tests--no-such-function)))
        (should-not (advice-member-p #'gptel-rust-hooks--guard-tool-use
                                     'gptel--handle-tool-use))
        (gptel-rust-hooks-mode -1)
        (gptel-rust-hooks-mode 1)
        (should (= (length warnings) 1))
        (should (string-search "every-call-tests--no-such-function" (car warnings)))
        (let ((plain (gptel-rust-hooks-test-with-request
                       :script '((:tool-calls ((:name "Read"
                                                      :args (:file_path "~/.ssh/id_rsa")
                                                      :id "c1")))
                                 (:content "ok"))
                       :tools (list every-call-tests--read-tool)))
              (chat (gptel-rust-hooks-test-with-conversation
                      :script '((:tool-calls ((:name "Read"
                                                     :args (:file_path "~/.ssh/id_rsa")
                                                     :id "c1")))
                                (:content "ok"))
                      :tools (list every-call-tests--read-tool))))
          (should-not (plist-member (car (plist-get plain :requests)) :tools))
          (should-not (plist-get plain :ran))
          (should (plist-get (car (plist-get chat :requests)) :tools))
          (should-not (plist-get chat :ran))
          (should (equal (every-call-tests--by-id (cadr (plist-get chat :tool-messages)))
                         `(("c1" . ,(every-call-tests--error-text "No secrets."))))))
        (gptel-rust-hooks-mode -1)
        (should-not (advice-member-p #'gptel-rust-hooks--withhold-tools 'gptel-request))))))

(ert-deftest every::guard-error-blocks-calls ()
  "If deciding at the tool runner fails, the calls are blocked, never run."
  (gptel-rust-hooks-test-with-mode nil
    (cl-letf (((symbol-function 'gptel-rust-hooks--call-decision)
               (lambda (&rest _) (error "Boom"))))
      (let ((r (gptel-rust-hooks-test-with-request
                 :handlers 'agent
                 :script '((:tool-calls ((:name "Read" :args (:file_path "/tmp/a") :id "c1")))
                           (:content "ok"))
                 :tools (list every-call-tests--read-tool))))
        (should-not (plist-get r :ran))
        (should (equal (every-call-tests--results r)
                       `(("c1" . ,(every-call-tests--error-text "gptel-rust-hooks: Boom")))))))))

(provide 'every-call-tests)
;;; every-call-tests.el ends here
