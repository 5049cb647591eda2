"""Floating-point reductions are reordered by default (IDIOMS.md rule 4), and the report says
so; `--no-reassociate` (reassociate=False) keeps every floating-point order, so that even a
program that magnifies the last bit of a sum prints the original's output exactly.

`programs/mgs_rank_deficient.c` is such a program: Gram-Schmidt on a rank-deficient matrix,
whose later diagonal entries are rounding noise. Reordered, its column norms differ from the
original's in the last bit, and the noise after them differs; kept in order, nothing does.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from mappers.accelerate import accelerate
from matcher.frontend import CompileOptions, find_tool
from measure.compare import first_difference
from tests.mappers.differential import run_binary

PROGRAM = Path(__file__).parent / "programs" / "mgs_rank_deficient.c"
FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}


def _original(source: Path, tmp_path: Path) -> Path:
    """`source` built as its user builds it: clang-22 -O2."""
    original = tmp_path / "original"
    subprocess.run([find_tool("clang"), "-O2", str(source), "-o", str(original), "-lm"], check=True)
    return original


def test_reordered_sums_are_reported_and_order_is_kept_on_request(tmp_path: Path) -> None:
    expected = run_binary(_original(PROGRAM, tmp_path), [], {}).stdout

    reordered = accelerate([PROGRAM], tmp_path / "reordered", CompileOptions())
    details = [o.detail for u in reordered.units for o in u.outcomes if o.replaced]
    assert details, "the column norms and projections run as kernels"
    assert set(details) == {"OpenCL reduction kernel (floating point, reordered) (generated)"}

    in_order = accelerate([PROGRAM], tmp_path / "in_order", CompileOptions(), reassociate=False)
    assert in_order.replaced == 0  # the norm's sum cannot run in parallel in its own order
    produced = run_binary(tmp_path / "in_order", [], FORCED).stdout
    assert first_difference(expected, produced, tolerance=0.0) is None


CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def test_blas_adds_in_its_own_order_so_it_waits_for_reassociation(tmp_path: Path) -> None:
    built = accelerate(
        [CORPUS / "gemm_dot_global.c"], tmp_path / "gemm", CompileOptions(), reassociate=False
    )
    gemm = [o for u in built.units for o in u.outcomes if o.instance.idiom == "GEMM"]
    assert gemm and not any(o.replaced for o in gemm)
    assert "reassociation off" in gemm[0].detail


def test_a_stencil_kept_in_order_prints_the_original_to_the_bit(tmp_path: Path) -> None:
    """A stencil's points are computed as the loop computes them (no fused multiply-add),
    so with reassociation off its output is the original's exactly."""
    source = CORPUS / "stencil_2d5_global.c"
    original = _original(source, tmp_path)
    built = accelerate([source], tmp_path / "in_order", CompileOptions(), reassociate=False)
    assert any(
        o.replaced and o.instance.idiom == "Stencil" for u in built.units for o in u.outcomes
    )
    args = ["64", "5"]
    expected = run_binary(original, args, {}).stdout
    produced = run_binary(tmp_path / "in_order", args, FORCED)
    assert produced.returncode == 0, produced.stderr
    assert first_difference(expected, produced.stdout, tolerance=0.0) is None


def test_math_functions_the_device_rounds_its_own_way_wait_for_reassociation(
    tmp_path: Path,
) -> None:
    """PoCL's exp and the C library's differ in the last bit of some doubles (so did
    Rodinia's srad in one value of 65,536): a map calling exp is replaced only where
    reassociation is allowed, and the report names the call."""
    program = Path(__file__).parent / "programs" / "exp_map_bits.c"
    expected = run_binary(_original(program, tmp_path), [], {}).stdout

    in_order = accelerate([program], tmp_path / "in_order", CompileOptions(), reassociate=False)
    maps = [o for u in in_order.units for o in u.outcomes if o.instance.idiom == "Map"]
    assert maps and not any(o.replaced for o in maps)
    assert "exp may round differently" in maps[0].detail
    produced = run_binary(tmp_path / "in_order", [], FORCED)
    assert produced.returncode == 0, produced.stderr
    assert produced.stdout == expected

    reordered = accelerate([program], tmp_path / "reordered", CompileOptions())
    details = [o.detail for u in reordered.units for o in u.outcomes if o.replaced]
    assert details == [
        "OpenCL map kernel (generated) (exp as the device computes it, within OpenCL's "
        "error bounds)"
    ]
