"""Views: what the OpenCL generator holds for an array it has not computed.

Data-layout patterns generate no code. `split`, `slide`, `transpose`, `zip`, `pad`,
`gather` and `strided` each wrap the view of their argument with an index
transformation, so that reading element (i, j) of `(slide 3 1 (split 4 x))` becomes
`x[(i)*1 + (j)]`-style arithmetic at the one place a scalar is finally read. Memory
(a kernel parameter, or a buffer the kernel allocated in local or private memory) is
the innermost view: a name, an offset, and one stride per dimension.

An element is the C text of a scalar (or OpenCL vector), a `TupleValue` of elements,
or another view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lift.errors import LiftError

__all__ = [
    "Cell",
    "Element",
    "Lazy",
    "Memory",
    "TupleValue",
    "VectorMemory",
    "rejoined",
    "text_of",
    "unit_stride",
]


@dataclass(frozen=True)
class TupleValue:
    items: tuple[Element, ...]


@dataclass(frozen=True)
class Cell:
    """One scalar (or vector) place in memory: read as `text`, written by `store`."""

    text: str
    vector: tuple[int, str] | None = None  # (width, pointer) of a vector place
    guard: str = ""  # stored only where this holds (a padded result's real elements)

    def store(self, value: str) -> str:
        if self.guard:
            return f"if ({self.guard}) {Cell(self.text, self.vector).store(value)}"
        if self.vector is None:
            return f"{self.text} = {value};"
        width, pointer = self.vector
        return f"vstore{width}({value}, 0, {pointer});"


@dataclass(frozen=True)
class Memory:
    """`name[(i0*s0 + i1*s1 + ...) + offset]`: a buffer seen as nested arrays. The index
    sum comes first and the offset last, so that the reads of a stencil's neighbours
    share the sum (one computation of the point's position, then one addition each)."""

    name: str
    offset: str
    strides: tuple[str, ...]
    index: str = ""
    limit: str = ""  # one dimension: elements at this index and beyond are not stored

    def at(self, index: str) -> Memory | Cell:
        stride = self.strides[0]
        scaled = index if unit_stride(stride) else f"({index})*{stride}"
        summed = f"{self.index} + {scaled}" if self.index else scaled
        if unit_stride(stride):
            summed = rejoined(self.index, index) or summed
        if len(self.strides) == 1:
            guard = f"({index}) < {self.limit}" if self.limit else ""
            return Cell(f"{self.name}[{self.place(summed)}]", guard=guard)
        return Memory(self.name, self.offset, self.strides[1:], summed)

    def place(self, index: str) -> str:
        """The element index of `index` (the summed position) in the buffer."""
        if self.offset in ("0", "0L"):
            return index
        return f"({index}) + {self.offset}"


@dataclass(frozen=True)
class VectorMemory:
    """Contiguous scalars of `memory`'s last dimension, `width` at a time (`vload4`)."""

    memory: Memory
    width: int

    def at(self, index: str) -> Cell:
        if len(self.memory.strides) != 1 or not unit_stride(self.memory.strides[0]):
            raise LiftError("split-vec of elements that are not contiguous")
        position = self.memory.place(
            f"{self.memory.index} + ({index})*{self.width}"
            if self.memory.index
            else f"({index})*{self.width}"
        )
        pointer = f"{self.memory.name} + {position}"
        return Cell(f"vload{self.width}(0, {pointer})", (self.width, pointer))


@dataclass(frozen=True)
class Lazy:
    """An array whose element i is computed from i when read (an index transformation)."""

    element_at: Callable[[str], Element]

    def at(self, index: str) -> Element:
        return self.element_at(index)


Element = str | TupleValue | Cell | Memory | VectorMemory | Lazy


def text_of(element: Element, what: str) -> str:
    """The C text of a scalar element."""
    if isinstance(element, str):
        return element
    if isinstance(element, Cell):
        return element.text
    raise LiftError(f"{what}: a scalar expected, not an array or tuple")


def unit_stride(stride: str) -> bool:
    return stride in ("1", "1L", "(1L)")


def rejoined(outer: str, inner: str) -> str | None:
    """k, where `outer` and `inner` are a join's `((k) / n)*n` and `(k) % n` (a join's
    element in a buffer of parts of n); None otherwise. Spares the device a division."""
    whole, _, n = inner.rpartition(" % ")
    if whole and n and outer == f"({whole} / {n})*{n}" and _one_group(whole):
        return whole
    return None


def _one_group(text: str) -> bool:
    """Whether `text` is one parenthesised group, `(...)`, its parentheses balanced."""
    if not text.startswith("("):
        return False
    depth = 0
    for place, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return place == len(text) - 1
    return False
