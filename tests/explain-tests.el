;;; explain-tests.el --- Which rule decided, and why -*- lexical-binding: t; -*-

;;; Commentary:

;; `gptel-rust-hooks-explain' as a function (the data: every rule, each
;; matcher with what it was checked on and what it wants, edits, the
;; decisions before and after them, the final plist) and as a command
;; (the *gptel-rust-hooks-explain* buffer: the deciding rule highlighted,
;; each rule a button that visits its definition).

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-ui)

(defconst explain-tests--rules
  '((:id "no-rm" :tool "shell" :command-prefix "rm" :decision deny :reason "No deleting.")
    (:id "safe-git" :tool "shell" :command-prefix ("git status" "git log") :decision allow)
    (:id "etc" :tool "read_file" :path "/etc/**" :decision ask)
    (:id "timeout" :tool "shell" :default-args (:timeout 30))
    (:id "forced" :tool "shell" :args (:timeout (:min 1)) :decision ask))
  "Rules the explanations are about.")

(defun explain-tests--rule (data id)
  "Return the explained rule ID of DATA."
  (cl-find id (plist-get data :rules) :key (lambda (r) (plist-get r :id)) :test #'equal))

(defun explain-tests--matcher (rule name)
  "Return the check of matcher NAME in the explained RULE."
  (cl-find name (plist-get rule :matchers)
           :key (lambda (m) (plist-get m :matcher)) :test #'equal))

;;;; The data

(ert-deftest explain::every-rule-matched-or-not-with-its-matchers ()
  "Every rule is there, matched or not, each matcher with what it checked and wanted."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules explain-tests--rules)
    (let* ((data (gptel-rust-hooks-explain '(:name "shell" :args (:command "ls && rm -rf x"))))
           (no-rm (explain-tests--rule data "no-rm"))
           (git (explain-tests--rule data "safe-git")))
      (should (equal (mapcar (lambda (r) (list (plist-get r :id) (and (plist-get r :matched) t)
                                               (plist-get r :index) (plist-get r :source)))
                             (plist-get data :rules))
                     '(("no-rm" t 1 nil) ("safe-git" nil 2 nil) ("etc" nil 3 nil)
                       ("timeout" t 4 nil) ("forced" nil 5 nil))))
      (should (plist-get no-rm :deciding))
      (should (equal (plist-get data :deciding-rule) "no-rm"))
      (should (equal (plist-get data :decision) "deny"))
      (should (equal (plist-get data :reason) "No deleting."))
      (should (equal (plist-get data :answer) '(:block "No deleting.")))
      ;; The simple commands, and the prefix that matched.
      (let ((check (explain-tests--matcher no-rm "command-prefix")))
        (should (plist-get check :matched))
        (should (equal (plist-get check :want) '("rm")))
        (should (equal (mapcar (lambda (c) (list (plist-get c :command) (plist-get c :prefix)
                                                 (and (plist-get c :matched) t)))
                               (plist-get check :on))
                       '(("ls" nil nil) ("rm -rf x" "rm" t)))))
      ;; The allow rule fails on the command it does not cover.
      (let ((check (explain-tests--matcher git "command-prefix")))
        (should-not (plist-get check :matched))
        (should (equal (plist-get check :want) '("git status" "git log"))))
      ;; The tool matcher of a rule for another tool.
      (should (equal (explain-tests--matcher (explain-tests--rule data "etc") "tool")
                     '(:matcher "tool" :matched nil :on "shell" :want ("read_file")))))))

(ert-deftest explain::normalized-path ()
  "A path matcher shows the normalized path it was checked on."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules explain-tests--rules)
    (let* ((data (gptel-rust-hooks-explain
                  '(:name "read_file" :args (:path "../../etc/./passwd") :cwd "/usr/share/")))
           (check (explain-tests--matcher (explain-tests--rule data "etc") "path")))
      (should (equal (plist-get data :decision) "ask"))
      (should (equal (plist-get data :answer) '(:confirm t)))
      (should (plist-get check :matched))
      (should (equal (plist-get check :want) '("/etc/**")))
      (should (equal (mapcar (lambda (p) (list (plist-get p :raw) (plist-get p :path)
                                               (plist-get p :from) (plist-get p :key)))
                             (plist-get check :on))
                     '(("../../etc/./passwd" "/etc/passwd" "argument" "path")))))))

(ert-deftest explain::edits-and-decisions-before-and-after ()
  "Edits are listed, with the decision before and after them and the final plist."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules explain-tests--rules)
    (let ((data (gptel-rust-hooks-explain '(:name "shell" :args (:command "git status")))))
      (should (equal (plist-get data :decision-before-edits) "allow"))
      (should (equal (plist-get data :decision-after-edits) "ask"))
      (should (equal (plist-get data :decision) "ask"))
      (should (equal (plist-get data :deciding-rule) "forced"))
      (should (plist-get data :edits-applied))
      (should (equal (plist-get data :edits)
                     '((:rule "timeout" :source nil :line nil :set-args nil
                              :default-args (:timeout 30) :remove-args nil))))
      (should (equal (plist-get data :edited-args) '(:command "git status" :timeout 30)))
      (should (plist-get (explain-tests--rule data "forced") :matched-after-edits))
      (should-not (plist-get (explain-tests--rule data "forced") :matched))
      (should (equal (plist-get data :answer)
                     '(:confirm t :args (:command "git status" :timeout 30))))
      (should (equal (plist-get data :answer)
                     (gptel-rust-hooks-evaluate '(:name "shell" :args (:command "git status"))))))))

(ert-deftest explain::rules-from-files-and-added-layers ()
  "Rules from a policy file name it and their line; added rules name their layer."
  (gptel-rust-hooks-test-with-state
    (let* ((dir (make-temp-file "gptel-rust-hooks-explain-" t))
           (file (expand-file-name "p.json" dir)))
      (unwind-protect
          (progn
            (with-temp-file file
              (insert "[\n  {\"id\": \"first\", \"tool\": \"x\"},\n\n  {\"id\": \"f\", \"tool\": \"t\", \"decision\": \"deny\"}\n]\n"))
            (setq gptel-rust-hooks-policy-files (list file)
                  gptel-rust-hooks--session-rules '((:id "s" :tool "t" :decision allow)))
            (customize-set-variable 'gptel-rust-hooks-rules '((:id "u" :tool "t")))
            (let ((data (gptel-rust-hooks-explain '(:name "t" :args nil))))
              (should (equal (mapcar (lambda (r) (list (plist-get r :id) (plist-get r :source)
                                                       (plist-get r :index) (plist-get r :line)))
                                     (plist-get data :rules))
                             `(("u" nil 1 nil) ("s in session" "session" 1 nil)
                               ("first in p.json" ,file 1 2) ("f in p.json" ,file 2 4))))
              (should (equal (plist-get data :deciding-rule) "f in p.json"))))
        (delete-directory dir t)))))

(ert-deftest explain::explicit-rules-argument ()
  "With RULES, the explanation is of those rules, not the ones in force."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules '((:tool "x" :decision deny)))
    (let ((data (gptel-rust-hooks-explain '(:name "x" :args nil) '((:id "mine" :tool "x")))))
      (should (equal (mapcar (lambda (r) (plist-get r :id)) (plist-get data :rules)) '("mine")))
      (should (null (plist-get data :decision)))
      (should (null (plist-get data :answer))))))

;;;; The command

(defmacro explain-tests--with-buffer (&rest body)
  "Run BODY, then kill the explain buffer and any Customize or help buffer."
  (declare (indent 0) (debug t))
  `(unwind-protect (progn ,@body)
     (dolist (b (buffer-list))
       (when (string-match-p "\\`\\*\\(gptel-rust-hooks-\\(explain\\|rule\\)\\|Customize\\)"
                             (buffer-name b))
         (kill-buffer b)))))

(defun explain-tests--buttons ()
  "Return the rule plists of the buttons in the current buffer, in order."
  (let ((out nil))
    (save-excursion
      (goto-char (point-min))
      (while (forward-button 1 nil nil t)
        (push (button-get (button-at (point)) 'gptel-rust-hooks-rule) out)))
    (nreverse out)))

(defun explain-tests--push (id)
  "Push the button of the rule ID in the current buffer."
  (goto-char (point-min))
  (let ((found nil))
    (while (and (not found) (forward-button 1 nil nil t))
      (setq found (equal (plist-get (button-get (button-at (point)) 'gptel-rust-hooks-rule) :id)
                         id)))
    (should found)
    (push-button (point))))

(ert-deftest explain::command-reads-a-call-and-shows-the-buffer ()
  "Interactively: a tool name and JSON arguments are read, and the buffer shows the result."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules explain-tests--rules)
    (explain-tests--with-buffer
     (with-temp-buffer
       (setq default-directory "/tmp/")
       (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) "shell"))
                 ((symbol-function 'read-string)
                  (lambda (&rest _) "{\"command\": \"rm -rf /tmp/x\", \"n\": [1, false]}")))
         (let ((data (call-interactively #'gptel-rust-hooks-explain)))
           (should (equal (plist-get (plist-get data :call) :name) "shell"))
           (should (equal (plist-get (plist-get data :call) :cwd) "/tmp/")))))
     (with-current-buffer "*gptel-rust-hooks-explain*"
       (should (eq major-mode 'gptel-rust-hooks-explain-mode))
       (goto-char (point-min))
       (should (looking-at "Call +shell (:command \"rm -rf /tmp/x\" :n \\[1 :json-false\\])"))
       (should (search-forward "Outcome    deny by no-rm" nil t))
       (should (search-forward "Reason     No deleting." nil t))
       (should (search-forward "Answer     (:block \"No deleting.\")" nil t))
       ;; Every rule is a button, in order.
       (should (equal (mapcar (lambda (r) (plist-get r :id)) (explain-tests--buttons))
                      '("no-rm" "safe-git" "etc" "timeout" "forced")))
       ;; The deciding rule is highlighted, and only it.
       (let ((ovs (cl-remove-if-not (lambda (o) (overlay-get o 'gptel-rust-hooks-deciding))
                                    (overlays-in (point-min) (point-max)))))
         (should (= 1 (length ovs)))
         (should (eq (overlay-get (car ovs) 'face) 'gptel-rust-hooks-deciding))
         (should (string-match-p "\\`▶ ✓ no-rm  deny"
                                 (buffer-substring (overlay-start (car ovs))
                                                   (overlay-end (car ovs)))))
         (should (string-match-p "command-prefix +✓ rm -rf /tmp/x  (prefix `rm`)"
                                 (buffer-substring-no-properties
                                  (overlay-start (car ovs)) (overlay-end (car ovs))))))))))

;; helper-90's user: an allow-everything rule that does not allow a program the table
;; does not know, or a line that is not certain, says why.
(ert-deftest explain::an-allow-rule-says-why-it-does-not-cover-a-command ()
  "A command only a rule naming its program allows, and an uncertain line, say so."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable
     'gptel-rust-hooks-rules
     '((:id "all" :tool "shell" :command-regexp "" :decision allow)))
    (let* ((data (gptel-rust-hooks-explain
                  '(:name "shell" :args (:command "frobtool check ."))))
           (check (explain-tests--matcher (explain-tests--rule data "all") "command-regexp")))
      (should-not (plist-get check :matched))
      (should (string-match-p "only an allow rule that names it"
                              (plist-get (car (plist-get check :on)) :needs-naming))))
    (explain-tests--with-buffer
     (gptel-rust-hooks-explain '(:name "shell" :args (:command "frobtool check .")) nil t)
     (with-current-buffer "*gptel-rust-hooks-explain*"
       (goto-char (point-min))
       (should (search-forward "`frobtool` is a program the table does not know" nil t))))
    (explain-tests--with-buffer
     (gptel-rust-hooks-explain '(:name "shell" :args (:command "echo $(frobtool)")) nil t)
     (with-current-buffer "*gptel-rust-hooks-explain*"
       (goto-char (point-min))
       (should (search-forward "(not certain: " nil t))))))

(ert-deftest explain::command-takes-the-call-at-point-in-the-log ()
  "In the log buffer, the call at point is explained without asking."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules explain-tests--rules)
    (explain-tests--with-buffer
     (with-temp-buffer
       (setq-local gptel-rust-hooks-log--call-at-point-function
                   (lambda () '(:name "read_file" :args (:path "/etc/hosts") :cwd "/")))
       (cl-letf (((symbol-function 'read-string)
                  (lambda (&rest _) (error "Should not ask"))))
         (should (equal (plist-get (call-interactively #'gptel-rust-hooks-explain) :decision)
                        "ask"))))
     (with-current-buffer "*gptel-rust-hooks-explain*"
       (goto-char (point-min))
       (should (search-forward "Outcome    ask by etc" nil t))))))

(ert-deftest explain::button-visits-the-json-file-at-the-rule ()
  "A file rule's button opens the policy file at the rule's line."
  (gptel-rust-hooks-test-with-state
    (let* ((dir (make-temp-file "gptel-rust-hooks-explain-" t))
           (file (expand-file-name "p.json" dir)))
      (explain-tests--with-buffer
       (unwind-protect
           (progn
             (with-temp-file file
               (insert "[\n  {\"tool\": \"x\"},\n  {\"id\": \"f\",\n   \"tool\": \"t\", \"decision\": \"deny\"}\n]\n"))
             (setq gptel-rust-hooks-policy-files (list file))
             (customize-set-variable 'gptel-rust-hooks-rules nil)
             (gptel-rust-hooks-explain '(:name "t" :args nil) nil t)
             (with-current-buffer "*gptel-rust-hooks-explain*"
               (explain-tests--push "f in p.json"))
             (with-current-buffer (get-file-buffer file)
               (should (= (line-number-at-pos) 3))
               (should (looking-at "  {\"id\": \"f\","))
               (kill-buffer)))
         (delete-directory dir t))))))

(ert-deftest explain::button-edits-the-rule-alone ()
  "A Lisp rule's button opens that rule alone, to edit in its source.
It was a Customize buffer of the whole option (issue 24: 535 lines for
6 rules)."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules explain-tests--rules)
    (explain-tests--with-buffer
     (gptel-rust-hooks-explain '(:name "read_file" :args (:path "/etc/x")) nil t)
     (with-current-buffer "*gptel-rust-hooks-explain*"
       (explain-tests--push "etc"))
     (with-current-buffer "*gptel-rust-hooks-rule*"
       (should (eq major-mode 'gptel-rust-hooks-rule-edit-mode))
       (goto-char (point-min))
       (should (equal (read (current-buffer)) (nth 2 explain-tests--rules)))))))

(ert-deftest explain::button-shows-an-added-rule ()
  "A rule added for the session shows itself, and how to remove it."
  (gptel-rust-hooks-test-with-state
    (setq gptel-rust-hooks--session-rules '((:id "added" :tool "t" :decision allow)))
    (customize-set-variable 'gptel-rust-hooks-rules nil)
    (explain-tests--with-buffer
     (gptel-rust-hooks-explain '(:name "t" :args nil) nil t)
     (with-current-buffer "*gptel-rust-hooks-explain*"
       (explain-tests--push "added in session"))
     (with-current-buffer "*gptel-rust-hooks-rule*"
       (should (string-match-p "added for this Emacs session:\n\n(:id \"added\" :tool \"t\" :decision allow)"
                               (buffer-string)))
       (should (string-match-p "gptel-rust-hooks-forget-added-rules" (buffer-string)))))))

(ert-deftest explain::revert-explains-again ()
  "\\[revert-buffer] in the explain buffer explains the call with the rules now in force."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules '((:id "one" :tool "t" :decision deny)))
    (explain-tests--with-buffer
     (gptel-rust-hooks-explain '(:name "t" :args nil) nil t)
     (customize-set-variable 'gptel-rust-hooks-rules '((:id "two" :tool "t" :decision allow)))
     (with-current-buffer "*gptel-rust-hooks-explain*"
       (revert-buffer)
       (goto-char (point-min))
       (should (search-forward "Outcome    allow by two" nil t))))))

(ert-deftest explain::prompt-takes-json-as-typed ()
  "The explain prompt reads the arguments as typed, with {} for empty input."
  (dolist (typed '(("{\"path\": \"/etc/x\"}" . (:path "/etc/x")) ("" . nil)))
    (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) "read_file"))
              ((symbol-function 'read-string)
               (lambda (_prompt &optional initial _history default &rest _)
                 ;; Nothing pre-filled: what is typed is the whole input;
                 ;; empty input gives the default, as `read-string' does.
                 (should (null initial))
                 (should (equal default "{}"))
                 (if (equal (car typed) "") default (car typed)))))
      (let ((call (gptel-rust-hooks-ui--read-call)))
        (should (equal (plist-get call :name) "read_file"))
        (should (equal (plist-get call :args) (cdr typed)))))))

(provide 'explain-tests)
;;; explain-tests.el ends here
