"""What a unit's analysis gives (`Found`, `UnitResult`: plain data, cached as JSON) and
what is reported (`Finding`: a rule, a level, a message and a fingerprint).

Levels follow the measured benefit of the replacement (ci/benefit.py): `error` when the
programs built around the idiom ran 10x faster or more (median), `warning` from 1.5x,
`note` otherwise, and for an instance that would not be replaced (the message says why).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ci.benefit import Measured, measured_for, target_kind
from ci.rules import Rule

__all__ = ["LEVELS", "Finding", "Found", "UnitResult", "at_or_above", "level_for", "message_for"]

LEVELS = ("note", "warning", "error")
ERROR_SPEEDUP = 10.0
WARNING_SPEEDUP = 1.5


@dataclass(frozen=True)
class Found:
    """One idiom instance of a unit and what the mapping stage would do with it."""

    idiom: str
    function: str
    path: str  # absolute: the file the loop's lines are in (a header, possibly)
    first_line: int  # 0 when the IR has no line information
    last_line: int
    replaced: bool
    detail: str  # the replacement when replaced, the reason otherwise

    @property
    def lines(self) -> str:
        if self.first_line == self.last_line:
            return str(self.first_line)
        return f"{self.first_line}-{self.last_line}"


@dataclass(frozen=True)
class UnitResult:
    """A unit's instances, or the error that stopped its analysis (the compiler's message,
    with its location); `warnings`: searches cut short, so that no loss is silent."""

    source: str
    found: tuple[Found, ...] = ()
    error: str | None = None
    warnings: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "found": [asdict(f) for f in self.found],
            "error": self.error,
            "warnings": list(self.warnings),
        }

    @staticmethod
    def from_json(data: object) -> UnitResult:
        """The result stored by `to_json`; ValueError/TypeError/KeyError when it is not one."""
        if not isinstance(data, dict):
            raise TypeError("a unit result is an object")
        found = tuple(Found(**item) for item in data["found"])
        if not all(isinstance(f.first_line, int) and isinstance(f.replaced, bool) for f in found):
            raise ValueError("malformed instance")
        error, warnings = data["error"], data["warnings"]
        if not isinstance(data["source"], str) or not (error is None or isinstance(error, str)):
            raise ValueError("malformed unit result")
        if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
            raise ValueError("malformed warnings")
        return UnitResult(data["source"], found, error, tuple(warnings))


@dataclass(frozen=True)
class Finding:
    rule: Rule
    level: str
    found: Found
    message: str
    fingerprint: str


def level_for(found: Found) -> str:
    measured = _measured(found)
    if not found.replaced or not measured:
        return "note"
    if measured[0].median >= ERROR_SPEEDUP:
        return "error"
    return "warning" if measured[0].median >= WARNING_SPEEDUP else "note"


def message_for(found: Found) -> str:
    where = f"{found.idiom} in {found.function}()"
    if not found.replaced:
        return f"{where}: found, would not be replaced: {found.detail}"
    measured = _measured(found)
    benefit = "; ".join(m.describe() for m in measured) if measured else "no measured figure yet"
    return f"{where}: would be replaced by a guarded call to {found.detail}; measured: {benefit}"


def at_or_above(level: str, threshold: str) -> bool:
    return LEVELS.index(level) >= LEVELS.index(threshold)


def _measured(found: Found) -> tuple[Measured, ...]:
    return measured_for(found.idiom, target_kind(found.detail)) if found.replaced else ()
