"""The one-pass scan of ints in several shapes, its block scanned in place in local memory.

The generated one-pass scan of ints (`scan-workgroups`, copied in, staged out) writes
each run's prefixes where its values were (lift/opencl/in_place.py), one local copy of
the block. With `--two-buffers` the kernel is edited to stage the prefixes through a
second buffer of the block's size, as it was generated before. Each shape's kernel is
timed against the hand-written copy kernel in the same run; every output compared with
numpy's.

    python benchmarks/scan_in_place_probe.py --device gpu [--exponents 25,26] [--repeat 20]
        [--two-buffers]
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lift_kernels import REFERENCES, _scan_programs, _timed, _wrapped

from lift.exploration.device import Device, Launch, open_device
from lift.ir.types import Size
from lift.opencl.generate import Kernel, Output, generate

SHAPES = [(256, 13), (256, 17), (256, 21), (256, 25), (256, 29), (256, 33), (256, 41), (512, 17),
          (512, 19), (512, 23), (1024, 11),
          (128, 21), (128, 29), (128, 41), (128, 57), (512, 13), (512, 21)]  # fmt: skip
LOCAL_LIMIT = 48 * 1024 - 1024  # a work-group's local memory on NVIDIA, less the small words


def two_buffers(kernel: Kernel, block: int) -> Kernel | None:
    """The kernel with the prefixes staged through a second local buffer of `block` ints:
    the block's buffer renamed where the scan of each run writes it and where the block
    is copied out."""
    name = re.search(rf"__local int (lk_l\d+)\[{block}\];", kernel.source)
    if name is None:
        return None
    first = name.group(1)
    second = f"{first}_out"
    lines = kernel.source.splitlines()
    declared = lines.index(f"  __local int {first}[{block}];")
    lines.insert(declared + 1, f"  __local int {second}[{block}];")
    written = re.compile(rf"^(\s+){first}(\[.*\] = lk_acc\d+;)$")  # a run's prefix
    copied = re.compile(rf"^(\s+if .*\) y\[.*\] = ){first}(\[.*)$")
    edited = [written.sub(rf"\1{second}\2", line) for line in lines]
    edited = [copied.sub(rf"\1{second}\2", line) for line in edited]
    return dataclasses.replace(kernel, source="\n".join(edited) + "\n")


def copy_gbs(device: Device, n: int, repeat: int) -> float:
    """The hand-written copy kernel's bandwidth over n doubles, GB/s."""
    cl = device.cl
    program = cl.Program(device.context, (REFERENCES / "copy.cl").read_text()).build()
    x = np.random.default_rng(1).random(n)
    flags = cl.mem_flags
    src = cl.Buffer(device.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=x)
    dst = cl.Buffer(device.context, flags.READ_WRITE, 8 * n)
    times = _timed(device, cl.Kernel(program, "copy"), ((n,), None), [src, dst, np.int32(n)],
                   repeat)  # fmt: skip
    return 16 * n / statistics.median(times) / 1e9


def scan_gbs(device: Device, x: np.ndarray, group: int, run: int, *, two: bool,
             repeat: int) -> tuple[float, bool] | None:  # fmt: skip
    """The generated scan's bandwidth (ideal traffic: 8 bytes a value) and whether its
    output is numpy's; None where the shape does not fit."""
    n, block = len(x), group * run
    buffers = 2 if two else 1
    if buffers * 4 * block > LOCAL_LIMIT:
        return None
    programs = _scan_programs(group, run, (True, True))
    assert programs.chained is not None
    chunks = -(-n // block)
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    kernel = generate(programs.chained, "chained", output=output, index="int", work_group=group)
    if two:
        edited = two_buffers(kernel, block)
        if edited is None:
            return None
        kernel = edited
    y = np.zeros(chunks * block, dtype=np.int32)
    times = device.run(programs.chained, kernel, {"x": x, "y": y, "z": 0},
                       {"n0": n, "wg": chunks}, Launch((chunks * group,), (group,)), y,
                       repeat=repeat + 1)  # fmt: skip
    expected = _wrapped(np.cumsum(x.astype(np.int64)))
    return 8 * n / statistics.median(times[1:]) / 1e9, bool(np.array_equal(y[:n], expected))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--exponents", default="25,26")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--two-buffers", action="store_true", help="each shape both ways")
    args = parser.parse_args()
    device = open_device(args.device)
    print(f"device {device.name}; build options {device.options!r}")
    for exponent in (int(e) for e in args.exponents.split(",")):
        n = 2**exponent
        copy = copy_gbs(device, n, args.repeat)
        print(f"2^{exponent} values: copy {copy:.0f} GB/s", flush=True)
        x = np.random.default_rng(11).integers(-1000, 1000, n).astype(np.int32)
        for group, run in SHAPES:
            for two in (False, True) if args.two_buffers else (False,):
                found = scan_gbs(device, x, group, run, two=two, repeat=args.repeat)
                if found is None:
                    continue
                gbs, equal = found
                form = "two buffers" if two else "one buffer "
                print(f"  group {group:3d} run {run:2d} {form}: {gbs:6.0f} GB/s "
                      f"{100 * gbs / copy:5.1f}% of copy  equal: {equal}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
