"""The ceiling of a benchmark: stats files parsed, BLAS calls replayed, the arithmetic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from idl.errors import IdiomError
from measure.ceiling import CallStats, CeilingError, ceiling_seconds, direct_seconds, read_stats


def _call(entry: str, status: int, seconds: float, **details: object) -> CallStats:
    fields = {"entry": entry, "status": status, "seconds": seconds, **details}
    return CallStats(entry, status, seconds, fields)


LINES = [
    {"entry": "gemm", "status": 0, "seconds": 0.002, "pid": 7, "elem": 1, "m": 64, "n": 32,
     "k": 16},
    {"entry": "gemv", "status": 1, "seconds": 1e-7, "pid": 7, "elem": 0, "m": 3, "n": 3},
    {"entry": "cl_run", "status": 0, "seconds": 0.5, "pid": 8, "kernel": "vadd",
     "device": 'dev "x" (R)', "global": [1024, 2], "kernel_seconds": 0.125,
     "transfer_seconds": 0.01, "build_seconds": 0},
]  # fmt: skip


def test_read_stats_parses_each_line(tmp_path: Path) -> None:
    path = tmp_path / "stats.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in LINES[:2]) + "\n\n")
    with path.open("a") as stream:  # a second process appends
        stream.write(json.dumps(LINES[2]) + "\n")
    calls = read_stats(path)
    assert [(c.entry, c.status, c.seconds) for c in calls] == [
        ("gemm", 0, 0.002),
        ("gemv", 1, 1e-7),
        ("cl_run", 0, 0.5),
    ]
    assert [c.done for c in calls] == [True, False, True]
    assert calls[0].details["k"] == 16
    assert calls[2].details["device"] == 'dev "x" (R)'
    assert calls[2].details["global"] == [1024, 2]
    assert read_stats(tmp_path / "absent.jsonl") == []  # no call made, no file


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"entry": "gemm", "status": 0, "seconds": 1', "not a JSON line"),
        ("[1, 2]", "not a JSON object"),
        ('{"status": 0, "seconds": 1}', '"entry"'),
        ('{"entry": "gemm", "status": true, "seconds": 1}', '"status"'),
        ('{"entry": "gemm", "status": 0, "seconds": -1}', '"seconds"'),
        ('{"entry": "gemm", "status": 0, "seconds": null}', '"seconds"'),
    ],
)
def test_read_stats_rejects_malformed_lines(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "stats.jsonl"
    path.write_text(json.dumps(LINES[0]) + "\n" + text + "\n")
    with pytest.raises(CeilingError, match=problem) as caught:
        read_stats(path)
    assert f"{path}:2:" in str(caught.value)
    assert isinstance(caught.value, IdiomError)


def test_direct_seconds_counts_kernels_and_only_done_calls() -> None:
    calls = [
        _call("cl_run", 0, 0.5, kernel_seconds=0.125),
        _call("cl_run", 0, 0.25, kernel_seconds=None),  # no profile: its own time
        _call("cl_run", 2, 9.0, kernel_seconds=None),  # failed: the original code ran
        _call("gemm", 1, 0.001, elem=1, m=4, n=4, k=4),  # declined
        _call("gemm", 0, 0.001, elem=1, m=0, n=4, k=4),  # empty: BLAS has nothing to do
    ]
    assert direct_seconds(calls) == pytest.approx(0.375)
    assert direct_seconds([]) == 0.0


def test_direct_seconds_replays_blas_plausibly() -> None:
    small = _call("gemm", 0, 1.0, elem=1, m=64, n=64, k=64)
    seconds = direct_seconds([small])
    # 0.5 MFLOP: more than a microsecond at 1 TFLOP/s, well under 50 ms even on a busy machine.
    assert 1e-7 < seconds < 0.05
    gemv = _call("gemv", 0, 1.0, elem=0, m=300, n=200)
    assert 0 < direct_seconds([gemv]) < 0.05
    # Each call of a shape counts: ten calls take about ten times one.
    many = direct_seconds([small] * 10)
    assert 2 * seconds < many < 0.5
    larger = direct_seconds([_call("gemm", 0, 1.0, elem=0, m=256, n=256, k=256)])
    assert larger > seconds  # 64 times the work


def test_cold_replay_times_a_first_call_in_a_process_of_its_own() -> None:
    small = _call("gemm", 0, 1.0, elem=1, m=64, n=64, k=64)
    cold = direct_seconds([small, small], cold=True)
    # The second call is the warm replay; the first came from another process, and took
    # some time (threads started, pages touched) but not seconds.
    assert 1e-7 < cold < 5.0
    assert direct_seconds([], cold=True) == 0.0
    assert ceiling_seconds(1.0, [small], cold=True) > 0.0


def test_direct_seconds_rejects_calls_without_sizes() -> None:
    with pytest.raises(CeilingError, match="'k'"):
        direct_seconds([_call("gemm", 0, 1.0, elem=1, m=4, n=4)])
    with pytest.raises(CeilingError, match="element type"):
        direct_seconds([_call("gemv", 0, 1.0, elem=5, m=4, n=4)])
    with pytest.raises(CeilingError, match="repeats"):
        direct_seconds([], repeats=0)


def test_ceiling_arithmetic() -> None:
    calls = [
        _call("cl_run", 0, 2.0, kernel_seconds=0.5),
        _call("cl_run", 0, 1.0, kernel_seconds=0.25),
        _call("gemm", 1, 0.125, elem=1, m=2, n=2, k=2),  # declined: its time stays
    ]
    assert ceiling_seconds(10.0, calls) == pytest.approx(10.0 - 3.0 + 0.75)
    assert ceiling_seconds(10.0, []) == 10.0
    assert ceiling_seconds(1.0, calls) == 0.0  # stats of another run: clamped
    with pytest.raises(CeilingError):
        ceiling_seconds(-1.0, calls)


def test_ceiling_with_replayed_gemm() -> None:
    gemm = _call("gemm", 0, 0.25, elem=1, m=64, n=64, k=64)
    ceiling = ceiling_seconds(1.0, [gemm])
    assert 0.75 < ceiling < 0.8  # 1 - 0.25 + a replay well under 50 ms


CHILD = """
import sys
sys.path.insert(0, {tests!r})
from test_runtime import _load, _gemm_status
lib = _load()
print(_gemm_status(lib, 48, 40, 32, (32, 1, 40, 1, 40, 1)))
"""


def test_stats_written_by_the_runtime_are_read(tmp_path: Path) -> None:
    from mappers.runtime.build import shared_runtime  # noqa: PLC0415

    shared_runtime()  # built before the child runs
    stats = tmp_path / "stats.jsonl"
    env = {**os.environ, "IDIOM_STATS": str(stats), "IDIOM_BLAS_MIN_WORK": "0"}
    code = CHILD.format(tests=str(Path(__file__).parents[1] / "mappers" / "runtime"))
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == ["0"]
    (call,) = read_stats(stats)
    assert (call.entry, call.status, call.done) == ("gemm", 0, True)
    assert {key: call.details[key] for key in ("elem", "m", "n", "k")} == {
        "elem": 1,
        "m": 48,
        "n": 40,
        "k": 32,
    }
    assert 0 < call.seconds < 1
    assert 0 < direct_seconds([call]) < 0.05
