"""Three-dimensional stencils launch a streamed kernel (lift's map-stream) where their
reads meet one another one outer iteration on (mappers/plan/shifts.py proposes the
pairs, the guard checks them at run time), each work-item taking runs of STREAM_RUN
planes; outputs equal the original's on PoCL, with every launch forced."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from lift.opencl.generate import Kernel
from mappers.plan import shifts
from mappers.targets import kernels, stencil
from tests.mappers.differential import build_pair, same_outputs

CORPUS = Path(__file__).parents[3] / "corpus"
FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1", "IDIOM_TUNE": "0"}
# program, arguments, the interior's planes, the pairs proposed, partial sums kept
PROGRAMS = [
    ("stencil_3d27_global.c", ["12", "3"], 10, 18, False),  # added by faces, edges, corners
    ("stencil_3d7_heat.c", ["24", "3"], 22, 2, False),
    ("stencil_box27_planes.c", ["14", "3"], 12, 18, True),
]


def _outer_sizes(stderr: str) -> set[int]:
    return {
        int(m) for m in re.findall(r"cl_run kernel 'idiom_stencil' .* global \d+x\d+x(\d+)", stderr)
    }


@pytest.mark.parametrize("case", PROGRAMS, ids=[case[0] for case in PROGRAMS])
def test_streamed_kernels_run_and_print_the_originals_output(
    case: tuple[str, list[str], int, int, bool],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    program, args, planes, pairs, partial = case
    proposed: list[int] = []
    int_forms: list[tuple[bool, bool]] = []

    def counted(addresses: object, loop: object) -> tuple[tuple[int, int], ...]:
        found = shifts.one_step_pairs(addresses, loop)  # type: ignore[arg-type]
        proposed.append(len(found))
        return found

    def recorded(*args: Any, **options: Any) -> tuple[Kernel, Kernel]:
        wide, narrow = kernels.long_and_int(*args, **options)
        if options.get("int_streamed"):
            int_forms.append((narrow.stream_pointers, narrow.partial_sums))
        return wide, narrow

    monkeypatch.setattr(stencil, "one_step_pairs", counted)
    monkeypatch.setattr(stencil, "long_and_int", recorded)
    pair = build_pair(CORPUS / program, tmp_path)
    assert proposed == [pairs]
    assert int_forms == [(True, partial)]
    stderr = same_outputs(pair, args, FORCED)
    runs = -(-planes // stencil.STREAM_RUN)
    assert _outer_sizes(stderr) == {runs}, stderr


def test_without_pairs_the_plain_kernel_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mutation: no pair proposed, no streamed kernel; every plane its own item."""
    monkeypatch.setattr(stencil, "one_step_pairs", lambda addresses, loop: ())
    program, args, planes, *_ = PROGRAMS[0]
    pair = build_pair(CORPUS / program, tmp_path)
    assert b"lk_kept" not in pair[1].read_bytes()
    assert _outer_sizes(same_outputs(pair, args, FORCED)) == {planes}


def test_idiom_lift_shows_the_streamed_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lift", str(CORPUS / "stencil_3d7_heat.c"), "--function", "heat7"]) == 0
    shown = capsys.readouterr().out
    assert "stream(2 pairs, where the guard finds them hold)" in shown
    assert "(map-stream 2 (" in shown
    # the plain one, the streamed one, the streamed one with int indices through pointers
    assert shown.count("__kernel void idiom_stencil(") == 3
    assert "int kernel: through pointers" in shown and "partial sums" not in shown


def test_idiom_lift_shows_the_partial_sums_of_a_box_added_plane_by_plane(
    capsys: pytest.CaptureFixture[str],
) -> None:
    program = str(CORPUS / "stencil_box27_planes.c")
    assert main(["lift", program, "--function", "box_blur"]) == 0
    shown = capsys.readouterr().out
    assert "int kernel: through pointers, keeping partial sums" in shown


def test_a_nest_of_four_loops_streams_its_outer_planes(tmp_path: Path) -> None:
    """NAS BT's shape: the five components of a point innermost (joined with the points
    of a row), its fourth-order dissipation along k streamed: k from 3 to 10 for n = 16,
    8 planes in runs of 4; the fluxes along i (12 planes), with nothing to carry along
    k, keep one plane an item."""
    pair = build_pair(CORPUS / "stencil_rhs_grid.c", tmp_path)
    sizes = _outer_sizes(same_outputs(pair, ["16", "2"], FORCED))
    assert sizes == {-(-8 // stencil.STREAM_RUN), 12}, sizes
