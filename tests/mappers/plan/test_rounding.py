"""Which calls a device may round differently from the C library (mappers/plan/rounding.py)."""

from __future__ import annotations

import pytest

from mappers.plan.rounding import math_function


@pytest.mark.parametrize(
    ("callee", "name"),
    [
        ("exp", "exp"),
        ("expf", "exp"),
        ("expl", "exp"),
        ("llvm.exp.f64", "exp"),
        ("llvm.exp2.v4f32", "exp2"),
        ("powf", "pow"),
        ("erf", "erf"),
        ("erff", "erf"),
        ("tanh", "tanh"),
        ("fabs", None),
        ("sqrtf", None),
        ("llvm.sqrt.f64", None),
        ("llvm.fmuladd.f64", None),
        ("floorf", None),
        ("self", None),
        (None, None),
    ],
)
def test_math_function(callee: str | None, name: str | None) -> None:
    assert math_function(callee) == name
