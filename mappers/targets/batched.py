"""In-place products of a batch of rows by one matrix through BLAS (`idiom_gemm_rows` of
the runtime): blas.idl's BatchedRowProducts, as tensor contractions are written
(doitgen):

    for r: for q: { for p: { sum[p] = 0; for s: sum[p] += A[r][q][s] * W[s][p]; }
                    for p: A[r][q][p] = sum[p]; }

Each row of the batch becomes its product with W. Row by row, the loop reads a row,
sums into `sum` and copies the sums back over the row; done by GEMM the rows are
computed together into a scratch block and copied back, and `sum` ends holding the last
row's products. That is the same if what the guard checks at run time holds:

- the copy reads the sums the product wrote (the same first element, the same stride)
  and writes the row the product read (its first element, its stride along the sum),
  as many elements as there are sums;
- the sums stay put along the batch and the sum loop, W along the batch, the row along
  the sums' loop: each product reads one row and W;
- where the zeroing of a sum goes through another load of the sums' pointer (a
  std::vector's data, blas.idl's ReloadedZeroSum), it writes the sum's own element in
  every iteration (the same first element and strides);
- W and the sums are apart from the rows read and written (the runtime checks that the
  rows do not overlap one another: unit stride along a row, rows at least a row long
  apart).

The rows may come from a table of row pointers picked by one or both batch loops
(`A[r*nq + q][p]`, mappers/plan/row_tables.py): the guard then asks the runtime whether
they lie on a grid, equally spaced along each batch loop, and the batch is the strided
block they make; the rows and the sums written must be apart from the table's entries.
Rows elsewhere (allocated one by one, in another order) run the original code.
"""

from __future__ import annotations

from collections.abc import Mapping

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure, same_first
from mappers.plan.loops import LoopView, loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import Region, check_legal, guard_conditions
from mappers.plan.row_tables import RowTable, declare_row_tables, row_tables
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["is_batched", "map_batched_rows"]

_ELEMENTS = {"float": 0, "double": 1}
_GEMM_ROWS = (
    "i32 @idiom_gemm_rows(i32, i64, i64, ptr, i64, i64, i64, i64, ptr, i64, i64, i64, ptr, i64)"
)


def is_batched(solution: Mapping[str, Value | None]) -> bool:
    """Whether a GEMM match is BatchedRowProducts (it has the copy back)."""
    return solution.get("copy.store") is not None


class _BatchedPlan(Plan):
    target = "BLAS gemm over the batch, in place (OpenBLAS)"

    def __init__(
        self,
        accesses: dict[str, tuple[Value, list[LoopView]]],
        loops: list[LoopView],
        copy: LoopView,
        *,
        element: str,
        conditions: list[tuple[Value, bool]],
        region: Region,
    ) -> None:
        self.reads, self.loops, self.copy = accesses, loops, copy
        self.batch = len(loops) - 2  # the product's two loops come last
        self.element, self.conditions, self.region = element, conditions, region
        self.counts: dict[int, Operand] = {}  # by loop identity
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}

    def guard(self, builder: Builder) -> Operand:
        checks = [guard_conditions(builder, self.region, self.conditions, fixed_loads=True)]
        for loop in [*self.loops, self.copy]:
            counted = trip_count(builder, loop)
            self.counts[id(loop)] = counted.count
            checks.append(counted.exact)
        entered = self._entered(builder, checks)
        tables: list[RowTable] = []
        for name, (address, loops) in self.reads.items():
            counts = [self.counts[id(loop)] for loop in loops]
            found = row_tables(
                builder,
                self.region,
                [address],
                loops=loops,
                counts=counts,
                entered=entered,
                most_loops=2,
            )
            tables += found
            self.accesses[name] = measure(
                builder,
                self.region,
                address,
                loops=loops,
                counts=counts,
                element_type=self.element,
                rows=found,
            )
            self.strides[name], whole = self.accesses[name].element_strides(builder)
            checks.append(whole)
        checks += [table.regular for table in tables]
        checks += [self._roles(builder), self._copies_back(builder), self._clears(builder)]
        rows, written = self.accesses["row"], self.accesses["row_written"]
        others = [self.accesses["w"], self.accesses["sums"]]
        entries = [table.entries for table in tables]
        checks += [disjoint(builder, rows, others), disjoint(builder, written, others + entries)]
        checks.append(disjoint(builder, self.accesses["sums"], [self.accesses["w"], *entries]))
        for access in (written, self.accesses["sums"]):
            checks.append(apart_from_fixed(builder, self.region, (access.low, access.high)))
        return builder.all_of(checks)

    def _entered(self, builder: Builder, checks: list[Operand]) -> Operand:
        """i1: the guard holds so far and every loop runs at least once, so that the
        original reads every entry of a row table the runtime reads."""
        zero = const(I64, 0)
        runs = [builder.compare("sgt", count, zero) for count in self.counts.values()]
        return builder.all_of([*checks, *runs])

    def _roles(self, builder: Builder) -> Operand:
        """i1: the row stays put along the sums' loop, W along the batch, the sums along
        the batch and the sum loop."""
        s, zero = self.strides, const(I64, 0)
        p, t = self.batch, self.batch + 1
        fixed = [s["row"][p], s["sums"][t]]
        fixed += [s["w"][level] for level in range(self.batch)]
        fixed += [s["sums"][level] for level in range(self.batch)]
        return builder.all_of([builder.compare("eq", stride, zero) for stride in fixed])

    def _copies_back(self, builder: Builder) -> Operand:
        """i1: the copy loop reads the sums and writes the row read, as many elements as
        there are sums."""
        a, s = self.accesses, self.strides
        p, t, copy = self.batch, self.batch + 1, self.batch
        checks = [
            builder.compare("eq", self.counts[id(self.copy)], self.counts[id(self.loops[p])]),
            same_first(builder, a["copied"], a["sums"]),
            builder.compare("eq", s["copied"][copy], s["sums"][p]),
            same_first(builder, a["row_written"], a["row"]),
            builder.compare("eq", s["row_written"][copy], s["row"][t]),
        ]
        for level in range(self.batch):
            checks.append(builder.compare("eq", s["row_written"][level], s["row"][level]))
            checks.append(builder.compare("eq", s["copied"][level], const(I64, 0)))
        # one sum per product: sums that all land in one element leave the last one there
        checks.append(builder.compare("ne", s["sums"][p], const(I64, 0)))
        return builder.all_of(checks)

    def _clears(self, builder: Builder) -> Operand:
        """i1: the zeroing before each sum writes the sum's own element, where it goes
        through another load of the sums' pointer (ReloadedZeroSum in blas.idl): then
        the sum starts from zero. The same first element, the same stride along every
        loop."""
        if "cleared" not in self.accesses:
            return const("i1", "true")
        cleared, sums = self.accesses["cleared"], self.accesses["sums"]
        checks = [same_first(builder, cleared, sums)]
        for along, stride in zip(cleared.strides, sums.strides, strict=True):
            checks.append(builder.compare("eq", along, stride))
        return builder.all_of(checks)

    def call(self, builder: Builder) -> Operand:
        s, a = self.strides, self.accesses
        p, t = self.batch, self.batch + 1
        counts = [self.counts[id(loop)] for loop in self.loops]
        outer = counts[0] if self.batch == 2 else const(I64, 1)
        outer_stride = s["row"][0] if self.batch == 2 else const(I64, 0)
        return builder.call(
            "i32",
            "idiom_gemm_rows",
            [
                const("i32", _ELEMENTS[self.element]),
                outer,
                counts[p - 1],
                a["row"].first,
                outer_stride,
                s["row"][p - 1],
                s["row"][t],
                counts[t],
                a["w"].first,
                s["w"][t],
                s["w"][p],
                counts[p],
                a["sums"].first,
                s["sums"][p],
            ],
        )


def map_batched_rows(instance: Instance, context: MapperContext) -> Plan:
    region, solution = context.region, instance.solution
    if not context.reassociate:
        raise NotReplaced("BLAS adds the products in an order of its own (reassociation off)")
    element = need(solution, "a.value").type
    if element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {element} routine")
    function = region.function
    depth = 4 if solution.get("loop[3].iterator") is not None else 3
    loops = [loop_view(function, solution, f"loop[{level}].") for level in range(depth)]
    copy = loop_view(function, solution, "copy.")
    names = ("c.store", "init_store", "copy.store")
    stores = [store for store in map(solution.get, names) if store is not None]
    conditions = check_legal(
        region, stores=stores, results=[], loops=[*loops, copy], fixed_loads=True
    )
    batch_loops, product_loops = loops[: depth - 2], loops[depth - 2 :]
    context.module.declare("idiom_gemm_rows", f"declare {_GEMM_ROWS}")
    declare_row_tables(context.module)
    in_product = [*batch_loops, *product_loops]
    in_copy = [*batch_loops, copy]
    accesses = {
        "row": (need(solution, "a.address"), in_product),
        "w": (need(solution, "b.address"), in_product),
        "sums": (need(solution, "c.address"), in_product),
        "copied": (need(solution, "copy.source.address"), in_copy),
        "row_written": (need(solution, "copy.target.address"), in_copy),
    }
    init_store = solution.get("init_store")
    if init_store is not None and init_store.operands[1] is not accesses["sums"][0]:
        # the zero goes through another load of the sums' pointer: checked in the guard
        accesses["cleared"] = (init_store.operands[1], in_product)
    return _BatchedPlan(
        accesses, loops, copy, element=element, conditions=conditions, region=region
    )
