;;; trust-tests.el --- Policy files, project policies and trust -*- lexical-binding: t; -*-

;;; Commentary:

;; JSON policy files (`gptel-rust-hooks-policy-files'): errors that name
;; the file, the rule and the line; recompilation when a file changes; the
;; last good rules kept, and said once, when a file stops compiling.
;; Project files (.gptel-hooks.json found above the request's directory):
;; untrusted ones only tighten; trust by directory or by SHA-256
;; (`gptel-rust-hooks-trust-project'), revoked when the file changes.
;; Rules that test themselves: a failing `:examples' refuses the policy,
;; and every shipped example policy carries examples that pass.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)

(defmacro trust-tests--with-dir (var &rest body)
  "Run BODY with VAR a fresh temporary directory (its true name), then delete it."
  (declare (indent 1) (debug t))
  `(let ((,var (file-name-as-directory
                (file-truename (make-temp-file "gptel-rust-hooks-trust-" t)))))
     (unwind-protect (progn ,@body)
       (delete-directory ,var t))))

(defun trust-tests--write (file text &optional seconds)
  "Write TEXT to FILE; with SECONDS, set its modification time that far ahead."
  (make-directory (file-name-directory file) t)
  (let ((coding-system-for-write 'utf-8-unix))
    (write-region text nil file nil 'silent))
  (when seconds
    (set-file-times file (time-add (current-time) seconds))))

(defun trust-tests--decide (call directory)
  "Return the pre-tool hook's answer for CALL from DIRECTORY."
  (let ((default-directory (file-name-as-directory directory)))
    (gptel-rust-hooks-pre-tool-call call)))

(defun trust-tests--sha256sum (file)
  "Return the SHA-256 of FILE's bytes as the sha256sum program prints it."
  (car (split-string (shell-command-to-string
                      (concat "sha256sum " (shell-quote-argument file))))))

(defconst trust-tests--project-policy
  "[
  {\"id\": \"open-all\", \"tool\": \"*\", \"decision\": \"allow\"},
  {\"id\": \"quiet\", \"tool\": \"shell\", \"set-args\": {\"command\": \"true\"}},
  {\"id\": \"canned\", \"tool\": \"weather\", \"result\": \"Sunny.\"},
  {\"id\": \"no-secrets\", \"tool\": \"read_file\", \"path\": \"secret/**\",
   \"decision\": \"deny\", \"reason\": \"Not the secrets.\"}
]
"
  "A project policy that tries to loosen (allow everything, edit, canned
result) and to tighten (deny its secrets).")

(defconst trust-tests--user-rules
  '((:id "ask-shell" :tool "shell" :decision ask))
  "The user's own rules in the project tests.")

(defmacro trust-tests--with-project (root &rest body)
  "Run BODY with ROOT a project holding `trust-tests--project-policy'.
The user's rules are `trust-tests--user-rules', calls no rule decides
are denied, and the package state is fresh."
  (declare (indent 1) (debug t))
  `(gptel-rust-hooks-test-with-state
     (trust-tests--with-dir ,root
                            (trust-tests--write (expand-file-name ".gptel-hooks.json" ,root)
                                                trust-tests--project-policy)
                            (make-directory (expand-file-name "src/deep" ,root) t)
                            (let ((gptel-rust-hooks-default-decision 'deny))
                              (customize-set-variable 'gptel-rust-hooks-rules trust-tests--user-rules)
                              ,@body))))

(defconst trust-tests--denied-by-default
  "gptel-rust-hooks: no rule decides tool `%s`; the default decision is deny"
  "The reason of a call no rule decides, with the default decision deny.")

;;;; Untrusted projects only tighten

(ert-deftest trust::untrusted-project-allow-star-does-not-loosen ()
  "An untrusted project's allow, edits and results are ignored; its deny applies."
  (trust-tests--with-project root
                             (let ((dir (expand-file-name "src/deep" root)))
                               ;; `allow *' does not undo the user's ask, nor the default deny.
                               (should (equal (trust-tests--decide '(:name "shell" :args (:command "ls")) dir)
                                              '(:confirm t)))
                               (should (equal (trust-tests--decide '(:name "anything" :args nil) dir)
                                              (list :block (format trust-tests--denied-by-default "anything"))))
                               ;; Its canned result is ignored too.
                               (should (equal (trust-tests--decide '(:name "weather" :args nil) dir)
                                              (list :block (format trust-tests--denied-by-default "weather"))))
                               ;; Its deny rule applies.
                               (should (equal (trust-tests--decide '(:name "read_file" :args (:path "secret/k")) root)
                                              '(:block "Not the secrets.")))
                               ;; It says what it ignored, once.
                               (let ((reports (cl-remove-if-not (lambda (m) (string-match-p "untrusted project" m))
                                                                gptel-rust-hooks--reported)))
                                 (should (= 1 (length reports)))
                                 (dolist (note '("open-all: ignored allow" "quiet: ignored argument edits"
                                                 "canned: ignored :result"))
                                   (should (string-match-p (regexp-quote note) (car reports)))))
                               ;; Explain shows the project's rules as untrusted, and the notes.
                               (let ((data (gptel-rust-hooks-explain
                                            (list :name "anything" :args nil :cwd dir))))
                                 (should (equal (plist-get data :decision) "deny"))
                                 (should (plist-get data :by-default))
                                 (should (= 3 (length (plist-get data :notes))))
                                 (should (equal (mapcar (lambda (r) (list (plist-get r :id) (plist-get r :trusted)))
                                                        (plist-get data :rules))
                                                '(("ask-shell" t) ("no-secrets in .gptel-hooks.json" nil))))))))

(ert-deftest trust::trusted-directory-lets-the-project-loosen ()
  "A project under `gptel-rust-hooks-trusted-directories' may allow, edit and answer."
  (trust-tests--with-project root
                             (let ((gptel-rust-hooks-trusted-directories (list (file-name-directory
                                                                                (directory-file-name root))))
                                   (dir (expand-file-name "src" root)))
                               (should (equal (trust-tests--decide '(:name "anything" :args nil) dir) '(:confirm nil)))
                               ;; The user's ask still wins over the project's allow.
                               (should (equal (trust-tests--decide '(:name "shell" :args (:command "ls")) dir)
                                              '(:confirm t :args (:command "true"))))
                               (should (equal (trust-tests--decide '(:name "weather" :args nil) dir)
                                              '(:confirm nil :result "Sunny.")))
                               (should-not (cl-find-if (lambda (m) (string-match-p "untrusted project" m))
                                                       gptel-rust-hooks--reported)))))

(ert-deftest trust::project-file-found-walking-up-and-only-there ()
  "The project file applies below its directory, not beside it; and can be turned off."
  (trust-tests--with-project root
                             (trust-tests--with-dir other
                                                    ;; Its rule's relative pattern reads, like every path pattern, from
                                                    ;; the request's directory.
                                                    (should (equal (trust-tests--decide '(:name "read_file" :args (:path "secret/k"))
                                                                                        (expand-file-name "src/deep" root))
                                                                   '(:block "Not the secrets.")))
                                                    (should (equal (trust-tests--decide '(:name "read_file" :args (:path "secret/k")) other)
                                                                   (list :block (format trust-tests--denied-by-default "read_file"))))
                                                    (let ((gptel-rust-hooks-project-policies nil))
                                                      (should (equal (trust-tests--decide '(:name "read_file" :args (:path "secret/k")) root)
                                                                     (list :block (format trust-tests--denied-by-default "read_file")))))
                                                    ;; Remote directories are not searched (no connection is made).
                                                    (should-not (gptel-rust-hooks--project-file "/ssh:nowhere.invalid:/srv/")))))

(ert-deftest trust::untrusted-project-through-gptel ()
  "Through gptel: an untrusted `allow *' leaves gptel's own confirmation in place."
  (trust-tests--with-project root
                             (setq gptel-rust-hooks-default-decision nil)
                             (gptel-rust-hooks-test-with-mode nil
                               (let ((untrusted (gptel-rust-hooks-test-with-fsm
                                                  :directory root
                                                  :confirm-tool-calls t
                                                  :calls '((:name "list_files" :args (:dir "."))))))
                                 (should-not (plist-get untrusted :ran))
                                 (should (equal (plist-get untrusted :pending) '(("list_files" :dir ".")))))
                               (let* ((gptel-rust-hooks-trusted-directories (list root))
                                      (trusted (gptel-rust-hooks-test-with-fsm
                                                 :directory root
                                                 :confirm-tool-calls t
                                                 :calls '((:name "list_files" :args (:dir "."))))))
                                 (should (equal (plist-get trusted :ran) '(("list_files" :dir "."))))
                                 (should-not (plist-get trusted :pending))))))

(ert-deftest trust::project-file-created-later-applies-within-a-second ()
  "The project lookup of a directory is reused for a second, then made again."
  (gptel-rust-hooks-test-with-state
    (trust-tests--with-dir root
      (customize-set-variable 'gptel-rust-hooks-rules nil)
      (let ((call '(:name "x" :args nil)))
        (should (null (trust-tests--decide call root)))
        (trust-tests--write (expand-file-name ".gptel-hooks.json" root)
                            "[{\"tool\": \"x\", \"decision\": \"deny\", \"reason\": \"No x.\"}]")
        (should (null (trust-tests--decide call root)))
        (setcar (cdr gptel-rust-hooks--project-lookup)
                (- (nth 1 gptel-rust-hooks--project-lookup)
                   gptel-rust-hooks--project-lookup-seconds))
        (should (equal (trust-tests--decide call root) '(:block "No x.")))))))

;;;; Trust by SHA-256

(ert-deftest trust::trust-project-records-sha256-and-a-change-revokes-it ()
  "`gptel-rust-hooks-trust-project' saves the file's SHA-256; a change untrusts it."
  (trust-tests--with-project root
                             (let* ((file (expand-file-name ".gptel-hooks.json" root))
                                    (saved (make-temp-file "gptel-rust-hooks-custom-" nil ".el"))
                                    (custom-file saved)
                                    (user-init-file saved)
                                    (dir (expand-file-name "src" root)))
                               (unwind-protect
                                   (progn
                                     (should (equal (trust-tests--decide '(:name "anything" :args nil) dir)
                                                    (list :block (format trust-tests--denied-by-default "anything"))))
                                     ;; Interactively: the file is shown, then the user says yes.
                                     (let ((default-directory dir)
                                           (asked nil))
                                       (cl-letf (((symbol-function 'yes-or-no-p)
                                                  (lambda (prompt) (setq asked prompt) t)))
                                         (should (equal (call-interactively #'gptel-rust-hooks-trust-project)
                                                        (trust-tests--sha256sum file))))
                                       (should (string-match-p "allow and edit calls\\? \\'" asked))
                                       (kill-buffer (get-file-buffer file)))
                                     (should (equal gptel-rust-hooks-trusted-project-files
                                                    (list (cons file (trust-tests--sha256sum file)))))
                                     ;; Saved to the custom file.
                                     (should (string-match-p (regexp-quote (trust-tests--sha256sum file))
                                                             (with-temp-buffer (insert-file-contents saved)
                                                                               (buffer-string))))
                                     (should (equal (trust-tests--decide '(:name "anything" :args nil) dir)
                                                    '(:confirm nil)))
                                     ;; A change, even one that keeps the file's rules, untrusts it.
                                     (trust-tests--write file (concat trust-tests--project-policy " ") 2)
                                     (should (equal (trust-tests--decide '(:name "anything" :args nil) dir)
                                                    (list :block (format trust-tests--denied-by-default "anything"))))
                                     (should-not (gptel-rust-hooks-project-trusted-p file))
                                     ;; Trusted again as it is now, then forgotten.
                                     (gptel-rust-hooks-trust-project file)
                                     (should (equal (trust-tests--decide '(:name "anything" :args nil) dir)
                                                    '(:confirm nil)))
                                     (gptel-rust-hooks-untrust-project file)
                                     (should (null gptel-rust-hooks-trusted-project-files))
                                     (should (equal (trust-tests--decide '(:name "anything" :args nil) dir)
                                                    (list :block (format trust-tests--denied-by-default "anything")))))
                                 (delete-file saved)))))

(ert-deftest trust::trust-project-refused-when-not-confirmed ()
  "Saying no records nothing."
  (trust-tests--with-project root
                             (let ((default-directory root))
                               (cl-letf (((symbol-function 'yes-or-no-p) (lambda (_) nil)))
                                 (should-error (call-interactively #'gptel-rust-hooks-trust-project)
                                               :type 'user-error))
                               (kill-buffer (get-file-buffer (expand-file-name ".gptel-hooks.json" root)))
                               (should (null gptel-rust-hooks-trusted-project-files)))))

(ert-deftest trust::trusted-file-that-breaks-keeps-the-trusted-text ()
  "A trusted project file changed into one that does not compile: the trusted text stays."
  (trust-tests--with-project root
                             (let ((file (expand-file-name ".gptel-hooks.json" root)))
                               (gptel-rust-hooks-trust-project file)
                               (should (equal (trust-tests--decide '(:name "anything" :args nil) root) '(:confirm nil)))
                               (trust-tests--write file "[{\"tool\": \"*\", \"decision\": \"allow\"" 2)
                               (should (equal (trust-tests--decide '(:name "anything" :args nil) root) '(:confirm nil)))
                               (should (cl-find-if (lambda (m) (string-match-p "invalid JSON" m))
                                                   gptel-rust-hooks--reported)))))

;;;; User policy files

(ert-deftest trust::policy-file-errors-name-file-rule-and-line ()
  "A policy file that never compiled blocks every call, naming file, rule and line."
  (gptel-rust-hooks-test-with-state
    (trust-tests--with-dir dir
                           (let ((file (expand-file-name "policy.json" dir)))
                             (setq gptel-rust-hooks-policy-files (list file))
                             (customize-set-variable 'gptel-rust-hooks-rules nil)
                             (dolist (case
                                      `(("[\n  {\"tool\": \"a\", \"decision\": \"deny\"},\n  {\"id\": \"x\",\n   \"tool\": \"b\", \"decision\": \"dney\"}\n]"
                                         . ,(format "gptel-rust-hooks: %s: rule 2 (`x`): :decision: unknown decision \
`dney` (known: allow, ask, deny, stop) (line 3)" file))
                                        ("[{\"tool\": \"a\"},\n {\"id\": \"g\", \"tool\": \"[\"}]"
                                         . ,(format "gptel-rust-hooks: %s: rule 2 (`g`): :tool: invalid glob `[`: \
unclosed character class; missing ']' (line 2)" file))
                                        ("[\n {\"tool\": \"a\",}\n]"
                                         . ,(format "gptel-rust-hooks: %s: line 2, column 15: invalid JSON: \
trailing comma" file))
                                        ("[{\"id\": \"ex\", \"tool\": \"shell\", \"decision\": \"deny\",\n  \"command-prefix\": \"rm\",\n  \"examples\": {\"match\": [{\"name\": \"shell\", \"args\": {\"command\": \"ls\"}}]}}]"
                                         . ,(format "gptel-rust-hooks: %s: rule 1 (`ex`): :examples: example :match \
`(:name \"shell\" :args (:command \"ls\"))` does not match the rule (no match on command-prefix) \
(line 1)" file))))
                               (trust-tests--write file (car case) 2)
                               ;; The user is shown the error; the model is
                               ;; told only that the policy is misconfigured
                               ;; (issue 24: never the user's file paths).
                               (let ((gptel-rust-hooks--reported nil))
                                 (should (equal (trust-tests--decide '(:name "a" :args nil) dir)
                                                (list :block gptel-rust-hooks--misconfigured)))
                                 (should (member (cdr case) gptel-rust-hooks--reported)))
                               (clrhash gptel-rust-hooks--files))))))

(ert-deftest trust::policy-file-recompiled-when-it-changes ()
  "A changed file (size, or only its modification time) is read again on the next call."
  (gptel-rust-hooks-test-with-state
    (trust-tests--with-dir dir
                           (let ((file (expand-file-name "policy.json" dir)))
                             (setq gptel-rust-hooks-policy-files (list file))
                             (customize-set-variable 'gptel-rust-hooks-rules nil)
                             (trust-tests--write file "[{\"tool\": \"a\", \"decision\": \"deny\", \"reason\": \"A\"}]")
                             (should (equal (trust-tests--decide '(:name "a" :args nil) dir) '(:block "A")))
                             ;; Another size.
                             (trust-tests--write file "[{\"tool\": \"bb\", \"decision\": \"deny\", \"reason\": \"B\"}]" 2)
                             (should (null (trust-tests--decide '(:name "a" :args nil) dir)))
                             (should (equal (trust-tests--decide '(:name "bb" :args nil) dir) '(:block "B")))
                             ;; Same size, later modification time.
                             (trust-tests--write file "[{\"tool\": \"cc\", \"decision\": \"deny\", \"reason\": \"C\"}]" 4)
                             (should (null (trust-tests--decide '(:name "bb" :args nil) dir)))
                             (should (equal (trust-tests--decide '(:name "cc" :args nil) dir) '(:block "C")))
                             ;; Unchanged: the compiled policy is reused.
                             (let ((policy gptel-rust-hooks--policy))
                               (trust-tests--decide '(:name "cc" :args nil) dir)
                               (should (eq policy gptel-rust-hooks--policy)))))))

(ert-deftest trust::broken-policy-file-keeps-last-good-rules-and-says-so-once ()
  "A file that stops compiling keeps its last good rules, reported once per breakage."
  (gptel-rust-hooks-test-with-state
    (trust-tests--with-dir dir
                           (let* ((file (expand-file-name "policy.json" dir))
                                  (report (format "gptel-rust-hooks: %s: line 1, column 1: invalid JSON: \
EOF while parsing a list; its last rules that compiled stay in force" file))
                                  (messages nil))
                             (setq gptel-rust-hooks-policy-files (list file))
                             (customize-set-variable 'gptel-rust-hooks-rules nil)
                             (trust-tests--write file "[{\"tool\": \"a\", \"decision\": \"deny\", \"reason\": \"A\"}]")
                             (should (equal (trust-tests--decide '(:name "a" :args nil) dir) '(:block "A")))
                             (cl-letf (((symbol-function 'message)
                                        (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
                               (trust-tests--write file "[" 2)
                               (dotimes (_ 3)
                                 (should (equal (trust-tests--decide '(:name "a" :args nil) dir) '(:block "A"))))
                               ;; Each denial is shown too (issue 24), apart from the report.
                               (should (equal (length messages) 4))
                               (setq messages (cl-remove-if (lambda (m) (string-search "denied tool" m))
                                                            messages))
                               (should (equal messages (list report)))
                               ;; Fixed: the new rules apply.
                               (trust-tests--write file "[{\"tool\": \"b\", \"decision\": \"deny\", \"reason\": \"B\"}]" 4)
                               (should (null (trust-tests--decide '(:name "a" :args nil) dir)))
                               (should (equal (trust-tests--decide '(:name "b" :args nil) dir) '(:block "B")))
                               ;; Broken again the same way: said again.
                               (trust-tests--write file "[" 6)
                               (should (equal (trust-tests--decide '(:name "b" :args nil) dir) '(:block "B")))
                               (setq messages (cl-remove-if (lambda (m) (string-search "denied tool" m))
                                                            messages))
                               (should (equal messages (list report report))))))))

(ert-deftest trust::missing-policy-file-blocks ()
  "A user policy file that cannot be read blocks calls: it fails closed."
  (gptel-rust-hooks-test-with-state
    (trust-tests--with-dir dir
                           (let ((file (expand-file-name "nope.json" dir)))
                             (setq gptel-rust-hooks-policy-files (list file))
                             (customize-set-variable 'gptel-rust-hooks-rules nil)
                             (let ((gptel-rust-hooks--reported nil))
                               (should (equal (trust-tests--decide '(:name "a" :args nil) dir)
                                              (list :block gptel-rust-hooks--misconfigured)))
                               (should (member (format "gptel-rust-hooks: policy file %s is missing" file)
                                               gptel-rust-hooks--reported)))))))

;;;; Rules that test themselves

(ert-deftest examples::failing-example-refuses-the-rules ()
  "A rule whose example disagrees does not compile; the error names rule and example."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules '((:tool "x" :decision deny :reason "old")))
    (let ((err (should-error
                (customize-set-variable
                 'gptel-rust-hooks-rules
                 '((:id "no-rm" :tool "shell" :command-prefix "rm" :decision deny
                        :examples (:match ((:name "shell" :args (:command "rm -rf /"))
                                           (:name "shell" :args (:command "ls")))))))
                :type 'gptel-rust-hooks-rule-error)))
      (should (equal (cadr err)
                     "rule 1 (`no-rm`): :examples: example :match \
`(:name \"shell\" :args (:command \"ls\"))` does not match the rule (no match on command-prefix)")))
    (let ((err (should-error
                (gptel-rust-hooks-evaluate
                 '(:name "x")
                 '((:tool "a") (:id "deny-git" :tool "shell" :command-prefix "git" :decision deny
                                    :examples (:no-match ((:name "shell" :args (:command "ls && git push")))))))
                :type 'gptel-rust-hooks-rule-error)))
      (should (equal (cadr err)
                     "rule 2 (`deny-git`): :examples: example :no-match \
`(:name \"shell\" :args (:command \"ls && git push\"))` matches the rule but should not")))
    ;; The rules in force stay.
    (should (equal (gptel-rust-hooks-pre-tool-call '(:name "x" :args nil)) '(:block "old")))))

(ert-deftest examples::shipped-policies-test-themselves ()
  "Every rule of every shipped JSON policy has examples, and they pass."
  (let ((files (directory-files (expand-file-name "../examples" gptel-rust-hooks-test-directory)
                                t "\\.json\\'"))
        (checked nil))
    (dolist (file files)
      (let* ((text (with-temp-buffer (insert-file-contents file) (buffer-string)))
             (rules (json-parse-string text :object-type 'alist :array-type 'list)))
        ;; A list of rules: calls (the demo's) have a name, rules never.
        (when (and (consp rules) (cl-every #'consp rules)
                   (not (cl-some (lambda (r) (assq 'name r)) rules)))
          (dolist (rule rules)
            (should (equal (list file (alist-get 'id rule) (and (assq 'examples rule) t))
                           (list file (alist-get 'id rule) t))))
          (gptel-rust-hooks-test-with-state
            (should (gptel-rust-hooks--mod-compile-layers
                     (list (list :source file :trusted t :json text))
                     (gptel-rust-hooks--options))))
          (push (file-name-nondirectory file) checked))))
    (should (member "demo-policy.json" checked))
    (should (member "sandboxed-dev.json" checked))
    (should (>= (length checked) (1- (length files))))))

(provide 'trust-tests)
;;; trust-tests.el ends here
