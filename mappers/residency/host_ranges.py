"""The bytes a host loop nest touches, bounded at run time in its preheader.

The residency pass (mappers/residency/placement.py) brings device results back before host code
that touches memory after a launch. Before a loop of host code, `idiom_host_access()`
would forget every device copy, so an iterative program whose host loop touches one
small array between launches would copy all its arrays to the device again at every
step. When every load and store of the loop nest has an address affine in the nest's
counters, with bounds and bases fixed before the loop, the preheader can instead compute
the range of bytes each array is touched in and call `idiom_host_access_at` once per
array: the other copies stay on the device.

The ranges reuse the mappers' machinery: `loops.natural_loop_view` reads each loop's
counter as the ForLoop idiom would, `loops.trip_count` counts its iterations,
`access.locate` clones the address computation at the first iteration and one step
further (strides), `access.span` turns them into a range. What a match's guard knows and
a host loop does not is checked at run time, and any doubt calls for everything back
instead (a null address and the largest size):

- counts: a loop is entered at least once from its preheader (an inner loop whose count
  the formula puts at zero or less runs once, as a rotated loop does, or not at all);
  a count the formula cannot vouch for (`!=` that never meets its bound) is a doubt;
- wrap-around: a narrow counter, or index arithmetic in a narrow type, that wraps makes
  the address non-affine; the address at each loop's last iteration (and at the last of
  all of them) must be the one the strides predict;
- overflow of the range arithmetic itself (a bound never reached, under a condition);
- the range of one array must be non-negative and non-empty once merged.

Speculation: the clones run in the preheader whether or not the loop would reach them,
so they may not contain a division by a value that could be zero (or -1), and they load
nothing (`Cloner` refuses loads and phis inside the loop).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mappers.plan.access import locate, span
from mappers.plan.loops import LoopView, natural_loop_view, trip_count
from mappers.rewrite.emit import I1, I64, Builder, Cloner, NotReplaced, const
from mappers.rewrite.irtext import Operand, operand
from matcher.analysis import Loop
from matcher.ir import Block, Function, Value

__all__ = ["HOST_ACCESS_AT", "accessed_bytes", "host_ranges"]

HOST_ACCESS_AT = "idiom_host_access_at"
_SIZES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "float": 4, "i64": 8, "double": 8, "ptr": 8}
_DIVISIONS = frozenset({"sdiv", "udiv", "srem", "urem"})
_EVERYTHING = 2**63 - 1  # bytes from address 0: every user-space address


def accessed_bytes(instruction: Value) -> tuple[Value, int] | None:
    """The address and size of a load's or store's bytes, when the size is known."""
    if instruction.opcode == "load":
        address, kind = instruction.operands[0], instruction.type
    elif instruction.opcode == "store":
        address, kind = instruction.operands[1], instruction.operands[0].type
    else:
        return None
    lanes, _, element = kind.removeprefix("<").removesuffix(">").rpartition(" x ")
    if kind.startswith("<") and lanes.isdigit() and element in _SIZES:
        return address, int(lanes) * _SIZES[element]
    return (address, _SIZES[kind]) if kind in _SIZES else None


@dataclass(frozen=True)
class _Counted:
    view: LoopView
    count: Operand  # i64, at least 1


def host_ranges(
    function: Function, nest: Loop, accesses: Sequence[Value], prefix: str
) -> list[str]:
    """IR lines for the end of the preheader of `nest` that call `idiom_host_access_at` for
    the bytes of each array the loads and stores `accesses` (inside the nest) touch.
    Raises NotReplaced when they cannot be bounded; the lines use the overflow intrinsics
    of `emit.OVERFLOW_DECLARATIONS`."""
    ranges = _Ranges(function, nest, Builder(prefix))
    touched: dict[tuple[Value, int], Value] = {}
    for access in accesses:
        bytes_of = accessed_bytes(access)
        if bytes_of is None:
            raise NotReplaced(f"{access.opcode} touches memory of unknown size")
        touched.setdefault(bytes_of, access)
    by_base: dict[Value, list[tuple[Operand, Operand]]] = {}
    for (address, size), access in touched.items():
        by_base.setdefault(_base(address), []).append(ranges.bound(access, address, size))
    trusted = ranges.trusted()
    for parts in by_base.values():
        _call(ranges.builder, trusted, parts)
    return ranges.builder.lines


class _Ranges:
    """The counts of the nest's loops (each computed once) and the doubts raised so far."""

    def __init__(self, function: Function, nest: Loop, builder: Builder) -> None:
        self.function = function
        self.nest = nest
        self.builder = builder
        self.counted: dict[Loop, _Counted] = {}
        self.doubts: list[Operand] = []  # i1: when one is true, no range is to be trusted

    def trusted(self) -> Operand:
        builder, result = self.builder, const(I1, "true")
        for doubt in self.doubts:
            result = builder.binary("and", result, builder.binary("xor", doubt, const(I1, "true")))
        return result

    def bound(self, access: Value, address: Value, size: int) -> tuple[Operand, Operand]:
        """[low, high) of the bytes an access touches over the nest (i64)."""
        builder, blocks = self.builder, self.nest.blocks
        loops = [self._count(loop) for loop in _chain(self.function, self.nest, access)]
        _check_speculable(address, blocks)
        views, counts = [c.view for c in loops], [c.count for c in loops]
        first, strides = locate(builder, blocks, address, views, wraps_checked=True)
        start = builder.to_i64(first)
        low, high = span(builder, start, strides, counts, size=size, overflow=self.doubts)
        corners = [[k] for k in range(len(loops))]
        if len(loops) > 1:
            corners.append(list(range(len(loops))))
        for at_last in corners:
            self._check_affine(address, start, strides, loops, at_last)
        return low, high

    def _count(self, loop: Loop) -> _Counted:
        if loop in self.counted:
            return self.counted[loop]
        builder, blocks = self.builder, self.nest.blocks
        view = natural_loop_view(self.function, loop)
        for bound in (view.iter_begin, view.iter_end):
            if bound.block in blocks and bound not in builder.known:
                _check_speculable(bound, blocks)
                builder.known[bound] = Cloner(
                    builder, blocks, {}, affine=True, wraps_checked=True
                ).value(bound)
        trips = trip_count(builder, view)
        count = builder.select(trips.exact, trips.count, const(I64, 1))
        self.doubts.append(builder.compare("eq", trips.valid, const(I1, "false")))
        self.doubts.append(builder.compare("slt", count, const(I64, 1)))
        if view.predicate == "ne":  # `!=` never met: round and round until the counter wraps
            self.doubts.append(builder.compare("eq", trips.exact, const(I1, "false")))
        self.counted[loop] = _Counted(view, count)
        return self.counted[loop]

    def _check_affine(
        self,
        address: Value,
        start: Operand,
        strides: Sequence[Operand],
        loops: Sequence[_Counted],
        at_last: Sequence[int],
    ) -> None:
        """Doubt when the address with the loops `at_last` at their last iteration (the
        others at their first) is not the one the strides predict: something wrapped."""
        builder = self.builder
        env = {c.view.iterator: builder.ref(c.view.iter_begin) for c in loops}
        predicted = start
        for k in at_last:
            env[loops[k].view.iterator] = _last_value(builder, loops[k].view, loops[k].count)
            steps = builder.binary("sub", loops[k].count, const(I64, 1))
            predicted = builder.binary("add", predicted, builder.binary("mul", strides[k], steps))
        clone = Cloner(builder, self.nest.blocks, env, affine=True, wraps_checked=True).value(
            address
        )
        self.doubts.append(builder.compare("ne", builder.to_i64(clone), predicted))


def _chain(function: Function, nest: Loop, access: Value) -> list[Loop]:
    """The loops around `access`, from `nest` inwards."""
    assert access.block is not None
    chain: list[Loop] = []
    loop = function.loops.innermost(access.block)
    while loop is not None and loop is not nest:
        chain.append(loop)
        loop = loop.parent
    if loop is None:
        raise NotReplaced("the access is not inside the loop nest")
    return [nest, *chain[::-1]]


def _last_value(builder: Builder, view: LoopView, count: Operand) -> Operand:
    """The counter at the loop's last iteration, in its own type (wrapping as it does)."""
    begin = builder.ref(view.iter_begin)
    steps = builder.cast("trunc", builder.binary("sub", count, const(I64, 1)), begin.type)
    return builder.binary("add", begin, builder.binary("mul", steps, const(begin.type, view.step)))


def _call(builder: Builder, trusted: Operand, parts: Sequence[tuple[Operand, Operand]]) -> None:
    """One `idiom_host_access_at` for the ranges of one array, merged; everything when the
    ranges are in doubt."""
    low, high = parts[0]
    for other_low, other_high in parts[1:]:
        low = builder.select(builder.compare("slt", other_low, low), other_low, low)
        high = builder.select(builder.compare("sgt", other_high, high), other_high, high)
    ordered = builder.compare("sle", const(I64, 0), low)
    ordered = builder.binary("and", ordered, builder.compare("slt", low, high))
    ok = builder.binary("and", trusted, ordered)
    start = builder.select(ok, low, const(I64, 0))
    bytes_ = builder.select(ok, builder.binary("sub", high, low), const(I64, _EVERYTHING))
    address = builder.cast("inttoptr", start, "ptr")
    builder.call("void", HOST_ACCESS_AT, [address, bytes_])


def _base(address: Value) -> Value:
    """The array an address points into, as far as the address computation shows."""
    while address.opcode == "getelementptr":
        address = address.operands[0]
    return address


def _check_speculable(value: Value, blocks: frozenset[Block]) -> None:
    """The computation of `value` inside `blocks` cannot trap when run ahead of the loop:
    no division by a value that may be zero, or -1."""
    seen: set[Value] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in seen or current.block not in blocks:
            continue
        seen.add(current)
        if current.opcode in _DIVISIONS and operand(current.operands[1]).ref in ("0", "-1"):
            raise NotReplaced(f"{current.name} divides by {operand(current.operands[1]).ref}")
        if current.opcode in _DIVISIONS and not _is_integer(operand(current.operands[1]).ref):
            raise NotReplaced(f"{current.name} divides by a value that may be zero")
        stack.extend(current.operands)


def _is_integer(text: str) -> bool:
    return text.lstrip("-").isdigit()
