#!/usr/bin/env python3
"""Drives the login form through its chain and prints what a front end would render.

    FORMD_BIN=.build/debug/formd python3 clients/python/example.py [FORM.json]

Focus email, type, Return (moves to password), a password typed and backspaced away,
Backspace on the empty password (steps back to email), Return again, a good password,
Return (submits).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from formd_client import Event, FormdClient, FormdError  # noqa: E402

FORM = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "examples" / "login.json"


def show(event: Event) -> None:
    p = event.params
    if event.name == "focusChanged":
        print(f"  focus: {p['from']} -> {p['to']}")
    elif event.name == "textChanged":
        print(f"  {p['field']}: {p['display']!r} ({p['length']} characters)")
    elif event.name == "validityChanged":
        print(f"  {p['field']}: {'valid' if p['valid'] else 'invalid: ' + ' '.join(e['message'] for e in p['errors'])}")
    elif event.name == "submitted":
        print(f"  submitted {p['values']} (withheld: {', '.join(p['withheld']) or 'none'})")
    elif event.name == "submitFailed":
        for f in p["errors"]:
            print(f"  submit failed: {f['field']}: {' '.join(e['message'] for e in f['errors'])}")
    elif event.name == "error":
        print(f"  error {p['code']}: {p['message']}")


def main() -> int:
    with FormdClient(form=FORM) as formd:
        formd.on("*", show)
        print("formd", formd.initialize("example.py")["serverInfo"]["version"])

        print("demandFocus email ->", formd.demand_focus("email")["outcome"])
        print("setText email ->", formd.set_text("email", "ada@example.com"))
        print("pressReturn ->", formd.press_return()["action"])
        print("setText password ->", formd.set_text("password", "hunter2"))
        print("pressReturn ->", formd.press_return()["action"])  # too short: submitFailed
        for _ in range(8):  # Backspace until it is empty, then once more: steps back
            result = formd.delete()
        print("delete on empty password ->", result, "first responder:", formd.first_responder())
        print("pressReturn ->", formd.press_return()["action"])
        print("setText password ->", formd.set_text("password", "correct horse"))
        print("pressReturn ->", formd.press_return()["action"])

        try:
            formd.set_text("username", "ada")
        except FormdError as error:
            print(f"setText username -> {type(error).__name__} {error.code}: {error.message}")
    print("formd exited with status", formd.returncode)
    return 0 if formd.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
