"""Comparing outputs (measure/compare.py): integers exactly, floating point within a
relative tolerance, a zero of either sign as zero."""

from __future__ import annotations

from measure.compare import first_difference


def test_integers_must_be_equal() -> None:
    assert first_difference("n = 3\n", "n = 3\n") is None
    assert first_difference("n = 3\n", "n = 4\n") is not None


def test_floating_point_within_the_tolerance() -> None:
    assert first_difference("x = 1.000000\n", "x = 1.000001\n") is None
    assert first_difference("x = 1.0\n", "x = 1.1\n") is not None


def test_a_zero_of_either_sign_is_zero() -> None:
    assert first_difference("s = 0\n", "s = -0\n") is None
    assert first_difference("s = -0\n", "s = 1\n") is not None


def test_line_counts_must_agree() -> None:
    assert first_difference("a\nb\n", "a\n") is not None


def test_tiny_values_agree_within_a_tolerance_and_not_when_it_is_zero() -> None:
    # A residual after convergence is rounding noise: a relative tolerance lets it move,
    # an exact comparison (tolerance 0: exact replacements) does not.
    assert first_difference("r = 2.42318e-14\n", "r = 8.90624e-15\n") is None
    assert first_difference("r = 2.42318e-14\n", "r = 8.90624e-15\n", tolerance=0.0) is not None
    assert first_difference("r = 1.50e-14\n", "r = 1.5e-14\n", tolerance=0.0) is None
    assert first_difference("s = 0.0\n", "s = -0.0\n", tolerance=0.0) is None
