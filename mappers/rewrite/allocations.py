"""Distinct storage told apart in metadata: the unit's own globals, and heap blocks held by
pointer globals that are only ever given fresh ones.

Many legacy codes keep their arrays behind file-scope pointers filled from `malloc` (NAS's
C++ port: `static double (*lhsp)[IMAXP+1][5] = (...)malloc(...)`) and their constants in
file-scope scalars. In the original build LLVM's GlobalsAA proves that such storage is
reached only through those names, so that `lhsp[j][i][k]` and `lhsm[j][i][k]` never
overlap and a store into either leaves `dttx2` unchanged: loops over several arrays
vectorise without run-time overlap checks and keep such values in registers. The rewritten
unit hands those addresses to the runtime (launches, host accesses), so GlobalsAA gives up
on all of them, in the original copies of the functions too (mappers/rewrite/worlds.py):
NAS SP class W ran 14% slower with no launch at all (docs/acceleration.md).

What does not depend on where an address goes is said here instead, as scoped no-alias
metadata, each load or store getting the scope of the storage its address is indexed from
(a chain of `getelementptr`) and declared apart from every other scope:

- an internal global is its own storage, apart from every other global and heap block;
- a pointer global every store of which (in the source's IR) is null or a fresh allocation
  used for nothing else holds a heap block no other such global holds, and that no global
  is: a pointer loaded from it addresses that block. Where the block's address goes
  afterwards does not matter, since only accesses indexed from a load of the global are
  tagged.

Accesses through any other pointer (parameters, pointers loaded from memory) carry no
claim, so nothing is said about them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mappers.rewrite.irtext import IR_NAME, function_spans

__all__ = ["heap_pointer_globals", "scoped_allocations"]

_NAME = IR_NAME
_INTERNAL_VARIABLE = re.compile(
    rf"^(@{_NAME}) = (?:internal|private) (?:unnamed_addr |local_unnamed_addr )?"
    r"(?:global|constant) "
)
_POINTER_GLOBAL = re.compile(
    rf"^(@{_NAME}) = (?:internal|private) (?:unnamed_addr )?global ptr null, align \d+"
    r"(?:, !dbg !\d+)?$"
)
_DEFINITION = re.compile(rf"^\s*(%{_NAME}) = (.*)$")
_STORE_CELL = re.compile(rf"^\s*store ptr (%{_NAME}|null), ptr (@{_NAME}), align \d+(?:, !.*)?$")
_LOAD_POINTER = re.compile(rf"^load ptr, ptr (@{_NAME}), align \d+(?:, !.*)?$")
_GEP = re.compile(rf"^getelementptr (?:(?:inbounds|nuw|nusw) )*.*?, ptr ([%@]{_NAME})(?:, |$)")
_ALLOCATION = re.compile(
    r"^(?:call|invoke) noalias .*@(?:malloc|calloc|aligned_alloc|_Znwm|_Znam)\("
)
_LOAD = re.compile(rf"^\s*%{_NAME} = load (?:volatile )?[^,]+, ptr ([%@]{_NAME})(?:, |$)")
_STORE = re.compile(rf"^\s*store (?:volatile )?.*, ptr ([%@]{_NAME})(?:, align \d+)?(?:, !.*)?$")
_METADATA = re.compile(r"^!(\d+) = ")
_SCOPED = re.compile(r"!alias\.scope|!noalias")
_LOCAL = re.compile(rf"%{_NAME}")
_NAME_CHARACTER = re.compile(r"[-a-zA-Z$._0-9]")
_DOMAIN_NAME = "idiom: the unit's globals and the heap blocks of its pointer globals"


def scoped_allocations(final: str, source: str) -> str:
    """`final` with its loads and stores indexed from an internal global, or from a pointer
    loaded from a global that `source` shows to hold only fresh heap blocks, scoped apart;
    `final` itself when there is nothing to tell apart."""
    lines = final.split("\n")
    variables = {m.group(1) for line in lines if (m := _INTERNAL_VARIABLE.match(line))}
    heap = heap_pointer_globals(source) & variables
    storage = sorted(variables) + [f"*{name}" for name in sorted(heap)]
    if len(storage) < 2:
        return final
    first = 1 + max((int(m.group(1)) for ln in lines if (m := _METADATA.match(ln))), default=-1)
    scopes = {name: first + 1 + 3 * k for k, name in enumerate(storage)}
    tagged = False
    for _, define, end in function_spans(lines):
        start = define + 1
        for offset, owner in _accesses(lines[start:end], variables, heap):
            line = lines[start + offset]
            if not _SCOPED.search(line):
                scope = scopes[owner]
                lines[start + offset] = f"{line}, !alias.scope !{scope + 1}, !noalias !{scope + 2}"
                tagged = True
    if not tagged:
        return final
    return "\n".join(lines).rstrip("\n") + "\n" + "\n".join(_nodes(first, scopes)) + "\n"


def heap_pointer_globals(source: str) -> frozenset[str]:
    """The internal pointer globals of `source` whose every store is null or a fresh heap
    allocation used for nothing else, and which are otherwise only loaded from."""
    lines = source.split("\n")
    candidates = {m.group(1) for line in lines if (m := _POINTER_GLOBAL.match(line))}
    if not candidates:
        return frozenset()
    refused: set[str] = set()
    spans = [(define + 1, end) for _, define, end in function_spans(lines)]
    inside = {n for s, e in spans for n in range(s, e)}
    for number, line in enumerate(lines):
        if number not in inside and "@" in line and not _POINTER_GLOBAL.match(line):
            # outside any body (`define` lines included): an initializer, an alias, a use list
            refused |= {g for g in candidates if _names(line, g)}
    for start, end in spans:
        body = lines[start:end]
        definitions, uses = _read_function(body)
        for offset, line in enumerate(body):
            if "@" not in line:
                continue
            for name in (g for g in candidates - refused if _names(line, g)):
                if not _fills_or_reads(line, name, offset, definitions, uses):
                    refused.add(name)
    return frozenset(candidates - refused)


def _fills_or_reads(
    line: str, name: str, offset: int, definitions: dict[str, str], uses: dict[str, list[int]]
) -> bool:
    definition = _DEFINITION.match(line)
    if definition and (load := _LOAD_POINTER.match(definition.group(2))):
        return load.group(1) == name
    store = _STORE_CELL.match(line)
    if store is None or store.group(2) != name:
        return False  # the cell's address used otherwise, or stored somewhere
    value = store.group(1)
    return value == "null" or (
        bool(_ALLOCATION.match(definitions.get(value, ""))) and uses.get(value) == [offset]
    )


def _accesses(
    body: list[str], variables: set[str], heap: frozenset[str]
) -> Iterator[tuple[int, str]]:
    """The loads and stores of a function whose address is indexed from one of `variables`
    or from a pointer loaded from one of `heap`, with the storage they reach (`*name` for
    a heap block)."""
    definitions = _definitions(body)
    owner: dict[str, str] = {name: name for name in variables}
    for value, right in definitions.items():
        if (load := _LOAD_POINTER.match(right)) and load.group(1) in heap:
            owner[value] = f"*{load.group(1)}"
    changed = True
    while changed:  # chains of getelementptr, in whatever order the blocks are printed
        changed = False
        for value, right in definitions.items():
            gep = _GEP.match(right)
            if value not in owner and gep and gep.group(1) in owner:
                owner[value] = owner[gep.group(1)]
                changed = True
    for offset, line in enumerate(body):
        access = _LOAD.match(line) or _STORE.match(line)
        if access and access.group(1) in owner and " atomic " not in line:
            yield offset, owner[access.group(1)]


def _nodes(first: int, scopes: dict[str, int]) -> list[str]:
    nodes = [f'!{first} = distinct !{{!{first}, !"{_DOMAIN_NAME}"}}']
    every = [f"!{scope}" for scope in scopes.values()]
    for name, scope in scopes.items():
        label = name.replace('"', "").replace("\\", "")
        others = ", ".join(s for s in every if s != f"!{scope}")
        nodes += [
            f'!{scope} = distinct !{{!{scope}, !{first}, !"{label}"}}',
            f"!{scope + 1} = !{{!{scope}}}",
            f"!{scope + 2} = !{{{others}}}",
        ]
    return nodes


def _definitions(body: list[str]) -> dict[str, str]:
    """Each value's definition: its right-hand side."""
    return {m.group(1): m.group(2) for line in body if (m := _DEFINITION.match(line))}


def _read_function(body: list[str]) -> tuple[dict[str, str], dict[str, list[int]]]:
    """Each value's definition, and the lines using each value."""
    definitions: dict[str, str] = {}
    uses: dict[str, list[int]] = {}
    for offset, line in enumerate(body):
        definition = _DEFINITION.match(line)
        if definition:
            definitions[definition.group(1)] = definition.group(2)
        operands = line[definition.end(1) :] if definition else line
        for name in set(_LOCAL.findall(operands)):
            uses.setdefault(name, []).append(offset)
    return definitions, uses


def _names(line: str, name: str) -> bool:
    """Whether `line` refers to the global `name` (not to a longer name it begins)."""
    at = line.find(name)
    while at >= 0:
        after = line[at + len(name) : at + len(name) + 1]
        if not _NAME_CHARACTER.match(after):
            return True
        at = line.find(name, at + 1)
    return False
