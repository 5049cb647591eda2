"""GEMM through C++ matrix classes whose accessors return references, the product added
to C's old element: `c(i,j) = 0.5 * t + c(i,j)` (a constant alpha that LLVM moves onto
the sum's exit edge, blas.idl's ScaledZeroPhi inside ScaledResult's sum with C),
`alpha * t + beta * c(i,j)` and `0.5 * t + 0.75 * c(i,j)`; views over raw memory and a
class owning a std::vector, float and double. Each is one BLAS call on separate
matrices with every output equal to the original's, and the original code where A is C
or overlaps it, where the sum loop does not run, and where beta is 0 for the form that
multiplies C by it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import (
    BLAS_AT_ANY_SIZE,
    blas_calls_done,
    build_pair,
    replaced_everywhere,
    same_outputs,
)

PROGRAM = Path(__file__).parent / "programs" / "gemm_class_update.cpp"
SEPARATE, SAME, OVERLAPPING, BETA_ZERO = range(4)
KERNELS = {"half", "blend", "const_blend", "half_float", "Owned::add_half"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("gemm_class_update"))


def _gemms_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "gemm")


def test_every_kernel_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GEMM"}, KERNELS)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 33])
@pytest.mark.parametrize("seed", [3, 11])
def test_separate_matrices_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    # n == 0: no loop runs, nor any call (the guard's zero-trip test)
    expected = len(KERNELS) if n > 0 else 0
    assert _gemms_done(builds, [str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("n", [2, 9])
def test_aliased_factor_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int
) -> None:
    assert _gemms_done(builds, [str(n), "5", str(mode)]) == 0


def test_beta_zero_declines_only_where_the_loop_multiplies_c_by_it(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    assert _gemms_done(builds, ["6", "7", str(BETA_ZERO)]) == len(KERNELS) - 1  # blend
