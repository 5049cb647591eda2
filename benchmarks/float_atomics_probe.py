"""Atomic adds of doubles on an OpenCL device, three ways, on a COO product's scatter.

`y[row[k]] += v[k] * x[col[k]]` for every entry k, one work-item an entry (a grid-stride
loop), the adds made atomic:

- `cas`: a compare-and-swap loop that starts each attempt from the value the last swap
  found (lift/opencl/generate.py `_ATOMIC_ADD`, what generated kernels write);
- `cas_reread`: the same loop reading the cell again at each attempt (the kernels
  translated from the IR, mappers/targets/histogram.py);
- `ptx_red`: NVIDIA's `red.global.add.f64` by inline PTX (built with `-DIDIOM_PTX` on
  an NVIDIA device only; it prints whether that compiler defines `__NV_CL_C_VERSION`).

Rows sorted as a COO matrix stores them (`sorted`), and drawn at random among few rows
(`hot`, contention). Median kernel time of ten launches after one (y cleared before each,
not counted); every y compared with numpy's within 1e-9 relative.

    python benchmarks/float_atomics_probe.py --device gpu [--entries 2097152]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lift.exploration.device import open_device

SOURCE = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void has_ptx(__global int* out) {
#ifdef __NV_CL_C_VERSION
  out[0] = 1;
#else
  out[0] = 0;
#endif
}
#define ADD_CAS(cell, inc) { volatile __global ulong* at = (volatile __global ulong*)(cell); \\
  union { ulong u; double f; } old, new; ulong seen = *(__global ulong*)(cell); \\
  do { old.u = seen; new.f = old.f + (inc); seen = atom_cmpxchg(at, old.u, new.u); } \\
  while (seen != old.u); }
#define ADD_REREAD(cell, inc) { union { ulong u; double f; } old, new; \\
  do { old.f = *(cell); new.f = old.f + (inc); } \\
  while (atom_cmpxchg((volatile __global ulong*)(cell), old.u, new.u) != old.u); }
#ifdef IDIOM_PTX
#define ADD_RED(cell, inc) \\
  asm volatile("red.global.add.f64 [%0], %1;" :: "l"(cell), "d"(inc) : "memory")
#else
#define ADD_RED(cell, inc) ADD_CAS(cell, inc)
#endif
#define SCATTER(NAME, ADD) \\
__kernel void NAME(__global const int* restrict row, __global const int* restrict col, \\
                   __global const double* restrict v, __global const double* restrict x, \\
                   __global double* y, int n) { \\
  for (int k = get_global_id(0); k < n; k += get_global_size(0)) { \\
    ADD(&y[row[k]], v[k] * x[col[k]]); } }
SCATTER(cas, ADD_CAS)
SCATTER(cas_reread, ADD_REREAD)
SCATTER(ptx_red, ADD_RED)
"""
KERNELS = ("cas", "cas_reread", "ptx_red")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--entries", type=int, default=2**21)
    args = parser.parse_args()
    device = open_device(args.device)
    cl, context, queue = device.cl, device.context, device.queue
    program = cl.Program(context, SOURCE).build()
    nvidia = "NVIDIA" in device.device.platform.name
    ptx = cl.Program(context, SOURCE).build(options="-DIDIOM_PTX") if nvidia else program
    flag = np.zeros(1, np.int32)
    flag_buffer = cl.Buffer(context, cl.mem_flags.WRITE_ONLY, 4)
    cl.Kernel(program, "has_ptx")(queue, (1,), None, flag_buffer)
    cl.enqueue_copy(queue, flag, flag_buffer)
    print(f"device {device.name}; __NV_CL_C_VERSION defined: {bool(flag[0])}", flush=True)
    rng = np.random.default_rng(5)
    n = args.entries
    rows = {"sorted": np.sort(rng.integers(0, n // 8, n)), "hot": rng.integers(0, 256, n)}
    for name, row in rows.items():
        cols = rng.integers(0, n // 8, n)
        v, x = rng.random(n), rng.random(n // 8)
        expected = np.zeros(n // 8)
        np.add.at(expected, row, v * x[cols])
        buffers = [
            cl.Buffer(context, cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
            for a in (row.astype(np.int32), cols.astype(np.int32), v, x)
        ]
        y = cl.Buffer(context, cl.mem_flags.READ_WRITE, 8 * (n // 8))
        for kernel_name in KERNELS:
            kernel = cl.Kernel(ptx if kernel_name == "ptx_red" else program, kernel_name)
            times = []
            for _ in range(11):
                cl.enqueue_fill_buffer(queue, y, np.float64(0.0), 0, 8 * (n // 8))
                event = kernel(queue, (min(n, 2**20),), (256,), *buffers, y, np.int32(n))
                event.wait()
                times.append((event.profile.end - event.profile.start) * 1e-9)
            out = np.empty(n // 8)
            cl.enqueue_copy(queue, out, y)
            close = np.allclose(out, expected, rtol=1e-9, atol=0.0)
            median = statistics.median(times[1:])
            print(f"{name:7s} {kernel_name:11s} {median * 1e6:9.1f} us  equal: {close}", flush=True)


if __name__ == "__main__":
    main()
