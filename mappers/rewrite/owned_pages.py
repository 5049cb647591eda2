"""Large arrays defined in a unit of a program that keeps arrays on the device, given pages of
their own.

The runtime protects the pages of a device copy so that a host access the compiler did not
place still finds the device's bytes (docs/acceleration.md, the safety net). The first and
last pages of a copy are protected only where nothing but the program's own code can touch
them: a block of its own from `malloc`, which the runtime recognises by its header. A
static array shares its edge pages with its neighbours in the data segment, so each launch
writing it compared and copied its edges back and waited for its kernel
(`corpus/stencil_2d5_global.c`: 31.6 us of host time a sweep on the H200 machine, against
11-12 us for the sweeps of arrays from `malloc`).

So each large array defined here (`_LARGE` bytes or more, not constant, not thread-local,
in no section or comdat of its own, with a linkage that makes this unit its only
definition) is laid out inside a page-aligned wrapper of whole pages:

    @u.idiom.pages = internal global <{ [K x i8], [N x double], [P x i8] }> ..., align 4096
    @u = dso_local alias [N x double], getelementptr inbounds (<{ ... }>, ptr @u.idiom.pages,
                                                             i32 0, i32 1)

and a constructor of the unit registers each wrapper with `idiom_private_pages`. Nothing
else lives on those pages, so the runtime protects their edges too and the launches return
before their kernels. `@u` keeps its name, linkage and every use; only its address moves,
by `K` bytes into its first page: a different `K` for each array of a unit (a multiple of 64
bytes), so that arrays walked in step do not all start in the same cache sets.
"""

from __future__ import annotations

import re

from mappers.rewrite.alignment import array_bytes
from mappers.rewrite.irtext import verify

__all__ = ["REGISTER", "owned_pages"]

REGISTER = "idiom_private_pages"
_PAGE = 4096
_LARGE = 16 * 1024
_LINE = 64
_CONSTRUCTOR = "idiom.owned_pages"
# `@u = <words> global <array type> <initializer>, align A`; the words are checked below.
_DEFINITION = re.compile(r"^@([-\w.$]+) = ((?:[a-z_]+ )*)global (\[[^=]*?\]) (.*), align (\d+)$")
_KEPT_WORDS = frozenset(
    {"private", "internal", "dso_local", "hidden", "protected", "default", "unnamed_addr",
     "local_unnamed_addr"}
)  # fmt: skip
_CTORS = re.compile(
    r"^@llvm\.global_ctors = appending global \[(\d+) x \{ i32, ptr, ptr \}\] \[(.*)\]$"
)


def owned_pages(text: str) -> str:
    """`text` (a unit's IR) with its large arrays in wrappers of their own pages, registered
    by a constructor; `text` itself where none qualifies or the result does not verify."""
    lines: list[str] = []
    registered: list[tuple[str, int]] = []
    for line in text.split("\n"):
        wrapped = _wrapped(line, len(registered))
        if wrapped is None:
            lines.append(line)
            continue
        wrapper, alias, registration = wrapped
        lines += [wrapper, alias]
        registered.append(registration)
    if not registered:
        return text
    result = _with_constructor(lines, registered)
    return result if verify(result) is None else text


def _wrapped(line: str, ordinal: int) -> tuple[str, str, tuple[str, int]] | None:
    """The wrapper and alias lines for definition `line`, and what to register, or None."""
    if not line.startswith("@"):
        return None
    match = _DEFINITION.match(line)
    if match is None:
        return None
    name, words, array, initializer, alignment = match.groups()
    size = array_bytes(array)
    align = int(alignment)
    if (
        size is None
        or size < _LARGE
        or not set(words.split()) <= _KEPT_WORDS
        or not (initializer == "zeroinitializer" or initializer.startswith("["))
        or re.search(r"\b(?:section|comdat|partition)\b", initializer)
        or align > _PAGE
    ):
        return None
    step = max(align, _LINE)
    before = (ordinal * step) % _PAGE
    after = -(before + size) % _PAGE
    layout = f"<{{ [{before} x i8], {array}, [{after} x i8] }}>"
    value = "zeroinitializer"
    if initializer != "zeroinitializer":
        padding = "x i8] zeroinitializer"
        value = f"<{{ [{before} {padding}, {array} {initializer}, [{after} {padding} }}>"
    wrapper = f"@{name}.idiom.pages"
    field = f"getelementptr inbounds ({layout}, ptr {wrapper}, i32 0, i32 1)"
    return (
        f"{wrapper} = internal global {layout} {value}, align {_PAGE}",
        f"@{name} = {words}alias {array}, {field}",
        (wrapper, before + size + after),
    )


def _with_constructor(lines: list[str], registered: list[tuple[str, int]]) -> str:
    """`lines` with a constructor registering each wrapper, run before `main`."""
    calls = [f"  call void @{REGISTER}(ptr {wrapper}, i64 {size})" for wrapper, size in registered]
    entry = f'{{ i32, ptr, ptr }} {{ i32 65535, ptr @"{_CONSTRUCTOR}", ptr null }}'
    for number, line in enumerate(lines):
        found = _CTORS.match(line)
        if found is not None:
            count, entries = found.groups()
            lines[number] = (
                f"@llvm.global_ctors = appending global [{int(count) + 1} x {{ i32, ptr, ptr }}] "
                f"[{entries}, {entry}]"
            )
            break
    else:
        lines.append(f"@llvm.global_ctors = appending global [1 x {{ i32, ptr, ptr }}] [{entry}]")
    lines += [
        "",
        f"declare void @{REGISTER}(ptr, i64)",
        "",
        f'define internal void @"{_CONSTRUCTOR}"() {{',
        *calls,
        "  ret void",
        "}",
    ]
    return "\n".join(lines)
