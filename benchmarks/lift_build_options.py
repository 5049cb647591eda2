"""Generated stencil and map kernels built with other OpenCL build options.

The device's compiler decides register allocation and scheduling itself; NVIDIA's accepts
options that change them (`-cl-nv-maxrregcount=N`, `-cl-nv-opt-level=N`). This times a
few candidates of the Lift search for each case (benchmarks/lift_kernels.py's cases:
box27, heat3d, jacobi2d, axpby), each built with every option set, in three rounds whose
order interleaves the options (so that the device's drift falls on all of them), every
output compared bit for bit with the first. It prints each case's fastest rows and the
best time per option set, with the share of the copy kernel's bandwidth measured after
the case.

    python3 benchmarks/lift_build_options.py [CASE ...] > OUT.txt
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import lift_kernels  # noqa: E402

from lift.exploration.device import Device, Launch, open_device  # noqa: E402
from lift.exploration.space import Candidate, candidates, default_candidate, launch_shape  # noqa: E402

OPTION_SETS = (
    "",
    "-cl-nv-maxrregcount=255",
    "-cl-nv-maxrregcount=128",
    "-cl-nv-maxrregcount=80",
    "-cl-nv-opt-level=2",
)
ROUNDS = 3


class WithOptions(Device):
    """The same device and context, its kernels built with `extra` options too."""

    def __init__(self, base: Device, extra: str) -> None:
        super().__init__(base.context, base.device)
        self.extra = extra

    @property
    def options(self) -> str:
        return f"{super().options} {self.extra}".strip()


def _streamed(c: Candidate) -> bool:
    return any(step.startswith("stream") for step in c.steps)


SHAPES_3D = ((32, 8, 1), (64, 4, 1))
WANTED: dict[str, Callable[[Candidate], bool]] = {
    "box27": lambda c: _streamed(c) and c.coarsen in (48, 96) and c.local in SHAPES_3D,
    "heat3d": lambda c: _streamed(c) and c.coarsen in (4, 48) and c.local in SHAPES_3D,
    "jacobi2d": lambda c: c.coarsen in (1, 4) and c.local in ((32, 8), (64, 4)),
    "axpby": lambda c: c.coarsen in (1, 2) and c.steps[:1] != ("split-join(256)",),
}


def copy_gbs(device: Device, cases: dict[str, Any]) -> float:
    seconds, _ = lift_kernels._reference(device, cases["copy"], 40)
    return float(cases["copy"].traffic_bytes / seconds / 1e9)


def label(c: Candidate, options: str) -> str:
    shape = "x".join(str(n) for n in c.local)
    form = c.kernel.index + (" covered" if c.kernel.covered else "")
    steps = "+".join(step.split("(")[0] for step in c.steps[-2:])
    return f"{shape} x{c.coarsen} {form} {steps} [{options or 'none'}]"


def measure(name: str, base: Device, cases: dict[str, Any]) -> None:
    case = cases[name]
    chosen = [c for c in candidates(case.program, case.output, sizes=case.sizes) if WANTED[name](c)]
    chosen = [*chosen[:16], default_candidate(case.program, case.output)]
    devices = {options: WithOptions(base, options) for options in OPTION_SETS}
    print(f"== {name}: {len(chosen)} candidates x {len(OPTION_SETS)} option sets", flush=True)
    times: dict[tuple[int, str], list[float]] = {}
    first: np.ndarray | None = None
    for _ in range(ROUNDS):
        for i, candidate in enumerate(chosen):
            global_size, local_size = launch_shape(candidate, case.sizes)
            for options, device in devices.items():
                out = np.zeros(case.output_elements)
                runs = device.run(candidate.program, candidate.kernel, case.inputs, case.sizes,
                                  Launch(global_size, local_size), out, repeat=21)  # fmt: skip
                first = out.copy() if first is None else first
                if not np.array_equal(out, first):
                    print(f"DIFFERENT OUTPUT: {label(candidate, options)}", flush=True)
                times.setdefault((i, options), []).append(statistics.median(runs[1:]))
    copy = copy_gbs(base, cases)
    rows = sorted((statistics.median(ts), i, options, ts) for (i, options), ts in times.items())
    for median, i, options, ts in rows[:12]:
        share = case.traffic_bytes / median / 1e9 / copy
        rounds = " ".join(f"{t * 1e6:7.1f}" for t in ts)
        print(f"{label(chosen[i], options):78s} {rounds} us  {share:6.1%} of copy {copy:.0f} GB/s")
    for options in OPTION_SETS:
        best = min(median for median, _, o, _ in rows if o == options)
        print(f"  best with [{options or 'none'}]: {best * 1e6:.1f} us", flush=True)


def main() -> None:
    base = open_device("gpu")
    cases = {case.name: case for case in lift_kernels.cases(1.0)}
    print(f"device {base.name}; copy {copy_gbs(base, cases):.0f} GB/s", flush=True)
    for name in sys.argv[1:] or list(WANTED):
        measure(name, base, cases)


if __name__ == "__main__":
    main()
