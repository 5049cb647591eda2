"""Operand bounds remembered while the operand is unchanged (mappers/runtime/idiom_watch.c).

`programs/watch_bounds.c` lets a GEMV's bound be remembered, then writes huge entries into
the matrix in one way per case (a store, read(2), memcpy, the bytes on the partial first and
last pages, a forked child's copy, pages shared by two remembered ranges): the next call
must decline, as it does only if the bound is read again.
"""

from __future__ import annotations

import ctypes
import os
import platform
import re
import subprocess
from pathlib import Path

import pytest

from mappers.runtime.build import RUNTIME_DIR, runtime_library
from matcher.frontend import find_tool

PROGRAM = Path(__file__).parents[1] / "programs" / "watch_bounds.c"
WRITTEN = [
    "store",
    "system call",
    "memcpy",
    "first partial page",
    "last partial page",
    "forked child",
    "overlapping: whole",
    "overlapping: half",
]
LINE = re.compile(r"^(?P<case>[^:]+(?:: \w+)?): (?P<status>made|declined), remembered (?P<n>\d+)$")


SYS_USERFAULTFD = {"x86_64": 323, "aarch64": 282}
UFFD_API, UFFDIO_API = 0xAA, 0xC018AA3F  # _IOWR(0xAA, 0x3F, struct uffdio_api)
WP_ASYNC, WP_UNPOPULATED = 1 << 15, 1 << 13


def _kernel_watches_memory() -> bool:
    """Whether this kernel offers what idiom_watch.c needs, asked apart from the runtime."""
    number = SYS_USERFAULTFD.get(platform.machine())
    if number is None:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    descriptor = libc.syscall(number, os.O_CLOEXEC | 1)  # UFFD_USER_MODE_ONLY
    if descriptor < 0:
        return False
    api = (ctypes.c_uint64 * 3)(UFFD_API, WP_ASYNC | WP_UNPOPULATED, 0)
    granted = libc.ioctl(descriptor, ctypes.c_ulong(UFFDIO_API), api) == 0
    os.close(descriptor)
    return granted and api[1] & WP_ASYNC != 0


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runtime = runtime_library()
    built = tmp_path_factory.mktemp("watch") / "watch_bounds"
    subprocess.run(
        [find_tool("clang"), "-O2", f"-I{RUNTIME_DIR}", str(PROGRAM), str(runtime.archive),
         "-o", str(built), *runtime.link_args],
        check=True,
    )  # fmt: skip
    return built


def _run(binary: Path, **settings: str) -> tuple[dict[str, tuple[str, int]], str]:
    """Each case's status and count of remembered bounds, and the runtime's trace."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("IDIOM_")}
    env |= {"IDIOM_VERBOSE": "1", **settings}
    run = subprocess.run(
        [str(binary), str(binary.with_name("scratch"))],
        capture_output=True, text=True, env=env, timeout=120, check=True,
    )  # fmt: skip
    cases = {}
    for line in run.stdout.splitlines():
        match = LINE.match(line)
        assert match is not None, line
        cases[match["case"]] = (match["status"], int(match["n"]))
    assert sorted(cases) == sorted([*WRITTEN, "parent after child"])
    return cases, run.stderr


@pytest.fixture(scope="module")
def outcome(binary: Path) -> tuple[dict[str, tuple[str, int]], str]:
    return _run(binary)


def test_a_written_matrix_has_its_bound_read_again(
    outcome: tuple[dict[str, tuple[str, int]], str],
) -> None:
    cases, _ = outcome
    for case in WRITTEN:
        assert cases[case][0] == "declined", case
    # the parent's matrix is unchanged by its child's write: made, on its remembered bound
    assert cases["parent after child"][0] == "made"


def test_an_unchanged_matrix_has_its_bound_remembered(
    outcome: tuple[dict[str, tuple[str, int]], str],
) -> None:
    cases, trace = outcome
    if not _kernel_watches_memory():
        pytest.skip("this kernel cannot watch memory for writes (the bounds are read each call)")
    assert "userfaultfd (asynchronous write protection)" in trace
    for case in WRITTEN:
        assert cases[case][1] >= 2, case


def test_without_the_watch_every_call_reads_its_bound(binary: Path) -> None:
    cases, trace = _run(binary, IDIOM_WATCH="0")
    assert "unavailable" in trace
    assert all(remembered == 0 for _, remembered in cases.values())
    assert [status for status, _ in cases.values()].count("made") == 1
