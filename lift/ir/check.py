"""Type inference: the type of every expression, or a LiftError saying what does not fit.

Lambda parameters without a declared type take the type of what they are applied to, so
a rewrite rule can build `(lambda (x) ...)` without knowing its types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.streams import check_carries
from lift.ir.text import show, type_text
from lift.ir.types import Array, Scalar, Size, Tuple, Type, Vector, element_of

__all__ = ["infer", "infer_function"]

_ARITHMETIC = {"+", "-", "*", "/", "%", "min", "max", "pow"}
_UNARY = {"neg", "abs", "sqrt", "exp", "log", "sin", "cos", "floor", "ceil", "trunc", "tanh"}
_COMPARE = {"<", "<=", ">", ">=", "==", "!="}
_LOGIC = {"and", "or", "not"}
_UNSIGNED_COMPARE = {"ult", "ule", "ugt", "uge"}  # of integers read as unsigned
_CASTS = {"f32", "f64", "i8", "i16", "i32", "i64"}
_BITWISE = {"&", "|", "^", "shl", "ashr", "lshr", "udiv", "urem"}  # of integers only
_INDEX = ("i32", "i64")
_INTEGERS = ("i8", "i16", "i32", "i64")


def infer(expression: ir.Expr, env: Mapping[ir.Param, Type] | None = None) -> Type:
    env = env or {}
    match expression:
        case ir.Param():
            if expression in env:
                return env[expression]
            if expression.type is not None:
                return expression.type
            raise LiftError(f"{expression.name} has no type here")
        case ir.Literal(_, kind):
            return kind
        case ir.Apply(fun, args):
            return infer_function(fun, [infer(a, env) for a in args], env)
        case ir.Lambda():
            raise LiftError(f"a function where a value is expected: {show(expression)}")
    raise AssertionError(expression)


def _same(a: Type, b: Type, what: str) -> None:
    if a != b:
        raise LiftError(f"{what}: {type_text(a)} and {type_text(b)} differ")


def _lanes(kind: Type) -> tuple[Scalar, int | None]:
    """The scalar of a scalar or vector type, and the vector's width (None: a scalar)."""
    if isinstance(kind, Scalar):
        return kind, None
    if isinstance(kind, Vector):
        return kind.element, kind.width
    raise LiftError(f"a scalar operation on {type_text(kind)}")


def _broadcast(types: Sequence[Type], what: str) -> Type:
    """The common type of an operation's operands: all the same, or scalars beside vectors
    of that scalar (an OpenCL scalar widens to every lane: `2.0 * v`)."""
    widest = next((t for t in types if isinstance(t, Vector)), types[0])
    lane, _ = _lanes(widest)
    for other in types:
        if other not in (widest, lane):
            _same(widest, other, what)
    return widest


def _op_type(name: str, types: Sequence[Type]) -> Type:
    if name in _ARITHMETIC or name in _UNARY:
        return _broadcast(types, f"the operands of {name}")
    if name in _BITWISE:
        kind = _broadcast(types, f"the operands of {name}")
        if _lanes(kind)[0].name not in _INTEGERS:
            raise LiftError(f"{name} of {type_text(kind)}: integers only")
        return kind
    if name in _UNSIGNED_COMPARE:
        kind = _broadcast(types, f"the operands of {name}")
        lane, width = _lanes(kind)
        if lane.name not in _INTEGERS:
            raise LiftError(f"{name} of {type_text(kind)}: integers only")
        return Scalar("bool") if width is None else Vector(Scalar("bool"), width)
    if name in _COMPARE or name in _LOGIC:
        _, width = _lanes(_broadcast(types, f"the operands of {name}"))
        return Scalar("bool") if width is None else Vector(Scalar("bool"), width)
    if name == "select":
        _same(types[1], types[2], "the values of select")
        return types[1]
    if name in ("uf32", "uf64"):
        if not isinstance(types[0], Scalar) or types[0].name not in _INTEGERS:
            raise LiftError(f"{name} of {type_text(types[0])}: an integer only")
        return Scalar(name[1:])
    if name == "u64":
        if types[0] != Scalar("i32"):
            raise LiftError(f"u64 of {type_text(types[0])}: an i32 only")
        return Scalar("i64")
    if name in _CASTS:
        _, width = _lanes(types[0])
        return Scalar(name) if width is None else Vector(Scalar(name), width)
    raise LiftError(f"no operation {name}")


def _bind(
    params: Sequence[ir.Param], types: Sequence[Type], env: Mapping[ir.Param, Type]
) -> dict[ir.Param, Type]:
    if len(params) != len(types):
        raise LiftError(f"a function of {len(params)} parameter(s) applied to {len(types)}")
    bound = dict(env)
    for param, kind in zip(params, types, strict=True):
        if param.type is not None:
            _same(param.type, kind, f"the parameter {param.name}")
        bound[param] = kind
    return bound


def _bounds(length: str, types: Sequence[Type], what: str, takes: tuple[int, str]) -> None:
    """A segment's or range's length is a name, its bounds (the first two) i32 or i64;
    `takes` is how many operands it takes, and what they are."""
    if not length.isidentifier():
        raise LiftError(f"{what}'s length is named by a name, not {length!r}")
    if len(types) != takes[0]:
        raise LiftError(f"{what} takes {takes[1]}")
    for bound in types[:2]:
        if not (isinstance(bound, Scalar) and bound.name in _INDEX):
            raise LiftError(f"{what}'s bounds are i32 or i64, not {type_text(bound)}")


def _sizes_equal(types: Sequence[Array], what: str) -> None:
    for other in types[1:]:
        if other.length != types[0].length:
            raise LiftError(f"{what}: lengths {types[0].length} and {other.length} differ")


def infer_function(
    fun: ir.Fun, types: Sequence[Type], env: Mapping[ir.Param, Type] | None = None
) -> Type:
    """The type of `fun` applied to values of `types`."""
    env = env or {}
    name = type(fun).__name__
    match fun:
        case ir.Lambda(params, body):
            return infer(body, _bind(params, types, env))
        case ir.Op("tuple"):
            if not types:
                raise LiftError("a tuple of nothing")
            return Tuple(tuple(types))
        case ir.Op(op):
            if len(types) != ir.OPS[op]:
                raise LiftError(f"{op} takes {ir.OPS[op]} operand(s)")
            return _op_type(op, types)
        case (
            ir.Map(f)
            | ir.MapGlobal(_, f)
            | ir.MapWorkgroup(_, f)
            | ir.MapLocal(_, f)
            | ir.MapSeq(f)
            | ir.MapLanes(_, _, f)
        ):
            array = _array(types, 0, name)
            return Array(infer_function(f, [array.element], env), array.length)
        case ir.MapStream(_, carries, f):
            array = _array(types, 0, name)
            check_carries(carries, array.element)
            return Array(infer_function(f, [array.element], env), array.length)
        case ir.MapVec(f):
            return _map_vec(f, types[0], env)
        case ir.Reduce(f, init) | ir.ReduceSeq(f, init):
            array = _array(types, 0, name)
            start = infer(init, env)
            _same(infer_function(f, [start, array.element], env), start, f"{name}'s function")
            return Array(start, Size.of(1))
        case ir.ReduceLanes(count, f, init, combine):
            if count < 2 or count & (count - 1):
                raise LiftError(f"reduce-lanes over {count} lanes: a power of two from 2")
            array = _array(types, 0, name)
            start = infer(init, env)
            _same(infer_function(f, [start, array.element], env), start, f"{name}'s function")
            _same(infer_function(combine, [start, start], env), start, f"{name}'s combination")
            return Array(start, Size.of(1))
        case ir.Scan(f, init) | ir.ScanSeq(f, init):
            array = _array(types, 0, name)
            start = infer(init, env)
            _same(infer_function(f, [start, array.element], env), start, "scan's function")
            return Array(start, array.length)
        case ir.ScanWorkgroups(_, f, init, load, prepare, total, each):
            blocks = _array(types, 0, name)
            start = infer(init, env)
            _same(infer_function(f, [start, start], env), start, "scan-workgroups' function")
            loaded = infer_function(load, [blocks.element], env)
            prepared = infer_function(prepare, [loaded], env)
            folded = infer_function(total, [prepared], env)
            if folded not in (start, Array(start, Size.of(1))):
                raise LiftError(f"scan-workgroups' total gives {folded}, not one {start}")
            each_type = infer_function(each, [loaded, prepared, start], env)
            return Array(each_type, blocks.length)
        case ir.Zip():
            arrays = [_array(types, k, "zip") for k in range(len(types))]
            if len(arrays) < 2:
                raise LiftError("zip takes two arrays or more")
            _sizes_equal(arrays, "zip")
            return Array(Tuple(tuple(a.element for a in arrays)), arrays[0].length)
        case ir.Split(size):
            array = _array(types, 0, "split")
            if size.constant is not None:
                return Array(Array(array.element, size), array.length.divide(_constant(size)))
            rows = array.length.divide_by(size)
            if rows is None:
                raise LiftError(f"split by {size} of {array.length} elements: not a divisor")
            return Array(Array(array.element, size), rows)
        case ir.Join():
            outer = _array(types, 0, "join")
            inner = _nested(outer, "join")
            return Array(inner.element, outer.length * inner.length)
        case ir.Slide(size, step):
            array = _array(types, 0, "slide")
            if size < 1 or step < 1:
                raise LiftError("slide's size and step are positive")
            windows = (array.length - size).divide(step) + 1
            return Array(Array(array.element, Size.of(size)), windows)
        case ir.Pad(left, right, boundary):
            array = _array(types, 0, "pad")
            if boundary is not None:
                edge = infer(boundary, env)
                if edge != array.element:
                    _same(_innermost(array), edge, "pad's constant")
            return Array(array.element, array.length + left + right)
        case ir.Transpose():
            outer = _array(types, 0, "transpose")
            inner = _nested(outer, "transpose")
            return Array(Array(inner.element, outer.length), inner.length)
        case ir.Gather():
            indices, values = _array(types, 0, "gather"), _array(types, 1, "gather")
            _index_type(indices, "gather")
            return Array(values.element, indices.length)
        case ir.Permute():
            indices, values = _array(types, 0, "permute"), _array(types, 1, "permute")
            into = _array(types, 2, "permute")
            _index_type(indices, "permute")
            _sizes_equal([indices, values], "permute's indices and values")
            _same(values.element, into.element, "permute's values and array")
            return into
        case ir.Indices(dim, lengths):
            if types:
                raise LiftError("indices takes no data")
            if not 0 <= dim < len(lengths):
                raise LiftError(f"indices {dim} of {len(lengths)} dimension(s)")
            counted: Type = Scalar("i64")
            for length in reversed(lengths):
                counted = Array(counted, length)
            return counted
        case ir.Segment(length):
            _bounds(length, types, "segment", (3, "its first index, its end and an array"))
            return Array(_array(types, 2, "segment").element, Size.of(length))
        case ir.Range(length):
            _bounds(length, types, "range", (2, "its first value and its end"))
            return Array(Scalar("i64"), Size.of(length))
        case ir.Scatter(f, length, init):
            indices, values = _array(types, 0, "scatter"), _array(types, 1, "scatter")
            _index_type(indices, "scatter")
            _sizes_equal([indices, values], "scatter's indices and values")
            start = infer(init, env)
            if isinstance(start, Array):  # the n starting values
                if start.length != length:
                    raise LiftError(f"scatter's starting values: {start.length}, not {length}")
                start = start.element
            _same(infer_function(f, [start, values.element], env), start, "scatter's function")
            return Array(start, length)
        case ir.ScatterAtomic(_, f) | ir.ScatterAtomicLocal(_, _, f):
            indices, values = _array(types, 0, "scatter-atomic"), _array(types, 1, "scatter-atomic")
            into = _array(types, 2, "scatter-atomic")
            _index_type(indices, "scatter-atomic")
            _sizes_equal([indices, values], "scatter-atomic's indices and values")
            _same(values.element, into.element, "scatter-atomic's values and array")
            folded = infer_function(f, [into.element, values.element], env)
            _same(folded, into.element, "scatter-atomic's function")
            return into
        case ir.Iterate(count, f):
            if count < 0:
                raise LiftError("iterate's count is not negative")
            current = types[0]  # each step may change the size: a tree halves it
            for _ in range(count):
                current = infer_function(f, [current], env)
            return current
        case ir.Get(index):
            if isinstance(types[0], Array):  # a fixed element of a neighbourhood
                known = types[0].length.constant
                if known is not None and not 0 <= index < known:
                    raise LiftError(f"get {index} of {type_text(types[0])}")
                return types[0].element
            if not isinstance(types[0], Tuple) or not 0 <= index < len(types[0].elements):
                raise LiftError(f"get {index} of {type_text(types[0])}")
            return types[0].elements[index]
        case ir.Strided(_, strides, lengths):
            flat = _array(types, 0, "strided")
            if not isinstance(flat.element, Scalar) or len(strides) != len(lengths) or not strides:
                raise LiftError("strided views a flat array of scalars, one stride per length")
            result: Type = flat.element
            for length in reversed(lengths):
                result = Array(result, length)
            return result
        case ir.ToLocal(f) | ir.ToGlobal(f) | ir.ToPrivate(f):
            return infer_function(f, types, env)
        case ir.SplitVec(width):
            array = _array(types, 0, "split-vec")
            if not isinstance(array.element, Scalar) or width not in (2, 3, 4, 8, 16):
                raise LiftError("split-vec takes scalars into vectors of 2, 3, 4, 8 or 16")
            return Array(Vector(array.element, width), array.length.divide(width))
        case ir.JoinVec():
            array = _array(types, 0, "join-vec")
            element = array.element
            if isinstance(element, Vector):
                return Array(element.element, array.length * element.width)
            lanes = element.elements if isinstance(element, Tuple) else ()
            vectors = [v for v in lanes if isinstance(v, Vector)]
            if not lanes or len(vectors) != len(lanes) or len({v.width for v in vectors}) != 1:
                raise LiftError("join-vec takes an array of vectors, or of tuples of vectors")
            scalars = tuple(v.element for v in vectors)
            return Array(Tuple(scalars), array.length * vectors[0].width)
    raise AssertionError(fun)


def _array(types: Sequence[Type], position: int, what: str) -> Array:
    if position >= len(types):
        raise LiftError(f"{what} takes more arguments")
    kind = types[position]
    element_of(kind, what)
    assert isinstance(kind, Array)
    return kind


def _nested(outer: Array, what: str) -> Array:
    if not isinstance(outer.element, Array):
        raise LiftError(f"{what} takes an array of arrays, not {type_text(outer)}")
    return outer.element


def _innermost(kind: Type) -> Type:
    while isinstance(kind, Array):
        kind = kind.element
    return kind


def _index_type(indices: Array, what: str) -> None:
    if not (isinstance(indices.element, Scalar) and indices.element.name in _INDEX):
        raise LiftError(f"{what}'s indices are i32 or i64, not {type_text(indices.element)}")


def _constant(size: Size) -> int:
    value = size.constant
    if value is None or value <= 0:
        raise LiftError(f"split by {size}: a positive integer")
    return value


def _map_vec(f: ir.Fun, kind: Type, env: Mapping[ir.Param, Type]) -> Type:
    """map-vec's function sees the lanes: a vector's scalar, or a tuple of vectors' scalars."""
    if isinstance(kind, Vector):
        result = infer_function(f, [kind.element], env)
        width = kind.width
    elif isinstance(kind, Tuple) and all(isinstance(e, Vector) for e in kind.elements):
        vectors = [e for e in kind.elements if isinstance(e, Vector)]
        width = vectors[0].width
        if any(v.width != width for v in vectors):
            raise LiftError("map-vec over vectors of different widths")
        result = infer_function(f, [Tuple(tuple(v.element for v in vectors))], env)
    else:
        raise LiftError(f"map-vec takes a vector, not {type_text(kind)}")
    if isinstance(result, Tuple) and all(isinstance(e, Scalar) for e in result.elements):
        # Several results a lane (a map writing two arrays): a tuple of vectors.
        return Tuple(tuple(Vector(e, width) for e in result.elements if isinstance(e, Scalar)))
    if not isinstance(result, Scalar):
        raise LiftError("map-vec's function returns a scalar or a tuple of scalars")
    return Vector(result, width)
