"""Two GEMVs of one sweep (mappers/targets/blas.py's pair plan, `idiom_gemv2`): a transposed
update and a row dot product over the same rows of A, as a biconjugate gradient step
computes A^T r and A p, or a row dot product and then a transposed update by it
(A^T (A x) one row at a time), the dot product's sum in a register or kept in memory.
Both products made by one call on separate arrays, every element of the block equal to
the original's; the original code where the dot product's output is the update's, where
it overlaps a vector it reads, where the update writes into A; and a dot product scaled
before it is stored, which is no GEMV at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import (
    BLAS_AT_ANY_SIZE,
    build_pair,
    replaced_everywhere,
    same_outputs,
)

PROGRAM = Path(__file__).parents[1] / "programs" / "gemv_pairs.c"
SEPARATE, Q_IS_S, P_OVERLAPS_Q, S_OVERLAPS_A = range(4)
PAIRS = ("bicg_local", "bicg_scaled", "bicg_float", "bicg_memory", "bicg_memory_onto")
CHAINED = "atax_rows"  # tmp = A x, then y += A^T tmp (called in mode 0 only: restrict)
CHAINED_IN_MEMORY = "atax_memory"  # the same, tmp kept in memory (plain pointers)
# bicg_dot_scaled scales the dot product before storing it: no pair, and its row loop's
# second store makes the update alone no GEMV either


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("gemv_pairs"))


def _pairs_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    stderr = same_outputs(builds, args, BLAS_AT_ANY_SIZE)
    return sum(
        1 for line in stderr.splitlines() if line.startswith("idiom: gemv2 ") and "done" in line
    )


def test_every_pair_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GEMV"}, {*PAIRS, CHAINED, CHAINED_IN_MEMORY})


@pytest.mark.parametrize("n, m", [(0, 3), (3, 0), (1, 1), (2, 5), (7, 3), (33, 17)])
@pytest.mark.parametrize("seed", [1, 8])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], n: int, m: int, seed: int
) -> None:
    expected = len(PAIRS) + 2 if n > 0 and m > 0 else 0  # an empty product: the loop runs
    assert _pairs_done(builds, [str(n), str(m), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [Q_IS_S, P_OVERLAPS_Q, S_OVERLAPS_A])
def test_overlapping_outputs_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int
) -> None:
    assert _pairs_done(builds, ["9", "7", "3", str(mode)]) == 0
