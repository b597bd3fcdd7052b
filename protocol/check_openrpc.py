#!/usr/bin/env python3
"""Checks protocol/openrpc.json against the OpenRPC meta-schema, the JSON Schemas and the binary.

    pip install jsonschema        # Python 3.11+
    python3 protocol/check_openrpc.py [FORMD]    # FORMD: $FORMD_BIN, $FORMD or .build/debug/formd

What it checks:
  1. openrpc.json is valid against the OpenRPC meta-schema shipped in openrpc/meta-schema.json
     (open-rpc/meta-schema's schema.json, its generated version list filled in), and so are
     its x-notifications (each a method object without a result);
  2. its methods are exactly, in order, the `capabilities.methods` that the binary's
     `initialize` answers, its x-notifications exactly `capabilities.events`, and its
     info.version the `protocolVersion`;
  3. every $ref resolves (to this document, or to a file under schemas/ and a place in it);
  4. each method's params are the properties of schemas/params/<method>.json, with the same
     `required`, and its result is schemas/results/<method>.json; each notification's params
     are the properties of schemas/events/<event>.json.

Prints one line per failure, then `N passed, M failed`; exits 1 if anything failed.
"""
from __future__ import annotations

import json
import pathlib
import sys

from check_support import formd_binary, initialize_result
from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

HERE = pathlib.Path(__file__).resolve().parent
DOCUMENT = HERE / "openrpc.json"
META_SCHEMA = HERE / "openrpc/meta-schema.json"
DRAFT7_URI = "https://json-schema.org/draft-07/schema#"


class Checker:
    def __init__(self, binary: pathlib.Path) -> None:
        self.binary = binary
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, where: str, message: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {where}: {message}")

    def validate_meta(self, doc: dict) -> None:
        meta = json.loads(META_SCHEMA.read_text(encoding="utf-8"))
        # The meta-schema names draft-07 by its https address; the copy jsonschema ships
        # stands in for it, so nothing is fetched.
        draft7 = Resource.from_contents(Draft7Validator.META_SCHEMA, default_specification=DRAFT7)
        registry = Registry().with_resources([(DRAFT7_URI, draft7), (DRAFT7_URI.rstrip("#"), draft7)])
        validator = Draft7Validator(meta, registry=registry)
        errors = list(validator.iter_errors(doc))
        for e in errors[:5]:
            path = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"  meta-schema: openrpc.json at {path}: {e.message}")
        self.check(not errors, "openrpc.json", f"{len(errors)} meta-schema errors")
        method_object = dict(meta["definitions"]["methodObject"])
        method_object["required"] = ["name", "params"]
        method_object["definitions"] = meta["definitions"]
        notification = Draft7Validator(method_object, registry=registry)
        for n in doc.get("x-notifications", []):
            errs = list(notification.iter_errors(n))
            self.check(not errs, f"x-notifications/{n.get('name')}", errs[0].message if errs else "")

    def resolve(self, ref: str, where: str) -> object:
        target, _, pointer = ref.partition("#")
        if target:
            path = HERE / target
            if not path.is_file():
                self.check(False, where, f"$ref {ref!r}: no file {target}")
                return None
            node = json.loads(path.read_text(encoding="utf-8"))
        else:
            node = json.loads(DOCUMENT.read_text(encoding="utf-8"))
        for part in [p for p in pointer.split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                self.check(False, where, f"$ref {ref!r}: nothing at {pointer}")
                return None
            node = node[part]
        self.check(True, where, "")
        return node

    def refs(self, node, where: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "$ref" and isinstance(v, str):
                    self.resolve(v, where)
                else:
                    self.refs(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                self.refs(v, f"{where}/{i}")

    def same_params(self, entry: dict, schema_rel: str, where: str) -> None:
        schema = json.loads((HERE / schema_rel).read_text(encoding="utf-8"))
        want = [(k, k in schema.get("required", [])) for k in schema.get("properties", {})]
        got = [(p.get("name"), p.get("required", False)) for p in entry["params"]]
        self.check(got == want, where, f"params {got} are not those of {schema_rel} {want}")
        for p in entry["params"]:
            ref = p.get("schema", {}).get("$ref")
            self.check(ref == f"{schema_rel}#/properties/{p['name']}", f"{where}/{p['name']}",
                       f"schema should be {schema_rel}#/properties/{p['name']}, is {ref!r}")

    def run(self) -> int:
        doc = json.loads(DOCUMENT.read_text(encoding="utf-8"))
        self.validate_meta(doc)
        result = initialize_result(self.binary)
        capabilities = result["capabilities"]
        self.check(doc["info"]["version"] == result["protocolVersion"], "info.version",
                   f"is {doc['info']['version']!r}, initialize reports protocol {result['protocolVersion']!r}")
        methods = [m["name"] for m in doc["methods"]]
        self.check(methods == capabilities["methods"], "methods",
                   f"openrpc.json lists {methods}, initialize reports {capabilities['methods']}")
        events = [n["name"] for n in doc.get("x-notifications", [])]
        self.check(events == capabilities["events"], "x-notifications",
                   f"openrpc.json lists {events}, initialize reports {capabilities['events']}")
        self.refs(doc, "openrpc.json")
        for m in doc["methods"]:
            name = m["name"]
            self.same_params(m, f"schemas/params/{name}.json", f"methods/{name}")
            self.check(m["result"]["schema"] == {"$ref": f"schemas/results/{name}.json"}, f"methods/{name}/result",
                       f"result schema should be schemas/results/{name}.json")
            self.check(m.get("paramStructure") == "by-name", f"methods/{name}", "formd takes named params only")
        for n in doc.get("x-notifications", []):
            self.same_params(n, f"schemas/events/{n['name']}.json", f"x-notifications/{n['name']}")
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


if __name__ == "__main__":
    sys.exit(Checker(formd_binary(sys.argv)).run())
