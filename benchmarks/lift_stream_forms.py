"""The forms of a streamed stencil's kernel, timed side by side on one device.

A streamed kernel (lift's map-stream) can be written several ways that compute the same
values (lift/exploration/space.py `STREAMED_FORMS`): `long` or `int` indices, covered or
with loops, its lanes read by index or through a pointer advanced along the run
(`stream_pointers`), the values kept from one element to the next or the partial sums of
their chain (`partial_sums`). For benchmarks/lift_kernels.py's streamed cases (box27,
heat3d, jacobi2d), this times every form of the Lift search's streamed candidates at a
few run lengths and work-group shapes, in three rounds of 20 launches (median each),
every output compared bit for bit with the first, and prints them fastest first with
their share of the copy kernel's bandwidth. What `idiom accelerate` should launch is
decided from these figures (docs/lift.md).

    python3 benchmarks/lift_stream_forms.py [--device gpu|cpu] [--scale 1.0] [--runs 4,8]
        [CASE ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import lift_kernels  # noqa: E402

from lift.exploration.device import Device, Launch, open_device  # noqa: E402
from lift.exploration.space import Candidate, candidates, launch_shape  # noqa: E402

RUNS = {"box27": (48, 96), "heat3d": (4, 48), "jacobi2d": (4, 16)}
SHAPES = {
    "box27": ((32, 8, 1), (64, 4, 1)),
    "heat3d": ((64, 4, 1), (128, 2, 1)),
    "jacobi2d": ((64, 4), (128, 2)),
}
ROUNDS = 3


def label(c: Candidate) -> str:
    k = c.kernel
    return (
        f"{'x'.join(map(str, c.local))} run {c.coarsen} {k.index}"
        f"{' covered' if k.covered else ''}{' pointers' if k.stream_pointers else ''}"
        f"{' partial sums' if k.partial_sums else ''}"
    )


def measure(
    device: Device, name: str, cases: dict[str, lift_kernels.Case], runs: tuple[int, ...]
) -> None:
    case = cases[name]
    chosen = [
        c
        for c in candidates(case.program, case.output, sizes=case.sizes)
        if any(step.startswith("stream") for step in c.steps)
        and c.coarsen in (runs or RUNS[name])
        and c.local in SHAPES[name]
    ]
    times: dict[str, list[float]] = {}
    first: np.ndarray | None = None
    for _ in range(ROUNDS):
        for c in chosen:
            global_size, local_size = launch_shape(c, case.sizes)
            out = np.zeros(case.output_elements)
            runs = device.run(c.program, c.kernel, case.inputs, case.sizes,
                              Launch(global_size, local_size), out, repeat=21)  # fmt: skip
            first = out.copy() if first is None else first
            key = label(c) + ("" if np.array_equal(out, first) else " DIFFERENT OUTPUT")
            times.setdefault(key, []).append(statistics.median(runs[1:]))
    copy_s, _ = lift_kernels._reference(device, cases["copy"], 40)
    copy = cases["copy"].traffic_bytes / copy_s / 1e9
    print(f"== {name}: {len(chosen)} kernels; copy {copy:.0f} GB/s", flush=True)
    for key, ts in sorted(times.items(), key=lambda item: statistics.median(item[1])):
        median = statistics.median(ts)
        share = case.traffic_bytes / median / 1e9 / copy
        rounds = " ".join(f"{t * 1e6:7.1f}" for t in ts)
        print(f"{key:55s} {rounds} us  {share:6.1%} of copy", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--runs", default="", help="run lengths, e.g. 4,8 (default: each case's)")
    parser.add_argument("cases", nargs="*", default=list(RUNS))
    args = parser.parse_args()
    runs = tuple(int(r) for r in args.runs.split(",") if r)
    device = open_device(args.device)
    print(f"device {device.name}", flush=True)
    cases = {case.name: case for case in lift_kernels.cases(args.scale)}
    for name in args.cases:
        measure(device, name, cases, runs)


if __name__ == "__main__":
    main()
