"""Device residency: arrays kept on the device between launches, and the host-access calls
the rewriter places so that the host never sees a stale byte.

The runtime's switch (`idiom_residency_on`) is process-wide, so the runtime-level checks
run in a subprocess; the program-level ones run an accelerated iterative program on PoCL
against its original, in modes where the host reads and writes the arrays between
launches, and count the bytes each launch copied (IDIOM_STATS).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from mappers.accelerate import accelerate
from mappers.runtime.build import shared_runtime
from matcher.frontend import CompileOptions, find_tool
from measure.compare import first_difference
from tests.mappers.differential import library_without_maps

PROGRAM = Path(__file__).parents[1] / "programs" / "iterate.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}
# Traffic counts measure the compiler's placement: with the safety net (IDIOM_SAFETY_NET, on by
# default) the bytes on an array's partial first and last pages also travel at every launch,
# which for these arrays of a few pages is most of them (tests/mappers/test_safety_net.py).
PLACEMENT_ONLY = {"IDIOM_SAFETY_NET": "0"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("iterate")
    original, accelerated = folder / "original", folder / "accelerated"
    subprocess.run([find_tool("clang"), "-O2", str(PROGRAM), "-o", str(original)], check=True)
    report = accelerate([PROGRAM], accelerated, CompileOptions())
    # smooth's stencil, dot's reduction, and main's `total += dot(n, a, b)` over r < 5: the
    # front end infers that dot only reads its arguments (function-attrs), so LICM hoists
    # the call and the loop sums one invariant five times, a true Reduction.
    assert report.replaced == 3
    return original, accelerated


def _run(binary: Path, args: str, env: dict[str, str], stats: Path | None = None) -> str:
    extra = {"IDIOM_STATS": str(stats)} if stats is not None else {}
    result = subprocess.run(
        [str(binary), *args.split()],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, **env, **extra},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _stats(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# N STEPS SEED PEEK POKE INDIRECT (see programs/iterate.c)
MODES = [
    "1000 20 3 0 0 0",  # nothing between launches: everything stays on the device
    "1000 20 3 4 0 0",  # the host reads every 4 steps
    "1000 20 3 0 3 0",  # the host writes every 3 steps
    "1000 21 5 5 3 1",  # both, with the step called through a pointer
    "0 3 1 1 1 0",
    "1 3 1 1 1 1",
    "2 3 1 1 1 0",
    "3 4 1 1 1 0",
    "130 7 9 2 2 0",
]


@pytest.mark.parametrize("args", MODES)
def test_host_reads_and_writes_between_launches_see_the_device_results(
    builds: tuple[Path, Path], args: str
) -> None:
    original, accelerated = builds
    expected = _run(original, args, {})
    assert first_difference(expected, _run(accelerated, args, ON_POCL)) is None


def test_a_time_loop_copies_its_arrays_once(builds: tuple[Path, Path], tmp_path: Path) -> None:
    _, accelerated = builds
    kept, copied = tmp_path / "kept.jsonl", tmp_path / "copied.jsonl"
    _run(accelerated, "1000 20 3 0 0 0", ON_POCL | PLACEMENT_ONLY, kept)
    _run(accelerated, "1000 20 3 0 0 0", {**ON_POCL, "IDIOM_RESIDENT": "0"}, copied)

    def stencil_uploads(path: Path) -> list[int]:
        rows = _stats(path)
        return [r["upload_bytes"] for r in rows if r.get("kernel") == "idiom_stencil"]

    resident = stencil_uploads(kept)
    assert len(resident) == 20
    assert resident[0] >= 2 * 7984  # both arrays, once
    assert all(b < 512 for b in resident[1:]), resident  # then only the packed parameters
    assert all(b >= 2 * 7984 for b in stencil_uploads(copied))
    # The reductions read the resident arrays; the results come back once, at the end.
    rows = _stats(kept)
    first_access = next(k for k, r in enumerate(rows) if r["entry"] == "host_access")
    reductions = [r for r in rows[:first_access] if r.get("kernel") == "idiom_reduce"]
    # Before `b[0] += 3`: dot once (its call hoisted out of the r loop), then the r loop's
    # sum of that value; neither uploads more than packed parameters.
    assert len(reductions) == 2
    assert all(r["upload_bytes"] < 512 for r in reductions)
    accesses = [r for r in rows if r["entry"] == "host_access"]
    # `b[0] += 3` brings back b's copy only; the interiors the stencil wrote come back once.
    assert accesses[0]["download_bytes"] == 7984
    assert sum(r["download_bytes"] for r in accesses) == 2 * 7984


def test_partial_pages_are_sent_again_only_when_the_host_changed_them(
    builds: tuple[Path, Path], tmp_path: Path
) -> None:
    # With the safety net, the bytes on an array's partial first and last pages are not
    # protected: the host may write them unseen. They are compared with what host and device
    # last both held, and sent only when they differ: in this time loop, never again.
    _, accelerated = builds
    stats = tmp_path / "net.jsonl"
    _run(accelerated, "1000 20 3 0 0 0", ON_POCL, stats)
    uploads = [r["upload_bytes"] for r in _stats(stats) if r.get("kernel") == "idiom_stencil"]
    assert len(uploads) == 20
    assert all(b < 512 for b in uploads[1:]), uploads  # the packed parameters only


RUNTIME_SCRIPT = textwrap.dedent(
    """
    import ctypes, json, sys
    import numpy as np

    class Arg(ctypes.Structure):
        _fields_ = [("kind", ctypes.c_int32), ("flags", ctypes.c_int32),
                    ("ptr", ctypes.c_void_p), ("bytes", ctypes.c_int64)]

    lib = ctypes.CDLL(sys.argv[1])
    i64p = ctypes.POINTER(ctypes.c_int64)
    lib.idiom_cl_run.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int32, i64p, i64p,
                                 ctypes.c_int64, ctypes.c_int32, ctypes.POINTER(Arg)]
    SCALE = b'''
    #define in ((__global const double*)(in_mem + in_at))
    #define out ((__global double*)(out_mem + out_at))
    __kernel void scale(__global const char* in_mem, long in_at, __global char* out_mem,
                        long out_at) {
        size_t i = get_global_id(0);
        out[i] = 2.0 * in[i];
    }
    '''
    COPY = b'''
    __kernel void copy(__global const double* in, __global double* out) {
        size_t i = get_global_id(0);
        out[i] = in[i];
    }
    '''

    MIXED = b'''
    #define in ((__global const double*)(in_mem + in_at))
    __kernel void mixed(__global const char* in_mem, long in_at, __global double* out) {
        size_t i = get_global_id(0);
        out[i] = in[i] + 0.5;
    }
    '''

    def run(source, name, n, *args):
        array = (Arg * len(args))(*args)
        size = (ctypes.c_int64 * 1)(n)
        return lib.idiom_cl_run(source, name, 1, size, None, 0, len(args), array)

    def buf(kind, a, flags, start=0, count=None):
        count = len(a) - start if count is None else count
        return Arg(kind, flags, a.ctypes.data + 8 * start, 8 * count)

    if sys.argv[2] == "on":
        lib.idiom_residency_on()
    x = np.arange(1.0, 301.0)
    y = np.full(300, -1.0)
    assert run(SCALE, b"scale", 300, buf(0, x, 1), buf(2, y, 1)) == 0
    kept = bool((y == -1.0).all())  # not copied back: still on the device
    # A launch whose buffer is not resident sees the device's results first.
    z = np.zeros(300)
    assert run(COPY, b"copy", 300, buf(0, y, 0), buf(1, z, 0)) == 0
    assert (z == 2 * x).all(), z[:4]
    # Overlapping ranges of a new array in turn, [0, 100) then [50, 250): merged on the device.
    w = 2 * np.arange(1.0, 301.0)
    assert run(SCALE, b"scale", 100, buf(0, w, 1, 0, 100), buf(2, x, 1, 0, 100)) == 0
    assert run(SCALE, b"scale", 200, buf(0, w, 1, 50, 200), buf(2, x, 1, 100, 200)) == 0
    lib.idiom_host_access()
    expected = np.concatenate([4 * np.arange(1.0, 101.0), 4 * np.arange(51.0, 251.0)])
    assert (x == expected).all(), (x[:4], x[100:104])
    # A range around a copy with device results: the copy moves on the device, the gaps
    # around it come from the host.
    v = np.arange(1.0, 301.0)
    u = np.full(300, 3.0)
    r = np.zeros(300)
    assert run(SCALE, b"scale", 100, buf(0, v, 1, 100, 100), buf(2, u, 1, 100, 100)) == 0
    assert run(SCALE, b"scale", 300, buf(0, u, 1), buf(2, r, 1)) == 0
    lib.idiom_host_access()
    expected = np.full(300, 3.0)
    expected[100:200] = 2 * v[100:200]
    assert (u == expected).all(), (u[98:102], u[198:202])
    assert (r == 2 * expected).all(), (r[98:102], r[198:202])
    # An output that is not resident, a few bytes after a resident input: those bytes sit in
    # the input's device copy (ranges are widened) and must not come back stale in a merge.
    big = np.arange(1.0, 201.0)
    s = np.zeros(200)
    assert run(MIXED, b"mixed", 50, buf(0, big, 1, 0, 100), buf(1, big, 0, 101, 50)) == 0
    assert run(SCALE, b"scale", 200, buf(0, big, 1), buf(2, s, 1)) == 0
    lib.idiom_host_access()
    expected = np.arange(1.0, 201.0)
    expected[101:151] = expected[0:50] + 0.5
    assert (big == expected).all(), big[99:104]
    assert (s == 2 * expected).all(), s[99:104]
    print(json.dumps({"kept": kept}))
    """
)


@pytest.mark.parametrize("net", ["1", "0"])
@pytest.mark.parametrize("switch", ["on", "off"])
def test_runtime_keeps_resident_buffers_only_when_switched_on(switch: str, net: str) -> None:
    """The runtime's own rules, with the safety net and without. Without it, a result left
    on the device shows as the host's old bytes; with it, these arrays of under a page are
    all partial page and come back at once (kept shows False), and every value is right."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("IDIOM_")}
    result = subprocess.run(
        [sys.executable, "-c", RUNTIME_SCRIPT, str(shared_runtime()), switch],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**env, "IDIOM_DEVICE": "cpu", "IDIOM_SAFETY_NET": net},
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"kept": switch == "on" and net == "0"}


HOST_LOOPS = Path(__file__).parents[1] / "programs" / "host_loops.c"


@pytest.fixture(scope="module")
def host_loops(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("host_loops")
    original, accelerated = folder / "original", folder / "accelerated"
    subprocess.run([find_tool("clang"), "-O2", str(HOST_LOOPS), "-o", str(original)], check=True)
    # The loops between the launches are the host's: no map of them runs on the device.
    accelerate([HOST_LOOPS], accelerated, CompileOptions(), library_without_maps(folder))
    return original, accelerated


@pytest.mark.parametrize("mode", range(5))
@pytest.mark.parametrize("n", [0, 1, 5, 37, 1000])
def test_host_loops_between_steps_see_the_device_results(
    host_loops: tuple[Path, Path], mode: int, n: int
) -> None:
    original, accelerated = host_loops
    args = f"{n} 7 {mode}"
    expected = _run(original, args, {})
    assert first_difference(expected, _run(accelerated, args, ON_POCL)) is None


@pytest.mark.parametrize("mode", range(5))
def test_a_bounded_host_loop_brings_back_only_its_arrays(
    host_loops: tuple[Path, Path], tmp_path: Path, mode: int
) -> None:
    """After the first step the stencil uploads its parameters only (mode 0: the host loop
    touches neither array), or the one array the host loop touched (modes 1 to 4: its
    range is known before it runs, counting down or with a stride of 2 too). Loops that
    cannot be bounded are in test_host_ranges.py."""
    _, accelerated = host_loops
    stats = tmp_path / "stats.jsonl"
    _run(accelerated, f"1000 8 {mode}", ON_POCL | PLACEMENT_ONLY, stats)
    uploads = [r["upload_bytes"] for r in _stats(stats) if r.get("kernel") == "idiom_stencil"]
    one_array = 8000 + 512  # the array, its widening to 128-byte boundaries, the parameters
    if mode == 0:
        assert all(b < 512 for b in uploads[2:]), uploads
    else:
        assert all(7984 <= b < one_array for b in uploads[1:]), uploads


PARTIAL_PAGE_SCRIPT = textwrap.dedent(
    """
    import ctypes, sys
    import numpy as np
    sys.path.insert(0, sys.argv[2])
    from test_runtime import ARG_IN, ARG_OUT, ARG_SCALAR, IdiomArg, _cl_run, _load, _ptr
    lib = _load(sys.argv[1])
    lib.idiom_host_access.argtypes = []
    lib.idiom_residency_on()
    ODD = b'''
    __kernel void odd(__global const float *a, long a_at, __global float *b, long b_at, int n) {
      __global const float *x = (__global const float *)((__global const char *)a + a_at);
      __global float *y = (__global float *)((__global char *)b + b_at);
      int i = get_global_id(0);
      if (i < n && i % 2 == 1) y[i] = 2.0f * x[i];
    }
    '''
    def partial_start(n):  # n floats starting 8 bytes past a page boundary
        raw = np.zeros(n + 4096, np.float32)
        skip = (4096 - raw.ctypes.data % 4096 + 8) % 4096 // 4
        return raw[skip : skip + n]
    n = 4096
    x = np.arange(n, dtype=np.float32)
    y = partial_start(n)
    count = ctypes.c_int32(n)
    args = [IdiomArg(ARG_IN, 1, _ptr(x), x.nbytes), IdiomArg(ARG_OUT, 1, _ptr(y), y.nbytes),
            IdiomArg(ARG_SCALAR, 0, ctypes.addressof(count), 4)]
    first = _cl_run(lib, ODD, "odd", [n], args)
    y[0] = 42.0  # the host writes a byte of y's range the kernel never writes, on y's
                 # partial first page: no protection sees it
    second = _cl_run(lib, ODD, "odd", [n], args)
    lib.idiom_host_access()
    print(first, second, float(y[0]), float(y[1]))
    """
)


def test_bytes_an_output_kernel_does_not_write_keep_the_hosts_value(tmp_path: Path) -> None:
    # The kernel writes y's odd elements only; the host changed y[0] between launches. The
    # partial page holding it is refreshed from the host before the second launch, since
    # it goes back to the host with the bytes the kernel wrote.
    script = tmp_path / "partial.py"
    script.write_text(PARTIAL_PAGE_SCRIPT)
    tests = Path(__file__).resolve().parents[1] / "runtime"
    result = subprocess.run(
        [sys.executable, str(script), str(shared_runtime()), str(tests)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, **ON_POCL, "IDIOM_CACHE_DIR": str(tmp_path / "cache")},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "0", "42.0", "2.0"]
