"""The compiled form of an IDL specification: a flat, immutable constraint program.

This module is the contract between `idl` (which produces programs) and `matcher`
(which solves them). It knows nothing of LLVM: variables are fully indexed names
(`for[1].begin`), atoms are a kind plus the variables they relate plus one detail
(an opcode name or an operand/successor position).

Shape of a formula after expansion (IDL.md section 4 and 6):
- `Atom`: one atomic constraint.
- `Conjunction` / `Disjunction`: flattened; never a Conjunction directly inside a
  Conjunction (same for Disjunction). An empty Conjunction is true, an empty
  Disjunction is false (e.g. `for some i=0..0`).
- `Collect`: `collect i n F`. `body` is F expanded for slot 0; `slot_variables[k]`
  lists, for slot k, the names that the slot-0 names in `slot_variables[0]` take.
  `local` (a collect `keeping` some of its variables) lists the body's other variables
  that change with the slot: each inner solution's own, in no slot. The body's
  remaining variables are the collect's outer variables: fixed outside.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from idl.errors import SourceSpan

__all__ = [
    "Atom",
    "AtomKind",
    "Collect",
    "Conjunction",
    "Disjunction",
    "Formula",
    "Program",
    "formula_variables",
]


class AtomKind(StrEnum):
    """Every atomic constraint of IDL.md section 5. Arity in the comment."""

    UNUSED = "unused"  # ({a}) is unused
    INSTRUCTION = "instruction"  # ({a}) is instruction
    ARGUMENT = "argument"  # ({a}) is an argument
    CONSTANT = "constant"  # ({a}) is a constant
    PREEXECUTION = "preexecution"  # ({a}) is preexecution
    INTEGER_ZERO = "integer_zero"  # ({a}) is integer zero
    FLOAT_ZERO = "float_zero"  # ({a}) is floating point zero
    POSITIVE = "positive"  # ({a}) is a positive constant (an integer above zero)
    NEGATIVE = "negative"  # ({a}) is a negative constant (an integer below zero)
    INTEGER_TYPE = "integer_type"  # ({a}) is an integer
    FLOAT_TYPE = "float_type"  # ({a}) is a float
    POINTER_TYPE = "pointer_type"  # ({a}) is a pointer
    VECTOR_TYPE = "vector_type"  # ({a}) is a vector
    OPCODE = "opcode"  # ({a}) is OP instruction; detail = LLVM opcode spelling
    SAME = "same"  # ({a}, {b}) is the same as
    NOT_SAME = "not_same"  # ({a}, {b}) is not the same as
    DATA_FLOW = "data_flow"  # ({a}, {b}) a is an operand of b
    OPERAND = "operand"  # ({a}, {b}) a is operand number `detail` (0-based) of b
    CONTROL_FLOW = "control_flow"  # ({a}, {b}) an edge of the instruction-level CFG
    SUCCESSOR = "successor"  # ({a}, {b}) a is successor number `detail` (0-based) of b
    SPANS_BLOCK = "spans_block"  # ({a}, {b}) a begins the block that b terminates
    REACHES_PHI = "reaches_phi"  # ({a}, {p}, {t}) a reaches phi node p from t
    DOMINATES = "dominates"  # ({a}, {b})
    STRICTLY_DOMINATES = "strictly_dominates"  # ({a}, {b})
    POST_DOMINATES = "post_dominates"  # ({a}, {b})
    STRICTLY_POST_DOMINATES = "strictly_post_dominates"  # ({a}, {b})
    CONTROL_FLOW_PASSES_THROUGH = "cf_passes_through"  # ({a}, {b}, {c}) all cf from a to b
    DATA_FLOW_PASSES_THROUGH = "df_passes_through"  # ({a}, {b}, {c}) all df from a to b
    DATA_FLOW_WITHIN = "df_within"  # ({a}, {b}) b is a or computed from it in `detail` steps
    PURE = "pure"  # ({f}) has attribute pure
    FILLS_SCRATCH = "fills_scratch"  # ({f}) fills a private scratch array
    OUTSIDE_ELEMENT = "outside_element"  # ({a}, {b}) a's constant offset leaves b's element
    NEVER_OVERLAPS = "never_overlaps"  # ({a}, {b}) accesses never touch a common byte
    SAME_ADDRESS = "same_address"  # ({a}, {b}) accesses at one address in every iteration
    STEP_BEHIND = "step_behind"  # ({a}, {b}) a touches what b touched one trip before


@dataclass(frozen=True)
class Atom:
    kind: AtomKind
    variables: tuple[str, ...]
    # OPCODE: the LLVM spelling ("getelementptr", "br", "fadd"); OPERAND/SUCCESSOR: 0-based
    # position; otherwise None.
    detail: str | int | None = None
    span: SourceSpan | None = field(default=None, compare=False)

    def __str__(self) -> str:
        names = ", ".join("{" + v + "}" for v in self.variables)
        detail = "" if self.detail is None else f"[{self.detail}]"
        return f"{self.kind.value}{detail}({names})"


@dataclass(frozen=True)
class Conjunction:
    parts: tuple[Formula, ...]


@dataclass(frozen=True)
class Disjunction:
    parts: tuple[Formula, ...]


@dataclass(frozen=True)
class Collect:
    slots: int
    body: Formula
    slot_variables: tuple[tuple[str, ...], ...]
    span: SourceSpan | None = field(default=None, compare=False)
    local: tuple[str, ...] = ()


Formula = Atom | Conjunction | Disjunction | Collect


def formula_variables(formula: Formula, *, local: bool = False) -> tuple[str, ...]:
    """Every variable of the formula, in order of first appearance (collect slots
    included; the variables local to a collect's body only with `local`)."""
    seen: dict[str, None] = {}

    def visit(node: Formula) -> None:
        match node:
            case Atom(variables=names):
                seen.update(dict.fromkeys(names))
            case Conjunction(parts=parts) | Disjunction(parts=parts):
                for part in parts:
                    visit(part)
            case Collect(body=body, slot_variables=slots, local=own):
                inner = formula_variables(body, local=local)
                seen.update(dict.fromkeys(n for n in inner if local or n not in own))
                for slot in slots:
                    seen.update(dict.fromkeys(slot))

    visit(formula)
    return tuple(seen)


@dataclass(frozen=True)
class Program:
    """One compiled specification. `variables` is every variable, in order of first appearance."""

    name: str
    exported: bool
    formula: Formula
    variables: tuple[str, ...]
    span: SourceSpan | None = field(default=None, compare=False)
