"""Functions the tool left unchanged are compiled from the source's own IR.

The matcher reads canonical IR (matcher/frontend.py): the source's IR after a short pass
pipeline. Compiled again at -O2, that pipeline's early rewrites can cost speed: its
instcombine turns `(lo + hi) / 2` into a signed division before anything has proved the sum
non-negative, and -O2 then cannot use the plain shift it finds on the source
(corpus/nm_hist_search.c: 42% more instructions in functions no idiom touched). So a unit is
assembled from two printings of the same source: the functions the rewriter or the
residency pass changed come from the rewritten canonical IR; every other function comes
from `clang-22 -O2 -Xclang -disable-llvm-passes` (`frontend.source_ir`), the IR the
original build optimises, and so compiles as it does there. A function counts as unchanged
when its lines are those of the canonical IR, attribute-group and metadata numbers aside
(every call, block or instruction the tool adds shows), and the unit's functions it calls
are unchanged too. The source's functions that the
canonical pipeline inlined everywhere and dropped come along when a taken function calls
them, with the declarations, globals, types, comdats, attribute groups and metadata they
name (the last two renumbered after the unit's own). Accesses through pointer globals that
hold heap blocks of their own are then told apart in metadata, as GlobalsAA tells them
apart in the original build (mappers/rewrite/allocations.py). Should LLVM's verifier reject
the assembled unit, it is tried without that metadata, then the rewritten unit is used whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from mappers.rewrite import worlds
from mappers.rewrite.allocations import scoped_allocations
from mappers.rewrite.irtext import IR_NAME, function_spans, verify

__all__ = ["spliced"]

_NAME = IR_NAME
_DECLARE = re.compile(rf"declare [^@]*@({_NAME})\(")
_GLOBAL = re.compile(rf"(@{_NAME}) = ")
_COMDAT = re.compile(rf"(\${_NAME}) = comdat")
_TYPE = re.compile(rf"(%{_NAME}) = type ")
_ATTRIBUTES = re.compile(r"attributes #(\d+) = ")
_METADATA = re.compile(r"!(\d+) = ")
_REFERENCE = re.compile(rf"@({_NAME})")
# An attribute group or metadata number where it is used: `#3`, `!dbg !17`, `!{!4, !5}`.
_NUMBER = re.compile(r"(?<![-\w$.])([#!])(\d+)\b")


@dataclass
class _Unit:
    """A module's text, cut into the pieces a splice moves."""

    lines: list[str]
    functions: dict[str, tuple[int, int]] = field(default_factory=dict)  # first, last line
    declarations: dict[str, str] = field(default_factory=dict)
    globals_: dict[str, str] = field(default_factory=dict)
    comdats: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    attributes: dict[int, str] = field(default_factory=dict)
    metadata: dict[int, str] = field(default_factory=dict)

    def body(self, name: str) -> list[str]:
        first, last = self.functions[name]
        return self.lines[first : last + 1]


def spliced(final: str, canonical: str, source: str, *, original_copies: bool = True) -> str:
    """`final` (the rewritten canonical IR of a unit) with each function it has unchanged
    from `canonical` taken from `source` instead, and each changed function that launches
    only OpenCL kernels doubled with the source's copy (mappers/rewrite/worlds.py) unless
    `original_copies` is off, the accesses through pointer globals holding blocks of their
    own scoped apart; `final` itself if there is nothing to take, or if no result
    verifies."""
    mine, before, theirs = _cut(final), _cut(canonical), _cut(source)
    unchanged = {
        name
        for name in mine.functions
        if name in theirs.functions
        and name in before.functions
        and _masked(mine.body(name)) == _masked(before.body(name))
    }
    unchanged = _calling_only_unchanged(unchanged, mine, theirs)
    doubled = _doubled(mine, theirs, unchanged) if original_copies else {}
    for attempt in (doubled, {}):  # doubling must never cost the splice itself
        if not unchanged and not attempt:
            break
        taken = _closure(unchanged | attempt.keys(), mine, theirs) - attempt.keys()
        text = _assembled(mine, theirs, taken, attempt, _originals(set(attempt), mine, theirs))
        for candidate in dict.fromkeys((scoped_allocations(text, source), text)):
            if verify(candidate) is None:
                return candidate
    return final


def _doubled(mine: _Unit, theirs: _Unit, unchanged: set[str]) -> dict[str, worlds.Definition]:
    """The changed functions to build twice, with their rewritten `define` lines: defined by
    the source with the same interface, and making no BLAS call (through the guards the tool
    added to them)."""
    added = mine.functions.keys() - theirs.functions.keys()
    doubled: dict[str, worlds.Definition] = {}
    for name in mine.functions.keys() & theirs.functions.keys() - unchanged:
        ours = worlds.parse_definition(mine.body(name)[0], name)
        source = worlds.parse_definition(theirs.body(name)[0], name)
        if ours is None or source is None or ours.types() != source.types():
            continue
        if ours.return_type == source.return_type and not _calls_blas(name, mine, added):
            doubled[name] = ours
    return doubled


def _originals(doubled: set[str], mine: _Unit, theirs: _Unit) -> set[str]:
    """The functions with an original copy: the doubled ones, and the source's functions the
    canonical unit dropped (inlined everywhere) that call one, so that an original copy never
    calls back into a dispatcher."""
    originals = set(doubled)
    dropped = theirs.functions.keys() - mine.functions.keys()
    grown = True
    while grown:
        calling = {
            name
            for name in dropped - originals
            if any(callee in originals for callee in _references(theirs.body(name)))
        }
        originals |= calling
        grown = bool(calling)
    return originals


def _calls_blas(name: str, mine: _Unit, added: set[str]) -> bool:
    seen, pending = {name}, [name]
    while pending:
        for callee in _references(mine.body(pending.pop())):
            if callee in worlds.BLAS_ENTRIES:
                return True
            if callee in added and callee not in seen:
                seen.add(callee)
                pending.append(callee)
    return False


def _cut(text: str) -> _Unit:
    unit = _Unit(text.splitlines())
    tables: list[tuple[re.Pattern[str], dict[str, str]]] = [
        (_DECLARE, unit.declarations),
        (_GLOBAL, unit.globals_),
        (_COMDAT, unit.comdats),
        (_TYPE, unit.types),
    ]
    inside: set[int] = set()
    for name, first, last in function_spans(unit.lines):
        unit.functions[name] = (first, last)
        inside.update(range(first, last + 1))
    for number, line in enumerate(unit.lines):
        if number in inside:
            continue
        if group := _ATTRIBUTES.match(line):
            unit.attributes[int(group.group(1))] = line
        elif node := _METADATA.match(line):
            unit.metadata[int(node.group(1))] = line
        for pattern, table in tables:
            if found := pattern.match(line):
                table[found.group(1)] = line
                break
    return unit


def _masked(lines: list[str]) -> list[str]:
    """The lines with attribute-group and metadata numbers blanked: a reprinted module
    numbers them afresh."""
    return [_NUMBER.sub(r"\1", line) for line in lines]


def _calling_only_unchanged(unchanged: set[str], mine: _Unit, theirs: _Unit) -> set[str]:
    """The unchanged functions whose calls of the unit's functions, in the source, all go
    to unchanged ones. A callee the tool changed may be changed only because the canonical
    pipeline had inlined it into this caller: with no call left, the residency pass must
    assume it is entered with device copies and guards its accesses (corpus/
    nm_stencil_impure.c: `note_clamp`, inlined into `sharpen_clamp`). The caller's canonical
    form has the callee inlined and unguarded; the source's would call the guarded copy."""
    kept = set(unchanged)
    dropped = True
    while dropped:
        calling_changed = {
            name
            for name in kept
            if any(c in mine.functions and c not in kept for c in _references(theirs.body(name)))
        }
        kept -= calling_changed
        dropped = bool(calling_changed)
    return kept


def _closure(unchanged: set[str], mine: _Unit, theirs: _Unit) -> set[str]:
    """The source's functions to take: the unchanged ones, and those they call that the
    canonical unit no longer defines."""
    taken = set(unchanged)
    pending = list(unchanged)
    while pending:
        for name in _references(theirs.body(pending.pop())):
            if name in theirs.functions and name not in mine.functions and name not in taken:
                taken.add(name)
                pending.append(name)
    return taken


def _references(lines: list[str]) -> Iterator[str]:
    for line in lines:
        yield from (m.group(1) for m in _REFERENCE.finditer(line))


def _assembled(
    mine: _Unit,
    theirs: _Unit,
    taken: set[str],
    doubled: dict[str, worlds.Definition],
    originals: set[str],
) -> str:
    """`mine` with the taken functions' definitions from `theirs`, the doubled ones built
    twice, the original copies, and what they name."""
    renumber = _Renumbering(
        attributes=max(mine.attributes, default=-1) + 1,
        metadata=max(mine.metadata, default=-1) + 1,
    )
    fresh = renumber.attributes + max(theirs.attributes, default=-1) + 1
    groups: dict[int, int] = {}  # mine's group of a doubled function: its stripped copy
    replaced_at = {
        mine.functions[name][0]: name for name in taken | doubled.keys() if name in mine.functions
    }
    skipped = {number for name in replaced_at.values() for number in _span(mine.functions[name])}
    host_only = worlds.host_only_functions(
        {name: mine.body(name) for name in doubled}, {name: theirs.body(name) for name in doubled}
    )
    out: list[str] = []
    for number, line in enumerate(mine.lines):
        if number in replaced_at and (name := replaced_at[number]) in doubled:
            definition = doubled[name]
            group = definition.group
            stripped = None if group is None else groups.setdefault(group, fresh + len(groups))
            out.extend(worlds.rewritten_copy(mine.body(name), name, stripped))
            dispatcher = worlds.dispatcher(definition, stripped, host_only=name in host_only)
            out.extend(["", *dispatcher, ""])
            out.extend(worlds.original_copy(renumber(theirs.body(name)), name, originals))
        elif number in replaced_at:
            out.extend(renumber(theirs.body(replaced_at[number])))
        elif number not in skipped and not _declares_one_of(line, taken):
            out.append(line)
    for name in sorted(taken - mine.functions.keys()):
        out.extend(["", *renumber(theirs.body(name))])
    for name in sorted(originals - doubled.keys()):
        out.extend(["", *worlds.original_copy(renumber(theirs.body(name)), name, originals)])
    named = {n for name in taken | originals for n in _references(theirs.body(name))}
    defined = mine.functions.keys() | taken
    out.extend(
        renumber([line])[0]
        for name, line in theirs.declarations.items()
        if name in named and name not in defined and name not in mine.declarations
    )
    out.extend(renumber([ln for n, ln in theirs.globals_.items() if n not in mine.globals_]))
    out.extend(line for n, line in theirs.comdats.items() if n not in mine.comdats)
    # A type must be defined before an instruction needs its size: ahead of every function.
    first = next((i for i, line in enumerate(out) if line.startswith(("%", "@", "define"))), 0)
    out[first:first] = [line for n, line in theirs.types.items() if n not in mine.types]
    out.extend(renumber(list(theirs.attributes.values())))
    out.extend(renumber(list(theirs.metadata.values())))
    out.extend(worlds.stripped_attributes(mine.attributes[old], new) for old, new in groups.items())
    if doubled:
        out.extend(["", *worlds.WORLD_DEFINITIONS])
    if host_only and f"@{worlds.DEVICE_ENTRIES}" not in mine.globals_:
        out.append(f"@{worlds.DEVICE_ENTRIES} = external global i32")
    return "\n".join(out) + "\n"


def _span(lines: tuple[int, int]) -> range:
    return range(lines[0], lines[1] + 1)


def _declares_one_of(line: str, names: set[str]) -> bool:
    found = _DECLARE.match(line)
    return found is not None and found.group(1) in names


@dataclass(frozen=True)
class _Renumbering:
    """Moves the source's attribute groups and metadata nodes past the unit's own."""

    attributes: int
    metadata: int

    def __call__(self, lines: list[str]) -> list[str]:
        return [self._line(line) for line in lines]

    def _line(self, line: str) -> str:
        # Quoted text (strings, names) is left alone: only what lies between quotes moves.
        parts = line.split('"')
        parts[::2] = [_NUMBER.sub(self._number, part) for part in parts[::2]]
        return '"'.join(parts)

    def _number(self, found: re.Match[str]) -> str:
        sigil, value = found.group(1), int(found.group(2))
        return f"{sigil}{value + (self.attributes if sigil == '#' else self.metadata)}"
