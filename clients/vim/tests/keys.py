#!/usr/bin/env python3
"""The Vim plugin driven with real keys: Vim runs in tmux (80x20, private server socket
`formd-vim-<pid>`, killed at the end whatever happens), keys go in with `send-keys`, the
screen comes back with `capture-pane`, and what formd holds is asked of the daemon itself
over its socket (a `formd --listen` the plugin attaches to with :FormdAttach, except in the
private-daemon case).

    FORMD_BIN=.build/debug/formd clients/vim/tests/keys.py [NAME…]   # NAME: cases whose name contains it

Python 3 standard library, tmux and vim. Prints `N passed, N failed` last; exits 1 on failure.
"""
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(PLUGIN))
FORMD = os.path.abspath(os.environ.get("FORMD_BIN") or os.path.join(ROOT, ".build/debug/formd"))
SERVER = "formd-vim-%d" % os.getpid()
WORK = tempfile.mkdtemp(prefix="formd-vim-test.")  # mode 0700: fit for a socket
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", SHELL="/bin/sh", TERM="xterm-256color")
ENV.pop("TMUX", None)
TIMEOUT = 6.0
ROWS, COLS = 20, 80
SECRET = "hunter22"

passed = 0
failed = 0
daemons = []


def cleanup():
    subprocess.run(["tmux", "-L", SERVER, "kill-server"], env=ENV, capture_output=True)
    for d in daemons:
        d.stop()
    shutil.rmtree(WORK, ignore_errors=True)


def on_signal(sig, _frame):
    cleanup()
    sys.exit(128 + sig)


def tmux(*args):
    r = subprocess.run(["tmux", "-u", "-f", "/dev/null", "-L", SERVER, *args],
                       env=ENV, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("tmux %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok - %s" % name)
    else:
        failed += 1
        print("not ok - %s" % name)
        for line in str(detail).rstrip("\n").split("\n"):
            print("    | %s" % line)
    return ok


def wait(pred):
    deadline = time.time() + TIMEOUT
    while True:
        try:
            if pred():
                return True
        except (IndexError, KeyError, ValueError, OSError):
            pass
        if time.time() > deadline:
            return False
        time.sleep(0.05)


class Daemon:
    """A `formd --listen` on a form file, asked over its socket like any other client."""

    count = 0

    def __init__(self, form):
        Daemon.count += 1
        self.sock = os.path.join(WORK, "d%d.sock" % Daemon.count)
        self.proc = subprocess.Popen([FORMD, "--listen", self.sock, "--form", os.path.join(ROOT, form)],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        daemons.append(self)
        if not wait(lambda: os.path.exists(self.sock)):
            raise RuntimeError("formd --listen did not create %s" % self.sock)

    def request(self, method, params=None):
        """One request on a connection of its own; returns the result (or the error)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(TIMEOUT)
            s.connect(self.sock)
            f = s.makefile("rwb")
            f.write((json.dumps({"id": 1, "method": method, "params": params or {}}) + "\n").encode())
            f.flush()
            while True:
                line = f.readline()
                if not line:
                    raise OSError("connection closed")
                msg = json.loads(line)
                if msg.get("id") == 1:
                    return msg.get("result", msg.get("error"))

    def fields(self):
        state = self.request("getState", {"includeSecrets": True})
        return {f["id"]: f for f in state["fields"]}

    def state(self):
        return self.request("getState", {"includeSecrets": True})

    def text(self, field):
        return self.fields()[field]["text"]

    def alive(self):
        try:
            return "fields" in self.request("getState")
        except OSError:
            return False

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Vim:
    """Vim with the plugin, -u tests/vimrc, in a tmux session; `files` is its own directory
    (viminfo, swap and undo files go there)."""

    count = 0

    def __init__(self, command):
        Vim.count += 1
        self.name = "v%d" % Vim.count
        self.dir = os.path.join(WORK, self.name)
        for sub in ("swap", "undo"):
            os.makedirs(os.path.join(self.dir, sub))
        env = "FORMD_VIM_FILES=%s FORMD_BIN=%s" % (shlex.quote(self.dir), shlex.quote(FORMD))
        vim = "vim -Nu %s -i %s --cmd %s -c %s" % (
            shlex.quote(os.path.join(HERE, "vimrc")), shlex.quote(os.path.join(self.dir, "viminfo")),
            shlex.quote("set rtp^=" + PLUGIN), shlex.quote(command))
        script = "cd %s; %s %s 2> %s; exec sleep 600" % (
            shlex.quote(ROOT), env, vim, shlex.quote(os.path.join(self.dir, "stderr")))
        tmux("new-session", "-d", "-s", self.name, "-x", str(COLS), "-y", str(ROWS), script)

    def screen(self):
        return tmux("capture-pane", "-p", "-t", self.name).split("\n")

    def dump(self):
        return "\n".join("%2d|%s" % (i, l) for i, l in enumerate(self.screen()))

    def keys(self, *keys):
        tmux("send-keys", "-t", self.name, *keys)
        time.sleep(0.05)

    def type(self, text):
        tmux("send-keys", "-t", self.name, "-l", text)
        time.sleep(0.05)

    def ex(self, command):
        """An Ex command typed on Vim's command line (from Normal mode)."""
        self.keys("Escape")
        self.type(":" + command)
        self.keys("Enter")

    def line(self, row):
        return self.screen()[row]

    def marked(self):
        """Rows whose sign column shows the first-responder marker."""
        return [i for i, l in enumerate(self.screen()) if l.startswith("> ")]

    def file(self, name):
        try:
            with open(os.path.join(self.dir, name), "rb") as fh:
                return fh.read()
        except FileNotFoundError:
            return None

    def expect(self, name, pred):
        return check(name, wait(lambda: pred(self)), self.dump())

    def close(self):
        try:
            tmux("kill-session", "-t", self.name)
        except RuntimeError:
            pass


def expect_text(name, daemon, field, text, vim=None):
    got = []

    def holds():
        got[:] = [daemon.text(field)]
        return got[0] == text
    return check(name, wait(holds), "want %s = %r, formd holds %r\n%s" % (
        field, text, got[0] if got else None, vim.dump() if vim else ""))


def attached(form="examples/login.json"):
    d = Daemon(form)
    v = Vim("FormdAttach " + d.sock)
    if not v.expect("attached: the form is drawn", lambda v: v.marked() == [0]):
        raise RuntimeError("the form did not open")
    return d, v


# ------------------------------------------------------------------------------------------

def case_typing_undo_and_password():
    d, v = attached()
    v.expect("placeholders are drawn after the empty fields",
             lambda v: v.screen()[:2] == ["> Email:      you@example.com", "  Password:   at least 8 characters"])
    v.keys("i")
    v.type("ada@example.com")
    expect_text("i + typing lands in the focused field", d, "email", "ada@example.com", v)
    v.expect("the typed text is drawn on the Email line",
             lambda v: v.line(0).startswith("> Email:    ada@example.com"))
    v.keys("Escape", "u")
    expect_text("u undoes the typing run", d, "email", "", v)
    v.keys("C-r")
    expect_text("CTRL-R redoes it", d, "email", "ada@example.com", v)
    v.keys("C-r")
    v.expect("CTRL-R with nothing to redo says so", lambda v: "formd: nothing to redo" in v.line(ROWS - 1))
    v.keys("Enter")
    v.expect("Return moves the marker to the password", lambda v: v.marked() == [1])
    v.keys("a")
    v.type(SECRET)
    expect_text("typing into the password lands", d, "password", SECRET, v)
    v.expect("the password shows as bullets", lambda v: v.line(1) == "> Password: " + "•" * len(SECRET))
    v.keys("Left", "Left", "Left", "BSpace")
    expect_text("Backspace mid-password removes the character before the caret", d, "password", "huntr22", v)
    v.keys("Escape", "u")
    expect_text("u puts it back", d, "password", SECRET, v)
    check("the screen never shows the password", SECRET not in v.dump(), v.dump())

    # Secrets: not in the buffer, a register, the undo tree, viminfo, a swap or undo file.
    out = os.path.join(v.dir, "probe")
    v.ex("call writefile(getline(1, '$') + [execute('registers'), execute('messages'), "
         "string(undotree()), swapname('%%'), &l:undofile, &l:swapfile], '%s')" % out)
    v.ex("wviminfo! " + os.path.join(v.dir, "viminfo"))
    ok = wait(lambda: v.file("probe") and v.file("viminfo"))
    probe = (v.file("probe") or b"").decode("utf-8", "replace").split("\n")
    check("secrets: the probe and viminfo were written", ok, v.dump())
    check("secrets: not in the buffer, registers, messages or undo tree",
          SECRET not in "\n".join(probe) and probe[-4:-1] == ["", "0", "0"]
          and "'seq_last': 0" in "\n".join(probe), "\n".join(probe))
    leaked = [os.path.join(dp, f) for dp, _, fs in os.walk(v.dir) for f in fs
              if f != "probe" and SECRET.encode() in open(os.path.join(dp, f), "rb").read()]
    check("secrets: no file of Vim's (viminfo, swap, undo) holds the password", not leaked, leaked)

    d.request("setText", {"field": "email", "text": "grace@example.com"})
    v.expect("another client's edit appears", lambda v: v.line(0) == "  Email:    grace@example.com")
    v.keys("Enter")
    v.expect("Return on the password submits and the form closes",
             lambda v: not any("Email:" in l for l in v.screen()))
    v.expect("the message shows the values but not the password",
             lambda v: "formd: submitted email=grace@example.com (withheld: password)" in v.dump())
    check("the daemon is left running", d.alive())
    v.ex("call writefile([json_encode(g:formd_last_submit)], '%s')" % os.path.join(v.dir, "last"))
    ok = wait(lambda: v.file("last"))
    last = json.loads(v.file("last") or b"null")
    check("g:formd_last_submit holds the values", last == {
        "form": "default", "values": {"email": "grace@example.com"}, "withheld": ["password"]}, last)
    v.close()
    d.stop()


def case_otp():
    d, v = attached("examples/otp.json")
    v.keys("i")
    v.type("123456")
    ok = wait(lambda: [f["text"] for f in d.fields().values()] == list("123456"))
    check("otp: typing 123456 fills the six boxes", ok, "%r\n%s" % (d.fields(), v.dump()))
    v.expect("otp: the boxes show the digits",
             lambda v: [l[-1:] for l in v.screen()[:6]] == list("123456"))
    v.keys("BSpace")
    expect_text("otp: Backspace empties the last box", d, "d6", "", v)
    v.keys("BSpace")
    v.expect("otp: Backspace on the empty box steps back", lambda v: v.marked() == [4])
    v.keys("BSpace")
    expect_text("otp: and the next one deletes its digit", d, "d5", "", v)
    v.type("9x")
    expect_text("otp: a digit fills it", d, "d5", "9", v)
    check("otp: a letter is refused", d.fields()["d6"]["text"] == "", d.fields())
    # At a person's pace, and a digit past the last box: with no focus left, the box under
    # the cursor takes it and refuses it (full), saying so.
    d.request("reset")
    v.keys("Escape", "g", "g", "i")
    press(v, ["~1234567"])
    ok = wait(lambda: [f["text"] for f in d.fields().values()] == list("123456"))
    check("otp: typed at a person's pace, the digits fill the boxes", ok, "%r\n%s" % (d.fields(), v.dump()))
    v.expect("otp: a digit past the last box is refused, saying so",
             lambda v: "Digit 6: change refused (maxLength)" in v.dump())
    v.close()
    d.stop()


def case_insert_entries():
    """Every way into Insert mode lands in the field's text, at the caret Vim shows."""
    d, v = attached()
    steps = [
        # keys from Normal mode (on "abc", cursor on "b"), typed text, expected text
        (["I"], "X", "Xabc"),
        (["A"], "X", "abcX"),
        (["i"], "X", "aXbc"),
        (["a"], "X", "abXc"),
        (["s"], "X", "aXc"),
        (["S"], "X", "X"),
        (["c", "c"], "X", "X"),
        (["C"], "X", "aX"),
        (["R"], "XY", "aXY"),
        (["c", "w"], "X", "aX"),
        (["r"], "X", "aXc"),
        (["v", "l", "c"], "X", "aX"),
        (["~"], "", "aBc"),
        (["g", "U", "i", "w"], "", "ABC"),
        (["v", "h", "Escape", "i"], "X", "Xabc"),
        (['"', "a", "p"], "", "ab12c"),
        (['"', "a", "P"], "", "a12bc"),
        (["0", "i"], "X", "Xabc"),
    ]
    v.ex('let @a = "12\\n"')
    for keys, typed, want in steps:
        d.request("setText", {"field": "email", "text": "abc"})
        v.expect("entries: abc drawn", lambda v: v.line(0) == "> Email:    abc")
        v.keys("Escape", "0", "l")
        wait(lambda: d.fields()["email"]["selection"]["end"] == 1)
        v.keys(*keys)
        if typed:
            v.type(typed)
        v.keys("Escape")
        expect_text("entries: %s then %s" % ("".join(keys), typed), d, "email", want, v)
    d.request("setText", {"field": "email", "text": "abc"})
    v.expect("entries: abc drawn", lambda v: v.line(0) == "> Email:    abc")
    v.keys("Escape", "0", "l", "v", "l")
    ok = wait(lambda: d.fields()["email"]["selection"] == {"start": 1, "end": 3})
    check("entries: a Visual selection is formd's selection", ok, d.fields()["email"]["selection"])
    v.keys("Escape", "j", "0")
    v.expect("entries: j moves focus to the password", lambda v: v.marked() == [1])
    v.keys("k", "$")
    v.expect("entries: k moves it back", lambda v: v.marked() == [0])
    v.expect("entries: the password, touched and empty, shows its error after the placeholder",
             lambda v: re.match(r"  Password:   at least 8 characters  \S", v.line(1)))
    v.keys("x")
    expect_text("entries: x deletes the character under the cursor", d, "email", "ab", v)
    v.keys("0", "d", "w")
    expect_text("entries: dw deletes a word", d, "email", "", v)
    # A click (SGR mouse report) on the Email text puts the caret there.
    d.request("setText", {"field": "email", "text": "hello"})
    v.expect("entries: hello drawn", lambda v: v.line(0).startswith("> Email:    hello "))
    v.keys("Escape")
    tmux("send-keys", "-t", v.name, "-l", "\x1b[<0;15;1M\x1b[<0;15;1m")
    ok = wait(lambda: d.fields()["email"]["selection"] == {"start": 2, "end": 2})
    check("entries: a click puts formd's caret under the mouse", ok, "%r\n%s" % (d.fields()["email"], v.dump()))
    v.keys("i")
    v.type("_")
    expect_text("entries: and typing lands there", d, "email", "he_llo", v)
    # In Insert mode: a click on the label of the password puts the caret at its start.
    d.request("setText", {"field": "password", "text": "pw"})
    tmux("send-keys", "-t", v.name, "-l", "\x1b[<0;5;2M\x1b[<0;5;2m")
    v.expect("entries: a click in Insert mode moves focus", lambda v: v.marked() == [1])
    v.type("1")
    expect_text("entries: typing after a click on a label lands at the text's start", d, "password", "1pw", v)
    v.close()
    d.stop()


def case_repeat():
    """. repeats the plugin's last command (x, p, r, dd), not an older change of Vim's own."""
    d, v = attached()
    d.request("setText", {"field": "email", "text": "abcdef"})
    v.expect("repeat: abcdef drawn", lambda v: v.line(0).startswith("> Email:    abcdef"))
    v.keys("Escape", "0", "~")
    expect_text("repeat: ~ (Vim's own change)", d, "email", "Abcdef", v)
    v.keys("x")
    expect_text("repeat: x", d, "email", "Acdef", v)
    v.keys(".")
    expect_text("repeat: . after x deletes again", d, "email", "Adef", v)
    v.keys("r", "Z", "l", ".")
    expect_text("repeat: . after r replaces again", d, "email", "AZZf", v)
    v.ex('let @a = "12"')
    v.keys("0", '"', "a", "P")
    expect_text("repeat: P", d, "email", "12AZZf", v)
    v.keys("$", ".")
    expect_text("repeat: . after P pastes again", d, "email", "12AZZ12f", v)
    v.keys("0", "l", "l", "~", ".")
    expect_text("repeat: and after a change of Vim's own, . is Vim's", d, "email", "12azZ12f", v)
    v.close()
    d.stop()


def case_disabled_field():
    """A field that cannot take focus: motions pass over it, Tab skips it, no typing there."""
    d, v = attached("examples/signup.json")
    v.expect("disabled: shown as such", lambda v: v.line(3) == "  Plan:      free  (disabled)")
    d.request("demandFocus", {"field": "plan", "demand": "become"})
    v.expect("disabled: another client's pending focus demand shows",
             lambda v: v.line(3) == "  Plan:      free  (disabled)  (focus pending)")
    d.request("demandFocus", {"field": "name", "demand": "become"})
    v.expect("disabled: and goes when superseded", lambda v: v.line(3) == "  Plan:      free  (disabled)")
    v.keys("j", "j")
    v.expect("disabled: j moves focus line by line", lambda v: v.marked() == [2])
    v.keys("j")
    time.sleep(0.3)
    check("disabled: the cursor may rest on it, focus stays", v.marked() == [2]
          and d.state()["firstResponder"] == "email", v.dump())
    v.keys("i")
    v.expect("disabled: Insert mode on it says typing there is refused",
             lambda v: "Plan is disabled: nothing typed there" in v.dump() and v.marked() == [2])
    v.keys("Escape", "j", "i")
    v.type("pw")
    expect_text("disabled: the next field takes focus and the typing", d, "password", "pw", v)
    check("disabled: its text is untouched", d.fields()["plan"]["text"] == "free", d.fields()["plan"])
    v.keys("Escape", "Tab")
    v.expect("disabled: Tab wraps to the first field", lambda v: v.marked() == [0])
    v.keys("BTab")
    v.expect("disabled: Shift-Tab skips it going back", lambda v: v.marked() == [4])
    v.close()
    d.stop()


def case_daemon_dies():
    """A daemon killed mid-session: the form closes and the screen says why."""
    d, v = attached()
    v.keys("i")
    v.type("abc")
    expect_text("dies: typing lands", d, "email", "abc", v)
    d.proc.kill()
    v.expect("dies: the form closes", lambda v: not any("Email:" in l for l in v.screen()))
    # formd attach's own reason follows, "…without a shutdown (killed, or crashed?)"; Vim
    # shortens the long line in its middle.
    v.expect("dies: the screen says the connection ended",
             lambda v: re.search(r"formd: the connection to \S+.*(d\d+\.sock ended|crashed\?\))", v.line(ROWS - 1)))
    v.close()


def case_private():
    v = Vim("Formd examples/login.json")
    v.expect("private: :Formd opens the form", lambda v: v.marked() == [0])
    v.keys("j")
    v.expect("private: j focuses the password", lambda v: v.marked() == [1])
    v.keys("BSpace")
    v.expect("private: Normal-mode Backspace on the empty password steps back", lambda v: v.marked() == [0])
    v.keys("i")
    v.type("ada.lovelace@engine.example.uk")
    v.keys("Enter")
    v.type(SECRET)
    v.expect("private: the password shows as bullets", lambda v: v.line(1) == "> Password: " + "•" * len(SECRET))
    # A key typed right after Return waits for its answer, which submits and closes the
    # form (from InsertCharPre, where the buffer may not change: closed once it is over).
    burst(v, "Enter", "x")
    # (74 columns: more than the ruler and showcmd leave a callback's message)
    v.expect("private: Return submits, the message shows the email whole",
             lambda v: "formd: submitted email=ada.lovelace@engine.example.uk (withheld: password)" in v.dump())
    check("private: the password is nowhere on screen", SECRET not in v.dump(), v.dump())
    v.ex("messages")
    v.expect("private: no error on the way", lambda v: "formd: submitted" in v.dump() and not re.search(r"E\d+:", v.dump()))
    v.close()


def case_paste():
    """A terminal's paste (bracketed) and p: a code fills the otp boxes; a pasted password
    lands in formd only (not the buffer, not the ". register)."""
    d, v = attached("examples/otp.json")
    v.keys("i")
    tmux("set-buffer", "-b", "formd-code", "123456")
    tmux("paste-buffer", "-p", "-b", "formd-code", "-t", v.name)
    texts = lambda: [f["text"] for f in d.fields().values()]
    ok = wait(lambda: texts() == list("123456"))
    check("paste: a code pasted in Insert mode fills the six boxes", ok, "%r\n%s" % (texts(), v.dump()))
    d.request("reset")
    v.keys("Escape")
    v.ex('let @a = "654321"')
    v.keys("g", "g", '"', "a", "P")
    ok = wait(lambda: texts() == list("654321"))
    check("paste: P of a code fills the six boxes", ok, "%r\n%s" % (texts(), v.dump()))
    v.close()
    d.stop()

    d, v = attached()
    v.keys("j", "i")
    v.expect("paste: the password has focus", lambda v: v.marked() == [1])
    tmux("set-buffer", "-b", "formd-secret", SECRET)
    tmux("paste-buffer", "-p", "-b", "formd-secret", "-t", v.name)
    expect_text("paste: a password pasted in Insert mode lands in formd", d, "password", SECRET, v)
    v.keys("Escape")
    out = os.path.join(v.dir, "probe")
    v.ex("call writefile(getline(1, '$') + [execute('registers')], '%s')" % out)
    ok = wait(lambda: v.file("probe"))
    probe = (v.file("probe") or b"").decode("utf-8", "replace")
    check("paste: the pasted password is in no register or line", ok and SECRET not in probe, probe)
    v.close()
    d.stop()


def set_text(d, v, text, field="email", row=0):
    """formd's text of `field` set by another client, drawn, and the cursor on its first
    character in Normal mode (Escape first: the previous step may have left Insert mode on)."""
    d.request("setText", {"field": field, "text": text})
    v.expect("%s drawn" % text, lambda v: v.line(row)[12:].startswith(text))
    v.keys("Escape", "0")
    wait(lambda: d.fields()[field]["selection"]["end"] == 0)


def press(v, keys):
    """Keys in order: "-text" typed at once, "~text" a character at a time at a person's
    pace, anything else a tmux key name (a run of them sent together, as typeahead)."""
    names = []
    for k in keys + ["-"]:
        if k[:1] in ("-", "~"):
            if names:
                v.keys(*names)
                names = []
            if k.startswith("-"):
                v.type(k[1:])
            else:
                for c in k[1:]:
                    v.type(c)
                    time.sleep(0.1)
        else:
            names.append(k)


def burst(v, *keys):
    """Keys sent in one go, as fast typeahead (send-keys writes them together)."""
    tmux("send-keys", "-t", v.name, *keys)
    time.sleep(0.05)


def case_repeat_typing():
    """. repeats an insert as a formd edit: the keys typed (text, deletes) at the place its
    command chose (i before the cursor, a after it, A at the end, I at the start, cw the
    word, R over the text), with its count or the count given to ."""
    d, v = attached()
    steps = [
        # (text, keys after 0, expected text)
        ("abc", ["l", "i", "-hi", "Escape", "0", "."], "hiahibc"),
        ("abc", ["A", "-!", "Escape", "0", "."], "abc!!"),
        ("abc", ["l", "a", "-X", "Escape", "0", "."], "aXbXc"),
        ("abc", ["$", "I", "-X", "Escape", "$", "."], "XXabc"),
        ("abc", ["i", "-hel", "BSpace", "-y", "Escape", "$", "."], "heyabhe" + "yc"),
        ("one two", ["c", "w", "-1", "Escape", "w", "."], "1 1"),
        ("abcdef", ["l", "s", "-X", "Escape", "l", "."], "aXXdef"),
        ("abcdef", ["3", "i", "-x", "Escape"], "xxxabcdef"),
        ("ab", ["3", "i", "-x", "Escape", "$", "."], "xxxaxxxb"),
        ("ab", ["3", "i", "-x", "Escape", "$", "2", "."], "xxxaxxb"),
        ("ab", ["2", "A", "-yz", "Escape"], "abyzyz"),
        ("abcdef", ["2", "R", "-xy", "Escape"], "xyxyef"),
        ("abcdef", ["R", "-xy", "Escape", "l", "."], "xyxyef"),
        ("abcdef", ["R", "-xy", "BSpace", "-z", "Escape", "l", "."], "xzxzef"),
        ("ab", ["l", "R", "-xyz", "BSpace", "BSpace", "BSpace", "Escape"], "ab"),
        ("abcdef", ["3", "i", "Delete", "-Q", "Escape"], "QQQdef"),
        ("abc", ["i", "-x", "Left", "-y", "Escape", "$", "."], "yxabyc"),
        ("abc", ["l", "i", "~hi", "Escape", "0", "."], "hiahibc"),
        ("one two", ["A", "C-w", "-2", "Escape", "."], "one 2"),
        ("one two", ["A", "C-u", "-x", "Escape"], "x"),
        ("abcd", ["v", "l", "d", "."], ""),
        ("abcd", ["v", "l", "c", "-X", "Escape", "l", "."], "XX"),
    ]
    for text, keys, want in steps:
        set_text(d, v, text)
        press(v, keys)
        expect_text("repeat typing: %s on %r" % (" ".join(keys), text), d, "email", want, v)
    # Typing into a masked field is not kept for . (nor repeated by a count).
    v.keys("Escape", "j")
    v.expect("repeat typing: the password has focus", lambda v: v.marked() == [1])
    v.keys("2", "i")
    v.type("pw")
    v.keys("Escape")
    expect_text("repeat typing: a count does not repeat a password", d, "password", "pw", v)
    v.expect("repeat typing: and says so", lambda v: "a count does not repeat typing into a secure field" in v.dump())
    v.keys(".")
    v.expect("repeat typing: . does not repeat it either, and says so",
             lambda v: "formd: . does not repeat typing into a secure field" in v.line(ROWS - 1))
    check("repeat typing: the password is unchanged", d.text("password") == "pw", d.fields()["password"])
    # Typed ahead across Tab: the keys after it are known to go to the password (the Tab's
    # answer is waited for), so the insert is not kept either.
    d.request("setText", {"field": "password", "text": ""})
    v.keys("Escape", "k")
    v.expect("repeat typing: back on the email", lambda v: v.marked() == [0])
    set_text(d, v, "")
    v.keys("i")
    burst(v, "-l", "ada")
    burst(v, "Tab", "s", "3", "c", "r", "3", "t")
    expect_text("repeat typing: typed ahead across Tab, the password lands", d, "password", "s3cr3t", v)
    v.keys("Escape", ".")
    v.expect("repeat typing: . does not repeat an insert that reached a password",
             lambda v: "formd: . does not repeat typing into a secure field" in v.line(ROWS - 1))
    check("repeat typing: nothing was typed again", d.text("password") == "s3cr3t" and d.text("email") == "ada",
          d.fields())
    v.close()
    d.stop()


def case_counts():
    """A count on every command the plugin maps, and on . after it."""
    d, v = attached()
    v.ex('let @a = "1"')
    steps = [
        ("abcdefghij", ["3", "x"], "defghij"),
        ("abcdefghij", ["3", "x", "."], "ghij"),
        ("abcdefghij", ["3", "x", "2", "."], "fghij"),
        ("abcdef", ["$", "3", "X"], "abf"),
        ("abcdef", ["$", "3", "BSpace"], "abf"),
        ("abcdef", ["2", "Delete"], "cdef"),
        ("abcdef", ["3", "r", "x"], "xxxdef"),
        ("abcdefgh", ["3", "r", "x", "l", "."], "xxxxxxgh"),
        ("abcdef", ["$", "h", "3", "r", "x"], "abcdef"),
        ("abc", ["3", '"', "a", "p"], "a111bc"),
        ("abc", ["3", '"', "a", "P", "$", "."], "111ab111c"),
        ("abcdef", ["3", "s", "-Z", "Escape"], "Zdef"),
        ("abcdef", ["2", "s", "-Z", "Escape", "l", "."], "ZZef"),
        ("one two three", ["d", "2", "w"], "three"),
        ("one two three", ["2", "d", "w"], "three"),
        ("one two three", ["2", "c", "w", "-X", "Escape"], "X three"),
        ("one two", ["d", "w", "$", "p"], "twoone "),
        ("one two", ["c", "w", "-1", "Escape", "$", "p"], "1 twoone"),
        ("abc", ["y", "y", "$", "p"], "abcabc"),
        ("abc", ["d", "d", "p"], "abc"),
        ("abc", ["3", "d", "d"], "abc"),
        ("abc", ["l", "2", "D"], "abc"),
        ("abc", ["2", "S"], "abc"),
    ]
    for text, keys, want in steps:
        set_text(d, v, text)
        press(v, keys)
        expect_text("counts: %s on %r" % (" ".join(keys), text), d, "email", want, v)
    v.expect("counts: a count over lines says an edit spans one field",
             lambda v: "an edit spans one field at a time" in v.line(ROWS - 1))
    check("counts: and Insert mode did not start", "-- INSERT --" not in v.dump(), v.dump())
    v.keys("o")
    v.expect("counts: o says a form's lines are its fields",
             lambda v: "formd: o: a form's lines are its fields" in v.line(ROWS - 1))
    # A revealed password shows its text, but what x, dd and yy take from it reaches no register.
    d.request("setText", {"field": "password", "text": SECRET})
    d.request("setRevealed", {"field": "password", "revealed": True})
    v.ex('let @" = "none"')
    v.keys("j")
    v.expect("registers: on the revealed password", lambda v: v.marked() == [1] and SECRET in v.line(1))
    v.keys("$", "x", "y", "y", "d", "d")
    expect_text("registers: x and dd delete from it", d, "password", "", v)
    v.ex("call writefile([getreg('\"')], '%s')" % os.path.join(v.dir, "reg"))
    ok = wait(lambda: v.file("reg"))
    check("registers: none of it reached the unnamed register", ok and v.file("reg") == b"none\n", v.file("reg"))
    v.close()
    d.stop()


def case_no_lost_keys():
    """Typing with no focused field focuses the field under the cursor first; typing on a
    field that cannot take focus is refused, saying so, and runs no command."""
    d, v = attached("examples/signup.json")
    # Return on the last field (lastOfChain: returnAction resign) leaves no focus; the keys
    # typed at once after it land in the field under the cursor.
    d.request("demandFocus", {"field": "password", "demand": "become"})
    v.expect("no lost keys: the password has focus", lambda v: v.marked() == [4])
    v.keys("A")
    burst(v, "-l", "pw")
    burst(v, "Enter", "x", "y")
    expect_text("no lost keys: keys typed after Return resigned land in the field", d, "password", "pwxy", v)
    # Another client takes focus away while Insert mode is on.
    v.keys("Escape", "k", "k")
    v.expect("no lost keys: email has focus", lambda v: v.marked() == [2])
    v.keys("A")
    d.request("demandFocus", {"field": "email", "demand": "resign"})
    v.expect("no lost keys: focus is gone", lambda v: v.marked() == [])
    v.type("ab")
    expect_text("no lost keys: typing without focus focuses the field under the cursor", d, "email", "ab", v)
    # A field that cannot take focus: i and typing at once are refused, nothing runs as a
    # command (p would paste into the focused field).
    v.keys("Escape")
    v.ex('let @" = "ZZ"')
    v.keys("j")
    v.expect("no lost keys: on the disabled Plan", lambda v: v.marked() == [2])
    burst(v, "i", "p", "w")
    v.expect("no lost keys: typing on a disabled field is refused, saying so",
             lambda v: "Plan is disabled: nothing typed there" in v.dump())
    v.keys("Escape")
    time.sleep(0.3)
    check("no lost keys: nothing was pasted or typed anywhere",
          d.text("email") == "ab" and d.text("plan") == "free", d.fields())
    v.close()
    d.stop()


CASES = [case_typing_undo_and_password, case_repeat_typing, case_counts, case_no_lost_keys, case_otp, case_paste, case_repeat, case_insert_entries, case_disabled_field, case_daemon_dies, case_private]


def main():
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    only = sys.argv[1:]
    try:
        # A session that outlives the cases: the server does not exit (and race a new
        # session) each time a case closes its Vim.
        tmux("new-session", "-d", "-s", "keep", "sleep 3600")
        for case in CASES:
            if only and not any(o in case.__name__ for o in only):
                continue
            try:
                case()
            except Exception as e:  # a broken case fails, the others still run
                check(case.__name__, False, repr(e))
    finally:
        cleanup()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
