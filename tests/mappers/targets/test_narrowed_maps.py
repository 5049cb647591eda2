"""Maps of float arrays computed in double (programs/narrowed_maps.c): `re[i] /= d` with `d`
a double, as MiBench's FFT normalises its output, is a map (the value stored is a computed
double rounded to float), found and replaced in both builds, and prints what the original
prints to the bit with launches forced on PoCL; a conversion that computes nothing
(`y[i] = (float)x[i]`) is no map."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated, accelerate
from matcher.frontend import CompileOptions
from matcher.pipeline import analyse_file
from tests.mappers.differential import (
    build_pair,
    kernel_launches,
    replaced_everywhere,
    same_outputs,
)

PROGRAM = Path(__file__).parents[1] / "programs" / "narrowed_maps.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
MAPS = {"normalise", "rescale_rows"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("narrowed_maps"))


@pytest.fixture(scope="module")
def exact_build(
    tmp_path_factory: pytest.TempPathFactory, builds: tuple[Path, Path, Accelerated]
) -> tuple[Path, Path, Accelerated]:
    original, _, _ = builds
    binary = tmp_path_factory.mktemp("narrowed_maps_exact") / "accelerated"
    report = accelerate([PROGRAM], binary, CompileOptions(), reassociate=False)
    return original, binary, report


def test_the_narrowed_maps_are_found_and_the_conversion_is_not() -> None:
    found = analyse_file(str(PROGRAM), CompileOptions())
    assert {i.function for i in found.instances if i.idiom == "Map"} == MAPS


def test_both_builds_replace_them(
    builds: tuple[Path, Path, Accelerated], exact_build: tuple[Path, Path, Accelerated]
) -> None:
    replaced_everywhere(builds[2], {"Map"}, MAPS)
    replaced_everywhere(exact_build[2], {"Map"}, MAPS)


@pytest.mark.parametrize("n", [10, 1001])
def test_outputs_equal_to_the_bit(
    builds: tuple[Path, Path, Accelerated], exact_build: tuple[Path, Path, Accelerated], n: int
) -> None:
    for pair in (builds, exact_build):
        stderr = same_outputs(pair, [str(n), "3"], ON_POCL)
        launches = kernel_launches(stderr, "idiom_map")
        assert len(launches) == 2
