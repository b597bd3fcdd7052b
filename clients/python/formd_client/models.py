"""Typed shapes of what formd sends: results, form and field state, events, field specs.

Results are ``TypedDict``s: at run time they are plain ``dict``s exactly as decoded from
formd's JSON, so keys keep the protocol's camelCase spelling.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, Mapping, NotRequired, Required, TypedDict

__all__ = [
    "ReturnAction",
    "PressedAction",
    "DeleteOnEmpty",
    "DemandKind",
    "DemandOutcome",
    "FieldSpec",
    "FieldState",
    "FormState",
    "EditResult",
    "ReturnResult",
    "DemandResult",
    "FocusResult",
    "FieldErrors",
    "ValidationResult",
    "SubmitResult",
    "ServerInfo",
    "Capabilities",
    "InitializeResult",
    "Event",
]

ReturnAction = Literal["next", "resign", "submit", "none"]
"""A field's ``returnAction``."""

PressedAction = Literal["next", "resign", "submit", "none", "ignored"]
"""What ``pressReturn`` did (``ignored``: ``enablesReturnKeyAutomatically`` on empty text)."""

DeleteOnEmpty = Literal["none", "focusPrevious"]
DemandKind = Literal["become", "resign"]
DemandOutcome = Literal["fulfilled", "refused", "pending"]
EditAction = Literal["cut", "copy", "paste", "selectAll", "delete"]


class Selection(TypedDict):
    """A caret (``start == end``) or selection in the client's position encoding;
    ``backward`` is present (true) when the caret is at ``start``."""

    start: int
    end: int
    backward: NotRequired[bool]


class FieldSpec(TypedDict, total=False):
    """A field as ``defineForm``/``addField`` take it (only ``id`` is required)."""

    id: Required[str]
    label: str | None
    placeholder: str | None
    text: str
    secure: bool
    revealed: bool
    enabled: bool
    returnAction: ReturnAction
    deleteOnEmpty: DeleteOnEmpty
    canBecomeFirstResponder: bool
    canResignFirstResponder: bool
    enablesReturnKeyAutomatically: bool
    clearsOnBeginEditing: bool
    required: bool
    minLength: int | None
    maxLength: int | None
    pattern: str | None
    patternHint: str | None
    inputFilter: str | None
    autoAdvance: bool
    supportedEditActions: list[EditAction]
    configuration: list[str]
    hints: dict[str, Any]


class FieldState(TypedDict):
    """One field in ``getState`` (and ``formDefined``/``fieldAdded`` events).

    ``text`` is absent for a secure, unrevealed field unless secrets were asked for.
    """

    id: str
    label: str | None
    placeholder: str | None
    secure: bool
    revealed: bool
    enabled: bool
    returnAction: ReturnAction
    deleteOnEmpty: DeleteOnEmpty
    canBecomeFirstResponder: bool
    canResignFirstResponder: bool
    enablesReturnKeyAutomatically: bool
    clearsOnBeginEditing: bool
    required: bool
    minLength: int | None
    maxLength: int | None
    pattern: str | None
    patternHint: str | None
    inputFilter: str | None
    autoAdvance: bool
    supportedEditActions: list[EditAction]
    configuration: list[str]
    hints: dict[str, Any]
    text: NotRequired[str]
    display: str
    length: int
    selection: Selection
    isFirstResponder: bool
    demand: DemandKind | None
    valid: bool
    errors: list[ValidationError]
    dirty: bool
    visited: bool
    touched: bool
    restoredWithoutSecret: NotRequired[bool]


class FormState(TypedDict):
    """``getState``'s result."""

    form: str
    seq: int
    firstResponder: str | None
    fields: list[FieldState]


class EditResult(TypedDict):
    """``setText`` and ``delete``: ``reason`` says why an edit was refused."""

    applied: bool
    reason: NotRequired[str]


class ReturnResult(TypedDict):
    action: PressedAction


class DemandResult(TypedDict):
    outcome: DemandOutcome


class FocusResult(TypedDict):
    """``focusNext``/``focusPrevious``."""

    firstResponder: str | None
    moved: bool


class ValidationError(TypedDict):
    """A broken constraint: ``rule`` as HTML's ValidityState names it, ``message`` to show."""

    rule: Literal["valueMissing", "tooShort", "tooLong", "patternMismatch"]
    message: str


class FieldErrors(TypedDict):
    field: str
    errors: list[ValidationError]


class ValidationResult(TypedDict):
    valid: bool
    errors: list[FieldErrors]


class SubmitResult(TypedDict):
    """``submit``: ``withheld`` names secure fields whose values were left out."""

    valid: bool
    values: dict[str, str]
    withheld: list[str]
    errors: list[FieldErrors]


class ServerInfo(TypedDict):
    name: str
    version: str


class Capabilities(TypedDict, total=False):
    methods: list[str]
    events: list[str]


class InitializeResult(TypedDict):
    protocolVersion: str
    serverInfo: ServerInfo
    capabilities: Capabilities


@dataclasses.dataclass(frozen=True)
class Event:
    """One notification from formd: ``name`` is its method, ``params`` its params.

    Form events carry ``form`` and ``seq``; the ``error`` notification (a failed
    notification of ours) carries ``code``, ``message``, ``line`` and maybe ``method``.
    """

    name: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def form(self) -> str | None:
        value = self.params.get("form")
        return value if isinstance(value, str) else None

    @property
    def seq(self) -> int | None:
        value = self.params.get("seq")
        return value if isinstance(value, int) else None

    @property
    def field(self) -> str | None:
        """The ``field`` param, when it is a field id."""
        value = self.params.get("field")
        return value if isinstance(value, str) else None

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.params
