"""A launch whose source defines its kernel's covered twin (IDIOM_CL_COVERED_TWIN): the
runtime runs `<kernel>_covered` where the NDRange it launches has an item for every element,
and the kernel itself where a tuned shape gives an item several elements.

Each case loads its own copy of the runtime library, so that the tuning settings, read once
per process, are read again."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest

from tests.mappers.runtime.test_runtime import ARG_OUT, ARG_SCALAR, DONE, IdiomArg, load_fresh

ANY_RANGE, COVERED_TWIN = 0x100, 0x800

# The loop marks its elements 1, the twin 2: the output says which ran.
SOURCE = b"""
__kernel void mark(__global int* out, long n) {
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = 1;
}
__kernel void mark_covered(__global int* out, long n) {
  const long i = get_global_id(0);
  if (i < n) out[i] = 2;
}
"""


def _marks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: int, **env: str) -> np.ndarray:
    """The output of `mark` over 1,000 elements launched with `flags`, on PoCL, by a fresh
    copy of the runtime under `env`."""
    for name in ("IDIOM_TUNE", "IDIOM_TUNE_CANDIDATE", "IDIOM_STATS", "IDIOM_VERBOSE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("IDIOM_DEVICE", "cpu")
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(tmp_path / "cache"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    lib = load_fresh(tmp_path)
    n = 1000
    out = np.zeros(n, dtype=np.int32)
    count = ctypes.c_int64(n)
    args = (IdiomArg * 2)(
        IdiomArg(ARG_OUT, 0, int(out.ctypes.data), out.nbytes),
        IdiomArg(ARG_SCALAR, 0, ctypes.addressof(count), 8),
    )
    size = (ctypes.c_int64 * 1)(n)
    status = lib.idiom_cl_run(SOURCE, b"mark", 1 | flags, size, None, n, 2, args)
    assert status == DONE
    return out


def test_the_twin_runs_where_the_launch_covers_every_element(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marks = _marks(tmp_path, monkeypatch, ANY_RANGE | COVERED_TWIN)  # a CPU's: untuned
    assert (marks == 2).all()


def test_without_the_flag_the_kernel_itself_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (_marks(tmp_path, monkeypatch, ANY_RANGE) == 1).all()


@pytest.mark.parametrize(("candidate", "mark"), [(1, 2), (6, 1)])
def test_a_tuned_shape_runs_the_twin_only_where_it_covers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, candidate: int, mark: int
) -> None:
    """Candidate 1: groups of 64, one element an item (1,024 items); candidate 6: groups of
    256, eight elements an item (256 items, fewer than the elements)."""
    env = {"IDIOM_TUNE": "1", "IDIOM_TUNE_CANDIDATE": str(candidate)}
    marks = _marks(tmp_path, monkeypatch, ANY_RANGE | COVERED_TWIN, **env)
    assert (marks == mark).all()
