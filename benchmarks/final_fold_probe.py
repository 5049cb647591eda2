"""A reduction's final fold, several ways: the work-groups' partial lanes folded into one
tuple in one work-group (what `idiom_reduce_final` does after `idiom_reduce`).

- `translated`: the form of the translated kernel (mappers/targets/reduction.py
  `_source`): 128 items, each folding the partials `g = lid, lid + 128, ...` of the groups
  that had values, then an in-place tree over one local array a lane;
- `generated_W`: the Lift compiler's kernel for the fold (`lift.ir.build.tree_reduce`) in
  a work-group of W items, each folding `per = ceil(m / W)` partials (a loop counted by
  the size variable), then log2(W) steps;
- `generated_W_fixed`: the same with `per` the constant `most / W`, `most` the most
  partials there can be (the first kernel's GROUPS): a loop of known length, which the
  device's compiler unrolls, every load in flight at once.

Lanes are doubles summed; each form is launched `--runs` times after one, the forms in a
new random order each round; min, tenth percentile and median kernel times; every total
compared with numpy's (to 1e-12 relative: the forms fold in different orders).

    python benchmarks/final_fold_probe.py --device gpu [--lanes 1,2,4] [--partials 1954,2048,300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lift.exploration.device import Device, open_device
from lift.ir import expr as ir
from lift.ir.build import fold_lanes, tree_reduce
from lift.ir.types import Array, Scalar, Size
from lift.opencl.generate import generate

MOST = 2048  # the first kernel's most work-groups (mappers/targets/reduction.py GROUPS)
TRANSLATED_LOCAL = 128
PRELUDE = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n"


def total_program(lanes: int, local: int, per: Size | None) -> ir.Lambda:
    """The fold of `lanes` arrays of `m` doubles into one tuple, in one group of `local`."""
    kind = Scalar("f64")
    inputs = tuple(ir.Param(f"q{k}", Array(kind, Size.of("m"))) for k in range(lanes))
    zipped: ir.Expr = inputs[0] if lanes == 1 else ir.Apply(ir.Zip(), inputs)
    element = ir.Param("e")
    parts = (
        (element,) if lanes == 1 else tuple(ir.Apply(ir.Get(k), (element,)) for k in range(lanes))
    )
    tuples = ir.Apply(ir.Map(ir.Lambda((element,), ir.Apply(ir.Op("tuple"), parts))), (zipped,))
    identity = ir.Apply(ir.Op("tuple"), tuple(ir.Literal(-0.0, kind) for _ in range(lanes)))
    fold = fold_lanes(["+"] * lanes)
    return ir.Lambda(inputs, tree_reduce(tuples, fold, identity, local, Size.of("m"), per=per))


def translated_source(lanes: int) -> str:
    """The translated final fold's form for `lanes` double sums."""
    r = range(lanes)
    params = ["long groups"] + [f"__global const double* p{j}" for j in r]
    params += ["__global const int* ph"] + [f"__global double* o{j}" for j in r]
    params += [f"__local double* l{j}" for j in r] + ["__local int* lh"]
    fold = "\n".join(f"      r{j} = has ? r{j} + p{j}[g] : p{j}[g];" for j in r)
    tree = "\n".join(
        f"      l{j}[lid] = lh[lid] ? l{j}[lid] + l{j}[lid + s] : l{j}[lid + s];" for j in r
    )
    return f"""
__kernel void translated({", ".join(params)}) {{
  const int lid = get_local_id(0);
  {" ".join(f"double r{j} = 0;" for j in r)}
  int has = 0;
  for (long g = lid; g < groups; g += get_local_size(0)) {{
    if (ph[g]) {{
{fold}
      has = 1;
    }}
  }}
  {" ".join(f"l{j}[lid] = r{j};" for j in r)} lh[lid] = has;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {{
    if (lid < s && lh[lid + s]) {{
{tree}
      lh[lid] = 1;
    }}
    barrier(CLK_LOCAL_MEM_FENCE);
  }}
  if (lid == 0) {{
    {" ".join(f"o{j}[0] = l{j}[0];" for j in r)}
  }}
}}
"""


def generated_forms(lanes: int, widths: list[int]) -> dict[str, tuple[str, int, tuple[str, ...]]]:
    """Each generated form's source, its work-group and its size variables in order."""
    forms = {}
    for local in widths:
        for fixed in (False, True):
            name = f"generated_{local}{'_fixed' if fixed else ''}"
            per = Size.of(MOST // local) if fixed else None
            kernel = generate(total_program(lanes, local, per), name, index="int",
                              work_group=local, packed_sizes=True)  # fmt: skip
            forms[name] = (kernel.source, local, tuple(kernel.sizes))
    return forms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--lanes", default="1,2,4")
    parser.add_argument("--partials", default="1954,2048,300")
    parser.add_argument("--widths", default="128,256,512,1024")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    device = open_device(args.device)
    print(f"device: {device.name}")
    widths = [int(w) for w in args.widths.split(",")]
    for lanes in (int(k) for k in args.lanes.split(",")):
        for m in (int(k) for k in args.partials.split(",")):
            probe(device, lanes, m, widths=widths, runs=args.runs)


def probe(device: Device, lanes: int, m: int, *, widths: list[int], runs: int) -> None:
    cl = device.cl
    rng = np.random.default_rng(lanes * 10_000 + m)
    partials = [rng.standard_normal(MOST) for _ in range(lanes)]
    expected = [float(np.sum(p[:m])) for p in partials]
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    buffers = [cl.Buffer(device.context, flags, hostbuf=p) for p in partials]
    has = cl.Buffer(device.context, flags, hostbuf=np.ones(MOST, np.int32))
    outs = [cl.Buffer(device.context, cl.mem_flags.READ_WRITE, 8) for _ in range(lanes)]
    launches = {}
    source = PRELUDE + translated_source(lanes)
    kernel = cl.Program(device.context, source).build(options=device.options).translated
    kernel.set_args(np.int64(m), *buffers, has, *outs,
                    *[cl.LocalMemory(8 * TRANSLATED_LOCAL) for _ in range(lanes)],
                    cl.LocalMemory(4 * TRANSLATED_LOCAL))  # fmt: skip
    launches["translated"] = (kernel, TRANSLATED_LOCAL)
    for name, (text, local, names) in generated_forms(lanes, widths).items():
        try:
            program = cl.Program(device.context, text).build(options=device.options)
        except cl.Error as error:  # e.g. more local memory than the device has
            print(f"lanes {lanes} m {m} {name}: not built ({str(error).splitlines()[0]})")
            continue
        kernel = getattr(program, name)
        sizes = {"m": m, "per": -(-m // local), "wg": 1}
        kernel.set_args(*buffers, *outs, np.array([sizes[n] for n in names], np.int32))
        launches[name] = (kernel, local)
    times: dict[str, list[float]] = {name: [] for name in launches}
    order = list(launches)
    for round_ in range(runs + 1):
        random.shuffle(order)
        for name in order:
            kernel, local = launches[name]
            event = cl.enqueue_nd_range_kernel(device.queue, kernel, (local,), (local,))
            event.wait()
            if round_:
                times[name].append((event.profile.end - event.profile.start) * 1e-3)
            if round_ == 1:
                check(device, outs, expected, f"lanes {lanes} m {m} {name}")
    for name in sorted(times, key=lambda n: statistics.median(times[n])):
        t = sorted(times[name])
        print(f"lanes {lanes} m {m:5d} {name:22s} min {t[0]:7.2f} p10 {t[len(t) // 10]:7.2f} "
              f"median {statistics.median(t):7.2f} us")  # fmt: skip


def check(device: Device, outs: list[Any], expected: list[float], label: str) -> None:
    cl = device.cl
    for lane, (buffer, want) in enumerate(zip(outs, expected, strict=True)):
        got = np.zeros(1)
        cl.enqueue_copy(device.queue, got, buffer)
        device.queue.finish()
        if abs(got[0] - want) > 1e-12 * max(1.0, abs(want)):
            raise SystemExit(f"{label}: lane {lane} gave {got[0]!r}, expected {want!r}")


if __name__ == "__main__":
    main()
