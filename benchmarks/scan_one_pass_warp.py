"""Hand-written one-pass scans that use NVIDIA's warp instructions through inline PTX
(lift_reference/scan_one_pass_warp.cl) on an OpenCL device: each variant's median kernel
time over ten launches after one (status words zeroed before each, not counted), as GB/s
of the ideal traffic (every value read once, every prefix written once) and as a share of
an int4 copy kernel's bandwidth in the same run, its output compared with numpy's (a
variant without look-back is timed only: its output is wrong by design). The plain
hand-written one-pass scan (lift_reference/scan_one_pass.cl) is timed beside them.

    python benchmarks/scan_one_pass_warp.py --device gpu --n 33554432 --out FILE
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.scan_one_pass_variants import COPY, _time, variants_main
from lift.exploration.device import Device

REFERENCE = Path(__file__).parent / "lift_reference"
# (work-group, values an item, staged through local memory, static numbers, look-back,
# warp instructions (0 none, 1 all, 2 the group's scan, 3 the look-back), ns a waiting
# warp sleeps)
VARIANTS = [
    (128, 20, 1, 0, 1, 3, 0), (128, 24, 1, 0, 1, 3, 0), (128, 28, 1, 0, 1, 3, 0),
    (128, 32, 1, 0, 1, 3, 0), (128, 40, 1, 0, 1, 3, 0), (128, 48, 1, 0, 1, 3, 0),
    (256, 24, 1, 0, 1, 3, 0), (256, 32, 1, 0, 1, 3, 0), (64, 32, 1, 0, 1, 3, 0),
    (64, 48, 1, 0, 1, 3, 0), (128, 20, 1, 0, 1, 1, 0), (128, 32, 1, 0, 1, 1, 0),
    (128, 32, 1, 0, 0, 3, 0), (128, 48, 1, 0, 0, 3, 0),
]  # fmt: skip


def _scan(
    device: Device,
    buffers: tuple[Any, Any],
    n: int,
    build: tuple[str, str, str],
    shape: tuple[int, int],
) -> float:
    """The median kernel time of a scan built as `build` (source, options, kernel name) in
    work-groups of `shape[0]`, `shape[1]` values an item."""
    cl, context, queue = device.cl, device.context, device.queue
    source, options, name = build
    x_buffer, out = buffers
    group, per = shape
    kernel = cl.Kernel(cl.Program(context, source).build(options=options), name)
    blocks = -(-n // (group * per))
    size = 8 * (blocks + 1)
    status = cl.Buffer(context, cl.mem_flags.READ_WRITE, size)
    zero = np.zeros(1, np.uint8)
    return _time(
        device,
        lambda: kernel(
            queue, (blocks * group,), (group,), x_buffer, out, status, np.int32(n), np.int32(blocks)
        ),
        lambda: cl.enqueue_fill_buffer(queue, status, zero, 0, size),
    )


def measure(device: Device, n: int) -> dict[str, Any]:
    cl, context, queue = device.cl, device.context, device.queue
    x = np.random.default_rng(1).integers(-1000, 1000, n).astype(np.int32)
    expected = np.cumsum(x, dtype=np.int32)
    flags = cl.mem_flags
    x_buffer = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=x)
    out = cl.Buffer(context, flags.READ_WRITE, 4 * n)
    copy = cl.Kernel(cl.Program(context, COPY).build(), "copy")
    copy_s = _time(device, lambda: copy(queue, (n // 4,), (256,), x_buffer, out))
    rows: dict[str, Any] = {"device": device.name, "n": n, "copy_GBs": 8 * n / copy_s / 1e9}
    plain = ((REFERENCE / "scan_one_pass.cl").read_text(), "", "scan_one_pass")
    cases = [("plain_g256_per4", plain, 256, 4, True)]
    source = (REFERENCE / "scan_one_pass_warp.cl").read_text()
    for group, per, stage, static, lookback, warp, backoff in VARIANTS:
        kind = ("local", "warp", "warp_scan", "warp_lookback")[warp]
        name = f"{kind}_g{group}_per{per}{'_staged' if stage else ''}"
        name += ("_static" if static else "") + ("" if lookback else "_no_lookback")
        name += f"_sleep{backoff}" if backoff else ""
        options = f"-DGROUP={group} -DPER={per} -DSTAGE={stage} -DSTATIC={static}"
        options += f" -DLOOKBACK={lookback} -DBACKOFF={backoff}"
        options += f" -DWARP_SCAN={int(warp in (1, 2))} -DWARP_LOOKBACK={int(warp in (1, 3))}"
        cases.append((name, (source, options, "scan_warp"), group, per, bool(lookback)))
    for name, build, group, per, checked in cases:
        try:
            seconds = _scan(device, (x_buffer, out), n, build, (group, per))
        except Exception as error:  # a build the driver refuses is a result too
            rows[name] = {"error": str(error)[-2000:]}
            print(name, rows[name], flush=True)
            continue
        y = np.empty(n, dtype=np.int32)
        cl.enqueue_copy(queue, y, out)
        queue.finish()
        row: dict[str, Any] = {"GBs": 8 * n / seconds / 1e9, "share": copy_s / seconds}
        row["equal"] = bool(np.array_equal(y, expected)) if checked else None
        rows[name] = row
        print(name, row, flush=True)
    return rows


def main() -> None:
    variants_main(__doc__ or "", measure, "values")


if __name__ == "__main__":
    main()
