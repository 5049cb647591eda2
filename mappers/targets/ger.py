"""GER through BLAS (`idiom_ger` of the runtime, OpenBLAS): A <- alpha x y^T + A, or a
rank-2 update A <- alpha x y^T + alpha2 u v^T + A, both products done by one call.

The match (blas.idl's GER) is a two-loop nest updating A[i][j] in place from vectors.
The mapper orients each product (the read moving with the row loop is x, the one moving
with the column loop y); the guard measures every access, checks that each vector is
fixed along the other loop, that A overlaps none of them, and passes the strides on. The
runtime declines what BLAS cannot express before it does anything, so the fallback never
follows half of a rank-2 update.
"""

from __future__ import annotations

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure
from mappers.plan.loops import trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import depends_on, guard_conditions
from mappers.plan.row_tables import RowTable, declare_row_tables, row_tables
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.blas import DenseMatch, dense_match, scalar_operand
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["map_ger"]

_ELEMENTS = {"float": 0, "double": 1}
_GER = (
    "i32 @idiom_ger(i32, i64, i64, double, ptr, i64, ptr, i64, double, ptr, i64, ptr, i64, "
    "ptr, i64, i64)"
)


class _GerPlan(Plan):
    target = "BLAS ger (OpenBLAS)"

    def __init__(
        self,
        dense: DenseMatch,
        context: MapperContext,
        products: list[tuple[Value, Value, Value | None]],
    ) -> None:
        self.dense = dense
        self.region = context.region
        # (x, y, alpha) of each product, x moving with the row loop
        self.products = [self._oriented(x, y, alpha) for x, y, alpha in products]
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}
        self.counts: list[Operand] = []

    def _oriented(
        self, a: Value, b: Value, alpha: Value | None
    ) -> tuple[Value, Value, Value | None]:
        row, column = (loop.iterator for loop in self.dense.loops)
        a_row, b_row = (depends_on(v, row, self.region) for v in (a, b))
        a_column, b_column = (depends_on(v, column, self.region) for v in (a, b))
        if a_row and b_column and not a_column and not b_row:
            return a, b, alpha
        if b_row and a_column and not b_column and not a_row:
            return b, a, alpha
        raise NotReplaced("a product is not one vector along each loop")

    def guard(self, builder: Builder) -> Operand:
        dense = self.dense
        checks = [guard_conditions(builder, self.region, dense.conditions, fixed_loads=True)]
        for loop in dense.loops:
            counted = trip_count(builder, loop)
            self.counts.append(counted.count)
            checks.append(counted.exact)
        addresses = {"a": dense.c}
        for number, (x, y, _) in enumerate(self.products):
            addresses[f"x{number}"], addresses[f"y{number}"] = x, y
        tables = row_tables(
            builder,
            self.region,
            addresses.values(),
            loops=dense.loops,
            counts=self.counts,
            entered=builder.all_of(checks),
        )
        checks.extend(table.regular for table in tables)
        for name, address in addresses.items():
            self.accesses[name] = self._measure(builder, address, tables)
            self.strides[name], whole = self.accesses[name].element_strides(builder)
            checks.append(whole)
        zero = const(I64, 0)
        for number in range(len(self.products)):
            checks.append(builder.compare("eq", self.strides[f"x{number}"][1], zero))
            checks.append(builder.compare("eq", self.strides[f"y{number}"][0], zero))
        # dger skips a product whose alpha is 0, where the loop adds 0 * x[i] * y[j]
        # (NaN for an infinite or NaN element): such a call runs the loop.
        for _, _, alpha in self.products:
            if alpha is not None:
                factor = scalar_operand(builder, alpha, 1.0)
                checks.append(builder.compare("one", factor, const("double", "0.000000e+00")))
        a = self.accesses["a"]
        vectors = [access for name, access in self.accesses.items() if name != "a"]
        checks.append(disjoint(builder, a, [*vectors, *(table.entries for table in tables)]))
        checks.append(apart_from_fixed(builder, self.region, (a.low, a.high)))
        return builder.all_of(checks)

    def _measure(self, builder: Builder, address: Value, tables: list[RowTable]) -> Access:
        return measure(
            builder,
            self.region,
            address,
            loops=self.dense.loops,
            counts=self.counts,
            element_type=self.dense.element,
            rows=tables,
        )

    def call(self, builder: Builder) -> Operand:
        vectors: list[Operand] = []
        for number in range(2):
            if number < len(self.products):
                _, _, alpha = self.products[number]
                x, y = self.accesses[f"x{number}"], self.accesses[f"y{number}"]
                vectors += [
                    scalar_operand(builder, alpha, 1.0),
                    x.first,
                    self.strides[f"x{number}"][0],
                    y.first,
                    self.strides[f"y{number}"][1],
                ]
            else:  # no second product: a null x tells the runtime
                null, zero = const("ptr", "null"), const(I64, 0)
                vectors += [const("double", "0.000000e+00"), null, zero, null, zero]
        sa = self.strides["a"]
        return builder.call(
            "i32",
            "idiom_ger",
            [
                const("i32", _ELEMENTS[self.dense.element]),
                self.counts[0],
                self.counts[1],
                *vectors,
                self.accesses["a"].first,
                sa[0],
                sa[1],
            ],
        )


def map_ger(instance: Instance, context: MapperContext) -> Plan:
    context.module.declare("idiom_ger", f"declare {_GER}")
    declare_row_tables(context.module)
    dense = dense_match(instance, context, 2)
    if dense.element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {dense.element} routine")
    solution = instance.solution
    products = [(dense.a, dense.b, dense.alpha)]
    if solution.get("second.a.address") is not None:
        second = (need(solution, "second.a.address"), need(solution, "second.b.address"))
        products.append((*second, solution.get("second.alpha")))
    return _GerPlan(dense, context, products)
