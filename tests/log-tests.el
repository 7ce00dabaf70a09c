;;; log-tests.el --- The audit log of gptel-rust-hooks  -*- lexical-binding: t; -*-

;;; Commentary:

;; The in-memory ring (`gptel-rust-hooks-log-size'), the entries recorded
;; for decisions made through gptel's own handlers, the JSON-lines file
;; (`gptel-rust-hooks-log-file': mode 0600, append only, failures reported
;; once and never deciding anything), notes of untrusted project layers,
;; and the `gptel-rust-hooks-log' buffer (newest first, sortable, RET).

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-log)

(defmacro log-tests--with-log (size file &rest body)
  "Run BODY with an empty log of SIZE entries, writing to FILE (or not)."
  (declare (indent 2) (debug t))
  `(let ((gptel-rust-hooks-log-size ,size)
         (gptel-rust-hooks-log-file ,file)
         (gptel-rust-hooks-log--ring nil)
         (gptel-rust-hooks-log--next 0)
         (gptel-rust-hooks-log--count 0)
         (gptel-rust-hooks-log--failed-file nil)
         (gptel-rust-hooks-project-policies nil)
         (gptel-rust-hooks-policy-files nil)
         (gptel-rust-hooks--session-rules nil))
     ,@body))

(defconst log-tests--rules
  '((:id "no-rm" :tool "shell" :command-prefix "rm" :decision deny :reason "No rm.")
    (:id "ok-ls" :tool "shell" :args (:command "ls") :decision allow)
    (:id "pg" :tool "query" :context "Use PostgreSQL."))
  "Rules for the log tests.")

(defun log-tests--pre (command &optional n)
  "Decide a shell call of COMMAND (numbered N) with the pre-tool hook."
  (gptel-rust-hooks-pre-tool-call
   (list :name "shell" :args (list :command command :n (or n 0))
         :buffer "*log-test*" :model 'fake-model)))

(defun log-tests--seqs ()
  "Return the :n argument of each logged call, newest first."
  (mapcar (lambda (e) (plist-get (plist-get e :args) :n)) (gptel-rust-hooks-log-entries)))

(defun log-tests--file-lines (file)
  "Return the lines of FILE."
  (with-temp-buffer
    (insert-file-contents file)
    (split-string (buffer-string) "\n" t)))

;;;; The ring

(ert-deftest log::ring-keeps-newest ()
  "The ring keeps the latest `gptel-rust-hooks-log-size' entries, newest first."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 3 nil
      (dotimes (i 5) (log-tests--pre "ls" (1+ i)))
      (should (equal (log-tests--seqs) '(5 4 3)))
      ;; Shrinking keeps the newest; growing keeps all.
      (setq gptel-rust-hooks-log-size 2)
      (log-tests--pre "ls" 6)
      (should (equal (log-tests--seqs) '(6 5)))
      (setq gptel-rust-hooks-log-size 4)
      (log-tests--pre "ls" 7)
      (log-tests--pre "ls" 8)
      (log-tests--pre "ls" 9)
      (should (equal (log-tests--seqs) '(9 8 7 6)))
      (gptel-rust-hooks-log-clear)
      (should-not (gptel-rust-hooks-log-entries)))))

(ert-deftest log::size-zero-keeps-nothing ()
  "With a size of 0 nothing is kept, and decisions are unchanged."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 0 nil
      (should (equal (log-tests--pre "rm -rf /") '(:block "No rm.")))
      (should (equal (log-tests--pre "ls") '(:confirm nil)))
      (should-not (gptel-rust-hooks-log-entries)))))

;;;; Entries through gptel

(ert-deftest log::pre-and-post-entries-through-gptel ()
  "Both decisions of each call make one entry, with the request's context.
A denied call never ran: its entry has no post decision (issue 24)."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 100 nil
      (let* ((dir (file-name-as-directory temporary-file-directory))
             (r (gptel-rust-hooks-test-with-fsm
                  :buffer-name "*log chat*"
                  :directory dir
                  :calls '((:name "shell" :args (:command "rm -rf /tmp/x") :id "c1")
                           (:name "query" :args (:sql "select 1") :id "c2"))
                  :tools '(("shell" ("command")) ("query" ("sql") :result "1 row")))))
        (should (equal (plist-get r :ran) '(("query" :sql "select 1"))))
        (let ((entries (reverse (gptel-rust-hooks-log-entries))))
          (should (equal (mapcar (lambda (e)
                                   (list (plist-get e :kind) (plist-get e :tool)
                                         (plist-get e :outcome) (plist-get e :rules)
                                         (plist-get e :deciding) (plist-get e :reason)
                                         (plist-get e :post-outcome) (plist-get e :post-rules)))
                                 entries)
                         '((pre "shell" "deny" ("no-rm") "no-rm" "No rm." nil nil)
                           (pre "query" "none" ("pg") nil nil "changed" ("pg")))))
          (dolist (e entries)
            (should (string-prefix-p "*log chat*" (plist-get e :buffer)))
            (should (equal (plist-get e :backend) "gptel-rust-hooks-test"))
            (should (equal (plist-get e :model) "fake-model"))
            (should (equal (plist-get e :cwd) dir))
            (should (floatp (plist-get e :time)))
            (should (and (numberp (plist-get e :micros)) (> (plist-get e :micros) 0))))
          (should (equal (plist-get (car entries) :args) '(:command "rm -rf /tmp/x")))
          (should-not (plist-get (car entries) :result-length))
          (should (= (plist-get (nth 1 entries) :result-length) (length "1 row"))))))))

(ert-deftest log::post-joins-its-pre-entry ()
  "A post decision joins the pre entry of its call, by its argument list."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 10 nil
      (let ((a (list :sql "select 1")) (b (list :sql "select 1")))
        (gptel-rust-hooks-pre-tool-call (list :name "query" :args a))
        (gptel-rust-hooks-pre-tool-call (list :name "query" :args b))
        ;; B's post, then A's: each joins its own call, not the newest.
        (gptel-rust-hooks-post-tool-call (list :name "query" :args b :result "bb"))
        (gptel-rust-hooks-post-tool-call (list :name "query" :args a :result "a"))
        (let ((entries (gptel-rust-hooks-log-entries)))
          (should (= (length entries) 2))
          (should (equal (mapcar (lambda (e) (plist-get e :result-length)) entries) '(2 1)))
          (should (equal (mapcar (lambda (e) (plist-get e :post-outcome)) entries)
                         '("changed" "changed")))
          (should (eq (plist-get (car entries) :args) b)))
        ;; A second post of the same call is a row of its own.
        (gptel-rust-hooks-post-tool-call (list :name "query" :args a :result "again"))
        (should (equal (mapcar (lambda (e) (plist-get e :kind)) (gptel-rust-hooks-log-entries))
                       '(post pre pre)))))))

(ert-deftest log::entry-keeps-no-result-and-reads-the-record-later ()
  "An entry holds the result's length, not the result; its rules are read when shown."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 10 nil
      (let ((result (make-string 100000 ?r)))
        (gptel-rust-hooks-post-tool-call
         (list :name "query" :args '(:sql "SELECT 1") :result result :buffer "*b*"))
        (let ((raw (car (gptel-rust-hooks-log--vectors))))
          (should (vectorp raw))
          (should-not (cl-find result raw :test #'eq))
          (should-not (cl-find-if (lambda (v) (and (stringp v) (> (length v) 1000))) raw)))
        (let ((entry (car (gptel-rust-hooks-log-entries))))
          (should (= (plist-get entry :result-length) 100000))
          (should (equal (plist-get entry :rules) '("pg")))
          (should (equal (plist-get entry :outcome) "changed"))))
      ;; A call the module never decided (no name) is not credited with
      ;; the rules of the call before it.
      (log-tests--pre "rm -rf /tmp/x")
      (gptel-rust-hooks-pre-tool-call '(:args (:command "ls")))
      (let ((entries (gptel-rust-hooks-log-entries)))
        (should (equal (plist-get (car entries) :outcome) "error"))
        (should-not (plist-get (car entries) :rules))
        (should (equal (plist-get (cadr entries) :rules) '("no-rm")))
        ;; Read twice, the same.
        (should (equal (gptel-rust-hooks-log-entries) entries))))))

(ert-deftest log::reused-entries-keep-their-own-rules ()
  "Past the ring's size, each entry still shows its own call's rules and outcome."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 3 nil
      (dotimes (i 7)
        (log-tests--pre (if (cl-evenp i) "rm x" "ls") i))
      (let ((entries (gptel-rust-hooks-log-entries)))
        (should (equal (mapcar (lambda (e)
                                 (list (plist-get (plist-get e :args) :n)
                                       (plist-get e :outcome) (plist-get e :rules)))
                               entries)
                       '((6 "deny" ("no-rm")) (5 "allow" ("ok-ls")) (4 "deny" ("no-rm")))))
        ;; The plists handed out stay as they were while the ring moves on.
        (log-tests--pre "ls" 7)
        (should (equal (plist-get (plist-get (car entries) :args) :n) 6))
        (should (equal (plist-get (car (gptel-rust-hooks-log-entries)) :rules)
                       '("ok-ls")))))))

(ert-deftest log::shown-buffer-refreshes-after-new-decisions ()
  "A shown log buffer is refreshed after new decisions; a killed one is left alone."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 10 nil
      (let ((buffer (gptel-rust-hooks-log))
            (gptel-rust-hooks-log--refresh-timer nil))
        (unwind-protect
            (progn
              (should-not (with-current-buffer buffer
                            (string-match-p "no-rm" (buffer-string))))
              (log-tests--pre "rm x" 1)
              (should (timerp gptel-rust-hooks-log--refresh-timer))
              (cancel-timer gptel-rust-hooks-log--refresh-timer)
              (gptel-rust-hooks-log--refresh)
              (should (with-current-buffer buffer
                        (string-match-p "no-rm" (buffer-string)))))
          (when (timerp gptel-rust-hooks-log--refresh-timer)
            (cancel-timer gptel-rust-hooks-log--refresh-timer))
          (setq gptel-rust-hooks-log--refresh-timer nil)
          (kill-buffer buffer))
        (log-tests--pre "ls" 2)
        (should-not gptel-rust-hooks-log--refresh-timer)))))

(ert-deftest log::edits-and-redactions-recorded ()
  "Edited arguments, canned results and redaction counts show in the log."
  (gptel-rust-hooks-test-with-mode
      '((:id "t" :tool "shell" :default-args (:timeout 30000) :decision allow)
        (:id "canned" :tool "x" :result "canned")
        (:id "red" :tool "cat" :redact "pw=\\S+"))
    (log-tests--with-log 100 nil
      (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:command "ls")))
      (gptel-rust-hooks-pre-tool-call '(:name "x" :args (:q "1")))
      (gptel-rust-hooks-post-tool-call '(:name "cat" :args (:path "/f")
                                               :result "pw=a pw=b"))
      (should (equal (mapcar (lambda (e) (list (plist-get e :outcome) (plist-get e :reason)
                                               (plist-get e :rules)))
                             (reverse (gptel-rust-hooks-log-entries)))
                     '(("allow +args" "gptel-rust-hooks: tool `shell` allowed by t" ("t"))
                       ("none +result" nil ("canned"))
                       ("changed" "2 redactions" ("red"))))))))

(ert-deftest log::failure-not-credited-with-earlier-rules ()
  "A call that fails before the rules decide it is logged as an error, with no rules."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 100 nil
      (should (equal (log-tests--pre "rm -rf /" 1) '(:block "No rm.")))
      (cl-letf (((symbol-function 'gptel-rust-hooks--current-policy)
                 (lambda () (signal 'gptel-rust-hooks-module-error '("module gone")))))
        (let ((gptel-rust-hooks--reported nil))
          (should (equal (log-tests--pre "ls" 2) '(:block "gptel-rust-hooks: module gone")))))
      (let ((failed (car (gptel-rust-hooks-log-entries))))
        (should (equal (plist-get failed :outcome) "error"))
        (should (equal (plist-get failed :reason) "gptel-rust-hooks: module gone"))
        (should-not (plist-get failed :rules))
        (should-not (plist-get failed :micros)))
      ;; Not credited with a record left by `gptel-rust-hooks-evaluate' either.
      (should (equal (gptel-rust-hooks-evaluate '(:name "shell" :args (:command "ls")))
                     '(:confirm nil)))
      (cl-letf (((symbol-function 'gptel-rust-hooks--current-policy)
                 (lambda () (signal 'gptel-rust-hooks-module-error '("module gone")))))
        (let ((gptel-rust-hooks--reported nil))
          (log-tests--pre "ls" 3)))
      (should (equal (plist-get (car (gptel-rust-hooks-log-entries)) :outcome) "error"))
      (should-not (plist-get (car (gptel-rust-hooks-log-entries)) :rules))
      ;; A malformed call is refused by the engine: an error too.
      (let ((gptel-rust-hooks--reported nil))
        (should (plist-get (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:a))) :block)))
      (should (equal (plist-get (car (gptel-rust-hooks-log-entries)) :outcome) "error"))
      (should-not (plist-get (car (gptel-rust-hooks-log-entries)) :rules)))))

(ert-deftest log::hostile-calls-recorded-safely ()
  "Circular, odd and non-Unicode arguments are logged without signaling or hanging."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (let* ((file (make-temp-file "log-tests-" nil ".jsonl"))
           (circular (list :command "ls" :more 1))
           (raw (concat "bytes \377\376 end" (make-string 500 ?x))))
      (setcdr (last circular) circular)
      (unwind-protect
          (log-tests--with-log 100 file
            (let ((gptel-rust-hooks--reported nil))
              (dolist (args (list circular '(:command) (list :command raw)
                                  (list :command (vector 1 2) :n '(1 2 3))))
                (gptel-rust-hooks-pre-tool-call (list :name "shell" :args args))))
            (should (= (length (gptel-rust-hooks-log-entries)) 4))
            (dolist (e (gptel-rust-hooks-log-entries))
              (should (stringp (gptel-rust-hooks-log--short-args (plist-get e :args))))
              (should (<= (length (gptel-rust-hooks-log--short-args (plist-get e :args))) 240)))
            (let ((lines (log-tests--file-lines file)))
              (should (= (length lines) 4))
              (dolist (line lines)
                (should (gptel-rust-hooks-test--json-decode line)))
              (should (string-prefix-p
                       "bytes \ufffd\ufffd end"
                       (plist-get (plist-get (gptel-rust-hooks-test--json-decode (nth 2 lines))
                                             :args)
                                  :command)))))
        (delete-file file)))))

;;;; Notes of untrusted layers

(ert-deftest log::notes-of-untrusted-project-layer ()
  "What an untrusted project policy had ignored appears in the log and its file."
  (let* ((project (make-temp-file "log-tests-project-" t))
         (file (make-temp-file "log-tests-" nil ".jsonl")))
    (unwind-protect
        (progn
          (with-temp-file (expand-file-name ".gptel-hooks.json" project)
            (insert "[{\"id\": \"yes-all\", \"decision\": \"allow\"},\n"
                    " {\"id\": \"no-curl\", \"tool\": \"shell\", \"command-prefix\": \"curl\","
                    " \"decision\": \"deny\", \"reason\": \"No network.\"}]"))
          (gptel-rust-hooks-test-with-mode log-tests--rules
            (log-tests--with-log 100 file
              (let ((gptel-rust-hooks-project-policies t)
                    (gptel-rust-hooks-trusted-directories nil)
                    (gptel-rust-hooks-trusted-project-files nil)
                    (gptel-rust-hooks--cache nil)
                    (default-directory (file-name-as-directory project)))
                (should (equal (log-tests--pre "curl http://x") '(:block "No network.")))
                (let ((notes (plist-get (car (gptel-rust-hooks-log-entries)) :notes)))
                  (should notes)
                  (should (cl-some (lambda (n) (and (string-search "yes-all" n)
                                                    (string-search "allow" n)))
                                   notes))
                  (let ((line (gptel-rust-hooks-test--json-decode
                               (car (last (log-tests--file-lines file))))))
                    (should (equal (plist-get line :notes) notes)))
                  ;; The buffer's line says so too.
                  (with-current-buffer (gptel-rust-hooks-log)
                    (unwind-protect
                        (progn
                          (goto-char (point-min))
                          (should (search-forward (format "[%d notes]" (length notes))
                                                  nil t)))
                      (kill-buffer))))))))
      (delete-directory project t)
      (delete-file file))))

;;;; The file

(ert-deftest log::file-json-lines-0600-append-only ()
  "Each decision is one JSON line; the file is created 0600 and only appended to."
  (let* ((dir (make-temp-file "log-tests-dir-" t))
         (file (expand-file-name "audit.jsonl" dir))
         (old-umask (default-file-modes)))
    (unwind-protect
        (gptel-rust-hooks-test-with-mode log-tests--rules
          (log-tests--with-log 100 file
            (set-default-file-modes #o022)
            (log-tests--pre "rm -rf /" 1)
            (should (= (file-modes file) #o600))
            (let ((first (with-temp-buffer
                           (insert-file-contents-literally file)
                           (buffer-string))))
              (log-tests--pre "ls" 2)
              (gptel-rust-hooks-post-tool-call '(:name "query" :args (:sql "x") :result "r"))
              (let ((now (with-temp-buffer
                           (insert-file-contents-literally file)
                           (buffer-string))))
                (should (string-prefix-p first now))
                (should (= (file-modes file) #o600))
                (let ((lines (mapcar #'gptel-rust-hooks-test--json-decode
                                     (log-tests--file-lines file))))
                  (should (= (length lines) 3))
                  (should (equal (mapcar (lambda (l) (plist-get l :outcome)) lines)
                                 '("deny" "allow" "changed")))
                  (let ((l (car lines)))
                    (should (equal (plist-get l :kind) "pre"))
                    (should (equal (plist-get l :tool) "shell"))
                    (should (equal (plist-get l :args) '(:command "rm -rf /" :n 1)))
                    (should (equal (plist-get l :rules) '("no-rm")))
                    (should (equal (plist-get l :deciding) "no-rm"))
                    (should (equal (plist-get l :reason) "No rm."))
                    (should (equal (plist-get l :buffer) "*log-test*"))
                    (should (equal (plist-get l :model) "fake-model"))
                    (should (numberp (plist-get l :us)))
                    (should (string-match-p
                             "\\`[0-9]\\{4\\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]+[+-][0-9]\\{4\\}\\'"
                             (plist-get l :time))))
                  (should (equal (plist-get (nth 2 lines) :result_length) 1)))))))
      (set-default-file-modes old-umask)
      (delete-directory dir t))))

(ert-deftest log::file-keeps-earlier-lines ()
  "An existing log file keeps its earlier content; new lines go after it."
  (let ((file (make-temp-file "log-tests-" nil ".jsonl" "{\"earlier\":1}\n")))
    (unwind-protect
        (gptel-rust-hooks-test-with-mode log-tests--rules
          (log-tests--with-log 100 file
            (log-tests--pre "ls" 1)
            (let ((lines (log-tests--file-lines file)))
              (should (equal (car lines) "{\"earlier\":1}"))
              (should (= (length lines) 2)))))
      (delete-file file))))

(ert-deftest log::file-failure-reported-once-decides-nothing ()
  "A log file that cannot be written is reported once; decisions stay as the rules say."
  (let ((file "/nonexistent-gptel-rust-hooks-dir/audit.jsonl"))
    (gptel-rust-hooks-test-with-mode log-tests--rules
      (log-tests--with-log 100 file
        (when (get-buffer "*Warnings*") (kill-buffer "*Warnings*"))
        (should (equal (log-tests--pre "rm -rf /" 1) '(:block "No rm.")))
        (should (equal (log-tests--pre "ls" 2) '(:confirm nil)))
        (should (equal (log-tests--pre "rm x" 3) '(:block "No rm.")))
        (should-not (gptel-rust-hooks-post-tool-call '(:name "cat" :result "x")))
        (should (equal (log-tests--seqs) '(nil 3 2 1)))
        (with-current-buffer "*Warnings*"
          (should (= (how-many (regexp-quote "Cannot write the log file") (point-min) (point-max))
                     1))
          (goto-char (point-min))
          (should (search-forward file nil t)))))))

;;;; The buffer

(ert-deftest log::buffer-newest-first-sortable-ret-explains ()
  "The log buffer lists newest first, sorts by a column, and RET explains the call."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 100 nil
      (log-tests--pre "ls" 1)
      (log-tests--pre "rm -rf /" 2)
      (gptel-rust-hooks-post-tool-call '(:name "query" :args (:sql "select 1") :result "r"))
      (let ((buffer (gptel-rust-hooks-log)))
        (unwind-protect
            (with-current-buffer buffer
              (should (derived-mode-p 'gptel-rust-hooks-log-mode))
              (should (eq (key-binding (kbd "RET")) #'gptel-rust-hooks-log-explain-entry))
              (should (eq (key-binding (kbd "i")) #'gptel-rust-hooks-log-show-entry))
              (cl-flet ((tools ()
                               (save-excursion
                                 (goto-char (point-min))
                                 (let (out)
                                   (while (not (eobp))
                                     (push (plist-get (tabulated-list-get-id) :tool) out)
                                     (forward-line 1))
                                   (nreverse out)))))
                (should (equal (tools) '("query" "shell" "shell")))
                ;; Sort by microseconds, then by time (oldest first).
                (goto-char (point-min))
                (tabulated-list-sort 7)
                (let ((micros (save-excursion
                                (goto-char (point-min))
                                (cl-loop until (eobp)
                                         collect (plist-get (tabulated-list-get-id) :micros)
                                         do (forward-line 1)))))
                  (should (equal micros (sort (copy-sequence micros) #'<))))
                (tabulated-list-sort 0)
                (should (equal (tools) '("shell" "shell" "query"))))
              ;; The line of the denied call: the call at point, and RET.
              (goto-char (point-min))
              (while (not (equal (plist-get (plist-get (tabulated-list-get-id) :args) :n) 2))
                (forward-line 1))
              (should (equal (funcall gptel-rust-hooks-log--call-at-point-function)
                             (list :name "shell" :args '(:command "rm -rf /" :n 2)
                                   :buffer "*log-test*" :backend nil :model "fake-model"
                                   :cwd default-directory)))
              (let ((shown (call-interactively #'gptel-rust-hooks-log-show-entry)))
                (unwind-protect
                    (with-current-buffer shown
                      (let ((text (buffer-string)))
                        (should (string-search "pre call of tool shell" text))
                        (should (string-search "command: rm -rf /" text))
                        (should (string-search "outcome:       deny" text))
                        (should (string-search "reason:        No rm." text))
                        (should (string-search "Explanation, by the rules in force now:" text))
                        (should (string-search "[x] no-rm (deny) <- decides" text))
                        (should (string-search "[ ] ok-ls (allow)" text)))
                      (should (equal (plist-get (funcall gptel-rust-hooks-log--call-at-point-function)
                                                :args)
                                     '(:command "rm -rf /" :n 2))))
                  (kill-buffer shown)))
              ;; RET: the explain view of that call.
              (let ((explained (call-interactively #'gptel-rust-hooks-log-explain-entry)))
                (unwind-protect
                    (with-current-buffer explained
                      (should (derived-mode-p 'gptel-rust-hooks-explain-mode))
                      (should (string-search "rm -rf /" (buffer-string)))
                      (should (string-search "no-rm" (buffer-string))))
                  (kill-buffer explained))))
          (kill-buffer buffer))))))

(ert-deftest log::line-shows-rule-reason-and-arguments-in-a-split-window ()
  "A line has the deciding rule and the reason, and its arguments within 80 columns."
  (gptel-rust-hooks-test-with-mode log-tests--rules
    (log-tests--with-log 100 nil
      (log-tests--pre "rm -rf /" 1)
      (let ((buffer (gptel-rust-hooks-log)))
        (unwind-protect
            (with-current-buffer buffer
              (goto-char (point-min))
              (let* ((line (buffer-substring (line-beginning-position) (line-end-position)))
                     (args (string-search "command=\"rm -rf /\"" line)))
                (should args)
                (should (< (+ args (length "command=\"rm -rf /\"")) 80))
                (should (string-match-p " no-rm +command=" line))
                (should (string-search "No rm." line))))
          (kill-buffer buffer))))))

(ert-deftest log::explain-prompt-takes-json-as-typed ()
  "The explain prompt offers {} as the default, not as text before point."
  (let ((asked nil))
    (cl-letf (((symbol-function 'gptel-rust-hooks-log-call-at-point) #'ignore)
              ((symbol-function 'completing-read) (lambda (&rest _) "shell"))
              ((symbol-function 'read-string)
               (lambda (prompt &optional initial _history default &rest _)
                 (push (list prompt initial default) asked)
                 "{\"command\": \"ls\"}")))
      (let ((call (gptel-rust-hooks-ui--read-call)))
        (should (equal (plist-get call :name) "shell"))
        (should (equal (plist-get call :args) '(:command "ls")))))
    (should (= (length asked) 1))
    (should-not (nth 1 (car asked)))
    (should (equal (nth 2 (car asked)) "{}"))))

(ert-deftest log::record-function-installed ()
  "Loading the log makes it the package's record function."
  (should (eq gptel-rust-hooks--record-function #'gptel-rust-hooks-log--record)))

(provide 'log-tests)
;;; log-tests.el ends here
