"""The safety net of device residency (mappers/runtime/idiom_guard.c): host accesses that no
`idiom_host_access` call precedes still see the device's results and reach the device.

`programs/safety_net.c` calls the runtime directly and touches arrays the device holds with no
host access at all, as a program would where the compiler's placement missed one. With the
net (the default) every case prints the right values; with `IDIOM_SAFETY_NET=0` the same
program reads stale bytes, which shows the cases test the net and nothing else.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mappers.accelerate import accelerate
from mappers.runtime.build import RUNTIME_DIR, runtime_library
from matcher.frontend import CompileOptions, find_tool

PROGRAM = Path(__file__).parent / "programs" / "safety_net.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runtime = runtime_library()
    built = tmp_path_factory.mktemp("safety_net") / "safety_net"
    sources = [f"-I{RUNTIME_DIR}", str(PROGRAM), str(runtime.archive)]
    subprocess.run(
        [find_tool("clang"), "-O2", *sources, "-o", str(built), *runtime.link_args], check=True
    )
    return built


def _run(
    binary: Path, *args: str, net: bool = True, stats: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("IDIOM_")}
    env |= ON_POCL | ({} if net else {"IDIOM_SAFETY_NET": "0"})
    env |= {"IDIOM_STATS": str(stats)} if stats is not None else {}
    return subprocess.run(
        [str(binary), *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def _records(stats: Path, key: str, value: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in stats.read_text().splitlines()]
    return [row for row in rows if row.get(key) == value]


# Sizes: under a page (all edge), one page exactly, many pages; offsets: on a page, or not.
SHAPES = [("1", "0"), ("100", "3"), ("512", "0"), ("5000", "0"), ("5000", "7"), ("70000", "1")]


@pytest.mark.parametrize("case", ["read", "write", "edges"])
@pytest.mark.parametrize(("n", "offset"), SHAPES)
def test_unforeseen_host_accesses_see_the_right_bytes(
    binary: Path, case: str, n: str, offset: str
) -> None:
    result = _run(binary, case, n, offset)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("ok")


@pytest.mark.parametrize("case", ["read", "write"])
def test_without_the_net_the_same_accesses_go_wrong(binary: Path, case: str) -> None:
    result = _run(binary, case, "5000", "0", net=False)
    assert "wrong" in result.stdout, result.stdout + result.stderr


def test_a_real_fault_still_ends_the_program(binary: Path) -> None:
    result = _run(binary, "segv", "5000", "0")
    assert result.returncode == -signal.SIGSEGV, result.stdout + result.stderr


def test_only_the_partial_pages_travel_again(binary: Path, tmp_path: Path) -> None:
    """The host writes the first and last elements (on partial pages, unprotected) between two
    launches: the second launch uploads those pages' bytes, not the array."""
    stats = tmp_path / "stats.jsonl"
    result = _run(binary, "edges", "70000", "1", stats=stats)
    assert result.returncode == 0, result.stdout + result.stderr
    launches = _records(stats, "kernel", "scale")
    assert len(launches) == 2
    assert launches[0]["upload_bytes"] >= 8 * 70000
    page = os.sysconf("SC_PAGE_SIZE")
    assert 16 <= launches[1]["upload_bytes"] <= 2 * page + 64, launches[1]


@pytest.mark.parametrize("case", ["read", "write", "edges", "repeat"])
@pytest.mark.parametrize("offset", ["0", "1"])
def test_an_array_in_a_block_of_its_own_has_every_page_protected(
    binary: Path, tmp_path: Path, case: str, offset: str
) -> None:
    """malloc maps a block of 560 KB alone: the partial pages of its array hold nothing else,
    so they are protected like the others. A launch then copies nothing back (the host faults
    its way to the results), and a launch on data already there returns before its kernel has
    run (no kernel time recorded). Each case's values are right all the same."""
    stats = tmp_path / "stats.jsonl"
    result = _run(binary, case, "70000", offset, "malloc", stats=stats)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("ok")
    launches = _records(stats, "kernel", "scale")
    assert launches[0]["download_bytes"] == 0, launches[0]
    if case == "repeat":
        assert len(launches) == 3
        assert launches[1]["upload_bytes"] == 0 and launches[1]["kernel_seconds"] is None
    if case == "edges":  # the host's writes on a's partial pages faulted: a goes up again
        assert launches[1]["upload_bytes"] >= 8 * 70000


def test_partial_pages_shared_with_other_data_are_copied_back_at_once(
    binary: Path, tmp_path: Path
) -> None:
    """aligned_alloc's block is not mapped for the array alone: its partial pages go back
    after the launch that writes them, which therefore waits for its kernel."""
    stats = tmp_path / "stats.jsonl"
    result = _run(binary, "repeat", "70000", "1", stats=stats)
    assert result.returncode == 0, result.stdout + result.stderr
    launches = _records(stats, "kernel", "scale")
    assert all(launch["download_bytes"] > 0 for launch in launches)
    assert all(launch["kernel_seconds"] is not None for launch in launches)


THREADED = r"""
#include <pthread.h>
#include <stdio.h>
static double x[100000];
static void *work(void *arg) { (void)arg; return NULL; }
double total(int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, work, NULL);
    pthread_join(t, NULL);
    for (int i = 0; i < 100000; i++)
        x[i] = i % 3;
    printf("%.1f\n", total(100000));
    return 0;
}
"""


def test_a_program_with_threads_is_built_without_residency(tmp_path: Path) -> None:
    source = tmp_path / "threaded.c"
    source.write_text(THREADED)
    built = accelerate([source], tmp_path / "threaded", CompileOptions(), link_flags=["-lpthread"])
    assert built.replaced == 1
    assert built.residency_refused == "the program creates threads (pthread_create)"
    ir = accelerate([source], tmp_path / "threaded.ll", CompileOptions(), emit_llvm=True)
    assert ir.residency_refused is not None
    assert "idiom_residency_on" not in (tmp_path / "threaded.ll").read_text()
    result = _run(tmp_path / "threaded")
    assert result.stdout.strip() == "99999.0", result.stderr


def test_each_resolved_fault_is_recorded(binary: Path, tmp_path: Path) -> None:
    stats = tmp_path / "stats.jsonl"
    result = _run(binary, "read", "5000", "0", stats=stats)
    assert result.returncode == 0, result.stdout + result.stderr
    faults = _records(stats, "entry", "host_fault")
    assert len(faults) == 1  # the first read of b drops its copy; the rest read the host's
    assert faults[0]["download_bytes"] >= 4096  # b's whole pages came back
