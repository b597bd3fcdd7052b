"""The formd client: JSON-RPC framing, id matching, event delivery and process lifetime."""

from __future__ import annotations

import collections
import io
import itertools
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import traceback
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeoutError
from types import TracebackType
from typing import IO, Any, Callable, Final, Iterator, Mapping, Sequence, Union, cast

from .errors import (
    ConnectionClosedError,
    FormdError,
    FormdTimeoutError,
    error_from_response,
)
from .models import (
    DemandKind,
    DemandResult,
    EditResult,
    Event,
    FieldSpec,
    FieldState,
    FocusResult,
    FormState,
    InitializeResult,
    ReturnResult,
    SubmitResult,
    ValidationResult,
)

__all__ = ["FormdClient", "EventCallback", "TraceCallback", "find_formd"]

EventCallback = Callable[[Event], None]
"""A function called with each event (on the client's reader thread)."""

TraceCallback = Callable[[str, str], None]
"""Called with ``("send" | "recv", line)`` for every protocol line (without its newline)."""

Stream = Union[IO[bytes], IO[str], int]
"""A readable/writable stream, binary or text, or a raw file descriptor."""


class _Default:
    """Marker for "use the client's default timeout"."""

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Final = _Default()
"""Pass as ``timeout`` to use the client's default (``FormdClient(timeout=...)``)."""

Timeout = Union[float, None, _Default]

_END: Final = object()  # queued after the last event once formd's output has ended


def find_formd(binary: str | os.PathLike[str] | None = None) -> str:
    """The formd executable to run: ``binary``, else ``$FORMD_BIN``, else ``formd`` on PATH."""
    if binary is not None:
        return os.fspath(binary)
    from_env = os.environ.get("FORMD_BIN")
    if from_env:
        return from_env
    on_path = shutil.which("formd")
    if on_path:
        return on_path
    raise FileNotFoundError(
        "cannot find formd: pass binary=..., set FORMD_BIN, or put formd on PATH "
        "(it is built by `swift build` into .build/debug/formd)"
    )


class _Pending:
    """A request waiting for its response."""

    __slots__ = ("method", "future")

    def __init__(self, method: str) -> None:
        self.method = method
        self.future: Future[Any] = Future()


class FormdClient:
    """A connection to one formd daemon.

    ``FormdClient(["--form", "login.json"])`` (or ``form="login.json"``) starts formd as a
    child process; :meth:`attach` speaks to a formd someone else started, over given
    streams. Requests get fresh integer ids; a reader thread routes each response to the
    request that is waiting for it and each notification (event) to the event queue and to
    the callbacks registered with :meth:`on`, in the order formd wrote them.

    formd writes the events a request causes before its response, and the reader thread
    handles lines in order, so when :meth:`call` returns, that request's events are already
    queued and its callbacks have run.

    Callbacks run on the reader thread: a callback must not block on :meth:`call` (that
    would wait for the thread that is running it); use :meth:`call_async` or :meth:`notify`
    there instead.
    """

    def __init__(
        self,
        args: Sequence[str | os.PathLike[str]] = (),
        *,
        form: str | os.PathLike[str] | None = None,
        binary: str | os.PathLike[str] | None = None,
        timeout: float | None = 10.0,
        stderr: int | IO[Any] | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        queue_events: bool = True,
        trace: TraceCallback | None = None,
        _streams: tuple[Stream, Stream, bool] | None = None,
    ) -> None:
        """Starts formd.

        :param args: extra command-line arguments for formd (``--max-line-bytes`` …).
        :param form: a form file to load as the default form (``--form``).
        :param binary: the formd executable (default: :func:`find_formd`).
        :param timeout: default seconds to wait for a response or event (``None``: forever).
        :param stderr: where formd's log goes (default: this process's stderr); anything
            :class:`subprocess.Popen` accepts, e.g. ``subprocess.DEVNULL`` or an open file.
        :param queue_events: keep events for :meth:`events`/:meth:`next_event`; turn off
            when only callbacks are used, so unread events do not pile up.
        :param trace: called with every line sent and received (for debugging).
        """
        self.timeout: float | None = timeout
        self._trace = trace
        self._queue_events = queue_events
        self._ids = itertools.count(1)
        self._lock = threading.Lock()  # guards _pending, _order, _eof
        self._write_lock = threading.Lock()
        self._pending: dict[int, _Pending] = {}
        self._order: collections.deque[int] = collections.deque()  # ids in send order
        self._events: queue.Queue[object] = queue.Queue()
        self._callbacks: dict[str, list[EventCallback]] = {}
        self._eof = False
        self._closed = False
        self._close_lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._owns_streams = True
        self._reader: _BinaryReader
        self._writer: _BinaryWriter

        if _streams is not None:
            reader, writer, owns = _streams
            self._reader = _BinaryReader(_open(reader, "rb"))
            self._writer = _BinaryWriter(_open(writer, "wb"))
            self._owns_streams = owns
        else:
            command = [find_formd(binary)]
            if form is not None:
                command += ["--form", os.fspath(form)]
            command += [os.fspath(a) for a in args]
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                bufsize=0,
            )
            assert self._process.stdin is not None and self._process.stdout is not None
            self._reader = _BinaryReader(self._process.stdout)
            self._writer = _BinaryWriter(self._process.stdin)

        self._thread = threading.Thread(target=self._read_loop, name="formd-reader", daemon=True)
        self._thread.start()

    @classmethod
    def attach(
        cls,
        reader: Stream,
        writer: Stream,
        *,
        timeout: float | None = 10.0,
        close_streams: bool = True,
        queue_events: bool = True,
        trace: TraceCallback | None = None,
    ) -> FormdClient:
        """Speaks to a formd that is already running: ``reader`` is its stdout, ``writer``
        its stdin (binary or text streams, or file descriptors). :meth:`close` sends
        ``shutdown`` and, with ``close_streams``, closes both streams."""
        return cls(
            timeout=timeout,
            queue_events=queue_events,
            trace=trace,
            _streams=(reader, writer, close_streams),
        )

    # ------------------------------------------------------------------ lifetime

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The formd child process (``None`` when attached)."""
        return self._process

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        """formd's exit status once it has been reaped (``None`` when attached)."""
        return self._process.poll() if self._process is not None else None

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    @property
    def running(self) -> bool:
        """True while formd's output is still open."""
        with self._lock:
            return not self._eof

    def close(self, timeout: float | None = 5.0) -> int | None:
        """Ends the conversation: sends ``shutdown`` (unless formd is gone already), waits
        for its answer and for formd to exit (killing it after ``timeout``), reaps the
        process and stops the reader thread. Safe to call more than once. Returns formd's
        exit status (``None`` when attached)."""
        with self._close_lock:
            if self._closed:
                return self.returncode
            self._closed = True
        try:
            if self.running:
                try:
                    self._request("shutdown", None).result(timeout)
                except (FormdError, ConnectionClosedError, FutureTimeoutError, OSError):
                    pass
        finally:
            self._close_stream(self._writer)
            if self._process is not None:
                try:
                    self._process.wait(timeout)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            self._thread.join(timeout)
            if not self._thread.is_alive():  # never close a stream another thread reads
                self._close_stream(self._reader)
        return self.returncode

    def _close_stream(self, stream: _BinaryReader | _BinaryWriter) -> None:
        try:
            if self._owns_streams:
                stream.close()
            elif isinstance(stream, _BinaryWriter):
                stream.flush()
        except (OSError, ValueError):
            pass

    def __enter__(self) -> FormdClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ requests

    def call(self, method: str, params: Mapping[str, Any] | None = None, timeout: Timeout = DEFAULT) -> Any:
        """Sends a request and returns its ``result``.

        Raises the :class:`~formd_client.FormdError` subclass for the error code formd
        answered with, :class:`~formd_client.FormdTimeoutError` when no answer comes in
        time, and :class:`~formd_client.ConnectionClosedError` when formd has gone.
        """
        if threading.current_thread() is self._thread:
            raise RuntimeError(
                "FormdClient.call() from an event callback would wait for the thread running "
                "the callback; use call_async() or notify() there"
            )
        wait = self._timeout(timeout)
        future = self.call_async(method, params)
        try:
            return future.result(wait)
        except FutureTimeoutError:
            self._forget(future)
            raise FormdTimeoutError(f"{method}: no response from formd within {wait} s") from None

    def call_async(self, method: str, params: Mapping[str, Any] | None = None) -> Future[Any]:
        """Sends a request without waiting: the future resolves to its result or error."""
        if self._closed:
            raise ConnectionClosedError(f"{method}: the client is closed")
        return self._request(method, params)

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Sends a notification (no id, no response). If it fails formd answers with an
        ``error`` event."""
        if self._closed:
            raise ConnectionClosedError(f"{method}: the client is closed")
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        self._send(message, method)

    def _request(self, method: str, params: Mapping[str, Any] | None) -> Future[Any]:
        request_id = next(self._ids)
        pending = _Pending(method)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = dict(params)
        line = _encode(message)
        with self._lock:
            if self._eof:
                raise ConnectionClosedError(f"{method}: formd has exited{self._status()}")
            self._pending[request_id] = pending
            self._order.append(request_id)
        try:
            self._write(line)
        except ConnectionClosedError:
            with self._lock:
                self._pending.pop(request_id, None)
                if request_id in self._order:
                    self._order.remove(request_id)
            raise
        return pending.future

    def _send(self, message: Mapping[str, Any], method: str) -> None:
        with self._lock:
            if self._eof:
                raise ConnectionClosedError(f"{method}: formd has exited{self._status()}")
        self._write(_encode(message))

    def _write(self, line: str) -> None:
        if self._trace is not None:
            self._trace("send", line)
        data = (line + "\n").encode("utf-8")
        with self._write_lock:
            try:
                self._writer.write(data)
                self._writer.flush()
            except (BrokenPipeError, ValueError, OSError) as error:
                raise ConnectionClosedError(f"cannot write to formd: {error}{self._status()}") from error

    def _forget(self, future: Future[Any]) -> None:
        with self._lock:
            for request_id, pending in list(self._pending.items()):
                if pending.future is future:
                    del self._pending[request_id]
                    if request_id in self._order:
                        self._order.remove(request_id)

    def _timeout(self, timeout: Timeout) -> float | None:
        return self.timeout if isinstance(timeout, _Default) else timeout

    def _status(self) -> str:
        code = self.returncode
        return f" (exit status {code})" if code is not None else ""

    # ------------------------------------------------------------------ reading

    def _read_loop(self) -> None:
        try:
            while True:
                raw = self._reader.readline()
                if not raw:
                    break
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                if not line.strip():
                    continue
                if self._trace is not None:
                    self._trace("recv", line)
                try:
                    message = json.loads(line)
                except ValueError:
                    self._deliver(Event("error", {
                        "code": 0,
                        "message": "formd wrote a line that is not JSON",
                        "client": True,
                    }))
                    continue
                if isinstance(message, list):
                    for item in message:
                        self._dispatch(item)
                else:
                    self._dispatch(message)
        except (OSError, ValueError):
            pass
        finally:
            self._finish()

    def _dispatch(self, message: object) -> None:
        if not isinstance(message, dict):
            return
        if "id" in message and ("result" in message or "error" in message):
            self._resolve(message)
        elif isinstance(message.get("method"), str) and "id" not in message:
            params = message.get("params")
            self._deliver(Event(message["method"], params if isinstance(params, dict) else {}))

    def _resolve(self, message: dict[str, Any]) -> None:
        request_id = message.get("id")
        with self._lock:
            pending: _Pending | None = None
            if request_id is None:
                # formd answers with id null when it could not read the id (a line over
                # --max-line-bytes, a parse error). It answers in order, so that is the
                # oldest request still waiting.
                if self._order:
                    pending = self._pending.pop(self._order.popleft(), None)
            elif isinstance(request_id, int) and not isinstance(request_id, bool):
                pending = self._pending.pop(request_id, None)
                if pending is not None:
                    self._order.remove(request_id)
        error = message.get("error")
        if pending is None:
            if isinstance(error, dict):  # nobody waits for it: do not lose it
                self._deliver(Event("error", dict(error)))
            return
        if isinstance(error, dict):
            pending.future.set_exception(error_from_response(error, pending.method))
        else:
            pending.future.set_result(message.get("result"))

    def _deliver(self, event: Event) -> None:
        if self._queue_events:
            self._events.put(event)
        with self._lock:
            callbacks = list(self._callbacks.get(event.name, ())) + list(self._callbacks.get("*", ()))
        for callback in callbacks:
            try:
                callback(event)
            except Exception:  # a broken callback must not stop the reader
                print(f"formd_client: exception in callback for {event.name!r}:", file=sys.stderr)
                traceback.print_exc()

    def _finish(self) -> None:
        if self._process is not None:
            try:
                self._process.wait(1.0)
            except subprocess.TimeoutExpired:
                pass
        with self._lock:
            self._eof = True
            pending = list(self._pending.values())
            self._pending.clear()
            self._order.clear()
        for p in pending:
            p.future.set_exception(ConnectionClosedError(f"{p.method}: formd exited before answering{self._status()}"))
        self._events.put(_END)

    # ------------------------------------------------------------------ events

    def on(self, event: str, callback: EventCallback) -> Callable[[], None]:
        """Calls ``callback(event)`` for every event named ``event`` (``"*"``: all events,
        including ``error``), in order, on the reader thread. Returns a function that
        unsubscribes it."""
        with self._lock:
            self._callbacks.setdefault(event, []).append(callback)
        return lambda: self.off(event, callback)

    def off(self, event: str, callback: EventCallback) -> None:
        """Removes a callback added with :meth:`on` (no error if it is not there)."""
        with self._lock:
            callbacks = self._callbacks.get(event, [])
            if callback in callbacks:
                callbacks.remove(callback)

    def next_event(self, timeout: Timeout = DEFAULT) -> Event:
        """The next event in the order formd wrote it, waiting up to ``timeout`` seconds.

        Raises :class:`~formd_client.FormdTimeoutError` when none arrives in time and
        :class:`~formd_client.ConnectionClosedError` when formd has exited and every event
        has been read."""
        wait = self._timeout(timeout)
        try:
            item = self._events.get(timeout=wait) if wait is None or wait > 0 else self._events.get_nowait()
        except queue.Empty:
            raise FormdTimeoutError(f"no event from formd within {wait} s") from None
        if item is _END:
            self._events.put(_END)  # stays the last item for every later reader
            raise ConnectionClosedError(f"no more events: formd has exited{self._status()}")
        return cast(Event, item)

    def events(self, timeout: Timeout = DEFAULT) -> Iterator[Event]:
        """Iterates over events in order; stops when none arrives within ``timeout``
        seconds or when formd has exited and every event has been read."""
        while True:
            try:
                yield self.next_event(timeout)
            except (FormdTimeoutError, ConnectionClosedError):
                return

    def drain_events(self) -> list[Event]:
        """Every event already received and not yet read, without waiting. Right after
        :meth:`call` returns these include all the events that request caused."""
        return list(self.events(timeout=0))

    def wait_for(self, name: str, timeout: Timeout = DEFAULT) -> Event:
        """Reads events until one named ``name`` arrives and returns it (the ones before it
        are dropped). Raises :class:`~formd_client.FormdTimeoutError` after ``timeout``."""
        wait = self._timeout(timeout)
        deadline = None if wait is None else _now() + wait
        while True:
            left = None if deadline is None else max(0.0, deadline - _now())
            event = self.next_event(left)
            if event.name == name:
                return event

    # ------------------------------------------------------------------ methods

    def initialize(self, client_name: str = "formd_client", client_version: str | None = None) -> InitializeResult:
        info: dict[str, str] = {"name": client_name}
        if client_version is not None:
            info["version"] = client_version
        return cast(InitializeResult, self.call("initialize", {"clientInfo": info}))

    def define_form(
        self,
        fields: Sequence[FieldSpec | Mapping[str, Any]],
        presets: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        form: str | None = None,
    ) -> None:
        """Replaces the form's fields (creating the form if needed)."""
        self.call("defineForm", _params(form, fields=[dict(f) for f in fields],
                                         presets=dict(presets) if presets is not None else None))

    def add_field(self, field: FieldSpec | Mapping[str, Any], after: str | None = None, *, form: str | None = None) -> None:
        self.call("addField", _params(form, field=dict(field), after=after))

    def remove_field(self, field: str, *, form: str | None = None) -> None:
        self.call("removeField", _params(form, field=field))

    def configure_field(self, field: str, *, form: str | None = None, **options: Any) -> None:
        """Changes spec keys of a field, spelled as in the protocol:
        ``configure_field("email", returnAction="submit", maxLength=None)``."""
        params = _params(form, field=field)
        params.update(options)
        self.call("configureField", params)

    def set_text(self, field: str, text: str, *, form: str | None = None) -> EditResult:
        """A user edit: replaces the field's text (refused on a disabled field or past
        ``maxLength``)."""
        return cast(EditResult, self.call("setText", _params(form, field=field, text=text)))

    def delete(self, field: str | None = None, *, form: str | None = None) -> EditResult:
        """Backspace: removes one character from ``field`` (default: the first responder).
        On an empty field with ``deleteOnEmpty: "focusPrevious"`` focus steps back."""
        return cast(EditResult, self.call("delete", _params(form, field=field)))

    def press_return(self, field: str | None = None, *, form: str | None = None) -> ReturnResult:
        """Return on ``field`` (default: the first responder)."""
        return cast(ReturnResult, self.call("pressReturn", _params(form, field=field)))

    def demand_focus(self, field: str, demand: DemandKind = "become", *, form: str | None = None) -> DemandResult:
        """Asks ``field`` to become (or resign) first responder; the outcome may be
        ``refused`` or ``pending``."""
        return cast(DemandResult, self.call("demandFocus", _params(form, field=field, demand=demand)))

    def focus_next(self, *, form: str | None = None) -> FocusResult:
        return cast(FocusResult, self.call("focusNext", _params(form)))

    def focus_previous(self, *, form: str | None = None) -> FocusResult:
        return cast(FocusResult, self.call("focusPrevious", _params(form)))

    def set_enabled(self, field: str, enabled: bool = True, *, form: str | None = None) -> None:
        self.call("setEnabled", _params(form, field=field, enabled=enabled))

    def set_secure(self, field: str, secure: bool = True, *, form: str | None = None) -> None:
        self.call("setSecure", _params(form, field=field, secure=secure))

    def set_revealed(self, field: str, revealed: bool = True, *, form: str | None = None) -> None:
        self.call("setRevealed", _params(form, field=field, revealed=revealed))

    def get_state(self, include_secrets: bool = False, *, form: str | None = None) -> FormState:
        """The whole form; secure fields' ``text`` only with ``include_secrets``."""
        params = _params(form, includeSecrets=True if include_secrets else None)
        return cast(FormState, self.call("getState", params))

    def field_state(self, field: str, include_secrets: bool = False, *, form: str | None = None) -> FieldState:
        """One field's state from :meth:`get_state`."""
        for state in self.get_state(include_secrets, form=form)["fields"]:
            if state["id"] == field:
                return state
        raise KeyError(field)

    def first_responder(self, *, form: str | None = None) -> str | None:
        return self.get_state(form=form)["firstResponder"]

    def validate(self, *, form: str | None = None) -> ValidationResult:
        return cast(ValidationResult, self.call("validate", _params(form)))

    def submit(self, include_secrets: bool = False, *, form: str | None = None) -> SubmitResult:
        """Validates and, when valid, submits (``submitted`` event); secure values only
        with ``include_secrets``."""
        params = _params(form, includeSecrets=True if include_secrets else None)
        return cast(SubmitResult, self.call("submit", params))

    def reset(self, *, form: str | None = None) -> None:
        self.call("reset", _params(form))

    def shutdown(self, timeout: Timeout = DEFAULT) -> None:
        """Asks formd to exit after answering (:meth:`close` does this and cleans up)."""
        self.call("shutdown", None, timeout)


# ---------------------------------------------------------------------- helpers


def _params(form: str | None, **values: Any) -> dict[str, Any]:
    params = {k: v for k, v in values.items() if v is not None}
    if form is not None:
        params["form"] = form
    return params


def _encode(message: Mapping[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _now() -> float:
    return time.monotonic()


class _BinaryReader:
    """A byte-line reader over a binary stream, a text stream or a file descriptor."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._text = isinstance(stream, io.TextIOBase)

    def readline(self) -> bytes:
        line = self._stream.readline()
        return line.encode("utf-8") if self._text else cast(bytes, line)

    def close(self) -> None:
        self._stream.close()


class _BinaryWriter:
    """Writes bytes to a binary stream, a text stream or a file descriptor."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._text = isinstance(stream, io.TextIOBase)

    def write(self, data: bytes) -> None:
        if self._text:
            self._stream.write(data.decode("utf-8"))
        else:
            view = memoryview(data)
            while view:  # raw (unbuffered) streams may write less than asked
                written = self._stream.write(view)
                view = view[written if written is not None else len(view):]

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        self._stream.close()


def _open(stream: Stream, mode: str) -> IO[Any]:
    if isinstance(stream, int):
        return os.fdopen(stream, mode, buffering=0 if mode == "wb" else -1)
    return stream
