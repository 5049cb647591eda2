"""TRSV through BLAS (`idiom_trsv` of the runtime, OpenBLAS): the triangular solve by
rows, T x = b.

The match (blas.idl's TRSV) is a row loop whose inner loop subtracts from b[i] the
products T[i][j] x[j] over a triangle with the rows, then divides by T[i][i] or not
(a unit diagonal). The loop is that solve only if every x[j] it reads is already solved
when read, and the guard checks at run time what makes it so:

- the inner loop runs over the rows visited before the current one: j = i0 .. i - 1
  with the rows counting up (lower), or j = i + 1 .. with the rows counting down
  (upper), none on the first row and one more on each next (mappers/plan/triangle.py),
  counting up or down (j = i - 1 .. i0: the same products, added in another order,
  which reassociation allows);
- the x read is the vector written, element for element, and T, read at (i, j), is
  apart from it, its diagonal read at (i, i);
- b is x itself (the solve in place) or apart from it (copied into x first).

The runtime declines, x as it was, where a result is not finite: which Inf or NaN a
solve that overflows or divides by zero gets depends on the order of its operations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure, same_first
from mappers.plan.loops import loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import check_legal, depends_on, guard_conditions
from mappers.plan.row_tables import RowTable, declare_row_tables, row_tables
from mappers.plan.triangle import RowTriangle, row_guards, rows_upwards
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.blas import is_sum_after
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["map_trsv"]

_ELEMENTS = {"float": 0, "double": 1}
_TRSV = "i32 @idiom_trsv(i32, i32, i32, i64, ptr, i64, i64, ptr, i64, ptr, i64)"
_ROW, _SUM = 0, 1


@dataclass(frozen=True)
class _Solve:
    """The parts of a TRSV match the plan needs: the accesses by name (x written `c`, x
    read `b`, T `a`, and where the form has them b `start`, T's diagonal `diag`, the
    division's store `finish`), which bound of the inner loop moves with the rows
    (`begin_moves`: its first), which triangle that is (`upper`: the rows after the
    current one, its first bound moving where it counts up, its last where it counts
    down), and the zero-trip guards of the inner loop (fixed ones)."""

    element: str
    addresses: dict[str, Value]
    begin_moves: bool
    upper: bool
    conditions: list[tuple[Value, bool]]


class _TrsvPlan(Plan):
    target = "BLAS trsv (OpenBLAS)"

    def __init__(self, solve: _Solve, triangle: RowTriangle, context: MapperContext) -> None:
        if triangle.row.step != (-1 if solve.upper else 1) or triangle.inner.step not in (1, -1):
            raise NotReplaced("the rows are not visited in the order that solves each row first")
        self.solve, self.triangle, self.region = solve, triangle, context.region
        self.rows: Operand | None = None
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}

    def guard(self, builder: Builder) -> Operand:
        triangle = self.triangle
        checks = [guard_conditions(builder, self.region, self.solve.conditions, fixed_loads=True)]
        rows = trip_count(builder, triangle.row)
        self.rows = rows.count
        checks += [
            rows.exact,
            triangle.follows(
                builder, rows.count, const(I64, 0), 1, first_follows=self.solve.begin_moves
            ),
        ]
        tables = self._measure_all(builder, rows.count, builder.all_of(checks))
        checks.extend(table.regular for table in tables)
        if self.solve.upper:
            self.accesses = rows_upwards(builder, self.accesses, rows.count, _ROW)
        if triangle.inner.step == -1:
            # T and the x read measured from their last column down: turned like the rows
            inner = {name: self.accesses[name] for name in ("a", "b")}
            self.accesses.update(rows_upwards(builder, inner, rows.count, _SUM))
        for name, access in self.accesses.items():
            self.strides[name], whole = access.element_strides(builder)
            checks.append(whole)
        checks.append(self._shapes(builder))
        c = self.accesses["c"]
        checks.append(disjoint(builder, c, [self.accesses["a"], *(t.entries for t in tables)]))
        checks.append(apart_from_fixed(builder, self.region, (c.low, c.high)))
        if "start" in self.accesses:
            checks.append(builder.binary("or", self._in_place(builder), self._start_apart(builder)))
        return builder.all_of(checks)

    def _measure_all(self, builder: Builder, rows: Operand, entered: Operand) -> list[RowTable]:
        """Every access over the rows (and the inner loop for T and the x read), the inner
        loop taken over all of T's rows: from its fixed first value, or, where that moves
        with the rows, from its first value on the first row less the rows (counting up:
        the lowest row of an upper solve) or plus them (counting down: the highest row of
        a lower one)."""
        triangle, loops = self.triangle, [self.triangle.row, self.triangle.inner]
        saved = dict(builder.known)
        try:
            if self.solve.begin_moves:
                first = triangle.row_value(builder, const(I64, 0))
                begin = triangle.evaluate_at(builder, triangle.inner.iter_begin, first)
                count = rows if begin.type == I64 else builder.cast("trunc", rows, begin.type)
                moved = "sub" if triangle.inner.step == 1 else "add"
                builder.known[triangle.inner.iter_begin] = builder.binary(moved, begin, count)
            addresses = self.solve.addresses
            tables = row_tables(
                builder,
                self.region,
                list(addresses.values()),
                loops=loops,
                counts=[rows, rows],
                entered=entered,
            )
            for name, address in addresses.items():
                depth = 2 if name in ("a", "b") else 1
                self.accesses[name] = measure(
                    builder,
                    self.region,
                    address,
                    loops=loops[:depth],
                    counts=[rows, rows][:depth],
                    element_type=self.solve.element,
                    rows=[t for t in tables if t.level < depth],
                )
        finally:
            builder.known.clear()
            builder.known.update(saved)
        return tables

    def _shapes(self, builder: Builder) -> Operand:
        """i1: the x read is the vector written (x[j] moves along j as x[i] along i, from
        the same first element, not with the rows), the diagonal read is T's and the
        division stores into x[i]."""
        s, a, c = self.strides, self.accesses["a"], self.accesses["c"]
        zero = const(I64, 0)
        checks = [
            same_first(builder, self.accesses["b"], c),
            builder.compare("eq", s["b"][_SUM], s["c"][_ROW]),
            builder.compare("eq", s["b"][_ROW], zero),
        ]
        if "diag" in self.accesses:
            diagonal = builder.binary("add", s["a"][_ROW], s["a"][_SUM])
            checks += [
                same_first(builder, self.accesses["diag"], a),
                builder.compare("eq", s["diag"][_ROW], diagonal),
            ]
        if "finish" in self.accesses:
            checks += [
                same_first(builder, self.accesses["finish"], c),
                builder.compare("eq", s["finish"][_ROW], s["c"][_ROW]),
            ]
        return builder.all_of(checks)

    def _in_place(self, builder: Builder) -> Operand:
        """i1: b is x itself."""
        start, c = self.accesses["start"], self.accesses["c"]
        return builder.all_of(
            [
                same_first(builder, start, c),
                builder.compare("eq", self.strides["start"][_ROW], self.strides["c"][_ROW]),
            ]
        )

    def _start_apart(self, builder: Builder) -> Operand:
        return disjoint(builder, self.accesses["c"], [self.accesses["start"]])

    def call(self, builder: Builder) -> Operand:
        assert self.rows is not None
        a, c = self.accesses["a"], self.accesses["c"]
        sa, sc = self.strides["a"], self.strides["c"]
        start, start_stride = const("ptr", "null"), const(I64, 0)
        if "start" in self.accesses:
            separate = builder.binary("xor", self._in_place(builder), const("i1", "true"))
            start = builder.select(separate, self.accesses["start"].first, start)
            start_stride = self.strides["start"][_ROW]
        return builder.call(
            "i32",
            "idiom_trsv",
            [
                const("i32", _ELEMENTS[self.solve.element]),
                const("i32", 1 if self.solve.upper else 0),
                const("i32", 0 if "diag" in self.solve.addresses else 1),
                self.rows,
                a.first,
                sa[_ROW],
                sa[_SUM],
                start,
                start_stride,
                c.first,
                sc[_ROW],
            ],
        )


def map_trsv(instance: Instance, context: MapperContext) -> Plan:
    context.module.declare("idiom_trsv", f"declare {_TRSV}")
    declare_row_tables(context.module)
    solution, region = instance.solution, context.region
    loops = [loop_view(region.function, solution, f"loop[{level}].") for level in range(2)]
    element = need(solution, "a.value").type
    if element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {element} routine")
    if not context.reassociate:
        raise NotReplaced("BLAS adds the products in an order of its own (reassociation off)")
    for name in ("final", "finish_old"):
        value = solution.get(name)
        if value is not None and value.opcode == "phi" and not is_sum_after(solution, value):
            raise NotReplaced("the value divided is not the sum as the loop left it")
    guards = row_guards(region, loops, loops[_SUM])
    inner, row = loops[_SUM], loops[_ROW].iterator
    begin_moves = depends_on(inner.iter_begin, row, region)
    if begin_moves == depends_on(inner.iter_end, row, region):
        raise NotReplaced("the inner loop does not run over a triangle with the rows")
    stores = [solution.get(name) for name in ("c.store", "init_store", "finish_store")]
    conditions = check_legal(
        region,
        stores=[s for s in stores if s is not None],
        results=[],
        loops=loops,
        data_loops=[inner],
        conditional=[guard.branch for guard in guards],
        fixed_loads=True,
        edges=[inner.iter_begin if begin_moves else inner.iter_end],
    )
    upper = begin_moves != (inner.step == -1)
    solve = _Solve(element, _addresses(solution), begin_moves, upper, conditions)
    return _TrsvPlan(solve, RowTriangle(region, loops[_ROW], inner, guards), context)


def _addresses(solution: Mapping[str, Value | None]) -> dict[str, Value]:
    names = {
        "c": "c.address",
        "b": "b.address",
        "a": "a.address",
        "start": "start.address",
        "diag": "diag.address",
        "finish": "finish.address",
    }
    found = {key: solution.get(name) for key, name in names.items()}
    return {key: value for key, value in found.items() if value is not None}
