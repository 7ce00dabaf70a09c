;;; bench.el --- make bench: how fast gptel-rust-hooks decides, against the floor -*- lexical-binding: t; -*-

;;; Commentary:

;; `make bench' byte-compiles this file and runs `gptel-rust-hooks-bench-run'
;; in one batch Emacs, which prints one table:
;;
;; - the floor: a no-op Elisp hook called with a gptel plist, a no-op module
;;   function, and the file-system cost of resolving a 5-component path;
;; - the Lisp side of the hook on its own (finding the policy in force);
;; - `gptel-rust-hooks-pre-tool-call' deciding realistic calls against
;;   generated policies of 10 to 10,000 rules, next to the same policies
;;   run by the Elisp hook a user would otherwise write;
;; - compile time of each policy, the memory a compiled 10,000-rule policy
;;   holds, the redaction of a 5 MB result, a pathological regexp on 1 MB;
;; - what a sandboxed call adds: to its decision (the confinement resolved
;;   and the command wrapped) and to running it (bubblewrap setting up the
;;   sandbox around `true').
;;
;; Every case: results stored in `gptel-rust-hooks-bench--sink' so that
;; nothing is optimized away, `garbage-collect' before each repetition,
;; REPS repetitions of a loop calibrated to take about 20 ms, median and
;; spread (the largest distance of a repetition from the median) reported.
;; Nothing here is an assertion: the "met" column only compares with the
;; targets of issue 5.
;;
;; Then the targets of issue 25, each a ratio within this one run (or, for
;; the adversarial lines, a time): each printed beside its measurement
;; with a one-line verdict, and compared with the same target in the
;; previous results file kept in the repository (bench/results.md), so
;; that a regression shows the day it lands.  The new results replace
;; that file: commit it with the change it measures.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'gptel-rust-hooks)
(require 'gptel nil t)
(require 'gptel-openai nil t)

(declare-function gptel-make-openai "gptel-openai")
(declare-function gptel-make-tool "gptel-request")
(declare-function gptel--map-tool-args "gptel-request" (tool-spec args))
(declare-function gptel-rust-hooks--mod-version "ext:gptel-rust-hooks-module" ())
(declare-function gptel-rust-hooks--mod-compile "ext:gptel-rust-hooks-module" (rules options))
(declare-function gptel-rust-hooks--mod-pre "ext:gptel-rust-hooks-module"
                  (policy info cwd sandbox schema))
(declare-function gptel-rust-hooks--mod-noop "ext:gptel-rust-hooks-module" (info))
(declare-function gptel-rust-hooks--mod-normalize "ext:gptel-rust-hooks-module" (path cwd))

;;;; Settings

(defvar gptel-rust-hooks-bench-sizes '(10 100 1000 10000)
  "Policy sizes to measure.")

(defvar gptel-rust-hooks-bench-reps 9
  "Repetitions of each case (odd, so that the median is a sample).")

(defvar gptel-rust-hooks-bench-sample-seconds 0.02
  "How long one repetition of a case should take.")

(defvar gptel-rust-hooks-bench-output nil
  "File the table is also written to, or nil.")

(defvar gptel-rust-hooks-bench-previous nil
  "The results file of the previous run, to compare the targets with, or nil.")

(defvar gptel-rust-hooks-bench--targets nil
  "The targets measured so far, newest first: `gptel-rust-hooks-bench--target's.")

(cl-defstruct (gptel-rust-hooks-bench--target
               (:constructor gptel-rust-hooks-bench--target-create)
               (:copier nil))
  "One target of issue 25 and what this run measured of it."
  (key nil :documentation "A short stable name, the row's key in the results file")
  (what nil :documentation "What is measured, one phrase")
  (value nil :documentation "The measurement, a number in UNIT")
  (limit nil :documentation "The largest VALUE that meets the target")
  (unit nil :documentation "\"×\" for a ratio, \"ms\" for a time")
  (detail nil :documentation "The measurements the ratio is made of, as text"))

(defvar gptel-rust-hooks-bench--sink nil
  "Where results go, so that the byte compiler cannot drop the calls.")

(defvar gptel-rust-hooks-bench--root nil
  "The project directory of the benchmark calls (it exists).")

(defvar gptel-rust-hooks-bench--rows nil
  "The table so far, newest first: lists of cells, or a string for a heading.")

;;;; Timing

(defun gptel-rust-hooks-bench--loop (fn arg n)
  "Call FN with ARG N times; return the seconds it took."
  (let ((i 0) (sink nil) (start (float-time)))
    (while (< i n)
      (setq sink (funcall fn arg))
      (setq i (1+ i)))
    (prog1 (- (float-time) start)
      (setq gptel-rust-hooks-bench--sink sink))))

(defun gptel-rust-hooks-bench--calibrate (fn arg)
  "Return how many calls of FN with ARG take about one sample's time."
  (let ((n 1) (took 0.0))
    (while (and (< (setq took (gptel-rust-hooks-bench--loop fn arg n))
                   (/ gptel-rust-hooks-bench-sample-seconds 8))
                (< n 100000000))
      (setq n (* n 4)))
    (max 1 (round (* n (/ gptel-rust-hooks-bench-sample-seconds (max took 1e-9)))))))

(defun gptel-rust-hooks-bench--measure (fn arg &optional reps)
  "Return the seconds per call of FN with ARG: REPS samples, sorted."
  (funcall fn arg)
  (let ((n (gptel-rust-hooks-bench--calibrate fn arg))
        (samples nil))
    (dotimes (_ (or reps gptel-rust-hooks-bench-reps))
      (garbage-collect)
      (push (/ (gptel-rust-hooks-bench--loop fn arg n) n) samples))
    (sort samples #'<)))

(defun gptel-rust-hooks-bench--once (fn &optional reps)
  "Return the seconds FN takes called once: REPS samples, sorted.
For slow cases (compiling a policy); FN is called once more first."
  (funcall fn)
  (let (samples)
    (dotimes (_ (or reps 5))
      (garbage-collect)
      (let ((start (float-time)))
        (setq gptel-rust-hooks-bench--sink (funcall fn))
        (push (- (float-time) start) samples)))
    (sort samples #'<)))

(defun gptel-rust-hooks-bench--median (samples)
  "Return the median of the sorted SAMPLES."
  (nth (/ (length samples) 2) samples))

(defun gptel-rust-hooks-bench--spread (samples)
  "Return the largest distance of SAMPLES from their median, in percent."
  (let ((m (gptel-rust-hooks-bench--median samples)))
    (if (zerop m) 0
      (* 100 (/ (max (- (car (last samples)) m) (- m (car samples))) m)))))

(defun gptel-rust-hooks-bench--time (seconds)
  "Return SECONDS as a short text with a unit."
  (cond ((< seconds 1e-6) (format "%.3f µs" (* seconds 1e6)))
        ((< seconds 1e-4) (format "%.2f µs" (* seconds 1e6)))
        ((< seconds 1e-3) (format "%.1f µs" (* seconds 1e6)))
        ((< seconds 1) (format "%.2f ms" (* seconds 1e3)))
        (t (format "%.2f s" seconds))))

;;;; Table

(defun gptel-rust-hooks-bench--heading (text)
  "Start a section of the table called TEXT."
  (push text gptel-rust-hooks-bench--rows)
  (message "bench: %s" text))

(defun gptel-rust-hooks-bench--row (name samples &optional compare target)
  "Add a row NAME for the sorted SAMPLES; return their median.
COMPARE is a text for the comparison column; TARGET is nil or
\(TEXT . MET)."
  (let ((m (gptel-rust-hooks-bench--median samples)))
    (push (list name
                (gptel-rust-hooks-bench--time m)
                (format "±%.0f%%" (gptel-rust-hooks-bench--spread samples))
                (or compare "")
                (or (car target) "")
                (cond ((null target) "")
                      ((cdr target) "yes")
                      (t "NO")))
          gptel-rust-hooks-bench--rows)
    (message "bench:   %-52s %s" name (gptel-rust-hooks-bench--time m))
    m))

(defun gptel-rust-hooks-bench--text-row (name value &optional compare target)
  "Add a row NAME showing VALUE (a string), COMPARE and TARGET."
  (push (list name value "" (or compare "")
              (or (car target) "")
              (cond ((null target) "") ((cdr target) "yes") (t "NO")))
        gptel-rust-hooks-bench--rows)
  (message "bench:   %-52s %s" name value))

(defun gptel-rust-hooks-bench--table ()
  "Return the table as Markdown text."
  (let* ((header '("case" "median" "spread" "compared" "target" "met"))
         (rows (reverse gptel-rust-hooks-bench--rows))
         (cells (cons header (cl-remove-if #'stringp rows)))
         (widths (apply #'cl-mapcar
                        (lambda (&rest col) (apply #'max (mapcar #'string-width col)))
                        cells))
         (line (lambda (row)
                 (concat "| "
                         (mapconcat #'identity
                                    (cl-mapcar (lambda (c w)
                                                 (concat c (make-string (max 0 (- w (string-width c))) ?\s)))
                                               row widths)
                                    " | ")
                         " |\n"))))
    (concat (funcall line header)
            (funcall line (mapcar (lambda (w) (make-string w ?-)) widths))
            (mapconcat (lambda (row)
                         (if (stringp row)
                             (funcall line (cons (concat "**" row "**")
                                                 (make-list (1- (length header)) "")))
                           (funcall line row)))
                       rows ""))))

;;;; The machine

(defun gptel-rust-hooks-bench--file-line (file regexp)
  "Return the first match of REGEXP's group 1 in FILE, or nil."
  (ignore-errors
    (with-temp-buffer
      (insert-file-contents file)
      (when (re-search-forward regexp nil t) (match-string 1)))))

(defun gptel-rust-hooks-bench--machine ()
  "Return a line describing this machine."
  (format "%s, %d cores, %s MB RAM; %s; Emacs %s"
          (or (gptel-rust-hooks-bench--file-line "/proc/cpuinfo" "^model name\\s-*: \\(.*\\)$")
              "unknown CPU")
          (num-processors)
          (let ((kb (gptel-rust-hooks-bench--file-line "/proc/meminfo" "^MemTotal:\\s-*\\([0-9]+\\)")))
            (if kb (number-to-string (/ (string-to-number kb) 1024)) "?"))
          (string-trim (shell-command-to-string "uname -sr"))
          emacs-version))

(defun gptel-rust-hooks-bench--rss ()
  "Return this process's resident set size in bytes."
  (let ((pages (gptel-rust-hooks-bench--file-line "/proc/self/statm" "^[0-9]+ \\([0-9]+\\)")))
    (* 4096 (string-to-number (or pages "0")))))

;;;; Policies

(defun gptel-rust-hooks-bench--base-rules (root)
  "Return the rules every generated policy starts with, for project ROOT."
  `((:id "ssh" :path "~/.ssh/**" :decision deny :reason "No secrets.")
    (:id "read-project" :tool ("read_file" "list_dir") :path ,(concat root "/**")
     :decision allow)
    (:id "outside" :tool ("read_file" "write_file") :path-outside ,root :decision ask)
    (:id "no-rm" :tool "shell" :command-prefix ("rm -rf" "sudo") :decision deny)
    (:id "safe-shell" :tool "shell"
     :command-prefix ("git log" "git status" "grep" "head" "ls" "wc" "cd")
     :decision allow)
    (:id "drop" :tool "query_db" :args (:sql (:regexp "DROP TABLE")) :decision deny)
    (:id "analytics" :tool "query_db" :args (:database "analytics") :decision allow)
    (:id "key-write" :tool "write_file"
     :args (:content (:regexp "BEGIN [A-Z]+ PRIVATE KEY")) :decision deny)
    (:id "write-project" :tool "write_file" :path ,(concat root "/**") :decision allow)))

(defun gptel-rust-hooks-bench--filler (i)
  "Return generated rule number I: one of five kinds, none matching the calls.
The kinds: MCP tool globs; path globs of read_file; per-project
`:path-outside' under a `:cwd'; shell command prefixes (allow and
deny); argument regexps of query_db."
  (let ((p (format "/srv/p%d" i)))
    (pcase (% i 5)
      (0 `(:tool ,(format "mcp__srv%d__*" i) :decision ask))
      (1 `(:tool "read_file" :path ,(concat p "/secret/**") :decision deny))
      (2 `(:tool ("read_file" "write_file") :cwd ,(concat p "/**") :path-outside ,p
                 :decision ask))
      (3 `(:tool "shell" :command-prefix ,(format "tool%d run" i)
                 :decision ,(if (cl-evenp (/ i 5)) 'allow 'deny)))
      (_ `(:tool "query_db" :args (:sql (:regexp ,(format "DROP TABLE t%d[ ;]" i)))
                 :decision deny)))))

(defun gptel-rust-hooks-bench--rules (n root)
  "Return a policy of N rules for project ROOT."
  (let ((base (gptel-rust-hooks-bench--base-rules root)))
    (append base
            (cl-loop for i below (- n (length base))
                     collect (gptel-rust-hooks-bench--filler i)))))

;;;; The hand-written Elisp hook

(defvar gptel-rust-hooks-bench--elisp-rules nil
  "The policy of the hand-written hook: a list of vectors.")

(defun gptel-rust-hooks-bench--elisp-rule (rule)
  "Return RULE as a hand-written hook would keep it, regexps made once.
A vector [RANK TOOLS PATHS OUTSIDE PREFIXES ARGS CWDS ALLOW]."
  (let ((globs (lambda (v) (mapcar #'wildcard-to-regexp (ensure-list v))))
        (decision (plist-get rule :decision)))
    (vector (pcase decision ('stop 4) ('deny 3) ('ask 2) ('allow 1) (_ 0))
            (funcall globs (plist-get rule :tool))
            (funcall globs (mapcar #'expand-file-name (ensure-list (plist-get rule :path))))
            (mapcar (lambda (d) (file-name-as-directory (expand-file-name d)))
                    (ensure-list (plist-get rule :path-outside)))
            (mapcar (lambda (p) (cons p (concat p " ")))
                    (ensure-list (plist-get rule :command-prefix)))
            (cl-loop for (key m) on (plist-get rule :args) by #'cddr
                     collect (cons key (if (stringp m) (wildcard-to-regexp m)
                                         (plist-get m :regexp))))
            (mapcar (lambda (g) (wildcard-to-regexp (directory-file-name g)))
                    (ensure-list (plist-get rule :cwd)))
            (eq decision 'allow))))

(defun gptel-rust-hooks-bench--elisp-matches-p (rule name args file commands cwd)
  "Return non-nil when RULE matches a call to NAME with ARGS.
FILE is its path argument resolved, COMMANDS the simple commands of
its command line, CWD the directory of the request."
  (and (or (null (aref rule 1))
           (cl-some (lambda (re) (string-match-p re name)) (aref rule 1)))
       (or (null (aref rule 6))
           (cl-some (lambda (re) (string-match-p re cwd)) (aref rule 6)))
       (or (null (aref rule 2))
           (and file (cl-some (lambda (re) (string-match-p re file)) (aref rule 2))))
       (or (null (aref rule 3))
           (and file (cl-notany (lambda (dir) (string-prefix-p dir file)) (aref rule 3))))
       (or (null (aref rule 4))
           (and commands
                (funcall (if (aref rule 7) #'cl-every #'cl-some)
                         (lambda (command)
                           (cl-some (lambda (p) (or (string= command (car p))
                                                    (string-prefix-p (cdr p) command)))
                                    (aref rule 4)))
                         commands)))
       (cl-every (lambda (arg)
                   (let ((v (plist-get args (car arg))))
                     (and (stringp v) (string-match-p (cdr arg) v))))
                 (aref rule 5))))

(defun gptel-rust-hooks-bench-elisp-hook (info)
  "Decide the tool call INFO the way a user's own Elisp hook would.
Every rule in turn, with `string-match-p' on regexps made by
`wildcard-to-regexp', `string-prefix-p' on command prefixes, the path
resolved by `file-truename' and the command line split on its
operators; the most restrictive decision wins."
  (let* ((name (plist-get info :name))
         (args (plist-get info :args))
         (path (plist-get args :path))
         (file (and (stringp path) (file-truename (expand-file-name path))))
         (command (plist-get args :command))
         (commands (and (stringp command)
                        (split-string command "&&\\|||\\|[;|&\n]" t "[ \t]+")))
         (cwd (directory-file-name (expand-file-name default-directory)))
         (best 0))
    ;; Every rule is checked, as gptel-rust-hooks does (it collects all
    ;; matching rules, for edits, results and the reason).
    (dolist (rule gptel-rust-hooks-bench--elisp-rules)
      (when (gptel-rust-hooks-bench--elisp-matches-p rule name args file commands cwd)
        (setq best (max best (aref rule 0)))))
    (pcase best
      (4 (list :stop t :stop-reason "stopped"))
      (3 (list :block "denied"))
      (2 (list :confirm t))
      (1 (list :confirm nil)))))

;;;; Calls

(defun gptel-rust-hooks-bench--setup-root ()
  "Make the benchmark's project directory, with a file 5 components deep."
  (let* ((root (make-temp-file "grhb" t))
         (root (directory-file-name (file-truename root))))
    (make-directory (expand-file-name "src" root) t)
    (with-temp-file (expand-file-name "src/a.txt" root) (insert "hello\n"))
    root))

(defun gptel-rust-hooks-bench--calls (root)
  "Return the realistic calls: (LABEL . INFO), for project ROOT."
  (let ((backend (and (fboundp 'gptel-make-openai)
                      (gptel-make-openai "bench" :key "none")))
        (megabyte (make-string (* 1024 1024) ?x)))
    (mapcar
     (lambda (c)
       (cons (car c)
             (list :name (cadr c) :args (cddr c)
                   :buffer "*gptel*" :backend backend :model 'gpt-4o)))
     `(("query_db, 4 arguments, no path or command"
        "query_db" :database "analytics"
        :sql "SELECT id, name FROM users WHERE id = 42" :limit 100 :timeout 30)
       ("read_file, a 5-component path"
        "read_file" :path ,(concat root "/src/a.txt"))
       ("shell, a pipeline of 3 commands"
        "shell" :command "git log --oneline | grep fix | head -n 5")
       ("shell, a line of 5 simple commands"
        "shell" :command "cd src && ls -la | grep foo; git status && wc -l a.txt")
       ("write_file, 1 MB content"
        "write_file" :path ,(concat root "/src/out.txt") :content ,megabyte)))))

;;;; Cases

(defmacro gptel-rust-hooks-bench--with-policy (rules &rest body)
  "Run BODY with RULES as the user's rules and a clean policy cache."
  (declare (indent 1) (debug t))
  `(let ((gptel-rust-hooks-rules ,rules)
         (gptel-rust-hooks--checked-rules :none)
         (gptel-rust-hooks--good-rules :none)
         (gptel-rust-hooks--cache nil))
     ,@body))

(defun gptel-rust-hooks-bench--answer-name (answer)
  "Return a short name for the hook ANSWER."
  (cond ((plist-get answer :stop) "stop")
        ((plist-get answer :block) "deny")
        ((plist-member answer :confirm) (if (plist-get answer :confirm) "ask" "allow"))
        (t "none")))

(defun gptel-rust-hooks-bench--noop-hook (info)
  "Do nothing with INFO: the floor of a hook function."
  (ignore info)
  nil)

(defun gptel-rust-hooks-bench--floor (info)
  "Measure the floor with the gptel plist INFO; return (ELISP MODULE RESOLVE)."
  (gptel-rust-hooks-bench--heading "Floor")
  (let* ((elisp (gptel-rust-hooks-bench--row
                 "no-op Elisp hook funcall with a gptel plist"
                 (gptel-rust-hooks-bench--measure #'gptel-rust-hooks-bench--noop-hook info)))
         (module (gptel-rust-hooks-bench--row
                  "no-op module function (gptel-rust-hooks--mod-noop)"
                  (gptel-rust-hooks-bench--measure #'gptel-rust-hooks--mod-noop info)))
         (path (concat gptel-rust-hooks-bench--root "/src/a.txt"))
         (normalize (gptel-rust-hooks-bench--measure
                     (lambda (p) (gptel-rust-hooks--mod-normalize p "/")) path))
         (resolve (- (gptel-rust-hooks-bench--median normalize) module)))
    (gptel-rust-hooks-bench--row
     "resolve a 5-component existing path (module call)" normalize
     (format "%s beyond the no-op call" (gptel-rust-hooks-bench--time resolve)))
    (list elisp module (max resolve 0.0))))

(defun gptel-rust-hooks-bench--target (key what value limit unit detail)
  "Record the target KEY: WHAT, measured VALUE, met up to LIMIT, in UNIT.
DETAIL says what VALUE is made of."
  (push (gptel-rust-hooks-bench--target-create
         :key key :what what :value value :limit limit :unit unit :detail detail)
        gptel-rust-hooks-bench--targets)
  (message "bench: target %s: %.2f%s (≤ %s%s)" key value unit limit unit))

(defun gptel-rust-hooks-bench--previous-values (file)
  "Return the target values of the results FILE: an alist (KEY . VALUE)."
  (when (and file (file-readable-p file))
    (with-temp-buffer
      (insert-file-contents file)
      (let ((values nil))
        (while (re-search-forward
                "^| `\\([^`]+\\)` +| [^|]+| +\\([0-9.]+\\) ?\\(?:×\\|ms\\) +|" nil t)
          (push (cons (match-string 1) (string-to-number (match-string 2))) values))
        (nreverse values)))))

(defun gptel-rust-hooks-bench--verdicts (previous)
  "Return the targets as Markdown text, compared with PREVIOUS values.
PREVIOUS is an alist (KEY . VALUE) of the previous results file.  Each
target is a row of a table and a one-line verdict."
  (let ((rows nil) (lines nil))
    (dolist (tg (reverse gptel-rust-hooks-bench--targets))
      (let* ((key (gptel-rust-hooks-bench--target-key tg))
             (value (gptel-rust-hooks-bench--target-value tg))
             (limit (gptel-rust-hooks-bench--target-limit tg))
             (unit (gptel-rust-hooks-bench--target-unit tg))
             (met (<= value limit))
             (old (cdr (assoc key previous)))
             (change (cond ((null old) "no previous value")
                           ((zerop old) (format "previous %.2f%s" old unit))
                           (t (let ((pct (* 100 (/ (- value old) old))))
                                (format "previous %.2f%s, %s%.0f%%%s"
                                        old unit (if (>= pct 0) "+" "") pct
                                        (cond ((> pct 10) ": WORSE")
                                              ((< pct -10) ": better")
                                              (t ": same")))))))
             (measured (format "%.2f%s" value unit)))
        (push (format "| `%s` | %s | %s | ≤ %s%s | %s | %s |\n"
                      key (gptel-rust-hooks-bench--target-what tg) measured limit unit
                      (if met "met" "NOT MET") change)
              rows)
        (push (format "- %s `%s`: %s (target ≤ %s%s; %s); %s.\n"
                      (if met "MET    " "NOT MET") key measured limit unit
                      (gptel-rust-hooks-bench--target-detail tg) change)
              lines)))
    (concat "## Targets (issue 25)\n\n"
            "| target | what | measured | limit | verdict | against the previous run |\n"
            "|---|---|---|---|---|---|\n"
            (apply #'concat (nreverse rows))
            "\n"
            (apply #'concat (nreverse lines)))))

(defun gptel-rust-hooks-bench--lisp-side (calls)
  "Measure the Lisp side of the hook for the first of CALLS (10 rules)."
  (gptel-rust-hooks-bench--heading "The hook's Lisp side (10 rules, query_db)")
  (let ((info (cdar calls))
        (default-directory (file-name-as-directory gptel-rust-hooks-bench--root)))
    (gptel-rust-hooks-bench--with-policy
        (gptel-rust-hooks-bench--rules 10 gptel-rust-hooks-bench--root)
      (gptel-rust-hooks-pre-tool-call info)
      (let ((policy (gptel-rust-hooks--current-policy)))
        (gptel-rust-hooks-bench--row
         "finding the policy in force (--current-policy)"
         (gptel-rust-hooks-bench--measure
          (lambda (_) (gptel-rust-hooks--current-policy)) nil))
        ;; The engine and the whole hook measured in turn, so that load
        ;; from other processes falls on both alike.
        (let ((engine nil) (hook nil)
              (n-engine (gptel-rust-hooks-bench--calibrate
                         (lambda (i) (gptel-rust-hooks--mod-pre policy i default-directory nil nil))
                         info))
              (n-hook (gptel-rust-hooks-bench--calibrate #'gptel-rust-hooks-pre-tool-call info)))
          ;; Three times the repetitions: the target compares the fastest
          ;; of each, the samples least disturbed by other processes.
          (dotimes (_ (* 3 gptel-rust-hooks-bench-reps))
            (garbage-collect)
            (push (/ (gptel-rust-hooks-bench--loop
                      (lambda (i) (gptel-rust-hooks--mod-pre policy i default-directory nil nil))
                      info n-engine)
                     n-engine)
                  engine)
            (garbage-collect)
            (push (/ (gptel-rust-hooks-bench--loop #'gptel-rust-hooks-pre-tool-call info n-hook)
                     n-hook)
                  hook))
          (setq engine (sort engine #'<)
                hook (sort hook #'<))
          (let* ((e (gptel-rust-hooks-bench--row
                     "deciding with the policy given (--mod-pre)" engine))
                 (h (gptel-rust-hooks-bench--row
                     "the whole hook (gptel-rust-hooks-pre-tool-call)" hook
                     (format "%.2f× the engine's decision"
                             (/ (gptel-rust-hooks-bench--median hook)
                                (gptel-rust-hooks-bench--median engine))))))
            (ignore h e)
            (gptel-rust-hooks-bench--target
             "hook-vs-engine"
             "the whole hook against the engine's decision (query_db, 10 rules; fastest of each)"
             (/ (car hook) (car engine)) 1.5 "×"
             (format "fastest of %d interleaved repetitions: hook %s, engine %s"
                     (length hook) (gptel-rust-hooks-bench--time (car hook))
                     (gptel-rust-hooks-bench--time (car engine))))))))))

(defun gptel-rust-hooks-bench--allocation (calls)
  "Show what deciding each of CALLS allocates in Lisp, against 10 rules.
What a decision allocates, the garbage collector pays for later, on
some other call: a loop's median may not show it, this does."
  (gptel-rust-hooks-bench--heading
   "Lisp allocation per decision (10 rules; the whole hook, then the hand-written Elisp hook)")
  (let ((default-directory (file-name-as-directory gptel-rust-hooks-bench--root))
        (n 1000))
    (gptel-rust-hooks-bench--with-policy
        (gptel-rust-hooks-bench--rules 10 gptel-rust-hooks-bench--root)
      (setq gptel-rust-hooks-bench--elisp-rules
            (mapcar #'gptel-rust-hooks-bench--elisp-rule gptel-rust-hooks-rules))
      (dolist (c calls)
        (dolist (hook '(gptel-rust-hooks-pre-tool-call gptel-rust-hooks-bench-elisp-hook))
          ;; Once first, so that the log's ring and the caches are made.
          (dotimes (_ n) (funcall hook (cdr c)))
          (let ((before (memory-use-counts)))
            (dotimes (_ n) (funcall hook (cdr c)))
            (let* ((used (cl-mapcar #'- (memory-use-counts) before))
                   ;; conses, floats, vector cells, symbols, string chars.
                   (bytes (/ (+ (* 16 (nth 0 used)) (* 16 (nth 1 used))
                                (* 8 (nth 2 used)) (nth 4 used))
                             (float n))))
              (gptel-rust-hooks-bench--text-row
               (if (eq hook 'gptel-rust-hooks-pre-tool-call)
                   (car c)
                 "  same, hand-written Elisp hook")
               (format "%.0f B" bytes)
               (format "%.1f conses, %.1f vector cells, %.0f string bytes"
                       (/ (nth 0 used) (float n)) (/ (nth 2 used) (float n))
                       (/ (nth 4 used) (float n)))))))))))

(defun gptel-rust-hooks-bench--module-samples (calls)
  "Measure the hook deciding each of CALLS against each policy size.
The repetitions of the sizes are interleaved, so that load from other
processes falls on every size alike and their ratios hold.  Return a
hash table (LABEL . SIZE) -> sorted samples."
  (let ((policies (mapcar (lambda (n)
                            (cons n (gptel-rust-hooks-bench--rules
                                     n gptel-rust-hooks-bench--root)))
                          gptel-rust-hooks-bench-sizes))
        (table (make-hash-table :test #'equal))
        (default-directory (file-name-as-directory gptel-rust-hooks-bench--root)))
    (gptel-rust-hooks-bench--with-policy nil
      (let ((use (lambda (rules info)
                   ;; These rules compile: skip the check of new rules,
                   ;; and let the first call find the policy, untimed.
                   (setq gptel-rust-hooks-rules rules
                         gptel-rust-hooks--checked-rules rules
                         gptel-rust-hooks--good-rules rules)
                   (gptel-rust-hooks-pre-tool-call info))))
        (dolist (call calls)
          (let* ((info (cdr call))
                 (ns (mapcar (lambda (p)
                               (funcall use (cdr p) info)
                               (gptel-rust-hooks-bench--calibrate
                                #'gptel-rust-hooks-pre-tool-call info))
                             policies)))
            (dotimes (_ gptel-rust-hooks-bench-reps)
              (cl-loop for p in policies
                       for n in ns
                       do (funcall use (cdr p) info)
                       (garbage-collect)
                       (push (/ (gptel-rust-hooks-bench--loop
                                 #'gptel-rust-hooks-pre-tool-call info n)
                                n)
                             (gethash (cons (car call) (car p)) table))))))))
    (maphash (lambda (k v) (puthash k (sort v #'<) table)) table)
    table))

(defun gptel-rust-hooks-bench--decisions (calls floor)
  "Measure deciding CALLS at every policy size; FLOOR as from `--floor'.
Return an alist ((LABEL . SIZE) . (MODULE . ELISP)) of medians."
  (let ((module-floor (nth 1 floor))
        (resolve (nth 2 floor))
        (module-samples (gptel-rust-hooks-bench--module-samples calls))
        (medians nil)
        (default-directory (file-name-as-directory gptel-rust-hooks-bench--root)))
    (dolist (n gptel-rust-hooks-bench-sizes)
      (let ((rules (gptel-rust-hooks-bench--rules n gptel-rust-hooks-bench--root)))
        (gptel-rust-hooks-bench--heading
         (format "Deciding against %d rules: gptel-rust-hooks vs the hand-written Elisp hook" n))
        (gptel-rust-hooks-bench--with-policy rules
          (setq gptel-rust-hooks-bench--elisp-rules
                (mapcar #'gptel-rust-hooks-bench--elisp-rule rules))
          (dolist (call calls)
            (let* ((label (car call))
                   (info (cdr call))
                   (answer (gptel-rust-hooks-pre-tool-call info))
                   (elisp-answer (gptel-rust-hooks-bench-elisp-hook info))
                   (module (gethash (cons label n) module-samples))
                   (elisp (gptel-rust-hooks-bench--measure #'gptel-rust-hooks-bench-elisp-hook info))
                   (m (gptel-rust-hooks-bench--median module))
                   (e (gptel-rust-hooks-bench--median elisp))
                   (target
                    (and (= n 10000)
                         (cond
                          ((string-prefix-p "query_db" label)
                           (cons (format "≤ 15× no-op = %s" (gptel-rust-hooks-bench--time (* 15 module-floor)))
                                 (<= m (* 15 module-floor))))
                          ((string-prefix-p "read_file" label)
                           (cons (format "≤ 15× no-op + resolve = %s"
                                         (gptel-rust-hooks-bench--time (+ (* 15 module-floor) resolve)))
                                 (<= m (+ (* 15 module-floor) resolve))))
                          ((string-match-p "5 simple" label)
                           (cons (format "≤ 30× no-op = %s" (gptel-rust-hooks-bench--time (* 30 module-floor)))
                                 (<= m (* 30 module-floor))))))))
              (push (cons (cons label n) (cons m e)) medians)
              (when (and (= n 10000) (string-prefix-p "query_db" label))
                (gptel-rust-hooks-bench--target
                 "query-db-10000-vs-noop"
                 "a call with no path or command, 10,000 mixed rules, against a no-op module call"
                 (/ m module-floor) 15 "×"
                 (format "%s against %s" (gptel-rust-hooks-bench--time m)
                         (gptel-rust-hooks-bench--time module-floor))))
              (gptel-rust-hooks-bench--row
               (format "%s → %s" label (gptel-rust-hooks-bench--answer-name answer))
               module
               (format "%.1f× no-op module" (/ m module-floor))
               target)
              (gptel-rust-hooks-bench--row
               (format "  same, hand-written Elisp hook → %s"
                       (gptel-rust-hooks-bench--answer-name elisp-answer))
               elisp
               (format "gptel-rust-hooks %s× faster"
                       (if (>= (/ e m) 10) (format "%.0f" (/ e m)) (format "%.1f" (/ e m))))
               (cond ((= n 1000)
                      (cons "≥ 100× faster" (>= (/ e m) 100)))
                     ((= n 10)
                      (cons "not slower" (<= m e))))))))))
    medians))

(defun gptel-rust-hooks-bench--flatness (calls medians)
  "Add the rows comparing 10,000 rules with 10 for CALLS, from MEDIANS."
  (let ((small (apply #'min gptel-rust-hooks-bench-sizes))
        (large (apply #'max gptel-rust-hooks-bench-sizes)))
    (gptel-rust-hooks-bench--heading
     (format "Flat in policy size: %d rules against %d" large small))
    (dolist (call calls)
      (let* ((label (car call))
             (a (car (alist-get (cons label small) medians nil nil #'equal)))
             (b (car (alist-get (cons label large) medians nil nil #'equal)))
             (ratio (/ b a)))
        (when (string-prefix-p "read_file" label)
          (gptel-rust-hooks-bench--target
           "read-file-flat" (format "read_file, %d rules against %d" large small)
           ratio 1.5 "×"
           (format "%s → %s" (gptel-rust-hooks-bench--time a)
                   (gptel-rust-hooks-bench--time b))))
        (gptel-rust-hooks-bench--text-row
         label (format "%.2f×" ratio)
         (format "%s → %s" (gptel-rust-hooks-bench--time a) (gptel-rust-hooks-bench--time b))
         (cons "≤ 1.5×" (<= ratio 1.5)))))))

(defun gptel-rust-hooks-bench--against-elisp (medians)
  "Record the target: faster than the hand-written hook, from MEDIANS.
The worst case of every call at every policy size counts."
  (let ((worst nil))
    (pcase-dolist (`((,label . ,n) . (,m . ,e)) medians)
      (when (or (null worst) (> (/ m e) (car worst)))
        (setq worst (list (/ m e) label n m e))))
    (when worst
      (pcase-let ((`(,ratio ,label ,n ,m ,e) worst))
        (gptel-rust-hooks-bench--target
         "vs-elisp-worst"
         "gptel-rust-hooks against the hand-written Elisp hook, the worst case of all"
         ratio 1.0 "×"
         (format "worst: %s at %d rules, %s against %s" label n
                 (gptel-rust-hooks-bench--time m) (gptel-rust-hooks-bench--time e)))))))

(defun gptel-rust-hooks-bench--fit (prefix unit suffix)
  "Return PREFIX, UNIT repeated, SUFFIX: as long as fits in a line read (127 KB)."
  (let ((n (/ (- (* 127 1024) (length prefix) (length suffix)) (length unit))))
    (concat prefix (apply #'concat (make-list n unit)) suffix)))

(defun gptel-rust-hooks-bench--repeat (n text)
  "Return N times the TEXT."
  (apply #'concat (make-list n text)))

(defun gptel-rust-hooks-bench--adversarial ()
  "Measure the hook on the adversarial lines of benches/engine.rs.
Through the whole hook, so that reading a long line from Lisp counts."
  (gptel-rust-hooks-bench--heading "Adversarial shell lines (the whole hook, 3 rules)")
  (let* ((default-directory (file-name-as-directory gptel-rust-hooks-bench--root))
         (rules '((:tool "shell" :command-prefix ("cat" "ls") :decision allow)
                  (:tool "shell" :command-prefix "rm" :decision deny)
                  (:path ("~/.ssh/**" ".env") :decision deny)))
         (r #'gptel-rust-hooks-bench--repeat)
         (lines
          `(("a glob over /usr" . "cat /usr/*/*/*/*.h")
            ("20,000 path words"
             . ,(concat "cat " (mapconcat (lambda (i) (format "src/f%d.txt" i))
                                          (number-sequence 0 19999) " ")))
            ("2,048 commands" . ,(funcall r 2048 "ls a;"))
            ("5,000 operators" . ,(concat "echo " (funcall r 5000 "${x:-y} ")))
            ("3,000 substitutions" . ,(concat "echo " (funcall r 3000 "$(ls) ")))
            ("find, 1,000 -exec" . ,(concat "find . " (string-join (make-list 1000 "-exec cat {} +") " ")))
            ("bash -c of 2,000 commands" . ,(format "bash -c '%s'" (funcall r 2000 "ls x; ")))
            ("300 pushd" . ,(concat (mapconcat (lambda (i) (format "pushd x%d" i))
                                               (number-sequence 0 299) "; ")
                                    "; cat README"))
            ("16 substitutions, 30,000 words"
             . ,(format "echo %s; ls %s" (funcall r 16 "$(ls) ") (funcall r 30000 "a ")))
            ("200 nested substitutions"
             . ,(concat "echo " (funcall r 200 "$(") (funcall r 3000 "ls a ") (funcall r 200 ")")))
            ("101 case substitutions"
             . ,(concat "echo " (funcall r 101 "$(case x in a) ls;; esac) ") (funcall r 3000 "ls a ")))
            ("30,000 parentheses in a quoted operand"
             . ,(format "prlimit x \"%s %s\"" (funcall r 30000 "( ") (funcall r 30000 ") ")))
            ("the longest line read (127 KB)"
             . ,(gptel-rust-hooks-bench--fit "ls \"$(ls)\" " "\"a\" " ""))
            ("a line of 1 MB"
             . ,(let ((line (concat "ls \"$(ls)\" " (funcall r 250000 "\"a\" "))))
                  (substring line 0 (min (length line) (- (* 1024 1024) 16)))))))
         (slowest nil))
    (gptel-rust-hooks-bench--with-policy rules
      (dolist (line lines)
        (let* ((info (list :name "shell" :args (list :command (cdr line))))
               (answer (gptel-rust-hooks-pre-tool-call info))
               (m (gptel-rust-hooks-bench--row
                   (format "%s → %s" (car line) (gptel-rust-hooks-bench--answer-name answer))
                   (gptel-rust-hooks-bench--measure #'gptel-rust-hooks-pre-tool-call info 5))))
          (when (or (null slowest) (> m (cdr slowest)))
            (setq slowest (cons (car line) m))))))
    (gptel-rust-hooks-bench--target
     "adversarial-slowest" "the slowest adversarial shell line, through the whole hook"
     (* 1000 (cdr slowest)) 20 "ms"
     (format "slowest: %s" (car slowest)))))

(defun gptel-rust-hooks-bench--compile ()
  "Measure compiling each policy size, and the memory of the largest."
  (gptel-rust-hooks-bench--heading "Compiling")
  (let ((options (gptel-rust-hooks--options)))
    (dolist (n gptel-rust-hooks-bench-sizes)
      (let* ((rules (gptel-rust-hooks-bench--rules n gptel-rust-hooks-bench--root))
             (m (gptel-rust-hooks-bench--row
                 (format "compile %d rules (--mod-compile)" n)
                 (gptel-rust-hooks-bench--once
                  (lambda () (gptel-rust-hooks--mod-compile rules options))
                  (if (>= n 10000) 5 9)))))
        (when (= n 10000)
          (setf (nth 4 (car gptel-rust-hooks-bench--rows)) "≤ 300 ms"
                (nth 5 (car gptel-rust-hooks-bench--rows)) (if (<= m 0.3) "yes" "NO")))))
    ;; Memory: the RSS growth of keeping K compiled copies, divided by K,
    ;; so that memory freed after compiling (and kept by malloc) counts
    ;; once, not K times.
    (let* ((n (apply #'max gptel-rust-hooks-bench-sizes))
           (rules (gptel-rust-hooks-bench--rules n gptel-rust-hooks-bench--root))
           (k 4)
           (kept nil))
      (push (gptel-rust-hooks--mod-compile rules options) kept)
      (garbage-collect)
      (let ((before (gptel-rust-hooks-bench--rss)))
        (dotimes (_ k) (push (gptel-rust-hooks--mod-compile rules options) kept))
        (garbage-collect)
        (let ((per (/ (- (gptel-rust-hooks-bench--rss) before) (float k))))
          (gptel-rust-hooks-bench--text-row
           (format "memory of a compiled %d-rule policy" n)
           (format "%.1f MB" (/ per 1e6))
           (format "RSS growth for %d more kept, / %d" k k)
           (cons "< 50 MB" (< per 50e6)))))
      (setq gptel-rust-hooks-bench--sink kept))))

(defun gptel-rust-hooks-bench--secret-text (bytes)
  "Return BYTES of log-like text with a few secrets in it."
  (let ((lines nil) (size 0) (i 0))
    (while (< size bytes)
      (let ((line (if (zerop (% i 997))
                      (format "2026-01-01 12:00:%02d DEBUG auth header Authorization: Bearer abcdefghijklmnopqrstuvwxyz%06d and key sk-proj%026d\n"
                              (% i 60) i i)
                    (format "2026-01-01 12:00:%02d INFO request %d served /api/v1/items?page=%d in %d ms\n"
                            (% i 60) i (% i 100) (% i 250)))))
        (push line lines)
        (setq size (+ size (length line)) i (1+ i))))
    (apply #'concat (nreverse lines))))

(defun gptel-rust-hooks-bench--post-and-regexp (calls)
  "Measure the 5 MB redaction and the pathological regexp; CALLS for a path."
  (gptel-rust-hooks-bench--heading "Post-call redaction, pathological regexp")
  (let ((default-directory (file-name-as-directory gptel-rust-hooks-bench--root)))
    (gptel-rust-hooks-bench--with-policy
        (gptel-rust-hooks-bench--rules 10 gptel-rust-hooks-bench--root)
      (let* ((gptel-rust-hooks-redact-secrets t)
             (text (gptel-rust-hooks-bench--secret-text (* 5 1024 1024)))
             (info (append (cdr (assoc "read_file, a 5-component path" calls))
                           (list :result text)))
             (answer (gptel-rust-hooks-post-tool-call info))
             (m (gptel-rust-hooks-bench--row
                 "redact a 5 MB result, default secret patterns (post hook)"
                 (gptel-rust-hooks-bench--measure #'gptel-rust-hooks-post-tool-call info 5)
                 (format "%d secrets redacted"
                         (with-temp-buffer
                           (insert (or (plist-get answer :result) ""))
                           (how-many "\\[REDACTED\\]" (point-min) (point-max)))))))
        (setf (nth 4 (car gptel-rust-hooks-bench--rows)) "≤ 100 ms"
              (nth 5 (car gptel-rust-hooks-bench--rows)) (if (<= m 0.1) "yes" "NO"))))
    (let* ((content (concat (mapconcat #'identity
                                       (make-list (/ (* 1024 1024) 16) "aaaaaaaaaaaaaaa")
                                       " ")
                            "!"))
           (info (list :name "write_file"
                       :args (list :path (concat gptel-rust-hooks-bench--root "/src/x.txt")
                                   :content content))))
      (gptel-rust-hooks-bench--with-policy
          '((:id "redos" :tool "write_file" :args (:content (:regexp "^(\\w+\\s?)*$"))
             :decision deny))
        (let* ((answer (gptel-rust-hooks-pre-tool-call info))
               (m (gptel-rust-hooks-bench--row
                   (format "regexp ^(\\w+\\s?)*$ on a 1 MB argument, no match (pre hook) → %s"
                           (gptel-rust-hooks-bench--answer-name answer))
                   (gptel-rust-hooks-bench--measure #'gptel-rust-hooks-pre-tool-call info 7)
                   "Emacs's backtracking: not run")))
          (setf (nth 4 (car gptel-rust-hooks-bench--rows)) "≤ 5 ms"
                (nth 5 (car gptel-rust-hooks-bench--rows)) (if (<= m 0.005) "yes" "NO")))))))

;;;; Sandboxed calls

(defun gptel-rust-hooks-bench--sandbox ()
  "Measure what `:sandbox' adds to deciding a call, and to running it."
  (gptel-rust-hooks-bench--heading "Sandboxed calls (10 rules, shell `make test`)")
  (let* ((default-directory (file-name-as-directory gptel-rust-hooks-bench--root))
         (base (gptel-rust-hooks-bench--rules 9 gptel-rust-hooks-bench--root))
         (info (list :name "shell" :args (list :command "make test")
                     :buffer "*gptel*" :model 'gpt-4o))
         (plain-rules (append base '((:id "tests" :tool "shell" :command-prefix "make test"
                                      :decision allow))))
         (boxed-rules (append base '((:id "tests" :tool "shell" :command-prefix "make test"
                                      :decision allow :sandbox t)
                                     (:id "true" :tool "shell" :command-prefix "true"
                                      :decision allow :sandbox t))))
         (tool (and (fboundp 'gptel-make-tool)
                    (gptel-make-tool :name "shell" :function #'ignore
                                     :description "Run a command."
                                     :args '((:name "command" :type string))
                                     :category "gptel-rust-hooks-bench")))
         (plain nil)
         (boxed nil))
    (gptel-rust-hooks--sandbox-enable)
    (unwind-protect
        (progn
          (gptel-rust-hooks-bench--with-policy plain-rules
            (gptel-rust-hooks-pre-tool-call info)
            (setq plain (gptel-rust-hooks-bench--row
                         "decide: allowed, no sandbox → allow"
                         (gptel-rust-hooks-bench--measure
                          #'gptel-rust-hooks-pre-tool-call info))))
          (gptel-rust-hooks-bench--with-policy boxed-rules
            (let ((answer (gptel-rust-hooks-pre-tool-call info)))
              (unless (and (equal answer '(:confirm nil)) gptel-rust-hooks--last-sandbox)
                (error "The sandboxed call was not confined: %S" answer)))
            (setq boxed (gptel-rust-hooks-bench--measure
                         #'gptel-rust-hooks-pre-tool-call info))
            (gptel-rust-hooks-bench--row
             "decide: allowed, :sandbox t (confinement resolved, command wrapped)"
             boxed
             (format "+%s for the sandbox"
                     (gptel-rust-hooks-bench--time
                      (- (gptel-rust-hooks-bench--median boxed) plain))))
            (when tool
              (gptel-rust-hooks-bench--row
               "the tool's arguments confined (gptel--map-tool-args, advised)"
               (gptel-rust-hooks-bench--measure
                (lambda (args) (gptel--map-tool-args tool args))
                (plist-get info :args))))
            (let* ((line (progn
                           (gptel-rust-hooks-pre-tool-call
                            (list :name "shell" :args (list :command "true")))
                           (plist-get (plist-get gptel-rust-hooks--last-sandbox :values)
                                      :command)))
                   (bare (gptel-rust-hooks-bench--measure
                          (lambda (l) (call-process shell-file-name nil nil nil "-c" l))
                          "true" 15))
                   (confined (gptel-rust-hooks-bench--measure
                              (lambda (l) (call-process shell-file-name nil nil nil "-c" l))
                              line 15)))
              (gptel-rust-hooks-bench--row
               "run `true` as a tool does (call-process shell -c)" bare)
              (gptel-rust-hooks-bench--row
               "run `true` sandboxed (bubblewrap around it)" confined
               (format "+%s for the sandbox"
                       (gptel-rust-hooks-bench--time
                        (- (gptel-rust-hooks-bench--median confined)
                           (gptel-rust-hooks-bench--median bare))))))))
      (gptel-rust-hooks--sandbox-disable))))

;;;; Entry point

(defun gptel-rust-hooks-bench-run ()
  "Run every benchmark case and print the table."
  (dolist (f '(gptel-rust-hooks-bench--loop gptel-rust-hooks-pre-tool-call
               gptel-rust-hooks--current-policy))
    (unless (byte-code-function-p (symbol-function f))
      (error "`%s' is not byte-compiled: run `make bench'" f)))
  (gptel-rust-hooks--load-module)
  (let* ((gptel-rust-hooks-bench--rows nil)
         (gptel-rust-hooks-bench--targets nil)
         ;; The audit log stays on, as it is for users (the in-memory log
         ;; of `gptel-rust-hooks-log-size' entries; no log file).
         (gptel-rust-hooks-log-file nil)
         ;; A denial shows a message: in the echo area, not written to
         ;; stderr on each of a loop's thousands of calls.
         (inhibit-message t)
         (gptel-rust-hooks-policy-files nil)
         (gptel-rust-hooks-project-policies t)
         (gptel-rust-hooks-default-decision nil)
         (gptel-rust-hooks-redact-secrets nil)
         (gptel-rust-hooks-bench--root (gptel-rust-hooks-bench--setup-root))
         (calls (gptel-rust-hooks-bench--calls gptel-rust-hooks-bench--root))
         (start (float-time)))
    (unwind-protect
        (let* ((floor (gptel-rust-hooks-bench--floor (cdar calls))))
          (gptel-rust-hooks-bench--lisp-side calls)
          (gptel-rust-hooks-bench--allocation calls)
          (let ((medians (gptel-rust-hooks-bench--decisions calls floor)))
            (gptel-rust-hooks-bench--flatness calls medians)
            (gptel-rust-hooks-bench--against-elisp medians))
          ;; What the later cases allocate makes garbage collections: let
          ;; them not mark the 10,000 rules of the hand-written hook.
          (setq gptel-rust-hooks-bench--elisp-rules nil
                gptel-rust-hooks-bench--sink nil)
          (gptel-rust-hooks-bench--compile)
          (gptel-rust-hooks-bench--post-and-regexp calls)
          (gptel-rust-hooks-bench--sandbox)
          (gptel-rust-hooks-bench--adversarial)
          (let ((text (concat
                       (format "Machine: %s; module %s.\n"
                               (gptel-rust-hooks-bench--machine)
                               (gptel-rust-hooks--mod-version))
                       (format "Each case: median of %d repetitions of a loop of about %.0f ms; spread = largest distance of a repetition from the median; %.0f s in all.\n\n"
                               gptel-rust-hooks-bench-reps
                               (* 1000 gptel-rust-hooks-bench-sample-seconds)
                               (- (float-time) start))
                       (gptel-rust-hooks-bench--table)
                       "\n"
                       (gptel-rust-hooks-bench--verdicts
                        (gptel-rust-hooks-bench--previous-values
                         gptel-rust-hooks-bench-previous)))))
            (princ text)
            (when gptel-rust-hooks-bench-output
              (make-directory (file-name-directory gptel-rust-hooks-bench-output) t)
              (with-temp-file gptel-rust-hooks-bench-output (insert text)))))
      (delete-directory gptel-rust-hooks-bench--root t))))

(provide 'bench)
;;; bench.el ends here
