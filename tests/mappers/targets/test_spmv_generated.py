"""Sparse products run kernels the Lift compiler generates.

CSR (programs/csr_forms.c): 0-based rows, 1-based storage read through `k - 1` and
`ja[k] - 1`, y scaled and added to, float values, 64-bit row pointers, y's old value as
the row's start. A row's entries are
a segment of the values between its row pointers, folded in the loop's order, so with
launches forced on PoCL the program prints what the original prints, to the bit; and so
it does with the kernels translated from the IR (`IDIOM_KERNELS=translated`).

Jagged diagonal storage (programs/jds_forms.c): rows stored through a permutation or in
sorted order, 1-based columns, y scaled, float values, 64-bit positions. A row's
entries are the positions `jd_ptr[d] + r` of its diagonals, a segment of jd_ptr moved to
the row; its value is written at y[perm[r]] through `permute`, which the claims the
range-finding kernels make guarantee is written once per row. A row that reads y before
it stores (`y[perm[r]] += sum`) reads its cell at the same index (a sum started from
y[perm[r]] keeps its loop). With a row of y claimed by two rows (`repeated`), every
product through perm declines to the original.

ELLPACK (programs/ell_forms.c): entries stored by rows (i*w + j) or by columns (j*n + i),
float values, y added to. A row's entries are gathered at the positions its entry loop's
counter computes, the counter running over `(range entries 0 w)`; with a third argument
(atoi gives 0) no row has entries.

Coordinate storage (programs/coo_forms.c): 0-based, 1-based columns, float values, 64-bit
indices, every entry but those just above the diagonal, positive values only (the row and
column read under the test, the others' rows and columns far outside y and x); x gathered
at each entry's column, the products added atomically into y (their values exact in any
order, so the outputs compare to the bit too)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

PROGRAMS = Path(__file__).parents[1] / "programs"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}


@dataclass(frozen=True)
class Forms:
    program: str
    idiom: str
    functions: frozenset[str]
    target: str  # the report's target with translated kernels
    kernel: str  # the product's kernel, as IDIOM_VERBOSE names it
    # Products launched a step with a third argument (None: every form's).
    launched_with_third: int | None = None
    # Forms whose generated kernels may sum a long row's entries in another order.
    reordered: frozenset[str] = frozenset()

    def detail(self, function: str, kernels: str) -> str:
        if kernels == "translated":
            return self.target
        if function in self.reordered:
            return f"{self.target} (floating point, long rows reordered) (generated)"
        return f"{self.target} (generated)"


CSR = Forms(
    "csr_forms.c", "SpMV_CSR",
    frozenset({"plain", "one_based", "scaled", "single", "wide", "accumulate"}),
    "OpenCL CSR SpMV kernel", "idiom_spmv",
    # by 32 work-items a row where rows are long; not a sum started from y's old value
    reordered=frozenset({"plain", "one_based", "scaled", "single", "wide"}),
)  # fmt: skip
COO = Forms(
    "coo_forms.c", "SpMV_COO",
    frozenset({"plain", "one_based", "single", "wide", "except_superdiagonal", "positive"}),
    "OpenCL histogram kernel (atomics)", "idiom_histogram",
)  # fmt: skip
JDS = Forms(
    "jds_forms.c", "SpMV_JDS",
    frozenset({"plain", "sorted", "one_based", "scaled", "single", "wide", "accumulate"}),
    "OpenCL JDS SpMV kernel", "idiom_jds_spmv", launched_with_third=1,
)  # fmt: skip
ELL = Forms(
    "ell_forms.c", "SpMV_ELL", frozenset({"rows", "columns", "single", "accumulate"}),
    "OpenCL ELLPACK SpMV kernel", "idiom_spmv",
)  # fmt: skip
BUILDS = [
    (forms, kernels) for forms in (CSR, COO, JDS, ELL) for kernels in ("generated", "translated")
]


@pytest.fixture(scope="module", params=BUILDS, ids=lambda b: f"{b[0].idiom}-{b[1]}")
def build(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Forms, str, tuple[Path, Path, Accelerated]]:
    forms, kernels = request.param
    folder = tmp_path_factory.mktemp(f"{forms.idiom}_{kernels}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IDIOM_KERNELS", kernels)
        return forms, kernels, build_pair(PROGRAMS / forms.program, folder)


def test_every_form_is_replaced_by_the_kernels_asked_for(
    build: tuple[Forms, str, tuple[Path, Path, Accelerated]],
) -> None:
    forms, kernels, (_, _, report) = build
    targets = {
        o.instance.function: o.detail
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom == forms.idiom and o.replaced
    }
    assert targets == {f: forms.detail(f, kernels) for f in forms.functions}


@pytest.mark.parametrize(
    "args", [["1", "1"], ["4", "2"], ["300", "3"], ["300", "2", "swapped"]], ids="-".join
)
def test_outputs_equal_the_original_to_the_bit(
    build: tuple[Forms, str, tuple[Path, Path, Accelerated]], args: list[str]
) -> None:
    """With `swapped`, some CSR rows begin past their end: no entries, as in the loop;
    JDS's rows store twice into a row of y, so only the form without perm launches;
    ELLPACK's rows have no entries (the COO program takes no third argument)."""
    forms, _, pair = build
    stderr = same_outputs(pair, args, ON_POCL)
    steps = args[1]
    launches = [
        line
        for line in stderr.splitlines()
        if f"cl_run kernel '{forms.kernel}'" in line and line.endswith("done")
    ]
    # Every form at every step (CSR's rows without entries too: its first three).
    per_step = len(forms.functions)
    if len(args) > 2 and forms.launched_with_third is not None:
        per_step = forms.launched_with_third
    assert len(launches) == per_step * int(steps)


def test_generated_products_carry_their_covered_twins_and_element_offsets(
    build: tuple[Forms, str, tuple[Path, Path, Accelerated]],
) -> None:
    """A generated CSR, JDS or ELLPACK product's source defines `<kernel>_covered` too, and
    names its buffers as typed pointers plus element offsets (IDIOM_ARG_ELEMENTS); the
    translated kernels and COO's scatter keep byte offsets and no twin."""
    forms, kernels, (_, accelerated, _) = build
    binary = accelerated.read_bytes()
    generated_product = kernels == "generated" and forms is not COO
    assert (f"__kernel void {forms.kernel}_covered(".encode() in binary) == generated_product
    assert (b"_mem) + " in binary) == generated_product
