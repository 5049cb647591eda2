"""SYMM with A on the right written by the columns of C, as the reference BLAS's right
side is (blas.idl's SYMMColumns), through `idiom_symm`: C <- alpha B A + beta C.

    for j: { for i: C[i][j] = beta * C[i][j] + (alpha * A[j][j]) * B[i][j];
             for k < j: { t = alpha * A[k][j]; for i: C[i][j] += t * B[i][k]; }
             for k > j: { t = alpha * A[j][k]; for i: C[i][j] += t * B[i][k]; } }

Each column reads and writes only its own elements of C, so the columns' order does not
matter; each element is beta C plus the products over every k once, alpha on A's
element (the sums in another order and alpha where BLAS puts it: reassociation). That is
the product if what the guard checks at run time holds:

- the two sums and the diagonal's term cover k = the first column .. the last once each:
  the sum before the column runs from the first column, 0 or 1 times on the first column
  (1: the diagonal in it) and once more on each next; the sum after it starts where that
  one ends (or one further, the diagonal in the scaling loop) and runs once less on each
  next column (mappers/plan/triangle.py on the first two and last two columns);
- the three loops over C's rows run equally often, and C's three accesses are one matrix,
  as are B's (B[i][k] in both sums, B[i][j] with the diagonal) and A's (A[k][j] in one sum
  and A[j][k] in the other: one triangle, read mirrored; A[j][j] on its diagonal);
- C overlaps neither A nor B; alpha and beta are finite and not zero (BLAS reads nothing
  under a zero scale, where the loop computes 0 * NaN).
"""

from __future__ import annotations

from collections.abc import Mapping

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure, same_first
from mappers.plan.loops import LoopView, loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import Region, check_legal, guard_conditions
from mappers.plan.triangle import RowGuard, RowTriangle, row_guards
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.blas import nonzero_scales, scalar_operand
from matcher.ir import Value

__all__ = ["map_symm_columns"]

_ELEMENTS = {"float": 0, "double": 1}
_COLUMN, _SCALE, _BEFORE, _BEFORE_ROWS, _AFTER, _AFTER_ROWS = range(6)
# The loops each access is measured over: the scaling loop's, or a sum's three.
_SCALING = (_COLUMN, _SCALE)
_SUM_BEFORE = (_COLUMN, _BEFORE, _BEFORE_ROWS)
_SUM_AFTER = (_COLUMN, _AFTER, _AFTER_ROWS)


class _ColumnsPlan(Plan):
    target = "BLAS symm (OpenBLAS)"

    def __init__(
        self,
        reads: dict[str, tuple[Value, tuple[int, ...]]],
        loops: list[LoopView],
        *,
        element: str,
        scales: tuple[Value | None, Value | None],
        conditions: list[tuple[Value, bool]],
        guards: tuple[tuple[RowGuard, ...], tuple[RowGuard, ...]],
        region: Region,
    ) -> None:
        self.reads, self.loops, self.region = reads, loops, region
        self.element = element
        self.alpha, self.beta = scales
        self.conditions = conditions
        self.diagonal = 1 if "a_own" in reads else 0  # the scaling loop adds the diagonal
        self.before = RowTriangle(region, loops[_COLUMN], loops[_BEFORE], guards[0])
        self.after = RowTriangle(region, loops[_COLUMN], loops[_AFTER], guards[1])
        self.columns: Operand | None = None
        self.rows: Operand | None = None
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}

    def guard(self, builder: Builder) -> Operand:
        checks = [guard_conditions(builder, self.region, self.conditions, fixed_loads=True)]
        columns = trip_count(builder, self.loops[_COLUMN])
        rows = trip_count(builder, self.loops[_SCALE])
        self.columns, self.rows = columns.count, rows.count
        checks += [columns.exact, rows.exact]
        for level in (_BEFORE_ROWS, _AFTER_ROWS):
            other = trip_count(builder, self.loops[level])
            checks += [other.exact, builder.compare("eq", other.count, rows.count)]
        checks.append(self._covers_every_k(builder, columns.count))
        self._measure(builder, columns.count, rows.count)
        for name, access in self.accesses.items():
            self.strides[name], whole = access.element_strides(builder)
            checks.append(whole)
        checks += [self._one_matrix_each(builder), nonzero_scales(builder, [self.alpha, self.beta])]
        c = self.accesses["c"]
        reads = [a for name, a in self.accesses.items() if not name.startswith("c")]
        checks.append(disjoint(builder, c, reads))
        checks.append(apart_from_fixed(builder, self.region, (c.low, c.high)))
        return builder.all_of(checks)

    def _first_column(self, builder: Builder) -> Operand:
        return self.before.row_value(builder, const(I64, 0))

    def _covers_every_k(self, builder: Builder, columns: Operand) -> Operand:
        """i1: on column j the sum before it runs over k = j0 .. j - 1 (or j), the sum
        after it over the rest up to the last column, and the diagonal, where the scaling
        loop does not add it, is in exactly one of them."""
        first = self._first_column(builder)
        j0 = builder.to_i64(first)
        before, after = self.before.runs(builder, first), self.after.runs(builder, first)
        diagonal = const(I64, self.diagonal)
        before_and_diagonal = builder.binary("add", before, diagonal)
        everything = builder.binary("add", before_and_diagonal, after)
        return builder.all_of(
            [
                builder.compare("sge", before, const(I64, 0)),
                builder.compare("sle", before_and_diagonal, const(I64, 1)),
                builder.compare("eq", everything, columns),
                self.before.follows(builder, columns, before, 1, first_follows=False),
                self.after.follows(builder, columns, after, -1, first_follows=True),
                builder.compare("eq", self.before.at(builder, first).first, j0),
                builder.compare(
                    "eq",
                    self.after.at(builder, first).first,
                    builder.binary("add", j0, before_and_diagonal),
                ),
            ]
        )

    def _measure(self, builder: Builder, columns: Operand, rows: Operand) -> None:
        """Every access measured from the first column, both sums from k = j0 (the sum
        after the column taken from there: its first value moves with the column) over
        every column, a range that holds all the sums read."""
        counts = {_COLUMN: columns, _SCALE: rows, _BEFORE_ROWS: rows, _AFTER_ROWS: rows}
        counts |= {_BEFORE: columns, _AFTER: columns}
        after = self.loops[_AFTER]
        # The sum after the column measured from k = the first column, in k's type: a
        # sum counted in a wider type than the columns (long k beside int j) from the
        # first column sign-extended, which _covers_every_k compares with the sum's real
        # first value (a column counter zero-extended past 2^31 declines there).
        first = builder.cast("sext", self._first_column(builder), after.iter_begin.type)
        for name, (address, levels) in self.reads.items():
            self.accesses[name] = measure(
                builder,
                self.region,
                address,
                loops=[self.loops[level] for level in levels],
                counts=[counts[level] for level in levels],
                element_type=self.element,
                starts={after.iterator: first} if _AFTER in levels else None,
            )

    def _one_matrix_each(self, builder: Builder) -> Operand:
        """i1: C's three accesses, B's and A's are one matrix each, A's two sums reading
        it mirrored (strides along the column and k swapped)."""
        s, a, zero = self.strides, self.accesses, const(I64, 0)

        def same(one: str, other: str) -> Operand:
            return same_first(builder, a[one], a[other])

        def equal(one: Operand, other: Operand) -> Operand:
            return builder.compare("eq", one, other)

        checks = []
        for side in ("before", "after"):
            c, b, m = s[f"c_{side}"], s[f"b_{side}"], s[f"a_{side}"]
            checks += [same("c", f"c_{side}"), equal(c[0], s["c"][0]), equal(c[1], zero)]
            checks += [equal(c[2], s["c"][1]), equal(b[0], zero), equal(m[2], zero)]
        before, after = s["a_before"], s["a_after"]
        checks += [same("b_before", "b_after"), same("a_before", "a_after")]
        checks += [equal(s["b_after"][1], s["b_before"][1])]
        checks += [equal(s["b_after"][2], s["b_before"][2])]
        checks += [equal(after[0], before[1]), equal(after[1], before[0])]
        if self.diagonal:
            diagonal = builder.binary("add", before[0], before[1])
            checks += [same("a_own", "a_before"), equal(s["a_own"][0], diagonal)]
            checks += [equal(s["a_own"][1], zero), same("b_own", "b_before")]
            checks += [equal(s["b_own"][0], s["b_before"][1])]
            checks += [equal(s["b_own"][1], s["b_before"][2])]
        return builder.all_of(checks)

    def call(self, builder: Builder) -> Operand:
        """C^T = alpha A B^T + beta C^T in idiom_symm's terms (A on the left, m = the
        columns): A's element (r, c), c > r, is A[r][c] of the sum before the column
        (k = r < j = c), the upper triangle; B^T's (k, i) and C^T's (j, i)."""
        assert self.columns is not None and self.rows is not None
        a, b, c = self.accesses["a_before"], self.accesses["b_before"], self.accesses["c"]
        sa, sb, sc = self.strides["a_before"], self.strides["b_before"], self.strides["c"]
        return builder.call(
            "i32",
            "idiom_symm",
            [
                const("i32", _ELEMENTS[self.element]),
                const("i32", 1),
                self.columns,
                self.rows,
                scalar_operand(builder, self.alpha, 1.0),
                a.first,
                sa[1],
                sa[0],
                b.first,
                sb[1],
                sb[2],
                scalar_operand(builder, self.beta, 1.0),
                c.first,
                sc[0],
                sc[1],
            ],
        )


def _reads(solution: Mapping[str, Value | None]) -> dict[str, tuple[Value, tuple[int, ...]]]:
    """Every access of the nest by role, with the loops it is measured over: C scaled
    (c) and updated in each sum (c_before, c_after), B and A in each sum, and B[i][j] and
    A[j][j] where the scaling loop adds the diagonal (b_own, a_own)."""
    reads: dict[str, tuple[Value, tuple[int, ...]]] = {
        "c": (need(solution, "scale.address"), _SCALING)
    }
    for side, prefix, levels in (("before", "lo", _SUM_BEFORE), ("after", "hi", _SUM_AFTER)):
        for matrix, name in (("c", "c.address"), ("b", "b.address"), ("a", "a.address")):
            reads[f"{matrix}_{side}"] = (need(solution, f"{prefix}.{name}"), levels)
    if solution.get("scale.diagonal") is not None:
        reads["b_own"] = (need(solution, "scale.b.address"), _SCALING)
        reads["a_own"] = (need(solution, "scale.a.address"), _SCALING)
    return reads


def _width(value: Value) -> int:
    """The bits of an integer value (i32: 32)."""
    return int(value.type[1:])


def map_symm_columns(solution: Mapping[str, Value | None], context: MapperContext) -> Plan:
    region = context.region
    loops = [loop_view(region.function, solution, f"loop[{level}].") for level in range(6)]
    if any(loops[level].step != 1 for level in (_COLUMN, _BEFORE, _AFTER)):
        raise NotReplaced("the columns or a sum over k do not count up by one")
    if _width(loops[_AFTER].iter_begin) < _width(loops[_COLUMN].iter_begin):
        raise NotReplaced("the sum over k counts in a narrower type than the columns")
    element = need(solution, "scale.c_old").type
    if element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {element} routine")
    guards = (
        row_guards(region, loops, loops[_BEFORE]),
        row_guards(region, loops, loops[_AFTER]),
    )
    edges = (loops[_BEFORE].iter_end, loops[_AFTER].iter_begin)
    conditions = check_legal(
        region,
        stores=[need(solution, n) for n in ("scale.store", "lo.c.store", "hi.c.store")],
        results=[],
        loops=loops,
        data_loops=[loops[_BEFORE], loops[_AFTER]],
        conditional=tuple(guard.branch for side in guards for guard in side),
        fixed_loads=True,
        edges=tuple(edge for edge in edges if edge.block in region.blocks),
    )
    return _ColumnsPlan(
        _reads(solution),
        loops,
        element=element,
        scales=(solution.get("lo.alpha"), solution.get("beta")),
        conditions=conditions,
        guards=guards,
        region=region,
    )
