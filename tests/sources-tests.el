;;; sources-tests.el --- Presets, rules added from the prompt, checks on the rules -*- lexical-binding: t; -*-

;;; Commentary:

;; Where rules come from besides `gptel-rust-hooks-rules': the presets
;; (`gptel-rust-hooks-preset'), the file of rules added from gptel's
;; prompt, rules marked `:disabled'; and the checks on the rules: Emacs
;; regexps warned with their Rust form, policy files checked when the
;; option is set, the mode-line lighter.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-ui)

(defmacro sources-tests--in-project (var &rest body)
  "Run BODY with VAR a fresh project directory holding .git, then delete it."
  (declare (indent 1) (debug t))
  `(let ((,var (file-name-as-directory
                (file-truename (make-temp-file "gptel-rust-hooks-sources-" t)))))
     (unwind-protect
         (progn (make-directory (expand-file-name ".git" ,var))
                (make-directory (expand-file-name "src" ,var))
                ,@body)
       (delete-directory ,var t))))

(defun sources-tests--decide (call directory)
  "Return the pre-tool answer for CALL from DIRECTORY."
  (let ((default-directory directory))
    (gptel-rust-hooks-pre-tool-call call)))

;;;; Presets

(ert-deftest preset::workspace-reads-and-writes-in-the-project-only ()
  "`workspace' allows reads and writes inside the project, not outside."
  (sources-tests--in-project root
    (gptel-rust-hooks-test-with-state
      (let ((gptel-rust-hooks-preset 'workspace)
            (gptel-rust-hooks-sandbox-program "gptel-rust-hooks-no-such-bwrap")
            (src (expand-file-name "src/" root)))
        (should (equal (sources-tests--decide
                        `(:name "read_file" :args (:path ,(expand-file-name "a.c" src))) src)
                       '(:confirm nil)))
        (should (equal (sources-tests--decide
                        `(:name "write_file" :args (:path ,(expand-file-name "a.c" src)
                                                         :content "x"))
                        src)
                       '(:confirm nil)))
        ;; Outside the project: no rule decides.
        (should (null (sources-tests--decide
                       '(:name "read_file" :args (:path "/etc/hostname")) src)))
        (should (null (sources-tests--decide
                       '(:name "write_file" :args (:path "/etc/x" :content "x")) src)))
        ;; Into .git: asked, with a reason; any .git in the project, as
        ;; `git -C sub status' obeys sub/.git/config (core.fsmonitor).
        (dolist (file '(".git/hooks/pre-commit" "sub/.git/config" "a/b/.git"))
          (should (equal (sources-tests--decide
                          `(:name "write_file" :args (:path ,(expand-file-name file root)
                                                           :content "x"))
                          src)
                         '(:confirm t))))
        ;; Read-only commands from the project run; others are left undecided.
        (should (equal (sources-tests--decide '(:name "shell" :args (:command "git log -3")) src)
                       '(:confirm nil)))
        (should (equal (sources-tests--decide '(:name "shell" :args (:command "cat a.c | wc -l"))
                                              src)
                       '(:confirm nil)))
        (should (null (sources-tests--decide '(:name "shell" :args (:command "make"))
                                             src)))
        ;; From the home directory (no project), no command is allowed.
        (should (null (sources-tests--decide '(:name "shell" :args (:command "git log -3"))
                                             "~/")))
        (should (null (sources-tests--decide '(:name "shell" :args (:command "git status && make"))
                                             src)))
        ;; A read-only command that writes (a redirection, git's --output) is
        ;; left undecided, and so is one whose option runs a program.
        (dolist (command '("cat a.c > ~/.bashrc" "git diff > p.txt" "ls > /dev/nullx"
                           "ls >& out.txt" "cat a.c 2> err.txt" "echo \"$(cat a > b)\""
                           "git diff --output=/etc/x" "git log --output /etc/x"
                           "git log --out=/etc/x" "rg --pre ./x y" "git branch -D main"
                           "sort -o out.txt a.c" "sed -n 1p a.c"
                           "echo \"${v:-$(cat a > b)}\"" "v=1; echo \"$v`cat a > b`\""
                           ;; git's --output quoted, split or from a value.
                           "git log \"--output=Makefile\"" "git log '--outpu''t=x'"
                           "git log -\\-output=x" "v=--output=x; git log \"$v\""
                           ;; A prefix allows the words after it: `git remote -v' is
                           ;; not in the list (`git remote -v set-url ...').
                           "git remote -v set-url origin https://example.invalid/x"))
          (should (null (sources-tests--decide `(:name "shell" :args (:command ,command))
                                               src))))
        ;; No write: to /dev/null, descriptors duplicated, `>' in quotes,
        ;; `--o...' options other than `--ou...'; glue commands (cd, echo,
        ;; test, true) of the list.  (`ls 2>&1' was asked before: an
        ;; over-block, now allowed.)
        (dolist (command '("ls 2>&1" "git status 2>/dev/null" "git diff 2>&1 | tail -20"
                           "git log --oneline -10" "grep -rn '=>' src"
                           "grep -n \"x > 0\" a.c" "cd src && ls"
                           "grep -q x a.c && echo yes" "grep x a.c || true"
                           "[ -d src ] && echo dir" "ls >/dev/null 2>&1"
                           ;; Double quotes where only a variable is expanded.
                           "v=1; [ \"$v\" = x ] && echo \"$v > ${v}\""
                           "for f in a.c; do grep -n x \"$f\"; done"))
          (should (equal (sources-tests--decide `(:name "shell" :args (:command ,command))
                                                src)
                         '(:confirm nil))))
        ;; Options that only read still pass.
        (should (equal (sources-tests--decide '(:name "shell" :args (:command "git log -p --stat"))
                                              src)
                       '(:confirm nil)))
        ;; Listings of branches, tags and stashes, and checksums, only read.
        (dolist (command '("git branch --list" "git branch --list -a -v" "git branch --show-current"
                           "git tag -l 'v*'" "git tag --list --sort=-v:refname" "git stash list"
                           "sha256sum a.c b.c" "md5sum a.c" "sha1sum a.c | cut -d' ' -f1"))
          (should (equal (sources-tests--decide `(:name "shell" :args (:command ,command))
                                                src)
                         '(:confirm nil))))
        ;; ... but not their forms that write, nor commands one of whose options or
        ;; operands writes or runs, nor the environment (API keys): not allowed.
        ;; (`git branch --list -D x' is: git refuses it, as it refuses `-m', `-c',
        ;; `--set-upstream-to' with `--list'.  `sha256sum -c' reads file names
        ;; from its file: the secrets rule's unsure match asks.)
        (dolist (command '("git branch" "git branch new" "git branch -m a b" "git tag v1"
                           "git tag -d v1" "git stash" "git stash drop" "git stash pop"
                           "sha256sum -c sums.txt" "sort a.c" "uniq a.c b.c" "find . -delete"
                           "xxd a.c out.bin" "env" "jq -n env" "head -n 3 a.c > ~/.bashrc"))
          (should-not (equal (sources-tests--decide `(:name "shell" :args (:command ,command))
                                                    src)
                             '(:confirm nil))))))))

(ert-deftest preset::read-only-does-not-allow-writes ()
  "`read-only' allows reads in the project but leaves writes undecided."
  (sources-tests--in-project root
    (gptel-rust-hooks-test-with-state
      (let ((gptel-rust-hooks-preset 'read-only)
            (src (expand-file-name "src/" root)))
        (should (equal (sources-tests--decide
                        `(:name "read_file" :args (:path ,(expand-file-name "a.c" src))) src)
                       '(:confirm nil)))
        (should (null (sources-tests--decide
                       `(:name "write_file" :args (:path ,(expand-file-name "a.c" src)
                                                        :content "x"))
                       src)))))))

(ert-deftest preset::secrets-and-recursive-deletes-denied ()
  "Secrets are denied everywhere; recursive deletes outside the project too."
  (sources-tests--in-project root
    (gptel-rust-hooks-test-with-state
      (let ((gptel-rust-hooks-preset 'read-only))
        (dolist (call '((:name "shell" :args (:command "cat ~/.ssh/id_rsa"))
                        (:name "read_file" :args (:path "~/.aws/credentials"))
                        (:name "shell" :args (:command "ls ~/.gnupg"))
                        ;; The environment holds API keys.
                        (:name "shell" :args (:command "cat /proc/self/environ"))))
          (should (string-prefix-p "This file holds secrets"
                                   (plist-get (sources-tests--decide call root) :block))))
        (let ((env (expand-file-name ".env" root)))
          (should (plist-get (sources-tests--decide
                              `(:name "read_file" :args (:path ,env)) root)
                             :block)))
        ;; An example file is no secret: read in the project, allowed.
        (should (equal (sources-tests--decide
                        `(:name "read_file" :args (:path ,(expand-file-name ".env.example" root)))
                        root)
                       '(:confirm nil)))
        ;; Other dotenv files, private keys and tools' tokens are.
        (dolist (file '(".envrc" ".env.development" ".env.staging" ".env.test"
                        "tls/server.key" "certs/privkey.pem" "certs/app-key.pem"))
          (should (string-prefix-p "This file holds secrets"
                                   (plist-get (sources-tests--decide
                                               `(:name "read_file"
                                                       :args (:path ,(expand-file-name file root)))
                                               root)
                                              :block))))
        (dolist (command '("cat ~/.cargo/credentials.toml" "cat ~/.cargo/credentials"
                           "cat ~/.vault-token" "cat ~/.terraform.d/credentials.tfrc.json"
                           "cat ~/.config/hub" "cat .envrc"
                           "git credential-store get"))
          (should (string-prefix-p "This file holds secrets"
                                   (plist-get (sources-tests--decide
                                               `(:name "shell" :args (:command ,command))
                                               root)
                                              :block))))
        ;; Example and template files, and certificates, are not.
        (dolist (file '(".env.sample" ".env.template" "certs/ca.pem"))
          (should (equal (sources-tests--decide
                          `(:name "read_file" :args (:path ,(expand-file-name file root)))
                          root)
                         '(:confirm nil))))
        ;; rm takes any unique prefix of `--recursive'.
        (dolist (command '("rm -rf ~/work" "rm --re -f ~/work" "rm --recur ~/work"
                           "rm -f --recursive ~/work"))
          (should (string-prefix-p "Recursive deletes outside the project"
                                   (plist-get (sources-tests--decide
                                               `(:name "shell" :args (:command ,command))
                                               root)
                                              :block))))
        ;; Inside the project, or in the temporary directory: not denied.
        (should-not (plist-get (sources-tests--decide
                                '(:name "shell" :args (:command "rm -rf build")) root)
                               :block))
        (should-not (plist-get (sources-tests--decide
                                `(:name "shell" :args (:command ,(concat "rm -r "
                                                                         temporary-file-directory
                                                                         "x")))
                                root)
                               :block))))))

(ert-deftest preset::no-project-in-home-only-denials ()
  "From the home directory, a preset allows nothing and still denies secrets."
  (gptel-rust-hooks-test-with-state
    (let ((gptel-rust-hooks-preset 'workspace))
      (should (null (gptel-rust-hooks--preset-root "~/")))
      (should (null (sources-tests--decide
                     '(:name "read_file" :args (:path "~/notes.txt")) "~/")))
      (should (plist-get (sources-tests--decide
                          '(:name "read_file" :args (:path "~/.ssh/id_ed25519")) "~/")
                         :block)))))

(ert-deftest preset::user-rules-extend-and-narrow-it ()
  "The user's rules come after the preset: they add allows and can deny."
  (sources-tests--in-project root
    (gptel-rust-hooks-test-with-state
      (let ((gptel-rust-hooks-preset 'workspace))
        (customize-set-variable 'gptel-rust-hooks-rules
                                '((:id "make" :command-prefix "make" :decision allow)
                                  (:id "no-log" :command-prefix "git log" :decision deny
                                       :reason "No log.")))
        (should (equal (sources-tests--decide '(:name "shell" :args (:command "make test")) root)
                       '(:confirm nil)))
        (should (equal (sources-tests--decide '(:name "shell" :args (:command "git log")) root)
                       '(:block "No log.")))
        ;; The explanation names the preset as the source of its rules.
        (let* ((data (gptel-rust-hooks-explain
                      `(:name "read_file" :args (:path ,(expand-file-name "x" root)) :cwd ,root)))
               (deciding (cl-find-if (lambda (r) (plist-get r :deciding)) (plist-get data :rules))))
          (should (equal (plist-get deciding :source) "preset: workspace"))
          (should (string-prefix-p "read-in-project" (plist-get deciding :id))))))))

(ert-deftest preset::unknown-preset-fails-closed ()
  "A misspelt preset blocks calls; the user is told which preset, the model only that it is misconfigured."
  (gptel-rust-hooks-test-with-state
    (let ((gptel-rust-hooks-preset 'worksapce)
          (gptel-rust-hooks--reported nil))
      (let ((block (plist-get (sources-tests--decide
                               '(:name "read_file" :args (:path "/x"))
                               temporary-file-directory)
                              :block)))
        (should (string-match-p "misconfigured" block))
        (should (cl-some (lambda (m) (string-match-p "unknown preset `worksapce`" m))
                         gptel-rust-hooks--reported))))))

;;;; Rules added from the prompt

(ert-deftest prompt::always-allow-for-the-project-persists-without-init-file ()
  "Under Emacs -Q (no custom file) a project rule is saved in its own file."
  (sources-tests--in-project root
    (gptel-rust-hooks-test-with-state
      (let* ((file (make-temp-file "gptel-rust-hooks-added-" nil ".eld"))
             (gptel-rust-hooks-prompt-rules-file file)
             (custom-file nil)
             (user-init-file nil))
        (unwind-protect
            (progn
              (delete-file file)
              (let* ((rule (gptel-rust-hooks-ui--always-rule
                            'prefix '(:name "shell" :args (:command "make test")) nil '("make")))
                     (added (gptel-rust-hooks-ui--add-rule rule 'project nil root)))
                (should (file-exists-p file))
                ;; A new session reads it back, as it was added.
                (let ((gptel-rust-hooks--prompt-rules :unread))
                  (should (equal (gptel-rust-hooks--prompt-rules) (list added))))
                ;; In force for the project, not elsewhere.
                (should (equal (sources-tests--decide
                                '(:name "shell" :args (:command "make test")) root)
                               '(:confirm nil)))
                (should (null (sources-tests--decide
                               '(:name "shell" :args (:command "make test"))
                               temporary-file-directory)))
                (should (null gptel-rust-hooks-rules))))
          (when (file-exists-p file) (delete-file file)))))))

(ert-deftest prompt::a-broken-file-is-reported-and-adds-nothing ()
  "A prompt rules file that does not read or compile is reported once."
  (gptel-rust-hooks-test-with-state
    (let* ((file (make-temp-file "gptel-rust-hooks-added-" nil ".eld" "((:tool \"x\" :decison allow))"))
           (gptel-rust-hooks-prompt-rules-file file))
      (unwind-protect
          (progn
            (should (null (gptel-rust-hooks--prompt-rules)))
            (should (cl-some (lambda (m) (string-match-p "decison" m))
                             gptel-rust-hooks--reported))
            ;; The other rules still decide.
            (customize-set-variable 'gptel-rust-hooks-rules '((:tool "y" :decision deny)))
            (should (plist-get (sources-tests--decide '(:name "y" :args nil)
                                                      temporary-file-directory)
                               :block))
            ;; Fixed: read again.
            (with-temp-file file (insert "((:tool \"x\" :decision allow))"))
            (set-file-times file (time-add nil 5))
            (should (equal (gptel-rust-hooks--prompt-rules) '((:tool "x" :decision allow)))))
        (delete-file file)))))

(ert-deftest prompt::file-edited-outside-emacs-seen-on-the-next-call ()
  "A change to the prompt rules file takes effect on the next call."
  (gptel-rust-hooks-test-with-state
    (let* ((file (make-temp-file "gptel-rust-hooks-added-" nil ".eld"
                                 "((:tool \"x\" :decision allow))"))
           (gptel-rust-hooks-prompt-rules-file file))
      (unwind-protect
          (progn
            (should (equal (sources-tests--decide '(:name "x" :args nil) temporary-file-directory)
                           '(:confirm nil)))
            (with-temp-file file (insert "((:tool \"x\" :decision deny :reason \"Now no.\"))"))
            (set-file-times file (time-add nil 5))
            (should (equal (sources-tests--decide '(:name "x" :args nil) temporary-file-directory)
                           '(:block "Now no."))))
        (delete-file file)))))

(ert-deftest prompt::trust-says-whether-it-was-saved ()
  "Trusting a project says where it was saved, or that it lasts the session."
  (sources-tests--in-project root
    (gptel-rust-hooks-test-with-state
      (let ((file (expand-file-name ".gptel-hooks.json" root))
            (messages nil))
        (with-temp-file file (insert "[]"))
        (cl-letf (((symbol-function 'message)
                   (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
          (gptel-rust-hooks-trust-project file))
        (should (gptel-rust-hooks-project-trusted-p file))
        (should (string-match-p "for this session only" (car messages)))
        (let* ((saved (make-temp-file "gptel-rust-hooks-custom-" nil ".el"))
               (custom-file saved)
               (user-init-file saved))
          (unwind-protect
              (progn
                (cl-letf (((symbol-function 'message)
                           (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
                  (gptel-rust-hooks-trust-project file))
                (should (string-match-p (regexp-quote (format "saved in %s"
                                                              (abbreviate-file-name saved)))
                                        (car messages)))
                (should (string-match-p (regexp-quote file)
                                        (with-temp-buffer (insert-file-contents saved)
                                                          (buffer-string)))))
            (delete-file saved)))))))

;;;; Disabled rules

(ert-deftest disabled::rule-not-in-force ()
  "A rule marked :disabled t is left out of the policy."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules
                            '((:id "off" :tool "x" :decision deny :disabled t)
                              (:id "on" :tool "y" :decision deny)))
    (should (null (sources-tests--decide '(:name "x" :args nil) temporary-file-directory)))
    (should (plist-get (sources-tests--decide '(:name "y" :args nil) temporary-file-directory)
                       :block))
    ;; The same list gives the same filtered list: the policy is reused.
    (should (eq (gptel-rust-hooks--enabled gptel-rust-hooks-rules)
                (gptel-rust-hooks--enabled gptel-rust-hooks-rules)))))

;;;; Checks on the rules

(ert-deftest check::emacs-regexp-warned-with-the-rust-form ()
  "An Emacs-syntax regexp is warned once, naming the rule, with the Rust syntax."
  (gptel-rust-hooks-test-with-state
    (customize-set-variable 'gptel-rust-hooks-rules
                            '((:id "fetch" :command-regexp "^\\(curl\\|wget\\) " :decision ask)
                              (:id "fine" :command-regexp "^(curl|wget) " :decision ask)
                              (:id "end" :tool-regexp "read\\'" :decision ask)))
    (let ((warnings (reverse (cl-remove-if-not (lambda (m) (string-match-p "Emacs regexp" m))
                                               gptel-rust-hooks--reported))))
      (should (= (length warnings) 2))
      (should (string-match-p (regexp-quote "rule 3 (`end`): :tool-regexp `read\\'`")
                              (cadr warnings)))
      (should (string-match-p (regexp-quote "`read\\z`") (cadr warnings)))
      (should (string-match-p (regexp-quote "rule 1 (`fetch`): :command-regexp")
                              (car warnings)))
      (should (string-match-p (regexp-quote "`^(curl|wget) `") (car warnings))))
    (should (equal (gptel-rust-hooks--emacs-regexp-p "\\`foo\\'") "\\Afoo\\z"))
    (should (equal (gptel-rust-hooks--emacs-regexp-p "\\(?:a\\|b\\)") "(?:a|b)"))
    (should (null (gptel-rust-hooks--emacs-regexp-p "^(a|b)\\.el$")))
    (should (equal (gptel-rust-hooks--regexp-warnings
                    '((:args (:command (:regexp "a\\|b")) :decision deny)))
                   '("rule 1: :args :command (:regexp ...) `a\\|b` looks like an Emacs regexp, \
which never matches here: write it in Rust regex syntax, `a|b`")))))

(ert-deftest check::policy-file-with-trailing-comma-refused-when-set ()
  "Setting the policy files checks them: a bad one is refused, the old ones stay."
  (gptel-rust-hooks-test-with-state
    (let ((good (make-temp-file "gptel-rust-hooks-good-" nil ".json"
                                "[{\"tool\": \"x\", \"decision\": \"deny\"}]"))
          (comma (make-temp-file "gptel-rust-hooks-comma-" nil ".json"
                                 "[{\"tool\": \"x\", \"decision\": \"deny\"},]"))
          (typo (make-temp-file "gptel-rust-hooks-typo-" nil ".json"
                                "[{\"tool\": \"x\", \"decison\": \"deny\"}]")))
      (unwind-protect
          (progn
            (customize-set-variable 'gptel-rust-hooks-policy-files (list good))
            (should (equal gptel-rust-hooks-policy-files (list good)))
            (let ((err (should-error (customize-set-variable 'gptel-rust-hooks-policy-files
                                                             (list good comma))
                                     :type 'gptel-rust-hooks-rule-error)))
              (should (string-match-p "not valid JSON" (cadr err))))
            (let ((err (should-error (customize-set-variable 'gptel-rust-hooks-policy-files
                                                             (list typo))
                                     :type 'gptel-rust-hooks-rule-error)))
              (should (string-match-p "decison" (cadr err))))
            (should-error (customize-set-variable 'gptel-rust-hooks-policy-files
                                                  (list "/nonexistent/policy.json"))
                          :type 'gptel-rust-hooks-rule-error)
            (should (equal gptel-rust-hooks-policy-files (list good)))
            (should (plist-get (sources-tests--decide '(:name "x" :args nil)
                                                      temporary-file-directory)
                               :block)))
        (mapc #'delete-file (list good comma typo))))))

(ert-deftest check::lighter-shows-a-broken-policy ()
  "The lighter is \" GRH\", and \" GRH!\" when a policy file never compiled."
  (gptel-rust-hooks-test-with-state
    (let ((gptel-rust-hooks--broken nil)
          (bad (make-temp-file "gptel-rust-hooks-bad-" nil ".json" "[{\"tool\": 3}]")))
      (unwind-protect
          (progn
            (should (equal (substring-no-properties (gptel-rust-hooks--lighter)) " GRH"))
            ;; Set without the check, as `setq' does.
            (setq gptel-rust-hooks-policy-files (list bad))
            (should (plist-get (sources-tests--decide '(:name "x" :args nil)
                                                      temporary-file-directory)
                               :block))
            (should (equal (substring-no-properties (gptel-rust-hooks--lighter)) " GRH!"))
            (should (eq (get-text-property 0 'face (gptel-rust-hooks--lighter)) 'error))
            (setq gptel-rust-hooks-policy-files nil)
            (sources-tests--decide '(:name "x" :args nil) temporary-file-directory)
            (should (equal (substring-no-properties (gptel-rust-hooks--lighter)) " GRH")))
        (delete-file bad)))))

;;;; The sandbox's private temporary directory

(ert-deftest sandbox-temp::note-when-writes-would-be-lost ()
  "A sandboxed command that writes in the private /tmp is told so."
  (let* ((temp (file-name-as-directory (file-truename (make-temp-file "grh-temp-" t))))
         (temporary-file-directory temp)
         (project (expand-file-name "proj/" temp))
         (src (expand-file-name "src/" project)))
    (unwind-protect
        (progn
          (make-directory (expand-file-name ".git" project) t)
          (make-directory src t)
          ;; A path in the temporary directory, outside the command's directory.
          (should (string-match-p
                   "it names a path in"
                   (gptel-rust-hooks-ui--private-temp-note
                    (format "echo hi > %sout.txt" temp) project)))
          ;; Inside the command's directory: bound into the sandbox, kept.
          (should (null (gptel-rust-hooks-ui--private-temp-note
                         (format "echo hi > %sout.txt" project) project)))
          (should (null (gptel-rust-hooks-ui--private-temp-note "echo hi > out.txt" project)))
          ;; A project in the temporary directory, run from below its root.
          (should (string-match-p "the project .* lies in it"
                                  (gptel-rust-hooks-ui--private-temp-note "ls" src)))
          ;; A home directory there.
          (let ((process-environment (cons (concat "HOME=" (expand-file-name "home" temp))
                                           process-environment)))
            (make-directory (expand-file-name "home" temp) t)
            (should (string-match-p "the home directory .* lies in it"
                                    (gptel-rust-hooks-ui--private-temp-note "ls" project)))))
      (delete-directory temp t))))

(ert-deftest sandbox-temp::the-model-and-the-user-are-told ()
  "Through gptel, the note reaches the model's result and the echo area."
  (let* ((temp (file-name-as-directory (file-truename (make-temp-file "grh-temp-" t))))
         (project (expand-file-name "proj/" temp))
         (messages nil))
    (unwind-protect
        (progn
          (make-directory (expand-file-name ".git" project) t)
          (gptel-rust-hooks-test-with-mode
              '((:tool "shell" :decision allow :sandbox t))
            (let ((temporary-file-directory temp))
              (cl-letf* ((msg (symbol-function 'message))
                         ((symbol-function 'message)
                          (lambda (fmt &rest args)
                            (when (stringp fmt) (push (apply #'format fmt args) messages))
                            (apply msg fmt args))))
                (let ((r (gptel-rust-hooks-test-with-conversation
                           :script `((:tool-calls ((:name "shell"
                                                          :args (:command ,(format "echo hi > %sx" temp))
                                                          :id "c1")))
                                     (:content "Done."))
                           :tools '(("shell" ("command")))
                           :directory project)))
                  (should (eq (plist-get r :state) 'DONE))
                  (let ((result (plist-get (car (cadr (plist-get r :tool-messages))) :content)))
                    (should (string-prefix-p "shell: ok\n\ngptel-rust-hooks: this command ran in a sandbox"
                                             result)))
                  (should (cl-some (lambda (m) (string-match-p "ran in a sandbox whose temporary" m))
                                   messages)))))))
      (delete-directory temp t))))

;;;; Blocked calls in the chat

(ert-deftest chat::blocked-tool-block-is-marked ()
  "A denied call's tool block in the chat is marked; an allowed one is not."
  (let ((marked nil))
    (cl-letf* ((mark (symbol-function 'gptel-rust-hooks-ui--mark-blocked))
               ((symbol-function 'gptel-rust-hooks-ui--mark-blocked)
                (lambda (display results info)
                  (prog1 (funcall mark display results info)
                    ;; What the chat shows, while it exists.
                    (with-current-buffer (marker-buffer (plist-get info :position))
                      (dolist (ov (overlays-in (point-min) (point-max)))
                        (when (overlay-get ov 'gptel-rust-hooks-blocked)
                          (push (list (overlay-get ov 'before-string)
                                      (overlay-get ov 'face)
                                      (buffer-substring-no-properties (overlay-start ov)
                                                                      (overlay-end ov)))
                                marked))))))))
      (gptel-rust-hooks-test-with-mode
          '((:tool "shell" :command-prefix "rm" :decision deny :reason "No rm."))
        (let ((r (gptel-rust-hooks-test-with-conversation
                   :script '((:tool-calls ((:name "shell" :args (:command "rm -rf /x") :id "c1")
                                           (:name "read_file" :args (:path "/etc/hostname")
                                                  :id "c2")))
                             (:content "Done."))
                   :tools '(("shell" ("command")) ("read_file" ("path")))
                   :include-tool-results t)))
          (should (eq (plist-get r :state) 'DONE))
          (setq marked (delete-dups marked))
          (should (= (length marked) 1))
          (should (equal (nth 0 (car marked)) "blocked: "))
          (should (eq (nth 1 (car marked)) 'gptel-rust-hooks-blocked-block))
          (should (string-prefix-p "``` tool (shell " (nth 2 (car marked)))))))))

(provide 'sources-tests)
;;; sources-tests.el ends here
