"""What a match is: the values an idiom's variables are bound to, and reading its slots."""

from __future__ import annotations

from collections.abc import Mapping

from matcher.ir import Value

__all__ = ["Solution", "slots"]

Solution = Mapping[str, Value | None]


def slots(solution: Solution, name: str, field: str) -> list[Value | None]:
    """The values in the slots {name[0].field}, {name[1].field}, ... of a collect, None
    where a slot is unused."""
    found: list[Value | None] = []
    while (key := f"{name}[{len(found)}].{field}") in solution:
        found.append(solution[key])
    return found
