"""Rewrite rules: each turns one expression into an equal one, at the root it is given.

Algorithmic rules change how the computation is decomposed (fusion, split-join, partial
reductions, overlapped tiling); lowering rules say where each part runs on an OpenCL
device (`map-global`, `map-workgroup`, `map-local`, `map-seq`, `reduce-seq`), in which
memory a result is kept (`to-local`, `to-private`), and whether lanes are vectorised.
A rule is a small frozen class with a name and its numeric parameters; `apply` returns
the rewritten expression, or None where the rule does not match. Whether the result is
valid for a given input size (a split must divide the length) is checked where the
sizes are known: types (lift.ir.check) and the generator's guard.

tests/lift/test_rules.py checks each rule against the interpreter on random inputs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any, cast

from lift.ir import expr as ir
from lift.ir.streams import grid_views
from lift.ir.types import Array, Scalar, Size

__all__ = [
    "ALGORITHMIC",
    "LOWERING",
    "ChunkedScan",
    "Contiguous",
    "CopyToLocal",
    "Lanes",
    "LowerMap",
    "LowerReduce",
    "LowerScan",
    "LowerScatter",
    "MapFusion",
    "PartialReduce",
    "PrivateBins",
    "ReduceMapFusion",
    "Rule",
    "SlideTiling",
    "SplitJoin",
    "Stream",
    "ToMemory",
    "Vectorise",
    "assumed_strides",
    "fresh_param",
    "identity_of",
]


def fresh_param(hint: str, within: ir.Expr | ir.Fun) -> ir.Param:
    """A parameter named apart from every name in `within` (the expression rewritten,
    whose free names a new lambda must not capture): deterministic, for snapshots."""
    used = _names(within)
    for k in itertools.count():
        if f"{hint}{k}" not in used:
            return ir.Param(f"{hint}{k}")
    raise AssertionError


def _names(expression: ir.Expr | ir.Fun) -> set[str]:
    match expression:
        case ir.Param(name):
            return {name}
        case ir.Lambda(params, body):
            return {p.name for p in params} | _names(body)
        case ir.Apply(fun, args):
            return _names(fun).union(*(_names(a) for a in args))
    found: set[str] = set()
    for attribute in ("f", "init", "boundary"):
        value = getattr(expression, attribute, None)
        if isinstance(value, ir.Param | ir.Lambda | ir.Apply) or hasattr(value, "f"):
            found |= _names(value)  # type: ignore[arg-type]
    return found


def _call(fun: ir.Fun, *args: ir.Expr) -> ir.Expr:
    """`fun` applied; a lambda applied to parameters is inlined (beta reduction)."""
    if isinstance(fun, ir.Lambda) and all(isinstance(a, ir.Param | ir.Literal) for a in args):
        return substitute(fun.body, dict(zip(fun.params, args, strict=True)))
    return ir.Apply(fun, tuple(args))


def substitute(expression: ir.Expr, bindings: dict[ir.Param, ir.Expr]) -> ir.Expr:
    match expression:
        case ir.Param():
            return bindings.get(expression, expression)
        case ir.Literal():
            return expression
        case ir.Lambda(params, body):
            inner = {p: v for p, v in bindings.items() if p not in params}
            return ir.Lambda(params, substitute(body, inner))
        case ir.Apply(fun, args):
            return ir.Apply(
                _substitute_fun(fun, bindings), tuple(substitute(a, bindings) for a in args)
            )
    raise AssertionError(expression)


def _substitute_fun(fun: ir.Fun, bindings: dict[ir.Param, ir.Expr]) -> ir.Fun:
    if isinstance(fun, ir.Lambda):
        result = substitute(fun, bindings)
        assert isinstance(result, ir.Lambda)
        return result
    f = getattr(fun, "f", None)
    if f is None:
        return fun
    fun = ir.with_function(fun, _substitute_fun(f, bindings))
    if (init := getattr(fun, "init", None)) is not None:
        fun = cast(ir.Fun, replace(cast(Any, fun), init=substitute(init, bindings)))
    return fun


class Rule:
    name = "rule"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        raise NotImplementedError


# ---------------------------------------------------------------- algorithmic


@dataclass(frozen=True)
class MapFusion(Rule):
    """(map f (map g x)) -> (map (lambda (y) (f (g y))) x): one pass, no intermediate."""

    name = "map-fusion"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Map(f), (ir.Apply(ir.Map(g), (x,)),)):
                y = fresh_param("y", expression)
                return ir.Apply(ir.Map(ir.Lambda((y,), _call(f, _call(g, y)))), (x,))
        return None


@dataclass(frozen=True)
class SplitJoin(Rule):
    """(map f x) -> (join (map (map f) (split n x))): chunks of n, for work-groups."""

    size: int
    name = "split-join"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Map(f), (x,)):
                chunks = ir.Apply(ir.Split(Size.of(self.size)), (x,))
                return ir.Apply(ir.Join(), (ir.Apply(ir.Map(ir.Map(f)), (chunks,)),))
        return None


# Operators that fold associatively, with the initial values that change nothing.
_IDENTITIES: dict[str, tuple[float | int | bool, ...]] = {
    "+": (0, 0.0, -0.0),
    "*": (1, 1.0),
    "min": (float("inf"),),
    "max": (float("-inf"),),
    "and": (True,),
    "or": (False,),
}


def identity_of(f: ir.Fun, init: ir.Expr) -> ir.Literal | None:
    """The identity of `f`'s associative operator, typed as `init` (a literal, or a
    parameter that declares its scalar type): + and -0.0 (exact for every float, +0.0
    included) or 0, * and 1; None for any other function."""
    name = ir.operator_of(f)
    kind = init.type if isinstance(init, ir.Literal | ir.Param) else None
    if not isinstance(kind, Scalar) or name not in ("+", "*"):
        return None
    floating = kind.name in ("f32", "f64")
    if name == "+":
        return ir.Literal(-0.0 if floating else 0, kind)
    return ir.Literal(1.0 if floating else 1, kind)


def associative_identity(f: ir.Fun, init: ir.Expr) -> bool:
    """`f` folds associatively and `init` is its identity: partial reductions folded
    again give the same total (in exact arithmetic; floating-point sums are reordered,
    which the caller has allowed)."""
    name = ir.operator_of(f)
    if name is None or not isinstance(init, ir.Literal):
        return False
    return init.value in _IDENTITIES.get(name, ())


@dataclass(frozen=True)
class PartialReduce(Rule):
    """(reduce f z x) -> (reduce f z (join (map (reduce f z) (split n x)))): partial
    results per chunk, folded again; f associative with identity z."""

    size: int
    name = "partial-reduce"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Reduce(f, init), (x,)) if associative_identity(f, init):
                chunks = ir.Apply(ir.Split(Size.of(self.size)), (x,))
                partials = ir.Apply(ir.Join(), (ir.Apply(ir.Map(ir.Reduce(f, init)), (chunks,)),))
                return ir.Apply(ir.Reduce(f, init), (partials,))
        return None


@dataclass(frozen=True)
class ReduceMapFusion(Rule):
    """(reduce f z (map g x)) -> (reduce (lambda (a e) (f a (g e))) z x): a dot product
    multiplies as it adds."""

    name = "reduce-map-fusion"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Reduce(f, init) as reduce, (ir.Apply(ir.Map(g), (x,)),)):
                del reduce
                a = fresh_param("a", expression)
                e = fresh_param("e", ir.Apply(ir.Zip(), (expression, a)))
                return ir.Apply(ir.Reduce(ir.Lambda((a, e), _call(f, a, _call(g, e))), init), (x,))
        return None


@dataclass(frozen=True)
class SlideTiling(Rule):
    """(map f (slide n s x)) -> (join (map (lambda (t) (map f (slide n s t))) (slide u v x)))
    with v = u - n + s: overlapping tiles of u elements, each slid over alone (a tile can
    then be copied to local memory once). Exact where v divides the length minus u."""

    tile: int
    name = "slide-tiling"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Map(f), (ir.Apply(ir.Slide(n, s) as slide, (x,)),)):
                step = self.tile - n + s
                if step <= 0 or (self.tile - n) % s:
                    return None
                t = fresh_param("tile", expression)
                inner = ir.Apply(ir.Map(f), (ir.Apply(slide, (t,)),))
                tiles = ir.Apply(ir.Slide(self.tile, step), (x,))
                return ir.Apply(ir.Join(), (ir.Apply(ir.Map(ir.Lambda((t,), inner)), (tiles,)),))
        return None


@dataclass(frozen=True)
class ChunkedScan(Rule):
    """(scan f z x) -> (join (map (lambda (p) (scan f (get 1 p) (get 0 p)))
    (zip (split n x) (scan f z (join (map (reduce f e) (split n x))))))): each chunk's
    total (folded from f's identity e), the chunks' exclusive scan from z giving where
    each chunk starts, then each chunk scanned from its start; f associative. The three
    parts are independent passes over the data: the scan of a long array in parallel.
    An inclusive scan scans its chunks inclusively."""

    size: int
    name = "chunked-scan"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Scan(f, init) as scan, (x,)):
                identity = identity_of(f, init)
                if identity is None:
                    return None
                chunks = ir.Apply(ir.Split(Size.of(self.size)), (x,))
                totals = ir.Apply(ir.Join(), (ir.Apply(ir.Map(ir.Reduce(f, identity)), (chunks,)),))
                starts = ir.Apply(ir.Scan(f, init), (totals,))
                p = fresh_param("p", expression)
                # A chunk's scan: inclusive where the whole is.
                each = ir.InclusiveScan if isinstance(scan, ir.InclusiveScan) else ir.Scan
                inner = ir.Apply(each(f, ir.Apply(ir.Get(1), (p,))), (ir.Apply(ir.Get(0), (p,)),))
                pairs = ir.Apply(ir.Zip(), (chunks, starts))
                return ir.Apply(ir.Join(), (ir.Apply(ir.Map(ir.Lambda((p,), inner)), (pairs,)),))
        return None


ALGORITHMIC = (MapFusion, SplitJoin, PartialReduce, ReduceMapFusion, SlideTiling, ChunkedScan)


# ---------------------------------------------------------------- lowering


@dataclass(frozen=True)
class LowerMap(Rule):
    """(map f x) -> (map-global d f x), (map-workgroup d f x), (map-local d f x) or
    (map-seq f x)."""

    level: str  # "global", "workgroup", "local" or "seq"
    dim: int = 0
    name = "lower-map"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Map(f), args):
                lowered: ir.Fun
                if self.level == "global":
                    lowered = ir.MapGlobal(self.dim, f)
                elif self.level == "workgroup":
                    lowered = ir.MapWorkgroup(self.dim, f)
                elif self.level == "local":
                    lowered = ir.MapLocal(self.dim, f)
                else:
                    lowered = ir.MapSeq(f)
                return ir.Apply(lowered, args)
        return None


@dataclass(frozen=True)
class Stream(Rule):
    """(map-global d f x) -> (map-stream d carries f x): each work-item takes a run of
    consecutive elements and keeps the lanes `carries` names for the next one. Applies
    where x is a zip of strided views (lift/ir/streams.py) and there are pairs; the
    meaning is kept where the pairs hold, which the kernel's caller checks."""

    carries: tuple[tuple[int, int], ...]
    name = "stream"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.MapGlobal(dim, f), (x,)) if self.carries:
                if grid_views(x) is None:
                    return None
                return ir.Apply(ir.MapStream(dim, self.carries, f), (x,))
        return None


@dataclass(frozen=True)
class Contiguous(Rule):
    """(strided o (s) (n) x) -> (strided o (1) (n) x), s not 1: a one-dimensional view
    read as contiguous, so that `Vectorise` may load its neighbouring elements together.
    The meaning is kept where s is 1, which the kernel's caller checks at run time
    (`assumed_strides` lists what it must check), as for `Stream`'s pairs."""

    name = "contiguous"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Strided(offset, (stride,), lengths), args) if stride != _ONE:
                return ir.Apply(ir.Strided(offset, (_ONE,), lengths), args)
        return None


_ONE = Size.of(1)


def assumed_strides(expression: ir.Expr) -> tuple[Size, ...]:
    """The strides `Contiguous` takes as 1 anywhere in `expression`, each once, in order."""
    found: dict[Size, None] = {}
    for view in _strided_views(expression):
        if len(view.strides) == 1 and view.strides[0] != _ONE:
            found[view.strides[0]] = None
    return tuple(found)


def _strided_views(expression: ir.Expr) -> list[ir.Strided]:
    match expression:
        case ir.Lambda(_, body):
            return _strided_views(body)
        case ir.Apply(fun, args):
            views = [fun] if isinstance(fun, ir.Strided) else []
            inner = fun if isinstance(fun, ir.Lambda) else ir.mapped_function(fun)
            if isinstance(inner, ir.Lambda):
                views += _strided_views(inner)
            return views + [v for a in args for v in _strided_views(a)]
    return []


@dataclass(frozen=True)
class LowerReduce(Rule):
    """(reduce f z x) -> (reduce-seq f z x): one work-item folds in order."""

    name = "lower-reduce"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Reduce(f, init), args):
                return ir.Apply(ir.ReduceSeq(f, init), args)
        return None


@dataclass(frozen=True)
class LowerScan(Rule):
    """(scan f z x) -> (scan-seq f z x), inclusive or not: one work-item scans in order."""

    name = "lower-scan"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.InclusiveScan(f, init), args):
                return ir.Apply(ir.InclusiveScanSeq(f, init), args)
            case ir.Apply(ir.Scan(f, init), args):
                return ir.Apply(ir.ScanSeq(f, init), args)
        return None


@dataclass(frozen=True)
class LowerScatter(Rule):
    """(scatter + n into idx xs) -> ((scatter-atomic d +) idx xs into), where `into` is
    a parameter holding the n starting values: the global work-items of dimension d
    each add their xs[i] atomically into into[idx[i]], in place. + only: the device's
    atomics add; in any order, which a floating-point sum allows only reordered."""

    dim: int = 0
    name = "lower-scatter"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Scatter(f, length, ir.Param() as into), (idx, xs)) if (
                ir.operator_of(f) == "+"
                and isinstance(into.type, Array)
                and into.type.length == length
            ):
                return ir.Apply(ir.ScatterAtomic(self.dim, f), (idx, xs, into))
        return None


@dataclass(frozen=True)
class PrivateBins(Rule):
    """((scatter-atomic d f) idx xs into) -> ((scatter-atomic-local d c f) idx xs into):
    each work-group adds into its own bins in local memory first (room for c), then
    into `into` once per bin; valid where `into` has at most c elements, which the
    generated kernel states as a limit for its caller to check."""

    capacity: int = 4096
    name = "private-bins"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.ScatterAtomic(dim, f), args):
                return ir.Apply(ir.ScatterAtomicLocal(dim, self.capacity, f), args)
        return None


@dataclass(frozen=True)
class ToMemory(Rule):
    """(F x) -> ((to-local F) x) or ((to-private F) x) for a lowered map or reduce F:
    its result is kept in that memory for what reads it next."""

    space: str  # "local" or "private"
    name = "to-memory"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.MapLocal() | ir.MapSeq() | ir.ReduceSeq() as fun, args):
                wrapped = ir.ToLocal(fun) if self.space == "local" else ir.ToPrivate(fun)
                return ir.Apply(wrapped, args)
        return None


@dataclass(frozen=True)
class CopyToLocal(Rule):
    """(map f x) -> (map f ((to-local (map-local d id)) x)) where x is data the map's
    chunk reads: the work-group copies it to local memory once (with the tiling rule,
    a stencil's tile and its halo)."""

    dim: int = 0
    name = "copy-to-local"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Map() | ir.MapSeq() | ir.MapLocal() as fun, (x,)) if not (
                _copied(x) or _is_copy(fun)
            ):
                e = fresh_param("e", expression)
                copy = ir.Apply(ir.ToLocal(ir.MapLocal(self.dim, ir.Lambda((e,), e))), (x,))
                return ir.Apply(fun, (copy,))
        return None


def _copied(x: ir.Expr) -> bool:
    return isinstance(x, ir.Apply) and isinstance(x.fun, ir.ToLocal)


def _is_copy(fun: ir.Fun) -> bool:
    """A map-local of the identity: the copy this rule makes (not copied again)."""
    f = getattr(fun, "f", None)
    identity = isinstance(f, ir.Lambda) and len(f.params) == 1 and f.body == f.params[0]
    return isinstance(fun, ir.MapLocal) and identity


@dataclass(frozen=True)
class Vectorise(Rule):
    """(map f x) -> (join-vec (map (map-vec f) (split-vec w x))), zipped arrays split
    each: w lanes per work-item, loaded and stored as OpenCL vectors."""

    width: int
    name = "vectorise"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Map(f), (ir.Apply(ir.Zip(), arrays),)):
                split = tuple(ir.Apply(ir.SplitVec(self.width), (a,)) for a in arrays)
                vectors: ir.Expr = ir.Apply(ir.Zip(), split)
            case ir.Apply(ir.Map(f), (x,)):
                vectors = ir.Apply(ir.SplitVec(self.width), (x,))
            case _:
                return None
        return ir.Apply(ir.JoinVec(), (ir.Apply(ir.Map(ir.MapVec(f)), (vectors,)),))


@dataclass(frozen=True)
class Lanes(Rule):
    """(map f x) -> (map-lanes 0 L f' x), f' being f with its reduce (reduce g z y), g =
    (lambda (a e) (c a (h e))) with c associative and z its identity, made (reduce-lanes
    L g z c y): each element's fold shared by L work-items, each taking every L-th value
    of y, their results folded by c. f holds exactly one such reduce, outside any map of
    its own; the terms are regrouped (a floating-point sum's order changes, which the
    caller must allow)."""

    lanes: int
    name = "lanes"

    def apply(self, expression: ir.Expr) -> ir.Expr | None:
        match expression:
            case ir.Apply(ir.Map(ir.Lambda(params, body)), args):
                found: list[ir.Expr] = []
                _shared_reduces(body, found)
                if len(found) != 1:
                    return None
                lanes = _lanes_of_reduce(found[0], self.lanes)
                if lanes is None:
                    return None
                f = ir.Lambda(params, _replaced(body, found[0], lanes))
                return ir.Apply(ir.MapLanes(0, self.lanes, f), args)
        return None


def _shared_reduces(expression: ir.Expr, found: list[ir.Expr]) -> None:
    """Every reduce of `expression` outside maps (what one element's lanes would share);
    a reduce inside a map, or a reduce of a function, counts twice (so that none is
    taken)."""
    match expression:
        case ir.Apply(ir.Reduce(), args):
            found.append(expression)
            for a in args:
                _shared_reduces(a, found)
        case ir.Apply(ir.Lambda(_, body), args):
            _shared_reduces(body, found)
            for a in args:
                _shared_reduces(a, found)
        case ir.Apply(fun, args):
            inner = getattr(fun, "f", None)
            if inner is not None and _has_reduce(inner):
                found.extend((expression, expression))
            for a in args:
                _shared_reduces(a, found)


def _has_reduce(fun: ir.Fun | ir.Expr) -> bool:
    match fun:
        case ir.Reduce():
            return True
        case ir.Lambda(_, body):
            return _has_reduce(body)
        case ir.Apply(f, args):
            return _has_reduce(f) or any(_has_reduce(a) for a in args)
    inner = getattr(fun, "f", None)
    return inner is not None and _has_reduce(inner)


def _lanes_of_reduce(expression: ir.Expr, lanes: int) -> ir.Apply | None:
    """(reduce g z y) as (reduce-lanes lanes g z c y) where g folds by c as above."""
    match expression:
        case ir.Apply(ir.Reduce(ir.Lambda((a, e), ir.Apply(ir.Op(name), (left, term))) as g, z), y):
            if left != a or a.name in _names(term):
                return None
            x, w = fresh_param("x", expression), fresh_param("w", expression)
            combine = ir.Lambda((x, w), ir.Apply(ir.Op(name), (x, w)))
            if not associative_identity(combine, z):
                return None
            del e
            return ir.Apply(ir.ReduceLanes(lanes, g, z, combine), y)
    return None


def _replaced(expression: ir.Expr, old: ir.Expr, new: ir.Expr) -> ir.Expr:
    """`expression` with the node `old` (by identity) replaced by `new`."""
    if expression is old:
        return new
    match expression:
        case ir.Apply(ir.Lambda(params, body), args):
            return ir.Apply(
                ir.Lambda(params, _replaced(body, old, new)),
                tuple(_replaced(a, old, new) for a in args),
            )
        case ir.Apply(fun, args):
            return ir.Apply(fun, tuple(_replaced(a, old, new) for a in args))
    return expression


LOWERING = (
    LowerMap, LowerReduce, LowerScan, LowerScatter, PrivateBins, ToMemory, CopyToLocal, Vectorise,
    Lanes,
)  # fmt: skip
