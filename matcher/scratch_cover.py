"""The bytes a callee's stores through one pointer write on every path: the coverage
half of matcher/scratch.py's proof that a call fills a scratch array completely.

A store counts only if it post-dominates the callee's entry (it runs on every path) and
its address is the pointer plus constants plus counters times strides. Each counter must
be the phi of a loop around the store that runs the store on every trip, leaves only from
its latch and counts from a constant by a constant to a constant bound. The offsets are
then computed by running those counters (at most `_TRIPS` trips a loop, `_POINTS` offsets
a store), which also covers fills such as `for (m = 0; m < 5; m++) q[m] = ...` that LLVM's
`initializes` attribute, inferred for constant offsets only, does not describe.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from matcher.analysis import Loop
from matcher.ir import Function, Value, ValueKind
from matcher.layout import Layout

__all__ = ["bytes_written"]

# Bounds on the work of one proof: the fills in view are small (exact_solution's five
# doubles); a larger one is refused rather than enumerated.
_TRIPS = 1 << 12  # the most trips of a loop that fills an array
_POINTS = 1 << 14  # the most offsets one store may write
_ARITHMETIC = frozenset({"add", "sub", "mul", "shl", "or", "and", "xor"})
_CASTS = frozenset({"zext", "sext", "trunc"})


def bytes_written(
    callee: Function, pointer: Value, stores: Sequence[Value], layout: Layout
) -> tuple[int, int] | None:
    """(bytes from 0 written on every path, end of the bytes written), or None when a
    store is conditional, at an offset not computed from constants and counters, or
    before the start."""
    entry = callee.blocks[0]
    spans: list[tuple[int, int]] = []
    for store in stores:
        assert store.block is not None
        if not callee.post_dominators.block_dominates(store.block, entry):
            return None  # not on every path
        width = layout.size(store.operands[0].type)
        offsets = _offsets(callee, store, pointer)
        if width is None or offsets is None:
            return None
        spans += [(o, o + width) for o in offsets]
    if not spans or min(start for start, _ in spans) < 0:
        return (0, 0) if not spans else None
    spans.sort()
    covered = 0
    for start, end in spans:
        if start > covered:
            break
        covered = max(covered, end)
    return covered, max(end for _, end in spans)


def _offsets(callee: Function, store: Value, pointer: Value) -> list[int] | None:
    """Every byte offset from `pointer` the store writes at, over all trips of the loops
    whose counters its address uses."""
    constant = 0
    terms: list[tuple[Value, int]] = []
    value = store.operands[1]
    while value is not pointer:
        if value.opcode in ("bitcast", "addrspacecast"):
            value = value.operands[0]
            continue
        if value.opcode != "getelementptr":
            return None
        if value.byte_offset is not None:
            constant += value.byte_offset
        elif len(value.operands) == 2 and value.pointee_size:
            terms.append((value.operands[1], value.pointee_size))
        else:
            return None
        value = value.operands[0]
    counters = _counters(term for term, _ in terms)
    if counters is None:
        return None
    ranges = []
    for counter in counters:
        trips = _counter_values(callee, counter, store)
        if trips is None:
            return None
        ranges.append(trips)
    if _product_size(ranges) > _POINTS:
        return None
    offsets = []
    for combination in itertools.product(*ranges):
        env = dict(zip(counters, combination, strict=True))
        offset = constant
        for term, stride in terms:
            index = _evaluate(term, env)
            if index is None:
                return None
            offset += index * stride
        offsets.append(offset)
    return offsets


def _product_size(ranges: Sequence[Sequence[int]]) -> int:
    # Checked before enumerating, so a nest of long loops costs nothing to refuse.
    size = 1
    for values in ranges:
        size *= len(values)
    return size


def _counters(terms: Iterable[Value]) -> list[Value] | None:
    """The phis the index expressions use (None: something other than constants, casts
    and integer arithmetic)."""
    found: dict[Value, None] = {}
    work = list(terms)
    while work:
        value = work.pop()
        if value.kind is ValueKind.CONSTANT and isinstance(value.constant, int):
            continue
        if value.opcode == "phi":
            found[value] = None
        elif value.opcode in _ARITHMETIC or value.opcode in _CASTS:
            work.extend(value.operands)
        else:
            return None
    return list(found)


def _evaluate(value: Value, env: dict[Value, int]) -> int | None:
    """The integer `value` takes with the counters at `env`; None when it is not integer
    arithmetic on constants and counters, or would wrap (a wrapped index is not the
    offset the arithmetic here computes)."""
    if value.kind is ValueKind.CONSTANT:
        return value.constant if isinstance(value.constant, int) else None
    if value in env:
        return env[value]
    if value.opcode in _CASTS:
        inner = _evaluate(value.operands[0], env)
        if inner is None or (value.opcode == "zext" and inner < 0):
            return None
        return inner if _fits(inner, value.type) else None
    if value.opcode not in _ARITHMETIC or len(value.operands) != 2:
        return None
    a, b = (_evaluate(v, env) for v in value.operands)
    if a is None or b is None:
        return None
    result: int | None
    match value.opcode:
        case "add":
            result = a + b
        case "sub":
            result = a - b
        case "mul":
            result = a * b
        case "shl":
            result = a << b if 0 <= b < 32 else None
        case "or":
            result = a | b
        case "and":
            result = a & b
        case _:
            result = a ^ b
    return result if result is not None and _fits(result, value.type) else None


def _fits(number: int, type_text: str) -> bool:
    """`number` is a value of the integer type without wrapping, read signed (the
    offsets and counters here are small)."""
    bits = int(type_text[1:]) if type_text[:1] == "i" and type_text[1:].isdigit() else 0
    return bits > 1 and -(1 << (bits - 1)) <= number < 1 << (bits - 1)


def _counter_values(callee: Function, counter: Value, store: Value) -> list[int] | None:
    """The values `counter` takes, in order: a phi of the header of a loop around `store`
    that runs `store` on every trip, leaves only from its latch, and counts from a
    constant by a constant to a constant bound."""
    assert counter.block is not None and store.block is not None
    loop: Loop | None = callee.loops.innermost(counter.block)
    if loop is None or loop.header is not counter.block or store.block not in loop.blocks:
        return None
    if len(loop.latches) != 1 or loop.exiting != loop.latches:
        return None
    if not callee.post_dominators.block_dominates(store.block, loop.header):
        return None  # skipped on some trips
    latch = loop.latches[0]
    start = step = None
    if len(counter.incoming) != 2:
        return None
    for incoming, block in counter.incoming:
        if block is latch:
            if incoming.opcode != "add" or counter not in incoming.operands:
                return None
            other = [v for v in incoming.operands if v is not counter]
            step = other[0].constant if len(other) == 1 else None
        elif block not in loop.blocks:
            start = incoming.constant
    if not isinstance(start, int) or not isinstance(step, int) or step == 0:
        return None
    branch = latch.terminator
    if branch.opcode != "br" or len(latch.successors) != 2 or not branch.operands:
        return None
    test = branch.operands[0]
    if test.opcode != "icmp" or test.predicate is None:
        return None
    values: list[int] = []
    current = start
    for _ in range(_TRIPS):
        values.append(current)
        env = {counter: current}
        a, b = (_evaluate(v, env) for v in test.operands)
        if a is None or b is None:
            return None
        taken = _compare(test.predicate, a, b)
        if taken is None:
            return None
        current += step
        if latch.successors[0 if taken else 1] is not loop.header:
            return values
    return None


def _compare(predicate: str, a: int, b: int) -> bool | None:
    # An unsigned test of a negative value would read it as a huge one: refused.
    if predicate[0] == "u" and (a < 0 or b < 0):
        return None
    match predicate:
        case "eq":
            return a == b
        case "ne":
            return a != b
        case "slt" | "ult":
            return a < b
        case "sle" | "ule":
            return a <= b
        case "sgt" | "ugt":
            return a > b
        case "sge" | "uge":
            return a >= b
    return None
