;;; module-store-tests.el --- ERT tests of where the module lives, builds and downloads -*- lexical-binding: t; -*-

;;; Commentary:

;; The module on disk (DESIGN.md, "The module on disk"): the build id the
;; module, build.rs, scripts/build-id.sh and the package agree on; the
;; store under `gptel-rust-hooks-module-store', one file per version and
;; build, installed by rename and cleaned of old builds; which module is
;; found first and which is never loaded; cargo found off `exec-path';
;; `gptel-rust-hooks-download-module' against a local HTTP server on
;; 127.0.0.1 (good file, wrong checksum, 404, no manifest entry); builds
;; through a stand-in cargo; and first use in a fresh Emacs with a clean
;; HOME, which has no module yet.
;;
;; The Emacs running the suite has the real module loaded (from
;; target/release), so the tests that need an Emacs without one run a
;; child Emacs, the same executable, with a clean HOME.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'subr-x)
(require 'test-helper)
(require 'gptel-rust-hooks)

(defvar package-user-dir)
(declare-function gptel-rust-hooks--mod-build-id "ext:gptel-rust-hooks-module" ())
(declare-function gptel-rust-hooks--mod-version "ext:gptel-rust-hooks-module" ())
(declare-function gptel-rust-hooks--mod-compile-layers "ext:gptel-rust-hooks-module"
                  (layers options))

(defconst module-store-tests--repo
  (file-name-as-directory (expand-file-name ".." gptel-rust-hooks-test-directory))
  "The checkout the tests run in.")

(defconst module-store-tests--module
  (expand-file-name (concat "target/release/" (gptel-rust-hooks--cargo-file-name))
                    module-store-tests--repo)
  "The module cargo built from this checkout (`make' builds it first).")

(defun module-store-tests--sha (file)
  "Return the SHA-256 of FILE."
  (gptel-rust-hooks--file-sha256-literal file))

(defun module-store-tests--script-id (root)
  "Return what scripts/build-id.sh prints for ROOT."
  (with-temp-buffer
    (should (eq 0 (call-process "bash" nil t nil
                                (expand-file-name "scripts/build-id.sh" module-store-tests--repo)
                                root)))
    (string-trim (buffer-string))))

(defun module-store-tests--repo-id ()
  "Return the build id of this checkout's sources."
  (gptel-rust-hooks--sources-build-id module-store-tests--repo))

(defmacro module-store-tests--with-dirs (vars &rest body)
  "Bind each of VARS to a new temporary directory around BODY, then delete them."
  (declare (indent 1) (debug t))
  `(let ,(mapcar (lambda (v) `(,v (file-name-as-directory
                                   (file-truename (make-temp-file "gptel-rust-hooks-store-" t)))))
                 vars)
     (unwind-protect (progn ,@body)
       ,@(mapcar (lambda (v) `(delete-directory ,v t)) vars))))

(defmacro module-store-tests--with-store (pkg store &rest body)
  "Run BODY with the package in directory PKG and its store in STORE.
The package state the tests change is restored afterwards."
  (declare (indent 2) (debug t))
  `(let ((gptel-rust-hooks--package-directory ,pkg)
         (gptel-rust-hooks-module-store ,store)
         (gptel-rust-hooks-module-directory nil)
         (gptel-rust-hooks-cargo-program nil)
         (gptel-rust-hooks-module-url gptel-rust-hooks-module-url)
         (gptel-rust-hooks--loaded-module gptel-rust-hooks--loaded-module)
         (gptel-rust-hooks--build-id-memo nil)
         (gptel-rust-hooks--reported nil))
     ,@body))

(defun module-store-tests--fake-module (file version id)
  "Write FILE as a stand-in module that carries VERSION and ID; return FILE."
  (make-directory (file-name-directory file) t)
  (let ((coding-system-for-write 'binary))
    (write-region (concat "\177ELF\0stand-in\0gptel-rust-hooks-module-x\0"
                          (if version (format "gptel-rust-hooks-module %s %s\n" version id) "")
                          "\0end")
                  nil file nil 'silent))
  file)

(defun module-store-tests--manifest (pkg entries &optional version id)
  "Write PKG's manifest listing ENTRIES, lines \"SYSTEM SHA FILE\".
VERSION and ID default to this version and the sources' build id."
  (with-temp-file (expand-file-name gptel-rust-hooks--manifest-name pkg)
    (insert "# gptel-rust-hooks prebuilt modules, written by the tests.\n"
            "# version: " (or version gptel-rust-hooks-version) "\n"
            "# build-id: " (or id (module-store-tests--repo-id)) "\n"
            (mapconcat #'identity entries "\n") "\n")))

(defun module-store-tests--messages (thunk)
  "Call THUNK; return the messages it showed, oldest first."
  (let ((shown nil))
    (cl-letf (((symbol-function 'message)
               (lambda (fmt &rest args)
                 (when fmt (push (apply #'format-message fmt args) shown))
                 nil)))
      (funcall thunk))
    (nreverse shown)))

(defun module-store-tests--modules (store)
  "Return the names of the files in STORE's modules/, dot files included."
  (let ((dir (expand-file-name "modules/" store)))
    (and (file-directory-p dir)
         (directory-files dir nil "\\`[^.]\\|\\`\\.[^.]"))))

;;;; An HTTP server on 127.0.0.1

(defun module-store-tests--serve (dir)
  "Serve DIR over HTTP on 127.0.0.1; return (PROCESS . PORT)."
  (let* ((buffer (generate-new-buffer " *module-store-tests http*"))
         (process (make-process :name "module-store-tests-http" :buffer buffer :noquery t
                                :connection-type 'pipe
                                :command (list "python3" "-u" "-m" "http.server" "0"
                                               "--bind" "127.0.0.1" "--directory" dir)))
         (port (with-current-buffer buffer
                 (cl-loop repeat 200
                          do (accept-process-output process 0.05)
                          when (progn (goto-char (point-min))
                                      (re-search-forward "port \\([0-9]+\\)" nil t))
                          return (match-string 1)))))
    (unless port
      (delete-process process)
      (error "The HTTP server did not start: %s"
             (with-current-buffer buffer (buffer-string))))
    (cons process port)))

(defmacro module-store-tests--with-server (dir port &rest body)
  "Run BODY with DIR served on 127.0.0.1, the port bound to PORT."
  (declare (indent 2) (debug t))
  (let ((server (make-symbol "server")))
    `(let* ((,server (module-store-tests--serve ,dir))
            (,port (cdr ,server)))
       (unwind-protect (progn ,@body)
         (let ((buffer (process-buffer (car ,server))))
           (delete-process (car ,server))
           (kill-buffer buffer))))))

;;;; A stand-in cargo

(defun module-store-tests--stand-in-cargo (dir &optional version)
  "Write DIR/cargo, which stands in for cargo VERSION (default 1.95).
\"build\" records its arguments, directory, CARGO_TARGET_DIR and the
start of PATH in DIR/cargo.log, and copies the module cargo built from
this checkout to $CARGO_TARGET_DIR/release/, as cargo would.  Return
the file."
  (let ((file (expand-file-name "cargo" dir)))
    (with-temp-file file
      (insert "#!/bin/sh\n"
              (format "if [ \"$1\" = --version ]; then echo 'cargo %s.0 (stand-in)'; exit 0; fi\n"
                      (or version "1.95"))
              (format "log=%s\n" (shell-quote-argument (expand-file-name "cargo.log" dir)))
              "echo \"args: $*\" > \"$log\"\n"
              "echo \"pwd: $(pwd)\" >> \"$log\"\n"
              "echo \"target: $CARGO_TARGET_DIR\" >> \"$log\"\n"
              "echo \"path: ${PATH%%:*}\" >> \"$log\"\n"
              "mkdir -p \"$CARGO_TARGET_DIR/release\"\n"
              (format "cp %s \"$CARGO_TARGET_DIR/release/\"\n"
                      (shell-quote-argument module-store-tests--module))))
    (set-file-modes file #o755)
    file))

(defun module-store-tests--wait-for-build (buffer)
  "Wait until the compilation in BUFFER has finished and been handled."
  (cl-loop repeat 600
           while (get-buffer-process buffer)
           do (accept-process-output nil 0.05))
  (should-not (get-buffer-process buffer))
  ;; The finish functions run from the sentinel, just after the process ends.
  (accept-process-output nil 0.1))

;;;; A package laid out as a package manager installs it, and a child Emacs

(defun module-store-tests--make-package (pkg)
  "Lay out the package in PKG as a package built from the recipe does.
The Lisp, Cargo.toml, Cargo.lock, build.rs, src/ and benches/, side by side."
  (dolist (file (directory-files (expand-file-name "lisp" module-store-tests--repo) t "\\.el\\'"))
    (copy-file file (expand-file-name (file-name-nondirectory file) pkg) t))
  (dolist (file '("Cargo.toml" "Cargo.lock" "build.rs"))
    (copy-file (expand-file-name file module-store-tests--repo) (expand-file-name file pkg) t))
  (dolist (dir '("src" "benches"))
    (copy-directory (expand-file-name dir module-store-tests--repo) (expand-file-name dir pkg)))
  pkg)

(defun module-store-tests--child (home pkg &rest forms)
  "Run FORMS in a fresh batch Emacs with HOME, the package loaded from PKG.
Return (EXIT-CODE . OUTPUT), OUTPUT being what it printed, stderr
included."
  (let ((process-environment (append (list (concat "HOME=" (directory-file-name home))
                                           "CARGO_HOME")
                                     process-environment)))
    (with-temp-buffer
      (let ((code (apply #'call-process (expand-file-name invocation-name invocation-directory)
                         nil t nil "-Q" "--batch"
                         "--eval" (prin1-to-string
                                   `(setq load-path (cons ,pkg ',load-path)))
                         "--eval" "(require 'gptel-rust-hooks)"
                         (cl-loop for form in forms
                                  append (list "--eval" (prin1-to-string form))))))
        (cons code (buffer-string))))))

(defconst module-store-tests--deny-rm
  '((:tool "shell" :command-prefix "rm" :decision deny :reason "no rm"))
  "The rules the child Emacs decides a call by.")

(defconst module-store-tests--decide-form
  `(princ (format "\nDECIDED %S LOADED %s\n"
                  (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:command "rm -rf x")))
                  gptel-rust-hooks--loaded-module))
  "A form that prints how the child decides a call and which module it loaded.")

;;;; Versions and build ids

(ert-deftest store::versions-are-equal ()
  "The Version: header, `gptel-rust-hooks-version', the crate and the module agree."
  (let* ((header (with-temp-buffer
                   (insert-file-contents (expand-file-name "lisp/gptel-rust-hooks.el"
                                                           module-store-tests--repo))
                   (and (re-search-forward "^;; Version: *\\([^ \n]+\\)" nil t)
                        (match-string 1))))
         (crate (with-temp-buffer
                  (insert-file-contents (expand-file-name "Cargo.toml" module-store-tests--repo))
                  (and (re-search-forward "^version *= *\"\\([^\"]+\\)\"" nil t)
                       (match-string 1))))
         (locked (with-temp-buffer
                   (insert-file-contents (expand-file-name "Cargo.lock" module-store-tests--repo))
                   (and (re-search-forward
                         "^name = \"gptel-rust-hooks\"\nversion = \"\\([^\"]+\\)\"" nil t)
                        (match-string 1))))
         (changelog (with-temp-buffer
                      (insert-file-contents (expand-file-name "CHANGELOG.md"
                                                              module-store-tests--repo))
                      (and (re-search-forward "^## \\([0-9][^ \n]*\\)" nil t)
                           (match-string 1)))))
    (gptel-rust-hooks--load-module)
    (should (equal (list header crate locked changelog (gptel-rust-hooks--mod-version))
                   (make-list 5 gptel-rust-hooks-version)))))

(ert-deftest store::build-id-is-the-scripts ()
  "The package, scripts/build-id.sh, build.rs (the module) and its mark agree."
  (let ((id (module-store-tests--repo-id)))
    (should (string-match-p "\\`[0-9a-f]\\{16\\}\\'" id))
    (should (equal (module-store-tests--script-id module-store-tests--repo) id))
    (gptel-rust-hooks--load-module)
    (should (equal (gptel-rust-hooks--mod-build-id) id))
    (should (equal (gptel-rust-hooks--module-mark module-store-tests--module)
                   (list gptel-rust-hooks-version id)))))

(ert-deftest store::build-id-covers-the-sources-not-their-line-ends ()
  "A change to any source changes the id; CRLF line ends do not."
  (module-store-tests--with-dirs (root)
    (dolist (file '("Cargo.toml" "Cargo.lock" "src/lib.rs" "src/a/b.rs" "src/a/notes.txt"))
      (make-directory (file-name-directory (expand-file-name file root)) t)
      (write-region (format "// %s\nfn x() {}\n" file) nil (expand-file-name file root)))
    (let ((id (gptel-rust-hooks--sources-build-id root)))
      (should (equal id (module-store-tests--script-id root)))
      ;; CRLF line ends: the same id.
      (let ((coding-system-for-write 'binary))
        (write-region "// src/a/b.rs\r\nfn x() {}\r\n" nil (expand-file-name "src/a/b.rs" root)))
      (should (equal (gptel-rust-hooks--sources-build-id root) id))
      (should (equal (module-store-tests--script-id root) id))
      ;; A file that is not Rust: the same id.
      (write-region "changed" nil (expand-file-name "src/a/notes.txt" root))
      (should (equal (gptel-rust-hooks--sources-build-id root) id))
      ;; A Rust source, build.rs, Cargo.lock: each changes it.
      (let ((seen (list id)))
        (dolist (change '(("src/a/b.rs" . "fn y() {}\n") ("build.rs" . "fn main() {}\n")
                          ("Cargo.lock" . "# v4\n")))
          (write-region (cdr change) nil (expand-file-name (car change) root))
          (let ((new (gptel-rust-hooks--sources-build-id root)))
            (should-not (member new seen))
            (should (equal (module-store-tests--script-id root) new))
            (push new seen)))))))

(ert-deftest store::system-names ()
  "The system as the manifest and scripts/release.sh name it."
  (dolist (case '(("x86_64-pc-linux-gnu" gnu/linux "x86_64-linux")
                  ("aarch64-unknown-linux-gnu" gnu/linux "aarch64-linux")
                  ("aarch64-apple-darwin23.4.0" darwin "aarch64-darwin")
                  ("arm64-apple-darwin21" darwin "aarch64-darwin")
                  ("x86_64-apple-darwin19" darwin "x86_64-darwin")
                  ("x86_64-w64-mingw32" windows-nt "x86_64-windows")
                  ("x86_64-unknown-freebsd14" berkeley-unix nil)))
    (let ((system-configuration (nth 0 case))
          (system-type (nth 1 case)))
      (should (equal (list (nth 0 case) (gptel-rust-hooks--system))
                     (list (nth 0 case) (nth 2 case)))))))

;;;; Which module is found

(ert-deftest store::found-first-this-version-and-build ()
  "The store's module of the expected build wins; another build of this version is the fallback."
  (module-store-tests--with-dirs (pkg store own)
    (module-store-tests--with-store pkg store
      (module-store-tests--manifest pkg nil nil "0123456789abcdef")
      (let* ((expected (gptel-rust-hooks--store-file "0123456789abcdef"))
             (other (gptel-rust-hooks--store-file "fedcba9876543210"))
             (older (expand-file-name "modules/gptel-rust-hooks-module-0.1.0-aaaaaaaaaaaaaaaa.so"
                                      store))
             (beside (expand-file-name (concat gptel-rust-hooks--module-name module-file-suffix)
                                       pkg)))
        (should (equal (gptel-rust-hooks--expected-build-id) "0123456789abcdef"))
        (module-store-tests--fake-module beside "0.1.0" "aaaaaaaaaaaaaaaa")
        (module-store-tests--fake-module older "0.1.0" "aaaaaaaaaaaaaaaa")
        ;; Only modules of another version: none is found, the error says what to run.
        (should-not (gptel-rust-hooks--find-module))
        (module-store-tests--fake-module other gptel-rust-hooks-version "fedcba9876543210")
        (should (equal (gptel-rust-hooks--find-module) other))
        (module-store-tests--fake-module expected gptel-rust-hooks-version "0123456789abcdef")
        (should (equal (gptel-rust-hooks--find-module) expected))
        (should (equal (car (gptel-rust-hooks--module-candidates)) expected))
        ;; A module without a mark (before 0.2.0) beside the package: never loaded.
        (delete-file expected)
        (delete-file other)
        (module-store-tests--fake-module beside nil nil)
        (should-not (gptel-rust-hooks--find-module))
        ;; A module of your own directory, of this version, comes before the store.
        (module-store-tests--fake-module expected gptel-rust-hooks-version "0123456789abcdef")
        (let* ((gptel-rust-hooks-module-directory own)
               (mine (module-store-tests--fake-module
                      (expand-file-name (gptel-rust-hooks--cargo-file-name) own)
                      gptel-rust-hooks-version "1111111111111111")))
          (should (equal (gptel-rust-hooks--find-module) mine)))))))

(ert-deftest store::own-directory-of-another-version-is-refused ()
  "A module of another version in `gptel-rust-hooks-module-directory' is named, never loaded."
  (module-store-tests--with-dirs (pkg store own)
    (module-store-tests--with-store pkg store
      (module-store-tests--manifest pkg nil nil "0123456789abcdef")
      (let ((gptel-rust-hooks-module-directory own))
        (module-store-tests--fake-module (expand-file-name (gptel-rust-hooks--cargo-file-name) own)
                                         "0.1.0" "aaaaaaaaaaaaaaaa")
        (let ((err (should-error (gptel-rust-hooks--find-module)
                                 :type 'gptel-rust-hooks-module-error)))
          (should (string-match-p
                   (concat (regexp-quote (abbreviate-file-name own))
                           ".* is the module of gptel-rust-hooks 0\\.1\\.0, not "
                           (regexp-quote gptel-rust-hooks-version))
                   (cadr err))))
        ;; With a module of this version in the store, that one, and the refusal reported.
        (let ((stored (module-store-tests--fake-module
                       (gptel-rust-hooks--store-file "0123456789abcdef")
                       gptel-rust-hooks-version "0123456789abcdef")))
          (should (equal (gptel-rust-hooks--find-module) stored))
          (should (cl-some (lambda (m) (string-match-p "is the module of gptel-rust-hooks 0\\.1\\.0" m))
                           gptel-rust-hooks--reported)))))))

(ert-deftest store::no-module-message-says-what-to-run ()
  "The error names the version, the build, where it looked and each way to get a module."
  (module-store-tests--with-dirs (pkg store)
    (module-store-tests--with-store pkg store
      (module-store-tests--make-package pkg)
      (module-store-tests--manifest
       pkg (list (format "%s %s gptel-rust-hooks-module-%s-%s.so" (gptel-rust-hooks--system)
                         (make-string 64 ?a) gptel-rust-hooks-version (gptel-rust-hooks--system))))
      (let ((text (gptel-rust-hooks--no-module-message)))
        (should (string-match-p (format "\\`no module for gptel-rust-hooks %s (build %s) in "
                                        (regexp-quote gptel-rust-hooks-version)
                                        (module-store-tests--repo-id))
                                text))
        (should (string-match-p (regexp-quote (abbreviate-file-name
                                               (gptel-rust-hooks--store-file
                                                (module-store-tests--repo-id))))
                                text))
        (should (string-match-p (format "M-x gptel-rust-hooks-download-module (a prebuilt module for %s)"
                                        (gptel-rust-hooks--system))
                                text))
        (should (string-match-p "M-x gptel-rust-hooks-build-module (needs cargo, Rust 1\\.88\\+)"
                                text)))
      ;; `make' is suggested in a clone, not in a package manager's copy.
      (write-region "all:\n" nil (expand-file-name "Makefile" pkg))
      (let ((package-user-dir (expand-file-name "elsewhere/" store)))
        (should (string-match-p (regexp-quote (format ", or `make' in %s" (abbreviate-file-name pkg)))
                                (gptel-rust-hooks--no-module-message))))
      (let ((package-user-dir (file-name-directory (directory-file-name pkg))))
        (should-not (string-match-p "`make'" (gptel-rust-hooks--no-module-message)))))))

;;;; The store: installing and cleaning

(ert-deftest store::install-writes-a-new-file-and-says-restart ()
  "With a module loaded, an install puts a new file in the store and says to restart."
  (gptel-rust-hooks--load-module)
  (module-store-tests--with-dirs (pkg store)
    (module-store-tests--with-store pkg store
      (setq gptel-rust-hooks--loaded-module (expand-file-name "/elsewhere/loaded.so"))
      (let* ((dest nil)
             (shown (module-store-tests--messages
                     (lambda () (setq dest (gptel-rust-hooks--install-module
                                            module-store-tests--module))))))
        (should (equal dest (gptel-rust-hooks--store-file (module-store-tests--repo-id))))
        (should (string-match-p (format "/modules/gptel-rust-hooks-module-%s-[0-9a-f]\\{16\\}%s\\'"
                                        (regexp-quote gptel-rust-hooks-version)
                                        (regexp-quote module-file-suffix))
                                dest))
        (should (equal (module-store-tests--sha dest)
                       (module-store-tests--sha module-store-tests--module)))
        (should (file-executable-p dest))
        (should (equal shown (list (format "gptel-rust-hooks: installed %s; restart Emacs to use it \
(the module loaded from /elsewhere/loaded.so cannot be unloaded)"
                                           (abbreviate-file-name dest)))))
        ;; Installed again: the file there is never written to.
        (let ((inode (file-attribute-inode-number (file-attributes dest))))
          (setq gptel-rust-hooks--loaded-module dest)
          (should (equal (module-store-tests--messages
                          (lambda () (gptel-rust-hooks--install-module module-store-tests--module)))
                         (list (format "gptel-rust-hooks: %s is the module loaded now"
                                       (abbreviate-file-name dest)))))
          (should (equal (file-attribute-inode-number (file-attributes dest)) inode)))
        (should (equal (module-store-tests--modules store) (list (file-name-nondirectory dest))))
        ;; A file of another version, or none, is not installed.
        (let ((fake (module-store-tests--fake-module (expand-file-name "x.so" pkg) "0.1.0"
                                                     "aaaaaaaaaaaaaaaa")))
          (should (string-match-p "is the module of gptel-rust-hooks 0\\.1\\.0, not"
                                  (cadr (should-error (gptel-rust-hooks--install-module fake)
                                                      :type 'user-error))))
          (module-store-tests--fake-module fake nil nil)
          (should (string-match-p "carries no version mark"
                                  (cadr (should-error (gptel-rust-hooks--install-module fake)
                                                      :type 'user-error)))))))))

(ert-deftest store::old-builds-are-cleaned ()
  "The expected, the loaded and the just installed module stay; the rest go."
  (module-store-tests--with-dirs (pkg store)
    (module-store-tests--with-store pkg store
      (module-store-tests--manifest pkg nil nil "0123456789abcdef")
      (let* ((dir (expand-file-name "modules/" store))
             (expected (module-store-tests--fake-module
                        (gptel-rust-hooks--store-file "0123456789abcdef")
                        gptel-rust-hooks-version "0123456789abcdef"))
             (loaded (module-store-tests--fake-module
                      (gptel-rust-hooks--store-file "2222222222222222")
                      gptel-rust-hooks-version "2222222222222222"))
             (kept (module-store-tests--fake-module
                    (gptel-rust-hooks--store-file "3333333333333333")
                    gptel-rust-hooks-version "3333333333333333"))
             (stale (module-store-tests--fake-module
                     (gptel-rust-hooks--store-file "4444444444444444")
                     gptel-rust-hooks-version "4444444444444444"))
             (older (module-store-tests--fake-module
                     (expand-file-name "gptel-rust-hooks-module-0.1.0-aaaaaaaaaaaaaaaa.so" dir)
                     "0.1.0" "aaaaaaaaaaaaaaaa"))
             (fresh-tmp (module-store-tests--fake-module (expand-file-name ".new-fresh.so" dir)
                                                         nil nil))
             (old-tmp (module-store-tests--fake-module (expand-file-name ".new-old.so" dir)
                                                       nil nil)))
        (set-file-times old-tmp (time-subtract nil (* 2 86400)))
        (setq gptel-rust-hooks--loaded-module loaded)
        (gptel-rust-hooks--clean-store kept)
        (should (equal (sort (module-store-tests--modules store) #'string<)
                       (sort (mapcar #'file-name-nondirectory (list expected loaded kept fresh-tmp))
                             #'string<)))
        (should-not (file-exists-p stale))
        (should-not (file-exists-p older))))))

;;;; Building

(ert-deftest store::cargo-found-off-exec-path ()
  "cargo in $CARGO_HOME/bin or ~/.cargo/bin is found when it is not on `exec-path'."
  (module-store-tests--with-dirs (home cargo-home mine)
    (let ((exec-path nil)
          (gptel-rust-hooks-cargo-program nil)
          (process-environment (append (list (concat "HOME=" (directory-file-name home))
                                             "CARGO_HOME")
                                       process-environment)))
      (should-not (gptel-rust-hooks--cargo))
      (make-directory (expand-file-name ".cargo/bin" home) t)
      (let ((in-home (module-store-tests--stand-in-cargo (expand-file-name ".cargo/bin" home))))
        (should (equal (gptel-rust-hooks--cargo) in-home))
        (should (equal (gptel-rust-hooks--cargo-version in-home) '(1 95))))
      (make-directory (expand-file-name "bin" cargo-home) t)
      (let ((in-cargo-home (module-store-tests--stand-in-cargo
                            (expand-file-name "bin" cargo-home)))
            (process-environment (cons (concat "CARGO_HOME=" cargo-home) process-environment)))
        (should (equal (gptel-rust-hooks--cargo) in-cargo-home))
        (let ((gptel-rust-hooks-cargo-program (module-store-tests--stand-in-cargo mine)))
          (should (equal (gptel-rust-hooks--cargo) gptel-rust-hooks-cargo-program)))))))

(ert-deftest store::cargo-too-old-is-refused ()
  "A cargo older than the minimum Rust is refused with what to run."
  (module-store-tests--with-dirs (pkg store bin)
    (module-store-tests--with-store pkg store
      (module-store-tests--make-package pkg)
      (setq gptel-rust-hooks-cargo-program (module-store-tests--stand-in-cargo bin "1.65"))
      (should (string-match-p "is cargo 1\\.65; the module needs Rust 1\\.88 or newer (rustup update)"
                              (cadr (should-error (gptel-rust-hooks-build-module)
                                                  :type 'user-error))))
      (should-not (file-exists-p (expand-file-name "cargo.log" bin))))))

(ert-deftest store::build-installs-under-version-and-build-id ()
  "A build runs cargo in the sources with the store's target/, then installs by rename."
  (gptel-rust-hooks--load-module)
  (module-store-tests--with-dirs (pkg store bin)
    (module-store-tests--with-store pkg store
      (module-store-tests--make-package pkg)
      (setq gptel-rust-hooks-cargo-program (module-store-tests--stand-in-cargo bin))
      (setq gptel-rust-hooks--loaded-module (expand-file-name "/elsewhere/loaded.so"))
      (let* ((shown (module-store-tests--messages
                     (lambda () (module-store-tests--wait-for-build
                                 (gptel-rust-hooks-build-module)))))
             (dest (gptel-rust-hooks--store-file (module-store-tests--repo-id)))
             (log (with-temp-buffer
                    (insert-file-contents (expand-file-name "cargo.log" bin))
                    (buffer-string))))
        (should (equal log (format "args: build --release --locked\npwd: %s\ntarget: %s\npath: %s\n"
                                   (directory-file-name pkg)
                                   (expand-file-name "target" store)
                                   (directory-file-name bin))))
        (should (equal (module-store-tests--sha dest)
                       (module-store-tests--sha module-store-tests--module)))
        (should (member (format "gptel-rust-hooks: installed %s; restart Emacs to use it \
(the module loaded from /elsewhere/loaded.so cannot be unloaded)"
                                (abbreviate-file-name dest))
                        shown))
        (should-not (cl-some (lambda (m) (string-match-p "built and loaded" m)) shown))
        (should (equal (module-store-tests--modules store) (list (file-name-nondirectory dest))))))))

;;;; Downloading, from a server on 127.0.0.1

(defmacro module-store-tests--with-download (vars &rest body)
  "Run BODY with a package, a store and a served directory, and the URL set.
VARS is (PKG STORE WWW NAME): the directories and the module's file name."
  (declare (indent 1) (debug t))
  (pcase-let ((`(,pkg ,store ,www ,name) vars))
    `(module-store-tests--with-dirs (,pkg ,store ,www)
       (module-store-tests--with-store ,pkg ,store
         (let ((,name (format "gptel-rust-hooks-module-%s-%s%s" gptel-rust-hooks-version
                              (gptel-rust-hooks--system) module-file-suffix)))
           (copy-file module-store-tests--module (expand-file-name ,name ,www))
           (module-store-tests--with-server ,www port
             (setq gptel-rust-hooks-module-url (format "http://127.0.0.1:%s/%%f" port))
             ,@body))))))

(ert-deftest store::download-good-file ()
  "A download with the manifest's SHA-256 is installed under its version and build id."
  (gptel-rust-hooks--load-module)
  (module-store-tests--with-download (pkg store www name)
    (module-store-tests--manifest
     pkg (list (format "%s %s %s" (gptel-rust-hooks--system)
                       (module-store-tests--sha module-store-tests--module) name)))
    (setq gptel-rust-hooks--loaded-module (expand-file-name "/elsewhere/loaded.so"))
    (let ((shown (module-store-tests--messages #'gptel-rust-hooks-download-module))
          (dest (gptel-rust-hooks--store-file (module-store-tests--repo-id))))
      (should (equal (module-store-tests--sha dest)
                     (module-store-tests--sha module-store-tests--module)))
      (should (member (format "gptel-rust-hooks: installed %s; restart Emacs to use it \
(the module loaded from /elsewhere/loaded.so cannot be unloaded)"
                              (abbreviate-file-name dest))
                      shown))
      (should (equal (module-store-tests--modules store) (list (file-name-nondirectory dest)))))))

(ert-deftest store::download-wrong-checksum-is-refused ()
  "A download whose SHA-256 differs from the manifest's is refused and left nowhere."
  (module-store-tests--with-download (pkg store www name)
    (module-store-tests--manifest
     pkg (list (format "%s %s %s" (gptel-rust-hooks--system) (make-string 64 ?a) name)))
    (let ((err (should-error (gptel-rust-hooks-download-module) :type 'user-error)))
      (should (equal (cadr err)
                     (format "Refused %s: its SHA-256 is %s, the manifest shipped with the package says %s"
                             (format-spec gptel-rust-hooks-module-url `((?f . ,name)))
                             (module-store-tests--sha module-store-tests--module)
                             (make-string 64 ?a)))))
    (should-not (module-store-tests--modules store))))

(ert-deftest store::download-404 ()
  "A file the server does not have is an error naming the URL and the status."
  (module-store-tests--with-download (pkg store www name)
    (delete-file (expand-file-name name www))
    (module-store-tests--manifest
     pkg (list (format "%s %s %s" (gptel-rust-hooks--system)
                       (module-store-tests--sha module-store-tests--module) name)))
    (let ((err (should-error (gptel-rust-hooks-download-module) :type 'user-error)))
      (should (string-match-p (concat "\\`Could not download "
                                      (regexp-quote (format-spec gptel-rust-hooks-module-url
                                                                 `((?f . ,name))))
                                      ": HTTP status 404\\'")
                              (cadr err))))
    (should-not (module-store-tests--modules store))))

(ert-deftest store::download-no-entry-for-this-system ()
  "No manifest line for this system or this version: nothing is fetched, the error says so."
  (module-store-tests--with-download (pkg store www name)
    (module-store-tests--manifest
     pkg (list (format "riscv64-linux %s %s" (module-store-tests--sha module-store-tests--module)
                       name)))
    (should (equal (cadr (should-error (gptel-rust-hooks-download-module) :type 'user-error))
                   (format "No prebuilt module for %s in gptel-rust-hooks %s (there are: riscv64-linux): \
build it (M-x gptel-rust-hooks-build-module)"
                           (gptel-rust-hooks--system) gptel-rust-hooks-version)))
    (module-store-tests--manifest
     pkg (list (format "%s %s %s" (gptel-rust-hooks--system)
                       (module-store-tests--sha module-store-tests--module) name))
     "0.1.0")
    (should (string-match-p "(the manifest lists version 0\\.1\\.0)"
                            (cadr (should-error (gptel-rust-hooks-download-module)
                                                :type 'user-error))))
    (delete-file (expand-file-name gptel-rust-hooks--manifest-name pkg))
    (should (string-match-p "\\`No gptel-rust-hooks-modules\\.sha256 beside the package"
                            (cadr (should-error (gptel-rust-hooks-download-module)
                                                :type 'user-error))))
    (should-not (module-store-tests--modules store))))

;;;; First use, in a fresh Emacs with a clean HOME

(ert-deftest first-use::batch-warns-what-to-run-and-blocks ()
  "No module: the warning says what to run, without stray quotes; every call is blocked."
  (module-store-tests--with-dirs (home pkg)
    (module-store-tests--make-package pkg)
    (module-store-tests--manifest
     pkg (list (format "%s %s x.so" (gptel-rust-hooks--system) (make-string 64 ?a))))
    (pcase-let ((`(,code . ,out)
                 (module-store-tests--child
                  home pkg
                  `(setq gptel-rust-hooks-rules ',module-store-tests--deny-rm)
                  '(gptel-rust-hooks-mode 1)
                  module-store-tests--decide-form)))
      (should (eq code 0))
      (should (string-match-p
               (format "Error (gptel-rust-hooks): no module for gptel-rust-hooks %s (build %s) in %s"
                       (regexp-quote gptel-rust-hooks-version) (module-store-tests--repo-id)
                       (regexp-quote "~/.emacs.d/gptel-rust-hooks/modules/"))
               out))
      (should (string-match-p
               (format "M-x gptel-rust-hooks-download-module (a prebuilt module for %s), or M-x gptel-rust-hooks-build-module"
                       (gptel-rust-hooks--system))
               out))
      (should (string-match-p "every tool call will be blocked until this is fixed" out))
      (should-not (string-match-p "unavailable: \"" out))
      (should (string-match-p "DECIDED (:block \"gptel-rust-hooks: no module for gptel-rust-hooks" out))
      (should (string-match-p "LOADED nil" out))
      ;; In batch, `ask' asks nobody and installs nothing.
      (should-not (file-exists-p (expand-file-name ".emacs.d/gptel-rust-hooks/modules" home))))))

(ert-deftest first-use::download-then-decide ()
  "`download': turning the mode on fetches the module, installs it, loads it, decides."
  (module-store-tests--with-dirs (home pkg www)
    (module-store-tests--make-package pkg)
    (let ((name (format "m-%s%s" (gptel-rust-hooks--system) module-file-suffix)))
      (copy-file module-store-tests--module (expand-file-name name www))
      (module-store-tests--manifest
       pkg (list (format "%s %s %s" (gptel-rust-hooks--system)
                         (module-store-tests--sha module-store-tests--module) name)))
      (module-store-tests--with-server www port
        (pcase-let ((`(,code . ,out)
                     (module-store-tests--child
                      home pkg
                      `(setq gptel-rust-hooks-rules ',module-store-tests--deny-rm
                             gptel-rust-hooks-module-install 'download
                             gptel-rust-hooks-module-url ,(format "http://127.0.0.1:%s/%%f" port))
                      '(gptel-rust-hooks-mode 1)
                      module-store-tests--decide-form)))
          (should (eq code 0))
          (let ((dest (expand-file-name
                       (format ".emacs.d/gptel-rust-hooks/modules/gptel-rust-hooks-module-%s-%s%s"
                               gptel-rust-hooks-version (module-store-tests--repo-id)
                               module-file-suffix)
                       home)))
            (should (string-match-p (regexp-quote (format "installed and loaded ~/%s"
                                                          (file-relative-name dest home)))
                                    out))
            (should (string-match-p (regexp-quote (format "DECIDED (:block \"no rm\") LOADED %s" dest))
                                    out))))))))

(ert-deftest first-use::build-then-decide ()
  "`build': turning the mode on builds with cargo off `exec-path', installs, loads, decides."
  (module-store-tests--with-dirs (home pkg)
    (module-store-tests--make-package pkg)
    (make-directory (expand-file-name ".cargo/bin" home) t)
    (module-store-tests--stand-in-cargo (expand-file-name ".cargo/bin" home))
    (pcase-let ((`(,code . ,out)
                 (module-store-tests--child
                  home pkg
                  `(setq gptel-rust-hooks-rules ',module-store-tests--deny-rm
                         gptel-rust-hooks-module-install 'build
                         exec-path nil)
                  '(gptel-rust-hooks-mode 1)
                  '(let ((buffer (get-buffer "*gptel-rust-hooks-build*")))
                     (while (get-buffer-process buffer) (accept-process-output nil 0.05))
                     (accept-process-output nil 0.1))
                  module-store-tests--decide-form)))
      (should (eq code 0))
      (let ((dest (expand-file-name
                   (format ".emacs.d/gptel-rust-hooks/modules/gptel-rust-hooks-module-%s-%s%s"
                           gptel-rust-hooks-version (module-store-tests--repo-id) module-file-suffix)
                   home)))
        (should (string-match-p (regexp-quote (format "installed and loaded ~/%s"
                                                      (file-relative-name dest home)))
                                out))
        (should (string-match-p (regexp-quote (format "DECIDED (:block \"no rm\") LOADED %s" dest))
                                out))
        (should (string-match-p (regexp-quote (format "target: %s"
                                                      (expand-file-name ".emacs.d/gptel-rust-hooks/target"
                                                                        home)))
                                (with-temp-buffer
                                  (insert-file-contents (expand-file-name ".cargo/bin/cargo.log" home))
                                  (buffer-string))))))))

(ert-deftest upgrade::restart-loads-this-version-and-cleans-the-old ()
  "After an upgrade, a restart loads the module of this version and deletes the old one."
  (module-store-tests--with-dirs (home pkg)
    (module-store-tests--make-package pkg)
    (let* ((modules (expand-file-name ".emacs.d/gptel-rust-hooks/modules/" home))
           (old (module-store-tests--fake-module
                 (expand-file-name (concat "gptel-rust-hooks-module-0.1.0-aaaaaaaaaaaaaaaa"
                                           module-file-suffix)
                                   modules)
                 "0.1.0" "aaaaaaaaaaaaaaaa"))
           (new (expand-file-name (format "gptel-rust-hooks-module-%s-%s%s" gptel-rust-hooks-version
                                          (module-store-tests--repo-id) module-file-suffix)
                                  modules)))
      ;; The old version's module left beside the package, as `make' put it.
      (module-store-tests--fake-module (expand-file-name (concat "gptel-rust-hooks-module"
                                                                 module-file-suffix)
                                                         pkg)
                                       nil nil)
      (copy-file module-store-tests--module new)
      (pcase-let ((`(,code . ,out)
                   (module-store-tests--child
                    home pkg
                    `(setq gptel-rust-hooks-rules ',module-store-tests--deny-rm)
                    '(gptel-rust-hooks-mode 1)
                    module-store-tests--decide-form)))
        (should (eq code 0))
        (should (string-match-p (regexp-quote (format "DECIDED (:block \"no rm\") LOADED %s" new)) out))
        (should-not (string-match-p "Error (gptel-rust-hooks)" out))
        (should-not (file-exists-p old))
        (should (equal (directory-files modules nil "\\`[^.]") (list (file-name-nondirectory new))))))))

(ert-deftest upgrade::other-sources-are-reported-with-the-file ()
  "A module of this version built from other sources loads, and the report names it and what to run."
  (module-store-tests--with-dirs (home pkg)
    (module-store-tests--make-package pkg)
    (write-region "\n// changed after the build\n" nil (expand-file-name "src/lib.rs" pkg) t)
    (let* ((want (gptel-rust-hooks--sources-build-id pkg))
           (stored (expand-file-name
                    (format ".emacs.d/gptel-rust-hooks/modules/gptel-rust-hooks-module-%s-%s%s"
                            gptel-rust-hooks-version (module-store-tests--repo-id) module-file-suffix)
                    home)))
      (should-not (equal want (module-store-tests--repo-id)))
      (make-directory (file-name-directory stored) t)
      (copy-file module-store-tests--module stored)
      (pcase-let ((`(,code . ,out)
                   (module-store-tests--child
                    home pkg
                    `(setq gptel-rust-hooks-rules ',module-store-tests--deny-rm)
                    '(gptel-rust-hooks-mode 1)
                    module-store-tests--decide-form)))
        (should (eq code 0))
        (should (string-match-p
                 (regexp-quote
                  (format "gptel-rust-hooks: the module loaded from %s was built from other sources \
(build %s) than those beside the package (build %s); run M-x gptel-rust-hooks-build-module, \
then restart Emacs"
                          (concat "~/" (file-relative-name stored home))
                          (module-store-tests--repo-id) want))
                 out))
        (should (string-match-p (regexp-quote (format "DECIDED (:block \"no rm\") LOADED %s" stored))
                                out))
        ;; Kept: it is the one loaded.
        (should (file-exists-p stored))))))

;; package-vc-upgrade pulls into the same directory and does not reload the
;; Lisp: the session runs the old version while the sources on disk are new.
(ert-deftest upgrade::in-place-upgrade-installs-the-new-module-for-the-next-start ()
  "A build of the version on disk, not yet reloaded, is installed for the next start."
  (gptel-rust-hooks--load-module)
  (module-store-tests--with-dirs (pkg store)
    (module-store-tests--make-package pkg)
    (let ((main (expand-file-name "gptel-rust-hooks.el" pkg)))
      (with-temp-file main
        (insert-file-contents main)
        (should (re-search-forward "^;; Version: .*$" nil t))
        (replace-match ";; Version: 9.9.9" t t)
        (should (re-search-forward "^(defconst gptel-rust-hooks-version \"[^\"]*\"" nil t))
        (replace-match "(defconst gptel-rust-hooks-version \"9.9.9\"" t t)))
    (module-store-tests--with-store pkg store
      (setq gptel-rust-hooks--loaded-module (expand-file-name "/elsewhere/loaded.so"))
      (should (equal (gptel-rust-hooks--version-on-disk) "9.9.9"))
      (let* ((id (module-store-tests--repo-id))
             (built (module-store-tests--fake-module (expand-file-name "built.so" pkg) "9.9.9" id))
             (dest nil)
             (shown (module-store-tests--messages
                     (lambda () (setq dest (gptel-rust-hooks--install-module built))))))
        (should (equal dest (gptel-rust-hooks--store-file id "9.9.9")))
        (should (string-match-p (format "/gptel-rust-hooks-module-9\\.9\\.9-%s%s\\'"
                                        id (regexp-quote module-file-suffix))
                                dest))
        (should (equal (module-store-tests--sha dest) (module-store-tests--sha built)))
        (should (equal shown
                       (list (format "gptel-rust-hooks: installed %s for gptel-rust-hooks 9.9.9, \
the version now on disk; restart Emacs to use it (this session runs %s)"
                                     (abbreviate-file-name dest) gptel-rust-hooks-version))))
        ;; Cleaning keeps it: it is the module the next start loads.
        (gptel-rust-hooks--clean-store)
        (should (file-exists-p dest))
        ;; The manifest on disk is the new version's: its download is offered.
        (module-store-tests--manifest
         pkg (list (format "%s %s m.so" (gptel-rust-hooks--system) (make-string 64 ?a))) "9.9.9")
        (should (gptel-rust-hooks--manifest-entry))
        (module-store-tests--manifest
         pkg (list (format "%s %s m.so" (gptel-rust-hooks--system) (make-string 64 ?a))) "0.1.0")
        (should-not (gptel-rust-hooks--manifest-entry))
        ;; A module of neither version is still refused.
        (let ((other (module-store-tests--fake-module (expand-file-name "x.so" pkg) "0.1.0" id)))
          (should (string-match-p
                   (format "is the module of gptel-rust-hooks 0\\.1\\.0, not %s or 9\\.9\\.9"
                           (regexp-quote gptel-rust-hooks-version))
                   (cadr (should-error (gptel-rust-hooks--install-module other)
                                       :type 'user-error)))))))))

(ert-deftest upgrade::reloaded-package-refuses-the-old-module-until-restart ()
  "An upgrade that reloads the Lisp in a session blocks calls: the old module stays loaded."
  (module-store-tests--with-dirs (home pkg)
    (module-store-tests--make-package pkg)
    (let ((stored (expand-file-name
                   (format ".emacs.d/gptel-rust-hooks/modules/gptel-rust-hooks-module-%s-%s%s"
                           gptel-rust-hooks-version (module-store-tests--repo-id) module-file-suffix)
                   home))
          (main (expand-file-name "gptel-rust-hooks.el" pkg)))
      (make-directory (file-name-directory stored) t)
      (copy-file module-store-tests--module stored)
      (pcase-let ((`(,code . ,out)
                   (module-store-tests--child
                    home pkg
                    `(setq gptel-rust-hooks-rules ',module-store-tests--deny-rm)
                    '(gptel-rust-hooks-mode 1)
                    module-store-tests--decide-form
                    ;; The upgrade: the new version's file, loaded over the old.
                    `(with-temp-file ,main
                       (insert-file-contents ,main)
                       (re-search-forward "^(defconst gptel-rust-hooks-version \"[^\"]*\"")
                       (replace-match "(defconst gptel-rust-hooks-version \"9.9.9\"" t t))
                    `(load ,main nil t)
                    module-store-tests--decide-form)))
        (should (eq code 0))
        (should (string-match-p (regexp-quote (format "DECIDED (:block \"no rm\") LOADED %s" stored))
                                out))
        (should (string-match-p
                 (regexp-quote
                  (format "DECIDED (:block \"gptel-rust-hooks: the module loaded from ~/%s is version %s \
but the package is 9.9.9; restart Emacs"
                          (file-relative-name stored home) gptel-rust-hooks-version))
                 out))))))

;;;; The copilot-4 example under any HOME

(ert-deftest store::copilot-4-example-holds-under-any-home ()
  "The example compiles with its self-tests, and refuses the ~ cases, wherever HOME is."
  (let ((file (expand-file-name "examples/copilot-4-restrict-directories.json"
                                module-store-tests--repo))
        (rules '((:tool "read_file" :path-outside ("~/projects" "/tmp") :decision deny))))
    (gptel-rust-hooks--load-module)
    (module-store-tests--with-dirs (under-tmp)
      (dolist (home (list under-tmp
                          (let ((temporary-file-directory "/var/tmp/"))
                            (make-temp-file "gptel-rust-hooks-home-" t))))
        (let ((process-environment (cons (concat "HOME=" (directory-file-name home))
                                         process-environment)))
          (should (gptel-rust-hooks--mod-compile-layers
                   (list (list :source file :trusted t
                               :json (with-temp-buffer (insert-file-contents file) (buffer-string))))
                   (gptel-rust-hooks--options)))
          (unless (file-in-directory-p home "/tmp")
            (dolist (path '("~/projects/../.ssh/id_rsa" "~/projects-evil/x"))
              (should (plist-get (gptel-rust-hooks-evaluate
                                  `(:name "read_file" :args (:path ,path)) rules)
                                 :block)))
            (delete-directory home t)))))))

(provide 'module-store-tests)
;;; module-store-tests.el ends here
