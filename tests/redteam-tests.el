;;; redteam-tests.el --- The red-team suite through gptel-rust-hooks-evaluate -*- lexical-binding: t; -*-

;;; Commentary:

;; Every case of tests/data/redteam/*.json, decided by
;; `gptel-rust-hooks-evaluate' as the pre-tool hook would decide it, on
;; the same fixture tree as tests/redteam.rs (see the comment on `Fixture'
;; there).  One test per family, named `redteam::FAMILY', reports every
;; failing case at once.
;;
;; A case's call is read from JSON as gptel reads tool arguments: objects
;; become plists with keyword keys, arrays vectors, null nil, false
;; `:json-false'.  The placeholders @ROOT@, @HOME@, @PROJ@ and @TMP@ stand
;; for the fixture's directories.  HOME is bound to the fixture's home (or
;; to the family's `home' option) and case folding to the family's
;; `case-fold' option, so that the module sees what the cargo runner sees.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'gptel-rust-hooks)

(defconst gptel-rust-hooks-redteam-directory
  (expand-file-name "data/redteam"
                    (file-name-directory (or load-file-name buffer-file-name)))
  "Where the red-team case files are.")

;;;; Fixture

(defun gptel-rust-hooks-redteam--make-fixture ()
  "Build the fixture tree in a new temporary directory; return its root."
  (let* ((root (file-truename (make-temp-file "gptel-redteam-" t)))
         (f (lambda (rel) (expand-file-name rel root))))
    (dolist (d '("tmp" "home/.ssh" "home/.aws" "home/proj/src" "home/proj/.git"
                 "home/proj-evil"))
      (make-directory (funcall f d) t))
    (pcase-dolist (`(,file . ,text)
                   '(("home/.ssh/id_rsa" . "-----BEGIN OPENSSH PRIVATE KEY-----\n")
                     ("home/.ssh/authorized_keys" . "ssh-ed25519 AAAA user\n")
                     ("home/.ssh/config" . "Host *\n")
                     ("home/.sshrc" . "# not a key\n")
                     ("home/.aws/credentials" . "[default]\n")
                     ("home/proj-evil/x" . "evil\n")
                     ("home/proj/README.md" . "# proj\n")
                     ("home/proj/.env" . "SECRET=1\n")
                     ("home/proj/.env.example" . "SECRET=\n")
                     ("home/proj/src/main.rs" . "fn main() {}\n")))
      (with-temp-file (funcall f file) (insert text)))
    (pcase-dolist (`(,link . ,target)
                   `(("home/proj/link-out" . ,(funcall f "home/.ssh"))
                     ("home/proj/rel-out" . "../.ssh")
                     ("home/proj/key-link" . ,(funcall f "home/.ssh/id_rsa"))
                     ("home/proj/chain1" . "chain2")
                     ("home/proj/chain2" . ,(funcall f "home/.ssh/id_rsa"))
                     ("home/proj/etc-link" . "/etc")
                     ("home/proj/passwd-link" . "/etc/passwd")
                     ("home/proj/evil-link" . ,(funcall f "home/proj-evil"))
                     ("home/proj/dangling" . ,(funcall f "home/.ssh/new_key"))
                     ("home/proj/dangling-evil" . ,(funcall f "home/proj-evil/new"))
                     ("home/proj/loop-a" . "loop-b")
                     ("home/proj/loop-b" . "loop-a")
                     ("home/proj/inner-link" . "src")
                     ("home/proj/readme-link" . "README.md")
                     ("homelink" . "home")
                     ("projlink" . "home/proj")))
      (make-symbolic-link target (funcall f link)))
    root))

(defun gptel-rust-hooks-redteam--subst (root value)
  "Replace the fixture placeholders under ROOT in every string of VALUE."
  (cond
   ((stringp value)
    (let ((d (lambda (rel) (directory-file-name (expand-file-name rel root)))))
      (thread-last value
                   (string-replace "@PROJ@" (funcall d "home/proj"))
                   (string-replace "@HOME@" (funcall d "home"))
                   (string-replace "@TMP@" (funcall d "tmp"))
                   (string-replace "@ROOT@" (directory-file-name root)))))
   ((vectorp value)
    (apply #'vector (mapcar (lambda (v) (gptel-rust-hooks-redteam--subst root v)) value)))
   ((consp value)
    (mapcar (lambda (v) (gptel-rust-hooks-redteam--subst root v)) value))
   (t value)))

;;;; Running a family

(defun gptel-rust-hooks-redteam--read (file)
  "Read the case FILE as a plist, arrays as vectors."
  (with-temp-buffer
    (insert-file-contents file)
    (json-parse-buffer :object-type 'plist :null-object nil :false-object :json-false)))

(defun gptel-rust-hooks-redteam--decision (answer)
  "The decision the pre-tool hook's ANSWER stands for, a string."
  (cond ((plist-get answer :stop) "stop")
        ((plist-get answer :block) "deny")
        ((plist-member answer :confirm) (if (plist-get answer :confirm) "ask" "allow"))
        (t "none")))

(defun gptel-rust-hooks-redteam--satisfies (expect got)
  "Whether the decision GOT meets EXPECT."
  (if (equal expect "not-allow")
      (not (equal got "allow"))
    (equal expect got)))

(defun gptel-rust-hooks-redteam--run (file)
  "Run every case of FILE; fail listing each case that fails."
  (let* ((data (gptel-rust-hooks-redteam--read file))
         (root (gptel-rust-hooks-redteam--make-fixture))
         (cases (plist-get data :cases))
         (failures nil))
    (gptel-rust-hooks--load-module)
    (unwind-protect
        (let* ((home (gptel-rust-hooks-redteam--subst
                      root (or (plist-get (plist-get data :options) :home) "@HOME@")))
               (process-environment (cons (concat "HOME=" home) process-environment))
               (gptel-rust-hooks-default-decision nil)
               (gptel-rust-hooks-on-error 'block)
               (gptel-rust-hooks-policy-files nil)
               (gptel-rust-hooks-project-policies nil)
               (gptel-rust-hooks-case-fold
                (eq t (plist-get (plist-get data :options) :case-fold)))
               (rules (append (gptel-rust-hooks-redteam--subst root (plist-get data :policy))
                              nil)))
          (should (equal (expand-file-name "~") home))
          (seq-doseq (case cases)
            (let* ((name (plist-get case :name))
                   (expect (plist-get case :expect))
                   (call (gptel-rust-hooks-redteam--subst root (plist-get case :call)))
                   (got (condition-case err
                            (gptel-rust-hooks-redteam--decision
                             (gptel-rust-hooks-evaluate call rules))
                          (error (format "error %S" err)))))
              (unless (gptel-rust-hooks-redteam--satisfies expect got)
                (push (format "  %s: expected %s, got %s: %s %s" name expect got
                              (plist-get call :name)
                              (truncate-string-to-width
                               (prin1-to-string (plist-get call :args)) 160 nil nil "…"))
                      failures)))))
      (delete-directory root t))
    (when failures
      (ert-fail (format "redteam family `%s': %d of %d cases failed:\n%s"
                        (plist-get data :family) (length failures) (length cases)
                        (string-join (nreverse failures) "\n"))))))

;;;; Tests

(dolist (file (directory-files gptel-rust-hooks-redteam-directory t "\\.json\\'"))
  (let ((name (intern (format "redteam::%s" (file-name-base file)))))
    (eval `(ert-deftest ,name ()
             ,(format "The red-team cases of %s." (file-name-nondirectory file))
             (gptel-rust-hooks-redteam--run ,file))
          t)))

(ert-deftest redteam::case-count ()
  "The suite has at least 150 cases."
  (should (>= (cl-loop for file in (directory-files gptel-rust-hooks-redteam-directory
                                                    t "\\.json\\'")
                       sum (length (plist-get (gptel-rust-hooks-redteam--read file) :cases)))
              150)))

(provide 'redteam-tests)
;;; redteam-tests.el ends here
