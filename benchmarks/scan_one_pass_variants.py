"""Hand-written one-pass scans in variants (lift_reference/scan_one_pass_variants.cl) on
an OpenCL device: each variant's median kernel time over ten launches after one (its
status words zeroed before each, not counted), as GB/s of the ideal traffic (every value
read once, every prefix written once) and as a share of an int4 copy kernel's bandwidth
measured in the same run, its output compared with numpy's.

    python benchmarks/scan_one_pass_variants.py --device gpu --n 33554432 --out FILE
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from lift.exploration.device import Device, open_device

SOURCE = Path(__file__).parent / "lift_reference" / "scan_one_pass_variants.cl"
COPY = (
    "__kernel void copy(__global const int4* a, __global int4* b) "
    "{ size_t i = get_global_id(0); b[i] = a[i]; }"
)
# (work-group, values an item, window, how the window is folded, static block numbers,
# atomic reads of the status words)
ATOMIC = [(256, 4, 32, 0, 0, 1), (512, 4, 256, 2, 0, 1), (256, 8, 32, 0, 0, 1)]
VARIANTS = [
    (256, 4, 32, 2, 0), (256, 4, 64, 2, 0), (256, 4, 128, 2, 0), (256, 4, 256, 2, 0),
    (512, 4, 256, 2, 0), (256, 8, 256, 2, 0), (128, 4, 128, 2, 0),
    (256, 4, 32, 0, 0), (256, 4, 32, 0, 1), (256, 4, 32, 1, 0), (256, 4, 256, 1, 0),
    (256, 8, 32, 0, 0), (256, 8, 32, 1, 0), (256, 8, 128, 1, 0), (256, 16, 32, 0, 0),
    (256, 16, 128, 1, 0), (128, 8, 32, 0, 0), (128, 16, 32, 0, 0), (128, 16, 128, 1, 0),
    (512, 8, 32, 0, 0), (256, 8, 32, 0, 1),
]  # fmt: skip
FOLDS = ["seq", "lid0scan", "monoid"]


def _time(device: Device, launch: Any, before: Any = None) -> float:
    times = []
    for _ in range(11):
        if before is not None:
            before()
        event = launch()
        event.wait()
        times.append((event.profile.end - event.profile.start) * 1e-9)
    return statistics.median(times[1:])


def measure(device: Device, n: int) -> dict[str, Any]:
    cl, context, queue = device.cl, device.context, device.queue
    x = np.random.default_rng(1).integers(-1000, 1000, n).astype(np.int32)
    expected = np.cumsum(x, dtype=np.int32)
    flags = cl.mem_flags
    x_buffer = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=x)
    out = cl.Buffer(context, flags.READ_WRITE, 4 * n)
    zero = np.zeros(1, np.uint8)
    copy = cl.Kernel(cl.Program(context, COPY).build(), "copy")
    copy_s = _time(device, lambda: copy(queue, (n // 4,), (256,), x_buffer, out))
    rows: dict[str, Any] = {"device": device.name, "n": n, "copy_GBs": 8 * n / copy_s / 1e9}
    variants = [(*v, 0) for v in VARIANTS] + ATOMIC
    for group, per, window, fold, static, atomic in variants:
        name = f"g{group}_per{per}_w{window}_{FOLDS[fold]}{'_static' if static else ''}"
        name += "_atomic_reads" if atomic else ""
        options = f"-DGROUP={group} -DPER={per} -DWINDOW={window} -DTREE={fold} -DSTATIC={static}"
        options += f" -DATOMIC_READS={atomic}"
        program = cl.Program(context, SOURCE.read_text()).build(options=options)
        kernel = cl.Kernel(program, "scan_variant")
        blocks = -(-n // (group * per))
        size = 8 * (blocks + 1)
        status = cl.Buffer(context, flags.READ_WRITE, size)
        seconds = _time(
            device,
            lambda k=kernel, g=group, b=blocks, s=status: k(
                queue, (b * g,), (g,), x_buffer, out, s, np.int32(n), np.int32(b)
            ),
            lambda s=status, z=size: cl.enqueue_fill_buffer(queue, s, zero, 0, z),
        )
        y = np.empty(n, dtype=np.int32)
        cl.enqueue_copy(queue, y, out)
        queue.finish()
        equal = bool(np.array_equal(y, expected))
        rows[name] = {"GBs": 8 * n / seconds / 1e9, "share": copy_s / seconds, "equal": equal}
        print(name, rows[name], flush=True)
    return rows


def variants_main(doc: str, measure: Callable[[Device, int], dict[str, Any]], counted: str) -> None:
    """The command line of a benchmark of hand-written variants: `--device`, `--n` (the
    values `counted`), `--out` (the rows `measure` gives, as JSON)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--n", type=int, default=2**25, help=counted)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = measure(open_device(args.device), args.n)
    args.out.write_text(json.dumps(rows, indent=1))


def main() -> None:
    variants_main(__doc__ or "", measure, "values, a multiple of 1,024")


if __name__ == "__main__":
    main()
