"""SYRK and SYR2K (mappers/targets/syrk.py): one triangle of C <- alpha A A^T + beta C (or A^T A),
or of alpha (A B^T + B A^T) + beta C, lower or upper, the sum in a register or kept in C,
C scaled or zeroed first. One BLAS call each on
separate arrays, the other triangle untouched (the programs print all of C); the original
code where A is C or overlaps it, where beta is 0 for a form that scales C first, and for
the strict triangle (no SYRK at all)."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "syrk_forms.c"
SEPARATE, SAME, OVERLAPPING, BETA_ZERO = range(4)
FORMS = ("lower_updates", "upper_dot", "lower_stored_trans", "upper_stored_scaled")
RANK_2K_FORMS = ("syr2k_lower_updates", "syr2k_upper_dot")
SCALING_FIRST = 3  # lower_updates, upper_stored_scaled, syr2k_lower_updates


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("syrk_forms"))


def _syrk_calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    stderr = same_outputs(builds, args, BLAS_AT_ANY_SIZE)
    return blas_calls_done(stderr, "syrk") + blas_calls_done(stderr, "syr2k")


def test_every_triangle_is_replaced_and_the_strict_one_is_no_syrk(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    replaced_everywhere(builds[2], {"SYRK", "SYR2K"}, set(FORMS + RANK_2K_FORMS))


@pytest.mark.parametrize("n", [0, 1, 2, 7, 31])
@pytest.mark.parametrize("seed", [4, 13])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    # n == 0: the loops, and the calls, do not run
    expected = len(FORMS + RANK_2K_FORMS) if n > 0 else 0
    assert _syrk_calls(builds, [str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("n", [2, 9])
def test_a_read_from_c_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int
) -> None:
    assert _syrk_calls(builds, [str(n), "6", str(mode)]) == 0


def test_beta_zero_declines_only_where_c_is_scaled_first(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    calls = _syrk_calls(builds, ["6", "8", str(BETA_ZERO)])
    assert calls == len(FORMS + RANK_2K_FORMS) - SCALING_FIRST
