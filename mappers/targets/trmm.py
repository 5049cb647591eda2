"""TRMM through BLAS (`idiom_trmm` of the runtime, OpenBLAS): the in-place triangular
product B <- alpha * T * B.

The match (blas.idl's TRMM) is a nest over B's rows i and columns j whose innermost loop
sums A-by-B products over k in a triangle with the rows, reading B at rows other than
the one it writes. The loop is that product only if every row it reads is still B's
original row when read, and the guard checks at run time what makes it so:

- the sum runs over the rows after the current one (k = i + d .. m) with the rows
  counting up, or over the rows before it (k = i0 .. i - d) with the rows counting down,
  where d is 1 when the sum starts from B's own element (T's diagonal is one and not
  read: unit) and 0 when it starts from zero (A's diagonal among the products): the
  sum loop's first value and count on the first two rows settle every row, its moving
  bound being the row counter plus a constant (RowOffset);
- the sum's rows are exactly the nest's: T is square over them;
- the B read is the matrix written, element for element (the same first element and
  strides), and A overlaps neither it nor the row tables;
- the scaling after the sum kept in memory (`B[i][j] = alpha * B[i][j]`) is at the
  element the sum wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure, same_first
from mappers.plan.loops import LoopView, loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import depends_on, guard_conditions
from mappers.plan.row_tables import RowTable, declare_row_tables, row_tables
from mappers.plan.triangle import (
    RowGuard,
    RowTriangle,
    load_under_row_tests,
    row_guards,
    rows_upwards,
)
from mappers.rewrite.emit import I64, Builder, Cloner, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.blas import (
    DenseMatch,
    dense_match,
    row_pass,
    row_set_loop,
    scalar_operand,
    scalars_nonzero,
)
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["map_trmm"]

_ELEMENTS = {"float": 0, "double": 1}
_TRMM = "i32 @idiom_trmm(i32, i32, i32, i64, i64, double, ptr, i64, i64, ptr, i64, i64)"
_ROW, _COLUMN, _SUM = 0, 1, 2  # the roles, the order of `_TrmmPlan.loops`


@dataclass(frozen=True)
class _Shape:
    """What the match says statically: which of the sum loop's bounds moves with the rows
    (`upper`: its first value, the rows after the current one), whether T's diagonal is
    one (`unit`: the sum starts from B's own element), the scale after a sum kept in
    memory, with the address it scales, and the loop applying the diagonal in i-k-j."""

    upper: bool
    unit: bool
    edge: Value
    finish_alpha: Value | None
    finish_address: Value | None  # the rows-outer form's scaling, in the column loop
    diagonal: _RowPass | None = None
    scaling: _RowPass | None = None  # i-k-j's, a loop after the sum's

    @property
    def strict(self) -> bool:
        """The sum leaves the diagonal out: T's is one, or a loop of its own applies it."""
        return self.unit or self.diagonal is not None


@dataclass(frozen=True)
class _RowPass:
    """i-k-j's loop in the row loop that multiplies B's row by one value: T's diagonal
    element before the sum (`for j: B[i][j] *= A[i][i]`; `factor` the address it is read
    from, which the guard checks is T's (i, i)), or alpha after it (`factor` None). The
    guard checks that it scales the row the sum adds to."""

    loop: LoopView
    store: Value
    factor: Value | None


class _TrmmPlan(Plan):
    target = "BLAS trmm (OpenBLAS)"

    def __init__(
        self,
        dense: DenseMatch,
        shape: _Shape,
        guards: tuple[RowGuard, ...],
        context: MapperContext,
        levels: tuple[int, int, int],
    ) -> None:
        self.dense, self.shape, self.region = dense, shape, context.region
        # the nest's loops by role (row, column, sum), whatever their nesting order
        self.loops = [dense.loops[level] for level in levels]
        self.triangle = RowTriangle(context.region, self.loops[_ROW], self.loops[_SUM], guards)
        row, total = self.loops[_ROW], self.loops[_SUM]
        if row.step != (1 if shape.upper else -1) or total.step != 1:
            raise NotReplaced(
                "the rows are not visited in the order that reads each row before it is written"
            )
        self.t_first: Operand | None = None  # the sum loop's first row of T (upper)
        self.rows: Operand | None = None
        self.columns: Operand | None = None
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}

    def guard(self, builder: Builder) -> Operand:
        dense = self.dense
        checks = [guard_conditions(builder, self.region, dense.conditions, fixed_loads=True)]
        held = builder.all_of(checks)
        checks.append(load_under_row_tests(builder, self.triangle, dense.conditions, held))
        rows, columns = trip_count(builder, self.loops[_ROW]), trip_count(builder, self.loops[1])
        self.rows, self.columns = rows.count, columns.count
        checks += [rows.exact, columns.exact, self._is_triangle(builder, rows.count)]
        addresses = {"c": dense.c, "b": dense.b, "a": dense.a}
        if self.shape.finish_address is not None:
            addresses["finish"] = self.shape.finish_address
        counts = [rows.count, columns.count, rows.count]
        # the row passes' own reads of the row tables (`B[i]`, `A[i]` loaded again ahead
        # of their loop), measured with the others
        passes = [p for p in (self.shape.diagonal, self.shape.scaling) if p is not None]
        pass_addresses = [p.store.operands[1] for p in passes]
        pass_addresses += [p.factor for p in passes if p.factor is not None]
        saved = dict(builder.known)
        try:
            # Measured over all of T's rows: from the first (upper: the sum loop's first
            # value on the first row, less the diagonal it leaves out; lower: its fixed
            # first value). The B read then starts where B written does, which the guard
            # checks: the rows of T are the nest's.
            if self.t_first is not None:
                builder.known[self.loops[_SUM].iter_begin] = self.t_first
            tables = row_tables(
                builder,
                self.region,
                [*addresses.values(), *pass_addresses],
                loops=self.loops,
                counts=counts,
                entered=builder.all_of(checks),
            )
            for name, address in addresses.items():
                depth = 2 if name == "finish" else 3  # the scaling store is outside the sum
                self.accesses[name] = self._measure(builder, address, counts, depth, tables)
        finally:
            builder.known.clear()
            builder.known.update(saved)
        checks.extend(table.regular for table in tables)
        for each in passes:
            checks.append(self._scales_row(builder, each, tables))
        if not self.shape.upper:
            self.accesses = rows_upwards(builder, self.accesses, rows.count, _ROW)
        for name, access in self.accesses.items():
            self.strides[name], whole = access.element_strides(builder)
            checks.append(whole)
        checks += [self._reads_b_itself(builder), scalars_nonzero(builder, dense)]
        if self.shape.finish_alpha is not None:
            # BLAS takes alpha 0 as "B is not read", where the loop computes 0 * B
            alpha = scalar_operand(builder, self.shape.finish_alpha, 1.0)
            checks.append(builder.compare("one", alpha, const("double", "0.000000e+00")))
        c = self.accesses["c"]
        checks.append(disjoint(builder, c, [self.accesses["a"], *(t.entries for t in tables)]))
        checks.append(apart_from_fixed(builder, self.region, (c.low, c.high)))
        return builder.all_of(checks)

    def _measure(
        self,
        builder: Builder,
        address: Value,
        counts: list[Operand],
        depth: int,
        tables: list[RowTable],
    ) -> Access:
        return measure(
            builder,
            self.region,
            address,
            loops=self.loops[:depth],
            counts=counts[:depth],
            element_type=self.dense.element,
            rows=[t for t in tables if t.level < depth],
        )

    def _scales_row(self, builder: Builder, row_pass: _RowPass, tables: list[RowTable]) -> Operand:
        """i1: the row pass multiplies, on each row, exactly the elements of B the sum
        adds to (the same first element, count and strides, measured as the loops run),
        and where it reads T's diagonal, T's (i, i): A's address with the sum's counter
        at the diagonal (_diagonal_k), on the first, second and last rows (both affine in
        the row: the clones accept nothing else, so three rows settle every row, a wrap
        of a narrow index showing)."""
        assert self.rows is not None and self.columns is not None
        counted = trip_count(builder, row_pass.loop)
        row, c, total = self.loops[_ROW], self.accesses["c"], self.loops[_SUM].iterator
        scaled = measure(
            builder,
            self.region,
            row_pass.store.operands[1],
            loops=[row, row_pass.loop],
            counts=[self.rows, counted.count],
            element_type=self.dense.element,
            rows=[t for t in tables if t.level == 0],
        )
        checks = [
            counted.exact,
            builder.compare("eq", counted.count, self.columns),
            same_first(builder, scaled, c),
            builder.compare("eq", scaled.strides[0], c.strides[_ROW]),
            builder.compare("eq", scaled.strides[1], c.strides[_COLUMN]),
        ]
        if row_pass.factor is None:
            return builder.all_of(checks)
        last = builder.binary("sub", self.rows, const(I64, 1))
        for index in (const(I64, 0), const(I64, 1), last):
            env = {row.iterator: self.triangle.row_value(builder, index)}
            env.update(_rows_at(builder, tables, index))
            read = self._evaluate(builder, row_pass.factor, env)
            k = self._diagonal_k(builder, index)
            diagonal = self._evaluate(builder, self.dense.a, {**env, total: k})
            checks.append(self._same_address(builder, read, diagonal))
        return builder.all_of(checks)

    def _diagonal_k(self, builder: Builder, index: Operand) -> Operand:
        """The sum counter's value at T's diagonal on the row visited `index`-th, the sum
        leaving it out (counting up by one, as the plan checks): one before its first
        value (upper), or one past its last (lower: the count on that row being rows - 1
        - index, as the triangle's check has it)."""
        assert self.rows is not None
        at = self.triangle.at(builder, self.triangle.row_value(builder, index))
        if self.shape.upper:
            k = builder.binary("sub", at.first, const(I64, 1))
        else:
            count = builder.binary("sub", builder.binary("sub", self.rows, const(I64, 1)), index)
            k = builder.binary("add", at.first, count)
        counter = self.loops[_SUM].iterator.type
        return k if counter == I64 else builder.cast("trunc", k, counter)

    def _evaluate(self, builder: Builder, value: Value, env: dict[Value, Operand]) -> Operand:
        saved = dict(builder.known)
        try:
            return Cloner(builder, self.region.blocks, env, affine=True).value(value)
        finally:
            builder.known.clear()
            builder.known.update(saved)

    @staticmethod
    def _same_address(builder: Builder, one: Operand, other: Operand) -> Operand:
        return builder.compare("eq", builder.to_i64(one), builder.to_i64(other))

    def _is_triangle(self, builder: Builder, rows: Operand) -> Operand:
        """i1: the sum loop runs rows - d times on the first row and one fewer on each next
        (d = 1 where the sum leaves the diagonal out: unit, or a loop of its own), from a
        first value that follows the row (upper: the rows after the current one, counting
        up) or stays put (lower: the rows before it, the rows counting down). Where T
        starts the B read starts too (checked on the addresses), so T's rows are the
        nest's."""
        strict, triangle = self.shape.strict, self.triangle
        d = const(I64, 1 if strict else 0)
        if self.shape.upper:
            first = triangle.row_value(builder, const(I64, 0))
            begin = triangle.evaluate_at(builder, triangle.inner.iter_begin, first)
            self.t_first = builder.binary("sub", begin, const(begin.type, 1 if strict else 0))
        count0 = builder.binary("sub", rows, d)
        return triangle.follows(builder, rows, count0, -1, first_follows=self.shape.upper)

    def _reads_b_itself(self, builder: Builder) -> Operand:
        """i1: the sum reads the matrix it writes (B[k][j] moves along k as B[i][j] along
        i, along j alike, not with the rows), A does not move with the columns nor B
        written with the sum, and the scaling store writes the sum's element."""
        s = self.strides
        c, b = self.accesses["c"], self.accesses["b"]
        zero = const(I64, 0)
        checks = [
            same_first(builder, b, c),
            builder.compare("eq", s["b"][_SUM], s["c"][_ROW]),
            builder.compare("eq", s["b"][_COLUMN], s["c"][_COLUMN]),
            builder.compare("eq", s["b"][_ROW], zero),
            builder.compare("eq", s["c"][_SUM], zero),
            builder.compare("eq", s["a"][_COLUMN], zero),
        ]
        if "finish" in self.accesses:
            finish = self.accesses["finish"]
            checks += [
                same_first(builder, finish, c),
                builder.compare("eq", s["finish"][_ROW], s["c"][_ROW]),
                builder.compare("eq", s["finish"][_COLUMN], s["c"][_COLUMN]),
            ]
        return builder.all_of(checks)

    def call(self, builder: Builder) -> Operand:
        assert self.rows is not None and self.columns is not None
        alpha = self.dense.alpha if self.dense.alpha is not None else self.shape.finish_alpha
        a, c = self.accesses["a"], self.accesses["c"]
        sa, sc = self.strides["a"], self.strides["c"]
        return builder.call(
            "i32",
            "idiom_trmm",
            [
                const("i32", _ELEMENTS[self.dense.element]),
                const("i32", 1 if self.shape.upper else 0),
                const("i32", 1 if self.shape.unit else 0),
                self.rows,
                self.columns,
                scalar_operand(builder, alpha, 1.0),
                a.first,
                sa[_ROW],
                sa[_SUM],
                c.first,
                sc[_ROW],
                sc[_COLUMN],
            ],
        )


def _rows_at(builder: Builder, tables: list[RowTable], index: Operand) -> dict[Value, Operand]:
    """The row pointers that the tables picked by the row loop give on the row visited
    `index`-th: the guard checks that the rows lie equally spaced (RowTable.regular)."""
    rows = {}
    for table in tables:
        if table.levels == (_ROW,):
            step = builder.binary(
                "sub", builder.to_i64(table.followings[0]), builder.to_i64(table.first)
            )
            offset = builder.binary("mul", step, index)
            rows[table.load] = builder.emit("ptr", f"getelementptr i8, {table.first}, {offset}")
    return rows


def _shape(
    instance: Instance,
    dense: DenseMatch,
    context: MapperContext,
    levels: tuple[int, int, int],
    *,
    diagonal: _RowPass | None,
    scaling: _RowPass | None,
) -> _Shape:
    solution = instance.solution
    total, row = dense.loops[levels[_SUM]], dense.loops[levels[_ROW]].iterator
    begin_moves = depends_on(total.iter_begin, row, context.region)
    end_moves = depends_on(total.iter_end, row, context.region)
    if begin_moves == end_moves:
        raise NotReplaced("the sum loop does not run over a triangle with the rows")
    # the sum starts from B's own element, as it stands (unit) or times the diagonal
    unit = dense.has_old and diagonal is None
    finish_alpha = solution.get("finish_alpha")
    if finish_alpha is not None and dense.alpha is not None:
        raise NotReplaced("alpha scales both a factor and the sum")
    if unit and solution.get("a_factor") is not solution.get("a.value"):
        # B + alpha * sum: alpha on the products but not on the diagonal's one
        raise NotReplaced("alpha scales the products but not B's own element")
    if unit and dense.beta is not None and dense.beta is not dense.alpha:
        raise NotReplaced("the sum starts from B's element scaled")
    finish_store = solution.get("finish_store")
    return _Shape(
        upper=begin_moves,
        unit=unit,
        edge=total.iter_begin if begin_moves else total.iter_end,
        finish_alpha=finish_alpha,
        finish_address=None if finish_store is None or scaling else finish_store.operands[1],
        diagonal=diagonal,
        scaling=scaling,
    )


def map_trmm(instance: Instance, context: MapperContext) -> Plan:
    context.module.declare("idiom_trmm", f"declare {_TRMM}")
    declare_row_tables(context.module)
    function = context.region.function
    loops = [loop_view(function, instance.solution, f"loop[{level}].") for level in range(3)]
    levels = _levels(instance, loops, context)
    edges = _moving_bounds(loops[levels[_SUM]], context)
    guards = row_guards(context.region, loops, loops[levels[_SUM]])
    skip_store = _skip_store(instance)
    diagonal, scaling = _row_passes(instance, context, loops[levels[_SUM]], levels)
    also = [skip_store, *(p.store for p in (diagonal, scaling) if p is not None)]
    dense = dense_match(
        instance,
        context,
        3,
        roles=lambda *_: (0, 1, 2),  # (no rows cleared before an i-k-j sum)
        edges=edges,
        settled=(levels[_SUM],),
        guarded=tuple(guard.branch for guard in guards),
        also_stores=tuple(s for s in also if s is not None),
        also_loops=tuple(p.loop for p in (diagonal, scaling) if p is not None),
    )
    if dense.element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {dense.element} routine")
    shape = _shape(instance, dense, context, levels, diagonal=diagonal, scaling=scaling)
    return _TrmmPlan(dense, shape, guards, context, levels)


def _row_passes(
    instance: Instance, context: MapperContext, total: LoopView, levels: tuple[int, int, int]
) -> tuple[_RowPass | None, _RowPass | None]:
    """i-k-j's loops that multiply B's row by T's diagonal before the sum and by alpha
    after it ({finish_store}), where the region has them."""
    if levels != (0, 2, 1):
        return None, None
    solution = instance.solution
    scaling, known = None, [need(solution, "c.store")]
    finish_store = solution.get("finish_store")
    if finish_store is not None:
        view = row_pass(context.region, finish_store, total, after=True)
        if view is None:
            raise NotReplaced("the row is scaled elsewhere than in a loop after its sum")
        scaling, known = _RowPass(view, finish_store, None), [*known, finish_store]
    return _diagonal(instance, context, total, known), scaling


def _diagonal(
    instance: Instance, context: MapperContext, total: LoopView, known: list[Value]
) -> _RowPass | None:
    """The loop applying T's diagonal to B's row before an i-k-j sum (row_set_loop), if
    the region has one: it stores the element it read times a value read in the row loop
    (`B[i][j] * A[i][i]`, either way round), with alpha nowhere on the products (A's
    elements as they are)."""
    solution = instance.solution
    found = row_set_loop(context.region, known, total)
    named = solution.get("init_store")  # blas.idl's TRMMDiagonalStore, where it is inside
    if found is None or (named is not None and found[1] is not named):
        if named is not None:
            raise NotReplaced("the row is multiplied elsewhere than in a loop before its sum")
        return None
    view, store = found
    if solution.get("alpha") is not None or solution.get("a_factor") is not solution.get("a.value"):
        raise NotReplaced("alpha scales the products of a sum whose diagonal is a loop of its own")
    stored, address = store.operands[0], store.operands[1]
    if stored.opcode == "fmul":
        for old, factor in (stored.operands, stored.operands[::-1]):
            mine = old.opcode == "load" and old.operands[0] is address
            if mine and factor.opcode == "load" and factor is not old:
                return _RowPass(view, store, factor.operands[0])
    raise NotReplaced("the loop before the sum does not multiply B's row by one element")


def _skip_store(instance: Instance) -> Value | None:
    """The store the row loop leaves to on the row whose sum is empty (blas.idl's
    TRMMSkipStore), checked to be the sum's store with the sum empty: the sum's element
    and B's element as read (an LCSSA phi taking nothing else), scaled by alpha exactly
    where the sum's store is. The call then writes that row as the store does."""
    solution = instance.solution
    store = solution.get("skip_store")
    if store is None:
        return None
    value, address = store.operands[0], store.operands[1]
    old = value if solution.get("skip.alpha") is None else need(solution, "skip.old")
    for start, phi in ((need(solution, "acc_init"), old), (need(solution, "c.address"), address)):
        if phi.opcode != "phi" or [incoming for incoming, _ in phi.incoming] != [start]:
            raise NotReplaced("the last row's store merges values other than the sum's start")
    stored, final = need(solution, "c.store").operands[0], need(solution, "final")
    if (stored is not final) != (solution.get("skip.alpha") is not None):
        raise NotReplaced("alpha scales one of the last row's two stores only")
    if stored is not final and need(solution, "alpha") is not solution.get("skip.alpha"):
        raise NotReplaced("the last row's store scales by another value")
    return store


def _levels(
    instance: Instance, loops: list[LoopView], context: MapperContext
) -> tuple[int, int, int]:
    """The nesting levels of the row, column and sum loops (blas.idl's TRMM): i-k-j where
    the innermost loop updates B in place (`new_value`), else the sum innermost with the
    rows outermost (i-j-k) or inside the columns (j-i-k), the rows being the loop the
    sum's bounds move with."""
    if instance.solution.get("new_value") is not None:
        return (0, 2, 1)
    total = loops[2]
    if any(depends_on(b, loops[0].iterator, context.region) for b in _bounds(total)):
        return (0, 1, 2)
    return (1, 0, 2)


def _bounds(loop: LoopView) -> tuple[Value, Value]:
    return (loop.iter_begin, loop.iter_end)


def _moving_bounds(total: LoopView, context: MapperContext) -> tuple[Value, ...]:
    """The sum loop's bounds computed in the region (the one moving with the rows: the
    guard checks it)."""
    return tuple(b for b in _bounds(total) if b.block in context.region.blocks)
