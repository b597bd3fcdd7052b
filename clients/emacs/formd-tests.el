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

(defun formd-test-state ()
  "The daemon's view of the form (no secrets)."
  (formd-call nil "getState"))

(defun formd-test-field-state (id)
  (cl-find id (alist-get 'fields (formd-test-state))
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
    (let ((proc (formd-session-process formd--session))
          (stderr (formd-session-stderr-buffer formd--session)))
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
      ;; The buffer, the daemon and its stderr pipe are gone, cleanly.
      (should-not (buffer-live-p buf))
      (should-not (buffer-live-p stderr))
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
      (formd-test-key "DEL")
      (backward-char 3)
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
    (formd-test-key "RET")
    (should (buffer-live-p buf))
    (should (formd-live-p))
    (should-not formd-test-submitted)
    (should (assoc "submitFailed" formd-test-events))
    (should (= (formd-test-marked) 2))
    (should (formd-test-at-field-end-p "password"))
    (should (equal (formd-test-lines) '("  Email:    ada@example.com" "> Password: •••••••")))
    (should (cl-some (lambda (ov) (member "must be at least 8 characters"
                                          (overlay-get ov 'formd-errors)))
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
    (let ((before (length formd-test-events)))
      (should (equal (formd-return) "ignored"))
      (should (= (length formd-test-events) before))) ; nothing else happened
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
  "`formd-call' returns results, handles events first and signals errors."
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

(provide 'formd-tests)
;;; formd-tests.el ends here
