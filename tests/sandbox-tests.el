;;; sandbox-tests.el --- Sandboxed calls in real conversations, through real bubblewrap  -*- lexical-binding: t; -*-

;;; Commentary:

;; DESIGN.md "Sandboxed calls": a rule's `:sandbox' runs the shell command
;; of a call that will run under bubblewrap.  Each test runs a whole
;; conversation against tests/fake_openai_server.py (`gptel-send', or a
;; plain `gptel-request', whose tools run where no hook does), with a
;; shell tool whose function really runs the command it is given
;; (`shell-command-to-string', or `call-process' for a command given as
;; words).  The command runs a script the rules cannot see into, which
;; writes inside the project and outside it, reads a secret that a deny
;; rule names, and connects to a port the test listens on; the tests
;; assert the real effects: the files present or absent, what the
;; listener received, what the model was sent back, and that the model's
;; record of its call is the command it wrote.
;;
;; The fixture lives outside the temporary directory (which the sandbox
;; makes private), so that "outside the project" means the host's files.

;;; Code:

(require 'test-helper)
(require 'gptel-rust-hooks)
(require 'gptel-rust-hooks-log)

(defvar gptel-rust-hooks-sandbox-program)
(defvar gptel-rust-hooks-sandbox-socket-dirs)

;;;; Fixture

(defun sandbox-tests--probe-script (outside secret)
  "Return the text of the probe: it writes in and OUTSIDE, reads SECRET, connects.
Each attempt prints one line, `NAME: ok' (or the secret's text), else
`NAME: ERRNO': inside (a file in the current directory), outside (a
file in OUTSIDE), secret (the file SECRET), network (a connection to
127.0.0.1 at the port given as the first argument, sending a greeting)."
  (format "import errno, os, socket, sys
OUTSIDE = %S
SECRET = %S
def why(e):
    n = getattr(e, 'errno', None)
    return errno.errorcode.get(n, type(e).__name__) if n else type(e).__name__
def attempt(name, action):
    try:
        print(name + ': ' + (action() or 'ok'))
    except Exception as e:
        print(name + ': ' + why(e))
def write(path):
    with open(path, 'w') as f:
        f.write('written by the probe\\n')
def read(path):
    with open(path) as f:
        return f.read().strip()
def connect():
    with socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=3) as s:
        s.sendall(b'hello from the probe')
attempt('inside', lambda: write('inside.txt'))
attempt('outside', lambda: write(os.path.join(OUTSIDE, 'outside.txt')))
attempt('secret', lambda: read(SECRET))
attempt('network', connect)
" outside secret))

(defmacro sandbox-tests--with-fixture (var &rest body)
  "Run BODY with VAR bound to a fresh fixture, removed afterwards.
The fixture is a plist: `:root' (outside `temporary-file-directory'),
`:proj' (the request's directory, holding probe.py; a directory name),
`:outside' (a directory no default lets a command write), `:secret'
\(the file secret/key), `:secret-dir'."
  (declare (indent 1) (debug (symbolp body)))
  `(let* ((root (file-truename
                 (let ((temporary-file-directory "/var/tmp/"))
                   (make-temp-file "grh-sandbox-" t))))
          (,var (list :root root
                      :proj (file-name-as-directory (expand-file-name "proj" root))
                      :outside (expand-file-name "outside" root)
                      :secret-dir (expand-file-name "secret" root)
                      :secret (expand-file-name "secret/key" root))))
     (unwind-protect
         (progn
           (make-directory (plist-get ,var :proj) t)
           (make-directory (plist-get ,var :outside) t)
           (make-directory (plist-get ,var :secret-dir) t)
           (with-temp-file (plist-get ,var :secret) (insert "KEY-SECRET\n"))
           (with-temp-file (expand-file-name "probe.py" (plist-get ,var :proj))
             (insert (sandbox-tests--probe-script (plist-get ,var :outside)
                                                  (plist-get ,var :secret))))
           ,@body)
       (delete-directory root t))))

(defun sandbox-tests--exists (fx dir file)
  "Return non-nil when FILE exists in the fixture FX's directory DIR (a key)."
  (file-exists-p (expand-file-name file (plist-get fx dir))))

(defun sandbox-tests--secret-rule (fx)
  "Return the deny rule for the fixture FX's secret directory."
  `(:id "secrets" :path ,(concat (plist-get fx :secret-dir) "/**") :decision deny
        :reason "Secrets stay private."))

;;;; A listener on a loopback port

(defun sandbox-tests--listen ()
  "Listen on a free loopback port; return (PROCESS PORT RECEIVED).
RECEIVED is a cons whose car accumulates what connections sent."
  (let* ((received (list nil))
         (proc (make-network-process
                :name "grh-sandbox-listener" :server t :host "127.0.0.1" :service t
                :family 'ipv4 :noquery t
                :filter (lambda (_proc text)
                          (setcar received (concat (car received) text))))))
    (list proc (process-contact proc :service) received)))

(defun sandbox-tests--received (listener expect)
  "Return what LISTENER received, waiting up to 3 s when EXPECT, else 0.3 s."
  (let ((deadline (+ (float-time) (if expect 3 0.3))))
    (while (and (< (float-time) deadline)
                (not (and expect (car (nth 2 listener)))))
      (accept-process-output nil 0.05))
    (car (nth 2 listener))))

(defmacro sandbox-tests--with-listener (var &rest body)
  "Run BODY with VAR bound to a listener (see `sandbox-tests--listen')."
  (declare (indent 1) (debug (symbolp body)))
  `(let ((,var (sandbox-tests--listen)))
     (unwind-protect (progn ,@body)
       (delete-process (car ,var)))))

;;;; Tools that really run their command

(defun sandbox-tests--shell-tool ()
  "Return a shell tool spec that runs its command with `shell-command-to-string'."
  (list "shell" '("command")
        :result (lambda (received)
                  (shell-command-to-string (plist-get received :command)))))

(defun sandbox-tests--argv-tool ()
  "Return a tool spec running its command, a list of words, with `call-process'."
  (list "run" '(("command" array))
        :result (lambda (received)
                  (let ((argv (append (plist-get received :command) nil)))
                    (with-output-to-string
                      (apply #'call-process (car argv) nil standard-output nil
                             (cdr argv)))))))

(defun sandbox-tests--probe (listener)
  "Return the command line that runs the probe against LISTENER's port."
  (format "python3 probe.py %d" (nth 1 listener)))

(defmacro sandbox-tests--with-prin1-overrides (&rest body)
  "Run BODY, where gptel may call `prin1' with Emacs 29's third argument.
gptel's inspect buffer prints calls with `prin1' OVERRIDES, which Emacs
28 lacks; there the argument is dropped (the calls print the same)."
  (declare (indent 0) (debug t))
  `(if (>= emacs-major-version 29)
       (progn ,@body)
     (let ((prin1 (symbol-function 'prin1)))
       (cl-letf (((symbol-function 'prin1)
                  (lambda (object &optional stream &rest _)
                    (funcall prin1 object stream))))
         ,@body))))

;;;; What came of a conversation

(defun sandbox-tests--sent (result)
  "Return the text the model was sent back for the only tool call in RESULT."
  (plist-get (car (car (last (plist-get result :tool-messages)))) :content))

(defun sandbox-tests--replayed (result id)
  "Return the arguments of tool call ID as the model's history in RESULT holds them."
  (cl-loop for m in (plist-get (car (last (plist-get result :requests))) :messages)
           thereis (cl-loop for c in (plist-get m :tool_calls)
                            when (equal (plist-get c :id) id)
                            return (gptel-rust-hooks-test--json-decode
                                    (plist-get (plist-get c :function) :arguments)))))

(defun sandbox-tests--ran-command (result)
  "Return the command the tool function of RESULT's first call received."
  (plist-get (cdr (car (plist-get result :ran))) :command))

(defun sandbox-tests--confined-p (command)
  "Return non-nil when COMMAND, as a tool received it, runs under bubblewrap."
  (if (stringp command)
      (string-match-p "\\`exec '/[^']*/bwrap' '--unshare-all' " command)
    (string-match-p "/bwrap\\'" (aref command 0))))

(defun sandbox-tests--conversation (command &rest spec)
  "Run a conversation in which the model asks the shell tool to run COMMAND.
SPEC is more keys for `gptel-rust-hooks-test--run-conversation'."
  (gptel-rust-hooks-test--run-conversation
   (append spec
           (list :script `((:tool-calls ((:name "shell" :args (:command ,command)
                                                :id "c1")))
                           (:content "done"))
                 :tools (list (sandbox-tests--shell-tool))))
   nil))

(defmacro sandbox-tests--with-mode (rules &rest body)
  "Run BODY with the mode on, RULES in force, an empty in-memory log."
  (declare (indent 1) (debug t))
  `(let ((gptel-rust-hooks-project-policies nil)
         (gptel-rust-hooks-policy-files nil)
         (gptel-rust-hooks--session-rules nil)
         (gptel-rust-hooks--cache nil)
         (gptel-rust-hooks-sandbox-program "bwrap")
         (gptel-rust-hooks-log-size 100)
         (gptel-rust-hooks-log-file nil)
         (gptel-rust-hooks-log--ring nil)
         (gptel-rust-hooks-log--next 0)
         (gptel-rust-hooks-log--count 0))
     (gptel-rust-hooks-test-with-mode ,rules ,@body)))

(defun sandbox-tests--check-done (result)
  "Check that the conversation RESULT ended normally after two requests."
  (should-not (plist-get result :timed-out))
  (should (eq (plist-get result :state) 'DONE))
  (should (= (length (plist-get result :requests)) 2)))

;;;; The defaults

(ert-deftest sandbox::defaults-confine-an-allowed-call ()
  "`:sandbox t': writes inside the project only, the denied secret hidden, no network."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-listener listener
      (sandbox-tests--with-mode
          `((:id "probe" :tool "shell" :command-prefix "python3 probe.py" :decision allow
                 :sandbox t)
            ,(sandbox-tests--secret-rule fx))
        (let* ((command (sandbox-tests--probe listener))
               (r (sandbox-tests--conversation command :directory (plist-get fx :proj))))
          (sandbox-tests--check-done r)
          ;; The tool function got the confined command, not asked first.
          (should (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
          (should-not (plist-get r :prompted))
          ;; The real effects.
          (should (sandbox-tests--exists fx :proj "inside.txt"))
          (should-not (sandbox-tests--exists fx :outside "outside.txt"))
          (should-not (sandbox-tests--received listener nil))
          (should (equal (sandbox-tests--sent r)
                         "inside: ok\noutside: EROFS\nsecret: ENOENT\nnetwork: ECONNREFUSED\n"))
          ;; The model's record of its call is the command it wrote.
          (should (equal (sandbox-tests--replayed r "c1") `(:command ,command)))
          ;; The log says it ran sandboxed, and how.
          (let ((entry (cl-find 'pre (gptel-rust-hooks-log-entries)
                                :key (lambda (e) (plist-get e :kind)))))
            (should (equal (plist-get entry :outcome) "allow"))
            (should (equal (plist-get entry :sandbox)
                           (format "write %s; private /tmp; hide %s; no network"
                                   (abbreviate-file-name
                                    (directory-file-name (plist-get fx :proj)))
                                   (abbreviate-file-name (plist-get fx :secret-dir)))))))))))

(ert-deftest sandbox::the-same-script-unconfined-does-it-all ()
  "Without `:sandbox' the probe writes outside, reads the secret and connects.
This is what the other tests' assertions would see if nothing confined the call."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-listener listener
      (sandbox-tests--with-mode
          '((:tool "shell" :command-prefix "python3 probe.py" :decision allow))
        (let ((r (sandbox-tests--conversation (sandbox-tests--probe listener)
                                              :directory (plist-get fx :proj))))
          (sandbox-tests--check-done r)
          (should-not (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
          (should (sandbox-tests--exists fx :outside "outside.txt"))
          (should (equal (sandbox-tests--received listener t) "hello from the probe"))
          (should (equal (sandbox-tests--sent r)
                         "inside: ok\noutside: ok\nsecret: KEY-SECRET\nnetwork: ok\n")))))))

(ert-deftest sandbox::extra-writable-directory-and-network ()
  "`:write (\".\" DIR) :network t': DIR is writable and the listener hears the probe."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-listener listener
      (sandbox-tests--with-mode
          `((:tool "shell" :command-prefix "python3 probe.py" :decision allow
                   :sandbox (:write ("." ,(plist-get fx :outside)) :network t))
            ,(sandbox-tests--secret-rule fx))
        (let ((r (sandbox-tests--conversation (sandbox-tests--probe listener)
                                              :directory (plist-get fx :proj))))
          (sandbox-tests--check-done r)
          (should (sandbox-tests--exists fx :proj "inside.txt"))
          (should (sandbox-tests--exists fx :outside "outside.txt"))
          (should (equal (sandbox-tests--received listener t) "hello from the probe"))
          (should (equal (sandbox-tests--sent r)
                         "inside: ok\noutside: ok\nsecret: ENOENT\nnetwork: ok\n")))))))

(ert-deftest sandbox::several-rules-combine-to-the-strictest ()
  "Two matching rules: writable only where both allow, hidden what either hides, network if both."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-listener listener
      (sandbox-tests--with-mode
          `((:id "wide" :tool "shell" :decision allow
                 :sandbox (:write ("." ,(plist-get fx :outside)) :network t))
            (:id "narrow" :command-prefix "python3"
                 :sandbox (:hide (,(plist-get fx :secret-dir)))))
        (let ((r (sandbox-tests--conversation (sandbox-tests--probe listener)
                                              :directory (plist-get fx :proj))))
          (sandbox-tests--check-done r)
          (should (sandbox-tests--exists fx :proj "inside.txt"))
          (should-not (sandbox-tests--exists fx :outside "outside.txt"))
          (should-not (sandbox-tests--received listener nil))
          (should (equal (sandbox-tests--sent r)
                         "inside: ok\noutside: EROFS\nsecret: ENOENT\nnetwork: ECONNREFUSED\n"))
          (let ((x (gptel-rust-hooks-explain
                    `(:name "shell" :args (:command ,(sandbox-tests--probe listener))
                            :cwd ,(plist-get fx :proj)))))
            (should (equal (mapcar (lambda (r) (plist-get r :rule))
                                   (plist-get (plist-get x :sandbox) :rules))
                           '("wide" "narrow")))
            (should (equal (plist-get (plist-get x :sandbox) :status) "confined"))))))))

(ert-deftest sandbox::a-command-given-as-words ()
  "A command given as a list of words runs confined the same way, through `call-process'."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-listener listener
      (sandbox-tests--with-mode
          `((:tool "run" :command-prefix "python3 probe.py" :decision allow :sandbox t)
            ,(sandbox-tests--secret-rule fx))
        (let* ((argv (vector "python3" "probe.py" (number-to-string (nth 1 listener))))
               (r (gptel-rust-hooks-test--run-conversation
                   (list :script `((:tool-calls ((:name "run" :args (:command ,argv)
                                                        :id "c1")))
                                   (:content "done"))
                         :tools (list (sandbox-tests--argv-tool))
                         :directory (plist-get fx :proj))
                   nil))
               (ran (sandbox-tests--ran-command r)))
          (sandbox-tests--check-done r)
          ;; gptel gives a JSON array as a vector: the tool gets a vector back.
          (should (vectorp ran))
          (should (sandbox-tests--confined-p ran))
          (should (equal (cl-subseq ran -4)
                         (vector "--" "python3" "probe.py"
                                 (number-to-string (nth 1 listener)))))
          (should (sandbox-tests--exists fx :proj "inside.txt"))
          (should-not (sandbox-tests--exists fx :outside "outside.txt"))
          (should-not (sandbox-tests--received listener nil))
          (should (equal (sandbox-tests--sent r)
                         "inside: ok\noutside: EROFS\nsecret: ENOENT\nnetwork: ECONNREFUSED\n"))
          (should (equal (sandbox-tests--replayed r "c1")
                         `(:command ("python3" "probe.py"
                                     ,(number-to-string (nth 1 listener)))))))))))

(ert-deftest sandbox::the-line-runs-as-written ()
  "Quotes, substitutions and special characters reach the confined shell unchanged."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode '((:tool "shell" :decision allow :sandbox t))
      (let* ((line "printf '%s|' \"it's\" 'a\"b' \"$(printf '%s' 'x  y')\" \\$HOME '`' ; echo")
             (default-directory (plist-get fx :proj))
             (plain (shell-command-to-string line))
             (r (sandbox-tests--conversation line :directory (plist-get fx :proj))))
        (sandbox-tests--check-done r)
        (should (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
        (should (equal plain "it's|a\"b|x  y|$HOME|`|\n"))
        (should (equal (sandbox-tests--sent r) plain))))))

;;;; What beats the sandbox, and what it never lets through

(ert-deftest sandbox::a-deny-rule-beats-the-sandbox ()
  "A deny rule matching the call blocks it: nothing runs, sandboxed or not."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        '((:tool "shell" :decision allow :sandbox t)
          (:id "no-python" :command-prefix "python3" :decision deny
               :reason "No Python here."))
      (let ((r (sandbox-tests--conversation "python3 probe.py 9"
                                            :directory (plist-get fx :proj))))
        (sandbox-tests--check-done r)
        (should-not (plist-get r :ran))
        (should-not (sandbox-tests--exists fx :proj "inside.txt"))
        (should (equal (sandbox-tests--sent r)
                       "<tool_call_error>\nNo Python here.\n</tool_call_error>"))))))

(ert-deftest sandbox::a-missing-sandbox-program-blocks-and-says-what-to-install ()
  "No bubblewrap: the sandboxed call is blocked, never run unconfined; others run."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        '((:id "probe" :tool "shell" :command-prefix "python3 probe.py" :decision allow
               :sandbox t)
          (:id "echo" :tool "shell" :command-prefix "echo" :decision allow))
      (dolist (program '("no-such-bwrap" "/nonexistent/bwrap"))
        (ert-info (program :prefix "Program: ")
          (let* ((gptel-rust-hooks-sandbox-program program)
                 (r (gptel-rust-hooks-test--run-conversation
                     (list :script '((:tool-calls
                                      ((:name "shell" :args (:command "python3 probe.py 9")
                                              :id "c1")
                                       (:name "shell" :args (:command "echo plain")
                                              :id "c2")))
                                     (:content "done"))
                           :tools (list (sandbox-tests--shell-tool))
                           :directory (plist-get fx :proj))
                     nil))
                 (sent (mapcar (lambda (m) (cons (plist-get m :tool_call_id)
                                                 (plist-get m :content)))
                               (car (last (plist-get r :tool-messages))))))
            (sandbox-tests--check-done r)
            (should (equal (plist-get r :ran) '(("shell" :command "echo plain"))))
            (should-not (sandbox-tests--exists fx :proj "inside.txt"))
            (should (equal (cdr (assoc "c2" sent)) "plain\n"))
            (should (equal (cdr (assoc "c1" sent))
                           (format "<tool_call_error>
gptel-rust-hooks: cannot sandbox the call (the :sandbox of `probe`): the sandbox program \
`%s` was not found; install bubblewrap (Debian, Ubuntu: `apt-get install bubblewrap`; \
Fedora: `dnf install bubblewrap`; Arch: `pacman -S bubblewrap`) or set \
`gptel-rust-hooks-sandbox-program`
</tool_call_error>" program)))))))))

(ert-deftest sandbox::no-decision-is-sandboxed-and-the-tool-confirm-sees-the-command ()
  "A rule with only `:sandbox' confines; a tool's `:confirm' function sees the command as written."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode '((:tool "shell" :sandbox t))
      (let* ((seen nil)
             (tool (append (sandbox-tests--shell-tool)
                           (list :confirm (lambda (command) (push command seen) nil))))
             (r (gptel-rust-hooks-test--run-conversation
                 (list :script '((:tool-calls ((:name "shell"
                                                      :args (:command "python3 probe.py 9")
                                                      :id "c1")))
                                 (:content "done"))
                       :tools (list tool)
                       :confirm-tool-calls 'auto
                       :directory (plist-get fx :proj))
                 nil)))
        (sandbox-tests--check-done r)
        (should (equal seen '("python3 probe.py 9")))
        (should-not (plist-get r :prompted))
        (should (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
        (should (sandbox-tests--exists fx :proj "inside.txt"))
        (should-not (sandbox-tests--exists fx :outside "outside.txt"))))))

;;;; Asking

(ert-deftest sandbox::ask-shows-that-the-call-will-run-sandboxed ()
  "The prompt shows the command as written and how it will be confined; accepted, it runs so."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        `((:id "probe" :tool "shell" :command-prefix "python3 probe.py" :decision ask
               :reason "Running the probe needs your confirmation." :sandbox t)
          ,(sandbox-tests--secret-rule fx))
      (let* ((shown nil)
             (r (sandbox-tests--conversation
                 "python3 probe.py 9"
                 :directory (plist-get fx :proj)
                 :on-confirm
                 (lambda (_asked)
                   (let* ((ov (gptel-rust-hooks-test--pending-overlay (current-buffer)))
                          (prompt (car (overlay-get ov 'prompt))))
                     (setq shown (concat (buffer-substring-no-properties
                                          (overlay-start prompt) (overlay-end prompt))
                                         (substring-no-properties
                                          (overlay-get prompt 'after-string)))))
                   'accept))))
        (sandbox-tests--check-done r)
        (should (equal (plist-get r :prompted) '(("shell" :command "python3 probe.py 9"))))
        (should (string-match-p (regexp-quote "(shell \"python3 probe.py 9\")") shown))
        (should-not (string-match-p "bwrap" shown))
        (should (string-match-p
                 (regexp-quote
                  (format "shell will run sandboxed: write %s; private /tmp; hide %s; no network"
                          (abbreviate-file-name (directory-file-name (plist-get fx :proj)))
                          (abbreviate-file-name (plist-get fx :secret-dir))))
                 shown))
        (should (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
        (should (equal (sandbox-tests--sent r)
                       "inside: ok\noutside: EROFS\nsecret: ENOENT\nnetwork: ECONNREFUSED\n"))
        (should (equal (plist-get (car (cl-remove 'post (gptel-rust-hooks-log-entries)
                                                  :key (lambda (e) (plist-get e :kind))))
                                  :outcome)
                       "ask"))))))

(ert-deftest sandbox::ask-in-the-minibuffer-runs-confined ()
  "Accepted from gptel's minibuffer prompt, the call runs confined too."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        '((:tool "shell" :command-prefix "python3 probe.py" :decision ask :sandbox t))
      (let* ((prompt nil)
             (r (sandbox-tests--conversation
                 "python3 probe.py 9"
                 :directory (plist-get fx :proj)
                 :on-confirm
                 (lambda (_asked)
                   (let* ((ov (gptel-rust-hooks-test--pending-overlay (current-buffer)))
                          (calls (overlay-get ov 'gptel-tool))
                          (info (overlay-get ov 'info)))
                     (dolist (p (overlay-get ov 'prompt))
                       (let ((inhibit-read-only t))
                         (delete-region (overlay-start p) (overlay-end p))))
                     (delete-overlay ov)
                     (cl-letf (((symbol-function 'read-multiple-choice)
                                (lambda (text choices &rest _)
                                  (setq prompt text)
                                  (assq ?y choices))))
                       (gptel--display-tool-calls calls info t)))
                   'handled))))
        (sandbox-tests--check-done r)
        (should (string-match-p "shell will run sandboxed: write " prompt))
        (should (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
        (should (sandbox-tests--exists fx :proj "inside.txt"))
        (should-not (sandbox-tests--exists fx :outside "outside.txt"))))))

(ert-deftest sandbox::a-call-you-edit-before-running-stays-confined ()
  "Edited in gptel's inspect buffer, a sandboxed call runs your edit in the same sandbox."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        '((:tool "shell" :command-prefix "python3 probe.py" :decision ask :sandbox t))
      (let ((r (sandbox-tests--conversation
                "python3 probe.py 9"
                :directory (plist-get fx :proj)
                :on-confirm
                (lambda (_asked)
                  (let ((ov (gptel-rust-hooks-test--pending-overlay (current-buffer))))
                    (sandbox-tests--with-prin1-overrides
                      (gptel--inspect-tool-calls (overlay-get ov 'gptel-tool)
                                                 (overlay-get ov 'info) ov))
                    (with-current-buffer "*gptel-tool-calls*"
                      (let ((inhibit-read-only t))
                        (goto-char (point-min))
                        (search-forward "python3 probe.py 9")
                        (replace-match
                         (format "echo edited > edited.txt; echo edited > %s/edited.txt"
                                 (plist-get fx :outside))
                         t t))
                      (gptel--inspect-accept-tool-calls)))
                  'handled))))
        (sandbox-tests--check-done r)
        (let ((ran (sandbox-tests--ran-command r)))
          (should (sandbox-tests--confined-p ran))
          (should (string-match-p "echo edited" ran)))
        (should (sandbox-tests--exists fx :proj "edited.txt"))
        (should-not (sandbox-tests--exists fx :outside "edited.txt"))))))

;;;; Where no hook runs

(ert-deftest sandbox::plain-gptel-request-runs-confined ()
  "A plain `gptel-request' (no pre-tool hook): decided at the tool runner, confined there."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-listener listener
      (sandbox-tests--with-mode
          `((:tool "shell" :command-prefix "python3 probe.py" :decision allow :sandbox t)
            ,(sandbox-tests--secret-rule fx))
        (dolist (handlers '(default agent-hooks))
          (ert-info ((symbol-name handlers) :prefix "Handlers: ")
            (delete-file (expand-file-name "inside.txt" (plist-get fx :proj)))
            (let* ((command (sandbox-tests--probe listener))
                   (r (gptel-rust-hooks-test-with-request
                        :script `((:tool-calls ((:name "shell" :args (:command ,command)
                                                       :id "c1")))
                                  (:content "done"))
                        :tools (list (sandbox-tests--shell-tool))
                        :handlers handlers
                        :directory (plist-get fx :proj))))
              (should-not (plist-get r :timed-out))
              (should (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
              (should (sandbox-tests--exists fx :proj "inside.txt"))
              (should-not (sandbox-tests--exists fx :outside "outside.txt"))
              (should-not (sandbox-tests--received listener nil))
              (should (equal (plist-get (car (cadr (plist-get r :tool-messages))) :content)
                             "inside: ok\noutside: EROFS\nsecret: ENOENT\nnetwork: ECONNREFUSED\n")))))))))

(ert-deftest sandbox::a-later-hook-edit-is-decided-and-confined ()
  "A hook function after ours that edits the command: the edit is decided, then confined."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        '((:tool "shell" :command-prefix "python3 probe.py" :decision allow :sandbox t))
      (let ((edit (lambda (info)
                    (and (equal (plist-get (plist-get info :args) :command) "python3 probe.py 9")
                         '(:args (:command "python3 probe.py 9 edited"))))))
        (add-hook 'gptel-pre-tool-call-functions edit 90)
        (unwind-protect
            (let ((r (sandbox-tests--conversation "python3 probe.py 9"
                                                  :directory (plist-get fx :proj))))
              (sandbox-tests--check-done r)
              (let ((ran (sandbox-tests--ran-command r)))
                (should (sandbox-tests--confined-p ran))
                (should (string-suffix-p "'-c' 'python3 probe.py 9 edited'" ran)))
              (should (sandbox-tests--exists fx :proj "inside.txt"))
              (should-not (sandbox-tests--exists fx :outside "outside.txt"))
              ;; The model's history shows the edit, as gptel injects it.
              (should (equal (sandbox-tests--replayed r "c1")
                             '(:command "python3 probe.py 9 edited"))))
          (remove-hook 'gptel-pre-tool-call-functions edit))))))

(ert-deftest sandbox::a-copied-argument-list-stays-confined ()
  "A hook function after ours that hands back an equal copy of the arguments: still confined."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        '((:tool "shell" :command-prefix "python3 probe.py" :decision allow :sandbox t))
      (let ((copy (lambda (info) (list :args (copy-sequence (plist-get info :args))))))
        (add-hook 'gptel-pre-tool-call-functions copy 90)
        (unwind-protect
            (let ((r (sandbox-tests--conversation "python3 probe.py 9"
                                                  :directory (plist-get fx :proj))))
              (sandbox-tests--check-done r)
              (should (sandbox-tests--confined-p (sandbox-tests--ran-command r)))
              (should (sandbox-tests--exists fx :proj "inside.txt"))
              (should-not (sandbox-tests--exists fx :outside "outside.txt")))
          (remove-hook 'gptel-pre-tool-call-functions copy))))))

;;;; Evaluating and explaining

(ert-deftest sandbox::evaluate-and-explain-show-the-sandbox ()
  "The answer of a sandboxed allow is gptel's; explain shows the specs and the confinement."
  (sandbox-tests--with-fixture fx
    (sandbox-tests--with-mode
        `((:id "tests" :tool "shell" :command-prefix "make" :decision allow
               :sandbox (:write ("." "~/.cache/go-build")))
          ,(sandbox-tests--secret-rule fx))
      (let* ((call `(:name "shell" :args (:command "make test") :cwd ,(plist-get fx :proj)))
             (x (gptel-rust-hooks-explain call))
             (sandbox (plist-get x :sandbox)))
        (should (equal (gptel-rust-hooks-evaluate call) '(:confirm nil)))
        (should (equal (plist-get sandbox :status) "confined"))
        (should (equal (plist-get (car (plist-get sandbox :rules)) :spec)
                       '(:write ("." "~/.cache/go-build") :network nil)))
        (should (equal (plist-get (plist-get sandbox :confinement) :hide)
                       (list (plist-get fx :secret-dir))))
        (should (equal (plist-get sandbox :keys) '("command")))
        (should (string-prefix-p "exec '" (plist-get (car (plist-get sandbox :commands))
                                                    :wrapped)))
        (with-current-buffer (gptel-rust-hooks-ui--show-explanation x call nil)
          (goto-char (point-min))
          (should (re-search-forward "^Sandbox +write .*; no network (by tests)$" nil t)))))))

(ert-deftest sandbox::the-log-file-records-the-sandbox ()
  "The JSON-lines log has each sandboxed call's confinement; the list shows it."
  (sandbox-tests--with-fixture fx
    (let ((file (make-temp-file "grh-sandbox-log-" nil ".jsonl")))
      (unwind-protect
          (sandbox-tests--with-mode
              `((:id "probe" :tool "shell" :decision allow :sandbox t)
                ,(sandbox-tests--secret-rule fx))
            (setq gptel-rust-hooks-log-file file)
            (let ((default-directory (plist-get fx :proj)))
              (gptel-rust-hooks-pre-tool-call '(:name "shell" :args (:command "ls"))))
            (let* ((line (with-temp-buffer
                           (insert-file-contents file)
                           (car (split-string (buffer-string) "\n" t))))
                   (json (json-parse-string line :object-type 'plist :array-type 'list
                                            :false-object nil)))
              (should (equal (plist-get json :outcome) "allow"))
              (should (equal (plist-get (plist-get json :sandbox) :write)
                             (list (directory-file-name (plist-get fx :proj)))))
              (should (equal (plist-get (plist-get json :sandbox) :hide)
                             (list (plist-get fx :secret-dir))))
              (should (equal (plist-get (plist-get json :sandbox) :network) nil))
              (should (equal (plist-get (plist-get json :sandbox) :rules) '("probe"))))
            (with-current-buffer (gptel-rust-hooks-log)
              (goto-char (point-min))
              (should (search-forward "allow +sandbox" nil t))
              (kill-buffer)))
        (delete-file file)))))

;;;; The demo

(declare-function gptel-rust-hooks-demo--sandboxed "demo" (backend))

(ert-deftest sandbox::the-demo-shows-a-sandboxed-run ()
  "`make demo' ends with `make test' run under examples/sandboxed-dev.json's sandbox."
  (load (expand-file-name "../examples/demo.el" gptel-rust-hooks-test-directory) nil t)
  (sandbox-tests--with-mode nil
    (let* ((gptel--known-tools (copy-tree gptel--known-tools))
           (backend (gptel-make-openai "demo" :key "none" :stream nil
                                       :host "127.0.0.1:9" :protocol "http"))
           (out (with-output-to-string (gptel-rust-hooks-demo--sandboxed backend))))
      (should (string-match-p "decided +allow \\+args by build-and-test" out))
      (should (string-match-p "sandboxed +write [^\n]*; no network\n" out))
      (should (string-match-p "the tool ran +exec '/[^']*/bwrap' " out))
      (should (string-match-p (concat "the model gets +write inside the project: ok\n"
                                      " +write outside the project: refused\n"
                                      " +connect to 127.0.0.1: refused\n")
                              out))
      (should (string-match-p "built.txt written, ../outside/escaped.txt absent" out))
      (should (string-match-p "the listener +received nothing" out)))))

;;;; Failing closed

(ert-deftest sandbox::remote-directories-and-other-shells-are-refused ()
  "A remote request directory, or a non-POSIX `shell-file-name', blocks a sandboxed line."
  (sandbox-tests--with-mode '((:id "box" :tool "shell" :decision allow :sandbox t))
    (let ((answer (gptel-rust-hooks-evaluate
                   '(:name "shell" :args (:command "ls") :cwd "/ssh:nohost:/srv/"))))
      (should (string-match-p "directory `/ssh:nohost:/srv/` is remote"
                              (plist-get answer :block))))
    (let ((shell-file-name "/usr/bin/fish"))
      (should (string-match-p
               "`/usr/bin/fish` (`shell-file-name`), which is not a POSIX shell"
               (plist-get (gptel-rust-hooks-evaluate
                           `(:name "shell" :args (:command "ls")
                                   :cwd ,temporary-file-directory))
                          :block))))))

(ert-deftest sandbox::mode-off-removes-exactly-the-advice-and-confines-nothing ()
  "On, gptel's argument mapping is advised; off, exactly that goes, and nothing sandboxes."
  (let ((was-on gptel-rust-hooks-mode))
    (unwind-protect
        (progn
          (gptel-rust-hooks-mode 1)
          (dolist (pair '((gptel-rust-hooks--sandbox-args . gptel--map-tool-args)
                          (gptel-rust-hooks--sandbox-running . gptel--accept-tool-calls)
                          (gptel-rust-hooks--sandbox-inspected
                           . gptel--inspect-accept-tool-calls)))
            (should (advice-member-p (car pair) (cdr pair))))
          (gptel-rust-hooks-mode -1)
          (dolist (pair '((gptel-rust-hooks--sandbox-args . gptel--map-tool-args)
                          (gptel-rust-hooks--sandbox-running . gptel--accept-tool-calls)
                          (gptel-rust-hooks--sandbox-inspected
                           . gptel--inspect-accept-tool-calls)))
            (should-not (advice-member-p (car pair) (cdr pair))))
          ;; With nothing to confine the command when gptel runs it, a
          ;; sandboxed call is blocked.
          (should (string-match-p
                   "`gptel-rust-hooks-mode' is off"
                   (plist-get (gptel-rust-hooks-evaluate
                               '(:name "shell" :args (:command "ls"))
                               '((:tool "shell" :decision allow :sandbox t)))
                              :block))))
      (gptel-rust-hooks-mode (if was-on 1 -1)))))

(ert-deftest sandbox::bad-rules-name-the-rule-and-the-key ()
  "A bad `:sandbox' is refused when the rules are set, naming rule and key."
  (gptel-rust-hooks-test-with-mode nil
    (should (equal (cadr (should-error
                          (customize-set-variable
                           'gptel-rust-hooks-rules
                           '((:id "a" :tool "x") (:id "b" :tool "x")
                             (:id "tests" :tool "shell" :sandbox (:write 3))))
                          :type 'gptel-rust-hooks-rule-error))
                   "rule 3 (`tests`): :sandbox: :write: expected a string or a list of \
strings, got a number `3`"))
    (should (equal (cadr (should-error
                          (customize-set-variable
                           'gptel-rust-hooks-rules
                           '((:id "no" :tool "shell" :decision deny :sandbox t)))
                          :type 'gptel-rust-hooks-rule-error))
                   "rule 1 (`no`): :sandbox: a deny rule never lets a call run, so its \
sandbox would never apply (put :sandbox on an allow or ask rule, or on a rule without \
:decision)"))))

(ert-deftest sandbox::socket-directories-expand-variables ()
  "Entries $VAR are the variable's value (skipped unset); a file stands for its directory.
An entry that does not exist is skipped: it does not stand for its parent."
  (let* ((dir (make-temp-file "grh-sockets-" t))
         (sock (expand-file-name "agent.1" dir))
         (process-environment (append (list (concat "GRH_SOCK=" sock)
                                            (concat "GRH_DIR=" dir))
                                      process-environment))
         (gptel-rust-hooks-sandbox-socket-dirs
          (list "/run" "$GRH_DIR" "$GRH_SOCK" "$GRH_UNSET_VARIABLE" ""
                (expand-file-name "no-such-dir" dir))))
    (unwind-protect
        (progn
          (with-temp-file sock)
          (should (equal (gptel-rust-hooks--socket-dirs)
                         (list "/run" dir dir))))
      (delete-directory dir t))))

(provide 'sandbox-tests)
;;; sandbox-tests.el ends here
