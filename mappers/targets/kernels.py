"""OpenCL C from matched IR: the per-iteration computation of a region as kernel code.

`KernelBody` translates the values an iteration computes (the reduction's operand, the
stencil's stored value, the histogram's bin and increment) into OpenCL C statements,
one variable per IR value, and collects what the kernel needs from the host: scalars
fixed before the region, and reads from memory at affine addresses. Reads that start
from the same pointer with the same element type share one buffer (a 27-point stencil
copies its grid once); each read is then an index `offset + sum(t_d * stride_d)` into
it, with the offset and strides measured at run time (mappers/plan/access.py).

`launch` emits the IR that fills the runtime's `idiom_arg` array and calls
`idiom_cl_run`, with the kernel source as a constant string of the module.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.opencl.generate import Kernel, Output, generate
from mappers.plan.access import Access, apart, element_size, measure
from mappers.plan.loops import LoopView
from mappers.plan.region import Region
from mappers.rewrite.emit import I1, I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import ModuleText, Operand
from matcher.ir import Value, ValueKind

__all__ = [
    "CONTINUES",
    "HANDOFF",
    "PUBLISH_RANGE",
    "SCALAR",
    "SCRATCH",
    "BufferGroup",
    "KernelArg",
    "KernelBody",
    "as_check",
    "buffer_arg",
    "buffer_declaration",
    "c_type",
    "fits_int",
    "group_lengths",
    "launch",
    "long_and_int",
    "pack_params",
    "param_prelude",
    "publish_range",
    "range_cells",
    "read_cells",
    "scratch_args",
    "size_args",
    "sizes_fit",
    "status_when",
]

_C_TYPES = {
    "i1": "int",
    "i8": "char",
    "i16": "short",
    "i32": "int",
    "i64": "long",
    "float": "float",
    "double": "double",
}
_UNSIGNED = {"char": "uchar", "short": "ushort", "int": "uint", "long": "ulong"}
_ARITH = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^"}
_FLOAT_ARITH = {"fadd": "+", "fsub": "-", "fmul": "*", "fdiv": "/"}
_ICMP = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}
_ORDERED = {"oeq": "==", "olt": "<", "ole": "<=", "ogt": ">", "oge": ">=", "une": "!="}
_UNORDERED = {"ult": ">=", "ule": ">", "ugt": "<=", "uge": "<", "ueq": "!="}  # negated
# Pure functions an iteration may call, by LLVM name prefix, with their OpenCL spelling.
_CALLS = {
    "llvm.fabs.": "fabs",
    "llvm.sqrt.": "sqrt",
    "llvm.minnum.": "fmin",
    "llvm.maxnum.": "fmax",
    "llvm.floor.": "floor",
    "llvm.ceil.": "ceil",
    "llvm.trunc.": "trunc",
    "llvm.exp.": "exp",
    "llvm.log.": "log",
    "llvm.sin.": "sin",
    "llvm.cos.": "cos",
    "llvm.pow.": "pow",
    "llvm.smax.": "max",
    "llvm.smin.": "min",
    "llvm.abs.": "abs",
    "fabs": "fabs",
    "fabsf": "fabs",
    "sqrt": "sqrt",
    "sqrtf": "sqrt",
    "exp": "exp",
    "expf": "exp",
    "log": "log",
    "logf": "log",
    "sin": "sin",
    "sinf": "sin",
    "cos": "cos",
    "cosf": "cos",
    "pow": "pow",
    "powf": "pow",
    "fmin": "fmin",
    "fminf": "fmin",
    "fmax": "fmax",
    "fmaxf": "fmax",
    "tanh": "tanh",
    "tanhf": "tanh",
}
# Functions whose float result OpenCL gives exactly, as C does.
_EXACT_CALLS = {"fabs", "fmin", "fmax", "floor", "ceil", "trunc", "max", "min", "abs"}


def c_type(type_text: str) -> str:
    try:
        return _C_TYPES[type_text]
    except KeyError:
        raise NotReplaced(f"no kernel type for {type_text} values") from None


@dataclass(frozen=True)
class KernelArg:
    """One kernel parameter: its OpenCL declaration and how the host passes it."""

    declaration: str
    kind: int  # IDIOM_ARG_*
    value: Operand | None = None  # a scalar's value, or a buffer's host start (ptr)
    bytes: Operand | None = None  # a buffer's size in bytes
    flags: int = 0  # RESIDENT for a buffer that may stay on the device; CONTINUES
    definition: str = ""  # a resident buffer's name, defined from its buffer and offset
    # Or, offset in elements (`in_elements`): that definition and the flags saying so.
    element_definition: str = ""
    element_flags: int = 0
    # A generated kernel's sizes packed in one argument (`Kernel.packed_sizes`), in order:
    # an array of ints where the launched kernel computes with ints (`Kernel.index`), of
    # longs otherwise (`launch` chooses at run time).
    packed: tuple[Operand, ...] = ()


@dataclass
class BufferGroup:
    """Reads (or the write) sharing one buffer: same root pointer, same element type."""

    name: str
    element: str
    written: bool = False
    accesses: list[Access] = field(default_factory=list)
    low: Operand | None = None
    high: Operand | None = None
    bytes: Operand | None = None


class KernelBody:
    """Translates the iteration's computation; `t{d}` are the iteration numbers."""

    def __init__(
        self,
        builder: Builder,
        region: Region,
        loops: Sequence[LoopView],
        counts: Sequence[Operand],
        *,
        shared_strides: bool = False,
    ) -> None:
        self.builder = builder
        # With shared strides, a buffer's reads move together (a stencil's neighbours):
        # the kernel computes the point's index once per buffer and adds each read's
        # offset; the guard checks at run time that the strides are indeed the same.
        self.shared_strides = shared_strides
        self.region = region
        self.loops = list(loops)
        self.counts = list(counts)
        self.lines: list[str] = []
        self.names: dict[Value, str] = {}
        self.scalars: list[tuple[str, Value]] = []
        self.groups: dict[tuple[Value, str, bool], BufferGroup] = {}
        self.reads: list[tuple[str, Access]] = []  # (index variable, access)
        # Addresses whose loads read the element a work-item writes, from the written
        # buffer (a stencil's point updated: a[i] = a[i] + ...): the C expression.
        self.own_points: dict[Value, str] = {}
        # Each load translated from a buffer: its group and its index's name (`iK`, whose
        # offset `iK_o` and the group's strides are the kernel's parameters).
        self.read_of: dict[Value, tuple[BufferGroup, str]] = {}
        for depth, loop in enumerate(self.loops):
            self.names[loop.iterator] = self._iterator(depth, loop)

    def _iterator(self, depth: int, loop: LoopView) -> str:
        kind = c_type(loop.iterator.type)
        begin = self.scalar(loop.iter_begin)
        name = f"it{depth}"
        self.lines.append(f"{kind} {name} = ({kind})((long){begin} + t{depth} * {loop.step}L);")
        return name

    def scalar(self, value: Value) -> str:
        """A value fixed before the region, passed by value."""
        if value.kind is ValueKind.CONSTANT:
            return _literal(value)
        if value in self.names:
            return self.names[value]
        c_type(value.type)
        name = f"s{len(self.scalars)}"
        self.scalars.append((name, value))
        self.names[value] = name
        return name

    def value(self, value: Value) -> str:
        """The C expression (a variable or literal) of `value` for the current iteration."""
        if value in self.names:
            return self.names[value]
        if (
            not value.is_instruction
            or value.block not in self.region.blocks
            or value in self.builder.known  # a fixed value, loaded once before the region
        ):
            return self.scalar(value)
        text = self._expression(value)
        name = f"v{len(self.names)}"
        self.lines.append(f"{c_type(value.type)} {name} = {text};")
        self.names[value] = name
        return name

    def _expression(self, value: Value) -> str:
        opcode = value.opcode or ""
        if opcode == "load":
            return self._load(value)
        if opcode == "phi":
            raise NotReplaced(f"{value.name} depends on control flow or an earlier iteration")
        args = [
            self.value(o)
            for o in value.operands
            if opcode != "call" or o.kind is not ValueKind.GLOBAL
        ]
        kind = c_type(value.type)
        if opcode in _ARITH:
            unsigned = _UNSIGNED.get(kind, kind)
            return f"({kind})(({unsigned}){args[0]} {_ARITH[opcode]} ({unsigned}){args[1]})"
        if opcode in _FLOAT_ARITH:
            return f"{args[0]} {_FLOAT_ARITH[opcode]} {args[1]}"
        if opcode == "fneg":
            return f"-{args[0]}"
        if opcode in ("sdiv", "srem"):
            return f"{args[0]} {'/' if opcode == 'sdiv' else '%'} {args[1]}"
        if opcode in ("udiv", "urem", "lshr", "shl"):
            symbol = {"udiv": "/", "urem": "%", "lshr": ">>", "shl": "<<"}[opcode]
            unsigned = _UNSIGNED.get(kind, kind)
            return f"({kind})(({unsigned}){args[0]} {symbol} ({unsigned}){args[1]})"
        if opcode == "ashr":
            return f"{args[0]} >> {args[1]}"
        if opcode in ("icmp", "fcmp"):
            return self._compare(value, args)
        if opcode == "select":
            return f"{args[0]} ? {args[1]} : {args[2]}"
        if opcode == "trunc" and value.type == "i1":  # the low bit, as LLVM takes it
            return f"({args[0]} & 1)"
        if opcode == "sext" and value.operands[0].type == "i1":  # true is -1
            return f"-({kind}){args[0]}"
        if opcode in ("sext", "trunc", "sitofp", "fptosi", "fpext", "fptrunc"):
            return f"({kind}){args[0]}"
        if opcode in ("zext", "uitofp"):
            source = c_type(value.operands[0].type)
            if value.operands[0].type == "i1":
                return f"({kind}){args[0]}"
            return f"({kind})(({_UNSIGNED.get(source, source)}){args[0]})"
        if opcode == "fptoui":
            return f"({kind})(({_UNSIGNED.get(kind, kind)}){args[0]})"
        if opcode == "freeze":
            return args[0]
        if opcode == "call":
            return self._call(value, args)
        raise NotReplaced(f"no kernel translation for {opcode} ({value.name})")

    def _compare(self, value: Value, args: list[str]) -> str:
        predicate = value.predicate or ""
        if predicate in _ICMP:
            return f"({args[0]} {_ICMP[predicate]} {args[1]})"
        if predicate in ("ult", "ule", "ugt", "uge") and value.opcode == "icmp":
            kind = c_type(value.operands[0].type)
            unsigned = _UNSIGNED.get(kind, kind)
            symbol = {"ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}[predicate]
            return f"(({unsigned}){args[0]} {symbol} ({unsigned}){args[1]})"
        if predicate in _ORDERED:
            return f"({args[0]} {_ORDERED[predicate]} {args[1]})"
        if predicate in _UNORDERED:
            return f"(!({args[0]} {_UNORDERED[predicate]} {args[1]}))"
        raise NotReplaced(f"no kernel translation for the comparison {predicate}")

    def _call(self, value: Value, args: list[str]) -> str:
        callee = value.callee or ""
        for prefix, spelling in _CALLS.items():
            if callee == prefix or (prefix.endswith(".") and callee.startswith(prefix)):
                if value.type == "float" and spelling not in _EXACT_CALLS:
                    # OpenCL's float functions may be several ulp off where libm's are
                    # within about half of one: computed in double, rounded once.
                    widened = ", ".join(f"(double){a}" for a in args)
                    return f"(float){spelling}({widened})"
                return f"{spelling}({', '.join(args)})"
        raise NotReplaced(f"no kernel translation for a call to {callee}")

    def _load(self, load: Value) -> str:
        if load.operands[0] in self.own_points:
            return self.own_points[load.operands[0]]
        return self.load_as(load, load.type)

    def load_as(self, load: Value, element: str) -> str:
        """The C expression of `load` reading its bytes as `element` (a pointer read as
        the integer i64: its address)."""
        group = self.group(_root(load.operands[0], self.region), element)
        index = self.index(load.operands[0], element, group)
        self.read_of[load] = (group, self.reads[-1][0])
        return f"{group.name}[{index}]"

    def index(self, address: Value, element: str, group: BufferGroup) -> str:
        """The element index of an affine `address` in `group`'s buffer."""
        c_type(element)
        access = measure(
            self.builder,
            self.region,
            address,
            loops=self.loops,
            counts=self.counts,
            element_type=element,
        )
        group.accesses.append(access)
        index = f"i{len(self.reads)}"
        self.reads.append((index, access))
        if not self.shared_strides:
            terms = "".join(f" + t{d} * {index}_s{d}" for d in range(len(self.loops)))
            return f"{index}_o{terms}"
        if len(group.accesses) == 1:
            terms = " + ".join(f"t{d} * {group.name}_s{d}" for d in range(len(self.loops)))
            self.lines.append(f"const long {group.name}_point = {terms or '0'};")
        return f"{index}_o + {group.name}_point"

    def group(self, root: Value, element: str, *, written: bool = False) -> BufferGroup:
        key = (root, element, written)
        if key not in self.groups:
            self.groups[key] = BufferGroup(f"g{len(self.groups)}", element, written=written)
        return self.groups[key]

    def close_groups(self) -> None:
        """Emit each group's byte range: the union of its accesses' ranges."""
        for group in self.groups.values():
            low, high = group.accesses[0].low, group.accesses[0].high
            for access in group.accesses[1:]:
                low = self.builder.select(
                    self.builder.compare("slt", access.low, low), access.low, low
                )
                high = self.builder.select(
                    self.builder.compare("sgt", access.high, high), access.high, high
                )
            group.low, group.high = low, high
            group.bytes = self.builder.binary("sub", high, low)

    def read_params(self) -> tuple[list[tuple[str, Operand]], Operand]:
        """Offsets and strides of every indexed access, in elements, and the condition
        that they are whole elements from the start of their group's buffer."""
        builder = self.builder
        params: list[tuple[str, Operand]] = []
        checks: list[Operand] = []
        group_of = {id(a): g for g in self.groups.values() for a in g.accesses}
        for index, access in self.reads:
            group = group_of[id(access)]
            assert group.low is not None
            offset = builder.binary("sub", builder.to_i64(access.first), group.low)
            size = const(I64, access.element_size)
            for amount in (offset, *access.strides):
                remainder = builder.binary("srem", amount, size)
                checks.append(builder.compare("eq", remainder, const(I64, 0)))
            params.append((f"{index}_o", builder.binary("sdiv", offset, size)))
            if not self.shared_strides:
                for d, stride in enumerate(access.strides):
                    params.append((f"{index}_s{d}", builder.binary("sdiv", stride, size)))
                continue
            leader = group.accesses[0]
            for d, stride in enumerate(access.strides):
                if access is leader:
                    params.append((f"{group.name}_s{d}", builder.binary("sdiv", stride, size)))
                else:
                    checks.append(builder.compare("eq", stride, leader.strides[d]))
        return params, builder.all_of(checks)

    def apart_from_reads(
        self,
        written: BufferGroup | tuple[Operand, Operand],
        read_first: Collection[BufferGroup] = (),
    ) -> list[Operand]:
        """i1 per group read: its range does not overlap `written` (a group, or a byte
        range low, high), or, for a group of `read_first` (every read of it comes before
        every store of `written` in the iteration), both are one access at the same
        addresses point for point (same first address and strides, same element: `w[i] =
        x[i] + ...` called with `w == x`): each work-item then reads only the element it
        writes, before writing it, and no other work-item touches it. A read after the
        store would see the value stored, which a copy of the group read does not hold."""
        if isinstance(written, BufferGroup):
            assert written.low is not None and written.high is not None
            target = (written.low, written.high)
        else:
            target = written
        checks = []
        for group in self.groups.values():
            if group is written:
                continue
            assert group.low is not None and group.high is not None
            separate = apart(self.builder, target, (group.low, group.high))
            first = any(group is g for g in read_first)
            if first and isinstance(written, BufferGroup) and _pointwise_candidates(written, group):
                same = _same_points(self.builder, written.accesses[0], group.accesses[0])
                separate = self.builder.binary("or", separate, same)
            checks.append(separate)
        return checks

    def buffer_args(self) -> list[KernelArg]:
        """One buffer per group: read-only, or copied in and out when written."""
        return [
            buffer_arg(g, 2 if g.written else 0, const_data=not g.written)
            for g in self.groups.values()
        ]

    def scalar_args(self) -> list[KernelArg]:
        return [
            KernelArg(
                f"{c_type(v.type)} {name}",
                SCALAR,
                self.builder.ref(v),
                const(I64, element_size(v.type)),
            )
            for name, v in self.scalars
        ]


def _pointwise_candidates(written: BufferGroup, read: BufferGroup) -> bool:
    return (
        len(written.accesses) == 1
        and len(read.accesses) == 1
        and written.element == read.element
        and len(written.accesses[0].strides) == len(read.accesses[0].strides)
    )


def _same_points(builder: Builder, one: Access, other: Access) -> Operand:
    """i1: `one` and `other` touch the same address at every point."""
    checks = [builder.compare("eq", builder.to_i64(one.first), builder.to_i64(other.first))]
    checks += [builder.compare("eq", a, b) for a, b in zip(one.strides, other.strides, strict=True)]
    return builder.all_of(checks)


def param_prelude(params: Sequence[tuple[str, Operand]]) -> list[str]:
    """Kernel lines reading the packed parameters (see `pack_params`)."""
    return [f"const long {name} = P[{k}];" for k, (name, _) in enumerate(params)]


def pack_params(builder: Builder, params: Sequence[tuple[str, Operand]]) -> KernelArg:
    """Offsets and strides go in one buffer of longs, `P`: a 27-point stencil has more of
    them than a kernel may take as arguments. Emit where the stack is saved/restored."""
    count = max(len(params), 1)
    array = builder.emit("ptr", f"alloca i64, i32 {count}")
    for k, (_, value) in enumerate(params):
        cell = builder.emit("ptr", f"getelementptr i64, ptr {array.ref}, i32 {k}")
        builder.statement(f"store {value}, ptr {cell.ref}")
    return KernelArg("__global const long* restrict P", 0, array, const(I64, 8 * count))


RESIDENT = 1  # IDIOM_ARG_RESIDENT
ANY_RANGE = 0x100  # idiom_runtime.h's IDIOM_CL_ANY_RANGE, or'ed into the dimensions
FILL = 0x200  # idiom_runtime.h's IDIOM_CL_FILL: a grid the runtime may widen to fill a GPU
WIDE = 0x400  # IDIOM_CL_WIDE: and its work-groups too, where it fills
COVERED_TWIN = 0x800  # IDIOM_CL_COVERED_TWIN: the source defines `<kernel>_covered` too
ELEMENTS_SHIFT = 8  # IDIOM_ARG_ELEMENTS(k): (k + 1) << 8, a resident buffer's offset in elements
CONTINUES = 2  # IDIOM_ARG_CONTINUES: written by the launch just before, which this one finishes
HANDOFF = 4  # IDIOM_ARG_HANDOFF: an output only the next launch reads (it may stay on the device)
SCALAR = 3  # IDIOM_ARG_SCALAR: by value
LOCAL = 4  # IDIOM_ARG_LOCAL
SCRATCH = 5  # IDIOM_ARG_SCRATCH: a zeroed device buffer that the host never sees


def buffer_arg(group: BufferGroup, kind: int, *, const_data: bool) -> KernelArg:
    """A user array's buffer. It may stay on the device between calls (the runtime's
    residency), inside a larger buffer: the kernel takes that buffer and the byte offset of
    the group's start in it, and the group's name is a macro for the start."""
    assert group.low is not None and group.high is not None
    qualifier = "const " if const_data else ""
    pointer = f"__global {qualifier}{c_type(group.element)}*"
    name = group.name
    shift = element_size(group.element).bit_length() - 1
    return KernelArg(
        buffer_declaration(name, const_data=const_data),
        kind,
        group.low,
        group.bytes,
        flags=RESIDENT,
        definition=f"#define {name} (({pointer})({name}_mem + {name}_at))",
        element_definition=f"#define {name} ((({pointer}){name}_mem) + {name}_at)",
        element_flags=(shift + 1) << ELEMENTS_SHIFT,
    )


def in_elements(args: Sequence[KernelArg]) -> list[KernelArg]:
    """`args` with each resident buffer passed with its offset in elements, its name a
    typed pointer into its buffer plus that offset (IDIOM_ARG_ELEMENTS). The runtime fails
    a launch whose buffer starts inside an element (the original code runs). On the H200 a
    generated JDS product ran 2% faster so than from a byte offset (docs/lift.md)."""
    return [
        dataclasses.replace(a, definition=a.element_definition, flags=a.flags | a.element_flags)
        if a.element_definition
        else a
        for a in args
    ]


def buffer_declaration(name: str, *, const_data: bool) -> str:
    """The kernel parameters of the buffer `buffer_arg` passes as `name`."""
    qualifier = "const " if const_data else ""
    return f"__global {qualifier}char* restrict {name}_mem, long {name}_at"


def _root(address: Value, region: Region) -> Value:
    """The pointer an address is computed from, fixed before the region."""
    current = address
    while current.opcode == "getelementptr" and current.block in region.blocks:
        current = current.operands[0]
    return current


def _literal(value: Value) -> str:
    constant = value.constant
    if isinstance(constant, float):
        if math.isnan(constant):
            return "NAN"
        if math.isinf(constant):
            return "INFINITY" if constant > 0 else "-INFINITY"
        return float.hex(constant) + ("f" if value.type == "float" else "")
    if isinstance(constant, int):
        kind = c_type(value.type)
        return f"(({kind}){constant}L)"
    if value.name.endswith("true"):
        return "1"
    if value.name.endswith("false"):
        return "0"
    raise NotReplaced(f"no kernel literal for {value.name}")


def launch(
    builder: Builder,
    module: ModuleText,
    *,
    source: str | Kernel,
    kernel: str,
    global_size: Sequence[Operand],
    local_size: Sequence[int] | None,
    work: Operand,
    args: Sequence[KernelArg],
    defining: Sequence[KernelArg] | None = None,
    alternatives: Sequence[tuple[Operand, str | Kernel]] = (),
    any_range: bool = False,
    fill: bool | Operand = False,
    wide: bool = False,
) -> Operand:
    """Emit the call of `idiom_cl_run` for `kernel` of `source`; returns the status.
    The source starts with the definitions of the resident buffers of `defining` (by
    default `args`): kernels of one source launched with different arguments share it.
    Of the `alternatives` (an i1, a source), the last whose i1 holds at run time is
    launched instead (a kernel computing its indices as ints where they fit, a streamed
    one where its lanes carry); the packed sizes (`KernelArg.packed`) are passed in the
    launched kernel's index type. With `any_range`, the kernels compute every element
    whatever the size of their NDRange's highest dimension (a generated loop striding by
    its range's size; `Kernel.covered`: the others have an item an element): the runtime
    may tune the launch's shape (idiom_tune.c coarsens only the highest dimension). With
    `fill` (or where its i1 holds at run time), dimension 0 is a grid whose items stride
    over their share by its size: the runtime may launch more of them, enough to fill a
    GPU (IDIOM_CL_FILL); with `wide` too, its work-groups widened where it does
    (IDIOM_CL_WIDE): the kernel computes the same whatever their size."""
    module.declare(
        "idiom_cl_run", "declare i32 @idiom_cl_run(ptr, ptr, i32, ptr, ptr, i64, i32, ptr)"
    )
    _same_sizes(source, [other for _, other in alternatives])
    definers = args if defining is None else defining
    definitions = "".join(arg.definition + "\n" for arg in definers if arg.definition)
    source_ref = _string_constant(builder, module, definitions + _text(source) + "\0", "src")
    int_sizes = _int_indices(source)  # i1: the launched kernel takes its sizes as ints
    for condition, other in alternatives:  # a later one where its i1 holds too
        other_ref = _string_constant(builder, module, definitions + _text(other) + "\0", "src")
        source_ref = builder.select(condition, other_ref, source_ref)
        other_int = _int_indices(other)
        if other_int.ref != int_sizes.ref:
            int_sizes = builder.select(condition, other_int, int_sizes)
    name_ref = _string_constant(builder, module, kernel + "\0", "name")
    slots = builder.emit("ptr", f"alloca {{ i32, i32, ptr, i64 }}, i32 {max(len(args), 1)}")
    for number, arg in enumerate(args):
        slot = builder.emit(
            "ptr", f"getelementptr {{ i32, i32, ptr, i64 }}, ptr {slots.ref}, i32 {number}"
        )
        builder.statement(f"store i32 {arg.kind}, ptr {slot.ref}")
        flags_at = builder.emit(
            "ptr", f"getelementptr {{ i32, i32, ptr, i64 }}, ptr {slot.ref}, i32 0, i32 1"
        )
        builder.statement(f"store i32 {arg.flags}, ptr {flags_at.ref}")
        pointer = builder.emit(
            "ptr", f"getelementptr {{ i32, i32, ptr, i64 }}, ptr {slot.ref}, i32 0, i32 2"
        )
        size_at = builder.emit(
            "ptr", f"getelementptr {{ i32, i32, ptr, i64 }}, ptr {slot.ref}, i32 0, i32 3"
        )
        if arg.kind == 3 and arg.packed:
            cell, size = _sizes_cell(builder, arg.packed, int_sizes)
            builder.statement(f"store ptr {cell.ref}, ptr {pointer.ref}")
            builder.statement(f"store {size}, ptr {size_at.ref}")
        elif arg.kind == 3:  # a scalar: the runtime reads it through a pointer
            assert arg.value is not None and arg.bytes is not None
            cell = builder.emit("ptr", f"alloca {arg.value.type}")
            builder.statement(f"store {arg.value}, ptr {cell.ref}")
            builder.statement(f"store ptr {cell.ref}, ptr {pointer.ref}")
            builder.statement(f"store {arg.bytes}, ptr {size_at.ref}")
        elif arg.kind in (LOCAL, SCRATCH):
            assert arg.bytes is not None
            builder.statement(f"store ptr null, ptr {pointer.ref}")
            builder.statement(f"store {arg.bytes}, ptr {size_at.ref}")
        else:
            assert arg.value is not None and arg.bytes is not None
            host = (
                arg.value if arg.value.type == "ptr" else builder.cast("inttoptr", arg.value, "ptr")
            )
            builder.statement(f"store ptr {host.ref}, ptr {pointer.ref}")
            builder.statement(f"store {arg.bytes}, ptr {size_at.ref}")
    sizes = _i64_array(builder, list(global_size))
    local = (
        _i64_array(builder, [const(I64, n) for n in local_size])
        if local_size
        else const("ptr", "null")
    )
    twin = _covered_twin(source, [other for _, other in alternatives])
    dims = len(global_size) | (ANY_RANGE if any_range else 0) | (COVERED_TWIN if twin else 0)
    filled = FILL | (WIDE if wide else 0)
    flags = const("i32", dims | (filled if fill is True else 0))
    if not isinstance(fill, bool):
        flags = builder.select(fill, const("i32", dims | filled), flags)
    return builder.call(
        "i32",
        "idiom_cl_run",
        [
            source_ref,
            name_ref,
            flags,
            sizes,
            local,
            work,
            const("i32", len(args)),
            slots,
        ],
    )


def _covered_twin(source: str | Kernel, alternatives: Sequence[str | Kernel]) -> bool:
    """Whether the kernels launched define their covered twins (`with_covered_twin`): all
    of them or none, as the launch's flag says so of whichever runs."""
    twins = {isinstance(k, Kernel) and k.covered_twin for k in (source, *alternatives)}
    assert len(twins) == 1, "a launch's kernels all have covered twins or none"
    return twins == {True}


def with_covered_twin(program: ir.Lambda, kernel: Kernel, **options: Any) -> Kernel:
    """`kernel` (generated from `program` with `options`) with its covered twin in its
    source: `<name>_covered`, the program generated with `covers_highest`, one element an
    item in every dimension; the runtime launches it where the NDRange covers every
    element (IDIOM_CL_COVERED_TWIN). Raises what `generate` raises."""
    twin = generate(program, f"{kernel.name}_covered", covers_highest=True, **options)
    arguments = (twin.sizes, twin.prelude, twin.parameters)
    if arguments != (kernel.sizes, kernel.prelude, kernel.parameters):
        raise LiftError(f"the covered twin of {kernel.name} takes other arguments")
    text = kernel.source + twin.source.removeprefix(twin.prelude)
    return dataclasses.replace(kernel, source=text, covered_twin=True)


def _same_sizes(source: str | Kernel, alternatives: Sequence[str | Kernel]) -> None:
    """Every kernel launched in place of `source` takes its sizes, in its order: the
    launch passes them once, as `source` declares them."""
    if not isinstance(source, Kernel):
        return
    for other in alternatives:
        if isinstance(other, Kernel) and (other.sizes, other.packed_sizes) != (
            source.sizes,
            source.packed_sizes,
        ):
            raise NotReplaced(
                f"the kernel launched instead takes sizes {other.sizes}, not {source.sizes}"
            )


def _text(source: str | Kernel) -> str:
    return source.source if isinstance(source, Kernel) else source


def _int_indices(source: str | Kernel) -> Operand:
    """i1: the kernel takes its sizes as ints (translated sources take none)."""
    narrow = isinstance(source, Kernel) and source.index == "int"
    return const(I1, "true" if narrow else "false")


def _sizes_cell(
    builder: Builder, values: Sequence[Operand], int_sizes: Operand
) -> tuple[Operand, Operand]:
    """Where the runtime reads packed sizes (i64 `values`), and their i64 byte count: an
    array of i32 where `int_sizes` holds, of i64 otherwise."""
    cells = {}
    for kind, width in (("i64", 8), ("i32", 4)):
        if int_sizes.ref == ("true" if kind == "i64" else "false"):
            continue
        array = builder.emit("ptr", f"alloca [{len(values)} x {kind}]")
        for k, value in enumerate(values):
            at = builder.emit(
                "ptr", f"getelementptr [{len(values)} x {kind}], ptr {array.ref}, i32 0, i32 {k}"
            )
            item = value if kind == "i64" else builder.cast("trunc", value, "i32")
            builder.statement(f"store {item}, ptr {at.ref}")
        cells[kind] = (array, const(I64, width * len(values)))
    if len(cells) == 1:
        return next(iter(cells.values()))
    (wide, wide_bytes), (narrow, narrow_bytes) = cells["i64"], cells["i32"]
    return (builder.select(int_sizes, narrow, wide),
            builder.select(int_sizes, narrow_bytes, wide_bytes))  # fmt: skip


INT_LIMIT = 2**30  # a loop counter below it, plus a global size below it, stays an int


def long_and_int(
    program: ir.Lambda,
    name: str,
    *,
    work_group: int | None,
    declarations: dict[str, str] | None = None,
    output: Output | None = None,
    covered: bool = False,
    sizes: Sequence[str] = (),
    int_streamed: bool = False,
    covered_twin: bool = False,
) -> tuple[Kernel, Kernel]:
    """`program` generated for launches in groups of `work_group` (None: any), twice: with
    `long` indices, and with `int` ones (launched where every size fits in 31 bits:
    `fits_int`), the latter `covered` where asked; each takes `sizes` too (`generate`),
    packed in one argument (`size_args`).
    With `int_streamed`, the `int` kernel's streamed runs read through advancing pointers
    and keep their chain's partial sums where it has one (`generate`'s `stream_pointers`,
    `partial_sums`). With `covered_twin`, each with its covered twin (`with_covered_twin`).
    Raises what `generate` raises, and LiftError where the two take different sizes."""
    wide = generate(program, name, output, declarations, "long", work_group=work_group,
                    sizes=sizes, packed_sizes=True)  # fmt: skip
    narrow = generate(
        program,
        name,
        output,
        declarations,
        "int",
        work_group=work_group,
        covered=covered,
        sizes=sizes,
        stream_pointers=int_streamed,
        partial_sums=int_streamed,
        packed_sizes=True,
    )
    if narrow.sizes != wide.sizes:
        # The launch packs the sizes in the long kernel's order, whichever kernel it runs.
        raise LiftError(f"the int kernel takes sizes {narrow.sizes}, the long one {wide.sizes}")
    if covered_twin:
        common = {"output": output, "declarations": declarations, "work_group": work_group,
                  "sizes": sizes, "packed_sizes": True}  # fmt: skip
        wide = with_covered_twin(program, wide, **common)
        narrow = with_covered_twin(program, narrow, index="int", **common)
    return wide, narrow


def size_args(kernel: Kernel, values: Mapping[str, Operand]) -> list[KernelArg]:
    """A generated kernel's size argument: its `sizes` (after the program's parameters,
    i64 values from `values` by name) packed in one, which `launch` passes in the
    launched kernel's index type; none where it has no sizes."""
    if not kernel.sizes:
        return []
    if not kernel.packed_sizes:  # every kernel the tool launches packs them
        raise NotReplaced(f"kernel {kernel.name} takes its sizes apart")
    return [KernelArg("", SCALAR, None, packed=tuple(values[name] for name in kernel.sizes))]


def scratch_args(
    builder: Builder, kernel: Kernel, values: Mapping[str, Operand]
) -> dict[str, KernelArg]:
    """A generated kernel's scratch buffers by name (zeroed on the device before the
    launch, never copied: a one-pass scan's status words), each's size in 64-bit words a
    polynomial in its sizes, computed from `values`."""
    args = {}
    for name, words in kernel.scratch:
        total = const(I64, 0)
        for monomial, coefficient in words.terms:
            if coefficient.denominator != 1:
                raise NotReplaced(f"the scratch buffer {name} of {words} words")
            term = const(I64, int(coefficient))
            for variable in monomial:
                term = builder.binary("mul", term, values[variable])
            total = builder.binary("add", total, term)
        declaration = f"__global volatile ulong* {name}"
        size = builder.binary("mul", total, const(I64, 8))
        args[name] = KernelArg(declaration, SCRATCH, None, size)
    return args


def sizes_fit(builder: Builder, kernel: Kernel, values: Mapping[str, Operand]) -> Operand:
    """i1: every size of `kernel` fits an int (`fits_int`): its `int` twin may run."""
    return builder.all_of([fits_int(builder, values[name]) for name in kernel.sizes])


def fits_int(builder: Builder, value: Operand) -> Operand:
    """i1: |`value`| (an i64 size, offset or stride) is below 2^30: a generated kernel may
    compute its indices as ints (a grid-stride loop adds the global size, no larger than
    the count rounded up to a work-group, to a counter below the count: under 2^31)."""
    below = builder.compare("slt", value, const(I64, INT_LIMIT))
    return builder.binary("and", below, builder.compare("sgt", value, const(I64, -INT_LIMIT)))


def _i64_array(builder: Builder, values: list[Operand]) -> Operand:
    array = builder.emit("ptr", f"alloca i64, i32 {len(values)}")
    for number, value in enumerate(values):
        cell = builder.emit("ptr", f"getelementptr i64, ptr {array.ref}, i32 {number}")
        builder.statement(f"store {value}, ptr {cell.ref}")
    return array


def _string_constant(builder: Builder, module: ModuleText, text: str, hint: str) -> Operand:
    name = builder.fresh(hint).replace("%", "@")
    data = text.encode()
    escaped = "".join(
        chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}" for b in data
    )
    module.add_global(f'{name} = private unnamed_addr constant [{len(data)} x i8] c"{escaped}"')
    return Operand("ptr", name)


RANGE_EMPTY = (2**31 - 1, -(2**31), 0)
# Kernel lines publishing a work-item's `low`/`high` (longs) into the cells `range`.
PUBLISH_RANGE = """  if (low > high) return;
  if (low < INT_MIN || high > INT_MAX) { atomic_or(&range[2], 1); return; }
  atomic_min(&range[0], (int)low);
  atomic_max(&range[1], (int)high);"""  # low, high, overflow flag before any index is seen


def publish_range(low: str, high: str, cells: str) -> str:
    """Kernel lines publishing the longs `low`/`high` into the cells `cells` like
    PUBLISH_RANGE, without returning: a kernel may publish several ranges."""
    return f"""  if ({low} <= {high}) {{
    if ({low} < INT_MIN || {high} > INT_MAX) {{
      atomic_or(&{cells}[2], 1);
    }} else {{
      atomic_min(&{cells}[0], (int){low});
      atomic_max(&{cells}[1], (int){high});
    }}
  }}"""


def status_when(builder: Builder, condition: Operand, then: Callable[[], Operand]) -> Operand:
    """The status `then` emits when `condition` holds, else 1 (nothing done)."""
    run, skip, merge = (builder.fresh(part).lstrip("%") for part in ("run", "skip", "merge"))
    builder.branch_if(condition, run, skip)
    builder.label(run)
    status = then()
    ran = builder.fresh("ran").lstrip("%")  # `then` may have ended in a block of its own
    builder.branch(ran)
    builder.label(ran)
    builder.branch(merge)
    builder.label(skip)
    builder.branch(merge)
    builder.label(merge)
    return builder.emit("i32", f"phi i32 [ {status.ref}, %{ran} ], [ 1, %{skip} ]")


def as_check(builder: Builder, work: Operand) -> Operand:
    """The `work` argument of a check: a launch whose results only say whether a launch
    after it may run (a range of indices). Negated, so that the runtime's cost model weighs
    it as the launch it checks for (idiom_runtime.h)."""
    return builder.binary("sub", const(I64, 0), work)


def range_cells(builder: Builder) -> Operand:
    """Three i32 cells a range-finding kernel updates with atomics: lowest and highest
    index seen, and a flag set when an index does not fit an int."""
    cells = builder.emit("ptr", "alloca i32, i32 3")
    for k, initial in enumerate(RANGE_EMPTY):
        cell = builder.emit("ptr", f"getelementptr i32, ptr {cells.ref}, i32 {k}")
        builder.statement(f"store i32 {initial}, ptr {cell.ref}")
    return cells


def read_cells(builder: Builder, cells: Operand) -> tuple[Operand, Operand, Operand]:
    """The three cells of `range_cells` after the kernel: low, high, overflow (i32)."""
    loaded = []
    for k in range(3):
        cell = builder.emit("ptr", f"getelementptr i32, ptr {cells.ref}, i32 {k}")
        loaded.append(builder.emit("i32", f"load i32, ptr {cell.ref}"))
    return loaded[0], loaded[1], loaded[2]


def group_lengths(builder: Builder, body: KernelBody) -> dict[str, Operand]:
    """The size variable `{group}_len` of each buffer group of `body`: its elements."""
    lengths = {}
    for group in body.groups.values():
        assert group.bytes is not None
        count = builder.binary("sdiv", group.bytes, const(I64, element_size(group.element)))
        lengths[f"{group.name}_len"] = count
    return lengths
