;;; quickstart-tests.el --- The Quick start's three forms, in a real conversation -*- lexical-binding: t; -*-

;;; Commentary:

;; The Quick start is exactly:
;;
;;   (setq gptel-rust-hooks-default-decision 'ask)
;;   (setq gptel-rust-hooks-preset 'workspace)
;;   (gptel-rust-hooks-mode 1)
;;
;; These tests run those forms and then whole `gptel-send' conversations
;; against tests/fake_openai_server.py, with a `shell' tool that really
;; runs its command and a `read_file' tool that really reads, in a git
;; project: the first calls of a new user must not be blocked.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)

(defun quickstart-tests--shell-tool ()
  "Return a gptel tool `shell' that runs its command with the shell."
  (gptel-rust-hooks-test-make-tool
   "shell" '("command")
   :result (lambda (args)
             (with-temp-buffer
               (let ((status (call-process shell-file-name nil t nil
                                           shell-command-switch (plist-get args :command))))
                 (format "exit %s\n%s" status (buffer-string)))))))

(defun quickstart-tests--read-tool ()
  "Return a gptel tool `read_file' that reads its file."
  (gptel-rust-hooks-test-make-tool
   "read_file" '("path")
   :result (lambda (args)
             (with-temp-buffer
               (insert-file-contents (expand-file-name (plist-get args :path)))
               (buffer-string)))))

(defmacro quickstart-tests--with-project (var &rest body)
  "Run BODY with VAR a fresh git project (a directory name), then delete it.
The project is made under the home directory when it is writable, as a
user's project is (the sandbox keeps the temporary directory private),
else under the temporary directory."
  (declare (indent 1) (debug t))
  `(let ((,var (file-name-as-directory
                (file-truename
                 (make-temp-file (expand-file-name
                                  "gptel-rust-hooks-quickstart-"
                                  (if (file-writable-p "~/") "~/" temporary-file-directory))
                                 t)))))
     (unwind-protect
         (progn
           (let ((default-directory ,var))
             (call-process "git" nil nil nil "init" "-q")
             (with-temp-file "README" (insert "Hello from the project.\n")))
           ,@body)
       (delete-directory ,var t))))

(defmacro quickstart-tests--with-quick-start (&rest body)
  "Run BODY after the Quick start's three forms, with the package state fresh."
  (declare (indent 0) (debug t))
  `(gptel-rust-hooks-test-with-state
     (let ((gptel-pre-tool-call-functions nil)
           (gptel-post-tool-call-functions nil)
           (gptel-rust-hooks-default-decision gptel-rust-hooks-default-decision)
           (gptel-rust-hooks-preset gptel-rust-hooks-preset)
           (gptel-rust-hooks-rules nil)
           (was-on gptel-rust-hooks-mode))
       (unwind-protect
           (progn
             ;; The Quick start, as written.
             (setq gptel-rust-hooks-default-decision 'ask)
             (setq gptel-rust-hooks-preset 'workspace)
             (gptel-rust-hooks-mode 1)
             ,@body)
         (gptel-rust-hooks-mode (if was-on 1 -1))))))

(ert-deftest quickstart::first-calls-run-secrets-denied-rest-asked ()
  "The Quick start: git status and a file read in the project run unasked.
`cat ~/.ssh/id_rsa' is denied, and a command no rule decides is asked."
  (quickstart-tests--with-project root
    (quickstart-tests--with-quick-start
      (let ((r (gptel-rust-hooks-test-with-conversation
                 :script `((:tool-calls ((:name "shell" :args (:command "git status") :id "c1")
                                         (:name "read_file"
                                                :args (:path ,(expand-file-name "README" root))
                                                :id "c2")))
                           (:tool-calls ((:name "shell" :args (:command "cat ~/.ssh/id_rsa")
                                                :id "c3")))
                           (:tool-calls ((:name "shell" :args (:command "make deploy") :id "c4")))
                           (:content "Done."))
                 :tools (list (quickstart-tests--shell-tool) (quickstart-tests--read-tool))
                 :directory root
                 :on-confirm nil)))
        (should-not (plist-get r :timed-out))
        ;; The first two calls ran, unasked, and really did their work.
        (should (equal (mapcar #'car (plist-get r :ran)) '("shell" "read_file")))
        ;; Where bubblewrap is, git status ran inside it.
        (when (executable-find gptel-rust-hooks-sandbox-program)
          (should (string-match-p "bwrap'.*'git status'"
                                  (plist-get (cdar (plist-get r :ran)) :command))))
        (let* ((first (cadr (plist-get r :tool-messages)))
               (status (cdr (assoc "c1" (mapcar (lambda (m) (cons (plist-get m :tool_call_id)
                                                                  (plist-get m :content)))
                                                first))))
               (read (cdr (assoc "c2" (mapcar (lambda (m) (cons (plist-get m :tool_call_id)
                                                                (plist-get m :content)))
                                              first)))))
          (should (string-prefix-p "exit 0\n" status))
          (should (string-match-p "No commits yet\\|nothing to commit\\|Untracked" status))
          (should (equal read "Hello from the project.\n")))
        ;; The secret is denied, with the preset's reason.
        (let ((third (cl-find "c3" (nth 2 (plist-get r :tool-messages))
                              :key (lambda (m) (plist-get m :tool_call_id)) :test #'equal)))
          (should (string-match-p "\\`<tool_call_error>\nThis file holds secrets"
                                  (plist-get third :content))))
        ;; The undecided command is asked, and waits.
        (should (equal (plist-get r :prompted) '(("shell" :command "make deploy"))))
        (should (equal (plist-get r :pending) '(("shell" :command "make deploy"))))
        (should (= (length (plist-get r :requests)) 3))))))

(ert-deftest quickstart::no-bubblewrap-never-blocks-the-first-call ()
  "Without bubblewrap, the preset's commands run unconfined: never blocked."
  (quickstart-tests--with-project root
    (quickstart-tests--with-quick-start
      (let ((gptel-rust-hooks-sandbox-program "gptel-rust-hooks-no-such-bwrap"))
        (let ((default-directory root))
          (should (equal (gptel-rust-hooks-pre-tool-call
                          '(:name "shell" :args (:command "git status")))
                         '(:confirm nil)))
          (should-not gptel-rust-hooks--last-sandbox))
        (let ((r (gptel-rust-hooks-test-with-conversation
                   :script '((:tool-calls ((:name "shell" :args (:command "git status"))))
                             (:content "Done."))
                   :tools (list (quickstart-tests--shell-tool))
                   :directory root)))
          (should (eq (plist-get r :state) 'DONE))
          (should-not (plist-get r :prompted))
          (should (equal (plist-get r :ran) '(("shell" :command "git status")))))))))

(ert-deftest quickstart::with-bubblewrap-the-preset-sandboxes ()
  "Where bubblewrap is found, the preset's allowed commands run sandboxed."
  (quickstart-tests--with-project root
    (quickstart-tests--with-quick-start
      (let ((gptel-rust-hooks-sandbox-program
             ;; Found or not, the preset follows what is on this machine.
             gptel-rust-hooks-sandbox-program)
            (default-directory root))
        (should (equal (gptel-rust-hooks-pre-tool-call
                        '(:name "shell" :args (:command "git status")))
                       '(:confirm nil)))
        (should (eq (and gptel-rust-hooks--last-sandbox t)
                    (and (executable-find gptel-rust-hooks-sandbox-program) t)))))))

(provide 'quickstart-tests)
;;; quickstart-tests.el ends here
