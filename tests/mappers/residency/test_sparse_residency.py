"""Device residency for sparse products: an SpMV called again and again (CSR and JDS, y =
A x then x = A y, no host access in between) copies its matrix to the device once, and
still prints exactly what the original prints, with residency on or off
(IDIOM_RESIDENT=0), with host reads and writes of the vectors between calls, and at
sizes 0, 1 and odd. Copies are counted from the runtime's IDIOM_STATS lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from measure.compare import first_difference
from tests.mappers.differential import build_pair, run_binary

PROGRAM = Path(__file__).parents[1] / "programs" / "sparse_iterate.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}
NOT_RESIDENT = {**ON_POCL, "IDIOM_RESIDENT": "0"}
# Traffic counts measure the compiler's placement: with the safety net (IDIOM_SAFETY_NET, on by
# default) the bytes on an array's partial first and last pages also travel at every launch,
# which for these arrays of a few pages is most of them (tests/mappers/test_safety_net.py).
PLACEMENT_ONLY = {"IDIOM_SAFETY_NET": "0"}
# The first kernel of each call, and the kernels of a call, per format.
CALLS = {
    "csr": ("idiom_csr_positions", {"idiom_csr_positions", "idiom_csr_columns", "idiom_spmv"}),
    "jds": (
        "idiom_jds_rows",
        {"idiom_jds_rows", "idiom_jds_positions", "idiom_jds_columns", "idiom_jds_spmv"},
    ),
}
# n = 1000: row i has 1 + i % 4 entries, 2500 in all (programs/sparse_iterate.c).
N, ENTRIES = 1000, 2500
MATRIX = {
    "csr": 4 * (N + 1) + 4 * ENTRIES + 8 * ENTRIES,  # row_ptr, col, val
    "jds": 4 * N + 4 * N + 4 * 5 + 4 * ENTRIES + 8 * ENTRIES,  # perm, nzcnt, jd_ptr, col, val
}
SMALL = 512  # a launch's packed parameters and scalars, nothing of the arrays


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    original, accelerated, report = build_pair(PROGRAM, tmp_path_factory.mktemp("sparse"))
    replaced = {o.instance.idiom for u in report.units for o in u.outcomes if o.replaced}
    assert {"SpMV_CSR", "SpMV_JDS"} <= replaced
    return original, accelerated


def _run(binary: Path, args: str, env: dict[str, str]) -> str:
    result = run_binary(binary, args.split(), env)
    assert result.returncode == 0, result.stderr
    return result.stdout


# N STEPS SEED PEEK (see programs/sparse_iterate.c)
MODES = ["1000 5 3 0", "1000 6 3 2", "0 2 1 1", "1 3 1 1", "2 3 5 1", "7 3 2 1", "130 4 9 3"]


@pytest.mark.parametrize("env", [ON_POCL, NOT_RESIDENT], ids=["resident", "not-resident"])
@pytest.mark.parametrize("args", MODES)
def test_repeated_products_print_exactly_the_original_results(
    builds: tuple[Path, Path], args: str, env: dict[str, str]
) -> None:
    original, accelerated = builds
    expected = _run(original, args, {})
    # Every bit: a row's entries are added in the loop's order, resident or not.
    assert first_difference(expected, _run(accelerated, args, env), tolerance=0.0) is None


def _calls(path: Path, kind: str) -> list[list[dict[str, Any]]]:
    """The launches of each call of the `kind` product, in order."""
    first, kernels = CALLS[kind]
    calls: list[list[dict[str, Any]]] = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row.get("kernel") not in kernels:
            continue
        assert row["status"] == 0, row
        if row["kernel"] == first:
            calls.append([])
        calls[-1].append(row)
    return calls


@pytest.mark.parametrize("kind", ["csr", "jds"])
def test_a_product_in_a_loop_copies_its_matrix_once(
    builds: tuple[Path, Path], tmp_path: Path, kind: str
) -> None:
    _, accelerated = builds
    kept, copied = tmp_path / "kept.jsonl", tmp_path / "copied.jsonl"
    _run(accelerated, f"{N} 5 3 0", {**ON_POCL, **PLACEMENT_ONLY, "IDIOM_STATS": str(kept)})
    _run(accelerated, f"{N} 5 3 0", {**NOT_RESIDENT, "IDIOM_STATS": str(copied)})

    calls = _calls(kept, kind)
    assert len(calls) == 10 and all(len(c) == len(CALLS[kind][1]) for c in calls)
    uploads = [sum(launch["upload_bytes"] for launch in call) for call in calls]
    assert uploads[0] >= MATRIX[kind] + 8 * N  # the matrix and x, once
    for call in calls[1:]:  # then only what a launch passes by value
        assert all(launch["upload_bytes"] < SMALL for launch in call), uploads
    # y stays on the device too: the range cells are all that come back.
    assert all(launch["download_bytes"] <= 24 for call in calls for launch in call)

    for call in _calls(copied, kind):  # without residency: the matrix at every call
        assert sum(launch["upload_bytes"] for launch in call) >= MATRIX[kind] + 8 * N
