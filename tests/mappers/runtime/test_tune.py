"""Launch shapes tuned on the device (mappers/runtime/idiom_tune.h), on PoCL.

A generated stencil kernel computes every point whatever its NDRange, so the runtime times
its candidate shapes on the program's own sweeps: every output must still be the
original's, the fastest shape is kept in the cache folder, a later run starts from it, and
a damaged file is ignored.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

PROGRAM = Path(__file__).parents[3] / "corpus" / "stencil_3d27_global.c"
ARGS = ["20", "30"]  # 30 sweeps: every candidate timed twice, then the chosen shape
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
TIMED = re.compile(
    r"tune: 'idiom_stencil' on '[^']*': (work-groups \S+, \d+ element\(s\) an item), [\d.]+ us"
)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("tune"))


def _run(pair: tuple[Path, Path, Accelerated], cache: Path, tune: str | None) -> str:
    env = {**ON_POCL, "IDIOM_CACHE_DIR": str(cache)}
    if tune is not None:
        env["IDIOM_TUNE"] = tune
    return same_outputs(pair, ARGS, env)


def test_tuning_times_every_shape_keeps_the_fastest_and_outputs_stay_the_originals(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    stderr = _run(pair, tmp_path, "1")
    timed = TIMED.findall(stderr)
    # 11 shapes (the caller's among them, one equal to it not timed again), twice each
    assert len(timed) == 22 and len(set(timed)) == 11, stderr
    assert "work-groups 32x8x1, 1 element(s) an item" in timed  # the caller's own
    chosen = re.findall(r"tune: 'idiom_stencil' on '[^']*': (.*) chosen", stderr)
    assert len(chosen) == 1 and chosen[0] in set(timed)
    lines = (tmp_path / "tune" / "shapes").read_text().splitlines()
    assert len(lines) == 1 and re.fullmatch(r"[0-9a-f]{16} \d+", lines[0])

    again = _run(pair, tmp_path, "1")
    assert not TIMED.search(again)
    assert f"{chosen[0]}, as an earlier run chose" in again


def test_a_damaged_file_is_ignored(pair: tuple[Path, Path, Accelerated], tmp_path: Path) -> None:
    _run(pair, tmp_path, "1")
    shapes = tmp_path / "tune" / "shapes"
    key = shapes.read_text().split()[0]
    # lines that do not parse, and a candidate no table has: the first line still holds
    shapes.write_text(shapes.read_text() + f"garbage\n{key}\n{key} 99\n{key} 3 extra\n")
    assert "as an earlier run chose" in _run(pair, tmp_path, "1")
    shapes.write_text(f"{key} 15\n")  # a candidate a 3D launch does not have: tuned again
    stderr = _run(pair, tmp_path, "1")
    assert len(TIMED.findall(stderr)) == 22


@pytest.mark.parametrize("tune", ["0", None])
def test_untuned_launches_keep_their_shape(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path, tune: str | None
) -> None:
    """IDIOM_TUNE=0, and a CPU device by default: no shape timed, nothing written."""
    stderr = _run(pair, tmp_path, tune)
    assert "tune:" not in stderr
    assert "idiom_stencil" in stderr  # the launches did run
    assert not (tmp_path / "tune").exists()
