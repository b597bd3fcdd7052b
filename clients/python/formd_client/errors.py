"""Exceptions raised by the formd client.

Every JSON-RPC error formd answers with becomes a :class:`FormdError` carrying the
``code`` and ``message`` from the response; known codes get their own subclass so callers
can ``except UnknownFieldError:`` instead of comparing numbers.
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

__all__ = [
    "FormdClientError",
    "FormdError",
    "ParseError",
    "InvalidRequestError",
    "MethodNotFoundError",
    "InvalidParamsError",
    "UnknownFieldError",
    "UnknownFormError",
    "LimitExceededError",
    "ConnectionClosedError",
    "FormdTimeoutError",
    "ERROR_CLASSES",
    "error_from_response",
]


class FormdClientError(Exception):
    """Base class of everything this package raises on purpose."""


class FormdError(FormdClientError):
    """A JSON-RPC error response from formd.

    ``code`` and ``message`` are the response's; ``method`` is the method of the request
    that failed (when known) and ``data`` the optional ``error.data`` member.
    """

    CODE: ClassVar[int | None] = None

    def __init__(self, code: int, message: str, *, data: Any = None, method: str | None = None) -> None:
        super().__init__(code, message)
        self.code: int = code
        self.message: str = message
        self.data: Any = data
        self.method: str | None = method

    def __str__(self) -> str:
        where = f"{self.method}: " if self.method else ""
        return f"{where}{self.message} (code {self.code})"


class ParseError(FormdError):
    """-32700: the line sent was not JSON."""

    CODE = -32700


class InvalidRequestError(FormdError):
    """-32600: the JSON was not a valid JSON-RPC request."""

    CODE = -32600


class MethodNotFoundError(FormdError):
    """-32601: formd has no such method."""

    CODE = -32601


class InvalidParamsError(FormdError):
    """-32602: a param was missing, had the wrong type, an unknown key or a bad value."""

    CODE = -32602


class UnknownFieldError(FormdError):
    """-32001: the form has no field with that id."""

    CODE = -32001


class UnknownFormError(FormdError):
    """-32002: formd has no form with that name."""

    CODE = -32002


class LimitExceededError(FormdError):
    """-32003: the request line was too long or nested too deeply."""

    CODE = -32003


ERROR_CLASSES: dict[int, type[FormdError]] = {
    cls.CODE: cls
    for cls in (
        ParseError,
        InvalidRequestError,
        MethodNotFoundError,
        InvalidParamsError,
        UnknownFieldError,
        UnknownFormError,
        LimitExceededError,
    )
    if cls.CODE is not None
}


def error_from_response(error: Mapping[str, Any], method: str | None = None) -> FormdError:
    """Builds the typed exception for a response's ``error`` object."""
    raw_code = error.get("code")
    code = raw_code if isinstance(raw_code, int) and not isinstance(raw_code, bool) else 0
    message = error.get("message")
    text = message if isinstance(message, str) else repr(error)
    cls = ERROR_CLASSES.get(code, FormdError)
    return cls(code, text, data=error.get("data"), method=method)


class ConnectionClosedError(FormdClientError, ConnectionError):
    """formd has exited or its pipes are closed, so no answer will come."""


class FormdTimeoutError(FormdClientError, TimeoutError):
    """No response (or event) arrived within the timeout."""
