"""In-place sweeps: stencils that read values other points of the same sweep write.

The Stencil idiom takes reads of the arrays it writes whatever they touch. Most are
safe to run as a kernel, one work-item per point in any order: reads of parts the
stores never touch (a boundary plane rebuilt from the next planes), and reads of the
very element the point writes (its own value, updated). A read that is neither may see
a value another point wrote earlier in the sweep (Gauss-Seidel: u[i-1][j] is already
new when u[i][j] is computed), so the answer depends on the loop's order. Detection
marks such a stencil "in place"; the mapper reports it rather than replaces it. A nest
with a single such read is a first-order recurrence (a prefix sum, a[j] += a[j-1]; a
forward substitution), not a stencil: detection drops it.
"""

from __future__ import annotations

from matcher.footprint import Footprints
from matcher.ir import Function, Value
from matcher.solutions import Solution, slots

__all__ = ["in_place_reads", "is_recurrence"]


def in_place_reads(
    function: Function, solution: Solution, footprints: Footprints | None = None
) -> list[Value]:
    """The reads of a Stencil or Map match that may see what other points of the sweep
    write: of an array the nest stores into, neither apart from every store into that
    array in every iteration nor at the very address of one of them. (A map may write
    several arrays: that they are apart from one another is the mapper's run-time
    check, as for arrays of different names read and written.)"""
    writes = zip(slots(solution, "write", "store"), slots(solution, "write", "array"), strict=True)
    stores: dict[Value, list[Value]] = {}
    for store, array in writes:
        if store is not None and array is not None:
            stores.setdefault(array, []).append(store)
    footprints = footprints or Footprints(function)
    reads = zip(slots(solution, "read", "value"), slots(solution, "read", "array"), strict=True)
    return [
        read
        for read, array in reads
        if read is not None
        and array in stores
        and not all(
            footprints.never_overlap(read, store) or footprints.same_address(read, store)
            for store in stores[array]
        )
    ]


def is_recurrence(in_place: list[Value]) -> bool:
    """A nest whose only read of what other points write is one point: each value
    follows from the one before (a prefix sum), not from a neighbourhood."""
    return len(in_place) == 1
