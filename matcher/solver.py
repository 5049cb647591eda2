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
  and dropping some would hide code from a mapper). A collect `keeping` some of its
  variables has as inner solutions the distinct values of those (slot 0's); its other
  variables that change with the slot are local to the body, and once one way is found
  for a value of the kept ones the body's search leaves that value (as `distinct` does).
- Steps: one per candidate value tried, per disjunct entered and per collect body
  solved. When `budget` steps are spent, or `max_solutions` solutions found (each holds
  every variable: an ambiguous idiom could otherwise fill the memory), the search
  stops; the result says so (`exhausted`, `message()`, `raise_if_exhausted()`), with
  the solutions found so far.
- `distinct` (detection mode): with variable names given, at most one solution is
  reported per assignment of those variables (the first found), and as soon as one is,
  the search under that assignment is abandoned: it backtracks to where the last of
  those variables was bound. Detection folds solutions by region anyway; this makes it
  stop enumerating the many equivalent ways one region satisfies an idiom. For the same
  reason, a disjunction whose local variables (named nowhere else, none of them a key
  variable) are all that is left unbound in it is settled by the first way it holds (a
  search of it alone, remembered per values of its other variables), not branched on:
  the ways differ only in what nothing else reads (a chain of data flow, say).

What makes it fast (none of it changes the solutions, nor their order):
- The plan (`matcher.solver_plan`) depends on the program and on the size class of the
  function only (`matcher.solver_cost.nominal_size`: every function of up to 316
  values is one class): it is built once, on first use, and shared by every function
  of the class; the engine compiles its steps into checks and generators for the
  function at hand, once per step and solve. The variable order and the estimates it
  follows are described in `matcher.solver_plan`.
- `may_match` first: a one-variable atom that every solution needs (an opcode of the
  top-level conjunction, or one that every disjunct of a disjunction has) and that no
  value of the function satisfies means no solution; the search is skipped (0 steps).
- Failures are learnt from (see `_Engine`): each failure knows the variables that
  explain it (its conflict). A plan point (a bind step, or a branch, which the plan
  shares between the paths that reach the same pending formula) searched without
  success fails at once when reached again with the same values of its conflict's
  variables, however the search got there; and a failure that does not depend on the
  innermost bindings jumps back over them (conflict-directed back-jumping) instead of
  trying their other values, which would fail the same way. This is what keeps an
  independent sub-problem (the loops of a nest, the accesses of a stencil) from being
  searched again for every value of something it does not read. Steps not taken are
  not counted, so a search may take fewer steps than before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from idl.errors import IdiomError
from idl.program import Program
from matcher.atoms import UNBOUND, Slot, compile_check, compile_generator, projection_size
from matcher.function_index import FunctionIndex, index_of
from matcher.ir import Function, Value
from matcher.solver_cost import nominal_size
from matcher.solver_plan import (
    BindStep,
    CheckItem,
    CheckStep,
    CollectStep,
    ExistsStep,
    MemberStep,
    Order,
    PlanNode,
    Step,
    planner_for,
)
from matcher.solver_program import CAtom, CCollect, CDisjunction, Group, compile_program

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_SOLUTIONS",
    "BudgetExhausted",
    "Order",
    "SearchVariant",
    "SolveResult",
    "may_match",
    "solve",
]

DEFAULT_BUDGET = 1_000_000
DEFAULT_MAX_SOLUTIONS = 1_000

Solution = dict[str, Value | None]
Check = Callable[[list[Slot]], bool]
Generator = Callable[[list[Slot]], Iterable[Value | None]]
# Takes a solution; True when the search is to leave the present values of its keys.
Emit = Callable[[list[Slot]], bool]
# A frame of the search stack, by its first item:
#   _BIND:   (_BIND, values left, variable, its checks, plan node, step index, conflict,
#             solutions emitted when pushed, the bind step, variables its generator reads)
#   _CHOICE: (_CHOICE, disjunct numbers left, branch, plan node)
#   _UNDO:   (_UNDO, slots a collect or a settled disjunction assigned, the slots its
#             search read); popping it unassigns them
#   _MARK:   (_MARK, branch, solutions emitted when the branch point was reached,
#             conflict)
# A conflict is the set of variables whose values explain the failures met so far.
Frame = tuple[Any, ...]
_BIND, _CHOICE, _UNDO, _MARK = range(4)
CollectResult = tuple[Value | None, ...] | None
# Failures remembered per solve (see `_Engine`), at most this many.
_FAILED_LIMIT = 1 << 17


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


class _Found(Exception):
    """Ends the search for one way a disjunction holds (`ExistsStep`) at the first."""

    def __init__(self, values: tuple[Value | None, ...]) -> None:
        self.values = values


class _TooManySolutions(Exception):
    """Unwinds the search when `max_solutions` solutions have been found."""


@dataclass(frozen=True)
class SearchVariant:
    """Other ways to search, to compare them with the default (the tests do): the same
    solutions in the same order, in another number of steps.
    - `learn=False`: plain chronological backtracking, nothing learnt from failures;
    - `settle=False`: in detection mode, disjunctions are branched on, never settled by
      their first way (the keys found are the same);
    - `size_class`: plans made for that nominal size, not the function's."""

    learn: bool = True
    settle: bool = True
    size_class: float | None = None


DEFAULT_SEARCH = SearchVariant()


def solve(
    program: Program,
    function: Function,
    *,
    budget: int | None = None,
    order: Order = "selective",
    max_solutions: int = DEFAULT_MAX_SOLUTIONS,
    distinct: tuple[str, ...] | None = None,
    variant: SearchVariant = DEFAULT_SEARCH,
) -> SolveResult:
    """Every solution of `program` on `function` (see the module docstring);
    `budget=None` means `DEFAULT_BUDGET` steps."""
    limit = DEFAULT_BUDGET if budget is None else budget
    engine = _Engine(program, function, limit, order, variant)
    if distinct is not None:
        engine.set_distinct(distinct, settle=variant.settle)
    exhausted = too_many = False
    try:
        if may_match(program, function):
            engine.run_top(max_solutions)
    except _OutOfSteps:
        exhausted = True
    except _TooManySolutions:
        exhausted = too_many = True
    finally:
        engine.release()
    compiled = engine.compiled
    names = compiled.names
    solutions = tuple(dict(zip(names, found, strict=True)) for found in engine.found)
    if compiled.extra_names:  # names also covers variables missing from `variables`
        wanted = set(program.variables)
        solutions = tuple({k: v for k, v in s.items() if k in wanted} for s in solutions)
    return SolveResult(
        program.name, function.name, solutions, engine.steps, limit, exhausted, too_many
    )


def may_match(program: Program, function: Function) -> bool:
    """False when the program cannot match the function, as a cheap check: some
    one-variable atom that every solution needs (`CompiledProgram.required`, e.g. `{x}
    is store instruction` at the top level) holds for no value of the function."""
    ix = index_of(function)
    return all(
        projection_size(ix, kind, detail, 0, 1) > 0
        for kind, detail in compile_program(program).required
    )


class _Run:
    """One depth-first search: the top one or a collect body's; its stack, where its
    solutions go and how many it has emitted. With `keys` (detection's key variables at
    the top, a `keeping` collect's kept ones in its body), the depth of the frame that
    bound each variable is kept, and `cut`, set when `emit` asks for it, is where to
    unwind to: the search under an assignment of the keys already reported is
    abandoned."""

    __slots__ = ("bound_at", "cut", "emit", "emitted", "keys", "stack")

    def __init__(self, emit: Emit, keys: tuple[int, ...] | None = None) -> None:
        self.emit = emit
        self.emitted = 0
        self.stack: list[Frame] = []
        self.keys = keys
        self.bound_at: dict[int, int] = {}
        self.cut: int | None = None

    def cut_at_keys(self, vals: list[Slot]) -> None:
        """After a solution: unwind to where the last of the bound keys was bound."""
        assert self.keys is not None
        depths = [self.bound_at.get(s, -1) for s in self.keys if vals[s] is not UNBOUND]
        self.cut = max(depths, default=-1)


class _Engine:
    """The search over plan nodes for one function; nested searches (collect bodies)
    share its budget. The plan names atoms; the engine compiles them, once per step,
    into checks and generators over its function's index.

    Failures are learnt from (`prune`). Every failure comes with its conflict: the
    variables whose values explain it (a failed check's variables, a collect's outer
    variables, a generator's inputs when its values ran out). What the search does from
    a plan point (a bind step or a branch) depends only on the values it reads, so when
    everything below a point has failed without a solution, the point and the values of
    the conflict's variables are remembered, and a later arrival with those values
    fails at once; and a failure whose conflict leaves out the variables of the
    innermost frames jumps back over them (`_fail`). As no solution is ever skipped,
    the solutions come in the same order as without learning; only steps are saved."""

    def __init__(
        self,
        program: Program,
        function: Function,
        limit: int,
        order: Order,
        variant: SearchVariant,
    ) -> None:
        self.compiled = compile_program(program)
        self.ix: FunctionIndex = index_of(function)
        self.order = order
        self.prune = variant.learn  # off: plain chronological backtracking
        size_class = variant.size_class
        self.values = nominal_size(len(function.values)) if size_class is None else size_class
        self.planner = planner_for(self.compiled, order, self.values)
        self.limit = limit
        self.steps = 0
        self.found: dict[tuple[Value | None, ...], None] = {}
        self._collects: dict[tuple[CCollect, tuple[Value | None, ...]], CollectResult] = {}
        self._settled: dict[tuple[ExistsStep, tuple[Value | None, ...]], CollectResult] = {}
        self._checks: dict[CheckItem, Check] = {}
        self._steps: dict[Step, tuple[Any, ...]] = {}
        # Remembered failures: plan point -> variables read -> their failing values.
        self._nogoods: dict[object, dict[tuple[int, ...], set[tuple[Slot, ...]]]] = {}
        self._nogood_count = 0
        domain = self.ix.domain
        self._domain: Generator = lambda vals: domain  # not `self.ix`: no cycle
        # Detection mode (`distinct`): the key slots and the keys found.
        self._key_slots: tuple[int, ...] | None = None
        self._keys: set[tuple[Value | None, ...]] = set()

    def release(self) -> None:
        """Drops what the search compiled. Its checks close over the engine (a cycle),
        so without this every solve's closures and memos would wait for the cyclic
        garbage collector, whose full passes over a large heap cost more than the
        searches themselves."""
        self._checks.clear()
        self._steps.clear()
        self._collects.clear()
        self._settled.clear()
        self._nogoods.clear()

    def set_distinct(self, names: tuple[str, ...], *, settle: bool) -> None:
        slot_of = self.compiled.slot_of
        self._key_slots = tuple(slot_of[name] for name in names if name in slot_of)
        if settle:
            keep = frozenset(self._key_slots)
            self.planner = planner_for(self.compiled, self.order, self.values, keep)

    def _key(self, vals: list[Slot]) -> tuple[Value | None, ...]:
        assert self._key_slots is not None
        return tuple(_value(vals[s]) for s in self._key_slots)

    def run_top(self, max_solutions: int) -> None:
        vals: list[Slot] = [UNBOUND] * len(self.compiled.names)
        found = self.found

        def emit(vals: list[Slot]) -> bool:
            if self._key_slots is not None:
                key = self._key(vals)
                if key in self._keys:
                    return False
                self._keys.add(key)
            found[tuple([None if v is UNBOUND else v for v in vals])] = None  # type: ignore[misc]
            if len(found) >= max_solutions:
                raise _TooManySolutions
            return self._key_slots is not None

        self.search(self.planner.root(), vals, _Run(emit, self._key_slots))

    def _count(self) -> None:
        self.steps += 1
        if self.steps > self.limit:
            self.steps = self.limit
            raise _OutOfSteps

    def search(self, root: PlanNode, vals: list[Slot], run: _Run) -> None:
        """Depth-first over the plan from `root`."""
        node, index = root, 0
        while True:
            conflict = self._forward(node, index, vals, run)
            if run.cut is not None:
                self._unwind(vals, run.stack, run.cut)
                run.cut = None
            elif conflict is not None:
                self._fail(set(conflict), vals, run)
            resumed = self._backtrack(vals, run)
            if resumed is None:
                return
            node, index = resumed

    # -- compiled steps -----------------------------------------------------------------

    def check(self, item: CheckItem) -> Check:
        """The check of an atom or of a disjunction, on this function."""
        found = self._checks.get(item)
        if found is None:
            if isinstance(item, CAtom):
                found = compile_check(self.ix, item.atom, item.slots)
            else:
                holds = self.disjunction_holds
                found = lambda vals, d=item: holds(d, vals)  # noqa: E731
            self._checks[item] = found
        return found

    def _compile(self, step: Step) -> tuple[Any, ...]:
        """A step's checks, each with the variables it reads (and the generator and the
        variables it reads, for a bind) on this function."""
        check = self.check
        checks = tuple([(check(item), item.variables) for item in step.checks])
        compiled: tuple[Any, ...]
        if isinstance(step, MemberStep):
            sources = step.sources
            compiled = (step.var, lambda vals: _distinct(vals, sources), checks, sources)
        elif isinstance(step, BindStep):
            atom = step.atom
            inputs: tuple[int, ...] = ()
            if atom is None:
                generator = self._domain
            else:
                generator = compile_generator(self.ix, atom.atom, step.position, atom.slots)
                inputs = tuple(atom.variables - {step.var})
            compiled = (step.var, generator, checks, inputs)
        else:
            compiled = checks
        self._steps[step] = compiled
        return compiled

    # -- the search ----------------------------------------------------------------------

    def _forward(
        self, node: PlanNode, index: int, vals: list[Slot], run: _Run
    ) -> Iterable[int] | None:
        """Runs deterministic steps until a choice is pushed (None), a solution is
        emitted (None) or something fails: then the variables the failure read."""
        steps, plan, compiled_steps = node.steps, self.planner.step, self._steps
        stack = run.stack
        nogoods = self._nogoods
        while True:
            step = steps[index] if index < len(steps) else plan(node, index)
            if step is None:
                break
            compiled = compiled_steps.get(step) or self._compile(step)
            if type(step) is BindStep or type(step) is MemberStep:
                if step in nogoods and (known := self._known_failure(step, vals)) is not None:
                    return known
                var, generate, checks, inputs = compiled
                stack.append(
                    (
                        _BIND,
                        iter(generate(vals)),
                        var,
                        checks,
                        node,
                        index,
                        set(),
                        run.emitted,
                        step,
                        inputs,
                    )
                )
                return None
            if type(step) is CheckStep:
                for check, slots in compiled:
                    if not check(vals):
                        return slots  # type: ignore[no-any-return]
            elif type(step) is ExistsStep:
                failed = self._apply_exists(step, vals, run)
                if failed is not None:
                    return failed
            else:
                failed = self._apply_collect(step, compiled, vals, run)  # type: ignore[arg-type]
                if failed is not None:
                    return failed
            index += 1
        branch = node.branch
        if branch is None:
            run.emitted += 1
            if run.emit(vals):
                run.cut_at_keys(vals)
            return None
        if branch in nogoods and (known := self._known_failure(branch, vals)) is not None:
            return known
        stack.append((_MARK, branch, run.emitted, set()))
        stack.append((_CHOICE, iter(range(len(branch.options))), branch, node))
        return None

    def _backtrack(self, vals: list[Slot], run: _Run) -> tuple[PlanNode, int] | None:
        """The next option of the innermost choice with one left; None when none has."""
        stack = run.stack
        while stack:
            frame = stack[-1]
            kind = frame[0]
            if kind == _BIND:
                _, options, var, checks, node, index, conflict, emitted = frame[:8]
                for value in options:
                    self._count()
                    vals[var] = value
                    for check, slots in checks:
                        if not check(vals):
                            conflict.update(slots)
                            break
                    else:
                        if run.keys is not None:
                            run.bound_at[var] = len(stack) - 1
                        return node, index + 1
                vals[var] = UNBOUND
                stack.pop()
                if run.emitted == emitted:  # every value failed: see `_fail`
                    conflict.discard(var)
                    conflict.update(frame[9])
                    self._remember(frame[8], conflict, vals)
                    self._fail(conflict, vals, run)
            elif kind == _CHOICE:
                for choice in frame[1]:
                    self._count()
                    return self.planner.child(frame[2], choice), 0
                stack.pop()
            elif kind == _UNDO:
                for slot in frame[1]:
                    vals[slot] = UNBOUND
                stack.pop()
            else:  # _MARK: every option of the branch has been searched
                stack.pop()
                if run.emitted == frame[2]:
                    self._remember(frame[1], frame[3], vals)
                    self._fail(frame[3], vals, run)
        return None

    def _fail(self, conflict: set[int], vals: list[Slot], run: _Run) -> None:
        """A failure that only the values of the variables in `conflict` explain.

        Conflict-directed back-jumping: the innermost frames that bound none of those
        variables (and under which no solution was found) are dropped with every value
        they had left, since each would lead through the same deterministic steps to
        the same failure; on the way the conflict gains what explains their values
        (the variables their generator read, and why their earlier values failed), and
        each dropped point is remembered as failing. A collect's assignment on the way
        stands for the variables the collect read. The conflict is then added to the
        frame reached: the bind that set one of its variables, or the branch point whose
        option just failed (both are remembered with it when they are exhausted)."""
        stack = run.stack
        if not self.prune:
            return
        while stack:
            frame = stack[-1]
            kind = frame[0]
            if kind == _BIND:
                var = frame[2]
                if var in conflict or run.emitted != frame[7]:
                    frame[6].update(conflict)
                    return
                stack.pop()
                vals[var] = UNBOUND
                conflict |= frame[6]
                conflict.discard(var)
                conflict.update(frame[9])
                self._remember(frame[8], conflict, vals)
            elif kind == _UNDO:
                stack.pop()
                slots = frame[1]
                for slot in slots:
                    vals[slot] = UNBOUND
                if not conflict.isdisjoint(slots):
                    conflict.difference_update(slots)
                    conflict.update(frame[2])
            elif kind == _CHOICE:
                stack[-2][3].update(conflict)  # the branch's _MARK, just below
                return
            else:  # pragma: no cover - a _MARK always has its _CHOICE above it
                raise AssertionError("a branch mark without its choice")

    # -- remembered failures -------------------------------------------------------------

    def _remember(self, point: object, conflict: set[int], vals: list[Slot]) -> None:
        """Records that the search from `point` fails whenever the variables of
        `conflict` have their present values (it reads no other bound variable)."""
        if not self.prune:
            return
        if self._nogood_count >= _FAILED_LIMIT:
            self._nogoods.clear()
            self._nogood_count = 0
        slots = tuple(sorted(conflict))
        values = tuple([vals[s] for s in slots])
        table = self._nogoods.get(point)
        if table is None:
            self._nogoods[point] = {slots: {values}}
        else:
            seen = table.get(slots)
            if seen is None:
                table[slots] = {values}
            else:
                seen.add(values)
        self._nogood_count += 1

    def _known_failure(self, point: object, vals: list[Slot]) -> tuple[int, ...] | None:
        """The variables of a remembered failure at `point` that the present values
        repeat; None if none does."""
        for slots, seen in self._nogoods[point].items():
            if tuple([vals[s] for s in slots]) in seen:
                return slots
        return None

    def _unwind(self, vals: list[Slot], stack: list[Frame], depth: int) -> None:
        """Pops every frame above `depth`, undoing what each bound."""
        while len(stack) - 1 > depth:
            frame = stack.pop()
            if frame[0] == _BIND:
                vals[frame[2]] = UNBOUND
            elif frame[0] == _UNDO:
                for slot in frame[1]:
                    vals[slot] = UNBOUND

    # -- collect -------------------------------------------------------------------------

    def _apply_collect(
        self,
        step: CollectStep,
        checks: tuple[tuple[Check, frozenset[int]], ...],
        vals: list[Slot],
        run: _Run,
    ) -> Iterable[int] | None:
        """Evaluates a collect step; None when it holds, else the variables that explain
        the failure: the outer ones when the collect cannot hold (its result depends on
        them alone), and also the first slot whose bound value differs from the result."""
        collect = step.collect
        result = self.collect_values(collect, vals)
        if result is None:
            return collect.outer
        bound_of, compared_of = step.bound_of, step.compared_of
        # Tuple equality is identity here: neither values nor UNBOUND define __eq__.
        if (
            bound_of is not None
            and compared_of is not None
            and bound_of(vals) != compared_of(result)
        ):
            differs = next(s for i, s in step.compare if vals[s] is not result[i])
            return (*collect.outer, differs)
        slots, assigned_of = step.assigned, step.assigned_of
        if assigned_of is not None:
            for slot, value in zip(slots, assigned_of(result), strict=False):
                vals[slot] = value
        stack = run.stack
        stack.append((_UNDO, slots, collect.outer))  # popping it undoes the assignment
        keys = run.keys
        if keys is not None:  # only the keys' depths are read (`cut_at_keys`)
            depth, assigned = len(stack) - 1, step.assigned_set
            for slot in keys:
                if slot in assigned:
                    run.bound_at[slot] = depth
        for check, read in checks:
            if not check(vals):
                return read
        return None

    def collect_values(self, collect: CCollect, vals: list[Slot]) -> CollectResult:
        """The values of the collect's slot variables, or None if it cannot hold."""
        outer = tuple(_value(vals[s]) for s in collect.outer)
        key = (collect, outer)
        if key in self._collects:
            return self._collects[key]
        self._count()
        inner_vals = _only(collect.outer, outer, len(vals))
        found: dict[tuple[Value | None, ...], None] = {}
        inner = collect.inner
        keyed = bool(collect.local)  # `keeping`: the rest of the way found is not read

        def emit(vals: list[Slot]) -> bool:
            found[tuple(_value(vals[s]) for s in inner)] = None
            return keyed and all(vals[s] is not UNBOUND for s in inner)

        self.search(
            self.planner.collect_root(collect), inner_vals, _Run(emit, inner if keyed else None)
        )
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

    # -- a disjunction settled by one way it holds ----------------------------------------

    def _apply_exists(self, step: ExistsStep, vals: list[Slot], run: _Run) -> Iterable[int] | None:
        """Sets the local variables from one way the disjunction holds; None when one
        does, else the variables read."""
        found = self.exists_values(step, vals)
        if found is None:
            return step.outer
        for slot, value in zip(step.local, found, strict=True):
            if value is not None:
                vals[slot] = value
        stack = run.stack
        stack.append((_UNDO, step.local, step.outer))
        if run.keys is not None:
            for slot in step.local:
                run.bound_at[slot] = len(stack) - 1
        return None

    def exists_values(self, step: ExistsStep, vals: list[Slot]) -> CollectResult:
        """The local variables of the first way the disjunction holds (None: unused),
        or None when it does not hold."""
        outer = tuple(_value(vals[s]) for s in step.outer)
        key = (step, outer)
        if key in self._settled:
            return self._settled[key]
        self._count()
        inner_vals = _only(step.outer, outer, len(vals))
        local = step.local

        def emit(vals: list[Slot]) -> bool:
            raise _Found(tuple(_value(vals[s]) for s in local))

        result: CollectResult = None
        try:
            self.search(self.planner.exists_root(step), inner_vals, _Run(emit))
        except _Found as found:
            result = found.values
        self._settled[key] = result
        return result

    # -- fully bound formulas -------------------------------------------------------------

    def disjunction_holds(self, disjunction: CDisjunction, vals: list[Slot]) -> bool:
        # Plain loops: this runs for every candidate that completes a disjunction.
        for part in disjunction.parts:  # noqa: SIM110
            if self._group_holds(part, vals):
                return True
        return False

    def _group_holds(self, group: Group, vals: list[Slot]) -> bool:
        if group.false:
            return False
        check = self.check
        for atom in group.atoms:
            if not check(atom)(vals):
                return False
        for collect in group.collects:
            result = self.collect_values(collect, vals)
            if result is None:
                return False
            for i, s in enumerate(collect.produced):
                if vals[s] is not result[i]:
                    return False
        for disjunction in group.disjunctions:  # noqa: SIM110
            if not self.disjunction_holds(disjunction, vals):
                return False
        return True


def _only(slots: tuple[int, ...], values: tuple[Value | None, ...], size: int) -> list[Slot]:
    """Slots for a search of its own: `values` in `slots`, every other slot unbound."""
    only: list[Slot] = [UNBOUND] * size
    for slot, value in zip(slots, values, strict=True):
        only[slot] = value
    return only


def _distinct(vals: list[Slot], sources: tuple[int, ...]) -> list[Value | None]:
    """The values of `sources`, each once, in order (unused included): a `MemberStep`'s."""
    return list(dict.fromkeys(_value(vals[s]) for s in sources))


def _value(slot: Slot) -> Value | None:
    return slot if isinstance(slot, Value) else None


def _canonical(solution: tuple[Value | None, ...]) -> tuple[int, ...]:
    return tuple(-1 if v is None else v.id for v in solution)
