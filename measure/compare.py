"""Comparing a program's output with its accelerated version's.

Integers (and every other word) must be equal; floating-point numbers may differ by
a relative `tolerance`, because BLAS and OpenCL reductions add in another order
(reassociation, IDIOMS.md rule 4). The default allows for single-precision sums of
about a million terms, and any two within 1e-12 of each other agree (noise near zero); a
caller comparing exact replacements passes 0, and then every number must be equal.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["FLOAT_TOLERANCE", "first_difference", "program_tolerance"]

FLOAT_TOLERANCE = 1e-5
_DECLARED = re.compile(r"^//\s*tolerance:\s*([0-9.eE+-]+)", re.MULTILINE)
_TOKEN = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|\S")


def first_difference(
    expected: str, actual: str, *, tolerance: float = FLOAT_TOLERANCE
) -> str | None:
    """None when the outputs agree, else a description of the first difference."""
    for number, (left, right) in enumerate(
        zip(expected.splitlines(), actual.splitlines(), strict=False), start=1
    ):
        if not _lines_agree(left, right, tolerance):
            return f"line {number}: expected {left!r}, got {right!r}"
    lines_expected, lines_actual = len(expected.splitlines()), len(actual.splitlines())
    if lines_expected != lines_actual:
        return f"{lines_expected} lines expected, got {lines_actual}"
    return None


def _lines_agree(left: str, right: str, tolerance: float) -> bool:
    if left == right:
        return True
    left_tokens, right_tokens = _TOKEN.findall(left), _TOKEN.findall(right)
    if len(left_tokens) != len(right_tokens):
        return False
    return all(
        _tokens_agree(a, b, tolerance) for a, b in zip(left_tokens, right_tokens, strict=True)
    )


def _tokens_agree(left: str, right: str, tolerance: float) -> bool:
    if left == right:
        return True
    floating = any(c in left + right for c in ".eE")
    if not floating:
        # `%g` prints a floating-point zero of either sign as "0" or "-0": equal
        return {left, right} == {"0", "-0"}
    try:
        a, b = float(left), float(right)
    except ValueError:
        return False
    if tolerance == 0.0:  # exact: a residual of 1e-14 that moves is a difference too
        return a == b
    scale = max(abs(a), abs(b), 1e-300)
    return abs(a - b) <= tolerance * scale or abs(a - b) <= 1e-12


def program_tolerance(source: Path) -> float:
    """The relative tolerance a program declares (`// tolerance: 1e-3`, with its reason on
    the same line), for outputs whose floating-point rounding is ill-conditioned; else the
    default."""
    match = _DECLARED.search(source.read_text(encoding="utf-8", errors="replace"))
    return float(match.group(1)) if match else FLOAT_TOLERANCE
