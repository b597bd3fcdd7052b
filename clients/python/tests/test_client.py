"""formd_client against the real formd binary ($FORMD_BIN, else formd on PATH)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from concurrent.futures import Future
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from formd_client import (  # noqa: E402
    ConnectionClosedError,
    Event,
    FormdClient,
    FormdError,
    FormdTimeoutError,
    InvalidParamsError,
    LimitExceededError,
    MethodNotFoundError,
    UnknownFieldError,
    UnknownFormError,
    find_formd,
)

LOGIN = Path(__file__).resolve().parent / "login.json"
SECRET = "correct horse battery"


def names(events: list[Event]) -> list[str]:
    return [e.name for e in events]


class FormdTestCase(unittest.TestCase):
    def start(self, *args: str, **kwargs: Any) -> FormdClient:
        kwargs.setdefault("form", LOGIN)
        kwargs.setdefault("timeout", 10.0)
        client = FormdClient(list(args), **kwargs)
        self.addCleanup(client.close)
        return client

    def assert_seqs_consecutive(self, events: list[Event]) -> None:
        seqs = [e.seq for e in events]
        self.assertTrue(all(isinstance(s, int) for s in seqs), seqs)
        first = seqs[0] if seqs and seqs[0] is not None else 0
        self.assertEqual(seqs, list(range(first, first + len(seqs))), seqs)


class LoginChainTest(FormdTestCase):
    """Focus, type, Return, Backspace on empty stepping back, submit."""

    def test_login_chain(self) -> None:
        formd = self.start()
        seen: list[Event] = []

        # Focus the email field.
        self.assertEqual(formd.demand_focus("email"), {"outcome": "fulfilled"})
        events = formd.drain_events()
        seen += events
        self.assertEqual(names(events), ["responderChanged", "fieldChanged", "focusChanged", "demandChanged"])
        self.assertEqual(events[0]["field"], "email")
        self.assertIs(events[0]["isFirstResponder"], True)
        self.assertEqual(events[1]["changes"], {"visited": True})
        self.assertEqual((events[2]["from"], events[2]["to"]), (None, "email"))
        self.assertEqual((events[3]["demand"], events[3]["outcome"]), (None, "fulfilled"))

        # Type an address.
        self.assertEqual(formd.set_text("email", "ada@example.com"), {"applied": True})
        events = formd.drain_events()
        seen += events
        self.assertEqual(names(events), ["textChanged", "validityChanged"])
        self.assertEqual(events[0]["text"], "ada@example.com")
        self.assertEqual(events[0]["length"], 15)
        self.assertEqual((events[1]["valid"], events[1]["errors"]), (True, []))

        # Return moves on to the password field: email resigns before password becomes.
        self.assertEqual(formd.press_return(), {"action": "next"})
        events = formd.drain_events()
        seen += events
        self.assertEqual(
            [(e.name, e.field) for e in events],
            [("returnPressed", "email"), ("responderChanged", "email"), ("fieldChanged", "email"),
             ("responderChanged", "password"), ("fieldChanged", "password"), ("focusChanged", None)],
        )
        self.assertEqual(events[0]["action"], "next")
        self.assertEqual([e["isFirstResponder"] for e in events if e.name == "responderChanged"], [False, True])
        self.assertEqual(events[2]["changes"], {"touched": True})
        self.assertEqual((events[5]["from"], events[5]["to"]), ("email", "password"))
        self.assertEqual(formd.first_responder(), "password")

        # Type two characters, then Backspace three times: the third, on the empty field,
        # steps back to email (deleteOnEmpty: focusPrevious).
        self.assertEqual(formd.set_text("password", "ab"), {"applied": True})
        seen += formd.drain_events()
        self.assertEqual(formd.delete(), {"applied": True})
        events = formd.drain_events()
        seen += events
        self.assertEqual(names(events), ["deletePressed", "textChanged"])
        self.assertEqual(events[0]["textBefore"], "••")
        self.assertEqual((events[1]["display"], events[1]["length"]), ("•", 1))
        self.assertEqual(formd.delete(), {"applied": True})
        seen += formd.drain_events()
        self.assertEqual(formd.field_state("password")["length"], 0)

        edit = formd.delete()
        self.assertIs(edit["applied"], False)
        events = formd.drain_events()
        seen += events
        self.assertEqual(names(events)[:2], ["deletePressed", "changeRejected"])
        self.assertEqual(events[0]["textBefore"], "")
        focus = [e for e in events if e.name == "focusChanged"]
        self.assertEqual([(e["from"], e["to"]) for e in focus], [("password", "email")])
        responders = [(e.field, e["isFirstResponder"]) for e in events if e.name == "responderChanged"]
        self.assertEqual(responders, [("password", False), ("email", True)])
        self.assertEqual(formd.first_responder(), "email")

        # Return on email (already filled in) moves on to password again.
        self.assertEqual(formd.press_return(), {"action": "next"})
        seen += formd.drain_events()
        self.assertEqual(formd.first_responder(), "password")

        # A good password, then Return submits (returnAction: submit) and resigns.
        self.assertEqual(formd.set_text("password", SECRET), {"applied": True})
        seen += formd.drain_events()
        self.assertEqual(formd.press_return(), {"action": "submit"})
        events = formd.drain_events()
        seen += events
        self.assertEqual(
            names(events),
            # no fieldChanged {touched}: password was touched when it resigned the first time
            ["returnPressed", "responderChanged", "focusChanged", "submitted"],
        )
        submitted = events[-1]
        self.assertEqual(submitted["values"], {"email": "ada@example.com"})
        self.assertEqual(submitted["withheld"], ["password"])
        self.assertEqual((events[2]["from"], events[2]["to"]), ("password", None))
        self.assertIsNone(formd.first_responder())

        # submit returns values; the secure one only when asked for.
        result = formd.submit()
        self.assertEqual(result, {"valid": True, "values": {"email": "ada@example.com"},
                                  "withheld": ["password"], "errors": []})
        with_secrets = formd.submit(include_secrets=True)
        self.assertEqual(with_secrets["values"], {"email": "ada@example.com", "password": SECRET})
        self.assertEqual(with_secrets["withheld"], [])
        seen += formd.drain_events()

        # Every event: form "default", seq +1 each, and the secret nowhere.
        self.assertTrue(all(e.form == "default" for e in seen))
        self.assert_seqs_consecutive(seen)
        self.assertNotIn(SECRET, repr([e.params for e in seen]))
        self.assertEqual(formd.close(), 0)

    def test_failed_submit_keeps_focus_on_invalid_field(self) -> None:
        formd = self.start()
        formd.demand_focus("email")
        formd.set_text("email", "ada@example.com")
        formd.press_return()
        formd.set_text("password", "short")
        formd.drain_events()
        self.assertEqual(formd.press_return(), {"action": "submit"})
        events = formd.drain_events()
        self.assertEqual(names(events), ["returnPressed", "submitFailed"])
        self.assertEqual(events[1]["errors"], [{"field": "password", "errors": [{"rule": "tooShort", "message": "Use at least 8 characters."}]}])
        self.assertEqual(formd.first_responder(), "password")
        self.assertEqual(formd.validate(), {"valid": False, "errors": events[1]["errors"]})

    def test_delete_on_empty_without_delete_on_empty_stays(self) -> None:
        formd = self.start()
        formd.demand_focus("email")
        formd.set_text("email", "a")
        formd.drain_events()
        self.assertEqual(formd.delete("email"), {"applied": True})
        self.assertEqual(formd.drain_events()[0]["textBefore"], "a")
        self.assertEqual(formd.delete("email"), {"applied": False, "reason": "empty"})
        self.assertNotIn("focusChanged", names(formd.drain_events()))
        self.assertEqual(formd.first_responder(), "email")

    def test_return_ignored_on_empty_with_enables_return_key_automatically(self) -> None:
        formd = self.start()
        formd.demand_focus("email")
        formd.drain_events()
        self.assertEqual(formd.press_return(), {"action": "ignored"})
        self.assertEqual(formd.drain_events(), [])
        self.assertEqual(formd.first_responder(), "email")

    def test_refused_and_pending_demands(self) -> None:
        formd = self.start()
        formd.configure_field("email", canBecomeFirstResponder=False)
        self.assertEqual(formd.demand_focus("email"), {"outcome": "refused"})
        formd.set_enabled("password", False)
        self.assertEqual(formd.demand_focus("password"), {"outcome": "pending"})
        self.assertEqual(formd.field_state("password")["demand"], "become")
        formd.drain_events()
        formd.set_enabled("password", True)
        events = formd.drain_events()
        self.assertIn("demandChanged", names(events))
        self.assertEqual(formd.first_responder(), "password")

    def test_define_form_and_focus_wraps(self) -> None:
        formd = self.start(form=None)
        formd.define_form([{"id": "a"}, {"id": "b", "configuration": ["lastOfChain"]}], form="f")
        events = formd.drain_events()
        self.assertEqual(names(events), ["formDefined"])
        self.assertEqual(events[0].form, "f")
        self.assertEqual(formd.focus_next(form="f"), {"firstResponder": "a", "moved": True})
        self.assertEqual(formd.focus_previous(form="f"), {"firstResponder": "b", "moved": True})
        self.assertEqual(formd.press_return(form="f"), {"action": "resign"})
        self.assertIsNone(formd.first_responder(form="f"))
        formd.add_field({"id": "c"}, after="a", form="f")
        self.assertEqual([f["id"] for f in formd.get_state(form="f")["fields"]], ["a", "c", "b"])
        formd.remove_field("c", form="f")
        self.assertEqual([f["id"] for f in formd.get_state(form="f")["fields"]], ["a", "b"])


class ErrorTest(FormdTestCase):
    def test_error_codes_are_typed(self) -> None:
        formd = self.start()
        seq_before = formd.get_state()["seq"]
        cases: list[tuple[str, dict[str, Any], type[FormdError], int, str]] = [
            ("setText", {"field": "nope", "text": "x"}, UnknownFieldError, -32001, "nope"),
            ("getState", {"form": "zz"}, UnknownFormError, -32002, "zz"),
            ("bogus", {}, MethodNotFoundError, -32601, "bogus"),
            ("setText", {"field": "email"}, InvalidParamsError, -32602, "text"),
            ("getState", {"colour": "red"}, InvalidParamsError, -32602, "colour"),
        ]
        for method, params, cls, code, mentioned in cases:
            with self.subTest(method=method, params=params):
                with self.assertRaises(cls) as caught:
                    formd.call(method, params)
                self.assertIsInstance(caught.exception, FormdError)
                self.assertEqual(caught.exception.code, code)
                self.assertEqual(caught.exception.method, method)
                self.assertIn(mentioned, caught.exception.message)
        # Still running, nothing changed.
        self.assertEqual(formd.get_state()["seq"], seq_before)
        self.assertEqual(formd.drain_events(), [])

    def test_convenience_methods_raise_typed_errors(self) -> None:
        formd = self.start()
        with self.assertRaises(UnknownFieldError):
            formd.demand_focus("nope")
        with self.assertRaises(UnknownFormError):
            formd.submit(form="elsewhere")

    def test_failed_notification_surfaces_as_error_event(self) -> None:
        formd = self.start()
        got: list[Event] = []
        formd.on("error", got.append)
        formd.notify("setText", {"field": "nope", "text": "x"})
        event = formd.next_event(5)
        self.assertEqual(event.name, "error")
        self.assertEqual(event["code"], -32001)
        self.assertEqual(event["method"], "setText")
        self.assertIn("nope", event["message"])
        self.assertEqual(got, [event])

    def test_null_id_error_goes_to_the_waiting_request(self) -> None:
        formd = self.start("--max-line-bytes", "200")
        with self.assertRaises(LimitExceededError) as caught:
            formd.set_text("email", "x" * 500)
        self.assertEqual(caught.exception.code, -32003)
        self.assertEqual(formd.set_text("email", "a@b.co"), {"applied": True})

    def test_null_id_error_with_nobody_waiting_is_an_error_event(self) -> None:
        formd = self.start("--max-line-bytes", "100")
        formd.notify("setText", {"field": "email", "text": "y" * 200})
        event = formd.next_event(5)
        self.assertEqual((event.name, event["code"]), ("error", -32003))

    def test_timeout(self) -> None:
        # Nobody answers on these pipes.
        to_server_r, to_server_w = os.pipe()
        from_server_r, from_server_w = os.pipe()
        client = FormdClient.attach(from_server_r, to_server_w, timeout=0.2)
        with self.assertRaises(FormdTimeoutError):
            client.get_state()
        with self.assertRaises(TimeoutError):
            client.next_event(0.05)
        os.close(from_server_w)  # "formd" exits
        client.close(timeout=1)
        os.close(to_server_r)
        with self.assertRaises(ConnectionClosedError):
            client.get_state()

    def test_daemon_killed(self) -> None:
        formd = self.start()
        assert formd.process is not None
        formd.process.kill()
        formd.process.wait()
        with self.assertRaises(ConnectionClosedError):
            formd.get_state()
        self.assertEqual(list(formd.events(timeout=2)), [])


class SecretTest(FormdTestCase):
    def test_secure_text_never_in_events_or_output(self) -> None:
        lines: list[tuple[str, str]] = []
        with tempfile.TemporaryFile() as log:
            formd = self.start(trace=lambda d, line: lines.append((d, line)), stderr=log)
            formd.demand_focus("password")
            formd.set_text("password", SECRET)
            formd.delete()
            formd.set_text("password", SECRET)
            formd.press_return()
            formd.focus_next()
            formd.set_secure("password", True)
            formd.configure_field("password", label="Secret")
            state = formd.get_state()
            field = next(f for f in state["fields"] if f["id"] == "password")
            self.assertNotIn("text", field)
            self.assertEqual(field["display"], "•" * len(SECRET))
            self.assertEqual(field["length"], len(SECRET))
            self.assertEqual(formd.submit()["withheld"], ["password"])
            events = formd.drain_events()
            self.assertIn("deletePressed", names(events))
            self.assertIn("textChanged", names(events))
            for event in events:
                self.assertNotIn(SECRET[:-1], repr(dict(event.params)), event.name)
            # Only the one response that asked for secrets carries the text.
            revealed = formd.get_state(include_secrets=True)
            self.assertEqual(next(f for f in revealed["fields"] if f["id"] == "password")["text"], SECRET)
            self.assertEqual(formd.close(), 0)
            log.seek(0)
            self.assertNotIn(SECRET[:-1].encode(), log.read())
        received = [line for d, line in lines if d == "recv"]
        leaks = [line for line in received if SECRET[:-1] in line]
        self.assertEqual(len(leaks), 1, leaks)
        self.assertIn('"includeSecrets"', next(line for d, line in lines if d == "send" and "includeSecrets" in line))

    def test_revealing_shows_text_and_hiding_masks_it_again(self) -> None:
        formd = self.start()
        formd.set_text("password", SECRET)
        formd.drain_events()
        formd.set_revealed("password", True)
        self.assertEqual(formd.field_state("password")["text"], SECRET)
        formd.set_revealed("password", False)
        events = formd.drain_events()
        self.assertEqual(names(events), ["fieldChanged", "fieldChanged"])
        self.assertEqual(events[1]["changes"], {"revealed": False, "display": "•" * len(SECRET)})
        self.assertNotIn("text", formd.field_state("password"))


class EventDeliveryTest(FormdTestCase):
    def test_callbacks_run_in_order_before_call_returns(self) -> None:
        formd = self.start()
        focus: list[tuple[str | None, str | None]] = []
        everything: list[str] = []
        formd.on("focusChanged", lambda e: focus.append((e["from"], e["to"])))
        unsubscribe = formd.on("*", lambda e: everything.append(e.name))
        formd.demand_focus("email")
        self.assertEqual(focus, [(None, "email")])
        self.assertEqual(everything, ["responderChanged", "fieldChanged", "focusChanged", "demandChanged"])
        unsubscribe()
        formd.demand_focus("password")
        self.assertEqual(focus, [(None, "email"), ("email", "password")])
        self.assertEqual(len(everything), 4)
        # The queue got the same events, in the same order.
        queued = formd.drain_events()
        self.assertEqual(names(queued)[:4], ["responderChanged", "fieldChanged", "focusChanged", "demandChanged"])
        self.assert_seqs_consecutive(queued)

    def test_callback_may_send_but_not_block(self) -> None:
        formd = self.start()
        outcome: dict[str, Any] = {}
        done = threading.Event()

        def on_focus(event: Event) -> None:
            try:
                formd.call("getState")
            except RuntimeError as error:
                outcome["blocked"] = str(error)
            future = formd.call_async("getState")

            def finished(f: Future[Any]) -> None:
                outcome["state"] = f.result()
                done.set()

            future.add_done_callback(finished)

        formd.on("focusChanged", on_focus)
        formd.demand_focus("email")
        self.assertTrue(done.wait(5))
        self.assertIn("call_async", outcome["blocked"])
        self.assertEqual(outcome["state"]["firstResponder"], "email")

    def test_events_iterator(self) -> None:
        formd = self.start()
        formd.demand_focus("email")
        formd.set_text("email", "ada@example.com")
        got = list(formd.events(timeout=0.2))
        self.assertEqual(names(got), ["responderChanged", "fieldChanged", "focusChanged", "demandChanged",
                                      "textChanged", "validityChanged"])
        with self.assertRaises(FormdTimeoutError):
            formd.next_event(0.05)
        formd.press_return()
        self.assertEqual(formd.wait_for("focusChanged")["to"], "password")
        # Once formd has exited, the iterator ends after the last event.
        formd.shutdown()
        self.assertEqual([e.name for e in formd.events(timeout=5)], [])
        with self.assertRaises(ConnectionClosedError):
            formd.next_event(1)

    def test_concurrent_callers_get_their_own_results(self) -> None:
        formd = self.start(form=None)
        formd.define_form([{"id": f"f{i}"} for i in range(8)])
        errors: list[BaseException] = []

        def worker(i: int) -> None:
            try:
                for n in range(20):
                    text = f"{i}-{n}"
                    self.assertEqual(formd.set_text(f"f{i}", text), {"applied": True})
                    self.assertEqual(formd.field_state(f"f{i}")["text"], text)
            except BaseException as error:  # noqa: BLE001
                errors.append(error)

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        self.assertEqual(errors, [])
        self.assert_seqs_consecutive(formd.drain_events())

    def test_initialize(self) -> None:
        formd = self.start()
        result = formd.initialize("tests", "1")
        self.assertEqual(result["serverInfo"]["name"], "formd")
        self.assertIn("setText", result["capabilities"]["methods"])
        self.assertIn("submitted", result["capabilities"]["events"])


class LifetimeTest(FormdTestCase):
    def assert_reaped(self, pid: int) -> None:
        with self.assertRaises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left behind
        status = Path(f"/proc/{pid}/status")
        if status.exists():  # the pid may have been reused, but never by a zombie of ours
            self.assertNotIn("zombie", status.read_text())

    def test_close_exits_cleanly(self) -> None:
        formd = FormdClient(form=LOGIN)
        pid = formd.pid
        assert pid is not None
        formd.demand_focus("email")
        self.assertTrue(formd.running)
        self.assertEqual(formd.close(), 0)
        self.assertEqual(formd.returncode, 0)
        self.assertFalse(formd.running)
        self.assert_reaped(pid)
        self.assertEqual(formd.close(), 0)  # idempotent
        with self.assertRaises(ConnectionClosedError):
            formd.get_state()

    def test_context_manager(self) -> None:
        with FormdClient(form=LOGIN) as formd:
            pid = formd.pid
            assert pid is not None
            formd.set_text("email", "ada@example.com")
        self.assertEqual(formd.returncode, 0)
        self.assert_reaped(pid)

    def test_close_after_shutdown(self) -> None:
        formd = FormdClient(form=LOGIN)
        formd.shutdown()
        self.assertEqual(formd.close(), 0)

    def test_attach_to_pipes(self) -> None:
        proc = subprocess.Popen([find_formd(), "--form", str(LOGIN)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None
        formd = FormdClient.attach(proc.stdout, proc.stdin)
        self.assertIsNone(formd.pid)
        self.assertEqual(formd.demand_focus("email"), {"outcome": "fulfilled"})
        self.assertEqual(names(formd.drain_events())[-1], "demandChanged")
        formd.close()
        self.assertEqual(proc.wait(5), 0)

    def test_attach_to_text_streams(self) -> None:
        proc = subprocess.Popen([find_formd(), "--form", str(LOGIN)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, encoding="utf-8")
        assert proc.stdin is not None and proc.stdout is not None
        with FormdClient.attach(proc.stdout, proc.stdin) as formd:
            formd.set_text("password", "ünïcødé 👍🏽")
            self.assertEqual(formd.field_state("password")["length"], 9)
        self.assertEqual(proc.wait(5), 0)


if __name__ == "__main__":
    unittest.main()
