"""A standard-library-only client for formd, the form daemon.

>>> from formd_client import FormdClient
>>> with FormdClient(form="examples/login.json") as formd:
...     formd.demand_focus("email")
...     formd.set_text("email", "ada@example.com")
...     formd.press_return()            # Return moves on to the password field
...     [e.name for e in formd.drain_events()]
"""

from .client import DEFAULT, EventCallback, FormdClient, TraceCallback, find_formd
from .errors import (
    ERROR_CLASSES,
    ConnectionClosedError,
    FormdClientError,
    FormdError,
    FormdTimeoutError,
    InvalidParamsError,
    InvalidRequestError,
    LimitExceededError,
    MethodNotFoundError,
    ParseError,
    UnknownFieldError,
    UnknownFormError,
    error_from_response,
)
from .models import (
    Capabilities,
    DeleteOnEmpty,
    DemandKind,
    DemandOutcome,
    DemandResult,
    EditResult,
    Event,
    FieldErrors,
    ValidationError,
    FieldSpec,
    FieldState,
    FocusResult,
    FormState,
    InitializeResult,
    PressedAction,
    ReturnAction,
    ReturnResult,
    ServerInfo,
    SubmitResult,
    ValidationResult,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT",
    "ERROR_CLASSES",
    "Capabilities",
    "ConnectionClosedError",
    "DeleteOnEmpty",
    "DemandKind",
    "DemandOutcome",
    "DemandResult",
    "EditResult",
    "Event",
    "EventCallback",
    "FieldErrors",
    "ValidationError",
    "FieldSpec",
    "FieldState",
    "FocusResult",
    "FormState",
    "FormdClient",
    "FormdClientError",
    "FormdError",
    "FormdTimeoutError",
    "InitializeResult",
    "InvalidParamsError",
    "InvalidRequestError",
    "LimitExceededError",
    "MethodNotFoundError",
    "ParseError",
    "PressedAction",
    "ReturnAction",
    "ReturnResult",
    "ServerInfo",
    "SubmitResult",
    "TraceCallback",
    "UnknownFieldError",
    "UnknownFormError",
    "ValidationResult",
    "error_from_response",
    "find_formd",
    "__version__",
]
