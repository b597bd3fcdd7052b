#!/usr/bin/env python3
"""One request to a `formd --listen` daemon over its socket, as another client would send it.

    query.py SOCKET METHOD [PARAMS_JSON]     # prints the result as JSON; an error exits 1

The tests use it (and its ask()) to read what the daemon holds and to edit the form from
outside Neovim. It speaks NDJSON, so it also shows that a client of the other framing sees
what the plugin did. Events written before the response are skipped.
"""
import json
import socket
import sys


class FormdError(Exception):
    """An error response: {code, message}."""


def ask(path, method, params=None):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(path)
        request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
        s.sendall(json.dumps(request).encode() + b"\n")
        for line in s.makefile("rb"):
            msg = json.loads(line)
            if msg.get("id") == 1:
                if "error" in msg:
                    raise FormdError(json.dumps(msg["error"]))
                return msg["result"]
    raise FormdError("formd closed the connection without answering")


def main():
    params = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    try:
        print(json.dumps(ask(sys.argv[1], sys.argv[2], params), ensure_ascii=False))
    except FormdError as e:
        sys.exit(str(e))


if __name__ == "__main__":
    main()
