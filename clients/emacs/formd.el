;;; formd.el --- Edit formd forms in an Emacs buffer  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, processes
;; URL: clients/emacs in the formd repository

;;; Commentary:

;; formd is a form daemon: it keeps form fields (text, one first responder,
;; Return that moves on, Delete on an empty field that steps back, secure
;; fields whose text never leaks) and speaks newline-delimited JSON-RPC 2.0 on
;; stdin/stdout.  This package is a client for it:
;;
;; - `formd-start', `formd-call' and `formd-stop' drive a daemon from Lisp:
;;   `formd-call' sends one request and waits (synchronously, with a timeout)
;;   for its response, dispatching the events that come before it.
;;
;; - \\[formd-open] asks for a form file, starts formd on it and shows the
;;   form in a buffer: one line per field, "LABEL: DISPLAY", the first
;;   responder's line marked with `formd-responder-mark'.  The buffer is
;;   read-only; typing on a field line sends `setText' with the field's new
;;   text, RET is `pressReturn', DEL is `delete' (or `setText' when point is
;;   inside the text), TAB and S-TAB are `focusNext' and `focusPrevious'.
;;   The buffer is redrawn only from the events formd sends back, and point
;;   follows `focusChanged'.  A secure field is drawn from its `display'
;;   (one bullet per character): its text is never inserted in any buffer.
;;   When the form is submitted, `formd-submit-functions' run with the
;;   values and the buffer and the daemon go away.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

;;;; Options

(defgroup formd nil
  "Client for the formd form daemon."
  :group 'tools
  :prefix "formd-")

(defcustom formd-program (or (getenv "FORMD_BIN") "formd")
  "The formd executable.
Defaults to the environment variable FORMD_BIN when set, else \"formd\"
found on variable `exec-path'."
  :type 'string)

(defcustom formd-program-args nil
  "Extra command-line arguments for formd (e.g. (\"--max-line-bytes\" \"4096\"))."
  :type '(repeat string))

(defcustom formd-call-timeout 10
  "Seconds `formd-call' waits for a response before signalling `formd-timeout'."
  :type 'number)

(defcustom formd-batch-start-grace 0.05
  "Seconds `formd-start' lets a new daemon settle in batch mode.
See the comment in `formd-start': a daemon that exits at once must be
noticed before anything is written to it."
  :type 'number)

(defcustom formd-include-secrets nil
  "When non-nil, `formd-submit-functions' also get secure fields' text.
The values are then fetched with a `submit' request that says
`includeSecrets: true'; otherwise secure fields are withheld by formd and
left out of the values."
  :type 'boolean)

(defcustom formd-submit-functions nil
  "Functions called when a form opened with `formd-open' is submitted.
Each is called with one argument, the submitted values: an alist of
\(FIELD-ID . TEXT) with string keys, in form order.  They run in the
form's buffer, just before the buffer is killed and formd shut down."
  :type 'hook)

(defcustom formd-event-functions nil
  "Functions called with (SESSION METHOD PARAMS) for every event formd sends.
METHOD is the event name (a string) and PARAMS its parameters as an alist
with symbol keys.  They run after the session's own handling (so the form
buffer is already redrawn), from the process filter."
  :type 'hook)

(defcustom formd-responder-mark "> "
  "String that starts the first responder's line.
Other lines start with as many spaces."
  :type 'string)

(defface formd-label '((t :inherit font-lock-keyword-face))
  "Face for field labels.")

(defface formd-responder '((t :inherit bold))
  "Face for the first responder's line.")

(defface formd-disabled '((t :inherit shadow))
  "Face for disabled fields.")

(defface formd-placeholder '((t :inherit shadow :slant italic))
  "Face for placeholders shown in empty fields.")

(defface formd-field-error '((t :inherit error))
  "Face for validation errors shown after a field.")

;;;; Errors

(define-error 'formd-error "formd error")
(define-error 'formd-rpc-error "formd returned an error" 'formd-error)
(define-error 'formd-timeout "formd did not answer in time" 'formd-error)
(define-error 'formd-process-error "formd is not running" 'formd-error)

;;;; Sessions

(cl-defstruct (formd-session (:constructor formd--make-session)
                             (:copier nil))
  "One running formd daemon and what the client knows about one of its forms."
  process stderr-process stderr-buffer buffer file
  (form "default")
  (next-id 0)
  (responses (make-hash-table :test #'equal))
  (partial "")
  (queue nil)
  (dispatching nil)
  ;; The rendered form: a list of hash tables (symbol keys), in order.
  (fields nil)
  (first-responder nil)
  (seq nil)
  ;; running, finishing, closing, closed or dead.
  (state 'running)
  (call-depth 0)
  (running-deferred nil)
  ;; Set by a `submitted' event: (VALUES . WITHHELD).
  (pending-submit nil)
  (needs-resync nil)
  ;; Where point goes at the next render: (FIELD-ID . OFFSET), OFFSET nil = end.
  (cursor nil)
  (focus-moved nil)
  (show-errors nil)
  ;; FIELD-ID -> (LINE-START VALUE-START VALUE-END) in the form buffer.
  (positions (make-hash-table :test #'equal))
  ;; Texts of secure fields this client typed or fetched (never drawn).
  (secrets (make-hash-table :test #'equal))
  (exit-status nil))

(defvar-local formd--session nil
  "The `formd-session' shown in this buffer.")

(defun formd--session-arg (session)
  "Return the session meant by SESSION.
SESSION is a `formd-session', a form buffer, or nil for the current buffer."
  (cond ((formd-session-p session) session)
        ((bufferp session) (buffer-local-value 'formd--session session))
        ((null session)
         (or formd--session (user-error "No formd session in this buffer")))
        (t (signal 'wrong-type-argument (list 'formd-session-p session)))))

(defun formd-start (&optional file form)
  "Start formd, loading FILE with `--form' when non-nil, and return its session.
FORM is the name of the form the session renders (default \"default\").
The daemon is initialized; use `formd-call' to talk to it and
`formd-stop' to end it."
  (unless (executable-find formd-program)
    (signal 'formd-process-error
            (list (format "cannot find the formd program %S (set `formd-program' or FORMD_BIN)"
                          formd-program))))
  (let* ((stderr-buffer (generate-new-buffer " *formd stderr*"))
         (stderr (make-pipe-process :name "formd-stderr" :buffer stderr-buffer
                                    :noquery t :coding 'utf-8-unix
                                    :sentinel #'ignore))
         (command (append (list formd-program)
                          (and file (list "--form" (expand-file-name file)))
                          formd-program-args))
         (session (formd--make-session :file file :form (or form "default")
                                       :stderr-process stderr
                                       :stderr-buffer stderr-buffer))
         (process
          (condition-case err
              (make-process :name "formd" :buffer nil :command command
                            :connection-type 'pipe :coding 'binary
                            :noquery t :stderr stderr
                            :filter #'formd--filter :sentinel #'formd--sentinel)
            (error (delete-process stderr) (kill-buffer stderr-buffer)
                   (signal 'formd-process-error
                           (list (format "cannot start %s: %s" formd-program
                                         (error-message-string err))))))))
    (setf (formd-session-process session) process)
    (process-put process 'formd-session session)
    (when noninteractive
      ;; Batch Emacs dies of SIGPIPE when it writes to a daemon that has
      ;; just exited (interactive Emacs ignores SIGPIPE).  A formd that
      ;; fails at once (a bad form file) is gone within this grace time,
      ;; so the first request is not written to a closing pipe.
      (let ((deadline (+ (float-time) formd-batch-start-grace)))
        (while (and (process-live-p process) (< (float-time) deadline))
          (accept-process-output process 0.01))))
    (condition-case err
        (formd-call session "initialize"
                    '((clientInfo . ((name . "formd.el") (version . "0.1.0")))))
      (error (formd-stop session) (signal (car err) (cdr err))))
    session))

(defun formd-live-p (&optional session)
  "Non-nil when SESSION's daemon is running."
  (let ((s (formd--session-arg session)))
    (and (memq (formd-session-state s) '(running finishing))
         (process-live-p (formd-session-process s)))))

(defun formd--stderr-text (s)
  "What S's formd wrote on stderr so far, trimmed."
  (let ((buf (formd-session-stderr-buffer s))
        (stderr (formd-session-stderr-process s))
        (tries 0))
    ;; Take in what is still in the pipe (the daemon may just have died).
    (while (and (process-live-p stderr) (< tries 10)
                (accept-process-output stderr 0.01))
      (cl-incf tries))
    (if (buffer-live-p buf)
        (with-current-buffer buf (string-trim (buffer-string)))
      "")))

(defun formd-stop (&optional session timeout)
  "End SESSION's daemon cleanly: `shutdown', wait for it to exit, clean up.
Waits at most TIMEOUT seconds (default 2) before deleting the process.
The form buffer, if any, is left alone; see `formd-quit'.  Returns the
daemon's exit status, or nil if it had to be killed."
  (let* ((s (formd--session-arg session))
         (proc (formd-session-process s))
         (timeout (or timeout 2)))
    (unless (eq (formd-session-state s) 'closed)
      (setf (formd-session-state s) 'closing)
      (when (process-live-p proc)
        (ignore-errors (formd-call s "shutdown" nil timeout))
        (when (process-live-p proc) (ignore-errors (process-send-eof proc)))
        (let ((deadline (+ (float-time) timeout)))
          (while (and (process-live-p proc) (< (float-time) deadline))
            (accept-process-output proc 0.05)))
        (when (process-live-p proc) (delete-process proc)))
      (let ((stderr (formd-session-stderr-process s)))
        (when (process-live-p stderr)
          ;; Let the last stderr bytes arrive before the pipe goes away.
          (accept-process-output stderr 0.01)
          (delete-process stderr)))
      (when (buffer-live-p (formd-session-stderr-buffer s))
        (kill-buffer (formd-session-stderr-buffer s)))
      (clrhash (formd-session-secrets s))
      (setf (formd-session-state s) 'closed))
    (when (eq (process-status proc) 'exit)
      (process-exit-status proc))))

(defun formd--sentinel (proc _event)
  "Notice that formd (PROC) ended."
  (let ((s (process-get proc 'formd-session)))
    (when (and s (not (process-live-p proc)))
      (setf (formd-session-exit-status s) (process-exit-status proc))
      (when (memq (formd-session-state s) '(running finishing))
        (setf (formd-session-state s) 'dead)
        (let ((buf (formd-session-buffer s)))
          (when (buffer-live-p buf)
            (with-current-buffer buf
              (setq mode-line-process
                    (format ":exited %d" (process-exit-status proc)))
              (force-mode-line-update))))
        (unless noninteractive
          (message "formd exited (%s %d)%s" (process-status proc)
                   (process-exit-status proc)
                   (let ((err (formd--stderr-text s)))
                     (if (string-empty-p err) "" (concat ": " err)))))))))

;;;; Reading and writing lines

(defun formd--filter (proc chunk)
  "Split formd's output CHUNK (raw bytes from PROC) into messages and handle them."
  (let ((s (process-get proc 'formd-session)))
    (when s
      (let* ((data (concat (formd-session-partial s) chunk))
             (start 0) nl)
        (while (setq nl (string-search "\n" data start))
          ;; The line stays raw UTF-8 bytes: `json-parse-string' reads
          ;; them as such, and `decode-coding-string' would leave a copy
          ;; of the line (perhaps a secret) in a hidden work buffer.
          (let ((line (substring data start nl)))
            (setq start (1+ nl))
            (when (string-suffix-p "\r" line)
              (setq line (substring line 0 -1)))
            (unless (string-blank-p line)
              (formd--receive s line))))
        (setf (formd-session-partial s) (substring data start)))
      (formd--dispatch-queue s)
      (when (and (zerop (formd-session-call-depth s))
                 (formd--deferred-work-p s))
        ;; Output that arrived outside any `formd-call' (e.g. a late
        ;; response): finish the deferred work outside the filter.
        (run-at-time 0 nil #'formd--run-deferred s)))))

(defun formd--parse (line)
  "Parse LINE as JSON: objects become alists with symbol keys, arrays lists."
  (json-parse-string line :object-type 'alist :array-type 'list
                     :null-object nil :false-object nil))

(defun formd--receive (s line)
  "Handle one LINE of formd's output for session S."
  (let ((msg (condition-case err (formd--parse line)
               (json-error
                (message "formd: unreadable output line (%s)" (error-message-string err))
                nil))))
    (cond
     ((null msg))
     ((and (consp msg) (consp (car msg)))
      (formd--receive-message s msg))
     ((consp msg)                       ; a batch response
      (dolist (m msg) (when (consp m) (formd--receive-message s m)))))))

(defun formd--receive-message (s msg)
  "Store response MSG for its request, or queue MSG as an event for S."
  (cond
   ((or (assq 'result msg) (assq 'error msg))
    (let ((id (alist-get 'id msg)))
      (if id
          (puthash id msg (formd-session-responses s))
        (let ((err (alist-get 'error msg)))
          (message "formd: error without id: %s (%s)"
                   (alist-get 'message err) (alist-get 'code err))))))
   ((alist-get 'method msg)
    (setf (formd-session-queue s)
          (nconc (formd-session-queue s)
                 (list (cons (alist-get 'method msg) (alist-get 'params msg))))))))

(defun formd--send (s method params)
  "Send request METHOD with PARAMS to S's daemon; return its id."
  (let* ((id (cl-incf (formd-session-next-id s)))
         (request `((jsonrpc . "2.0") (id . ,id) (method . ,method)
                    ,@(and params `((params . ,params)))))
         (line (concat (json-serialize request) "\n")))
    (process-send-string (formd-session-process s)
                         (encode-coding-string line 'utf-8-unix t))
    id))

(defun formd--scrub-conversion-buffer ()
  "Empty Emacs's hidden code-conversion work buffer.
Emacs decodes process output through it and leaves the last chunk there;
that chunk may hold a secret (a `getState' or `submit' with
`includeSecrets'), so it is not left lying around in a buffer."
  (let ((work (get-buffer " *code-conversion-work*")))
    (when work
      (with-current-buffer work
        (let ((inhibit-read-only t)) (erase-buffer))))))

(defun formd-call (session method &optional params timeout)
  "Send METHOD with PARAMS to SESSION's formd and return the result.
SESSION is a `formd-session', a form buffer, or nil for the current
buffer's session.  PARAMS is an alist with symbol keys, a plist with
keyword keys or a hash table, as `json-serialize' takes (t is true,
:false is false, :null is null, vectors are arrays).  Waits up to
TIMEOUT seconds (default `formd-call-timeout').  The events formd writes
before the response are handled (and `formd-event-functions' run) before
this returns.  The result is an alist with symbol keys (JSON false and
null read as nil, arrays as lists).  An error response signals
`formd-rpc-error' with data (MESSAGE CODE DATA); no response in time
signals `formd-timeout'; a daemon that is gone signals
`formd-process-error'."
  (let* ((s (formd--session-arg session))
         (proc (formd-session-process s))
         (timeout (or timeout formd-call-timeout)))
    (when (eq (formd-session-state s) 'closed)
      (signal 'formd-process-error (list "formd session has ended" method)))
    (unless (process-live-p proc)
      (signal 'formd-process-error
              (list (format "formd is not running (%s %s)" (process-status proc)
                            (process-exit-status proc))
                    (formd--stderr-text s))))
    (let* ((id (condition-case err (formd--send s method params)
                 (error (signal 'formd-process-error
                                (list (error-message-string err) (formd--stderr-text s))))))
           (responses (formd-session-responses s))
           (deadline (+ (float-time) timeout))
           response)
      (cl-incf (formd-session-call-depth s))
      (unwind-protect
          (progn
            (while (and (not (setq response (gethash id responses)))
                        (process-live-p proc)
                        (< (float-time) deadline))
              (accept-process-output proc 0.05))
            (unless response
              ;; The daemon may have exited right after writing: drain.
              (accept-process-output proc 0)
              (setq response (gethash id responses)))
            (remhash id responses))
        (cl-decf (formd-session-call-depth s))
        (formd--scrub-conversion-buffer))
      (when (zerop (formd-session-call-depth s))
        (formd--run-deferred s))
      (cond
       ((null response)
        (if (process-live-p proc)
            (signal 'formd-timeout (list method timeout))
          (signal 'formd-process-error
                  (list (format "formd exited (status %s) before answering %s"
                                (process-exit-status proc) method)
                        (formd--stderr-text s)))))
       ((assq 'error response)
        (let ((err (alist-get 'error response)))
          (signal 'formd-rpc-error
                  (list (alist-get 'message err) (alist-get 'code err)
                        (alist-get 'data err)))))
       (t (alist-get 'result response))))))

(defun formd--error-text (err)
  "A readable message for ERR, a `formd-error' condition."
  (pcase err
    (`(formd-rpc-error ,message ,code . ,_) (format "%s (code %s)" message code))
    (`(formd-timeout ,method ,timeout) (format "no answer to %s within %ss" method timeout))
    (`(,_ ,message . ,rest)
     (string-join (cons (format "%s" message)
                        (mapcar (lambda (x) (format "%s" x)) (delq nil (copy-sequence rest))))
                  ": "))
    (_ (error-message-string err))))

(defun formd-error-code (err)
  "The JSON-RPC code carried by ERR, a `formd-rpc-error' condition."
  (and (eq (car-safe err) 'formd-rpc-error) (nth 2 err)))

;;;; Events

(defun formd--dispatch-queue (s)
  "Handle S's queued events in order (not re-entrantly)."
  (unless (formd-session-dispatching s)
    (setf (formd-session-dispatching s) t)
    (unwind-protect
        (while (formd-session-queue s)
          (let ((event (pop (formd-session-queue s))))
            (condition-case-unless-debug err
                (formd--handle-event s (car event) (cdr event))
              (error (message "formd: error handling %s: %s" (car event)
                              (error-message-string err))))
            (condition-case-unless-debug err
                (run-hook-with-args 'formd-event-functions s (car event) (cdr event))
              (error (message "formd: error in formd-event-functions: %s"
                              (error-message-string err))))))
      (setf (formd-session-dispatching s) nil))))

(defun formd--table (alist)
  "A hash table (symbol keys) holding ALIST's entries."
  (let ((h (make-hash-table :test #'eq)))
    (dolist (kv alist) (puthash (car kv) (cdr kv) h))
    h))

(defun formd--field (s id)
  "The field ID of S's rendered form, or nil."
  (cl-find id (formd-session-fields s)
           :key (lambda (f) (gethash 'id f)) :test #'equal))

(defun formd--load-state (s state)
  "Replace S's form model with STATE (a formDefined/formReset/getState body)."
  (setf (formd-session-fields s)
        (mapcar (lambda (f)
                  (let ((h (formd--table f)))
                    ;; Keep the model free of text the daemon did not show.
                    (when (and (gethash 'secure h) (not (gethash 'revealed h)))
                      (remhash 'text h))
                    h))
                (alist-get 'fields state)))
  (setf (formd-session-first-responder s) (alist-get 'firstResponder state))
  (when (alist-get 'seq state)
    (setf (formd-session-seq s) (alist-get 'seq state))))

(defun formd--handle-event (s method params)
  "Update S's model for event METHOD with PARAMS and redraw."
  (let ((form (alist-get 'form params))
        (seq (alist-get 'seq params))
        (id (alist-get 'field params)))
    (if (not (equal form (formd-session-form s)))
        (when (equal method "error")
          (message "formd: %s (code %s, line %s)" (alist-get 'message params)
                   (alist-get 'code params) (alist-get 'line params)))
      (when (and seq (formd-session-seq s)
                 (/= seq (1+ (formd-session-seq s))))
        (setf (formd-session-needs-resync s) t))
      (when seq (setf (formd-session-seq s) seq))
      (let ((field (and (stringp id) (formd--field s id))))
        (pcase method
          ((or "formDefined" "formReset")
           (formd--load-state s params)
           (clrhash (formd-session-secrets s))
           (setf (formd-session-show-errors s) nil))
          ("fieldAdded"
           (let* ((f (formd--table (alist-get 'field params)))
                  (fields (formd-session-fields s))
                  (index (min (or (alist-get 'index params) (length fields))
                              (length fields))))
             (when (and (gethash 'secure f) (not (gethash 'revealed f)))
               (remhash 'text f))
             (setf (formd-session-fields s)
                   (append (cl-subseq fields 0 index) (list f)
                           (nthcdr index fields)))))
          ("fieldRemoved"
           (setf (formd-session-fields s) (delq field (formd-session-fields s)))
           (remhash id (formd-session-secrets s))
           (when (equal (formd-session-first-responder s) id)
             (setf (formd-session-first-responder s) nil)))
          ("fieldChanged"
           (when field
             (pcase-dolist (`(,k . ,v) (alist-get 'changes params))
               (puthash k v field))
             (when (and (gethash 'secure field) (not (gethash 'revealed field))
                        (not (assq 'text (alist-get 'changes params))))
               (remhash 'text field))))
          ("textChanged"
           (when field
             (puthash 'display (alist-get 'display params) field)
             (puthash 'length (alist-get 'length params) field)
             (if (assq 'text params)
                 (puthash 'text (alist-get 'text params) field)
               (remhash 'text field))
             ;; Our own setText re-stores the secret once it is applied.
             (remhash id (formd-session-secrets s))))
          ("responderChanged"
           (when field
             (let ((first (alist-get 'isFirstResponder params)))
               (puthash 'isFirstResponder first field)
               (cond (first (setf (formd-session-first-responder s) id))
                     ((equal (formd-session-first-responder s) id)
                      (setf (formd-session-first-responder s) nil))))))
          ("focusChanged"
           (let ((to (alist-get 'to params)))
             (setf (formd-session-first-responder s) to)
             (setf (formd-session-focus-moved s) t)
             (when to (setf (formd-session-cursor s) (cons to nil)))))
          ("demandChanged"
           (when field (puthash 'demand (alist-get 'demand params) field)))
          ("validityChanged"
           (when field
             (puthash 'valid (alist-get 'valid params) field)
             (puthash 'errors (alist-get 'errors params) field)))
          ("submitFailed"
           (setf (formd-session-show-errors s) t)
           (when (buffer-live-p (formd-session-buffer s))
             (message "formd: cannot submit: %s"
                    (mapconcat (lambda (e)
                                 (format "%s %s" (alist-get 'field e)
                                         (string-join (alist-get 'errors e) ", ")))
                               (alist-get 'errors params) "; "))))
          ("submitted"
           (when (eq (formd-session-state s) 'running)
             (setf (formd-session-pending-submit s)
                   (cons (alist-get 'values params) (alist-get 'withheld params)))))
          ("error"
           (message "formd: %s (code %s, line %s)" (alist-get 'message params)
                    (alist-get 'code params) (alist-get 'line params)))))
      (unless (member method '("returnPressed" "deletePressed" "changeRejected"
                               "submitted" "error"))
        (formd--render s)))))

(defun formd--deferred-work-p (s)
  "Non-nil when S has work to do once no request is in flight."
  (and (not (formd-session-running-deferred s))
       (memq (formd-session-state s) '(running))
       (or (formd-session-pending-submit s) (formd-session-needs-resync s))))

(defun formd--run-deferred (s)
  "Do S's deferred work: finish a submitted form, resync after missed events."
  (when (formd--deferred-work-p s)
    (setf (formd-session-running-deferred s) t)
    (unwind-protect
        (cond
         ((formd-session-pending-submit s)
          (let ((pending (formd-session-pending-submit s)))
            (setf (formd-session-pending-submit s) nil)
            (formd--finish-submit s (car pending))))
         ((formd-session-needs-resync s)
          (setf (formd-session-needs-resync s) nil)
          (formd-refresh s)))
      (setf (formd-session-running-deferred s) nil))))

(defun formd--values-alist (values)
  "VALUES (a JSON object read as an alist) as an alist with string keys."
  (mapcar (lambda (kv) (cons (symbol-name (car kv)) (cdr kv))) values))

(defun formd--finish-submit (s values)
  "Run `formd-submit-functions' with VALUES, then close S and its buffer."
  (let ((buf (formd-session-buffer s)))
    (setf (formd-session-state s) 'finishing)
    (unwind-protect
        (let ((include (if (buffer-live-p buf)
                           (buffer-local-value 'formd-include-secrets buf)
                         formd-include-secrets)))
          (when include
            (setq values (alist-get 'values
                                    (formd-call s "submit" '((includeSecrets . t))))))
          (let ((alist (formd--values-alist values)))
            (if (buffer-live-p buf)
                (with-current-buffer buf
                  (run-hook-with-args 'formd-submit-functions alist))
              (run-hook-with-args 'formd-submit-functions alist))))
      (formd--close s))))

(defun formd--close (s)
  "Stop S's daemon and kill its form buffer."
  (formd-stop s)
  (let ((buf (formd-session-buffer s)))
    (when (buffer-live-p buf)
      (kill-buffer buf))))

;;;; Rendering

(defun formd--label (f)
  "The label drawn for field F."
  (let ((label (gethash 'label f)))
    (if (and (stringp label) (not (string-empty-p label))) label (gethash 'id f))))

(defun formd--cursor-at-point (s)
  "Where point is in S's form, as (FIELD-ID . OFFSET-IN-VALUE), or nil."
  (let ((id (get-text-property (line-beginning-position) 'formd-field)))
    (when id
      (let ((pos (gethash id (formd-session-positions s))))
        (cons id (and pos (- (point) (nth 1 pos))))))))

(defun formd--render (s)
  "Redraw S's form buffer from the model."
  (let ((buf (formd-session-buffer s)))
    (when (buffer-live-p buf)
      (with-current-buffer buf
        (let* ((inhibit-read-only t)
               (target (or (formd-session-cursor s) (formd--cursor-at-point s)))
               (fields (formd-session-fields s))
               (width (apply #'max 0 (mapcar (lambda (f) (string-width (formd--label f)))
                                             fields)))
               (blank (make-string (string-width formd-responder-mark) ?\s))
               (positions (formd-session-positions s))
               (show-errors (formd-session-show-errors s)))
          (setf (formd-session-cursor s) nil)
          (clrhash positions)
          (delete-all-overlays)
          (erase-buffer)
          (dolist (f fields)
            (let* ((id (gethash 'id f))
                   (first (gethash 'isFirstResponder f))
                   (enabled (gethash 'enabled f t))
                   (label (formd--label f))
                   (display (or (gethash 'display f) ""))
                   (start (point))
                   vstart)
              (insert (if first formd-responder-mark blank)
                      (propertize (concat label ":") 'face 'formd-label)
                      (make-string (- (1+ width) (string-width label)) ?\s))
              (setq vstart (point))
              (insert display)
              (puthash id (list start vstart (point)) positions)
              (when (and (string-empty-p display) (stringp (gethash 'placeholder f)))
                (let ((ov (make-overlay vstart vstart)))
                  (overlay-put ov 'after-string
                               (propertize (gethash 'placeholder f)
                                           'face 'formd-placeholder))))
              (when (and (not (gethash 'valid f t)) (gethash 'errors f)
                         (or show-errors (gethash 'touched f)))
                (let ((ov (make-overlay (point) (point))))
                  (overlay-put ov 'formd-errors (gethash 'errors f))
                  (overlay-put ov 'after-string
                               (propertize (concat "  " (string-join (gethash 'errors f) ", "))
                                           'face 'formd-field-error))))
              (insert "\n")
              (put-text-property start (point) 'formd-field id)
              (cond ((not enabled)
                     (overlay-put (make-overlay start (point)) 'face 'formd-disabled))
                    (first
                     (overlay-put (make-overlay start (point)) 'face 'formd-responder)))))
          (let ((pos (formd--target-position s target)))
            (goto-char pos)
            (dolist (w (get-buffer-window-list buf nil t))
              (set-window-point w pos))))))))

(defun formd--target-position (s target)
  "Buffer position for TARGET, a (FIELD-ID . OFFSET) cursor of S."
  (let ((pos (and target (gethash (car target) (formd-session-positions s)))))
    (if (not pos)
        (let ((first (and (formd-session-first-responder s)
                          (gethash (formd-session-first-responder s)
                                   (formd-session-positions s)))))
          (if first (nth 2 first) (min (point-max) (max (point-min) (point)))))
      (let ((off (cdr target)))
        (if (null off)
            (nth 2 pos)
          (max (nth 0 pos) (min (nth 2 pos) (+ (nth 1 pos) off))))))))

;;;; Commands

(defvar formd-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map [remap self-insert-command] #'formd-self-insert)
    (define-key map [remap yank] #'formd-yank)
    (define-key map (kbd "RET") #'formd-return)
    (define-key map (kbd "DEL") #'formd-delete-backward)
    (define-key map (kbd "TAB") #'formd-focus-next)
    (define-key map (kbd "<backtab>") #'formd-focus-previous)
    (define-key map (kbd "S-<tab>") #'formd-focus-previous)
    (define-key map (kbd "C-c C-c") #'formd-submit)
    (define-key map (kbd "C-c C-k") #'formd-quit)
    (define-key map (kbd "C-c C-r") #'formd-refresh)
    (define-key map (kbd "C-c C-f") #'formd-focus-field-at-point)
    map)
  "Keymap for `formd-mode'.")

(define-derived-mode formd-mode nil "Formd"
  "Major mode for a form kept by formd.
Each line is one field.  Typing edits the field on point's line (it is
focused first), \\[formd-return] presses Return, \\[formd-delete-backward]
deletes backward (on an empty field this is formd's `delete', which may
step back), \\[formd-focus-next] and \\[formd-focus-previous] move focus,
\\[formd-submit] submits and \\[formd-quit] closes without submitting.

\\{formd-mode-map}"
  (setq buffer-read-only t)
  (setq buffer-undo-list t)
  (setq truncate-lines t)
  (setq-local revert-buffer-function (lambda (&rest _) (formd-refresh)))
  (add-hook 'kill-buffer-hook #'formd--kill-buffer-hook nil t))

(defun formd--kill-buffer-hook ()
  "Stop the daemon of the form buffer being killed."
  (when (and formd--session
             (not (memq (formd-session-state formd--session) '(closing closed))))
    (formd-stop formd--session)))

;;;###autoload
(defun formd-open (file)
  "Start formd on the form FILE and edit the form in a buffer.
Returns the buffer."
  (interactive (list (read-file-name "Form file: " nil nil t)))
  (let* ((session (formd-start file))
         (buf (generate-new-buffer (format "*formd: %s*" (file-name-nondirectory file)))))
    (setf (formd-session-buffer session) buf)
    (with-current-buffer buf
      (formd-mode)
      (setq formd--session session)
      (setq default-directory (file-name-directory (expand-file-name file)))
      (setq header-line-format
            (format " formd: %s   TAB/S-TAB focus  RET return  C-c C-c submit  C-c C-k quit"
                    (abbreviate-file-name (expand-file-name file)))))
    (condition-case err
        (formd-refresh session)
      (error (formd--close session) (signal (car err) (cdr err))))
    (pop-to-buffer-same-window buf)
    (let ((first (car (formd-session-fields session))))
      (when first
        (formd--set-point session (or (formd-session-first-responder session)
                                      (gethash 'id first))
                          nil)))
    buf))

(defun formd-refresh (&optional session)
  "Fetch SESSION's form state with `getState' and redraw it."
  (interactive)
  (let ((s (formd--session-arg session)))
    (formd--load-state s (formd-call s "getState"
                                     `((form . ,(formd-session-form s)))))
    (formd--render s)))

(defun formd-quit ()
  "Close the form without submitting: stop formd and kill the buffer."
  (interactive)
  (formd--close (formd--session-arg nil)))

(defun formd--call-form (s method &optional params)
  "Call METHOD on S's form with PARAMS, turning failures into user errors."
  (condition-case err
      (formd-call s method (cons (cons 'form (formd-session-form s)) params))
    (formd-error
     (user-error "Formd %s: %s" method (formd--error-text err)))))

(defun formd--field-at-point (s)
  "The id of the field on point's line, or S's first responder."
  (or (get-text-property (line-beginning-position) 'formd-field)
      (formd-session-first-responder s)
      (user-error "No field here")))

(defun formd--ensure-focus (s id)
  "Make field ID of S the first responder, or signal a user error."
  (unless (equal (formd-session-first-responder s) id)
    (let ((outcome (alist-get 'outcome
                              (formd--call-form s "demandFocus"
                                                `((field . ,id) (demand . "become"))))))
      (unless (equal outcome "fulfilled")
        (user-error "Field %s cannot take focus (%s)" id outcome)))))

(defun formd--value-length (f)
  "Characters drawn for field F."
  (length (or (gethash 'display f) "")))

(defun formd--offset (s id)
  "Point's offset in field ID's value in S, or nil when at its end or elsewhere."
  (let ((cursor (formd--cursor-at-point s))
        (f (formd--field s id)))
    (when (and cursor (equal (car cursor) id) (cdr cursor) f
               (>= (cdr cursor) 0) (< (cdr cursor) (formd--value-length f)))
      (cdr cursor))))

(defun formd--field-text (s id)
  "The current text of field ID of S (fetched privately for secure fields)."
  (let ((f (formd--field s id)))
    (cond
     ((null f) (user-error "No field %s" id))
     ((gethash 'text f))
     ((not (gethash 'secure f)) "")
     (t
      (let ((known (gethash id (formd-session-secrets s))))
        (if (and known (= (length known) (or (gethash 'length f) -1)))
            known
          ;; The secret is needed to build the next setText; it stays in
          ;; this variable and is never inserted anywhere.
          (let* ((state (formd--call-form s "getState" '((includeSecrets . t))))
                 (fs (cl-find id (alist-get 'fields state)
                              :key (lambda (x) (alist-get 'id x)) :test #'equal))
                 (text (or (alist-get 'text fs) "")))
            (puthash id text (formd-session-secrets s))
            text)))))))

(defun formd--set-point (s id offset)
  "Put point at OFFSET (nil: end) in field ID's value of S."
  (let ((buf (formd-session-buffer s)))
    (when (and (buffer-live-p buf) (gethash id (formd-session-positions s)))
      (with-current-buffer buf
        (let ((pos (formd--target-position s (cons id offset))))
          (goto-char pos)
          (dolist (w (get-buffer-window-list buf nil t))
            (set-window-point w pos)))))))

(defun formd--edit (s id edit)
  "Apply EDIT to field ID of S with `setText'.
EDIT is called with the text and point's offset in it (nil: end) and
returns (NEW-TEXT . NEW-OFFSET) or nil to do nothing."
  (let* ((offset (formd--offset s id))
         (f (formd--field s id))
         (before (gethash 'display f)))
    (formd--ensure-focus s id)
    (setq f (formd--field s id))
    (unless (equal before (gethash 'display f)) (setq offset nil)) ; cleared on focus
    (let* ((text (formd--field-text s id))
           (offset (and offset (= (length text) (formd--value-length f))
                        (min offset (length text))))
           (change (funcall edit text offset)))
      (when change
        (setf (formd-session-focus-moved s) nil)
        (let ((result (formd--call-form s "setText" `((field . ,id) (text . ,(car change))))))
          (if (not (alist-get 'applied result))
              (message "formd: %s refused the edit (%s)" id (alist-get 'reason result))
            (when (gethash 'secure f)
              (puthash id (car change) (formd-session-secrets s)))
            (unless (formd-session-focus-moved s)
              (formd--set-point s id (cdr change)))))))))

(defun formd-insert (string)
  "Insert STRING at point in the field on point's line (a `setText')."
  (let* ((s (formd--session-arg nil))
         (id (formd--field-at-point s)))
    (formd--edit s id
                 (lambda (text offset)
                   (let ((off (or offset (length text))))
                     (cons (concat (substring text 0 off) string (substring text off))
                           (and offset (+ offset (length string)))))))
    (let ((f (formd--field s id)))
      (when (and f (gethash 'secure f))
        ;; Like `read-passwd': keep typed secrets out of `view-lossage'.
        (clear-this-command-keys)))))

(defun formd-self-insert (n)
  "Type the last input character N times into the field on point's line."
  (interactive "p")
  (unless (characterp last-command-event)
    (user-error "Not a character: %S" last-command-event))
  (when (> n 0)
    (formd-insert (make-string n last-command-event))))

(defun formd-yank ()
  "Insert the latest kill into the field on point's line."
  (interactive)
  (formd-insert (replace-regexp-in-string "\n" " " (current-kill 0))))

(defun formd-delete-backward (n)
  "Delete the character before point in the field on point's line.
At the end of the field (and always on secure or empty fields) this is
formd's `delete', so Delete on an empty field can step back; inside the
text it is a `setText'.  With N, repeat."
  (interactive "p")
  (dotimes (_ n)
    (let* ((s (formd--session-arg nil))
           (id (formd--field-at-point s))
           (f (formd--field s id))
           (offset (formd--offset s id)))
      (if (and offset (gethash 'text f) (not (gethash 'secure f)))
          (when (> offset 0)
            (formd--edit s id (lambda (text off)
                                (when (and off (> off 0))
                                  (cons (concat (substring text 0 (1- off))
                                                (substring text off))
                                        (1- off))))))
        (formd--ensure-focus s id)
        (setf (formd-session-focus-moved s) nil)
        (let ((result (formd--call-form s "delete" `((field . ,id)))))
          (when (and (alist-get 'applied result) (not (formd-session-focus-moved s)))
            (formd--set-point s id nil)))))))

(defun formd-return ()
  "Press Return in the field on point's line (`pressReturn')."
  (interactive)
  (let* ((s (formd--session-arg nil))
         (id (formd--field-at-point s)))
    (formd--ensure-focus s id)
    (let ((action (alist-get 'action (formd--call-form s "pressReturn" `((field . ,id))))))
      (when (equal action "ignored")
        (message "formd: Return ignored (%s is empty)" id))
      action)))

(defun formd-focus-next ()
  "Move focus to the next field that can take it (`focusNext')."
  (interactive)
  (let ((r (formd--call-form (formd--session-arg nil) "focusNext")))
    (unless (alist-get 'moved r) (message "formd: focus did not move"))
    (alist-get 'firstResponder r)))

(defun formd-focus-previous ()
  "Move focus to the previous field that can take it (`focusPrevious')."
  (interactive)
  (let ((r (formd--call-form (formd--session-arg nil) "focusPrevious")))
    (unless (alist-get 'moved r) (message "formd: focus did not move"))
    (alist-get 'firstResponder r)))

(defun formd-focus-field-at-point ()
  "Demand focus for the field on point's line."
  (interactive)
  (let ((s (formd--session-arg nil)))
    (formd--ensure-focus s (formd--field-at-point s))))

(defun formd-submit ()
  "Submit the form.  When valid, `formd-submit-functions' run and it closes."
  (interactive)
  (let ((r (formd--call-form (formd--session-arg nil) "submit")))
    (alist-get 'valid r)))

(provide 'formd)
;;; formd.el ends here
