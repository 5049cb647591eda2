"""Histograms as OpenCL kernels: atomic adds into the bins.

Which bins a histogram touches depends on the data, so the call runs two kernels: the
first finds the smallest and largest bin index over all iterations; the host checks
that this range of the bin array is disjoint from everything the loop reads; the
second kernel computes each iteration's bin and increment (the loop's own code,
mappers/kernels.py) and adds atomically into a copy of exactly that range.
Floating-point bins are added in another order than the loop's, so they need
reassociation to be allowed.
"""

from __future__ import annotations

from mappers.access import element_size
from mappers.emit import I64, Builder, NotReplaced, const
from mappers.irtext import Operand, operand
from mappers.kernels import (
    PUBLISH_RANGE,
    KernelArg,
    KernelBody,
    c_type,
    launch,
    pack_params,
    param_prelude,
    range_cells,
    read_cells,
)
from mappers.loops import loop_view, trip_count
from mappers.plan import MapperContext, Plan, need
from mappers.reduction import PRELUDE, stack_saved, worth_it
from mappers.region import check_legal, guard_conditions
from matcher.detect import Instance

__all__ = ["map_histogram"]

_ATOMICS = {
    "i32": "atomic_add((volatile __global int*)cell, inc);",
    "i64": "atom_add((volatile __global long*)cell, inc);",
    "float": (
        "union { uint u; float f; } old, new; "
        "do { old.f = *cell; new.f = old.f + inc; } "
        "while (atomic_cmpxchg((volatile __global uint*)cell, old.u, new.u) != old.u);"
    ),
    "double": (
        "union { ulong u; double f; } old, new; "
        "do { old.f = *cell; new.f = old.f + inc; } "
        "while (atom_cmpxchg((volatile __global ulong*)cell, old.u, new.u) != old.u);"
    ),
}
_INT64_ATOMICS = (
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
)


class _HistogramPlan(Plan):
    target = "OpenCL histogram kernel (atomics)"

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        solution = instance.solution
        self.context = context
        self.loop = loop_view(context.region.function, solution, "")

        self.bins, self.index_value = need(solution, "bins"), need(solution, "bin_index")
        self.increment, self.old = need(solution, "increment"), need(solution, "old_count")
        self.kind = need(solution, "new_count").type
        address, store = need(solution, "bin_address"), need(solution, "store")
        if len(address.operands) != 2 or f" {self.kind}, ptr " not in f" {address.text} ":
            raise NotReplaced("the bin address is not bins[index] over the bins' own type")
        if self.bins.block in context.region.blocks:
            raise NotReplaced(f"the bins {self.bins.name} are loaded again inside the loop")
        if self.kind not in _ATOMICS:
            raise NotReplaced(f"no atomic add for {self.kind} bins")
        if self.kind in ("float", "double") and not context.reassociate:
            raise NotReplaced("floating-point bins would be added in another order")
        self.conditions = check_legal(
            context.region,
            stores=[store],
            results=[],
            loops=[self.loop],
        )

    def guard(self, builder: Builder) -> Operand:
        counted = trip_count(builder, self.loop)
        self.count = counted.count
        body = KernelBody(builder, self.context.region, [self.loop], [counted.count])
        body.names[self.old] = "__never_read"  # the bin's old value is the atomic's business
        self.body = body
        self.index = body.value(self.index_value)
        self.inc = body.value(self.increment)
        if "__never_read" in "\n".join(body.lines):
            raise NotReplaced("the bin index or increment depends on the bins")
        body.close_groups()
        self.params, whole = body.read_params()
        checks = [counted.exact, whole, worth_it(builder, self.context.module, counted.count)]
        checks.append(guard_conditions(builder, self.context.region, self.conditions))
        return builder.all_of(checks)

    def _source(self, args: list[KernelArg]) -> str:
        declarations = ", ".join(["long n0", *(a.declaration for a in args)])
        prelude = "\n".join("  " + line for line in param_prelude(self.params))
        body = "\n".join("    " + line for line in self.body.lines)
        kind = c_type(self.kind)
        extensions = _INT64_ATOMICS if self.kind in ("i64", "double") else ""
        loop = f"""  for (long t0 = get_global_id(0); t0 < n0; t0 += get_global_size(0)) {{
{body}"""
        return f"""{PRELUDE}{extensions}
__kernel void idiom_bin_range({declarations}, __global int* range) {{
{prelude}
  long low = LONG_MAX, high = LONG_MIN;
{loop}
    const long k = (long){self.index};
    low = min(low, k); high = max(high, k);
  }}
{PUBLISH_RANGE}
}}

__kernel void idiom_histogram({declarations}, __global {kind}* bins, long first_bin) {{
{prelude}
{loop}
    const {kind} inc = {self.inc};
    __global {kind}* cell = bins + ((long){self.index} - first_bin);
    {_ATOMICS[self.kind]}
  }}
}}
"""

    def call(self, builder: Builder) -> Operand:
        module = self.context.module
        saved = stack_saved(builder, module)
        packed = pack_params(builder, self.params)
        args = [*self.body.scalar_args(), *self.body.buffer_args(), packed]
        source = self._source(args)
        common = [KernelArg("", 3, self.count, const(I64, 8)), *args]
        cells = range_cells(builder)
        first = launch(
            builder,
            module,
            source=source,
            kernel="idiom_bin_range",
            global_size=[const(I64, 16384)],
            local_size=None,
            work=self.count,
            args=[*common, KernelArg("", 2, cells, const(I64, 12))],
        )
        low, high, overflow = read_cells(builder, cells)
        size = const(I64, element_size(self.kind))
        low64, high64 = builder.to_i64(low), builder.to_i64(high)
        bins_start = builder.to_i64(self._bins_operand())
        range_low = builder.binary("add", bins_start, builder.binary("mul", low64, size))
        range_high = builder.binary(
            "add",
            bins_start,
            builder.binary("mul", builder.binary("add", high64, const(I64, 1)), size),
        )
        checks = [
            builder.compare("eq", first, const("i32", 0)),
            builder.compare("eq", overflow, const("i32", 0)),
            builder.compare("sle", low, high),
        ]
        checks += self.body.apart_from_reads((range_low, range_high))
        go = builder.all_of(checks)
        fill, skip, merge = (builder.fresh(part).lstrip("%") for part in ("fill", "skip", "merge"))
        builder.branch_if(go, fill, skip)
        builder.label(fill)
        bins_arg = KernelArg("", 2, range_low, builder.binary("sub", range_high, range_low))
        second = launch(
            builder,
            module,
            source=source,
            kernel="idiom_histogram",
            global_size=[const(I64, 16384)],
            local_size=None,
            work=self.count,
            args=[*common, bins_arg, KernelArg("", 3, low64, const(I64, 8))],
        )
        builder.branch(merge)
        builder.label(skip)
        builder.branch(merge)
        builder.label(merge)
        status = builder.emit("i32", f"phi i32 [ {second.ref}, %{fill} ], [ 1, %{skip} ]")
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        return status

    def _bins_operand(self) -> Operand:
        return operand(self.bins)


def map_histogram(instance: Instance, context: MapperContext) -> Plan:
    return _HistogramPlan(instance, context)
