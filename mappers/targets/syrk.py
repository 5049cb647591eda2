"""SYRK and SYR2K through BLAS (`idiom_syrk`/`idiom_syr2k` of the runtime, OpenBLAS): one
triangle of C <- alpha * A * A^T + beta * C, or of alpha * (A B^T + B A^T) + beta * C.

The match is a GEMM nest (blas.idl's forms) whose loop over C's columns runs over a
triangle with the row loop: `j <= i` (lower) or `j >= i` (upper). Both factors are
reads of one array, A[i][k] and A[j][k]. The guard checks at run time what the IDL
cannot: that the column loop starts at the row loop's first value and ends at the
current row (lower), or starts at the current row and ends with the row loop (upper),
counting up by one, so that the triangle is exactly BLAS's, diagonal included; that the
two reads are the same matrix (SYR2K: A[i][k] and A[j][k], B[i][k] and B[j][k], one
alpha for both products); that C overlaps neither; and, where the row loop first
scales or clears its row, that it does so over the same triangle. The triangle the code
does not write is neither read nor written by the call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure, same_first
from mappers.plan.loops import LoopView, RowCounts, loop_at_row, loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import (
    Region,
    depends_on,
    guard_conditions,
)
from mappers.plan.row_tables import RowTable, declare_row_tables, row_tables
from mappers.plan.triangle import RowGuard, RowTriangle, load_under_row_tests, row_guards
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.blas import (
    Clearing,
    DenseMatch,
    alpha_beta,
    dense_match,
    scalar_operand,
    scalars_nonzero,
)
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["map_syr2k", "map_syrk"]

_ELEMENTS = {"float": 0, "double": 1}
_SYRK = "i32 @idiom_syrk(i32, i32, i64, i64, double, ptr, i64, i64, double, ptr, i64, i64)"
_SYR2K = (
    "i32 @idiom_syr2k(i32, i32, i64, i64, double, ptr, i64, i64, ptr, i64, i64, double, ptr, "
    "i64, i64)"
)
_FINISH = "i32 @idiom_syrk_finish(i32, i32, i32, i64, ptr, i64, i64, i32, double, ptr, i64, double)"
_KEEP = "ptr @idiom_triangle_keep_diagonal(i32, i64, i64, ptr, i64, i64)"
_DIVIDE, _MIRROR, _STRICT, _DIAGONAL = 1, 2, 4, 8  # idiom_syrk_finish's flags
_ROW, _COLUMN, _SUM = "row", "column", "sum"


@dataclass(frozen=True)
class _Triangle:
    """The nest's levels and the column loop's bound that is the row loop's counter."""

    levels: dict[str, int]  # row, column, sum -> level in the nest
    edge: Value  # the column loop's iter_end (lower) or iter_begin (upper)
    lower: bool
    strict: bool = False  # j = i + 1 .. n: the upper triangle without the diagonal


def _triangle(loops: list[LoopView]) -> _Triangle:
    """Which inner loop runs over the triangle, and which of its bounds is the row loop's
    counter (blas.idl's RowEdge: the counter itself, or widened), or for the upper
    triangle of the column loop the counter plus one (the strict triangle)."""
    row = loops[0].iterator

    def is_edge(bound: Value) -> bool:
        widened = bound.opcode in ("zext", "sext") and bound.operands[0] is row
        return bound is row or widened

    def is_next(bound: Value) -> bool:  # i + 1, maybe widened after or before the add
        if bound.opcode in ("zext", "sext") and bound.operands[0].opcode == "add":
            bound = bound.operands[0]
        return bound.opcode == "add" and is_edge(bound.operands[0]) and _is_one(bound.operands[1])

    for level in (1, 2):
        loop = loops[level]
        for edge, lower in ((loop.iter_end, True), (loop.iter_begin, False)):
            if is_edge(edge):
                levels = {_ROW: 0, _COLUMN: level, _SUM: 3 - level}
                return _Triangle(levels, edge, lower)
    if is_next(loops[1].iter_begin):
        levels = {_ROW: 0, _COLUMN: 1, _SUM: 2}
        return _Triangle(levels, loops[1].iter_begin, lower=False, strict=True)
    raise NotReplaced("no inner loop runs over a triangle with the row loop")


def _is_one(value: Value) -> bool:
    return value.constant == 1


@dataclass(frozen=True)
class _Diagonal:
    """A store of a value fixed for the nest into C's diagonal, once a row, beside a
    strict triangle (`C[i][i] = 1.0`, a correlation matrix): the guard checks at run
    time that its address is C[i][i]."""

    store: Value
    value: Value


def _diagonal_store(instance: Instance, region: Region, triangle: _Triangle) -> _Diagonal | None:
    """The store into the diagonal of a strict triangle's row loop, if it has one: the
    only store outside the match's own, in the row loop but in no loop inside it, on
    every trip (it dominates the latch, and any test that leaves the row loop early, on
    its last trip: loops.idl's EarlyExit), of a value fixed for the nest."""
    if not triangle.strict:
        return None
    own = {
        instance.solution.get(n) for n in ("c.store", "init_store", "finish_store", "mirror_store")
    }
    inner = {b for child in region.loop.children for b in child.blocks}
    others = [
        i
        for block in region.blocks - inner
        for i in block.instructions
        if i.opcode == "store" and i not in own
    ]
    if len(others) != 1:
        return None
    store = others[0]
    fixed = store.operands[0].block not in region.blocks
    exits = [block.terminator for block in region.loop.exiting]
    dominates = region.function.dominates
    if not fixed or not all(dominates(store, branch) for branch in exits):
        return None
    return _Diagonal(store, store.operands[0])


def _roles(triangle: _Triangle) -> tuple[int, int, int]:
    levels = triangle.levels
    return levels[_ROW], levels[_COLUMN], levels[_SUM]


@dataclass(frozen=True)
class _Symmetric:
    dense: DenseMatch
    triangle: _Triangle
    diagonal: _Diagonal | None
    guards: tuple[RowGuard, ...]


class _SyrkPlan(Plan):
    """One triangle updated from `products`, each (a read moving with the row loop, a
    read moving with the column loop): SYRK's one, A[i][k] A[j][k], or SYR2K's two,
    A[i][k] B[j][k] and B[i][k] A[j][k]."""

    def __init__(
        self, found: _Symmetric, context: MapperContext, products: list[tuple[Value, Value]]
    ) -> None:
        dense, triangle = found.dense, found.triangle
        self.dense = dense
        self.triangle = triangle
        self.region = context.region
        self.products = [self._oriented(pair) for pair in products]
        self.target = "BLAS syrk (OpenBLAS)" if len(products) == 1 else "BLAS syr2k (OpenBLAS)"
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}
        self.counts: list[Operand] = []
        self.first_rows: tuple[Operand, ...] = ()  # the row counter's first two values
        self.column_rows: list[RowCounts] = []  # the column loop at those rows
        self.rows: Operand | None = None  # the row loop's trip count
        self.diagonal = found.diagonal
        self.guards = found.guards
        row = dense.loops[0]
        column = dense.loops[triangle.levels[_COLUMN]]
        if row.step != 1 or column.step != 1:
            raise NotReplaced("the triangle's loops do not count up by one")
        if row.iterator.type != column.iterator.type:
            raise NotReplaced("the row and column counters have different types")
        # Measured from its first value, which the guard checks is the row loop's.
        self.measured = list(dense.loops)
        self.measured[triangle.levels[_COLUMN]] = replace(column, iter_begin=row.iter_begin)

    def guard(self, builder: Builder) -> Operand:
        dense, levels = self.dense, self.triangle.levels
        checks = [guard_conditions(builder, self.region, dense.conditions, fixed_loads=True)]
        column = dense.loops[self.triangle.levels[_COLUMN]]
        triangle = RowTriangle(self.region, dense.loops[0], column, self.guards)
        checks.append(
            load_under_row_tests(builder, triangle, dense.conditions, builder.all_of(checks))
        )
        rows = trip_count(builder, dense.loops[0])
        total = trip_count(builder, dense.loops[levels[_SUM]])
        checks += [rows.exact, total.exact]
        self.rows = rows.count
        column = dense.loops[levels[_COLUMN]]
        self.first_rows = self._first_rows(builder)
        self.column_rows = [self._loop_at(builder, column, v) for v in self.first_rows]
        size = rows.count
        if self.triangle.strict:
            # n x n with rows 0 .. n - 2 (or n - 1, whose loop is empty) visited
            size = builder.binary("add", self.column_rows[0].count, const(I64, 1))
            checks.append(self._is_strict_triangle(builder, rows.count, size))
        else:
            checks.append(self._is_triangle(builder, rows.count))
        counts = {_ROW: size, _COLUMN: size, _SUM: total.count}
        self.counts = [counts[name] for name in sorted(levels, key=levels.__getitem__)]
        addresses = {"c": dense.c}
        for number, (row_read, column_read) in enumerate(self.products):
            addresses[f"row{number}"], addresses[f"column{number}"] = row_read, column_read
        clearing = [dense.clearing.address] if dense.clearing is not None else []
        mirror = self._mirror_address()
        diagonal = [self.diagonal.store.operands[1]] if self.diagonal is not None else []
        tables = row_tables(
            builder,
            self.region,
            [*addresses.values(), *clearing, *mirror, *diagonal],
            loops=self.measured,
            counts=self.counts,
            entered=builder.all_of(checks),
        )
        checks.extend(table.regular for table in tables)
        for name, address in addresses.items():
            self.accesses[name] = self._measure(builder, address, self.measured, tables)
        for name, access in self.accesses.items():
            self.strides[name], whole = access.element_strides(builder)
            checks.append(whole)
        last = len(self.products) - 1  # SYRK: row0 with column0; SYR2K: row0/column1, row1/column0
        for number in range(len(self.products)):
            checks.append(self._same_matrix(builder, f"row{number}", f"column{last - number}"))
        if dense.clearing is not None:
            checks.append(self._clears_triangle(builder, dense.clearing, tables))
        checks.append(scalars_nonzero(builder, dense))
        if dense.finish is not None and dense.finish.divisor is not None:
            # s / 0 is Inf or NaN by the sign of s, which a reordered sum may not keep.
            divisor = scalar_operand(builder, dense.finish.divisor, 1.0)
            checks.append(builder.compare("one", divisor, const("double", "0.000000e+00")))
        reads = [access for name, access in self.accesses.items() if name != "c"]
        written = [self.accesses["c"]]
        if mirror:
            mirrored = self._measure(builder, mirror[0], self.measured[:2], tables)
            checks.append(self._is_mirror(builder, mirrored))
            written.append(mirrored)
        if diagonal:
            set_diagonal = self._measure(builder, diagonal[0], self.measured[:1], tables)
            checks.append(self._is_diagonal(builder, set_diagonal))
            written.append(set_diagonal)
        for target in written:
            entries = [table.entries for table in tables]
            checks.append(disjoint(builder, target, [*reads, *entries]))
            checks.append(apart_from_fixed(builder, self.region, (target.low, target.high)))
        return builder.all_of(checks)

    def _mirror_address(self) -> list[Value]:
        finish = self.dense.finish
        if finish is None or finish.mirror is None:
            return []
        if self.triangle.levels[_COLUMN] != 1:
            raise NotReplaced("the mirror store is not in the column loop")
        return [finish.mirror]

    def _is_mirror(self, builder: Builder, mirrored: Access) -> Operand:
        """i1: the mirror store writes C's element with the row and column swapped: the
        same first element, its stride along the row loop C's along the column loop and
        the other way round."""
        c, sc = self.accesses["c"], self.strides["c"]
        sm, whole = mirrored.element_strides(builder)
        row, column = self.triangle.levels[_ROW], self.triangle.levels[_COLUMN]
        return builder.all_of(
            [
                whole,
                same_first(builder, mirrored, c),
                builder.compare("eq", sm[row], sc[column]),
                builder.compare("eq", sm[column], sc[row]),
            ]
        )

    def _oriented(self, pair: tuple[Value, Value]) -> tuple[Value, Value]:
        """(the read moving with the row loop, the one moving with the column loop)."""
        column = self.dense.loops[self.triangle.levels[_COLUMN]].iterator
        first_moves = depends_on(pair[0], column, self.region)
        second_moves = depends_on(pair[1], column, self.region)
        if first_moves == second_moves:
            raise NotReplaced("the factors are not A[i][k] and A[j][k]")
        return (pair[1], pair[0]) if first_moves else pair

    def _measure(
        self, builder: Builder, address: Value, loops: list[LoopView], tables: list[RowTable]
    ) -> Access:
        return measure(
            builder,
            self.region,
            address,
            loops=loops,
            counts=self.counts[: len(loops)],
            element_type=self.dense.element,
            rows=[t for t in tables if t.level < len(loops)],
        )

    def _is_triangle(self, builder: Builder, rows: Operand) -> Operand:
        """i1: for every row r (from the row loop's first value i0), the column loop runs
        over i0..r (lower) or r..i0+rows-1 (upper). Its moving bound is the row counter
        itself (RowEdge), so its first value and count change by exactly one (or not at
        all) from row to row: checking the first two rows settles every row."""
        at_first, at_second = self.column_rows
        i0 = builder.to_i64(self.first_rows[0])
        one, two = const(I64, 1), const(I64, 2)
        checks = [at_first.exact]
        if self.triangle.lower:
            checks += [
                at_second.exact,
                builder.compare("eq", at_first.first, i0),
                builder.compare("eq", at_first.count, one),
                builder.compare("eq", at_second.count, two),
            ]
        else:
            checks += [
                builder.compare("eq", at_first.first, i0),
                builder.compare("eq", at_second.first, builder.binary("add", i0, one)),
                builder.compare("eq", at_first.count, rows),
            ]
        return builder.all_of(checks)

    def _is_strict_triangle(self, builder: Builder, rows: Operand, size: Operand) -> Operand:
        """i1: the column loop runs over r + 1 .. i0 + size - 1 on every row r from the row
        loop's first value i0: one fewer each row from size - 1 on the first (counted as it
        really runs, a test skipping it on the last row included: mappers/plan/triangle.py),
        from the row counter plus one; the rows visited are size - 1 or size (the last
        row's loop empty)."""
        dense = self.dense
        row, column = dense.loops[0], dense.loops[self.triangle.levels[_COLUMN]]
        triangle = RowTriangle(self.region, row, column, self.guards)
        i0 = builder.to_i64(self.first_rows[0])
        one = const(I64, 1)
        fewer = builder.binary("sub", size, one)
        return builder.all_of(
            [
                triangle.follows(builder, rows, fewer, -1, first_follows=True),
                builder.compare("eq", self.column_rows[0].first, builder.binary("add", i0, one)),
                builder.binary(
                    "or",
                    builder.compare("eq", rows, size),
                    builder.compare("eq", rows, fewer),
                ),
            ]
        )

    def _is_diagonal(self, builder: Builder, stored: Access) -> Operand:
        """i1: the store beside the strict triangle writes C[r][r] on every row r (C is
        measured from the row loop's first value along both loops)."""
        c, sc = self.accesses["c"], self.strides["c"]
        sd, whole = stored.element_strides(builder)
        row, column = self.triangle.levels[_ROW], self.triangle.levels[_COLUMN]
        return builder.all_of(
            [
                whole,
                same_first(builder, stored, c),
                builder.compare("eq", sd[row], builder.binary("add", sc[row], sc[column])),
            ]
        )

    def _same_matrix(self, builder: Builder, row_read: str, column_read: str) -> Operand:
        """i1: A[i][k] and A[j][k] read one matrix: the same first element, the column
        loop moving the second as the row loop moves the first, and each fixed along the
        other's loop."""
        levels = self.triangle.levels
        row, column, total = levels[_ROW], levels[_COLUMN], levels[_SUM]
        a, b = self.accesses[row_read], self.accesses[column_read]
        sa, sb, sc = self.strides[row_read], self.strides[column_read], self.strides["c"]
        zero = const(I64, 0)
        return builder.all_of(
            [
                same_first(builder, a, b),
                builder.compare("eq", sb[column], sa[row]),
                builder.compare("eq", sb[total], sa[total]),
                builder.compare("eq", sa[column], zero),
                builder.compare("eq", sb[row], zero),
                builder.compare("eq", sc[total], zero),
            ]
        )

    def _clears_triangle(
        self, builder: Builder, clearing: Clearing, tables: list[RowTable]
    ) -> Operand:
        """i1: the loop that scales (or clears) the row before the updates covers the same
        triangle, element for element: the same first values and counts for the first two
        rows, the same first element and strides."""
        row = self.dense.loops[0]
        checks = []
        for own, value in zip(self.column_rows, self.first_rows, strict=True):
            theirs = self._loop_at(builder, clearing.loop, value)
            # Past the last row (n == 1) an upper triangle's row is empty: counts of 0
            # compare equal, whether or not the loops would be entered.
            checks += [
                builder.compare("eq", own.exact, theirs.exact),
                builder.compare("eq", own.first, theirs.first),
                builder.compare("eq", own.count, theirs.count),
            ]
        measured = replace(clearing.loop, iter_begin=row.iter_begin)
        cleared = self._measure(builder, clearing.address, [self.measured[0], measured], tables)
        c = self.accesses["c"]
        levels = self.triangle.levels
        checks += [
            same_first(builder, cleared, c),
            builder.compare("eq", cleared.strides[0], c.strides[levels[_ROW]]),
            builder.compare("eq", cleared.strides[1], c.strides[levels[_COLUMN]]),
        ]
        return builder.all_of(checks)

    def _first_rows(self, builder: Builder) -> tuple[Operand, Operand]:
        """The row counter's first value and the one after it."""
        first = builder.ref(self.dense.loops[0].iter_begin)
        return first, builder.binary("add", first, const(first.type, 1))

    def _loop_at(self, builder: Builder, loop: LoopView, row_value: Operand) -> RowCounts:
        return loop_at_row(builder, self.region.blocks, self.dense.loops[0], loop, row_value)

    def call(self, builder: Builder) -> Operand:
        alpha, beta = alpha_beta(builder, self.dense)
        levels = self.triangle.levels
        row, total = levels[_ROW], levels[_SUM]
        matrices: list[Operand] = []
        for number in range(len(self.products)):
            strides = self.strides[f"row{number}"]
            matrices += [self.accesses[f"row{number}"].first, strides[row], strides[total]]
        sc = self.strides["c"]
        entry = "idiom_syrk" if len(self.products) == 1 else "idiom_syr2k"
        element = const("i32", _ELEMENTS[self.dense.element])
        lower = const("i32", 1 if self.triangle.lower else 0)
        c = [self.accesses["c"].first, sc[row], sc[levels[_COLUMN]]]
        size, kept = self.counts[row], const("ptr", "null")
        if self.triangle.strict:
            # BLAS writes the diagonal too: keep aside the rows the loop does not set itself
            # (no memory: a size the call declines)
            assert self.rows is not None
            own = self.rows if self.diagonal is not None else const(I64, 0)
            kept = builder.call("ptr", "idiom_triangle_keep_diagonal", [element, size, own, *c])
            lost = builder.compare("eq", kept, const("ptr", "null"))
            size = builder.select(lost, const(I64, -1), size)
        status = builder.call(
            "i32",
            entry,
            [element, lower, size, self.counts[total], alpha, *matrices, beta, *c],
        )
        flags, divisor = self._finish_flags()
        if flags == 0:
            return status
        assert self.rows is not None
        diagonal = self.diagonal.value if self.diagonal is not None else None
        return builder.call(
            "i32",
            "idiom_syrk_finish",
            [
                status,
                element,
                lower,
                self.counts[row],
                *c,
                const("i32", flags),
                scalar_operand(builder, divisor, 1.0),
                kept,
                self.rows,
                scalar_operand(builder, diagonal, 0.0),
            ],
        )

    def _finish_flags(self) -> tuple[int, Value | None]:
        """idiom_syrk_finish's flags (runtime/idiom_runtime.h), and the divisor."""
        finish, flags = self.dense.finish, 0
        if finish is not None:
            flags |= _DIVIDE if finish.divisor is not None else 0
            flags |= _MIRROR if finish.mirror is not None else 0
        flags |= _STRICT if self.triangle.strict else 0
        flags |= _DIAGONAL if self.diagonal is not None else 0
        return flags, finish.divisor if finish is not None else None


def _symmetric(instance: Instance, context: MapperContext) -> _Symmetric:
    declare_row_tables(context.module)
    region = context.region
    loops = [loop_view(region.function, instance.solution, f"loop[{n}].") for n in range(3)]
    triangle = _triangle(loops)
    diagonal = _diagonal_store(instance, region, triangle)
    # The strict triangle's column loop is empty on the last row: a test of its own may
    # skip it there (the guard checks it against the triangle).
    column = loops[triangle.levels[_COLUMN]]
    guards = row_guards(region, loops, column) if triangle.strict else ()
    dense = dense_match(
        instance,
        context,
        3,
        roles=lambda *_: _roles(triangle),
        edges=(triangle.edge,),
        settled=(triangle.levels[_COLUMN],) if triangle.strict else (),
        guarded=tuple(guard.branch for guard in guards),
        also_stores=(diagonal.store,) if diagonal is not None else (),
    )
    if dense.element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {dense.element} routine")
    if dense.finish is not None or triangle.strict:
        context.module.declare("idiom_syrk_finish", f"declare {_FINISH}")
    if triangle.strict:
        context.module.declare("idiom_triangle_keep_diagonal", f"declare {_KEEP}")
    return _Symmetric(dense, triangle, diagonal, guards)


def map_syrk(instance: Instance, context: MapperContext) -> Plan:
    context.module.declare("idiom_syrk", f"declare {_SYRK}")
    found = _symmetric(instance, context)
    return _SyrkPlan(found, context, [(found.dense.a, found.dense.b)])


def map_syr2k(instance: Instance, context: MapperContext) -> Plan:
    context.module.declare("idiom_syr2k", f"declare {_SYR2K}")
    found = _symmetric(instance, context)
    dense = found.dense
    solution = instance.solution
    # The dot-product form scales the sum, not its products (blas.idl's DotProductLoop);
    # the other forms scale the first product by alpha.
    first_scale = None if solution.get("final") is not None else dense.alpha
    if solution.get("second.alpha") is not first_scale:
        raise NotReplaced("the two products are not scaled by the same alpha")
    second = (need(solution, "second.a.address"), need(solution, "second.b.address"))
    return _SyrkPlan(found, context, [(dense.a, dense.b), second])
