"""The text form of lift expressions: parse(show(e)) == e, pretty printing, and parse
errors that point at the offending text (lift/ir/text.py)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.text import parse, parse_type, pretty, show, size_text, type_text
from lift.ir.types import Array, Scalar, Size, Tuple, Type, Vector

F32, F64, I32, I64, BOOL = (Scalar(n) for n in ("f32", "f64", "i32", "i64", "bool"))


def roundtrip(expression: ir.Expr) -> ir.Expr:
    text = show(expression)
    back = parse(text)
    assert back == expression, text
    assert show(back) == text
    return back


# ---------------------------------------------------------------- every pattern, by hand

# Written in the canonical form `show` prints, so that show(parse(src)) == src as well.
PATTERN_SOURCES = [
    # algorithmic
    "(lambda (xs) (map neg xs))",
    "(lambda (xs) (map (lambda (v) (* v 2.0:f64)) xs))",
    "(lambda (xs) (reduce + 0.0:f64 xs))",
    "(lambda (xs) (reduce (lambda (acc x) (max acc x)) -inf:f32 xs))",
    "(lambda (xs ys) (map (lambda (p) (+ (get 0 p) (get 1 p))) (zip xs ys)))",
    "(lambda (xs ys zs) (zip xs ys zs))",
    "(lambda (xs) (split 4 xs))",
    "(lambda (xs) (split N xs))",
    "(lambda (xss) (join xss))",
    "(lambda (xs) (join (split 4 xs)))",
    "(lambda (xs) (slide 3 1 xs))",
    "(lambda (xs) (slide 5 2 xs))",
    "(lambda (xs) (pad 1 2 clamp xs))",
    "(lambda (xs) (pad 0 3 0.0:f32 xs))",
    "(lambda (xs) (pad 2 2 -1:i32 xs))",
    "(lambda (xss) (transpose xss))",
    "(lambda (idx xs) (gather idx xs))",
    "(lambda (idx xs ys) (permute idx xs ys))",
    "(lambda (lo hi xs) (segment n lo hi xs))",
    "(lambda (lo hi) (range n lo hi))",
    "(lambda () (indices 1 (N (- M 2))))",
    "(lambda (idx xs) (scatter + 16 0:i32 idx xs))",
    "(lambda (idx xs) (scatter (lambda (a b) (+ a b)) K 0:i64 idx xs))",
    "(lambda (xs) (iterate 3 (lambda (ys) (map (lambda (v) (* v 2:i32)) ys)) xs))",
    "(lambda (xs) (scan + 0:i32 xs))",
    "(lambda (p) (get 1 p))",
    "(lambda (xs) (map (get 0) xs))",
    "(lambda (xs) (strided 0 (1) (N) xs))",
    "(lambda (xs) (strided 1 (N 1) (M (- N 2)) xs))",
    "(lambda (xs) (strided (+ N 1) ((* 4 N) N 1) ((/ N 4) 4 2) xs))",
    # lowered
    "(lambda (xs) (map-global 0 neg xs))",
    "(lambda (xss) (map-global 1 (map-global 0 abs) xss))",
    "(lambda (xss) (map-workgroup 0 (map-local 0 (lambda (v) (+ v 1:i32))) xss))",
    "(lambda (xss) (map-workgroup 2 (lambda (r) (map-local 1 neg r)) xss))",
    "(lambda (xs) (map-seq sqrt xs))",
    "(lambda (xs) (reduce-seq + 0:i64 xs))",
    "(lambda (xss) (map-global 0 (reduce-seq min inf:f64) xss))",
    "(lambda (xs) (to-local (map-local 0 (lambda (e) e)) xs))",
    "(lambda (xs) (to-global (map-seq neg) xs))",
    "(lambda (xs) (to-private (reduce-seq max -inf:f64) xs))",
    "(lambda (xss) (map-workgroup 0 (to-local (map-local 0 neg)) xss))",
    "(lambda (v) (map-vec neg v))",
    "(lambda (xs) (join-vec (map (map-vec (lambda (v) (* v 2.0:f32))) (split-vec 4 xs))))",
    "(lambda (xs) (split-vec 16 xs))",
    "(lambda (vs) (join-vec vs))",
    # nesting, lambdas as functions and as applied values, a program's free sizes
    "((lambda (x y) (+ x y)) 1:i32 2:i32)",
    "(lambda (xss) (map (lambda (row) (reduce + 0:i32 (map (lambda (v) (* v v)) row))) xss))",
    "(lambda (a b c) (select (< a b) c (neg c)))",
    "(lambda (x) (f32 (i64 (f64 (i32 x)))))",
    "(lambda (xs) (map (lambda (w) (reduce + 0:i32 w)) (slide 3 1 (pad 1 1 clamp xs))))",
]


@pytest.mark.parametrize("source", PATTERN_SOURCES)
def test_every_pattern_round_trips(source: str) -> None:
    expression = parse(source)
    assert show(expression) == source
    roundtrip(expression)


def test_the_hand_written_sources_name_every_pattern() -> None:
    heads = set(re.findall(r"\(([a-z][a-z-]*)", " ".join(PATTERN_SOURCES)))
    patterns = {
        "map", "reduce", "zip", "split", "join", "slide", "pad", "transpose", "gather",
        "permute", "segment", "range", "indices", "scatter", "iterate", "scan", "get", "strided",
        "map-global", "map-workgroup",
        "map-local", "map-seq", "reduce-seq", "to-local", "to-global", "to-private",
        "map-vec", "split-vec", "join-vec",
    }  # fmt: skip
    assert patterns <= heads


def test_patterns_built_from_constructors_round_trip() -> None:
    xs, idx = ir.Param("xs"), ir.Param("idx")
    plus = ir.Op("+")
    identity = ir.lam("e", lambda e: e)
    funs: list[ir.Fun] = [
        ir.Map(plus),
        ir.Reduce(plus, ir.Literal(0, I32)),
        ir.Split(Size.of(8)),
        ir.Join(),
        ir.Slide(3, 1),
        ir.Pad(1, 1, None),
        ir.Pad(2, 0, ir.Literal(0.5, F64)),
        ir.Transpose(),
        ir.Scan(plus, ir.Literal(0, I64)),
        ir.Iterate(2, identity),
        ir.Get(0),
        ir.Strided(Size.of(0), (Size.of("N"), Size.of(1)), (Size.of("M"), Size.of("N"))),
        ir.MapGlobal(0, identity),
        ir.MapWorkgroup(1, identity),
        ir.MapLocal(2, identity),
        ir.MapSeq(identity),
        ir.ReduceSeq(plus, ir.Literal(1.0, F32)),
        ir.ToLocal(ir.MapLocal(0, identity)),
        ir.ToGlobal(ir.MapSeq(identity)),
        ir.ToPrivate(ir.ReduceSeq(plus, ir.Literal(0, I32))),
        ir.MapVec(ir.Op("neg")),
        ir.SplitVec(4),
        ir.JoinVec(),
    ]
    for fun in funs:
        roundtrip(ir.Lambda((xs,), ir.apply(fun, xs)))
        roundtrip(ir.Lambda((xs,), ir.apply(ir.Map(fun), xs)))  # held as a function
    roundtrip(ir.Lambda((xs,), ir.apply(ir.Zip(), xs, xs, xs)))
    roundtrip(ir.Lambda((idx, xs), ir.apply(ir.Gather(), idx, xs)))
    scatter = ir.Scatter(plus, Size.of("K"), ir.Literal(0, I32))
    roundtrip(ir.Lambda((idx, xs), ir.apply(scatter, idx, xs)))


# ---------------------------------------------------------------- literals


@pytest.mark.parametrize(
    ("literal", "text"),
    [
        (ir.Literal(1.5, F64), "1.5:f64"),
        (ir.Literal(0.1, F32), "0.1:f32"),
        (ir.Literal(1e-300, F64), "1e-300:f64"),
        (ir.Literal(1e8, F32), "100000000.0:f32"),
        (ir.Literal(math.inf, F32), "inf:f32"),
        (ir.Literal(-math.inf, F64), "-inf:f64"),
        (ir.Literal(0, I32), "0:i32"),
        (ir.Literal(-7, I32), "-7:i32"),
        (ir.Literal(2**40, I64), "1099511627776:i64"),
        (ir.Literal(True, BOOL), "true:bool"),
        (ir.Literal(False, BOOL), "false:bool"),
    ],
)
def test_literal_text(literal: ir.Literal, text: str) -> None:
    assert show(literal) == text
    assert parse(text) == literal
    assert type(parse(text).value) is type(literal.value)  # type: ignore[union-attr]


def test_negative_zero_keeps_its_sign() -> None:
    for kind in (F32, F64):
        literal = ir.Literal(-0.0, kind)
        assert show(literal) == f"-0.0:{kind.name}"
        back = parse(show(literal))
        assert isinstance(back, ir.Literal)
        assert math.copysign(1.0, back.value) == -1.0  # == alone would not see the sign


def test_nan_prints_and_parses_as_nan() -> None:
    for kind in (F32, F64):
        literal = ir.Literal(math.nan, kind)
        assert show(literal) == f"nan:{kind.name}"
        back = parse(show(literal))
        assert isinstance(back, ir.Literal)
        assert math.isnan(back.value)
        assert back.type == kind
        assert show(back) == show(literal)


def test_nan_literal_round_trips_by_equality() -> None:
    """A NaN literal equals its parsed text (literals compare by bits)."""
    for kind in (F32, F64):
        literal = ir.Literal(math.nan, kind)
        assert parse(show(literal)) == literal
        assert hash(parse(show(literal))) == hash(literal)
    # Literals are equal by their bits: -0.0 is not 0.0 (a rule may not swap them).
    assert ir.Literal(-0.0, F64) != ir.Literal(0.0, F64)
    assert ir.Literal(1.5, F32) != ir.Literal(1.5, F64)


def test_an_int_valued_float_literal_round_trips() -> None:
    literal = ir.Literal(1, F64)
    assert parse(show(literal)) == literal


def test_typed_and_untyped_lambda_parameters() -> None:
    x = ir.Param("x", Array(F64, Size.of("N")))
    y = ir.Param("y")
    p = ir.Param("p", Tuple((F32, Vector(F32, 4), Array(Array(I32, Size.of(4)), Size.of("M")))))
    body = ir.apply(ir.Zip(), x, y, ir.apply(ir.Get(2), p))
    expression = ir.Lambda((x, y, p), body)
    text = show(expression)
    assert text == (
        "(lambda ((x (array f64 N)) y (p (tuple f32 (vec f32 4) (array (array i32 4) M))))"
        " (zip x y (get 2 p)))"
    )
    back = roundtrip(expression)
    assert isinstance(back, ir.Lambda)
    assert back.params[0].type == Array(F64, Size.of("N"))
    assert back.params[1].type is None
    # A parameter's uses are the parameter itself: its type travels with it.
    assert isinstance(back.body, ir.Apply)
    assert back.body.args[0] == x


def test_zero_parameter_lambda_and_shadowing() -> None:
    source = "(lambda () ((lambda (x) ((lambda (x) (* x x)) (+ x 1:i32))) 2:i32))"
    expression = parse(source)
    assert show(expression) == source
    roundtrip(expression)


# ---------------------------------------------------------------- sizes


@pytest.mark.parametrize(
    ("size", "text"),
    [
        (Size.of("N").divide(4), "(/ N 4)"),
        (Size.of("N") - 2, "(- N 2)"),
        (Size.of("N") * 4, "(* 4 N)"),
        (Size.of("N") + 3, "(+ N 3)"),
        (Size.of("N") * "M", "(* M N)"),
        (Size.of(7), "7"),
        (Size.of(0), "0"),
        (Size.of(-3), "-3"),
        ((Size.of("N") - 3).divide(2) + 1, "(+ (/ -1 2) (/ N 2))"),
        (Size.of("N").divide(4) * 3, "(/ (* 3 N) 4)"),
        (Size.of("M") + Size.of("N") - 1, "(- (+ M N) 1)"),
    ],
)
def test_size_text(size: Size, text: str) -> None:
    assert size_text(size) == text
    kind = parse_type(f"(array f64 {text})")
    assert kind == Array(F64, size)
    xs = ir.Param("xs")
    roundtrip(ir.Lambda((xs,), ir.apply(ir.Split(size), xs)))


def test_symbolic_sizes_in_patterns_parse_to_their_polynomials() -> None:
    expression = parse("(lambda (xs) (strided (- N 2) ((* 4 N) 1) ((/ N 4) (+ N 1)) xs))")
    assert isinstance(expression, ir.Lambda) and isinstance(expression.body, ir.Apply)
    strided = expression.body.fun
    assert strided == ir.Strided(
        Size.of("N") - 2, (Size.of("N") * 4, Size.of(1)), (Size.of("N").divide(4), Size.of("N") + 1)
    )
    # Size arithmetic in the text is normalised: (+ N N) is (* 2 N), (- N N) is 0.
    assert parse_type("(array f64 (+ N N))") == parse_type("(array f64 (* 2 N))")
    assert parse_type("(array f64 (- N N))") == parse_type("(array f64 0)")
    assert parse_type("(array f64 (* (/ N 4) 4))") == parse_type("(array f64 N)")


# ---------------------------------------------------------------- random expressions

NAMES = ("x", "y", "acc", "v", "row", "N", "_")
SIZE_NAMES = ("N", "M", "K")

sizes: st.SearchStrategy[Size] = st.recursive(
    st.one_of(st.integers(-4, 64).map(Size.of), st.sampled_from(SIZE_NAMES).map(Size.of)),
    lambda inner: st.one_of(
        st.builds(lambda a, b: a + b, inner, inner),
        st.builds(lambda a, b: a - b, inner, inner),
        st.builds(lambda a, b: a * b, inner, inner),
        st.builds(lambda a, d: a.divide(d), inner, st.integers(1, 8)),
    ),
    max_leaves=4,
)

scalars = st.sampled_from([F32, F64, I32, I64, BOOL])
types: st.SearchStrategy[Type] = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.builds(Array, inner, sizes),
        st.builds(Vector, scalars, st.sampled_from([2, 3, 4, 8, 16])),
        st.lists(inner, min_size=1, max_size=3).map(lambda ts: Tuple(tuple(ts))),
    ),
    max_leaves=4,
)


@st.composite
def literals(draw: st.DrawFn) -> ir.Literal:
    kind = draw(scalars)
    if kind.name in ("f32", "f64"):
        return ir.Literal(draw(st.floats()), kind)
    if kind.name == "bool":
        return ir.Literal(draw(st.booleans()), kind)
    bits = 31 if kind.name == "i32" else 63
    return ir.Literal(draw(st.integers(-(2**bits), 2**bits - 1)), kind)


_WITH_F: list[Callable[[ir.Fun], ir.Fun]] = [
    ir.Map, ir.MapSeq, ir.ToLocal, ir.ToGlobal, ir.ToPrivate, ir.MapVec,
]  # fmt: skip
_WITH_DIM_F: list[Callable[[int, ir.Fun], ir.Fun]] = [ir.MapGlobal, ir.MapWorkgroup, ir.MapLocal]
_WITH_F_INIT: list[Callable[[ir.Fun, ir.Expr], ir.Fun]] = [ir.Reduce, ir.ReduceSeq, ir.Scan]


@st.composite
def functions(draw: st.DrawFn, scope: dict[str, ir.Param], depth: int) -> ir.Fun:
    """A function: an operator, a lambda, or a pattern without its data arguments."""
    choice = draw(st.integers(0, 9 if depth > 0 else 1))
    if choice == 0:
        return ir.Op(draw(st.sampled_from(sorted(ir.OPS))))
    if choice == 1:
        layout: list[Callable[[], ir.Fun]] = [
            ir.Zip,
            ir.Join,
            ir.Transpose,
            ir.Gather,
            ir.JoinVec,
            lambda: ir.Split(draw(sizes)),
            lambda: ir.Slide(draw(st.integers(1, 9)), draw(st.integers(1, 9))),
            lambda: ir.Get(draw(st.integers(0, 16))),
            lambda: ir.SplitVec(draw(st.integers(0, 16))),
            lambda: ir.Segment(draw(st.sampled_from(SIZE_NAMES))),
            lambda: ir.Indices(draw(st.integers(0, 2)), (draw(sizes), draw(sizes))),
        ]
        return draw(st.sampled_from(layout))()
    if choice == 2:
        return draw(lambdas(scope, depth - 1, min_params=1))
    if choice == 3:
        return draw(st.sampled_from(_WITH_F))(draw(functions(scope, depth - 1)))
    if choice == 4:
        with_dim = draw(st.sampled_from(_WITH_DIM_F))
        return with_dim(draw(st.integers(0, 2)), draw(functions(scope, depth - 1)))
    if choice == 5:
        with_init = draw(st.sampled_from(_WITH_F_INIT))
        init = draw(values(scope, depth - 1))
        return with_init(draw(functions(scope, depth - 1)), init)
    if choice == 6:
        boundary = draw(st.one_of(st.none(), literals()))
        return ir.Pad(draw(st.integers(0, 4)), draw(st.integers(0, 4)), boundary)
    if choice == 7:
        f = draw(functions(scope, depth - 1))
        return ir.Scatter(f, draw(sizes), draw(values(scope, depth - 1)))
    if choice == 8:
        return ir.Iterate(draw(st.integers(0, 5)), draw(functions(scope, depth - 1)))
    count = draw(st.integers(0, 3))
    return ir.Strided(
        draw(sizes),
        tuple(draw(sizes) for _ in range(count)),
        tuple(draw(sizes) for _ in range(count)),
    )


def _arity(fun: ir.Fun, draw: st.DrawFn) -> int:
    match fun:
        case ir.Op(name):
            arity = ir.OPS[name]
            return arity if arity >= 0 else draw(st.integers(1, 3))  # a tuple: any count
        case ir.Lambda(params):
            return len(params)
        case ir.Zip():
            return draw(st.integers(1, 3))
        case ir.Gather() | ir.Scatter():
            return 2
        case ir.Segment():
            return 3
        case ir.Indices():
            return 0
    return 1


@st.composite
def lambdas(
    draw: st.DrawFn, scope: dict[str, ir.Param], depth: int, min_params: int = 0
) -> ir.Lambda:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=min_params, max_size=3, unique=True))
    params = tuple(ir.Param(name, draw(st.one_of(st.none(), types))) for name in names)
    inner = scope | {p.name: p for p in params}
    return ir.Lambda(params, draw(values(inner, depth)))


@st.composite
def values(draw: st.DrawFn, scope: dict[str, ir.Param], depth: int) -> ir.Expr:
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        use_a_parameter = draw(st.booleans())
        if scope and use_a_parameter:
            return scope[draw(st.sampled_from(sorted(scope)))]
        return draw(literals())
    fun = draw(functions(scope, depth - 1))
    args = tuple(draw(values(scope, depth - 1)) for _ in range(_arity(fun, draw)))
    return ir.Apply(fun, args)


expressions = st.one_of(lambdas({}, 3), values({}, 3))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions)
def test_random_expressions_round_trip(expression: ir.Expr) -> None:
    roundtrip(expression)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions, st.integers(10, 60))
def test_random_expressions_round_trip_through_pretty(expression: ir.Expr, width: int) -> None:
    text = pretty(expression, width)
    assert parse(text) == expression, text
    assert " ".join(text.split()).replace("( ", "(") == show(expression)


@settings(max_examples=60, deadline=None)
@given(types)
def test_random_types_round_trip(kind: Type) -> None:
    assert parse_type(type_text(kind)) == kind


# ---------------------------------------------------------------- pretty


def test_pretty_short_expression_stays_on_one_line() -> None:
    source = "(lambda (xs) (reduce + 0:i32 xs))"
    assert pretty(parse(source)) == source


def test_pretty_saxpy() -> None:
    expression = parse(
        "(lambda ((x (array f64 N)) (y (array f64 N)))"
        " (map (lambda (p) (+ (* 2.0:f64 (get 0 p)) (get 1 p))) (zip x y)))"
    )
    assert pretty(expression) == (
        "(lambda ((x (array f64 N)) (y (array f64 N)))\n"
        "  (map (lambda (p) (+ (* 2.0:f64 (get 0 p)) (get 1 p))) (zip x y)))"
    )


def test_pretty_lowered_map_keeps_static_parts_with_the_head() -> None:
    expression = parse(
        "(lambda ((xs (array f32 N))) (join (map-workgroup 0 (lambda (chunk)"
        " (to-local (map-local 0 (lambda (v) (* v 2.0:f32))) chunk)) (split 64 xs))))"
    )
    assert pretty(expression) == (
        "(lambda ((xs (array f32 N)))\n"
        "  (join\n"
        "    (map-workgroup 0\n"
        "      (lambda (chunk) (to-local (map-local 0 (lambda (v) (* v 2.0:f32))) chunk))\n"
        "      (split 64 xs))))"
    )


def test_pretty_narrow_dot_product() -> None:
    expression = parse(
        "(lambda ((a (array f64 N)) (b (array f64 N)))"
        " (reduce-seq (lambda (acc p) (+ acc (* (get 0 p) (get 1 p)))) 0.0:f64 (zip a b)))"
    )
    assert pretty(expression, width=40) == (
        "(lambda ((a (array f64 N)) (b (array f64 N)))\n"
        "  (reduce-seq\n"
        "    (lambda (acc p)\n"
        "      (+ acc (* (get 0 p) (get 1 p))))\n"
        "    0.0:f64\n"
        "    (zip a b)))"
    )


# ---------------------------------------------------------------- errors


def error_of(source: str) -> str:
    with pytest.raises(LiftError) as caught:
        parse(source)
    return str(caught.value)


def location(message: str) -> tuple[int, int]:
    found = re.match(r"(\d+):(\d+): ", message)
    assert found, message
    return int(found[1]), int(found[2])


def caret_column(message: str) -> int:
    """The 1-based column the caret line points at (both quoted lines are indented 2)."""
    lines = message.split("\n")
    assert len(lines) == 3, message
    assert lines[2].strip() == "^", message
    return len(lines[2]) - 2


@pytest.mark.parametrize(
    ("source", "line", "column", "words"),
    [
        ("(lambda (xs) (map f xs))", 1, 19, "expected a function, not 'f'"),
        ("(+ 1:i32 2:i33)", 1, 12, "no scalar type 'i33'"),
        ("(lambda (x)\n  (foo x))", 2, 4, "no pattern or operator 'foo'"),
        ("(split a xs)", 1, 10, "'xs' is not defined here"),
        ("x y", 1, 3, "text after the expression"),
        ("(map", 1, 1, "'(' never closed"),
        (")", 1, 1, "unexpected ')'"),
        ("(lambda (x) (+ x))", 1, 14, "+ takes 2 data argument(s), not 1"),
        ("(lambda (x) (pad 1 1 zero x))", 1, 22, "a pad's edge is clamp, a literal or a tuple"),
        ("(lambda (x) (split (/ N M) x))", 1, 21, "a size is divided by an integer"),
        ("1.x:f64", 1, 1, "'1.x' is not a f64 literal"),
        ("(lambda (x)\n  (map neg\n       (split 4.5 x)))", 3, 15, "'4.5' is not a size"),
        ("(reduce + 0:i32)", 1, 2, "a function where a value is expected"),
        ("(lambda (x) (slide 1 x))", 1, 22, "an integer"),
        ("(lambda ((x (arr f64 N))) x)", 1, 14, "expected a type"),
    ],
)
def test_parse_errors_point_at_the_text(source: str, line: int, column: int, words: str) -> None:
    message = error_of(source)
    assert location(message) == (line, column)
    assert words in message
    assert caret_column(message) == column
    assert message.split("\n")[1] == "  " + source.split("\n")[line - 1]


def test_empty_input_is_an_error() -> None:
    for source in ("", "   "):
        message = error_of(source)
        assert "expected an expression" in message
        assert location(message)[0] == 1


def test_empty_form_as_a_function_is_a_lift_error() -> None:
    """An empty form where a function is expected is a located LiftError."""
    message = error_of("(map () xs)")
    assert "an empty form" in message
    assert location(message) == (1, 6)
    assert caret_column(message) == 6


@pytest.mark.parametrize(
    ("source", "column"),
    [
        ("(+ 1:i32 ())", 10),
        ("()", 1),
        ("(lambda (x) (map (()) x))", 19),
        ("(lambda ((x ())) x)", 13),
    ],
)
def test_empty_form_error_points_at_the_form(source: str, column: int) -> None:
    """An empty form's error points at its '('."""
    message = error_of(source)
    assert location(message) == (1, column)
    assert caret_column(message) == column
