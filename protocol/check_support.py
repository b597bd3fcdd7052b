"""What protocol/check_*.py share: the jsonschema package, and the formd binary they hold the documents against.

Importing it exits with a pip hint when jsonschema is missing. The binary is the first
command-line argument, else $FORMD_BIN (as scripts/test sets it), else $FORMD, else
.build/debug/formd at the repository root.
"""
import json
import os
import pathlib
import subprocess
import sys

try:
    import jsonschema  # noqa: F401  (the checks import from it; missing, they cannot run)
    import referencing  # noqa: F401
except ImportError:  # pragma: no cover
    sys.exit(f"{pathlib.Path(sys.argv[0]).name} needs the jsonschema package: pip install jsonschema")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def formd_binary(argv: list[str]) -> pathlib.Path:
    """The binary to ask; exits saying how to build it when there is none."""
    named = argv[1] if len(argv) > 1 else os.environ.get("FORMD_BIN") or os.environ.get("FORMD")
    binary = pathlib.Path(named) if named else ROOT / ".build/debug/formd"
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"no formd binary at {binary}: run `swift build` first or set FORMD_BIN")
    return binary


def initialize_result(binary: pathlib.Path) -> dict:
    """What the binary's `initialize` answers: protocolVersion and its method and event registries."""
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize"}) + "\n"
    out = subprocess.run([str(binary)], input=request, capture_output=True, text=True, timeout=30, cwd=ROOT).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("id") == 1 and "result" in msg:
            return msg["result"]
    raise SystemExit(f"{binary} did not answer initialize: {out!r}")
