"""Small outputs read back at every call, gathered in sub-buffers of one device buffer and
brought back by one read (idiom_opencl.c `plan_gathered`): each lands where the program
asked, launch after launch, and a launch that cannot gather (an output too large, too many
of them) reads them one by one as before.

Each case loads its own copy of the runtime library, on PoCL."""

from __future__ import annotations

import ctypes
from pathlib import Path

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

# Output k holds (k + 1) * the sum of a, in `width` doubles; `big` gets a * 2 when wanted.
SOURCE = b"""
__kernel void totals(__global const double* a, long n, long width, long big_n,
                     __global double* big, OUTPUTS) {
  if (get_global_id(0) != 0) return;
  double s = 0.0;
  for (long i = 0; i < n; i++) s += a[i];
  for (long i = 0; i < big_n; i++) big[i] = a[i] * 2.0;
  STORES
}
"""


def _source(outputs: int) -> bytes:
    params = ", ".join(f"__global double* o{k}" for k in range(outputs))
    stores = " ".join(
        f"for (long w = 0; w < width; w++) o{k}[w] = {k + 1}.0 * s + w;" for k in range(outputs)
    )
    return SOURCE.replace(b"OUTPUTS", params.encode()).replace(b"STORES", stores.encode())


@pytest.mark.parametrize(
    ("outputs", "width", "big_n"),
    [(2, 1, 0), (4, 1, 0), (8, 3, 0), (9, 1, 0), (3, 2000, 0), (3, 1, 1)],
    ids=["two", "four", "eight-wide", "nine", "one-too-large", "beside-a-large-one"],
)
def test_each_output_lands_where_it_belongs_at_every_launch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outputs: int, width: int, big_n: int
) -> None:
    monkeypatch.setenv("IDIOM_DEVICE", "cpu")
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("IDIOM_STATS", "IDIOM_VERBOSE"):
        monkeypatch.delenv(name, raising=False)
    lib = load_fresh(tmp_path)
    source = _source(outputs)
    n = 64
    big = np.zeros(max(big_n, 1) * 5000)  # a large output: never gathered
    for launch in range(3):  # the slot's sub-buffers reused: nothing left from the last
        a = np.arange(n, dtype=np.float64) * (launch + 1)
        outs = [np.full(width, -1.0) for _ in range(outputs)]
        scalars = [ctypes.c_int64(v) for v in (n, width, big.size if big_n else 0)]
        args = [IdiomArg(ARG_IN, 0, int(a.ctypes.data), a.nbytes)]
        args += [IdiomArg(ARG_SCALAR, 0, ctypes.addressof(v), 8) for v in scalars]
        big_kind = ARG_OUT if big_n else ARG_IN  # unwritten, so not an output
        args += [IdiomArg(big_kind, 0, int(big.ctypes.data), big.nbytes)]
        args += [IdiomArg(ARG_OUT, 0, int(o.ctypes.data), o.nbytes) for o in outs]
        status = lib.idiom_cl_run(
            source, b"totals", 1, (ctypes.c_int64 * 1)(1), None, 1 << 20, len(args),
            (IdiomArg * len(args))(*args),
        )  # fmt: skip
        assert status == DONE
        total = float(a.sum())
        for k, out in enumerate(outs):
            np.testing.assert_array_equal(out, (k + 1) * total + np.arange(width))
        if big_n:
            np.testing.assert_array_equal(big[:n], a * 2.0)
