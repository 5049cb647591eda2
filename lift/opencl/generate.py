"""OpenCL C from a lowered expression.

The program is a lambda whose parameters are the kernel's inputs: flat arrays become
`__global` buffers, scalars by-value arguments, and every size variable named in their
types (or in a `strided` view, or in the output) an argument of the index type (`long`,
or `int` where the caller checked that every size fits). Compute patterns become loops:
`map-global d` strides over `get_global_id(d)`, `map-workgroup d` over groups,
`map-local d` over a group's work-items, `map-seq` and `reduce-seq` are plain loops.
Every loop strides by its range's size, so that any NDRange computes every element
(fewer work-items each compute more); a kernel generated for a known work-group, or for
a launch that covers every dimension but the highest (`covered`), tests instead where
each item takes one element. Data-layout patterns are views
(lift/opencl/views.py). A compute pattern whose result is read by another is kept where
its `to-local` / `to-private` says, `__local` buffers declared at the kernel's top and
followed by a barrier once written.

The result goes to the output: a new buffer `out` written contiguously, or an existing
parameter written through a strided view (`Output.into`): a stencil's grid.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.check import infer, infer_function
from lift.ir.streams import CarryCondition, carry_conditions, conditions_hold, grid_views
from lift.ir.types import Array, Scalar, Size, Tuple, Type, Vector
from lift.opencl.in_place import staged_in_place
from lift.opencl.lookback import (
    AGGREGATE,
    COMMUTATIVE,
    PREFIX,
    WARP_DEVICE,
    WARP_HELPERS,
    StatusWords,
    status_words,
)
from lift.opencl.partial_sums import PartialSums, partial_sums
from lift.opencl.views import (
    Cell,
    Element,
    Lazy,
    Memory,
    TupleValue,
    VectorMemory,
    rejoined,
    text_of,
    unit_stride,
)

__all__ = [
    "DOUBLE_ATOMICS",
    "INT64_ATOMICS",
    "NARROW_ATOMICS",
    "Dimension",
    "Kernel",
    "Output",
    "generate",
    "requirements_hold",
]

_C_SCALARS = {
    "f32": "float", "f64": "double", "i8": "char", "i16": "short", "i32": "int", "i64": "long",
    "bool": "int",
}  # fmt: skip
# Places of a scatter's grid loop read before their adds, a grid apart: hand-written, a
# histogram of 2^25 keys into 256 local bins on an H200 in groups of 256 ran at 76.8% of
# the copy bandwidth with 4 against 53.5% with 1, read one by one
# (docs/results/histogram_variants_unroll_h200_2026-11-30.json).
_SCATTER_UNROLL = 4
_OWN = "lk_"  # the prefix of the names the generator makes up (loop counters, buffers)
_PACKED = f"{_OWN}sizes"  # the argument holding the sizes (`generate(packed_sizes=True)`)
_INFIX = {"+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "<": "<", "<=": "<=", ">": ">",
          ">=": ">=", "==": "==", "!=": "!=", "and": "&&", "or": "||", "&": "&", "|": "|",
          "^": "^"}  # fmt: skip
_CALLS = {"sqrt", "exp", "log", "sin", "cos", "pow", "floor", "ceil", "trunc", "tanh"}
_EXACT = {"floor", "ceil", "trunc"}  # exact in float: not computed in double
PRELUDE = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n"


_ZERO = Size.of(0)


@dataclass(frozen=True)
class Output:
    """Where the program's result goes: `name` is a new buffer, or, with `into`, a
    parameter of the program written at offset + i0*s0 + ... (its own elements may be
    read before they are written: a point updated in place)."""

    name: str = "out"
    into: bool = False
    offset: Size = _ZERO
    strides: tuple[Size, ...] = ()
    # With `into`, a result of tuples: lane 0 at `offset`, lane k at more_offsets[k-1] (the
    # several values a stencil's point stores, each at its own place in the grid).
    more_offsets: tuple[Size, ...] = ()
    # And the parameter lane k is written into, with its strides, where it is another
    # array (an element-wise map writing two vectors); by default `name` and `strides`.
    more_names: tuple[str, ...] = ()
    more_strides: tuple[tuple[Size, ...], ...] = ()
    # A one-dimensional result padded beyond the array it is written into: elements at
    # `length` and after are computed but not stored (a scan of whole chunks).
    length: Size | None = None

    def lanes(self) -> list[tuple[str, Size, tuple[Size, ...]]]:
        """Each lane's parameter, offset and strides, lane 0 first."""
        places = [(self.name, self.offset, self.strides)]
        for k, offset in enumerate(self.more_offsets):
            name = self.more_names[k] if k < len(self.more_names) else self.name
            strides = self.more_strides[k] if k < len(self.more_strides) else self.strides
            places.append((name, offset, strides))
        return places

    def written(self) -> set[str]:
        """The parameters the kernel writes into (none: it writes a new buffer)."""
        return {name for name, _, _ in self.lanes()} if self.into else set()


@dataclass(frozen=True)
class Dimension:
    """One NDRange dimension as the kernel's loops use it: `length` elements mapped by
    `map-global` (or `groups` work-groups of `map-workgroup`); `local` work-items per
    group where `map-local` runs."""

    length: Size | None = None
    groups: Size | None = None
    local: Size | None = None


@dataclass(frozen=True)
class Kernel:
    name: str
    source: str
    parameters: tuple[str, ...]  # the kernel's arguments in order: program params, out, sizes
    sizes: tuple[str, ...]  # the size variables, passed after the buffers in the index type
    dimensions: tuple[Dimension, ...]
    output: Output
    # (length, n): the kernel is exact only where n divides length (a split's chunks, a
    # vector's lanes); the caller checks them at run time.
    requirements: tuple[tuple[Size, int], ...] = ()
    # The type of indices and sizes in the kernel: `int` only where every size, offset and
    # index fits in 31 bits (the caller checks; cheaper arithmetic on a GPU).
    index: str = "long"
    # (size, most): the kernel is exact only where the size is at most that (the bins a
    # work-group keeps in local memory); the caller checks them at run time.
    limits: tuple[tuple[Size, int], ...] = ()
    # A map-stream's pairs: the kernel is exact only where offset + stride == next offset
    # for each (lift/ir/streams.py); the caller checks them at run time.
    carries: tuple[CarryCondition, ...] = ()
    # The kernel is exact only where the NDRange has an item for every element of each
    # dimension but the highest (`generate(covered=True)` with maps of several dimensions).
    covered: bool = False
    # Buffers the kernel keeps to itself, zeroed before each launch (IDIOM_ARG_SCRATCH),
    # passed after the output: (name, size in 64-bit words). A one-pass scan's status.
    scratch: tuple[tuple[str, Size], ...] = ()
    # A map-stream's run keeps its chain's partial sums (`generate(partial_sums=True)`).
    partial_sums: bool = False
    # A map-stream's run reads through advancing pointers (`generate(stream_pointers=True)`).
    stream_pointers: bool = False
    # The sizes are one struct argument, in `sizes`' order (`generate(packed_sizes=True)`).
    packed_sizes: bool = False
    # The source's text before the kernel's own declarations: pragmas and helper functions.
    prelude: str = ""
    # The source defines `<name>_covered` too, the program generated with `covers_highest`
    # (`mappers/targets/kernels.py` `with_covered_twin`; IDIOM_CL_COVERED_TWIN).
    covered_twin: bool = False


def generate(
    program: ir.Lambda,
    name: str = "lift_kernel",
    output: Output | None = None,
    declarations: Mapping[str, str] | None = None,
    index: str = "long",
    *,
    work_group: int | None = None,
    covered: bool = False,
    covers_highest: bool = False,
    sizes: Sequence[str] = (),
    partial_sums: bool = False,
    stream_pointers: bool = False,
    packed_sizes: bool = False,
) -> Kernel:
    """The OpenCL kernel computing `program` (every parameter typed, every map and
    reduce lowered). `declarations` replaces the kernel parameter text of named program
    parameters: a caller whose buffers live inside larger device buffers declares
    `__global char* g_mem, long g_at` and defines `g` itself before the source.

    With `work_group`, the caller launches work-groups of that many items, one group
    for each element of the `map-workgroup` (its `Dimension.groups`): the kernel
    requires that size (`reqd_work_group_size`), a `map-workgroup` takes its element
    from the group's id, and a `map-local` of a known length of at most that size
    takes its element from the item's id, without a loop (a GPU's compiler then keeps
    the work-group's steps apart from loop control).

    With `covered`, the caller's NDRange has an item for every element of each dimension
    but the highest (the outermost map-global or map-stream): a map-global inside another
    of a higher dimension takes its element from the item's id, a test and no loop. (On
    the H200 that ran a streamed 3D 7-point stencil 3% faster than loops striding by the
    range: docs/lift.md.)

    With `covers_highest`, the highest dimension too: every map-global takes its element
    from the item's id (the runtime launches such a kernel only where its NDRange covers
    every element: `mappers/targets/kernels.py` `with_covered_twin`).

    The kernel takes the named `sizes` too, read or not: launched in place of another
    kernel, with that kernel's arguments, it declares the same size parameters (they are
    sorted by name).

    With `partial_sums`, a map-stream whose carried lanes lead one chain of additions
    keeps the chain's partial sums rather than the lanes' values (lift/opencl/
    partial_sums.py; `Kernel.partial_sums` says whether it did). The same result; on the
    H200 faster in a hand-written 27-point stencil, slower as generated (docs/lift.md),
    so a search tries it and nothing else asks for it.

    With `stream_pointers`, a map-stream's run reads its lanes through a pointer to the
    point at the run's current element, advanced by the array's stride
    (`_through_pointers`; `Kernel.stream_pointers` says whether it did).

    With `packed_sizes`, the sizes are one argument, a struct holding them in `Kernel.sizes`'
    order (an array of the index type), which the kernel unpacks first: on the H200 a
    launch of 40 sizes apart took 8.2-11.9 us of host time to enqueue against 5.6 us packed
    (benchmarks/launch_primitives.c; docs/acceleration.md)."""
    if index not in ("long", "int"):
        raise LiftError(f"indices are long or int, not {index}")
    generator = _Generator(program, name, output or Output(), declarations or {})
    generator.index, generator.suffix = index, ("L" if index == "long" else "")
    generator.work_group = work_group
    generator.covered = covered or covers_highest
    generator.covers_highest = covers_highest
    generator.partial_sums = partial_sums
    generator.stream_pointers = stream_pointers
    generator.packed_sizes = packed_sizes
    generator.sizes |= set(sizes)
    try:
        return generator.kernel()
    except _NoPointers:
        return generate(program, name, output, declarations, index, work_group=work_group,
                        covered=covered, covers_highest=covers_highest, sizes=sizes,
                        partial_sums=partial_sums, packed_sizes=packed_sizes)  # fmt: skip


def requirements_hold(kernel: Kernel, sizes: Mapping[str, int]) -> bool:
    """The kernel computes every element for these sizes: each split divides its length,
    and each limited size (`Kernel.limits`) is within its limit."""
    values = dict(sizes)
    divides = all(length.evaluate(values) % n == 0 for length, n in kernel.requirements)
    within = all(size.evaluate(values) <= most for size, most in kernel.limits)
    return divides and within and conditions_hold(kernel.carries, values)


def _first_vector(kind: Type) -> Vector:
    """The first lane of a tuple of vectors (join-vec's element: type-checked before)."""
    assert isinstance(kind, Tuple) and isinstance(kind.elements[0], Vector)
    return kind.elements[0]


# A name or a number: what a let keeps as it is.
_SIMPLE = re.compile(r"[\w.]+")


def c_type(kind: Type) -> str:
    if isinstance(kind, Scalar):
        return _C_SCALARS[kind.name]
    if isinstance(kind, Vector):
        return f"{_C_SCALARS[kind.element.name]}{kind.width}"
    raise LiftError(f"no OpenCL scalar for {kind}")


def _scalar_of(kind: Type) -> Scalar:
    while isinstance(kind, Array):
        kind = kind.element
    if not isinstance(kind, Scalar):
        raise LiftError(f"a buffer of {kind}: only arrays of scalars are kept in memory")
    return kind


def _lengths(kind: Type) -> list[Size]:
    lengths = []
    while isinstance(kind, Array):
        lengths.append(kind.length)
        kind = kind.element
    return lengths


def _row_major(lengths: Sequence[Size], suffix: str) -> tuple[str, ...]:
    strides, running = [], Size.of(1)
    for length in reversed(lengths):
        strides.append(running.c_expression(suffix))
        running = running * length
    return tuple(reversed(strides))


def _literal(literal: ir.Literal) -> str:
    value, kind = literal.value, literal.type.name
    if kind == "bool":
        return "1" if value else "0"
    if kind in ("i8", "i16"):
        return f"(({_C_SCALARS[kind]}){int(value)})"
    if kind in ("i32", "i64"):
        whole, suffix = int(value), "L" if kind == "i64" else ""
        if whole == -(2 ** (31 if kind == "i32" else 63)):  # its negation does not fit
            return f"({whole + 1}{suffix} - 1)"
        return f"{whole}{suffix}"
    number = float(value)
    if math.isnan(number):
        return "NAN"
    if math.isinf(number):
        return "INFINITY" if number > 0 else "(-INFINITY)"
    text = repr(number)
    return f"{text}f" if kind == "f32" else text


_Env = dict[ir.Param, tuple[Element, Type]]


@dataclass
class _PlaceRead:
    """A store's place to read (`_Generator._read_first`): its name, its declaration, and
    where its element's code starts (a line's index, a depth)."""

    name: str
    declaration: str
    at: int
    depth: int


@dataclass
class _Dims:
    seen: dict[int, Dimension] = field(default_factory=dict)

    def note(self, dim: int, **sizes: Size) -> None:
        current = self.seen.get(dim, Dimension())
        merged = {
            "length": current.length,
            "groups": current.groups,
            "local": current.local,
        }
        for key, value in sizes.items():
            if merged[key] is not None and merged[key] != value:
                continue  # two maps on one dimension: the first's size shapes the NDRange
            merged[key] = value
        self.seen[dim] = Dimension(**merged)


class _Generator:
    def __init__(
        self, program: ir.Lambda, name: str, output: Output, declarations: Mapping[str, str]
    ) -> None:
        if any(p.type is None for p in program.params):
            raise LiftError("every parameter of a kernel's program has a declared type")
        self.program, self.name, self.output = program, name, output
        self.declarations = declarations
        self.index, self.suffix = "long", "L"
        self.lines: list[str] = []
        self.locals: list[str] = []
        # Local buffers by name: (C type, elements); those free again, in order freed; and
        # each to-local's buffer in order (how many times one was written).
        self.local_shapes: dict[str, tuple[str, int]] = {}
        self.free_locals: list[str] = []
        self.local_writes: list[str] = []
        # A to-local that writes into a buffer it reads, element for element: the
        # expression and the buffer (`scan_workgroups`, lift/opencl/in_place.py).
        self.in_place: tuple[ir.Apply, str] | None = None
        self.sequential = 0  # sequential loops open (reduce-seq, a stream's run)
        self.places: list[_PlaceRead] = []  # stores' places not yet read (`_read_first`)
        self.depth = 1
        self.counter = 0
        self.dims = _Dims()
        self.sizes: set[str] = set()
        self.requirements: list[tuple[Size, int]] = []
        self.warp_helpers = False  # a look-back by warps: their instructions (lookback.py)
        self.int64_atomics = False  # a scatter-atomic of 64-bit values: their extensions
        self.narrow_atomics = False  # a scatter-atomic of bytes or shorts: NARROW_ATOMICS
        self.double_atomics = False  # an atomic add of doubles in global memory: DOUBLE_ATOMICS
        # Zeroed device buffers the kernel takes after its output: (name, 64-bit words).
        self.scratch: list[tuple[str, Size]] = []
        self.limits: list[tuple[Size, int]] = []
        self.work_group: int | None = None  # the launch's work-group size, where known
        self.covered = False  # the launch covers every dimension but the highest
        self.covers_highest = False  # and the highest too
        self.partial_sums = False  # runs may keep partial sums (`generate`)
        self.stream_pointers = False  # runs read through advancing pointers (`generate`)
        self.packed_sizes = False  # the sizes are one struct argument (`generate`)
        # With them: the views of the run's lanes, read at element 0 (`stream_outer`), and
        # the steps of the pointers they are read through (`_through_pointers`).
        self.stream_views: tuple[ir.Apply, ...] | None = None
        self.stream_first = ""  # where the run being written starts
        self.stream_advances: list[str] = []
        self.stream_pointers_used = False
        self.kept_partial_sums = False  # a run did
        self.relies_on_cover = False  # a map-global took one element an item for it
        self.globals_open: list[int] = []  # the dimensions of the enclosing map-globals
        self.segments: set[str] = set()  # sizes the kernel computes: segments' lengths
        self.taken: set[str] = set()  # the program's parameters and size variables
        self.carries: list[CarryCondition] = []
        self.loops: list[bool] = []  # each enclosing map's: a loop (True) or a test
        # A map-stream whose loop goes inside its function's loops: (index, first, end,
        # pairs), until the point's function is reached.
        self.stream: tuple[str, str, str, tuple[tuple[int, int], ...]] | None = None
        # Inside a map-lanes: (the item's lane, the lanes an element, its dimension).
        self.lane: tuple[str, int, int] | None = None

    # ------------------------------------------------------------ the kernel

    def kernel(self) -> Kernel:
        taken = {p.name for p in self.program.params} | _size_variables(self.program)
        self.taken = taken
        output = self.output.name if not self.output.into else None
        clash = sorted(n for n in taken if n.startswith(_OWN) or n == output)
        if clash:
            raise LiftError(
                f"the name {clash[0]} is the kernel's own (its output, or one starting with {_OWN})"
            )
        env: _Env = {}
        arguments = []
        result_type = infer_function(self.program, [p.type for p in self.program.params if p.type])
        for param in self.program.params:
            kind = param.type
            assert kind is not None
            self.sizes |= _size_names(kind)
            if isinstance(kind, Array):
                scalar = c_type(_scalar_of(kind))
                written = param.name in self.output.written()
                qualifier = "" if written else "const "
                arguments.append(
                    self.declarations.get(
                        param.name, f"__global {qualifier}{scalar}* restrict {param.name}"
                    )
                )
                memory = Memory(param.name, "0", _row_major(_lengths(kind), self.suffix))
                env[param] = (memory, kind)
            else:
                arguments.append(f"{c_type(kind)} {param.name}")
                env[param] = (param.name, kind)
        sink = self._output_sink(result_type, arguments)
        self.emit(self.program.body, env, sink)
        arguments += [f"__global volatile ulong* {name}" for name, _ in self.scratch]
        sizes = sorted(self.sizes - self.segments)
        # Passed in the index type: the caller checked that they fit an int. (On the H200,
        # int parameters ran a 3D 7-point stencil 6% faster than longs narrowed inside.)
        packed = self.packed_sizes and bool(sizes)
        unpacked = [f"  const {self.index} {n} = {_PACKED}.v[{k}];" for k, n in enumerate(sizes)]
        if packed:
            arguments.append(f"{self.name}_sizes {_PACKED}")
        else:
            arguments += [f"{self.index} {size}" for size in sizes]
        body = "\n".join((unpacked if packed else []) + self.locals + self.lines)
        prelude = PRELUDE + (INT64_ATOMICS if self.int64_atomics else "")
        prelude += NARROW_ATOMICS if self.narrow_atomics else ""
        prelude += DOUBLE_ATOMICS if self.double_atomics else ""
        prelude += WARP_HELPERS if self.warp_helpers else ""
        helpers = prelude
        if packed:
            prelude += f"typedef struct {{ {self.index} v[{len(sizes)}]; }} {self.name}_sizes;\n"
        required = (
            f"__attribute__((reqd_work_group_size({self.work_group}, 1, 1))) "
            if self.work_group
            else ""
        )
        source = (
            f"{prelude}__kernel {required}void {self.name}({', '.join(arguments)}) {{\n{body}\n}}\n"
        )
        dims = tuple(self.dims.seen.get(d, Dimension()) for d in range(len(self.dims.seen)))
        names = tuple(
            part.strip().rsplit(" ", 1)[1] for argument in arguments for part in argument.split(",")
        )
        requirements = tuple(sorted(set(self.requirements), key=str))
        return Kernel(
            self.name,
            source,
            names,
            tuple(sizes),
            dims,
            self.output,
            requirements,
            self.index,
            tuple(self.limits),
            tuple(self.carries),
            self.relies_on_cover,
            tuple(self.scratch),
            self.kept_partial_sums,
            self.stream_pointers_used,
            packed,
            helpers,
        )

    def _output_sink(self, result: Type, arguments: list[str]) -> Element:
        out = self.output
        if out.into:
            places = []
            for name, offset, strides in out.lanes():
                if len(strides) != len(_lengths(result)):
                    raise LiftError("the output's strides do not match the result's dimensions")
                texts = tuple(self.size_text(s) for s in strides)
                places.append(Memory(name, self.size_text(offset), texts, limit=self._limit()))
            return places[0] if len(places) == 1 else TupleValue(tuple(places))
        self.sizes |= _size_names(result)
        lanes = _lanes_of(result)
        if lanes is not None:  # an array of tuples: one buffer per lane, out0, out1, ...
            sinks = []
            for k, lane in enumerate(lanes):
                arguments.append(f"__global {c_type(lane)}* restrict {out.name}{k}")
                sinks.append(self._buffer_view(f"{out.name}{k}", result))
            return TupleValue(tuple(sinks))
        arguments.append(f"__global {c_type(_scalar_of(result))}* restrict {out.name}")
        return self._buffer_view(out.name, result, limit=self._limit())

    def _limit(self) -> str:
        length = self.output.length
        if length is None:
            return ""
        self.sizes |= length.variables
        return self.size_text(length)

    def _buffer_view(self, name: str, kind: Type, limit: str = "") -> Memory | Cell:
        lengths = _lengths(kind)
        if not lengths:
            return Cell(f"{name}[0]")
        if limit and len(lengths) != 1:
            raise LiftError("only a one-dimensional result is written up to a length")
        return Memory(name, "0", _row_major(lengths, self.suffix), limit=limit)

    # ------------------------------------------------------------ helpers

    def line(self, text: str) -> None:
        if self.places:
            self._place_reads(text)
        self.lines.append("  " * self.depth + text)

    def _place_reads(self, text: str) -> None:
        """Emit the stores' places (`_read_first`) that `text` needs, or that go before it:
        the first loop at their depth. A place first needed deeper is read where its
        element's code started; one whose block has closed was never needed."""
        waiting = []
        for place in self.places:
            if place.depth > self.depth:
                continue
            opens_loop = text.startswith("for (") and place.depth == self.depth
            if not (opens_loop or _names(place.name, text)):
                waiting.append(place)
            elif place.depth == self.depth:
                self.lines.append("  " * self.depth + place.declaration)
            else:
                self.lines.insert(place.at, "  " * place.depth + place.declaration)
                for other in self.places:
                    if other is not place and other.at >= place.at:
                        other.at += 1
        self.places = waiting

    def fresh(self, hint: str) -> str:
        """A C name of the kernel's own, apart from the program's (checked in `kernel`)."""
        self.counter += 1
        return f"{_OWN}{hint}{self.counter}"

    def type_of(self, expression: ir.Expr, env: _Env) -> Type:
        return infer(expression, {p: t for p, (_, t) in env.items()})

    def size_text(self, size: Size) -> str:
        """`size` as C text; its variables become kernel arguments."""
        self.sizes |= size.variables
        return size.c_expression(self.suffix)

    def require(self, kind: Type, divisor: Size) -> None:
        assert isinstance(kind, Array)
        n = divisor.constant
        if n is None:
            return  # a symbolic split type-checks only where it divides exactly
        if kind.length.constant is None or kind.length.constant % n:
            self.requirements.append((kind.length, n))
            self.sizes |= kind.length.variables

    def bind(
        self, fun: ir.Fun, elements: Sequence[tuple[Element, Type]], env: _Env
    ) -> tuple[ir.Apply, _Env]:
        """`fun` applied to already-computed elements, as an expression over fresh
        parameters bound to them."""
        params = tuple(ir.Param(self.fresh("_e")) for _ in elements)
        inner = dict(env) | dict(zip(params, elements, strict=True))
        return ir.Apply(fun, params), inner

    def let(self, element: Element, kind: Type) -> tuple[Element, Type]:
        """A value a lambda's parameter is bound to (`((lambda (v) body) value)`, a let): a
        scalar or vector computed once into a private variable, which each use of the
        parameter reads (written as text, a value used several times in a body that uses
        its results several times would repeat without end); anything else as it is."""
        computed = isinstance(element, str) and not _SIMPLE.fullmatch(element)
        if isinstance(kind, Scalar | Vector) and computed:
            name = self.fresh("v")
            self.line(f"const {c_type(kind)} {name} = {element};")
            return name, kind
        return element, kind

    # ------------------------------------------------------------ values

    def value(self, expression: ir.Expr, env: _Env) -> Element:
        match expression:
            case ir.Param():
                if expression not in env:
                    raise LiftError(f"{expression.name} is not bound here")
                return env[expression][0]
            case ir.Literal():
                return _literal(expression)
            case ir.Apply(ir.Lambda(params, body), args):
                made = len(self.local_writes)
                bound = [self.let(self.value(a, env), self.type_of(a, env)) for a in args]
                fresh = set(self.local_writes[made:])
                result = self.value(body, dict(env) | dict(zip(params, bound, strict=True)))
                self._free_arguments([element for element, _ in bound], fresh, result)
                return result
            case ir.Apply(ir.Op("tuple"), args):
                return TupleValue(tuple(self.value(a, env) for a in args))
            case ir.Apply(ir.Iterate(count, f), (x,)):
                current, kind = self.value(x, env), self.type_of(x, env)
                for _ in range(count):  # unrolled: each step keeps its result where it says
                    applied, inner = self.bind(f, [(current, kind)], env)
                    current, kind = self.value(applied, inner), self.type_of(applied, inner)
                return current
            case ir.Apply(ir.Op(name), args):
                texts = [text_of(self.value(a, env), name) for a in args]
                types = [self.type_of(a, env) for a in args]
                return _op_text(name, texts, types)
            case ir.Apply(ir.MapVec(f), (x,)):
                # OpenCL's operators work on every lane: f's body on vector values.
                applied, inner = self.bind(f, [(self.value(x, env), self.type_of(x, env))], env)
                return self.value(applied, inner)
            case ir.Apply(fun, args) if isinstance(fun, ir.LAYOUT):
                return self.layout(fun, args, env)
            case ir.Apply(ir.Map(f), (x,)):
                # Not lowered: computed where each element is read (fused into its reader).
                return self.layout_map(f, x, env)
            case ir.Apply():
                return self.materialise(expression, env)
        raise LiftError("a function where a value is expected")

    def _free_arguments(self, elements: list[Element], fresh: set[str], result: Element) -> None:
        """Local buffers written for a lambda's arguments, which its result is not:
        nothing can read them any more (a parameter's scope is its body), so a later
        to-local of the same type and size writes there. Its writes come after the
        barrier that ended the result's own to-local, which came after every read of
        them (the steps of a scan in local memory take two buffers, not one each)."""
        if not isinstance(result, Memory) or self._in_loop():
            return  # a view, or a tuple: it may read them
        result_text = " ".join([result.index, result.offset, result.limit, *result.strides])
        for element in elements:
            if not isinstance(element, Memory) or element.name not in fresh:
                continue
            if element.name != result.name and not _names(element.name, result_text):
                self.free_locals.append(element.name)

    def _in_loop(self) -> bool:
        """Whether a loop is open whose iterations no barrier separates: a buffer reused
        in its body could be written by one iteration while another reads it (a
        map-workgroup's loop ends each group at a barrier where it writes local memory;
        scan-workgroups' loop always does)."""
        return any(self.loops) or self.sequential > 0

    def _local_buffer(self, c_kind: str, count: int) -> str:
        """A local buffer of `count` elements of `c_kind`: one freed earlier, else new."""
        for name in self.free_locals if not self._in_loop() else []:
            if self.local_shapes[name] == (c_kind, count):
                self.free_locals.remove(name)
                if self._read_since_barrier(name):  # a let's copy of one of its elements
                    self.line("barrier(CLK_LOCAL_MEM_FENCE);")
                return name
        name = self.fresh("l")
        self.locals.append(f"  __local {c_kind} {name}[{count}];")
        self.local_shapes[name] = (c_kind, count)
        return name

    def _in_place_buffer(self, expression: ir.Apply, c_kind: str, count: int) -> str | None:
        """The buffer `expression` (a to-local) may write in place, where it is the one
        `scan_workgroups` found and the buffer's shape is the result's."""
        if self.in_place is None or self.in_place[0] is not expression:
            return None
        name = self.in_place[1]
        self.in_place = None
        return name if self.local_shapes[name] == (c_kind, count) else None

    def _read_since_barrier(self, name: str) -> bool:
        """Whether a line since the last barrier names buffer `name`."""
        for line in reversed(self.lines):
            if "barrier(" in line:
                return False
            if _names(name, line):
                return True
        return False

    def layout(self, fun: ir.Fun, args: tuple[ir.Expr, ...], env: _Env) -> Element:
        if isinstance(fun, ir.Indices):
            return _indices(fun.dim, len(fun.lengths), ())
        values = [self.value(a, env) for a in args]
        types = [self.type_of(a, env) for a in args]
        x = values[-1]
        match fun:
            case ir.Zip():
                arrays = values
                return Lazy(lambda i: TupleValue(tuple(_at(a, i) for a in arrays)))
            case ir.Get(index):
                if isinstance(x, TupleValue):
                    return x.items[index]
                return _at(x, str(index))
            case ir.Split(size):
                self.require(types[0], size)
                n = self.size_text(size)
                return Lazy(lambda i: Lazy(lambda j: _at(x, _split_index(i, j, n))))
            case ir.Join():
                inner = types[0]
                assert isinstance(inner, Array) and isinstance(inner.element, Array)
                m = self.size_text(inner.element.length)
                return Lazy(lambda k: _at(_at(x, f"({k}) / {m}"), f"({k}) % {m}"))
            case ir.Slide(size, step):
                source = types[0]
                assert isinstance(source, Array)
                if step > 1:  # whole windows only: the last one ends at the end
                    self.require(Array(source.element, source.length - size), Size.of(step))
                return Lazy(lambda i: Lazy(lambda j: _at(x, f"({i})*{step} + ({j})")))
            case ir.Pad(left, right, boundary):
                return self.pad(x, types[0], left, boundary, env, none_right=right.constant == 0)
            case ir.Transpose():
                return Lazy(lambda i: Lazy(lambda j: _at(_at(x, j), i)))
            case ir.Gather():
                indices = values[0]
                return Lazy(lambda i: _at(x, text_of(_at(indices, i), "gather's index")))
            case ir.Segment(length):
                first = self.segment(length, values[0], values[1], self._narrow_count(args, env))
                return Lazy(lambda i: _at(x, f"{first} + ({i})"))
            case ir.Range(length):
                first = self.segment(length, values[0], values[1], self._narrow_count(args, env))
                return Lazy(lambda i: f"({first} + ({i}))")
            case ir.Strided(offset, strides, _):
                if not isinstance(x, Memory) or len(x.strides) != 1 or x.index:
                    raise LiftError("strided views a flat buffer")
                for size in (offset, *strides):
                    self.sizes |= size.variables
                start = self.size_text(offset)
                if x.offset not in ("0", "0L"):
                    start = f"{x.offset} + {start}"
                return Memory(x.name, start, tuple(self.size_text(s) for s in strides))
            case ir.SplitVec(width):
                self.require(types[0], Size.of(width))
                if not isinstance(x, Memory):
                    raise LiftError("split-vec reads vectors from a buffer")
                return Lazy(lambda i: VectorMemory(x, width).at(i))
        raise LiftError(f"no OpenCL view for {type(fun).__name__}")

    def segment(self, length: str, lo: Element, hi: Element, narrow: str | None = None) -> str:
        """Declare a segment's first index and its length, the size `length` (0 where
        hi <= lo), a `long` like its bounds, where it is computed; return the first
        index's name. With `narrow` (`_narrow_count`), the length is that difference of
        32-bit values, clamped at 0, rather than the bounds compared."""
        if length in self.segments or length in self.taken or length.startswith(_OWN):
            raise LiftError(f"the segment length {length} is named twice")
        self.segments.add(length)
        first = self.fresh("lo")
        self.line(f"const long {first} = {text_of(lo, 'a segment bound')};")
        if narrow is not None:
            # max(n, 0) of a 32-bit n: a loop to it is one to n from 0 for the device's
            # compiler, with no wrapped comparison of 64-bit bounds before it.
            self.line(f"const long {length} = max({narrow}, 0L);")
            return first
        end = self.fresh("hi")
        self.line(f"const long {end} = {text_of(hi, 'a segment bound')};")
        self.line(f"const long {length} = {end} > {first} ? {end} - {first} : 0L;")
        return first

    def _narrow_count(self, bounds: tuple[ir.Expr, ...], env: _Env) -> str | None:
        """`b - a` where a segment's bounds are `(- a c)` and `(- b c)`, one `c`, and `a`
        and `b` are 32-bit values widened to 64 bits: then hi - lo is b - a, exactly and
        without overflow; None otherwise."""
        match bounds[:2]:
            case (
                ir.Apply(ir.Op("-"), (a, c)),
                ir.Apply(ir.Op("-"), (b, c_again)),
            ) if c == c_again:
                widened = [self._widened_narrow(x, env) for x in (a, b)]
                if widened[0] is not None and widened[1] is not None:
                    return f"({widened[1]} - {widened[0]})"
        return None

    def _widened_narrow(self, expression: ir.Expr, env: _Env) -> str | None:
        """The text of `expression` where it is `(i64 x)` or `(u64 x)` of an `x` of at
        most 32 bits; None otherwise."""
        match expression:
            case ir.Apply(ir.Op("i64" | "u64"), (x,)):
                kind = self.type_of(x, env)
                if isinstance(kind, Scalar) and kind.name in ("i8", "i16", "i32", "bool"):
                    return text_of(self.value(expression, env), "a segment bound")
        return None

    def pad(
        self,
        x: Element,
        kind: Type,
        left: int,
        boundary: ir.Expr | None,
        env: _Env,
        *,
        none_right: bool,
    ) -> Element:
        assert isinstance(kind, Array)
        n = self.size_text(kind.length)
        if isinstance(boundary, ir.Apply):  # a tuple of constants, lane by lane
            edges = self.value(boundary, env)

            def padded_tuple(i: str) -> Element:
                inside = _inside(i, left, n, none_right)
                return _choose(inside, _at(x, _shifted(i, left)), edges)

            return Lazy(padded_tuple)
        if boundary is None:
            return Lazy(
                lambda i: _at(
                    x, f"clamp(({self.index})({i}) - {left}, 0{self.suffix}, {n} - 1{self.suffix})"
                )
            )
        if isinstance(kind.element, Array):
            raise LiftError("constant padding of nested arrays is not generated")
        assert isinstance(boundary, ir.Literal)
        edge = _literal(boundary)

        def padded(i: str) -> str:
            inside = text_of(_at(x, _shifted(i, left)), "pad")
            return f"({_inside(i, left, n, none_right)} ? {inside} : {edge})"

        return Lazy(padded)

    def layout_map(self, f: ir.Fun, x: ir.Expr, env: _Env) -> Element:
        xs = self.value(x, env)
        kind = self.type_of(x, env)
        assert isinstance(kind, Array)

        def element(i: str) -> Element:
            applied, inner = self.bind(f, [(_at(xs, i), kind.element)], env)
            return self.value(applied, inner)

        return Lazy(element)

    def materialise(self, expression: ir.Apply, env: _Env) -> Element:
        """A computed array read by another pattern: a buffer in the memory its to-local
        or to-private names (private for a sequential map or reduce), then a view of it."""
        fun = expression.fun
        match fun:
            case ir.ToLocal(f):
                space, inner = "local", ir.Apply(f, expression.args)
            case ir.ToPrivate(f):
                space, inner = "private", ir.Apply(f, expression.args)
            case ir.MapSeq() | ir.ReduceSeq() | ir.ReduceLanes() | ir.ScanSeq():
                space, inner = "private", expression
            case _:
                raise LiftError(
                    f"the result of {type(fun).__name__} is read by another pattern: say where "
                    "it is kept (to-local or to-private)"
                )
        kind = self.type_of(expression, env)
        lengths = _lengths(kind)
        count = Size.of(1)
        for length in lengths:
            count = count * length
        if count.constant is None:
            raise LiftError(f"a {space} buffer of {count} elements: its size must be known")
        lanes = _lanes_of(kind) or [_scalar_of(kind)]
        views: list[Element] = []
        for lane in lanes:  # a tuple's lanes in buffers of their own
            if space == "local":
                name = self._in_place_buffer(expression, c_type(lane), count.constant)
                name = name or self._local_buffer(c_type(lane), count.constant)
                self.local_writes.append(name)
            else:
                name = self.fresh("p")
                self.line(f"{c_type(lane)} {name}[{count.constant}];")
            views.append(self._buffer_view(name, kind))
        view = views[0] if len(views) == 1 and _lanes_of(kind) is None else TupleValue(tuple(views))
        self.emit(inner, env, view)
        if space == "local":
            self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        return view

    # ------------------------------------------------------------ writing

    def emit(self, expression: ir.Expr, env: _Env, sink: Element) -> None:
        if self.stream is not None and self._at_point(expression, env):
            self.stream_loop(expression, env, sink)
            return
        match expression:
            case ir.Apply(ir.MapStream() as fun, (x,)):
                self.stream_outer(fun, x, env, sink)
                return
            case ir.Apply(
                ir.MapGlobal() | ir.MapWorkgroup() | ir.MapLocal() | ir.MapSeq() as fun, (x,)
            ):
                self.loop(fun, fun.f, x, env, sink)
                return
            case ir.Apply(ir.ScanWorkgroups() as fun, (x,)):
                self.scan_workgroups(fun, x, env, sink)
                return
            case ir.Apply(ir.MapLanes() as fun, (x,)):
                self.lanes_loop(fun, x, env, sink)
                return
            case ir.Apply(ir.ReduceLanes() as fun, (x,)):
                self.reduce_lanes(fun, x, env, sink)
                return
            case ir.Apply(ir.ReduceSeq(f, init), (x,)):
                self.reduce(f, init, x, env, sink)
                return
            case ir.Apply(ir.ScanSeq(f, init) as scan, (x,)):
                inclusive = isinstance(scan, ir.InclusiveScanSeq)
                self.reduce(f, init, x, env, sink, prefixes="after" if inclusive else "before")
                return
            case ir.Apply(ir.ToGlobal(f) | ir.ToLocal(f) | ir.ToPrivate(f), args):
                self.emit(ir.Apply(f, args), env, sink)
                return
            case ir.Apply(ir.Permute(), (idx, xs, into)):
                self.permute(idx, xs, into, env, sink)
                return
            case ir.Apply(ir.ScatterAtomic(dim, f), (idx, xs, into)):
                self.scatter_atomic(dim, f, (idx, xs, into), env, sink)
                return
            case ir.Apply(ir.ScatterAtomicLocal(dim, capacity, f), (idx, xs, into)):
                self.scatter_atomic(dim, f, (idx, xs, into), env, sink, capacity)
                return
            case ir.Apply(ir.Lambda(params, body), args):
                bound = [self.let(self.value(a, env), self.type_of(a, env)) for a in args]
                self.emit(body, dict(env) | dict(zip(params, bound, strict=True)), sink)
                return
            case ir.Apply(ir.Join(), (x,)):
                kind = self.type_of(x, env)
                assert isinstance(kind, Array) and isinstance(kind.element, Array)
                m = self.size_text(kind.element.length)
                self.emit(x, env, Lazy(lambda i: Lazy(lambda j: _at(sink, f"({i})*{m} + ({j})"))))
                return
            case ir.Apply(ir.JoinVec(), (x,)):
                kind = self.type_of(x, env)
                assert isinstance(kind, Array)
                element = kind.element
                width = (element if isinstance(element, Vector) else _first_vector(element)).width
                if isinstance(sink, Memory):
                    self.emit(x, env, Lazy(VectorMemory(sink, width).at))
                    return
                places = sink.items if isinstance(sink, TupleValue) else ()
                if not places or not all(isinstance(p, Memory) for p in places):
                    raise LiftError("join-vec writes vectors into buffers")
                lanes = [VectorMemory(p, width) for p in places if isinstance(p, Memory)]
                self.emit(x, env, Lazy(lambda i: TupleValue(tuple(v.at(i) for v in lanes))))
                return
            case ir.Apply(ir.Split(size), (x,)):
                n = self.size_text(size)
                kind = self.type_of(x, env)
                assert isinstance(kind, Array)
                self.sizes |= kind.length.variables
                self.emit(x, env, Lazy(lambda k: _at(_at(sink, f"({k}) / {n}"), f"({k}) % {n}")))
                return
        if _unlowered(expression) and not isinstance(sink, Cell | TupleValue):
            raise LiftError(
                "a map or reduce that is not lowered writes the result: say how it runs "
                "(map-global, map-workgroup, map-local, map-seq, reduce-seq, scan-seq)"
            )
        value = self.value(expression, env)
        if isinstance(value, TupleValue) and isinstance(sink, TupleValue):
            value = self.settle(value, self.type_of(expression, env))
        self.store(sink, value)

    def settle(self, value: TupleValue, kind: Type) -> TupleValue:
        """Every lane of a tuple computed into a variable before any is stored: a lane may
        read an element another lane's store overwrites (a point's record, read then
        updated field by field)."""
        if not isinstance(kind, Tuple):
            raise LiftError("a tuple value of a type that is not a tuple")
        lanes: list[Element] = []
        for item, lane in zip(value.items, kind.elements, strict=True):
            if isinstance(item, TupleValue):
                lanes.append(self.settle(item, lane))
                continue
            name = self.fresh("v")
            self.line(f"const {c_type(lane)} {name} = {text_of(item, 'a lane')};")
            lanes.append(name)
        return TupleValue(tuple(lanes))

    def store(self, sink: Element, value: Element) -> None:
        """Store a scalar into its place, or a tuple lane by lane."""
        if isinstance(sink, TupleValue):
            if not isinstance(value, TupleValue) or len(value.items) != len(sink.items):
                raise LiftError("a tuple stored where its lanes do not fit")
            for place, item in zip(sink.items, value.items, strict=True):
                self.store(place, item)
            return
        if not isinstance(sink, Cell):
            raise LiftError("an array is copied only by a map")
        self.line(sink.store(text_of(value, "a stored value")))

    def loop(self, fun: ir.Fun, f: ir.Fun, x: ir.Expr, env: _Env, sink: Element) -> None:
        xs = self.value(x, env)
        kind = self.type_of(x, env)
        assert isinstance(kind, Array)
        length = self.size_text(kind.length)
        self.sizes |= kind.length.variables
        i = self.fresh("i")
        match fun:
            case ir.MapGlobal(d):
                start, step = f"get_global_id({d})", f"get_global_size({d})"
                self.dims.note(d, length=kind.length)
            case ir.MapWorkgroup(d):
                start, step = f"get_group_id({d})", f"get_num_groups({d})"
                self.dims.note(d, groups=kind.length)
            case ir.MapLocal(d):
                start, step = f"get_local_id({d})", f"get_local_size({d})"
                self.dims.note(d, local=kind.length)
            case _:
                start, step = "0", "1"
        one_each = self._one_each(fun, kind.length)
        global_dim = fun.dim if isinstance(fun, ir.MapGlobal) else None
        if global_dim is not None:
            self.globals_open.append(global_dim)
        rounds = self._local_rounds(fun, kind.length)
        if one_each:
            # One element an item (or a group): a test, no loop.
            self.line(f"if ({start} < {length}) {{ const {self.index} {i} = {start};")
        elif rounds is not None:
            # A constant count of rounds, so that the device's compiler unrolls the loop
            # and issues its loads together rather than one round trip a round.
            k, group = self.fresh("k"), self.work_group
            self.line(f"for (int {k} = 0; {k} < {rounds}; {k}++) {{")
            self.line(f"  const {self.index} {i} = {start} + {k} * {group};")
            if rounds * (group or 0) != kind.length.constant:  # the last round is partial
                self.line(f"  if ({i} >= {length}) break;")
        else:
            self.line(f"for ({self.index} {i} = {start}; {i} < {length}; {i} += {step}) {{")
        self.loops.append(not one_each)
        self.depth += 1
        local_before = len(self.locals), len(self.local_writes)
        applied, inner = self.bind(f, [(_at(xs, i), kind.element)], env)
        self.emit(applied, inner, _at(sink, i))
        wrote_local = (len(self.locals), len(self.local_writes)) != local_before
        if isinstance(fun, ir.MapWorkgroup) and wrote_local:
            # The next group's copy may not overwrite local memory still being read.
            self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        self.loops.pop()
        if global_dim is not None:
            self.globals_open.pop()
        self.depth -= 1
        self.line("}")

    # ------------------------------------------------------------ map-lanes

    def lanes_loop(self, fun: ir.MapLanes, x: ir.Expr, env: _Env, sink: Element) -> None:
        """Each work-group takes `group / lanes` elements at a time, `lanes` neighbouring
        items an element. The loop over them is the same for every item of a group (its
        bound depends on the group alone), so that the reduce-lanes' barriers inside are
        met by all; an item past the last element computes the last one again and
        stores nothing, and only the first lane stores."""
        group, lanes, d = self.work_group, fun.lanes, fun.dim
        if group is None or lanes < 2 or lanes & (lanes - 1) or group % lanes:
            raise LiftError(
                "map-lanes needs a kernel generated for its work-group, a multiple of its "
                "lanes (a power of two from 2)"
            )
        if self.lane is not None or self.loops or self.sequential:
            raise LiftError("map-lanes is the outermost map")
        xs = self.value(x, env)
        kind = self.type_of(x, env)
        assert isinstance(kind, Array)
        length = self.size_text(kind.length)
        self.dims.note(d, length=kind.length)
        base, first, i, lane = (self.fresh(h) for h in ("base", "first", "i", "lane"))
        index, per_group = self.index, group // lanes
        self.line(
            f"for ({index} {base} = ({index})get_group_id({d}) * {per_group}; {base} < {length}; "
            f"{base} += ({index})get_num_groups({d}) * {per_group}) {{"
        )
        self.loops.append(False)  # its rounds end at barriers
        self.depth += 1
        self.line(f"const {index} {first} = {base} + ({index})(get_local_id({d}) / {lanes});")
        self.line(f"const int {lane} = (int)(get_local_id({d}) % {lanes});")
        self.line(f"const {index} {i} = {first} < {length} ? {first} : {length} - 1;")
        self.lane = (lane, lanes, d)
        applied, inner = self.bind(fun.f, [(_at(xs, i), kind.element)], env)
        self.emit(applied, inner, _guarded(_at(sink, i), f"{first} < {length} && {lane} == 0"))
        self.lane = None
        self.depth -= 1
        self.loops.pop()
        self.line("}")

    def reduce_lanes(self, fun: ir.ReduceLanes, x: ir.Expr, env: _Env, sink: Element) -> None:
        """The lane's share folded in order into a private value, then the lanes' values
        folded in local memory, halving, a barrier after each step. Each lane stores the
        value of its own slot (the first lane's holds the total): no lane reads another's
        slot after the last barrier, so the next round may write them at once."""
        if self.lane is None or self.lane[1] != fun.lanes:
            raise LiftError("reduce-lanes inside a map-lanes of as many lanes only")
        lane, lanes, d = self.lane
        xs = self.value(x, env)
        kind = self.type_of(x, env)
        assert isinstance(kind, Array) and self.work_group is not None
        start_type = self.type_of(fun.init, env)
        if not isinstance(start_type, Scalar):
            raise LiftError("reduce-lanes of a tuple is not generated")
        acc, j, step = self.fresh("acc"), self.fresh("j"), self.fresh("h")
        c_kind = c_type(start_type)
        self.line(f"{c_kind} {acc} = {text_of(self.value(fun.init, env), 'init')};")
        length = self.size_text(kind.length)
        self.line(f"for ({self.index} {j} = {lane}; {j} < {length}; {j} += {lanes}) {{")
        self.depth += 1
        self.sequential += 1
        applied, inner = self.bind(fun.f, [(acc, start_type), (_at(xs, j), kind.element)], env)
        folded = self.fresh("next")
        self.line(f"{c_kind} {folded} = {text_of(self.value(applied, inner), 'a reduction')};")
        self.line(f"{acc} = {folded};")
        self.sequential -= 1
        self.depth -= 1
        self.line("}")
        slots = self.fresh("l")
        self.locals.append(f"  __local {c_kind} {slots}[{self.work_group}];")
        slot = f"{slots}[get_local_id({d})]"
        self.line(f"{slot} = {acc};")
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        self.line(f"for (int {step} = {lanes // 2}; {step} > 0; {step} >>= 1) {{")
        self.depth += 1
        self.line(f"if ({lane} < {step}) {{")  # the other slot is read inside only
        self.depth += 1
        other = f"{slots}[get_local_id({d}) + {step}]"
        combined = self._fold_text(fun.combine, slot, other, start_type, env)
        self.line(f"{slot} = {combined};")
        self.depth -= 1
        self.line("}")
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        self.depth -= 1
        self.line("}")
        self.store(_at(sink, "0"), slot)

    # ------------------------------------------------------------ map-stream

    def stream_outer(self, fun: ir.MapStream, x: ir.Expr, env: _Env, sink: Element) -> None:
        """Each work-item takes the elements [first, end) of dimension `fun.dim`, a run
        of about length / global size; the loop over them is opened inside the loops of
        `fun.f`, around the point's function (`stream_loop`), so that one work-item's
        consecutive points are those of one run."""
        if self.stream is not None:
            raise LiftError("a map-stream inside another")
        self.carries += carry_conditions(fun.carries, x)
        xs, kind = self.value(x, env), self.type_of(x, env)
        assert isinstance(kind, Array)
        length = self.size_text(kind.length)
        self.sizes |= kind.length.variables
        self.dims.note(fun.dim, length=kind.length)
        run, first, end = self.fresh("run"), self.fresh("first"), self.fresh("end")
        i, d, index = self.fresh("i"), fun.dim, self.index
        self.line(
            f"const {index} {run} = ({length} + get_global_size({d}) - 1) / get_global_size({d});"
        )
        self.line(f"const {index} {first} = get_global_id({d}) * {run};")
        self.line(f"const {index} {end} = min({first} + {run}, ({index})({length}));")
        self.stream = (i, first, end, fun.carries)
        element = _at(xs, i)
        self.stream_views = grid_views(x) if self.stream_pointers else None
        if self.stream_views is not None:  # read at 0, then through pointers
            element = _at(xs, "0")
            self.stream_first = first
        self.globals_open.append(d)
        applied, inner = self.bind(fun.f, [(element, kind.element)], env)
        self.emit(applied, inner, _at(sink, i))
        self.globals_open.pop()
        if self.stream is not None:
            raise LiftError("a map-stream's function never reaches its points")

    def _through_pointers(self, lanes: Sequence[Element], types: Sequence[Type]) -> list[Element]:
        """The lanes of a run read at its element 0 (`stream_outer`, with
        `stream_pointers`), `a[(position) + offset]`, read instead as `p[offset]` through a
        pointer to the point's position at the run's current element, one per array,
        stride and position, set at the run's first element and advanced by the stride
        at each next one (`_run_loop`). (On the H200 that ran the streamed 27-point stencil
        with int indices in 101 rather than 118 us: the device's compiler no longer
        computes each read's 32-bit index at every element; docs/lift.md.)"""
        assert self.stream_views is not None
        first = self.stream_first
        pointers: dict[tuple[str, str, str], str] = {}
        read: list[Element] = []
        for lane, view, kind in zip(lanes, self.stream_views, types, strict=True):
            assert isinstance(view.fun, ir.Strided) and isinstance(view.args[0], ir.Param)
            name, stride = view.args[0].name, self.size_text(view.fun.strides[0])
            if not (isinstance(lane, Cell) and lane.vector is None and not lane.guard):
                raise _NoPointers("a lane that is not one scalar of memory")
            found = _POSITIONED.fullmatch(lane.text)
            if found is None or found["name"] != name:
                raise _NoPointers(f"a lane not read from {name} at a position and an offset")
            key = (name, stride, found["position"])
            if key not in pointers:
                pointer = pointers[key] = self.fresh("at")
                start = f"{name} + ({first})*{stride} + ({found['position']})"
                self.line(f"__global const {c_type(kind)}* {pointer} = {start};")
                self.stream_advances.append(f"{pointer} += {stride}")
            read.append(Cell(f"{pointers[key]}[{found['offset']}]"))
        return read

    def _run_loop(self, i: str, end: str) -> str:
        """The `for` of a run, advancing the pointers of `_through_pointers` with its counter."""
        steps = "".join(f", {step}" for step in self.stream_advances)
        return f"for (; {i} < {end}; {i}++{steps}) {{"

    def _at_point(self, expression: ir.Expr, env: _Env) -> bool:
        """`expression` applies the point's function: its argument is a tuple of scalars
        (or a scalar), no longer an array."""
        match expression:
            case ir.Apply(ir.Lambda((_,)), (arg,)):
                return not isinstance(self.type_of(arg, env), Array)
        return False

    def stream_loop(self, expression: ir.Expr, env: _Env, sink: Element) -> None:
        """The run's loop around the point's function: the lanes that carry are read at
        the run's first element, then each element reads only the others and passes
        what the next one carries; or, where the carried lanes lead a chain of additions
        that nothing else reads, the chain's partial sums (`_partial_run`)."""
        assert self.stream is not None and isinstance(expression, ir.Apply)
        i, first, end, carries = self.stream
        self.stream = None
        point_fun, (arg,) = expression.fun, expression.args
        assert isinstance(point_fun, ir.Lambda)
        point, kind = self.value(arg, env), self.type_of(arg, env)
        lanes = list(point.items) if isinstance(point, TupleValue) else [point]
        types = list(kind.elements) if isinstance(kind, Tuple) else [kind]
        if carries and not isinstance(point, TupleValue):
            raise LiftError("map-stream carries lanes of tuples")
        if self.loops and self.loops[-1]:
            # An empty run has no point at all: leave the loop around it. (Measured on an
            # H200, this form ran the 27-point stencil 1.2 times as fast as a test around
            # the run: docs/lift.md.)
            self.line(f"if ({first} >= {end}) break;")
            self.line("{")
        else:
            self.line(f"if ({first} < {end}) {{")
        self.depth += 1
        self.line(f"{self.index} {i} = {first};")
        if self.stream_views is not None:
            lanes = self._through_pointers(lanes, types)
            point = TupleValue(tuple(lanes)) if isinstance(point, TupleValue) else lanes[0]
            self.stream_pointers_used = True
        if any(isinstance(lane, TupleValue) for lane in lanes):
            raise LiftError("map-stream's points hold scalars")
        found = partial_sums(point_fun, carries, len(lanes)) if self.partial_sums else None
        if found is not None:
            self.kept_partial_sums = True
            self._partial_run(found, (i, end), (lanes, types), env, sink)
        else:
            self._carried_run(point_fun, (i, end), carries, (point, kind), env, sink)
        self.stream_advances, self.stream_views = [], None
        self.depth -= 1
        self.line("}")

    def _carried_run(  # noqa: PLR0917 (the run, then its point, then where it writes)
        self,
        point_fun: ir.Lambda,
        loop: tuple[str, str],
        carries: Sequence[tuple[int, int]],
        point_value: tuple[Element, Type],
        env: _Env,
        sink: Element,
    ) -> None:
        """The run's loop keeping the carried lanes' values: each element reads the
        others and hands on what the next one carries."""
        i, end = loop
        point, kind = point_value
        lanes = list(point.items) if isinstance(point, TupleValue) else [point]
        types = list(kind.elements) if isinstance(kind, Tuple) else [kind]
        kept = {k: self.fresh("kept") for k, _ in carries}
        for k, name in kept.items():
            self.line(f"{c_type(types[k])} {name} = {text_of(lanes[k], 'a carried lane')};")
        self.line(self._run_loop(i, end))
        self.depth += 1
        names = []
        for k, lane in enumerate(lanes):
            name = self.fresh("lane")
            value = kept[k] if k in kept else text_of(lane, "a lane")
            self.line(f"const {c_type(types[k])} {name} = {value};")
            names.append(name)
        element: Element = TupleValue(tuple(names)) if isinstance(point, TupleValue) else names[0]
        applied, inner = self.bind(point_fun, [(element, kind)], env)
        self.sequential += 1
        self.emit(applied, inner, sink)
        self.sequential -= 1
        for k, j in carries:
            self.line(f"{kept[k]} = {names[j]};")
        self.depth -= 1
        self.line("}")

    def _partial_run(
        self,
        found: PartialSums,
        loop: tuple[str, str],
        point: tuple[Sequence[Element], Sequence[Type]],
        env: _Env,
        sink: Element,
    ) -> None:
        """The run's loop keeping one partial sum of the chain per carried block
        (lift/opencl/partial_sums.py): `sums[t]` holds, at element z, the chain through
        t blocks of element z + d - t (d: the block read at every element)."""
        i, end = loop
        lanes, types = point
        *carried_blocks, ahead = found.blocks
        d = len(carried_blocks)
        kind = types[ahead[0]]
        sums = {t: self.fresh("sum") for t in range(1, d + 1)}
        for t, name in sums.items():  # from the run's first element, which reads every lane
            blocks = found.blocks[d - t : d]
            texts = [text_of(lanes[k], "a carried lane") for block in blocks for k in block]
            self.line(f"{c_type(kind)} {name} = {self._chain_text(texts[0], texts[1:], kind)};")
        self.line(self._run_loop(i, end))
        self.depth += 1
        carried = {k for block in carried_blocks for k in block}
        names: list[Element] = []
        for k, lane in enumerate(lanes):
            if k in carried:
                names.append(_CARRIED_NOT_READ)  # the point's function no longer reads it
                continue
            names.append(self.fresh("lane"))
            self.line(f"const {c_type(types[k])} {names[-1]} = {text_of(lane, 'a lane')};")
        read = [text_of(names[k], "a lane") for k in ahead]
        total = self.fresh("sum")
        self.line(f"const {c_type(kind)} {total} = {self._chain_text(sums[d], read, kind)};")
        element = TupleValue((*names, total))
        applied, inner = self.bind(found.point, [(element, Tuple((*types, kind)))], env)
        self.sequential += 1
        self.emit(applied, inner, sink)
        self.sequential -= 1
        for t in range(d, 1, -1):  # each from the one before it was moved on
            self.line(f"{sums[t]} = {self._chain_text(sums[t - 1], read, kind)};")
        self.line(f"{sums[1]} = {self._chain_text(read[0], read[1:], kind)};")
        self.depth -= 1
        self.line("}")

    def _chain_text(self, start: str, terms: Sequence[str], kind: Type) -> str:
        """`((start + t0) + t1) + ...` as C text, each addition as the generator writes one."""
        text = start
        for term in terms:
            text = self._fold_text(ir.Op("+"), text, term, kind, {})
        return text

    def _writes_its_output(self, into: ir.Expr, sink: Element) -> bool:
        """`into` is the parameter the kernel writes in place, a buffer of one lane."""
        out = self.output
        return (
            isinstance(into, ir.Param)
            and out.into
            and out.name == into.name
            and not out.more_offsets
            and isinstance(sink, Memory)
        )

    def permute(self, idx: ir.Expr, xs: ir.Expr, into: ir.Expr, env: _Env, sink: Element) -> None:
        """xs written through a view that puts element i at into[idx[i]]: the map
        producing xs stores each value at its index (the caller guarantees that no two
        are equal and that each is inside `into`)."""
        # Indices of `into` itself: the output starts at its element 0, one after the other.
        plain = self.output.offset.constant == 0 and self.output.strides == (Size.of(1),)
        one_dimension = isinstance(sink, Memory) and len(sink.strides) == 1
        if not (self._writes_its_output(into, sink) and one_dimension and plain):
            raise LiftError("permute writes into the one-dimensional array it is given: the output")
        assert isinstance(sink, Memory)
        indices = self.value(idx, env)
        places = Memory(sink.name, sink.offset, sink.strides)  # every index is inside
        self.emit(xs, env, Lazy(lambda i: places.at(self._read_first(_at(indices, i)))))

    def _read_first(self, index: Element) -> str:
        """A store's place, read before the first loop of its element's code (after what
        that loop's bound reads), or where it is first needed. (On the H200 a JDS
        product's rows ran 3-4% slower with the place read after the loop, or before the
        loop's bound: docs/lift.md.)"""
        name = self.fresh("at")
        declaration = f"const long {name} = {text_of(index, 'an index')};"
        self.places.append(_PlaceRead(name, declaration, len(self.lines), self.depth))
        return name

    def scatter_atomic(  # noqa: PLR0917 (the pattern's parts, then where it writes)
        self,
        dim: int,
        f: ir.Fun,
        args: tuple[ir.Expr, ...],
        env: _Env,
        sink: Element,
        capacity: int = 0,
    ) -> None:
        """Each global work-item of `dim` adds its values atomically into the output, the
        array `into` itself (written in place: the output is that parameter); with a
        `capacity`, into its work-group's bins in local memory first, which are added
        into the output once, after the group's values."""
        idx, xs, into = args
        if not self._writes_its_output(into, sink):
            raise LiftError("scatter-atomic writes into the array it is given: the output")
        kinds = self.type_of(idx, env), self.type_of(xs, env), self.type_of(into, env)
        element = kinds[1].element if isinstance(kinds[1], Array) else None
        if (
            ir.operator_of(f) != "+"
            or not isinstance(element, Scalar)
            or element.name not in _ATOMIC_ADD
        ):
            raise LiftError("scatter-atomic adds scalars (an atomic +)")
        if element.name in ("i64", "f64"):
            self.int64_atomics = True
        self.narrow_atomics |= element.name in _NARROW
        indices, values = self.value(idx, env), self.value(xs, env)
        assert isinstance(kinds[0], Array) and isinstance(kinds[2], Array)
        kind = c_type(element)
        target: Element = sink
        lane = (kind, element, "__global")
        if capacity:
            self.limits.append((kinds[2].length, capacity))
            # Bytes and shorts are counted in ints there (local memory has no narrower
            # atomics): each int's low bits are the bin's sum modulo 2^8 or 2^16.
            counted = _I32 if element.name in _NARROW else element
            lane = (c_type(counted), counted, "__local")
            target = self._private_bins(dim, lane[0], counted, capacity, kinds[2].length)
        length = self.size_text(kinds[0].length)
        self.dims.note(dim, length=kinds[0].length)
        i, step = self.fresh("i"), self.fresh("step")
        self.line(f"const {self.index} {step} = get_global_size({dim});")
        self.line(f"{self.index} {i} = get_global_id({dim});")
        # _SCATTER_UNROLL places a grid apart read before their adds: loads in flight
        # together instead of each waiting for the add before it. Integer adds only:
        # `hist_weighted.c`'s float adds into local bins (compare-and-swap loops) took 250
        # us a call so against 170 us (docs/results/gpu_histograms_unrolled_h200_2026-11-30.json).
        if element.name not in ("f32", "f64"):
            last = f"{length} - {_SCATTER_UNROLL - 1} * {step}"
            self.line(f"for (; {i} < {last}; {i} += {_SCATTER_UNROLL} * {step}) {{")
            self.depth += 1
            points = [i] + [self.fresh("i") for _ in range(_SCATTER_UNROLL - 1)]
            for u, point in enumerate(points[1:], start=1):
                self.line(f"const {self.index} {point} = {i} + {u} * {step};")
            places = [self._scattered_place(indices, point) for point in points]
            for point, k in zip(points, places, strict=True):
                self._scattered_add(target, k, values, point, lane)
            self.depth -= 1
            self.line("}")
        self.line(f"for (; {i} < {length}; {i} += {step}) {{")
        self.depth += 1
        k = self._scattered_place(indices, i)
        self._scattered_add(target, k, values, i, lane)
        self.depth -= 1
        self.line("}")
        if capacity:
            self._merge_bins(dim, target, sink, element, kinds[2].length)

    def _scattered_place(self, indices: Element, point: str) -> str:
        k = self.fresh("k")
        self.line(f"const long {k} = {text_of(_at(indices, point), 'a scattered index')};")
        return k

    def _scattered_add(
        self, bins: Element, k: str, values: Element, point: str, lane: tuple[str, Scalar, str]
    ) -> None:
        """`bins[k] += values[point]` unless `k` is negative (a negative index drops the
        value, which is then not read); `lane` is the bins' C type, element type and
        address space."""
        kind, element, space = lane
        v = self.fresh("v")
        self.line(f"if ({k} >= 0) {{  // a negative index drops the value")
        self.depth += 1
        self.line(f"const {kind} {v} = {text_of(_at(values, point), 'a scattered value')};")
        self._atomic_add(bins, k, v, element, space)
        self.depth -= 1
        self.line("}")

    def _atomic_add(
        self, bins: Element, index: str, value: str, element: Scalar, space: str
    ) -> None:
        """`bins[index] += value`, atomically, in the address `space` of the bins."""
        cell = _at(bins, index)
        assert isinstance(cell, Cell)
        if element.name == "f64" and space == "__global":
            self.double_atomics = True
            self.line(f"idiom_add_double(&{cell.text}, {value});")
            return
        self.line(_ATOMIC_ADD[element.name].format(cell=f"&{cell.text}", v=value, space=space))

    def _private_bins(
        self, dim: int, kind: str, element: Scalar, capacity: int, count: Size
    ) -> Memory:
        """The work-group's bins in local memory, each set to +'s identity (-0.0 for
        floating point: exact for every value added to it, +0.0 too)."""
        bins = self.fresh("bins")
        self.locals.append(f"  __local {kind} {bins}[{capacity}];")
        zero = "-0.0" if element.name in ("f32", "f64") else "0"
        b = self.fresh("b")
        n = self.size_text(count)
        self.line(f"for ({self.index} {b} = get_local_id({dim}); {b} < {n}; "
                  f"{b} += get_local_size({dim})) {bins}[{b}] = {zero};")  # fmt: skip
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        return Memory(bins, "0", ("1",))

    def _merge_bins(
        self, dim: int, bins: Element, sink: Element, element: Scalar, count: Size
    ) -> None:
        """Each of the work-group's bins added into the output once, except those that kept
        their identity's bits (0, or -0.0: nothing was added to them)."""
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        b, v = self.fresh("b"), self.fresh("v")
        n = self.size_text(count)
        self.line(f"for ({self.index} {b} = get_local_id({dim}); {b} < {n}; "
                  f"{b} += get_local_size({dim})) {{")  # fmt: skip
        self.depth += 1
        counted = _I32 if element.name in _NARROW else element  # as _private_bins keeps it
        self.line(f"const {c_type(counted)} {v} = {text_of(_at(bins, b), 'a bin')};")
        if element.name in _UNSIGNED:
            self.line(f"if ({v} != 0)")
        else:  # -0.0's bits: a bin no value reached (adding it could flush a subnormal)
            bits = "as_uint" if element.name == "f32" else "as_ulong"
            sign = "0x80000000u" if element.name == "f32" else "0x8000000000000000ul"
            self.line(f"if ({bits}({v}) != {sign})")
        self._atomic_add(sink, b, v, element, "__global")
        self.depth -= 1
        self.line("}")

    def scan_workgroups(self, fun: ir.ScanWorkgroups, x: ir.Expr, env: _Env, sink: Element) -> None:
        """Each work-group takes the next block in order (a counter), loads it (`load`: a
        copy in local memory, or the block where it is), prepares that (`prepare`: its
        runs' prefixes in local memory), takes its total from that
        (`total`) and publishes it, learns the fold of the blocks before it by reading their
        status words back from its own (a window of up to 32 at once, each item one,
        then item 0 folds them in order until a block's prefix), publishes its own
        prefix, then applies `each` to what was loaded, what was prepared and its start
        (lift/opencl/lookback.py).
        Only earlier blocks are waited for, each taken by a group already running: the
        waits end wherever a running group runs on (GPUs and PoCL; OpenCL does not
        promise it)."""
        blocks, kind = self.value(x, env), self.type_of(x, env)
        assert isinstance(kind, Array)
        start_type = self.type_of(fun.init, env)
        if self.work_group is None:
            raise LiftError("scan-workgroups needs the work-group's size known")
        value_type = c_type(start_type)
        status = status_words(self.fresh("status"), value_type)
        self.scratch.append((status.buffer, kind.length * status.words + 1))
        self.int64_atomics = True
        d, index, window = fun.dim, self.index, min(32, self.work_group)
        count = self.size_text(kind.length)
        taken, begin = self.fresh("taken"), self.fresh("begin")
        more, nearest = self.fresh("more"), self.fresh("nearest")
        flags, values = self.fresh("flags"), self.fresh("values")
        self.locals += [
            f"  __local {index} {taken}, {nearest};",
            f"  __local {value_type} {begin}, {values}[{window}];",
            f"  __local uint {more}, {flags}[{window}];",
        ]
        acc, have, g = self.fresh("acc"), self.fresh("have"), self.fresh("g")
        self.line(f"{value_type} {acc} = 0; int {have} = 0;")
        self.line("for (;;) {")
        self.depth += 1
        lid = f"get_local_id({d})"
        self.line(f"if ({lid} == 0) {taken} = ({index})atom_inc({status.counter(count)});")
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        self.line(f"const {index} {g} = {taken};")
        self.line(f"if ({g} >= {count}) break;")
        applied, inner = self.bind(fun.load, [(_at(blocks, g), kind.element)], env)
        loaded = (self.value(applied, inner), self.type_of(applied, inner))
        applied, inner = self.bind(fun.prepare, [loaded], env)
        prepared = (self.value(applied, inner), self.type_of(applied, inner))
        applied, inner = self.bind(fun.total, [prepared], env)
        folded = self.value(applied, inner)
        if isinstance(self.type_of(applied, inner), Array):
            folded = _at(folded, "0")
        total = self.fresh("total")
        self.line(f"const {value_type} {total} = {text_of(folded, 'a block total')};")
        start = text_of(self.value(fun.init, env), "a scan's start")
        self._publish_total(fun, status, (g, total, start), (begin, more, nearest, have), env)
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        self._look_back(fun, status, (flags, values, window), (more, nearest, acc, have), env)
        prefix = self._fold_text(fun.f, acc, total, start_type, env)
        self.line(f"if ({lid} == 0 && {g} > 0) {{ {begin} = {acc};")
        for statement in status.publish(g, PREFIX, prefix):
            self.line(f"  {statement}")
        self.line("}")
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")
        started = self.fresh("start")
        self.line(f"const {value_type} {started} = {begin};")
        arguments = [loaded, prepared, (started, start_type)]
        stage = staged_in_place(fun.each)
        if stage is not None and _whole_local(loaded[0], self.local_shapes):
            assert isinstance(loaded[0], Memory)
            self.in_place = (stage, loaded[0].name)
        applied, inner = self.bind(fun.each, arguments, env)
        self.emit(applied, inner, _at(sink, g))
        self.line("barrier(CLK_LOCAL_MEM_FENCE);")  # before the next block's local buffers
        self.depth -= 1
        self.line("}")

    def _publish_total(
        self,
        fun: ir.ScanWorkgroups,
        status: StatusWords,
        block: tuple[str, str, str],
        names: tuple[str, str, str, str],
        env: _Env,
    ) -> None:
        """Item 0 publishes the block's total, or the first block's prefix (its start is
        the scan's), and sets up the look-back."""
        g, total, start = block
        begin, more, nearest, have = names
        kind = self.type_of(fun.init, env)
        lid = f"get_local_id({fun.dim})"
        self.line(f"if ({lid} == 0) {{")
        self.line(f"  {have} = 0; {nearest} = {g} - 1; {more} = {g} > 0;")
        self.line(f"  if ({g} == 0) {{ {begin} = {start};")
        for statement in status.publish(g, PREFIX, self._fold_text(fun.f, start, total, kind, env)):
            self.line(f"    {statement}")
        self.line("  } else {")
        for statement in status.publish(g, AGGREGATE, total):
            self.line(f"    {statement}")
        self.line("  }")
        self.line("}")

    def _look_back(
        self,
        fun: ir.ScanWorkgroups,
        status: StatusWords,
        window: tuple[str, str, int],
        names: tuple[str, str, str, str],
        env: _Env,
    ) -> None:
        """Until a prefix is met: the first items each read one earlier block's words
        (the nearest first), then item 0 folds them in order into `acc`, stopping at one
        not yet published (read again from there) or at a prefix (done)."""
        flags, values, width = window
        more, nearest, acc, have = names
        kind = self.type_of(fun.init, env)
        lid = f"get_local_id({fun.dim})"
        by_warp = width == 32 and ir.operator_of(fun.f) in COMMUTATIVE
        if by_warp:
            self.warp_helpers = True
            self.line(f"#if defined({WARP_DEVICE})")
            self._look_back_by_warp(fun, status, names, env)
            self.line("#else")
        flag, value = self.fresh("flag"), self.fresh("value")
        j, k = self.fresh("j"), self.fresh("k")
        self.line(f"while ({more}) {{")
        self.line(f"  if ({lid} < {width}) {{")
        self.line(f"    const {self.index} {j} = {nearest} - ({self.index}){lid};")
        self.line(f"    uint {flag} = 0u; {c_type(kind)} {value} = 0;")
        self.line(f"    if ({j} >= 0) {{")
        for statement in status.read(j, flag, value):
            self.line(f"      {statement}")
        self.line("    }")
        self.line(f"    {flags}[{lid}] = {flag}; {values}[{lid}] = {value};")
        self.line("  }")
        self.line("  barrier(CLK_LOCAL_MEM_FENCE);")
        self.line(f"  if ({lid} == 0) {{")
        self.line(f"    int {k} = 0;")
        self.line(f"    for (; {k} < {width} && {flags}[{k}] != 0u; {k}++) {{")
        folded = self._fold_text(fun.f, f"{values}[{k}]", acc, kind, env)
        self.line(f"      {acc} = {have} ? {folded} : {values}[{k}]; {have} = 1;")
        self.line(f"      if ({flags}[{k}] == {PREFIX}u) {{ {more} = 0u; break; }}")
        self.line("    }")
        self.line(f"    {nearest} -= {k};")
        self.line("  }")
        self.line("  barrier(CLK_LOCAL_MEM_FENCE);")
        self.line("}")
        if by_warp:
            self.line("#endif")

    def _look_back_by_warp(
        self,
        fun: ir.ScanWorkgroups,
        status: StatusWords,
        names: tuple[str, str, str, str],
        env: _Env,
    ) -> None:
        """The look-back of the first warp alone (lookback.py): each round its items read
        the 32 nearest words not yet folded, ballots find the nearest prefix and the
        nearest word not yet written, and a butterfly of shuffles folds the words before
        them into `acc` (a commutative fold: any order). Every item of the warp ends with
        the same `acc`, so item 0 publishes as after the other look-back."""
        more_all, nearest, acc, have = names
        kind = self.type_of(fun.init, env)
        value_type, index = c_type(kind), self.index
        lid = f"(int)get_local_id({fun.dim})"
        more, near, j = self.fresh("wmore"), self.fresh("wnear"), self.fresh("j")
        flag, value = self.fresh("flag"), self.fresh("value")
        unset, prefixes, p, z, m = (self.fresh(n) for n in ("unset", "prefixes", "p", "z", "m"))
        v, ok, s, w, wok = (self.fresh(n) for n in ("v", "ok", "s", "w", "wok"))
        fold_vw = self._fold_text(fun.f, v, w, kind, env)
        fold_acc = self._fold_text(fun.f, v, acc, kind, env)
        lines = [
            f"if ({lid} < 32) {{",
            f"  {have} = 0; uint {more} = {more_all}; {index} {near} = {nearest};",
            f"  while ({more}) {{",
            f"    const {index} {j} = {near} - ({index}){lid};",
            f"    uint {flag} = 0u; {value_type} {value} = 0;",
            f"    if ({j} >= 0) {{",
            *(f"      {statement}" for statement in status.read(j, flag, value)),
            "    }",
            f"    const uint {unset} = idiom_ballot({flag} == 0u);",
            f"    const uint {prefixes} = idiom_ballot({flag} == {PREFIX}u);",
            f"    const int {p} = {prefixes} ? idiom_lowest({prefixes}) : 32;",
            f"    const int {z} = {unset} ? idiom_lowest({unset}) : 32;",
            f"    const int {m} = {p} < {z} ? {p} + 1 : {z};",
            f"    {value_type} {v} = {value}; int {ok} = {lid} < {m};",
            f"    for (int {s} = 16; {s} > 0; {s} >>= 1) {{",
            f"      const {value_type} {w} = idiom_shfl_xor_{value_type}({v}, {s});",
            f"      const int {wok} = idiom_shfl_xor_int({ok}, {s});",
            f"      {v} = {ok} && {wok} ? {fold_vw} : {ok} ? {v} : {w};",
            f"      {ok} = {ok} | {wok};",
            "    }",
            f"    if ({ok}) {{ {acc} = {have} ? {fold_acc} : {v}; {have} = 1; }}",
            f"    {near} -= {m};",
            f"    {more} = {p} >= {z};",
            "  }",
            "}",
        ]
        for line in lines:
            self.line(line)

    def _fold_text(self, f: ir.Fun, left: str, right: str, kind: Type, env: _Env) -> str:
        """`f` applied to two values given as C text, as C text."""
        applied, inner = self.bind(f, [(left, kind), (right, kind)], env)
        return text_of(self.value(applied, inner), "a fold")

    def _local_rounds(self, fun: ir.Fun, length: Size) -> int | None:
        """How many rounds a map-local of a constant length takes in work-groups of the
        known size (dimension 0, the only one `reqd_work_group_size` fixes), where that
        is more than one; None otherwise."""
        constant = length.constant
        if not isinstance(fun, ir.MapLocal) or fun.dim != 0 or self.work_group is None:
            return None
        if constant is None or constant <= self.work_group:
            return None
        return -(-constant // self.work_group)

    def _one_each(self, fun: ir.Fun, length: Size) -> bool:
        """Whether each item (map-local) or group (map-workgroup) of the known launch
        takes one element at most: a map-local of a constant length up to the
        work-group's size, a map-workgroup (one group an element, by contract), or, in a
        covered launch, a map-global inside one of a higher dimension (any, where the
        highest is covered too)."""
        if isinstance(fun, ir.MapGlobal) and self.covered:
            inner = self.covers_highest or any(outer > fun.dim for outer in self.globals_open)
            self.relies_on_cover |= inner
            return inner
        if self.work_group is None:
            return False
        if isinstance(fun, ir.MapWorkgroup):
            return True
        constant = length.constant
        return isinstance(fun, ir.MapLocal) and constant is not None and constant <= self.work_group

    def reduce(
        self,
        f: ir.Fun,
        init: ir.Expr,
        x: ir.Expr,
        env: _Env,
        sink: Element,
        *,
        prefixes: str = "",
    ) -> None:
        """A sequential fold; with `prefixes` (scan-seq), the running value "before" or
        "after" each element is folded is stored at that element's place, and nothing
        after the loop."""
        xs = self.value(x, env)
        kind = self.type_of(x, env)
        assert isinstance(kind, Array)
        start_type = self.type_of(init, env)
        start = self.value(init, env)
        lanes = start_type.elements if isinstance(start_type, Tuple) else (start_type,)
        starts = start.items if isinstance(start, TupleValue) else (start,)
        names = [self.fresh("acc") for _ in lanes]
        for name, lane, first in zip(names, lanes, starts, strict=True):
            self.line(f"{c_type(lane)} {name} = {text_of(first, 'init')};")
        acc: Element = TupleValue(tuple(names)) if isinstance(start_type, Tuple) else names[0]
        j = self.fresh("j")
        length = self.size_text(kind.length)
        self.sizes |= kind.length.variables
        # A segment's fold counts in `long`, as its length is (on the H200 a JDS product's
        # rows ran 2% faster than counted in `int`: docs/lift.md).
        counter = "long" if kind.length.variables & self.segments else self.index
        self.line(f"for ({counter} {j} = 0; {j} < {length}; {j}++) {{")
        self.depth += 1
        self.sequential += 1
        applied, inner = self.bind(f, [(acc, start_type), (_at(xs, j), kind.element)], env)
        result = self.value(applied, inner)
        results = result.items if isinstance(result, TupleValue) else (result,)
        temporaries = [self.fresh("next") for _ in lanes]  # every lane from the old values
        for temporary, lane, value in zip(temporaries, lanes, results, strict=True):
            self.line(f"{c_type(lane)} {temporary} = {text_of(value, 'a reduction')};")
        if prefixes == "before":  # after the element is read: the sink may be the input
            self.store(_at(sink, j), acc)
        for name, temporary in zip(names, temporaries, strict=True):
            self.line(f"{name} = {temporary};")
        if prefixes == "after":
            self.store(_at(sink, j), acc)
        self.sequential -= 1
        self.depth -= 1
        self.line("}")
        if not prefixes:
            self.store(_at(sink, "0"), acc)


def _guarded(element: Element, condition: str) -> Element:
    """`element`'s places stored only where `condition` holds too."""
    match element:
        case Cell(text, vector, guard):
            both = f"({guard}) && {condition}" if guard else condition
            return Cell(text, vector, both)
        case TupleValue(items):
            return TupleValue(tuple(_guarded(item, condition) for item in items))
        case Lazy(element_at):
            return Lazy(lambda i: _guarded(element_at(i), condition))
    raise LiftError("map-lanes writes its elements into memory")


def _whole_local(element: Element, shapes: Mapping[str, tuple[str, int]]) -> bool:
    """Whether `element` is a whole local buffer seen as one array from its start."""
    return (
        isinstance(element, Memory)
        and element.name in shapes
        and element.offset == "0"
        and not element.index
        and not element.limit
        and len(element.strides) == 1
        and unit_stride(element.strides[0])
    )


def _names(name: str, text: str) -> bool:
    """Whether `text` names the C identifier `name`."""
    return re.search(rf"\b{re.escape(name)}\b", text) is not None


def _split_index(i: str, j: str, n: str) -> str:
    """The index of element j of part i of a split into parts of n: `i*n + j`, or k
    itself where i and j are a join's `(k) / n` and `(k) % n` (a split of a join of the
    same size)."""
    return rejoined(f"({i})*{n}", j) or f"({i})*{n} + ({j})"


def _at(element: Element, index: str) -> Element:
    if isinstance(element, Memory | Lazy | VectorMemory):
        return element.at(index)
    if isinstance(element, TupleValue):  # an array of tuples kept as one array per lane
        return TupleValue(tuple(_at(item, index) for item in element.items))
    raise LiftError("an index into a value that is not an array")


def _indices(dim: int, depth: int, chosen: tuple[str, ...]) -> Element:
    """The view of `(indices dim ...)`: the index of dimension `dim`, as a long."""
    if len(chosen) == depth:
        return f"((long)({chosen[dim]}))"
    return Lazy(lambda i: _indices(dim, depth, (*chosen, i)))


def _inside(index: str, left: int, length: str, none_right: bool = False) -> str:
    """C: `index` falls on the padded array's own elements. Indices are never negative
    nor past the padded array's end, so with nothing added on the left only the end is
    tested, and with nothing added on the right only the start (a scan's step `pad d 0`:
    one comparison an element, as a hand-written `lid >= d` has)."""
    if left == 0:
        return f"(({index}) < {length})"
    if none_right:
        return f"(({index}) >= {left})"
    return f"(({index}) >= {left} && ({index}) < {left} + {length})"


def _shifted(index: str, left: int) -> str:
    return index if left == 0 else f"({index}) - {left}"


def _choose(condition: str, inside: Element, edge: Element) -> Element:
    """`inside` where `condition` holds, else `edge`: lane by lane for tuples."""
    if isinstance(inside, TupleValue) and isinstance(edge, TupleValue):
        pairs = zip(inside.items, edge.items, strict=True)
        return TupleValue(tuple(_choose(condition, a, b) for a, b in pairs))
    return f"({condition} ? {text_of(inside, 'pad')} : {text_of(edge, 'pad')})"


def _lanes_of(kind: Type) -> list[Scalar] | None:
    """The scalars of an array of tuples of scalars (kept one buffer per lane), else None."""
    while isinstance(kind, Array):
        kind = kind.element
    if isinstance(kind, Tuple):
        lanes = [e for e in kind.elements if isinstance(e, Scalar)]
        if len(lanes) != len(kind.elements):
            raise LiftError("only tuples of scalars are kept in memory")
        return lanes
    return None


def _unlowered(expression: ir.Expr) -> bool:
    return isinstance(expression, ir.Apply) and isinstance(
        expression.fun, ir.Map | ir.Reduce | ir.Scan
    )


def _size_variables(program: ir.Lambda) -> set[str]:
    names: set[str] = set()
    for param in program.params:
        if param.type is not None:
            names |= _size_names(param.type)
    return names


def _size_names(kind: Type) -> set[str]:
    names: set[str] = set()
    while isinstance(kind, Array):
        names |= kind.length.variables
        kind = kind.element
    if isinstance(kind, Tuple):
        for element in kind.elements:
            names |= _size_names(element)
    return names


_VECTOR_TRUE = {"<", "<=", ">", ">=", "==", "!="}  # OpenCL's vector comparisons give -1


def _in_double(name: str, args: list[str], width: int | None) -> str:
    """A float function computed in double and rounded once: OpenCL's float sqrt, exp, ...
    may be 3 ulp or more off, where C's libm is within about half of one (a time loop
    calling expf would drift from the original); the double result rounded to float is
    the correctly rounded one (sqrt) or nearly always so."""
    if width is None:
        return f"((float){name}({', '.join(f'(double)({a})' for a in args)}))"
    widened = ", ".join(f"convert_double{width}({a})" for a in args)
    return f"convert_float{width}({name}({widened}))"


# An atomic `*cell += v` per element type: integers by the device's atomics, floating
# point values by a compare-and-swap of their bits. The cell is read once, plainly; a
# swap that fails returns the value it found, which the next attempt starts from (a
# volatile read at every attempt bypasses the cache: 20% slower on an H200).
_ATOMIC_ADD = {
    "i8": "idiom_add_narrow((__global uchar*){cell}, (uint)({v}), 1);",
    "i16": "idiom_add_narrow((__global uchar*){cell}, (uint)({v}), 2);",
    "i32": "atomic_add((volatile {space} int*){cell}, {v});",
    "i64": "atom_add((volatile {space} long*){cell}, {v});",
    "f32": (
        "{{ volatile {space} uint* lk_at = (volatile {space} uint*){cell}; "
        "union {{ uint u; float f; }} lk_old, lk_new; uint lk_seen = *({space} uint*){cell}; "
        "do {{ lk_old.u = lk_seen; lk_new.f = lk_old.f + {v}; "
        "lk_seen = atomic_cmpxchg(lk_at, lk_old.u, lk_new.u); }} while (lk_seen != lk_old.u); }}"
    ),
    "f64": (
        "{{ volatile {space} ulong* lk_at = (volatile {space} ulong*){cell}; "
        "union {{ ulong u; double f; }} lk_old, lk_new; ulong lk_seen = *({space} ulong*){cell}; "
        "do {{ lk_old.u = lk_seen; lk_new.f = lk_old.f + {v}; "
        "lk_seen = atom_cmpxchg(lk_at, lk_old.u, lk_new.u); }} while (lk_seen != lk_old.u); }}"
    ),
}


# A read `name[(position) + offset]` (views.Memory.place), the offset one size or number.
_POSITIONED = re.compile(
    r"(?P<name>[A-Za-z_]\w*)\[\((?P<position>.*)\) \+ (?P<offset>\(?[A-Za-z_0-9]\w*\)?)\]"
)


class _NoPointers(LiftError):
    """A run's lanes cannot be read through pointers: `generate` writes it without."""


# A carried lane in a run of partial sums: never read (were it written, the build fails).
_CARRIED_NOT_READ = "__carried_lane_not_read"
_NARROW = ("i8", "i16")
_I32 = Scalar("i32")
# OpenCL has no atomic add for bytes or shorts: the 32-bit word that holds the bin is
# swapped instead, only the bin's bits changed (the sum's carry out of them masked off:
# modulo 2^8 or 2^16, as the loop's own adds wrap). The word starts inside the buffer
# (buffers are aligned) and may end up to 3 bytes past its last bin: the runtime
# allocates every device buffer in whole 8-byte words (idiom__pool_take).
NARROW_ATOMICS = """void idiom_add_narrow(__global uchar* cell, uint value, uint width) {
  const size_t address = (size_t)cell;
  volatile __global uint* word = (volatile __global uint*)(address & ~(size_t)3);
#ifdef __ENDIAN_LITTLE__
  const uint shift = 8u * (uint)(address & 3);
#else
  const uint shift = 8u * (uint)(4 - width - (address & 3));
#endif
  const uint mask = (width == 1 ? 0xffu : 0xffffu) << shift;
  uint seen = *(__global uint*)word;
  uint old;
  do {
    old = seen;
    seen = atomic_cmpxchg(word, old, (old & ~mask) | ((old + (value << shift)) & mask));
  } while (seen != old);
}
"""
# An atomic add of a double in global memory. NVIDIA's OpenCL compiler (which defines
# __NV_CL_C_VERSION) has its devices add it in memory, by PTX's `red.global.add.f64`
# (sm_60 and later): rounded to nearest even as the swap loop's add is, subnormals kept
# (the f32 form flushes them, so floats keep the loop). On an H200 that scattered a COO
# product 3.6 times as fast, and 340 times into 256 rows (benchmarks/float_atomics_probe.py).
# Elsewhere it is `_ATOMIC_ADD`'s swap loop.
DOUBLE_ATOMICS = (
    """#ifdef __NV_CL_C_VERSION
void idiom_add_double(__global double* cell, double value) {
  asm volatile("red.global.add.f64 [%0], %1;" :: "l"(cell), "d"(value) : "memory");
}
#else
void idiom_add_double(__global double* cell, double value) {
  """
    + _ATOMIC_ADD["f64"].format(cell="cell", v="value", space="__global")
    + """
}
#endif
"""
)
INT64_ATOMICS = (
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
)
_WRAPPING = ("+", "-", "*")
# Operations on the unsigned reading of an integer's bits: the operator, and whether its
# right operand is read as unsigned too (a shift's amount is not).
_UNSIGNED_OPS = {"shl": ("<<", False), "lshr": (">>", False), "udiv": ("/", True),
                 "urem": ("%", True)}  # fmt: skip
_UNSIGNED_COMPARE = {"ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}
_UNSIGNED = {"i8": "uchar", "i16": "ushort", "i32": "uint", "i64": "ulong"}


def _op_text(name: str, args: list[str], types: list[Type]) -> str:
    vector = next((t for t in types if isinstance(t, Vector)), None)
    scalar = vector.element if vector is not None else types[0]
    floating = isinstance(scalar, Scalar) and scalar.name in ("f32", "f64")
    if name == "%" and floating:
        return f"fmod({args[0]}, {args[1]})"
    if name in _VECTOR_TRUE and vector is not None:
        return f"(-({args[0]} {_INFIX[name]} {args[1]}))"  # true as 1, as for scalars
    if (
        name in _WRAPPING
        and vector is None
        and isinstance(scalar, Scalar)
        and scalar.name in _UNSIGNED
    ):
        # Two's complement, as LLVM's add/sub/mul: OpenCL C's signed overflow is undefined.
        unsigned, kind = _UNSIGNED[scalar.name], c_type(scalar)
        return f"(({kind})(({unsigned}){args[0]} {name} ({unsigned}){args[1]}))"
    if name in _UNSIGNED_OPS and isinstance(scalar, Scalar) and scalar.name in _UNSIGNED:
        unsigned, kind = _UNSIGNED[scalar.name], c_type(scalar)
        operator, right = _UNSIGNED_OPS[name]
        b = f"({unsigned}){args[1]}" if right else args[1]
        return f"(({kind})(({unsigned}){args[0]} {operator} {b}))"
    if name in _UNSIGNED_COMPARE and isinstance(scalar, Scalar) and scalar.name in _UNSIGNED:
        if vector is not None:
            raise LiftError(f"no OpenCL {name} of vectors")
        unsigned = _UNSIGNED[scalar.name]
        return f"(({unsigned}){args[0]} {_UNSIGNED_COMPARE[name]} ({unsigned}){args[1]})"
    if name == "ashr":  # OpenCL shifts a signed integer arithmetically
        return f"({args[0]} >> {args[1]})"
    if name == "u64":
        return f"((long)(uint)({args[0]}))"
    if name in ("uf32", "uf64") and isinstance(scalar, Scalar) and scalar.name in _UNSIGNED:
        floating_type = "float" if name == "uf32" else "double"
        return f"(({floating_type})({_UNSIGNED[scalar.name]})({args[0]}))"
    if name in _INFIX:
        return f"({args[0]} {_INFIX[name]} {args[1]})"
    if name == "neg":
        return f"(-({args[0]}))"
    if name == "not":
        return f"(!{args[0]})"
    if name in ("min", "max"):
        return f"{'f' if floating else ''}{name}({args[0]}, {args[1]})"
    if name == "abs":  # OpenCL's integer abs is unsigned: back to the operand's type
        return f"fabs({args[0]})" if floating else f"(({c_type(types[0])})abs({args[0]}))"
    if name in _EXACT and not floating:
        return args[0]
    if name in _CALLS:
        if not floating:
            raise LiftError(f"no OpenCL {name} of integers")
        if scalar == Scalar("f32") and name not in _EXACT:
            return _in_double(name, args, vector.width if vector is not None else None)
        return f"{name}({', '.join(args)})"
    if name == "select" and vector is not None:
        # A vector's select picks by each lane's sign bit: true (1, as for scalars) negated;
        # its choices are vectors of the condition's width (a scalar one is broadcast).
        picked = next((t for t in types[1:] if isinstance(t, Vector)), None)
        element = picked.element if picked is not None else types[1]
        assert isinstance(element, Scalar)
        kind = c_type(Vector(element, vector.width))
        then, otherwise = (f"(({kind}){a})" for a in args[1:])
        return f"select({otherwise}, {then}, -({args[0]}))"
    if name == "select":
        return f"({args[0]} ? {args[1]} : {args[2]})"
    if name in _C_SCALARS:
        if isinstance(types[0], Vector):
            return f"convert_{_C_SCALARS[name]}{types[0].width}({args[0]})"
        return f"(({_C_SCALARS[name]}){args[0]})"
    raise LiftError(f"no OpenCL for the operation {name}")
