"""The bytes a loop of host code touches, known before it runs: for targeted host accesses.

A host loop between two launches (`x[i] = y[i] / norm` in a power iteration) needs the
device's results for the arrays it reads and writes, but not the others. A plain
`idiom_host_access()` before it would forget every device copy, a sparse matrix included,
which the next launch would upload again. When every memory access of the loop is
`base[i]` (or one fixed address), for the loop's counter i counting up by one from `start`
while it stays below `end`, with the bases, `start` and `end` fixed before the loop, the
loop touches [base + start * size, base + max(end, start + 1) * size) of each base (a
rotated loop runs at least once): one `idiom_host_access_at` per access, in the preheader,
covers it. Anything else (a nested loop, a call, another address) gets no ranges, and the
caller falls back to the global form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mappers.irtext import operand
from matcher.analysis import Loop
from matcher.ir import Value

__all__ = ["Counter", "HostRange", "emit_ranges", "loop_ranges"]

# Predicates under which the latch goes on looping (compared: the counter's next value and
# the bound, in that order), and those under which it leaves.
_GOES_ON = frozenset({"slt", "ult", "ne"})
_LEAVES = frozenset({"sge", "uge", "eq"})
_CASTS = frozenset({"sext", "zext"})


@dataclass(frozen=True)
class Counter:
    """i = start, start + 1, ... while the next value is below `end` (`past`: 1 when the
    latch compares i itself, so that i reaches `end` too)."""

    phi: Value
    start: Value
    end: Value
    past: int
    unsigned: bool  # the latch compares without sign (ult, uge)


@dataclass(frozen=True)
class HostRange:
    """One access: `base[i]` (`element` bytes apart, extended by `cast` to i64), or the fixed
    address `base` when `element` is 0; `size` bytes each."""

    base: Value
    element: int
    size: int
    cast: str | None


def loop_ranges(loop: Loop, accesses: Sequence[tuple[Value, int]]) -> list[HostRange] | None:
    """The ranges of `accesses` (address, bytes), every memory access of `loop` that needs
    the host's memory; None when one cannot be bounded before the loop."""
    counter = find_counter(loop)
    if counter is None or loop.children:
        return None
    ranges = []
    for address, size in accesses:
        found = _range(loop, counter, address, size)
        if found is None:
            return None
        ranges.append(found)
    return ranges


def find_counter(loop: Loop) -> Counter | None:
    if len(loop.latches) != 1:
        return None
    latch = loop.latches[0]
    branch = latch.terminator
    if branch.opcode != "br" or len(branch.operands) != 1 or len(latch.successors) != 2:
        return None
    compare = branch.operands[0]
    if compare.opcode != "icmp" or len(compare.operands) != 2:
        return None
    goes_on = latch.successors[0] is loop.header  # br i1 %c, label %true, label %false
    predicate = compare.predicate or ""
    if predicate not in (_GOES_ON if goes_on else _LEAVES):
        return None
    compared, end = compare.operands
    if _defined_inside(loop, end):
        return None
    for phi in (i for i in loop.header.instructions if i.opcode == "phi"):
        step = _step_of(loop, phi)
        if step is None or compared not in (phi, step):
            continue
        start = next((v for v, b in phi.incoming if b not in loop.blocks), None)
        if start is None or len(phi.incoming) != 2:
            return None
        return Counter(phi, start, end, 1 if compared is phi else 0, predicate in ("ult", "uge"))
    return None


def _step_of(loop: Loop, phi: Value) -> Value | None:
    """The counter's next value, when it is `phi + 1` from inside the loop."""
    for value, block in phi.incoming:
        if block not in loop.blocks:
            continue
        if value.opcode == "add" and len(value.operands) == 2:
            left, right = value.operands
            if left is phi and right.constant == 1:
                return value
    return None


def _range(loop: Loop, counter: Counter, address: Value, size: int) -> HostRange | None:
    if not _defined_inside(loop, address):
        return HostRange(address, 0, size, None)
    if address.opcode != "getelementptr" or len(address.operands) != 2:
        return None
    base, index = address.operands
    if _defined_inside(loop, base) or address.pointee_size is None:
        return None
    cast = None
    if index.opcode in _CASTS and index.operands and index.operands[0] is counter.phi:
        cast = index.opcode
    elif index is not counter.phi or counter.phi.type != "i64":
        return None
    return HostRange(base, address.pointee_size, size, cast)


def _defined_inside(loop: Loop, value: Value) -> bool:
    return value.is_instruction and value.block in loop.blocks


def emit_ranges(counter: Counter, ranges: Sequence[HostRange], prefix: str) -> list[str]:
    """Instructions computing each range and calling idiom_host_access_at (names from
    `prefix`, unique in the function)."""
    lines: list[str] = []
    names = iter(f"%{prefix}.{k}" for k in range(10_000))

    def emit(text: str) -> str:
        name = next(names)
        lines.append(f"{name} = {text}")
        return name

    def wide(value: Value, cast: str | None) -> str:
        ref = operand(value).ref
        return (
            ref
            if cast is None or value.type == "i64"
            else emit(f"{cast} {value.type} {ref} to i64")
        )

    for found in ranges:
        base = operand(found.base).ref
        if found.element == 0:
            lines.append(f"call void @idiom_host_access_at(ptr {base}, i64 {found.size})")
            continue
        start, end = wide(counter.start, found.cast), wide(counter.end, found.cast)
        stop = emit(f"add i64 {end}, {counter.past}")  # one past the last i, if it is above
        least = emit(f"add i64 {start}, 1")  # a rotated loop runs at least once
        below = emit(f"icmp {'ult' if counter.unsigned else 'slt'} i64 {stop}, {least}")
        stop = emit(f"select i1 {below}, i64 {least}, i64 {stop}")
        count = emit(f"sub i64 {stop}, {start}")
        before_last = emit(f"mul i64 {count}, {found.element}")
        size = emit(f"add i64 {before_last}, {found.size - found.element}")
        offset = emit(f"mul i64 {start}, {found.element}")
        low = emit(f"getelementptr i8, ptr {base}, i64 {offset}")
        lines.append(f"call void @idiom_host_access_at(ptr {low}, i64 {size})")
    return lines
