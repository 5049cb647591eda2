"""The reference interpreter on small inputs whose results were worked out by hand
(lift/ir/interpret.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.interpret import Lanes, evaluate, run
from lift.ir.text import parse


def go(source: str, *args: Any, sizes: dict[str, int] | None = None) -> Any:
    return run(parse(source), list(args), sizes)


@pytest.mark.parametrize(
    ("source", "args", "expected"),
    [
        # map, zip, get
        ("(lambda (x) (map neg x))", [[1, -2, 3]], [-1, 2, -3]),
        ("(lambda (x) (map (lambda (v) (* v v)) x))", [[1, 2, 3]], [1, 4, 9]),
        ("(lambda (x) (map (map abs) x))", [[[-1, 2], [3, -4]]], [[1, 2], [3, 4]]),
        ("(lambda (x y) (zip x y))", [[1, 2], [3.5, 4.5]], [(1, 3.5), (2, 4.5)]),
        (
            "(lambda (x y) (map (lambda (p) (- (get 0 p) (get 1 p))) (zip x y)))",
            [[10, 20, 30], [1, 2, 3]],
            [9, 18, 27],
        ),
        ("(lambda (x y z) (map (get 2) (zip x y z)))", [[1], [2], [3]], [3]),
        ("(lambda (x) (get 1 x))", [[5, 6, 7]], 6),
        # reduce: a one-element array, folded from the left
        ("(lambda (x) (reduce + 0:i32 x))", [[1, 2, 3, 4]], [10]),
        ("(lambda (x) (reduce + 5:i32 x))", [[]], [5]),
        ("(lambda (x) (reduce - 100:i32 x))", [[1, 2, 3]], [94]),
        ("(lambda (x) (reduce (lambda (a b) (- b a)) 0:i32 x))", [[1, 2, 3]], [2]),
        ("(lambda (x) (reduce max -inf:f64 x))", [[3.0, 7.0, -1.0]], [7.0]),
        ("(lambda (x) (reduce-seq min inf:f64 x))", [[3.0, 7.0, -1.0]], [-1.0]),
        # scan: exclusive prefixes
        ("(lambda (x) (scan + 0:i32 x))", [[1, 2, 3]], [0, 1, 3]),
        ("(lambda (x) (scan * 1:i32 x))", [[2, 3, 4]], [1, 2, 6]),
        ("(lambda (x) (scan + 0:i32 x))", [[]], []),
        # split, join
        ("(lambda (x) (split 2 x))", [[1, 2, 3, 4, 5, 6]], [[1, 2], [3, 4], [5, 6]]),
        ("(lambda (x) (split 3 x))", [[1, 2, 3, 4, 5, 6]], [[1, 2, 3], [4, 5, 6]]),
        ("(lambda (x) (join x))", [[[1, 2], [3], []]], [1, 2, 3]),
        ("(lambda (x) (join (split 2 x)))", [[1, 2, 3, 4]], [1, 2, 3, 4]),
        # slide
        ("(lambda (x) (slide 3 1 x))", [[1, 2, 3, 4]], [[1, 2, 3], [2, 3, 4]]),
        ("(lambda (x) (slide 2 2 x))", [[1, 2, 3, 4]], [[1, 2], [3, 4]]),
        ("(lambda (x) (slide 3 2 x))", [[1, 2, 3, 4, 5, 6, 7]], [[1, 2, 3], [3, 4, 5], [5, 6, 7]]),
        ("(lambda (x) (slide 1 1 x))", [[8, 9]], [[8], [9]]),
        # pad
        ("(lambda (x) (pad 1 1 clamp x))", [[1, 2, 3]], [1, 1, 2, 3, 3]),
        ("(lambda (x) (pad 2 0 clamp x))", [[4, 5]], [4, 4, 4, 5]),
        ("(lambda (x) (pad 0 2 0:i32 x))", [[4, 5]], [4, 5, 0, 0]),
        ("(lambda (x) (pad 1 1 clamp x))", [[[1, 2], [3, 4]]], [[1, 2], [1, 2], [3, 4], [3, 4]]),
        (
            "(lambda (x) (pad 1 1 -1:i32 x))",
            [[[1, 2], [3, 4]]],
            [[-1, -1], [1, 2], [3, 4], [-1, -1]],
        ),
        (
            "(lambda (x) (map (lambda (w) (reduce + 0:i32 w)) (slide 3 1 (pad 1 1 clamp x))))",
            [[1, 2, 3, 4]],
            [[4], [6], [9], [11]],  # reduce's result is a one-element array
        ),
        # transpose
        ("(lambda (x) (transpose x))", [[[1, 2, 3], [4, 5, 6]]], [[1, 4], [2, 5], [3, 6]]),
        ("(lambda (x) (transpose (transpose x)))", [[[1, 2], [3, 4]]], [[1, 2], [3, 4]]),
        # gather: xs[idx[0]], xs[idx[1]], ...
        ("(lambda (i x) (gather i x))", [[2, 0, 2], [10, 20, 30]], [30, 10, 30]),
        ("(lambda (i x) (gather i x))", [[], [10]], []),
        # segment: xs[lo:hi], nothing where hi <= lo
        ("(lambda (a b x) (segment n a b x))", [1, 3, [10, 20, 30, 40]], [20, 30]),
        ("(lambda (a b x) (segment n a b x))", [3, 1, [10, 20, 30, 40]], []),
        # range: lo, lo + 1, ..., hi - 1, nothing where hi <= lo
        ("(lambda (a b) (range n a b))", [-2, 2], [-2, -1, 0, 1]),
        ("(lambda (a b) (range n a b))", [3, 1], []),
        # scatter: a histogram of the indices
        (
            "(lambda (i x) (scatter + 4 0:i32 i x))",
            [[0, 2, 2, 3, 2], [1, 1, 1, 1, 1]],
            [1, 0, 3, 1],
        ),
        (
            "(lambda (i x) (scatter max 3 -inf:f64 i x))",
            [[1, 1, 0], [5.0, 7.0, 2.0]],
            [2.0, 7.0, -math.inf],
        ),
        (  # folded in order: the last write wins with (lambda (old new) new)
            "(lambda (i x) (scatter (lambda (old new) new) 2 0:i32 i x))",
            [[0, 1, 0], [7, 8, 9]],
            [9, 8],
        ),
        # iterate
        (
            "(lambda (x) (iterate 3 (lambda (y) (map (lambda (v) (* v 2:i32)) y)) x))",
            [[1, 2]],
            [8, 16],
        ),
        ("(lambda (x) (iterate 0 (map neg) x))", [[1, 2]], [1, 2]),
        (
            "(lambda (x) (iterate 2 (lambda (y) (join (transpose (split 2 y)))) x))",
            [[1, 2, 3, 4]],
            [1, 2, 3, 4],
        ),
        # scalar operations
        ("(lambda (a b) (select (< a b) a b))", [3, 5], 3),
        ("(lambda (a) (i32 a))", [-2.7], -2),
        ("(lambda (a) (f64 a))", [3], 3.0),
        ("(lambda (a b) (/ a b))", [-7, 2], -3),  # C truncates toward zero
        ("(lambda (a b) (% a b))", [-7, 2], -1),
        ("(lambda (a b) (/ a b))", [7.0, 2.0], 3.5),
        ("(lambda (a b) (and (< a b) (not (== a b))))", [1, 2], True),
        ("(lambda (a) (floor a))", [-1.5], -2.0),
        ("(lambda (a b) (ult a b))", [3, 5], True),
        ("(lambda (a b) (uge a b))", [3, 5], False),
    ],
)
def test_patterns(source: str, args: list[Any], expected: Any) -> None:
    assert go(source, *args) == expected


def test_evaluate_an_expression_in_an_environment() -> None:
    # Inner lambdas shadow outer parameters of the same name.
    applied = parse("((lambda (x) ((lambda (x) (* x 10:i32)) (+ x 1:i32))) 2:i32)")
    assert evaluate(applied, {}) == 30
    x = ir.Param("x")
    assert evaluate(ir.apply(ir.Op("+"), x, x), {x: 4}) == 8
    with pytest.raises(LiftError, match="x has no value"):
        evaluate(x, {})


def test_strided_views_with_sizes() -> None:
    grid = list(range(12))  # a 3x4 grid, row-major
    rows = "(lambda (x) (strided 0 (N 1) (M N) x))"
    assert go(rows, grid, sizes={"N": 4, "M": 3}) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    columns = "(lambda (x) (strided 0 (1 N) (N M) x))"
    assert go(columns, grid, sizes={"N": 4, "M": 3}) == [
        [0, 4, 8],
        [1, 5, 9],
        [2, 6, 10],
        [3, 7, 11],
    ]
    # The interior of the grid: offset one row and one column, 1x2 elements.
    interior = "(lambda (x) (strided (+ N 1) (N 1) ((- M 2) (- N 2)) x))"
    assert go(interior, grid, sizes={"N": 4, "M": 3}) == [[5, 6]]
    assert go("(lambda (x) (strided 1 (2) (3) x))", [0, 1, 2, 3, 4, 5, 6]) == [1, 3, 5]
    with pytest.raises(LiftError, match="no value for the size N"):
        go(rows, grid, sizes={"M": 3})
    with pytest.raises(LiftError, match="index 12 outside"):
        go(rows, grid, sizes={"N": 4, "M": 4})


def test_indices_give_each_element_its_coordinate() -> None:
    rows = go("(lambda () (indices 0 (N M)))", sizes={"N": 2, "M": 3})
    assert rows == [[0, 0, 0], [1, 1, 1]]
    assert go("(lambda () (indices 1 (N M)))", sizes={"N": 2, "M": 3}) == [[0, 1, 2], [0, 1, 2]]


def test_a_scatter_drops_values_at_negative_indices() -> None:
    """A conditional histogram's skipped iterations: their place is -1."""
    counted = go("(lambda (i x) (scatter + 3 0:i32 i x))", [0, -1, 2, -1, 2], [1, 5, 1, 7, 1])
    assert counted == [1, 0, 2]


def test_permute_writes_each_value_at_its_index_once() -> None:
    """The elements no index names keep their values; an index twice is refused (the
    kernel's work-items would race), as is one outside the array."""
    permute = "(lambda (i x y) (permute i x y))"
    assert go(permute, [3, 0], [7, 8], [1, 2, 3, 4, 5]) == [8, 2, 3, 7, 5]
    with pytest.raises(LiftError, match="permute writes index 1 twice"):
        go(permute, [1, 1], [7, 8], [1, 2, 3])
    with pytest.raises(LiftError, match=r"index 3 outside 0\.\.2"):
        go(permute, [3], [7], [1, 2, 3])


def test_segments_of_rows_between_row_pointers() -> None:
    row_sums = (
        "(lambda (p x) (map (lambda (r) (reduce + 0:i32 (segment n (get 0 r) (get 1 r) x)))"
        " (zip (strided 0 (1) (R) p) (strided 1 (1) (R) p))))"
    )
    assert go(row_sums, [0, 2, 2, 5], [1, 2, 3, 4, 5], sizes={"R": 3}) == [[3], [0], [12]]
    with pytest.raises(LiftError, match=r"segment 4\.\.9 outside 0\.\.5"):
        go("(lambda (x) (segment n 4:i32 9:i32 x))", [1, 2, 3, 4, 5])


def test_split_and_scatter_with_symbolic_sizes() -> None:
    assert go("(lambda (x) (split (/ N 2) x))", [1, 2, 3, 4], sizes={"N": 4}) == [[1, 2], [3, 4]]
    histogram = "(lambda (i x) (scatter + K 0:i32 i x))"
    assert go(histogram, [1, 1, 0], [1, 1, 1], sizes={"K": 3}) == [1, 2, 0]


def test_f32_arithmetic_rounds_after_every_operation() -> None:
    total = go("(lambda () (+ 1e8:f32 1.0:f32))")
    assert isinstance(total, np.float32)
    assert total == np.float32(1e8)
    # The same sum in f64 keeps the 1.
    assert go("(lambda () (+ 1e8:f64 1.0:f64))") == 100000001.0
    ones = [1.0, 1.0, 1.0, 1.0]
    assert go("(lambda (x) (reduce + 1e8:f32 x))", ones) == [np.float32(1e8)]
    assert go("(lambda (x) (reduce + 1e8:f64 x))", ones) == [100000004.0]
    # A literal is f32 from the start: 0.1:f32 is not 0.1.
    tenth = go("(lambda () (f64 0.1:f32))")
    assert tenth == float(np.float32(0.1))
    assert tenth != 0.1
    third = go("(lambda (a) (/ a 3.0:f32))", np.float32(1.0))
    assert isinstance(third, np.float32)
    assert third == np.float32(1.0) / np.float32(3.0)
    assert isinstance(go("(lambda (a) (sqrt a))", np.float32(2.0)), np.float32)
    assert isinstance(go("(lambda (a) (i32 a))", np.float32(2.5)), int)


def test_vectors_work_lane_by_lane() -> None:
    doubled = go("(lambda (v) (map-vec (lambda (a) (* a 2:i32)) v))", Lanes([1, 2, 3, 4]))
    assert isinstance(doubled, Lanes)
    assert doubled == (2, 4, 6, 8)
    assert go("(lambda (x) (split-vec 2 x))", [1, 2, 3, 4]) == [(1, 2), (3, 4)]
    assert all(isinstance(v, Lanes) for v in go("(lambda (x) (split-vec 2 x))", [1, 2, 3, 4]))
    assert go("(lambda (x) (join-vec x))", [Lanes([1, 2]), Lanes([3, 4])]) == [1, 2, 3, 4]
    program = "(lambda (x) (join-vec (map (map-vec (lambda (v) (+ v 1:i32))) (split-vec 4 x))))"
    assert go(program, list(range(8))) == list(range(1, 9))
    zipped = (
        "(lambda (x y) (join-vec (map (map-vec (lambda (p) (* (get 0 p) (get 1 p))))"
        " (zip (split-vec 2 x) (split-vec 2 y)))))"
    )
    assert go(zipped, [1, 2, 3, 4], [5, 6, 7, 8]) == [5, 12, 21, 32]
    # A scalar beside a vector widens to every lane.
    assert go("(lambda (v) (+ v 10:i32))", Lanes([1, 2])) == (11, 12)


def test_lowered_patterns_mean_their_algorithmic_ones() -> None:
    xss = [[1, 2, 3], [4, 5, 6]]
    plain = go("(lambda (x) (map (lambda (r) (reduce + 0:i32 (map neg r))) x))", xss)
    assert plain == [[-6], [-15]]
    for lowered in (
        "(lambda (x) (map-global 0 (lambda (r) (reduce-seq + 0:i32 (map-seq neg r))) x))",
        "(lambda (x) (map-workgroup 0 (lambda (r) (to-private (reduce-seq + 0:i32)"
        " (to-local (map-local 0 neg) r))) x))",
        "(lambda (x) (to-global (map-global 1 (lambda (r) (reduce-seq + 0:i32"
        " (map-local 0 neg r)))) x))",
    ):
        assert go(lowered, xss) == plain


def test_run_errors() -> None:
    with pytest.raises(LiftError, match="a program is a lambda"):
        run(parse("1:i32"), [])
    with pytest.raises(LiftError, match="applied to 2"):
        go("(lambda (x) x)", 1, 2)
    with pytest.raises(LiftError, match="split 2 of 3 elements"):
        go("(lambda (x) (split 2 x))", [1, 2, 3])
    with pytest.raises(LiftError, match="split-vec 4 of 6 elements"):
        go("(lambda (x) (split-vec 4 x))", [1, 2, 3, 4, 5, 6])
    with pytest.raises(LiftError, match=r"index 3 outside 0\.\.2"):
        go("(lambda (i x) (gather i x))", [3], [1, 2, 3])
    with pytest.raises(LiftError, match="index 2 outside"):
        go("(lambda (i x) (scatter + 2 0:i32 i x))", [2], [1])
    with pytest.raises(LiftError, match="clamp padding of an empty array"):
        go("(lambda (x) (pad 1 1 clamp x))", [])
    with pytest.raises(LiftError, match="an array expected"):
        go("(lambda (x) (map neg x))", 3)
    with pytest.raises(LiftError, match="integer division by zero"):
        go("(lambda (a) (/ a 0:i32))", 1)


# Interpreter errors and IEEE results: a LiftError for unequal zips, and nan or inf
# (never a Python exception or a complex number) where OpenCL's math gives them.


def test_zip_of_different_lengths_is_a_lift_error() -> None:
    with pytest.raises(LiftError, match="zip of lengths 2, 1"):
        go("(lambda (x y) (zip x y))", [1, 2], [1])


def test_float_division_by_zero_is_infinite_or_nan() -> None:
    with np.errstate(divide="ignore", invalid="ignore"):
        assert go("(lambda (a) (/ 1.0:f32 a))", np.float32(0.0)) == math.inf
    assert go("(lambda (a) (/ 1.0:f64 a))", 0.0) == math.inf
    assert go("(lambda (a) (/ -1.0:f64 a))", 0.0) == -math.inf
    assert math.isnan(go("(lambda (a) (/ 0.0:f64 a))", 0.0))
    assert isinstance(go("(lambda (a) (/ 1.0:f64 a))", 4.0), float)


def test_math_functions_outside_their_domain_follow_ieee() -> None:
    assert math.isnan(go("(lambda (a) (sqrt a))", -1.0))
    assert go("(lambda (a) (log a))", 0.0) == -math.inf
    assert go("(lambda (a) (exp a))", 1000.0) == math.inf
    root = go("(lambda (a) (sqrt a))", np.float32(-1.0))
    assert isinstance(root, np.float32)
    assert math.isnan(root)


def test_pow_of_a_negative_base_is_nan() -> None:
    result = go("(lambda (a) (pow a 0.5:f64))", -1.0)
    assert isinstance(result, float)
    assert math.isnan(result)
    assert go("(lambda (a) (pow a 3:i32))", 2) == 8
    assert go("(lambda (a) (pow a 2.0:f64))", 3.0) == 9.0


def test_sin_and_cos_of_infinity_are_nan() -> None:
    assert math.isnan(go("(lambda (a) (sin a))", math.inf))
    assert math.isnan(go("(lambda (a) (cos a))", -math.inf))


def test_floor_of_infinity_and_nan() -> None:
    assert go("(lambda (a) (floor a))", math.inf) == math.inf
    assert math.isnan(go("(lambda (a) (floor a))", math.nan))


def test_float_remainder_by_zero_is_nan() -> None:
    assert math.isnan(go("(lambda (a) (% 1.0:f64 a))", 0.0))
    assert math.isnan(go("(lambda (a) (% a 2.0:f64))", math.inf))


def test_unsigned_orders_need_the_bits_of_a_negative_value() -> None:
    with pytest.raises(LiftError, match="read as unsigned"):
        go("(lambda (a b) (ult a b))", -1, 5)
