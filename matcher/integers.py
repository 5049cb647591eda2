"""What the integers computed in a loop nest can be: the range of a loop counter proved
from constants (`counter_range`), and how a value can change between two iterations
(`integer_facts`, `exact_change`), followed through integer arithmetic only where that
arithmetic is exact.

Every answer is a proof or a "don't know": a range is given only when every value and
every next value the latch compares stays a non-negative signed value of its type (so
that signed and unsigned readings and both integer casts agree), and a stride only where
no operation on the way can wrap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from matcher.ir import Function, Value, ValueKind

__all__ = [
    "BITS_LIMIT",
    "CASTS",
    "Change",
    "IntegerFacts",
    "counter_range",
    "counter_step",
    "exact_change",
    "int_constant",
    "integer_facts",
    "multiple_of",
    "strip_casts",
]

CASTS = frozenset({"sext", "zext"})
_DEPTH = 12  # operations followed into an index
BITS_LIMIT = {"i8": 127, "i16": 32767, "i32": 2**31 - 1, "i64": 2**63 - 1}
_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
# The continue-condition of a latch once its operands are (counter, constant) and its
# branch goes round again when the condition holds.
_SWAPPED = {
    "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
    "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule", "eq": "eq", "ne": "ne",
}  # fmt: skip
_NEGATED = {
    "slt": "sge", "sle": "sgt", "sgt": "sle", "sge": "slt",
    "ult": "uge", "ule": "ugt", "ugt": "ule", "uge": "ult", "eq": "ne", "ne": "eq",
}  # fmt: skip


def int_constant(value: Value) -> int | None:
    """An integer constant, read as signed at its own width (the model may give an i32
    -1 as 4294967295)."""
    if value.kind is not ValueKind.CONSTANT or not isinstance(value.constant, int):
        return None
    bits = _BITS.get(value.type)
    number = value.constant
    if bits is not None and number >= 1 << (bits - 1):
        number -= 1 << bits
    return number


def multiple_of(value: Value, depth: int = 6) -> int:
    """A number every value `value` can take is a multiple of (as the signed integer of
    its type): 2 for `shl x, 1`, 6 for `mul (shl x, 1), 3` with nsw, 1 when nothing is
    known. Arithmetic that may wrap as a signed value (no nsw: nuw alone lets a result
    pass the largest signed value) keeps only the power of two of the factor (wrapping
    at 2^bits keeps those), as does a zext of a value that may be negative."""
    if depth == 0:
        return 1
    constant = int_constant(value)
    if constant is not None:
        return abs(constant) or 1 << 62
    operands = value.operands
    match value.opcode:
        case "shl" if len(operands) == 2 and (shift := int_constant(operands[1])) is not None:
            if not 0 <= shift < 62:
                return 1
            found = multiple_of(operands[0], depth - 1) << shift
        case "mul" if len(operands) == 2:
            left, right = (multiple_of(operand, depth - 1) for operand in operands)
            found = left * right
        case "add" | "sub" if len(operands) == 2:
            left, right = (multiple_of(operand, depth - 1) for operand in operands)
            found = math.gcd(left, right)
        case "sext":
            return multiple_of(operands[0], depth - 1)
        case "zext" if " nneg " in value.text:
            return multiple_of(operands[0], depth - 1)
        case "zext":
            return _power_of_two_part(multiple_of(operands[0], depth - 1))
        case _:
            return 1
    if " nsw " in value.text:
        return found
    return _power_of_two_part(found)


def _power_of_two_part(number: int) -> int:
    return number & -number


def strip_casts(value: Value) -> Value:
    while value.opcode in CASTS and value.operands:
        value = value.operands[0]
    return value


def counter_step(phi: Value) -> int | None:
    """The constant step of a loop counter: `phi` has two incoming values, one of them
    `phi + step` (a non-zero integer constant)."""
    if phi.opcode != "phi" or len(phi.incoming) != 2:
        return None
    for value, _ in phi.incoming:
        if value.opcode == "add" and len(value.operands) == 2:
            a, b = value.operands
            step = int_constant(b) if a is phi else int_constant(a) if b is phi else None
            if step:
                return step
    return None


@dataclass(frozen=True)
class IntegerFacts:
    """What is known of an integer over every iteration: its changes are multiples of
    `stride` (0: it does not change) of magnitude at most `reach`, and it lies within
    [`low`, `high`] (None: unknown)."""

    stride: int
    reach: int | None = None
    low: int | None = None
    high: int | None = None


_UNKNOWN = IntegerFacts(1)
Change = tuple[int, int | None]


def exact_change(
    value: Value, fixed: Callable[[Value], bool], function: Function | None = None
) -> Change:
    """(stride, reach): every change of `value` between two iterations is a multiple of
    `stride` (0: it does not change) of magnitude at most `reach` (None: unknown), where
    `fixed(v)` says that `v` does not change. Integer arithmetic is followed where it is
    exact: its flags say it cannot wrap (`nsw`; under a sext, a zext nneg or none the
    value is the signed one), or the ranges of its operands show it does not (a counter
    bounded by constants, `counter_range`, given the function). Anything else gives
    (1, None), which is always true."""
    facts = integer_facts(value, fixed, function)
    return facts.stride, facts.reach


def integer_facts(
    value: Value, fixed: Callable[[Value], bool], function: Function | None = None
) -> IntegerFacts:
    """What `exact_change` knows of `value`, with its range where that is proved too."""
    return _facts_at(value, fixed, function, 0)


def _fits(low: int | None, high: int | None, type_text: str) -> bool:
    limit = BITS_LIMIT.get(type_text)
    return (
        limit is not None
        and low is not None
        and high is not None
        and -limit - 1 <= low
        and high <= limit
    )


def _facts_at(
    value: Value, fixed: Callable[[Value], bool], function: Function | None, depth: int
) -> IntegerFacts:
    constant = int_constant(value)
    if constant is not None:
        return IntegerFacts(0, 0, constant, constant)
    if fixed(value):
        return IntegerFacts(0, 0)
    if depth > _DEPTH or value.kind is not ValueKind.INSTRUCTION:
        return _UNKNOWN
    opcode = value.opcode
    operands = value.operands

    def facts_of(operand: Value) -> IntegerFacts:
        return _facts_at(operand, fixed, function, depth + 1)

    if opcode in ("sext", "zext", "trunc") and operands:
        inner = facts_of(operands[0])
        if opcode == "sext" or (opcode == "zext" and " nneg " in value.text):
            return inner
        if inner.low is not None and inner.low >= 0 and _fits(inner.low, inner.high, value.type):
            return inner  # a plain zext or a trunc of a value it keeps
        return _UNKNOWN
    if opcode == "phi":
        found = counter_range(function, value) if function is not None else None
        if found is not None:
            low, high, step = found
            return IntegerFacts(abs(step), high - low, low, high)
        moves = counter_step(value)
        moved = [v for v, _ in value.incoming if v.opcode == "add" and value in v.operands]
        starts = [v for v, _ in value.incoming if v not in moved]
        if moves is None or len(moved) != 1 or len(starts) != 1 or " nsw " not in moved[0].text:
            return _UNKNOWN
        return IntegerFacts(math.gcd(abs(moves), facts_of(starts[0]).stride))
    if len(operands) != 2 or opcode not in ("add", "sub", "or", "mul", "shl"):
        return _UNKNOWN
    if opcode == "or" and " disjoint " not in value.text:
        return _UNKNOWN
    a, b = operands
    fa, fb = facts_of(a), facts_of(b)
    result: IntegerFacts | None
    if opcode in ("add", "sub", "or"):
        result = _combine(opcode, fa, fb)
    elif opcode == "shl":
        shift = int_constant(b)
        result = _scaled(fa, 1 << shift) if shift is not None and 0 <= shift < 62 else None
    elif fb.stride == 0 and fb.low is not None and fb.low == fb.high:
        result = _scaled(fa, fb.low)
    elif fa.stride == 0 and fa.low is not None and fa.low == fa.high:
        result = _scaled(fb, fa.low)
    elif fb.stride == 0:
        result = _times_fixed(fa, b)
    elif fa.stride == 0:
        result = _times_fixed(fb, a)
    else:
        result = None
    if result is None:
        return _UNKNOWN
    exact = " nsw " in value.text or opcode == "or" or _fits(result.low, result.high, value.type)
    return result if exact else _UNKNOWN


def _combine(opcode: str, fa: IntegerFacts, fb: IntegerFacts) -> IntegerFacts:
    """The facts of a + b (or a - b)."""
    stride = math.gcd(fa.stride, fb.stride)
    reach = None if fa.reach is None or fb.reach is None else fa.reach + fb.reach
    if fa.low is None or fa.high is None or fb.low is None or fb.high is None:
        return IntegerFacts(stride, reach)
    if opcode == "sub":
        return IntegerFacts(stride, reach, fa.low - fb.high, fa.high - fb.low)
    return IntegerFacts(stride, reach, fa.low + fb.low, fa.high + fb.high)


def _scaled(facts: IntegerFacts, factor: int) -> IntegerFacts:
    """The facts of a value times a constant."""
    scale = abs(factor)
    reach = None if facts.reach is None else scale * facts.reach
    if facts.low is None or facts.high is None:
        return IntegerFacts(scale * facts.stride, reach)
    low, high = sorted((facts.low * factor, facts.high * factor))
    return IntegerFacts(scale * facts.stride, reach, low, high)


def _times_fixed(facts: IntegerFacts, factor: Value) -> IntegerFacts:
    """The facts of a value times `factor`, a value that does not change but is not
    known (a row length): x * n - x' * n is (x - x') * n, a multiple of x's stride
    times what n is a multiple of; (2 * j + 1) * n moves by multiples of 2."""
    return IntegerFacts(facts.stride * multiple_of(factor))


def counter_range(function: Function, phi: Value) -> tuple[int, int, int] | None:
    """(lowest, highest, step) of every value a loop counter takes, proved from constants:
    the counter starts at a constant from outside its loop, its one latch adds a constant
    step and goes round again on a comparison of the counter (or of its next value, maybe
    behind an integer cast) with a constant. Every value, and every next value the latch
    compares, stays within 0 .. 2^(bits-1) - 1, so that signed and unsigned readings and
    both integer casts agree. None when any of that is not so."""
    bits = _BITS.get(phi.type)
    block = phi.block
    if phi.opcode != "phi" or len(phi.incoming) != 2 or bits is None or block is None:
        return None
    loop = function.loops.innermost(block)
    if loop is None or loop.header is not block or len(loop.latches) != 1:
        return None
    latch = loop.latches[0]
    start: int | None = None
    following: Value | None = None
    for value, source in phi.incoming:
        if source is latch:
            following = value
        elif source not in loop.blocks:
            start = int_constant(value)
    if start is None or following is None or following.opcode != "add":
        return None
    if len(following.operands) != 2 or phi not in following.operands:
        return None
    a, b = following.operands
    step = int_constant(b) if a is phi else int_constant(a)
    branch = latch.terminator
    if not step or branch.opcode != "br" or len(branch.operands) != 1:
        return None
    test = branch.operands[0]
    if test.opcode != "icmp" or test.predicate not in _SWAPPED or len(test.operands) != 2:
        return None
    x, c = test.operands
    predicate = test.predicate
    if int_constant(c) is None:
        x, c = c, x
        predicate = _SWAPPED[predicate]
    bound = int_constant(c)
    x = strip_casts(x)
    if bound is None or x not in (phi, following) or len(latch.successors) != 2:
        return None
    if latch.successors[1] is block and latch.successors[0] is not block:
        predicate = _NEGATED[predicate]
    elif not (latch.successors[0] is block and latch.successors[1] is not block):
        return None
    tested_next = x is following
    limit = (1 << (bits - 1)) - 1
    if not (0 <= start <= limit and 0 <= bound <= limit):
        return None
    if step > 0:
        last = _last_up(start, step, bound, predicate, tested_next)
        if last is None or last + step > limit:
            return None
        return start, last, step
    first = _last_down(start, step, bound, predicate, tested_next)
    # The next value computed on the last trip is compared (tested_next) or dropped; it
    # must not wrap below zero when an unsigned comparison reads it.
    if first is None or first < 0 or (tested_next and first + step < 0):
        return None
    return first, start, step


def _last_up(start: int, step: int, bound: int, predicate: str, tested_next: bool) -> int | None:
    """The highest value of a counter going up from `start`: it goes round again while
    the tested value (the counter, or counter + step) is below `bound`."""
    if predicate == "ne":
        first = start + step if tested_next else start
        if bound < first or (bound - first) % step:
            return None
        return bound - step if tested_next else bound
    if predicate in ("slt", "ult"):
        top = bound - 1
    elif predicate in ("sle", "ule"):
        top = bound
    else:
        return None
    # The values are start + k * step; the highest one taken is at most `top` (the next
    # value tested) or `top + step` (the counter tested, then moved once more).
    highest = top if tested_next else top + step
    if highest < start:
        return start
    return start + (highest - start) // step * step


def _last_down(start: int, step: int, bound: int, predicate: str, tested_next: bool) -> int | None:
    """The lowest value of a counter going down from `start`, the mirror of `_last_up`."""
    if predicate == "ne":
        first = start + step if tested_next else start
        if bound > first or (first - bound) % -step:
            return None
        return bound - step if tested_next else bound
    if predicate in ("sgt", "ugt"):
        bottom = bound + 1
    elif predicate in ("sge", "uge"):
        bottom = bound
    else:
        return None
    lowest = bottom if tested_next else bottom + step
    if lowest > start:
        return start
    return start - (start - lowest) // -step * -step
