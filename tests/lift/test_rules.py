"""Rewrite rules against the interpreter (lift/rewriting/rules.py, traverse.py).

For each rule, programs where it applies are built from a few templates holding random
scalar functions (+, *, min, max with literals, nested lambdas), and inputs are drawn
with the sizes that make the rule exact. At every position where the rule applies, the
rewritten program must (a) exist, (b) type-check to the original's type, symbolically
and for the input's concrete sizes, (c) print and parse back, and (d) compute what the
original computes. Data are integers (i32, i64, or f64 holding small integers) so that
reordered partial reductions compare exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lift.ir import expr as ir
from lift.ir.check import infer_function
from lift.ir.interpret import run
from lift.ir.text import parse, show
from lift.ir.types import Array, Scalar, Size, Vector
from lift.rewriting.rules import (
    ALGORITHMIC,
    LOWERING,
    ChunkedScan,
    Contiguous,
    CopyToLocal,
    Lanes,
    LowerMap,
    LowerReduce,
    LowerScan,
    LowerScatter,
    MapFusion,
    PartialReduce,
    PrivateBins,
    ReduceMapFusion,
    Rule,
    SlideTiling,
    SplitJoin,
    ToMemory,
    Vectorise,
    assumed_strides,
)
from lift.rewriting.traverse import apply_everywhere, apply_first, rewrites

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

ELEMENTS = ("i32", "i64", "f64")
# Names a rule's fresh parameters would take first: programs use them, so that a rule
# that did not name its parameters apart would capture them.
VARIABLES = ("v", "y0", "e0", "a0", "tile0")


# ---------------------------------------------------------------- random functions


def literal(k: int, kind: str) -> str:
    return f"{k}:{kind}"


@st.composite
def bodies(draw: st.DrawFn, scope: tuple[str, ...], kind: str, depth: int) -> str:
    """A scalar expression of the names in `scope`: +, *, min, max, neg, literals and
    applied lambdas, with small values (|x| <= 5 data stay well inside f64's integers)."""
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        if draw(st.integers(0, 2)):
            return draw(st.sampled_from(scope))
        return literal(draw(st.integers(-3, 3)), kind)
    choice = draw(st.integers(0, 5))
    if choice <= 3:
        op = draw(st.sampled_from(["+", "*", "min", "max"]))
        left = draw(bodies(scope, kind, depth - 1))
        right = draw(bodies(scope, kind, depth - 1))
        return f"({op} {left} {right})"
    if choice == 4:
        return f"(neg {draw(bodies(scope, kind, depth - 1))})"
    inner = f"u{depth}"
    body = draw(bodies((*scope, inner), kind, depth - 1))
    return f"((lambda ({inner}) {body}) {draw(bodies(scope, kind, depth - 1))})"


@st.composite
def unary(draw: st.DrawFn, kind: str) -> str:
    """A function of one scalar: an operator or a lambda, its parameter typed or not."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return draw(st.sampled_from(["neg", "abs"]))
    name = draw(st.sampled_from(VARIABLES))
    param = f"({name} {kind})" if choice == 1 else name
    return f"(lambda ({param}) {draw(bodies((name,), kind, 2))})"


@st.composite
def binary(draw: st.DrawFn, kind: str) -> str:
    """A function of two scalars (combines a zip's pair)."""
    return f"(lambda (a b) {draw(bodies(('a', 'b'), kind, 2))})"


@st.composite
def reducers(draw: st.DrawFn, kind: str) -> str:
    """A fold's function, (acc, x) -> acc: not associative in general. Its growth stays
    exponential at most (acc appears once), so f64 sums and products stay finite."""
    ops = ["+", "min", "max"] if kind == "f64" else ["+", "*", "min", "max"]
    op = draw(st.sampled_from(ops))
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return op
    x = draw(bodies(("x",), kind, 2))
    if choice == 1:
        return f"(lambda (acc x) ({op} acc {x}))"
    return f"(lambda (acc x) ((lambda (u9) ({op} u9 acc)) {x}))"


# Associative operators with their identities, by element type: what PartialReduce folds.
# f64 products are left out: reordered, large products would round differently.
IDENTITIES: dict[str, list[tuple[str, str]]] = {
    "i32": [("+", "0:i32"), ("*", "1:i32")],
    "i64": [("+", "0:i64"), ("*", "1:i64")],
    "f64": [
        ("+", "0.0:f64"),
        ("+", "-0.0:f64"),
        ("+", "0:f64"),
        ("min", "inf:f64"),
        ("max", "-inf:f64"),
    ],
    "bool": [("and", "true:bool"), ("or", "false:bool")],
}


@st.composite
def associative(draw: st.DrawFn, kind: str) -> tuple[str, str]:
    op, identity = draw(st.sampled_from(IDENTITIES[kind]))
    if draw(st.booleans()):
        return f"(lambda (l r) ({op} l r))", identity
    return op, identity


def values(kind: str, count: int) -> st.SearchStrategy[list[Any]]:
    if kind == "bool":
        return st.lists(st.booleans(), min_size=count, max_size=count)
    if kind == "f64":
        return st.lists(st.integers(-5, 5).map(float), min_size=count, max_size=count)
    return st.lists(st.integers(-5, 5), min_size=count, max_size=count)


# ---------------------------------------------------------------- the check


@dataclass(frozen=True)
class Template:
    """A program body over xs, ys: (array T N) and xss: (array (array T M) N), holes
    {T} {F} {G} {H} {B} {R} {Z} ... filled by str.format, and how many positions the
    rule applies at."""

    body: str
    positions: int

    @property
    def params(self) -> list[str]:
        names = []
        for name in ("xss", "xs", "ys"):
            if any(word.strip("()") == name for word in self.body.split()):
                names.append(name)
        return names


def program_text(
    template: Template, holes: dict[str, str], sizes: dict[str, int] | None = None
) -> str:
    """The program, its parameters typed with the sizes N and M, or with their values."""
    kind = holes["T"]
    n, m = ("N", "M") if sizes is None else (sizes["N"], sizes["M"])
    types = {"xs": f"(array {kind} {n})", "ys": f"(array {kind} {n})"}
    types["xss"] = f"(array (array {kind} {m}) {n})"
    params = " ".join(f"({name} {types[name]})" for name in template.params)
    return f"(lambda ({params}) {template.body.format(**holes)})"


def check_rewrites(
    template: Template, holes: dict[str, str], rule: Rule, args: list[Any], sizes: dict[str, int]
) -> list[ir.Lambda]:
    """The rewrites of the program by `rule`, each checked against the original: typed
    with symbolic sizes, and with the input's sizes (then also run)."""
    checked: list[ir.Lambda] = []
    program: ir.Expr | None = None
    for source in (program_text(template, holes), program_text(template, holes, sizes)):
        program = parse(source)
        assert isinstance(program, ir.Lambda)
        kinds = [p.type for p in program.params]
        assert all(kind is not None for kind in kinds)
        expected_type = infer_function(program, kinds)  # type: ignore[arg-type]
        results = list(rewrites(program, rule))
        assert len(results) == template.positions, [show(r) for r in results]
        checked = []
        for result in results:
            text = show(result)
            assert isinstance(result, ir.Lambda), text
            assert result != program, text
            assert parse(text) == result, text
            assert infer_function(result, kinds) == expected_type, text  # type: ignore[arg-type]
            checked.append(result)
    # The last program is typed with the input's sizes: it and its rewrites run.
    assert program is not None
    expected = run(program, args)
    for result in checked:
        assert run(result, args) == expected, show(result)
    return checked


def arguments(
    data: st.DataObject, template: Template, kind: str, n: int, m: int
) -> tuple[list[Any], dict[str, int]]:
    args: list[Any] = []
    for name in template.params:
        if name == "xss":
            args.append([data.draw(values(kind, m)) for _ in range(n)])
        else:
            args.append(data.draw(values(kind, n)))
    return args, {"N": n, "M": m}


@st.composite
def holes(draw: st.DrawFn, kind: str | None = None) -> dict[str, str]:
    kind = kind or draw(st.sampled_from(ELEMENTS))
    return {
        "T": kind,
        "F": draw(unary(kind)),
        "G": draw(unary(kind)),
        "H": draw(unary(kind)),
        "B": draw(binary(kind)),
        "R": draw(reducers(kind)),
        "Z": literal(draw(st.integers(-3, 3)), kind),
    }


def multiples(of: int, most: int = 4) -> st.SearchStrategy[int]:
    return st.integers(0, most).map(lambda k: k * of)


ZIPPED = "(map (lambda (p) ({B} (get 0 p) (get 1 p))) (zip xs ys))"


# ---------------------------------------------------------------- MapFusion

MAP_FUSION = [
    Template("(map {F} (map {G} xs))", 1),
    Template("(map {F} (map {G} (map {H} xs)))", 2),
    Template("(map (lambda (r) (map {F} (map {G} r))) xss)", 1),
    Template("(map (map {F}) (map (map {G}) xss))", 1),
    Template("(map {F} " + ZIPPED + ")", 1),
    Template("(reduce {R} {Z} (map {F} (map {G} xs)))", 1),
]


@pytest.mark.parametrize("template", MAP_FUSION, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_map_fusion(template: Template, data: st.DataObject) -> None:
    filled = data.draw(holes())
    n, m = data.draw(st.integers(0, 12)), data.draw(st.integers(0, 4))
    args, sizes = arguments(data, template, filled["T"], n, m)
    check_rewrites(template, filled, MapFusion(), args, sizes)


def test_map_fusion_everywhere_leaves_one_map() -> None:
    program = parse(
        "(lambda ((xs (array i32 N))) (map neg (map (lambda (v) (* v 3:i32)) (map abs"
        " (map (lambda (y0) (+ y0 1:i32)) xs)))))"
    )
    fused = apply_everywhere(program, MapFusion())
    assert show(fused).count("(map ") == 1
    args = [[-3, -1, 0, 2, 5]]
    assert run(fused, args) == run(program, args) == [-6, 0, -3, -9, -18]
    assert apply_first(fused, MapFusion()) is None


# ---------------------------------------------------------------- SplitJoin

SPLIT_JOIN = [
    Template("(map {F} xs)", 1),
    Template("(map {F} (map {G} xs))", 2),
    Template("(map (lambda (r) (map {F} r)) xss)", 2),
    Template("(map (map {F}) xss)", 2),
    Template(ZIPPED, 1),
    Template("(reduce {R} {Z} (map {G} xs))", 1),
]


@pytest.mark.parametrize("template", SPLIT_JOIN, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_split_join(template: Template, data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 4))
    filled = data.draw(holes())
    n, m = data.draw(multiples(size)), data.draw(multiples(size, 2))
    args, sizes = arguments(data, template, filled["T"], n, m)
    check_rewrites(template, filled, SplitJoin(size), args, sizes)


# ---------------------------------------------------------------- PartialReduce

PARTIAL_REDUCE = [
    Template("(reduce {A} {I} xs)", 1),
    Template("(reduce {A} {I} (map {G} xs))", 1),
    Template("(map (lambda (r) (reduce {A} {I} r)) xss)", 1),
    Template("(map (reduce {A} {I}) xss)", 1),
    Template("(reduce {A} {I} (join (map (reduce {A} {I}) xss)))", 2),
]


@pytest.mark.parametrize("template", PARTIAL_REDUCE, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_partial_reduce(template: Template, data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 4))
    kind = data.draw(st.sampled_from([*ELEMENTS, "bool"]))
    filled = data.draw(holes("i32")) | {"T": kind}
    filled["A"], filled["I"] = data.draw(associative(kind))
    filled["G"] = "not" if kind == "bool" else data.draw(unary(kind))
    n, m = data.draw(multiples(size)), data.draw(multiples(size, 2))
    args, sizes = arguments(data, template, kind, n, m)
    check_rewrites(template, filled, PartialReduce(size), args, sizes)


@SETTINGS
@given(data=st.data())
def test_partial_reduce_twice(data: st.DataObject) -> None:
    """Partial results of partial results: the length a multiple of size squared."""
    size = data.draw(st.integers(1, 3))
    kind = data.draw(st.sampled_from(ELEMENTS))
    op, identity = data.draw(associative(kind))
    program = parse(f"(lambda ((xs (array {kind} N))) (reduce {op} {identity} xs))")
    xs = data.draw(values(kind, data.draw(multiples(size * size, 3))))
    once = apply_first(program, PartialReduce(size))
    assert once is not None
    twice = list(rewrites(once, PartialReduce(size)))
    assert len(twice) == 2  # the outer fold, and the fold of each chunk
    assert isinstance(program, ir.Lambda)
    kinds = [p.type for p in program.params]
    for result in twice:
        assert run(result, [xs]) == run(program, [xs])
        assert infer_function(result, kinds) == infer_function(program, kinds)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "body",
    [
        "(reduce - 0:i32 xs)",  # not associative
        "(reduce + 1:i32 xs)",  # not the identity
        "(reduce * 0:i32 xs)",
        "(reduce min 0:i32 xs)",
        "(reduce max 0:i32 xs)",
        "(reduce (lambda (a b) (+ a (* b 2:i32))) 0:i32 xs)",
        "(reduce (lambda (a b) (- a b)) 0:i32 xs)",
        "(reduce + (+ 0:i32 0:i32) xs)",  # an identity, but not a literal
        "(map (lambda (r) (reduce - 0:i32 r)) (split 2 xs))",
    ],
)
def test_partial_reduce_needs_an_associative_function_and_its_identity(body: str) -> None:
    program = parse(f"(lambda ((xs (array i32 N))) {body})")
    assert list(rewrites(program, PartialReduce(2))) == []


@pytest.mark.parametrize("body", ["(reduce - 0.0:f64 xs)", "(reduce + 1.0:f64 xs)"])
def test_partial_reduce_declines_float_folds_without_identity(body: str) -> None:
    program = parse(f"(lambda ((xs (array f64 N))) {body})")
    assert isinstance(program, ir.Lambda)
    assert PartialReduce(4).apply(program.body) is None
    assert list(rewrites(program, PartialReduce(4))) == []


# ---------------------------------------------------------------- ReduceMapFusion

REDUCE_MAP_FUSION = [
    Template("(reduce {R} {Z} (map {G} xs))", 1),
    Template("(reduce {R} {Z} " + ZIPPED + ")", 1),
    Template("(map (lambda (r) (reduce {R} {Z} (map {G} r))) xss)", 1),
    Template("(reduce {R} {Z} (map {G} (map {H} xs)))", 1),
    # A map of folds over a map of maps: no fold of a map anywhere.
    Template("(map (reduce {R} {Z}) (map (map {G}) xss))", 0),
]


@pytest.mark.parametrize("template", REDUCE_MAP_FUSION, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_reduce_map_fusion(template: Template, data: st.DataObject) -> None:
    filled = data.draw(holes())
    n, m = data.draw(st.integers(0, 12)), data.draw(st.integers(0, 4))
    args, sizes = arguments(data, template, filled["T"], n, m)
    check_rewrites(template, filled, ReduceMapFusion(), args, sizes)


def test_reduce_map_fusion_keeps_a_non_associative_order() -> None:
    program = parse(
        "(lambda ((xs (array i64 N))) (reduce (lambda (acc x) (- (* acc 10:i64) x)) 0:i64"
        " (map (lambda (e0) (+ e0 1:i64)) xs)))"
    )
    fused = ReduceMapFusion().apply(program.body)  # type: ignore[union-attr]
    assert fused is not None
    text = show(fused)
    assert "(map" not in text
    # The fresh element parameter is named apart from the map's e0 (then inlined away).
    assert text == (
        "(reduce (lambda (a0 e1) ((lambda (acc x) (- (* acc 10:i64) x)) a0 (+ e1 1:i64))) 0:i64 xs)"
    )
    args = [[1, 2, 3]]
    assert run(ir.Lambda(program.params, fused), args) == run(program, args) == [-234]  # type: ignore[union-attr]


# ---------------------------------------------------------------- SlideTiling

WINDOWS = {
    "fold": "(lambda (w) (reduce {R} {Z} w))",
    "fold of a map": "(lambda (w) (reduce {R} {Z} (map {G} w)))",
    "map": "(lambda (w) (map {G} w))",
}
SLIDE_TILING = [
    Template("(map {W} (slide {n} {s} xs))", 1),
    Template("(map {W} (slide {n} {s} (pad {left} {right} clamp xs)))", 1),
    Template("(map (lambda (row) (map {W} (slide {n} {s} row))) xss)", 1),
]


@st.composite
def tilings(draw: st.DrawFn) -> tuple[int, int, int]:
    """A window n, a step s and a tile u that SlideTiling accepts: u = n + k*s."""
    n, s = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    return n, s, n + draw(st.integers(0, 3)) * s


@pytest.mark.parametrize("template", SLIDE_TILING, ids=lambda t: t.body)
@pytest.mark.parametrize("window", sorted(WINDOWS))
@SETTINGS
@given(data=st.data())
def test_slide_tiling(template: Template, window: str, data: st.DataObject) -> None:
    n, s, u = data.draw(tilings())
    step = u - n + s
    left, right = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    padding = left + right if "pad" in template.body else 0
    # The slid length L (after padding) is u + t*step: whole tiles, none cut short.
    length = u + data.draw(st.integers(0, 4)) * step
    while length - padding < 1:
        length += step
    count = length - padding
    filled = data.draw(holes())
    filled |= {"n": str(n), "s": str(s), "left": str(left), "right": str(right)}
    filled["W"] = WINDOWS[window].format(**filled)
    rows = data.draw(st.integers(0, 3))
    n_outer, m = (rows, count) if "xss" in template.body else (count, 0)
    args, sizes = arguments(data, template, filled["T"], n_outer, m)
    (tiled,) = check_rewrites(template, filled, SlideTiling(u), args, sizes)
    assert f"(slide {u} {step} " in show(tiled)


@SETTINGS
@given(
    n=st.integers(1, 6),
    s=st.integers(1, 4),
    u=st.integers(1, 10),
    tiles=st.integers(0, 3),
    # Enough values for the longest input, u + tiles * step = 10 + 3 * (10 - 1 + 4) = 49: a
    # shorter list cut the input short of whole tiles (n=1, s=3, u=10, tiles=3 needs 46).
    seed=st.lists(st.integers(-5, 5), min_size=49, max_size=49),
)
def test_slide_tiling_applies_exactly_where_tiles_fit(
    n: int, s: int, u: int, tiles: int, seed: list[int]
) -> None:
    program = parse(
        f"(lambda ((xs (array i32 N))) (map (lambda (w) (reduce + 0:i32 w)) (slide {n} {s} xs)))"
    )
    assert isinstance(program, ir.Lambda)
    step = u - n + s
    tiled = SlideTiling(u).apply(program.body)
    if step <= 0 or (u - n) % s:
        assert tiled is None
        assert u < n or (u - n) % s
        return
    assert tiled is not None
    assert u >= n
    xs = seed[: u + tiles * step]
    assert len(xs) == u + tiles * step
    result = ir.Lambda(program.params, tiled)
    assert run(result, [xs]) == run(program, [xs])
    kind = [p.type for p in program.params]
    assert infer_function(result, kind) == infer_function(program, kind)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "s", "u"),
    [(3, 1, 2), (3, 1, 1), (5, 1, 2), (4, 2, 2), (3, 3, 0), (2, 1, 1)],
)
def test_slide_tiling_declines_a_tile_step_that_is_not_positive(n: int, s: int, u: int) -> None:
    assert u - n + s <= 0
    program = parse(f"(lambda (xs) (map (lambda (w) (reduce + 0:i32 w)) (slide {n} {s} xs)))")
    assert isinstance(program, ir.Lambda)
    assert SlideTiling(u).apply(program.body) is None
    assert list(rewrites(program, SlideTiling(u))) == []


def test_slide_tiling_declines_tiles_the_windows_do_not_fill() -> None:
    # slide 3 2 in tiles of 4: windows at 0 and 2 would need a tile of 5.
    program = parse("(lambda (xs) (map (lambda (w) (reduce + 0:i32 w)) (slide 3 2 xs)))")
    assert SlideTiling(4).apply(program.body) is None  # type: ignore[union-attr]
    assert SlideTiling(5).apply(program.body) is not None  # type: ignore[union-attr]
    # Only (map f (slide ...)): a bare slide or a map of anything else is no match.
    assert SlideTiling(5).apply(parse("(lambda (xs) (slide 3 2 xs))").body) is None  # type: ignore[union-attr]
    assert SlideTiling(5).apply(parse("(lambda (xs) (map neg xs))").body) is None  # type: ignore[union-attr]


# ---------------------------------------------------------------- LowerMap

LOWER_MAP = [
    Template("(map {F} xs)", 1),
    Template("(map (map {F}) xss)", 2),
    Template("(map (lambda (r) (map {F} r)) xss)", 2),
    Template("(reduce {R} {Z} (map {G} xs))", 1),
    Template(ZIPPED, 1),
    Template("(map (lambda (r) (reduce {R} {Z} (map {G} r))) xss)", 2),
]
LOWERED = {"global": ir.MapGlobal, "workgroup": ir.MapWorkgroup, "local": ir.MapLocal}


@pytest.mark.parametrize("level", ["global", "workgroup", "local", "seq"])
@pytest.mark.parametrize("template", LOWER_MAP, ids=lambda t: t.body)
@settings(SETTINGS, max_examples=10)
@given(data=st.data())
def test_lower_map(level: str, template: Template, data: st.DataObject) -> None:
    dim = data.draw(st.integers(0, 2))
    filled = data.draw(holes())
    n, m = data.draw(st.integers(0, 8)), data.draw(st.integers(0, 4))
    args, sizes = arguments(data, template, filled["T"], n, m)
    for result in check_rewrites(template, filled, LowerMap(level, dim), args, sizes):
        text = show(result)
        if level == "seq":
            assert text.count("(map-seq ") == 1
        else:
            assert text.count(f"(map-{level} {dim} ") == 1
        assert text.count("(map ") == show(parse(program_text(template, filled))).count("(map ") - 1


def test_lower_map_builds_the_pattern_of_its_level() -> None:
    body = parse("(lambda (xs) (map neg xs))").body  # type: ignore[union-attr]
    for level, pattern in LOWERED.items():
        lowered = LowerMap(level, 1).apply(body)
        assert isinstance(lowered, ir.Apply)
        assert lowered.fun == pattern(1, ir.Op("neg"))
    seq = LowerMap("seq").apply(body)
    assert isinstance(seq, ir.Apply) and seq.fun == ir.MapSeq(ir.Op("neg"))
    assert LowerMap("global").apply(parse("(lambda (xs) (reduce + 0:i32 xs))").body) is None  # type: ignore[union-attr]
    assert LowerMap("global").apply(parse("(lambda (xs) (map-seq neg xs))").body) is None  # type: ignore[union-attr]


# ---------------------------------------------------------------- LowerReduce

LOWER_REDUCE = [
    Template("(reduce {R} {Z} xs)", 1),
    Template("(map (reduce {R} {Z}) xss)", 1),
    Template("(map (lambda (r) (reduce {R} {Z} (map {G} r))) xss)", 1),
    Template("(reduce {R} {Z} (join (map (reduce {R} {Z}) xss)))", 2),
    Template("(reduce {R} {Z} " + ZIPPED + ")", 1),
]


@pytest.mark.parametrize("template", LOWER_REDUCE, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_lower_reduce(template: Template, data: st.DataObject) -> None:
    filled = data.draw(holes())
    n, m = data.draw(st.integers(0, 10)), data.draw(st.integers(0, 4))
    args, sizes = arguments(data, template, filled["T"], n, m)
    for result in check_rewrites(template, filled, LowerReduce(), args, sizes):
        assert show(result).count("(reduce-seq ") == 1


# ---------------------------------------------------------------- ChunkedScan and LowerScan

CHUNKED_SCAN = [
    Template("(scan {A} {Z} xs)", 1),
    Template("(scan-inclusive {A} {Z} xs)", 1),
    Template("(scan {A} {Z} (map {G} xs))", 1),
    Template("(map (lambda (r) (scan-inclusive {A} {Z} r)) xss)", 1),
]
# What a chunk's total folds from: + and * only (a scan of min or max is not rewritten).
SCAN_FOLDS = {"i32": IDENTITIES["i32"], "i64": IDENTITIES["i64"], "f64": [("+", "0:f64")]}


@pytest.mark.parametrize("template", CHUNKED_SCAN, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_chunked_scan(template: Template, data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 4))
    kind = data.draw(st.sampled_from(ELEMENTS))
    filled = data.draw(holes(kind))
    op, _ = data.draw(st.sampled_from(SCAN_FOLDS[kind]))
    filled["A"] = data.draw(st.sampled_from([op, f"(lambda (l r) ({op} l r))"]))
    n, m = data.draw(multiples(size)), data.draw(multiples(size, 2))
    args, sizes = arguments(data, template, kind, n, m)
    for result in check_rewrites(template, filled, ChunkedScan(size), args, sizes):
        assert show(result).count("(reduce ") == 1


@pytest.mark.parametrize("body", ["(scan min 0:i32 xs)", "(scan (lambda (a b) (- a b)) 0:i32 xs)"])
def test_chunked_scan_needs_a_sum_or_a_product(body: str) -> None:
    program = parse(f"(lambda ((xs (array i32 N))) {body})")
    assert apply_first(program, ChunkedScan(2)) is None


LOWER_SCAN = [
    Template("(scan {R} {Z} xs)", 1),
    Template("(scan-inclusive {R} {Z} xs)", 1),
    Template("(map (lambda (r) (scan {R} {Z} r)) xss)", 1),
]


@pytest.mark.parametrize("template", LOWER_SCAN, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_lower_scan(template: Template, data: st.DataObject) -> None:
    filled = data.draw(holes())
    n, m = data.draw(st.integers(0, 10)), data.draw(st.integers(0, 4))
    args, sizes = arguments(data, template, filled["T"], n, m)
    inclusive = "scan-inclusive" in template.body
    for result in check_rewrites(template, filled, LowerScan(), args, sizes):
        text = show(result)
        assert text.count("(scan-seq-inclusive " if inclusive else "(scan-seq ") == 1


# ---------------------------------------------------------------- LowerScatter

HISTOGRAM = (
    "(lambda ((keys (array i64 N)) (w (array {T} N)) (h (array {T} B)))"
    " (scatter {A} B h (map (lambda (v) (- v 3:i64)) keys) w))"
)


@SETTINGS
@given(data=st.data())
def test_lower_scatter(data: st.DataObject) -> None:
    """A scatter adding into the array it starts from becomes an atomic scatter into it."""
    kind = data.draw(st.sampled_from(ELEMENTS))
    add = data.draw(st.sampled_from(["+", "(lambda (l r) (+ l r))"]))
    program = parse(HISTOGRAM.format(T=kind, A=add))
    n, bins = data.draw(st.integers(0, 30)), data.draw(st.integers(1, 6))
    keys = data.draw(st.lists(st.integers(3, 2 + bins), min_size=n, max_size=n))
    values = st.integers(-9, 9) if kind != "f64" else st.integers(-9, 9).map(lambda v: v / 2)
    w = data.draw(st.lists(values, min_size=n, max_size=n))
    h = data.draw(st.lists(values, min_size=bins, max_size=bins))
    lowered = apply_first(program, LowerScatter(0))
    assert lowered is not None and "(scatter-atomic 0 " in show(lowered)
    private = apply_first(lowered, PrivateBins(8))
    assert private is not None and "(scatter-atomic-local 0 8 " in show(private)
    sizes = {"N": n, "B": bins}
    expected = run(program, [keys, w, h], sizes)
    assert run(lowered, [keys, w, h], sizes) == expected
    assert run(private, [keys, w, h], sizes) == expected


@pytest.mark.parametrize(
    "body",
    [
        "(scatter + B 0:i64 keys w)",  # from one value: no array to add into
        "(scatter max B h keys w)",  # no atomic max
        "(scatter + 4 h keys w)",  # not the array's length
    ],
)
def test_lower_scatter_needs_an_array_to_add_into(body: str) -> None:
    program = parse(f"(lambda ((keys (array i64 N)) (w (array i64 N)) (h (array i64 B))) {body})")
    assert apply_first(program, LowerScatter(0)) is None


# ---------------------------------------------------------------- ToMemory

TO_MEMORY = [
    Template("(map-seq {F} xs)", 1),
    Template("(reduce-seq {R} {Z} xs)", 1),
    Template("(map-workgroup 0 (map-local 0 {F}) xss)", 1),
    Template("(map-workgroup 0 (lambda (r) (map-local 0 {F} r)) xss)", 1),
    Template("(map-global 0 (lambda (r) (reduce-seq {R} {Z} (map-seq {G} r))) xss)", 2),
    Template("(map-global 0 (reduce-seq {R} {Z}) xss)", 1),
    Template("(map-global 0 {F} xs)", 0),  # a global map's result stays in global memory
]


@pytest.mark.parametrize("space", ["local", "private"])
@pytest.mark.parametrize("template", TO_MEMORY, ids=lambda t: t.body)
@settings(SETTINGS, max_examples=15)
@given(data=st.data())
def test_to_memory(space: str, template: Template, data: st.DataObject) -> None:
    filled = data.draw(holes())
    n, m = data.draw(st.integers(0, 8)), data.draw(st.integers(0, 4))
    args, sizes = arguments(data, template, filled["T"], n, m)
    for result in check_rewrites(template, filled, ToMemory(space), args, sizes):
        assert show(result).count(f"(to-{space} ") == 1


@pytest.mark.parametrize("space", ["local", "private"])
def test_to_memory_reaches_a_fixed_point(space: str) -> None:
    program = parse("(lambda (xs) (map-seq neg xs))")
    once = apply_first(program, ToMemory(space))
    assert once is not None
    assert show(once) == f"(lambda (xs) (to-{space} (map-seq neg) xs))"
    assert list(rewrites(once, ToMemory("local"))) == []
    assert list(rewrites(once, ToMemory("private"))) == []
    assert apply_everywhere(program, ToMemory(space)) == once


# ---------------------------------------------------------------- CopyToLocal

COPY_TO_LOCAL = [
    Template("(map {F} xs)", 1),
    Template("(map-seq {F} xs)", 1),
    Template("(map-workgroup 0 (lambda (r) (map-local 0 {F} r)) xss)", 1),
    Template("(map (map {F}) xss)", 2),
    Template("(map {F} (map {G} xs))", 2),
    Template("(map-global 0 {F} xs)", 0),
]


@pytest.mark.parametrize("template", COPY_TO_LOCAL, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_copy_to_local(template: Template, data: st.DataObject) -> None:
    dim = data.draw(st.integers(0, 2))
    filled = data.draw(holes())
    # A map-local of the identity is taken for a copy the rule made, and not copied again.
    assume("map-local" not in template.body or not is_identity(filled["F"]))
    n, m = data.draw(st.integers(0, 8)), data.draw(st.integers(0, 4))
    args, sizes = arguments(data, template, filled["T"], n, m)
    for result in check_rewrites(template, filled, CopyToLocal(dim), args, sizes):
        assert show(result).count(f"(to-local (map-local {dim} (lambda (e") == 1


def is_identity(function: str) -> bool:
    fun = parse(f"(lambda (xs) (map {function} xs))").body.fun.f  # type: ignore[union-attr]
    return isinstance(fun, ir.Lambda) and fun.body == fun.params[0]


def test_copy_to_local_does_not_copy_a_copy_at_the_root() -> None:
    program = parse("(lambda (xs) (map neg xs))")
    copied = CopyToLocal().apply(program.body)  # type: ignore[union-attr]
    assert copied is not None
    assert show(copied) == "(map neg (to-local (map-local 0 (lambda (e0) e0)) xs))"
    assert CopyToLocal().apply(copied) is None


def test_copy_to_local_reaches_a_fixed_point() -> None:
    """CopyToLocal does not apply again inside the copy it made (the copy's own
    map-local of the identity, reached through traverse's probe): applied everywhere, it
    stops after one copy."""
    program = parse("(lambda (xs) (map neg xs))")
    once = apply_first(program, CopyToLocal())
    assert once is not None
    assert list(rewrites(once, CopyToLocal())) == []
    assert apply_everywhere(program, CopyToLocal()) == once


# ---------------------------------------------------------------- Contiguous


@SETTINGS
@given(data=st.data())
def test_contiguous_keeps_the_meaning_where_the_strides_are_one(data: st.DataObject) -> None:
    n, first = data.draw(st.integers(1, 12)), data.draw(st.integers(0, 3))
    program = parse(
        "(lambda ((x (array f64 L)) (y (array f64 L)))"
        " (map (lambda (p) (- (get 0 p) (get 1 p)))"
        " (zip (strided o (s) (n) x) (strided p (t) (n) y))))"
    )
    assert isinstance(program, ir.Lambda)
    rewritten = apply_everywhere(program, Contiguous())
    assert "(strided o (1) (n) x)" in show(rewritten)
    assert "(strided p (1) (n) y)" in show(rewritten)
    assert assumed_strides(program) == (Size.of("s"), Size.of("t"))
    assert assumed_strides(rewritten) == ()
    assert apply_first(rewritten, Contiguous()) is None  # nothing left to take as 1
    x, y = data.draw(values("f64", n + first)), data.draw(values("f64", n + first))
    sizes = {"L": n + first, "o": first, "p": 0, "s": 1, "t": 1, "n": n}
    assert run(rewritten, [x, y], sizes) == run(program, [x, y], sizes)


# ---------------------------------------------------------------- Vectorise

VECTORISE = [
    Template("(map {F} xs)", 1),
    Template("(map {F} (map {G} xs))", 2),
    Template(ZIPPED, 1),
    Template("(reduce {R} {Z} (map {G} xs))", 1),
    Template("(map {F} " + ZIPPED + ")", 2),
]


@pytest.mark.parametrize("template", VECTORISE, ids=lambda t: t.body)
@SETTINGS
@given(data=st.data())
def test_vectorise(template: Template, data: st.DataObject) -> None:
    width = data.draw(st.sampled_from([2, 3, 4, 8, 16]))
    filled = data.draw(holes())
    n = data.draw(multiples(width, 3))
    args, sizes = arguments(data, template, filled["T"], n, 0)
    for result in check_rewrites(template, filled, Vectorise(width), args, sizes):
        text = show(result)
        assert "(join-vec (map (map-vec " in text
        assert f"(split-vec {width} " in text


def test_vectorise_splits_each_zipped_array() -> None:
    program = parse(
        "(lambda ((a (array f32 N)) (b (array f32 N)))"
        " (map (lambda (p) (+ (* 2.0:f32 (get 0 p)) (get 1 p))) (zip a b)))"
    )
    vectorised = Vectorise(4).apply(program.body)  # type: ignore[union-attr]
    assert vectorised is not None
    assert show(vectorised) == (
        "(join-vec (map (map-vec (lambda (p) (+ (* 2.0:f32 (get 0 p)) (get 1 p))))"
        " (zip (split-vec 4 a) (split-vec 4 b))))"
    )
    result = ir.Lambda(program.params, vectorised)  # type: ignore[union-attr]
    kinds = [p.type for p in result.params]
    assert infer_function(result, kinds) == infer_function(program, kinds)  # type: ignore[arg-type]
    inner = infer_function(
        ir.Lambda(result.params, vectorised.args[0]),  # type: ignore[union-attr]
        kinds,  # type: ignore[arg-type]
    )
    assert inner == Array(Vector(Scalar("f32"), 4), Size.of("N").divide(4))
    a, b = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5] * 8
    assert (
        run(result, [a, b]) == run(program, [a, b]) == [2.5, 4.5, 6.5, 8.5, 10.5, 12.5, 14.5, 16.5]
    )


# ---------------------------------------------------------------- rules together


def test_rule_families_are_listed() -> None:
    assert set(ALGORITHMIC) == {
        MapFusion,
        SplitJoin,
        PartialReduce,
        ReduceMapFusion,
        SlideTiling,
        ChunkedScan,
    }
    assert set(LOWERING) == {
        LowerMap,
        LowerReduce,
        LowerScan,
        LowerScatter,
        PrivateBins,
        ToMemory,
        CopyToLocal,
        Vectorise,
        Lanes,
    }


def test_a_lowering_sequence_keeps_the_meaning() -> None:
    """A sum of squares lowered the Lift way: partial sums per chunk on work-groups, each
    chunk folded sequentially, the total kept in private memory."""
    program = parse("(lambda ((xs (array i64 N))) (reduce + 0:i64 (map (lambda (v) (* v v)) xs)))")
    assert isinstance(program, ir.Lambda)
    kinds = [p.type for p in program.params]
    xs = list(range(-8, 8))
    expected = run(program, [xs])
    assert expected == [sum(x * x for x in xs)]
    steps: list[Rule] = [
        PartialReduce(4),
        LowerMap("workgroup"),  # the map over chunks, outermost first
        LowerMap("seq"),  # the squares
        LowerReduce(),  # the total
        LowerReduce(),  # each chunk's fold
        ToMemory("private"),
    ]
    current: ir.Expr = program
    for rule in steps:
        rewritten = apply_first(current, rule)
        assert rewritten is not None, f"{rule} on {show(current)}"
        assert isinstance(rewritten, ir.Lambda)
        assert run(rewritten, [xs]) == expected, show(rewritten)
        assert infer_function(rewritten, kinds) == infer_function(program, kinds), show(rewritten)  # type: ignore[arg-type]
        current = rewritten
    assert show(current) == (
        "(lambda ((xs (array i64 N))) (to-private (reduce-seq + 0:i64) (join (map-workgroup 0"
        " (reduce-seq + 0:i64) (split 4 (map-seq (lambda (v) (* v v)) xs))))))"
    )


def test_a_rule_inside_a_held_function_does_not_capture_free_names() -> None:
    """traverse's probe parameter is named apart from the program's names: SplitJoin(2)
    inside (map (map f)) must not capture a free '_' of the program."""
    program = parse("(lambda (_ xss) (map (map (lambda (v) (+ v _))) xss))")
    args = [10, [[1, 2], [3, 4]]]
    expected = run(program, args)
    assert expected == [[11, 12], [13, 14]]
    for result in rewrites(program, SplitJoin(2)):
        assert run(result, args) == expected, show(result)


# ---------------------------------------------------------------- lanes

# y = A x for A in CSR (the tool's expression for it: a row's entries a segment, folded
# by + from 0): a row per element, its fold shared by lanes.
CSR_ROWS = """
(lambda ((ptr (array i32 R1)) (V (array i64 E)) (C (array i32 E)) (X (array i64 N)))
  (map (lambda (p)
         ((lambda (row)
            (get 0 (reduce (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0:i64
                     (zip row (gather (map (lambda (ce) (i64 (get 1 ce))) row) X)))))
          (segment entries (i64 (get 0 p)) (i64 (get 1 p)) (zip V C))))
       (zip (strided 0 (1) (R) ptr) (strided 1 (1) (R) ptr))))
"""


@SETTINGS
@given(data=st.data())
def test_lanes_keeps_the_meaning_of_a_sparse_product(data: st.DataObject) -> None:
    """Lanes of 2 to 32 on random CSR matrices (rows of 0 to 70 entries): the same y, in
    the interpreter's order for reduce-lanes (lane k's strided share, then the halving)."""
    lanes = data.draw(st.sampled_from([2, 4, 8, 32]))
    rows = data.draw(st.integers(1, 6))
    counts = data.draw(st.lists(st.integers(0, 70), min_size=rows, max_size=rows))
    n = data.draw(st.integers(1, 9))
    ptr = [0]
    for count in counts:
        ptr.append(ptr[-1] + count)
    entries = ptr[-1]
    values = data.draw(st.lists(st.integers(-50, 50), min_size=entries, max_size=entries))
    columns = data.draw(st.lists(st.integers(0, n - 1), min_size=entries, max_size=entries))
    x = data.draw(st.lists(st.integers(-9, 9), min_size=n, max_size=n))
    program = parse(CSR_ROWS)
    assert isinstance(program, ir.Lambda)
    rewritten = Lanes(lanes).apply(program.body)
    assert isinstance(rewritten, ir.Apply) and isinstance(rewritten.fun, ir.MapLanes)
    shared = ir.Lambda(program.params, rewritten)
    assert parse(show(shared)) == shared
    inputs = [ptr, values, columns, x]
    sizes = {"R": rows}
    assert run(shared, inputs, sizes) == run(program, inputs, sizes)


@pytest.mark.parametrize(
    "fold",
    [
        "(lambda (acc e) (- acc (get 0 (get 0 e))))",  # not associative
        "(lambda (acc e) (+ (get 0 (get 0 e)) acc))",  # the accumulator on the right
        "(lambda (acc e) (+ acc (* acc (get 0 (get 0 e)))))",  # the term reads it
    ],
)
def test_lanes_needs_an_associative_fold_of_terms(fold: str) -> None:
    program = parse(CSR_ROWS.replace(
        "(lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e))))", fold
    ))  # fmt: skip
    assert isinstance(program, ir.Lambda)
    assert Lanes(8).apply(program.body) is None


def test_lanes_needs_the_identity_as_the_start() -> None:
    program = parse(CSR_ROWS.replace("0:i64\n", "1:i64\n"))
    assert isinstance(program, ir.Lambda)
    assert Lanes(8).apply(program.body) is None
