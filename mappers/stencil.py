"""Stencils as OpenCL kernels: one work-item per point of the nest.

The kernel is the nest's own computation of {stored} (mappers/kernels.py), its
neighbours read from one buffer per array, the result written at {out.address}. The
innermost loop is the NDRange's first dimension, so neighbouring work-items touch
neighbouring elements. The output range is copied in and out (the nest may not write
every element of it), and the guard requires it to be disjoint from everything read
(a boundary row rebuilt from the next rows of the same grid passes; a sweep that reads
what it writes keeps the original code) and the points written by any two iterations to
be apart (work-items run in any order: a loop that writes one element again and again
keeps the original code too).

A stencil that stores several values per point (a lattice-Boltzmann cell pushing its
distributions to its neighbours, maybe under an obstacle test) is found, not replaced:
the kernel computes one value per work-item.
"""

from __future__ import annotations

from mappers.access import Access, apart_from_fixed
from mappers.emit import I64, Builder, NotReplaced, const
from mappers.irtext import Operand
from mappers.kernels import KernelArg, KernelBody, launch, pack_params, param_prelude
from mappers.loops import LoopView, loop_view, trip_count
from mappers.plan import MapperContext, Plan
from mappers.reduction import PRELUDE, require_worth_it, stack_saved
from mappers.region import check_legal, guard_conditions
from matcher.detect import Instance, Solution
from matcher.ir import Value

__all__ = ["map_stencil"]


class _StencilPlan(Plan):
    target = "OpenCL stencil kernel"

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        solution = instance.solution
        self.context = context
        function = context.region.function
        depth = sum(1 for level in range(3) if solution.get(f"loop[{level}].iterator"))
        self.loops: list[LoopView] = [
            loop_view(function, solution, f"loop[{level}].") for level in range(depth)
        ]
        store, stored, address = (solution.get(k) for k in ("store", "stored", "out.address"))
        if store is None or stored is None or address is None:
            raise NotReplaced("the stencil match has no store")
        stores = _slots(solution, "write", "store")
        if len(stores) > 1:
            lines = sorted({v.location.line for v in stores if v.location is not None})
            where = f" (lines {lines[0]}-{lines[-1]})" if lines else ""
            raise NotReplaced(f"{len(stores)} stores per point{where}; the kernel writes one value")
        self.stored: Value = stored
        self.address: Value = address
        self.conditions = check_legal(
            context.region, stores=[store], results=[], loops=self.loops, fixed_loads=True
        )

    def guard(self, builder: Builder) -> Operand:
        region = self.context.region
        checks = [guard_conditions(builder, region, self.conditions, fixed_loads=True)]
        self.counts: list[Operand] = []
        for loop in self.loops:
            counted = trip_count(builder, loop)
            self.counts.append(counted.count)
            checks.append(counted.exact)
        self.points = self.counts[0]
        for count in self.counts[1:]:
            self.points = builder.binary("mul", self.points, count)
        require_worth_it(builder, self.context.module, self.points)
        body = KernelBody(
            builder, self.context.region, self.loops, self.counts, shared_strides=True
        )
        self.body = body
        self.value = body.value(self.stored)
        out_group = body.group(self.address, self.stored.type, written=True)
        self.out_index = body.index(self.address, self.stored.type, out_group)
        self.out_name = out_group.name
        checks.append(_points_apart(builder, out_group.accesses[0], self.counts))
        body.close_groups()
        self.params, whole = body.read_params()
        checks.append(whole)
        checks += body.apart_from_reads(out_group)
        assert out_group.low is not None and out_group.high is not None
        checks.append(apart_from_fixed(builder, region, (out_group.low, out_group.high)))
        return builder.all_of(checks)

    def _source(self, args: list[KernelArg]) -> str:
        depth = len(self.loops)
        params = [f"long n{d}" for d in range(depth)] + [a.declaration for a in args]
        ids = [f"  const long t{d} = get_global_id({depth - 1 - d});" for d in range(depth)]
        bounds = " || ".join(f"t{d} >= n{d}" for d in range(depth))
        lines = [*param_prelude(self.params), *self.body.lines]
        body = "\n".join("  " + line for line in lines)
        return f"""{PRELUDE}
__kernel void idiom_stencil({", ".join(params)}) {{
{chr(10).join(ids)}
  if ({bounds}) return;
{body}
  {self.out_name}[{self.out_index}] = {self.value};
}}
"""

    def call(self, builder: Builder) -> Operand:
        saved = stack_saved(builder, self.context.module)
        packed = pack_params(builder, self.params)
        args = [*self.body.scalar_args(), *self.body.buffer_args(), packed]
        sizes = [KernelArg("", 3, count, const(I64, 8)) for count in self.counts]
        local = _LOCAL_SIZES[len(self.counts)]
        rounded = [
            _round_up(builder, count, size)
            for count, size in zip(reversed(self.counts), local, strict=True)
        ]
        status = launch(
            builder,
            self.context.module,
            source=self._source(args),
            kernel="idiom_stencil",
            global_size=rounded,
            local_size=local,
            work=self.points,
            args=[*sizes, *args],
        )
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        return status


# Work-group shapes, innermost dimension first, the global size rounded up to them. On an
# H100 the shape changed kernel times by a few percent only (docs/acceleration.md), but a
# size left to the driver must divide the global size: a prime one would leave one
# work-item per group.
_LOCAL_SIZES = {1: (256,), 2: (32, 8), 3: (32, 8, 1)}


def _slots(solution: Solution, name: str, field: str) -> list[Value]:
    """The values bound in the slots {name[0].field}, {name[1].field}, ... of a collect."""
    found = []
    slot = 0
    while f"{name}[{slot}].{field}" in solution:
        value = solution[f"{name}[{slot}].{field}"]
        if value is not None:
            found.append(value)
        slot += 1
    return found


def _points_apart(builder: Builder, written: Access, counts: list[Operand]) -> Operand:
    """i1: no two iterations write a common byte, so that work-items may run in any
    order. Taken loop by loop from the innermost out (or from the outermost in: a nest
    that walks a row-major array column by column), each loop's stride must clear what
    the loops before it span (or the loop runs once): the address then tells the
    iteration apart, as the digits of a number do."""
    nest = list(zip(written.strides, counts, strict=True))  # the outermost loop first
    zero, one = const(I64, 0), const(I64, 1)
    found = []
    for order in (nest[::-1], nest):
        extent = const(I64, written.element_size)
        checks = []
        for stride, count in order:
            negative = builder.compare("slt", stride, zero)
            size = builder.select(negative, builder.binary("sub", zero, stride), stride)
            clears = builder.compare("sge", size, extent)
            checks.append(builder.binary("or", clears, builder.compare("eq", count, one)))
            reach = builder.binary("mul", size, builder.binary("sub", count, one))
            extent = builder.binary("add", extent, reach)
        found.append(builder.all_of(checks))
    return builder.binary("or", found[0], found[1])


def _round_up(builder: Builder, count: Operand, multiple: int) -> Operand:
    """`count` rounded up to a multiple of the work-group size (the kernel skips the
    work-items past the nest's bounds)."""
    bumped = builder.binary("add", count, const(I64, multiple - 1))
    return builder.binary(
        "mul", builder.binary("udiv", bumped, const(I64, multiple)), const(I64, multiple)
    )


def map_stencil(instance: Instance, context: MapperContext) -> Plan:
    return _StencilPlan(instance, context)
