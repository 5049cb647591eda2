"""Histograms into bytes and shorts (mappers/targets/histogram.py): OpenCL has no atomic
add for them, so each add swaps the 32-bit word that holds the bin, changing only the
bin's bits (lift/opencl/generate.py, NARROW_ATOMICS), and a work-group's bins in local
memory are ints whose low bits are added at the end. The counts wrap as the loop's own
adds do; the words around bins that start at an odd address, or end where their
allocation ends, keep their other bytes. Built with generated and with translated
kernels, each run with launches forced on PoCL: both print what the original prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, kernel_launches, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "narrow_bins.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
CASES = {"count_bytes": 0, "count_shorts": 1, "signed_weights": 2, "short_weights": 3,
         "count_bytes_wide": 4}  # fmt: skip

Builds = tuple[str, tuple[Path, Path, Accelerated]]


@pytest.fixture(scope="module", params=["generated", "translated"])
def builds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Builds:
    kernels = request.param
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IDIOM_KERNELS", kernels)
        return kernels, build_pair(PROGRAM, tmp_path_factory.mktemp(f"narrow_bins_{kernels}"))


def test_narrow_bins_are_replaced(builds: Builds) -> None:
    kernels, (_, _, report) = builds
    outcomes = {
        o.instance.function: o
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom == "Histogram"
    }
    assert set(outcomes) == set(CASES)
    for function, outcome in outcomes.items():
        assert outcome.replaced, (function, outcome.detail)
        assert outcome.detail.endswith("(generated)") == (kernels == "generated"), outcome.detail
        if kernels == "generated":
            assert outcome.generated is not None
            assert "idiom_add_narrow(" in outcome.generated.source


@pytest.mark.parametrize("function", sorted(CASES))
@pytest.mark.parametrize("n", [1, 300, 100_000])
def test_the_narrow_bins_are_the_originals(builds: Builds, function: str, n: int) -> None:
    _, pair = builds
    stderr = same_outputs(pair, [str(n), str(CASES[function])], ON_POCL)
    assert len(kernel_launches(stderr, "idiom_histogram")) == 1, stderr[-2000:]
