"""The estimated benefits are the measured ones: ci/benefit.json is what its generator
makes of docs/results/, and levels and messages follow it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from ci.benefit import DATA, measured_for, target_kind
from ci.findings import Found, level_for, message_for

ROOT = Path(__file__).resolve().parents[2]


def generator() -> object:
    spec = importlib.util.spec_from_file_location(
        "check_benefit", ROOT / "benchmarks/check_benefit.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_data_file_is_generated_from_the_results() -> None:
    table = generator().benefit_table(ROOT)  # type: ignore[attr-defined]
    assert json.loads(DATA.read_text()) == table
    for entry in table["entries"]:
        recorded = json.loads((ROOT / entry["source"]).read_text())
        rows = recorded if isinstance(recorded, list) else recorded["programs"]  # bench rows
        measured = {
            (r["program"], " ".join(r["args"]) if "args" in r else "bench"): round(r["speedup"], 3)
            for r in rows
        }
        for program, args, speedup in entry["programs"]:
            assert measured[(program, args)] == speedup


def found(idiom: str, detail: str, replaced: bool = True) -> Found:
    return Found(idiom, "f", "/a.c", 1, 2, replaced, detail)


def test_levels_follow_the_measured_medians() -> None:
    for idiom, detail in (("GEMM", "BLAS gemm (OpenBLAS)"), ("Stencil", "OpenCL stencil kernel")):
        (primary, *_rest) = measured_for(idiom, target_kind(detail))
        median = primary.median
        expected = "error" if median >= 10 else "warning" if median >= 1.5 else "note"
        assert level_for(found(idiom, detail)) == expected
        assert f"{primary.median:g}x median" in message_for(found(idiom, detail))
        assert primary.source in message_for(found(idiom, detail))
    assert level_for(found("GEMM", "the rows are not equally spaced", replaced=False)) == "note"
    assert "would not be replaced: the rows" in message_for(found("GEMM", "the rows", False))


def test_no_figure_is_invented() -> None:
    assert measured_for("MyIdiom", "opencl") == ()
    message = message_for(found("MyIdiom", "OpenCL my kernel"))
    assert "no measured figure yet" in message
    assert level_for(found("MyIdiom", "OpenCL my kernel")) == "note"
