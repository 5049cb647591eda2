"""IDIOM_DEVICE=auto's cost model (mappers/runtime/idiom_policy.h), on PoCL.

`IDIOM_AUTO_DEVICE=cpu` makes `auto` weigh the CPU OpenCL device as it weighs a GPU. The
model's constants are set so that its choices do not depend on how fast this machine is: a
loop iteration costs 1 us on the host (a launch of 10,000 iterations is 10 ms, far above any
launch's own cost) and 80 kB take 25 ms to upload (40 kB written on the device, 12.5 ms to
bring back), so a window of data kept on the device pays for its copies after four
launches; loading the OpenCL platform costs nothing but where a test says. Each scenario
runs in a child process: the model's state (its sites, what it loaded) lives as long as the
process.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mappers.accelerate import Accelerated
from mappers.runtime.build import shared_runtime
from tests.mappers.differential import build_pair, same_outputs

DONE, DECLINED = 0, 1

CHILD = r"""
import ctypes, json, sys, time
import numpy as np
sys.path.insert(0, {tests!r})
from test_runtime import ARG_IN, ARG_OUT, ARG_SCALAR, IdiomArg, _cl_run, _load, _ptr
lib = _load({library!r})
lib.idiom_host_access.argtypes = []
lib.idiom_residency_on()
RESIDENT = 1
SCALE = b'''
__kernel void scale_{{tag}}(__global const float *a, long a_at, __global float *b, long b_at,
                          int n) {{
  __global const float *x = (__global const float *)((__global const char *)a + a_at);
  __global float *y = (__global float *)((__global char *)b + b_at);
  int i = get_global_id(0);
  if (i < n) y[i] = 2.0f * x[i];
}}
'''
n = 10000
a = np.arange(n, dtype=np.float32)
b = np.zeros(n, np.float32)
count = ctypes.c_int32(n)
scalar = IdiomArg(ARG_SCALAR, 0, ctypes.addressof(count), 4)
c = np.arange(n, dtype=np.float32)
d = np.zeros(n, np.float32)
pairs = {{"main": (a, b), "product": (c, d), "apart": (c, d)}}
CONTINUES = 2
SWEEP = b'''
__kernel void sweep(__global const float *a, long a_at, __global float *b, long b_at, int n) {{
  __global const float *x = (__global const float *)((__global const char *)a + a_at);
  __global float *y = (__global float *)((__global char *)b + b_at);
  int i = get_global_id(0);
  if (i < n) y[i] = 0.5f * (x[i + 63] + x[i + 65]);
}}
'''
e = np.arange(n, dtype=np.float32) % 7
f = e.copy()
inner = ctypes.c_int32(n - 128)
def sweep(work, forward):
    # The interior of one grid from the whole of the other, then back: each sweep reads
    # the boundary of the grid the sweep before wrote only inside.
    x, y = (e, f) if forward else (f, e)
    args = [IdiomArg(ARG_IN, RESIDENT, _ptr(x), x.nbytes),
            IdiomArg(ARG_OUT, RESIDENT, _ptr(y) + 256, y.nbytes - 512),
            IdiomArg(ARG_SCALAR, 0, ctypes.addressof(inner), 4)]
    status = _cl_run(lib, SWEEP, "sweep", [n - 128], args, work=work)
    if status != 0:
        lib.idiom_host_access()
        y[64:n - 64] = 0.5 * (x[63:n - 65] + x[65:n - 63])
    return status
def launch(work, tag="main"):
    x, y = pairs.get(tag, (a, b))
    flags = RESIDENT | (CONTINUES if tag == "follow" else 0)
    args = [IdiomArg(ARG_IN, flags, _ptr(x), x.nbytes),
            IdiomArg(ARG_OUT, RESIDENT, _ptr(y), y.nbytes), scalar]
    status = _cl_run(lib, SCALE.replace(b"{{tag}}", tag.encode()), "scale_" + tag, [n], args,
                     work=work)
    if status == 0 and tag == "costly":  # a launch that costs the host 20 ms the model misses
        time.sleep(0.02)
    if status != 0:  # the original loop, as a rewritten program runs it
        if tag == "slow":  # a loop that takes the host 100 ms
            time.sleep(0.1)
        if tag == "apart":  # its own arrays only, as a placed host access
            for z in (x, y):
                lib.idiom_host_access_at(ctypes.c_void_p(_ptr(z)), ctypes.c_int64(z.nbytes))
        else:
            lib.idiom_host_access()
        y[:] = 2 * x
    return status
statuses = []
sweeps = 0
for step in {plan!r}:
    if step == "host":
        lib.idiom_host_access()
        good = np.array_equal(b, 2 * a) and (not d.any() or np.array_equal(d, 2 * c))
        statuses.append("ok" if good else "wrong")
        b[:] = 0
        d[:] = 0
    elif step == "grids":  # the two grids against the host's own sweeps
        lib.idiom_host_access()
        g, h = np.arange(n, dtype=np.float32) % 7, None
        h = g.copy()
        for k in range(sweeps):
            x, y = (g, h) if k % 2 == 0 else (h, g)
            y[64:n - 64] = 0.5 * (x[63:n - 65] + x[65:n - 63])
        statuses.append("ok" if np.array_equal(e, g) and np.array_equal(f, h) else "wrong")
    elif step == "copies":  # how many copies the device holds
        statuses.append(lib.idiom_device_copies())
    elif step[0] == "sleep":
        time.sleep(step[1])
    elif step[0] == "sweep":
        statuses.append(sweep(step[1], sweeps % 2 == 0))
        sweeps += 1
    elif step[0] == "chain":  # a check, and the launch it checks for only where it ran
        _, check_work, work = step
        first = launch(-check_work, "check")
        statuses.append([first, launch(work, "product") if first == 0 else None])
    else:
        tag, work = step
        statuses.append(launch(work, tag))
lib.idiom_host_access()
print(json.dumps(statuses))
"""


def _run(tmp_path: Path, plan: list[Any], **extra: str) -> tuple[list[Any], list[dict[str, Any]]]:
    """Runs CHILD over `plan` (launches (tag, work), "host" for a host access that checks
    the results); the statuses and the cl_run records it wrote."""
    statuses, records, _ = _run_traced(tmp_path, plan, **extra)
    return statuses, records


def _run_traced(
    tmp_path: Path, plan: list[Any], **extra: str
) -> tuple[list[Any], list[dict[str, Any]], str]:
    """`_run`, and what the runtime wrote on standard error."""
    stats = tmp_path / "stats.jsonl"
    stats.unlink(missing_ok=True)
    env = {
        **os.environ,
        "IDIOM_DEVICE": "auto",
        "IDIOM_AUTO_DEVICE": "cpu",
        "IDIOM_SAFETY_NET": "0",
        "IDIOM_CACHE_DIR": str(tmp_path / "cache"),
        "IDIOM_STATS": str(stats),
        "IDIOM_HOST_NS_PER_WORK": "1000",
        "IDIOM_TRANSFER_GBS": "0.0032",
        "IDIOM_START_UP_MS": "0",
        "IDIOM_AUTO_AS_COMPILED": "0",
        **extra,
    }
    code = CHILD.format(tests=str(Path(__file__).parent), library=str(shared_runtime()), plan=plan)
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in stats.read_text().splitlines()]
    cl_runs = [r for r in records if r["entry"] == "cl_run"]
    return json.loads(result.stdout), cl_runs, result.stderr


def _reasons(records: list[dict[str, Any]]) -> list[str]:
    return [r["policy"] for r in records]


WINDOW = [("main", 10000)] * 8 + ["host"]


def test_a_window_rents_then_uploads_and_stays(tmp_path: Path) -> None:
    # The window's cost: its upload, 25 ms, and the 40 kB of b it writes, which go back
    # when the host looks, 12.5 ms; each launch saves about 10 ms.
    statuses, records = _run(tmp_path, WINDOW)
    assert statuses == [DECLINED] * 3 + [DONE] * 5 + ["ok"]
    assert _reasons(records) == [
        *["declined: the upload is not paid yet"] * 3,
        "declined enough to pay the upload",
        *["data on the device"] * 4,
    ]
    uploads = [r["upload_bytes"] for r in records[3:]]
    assert uploads[0] >= 40000  # a at least (b is an output: it need not go up)
    assert uploads[1:] == [0] * 4
    # Running the loop on the host costs its iterations, and then also copying back the
    # 40 kB of b that the device wrote.
    estimates = [r["host_estimate_seconds"] for r in records]
    assert estimates == pytest.approx([0.01] * 4 + [0.01 + 40000 / 3.2e6] * 4)


def test_a_site_whose_window_paid_uploads_at_once_and_remembers_it(tmp_path: Path) -> None:
    statuses, records = _run(tmp_path, [*WINDOW, ("main", 10000), "host"])
    assert statuses[-2:] == [DONE, "ok"]
    assert _reasons(records)[-1] == "its data stayed on the device before"
    (remembered,) = (tmp_path / "cache" / "policy").iterdir()
    # The next run of the same program on the same device starts from what this one learnt.
    statuses, records = _run(tmp_path, [("main", 10000), "host"])
    assert statuses == [DONE, "ok"]
    assert _reasons(records) == ["its data stayed on the device before"]
    # A damaged file is not trusted: the rental starts again.
    remembered.write_bytes(b"IDIOMPL1" + b"\xff" * 40)
    statuses, records = _run(tmp_path, [("main", 10000), "host"])
    assert statuses == [DECLINED, "ok"]
    assert _reasons(records) == ["declined: the upload is not paid yet"]


def test_windows_that_fall_short_make_the_next_rental_dearer_by_their_shortfall(
    tmp_path: Path,
) -> None:
    # The host takes the data back after every launch: each window saves one launch, 10 ms,
    # of the 37.5 ms it paid (3.75 times short). The first rental comes after 3 declines;
    # the next must lose 3.75 times the upload (14 declines), not twice it (8).
    statuses, records = _run(tmp_path, [("main", 10000), "host"] * 30)
    launched = [k for k, status in enumerate(statuses[::2]) if status == DONE]
    assert launched == [3, 18], _reasons(records)


def test_a_site_that_never_rented_rents_as_dearly_as_the_program_taught(
    tmp_path: Path,
) -> None:
    # `main`'s first window falls 3.75 times short (as above), which its next call shows;
    # `product`, on other arrays, has not rented yet: alone it uploads after 3 declines,
    # like `main`'s first; after `main`'s short window it must first lose 3.75 times its
    # upload, as `main`'s second rental must (14 declines).
    plan = [("main", 10000), "host"] * 10 + [("product", 10000), "host"] * 20
    statuses, records = _run(tmp_path, plan)
    launched = [k for k, status in enumerate(statuses[::2]) if status == DONE]
    assert launched == [3, 10 + 14], _reasons(records)
    (tmp_path / "alone").mkdir()
    alone, _ = _run(tmp_path / "alone", [("product", 10000), "host"] * 20)
    assert [k for k, status in enumerate(alone[::2]) if status == DONE] == [3, 18]


def test_a_launch_that_adds_to_its_data_on_the_device_continues_the_window(
    tmp_path: Path,
) -> None:
    """Sweeps back and forth between two grids (corpus/stencil_3d27_global.c): each reads
    the boundary of the grid the sweep before wrote only inside, a few bytes to upload
    beside the grids already there. Counted as the end of the window, each rental ended
    after one sweep and made the next one dearer; now the grids stay after the rental."""
    statuses, records = _run(tmp_path, [("sweep", 10000)] * 20 + ["grids"])
    assert statuses[-1] == "ok"
    first = statuses.index(DONE)
    assert statuses[first:-1] == [DONE] * (20 - first), _reasons(records)
    assert first <= 4


def test_large_launches_go_at_once_and_tiny_ones_stay(tmp_path: Path) -> None:
    plan = [("large", 2_000_000), "host", ("tiny", 5), "host"]
    statuses, records = _run(tmp_path, plan, IDIOM_GPU_MIN_WORK="1000000")
    assert statuses == [DONE, "ok", DECLINED, "ok"]
    assert _reasons(records) == ["large", "declined: the host is faster"]


def test_copies_no_launch_uses_go_back_at_a_declined_launch(tmp_path: Path) -> None:
    # The window leaves a and b on the device. A launch of other arrays declined at once
    # (its loop then touching its own arrays only) keeps them; one declined after a pause
    # of no launch (over IDLE_RELEASE_S, half a second) brings them back, so that the host's own
    # accesses stop calling the runtime; b is the device's.
    plan = [
        *WINDOW[:-1],
        "copies",
        ("apart", 5),
        "copies",
        ("sleep", 1.0),
        ("apart", 5),
        "copies",
        "host",
    ]
    statuses, _ = _run(tmp_path, plan)
    assert statuses[:8] == [DECLINED] * 3 + [DONE] * 5
    held, first, still, second, released, checked = statuses[8:]
    assert first == second == DECLINED
    assert held > 0 and still == held
    assert released == 0
    assert checked == "ok"


def test_a_loop_over_large_arrays_is_weighed_by_the_memory_it_streams(tmp_path: Path) -> None:
    # 10,000 iterations at 0.001 ns are nothing, but the loop streams a and b, 80 kB, which
    # at 4 MB/s take the host 20 ms: the launch pays its upload at once.
    extra = {"IDIOM_HOST_NS_PER_WORK": "0.001", "IDIOM_HOST_GBS": "0.004"}
    statuses, records = _run(tmp_path, WINDOW, **extra)
    assert records[0]["host_estimate_seconds"] == pytest.approx(0.02)
    assert statuses[-1] == "ok" and statuses.count(DONE) >= 4


def test_a_launch_that_finishes_another_goes_where_that_one_went(tmp_path: Path) -> None:
    # A reduction's final fold reads the partials its first kernel wrote: declining it alone
    # would waste the first launch, taking it alone would be pointless.
    plan = [("tiny", 5), ("follow", 10000), ("large", 2_000_000), ("follow", 5), "host"]
    statuses, records = _run(tmp_path, plan, IDIOM_GPU_MIN_WORK="1000000")
    assert statuses == [DECLINED, DECLINED, DONE, DONE, "ok"]
    assert _reasons(records) == [
        "declined: the host is faster",
        "declined: the launch it finishes declined",
        "large",
        "finishes the launch before",
    ]


def test_the_platform_loads_once_the_launches_would_have_gained_its_start_up(
    tmp_path: Path,
) -> None:
    # Copies cost nothing; each launch would gain about 10 ms, the platform's start-up is
    # 100 ms, of which the launches must gain a quarter (25 ms) before it is loaded: the first
    # two launches decline, the third loads it.
    plan = [("main", 10000)] * 4 + ["host"]
    statuses, records = _run(tmp_path, plan, IDIOM_TRANSFER_GBS="1000", IDIOM_START_UP_MS="100")
    assert statuses == [DECLINED, DECLINED, DONE, DONE, "ok"]
    assert _reasons(records) == [
        "declined: the platform's start-up is not paid yet",
        "declined: the platform's start-up is not paid yet",
        "declined enough to pay the upload",
        "data on the device",
    ]


def test_a_program_whose_launches_paid_the_start_up_loads_the_platform_at_once(
    tmp_path: Path,
) -> None:
    # The first run declines two launches (25 ms rented of the 100 ms start-up), then
    # gains 140 ms with fourteen: more than the start-up, which the next run does not wait
    # for. That run gains 20 ms with its two launches, less than the start-up: the run after
    # it waits until its launches would have gained all of it (the eleventh: each would gain
    # a little under 10 ms).
    start_up = {"IDIOM_TRANSFER_GBS": "1000", "IDIOM_START_UP_MS": "100"}
    statuses, _ = _run(tmp_path, [("main", 10000)] * 16 + ["host"], **start_up)
    assert statuses == [DECLINED] * 2 + [DONE] * 14 + ["ok"]
    statuses, _ = _run(tmp_path, [("main", 10000)] * 2 + ["host"], **start_up)
    assert statuses == [DONE] * 2 + ["ok"]
    statuses, _ = _run(tmp_path, [("main", 10000)] * 12 + ["host"], **start_up)
    assert statuses == [DECLINED] * 10 + [DONE] * 2 + ["ok"]


def test_the_platform_is_loaded_ahead_where_the_last_run_paid_for_it(tmp_path: Path) -> None:
    # As above: the first run pays for the start-up, so the next ones load the platform at
    # their first launch; with IDIOM_LOAD_AHEAD=0 there (a run that pays again), else from the
    # program's start, on a thread: the launches find it loaded. That run gains too little,
    # so the one after it does not load it ahead.
    start_up = {"IDIOM_TRANSFER_GBS": "1000", "IDIOM_START_UP_MS": "100", "IDIOM_VERBOSE": "1"}
    ahead = "the OpenCL platform of the CPU device was loaded ahead"
    statuses, _, trace = _run_traced(tmp_path, [("main", 10000)] * 16 + ["host"], **start_up)
    assert statuses == [DECLINED] * 2 + [DONE] * 14 + ["ok"]
    assert ahead not in trace
    off = {**start_up, "IDIOM_LOAD_AHEAD": "0"}
    statuses, _, trace = _run_traced(tmp_path, [("main", 10000)] * 16 + ["host"], **off)
    assert statuses == [DONE] * 16 + ["ok"]
    assert ahead not in trace
    # (a pause first: a launch that takes the lock before the thread loads the platform itself)
    plan = [("sleep", 0.5)] + [("main", 10000)] * 2 + ["host"]
    statuses, records, trace = _run_traced(tmp_path, plan, **start_up)
    assert statuses == [DONE] * 2 + ["ok"]
    assert ahead in trace
    assert records[0]["at"] > 0
    statuses, _, trace = _run_traced(tmp_path, [("main", 10000)] * 12 + ["host"], **start_up)
    assert statuses == [DECLINED] * 10 + [DONE] * 2 + ["ok"]
    assert ahead not in trace


def test_a_program_whose_launches_did_not_pay_the_start_up_waits_for_all_of_it(
    tmp_path: Path,
) -> None:
    # The first run loads the platform at its third launch and gains 60 ms with six, less
    # than the 100 ms start-up: the next run declines until its launches would have gained
    # the whole start-up, so a run of eight never loads it.
    start_up = {"IDIOM_TRANSFER_GBS": "1000", "IDIOM_START_UP_MS": "100"}
    statuses, _ = _run(tmp_path, [("main", 10000)] * 8 + ["host"], **start_up)
    assert statuses == [DECLINED] * 2 + [DONE] * 6 + ["ok"]
    statuses, records = _run(tmp_path, [("main", 10000)] * 8 + ["host"], **start_up)
    assert statuses == [DECLINED] * 8 + ["ok"]
    assert set(_reasons(records)) == {"declined: the platform's start-up is not paid yet"}


def test_without_a_device_auto_never_launches(tmp_path: Path) -> None:
    vendors = tmp_path / "vendors"
    vendors.mkdir()  # no OpenCL platform at all
    statuses, records = _run(tmp_path, WINDOW, OCL_ICD_VENDORS=str(vendors))
    assert statuses == [DECLINED] * 8 + ["ok"]
    # The model weighs before OpenCL is loaded; once it would launch, no device is found.
    assert all(r["status"] == DECLINED and r["device"] is None for r in records)


# ---- runs as compiled after runs that gained too little -------------------------------------

AS_COMPILED = "declined: the program runs as compiled"


def _worlds(tmp_path: Path, plan: list[Any], runs: int, **extra: str) -> list[str]:
    """Runs `plan` `runs` times with one cache: for each run, "compiled" where every launch
    declined because the program runs as compiled, else "rewritten"."""
    worlds = []
    for _ in range(runs):
        statuses, records = _run(tmp_path, plan, IDIOM_AUTO_AS_COMPILED="1", **extra)
        assert statuses[-1] == "ok"
        compiled = {r["policy"] for r in records} == {AS_COMPILED}
        worlds.append("compiled" if compiled else "rewritten")
    return worlds


def test_runs_that_gain_too_little_send_the_next_ones_to_the_compiled_loops(
    tmp_path: Path,
) -> None:
    # Launches of 5 iterations (5 us on the host) never pay: each rewritten run gains
    # nothing, and the next 1, then 2, then 4 runs run as compiled before the next try.
    # (Judged by the model's estimates alone: these runs take milliseconds, and two busy
    # cores move them by more than that.)
    plan = [("tiny", 5)] * 4 + ["host"]
    assert _worlds(tmp_path, plan, 8, IDIOM_AUTO_CHECK="0") == [
        "rewritten", "compiled", "rewritten", "compiled", "compiled", "rewritten", "compiled",
        "compiled",
    ]  # fmt: skip


def test_runs_whose_launches_pay_stay_rewritten(tmp_path: Path) -> None:
    # Sixteen launches of 10 ms on the host, their data kept on the device: the window pays
    # its upload after four, and the run gains over 100 ms, more than a twentieth of it.
    plan = [("main", 10000)] * 16 + ["host"]
    assert _worlds(tmp_path, plan, 3) == ["rewritten"] * 3


def test_a_run_that_pays_again_ends_the_runs_as_compiled(tmp_path: Path) -> None:
    # At 0.001 ns an iteration nothing pays, and the second run runs as compiled; the third
    # finds launches that pay (the host grew slower), and the runs after it stay rewritten.
    # (Judged by the model's estimates alone, IDIOM_AUTO_CHECK=0: the host's loops here take
    # no time, so the runs' own times would say the rewritten world loses.)
    plan = [("main", 10000)] * 16 + ["host"]
    fast_host = {"IDIOM_HOST_NS_PER_WORK": "0.001", "IDIOM_HOST_GBS": "1000000"}
    estimated = {"IDIOM_AUTO_CHECK": "0"}
    assert _worlds(tmp_path, plan, 2, **fast_host, **estimated) == ["rewritten", "compiled"]
    assert _worlds(tmp_path, plan, 3, **estimated) == ["rewritten"] * 3


def test_a_program_whose_run_gained_too_little_runs_its_compiled_loops(
    sweeps: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    # The sweeps stay on the host (3 us each by the model): the first run is rewritten and
    # gains nothing, so the second, with the same arguments, runs the source's own loops, in
    # the original world of the functions built twice, its guards never reached, outputs
    # equal. Other arguments are another input: their first run is rewritten.
    host = {"IDIOM_HOST_NS_PER_WORK": "0.05", "IDIOM_HOST_GBS": "1000000"}
    records = _sweep_run(sweeps, tmp_path, IDIOM_AUTO_AS_COMPILED="1", **host)
    assert len([r for r in records if r["entry"] == "cl_run"]) == 40
    records = _sweep_run(sweeps, tmp_path, IDIOM_AUTO_AS_COMPILED="1", **host)
    assert records == []  # not a call into the runtime
    records = _sweep_run(sweeps, tmp_path, ["256", "30"], IDIOM_AUTO_AS_COMPILED="1", **host)
    assert len([r for r in records if r["entry"] == "cl_run"]) == 30
    records = _sweep_run(sweeps, tmp_path, IDIOM_AUTO_AS_COMPILED="1", **host)
    assert len([r for r in records if r["entry"] == "cl_run"]) == 40  # the next try


# ---- a program: a time loop of sweeps under auto ---------------------------------------------

CORPUS = Path(__file__).resolve().parents[3] / "corpus"


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    folder = tmp_path_factory.mktemp("sweeps")
    return build_pair(CORPUS / "stencil_2d5_global.c", folder)


def _sweep_run(
    pair: tuple[Path, Path, Accelerated],
    tmp_path: Path,
    args: list[str] | None = None,
    **extra: str,
) -> list[dict[str, Any]]:
    stats = tmp_path / "sweeps.jsonl"
    stats.unlink(missing_ok=True)
    env = {
        "IDIOM_DEVICE": "auto",
        "IDIOM_AUTO_DEVICE": "cpu",
        "IDIOM_CACHE_DIR": str(tmp_path / "cache"),
        "IDIOM_STATS": str(stats),
        "IDIOM_START_UP_MS": "0",
        "IDIOM_AUTO_AS_COMPILED": "0",
        **extra,
    }
    same_outputs(pair, args or ["256", "40"], env)
    lines = stats.read_text().splitlines() if stats.exists() else []  # no call: no file
    return [json.loads(line) for line in lines]


def test_a_time_loop_moves_to_the_device_and_the_next_run_starts_there(
    sweeps: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    # 64,516 points a sweep at 1 us each: 65 ms on the host, far above a launch on data
    # kept on the device (PoCL's, even on a loaded machine); the alternating buffers stay
    # there for the whole loop.
    records = _sweep_run(sweeps, tmp_path, IDIOM_HOST_NS_PER_WORK="1000")
    reasons = [r["policy"] for r in records if r["entry"] == "cl_run"]
    assert len(reasons) == 40
    assert reasons[0] == "declined enough to pay the upload"
    assert reasons.count("data on the device") >= 38
    records = _sweep_run(sweeps, tmp_path, IDIOM_HOST_NS_PER_WORK="1000")
    reasons = [r["policy"] for r in records if r["entry"] == "cl_run"]
    assert reasons[0] == "its data stayed on the device before"
    assert all(r["status"] == DONE for r in records if r["entry"] == "cl_run")


def test_a_time_loop_stays_on_the_host_where_launches_cost_more(
    sweeps: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    # At 0.05 ns a point, and memory as fast as it comes, a sweep costs the host 3 us: no
    # launch pays, resident or not.
    records = _sweep_run(sweeps, tmp_path, IDIOM_HOST_NS_PER_WORK="0.05", IDIOM_HOST_GBS="1000000")
    launches = [r for r in records if r["entry"] == "cl_run"]
    assert len(launches) == 40
    assert {r["status"] for r in launches} == {DECLINED}


def test_a_check_is_weighed_as_the_launch_after_it(tmp_path: Path) -> None:
    # A negative work marks a check: its 100 iterations stand for 16 times as many until
    # the launch after it (10,000) shows the ratio, 100.
    plan = [("check", -100), ("main", 10000), ("check", -100), "host"]
    statuses, records = _run(tmp_path, plan, IDIOM_TRANSFER_GBS="1000")
    assert statuses == [DONE, DONE, DONE, "ok"]
    estimates = [r["host_estimate_seconds"] for r in records]
    assert estimates == pytest.approx([100 * 16e-6, 0.01, 100 * 100e-6], rel=1e-3)


def test_a_large_launch_goes_at_once_only_where_it_pays_its_copies(tmp_path: Path) -> None:
    # Above IDIOM_GPU_MIN_WORK. At 5 ns an iteration the host's loop takes 10 ms, less than
    # the window's copies (37.5 ms): it rents. At 50 ns, 100 ms: it pays them alone.
    plan = [("big", 2_000_000), "host"]
    cheap, dear = tmp_path / "cheap", tmp_path / "dear"
    cheap.mkdir()
    dear.mkdir()
    statuses, records = _run(cheap, plan, IDIOM_GPU_MIN_WORK="1000000", IDIOM_HOST_NS_PER_WORK="5")
    assert statuses == [DECLINED, "ok"]
    assert _reasons(records) == ["declined: the upload is not paid yet"]
    statuses, records = _run(dear, plan, IDIOM_GPU_MIN_WORK="1000000", IDIOM_HOST_NS_PER_WORK="50")
    assert statuses == [DONE, "ok"]
    assert _reasons(records) == ["large"]


def test_a_check_rents_with_the_launch_it_checks_for(tmp_path: Path) -> None:
    # Each round: a check (1,000 iterations, standing for 16,000 until the product shows
    # the ratio, 5), the product (5,000) where the check ran, then the host takes the data
    # back. Uploads and the way back take 12.5 ms, the loop 1 us an iteration. Round 1:
    # the check pays its upload at once (16 ms lost), the product declines (5 ms lost).
    # Round 2: the check would go, but counts its turn for the product (10 ms lost, short
    # of 12.5) and declines. Round 3: the product has lost enough: both launch.
    plan = [("chain", 1000, 5000), "host"] * 3
    # (9.6 MB/s: the upload of a and b, and b's way back, 12.5 ms.)
    statuses, records = _run(tmp_path, plan, IDIOM_TRANSFER_GBS="0.0096")
    assert statuses == [[DONE, DECLINED], "ok", [DECLINED, None], "ok", [DONE, DONE], "ok"]
    assert [(r["kernel"], r["policy"]) for r in records] == [
        ("scale_check", "declined enough to pay the upload"),
        ("scale_product", "declined: the upload is not paid yet"),
        ("scale_check", "declined: the launch it checks for has not paid its upload"),
        ("scale_check", "the launch it checks for has paid its upload"),
        ("scale_product", "declined enough to pay the upload"),
    ]


def _remembered_overheads(cache: Path) -> list[float]:
    """The launch overhead of each site the policy file remembers (idiom_policy.c's layout:
    magic, the program's 16 bytes, then 48 bytes a site: key, overhead, kernel per work,
    backoff, chain ratio, two 32-bit counts)."""
    (path,) = (p for p in (cache / "policy").iterdir() if not p.name.endswith(".runs"))
    data = path.read_bytes()
    sites = data[8 + 16 :]
    return [struct.unpack_from("<Qd", sites, at)[1] for at in range(0, len(sites), 48)]


def test_a_launch_that_does_not_wait_for_its_kernel_costs_its_host_time(tmp_path: Path) -> None:
    # The window's first launches wait for their kernels, to measure them; those after return
    # at once (their outputs stay on the device). What a launch costs the program is then its
    # own host time, less than the measured launches' wait: the site remembers the lowest.
    statuses, records = _run(tmp_path, [*WINDOW[:-1]] + [("main", 10000)] * 8 + ["host"])
    assert statuses[-1] == "ok"
    waited = [r for r in records if r["status"] == DONE and not r.get("asynchronous")]
    returned = [r for r in records if r.get("asynchronous")]
    assert waited and returned, _reasons(records)
    (overhead,) = _remembered_overheads(tmp_path / "cache")
    assert overhead <= min(r["seconds"] for r in returned)


def test_windows_that_fell_short_keep_the_platform_unloaded_at_the_next_try(
    tmp_path: Path,
) -> None:
    # The host takes the data back after every launch (a scan of an array the host rewrites
    # between calls): the first run rents the 100 ms start-up, loads the platform and opens
    # windows that save a launch each of the 37.5 ms they pay. The next run runs as
    # compiled; the one after tries the device again, its site remembering how short its
    # windows fell (its backoff, though it was never measured: every launch moved data), so
    # it rents its upload that many times slower and never loads the platform. (A site never
    # measured was not remembered: that run loaded the platform again, and lost it again.)
    plan = [("main", 10000), "host"] * 150
    start_up = {"IDIOM_START_UP_MS": "100", "IDIOM_AUTO_AS_COMPILED": "1"}
    launched = []
    for _ in range(3):
        statuses, records = _run(tmp_path, plan, **start_up)
        assert set(statuses[1::2]) == {"ok"}
        launched.append(statuses[::2].count(DONE))
    assert launched[0] >= 2 and launched[1:] == [0, 0], _reasons(records)
    assert "declined: the program runs as compiled" not in _reasons(records)
    (overhead,) = _remembered_overheads(tmp_path / "cache")
    assert overhead == -1.0


def test_a_site_whose_windows_fell_short_rents_the_start_up_by_its_share(
    tmp_path: Path,
) -> None:
    # A short run loads the platform and opens a window that the host closes after one
    # launch (as above: 3.75 times short), which sets its site's backoff. A longer run
    # (another command line: no verdict to run as compiled) rents the site's upload in about
    # 14 launches; then each launch it would make counts 1/3.75 of its 10 ms gain towards the
    # 100 ms start-up, which the run's other 26 launches do not reach. (Counted whole, ten
    # did: the platform was loaded for windows that again saved one launch of their 37.5 ms.)
    start_up = {"IDIOM_START_UP_MS": "100", "IDIOM_AUTO_AS_COMPILED": "1"}
    statuses, _ = _run(tmp_path, [("main", 10000), "host"] * 20, **start_up)
    assert statuses[::2].count(DONE) == 1
    statuses, records = _run(tmp_path, [("main", 10000), "host"] * 40, **start_up)
    assert set(statuses[1::2]) == {"ok"}
    assert statuses[::2].count(DONE) == 0, _reasons(records)
    assert "declined: the platform's start-up is not paid yet" in _reasons(records)


def test_a_short_run_that_the_estimates_say_gained_is_timed_against_the_original_world(
    tmp_path: Path,
) -> None:
    # Each launch would save 80 ms by the model, but the host's loop here takes no time and
    # each launch costs the host 20 ms: the first run loads the platform and gains by the
    # estimates, in less than four start-ups (4 x 1 s, far above the run's time even on busy
    # cores), so the second runs as compiled to be timed. The first was slower than it: that
    # counts as its loss, and the third runs as compiled too; the fourth tries again, is
    # slower than the runs as compiled, and sends the next two there.
    plan = [("costly", 80000)] * 16 + ["host"]
    worlds = _worlds(tmp_path, plan, 6, IDIOM_START_UP_MS="1000")
    assert worlds == ["rewritten", "compiled", "compiled", "rewritten", "compiled", "compiled"]


def test_a_run_faster_than_the_original_world_stays_rewritten(tmp_path: Path) -> None:
    # Each launch would save 100 ms, and the host's loop takes that: the first run loads the
    # platform (a 1 s start-up by the model) and gains in less than four start-ups (4 s, far
    # above the run's time even on busy cores); the run as compiled that times it is the
    # slower one (1.6 s), and every run after it is rewritten.
    plan = [("slow", 100000)] * 16 + ["host"]
    worlds = _worlds(tmp_path, plan, 4, IDIOM_START_UP_MS="1000")
    assert worlds == ["rewritten", "compiled", "rewritten", "rewritten"]
