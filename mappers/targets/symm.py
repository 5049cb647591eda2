"""SYMM through BLAS (`idiom_symm` of the runtime, OpenBLAS): C <- alpha A B + beta C, A
symmetric and read from one triangle by rows (blas.idl's SYMM).

The nest runs over C's rows i and columns j. Its sum loop over k < i (lower) adds row i's
part, alpha B[i][j] A[i][k], to the rows above, and sums B[k][j] A[i][k] for the rest of
C[i][j], which the column loop then stores with beta C[i][j] and the diagonal's
alpha B[i][j] A[i][i]; or the same over k > i (upper), the rows below. (C = alpha B A +
beta C, A on the right, is this nest with C and B indexed [j][i]: the strides tell, and
the runtime takes either layout.) That is the product if what the guard checks at run
time holds:

- lower: the rows count up by one, so the rows above are finished when row i adds to
  them, and the sum loop runs over k = the first row .. i - 1: not at all on the first
  row, once more on each next (the triangle, mappers/plan/triangle.py); upper: the rows
  count down by one and the sum runs over k = i + 1 .. the first (highest) row, measured
  from the last row as TRMM's lower triangle is (rows_upwards);
- C's update and C's store are one matrix (the same first element; the update moves
  along k as the store along i, along j alike), as are the three reads of B and the two
  of A (A[i][i] moves along i as A[i][k] along i and k together);
- C overlaps neither A nor B, nor the row tables.
"""

from __future__ import annotations

from collections.abc import Mapping

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure, same_first
from mappers.plan.loops import LoopView, loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import Region, check_legal, depends_on, guard_conditions
from mappers.plan.row_tables import RowTable, declare_row_tables, row_tables
from mappers.plan.triangle import RowGuard, RowTriangle, row_guards, rows_upwards
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.blas import is_sum_after, nonzero_scales, scalar_operand
from mappers.targets.symm_columns import map_symm_columns
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["map_symm"]

_ELEMENTS = {"float": 0, "double": 1}
_SYMM = (
    "i32 @idiom_symm(i32, i32, i64, i64, double, ptr, i64, i64, ptr, i64, i64, double, ptr,"
    " i64, i64)"
)
_SUM = 2  # the sum loop's level; the rows and columns are the outer two, in either order
_IN_SUM, _AFTER_SUM = 3, 2  # the loops an access is measured over: all, or the outer two


class _SymmPlan(Plan):
    target = "BLAS symm (OpenBLAS)"

    def __init__(
        self,
        reads: dict[str, tuple[Value, int]],
        loops: list[LoopView],
        *,
        row: int,
        element: str,
        upper: bool,
        scales: tuple[Value | None, Value | None],
        conditions: list[tuple[Value, bool]],
        guards: tuple[RowGuard, ...],
        region: Region,
    ) -> None:
        self.reads, self.loops, self.region = reads, loops, region
        self.row, self.column = row, 1 - row  # the levels of the row and column loops
        self.upper = upper  # the sum over the rows after the current one, the rows counting down
        self.alpha, self.beta = scales
        self.conditions = conditions
        self.element = element
        self.triangle = RowTriangle(region, loops[row], loops[_SUM], guards)
        self.k_low: Operand | None = None  # upper: the sum loop's first value over all rows
        self.rows: Operand | None = None
        self.columns: Operand | None = None
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}

    def guard(self, builder: Builder) -> Operand:
        checks = [guard_conditions(builder, self.region, self.conditions, fixed_loads=True)]
        rows = trip_count(builder, self.loops[self.row])
        columns = trip_count(builder, self.loops[self.column])
        self.rows, self.columns = rows.count, columns.count
        checks += [rows.exact, columns.exact, self._is_triangle(builder, rows.count)]
        counts = [rows.count, rows.count, rows.count]
        counts[self.column] = columns.count
        saved = dict(builder.known)
        try:
            # upper: the sum measured over all rows from the lowest, where the rows end
            if self.k_low is not None:
                builder.known[self.loops[_SUM].iter_begin] = self.k_low
            tables = self._measure(builder, counts, builder.all_of(checks))
        finally:
            builder.known.clear()
            builder.known.update(saved)
        checks.extend(table.regular for table in tables)
        if self.upper:
            self.accesses = rows_upwards(builder, self.accesses, rows.count, self.row)
        for name, access in self.accesses.items():
            self.strides[name], whole = access.element_strides(builder)
            checks.append(whole)
        # BLAS reads neither A and B nor C under a zero scale, where the loop computes 0 * NaN
        checks += [self._one_matrix_each(builder), nonzero_scales(builder, [self.alpha, self.beta])]
        c = self.accesses["c"]
        others = [access for name, access in self.accesses.items() if name not in ("c", "c_own")]
        checks.append(disjoint(builder, c, [*others, *(t.entries for t in tables)]))
        checks.append(apart_from_fixed(builder, self.region, (c.low, c.high)))
        return builder.all_of(checks)

    def _measure(self, builder: Builder, counts: list[Operand], entered: Operand) -> list[RowTable]:
        """Every access measured (self.accesses), and the row tables they go through."""
        tables = row_tables(
            builder,
            self.region,
            [address for address, _ in self.reads.values()],
            loops=self.loops,
            counts=counts,
            entered=entered,
        )
        for name, (address, depth) in self.reads.items():
            self.accesses[name] = measure(
                builder,
                self.region,
                address,
                loops=self.loops[:depth],
                counts=counts[:depth],
                element_type=self.element,
                rows=[t for t in tables if t.level < depth],
            )
        return tables

    def _is_triangle(self, builder: Builder, rows: Operand) -> Operand:
        """i1: the sum loop runs 0 times on the first row and once more on each next, from
        a first value that stays put at the first row's counter (lower: k = i0 .. i - 1)
        or follows the row (upper, the rows counting down: k = i + 1 .. i0). Upper: LLVM
        may count the rows by i + 1, so where k starts is left to the accesses, measured
        over the sum from the lowest row: C's update starts where its store does, and so
        do B's and A's reads (_one_matrix_each), which puts the sum's rows on the nest's."""
        triangle = self.triangle
        follows = triangle.follows(builder, rows, const(I64, 0), 1, first_follows=self.upper)
        if self.upper:
            # the sum's first value on the last (lowest) row, less one: the lowest row
            last_row = triangle.row_value(builder, builder.binary("sub", rows, const(I64, 1)))
            begin = triangle.evaluate_at(builder, triangle.inner.iter_begin, last_row)
            self.k_low = builder.binary("sub", begin, const(begin.type, 1))
            return follows
        first_row = triangle.row_value(builder, const(I64, 0))
        k_first = triangle.at(builder, first_row).first
        starts_at_row = builder.compare("eq", k_first, builder.to_i64(first_row))
        return builder.binary("and", starts_at_row, follows)

    def _one_matrix_each(self, builder: Builder) -> Operand:
        """i1: C's update and store, B's three reads and A's two are one matrix each."""
        s, a = self.strides, self.accesses
        row, column, zero = self.row, self.column, const(I64, 0)

        def same(one: str, other: str) -> Operand:
            return same_first(builder, a[one], a[other])

        def equal(one: Operand, other: Operand) -> Operand:
            return builder.compare("eq", one, other)

        diagonal = builder.binary("add", s["a"][row], s["a"][_SUM])
        checks = [
            same("c", "c_own"),
            equal(s["c_own"][row], s["c"][_SUM]),
            equal(s["c_own"][column], s["c"][column]),
            equal(s["c"][row], zero),
            same("b", "b_row"),
            same("b", "b_own"),
            equal(s["b_row"][row], s["b"][_SUM]),
            equal(s["b_own"][row], s["b"][_SUM]),
            equal(s["b_row"][column], s["b"][column]),
            equal(s["b_own"][column], s["b"][column]),
            equal(s["b"][row], zero),
            equal(s["b_row"][_SUM], zero),
            same("a", "a_own"),
            equal(s["a_own"][row], diagonal),
            equal(s["a"][column], zero),
            equal(s["a_own"][column], zero),
        ]
        return builder.all_of(checks)

    def call(self, builder: Builder) -> Operand:
        assert self.rows is not None and self.columns is not None
        a, b, c = self.accesses["a"], self.accesses["b"], self.accesses["c"]
        sa, sb, sc = self.strides["a"], self.strides["b"], self.strides["c"]
        return builder.call(
            "i32",
            "idiom_symm",
            [
                const("i32", _ELEMENTS[self.element]),
                const("i32", 1 if self.upper else 0),
                self.rows,
                self.columns,
                scalar_operand(builder, self.alpha, 1.0),
                a.first,
                sa[self.row],
                sa[_SUM],
                b.first,
                sb[_SUM],
                sb[self.column],
                scalar_operand(builder, self.beta, 1.0),
                c.first,
                sc[_SUM],
                sc[self.column],
            ],
        )


def _reads(solution: Mapping[str, Value | None]) -> dict[str, tuple[Value, int]]:
    """Every access of the nest, named by role, with the loops it is measured over: C
    updated in the sum (c) and stored after it (c_own), B at the sum's row (b), at the
    current row in the update (b_row) and after the sum (b_own), A in the sum (a) and on
    its diagonal (a_own)."""
    a_in_sum = need(solution, "upd.b.address")
    dot_a, dot_b = need(solution, "dot.a.address"), need(solution, "dot.b.address")
    b_in_sum = dot_b if dot_a is a_in_sum else dot_a
    return {
        "c": (need(solution, "upd.c.address"), _IN_SUM),
        "c_own": (need(solution, "final.address"), _AFTER_SUM),
        "b": (b_in_sum, _IN_SUM),
        "b_row": (need(solution, "upd.a.address"), _IN_SUM),
        "b_own": (need(solution, "final.b.address"), _AFTER_SUM),
        "a": (a_in_sum, _IN_SUM),
        "a_own": (need(solution, "final.a.address"), _AFTER_SUM),
    }


def _orientation(loops: list[LoopView], region: Region) -> tuple[int, bool]:
    """Which of the outer two loops is the rows' (the one a bound of the sum loop moves
    with), and whether that bound is the sum's first value (upper: the rows after the
    current one) rather than its end (lower: the rows before it)."""
    total = loops[_SUM]
    moving = [
        (level, upper)
        for level in (0, 1)
        for upper, bound in ((False, total.iter_end), (True, total.iter_begin))
        if depends_on(bound, loops[level].iterator, region)
    ]
    if len(moving) != 1:
        raise NotReplaced("the sum loop does not run over a triangle with one outer loop's rows")
    return moving[0]


def _check_statically(
    solution: Mapping[str, Value | None], loops: list[LoopView], row_level: int, upper: bool
) -> str:
    """The element type, once the nest's shape is checked: the sum counting up by one,
    the rows by one in the direction that finishes a row before another adds to it (up
    for the rows before the current one, down for those after it), the sum's value after
    the loop the sum it left."""
    row, total = loops[row_level], loops[_SUM]
    if row.step != (-1 if upper else 1) or total.step != 1:
        raise NotReplaced(
            "the rows do not count by one towards the sum's rows"
            " (a row would add to unfinished ones)"
        )
    element = need(solution, "final.c_old").type
    if element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {element} routine")
    final = need(solution, "dot.final")
    if final.opcode == "phi" and not is_sum_after(solution, final, "dot."):
        raise NotReplaced("the value stored after the sum is not the sum the loop left")
    term = need(solution, "final.sum_term")
    if solution.get("final.zero_phi.scaled_last") is not None and len(term.incoming) != 2:
        raise NotReplaced("the scaled sum's phi merges other values")
    return element


def map_symm(instance: Instance, context: MapperContext) -> Plan:
    region, solution = context.region, instance.solution
    if not context.reassociate:
        raise NotReplaced("BLAS adds the products in an order of its own (reassociation off)")
    context.module.declare("idiom_symm", f"declare {_SYMM}")
    if solution.get("scale.store") is not None:  # by columns of C (SYMMColumns)
        return map_symm_columns(solution, context)
    declare_row_tables(context.module)
    loops = [loop_view(region.function, solution, f"loop[{level}].") for level in range(3)]
    row, upper = _orientation(loops, region)
    element = _check_statically(solution, loops, row, upper)
    guards = row_guards(region, loops, loops[_SUM])
    edge = loops[_SUM].iter_begin if upper else loops[_SUM].iter_end
    conditions = check_legal(
        region,
        stores=[need(solution, "upd.c.store"), need(solution, "final.store")],
        results=[],
        loops=loops,
        data_loops=[loops[_SUM]],
        conditional=tuple(guard.branch for guard in guards),
        fixed_loads=True,
        edges=(edge,) if edge.block in region.blocks else (),
    )
    scales = (solution.get("upd.alpha"), solution.get("beta"))
    return _SymmPlan(
        _reads(solution),
        loops,
        row=row,
        upper=upper,
        element=element,
        scales=scales,
        conditions=conditions,
        guards=guards,
        region=region,
    )
