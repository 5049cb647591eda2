"""Fingerprints: stable when unrelated lines move, distinct for distinct or repeated code."""

from __future__ import annotations

from ci.findings import Found, UnitResult
from ci.fingerprint import findings_of, normalised

LOOP = ["  for (i = 0; i < n; i++)", "      s += x[i];"]


def found(first: int, path: str = "/src/a.c", function: str = "dot") -> Found:
    return Found("Reduction", function, path, first, first + 1, True, "OpenCL reduction kernel")


def fingerprints(lines: list[str], *firsts: int, function: str = "dot") -> list[str]:
    result = UnitResult("/src/a.c", tuple(found(f, function=function) for f in firsts))
    return [f.fingerprint for f in findings_of([result], lambda _: lines)]


def test_lines_moving_above_keep_the_fingerprint() -> None:
    before = fingerprints(["int x;", *LOOP], 2)
    after = fingerprints(["// a new comment", "", "int x;", *LOOP], 4)
    assert before == after


def test_whitespace_changes_keep_it_and_code_changes_do_not() -> None:
    base = fingerprints(LOOP, 1)
    assert fingerprints(["for (i = 0;   i < n; i++)", "s += x[i];"], 1) == base
    assert fingerprints(["for (i = 0; i < n; i++)", "s += y[i];"], 1) != base
    assert fingerprints(LOOP, 1, function="other") != base


def test_repeated_code_is_told_apart_by_occurrence() -> None:
    first, second = fingerprints([*LOOP, *LOOP], 1, 3)
    assert first != second
    assert first.split(":")[0] == second.split(":")[0]
    assert (first.split(":")[1], second.split(":")[1]) == ("0", "1")


def test_an_instance_seen_from_two_units_is_reported_once() -> None:
    header = found(1, path="/src/kernel.h")
    results = [UnitResult("/src/a.c", (header,)), UnitResult("/src/b.c", (header,))]
    assert len(findings_of(results, lambda _: LOOP)) == 1


def test_normalised() -> None:
    assert normalised(["a", "  b \t c ", "d"], 2, 3) == "b c\nd"
    assert normalised(["a"], 0, 0) == ""
