"""Type inference of lift expressions: the type of each pattern, symbolic size
arithmetic, and ill-typed expressions rejected with a LiftError (lift/ir/check.py)."""

from __future__ import annotations

import pytest

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.check import infer, infer_function
from lift.ir.text import parse, parse_type, type_text
from lift.ir.types import Array, Scalar, Size, Tuple, Vector


def type_of(source: str, *param_types: str) -> str:
    """The type (as text) of the program `source` applied to values of `param_types`."""
    program = parse(source)
    return type_text(infer_function(program, [parse_type(t) for t in param_types]))  # type: ignore[arg-type]


def check(source: str, param_types: list[str], expected: str) -> None:
    program = parse(source)
    assert isinstance(program, ir.Lambda)
    inferred = infer_function(program, [parse_type(t) for t in param_types])
    assert inferred == parse_type(expected), type_text(inferred)


# ---------------------------------------------------------------- sizes


def test_size_arithmetic_is_canonical() -> None:
    n, m = Size.of("N"), Size.of("M")
    assert n.divide(4) * 4 == n
    assert (n * 4).divide(4) == n
    assert n + m == m + n
    assert n * m == m * n
    assert n - n == Size.of(0)
    assert (n + 1) * (n - 1) == n * n - 1
    assert n.divide(2) + n.divide(2) == n
    assert Size.of(3) + 4 == Size.of(7)
    assert Size.of(Size.of("K")) == Size.of("K")


def test_slide_window_count() -> None:
    n = Size.of("N")
    # (N - size) / step + 1 windows
    assert (n - 3).divide(1) + 1 == n - 2
    assert (n - 5).divide(2) + 1 == n.divide(2) - Size.of(3).divide(2)
    check("(lambda (x) (slide 3 1 x))", ["(array f64 N)"], "(array (array f64 3) (- N 2))")
    check(
        "(lambda (x) (slide 5 2 x))",
        ["(array f64 N)"],
        "(array (array f64 5) (+ (/ -3 2) (/ N 2)))",
    )


def test_size_constants_evaluation_and_text() -> None:
    n = Size.of("N")
    assert Size.of(12).constant == 12
    assert Size.of(0).constant == 0
    assert n.constant is None
    assert Size.of(1).divide(2).constant is None
    assert n.variables == {"N"}
    assert (n * "M" + 1).variables == {"N", "M"}
    assert (n.divide(4) - 1).evaluate({"N": 16}) == 3
    assert (n * "M").evaluate({"N": 3, "M": 5}) == 15
    with pytest.raises(LiftError, match="no value for the size M"):
        (n * "M").evaluate({"N": 3})
    with pytest.raises(LiftError, match="not whole"):
        n.divide(4).evaluate({"N": 6})
    with pytest.raises(LiftError):
        n.divide(0)
    assert str(n.divide(4) * 3) == "3*N/4"
    assert str(n - 2) == "(-2+N)"


# ---------------------------------------------------------------- each pattern

N_F64 = "(array f64 N)"
NM_F64 = "(array (array f64 M) N)"


@pytest.mark.parametrize(
    ("source", "params", "expected"),
    [
        ("(lambda (x) (map neg x))", [N_F64], N_F64),
        ("(lambda (x) (map (lambda (v) (< v 0.0:f64)) x))", [N_F64], "(array bool N)"),
        ("(lambda (x) (map (lambda (r) (map i32 r)) x))", [NM_F64], "(array (array i32 M) N)"),
        ("(lambda (x) (reduce + 0.0:f64 x))", [N_F64], "(array f64 1)"),
        (
            "(lambda (x) (reduce (lambda (n v) (+ n (i64 v))) 0:i64 x))",
            [N_F64],
            "(array i64 1)",
        ),
        ("(lambda (x y) (zip x y))", [N_F64, "(array i32 N)"], "(array (tuple f64 i32) N)"),
        (
            "(lambda (x y z) (zip x y z))",
            [N_F64, N_F64, "(array bool N)"],
            "(array (tuple f64 f64 bool) N)",
        ),
        ("(lambda (x) (split 4 x))", [N_F64], "(array (array f64 4) (/ N 4))"),
        ("(lambda (x) (split 4 x))", ["(array f64 32)"], "(array (array f64 4) 8)"),
        ("(lambda (x) (join x))", [NM_F64], "(array f64 (* M N))"),
        ("(lambda (x) (join (split 4 x)))", [N_F64], N_F64),
        ("(lambda (x) (slide 3 1 x))", [N_F64], "(array (array f64 3) (- N 2))"),
        ("(lambda (x) (slide 3 1 (pad 1 1 clamp x)))", [N_F64], "(array (array f64 3) N)"),
        ("(lambda (x) (pad 1 2 clamp x))", [N_F64], "(array f64 (+ N 3))"),
        ("(lambda (x) (pad 2 0 0.0:f64 x))", [NM_F64], "(array (array f64 M) (+ N 2))"),
        ("(lambda (x) (transpose x))", [NM_F64], "(array (array f64 N) M)"),
        ("(lambda (i x) (gather i x))", ["(array i32 K)", N_F64], "(array f64 K)"),
        ("(lambda (a b x) (segment n a b x))", ["i32", "i64", N_F64], "(array f64 n)"),
        ("(lambda (i x y) (permute i x y))", ["(array i64 K)", "(array f64 K)", N_F64], N_F64),
        ("(lambda (a b) (range n a b))", ["i32", "i64"], "(array i64 n)"),
        ("(lambda () (indices 1 (N M)))", [], "(array (array i64 M) N)"),
        (  # two segments of one name: zipped, their lengths are one size
            "(lambda (a b x y) (zip (segment n a b x) (segment n a b y)))",
            ["i64", "i64", N_F64, "(array i32 M)"],
            "(array (tuple f64 i32) n)",
        ),
        (
            "(lambda (i x) (gather i x))",
            ["(array i64 K)", NM_F64],
            "(array (array f64 M) K)",
        ),
        (
            "(lambda (i x) (scatter + 16 0:i32 i x))",
            ["(array i64 N)", "(array i32 N)"],
            "(array i32 16)",
        ),
        (
            "(lambda (i x) (scatter max B -inf:f64 i x))",
            ["(array i32 N)", N_F64],
            "(array f64 B)",
        ),
        (
            "(lambda (x) (iterate 3 (lambda (y) (map (lambda (v) (* v 2.0:f64)) y)) x))",
            [N_F64],
            N_F64,
        ),
        ("(lambda (x) (scan + 0:i32 x))", ["(array i32 N)"], "(array i32 N)"),
        ("(lambda (p) (get 1 p))", ["(tuple f64 (array i32 4) bool)"], "(array i32 4)"),
        ("(lambda (x) (map (get 0) (zip x x)))", [N_F64], N_F64),
        # lengths outermost first: M rows of N, row i at 1 + i*N
        (
            "(lambda (x) (strided 1 (N 1) (M N) x))",
            ["(array f64 (+ (* M N) 1))"],
            "(array (array f64 N) M)",
        ),
        (
            "(lambda (x) (strided 0 (N 1 K) (2 3 4) x))",
            ["(array f32 Z)"],
            "(array (array (array f32 4) 3) 2)",
        ),
        ("(lambda (x) (map-global 0 neg x))", [N_F64], N_F64),
        (
            "(lambda (x) (map-workgroup 0 (map-local 0 (map-seq abs)) x))",
            ["(array (array (array f64 K) M) N)"],
            "(array (array (array f64 K) M) N)",
        ),
        (
            "(lambda (x) (map-global 1 (reduce-seq min inf:f64) x))",
            [NM_F64],
            "(array (array f64 1) N)",
        ),
        ("(lambda (x) (to-local (map-local 0 (lambda (v) v)) x))", [N_F64], N_F64),
        ("(lambda (x) (to-global (map-seq neg) x))", [N_F64], N_F64),
        ("(lambda (x) (to-private (reduce-seq + 0.0:f64) x))", [N_F64], "(array f64 1)"),
        ("(lambda (x) (split-vec 4 x))", ["(array f32 N)"], "(array (vec f32 4) (/ N 4))"),
        ("(lambda (x) (join-vec x))", ["(array (vec f32 4) N)"], "(array f32 (* 4 N))"),
        ("(lambda (v) (map-vec neg v))", ["(vec f32 4)"], "(vec f32 4)"),
        ("(lambda (v) (map-vec (lambda (a) (< a 0.0:f32)) v))", ["(vec f32 8)"], "(vec bool 8)"),
        (
            "(lambda (x) (join-vec (map (map-vec (lambda (v) (* v 2.0:f32))) (split-vec 4 x))))",
            ["(array f32 N)"],
            "(array f32 N)",
        ),
        (
            "(lambda (x y) (join-vec (map (map-vec (lambda (p) (+ (get 0 p) (get 1 p))))"
            " (zip (split-vec 2 x) (split-vec 2 y)))))",
            [N_F64, N_F64],
            N_F64,
        ),
        # Two results a lane: a tuple of vectors, joined into an array of tuples.
        (
            "(lambda (v) (map-vec (lambda (a) (tuple (neg a) (* a a))) v))",
            ["(vec f64 2)"],
            "(tuple (vec f64 2) (vec f64 2))",
        ),
        (
            "(lambda (x y) (join-vec (map (map-vec (lambda (p) (tuple (get 1 p) (get 0 p))))"
            " (zip (split-vec 2 x) (split-vec 2 y)))))",
            [N_F64, "(array i32 N)"],
            "(array (tuple i32 f64) N)",
        ),
        ("(lambda (a b c) (select (< a b) c (neg c)))", ["i32", "i32", "f64"], "f64"),
        ("(lambda (a) (f32 (i64 a)))", ["f64"], "f32"),
        ("(lambda (v) (+ v v))", ["(vec f64 4)"], "(vec f64 4)"),
        ("(lambda (v) (< v v))", ["(vec f64 4)"], "(vec bool 4)"),
    ],
)
def test_pattern_types(source: str, params: list[str], expected: str) -> None:
    check(source, params, expected)


def test_lambda_parameter_types_declared_in_the_text_are_used() -> None:
    program = parse("(lambda ((x (array f64 N))) (split 4 x))")
    assert isinstance(program, ir.Lambda)
    params = [p.type for p in program.params]
    assert params == [Array(Scalar("f64"), Size.of("N"))]
    assert infer_function(program, params) == Array(  # type: ignore[arg-type]
        Array(Scalar("f64"), Size.of(4)), Size.of("N").divide(4)
    )
    # The body alone: its free parameter carries its declared type.
    assert infer(program.body) == parse_type("(array (array f64 4) (/ N 4))")


def test_infer_of_an_environment_and_of_literals() -> None:
    x = ir.Param("x")
    assert infer(ir.Literal(1.0, Scalar("f32"))) == Scalar("f32")
    assert infer(ir.apply(ir.Op("+"), x, x), {x: Vector(Scalar("i32"), 4)}) == Vector(
        Scalar("i32"), 4
    )
    zipped = ir.apply(ir.Zip(), x, x)
    assert infer(zipped, {x: parse_type("(array i64 N)")}) == Array(
        Tuple((Scalar("i64"), Scalar("i64"))), Size.of("N")
    )
    with pytest.raises(LiftError, match="x has no type here"):
        infer(x)
    with pytest.raises(LiftError, match="a function where a value is expected"):
        infer(parse("(lambda (y) y)"))


# ---------------------------------------------------------------- ill-typed


@pytest.mark.parametrize(
    ("source", "params", "words"),
    [
        # zip of arrays of different constant lengths
        ("(lambda (x y) (zip x y))", ["(array f64 3)", "(array f64 4)"], "zip: lengths 3 and 4"),
        ("(lambda (x y) (zip x y))", ["(array f64 N)", "(array f64 M)"], "zip: lengths"),
        ("(lambda (x) (zip x))", [N_F64], "zip takes two arrays or more"),
        # get out of a tuple's range
        ("(lambda (p) (get 2 p))", ["(tuple f64 i32)"], "get 2 of (tuple f64 i32)"),
        ("(lambda (p) (get -1 p))", ["(tuple f64 i32)"], "get -1"),
        ("(lambda (x) (map (get 2) x))", ["(array (tuple f64 i32) N)"], "get 2"),
        ("(lambda (x) (get 3 x))", ["(array f64 3)"], "get 3 of (array f64 3)"),
        ("(lambda (p) (get 0 p))", ["f64"], "get 0 of f64"),
        # + of f32 and f64, and other scalar operations
        ("(lambda (a b) (+ a b))", ["f32", "f64"], "the operands of +: f32 and f64 differ"),
        ("(lambda (a) (+ a 1.0:f32))", ["f64"], "the operands of +"),
        ("(lambda (a b) (+ a b))", ["i32", "i64"], "differ"),
        ("(lambda (a) (* a a))", [N_F64], "a scalar operation on (array f64 N)"),
        ("(lambda (a b) (select (< a a) a b))", ["f64", "i32"], "the values of select"),
        ("(lambda (v w) (+ v w))", ["(vec f32 4)", "(vec f32 8)"], "differ"),
        ("(lambda (v w) (+ v w))", ["(vec f32 4)", "f64"], "differ"),
        # reduce, scan, scatter, iterate whose function changes the type
        (
            "(lambda (x) (reduce (lambda (a b) (< a b)) 0.0:f64 x))",
            [N_F64],
            "Reduce's function: bool and f64 differ",
        ),
        ("(lambda (x) (reduce + 0:i32 x))", [N_F64], "differ"),
        ("(lambda (x) (reduce-seq (lambda (a b) (i64 b)) 0:i32 x))", [N_F64], "ReduceSeq"),
        ("(lambda (x) (scan (lambda (a b) (f32 b)) 0.0:f64 x))", [N_F64], "scan's function"),
        (
            "(lambda (i x) (scatter (lambda (a b) (< a b)) 4 0.0:f64 i x))",
            ["(array i32 N)", N_F64],
            "scatter's function",
        ),
        (
            "(lambda (x) (iterate 2 (lambda (y) (get 0 y)) x))",
            [N_F64],
            "get 0 of f64",  # the second step takes an element of what is not an array
        ),
        # split-vec of a non-scalar array, or to a width OpenCL has not
        ("(lambda (x) (split-vec 4 x))", [NM_F64], "split-vec takes scalars"),
        ("(lambda (x) (split-vec 4 x))", ["(array (vec f32 4) N)"], "split-vec takes scalars"),
        ("(lambda (x) (split-vec 5 x))", [N_F64], "vectors of 2, 3, 4, 8 or 16"),
        ("(lambda (x) (join-vec x))", [N_F64], "join-vec takes an array of vectors"),
        (
            "(lambda (x) (join-vec x))",
            ["(array (tuple (vec f32 2) (vec f32 4)) N)"],
            "join-vec takes an array of vectors, or of tuples of vectors",
        ),
        (
            "(lambda (v) (map-vec (lambda (a) (tuple a (tuple a a))) v))",
            ["(vec f32 4)"],
            "map-vec's function returns a scalar or a tuple of scalars",
        ),
        ("(lambda (x) (map-vec neg x))", ["(array f32 4)"], "map-vec takes a vector"),
        ("(lambda (v) (map-vec (lambda (a) (split 2 a)) v))", ["(vec f32 4)"], "split takes"),
        # arrays where they are needed
        ("(lambda (x) (map neg x))", ["f64"], "Map takes an array, not f64"),
        ("(lambda (x) (join x))", [N_F64], "join takes an array of arrays"),
        ("(lambda (x) (transpose x))", [N_F64], "transpose takes an array of arrays"),
        ("(lambda (x) (split 0 x))", [N_F64], "split by 0"),
        ("(lambda (x) (split M x))", [N_F64], "split by M of N elements: not a divisor"),
        ("(lambda (x) (slide 0 1 x))", [N_F64], "slide's size and step are positive"),
        ("(lambda (x) (slide 3 0 x))", [N_F64], "slide's size and step are positive"),
        ("(lambda (x) (pad 1 1 0.0:f32 x))", [NM_F64], "pad's constant: f64 and f32 differ"),
        ("(lambda (i x) (gather i x))", ["(array f32 K)", N_F64], "gather's indices"),
        ("(lambda (a b x) (segment n a b x))", ["f64", "i32", N_F64], "segment's bounds"),
        (
            "(lambda (i x y) (permute i x y))",
            ["(array i32 M)", "(array f64 K)", N_F64],
            "permute's indices and values",
        ),
        (
            "(lambda (i x y) (permute i x y))",
            ["(array i32 K)", "(array f32 K)", N_F64],
            "permute's values and array",
        ),
        ("(lambda (i x y) (permute i x y))", [N_F64, N_F64, N_F64], "permute's indices"),
        ("(lambda (a b) (range n a b))", ["f32", "i32"], "range's bounds are i32 or i64, not f32"),
        ("(lambda (a b) (range 4 a b))", ["i32", "i32"], "range's length is named by a name"),
        ("(lambda (a b x) (segment 3 a b x))", ["i32", "i32", N_F64], "named by a name"),
        ("(lambda () (indices 2 (N M)))", [], "indices 2 of 2 dimension(s)"),
        ("(lambda (a b x) (segment n a b x))", ["i32", "i32", "f64"], "segment takes an array"),
        (
            "(lambda (i x) (scatter + 4 0.0:f64 i x))",
            ["(array i32 M)", N_F64],
            "scatter's indices and values",
        ),
        ("(lambda (x) (strided 0 (1) (N) x))", [NM_F64], "strided views a flat array"),
        ("(lambda (x) (strided 0 (1 2) (N) x))", [N_F64], "one stride per length"),
        ("(lambda (x) (strided 0 () () x))", [N_F64], "strided"),
        ("(lambda (a b) (ult a b))", ["f64", "f64"], "ult of f64: integers only"),
        ("(lambda (a b) (uge a b))", ["i32", "i64"], "the operands of uge"),
        # parameters
        ("(lambda ((x (array f64 N))) x)", ["(array f64 M)"], "the parameter x"),
        ("(lambda (x) ((lambda ((y f32)) y) x))", ["f64"], "the parameter y"),
    ],
)
def test_ill_typed_expressions_raise(source: str, params: list[str], words: str) -> None:
    program = parse(source)
    with pytest.raises(LiftError) as caught:
        if isinstance(program, ir.Lambda):
            infer_function(program, [parse_type(t) for t in params])
        else:
            infer(program)
    assert words in str(caught.value)


def test_a_lambda_applied_to_too_many_arguments() -> None:
    # The parser refuses this text; the expression built by hand is refused by infer.
    x = ir.Param("x")
    one = ir.Literal(1, Scalar("i32"))
    applied = ir.Apply(ir.Lambda((x,), x), (one, one))
    with pytest.raises(LiftError, match=r"a function of 1 parameter\(s\) applied to 2"):
        infer(applied)


def test_type_text_round_trips_through_parse_type() -> None:
    for text in (
        "f32",
        "(vec i32 4)",
        "(tuple f64 (array bool 3))",
        "(array (array f64 (/ N 4)) (- M 2))",
        "(array (tuple (vec f32 4) i64) (* 4 N))",
    ):
        assert type_text(parse_type(text)) == text
    with pytest.raises(LiftError, match="a vector holds scalars"):
        parse_type("(vec (array f32 4) 4)")
    with pytest.raises(LiftError, match="no scalar type 'f16'"):
        parse_type("f16")
