"""Operations on compiled formulas (`idl.program`) that the expander needs."""

from __future__ import annotations

from collections.abc import Mapping

from idl.program import Atom, AtomKind, Collect, Conjunction, Disjunction, Formula

__all__ = [
    "ShapeMismatch",
    "atom_count",
    "join",
    "rename_formula",
    "slot_mapping",
    "unanchored_through_points",
]

_PASSES_THROUGH = (AtomKind.DATA_FLOW_PASSES_THROUGH, AtomKind.CONTROL_FLOW_PASSES_THROUGH)


def join(kind: type[Conjunction] | type[Disjunction], parts: list[Formula]) -> Formula:
    """`and`/`or` of parts, flattened one level and without singleton groups."""
    flat: list[Formula] = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, kind) else (part,))
    return flat[0] if len(flat) == 1 else kind(tuple(flat))


def atom_count(formula: Formula) -> int:
    match formula:
        case Atom():
            return 1
        case Conjunction(parts=parts) | Disjunction(parts=parts):
            return sum(atom_count(part) for part in parts)
        case Collect(body=body):
            return atom_count(body)


def unanchored_through_points(formula: Formula) -> list[str]:
    """The variables that appear only as the third variable of `passes through` atoms."""
    through: dict[str, None] = {}
    elsewhere: set[str] = set()

    def visit(node: Formula) -> None:
        match node:
            case Atom(kind=kind, variables=names):
                passes = kind in _PASSES_THROUGH
                for position, name in enumerate(names):
                    if passes and position == 2:
                        through[name] = None
                    else:
                        elsewhere.add(name)
            case Conjunction(parts=parts) | Disjunction(parts=parts):
                for part in parts:
                    visit(part)
            case Collect(body=body, slot_variables=slots):
                visit(body)
                elsewhere.update(name for slot in slots for name in slot)

    visit(formula)
    return [name for name in through if name not in elsewhere]


def rename_formula(formula: Formula, mapping: Mapping[str, str]) -> Formula:
    """The formula with every variable `v` replaced by `mapping.get(v, v)`."""

    def name(old: str) -> str:
        return mapping.get(old, old)

    match formula:
        case Atom(kind=kind, variables=variables, detail=detail, span=span):
            return Atom(kind, tuple(name(v) for v in variables), detail, span)
        case Conjunction(parts=parts):
            return Conjunction(tuple(rename_formula(part, mapping) for part in parts))
        case Disjunction(parts=parts):
            return Disjunction(tuple(rename_formula(part, mapping) for part in parts))
        case Collect(slots=slots, body=body, slot_variables=slot_variables, span=span):
            renamed = tuple(tuple(name(v) for v in slot) for slot in slot_variables)
            local = tuple(name(v) for v in formula.local)
            return Collect(slots, rename_formula(body, mapping), renamed, span, local)


class ShapeMismatch(Exception):
    """Two expansions of a collect body that are not the same formula up to names."""


def slot_mapping(first: Formula, other: Formula, mapping: dict[str, str]) -> None:
    """Extend `mapping` (name in `first` -> name in `other`) by walking both in step.

    Raises ShapeMismatch when the formulas differ in more than variable names, or when
    one name of `first` would stand for two names of `other`.
    """

    def same(a: str, b: str) -> None:
        if mapping.setdefault(a, b) != b:
            raise ShapeMismatch(f"{{{a}}} stands for both {{{mapping[a]}}} and {{{b}}}")

    match first, other:
        case Atom(), Atom() if (first.kind, first.detail, len(first.variables)) == (
            other.kind,
            other.detail,
            len(other.variables),
        ):
            for a, b in zip(first.variables, other.variables, strict=True):
                same(a, b)
        case (Conjunction(parts=a_parts), Conjunction(parts=b_parts)) | (
            Disjunction(parts=a_parts),
            Disjunction(parts=b_parts),
        ) if len(a_parts) == len(b_parts):
            for a_part, b_part in zip(a_parts, b_parts, strict=True):
                slot_mapping(a_part, b_part, mapping)
        case Collect(), Collect() if (
            first.slots,
            len(first.slot_variables[0]),
            len(first.local),
        ) == (other.slots, len(other.slot_variables[0]), len(other.local)):
            slot_mapping(first.body, other.body, mapping)
            for a_slot, b_slot in zip(first.slot_variables, other.slot_variables, strict=True):
                for a, b in zip(a_slot, b_slot, strict=True):
                    same(a, b)
            for a, b in zip(first.local, other.local, strict=True):
                same(a, b)
        case _:
            raise ShapeMismatch("its formula is not the same for every slot")
