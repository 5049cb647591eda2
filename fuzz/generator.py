"""Random programs for differential testing of `idiom accelerate`: `generate(seed)` builds
one complete program, deterministically from the seed, around one main shape (and now and
then a second one), with its variation axes recorded as features."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from fuzz.assemble import Layout, assemble
from fuzz.host import HostAction, host_action
from fuzz.piece import Chooser, ShapeMaker
from fuzz.shapes_combined import COMBINED_SHAPES
from fuzz.shapes_cxx import CXX_SHAPES
from fuzz.shapes_dense import DENSE_SHAPES
from fuzz.shapes_histogram import HISTOGRAM_SHAPES
from fuzz.shapes_reduction import REDUCTION_SHAPES
from fuzz.shapes_sparse import SPARSE_SHAPES
from fuzz.shapes_stencil import STENCIL_SHAPES

__all__ = ["SHAPES", "Program", "generate"]

SHAPES: dict[str, ShapeMaker] = {
    **REDUCTION_SHAPES,
    **HISTOGRAM_SHAPES,
    **DENSE_SHAPES,
    **COMBINED_SHAPES,
    **SPARSE_SHAPES,
    **STENCIL_SHAPES,
    **CXX_SHAPES,
}
"""Every shape by name; the name is the Program's `shape` when it is the main piece."""


@dataclass(frozen=True)
class Program:
    seed: int
    shape: str
    features: tuple[str, ...]
    files: dict[str, str]
    args: tuple[str, ...]


def generate(seed: int) -> Program:
    """The program of `seed`."""
    chooser = Chooser(random.Random(seed))
    names = sorted(SHAPES)
    shape = chooser.rng.choice(names)
    pieces = [SHAPES[shape](chooser, "p0_")]
    if chooser.chance("second-piece", 0.2):
        second = chooser.pick("second", names)
        pieces.append(SHAPES[second](chooser, "p1_"))
    if any(piece.cxx_only for piece in pieces) and not all(piece.cxx_ok for piece in pieces):
        pieces = [piece for piece in pieces if piece.cxx_ok]  # a VLA kernel cannot be C++
    cxx = all(piece.cxx_ok for piece in pieces) and (
        any(piece.cxx_only for piece in pieces) or chooser.chance("lang=c++", 0.2)
    )
    arrays = [array.name for piece in pieces for array in piece.arrays]
    windows = tuple(name for name in arrays if chooser.chance(f"window={name}", 0.15))
    steps = chooser.rng.randint(1, 5)
    chooser.features.append(f"steps={steps}")
    early = chooser.rng.randrange(steps) if chooser.chance("early-exit", 0.15) else -1
    layout = Layout(
        cxx=cxx,
        kernel_unit=chooser.chance("kernel-unit", 0.25),
        steps=steps,
        early_exit=early,
        early_return=early >= 0 and chooser.chance("early-return", 0.5),
        host_before=chooser.chance("host-before", 0.3),
        windows=windows,
    )
    touchable = [array for piece in pieces for array in piece.arrays if array.role != "fixed"]
    actions: list[HostAction] = []
    for number in range(chooser.rng.choice((0, 1, 1, 2, 2, 3))):
        if touchable:
            target = chooser.rng.choice(touchable)
            actions.append(host_action(chooser, target, number))
    # Drawn last, so that every earlier choice of a seed stays what it was.
    if not cxx and chooser.chance("storage=static-pointers", 0.3):
        layout = replace(layout, static_pointers=True)
    files, args = assemble(pieces, actions, layout)
    return Program(seed, shape, tuple(chooser.features), files, args)
