;;; lint.el --- Lint the package: byte-compile, checkdoc, package-lint -*- lexical-binding: t; -*-

;;; Commentary:

;; Run as: emacs -Q --batch -L lisp -l scripts/lint.el -f gptel-rust-hooks-lint-run FILE...
;; Exits non-zero when the byte-compiler warns, checkdoc complains or
;; package-lint reports anything.

;;; Code:

(require 'bytecomp)
(require 'checkdoc)
(require 'package)

(defun gptel-rust-hooks-lint--byte-compile (file)
  "Byte-compile FILE into a temporary file; return non-nil when clean."
  (let* ((byte-compile-error-on-warn t)
         (out (make-temp-file "gptel-rust-hooks-lint" nil ".elc"))
         (byte-compile-dest-file-function (lambda (_) out)))
    (unwind-protect (byte-compile-file file)
      (delete-file out))))

(defun gptel-rust-hooks-lint--checkdoc (file)
  "Run checkdoc on FILE; return the list of complaints."
  (let ((complaints nil))
    (with-current-buffer (find-file-noselect file)
      (let ((checkdoc-create-error-function
             (lambda (text start _end &optional _unfixable)
               (push (format "%s:%d: %s" file (line-number-at-pos start) text) complaints)
               nil))
            (checkdoc-autofix-flag 'never)
            (checkdoc-arguments-in-order-flag t)
            (checkdoc-verb-check-experimental-flag nil))
        (checkdoc-current-buffer t)))
    (nreverse complaints)))

(defun gptel-rust-hooks-lint--package-lint (file &optional main)
  "Run package-lint on FILE; return the list of complaints.
MAIN is the package's main file, when FILE is another file of it."
  (require 'package-lint)
  ;; gptel comes from NonGNU ELPA, which this machine cannot reach: tell
  ;; package-lint it exists so that only real problems remain.
  (package-initialize)
  (unless (assq 'gptel package-archive-contents)
    (push (cons 'gptel (list (package-desc-create :name 'gptel :version '(0 9 9 6)
                                                   :archive "nongnu")))
          package-archive-contents))
  (let ((main (and main (not (equal main file)) (expand-file-name main))))
    (with-current-buffer (find-file-noselect file)
      (let ((package-lint-main-file main))
        (mapcar (lambda (item)
                  (pcase-let ((`(,line ,col ,type ,message) item))
                    (format "%s:%d:%d: %s: %s" file line col type message)))
                (package-lint-buffer))))))

(defun gptel-rust-hooks-lint-run ()
  "Lint the files named on the command line; exit 1 on any complaint.
The first file is the package's main file."
  (let ((failed nil)
        (main (car command-line-args-left)))
    (dolist (file command-line-args-left)
      (message "lint: byte-compile %s" file)
      (unless (gptel-rust-hooks-lint--byte-compile file)
        (setq failed t))
      (message "lint: checkdoc %s" file)
      (dolist (c (gptel-rust-hooks-lint--checkdoc file))
        (setq failed t)
        (message "checkdoc: %s" c))
      (message "lint: package-lint %s" file)
      (dolist (c (gptel-rust-hooks-lint--package-lint file main))
        (setq failed t)
        (message "package-lint: %s" c)))
    (setq command-line-args-left nil)
    (message (if failed "lint: FAILED" "lint: clean"))
    (kill-emacs (if failed 1 0))))

;;; lint.el ends here
