"""Histograms as OpenCL kernels: atomic adds into the bins.

Which bins a histogram touches depends on the data, so the call runs two kernels: the
first finds the smallest and largest bin index over all iterations; the host checks
that this range of the bin array is disjoint from everything the loop reads; the
second kernel computes each iteration's bin and increment (the loop's own code,
mappers/targets/kernels.py) and adds atomically into a copy of exactly that range.
Floating-point bins are added in another order than the loop's, so they need
reassociation to be allowed. Bytes and shorts have no atomic add in OpenCL: each add
swaps the 32-bit word that holds the bin, only the bin's bits changed
(lift/opencl/generate.py, NARROW_ATOMICS); integer adds wrap, so the counts are exact.

The update may be conditional (`if (lo <= v[i] && v[i] < hi) h[v[i] - lo]++`). The
branches that decide whether an iteration reaches the store are found in the loop's
control flow; both kernels make the same tests, nested as in the loop, before they
compute the bin, and an iteration whose tests fail touches no bin and does not count
for the range. What the loop computes under a test the kernels compute only when it
holds (a division guarded against zero stays guarded). A read under a test is made by
the loop only at some iterations, so the host may not copy the whole range the access
would cover at every iteration (it may run past the end of the array): then a third
kernel, run first, finds the first and last iteration whose tests all hold, with the
reads the tests need (those must be made at every iteration), and the other two
kernels run over those iterations only, each read copied for them only. Both ends are
iterations at which the loop makes every one of these reads, and an affine access
between two addresses of one array stays inside it.

A histogram whose index, increment and tests the functional IR can say runs kernels
the Lift compiler generates (mappers/targets/functional.py `histogram_expression`): the
range of bins is a tree reduction (the smallest and largest index, as a reduction's
lanes), the adds a `scatter-atomic` into the copied range; the others run the kernels
translated here. The generated kernels compute what the loop computes under a test only
where it holds too (OpenCL's `?:` and `&&`), so with reads under a test they run over the
active iterations first .. last (found by a generated tree reduction of the iteration
numbers where the tests hold), each read's offset moved to iteration `first`, and the
loop's counter, where it is used as a value, started from its value there
(`COUNTER_START`).

A sparse product in coordinate storage (SpMV_COO, y[row[k]] += val[k] * x[col[k]]) is
such a histogram whose increment gathers from x at a column read in the loop: a kernel
run first finds the range of columns over the same iterations, and that slice of x is
copied for the other two (checked apart from the bins like every read).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from lift.errors import LiftError
from lift.ir.text import pretty
from lift.opencl.generate import INT64_ATOMICS, NARROW_ATOMICS, Kernel, generate
from mappers.plan.access import Access, apart, apart_from_fixed, element_size
from mappers.plan.loops import loop_view, trip_count
from mappers.plan.plan import GeneratedKernel, MapperContext, Plan, need
from mappers.plan.region import Region, check_legal, guard_conditions
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand, operand
from mappers.targets.functional import (
    BINS,
    COUNTER_START,
    FIRST_BIN,
    LOCAL_BINS,
    GatheredRead,
    HistogramExpression,
    Lane,
    generated_kernels,
    histogram_expression,
    reduction_expression,
)
from mappers.targets.kernels import (
    PUBLISH_RANGE,
    SCALAR,
    KernelArg,
    KernelBody,
    as_check,
    buffer_declaration,
    c_type,
    group_lengths,
    launch,
    pack_params,
    param_prelude,
    range_cells,
    read_cells,
    size_args,
    status_when,
)
from mappers.targets.reduction import (
    LOCAL,
    PRELUDE,
    Tree,
    arguments_by_name,
    launch_tree,
    require_worth_it,
    stack_saved,
    tree_kernels,
)
from mappers.targets.sparse import (
    Slice,
    check_fixed,
    displaced_read,
    moved_index,
    read_range,
    slice_of,
    succeeded,
)
from matcher.detect import Instance
from matcher.ir import Block, Value

__all__ = ["map_histogram"]

_GRID = 16384  # work-items of every kernel (each loops over its share of the iterations;
# the generated adds ask the runtime to widen it to fill a GPU: IDIOM_CL_FILL)
_GROUP = 256  # work-items of a group of the generated adds (each group's bins in local memory)
_ATOMICS = {
    "i8": "idiom_add_narrow((__global uchar*)cell, (uint)inc, 1);",  # NARROW_ATOMICS
    "i16": "idiom_add_narrow((__global uchar*)cell, (uint)inc, 2);",
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
_NEVER_READ = "__never_read"  # the bin's old value: the atomic's business, never the kernel's


class _Translated:
    """An iteration's code as kernel lines, with a scope opened at each test:
    `scopes[k]` is (number of lines before the test's `if`, the test)."""

    def __init__(self, body: KernelBody, old: Value, tests: Sequence[tuple[Value, bool]]) -> None:
        self.body = body
        body.names[old] = _NEVER_READ
        self.scopes: list[tuple[int, str]] = []
        for branch, taken in tests:
            test = body.value(branch.operands[0])
            self.scopes.append((len(body.lines), test if taken else f"!{test}"))

    def loop(self, update: Sequence[str], upto: int | None = None) -> str:
        """The kernel's loop over iterations t_first .. n0 - 1, `update` in the innermost
        scope after the body's lines (its first `upto` lines, when given)."""
        lines = ["for (long t0 = t_first + get_global_id(0); t0 < n0; t0 += get_global_size(0)) {"]
        depth, start = 1, 0
        for end, test in self.scopes:
            lines += ["  " * depth + line for line in self.body.lines[start:end]]
            lines.append("  " * depth + f"if ({test}) {{")
            depth, start = depth + 1, end
        lines += ["  " * depth + line for line in [*self.body.lines[start:upto], *update]]
        lines += ["  " * d + "}" for d in range(depth - 1, -1, -1)]
        return "\n".join("  " + line for line in lines)


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
        # bins[index] moved by a constant number of bins (h[k + 1]: LLVM splits the
        # constant part off into a getelementptr of its own): the bins start that far on;
        # by a value of the loop (h[a + b], split so where a and b are 64 bits): the bin
        # is index + that value.
        self.offset_bytes, self.offset_value = 0, None
        element = solution.get("bin_element")
        if element is not None:
            self.offset_bytes, self.offset_value = self._moved(address)
            address = element
        if len(address.operands) != 2 or not self._over_bins(address):
            raise NotReplaced("the bin address is not bins[index] over the bins' own type")
        if self.bins.block in context.region.blocks:
            raise NotReplaced(f"the bins {self.bins.name} are loaded again inside the loop")
        if self.kind not in _ATOMICS:
            raise NotReplaced(f"no atomic add for {self.kind} bins")
        if self.kind in ("float", "double") and not context.reassociate:
            raise NotReplaced("floating-point bins would be added in another order")
        # SpMV_COO: the increment gathers x[col[k]], a read at an index that is data.
        self.gather = _Gather(solution, context.region) if instance.idiom == "SpMV_COO" else None
        assert store.block is not None
        self.tests = _tests_before(context.region, store.block)
        self.conditions = check_legal(
            context.region,
            stores=[store],
            results=[],
            loops=[self.loop],
            conditional=[branch for branch, _ in self.tests],
            fixed_loads=True,
        )

    def _moved(self, address: Value) -> tuple[int, Value | None]:
        """How `address` moves bins[index]: by a constant number of bytes, or by a
        64-bit value of the loop counted in bins."""
        if address.byte_offset is not None:
            if address.byte_offset % element_size(self.kind):
                raise NotReplaced("the bin address moves bins[index] by a part of a bin")
            return address.byte_offset, None
        offset = address.operands[1]
        if len(address.operands) != 2 or not self._over_bins(address) or offset.type != "i64":
            raise NotReplaced("the bin address moves bins[index] other than by bins")
        if self.index_value.type != "i64":
            raise NotReplaced("the bin's two parts are not both 64 bits")
        return 0, offset

    def _over_bins(self, address: Value) -> bool:
        """Whether the getelementptr `address` counts in bins (its element is theirs)."""
        return f" {self.kind}, ptr " in f" {address.text} "

    def guard(self, builder: Builder) -> Operand:
        region = self.context.region
        checks = [guard_conditions(builder, region, self.conditions, fixed_loads=True)]
        counted = trip_count(builder, self.loop)
        self.count = counted.count
        require_worth_it(builder, self.context.module, counted.count)
        main = _Translated(
            KernelBody(builder, region, [self.loop], [counted.count]), self.old, self.tests
        )
        self.main = main
        if self.gather is not None:
            self.gather.translate(main.body)
        self.index = main.body.value(self.index_value)
        if self.offset_value is not None:  # wraps as the address's own arithmetic does
            offset = main.body.value(self.offset_value)
            self.index = f"((long)((ulong)({self.index}) + (ulong)({offset})))"
        self.inc = main.body.value(self.increment)
        if _NEVER_READ in "\n".join(main.body.lines):
            raise NotReplaced("the bin index, increment or condition depends on the bins")
        main.body.close_groups()
        self.params, whole = main.body.read_params()
        checks += [counted.exact, whole]
        # Reads under a test: the tests alone, run first, say which iterations to copy for.
        self.active: _Translated | None = None
        self.active_params: list[tuple[str, Operand]] = []
        if self._late_reads(main.body):
            active = _Translated(
                KernelBody(builder, region, [self.loop], [counted.count]), self.old, self.tests
            )
            late = self._late_reads(active.body)
            if late:
                raise NotReplaced(
                    f"a test depends on {late[0].name}, read only under another test"
                    f" ({_where(late[0])})"
                )
            active.body.close_groups()
            self.active_params, whole = active.body.read_params()
            checks.append(whole)
            self.active = active
        self.functional: _Generated | None = None
        if generated_kernels():
            self.functional = self._generated(main.body)
        return builder.all_of(checks)

    def _generated(self, body: KernelBody) -> _Generated | None:
        """The generated kernels of this histogram, or None where the functional IR
        cannot say it or the Lift compiler declines (the translated kernels run)."""
        gathered = None
        if self.gather is not None:
            gathered = GatheredRead(self.gather.read, self.gather.column, self.gather.moved)
        expression = histogram_expression(
            body, self.index_value, self.increment, LOCAL, gathered=gathered, tests=self.tests,
            offset=self.offset_value,
        )  # fmt: skip
        if expression is None:
            return None
        arguments = arguments_by_name(body)
        if expression.counted:  # its value, where the grid starts, given at the call
            arguments[COUNTER_START] = KernelArg(f"long {COUNTER_START}", SCALAR)
        kernels = tree_kernels(expression.bin_range, arguments)
        if kernels is None:
            return None
        declarations = {n: arguments[n].declaration for n in arguments}
        declarations["X"] = buffer_declaration("X", const_data=True)  # a gathered x's slice
        try:
            add = [
                generate(
                    program, "idiom_histogram", expression.output, declarations, packed_sizes=True
                )
                for program in (expression.add, expression.add_local)
            ]
        except (LiftError, RecursionError):
            return None
        types = [self.index_value.type] * 2
        self.target += " (generated)"
        self.generated = GeneratedKernel(
            pretty(expression.algorithmic),
            (
                "bin range: tree-reduce of the smallest and largest bin",
                "lower-scatter: (scatter + nb bins ...) -> (scatter-atomic 0 +)",
                f"private-bins({LOCAL_BINS}): each work-group's bins in local memory first, "
                f"where there are at most {LOCAL_BINS}",
            ),
            pretty(expression.bin_range.partials) + "\n" + pretty(expression.add_local),
            kernels[0].source + kernels[2].source + add[1].source + add[0].source,
        )
        return _Generated(expression, Tree(kernels, expression.bin_range, arguments, types),
                          (add[0], add[1]), self._active_tree())  # fmt: skip

    def _active_tree(self) -> Tree | None:
        """The generated kernels finding the active iterations (None where there are no
        reads under a test, or where the functional IR cannot say the tests): the
        smallest and largest iteration number (from 0) at which every test holds."""
        if self.active is None:
            return None
        iterator, largest = self.loop.iterator, 2**63 - 1
        lanes = [Lane(iterator, "min", largest, iteration=True),
                 Lane(iterator, "max", -largest - 1, iteration=True)]  # fmt: skip
        body = self.active.body
        expression = reduction_expression(body, lanes, LOCAL, self.tests)
        if expression is None:
            return None
        arguments = arguments_by_name(body)
        kernels = tree_kernels(expression, arguments)
        if kernels is None:
            return None
        return Tree(kernels, expression, arguments, ["i64", "i64"])

    def _late_reads(self, body: KernelBody) -> list[Value]:
        """The reads of `body` that the loop makes only at some iterations (under a test)."""
        region = self.context.region
        dominators = region.function.dominators
        return [
            value
            for value in body.names
            if value.opcode == "load"
            and value is not self.old
            and value.block in region.blocks
            and not dominators.block_dominates(value.block, region.latch)
        ]

    def _active_source(self, args: list[KernelArg]) -> str:
        assert self.active is not None
        iterations = self.active.loop(["low = min(low, t0); high = max(high, t0);"])
        return _range_source("idiom_active", args, self.active_params, iterations)

    def _source(self, args: list[KernelArg]) -> str:
        kind = c_type(self.kind)
        extensions = INT64_ATOMICS if self.kind in ("i64", "double") else ""
        extensions += NARROW_ATOMICS if self.kind in ("i8", "i16") else ""
        declarations = ", ".join(["long n0", "long t_first", *(a.declaration for a in args)])
        prelude = "\n".join("  " + line for line in param_prelude(self.params))
        find_range = self.main.loop(
            [f"const long k = (long){self.index};", "low = min(low, k); high = max(high, k);"]
        )
        count = self.main.loop(
            [
                f"const {kind} inc = {self.inc};",
                f"__global {kind}* cell = bins + ((long){self.index} - first_bin);",
                _ATOMICS[self.kind],
            ]
        )
        return f"""{PRELUDE}{extensions}
__kernel void idiom_bin_range({declarations}, __global int* range) {{
{prelude}
  long low = LONG_MAX, high = LONG_MIN;
{find_range}
{PUBLISH_RANGE}
}}

__kernel void idiom_histogram({declarations}, __global {kind}* bins, long first_bin) {{
{prelude}
{count}
}}
"""

    def call(self, builder: Builder) -> Operand:
        module = self.context.module
        saved = stack_saved(builder, module)
        body = self.main.body
        groups = list(body.groups.values())
        buffers = body.buffer_args()
        if self.active is None:
            every = _Iterations(const(I64, 0), self.count, tuple(buffers), tuple(self.params))
            ranges = [(g.low, g.high) for g in groups]
            status = self._count(builder, every, ranges=ranges)
            builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
            return status
        first, last, found = self._find_active(builder)
        go = builder.all_of([found, builder.compare("sle", first, last)])

        def restricted() -> Operand:
            """The kernels over the iterations first .. last, each read copied for them."""
            t_first, t_last = builder.to_i64(first), builder.to_i64(last)
            ranges = [_span(builder, g.accesses, t_first, t_last) for g in groups]
            low_of = {id(a): r[0] for g, r in zip(groups, ranges, strict=True) for a in g.accesses}
            offsets = {
                f"{index}_o": builder.binary(
                    "sdiv",
                    builder.binary("sub", builder.to_i64(access.first), low_of[id(access)]),
                    const(I64, access.element_size),
                )
                for index, access in body.reads
            }
            params = [(name, offsets.get(name, value)) for name, value in self.params]
            copies = [
                replace(arg, value=low, bytes=builder.binary("sub", high, low))
                for arg, (low, high) in zip(buffers, ranges, strict=True)
            ]
            end = builder.binary("add", t_last, const(I64, 1))
            iterations = _Iterations(t_first, end, tuple(copies), tuple(params))
            return self._count(builder, iterations, ranges=ranges)

        status = status_when(builder, go, restricted)
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        return status

    def _count(
        self,
        builder: Builder,
        iterations: _Iterations,
        *,
        ranges: Sequence[tuple[Operand | None, Operand | None]],
    ) -> Operand:
        """The two kernels over `iterations`, with their copies of the reads (`ranges`,
        their byte ranges): the range of bins, checked against the reads, then the atomic
        adds. Returns the status (1 when the check fails)."""
        packed = pack_params(builder, iterations.params)
        args = [*self.main.body.scalar_args(), *iterations.buffers, packed]
        if self.gather is None:
            return self._bins(builder, iterations, args=args, ranges=ranges)
        gather = self.gather
        bounds = [_scalar(iterations.end), _scalar(iterations.first)]
        found = gather.find_range(builder, self, args=[*bounds, *args])
        x_first, x_count, x_bad = read_range(builder, found.cells, inclusive=True)
        ok = succeeded(builder, found.status, x_bad)
        x = slice_of(builder, "X", gather.x, gather.read.type, first=x_first, count=x_count)
        assert x.group.low is not None and x.group.high is not None
        ranges = [*ranges, (x.group.low, x.group.high)]
        return status_when(builder, ok, lambda: self._bins(builder, iterations,
                                                       args=[*args, *x.args], ranges=ranges,
                                                       x=(x, x_count)))  # fmt: skip

    def _bins(
        self,
        builder: Builder,
        iterations: _Iterations,
        *,
        args: list[KernelArg],
        ranges: Sequence[tuple[Operand | None, Operand | None]],
        x: tuple[Slice, Operand] | None = None,
    ) -> Operand:
        if self.functional is not None:
            return self._bins_generated(builder, self.functional, iterations, ranges, x)
        module = self.context.module
        source = self._source(args)
        common = [_scalar(iterations.end), _scalar(iterations.first), *args]
        cells = range_cells(builder)
        first = launch(builder, module, source=source, kernel="idiom_bin_range",
                       global_size=[const(I64, _GRID)], local_size=None,
                       work=as_check(builder, self.count),
                       args=[*common, KernelArg("", 2, cells, const(I64, 12))])  # fmt: skip
        low, high, overflow = read_cells(builder, cells)
        checks = [
            builder.compare("eq", first, const("i32", 0)),
            builder.compare("eq", overflow, const("i32", 0)),
        ]
        bins = self._bins_checked(builder, low, high, ranges, checks)

        def add() -> Operand:
            return launch(builder, module, source=source, kernel="idiom_histogram",
                          global_size=[const(I64, _GRID)], local_size=None, work=self.count,
                          args=[*common, bins.arg, _scalar(bins.low)])  # fmt: skip

        return status_when(builder, bins.go, add)

    def _find_active(self, builder: Builder) -> tuple[Operand, Operand, Operand]:
        """The first and last iteration (i64, counted from 0) at which every test holds,
        and whether they were found (i1; first > last where no iteration passes)."""
        assert self.active is not None
        module = self.context.module
        active = self.active.body
        generated = self.functional.active if self.functional is not None else None
        if generated is not None:
            values = dict(self.active_params) | group_lengths(builder, active)
            status, (first, last) = launch_tree(builder, module, generated, values=values,
                                                count=self.count)  # fmt: skip
            return first, last, builder.compare("eq", status, const("i32", 0))
        active_packed = pack_params(builder, self.active_params)
        active_args = [*active.scalar_args(), *active.buffer_args(), active_packed]
        cells = range_cells(builder)
        found = launch(builder, module, source=self._active_source(active_args),
                       kernel="idiom_active", global_size=[const(I64, _GRID)], local_size=None,
                       work=as_check(builder, self.count),
                       args=[_scalar(self.count), _scalar(const(I64, 0)), *active_args,
                             KernelArg("", 2, cells, const(I64, 12))])  # fmt: skip
        first, last, overflow = read_cells(builder, cells)
        ok = builder.all_of([builder.compare("eq", found, const("i32", 0)),
                             builder.compare("eq", overflow, const("i32", 0))])  # fmt: skip
        return first, last, ok

    def _counter_at(self, builder: Builder, iteration: Operand) -> Operand:
        """The loop counter's value (i64) at `iteration` (counted from 0): where the
        generated kernels' grid starts."""
        loop = self.loop
        begin = builder.to_i64(builder.ref(loop.iter_begin))
        moved = builder.binary("mul", iteration, const(I64, loop.step))
        return builder.binary("add", begin, moved)

    def _bins_generated(
        self,
        builder: Builder,
        generated: _Generated,
        iterations: _Iterations,
        ranges: Sequence[tuple[Operand | None, Operand | None]],
        x: tuple[Slice, Operand] | None,
    ) -> Operand:
        """The generated kernels over `iterations`: the bins' range by a tree reduction,
        then the atomic adds into the checked range's copy (reading `x`'s slice, and its
        length, where the increments gather from it). Their grid's point 0 is iteration
        `first`: each read's view starts there."""
        module = self.context.module
        body = self.main.body
        count = builder.binary("sub", iterations.end, iterations.first)
        values = dict(iterations.params)
        for index, _ in body.reads:
            if f"{index}_s0" in values:
                moved = builder.binary("mul", iterations.first, values[f"{index}_s0"])
                values[f"{index}_o"] = builder.binary("add", values[f"{index}_o"], moved)
        copies = list(zip(body.groups.values(), iterations.buffers, strict=True))
        for group, copy in copies:
            assert copy.bytes is not None
            size = const(I64, element_size(group.element))
            values[f"{group.name}_len"] = builder.binary("sdiv", copy.bytes, size)
        by_name = {group.name: copy for group, copy in copies}
        if generated.expression.counted:
            by_name[COUNTER_START] = _scalar(self._counter_at(builder, iterations.first))
        tree = replace(generated.tree, arguments=generated.tree.arguments | by_name)
        found, (low, high) = launch_tree(builder, module, tree, values=values, count=count)
        checks = [builder.compare("eq", found, const("i32", 0))]
        bins = self._bins_checked(builder, low, high, ranges, checks)
        add, add_local = generated.add
        values |= {"n0": count, "nb": bins.count}
        arguments = tree.arguments | {BINS: bins.arg, FIRST_BIN: _scalar(bins.low)}
        if x is not None:
            arguments |= x[0].by_name
            values["X_len"] = x[1]
        args = [arguments[p.name] for p in generated.expression.add.params]
        args += size_args(add, values)
        # Few bins: each work-group's in local memory first (the kernel's limit).
        few = builder.compare("sle", bins.count, const(I64, LOCAL_BINS))
        # The grid that fills a GPU, but for floating-point bins kept in local memory: their
        # adds are compare-and-swap loops, and every work-group's flush of its local bins
        # contends with the others' (`hist_weighted.c`'s 1,000 float bins took 4.4 ms on an
        # H200's filled grid, 977 groups, 171 us on the grid asked, 64). Their global adds
        # gain (`hist_coo_spmv.c`'s 400,000 double bins, 188 to 85 us).
        fill: bool | Operand = True
        floating = self.kind in ("float", "double")
        if floating:
            fill = builder.binary("xor", few, const("i1", "true"))

        # Integer adds (native atomics) in work-groups of 1,024 where the grid fills a GPU:
        # 256 bins on an H200 at 92% of the copy bandwidth against 77% in groups of 256.
        # Floating-point adds (compare-and-swap loops) keep theirs: `hist_coo_spmv.c`'s
        # double bins took 101 us a call widened against 85 us.
        wide = not floating

        def atomics() -> Operand:
            return launch(builder, module, source=add, kernel=add.name,
                          global_size=[const(I64, _GRID)], local_size=[_GROUP],
                          work=count, args=args, fill=fill, wide=wide,
                          alternatives=[(few, add_local)])  # fmt: skip

        return status_when(builder, bins.go, atomics)

    def _bins_checked(
        self,
        builder: Builder,
        low: Operand,
        high: Operand,
        ranges: Sequence[tuple[Operand | None, Operand | None]],
        checks: list[Operand],
    ) -> _Bins:
        """The bins low .. high (inclusive) as a kernel argument, and the condition
        for adding into them: `checks`, a range that is not empty, apart from every
        read (`ranges`) and from every value the loop reads once."""
        size = const(I64, element_size(self.kind))
        low64, high64 = builder.to_i64(low), builder.to_i64(high)
        bins_start = builder.to_i64(self._bins_operand())
        if self.offset_bytes:
            bins_start = builder.binary("add", bins_start, const(I64, self.offset_bytes))
        range_low = builder.binary("add", bins_start, builder.binary("mul", low64, size))
        range_high = builder.binary(
            "add",
            bins_start,
            builder.binary("mul", builder.binary("add", high64, const(I64, 1)), size),
        )
        checks = [*checks, builder.compare("sle", low64, high64)]
        for read_low, read_high in ranges:
            assert read_low is not None and read_high is not None
            checks.append(apart(builder, (range_low, range_high), (read_low, read_high)))
        checks.append(apart_from_fixed(builder, self.context.region, (range_low, range_high)))
        arg = KernelArg("", 2, range_low, builder.binary("sub", range_high, range_low))
        count = builder.binary("add", builder.binary("sub", high64, low64), const(I64, 1))
        return _Bins(builder.all_of(checks), arg, low64, count)

    def _bins_operand(self) -> Operand:
        return operand(self.bins)


@dataclass(frozen=True)
class _Iterations:
    """The iterations first .. end - 1 a histogram's kernels run, the copies of its
    reads for them (buffer arguments, in the body's group order) and the reads' offsets
    and strides in those copies (offsets of iteration 0, as the translated kernels
    count)."""

    first: Operand
    end: Operand
    buffers: tuple[KernelArg, ...]
    params: tuple[tuple[str, Operand], ...]


@dataclass(frozen=True)
class _Generated:
    """A histogram's generated kernels: the bins' range (a tree reduction) and the
    atomic adds, into the global bins and through each work-group's bins in local
    memory."""

    expression: HistogramExpression
    tree: Tree
    add: tuple[Kernel, Kernel]
    # Where the loop reads under its tests: the smallest and largest iteration number at
    # which every test holds, a tree reduction over every iteration (None: the translated
    # `idiom_active` finds them).
    active: Tree | None = None


@dataclass(frozen=True)
class _Bins:
    """The checked range of bins: `go` where the adds may run into `arg`, the copy of
    bins `low` .. `low + count - 1`."""

    go: Operand
    arg: KernelArg
    low: Operand
    count: Operand


@dataclass(frozen=True)
class _Launched:
    status: Operand  # i32
    cells: Operand  # the range a kernel published


class _Gather:
    """The read of x at a column read in the loop (SpMV_COO: y[row[k]] += val[k] *
    x[col[k]]): a kernel over the iterations finds the range of columns first, and the
    kernels read that slice of x, `X[column - xlo]`."""

    def __init__(self, solution: Mapping[str, Value | None], region: Region) -> None:
        self.read, self.column, self.x = (
            need(solution, name) for name in ("gathered.value", "column", "x")
        )
        self.moved = displaced_read(self.read, "the read of x")
        check_fixed(self.x, region)

    def translate(self, body: KernelBody) -> None:
        """Name the read in `body` before the increment is translated; the lines up to
        the column (`self.upto`) are what the range-finding kernel runs."""
        if self.x in body.builder.refused:  # x a field the loop reads under a test only
            raise NotReplaced(body.builder.refused[self.x])
        column = body.value(self.column)
        self.expression = moved_index(column, self.moved)
        self.upto = len(body.lines)
        body.names[self.read] = f"X[{self.expression} - xlo]"

    def find_range(
        self, builder: Builder, plan: _HistogramPlan, *, args: list[KernelArg]
    ) -> _Launched:
        cells = range_cells(builder)
        update = [f"const long c = {self.expression};", "low = min(low, c); high = max(high, c);"]
        iterations = plan.main.loop(update, self.upto)
        source = _range_source("idiom_gather_range", args[2:], plan.params, iterations)
        status = launch(builder, plan.context.module, source=source, kernel="idiom_gather_range",
                        global_size=[const(I64, _GRID)], local_size=None,
                        work=as_check(builder, plan.count),
                        args=[*args, KernelArg("", 2, cells, const(I64, 12))])  # fmt: skip
        return _Launched(status, cells)


def _range_source(
    kernel: str, args: Sequence[KernelArg], params: Sequence[tuple[str, Operand]], loop: str
) -> str:
    """A kernel over iterations t_first .. n0 - 1 (`loop`, which widens low and high)
    publishing the range [low, high] it finds into its last argument, `range`."""
    declarations = ", ".join(["long n0", "long t_first", *(a.declaration for a in args)])
    prelude = "\n".join("  " + line for line in param_prelude(params))
    return f"""{PRELUDE}
__kernel void {kernel}({declarations}, __global int* range) {{
{prelude}
  long low = LONG_MAX, high = LONG_MIN;
{loop}
{PUBLISH_RANGE}
}}
"""


def _scalar(value: Operand) -> KernelArg:
    """An i64 passed by value."""
    return KernelArg("", SCALAR, value, const(I64, 8))


def _span(
    builder: Builder, accesses: Sequence[Access], t_first: Operand, t_last: Operand
) -> tuple[Operand, Operand]:
    """The byte range [low, high) the accesses of a group cover over iterations t_first ..
    t_last of the (single) loop."""
    low: Operand | None = None
    high: Operand | None = None
    for access in accesses:
        stride = access.strides[0]
        start = builder.binary(
            "add", builder.to_i64(access.first), builder.binary("mul", t_first, stride)
        )
        span = builder.binary("mul", builder.binary("sub", t_last, t_first), stride)
        negative = builder.compare("slt", span, const(I64, 0))
        a_low = builder.binary("add", start, builder.select(negative, span, const(I64, 0)))
        a_high = builder.binary(
            "add",
            builder.binary("add", start, const(I64, access.element_size)),
            builder.select(negative, const(I64, 0), span),
        )
        if low is None or high is None:
            low, high = a_low, a_high
            continue
        low = builder.select(builder.compare("slt", a_low, low), a_low, low)
        high = builder.select(builder.compare("sgt", a_high, high), a_high, high)
    assert low is not None and high is not None
    return low, high


def _tests_before(region: Region, block: Block) -> list[tuple[Value, bool]]:
    """The branches that decide whether an iteration reaches `block`, outermost first,
    each with the value its condition must have. Walking up the dominator tree from
    `block`: a dominator that `block` post-dominates reaches it on every path; otherwise
    `block` must have one predecessor, a conditional branch, and is reached exactly when
    that branch goes its way. Paths that merge before `block` (`if (a) ... else ...`
    then the update) are not followed."""
    function = region.function
    tests: list[tuple[Value, bool]] = []
    while block is not region.header:
        above = function.dominators.idom.get(block)
        if above is None or above not in region.blocks:
            raise NotReplaced("the update is not reached from the loop's header")
        if function.post_dominators.block_dominates(block, above):
            block = above
            continue
        branch = above.terminator
        if (
            block.predecessors != (above,)
            or branch.opcode != "br"
            or len(branch.operands) != 1
            or len(set(above.successors)) != 2
        ):
            raise NotReplaced(f"the update is reached by paths that merge ({_where(branch)})")
        tests.append((branch, above.successors[0] is block))
        block = above
    tests.reverse()
    return tests


def _where(value: Value) -> str:
    return f"line {value.location.line}" if value.location else value.name or "?"


def map_histogram(instance: Instance, context: MapperContext) -> Plan:
    return _HistogramPlan(instance, context)
