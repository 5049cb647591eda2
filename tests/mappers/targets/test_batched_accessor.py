"""C++ accessors defined in a class body (corpus/gemm_batched_accessor.cpp): the batched
product through `at(r, q, p)` and the product through `at(i, j)` are inlined by the front
end, found and replaced; each call does the work at small and odd sizes, every output
equal to the original's."""

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

PROGRAM = Path(__file__).parents[3] / "corpus" / "gemm_batched_accessor.cpp"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("batched_accessor"))


def test_both_products_are_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GEMM"}, {"contract", "multiply"})


@pytest.mark.parametrize("args", [[1, 1, 1, 1, 1], [3, 5, 7, 9, 2], [2, 1, 9, 3, 3]])
def test_every_call_does_the_work(builds: tuple[Path, Path, Accelerated], args: list[int]) -> None:
    stderr = same_outputs(builds, [str(a) for a in args], BLAS_AT_ANY_SIZE)
    iterations = args[-1]
    assert blas_calls_done(stderr, "gemm_rows") == iterations
    assert blas_calls_done(stderr, "gemm") == iterations
