"""What a mapper needs to know about the matched loops, computed in IR at run time.

A loop of an idiom's interface is given by {iterator}, {iter_begin}, {iter_end}, {step}
(a constant), {comparison} and its latch branch {end}. The front end rotates loops, so
the latch tests the next value of the counter; `trip_count` turns that test into the
number of iterations, in i64, together with the condition under which the count is
exact: at least one iteration (an inner loop whose count would be zero is skipped by
a guard of its own, which the count would not see, so such cases run the original).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mappers.rewrite.emit import I64, Builder, Cloner, NotReplaced, const
from mappers.rewrite.irtext import Operand, operand
from matcher.analysis import Loop
from matcher.ir import Block, Function, Value

__all__ = [
    "Counted",
    "LoopView",
    "RowCounts",
    "iteration_value",
    "loop_at_row",
    "loop_view",
    "natural_loop_view",
    "trip_count",
]

_SWAPPED = dict(
    slt="sgt", sgt="slt", sle="sge", sge="sle", ult="ugt", ugt="ult", ule="uge", uge="ule",
    eq="eq", ne="ne",
)  # fmt: skip
_INVERSE = dict(
    slt="sge", sge="slt", sgt="sle", sle="sgt", ult="uge", uge="ult", ugt="ule", ule="ugt",
    eq="ne", ne="eq",
)  # fmt: skip


@dataclass(frozen=True)
class LoopView:
    """One loop of a match, read from the solution under a prefix (`loop[1].`, ``)."""

    iterator: Value
    iter_begin: Value
    iter_end: Value
    step: int
    predicate: str  # go round again while `counter predicate iter_end`, counter on the left
    compares_cast: str | None  # sext/zext when the counter is widened before the test
    tests_current: bool  # the latch tests the counter before its increment (i > 0; i--)


@dataclass(frozen=True)
class Counted:
    count: Operand  # i64 iterations
    exact: Operand  # i1: the count is right (at least one iteration)
    valid: Operand  # i1: the values fit the arithmetic of the count


def loop_view(function: Function, solution: Mapping[str, Value | None], prefix: str) -> LoopView:
    def get(name: str) -> Value:
        value = solution.get(prefix + name)
        if value is None:
            raise NotReplaced(f"the match has no {prefix}{name}")
        return value

    iterator, comparison, end = get("iterator"), get("comparison"), get("end")
    compared, iter_next, step = get("iter_compared"), get("iter_next"), get("step")
    try:  # the model keeps integer constants unsigned; the text has the sign
        step_size = int(operand(step).ref)
    except ValueError:
        step_size = 0
    if step_size == 0:
        raise NotReplaced("the loop step is not a non-zero integer constant")
    tests_current = compared is iterator
    cast = None if compared in (iter_next, iterator) else compared.opcode
    predicate = comparison.predicate or ""
    if comparison.operands[0] is not compared:
        predicate = _SWAPPED[predicate]
    continue_on_true = function.successors(end)[0] is get("begin")
    if not continue_on_true:
        predicate = _INVERSE[predicate]
    return LoopView(
        iterator, get("iter_begin"), get("iter_end"), step_size, predicate, cast, tests_current
    )


def natural_loop_view(function: Function, loop: Loop) -> LoopView:
    """A loop of the function that no idiom matched, read as ForLoop (idl/idioms/loops.idl)
    reads a match: a header phi moved by a constant step, whose single latch compares it,
    or its next value, with a bound defined outside the loop. Other exits (a `break`) are
    allowed: they only end the loop sooner."""
    preheader = loop.preheader
    if len(loop.latches) != 1 or preheader is None:
        raise NotReplaced("the loop has no preheader or more than one latch")
    latch = loop.latches[0]
    end = latch.terminator
    leaves = [b for b in latch.successors if b is not loop.header]
    if end.opcode != "br" or len(end.operands) != 1 or len(leaves) != 1 or leaves[0] in loop.blocks:
        raise NotReplaced("the loop's latch does not decide whether to go round again")
    comparison = end.operands[0]
    if comparison.opcode != "icmp" or len(comparison.operands) != 2:
        raise NotReplaced("the loop's latch does not compare integers")
    for phi in (i for i in loop.header.instructions if i.opcode == "phi"):
        solution = _counter(phi, preheader, latch, comparison, loop)
        if solution is not None:
            solution.update(begin=loop.header.first, end=end, comparison=comparison)
            return loop_view(function, solution, "")
    raise NotReplaced("the loop has no counter moved by a constant step")


def _counter(
    phi: Value, preheader: Block, latch: Block, comparison: Value, loop: Loop
) -> dict[str, Value | None] | None:
    """The ForLoop values of `phi` if it is the counter that `comparison` tests."""
    incoming = {block: value for value, block in phi.incoming}
    first, following = incoming.get(preheader), incoming.get(latch)
    if len(incoming) != 2 or first is None or following is None:
        return None
    if following.opcode != "add" or following.operands[0] is not phi:
        return None
    for compared, bound in (comparison.operands, comparison.operands[::-1]):
        widened = compared.opcode in ("sext", "zext") and compared.operands[0] is following
        if (compared in (phi, following) or widened) and bound.block not in loop.blocks:
            return dict(
                iterator=phi,
                iter_begin=first,
                iter_next=following,
                step=following.operands[1],
                iter_compared=compared,
                iter_end=bound,
            )
    return None


def trip_count(builder: Builder, loop: LoopView) -> Counted:
    """Emit the iteration count of `loop` (entered at least once) and its validity."""
    begin, end = builder.ref(loop.iter_begin), builder.ref(loop.iter_end)
    if loop.compares_cast is not None:
        begin = builder.cast(loop.compares_cast, begin, end.type)
    if loop.predicate == "ne":
        counted = _count_not_equal(builder, begin, end, loop.step)
    else:
        counted = _count_ordered(builder, loop, begin, end)
    if not loop.tests_current:
        return counted
    # Tested before the increment: one more iteration than the values passing the test,
    # and the loop (a do-while from its preheader) always runs once.
    return _plus_one(builder, counted)


def _plus_one(builder: Builder, counted: Counted) -> Counted:
    none = builder.compare("eq", counted.exact, const("i1", "false"))
    passing = builder.select(none, const(I64, 0), counted.count)
    return Counted(builder.binary("add", passing, const(I64, 1)), counted.valid, counted.valid)


def _count_ordered(builder: Builder, loop: LoopView, begin: Operand, end: Operand) -> Counted:
    step, predicate = loop.step, loop.predicate
    signed = predicate[0] == "s"
    b64, e64 = builder.to_i64(begin, signed=signed), builder.to_i64(end, signed=signed)
    fits: list[Operand] = []
    if not signed and end.type == I64:  # unsigned 64-bit values must fit the signed i64 count
        fits += [
            builder.compare("sge", b64, const(I64, 0)),
            builder.compare("sge", e64, const(I64, 0)),
        ]
    if predicate in ("sle", "ule", "sge", "uge"):
        e64 = builder.binary("add", e64, const(I64, 1 if step > 0 else -1))
    if step > 0 and predicate[1:] in ("lt", "le"):
        distance = builder.binary("sub", e64, b64)
    elif step < 0 and predicate[1:] in ("gt", "ge"):
        distance = builder.binary("sub", b64, e64)
    else:
        raise NotReplaced(f"the loop counts {'up' if step > 0 else 'down'} against `{predicate}`")
    size = abs(step)
    rounded = builder.binary("add", distance, const(I64, size - 1))
    count = builder.binary("sdiv", rounded, const(I64, size))
    valid = builder.all_of(fits)
    exact = builder.all_of([valid, builder.compare("sgt", distance, const(I64, 0))])
    return Counted(count, exact, valid)


def _count_not_equal(builder: Builder, begin: Operand, end: Operand, step: int) -> Counted:
    # `i != n`: the distance, taken in the counter's own width, must be a whole number
    # of steps.
    distance = builder.binary("sub", end, begin) if step > 0 else builder.binary("sub", begin, end)
    fits: list[Operand] = []
    if distance.type == I64:
        fits.append(builder.compare("sge", distance, const(I64, 0)))
    wide = builder.to_i64(distance, signed=False)
    size = const(I64, abs(step))
    fits.append(builder.compare("eq", builder.binary("urem", wide, size), const(I64, 0)))
    valid = builder.all_of(fits)
    exact = builder.all_of([valid, builder.compare("ne", wide, const(I64, 0))])
    return Counted(builder.binary("udiv", wide, size), exact, valid)


def iteration_value(builder: Builder, loop: LoopView, iteration: int) -> Operand:
    """The counter's value at a given iteration (0 is the first)."""
    begin = builder.ref(loop.iter_begin)
    if iteration == 0:
        return begin
    return builder.binary("add", begin, const(begin.type, loop.step * iteration))


@dataclass(frozen=True)
class RowCounts:
    """An inner loop's first value and count for one value of the row counter."""

    first: Operand  # i64
    count: Operand  # i64
    exact: Operand  # i1


def loop_at_row(
    builder: Builder, blocks: frozenset[Block], row: LoopView, loop: LoopView, row_value: Operand
) -> RowCounts:
    """The first value and count of `loop`, inside the row loop `row`, when the row counter
    is `row_value`: its bounds computed in the region's `blocks`, evaluated for that row (a
    triangle's bound that moves with the rows)."""
    env = {row.iterator: row_value}
    saved = dict(builder.known)
    try:
        for bound in (loop.iter_begin, loop.iter_end):
            if bound.block in blocks:
                builder.known[bound] = Cloner(builder, blocks, env, affine=False).value(bound)
        counted = trip_count(builder, loop)
        first = builder.to_i64(builder.ref(loop.iter_begin))
    finally:
        builder.known.clear()
        builder.known.update(saved)
    return RowCounts(first, counted.count, counted.exact)
