"""`idiom eval` on the corpus, generated from the corpus files.

The library does not yet describe every corpus program (see the open issue on the
idiom library: 2D/3D stencil nests whose addresses chain three getelementptrs, and a
few GEMM/GEMV/SpMV styles). Until it does, this test is a ratchet: it fails if any
idiom found today is lost, if false positives grow, or if any near-miss is matched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matcher.evaluate import ProgramScore, score_program, total_by_kind
from matcher.expectations import read_program
from matcher.frontend import CompileOptions
from matcher.pipeline import analyse_files

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
FOUND_AT_LEAST = 123
FALSE_POSITIVES_AT_MOST = 6


@pytest.fixture(scope="module")
def scores() -> list[ProgramScore]:
    paths = sorted(p for p in CORPUS.iterdir() if p.suffix in {".c", ".cpp"})
    results = analyse_files([str(p) for p in paths], CompileOptions(), jobs=2)
    assert not [r.error for r in results if r.error]
    return [
        score_program(read_program(p), r.instances) for p, r in zip(paths, results, strict=True)
    ]


def test_found_and_false_positives_do_not_regress(scores: list[ProgramScore]) -> None:
    totals = total_by_kind(scores)
    found = sum(t.found for t in totals.values())
    false_positives = sum(t.false_positives for t in totals.values())
    assert found >= FOUND_AT_LEAST, {k: vars(v) for k, v in totals.items()}
    assert false_positives <= FALSE_POSITIVES_AT_MOST, {k: vars(v) for k, v in totals.items()}


def test_no_near_miss_is_matched(scores: list[ProgramScore]) -> None:
    for score in scores:
        rejected = {(e.kind, e.line) for e in score.program.rejected}
        hits = [i for i in score.false_positives if (i.idiom, i.line) in rejected]
        assert not hits, f"{score.program.path.name}: {hits}"


def test_every_idiom_kind_is_found_somewhere(scores: list[ProgramScore]) -> None:
    totals = total_by_kind(scores)
    assert all(t.found > 0 for t in totals.values()), {k: vars(v) for k, v in totals.items()}
