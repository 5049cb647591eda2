"""Stencils as OpenCL kernels: one work-item per point of the nest.

The kernel is the nest's own computation of {stored} (mappers/targets/kernels.py), its
neighbours read from one buffer per array, the result written at {out.address}. The
innermost loop is the NDRange's first dimension, so neighbouring work-items touch
neighbouring elements. The output range is copied in and out (the nest may not write
every element of it), and the guard requires it to be disjoint from everything read
(a boundary row rebuilt from the next rows of the same grid passes; a sweep that reads
what it writes keeps the original code) and the points written by any two iterations to
be apart (work-items run in any order: a loop that writes one element again and again
keeps the original code too). A read of the very element the point writes (an update,
a[i] = a[i] + ...: the same address value as the store's) reads the written buffer,
which holds the original values when the kernel starts; the points being apart, no
other work-item writes it.

A point may store several values into the array (the five components of a CFD grid's
record, the coefficients of a banded system's row): the work-item stores them, and
reads the elements they write, in the loop's order. The idiom proves that they write
apart from one another in every iteration; the guard checks that each store's points
are apart. A point whose stores sit under a test (a lattice-Boltzmann cell's obstacle
flag) keeps the original code (conditional code). A nest of four loops (the components
of a grid's records innermost) has its two innermost loops share the range's first
dimension.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from lift.errors import LiftError
from lift.exploration.space import lower
from lift.ir import expr as ir
from lift.ir.text import pretty
from lift.ir.types import Array, Scalar, Size, Type
from lift.opencl.generate import Kernel, Output
from lift.rewriting.rules import Contiguous, Stream, Vectorise, assumed_strides
from lift.rewriting.traverse import apply_everywhere
from mappers.plan.access import Access, apart_from_fixed
from mappers.plan.loops import LoopView, loop_view, trip_count
from mappers.plan.plan import GeneratedKernel, MapperContext, Plan
from mappers.plan.region import (
    Region,
    check_legal,
    flows_from,
    guard_conditions,
    source_place,
)
from mappers.plan.shifts import one_step_pairs
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.functional import StencilExpression, generated_kernels, stencil_expression
from mappers.targets.kernels import (
    BufferGroup,
    KernelArg,
    KernelBody,
    group_lengths,
    launch,
    long_and_int,
    pack_params,
    param_prelude,
    size_args,
    sizes_fit,
)
from mappers.targets.reduction import PRELUDE, require_worth_it, stack_saved
from matcher.detect import Instance
from matcher.ir import Function, Value
from matcher.solutions import slots
from matcher.summary import loop_source
from matcher.sweeps import in_place_reads

__all__ = ["map_map", "map_stencil"]


class _StencilPlan(Plan):
    target = "OpenCL stencil kernel"
    kernel_name = "idiom_stencil"

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        solution = instance.solution
        self.context = context
        function = context.region.function
        depth = sum(1 for level in range(4) if solution.get(f"loop[{level}].iterator"))
        self.loops: list[LoopView] = [
            loop_view(function, solution, f"loop[{level}].") for level in range(depth)
        ]
        stores = [v for v in slots(solution, "write", "store") if v is not None]
        if not stores:
            raise NotReplaced("the stencil match has no store")
        if len({store.operands[0].type for store in stores}) > 1:
            raise NotReplaced("the stores of a point are of different types")
        self.stores = _in_order(context.region.function, stores)
        _require_points_apart(self.loops, self.stores, context.region)
        # The array each store writes, as the match names it (a map may write several).
        array_of = dict(
            zip(slots(solution, "write", "store"), slots(solution, "write", "array"), strict=True)
        )
        self.arrays = [array_of[store] or store.operands[1] for store in self.stores]
        self.tests = [v for v in slots(solution, "test", "branch") if v is not None]
        if reads := in_place_reads(function, solution):
            where = reads[0].location
            raise NotReplaced(
                "an in-place sweep: the read at line "
                f"{where.line if where else '?'} may see values other points of the sweep "
                "write (Gauss-Seidel order), which no kernel here reproduces"
            )
        self.conditions = check_legal(
            context.region, stores=self.stores, results=[], loops=self.loops, fixed_loads=True
        )

    def guard(self, builder: Builder) -> Operand:
        region = self.context.region
        # Where no bound is read inside the region, the size test comes first: a call
        # too small for a launch (NAS BT's rows of 22 points, 700,000 of them a run) then
        # declines before the fixed values are loaded and reported to the runtime.
        sized_first = all(
            bound.block not in region.blocks
            for loop in self.loops
            for bound in (loop.iter_begin, loop.iter_end)
        )
        checks = [] if sized_first else [self._fixed(builder)]
        self._count_points(builder, checks)
        if sized_first:
            checks.append(self._fixed(builder))
        body = KernelBody(
            builder, self.context.region, self.loops, self.counts, shared_strides=True
        )
        self.body = body
        element = self.stores[0].operands[0].type
        out_groups: list[BufferGroup] = []
        out_indices: dict[Value, str] = {}
        group_of: dict[Value, BufferGroup] = {}  # the written buffer of each address stored
        stored_in: list[BufferGroup] = []  # each store's group
        for store, array in zip(self.stores, self.arrays, strict=True):
            out_group = body.group(array, element, written=True)
            stored_in.append(out_group)
            if out_group not in out_groups:
                out_groups.append(out_group)
            address = store.operands[1]
            if address not in body.own_points:
                group_of[address] = out_group  # with the index below: the first store's
                index = body.index(address, element, out_group)
                body.own_points[address] = f"{out_group.name}[{index}]"
                out_indices[address] = body.reads[-1][0]
        self._translate(body)
        self.functional: StencilExpression | None = None
        self.streamed: tuple[Kernel, Kernel] | None = None
        self.carrying: Operand | None = None  # i1: the streamed kernels' pairs hold
        self.vectorised: _Vectorised | None = None
        self.contiguous: Operand | None = None  # i1: the vectorised kernels' strides hold
        # The functional IR has no branches.
        if generated_kernels() and not self.tests:
            region = self.context.region
            blocks = [b for b in region.function.blocks if b in region.blocks]
            order = [i for b in blocks for i in b.instructions]
            self.functional = stencil_expression(body, self.stores, order, group_of, out_indices)
        checks += [
            _points_apart(builder, access, self.counts)
            for out_group in out_groups
            for access in out_group.accesses
        ]
        body.close_groups()
        self.params, whole = body.read_params()
        self.kernels = self._kernels() if self.functional is not None else None
        if self.kernels is None:
            self.functional = None  # the translated kernel
        else:
            self.target = f"{self.target} (generated)"
        checks.append(whole)
        for out_group in out_groups:  # apart from every other group, written or read
            written_by = [s for s, g in zip(self.stores, stored_in, strict=True) if g is out_group]
            checks += body.apart_from_reads(out_group, _read_first(body, written_by))
            assert out_group.low is not None and out_group.high is not None
            checks.append(apart_from_fixed(builder, region, (out_group.low, out_group.high)))
        return builder.all_of(checks)

    def _fixed(self, builder: Builder) -> Operand:
        return guard_conditions(builder, self.context.region, self.conditions, fixed_loads=True)

    def _count_points(self, builder: Builder, checks: list[Operand]) -> None:
        """The trip counts and the points of the nest; declines below the launch size."""
        self.counts: list[Operand] = []
        for loop in self.loops:
            counted = trip_count(builder, loop)
            self.counts.append(counted.count)
            checks.append(counted.exact)
        self.points = self.counts[0]
        for count in self.counts[1:]:
            self.points = builder.binary("mul", self.points, count)
        require_worth_it(builder, self.context.module, self.points)

    def _translate(self, body: KernelBody) -> None:
        """The point's stores, and its reads of the elements they write, in the loop's
        order: a read of a point's own element before its store sees the value the
        written buffer was copied in with, one after it the value stored (the stores of
        a point write apart from one another and from other points': the idiom and the
        guard)."""
        stores = set(self.stores)
        for block in self.context.region.function.blocks:
            if block not in self.context.region.blocks:
                continue
            for instruction in block.instructions:
                if instruction in stores:
                    value = body.value(instruction.operands[0])
                    body.lines.append(f"{body.own_points[instruction.operands[1]]} = {value};")
                elif instruction.opcode == "load" and instruction.operands[0] in body.own_points:
                    body.value(instruction)

    def _source(self, args: list[KernelArg]) -> str:
        depth = len(self.loops)
        params = [f"long n{d}" for d in range(depth)] + [a.declaration for a in args]
        if depth <= 3:
            ids = [f"  const long t{d} = get_global_id({depth - 1 - d});" for d in range(depth)]
        else:  # the two innermost loops share the range's first dimension
            ids = [
                "  const long t0 = get_global_id(2);",
                "  const long t1 = get_global_id(1);",
                "  const long t2 = get_global_id(0) / n3;",
                "  const long t3 = get_global_id(0) % n3;",
            ]
        bounds = " || ".join(f"t{d} >= n{d}" for d in range(depth))
        lines = [*param_prelude(self.params), *self.body.lines]
        body = "\n".join("  " + line for line in lines)
        return f"""{PRELUDE}
__kernel void {self.kernel_name}({", ".join(params)}) {{
{chr(10).join(ids)}
  if ({bounds}) return;
{body}
}}
"""

    def _generated(
        self, builder: Builder
    ) -> tuple[Kernel, list[KernelArg], list[tuple[Operand, str | Kernel]]]:
        """The kernel generated from the stencil's expression (lift), its arguments (the
        program's buffers and scalars, then its sizes: trip counts, offsets, strides),
        and the kernels launched instead where an i1 holds at run time, the later first:
        the same kernel computing with int indices where every size fits an int, the
        streamed kernels where their lanes carry (`Kernel.carries`)."""
        assert self.functional is not None and self.kernels is not None
        body = self.body
        kernel, narrow = self.kernels
        program = self.functional.program
        by_name = self._arguments_by_name()
        values = dict(self.params) | {f"n{d}": c for d, c in enumerate(self.counts)}
        values |= group_lengths(builder, body)
        args = [by_name[p.name] for p in program.params]
        args += size_args(kernel, values)
        fits = sizes_fit(builder, kernel, values)
        alternatives: list[tuple[Operand, str | Kernel]] = [(fits, narrow)]
        if self.streamed is not None:
            wide_streamed, narrow_streamed = self.streamed
            self.carrying = _carries_hold(builder, wide_streamed, values)
            alternatives.append((self.carrying, wide_streamed))
            both = builder.binary("and", self.carrying, fits)
            alternatives.append((both, narrow_streamed))
        if self.vectorised is not None:
            vectorised = self.vectorised
            self.contiguous = vectorised.holds(builder, values)
            alternatives.append((self.contiguous, vectorised.wide))
            both = builder.binary("and", self.contiguous, fits)
            alternatives.append((both, vectorised.narrow))
        return kernel, args, alternatives

    def _arguments_by_name(self) -> dict[str, KernelArg]:
        """The kernel argument of each buffer group and fixed scalar, by its name."""
        body = self.body
        by_name = {g.name: a for g, a in zip(body.groups.values(), body.buffer_args(), strict=True)}
        by_name |= {n: a for (n, _), a in zip(body.scalars, body.scalar_args(), strict=True)}
        return by_name

    def _kernels(self) -> tuple[Kernel, Kernel] | None:
        """The stencil's expression lowered and generated, with long and with int indices;
        None where the Lift compiler declines it (the translated kernel runs). A nest of
        three loops whose reads meet one another one outer iteration on also gets the
        kernels of its streamed form (`self.streamed`)."""
        assert self.functional is not None
        program = self.functional.program
        by_name = self._arguments_by_name()
        declarations = {p.name: by_name[p.name].declaration for p in program.params}
        output = self.functional.output
        try:
            lowered, rewrites = lower(program)
        except (LiftError, RecursionError):
            return None
        # The int kernel covered: the tuner coarsens only the outermost dimension. On the
        # H200 that was as fast or faster for every stencil measured; long kernels with
        # tests were 1.6 times as slow for a 27-point one (docs/lift.md).
        both = self._long_and_int(lowered, declarations, output, covered=True)
        if both is None:
            return None
        wide, narrow = both
        self.generated = GeneratedKernel(pretty(program), rewrites, pretty(lowered), wide.source)
        self.vectorised = self._vectorised_kernels(wide, declarations)
        found = self._streamed_kernels(lowered, declarations)
        self.streamed = None if found is None else found[:2]
        if found is not None:  # `idiom lift` shows them all, the streamed ones last
            streamed, narrow_streamed, program_streamed = found
            pairs = f"stream({len(streamed.carries)} pairs, where the guard finds them hold)"
            forms = ["through pointers"] if narrow_streamed.stream_pointers else []
            forms += ["keeping partial sums"] if narrow_streamed.partial_sums else []
            steps = (*rewrites, pairs) + ((f"int kernel: {', '.join(forms)}",) if forms else ())
            self.generated = GeneratedKernel(
                pretty(program),
                steps,
                f"{pretty(lowered)}\n{pretty(program_streamed)}",
                f"{wide.source}\n{streamed.source}\n{narrow_streamed.source}",
            )
        if self.vectorised is not None:  # `idiom lift` shows it last
            shown = self.generated
            self.generated = GeneratedKernel(
                shown.expression,
                (*shown.rewrites, self.vectorised.label),
                f"{shown.lowered}\n{pretty(self.vectorised.program)}",
                f"{shown.source}\n{self.vectorised.wide.source}",
            )
        return wide, narrow

    def _vectorised_kernels(
        self, plain: Kernel, declarations: dict[str, str]
    ) -> _Vectorised | None:
        """The kernels of a one-loop nest computing VECTOR_WIDTH neighbouring points at a
        time (vload, vstore), its strided views read as contiguous (`Contiguous`), with long
        and int indices, taking `plain`'s arguments; None where the rewrites do not apply,
        the Lift compiler declines or a condition is not a size variable."""
        assert self.functional is not None
        program, output = self.functional.program, self.functional.output
        lanes = output.lanes()  # where each of the point's results is written
        if len(self.loops) != 1 or any(len(strides) != 1 for _, _, strides in lanes):
            return None
        if not all(_of_floating_point(p.type) for p in program.params):
            return None  # OpenCL's integer vectors wrap, convert and compare otherwise
        # The results are written contiguously too: their strides are more to check.
        written = [strides[0] for _, _, strides in lanes]
        strides = tuple(dict.fromkeys((*assumed_strides(program.body), *written)))
        strides = tuple(s for s in strides if s != Size.of(1))
        one = (Size.of(1),)
        output = replace(output, strides=one, more_strides=tuple(one for _ in lanes[1:]))
        body = Vectorise(VECTOR_WIDTH).apply(apply_everywhere(program.body, Contiguous()))
        if body is None:
            return None
        try:
            lowered, _ = lower(ir.Lambda(program.params, body))
        except (LiftError, RecursionError):
            return None
        both = self._long_and_int(lowered, declarations, output, sizes=plain.sizes)
        if both is None:
            return None
        wide, narrow = both
        lengths = tuple(length for length, _ in wide.requirements)
        if wide.sizes != plain.sizes or not all(_is_variable(s) for s in (*strides, *lengths)):
            return None
        return _Vectorised(wide, narrow, lowered, strides, wide.requirements)

    def _streamed_kernels(
        self, lowered: ir.Lambda, declarations: dict[str, str]
    ) -> tuple[Kernel, Kernel, ir.Lambda] | None:
        """The kernels of `(map-stream ...)` over the outermost loop, with long and with int
        indices, and that program, where the address arithmetic proposes lanes that carry
        (mappers/plan/shifts.py); None otherwise."""
        assert self.functional is not None
        if len(self.loops) not in (3, 4) or not isinstance(lowered.body, ir.Apply):
            return None
        address_of = {index: load.operands[0] for load, (_, index) in self.body.read_of.items()}
        # Lanes without an address of their own (the point's own element, a counter)
        # pair with nothing.
        lanes = [k for k, index in enumerate(self.functional.reads) if index in address_of]
        addresses = [address_of[self.functional.reads[k]] for k in lanes]
        found = one_step_pairs(addresses, self.loops[0])
        pairs = tuple((lanes[k], lanes[j]) for k, j in found)
        rule = Stream(pairs)
        body = rule.apply(lowered.body)
        if body is None:
            return None
        streamed = ir.Lambda(lowered.params, body)
        # On the H200 the 27-point stencil's int kernel ran in 95-102 rather than 116-121 us
        # so (runs of 8 to 96 planes), the 7-point one at its speed (docs/lift.md); a long
        # one with loops is slower through pointers, so only the int kernel reads through them.
        both = self._long_and_int(
            streamed, declarations, self.functional.output, covered=True, int_streamed=True
        )
        return None if both is None else (*both, streamed)

    def _long_and_int(
        self,
        lowered: ir.Lambda,
        declarations: dict[str, str],
        output: Output,
        *,
        covered: bool = False,
        sizes: Sequence[str] = (),
        int_streamed: bool = False,
    ) -> tuple[Kernel, Kernel] | None:
        """`lowered`'s kernels with long and with int indices (`long_and_int`, launched in
        any work-group size); None where the Lift compiler declines it."""
        try:
            return long_and_int(
                lowered,
                self.kernel_name,
                work_group=None,
                declarations=declarations,
                output=output,
                covered=covered,
                sizes=sizes,
                int_streamed=int_streamed,
            )
        except (LiftError, RecursionError):
            return None

    def call(self, builder: Builder) -> Operand:
        saved = stack_saved(builder, self.context.module)
        if self.functional is not None:
            source, kernel_args, alternatives = self._generated(builder)
            status = self._launch(builder, source, kernel_args, alternatives, any_range=True)
            builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
            return status
        packed = pack_params(builder, self.params)
        args = [*self.body.scalar_args(), *self.body.buffer_args(), packed]
        sizes = [KernelArg("", 3, count, const(I64, 8)) for count in self.counts]
        status = self._launch(builder, self._source(args), [*sizes, *args])
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        return status

    def _launch(
        self,
        builder: Builder,
        source: str | Kernel,
        args: list[KernelArg],
        alternatives: Sequence[tuple[Operand, str | Kernel]] = (),
        *,
        any_range: bool = False,
    ) -> Operand:
        dimensions = list(self.counts)
        if len(dimensions) == 4:  # the two innermost loops share the first dimension
            dimensions[2:] = [builder.binary("mul", dimensions[2], dimensions[3])]
        if self.carrying is not None:
            # A streamed kernel's work-items each take a run of STREAM_RUN outer elements.
            runs = _round_up(builder, dimensions[0], STREAM_RUN)
            runs = builder.binary("sdiv", runs, const(I64, STREAM_RUN))
            dimensions[0] = builder.select(self.carrying, runs, dimensions[0])
        if self.contiguous is not None:  # a vectorised kernel's work-item takes a vector
            vectors = builder.binary("sdiv", dimensions[0], const(I64, VECTOR_WIDTH))
            dimensions[0] = builder.select(self.contiguous, vectors, dimensions[0])
        local = _LOCAL_SIZES[len(dimensions)]
        rounded = [
            _round_up(builder, count, size)
            for count, size in zip(reversed(dimensions), local, strict=True)
        ]
        return launch(
            builder,
            self.context.module,
            source=source,
            kernel=self.kernel_name,
            global_size=rounded,
            local_size=local,
            work=self.points,
            args=args,
            alternatives=alternatives,
            any_range=any_range,
        )


# Work-group shapes, innermost dimension first, the global size rounded up to them. On an
# H100 the shape changed kernel times by a few percent only (docs/acceleration.md), but a
# size left to the driver must divide the global size: a prime one would leave one
# work-item per group.
_LOCAL_SIZES = {1: (256,), 2: (32, 8), 3: (32, 8, 1)}
# The outer elements a streamed kernel's work-item takes by default; the runtime tunes
# the launch (each candidate takes a multiple of them, idiom_tune.c).
STREAM_RUN = 4


def _carries_hold(builder: Builder, kernel: Kernel, values: Mapping[str, Operand]) -> Operand:
    """i1: offset + stride == next offset for each pair the streamed kernel carries."""
    holds = []
    for condition in kernel.carries:
        moved = builder.binary(
            "add", _size_value(builder, condition.offset, values),
            _size_value(builder, condition.stride, values),
        )  # fmt: skip
        next_offset = _size_value(builder, condition.next_offset, values)
        holds.append(builder.compare("eq", moved, next_offset))
    return builder.all_of(holds)


@dataclass(frozen=True)
class _Vectorised:
    """A one-loop nest's kernels computing VECTOR_WIDTH points at a time, and what they
    assume: each of `strides` is 1 and each length of `requirements` a multiple of its
    number (the vectors cover the points exactly)."""

    wide: Kernel
    narrow: Kernel
    program: ir.Lambda
    strides: tuple[Size, ...]
    requirements: tuple[tuple[Size, int], ...]

    @property
    def label(self) -> str:
        return (
            f"vectorise({VECTOR_WIDTH}), where the guard finds every stride 1 and the "
            f"count a multiple of {VECTOR_WIDTH}"
        )

    def holds(self, builder: Builder, values: Mapping[str, Operand]) -> Operand:
        """i1: the vectorised kernels compute what the plain one does."""
        one = const(I64, 1)
        checks = [builder.compare("eq", _size_value(builder, s, values), one) for s in self.strides]
        for length, multiple in self.requirements:
            count = _size_value(builder, length, values)
            left = builder.binary("srem", count, const(I64, multiple))
            checks.append(builder.compare("eq", left, const(I64, 0)))
        return builder.all_of(checks)


# Points a vectorised kernel's work-item computes together (vload2, vstore2): on the H200
# a copy ran at 4,107 GB/s vectorised by 2 against 3,927 GB/s at best without
# (docs/results/lift_kernels_covered_h200_2026-11-30.json).
VECTOR_WIDTH = 2


def _of_floating_point(kind: Type | None) -> bool:
    """A scalar parameter, or an array of f32 or f64 (what a vectorised kernel may load)."""
    if not isinstance(kind, Array):
        return True
    element = kind.element
    while isinstance(element, Array):
        element = element.element
    return isinstance(element, Scalar) and element.name in ("f32", "f64")


def _is_variable(size: Size) -> bool:
    names = sorted(size.variables)
    return len(names) == 1 and size == Size.of(names[0])


def _size_value(builder: Builder, size: Size, values: Mapping[str, Operand]) -> Operand:
    """A size variable's value (the sizes a stencil's views are offset and strided by are
    single variables)."""
    names = sorted(size.variables)
    if len(names) != 1 or size != Size.of(names[0]):
        raise NotReplaced(f"a streamed kernel's size {size} is not a variable")
    return values[names[0]]


def _read_first(body: KernelBody, stores: Sequence[Value]) -> list[BufferGroup]:
    """The groups read whose every load comes before each of `stores`, in one block."""
    block = stores[0].block if stores else None
    if block is None or any(store.block is not block for store in stores):
        return []
    position = {instruction: k for k, instruction in enumerate(block.instructions)}
    first_store = min(position[store] for store in stores)
    late = [
        g for load, (g, _) in body.read_of.items() if position.get(load, first_store) >= first_store
    ]
    return [g for g, _ in body.read_of.values() if not any(g is later for later in late)]


def _in_order(function: Function, values: list[Value]) -> list[Value]:
    """`values` in the order of the function's blocks and instructions."""
    wanted = set(values)
    return [
        instruction
        for block in function.blocks
        for instruction in block.instructions
        if instruction in wanted
    ]


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


class _MapPlan(_StencilPlan):
    """An element-wise map: a stencil of one point, maybe written into several arrays
    (each its own written buffer, apart from every other buffer: the guard)."""

    target = "OpenCL map kernel"
    kernel_name = "idiom_map"

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        super().__init__(instance, context)
        points = _constant_points(self.loops)
        if points is not None and points < _FEWEST_CONSTANT_POINTS:
            # The five components of a record inside a larger loop: a launch site there
            # costs its residency bookkeeping on every trip around it and never pays.
            raise NotReplaced(f"the nest has {points} points, a constant: too few for a kernel")
        if _slice_of_a_batch(context.region, self.stores):
            raise NotReplaced(
                "the nest is all a loop around it does, on other elements at each of its "
                "trips: a batch the idiom does not take whole, whose guard would run at "
                "every trip (an FFT's butterflies)"
            )


def _slice_of_a_batch(region: Region, stores: list[Value]) -> bool:
    """Whether the loop around the region does nothing but run it (no store, call or
    other loop of its own) and moves what it writes: its counter reaches a store's
    address. (A time loop around a map writes the same elements at every trip.)"""
    parent = region.loop.parent
    if parent is None or any(child is not region.loop for child in parent.children):
        return False
    own = [i for b in parent.blocks - region.blocks for i in b.instructions]
    if any(i.opcode in ("store", "call") for i in own):
        return False
    counters = [i for i in parent.header.instructions if i.opcode == "phi"]
    return any(
        flows_from(store.operands[1], counter, parent.blocks)
        for store in stores
        for counter in counters
    )


def _require_points_apart(loops: list[LoopView], stores: list[Value], region: Region) -> None:
    """Raise NotReplaced when a store's address moves with no counter of one of the
    nest's loops: every trip of that loop writes the same elements again (a scratch row
    indexed by the inner counter only), so the guard's test that the points are apart
    would decline every call. The loops inside such a nest are tried instead."""
    for loop in loops:
        header = loop.iterator.block
        assert header is not None
        counters = [i for i in header.instructions if i.opcode == "phi"]
        for store in stores:
            address = store.operands[1]
            if not any(flows_from(address, counter, region.blocks) for counter in counters):
                raise NotReplaced(
                    f"the store at {source_place(store)} writes the same elements at every trip of "
                    f"the loop at {_loop_line(region.function, loop.iterator)}: "
                    "the points are not apart"
                )


def _loop_line(function: Function, counter: Value) -> str:
    """Where a loop starts in the source, by its counter (a phi of its header)."""
    assert counter.block is not None
    first = loop_source(function, function.loops.innermost(counter.block)).first_line
    return f"line {first}" if first is not None else counter.name or "?"


# A map over a constant number of points fewer than this is left alone.
_FEWEST_CONSTANT_POINTS = 4096


def _constant_points(loops: list[LoopView]) -> int | None:
    """The number of points of a nest whose bounds are all constants, else None."""
    points = 1
    for loop in loops:
        begin, end = loop.iter_begin.constant, loop.iter_end.constant
        if not isinstance(begin, int) or not isinstance(end, int) or loop.step == 0:
            return None
        points *= max(0, -(-(end - begin) // loop.step))
    return points


def map_stencil(instance: Instance, context: MapperContext) -> Plan:
    return _StencilPlan(instance, context)


def map_map(instance: Instance, context: MapperContext) -> Plan:
    return _MapPlan(instance, context)
