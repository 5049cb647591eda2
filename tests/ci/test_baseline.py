"""Baselines: written from findings, read back, findings in them filtered out."""

from __future__ import annotations

from pathlib import Path

import pytest

from ci.baseline import BaselineError, new_findings, read_baseline, write_baseline
from ci.findings import Found, UnitResult
from ci.fingerprint import findings_of

LINES = ["for (;;)", "  s += x[i];", "for (;;)", "  s += x[i];", "for (;;)", "  t += y[i];"]


def findings(*firsts: int) -> list:  # type: ignore[type-arg]
    found = tuple(
        Found("Reduction", "f", "/src/a.c", first, first + 1, False, "why") for first in firsts
    )
    return findings_of([UnitResult("/src/a.c", found)], lambda _: LINES)


def test_round_trip_and_filter(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, findings(1), Path("/src"))
    counts = read_baseline(baseline)
    assert sum(counts.values()) == 1
    # The same loop pasted again is new; so is a different one.
    fresh = new_findings(findings(1, 3, 5), counts)
    assert [f.found.first_line for f in fresh] == [3, 5]
    assert new_findings(findings(1), counts) == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "invalid JSON"),
        ('{"findings": []}', "written by --write-baseline"),
        ('{"format": "idiom-baseline-1", "findings": [{}]}', "needs fingerprints"),
    ],
)
def test_bad_baseline(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "baseline.json"
    path.write_text(content)
    with pytest.raises(BaselineError, match=message):
        read_baseline(path)


def test_missing_baseline(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="cannot read the baseline"):
        read_baseline(tmp_path / "absent.json")
