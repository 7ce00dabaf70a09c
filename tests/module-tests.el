;;; module-tests.el --- ERT tests of the package and module, without gptel -*- lexical-binding: t; -*-

;;; Commentary:

;; The package and its module on their own: evaluation, compile errors,
;; the policy kept after a bad rule, the mode's hook bookkeeping, failing
;; closed, and hostile Lisp data.  Run by `make test-elisp'.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'gptel-rust-hooks)

(defvar gptel-pre-tool-call-functions)
(defvar gptel-post-tool-call-functions)

(defmacro gptel-rust-hooks-test-with-rules (rules &rest body)
  "Run BODY with RULES in force and the package state saved."
  (declare (indent 1) (debug t))
  `(let ((gptel-rust-hooks-rules gptel-rust-hooks-rules)
         (gptel-rust-hooks--policy gptel-rust-hooks--policy)
         (gptel-rust-hooks--good-rules gptel-rust-hooks--good-rules)
         (gptel-rust-hooks--checked-rules gptel-rust-hooks--checked-rules)
         (gptel-rust-hooks--rules-error gptel-rust-hooks--rules-error)
         (gptel-rust-hooks--cache nil)
         (gptel-rust-hooks--files (make-hash-table :test #'equal))
         (gptel-rust-hooks-policy-files nil)
         (gptel-rust-hooks-project-policies nil)
         (gptel-rust-hooks--reported nil)
         (gptel-rust-hooks-default-decision nil)
         (gptel-rust-hooks-unsure-decision 'ask)
         (gptel-rust-hooks-on-error 'block)
         ;; Decide by the rules alone: tools other test files register with
         ;; gptel must not check these calls (see schema-tests.el).
         (gptel-rust-hooks-validate-calls nil))
     (gptel-rust-hooks--load-module)
     (customize-set-variable 'gptel-rust-hooks-rules ,rules)
     ,@body))

(defconst gptel-rust-hooks-test-rules
  '((:id "no-rm" :tool "shell" :command-prefix "rm" :decision deny
     :reason "No deleting.")
    (:id "ssh" :path "~/.ssh/**" :decision stop :reason "Secrets.")
    (:id "read" :tool "read_file" :decision allow)
    (:id "ask-write" :tool "write_file" :decision ask)
    (:id "timeout" :tool "shell" :default-args (:timeout 30000))
    (:id "canned" :tool "weather" :result "Sunny."))
  "A small policy used by several tests.")

;;;; Evaluate

(ert-deftest evaluate::decisions ()
  (gptel-rust-hooks-test-with-rules gptel-rust-hooks-test-rules
    (should (equal (gptel-rust-hooks-evaluate '(:name "read_file" :args (:path "/tmp/a")))
                   '(:confirm nil)))
    (should (equal (gptel-rust-hooks-evaluate '(:name "write_file" :args (:path "/tmp/a")))
                   '(:confirm t)))
    (should (equal (gptel-rust-hooks-evaluate '(:name "weather" :args nil))
                   '(:result "Sunny.")))
    (should (equal (gptel-rust-hooks-evaluate '(:name "unknown" :args (:x 1)))
                   nil))
    (should (equal (gptel-rust-hooks-evaluate
                    `(:name "read_file" :args (:path ,(expand-file-name "~/.ssh/id_rsa"))))
                   '(:stop t :stop-reason "Secrets.")))))

(ert-deftest evaluate::edits-keep-other-args ()
  (gptel-rust-hooks-test-with-rules gptel-rust-hooks-test-rules
    (should (equal (gptel-rust-hooks-evaluate '(:name "shell" :args (:command "ls -l")))
                   '(:args (:command "ls -l" :timeout 30000))))
    (should (equal (gptel-rust-hooks-evaluate
                    '(:name "shell" :args (:command "ls" :timeout 5000)))
                   nil))))

(ert-deftest evaluate::explicit-rules-argument ()
  (gptel-rust-hooks-test-with-rules nil
    (should (equal (gptel-rust-hooks-evaluate '(:name "x" :args nil)
                                              '((:tool "x" :decision deny :reason "r")))
                   '(:block "r")))
    ;; The rules in force are not touched by the RULES argument.
    (should (null (gptel-rust-hooks-evaluate '(:name "x" :args nil))))))

(ert-deftest evaluate::default-decision ()
  (gptel-rust-hooks-test-with-rules '((:tool "ok" :decision allow))
    (let ((gptel-rust-hooks-default-decision 'deny))
      (should (equal (gptel-rust-hooks-evaluate '(:name "ok" :args nil)) '(:confirm nil)))
      (should (string-match-p "no rule decides tool `other`"
                              (plist-get (gptel-rust-hooks-evaluate '(:name "other" :args nil))
                                         :block))))))

(ert-deftest evaluate::set-args-values-as-gptel-reads-json ()
  (gptel-rust-hooks-test-with-rules
      '((:tool "t" :set-args (:flag t :off :json-false :n 1.5 :list ["a" "b"] :obj (:k "v"))))
    (should (equal (gptel-rust-hooks-evaluate '(:name "t" :args (:x "y")))
                   '(:args (:x "y" :flag t :off :json-false :n 1.5 :list ["a" "b"]
                               :obj (:k "v")))))))

;; A deny rule whose only match is a generous reading (`strace' is a program the
;; table does not know) is unsure: it asks, unless the option says deny.
(ert-deftest evaluate::unsure-decision ()
  (gptel-rust-hooks-test-with-rules
      '((:id "no-rm" :tool "shell" :command-prefix "rm" :decision deny :reason "No."))
    (should (eq (default-value 'gptel-rust-hooks-unsure-decision) 'ask))
    (let ((gptel-rust-hooks-unsure-decision 'ask))
      (should (equal (gptel-rust-hooks-evaluate
                      '(:name "shell" :args (:command "strace -f rm -rf /tmp/x")))
                     '(:confirm t)))
      ;; A certain match denies as the rule says.
      (should (equal (gptel-rust-hooks-evaluate
                      '(:name "shell" :args (:command "rm -rf /tmp/x")))
                     '(:block "No."))))
    (let ((gptel-rust-hooks-unsure-decision 'deny))
      (should (string-match-p
               "no-rm.*unsure.*`strace`"
               (plist-get (gptel-rust-hooks-evaluate
                           '(:name "shell" :args (:command "strace -f rm -rf /tmp/x")))
                          :block))))
    ;; Only ask and deny are unsure decisions: anything else is refused by name.
    (let ((gptel-rust-hooks-unsure-decision 'stop))
      (should-error (gptel-rust-hooks-evaluate '(:name "shell" :args (:command "rm x")))
                    :type 'gptel-rust-hooks-rule-error))))

;;;; Compile errors

(ert-deftest compile::unknown-key ()
  (gptel-rust-hooks-test-with-rules nil
    (let ((err (should-error (customize-set-variable
                              'gptel-rust-hooks-rules
                              '((:tool "a" :decision deny) (:id "x" :tol "b" :decision deny)))
                             :type 'gptel-rust-hooks-rule-error)))
      (should (equal (cadr err) "rule 2 (`x`): unknown key `:tol` (did you mean `:tool`?)")))))

(ert-deftest compile::misspelt-decision ()
  (gptel-rust-hooks-test-with-rules nil
    (let ((err (should-error (customize-set-variable
                              'gptel-rust-hooks-rules '((:tool "a" :decision dney)))
                             :type 'gptel-rust-hooks-rule-error)))
      (should (equal (cadr err)
                     "rule 1: :decision: unknown decision `dney` (known: allow, ask, deny, stop)")))))

(ert-deftest compile::wrong-type ()
  (gptel-rust-hooks-test-with-rules nil
    (let ((err (should-error (customize-set-variable
                              'gptel-rust-hooks-rules '((:id "n" :tool 42 :decision deny)))
                             :type 'gptel-rust-hooks-rule-error)))
      (should (equal (cadr err)
                     "rule 1 (`n`): :tool: expected a string or a list of strings, got a number `42`")))))

(ert-deftest compile::bad-glob-and-regexp ()
  (gptel-rust-hooks-test-with-rules nil
    (should (string-match-p
             "\\`rule 1: :tool: invalid glob `\\[`"
             (cadr (should-error (gptel-rust-hooks-evaluate '(:name "a") '((:tool "[")))
                                 :type 'gptel-rust-hooks-rule-error))))
    (should (string-match-p
             "\\`rule 1 (`re`): :tool-regexp: invalid regexp `(`"
             (cadr (should-error (gptel-rust-hooks-evaluate
                                  '(:name "a") '((:id "re" :tool-regexp "(")))
                                 :type 'gptel-rust-hooks-rule-error))))))

(ert-deftest compile::error-is-a-gptel-rust-hooks-error ()
  (should (memq 'gptel-rust-hooks-error (get 'gptel-rust-hooks-rule-error 'error-conditions))))

(ert-deftest compile::bad-rule-keeps-policy-in-force ()
  (gptel-rust-hooks-test-with-rules '((:tool "x" :decision deny :reason "old"))
    (should-error (customize-set-variable 'gptel-rust-hooks-rules
                                          '((:tool "x" :decision allow) (:bogus 1)))
                  :type 'gptel-rust-hooks-rule-error)
    (should (equal gptel-rust-hooks-rules '((:tool "x" :decision deny :reason "old"))))
    (should (equal (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil)) '(:block "old")))))

(ert-deftest compile::setq-bad-rules-keeps-policy-and-reports-once ()
  (gptel-rust-hooks-test-with-rules '((:tool "x" :decision deny :reason "old"))
    (setq gptel-rust-hooks-rules '((:tool "x" :decision allow) (:bogus 1)))
    (should (equal (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil)) '(:block "old")))
    (should (equal (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil)) '(:block "old")))
    (should (= 1 (length gptel-rust-hooks--reported)))
    (should (string-match-p "unknown key `:bogus`" (car gptel-rust-hooks--reported)))))

(ert-deftest compile::bad-rules-without-a-policy-block-every-call ()
  (gptel-rust-hooks-test-with-rules nil
    (setq gptel-rust-hooks--good-rules :none
          gptel-rust-hooks-rules '((:decision maybe)))
    (let ((gptel-rust-hooks--reported nil))
      ;; The model is told the policy is misconfigured, not the error
      ;; (which names the user's files); the user sees the error.
      (should (equal (plist-get (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil)) :block)
                     gptel-rust-hooks--misconfigured))
      (should (cl-some (lambda (m)
                         (string-match-p
                          "\\`gptel-rust-hooks: rule 1: :decision: unknown decision `maybe`" m))
                       gptel-rust-hooks--reported)))))

(ert-deftest fail-closed::policy-error-keeps-file-paths-from-the-model ()
  "A policy file that does not compile blocks calls without its path reaching the model."
  (let ((file (make-temp-file "module-tests-policy-" nil ".json" "[{\"decision\": \"maybe\"}]")))
    (unwind-protect
        (gptel-rust-hooks-test-with-rules nil
          (let ((gptel-rust-hooks-policy-files (list file))
                (gptel-rust-hooks--reported nil)
                (gptel-rust-hooks-on-error 'stop))
            (let ((answer (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil))))
              (should (eq (plist-get answer :stop) t))
              (should-not (string-search file (plist-get answer :stop-reason)))
              (should-not (string-search (file-name-nondirectory file)
                                         (plist-get answer :stop-reason)))
              (should (string-search "misconfigured" (plist-get answer :stop-reason))))
            (should (cl-some (lambda (m) (string-search (file-name-nondirectory file) m))
                             gptel-rust-hooks--reported))))
      (delete-file file))))

;;;; One module call per decision

(ert-deftest module::pre-returns-everything-in-one-call ()
  "`--mod-pre' returns the answer, the record, the misfit, the deciding rule, the skipped edits."
  (gptel-rust-hooks-test-with-rules nil
    (let* ((policy (gptel-rust-hooks--compile
                    '((:id "no-rm" :tool "shell" :command-prefix "rm" :decision deny
                       :reason "No rm.")
                      (:id "t" :tool "shell" :set-args (:timeout 5) :decision allow))))
           (schema (gptel-rust-hooks--mod-schema '(("command" "string" t))))
           (out (gptel-rust-hooks--mod-pre policy '(:name "shell" :args (:command "rm x"))
                                           "/" nil schema)))
      (should (vectorp out))
      (should (= (length out) 6))
      (should (equal (aref out 0) '(:block "No rm.")))
      (pcase-let ((`(,decision ,matched ,by ,reason ,micros)
                   (gptel-rust-hooks--mod-record-data (aref out 1))))
        (should (eq decision 'deny))
        (should (equal matched '("no-rm" "t")))
        (should (equal by "no-rm"))
        (should (equal reason "No rm."))
        (should (and (floatp micros) (> micros 0))))
      (should-not (aref out 2))
      (should-not (aref out 3))
      (should (equal (aref out 4) "no-rm"))
      ;; An allowed call: the edit of an undeclared argument is skipped.
      (let ((out (gptel-rust-hooks--mod-pre policy '(:name "shell" :args (:command "ls"))
                                            "/" nil schema)))
        (should (equal (aref out 0) '(:confirm nil)))
        (should-not (aref out 4))
        (should (equal (aref out 5)
                       '("gptel-rust-hooks: t sets argument `timeout`, which tool `shell` \
does not declare: that edit is skipped"))))
      ;; Without the schema, the edit applies.
      (should (equal (aref (gptel-rust-hooks--mod-pre policy '(:name "shell" :args (:command "ls"))
                                                      "/" nil nil)
                           0)
                     '(:confirm nil :args (:command "ls" :timeout 5))))
      ;; A call that does not fit: blocked before any rule, no record.
      (let ((out (gptel-rust-hooks--mod-pre policy '(:name "shell" :args (:cmd "rm x"))
                                            "/" nil schema)))
        (should (equal (aref out 0)
                       '(:block "gptel-rust-hooks: the call to tool `shell` does not fit its \
arguments: unknown argument `cmd`, missing required argument `command`; it takes `command` \
(string, required)")))
        (should-not (aref out 1))
        (should (equal (aref out 3)
                       '(:tool "shell" :stage call
                               :problems ("unknown argument `cmd`"
                                          "missing required argument `command`")
                               :rules nil)))))))

(ert-deftest module::schema-refuses-what-is-not-an-argument-list ()
  "`--mod-schema' signals on what is not a list of (NAME TYPE REQUIRED)."
  (gptel-rust-hooks-test-with-rules nil
    (should-error (gptel-rust-hooks--mod-schema '((1 2 3))) :type 'gptel-rust-hooks-error)
    (should-error (gptel-rust-hooks--mod-schema "x") :type 'gptel-rust-hooks-error)
    (should (gptel-rust-hooks--mod-schema nil))))

;;;; What the user is told

(ert-deftest hook::deny-and-stop-messages-name-the-rule ()
  "A denied or stopped call shows a message naming the deciding rule and its reason."
  (gptel-rust-hooks-test-with-rules '((:id "no-rm" :tool "shell" :command-prefix "rm"
                                       :decision deny :reason "No rm.")
                                      (:id "halt" :tool "nuke" :decision stop :reason "Never.")
                                      (:id "ok" :tool "shell" :decision allow))
    (let ((messages nil))
      (cl-letf (((symbol-function 'message)
                 (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
        (should (equal (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:command "rm x")))
                       '(:block "No rm.")))
        (should (equal (gptel-rust-hooks-pre-tool-call '(:name "nuke" :args nil))
                       '(:stop t :stop-reason "Never.")))
        (should (equal (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:command "ls")))
                       '(:confirm nil))))
      (should (equal (reverse messages)
                     '("gptel-rust-hooks: `no-rm` denied tool `shell`: No rm."
                       "gptel-rust-hooks: `halt` stopped the request at tool `nuke`: Never."))))))

;;;; Mode

(ert-deftest mode::on-off-leaves-hooks-as-before ()
  (let* ((other (lambda (_) nil))
         (gptel-pre-tool-call-functions (list other))
         (gptel-post-tool-call-functions (list #'ignore))
         (pre-before (copy-sequence gptel-pre-tool-call-functions))
         (post-before (copy-sequence gptel-post-tool-call-functions))
         (was gptel-rust-hooks-mode))
    (unwind-protect
        (progn
          (gptel-rust-hooks-mode 1)
          (should (memq #'gptel-rust-hooks-pre-tool-call gptel-pre-tool-call-functions))
          (should (memq #'gptel-rust-hooks-post-tool-call gptel-post-tool-call-functions))
          (should (memq other gptel-pre-tool-call-functions))
          (gptel-rust-hooks-mode -1)
          (should (equal gptel-pre-tool-call-functions pre-before))
          (should (equal gptel-post-tool-call-functions post-before)))
      (gptel-rust-hooks-mode (if was 1 -1)))))

(ert-deftest mode::does-not-load-module-at-require ()
  ;; A fresh Emacs that only requires the package has no module functions.
  (let ((out (with-temp-buffer
               (call-process (expand-file-name invocation-name invocation-directory)
                             nil t nil "-Q" "--batch" "-L"
                             (file-name-directory (locate-library "gptel-rust-hooks"))
                             "--eval"
                             "(progn (require 'gptel-rust-hooks) (princ (fboundp 'gptel-rust-hooks--mod-pre)))")
               (buffer-string))))
    (should (string-suffix-p "nil" (string-trim out)))))

;;;; Failing closed

(ert-deftest fail-closed::internal-error-blocks ()
  (gptel-rust-hooks-test-with-rules '((:tool "x" :decision allow))
    (cl-letf (((symbol-function 'gptel-rust-hooks--mod-pre)
               (lambda (&rest _) (signal 'rust-panic '("boom")))))
      (let ((answer (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil))))
        (should (string-prefix-p "gptel-rust-hooks: " (plist-get answer :block)))
        (should (string-match-p "boom" (plist-get answer :block)))))))

(ert-deftest fail-closed::on-error-stop ()
  (gptel-rust-hooks-test-with-rules '((:tool "x" :decision allow))
    (let ((gptel-rust-hooks-on-error 'stop))
      (cl-letf (((symbol-function 'gptel-rust-hooks--mod-pre)
                 (lambda (&rest _) (error "Internal"))))
        (let ((answer (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil))))
          (should (eq (plist-get answer :stop) t))
          (should (string-match-p "Internal" (plist-get answer :stop-reason))))))))

(ert-deftest fail-closed::missing-module-blocks-and-reports-once ()
  (gptel-rust-hooks-test-with-rules nil
    (cl-letf (((symbol-function 'gptel-rust-hooks--current-policy)
               (lambda () (signal 'gptel-rust-hooks-module-error
                                  '("module not found in /nowhere")))))
      (dotimes (_ 3)
        (should (string-match-p "module not found"
                                (plist-get (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil))
                                           :block))))
      (should (= 1 (length gptel-rust-hooks--reported))))))

(ert-deftest fail-closed::module-not-found-message ()
  (let ((gptel-rust-hooks-module-directory "/nonexistent/dir"))
    (cl-letf (((symbol-function 'gptel-rust-hooks--module-loaded-p) #'ignore)
              ((symbol-function 'gptel-rust-hooks--module-candidates)
               (lambda () '("/nonexistent/dir/gptel-rust-hooks-module.so"))))
      (let ((err (should-error (gptel-rust-hooks--load-module)
                               :type 'gptel-rust-hooks-module-error)))
        (should (string-match-p "gptel-rust-hooks-build-module" (cadr err)))))))

(ert-deftest fail-closed::version-mismatch ()
  (gptel-rust-hooks--load-module)
  (let ((gptel-rust-hooks-version "0.0.0-other"))
    (let ((err (should-error (gptel-rust-hooks--load-module)
                             :type 'gptel-rust-hooks-module-error)))
      (should (string-match-p "restart Emacs" (cadr err))))))

;;;; Hostile input

(ert-deftest module::pre-allocates-no-vector ()
  "`--mod-pre' answers in one vector, reused: a decision allocates no vector in Lisp."
  (gptel-rust-hooks-test-with-rules nil
    (let* ((policy (gptel-rust-hooks--compile
                    '((:id "no-rm" :tool "shell" :command-prefix "rm" :decision deny)
                      (:id "ls" :tool "shell" :command-prefix "ls" :decision allow))))
           (deny '(:name "shell" :args (:command "rm x")))
           (allow '(:name "shell" :args (:command "ls" :timeout 5)))
           (first (gptel-rust-hooks--mod-pre policy deny "/" nil nil))
           (first-answer (aref first 0))
           (second (gptel-rust-hooks--mod-pre policy allow "/" nil nil)))
      (should (eq first second))
      (should (plist-member first-answer :block))
      ;; The slots are the latest decision's.
      (should (equal (aref second 0) '(:confirm nil)))
      (should-not (aref second 4))
      (garbage-collect)
      (let ((before (nth 2 (memory-use-counts))))
        (dotimes (_ 100) (gptel-rust-hooks--mod-pre policy allow "/" nil nil))
        ;; At most a few cells per call (the record), none for an answer vector
        ;; of 6 slots or a copy of the arguments.
        (should (< (- (nth 2 (memory-use-counts)) before) (* 100 6)))))))

(defun gptel-rust-hooks-test--blocked (info)
  "Return the :block text the pre-tool hook gives for INFO."
  (plist-get (gptel-rust-hooks-pre-tool-call info) :block))

(ert-deftest hostile::malformed-calls-are-blocked ()
  (gptel-rust-hooks-test-with-rules '((:tool "*" :decision allow))
    (let ((circular (list :path "a")))
      (setcdr (cdr circular) circular)
      (dolist (case `(((:name "x" :args ,circular) . "circular")
                      ((:name "x" :args (:path . "a")) . "circular or dotted")
                      ((:name "x" :args (:path)) . "odd length")
                      ((:name "x" :args ("path" "a")) . "not a keyword")
                      ((:name "x" :args [:path "a"]) . ":args is not a plist")
                      ((:name x :args nil) . "no tool name")
                      ((:args nil) . "no tool name")
                      ("not a plist" . "")
                      ((:name ,(string-to-unibyte "\377") :args nil) . "UTF-8")))
        (let ((text (gptel-rust-hooks-test--blocked (car case))))
          (should (stringp text))
          (should (string-match-p (regexp-quote (cdr case)) text)))))))

(ert-deftest hostile::circular-info-plist ()
  (gptel-rust-hooks-test-with-rules '((:tool "*" :decision allow))
    (let ((info (list :x 1 :y 2)))
      (setcdr (last info) info)
      ;; `plist-get' on a circular plist ends; the call has no name.
      (should (stringp (gptel-rust-hooks-test--blocked info))))))

(ert-deftest hostile::odd-values-decide-not-crash ()
  (gptel-rust-hooks-test-with-rules
      '((:tool "*" :args (:path (:regexp "^/tmp")) :decision allow))
    (setq gptel-rust-hooks-default-decision 'ask)
    (let* ((deep (let ((v "x")) (dotimes (_ 10000) (setq v (list v))) v))
           (huge (make-string (* 8 1024 1024) ?a))
           (nonutf (string-to-unibyte "/tmp/\377\376"))
           (circular-value (let ((l (list 1 2))) (setcdr (cdr l) l) l)))
      ;; Unreadable values never satisfy the allow rule; they are present.
      (dolist (v (list deep nonutf circular-value [1 2 3] (make-hash-table) 1.5
                       (make-bool-vector 3 t) 'sym))
        (should (equal (gptel-rust-hooks-pre-tool-call `(:name "t" :args (:path ,v)))
                       '(:confirm t))))
      (should (equal (gptel-rust-hooks-pre-tool-call
                      `(:name "t" :args (:path ,(concat "/tmp/" huge))))
                     '(:confirm nil))))))

(ert-deftest hostile::many-args ()
  (gptel-rust-hooks-test-with-rules '((:tool "*" :decision allow))
    (let ((args (cl-loop for i below 5000 nconc (list (intern (format ":k%d" i)) i))))
      (should (string-match-p "more than" (gptel-rust-hooks-test--blocked
                                           `(:name "x" :args ,args)))))
    (let ((args (cl-loop for i below 100 nconc (list (intern (format ":k%d" i)) i))))
      (should (equal (gptel-rust-hooks-pre-tool-call `(:name "x" :args ,args))
                     '(:confirm nil))))))

(ert-deftest compile::large-policy-beyond-a-calls-value-limit ()
  ;; A call may hold 100,000 Lisp values; the user's rules may hold more.
  (let ((rules (cl-loop for i below 25000
                        collect (list :tool (format "t%d" i) :decision 'deny
                                      :reason (format "r%d" i)))))
    (gptel-rust-hooks-test-with-rules (append rules '((:tool "ok" :decision allow)))
      (should (equal (gptel-rust-hooks-pre-tool-call '(:name "t24999" :args nil))
                     '(:block "r24999")))
      (should (equal (gptel-rust-hooks-pre-tool-call '(:name "ok" :args nil))
                     '(:confirm nil))))))

(ert-deftest hostile::argument-keys-read-right-beyond-the-known-keys ()
  ;; The module remembers the names of the first 64 keys it meets; keys
  ;; past those, and a symbol that only looks like a known key, are read
  ;; by name every time.
  (gptel-rust-hooks-test-with-rules
      '((:tool "x" :decision allow)
        (:tool "x" :args (:k99 (:regexp "^bad")) :decision deny :reason "k99")
        (:tool "x" :args (:k3 (:regexp "^bad")) :decision deny :reason "k3"))
    (let ((call (lambda (bad)
                  `(:name "x" :args ,(cl-loop for i below 100
                                              nconc (list (intern (format ":k%d" i))
                                                          (if (= i bad) "bad" "good")))))))
      (dotimes (_ 3)
        (should (equal (gptel-rust-hooks-pre-tool-call (funcall call -1)) '(:confirm nil)))
        (should (equal (gptel-rust-hooks-pre-tool-call (funcall call 99)) '(:block "k99")))
        (should (equal (gptel-rust-hooks-pre-tool-call (funcall call 3)) '(:block "k3"))))
      ;; An uninterned symbol named `:k3' is read by its name.
      (should (equal (gptel-rust-hooks-pre-tool-call
                      `(:name "x" :args (,(make-symbol ":k3") "bad")))
                     '(:block "k3")))
      ;; A plain symbol is not a keyword, even with a known key's name.
      (should (string-match-p "not a keyword"
                              (gptel-rust-hooks-test--blocked
                               '(:name "x" :args (k3 "bad"))))))))

(provide 'module-tests)
;;; module-tests.el ends here
