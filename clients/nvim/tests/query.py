#!/usr/bin/env python3
"""Asks a `formd --listen` daemon one request over its socket and prints the result as JSON.

usage: query.py SOCKET METHOD [PARAMS_JSON]
The tmux tests use it to read what the daemon holds and to act as another client. Events
sent before the response are skipped; an error response exits 1 with the error on stderr.
"""
import json
import socket
import sys


def main():
    path, method = sys.argv[1], sys.argv[2]
    params = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode() + b"\n")
    f = s.makefile("rb")
    for line in f:
        msg = json.loads(line)
        if msg.get("id") == 1:
            if "error" in msg:
                print(json.dumps(msg["error"]), file=sys.stderr)
                sys.exit(1)
            print(json.dumps(msg["result"], ensure_ascii=False))
            return
    sys.exit("formd closed the connection without answering")


if __name__ == "__main__":
    main()
