"""Hand-written histograms of 256 bins in variants (lift_reference/histogram_variants.cl)
on an OpenCL device: copies of each work-group's local bins, keys read one or four at a
time, work-groups of 128 to 512, grids of 1 to 4 times the one the runtime fills a GPU
with (`filled_grid`). Each variant's median kernel time over ten launches after one (the
bins cleared before each, not counted), as GB/s of the ideal traffic (every key read
once) and as a share of an int4 copy kernel's bandwidth in the same run (whose traffic
counts its reads and its writes, as benchmarks/lift_kernels.py counts it), the counts
compared with numpy's.

    python benchmarks/histogram_variants.py --device gpu --n 33554432 --out FILE
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.scan_one_pass_variants import COPY, _time, variants_main
from lift.exploration.device import Device

SOURCE = Path(__file__).parent / "lift_reference" / "histogram_variants.cl"
BINS = 256
# (work-group, copies of the local bins, keys at once, padding a copy, grid factor,
# keys a grid apart read before their adds)
VARIANTS = [
    (256, 1, 1, 0, 1, 0), (256, 1, 4, 0, 1, 0), (512, 1, 4, 0, 1, 0), (1024, 4, 4, 1, 1, 0),
    (256, 1, 1, 0, 1, 4), (512, 1, 1, 0, 1, 4), (1024, 1, 1, 0, 1, 4), (1024, 4, 1, 1, 1, 4),
    (256, 1, 1, 0, 1, 8), (512, 1, 1, 0, 1, 8), (1024, 1, 1, 0, 1, 8), (512, 1, 1, 0, 1, 2),
    (1024, 1, 4, 0, 1, 0),
]  # fmt: skip


def measure(device: Device, n: int) -> dict[str, Any]:
    cl, context, queue = device.cl, device.context, device.queue
    keys = np.random.default_rng(12).integers(0, BINS, n).astype(np.int32)
    expected = np.bincount(keys, minlength=BINS).astype(np.int32)
    flags = cl.mem_flags
    keys_buffer = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=keys)
    out = cl.Buffer(context, flags.READ_WRITE, 4 * n)
    copy = cl.Kernel(cl.Program(context, COPY).build(), "copy")
    copy_s = _time(device, lambda: copy(queue, (n // 4,), (256,), keys_buffer, out))
    rows: dict[str, Any] = {"device": device.name, "n": n, "copy_GBs": 8 * n / copy_s / 1e9}
    units = device.device.max_compute_units
    bins = cl.Buffer(context, flags.READ_WRITE, 4 * BINS)
    zero = np.zeros(1, np.int32)
    for group, copies, vec, pad, factor, unroll in VARIANTS:
        name = f"g{group}_copies{copies}_vec{vec}_pad{pad}_grid{factor}_unroll{unroll}"
        options = f"-DBINS={BINS} -DGROUP={group} -DCOPIES={copies} -DVEC={vec} -DPAD={pad}"
        options += f" -DUNROLL={unroll}"
        grid = units * 2048 * factor
        try:
            program = cl.Program(context, SOURCE.read_text()).build(options=options)
            kernel = cl.Kernel(program, "histogram_variant")
            seconds = _time(
                device,
                lambda k=kernel, g=grid, w=group: k(
                    queue, (g,), (w,), keys_buffer, bins, np.int32(n)
                ),
                lambda: cl.enqueue_fill_buffer(queue, bins, zero, 0, 4 * BINS),
            )
        except Exception as error:  # a variant the device refuses (local memory) is a result
            rows[name] = {"error": str(error)[-2000:]}
            print(name, rows[name], flush=True)
            continue
        counts = np.empty(BINS, dtype=np.int32)
        cl.enqueue_fill_buffer(queue, bins, zero, 0, 4 * BINS)
        kernel(queue, (grid,), (group,), keys_buffer, bins, np.int32(n))
        cl.enqueue_copy(queue, counts, bins)
        queue.finish()
        rows[name] = {
            "GBs": 4 * n / seconds / 1e9,
            "share": (4 * n / seconds) / (8 * n / copy_s),
            "equal": bool(np.array_equal(counts, expected)),
        }
        print(name, rows[name], flush=True)
    return rows


def main() -> None:
    variants_main(__doc__ or "", measure, "keys")


if __name__ == "__main__":
    main()
