"""`idiom eval` on the corpus, generated from the corpus files.

Every expected idiom is found and nothing else is: any miss, any false positive and any
near-miss matched fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matcher.evaluate import ProgramScore, score_program, total_by_kind
from matcher.expectations import read_program
from matcher.frontend import CompileOptions
from matcher.pipeline import analyse_files

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


@pytest.fixture(scope="module")
def scores() -> list[ProgramScore]:
    paths = sorted(p for p in CORPUS.iterdir() if p.suffix in {".c", ".cpp"})
    results = analyse_files([str(p) for p in paths], CompileOptions(), jobs=2)
    assert not [r.error for r in results if r.error]
    return [
        score_program(read_program(p), r.instances) for p, r in zip(paths, results, strict=True)
    ]


def test_every_expected_idiom_is_found(scores: list[ProgramScore]) -> None:
    misses = {(score.program.path.name, e.kind, e.line) for score in scores for e in score.misses}
    assert not misses, sorted(misses)


def test_no_false_positive(scores: list[ProgramScore]) -> None:
    false_positives = [
        (score.program.path.name, i.idiom, i.function, i.line)
        for score in scores
        for i in score.false_positives
    ]
    assert not false_positives


def test_no_near_miss_is_matched(scores: list[ProgramScore]) -> None:
    for score in scores:
        rejected = {(e.kind, e.line) for e in score.program.rejected}
        hits = [i for i in score.false_positives if (i.idiom, i.line) in rejected]
        assert not hits, f"{score.program.path.name}: {hits}"


def test_every_idiom_kind_is_found_somewhere(scores: list[ProgramScore]) -> None:
    totals = total_by_kind(scores)
    assert all(t.found > 0 for t in totals.values()), {k: vars(v) for k, v in totals.items()}
