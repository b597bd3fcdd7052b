#!/usr/bin/env python3
"""Checks protocol/schemas against the implementation's lists and the transcripts.

    pip install jsonschema        # Python 3.11+
    python3 protocol/check_schemas.py [FORMD]    # FORMD: $FORMD_BIN, $FORMD or .build/debug/formd

What it checks:
  1. every file under protocol/schemas is itself a valid draft 2020-12 schema;
  2. every method formd lists in `initialize`'s capabilities (from its MethodRegistry)
     has params/<m>.json and results/<m>.json, every event it lists (EventName) has
     events/<e>.json, and no schema file names a method or event formd does not have.
     The lists come from the binary itself;
  3. in every protocol/transcripts/*.jsonl:
     - each `> ` line (a request, notification or batch) against defs/request.json and
       its params against params/<method>.json, except lines right after a
       `# bad-input` comment, which are deliberately invalid;
     - each `< ` line: a notification against defs/notification.json and its params
       against events/<method>.json; a success response against defs/response.json and
       its result against results/<method>.json of the request with that id; an error
       response against defs/error.json; batches element by element;
     - what a schema cannot say: every selection and edit range has start <= end, and
       each textChanged matches the textSync in force (the last initialize result of
       the transcript, "full" before any): with "full" it carries display, with
       "incremental" neither text nor display; and a masked field's textChanged (under
       "full": the one without text) replaces the whole display: edit.start 0, edit.end
       a whole number of bullets in the position encoding in force (3 units in utf-8,
       1 otherwise), edit.text and display one U+2022 per character (length).

Prints one line per failure, then `N passed, M failed`; exits 1 if anything failed.
"""
from __future__ import annotations

import json
import pathlib
import re
import sys

from check_support import ROOT, formd_binary, initialize_result
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

HERE = pathlib.Path(__file__).resolve().parent
SCHEMAS = HERE / "schemas"
TRANSCRIPTS = HERE / "transcripts"


class Checker:
    def __init__(self, binary: pathlib.Path) -> None:
        self.binary = binary
        self.passed = 0
        self.failed = 0
        self.schemas: dict[str, dict] = {}
        self.registry = Registry()
        self.validators: dict[str, Draft202012Validator] = {}
        self.bad_lines = 0      # `# bad-input` lines that are JSON
        self.bad_rejected = 0   # ... of which the schemas alone reject
        self.text_sync = "full"  # per transcript: what textChanged carries
        self.encoding = "character"  # per transcript: how positions count

    def ok(self) -> None:
        self.passed += 1

    def fail(self, where: str, message: str) -> None:
        self.failed += 1
        print(f"FAIL {where}: {message}")

    # -- schemas ---------------------------------------------------------------

    def load_schemas(self) -> None:
        resources = []
        for path in sorted(SCHEMAS.rglob("*.json")):
            rel = path.relative_to(SCHEMAS).as_posix()
            try:
                schema = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as e:
                self.fail(f"schemas/{rel}", f"not JSON: {e}")
                continue
            try:
                Draft202012Validator.check_schema(schema)
            except Exception as e:  # jsonschema.SchemaError
                self.fail(f"schemas/{rel}", f"not a valid draft 2020-12 schema: {e.message}")
                continue
            if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
                self.fail(f"schemas/{rel}", "$schema must be draft 2020-12")
                continue
            self.ok()
            self.schemas[rel] = schema
            resources.append((path.as_uri(), Resource.from_contents(schema, default_specification=DRAFT202012)))
        self.registry = Registry().with_resources(resources)
        # Every $ref must resolve, relative to the file it is in.
        for rel in self.schemas:
            resolver = self.registry.resolver(base_uri=(SCHEMAS / rel).as_uri())
            for ref in sorted(self._refs(self.schemas[rel])):
                try:
                    resolver.lookup(ref)
                    self.ok()
                except Exception as e:
                    self.fail(f"schemas/{rel}", f"$ref {ref!r} does not resolve: {e}")

    def _refs(self, node) -> set[str]:
        found = set()
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "$ref" and isinstance(v, str):
                    found.add(v)
                else:
                    found |= self._refs(v)
        elif isinstance(node, list):
            for v in node:
                found |= self._refs(v)
        return found

    def validator(self, rel: str) -> Draft202012Validator:
        if rel not in self.validators:
            uri = (SCHEMAS / rel).as_uri()
            self.validators[rel] = Draft202012Validator({"$ref": uri}, registry=self.registry)
        return self.validators[rel]

    def validate(self, rel: str, instance, where: str) -> bool:
        if rel not in self.schemas:
            self.fail(where, f"no schema {rel}")
            return False
        errors = sorted(self.validator(rel).iter_errors(instance), key=lambda e: list(e.absolute_path))
        if errors:
            for e in errors[:3]:
                path = "/".join(str(p) for p in e.absolute_path) or "(top)"
                self.fail(where, f"{rel}: at {path}: {e.message}")
            return False
        self.ok()
        return True

    # -- coverage ----------------------------------------------------------------

    def check_coverage(self) -> None:
        caps = initialize_result(self.binary)["capabilities"]
        methods, events = caps["methods"], caps["events"]
        for kind, names in (("params", methods), ("results", methods), ("events", events)):
            have = {p.split("/", 1)[1][:-5] for p in self.schemas if p.startswith(kind + "/")}
            for n in names:
                if n in have:
                    self.ok()
                else:
                    self.fail(f"schemas/{kind}", f"no schema for {n!r} ({kind}/{n}.json)")
            for extra in sorted(have - set(names)):
                self.fail(f"schemas/{kind}/{extra}.json", "names no method or event of the implementation")

    # -- transcripts ---------------------------------------------------------------

    @staticmethod
    def id_key(value) -> str:
        return json.dumps(value, sort_keys=True)

    def check_transcript(self, path: pathlib.Path) -> None:
        name = path.name
        pending: dict[str, list[str]] = {}  # id key -> methods of requests awaiting a response
        self.text_sync = "full"  # what textChanged carries; set by initialize results
        self.encoding = "character"  # how positions count; set by initialize results
        bad_next = False
        lines = path.read_text(encoding="utf-8").split("\n")
        for number, line in enumerate(lines, 1):
            where = f"{name}:{number}"
            # A transcript of several clients marks each line with its client: `2> `, `2< `.
            line = re.sub(r"^[0-9]+(?=[<>])", "", line)
            if line.startswith("# args:"):
                self.check_args(line[len("# args:"):].split(), where)
                continue
            if line == "# bad-input":
                bad_next = True
                continue
            if line.startswith("> ") or line == ">":
                self.check_input(line[2:], where, bad_next, pending)
                bad_next = False
            elif line.startswith("< "):
                self.check_output(line[2:], where, pending)
            elif line.startswith("#") or line == "":
                continue
            else:
                self.fail(where, "a transcript line must start with '# ', '> ' or '< '")

    def check_args(self, args: list[str], where: str) -> None:
        """A form file named by --form must match defs/form-file.json."""
        for flag, value in zip(args, args[1:]):
            if flag != "--form":
                continue
            try:
                form = json.loads((ROOT / value).read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as e:
                self.fail(where, f"cannot read form file {value}: {e}")
                continue
            self.validate("defs/form-file.json", form, f"{where} (form file {value})")

    def check_input(self, text: str, where: str, bad: bool, pending: dict[str, list[str]]) -> None:
        if text.strip() == "":
            return  # an empty line: skipped by the daemon
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            if not bad:
                self.fail(where, f"input is not JSON ({e}); mark deliberate bad input with '# bad-input'")
            return
        items = value if isinstance(value, list) else [value]
        if bad:
            self.bad_lines += 1
            if not self.conforms(value):
                self.bad_rejected += 1
        else:
            self.validate("defs/batch.json" if isinstance(value, list) else "defs/request.json", value, where)
        for item in items:
            if not isinstance(item, dict):
                continue
            method = item.get("method")
            if not bad and isinstance(method, str):
                rel = f"params/{method}.json"
                self.validate(rel, item.get("params", {}), f"{where} ({method} params)")
            if "id" in item and isinstance(method, str):
                pending.setdefault(self.id_key(item["id"]), []).append(method)

    def conforms(self, value) -> bool:
        """True when a (bad-input) line passes every input schema; for the summary only."""
        items = value if isinstance(value, list) else [value]
        envelope = "defs/batch.json" if isinstance(value, list) else "defs/request.json"
        if not self.validator(envelope).is_valid(value):
            return False
        for item in items:
            rel = f"params/{item['method']}.json"
            if rel not in self.schemas or not self.validator(rel).is_valid(item.get("params", {})):
                return False
        return True

    def check_output(self, text: str, where: str, pending: dict[str, list[str]]) -> None:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            self.fail(where, f"output is not JSON: {e}")
            return
        if isinstance(value, list):
            if not value:
                self.fail(where, "an empty array is never output")
            for i, item in enumerate(value):
                self.check_message(item, f"{where}[{i}]", pending, in_batch=True)
        else:
            self.check_message(value, where, pending, in_batch=False)

    def check_message(self, msg, where: str, pending: dict[str, list[str]], in_batch: bool) -> None:
        if not isinstance(msg, dict):
            self.fail(where, "an output message must be a JSON object")
            return
        if "method" in msg:
            if in_batch:
                self.fail(where, "notifications are never inside a batch response")
            if self.validate("defs/notification.json", msg, where):
                if self.validate(f"events/{msg['method']}.json", msg["params"], f"{where} ({msg['method']} event)"):
                    self.check_event_semantics(msg["method"], msg["params"], where)
            return
        key = self.id_key(msg.get("id"))
        if "error" in msg:
            if key in pending and msg.get("id") is not None:
                pending[key].pop(0)
                if not pending[key]:
                    del pending[key]
            self.validate("defs/error.json", msg, where)
            return
        if not self.validate("defs/response.json", msg, where):
            return
        methods = pending.get(key)
        if not methods:
            self.fail(where, f"result for id {msg['id']!r}, but no request with that id is waiting")
            return
        method = methods.pop(0)
        if not methods:
            del pending[key]
        if self.validate(f"results/{method}.json", msg["result"], f"{where} ({method} result)"):
            self.check_ranges(msg["result"], f"{where} ({method} result)")
            if method == "initialize":
                self.text_sync = msg["result"]["textSync"]
                self.encoding = msg["result"]["positionEncoding"]

    def check_event_semantics(self, event: str, params: dict, where: str) -> None:
        """What the event schemas cannot express: ordered ranges, textSync, and the
        whole-display edit of a masked field."""
        self.check_ranges(params, f"{where} ({event} event)")
        if event != "textChanged":
            return
        has = [k for k in ("text", "display") if k in params]
        if self.text_sync == "full" and "display" not in params:
            self.fail(where, "textChanged under textSync full must carry display")
        elif self.text_sync == "incremental" and has:
            self.fail(where, f"textChanged under textSync incremental must not carry {', '.join(has)}")
        else:
            self.ok()
        if self.text_sync == "full" and "text" not in params:
            self.check_masked_edit(params, where)

    def check_masked_edit(self, params: dict, where: str) -> None:
        """A masked field's edit replaces the whole display, so that no range is computed
        from the hidden characters."""
        edit, bullets = params["edit"], "\u2022" * params["length"]
        width = 3 if self.encoding == "utf-8" else 1
        problems = []
        if edit["start"] != 0:
            problems.append(f"edit.start is {edit['start']}, not 0")
        if edit["end"] % width:
            problems.append(f"edit.end {edit['end']} is not a whole number of bullets of {width} units")
        if edit["text"] != bullets:
            problems.append(f"edit.text is not {params['length']} bullets")
        if params.get("display") != bullets:
            problems.append(f"display is not {params['length']} bullets")
        if problems:
            self.fail(where, "masked textChanged must replace the whole display: " + "; ".join(problems))
        else:
            self.ok()

    def check_ranges(self, node, where: str) -> None:
        """Every `selection` and `edit` object has start <= end."""
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("selection", "edit") and isinstance(v, dict) and {"start", "end"} <= v.keys():
                    if v["start"] <= v["end"]:
                        self.ok()
                    else:
                        self.fail(where, f"{k} has start {v['start']} > end {v['end']}")
                else:
                    self.check_ranges(v, where)
        elif isinstance(node, list):
            for v in node:
                self.check_ranges(v, where)

    def run(self) -> int:
        self.load_schemas()
        self.check_coverage()
        transcripts = sorted(TRANSCRIPTS.glob("*.jsonl"))
        if not transcripts:
            self.fail("transcripts", "no transcripts found")
        for t in transcripts:
            self.check_transcript(t)
        print(f"note: {self.bad_rejected} of {self.bad_lines} bad-input lines that are JSON are rejected by the "
              "schemas alone; the others are semantic (unknown field or form, duplicate id, bounds, presets, pattern), "
              "limits, or JSON that Python's parser tolerates (duplicate keys, lone surrogates, 1e2)")
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


if __name__ == "__main__":
    sys.exit(Checker(formd_binary(sys.argv)).run())
