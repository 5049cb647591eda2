"""Launch shapes tuned on the device (mappers/runtime/idiom_tune.h), on PoCL.

Generated stencil and sparse-product kernels compute every point whatever their NDRange,
so the runtime times candidate shapes on the program's own launches: every output must
still be the original's, the fastest shape is kept in the cache folder, a later run
starts from it, and a damaged file is ignored.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

CORPUS = Path(__file__).parents[3] / "corpus"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}


class Tuned(NamedTuple):
    program: str
    args: list[str]  # enough launches for every candidate to be timed twice
    kernel: str
    shapes: int  # candidates timed, the caller's shape among them
    callers: str  # the caller's shape


STENCIL = Tuned(
    "stencil_3d27_global.c", ["20", "40"], "idiom_stencil", 14, "work-groups 32x8x1"
)  # one candidate equal to the caller's 32x8x1 is not timed again
PRODUCT = Tuned("csr_banded.c", ["300", "20"], "idiom_spmv", 8, "work-groups of the driver's")
TUNED = [STENCIL, PRODUCT]


def _timed(case: Tuned, stderr: str) -> list[str]:
    line = (
        rf"tune: '{case.kernel}' on '[^']*': (work-groups .*, \d+ element\(s\) an item), [\d.]+ us$"
    )
    return re.findall(line, stderr, re.MULTILINE)


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path, Accelerated]]:
    return {
        case.program: build_pair(CORPUS / case.program, tmp_path_factory.mktemp("tune"))
        for case in TUNED
    }


def _run(
    pairs: dict[str, tuple[Path, Path, Accelerated]], case: Tuned, cache: Path, tune: str | None
) -> str:
    env = {**ON_POCL, "IDIOM_CACHE_DIR": str(cache)}
    if tune is not None:
        env["IDIOM_TUNE"] = tune
    return same_outputs(pairs[case.program], case.args, env)


@pytest.mark.parametrize("case", TUNED, ids=lambda case: case.program)
def test_tuning_times_every_shape_keeps_the_fastest_and_outputs_stay_the_originals(
    pairs: dict[str, tuple[Path, Path, Accelerated]], case: Tuned, tmp_path: Path
) -> None:
    stderr = _run(pairs, case, tmp_path, "1")
    timed = _timed(case, stderr)
    assert len(timed) == 2 * case.shapes and len(set(timed)) == case.shapes, stderr
    assert any(shape.startswith(case.callers) for shape in timed)
    chosen = re.findall(rf"tune: '{case.kernel}' on '[^']*': (.*) chosen", stderr)
    assert len(chosen) == 1 and chosen[0] in set(timed)
    lines = (tmp_path / "tune" / "shapes").read_text().splitlines()  # a line per kernel chosen
    assert len(lines) == stderr.count(" chosen, ")
    assert all(re.fullmatch(r"[0-9a-f]{16} \d+", line) for line in lines)

    again = _run(pairs, case, tmp_path, "1")
    assert not _timed(case, again)
    assert f"{chosen[0]}, as an earlier run chose" in again


def test_a_damaged_file_is_ignored(
    pairs: dict[str, tuple[Path, Path, Accelerated]], tmp_path: Path
) -> None:
    _run(pairs, STENCIL, tmp_path, "1")
    shapes = tmp_path / "tune" / "shapes"
    key = shapes.read_text().split()[0]
    # lines that do not parse, and a candidate no table has: the first line still holds
    shapes.write_text(shapes.read_text() + f"garbage\n{key}\n{key} 99\n{key} 3 extra\n")
    assert "as an earlier run chose" in _run(pairs, STENCIL, tmp_path, "1")
    shapes.write_text(f"{key} 15\n")  # a candidate a 3D launch does not have: tuned again
    stderr = _run(pairs, STENCIL, tmp_path, "1")
    assert len(_timed(STENCIL, stderr)) == 2 * STENCIL.shapes


@pytest.mark.parametrize("tune", ["0", None])
def test_untuned_launches_keep_their_shape(
    pairs: dict[str, tuple[Path, Path, Accelerated]], tmp_path: Path, tune: str | None
) -> None:
    """IDIOM_TUNE=0, and a CPU device by default: no shape timed, nothing written."""
    stderr = _run(pairs, STENCIL, tmp_path, tune)
    assert "tune:" not in stderr
    assert "idiom_stencil" in stderr  # the launches did run
    assert not (tmp_path / "tune").exists()


# Programs whose generated kernels are tuned, in one, two and three dimensions, with their
# test arguments: each must print the original's output under every candidate shape.
EVERY_SHAPE = {
    "stencil_3d27_global.c": ["12", "4"],
    "stencil_2d5_global.c": ["40", "5"],
    "stencil_1d5_float.c": ["1000", "5"],
    "csr_banded.c": ["500", "3"],
    "jds_basic.c": ["500", "3"],
    "ell_rows.c": ["500", "6", "8"],
}


@pytest.mark.parametrize("program", sorted(EVERY_SHAPE))
def test_every_candidate_shape_computes_the_originals_output(program: str, tmp_path: Path) -> None:
    pair = build_pair(CORPUS / program, tmp_path)
    kernels = set()
    for candidate in range(15):  # the largest table's candidates (the last repeats beyond)
        env = {**ON_POCL, "IDIOM_TUNE": "1", "IDIOM_TUNE_CANDIDATE": str(candidate)}
        stderr = same_outputs(pair, EVERY_SHAPE[program], env)
        kernels |= set(re.findall(r"cl_run kernel '(\w+)' .*: done", stderr))
    assert kernels & {"idiom_stencil", "idiom_spmv", "idiom_jds_spmv"}, kernels
