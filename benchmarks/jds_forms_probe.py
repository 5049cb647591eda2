"""A JDS product's kernel, four ways, on corpus jds_matrix.cpp's matrix shape.

`y[perm[r]] = sum over d < len[r] of V[J[d] + r] * X[C[J[d] + r]]`, one sorted row a
work-item, doubles, `long` diagonal offsets (the matrix of corpus/jds_matrix.cpp: a
diagonal of 6 and 0..7 couplings of -0.5 a row, rows sorted by length):

- `translated`: the form the kernels translated from the IR take (mappers/targets/jds.py
  `row_product`): the row's index bound by an early return, the diagonal loop counted in
  `long`, the strides read from a parameter buffer;
- `grid_int`: the form the Lift compiler generates with `int` sizes (a grid-stride loop
  over rows, the diagonal loop counted in `int` and added to a `long` start);
- `grid_long`: the same with `long` sizes;
- `return_int`: `grid_int`'s body bound by an early return instead of the loop;
- `grid_int_early` and `translated_late`: the row's place in y (perm[r]) read before
  the diagonals' loop, and after it;
- `grid_int_bound`: `grid_int_early` counting to the row's length as read (no segment
  bounds); `return_long_bound`: `translated` without its parameter buffer;
- `grid_long_bound`, `return_long_bound_late`, `return_long_segment`, `return_int_bound`:
  `return_long_bound` with one thing changed (the grid-stride loop; y's place read late;
  the segment's bounds; the diagonals counted in `int`);
- `grid_int_unroll1`, `grid_int_early_unroll1`: `grid_int` and `grid_int_early` with the
  diagonals' loop kept rolled (`#pragma unroll 1`);
- `return_introw_long_bound`: `return_long_bound` with the row's index an `int`;
- `return_introw_long_zero`, `return_introw_int_zero`, `grid_introw_long_zero`: the
  segment's bounds from 0 to the row's length (jd_ptr from its first entry: `jlo` 0), its
  length computed from them, y's place first; counted in `long` or `int`, bound by an
  early return or a grid-stride loop;
- `dual_long_bound`, `dual_introw_long_bound`, `dual_long_segment`: a row without a loop
  where the NDRange covers every row and a grid-stride loop otherwise (a test every item
  takes the same way: a kernel correct in any NDRange), with `return_long_bound`'s,
  `return_introw_long_bound`'s and `return_long_segment`'s bodies.

Every form launched in the driver's work-groups, 200 times after one, in a new random
order each round; min,
tenth percentile and median kernel times; every y compared with numpy's to the bit.

    python benchmarks/jds_forms_probe.py --device gpu [--rows 300000] [--binary FILE]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lift.exploration.device import open_device

PARAMS = """long n0, __global const int* restrict L, __global const int* restrict perm,
  __global const long* restrict P, __global const long* restrict J,
  __global const double* restrict V, __global const int* restrict C,
  __global const double* restrict X, __global double* restrict Y,
  long jlo, long vlo, long xlo, long ylo, int in0"""
ROW = """
    const long lo = (long)((ulong)0L - (ulong)jlo);
    const long hi = (long)((ulong)(long)L[ROW] - (ulong)jlo);
    const COUNT diagonals = hi > lo ? (COUNT)(hi - lo) : 0;
    EARLY
    double acc = 0.0;
    for (COUNT d = 0; d < diagonals; d++) {
      const long j = (long)((ulong)J[lo + d] + (ulong)((long)(uint)(int)ROW));
      acc = acc + V[(long)((ulong)j - (ulong)vlo)]
                * X[(long)((ulong)(long)C[j - vlo] - (ulong)xlo)];
    }
    Y[AT] = acc;"""
AT = "(long)((ulong)(long)perm[ROW] - (ulong)ylo)"


def row(at: str, count: str, *, early: bool = False) -> str:
    """The row's code over row index `at`, counting diagonals in `count`; with `early`,
    its place in y read before the diagonals' loop."""
    place = AT.replace("ROW", at)
    text = ROW.replace("EARLY", f"const long at = {place};" if early else "")
    return text.replace("AT", "at" if early else place).replace("ROW", at).replace("COUNT", count)


BOUND_ROW = """
    const int v1 = L[ROW];
    EARLY
    double acc = 0.0;
    for (COUNT d = 0; d < (COUNT)v1; d++) {
      const long j = (long)((ulong)J[d - jlo] + (ulong)((long)(uint)(int)ROW));
      acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
    }
    Y[AT] = acc;"""


def bound_row(at: str, count: str, *, early: bool) -> str:
    """`row` counting to the row's length as read, without the segment's bounds."""
    place = AT.replace("ROW", at)
    text = BOUND_ROW.replace("EARLY", f"const long at = {place};" if early else "")
    text = text.replace("AT", "at" if early else place)
    return text.replace("ROW", at).replace("COUNT", count)


ZERO_ROW = """
    const long at = (long)((ulong)(long)perm[ROW] - (ulong)ylo);
    const long lo = (long)0;
    const long hi = (long)L[ROW];
    const long diagonals = hi > lo ? (long)(hi - lo) : 0;
    double acc = 0.0;
    for (COUNT d = 0; d < (COUNT)diagonals; d++) {
      const long j = (long)((ulong)J[lo + d] + (ulong)((long)(uint)(int)ROW));
      acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
    }
    Y[at] = acc;"""


def zero_row(at: str, count: str) -> str:
    """A row as the generator writes it with its diagonals' bounds read from 0 (jd_ptr
    passed from its first entry): the segment's length from the bounds, y's place first."""
    return ZERO_ROW.replace("ROW", at).replace("COUNT", count)


def grid(name: str, body: str) -> str:
    return f"""__kernel void {name}({PARAMS}) {{
  for (long r = get_global_id(0); r < n0; r += get_global_size(0)) {{{body}
  }}
}}
"""


def int_grid(name: str, body: str) -> str:
    return f"""__kernel void {name}({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{{body}
  }}
}}
"""


def rolled(body: str) -> str:
    """`body` with its diagonals' loop kept rolled."""
    return body.replace("    for (", "    #pragma unroll 1\n    for (")


def by_return(name: str, body: str) -> str:
    return f"""__kernel void {name}({PARAMS}) {{
  const long r = get_global_id(0);
  if (r >= n0) return;{body}
}}
"""


def dual(name: str, body: str) -> str:
    """`body` once, without a loop, where the NDRange covers every row (a test every item
    takes the same way), and in a grid-stride loop otherwise."""
    return f"""__kernel void {name}({PARAMS}) {{
  if (get_global_size(0) >= n0) {{
    const long r = get_global_id(0);
    if (r >= n0) return;{body}
  }} else {{
    for (long r = get_global_id(0); r < n0; r += get_global_size(0)) {{{body}
    }}
  }}
}}
"""


def translated(name: str, *, early: bool) -> str:
    """The translated kernel's form; with `early`, y's place read before the loop (as the
    tool's translated kernel reads it)."""
    place = "(long)perm[i1_o + t0 * i1_s0]"
    first = f"  const long v3 = {place};\n" if early else ""
    return f"""__kernel void {name}({PARAMS}) {{
  const long i0_o = P[0], i0_s0 = P[1], i1_o = P[2], i1_s0 = P[3];
  const long t0 = get_global_id(0);
  if (t0 >= n0) return;
  const int it0 = (int)t0;
  const int v1 = L[i0_o + t0 * i0_s0];
{first}  double acc = 0.0;
  for (long qq = 0; qq < (long)v1; qq++) {{
    const long v8 = (long)((ulong)J[qq - jlo] + (ulong)((long)(uint)it0));
    const long v11 = (long)C[v8 - vlo];
    acc = acc + V[v8 - vlo] * X[v11 - xlo];
  }}
  Y[{"v3" if early else place} - ylo] = acc;
}}
"""


SOURCE = f"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
{translated("translated", early=True)}{translated("translated_late", early=False)}\
__kernel void grid_int({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{
{row("r", "int")}
  }}
}}
__kernel void grid_int_early({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{
{row("r", "int", early=True)}
  }}
}}
__kernel void grid_long({PARAMS}) {{
  for (long r = get_global_id(0); r < n0; r += get_global_size(0)) {{
{row("r", "long")}
  }}
}}
__kernel void return_int({PARAMS}) {{
  const int r = get_global_id(0);
  if (r >= in0) return;
{row("r", "int")}
}}
__kernel void grid_int_bound({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{
    const int v1 = L[r];
    const long at = (long)((ulong)(long)perm[r] - (ulong)ylo);
    double acc = 0.0;
    for (int d = 0; d < v1; d++) {{
      const long j = (long)((ulong)J[d - jlo] + (ulong)((long)(uint)r));
      acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
    }}
    Y[at] = acc;
  }}
}}
__kernel void return_long_bound({PARAMS}) {{
  const long t0 = get_global_id(0);
  if (t0 >= n0) return;
  const int v1 = L[t0];
  const long at = (long)perm[t0] - ylo;
  double acc = 0.0;
  for (long d = 0; d < (long)v1; d++) {{
    const long j = (long)((ulong)J[d - jlo] + (ulong)((long)(uint)(int)t0));
    acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
  }}
  Y[at] = acc;
}}
"""
SOURCE += int_grid("grid_int_unroll1", rolled(row("r", "int")))
SOURCE += by_return("return_introw_long_bound", bound_row("(int)r", "long", early=True))
SOURCE += by_return("return_introw_long_zero", zero_row("(int)r", "long"))
SOURCE += by_return("return_introw_int_zero", zero_row("(int)r", "int"))
SOURCE += grid("grid_introw_long_zero", zero_row("(int)r", "long"))
SOURCE += dual("dual_long_bound", bound_row("r", "long", early=True))
SOURCE += dual("dual_introw_long_bound", bound_row("(int)r", "long", early=True))
SOURCE += dual("dual_long_segment", row("r", "long", early=True))
SOURCE += int_grid("grid_int_early_unroll1", rolled(row("r", "int", early=True)))
SOURCE += grid("grid_long_bound", bound_row("r", "long", early=True))
SOURCE += by_return("return_long_bound_late", bound_row("r", "long", early=False))
SOURCE += by_return("return_long_segment", row("r", "long", early=True))
SOURCE += by_return("return_int_bound", bound_row("r", "int", early=True))
KERNELS = (
    "translated",
    "translated_late",
    "grid_int",
    "grid_int_early",
    "grid_long",
    "return_int",
    "grid_int_bound",
    "return_long_bound",
    "grid_long_bound",
    "return_long_bound_late",
    "return_long_segment",
    "return_int_bound",
    "grid_int_unroll1",
    "grid_int_early_unroll1",
    "return_introw_long_bound",
    "return_introw_long_zero",
    "return_introw_int_zero",
    "grid_introw_long_zero",
    "dual_long_bound",
    "dual_introw_long_bound",
    "dual_long_segment",
)


def jagged(rows: int, seed: int = 3) -> tuple[np.ndarray, ...]:
    """jds_matrix.cpp's matrix: row i has 6.0 at i and 0..7 couplings of -0.5 at random
    columns; rows sorted by length, longest first (stable); diagonal d holds the d-th
    entry of every row longer than d."""
    rng = np.random.default_rng(seed)
    lengths = 1 + rng.integers(0, 8, rows)
    columns = [np.concatenate(([i], rng.integers(0, rows, k - 1))) for i, k in enumerate(lengths)]
    perm = np.argsort(-lengths, kind="stable").astype(np.int32)
    sorted_lengths = lengths[perm].astype(np.int32)
    jd_ptr, cols, vals = [0], [], []
    for d in range(int(sorted_lengths[0])):
        live = int(np.count_nonzero(sorted_lengths > d))
        jd_ptr.append(jd_ptr[-1] + live)
        cols.append(np.array([columns[perm[r]][d] for r in range(live)], np.int32))
        vals.append(np.full(live, 6.0 if d == 0 else -0.5))
    return (sorted_lengths, perm, np.array(jd_ptr, np.int64), np.concatenate(vals),
            np.concatenate(cols))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--binary", type=Path, help="write the built program here (PTX on NVIDIA)")
    args = parser.parse_args()
    device = open_device(args.device)
    cl, context, queue = device.cl, device.context, device.queue
    program = cl.Program(context, SOURCE).build()
    if args.binary is not None:
        args.binary.write_bytes(program.binaries[0])
    n = args.rows
    lengths, perm, jd_ptr, values, columns = jagged(n)
    x = np.cos(0.05 * np.arange(n))
    expected = np.zeros(n)
    for d in range(len(jd_ptr) - 1):
        live = slice(int(jd_ptr[d]), int(jd_ptr[d + 1]))
        expected[: live.stop - live.start] += values[live] * x[columns[live]]
    expected_y = np.empty(n)
    expected_y[perm] = expected
    strides = np.array([0, 1, 0, 1], np.int64)
    inputs = [lengths, perm, strides, jd_ptr, values, columns, x]
    buffers = [cl.Buffer(context, cl.mem_flags.COPY_HOST_PTR, hostbuf=a) for a in inputs]
    y = cl.Buffer(context, cl.mem_flags.READ_WRITE, 8 * n)
    zeros = [np.int64(0)] * 4
    print(f"device {device.name}; {n} rows, {len(values)} entries", flush=True)
    kernels = {name: cl.Kernel(program, name) for name in KERNELS}
    times: dict[str, list[float]] = {name: [] for name in KERNELS}
    order = np.random.default_rng(1)
    for run in range(args.runs + 1):
        for name in order.permutation(list(KERNELS)):  # no form always after another
            kernel = kernels[name]
            event = kernel(queue, (n,), None, np.int64(n), *buffers, y, *zeros, np.int32(n))
            event.wait()
            if run:
                times[name].append((event.profile.end - event.profile.start) * 1e-9)
        if run == args.runs:
            for name in KERNELS:  # each form's y from a y of NaNs
                cl.enqueue_fill_buffer(queue, y, np.float64(np.nan), 0, 8 * n)
                kernels[name](queue, (n,), None, np.int64(n), *buffers, y, *zeros, np.int32(n))
                out = np.empty(n)
                cl.enqueue_copy(queue, out, y)
                equal = bool(np.array_equal(out, expected_y))
                t = sorted(times[name])
                low, p10, median = t[0] * 1e6, t[len(t) // 10] * 1e6, statistics.median(t) * 1e6
                print(f"{name:17s} min {low:7.2f} us  p10 {p10:7.2f}  median {median:7.2f}"
                      f"  equal: {equal}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
