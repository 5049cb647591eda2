"""The reference meaning of expressions, on Python values: what every rewrite rule must
preserve and what generated kernels are compared with.

Arrays are lists, zipped elements tuples, vectors `Lanes`; lowered patterns mean what
their algorithmic counterparts mean (`map-global` is `map`, `to-local f` is `f`).
`f32` arithmetic rounds to single precision after every operation, as a kernel does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.streams import carries_hold
from lift.ir.types import Size

__all__ = ["Lanes", "Value", "evaluate", "run"]


class Lanes(tuple[Any, ...]):
    """An OpenCL vector's lanes."""


Value = Any  # a scalar, a tuple, a list or Lanes: dynamic by nature


def run(program: ir.Expr, args: Sequence[Value], sizes: Mapping[str, int] | None = None) -> Value:
    """Apply a top-level lambda to `args`; `sizes` gives the size variables that a
    `strided` view or `scatter` names."""
    if not isinstance(program, ir.Lambda):
        raise LiftError("a program is a lambda")
    return _Interpreter(dict(sizes or {})).call(program, list(args))


def evaluate(
    expression: ir.Expr, env: Mapping[ir.Param, Value], sizes: Mapping[str, int] | None = None
) -> Value:
    return _Interpreter(dict(sizes or {})).value(expression, dict(env))


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "shl": lambda a, b: a << b,
    "ashr": lambda a, b: a >> b,
    "lshr": lambda a, b: _unsigned(a) >> b,
    "udiv": lambda a, b: _unsigned(a) // _unsigned(b),
    "urem": lambda a, b: _unsigned(a) % _unsigned(b),
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "min": lambda a, b: _extreme(a, b, lower=True),
    "max": lambda a, b: _extreme(a, b, lower=False),
    "pow": lambda a, b: _ieee(np.power, a, b),
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "ult": lambda a, b: _unsigned(a) < _unsigned(b),
    "ule": lambda a, b: _unsigned(a) <= _unsigned(b),
    "ugt": lambda a, b: _unsigned(a) > _unsigned(b),
    "uge": lambda a, b: _unsigned(a) >= _unsigned(b),
    "and": lambda a, b: bool(a) and bool(b),
    "or": lambda a, b: bool(a) or bool(b),
}
_UNARY: dict[str, Callable[[Any], Any]] = {
    "neg": lambda a: -a,
    "abs": abs,
    "sqrt": lambda a: _ieee(np.sqrt, a),
    "exp": lambda a: _ieee(np.exp, a),
    "log": lambda a: _ieee(np.log, a),
    "sin": lambda a: _ieee(np.sin, a),
    "cos": lambda a: _ieee(np.cos, a),
    "floor": lambda a: a if isinstance(a, int) else _ieee(np.floor, a),
    "ceil": lambda a: a if isinstance(a, int) else _ieee(np.ceil, a),
    "trunc": lambda a: a if isinstance(a, int) else _ieee(np.trunc, a),
    "tanh": lambda a: _ieee(np.tanh, a),
    "not": lambda a: not a,
    "u64": lambda a: a % 2**32,  # an i32's bits, unsigned
    "uf32": lambda a: np.float32(_unsigned(a)),
    "uf64": lambda a: float(_unsigned(a)),
    "f32": np.float32,
    "f64": float,
    "i8": lambda a: (int(a) + 2**7) % 2**8 - 2**7,  # truncated, as OpenCL's char keeps it
    "i16": lambda a: (int(a) + 2**15) % 2**16 - 2**15,
    "i32": int,
    "i64": int,
}


_NOT_FLOAT32 = ("f64", "i8", "i16", "i32", "i64")  # conversions from f32 to another type


def _unsigned(a: Any) -> Any:
    """A value read as unsigned: the interpreter's integers have no width, so a negative
    one has no unsigned reading here (the kernel reads its bits)."""
    if a < 0:
        raise LiftError(f"{a} read as unsigned: the interpreter's integers have no width")
    return a


def _extreme(a: Any, b: Any, *, lower: bool) -> Any:
    """min or max as OpenCL's fmin/fmax: a NaN operand gives the other one."""
    if a != a:  # noqa: PLR0124 (NaN is the one value not equal to itself)
        return b
    if b != b:  # noqa: PLR0124
        return a
    if lower:
        return a if a <= b else b
    return a if a >= b else b


def _ieee(function: Any, *args: Any) -> Any:
    """`function` as OpenCL computes it: nan or inf outside its domain, no exception; an
    integer result where the operands are integers (pow of ints)."""
    if function is np.power and all(isinstance(a, int) for a in args):
        return args[0] ** args[1]
    with np.errstate(all="ignore"):
        result = function(*args)
    return result if any(isinstance(a, np.float32) for a in args) else float(result)


def _divide(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise LiftError("integer division by zero")
        quotient = abs(a) // abs(b)  # C truncates toward zero
        return quotient if (a >= 0) == (b >= 0) else -quotient
    with np.errstate(divide="ignore", invalid="ignore"):  # IEEE: inf or nan, as OpenCL
        result = np.divide(a, b)
    return result if isinstance(a, np.float32) or isinstance(b, np.float32) else float(result)


def _remainder(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a - b * _divide(a, b)
    return _ieee(np.fmod, a, b)


class _Interpreter:
    def __init__(self, sizes: dict[str, int]) -> None:
        self.sizes = sizes

    def value(self, expression: ir.Expr, env: dict[ir.Param, Value]) -> Value:
        match expression:
            case ir.Param():
                if expression not in env:
                    raise LiftError(f"{expression.name} has no value")
                return env[expression]
            case ir.Literal(value, kind):
                return np.float32(value) if kind.name == "f32" else value
            case ir.Apply(fun, args):
                return self.apply(fun, [self.value(a, env) for a in args], env)
        raise LiftError("a function where a value is expected")

    def call(
        self, fun: ir.Lambda, args: list[Value], env: dict[ir.Param, Value] | None = None
    ) -> Value:
        if len(args) != len(fun.params):
            raise LiftError(f"a function of {len(fun.params)} parameter(s) applied to {len(args)}")
        inner = dict(env or {}) | dict(zip(fun.params, args, strict=True))
        return self.value(fun.body, inner)

    def apply(self, fun: ir.Fun, args: list[Value], env: dict[ir.Param, Value]) -> Value:
        match fun:
            case ir.Lambda():
                return self.call(fun, args, env)
            case ir.Op(name):
                return self.op(name, args)
            case (
                ir.Map(f)
                | ir.MapGlobal(_, f)
                | ir.MapWorkgroup(_, f)
                | ir.MapLocal(_, f)
                | ir.MapSeq(f)
                | ir.MapLanes(_, _, f)
            ):
                return [self.apply(f, [x], env) for x in _list(args[0])]
            case ir.MapStream(_, carries, f):
                # A map where its pairs hold; the generated kernel relies on them.
                if not carries_hold(_list(args[0]), carries):
                    raise LiftError("map-stream's pairs do not hold for these values")
                return [self.apply(f, [x], env) for x in _list(args[0])]
            case ir.MapVec(f):
                return self.map_vec(f, args[0], env)
            case ir.Reduce(f, init) | ir.ReduceSeq(f, init):
                total = self.value(init, env)
                for x in _list(args[0]):
                    total = self.apply(f, [total, x], env)
                return [total]
            case ir.ReduceLanes(lanes, f, init, combine):
                return [self.reduce_lanes(lanes, f, init, combine, _list(args[0]), env)]
            case ir.Scan(f, init) | ir.ScanSeq(f, init):
                inclusive = isinstance(fun, ir.InclusiveScan | ir.InclusiveScanSeq)
                running, prefixes = self.value(init, env), []
                for x in _list(args[0]):
                    if not inclusive:
                        prefixes.append(running)
                    running = self.apply(f, [running, x], env)
                    if inclusive:
                        prefixes.append(running)
                return prefixes
            case ir.ScanWorkgroups(_, f, init, load, prepare, total, each):
                running, results = self.value(init, env), []
                for block in _list(args[0]):
                    loaded = self.apply(load, [block], env)
                    prepared = self.apply(prepare, [loaded], env)
                    results.append(self.apply(each, [loaded, prepared, running], env))
                    folded = self.apply(total, [prepared], env)
                    folded = _list(folded)[0] if isinstance(folded, list) else folded
                    running = self.apply(f, [running, folded], env)
                return results
            case ir.Zip():
                arrays = [_list(a) for a in args]
                if len({len(a) for a in arrays}) > 1:
                    raise LiftError(f"zip of lengths {', '.join(str(len(a)) for a in arrays)}")
                return [tuple(items) for items in zip(*arrays, strict=True)]
            case ir.Split(size):
                xs, n = _list(args[0]), size.evaluate(self.sizes)
                if len(xs) % n:
                    raise LiftError(f"split {n} of {len(xs)} elements")
                return [xs[k : k + n] for k in range(0, len(xs), n)]
            case ir.Join():
                return [x for row in _list(args[0]) for x in _list(row)]
            case ir.Slide(size, step):
                xs = _list(args[0])
                return [xs[k : k + size] for k in range(0, len(xs) - size + 1, step)]
            case ir.Pad(left, right, boundary):
                return self.pad(_list(args[0]), left, right.evaluate(self.sizes), boundary)
            case ir.Transpose():
                rows = [_list(r) for r in _list(args[0])]
                return [list(column) for column in zip(*rows, strict=True)] if rows else []
            case ir.Segment(length):
                return self.segment(length, args)
            case ir.Range(length):
                lo, hi = int(args[0]), int(args[1])
                self.sizes[length] = max(hi - lo, 0)
                return list(range(lo, hi))
            case ir.Indices(dim, lengths):
                return self.indices(dim, [n.evaluate(self.sizes) for n in lengths], [])
            case ir.Gather():
                values = _list(args[1])
                return [values[_index(i, len(values))] for i in _list(args[0])]
            case ir.Permute():
                return _permuted(_list(args[0]), _list(args[1]), list(_list(args[2])))
            case ir.Scatter(f, length, init):
                return self.scatter(f, length.evaluate(self.sizes), init, args, env)
            case ir.ScatterAtomic(_, f) | ir.ScatterAtomicLocal(_, _, f):  # in order: any is
                return self.fold_into(f, list(_list(args[2])), args, env)
            case ir.Iterate(count, f):
                current = args[0]
                for _ in range(count):
                    current = self.apply(f, [current], env)
                return current
            case ir.Get(index):
                return args[0][index]
            case ir.Strided(offset, strides, lengths):
                return self.strided(_list(args[0]), offset, strides, lengths)
            case ir.ToLocal(f) | ir.ToGlobal(f) | ir.ToPrivate(f):
                return self.apply(f, args, env)
            case ir.SplitVec(width):
                xs = _list(args[0])
                if len(xs) % width:
                    raise LiftError(f"split-vec {width} of {len(xs)} elements")
                return [Lanes(xs[k : k + width]) for k in range(0, len(xs), width)]
            case ir.JoinVec():
                return [x for vector in _list(args[0]) for x in vector]
        raise AssertionError(fun)

    def op(self, name: str, args: list[Value]) -> Value:
        if any(isinstance(a, Lanes) for a in args):  # lane by lane
            width = max(len(a) for a in args if isinstance(a, Lanes))
            lanes = [a if isinstance(a, Lanes) else Lanes([a] * width) for a in args]
            return Lanes(self.op(name, list(lane)) for lane in zip(*lanes, strict=True))
        if name == "tuple":
            return tuple(args)
        if name == "select":
            return args[1] if args[0] else args[2]
        if name == "/":
            return _divide(args[0], args[1])
        if name == "%":
            return _remainder(args[0], args[1])
        result = _BINARY[name](args[0], args[1]) if name in _BINARY else _UNARY[name](args[0])
        if any(isinstance(a, np.float32) for a in args) and name not in _NOT_FLOAT32:
            return np.float32(result) if isinstance(result, float | np.floating) else result
        return result

    def reduce_lanes(  # noqa: PLR0917 (the pattern's parts, then its input)
        self,
        lanes: int,
        f: ir.Fun,
        init: ir.Expr,
        combine: ir.Fun,
        xs: list[Value],
        env: dict[ir.Param, Value],
    ) -> Value:
        """The generated kernel's order: lane k folds xs[k::lanes] from init, then the
        lanes fold pairwise, lane k taking lane k + h for h = lanes/2, ..., 1."""
        partials = []
        for lane in range(lanes):
            total = self.value(init, env)
            for x in xs[lane::lanes]:
                total = self.apply(f, [total, x], env)
            partials.append(total)
        half = lanes // 2
        while half >= 1:
            for lane in range(half):
                partials[lane] = self.apply(combine, [partials[lane], partials[lane + half]], env)
            half //= 2
        return partials[0]

    def map_vec(self, f: ir.Fun, vector: Value, env: dict[ir.Param, Value]) -> Value:
        if isinstance(vector, tuple) and vector and all(isinstance(v, Lanes) for v in vector):
            lanes = zip(*vector, strict=True)  # a tuple of vectors: tuples of lanes
            return Lanes(self.apply(f, [tuple(lane)], env) for lane in lanes)
        return Lanes(self.apply(f, [x], env) for x in vector)

    def indices(self, dim: int, counts: list[int], chosen: list[int]) -> Value:
        if len(chosen) == len(counts):
            return chosen[dim]
        return [self.indices(dim, counts, [*chosen, k]) for k in range(counts[len(chosen)])]

    def segment(self, length: str, args: list[Value]) -> list[Value]:
        """xs[lo:hi] (nothing where hi <= lo); its length is the size named `length`."""
        lo, hi, xs = int(args[0]), int(args[1]), _list(args[2])
        if hi <= lo:
            self.sizes[length] = 0
            return []
        if lo < 0 or hi > len(xs):
            raise LiftError(f"segment {lo}..{hi} outside 0..{len(xs)}")
        self.sizes[length] = hi - lo
        return xs[lo:hi]

    def pad(self, xs: list[Value], left: int, right: int, boundary: ir.Expr | None) -> list[Value]:
        if boundary is not None:
            edge = self.value(boundary, {})
            return (
                [_filled(xs[0], edge) if xs else edge] * left
                + xs
                + [_filled(xs[-1], edge) if xs else edge] * right
            )
        if not xs:
            raise LiftError("clamp padding of an empty array")
        return [xs[0]] * left + xs + [xs[-1]] * right

    def scatter(
        self, f: ir.Fun, length: int, init: ir.Expr, args: list[Value], env: dict[ir.Param, Value]
    ) -> list[Value]:
        start = self.value(init, env)
        if isinstance(start, list):  # the n starting values
            return self.fold_into(f, list(start), args, env)
        return self.fold_into(f, [start] * length, args, env)

    def fold_into(
        self, f: ir.Fun, result: list[Value], args: list[Value], env: dict[ir.Param, Value]
    ) -> list[Value]:
        """Each args[1][i] folded with f into result[args[0][i]], in order; an element at
        a negative index is dropped."""
        for index, x in zip(_list(args[0]), _list(args[1]), strict=True):
            if int(index) < 0:
                continue
            k = _index(index, len(result))
            result[k] = self.apply(f, [result[k], x], env)
        return result

    def strided(
        self,
        flat: list[Value],
        offset: Size,
        strides: Sequence[Size],
        lengths: Sequence[Size],
    ) -> list[Value]:
        base = offset.evaluate(self.sizes)
        steps = [s.evaluate(self.sizes) for s in strides]
        counts = [n.evaluate(self.sizes) for n in lengths]

        def level(depth: int, start: int) -> list[Value]:
            if depth == len(counts) - 1:
                return [
                    flat[_index(start + k * steps[depth], len(flat))] for k in range(counts[depth])
                ]
            return [level(depth + 1, start + k * steps[depth]) for k in range(counts[depth])]

        return level(0, base)


def _list(value: Value) -> list[Value]:
    if not isinstance(value, list):
        raise LiftError(f"an array expected, not {type(value).__name__}")
    return value


def _permuted(indices: list[Value], values: list[Value], result: list[Value]) -> list[Value]:
    """`result` with values[i] at indices[i]: an index twice is an error (the kernel's
    work-items would race), as is one outside `result`."""
    placed: set[int] = set()
    for index, x in zip(indices, values, strict=True):
        k = _index(index, len(result))
        if k in placed:
            raise LiftError(f"permute writes index {k} twice")
        placed.add(k)
        result[k] = x
    return result


def _index(value: Value, length: int) -> int:
    index: int = int(value)
    if not 0 <= index < length:
        raise LiftError(f"index {index} outside 0..{length - 1}")
    return index


def _filled(like: Value, edge: Value) -> Value:
    """A padding element shaped like `like`: the constant in every scalar."""
    if isinstance(like, list):
        return [_filled(x, edge) for x in like]
    return edge
