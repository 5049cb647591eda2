"""A launch sets only the scalar arguments that changed since its kernel's last launch
(mappers/runtime/idiom_resident.c `idiom__set_arg`): the kernel object keeps the others.
One element-wise loop launched twelve times with coefficients, lengths and starts that
change on some launches and not on others prints the original's output on PoCL, as it does
with every argument set at every launch (IDIOM_ARG_MEMO=0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mappers.differential import build_pair, kernel_launches, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "changing_scalars.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}


@pytest.mark.parametrize("memo", ["1", "0"])
def test_each_launch_sees_its_own_scalars(memo: str, tmp_path: Path) -> None:
    pair = build_pair(PROGRAM, tmp_path)
    stderr = same_outputs(pair, ["1000", "12"], {**ON_POCL, "IDIOM_ARG_MEMO": memo})
    assert len(kernel_launches(stderr, "idiom_map")) == 12, stderr
