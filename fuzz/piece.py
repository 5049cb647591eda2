"""What a shape hands the assembler: its kernels, the arrays main allocates, the code of one
step of the time loop, and the random choices made on the way."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from fuzz.ctypes_c import CType

__all__ = [
    "PAD",
    "Array",
    "Chooser",
    "Param",
    "Piece",
    "ShapeMaker",
    "choose_size",
    "on_some_steps",
]

PAD = 8
"""Elements allocated (and filled) past every array's length: offsets and overlapping
views (`a + 1`) stay inside the allocation."""

T = TypeVar("T")


@dataclass(frozen=True)
class Array:
    """An array main owns. `length` is a C expression over main's variables; the storage
    holds `length + PAD` elements, all initialised. `role` says what the host may write:
    "data" any small value, "index" values in [0, bound), "fixed" nothing (structure such
    as row pointers)."""

    name: str
    ctype: CType
    length: str
    fill: str = ""  # C expression in `i`; empty: the piece's setup fills it
    role: str = "data"
    bound: str = ""
    allocate: bool = True  # False: the piece declares it (a global, or built in setup)


@dataclass(frozen=True)
class Param:
    """An int read from the command line (argv), so the compiler cannot fold it."""

    name: str
    value: int


@dataclass(frozen=True)
class Piece:
    """One shape instance. `header` holds types, prototypes and extern declarations shared
    by every file; `kernels` the definitions; `setup` and `step` run in main (`t` is the
    step number in `step`)."""

    shape: str
    header: str
    kernels: str
    arrays: tuple[Array, ...]
    params: tuple[Param, ...]
    setup: str
    step: str
    cxx_ok: bool = True  # the kernels are valid C++ too (no VLA, no C-only syntax)
    cxx_only: bool = False  # classes, templates
    includes: tuple[str, ...] = ()


@dataclass
class Chooser:
    """A random source that records every named choice as a feature."""

    rng: random.Random
    features: list[str] = field(default_factory=list)

    def pick(self, name: str, options: Sequence[T]) -> T:
        value = self.rng.choice(list(options))
        self.features.append(f"{name}={_label(value)}")
        return value

    def chance(self, name: str, probability: float) -> bool:
        value = self.rng.random() < probability
        if value:
            self.features.append(name)
        return value

    def number(self, low: int, high: int) -> int:
        """An unrecorded integer in [low, high] (salts, offsets)."""
        return self.rng.randint(low, high)


def _label(value: object) -> str:
    name = getattr(value, "name", None)
    return str(name if isinstance(name, str) else value).replace(" ", "_")


ShapeMaker = Callable[[Chooser, str], Piece]
"""A shape: a random source and the prefix of every name it declares, to one piece."""


def on_some_steps(chooser: Chooser, aliased: str, plain: str) -> str:
    """The aliased call on every step, or on odd steps only (the plain call on the others):
    a replaced function called with and without overlapping arguments, its arrays resident
    on the device from the plain calls when the guard sends an aliased one to the loop."""
    if chooser.pick("alias-when", ("always", "odd-steps")) == "always":
        return aliased
    return f"if (t % 2 == 1) {{\n{aliased}}} else {{\n{plain}}}\n"


SIZE_KINDS = ("0", "1", "2", "odd", "large")
SIZE_WEIGHTS = (1, 1, 1, 3, 4)


def choose_size(chooser: Chooser, name: str, large: tuple[int, int], minimum: int = 0) -> int:
    """A problem size: 0, 1, 2, a small odd number or a large one (in `large`), at least
    `minimum`; the kind is recorded."""
    kind = chooser.rng.choices(SIZE_KINDS, weights=SIZE_WEIGHTS)[0]
    value = {
        "0": 0,
        "1": 1,
        "2": 2,
        "odd": 2 * chooser.rng.randint(1, 6) + 1,
        "large": chooser.rng.randint(*large),
    }[kind]
    chooser.features.append(f"{name}={kind}")
    return max(value, minimum)
