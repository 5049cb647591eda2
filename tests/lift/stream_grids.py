"""Grids for the tests of `map-stream` (test_streams.py, test_partial_sums.py): the grid
shapes drawn, the sizes of a row-major grid's interior, a program's outermost map
streamed, a launch of any run length and work-group drawn for it, and the interpreter's
result laid out as the grid."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from lift.exploration.device import Launch
from lift.ir import expr as ir
from lift.ir.interpret import run
from lift.ir.streams import propose_carries
from lift.rewriting.rules import Stream

__all__ = ["SHAPES", "drawn_launch", "interpreted", "sizes_of", "streamed"]

SHAPES = st.one_of(
    st.tuples(st.integers(3, 9), st.integers(3, 9)),
    st.tuples(st.integers(3, 7), st.integers(3, 6), st.integers(3, 6)),
)


def sizes_of(shape: tuple[int, ...], offsets: list[tuple[int, ...]]) -> dict[str, int]:
    """The sizes of the interior of a row-major grid of `shape`."""
    depth = len(shape)
    strides = [int(np.prod(shape[d + 1 :])) for d in range(depth)]
    centre = sum(strides)
    sizes = {"L": int(np.prod(shape)), "ow": centre}
    sizes |= {f"s{d}": strides[d] for d in range(depth)}
    sizes |= {f"n{d}": shape[d] - 2 for d in range(depth)}
    for k, offset in enumerate(offsets):
        sizes[f"o{k}"] = centre + sum(o * s for o, s in zip(offset, strides, strict=True))
    return sizes


def streamed(program: ir.Lambda, sizes: dict[str, int]) -> ir.Lambda:
    assert isinstance(program.body, ir.Apply)
    carries = propose_carries(program.body.args[0], sizes)
    body = Stream(carries).apply(program.body)
    assert body is not None
    return ir.Lambda(program.params, body)


def interpreted(program: ir.Lambda, grid: np.ndarray, sizes: dict[str, int]) -> np.ndarray:
    result = run(program, [list(grid), list(np.zeros_like(grid))], sizes)
    out = np.zeros_like(grid)
    depth = sum(1 for name in sizes if name.startswith("n"))
    lengths = [sizes[f"n{d}"] for d in range(depth)]
    strides = [sizes[f"s{d}"] for d in range(depth)]
    flat = np.array(result, dtype=np.float64).reshape(-1)
    for position, value in zip(np.ndindex(*lengths), flat, strict=True):
        out[sizes["ow"] + sum(i * s for i, s in zip(position, strides, strict=True))] = value
    return out


def drawn_launch(data: st.DataObject, shape: tuple[int, ...]) -> Launch:
    """A launch of the interior of a grid of `shape` with a drawn run length and
    work-group: an item for every element of the inner dimensions (`covered` holds)."""
    runs = data.draw(st.integers(1, shape[0]))
    local = data.draw(st.sampled_from([1, 2, 4]))
    inner = [-(-(n - 2) // local) * local for n in reversed(shape[1:])]
    return Launch((*inner, -(-(shape[0] - 2) // runs)), (local,) * (len(shape) - 1) + (1,))
