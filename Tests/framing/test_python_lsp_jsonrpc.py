#!/usr/bin/env python3
"""python-lsp-jsonrpc's own stream reader and writer (the LSP base protocol) driving the real
formd: over stdio, and over a --listen socket with an NDJSON client on the same daemon that
sees the same events as lines.

Run by Tests/framing/run (FORMD_BIN: the binary to test)."""
import json
import os
import queue
import socket
import subprocess
import tempfile
import threading
import time
import unittest

from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

FORMD = os.environ.get("FORMD_BIN") or os.path.join(os.path.dirname(__file__), "../../.build/debug/formd")
LOGIN = {"fields": [{"id": "user", "label": "User", "required": True},
                    {"id": "password", "label": "Password", "secure": True}]}
TEXT = "héllo wörld 👍🏽"  # 13 characters, 22 bytes in UTF-8


class LspClient:
    """A JSON-RPC client as an LSP tool builds it: the library's writer, and its reader on a
    thread handing every message to a consumer."""

    def __init__(self, rfile, wfile):
        self.writer = JsonRpcStreamWriter(wfile)
        self.reader = JsonRpcStreamReader(rfile)
        self.responses = {}
        self.notifications = queue.Queue()
        self.arrived = threading.Condition()
        self.next_id = 1
        self.thread = threading.Thread(target=self.reader.listen, args=(self.consume,), daemon=True)
        self.thread.start()

    def consume(self, message):
        if "id" in message and "method" not in message:
            with self.arrived:
                self.responses[message["id"]] = message
                self.arrived.notify_all()
        else:
            self.notifications.put(message)

    def request(self, method, params=None, timeout=10):
        rid = self.next_id
        self.next_id += 1
        self.writer.write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})
        with self.arrived:
            if not self.arrived.wait_for(lambda: rid in self.responses, timeout):
                raise AssertionError(f"no response to {method} within {timeout}s")
            return self.responses.pop(rid)

    def notify(self, method, params=None):
        self.writer.write({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def events(self, until_seq, timeout=10):
        """Notifications up to the form event with `until_seq`."""
        got, deadline = [], time.monotonic() + timeout
        while not got or got[-1].get("params", {}).get("seq", -1) < until_seq:
            got.append(self.notifications.get(timeout=max(0.01, deadline - time.monotonic())))
        return got


class LineClient:
    """An NDJSON client on a raw socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.rfile = self.sock.makefile("rb")
        self.lines = []

    def request(self, rid, method, params=None):
        self.sock.sendall(json.dumps({"id": rid, "method": method, "params": params or {}}).encode() + b"\n")
        while True:
            line = self.rfile.readline()
            message = json.loads(line)
            if message.get("id") == rid:
                return message
            self.lines.append(message)

    def events(self, until_seq):
        while not self.lines or self.lines[-1].get("params", {}).get("seq", -1) < until_seq:
            self.lines.append(json.loads(self.rfile.readline()))
        return self.lines


def drive_login(test, client):
    """The login form through `client`: requests and results, events, an error, multi-byte text."""
    init = client.request("initialize", {"clientInfo": {"name": "python-lsp-jsonrpc"}})
    test.assertEqual(init["result"]["framing"], "contentLength")
    test.assertEqual(init["result"]["serverInfo"]["name"], "formd")
    test.assertEqual(client.request("defineForm", LOGIN)["result"], {})
    test.assertEqual(client.request("demandFocus", {"field": "user", "demand": "become"})["result"], {"outcome": "fulfilled"})
    result = client.request("insertText", {"text": TEXT})
    test.assertEqual(result["result"], {"applied": True})
    seq = client.request("getState")["result"]["seq"]
    events = client.events(seq)
    methods = [e["method"] for e in events]
    test.assertIn("formDefined", methods)
    test.assertIn("responderChanged", methods)
    changed = [e for e in events if e["method"] == "textChanged"][-1]["params"]
    test.assertEqual(changed["text"], TEXT)
    test.assertEqual(changed["length"], 13)
    # An error with its code: a field that does not exist.
    error = client.request("setText", {"field": "nobody", "text": "x"})
    test.assertEqual(error["error"]["code"], -32001)
    # A failed notification comes back as an error notification.
    client.notify("setText", {"field": "nobody", "text": "x"})
    notice = client.notifications.get(timeout=10)
    test.assertEqual((notice["method"], notice["params"]["code"]), ("error", -32001))
    # Positions in UTF-8 bytes once asked for: the caret after the text is at 22.
    test.assertEqual(client.request("initialize", {"positionEncoding": "utf-8"})["result"]["positionEncoding"], "utf-8")
    state = client.request("getState")["result"]
    user = next(f for f in state["fields"] if f["id"] == "user")
    test.assertEqual((user["text"], user["selection"]), (TEXT, {"start": 22, "end": 22}))
    return events


class PythonLspJsonRpcTests(unittest.TestCase):
    def test_stdio(self):
        proc = subprocess.Popen([FORMD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            client = LspClient(proc.stdout, proc.stdin)
            drive_login(self, client)
            self.assertEqual(client.request("shutdown")["result"], {})
            self.assertEqual(proc.wait(timeout=10), 0)
            self.assertEqual(proc.stderr.read(), b"")
        finally:
            if proc.poll() is None:
                proc.kill()

    def test_listen_beside_an_ndjson_client(self):
        with tempfile.TemporaryDirectory(prefix="formd-framing-") as tmp:
            path = os.path.join(tmp, "s")
            daemon = subprocess.Popen([FORMD, "--listen", path], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                deadline = time.monotonic() + 10
                while not os.path.exists(path) and time.monotonic() < deadline:
                    time.sleep(0.01)
                lines = LineClient(path)
                self.assertEqual(lines.request(1, "initialize")["result"]["framing"], "ndjson")
                self.assertEqual(lines.request(2, "getState")["result"]["seq"], 0)  # attaches to the form
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(path)
                client = LspClient(sock.makefile("rb"), sock.makefile("wb"))
                events = drive_login(self, client)
                seq = events[-1]["params"]["seq"]
                seen = lines.events(seq)
                key = lambda e: (e["method"], e["params"]["seq"])
                self.assertEqual([key(e) for e in seen], [key(e) for e in events if "seq" in e.get("params", {})])
                self.assertEqual([e for e in seen if e["method"] == "textChanged"][-1]["params"]["text"], TEXT)
                self.assertEqual(client.request("shutdown")["result"], {})
                self.assertEqual(daemon.wait(timeout=10), 0)
            finally:
                if daemon.poll() is None:
                    daemon.kill()


if __name__ == "__main__":
    unittest.main(verbosity=2)
