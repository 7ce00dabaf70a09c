;;; test-helper.el --- Drive real gptel requests in ERT tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; Helpers that run gptel's own tool-call code, never a copy of it:
;;
;; - `gptel-rust-hooks-test-with-fsm' builds a gptel state machine for a
;;   response that asked for tool calls and drives it with gptel's own
;;   transition table and handlers (`gptel-send--transitions',
;;   `gptel-send--handlers'): `gptel--handle-pre-tool', the tool runner
;;   `gptel--handle-tool-use', `gptel--handle-post-tool' and
;;   `gptel--handle-tool-result'.  Only the WAIT handler, which would send
;;   the follow-up request, is replaced by one that records it.
;;
;; - `gptel-rust-hooks-test-with-conversation' runs `gptel-send' in a temp
;;   buffer against tests/fake_openai_server.py and returns what the tools
;;   received, the buffer text and every request the server saw.
;;
;; - `gptel-rust-hooks-test-with-mode' turns `gptel-rust-hooks-mode' on
;;   with given rules (the package is required only when it is used).
;;
;; gptel is found through the GPTEL_DIR environment variable (a directory
;; holding gptel.el, whose dependencies may sit in sibling directories),
;; else in the project's .deps directory (scripts/fetch-gptel.sh).

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'json)
(require 'subr-x)

(eval-and-compile
  (defconst gptel-rust-hooks-test-directory
    (file-name-directory (or load-file-name
                             (bound-and-true-p byte-compile-current-file)
                             buffer-file-name
                             default-directory))
    "Directory holding the test files.")

  (defun gptel-rust-hooks-test--gptel-load-path ()
    "Return the directories to put on `load-path' for gptel and its deps."
    (let* ((env (getenv "GPTEL_DIR"))
           (gptel-dir
            (if (and env (not (string-empty-p env)))
                (file-name-as-directory (expand-file-name env))
              (car (last (sort (file-expand-wildcards
                                (expand-file-name
                                 "../.deps/root/usr/share/emacs/site-lisp/elpa-src/gptel-*"
                                 gptel-rust-hooks-test-directory))
                               #'string<))))))
      (unless (and gptel-dir (file-exists-p (expand-file-name "gptel.el" gptel-dir)))
        (error "No gptel.el found: set GPTEL_DIR or run scripts/fetch-gptel.sh .deps"))
      (setq gptel-dir (file-name-as-directory gptel-dir))
      (cons gptel-dir
            (cl-loop for dir in (directory-files
                                 (file-name-directory (directory-file-name gptel-dir))
                                 t "\\`[^.]")
                     for name = (file-name-nondirectory dir)
                     when (and (file-directory-p dir)
                               (not (equal (file-name-as-directory dir) gptel-dir))
                               (string-match-p
                                "\\`\\(?:compat\\|transient\\|cond-let\\|llama\\)\\(?:-[0-9.]+\\)?\\'"
                                name))
                     collect dir
                     and when (file-directory-p (expand-file-name "lisp" dir))
                     collect (expand-file-name "lisp" dir)))))

  (dolist (dir (reverse (gptel-rust-hooks-test--gptel-load-path)))
    (add-to-list 'load-path dir))

  ;; The package itself, for running from the source tree; an explicit -L wins.
  (let ((lisp-dir (expand-file-name "../lisp" gptel-rust-hooks-test-directory)))
    (when (file-exists-p (expand-file-name "gptel-rust-hooks.el" lisp-dir))
      (add-to-list 'load-path lisp-dir t))))

(require 'gptel)
(require 'gptel-openai)

(declare-function gptel-rust-hooks-mode "gptel-rust-hooks")
(defvar gptel-rust-hooks-mode)
(defvar gptel-rust-hooks-rules)
(defvar gptel-rust-hooks-default-decision)
(defvar gptel-rust-hooks-on-error)

;;;; Internal variables

(defvar gptel-rust-hooks-test--ran nil
  "Tool calls made so far, newest first, each (NAME . ARGS).")

(defvar gptel-rust-hooks-test--sent nil
  "Messages of each follow-up request the FSM would have sent, newest first.")

(defvar gptel-rust-hooks-test-last-fsm nil
  "The state machine of the last helper run, for looking at gptel's internals.
Results hold plain data only, so that ERT can print them on failure.")

(defvar gptel-rust-hooks-test-timeout 20
  "Seconds a whole conversation may take.")

(defvar gptel-rust-hooks-test-python (or (executable-find "python3") "python3")
  "The Python 3 interpreter that runs the fake server.")

(defvar gptel-rust-hooks-test-model 'fake-model
  "The model name the test backends offer.")

;;;; Small helpers

(defun gptel-rust-hooks-test--plist-keys (plist)
  "Return the keyword keys of PLIST, in order; nil if it is no proper list."
  (and (proper-list-p plist)
       (cl-loop for (k _v) on plist by #'cddr when (keywordp k) collect k)))

(defun gptel-rust-hooks-test--json-encode (object)
  "Encode OBJECT, a plist or vector tree, as a JSON string.
An empty argument list (nil) is the empty object."
  (if (null object) "{}" (json-encode object)))

(defun gptel-rust-hooks-test--json-decode (string)
  "Decode JSON STRING into plists and lists, null as nil."
  (let ((json-object-type 'plist)
        (json-array-type 'list)
        (json-key-type nil)
        (json-null nil)
        (json-false :json-false))
    (json-read-from-string string)))

(defun gptel-rust-hooks-test--as-llm-args (args)
  "Return ARGS the way gptel parses them out of an OpenAI response.
This mirrors `gptel--parse-response': the JSON arguments string is
parsed into a plist with keyword keys, null as nil and false as
`:json-false'."
  (let ((json-object-type 'plist)
        (json-array-type 'vector)
        (json-key-type nil)
        (json-null nil)
        (json-false :json-false))
    (json-read-from-string (gptel-rust-hooks-test--json-encode args))))

(defun gptel-rust-hooks-test--kill-buffer (buffer)
  "Kill BUFFER if live, without queries."
  (when (buffer-live-p buffer)
    (let ((kill-buffer-query-functions nil)
          (kill-buffer-hook nil))
      (with-current-buffer buffer (set-buffer-modified-p nil))
      (kill-buffer buffer))))

;;;; Tools

(cl-defun gptel-rust-hooks-test-make-tool (name args &key confirm (include t) result)
  "Make a gptel tool NAME whose function records the arguments it receives.

ARGS lists the tool's arguments, each a name string or a list
\(NAME TYPE) with TYPE a JSON schema type symbol (default `string').
Every argument is optional.  CONFIRM and INCLUDE are the tool's slots.
RESULT is what the tool returns: a string, or a function called with
the received argument plist; default \"NAME: ok\".

A call is recorded as (NAME . PLIST) in `gptel-rust-hooks-test--ran',
PLIST holding the non-nil arguments.  The tool is made with
`gptel-make-tool' in category \"gptel-rust-hooks-test\"."
  (let* ((specs (mapcar (lambda (a)
                          (let ((a (ensure-list a)))
                            (list :name (car a)
                                  :type (or (cadr a) 'string)
                                  :description (format "Argument %s." (car a))
                                  :optional t)))
                        args))
         (keys (mapcar (lambda (s) (intern (concat ":" (plist-get s :name)))) specs)))
    (gptel-make-tool
     :name name
     :description (format "Test tool %s." name)
     :category "gptel-rust-hooks-test"
     :args specs
     :confirm confirm
     :include include
     :function
     (lambda (&rest values)
       (let ((received (cl-loop for k in keys for v in values
                                when v append (list k v))))
         (push (cons name received) gptel-rust-hooks-test--ran)
         (cond ((functionp result) (funcall result received))
               (result)
               (t (format "%s: ok" name))))))))

(defun gptel-rust-hooks-test--tools (tools calls)
  "Return gptel tools for TOOLS, or tools made to fit CALLS.
TOOLS items are `gptel-tool' structs or (NAME ARGS . KEYS) lists for
`gptel-rust-hooks-test-make-tool'.  With TOOLS nil, make one tool per
called name, with the argument keys the CALLS (plists with :name and
:args) use."
  (if tools
      (mapcar (lambda (tool)
                (if (gptel-tool-p tool) tool
                  (apply #'gptel-rust-hooks-test-make-tool tool)))
              tools)
    (let (made)
      (dolist (call calls)
        (let ((name (plist-get call :name)))
          (unless (assoc name made)
            (push (cons name
                        (gptel-rust-hooks-test-make-tool
                         name
                         (mapcar (lambda (k) (substring (symbol-name k) 1))
                                 (gptel-rust-hooks-test--plist-keys
                                  (plist-get call :args)))))
                  made))))
      (nreverse (mapcar #'cdr made)))))

(defun gptel-rust-hooks-test-backend (&optional port)
  "Return an OpenAI-compatible gptel backend for 127.0.0.1:PORT.
PORT defaults to 9 (discard), for state machines that never send."
  (gptel-make-openai "gptel-rust-hooks-test"
    :host (format "127.0.0.1:%d" (or port 9))
    :protocol "http"
    :key "test-key"
    :stream nil
    :models (list gptel-rust-hooks-test-model)))

(defun gptel-rust-hooks-test--setup-buffer (buffer spec tools backend)
  "Make BUFFER a request buffer as SPEC describes, offering TOOLS on BACKEND.
SPEC keys used: :pre, :post (buffer-local hook lists, when present),
:confirm-tool-calls, :include-tool-results, :directory, :use-curl."
  (with-current-buffer buffer
    (text-mode)
    (setq-local gptel-backend backend)
    (setq-local gptel-model gptel-rust-hooks-test-model)
    (setq-local gptel-tools tools)
    (setq-local gptel-use-tools t)
    (setq-local gptel-stream nil)
    (setq-local gptel-use-curl (plist-get spec :use-curl))
    (setq-local gptel-log-level nil)
    (setq-local gptel-confirm-tool-calls
                (if (plist-member spec :confirm-tool-calls)
                    (plist-get spec :confirm-tool-calls)
                  'auto))
    (setq-local gptel-include-tool-results
                (if (plist-member spec :include-tool-results)
                    (plist-get spec :include-tool-results)
                  t))
    (when (plist-member spec :pre)
      (setq-local gptel-pre-tool-call-functions (plist-get spec :pre)))
    (when (plist-member spec :post)
      (setq-local gptel-post-tool-call-functions (plist-get spec :post)))
    ;; Default: a directory with no project policy files above it.
    (setq default-directory
          (file-name-as-directory
           (expand-file-name (or (plist-get spec :directory)
                                 temporary-file-directory))))))

(defun gptel-rust-hooks-test--split-spec (forms)
  "Split FORMS into leading KEY VALUE pairs and the body after them.
Return (SPEC-FORMS . BODY)."
  (let (spec)
    (while (keywordp (car forms))
      (push (pop forms) spec)
      (push (pop forms) spec))
    (cons (nreverse spec) forms)))

;;;; State machine without a network

(defun gptel-rust-hooks-test--wait-stub (fsm)
  "Record the follow-up request FSM would send, instead of sending it.
Stands in for `gptel--handle-wait' in the WAIT state."
  (push (copy-tree (plist-get (plist-get (gptel-fsm-info fsm) :data) :messages) t)
        gptel-rust-hooks-test--sent))

(defun gptel-rust-hooks-test--call-name-args (tool-call)
  "Return (NAME . ARGS) for TOOL-CALL, a pending (TOOL-SPEC ARGS CALLBACK)."
  (cons (gptel-tool-name (car tool-call)) (cadr tool-call)))

(defun gptel-rust-hooks-test--run-fsm (spec setup)
  "Drive a gptel state machine as told by SPEC; first call SETUP in its buffer.
See `gptel-rust-hooks-test-with-fsm' for SPEC and the return value.
Tools made for the run are registered with gptel for the run only."
  (let* ((gptel--known-tools (copy-tree gptel--known-tools))
         (gptel-rust-hooks-test--ran nil)
         (gptel-rust-hooks-test--sent nil)
         (calls (or (plist-get spec :calls)
                    (error "gptel-rust-hooks-test-with-fsm: :calls is required")))
         (tools (gptel-rust-hooks-test--tools (plist-get spec :tools) calls))
         (backend (or (plist-get spec :backend) (gptel-rust-hooks-test-backend)))
         (run (or (plist-get spec :run) 'all))
         (buffer (generate-new-buffer
                  (or (plist-get spec :buffer-name) "*gptel-rust-hooks-test*")))
         (callbacks nil)
         (pending nil))
    (unwind-protect
        (progn
          (gptel-rust-hooks-test--setup-buffer buffer spec tools backend)
          (with-current-buffer buffer
            (insert (or (plist-get spec :prompt) "Please use the tools."))
            (when setup (funcall setup)))
          (let* ((n 0)
                 ;; What `gptel--parse-response' makes of a tool-call response:
                 ;; the call list in :tool-use and the assistant message,
                 ;; with its tool_calls, at the end of the messages array.
                 (tool-use
                  (mapcar (lambda (c)
                            (list :name (plist-get c :name)
                                  :arguments nil
                                  :args (if (plist-get spec :raw-args)
                                            (plist-get c :args)
                                          (gptel-rust-hooks-test--as-llm-args
                                           (plist-get c :args)))
                                  :id (or (plist-get c :id)
                                          (format "call_%d" (cl-incf n)))))
                          calls))
                 (data
                  (list :model (symbol-name gptel-rust-hooks-test-model)
                        :messages
                        (vector
                         (list :role "user" :content "Please use the tools.")
                         (list :role "assistant" :content nil
                               :tool_calls
                               (vconcat
                                (mapcar
                                 (lambda (c)
                                   (list :id (plist-get c :id) :type "function"
                                         :function
                                         (list :name (plist-get c :name)
                                               :arguments
                                               ;; Raw (possibly circular) args
                                               ;; are not encoded.
                                               (if (plist-get spec :raw-args)
                                                   "{}"
                                                 (gptel-rust-hooks-test--json-encode
                                                  (plist-get c :args))))))
                                 tool-use))))
                        :stream :json-false))
                 (info (list :data data
                             :buffer buffer
                             :position (with-current-buffer buffer (point-max-marker))
                             :backend backend
                             :model gptel-rust-hooks-test-model
                             :tools tools
                             :http-status "200"
                             :status "HTTP/1.1 200 OK"
                             :stop-reason "tool_calls"
                             :tool-use tool-use
                             :callback
                             (lambda (response _info)
                               (push response callbacks)
                               (when (eq (car-safe response) 'tool-call)
                                 (setq pending (append pending (cdr response)))))))
                 (fsm (gptel-make-fsm
                       :table gptel-send--transitions
                       :handlers
                       (pcase run
                         ('pre nil)
                         ('all (cons (list 'WAIT #'gptel-rust-hooks-test--wait-stub)
                                     (assq-delete-all
                                      'WAIT (copy-sequence gptel-send--handlers))))
                         (_ (error "Unknown :run %S" run)))
                       :info info)))
            (pcase run
              ('pre
               (setf (gptel-fsm-state fsm) 'TPRE)
               (gptel--handle-pre-tool fsm))
              ('all
               ;; The response has been read (state TYPE); move on exactly as
               ;; `gptel--url-get-response' does after its callback.
               (setf (gptel-fsm-state fsm) 'TYPE)
               (gptel--fsm-transition fsm)
               (when pending
                 (let ((action (plist-get spec :on-confirm))
                       (asked pending))
                   (when (functionp action)
                     (setq action (funcall action (mapcar #'gptel-rust-hooks-test--call-name-args
                                                          asked))))
                   (pcase action
                     ('accept (setq pending nil)
                              (with-current-buffer buffer
                                (gptel--accept-tool-calls asked nil)))
                     ('reject (with-current-buffer buffer
                                (gptel--reject-tool-calls asked nil)))
                     ('nil nil)
                     (_ (error "Unknown :on-confirm action %S" action)))))))
            ;; Re-read the info: gptel's (setf (plist-get ...)) may have
            ;; consed new keys such as :history onto its front.
            (let ((sent (car gptel-rust-hooks-test--sent))
                  (info (gptel-fsm-info fsm)))
              (setq gptel-rust-hooks-test-last-fsm fsm)
              (list :state (gptel-fsm-state fsm)
                    :states (reverse (cons (gptel-fsm-state fsm)
                                           (plist-get info :history)))
                    :calls (plist-get info :tool-use)
                    :ran (reverse gptel-rust-hooks-test--ran)
                    :pending (mapcar #'gptel-rust-hooks-test--call-name-args pending)
                    :callbacks (mapcar #'car-safe (reverse callbacks))
                    :error (plist-get info :error)
                    :stop-reason (plist-get info :stop-reason)
                    :sent (and sent (append sent nil))
                    :tool-messages
                    (cl-remove-if-not (lambda (m) (equal (plist-get m :role) "tool"))
                                      (append sent nil))
                    :text (with-current-buffer buffer
                            (buffer-substring-no-properties (point-min) (point-max)))))))
      (gptel-rust-hooks-test--kill-buffer buffer))))

(defmacro gptel-rust-hooks-test-with-fsm (&rest spec-and-body)
  "Drive gptel's own tool-call states for a response that called tools.

SPEC-AND-BODY is KEY VALUE pairs (values are evaluated), then an
optional BODY that runs in the request buffer before the state
machine starts (to set `default-directory', local hooks, ...).

Keys:
  :calls   list of (:name NAME :args ARGS [:id ID]), as the LLM sent them.
           ARGS go through JSON as gptel reads them, unless :raw-args.
  :tools   list of `gptel-tool's or (NAME ARGS . KEYS) lists for
           `gptel-rust-hooks-test-make-tool'; default: one recording
           tool per called name, taking the arguments the call gives.
  :pre, :post  when given, the buffer-local values of
           `gptel-pre-tool-call-functions' and
           `gptel-post-tool-call-functions' (otherwise the global hooks run).
  :run     `all' (default): from TYPE through gptel's own handlers in
           `gptel-send--handlers': TPRE (`gptel--handle-pre-tool'), TOOL
           (`gptel--handle-tool-use'), TRET (`gptel--handle-post-tool',
           `gptel--handle-tool-result') up to WAIT, whose handler is
           replaced by one recording the follow-up request instead of
           sending it.  `pre': only `gptel--handle-pre-tool', on a machine
           in state TPRE with no handlers (transitions just change state).
  :confirm-tool-calls, :include-tool-results  buffer-local values.
  :on-confirm  what to answer when gptel asks to confirm calls:
           nil (leave them pending), `accept' (`gptel--accept-tool-calls'),
           `reject' (`gptel--reject-tool-calls'), or a function of the
           pending ((NAME . ARGS) ...) returning one of those.
  :directory  the request buffer's `default-directory' (the call's cwd),
           default `temporary-file-directory'.
  :backend, :buffer-name, :prompt.

Return a plist:
  :state :states   the final state and all states visited, in order;
  :calls           gptel's tool-call plists (:name :args :id :confirm
                   :result :error ...) after the run;
  :ran             ((NAME . ARGS) ...) the tool functions really called;
  :pending         ((NAME . ARGS) ...) calls left awaiting confirmation;
  :sent            the messages of the follow-up request, if one was due;
  :tool-messages   its role \"tool\" messages;
  :error :stop-reason  from the request info;
  :callbacks       the kinds of callback calls (`tool-call', `tool-result');
  :text            the request buffer's text.
The machine itself is left in `gptel-rust-hooks-test-last-fsm'."
  (declare (indent 0) (debug t))
  (let ((split (gptel-rust-hooks-test--split-spec spec-and-body)))
    `(gptel-rust-hooks-test--run-fsm
      (list ,@(car split))
      ,(and (cdr split) `(lambda () ,@(cdr split))))))

;;;; Fake server

(defun gptel-rust-hooks-test--script-entry (entry)
  "Return script ENTRY as JSON-ready data for the fake server.
ENTRY is (:content TEXT), (:tool-calls ((:name N :args ARGS [:id ID]) ...)
[:content TEXT]), (:status CODE :body PLIST) or (:raw PLIST)."
  (let ((out nil))
    (when (plist-member entry :content)
      (setq out (append out (list :content (or (plist-get entry :content) json-null)))))
    (when-let* ((calls (plist-get entry :tool-calls)))
      (setq out (append
                 out
                 (list :tool_calls
                       (vconcat
                        (mapcar (lambda (c)
                                  (append
                                   (list :name (plist-get c :name)
                                         :arguments (gptel-rust-hooks-test--json-encode
                                                     (plist-get c :args)))
                                   (and (plist-get c :id) (list :id (plist-get c :id)))))
                                calls))))))
    (dolist (key '(:status :body :raw :finish_reason))
      (when (plist-member entry key)
        (setq out (append out (list key (plist-get entry key))))))
    out))

(defun gptel-rust-hooks-test--write-script (script)
  "Write SCRIPT, a list of entries or a JSON file name, to a temp file.
Return the file name to give the server."
  (let ((file (make-temp-file "gptel-rust-hooks-script-" nil ".json")))
    (if (stringp script)
        (copy-file (expand-file-name script gptel-rust-hooks-test-directory) file t)
      (with-temp-file file
        (insert (json-encode
                 (vconcat (mapcar #'gptel-rust-hooks-test--script-entry script))))))
    file))

(defun gptel-rust-hooks-test-start-server (script-file log-file)
  "Start the fake server on SCRIPT-FILE, logging requests to LOG-FILE.
Return (PROCESS . PORT).  The server exits when its stdin closes."
  (let* ((out (generate-new-buffer " *fake-openai-stdout*"))
         (err (generate-new-buffer " *fake-openai-stderr*"))
         (proc (make-process
                :name "fake-openai-server"
                :buffer out
                :stderr err
                :connection-type 'pipe
                :noquery t
                :command (list gptel-rust-hooks-test-python
                               (expand-file-name "fake_openai_server.py"
                                                 gptel-rust-hooks-test-directory)
                               script-file log-file
                               "--idle-timeout" "60")))
         (deadline (+ (float-time) 10))
         (port nil))
    (process-put proc 'stderr-buffer err)
    (while (and (not port) (< (float-time) deadline) (process-live-p proc))
      (accept-process-output proc 0.05)
      (with-current-buffer out
        (goto-char (point-min))
        (when (looking-at "\\([0-9]+\\)\n")
          (setq port (string-to-number (match-string 1))))))
    (unless port
      (let ((msg (with-current-buffer err (buffer-string))))
        (gptel-rust-hooks-test-stop-server proc)
        (error "Fake server did not start: %s" msg)))
    (cons proc port)))

(defun gptel-rust-hooks-test-stop-server (proc)
  "Stop server process PROC and kill its buffers."
  (when (processp proc)
    (let ((out (process-buffer proc))
          (err (process-get proc 'stderr-buffer)))
      (delete-process proc)
      (when-let* ((errproc (and err (get-buffer-process err))))
        (delete-process errproc))
      (gptel-rust-hooks-test--kill-buffer out)
      (gptel-rust-hooks-test--kill-buffer err))))

(defun gptel-rust-hooks-test-read-requests (log-file)
  "Return the request bodies in LOG-FILE, a JSONL file, as plists."
  (when (file-exists-p log-file)
    (with-temp-buffer
      (insert-file-contents log-file)
      (cl-loop for line in (split-string (buffer-string) "\n" t)
               collect (gptel-rust-hooks-test--json-decode line)))))

(defun gptel-rust-hooks-test-tool-messages (request)
  "Return the role \"tool\" messages of REQUEST, a request body plist."
  (cl-remove-if-not (lambda (m) (equal (plist-get m :role) "tool"))
                    (plist-get request :messages)))

;;;; Conversations

(defun gptel-rust-hooks-test--pending-overlay (buffer)
  "Return the overlay in BUFFER where gptel asks to confirm the tool calls."
  (with-current-buffer buffer
    (cl-find-if (lambda (ov) (overlay-get ov 'gptel-tool))
                (overlays-in (point-min) (point-max)))))

(defun gptel-rust-hooks-test--run-conversation (spec setup)
  "Run `gptel-send' against the fake server as told by SPEC.
Call SETUP in the request buffer first.  See
`gptel-rust-hooks-test-with-conversation'.  Tools made for the
conversation are registered with gptel for it only."
  (let* ((gptel--known-tools (copy-tree gptel--known-tools))
         (gptel-rust-hooks-test--ran nil)
         (script (plist-get spec :script))
         (script-calls (and (listp script)
                            (cl-loop for e in script append (plist-get e :tool-calls))))
         (tools (gptel-rust-hooks-test--tools (plist-get spec :tools) script-calls))
         (timeout (or (plist-get spec :timeout) gptel-rust-hooks-test-timeout))
         (script-file nil)
         (log-file (make-temp-file "gptel-rust-hooks-requests-" nil ".jsonl"))
         (server nil)
         (buffer nil)
         (prompted nil)
         (pending nil)
         (timed-out nil))
    (unwind-protect
        (progn
          (setq script-file (gptel-rust-hooks-test--write-script script))
          (setq server (gptel-rust-hooks-test-start-server script-file log-file))
          (setq buffer (generate-new-buffer
                        (or (plist-get spec :buffer-name) "*gptel-rust-hooks-chat*")))
          (gptel-rust-hooks-test--setup-buffer
           buffer spec tools (gptel-rust-hooks-test-backend (cdr server)))
          (with-current-buffer buffer
            (insert (or (plist-get spec :prompt) "Please use the tools."))
            (when setup (funcall setup))
            (goto-char (point-max))
            (let ((url-proxy-services nil)
                  (inhibit-message t))
              (gptel-send)
              (let ((deadline (+ (float-time) timeout))
                    (done nil))
                (while (not done)
                  (let ((fsm (buffer-local-value 'gptel--fsm-last buffer))
                        (ov nil))
                    (cond
                     ;; A nil state means the machine left its table: over too.
                     ((and fsm (memq (gptel-fsm-state fsm) '(nil DONE ERRS ABRT)))
                      (setq done t))
                     ((setq ov (gptel-rust-hooks-test--pending-overlay buffer))
                      (let* ((asked (mapcar #'gptel-rust-hooks-test--call-name-args
                                            (overlay-get ov 'gptel-tool)))
                             (action (plist-get spec :on-confirm)))
                        (setq prompted (append prompted asked))
                        (when (functionp action) (setq action (funcall action asked)))
                        (pcase action
                          ('accept
                           ;; What C-c C-c on the prompt does.
                           (goto-char (overlay-start ov))
                           (call-interactively #'gptel--accept-tool-calls))
                          ('reject
                           (goto-char (overlay-start ov))
                           (call-interactively #'gptel--reject-tool-calls)
                           (setq pending asked done t))
                          ('nil (setq pending asked done t))
                          ;; The function answered the prompt itself.
                          ('handled nil)
                          (_ (error "Unknown :on-confirm action %S" action)))))
                     ((> (float-time) deadline)
                      (setq timed-out t done t))
                     (t (accept-process-output nil 0.05))))))))
          (let* ((fsm (buffer-local-value 'gptel--fsm-last buffer))
                 (info (and fsm (gptel-fsm-info fsm)))
                 (requests (gptel-rust-hooks-test-read-requests log-file)))
            (setq gptel-rust-hooks-test-last-fsm fsm)
            (list :state (and fsm (gptel-fsm-state fsm))
                  :states (and fsm (reverse (cons (gptel-fsm-state fsm)
                                                  (plist-get info :history))))
                  :error (plist-get info :error)
                  :stop-reason (plist-get info :stop-reason)
                  :ran (reverse gptel-rust-hooks-test--ran)
                  :prompted prompted
                  :pending pending
                  :timed-out timed-out
                  :requests requests
                  :tool-messages (mapcar #'gptel-rust-hooks-test-tool-messages requests)
                  :text (with-current-buffer buffer
                          (buffer-substring-no-properties (point-min) (point-max))))))
      (when (buffer-live-p buffer)
        (ignore-errors (gptel-abort buffer)))
      (gptel-rust-hooks-test-stop-server (car server))
      (gptel-rust-hooks-test--kill-buffer buffer)
      (dolist (f (list script-file log-file))
        (when (and f (file-exists-p f)) (delete-file f))))))

(defmacro gptel-rust-hooks-test-with-conversation (&rest spec-and-body)
  "Run a whole `gptel-send' conversation against the fake server.

SPEC-AND-BODY is KEY VALUE pairs (values are evaluated), then an
optional BODY that runs in the request buffer before `gptel-send'.

Keys:
  :script  the server's replies in order: a list of (:content TEXT),
           (:tool-calls ((:name N :args ARGS [:id ID]) ...)),
           (:status CODE :body PLIST) or (:raw PLIST) entries, or the name
           of a JSON script file (relative to tests/) in the server's format.
  :tools   as for `gptel-rust-hooks-test-with-fsm'; default: made from
           the script's tool calls.
  :pre, :post, :confirm-tool-calls, :include-tool-results, :directory,
  :buffer-name, :prompt  as for `gptel-rust-hooks-test-with-fsm'.
  :on-confirm  nil (stop waiting, report :pending), `accept' (answer
           the in-buffer prompt with `gptel--accept-tool-calls', as its
           key binding does), `reject' (`gptel--reject-tool-calls'), or
           a function of the asked ((NAME . ARGS) ...) returning one of
           those, or `handled' when it answered the prompt itself (it
           runs in the request buffer, and
           `gptel-rust-hooks-test--pending-overlay' finds the prompt).
  :use-curl  non-nil to send with curl instead of url.el.
  :timeout  seconds to wait (default `gptel-rust-hooks-test-timeout').

Return a plist:
  :ran        ((NAME . ARGS) ...) the tool functions that really ran;
  :requests   every request body the server received, as plists;
  :tool-messages  per request, its role \"tool\" messages;
  :text       the request buffer's final text;
  :state :states :error :stop-reason  the request's end;
  :prompted   ((NAME . ARGS) ...) calls gptel asked to confirm;
  :pending    those left unanswered or rejected;
  :timed-out  non-nil if the request did not end in time.
The machine itself is left in `gptel-rust-hooks-test-last-fsm'."
  (declare (indent 0) (debug t))
  (let ((split (gptel-rust-hooks-test--split-spec spec-and-body)))
    `(gptel-rust-hooks-test--run-conversation
      (list ,@(car split))
      ,(and (cdr split) `(lambda () ,@(cdr split))))))

;;;; Plain requests

(defconst gptel-rust-hooks-test-agent-handlers
  `((WAIT ,#'gptel--handle-wait)
    (TOOL ,#'gptel--handle-tool-use))
  "A state machine's handlers built like gptel-agent's subagents once were.
gptel-agent's `gptel-agent-request--handlers' had a WAIT and a TOOL
state only (besides its status indicators): no pre- or post-tool hook
runs, and on gptel 0.9.9.6 nothing sends the tool results on, so the
machine stops in TRET once its tools have run.")

(defconst gptel-rust-hooks-test-agent-hook-handlers
  `((WAIT ,#'gptel--handle-wait)
    (TPRE ,#'gptel--handle-pre-tool ,#'gptel--fsm-transition)
    (TOOL ,#'gptel--handle-tool-use)
    (TRET ,#'gptel--handle-post-tool ,#'gptel--handle-tool-result))
  "The handlers of gptel-agent's subagents today, without the indicators.
Its requests keep `gptel-request''s own transition table, which has no
TPRE state: the pre-tool hook never runs, the post-tool hook does.")

(defun gptel-rust-hooks-test--handlers (handlers)
  "Return the state machine handlers HANDLERS names.
`default' is `gptel-request--handlers', `agent' and `agent-hooks' the
two above; an alist is used as it is."
  (pcase handlers
    ((or 'nil 'default) gptel-request--handlers)
    ('agent gptel-rust-hooks-test-agent-handlers)
    ('agent-hooks gptel-rust-hooks-test-agent-hook-handlers)
    ((pred consp) handlers)
    (_ (error "Unknown :handlers %S" handlers))))

(defun gptel-rust-hooks-test--request-over-p (fsm)
  "Return non-nil when the request of FSM will not move on by itself."
  (let ((state (gptel-fsm-state fsm)))
    (or (memq state '(nil DONE ERRS ABRT))
        ;; A state without handlers (TRET of an agent-like machine) once
        ;; every call has its result.
        (and (not (alist-get state (gptel-fsm-handlers fsm)))
             (not (memq state '(INIT WAIT TYPE)))
             (not (cl-find-if-not (lambda (c) (plist-get c :result))
                                  (plist-get (gptel-fsm-info fsm) :tool-use)))))))

(defun gptel-rust-hooks-test--run-request (spec setup)
  "Run `gptel-request' with tools against the fake server as told by SPEC.
Call SETUP in the request buffer first.  See
`gptel-rust-hooks-test-with-request'."
  (let* ((gptel--known-tools (copy-tree gptel--known-tools))
         (gptel-rust-hooks-test--ran nil)
         (script (plist-get spec :script))
         (script-calls (and (listp script)
                            (cl-loop for e in script append (plist-get e :tool-calls))))
         (tools (gptel-rust-hooks-test--tools (plist-get spec :tools) script-calls))
         (timeout (or (plist-get spec :timeout) gptel-rust-hooks-test-timeout))
         (script-file nil)
         (log-file (make-temp-file "gptel-rust-hooks-requests-" nil ".jsonl"))
         (server nil)
         (buffer nil)
         (fsm nil)
         (callbacks nil)
         (responses nil)
         (asked nil)
         (prompted nil)
         (pending nil)
         (timed-out nil))
    (unwind-protect
        (progn
          (setq script-file (gptel-rust-hooks-test--write-script script))
          (setq server (gptel-rust-hooks-test-start-server script-file log-file))
          (setq buffer (generate-new-buffer
                        (or (plist-get spec :buffer-name) "*gptel-rust-hooks-request*")))
          (gptel-rust-hooks-test--setup-buffer
           buffer spec tools (gptel-rust-hooks-test-backend (cdr server)))
          (with-current-buffer buffer
            (when setup (funcall setup))
            (let ((url-proxy-services nil)
                  (inhibit-message t))
              (setq fsm
                    (gptel-request (or (plist-get spec :prompt) "Please use the tools.")
                      :fsm (gptel-make-fsm
                            :handlers (gptel-rust-hooks-test--handlers
                                       (plist-get spec :handlers)))
                      :callback
                      (lambda (response info)
                        (push (if (consp response) (car response) response) callbacks)
                        (pcase response
                          ((pred stringp) (push response responses))
                          ('nil (push (plist-get info :error) responses))
                          (`(tool-call . ,calls) (setq asked (append asked calls)))))))
              (let ((deadline (+ (float-time) timeout))
                    (done nil))
                (while (not done)
                  (cond
                   (asked
                    (let* ((calls asked)
                           (named (mapcar #'gptel-rust-hooks-test--call-name-args calls))
                           (action (plist-get spec :on-confirm)))
                      (setq asked nil
                            prompted (append prompted named))
                      (when (functionp action) (setq action (funcall action named)))
                      (pcase action
                        ('accept (gptel--accept-tool-calls calls nil))
                        ('reject (setq pending (append pending named) done t))
                        ('nil (setq pending (append pending named) done t))
                        (_ (error "Unknown :on-confirm action %S" action)))))
                   ((gptel-rust-hooks-test--request-over-p fsm)
                    ;; Let a nested request's last replies land too.
                    (accept-process-output nil 0.05)
                    (setq done (gptel-rust-hooks-test--request-over-p fsm)))
                   ((> (float-time) deadline)
                    (setq timed-out t done t))
                   (t (accept-process-output nil 0.05)))))))
          (let* ((info (gptel-fsm-info fsm))
                 (requests (gptel-rust-hooks-test-read-requests log-file)))
            (setq gptel-rust-hooks-test-last-fsm fsm)
            (list :state (gptel-fsm-state fsm)
                  :states (reverse (cons (gptel-fsm-state fsm) (plist-get info :history)))
                  :error (plist-get info :error)
                  :stop-reason (plist-get info :stop-reason)
                  :calls (plist-get info :tool-use)
                  :ran (reverse gptel-rust-hooks-test--ran)
                  :callbacks (reverse callbacks)
                  :responses (reverse responses)
                  :prompted prompted
                  :pending pending
                  :timed-out timed-out
                  :requests requests
                  :tool-messages (mapcar #'gptel-rust-hooks-test-tool-messages requests))))
      (when (and fsm (not (memq (gptel-fsm-state fsm) '(DONE ERRS ABRT))))
        (ignore-errors (gptel-abort buffer)))
      (gptel-rust-hooks-test-stop-server (car server))
      (gptel-rust-hooks-test--kill-buffer buffer)
      (dolist (f (list script-file log-file))
        (when (and f (file-exists-p f)) (delete-file f))))))

(defmacro gptel-rust-hooks-test-with-request (&rest spec-and-body)
  "Run a plain `gptel-request' with tools against the fake server.

SPEC-AND-BODY is KEY VALUE pairs (values are evaluated), then an
optional BODY that runs in the request buffer before the request.

The request is gptel's own `gptel-request', with the buffer's tools,
a state machine with gptel's own transition table
\(`gptel-request--transitions': no TPRE state, so no pre-tool hook) and
the handlers `:handlers' names, and a callback that records what it gets.

Keys:
  :script, :tools, :pre, :post, :confirm-tool-calls, :directory,
  :buffer-name, :prompt, :timeout  as for
           `gptel-rust-hooks-test-with-conversation'.
  :handlers  `default' (`gptel-request--handlers'), `agent' (WAIT and
           TOOL only, see `gptel-rust-hooks-test-agent-handlers'),
           `agent-hooks' (gptel-agent's handlers today), or an alist.
  :on-confirm  when the callback gets calls to confirm: nil (stop
           waiting), `accept' (`gptel--accept-tool-calls' on them, as
           gptel's prompt does), `reject', or a function of the asked
           ((NAME . ARGS) ...) returning one of those.

Return a plist:
  :ran        ((NAME . ARGS) ...) the tool functions that really ran;
  :requests   every request body the server received, as plists;
  :tool-messages  per request, its role \"tool\" messages;
  :calls      gptel's tool-call plists at the end (results included,
              unless a follow-up request was sent);
  :callbacks  what the callback got, in order: a string, nil (an
              error), t, or the car of a cons (`tool-call', `tool-result');
  :responses  the text responses and error reasons the callback got;
  :state :states :error :stop-reason  the request's end;
  :prompted :pending  calls gptel asked to confirm, those left;
  :timed-out  non-nil if the request did not end in time."
  (declare (indent 0) (debug t))
  (let ((split (gptel-rust-hooks-test--split-spec spec-and-body)))
    `(gptel-rust-hooks-test--run-request
      (list ,@(car split))
      ,(and (cdr split) `(lambda () ,@(cdr split))))))

;;;; The package under test

(defvar gptel-rust-hooks-test-prompt-rules-file
  (expand-file-name (format "gptel-rust-hooks-test-rules-%d.eld" (emacs-pid))
                    temporary-file-directory)
  "The file of rules added from the prompt while the tests run.
Never the user's: `gptel-rust-hooks-test-with-state' binds the option
to it, and it is the option's value outside that too.")

(defvar gptel-rust-hooks-prompt-rules-file)
(setq gptel-rust-hooks-prompt-rules-file gptel-rust-hooks-test-prompt-rules-file)

(defmacro gptel-rust-hooks-test-with-mode (rules &rest body)
  "Run BODY with `gptel-rust-hooks-mode' on and `gptel-rust-hooks-rules' RULES.
RULES is evaluated and set with `customize-set-variable'.  The hooks are
isolated: gptel's hook variables are let-bound to nil around BODY, so
only the package's functions run, and the package's public options
`gptel-rust-hooks-default-decision' and `gptel-rust-hooks-on-error' are
bound to their defaults.  The previous rules and mode state are restored
afterwards."
  (declare (indent 1) (debug t))
  (let ((old-rules (make-symbol "old-rules"))
        (old-mode (make-symbol "old-mode")))
    `(progn
       (require 'gptel-rust-hooks)
       (let ((gptel-pre-tool-call-functions nil)
             (gptel-post-tool-call-functions nil)
             (gptel-rust-hooks-default-decision nil)
             (gptel-rust-hooks-on-error 'block)
             (gptel-rust-hooks-preset nil)
             (,old-rules gptel-rust-hooks-rules)
             (,old-mode gptel-rust-hooks-mode))
         (unwind-protect
             (progn
               (customize-set-variable 'gptel-rust-hooks-rules ,rules)
               (gptel-rust-hooks-mode 1)
               ,@body)
           (gptel-rust-hooks-mode (if ,old-mode 1 -1))
           (customize-set-variable 'gptel-rust-hooks-rules ,old-rules))))))

(defmacro gptel-rust-hooks-test-with-state (&rest body)
  "Run BODY with the package's policy state fresh, and restore it after.
Compiled policies, policy files and their reports, project trust,
rules added for the session and the schema check start empty, with
the options at their defaults, gptel's registry of tools is empty, and
nothing is saved to a custom file.  The module is loaded."
  (declare (indent 0) (debug t))
  `(progn
     (require 'gptel-rust-hooks)
     (let ((gptel-rust-hooks--cache nil)
           (gptel-rust-hooks--policy nil)
           (gptel-rust-hooks--files (make-hash-table :test #'equal))
           (gptel-rust-hooks--reported nil)
           (gptel-rust-hooks--session-rules nil)
           (gptel-rust-hooks-preset nil)
           (gptel-rust-hooks--prompt-rules :unread)
           (gptel-rust-hooks-prompt-rules-file gptel-rust-hooks-test-prompt-rules-file)
           (gptel-rust-hooks--last-schema nil)
           (gptel-rust-hooks--project-lookup nil)
           (gptel-rust-hooks-policy-files nil)
           (gptel-rust-hooks-project-policies t)
           (gptel-rust-hooks-trusted-directories nil)
           (gptel-rust-hooks-trusted-project-files nil)
           (gptel-rust-hooks-validate-calls t)
           (gptel-rust-hooks-rules gptel-rust-hooks-rules)
           (gptel-rust-hooks--good-rules gptel-rust-hooks--good-rules)
           (gptel-rust-hooks--checked-rules gptel-rust-hooks--checked-rules)
           (gptel-rust-hooks--rules-error gptel-rust-hooks--rules-error)
           (custom-file nil)
           (user-init-file nil)
           ;; Tools other tests registered with gptel must not be checked.
           (gptel--known-tools nil))
       (gptel-rust-hooks--load-module)
       ,@body)))

(defun gptel-rust-hooks-test-call (result name)
  "Return the tool-call plist named NAME in the :calls of RESULT."
  (cl-find name (plist-get result :calls)
           :key (lambda (c) (plist-get c :name)) :test #'equal))

(provide 'test-helper)
;;; test-helper.el ends here
