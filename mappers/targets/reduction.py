"""Reductions as OpenCL kernels generated from the match (mappers/targets/kernels.py).

Every work-item folds a strided share of the iterations, work-groups fold in local
memory, a second kernel folds the groups' partial results; the host then combines the
total with the accumulator's initial value using the loop's own update. No identity
element is needed: a `has` flag marks partial results that saw nothing. All the
accumulators of one loop are folded by the same kernels. Loops of fewer than
`idiom_cl_min_work()` iterations stay on the original code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lift.errors import LiftError
from lift.ir.text import pretty
from lift.opencl.generate import Kernel, generate
from mappers.plan.access import element_size
from mappers.plan.loops import loop_view, trip_count
from mappers.plan.plan import GeneratedKernel, MapperContext, Plan, need
from mappers.plan.region import Region, check_legal, guard_conditions
from mappers.rewrite.emit import I64, Builder, Cloner, NotReplaced, const
from mappers.rewrite.irtext import ModuleText, Operand, operand
from mappers.targets.functional import (
    MOST_PARTIALS,
    Lane,
    ReductionExpression,
    call_operation,
    generated_kernels,
    reduction_expression,
)
from mappers.targets.kernels import (
    CONTINUES,
    HANDOFF,
    KernelArg,
    KernelBody,
    c_type,
    group_lengths,
    launch,
    long_and_int,
    pack_params,
    param_prelude,
    size_args,
    sizes_fit,
    status_when,
)
from matcher.demangle import demangle_names
from matcher.detect import Instance
from matcher.ir import Value, ValueKind

__all__ = [
    "PRELUDE",
    "Tree",
    "arguments_by_name",
    "ceiling",
    "launch_tree",
    "map_reduction",
    "require_worth_it",
    "stack_saved",
    "tree_kernels",
]

GROUPS = MOST_PARTIALS  # most work-groups of the first kernel (loads in flight on a large GPU)
LOCAL = 128  # work-items per group (a power of two: the tree in local memory halves it)
PER_ITEM = 8  # fewer groups below GROUPS * LOCAL * PER_ITEM iterations: no idle work-items
# Every kernel: doubles, and `a * b + c` kept as two roundings, as the IR (and the original
# build) computes it; OpenCL C may fuse it into one otherwise, on a GPU as on PoCL.
PRELUDE = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n"
_ASSOCIATIVE_SUM = {"sub": "add", "fsub": "fadd"}  # acc - x folds the x's with +
_FLOATING = {"fadd", "fsub", "fmul"}


def _order_sensitive(update: Value) -> bool:
    """A floating-point update that picks one of its values (min, max: a select or a
    call) rather than computing: with a NaN among the values, or a result of zero (+0 and
    -0 compare equal), which one the loop keeps depends on the order it meets them."""
    return update.type in ("float", "double") and update.opcode not in _FLOATING


_KNOWN_MIN_WORK = "idiom_cl_min_work_known"


def require_worth_it(builder: Builder, module: ModuleText, iterations: Operand) -> None:
    """In a guard, as early as the iteration count is known: the original code runs at
    once unless there are enough iterations for a kernel launch to pay off. The first test
    reads the threshold the runtime keeps once known (-1 before: it passes), without a
    call, so that it can decline alone (mappers/rewrite/rewriter.py `_outline_guard`)."""
    module.declare(_KNOWN_MIN_WORK, f"@{_KNOWN_MIN_WORK} = external global i64")
    module.declare("idiom_cl_min_work", "declare i64 @idiom_cl_min_work()")
    known = builder.emit(I64, f"load atomic i64, ptr @{_KNOWN_MIN_WORK} monotonic, align 8")
    builder.require(builder.compare("sge", iterations, known))
    minimum = builder.call(I64, "idiom_cl_min_work", [])
    builder.require(builder.compare("sge", iterations, minimum))


class _Accumulator:
    def __init__(self, solution: dict[str, Value | None]) -> None:
        if solution.get("acc_store") is not None:
            raise NotReplaced("the accumulator is kept in memory")
        self.acc, self.init = need(solution, "acc"), need(solution, "acc_init")
        self.update = need(solution, "update")
        if solution.get("fold") is not self.update:
            raise NotReplaced("the accumulator is updated on some paths of the loop only")
        self.operand, self.compare = need(solution, "operand"), solution.get("compare")


class _ReductionPlan(Plan):
    target = "OpenCL reduction kernel"

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        self.context = context
        region = context.region
        solutions = instance.solutions or (instance.solution,)
        self.loop = loop_view(region.function, instance.solution, "")
        self.accumulators = [_Accumulator(dict(s)) for s in solutions]
        self._check(region)
        self.conditions = check_legal(
            region,
            stores=[],
            results=[a.update for a in self.accumulators],
            loops=[self.loop],
            fixed_loads=True,  # nothing is stored: no fixed value can change
        )
        for accumulator in self.accumulators:
            if accumulator.acc.type not in ("i8", "i16", "i32", "i64", "float", "double"):
                raise NotReplaced(f"no kernel for a {accumulator.acc.type} accumulator")
            if not context.reassociate and accumulator.update.opcode in _FLOATING:
                raise NotReplaced(
                    "a floating-point reduction would be reordered (reassociation off)"
                )
        if any(a.update.opcode in _FLOATING for a in self.accumulators):
            # Said in the report: a sum in another order may differ in its last bits, which
            # an ill-conditioned program can magnify (a rank-deficient Gram-Schmidt).
            self.target = "OpenCL reduction kernel (floating point, reordered)"
        # Sums of floating-point values also fold the sum of their magnitudes: finite, no
        # order of the additions overflows (`_order_unsettled`).
        self.magnitudes = [
            j for j, a in enumerate(self.accumulators) if a.update.opcode in ("fadd", "fsub")
        ]
        self.results: list[Operand] = []
        self.packed: KernelArg | None = None
        self.functional: ReductionExpression | None = None

    def _check(self, region: Region) -> None:
        for block in region.blocks:
            for call in block.instructions:
                if call.fills and not (call.callee or "").startswith("llvm."):
                    callee = call.callee or "a function"
                    callee = demangle_names([callee]).get(callee, callee)
                    arrays = ", ".join(a.name for a in call.fills)
                    raise NotReplaced(
                        f"the loop calls {callee}, which fills the local array {arrays} at "
                        "every iteration: a kernel does not run the functions a loop calls"
                    )
        header = self.loop.iterator.block
        assert header is not None
        phis = {i for i in header.instructions if i.opcode == "phi"}
        carried = phis - {self.loop.iterator} - {a.acc for a in self.accumulators}
        if carried:
            name = next(iter(carried)).name
            raise NotReplaced(f"the loop also carries {name}, which is not a reduction")

    def guard(self, builder: Builder) -> Operand:
        region = self.context.region
        checks = [guard_conditions(builder, region, self.conditions, fixed_loads=True)]
        counted = trip_count(builder, self.loop)
        self.count = counted.count
        require_worth_it(builder, self.context.module, counted.count)
        self.body = KernelBody(builder, region, [self.loop], [counted.count])
        self.operands = [self.body.value(a.operand) for a in self.accumulators]
        self.body.close_groups()
        self.params, whole = self.body.read_params()
        checks += [counted.exact, whole]
        lanes = self._lanes()
        if lanes is not None and generated_kernels():
            self.functional = reduction_expression(self.body, lanes, LOCAL)
        self.kernels = self._kernels() if self.functional is not None else None
        if self.kernels is None:
            self.functional = None  # the translated kernels
        else:
            self.target += " (generated)"
        return builder.all_of(checks)

    def _kernels(self) -> tuple[Kernel, Kernel, Kernel] | None:
        """The partial folds (long and int indices) and the final fold, generated; None
        where the Lift compiler declines them (the translated kernels run)."""
        functional = self.functional
        assert functional is not None
        kernels = tree_kernels(functional, self._arguments_by_name())
        if kernels is None:
            return None
        first, _, final = kernels
        self.generated = GeneratedKernel(
            pretty(functional.algorithmic),
            (
                f"tree-reduce({LOCAL}): work-groups' shares, log2 steps in local memory, "
                f"then the groups' results in one group of {functional.total_local}",
            ),
            pretty(functional.partials) + "\n" + pretty(functional.total),
            first.source + final.source,
        )
        return kernels

    def _arguments_by_name(self) -> dict[str, KernelArg]:
        return arguments_by_name(self.body)

    def _lanes(self) -> list[Lane] | None:
        """The lanes as the Lift compiler folds them, in `_lane_types`'s order: each
        accumulator's operand with its fold's operator and identity, then the magnitudes
        of the floating-point sums; None where an update has no such operator (the
        translated kernels, which fold with the loop's own update, run)."""
        lanes = []
        for accumulator in self.accumulators:
            lane = _lane_of(accumulator)
            if lane is None:
                return None
            lanes.append(lane)
        for j in self.magnitudes:
            lanes.append(Lane(self.accumulators[j].operand, "+", -0.0, magnitude=True))
        return lanes

    def _lane_types(self) -> list[str]:
        """The IR type of each value the kernels fold: every accumulator, then the sum of
        magnitudes of each floating-point sum (see `_order_unsettled`)."""
        types = [a.acc.type for a in self.accumulators]
        return types + [types[j] for j in self.magnitudes]

    def _source(self) -> str:
        accs = self.accumulators
        types = [c_type(t) for t in self._lane_types()]
        combines = [
            self._combine(j, a, t) for j, (a, t) in enumerate(zip(accs, types, strict=False))
        ]
        combines += [
            f"{types[j]} idiom_combine{k}({types[j]} a, {types[j]} b) {{ return a + b; }}\n"
            for k, j in enumerate(self.magnitudes, start=len(accs))
        ]
        operands = self.operands + [f"fabs({self.operands[j]})" for j in self.magnitudes]
        lanes = len(types)
        params = [arg.declaration for arg in self._common_args()]
        params += [f"__global {t}* p{j}" for j, t in enumerate(types)]
        params += ["__global int* ph"]
        params += [f"__local {t}* l{j}" for j, t in enumerate(types)]
        params += ["__local int* lh"]
        fold_first = "\n".join(
            f"    r{j} = has ? idiom_combine{j}(r{j}, {op}) : {op};"
            for j, op in enumerate(operands)
        )
        other = "l{j}[lid + s]"
        fold_tree = "\n".join(
            f"      l{j}[lid] = lh[lid] ? idiom_combine{j}(l{j}[lid], {other.format(j=j)})"
            f" : {other.format(j=j)};"
            for j in range(lanes)
        )
        tree = _tree(lanes, fold_tree)
        prelude = "\n".join("  " + line for line in param_prelude(self.params))
        body = "\n".join("    " + line for line in self.body.lines)
        first = f"""
__kernel void idiom_reduce({", ".join(params)}) {{
  const int lid = get_local_id(0);
{prelude}
  {" ".join(f"{t} r{j} = 0;" for j, t in enumerate(types))}
  int has = 0;
  for (long t0 = get_global_id(0); t0 < n0; t0 += get_global_size(0)) {{
{body}
{fold_first}
    has = 1;
  }}
{tree}
  if (lid == 0) {{
    {" ".join(f"p{j}[get_group_id(0)] = l{j}[0];" for j in range(lanes))}
    ph[get_group_id(0)] = lh[0];
  }}
}}
"""
        final_params = ["long groups"]
        final_params += [f"__global const {t}* p{j}" for j, t in enumerate(types)]
        final_params += ["__global const int* ph"]
        final_params += [f"__global {t}* o{j}" for j, t in enumerate(types)]
        final_params += [f"__local {t}* l{j}" for j, t in enumerate(types)]
        final_params += ["__local int* lh"]
        fold_final = "\n".join(
            f"      r{j} = has ? idiom_combine{j}(r{j}, p{j}[g]) : p{j}[g];" for j in range(lanes)
        )
        final = f"""
__kernel void idiom_reduce_final({", ".join(final_params)}) {{
  const int lid = get_local_id(0);
  {" ".join(f"{t} r{j} = 0;" for j, t in enumerate(types))}
  int has = 0;
  for (long g = lid; g < groups; g += get_local_size(0)) {{
    if (ph[g]) {{
{fold_final}
      has = 1;
    }}
  }}
{tree}
  if (lid == 0) {{
    {" ".join(f"o{j}[0] = l{j}[0];" for j in range(lanes))}
  }}
}}
"""
        return PRELUDE + "".join(combines) + first + final

    def _combine(self, j: int, accumulator: _Accumulator, kind: str) -> str:
        update = accumulator.update
        if update.opcode in _ASSOCIATIVE_SUM:
            return f"{kind} idiom_combine{j}({kind} a, {kind} b) {{ return a + b; }}\n"
        translator = KernelBody(Builder("unused"), self.context.region, [], [])
        translator.names.update({accumulator.acc: "a", accumulator.operand: "b"})
        result = translator.value(update)
        if translator.scalars or translator.reads:
            raise NotReplaced("the accumulator's update uses more than the accumulator and operand")
        lines = " ".join(translator.lines)
        if _order_sensitive(update):
            # A NaN met anywhere reaches the total, so that the host sees it and declines.
            lines = f"if (isnan(b)) return b; if (isnan(a)) return a; {lines}"
        return f"{kind} idiom_combine{j}({kind} a, {kind} b) {{ {lines} return {result}; }}\n"

    def _common_args(self) -> list[KernelArg]:
        args = [KernelArg("long n0", 3, self.count, const(I64, 8))]
        args += self.body.scalar_args()
        args += self.body.buffer_args()
        if self.packed is not None:
            args.append(self.packed)
        else:
            args.append(KernelArg("__global const long* restrict P", 0, None, None))
        return args

    def call(self, builder: Builder) -> Operand:
        if self.functional is not None:
            return self._call_generated(builder, self.functional)
        source = self._source()
        types = self._lane_types()
        saved = stack_saved(builder, self.context.module)
        partials = [builder.emit("ptr", f"alloca {t}, i32 {GROUPS}") for t in types]
        flags = builder.emit("ptr", f"alloca i32, i32 {GROUPS}")
        outputs = [builder.emit("ptr", f"alloca {t}") for t in types]
        sizes = [element_size(t) for t in types]
        self.packed = pack_params(builder, self.params)
        first_args = self._common_args()
        first_args += [_handed_off(p, GROUPS * s) for p, s in zip(partials, sizes, strict=True)]
        first_args += [_handed_off(flags, GROUPS * 4)]
        first_args += [KernelArg("", 4, None, const(I64, LOCAL * s)) for s in sizes]
        first_args += [KernelArg("", 4, None, const(I64, LOCAL * 4))]
        module = self.context.module
        groups = _groups(builder, self.count)
        status_first = launch(
            builder,
            module,
            source=source,
            kernel="idiom_reduce",
            global_size=[builder.binary("mul", groups, const(I64, LOCAL))],
            local_size=[LOCAL],
            work=self.count,
            args=first_args,
        )
        final_args = [KernelArg("", 3, groups, const(I64, 8))]
        final_args += [_partials(p, GROUPS * s) for p, s in zip(partials, sizes, strict=True)]
        final_args += [_partials(flags, GROUPS * 4)]
        final_args += [_host(o, s, 1) for o, s in zip(outputs, sizes, strict=True)]
        final_args += [KernelArg("", 4, None, const(I64, LOCAL * s)) for s in sizes]
        final_args += [KernelArg("", 4, None, const(I64, LOCAL * 4))]
        # The total of the partials, only where the partials were made.
        status_final = status_when(
            builder,
            builder.compare("eq", status_first, const("i32", 0)),
            lambda: launch(
                builder,
                module,
                source=source,
                kernel="idiom_reduce_final",
                global_size=[const(I64, LOCAL)],
                local_size=[LOCAL],
                work=self.count,  # the reduction's work: the device choice must be the first's
                args=final_args,
                defining=first_args,
            ),
        )
        self.results = [
            builder.emit(t, f"load {t}, ptr {o.ref}") for t, o in zip(types, outputs, strict=True)
        ]
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        status = builder.binary("or", status_first, status_final)
        return builder.binary("or", status, self._order_unsettled(builder))

    def _call_generated(self, builder: Builder, functional: ReductionExpression) -> Operand:
        """The two generated kernels (`launch_tree`); the totals land where the translated
        kernels' do (`self.results`)."""
        values = dict(self.params) | group_lengths(builder, self.body)
        assert self.kernels is not None
        kinds = self._lane_types()
        folded = [_FOLDED.get(kind, kind) for kind in kinds]
        status, totals = launch_tree(
            builder,
            self.context.module,
            Tree(self.kernels, functional, self._arguments_by_name(), folded),
            values=values,
            count=self.count,
        )
        # A lane of bytes was folded in 32 bits: its low bits are the loop's total.
        self.results = [
            total if kind == wide else builder.cast("trunc", total, kind)
            for total, kind, wide in zip(totals, kinds, folded, strict=True)
        ]
        return builder.binary("or", status, self._order_unsettled(builder))

    def _order_unsettled(self, builder: Builder) -> Operand:
        """i32 1 where an order-sensitive update's total, or its start, is NaN or its
        total is zero, or where a floating-point sum's magnitudes add up to more than
        the largest finite value (some order of the additions may then overflow, or a
        value is infinite or NaN): the loop's own order then decides the result (the
        original code runs; the reduction stored nothing, so running it again is safe)."""
        unsettled = const("i1", "false")
        magnitudes = self.results[len(self.accumulators) :]
        for total in magnitudes:
            infinity = const(total.type, "0x7FF0000000000000")
            unsettled = builder.binary("or", unsettled, builder.compare("uge", total, infinity))
        for accumulator, total in zip(self.accumulators, self.results, strict=False):
            if not _order_sensitive(accumulator.update):
                continue
            init = operand(accumulator.init)
            zero = const(total.type, "0.000000e+00")
            for check in (
                builder.compare("uno", total, total),
                builder.compare("uno", init, init),
                builder.compare("oeq", total, zero),
            ):
                unsettled = builder.binary("or", unsettled, check)
        return builder.cast("zext", unsettled, "i32")

    def done(self, builder: Builder) -> dict[Value, Operand]:
        results: dict[Value, Operand] = {}
        for accumulator, total in zip(self.accumulators, self.results, strict=False):
            update = accumulator.update
            env = {accumulator.acc: operand(accumulator.init), accumulator.operand: total}
            if update.opcode in _ASSOCIATIVE_SUM:
                results[update] = builder.binary(
                    update.opcode or "", operand(accumulator.init), total
                )
                continue
            cloner = Cloner(builder, self.context.region.blocks, env, affine=False)
            results[update] = cloner.value(update)
        return results


# The operator of each update that folds its operand with one, and its identity by type
# (-0.0: the identity of + for every float, +0.0 included; integers wrap, as LLVM's do).
_FOLDED = {"i8": "i32", "i16": "i32"}  # the generated kernels fold bytes in 32 bits
_FOLDS = {"fadd": "+", "fsub": "+", "fmul": "*", "add": "+", "sub": "+", "mul": "*",
          "and": "&", "or": "|", "xor": "^"}  # fmt: skip
_IDENTITIES = {"+": (-0.0, 0), "*": (1.0, 1), "&": (None, -1), "|": (None, 0), "^": (None, 0)}
_EXTREMES = {
    "float": math.inf, "double": math.inf, "i8": 2**7 - 1, "i16": 2**15 - 1, "i32": 2**31 - 1,
    "i64": 2**63 - 1,
}  # fmt: skip
# The orders a lane's min and max follow, by comparison: for fcmp, ordered or unordered
# (a NaN reaches the total, which the host declines); for icmp, signed only (OpenCL's
# min and max of int and long are signed: ult, ule, ugt, uge keep the translated kernels).
_LESS = {"fcmp": {"olt", "ole", "ult", "ule"}, "icmp": {"slt", "sle"}}
_GREATER = {"fcmp": {"ogt", "oge", "ugt", "uge"}, "icmp": {"sgt", "sge"}}


def _lane_of(accumulator: _Accumulator) -> Lane | None:
    """The lane folding `accumulator`'s operand: its update's operator and identity; a
    select of the accumulator and the operand by their order, or a min/max call, is a
    minimum or maximum (identity the largest or smallest value of the type)."""
    update, kind = accumulator.update, accumulator.acc.type
    floating = kind in ("float", "double")
    op = _FOLDS.get(update.opcode or "") or _extremum(accumulator)
    if op is None or kind not in _EXTREMES:
        return None
    identity: float | int | None
    if op == "min":
        identity = _EXTREMES[kind]
    elif op == "max":  # two's complement: the smallest integer is one below -largest
        identity = -_EXTREMES[kind] if floating else -_EXTREMES[kind] - 1
    else:
        identity = _IDENTITIES[op][0 if floating else 1]
    return None if identity is None else Lane(accumulator.operand, op, identity)


def _extremum(accumulator: _Accumulator) -> str | None:
    """`min` or `max` where the update keeps the lesser or greater of the accumulator and
    the operand, else None."""
    update, pair = accumulator.update, {accumulator.acc, accumulator.operand}
    if update.opcode == "call":
        args = [o for o in update.operands if o.kind is not ValueKind.GLOBAL]
        name = call_operation(update)
        if set(args) != pair or len(args) != 2 or name not in ("min", "max"):
            return None
        return name
    if update.opcode != "select" or len(pair) != 2:
        return None
    test, chosen, other = update.operands
    if test.opcode not in _LESS or {chosen, other} != pair:
        return None
    first, second = test.operands
    less, greater = _LESS[test.opcode], _GREATER[test.opcode]
    if {first, second} != pair or test.predicate not in less | greater:
        return None
    # `first < second ? chosen : other` keeps the lesser where chosen is first.
    keeps_lesser = (test.predicate in less) == (chosen is first)
    return "min" if keeps_lesser else "max"


@dataclass(frozen=True)
class Tree:
    """A reduction's generated kernels (partials with long and int indices, the final
    fold), its expression, the argument of each program parameter and the IR type of
    each lane."""

    kernels: tuple[Kernel, Kernel, Kernel]
    functional: ReductionExpression
    arguments: dict[str, KernelArg]
    types: list[str]


def launch_tree(
    builder: Builder, module: ModuleText, tree: Tree, *, values: dict[str, Operand], count: Operand
) -> tuple[Operand, list[Operand]]:
    """Launch a generated tree reduction over `count` values: each group's partial lanes,
    then their total in one group, only where the first launch succeeded. `values` gives
    the size variables of the programs beyond the groups' (`n0`, `wg`, `per`, `m`).
    Returns the status (i32, 0 where both ran) and the lanes' totals."""
    sizes = [element_size(t) for t in tree.types]
    saved = stack_saved(builder, module)
    partials = [builder.emit("ptr", f"alloca {t}, i32 {GROUPS}") for t in tree.types]
    outputs = [builder.emit("ptr", f"alloca {t}") for t in tree.types]
    first, narrow, final = tree.kernels
    groups = _groups(builder, count)
    per = ceiling(builder, count, builder.binary("mul", groups, const(I64, LOCAL)))
    groups = ceiling(builder, count, builder.binary("mul", per, const(I64, LOCAL)))
    values = values | {"n0": count, "wg": groups, "per": per}
    first_args = [tree.arguments[p.name] for p in tree.functional.partials.params]
    first_args += [_handed_off(p, GROUPS * s) for p, s in zip(partials, sizes, strict=True)]
    first_args += size_args(first, values)
    fits = sizes_fit(builder, first, values)
    status_first = launch(
        builder,
        module,
        source=first,
        kernel=first.name,
        global_size=[builder.binary("mul", groups, const(I64, LOCAL))],
        local_size=[LOCAL],
        work=count,
        args=first_args,
        alternatives=[(fits, narrow)],
    )
    final_values = {"m": groups, "wg": const(I64, 1)}  # each item folds a fixed share
    final_args = [_partials(p, GROUPS * s) for p, s in zip(partials, sizes, strict=True)]
    final_args += [_host(o, s, 1) for o, s in zip(outputs, sizes, strict=True)]
    final_args += size_args(final, final_values)
    # The total of the partials, only where the partials were made.
    status_final = status_when(
        builder,
        builder.compare("eq", status_first, const("i32", 0)),
        lambda: launch(
            builder,
            module,
            source=final,
            kernel=final.name,
            global_size=[const(I64, tree.functional.total_local)],
            local_size=[tree.functional.total_local],
            work=count,  # the reduction's work: the device choice must be the first's
            args=final_args,
        ),
    )
    results = [
        builder.emit(t, f"load {t}, ptr {o.ref}") for t, o in zip(tree.types, outputs, strict=True)
    ]
    builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
    return builder.binary("or", status_first, status_final), results


def tree_kernels(
    functional: ReductionExpression, arguments: dict[str, KernelArg]
) -> tuple[Kernel, Kernel, Kernel] | None:
    """The partial folds (long and int indices) and the final fold of `functional`,
    generated, its parameters declared as their `arguments`; None where the Lift
    compiler declines them."""
    declarations = {p.name: arguments[p.name].declaration for p in functional.partials.params}
    # Launched one work-group an element of the expressions' map-workgroup (`launch_tree`).
    try:
        first, narrow = long_and_int(
            functional.partials, "idiom_reduce", declarations=declarations, work_group=LOCAL
        )
        final = generate(functional.total, "idiom_reduce_final", index="int",
                         work_group=functional.total_local, packed_sizes=True)  # fmt: skip
    except (LiftError, RecursionError):
        return None
    return first, narrow, final


def arguments_by_name(body: KernelBody) -> dict[str, KernelArg]:
    """The kernel argument of each buffer group and scalar of `body`, by its name: what
    the parameters of a functional expression of `body` are bound to."""
    by_name = {g.name: a for g, a in zip(body.groups.values(), body.buffer_args(), strict=True)}
    by_name |= {n: a for (n, _), a in zip(body.scalars, body.scalar_args(), strict=True)}
    return by_name


def _groups(builder: Builder, count: Operand) -> Operand:
    """Work-groups of the first kernel: one per LOCAL * PER_ITEM iterations, 1 to GROUPS."""
    chunk = LOCAL * PER_ITEM
    wanted = builder.binary("sdiv", builder.binary("add", count, const(I64, chunk - 1)),
                            const(I64, chunk))  # fmt: skip
    at_least_one = builder.select(builder.compare("slt", wanted, const(I64, 1)),
                                  const(I64, 1), wanted)  # fmt: skip
    too_many = builder.compare("sgt", at_least_one, const(I64, GROUPS))
    return builder.select(too_many, const(I64, GROUPS), at_least_one)


def _tree(count: int, fold: str) -> str:
    """Kernel lines folding each work-item's r{j}/has into l{j}[0]/lh[0] of its group."""
    stores = " ".join(f"l{j}[lid] = r{j};" for j in range(count))
    return f"""  {stores} lh[lid] = has;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {{
    if (lid < s && lh[lid + s]) {{
{fold}
      lh[lid] = 1;
    }}
    barrier(CLK_LOCAL_MEM_FENCE);
  }}"""


def stack_saved(builder: Builder, module: ModuleText) -> Operand:
    """Save the stack pointer: the call's allocas are released after it (a region inside
    a loop would otherwise grow the stack at every entry)."""
    module.declare("llvm.stacksave.p0", "declare ptr @llvm.stacksave.p0()")
    module.declare("llvm.stackrestore.p0", "declare void @llvm.stackrestore.p0(ptr)")
    return builder.call("ptr", "llvm.stacksave.p0", [])


def ceiling(builder: Builder, count: Operand, divisor: Operand) -> Operand:
    """ceil(count / divisor) for positive i64 values."""
    bumped = builder.binary("add", count, builder.binary("sub", divisor, const(I64, 1)))
    return builder.binary("sdiv", bumped, divisor)


def _host(pointer: Operand, size: int, kind: int) -> KernelArg:
    return KernelArg("", kind, pointer, const(I64, size))


def _handed_off(pointer: Operand, size: int) -> KernelArg:
    """The first kernel's partial results, an output only the final fold reads: they may stay
    on the device for it (IDIOM_ARG_HANDOFF)."""
    return KernelArg("", 1, pointer, const(I64, size), flags=HANDOFF)


def _partials(pointer: Operand, size: int) -> KernelArg:
    """The first kernel's partial results, read by the final fold: the fold continues that
    launch, and goes where it went (IDIOM_ARG_CONTINUES)."""
    return KernelArg("", 0, pointer, const(I64, size), flags=CONTINUES)


def map_reduction(instance: Instance, context: MapperContext) -> Plan:
    return _ReductionPlan(instance, context)
