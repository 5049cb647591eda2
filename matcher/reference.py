"""The reference semantics of a constraint program: the plain formulation, posed to
python-constraint over explicit finite domains. A test oracle for `matcher.solver`,
not the production path: it enumerates the disjunct choices one by one and can be very
slow; use it on small functions only.

The formulation, for a program P on a function F:
- A *selection* picks one disjunct of every disjunction that the picks above it keep
  (a nested disjunction inside a disjunct that was not picked needs no pick). It turns
  P into a conjunction of atoms and collects: the satisfied part of IDL.md section 7.
- For each selection, every variable the selection mentions (the variables of its
  atoms and the slot variables of its collects) ranges over `F.values` plus unused;
  every other variable is unused. The atoms are python-constraint function
  constraints through `matcher.atoms.holds`.
- A collect constrains its slot variables to be exactly its list of inner solutions:
  the solutions of its body by this same definition (over the slot-0 variables, the
  body's other variables fixed at their values, unused where the selection leaves
  them free), sorted by value ids with unused first, in slots 0..k-1, the others
  unused; with more inner solutions than slots the collect fails. A collect `keeping`
  some variables solves its body over those and its local variables, and its inner
  solutions are the distinct values of the kept ones.
- The solution set is the union over selections, as a set.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import constraint

from idl.program import Atom, Collect, Conjunction, Disjunction, Formula, Program, formula_variables
from matcher.atoms import holds
from matcher.ir import Function, Value

__all__ = ["reference_solutions"]

Assignment = tuple[Value | None, ...]
Item = Atom | Collect
Test = Callable[[dict[str, Value | None]], bool]


def reference_solutions(program: Program, function: Function) -> set[Assignment]:
    """Every solution, as a tuple over `program.variables` (None: unused)."""
    solver = _Reference(function)
    return solver.solve(program.formula, program.variables, {})


def _selections(formula: Formula) -> Iterator[list[Item]]:
    """The atoms and collects of each way of choosing disjuncts."""
    match formula:
        case Atom() | Collect():
            yield [formula]
        case Conjunction(parts=parts):
            for combination in itertools.product(*(list(_selections(p)) for p in parts)):
                yield [item for chosen in combination for item in chosen]
        case Disjunction(parts=parts):
            for part in parts:
                yield from _selections(part)


def _mentioned(items: Sequence[Item]) -> set[str]:
    names: set[str] = set()
    for item in items:
        if isinstance(item, Atom):
            names.update(item.variables)
        else:
            names.update(n for slot in item.slot_variables for n in slot)
    return names


class _Reference:
    def __init__(self, function: Function) -> None:
        self.function = function
        self.values: tuple[Value, ...] = function.values
        # python-constraint gets small integers; -1 is unused.
        self.domain = list(range(-1, len(self.values)))

    def value(self, number: int) -> Value | None:
        return None if number < 0 else self.values[number]

    def solve(
        self, formula: Formula, unknowns: Sequence[str], fixed: dict[str, Value | None]
    ) -> set[Assignment]:
        """Solutions over `unknowns`; the formula's other variables are in `fixed`."""
        found: set[Assignment] = set()
        for items in _selections(formula):
            free = [n for n in unknowns if n in _mentioned(items)]
            for assignment in self._solve_selection(items, free, fixed):
                found.add(tuple(assignment.get(n) for n in unknowns))
        return found

    def _solve_selection(
        self, items: list[Item], free: list[str], fixed: dict[str, Value | None]
    ) -> list[dict[str, Value | None]]:
        problem = constraint.Problem()
        for name in free:
            problem.addVariable(name, self.domain)
        for names, test in self._constraints(items, fixed):
            unknown = [n for n in names if n in free]
            if not unknown:
                if not test(fixed):
                    return []
                continue
            problem.addConstraint(
                constraint.FunctionConstraint(self._numbered(test, unknown, fixed)), unknown
            )
        if not free:
            return [{}]
        return [
            {name: self.value(number) for name, number in solution.items()}
            for solution in problem.getSolutions()
        ]

    def _numbered(self, test: Test, unknown: list[str], fixed: dict[str, Value | None]) -> Any:
        def numbered(*numbers: int) -> bool:
            values = dict(fixed)
            values.update(zip(unknown, (self.value(n) for n in numbers), strict=True))
            return test(values)

        return numbered

    def _constraints(
        self, items: list[Item], fixed: dict[str, Value | None]
    ) -> Iterator[tuple[list[str], Test]]:
        """(variables, test) pairs. A collect gives one per slot variable (that variable
        equals its slot of the inner solution list): the same conjunction, but each is
        decided as soon as the outer variables are, which python-constraint exploits."""
        for item in items:
            if isinstance(item, Atom):
                yield (
                    list(dict.fromkeys(item.variables)),
                    functools.partial(holds, self.function, item),
                )
                continue
            inner = set(item.slot_variables[0]) | set(item.local)
            outer = [n for n in formula_variables(item.body) if n not in inner]
            produced = [n for slot in item.slot_variables for n in slot]
            for position, name in enumerate(produced):
                yield (
                    list(dict.fromkeys([*outer, name])),
                    functools.partial(self._slot_test, item, outer, position, name),
                )

    def _slot_test(
        self,
        collect: Collect,
        outer: list[str],
        position: int,
        name: str,
        values: dict[str, Value | None],
    ) -> bool:
        expected = self._collect(collect, tuple((n, values.get(n)) for n in outer))
        return expected is not None and values.get(name) is expected[position]

    @functools.cache  # noqa: B019 - one instance per reference run
    def _collect(
        self, collect: Collect, outer: tuple[tuple[str, Value | None], ...]
    ) -> Assignment | None:
        inner = collect.slot_variables[0]
        ways = self.solve(collect.body, (*inner, *collect.local), dict(outer))
        solutions = {way[: len(inner)] for way in ways}
        if len(solutions) > collect.slots:
            return None
        ordered = sorted(solutions, key=lambda s: tuple(-1 if v is None else v.id for v in s))
        values: list[Value | None] = []
        for number in range(len(collect.slot_variables)):
            values.extend(ordered[number] if number < len(ordered) else [None] * len(inner))
        return tuple(values)
