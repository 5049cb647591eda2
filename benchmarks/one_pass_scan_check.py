"""The generated one-pass scan (lift/ir/build.py `blocked_scan`'s `chained`) run on an
OpenCL device against numpy, in the shapes that device's build takes: on an NVIDIA GPU
the look-back by warps (lift/opencl/lookback.py), which the tests' CPU device never runs.
32- and 64-bit values that wrap, sums and maxima, inclusive and exclusive, the tool's
shape for each width (`chained_shape`: work-groups, runs, the block copied in or not)
and groups of 32 with one value an item, every block a group and a few groups taking
every block in turn.
Prints one line a case and the count of failures (its exit status: 1 where any).

    python benchmarks/one_pass_scan_check.py --device gpu
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from lift.exploration.device import Device, Launch, open_device
from lift.ir import expr as ir
from lift.ir.build import blocked_scan
from lift.ir.text import parse
from lift.ir.types import Array, Scalar, Size
from lift.opencl.generate import Output, generate
from mappers.targets.functional import chained_shape

NUMPY = {"i32": np.int32, "i64": np.int64}
IDENTITY = {("+", "i32"): 0, ("+", "i64"): 0, ("max", "i32"): -(2**31), ("max", "i64"): -(2**63)}


def expected(values: np.ndarray, start: int, op: str, inclusive: bool) -> np.ndarray:
    dtype = values.dtype
    with np.errstate(over="ignore"):
        joined = np.concatenate(([start], values)).astype(dtype)
        running = np.cumsum(joined, dtype=dtype) if op == "+" else np.maximum.accumulate(joined)
    return running[1:] if inclusive else running[:-1]


def check(device: Device, case: tuple[str, str, bool, int, int, int, int | None]) -> bool:
    op, kind, inclusive, group, per, n, groups = case
    dtype = NUMPY[kind]
    x = ir.Param("x", Array(Scalar(kind), Size.of("n0")))
    fold = parse(f"(lambda (a b) ({op} a b))")
    assert isinstance(fold, ir.Lambda)
    programs = blocked_scan(
        [x], x, fold, ir.Literal(IDENTITY[op, kind], Scalar(kind)), Size.of("n0"),
        local=group, inclusive=inclusive, per=per, staging=chained_shape(Scalar(kind)).staging,
    )  # fmt: skip
    assert programs.chained is not None
    block = group * per
    blocks = -(-n // block)
    y = ir.Param("y", Array(Scalar(kind), Size.of("wg") * block))
    program = ir.Lambda((x, y, *programs.chained.params[1:]), programs.chained.body)
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    kernel = generate(program, "chained", output=output, work_group=group)
    bits = 8 * np.dtype(dtype).itemsize
    rng = np.random.default_rng(n + group)
    values = rng.integers(-(2 ** (bits - 1)), 2 ** (bits - 1), n, dtype=dtype)
    start = int(rng.integers(-(2 ** (bits - 1)), 2 ** (bits - 1), dtype=dtype))
    written = np.zeros(blocks * block, dtype=dtype)
    launched = (groups or blocks) * group
    inputs = {"x": values, "y": np.zeros_like(written), "z": start}
    device.run(program, kernel, inputs, {"n0": n, "wg": blocks}, Launch((launched,), (group,)),
               written, repeat=2)  # fmt: skip
    return bool(np.array_equal(written[:n], expected(values, start, op, inclusive)))


def _shapes(kind: str) -> list[tuple[int, int]]:
    """The tool's shape for values of `kind`, and groups of 32 with one value an item."""
    shape = chained_shape(Scalar(kind))
    return [(shape.group, shape.run), (32, 1)]


def cases() -> list[tuple[str, str, bool, int, int, int, int | None]]:
    sizes = [1, 31, 4353, 100_003, 2**22 + 17]
    return [
        (op, kind, inclusive, group, per, n, groups)
        for op in ("+", "max")
        for kind in ("i32", "i64")
        for inclusive in (True, False)
        for group, per in _shapes(kind)
        for n in sizes
        for groups in (None, 7)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    args = parser.parse_args()
    device = open_device(args.device)
    print(f"{device.name}; build options {device.options!r}")
    failures = 0
    for case in cases():
        ok = check(device, case)
        failures += not ok
        print(("ok  " if ok else "FAIL"), case, flush=True)
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
