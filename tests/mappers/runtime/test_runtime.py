"""The C runtime through ctypes: BLAS entry points against numpy, OpenCL launches on PoCL.

The runtime reads its environment on every call, so `monkeypatch.setenv` steers it in-process;
what needs a fresh process (the disk cache, a machine without OpenCL) runs in a subprocess.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from idl.errors import IdiomError
from mappers.runtime.build import (
    RUNTIME_DIR,
    RuntimeBuildError,
    runtime_library,
    shared_runtime,
)
from matcher.frontend import find_tool

DONE, DECLINED, FAILED = 0, 1, 2
FLOAT, DOUBLE = 0, 1
ARG_IN, ARG_OUT, ARG_INOUT, ARG_SCALAR, ARG_LOCAL, ARG_SCRATCH = range(6)

Array = npt.NDArray[Any]


class IdiomArg(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int32),
        ("flags", ctypes.c_int32),
        ("ptr", ctypes.c_void_p),
        ("bytes", ctypes.c_int64),
    ]


def _load(path: str | None = None) -> ctypes.CDLL:
    """The runtime's shared library (by default built or found under the current cache)."""
    lib = ctypes.CDLL(path if path is not None else str(shared_runtime()))
    i32, i64, dbl, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_double, ctypes.c_void_p
    lib.idiom_gemm.argtypes = [i32, i64, i64, i64, dbl, ptr, i64, i64, ptr, i64, i64]
    lib.idiom_gemm.argtypes += [dbl, ptr, i64, i64]
    lib.idiom_gemm.restype = i32
    lib.idiom_gemv.argtypes = [i32, i64, i64, dbl, ptr, i64, i64, ptr, i64, dbl, ptr, i64]
    lib.idiom_gemv.restype = i32
    i64p = ctypes.POINTER(i64)
    lib.idiom_cl_run.argtypes = [ctypes.c_char_p, ctypes.c_char_p, i32, i64p, i64p, i64, i32]
    lib.idiom_cl_run.argtypes += [ctypes.POINTER(IdiomArg)]
    lib.idiom_cl_run.restype = i32
    return lib


def load_fresh(folder: Path) -> ctypes.CDLL:
    """A copy of the runtime library of its own, copied into `folder`: the settings the
    runtime reads once per process (tuning, residency) are read again."""
    copy = folder / "runtime_copy.so"
    shutil.copy(shared_runtime(), copy)
    return _load(str(copy))


@pytest.fixture(scope="module")
def lib() -> ctypes.CDLL:
    return _load()


@pytest.fixture(autouse=True)
def runtime_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """A clean runtime environment: no user setting leaks in, binaries cached in tmp_path."""
    shared_runtime()  # built (or found) under the user's cache before IDIOM_CACHE_DIR moves
    for name in (
        "IDIOM_DEVICE",
        "IDIOM_BLAS_MIN_WORK",
        "IDIOM_GPU_MIN_WORK",
        "IDIOM_VERBOSE",
        "IDIOM_STATS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(tmp_path / "cache"))
    yield


def _ptr(array: Array) -> int:
    return int(array.ctypes.data)


# ---- GEMM ---------------------------------------------------------------------------------


def _matrix(
    rng: np.random.Generator, rows: int, cols: int, *, order: str, pad: int, dtype: type
) -> tuple[Array, Array, int, int]:
    """(view, backing buffer, row stride, column stride): a rows x cols matrix stored
    row-major ('R') or column-major ('C') with `pad` extra elements per leading dimension,
    the padding filled with a sentinel that must survive."""
    storage: Array
    if order == "R":
        ld = cols + pad
        storage = np.full((rows, ld), -777.0, dtype=dtype)
        view = storage[:, :cols]
        row_stride, col_stride = ld, 1
    else:
        ld = rows + pad
        storage = np.full((cols, ld), -777.0, dtype=dtype)
        view = storage[:, :rows].T
        row_stride, col_stride = 1, ld
    view[...] = rng.standard_normal((rows, cols)).astype(dtype)
    return view, storage, row_stride, col_stride


SIZES = [(1, 1, 1), (7, 5, 3), (13, 1, 9), (1, 17, 4), (33, 31, 1), (40, 24, 65), (0, 5, 3)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float", "double"])
@pytest.mark.parametrize("orders", ["".join(o) for o in itertools.product("RC", repeat=3)])
def test_gemm_layouts(
    lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch, dtype: type, orders: str
) -> None:
    """orders: the storage of A, B and C, each R(ow-major) or C(olumn-major)."""
    a_order, b_order, c_order = tuple(orders)
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    rng = np.random.default_rng(12345)
    elem = FLOAT if dtype is np.float32 else DOUBLE
    tol = 1e-4 if dtype is np.float32 else 1e-12
    for (m, n, k), pad, (alpha, beta) in itertools.product(
        SIZES, (0, 3), ((1.0, 0.0), (-0.5, 2.0), (2.0, 1.0))
    ):
        a, _, a_sm, a_sk = _matrix(rng, m, k, order=a_order, pad=pad, dtype=dtype)
        b, _, b_sk, b_sn = _matrix(rng, k, n, order=b_order, pad=pad + 1, dtype=dtype)
        c, c_store, c_sm, c_sn = _matrix(rng, m, n, order=c_order, pad=pad, dtype=dtype)
        if beta == 0.0:
            c[...] = np.nan  # beta == 0 must not read C
        expected = alpha * (a.astype(np.float64) @ b.astype(np.float64))
        if beta != 0.0:
            expected += beta * c.astype(np.float64)
        status = lib.idiom_gemm(
            elem, m, n, k, alpha, _ptr(a), a_sm, a_sk, _ptr(b), b_sk, b_sn, beta,
            _ptr(c), c_sm, c_sn,
        )  # fmt: skip
        assert status == DONE, (m, n, k)
        np.testing.assert_allclose(c, expected, rtol=tol, atol=tol * max(k, 1))
        # The padding of C's leading dimension is untouched.
        assert np.count_nonzero(c_store == -777.0) == c_store.size - c.size


def test_gemm_vectors_with_any_irrelevant_stride(
    lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1 x k row of A taken with stride 3 (a column of a matrix): the stride along the unit
    extent is junk, and the strided axis becomes the leading dimension."""
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    rng = np.random.default_rng(7)
    store = rng.standard_normal(3 * 9)
    a = store[::3]  # 1 x 9
    b = rng.standard_normal((9, 6))
    c = np.full((1, 6), np.nan)
    status = lib.idiom_gemm(
        DOUBLE, 1, 6, 9, 1.0, _ptr(store), -12345, 3, _ptr(b), 6, 1, 0.0, _ptr(c), 0, 1
    )
    assert status == DONE
    np.testing.assert_allclose(c[0], a @ b, rtol=1e-12)


def test_gemm_k_zero_scales_c(lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    c = np.arange(12.0).reshape(3, 4)
    dummy = np.zeros(1)
    assert lib.idiom_gemm(DOUBLE, 3, 4, 0, 1.0, _ptr(dummy), 0, 1, _ptr(dummy), 4, 1, 0.5,
                          _ptr(c), 4, 1) == DONE  # fmt: skip
    np.testing.assert_array_equal(c, np.arange(12.0).reshape(3, 4) * 0.5)
    c[...] = np.nan
    assert lib.idiom_gemm(DOUBLE, 3, 4, 0, 1.0, _ptr(dummy), 0, 1, _ptr(dummy), 4, 1, 0.0,
                          _ptr(c), 4, 1) == DONE  # fmt: skip
    np.testing.assert_array_equal(c, np.zeros((3, 4)))


def _gemm_status(lib: ctypes.CDLL, m: int, n: int, k: int, strides: Sequence[int]) -> int:
    """Runs a double GEMM over big enough buffers; C must be untouched unless DONE."""
    a = np.ones(4096)
    b = np.ones(4096)
    c = np.full(4096, 5.0)
    a_sm, a_sk, b_sk, b_sn, c_sm, c_sn = strides
    status = int(
        lib.idiom_gemm(
            DOUBLE, m, n, k, 1.0, _ptr(a), a_sm, a_sk, _ptr(b), b_sk, b_sn, 1.0, _ptr(c), c_sm, c_sn
        )
    )
    if status != DONE:
        assert (c == 5.0).all()
    return status


@pytest.mark.parametrize(
    ("shape", "strides"),
    [
        ((8, 8, 8), (16, 2, 8, 1, 8, 1)),  # A: no unit stride
        ((8, 8, 8), (8, 1, 1, 1, 8, 1)),  # B: both strides 1, rows overlap
        ((8, 8, 8), (8, 1, 8, 1, 4, 1)),  # C: leading dimension below the row length
        ((8, 8, 8), (8, 1, 8, 1, -8, 1)),  # C: negative leading dimension
        ((8, 8, 8), (8, 1, 0, 1, 8, 1)),  # B: zero stride where it matters
        ((8, 8, 8), (1, 4, 8, 1, 8, 1)),  # A column-major with ld < m
        ((2**31, 1, 1), (1, 1, 1, 1, 1, 1)),  # a dimension over INT32_MAX
    ],
)
def test_gemm_declines_what_blas_cannot_express(
    lib: ctypes.CDLL,
    monkeypatch: pytest.MonkeyPatch,
    shape: tuple[int, int, int],
    strides: tuple[int, ...],
) -> None:
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    assert _gemm_status(lib, *shape, strides) == DECLINED


def test_gemm_small_problems_and_off(lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch) -> None:
    row_major = (16, 1, 16, 1, 16, 1)
    assert _gemm_status(lib, 15, 16, 16, row_major) == DECLINED  # 3840 < 4096 by default
    assert _gemm_status(lib, 16, 16, 16, row_major) == DONE
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "5000")
    assert _gemm_status(lib, 16, 16, 16, row_major) == DECLINED
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    assert _gemm_status(lib, 2, 2, 2, row_major) == DONE
    assert _gemm_status(lib, 0, 2, 2, row_major) == DONE
    monkeypatch.setenv("IDIOM_DEVICE", "off")
    assert _gemm_status(lib, 16, 16, 16, row_major) == DECLINED
    monkeypatch.setenv("IDIOM_DEVICE", "cpu")
    assert _gemm_status(lib, 16, 16, 16, row_major) == DONE
    a = np.ones(4)
    assert lib.idiom_gemm(7, 2, 2, 2, 1.0, _ptr(a), 2, 1, _ptr(a), 2, 1, 0.0, _ptr(a), 2, 1) == 1


# ---- GEMV ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float", "double"])
@pytest.mark.parametrize("order", ["R", "C"])
def test_gemv(lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch, dtype: type, order: str) -> None:
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    rng = np.random.default_rng(99)
    elem = FLOAT if dtype is np.float32 else DOUBLE
    tol = 1e-4 if dtype is np.float32 else 1e-12
    for (m, n), (x_s, y_s), (alpha, beta) in itertools.product(
        ((1, 1), (9, 4), (4, 9), (31, 1), (1, 31), (33, 65)),
        ((1, 1), (2, 3)),
        ((1.0, 0.0), (0.5, -1.5)),
    ):
        a, _, a_sm, a_sn = _matrix(rng, m, n, order=order, pad=2, dtype=dtype)
        x_store: Array = rng.standard_normal(n * x_s).astype(dtype)
        y_store: Array = np.full(m * y_s, -777.0, dtype=dtype)
        x, y = x_store[::x_s], y_store[::y_s]
        y[...] = np.nan if beta == 0.0 else rng.standard_normal(m)
        expected = alpha * (a.astype(np.float64) @ x.astype(np.float64))
        if beta != 0.0:
            expected += beta * y.astype(np.float64)
        status = lib.idiom_gemv(
            elem, m, n, alpha, _ptr(a), a_sm, a_sn, _ptr(x_store), x_s, beta, _ptr(y_store), y_s
        )
        assert status == DONE, (m, n)
        np.testing.assert_allclose(y, expected, rtol=tol, atol=tol * n)
        gaps = np.ones(m * y_s, dtype=bool)
        gaps[::y_s] = False
        assert (y_store[gaps] == -777.0).all()


def test_gemv_edges(lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    a = np.ones((4, 4))
    x = np.ones(4)
    y = np.arange(4.0)
    # n == 0: y <- beta * y (BLAS would return early and leave y alone)
    assert lib.idiom_gemv(DOUBLE, 4, 0, 1.0, _ptr(a), 4, 1, _ptr(x), 1, 2.0, _ptr(y), 1) == DONE
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0, 6.0])
    for x_s, y_s, a_sm, a_sn in ((-1, 1, 4, 1), (1, 0, 4, 1), (0, 1, 4, 1), (1, 1, 2, 2)):
        status = lib.idiom_gemv(
            DOUBLE, 4, 4, 1.0, _ptr(a), a_sm, a_sn, _ptr(x), x_s, 1.0, _ptr(y), y_s
        )
        assert status == DECLINED
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0, 6.0])
    monkeypatch.delenv("IDIOM_BLAS_MIN_WORK")
    assert lib.idiom_gemv(DOUBLE, 4, 4, 1.0, _ptr(a), 4, 1, _ptr(x), 1, 1.0, _ptr(y), 1) == 1
    monkeypatch.setenv("IDIOM_BLAS_MIN_WORK", "0")
    monkeypatch.setenv("IDIOM_DEVICE", "off")
    assert lib.idiom_gemv(DOUBLE, 4, 4, 1.0, _ptr(a), 4, 1, _ptr(x), 1, 1.0, _ptr(y), 1) == 1
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0, 6.0])


# ---- OpenCL -------------------------------------------------------------------------------

VADD = b"""
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
    int i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
"""

SCALARS = b"""
__kernel void scalars(char c, short s, int i, long l, float f, double d, __global double *out,
                      __global const char *nothing) {
    out[0] = c; out[1] = s; out[2] = i; out[3] = (double)l; out[4] = f; out[5] = d;
}
"""

GROUP_SUM = b"""
__kernel void group_sum(__global const float *in, __global float *out, __local float *tmp) {
    size_t l = get_local_id(0), size = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t step = size / 2; step > 0; step /= 2) {
        if (l < step) tmp[l] += tmp[l + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = tmp[0];
}
"""

GRID = b"""
__kernel void grid(__global int *out, __global int *touched) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t w = get_global_size(0), h = get_global_size(1);
    out[(z * h + y) * w + x] = (int)(x + 10 * y + 100 * z);
    if (x + y + z == 0) touched[0] += 1;
}
"""

CLAIM = b"""
__kernel void claim(__global int *w, __global int *seen) {
    size_t i = get_global_id(0);
    seen[i] = atomic_inc(&w[i % 3]);  /* the scratch starts at zero, every launch */
}
"""

BROKEN = b"__kernel void broken(__global float *a) { a[0] = 1.0f +; }\n"


def _buffer(kind: int, array: Array) -> IdiomArg:
    return IdiomArg(kind, 0, _ptr(array), array.nbytes)


def _scalar(value: ctypes._SimpleCData[Any]) -> IdiomArg:
    return IdiomArg(ARG_SCALAR, 0, ctypes.addressof(value), ctypes.sizeof(value))


def _cl_run(
    lib: ctypes.CDLL,
    source: bytes,
    kernel: str,
    global_size: Sequence[int],
    args: Sequence[IdiomArg],
    *,
    local_size: Sequence[int] | None = None,
    work: int = 0,
) -> int:
    dims = len(global_size)
    global_array = (ctypes.c_int64 * dims)(*global_size)
    local_array = (ctypes.c_int64 * dims)(*local_size) if local_size is not None else None
    arg_array = (IdiomArg * max(len(args), 1))(*args)
    return int(
        lib.idiom_cl_run(
            source, kernel.encode(), dims, global_array, local_array, work, len(args), arg_array
        )
    )


def _vadd(lib: ctypes.CDLL, n: int, local: int | None = 64) -> tuple[int, Array, Array]:
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = np.full(n, -1.0, dtype=np.float32)
    count = ctypes.c_int32(n)
    size = -(-n // 64) * 64
    args = [_buffer(ARG_IN, a), _buffer(ARG_IN, b), _buffer(ARG_OUT, c), _scalar(count)]
    status = _cl_run(lib, VADD, "vadd", [size], args, local_size=None if local is None else [local])
    return status, c, a + b


@pytest.fixture
def pocl(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IDIOM_DEVICE", "cpu")


@pytest.mark.usefixtures("pocl")
def test_cl_vector_add(lib: ctypes.CDLL) -> None:
    for n, local in ((1000, 64), (1, None), (4096, None)):
        status, got, expected = _vadd(lib, n, local)
        assert status == DONE
        np.testing.assert_array_equal(got, expected)


@pytest.mark.usefixtures("pocl")
def test_cl_scalars_of_each_size_and_empty_buffer(lib: ctypes.CDLL) -> None:
    out = np.zeros(6)
    nothing = np.zeros(0, dtype=np.int8)
    values: list[
        ctypes._SimpleCData[Any]
    ] = [  # kept alive: the arguments only hold their addresses
        ctypes.c_int8(-7),
        ctypes.c_int16(-30000),
        ctypes.c_int32(2_000_000_000),
        ctypes.c_int64(-(2**40)),
        ctypes.c_float(1.5),
        ctypes.c_double(1e300),
    ]
    args = [*map(_scalar, values), _buffer(ARG_OUT, out), _buffer(ARG_IN, nothing)]
    assert _cl_run(lib, SCALARS, "scalars", [1], args) == DONE
    np.testing.assert_array_equal(out, [-7, -30000, 2e9, -(2.0**40), 1.5, 1e300])


@pytest.mark.usefixtures("pocl")
def test_cl_local_memory(lib: ctypes.CDLL) -> None:
    data = np.arange(256, dtype=np.float32)
    sums = np.zeros(4, dtype=np.float32)
    args = [_buffer(ARG_IN, data), _buffer(ARG_OUT, sums), IdiomArg(ARG_LOCAL, 0, None, 64 * 4)]
    assert _cl_run(lib, GROUP_SUM, "group_sum", [256], args, local_size=[64]) == DONE
    np.testing.assert_array_equal(sums, data.reshape(4, 64).sum(axis=1))


@pytest.mark.usefixtures("pocl")
def test_cl_scratch_is_zeroed_on_the_device_at_every_launch(lib: ctypes.CDLL) -> None:
    seen = np.full(6, -1, dtype=np.int32)
    args = [IdiomArg(ARG_SCRATCH, 0, None, 3 * 4), _buffer(ARG_OUT, seen)]
    for _ in range(3):  # the same size again: a pooled buffer, zeroed again
        seen[:] = -1
        assert _cl_run(lib, CLAIM, "claim", [6], args) == DONE
        np.testing.assert_array_equal(np.sort(seen), [0, 0, 0, 1, 1, 1])


HANDOFF_PAIR = b"""
__kernel void halves(__global const float *a, __global float *partial) {
    size_t i = get_global_id(0);
    partial[i] = a[2 * i] + a[2 * i + 1];
}
__kernel void total(__global const float *partial, __global float *out, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++) sum += partial[i];
    out[0] = sum;
}
"""
ARG_HANDOFF, ARG_CONTINUES = 4, 2


@pytest.mark.usefixtures("pocl")
def test_cl_handed_off_output_stays_on_the_device_for_the_launch_that_continues(
    lib: ctypes.CDLL,
) -> None:
    a = np.arange(16, dtype=np.float32)
    partial = np.full(8, -1.0, dtype=np.float32)
    out = np.zeros(1, dtype=np.float32)
    count = ctypes.c_int32(8)
    first = [_buffer(ARG_IN, a), IdiomArg(ARG_OUT, ARG_HANDOFF, _ptr(partial), partial.nbytes)]
    then = [IdiomArg(ARG_IN, ARG_CONTINUES, _ptr(partial), partial.nbytes)]
    then += [_buffer(ARG_OUT, out), _scalar(count)]
    assert _cl_run(lib, HANDOFF_PAIR, "halves", [8], first) == DONE
    assert (partial == -1.0).all()  # never copied to the host
    assert _cl_run(lib, HANDOFF_PAIR, "total", [1], then) == DONE
    assert out[0] == a.sum()
    # Taken once: a second continuing launch would read the host's stale bytes, so it fails
    # (the original code runs).
    assert _cl_run(lib, HANDOFF_PAIR, "total", [1], then) == FAILED
    # A continuing input nothing handed off is the host's, as any input.
    ones = np.ones(8, dtype=np.float32)
    then[0] = IdiomArg(ARG_IN, ARG_CONTINUES, _ptr(ones), ones.nbytes)
    assert _cl_run(lib, HANDOFF_PAIR, "total", [1], then) == DONE
    assert out[0] == 8.0


@pytest.mark.usefixtures("pocl")
def test_cl_handoffs_past_the_runtimes_room_go_through_the_host(lib: ctypes.CDLL) -> None:
    """33 handed-off outputs, one more than the runtime keeps: the last goes to the host,
    and the continuing launch reads it there."""
    count = 33
    names = [f"p{k}" for k in range(count)]
    first = ", ".join(f"__global float *{n}" for n in names)
    then = ", ".join(f"__global const float *{n}" for n in names)
    writes = " ".join(f"{n}[0] = {k}.0f;" for k, n in enumerate(names))
    total = " + ".join(f"{n}[0]" for n in names)
    source = (
        f"__kernel void fill({first}) {{ {writes} }}\n"
        f"__kernel void add({then}, __global float *out) {{ out[0] = {total}; }}\n"
    ).encode()
    cells = [np.full(1, -1.0, dtype=np.float32) for _ in range(count)]
    out = np.zeros(1, dtype=np.float32)
    handed = [IdiomArg(ARG_OUT, ARG_HANDOFF, _ptr(c), c.nbytes) for c in cells]
    taken = [IdiomArg(ARG_IN, ARG_CONTINUES, _ptr(c), c.nbytes) for c in cells]
    assert _cl_run(lib, source, "fill", [1], handed) == DONE
    assert [c[0] for c in cells] == [-1.0] * (count - 1) + [count - 1.0]
    assert _cl_run(lib, source, "add", [1], [*taken, _buffer(ARG_OUT, out)]) == DONE
    assert out[0] == sum(range(count))


@pytest.mark.usefixtures("pocl")
def test_cl_three_dimensions_and_inout(lib: ctypes.CDLL) -> None:
    out = np.full((3, 4, 5), -1, dtype=np.int32)
    touched = np.array([41], dtype=np.int32)
    args = [_buffer(ARG_OUT, out), _buffer(ARG_INOUT, touched)]
    assert _cl_run(lib, GRID, "grid", [5, 4, 3], args) == DONE
    z, y, x = np.indices(out.shape)
    np.testing.assert_array_equal(out, x + 10 * y + 100 * z)
    assert touched[0] == 42
    # An empty NDRange is nothing to do: DONE, nothing written.
    assert _cl_run(lib, GRID, "grid", [5, 0, 3], args) == DONE
    assert touched[0] == 42


@pytest.mark.usefixtures("pocl")
def test_cl_build_error_fails_once_and_writes_nothing(
    lib: ctypes.CDLL, capfd: pytest.CaptureFixture[str]
) -> None:
    data = np.full(4, 3.0, dtype=np.float32)
    for _ in range(2):
        assert _cl_run(lib, BROKEN, "broken", [4], [_buffer(ARG_INOUT, data)]) == FAILED
    assert (data == 3.0).all()
    err = capfd.readouterr().err
    assert err.count("cannot build the OpenCL program of kernel 'broken'") == 1
    assert "error" in err.split("'broken'", 1)[1]  # the build log follows


@pytest.mark.usefixtures("pocl")
def test_cl_bad_calls_fail_without_writing(
    lib: ctypes.CDLL, capfd: pytest.CaptureFixture[str]
) -> None:
    c = np.full(64, 9.0, dtype=np.float32)
    a = np.ones(64, dtype=np.float32)
    count = ctypes.c_int32(64)
    args = [_buffer(ARG_IN, a), _buffer(ARG_IN, a), _buffer(ARG_OUT, c), _scalar(count)]
    assert _cl_run(lib, VADD, "no_such_kernel", [64], args) == FAILED
    assert _cl_run(lib, VADD, "vadd", [64], args, local_size=[48]) == FAILED  # 64 % 48 != 0
    assert _cl_run(lib, VADD, "vadd", [64], args[:3]) == FAILED  # an argument left unset
    assert (c == 9.0).all()
    assert "no_such_kernel" in capfd.readouterr().err


def test_cl_off_declines(lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IDIOM_DEVICE", "off")
    status, got, _ = _vadd(lib, 128)
    assert status == DECLINED
    assert (got == -1.0).all()


def test_cl_auto_declines_without_a_gpu(lib: ctypes.CDLL, monkeypatch: pytest.MonkeyPatch) -> None:
    # `auto` keeps the original code rather than use a CPU OpenCL device (slower here).
    monkeypatch.setenv("IDIOM_DEVICE", "auto")
    status, got, _ = _vadd(lib, 256)
    assert status == DECLINED
    assert (got == -1.0).all()


@pytest.mark.usefixtures("pocl")
def test_cl_from_several_threads(lib: ctypes.CDLL) -> None:
    failures: list[str] = []

    def worker(seed: int) -> None:
        for n in range(seed * 100 + 1, seed * 100 + 6):
            status, got, expected = _vadd(lib, n, None)
            if status != DONE or not np.array_equal(got, expected):
                failures.append(f"n={n} status={status}")

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# ---- in a fresh process ---------------------------------------------------------------------

CHILD = """
import sys
sys.path.insert(0, {tests!r})
from test_runtime import _load, _vadd
import numpy as np
lib = _load()
for _ in range(2):
    status, got, expected = _vadd(lib, 300)
    print(status, np.array_equal(got, expected))
"""


def _child(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = CHILD.format(tests=str(Path(__file__).parent))
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_cl_program_binaries_are_cached_on_disk(tmp_path: Path) -> None:
    env = {"IDIOM_DEVICE": "cpu", "IDIOM_VERBOSE": "1", "IDIOM_CACHE_DIR": str(tmp_path)}
    first = _child(env)
    assert first.stdout.split() == ["0", "True", "0", "True"]
    assert first.stderr.count("built the program of kernel 'vadd'") == 1
    assert "from source" in first.stderr
    (entry,) = (tmp_path / "cl").iterdir()
    assert entry.suffix == ".bin"

    second = _child(env)
    assert second.stdout.split() == ["0", "True", "0", "True"]
    assert "from disk cache" in second.stderr

    entry.write_bytes(entry.read_bytes()[:100])  # damaged: rebuilt silently
    third = _child(env)
    assert third.stdout.split() == ["0", "True", "0", "True"]
    assert "from source" in third.stderr
    assert "warning" not in third.stderr.lower()


def test_no_opencl_platform_fails_with_one_warning(tmp_path: Path) -> None:
    empty = tmp_path / "vendors"
    empty.mkdir()
    env = {"OCL_ICD_VENDORS": str(empty), "IDIOM_CACHE_DIR": str(tmp_path)}
    result = _child({**env, "IDIOM_DEVICE": "cpu"})  # asked for: a device that is not there
    assert result.stdout.split() == ["2", "False", "2", "False"]
    assert result.stderr.count("idiom: no OpenCL device (") == 1
    assert "running the original code" in result.stderr


def test_gpu_requested_without_a_gpu_fails_with_one_warning(tmp_path: Path) -> None:
    # Only PoCL's ICD entry is visible, so there is no GPU even on a machine that has one.
    vendors = tmp_path / "vendors"
    vendors.mkdir()
    shutil.copy("/etc/OpenCL/vendors/pocl.icd", vendors / "pocl.icd")
    result = _child(
        {"IDIOM_DEVICE": "gpu", "IDIOM_CACHE_DIR": str(tmp_path), "OCL_ICD_VENDORS": str(vendors)}
    )
    assert result.stdout.split() == ["2", "False", "2", "False"]
    assert result.stderr.count("no OpenCL GPU device") == 1


# ---- IDIOM_STATS ----------------------------------------------------------------------------

STATS_CHILD = r"""
import ctypes, os, sys, threading
import numpy as np
sys.path.insert(0, {tests!r})
from test_runtime import (ARG_IN, ARG_INOUT, BROKEN, FLOAT, VADD, IdiomArg, _buffer, _cl_run,
                          _gemm_status, _load, _ptr, _vadd)
lib = _load({library!r})
row_major = (32, 1, 32, 1, 32, 1)
# The variable is read on each call: unset or empty, nothing is recorded.
path = os.environ.pop("IDIOM_STATS")
_gemm_status(lib, 32, 32, 32, row_major)
os.environ["IDIOM_STATS"] = ""
_gemm_status(lib, 32, 32, 32, row_major)
os.environ["IDIOM_STATS"] = path
statuses = [
    _gemm_status(lib, 32, 24, 16, row_major),  # done
    _gemm_status(lib, 4, 4, 4, row_major),  # declined: below IDIOM_BLAS_MIN_WORK
]
a, x, y = np.ones((200, 100), np.float32), np.ones(100, np.float32), np.zeros(200, np.float32)
statuses.append(lib.idiom_gemv(FLOAT, 200, 100, 1.0, _ptr(a), 100, 1, _ptr(x), 1, 0.0, _ptr(y), 1))
statuses += [_vadd(lib, 3000)[0], _vadd(lib, 3000)[0]]  # built, then in memory
data = np.ones(4, np.float32)
statuses.append(_cl_run(lib, BROKEN, "broken", [4], [_buffer(ARG_INOUT, data)]))
# A kernel name JSON must escape: a quote, a backslash, a newline, invalid UTF-8, an accent.
weird = b'we"ird\\name\n\xff\xc3\xa9'
c = np.zeros(64, np.float32)
args = (IdiomArg * 3)(_buffer(ARG_IN, c), _buffer(ARG_IN, c), _buffer(ARG_INOUT, c))
statuses.append(lib.idiom_cl_run(VADD, weird, 1, (ctypes.c_int64 * 1)(64), None, 0, 3, args))
def work():
    for _ in range(50):
        _gemm_status(lib, 32, 32, 32, row_major)
threads = [threading.Thread(target=work) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(*statuses)
sys.exit(3)  # exit() runs the runtime's atexit handler, whatever the status
"""


def _stats_child(lib: ctypes.CDLL, stats: Path) -> list[dict[str, Any]]:
    """Runs STATS_CHILD with IDIOM_STATS=stats; the lines it appended, parsed."""
    before = len(stats.read_text().splitlines()) if stats.exists() else 0
    env = {
        **os.environ,  # IDIOM_CACHE_DIR from the runtime_env fixture
        "IDIOM_STATS": str(stats),
        "IDIOM_DEVICE": "cpu",
        "IDIOM_BLAS_MIN_WORK": "1000",
    }
    code = STATS_CHILD.format(tests=str(Path(__file__).parent), library=lib._name)
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, timeout=60, check=False
    )  # bytes: the warning about the weird kernel name is not UTF-8
    assert run.returncode == 3, run.stderr
    assert run.stdout.split() == b"0 1 0 0 0 2 2".split()
    return [json.loads(line) for line in stats.read_text().splitlines()[before:]]


def _check_seconds(record: dict[str, Any], *keys: str) -> None:
    for key in keys:
        assert isinstance(record[key], float | int), (key, record)
        assert 0 <= record[key] < 30, (key, record)


def test_stats_one_json_line_per_call(lib: ctypes.CDLL, tmp_path: Path) -> None:
    stats = tmp_path / "stats.jsonl"
    records = _stats_child(lib, stats)
    assert len(records) == 7 + 4 * 50
    for record in records:
        assert isinstance(record["pid"], int)
        _check_seconds(record, "seconds")
        _check_seconds(record, "at")
        assert record["at"] >= record["seconds"]  # the call ended after it began
    ends = [record["at"] for record in records]
    assert ends == sorted(ends)  # one thread, calls one after another
    gemm, small, gemv, vadd1, vadd2, broken, weird = records[:7]
    assert {k: gemm[k] for k in ("entry", "status", "elem", "m", "n", "k")} == {
        "entry": "gemm", "status": DONE, "elem": DOUBLE, "m": 32, "n": 24, "k": 16
    }  # fmt: skip
    assert (small["entry"], small["status"], small["m"]) == ("gemm", DECLINED, 4)
    assert {k: gemv[k] for k in ("entry", "status", "elem", "m", "n")} == {
        "entry": "gemv", "status": DONE, "elem": FLOAT, "m": 200, "n": 100
    }  # fmt: skip
    assert "k" not in gemv
    for vadd in (vadd1, vadd2):
        assert (vadd["entry"], vadd["status"], vadd["kernel"]) == ("cl_run", DONE, "vadd")
        assert vadd["device"].startswith("pthread")  # PoCL's "pthread-<cpu name> (R) ..."
        assert vadd["global"] == [3008]
        _check_seconds(
            vadd, "kernel_seconds", "transfer_seconds", "build_seconds", "enqueue_seconds"
        )
        assert 0 < vadd["kernel_seconds"] <= vadd["seconds"]
        assert 0 < vadd["enqueue_seconds"] <= vadd["seconds"]  # the driver's part of the call
        # The runtime's own parts, each timed apart: together within the call.
        parts = ("choose", "prepare", "bind", "after", "guard", "enqueue", "wait")
        _check_seconds(vadd, *(f"{part}_seconds" for part in parts))
        assert sum(vadd[f"{part}_seconds"] for part in parts) <= vadd["seconds"]
    assert vadd1["build_seconds"] > 0
    assert vadd2["build_seconds"] == 0  # in memory
    assert (broken["status"], broken["kernel"]) == (FAILED, "broken")
    assert broken["kernel_seconds"] is None  # never ran
    assert broken["enqueue_seconds"] == 0  # nor was launched
    assert broken["build_seconds"] > 0
    assert weird["status"] == FAILED
    assert weird["kernel"] == 'we"ird\\name\n\ufffd\u00e9'
    assert weird["device"] == vadd1["device"]
    assert weird["global"] == [64]
    threaded = records[7:]
    assert all((r["entry"], r["status"], r["m"]) == ("gemm", DONE, 32) for r in threaded)

    # A second process appends to the same file, in whole lines.
    again = _stats_child(lib, stats)
    assert len(again) == len(records)
    assert again[0]["pid"] != records[0]["pid"]
    assert len(stats.read_text().splitlines()) == 2 * len(records)


STATS_PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "idiom_runtime.h"

static double a[64 * 64], b[64 * 64], c[64 * 64];

static void gemm(void) {
    if (idiom_gemm(IDIOM_DOUBLE, 64, 64, 64, 1.0, a, 64, 1, b, 64, 1, 0.0, c, 64, 1) != 0) {
        exit(1);
    }
}

int main(void) {
    gemm();
    gemm();
    pid_t child = fork();
    if (child == 0) {
        gemm(); /* the child writes this line only, not its copy of the parent's two */
        exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    gemm();
    exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}
"""


def test_stats_from_a_c_program_that_forks_and_exits(lib: ctypes.CDLL, tmp_path: Path) -> None:
    program = tmp_path / "prog.c"
    program.write_text(STATS_PROGRAM)
    exe = tmp_path / "prog"
    library = Path(lib._name)  # the shared runtime, already built
    subprocess.run(
        [find_tool("clang"), f"-I{RUNTIME_DIR}", str(program), str(library),
         f"-Wl,-rpath,{library.parent}", "-o", str(exe)],
        check=True,
    )  # fmt: skip
    stats = tmp_path / "stats.jsonl"
    subprocess.run([str(exe)], env={**os.environ, "IDIOM_STATS": str(stats)}, check=True)
    records = [json.loads(line) for line in stats.read_text().splitlines()]
    assert [r["entry"] for r in records] == ["gemm"] * 4
    pids = [r["pid"] for r in records]
    assert sorted(pids.count(pid) for pid in set(pids)) == [1, 3]


# ---- the build step -------------------------------------------------------------------------


def test_runtime_sources_compile_without_warnings() -> None:
    import scipy_openblas32  # type: ignore[import-untyped]  # noqa: PLC0415

    clang = find_tool("clang")
    for source in sorted(RUNTIME_DIR.glob("*.c")):
        subprocess.run(
            [clang, "-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
             f"-I{scipy_openblas32.get_include_dir()}", str(source)],
            check=True,
        )  # fmt: skip


def test_runtime_links_into_a_program(tmp_path: Path) -> None:
    runtime = runtime_library()
    assert runtime.archive.is_file()
    assert "-lOpenCL" in runtime.link_args
    assert issubclass(RuntimeBuildError, IdiomError)
    exe = _linked(
        tmp_path / "gemm",
        "    double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4];\n"
        "    int s = idiom_gemm(IDIOM_DOUBLE, 2, 2, 2, 1.0, a, 2, 1, b, 2, 1, 0.0, c, 2, 1);\n"
        '    printf("%d %g %g %g %g\\n", s, c[0], c[1], c[2], c[3]);\n',
    )
    env = {**os.environ, "IDIOM_BLAS_MIN_WORK": "0"}
    out = subprocess.run([str(exe)], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "19", "22", "43", "50"]
    assert any("openblas" in library for library in _needed(exe))


def test_programs_without_blas_calls_do_not_load_openblas(tmp_path: Path) -> None:
    # OpenBLAS starts its threads when it is loaded; they would compete with the program.
    exe = _linked(tmp_path / "launch", '    printf("%p\\n", (void *)idiom_cl_run);\n')
    needed = _needed(exe)
    assert not any("openblas" in library for library in needed), needed
    assert "libOpenCL.so.1" in needed


def _linked(stem: Path, body: str) -> Path:
    """A program whose `main` runs `body`, linked against the runtime like a user's."""
    runtime = runtime_library()
    program = stem.with_suffix(".c")
    program.write_text(
        '#include <stdio.h>\n#include "idiom_runtime.h"\n'
        f"int main(void) {{\n{body}    return 0;\n}}\n"
    )
    subprocess.run(
        [find_tool("clang"), f"-I{RUNTIME_DIR}", str(program), str(runtime.archive),
         *runtime.link_args, "-o", str(stem)],
        check=True,
    )  # fmt: skip
    return stem


def _needed(executable: Path) -> list[str]:
    """The shared libraries an executable names as NEEDED in its dynamic section."""
    dump = subprocess.run(
        [find_tool("llvm-readobj"), "--needed-libs", str(executable)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return [line.strip() for line in dump.stdout.splitlines()[1:] if ".so" in line]


def test_runtime_builds_into_a_fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(tmp_path))
    library = shared_runtime()
    assert library.is_relative_to(tmp_path / "runtime")
    assert library.is_file()
    # Only the finished build is left: the private staging folder is gone.
    assert [p.name for p in (tmp_path / "runtime").iterdir()] == [library.parent.name]
