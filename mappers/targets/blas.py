"""GEMM and GEMV through BLAS (`idiom_gemm`/`idiom_gemv` of the runtime, OpenBLAS).

The mapper reads the interface of blas.idl, measures each matrix's strides along each
loop at run time (mappers/plan/access.py) and passes them to the runtime, which picks the
layout and transposition BLAS needs or declines (then the original loop runs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from mappers.plan.access import Access, apart_from_fixed, disjoint, measure, same_first
from mappers.plan.loops import LoopView, loop_view, natural_loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import Region, check_legal, depends_on, guard_conditions
from mappers.plan.row_tables import RowTable, declare_row_tables, row_tables
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand, operand
from mappers.targets.batched import is_batched, map_batched_rows
from matcher.detect import Instance
from matcher.ir import Block, Value

__all__ = [
    "Clearing",
    "DenseMatch",
    "Finish",
    "alpha_beta",
    "dense_match",
    "gemm_roles",
    "is_sum_after",
    "map_gemm",
    "map_gemv",
    "nonzero_scales",
    "row_pass",
    "row_set_loop",
    "scalar_operand",
    "scalars_nonzero",
]

_ELEMENTS = {"float": 0, "double": 1}
_GEMM = (
    "i32 @idiom_gemm(i32, i64, i64, i64, double, ptr, i64, i64, ptr, i64, i64, "
    "double, ptr, i64, i64)"
)
_GEMV = "i32 @idiom_gemv(i32, i64, i64, double, ptr, i64, i64, ptr, i64, double, ptr, i64)"
_GEMV2 = (
    "i32 @idiom_gemv2(i32, i64, i64, double, ptr, i64, i64, ptr, i64, double, ptr, i64, "
    "i64, i64, double, ptr, i64, i64, ptr, i64, double, ptr, i64)"
)
_GEMV_SUM = (
    "i32 @idiom_gemv_sum(i32, i64, i64, double, ptr, i64, i64, ptr, i64, double, ptr, i64, "
    "i64, i64, double, ptr, i64, i64, ptr, i64, double, ptr, i64, i32, double, double)"
)


@dataclass(frozen=True)
class DenseMatch:
    """The parts of a GEMM or GEMV match a call needs."""

    loops: list[LoopView]
    a: Value  # addresses of the two factors and the target
    b: Value
    c: Value
    element: str
    alpha: Value | None
    beta: Value | None
    beta_is_one: bool  # the old value is added unscaled (or there is no old value)
    has_old: bool
    conditions: list[tuple[Value, bool]]  # zero-trip guards of the inner loops
    clearing: Clearing | None = None  # C's rows set before the updates
    scaled_first: Value | None = None  # a store of beta * C before the sum (beta != 0)
    finish: Finish | None = None  # the symmetric forms' division and mirror store


@dataclass(frozen=True)
class Finish:
    """What a symmetric form does to each element of its triangle after the sum: divide
    it by `divisor` (None: no division) and store the result again at `mirror` (the
    address of the element with row and column swapped; None: no mirror)."""

    divisor: Value | None
    mirror: Value | None


@dataclass(frozen=True)
class Clearing:
    """A loop in the row loop that sets the row of C before the rank-1 updates add to it:
    zero (`for j: C[i][j] = 0; for k: for j: C[i][j] += A[i][k] * B[k][j]`, the product
    then overwrites C, beta 0) or C scaled (`for j: C[i][j] *= beta`, then beta). The
    guard checks that it sets exactly the elements the updates write."""

    loop: LoopView
    store: Value
    address: Value
    beta: Value | None = None  # None: zeroes


Roles = Callable[[Mapping[str, Value | None], list[LoopView], Region], tuple[int, int, int]]


def dense_match(
    instance: Instance,
    context: MapperContext,
    depth: int,
    *,
    roles: Roles | None = None,
    edges: tuple[Value, ...] = (),
    settled: tuple[int, ...] = (),
    guarded: tuple[Value, ...] = (),
    also_stores: tuple[Value, ...] = (),
    also_loops: tuple[LoopView, ...] = (),
) -> DenseMatch:
    """The parts of a GEMM-like (depth 3) or GEMV (depth 2) match, legality checked.
    `roles` gives a nest's levels (m, n, k) (default `gemm_roles`); `edges` are bounds
    computed in the region that the mapper checks itself (a triangle's: SYRK), and
    `settled` the levels of loops whose zero-trip test (begin < end) its guard settles
    for every row (a triangle's loop empty on the last row: TRMM), `guarded` branches
    its guard checks itself (such a test in another form), `also_stores` stores
    its plan writes itself (a diagonal set beside a strict triangle) and `also_loops` loops
    of the region its plan makes too (a second product's)."""
    solution = instance.solution
    function = context.region.function
    loops = [loop_view(function, solution, f"loop[{level}].") for level in range(depth)]
    roles = roles or gemm_roles
    a_value, store = need(solution, "a.value"), need(solution, "c.store")
    element = a_value.type
    if element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {element} routine")
    if not context.reassociate:
        raise NotReplaced("BLAS adds the products in an order of its own (reassociation off)")
    # The stored dot-product form stores the running sum itself; its start is C's old
    # value or what `init_store` put there (blas.idl), not a register's zero.
    stored_sum = solution.get("update") is not None and store.operands[0] is solution["update"]
    c_old, beta, alpha = solution.get("c_old"), solution.get("beta"), solution.get("alpha")
    if solution.get("a_factor") is not solution.get("a.value") and _result_scaled(solution):
        raise NotReplaced("alpha scales both a factor and the sum")
    scaled_last = solution.get("scaled_last")  # blas.idl's ScaledZeroPhi
    if scaled_last is not None and len(_zero_phi(solution, store).incoming) != 2:
        raise NotReplaced("the scaled sum's phi merges other values")
    if solution.get("acc") is not None and not stored_sum:
        init = need(solution, "acc_init")
        if init.constant != 0:
            c_old, beta = _sum_from_old(solution, init, store, context.region)
    stores, legal_loops = [store, *also_stores], [*loops, *also_loops]
    finish = _finish(solution)
    for name in ("finish_store", "mirror_store"):
        extra = solution.get(name)
        if extra is not None:
            stores.append(extra)
    clearing, scaled_first, has_old = None, None, c_old is not None
    init_store = solution.get("init_store")  # the stored dot-product form's start
    if init_store is not None:
        stores.append(init_store)
        scaled_first = beta  # zero (no beta) needs no check
    elif (
        depth == 3
        and c_old is not None
        and solution.get("acc") is None
        # Only where the row loop holds the loop over k (i-k-j): a loop clearing rows
        # inside the loop over k would clear them again on every k.
        and roles(solution, loops, context.region) == (0, 2, 1)
    ):
        clearing = _clearing(context.region, store, loops)
    if clearing is not None:
        stores.append(clearing.store)
        legal_loops.append(clearing.loop)
        # The updates read what the clearing loop stored: zero, or beta * C.
        beta, scaled_first, has_old = clearing.beta, clearing.beta, clearing.beta is not None
    conditions = check_legal(
        context.region,
        stores=stores,
        results=[],
        loops=legal_loops,
        data_loops=[loops[level] for level in settled],
        conditional=guarded,
        fixed_loads=True,
        edges=edges,
    )
    return DenseMatch(
        loops=loops,
        a=need(solution, "a.address"),
        b=need(solution, "b.address"),
        c=need(solution, "c.address"),
        element=element,
        alpha=alpha,
        beta=beta,
        beta_is_one=beta is None,
        has_old=has_old,
        conditions=conditions,
        clearing=clearing,
        scaled_first=scaled_first,
        finish=finish,
    )


def _finish(solution: Mapping[str, Value | None]) -> Finish | None:
    """The division and mirror store after the sum (blas.idl's DividedResult, MirrorStore
    and FinishedStoredSum), their shape checked: in the stored form, the value divided or
    mirrored must be exactly what the sum left in C, the last update, or the start where
    the loop did not run."""
    divisor, mirror_store = solution.get("divisor"), solution.get("mirror_store")
    if divisor is None and mirror_store is None:
        return None
    sum_after = solution.get("sum_after")
    if sum_after is not None and not is_sum_after(solution, sum_after):
        raise NotReplaced("the value stored after the sum is not the sum as the loop left it")
    mirror = mirror_store.operands[1] if mirror_store is not None else None
    return Finish(divisor, mirror)


def is_sum_after(solution: Mapping[str, Value | None], sum_after: Value, prefix: str = "") -> bool:
    """Whether `sum_after` is the phi of the last update (the loop ran) or of it and the
    sum's start (it may not have), and nothing else (the sum's names under `prefix`)."""
    update, start = need(solution, f"{prefix}update"), need(solution, f"{prefix}acc_init")
    return _is_last_or_start(sum_after, update, start)


def _is_last_or_start(sum_after: Value, update: Value, start: Value) -> bool:
    def is_last(value: Value) -> bool:
        return value.opcode == "phi" and all(v is update for v in _incoming(value))

    if is_last(sum_after):
        return True
    incoming = _incoming(sum_after)
    if sum_after.opcode != "phi" or len(incoming) != 2:
        return False
    starts = [v for v in incoming if _same_value(v, start)]
    lasts = [v for v in incoming if is_last(v)]
    return len(starts) == 1 and len(lasts) == 1


def _incoming(phi: Value) -> list[Value]:
    return [value for value, _ in phi.incoming]


def _same_value(one: Value, other: Value) -> bool:
    if one is other:
        return True
    return one.constant is not None and one.constant == other.constant and one.type == other.type


def _zero_phi(solution: Mapping[str, Value | None], store: Value) -> Value:
    """ScaledZeroPhi's phi: the stored value, or the term added to C's old value
    (`0.5 * t + C[i][j]`, ScaledResult's {scaled})."""
    scaled = solution.get("scaled")
    return scaled if scaled is not None else store.operands[0]


def _result_scaled(solution: Mapping[str, Value | None]) -> bool:
    """Whether the dot-product form stores its sum multiplied by alpha (ScaledResult)."""
    stored, final, scaled = solution.get("stored"), solution.get("final"), solution.get("scaled")
    if stored is None or final is None or solution.get("divisor") is not None:
        return False
    return (scaled if scaled is not None else stored) is not final


def _sum_from_old(
    solution: Mapping[str, Value | None], init: Value, store: Value, region: Region
) -> tuple[Value, Value | None]:
    """C's old value and beta where a dot product in a register starts from C's old
    value, or from it scaled by a beta fixed before the region (`s = C[i][j]` or
    `s = beta * C[i][j]; for k: s += ...; C[i][j] = s`, as LLVM promotes `C[i][j] += ...`
    and `C[i][j] *= beta; for k: C[i][j] += ...`): that beta (None: 1), or alpha where
    the sum from C's own value is stored scaled by alpha (alpha * (C + A B) is
    alpha A B + alpha C) and the products are not. Any other start is declined."""
    address = need(solution, "c.address")
    beta = _scaling_factor(region, init, address)
    old = init if beta is None else next(o for o in init.operands if o is not beta)
    # A store of the start itself before the sum (C[i][j] *= beta kept beside the
    # register) is overwritten by the sum's store: dead.
    init_store = solution.get("init_store")
    plain = solution.get("c_old") is None and (init_store is None or init_store.operands[0] is init)
    if not (plain and old.opcode == "load" and old.operands[0] is address):
        raise NotReplaced("the dot product starts from a value other than zero or C's own")
    stored, alpha = store.operands[0], solution.get("alpha")
    if stored is solution.get("final"):
        return old, beta
    if beta is None and alpha is not None and solution.get("a_factor") is solution.get("a.value"):
        return old, alpha
    raise NotReplaced("the sum started from C is scaled in a way BLAS cannot express")


def gemm_roles(
    solution: Mapping[str, Value | None], loops: list[LoopView], region: Region
) -> tuple[int, int, int]:
    """The levels of the nest that are m, n and k: C does not move along k, A along n,
    B along m (A is m x k, B is k x n)."""
    free = {}
    for name in ("a", "b", "c"):
        address = need(solution, f"{name}.address")
        levels = [
            level
            for level, loop in enumerate(loops)
            if not depends_on(address, loop.iterator, region)
        ]
        if len(levels) != 1:
            raise NotReplaced(f"the {name} operand does not move along exactly two of the loops")
        free[name] = levels[0]
    roles = (free["b"], free["a"], free["c"])
    if sorted(roles) != [0, 1, 2]:
        raise NotReplaced("the nest's loops do not split into rows, columns and the sum")
    return roles


def _clearing(region: Region, update: Value, loops: list[LoopView]) -> Clearing | None:
    """The loop that sets C's row before the updates, if the region has one (row_set_loop),
    storing +0.0 or the element it read times a value fixed before the region."""
    found = row_set_loop(region, [update], loops[1])
    if found is None:
        return None
    view, store = found
    stored = store.operands[0]
    beta = None
    if operand(stored).ref != "0.000000e+00":
        beta = _scaling_factor(region, stored, store.operands[1])
        if beta is None:
            return None
    return Clearing(view, store, store.operands[1], beta)


def row_set_loop(
    region: Region, known: Sequence[Value], before: LoopView
) -> tuple[LoopView, Value] | None:
    """The loop that sets the row before the loop `before` (over k) adds to it, and its
    store, if the region has one: the only store other than `known`, alone in a loop
    directly inside the row loop that runs before `before` (the region has no other
    control flow: check_legal)."""
    others = [
        i
        for block in region.blocks
        for i in block.instructions
        if i.opcode == "store" and i not in known
    ]
    if len(others) != 1:
        return None
    view = row_pass(region, others[0], before, after=False)
    return (view, others[0]) if view is not None else None


def row_pass(region: Region, store: Value, other: LoopView, *, after: bool) -> LoopView | None:
    """The loop holding `store`, if it is a loop of its own directly inside the row loop
    (no loop in it) that runs, within each trip of the row loop, before the loop `other`
    (or after it, `after`) and not on both sides of it."""
    children = region.loop.children
    inside = [child for child in children if store.block in child.blocks]
    theirs = [child for child in children if child.header is other.iterator.block]
    if len(inside) != 1 or inside[0].children or len(theirs) != 1:
        return None
    try:
        view = natural_loop_view(region.function, inside[0])
    except NotReplaced:
        return None
    first, second = (theirs[0], inside[0]) if after else (inside[0], theirs[0])
    if not _reaches(region, set(first.exits), second.header) or _reaches(
        region, {second.header}, first.header
    ):
        return None
    return view


def _scaling_factor(region: Region, stored: Value, address: Value) -> Value | None:
    """beta where `stored` is beta * (the load of `address`), beta fixed before the region."""
    if stored.opcode != "fmul":
        return None
    for old, factor in (stored.operands, stored.operands[::-1]):
        fixed = factor.block not in region.blocks
        if fixed and old.opcode == "load" and old.operands[0] is address:
            return factor
    return None


def _reaches(region: Region, starts: set[Block], target: Block) -> bool:
    """Whether `target` is reachable from `starts` within one iteration of the region's
    loop (not going round its latch)."""
    seen, stack = set(starts), list(starts)
    while stack:
        block = stack.pop()
        if block is target:
            return True
        if block is region.latch:
            continue
        for successor in block.successors:
            if successor in region.blocks and successor not in seen:
                seen.add(successor)
                stack.append(successor)
    return False


def scalar_operand(builder: Builder, value: Value | None, default: float) -> Operand:
    if value is None:
        return const("double", f"{default:e}")
    return builder.cast("fpext", builder.ref(value), "double")


def alpha_beta(builder: Builder, dense: DenseMatch) -> tuple[Operand, Operand]:
    """The call's alpha and beta (double)."""
    alpha = scalar_operand(builder, dense.alpha, 1.0)
    if not dense.has_old:
        return alpha, const("double", "0.000000e+00")
    return alpha, scalar_operand(builder, dense.beta, 1.0)


def scalars_nonzero(builder: Builder, dense: DenseMatch) -> Operand:
    """i1: none of the scale factors the loop multiplies by is 0: beta (on C's old value,
    before or after the sum) and alpha (on the product). BLAS takes a zero beta as "C is
    not read" and a zero alpha as "A and B are not read", where the loop computes 0 * C
    or 0 * A[i][k], and 0 * NaN or 0 * Inf is NaN."""
    return nonzero_scales(
        builder, [dense.scaled_first, dense.beta if dense.has_old else None, dense.alpha]
    )


def nonzero_scales(builder: Builder, factors: Sequence[Value | None]) -> Operand:
    """i1: none of the scale factors (None: absent, 1) is 0."""
    zero = const("double", "0.000000e+00")
    checks = [
        builder.compare("one", scalar_operand(builder, factor, 1.0), zero)
        for factor in dict.fromkeys(f for f in factors if f is not None)
    ]
    return builder.all_of(checks) if checks else const("i1", "true")


class _DensePlan(Plan):
    def __init__(self, dense: DenseMatch, context: MapperContext) -> None:
        if dense.finish is not None:
            raise NotReplaced("the product's result is divided or mirrored")
        self.dense = dense
        self.region = context.region
        self.counts: list[Operand] = []
        self.accesses: dict[str, Access] = {}
        self.strides: dict[str, list[Operand]] = {}
        self.fixed: dict[str, int] = {}
        self.tables: list[RowTable] = []

    def guard(self, builder: Builder) -> Operand:
        dense = self.dense
        checks = [guard_conditions(builder, self.region, dense.conditions, fixed_loads=True)]
        for loop in dense.loops:
            counted = trip_count(builder, loop)
            self.counts.append(counted.count)
            checks.append(counted.exact)
        addresses = {"a": dense.a, "b": dense.b, "c": dense.c}
        clearing = [dense.clearing.address] if dense.clearing is not None else []
        tables = row_tables(
            builder,
            self.region,
            [*addresses.values(), *clearing],
            loops=dense.loops,
            counts=self.counts,
            entered=builder.all_of(checks),
        )
        checks.extend(table.regular for table in tables)
        self.tables = tables
        for name, address in addresses.items():
            access = measure(
                builder,
                self.region,
                address,
                loops=dense.loops,
                counts=self.counts,
                element_type=dense.element,
                rows=tables,
            )
            self.accesses[name] = access
        if dense.clearing is not None:
            checks.append(self._clears_c(builder, dense.clearing))
        checks.append(scalars_nonzero(builder, dense))
        self._count_upwards(builder)
        for name, access in self.accesses.items():
            strides, whole = access.element_strides(builder)
            self.strides[name] = strides
            checks.append(whole)
        a, b, c = self.accesses["a"], self.accesses["b"], self.accesses["c"]
        checks.append(disjoint(builder, c, [a, b, *(table.entries for table in tables)]))
        checks.append(apart_from_fixed(builder, self.region, (c.low, c.high)))
        for name, level in self.fixed.items():
            stride = self.accesses[name].strides[level]
            checks.append(builder.compare("eq", stride, const(I64, 0)))
        return builder.all_of(checks)

    def _clears_c(self, builder: Builder, clearing: Clearing) -> Operand:
        """i1: the clearing loop zeroes, in each row, exactly the elements of C that the
        updates then write: the same first element, the same count and strides. (The
        accesses are measured as the loops run, before any is turned to count upwards.)"""
        m, n = 0, 2  # the update form's row and column loops
        c = self.accesses["c"]
        counted = trip_count(builder, clearing.loop)
        row_loop = self.dense.loops[m]
        cleared = measure(
            builder,
            self.region,
            clearing.address,
            loops=[row_loop, clearing.loop],
            counts=[self.counts[m], counted.count],
            element_type=self.dense.element,
            rows=[t for t in self.tables if t.level == m],  # C's row table, if it has one
        )
        same = [
            counted.exact,
            builder.compare("eq", counted.count, self.counts[n]),
            same_first(builder, cleared, c),
            builder.compare("eq", cleared.strides[0], c.strides[m]),
            builder.compare("eq", cleared.strides[1], c.strides[n]),
        ]
        return builder.all_of(same)

    def _count_upwards(self, builder: Builder) -> None:
        """A loop counting down visits the same elements as one counting up: where an
        access moves backwards along a loop, start every access at that loop's last
        iteration and negate the strides (BLAS wants positive strides; the sums are
        reassociated anyway)."""
        for level, count in enumerate(self.counts):
            negatives = [
                builder.compare("slt", a.strides[level], const(I64, 0))
                for a in self.accesses.values()
            ]
            backwards = negatives[0]
            for negative in negatives[1:]:
                backwards = builder.binary("or", backwards, negative)
            last = builder.binary("sub", count, const(I64, 1))
            for name, access in list(self.accesses.items()):
                stride = access.strides[level]
                shift = builder.select(
                    backwards, builder.binary("mul", stride, last), const(I64, 0)
                )
                first = builder.emit("ptr", f"getelementptr i8, {access.first}, {shift}")
                flipped = builder.select(
                    backwards, builder.binary("sub", const(I64, 0), stride), stride
                )
                strides = list(access.strides)
                strides[level] = flipped
                self.accesses[name] = replace(access, first=first, strides=tuple(strides))

    def scalars(self, builder: Builder) -> tuple[Operand, Operand]:
        return alpha_beta(builder, self.dense)


class _GemmPlan(_DensePlan):
    """C(m x n) += A(m x k) B(k x n); which loop is m, n and k depends on the form."""

    target = "BLAS gemm (OpenBLAS)"

    def __init__(self, dense: DenseMatch, context: MapperContext, m: int, n: int, k: int) -> None:
        super().__init__(dense, context)
        self.m, self.n, self.k = m, n, k
        # Each matrix must stay put along the loop it does not depend on.
        self.fixed = {"a": n, "b": m, "c": k}

    def call(self, builder: Builder) -> Operand:
        alpha, beta = self.scalars(builder)
        s = self.strides
        m, n, k = self.m, self.n, self.k
        return builder.call(
            "i32",
            "idiom_gemm",
            [
                const("i32", _ELEMENTS[self.dense.element]),
                self.counts[m],
                self.counts[n],
                self.counts[k],
                alpha,
                self.accesses["a"].first,
                s["a"][m],
                s["a"][k],
                self.accesses["b"].first,
                s["b"][k],
                s["b"][n],
                beta,
                self.accesses["c"].first,
                s["c"][m],
                s["c"][n],
            ],
        )


def map_gemm(instance: Instance, context: MapperContext) -> Plan:
    if is_batched(instance.solution):
        return map_batched_rows(instance, context)
    context.module.declare("idiom_gemm", f"declare {_GEMM}")
    declare_row_tables(context.module)
    dense = dense_match(instance, context, 3)
    m, n, k = gemm_roles(instance.solution, dense.loops, context.region)
    return _GemmPlan(dense, context, m=m, n=n, k=k)


class _GemvPlan(_DensePlan):
    """y(m) += A(m x n) x(n): `matrix` and `vector` name the accesses, `m`/`n` the loops."""

    target = "BLAS gemv (OpenBLAS)"

    def __init__(
        self, dense: DenseMatch, context: MapperContext, *, matrix: str, vector: str, m: int, n: int
    ) -> None:
        super().__init__(dense, context)
        self.matrix, self.vector, self.m, self.n = matrix, vector, m, n
        self.fixed = {vector: m, "c": n}

    def call(self, builder: Builder) -> Operand:
        return builder.call("i32", "idiom_gemv", self.arguments(builder))

    def arguments(self, builder: Builder) -> list[Operand]:
        """idiom_gemv's arguments: the element type, then the product's."""
        alpha, beta = self.scalars(builder)
        s, m, n = self.strides, self.m, self.n
        return [
            const("i32", _ELEMENTS[self.dense.element]),
            self.counts[m],
            self.counts[n],
            alpha,
            self.accesses[self.matrix].first,
            s[self.matrix][m],
            s[self.matrix][n],
            self.accesses[self.vector].first,
            s[self.vector][n],
            beta,
            self.accesses["c"].first,
            s["c"][m],
        ]


class _GemvPairPlan(Plan):
    """Two GEMVs of one loop (blas.idl's GEMVUpdateWithDot, GEMVDotThenUpdate): both
    calls or neither (idiom_gemv2), the first first, each guarded as a GEMV of its own,
    neither output overlapping what the other product reads or writes, but for the
    first's output that the second reads by design (`chained`: y += A^T (A x))."""

    target = "BLAS gemv x2 (OpenBLAS)"

    def __init__(self, first: _GemvPlan, second: _GemvPlan, *, chained: bool = False) -> None:
        self.first, self.second, self.chained = first, second, chained

    def guard(self, builder: Builder) -> Operand:
        checks = [self.first.guard(builder), self.second.guard(builder)]
        one, other = self.first.accesses, self.second.accesses
        read_by_second = [other[self.second.matrix], other["c"]]
        if not self.chained:
            read_by_second.append(other[self.second.vector])
        checks.append(disjoint(builder, one["c"], read_by_second))
        checks.append(disjoint(builder, other["c"], [one["a"], one["b"]]))
        return builder.all_of(checks)

    def call(self, builder: Builder) -> Operand:
        second = self.second.arguments(builder)[1:]  # one element type for both
        return builder.call("i32", "idiom_gemv2", [*self.first.arguments(builder), *second])


class _GemvSumPlan(Plan):
    """Two row products of one loop combined, y = alpha A x + beta B x (blas.idl's
    GEMVDotSum): one call (idiom_gemv_sum) makes both and the combination, or nothing.
    Each product is guarded as a GEMV of its own; where the loop keeps the first in an
    array of its own (tmp), that array may not overlap what the second reads or writes,
    nor y what the first reads."""

    target = "BLAS gemv x2, combined (OpenBLAS)"

    def __init__(
        self,
        first: _GemvPlan,
        second: _GemvPlan,
        *,
        keeps_first: bool,
        alpha: Value | None,
        beta: Value | None,
    ) -> None:
        self.first, self.second, self.keeps_first = first, second, keeps_first
        self.alpha, self.beta = alpha, beta

    def guard(self, builder: Builder) -> Operand:
        checks = [self.first.guard(builder), self.second.guard(builder)]
        if self.keeps_first:
            one, other = self.first.accesses, self.second.accesses
            checks.append(disjoint(builder, one["c"], [other["a"], other["b"], other["c"]]))
            checks.append(disjoint(builder, other["c"], [one["a"], one["b"]]))
        return builder.all_of(checks)

    def call(self, builder: Builder) -> Operand:
        second = self.second.arguments(builder)[1:]  # one element type for both
        combination = [
            const("i32", int(self.keeps_first)),
            scalar_operand(builder, self.alpha, 1.0),
            scalar_operand(builder, self.beta, 1.0),
        ]
        return builder.call(
            "i32", "idiom_gemv_sum", [*self.first.arguments(builder), *second, *combination]
        )


def _dot_sum(solution: Mapping[str, Value | None], context: MapperContext) -> Plan:
    """y = alpha A x + beta B x from two row sums over one inner loop (blas.idl's
    GEMVDotSum), each sum from zero in a register or in memory, A x kept in tmp or not."""
    region = context.region
    if not context.reassociate:
        raise NotReplaced("BLAS adds the products in an order of its own (reassociation off)")
    element = need(solution, "a.value").type
    if element not in _ELEMENTS:
        raise NotReplaced(f"BLAS has no {element} routine")
    if {need(solution, n).type for n in ("second.a.value", "combined")} != {element}:
        raise NotReplaced("the two products have different element types")
    for prefix in ("", "second."):
        _check_row_sum(solution, prefix)
    loops = [loop_view(region.function, solution, f"loop[{level}].") for level in range(2)]
    names = ("combine.store", "c.store", "init_store", "second.c.store", "second.init_store")
    stores = [store for store in map(solution.get, names) if store is not None]
    conditions = check_legal(region, stores=stores, results=[], loops=loops, fixed_loads=True)
    keeps_first = solution.get("c.store") is not None
    target = need(solution, "combine.address")

    def product(prefix: str, c: Value) -> _GemvPlan:
        dense = DenseMatch(
            loops=loops,
            a=need(solution, f"{prefix}a.address"),
            b=need(solution, f"{prefix}b.address"),
            c=c,
            element=element,
            alpha=None,
            beta=None,
            beta_is_one=False,
            has_old=False,
            conditions=conditions,
        )
        matrix, vector = _dot_roles(dense, region)
        return _GemvPlan(dense, context, matrix=matrix, vector=vector, m=0, n=1)

    context.module.declare("idiom_gemv_sum", f"declare {_GEMV_SUM}")
    first = product("", need(solution, "c.address") if keeps_first else target)
    return _GemvSumPlan(
        first,
        product("second.", target),
        keeps_first=keeps_first,
        alpha=solution.get("combine.alpha"),
        beta=solution.get("combine.beta"),
    )


def _check_row_sum(solution: Mapping[str, Value | None], prefix: str) -> None:
    """A RowSum (blas.idl) read after its loop as a phi, or stored after it from a
    register, must be the sum as the loop left it: the exit phi of its last update, or a
    phi of that and the zero it starts from."""
    last, start = need(solution, f"{prefix}last"), need(solution, f"{prefix}acc_init")
    for name in ("sum", "kept"):
        value = solution.get(f"{prefix}{name}")
        if value is None or value.opcode != "phi":
            continue
        if not _is_last_or_start(value, last, start):
            raise NotReplaced("a product's value after its loop is not the sum the loop left")


def map_gemv(instance: Instance, context: MapperContext) -> Plan:
    context.module.declare("idiom_gemv", f"declare {_GEMV}")
    declare_row_tables(context.module)
    solution = instance.solution
    if solution.get("combine.store") is not None:
        return _dot_sum(solution, context)
    second_store = solution.get("second.c.store")
    also = tuple(
        store for store in (second_store, solution.get("second.init_store")) if store is not None
    )
    second_loop: tuple[LoopView, ...] = ()
    if solution.get("second.loop.iterator") is not None:
        second_loop = (loop_view(context.region.function, solution, "second.loop."),)
    dense = dense_match(instance, context, 2, also_stores=also, also_loops=second_loop)
    if second_loop:
        return _dot_then_update(solution, dense, second_loop[0], context)
    if solution.get("acc") is not None:
        matrix, vector = _dot_roles(dense, context.region)
        return _GemvPlan(dense, context, matrix=matrix, vector=vector, m=0, n=1)
    # Update form: y[j] += x[i] * A[i][j]; y runs along the inner loop.
    update = _GemvPlan(dense, context, matrix="b", vector="a", m=1, n=0)
    if second_store is None:
        return update
    context.module.declare("idiom_gemv2", f"declare {_GEMV2}")
    dot = _second_dot(solution, dense, context)
    matrix, vector = _dot_roles(dot, context.region)
    return _GemvPairPlan(update, _GemvPlan(dot, context, matrix=matrix, vector=vector, m=0, n=1))


def _dot_then_update(
    solution: Mapping[str, Value | None],
    dense: DenseMatch,
    loop: LoopView,
    context: MapperContext,
) -> Plan:
    """tmp = A x, then y += A^T tmp (blas.idl's GEMVDotThenUpdate): the update's vector is
    tmp, where the dot product stored what the update multiplies by."""
    final = solution.get("final")  # unused where the sum is kept in tmp (StoredDotLoop)
    if final is not None and final.opcode == "phi" and not is_sum_after(solution, final):
        raise NotReplaced("the first product's value is not its sum as the loop left it")
    context.module.declare("idiom_gemv2", f"declare {_GEMV2}")
    matrix, vector = _dot_roles(dense, context.region)
    first = _GemvPlan(dense, context, matrix=matrix, vector=vector, m=0, n=1)
    update = DenseMatch(
        loops=[dense.loops[0], loop],
        a=dense.c,
        b=need(solution, "second.b.address"),
        c=need(solution, "second.c.address"),
        element=dense.element,
        alpha=solution.get("second.alpha"),
        beta=None,
        beta_is_one=True,
        has_old=True,
        conditions=[],
    )
    second = _GemvPlan(update, context, matrix="b", vector="a", m=1, n=0)
    return _GemvPairPlan(first, second, chained=True)


def _dot_roles(dense: DenseMatch, region: Region) -> tuple[str, str]:
    """Dot form, y[i] = sum_j: (matrix, vector), the matrix the factor that moves with the
    row loop."""
    outer = dense.loops[0].iterator
    a_moves = depends_on(dense.a, outer, region)
    b_moves = depends_on(dense.b, outer, region)
    if a_moves == b_moves:
        raise NotReplaced("neither factor is a vector fixed along the rows")
    return ("a", "b") if a_moves else ("b", "a")


def _second_dot(
    solution: Mapping[str, Value | None], first: DenseMatch, context: MapperContext
) -> DenseMatch:
    """The row dot product beside a transposed update (blas.idl's GEMVUpdateWithDot): a
    sum from zero stored as it is, or kept in memory from zero or from its old value
    (MemoryRowSum), over the update's loops (legality checked with it)."""
    in_memory = solution.get("second.c_old") is not None
    final = solution.get("second.final")
    if not in_memory and final is None:
        raise NotReplaced("the second product has no sum")
    if final is not None and final.opcode == "phi" and not is_sum_after(solution, final, "second."):
        raise NotReplaced("the second product's value is not its sum as the loop left it")
    if need(solution, "second.a.value").type != first.element:
        raise NotReplaced("the two products have different element types")
    from_old = in_memory and solution.get("second.init_store") is None
    return DenseMatch(
        loops=first.loops,
        a=need(solution, "second.a.address"),
        b=need(solution, "second.b.address"),
        c=need(solution, "second.c.address"),
        element=first.element,
        alpha=None,
        beta=None,
        beta_is_one=from_old,
        has_old=from_old,
        conditions=[],
    )
