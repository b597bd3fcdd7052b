#!/usr/bin/env python3
"""The Neovim plugin driven with real keys: Neovim runs inside tmux, attached with
`:FormdAttach` to a shared `formd --listen` daemon (one case uses `:Formd FILE` and its
private formd); keys go in with `send-keys`, the screen is read with `capture-pane`, and
what the daemon holds is asked over its socket, as another client (tests/query.py).

    FORMD_BIN=.build/debug/formd clients/nvim/tests/tmux.py [NAME...]   # NAME: only cases containing it

Python 3 standard library, tmux and nvim. Each case has its own daemon, Neovim and XDG
directories under one temporary directory; the tmux server (private socket) is killed at
the end. Prints `N passed, N failed` last; exits 1 on failure.
"""
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(PLUGIN))
FORMD = os.path.abspath(os.environ.get("FORMD_BIN") or os.path.join(ROOT, ".build/debug/formd"))
SOCKET = "formd-nvim-%d" % os.getpid()
WORK = tempfile.mkdtemp(prefix="formd-nvim-test.")
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", SHELL="/bin/sh")
ENV.pop("TMUX", None)
TIMEOUT = 8.0
SECRET = "QZJ9XKW7V"  # no character sequence of it appears in a label or the email

sys.path.insert(0, HERE)
import query  # noqa: E402

passed = 0
failed = 0
daemons = []


def cleanup():
    subprocess.run(["tmux", "-L", SOCKET, "kill-server"], env=ENV, capture_output=True)
    for d in daemons:
        if d.poll() is None:
            d.terminate()
            d.wait()
    shutil.rmtree(WORK, ignore_errors=True)


def on_signal(sig, _frame):
    cleanup()
    sys.exit(128 + sig)


def tmux(*args):
    r = subprocess.run(["tmux", "-u", "-f", "/dev/null", "-L", SOCKET, *args], env=ENV, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("tmux %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


def wait(what, pred, timeout=TIMEOUT):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = pred()
            if last:
                return last
        except (OSError, ValueError, KeyError, IndexError) as e:
            last = e
        time.sleep(0.05)
    raise AssertionError("timed out waiting for %s (last: %r)" % (what, last))


class Case:
    """A daemon on a form file and a Neovim attached to it in a tmux window."""

    def __init__(self, name, form, private=False):
        self.dir = tempfile.mkdtemp(dir=WORK, prefix=name + ".")
        os.chmod(self.dir, 0o700)
        self.sock = os.path.join(self.dir, "formd.sock")
        if private:
            command = "Formd " + os.path.join(ROOT, form)  # the plugin starts its own formd
        else:
            command = "FormdAttach " + self.sock
            self.daemon = subprocess.Popen([FORMD, "--listen", self.sock, "--form", os.path.join(ROOT, form)],
                                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=open(os.path.join(self.dir, "daemon.log"), "w"))
            daemons.append(self.daemon)
            wait("the daemon's socket", lambda: os.path.exists(self.sock))
        self.xdg = os.path.join(self.dir, "xdg")
        self.shada = os.path.join(self.xdg, "main.shada")
        self.swap = os.path.join(self.xdg, "swap")
        for d in ("config", "data", "state", "cache", "swap"):
            os.makedirs(os.path.join(self.xdg, d), exist_ok=True)
        env = {"FORMD_BIN": FORMD, "XDG_CONFIG_HOME": self.xdg + "/config", "XDG_DATA_HOME": self.xdg + "/data",
               "XDG_STATE_HOME": self.xdg + "/state", "XDG_CACHE_HOME": self.xdg + "/cache"}
        # A real ShaDa file and swap directory: the secrets test looks for the password in them.
        cmd = ("nvim -u NONE -i %s --cmd %s --cmd %s --cmd %s -c %s" % (
            shlex.quote(self.shada),
            shlex.quote("set rtp^=" + PLUGIN),
            shlex.quote("set directory=" + self.swap + "//"),
            shlex.quote("runtime plugin/formd.lua"),
            shlex.quote(command)))
        self.window = name
        tmux("new-window", "-d", "-n", name, "-t", SOCKET + "-s:", "env " + " ".join(
            "%s=%s" % (k, shlex.quote(v)) for k, v in env.items()) + " " + cmd)
        self.screens = []
        wait("the form on the screen", lambda: "formd://" in self.screen())

    def keys(self, *keys, literal=False):
        args = ["send-keys", "-t", SOCKET + "-s:" + self.window] + (["-l"] if literal else []) + list(keys)
        tmux(*args)
        if "Escape" in keys and not literal:
            # Until Neovim has read the Escape on its own, a key sent after it would make an
            # Alt chord with it.
            wait("Neovim to leave insert mode", lambda: "-- " not in self.lines()[-2])
        time.sleep(0.15)

    def type(self, text):
        self.keys(text, literal=True)

    def screen(self):
        s = tmux("capture-pane", "-p", "-t", SOCKET + "-s:" + self.window)
        self.screens.append(s)
        return s

    def cursor(self):
        x, y = tmux("display", "-p", "-t", SOCKET + "-s:" + self.window, "#{cursor_x},#{cursor_y}").split(",")
        return int(x), int(y)

    def lines(self):
        return self.screen().split("\n")

    def state(self, secrets=False):
        return query.ask(self.sock, "getState", {"includeSecrets": True} if secrets else {})

    def texts(self, secrets=False):
        return [f.get("text") for f in self.state(secrets)["fields"]]

    def wait_texts(self, want, secrets=False):
        try:
            return wait("the daemon to hold %r" % (want,), lambda: self.texts(secrets) == want)
        except AssertionError:
            raise AssertionError("the daemon holds %r, not %r\nscreen:\n%s" % (
                self.texts(secrets), want, self.screen()))

    def wait_screen(self, text):
        try:
            return wait("%r on the screen" % text, lambda: text in self.screen())
        except AssertionError:
            raise AssertionError("%r is not on the screen:\n%s" % (text, self.screen()))

    def wait_line(self, text):
        """A line of the form that is exactly `text` (after the sign column, before any virtual text)."""
        def seen():
            return any(l[2:].rstrip() == text or l[2:].startswith(text + "  ") for l in self.lines())
        try:
            return wait("the line %r" % text, seen)
        except AssertionError:
            raise AssertionError("no line %r on the screen:\n%s" % (text, self.screen()))

    def quit(self):
        self.keys("Escape")
        self.type(":wshada")
        self.keys("Enter")
        self.type(":qa!")
        self.keys("Enter")
        wait("Neovim to quit", lambda: self.window not in tmux("list-windows", "-t", SOCKET + "-s", "-F",
                                                                 "#{window_name}"))


cases = []


def case(fn):
    cases.append(fn)
    return fn


@case
def i_and_typing_land_in_the_focused_field():
    c = Case("typing", "examples/login.json")
    c.wait_screen("> Email:")
    c.keys("i")
    c.type("ada@example.com")
    c.wait_texts(["ada@example.com", None])
    c.wait_screen("Email:    ada@example.com")
    sel = c.state()["fields"][0]["selection"]
    assert sel == {"start": 15, "end": 15}, sel
    c.quit()


@case
def formd_login_then_i_typing_return_submits_with_the_values_shown():
    c = Case("private", "examples/login.json", private=True)
    c.wait_screen("> Email:")
    c.keys("i")
    c.type("ada@example.com")
    c.keys("Enter")
    c.wait_screen("> Password:")
    c.type(SECRET)
    c.wait_line("Password: " + "•" * len(SECRET))
    c.keys("Enter")
    c.wait_screen("formd: submitted email=ada@example.com (withheld: password)")
    c.quit()


@case
def u_undoes_the_typing_run():
    c = Case("undo", "examples/login.json")
    c.wait_screen("> Email:")
    c.keys("i")
    c.type("ada")
    c.keys("Escape")
    c.keys("A")
    c.type("@example.com")
    c.keys("Escape")
    c.wait_texts(["ada@example.com", None])
    c.keys("u")
    c.wait_texts(["ada", None])
    c.wait_line("Email:    ada")
    c.keys("C-r")
    c.wait_texts(["ada@example.com", None])
    c.quit()


@case
def backspace_in_the_middle_of_a_password_removes_the_character_before_the_caret():
    c = Case("password", "examples/login.json")
    c.wait_screen("> Email:")
    c.keys("Tab")
    c.wait_screen("> Password:")
    c.keys("i")
    c.type(SECRET)
    c.wait_texts(["", SECRET], secrets=True)
    c.keys("Left", "Left", "Left")
    c.keys("BSpace")
    want = SECRET[:5] + SECRET[6:]
    c.wait_texts(["", want], secrets=True)
    c.wait_line("Password: " + "•" * len(want))
    sel = c.state()["fields"][1]["selection"]
    assert sel == {"start": 5, "end": 5}, sel  # this client counts characters
    # The cursor is drawn at formd's caret: after the sign column, the label and 5 bullets.
    wait("the cursor at the caret", lambda: c.cursor() == (2 + len("Password: ") + 5, 1))
    c.quit()


@case
def typing_123456_fills_the_six_otp_boxes():
    c = Case("otp", "examples/otp.json")
    c.wait_screen("> Digit 1:")
    c.keys("i")
    c.type("123456")
    c.wait_texts(["1", "2", "3", "4", "5", "6"])
    for n in range(1, 7):
        c.wait_screen("Digit %d: %d" % (n, n))
    c.quit()


@case
def another_clients_settext_appears_in_the_buffer():
    c = Case("other", "examples/login.json")
    c.wait_screen("> Email:")
    query.ask(c.sock, "setText", {"field": "email", "text": "grace@example.org"})
    c.wait_screen("Email:    grace@example.org")
    query.ask(c.sock, "setText", {"field": "password", "text": SECRET})
    c.wait_screen("Password: " + "•" * len(SECRET))
    c.quit()
    assert c.daemon.poll() is None, "the daemon stopped when Neovim quit"
    c.wait_texts(["grace@example.org", None])


@case
def a_typed_password_reaches_no_screen_shada_swap_or_log():
    c = Case("secrets", "examples/login.json")
    c.wait_screen("> Email:")
    c.keys("Tab")
    c.wait_screen("> Password:")
    c.keys("i")
    c.type(SECRET)
    c.keys("Escape")
    c.keys("x")  # a normal-mode delete: no register gets it
    c.keys("A")
    c.type("!")
    c.wait_texts(["", SECRET[:-1] + "!"], secrets=True)
    c.quit()
    found = [s for s in c.screens if SECRET[:4] in s]
    assert not found, "the password was on the screen:\n" + found[0]
    assert os.path.exists(c.shada), "no ShaDa file was written"
    for base, _dirs, files in os.walk(c.xdg):
        for name in files:
            with open(os.path.join(base, name), "rb") as f:
                data = f.read()
            for piece in (SECRET[:4], SECRET[4:]):
                assert piece.encode() not in data, "%r found in %s" % (piece, os.path.join(base, name))
    assert not os.listdir(c.swap), "swap files: %r" % os.listdir(c.swap)


def main():
    global passed, failed
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    only = sys.argv[1:]
    try:
        tmux("new-session", "-d", "-s", SOCKET + "-s", "-x", "100", "-y", "20", "sleep 100000")
        for fn in cases:
            if only and not any(o in fn.__name__ for o in only):
                continue
            name = fn.__name__.replace("_", " ")
            try:
                fn()
                passed += 1
                print("ok     %s" % name)
            except Exception as e:  # noqa: BLE001 - every failure is reported and counted
                failed += 1
                print("FAILED %s\n       %s" % (name, str(e).replace("\n", "\n       ")))
            sys.stdout.flush()
    finally:
        cleanup()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
