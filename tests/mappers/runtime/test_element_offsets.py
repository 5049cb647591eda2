"""A resident buffer passed with its offset in elements (IDIOM_ARG_ELEMENTS): the kernel
indexes a typed pointer to the device buffer by it; a start inside an element fails the
launch, so that the original code runs.

Each case loads its own copy of the runtime library with residency on, on PoCL."""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.mappers.runtime.test_runtime import (
    ARG_IN,
    ARG_OUT,
    ARG_SCALAR,
    DONE,
    IdiomArg,
    load_fresh,
)

FAILED = 2
RESIDENT = 1


def elements(shift: int) -> int:
    """IDIOM_ARG_ELEMENTS(shift) of idiom_runtime.h."""
    return (shift + 1) << 8


# The offset taken as a count of floats: right only where the runtime passes it so.
SOURCE = b"""
__kernel void pick(__global const char* a_mem, long a_at, __global float* out, long n) {
  __global const float* a = ((__global const float*)a_mem) + a_at;
  const long i = get_global_id(0);
  if (i < n) out[i] = a[i];
}
"""


def _pick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: int, flags: int) -> Any:
    """Launch `pick` of 100 floats from `start` bytes into an array of 256, resident with
    `flags`: its status and output."""
    monkeypatch.setenv("IDIOM_DEVICE", "cpu")
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("IDIOM_STATS", "IDIOM_VERBOSE"):
        monkeypatch.delenv(name, raising=False)
    lib = load_fresh(tmp_path)
    lib.idiom_residency_on()
    source = np.arange(256, dtype=np.float32)
    n = 100
    out = np.full(n, -1.0, dtype=np.float32)
    count = ctypes.c_int64(n)
    args = (IdiomArg * 3)(
        IdiomArg(ARG_IN, RESIDENT | flags, int(source.ctypes.data) + start, 4 * n),
        IdiomArg(ARG_OUT, 0, int(out.ctypes.data), out.nbytes),
        IdiomArg(ARG_SCALAR, 0, ctypes.addressof(count), 8),
    )
    size = (ctypes.c_int64 * 1)(n)
    status = lib.idiom_cl_run(SOURCE, b"pick", 1, size, None, n, 3, args)
    return status, out, source


@pytest.mark.parametrize("first", [0, 5, 37])
def test_an_offset_in_elements_reads_from_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: int
) -> None:
    status, out, source = _pick(tmp_path, monkeypatch, 4 * first, elements(2))
    assert status == DONE
    np.testing.assert_array_equal(out, source[first : first + 100])


def test_a_start_inside_an_element_fails_the_launch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = _pick(tmp_path, monkeypatch, 4 * 5 + 2, elements(2))
    assert status == FAILED
    assert (out == -1.0).all()  # nothing written: the original code computes it
