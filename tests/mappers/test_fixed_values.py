"""End to end: kernels whose bounds, arrays, leading dimensions or coefficients are
struct fields read inside the loop (fixed values, loaded once before the region),
accelerated against the original on random inputs; with fields inside the range the
kernels write, where the guard must send them to the original code."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from measure.compare import first_difference
from tests.mappers.differential import build_pair, run_binary

PROGRAM = Path(__file__).parent / "programs" / "fixed.c"
ON_POCL = {
    "IDIOM_DEVICE": "cpu",
    "IDIOM_CL_MIN_WORK": "1",
    "IDIOM_BLAS_MIN_WORK": "1",
    "IDIOM_VERBOSE": "1",
}
REPLACED = {
    ("dmat_mul", "GEMM"),
    ("csr_apply", "SpMV_CSR"),
    ("jds_apply", "SpMV_JDS"),
    ("shifted_counts", "Histogram"),
    ("biased_blur", "Stencil"),
    ("grid_smooth", "Stencil"),
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("fixed"))


_run = run_binary


def _done(stderr: str) -> Counter[str]:
    """Runtime calls that did their work, by kernel (or BLAS routine)."""
    calls: Counter[str] = Counter()
    for line in stderr.splitlines():
        if line.startswith("idiom:") and line.endswith("done"):
            name = line.split("'")[1] if "kernel '" in line else line.split()[1]
            calls[name] += 1
    return calls


def _compare(builds: tuple[Path, Path, Accelerated], args: list[str]) -> Counter[str]:
    original, accelerated, _ = builds
    expected = _run(original, args, {})
    actual = _run(accelerated, args, ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert first_difference(expected.stdout, actual.stdout) is None
    return _done(actual.stderr)


def test_struct_fields_read_in_the_loop_are_replaced(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    _, _, report = builds
    replaced = {
        (o.instance.function, o.instance.idiom)
        for u in report.units
        for o in u.outcomes
        if o.replaced
    }
    missing = REPLACED - replaced
    assert not missing, [o.detail for u in report.units for o in u.outcomes]


@pytest.mark.parametrize("n", [0, 1, 2, 7, 63, 65, 130])
@pytest.mark.parametrize("seed", [1, 7])
def test_random_inputs_give_the_original_results(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    done = _compare(builds, [str(n), str(seed)])
    if n >= 3:
        assert done["gemm"] == 1  # the call without columns keeps the original code
        assert done["idiom_spmv"] == 2  # with entries, and without (arrays never loaded)
        assert done["idiom_jds_spmv"] == 2  # with diagonals, and without
        assert done["idiom_histogram"] == 1
        assert done["idiom_stencil"] == 2  # the narrow grid keeps the original code


@pytest.mark.parametrize("n", [7, 63, 130])
@pytest.mark.parametrize("seed", [1, 7])
def test_fields_inside_the_written_range_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    done = _compare(builds, [str(n), str(seed), "1"])
    assert done["gemm"] == 0  # a's fields in c's padding
    assert done["idiom_histogram"] == 0  # the shift among the bins it shifts
    assert done["idiom_stencil"] == (2 if n <= 7 else 1)  # the bias in the output
    assert done["idiom_spmv"] == 2  # nothing aliased there
    assert done["idiom_jds_spmv"] == 1  # the matrix in y's gap; the one without diagonals
