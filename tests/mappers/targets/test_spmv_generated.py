"""CSR products run kernels the Lift compiler generates (programs/csr_forms.c): 0-based
rows, 1-based storage read through `k - 1` and `ja[k] - 1`, y scaled and added to, float
values, 64-bit row pointers. Each form's rows fold their entries in the loop's order, so
with launches forced on PoCL the program prints what the original prints, to the bit; and
so it does with the kernels translated from the IR (`IDIOM_KERNELS=translated`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "csr_forms.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
FORMS = {"plain", "one_based", "scaled", "single", "wide"}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("csr_generated"))


@pytest.fixture(scope="module")
def translated(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, Path, Accelerated]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IDIOM_KERNELS", "translated")
        return build_pair(PROGRAM, tmp_path_factory.mktemp("csr_translated"))


def _targets(report: Accelerated) -> dict[str, str]:
    return {
        o.instance.function: o.detail
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom == "SpMV_CSR" and o.replaced
    }


def test_every_form_runs_a_generated_kernel(generated: tuple[Path, Path, Accelerated]) -> None:
    targets = _targets(generated[2])
    assert set(targets) == FORMS
    assert set(targets.values()) == {"OpenCL CSR SpMV kernel (generated)"}


def test_translated_kernels_when_asked(translated: tuple[Path, Path, Accelerated]) -> None:
    assert set(_targets(translated[2]).values()) == {"OpenCL CSR SpMV kernel"}


@pytest.mark.parametrize("kernels", ["generated", "translated"])
@pytest.mark.parametrize(("rows", "steps"), [("1", "1"), ("4", "2"), ("300", "3")])
def test_outputs_equal_the_original_to_the_bit(
    request: pytest.FixtureRequest, kernels: str, rows: str, steps: str
) -> None:
    pair = request.getfixturevalue(kernels)
    stderr = same_outputs(pair, [rows, steps], ON_POCL)
    launches = [
        line
        for line in stderr.splitlines()
        if "cl_run kernel 'idiom_spmv'" in line and line.endswith("done")
    ]
    # Every form at every step, rows without entries too (the first three are empty).
    assert len(launches) == len(FORMS) * int(steps)
