;;; copilot-tests.el --- The six Copilot hook examples, as shipped policies, in real conversations  -*- lexical-binding: t; -*-

;;; Commentary:

;; GitHub Copilot's SDK documents six examples of its `onPreToolUse' hook.
;; Each is shipped as a JSON policy in examples/copilot-*.json; here each
;; is loaded as a policy file (`gptel-rust-hooks-policy-files', nothing
;; else in force) and a whole `gptel-send' conversation runs against
;; tests/fake_openai_server.py: the server asks for tool calls, gptel runs
;; them through the package's hooks, and the follow-up request shows what
;; the model was sent back.  Each test asserts what the tool functions
;; received and what reached the model.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-log)

(declare-function gptel-rust-hooks--mod-compile-layers "ext:gptel-rust-hooks-module"
                  (layers options))
(declare-function gptel-rust-hooks--mod-rule-count "ext:gptel-rust-hooks-module" (policy))

(defconst copilot-tests--examples
  (expand-file-name "../examples/" gptel-rust-hooks-test-directory)
  "The directory of the shipped example policies.")

(defmacro copilot-tests--with-example (file &rest body)
  "Run BODY with the mode on and only the example policy FILE in force.
The audit log starts empty and keeps 1000 entries in memory only."
  (declare (indent 1) (debug t))
  `(let ((gptel-rust-hooks-policy-files
          (list (expand-file-name ,file copilot-tests--examples)))
         (gptel-rust-hooks-project-policies nil)
         (gptel-rust-hooks--session-rules nil)
         ;; Compiled policies depend on the home directory, which some
         ;; tests change: compile afresh.
         (gptel-rust-hooks--cache nil)
         (gptel-rust-hooks-redact-secrets nil)
         (gptel-rust-hooks-log-size 1000)
         (gptel-rust-hooks-log-file nil)
         (gptel-rust-hooks-log--ring nil)
         (gptel-rust-hooks-log--next 0)
         (gptel-rust-hooks-log--count 0))
     (gptel-rust-hooks-test-with-mode nil ,@body)))

(defun copilot-tests--sent (result)
  "Return ((ID . CONTENT) ...): the tool messages of RESULT's last request."
  (mapcar (lambda (m) (cons (plist-get m :tool_call_id) (plist-get m :content)))
          (car (last (plist-get result :tool-messages)))))

(defun copilot-tests--error (reason)
  "Return the tool message gptel sends for a call blocked with REASON."
  (concat "<tool_call_error>\n" reason "\n</tool_call_error>"))

(defun copilot-tests--replayed-args (result id)
  "Return the arguments of tool call ID as replayed in RESULT's last request."
  (let* ((messages (plist-get (car (last (plist-get result :requests))) :messages))
         (call (cl-loop for m in messages
                        thereis (cl-find id (plist-get m :tool_calls)
                                         :key (lambda (c) (plist-get c :id))
                                         :test #'equal))))
    (gptel-rust-hooks-test--json-decode
     (plist-get (plist-get call :function) :arguments))))

(defun copilot-tests--done-p (result)
  "Check that the conversation RESULT ended normally after two requests."
  (should-not (plist-get result :timed-out))
  (should (eq (plist-get result :state) 'DONE))
  (should (= (length (plist-get result :requests)) 2)))

;;;; 1. Allow all tools (logging only)

(ert-deftest copilot::1-allow-all-and-log ()
  "Every tool runs without a prompt, and the audit log records each call."
  (let ((log-file (make-temp-file "copilot-log-" nil ".jsonl")))
    (delete-file log-file)
    (unwind-protect
        (copilot-tests--with-example "copilot-1-allow-all.json"
          (setq gptel-rust-hooks-log-file log-file)
          (let* ((label "allow-all-and-log in copilot-1-allow-all.json")
                 (r (gptel-rust-hooks-test-with-conversation
                      :buffer-name "*copilot-1*"
                      ;; gptel would ask before every call: the allow decides.
                      :confirm-tool-calls t
                      :script '((:tool-calls
                                 ((:name "shell" :args (:command "ls -la") :id "c1")
                                  (:name "read_file" :args (:path "/etc/hosts") :id "c2")))
                                (:content "Both ran."))
                      :tools '(("shell" ("command") :confirm t)
                               ("read_file" ("path") :confirm t)))))
            (copilot-tests--done-p r)
            (should-not (plist-get r :prompted))
            (should (equal (plist-get r :ran)
                           '(("shell" :command "ls -la") ("read_file" :path "/etc/hosts"))))
            (should (equal (copilot-tests--sent r)
                           '(("c1" . "shell: ok") ("c2" . "read_file: ok"))))
            ;; The log: one entry per call, its decisions before and after it
            ;; joined (issue 24), oldest last.
            (let ((entries (gptel-rust-hooks-log-entries)))
              (should (equal (mapcar (lambda (e) (list (plist-get e :kind) (plist-get e :tool)
                                                       (plist-get e :outcome)
                                                       (plist-get e :rules)
                                                       (plist-get e :post-outcome)))
                                     (reverse entries))
                             `((pre "shell" "allow" (,label) "unchanged")
                               (pre "read_file" "allow" (,label) "unchanged"))))
              (dolist (e entries)
                (should (string-prefix-p "*copilot-1*" (plist-get e :buffer)))
                (should (equal (plist-get e :backend) "gptel-rust-hooks-test"))
                (should (equal (plist-get e :model) "fake-model"))
                (should (numberp (plist-get e :micros))))
              (should (equal (plist-get (car (last entries)) :args) '(:command "ls -la"))))
            ;; And the log file: one JSON object per line, readable by the user alone.
            (should (= (file-modes log-file) #o600))
            (let ((lines (with-temp-buffer
                           (insert-file-contents log-file)
                           (split-string (buffer-string) "\n" t))))
              (should (= (length lines) 4))
              (let ((first (gptel-rust-hooks-test--json-decode (car lines))))
                (should (equal (plist-get first :tool) "shell"))
                (should (equal (plist-get first :kind) "pre"))
                (should (equal (plist-get first :outcome) "allow"))
                (should (equal (plist-get first :args) '(:command "ls -la")))
                (should (equal (plist-get first :rules) (list label)))))))
      (when (file-exists-p log-file) (delete-file log-file)))))

;;;; 2. Block specific tools

(ert-deftest copilot::2-block-tools-with-reason ()
  "shell, bash, write_file and delete_file never run; the model gets the reason."
  (copilot-tests--with-example "copilot-2-block-tools.json"
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls
                          ((:name "shell" :args (:command "rm -rf build") :id "c1")
                           (:name "bash" :args (:command "echo hi") :id "c2")
                           (:name "write_file" :args (:path "/tmp/a" :content "x") :id "c3")
                           (:name "delete_file" :args (:path "/tmp/a") :id "c4")
                           (:name "read_file" :args (:path "/tmp/a") :id "c5")))
                         (:content "Understood."))
               :tools '(("shell" ("command")) ("bash" ("command"))
                        ("write_file" ("path" "content")) ("delete_file" ("path"))
                        ("read_file" ("path"))))))
      (copilot-tests--done-p r)
      (should (equal (plist-get r :ran) '(("read_file" :path "/tmp/a"))))
      (should (equal
               (copilot-tests--sent r)
               `(("c1" . ,(copilot-tests--error "Tool 'shell' is not permitted in this environment"))
                 ("c2" . ,(copilot-tests--error "Tool 'bash' is not permitted in this environment"))
                 ("c3" . ,(copilot-tests--error
                           "Tool 'write_file' is not permitted in this environment"))
                 ("c4" . ,(copilot-tests--error
                           "Tool 'delete_file' is not permitted in this environment"))
                 ("c5" . "read_file: ok")))))))

;;;; 3. Modify tool arguments

(ert-deftest copilot::3-default-timeout-for-shell ()
  "A shell call without a timeout gets 30000; an explicit timeout stays."
  (copilot-tests--with-example "copilot-3-default-timeout.json"
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls
                          ((:name "shell" :args (:command "make test") :id "c1")
                           (:name "shell" :args (:command "sleep 1" :timeout 5000) :id "c2")
                           (:name "bash" :args (:command "make test") :id "c3")))
                         (:content "Tests ran."))
               :tools '(("shell" ("command" ("timeout" integer)))
                        ("bash" ("command" ("timeout" integer)))))))
      (copilot-tests--done-p r)
      (should (equal (plist-get r :ran)
                     '(("shell" :command "make test" :timeout 30000)
                       ("shell" :command "sleep 1" :timeout 5000)
                       ("bash" :command "make test"))))
      ;; The model is shown the call as it really ran.
      (should (equal (copilot-tests--replayed-args r "c1")
                     '(:command "make test" :timeout 30000)))
      (should (equal (copilot-tests--replayed-args r "c2")
                     '(:command "sleep 1" :timeout 5000)))
      (should (equal (copilot-tests--sent r)
                     '(("c1" . "shell: ok") ("c2" . "shell: ok") ("c3" . "bash: ok")))))))

;;;; 4. Restrict file access to specific directories

(defun copilot-tests--fixture-base ()
  "Return a directory for a fixture that lies outside /tmp.
The example allows /tmp, so a fixture inside it would be allowed whole."
  (let ((base (cl-find-if (lambda (d)
                            (and d (file-directory-p d) (file-writable-p d)
                                 (not (file-in-directory-p (file-truename d) "/tmp"))))
                          (list "/var/tmp/" (expand-file-name "~/")
                                (expand-file-name "../target/" gptel-rust-hooks-test-directory)))))
    (or base (error "No writable directory outside /tmp for the fixture"))))

(ert-deftest copilot::4-restrict-directories ()
  "Reads and writes only inside ~/projects and /tmp: traversal, siblings, symlinks refused."
  (let* ((root (file-name-as-directory
                (file-truename
                 (let ((temporary-file-directory (copilot-tests--fixture-base)))
                   (make-temp-file "copilot-4-" t)))))
         (home (expand-file-name "home/user/" root))
         (projects (expand-file-name "projects/" home))
         (tmp-file (make-temp-file "copilot-4-out-" nil ".txt")))
    (unwind-protect
        (progn
          (make-directory (expand-file-name "app" projects) t)
          (make-directory (expand-file-name "projects-evil" home) t)
          (make-directory (expand-file-name "outside" home) t)
          (write-region "print('hi')" nil (expand-file-name "app/main.py" projects))
          (write-region "project notes" nil (expand-file-name "notes.txt" projects))
          (dolist (secret (list (expand-file-name "secret.txt" home)
                                (expand-file-name "projects-evil/secret.txt" home)
                                (expand-file-name "outside/secret.txt" home)))
            (write-region "TOP SECRET\n" nil secret))
          (make-symbolic-link (expand-file-name "outside" home)
                              (expand-file-name "link" projects))
          (let ((process-environment (cons (concat "HOME=" (directory-file-name home))
                                           process-environment)))
            (copilot-tests--with-example "copilot-4-restrict-directories.json"
              (let* ((reason "File access is only permitted in ~/projects and /tmp.")
                     (read-fn (lambda (args)
                                (let ((file (plist-get args :path)))
                                  (if (and file (file-readable-p file))
                                      (with-temp-buffer
                                        (insert-file-contents file)
                                        (buffer-string))
                                    "no such file"))))
                     (r (gptel-rust-hooks-test-with-conversation
                          :directory projects
                          :script
                          `((:tool-calls
                             ((:name "read_file" :args (:path ,(concat projects "app/main.py"))
                                     :id "inside")
                              (:name "read_file" :args (:path "notes.txt") :id "relative")
                              (:name "write_file" :args (:path ,tmp-file :content "x")
                                     :id "tmp")
                              (:name "read_file" :args (:path "~/projects/app/main.py")
                                     :id "tilde")
                              (:name "read_file" :args (:path "/etc/passwd") :id "outside")
                              (:name "read_file" :args (:path ,(concat projects "../secret.txt"))
                                     :id "traversal")
                              (:name "read_file" :args (:path "~/projects-evil/secret.txt")
                                     :id "sibling")
                              (:name "read_file" :args (:path ,(concat projects "link/secret.txt"))
                                     :id "symlink")
                              (:name "write_file" :args (:path ,(concat projects "link/new.txt")
                                                               :content "x")
                                     :id "symlink-new")
                              (:name "read_file" :args (:location "/etc/passwd")
                                     :id "no-path")))
                            (:content "Done."))
                          :tools `(("read_file" ("path" "location") :result ,read-fn)
                                   ("write_file" ("path" "content"))))))
                (copilot-tests--done-p r)
                (should (equal (plist-get r :ran)
                               `(("read_file" :path ,(concat projects "app/main.py"))
                                 ("read_file" :path "notes.txt")
                                 ("write_file" :path ,tmp-file :content "x")
                                 ("read_file" :path "~/projects/app/main.py"))))
                (should (equal
                         (copilot-tests--sent r)
                         `(("inside" . "print('hi')")
                           ("relative" . "project notes")
                           ("tmp" . "write_file: ok")
                           ("tilde" . "print('hi')")
                           ("outside" . ,(copilot-tests--error reason))
                           ("traversal" . ,(copilot-tests--error reason))
                           ("sibling" . ,(copilot-tests--error reason))
                           ("symlink" . ,(copilot-tests--error reason))
                           ("symlink-new" . ,(copilot-tests--error reason))
                           ("no-path" . ,(copilot-tests--error
                                          "read_file and write_file must name their file in `path`.")))))
                (should-not (string-search "TOP SECRET"
                                           (format "%S" (plist-get r :requests))))))))
      (delete-directory root t)
      (when (file-exists-p tmp-file) (delete-file tmp-file)))))

;;;; 5. Suppress verbose tool output

(ert-deftest copilot::5-suppress-verbose-output ()
  "list_directory and search_files run, but the model sees a short notice instead."
  (copilot-tests--with-example "copilot-5-suppress-output.json"
    (let* ((listing (mapconcat (lambda (i) (format "file-%04d.txt" i))
                               (number-sequence 1 2000) "\n"))
           (hits "a.el:3: TODO one\nb.el:9: TODO two")
           (label "quiet-verbose-tools in copilot-5-suppress-output.json")
           (r (gptel-rust-hooks-test-with-conversation
                :script '((:tool-calls
                           ((:name "list_directory" :args (:path ".") :id "c1")
                            (:name "search_files" :args (:pattern "TODO") :id "c2")
                            (:name "read_file" :args (:path "a.el") :id "c3")))
                          (:content "Noted."))
                :tools `(("list_directory" ("path") :result ,listing)
                         ("search_files" ("pattern") :result ,hits)
                         ("read_file" ("path") :result "(message \"a\")")))))
      (copilot-tests--done-p r)
      (should (equal (plist-get r :ran)
                     '(("list_directory" :path ".") ("search_files" :pattern "TODO")
                       ("read_file" :path "a.el"))))
      (should (equal
               (copilot-tests--sent r)
               `(("c1" . ,(format "[gptel-rust-hooks: the output of tool `list_directory` (%d characters) was withheld by %s]"
                                  (length listing) label))
                 ("c2" . ,(format "[gptel-rust-hooks: the output of tool `search_files` (%d characters) was withheld by %s]"
                                  (length hits) label))
                 ("c3" . "(message \"a\")"))))
      (should-not (string-search "file-0001.txt" (format "%S" (plist-get r :requests)))))))

;;;; 6. Add context based on tool

(ert-deftest copilot::6-context-for-database ()
  "query_database results carry the PostgreSQL advice; other tools' do not."
  (copilot-tests--with-example "copilot-6-database-context.json"
    (let ((r (gptel-rust-hooks-test-with-conversation
               :script '((:tool-calls
                          ((:name "query_database"
                                  :args (:sql "SELECT name FROM users WHERE id = $1")
                                  :id "c1")
                           (:name "read_file" :args (:path "schema.sql") :id "c2")))
                         (:content "Here are the users."))
               :tools '(("query_database" ("sql") :result "name\n----\nada")
                        ("read_file" ("path") :result "create table users ();")))))
      (copilot-tests--done-p r)
      (should (equal (plist-get r :ran)
                     '(("query_database" :sql "SELECT name FROM users WHERE id = $1")
                       ("read_file" :path "schema.sql"))))
      (should (equal (copilot-tests--sent r)
                     '(("c1" . "name\n----\nada\n\nThis database uses PostgreSQL syntax. Always use parameterized queries.")
                       ("c2" . "create table users ();")))))))

;;;; The shipped files themselves

(ert-deftest copilot::examples-compile-with-their-self-tests ()
  "Every shipped Copilot example compiles, so its rules' :examples all hold."
  (gptel-rust-hooks--load-module)
  (let ((files (directory-files copilot-tests--examples t "\\`copilot-[1-6]-.*\\.json\\'")))
    (should (= (length files) 6))
    (dolist (file files)
      (let ((text (with-temp-buffer (insert-file-contents file) (buffer-string))))
        (should (string-match-p "\"examples\"" text))
        (should (> (gptel-rust-hooks--mod-rule-count
                    (gptel-rust-hooks--mod-compile-layers
                     (list (list :source file :trusted t :json text))
                     (gptel-rust-hooks--options)))
                   0))))))

(ert-deftest copilot::example-self-tests-catch-a-wrong-rule ()
  "A rule that disagrees with its examples does not compile: the self-tests bite."
  (gptel-rust-hooks--load-module)
  (let* ((file (expand-file-name "copilot-4-restrict-directories.json" copilot-tests--examples))
         (text (with-temp-buffer (insert-file-contents file) (buffer-string)))
         ;; The naive check of the original: a prefix of the path string.
         (naive (replace-regexp-in-string "\"path-outside\": \\[[^]]*\\]"
                                          "\"args\": {\"path\": {\"regexp\": \"^/etc\"}}"
                                          text t t))
         (err (should-error (gptel-rust-hooks--mod-compile-layers
                             (list (list :source file :trusted t :json naive))
                             (gptel-rust-hooks--options))
                            :type 'gptel-rust-hooks-rule-error)))
    (should-not (equal naive text))
    (should (string-search "files-only-in-allowed-directories" (cadr err)))
    (should (string-search ":examples" (cadr err)))))

(provide 'copilot-tests)
;;; copilot-tests.el ends here
