"""The "ceiling" of a benchmark: the time its accelerated work would take in the library alone.

An accelerated program run with `IDIOM_STATS=FILE` leaves one JSON line per call of the runtime's
entry points (`idiom_gemm`, `idiom_gemv`, `idiom_cl_run`; the fields are listed in
`mappers/runtime/idiom_runtime.h`). From those lines:

* `read_stats` parses the file into `CallStats`;
* `direct_seconds` is what the library alone takes for the calls the runtime did (status 0):
  each GEMM/GEMV replayed through OpenBLAS directly (the `scipy-openblas32` library the runtime
  links, through ctypes: row-major, no transposition, fresh arrays of the same sizes; warmed up
  once, best of 3), each OpenCL launch counted by its kernel's device time;
* `ceiling_seconds` swaps, in the accelerated program's wall time, the time spent inside the
  runtime for those calls for `direct_seconds`: the program with perfect glue around the library.

With `cold=True` the first BLAS call is timed as a program calling the library directly would
pay it: the first call of a fresh process (`python -m measure.ceiling`), OpenBLAS's threads and
buffers not yet started. A program making one GEMM pays that once, accelerated or not, and a
warmed replay alone would hold it against the accelerated build.
"""

from __future__ import annotations

import ctypes
import json
import math
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from idl.errors import IdiomError

__all__ = [
    "DONE",
    "CallStats",
    "CeilingError",
    "ceiling_seconds",
    "direct_seconds",
    "inside_seconds",
    "read_stats",
]

DONE = 0
"""The status of a call whose work the runtime did (IDIOM_DONE)."""

_FLOAT, _DOUBLE = 0, 1
_BLAS_ENTRIES = ("gemm", "gemv")
_DEFAULT_BLAS_PREFIX = "scipy_"
# CBLAS enumerations (cblas.h).
_ROW_MAJOR = 101
_NO_TRANS = 111


class CeilingError(IdiomError):
    """A stats file that cannot be read or parsed, or no OpenBLAS to replay the calls with."""


@dataclass(frozen=True)
class CallStats:
    """One call of a runtime entry point, as the runtime recorded it."""

    entry: str
    """"gemm", "gemv" or "cl_run"."""
    status: int
    """The returned status: 0 done, 1 declined, 2 failed."""
    seconds: float
    """Wall time spent inside the entry point."""
    details: dict[str, object] = field(hash=False)
    """The whole parsed line (the common fields included)."""

    @property
    def done(self) -> bool:
        """The runtime did the work (the original code did not run)."""
        return self.status == DONE


def read_stats(path: Path) -> list[CallStats]:
    """The calls recorded in `path`, in file order. A missing file means no call was made: the
    runtime creates the file on its first write. Blank lines are skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as error:
        raise CeilingError(f"cannot read the stats file {path}: {error}") from error
    calls: list[CallStats] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            calls.append(_parse_line(line, f"{path}:{number}"))
    return calls


def direct_seconds(calls: Sequence[CallStats], *, repeats: int = 3, cold: bool = False) -> float:
    """The time the library alone takes for the calls that were done (status 0).

    GEMM and GEMV are replayed through OpenBLAS (`cblas_{s,d}gemm`/`gemv`, row-major, no
    transposition, on freshly allocated arrays of the recorded sizes; each distinct shape warmed
    up once and timed as the best of `repeats`, then counted once per call). OpenCL launches
    count their `kernel_seconds` (their own `seconds` where the device gave no profile). Any
    other entry counts its own `seconds`. With `cold`, the first BLAS call counts the time of a
    first call in a fresh process instead."""
    if repeats < 1:
        raise CeilingError(f"repeats must be at least 1, not {repeats}")
    total = 0.0
    shapes: Counter[_Shape] = Counter()
    for call in calls:
        if not call.done:
            continue
        if call.entry in _BLAS_ENTRIES:
            shapes[_shape(call)] += 1
        elif call.entry == "cl_run":
            kernel = call.details.get("kernel_seconds")
            total += _number(kernel) if _is_number(kernel) else call.seconds
        else:
            total += call.seconds
    # Each shape timed once: the cold call takes the place of one of the warm ones counted
    # (timed again, a busy machine's slower second replay could take more than it added).
    replays = {shape: _replay_seconds(shape, repeats) for shape in shapes}
    for shape, count in shapes.items():
        total += count * replays[shape]
    if cold and shapes:
        first = next(iter(shapes))  # Counter keeps the order of first calls
        total += _cold_seconds(first) - replays[first]
    return total


def ceiling_seconds(
    accelerated_seconds: float, calls: Sequence[CallStats], *, cold: bool = False
) -> float:
    """The accelerated wall time with the time inside the runtime for the done calls replaced
    by `direct_seconds(calls, cold=cold)` (never below 0: stats from another run may not
    match)."""
    if not math.isfinite(accelerated_seconds) or accelerated_seconds < 0:
        raise CeilingError(f"accelerated time {accelerated_seconds!r} is not a duration")
    inside = inside_seconds(calls)
    return max(0.0, accelerated_seconds - inside + direct_seconds(calls, cold=cold))


def inside_seconds(calls: Sequence[CallStats]) -> float:
    """Seconds spent inside the runtime by the calls that did their work."""
    return sum(call.seconds for call in calls if call.done)


# ---- parsing ----------------------------------------------------------------------------------


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(value: object) -> float:
    assert isinstance(value, int | float)
    return float(value)


def _parse_line(line: str, where: str) -> CallStats:
    try:
        record: object = json.loads(line)
    except json.JSONDecodeError as error:
        raise CeilingError(f"{where}: not a JSON line: {error}") from error
    if not isinstance(record, dict):
        raise CeilingError(f"{where}: not a JSON object")
    entry = record.get("entry")
    status = record.get("status")
    seconds = record.get("seconds")
    if not isinstance(entry, str):
        raise CeilingError(f'{where}: no "entry" name')
    if not isinstance(status, int) or isinstance(status, bool):
        raise CeilingError(f'{where}: no integer "status"')
    if not _is_number(seconds) or not math.isfinite(_number(seconds)) or _number(seconds) < 0:
        raise CeilingError(f'{where}: no duration "seconds"')
    return CallStats(entry=entry, status=status, seconds=_number(seconds), details=record)


# ---- replaying BLAS calls ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Shape:
    entry: str
    elem: int
    m: int
    n: int
    k: int  # 0 for gemv


def _shape(call: CallStats) -> _Shape:
    names = ("elem", "m", "n", "k") if call.entry == "gemm" else ("elem", "m", "n")
    values: list[int] = []
    for name in names:
        value = call.details.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise CeilingError(f"a {call.entry} call without a size {name!r}: {call.details}")
        values.append(value)
    if values[0] not in (_FLOAT, _DOUBLE):
        raise CeilingError(f"a {call.entry} call of unknown element type: {call.details}")
    elem, m, n, *rest = values
    return _Shape(call.entry, elem, m, n, rest[0] if rest else 0)


@dataclass(frozen=True)
class _Blas:
    gemm: tuple[Callable[..., None], Callable[..., None]]  # indexed by elem: s, d
    gemv: tuple[Callable[..., None], Callable[..., None]]


@cache
def _openblas() -> _Blas:
    """The cblas functions of the scipy-openblas32 library (32-bit integers, prefixed names)."""
    try:
        import scipy_openblas32 as wheel  # type: ignore[import-untyped]  # noqa: PLC0415
    except ImportError as error:
        raise CeilingError(
            "the ceiling needs OpenBLAS from the scipy-openblas32 wheel: "
            "pip install scipy-openblas32"
        ) from error
    lib_dir = Path(wheel.get_lib_dir())
    name = f"lib{wheel.get_library()}"
    found = sorted(p for p in lib_dir.iterdir() if p.name.startswith(f"{name}."))
    if not found:
        raise CeilingError(f"no {name} library in {lib_dir}")
    prefix_match = re.search(r"-DBLAS_SYMBOL_PREFIX=(\w+)", wheel.get_pkg_config())
    prefix = prefix_match.group(1) if prefix_match else _DEFAULT_BLAS_PREFIX
    try:
        library = ctypes.CDLL(str(found[0]))
        functions = {
            kind: getattr(library, f"{prefix}cblas_{kind}")
            for kind in ("sgemm", "dgemm", "sgemv", "dgemv")
        }
    except (OSError, AttributeError) as error:
        raise CeilingError(f"cannot load OpenBLAS from {found[0]}: {error}") from error
    i32, ptr = ctypes.c_int, ctypes.c_void_p
    for letter, scalar in (("s", ctypes.c_float), ("d", ctypes.c_double)):
        gemm, gemv = functions[f"{letter}gemm"], functions[f"{letter}gemv"]
        gemm.argtypes = [i32, i32, i32, i32, i32, i32, scalar, ptr, i32, ptr, i32, scalar]
        gemm.argtypes += [ptr, i32]
        gemm.restype = None
        gemv.argtypes = [i32, i32, i32, i32, scalar, ptr, i32, ptr, i32, scalar, ptr, i32]
        gemv.restype = None
    return _Blas(
        gemm=(functions["sgemm"], functions["dgemm"]),
        gemv=(functions["sgemv"], functions["dgemv"]),
    )


def _filled(shape: tuple[int, ...], dtype: type[np.floating[Any]]) -> npt.NDArray[Any]:
    return np.full(shape, 0.5, dtype=dtype)


def _cold_seconds(shape: _Shape) -> float:
    """The first direct call of `shape` in a process of its own."""
    fields = [shape.entry, str(shape.elem), str(shape.m), str(shape.n), str(shape.k)]
    command = [sys.executable, "-m", "measure.ceiling", *fields]
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=root)
    if result.returncode != 0 or not _is_number(_float_or_none(result.stdout)):
        raise CeilingError(f"the cold replay failed: {(result.stderr or result.stdout).strip()}")
    return float(result.stdout)


def _float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _replay_seconds(shape: _Shape, repeats: int, *, warm: bool = True) -> float:
    """The best time of `repeats` direct BLAS calls of `shape`, after one warm-up call;
    without `warm`, the time of the first call."""
    m, n, k = shape.m, shape.n, shape.k
    if m == 0 or (shape.entry == "gemm" and n == 0):
        return 0.0  # the runtime returns at once: BLAS has nothing to do
    blas = _openblas()
    dtype: type[np.floating[Any]] = np.float32 if shape.elem == _FLOAT else np.float64
    arrays: list[npt.NDArray[Any]]
    if shape.entry == "gemm":
        arrays = [_filled((m, k), dtype), _filled((k, n), dtype), _filled((m, n), dtype)]
        a, b, c = (array.ctypes.data for array in arrays)
        function = blas.gemm[shape.elem]
        args: tuple[object, ...] = (
            _ROW_MAJOR, _NO_TRANS, _NO_TRANS, m, n, k, 1.0, a, max(k, 1), b, max(n, 1), 0.0,
            c, max(n, 1),
        )  # fmt: skip
    else:
        arrays = [_filled((m, n), dtype), _filled((n,), dtype), _filled((m,), dtype)]
        a, x, y = (array.ctypes.data for array in arrays)
        function = blas.gemv[shape.elem]
        args = (_ROW_MAJOR, _NO_TRANS, m, n, 1.0, a, max(n, 1), x, 1, 0.0, y, 1)
    if not warm:
        start = time.perf_counter()
        function(*args)
        return time.perf_counter() - start
    function(*args)  # warm-up: pages touched, threads started
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        function(*args)
        best = min(best, time.perf_counter() - start)
    del arrays  # kept alive until here: the calls only hold their addresses
    return best


if __name__ == "__main__":  # the cold replay: ENTRY ELEM M N K, prints the seconds
    entry, *sizes = sys.argv[1:]
    elem, m, n, k = (int(size) for size in sizes)
    print(_replay_seconds(_Shape(entry, elem, m, n, k), 1, warm=False))
