;;; demo.el --- Decide a batch of tool calls through gptel's hook path -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by `make demo':
;;
;;   emacs -Q --batch -L lisp ... -l examples/demo.el -f gptel-rust-hooks-demo-run
;;
;; Loads the package with the shipped policy examples/demo-policy.json, then
;; sends each call of examples/demo-calls.json through gptel's own
;; `gptel--handle-pre-tool' (the code that runs
;; `gptel-pre-tool-call-functions' for a request), and prints one line per
;; call: tool, short arguments, outcome, deciding rule, microseconds.
;;
;; Then it makes two calls through a plain `gptel-request' (gptel's own
;; state machine for it has no TPRE state: no pre-tool hook runs), as if
;; the model had asked for them, and shows that the package decides them
;; where gptel runs its tools: which tool functions ran, and what gptel
;; would send the model.
;;
;; Last, one sandboxed run with examples/sandboxed-dev.json: the model runs
;; `make test' in a scratch project whose Makefile writes inside the
;; project and outside it and connects to a port the demo listens on on
;; 127.0.0.1.  The rule `build-and-test' allows it under `:sandbox t', so
;; a real shell tool runs it under bubblewrap; the demo prints the
;; confinement, the command the tool function received, what the model
;; gets back and what really happened.

;;; Code:

(require 'cl-lib)
(require 'json)
(require 'gptel)
(require 'gptel-openai)
(require 'gptel-rust-hooks)

(defvar gptel-rust-hooks-demo--directory
  (file-name-directory (or load-file-name buffer-file-name))
  "The examples directory.")

(defun gptel-rust-hooks-demo--read-json (file)
  "Read the JSON FILE in the examples directory as plists and lists."
  (with-temp-buffer
    (insert-file-contents (expand-file-name file gptel-rust-hooks-demo--directory))
    (json-parse-buffer :object-type 'plist :array-type 'list
                       :null-object nil :false-object :json-false)))

(defun gptel-rust-hooks-demo--short (args)
  "Return ARGS, a plist, as one short line."
  (let ((text (mapconcat (lambda (pair)
                           (format "%s=%s" (substring (symbol-name (car pair)) 1)
                                   (if (stringp (cadr pair)) (cadr pair)
                                     (prin1-to-string (cadr pair)))))
                         (seq-partition args 2) " ")))
    (if (> (length text) 46) (concat (substring text 0 45) "…") text)))

(defun gptel-rust-hooks-demo--decide (backend buffer call)
  "Send CALL through gptel's pre-tool handler for a request from BUFFER.
BACKEND is the request's backend.  Return (TOOL-CALL INFO MICROSECONDS)."
  (let* ((tool-call (list :name (plist-get call :name)
                          :args (copy-tree (plist-get call :args))
                          :id "call_demo"))
         (data (list :messages
                     (vector (list :role "assistant" :content :null
                                   :tool_calls
                                   (vector (list :id "call_demo" :type "function"
                                                 :function
                                                 (list :name (plist-get call :name)
                                                       :arguments
                                                       (gptel--json-encode
                                                        (plist-get call :args)))))))))
         (info (list :buffer buffer :backend backend :model 'gpt-4o-mini
                     :data data :tools nil :tool-use (list tool-call)))
         ;; A table whose next state has no handler: nothing goes out.
         (fsm (gptel-make-fsm :state 'TOOL :table '((TOOL (t . DONE))) :handlers nil
                              :info info))
         (micros 0.0))
    (cl-letf* ((hook (symbol-function 'gptel-rust-hooks-pre-tool-call))
               ((symbol-function 'gptel-rust-hooks-pre-tool-call)
                (lambda (hook-info)
                  (let ((start (float-time)))
                    (prog1 (funcall hook hook-info)
                      (setq micros (* 1e6 (- (float-time) start))))))))
      (gptel--handle-pre-tool fsm))
    (list tool-call info micros)))

(defun gptel-rust-hooks-demo--outcome (original tool-call info)
  "Describe what gptel will do with TOOL-CALL (sent as ORIGINAL) in INFO."
  (let ((result (plist-get tool-call :result))
        (edited (not (equal (plist-get tool-call :args) (plist-get original :args)))))
    (concat
     (cond ((plist-get info :stop-reason)
            (format "STOP   %s" (plist-get info :stop-reason)))
           ((and result (plist-get tool-call :error))
            (format "DENY   %s" (string-trim
                                 (replace-regexp-in-string "</?tool_call_error>" "" result))))
           (result (format "RESULT %s" result))
           ((plist-member tool-call :confirm)
            (if (plist-get tool-call :confirm) "ASK" "ALLOW"))
           (t "-      (no rule decides: gptel's own confirmation applies)"))
     (if edited (format "  args -> %s" (gptel-rust-hooks-demo--short (plist-get tool-call :args)))
       ""))))

(defun gptel-rust-hooks-demo--request (backend buffer calls)
  "Run CALLS, plists as in demo-calls.json, through a plain `gptel-request'.
The request is made from BUFFER on BACKEND with a read_file tool whose
function records that it ran, and sent nowhere (`:dry-run'); then the
model's answer asking for CALLS is played into gptel's own state machine
for `gptel-request' (`gptel-request--transitions' and
`gptel-request--handlers'), whose WAIT handler, which would send the
tool results on, is left out.  Return a list of rows (TOOL ARGS RAN
RESULT RULE), one per call."
  (let* ((ran nil)
         (tool (gptel-make-tool
                :name "read_file" :category "gptel-rust-hooks-demo"
                :description "Read a file."
                :args '((:name "path" :type string :description "The file."))
                :function (lambda (path) (push path ran) (format "(contents of %s)" path))))
         (fsm (with-current-buffer buffer
                (let ((gptel-backend backend)
                      (gptel-model 'gpt-4o-mini)
                      (gptel-tools (list tool))
                      (gptel-use-tools t)
                      (gptel-confirm-tool-calls nil))
                  (gptel-request "Tell me about my SSH setup."
                    :dry-run t
                    :callback #'ignore
                    :fsm (gptel-make-fsm
                          :handlers (cons '(WAIT ignore)
                                          (assq-delete-all
                                           'WAIT (copy-sequence gptel-request--handlers))))))))
         (info (gptel-fsm-info fsm))
         (tool-use (cl-loop for call in calls for i from 1
                            collect (list :name (plist-get call :name)
                                          :args (copy-tree (plist-get call :args))
                                          :id (format "call_%d" i)))))
    (plist-put info :tool-use tool-use)
    (setf (gptel-fsm-state fsm) 'TYPE)
    (gptel--fsm-transition fsm)           ; TYPE -> TOOL -> TRET -> WAIT
    (let ((entries (cl-remove-if-not (lambda (e) (eq (plist-get e :kind) 'pre))
                                     (gptel-rust-hooks-log-entries))))
      (cl-loop for call in tool-use
               for entry in (reverse (cl-subseq entries 0 (length tool-use)))
               collect (list (plist-get call :name)
                             (gptel-rust-hooks-demo--short (plist-get call :args))
                             (if (member (plist-get (plist-get call :args) :path) ran)
                                 "yes" "no")
                             (replace-regexp-in-string "\n" " " (plist-get call :result))
                             (or (plist-get entry :deciding) "default"))))))

(defconst gptel-rust-hooks-demo--makefile
  "test:
	@echo built > built.txt && echo 'write inside the project: ok'
	@(echo escaped > ../outside/escaped.txt) 2>/dev/null \\
	  && echo 'write outside the project: ok' \\
	  || echo 'write outside the project: refused'
	@python3 -c 'import socket,sys; socket.create_connection((\"127.0.0.1\", int(sys.argv[1])), 2).sendall(b\"hi\")' $(PORT) 2>/dev/null \\
	  && echo 'connect to 127.0.0.1: ok' \\
	  || echo 'connect to 127.0.0.1: refused'
"
  "The scratch project's Makefile: its `test' target tries what a sandbox stops.")

(defun gptel-rust-hooks-demo--sandboxed (backend)
  "Run `make test' sandboxed through a plain `gptel-request' on BACKEND.
The policy is examples/sandboxed-dev.json; the project is a scratch
directory outside `temporary-file-directory' (which the sandbox makes
private).  Print what was confined, how, and what came of it."
  (let* ((root (file-truename (let ((temporary-file-directory "/var/tmp/"))
                                (make-temp-file "grh-demo-" t))))
         (proj (file-name-as-directory (expand-file-name "proj" root)))
         (outside (expand-file-name "outside" root))
         (received (list nil))
         (listener (make-network-process
                    :name "grh-demo-listener" :server t :host "127.0.0.1" :service t
                    :family 'ipv4 :noquery t
                    :filter (lambda (_proc text)
                              (setcar received (concat (car received) text)))))
         (port (process-contact listener :service))
         (command (format "make test PORT=%d" port))
         (got nil)
         ;; Run by `make demo': the inner make is not a sub-make of it.
         (process-environment
          (cl-remove-if (lambda (e) (string-match-p "\\`\\(MAKE\\|MFLAGS\\)" e))
                        process-environment))
         (gptel-rust-hooks-policy-files
          (list (expand-file-name "sandboxed-dev.json" gptel-rust-hooks-demo--directory)))
         (gptel-rust-hooks--cache nil)
         (tool (gptel-make-tool
                :name "shell" :category "gptel-rust-hooks-demo"
                :description "Run a shell command."
                :args '((:name "command" :type string :description "The command line.")
                        (:name "timeout" :type integer :description "Milliseconds."
                               :optional t))
                :function (lambda (command &optional _timeout)
                            (setq got command)
                            (shell-command-to-string command))))
         (buffer (generate-new-buffer " *gptel-rust-hooks-demo-sandbox*")))
    (unwind-protect
        (progn
          (make-directory proj t)
          (make-directory outside t)
          (with-temp-file (expand-file-name "Makefile" proj)
            (insert gptel-rust-hooks-demo--makefile))
          (with-current-buffer buffer (setq default-directory proj))
          (let* ((fsm (with-current-buffer buffer
                        (let ((gptel-backend backend)
                              (gptel-model 'gpt-4o-mini)
                              (gptel-tools (list tool))
                              (gptel-use-tools t)
                              (gptel-confirm-tool-calls nil))
                          (gptel-request "Run the tests."
                            :dry-run t
                            :callback #'ignore
                            :fsm (gptel-make-fsm
                                  :handlers (cons '(WAIT ignore)
                                                  (assq-delete-all
                                                   'WAIT (copy-sequence
                                                          gptel-request--handlers))))))))
                 (call (list :name "shell" :args (list :command command) :id "call_make")))
            (plist-put (gptel-fsm-info fsm) :tool-use (list call))
            (setf (gptel-fsm-state fsm) 'TYPE)
            (gptel--fsm-transition fsm)   ; TYPE -> TOOL -> TRET -> WAIT
            (let ((deadline (+ (float-time) 1)))
              (while (and (not (car received)) (< (float-time) deadline))
                (accept-process-output nil 0.05)))
            (let ((entry (cl-find 'pre (gptel-rust-hooks-log-entries)
                                  :key (lambda (e) (plist-get e :kind)))))
              (princ (format "\nOne sandboxed run, policy %s, in a scratch project %s:\n\n"
                             (file-name-nondirectory (car gptel-rust-hooks-policy-files))
                             (abbreviate-file-name proj)))
              (princ (format "  the model asks   shell %S\n" command))
              (princ (format "  decided          %s by %s\n"
                             (plist-get entry :outcome) (plist-get entry :deciding)))
              (princ (format "  sandboxed        %s\n" (or (plist-get entry :sandbox) "NO")))
              (princ (format "  the tool ran     %s\n"
                             (if (stringp got)
                                 (if (> (length got) 70)
                                     (concat (substring got 0 34) " … "
                                             (substring got (- (length got) 33)))
                                   got)
                               "nothing")))
              (princ "  the model gets   ")
              (princ (replace-regexp-in-string
                      "\n\\(.\\)" "\n                   \\1"
                      (or (plist-get call :result) "nothing")))
              (princ (format "  on disk          built.txt %s, ../outside/escaped.txt %s\n"
                             (if (file-exists-p (expand-file-name "built.txt" proj))
                                 "written" "absent")
                             (if (file-exists-p (expand-file-name "escaped.txt" outside))
                                 "written" "absent")))
              (princ (format "  the listener     %s\n"
                             (if (car received)
                                 (format "received %S" (car received))
                               "received nothing"))))))
      (delete-process listener)
      (kill-buffer buffer)
      (delete-directory root t))))

(defun gptel-rust-hooks-demo-run ()
  "Run the demo and print its table."
  (let* ((project (file-name-as-directory
                   (expand-file-name ".." gptel-rust-hooks-demo--directory)))
         (gptel-rust-hooks-policy-files
          (list (expand-file-name "demo-policy.json" gptel-rust-hooks-demo--directory)))
         (gptel-rust-hooks-default-decision 'ask)
         (gptel-rust-hooks-project-policies nil)
         (calls (gptel-rust-hooks-demo--read-json "demo-calls.json"))
         (backend (gptel-make-openai "demo" :key "none" :stream nil
                                     :host "127.0.0.1:9" :protocol "http"))
         (buffer (get-buffer-create "*gptel-rust-hooks-demo*"))
         (rows nil))
    (gptel-rust-hooks-mode 1)
    (with-current-buffer buffer
      (setq default-directory project))
    (dolist (call calls)
      (pcase-let ((`(,tool-call ,info ,micros)
                   (with-current-buffer buffer
                     (gptel-rust-hooks-demo--decide backend buffer call))))
        (push (list (plist-get call :name)
                    (gptel-rust-hooks-demo--short (plist-get call :args))
                    (gptel-rust-hooks-demo--outcome call tool-call info)
                    ;; The audit log recorded the decision: its deciding rule.
                    (or (plist-get (car (gptel-rust-hooks-log-entries)) :deciding)
                        "default")
                    micros)
              rows)))
    (princ (format "gptel-rust-hooks %s demo: policy %s, cwd %s, default decision %s\n\n"
                   gptel-rust-hooks-version
                   (file-relative-name (car gptel-rust-hooks-policy-files) project)
                   (abbreviate-file-name project)
                   gptel-rust-hooks-default-decision))
    (princ (format "%-15s %-47s %-22s %8s  %s\n" "TOOL" "ARGS" "RULE" "µs" "OUTCOME"))
    (dolist (row (nreverse rows))
      (princ (format "%-15s %-47s %-22s %8.1f  %s\n"
                     (nth 0 row) (nth 1 row)
                     (let ((r (nth 3 row)))
                       (if (> (length r) 22) (substring r 0 22) r))
                     (nth 4 row) (nth 2 row))))
    (princ "\nThrough a plain `gptel-request' (no pre-tool hook runs there), \
decided where gptel runs its tools:\n\n")
    (princ (format "%-15s %-30s %-4s %-22s  %s\n" "TOOL" "ARGS" "RAN" "RULE"
                   "WHAT THE MODEL GETS"))
    (let ((gptel--known-tools (copy-tree gptel--known-tools)))
      (dolist (row (gptel-rust-hooks-demo--request
                    backend buffer
                    '((:name "read_file" :args (:path "~/.ssh/id_rsa"))
                      (:name "read_file" :args (:path "README.md")))))
        (princ (format "%-15s %-30s %-4s %-22s  %s\n"
                       (nth 0 row) (nth 1 row) (nth 2 row)
                       (let ((r (nth 4 row)))
                         (if (> (length r) 22) (substring r 0 22) r))
                       (nth 3 row)))))
    (let ((gptel--known-tools (copy-tree gptel--known-tools)))
      (gptel-rust-hooks-demo--sandboxed backend))
    (gptel-rust-hooks-mode -1)))

(provide 'demo)
;;; demo.el ends here
