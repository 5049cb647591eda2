"""Kernels over C++ classes passed by reference whose loop bounds are read from the
objects (LLVM loads them again in the nest, a column count carried as a phi of repeated
loads), and a batched product whose sums live in a std::vector zeroed and summed through
two loads of its data pointer: found, replaced, and each call does the work at sizes
zero, one and odd with outputs equal to the original's; a nest that writes an object's
size field is no GEMM."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "class_bounds.cpp"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("class_bounds"))


def test_products_are_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    # multiply_growing stores c.nr in the nest: no GEMM there, only its (j, k) nest,
    # which writes a row of c, is a GEMV
    replaced_everywhere(builds[2], {"GEMM"}, {"multiply", "contract"})
    replaced_everywhere(builds[2], {"GEMV"}, {"apply", "multiply_growing"})


@pytest.mark.parametrize("sizes", [[1, 1, 1], [3, 5, 7], [9, 4, 3], [7, 11, 13]])
def test_every_call_does_the_work(builds: tuple[Path, Path, Accelerated], sizes: list[int]) -> None:
    stderr = same_outputs(builds, [str(s) for s in sizes], BLAS_AT_ANY_SIZE)
    assert blas_calls_done(stderr, "gemm") == 1
    assert blas_calls_done(stderr, "gemv") == 1 + sizes[0]  # apply, a row of multiply_growing
    assert blas_calls_done(stderr, "gemm_rows") == 1


@pytest.mark.parametrize("sizes", [[0, 0, 0], [0, 3, 2], [4, 0, 3], [3, 5, 0]])
def test_empty_sizes_match(builds: tuple[Path, Path, Accelerated], sizes: list[int]) -> None:
    same_outputs(builds, [str(s) for s in sizes], BLAS_AT_ANY_SIZE)
