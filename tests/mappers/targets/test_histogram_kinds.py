"""Histograms run kernels the Lift compiler generates (mappers/targets/histogram.py,
functional.py `histogram_expression`): the bins' range as a tree reduction of the
smallest and largest index, the adds as a `scatter-atomic` into that range's copy
(through each work-group's bins in local memory where there are at most 4096 of them),
for int, long, unsigned, float and double bins at indices computed with shifts, masks,
remainders and conversions, at bins[index] moved by a constant (h[k + 1], h[k - 2]) or
by a second 64-bit part (h[a + b], which LLVM splits into two getelementptrs),
and under a test on values read at every iteration (the iterations it skips drop their
adds); bins that overlap what the loop reads run the original loop. The program is built
original and accelerated and run with launches forced on PoCL: both print the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "histogram_kinds.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
GENERATED = {
    "count_keys": 0, "count_buckets": 1, "count_digits": 2, "residues": 3, "weights": 4,
    "weights_double": 5, "in_range": 6, "count_wide": 8, "weights_wide": 9,
    "count_shifted": 10, "count_back": 11, "count_rows": 12, "count_pairs": 13,
}  # fmt: skip
TRANSLATED: dict[str, int] = {}
OVERLAPPING = 7

Builds = tuple[Path, Path, Accelerated]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("histogram_kinds"))


def test_histograms_are_generated(builds: Builds) -> None:
    details = {
        o.instance.function: o
        for u in builds[2].units
        for o in u.outcomes
        if o.instance.idiom == "Histogram" and o.instance.within is None
    }
    assert set(details) == set(GENERATED) | set(TRANSLATED)
    for function, outcome in details.items():
        assert outcome.replaced, (function, outcome.detail)
        generated = function in GENERATED
        assert outcome.detail.endswith("(generated)") == generated, (function, outcome.detail)
        if generated:
            assert outcome.generated is not None
            assert "(scatter + nb hist_bins" in outcome.generated.expression
            # Each work-group's bins in local memory first, where there are at most 4096.
            assert "(scatter-atomic-local 0 4096 +\n" in outcome.generated.lowered
            assert re.search(r"__local \w+ lk_bins\d+\[4096\];", outcome.generated.source)


def _adds(stderr: str) -> int:
    return sum(
        1
        for line in stderr.splitlines()
        if "cl_run kernel 'idiom_histogram'" in line and line.endswith("done")
    )


@pytest.mark.parametrize("function", sorted(GENERATED) + sorted(TRANSLATED))
@pytest.mark.parametrize("n", [1, 129, 5000])
def test_the_bins_are_the_originals(builds: Builds, function: str, n: int) -> None:
    which = (GENERATED | TRANSLATED)[function]
    stderr = same_outputs(builds, [str(n), str(which)], ON_POCL)
    assert _adds(stderr) == 1, stderr[-2000:]


def test_bins_overlapping_the_keys_run_the_original_loop(builds: Builds) -> None:
    stderr = same_outputs(builds, ["300", str(OVERLAPPING)], ON_POCL)
    assert _adds(stderr) == 0, stderr[-2000:]


def _add_grids(stderr: str) -> list[tuple[str, str]]:
    """The grid and the work-group of each launch of the adds."""
    pattern = r"cl_run kernel 'idiom_histogram' on '[^']*' global (\d+)x1x1 local (\d+)"
    return re.findall(pattern, stderr)


@pytest.mark.parametrize("function", ["count_keys", "count_wide", "weights_double", "weights_wide"])
def test_a_grid_widened_to_fill_a_device_adds_the_same_bins(builds: Builds, function: str) -> None:
    # The adds' grid of 16,384 work-items in groups of 256 is as asked on a CPU device;
    # IDIOM_CL_FILL_ITEMS stands for a GPU's fill: 1,000,000 iterations, 16 an item. Where
    # that fills the device (20,000 items), integer adds run in groups widened to 1,024;
    # where it does not (65,536), they keep groups of 256, to spread over every compute
    # unit. Double bins kept in local memory (compare-and-swap adds, whose flushes
    # contend) keep the grid asked; those added in global memory (more than 4096) take the
    # filled grid in groups of 256.
    which = str(GENERATED[function])
    asked = [("16384", "256")]
    assert _add_grids(same_outputs(builds, ["1000000", which], ON_POCL)) == asked
    filled = ON_POCL | {"IDIOM_CL_FILL_ITEMS": "65536"}
    few = ON_POCL | {"IDIOM_CL_FILL_ITEMS": "20000"}
    expected = {
        "count_keys": ([("62720", "256")], [("20480", "1024")]),
        "count_wide": ([("62720", "256")], [("20480", "1024")]),
        "weights_double": (asked, asked),
        "weights_wide": ([("62720", "256")], [("20224", "256")]),
    }[function]
    assert _add_grids(same_outputs(builds, ["1000000", which], filled)) == expected[0]
    assert _add_grids(same_outputs(builds, ["1000000", which], few)) == expected[1]
