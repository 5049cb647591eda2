"""GEMM and GEMV in the forms of blas.idl beyond the plain ones (mappers/targets/blas.py): the sum
kept in memory (set to zero, scaled by beta or C's old value first), the loop over k
outermost, rows scaled by beta before the rank-1 updates, a sum in a register that
starts from C's old value. Each is one BLAS call on
separate arrays, and the original code where the output is an input, overlaps one, or
beta is 0 for a form that multiplies C by it."""

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

PROGRAM = Path(__file__).parent / "programs" / "dense_forms.c"
SEPARATE, SAME, OVERLAPPING, BETA_ZERO = range(4)
GEMMS = (
    "stored_zero",
    "stored_scaled",
    "stored_old",
    "updates_kij",
    "scaled_rows",
    "gemm_from_old",
    "gemm_from_scaled",
    "gemm_alpha_factor",
    "gemm_const_alpha",
)
DECLINED = frozenset({"gemm_alpha_twice"})  # alpha on a factor and on the sum: alpha^2
GEMVS = ("gemv_zero", "gemv_scaled", "gemv_from_old", "gemv_const_alpha")
TIMES_BETA = 4  # stored_scaled, scaled_rows, gemv_scaled, gemm_from_scaled: 0 * C


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("dense_forms"))


def _calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> tuple[int, int]:
    stderr = same_outputs(builds, args, BLAS_AT_ANY_SIZE)
    return blas_calls_done(stderr, "gemm"), blas_calls_done(stderr, "gemv")


def test_every_form_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GEMM", "GEMV"}, set(GEMMS + GEMVS), DECLINED)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 33])
@pytest.mark.parametrize("seed", [3, 11])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    # n == 0: the loops do not run, and nor does the call (the guard's zero-trip test);
    # n == 1: the sums over n / 2 terms are empty, and the loops make the zeros
    expected = (len(GEMMS), len(GEMVS)) if n > 0 else (0, 0)
    if n == 1:
        expected = (len(GEMMS) - 1, len(GEMVS) - 1)  # gemm_const_alpha, gemv_const_alpha
    assert _calls(builds, [str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("n", [2, 9])
def test_aliased_outputs_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int
) -> None:
    assert _calls(builds, [str(n), "5", str(mode)]) == (0, 0)


def test_beta_zero_declines_only_where_the_loop_multiplies_c_by_it(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    gemms, gemvs = _calls(builds, ["6", "7", str(BETA_ZERO)])
    assert gemms + gemvs == len(GEMMS) + len(GEMVS) - TIMES_BETA
