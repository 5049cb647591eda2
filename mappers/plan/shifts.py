"""Which reads of a loop nest read, one iteration of a loop later, what another read
reads now: `a[i-1][j]` at i + 1 is `a[i][j]` at i. A streamed kernel (lift's
`map-stream`) keeps such values in registers instead of reading them again.

The answer is a proposal, made by evaluating the address arithmetic with random values
for everything the loop nest does not compute (arguments, loaded bounds, other
counters) and for the sizes of records a getelementptr steps over (scalars and arrays
of them have their own, as byte offsets count them), wrapping as LLVM's integers do.
Two addresses that agree on two random draws are proposed as equal. Nothing rests on
it: the kernel's caller checks each proposed pair exactly at run time (the offsets and
strides it measures) and launches the kernel that reads every value where a pair does
not hold.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from mappers.plan.loops import LoopView
from matcher.integers import int_constant
from matcher.ir import Value, ValueKind

__all__ = ["one_step_pairs"]

_MASK = 2**64 - 1
_DRAWS = 2
_SCALARS = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "float": 4, "double": 8, "ptr": 8}
_ARRAY = re.compile(r"\[(\d+) x (.*)\]")
_GEP = re.compile(r"getelementptr(?:\s+(?:inbounds|nuw|nusw|inrange\([^)]*\)))*\s+(.*?), ptr ")


def one_step_pairs(addresses: Sequence[Value], loop: LoopView) -> tuple[tuple[int, int], ...]:
    """(k, j) where address k one iteration of `loop` later equals address j: at most one
    j for each k. Addresses that cannot be evaluated pair with nothing."""
    draws = [_Draw(seed) for seed in range(_DRAWS)]
    now = [[d.address(a, loop, 0) for a in addresses] for d in draws]
    later = [[d.address(a, loop, loop.step) for a in addresses] for d in draws]
    pairs = []
    for k in range(len(addresses)):
        for j in range(len(addresses)):
            if k != j and all(
                later[t][k] is not None and later[t][k] == now[t][j] for t in range(_DRAWS)
            ):
                pairs.append((k, j))
                break
    return tuple(pairs)


class _Draw:
    """One random assignment of the values the addresses are computed from."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.leaves: dict[object, int] = {}

    def leaf(self, key: object) -> int:
        if key not in self.leaves:
            self.leaves[key] = self.random.getrandbits(64)
        return self.leaves[key]

    def address(self, address: Value, loop: LoopView, moved: int) -> int | None:
        counter = (self.leaf(loop.iterator) + moved) & _MASK
        try:
            return self.value(address, {loop.iterator: counter}, 0)
        except _Opaque:
            return None

    def value(self, value: Value, known: dict[Value, int], depth: int) -> int:
        if value in known:
            return known[value]
        if depth > 32:
            raise _Opaque
        if value.kind is ValueKind.CONSTANT:
            return _constant(value) & _MASK
        if value.kind is not ValueKind.INSTRUCTION or value.opcode in ("phi", "load", "call"):
            return self.leaf(value)  # fixed over the nest, or another loop's counter
        operands = [self.value(o, known, depth + 1) for o in value.operands]
        result = self.operation(value, operands)
        known[value] = result
        return result

    def operation(self, value: Value, operands: list[int]) -> int:
        match value.opcode:
            case "add":
                return (operands[0] + operands[1]) & _MASK
            case "sub":
                return (operands[0] - operands[1]) & _MASK
            case "mul":
                return (operands[0] * operands[1]) & _MASK
            case "shl":
                return (operands[0] << (operands[1] & 63)) & _MASK
            case "or" if " disjoint " in value.text:
                return (operands[0] + operands[1]) & _MASK
            case "sext" | "zext" | "trunc":
                return operands[0]
            case "getelementptr":
                return self.element_address(value, operands)
        raise _Opaque

    def size(self, kind: str | None) -> int:
        """The bytes of a scalar or an array of them (as a byte offset counts them), a
        random number for any other type."""
        if kind is None:
            raise _Opaque
        known = _type_size(kind)
        return known if known is not None else self.leaf(("size", kind))

    def element_address(self, gep: Value, operands: list[int]) -> int:
        """The base plus each index times the size of what it steps over (a random size
        per type, the same for every getelementptr), a record's field at a random offset
        per (record type, field)."""
        match = _GEP.search(gep.text)
        if match is None:
            raise _Opaque
        stepped: str | None = match.group(1)  # the type the next index steps over
        total = operands[0]
        indices = zip(gep.operands[1:], operands[1:], strict=True)
        for position, (index, number) in enumerate(indices):
            if position == 0 or (stepped is not None and stepped.startswith("[")):
                if position > 0:
                    assert stepped is not None
                    array = _ARRAY.fullmatch(stepped)
                    stepped = array.group(2) if array else None
                total += number * self.size(stepped)
            elif index.kind is ValueKind.CONSTANT:  # a record's field
                total += self.leaf(("field", stepped, number))
                stepped = None
            else:
                raise _Opaque
        return total & _MASK


def _type_size(kind: str) -> int | None:
    if kind in _SCALARS:
        return _SCALARS[kind]
    array = _ARRAY.fullmatch(kind)
    if array is None:
        return None
    element = _type_size(array.group(2))
    return None if element is None else int(array.group(1)) * element


class _Opaque(Exception):
    """An operation the proposal does not evaluate."""


def _constant(value: Value) -> int:
    number = int_constant(value)
    if number is not None:
        return number
    if value.name in ("null", "zeroinitializer", "false"):
        return 0
    raise _Opaque
