"""Generated kernels against hand-written ones and the device's copy bandwidth.

Runs where pyopencl and an OpenCL device are (the GPU machine: ../shared/DEVICE.md; or
PoCL here). For each case, data resident on the device, kernel time from OpenCL event
profiling (median of several launches after a warm-up):

- `reference`: the hand-written kernel in benchmarks/lift_reference/;
- `default`: the kernel the Lift compiler generates without searching (what `idiom
  accelerate` embeds);
- `best`: the best candidate of the search (lift/exploration), with the search's time
  and how many candidates it tried.

A scan (`scan`) is measured apart: the two kernels generated for it, the host's scan of
the chunks' totals between them not counted, against a hand-written two-kernel scan in
local memory (lift_reference/scan_blocks.cl); and the one-pass kernel generated for it
(decoupled look-back) against a hand-written one (lift_reference/scan_one_pass.cl). A
CSR sparse matrix-vector product (`spmv`) too: the kernel generated from the tool's
program for it, with long and with int indices, against a hand-written one
(lift_reference/spmv_csr.cl), outputs compared bit for bit.
The same matrix in jagged diagonal storage (`jds`): the kernel generated from the tool's
program for it (a row's diagonals a segment, its entries gathered, its value written at
perm[r] of y by `permute`) against lift_reference/spmv_jds.cl; and in ELLPACK stored by
columns (`ell`): the kernel generated from a `range` of each row's w entries at j*rows + i,
padding folded, against lift_reference/spmv_ell.cl; each with long and int indices.

Each is reported in GB/s of its ideal traffic (every input element read once, every
output element written once) and as a share of the copy kernel's bandwidth. Outputs are
compared with the reference's.

    python3 benchmarks/lift_kernels.py --out DIR [--device gpu|cpu] [--scale 1.0] [--budget 60]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lift.exploration.device import Device, Launch, open_device  # noqa: E402
from lift.exploration.search import search  # noqa: E402
from lift.exploration.space import default_candidate, launch_shape, lower, lower_lanes  # noqa: E402
from lift.ir import expr as ir  # noqa: E402
from lift.ir.build import ScanPrograms, blocked_scan, fold_lanes, map_nd, tree_reduce, zip_nd  # noqa: E402
from lift.ir.text import parse, show  # noqa: E402
from lift.ir.types import Array, Scalar, Size  # noqa: E402
from lift.opencl.generate import Kernel, Output, generate  # noqa: E402
from mappers.targets.functional import (  # noqa: E402
    CHAINED_NARROW,
    LOCAL_BINS,
    SCAN_BLOCK,
    SCAN_RUN,
    SCAN_STAGING,
)
from mappers.targets.kernels import INT_LIMIT  # noqa: E402
from mappers.targets.sparse import LANES_GROUP  # noqa: E402  (the tool's lanes work-group)

REFERENCES = Path(__file__).resolve().parent / "lift_reference"
F64 = Scalar("f64")


@dataclass
class Case:
    name: str
    program: ir.Lambda
    output: Output | None
    inputs: dict[str, Any]
    sizes: dict[str, int]
    output_elements: int
    traffic_bytes: int
    reference: str  # file in lift_reference/, its kernel of the same name
    reference_args: Callable[[dict[str, Any]], list[Any]]  # buffers by name, then values
    reference_global: tuple[int, ...]
    reference_output: str  # the buffer the reference writes
    # A program already lowered (a reduction's tree): timed as it is, on this NDRange,
    # its output's sum compared with the reference's (the groupings differ).
    fixed_launch: tuple[tuple[int, ...], tuple[int, ...]] | None = None


def _add(*terms: ir.Expr) -> ir.Expr:
    total = terms[0]
    for term in terms[1:]:
        total = ir.Apply(ir.Op("+"), (total, term))
    return total


def _mul(a: ir.Expr, b: ir.Expr) -> ir.Expr:
    return ir.Apply(ir.Op("*"), (a, b))


def _lit(value: float) -> ir.Literal:
    return ir.Literal(value, F64)


def _stencil(
    offsets: Sequence[tuple[int, ...]], body: Callable[[list[ir.Expr]], ir.Expr], n: int
) -> tuple[ir.Lambda, Output, dict[str, int]]:
    """A stencil as the mapper gives it: one strided view per read, offsets and strides
    as size variables bound at run time."""
    depth = len(offsets[0])
    a = ir.Param("a", Array(F64, Size.of("L")))
    b = ir.Param("b", Array(F64, Size.of("L")))
    strides = tuple(Size.of(f"s{d}") for d in range(depth))
    lengths = tuple(Size.of(f"n{d}") for d in range(depth))
    views = [
        ir.Apply(ir.Strided(Size.of(f"o{k}"), strides, lengths), (a,)) for k in range(len(offsets))
    ]
    point = ir.Param("p")
    reads: list[ir.Expr] = [ir.Apply(ir.Get(k), (point,)) for k in range(len(offsets))]
    program = ir.Lambda(
        (a, b), map_nd(ir.Lambda((point,), body(reads)), zip_nd(views, depth), depth)
    )
    row = [n ** (depth - 1 - d) for d in range(depth)]
    centre = sum(row)  # the first interior point (1, 1, ...)
    sizes = {"L": n**depth, "ow": centre}
    sizes |= {f"s{d}": row[d] for d in range(depth)} | {f"n{d}": n - 2 for d in range(depth)}
    for k, offset in enumerate(offsets):
        sizes[f"o{k}"] = centre + sum(o * r for o, r in zip(offset, row, strict=True))
    output = Output("b", True, Size.of("ow"), strides)
    return program, output, sizes


def cases(scale: float) -> list[Case]:
    rng = np.random.default_rng(7)
    n1 = int(2**25 * scale)
    x, y = rng.random(n1), rng.random(n1)
    xp = ir.Param("x", Array(F64, Size.of("N")))
    yp = ir.Param("y", Array(F64, Size.of("N")))
    ap, bp, pair = ir.Param("alpha", F64), ir.Param("beta", F64), ir.Param("q")
    axpby_body = _add(
        _mul(ap, ir.Apply(ir.Get(0), (pair,))), _mul(bp, ir.Apply(ir.Get(1), (pair,)))
    )
    axpby = ir.Lambda(
        (xp, yp, ap, bp), map_nd(ir.Lambda((pair,), axpby_body), zip_nd([xp, yp], 1), 1)
    )
    copy_program = ir.Lambda((xp,), map_nd(ir.Lambda((pair,), pair), xp, 1))
    result = [
        Case("copy", copy_program, None, {"x": x}, {"N": n1}, n1, 16 * n1, "copy",
             lambda bufs: [bufs["x"], bufs["out"], np.int32(n1)], (n1,), "out"),
        Case("axpby", axpby, None, {"x": x, "y": y, "alpha": 0.5, "beta": 2.0}, {"N": n1}, n1,
             24 * n1, "axpby",
             lambda bufs: [bufs["x"], bufs["y"], bufs["out"], np.float64(0.5), np.float64(2.0),
                           np.int32(n1)],
             (n1,), "out"),
    ]  # fmt: skip
    groups, local = 2048, 128
    per = -(-n1 // (groups * local))
    xq, yq, pair2 = ir.Param("x", xp.type), ir.Param("y", yp.type), ir.Param("r")
    products = ir.Apply(
        ir.Map(
            ir.Lambda(
                (pair2,),
                ir.Apply(
                    ir.Op("tuple"),
                    (_mul(ir.Apply(ir.Get(0), (pair2,)), ir.Apply(ir.Get(1), (pair2,))),),
                ),
            )
        ),
        (ir.Apply(ir.Zip(), (xq, yq)),),
    )
    identity = ir.Apply(ir.Op("tuple"), (_lit(-0.0),))
    dot = ir.Lambda(
        (xq, yq), tree_reduce(products, fold_lanes(["+"]), identity, local, Size.of("N"))
    )
    result.append(
        Case("dot", dot, None, {"x": x, "y": y}, {"N": n1, "wg": groups, "per": per}, groups,
             16 * n1, "dot_partials",
             lambda bufs: [bufs["x"], bufs["y"], bufs["out"], np.int32(n1)], (groups * local,),
             "out", fixed_launch=((groups * local,), (local,)))
    )  # fmt: skip
    n2 = int(4096 * scale**0.5)
    grid2 = rng.random(n2 * n2)
    five = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
    program, output, sizes = _stencil(five, lambda r: _mul(_lit(0.2), _add(*r)), n2)
    traffic2 = 8 * (n2**2 + (n2 - 2) ** 2)  # the grid read once, the interior written once
    result.append(
        Case("jacobi2d", program, output, {"a": grid2, "b": np.zeros(n2 * n2)}, sizes, n2 * n2,
             traffic2, "jacobi2d", lambda bufs: [bufs["a"], bufs["b"], np.int32(n2)],
             (n2 - 2, n2 - 2), "b")
    )  # fmt: skip
    n3 = int(256 * scale ** (1 / 3))
    grid3 = rng.random(n3**3)
    traffic3 = 8 * (n3**3 + (n3 - 2) ** 3)
    seven = [(0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)]

    def heat(r: list[ir.Expr]) -> ir.Expr:
        laplace = ir.Apply(ir.Op("-"), (_add(*r[1:]), _mul(_lit(6.0), r[0])))
        return _add(r[0], _mul(_lit(0.1), laplace))

    program, output, sizes = _stencil(seven, heat, n3)
    result.append(
        Case("heat3d", program, output, {"a": grid3, "b": np.zeros(n3**3)}, sizes, n3**3,
             traffic3, "heat3d", lambda bufs: [bufs["a"], bufs["b"], np.int32(n3)],
             (n3 - 2, n3 - 2, n3 - 2), "b")
    )  # fmt: skip
    box = [(i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]
    program, output, sizes = _stencil(box, lambda r: _mul(_add(*r), _lit(1.0 / 27.0)), n3)
    result.append(
        Case("box27", program, output, {"a": grid3, "b": np.zeros(n3**3)}, sizes, n3**3,
             traffic3, "box27", lambda bufs: [bufs["a"], bufs["b"], np.int32(n3)],
             (n3 - 2, n3 - 2, n3 - 2), "b")
    )  # fmt: skip
    return result


def _reference(device: Device, case: Case, repeat: int) -> tuple[float, np.ndarray]:
    cl = device.cl
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    buffers = {
        name: cl.Buffer(device.context, flags, hostbuf=np.ascontiguousarray(value))
        for name, value in case.inputs.items()
        if isinstance(value, np.ndarray)
    }
    host_out = np.zeros(case.output_elements)
    if case.reference_output not in buffers:
        buffers[case.reference_output] = cl.Buffer(device.context, flags, hostbuf=host_out)
    program = cl.Program(device.context, (REFERENCES / f"{case.reference}.cl").read_text()).build()
    kernel = cl.Kernel(program, case.reference)
    args = case.reference_args(buffers)
    local = {1: (256,), 2: (32, 8), 3: (32, 8, 1)}[len(case.reference_global)]
    if case.fixed_launch is not None:
        local = case.fixed_launch[1]
    global_size = tuple(
        -(-count // size) * size for count, size in zip(case.reference_global, local, strict=True)
    )
    times = _timed(device, kernel, (global_size, local), args, repeat)
    cl.enqueue_copy(device.queue, host_out, buffers[case.reference_output])
    device.queue.finish()
    return statistics.median(times), host_out


def _measure_fixed(device: Device, case: Case, repeat: int) -> dict[str, Any]:
    """A lowered program timed on its own NDRange: no search."""
    reference_s, reference_out = _reference(device, case, repeat)
    assert case.fixed_launch is not None
    # For its launch's work-group, as the tool generates its trees (reduction.tree_kernels),
    # with long and with int indices; the tool launches the latter where every size fits.
    seconds: dict[str, float] = {}
    same = True
    for index in ("long", "int"):
        if index == "int" and not all(abs(size) < INT_LIMIT for size in case.sizes.values()):
            continue
        kernel = generate(case.program, work_group=case.fixed_launch[1][0], index=index)
        out = np.zeros(case.output_elements)
        times = device.run(case.program, kernel, case.inputs, case.sizes,
                           Launch(*case.fixed_launch), out, repeat=repeat + 1)  # fmt: skip
        seconds[index] = statistics.median(times[1:])
        same = same and bool(np.isclose(out.sum(), reference_out.sum(), rtol=1e-9))
    default = seconds.get("int", seconds["long"])
    gbs = {
        k: case.traffic_bytes / v / 1e9
        for k, v in (("reference", reference_s), ("default", default), ("long", seconds["long"]))
    }
    return {"case": case.name, "expression": show(case.program), "sizes": case.sizes,
            "reference_s": reference_s, "default_s": default, "seconds": seconds, "GBs": gbs,
            "default_equals_reference": same, "best": "no search (a lowered tree)",
            "search_seconds": 0.0}  # fmt: skip


def measure_case(device: Device, case: Case, budget: float, repeat: int) -> dict[str, Any]:
    if case.fixed_launch is not None:
        return _measure_fixed(device, case, repeat)
    reference_s, reference_out = _reference(device, case, repeat)
    default = default_candidate(case.program, case.output)
    out = np.zeros(case.output_elements)
    global_size, local_size = launch_shape(default, case.sizes)
    times = device.run(default.program, default.kernel, case.inputs, case.sizes,
                       Launch(global_size, local_size), out, repeat=repeat + 1)  # fmt: skip
    default_s = statistics.median(times[1:])
    same = bool(np.allclose(out, reference_out, rtol=1e-12, atol=0.0))
    started = time.monotonic()
    found = search(case.program, case.inputs, case.sizes, device, output=case.output,
                   output_elements=case.output_elements, budget_seconds=budget)  # fmt: skip
    seconds = {"reference": reference_s, "default": default_s, "best": found.best_seconds}
    gbs = {k: case.traffic_bytes / v / 1e9 for k, v in seconds.items()}
    return {
        "case": case.name,
        "expression": show(case.program),
        "sizes": case.sizes,
        "reference_s": reference_s,
        "default_s": default_s,
        "best_s": found.best_seconds,
        "best": found.best.describe(),
        "GBs": gbs,
        "default_equals_reference": same,
        "search_seconds": time.monotonic() - started,
        "candidates_tried": found.tried,
        "pruned": len(found.pruned),
        "timings": found.timings,
    }


I32 = Scalar("i32")


def _wrapped(values: np.ndarray) -> np.ndarray:
    """int64 values as the int32 they wrap to."""
    return ((values + 2**31) % 2**32 - 2**31).astype(np.int32)


def _exclusive(totals: np.ndarray) -> np.ndarray:
    """Where each chunk starts: the host's part of both scans."""
    return _wrapped(np.concatenate(([0], np.cumsum(totals.astype(np.int64))[:-1])))


def measure_scan(device: Device, n: int, repeat: int) -> dict[str, Any]:
    """An inclusive scan of n ints, data on the device: the two kernels the Lift compiler
    generates (blocks of SCAN_BLOCK work-items and SCAN_RUN neighbouring values an item,
    staged as SCAN_STAGING: `default`; `group_G_run_R_INOUT`, groups of G, R values an
    item, the block read and written through local or global memory; `run_1` one value
    an item in groups of 256) against the hand-written scan in
    lift_reference/scan_blocks.cl (256 values a work-group, in local memory); each the
    sum of its two kernels' times, the host's scan of the totals between them not
    counted. Then the one-pass kernel generated (`one_pass`: what the tool launches for
    an integer scan whose running value is not used after its loop; its variants in
    `measure_scan_one_pass`) against the hand-written one-pass scan
    (`reference_one_pass`, lift_reference/scan_one_pass.cl: int4 loads and stores).
    Ideal traffic: every value read once, every prefix written once."""
    x = np.random.default_rng(11).integers(-1000, 1000, n).astype(np.int32)
    expected = _wrapped(np.cumsum(x.astype(np.int64)))
    forms = {
        "default": (SCAN_BLOCK, SCAN_RUN, SCAN_STAGING),
        "run_1": (256, 1, (True, True)),  # one value an item
    }
    for group in (256, 512):
        for run in (2, 4, 8):
            for staging in ((True, True), (False, True), (False, False)):
                name = f"group_{group}_run_{run}_"
                name += "".join("local" if s else "global" for s in staging)
                forms[name] = (group, run, staging)
    times: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    equal: dict[str, bool] = {}
    for name, (group, run, staging) in forms.items():
        parts[name], y = _scan_generated(device, x, (group, run), staging, repeat)
        times[name] = sum(parts[name].values())
        equal[name] = bool(np.array_equal(y[:n], expected))
    one_pass = {"one_pass": (CHAINED_NARROW.group, CHAINED_NARROW.run, CHAINED_NARROW.staging)}
    for name, (group, run, staging) in one_pass.items():
        parts[name], y = _scan_one_pass(device, x, (group, run), staging, repeat)
        times[name] = sum(parts[name].values())
        equal[name] = bool(np.array_equal(y[:n], expected))
    reference_parts, reference_out = _scan_reference(device, x, repeat)
    times["reference"] = sum(reference_parts.values())
    parts["reference"] = reference_parts
    equal["reference"] = bool(np.array_equal(reference_out, expected))
    one_pass_parts, one_pass_out = _scan_one_pass_reference(device, x, repeat)
    times["reference_one_pass"] = sum(one_pass_parts.values())
    parts["reference_one_pass"] = one_pass_parts
    equal["reference_one_pass"] = bool(np.array_equal(one_pass_out, expected))
    traffic = 8 * n
    return {
        "case": "scan",
        "n": n,
        "seconds": times,
        "kernels_s": parts,
        "GBs": {k: traffic / s / 1e9 for k, s in times.items()},
        "outputs_equal": equal,
        "best": "no search (two kernels and the host between them, or one pass)",
        "search_seconds": 0.0,
    }


def _scan_generated(
    device: Device,
    x: np.ndarray,
    shape: tuple[int, int],
    staging: tuple[bool, bool],
    repeat: int,
) -> tuple[dict[str, float], np.ndarray]:
    """The generated scan's two kernels' median times, in work-groups of `shape[0]`,
    `shape[1]` values a work-item (int indices and the work-group known: what the tool
    launches where sizes fit), and what they wrote."""
    group, run = shape
    n, block = len(x), group * run
    programs = _scan_programs(group, run, staging)
    chunks = -(-n // block)
    sizes = {"n0": n, "wg": chunks, "per": run}
    first = generate(programs.totals, "totals", index="int", work_group=group)
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    second = generate(programs.chunks, "chunks", output=output, index="int", work_group=group)
    totals = np.zeros(chunks, dtype=np.int32)
    launch = Launch((chunks * group,), (group,))
    first_s = device.run(programs.totals, first, {"x": x}, sizes, launch, totals,
                         repeat=repeat + 1)  # fmt: skip
    starts = _exclusive(totals)
    y = np.zeros(chunks * block, dtype=np.int32)
    second_s = device.run(programs.chunks, second, {"x": x, "y": y, "t": starts}, sizes,
                          launch, y, repeat=repeat + 1)  # fmt: skip
    medians = {"totals": statistics.median(first_s[1:]), "blocks": statistics.median(second_s[1:])}
    return medians, y


def _scan_programs(group: int, run: int, staging: tuple[bool, bool]) -> ScanPrograms:
    """`blocked_scan`'s programs for an inclusive sum of ints `x` (`n0` of them) into
    `y`, in work-groups of `group`, `run` values a work-item."""
    xp = ir.Param("x", Array(I32, Size.of("n0")))
    a, b = ir.Param("a"), ir.Param("b")
    fold = ir.Lambda((a, b), ir.Apply(ir.Op("+"), (a, b)))
    yp = ir.Param("y", Array(I32, Size.of("wg") * (group * run)))
    return blocked_scan([xp], xp, fold, ir.Literal(0, I32), Size.of("n0"), local=group,
                        inclusive=True, written=[yp], per=run, staging=staging)  # fmt: skip


def measure_scan_one_pass(device: Device, n: int, repeat: int) -> dict[str, Any]:
    """The one-pass scan of n ints generated in variants (`group_G_run_R_IN_OUT`: work-
    groups of G, R values an item, the block read through local memory or in place, the
    runs' prefixes written through local memory or straight out), against the
    hand-written one-pass scan (lift_reference/scan_one_pass.cl); data on the device, as
    `measure_scan`'s."""
    x = np.random.default_rng(11).integers(-1000, 1000, n).astype(np.int32)
    expected = _wrapped(np.cumsum(x.astype(np.int64)))
    forms = {"one_pass": (CHAINED_NARROW.group, CHAINED_NARROW.run, CHAINED_NARROW.staging)}
    shapes = [(g, r, (False, True)) for g in (128, 256, 512) for r in (8, 11, 13, 17, 21)]
    staged_in = ((True, True), (True, False))
    shapes += [(g, r, staged_in[0]) for g in (128, 256, 512) for r in (11, 13, 17, 21)]
    shapes += [(g, r, staged_in[1]) for g in (128, 256) for r in (11, 17)]
    shapes += [(256, 17, (False, False))]
    for group, run, staging in shapes:
        name = f"group_{group}_run_{run}_"
        name += "_".join("local" if s else "global" for s in staging)
        forms[name] = (group, run, staging)
    times: dict[str, float] = {}
    equal: dict[str, bool] = {}
    for name, (group, run, staging) in forms.items():
        parts, y = _scan_one_pass(device, x, (group, run), staging, repeat)
        times[name] = sum(parts.values())
        equal[name] = bool(np.array_equal(y[:n], expected))
    reference_parts, reference_out = _scan_one_pass_reference(device, x, repeat)
    times["reference_one_pass"] = sum(reference_parts.values())
    equal["reference_one_pass"] = bool(np.array_equal(reference_out, expected))
    return {
        "case": "scan_one_pass",
        "n": n,
        "build_options": device.options,
        "seconds": times,
        "GBs": {k: 8 * n / s / 1e9 for k, s in times.items()},
        "outputs_equal": equal,
    }


def _scan_one_pass(
    device: Device,
    x: np.ndarray,
    shape: tuple[int, int],
    staging: tuple[bool, bool],
    repeat: int,
) -> tuple[dict[str, float], np.ndarray]:
    """The generated one-pass scan's median time (scan-workgroups: each block's start
    from the totals the blocks before it publish; its status words zeroed before each
    launch, not counted), in work-groups of `shape[0]`, `shape[1]` values a work-item,
    int indices, and what it wrote."""
    group, run = shape
    n, block = len(x), group * run
    programs = _scan_programs(group, run, staging)
    assert programs.chained is not None
    chunks = -(-n // block)
    sizes = {"n0": n, "wg": chunks}
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    kernel = generate(programs.chained, "chained", output=output, index="int", work_group=group)
    y = np.zeros(chunks * block, dtype=np.int32)
    seconds = device.run(programs.chained, kernel, {"x": x, "y": y, "z": 0}, sizes,
                         Launch((chunks * group,), (group,)), y, repeat=repeat + 1)  # fmt: skip
    return {"one_pass": statistics.median(seconds[1:])}, y


def measure_scan_calls(device: Device, exponents: Sequence[int], repeat: int) -> dict[str, Any]:
    """Whole calls of an inclusive scan of 2^e ints, data on the device, as the tool
    makes them: the one-pass kernel (its status words zeroed, the launch, the wait)
    against the two kernels with the host's step between them (the first launch, the
    totals read back, scanned on the host, the starts written, the second launch, the
    wait); wall-clock medians of `repeat` calls after five, both from Python, outputs
    compared with numpy's."""
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    kernels = {
        "two": (_scan_programs(SCAN_BLOCK, SCAN_RUN, SCAN_STAGING), (SCAN_BLOCK, SCAN_RUN)),
        "one": (_scan_programs(CHAINED_NARROW.group, CHAINED_NARROW.run, CHAINED_NARROW.staging),
                (CHAINED_NARROW.group, CHAINED_NARROW.run)),
    }  # fmt: skip
    rows: dict[str, Any] = {}
    for exponent in exponents:
        n = 2**exponent
        x = np.random.default_rng(13).integers(-1000, 1000, n).astype(np.int32)
        calls = _ScanCalls(device, kernels, x, output)
        expected = _wrapped(np.cumsum(x.astype(np.int64)))
        rows[str(n)] = {
            form: {"us": 1e6 * calls.median(form, repeat), "equal": calls.equal(form, expected)}
            for form in ("one", "two")
        }
    return {"case": "scan_calls", "calls": rows}


class _ScanCalls:
    """The buffers and kernels of `measure_scan_calls` for one input."""

    def __init__(
        self, device: Device, kernels: dict[str, Any], x: np.ndarray, output: Output
    ) -> None:
        cl, context = device.cl, device.context
        self.device, self.n = device, len(x)
        self.queue = cl.CommandQueue(context)  # no profiling: as a program's queue
        flags = cl.mem_flags
        self.x = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=x)
        self.built: dict[str, Any] = {}
        self.outputs: dict[str, Any] = {}
        for form, (programs, (group, run)) in kernels.items():
            blocks = -(-self.n // (group * run))
            sizes = {"n0": self.n, "wg": blocks}
            if form == "one":
                chained = generate(programs.chained, "chained", output=output, index="int",
                                   work_group=group)  # fmt: skip
                parts = [(chained, programs.chained)]
            else:
                totals = generate(programs.totals, "totals", index="int", work_group=group)
                chunks = generate(programs.chunks, "chunks", output=output, index="int",
                                  work_group=group)  # fmt: skip
                parts = [(totals, programs.totals), (chunks, programs.chunks)]
            self.outputs[form] = cl.Buffer(context, flags.READ_WRITE, 4 * blocks * group * run)
            built = [
                (cl.Kernel(cl.Program(context, k.source).build(options=device.options), k.name), k)
                for k, _ in parts
            ]
            self.built[form] = (built, blocks, sizes, group)
        blocks = self.built["two"][1]
        self.totals = cl.Buffer(context, flags.READ_WRITE, 4 * blocks)
        self.starts = cl.Buffer(context, flags.READ_WRITE, 4 * blocks)
        self.host_totals = np.empty(blocks, dtype=np.int32)
        self.status_bytes = 8 * (self.built["one"][1] + 1)
        self.status = cl.Buffer(context, flags.READ_WRITE, self.status_bytes)

    def call(self, form: str) -> None:
        cl, queue = self.device.cl, self.queue
        built, blocks, sizes, group = self.built[form]
        launch = ((blocks * group,), (group,))
        y = self.outputs[form]
        if form == "one":
            ((kernel, generated),) = built
            zero = np.zeros(1, np.uint8)
            cl.enqueue_fill_buffer(queue, self.status, zero, 0, self.status_bytes)
            kernel(queue, *launch, self.x, y, np.int32(0), self.status,
                   *[np.int32(sizes[s]) for s in generated.sizes])  # fmt: skip
        else:
            (first, first_generated), (second, second_generated) = built
            first(queue, *launch, self.x, self.totals,
                  *[np.int32(sizes[s]) for s in first_generated.sizes])  # fmt: skip
            cl.enqueue_copy(queue, self.host_totals, self.totals)  # waits
            starts = _exclusive(self.host_totals)
            cl.enqueue_copy(queue, self.starts, starts, is_blocking=False)
            second(queue, *launch, self.x, y, self.starts,
                   *[np.int32(sizes[s]) for s in second_generated.sizes])  # fmt: skip
        queue.finish()

    def median(self, form: str, repeat: int) -> float:
        times = []
        for _ in range(repeat + 5):
            start = time.perf_counter()
            self.call(form)
            times.append(time.perf_counter() - start)
        return statistics.median(times[5:])

    def equal(self, form: str, expected: np.ndarray) -> bool:
        y = np.empty(self.outputs[form].size // 4, dtype=np.int32)
        self.device.cl.enqueue_copy(self.queue, y, self.outputs[form])
        return bool(np.array_equal(y[: self.n], expected))


HISTOGRAM_GRID = 16384  # work-items the tool's histogram kernels ask for
FILL_PER_UNIT, FILL_SHARE = 2048, 16  # idiom_opencl.c's filled_grid (IDIOM_CL_FILL)
FILL_GROUP = 1024  # and its work-groups (IDIOM_CL_FILL_GROUP)


def filled_grid(device: Device, n: int) -> int:
    """The work-items the runtime launches the generated adds with on `device` (a GPU):
    HISTOGRAM_GRID widened to fill it, each item taking at least FILL_SHARE keys."""
    items = min(n // FILL_SHARE, device.device.max_compute_units * FILL_PER_UNIT)
    return max(HISTOGRAM_GRID, -(-items // 256) * 256)


def measure_histogram(device: Device, n: int, bins: int, repeat: int) -> dict[str, Any]:
    """n keys counted into `bins` int bins, data on the device: the atomic adds the Lift
    compiler generates for a histogram as the tool launches them (`default`: through
    each work-group's bins in local memory where there are at most LOCAL_BINS, global
    atomics otherwise; `global_atomics`: the latter always; `int`: the default with int
    indices, which the tool does not launch), in groups of FILL_GROUP on the grid the
    runtime launches on this device (`filled_grid`), and `default` again on the grid the
    tool asks for (`grid_asked`, HISTOGRAM_GRID in groups of 256: what a CPU device
    gets), against two hand-written kernels (lift_reference/histogram.cl) on the filled
    grid in groups of 256 and of FILL_GROUP (`_wide`): global atomics, and bins kept in
    local memory per work-group. Ideal traffic: every key read once (the bins are few)."""
    keys = np.random.default_rng(12).integers(0, bins, n).astype(np.int32)
    expected = np.bincount(keys, minlength=bins).astype(np.int32)
    kp = ir.Param("keys", Array(I32, Size.of("n0")))
    hp = ir.Param("h", Array(I32, Size.of("nb")))
    v = ir.Param("v")
    places = ir.Apply(ir.Map(ir.Lambda((v,), ir.Apply(ir.Op("i64"), (v,)))), (kp,))
    ones = ir.Apply(ir.Map(ir.Lambda((v,), ir.Literal(1, I32))), (kp,))
    output = Output("h", True, Size.of(0), (Size.of(1),))
    scatter = ir.Lambda((kp, hp), ir.Apply(ir.ScatterAtomic(0, ir.Op("+")), (places, ones, hp)))
    local = ir.Apply(ir.ScatterAtomicLocal(0, LOCAL_BINS, ir.Op("+")), (places, ones, hp))
    chosen = ir.Lambda((kp, hp), local) if bins <= LOCAL_BINS else scatter  # as the tool
    programs = {  # name: program, index type
        "global_atomics": (scatter, "long"),
        "default": (chosen, "long"),
        "int": (chosen, "int"),
        "grid_asked": (chosen, "long"),
    }
    grid = filled_grid(device, n)
    sizes = {"n0": n, "nb": bins}
    times = {}
    outputs = {}
    for name, (program, index) in programs.items():
        asked = name == "grid_asked"
        launch = Launch((HISTOGRAM_GRID if asked else grid,), (256 if asked else FILL_GROUP,))
        variant = generate(program, "histogram", output, index=index)
        outputs[name], times[name] = _time_adds(device, (program, variant), keys, sizes,
                                                launch=launch, repeat=repeat)  # fmt: skip
    cl = device.cl
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    built = cl.Program(device.context, (REFERENCES / "histogram.cl").read_text()).build()
    keys_buf = cl.Buffer(device.context, flags, hostbuf=keys)
    references: list[tuple[str, str, list[Any], int]] = [
        ("reference", "histogram_global", [], 256),
        ("reference_wide", "histogram_global", [], FILL_GROUP),
    ]
    if bins <= 4096:  # the local kernel's bins
        references.append(("reference_local", "histogram_local", [np.int32(bins)], 256))
        references.append(("reference_local_wide", "histogram_local", [np.int32(bins)], FILL_GROUP))
    for name, entry, extra, group in references:
        counts = np.zeros(bins, dtype=np.int32)
        bins_buf = cl.Buffer(device.context, flags, hostbuf=counts)
        kernel_ref = cl.Kernel(built, entry)
        args = [keys_buf, bins_buf, np.int32(n), *extra]
        timed = []
        for attempt in range(repeat + 1):  # the first a warm-up, its counts compared
            cl.enqueue_fill_buffer(device.queue, bins_buf, np.int32(0), 0, counts.nbytes)
            event = kernel_ref(device.queue, (grid,), (group,), *args)
            event.wait()
            if attempt == 0:
                cl.enqueue_copy(device.queue, counts, bins_buf)
                outputs[name] = counts.copy()
            else:
                timed.append((event.profile.end - event.profile.start) * 1e-9)
        times[name] = statistics.median(timed)
    traffic = 4 * n
    return {
        "case": f"histogram{bins}",
        "n": n,
        "grid": grid,
        "seconds": times,
        "GBs": {k: traffic / t / 1e9 for k, t in times.items()},
        "outputs_equal": {k: bool(np.array_equal(o, expected)) for k, o in outputs.items()},
    }


def _time_adds(
    device: Device,
    generated: tuple[ir.Lambda, Kernel],
    keys: np.ndarray,
    sizes: dict[str, int],
    *,
    launch: Launch,
    repeat: int,
) -> tuple[np.ndarray, float]:
    """A generated histogram kernel timed as the hand-written ones are: its buffers made
    once, the bins cleared before each launch, the first launch a warm-up whose counts
    are returned; the median kernel time of the others. (A buffer made and filled for
    each launch, as `Device.run` does, read 15% slower on an H200.)"""
    program, kernel = generated
    cl = device.cl
    bins = np.zeros(sizes["nb"], dtype=np.int32)
    function = device.build(kernel)
    args, written = device.arguments(program, kernel, {"keys": keys, "h": bins}, bins)
    size_type = np.int32 if kernel.index == "int" else np.int64
    args += [size_type(sizes[name]) for name in kernel.sizes]
    timed, counts = [], bins.copy()
    for attempt in range(repeat + 1):
        cl.enqueue_fill_buffer(device.queue, written, np.int32(0), 0, bins.nbytes)
        event = function(device.queue, launch.global_size, launch.local_size, *args)
        event.wait()
        if attempt == 0:
            cl.enqueue_copy(device.queue, counts, written)
            device.queue.finish()
        else:
            timed.append((event.profile.end - event.profile.start) * 1e-9)
    return counts, statistics.median(timed)


# y = A x for A in CSR, as the tool's mapper gives it (functional.spmv_expression): one row
# a pair of neighbouring row pointers, its entries a segment of the values and columns
# (copied from position vlo), folded in order, x (copied from position xlo) gathered at
# each entry's column.
SPMV_PROGRAM = """
(lambda ((ptr (array i32 R1)) (V (array f64 E)) (C (array i32 E)) (X (array f64 N))
         (vlo i64) (xlo i64))
  (map (lambda (p)
         ((lambda (row)
            (get 0 (reduce (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
                     (zip row (gather (map (lambda (ce) (- (i64 (get 1 ce)) xlo)) row) X)))))
          (segment entries (- (i64 (get 0 p)) vlo) (- (i64 (get 1 p)) vlo) (zip V C))))
       (zip (strided 0 (1) (R) ptr) (strided 1 (1) (R) ptr))))
"""
SPMV_BAND = 512  # a row's columns within this many of the diagonal: most reads of x cached


def _banded_csr(
    rows: int, lengths: tuple[int, int] = (8, 40)
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random square matrix in CSR (row pointers, values, column indices; the same for
    the same `rows`): `lengths` entries a row (8 to 40 by default), so every row has
    some; its columns drawn within SPMV_BAND of the diagonal, ascending in a row as a CSR
    matrix usually stores them, so that neighbouring rows read much the same part of x."""
    rng = np.random.default_rng(13)
    counts = rng.integers(lengths[0], lengths[1] + 1, rows)
    ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int32)
    row_of = np.repeat(np.arange(rows), counts)
    cols = np.clip(row_of + rng.integers(-SPMV_BAND, SPMV_BAND + 1, len(row_of)), 0, rows - 1)
    cols = cols[np.lexsort((cols, row_of))].astype(np.int32)  # rows stay, columns sorted
    return ptr, rng.random(len(row_of)), cols


def _csr_inputs(
    ptr: np.ndarray, values: np.ndarray, cols: np.ndarray, x: np.ndarray
) -> tuple[np.ndarray, dict[str, int], dict[str, Any]]:
    """numpy's y = A x (every row has an entry), and SPMV_PROGRAM's sizes and inputs."""
    rows = len(ptr) - 1
    expected = np.add.reduceat(values * x[cols], ptr[:-1].astype(np.int64))
    sizes = {"R": rows, "R1": rows + 1, "E": len(values), "N": len(x)}
    inputs = {"ptr": ptr, "V": values, "C": cols, "X": x, "vlo": 0, "xlo": 0}
    return expected, sizes, inputs


def measure_spmv(device: Device, rows: int, repeat: int) -> dict[str, Any]:
    """y = A x for a random banded CSR matrix (`_banded_csr`), data on the device: the
    kernel the Lift compiler generates from SPMV_PROGRAM lowered as the tool lowers it
    (one row a work-item, its entries in a sequential loop), with `long` and with `int`
    indices (the tool launches the latter where every size fits: mappers/targets/
    kernels.fits_int), against the hand-written lift_reference/spmv_csr.cl; one row a
    work-item, in groups of 256. Both add a row's products in order from 0.0 without
    contraction, so their outputs must be equal bit for bit; numpy's, summed in another
    order, only close. Ideal traffic: the row pointers, values and column indices read
    once, x once an entry (an upper bound: the band's reads mostly hit the cache), y
    written once."""
    ptr, values, cols = _banded_csr(rows)
    entries = len(values)
    x = np.random.default_rng(14).random(rows)
    expected, sizes, inputs = _csr_inputs(ptr, values, cols, x)
    times, outputs, tuned = _generated(device, SPMV_PROGRAM, inputs, sizes, rows, repeat=repeat)
    arrays = [ptr, values, cols, x, np.zeros(rows)]
    reference = _sparse_reference(device, "spmv_csr", arrays, [np.int32(rows)], repeat)
    times["reference"], outputs["reference"] = reference
    _generated_lanes(device, inputs, sizes, rows, repeat, times, outputs)  # regrouped sums
    traffic = 4 * (rows + 1) + (12 + 8) * entries + 8 * rows
    shape = {"rows": rows, "entries": entries}
    return {**_sparse_row("spmv", shape, times, outputs, expected, traffic=traffic), "tuned": tuned}


def _scattered_csr(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random square matrix in CSR shaped as NAS CG's (class B: 75,000 rows, about 183
    entries a row): 150 to 216 entries a row, columns drawn over the whole row range and
    sorted within a row (the same for the same `rows`)."""
    rng = np.random.default_rng(17)
    counts = rng.integers(150, 217, rows)
    ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int32)
    row_of = np.repeat(np.arange(rows), counts)
    cols = rng.integers(0, rows, len(row_of))
    cols = cols[np.lexsort((cols, row_of))].astype(np.int32)
    return ptr, rng.random(len(row_of)), cols


SPMV_LANES = (4, 8, 16, 32, 64)


def _generated_lanes(  # noqa: PLR0917 (the case's data, then where figures go)
    device: Device,
    inputs: dict[str, Any],
    sizes: dict[str, int],
    rows: int,
    repeat: int,
    times: dict[str, float],
    outputs: dict[str, np.ndarray],
    *,
    lanes_tried: Sequence[int] = (8, 32),
    indices: Sequence[str] = ("long", "int"),
) -> None:
    """SPMV_PROGRAM lowered on `map-lanes` of each of `lanes_tried` items a row
    (lower_lanes; mappers/targets/sparse.py says which the tool launches), long and int
    indices, in groups of LANES_GROUP, an item for every lane of every row."""
    parsed = parse(SPMV_PROGRAM)
    assert isinstance(parsed, ir.Lambda)
    for lanes in lanes_tried:
        lowered = lower_lanes(parsed, lanes)
        assert lowered is not None
        groups = -(-rows * lanes // LANES_GROUP)
        for index in indices:
            kernel = generate(lowered[0], "spmv", index=index, work_group=LANES_GROUP)
            y = np.zeros(rows)
            launch = Launch((groups * LANES_GROUP,), (LANES_GROUP,))
            measured = device.run(lowered[0], kernel, inputs, sizes, launch, y, repeat=repeat + 1)
            times[f"generated_lanes{lanes}_{index}"] = statistics.median(measured[1:])
            outputs[f"generated_lanes{lanes}_{index}"] = y


ROW_LENGTHS = (4, 8, 12, 16, 24, 32, 48, 64, 128)  # a row's average entries


def measure_spmv_row_lengths(device: Device, entries: int, repeat: int) -> dict[str, Any]:
    """Where sharing a row pays: for each average row length of ROW_LENGTHS, a banded
    matrix (`_banded_csr`, rows of half to one and a half times that many entries) of
    about `entries` entries, data on the device: the generated one-row-a-work-item kernel
    at its best tuned shape (`tuned`, as the runtime would launch it) against the
    generated lanes kernels of 4, 8, 16 and 32 items a row, int indices. GB/s of the
    ideal traffic (as `spmv`) for each length."""
    by_length: dict[int, dict[str, float]] = {}
    for average in ROW_LENGTHS:
        rows = entries // average
        low = max(1, average // 2)
        ptr, values, cols = _banded_csr(rows, (low, 2 * average - low))
        x = np.random.default_rng(14).random(rows)
        expected, sizes, inputs = _csr_inputs(ptr, values, cols, x)
        times, outputs, _ = _generated(device, SPMV_PROGRAM, inputs, sizes, rows, repeat=repeat)
        _generated_lanes(device, inputs, sizes, rows, repeat, times, outputs,
                         lanes_tried=(4, 8, 16, 32), indices=("int",))  # fmt: skip
        traffic = 4 * (rows + 1) + (12 + 8) * len(values) + 8 * rows
        by_length[average] = {
            k: traffic / t / 1e9 for k, t in times.items() if k in ("tuned", "int") or "lanes" in k
        }
        assert all(np.allclose(o, expected, rtol=1e-12, atol=0.0) for o in outputs.values())
        print(json.dumps({"average": average, "GBs": by_length[average]}), flush=True)
    return {"case": "spmv_row_lengths", "entries": entries, "GBs_by_average": by_length}


def measure_spmv_long_rows(device: Device, rows: int, repeat: int) -> dict[str, Any]:
    """y = A x for a matrix with long rows whose columns spread over all of x
    (`_scattered_csr`, NAS CG's shape), data on the device: the generated one-row-a-
    work-item kernel (and its best tuned shape) and the hand-written one, against the
    hand-written lift_reference/spmv_csr_lanes.cl at each of SPMV_LANES work-items a row
    in groups of 256 (sums reassociated: compared with numpy's, not bit for bit)."""
    ptr, values, cols = _scattered_csr(rows)
    entries = len(values)
    x = np.random.default_rng(18).random(rows)
    expected, sizes, inputs = _csr_inputs(ptr, values, cols, x)
    times, outputs, tuned = _generated(device, SPMV_PROGRAM, inputs, sizes, rows, repeat=repeat)
    arrays = [ptr, values, cols, x, np.zeros(rows)]
    reference = _sparse_reference(device, "spmv_csr", arrays, [np.int32(rows)], repeat)
    times["reference"], outputs["reference"] = reference
    cl = device.cl
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    source = (REFERENCES / "spmv_csr_lanes.cl").read_text()
    for lanes in SPMV_LANES:
        built = cl.Program(device.context, source).build(options=f"-DLANES={lanes}")
        kernel = cl.Kernel(built, "spmv_csr_lanes")
        y = np.zeros(rows)
        buffers = [cl.Buffer(device.context, flags, hostbuf=a) for a in (*arrays[:-1], y)]
        local = 256
        shape = ((-(-rows * lanes // local) * local,), (local,))
        args = [*buffers, np.int32(rows), cl.LocalMemory(8 * local)]
        times[f"lanes{lanes}"] = statistics.median(_timed(device, kernel, shape, args, repeat))
        cl.enqueue_copy(device.queue, y, buffers[-1])
        device.queue.finish()
        outputs[f"lanes{lanes}"] = y
    _generated_lanes(device, inputs, sizes, rows, repeat, times, outputs)
    traffic = 4 * (rows + 1) + (12 + 8) * entries + 8 * rows
    shape_of = {"rows": rows, "entries": entries}
    row = _sparse_row("spmv_long_rows", shape_of, times, outputs, expected, traffic=traffic)
    # The generated kernels add in the hand-written lanes kernel's order: equal bits.
    row["generated_equal_to_hand_written_lanes"] = {
        key: bool(
            np.array_equal(
                y.view(np.int64),
                outputs[f"lanes{key.split('lanes')[1].split('_')[0]}"].view(np.int64),
            )
        )
        for key, y in outputs.items()
        if key.startswith("generated_lanes")
    }
    return {**row, "tuned": tuned}


# y = A x for A in jagged diagonal storage, as the tool's mapper gives it
# (functional.jds_expression): one sorted row a triple of its row of y, its length and its
# own index; its diagonals' first positions a segment of J (copied from position jlo),
# moved to the row, gather its entries of the values and columns (copied from vlo),
# folded in order as a CSR row's; each row's value written into Y (its rows from ylo) at
# its index, `permute`.
JDS_PROGRAM = """
(lambda ((perm (array i32 R)) (nzcnt (array i32 R)) (J (array i32 D)) (V (array f64 E))
         (C (array i32 E)) (X (array f64 N)) (Y (array f64 R))
         (jlo i64) (vlo i64) (xlo i64) (ylo i64))
  (permute (map (lambda (p) (- (i64 (get 0 p)) ylo)) (zip perm nzcnt (indices 0 (R))))
    (map (lambda (p)
           ((lambda (row)
              (get 0 (reduce (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
                       (zip row (gather (map (lambda (ce) (- (i64 (get 1 ce)) xlo)) row) X)))))
            (gather (map (lambda (s) (- (+ (i64 s) (get 2 p)) vlo))
                         (segment diagonals (- 0:i64 jlo) (- (i64 (get 1 p)) jlo) J))
                    (zip V C))))
         (zip perm nzcnt (indices 0 (R))))
    Y))
"""
# y = A x for A in ELLPACK stored by columns, as the mapper gives it (functional.
# spmv_expression with its entry loop's counter): row i's entries gathered from the values
# and columns (copied from vlo) at j*n + i for the counter j of (range entries 0 w),
# padding included, folded in order.
ELL_PROGRAM = """
(lambda ((V (array f64 E)) (C (array i32 E)) (X (array f64 N)) (w i64) (n i64) (vlo i64)
         (xlo i64))
  (map (lambda (i)
         (get 0 (reduce (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
                  ((lambda (row)
                     (zip row (gather (map (lambda (ce) (- (i64 (get 1 ce)) xlo)) row) X)))
                   (gather (map (lambda (j) (- (+ (* j n) i) vlo)) (range entries 0:i64 w))
                           (zip V C))))))
       (indices 0 (R))))
"""


def _jagged(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`_banded_csr(rows)` in jagged diagonal storage (perm, nzcnt, jd_ptr, values, column
    indices): its rows sorted by decreasing length (stably), perm[r] the row of A that
    sorted row r is, nzcnt[r] its length, jd_ptr[d] where diagonal d starts (entry d of
    every sorted row longer than d, in order), the values and columns diagonal after
    diagonal."""
    ptr, values, cols = _banded_csr(rows)
    counts = np.diff(ptr)
    perm = np.argsort(-counts, kind="stable")
    nzcnt = counts[perm]
    row = np.repeat(np.arange(rows), nzcnt)  # each entry's sorted row, row by row
    diagonal = np.arange(len(row)) - np.repeat(np.cumsum(nzcnt) - nzcnt, nzcnt)
    jd_ptr = np.concatenate(([0], np.cumsum(np.bincount(diagonal)))).astype(np.int32)
    placed, taken = jd_ptr[diagonal] + row, ptr[perm[row]] + diagonal
    data, idx = np.empty_like(values), np.empty_like(cols)
    data[placed], idx[placed] = values[taken], cols[taken]
    return perm.astype(np.int32), nzcnt.astype(np.int32), jd_ptr, data, idx


def _ellpack(rows: int) -> tuple[np.ndarray, np.ndarray, int]:
    """`_banded_csr(rows)` in ELLPACK stored by columns: w entries a row (its longest
    row's), entry j of row i at j*rows + i, the padding value 0.0 at column 0."""
    ptr, values, cols = _banded_csr(rows)
    counts = np.diff(ptr)
    width = int(counts.max())
    row = np.repeat(np.arange(rows), counts)
    entry = np.arange(len(row)) - np.repeat(ptr[:-1], counts)
    stored, columns = np.zeros(width * rows), np.zeros(width * rows, dtype=np.int32)
    stored[entry * rows + row], columns[entry * rows + row] = values, cols
    return stored, columns, width


# The one-dimensional shapes of runtime/idiom_tune.c: (work-group, rows a work-item), None
# for the driver's choice.
TUNED_SHAPES = ((None, 1), (64, 1), (128, 1), (256, 1), (256, 2), (256, 4), (256, 8), (128, 4))


def _generated(
    device: Device,
    source: str,
    inputs: dict[str, Any],
    sizes: dict[str, int],
    rows: int,
    *,
    output: Output | None = None,
    repeat: int,
) -> tuple[dict[str, float], dict[str, np.ndarray], str]:
    """The kernel generated from `source` lowered as the tool lowers it, with long and,
    where every size fits, int indices: its median time and y, one row a work-item; and
    "tuned", the last of them over the runtime tuner's shapes, the best one's time, y and
    shape."""
    parsed = parse(source)
    assert isinstance(parsed, ir.Lambda)
    program, _ = lower(parsed)
    launch = Launch((-(-rows // 256) * 256,), (256,))
    times = {}
    outputs = {}
    kernel = None
    for index in ("long", "int"):
        if index == "int" and not all(abs(size) < INT_LIMIT for size in sizes.values()):
            continue  # as the tool: the long kernel only
        kernel = generate(program, "spmv", output=output, index=index)
        y = np.zeros(rows)
        measured = device.run(program, kernel, inputs, sizes, launch, y, repeat=repeat + 1)
        times[index] = statistics.median(measured[1:])
        outputs[index] = y
    assert kernel is not None
    # The shapes the runtime's tuner times for a one-dimensional launch (runtime/
    # idiom_tune.c), the driver's work-group first: the kernel a program ends up running.
    best: tuple[float, str] | None = None
    for local, factor in TUNED_SHAPES:
        items = -(-rows // factor)
        shaped = (
            Launch((items,), None)
            if local is None
            else Launch((-(-items // local) * local,), (local,))
        )
        y = np.zeros(rows)
        measured = device.run(program, kernel, inputs, sizes, shaped, y, repeat=repeat + 1)
        seconds = statistics.median(measured[1:])
        if best is None or seconds < best[0]:
            best = (seconds, f"work-groups {local or 'of the driver'}, {factor} a work-item")
            outputs["tuned"] = y
    assert best is not None
    times["tuned"] = best[0]
    return times, outputs, best[1]


def _sparse_reference(
    device: Device, name: str, arrays: list[np.ndarray], scalars: list[Any], repeat: int
) -> tuple[float, np.ndarray]:
    """The hand-written lift_reference/`name`.cl on `arrays` (y, written, the last) then
    `scalars`, one row a work-item: its median time in its best work-group of 64, 128 or
    256, and y."""
    cl = device.cl
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    built = cl.Program(device.context, (REFERENCES / f"{name}.cl").read_text()).build()
    rows = len(arrays[-1])
    y = np.zeros(rows)
    buffers = [cl.Buffer(device.context, flags, hostbuf=a) for a in (*arrays[:-1], y)]
    kernel = cl.Kernel(built, name)
    # Its best work-group of 64, 128 and 256 (one row a work-item whatever the group).
    best = min(
        statistics.median(
            _timed(
                device,
                kernel,
                ((-(-rows // local) * local,), (local,)),
                [*buffers, *scalars],
                repeat,
            )
        )
        for local in (256, 128, 64)
    )
    cl.enqueue_copy(device.queue, y, buffers[-1])
    device.queue.finish()
    return best, y


def _sparse_row(
    case: str,
    shape: dict[str, int],
    times: dict[str, float],
    outputs: dict[str, np.ndarray],
    expected: np.ndarray,
    *,
    traffic: int,
) -> dict[str, Any]:
    bits = outputs["reference"].view(np.int64)
    return {
        "case": case,
        **shape,
        "seconds": times,
        "GBs": {k: traffic / t / 1e9 for k, t in times.items()},
        "outputs_equal": {
            k: bool(np.array_equal(o.view(np.int64), bits))
            for k, o in outputs.items()
            if k != "reference"
        },
        "close_to_numpy": {
            k: bool(np.allclose(o, expected, rtol=1e-12, atol=0.0)) for k, o in outputs.items()
        },
    }


def measure_jds(device: Device, rows: int, repeat: int) -> dict[str, Any]:
    """y = A x for `_banded_csr`'s matrix in jagged diagonal storage (`_jagged`), data on
    the device: the kernel the Lift compiler generates from JDS_PROGRAM lowered as the
    tool lowers it (one sorted row a work-item, its diagonals in a sequential loop, its
    value written at perm[r] of y), with `long` and `int` indices, against the
    hand-written lift_reference/spmv_jds.cl; one sorted row a work-item, in groups of
    256. Both add a row's products in order from 0.0 (a CSR row's order), outputs equal bit
    for bit. Ideal traffic: perm and nzcnt read once a row, jd_ptr once a diagonal,
    values, column indices and x once an entry, y written once."""
    perm, nzcnt, jd_ptr, data, idx = _jagged(rows)
    ptr, values, cols = _banded_csr(rows)
    x = np.random.default_rng(14).random(rows)
    expected = np.add.reduceat(values * x[cols], ptr[:-1].astype(np.int64))
    entries, diagonals = len(data), len(jd_ptr) - 1
    sizes = {"R": rows, "D": diagonals + 1, "E": entries, "N": rows}
    inputs = {"perm": perm, "nzcnt": nzcnt, "J": jd_ptr, "V": data, "C": idx, "X": x,
              "Y": np.zeros(rows), "jlo": 0, "vlo": 0, "xlo": 0, "ylo": 0}  # fmt: skip
    output = Output("Y", True, Size.of(0), (Size.of(1),))
    times, outputs, tuned = _generated(
        device, JDS_PROGRAM, inputs, sizes, rows, output=output, repeat=repeat
    )
    arrays = [perm, nzcnt, jd_ptr, data, idx, x, np.zeros(rows)]
    reference = _sparse_reference(device, "spmv_jds", arrays, [np.int32(rows)], repeat)
    times["reference"], outputs["reference"] = reference
    traffic = 8 * rows + 4 * diagonals + (12 + 8) * entries + 8 * rows
    shape = {"rows": rows, "entries": entries, "diagonals": diagonals}
    return {**_sparse_row("jds", shape, times, outputs, expected, traffic=traffic), "tuned": tuned}


def measure_ell(device: Device, rows: int, repeat: int) -> dict[str, Any]:
    """y = A x for `_banded_csr`'s matrix in ELLPACK stored by columns (`_ellpack`), data
    on the device: the kernel the Lift compiler generates from ELL_PROGRAM lowered as the
    tool lowers it (one row a work-item, its w entries in a sequential loop), with `long`
    and `int` indices, against the hand-written lift_reference/spmv_ell.cl; one row a
    work-item, in groups of 256. Both fold the padding as the loop does, outputs equal bit
    for bit. Ideal traffic: values, column indices and x once a stored entry (padding
    included), y written once."""
    stored, columns, width = _ellpack(rows)
    ptr, values, cols = _banded_csr(rows)
    x = np.random.default_rng(14).random(rows)
    expected = np.add.reduceat(values * x[cols], ptr[:-1].astype(np.int64))
    sizes = {"R": rows, "E": len(stored), "N": rows}
    inputs = {"V": stored, "C": columns, "X": x, "w": width, "n": rows, "vlo": 0, "xlo": 0}
    times, outputs, tuned = _generated(device, ELL_PROGRAM, inputs, sizes, rows, repeat=repeat)
    arrays = [stored, columns, x, np.zeros(rows)]
    scalars = [np.int32(rows), np.int32(width)]
    times["reference"], outputs["reference"] = _sparse_reference(
        device, "spmv_ell", arrays, scalars, repeat
    )
    traffic = (12 + 8) * len(stored) + 8 * rows
    shape = {"rows": rows, "width": width, "stored_entries": len(stored)}
    return {**_sparse_row("ell", shape, times, outputs, expected, traffic=traffic), "tuned": tuned}


def _scan_reference(
    device: Device, x: np.ndarray, repeat: int
) -> tuple[dict[str, float], np.ndarray]:
    cl = device.cl
    n, local = len(x), 256
    groups = -(-n // local)
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    source = (REFERENCES / "scan_blocks.cl").read_text()
    program = cl.Program(device.context, source).build()
    x_buf = cl.Buffer(device.context, flags, hostbuf=x)
    totals = np.zeros(groups, dtype=np.int32)
    totals_buf = cl.Buffer(device.context, flags, hostbuf=totals)
    out = np.zeros(n, dtype=np.int32)
    out_buf = cl.Buffer(device.context, flags, hostbuf=out)
    shape = ((groups * local,), (local,))
    first = cl.Kernel(program, "scan_block_totals")
    first_times = _timed(device, first, shape, [x_buf, totals_buf, np.int32(n)], repeat)
    cl.enqueue_copy(device.queue, totals, totals_buf)
    starts = _exclusive(totals)
    starts_buf = cl.Buffer(device.context, flags, hostbuf=starts)
    second = cl.Kernel(program, "scan_blocks")
    second_times = _timed(device, second, shape, [x_buf, starts_buf, out_buf, np.int32(n)],
                          repeat)  # fmt: skip
    cl.enqueue_copy(device.queue, out, out_buf)
    device.queue.finish()
    times = {"totals": statistics.median(first_times), "blocks": statistics.median(second_times)}
    return times, out


def _scan_one_pass_reference(
    device: Device, x: np.ndarray, repeat: int
) -> tuple[dict[str, float], np.ndarray]:
    """The hand-written one-pass scan (lift_reference/scan_one_pass.cl): its median
    time, its status words zeroed before each launch (not counted), and its output."""
    cl = device.cl
    n, block = len(x), 1024
    blocks = -(-n // block)
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    program = cl.Program(device.context, (REFERENCES / "scan_one_pass.cl").read_text()).build()
    x_buf = cl.Buffer(device.context, flags, hostbuf=x)
    out = np.zeros(n, dtype=np.int32)
    out_buf = cl.Buffer(device.context, flags, hostbuf=out)
    status_bytes = 8 * (blocks + 1)
    status = cl.Buffer(device.context, cl.mem_flags.READ_WRITE, status_bytes)
    zero = np.zeros(1, np.uint8)
    kernel = cl.Kernel(program, "scan_one_pass")
    args = [x_buf, out_buf, status, np.int32(n), np.int32(blocks)]
    times = _timed(device, kernel, ((blocks * 256,), (256,)), args, repeat,
                   before=lambda: cl.enqueue_fill_buffer(device.queue, status, zero, 0,
                                                         status_bytes))  # fmt: skip
    cl.enqueue_copy(device.queue, out, out_buf)
    device.queue.finish()
    return {"one_pass": statistics.median(times)}, out


def _timed(
    device: Device,
    kernel: Any,
    shape: Any,
    args: list[Any],
    repeat: int,
    *,
    before: Callable[[], Any] | None = None,
) -> list[float]:
    """Kernel times of `repeat` launches after one warm-up, in seconds; `before` enqueued
    before each (not timed)."""
    times = []
    for _ in range(repeat + 1):
        if before is not None:
            before()
        event = kernel(device.queue, shape[0], shape[1], *args)
        event.wait()
        times.append((event.profile.end - event.profile.start) * 1e-9)
    return times[1:]


def _shared(row: dict[str, Any], copy_gbs: float | None, shown: Sequence[str]) -> dict[str, Any]:
    """`row` with each figure's share of the copy kernel's bandwidth, its `shown` keys
    printed."""
    row["share_of_copy"] = {k: v / copy_gbs for k, v in row["GBs"].items()} if copy_gbs else None
    print(json.dumps({k: row[k] for k in shown}), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--scale", type=float, default=1.0, help="problem size factor")
    parser.add_argument("--budget", type=float, default=60.0, help="search seconds per case")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--cases", help="only these cases, e.g. box27,heat3d")
    args = parser.parse_args()
    device = open_device(args.device)
    rows = []
    wanted = set(args.cases.split(",")) if args.cases else None
    copy_gbs = None
    for case in cases(args.scale):
        if wanted and case.name not in wanted and case.name != "copy":
            continue
        row = measure_case(device, case, args.budget, args.repeat)
        if case.name == "copy":
            copy_gbs = row["GBs"]["reference"]
        row["share_of_copy"] = (
            {k: v / copy_gbs for k, v in row["GBs"].items()} if copy_gbs else None
        )
        rows.append(row)
        summary = {k: row[k] for k in ("case", "GBs", "share_of_copy", "best", "search_seconds")}
        print(json.dumps(summary), flush=True)
    for bins in (256, 65536):
        if wanted and f"histogram{bins}" not in wanted:
            continue
        row = measure_histogram(device, int(2**25 * args.scale), bins, args.repeat)
        rows.append(_shared(row, copy_gbs, ("case", "GBs", "outputs_equal")))
    shown = ("case", "GBs", "share_of_copy", "outputs_equal")
    if not wanted or "scan" in wanted:
        row = measure_scan(device, int(2**25 * args.scale), args.repeat)
        rows.append(_shared(row, copy_gbs, shown))
    if wanted and "scan_one_pass" in wanted:  # asked for by name only
        row = measure_scan_one_pass(device, int(2**25 * args.scale), args.repeat)
        rows.append(_shared(row, copy_gbs, shown))
    if wanted and "spmv_row_lengths" in wanted:  # asked for by name only
        row = measure_spmv_row_lengths(device, int(2**24 * args.scale), args.repeat)
        rows.append(row)
    if wanted and "scan_calls" in wanted:  # asked for by name only
        exponents = [e for e in range(14, 26, 2)] + [25]
        row = measure_scan_calls(device, exponents, args.repeat)
        rows.append(row)
        print(json.dumps(row), flush=True)
    sparse = {"spmv": measure_spmv, "jds": measure_jds, "ell": measure_ell,
              "spmv_long_rows": measure_spmv_long_rows}  # fmt: skip
    for name, measure in sparse.items():
        if wanted and name not in wanted:
            continue
        if name == "spmv_long_rows" and not wanted:
            continue  # asked for by name only
        count = 75_000 if name == "spmv_long_rows" else 2**20
        row = measure(device, int(count * args.scale), args.repeat)
        row["share_of_copy"] = (
            {k: v / copy_gbs for k, v in row["GBs"].items()} if copy_gbs else None
        )
        rows.append(row)
        shown = ("case", "GBs", "share_of_copy", "outputs_equal", "close_to_numpy")
        if name == "spmv_long_rows":
            shown += ("generated_equal_to_hand_written_lanes",)
        print(json.dumps({k: row[k] for k in shown}), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    result = {"device": device.name, "copy_GBs": copy_gbs, "cases": rows}
    (args.out / "lift_kernels.json").write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
