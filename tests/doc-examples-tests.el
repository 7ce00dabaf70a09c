;;; doc-examples-tests.el --- Every example of the README and the manual, run -*- lexical-binding: t; -*-

;;; Commentary:

;; The README (README.md) and the manual (doc/gptel-rust-hooks.org) show
;; rules and policies; these tests make sure each one works as shown.
;;
;; - Every ```elisp and ```json block of the README and every emacs-lisp
;;   and json source block of the manual is extracted and compiled: a rule
;;   or a list of rules through `gptel-rust-hooks-evaluate', `setq' forms
;;   evaluated with the package's options bound afresh, a JSON policy
;;   through `gptel-rust-hooks-policy-files'.
;; - The lines just before a block may say what it decides:
;;   `<!-- doc-test: CALL => DECISION -->' in the README,
;;   `# doc-test: CALL => DECISION' in the manual.  Each is checked through
;;   a whole `gptel-send' conversation against tests/fake_openai_server.py.
;; - `<!-- doc-with: previous -->' (`# doc-with: previous') before a block
;;   puts the policy of the runnable block before it in force first.
;; - A block that cannot run carries `<!-- not-a-test: WHY -->' or
;;   `# not-a-test: WHY'.  Such blocks are counted, and a block that is
;;   neither marked nor of a known form fails the test.
;; - `doc::first-ten-minutes' does what the README says in a fresh Emacs
;;   with an empty home directory: the install form for that Emacs (from a
;;   clone), the Quick start, a conversation with a shell and a read_file
;;   tool.
;; - The Info manual built by `make doc' opens with `Info-find-node'.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'subr-x)
(require 'info)
(require 'cus-edit)
(require 'test-helper)
(require 'gptel-rust-hooks)

(defvar gptel-rust-hooks-preset)
(defvar gptel-rust-hooks-prompt-rules-file)

(defconst doc-examples-tests--repo
  (file-name-as-directory (expand-file-name ".." gptel-rust-hooks-test-directory))
  "The checkout the tests run in.")

(defconst doc-examples-tests--readme (expand-file-name "README.md" doc-examples-tests--repo)
  "The README.")

(defconst doc-examples-tests--manual
  (expand-file-name "doc/gptel-rust-hooks.org" doc-examples-tests--repo)
  "The manual's source.")

(defconst doc-examples-tests--decisions '(allow ask deny stop none)
  "The decisions a doc-test line may name.")

;;;; Extracting the blocks

(cl-defstruct (doc-examples-tests--block (:constructor doc-examples-tests--block-create)
                                         (:copier nil))
  "One example block of a document."
  file line lang text skip tests after)

(defun doc-examples-tests--annotation (line style)
  "Return (KIND . TEXT) for an annotation LINE in STYLE (`md' or `org'), or nil.
KIND is `skip' (not-a-test), `test' (doc-test) or `with' (doc-with)."
  (when (string-match (if (eq style 'md)
                          "\\`\\s-*<!--\\s-*\\(not-a-test\\|doc-test\\|doc-with\\):\\s-*\\(.*?\\)\\s-*-->\\s-*\\'"
                        "\\`\\s-*#\\s-+\\(not-a-test\\|doc-test\\|doc-with\\):\\s-*\\(.*?\\)\\s-*\\'")
                      line)
    (cons (pcase (match-string 1 line)
            ("not-a-test" 'skip) ("doc-test" 'test) (_ 'with))
          (match-string 2 line))))

(defun doc-examples-tests--parse-test (text)
  "Return (CALL . DECISION) read from a doc-test TEXT \"CALL => DECISION\"."
  (unless (string-match "\\`\\(.*\\)\\s-+=>\\s-+\\([a-z]+\\)\\'" text)
    (error "A doc-test line is CALL => DECISION: %s" text))
  (let ((call (car (read-from-string (match-string 1 text))))
        (decision (intern (match-string 2 text))))
    (unless (memq decision doc-examples-tests--decisions)
      (error "Unknown decision `%s' in: %s" decision text))
    (cons call decision)))

(defun doc-examples-tests--blocks (file)
  "Return the example blocks of FILE, README-style Markdown or Org.
Only Lisp and JSON blocks are examples; shell and plain blocks are not."
  (let* ((style (if (string-suffix-p ".org" file) 'org 'md))
         (lines (with-temp-buffer
                  (insert-file-contents file)
                  (split-string (buffer-string) "\n")))
         (open-re (if (eq style 'md)
                      "\\`\\s-*```\\(elisp\\|emacs-lisp\\|json\\)\\s-*\\'"
                    "\\`\\s-*#\\+begin_src\\s-+\\(emacs-lisp\\|elisp\\|json\\)\\b"))
         (close-re (if (eq style 'md) "\\`\\s-*```\\s-*\\'" "\\`\\s-*#\\+end_src\\b"))
         (blocks nil)
         (n 0)
         (annotations nil)
         (current nil)
         (body nil))
    (dolist (line lines)
      (setq n (1+ n))
      (cond
       (current
        (if (string-match-p close-re line)
            (progn
              (setf (doc-examples-tests--block-text current)
                    (mapconcat #'identity (nreverse body) "\n"))
              (push current blocks)
              (setq current nil body nil))
          ;; Org escapes a leading * or #+ in a block with a comma.
          (push (if (eq style 'org)
                    (replace-regexp-in-string "\\`\\(\\s-*\\),\\([*]\\|#\\+\\)" "\\1\\2" line)
                  line)
                body)))
       ((string-match open-re line)
        (setq current (doc-examples-tests--block-create
                       :file file :line n
                       :lang (if (equal (match-string 1 line) "json") 'json 'elisp)
                       :skip (cdr (assq 'skip annotations))
                       :after (let ((with (cdr (assq 'with annotations))))
                                (cond ((null with) nil)
                                      ((equal with "previous") 'previous)
                                      (t (error "%s:%d: doc-with takes `previous', not %s"
                                                file n with))))
                       :tests (mapcar (lambda (a) (doc-examples-tests--parse-test (cdr a)))
                                      (reverse (cl-remove-if-not
                                                (lambda (a) (eq (car a) 'test))
                                                annotations))))
              annotations nil))
       ((let ((a (doc-examples-tests--annotation line style)))
          (when a (push a annotations))
          a))
       (t (setq annotations nil))))
    (when current
      (error "%s:%d: a block that never ends" file (doc-examples-tests--block-line current)))
    (nreverse blocks)))

(defun doc-examples-tests--where (block)
  "Return FILE:LINE of BLOCK, for failure messages."
  (format "%s:%d" (file-name-nondirectory (doc-examples-tests--block-file block))
          (doc-examples-tests--block-line block)))

;;;; What a block is

(defun doc-examples-tests--read-forms (text)
  "Return the Lisp forms of TEXT, with the README's placeholder paths made real."
  (let ((text (replace-regexp-in-string
               (regexp-quote "/path/to/gptel-rust-hooks/") doc-examples-tests--repo
               text t t))
        (forms nil)
        (pos 0))
    (condition-case nil
        (while t
          (let ((r (read-from-string text pos)))
            (push (car r) forms)
            (setq pos (cdr r))))
      (end-of-file nil))
    (nreverse forms)))

(defconst doc-examples-tests--setup-heads '(setq setopt customize-set-variable gptel-rust-hooks-mode)
  "The forms a policy block may be made of.")

(defun doc-examples-tests--kind (block)
  "Return what BLOCK is: (rules RULES), (setup FORMS) or (json TEXT).
Signal an error for a block of no known form."
  (pcase (doc-examples-tests--block-lang block)
    ('json (list 'json (doc-examples-tests--block-text block)))
    (_
     (let ((forms (doc-examples-tests--read-forms (doc-examples-tests--block-text block))))
       (cond
        ((and (= (length forms) 1) (keywordp (car-safe (car forms))))
         (list 'rules forms))
        ((and forms (cl-every (lambda (f) (memq (car-safe f) doc-examples-tests--setup-heads))
                              forms))
         (list 'setup forms))
        (t (error "%s: neither a rule nor setq forms: %S"
                  (doc-examples-tests--where block) forms)))))))

;;;; Running a block

(defun doc-examples-tests--policy-options ()
  "Return the package's options that make the policy, as symbols.
Every customizable variable of the group but those of the module's
place on disk and the log, which the suite sets up itself."
  (cl-loop for (sym type) in (custom-group-members 'gptel-rust-hooks nil)
           when (and (eq type 'custom-variable) (boundp sym)
                     (not (string-match-p "module\\|cargo\\|-log-" (symbol-name sym))))
           collect sym))

(defmacro doc-examples-tests--fresh (&rest body)
  "Run BODY with the policy options at their defaults and the mode off after.
The package state is fresh (`gptel-rust-hooks-test-with-state'),
gptel's hooks hold only what BODY adds, and rules added from the prompt
go to a file of their own that does not exist."
  (declare (indent 0) (debug t))
  `(gptel-rust-hooks-test-with-state
     (let* ((syms (doc-examples-tests--policy-options))
            (vals (mapcar (lambda (s) (eval (car (get s 'standard-value)) t)) syms))
            (was-on gptel-rust-hooks-mode)
            (prompt-dir (make-temp-file "doc-examples-" t)))
       (cl-progv syms vals
         (let ((gptel-pre-tool-call-functions nil)
               (gptel-post-tool-call-functions nil))
           (when (boundp 'gptel-rust-hooks-prompt-rules-file)
             (setq gptel-rust-hooks-prompt-rules-file
                   (expand-file-name "doc-examples-no-such-file.eld" prompt-dir)))
           (unwind-protect (progn ,@body)
             (gptel-rust-hooks-mode (if was-on 1 -1))
             (delete-directory prompt-dir t)))))))

(defun doc-examples-tests--install (kind dir)
  "Put the policy of a block of KIND in force; JSON files go into DIR."
  (pcase kind
    (`(rules ,rules) (setq gptel-rust-hooks-rules rules))
    (`(setup ,forms) (dolist (f forms) (eval f t)))
    (`(json ,text)
     (let ((file (make-temp-file (expand-file-name "policy-" dir) nil ".json"))
           (data (json-parse-string text :object-type 'alist)))
       ;; One rule as an object, or a policy as a list of them.
       (with-temp-file file
         (insert (if (vectorp data) text (concat "[" text "]"))))
       (setq gptel-rust-hooks-policy-files
             (append gptel-rust-hooks-policy-files (list file)))))))

(defun doc-examples-tests--compile-problem (dir)
  "Return why the policy in force does not compile from DIR, or nil."
  (condition-case err
      (progn
        (when gptel-rust-hooks-rules
          (gptel-rust-hooks-evaluate '(:name "doc-examples-probe" :args nil)
                                     gptel-rust-hooks-rules))
        (let* ((default-directory dir)
               (answer (gptel-rust-hooks-evaluate
                        (list :name "doc-examples-probe" :args nil :cwd dir)))
               (reason (or (plist-get answer :block) (plist-get answer :stop-reason))))
          (and (stringp reason) (string-prefix-p "gptel-rust-hooks:" reason) reason)))
    (error (error-message-string err))))

(defun doc-examples-tests--project ()
  "Make a project directory for the conversations; return its name."
  (let ((dir (file-name-as-directory
              (file-truename (make-temp-file "gptel-rust-hooks-doc-project-" t)))))
    (make-directory (expand-file-name ".git" dir))
    (make-directory (expand-file-name "src" dir))
    (dolist (f '("README.md" "src/main.rs" "notes.md"))
      (with-temp-file (expand-file-name f dir) (insert "text\n")))
    dir))

(defun doc-examples-tests--decided (call dir)
  "Run CALL through a `gptel-send' conversation from DIR; return its decision.
gptel itself asks for every call (`gptel-confirm-tool-calls' t), so:
`allow' means the tool ran without a prompt; `deny' that it did not run
and the model got gptel's error text; `stop' that the request ended
without running it; a prompt is `ask' when the package asked and `none'
when gptel's own setting did (the package's answer has no :confirm)."
  (let* ((r (gptel-rust-hooks-test-with-conversation
              :script (list (list :tool-calls (list (append call '(:id "call_doc"))))
                            '(:content "Done."))
              :directory dir
              :confirm-tool-calls t
              :on-confirm nil))
         (ran (plist-get r :ran))
         (prompted (plist-get r :prompted))
         (errors (cl-loop for msgs in (plist-get r :tool-messages)
                          thereis (cl-some (lambda (m) (string-match-p
                                                        "tool_call_error"
                                                        (or (plist-get m :content) "")))
                                           msgs))))
    (cond
     ((plist-get r :timed-out) 'timed-out)
     ((and ran (not prompted)) 'allow)
     (prompted
      (let ((answer (let ((default-directory dir))
                      (gptel-rust-hooks-evaluate (append call (list :cwd dir))))))
        (if (plist-get answer :confirm) 'ask 'none)))
     (errors 'deny)
     ((eq (plist-get r :state) 'ERRS) 'stop)
     ((plist-get r :stop-reason) 'stop)
     (t (list 'unknown r)))))

(defun doc-examples-tests--run (block)
  "Compile BLOCK and check its doc-tests; return a list of problems (strings)."
  (let ((problems nil)
        (dir (doc-examples-tests--project)))
    (unwind-protect
        (condition-case err
            (doc-examples-tests--fresh
              (let ((kind (doc-examples-tests--kind block))
                    (default-directory dir))
                ;; "doc-with: previous": the block extends the one before it.
                (when-let* ((before (doc-examples-tests--block-after block)))
                  (doc-examples-tests--install (doc-examples-tests--kind before) dir))
                (doc-examples-tests--install kind dir)
                (let ((problem (doc-examples-tests--compile-problem dir)))
                  (when problem
                    (push (format "%s: does not compile: %s"
                                  (doc-examples-tests--where block) problem)
                          problems))
                  (unless problem
                    ;; The conversations need the mode on, as the README says.
                    (unless gptel-rust-hooks-mode (gptel-rust-hooks-mode 1))
                    (pcase-dolist (`(,call . ,want) (doc-examples-tests--block-tests block))
                      (let ((got (doc-examples-tests--decided call dir)))
                        (unless (eq got want)
                          (push (format "%s: %S decided %S, the document says %S"
                                        (doc-examples-tests--where block) call got want)
                                problems))))))))
          (error (push (format "%s: %s" (doc-examples-tests--where block)
                               (error-message-string err))
                       problems)))
      (delete-directory dir t))
    (nreverse problems)))

(defun doc-examples-tests--check-file (file)
  "Run every block of FILE; return (RUN SKIPPED DOC-TESTS PROBLEMS)."
  (let ((run 0) (skipped 0) (tests 0) (problems nil) (previous nil))
    (dolist (block (doc-examples-tests--blocks file))
      (when (doc-examples-tests--block-after block)
        (if previous
            (setf (doc-examples-tests--block-after block) previous)
          (push (format "%s: doc-with: previous, but no block runs before it"
                        (doc-examples-tests--where block))
                problems)
          (setf (doc-examples-tests--block-after block) nil)))
      (unless (doc-examples-tests--block-skip block)
        (setq previous block))
      (if (doc-examples-tests--block-skip block)
          (progn
            (setq skipped (1+ skipped))
            (when (doc-examples-tests--block-tests block)
              (push (format "%s: marked not-a-test but has doc-test lines"
                            (doc-examples-tests--where block))
                    problems)))
        (setq run (1+ run)
              tests (+ tests (length (doc-examples-tests--block-tests block))))
        ;; A block that shows a decision says which calls it decides.
        (when (and (null (doc-examples-tests--block-tests block))
                   (string-match-p "decision\\|policy-files\\|preset"
                                   (doc-examples-tests--block-text block)))
          (push (format "%s: shows a decision but has no doc-test line"
                        (doc-examples-tests--where block))
                problems))
        (setq problems (append problems (doc-examples-tests--run block)))))
    (message "%s: %d blocks run, %d doc-test calls decided, %d marked not-a-test"
             (file-name-nondirectory file) run tests skipped)
    (list run skipped tests problems)))

;;;; The extractor itself

(ert-deftest doc::extractor-reads-both-styles ()
  "Blocks, their annotations and their kinds are read from Markdown and Org."
  (let ((md (make-temp-file "doc-examples-" nil ".md"))
        (org (make-temp-file "doc-examples-" nil ".org")))
    (unwind-protect
        (progn
          (with-temp-file md
            (insert "Text\n\n<!-- not-a-test: a URL -->\n```elisp\n(package-vc-install 'x)\n```\n\n"
                    "<!-- doc-test: (:name \"shell\" :args (:command \"ls\")) => deny -->\n"
                    "```json\n[{\"tool\": \"shell\", \"decision\": \"deny\"}]\n```\n\n"
                    "```sh\nmake test\n```\n\n<!-- doc-with: previous -->\n```elisp\n(:tool \"x\")\n```\n"))
          (with-temp-file org
            (insert "* H\n# doc-test: (:name \"a\") => allow\n# doc-test: (:name \"b\") => ask\n"
                    "#+begin_src emacs-lisp\n(setq gptel-rust-hooks-rules\n      '((:tool \"a\")))\n#+end_src\n"
                    "# not-a-test: escaped\n#+begin_src json\n,* not a heading\n#+end_src\n"
                    "\n#+begin_src sh\nls\n#+end_src\n"))
          (let ((m (doc-examples-tests--blocks md))
                (o (doc-examples-tests--blocks org)))
            (should (equal (mapcar #'doc-examples-tests--block-lang m) '(elisp json elisp)))
            (should (equal (mapcar #'doc-examples-tests--block-skip m) '("a URL" nil nil)))
            (should (equal (doc-examples-tests--block-tests (nth 1 m))
                           '(((:name "shell" :args (:command "ls")) . deny))))
            (should (equal (doc-examples-tests--block-line (nth 1 m)) 9))
            (should (equal (car (doc-examples-tests--kind (nth 2 m))) 'rules))
            (should (equal (mapcar #'doc-examples-tests--block-after m) '(nil nil previous)))
            (should (equal (mapcar #'doc-examples-tests--block-lang o) '(elisp json)))
            (should (equal (doc-examples-tests--block-tests (car o))
                           '(((:name "a") . allow) ((:name "b") . ask))))
            (should (equal (doc-examples-tests--block-skip (nth 1 o)) "escaped"))
            (should (equal (doc-examples-tests--block-text (nth 1 o)) "* not a heading"))
            (should (equal (car (doc-examples-tests--kind (car o))) 'setup))))
      (delete-file md)
      (delete-file org))))

(ert-deftest doc::unknown-block-is-an-error ()
  "A Lisp block that is neither a rule nor setq forms is refused, not skipped."
  (should-error (doc-examples-tests--kind
                 (doc-examples-tests--block-create :file "x.md" :line 1 :lang 'elisp
                                                   :text "(message \"hi\")"))
                :type 'error)
  (should-error (doc-examples-tests--parse-test "(:name \"x\") => maybe") :type 'error))

(ert-deftest doc::a-wrong-claim-fails ()
  "A doc-test whose decision is not what the rules decide is reported."
  (let ((block (doc-examples-tests--block-create
                :file "x.md" :line 3 :lang 'elisp
                :text "(:tool \"shell\" :command-prefix \"rm\" :decision deny :reason \"no rm\")"
                :tests '(((:name "shell" :args (:command "rm x")) . allow)
                         ((:name "shell" :args (:command "rm y")) . deny)))))
    (should (equal (doc-examples-tests--run block)
                   '("x.md:3: (:name \"shell\" :args (:command \"rm x\")) decided deny, the document says allow")))))

(ert-deftest doc::a-bad-rule-fails ()
  "A block whose rule does not compile is reported with the error."
  (let ((problems (doc-examples-tests--run
                   (doc-examples-tests--block-create
                    :file "x.org" :line 7 :lang 'json
                    :text "{\"tool\": \"shell\", \"decision\": \"dney\"}"))))
    (should (= (length problems) 1))
    (should (string-match-p "\\`x.org:7: does not compile: .*dney" (car problems)))))

(ert-deftest doc::a-decision-without-doc-test-fails ()
  "A block that shows a decision but says nothing it decides is reported."
  (let ((md (make-temp-file "doc-examples-" nil ".md")))
    (unwind-protect
        (progn
          (with-temp-file md
            (insert "```elisp\n(:tool \"shell\" :decision deny)\n```\n"))
          (should (equal (nth 3 (doc-examples-tests--check-file md))
                         (list (format "%s:1: shows a decision but has no doc-test line"
                                       (file-name-nondirectory md))))))
      (delete-file md))))

;;;; The documents

(ert-deftest doc::readme-examples ()
  "Every Lisp and JSON block of the README compiles and decides as it says."
  (pcase-let ((`(,run ,skipped ,tests ,problems)
               (doc-examples-tests--check-file doc-examples-tests--readme)))
    (should (equal problems nil))
    ;; The Quick start, its extension, the cheat sheet and the JSON policy.
    (should (>= run 4))
    (should (>= tests 15))
    ;; The install forms.
    (should (>= skipped 4))))

(ert-deftest doc::manual-examples ()
  "Every emacs-lisp and json block of the manual compiles and decides as it says."
  (pcase-let ((`(,run ,skipped ,tests ,problems)
               (doc-examples-tests--check-file doc-examples-tests--manual)))
    (should (equal problems nil))
    (should (>= run 8))
    (should (>= tests 20))
    (should (>= skipped 5))))

(ert-deftest doc::readme-is-a-front-door ()
  "The README stays short and names the manual and both developer commands."
  (let ((text (with-temp-buffer
                (insert-file-contents doc-examples-tests--readme)
                (buffer-string))))
    (should (<= (length (split-string text "\n")) 300))
    (dolist (s '("make demo" "make test" "C-h i m gptel-rust-hooks"
                 "doc/gptel-rust-hooks.org" ":doc \"doc/gptel-rust-hooks.org\""
                 "(add-to-list 'load-path" "(setq gptel-rust-hooks-preset 'workspace)"))
      (should (string-search s text)))))

(ert-deftest doc::manual-has-every-release ()
  "Each version of CHANGELOG.md has its release notes in the manual."
  (let ((versions (with-temp-buffer
                    (insert-file-contents (expand-file-name "CHANGELOG.md" doc-examples-tests--repo))
                    (cl-loop while (re-search-forward "^## \\([0-9][^ \n]*\\)" nil t)
                             collect (match-string 1))))
        (manual (with-temp-buffer
                  (insert-file-contents doc-examples-tests--manual)
                  (buffer-string))))
    (should versions)
    (dolist (v versions)
      (should (string-match-p (concat "^\\*\\* Version " (regexp-quote v) "$") manual)))))

;;;; The Info manual

(ert-deftest doc::info-manual-opens ()
  "`make doc' built an Info manual that `C-h i' finds through doc/dir."
  (let* ((doc (expand-file-name "doc/" doc-examples-tests--repo))
         (Info-directory-list (list doc))
         (Info-additional-directory-list nil)
         (buffer (get-buffer-create " *doc-examples info*")))
    (should (file-exists-p (expand-file-name "gptel-rust-hooks.info" doc)))
    (unwind-protect
        (with-current-buffer buffer
          (Info-mode)
          ;; The directory lists it, as C-h i shows.
          (Info-find-node "dir" "Top")
          (should (search-forward "(gptel-rust-hooks)" nil t))
          (dolist (node '("Top" "Quick start" "Rule reference" "Shell commands"
                          "Sandboxed calls" "Security model" "Performance"
                          "Architecture" "Developing" "Release notes"))
            (Info-find-node "gptel-rust-hooks" node)
            (should (equal Info-current-node node)))
          (Info-find-node "gptel-rust-hooks" "Quick start")
          (should (search-forward "gptel-rust-hooks-preset" nil t)))
      (kill-buffer buffer))))

(declare-function package-vc--build-documentation "package-vc" (pkg-desc file))
(declare-function package-desc-create "package" (&rest args))

(ert-deftest doc::package-vc-builds-the-manual ()
  "The README's `:doc' for package-vc builds the Info manual.
package-vc is Emacs 29 or newer, as the README says: on Emacs 28 there
is none, and the README gives a clone's form there."
  (if (< emacs-major-version 29)
      (should-not (locate-library "package-vc"))
    (require 'package-vc)
    (let* ((readme (with-temp-buffer
                     (insert-file-contents doc-examples-tests--readme)
                     (buffer-string)))
           (doc (and (string-match ":doc \"\\([^\"]+\\)\"" readme) (match-string 1 readme)))
           (pkg (file-name-as-directory (make-temp-file "gptel-rust-hooks-vc-" t))))
      (unwind-protect
          (progn
            (should (equal doc "doc/gptel-rust-hooks.org"))
            (make-directory (expand-file-name "doc" pkg))
            (copy-file (expand-file-name doc doc-examples-tests--repo)
                       (expand-file-name doc pkg))
            (let ((inhibit-message t))
              (package-vc--build-documentation
               (package-desc-create :name 'gptel-rust-hooks :dir pkg) doc))
            (should (file-exists-p (expand-file-name "gptel-rust-hooks.info" pkg)))
            (with-temp-buffer
              (insert-file-contents (expand-file-name "dir" pkg))
              (should (search-forward "(gptel-rust-hooks)" nil t))))
        (delete-directory pkg t)))))

;;;; The first ten minutes

(defun doc-examples-tests--readme-block (predicate)
  "Return the text of the first README block whose text satisfies PREDICATE."
  (or (cl-loop for b in (doc-examples-tests--blocks doc-examples-tests--readme)
               when (funcall predicate (doc-examples-tests--block-text b))
               return (doc-examples-tests--block-text b))
      (error "No such block in the README")))

(defun doc-examples-tests--readme-commands ()
  "Return the extended commands the README names, as symbols."
  (with-temp-buffer
    (insert-file-contents doc-examples-tests--readme)
    (let ((names nil))
      (while (re-search-forward "M-x\\(?:\\s-\\|\n\\)+\\(gptel-rust-hooks[a-z-]*\\)" nil t)
        (cl-pushnew (intern (match-string 1)) names))
      (nreverse names))))

(defun doc-examples-tests--first-ten-minutes-forms (project)
  "Return the forms a new user would evaluate, then a conversation from PROJECT.
The README's install form for this Emacs (from a clone), with the clone
at this checkout, then its Quick start, then the conversation."
  (let* ((install (doc-examples-tests--readme-block
                   (if (< emacs-major-version 29)
                       (lambda (s) (string-search "(add-to-list 'load-path" s))
                     (lambda (s) (string-search ":load-path" s)))))
         (install (replace-regexp-in-string
                   (regexp-quote "~/src/gptel-rust-hooks/") doc-examples-tests--repo install t t))
         (quick (doc-examples-tests--readme-block
                 (lambda (s) (string-search "gptel-rust-hooks-preset" s))))
         (commands (doc-examples-tests--readme-commands)))
    (append
     (doc-examples-tests--read-forms install)
     (doc-examples-tests--read-forms quick)
     `((load ,(expand-file-name "test-helper.el" gptel-rust-hooks-test-directory) nil t)
       (let ((r (gptel-rust-hooks-test-with-conversation
                 :script '((:tool-calls ((:name "shell" :args (:command "git status")
                                                :id "call_1")
                                         (:name "read_file" :args (:path "README.md")
                                                :id "call_2")))
                           (:tool-calls ((:name "shell" :args (:command "npm install left-pad")
                                                :id "call_3")))
                           (:content "Done."))
                 :tools '(("shell" ("command")) ("read_file" ("path")))
                 :directory ,project
                 :on-confirm nil)))
         (princ (format "\nFIRST-TEN-MINUTES %s\n"
                        (let ((print-escape-newlines t))
                          (prin1-to-string
                           (list :ran (plist-get r :ran)
                                 :prompted (plist-get r :prompted)
                                 :tool-messages (plist-get r :tool-messages)
                                 :timed-out (plist-get r :timed-out)
                                 :mode gptel-rust-hooks-mode
                                 :commands ',commands
                                 :not-commands (cl-remove-if #'commandp ',commands)))))))))))

(ert-deftest doc::first-ten-minutes ()
  "The README followed in a fresh Emacs: first calls run, undecided ones ask.
A child Emacs (this one's executable) with an empty home directory and
gptel installed evaluates the README's install form for its version,
from a clone (this checkout, whose module `make' built), then the Quick
start forms, then a `gptel-send' conversation whose model calls a
`shell' tool with `git status' and a `read_file' tool on the project's
README, then `npm install left-pad'.  Neither tool sets `:confirm'."
  (let* ((home (file-name-as-directory (make-temp-file "gptel-rust-hooks-home-" t)))
         (project (doc-examples-tests--project))
         (forms (doc-examples-tests--first-ten-minutes-forms project))
         (process-environment (append (list (concat "HOME=" (directory-file-name home))
                                            "GPTEL_DIR")
                                      process-environment)))
    (unwind-protect
        (with-temp-buffer
          (should (file-exists-p (expand-file-name "lisp/gptel-rust-hooks-module.so"
                                                   doc-examples-tests--repo)))
          (let ((code (apply #'call-process (expand-file-name invocation-name invocation-directory)
                             nil t nil "-Q" "--batch"
                             ;; gptel, installed as the README's first line says.
                             "--eval" (prin1-to-string
                                       `(setq load-path
                                              (append ',(gptel-rust-hooks-test--gptel-load-path)
                                                      load-path)))
                             (cl-loop for form in forms
                                      append (list "--eval" (prin1-to-string form))))))
            (let* ((out (buffer-string))
                   (result (and (string-match "^FIRST-TEN-MINUTES \\(.*\\)$" out)
                                (car (read-from-string (match-string 1 out))))))
              (should (equal (list code (and result t)) (list 0 t)))
              (should-not (string-match-p "no module for" out))
              (should (plist-get result :mode))
              ;; Every M-x command the README names exists in a clone too.
              (should (>= (length (plist-get result :commands)) 7))
              (should (equal (plist-get result :not-commands) nil))
              (should-not (plist-get result :timed-out))
              ;; The first calls ran as the model wrote them (the shell one
              ;; confined where bubblewrap is), with no prompt.
              (should (equal (mapcar #'car (plist-get result :ran)) '("shell" "read_file")))
              (should (string-match-p "git status"
                                      (plist-get (cdr (car (plist-get result :ran))) :command)))
              (should (equal (cdr (nth 1 (plist-get result :ran))) '(:path "README.md")))
              ;; No call was blocked: the model got no error text.
              (should-not (cl-loop for msgs in (plist-get result :tool-messages)
                                   thereis (cl-some (lambda (m)
                                                      (string-match-p "tool_call_error"
                                                                      (plist-get m :content)))
                                                    msgs)))
              (should (equal (length (car (last (plist-get result :tool-messages)))) 2))
              ;; The call no rule decides asks, though the tool has no :confirm.
              (should (equal (plist-get result :prompted)
                             '(("shell" :command "npm install left-pad")))))))
      (delete-directory home t)
      (delete-directory project t))))

(provide 'doc-examples-tests)
;;; doc-examples-tests.el ends here
