"""An inner loop over a triangle with the row loop around it, read at run time: the
triangular products and solves (TRMM, TRSV), whose inner loop runs from a bound that
moves with the rows (the row counter plus a constant: blas.idl's RowBoundedLoop) to a
fixed one, or the other way round.

The moving bound changes by one from row to row, so the inner loop's trip count is
affine in the row. LLVM may skip the inner loop with a test of its own that changes with
the rows (`i > 0` for `k < i`, `i == 0`, or the first row of a loop it rotated); such a
test is taken only when it is monotone in the row counter (an order of affine values) or
true on one row at most (an equality). An unsigned order (`for (unsigned k = i; k < m;
...)` leaves `i < m` unsigned) is monotone where neither side wraps over the rows
visited, which the guard checks at run time (RowTriangle.follows). The loop runs on every
row but perhaps the first or the last, so checking how many times it really runs on the
first two and the last two rows, and on the row where an equality holds, settles every
row (RowTriangle.follows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from mappers.plan.access import Access
from mappers.plan.loops import LoopView, RowCounts, loop_at_row
from mappers.plan.region import Region, fixed_values, load_fixed, runs_with
from mappers.rewrite.emit import I64, Builder, Cloner, NotReplaced, const
from mappers.rewrite.irtext import Operand
from matcher.ir import Value

__all__ = ["RowGuard", "RowTriangle", "load_under_row_tests", "row_guards", "rows_upwards"]


@dataclass(frozen=True)
class RowGuard:
    """A test that skips the inner loop on a condition that changes with the row:
    `branch` enters the loop through its successor `entering`; `pointwise` for an
    equality (`i == 0`), true on one row at most, which the guard checks there too;
    `unsigned` for an unsigned order whose sides the guard checks do not wrap."""

    branch: Value
    entering: int
    pointwise: bool = False
    unsigned: bool = False


@dataclass(frozen=True)
class RowTriangle:
    region: Region
    row: LoopView
    inner: LoopView
    guards: tuple[RowGuard, ...]

    def row_value(self, builder: Builder, index: Operand) -> Operand:
        """The row counter's value on the row visited `index`-th (i64, from 0)."""
        first = builder.ref(self.row.iter_begin)
        offset = builder.binary("mul", index, const(I64, self.row.step))
        if first.type != I64:
            offset = builder.cast("trunc", offset, first.type)
        return builder.binary("add", first, offset)

    def at(self, builder: Builder, row_value: Operand) -> RowCounts:
        """The inner loop's first value and count on the row `row_value`."""
        return loop_at_row(builder, self.region.blocks, self.row, self.inner, row_value)

    def evaluate_at(self, builder: Builder, value: Value, row_value: Operand) -> Operand:
        """`value`, computed in the region, on the row `row_value`."""
        saved = dict(builder.known)
        try:
            env = {self.row.iterator: row_value}
            return Cloner(builder, self.region.blocks, env, affine=False).value(value)
        finally:
            builder.known.clear()
            builder.known.update(saved)

    def follows(
        self, builder: Builder, rows: Operand, count0: Operand, change: int, first_follows: bool
    ) -> Operand:
        """i1: the inner loop runs count0 + change * t times on the row visited t-th
        (change -1: a triangle narrowing along the rows, +1: widening), checked on the
        first two rows and the last two, from a first value that follows the row counter
        (`first_follows`: its first bound is the one that moves) or stays put. The count
        on a row is what the loop really runs: 0 where a test skips it, its trip count
        where it is entered (a rotated loop entered runs at least once: a trip count
        that is no count refuses). The trip count where entered is affine in the row
        (the moving bound is the row counter plus a constant), and the tests are
        monotone in the row, entering on the two inner rows checked, so on every row
        between: agreeing on those four rows, the loop agrees on every row."""
        one, two = const(I64, 1), const(I64, 2)
        single = builder.compare("slt", rows, two)
        checks = []
        rows_checked: list[tuple[Operand, Operand | None]] = [
            (const(I64, 0), None),
            (one, single),
            (builder.binary("sub", rows, two), single),
            (builder.binary("sub", rows, one), None),
        ]
        rows_checked += [
            (self._equal_row(builder, g, rows), None) for g in self.guards if g.pointwise
        ]
        for index, skip in rows_checked:
            expected = builder.binary(
                "add", count0, builder.binary("mul", index, const(I64, change))
            )
            runs = builder.compare(
                "eq", self._runs(builder, self.row_value(builder, index)), expected
            )
            checks.append(runs if skip is None else builder.binary("or", skip, runs))
        first = [self.at(builder, self.row_value(builder, const(I64, t))).first for t in (0, 1)]
        step = const(I64, self.row.step if first_follows else 0)
        moved = builder.compare("eq", first[1], builder.binary("add", first[0], step))
        checks.append(builder.binary("or", single, moved))
        for guard in self.guards:
            if guard.unsigned:
                checks += [
                    builder.binary("or", single, self._no_wrap(builder, side, rows))
                    for side in guard.branch.operands[0].operands
                ]
        return builder.all_of(checks)

    def _no_wrap(self, builder: Builder, side: Value, rows: Operand) -> Operand:
        """i1: `side` of an unsigned test (the row counter plus fixed values, through at
        most one widening: _affine_unsigned) takes the values v0 + d * t on the rows
        visited, d in {-1, 0, 1}, without wrapping as an unsigned number. Its value
        steps by d modulo its width except where it (or the value widened) wraps, a jump
        of a multiple of 2^32 at most once over fewer than 2^31 rows; the last row's
        value on the right side of the first's, exactly (rows - 1) |d| away, rules the
        jump out. An unsigned order of two such sides is then monotone in the row."""
        last_index = builder.binary("sub", rows, const(I64, 1))
        values = [
            self.evaluate_at(builder, side, self.row_value(builder, index))
            for index in (const(I64, 0), const(I64, 1), last_index)
        ]
        first, second, last = values
        span = last_index if first.type == I64 else builder.cast("trunc", last_index, first.type)
        zero, one = const(first.type, 0), const(first.type, 1)
        change = builder.binary("sub", second, first)
        rising = builder.all_of(
            [
                builder.compare("eq", change, one),
                builder.compare("uge", last, first),
                builder.compare("eq", builder.binary("sub", last, first), span),
            ]
        )
        falling = builder.all_of(
            [
                builder.compare("eq", change, builder.binary("sub", zero, one)),
                builder.compare("ule", last, first),
                builder.compare("eq", builder.binary("sub", first, last), span),
            ]
        )
        flat = builder.all_of(
            [builder.compare("eq", change, zero), builder.compare("eq", last, first)]
        )
        few = builder.compare("ult", rows, const(I64, 1 << 31))
        return builder.binary(
            "and", few, builder.binary("or", flat, builder.binary("or", rising, falling))
        )

    def _equal_row(self, builder: Builder, guard: RowGuard, rows: Operand) -> Operand:
        """The row (visited index, within the rows) where an equality test's two sides
        meet, if anywhere: they differ by an affine function of the row, d0 + dd * t, so at
        t = -d0 / dd (where that is a row; another row otherwise, checked anyway)."""
        condition = guard.branch.operands[0]

        def difference(index: int) -> Operand:
            row_value = self.row_value(builder, const(I64, index))
            left, right = (self.evaluate_at(builder, o, row_value) for o in condition.operands)
            return builder.binary("sub", builder.to_i64(left), builder.to_i64(right))

        d0, d1 = difference(0), difference(1)
        step = builder.binary("sub", d1, d0)
        flat = builder.compare("eq", step, const(I64, 0))
        divisor = builder.select(flat, const(I64, 1), step)
        meet = builder.binary("sdiv", builder.binary("sub", const(I64, 0), d0), divisor)
        last = builder.binary("sub", rows, const(I64, 1))
        low = builder.select(builder.compare("slt", meet, const(I64, 0)), const(I64, 0), meet)
        return builder.select(builder.compare("sgt", low, last), last, low)

    def enters(self, builder: Builder, row_value: Operand) -> Operand:
        """i1: every test that skips the inner loop lets it run on the row `row_value`."""
        return builder.all_of([self._enters(builder, g, row_value) for g in self.guards])

    def runs(self, builder: Builder, row_value: Operand) -> Operand:
        """i64: how many times the inner loop runs on the row `row_value` (-1 where its
        trip count is no count)."""
        return self._runs(builder, row_value)

    def _runs(self, builder: Builder, row_value: Operand) -> Operand:
        """i64: how many times the inner loop runs on the row `row_value`: 0 where a test
        skips it, its trip count where entered, -1 where that is no count."""
        at = self.at(builder, row_value)
        counted = builder.select(at.exact, at.count, const(I64, -1))
        enters = [self._enters(builder, guard, row_value) for guard in self.guards]
        if not enters:
            return counted
        return builder.select(builder.all_of(enters), counted, const(I64, 0))

    def _enters(self, builder: Builder, guard: RowGuard, row_value: Operand) -> Operand:
        condition = self.evaluate_at(builder, guard.branch.operands[0], row_value)
        if guard.entering != 0:
            condition = builder.binary("xor", condition, const("i1", "true"))
        return condition


def load_under_row_tests(
    builder: Builder,
    triangle: RowTriangle,
    conditions: Sequence[tuple[Value, bool]],
    held: Operand,
) -> Operand:
    """i1: the fixed values the region reads only where a test that changes with the
    row lets the triangle's inner loop run (a strict triangle's `i + 1 < n`: C++ fields
    loaded again in that loop's preheader) are loaded ahead of it, when that test holds
    on the first row (`held`: the zero-trip guards of `conditions` let their loops run).
    The original then reads them on that row, and as the mapper checks that no store of
    the nest writes them (apart_from_fixed), reads those values on every row. Where the
    test fails on the first row the inner loop never runs (the triangle has one row):
    nothing to gain, the guard declines."""
    late = [v for v in fixed_values(triangle.region) if v in builder.refused]
    if not late:
        return const("i1", "true")
    tests = [(g.branch.operands[0], g.entering == 0) for g in triangle.guards]
    under = runs_with(triangle.region, [*conditions, *tests])
    outside = [v for v in late if v.block not in under]
    if not triangle.guards or outside:
        raise NotReplaced(builder.refused[(outside or late)[0]])
    first = builder.ref(triangle.row.iter_begin)
    entered = builder.binary("and", held, triangle.enters(builder, first))
    for value in late:
        load_fixed(builder, value, entered)
    return entered


def row_guards(region: Region, loops: list[LoopView], inner: LoopView) -> tuple[RowGuard, ...]:
    """The branches in the region that skip `inner` on a condition computed in the
    region (not the latches of `loops`), each an integer comparison monotone in the row
    counter: adds and casts of it that cannot wrap, against values fixed before the
    region. Others are refused."""
    header = inner.iterator.block
    assert header is not None
    latches = {block for value, block in inner.iterator.incoming if value is not inner.iter_begin}
    preheaders = {p for p in header.predecessors if p not in latches}
    headers = {loop.iterator.block for loop in loops}
    guards = []
    for block in region.blocks:
        branch = block.terminator
        if branch.opcode != "br" or not branch.operands or headers & set(block.successors):
            continue  # no test, or a latch of the nest's loops (going round again)
        condition = branch.operands[0]
        entered = [i for i, successor in enumerate(block.successors) if successor in preheaders]
        if condition.block not in region.blocks or len(entered) != 1:
            continue
        predicate = _row_predicate(condition, region)
        unsigned = predicate is None and _unsigned_order(condition, region)
        if predicate is None and not unsigned:
            raise NotReplaced("the inner loop is skipped on a test the mapper cannot follow")
        guards.append(
            RowGuard(branch, entered[0], pointwise=predicate in ("eq", "ne"), unsigned=unsigned)
        )
    return tuple(guards)


_ORDERED = ("slt", "sle", "sgt", "sge")
_UNSIGNED = ("ult", "ule", "ugt", "uge")


def _row_predicate(condition: Value, region: Region) -> str | None:
    """The predicate of a test of the row counter that the guard can follow: a signed
    order (or an unsigned one over values of one sign, `samesign`), monotone in the row,
    or an equality, true on one row at most; both sides affine in the row without
    wrapping (_affine). None for anything else (`(unsigned)(i - 2) > 1` is true on both
    sides of two rows)."""
    if condition.opcode != "icmp" or condition.predicate is None:
        return None
    predicate = condition.predicate
    same_sign = predicate in _UNSIGNED and " samesign " in f" {condition.text} "
    if predicate not in (*_ORDERED, "eq", "ne") and not same_sign:
        return None
    return predicate if all(_affine(o, region) for o in condition.operands) else None


def _affine(value: Value, region: Region) -> bool:
    """Whether `value` is fixed before the region, or a counter of it plus or minus such
    values through adds and subs that cannot wrap as signed values (nsw) and widenings
    that keep the order (sext, zext of a non-negative value). (Only the row counter is
    substituted when the test is evaluated; another counter refuses.)"""
    if value.block not in region.blocks or value.opcode == "phi":
        return True
    text = f" {value.text} "
    if value.opcode == "sext" or (value.opcode == "zext" and " nneg " in text):
        return _affine(value.operands[0], region)
    if value.opcode in ("add", "sub") and " nsw " in text:
        varying = [o for o in value.operands if o.block in region.blocks]
        if value.opcode == "sub" and value.operands[1] in varying:
            return False
        return len(varying) <= 1 and all(_affine(o, region) for o in value.operands)
    return False


def _unsigned_order(condition: Value, region: Region) -> bool:
    """Whether `condition` is an unsigned order of two sides that are each the row
    counter plus or minus fixed values, through at most one widening and no narrowing
    (_affine_unsigned), of 32 bits or more: monotone in the row where neither side
    wraps over the rows visited, which the guard checks (RowTriangle._no_wrap)."""
    if condition.opcode != "icmp" or condition.predicate not in _UNSIGNED:
        return False
    return all(
        _integer_width(o) >= 32 and _affine_unsigned(o, region, widened=False)
        for o in condition.operands
    )


def _integer_width(value: Value) -> int:
    kind = value.type
    return int(kind[1:]) if kind.startswith("i") and kind[1:].isdigit() else 0


def _affine_unsigned(value: Value, region: Region, *, widened: bool) -> bool:
    """Whether `value` is fixed before the region, or a counter of it plus or minus
    such values through adds and subs (wrapping or not: the guard checks) and at most
    one zext or sext (`widened`: one seen already). A counter is a phi of the region;
    only the row counter is substituted when the test is evaluated (another refuses)."""
    if value.block not in region.blocks or value.opcode == "phi":
        return True
    if value.opcode in ("zext", "sext") and not widened:
        return _affine_unsigned(value.operands[0], region, widened=True)
    if value.opcode in ("add", "sub"):
        varying = [o for o in value.operands if o.block in region.blocks]
        if value.opcode == "sub" and value.operands[1] in varying:
            return False
        return len(varying) <= 1 and all(
            _affine_unsigned(o, region, widened=widened) for o in value.operands
        )
    return False


def rows_upwards(
    builder: Builder, accesses: dict[str, Access], rows: Operand, level: int
) -> dict[str, Access]:
    """Accesses measured with the rows counting down, started at the last row instead,
    their stride along the rows (`level`) negated: BLAS wants them positive."""
    last = builder.binary("sub", rows, const(I64, 1))
    turned = {}
    for name, access in accesses.items():
        stride = access.strides[level]
        shift = builder.binary("mul", stride, last)
        first = builder.emit("ptr", f"getelementptr i8, {access.first}, {shift}")
        strides = list(access.strides)
        strides[level] = builder.binary("sub", const(I64, 0), stride)
        turned[name] = replace(access, first=first, strides=tuple(strides))
    return turned
