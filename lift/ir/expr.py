"""Expressions of the functional IR: parameters, literals, lambdas, applications.

A function is a `Lambda`, a scalar `Op`, or a pattern: the algorithmic ones say what is
computed (`Map`, `Reduce`, `Split`, ...), the lowered ones also say how, on an OpenCL
device (`MapGlobal`, `MapLocal`, `ScanSeq`, `ToLocal`, `MapVec`, ...). Patterns that only rearrange
data (`Split`, `Join`, `Slide`, `Pad`, `Transpose`, `Zip`, `Get`, `Gather`, `Segment`,
`Indices`, `Strided`,
`SplitVec`, `JoinVec`) generate no code: the OpenCL generator turns them into index
arithmetic.

`Apply(fun, args)` applies a function to its data arguments; a pattern that takes a
function (`Map(f)`) holds it. Values are frozen dataclasses compared by structure, so
that a rewrite can be checked by comparing the text of two expressions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, cast

from lift.ir.types import Scalar, Size, Type

__all__ = [
    "LAYOUT",
    "Apply",
    "Expr",
    "Fun",
    "Gather",
    "Get",
    "InclusiveScan",
    "InclusiveScanSeq",
    "Indices",
    "Iterate",
    "Join",
    "JoinVec",
    "Lambda",
    "Literal",
    "Map",
    "MapGlobal",
    "MapLanes",
    "MapLocal",
    "MapSeq",
    "MapStream",
    "MapVec",
    "MapWorkgroup",
    "Op",
    "Pad",
    "Param",
    "Pattern",
    "Permute",
    "Range",
    "Reduce",
    "ReduceLanes",
    "ReduceSeq",
    "Scan",
    "ScanSeq",
    "ScanWorkgroups",
    "Scatter",
    "ScatterAtomic",
    "ScatterAtomicLocal",
    "Segment",
    "Slide",
    "Split",
    "SplitVec",
    "Strided",
    "ToGlobal",
    "ToLocal",
    "ToPrivate",
    "Transpose",
    "Zip",
    "apply",
    "lam",
    "mapped_function",
    "operator_of",
    "with_function",
]


@dataclass(frozen=True)
class Param:
    """A lambda's parameter; its type is written in the text form where declared."""

    name: str
    type: Type | None = None


@dataclass(frozen=True, eq=False)
class Literal:
    """Equal to another literal of the same type and the same bits: a NaN equals a NaN
    (its text is the same) and -0.0 differs from 0.0 (a rule may not swap them)."""

    value: float | int | bool
    type: Scalar

    def _key(self) -> tuple[object, ...]:
        value = self.value
        if self.type.name in ("f32", "f64") and not isinstance(value, bool):
            number = float(value)  # 1 and 1.0 are the same f64 literal (both print 1.0)
            return (self.type, "nan" if math.isnan(number) else number.hex())
        return (self.type, value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Literal) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


@dataclass(frozen=True)
class Lambda:
    params: tuple[Param, ...]
    body: Expr


@dataclass(frozen=True)
class Apply:
    fun: Fun
    args: tuple[Expr, ...]


Expr = Param | Literal | Apply | Lambda  # a Lambda as a value: an argument of a pattern


# Scalar operations, by name: arithmetic, comparisons, math functions, select and casts.
# Integers are two's complement of their width; `shl`, `ashr`, `lshr`, `udiv` and `urem`
# are LLVM's (the shifted or divided bits read as unsigned where it says), `u64` widens
# an i32 read as unsigned, `ult`, `ule`, `ugt`, `uge` order integers read as unsigned, and
# `uf32`, `uf64` convert an integer read as unsigned to floating point.
OPS = {
    "+": 2, "-": 2, "*": 2, "/": 2, "%": 2, "neg": 1, "&": 2, "|": 2, "^": 2,
    "shl": 2, "ashr": 2, "lshr": 2, "udiv": 2, "urem": 2, "u64": 1,
    "min": 2, "max": 2, "abs": 1, "sqrt": 1, "exp": 1, "log": 1, "sin": 1, "cos": 1,
    "pow": 2, "floor": 1, "ceil": 1, "trunc": 1, "tanh": 1,
    "<": 2, "<=": 2, ">": 2, ">=": 2, "==": 2, "!=": 2, "and": 2, "or": 2, "not": 1,
    "ult": 2, "ule": 2, "ugt": 2, "uge": 2, "uf32": 1, "uf64": 1,
    "select": 3,
    "tuple": -1,  # any number of operands: the tuple of them (a reduction's lanes)
    "f32": 1, "f64": 1, "i8": 1, "i16": 1, "i32": 1, "i64": 1,
}  # fmt: skip


@dataclass(frozen=True)
class Op:
    """A scalar operation (`+`, `sqrt`, `select`, a cast named by its result type)."""

    name: str


# Algorithmic patterns.
@dataclass(frozen=True)
class Map:
    f: Fun


@dataclass(frozen=True)
class Reduce:
    """`(reduce f init xs)`: a one-element array holding f(...f(f(init, x0), x1)...)."""

    f: Fun
    init: Expr


@dataclass(frozen=True)
class Zip:
    pass


@dataclass(frozen=True)
class Split:
    size: Size


@dataclass(frozen=True)
class Join:
    pass


@dataclass(frozen=True)
class Slide:
    size: int
    step: int


@dataclass(frozen=True)
class Pad:
    """`left` and `right` elements added: copies of the edge (`clamp`) or a constant (a
    literal, or a tuple of literals: a reduction's identity in every lane). `right` may be
    a size known at run time (a reduction padded to whole chunks)."""

    left: int
    right: Size
    boundary: Expr | None  # None: clamp

    def __post_init__(self) -> None:
        if isinstance(self.right, int):  # a count written as a plain integer
            object.__setattr__(self, "right", Size.of(self.right))


@dataclass(frozen=True)
class Transpose:
    pass


@dataclass(frozen=True)
class Gather:
    """`(gather idx xs)`: xs[idx[0]], xs[idx[1]], ... (the x[col[j]] of a sparse product)."""


@dataclass(frozen=True)
class Permute:
    """`(permute idx xs into)`: `into` with xs[i] in place of into[idx[i]] (JDS's
    y[perm[r]] = sum). No two indices are equal and each is an index of `into` (the
    caller checks it at run time): each element is written once, in any order, with no
    atomics. Elements no index names keep their values."""


@dataclass(frozen=True)
class Indices:
    """`(indices d (n0 n1 ...))`: the nested array of those lengths whose element
    (i0, i1, ...) is i_d, an i64: where a loop's counter is used as a value (a point's
    coordinate). It takes no data."""

    dim: int
    lengths: tuple[Size, ...]


@dataclass(frozen=True)
class Segment:
    """`(segment n lo hi xs)`: xs[lo], ..., xs[hi - 1], bounds that are values known only
    at run time (a sparse row's entries, from its row pointers); none where hi <= lo. The
    result's length is the size `n`, named here: two segments with one name have the same
    bounds, and nothing outside the segment's scope names it."""

    length: str


@dataclass(frozen=True)
class Range:
    """`(range n lo hi)`: the i64 values lo, lo + 1, ..., hi - 1, bounds known only at
    run time (the counter of a sparse row's loop over its entries, ELLPACK's j in
    i*w + j); none where hi <= lo. Its length is the size `n`, named as a segment's."""

    length: str


@dataclass(frozen=True)
class Scatter:
    """`(scatter f n init idx xs)`: n elements, element k folded with f from init over the
    xs[i] whose idx[i] is k, in order (a histogram: f = +, xs all ones). `init` is one
    value for every element, or an array of the n starting values (a histogram adding
    into the counts it already holds). An xs[i] whose idx[i] is negative is dropped (an
    iteration a conditional histogram skips); the scatter-atomic patterns drop it too."""

    f: Fun
    length: Size
    init: Expr


@dataclass(frozen=True)
class Iterate:
    count: int
    f: Fun


@dataclass(frozen=True)
class Scan:
    """`(scan f init xs)`: the exclusive prefixes init, f(init, x0), f(f(init, x0), x1), ...
    (the offsets of a counting sort)."""

    f: Fun
    init: Expr


@dataclass(frozen=True)
class InclusiveScan(Scan):
    """`(scan-inclusive f init xs)`: f(init, x0), f(f(init, x0), x1), ...: each prefix with
    its own element folded in (a running total stored after it is updated)."""


@dataclass(frozen=True)
class Get:
    """`(get k t)`: a tuple's k-th element, or an array's at the fixed index k (a
    stencil's neighbour)."""

    index: int


@dataclass(frozen=True)
class Strided:
    """`(strided offset (s...) (n...) xs)`: the nested array whose element (i, j, ...) is
    xs[offset + i*s0 + j*s1 + ...], lengths n: a grid as a loop nest walks it."""

    offset: Size
    strides: tuple[Size, ...]
    lengths: tuple[Size, ...]


# Lowered patterns: how a map or reduce runs on an OpenCL device.
@dataclass(frozen=True)
class MapGlobal:
    dim: int
    f: Fun


@dataclass(frozen=True)
class MapWorkgroup:
    dim: int
    f: Fun


@dataclass(frozen=True)
class ScanWorkgroups:
    """`(scan-workgroups d f init load prepare total each blocks)`: a scan of blocks in
    one pass, each work-group taking the next block in order. `load` gives what the
    block's other steps read, l_k = (load block_k) (the block itself, or a copy in local
    memory where its to-local says, read once); `prepare` computes what a block's total
    and its scan share, p_k = (prepare l_k) (kept where its to-local says: the prefixes
    of the block's runs); `total` gives the block's total from p_k (an array of one
    value, or the value); block k's start s_k is init folded (f) with the totals of the
    blocks before it; the result's k-th element is (each l_k p_k s_k). A work-group
    learns s_k from the totals its predecessors publish (decoupled look-back), so no
    kernel or host step comes between the totals and the blocks."""

    dim: int
    f: Fun
    init: Expr
    load: Fun
    prepare: Fun
    total: Fun
    each: Fun


@dataclass(frozen=True)
class MapLocal:
    dim: int
    f: Fun


@dataclass(frozen=True)
class MapSeq:
    f: Fun


@dataclass(frozen=True)
class MapStream:
    """`(map-stream d ((k j) ...) f xs)`: `map-global d` whose work-items each take a run
    of consecutive elements of xs, in order. Each pair (k j) says that lane k of every
    innermost tuple of element i + 1 is lane j of the same tuple of element i (a
    neighbour one element further on, read through the same buffer), so the kernel keeps
    what it read for the next element instead of reading it again. Its meaning is the
    map's where the pairs hold; the caller checks them (`Kernel.carries`)."""

    dim: int
    carries: tuple[tuple[int, int], ...]
    f: Fun


@dataclass(frozen=True)
class ReduceSeq:
    f: Fun
    init: Expr


@dataclass(frozen=True)
class MapLanes:
    """`(map-lanes d L f xs)`: `map-global d` with each element computed by L neighbouring
    work-items of one work-group (whose size, a multiple of L, the kernel is generated
    for): its `reduce-lanes` fold the element's array together; the rest of `f` every
    lane computes alike, and the first lane writes the element. A long row of a sparse
    matrix read by a warp's lanes side by side rather than by one work-item."""

    dim: int
    lanes: int
    f: Fun


@dataclass(frozen=True)
class ReduceLanes:
    """`(reduce-lanes L f init c xs)`, inside `map-lanes` of L lanes: lane k folds xs[k],
    xs[k + L], xs[k + 2L], ... in order from `init` with `f`, then the lanes' results are
    folded pairwise with `c` in local memory, halving (lane k takes lane k + h for h =
    L/2, ..., 1). A one-element array: (reduce f init xs) where f is (lambda (a e) (c a
    (g e))), c associative and init its identity (rewriting.rules.LanesReduce), the
    terms' order otherwise changed (floating-point sums reassociated)."""

    lanes: int
    f: Fun
    init: Expr
    combine: Fun


@dataclass(frozen=True)
class ScanSeq:
    """`scan` run by one work-item, in order: each prefix stored as it is reached."""

    f: Fun
    init: Expr


@dataclass(frozen=True)
class InclusiveScanSeq(ScanSeq):
    """`scan-inclusive` run by one work-item, in order."""


@dataclass(frozen=True)
class ScatterAtomic:
    """`((scatter-atomic d f) idx xs into)`: a scatter into the array `into` by the global
    work-items of dimension d, each folding its xs[i] into into[idx[i]] with an atomic
    f (+): the elements in any order, so f must be associative and commutative."""

    dim: int
    f: Fun


@dataclass(frozen=True)
class ScatterAtomicLocal:
    """`((scatter-atomic-local d c f) idx xs into)`: scatter-atomic with each work-group
    adding into its own copy of the bins in local memory (room for c of them), then
    each copy into `into`, once: the global atomics a group makes fall from one per
    value to one per bin. Only where `into` has at most c elements (the caller checks)."""

    dim: int
    capacity: int
    f: Fun


@dataclass(frozen=True)
class ToLocal:
    """f's result is kept in local memory (shared by a work-group)."""

    f: Fun


@dataclass(frozen=True)
class ToGlobal:
    f: Fun


@dataclass(frozen=True)
class ToPrivate:
    f: Fun


@dataclass(frozen=True)
class MapVec:
    """f applied to OpenCL vectors: its scalar operations work on every lane."""

    f: Fun


@dataclass(frozen=True)
class SplitVec:
    width: int


@dataclass(frozen=True)
class JoinVec:
    pass


Pattern = (
    Map | Reduce | Zip | Split | Join | Slide | Pad | Transpose | Gather | Segment | Range
    | Indices
    | Scatter | Permute | Iterate
    | Scan | Get | Strided | MapGlobal | MapWorkgroup | MapLocal | MapSeq | MapStream
    | MapLanes | ReduceSeq | ReduceLanes
    | ScanSeq | ScanWorkgroups | InclusiveScan | InclusiveScanSeq | ToLocal | ToGlobal
    | ToPrivate | MapVec
    | SplitVec | JoinVec | ScatterAtomic | ScatterAtomicLocal
)  # fmt: skip
Fun = Lambda | Op | Pattern

# Patterns that only rearrange data: no code of their own.
LAYOUT = (
    Zip, Split, Join, Slide, Pad, Transpose, Gather, Segment, Range, Indices, Get, Strided,
    SplitVec, JoinVec,
)  # fmt: skip
_MAPS = (Map, MapGlobal, MapWorkgroup, MapLocal, MapSeq, MapStream, MapLanes, MapVec)


def operator_of(f: Fun) -> str | None:
    """The operator `f` applies: an operation itself, or `(lambda (a b) (op a b))`."""
    match f:
        case Op(name):
            return name
        case Lambda((a, b), Apply(Op(name), (x, y))) if (x, y) == (a, b):
            return name
    return None


def mapped_function(fun: Fun) -> Fun | None:
    """The function a map of any kind applies, else None."""
    return fun.f if isinstance(fun, _MAPS) else None


def with_function(pattern: Fun, f: Fun) -> Fun:
    """`pattern` holding `f` in place of its function."""
    return cast(Fun, replace(cast(Any, pattern), f=f))


def apply(fun: Fun, *args: Expr) -> Apply:
    return Apply(fun, tuple(args))


def lam(names: str, body_of: object) -> Lambda:
    """A lambda with untyped parameters named by `names` (space-separated), its body
    built by calling `body_of` with the parameters."""
    params = tuple(Param(name) for name in names.split())
    body = body_of(*params)  # type: ignore[operator]
    return Lambda(params, body)
