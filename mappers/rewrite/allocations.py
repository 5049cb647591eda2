"""Pointer globals that hold heap blocks of their own: their accesses told apart in metadata.

Many legacy codes keep their arrays behind file-scope pointers filled once from `malloc`
(NAS's C++ port: `static double (*lhsp)[IMAXP+1][5] = (...)malloc(...)`). In the
original build LLVM's GlobalsAA proves that such a global is only ever assigned a fresh
allocation whose address goes nowhere else, so that `lhsp[j][i][k]` and `lhsm[j][i][k]`
never overlap: loops over several of them vectorise without run-time overlap checks and
keep values in registers across stores. The rewritten unit passes those pointers to the
runtime, so GlobalsAA gives up on every one of them, in the original copies of the
functions too (mappers/rewrite/worlds.py): NAS SP class W ran 14% slower with no launch
at all (docs/acceleration.md).

The fact itself survives the rewrite: the runtime reads and writes the blocks through the
pointers it is given but never makes one global point into another's block. So it is
proved here on the source's IR, by GlobalsAA's own test made stricter (every store into
the global is a null or a fresh allocation used for nothing else; every pointer loaded
from it is only indexed, loaded from, stored to, compared with null, or freed), and
written back as scoped no-alias metadata: each load or store whose address is a chain of
`getelementptr` on a pointer loaded from such a global gets that global's scope, and is
declared apart from the scopes of the others. Accesses through any other pointer carry no
claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["scoped_allocations"]

_NAME = r'(?:"[^"]*"|[-a-zA-Z$._0-9]+)'
_LOCAL = re.compile(rf"%{_NAME}")
_DEFINE = re.compile(rf"define [^@]*@({_NAME})\(")
_POINTER_GLOBAL = re.compile(
    rf"^(@{_NAME}) = (?:internal|private) (?:unnamed_addr )?global ptr null, align \d+"
    r"(?:, !dbg !\d+)?$"
)
_DEFINITION = re.compile(rf"^\s*(%{_NAME}) = (.*)$")
_LOAD_GLOBAL = re.compile(rf"^load ptr, ptr (@{_NAME}), align \d+(?:, !.*)?$")
_GEP = re.compile(rf"^getelementptr (?:(?:inbounds|nuw|nusw) )*.*?, ptr (%{_NAME})(?:, |$)")
_ALLOCATION = re.compile(
    r"^(?:call|invoke) noalias .*@(?:malloc|calloc|aligned_alloc|_Znwm|_Znam)\("
)
_STORE_INTO = re.compile(rf"^\s*store ptr (%{_NAME}|null), ptr (@{_NAME}), align \d+(?:, !.*)?$")
_LOAD_FROM = re.compile(rf"^\s*%{_NAME} = load (?:volatile )?[^,]+, ptr (%{_NAME})(?:, |$)")
_STORE_TO = re.compile(rf"^\s*store (?:volatile )?.*, ptr (%{_NAME})(?:, align \d+)?(?:, !.*)?$")
_NULL_TEST = re.compile(rf"^\s*%{_NAME} = icmp (?:eq|ne) ptr (%{_NAME}), null$")
# Calls that neither keep a pointer nor call back into the unit.
_HARMLESS_CALL = re.compile(
    r"^\s*(?:tail )?call void @(?:free|_ZdlPv|_ZdaPv|_ZdlPvm|_ZdaPvm"
    r"|llvm\.mem(?:set|cpy|move)\.[\w.]+)\("
)
_METADATA = re.compile(r"^!(\d+) = ")
_SCOPED = re.compile(r"!alias\.scope|!noalias")
_DOMAIN_NAME = "idiom: pointer globals holding blocks of their own"


@dataclass(frozen=True)
class _Function:
    lines: list[str]
    definitions: dict[str, str]  # value name: the right-hand side of its definition
    uses: dict[str, list[int]]  # value name: the lines (indices in `lines`) using it


def scoped_allocations(final: str, source: str) -> str:
    """`final` with the loads and stores through pointer globals that `source` proves to
    hold heap blocks of their own tagged apart; `final` itself when there are not two such
    globals."""
    owned = private_allocations(source)
    if len(owned) < 2:
        return final
    lines = final.split("\n")
    first = 1 + max((int(m.group(1)) for ln in lines if (m := _METADATA.match(ln))), default=-1)
    scopes = {name: first + 1 + 3 * k for k, name in enumerate(sorted(owned))}
    tagged = False
    for start, end in _function_spans(lines):
        function = _read_function(lines[start:end])
        for offset, owner in _accesses(function, owned):
            line = lines[start + offset]
            if not _SCOPED.search(line):
                scope = scopes[owner]
                lines[start + offset] = f"{line}, !alias.scope !{scope + 1}, !noalias !{scope + 2}"
                tagged = True
    if not tagged:
        return final
    return "\n".join(lines).rstrip("\n") + "\n" + "\n".join(_nodes(first, scopes)) + "\n"


def private_allocations(source: str) -> frozenset[str]:
    """The pointer globals of `source` that only ever hold null or a fresh heap block whose
    address goes nowhere else."""
    lines = source.split("\n")
    candidates = {m.group(1) for line in lines if (m := _POINTER_GLOBAL.match(line))}
    if not candidates:
        return frozenset()
    refused: set[str] = set()
    functions = [(_read_function(lines[s:e])) for s, e in _function_spans(lines)]
    inside = {n for s, e in _function_spans(lines) for n in range(s, e)}
    for number, line in enumerate(lines):
        if number not in inside and not _POINTER_GLOBAL.match(line):
            refused |= {g for g in candidates if _names(line, g)}
    for function in functions:
        for offset, line in enumerate(function.lines):
            for name in (g for g in candidates - refused if _names(line, g)):
                if not _proper_use(function, offset, name):
                    refused.add(name)
    return frozenset(candidates - refused)


def _proper_use(function: _Function, offset: int, name: str) -> bool:
    line = function.lines[offset]
    if store := _STORE_INTO.match(line):
        value = store.group(1)
        if store.group(2) != name:
            return False  # the global's address stored
        return value == "null" or (
            bool(_ALLOCATION.match(function.definitions.get(value, "")))
            and function.uses.get(value, []) == [offset]
        )
    definition = _DEFINITION.match(line)
    if definition is None or not (load := _LOAD_GLOBAL.match(definition.group(2))):
        return False
    return load.group(1) == name and _kept_to_itself(function, definition.group(1), set())


def _kept_to_itself(function: _Function, value: str, seen: set[str]) -> bool:
    """Whether every use of the pointer `value` (and of every pointer indexed from it) only
    addresses memory: no copy of the address leaves the function's arithmetic."""
    seen.add(value)
    for offset in function.uses.get(value, []):
        line = function.lines[offset]
        definition = _DEFINITION.match(line)
        if definition and (gep := _GEP.match(definition.group(2))) and gep.group(1) == value:
            if _occurrences(line, value) != 1:
                return False  # also an index
            derived = definition.group(1)
            if derived not in seen and not _kept_to_itself(function, derived, seen):
                return False
            continue
        if not _addresses_only(line, value):
            return False
    return True


def _addresses_only(line: str, value: str) -> bool:
    load = _LOAD_FROM.match(line)
    store = _STORE_TO.match(line)
    test = _NULL_TEST.match(line)
    if (load and load.group(1) == value) or (test and test.group(1) == value):
        return _occurrences(line, value) == 1
    if store and store.group(1) == value:
        return _occurrences(line, value) == 1  # not the stored value as well
    return bool(_HARMLESS_CALL.match(line))


def _accesses(function: _Function, owned: frozenset[str]) -> Iterator[tuple[int, str]]:
    """The loads and stores of `function` through a pointer indexed from one loaded from
    an owned global, with that global."""
    owner: dict[str, str] = {}
    for value, right in function.definitions.items():
        if (load := _LOAD_GLOBAL.match(right)) and load.group(1) in owned:
            owner[value] = load.group(1)
    changed = True
    while changed:  # chains of getelementptr, in whatever order the blocks are printed
        changed = False
        for value, right in function.definitions.items():
            gep = _GEP.match(right)
            if value not in owner and gep and gep.group(1) in owner:
                owner[value] = owner[gep.group(1)]
                changed = True
    for offset, line in enumerate(function.lines):
        access = _LOAD_FROM.match(line) or _STORE_TO.match(line)
        if access and access.group(1) in owner and " atomic " not in line:
            yield offset, owner[access.group(1)]


def _nodes(first: int, scopes: dict[str, int]) -> list[str]:
    nodes = [f'!{first} = distinct !{{!{first}, !"{_DOMAIN_NAME}"}}']
    for name, scope in scopes.items():
        label = name.replace('"', "")
        others = ", ".join(f"!{s}" for n, s in scopes.items() if n != name)
        nodes += [
            f'!{scope} = distinct !{{!{scope}, !{first}, !"{label}"}}',
            f"!{scope + 1} = !{{!{scope}}}",
            f"!{scope + 2} = !{{{others}}}",
        ]
    return nodes


def _function_spans(lines: list[str]) -> Iterator[tuple[int, int]]:
    """(first line after `define ... {`, the closing `}`) of each function."""
    start: int | None = None
    for number, line in enumerate(lines):
        if start is None and _DEFINE.match(line) and line.rstrip().endswith("{"):
            start = number + 1
        elif start is not None and line == "}":
            yield start, number
            start = None


def _read_function(lines: list[str]) -> _Function:
    definitions: dict[str, str] = {}
    uses: dict[str, list[int]] = {}
    for offset, line in enumerate(lines):
        definition = _DEFINITION.match(line)
        if definition:
            definitions[definition.group(1)] = definition.group(2)
        operands = line[definition.end(1) :] if definition else line
        for name in set(_LOCAL.findall(operands)):
            uses.setdefault(name, []).append(offset)
    return _Function(lines, definitions, uses)


def _occurrences(line: str, value: str) -> int:
    return _LOCAL.findall(line).count(value)


def _names(line: str, name: str) -> bool:
    """Whether `line` refers to the global `name` (not to a longer name it begins)."""
    at = line.find(name)
    while at >= 0:
        after = line[at + len(name) : at + len(name) + 1]
        if not re.match(r"[-a-zA-Z$._0-9]", after):
            return True
        at = line.find(name, at + 1)
    return False
