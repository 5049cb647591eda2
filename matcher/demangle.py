"""Source names of C++ functions: `_ZNK3Acc3sumEv` becomes `Acc::sum`.

Line-table debug info names a method `sum` without its class, so mangled names are
demangled with llvm-cxxfilt-22 (one process per module) and reduced to the qualified
name: no return type, no parameter list, no trailing qualifiers.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable

from matcher.frontend import find_tool

__all__ = ["demangle_names", "qualified_name"]

_TRAILING = (" const", " volatile", " &&", " &")


def demangle_names(names: Iterable[str]) -> dict[str, str]:
    """Map each Itanium-mangled name to its qualified source name (others are left out)."""
    mangled = sorted({name for name in names if name.startswith("_Z")})
    if not mangled:
        return {}
    try:
        result = subprocess.run(
            [find_tool("llvm-cxxfilt")],
            input="\n".join(mangled),
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return {}  # names stay mangled; nothing else depends on demangling
    lines = result.stdout.splitlines()
    if len(lines) != len(mangled):
        return {}
    return {name: qualified_name(text) for name, text in zip(mangled, lines, strict=True)}


def qualified_name(demangled: str) -> str:
    """`double* ns::f<int>(int) const` -> `ns::f<int>`; unbalanced text comes back as is."""
    text = demangled.strip()
    stripped = True
    while stripped:
        stripped = False
        for suffix in _TRAILING:
            if text.endswith(suffix):
                text = text[: -len(suffix)]
                stripped = True
    if not text.endswith(")"):
        return text
    opening = _matching_open(text)
    if opening is None:
        return demangled
    name = text[:opening]
    split = _last_top_level_space(name)
    return name[split + 1 :] if split is not None else name


def _matching_open(text: str) -> int | None:
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        if text[index] == ")":
            depth += 1
        elif text[index] == "(":
            depth -= 1
            if depth == 0:
                return index
    return None


def _last_top_level_space(text: str) -> int | None:
    depth = 0
    found = None
    for index, char in enumerate(text):
        if char in "<(":
            depth += 1
        elif char in ">)":
            depth -= 1
        elif char == " " and depth == 0:
            found = index
    return found
