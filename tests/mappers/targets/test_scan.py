"""The scan mapper (programs/scan_shapes.c): integer scans, the running value in a
register (its total used after the loop, or not) or in the output array, run as two
generated kernels (blocks of 1,024 scanned in local memory; one kernel where the
running value is not used after the loop) with launches forced on PoCL
and print what the original prints; a call whose output overlaps its input keeps the
original code (the guard); floating-point sums are scanned in another order
(reassociation), declined where some order could overflow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated, rewrite_file
from matcher.frontend import CompileOptions
from tests.mappers.differential import build_pair, replaced_everywhere, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "scan_shapes.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
SCANS = {
    "offsets",
    "layout",
    "running",
    "accumulate",
    "from_sizes",
    "products",
    "bucket_pointers",
    "shift_in_place",
    "spread",
    "through",
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("scan_shapes"))


def test_every_scan_is_replaced_by_generated_kernels(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    _, _, report = builds
    replaced_everywhere(report, {"Scan"}, SCANS)
    outcomes = [o for u in report.units for o in u.outcomes if o.instance.idiom == "Scan"]
    details = {o.instance.function: o.detail for o in outcomes}
    # Only `layout` returns its total, which the host's scan of the blocks' totals gives.
    assert details.pop("layout") == "OpenCL scan kernels (generated)"
    assert set(details.values()) == {"OpenCL scan kernel (generated, one pass)"}
    for outcome in outcomes:
        kernel = outcome.generated
        assert kernel is not None
        # Work-groups of 256, 4 neighbouring values an item in blocks of 1,024 (21 or 17
        # in blocks of 5,376 or 4,352 in one pass), each run folded, then scanned from its start,
        # the runs' totals in local memory in log2(256) steps.
        assert "(reduce-seq" in kernel.lowered and "scan-seq" in kernel.lowered
        # Each of the eight steps ends at a barrier; they take turns in two buffers.
        assert kernel.source.count("barrier(CLK_LOCAL_MEM_FENCE);") >= 8
        assert not re.search(r"__local \w+ lk_l\d+\[1024\];", kernel.source)
        if outcome.instance.function == "layout":
            assert "(map-workgroup 0" in kernel.lowered
            assert "blocked scan: blocks of 1024 values" in kernel.rewrites[0]
            totals, chunks = kernel.source.split("void idiom_scan_chunks(")
            # Both kernels launched in work-groups of 256.
            assert kernel.source.count("reqd_work_group_size(256, 1, 1)") == 2
            # The first kernel only reads the output group (in place), the second writes it.
            assert "__global char* restrict" not in totals
            assert chunks.count("__global char* restrict") == 1
            continue
        # One kernel: blocks taken in order, each start from the blocks before it.
        assert "(scan-workgroups 0" in kernel.lowered
        # 4-byte values in blocks of 10,752 (groups of 512, runs of 21) copied into local
        # memory first and scanned there in place (one copy of the block); 8-byte ones in
        # blocks of 4,352 (groups of 256, runs of 17) read where they are.
        copied = "copied into local memory" in kernel.rewrites[0]
        block, group = (10752, 512) if copied else (4352, 256)
        assert f"one-pass scan: blocks of {block} values" in kernel.rewrites[0]
        assert kernel.source.count(f"reqd_work_group_size({group}, 1, 1)") == 1
        assert len(re.findall(rf"__local \w+ lk_l\d+\[{block}\];", kernel.source)) == 1
        assert ("where its values were" in kernel.rewrites[0]) == copied
        assert "atom_inc(" in kernel.source and "atom_xchg(" in kernel.source
        # The look-back by the first warp where built for an NVIDIA GPU, else by item 0.
        assert "#if defined(IDIOM_NVIDIA_WARPS)" in kernel.source
        assert "idiom_ballot(" in kernel.source and "#else" in kernel.source


@pytest.mark.parametrize(
    "n",
    [
        4,
        63,
        64,
        65,
        255,
        256,
        257,
        1023,
        1024,
        1025,
        2049,
        4351,
        4353,
        5377,
        8705,
        10751,
        10753,
        21505,
        300_001,
    ],
)
def test_outputs_equal_and_overlapping_calls_stay_on_the_host(
    builds: tuple[Path, Path, Accelerated], n: int
) -> None:
    stderr = same_outputs(builds, [str(n)], ON_POCL)
    launches = [
        line
        for line in stderr.splitlines()
        if re.search(r"cl_run kernel 'idiom_scan_(chunks|chained)'", line) and line.endswith("done")
    ]
    # Ten calls of scans: the in-place scan of a part, spread with k = 1; the output one
    # element into its input, spread with k = 0 (one element written by every trip) and
    # the output that holds the record its address is read from never launch.
    assert len(launches) == 10


FLOATING = """
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void cumulative(const double *x, double *y, int n, double first) {
    double s = first;
    for (int i = 0; i < n; i++) {
        s += x[i];
        y[i] = s;
    }
}

int main(int argc, char **argv) {
    int n = atoi(argv[1]), huge = atoi(argv[2]);
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++)
        x[i] = ((i * 7919) % 1000) * 0.001 - 0.4;
    double first = 0.0;
    if (huge == 1) {  /* in the loop's order the sum stays finite; in another it may not */
        x[0] = DBL_MAX;
        x[1] = -DBL_MAX;
        x[n - 1] = DBL_MAX;
    }
    if (huge == 2) {  /* from the largest double, two values under half its last unit */
        for (int i = 0; i < n; i++)
            x[i] = 0.0;
        x[0] = x[1] = 0.3 * ldexp(1.0, 971);
        first = DBL_MAX;
    }
    cumulative(x, y, n, first);
    printf("%.10g %.10g %.10g\\n", y[0], y[n / 2], y[n - 1]);
    return 0;
}
"""


def test_a_floating_point_sum_is_scanned_reordered(tmp_path: Path) -> None:
    source = tmp_path / "cumulative.c"
    source.write_text(FLOATING)
    pair = build_pair(source, tmp_path)
    replaced_everywhere(pair[2], {"Scan"}, {"cumulative"})
    (outcome,) = [o for u in pair[2].units for o in u.outcomes]
    assert outcome.detail == "OpenCL scan kernels (generated, floating point, reordered)"
    for huge, launched in (("0", True), ("1", False), ("2", False)):
        stderr = same_outputs(pair, ["100000", huge], ON_POCL)
        chunks = "cl_run kernel 'idiom_scan_chunks'" in stderr
        # Magnitudes that add up past the largest double, the start's included (it is
        # in every output): declined before the second kernel.
        assert chunks == launched, stderr


def test_a_floating_point_scan_keeps_its_loop_without_reassociation(tmp_path: Path) -> None:
    source = tmp_path / "cumulative.c"
    source.write_text(FLOATING)
    _, report = rewrite_file(source, CompileOptions(), reassociate=False)
    (outcome,) = report.outcomes
    assert outcome.instance.idiom == "Scan" and not outcome.replaced
    assert "reordered (reassociation off)" in outcome.detail
