"""The one-pass scan's look-back by warps (lift/opencl/lookback.py): where it is generated,
and the build option that selects it. Its branch runs only on NVIDIA GPUs
(benchmarks/one_pass_scan_check.py checks it there); the tests' CPU device runs the other."""

from __future__ import annotations

import pytest

from lift.ir import expr as ir
from lift.ir.build import blocked_scan
from lift.ir.text import parse
from lift.ir.types import Array, Scalar, Size
from lift.opencl.generate import Output, generate
from lift.opencl.lookback import WARP_DEVICE, build_options


def one_pass_source(fold: str, group: int, kind: str = "i32") -> str:
    x = ir.Param("x", Array(Scalar(kind), Size.of("n0")))
    function = parse(fold)
    assert isinstance(function, ir.Lambda)
    programs = blocked_scan(
        [x], x, function, ir.Literal(0, Scalar(kind)), Size.of("n0"), local=group,
        inclusive=True, per=3, staging=(False, True),
    )  # fmt: skip
    assert programs.chained is not None
    y = ir.Param("y", Array(Scalar(kind), Size.of("wg") * (3 * group)))
    program = ir.Lambda((x, y, *programs.chained.params[1:]), programs.chained.body)
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    return generate(program, "chained", output=output, work_group=group).source


@pytest.mark.parametrize(
    ("vendor", "gpu", "options"),
    [
        ("NVIDIA Corporation", True, f"-D{WARP_DEVICE}=1"),
        ("NVIDIA Corporation", False, ""),
        ("Advanced Micro Devices, Inc.", True, ""),
        ("The pocl project", False, ""),
    ],
)
def test_the_warp_branch_is_built_for_nvidia_gpus_only(
    vendor: str, gpu: bool, options: str
) -> None:
    assert build_options(vendor, gpu) == options


@pytest.mark.parametrize("kind", ["i32", "i64"])
@pytest.mark.parametrize("op", ["+", "max", "^"])
def test_a_commutative_fold_in_groups_of_a_warp_or_more_looks_back_by_warp(
    op: str, kind: str
) -> None:
    source = one_pass_source(f"(lambda (a b) ({op} a b))", 64, kind)
    prelude, kernel = source.split("__kernel ", 1)
    # The helpers once, before the kernel; the kernel's two branches, balanced.
    assert prelude.count("inline uint idiom_ballot(") == 1
    assert kernel.count(f"#if defined({WARP_DEVICE})") == 1
    assert kernel.count("#else") == 1 and kernel.count("#endif") == 1
    shuffled = "idiom_shfl_xor_long(" if kind == "i64" else "idiom_shfl_xor_int("
    branch = kernel.split(f"#if defined({WARP_DEVICE})")[1].split("#else")[0]
    assert shuffled in branch and "idiom_ballot(" in branch
    assert "barrier(" not in branch  # the warp alone: no barrier of the work-group


@pytest.mark.parametrize(
    ("fold", "group"),
    [("(lambda (a b) (+ a b))", 16), ("(lambda (a b) (- a b))", 64)],
)
def test_a_narrow_group_or_an_unordered_fold_keeps_the_other_look_back(
    fold: str, group: int
) -> None:
    source = one_pass_source(fold, group)
    assert WARP_DEVICE not in source and "idiom_ballot" not in source
