"""The search: candidates timed on the device within a budget, the best remembered.

Each candidate runs on the same inputs as the deterministic default and must write the
same output, bit for bit (the candidates here only reorder independent work: a map's
elements, a work-item's share); one that differs, fails to build or does not fit the
device is pruned and reported. The best is cached on disk per (expression, device, size
class), the size class being each size variable's power of two, so that a later
`idiom accelerate` reuses it without searching.

The cache is a JSON file per key under `<cache>/lift/`, `<cache>` as for the rest of the
tool (`IDIOM_CACHE_DIR`, else `$XDG_CACHE_HOME/idiom`, else `~/.cache/idiom`); written
through a temporary file and a rename, so that concurrent searches never leave half a
file; an unreadable entry counts as missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lift.errors import LiftError
from lift.exploration.device import Device, Launch, numpy_type
from lift.exploration.space import Candidate, candidates, default_candidate, launch_shape
from lift.ir import expr as ir
from lift.ir.check import infer_function
from lift.ir.text import show
from lift.opencl.generate import Output, requirements_hold

__all__ = ["Choice", "SearchResult", "cached_choice", "fits_int", "search", "size_class"]


@dataclass(frozen=True)
class Choice:
    """What the search settled on: the candidate's rewrites and launch shape."""

    steps: tuple[str, ...]
    local: tuple[int, ...]
    coarsen: int
    seconds: float
    default_seconds: float


@dataclass
class SearchResult:
    best: Candidate
    best_seconds: float
    default_seconds: float
    tried: int = 0
    pruned: list[str] = field(default_factory=list)
    search_seconds: float = 0.0
    timings: list[tuple[str, float]] = field(default_factory=list)


def size_class(sizes: Mapping[str, int]) -> str:
    return ",".join(
        f"{name}~2^{max(value, 1).bit_length() - 1}" for name, value in sorted(sizes.items())
    )


def _cache_folder() -> Path | None:
    configured = os.environ.get("IDIOM_CACHE_DIR")
    if configured == "":
        return None
    base = (
        Path(configured)
        if configured
        else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "idiom"
    )
    folder = base / "lift"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _key(program: ir.Lambda, device_name: str, sizes: Mapping[str, int]) -> str:
    text = "\n".join((show(program), device_name, size_class(sizes)))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def cached_choice(program: ir.Lambda, device_name: str, sizes: Mapping[str, int]) -> Choice | None:
    folder = _cache_folder()
    if folder is None:
        return None
    try:
        data = json.loads((folder / f"{_key(program, device_name, sizes)}.json").read_text())
        return Choice(
            tuple(data["steps"]),
            tuple(data["local"]),
            int(data["coarsen"]),
            float(data["seconds"]),
            float(data["default_seconds"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _remember(
    program: ir.Lambda, device_name: str, sizes: Mapping[str, int], choice: Choice
) -> None:
    folder = _cache_folder()
    if folder is None:
        return
    data = {
        "steps": list(choice.steps),
        "local": list(choice.local),
        "coarsen": choice.coarsen,
        "seconds": choice.seconds,
        "default_seconds": choice.default_seconds,
        "expression": show(program),
        "device": device_name,
        "sizes": dict(sizes),
    }
    handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(handle, "w") as stream:
        json.dump(data, stream)
    os.replace(temporary, folder / f"{_key(program, device_name, sizes)}.json")


def search(
    program: ir.Lambda,
    inputs: Mapping[str, Any],
    sizes: Mapping[str, int],
    device: Device,
    *,
    output: Output | None = None,
    output_elements: int,
    budget_seconds: float = 60.0,
    remember: bool = True,
) -> SearchResult:
    """Time the candidates of `program` on `device` until the budget is spent."""
    started = time.monotonic()
    default = default_candidate(program, output)
    reference = np.zeros(output_elements, dtype=_output_type(program, inputs, output))
    default_seconds = _time(device, program, default, inputs, sizes, reference, check=None)
    result = SearchResult(default, default_seconds, default_seconds)
    result.timings.append((default.describe(), default_seconds))
    limit = device.device.max_work_group_size
    for candidate in candidates(program, output, sizes=sizes):
        if time.monotonic() - started > budget_seconds:
            result.pruned.append("the budget ran out before the remaining candidates")
            break
        if int(np.prod(candidate.local)) > limit or not requirements_hold(candidate.kernel, sizes):
            continue  # pruned: does not fit the device, or a split does not divide
        if candidate.kernel.index == "int" and not fits_int(sizes):
            continue  # pruned: a size does not fit an int
        result.tried += 1
        try:
            seconds = _time(
                device, program, candidate, inputs, sizes, reference.copy(), check=reference
            )
        except LiftError as error:
            result.pruned.append(f"{candidate.describe()}: {error}")
            continue
        result.timings.append((candidate.describe(), seconds))
        if seconds < result.best_seconds:
            result.best, result.best_seconds = candidate, seconds
    result.search_seconds = time.monotonic() - started
    if remember:
        best = result.best
        choice = Choice(best.steps, best.local, best.coarsen, result.best_seconds, default_seconds)
        _remember(program, device.name, sizes, choice)
    return result


def fits_int(sizes: Mapping[str, int]) -> bool:
    """Every size is below 2^30 in magnitude: with offsets and strides within the buffers
    they index, every partial index sum fits an int, and so does a grid-stride loop's
    counter plus the global size."""
    return all(-(2**30) < value < 2**30 for value in sizes.values())


def _output_type(program: ir.Lambda, inputs: Mapping[str, Any], output: Output | None) -> Any:
    if output is not None and output.into:
        return np.asarray(inputs[output.name]).dtype
    types = [p.type for p in program.params if p.type is not None]
    return numpy_type(infer_function(program, types))


def _time(  # noqa: PLR0917
    device: Device,
    program: ir.Lambda,
    candidate: Candidate,
    inputs: Mapping[str, Any],
    sizes: Mapping[str, int],
    output: np.ndarray,
    check: np.ndarray | None,
) -> float:
    global_size, local_size = launch_shape(candidate, dict(sizes))
    launch = Launch(global_size, local_size)
    try:
        seconds = device.time(candidate.program, candidate.kernel, inputs, sizes, launch, output)
    except Exception as error:  # a build or launch failure of pyopencl: pruned
        if isinstance(error, LiftError):
            raise
        raise LiftError(
            f"did not run: {str(error).splitlines()[0] if str(error) else error}"
        ) from None
    if check is not None and not np.array_equal(output, check, equal_nan=True):
        raise LiftError("wrote a different output from the default's")
    return seconds
