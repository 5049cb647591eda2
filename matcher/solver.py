"""The backtracking solver: every solution of a constraint program on one function.

`solve(program, function)` returns a `SolveResult`: the solutions, each a
`dict[str, Value | None]` over every variable of the program (None: unused), the
number of steps taken and whether the step budget ran out. Its semantics are the plain
formulation's (`matcher.reference` poses the same program to python-constraint):

- A disjunction is a choice point: the search takes each disjunct in turn, and the
  variables that the chosen disjuncts and the conjunctions around them constrain are
  the "satisfied part" of IDL.md section 7. A variable outside it is unused. Solutions
  are reported once each (identical assignments found along different choices are
  merged), so no two differ only in unconstrained variables. A solution that
  constrains more variables than another is still a solution of its own.
- `collect i n F` is evaluated once its outer variables (the body's variables that are
  not slot variables) are known: an outer variable that nothing else in the satisfied
  part constrains is unused, and the body is solved with it unused. The inner
  solutions (with the same section 7 rule inside the body) are sorted by the ids of
  their values, unused first, and fill slots 0..k-1; slots k..n-1 are unused. More
  than n inner solutions: the collect fails (the idiom does not describe that code,
  and dropping some would hide code from a mapper).
- Steps: one per candidate value tried, per disjunct entered and per collect body
  solved. When `budget` steps are spent, or `max_solutions` solutions found (each holds
  every variable: an ambiguous idiom could otherwise fill the memory), the search
  stops; the result says so (`exhausted`, `message()`, `raise_if_exhausted()`), with
  the solutions found so far.
- `distinct` (detection mode): with variable names given, at most one solution is
  reported per assignment of those variables (the first found), and as soon as one is,
  the search under that assignment is abandoned: it backtracks to where the last of
  those variables was bound. Detection folds solutions by region anyway; this makes it
  stop enumerating the many equivalent ways one region satisfies an idiom.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from idl.errors import IdiomError
from idl.program import Program
from matcher.atoms import UNBOUND, Slot
from matcher.function_index import index_of
from matcher.ir import Function, Value
from matcher.solver_plan import BindStep, CheckStep, CollectStep, Order, Planner, PlanNode
from matcher.solver_program import CCollect, CDisjunction, Group, compile_program

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_SOLUTIONS",
    "BudgetExhausted",
    "Order",
    "SolveResult",
    "solve",
]

DEFAULT_BUDGET = 1_000_000
DEFAULT_MAX_SOLUTIONS = 1_000

Solution = dict[str, Value | None]
# A choice point: the options left (values of a variable, disjunct numbers, or nothing
# for a collect's undo marker), the plan node and the step index (-1: the node's branch).
Frame = tuple[Iterator[Any], "PlanNode", int]
CollectResult = tuple[Value | None, ...] | None


class BudgetExhausted(IdiomError):
    """The search of one program on one function ran out of steps."""


@dataclass(frozen=True)
class SolveResult:
    """The solutions of one program on one function, and how the search went."""

    program: str
    function: str
    solutions: tuple[Solution, ...]
    steps: int
    budget: int
    exhausted: bool
    too_many_solutions: bool = False  # stopped at `max_solutions`, not at the budget

    def __iter__(self) -> Iterator[Solution]:
        return iter(self.solutions)

    def __len__(self) -> int:
        return len(self.solutions)

    def message(self) -> str | None:
        """What to tell the user when the search was cut short; None when it was not."""
        if not self.exhausted:
            return None
        if self.too_many_solutions:
            return (
                f"idiom {self.program} in function {self.function} was cut short at "
                f"{len(self.solutions)} solutions (after {self.steps} steps)"
            )
        return (
            f"idiom {self.program} in function {self.function} was cut short after "
            f"{self.steps} steps ({len(self.solutions)} solutions found before)"
        )

    def raise_if_exhausted(self) -> None:
        message = self.message()
        if message is not None:
            raise BudgetExhausted(message)


class _OutOfSteps(Exception):
    """Unwinds every nested search at once when the budget is spent."""


class _TooManySolutions(Exception):
    """Unwinds the search when `max_solutions` solutions have been found."""


def solve(
    program: Program,
    function: Function,
    *,
    budget: int | None = None,
    order: Order = "selective",
    max_solutions: int = DEFAULT_MAX_SOLUTIONS,
    distinct: tuple[str, ...] | None = None,
) -> SolveResult:
    """Every solution of `program` on `function` (see the module docstring);
    `budget=None` means `DEFAULT_BUDGET` steps."""
    limit = DEFAULT_BUDGET if budget is None else budget
    engine = _Engine(program, function, limit, order)
    if distinct is not None:
        engine.set_distinct(distinct)
    exhausted = too_many = False
    try:
        engine.run_top(max_solutions)
    except _OutOfSteps:
        exhausted = True
    except _TooManySolutions:
        exhausted = too_many = True
    names = engine.compiled.names
    solutions = tuple(dict(zip(names, found, strict=True)) for found in engine.found)
    wanted = set(program.variables)
    if len(wanted) != len(names):  # names also covers variables missing from `variables`
        solutions = tuple({k: v for k, v in s.items() if k in wanted} for s in solutions)
    return SolveResult(
        program.name, function.name, solutions, engine.steps, limit, exhausted, too_many
    )


class _Engine:
    """The search over plan nodes; nested searches (collect bodies) share its budget."""

    def __init__(self, program: Program, function: Function, limit: int, order: Order) -> None:
        self.compiled = compile_program(program)
        self.ix = index_of(function)
        self.planner = Planner(self.compiled, self.ix, order, self.disjunction_holds)
        self.limit = limit
        self.steps = 0
        self.found: dict[tuple[Value | None, ...], None] = {}
        self._collects: dict[tuple[CCollect, tuple[Value | None, ...]], CollectResult] = {}
        # Detection mode (`distinct`): the key slots, the keys found, the depth of the
        # top-level frame that bound each slot, and where to unwind to after a solution.
        self._key_slots: tuple[int, ...] | None = None
        self._keys: set[tuple[Value | None, ...]] = set()
        self._top_stack: list[Frame] | None = None
        self._bound_at: dict[int, int] = {}
        self._cut: int | None = None

    def set_distinct(self, names: tuple[str, ...]) -> None:
        slot_of = {name: slot for slot, name in enumerate(self.compiled.names)}
        self._key_slots = tuple(slot_of[name] for name in names if name in slot_of)

    def _key(self, vals: list[Slot]) -> tuple[Value | None, ...]:
        assert self._key_slots is not None
        return tuple(_value(vals[s]) for s in self._key_slots)

    def run_top(self, max_solutions: int) -> None:
        vals: list[Slot] = [UNBOUND] * len(self.compiled.names)
        found = self.found

        def emit(vals: list[Slot]) -> None:
            if self._key_slots is not None:
                key = self._key(vals)
                if key in self._keys:
                    return
                self._keys.add(key)
                depths = [
                    self._bound_at.get(s, -1) for s in self._key_slots if vals[s] is not UNBOUND
                ]
                self._cut = max(depths, default=-1)
            found[tuple([None if v is UNBOUND else v for v in vals])] = None  # type: ignore[misc]
            if len(found) >= max_solutions:
                raise _TooManySolutions

        self.search(self.planner.root(), vals, emit, top=True)

    def _count(self) -> None:
        self.steps += 1
        if self.steps > self.limit:
            self.steps = self.limit
            raise _OutOfSteps

    def search(
        self,
        root: PlanNode,
        vals: list[Slot],
        emit: Callable[[list[Slot]], None],
        *,
        top: bool = False,
    ) -> None:
        """Depth-first over the plan from `root`; frames: (options, node, step index)."""
        stack: list[Frame] = []
        if top:
            self._top_stack = stack
        node, index = root, 0
        while True:
            self._forward(node, index, vals, stack, emit)
            if top and self._cut is not None:
                self._unwind(vals, stack, self._cut)
                self._cut = None
            resumed = self._backtrack(vals, stack)
            if resumed is None:
                return
            node, index = resumed

    def _forward(
        self,
        node: PlanNode,
        index: int,
        vals: list[Slot],
        stack: list[Frame],
        emit: Callable[[list[Slot]], None],
    ) -> None:
        """Runs deterministic steps until a choice is pushed, a check fails or a solution."""
        steps, plan = node.steps, self.planner.step
        while True:
            step = steps[index] if index < len(steps) else plan(node, index)
            if step is None:
                break
            if isinstance(step, BindStep):
                stack.append((iter(step.generate(vals)), node, index))
                return
            if isinstance(step, CheckStep):
                if not all(check(vals) for check in step.checks):
                    return
            elif not self._apply_collect(step, vals, stack, node, index):
                return
            index += 1
        if node.branch is None:
            emit(vals)
        else:
            stack.append((iter(range(len(node.children))), node, -1))

    def _backtrack(self, vals: list[Slot], stack: list[Frame]) -> tuple[PlanNode, int] | None:
        """The next option of the innermost choice with one left; None when none has."""
        while stack:
            options, node, index = stack[-1]
            if index < 0:  # a disjunction: enter the next disjunct
                for choice in options:
                    self._count()
                    assert isinstance(choice, int)
                    return self.planner.child(node, choice), 0
                stack.pop()
                continue
            step = node.steps[index]
            if isinstance(step, CollectStep):  # undo what the collect assigned
                for _, slot in step.assign:
                    vals[slot] = UNBOUND
                stack.pop()
                continue
            assert isinstance(step, BindStep)
            var, checks = step.var, step.checks
            for value in options:
                self._count()
                vals[var] = value
                for check in checks:
                    if not check(vals):
                        break
                else:
                    if stack is self._top_stack:
                        self._bound_at[var] = len(stack) - 1
                    return node, index + 1
            vals[var] = UNBOUND
            stack.pop()
        return None

    def _unwind(self, vals: list[Slot], stack: list[Frame], depth: int) -> None:
        """Pops every frame above `depth`, undoing what each bound."""
        while len(stack) - 1 > depth:
            _, node, index = stack.pop()
            if index < 0:
                continue
            step = node.steps[index]
            if isinstance(step, CollectStep):
                for _, slot in step.assign:
                    vals[slot] = UNBOUND
            else:
                assert isinstance(step, BindStep)
                vals[step.var] = UNBOUND

    # -- collect -------------------------------------------------------------------------

    def _apply_collect(
        self,
        step: CollectStep,
        vals: list[Slot],
        stack: list[Frame],
        node: PlanNode,
        index: int,
    ) -> bool:
        result = self.collect_values(step.collect, vals)
        if result is None or any(vals[s] is not result[i] for i, s in step.compare):
            return False
        for i, slot in step.assign:
            vals[slot] = result[i]
        stack.append((iter(()), node, index))  # popping it undoes the assignment
        if stack is self._top_stack:
            for _, slot in step.assign:
                self._bound_at[slot] = len(stack) - 1
        return all(check(vals) for check in step.checks)

    def collect_values(self, collect: CCollect, vals: list[Slot]) -> CollectResult:
        """The values of the collect's slot variables, or None if it cannot hold."""
        outer = tuple(_value(vals[s]) for s in collect.outer)
        key = (collect, outer)
        if key in self._collects:
            return self._collects[key]
        self._count()
        inner_vals: list[Slot] = [UNBOUND] * len(vals)
        for slot, value in zip(collect.outer, outer, strict=True):
            inner_vals[slot] = value
        found: dict[tuple[Value | None, ...], None] = {}
        inner = collect.inner

        def emit(vals: list[Slot]) -> None:
            found[tuple(_value(vals[s]) for s in inner)] = None

        self.search(self.planner.collect_root(collect), inner_vals, emit)
        result: CollectResult = None
        if len(found) <= collect.slots:
            ordered = sorted(found, key=_canonical)
            width = len(inner)
            values: list[Value | None] = [None] * len(collect.produced)
            for number, solution in enumerate(ordered):
                values[number * width : (number + 1) * width] = solution
            result = tuple(values[: len(collect.produced)])
        self._collects[key] = result
        return result

    # -- fully bound formulas -------------------------------------------------------------

    def disjunction_holds(self, disjunction: CDisjunction, vals: list[Slot]) -> bool:
        return any(self._group_holds(part, vals) for part in disjunction.parts)

    def _group_holds(self, group: Group, vals: list[Slot]) -> bool:
        if group.false:
            return False
        check = self.planner.check
        if not all(check(atom)(vals) for atom in group.atoms):
            return False
        for collect in group.collects:
            result = self.collect_values(collect, vals)
            if result is None or any(
                vals[s] is not result[i] for i, s in enumerate(collect.produced)
            ):
                return False
        return all(self.disjunction_holds(d, vals) for d in group.disjunctions)


def _value(slot: Slot) -> Value | None:
    return slot if isinstance(slot, Value) else None


def _canonical(solution: tuple[Value | None, ...]) -> tuple[int, ...]:
    return tuple(-1 if v is None else v.id for v in solution)
