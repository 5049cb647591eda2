"""Overflow in the BLAS runtime (mappers/runtime/idiom_blas.c): BLAS adds a product's terms in
blocks where the loop adds them in its own order, so where one order overflows and the other
does not they disagree (Inf against a number; a GEMV of huge entries cancelling along each
row gives -inf in the loop's order and -6.2e306 in OpenBLAS's). GEMM, SYRK, SYR2K and GEMV
decline where a bound on every partial sum of their finite elements comes near overflow, a
rank-1 or rank-2 update where its products do (a rank-2 update adds their sum to A, as the
loop does, however large A is); an infinity among modest values is no reason to decline.
Outputs equal in every case, infinities and NaN included."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "blas_overflow.c"
ENTRIES = ("gemm", "syrk", "syr2k", "gemv", "ger", "gemm_rows", "gemv2")
PLAIN, ALTERNATING_HUGE, INFINITE_A, HUGE_C = range(4)
KERNELS = {
    "gemm_ijk": "GEMM",
    "syrk_lower": "SYRK",
    "syr2k_lower": "SYR2K",
    "gemv_rows": "GEMV",
    "ger_rank1": "GER",
    "ger_rank2": "GER",
    "batched_rows": "GEMM",
    "bicg_pair": "GEMV",
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("blas_overflow"))


def _calls_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> dict[str, int]:
    stderr = same_outputs(builds, args, BLAS_AT_ANY_SIZE)
    return {entry: blas_calls_done(stderr, entry) for entry in ENTRIES}


def test_every_kernel_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], set(KERNELS.values()), set(KERNELS))


@pytest.mark.parametrize("n", [1, 7, 40])
def test_modest_values_are_computed_by_blas(builds: tuple[Path, Path, Accelerated], n: int) -> None:
    done = _calls_done(builds, [str(n), "3", str(PLAIN)])
    assert done == {
        "gemm": 1,
        "syrk": 1,
        "syr2k": 1,
        "gemv": 1,
        "ger": 2,
        "gemm_rows": 1,
        "gemv2": 1,
    }


@pytest.mark.parametrize("n", [8, 41])
def test_sums_near_overflow_decline(builds: tuple[Path, Path, Accelerated], n: int) -> None:
    done = _calls_done(builds, [str(n), "3", str(ALTERNATING_HUGE)])
    assert done == {
        "gemm": 0,
        "syrk": 0,
        "syr2k": 0,
        "gemv": 0,
        "ger": 0,
        "gemm_rows": 0,
        "gemv2": 0,
    }


@pytest.mark.parametrize("n", [8, 41])
def test_an_infinity_among_modest_values_is_computed_by_blas(
    builds: tuple[Path, Path, Accelerated], n: int
) -> None:
    # every order of a sum holding the infinity ends Inf or NaN alike
    done = _calls_done(builds, [str(n), "3", str(INFINITE_A)])
    assert done == {
        "gemm": 1,
        "syrk": 1,
        "syr2k": 1,
        "gemv": 1,
        "ger": 2,
        "gemm_rows": 1,
        "gemv2": 1,
    }


@pytest.mark.parametrize("n", [8, 41])
def test_outputs_near_overflow(builds: tuple[Path, Path, Accelerated], n: int) -> None:
    done = _calls_done(builds, [str(n), "3", str(HUGE_C)])
    # beta reads a C near overflow; a rank-1 update adds small products to it (rounding
    # alone differs), a rank-2 update adds their sum, as the loop does (one GEMM of inner
    # dimension 2: two rank-1 updates would overflow adding one product before the other)
    assert done == {
        "gemm": 0,
        "syrk": 0,
        "syr2k": 0,
        "gemv": 0,
        "ger": 2,
        "gemm_rows": 0,
        "gemv2": 0,
    }
