"""A `Program` turned into the solver's form: integer variable slots and flat groups.

This part knows nothing of a function; it is computed once per program and cached, and
so are the program's plans, which are kept on it.
A `Group` is a flattened conjunction: the atoms, disjunctions and collects that must
all hold. A disjunction is a tuple of groups (one per disjunct); a one-part disjunction
is merged into its parent and an empty one makes its group false.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from idl.program import (
    Atom,
    AtomKind,
    Collect,
    Conjunction,
    Disjunction,
    Formula,
    Program,
    formula_variables,
)

__all__ = [
    "CAtom",
    "CCollect",
    "CDisjunction",
    "CompiledProgram",
    "Group",
    "adopt_compiled",
    "compile_program",
]


@dataclass(frozen=True, eq=False, slots=True)
class CAtom:
    atom: Atom
    slots: tuple[int, ...]  # the atom's variables, as indexes into the value array
    variables: frozenset[int]
    order: int  # position in the formula, for the order of appearance


@dataclass(frozen=True, eq=False, slots=True)
class CDisjunction:
    parts: tuple[Group, ...]
    variables: frozenset[int]  # every variable below, collects included
    order: int


@dataclass(frozen=True, eq=False, slots=True)
class CCollect:
    slots: int
    body: Group
    inner: tuple[int, ...]  # slot 0's variables: what one inner solution assigns
    outer: tuple[int, ...]  # the body's other variables: fixed outside the collect
    produced: tuple[int, ...]  # every slot's variables, slot by slot
    variables: frozenset[int]
    order: int
    # The body's variables that are each inner solution's own (`keeping`): one solution
    # is kept per value of `inner`, whatever these take.
    local: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class Group:
    atoms: tuple[CAtom, ...]
    disjunctions: tuple[CDisjunction, ...]
    collects: tuple[CCollect, ...]
    false: bool  # holds an empty disjunction
    variables: frozenset[int]


@dataclass(frozen=True, eq=False, slots=True)
class CompiledProgram:
    program: Program
    names: tuple[str, ...]  # slot -> variable name
    root: Group
    first_seen: tuple[int, ...]  # slot -> order of the first item that names it
    atoms_of: tuple[tuple[CAtom, ...], ...]  # slot -> every atom that names it
    # One-variable atoms (kind, detail) that hold in every solution: if no value of a
    # function satisfies one of them, the program has no solution there.
    required: tuple[tuple[AtomKind, str | int | None], ...] = ()
    # The program's plans, by variable order and size class (`solver_plan.planner_for`): built
    # once, shared by every function the program is solved on.
    planners: dict[str, Any] = field(default_factory=dict, repr=False)
    # slot of each name, and whether `names` holds more than the program's variables:
    # read by every solve, so computed once (a library program has thousands).
    slot_of: dict[str, int] = field(default_factory=dict, repr=False)
    extra_names: bool = False
    # Each disjunction's local variables: those no atom or collect outside it names
    # (`_local_variables`). Once the others are bound, which way the disjunction holds
    # is read by nothing else, so detection need find only one (`solver_plan`).
    locals_of: dict[CDisjunction, frozenset[int]] = field(default_factory=dict, repr=False)


# By identity: hashing a large program (thousands of atoms) costs more than a small
# search. The entry keeps the program alive, so its id cannot be reused meanwhile.
_COMPILED: dict[int, CompiledProgram] = {}
_COMPILED_LIMIT = 512


def compile_program(program: Program) -> CompiledProgram:
    """The solver's form of `program`, computed once per program object."""
    found = _COMPILED.get(id(program))
    if found is None or found.program is not program:
        if len(_COMPILED) >= _COMPILED_LIMIT:
            _COMPILED.clear()
        found = _compile(program)
        _COMPILED[id(program)] = found
    return found


def adopt_compiled(compiled: CompiledProgram) -> Program:
    """Its program, with `compiled` recorded as its solver's form (one read from the
    library cache, matcher/library_cache.py)."""
    if len(_COMPILED) >= _COMPILED_LIMIT:
        _COMPILED.clear()
    _COMPILED[id(compiled.program)] = compiled
    return compiled.program


def _compile(program: Program) -> CompiledProgram:
    # A keeping collect's local variables need slots for its body's search too.
    names = tuple(dict.fromkeys(program.variables + formula_variables(program.formula, local=True)))
    builder = _Builder({name: i for i, name in enumerate(names)})
    root = builder.group(program.formula)
    unseen = len(names) + builder.counter
    first_seen = tuple(builder.first_seen.get(i, unseen) for i in range(len(names)))
    atoms_of: list[list[CAtom]] = [[] for _ in names]
    for atom in builder.atoms:
        for slot in atom.variables:
            atoms_of[slot].append(atom)
    required = () if root.false else tuple(sorted(_required(root), key=str))
    return CompiledProgram(
        program,
        names,
        root,
        first_seen,
        tuple(map(tuple, atoms_of)),
        required,
        slot_of={name: slot for slot, name in enumerate(names)},
        extra_names=len(set(program.variables)) != len(names),
        locals_of=_local_variables(root, atoms_of),
    )


def _local_variables(
    root: Group, atoms_of: list[list[CAtom]]
) -> dict[CDisjunction, frozenset[int]]:
    """The local variables of every disjunction that has some: named by no atom outside
    it and produced by no collect outside it (a collect's outer variables are only the
    variables of its body, so they do not count)."""
    produced_by: dict[int, list[CCollect]] = {}
    found: dict[CDisjunction, frozenset[int]] = {}

    def inside(group: Group, atoms: set[CAtom], collects: set[CCollect]) -> None:
        atoms.update(group.atoms)
        for collect in group.collects:
            collects.add(collect)
            inside(collect.body, atoms, collects)
        for disjunction in group.disjunctions:
            for part in disjunction.parts:
                inside(part, atoms, collects)

    def visit(group: Group) -> None:
        for collect in group.collects:
            for slot in collect.produced:
                produced_by.setdefault(slot, []).append(collect)
            visit(collect.body)
        for disjunction in group.disjunctions:
            for part in disjunction.parts:
                visit(part)

    def assign(group: Group) -> None:
        for collect in group.collects:
            assign(collect.body)
        for disjunction in group.disjunctions:
            atoms: set[CAtom] = set()
            collects: set[CCollect] = set()
            for part in disjunction.parts:
                inside(part, atoms, collects)
                assign(part)
            local = frozenset(
                v
                for v in disjunction.variables
                if all(a in atoms for a in atoms_of[v])
                and all(c in collects for c in produced_by.get(v, ()))
            )
            if local:
                found[disjunction] = local

    visit(root)
    assign(root)
    return found


def _required(group: Group) -> set[tuple[AtomKind, str | int | None]]:
    """The one-variable atoms every solution of `group` satisfies: its own, and those of
    every disjunct of one of its disjunctions (collects may hold with no inner solution,
    so their bodies require nothing). `unused` is left out: no value satisfies it."""
    found: set[tuple[AtomKind, str | int | None]] = {
        (a.atom.kind, a.atom.detail)
        for a in group.atoms
        if len(a.slots) == 1 and a.atom.kind is not AtomKind.UNUSED
    }
    for disjunction in group.disjunctions:
        parts = [_required(part) for part in disjunction.parts if not part.false]
        if parts:
            found |= set.intersection(*parts)
    return found


class _Builder:
    def __init__(self, slots: dict[str, int]) -> None:
        self.slots = slots
        self.counter = 0
        self.first_seen: dict[int, int] = {}
        self.atoms: list[CAtom] = []

    def _order(self, variables: frozenset[int]) -> int:
        order = self.counter
        self.counter += 1
        for slot in variables:
            self.first_seen.setdefault(slot, order)
        return order

    def group(self, formula: Formula) -> Group:
        atoms: list[CAtom] = []
        disjunctions: list[CDisjunction] = []
        collects: list[CCollect] = []
        false = self._flatten(formula, atoms, disjunctions, collects)
        variables = frozenset().union(
            *(a.variables for a in atoms),
            *(d.variables for d in disjunctions),
            *(c.variables for c in collects),
        )
        return Group(tuple(atoms), tuple(disjunctions), tuple(collects), false, variables)

    def _flatten(
        self,
        formula: Formula,
        atoms: list[CAtom],
        disjunctions: list[CDisjunction],
        collects: list[CCollect],
    ) -> bool:
        """Adds the conjuncts of `formula` to the lists; True if it is trivially false."""
        match formula:
            case Atom(variables=names):
                slots = tuple(self.slots[n] for n in names)
                variables = frozenset(slots)
                order = self._order(variables)
                compiled = CAtom(formula, slots, variables, order)
                atoms.append(compiled)
                self.atoms.append(compiled)
                return False
            case Conjunction(parts=parts):
                false = False
                for part in parts:
                    false = self._flatten(part, atoms, disjunctions, collects) or false
                return false
            case Disjunction(parts=()):
                return True
            case Disjunction(parts=(only,)):
                return self._flatten(only, atoms, disjunctions, collects)
            case Disjunction(parts=parts):
                order = self._order(frozenset())
                groups = tuple(self.group(part) for part in parts)
                variables = frozenset().union(*(g.variables for g in groups))
                disjunctions.append(CDisjunction(groups, variables, order))
                return False
            case Collect():
                collects.append(self._collect(formula))
                return False
        raise TypeError(f"not a formula: {formula!r}")

    def _collect(self, collect: Collect) -> CCollect:
        order = self._order(frozenset())
        body = self.group(collect.body)
        inner_names = collect.slot_variables[0] if collect.slot_variables else ()
        inner = tuple(self.slots[n] for n in inner_names)
        local = tuple(self.slots[n] for n in collect.local)
        outer = tuple(sorted(body.variables - set(inner) - set(local)))
        produced = tuple(self.slots[n] for slot in collect.slot_variables for n in slot)
        for slot in produced:
            self.first_seen.setdefault(slot, order)
        variables = frozenset(outer) | frozenset(produced)
        return CCollect(collect.slots, body, inner, outer, produced, variables, order, local)
