;;; emacs_jsonrpc.el --- jsonrpc.el driving the real formd  -*- lexical-binding: t; -*-

;; Emacs's own JSON-RPC client (`jsonrpc-process-connection', the LSP base protocol, as
;; eglot uses it) driving a login form: requests and their results with `jsonrpc-request',
;; events reaching the notification dispatcher, an error with its code, multi-byte text.
;; Run by Tests/framing/run:
;;   FORMD_BIN=... emacs --batch -Q -l Tests/framing/emacs_jsonrpc.el

;;; Code:

(require 'jsonrpc)
(require 'cl-lib)

(defvar formd-test-checks 0)
(defvar formd-test-failures 0)
(defvar formd-test-events nil "Notifications received, newest first: (METHOD . PARAMS).")

(defun formd-test-check (ok what)
  "Count a check; report WHAT when OK is nil."
  (cl-incf formd-test-checks)
  (unless ok
    (cl-incf formd-test-failures)
    (message "FAIL: %s" what)))

(let* ((text "héllo wörld 👍🏽")           ; 13 characters, 22 bytes
       (process (make-process :name "formd" :command (list (getenv "FORMD_BIN"))
                              :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                              :stderr (get-buffer-create "*formd stderr*")))
       (conn (make-instance 'jsonrpc-process-connection
                            :name "formd" :process process
                            :notification-dispatcher
                            (lambda (_conn method params) (push (cons method params) formd-test-events))
                            :request-dispatcher
                            (lambda (_conn _method _params) (jsonrpc-error :code -32601 :message "no requests")))))
  (let ((init (jsonrpc-request conn :initialize '(:clientInfo (:name "emacs")))))
    (formd-test-check (equal (plist-get init :framing) "contentLength") (format "initialize: %S" init)))
  (jsonrpc-request conn :defineForm '(:fields [(:id "user" :required t) (:id "password" :secure t)]))
  (let ((focus (jsonrpc-request conn :demandFocus '(:field "user" :demand "become"))))
    (formd-test-check (equal (plist-get focus :outcome) "fulfilled") (format "demandFocus: %S" focus)))
  (let ((typed (jsonrpc-request conn :insertText (list :text text))))
    (formd-test-check (eq (plist-get typed :applied) t) (format "insertText: %S" typed)))
  ;; An error with its code: a field that does not exist.
  (let ((code (condition-case err
                  (progn (jsonrpc-request conn :setText '(:field "nobody" :text "x")) nil)
                (jsonrpc-error (alist-get 'jsonrpc-error-code (cdr err))))))
    (formd-test-check (equal code -32001) (format "unknown field error code: %S" code)))
  (jsonrpc-request conn :initialize '(:positionEncoding "utf-8"))
  ;; nil params are sent as `null', which formd refuses; no params is an empty object.
  (let* ((state (jsonrpc-request conn :getState (make-hash-table)))
         (user (aref (plist-get state :fields) 0)))
    (formd-test-check (and (equal (plist-get user :text) text)
                           (equal (plist-get (plist-get user :selection) :start) 22)
                           (equal (plist-get user :length) 13))
                      (format "getState user: %S" user)))
  ;; The events reached the dispatcher, in order, the text intact.
  (let* ((events (reverse formd-test-events))
         (changed (cdr (assq 'textChanged events))))
    (formd-test-check (eq (car (car events)) 'formDefined) (format "first event: %S" (car events)))
    (formd-test-check (assq 'responderChanged events) "responderChanged arrived")
    (formd-test-check (and (equal (plist-get changed :text) text) (equal (plist-get changed :length) 13))
                      (format "textChanged: %S" changed)))
  ;; A failed notification comes back as an `error' notification.
  (let ((before (length formd-test-events)))
    (jsonrpc-notify conn :setText '(:field "nobody" :text "x"))
    (with-timeout (5 nil) (while (= (length formd-test-events) before) (accept-process-output nil 0.05)))
    (let ((last (car formd-test-events)))
      (formd-test-check (and (eq (car last) 'error) (equal (plist-get (cdr last) :code) -32001))
                        (format "error notification: %S" last))))
  (jsonrpc-request conn :shutdown (make-hash-table))
  (with-timeout (5 nil) (while (process-live-p process) (accept-process-output nil 0.05)))
  (formd-test-check (equal (process-exit-status process) 0) (format "exit status %S" (process-exit-status process)))
  (message "emacs jsonrpc.el (%s): %d passed, %d failed" emacs-version
           (- formd-test-checks formd-test-failures) formd-test-failures)
  (kill-emacs (if (= formd-test-failures 0) 0 1)))

;;; emacs_jsonrpc.el ends here
