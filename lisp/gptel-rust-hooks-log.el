;;; gptel-rust-hooks-log.el --- Audit log of gptel-rust-hooks decisions -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The gptel-rust-hooks developers

;; Author: The gptel-rust-hooks developers
;; URL: https://github.com/gptel-rust-hooks/gptel-rust-hooks

;; This file is not part of GNU Emacs.

;; This program is free software; you can redistribute it and/or modify
;; it under the terms of the GNU General Public License as published by
;; the Free Software Foundation, either version 3 of the License, or
;; (at your option) any later version.

;; This program is distributed in the hope that it will be useful,
;; but WITHOUT ANY WARRANTY; without even the implied warranty of
;; MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
;; GNU General Public License for more details.

;; You should have received a copy of the GNU General Public License
;; along with this program.  If not, see <https://www.gnu.org/licenses/>.

;;; Commentary:

;; Every decision gptel-rust-hooks makes, before a tool call (pre) and
;; after it (post), is recorded: the time, the request's buffer, backend
;; and model, the tool, a short form of its arguments, the outcome, the
;; deciding rule and the reason, the rules that matched and the
;; microseconds the engine spent.  A call's post decision joins the entry
;; of its pre decision: one entry per call.  A call that was denied or
;; stopped never ran, and has no post decision.
;;
;; - The latest `gptel-rust-hooks-log-size' entries are kept in memory;
;;   `M-x gptel-rust-hooks-log' lists them, newest first.  RET on a line
;;   explains its call by the rules in force now; `gptel-rust-hooks-log-show-entry'
;;   shows the whole entry.
;; - With `gptel-rust-hooks-log-file' set, each entry is also appended to
;;   that file as one line of JSON.  The file is created readable by you
;;   alone, and earlier lines are never rewritten.  A failure to write is
;;   reported once; it never blocks or allows a call by itself.
;;
;; What untrusted project policy files had ignored (their allow rules,
;; edits and context) is recorded with each entry as its notes.

;;; Code:

(require 'cl-lib)
(require 'json)
(require 'subr-x)
(require 'tabulated-list)

;;;; Customization

(defcustom gptel-rust-hooks-log-size 1000
  "How many tool calls the in-memory log keeps; 0 keeps none.
A call's decisions before and after it run make one entry."
  :type 'natnum
  :group 'gptel-rust-hooks)

(defcustom gptel-rust-hooks-log-file nil
  "File to which each decision is appended as one line of JSON, or nil.
The file is created with mode 0600 and only ever appended to.  A write
failure is reported once and changes no decision."
  :type '(choice (const :tag "No file" nil) file)
  :group 'gptel-rust-hooks)

;;;; Internal variables

(defvar gptel-rust-hooks-log--ring nil
  "The in-memory log: a vector used as a ring, or nil when empty.")

(defvar gptel-rust-hooks-log--next 0
  "The index in `gptel-rust-hooks-log--ring' where the next entry goes.")

(defvar gptel-rust-hooks-log--count 0
  "How many entries `gptel-rust-hooks-log--ring' holds.")

(defvar gptel-rust-hooks-log--seq 0
  "The number of the latest entry recorded.")

(defvar gptel-rust-hooks-log--failed-file nil
  "The log file whose write failure was reported, or nil.")

(defvar gptel-rust-hooks-log--notes-cache nil
  "The latest policy whose notes were read, and its notes: (POLICY . NOTES).")

(defvar gptel-rust-hooks-log--refresh-timer nil
  "Timer that refreshes a visible log buffer, or nil.")

(defconst gptel-rust-hooks-log--buffer-name "*gptel-rust-hooks-log*"
  "The name of the log buffer.")

(defconst gptel-rust-hooks-log--call-buffer-name "*gptel-rust-hooks-call*"
  "The name of the buffer showing one logged call.")

(defconst gptel-rust-hooks-log--value-length 200
  "Longest text of one argument value kept in a log file line.")

(defconst gptel-rust-hooks-log--short-length 60
  "Longest text of one argument value in the log buffer.")

(defconst gptel-rust-hooks-log--max-args 64
  "Most arguments of one call a log entry describes.")

(defvar-local gptel-rust-hooks-log--call-at-point-function nil
  "Function of no arguments returning the logged call at point, or nil.
The call is a plist (:name :args :buffer :backend :model :cwd), as
`gptel-rust-hooks-explain' takes it.")

(defvar-local gptel-rust-hooks-log--shown-entry nil
  "The log entry shown in this buffer.")

;;;; Declarations for the byte compiler

;; gptel-rust-hooks.el requires this file after its own `provide', and
;; this file requires it after its own, at the end: whichever loads first,
;; each file is loaded once.
(defvar gptel-rust-hooks--record-function)
(defvar gptel-rust-hooks--policy)
(defvar gptel-rust-hooks--last-sandbox)
(defvar gptel-rust-hooks--last-record)
(declare-function gptel-rust-hooks-explain "gptel-rust-hooks" (call &optional rules display))
(declare-function gptel-rust-hooks--mod-record-data "ext:gptel-rust-hooks-module" (record))
(declare-function gptel-rust-hooks--mod-notes "ext:gptel-rust-hooks-module" (policy))
(declare-function gptel-backend-name "gptel")

;;;; Recording

(defun gptel-rust-hooks-log--text (value max)
  "Return VALUE as text of at most MAX characters, never signaling.
Strings are kept as they are (cut when longer), numbers and symbols
are printed; lists and other objects are named by their type.  Raw
bytes become U+FFFD, so that the text is valid UTF-8."
  (let ((text (cond ((stringp value) value)
                    ((numberp value) (number-to-string value))
                    ((null value) "nil")
                    ((symbolp value) (symbol-name value))
                    ((vectorp value) (format "[%d items]" (length value)))
                    ((consp value) "(...)")
                    (t (format "#<%s>" (type-of value))))))
    (when (> (length text) max)
      (setq text (concat (substring text 0 (max 0 (1- max))) "…")))
    (if (string-match-p "[^\0-\177]" text)
        (apply #'string
               (mapcar (lambda (c) (if (> c #x10FFFF) #xFFFD c))
                       (if (multibyte-string-p text)
                           text
                         (decode-coding-string text 'utf-8 t))))
      text)))

(defun gptel-rust-hooks-log--arg-pairs (args)
  "Return the first pairs of the argument plist ARGS as (KEY . VALUE).
KEY is the argument's name without the colon.  Odd, dotted and
circular lists end the walk; it never signals."
  (let ((pairs nil) (n 0))
    (while (and (consp args) (consp (cdr args))
                (< n gptel-rust-hooks-log--max-args))
      (let ((key (car args)))
        (push (cons (if (keywordp key)
                        (substring (symbol-name key) 1)
                      (gptel-rust-hooks-log--text key 40))
                    (cadr args))
              pairs))
      (setq args (cddr args) n (1+ n)))
    (nreverse pairs)))

(defconst gptel-rust-hooks-log--short-total 240
  "Longest short text of a call's arguments.")

(defun gptel-rust-hooks-log--short-args (args)
  "Return a short, one-line text of the argument plist ARGS."
  (gptel-rust-hooks-log--text
   (mapconcat (lambda (pair)
                (let ((v (cdr pair)))
                  (format "%s=%s" (car pair)
                          (replace-regexp-in-string
                           "\n" "\\\\n"
                           (if (stringp v)
                               (prin1-to-string
                                (gptel-rust-hooks-log--text
                                 v gptel-rust-hooks-log--short-length))
                             (gptel-rust-hooks-log--text
                              v gptel-rust-hooks-log--short-length))))))
              (gptel-rust-hooks-log--arg-pairs args)
              " ")
   gptel-rust-hooks-log--short-total))

(defun gptel-rust-hooks-log--backend-name (backend)
  "Return the name of BACKEND, a gptel backend object or a string."
  (cond ((stringp backend) backend)
        ((null backend) nil)
        ((and (fboundp 'gptel-backend-name)
              (ignore-errors (gptel-backend-name backend))))
        (t (gptel-rust-hooks-log--text backend 40))))

(defun gptel-rust-hooks-log--decided-p (kind answer last)
  "Return non-nil when a KIND call that answered ANSWER is recorded in LAST.
LAST is what `gptel-rust-hooks--mod-record-data' read from the
record the module returned with the decision.
A call blocked because it could not be decided (no module, no policy,
a malformed call) leaves no record, or an earlier one that disagrees
with ANSWER; the post-call rules never block."
  (and last
       (let ((decision (car last)))
         (cond ((eq kind 'post)
                (not (or (plist-get answer :block) (plist-get answer :stop))))
               ((plist-get answer :stop) (eq decision 'stop))
               ((plist-member answer :block)
                (and (eq decision 'deny)
                     (equal (plist-get answer :block) (nth 3 last))))
               (t (not (memq decision '(deny stop))))))))

(defun gptel-rust-hooks-log--outcome (kind answer decided)
  "Return the outcome text of a KIND decision that answered ANSWER.
DECIDED is non-nil when the rules decided the call; otherwise a
blocking ANSWER is an error of the package, not a rule's decision."
  (cond
   ((and (not decided) (or (plist-get answer :block) (plist-get answer :stop)))
    "error")
   ((eq kind 'post)
    (if (plist-member answer :result) "changed" "unchanged"))
   ((plist-get answer :stop) "stop")
   ((plist-member answer :block) "deny")
   (t (concat (cond ((not (plist-member answer :confirm)) "none")
                    ((plist-get answer :confirm) "ask")
                    (t "allow"))
              (and (plist-member answer :args) " +args")
              (and (plist-member answer :result) " +result")))))

(defun gptel-rust-hooks-log--reason (answer last)
  "Return the reason of ANSWER, or else the reason in LAST, or nil."
  (let ((block (plist-get answer :block)))
    (cond ((plist-get answer :stop) (plist-get answer :stop-reason))
          ((stringp block) block)
          (t (nth 3 last)))))

(defun gptel-rust-hooks-log--notes (policy)
  "Return what untrusted layers of the compiled POLICY had ignored."
  (when (and policy (fboundp 'gptel-rust-hooks--mod-notes))
    (unless (eq (car gptel-rust-hooks-log--notes-cache) policy)
      (setq gptel-rust-hooks-log--notes-cache
            (cons policy (ignore-errors (gptel-rust-hooks--mod-notes policy)))))
    (cdr gptel-rust-hooks-log--notes-cache)))

(cl-defstruct (gptel-rust-hooks-log--entry
               (:type vector)
               (:constructor gptel-rust-hooks-log--entry-create)
               (:copier nil)
               (:predicate nil))
  "One decision as `gptel-rust-hooks-log--record' keeps it: a plain vector.
The ring's vectors are reused, so that recording allocates nothing once
the ring is full; the text of an entry is made only when it is read."
  (seq nil :documentation "The number of the entry")
  (time nil :documentation "When it was recorded, seconds since the epoch; nil: RECORD's")
  (kind nil :documentation "`pre' or `post'")
  (name nil :documentation "The tool's name, as the call gave it")
  (args nil :documentation "The call's argument plist, as it was")
  (buffer nil :documentation "The request's buffer (name)")
  (backend nil :documentation "The request's backend, an object or a name")
  (model nil :documentation "The request's model")
  (cwd nil :documentation "The call's `default-directory'")
  (answer nil :documentation "What the hook answered")
  (record nil :documentation "The module's record of the decision (a user-ptr), or nil")
  (notes nil :documentation "What untrusted policy files had ignored")
  (result-length nil :documentation "The length of the result (post), not the result")
  (sandbox nil :documentation "How the call runs sandboxed (pre), or nil")
  (post nil :documentation "For a pre entry: t once its post decision joined it")
  (post-answer nil :documentation "What the post hook answered, joined to a pre entry")
  (post-record nil :documentation "The module's record of the joined post decision"))

(defconst gptel-rust-hooks-log--entry-length
  (length (gptel-rust-hooks-log--entry-create))
  "The length of a `gptel-rust-hooks-log--entry' vector.")

(defun gptel-rust-hooks-log--record (kind info answer)
  "Record the KIND decision on the call INFO, which answered ANSWER.
KIND is `pre' or `post'.  This is `gptel-rust-hooks--record-function';
it runs after the decision and changes nothing of it.  It runs before
every tool call, so it keeps what it was given as it is, in a vector of
the ring made once, with the record the module returned with the
decision: the entry's text is made only when the entry is read."
  (let* ((size gptel-rust-hooks-log-size)
         (keep (and (natnump size) (> size 0)))
         (file gptel-rust-hooks-log-file)
         (record gptel-rust-hooks--last-record)
         (pre (and keep (eq kind 'post) (gptel-rust-hooks-log--pre-entry info))))
    (cond
     ((null pre))
     ;; A post decision joins the entry of its call's pre decision.  A
     ;; call that was denied or stopped did not run: nothing to add.
     ((gptel-rust-hooks-log--blocked-p (gptel-rust-hooks-log--entry-answer pre))
      (setf (gptel-rust-hooks-log--entry-post pre) t)
      (setq file nil keep nil))
     (t
      (setf (gptel-rust-hooks-log--entry-post pre) t
            (gptel-rust-hooks-log--entry-post-answer pre) answer
            (gptel-rust-hooks-log--entry-post-record pre) record
            (gptel-rust-hooks-log--entry-result-length pre)
            (let ((result (plist-get info :result)))
              (and (stringp result) (length result))))
      (when file
        ;; The file has a line per decision, written as it is made.
        (let ((entry (make-vector gptel-rust-hooks-log--entry-length nil)))
          (gptel-rust-hooks-log--fill entry kind info answer record)
          (gptel-rust-hooks-log--write (gptel-rust-hooks-log--plist entry) file)))
      (gptel-rust-hooks-log--schedule-refresh)
      (setq file nil keep nil)))
    (when (or keep file)
      (let ((entry (if keep
                       (gptel-rust-hooks-log--slot size)
                     (make-vector gptel-rust-hooks-log--entry-length nil))))
        (gptel-rust-hooks-log--fill entry kind info answer record)
        (when keep (gptel-rust-hooks-log--push entry size))
        (when file
          (gptel-rust-hooks-log--write (gptel-rust-hooks-log--plist entry) file))
        (gptel-rust-hooks-log--schedule-refresh)))))

(defun gptel-rust-hooks-log--blocked-p (answer)
  "Return non-nil when the hook's ANSWER kept the call from running."
  (and (consp answer)
       (or (plist-member answer :block) (plist-get answer :stop))))

(defconst gptel-rust-hooks-log--join-depth 64
  "How many of the newest entries a post decision looks through for its call.")

(defun gptel-rust-hooks-log--pre-entry (info)
  "Return the entry of the pre decision on the call INFO, or nil.
It is the newest pre entry no post decision joined yet, with INFO's
tool name and its very argument list (or the list the pre decision's
edit gave)."
  (let ((ring gptel-rust-hooks-log--ring)
        (name (plist-get info :name))
        (args (plist-get info :args)))
    (when ring
      (let ((size (length ring)))
        (cl-loop for i from 1 to (min gptel-rust-hooks-log--count
                                      gptel-rust-hooks-log--join-depth)
                 for e = (aref ring (mod (- gptel-rust-hooks-log--next i) size))
                 when (and (vectorp e)
                           (= (length e) gptel-rust-hooks-log--entry-length)
                           (eq (gptel-rust-hooks-log--entry-kind e) 'pre)
                           (not (gptel-rust-hooks-log--entry-post e))
                           (equal (gptel-rust-hooks-log--entry-name e) name)
                           (let ((answer (gptel-rust-hooks-log--entry-answer e)))
                             (or (eq (gptel-rust-hooks-log--entry-args e) args)
                                 (and (consp answer) (plist-member answer :args)
                                      (eq (plist-get answer :args) args)))))
                 return e)))))

(defun gptel-rust-hooks-log--fill (entry kind info answer record)
  "Fill the log ENTRY with the KIND decision on INFO, which answered ANSWER.
RECORD is the module's record of it."
  (setf (gptel-rust-hooks-log--entry-seq entry)
              (setq gptel-rust-hooks-log--seq (1+ gptel-rust-hooks-log--seq))
              ;; The module's record has the time; only a call it did not
              ;; decide (an error) takes it here.
              (gptel-rust-hooks-log--entry-time entry) (and (null record) (float-time))
              (gptel-rust-hooks-log--entry-kind entry) kind
              (gptel-rust-hooks-log--entry-name entry) (plist-get info :name)
              (gptel-rust-hooks-log--entry-args entry) (plist-get info :args)
              (gptel-rust-hooks-log--entry-buffer entry) (plist-get info :buffer)
              (gptel-rust-hooks-log--entry-backend entry) (plist-get info :backend)
              (gptel-rust-hooks-log--entry-model entry) (plist-get info :model)
              (gptel-rust-hooks-log--entry-cwd entry) default-directory
              (gptel-rust-hooks-log--entry-answer entry) answer
              (gptel-rust-hooks-log--entry-record entry) record
              (gptel-rust-hooks-log--entry-notes entry)
              (gptel-rust-hooks-log--notes gptel-rust-hooks--policy)
              ;; Not the result itself: it may be megabytes.
              (gptel-rust-hooks-log--entry-result-length entry)
              (and (eq kind 'post)
                   (let ((result (plist-get info :result)))
                     (and (stringp result) (length result))))
              (gptel-rust-hooks-log--entry-sandbox entry)
              (and (eq kind 'pre) gptel-rust-hooks--last-sandbox)
              (gptel-rust-hooks-log--entry-post entry) nil
              (gptel-rust-hooks-log--entry-post-answer entry) nil
              (gptel-rust-hooks-log--entry-post-record entry) nil))

(defun gptel-rust-hooks-log--slot (size)
  "Return the vector of the ring of SIZE entries that the next entry goes in.
It is the oldest entry's, reused, or a new one while the ring fills."
  (unless (and gptel-rust-hooks-log--ring
               (= (length gptel-rust-hooks-log--ring) size))
    (gptel-rust-hooks-log--resize size))
  (let ((old (aref gptel-rust-hooks-log--ring gptel-rust-hooks-log--next)))
    (if (and (vectorp old) (= (length old) gptel-rust-hooks-log--entry-length))
        old
      (make-vector gptel-rust-hooks-log--entry-length nil))))

(defun gptel-rust-hooks-log--push (entry size)
  "Add ENTRY to the in-memory log of SIZE entries.
ENTRY is the vector `gptel-rust-hooks-log--slot' gave, which sized the ring."
  (aset gptel-rust-hooks-log--ring gptel-rust-hooks-log--next entry)
  (setq gptel-rust-hooks-log--next (% (1+ gptel-rust-hooks-log--next) size)
        gptel-rust-hooks-log--count (min size (1+ gptel-rust-hooks-log--count))))

(defun gptel-rust-hooks-log--resize (size)
  "Make the in-memory log hold SIZE entries, keeping the newest."
  (let* ((entries (gptel-rust-hooks-log--vectors))
         (kept (cl-subseq entries 0 (min size (length entries)))))
    (setq gptel-rust-hooks-log--ring (make-vector size nil)
          gptel-rust-hooks-log--count (length kept)
          gptel-rust-hooks-log--next (% (length kept) size))
    (cl-loop for entry in (reverse kept)
             for i from 0
             do (aset gptel-rust-hooks-log--ring i entry))))

(defun gptel-rust-hooks-log--vectors ()
  "Return the entries of the in-memory log, newest first, as vectors."
  (let ((ring gptel-rust-hooks-log--ring)
        (n gptel-rust-hooks-log--count)
        (out nil))
    (when ring
      (let ((size (length ring)))
        (dotimes (i n)
          (push (aref ring (mod (- gptel-rust-hooks-log--next n (- i)) size)) out))))
    out))

(defun gptel-rust-hooks-log--plist (entry)
  "Return the log ENTRY, a vector, as a plist.
ENTRY is as `gptel-rust-hooks-log--record' made it."
  (let* ((kind (gptel-rust-hooks-log--entry-kind entry))
         (answer (gptel-rust-hooks-log--entry-answer entry))
         (record (gptel-rust-hooks-log--entry-record entry))
         (buffer (gptel-rust-hooks-log--entry-buffer entry))
         (model (gptel-rust-hooks-log--entry-model entry))
         (data (and record (fboundp 'gptel-rust-hooks--mod-record-data)
                    (ignore-errors (gptel-rust-hooks--mod-record-data record))))
         (last (and (gptel-rust-hooks-log--decided-p kind answer data) data))
         (post (gptel-rust-hooks-log--entry-post-record entry))
         (post-answer (gptel-rust-hooks-log--entry-post-answer entry))
         (post-last (and post (fboundp 'gptel-rust-hooks--mod-record-data)
                         (ignore-errors (gptel-rust-hooks--mod-record-data post))))
         (post-last (and (gptel-rust-hooks-log--decided-p 'post post-answer post-last)
                         post-last))
         (joined (and (gptel-rust-hooks-log--entry-post entry)
                      (not (gptel-rust-hooks-log--blocked-p answer)))))
    (list :seq (gptel-rust-hooks-log--entry-seq entry)
          :time (or (gptel-rust-hooks-log--entry-time entry) (nth 5 data))
          :kind kind
          :tool (gptel-rust-hooks-log--text (gptel-rust-hooks-log--entry-name entry) 200)
          :args (gptel-rust-hooks-log--entry-args entry)
          :buffer (if (bufferp buffer) (buffer-name buffer) buffer)
          :backend (gptel-rust-hooks-log--backend-name
                    (gptel-rust-hooks-log--entry-backend entry))
          :model (and model (gptel-rust-hooks-log--text model 200))
          :cwd (gptel-rust-hooks-log--entry-cwd entry)
          :outcome (gptel-rust-hooks-log--outcome kind answer last)
          :reason (gptel-rust-hooks-log--reason answer last)
          :rules (nth 1 last) :deciding (nth 2 last) :micros (nth 4 last)
          :notes (gptel-rust-hooks-log--entry-notes entry)
          :result-length (gptel-rust-hooks-log--entry-result-length entry)
          :sandbox (plist-get (gptel-rust-hooks-log--entry-sandbox entry) :describe)
          :sandbox-json (plist-get (gptel-rust-hooks-log--entry-sandbox entry) :json)
          :post-outcome (and joined (gptel-rust-hooks-log--outcome 'post post-answer post-last))
          :post-reason (and joined (gptel-rust-hooks-log--reason post-answer post-last))
          :post-rules (nth 1 post-last)
          :post-micros (nth 4 post-last))))

(defun gptel-rust-hooks-log-entries ()
  "Return the logged calls, newest first, each a plist.
Keys: `:seq' `:time' (seconds since the epoch) `:kind' (`pre' or
`post') `:tool' `:args' `:buffer' `:backend' `:model' `:cwd' `:outcome'
`:reason' `:rules' (labels of the matching rules) `:deciding' `:micros'
`:notes', `:result-length', `:sandbox' (how the call runs sandboxed, on
one line, or nil) and `:sandbox-json' (that as JSON text: the writable,
read-only, private and hidden paths, the network, the sandbox program,
the directory, the shell and the rules).  A pre entry whose call ran
has its post decision joined: `:post-outcome' (\"changed\" or
\"unchanged\"), `:post-reason', `:post-rules', `:post-micros'; nil
while the call has not run, and for a call that was denied or stopped.
A post entry is a post decision whose pre decision is not in the log."
  (mapcar #'gptel-rust-hooks-log--plist (gptel-rust-hooks-log--vectors)))

(defun gptel-rust-hooks-log-clear ()
  "Forget every decision in the in-memory log (the log file stays)."
  (interactive)
  (setq gptel-rust-hooks-log--ring nil
        gptel-rust-hooks-log--next 0
        gptel-rust-hooks-log--count 0)
  (gptel-rust-hooks-log--schedule-refresh))

;;;; Log file

(defun gptel-rust-hooks-log--time-string (time)
  "Return TIME as ISO 8601 text with milliseconds and the UTC offset."
  (format-time-string "%FT%T.%3N%z" time))

(defun gptel-rust-hooks-log--json (entry)
  "Return ENTRY as one line of JSON text."
  (let* ((text (lambda (v) (and v (gptel-rust-hooks-log--text v 1000))))
         (args (gptel-rust-hooks-log--arg-pairs (plist-get entry :args)))
         (object
          (append
           (list (cons "time" (gptel-rust-hooks-log--time-string (plist-get entry :time)))
                 (cons "kind" (symbol-name (plist-get entry :kind)))
                 (cons "tool" (funcall text (plist-get entry :tool)))
                 (cons "args"
                       (if args
                           (mapcar (lambda (pair)
                                     (cons (car pair)
                                           (let ((v (cdr pair)))
                                             (if (or (numberp v) (memq v '(nil t :json-false)))
                                                 v
                                               (gptel-rust-hooks-log--text
                                                v gptel-rust-hooks-log--value-length)))))
                                   args)
                         (make-hash-table)))
                 (cons "outcome" (plist-get entry :outcome))
                 (cons "reason" (funcall text (plist-get entry :reason)))
                 (cons "rules" (vconcat (mapcar text (plist-get entry :rules))))
                 (cons "deciding" (funcall text (plist-get entry :deciding)))
                 (cons "us" (plist-get entry :micros))
                 (cons "buffer" (funcall text (plist-get entry :buffer)))
                 (cons "backend" (funcall text (plist-get entry :backend)))
                 (cons "model" (funcall text (plist-get entry :model)))
                 (cons "cwd" (funcall text (plist-get entry :cwd))))
           (and (plist-get entry :result-length)
                (list (cons "result_length" (plist-get entry :result-length))))
           (and (plist-get entry :notes)
                (list (cons "notes" (vconcat (mapcar text (plist-get entry :notes))))))
           (when-let* ((sandbox (plist-get entry :sandbox-json)))
             (list (cons "sandbox"
                         (let ((json-object-type 'alist)
                               (json-array-type 'vector)
                               (json-key-type 'string)
                               (json-false :json-false))
                           (json-read-from-string sandbox))))))))
    (let ((json-encoding-pretty-print nil))
      (json-encode object))))

(defun gptel-rust-hooks-log--write (entry file)
  "Append ENTRY to the log FILE as one line of JSON; never signal.
A new file is created with mode 0600.  A failure is reported once."
  (let ((file (expand-file-name file)))
    (condition-case err
        (let ((line (concat (gptel-rust-hooks-log--json entry) "\n"))
              (coding-system-for-write 'utf-8-unix)
              (write-region-inhibit-fsync t)
              (create-lockfiles nil))
          (with-file-modes #o600
            (write-region line nil file 'append 'silent))
          (setq gptel-rust-hooks-log--failed-file nil))
      (error
       (unless (equal gptel-rust-hooks-log--failed-file file)
         (setq gptel-rust-hooks-log--failed-file file)
         (ignore-errors
           (display-warning
            'gptel-rust-hooks
            (format "Cannot write the log file %s (%s); decisions are made as before \
and kept in memory" file (error-message-string err))
            :warning)))))))

;;;; Commands

(defun gptel-rust-hooks-log--call (entry)
  "Return the call of the log ENTRY, as `gptel-rust-hooks-explain' takes it."
  (list :name (plist-get entry :tool)
        :args (plist-get entry :args)
        :buffer (plist-get entry :buffer)
        :backend (plist-get entry :backend)
        :model (plist-get entry :model)
        :cwd (plist-get entry :cwd)))

(defun gptel-rust-hooks-log--call-at-point ()
  "Return the call of the log entry at point, or nil."
  (when-let* ((entry (or gptel-rust-hooks-log--shown-entry (tabulated-list-get-id))))
    (gptel-rust-hooks-log--call entry)))

(defun gptel-rust-hooks-log-call-at-point ()
  "Return the logged call at point, or nil when point is on none.
In the log buffer, that is the call of the entry on the current line;
in the buffer showing one logged call, that call.  The call is a plist
\(:name :args :buffer :backend :model :cwd), as `gptel-rust-hooks-explain'
takes it."
  (and (functionp gptel-rust-hooks-log--call-at-point-function)
       (funcall gptel-rust-hooks-log--call-at-point-function)))

(defun gptel-rust-hooks-log--sort-seq (a b)
  "Return non-nil when the log line A is older than B."
  (< (plist-get (car a) :seq) (plist-get (car b) :seq)))

(defun gptel-rust-hooks-log--sort-micros (a b)
  "Return non-nil when the log line A took less time than B."
  (< (or (plist-get (car a) :micros) -1) (or (plist-get (car b) :micros) -1)))

(defun gptel-rust-hooks-log--outcome-text (e)
  "Return the outcome cell of the log entry E, a plist, with its face."
  (let ((outcome (plist-get e :outcome))
        (post (plist-get e :post-outcome)))
    (propertize (concat (if (eq (plist-get e :kind) 'post) "after: " "")
                        outcome
                        (if (plist-get e :sandbox) " +sandbox" "")
                        (pcase post
                          ("changed" " ⇒ changed")
                          ("error" " ⇒ error")
                          (_ "")))
                'face (pcase outcome
                        ((or "deny" "stop" "error") 'error)
                        ((pred (string-prefix-p "ask")) 'warning)
                        ("changed" 'warning)
                        (_ (if (equal post "error") 'error 'default))))))

(defun gptel-rust-hooks-log--one-line (text)
  "Return TEXT on one line, or the empty string for nil."
  (if text (replace-regexp-in-string "\n" " " text) ""))

(defun gptel-rust-hooks-log--list-entries ()
  "Return the log's `tabulated-list-entries', newest first."
  (mapcar
   (lambda (e)
     (let ((notes (plist-get e :notes))
           (rules (append (plist-get e :rules)
                          (cl-set-difference (plist-get e :post-rules) (plist-get e :rules)
                                             :test #'equal))))
       (list e
             (vector (format-time-string "%T" (plist-get e :time))
                     (or (plist-get e :tool) "")
                     (gptel-rust-hooks-log--outcome-text e)
                     (or (plist-get e :deciding) "")
                     (gptel-rust-hooks-log--short-args (plist-get e :args))
                     (gptel-rust-hooks-log--one-line
                      (or (plist-get e :reason) (plist-get e :post-reason)))
                     (concat (string-join rules ",")
                             (if notes (format " [%d notes]" (length notes)) ""))
                     (let ((us (plist-get e :micros)))
                       (if us (format "%.1f" us) ""))
                     (or (plist-get e :buffer) "")
                     (or (plist-get e :model) "")
                     (or (plist-get e :sandbox) "")))))
   (gptel-rust-hooks-log-entries)))

(defvar gptel-rust-hooks-log-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'gptel-rust-hooks-log-explain-entry)
    (define-key map (kbd "i") #'gptel-rust-hooks-log-show-entry)
    (define-key map (kbd "C") #'gptel-rust-hooks-log-clear)
    map)
  "Keymap of `gptel-rust-hooks-log-mode'.")

(define-derived-mode gptel-rust-hooks-log-mode tabulated-list-mode "GRH-Log"
  "Major mode listing the tool calls this package decided, newest first.
One line per call: its decision before it ran, the deciding rule, its
arguments and the reason; \"⇒ changed\" when the rules changed its
result after it ran.  Click a column's header to sort by it.
\\<gptel-rust-hooks-log-mode-map>
\\[gptel-rust-hooks-log-explain-entry] explains the call at point by the
rules in force now, \\[gptel-rust-hooks-log-show-entry] shows the whole
entry; \\[revert-buffer] refreshes.

\\{gptel-rust-hooks-log-mode-map}"
  (setq tabulated-list-format
        [("Time" 8 gptel-rust-hooks-log--sort-seq)
         ("Tool" 12 t)
         ("Outcome" 10 t)
         ("Rule" 10 t)
         ("Args" 30 nil)
         ("Reason" 30 t)
         ("Rules" 16 t)
         ("µs" 7 gptel-rust-hooks-log--sort-micros :right-align t)
         ("Buffer" 12 t)
         ("Model" 12 t)
         ("Sandbox" 0 t)])
  (setq tabulated-list-padding 1
        tabulated-list-sort-key nil
        tabulated-list-entries #'gptel-rust-hooks-log--list-entries)
  (setq gptel-rust-hooks-log--call-at-point-function
        #'gptel-rust-hooks-log--call-at-point)
  (tabulated-list-init-header))

(defvar gptel-rust-hooks-log--buffer nil
  "The buffer `gptel-rust-hooks-log' made, or nil.
Kept so that recording a decision need not look the buffer up by name
among all buffers.")

;;;###autoload
(defun gptel-rust-hooks-log ()
  "Show the decisions this package made, newest first."
  (interactive)
  (let ((buffer (get-buffer-create gptel-rust-hooks-log--buffer-name)))
    (setq gptel-rust-hooks-log--buffer buffer)
    (with-current-buffer buffer
      (unless (derived-mode-p 'gptel-rust-hooks-log-mode)
        (gptel-rust-hooks-log-mode))
      (tabulated-list-print t))
    (pop-to-buffer buffer)
    buffer))

(defun gptel-rust-hooks-log--refresh ()
  "Refresh the log buffer if it is shown in a window."
  (setq gptel-rust-hooks-log--refresh-timer nil)
  (when-let* ((buffer (get-buffer gptel-rust-hooks-log--buffer-name)))
    (when (get-buffer-window buffer t)
      (with-current-buffer buffer
        (tabulated-list-print t)))))

(defun gptel-rust-hooks-log--schedule-refresh ()
  "Refresh a visible log buffer soon, once for many new entries."
  (when (and (not gptel-rust-hooks-log--refresh-timer)
             (buffer-live-p gptel-rust-hooks-log--buffer))
    (setq gptel-rust-hooks-log--refresh-timer
          (run-with-idle-timer 0.2 nil #'gptel-rust-hooks-log--refresh))))

(defun gptel-rust-hooks-log--insert-explanation (call)
  "Insert how the rules in force now decide CALL."
  (insert "\nExplanation, by the rules in force now:\n")
  (condition-case err
      (let ((x (gptel-rust-hooks-explain call)))
        (insert (format "  decision: %s%s\n"
                        (or (plist-get x :decision) "none")
                        (if (plist-get x :by-default) " (by default)" "")))
        (when-let* ((by (plist-get x :deciding-rule)))
          (insert (format "  deciding rule: %s\n" by)))
        (when-let* ((reason (plist-get x :reason)))
          (insert (format "  reason: %s\n" reason)))
        (when-let* ((sandbox (plist-get x :sandbox))
                    ((equal (plist-get sandbox :status) "confined")))
          (insert (format "  sandboxed: %s\n" (plist-get sandbox :describe))))
        (when-let* ((args (plist-get x :edited-args)))
          (insert (format "  edited args: %s\n"
                          (let ((print-length 50) (print-level 5)) (prin1-to-string args)))))
        (dolist (rule (plist-get x :rules))
          (insert (format "  %s %s%s%s\n"
                          (if (plist-get rule :matched) "[x]" "[ ]")
                          (plist-get rule :id)
                          (if (plist-get rule :decision)
                              (format " (%s)" (plist-get rule :decision))
                            "")
                          (if (plist-get rule :deciding) " <- decides" "")))
          (dolist (m (plist-get rule :matchers))
            (insert (format "        %s %s: %s\n"
                            (if (plist-get m :matched) "yes" "no ")
                            (plist-get m :matcher)
                            (let ((print-length 20) (print-level 4))
                              (gptel-rust-hooks-log--text
                               (prin1-to-string (plist-get m :on)) 300))))))
        (dolist (note (plist-get x :notes))
          (insert (format "  note: %s\n" note))))
    (error (insert (format "  (cannot explain: %s)\n" (error-message-string err))))))

(declare-function gptel-rust-hooks-ui--show-explanation "gptel-rust-hooks-ui"
                  (data call rules))

(defun gptel-rust-hooks-log-explain-entry (&optional entry)
  "Explain the call of the log ENTRY, by default the one at point.
Show how the rules in force now decide it in the explain view, and
return that buffer."
  (interactive)
  (let ((entry (or entry (tabulated-list-get-id)
                   (user-error "No logged call on this line"))))
    (require 'gptel-rust-hooks-ui)
    (gptel-rust-hooks-explain (gptel-rust-hooks-log--call entry) nil t)
    (get-buffer "*gptel-rust-hooks-explain*")))

(defun gptel-rust-hooks-log-show-entry (&optional entry)
  "Show the log ENTRY, by default the one at point, and explain its call.
The buffer shows the whole call and how the rules in force now decide it."
  (interactive)
  (let ((entry (or entry (tabulated-list-get-id)
                   (user-error "No logged call on this line"))))
    (with-current-buffer (get-buffer-create gptel-rust-hooks-log--call-buffer-name)
      (let ((inhibit-read-only t)
            (print-circle t)
            (print-length 1000)
            (print-level 20))
        (erase-buffer)
        (special-mode)
        (setq gptel-rust-hooks-log--shown-entry entry
              gptel-rust-hooks-log--call-at-point-function
              #'gptel-rust-hooks-log--call-at-point)
        (insert (format "%s call of tool %s at %s\n\n"
                        (plist-get entry :kind) (plist-get entry :tool)
                        (gptel-rust-hooks-log--time-string (plist-get entry :time))))
        (dolist (field '((:buffer . "buffer") (:backend . "backend") (:model . "model")
                         (:cwd . "directory") (:outcome . "outcome") (:reason . "reason")
                         (:deciding . "deciding rule") (:sandbox . "sandboxed")
                         (:post-outcome . "after the call") (:post-reason . "after, reason")
                         (:result-length . "result length")))
          (when-let* ((v (plist-get entry (car field))))
            (insert (format "%-14s %s\n" (concat (cdr field) ":") v))))
        (insert (format "%-14s %s\n" "rules:"
                        (if (plist-get entry :rules)
                            (string-join (plist-get entry :rules) ", ")
                          "none matched")))
        (when-let* ((us (plist-get entry :micros)))
          (insert (format "%-14s %.1f\n" "microseconds:" us)))
        (dolist (note (plist-get entry :notes))
          (insert (format "%-14s %s\n" "note:" note)))
        (insert "\nArguments:\n")
        (let ((pairs (gptel-rust-hooks-log--arg-pairs (plist-get entry :args))))
          (if (null pairs)
              (insert "  none\n")
            (dolist (pair pairs)
              (insert (format "  %s: %s\n" (car pair)
                              (if (stringp (cdr pair))
                                  (cdr pair)
                                (prin1-to-string (cdr pair))))))))
        (gptel-rust-hooks-log--insert-explanation (gptel-rust-hooks-log--call entry))
        (goto-char (point-min)))
      (display-buffer (current-buffer))
      (current-buffer))))

;;;; Installation

(setq gptel-rust-hooks--record-function #'gptel-rust-hooks-log--record)

(defun gptel-rust-hooks-log-unload-function ()
  "Stop recording when this file is unloaded; let the unloading continue."
  (when (eq gptel-rust-hooks--record-function #'gptel-rust-hooks-log--record)
    (setq gptel-rust-hooks--record-function nil))
  (when (timerp gptel-rust-hooks-log--refresh-timer)
    (cancel-timer gptel-rust-hooks-log--refresh-timer))
  nil)

(provide 'gptel-rust-hooks-log)
(require 'gptel-rust-hooks)

;; Local Variables:
;; package-lint-main-file: "gptel-rust-hooks.el"
;; End:

;;; gptel-rust-hooks-log.el ends here
