;;; schema-tests.el --- Calls checked against the tool's own arguments -*- lexical-binding: t; -*-

;;; Commentary:

;; `gptel-rust-hooks-validate-calls': a call to a tool gptel knows that
;; names an argument the tool does not declare, or lacks a required one,
;; is blocked before any rule runs; arguments edited by rules are checked
;; again.  Through gptel's own `gptel--handle-pre-tool' (the state machine
;; of test-helper.el), and directly through the hook and `explain'.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)

(defvar gptel--known-tools)

(defun schema-tests--tool (name args)
  "Make a gptel tool NAME that records what it receives.
ARGS is a list of (ARG-NAME TYPE REQUIRED)."
  (gptel-make-tool
   :name name
   :description (format "Test tool %s." name)
   :category "gptel-rust-hooks-test"
   :args (mapcar (lambda (a)
                   (append (list :name (nth 0 a) :type (nth 1 a)
                                 :description (format "Argument %s." (nth 0 a)))
                           (unless (nth 2 a) (list :optional t))))
                 args)
   :function (lambda (&rest values)
               (push (cons name (cl-loop for a in args for v in values
                                         when v append (list (intern (concat ":" (car a))) v)))
                     gptel-rust-hooks-test--ran)
               (format "%s: ok" name))))

(defun schema-tests--read-file ()
  "Return a read_file tool: `path' (string, required), `limit' (integer)."
  (schema-tests--tool "read_file" '(("path" string t) ("limit" integer nil))))

(defconst schema-tests--takes
  "it takes `path` (string, required), `limit` (integer, optional)"
  "How the block reason names the arguments of `schema-tests--read-file'.")

(defun schema-tests--error-text (reason)
  "Return the tool result gptel gives a call blocked with REASON."
  (concat "<tool_call_error>\n" reason "\n</tool_call_error>"))

(defun schema-tests--run (rules calls &rest spec)
  "Run CALLS through gptel with RULES in force and a read_file tool.
SPEC is more keys for `gptel-rust-hooks-test-with-fsm'."
  (gptel-rust-hooks-test-with-state
    (gptel-rust-hooks-test-with-mode rules
      (gptel-rust-hooks-test--run-fsm
       (append (list :tools (list (schema-tests--read-file)) :calls calls) spec)
       nil))))

;;;; The model's call, before any rule

(ert-deftest schema::unknown-argument-blocked-before-any-rule ()
  "An argument the tool does not declare blocks the call; no rule runs, not even stop."
  (let ((r (schema-tests--run
            '((:id "halt" :tool "read_file" :decision stop :reason "never"))
            '((:name "read_file" :args (:file_path "/tmp/a") :id "c1")))))
    (should-not (plist-get r :ran))
    ;; Not stopped: the stop rule never saw the call.
    (should (eq (plist-get r :state) 'WAIT))
    (should (eq (plist-get (gptel-rust-hooks-test-call r "read_file") :error) t))
    (should (equal (plist-get r :tool-messages)
                   `((:role "tool" :tool_call_id "c1"
                            :content ,(schema-tests--error-text
                                       (concat "gptel-rust-hooks: the call to tool `read_file` \
does not fit its arguments: unknown argument `file_path`, missing required argument `path`; "
                                               schema-tests--takes))))))))

(ert-deftest schema::missing-required-argument-blocked ()
  "A call without a required argument, or with it null, is blocked with the expected ones."
  (dolist (args '((:limit 3) (:path nil :limit 3)))
    (let ((r (schema-tests--run nil `((:name "read_file" :args ,args :id "c1")))))
      (should-not (plist-get r :ran))
      (should (equal (mapcar (lambda (m) (plist-get m :content)) (plist-get r :tool-messages))
                     (list (schema-tests--error-text
                            (concat "gptel-rust-hooks: the call to tool `read_file` does not \
fit its arguments: missing required argument `path`; " schema-tests--takes))))))))

(ert-deftest schema::fitting-call-reaches-the-rules ()
  "A call that fits its tool is decided by the rules, and the tool runs."
  (let ((r (schema-tests--run '((:tool "read_file" :decision allow))
                              '((:name "read_file" :args (:path "/tmp/a" :limit 3))
                                (:name "read_file" :args (:path "/tmp/b")))
                              :confirm-tool-calls t)))
    (should (equal (plist-get r :ran)
                   '(("read_file" :path "/tmp/a" :limit 3) ("read_file" :path "/tmp/b"))))
    (should-not (plist-get r :pending))))

(ert-deftest schema::unknown-tool-left-to-gptel ()
  "A call to a tool gptel does not know is not checked: gptel answers it."
  (let* ((name "gptel_rust_hooks_no_such_tool")
         (r (schema-tests--run nil `((:name ,name :args (:anything 1) :id "c1")))))
    (should-not (plist-get r :ran))
    (should (equal (mapcar (lambda (m) (plist-get m :content)) (plist-get r :tool-messages))
                   (list (format "Error: Tool '%s' is not available. Available tools: read_file"
                                 name))))
    (gptel-rust-hooks-test-with-state
      (should (null (gptel-rust-hooks-evaluate `(:name ,name :args (:anything 1))
                                               '((:tool "other" :decision deny))))))))

(ert-deftest schema::off-lets-any-arguments-through ()
  "With `gptel-rust-hooks-validate-calls' nil, the call goes to the rules and the tool."
  (let ((r (gptel-rust-hooks-test-with-state
             (let ((gptel-rust-hooks-validate-calls nil))
               (gptel-rust-hooks-test-with-mode '((:tool "read_file" :decision allow))
                 (gptel-rust-hooks-test-with-fsm
                   :tools (list (schema-tests--read-file))
                   :calls '((:name "read_file" :args (:file_path "/tmp/a")))))))))
    ;; gptel passes the tool only what it declares: here, nothing.
    (should (equal (plist-get r :ran) '(("read_file"))))))

(ert-deftest schema::tool-from-gptel-registry ()
  "Outside a request buffer's `gptel-tools', a tool in gptel's registry is checked."
  (let ((name "gptel_rust_hooks_registered_tool"))
    (gptel-rust-hooks-test-with-state
      (schema-tests--tool name '(("q" string t)))
      (with-temp-buffer
        (let ((gptel-tools nil))
          (should (equal (gptel-rust-hooks-evaluate `(:name ,name :args (:q "x" :z 1)) nil)
                         `(:block ,(format "gptel-rust-hooks: the call to tool `%s` \
does not fit its arguments: unknown argument `z`; it takes `q` (string, required)" name))))
          (should (equal gptel-rust-hooks--last-schema
                         `(:tool ,name :stage call :problems ("unknown argument `z`")
                                 :rules nil)))
          (should (null (gptel-rust-hooks-evaluate `(:name ,name :args (:q "x"))
                                                   '((:tool "other" :decision deny))))))))))

(ert-deftest schema::tool-without-arguments ()
  "A tool that declares no arguments refuses any."
  (gptel-rust-hooks-test-with-state
    (with-temp-buffer
      (setq-local gptel-tools (list (schema-tests--tool "now" nil)))
      (should (equal (gptel-rust-hooks-evaluate '(:name "now" :args (:tz "UTC"))
                                                '((:tool "now" :decision allow)))
                     '(:block "gptel-rust-hooks: the call to tool `now` does not fit its \
arguments: unknown argument `tz`; it takes no arguments")))
      (should (equal (gptel-rust-hooks-evaluate '(:name "now" :args nil)
                                                '((:tool "now" :decision allow)))
                     '(:confirm nil))))))

(ert-deftest schema::malformed-arguments-left-to-the-module ()
  "Arguments that are not a plist are not checked here; the module blocks them."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules '((:tool "*" :decision allow)))
    (with-temp-buffer
      (setq-local gptel-tools (list (schema-tests--read-file)))
      (let ((circular (list :path "a")))
        (setcdr (cdr circular) circular)
        (dolist (args (list '(:path) circular '("path" "/a")))
          (let ((answer (gptel-rust-hooks-pre-tool-call `(:name "read_file" :args ,args))))
            (should (string-match-p "malformed tool call" (plist-get answer :block)))
            (should-not gptel-rust-hooks--last-schema)))))))

;;;; Arguments edited by rules

(ert-deftest schema::edit-that-breaks-the-schema-is-blocked-and-reported ()
  "A rule that removes a required argument blocks the call."
  (dolist (case '(((:id "bad-edit" :tool "read_file" :remove-args (path))
                   . "missing required argument `path`")))
    (let* ((rules (list (car case)))
           (reason (format "gptel-rust-hooks: `bad-edit` edited the arguments of tool \
`read_file` so that they do not fit it: %s; %s" (cdr case) schema-tests--takes)))
      (gptel-rust-hooks-test-with-state
        (gptel-rust-hooks-test-with-mode rules
          (let ((r (gptel-rust-hooks-test-with-fsm
                     :tools (list (schema-tests--read-file))
                     :calls '((:name "read_file" :args (:path "/tmp/a"))))))
            (should-not (plist-get r :ran))
            (should (equal (mapcar (lambda (m) (plist-get m :content))
                                   (plist-get r :tool-messages))
                           (list (schema-tests--error-text reason))))
            ;; For the log: the latest call's schema failure, and a report.
            (should (equal gptel-rust-hooks--last-schema
                           `(:tool "read_file" :stage edit :problems (,(cdr case))
                                   :rules ("bad-edit"))))
            (should (member reason gptel-rust-hooks--reported)))
          ;; Explain shows it too.
          (with-temp-buffer
            (setq-local gptel-tools (list (schema-tests--read-file)))
            (let ((data (gptel-rust-hooks-explain '(:name "read_file" :args (:path "/tmp/a")))))
              (should (equal (plist-get data :answer) (list :block reason)))
              (should (eq (plist-get (plist-get data :schema-failure) :stage) 'edit))
              (should (equal (mapcar (lambda (e) (plist-get e :rule)) (plist-get data :edits))
                             '("bad-edit"))))))))))

(ert-deftest schema::edit-of-an-undeclared-argument-is-skipped-with-a-warning ()
  "An edit that sets an argument the tool does not declare is skipped, once warned.
The call runs with the other edits; the warning names the rule and the tool."
  (dolist (rule '((:id "bad-edit" :tool "read_file" :set-args (:bogus 1) :decision allow)
                  (:id "bad-edit" :tool "read_file" :default-args (:bogus 1 :limit 5)
                   :decision allow)))
    (gptel-rust-hooks-test-with-state
      (gptel-rust-hooks-test-with-mode (list rule)
        (let* ((warnings nil)
               (r (cl-letf (((symbol-function 'display-warning)
                             (lambda (_type text &rest _) (push text warnings))))
                    (gptel-rust-hooks-test-with-fsm
                      :tools (list (schema-tests--read-file))
                      :calls '((:name "read_file" :args (:path "/tmp/a"))
                               (:name "read_file" :args (:path "/tmp/b")))))))
          (should (equal (plist-get r :ran)
                         (if (plist-get rule :default-args)
                             '(("read_file" :path "/tmp/a" :limit 5)
                               ("read_file" :path "/tmp/b" :limit 5))
                           '(("read_file" :path "/tmp/a") ("read_file" :path "/tmp/b")))))
          (should-not gptel-rust-hooks--last-schema)
          ;; Once, for two calls; naming the rule, the argument and the tool.
          (should (equal warnings
                         '("gptel-rust-hooks: bad-edit sets argument `bogus`, which tool \
`read_file` does not declare: that edit is skipped"))))))))

(ert-deftest schema::edit-that-fits-reaches-the-tool ()
  "A rule that adds a declared argument: the tool receives it."
  (let ((r (schema-tests--run '((:tool "read_file" :default-args (:limit 10)))
                              '((:name "read_file" :args (:path "/tmp/a"))))))
    (should (equal (plist-get r :ran) '(("read_file" :path "/tmp/a" :limit 10))))))

(provide 'schema-tests)
;;; schema-tests.el ends here
