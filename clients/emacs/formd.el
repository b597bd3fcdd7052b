;;; formd.el --- Edit formd forms in an Emacs buffer  -*- lexical-binding: t; -*-

;; Version: 0.2.0
;; Package-Requires: ((emacs "28.1") (jsonrpc "1.0.14"))
;; Keywords: tools, processes
;; URL: clients/emacs in the formd repository

;;; Commentary:

;; formd is a form daemon: it keeps form fields (text with a caret and a
;; selection, one first responder, Return that moves on, Delete on an empty
;; field that steps back, secure fields whose text never leaks, undo) and
;; speaks JSON-RPC 2.0.  This package is a client for it, built on Emacs's
;; own `jsonrpc' library (a `jsonrpc-process-connection' speaking the LSP
;; base protocol, as Eglot does):
;;
;; - \\[formd-open] asks for a form file, starts a private formd on it and
;;   shows the form in a buffer; \\[formd-attach] asks for the socket of a
;;   running `formd --listen' (and optionally a form name) and shows that
;;   form, live, beside whatever else drives it.  Closing an attached
;;   buffer leaves the daemon running.
;;
;; - In the form buffer (`formd-mode') one line per field reads
;;   "LABEL: DISPLAY".  The keys send what the person did at point:
;;   typing, yank and input methods are `insertText' / `editAction paste',
;;   DEL, C-d, C-k, M-DEL, M-d are `delete' by character, line or word,
;;   C-a C-e C-b C-f M-b M-f are `moveCaret', other motion inside a field's
;;   text is `select', C-/ and C-? are `undo' and `redo'.  formd's rules
;;   (autoAdvance, inputFilter, maxLength, masking, undo runs) therefore
;;   behave as in `formd tui', and point is drawn at formd's caret.  A
;;   secure field is drawn from its `display' (one bullet per character);
;;   its text never enters a buffer, the kill ring or an undo list.
;;
;; - `formd-start', `formd-connect', `formd-call', `formd-notify' and
;;   `formd-stop' drive a daemon from Lisp.
;;
;; When a form is submitted its non-secret values are kept in
;; `formd-last-values', `formd-submit-functions' run (or, when that hook
;; is empty, the values are shown with `message'), and the buffer closes.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'jsonrpc)

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
  "Extra command-line arguments for a private formd (e.g. (\"--max-undo\" \"20\"))."
  :type '(repeat string))

(defcustom formd-call-timeout 10
  "Seconds `formd-call' waits for a response before signalling `formd-timeout'."
  :type 'number)

(defcustom formd-batch-start-grace 0.05
  "Seconds `formd-start' lets a new daemon settle in batch mode.
Batch Emacs dies of SIGPIPE when it writes to a daemon that has just
exited; a formd that fails at once (a bad form file) is gone within this
time, so nothing is written to it."
  :type 'number)

(defcustom formd-attach-method 'socket
  "How `formd-attach' and `formd-connect' reach a running daemon.
`socket': Emacs connects to the Unix socket itself (a local network
process).  `process': through a `formd attach SOCKET' subprocess."
  :type '(choice (const :tag "Connect to the socket" socket)
                 (const :tag "Run formd attach" process)))

(defcustom formd-include-secrets nil
  "When non-nil, `formd-submit-functions' also get secure fields' text.
The text is then fetched from formd once, with `getState' and
`includeSecrets', after the submit; it is handed to the hook functions
only, never kept in `formd-last-values' or shown."
  :type 'boolean)

(defcustom formd-submit-functions nil
  "Functions called when a form shown in a buffer is submitted.
Each is called with one argument, the submitted values: an alist of
\(FIELD-ID . TEXT) with string keys, in form order, without secure
fields unless `formd-include-secrets' is non-nil.  They run in the
form's buffer, just before it closes.  When this hook is empty the
values are shown with `message' instead.  Either way the non-secret
values are kept in `formd-last-values'."
  :type 'hook)

(defcustom formd-event-functions nil
  "Functions called with (SESSION METHOD PARAMS) for every event formd sends.
METHOD is the event name (a string) and PARAMS its parameters as an alist
with symbol keys.  They run after the session's own handling (so the form
buffer is already redrawn), from the connection's notification
dispatcher: they must not call `formd-call'."
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

(defvar formd-last-values nil
  "The non-secret values of the last form submitted in a buffer.
An alist of (FIELD-ID . TEXT) with string keys, in form order; secure
fields are never in it.")

;;;; Errors

(define-error 'formd-error "formd error")
(define-error 'formd-rpc-error "formd returned an error" 'formd-error)
(define-error 'formd-timeout "formd did not answer in time" 'formd-error)
(define-error 'formd-process-error "formd is not running" 'formd-error)

;;;; Sessions

(cl-defstruct (formd-session (:constructor formd--make-session)
                             (:copier nil))
  "One connection to a formd daemon and what the client knows of one of its forms."
  connection process buffer
  ;; The socket of a shared daemon this session is attached to, or nil
  ;; for a private daemon that the session started and stops.
  socket
  (form "default")
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
  (resyncing nil)
  ;; The field whose caret point goes to at the next render (focus moved).
  (cursor nil)
  (show-errors nil)
  ;; FIELD-ID -> (LINE-START VALUE-START VALUE-END) in the form buffer.
  (positions (make-hash-table :test #'equal)))

(defvar-local formd--session nil
  "The `formd-session' shown in this buffer.")

(defvar formd--connection-count 0
  "Connections made so far; numbers their jsonrpc names.")

(defun formd--session-arg (session)
  "Return the session meant by SESSION.
SESSION is a `formd-session', a form buffer, or nil for the current buffer."
  (cond ((formd-session-p session) session)
        ((bufferp session) (buffer-local-value 'formd--session session))
        ((null session)
         (or formd--session (user-error "No formd session in this buffer")))
        (t (signal 'wrong-type-argument (list 'formd-session-p session)))))

;;;; JSON as jsonrpc.el reads and writes it

(defun formd--from-json (value)
  "VALUE as jsonrpc.el read it, with objects as alists.
jsonrpc.el reads objects as plists, arrays as vectors and false as
`:json-false'; this returns alists with symbol keys, lists and nil."
  (cond ((eq value :json-false) nil)
        ((vectorp value) (mapcar #'formd--from-json value))
        ((and (consp value) (keywordp (car value)))
         (cl-loop for (key val) on value by #'cddr
                  collect (cons (intern (substring (symbol-name key) 1))
                                (formd--from-json val))))
        (t value)))

(defun formd--params (params)
  "PARAMS ready for jsonrpc.el: nil becomes the empty object."
  (or params (make-hash-table)))

;;;; Connections

(defun formd--stderr-buffer-name (name)
  "Return the name jsonrpc.el gives the stderr buffer of connection NAME."
  (format "*%s stderr*" name))

(defun formd--private-process (file)
  "A function making a private formd process (on form FILE when non-nil)."
  (let ((command (append (list formd-program)
                         (and file (list "--form" (expand-file-name file)))
                         formd-program-args)))
    (lambda (name)
      (make-process :name name :command command :connection-type 'pipe
                    :coding 'utf-8-unix :noquery t
                    :stderr (get-buffer-create (formd--stderr-buffer-name name))))))

(defun formd--attach-process (socket)
  "A function making a connection to the `formd --listen' daemon on SOCKET."
  (let ((socket (expand-file-name socket)))
    (pcase formd-attach-method
      ('process
       (lambda (name)
         (make-process :name name :command (list formd-program "attach" socket)
                       :connection-type 'pipe :coding 'utf-8-unix :noquery t
                       :stderr (get-buffer-create (formd--stderr-buffer-name name)))))
      (_
       (lambda (name)
         (make-network-process :name name :family 'local :service socket
                               :coding 'utf-8-unix :noquery t))))))

(defun formd--open (make-process &rest slots)
  "Connect through a process from MAKE-PROCESS, initialize, return a session.
MAKE-PROCESS is called with the connection's name.  SLOTS initialize
the `formd-session'."
  (let* ((name (format "formd-%d" (cl-incf formd--connection-count)))
         (s (apply #'formd--make-session slots))
         conn)
    (condition-case err
        (setq conn
              (make-instance
               'jsonrpc-process-connection
               :name name
               ;; No event log: it would keep every message, secrets too.
               :events-buffer-scrollback-size 0
               :process (lambda ()
                          (setf (formd-session-process s) (funcall make-process name)))
               :notification-dispatcher
               (lambda (_conn method params)
                 (formd--receive-event s (symbol-name method) (formd--from-json params)))
               :on-shutdown (lambda (_conn) (formd--connection-ended s))))
      (error
       (formd--kill-connection-buffers name (formd-session-process s))
       (signal 'formd-process-error
               (list (format "cannot %s: %s"
                             (if (plist-get slots :socket)
                                 (format "connect to %s" (plist-get slots :socket))
                               (format "start %s" formd-program))
                             ;; A file-error's data goes on with the process's
                             ;; arguments: keep its reason.
                             (if (and (memq 'file-error (get (car err) 'error-conditions))
                                      (stringp (nth 2 err)))
                                 (nth 2 err)
                               (error-message-string err)))))))
    (setf (formd-session-connection s) conn)
    (let ((stderr (get-buffer-process (jsonrpc-stderr-buffer conn))))
      (when stderr (set-process-query-on-exit-flag stderr nil)))
    (when noninteractive
      (let ((deadline (+ (float-time) formd-batch-start-grace)))
        (while (and (jsonrpc-running-p conn) (< (float-time) deadline))
          (accept-process-output (formd-session-process s) 0.01))))
    (condition-case err
        (formd-call s "initialize"
                    '((clientInfo . ((name . "formd.el") (version . "0.2.0")))
                      (positionEncoding . "utf-32")))
      (error (formd-stop s) (signal (car err) (cdr err))))
    s))

(defun formd-start (&optional file form)
  "Start a private formd (on the form FILE when non-nil); return its session.
FORM is the name of the form the session renders (default \"default\").
The daemon is initialized; use `formd-call' to talk to it and
`formd-stop' to end it."
  (unless (executable-find formd-program)
    (signal 'formd-process-error
            (list (format "cannot find the formd program %S (set `formd-program' or FORMD_BIN)"
                          formd-program))))
  (formd--open (formd--private-process file) :form (or form "default")))

(defun formd-connect (socket &optional form)
  "Connect to the `formd --listen' daemon on SOCKET; return a session.
FORM is the name of the form the session renders (default \"default\").
`formd-stop' on this session closes the connection and leaves the
daemon running.  See `formd-attach-method'."
  (when (and (eq formd-attach-method 'process) (not (executable-find formd-program)))
    (signal 'formd-process-error
            (list (format "cannot find the formd program %S" formd-program))))
  (formd--open (formd--attach-process socket)
               :socket (expand-file-name socket) :form (or form "default")))

(defun formd-live-p (&optional session)
  "Non-nil when SESSION's connection to formd is open."
  (let ((s (formd--session-arg session)))
    (and (memq (formd-session-state s) '(running finishing))
         (process-live-p (formd-session-process s)))))

(defun formd-attached-p (&optional session)
  "Non-nil when SESSION is attached to a shared daemon (not one it started)."
  (and (formd-session-socket (formd--session-arg session)) t))

(defun formd--stderr-text (s)
  "What S's formd wrote on stderr so far, trimmed."
  (let* ((conn (formd-session-connection s))
         (buf (and conn (ignore-errors (jsonrpc-stderr-buffer conn))))
         (pipe (and (buffer-live-p buf) (get-buffer-process buf)))
         (tries 0))
    ;; Take in what is still in the pipe (the daemon may just have died).
    (while (and pipe (process-live-p pipe) (< tries 10)
                (accept-process-output pipe 0.01))
      (cl-incf tries))
    (if (buffer-live-p buf)
        (with-current-buffer buf (string-trim (buffer-string)))
      "")))

(defun formd--kill-connection-buffers (name process)
  "Kill the buffers jsonrpc.el made for connection NAME and its PROCESS."
  (dolist (b (list (and process (process-buffer process))
                   (and process (process-get process 'jsonrpc-stderr))
                   (get-buffer (formd--stderr-buffer-name name))
                   (get-buffer (concat " " (formd--stderr-buffer-name name)))
                   (get-buffer (format "*%s events*" name))))
    (when (buffer-live-p b)
      (let ((kill-buffer-query-functions nil)) (kill-buffer b)))))

(defun formd--connection-ended (s)
  "Notice that S's connection is gone (jsonrpc.el's on-shutdown)."
  (let ((conn (formd-session-connection s)))
    (if (memq (formd-session-state s) '(closing closed))
        (when conn
          (formd--kill-connection-buffers (jsonrpc-name conn) (formd-session-process s)))
      (setf (formd-session-state s) 'dead)
      (let ((buf (formd-session-buffer s))
            (proc (formd-session-process s)))
        (when (buffer-live-p buf)
          (with-current-buffer buf
            (setq mode-line-process
                  (if (eq (process-type proc) 'network) ":closed"
                    (format ":exited %d" (process-exit-status proc))))
            (force-mode-line-update)))
        (unless noninteractive
          (message "formd: %s%s"
                   (if (eq (process-type proc) 'network) "the daemon closed the connection"
                     (format "formd exited (%d)" (process-exit-status proc)))
                   (let ((err (formd--stderr-text s)))
                     (if (string-empty-p err) "" (concat ": " err)))))))))

(defun formd-stop (&optional session timeout)
  "End SESSION's connection and clean up; wait at most TIMEOUT seconds (default 2).
A private daemon is sent `shutdown' and waited for; an attached session
only closes its connection, so the shared daemon keeps running.  The form
buffer, if any, is left alone; see `formd-quit'.  Returns the exit status
of the process (the daemon, or `formd attach'), or nil if it had to be
killed or was a socket connection."
  (let* ((s (formd--session-arg session))
         (proc (formd-session-process s))
         (conn (formd-session-connection s))
         (timeout (or timeout 2)))
    (unless (eq (formd-session-state s) 'closed)
      (setf (formd-session-state s) 'closing)
      (when (process-live-p proc)
        (cond ((eq (process-type proc) 'network) (delete-process proc))
              ((formd-session-socket s) (ignore-errors (process-send-eof proc)))
              (t (ignore-errors (formd-call s "shutdown" nil timeout))
                 (when (process-live-p proc) (ignore-errors (process-send-eof proc))))))
      (let ((deadline (+ (float-time) timeout))
            ;; jsonrpc.el's sentinel says "Server exited": an asked-for end.
            (inhibit-message t)
            (message-log-max nil))
        (while (and proc (process-live-p proc) (< (float-time) deadline))
          (accept-process-output proc 0.05))
        ;; Deleting an exited process makes Emacs run its sentinel now.
        (when proc (delete-process proc))
        ;; Give jsonrpc.el's sentinel a moment to run before its buffers
        ;; go; if it runs later, `formd--connection-ended' cleans up again.
        (let ((deadline (min deadline (+ (float-time) 0.2))))
          (while (and proc (not (process-get proc 'jsonrpc-sentinel-cleanup-started))
                      (< (float-time) deadline))
            (accept-process-output nil 0.01))))
      (when conn
        (formd--kill-connection-buffers (jsonrpc-name conn) proc))
      (setf (formd-session-state s) 'closed))
    (when (and proc (eq (process-type proc) 'real) (eq (process-status proc) 'exit))
      (process-exit-status proc))))

;;;; Requests

(defun formd--scrub-conversion-buffer ()
  "Empty Emacs's hidden code-conversion work buffer.
Emacs may decode process output through it and leave the last chunk
there; that chunk may hold a secret (the `getState' with
`includeSecrets' that `formd-include-secrets' makes)."
  (let ((work (get-buffer " *code-conversion-work*")))
    (when work
      (with-current-buffer work
        (let ((inhibit-read-only t)) (erase-buffer))))))

(defun formd--check-open (s method)
  "Signal `formd-process-error' unless S can take METHOD."
  (when (eq (formd-session-state s) 'closed)
    (signal 'formd-process-error (list "formd session has ended" method)))
  (unless (process-live-p (formd-session-process s))
    (let ((proc (formd-session-process s)))
      (signal 'formd-process-error
              (list (if (eq (process-type proc) 'network)
                        "the connection to formd is closed"
                      (format "formd is not running (%s %s)" (process-status proc)
                              (process-exit-status proc)))
                    (formd--stderr-text s))))))

(defun formd-call (session method &optional params timeout)
  "Send METHOD with PARAMS to SESSION's formd and return the result.
SESSION is a `formd-session', a form buffer, or nil for the current
buffer's session.  PARAMS is an alist with symbol keys, a plist with
keyword keys or a hash table (t is true, `:json-false' false, nil null,
vectors are arrays).  This is `jsonrpc-request': it waits up to TIMEOUT
seconds (default `formd-call-timeout'), and the events formd writes
before the response are dispatched (and `formd-event-functions' run)
before it returns.  The result is an alist with symbol keys (JSON false
and null read as nil, arrays as lists).  An error response signals
`formd-rpc-error' with data (MESSAGE CODE DATA); no response in time
signals `formd-timeout'; a daemon that is gone signals
`formd-process-error'."
  (let ((s (formd--session-arg session))
        (timeout (or timeout formd-call-timeout)))
    (formd--check-open s method)
    (cl-incf (formd-session-call-depth s))
    (let ((result
           (unwind-protect
               (condition-case err
                   (jsonrpc-request (formd-session-connection s) (intern method)
                                    (formd--params params) :timeout timeout)
                 (jsonrpc-error (formd--signal-failure s method timeout (cdr err)))
                 (file-error
                  (signal 'formd-process-error
                          (list (error-message-string err) (formd--stderr-text s)))))
             (cl-decf (formd-session-call-depth s))
             (formd--scrub-conversion-buffer))))
      (formd--after-call s)
      (formd--from-json result))))

(defun formd--signal-failure (s method timeout data)
  "Signal the `formd-error' for METHOD's failed request to S.
DATA is the data of jsonrpc.el's `jsonrpc-error'."
  (let ((code (alist-get 'jsonrpc-error-code (cdr data)))
        (message (alist-get 'jsonrpc-error-message (cdr data))))
    (cond ((and (null code) (equal message "Timed out"))
           (signal 'formd-timeout (list method timeout)))
          ((eql code -1)                ; jsonrpc.el: "Server died"
           (let ((proc (formd-session-process s)))
             (signal 'formd-process-error
                     (list (format "formd exited (status %s) before answering %s"
                                   (process-exit-status proc) method)
                           (formd--stderr-text s)))))
          (t (signal 'formd-rpc-error
                     (list message code (alist-get 'jsonrpc-error-data (cdr data))))))))

(defun formd-notify (session method &optional params)
  "Send METHOD with PARAMS to SESSION's formd as a notification (no response).
This is `jsonrpc-notify'.  A notification that fails comes back as an
`error' event, shown with `message'."
  (let ((s (formd--session-arg session)))
    (formd--check-open s method)
    (jsonrpc-notify (formd-session-connection s) (intern method) (formd--params params))))

(defun formd--after-call (s)
  "Finish what waits for S's outermost request to be answered."
  (when (zerop (formd-session-call-depth s))
    ;; jsonrpc.el leaves messages that came in the same read as the
    ;; response (another client's events) unparsed until more output
    ;; arrives: take them in now.
    (let ((proc (formd-session-process s)))
      (when (and (process-live-p proc)
                 (buffer-live-p (process-buffer proc))
                 (> (buffer-size (process-buffer proc)) 0))
        (funcall (process-filter proc) proc "")))
    (formd--run-deferred s)))

(defun formd--error-text (err)
  "A readable message for ERR, a `formd-error' condition."
  (pcase err
    (`(formd-rpc-error ,message ,code . ,_) (format "%s (code %s)" message code))
    (`(formd-timeout ,method ,timeout) (format "no answer to %s within %ss" method timeout))
    (`(,_ ,message . ,rest)
     (string-join (cons (format "%s" message)
                        (mapcar (lambda (x) (format "%s" x))
                                (delete "" (delq nil (copy-sequence rest)))))
                  ": "))
    (_ (error-message-string err))))

(defun formd-error-code (err)
  "The JSON-RPC code carried by ERR, a `formd-rpc-error' condition."
  (and (eq (car-safe err) 'formd-rpc-error) (nth 2 err)))

;;;; Events

(defun formd--receive-event (s method params)
  "Handle event METHOD with PARAMS (an alist) from S's daemon.
This is the connection's notification dispatcher."
  (condition-case-unless-debug err
      (formd--handle-event s method params)
    (error (message "formd: error handling %s: %s" method (error-message-string err))))
  (condition-case-unless-debug err
      (run-hook-with-args 'formd-event-functions s method params)
    (error (message "formd: error in formd-event-functions: %s"
                    (error-message-string err))))
  (when (and (zerop (formd-session-call-depth s)) (formd--deferred-work-p s))
    ;; An event no request of ours caused (another client submitted):
    ;; finish outside the process filter.
    (run-at-time 0 nil #'formd--run-deferred s)))

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
  (setf (formd-session-fields s) (mapcar #'formd--table (alist-get 'fields state)))
  (setf (formd-session-first-responder s) (alist-get 'firstResponder state))
  (when (alist-get 'seq state)
    (setf (formd-session-seq s) (alist-get 'seq state))))

(defun formd--resync (s)
  "Fetch S's form state again (events were missed), with `jsonrpc-async-request'."
  (unless (formd-session-resyncing s)
    (setf (formd-session-resyncing s) t)
    (jsonrpc-async-request
     (formd-session-connection s) 'getState `((form . ,(formd-session-form s)))
     :success-fn (lambda (state)
                   (setf (formd-session-resyncing s) nil)
                   (formd--load-state s (formd--from-json state))
                   (formd--render s))
     :error-fn (lambda (_err) (setf (formd-session-resyncing s) nil))
     :timeout-fn (lambda () (setf (formd-session-resyncing s) nil)))))

(defun formd--validation-message (err)
  "The text of ERR, a validation error: an object with `message', or a string."
  (if (stringp err) err (format "%s" (or (alist-get 'message err) err))))

(defun formd--validation-messages (errors)
  "ERRORS, a list of validation errors, as one string."
  (mapconcat #'formd--validation-message errors ", "))

(defun formd--handle-event (s method params)
  "Update S's model for event METHOD with PARAMS and redraw."
  (let ((form (alist-get 'form params))
        (seq (alist-get 'seq params))
        (id (alist-get 'field params)))
    (pcase method
      ("error"
       (message "formd: %s (code %s)" (alist-get 'message params) (alist-get 'code params)))
      ("shutdown"
       (message "formd: the daemon is shutting down (%s)" (alist-get 'reason params)))
      ((guard (not (equal form (formd-session-form s)))))
      (_
       (when (and seq (formd-session-seq s) (/= seq (1+ (formd-session-seq s))))
         (formd--resync s))
       (when seq (setf (formd-session-seq s) seq))
       (let ((field (and (stringp id) (formd--field s id))))
         (pcase method
           ((or "formDefined" "formReset")
            (formd--load-state s params)
            (setf (formd-session-show-errors s) nil))
           ("fieldAdded"
            (let* ((fields (formd-session-fields s))
                   (index (min (or (alist-get 'index params) (length fields))
                               (length fields))))
              (setf (formd-session-fields s)
                    (append (cl-subseq fields 0 index)
                            (list (formd--table (alist-get 'field params)))
                            (nthcdr index fields)))))
           ("fieldRemoved"
            (setf (formd-session-fields s) (delq field (formd-session-fields s)))
            (when (equal (formd-session-first-responder s) id)
              (setf (formd-session-first-responder s) nil)))
           ("fieldChanged"
            (when field
              (pcase-dolist (`(,k . ,v) (alist-get 'changes params))
                (puthash k v field))
              (when (and (assq 'display (alist-get 'changes params))
                         (not (assq 'text (alist-get 'changes params))))
                (remhash 'text field))))
           ("textChanged"
            (when field
              (dolist (k '(display length selection))
                (puthash k (alist-get k params) field))
              (if (assq 'text params)
                  (puthash 'text (alist-get 'text params) field)
                (remhash 'text field))))
           ("selectionChanged"
            (when field (puthash 'selection (alist-get 'selection params) field)))
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
              (when to (setf (formd-session-cursor s) to))))
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
                                    (format "%s: %s" (formd--field-name s (alist-get 'field e))
                                            (formd--validation-messages (alist-get 'errors e))))
                                  (alist-get 'errors params) "; "))))
           ("submitted"
            ;; A form shown in a buffer is done; a Lisp session just sees the event.
            (when (and (eq (formd-session-state s) 'running) (formd-session-buffer s))
              (setf (formd-session-pending-submit s)
                    (cons (alist-get 'values params) (alist-get 'withheld params)))))))
       (unless (member method '("returnPressed" "deletePressed" "changeRejected" "submitted"))
         (formd--render s))))))

(defun formd--deferred-work-p (s)
  "Non-nil when S has work to do once no request is in flight."
  (and (not (formd-session-running-deferred s))
       (eq (formd-session-state s) 'running)
       (formd-session-pending-submit s)))

(defun formd--run-deferred (s)
  "Finish S's submitted form, once no request of S is waiting."
  (when (and (zerop (formd-session-call-depth s)) (formd--deferred-work-p s))
    (setf (formd-session-running-deferred s) t)
    (unwind-protect
        (let ((pending (formd-session-pending-submit s)))
          (setf (formd-session-pending-submit s) nil)
          (formd--finish-submit s (car pending) (cdr pending)))
      (setf (formd-session-running-deferred s) nil))))

(defun formd--values-alist (values)
  "VALUES (a JSON object read as an alist) as an alist with string keys."
  (mapcar (lambda (kv) (cons (symbol-name (car kv)) (cdr kv))) values))

(defun formd--values-with-secrets (s values)
  "VALUES of S's form completed with the secure fields' text, in form order."
  (let ((state (formd-call s "getState" `((form . ,(formd-session-form s))
                                          (includeSecrets . t)))))
    (mapcar (lambda (f)
              (let ((id (alist-get 'id f)))
                (cons id (or (cdr (assoc id values)) (alist-get 'text f) ""))))
            (alist-get 'fields state))))

(defun formd--submit-hook-p (buf)
  "Non-nil when `formd-submit-functions' has a function for BUF."
  (let ((fns (if (buffer-live-p buf)
                 (buffer-local-value 'formd-submit-functions buf)
               formd-submit-functions)))
    (or (remq t fns)
        (and (memq t fns) (default-value 'formd-submit-functions)))))

(defun formd--finish-submit (s values withheld)
  "Keep VALUES, run `formd-submit-functions' (or say them), close S.
VALUES are the submitted event's values; WITHHELD the secure fields left out."
  (let ((buf (formd-session-buffer s))
        (values (formd--values-alist values)))
    (setf (formd-session-state s) 'finishing)
    (setq formd-last-values values)
    (unwind-protect
        (if (formd--submit-hook-p buf)
            (let ((all (if (and withheld (if (buffer-live-p buf)
                                              (buffer-local-value 'formd-include-secrets buf)
                                            formd-include-secrets))
                           (formd--values-with-secrets s values)
                         values)))
              (if (buffer-live-p buf)
                  (with-current-buffer buf
                    (run-hook-with-args 'formd-submit-functions all))
                (run-hook-with-args 'formd-submit-functions all)))
          (message "formd: submitted %s%s"
                   (mapconcat (lambda (kv) (format "%s=%S" (car kv) (cdr kv))) values " ")
                   (if withheld
                       (format " (withheld: %s)" (mapconcat #'identity withheld ", "))
                     "")))
      (formd--close s))))

(defun formd--close (s)
  "End S's connection (stopping a private daemon) and kill its form buffer."
  (formd-stop s)
  (let ((buf (formd-session-buffer s)))
    (when (buffer-live-p buf)
      (kill-buffer buf))))

;;;; Rendering

(defun formd--label (f)
  "The label drawn for field F."
  (let ((label (gethash 'label f)))
    (if (and (stringp label) (not (string-empty-p label))) label (gethash 'id f))))

(defun formd--field-name (s id)
  "How messages name field ID of S: its label, or ID when S does not have it."
  (let ((f (formd--field s id)))
    (if f (formd--label f) id)))

(defun formd--selection (f)
  "Field F's selection as (ANCHOR . CARET), offsets into its display."
  (let* ((sel (gethash 'selection f))
         (len (length (or (gethash 'display f) "")))
         (start (min len (or (alist-get 'start sel) len)))
         (end (min len (or (alist-get 'end sel) len))))
    (if (alist-get 'backward sel) (cons end start) (cons start end))))

(defun formd--beside-text (text face)
  "TEXT in FACE, drawn after a field's text with the cursor kept before it."
  (let ((text (propertize text 'face face)))
    (unless (string-empty-p text) (put-text-property 0 1 'cursor t text))
    text))

(defun formd--render (s)
  "Redraw S's form buffer from the model; put point at formd's caret."
  (let ((buf (formd-session-buffer s)))
    (when (buffer-live-p buf)
      (with-current-buffer buf
        (let* ((inhibit-read-only t)
               ;; Redrawing must not deactivate a region formd selected.
               (deactivate-mark nil)
               (target (or (formd-session-cursor s)
                           (get-text-property (line-beginning-position) 'formd-field)))
               (old-point (point))
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
                   (label (formd--label f))
                   (display (or (gethash 'display f) ""))
                   (start (progn (unless (bobp) (insert "\n")) (point)))
                   vstart)
              (insert (if first formd-responder-mark blank)
                      (propertize (concat label ":") 'face 'formd-label)
                      (make-string (- (1+ width) (string-width label)) ?\s))
              (setq vstart (point))
              (insert display)
              (puthash id (list start vstart (point)) positions)
              (when (and (string-empty-p display) (stringp (gethash 'placeholder f)))
                (let ((ov (make-overlay vstart vstart)))
                  (overlay-put ov 'after-string (formd--beside-text (gethash 'placeholder f)
                                                                    'formd-placeholder))))
              (when (and (not (gethash 'valid f t)) (gethash 'errors f)
                         (or show-errors (gethash 'touched f)))
                (let ((ov (make-overlay (point) (point))))
                  (overlay-put ov 'formd-errors (gethash 'errors f))
                  (overlay-put ov 'after-string
                               (formd--beside-text (concat "  " (formd--validation-messages
                                                                 (gethash 'errors f)))
                                                   'formd-field-error))))
              (put-text-property start (point) 'formd-field id)
              (cond ((not (gethash 'enabled f t))
                     (overlay-put (make-overlay start (point)) 'face 'formd-disabled))
                    (first
                     (overlay-put (make-overlay start (point)) 'face 'formd-responder)))))
          (formd--place-point s target old-point)
          ;; The buffer mirrors formd: there is nothing to save.
          (restore-buffer-modified-p nil))))))

(defun formd--place-point (s id fallback)
  "Put point at field ID's caret in S's buffer (its selection as the region).
Without a drawn field ID, point goes to FALLBACK, kept in the buffer."
  (let* ((pos (and id (gethash id (formd-session-positions s))))
         (f (and pos (formd--field s id))))
    (if (not f)
        (goto-char (max (point-min) (min (point-max) fallback)))
      (pcase-let ((`(,anchor . ,caret) (formd--selection f)))
        (goto-char (+ (nth 1 pos) caret))
        (if (/= anchor caret)
            (progn (set-marker (mark-marker) (+ (nth 1 pos) anchor))
                   (setq mark-active t))
          (when mark-active (deactivate-mark)))))
    (dolist (w (get-buffer-window-list (current-buffer) nil t))
      (set-window-point w (point)))))

;;;; The form buffer

(defun formd--call-form (s method &optional params)
  "Call METHOD on S's form with PARAMS, turning failures into user errors."
  (condition-case err
      (formd-call s method (cons (cons 'form (formd-session-form s)) params))
    (formd-error
     (user-error "Formd %s: %s" method (formd--error-text err)))))

(defun formd--field-id-at-point ()
  "The id of the field on point's line, or nil."
  (get-text-property (line-beginning-position) 'formd-field))

(defun formd--field-at-point (s)
  "The id of the field on point's line, or S's first responder."
  (or (formd--field-id-at-point)
      (formd-session-first-responder s)
      (user-error "No field here")))

(defun formd--ensure-focus (s id)
  "Make field ID of S the first responder, or signal a user error.
A field that cannot take focus is not asked to: the demand would stay
pending in formd, and take focus when the field is enabled later."
  (unless (equal (formd-session-first-responder s) id)
    (let ((f (formd--field s id)))
      (cond ((and f (not (gethash 'enabled f t)))
             (user-error "%s is disabled" (formd--label f)))
            ((and f (not (gethash 'canBecomeFirstResponder f t)))
             (user-error "%s cannot take focus" (formd--label f)))))
    (let ((outcome (alist-get 'outcome
                              (formd--call-form s "demandFocus"
                                                `((field . ,id) (demand . "become"))))))
      (unless (equal outcome "fulfilled")
        (user-error "Field %s cannot take focus (%s)" id outcome)))))

(defun formd--masked-p (f)
  "Non-nil when field F's text is hidden (secure and not revealed)."
  (and (gethash 'secure f) (not (gethash 'revealed f))))

(defun formd--refused (s id result)
  "Say that field ID of S refused an edit, from RESULT (`applied' or `performed')."
  (message "formd: %s: change refused (%s)" (formd--field-name s id)
           (alist-get 'reason result)))

(defun formd--edit (method &optional params)
  "Focus the field on point's line and send it METHOD with PARAMS.
Returns (SESSION ID RESULT)."
  (formd--sync-selection)
  (let* ((s (formd--session-arg nil))
         (id (formd--field-at-point s)))
    (formd--ensure-focus s id)
    (list s id (formd--call-form s method `((field . ,id) ,@params)))))

(defun formd-insert (string)
  "Type STRING at formd's caret in the field on point's line (`insertText')."
  (pcase-let ((`(,s ,id ,result) (formd--edit "insertText" `((text . ,string)))))
    (unless (alist-get 'applied result) (formd--refused s id result))
    (let ((f (formd--field s id)))
      (when (and f (gethash 'secure f))
        ;; Like `read-passwd': keep typed secrets out of `view-lossage'.
        (clear-this-command-keys)))))

(defun formd-self-insert (n)
  "Type the last input character N times into the field on point's line.
Each character is one `insertText', as keys are: a one-character field
with `autoAdvance' moves on after the first."
  (interactive "p")
  (unless (characterp last-command-event)
    (user-error "Not a character: %S" last-command-event))
  (dotimes (_ n)
    (formd-insert (string last-command-event))))

(defun formd--single-line (text)
  "TEXT for a one-line field: line breaks and tabs as spaces, no final newline."
  (replace-regexp-in-string "[\n\r\t]" " " (string-trim-right text "[\n\r]+")))

(defun formd--paste (text)
  "Paste TEXT at formd's caret in the field on point's line.
This is `editAction paste': one undo step, filtered and bounded like
typing.  A paste too long for a field with `autoAdvance' (a whole
one-time code into the first of its boxes) is typed instead, one
character after the other, so it fills the boxes in turn."
  (let ((text (formd--single-line text)))
    (unless (string-empty-p text)
      (pcase-let* ((`(,s ,id ,result)
                    (formd--edit "editAction" `((action . "paste") (text . ,text))))
                   (f (formd--field s id)))
        (cond ((alist-get 'performed result))
              ((and (equal (alist-get 'reason result) "maxLength") f (gethash 'autoAdvance f))
               (cl-loop for c across text
                        while (formd-session-first-responder s)
                        do (formd-insert (string c))))
              (t (formd--refused s id result)))
        (when (and f (gethash 'secure f))
          ;; The pasted characters came in as events: keep them out of `view-lossage'.
          (clear-this-command-keys))))))

(defun formd-yank ()
  "Paste the latest kill at formd's caret in the field on point's line.
See `formd--paste'."
  (interactive)
  (formd--paste (current-kill 0)))

(defun formd-xterm-paste (event)
  "Paste what the terminal pasted (EVENT, an `xterm-paste' event) at formd's caret.
Unlike `xterm-paste', the text is not put on the kill ring, so a
pasted password stays out of it.  See `formd--paste'."
  (interactive "e")
  (formd--paste (nth 1 event)))

(defun formd--removed-text (old new)
  "The text a deletion took out of OLD to leave NEW."
  (let* ((cmp (compare-strings old nil nil new nil nil))
         (prefix (if (eq cmp t) (length new) (min (1- (abs cmp)) (length new))))
         (removed (- (length old) (length new))))
    (if (> removed 0) (substring old prefix (+ prefix removed)) "")))

(defun formd--delete (direction unit n &optional kill)
  "Send N `delete's in DIRECTION by UNIT to the field on point's line.
With KILL, the text removed from an unmasked field goes to the kill
ring, appended to the last kill when this follows a kill, as `kill-line'
and `kill-word' do; a masked field's text never does."
  (let ((removed ""))
    (dotimes (_ n)
      (pcase-let* ((s (formd--session-arg nil))
                   (id (formd--field-at-point s))
                   (f (formd--field s id))
                   (old (and f (not (formd--masked-p f)) (gethash 'text f)))
                   (`(,_ ,_ ,result)
                    (formd--edit "delete" `((direction . ,direction) (unit . ,unit))))
                   (new (and old (formd--field s id) (gethash 'text (formd--field s id)))))
        (when (and (alist-get 'applied result) old new)
          (setq removed (if (equal direction "backward")
                            (concat (formd--removed-text old new) removed)
                          (concat removed (formd--removed-text old new)))))))
    (when (and kill (not (string-empty-p removed)))
      (if (eq last-command 'kill-region)
          (kill-append removed (equal direction "backward"))
        (kill-new removed))
      (setq this-command 'kill-region))))

(defun formd-delete-backward-char (n)
  "Delete the character before formd's caret (Backspace), N times.
On an empty field with `deleteOnEmpty: focusPrevious' this steps back."
  (interactive "p")
  (formd--delete "backward" "character" n))

(defun formd-delete-forward-char (n)
  "Delete the character after formd's caret (the Delete key), N times."
  (interactive "p")
  (formd--delete "forward" "character" n))

(defun formd-kill-line (n)
  "Delete from formd's caret to the end of the field's line, N times.
The text goes to the kill ring, except from a masked field."
  (interactive "p")
  (formd--delete "forward" "line" n t))

(defun formd-kill-word (n)
  "Delete the word after formd's caret, N times.
The text goes to the kill ring, except from a masked field."
  (interactive "p")
  (formd--delete "forward" "word" n t))

(defun formd-backward-kill-word (n)
  "Delete the word before formd's caret, N times.
The text goes to the kill ring, except from a masked field."
  (interactive "p")
  (formd--delete "backward" "word" n t))

(defun formd--region-in-field-p (s id)
  "Non-nil when the active region lies in field ID's text in S's buffer."
  (let ((pos (gethash id (formd-session-positions s))))
    (and pos (region-active-p)
         (<= (nth 1 pos) (mark) (nth 2 pos))
         (<= (nth 1 pos) (point) (nth 2 pos)))))

(defun formd--edit-action (action)
  "Send `editAction' ACTION (cut or copy) for the region in a field.
Returns the text formd gives back, or nil when the field has no region.
A masked field refuses: its text never reaches the kill ring."
  (let* ((s (formd--session-arg nil))
         (id (formd--field-id-at-point)))
    (when (and id (formd--region-in-field-p s id))
      (let ((result (formd--call-form s "editAction" `((field . ,id) (action . ,action)))))
        (pcase (alist-get 'reason result)
          ('nil (alist-get 'text result))
          ("unsupported"
           (user-error "Formd: %s text cannot be %s" (if (formd--masked-p (formd--field s id))
                                                         "a masked field's" "this field's")
                       (if (equal action "cut") "cut" "copied")))
          (reason (user-error "Formd: %s refused (%s)" action reason)))))))

(defun formd-kill-region ()
  "Cut the region of a field (`editAction cut') into the kill ring.
Refused for a masked field."
  (interactive)
  (let ((text (formd--edit-action "cut")))
    (if text
        (kill-new text)
      (user-error "Select text in one field to cut it"))))

(defun formd-copy-region ()
  "Copy the region of a field (`editAction copy') to the kill ring.
Refused for a masked field.  A region over several lines copies what is
drawn (labels and displays, so bullets for masked fields)."
  (interactive)
  (let ((text (formd--edit-action "copy")))
    (if text
        (kill-new text)
      (call-interactively #'kill-ring-save))))

(defun formd-select-all ()
  "Select the whole text of the field on point's line (`editAction selectAll')."
  (interactive)
  (let* ((s (formd--session-arg nil))
         (id (formd--field-at-point s)))
    (formd--call-form s "editAction" `((field . ,id) (action . "selectAll")))))

(defun formd--move (to n fallback)
  "Move formd's caret TO (a `moveCaret' target) N times in the field at point.
Extends the selection while the region is active in that field.  Off a
field line, call FALLBACK with N instead."
  (let* ((s (formd--session-arg nil))
         (id (formd--field-id-at-point)))
    (if (not id)
        (funcall fallback n)
      (formd--sync-selection)
      (let ((extend (if (formd--region-in-field-p s id) t :json-false)))
        (dotimes (_ (max 1 n))
          (formd--call-form s "moveCaret" `((field . ,id) (to . ,to) (extend . ,extend))))))))

(defun formd-forward-char (n)
  "Move formd's caret N characters right (`moveCaret right')."
  (interactive "^p")
  (if (< n 0) (formd-backward-char (- n)) (formd--move "right" n #'forward-char)))

(defun formd-backward-char (n)
  "Move formd's caret N characters left (`moveCaret left')."
  (interactive "^p")
  (if (< n 0) (formd-forward-char (- n)) (formd--move "left" n #'backward-char)))

(defun formd-forward-word (n)
  "Move formd's caret to the end of the next word, N times.
This is `moveCaret wordRight'."
  (interactive "^p")
  (if (< n 0) (formd-backward-word (- n)) (formd--move "wordRight" n #'forward-word)))

(defun formd-backward-word (n)
  "Move formd's caret to the start of the previous word, N times.
This is `moveCaret wordLeft'."
  (interactive "^p")
  (if (< n 0) (formd-forward-word (- n)) (formd--move "wordLeft" n #'backward-word)))

(defun formd-beginning-of-field ()
  "Move formd's caret to the start of the field's text (`moveCaret start')."
  (interactive "^")
  (formd--move "start" 1 #'move-beginning-of-line))

(defun formd-end-of-field ()
  "Move formd's caret to the end of the field's text (`moveCaret end')."
  (interactive "^")
  (formd--move "end" 1 #'move-end-of-line))

(defun formd--undo-or-redo (method)
  "Send METHOD (undo or redo) for the field on point's line."
  (let* ((s (formd--session-arg nil))
         (id (formd--field-at-point s))
         (result (formd--call-form s method `((field . ,id)))))
    (unless (alist-get 'applied result)
      (message "formd: %s" (pcase (alist-get 'reason result)
                             ("nothingToUndo" "nothing to undo")
                             ("nothingToRedo" "nothing to redo")
                             (r (format "%s refused (%s)" method r)))))))

(defun formd-undo ()
  "Undo the last edit step of the field on point's line (formd's `undo').
A run of typing, or of Backspaces, is one step."
  (interactive)
  (formd--undo-or-redo "undo"))

(defun formd-redo ()
  "Redo the last undone step of the field on point's line (formd's `redo')."
  (interactive)
  (formd--undo-or-redo "redo"))

(defun formd--sync-selection ()
  "Tell formd where point (and the region) now is in a field's text.
Runs after every command in the form buffer and before each edit:
motion that formd did not make (a mouse click, \\[next-line], a search,
Lisp) becomes a `select', so the next edit happens where point is.
Point in a label moves into the text."
  (let ((s formd--session))
    (when (and s (formd-live-p s) (not (minibufferp)))
      (let* ((id (formd--field-id-at-point))
             (pos (and id (gethash id (formd-session-positions s))))
             (f (and pos (formd--field s id))))
        (when f
          (goto-char (max (nth 1 pos) (min (nth 2 pos) (point))))
          (let* ((caret (- (point) (nth 1 pos)))
                 (anchor (if (formd--region-in-field-p s id) (- (mark) (nth 1 pos)) caret)))
            (unless (equal (formd--selection f) (cons anchor caret))
              ;; An error here must not remove this hook.
              (condition-case-unless-debug err
                  (formd-call s "select" `((form . ,(formd-session-form s)) (field . ,id)
                                           (start . ,anchor) (end . ,caret)))
                (error
                 (message "formd: %s" (if (eq (car err) 'formd-rpc-error)
                                          (formd--error-text err)
                                        (error-message-string err)))
                 (formd--render s))))))))))

(defun formd--compose (input-method key)
  "Run INPUT-METHOD on KEY so that it can compose in a plain field.
Input methods pass keys through untranslated in a read-only buffer; in
a plain field this lets the method show its preview at point, and what
it commits is typed with `formd-self-insert' as usual.  In a masked
field keys stay untranslated, so no preview ever shows what is typed."
  (let* ((s formd--session)
         (id (formd--field-id-at-point))
         (f (and s id (formd--field s id))))
    (if (and f (not (formd--masked-p f)))
        (let ((buffer-read-only nil)) (funcall input-method key))
      (funcall input-method key))))

(defun formd--allow-input-method ()
  "Let the input method just activated in this form buffer compose."
  (add-function :around (local 'input-method-function) #'formd--compose))

(defvar formd-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map [remap self-insert-command] #'formd-self-insert)
    (define-key map [remap yank] #'formd-yank)
    (define-key map [xterm-paste] #'formd-xterm-paste)
    (define-key map [remap delete-backward-char] #'formd-delete-backward-char)
    (define-key map [remap backward-delete-char-untabify] #'formd-delete-backward-char)
    (define-key map [remap delete-char] #'formd-delete-forward-char)
    (define-key map [remap delete-forward-char] #'formd-delete-forward-char)
    (define-key map [remap kill-line] #'formd-kill-line)
    (define-key map [remap kill-word] #'formd-kill-word)
    (define-key map [remap backward-kill-word] #'formd-backward-kill-word)
    (define-key map [remap kill-region] #'formd-kill-region)
    (define-key map [remap kill-ring-save] #'formd-copy-region)
    (define-key map [remap mark-whole-buffer] #'formd-select-all)
    (define-key map [remap move-beginning-of-line] #'formd-beginning-of-field)
    (define-key map [remap beginning-of-line] #'formd-beginning-of-field)
    (define-key map [remap move-end-of-line] #'formd-end-of-field)
    (define-key map [remap end-of-line] #'formd-end-of-field)
    (define-key map [remap forward-char] #'formd-forward-char)
    (define-key map [remap right-char] #'formd-forward-char)
    (define-key map [remap backward-char] #'formd-backward-char)
    (define-key map [remap left-char] #'formd-backward-char)
    (define-key map [remap forward-word] #'formd-forward-word)
    (define-key map [remap right-word] #'formd-forward-word)
    (define-key map [remap backward-word] #'formd-backward-word)
    (define-key map [remap left-word] #'formd-backward-word)
    (define-key map [remap undo] #'formd-undo)
    (define-key map [remap undo-only] #'formd-undo)
    (define-key map [remap advertised-undo] #'formd-undo)
    (define-key map [remap undo-redo] #'formd-redo)
    (define-key map (kbd "DEL") #'formd-delete-backward-char)
    (define-key map (kbd "RET") #'formd-return)
    (define-key map (kbd "TAB") #'formd-focus-next)
    (define-key map (kbd "<backtab>") #'formd-focus-previous)
    (define-key map (kbd "S-<tab>") #'formd-focus-previous)
    (define-key map (kbd "C-c C-c") #'formd-submit)
    (define-key map (kbd "C-c C-k") #'formd-quit)
    (define-key map (kbd "C-c C-r") #'formd-refresh)
    (define-key map (kbd "C-c C-f") #'formd-focus-field-at-point)
    map)
  "Keymap for `formd-mode'.
Editing and motion commands are remapped to their formd counterparts,
so the user's own bindings for `kill-line', `undo' etc. keep working.")

(define-derived-mode formd-mode nil "Formd"
  "Major mode for a form kept by formd.
Each line is one field.  The usual editing commands act at formd's
caret in the field on point's line, focusing it first when they edit:
typing and `yank' insert; `delete-backward-char' and `delete-char'
delete a character (Backspace on an empty field may step back to the
previous one); `backward-kill-word', `kill-word' and `kill-line' delete
a word or to the end (into the kill ring, unless the field is masked);
character, word and line motion moves the caret; `undo' and `undo-redo'
are formd's undo and redo.  They are remapped in `formd-mode-map'.
\\[formd-return] presses Return, \\[formd-focus-next] and \\[formd-focus-previous] move focus,
\\[formd-submit] submits and \\[formd-quit] closes.

The buffer is drawn only from formd's events.  A secure field shows one
bullet per character; its text is never in the buffer.  The buffer has
no undo list and is never auto-saved.

\\{formd-mode-map}"
  (setq buffer-read-only t)
  (setq buffer-undo-list t)
  (setq buffer-auto-save-file-name nil)
  (setq-local make-backup-files nil)
  (setq truncate-lines t)
  (setq-local revert-buffer-function (lambda (&rest _) (formd-refresh)))
  (add-hook 'post-command-hook #'formd--sync-selection nil t)
  (add-hook 'input-method-activate-hook #'formd--allow-input-method nil t)
  (add-hook 'kill-buffer-hook #'formd--kill-buffer-hook nil t))

(defun formd--kill-buffer-hook ()
  "End the connection of the form buffer being killed."
  (when (and formd--session
             (not (memq (formd-session-state formd--session) '(closing closed))))
    (formd-stop formd--session)))

(defun formd--show (session name header)
  "Show SESSION's form in a new buffer called NAME with HEADER; return it."
  (let ((buf (generate-new-buffer name)))
    (setf (formd-session-buffer session) buf)
    (with-current-buffer buf
      (formd-mode)
      (setq formd--session session)
      (setq header-line-format
            (concat " " header
                    "   TAB/S-TAB focus  RET return  C-c C-c submit  C-c C-k close")))
    (condition-case err
        (progn
          (setf (formd-session-cursor session) 'first)
          (formd-refresh session))
      (error (formd--close session) (signal (car err) (cdr err))))
    (pop-to-buffer-same-window buf)
    buf))

;;;###autoload
(defun formd-open (file)
  "Start a private formd on the form FILE and edit the form in a buffer.
Killing the buffer stops that daemon.  Returns the buffer."
  (interactive (list (read-file-name "Form file: " nil nil t)))
  (let ((buf (formd--show (formd-start file)
                          (format "*formd: %s*" (file-name-nondirectory file))
                          (format "formd: %s" (abbreviate-file-name (expand-file-name file))))))
    (with-current-buffer buf
      (setq default-directory (file-name-directory (expand-file-name file))))
    buf))

;;;###autoload
(defun formd-attach (socket &optional form)
  "Show FORM (default \"default\") of the `formd --listen' daemon on SOCKET.
Other clients' edits appear as they happen.  Killing the buffer closes
this connection only: the daemon keeps running.  Returns the buffer."
  (interactive
   (let* ((dir (or (getenv "XDG_RUNTIME_DIR") default-directory))
          (socket (read-file-name "formd socket: " (file-name-as-directory dir) nil t
                                  (let ((d (expand-file-name "formd.sock" dir)))
                                    (and (file-exists-p d) d))))
          (form (read-string "Form (default \"default\"): " nil nil "default")))
     (list socket form)))
  (let ((form (if (or (null form) (string-empty-p form)) "default" form)))
    (formd--show (formd-connect socket form)
                 (format "*formd: %s@%s*" form (file-name-nondirectory socket))
                 (format "formd: %s on %s" form (abbreviate-file-name
                                                 (expand-file-name socket))))))

(defun formd-refresh (&optional session)
  "Fetch SESSION's form state with `getState' and redraw it."
  (interactive)
  (let ((s (formd--session-arg session)))
    (formd--load-state s (formd-call s "getState" `((form . ,(formd-session-form s)))))
    (when (eq (formd-session-cursor s) 'first)
      (setf (formd-session-cursor s)
            (or (formd-session-first-responder s)
                (and (formd-session-fields s) (gethash 'id (car (formd-session-fields s)))))))
    (formd--render s)))

(defun formd-quit ()
  "Close the form without submitting.
A private daemon is stopped; an attached one keeps running."
  (interactive)
  (formd--close (formd--session-arg nil)))

(defun formd-return ()
  "Press Return in the field on point's line (`pressReturn')."
  (interactive)
  (let* ((s (formd--session-arg nil))
         (id (formd--field-at-point s)))
    (formd--ensure-focus s id)
    (let ((action (alist-get 'action (formd--call-form s "pressReturn" `((field . ,id))))))
      (when (equal action "ignored")
        (message "formd: Return ignored (%s is empty)" (formd--field-name s id)))
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
  "Submit the form.  When valid, the values are handled and the buffer closes.
See `formd-submit-functions' and `formd-last-values'."
  (interactive)
  (let ((r (formd--call-form (formd--session-arg nil) "submit")))
    (alist-get 'valid r)))

(provide 'formd)
;;; formd.el ends here
