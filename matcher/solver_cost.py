"""The planner's cost model: how many candidates an atom generates, independently of
any function.

The plan of a program (`matcher.solver_plan`) is built once and shared by every function
the program is solved on, so its estimates cannot look at the function itself: they are
taken on a nominal function of `values` values (3/5 of them instructions), with typical
proportions measured over the corpus's functions that hold a loop (how many values are
loads, phis, operands number 1 of something...). Only the order of the estimates
matters: the planner binds first the variable with the fewest candidates.

The nominal size is the function's size class (`nominal_size`): `VALUES` for the
functions of up to a few hundred values (every function of the corpus), ten times more
for each further decade. What scales with the size is what a whole function offers (the
stores, the adds, the dominators of an instruction); what an atom generates from bound
values does not (the operands of an instruction, the users of a value). In a function of
thousands of values, enumerating every store and checking each against the rest is far
worse than reaching the store from a value already bound; a plan for a nominal 100-value
function cannot see that. So there is one plan per program and size class.

Two kinds of estimates:
- `projection_estimate`: a position of an atom whose other variables are not all bound,
  or of a one-variable atom: how many values that position can take at all.
- `bound_estimate`: the atom's other variables are all bound: how many values it
  generates from them (an operand position: 1; the users of a value: about 2;
  dominators: half the instructions).
"""

from __future__ import annotations

from idl.program import AtomKind

__all__ = ["VALUES", "bound_estimate", "nominal_size", "projection_estimate"]

VALUES = 100.0
_INSTRUCTIONS = 0.6  # share of the values that are instructions

# Share of the values a one-variable atom admits.
_UNARY: dict[AtomKind, float] = {
    AtomKind.INSTRUCTION: 0.6,
    AtomKind.ARGUMENT: 0.03,
    AtomKind.CONSTANT: 0.13,
    AtomKind.PREEXECUTION: 0.3,
    AtomKind.INTEGER_ZERO: 0.02,
    AtomKind.FLOAT_ZERO: 0.01,
    AtomKind.POSITIVE: 0.05,
    AtomKind.NEGATIVE: 0.02,
    AtomKind.INTEGER_TYPE: 0.5,
    AtomKind.FLOAT_TYPE: 0.1,
    AtomKind.POINTER_TYPE: 0.2,
    AtomKind.VECTOR_TYPE: 0.005,
    AtomKind.PURE: 0.01,
    AtomKind.FILLS_SCRATCH: 0.002,
}
# Share of the values that are instructions of an opcode (others: `_RARE_OPCODE`).
_OPCODES: dict[str, float] = {
    "br": 0.15,
    "icmp": 0.08,
    "phi": 0.09,
    "getelementptr": 0.07,
    "gep": 0.07,
    "branch": 0.15,
    "call": 0.07,
    "load": 0.05,
    "add": 0.045,
    "sext": 0.03,
    "zext": 0.02,
    "store": 0.02,
    "fadd": 0.015,
    "fmul": 0.01,
    "mul": 0.01,
    "ret": 0.01,
}
_RARE_OPCODE = 0.005
# Share of the values at (first position, second position) of a two-variable atom.
_PAIRS: dict[AtomKind, tuple[float, float]] = {
    AtomKind.DATA_FLOW: (0.75, 0.65),
    AtomKind.DATA_FLOW_WITHIN: (1.0, 1.0),
    AtomKind.CONTROL_FLOW: (0.6, 0.6),
    AtomKind.SPANS_BLOCK: (0.12, 0.12),
    AtomKind.DOMINATES: (0.6, 0.6),
    AtomKind.POST_DOMINATES: (0.6, 0.6),
    AtomKind.STRICTLY_DOMINATES: (0.55, 0.55),
    AtomKind.STRICTLY_POST_DOMINATES: (0.55, 0.55),
    AtomKind.SAME: (1.01, 1.01),
    AtomKind.NOT_SAME: (1.01, 1.01),
    AtomKind.OUTSIDE_ELEMENT: (0.01, 0.01),
    AtomKind.NEVER_OVERLAPS: (0.05, 0.05),
    AtomKind.SAME_ADDRESS: (0.01, 0.01),
    AtomKind.STEP_BEHIND: (0.01, 0.01),
}
# By operand or successor number (the last entry serves every larger number).
_OPERANDS = ((0.45, 0.6), (0.33, 0.44), (0.04, 0.04), (0.02, 0.02))
_SUCCESSORS = ((0.1, 0.15), (0.08, 0.08), (0.01, 0.01))
_TRIPLES: dict[AtomKind, tuple[float, float, float]] = {
    AtomKind.REACHES_PHI: (0.12, 0.09, 0.12),
    AtomKind.CONTROL_FLOW_PASSES_THROUGH: (0.6, 0.6, 0.6),
    AtomKind.DATA_FLOW_PASSES_THROUGH: (1.0, 1.0, 1.0),
}

# Candidates when the atom's other variables are all bound, per kind and position.
_BOUND: dict[AtomKind, tuple[float, ...]] = {
    AtomKind.SAME: (1, 1),
    AtomKind.DATA_FLOW: (2, 2),
    AtomKind.DATA_FLOW_WITHIN: (8, 8),
    AtomKind.OPERAND: (1, 2),
    AtomKind.CONTROL_FLOW: (1.5, 1.5),
    AtomKind.SUCCESSOR: (1, 1.5),
    AtomKind.SPANS_BLOCK: (1, 1),
    AtomKind.REACHES_PHI: (1, 1, 1),
    AtomKind.OUTSIDE_ELEMENT: (1, 1),
    AtomKind.NEVER_OVERLAPS: (4, 4),
    AtomKind.SAME_ADDRESS: (1, 1),
    AtomKind.STEP_BEHIND: (1, 1),
}


def nominal_size(values: int) -> float:
    """The size class of a function of `values` values: `VALUES` up to 10**2.5 (316),
    then `VALUES` times the nearest power of ten of values/`VALUES`."""
    size = VALUES
    while values >= size * 10**0.5:
        size *= 10
    return size


def projection_estimate(
    kind: AtomKind, detail: str | int | None, position: int, arity: int, values: float = VALUES
) -> float:
    """How many values position `position` of the atom can take on a nominal function
    of `values` values."""
    if kind is AtomKind.UNUSED:
        return 1.0
    if arity == 1:
        if kind is AtomKind.OPCODE:
            return values * _OPCODES.get(str(detail), _RARE_OPCODE)
        return values * _UNARY.get(kind, 1.0)
    if arity == 2:
        if kind is AtomKind.OPERAND:
            return values * _numbered(_OPERANDS, detail)[position]
        if kind is AtomKind.SUCCESSOR:
            return values * _numbered(_SUCCESSORS, detail)[position]
        return values * _PAIRS.get(kind, (1.0, 1.0))[position]
    return values * _TRIPLES.get(kind, (1.0, 1.0, 1.0))[position]


def bound_estimate(kind: AtomKind, position: int, values: float = VALUES) -> float:
    """How many values the atom generates at `position` from its other variables' values,
    on a nominal function of `values` values."""
    if kind in _BOUND:
        return float(_BOUND[kind][position])
    if kind is AtomKind.NOT_SAME:
        return values
    if kind in (AtomKind.CONTROL_FLOW_PASSES_THROUGH, AtomKind.DATA_FLOW_PASSES_THROUGH):
        return values / 4
    return values * _INSTRUCTIONS / 2  # dominance


def _numbered(
    table: tuple[tuple[float, float], ...], detail: str | int | None
) -> tuple[float, float]:
    number = detail if isinstance(detail, int) and detail >= 0 else len(table) - 1
    return table[min(number, len(table) - 1)]
