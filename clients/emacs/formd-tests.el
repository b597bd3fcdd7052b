;;; formd-tests.el --- ERT tests for formd.el against the real formd  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run from the repository root:
;;   emacs --batch -Q -L clients/emacs -l formd-tests.el -f ert-run-tests-batch-and-exit
;; formd is taken from FORMD_BIN (else "formd" on PATH).  Every test drives
;; examples/login.json through the real daemon, typing with keyboard macros
;; in the form buffer exactly as a person would.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'formd)

;; As in an interactive Emacs (batch mode starts without it).
(transient-mark-mode 1)

(defconst formd-test-root
  (expand-file-name "../.." (file-name-directory (or load-file-name buffer-file-name)))
  "The repository root.")

(defconst formd-test-login (expand-file-name "examples/login.json" formd-test-root)
  "The login form: email (partOfChain), password (secure, submit, deleteOnEmpty).")

(defvar formd-test-submitted nil
  "Values passed to `formd-submit-functions', newest first.")

(defvar formd-test-events nil
  "(METHOD . PARAMS) of every event seen, newest first.")

(defun formd-test--record-submit (values)
  (push values formd-test-submitted))

(defun formd-test--record-event (_session method params)
  (push (cons method params) formd-test-events))

(defmacro formd-test-with-login (&rest body)
  "Open the login form, run BODY in its buffer (bound to `buf'), clean up."
  (declare (indent 0) (debug t))
  `(let ((formd-submit-functions (list #'formd-test--record-submit))
         (formd-event-functions (list #'formd-test--record-event))
         (formd-test-submitted nil)
         (formd-test-events nil)
         (buf (formd-open formd-test-login)))
     (ignore buf)
     (unwind-protect
         (progn (should (eq (current-buffer) buf))
                ,@body)
       (when (buffer-live-p buf) (kill-buffer buf)))))

(defun formd-test-lines ()
  "The form buffer's lines."
  (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n" t))

(defun formd-test-marked ()
  "The 1-based number of the line carrying the responder mark, or nil."
  (let ((n (cl-position-if (lambda (l) (string-prefix-p formd-responder-mark l))
                           (formd-test-lines))))
    (and n (1+ n))))

(defun formd-test-point-line () (line-number-at-pos))

(defun formd-test-at-field-end-p (id)
  "Non-nil when point is at the end of field ID's line."
  (and (equal (get-text-property (line-beginning-position) 'formd-field) id)
       (= (point) (line-end-position))))

(defun formd-test-key (keys) (execute-kbd-macro (kbd keys)))
(defun formd-test-type (string)
  "Type STRING (as a vector: a string macro would read non-ASCII as Meta)."
  (execute-kbd-macro (vconcat string)))

(defun formd-test-state (&optional session)
  "The daemon's view of the form of SESSION (default: this buffer's), no secrets."
  (formd-call session "getState"))

(defun formd-test-field-state (id &optional session)
  "Field ID's state in the daemon of SESSION (default: this buffer's)."
  (cl-find id (alist-get 'fields (formd-test-state session))
           :key (lambda (f) (alist-get 'id f)) :test #'equal))

(defun formd-test-all-text ()
  "The text of every buffer plus every overlay string in them."
  (mapconcat
   (lambda (b)
     (with-current-buffer b
       (save-restriction
         (widen)
         (concat (buffer-substring-no-properties (point-min) (point-max))
                 (mapconcat (lambda (ov)
                              (concat (overlay-get ov 'before-string)
                                      (overlay-get ov 'after-string)))
                            (overlays-in (point-min) (point-max)) "")))))
   (buffer-list) "\n"))

;;;; Tests

(ert-deftest formd-open-renders-login-form ()
  "Opening renders one line per field, nothing marked, point on the first field."
  (formd-test-with-login
    (should (eq major-mode 'formd-mode))
    (should buffer-read-only)
    (should (equal (formd-test-lines) '("  Email:    " "  Password: ")))
    (should-not (formd-test-marked))
    (should (formd-test-at-field-end-p "email"))
    (should (formd-live-p))
    (should (string-match-p "login\\.json" (format "%s" header-line-format)))
    ;; Placeholders are drawn beside the text, not in it.
    (should (member "you@example.com"
                    (mapcar (lambda (ov) (substring-no-properties
                                          (or (overlay-get ov 'after-string) "")))
                            (overlays-in (point-min) (point-max)))))
    ;; Reading only: a plain `insert' is refused.
    (should-error (insert "x") :type 'buffer-read-only)))

(ert-deftest formd-chain-submits-values ()
  "Focus, type, RET to password, DEL back on empty, type, RET submits."
  (formd-test-with-login
    (let* ((conn (formd-session-connection formd--session))
           (proc (formd-session-process formd--session))
           (output (process-buffer proc))
           (stderr (jsonrpc-stderr-buffer (formd-session-connection formd--session))))
      ;; Focus: TAB is focusNext.
      (formd-test-key "TAB")
      (should (equal (formd-test-lines) '("> Email:    " "  Password: ")))
      (should (= (formd-test-marked) 1))
      (should (formd-test-at-field-end-p "email"))
      ;; Type.
      (formd-test-type "ada@example.com")
      (should (equal (formd-test-lines) '("> Email:    ada@example.com" "  Password: ")))
      (should (formd-test-at-field-end-p "email"))
      (should (equal (alist-get 'text (formd-test-field-state "email")) "ada@example.com"))
      ;; RET moves to the password; point follows focusChanged.
      (formd-test-key "RET")
      (should (equal (formd-test-lines) '("  Email:    ada@example.com" "> Password: ")))
      (should (= (formd-test-marked) 2))
      (should (= (formd-test-point-line) 2))
      (should (formd-test-at-field-end-p "password"))
      ;; Type into the password: only masks are drawn.
      (formd-test-type "abc")
      (should (equal (formd-test-lines) '("  Email:    ada@example.com" "> Password: •••")))
      ;; DEL removes one character at a time, then on the empty field steps back.
      (formd-test-key "DEL DEL")
      (should (equal (formd-test-lines) '("  Email:    ada@example.com" "> Password: •")))
      (formd-test-key "DEL")
      (should (equal (formd-test-lines) '("  Email:    ada@example.com" "> Password: ")))
      (should (= (formd-test-marked) 2))
      (formd-test-key "DEL")
      (should (equal (formd-test-lines) '("> Email:    ada@example.com" "  Password: ")))
      (should (= (formd-test-marked) 1))
      (should (formd-test-at-field-end-p "email"))
      (should (equal (alist-get 'firstResponder (formd-test-state)) "email"))
      ;; Back to the password, a good one, RET submits.
      (formd-test-key "RET")
      (should (formd-test-at-field-end-p "password"))
      (formd-test-type "correct horse")
      (should (equal (formd-test-lines)
                     '("  Email:    ada@example.com" "> Password: •••••••••••••")))
      (should-not formd-test-submitted)
      (formd-test-key "RET")
      ;; The hook got the values; secure fields are withheld by default.
      (should (equal formd-test-submitted '((("email" . "ada@example.com")))))
      (should (assoc "submitted" formd-test-events))
      ;; The buffer, the daemon and the connection's buffers are gone, cleanly.
      (should-not (buffer-live-p buf))
      (should-not (buffer-live-p output))
      (should-not (buffer-live-p stderr))
      (should-not (get-buffer (format "*%s events*" (jsonrpc-name conn))))
      (should (eq (process-status proc) 'exit))
      (should (= (process-exit-status proc) 0)))))

(ert-deftest formd-chain-submits-secrets-when-asked ()
  "With `formd-include-secrets' the hook also gets the password."
  (let ((formd-include-secrets t))
    (formd-test-with-login
      (formd-test-key "TAB")
      (formd-test-type "ada@example.com")
      (formd-test-key "RET")
      (formd-test-type "x")
      (formd-test-key "DEL DEL")              ; empty, then back to email
      (should (= (formd-test-marked) 1))
      (formd-test-key "TAB")
      (should (= (formd-test-marked) 2))
      (formd-test-type "correct horse")
      (formd-test-key "RET")
      (should (equal formd-test-submitted
                     '((("email" . "ada@example.com") ("password" . "correct horse")))))
      ;; Only one submission reached the hook (the includeSecrets submit
      ;; emits a second `submitted' event that must not run it again).
      (should (= (length formd-test-submitted) 1))
      (should-not (buffer-live-p buf))
      ;; The secret went to the hook only: no buffer holds it.
      (should-not (string-search "correct horse" (formd-test-all-text))))))

(ert-deftest formd-secure-text-never-drawn ()
  "A secure field's typed text appears in no buffer, overlay or event."
  (let ((secret "s3cr3t-Horse!"))
    (formd-test-with-login
      (formd-test-key "TAB")
      (formd-test-type "ada@example.com")
      (formd-test-key "RET")
      (dolist (c (string-to-list secret))
        (formd-test-type (string c))
        (should-not (string-search "s3cr" (formd-test-all-text))))
      (should (equal (nth 1 (formd-test-lines))
                     (concat "> Password: " (make-string (length secret) ?•))))
      (should-not (string-search secret (formd-test-all-text)))
      ;; Edits in the middle of the masks still build the right secret.
      (formd-test-key "DEL C-b C-b C-b")
      (formd-test-type "Q")
      (formd-test-key "<end>")
      (should (equal (alist-get 'length (formd-test-field-state "password"))
                     (length secret)))
      (should-not (alist-get 'text (formd-test-field-state "password")))
      (let ((full (alist-get 'text (cl-find "password"
                                            (alist-get 'fields (formd-call nil "getState"
                                                                           '((includeSecrets . t))))
                                            :key (lambda (f) (alist-get 'id f))
                                            :test #'equal))))
        (should (equal full "s3cr3t-HoQrse")))
      (should-not (string-search "s3cr" (formd-test-all-text)))
      ;; No event carried it either.
      (dolist (e formd-test-events)
        (should-not (string-search "s3cr" (format "%S" e))))
      (should (member "textChanged" (mapcar #'car formd-test-events))))))

(ert-deftest formd-short-password-fails-to-submit ()
  "RET on an invalid password: submitFailed, errors shown, nothing submitted."
  (formd-test-with-login
    (formd-test-key "TAB")
    (formd-test-type "ada@example.com")
    (formd-test-key "RET")
    (formd-test-type "hunter2")
    (let ((messages-start (with-current-buffer (messages-buffer) (point-max))))
      (formd-test-key "RET")
      ;; Each invalid field by its label, then its messages.
      (should (string-search "formd: cannot submit: Password: Use at least 8 characters."
                             (with-current-buffer (messages-buffer)
                               (buffer-substring messages-start (point-max))))))
    (should (buffer-live-p buf))
    (should (formd-live-p))
    (should-not formd-test-submitted)
    (should (assoc "submitFailed" formd-test-events))
    (should (= (formd-test-marked) 2))
    (should (formd-test-at-field-end-p "password"))
    (should (equal (formd-test-lines) '("  Email:    ada@example.com" "> Password: •••••••")))
    ;; Shown by message, whether formd sends strings or {rule, message} objects.
    (should (cl-some (lambda (ov)
                       (and (overlay-get ov 'formd-errors)
                            (string-search "Use at least 8 characters."
                                           (overlay-get ov 'after-string))))
                     (overlays-in (point-min) (point-max))))
    ;; One more character makes it valid; C-c C-c submits.
    (formd-test-type "!")
    (formd-test-key "C-c C-c")
    (should (equal formd-test-submitted '((("email" . "ada@example.com")))))
    (should-not (buffer-live-p buf))))

(ert-deftest formd-typing-focuses-field-at-point ()
  "Typing on a line that is not the first responder's focuses that field first."
  (formd-test-with-login
    (should-not (formd-test-marked))
    (formd-test-type "ada@example.com")
    (should (= (formd-test-marked) 1))
    (should (equal (car (formd-test-lines)) "> Email:    ada@example.com"))
    (forward-line 1)
    (formd-test-type "pw")
    (should (= (formd-test-marked) 2))
    (should (equal (formd-test-lines) '("  Email:    ada@example.com" "> Password: ••")))
    (should (formd-test-at-field-end-p "password"))
    ;; Return on an empty email is ignored (enablesReturnKeyAutomatically).
    (formd-test-key "S-<tab>")
    (should (= (formd-test-marked) 1))
    (formd-test-key "DEL DEL DEL DEL DEL DEL DEL DEL DEL DEL DEL DEL DEL DEL DEL")
    (should (equal (car (formd-test-lines)) "> Email:    "))
    (formd-test-key "DEL")                      ; deleteOnEmpty none: stays
    (should (= (formd-test-marked) 1))
    (let ((before (length formd-test-events))
          (messages-start (with-current-buffer (messages-buffer) (point-max))))
      (should (equal (formd-return) "ignored"))
      (should (= (length formd-test-events) before)) ; nothing else happened
      (should (string-search "formd: Return ignored (Email is empty)" ; by its label
                             (with-current-buffer (messages-buffer)
                               (buffer-substring messages-start (point-max))))))
    (should (= (formd-test-marked) 1))
    (should (formd-test-at-field-end-p "email"))))

(ert-deftest formd-edit-inside-text ()
  "Typing and DEL in the middle of a plain field edit there and keep point."
  (formd-test-with-login
    (formd-test-key "TAB")
    (formd-test-type "ada@example.com")
    (backward-char 4)
    (formd-test-type "X")
    (should (equal (car (formd-test-lines)) "> Email:    ada@exampleX.com"))
    (should (equal (buffer-substring-no-properties (point) (line-end-position)) ".com"))
    (formd-test-key "DEL")
    (should (equal (car (formd-test-lines)) "> Email:    ada@example.com"))
    (should (equal (buffer-substring-no-properties (point) (line-end-position)) ".com"))
    (should (equal (alist-get 'text (formd-test-field-state "email")) "ada@example.com"))
    ;; Non-ASCII text goes through the UTF-8 framing intact.
    (formd-test-key "<end>")
    (formd-test-type "é👍")
    (should (equal (alist-get 'text (formd-test-field-state "email")) "ada@example.comé👍"))
    (should (equal (car (formd-test-lines)) "> Email:    ada@example.comé👍"))))

(ert-deftest formd-call-is-synchronous ()
  "`formd-call' returns results, handles events first and signals errors; `formd-notify'."
  (let* ((formd-test-events nil)
         (formd-event-functions (list #'formd-test--record-event))
         (s (formd-start formd-test-login)))
    (unwind-protect
        (progn
          (should (formd-live-p s))
          (let ((state (formd-call s "getState")))
            (should (equal (mapcar (lambda (f) (alist-get 'id f)) (alist-get 'fields state))
                           '("email" "password")))
            (should-not (alist-get 'firstResponder state)))
          (should (equal (formd-call s "demandFocus" '((field . "email") (demand . "become")))
                         '((outcome . "fulfilled"))))
          ;; The events came (and were dispatched) before the response.
          (should (equal (mapcar #'car (reverse formd-test-events))
                         '("responderChanged" "fieldChanged" "focusChanged" "demandChanged")))
          (should (equal (formd-session-first-responder s) "email"))
          (should (equal (formd-call s "setText" '(:field "email" :text "a@b.co"))
                         '((applied . t))))
          ;; Notifications: no response; a failing one comes back as an error event.
          (should-not (formd-notify s "setText" '((field . "email") (text . "x@y.z"))))
          (should-not (formd-notify s "setText" '((field . "nope") (text . "x"))))
          (should (equal (alist-get 'text (formd-test-field-state "email" s)) "x@y.z"))
          (should (equal (alist-get 'code (cdr (assoc "error" formd-test-events))) -32001))
          (let ((err (should-error (formd-call s "setText" '((field . "nope") (text . "x")))
                                   :type 'formd-rpc-error)))
            (should (equal (formd-error-code err) -32001)))
          (let ((err (should-error (formd-call s "noSuchMethod") :type 'formd-rpc-error)))
            (should (equal (formd-error-code err) -32601)))
          ;; Still running after errors, state unchanged.
          (should (equal (alist-get 'firstResponder (formd-call s "getState")) "email"))
          (should (equal (formd-stop s) 0))
          (should-error (formd-call s "getState") :type 'formd-process-error))
      (formd-stop s))))

(ert-deftest formd-kill-buffer-stops-daemon ()
  "Killing the form buffer (or C-c C-k) shuts formd down cleanly."
  (formd-test-with-login
    (let ((proc (formd-session-process formd--session)))
      (formd-test-key "TAB")
      (formd-test-type "ada@example.com")
      (kill-buffer buf)
      (should-not (process-live-p proc))
      (should (= (process-exit-status proc) 0))
      (should-not formd-test-submitted)))
  (formd-test-with-login
    (let ((proc (formd-session-process formd--session)))
      (formd-test-key "C-c C-k")
      (should-not (buffer-live-p buf))
      (should (= (process-exit-status proc) 0)))))

(ert-deftest formd-open-bad-form-file ()
  "A bad form file: formd exits 2 and its message is in the error; nothing left over."
  (let* ((file (make-temp-file "formd-bad" nil ".json" "{\"fields\": [{\"label\": 1}]"))
         (buffers (buffer-list)))
    (unwind-protect
        (let ((err (should-error (formd-open file) :type 'formd-error)))
          (should (string-match-p (regexp-quote (file-name-nondirectory file))
                                  (format "%S" err)))
          (should (equal (cl-set-difference (buffer-list) buffers) nil))
          (should-not (cl-some (lambda (p) (and (string-prefix-p "formd" (process-name p))
                                                (process-live-p p)))
                               (process-list))))
      (delete-file file))))

;;;; Typing at the caret

(defun formd-test-secret (id)
  "Field ID's text, fetched with includeSecrets (for secure fields)."
  (alist-get 'text (cl-find id (alist-get 'fields (formd-call nil "getState"
                                                             '((includeSecrets . t))))
                            :key (lambda (f) (alist-get 'id f)) :test #'equal)))

(defun formd-test-caret (id)
  "Field ID's selection in the daemon, as (START . END)."
  (let ((sel (alist-get 'selection (formd-test-field-state id))))
    (cons (alist-get 'start sel) (alist-get 'end sel))))

(defun formd-test-column ()
  "Point's offset in the text of the field on its line."
  (- (point) (nth 1 (gethash (get-text-property (line-beginning-position) 'formd-field)
                            (formd-session-positions formd--session)))))

(defconst formd-test-otp (expand-file-name "examples/otp.json" formd-test-root)
  "Six one-digit boxes with autoAdvance.")

(ert-deftest formd-del-in-middle-of-password ()
  "DEL in the middle of a password removes the character before point."
  (formd-test-with-login
    (formd-test-key "TAB RET")                 ; email is empty: RET is ignored
    (formd-test-key "S-<tab>")                 ; wraps to the password
    (should (= (formd-test-marked) 2))
    (formd-test-type "abcdef")
    (formd-test-key "C-b C-b")
    (should (equal (formd-test-caret "password") '(4 . 4)))
    (should (= (formd-test-column) 4))
    (formd-test-key "DEL")
    (should (equal (formd-test-secret "password") "abcef"))
    (should (equal (nth 1 (formd-test-lines)) "> Password: •••••"))
    (should (= (formd-test-column) 3))
    (formd-test-key "C-d")
    (should (equal (formd-test-secret "password") "abcf"))
    ;; Word motion and deletes treat a masked text as one word.
    (formd-test-key "M-b")
    (should (= (formd-test-column) 0))
    (formd-test-key "M-f")
    (should (= (formd-test-column) 4))
    (formd-test-key "C-a")
    (formd-test-key "M-d")
    (should (equal (formd-test-secret "password") ""))
    (should-not (string-search "abc" (formd-test-all-text)))
    (should-not (cl-some (lambda (k) (string-search "abc" k)) kill-ring))))

(ert-deftest formd-motion-keys-move-formd-caret ()
  "C-a C-e C-b C-f M-b M-f are moveCaret; other motion is a select."
  (formd-test-with-login
    (formd-test-key "TAB")
    (formd-test-type "one two three")
    (formd-test-key "C-a")
    (should (equal (formd-test-caret "email") '(0 . 0)))
    (should (= (formd-test-column) 0))
    (formd-test-key "M-f")
    (should (equal (formd-test-caret "email") '(3 . 3)))
    (formd-test-key "C-f C-f")
    (should (equal (formd-test-caret "email") '(5 . 5)))
    (formd-test-key "C-e")
    (should (equal (formd-test-caret "email") '(13 . 13)))
    (formd-test-key "M-b C-b")
    (should (equal (formd-test-caret "email") '(7 . 7)))
    (should (= (formd-test-column) 7))
    ;; Motion formd did not make (here Lisp, then C-n/C-p) becomes a select.
    (goto-char (+ (nth 1 (gethash "email" (formd-session-positions formd--session))) 2))
    (formd-test-key "C-n C-p")
    (should (equal (formd-test-caret "email") '(2 . 2)))
    ;; Point in the label moves into the text.
    (beginning-of-line)
    (formd-test-key "C-n C-p")
    (should (= (formd-test-column) 0))
    (should (equal (formd-test-caret "email") '(0 . 0)))
    ;; A region in a field is formd's selection: typing replaces it.
    (formd-test-key "C-SPC M-f")
    (should (equal (formd-test-caret "email") '(0 . 3)))
    (should (region-active-p))
    (formd-test-type "1")
    (should (equal (alist-get 'text (formd-test-field-state "email")) "1 two three"))
    (should-not (region-active-p))))

(ert-deftest formd-undo-redo-typing-runs ()
  "C-/ undoes a run of typing as one step; C-? (C-M-_) redoes it."
  (formd-test-with-login
    (formd-test-key "TAB")
    (formd-test-type "ada")
    (formd-test-key "C-a")                    ; ends the run
    (formd-test-type "x")
    (should (equal (alist-get 'text (formd-test-field-state "email")) "xada"))
    (formd-test-key "C-/")
    (should (equal (alist-get 'text (formd-test-field-state "email")) "ada"))
    (should (equal (car (formd-test-lines)) "> Email:    ada"))
    (formd-test-key "C-/")
    (should (equal (alist-get 'text (formd-test-field-state "email")) ""))
    (formd-test-key "C-M-_")
    (should (equal (alist-get 'text (formd-test-field-state "email")) "ada"))
    (should (= (formd-test-column) 3))
    (formd-test-key "C-?")
    (should (equal (alist-get 'text (formd-test-field-state "email")) "xada"))
    (formd-test-key "C-_")
    (formd-test-key "C-_")
    (formd-test-key "C-_")                    ; nothing left: a message, no error
    (should (equal (alist-get 'text (formd-test-field-state "email")) ""))
    (should (eq buffer-undo-list t))))

(ert-deftest formd-kills-and-the-kill-ring ()
  "C-k, M-d and M-DEL delete (and kill plain text); masked fields keep the kill ring clean."
  (let ((kill-ring nil) (kill-ring-yank-pointer nil))
    (formd-test-with-login
      (formd-test-key "TAB")
      (formd-test-type "one two_2, three")
      (formd-test-key "M-DEL")
      (should (equal (alist-get 'text (formd-test-field-state "email")) "one two_2, "))
      (should (equal (car kill-ring) "three"))
      (formd-test-key "C-/")
      (should (equal (alist-get 'text (formd-test-field-state "email")) "one two_2, three"))
      (formd-test-key "M-DEL M-DEL")           ; consecutive kills append, as in Emacs
      (should (equal (alist-get 'text (formd-test-field-state "email")) "one "))
      (should (equal (car kill-ring) "two_2, three"))
      (formd-test-key "C-a M-d")
      (should (equal (alist-get 'text (formd-test-field-state "email")) " "))
      (should (equal (car kill-ring) "one"))
      (formd-test-key "C-y")
      (should (equal (alist-get 'text (formd-test-field-state "email")) "one "))
      (formd-test-key "C-a C-k")
      (should (equal (alist-get 'text (formd-test-field-state "email")) ""))
      (should (equal (car kill-ring) "one "))
      (formd-test-type "ada@example.com")
      (formd-test-key "C-a C-SPC M-f M-w")
      (should (equal (car kill-ring) "ada"))
      (formd-test-key "C-w")
      (should (equal (alist-get 'text (formd-test-field-state "email")) "@example.com"))
      (formd-test-key "RET")
      (formd-test-type "hunter22")
      (let ((before (copy-sequence kill-ring)))
        (formd-test-key "C-a C-SPC C-e")
        (should (region-active-p))
        (should-error (formd-test-key "M-w") :type 'user-error)
        (should-error (formd-test-key "C-w") :type 'user-error)
        (deactivate-mark)
        (formd-test-key "C-a C-k")
        (should (equal (formd-test-secret "password") ""))
        (formd-test-type "hunter22")
        (formd-test-key "M-DEL")
        (should (equal (formd-test-secret "password") ""))
        (should (equal kill-ring before)))
      (should-not (cl-some (lambda (k) (string-search "hunter" k)) kill-ring)))))

(ert-deftest formd-otp-autoadvance ()
  "Typing 123456 into the otp form fills the six boxes, moving on by itself."
  (let* ((formd-submit-functions nil)
         (buf (formd-open formd-test-otp)))
    (unwind-protect
        (progn
          (formd-test-type "12")
          (should (equal (alist-get 'firstResponder (formd-test-state)) "d3"))
          (formd-test-type "x")                 ; inputFilter refuses it
          (should (equal (alist-get 'text (formd-test-field-state "d3")) ""))
          (formd-test-type "3456")
          (should (equal (mapcar (lambda (f) (alist-get 'text f))
                                 (alist-get 'fields (formd-test-state)))
                         '("1" "2" "3" "4" "5" "6")))
          ;; Filling the last box left the form: nothing is focused.
          (should (equal (formd-test-lines)
                         '("  Digit 1: 1" "  Digit 2: 2" "  Digit 3: 3"
                           "  Digit 4: 4" "  Digit 5: 5" "  Digit 6: 6")))
          (should (equal (get-text-property (line-beginning-position) 'formd-field) "d6"))
          ;; DEL deletes the 6, then on the empty box steps back.
          (formd-test-key "DEL DEL")
          (should (equal (alist-get 'firstResponder (formd-test-state)) "d5"))
          (should (= (formd-test-marked) 5))
          (formd-test-key "DEL")
          (should (equal (alist-get 'text (formd-test-field-state "d5")) ""))
          (formd-test-type "57")
          (should (equal (alist-get 'text (formd-test-field-state "d6")) "7"))
          ;; A pasted code fills the boxes in turn.
          (formd-call nil "reset")
          (kill-new "654321")
          (formd-test-key "M-< C-y")
          (should (equal (mapcar (lambda (f) (alist-get 'text f))
                                 (alist-get 'fields (formd-test-state)))
                         '("6" "5" "4" "3" "2" "1"))))
      (kill-buffer buf))))

(ert-deftest formd-secrets-stay-out-of-emacs ()
  "A password is in no buffer, undo list, kill ring, lossage or auto-save file."
  (let* ((secret "Zebra-Quartz-9")
         (dir (make-temp-file "formd-autosave" t))
         (auto-save-list-file-prefix nil)
         (kill-ring nil))
    (unwind-protect
        (formd-test-with-login
          (formd-test-key "TAB")
          (formd-test-type "ada@example.com")
          (formd-test-key "RET")
          ;; Even with auto-saving turned on by hand, only bullets could reach
          ;; the disk (in DIR, not next to the form file).
          (setq default-directory (file-name-as-directory dir))
          (auto-save-mode 1)
          (setq buffer-auto-save-file-name (expand-file-name "form-autosave" dir))
          (formd-test-type secret)
          (formd-test-key "C-b C-b DEL M-DEL C-/ C-/")
          (should (equal (formd-test-secret "password") secret))
          ;; The buffer is never left modified (it mirrors formd), so even
          ;; then nothing is written; if it were, it would hold bullets.
          (should-not (buffer-modified-p))
          (do-auto-save t)
          (let ((saved (expand-file-name "form-autosave" dir)))
            (when (file-exists-p saved)
              (with-temp-buffer
                (insert-file-contents saved)
                (should-not (string-search "Zebra" (buffer-string))))))
          (should (eq buffer-undo-list t))
          (should-not (string-search "Zebra" (formd-test-all-text)))
          (should-not (cl-some (lambda (k) (string-search "Zebra" k)) kill-ring))
          (should-not (string-search "Zebra" (concat (recent-keys))))
          (should-not (string-search "Zebra" (format "%S" formd-last-values))))
      (delete-directory dir t))))

(ert-deftest formd-submit-without-hook-messages-values ()
  "With no `formd-submit-functions', a submit says the values and keeps them."
  (let ((formd-last-values nil)
        (formd-submit-functions nil)
        (buf (formd-open formd-test-login))
        (messages-start (with-current-buffer (messages-buffer) (point-max))))
    (unwind-protect
        (progn
          (formd-test-key "TAB")
          (formd-test-type "ada@example.com")
          (formd-test-key "RET")
          (formd-test-type "correct horse")
          (formd-test-key "RET")
          (should-not (buffer-live-p buf))
          (should (equal formd-last-values '(("email" . "ada@example.com"))))
          (let ((said (with-current-buffer (messages-buffer)
                        (buffer-substring messages-start (point-max)))))
            (should (string-search "email=\"ada@example.com\"" said))
            (should (string-search "withheld: password" said))
            (should-not (string-search "horse" said))))
      (when (buffer-live-p buf) (kill-buffer buf)))))

(ert-deftest formd-validation-messages-strings-or-objects ()
  "A validation error is shown by its `message' when it is an object."
  (should (equal (formd--validation-messages
                  (list "is required"
                        '((rule . "minLength") (message . "must be at least 8 characters"))))
                 "is required, must be at least 8 characters")))

(ert-deftest formd-missed-events-resync ()
  "A gap in `seq' (here: events this client unsubscribed from) resyncs asynchronously."
  (formd-test-with-login
    (let ((s formd--session))
      (formd-call nil "unsubscribe" '((events . ["fieldChanged"])))
      (formd-test-key "TAB")                    ; its fieldChanged {visited} is not sent
      (let ((deadline (+ (float-time) 3)))
        (while (and (formd-session-resyncing s) (< (float-time) deadline))
          (accept-process-output nil 0.02)))
      (should-not (formd-session-resyncing s))
      ;; The model has what only the getState of the resync could tell.
      (should (gethash 'visited (formd--field s "email")))
      (should (= (formd-session-seq s) (alist-get 'seq (formd-test-state))))
      (should (= (formd-test-marked) 1)))))

;;;; Attaching to a shared daemon

(defmacro formd-test-with-daemon (form-file &rest body)
  "Run BODY with `socket' bound to a `formd --listen' daemon serving FORM-FILE."
  (declare (indent 1) (debug t))
  `(let* ((dir (make-temp-file "formd-emacs" t))
          (socket (expand-file-name "formd.sock" dir))
          (daemon (progn
                    (set-file-modes dir #o700)
                    (make-process :name "formd-test-daemon" :noquery t
                                  :buffer (generate-new-buffer " *formd-test-daemon*")
                                  :connection-type 'pipe
                                  :command (list formd-program "--listen" socket
                                                 "--form" ,form-file)))))
     (unwind-protect
         (progn
           (let ((deadline (+ (float-time) 5)))
             (while (and (not (file-exists-p socket)) (< (float-time) deadline))
               (accept-process-output daemon 0.02)))
           (should (file-exists-p socket))
           ,@body)
       (when (process-live-p daemon) (interrupt-process daemon))
       (let ((deadline (+ (float-time) 3)))
         (while (and (process-live-p daemon) (< (float-time) deadline))
           (accept-process-output daemon 0.02)))
       (kill-buffer (process-buffer daemon))
       (delete-directory dir t))))

(defun formd-test-attach-scenario (socket daemon)
  "Attach to SOCKET, type, watch another client, close; DAEMON keeps running."
  (let* ((formd-submit-functions nil)
         (buf (formd-attach socket))
         (other (formd-connect socket)))
    (unwind-protect
        (progn
          (should (formd-attached-p (buffer-local-value 'formd--session buf)))
          (should (equal (formd-test-lines) '("  Email:    " "  Password: ")))
          (formd-test-key "TAB")
          (formd-test-type "ada")
          (should (equal (alist-get 'text (formd-test-field-state "email" other)) "ada"))
          ;; Another client's edit appears, without any key pressed here.
          (formd-call other "setText" '((field . "email") (text . "script@example.com")))
          (let ((deadline (+ (float-time) 3)))
            (while (and (not (equal (car (formd-test-lines)) "> Email:    script@example.com"))
                        (< (float-time) deadline))
              (accept-process-output nil 0.02)))
          (should (equal (car (formd-test-lines)) "> Email:    script@example.com"))
          (formd-test-key "C-/")
          (should (equal (car (formd-test-lines)) "> Email:    ada"))
          ;; Closing the buffer leaves the daemon (and the other client) running.
          (formd-test-key "C-c C-k")
          (should-not (buffer-live-p buf))
          (should (process-live-p daemon))
          (should (equal (alist-get 'firstResponder (formd-call other "getState")) "email")))
      (when (buffer-live-p buf) (kill-buffer buf))
      (formd-stop other))))

(ert-deftest formd-attach-over-socket ()
  "`formd-attach' joins a running daemon over its socket (a local network process)."
  (formd-test-with-daemon formd-test-login
    (let ((formd-attach-method 'socket))
      (formd-test-attach-scenario socket daemon))))

(ert-deftest formd-attach-through-formd-attach ()
  "`formd-attach' can also go through a `formd attach SOCKET' subprocess."
  (formd-test-with-daemon formd-test-login
    (let ((formd-attach-method 'process))
      (formd-test-attach-scenario socket daemon))))

(ert-deftest formd-attach-sees-remote-submit ()
  "A submit by another client closes the attached buffer and keeps the values."
  (formd-test-with-daemon formd-test-login
    (let* ((formd-last-values nil)
           (formd-submit-functions (list #'formd-test--record-submit))
           (formd-test-submitted nil)
           (buf (formd-attach socket))
           (other (formd-connect socket)))
      (unwind-protect
          (progn
            (formd-call other "setText" '((field . "email") (text . "a@b.co")))
            (formd-call other "setText" '((field . "password") (text . "correct horse")))
            (formd-call other "submit")
            (let ((deadline (+ (float-time) 3)))
              (while (and (buffer-live-p buf) (< (float-time) deadline))
                (accept-process-output nil 0.02)))
            (should-not (buffer-live-p buf))
            (should (equal formd-test-submitted '((("email" . "a@b.co")))))
            (should (equal formd-last-values '(("email" . "a@b.co"))))
            (should (process-live-p daemon)))
        (when (buffer-live-p buf) (kill-buffer buf))
        (formd-stop other)))))

(ert-deftest formd-attach-daemon-shuts-down ()
  "When another client shuts the shared daemon down, the buffer says so and takes no edits."
  (formd-test-with-daemon formd-test-login
    (let* ((buf (formd-attach socket))
           (other (formd-connect socket)))
      (unwind-protect
          (progn
            (formd-call other "shutdown")
            (let ((deadline (+ (float-time) 3)))
              (while (and (formd-live-p formd--session) (< (float-time) deadline))
                (accept-process-output nil 0.02)))
            (should-not (formd-live-p formd--session))
            (should (equal mode-line-process ":closed"))
            (should-error (formd-test-type "x") :type 'user-error)
            (should (equal (formd-test-lines) '("  Email:    " "  Password: "))))
        (when (buffer-live-p buf) (kill-buffer buf))
        (formd-stop other)))))

(ert-deftest formd-disabled-field-takes-no-typing ()
  "Typing on a disabled field says so and leaves no focus demand pending in formd."
  (let* ((formd-submit-functions nil)
         (buf (formd-open (expand-file-name "examples/signup.json" formd-test-root))))
    (unwind-protect
        (progn
          (goto-char (point-min))
          (forward-line 3)
          (should (equal (get-text-property (point) 'formd-field) "plan"))
          (should (equal (cadr (should-error (formd-test-type "x") :type 'user-error))
                         "Plan is disabled"))
          (should-not (alist-get 'demand (formd-test-field-state "plan")))
          (should (equal (alist-get 'text (formd-test-field-state "plan")) "free"))
          (should-not (formd-test-marked)))
      (when (buffer-live-p buf) (kill-buffer buf)))))

(ert-deftest formd-attach-no-daemon ()
  "Attaching to a socket nobody serves is a clear error and leaves nothing behind."
  (let* ((dir (make-temp-file "formd-emacs" t))
         (buffers (buffer-list)))
    (unwind-protect
        (let ((err (should-error (formd-attach (expand-file-name "none.sock" dir))
                                 :type 'formd-error)))
          (should (string-match-p "none\\.sock" (format "%S" err)))
          ;; Said plainly: the reason, not the arguments of the connection.
          (should (string-match-p "\\`cannot connect to .*none\\.sock: No such file or directory"
                                  (cadr err)))
          (should-not (string-match-p ":family" (format "%S" err)))
          (should (equal (cl-set-difference (buffer-list) buffers) nil)))
      (delete-directory dir t))))

(provide 'formd-tests)
;;; formd-tests.el ends here
