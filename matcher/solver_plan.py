"""The search plan: which variable to bind next, from which atom, and what to check.

A plan depends only on the program and on which variables are bound, never on their
values nor on the function beyond its size class: one `Planner` per compiled program
(and order, and size class) is built on first use and shared by every function of that
class the program is solved on (`planner_for`). Its steps name atoms; the engine
(`matcher.solver`) turns them into checks and generators for its function. The
estimates come from `matcher.solver_cost` (a nominal function of the size class).

A `PlanNode` is a run of deterministic steps (bind a variable from a generator, check
atoms, filter a fully bound disjunction, evaluate a collect), planned lazily, so that a
search that fails early never pays for the rest; it ends either in a solution or in a
`Branch`: a choice between the disjuncts of one disjunction.

Branches are shared. What the plan does after a point depends only on the pending part
of the formula (atoms, disjunctions and collects not yet done) and on which of *their*
variables are bound and constrained: a variable that nothing pending mentions is never
read again. So a branch is keyed by that canonical state, and two paths that reach the
same one (the several ways of satisfying one read's address, which bind different local
variables and leave the same pending formula) share the branch and everything below
it: the plan is a DAG, not a tree of every disjunct path. `Branch.slots` lists the
bound variables the rest of the search can read, so that the engine can remember a
branch point it already searched without success under the same values of those.

Variable order (`order="selective"`, the default). At each point of the plan:
1. a collect whose outer variables are all known is evaluated (one outcome, no choice);
2. a disjunction whose variables are all bound becomes a check (no choice either: its
   disjuncts would constrain nothing new);
3. otherwise every unbound constrained variable gets an estimated number of candidates:
   the smallest over its atoms, where an atom whose other variables are bound counts
   what it generates from them and any other atom counts its projection
   (`matcher.solver_cost`). A disjunction costs the sum, over its disjuncts, of the best
   estimate inside the disjunct (or the current best, if that is lower): it is branched
   on only when its disjuncts bind something much more cheaply than anything available
   now. A disjunct's best estimate is over its atoms, or, when none of them binds
   anything, over its nested disjunctions (each the sum over its own disjuncts). A
   disjunction whose unbound variables all come from pending collects waits for them
   (it will be a check). The cheapest action wins; ties go to binding, then to the
   order of appearance.
When a disjunction is branched on, the disjuncts whose variables are all bound form one
option (a check that one of them holds): they would constrain nothing new, so taking
them one by one would repeat the rest of the search once per true disjunct.
With `order="appearance"` the same generators are used, but variables are bound and
disjunctions branched in the order they first appear in the formula.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Literal

from idl.program import AtomKind
from matcher.solver_cost import VALUES, bound_estimate, projection_estimate
from matcher.solver_program import CAtom, CCollect, CDisjunction, CompiledProgram, Group

__all__ = [
    "NEVER",
    "BindStep",
    "Branch",
    "CheckItem",
    "CheckStep",
    "CollectStep",
    "ExistsStep",
    "Getter",
    "MemberStep",
    "Order",
    "PlanNode",
    "Planner",
    "planner_for",
    "tuple_getter",
]

Order = Literal["selective", "appearance"]
# What a step checks: an atom, or a disjunction of which one disjunct must hold.
CheckItem = CAtom | CDisjunction
Generated = tuple[float, CAtom | None, int]  # estimate, generating atom, its position
# Returns the items at some indices of a sequence, as a tuple (`tuple_getter`).
Getter = Callable[[Sequence[Any]], tuple[Any, ...]]

# A disjunction without disjuncts: the check of a false group.
NEVER = CDisjunction((), frozenset(), -1)
# A planner keeps every node it planned; past this many it is replaced by a fresh one
# (for the next solve) so that a pathological program cannot grow it without end.
PLAN_NODES_LIMIT = 200_000


@dataclass(frozen=True, eq=False)
class CheckStep:
    checks: tuple[CheckItem, ...]


@dataclass(frozen=True, eq=False)
class CollectStep:
    collect: CCollect
    assign: tuple[tuple[int, int], ...]  # (index into the result, slot) to set
    compare: tuple[tuple[int, int], ...]  # (index into the result, slot) already bound
    checks: tuple[CheckItem, ...]
    # The same, as getters of tuples (`tuple_getter`): a collect fills hundreds of slots
    # (a stencil's reads), picked and compared in one C call each, not one at a time.
    assigned: tuple[int, ...]  # the slots of `assign`
    assigned_of: Getter | None  # the result's items for them
    bound_of: Getter | None  # the bound values of the slots of `compare`
    compared_of: Getter | None  # the result's items for them
    assigned_set: frozenset[int] = frozenset()  # `assigned`, for membership tests


def tuple_getter(indices: Sequence[int]) -> Getter | None:
    """What returns the items at `indices` of a sequence as a tuple (None: no index). One
    index is asked twice, so that the getter still returns a tuple: two getters of the same
    length compare as the items do, and a zip with the one index stops after one item."""
    if not indices:
        return None
    if len(indices) == 1:
        return itemgetter(indices[0], indices[0])
    return itemgetter(*indices)


@dataclass(frozen=True, eq=False)
class BindStep:
    var: int
    atom: CAtom | None  # the generating atom; None: the whole domain
    position: int  # the variable's position in the atom
    checks: tuple[CheckItem, ...]


@dataclass(frozen=True, eq=False)
class ExistsStep:
    """One way the disjunction holds, found by a search of it alone with its outer
    variables bound; its local variables take that way's values. Planned only in
    detection mode, where nothing else reads them (`CompiledProgram.locals_of`)."""

    disjunction: CDisjunction
    outer: tuple[int, ...]  # bound: what the search reads
    local: tuple[int, ...]  # set from the way found
    checks: tuple[CheckItem, ...] = ()


@dataclass(frozen=True, eq=False)
class MemberStep:
    """A disjunction each of whose ways only says that `var` is the same as one bound
    variable (`{s} is the same as {w[k].index}` for some k, with every `w[k]` known), in
    place of a branch on it: `var` takes the distinct values of `sources`, in the order
    the branch would have given them. The branch would search on once per way, and
    again for every way that names a value already tried (a subscript that a hundred
    reads share, each read a way)."""

    var: int
    sources: tuple[int, ...]
    checks: tuple[CheckItem, ...]


Step = CheckStep | CollectStep | BindStep | ExistsStep | MemberStep


class Branch:
    """A choice between disjuncts, shared by every path that reaches its state."""

    __slots__ = ("children", "disjunction", "options", "slots", "state")

    def __init__(
        self, state: _State, disjunction: CDisjunction, options: list[Group | CDisjunction]
    ) -> None:
        self.state = state  # the planner state the children start from
        self.disjunction = disjunction
        # Each option: a disjunct to activate, or fully bound disjuncts (as a
        # disjunction) of which one must hold.
        self.options = options
        self.children: list[PlanNode | None] = [None] * len(options)
        self.slots: tuple[int, ...] = ()  # the bound variables the rest can read


class PlanNode:
    """Steps planned so far from one point of the search; more are planned on demand."""

    __slots__ = ("branch", "complete", "state", "steps")

    def __init__(self, state: _State, steps: list[Step]) -> None:
        self.steps = steps
        self.state = state  # the planner state after the last planned step
        self.complete = False  # no step will be added: a solution or a branch follows
        self.branch: Branch | None = None  # set when the node ends in a choice


@dataclass
class _State:
    bound: set[int]
    active: set[int]  # variables the chosen part of the formula constrains
    atoms: dict[CAtom, None]  # active atoms with an unbound variable (ordered set)
    disjunctions: list[CDisjunction]  # active disjunctions not yet decided
    collects: list[CCollect]  # active collects not yet evaluated
    # Memos of `_best_generator` and of the disjuncts' best estimates, dropped when a
    # variable they depend on is bound or gains atoms.
    generators: dict[int, Generated] = field(default_factory=dict)
    part_costs: dict[CDisjunction, tuple[float, ...]] = field(default_factory=dict)

    def copy(self) -> _State:
        return _State(
            set(self.bound),
            set(self.active),
            dict(self.atoms),
            list(self.disjunctions),
            list(self.collects),
            dict(self.generators),
            dict(self.part_costs),
        )

    def forget(self, variables: Iterable[int], atoms_of: Sequence[Sequence[CAtom]]) -> None:
        """Drops the memos that binding `variables` (or adding their atoms) changes."""
        generators = self.generators
        if not generators and not self.part_costs:
            return
        changed = set(variables)
        if len(generators) < len(changed):
            # Few memos, many variables (a collect's thousands): the same ones dropped,
            # found from the memos' side (an atom names both or neither).
            for var in [
                v
                for v in generators
                if v in changed or any(not changed.isdisjoint(a.variables) for a in atoms_of[v])
            ]:
                del generators[var]
        else:
            for var in changed:
                generators.pop(var, None)
                for atom in atoms_of[var]:
                    for other in atom.variables:
                        generators.pop(other, None)
        if self.part_costs:
            for disjunction in [d for d in self.part_costs if not changed.isdisjoint(d.variables)]:
                del self.part_costs[disjunction]

    def canonical(self) -> tuple[object, ...]:
        """What the rest of the plan depends on: the pending formula, in order, and which
        of its variables are bound or constrained."""
        relevant = frozenset().union(
            *(a.variables for a in self.atoms),
            *(d.variables for d in self.disjunctions),
            *(c.variables for c in self.collects),
        )
        return (
            frozenset(self.bound & relevant),
            frozenset(self.active & relevant),
            tuple(self.atoms),
            tuple(self.disjunctions),
            tuple(self.collects),
        )


def _same_as_one_of(disjunction: CDisjunction, var: int, sources: list[int]) -> bool:
    """Whether every way of the disjunction (nested disjunctions taken apart) is the one
    atom `{var} is the same as {source}`; the sources, in order, go into `sources`."""
    for part in disjunction.parts:
        if part.collects or part.false:
            return False
        if not part.atoms and len(part.disjunctions) == 1:
            if not _same_as_one_of(part.disjunctions[0], var, sources):
                return False
            continue
        if part.disjunctions or len(part.atoms) != 1:
            return False
        atom = part.atoms[0]
        if atom.atom.kind is not AtomKind.SAME or var not in atom.slots or len(atom.variables) != 2:
            return False
        sources.append(atom.slots[1] if atom.slots[0] == var else atom.slots[0])
    return True


def planner_for(
    program: CompiledProgram,
    order: Order,
    values: float = VALUES,
    keep: frozenset[int] | None = None,
) -> Planner:
    """The program's planner for `order` and functions of the size class `values`
    (`matcher.solver_cost.nominal_size`), kept on the compiled program. With `keep` (the
    variables of detection's key), a disjunction whose local variables `keep` leaves
    out is settled by one way it holds once its other variables are bound (`ExistsStep`):
    solutions that differ only in those variables are not all found."""
    key = f"{order}/{values:g}" + ("" if keep is None else f"/one:{sorted(keep)}")
    planner = program.planners.get(key)
    if not isinstance(planner, Planner) or planner.nodes > PLAN_NODES_LIMIT:
        planner = Planner(program, order, values, keep)
        program.planners[key] = planner
    return planner


class Planner:
    """Plans the search of one compiled program, for every function."""

    def __init__(
        self,
        program: CompiledProgram,
        order: Order,
        values: float = VALUES,
        keep: frozenset[int] | None = None,
    ) -> None:
        self.program = program
        # The disjunctions settled by one way they hold, with their local variables.
        self.settled_once: dict[CDisjunction, frozenset[int]] = (
            {}
            if keep is None
            else {d: v for d, v in program.locals_of.items() if v.isdisjoint(keep)}
        )
        self.order = order
        self.values = values  # the nominal size of the functions planned for
        self.nodes = 0  # plan nodes built so far
        self._estimates: dict[tuple[CAtom, int, bool], float] = {}
        self._root: PlanNode | None = None
        self._collect_roots: dict[CCollect, PlanNode] = {}
        self._exists_roots: dict[ExistsStep, PlanNode] = {}
        self._branches: dict[tuple[object, ...], Branch] = {}
        # The variables that each combination of pending collects fixes (`_produced`).
        self._produced: dict[tuple[CCollect, ...], set[int]] = {}

    def root(self) -> PlanNode:
        if self._root is None:
            self._root = self._node(self.program.root, set())
        return self._root

    def collect_root(self, collect: CCollect) -> PlanNode:
        """The plan of a collect's body, its outer variables bound."""
        node = self._collect_roots.get(collect)
        if node is None:
            node = self._node(collect.body, set(collect.outer))
            self._collect_roots[collect] = node
        return node

    def exists_root(self, step: ExistsStep) -> PlanNode:
        """The plan of the search for one way `step`'s disjunction holds: a branch on
        it, its outer variables bound."""
        node = self._exists_roots.get(step)
        if node is None:
            state = _State(set(step.outer), set(), {}, [step.disjunction], [])
            node = PlanNode(state, [])
            node.branch = self._branch_at(state, step.disjunction)
            node.complete = True
            self.nodes += 1
            self._exists_roots[step] = node
        return node

    def step(self, node: PlanNode, index: int) -> Step | None:
        """Step `index` of the node, planned now if needed; None past its last step."""
        while index >= len(node.steps):
            if node.complete:
                return None
            self._advance(node)
        return node.steps[index]

    def child(self, branch: Branch, index: int) -> PlanNode:
        planned = branch.children[index]
        if planned is None:
            state = branch.state.copy()
            steps: list[Step] = []
            option = branch.options[index]
            if isinstance(option, CDisjunction):
                steps.append(CheckStep((option,)))
            else:
                self._activate(state, option, steps)
            planned = PlanNode(state, steps)
            self.nodes += 1
            branch.children[index] = planned
        return planned

    # -- building ----------------------------------------------------------------------

    def _node(self, group: Group, bound: set[int]) -> PlanNode:
        state = _State(set(bound), set(), {}, [], [])
        steps: list[Step] = []
        self._activate(state, group, steps)
        self.nodes += 1
        return PlanNode(state, steps)

    def _activate(self, state: _State, group: Group, steps: list[Step]) -> None:
        """Adds a chosen group's constraints; checks at once what is already bound."""
        if group.false:
            steps.append(CheckStep((NEVER,)))
            return
        variables = {v for a in group.atoms for v in a.variables}
        state.active |= variables
        state.forget(variables, self.program.atoms_of)
        bound = state.bound
        checks: list[CheckItem] = [a for a in group.atoms if a.variables <= bound]
        state.atoms.update((a, None) for a in group.atoms if not a.variables <= bound)
        for collect in group.collects:
            state.active.update(collect.produced)
            state.forget(collect.produced, self.program.atoms_of)
            state.collects.append(collect)
        for disjunction in group.disjunctions:
            if disjunction.variables <= bound:
                checks.append(disjunction)
            else:
                state.disjunctions.append(disjunction)
        if checks:
            steps.append(CheckStep(tuple(checks)))

    def _advance(self, node: PlanNode) -> None:
        """Plans the next step of the node, or ends it in a solution or a branch."""
        state = node.state
        settled = self._ready_to_settle(state)
        if settled is not None:
            node.steps.append(self._settle(state, settled))
            return
        collect = self._ready_collect(state)
        if collect is not None:
            node.steps.append(self._evaluate(state, collect))
            return
        action = self._choose(state)
        if action is None:
            assert not state.atoms, "every constrained variable is bound at a solution"
            node.complete = True
        elif isinstance(action, CDisjunction):
            member = self._member(state, action)
            if member is not None:
                node.steps.append(member)
                return
            node.branch = self._branch_at(state, action)
            node.complete = True
        else:
            node.steps.append(self._bind(state, action))

    def _member(self, state: _State, disjunction: CDisjunction) -> MemberStep | None:
        """The disjunction as a `MemberStep`, when it is one (see there)."""
        unbound = disjunction.variables - state.bound
        if len(unbound) != 1:
            return None
        (var,) = unbound
        sources: list[int] = []
        if not _same_as_one_of(disjunction, var, sources) or var in sources:
            return None
        state.disjunctions.remove(disjunction)
        state.active |= disjunction.variables
        state.bound.add(var)
        state.forget(disjunction.variables, self.program.atoms_of)
        return MemberStep(var, tuple(sources), self._newly_checked(state, {var}, None))

    def _branch_at(self, state: _State, disjunction: CDisjunction) -> Branch:
        """The shared branch for this state (see the module docstring)."""
        key = state.canonical()
        branch = self._branches.get(key)
        if branch is None:
            relevant_bound = key[0]
            assert isinstance(relevant_bound, frozenset)
            state.disjunctions.remove(disjunction)
            # The children start from fresh memos: the plan below the branch must not
            # depend on which path reached it first.
            state.generators.clear()
            state.part_costs.clear()
            branch = Branch(state, disjunction, self._branch(state, disjunction))
            branch.slots = tuple(sorted(relevant_bound))
            self._branches[key] = branch
        return branch

    def _branch(self, state: _State, disjunction: CDisjunction) -> list[Group | CDisjunction]:
        """The options of a choice: each disjunct that constrains new variables, and
        one check that any of the fully bound ones holds. Those would all lead to the
        same search, so taking them one by one would only repeat it."""
        bound = [p for p in disjunction.parts if p.variables <= state.bound and not p.false]
        options: list[Group | CDisjunction] = [
            p for p in disjunction.parts if not p.variables <= state.bound
        ]
        if len(bound) == 1:
            options.insert(0, bound[0])
        elif bound:
            variables = frozenset().union(*(p.variables for p in bound))
            options.insert(0, CDisjunction(tuple(bound), variables, disjunction.order))
        return options

    def _ready_to_settle(self, state: _State) -> CDisjunction | None:
        for disjunction in state.disjunctions:
            local = self.settled_once.get(disjunction)
            if local is not None and disjunction.variables - local <= state.bound:
                return disjunction
        return None

    def _settle(self, state: _State, disjunction: CDisjunction) -> ExistsStep:
        state.disjunctions.remove(disjunction)
        local = self.settled_once[disjunction]
        state.bound |= local
        state.forget(local, self.program.atoms_of)
        outer = tuple(sorted(disjunction.variables - local))
        return ExistsStep(disjunction, outer, tuple(sorted(local)))

    def _ready_collect(self, state: _State) -> CCollect | None:
        for collect in state.collects:
            if all(self._settled(state, v) for v in collect.outer):
                return collect
        return None

    def _settled(self, state: _State, var: int) -> bool:
        """Bound, or unused for good: constrained by nothing chosen nor pending."""
        if var in state.bound:
            return True
        if var in state.active:
            return False
        return not any(var in d.variables for d in state.disjunctions)

    def _evaluate(self, state: _State, collect: CCollect) -> CollectStep:
        state.collects.remove(collect)
        assign = tuple((i, s) for i, s in enumerate(collect.produced) if s not in state.bound)
        compare = tuple((i, s) for i, s in enumerate(collect.produced) if s in state.bound)
        newly = {s for _, s in assign}
        state.bound |= newly
        state.forget(newly, self.program.atoms_of)
        return CollectStep(
            collect,
            assign,
            compare,
            self._newly_checked(state, newly, None),
            tuple(s for _, s in assign),
            tuple_getter([i for i, _ in assign]),
            tuple_getter([s for _, s in compare]),
            tuple_getter([i for i, _ in compare]),
            frozenset(newly),
        )

    def _bind(self, state: _State, var: int) -> BindStep:
        _, atom, position = self._best_generator(state, var)
        state.bound.add(var)
        state.forget((var,), self.program.atoms_of)
        if atom is None:
            return BindStep(var, None, 0, self._newly_checked(state, {var}, None))
        exact = atom.variables <= state.bound and atom.slots.count(var) == 1
        skip = atom if exact else None
        return BindStep(var, atom, position, self._newly_checked(state, {var}, skip))

    def _newly_checked(
        self, state: _State, newly: set[int], skip: CAtom | None
    ) -> tuple[CheckItem, ...]:
        """Checks of the atoms the new bindings complete; they leave the pending set.
        Disjunctions they complete become checks too."""
        atoms_of = self.program.atoms_of
        done = {
            a: None
            for v in sorted(newly)
            for a in atoms_of[v]
            if a in state.atoms and a.variables <= state.bound
        }
        for atom in done:
            del state.atoms[atom]
        checks: list[CheckItem] = [a for a in done if a is not skip]
        for disjunction in [d for d in state.disjunctions if d.variables <= state.bound]:
            state.disjunctions.remove(disjunction)
            checks.append(disjunction)
        return tuple(checks)

    # -- choosing ----------------------------------------------------------------------

    def _bindable(self, state: _State, produced: set[int]) -> list[int]:
        """The unbound variables that no pending collect fixes, in order of appearance.
        Filtered before they are sorted: a stencil's collects fix thousands of variables,
        which sorting every time cost a fifth of planning. The sort is stable, so ties
        keep the set's order either way."""
        free = state.active - state.bound
        first_seen = self.program.first_seen.__getitem__
        chosen = [v for v in free if v not in produced]
        if chosen or state.disjunctions:
            chosen.sort(key=first_seen)
            return chosen
        return sorted(free, key=first_seen)  # collects wait on each other: enumerate one

    def _produced_by(self, collects: list[CCollect]) -> set[int]:
        """The variables that `collects` fix, computed once per combination (a stencil's
        collects fix thousands). Read, never changed, by the callers."""
        key = tuple(collects)
        found = self._produced.get(key)
        if found is None:
            found = {s for c in collects for s in c.produced}
            self._produced[key] = found
        return found

    def _choose(self, state: _State) -> int | CDisjunction | None:
        produced = self._produced_by(state.collects)
        variables = self._bindable(state, produced)
        if not variables and not state.disjunctions:
            return None
        # A disjunction over variables that pending collects will fix waits for them: it
        # is then a check, where branching now would multiply the search by its parts.
        disjunctions = [
            d for d in state.disjunctions if not (d.variables - state.bound) <= produced
        ]
        if not variables and not disjunctions:
            disjunctions = state.disjunctions
        if self.order == "appearance":
            return self._first_appearing(variables, disjunctions)
        best_var, best_cost = None, float("inf")
        for var in variables:
            cost = self._best_generator(state, var)[0]
            if cost < best_cost:
                best_var, best_cost = var, cost
        best: int | CDisjunction | None = best_var
        for disjunction in disjunctions:
            cost = self._disjunction_cost(state, disjunction, best_cost, produced)
            if cost < best_cost or best is None:
                best, best_cost = disjunction, cost
        return best

    def _first_appearing(
        self, variables: list[int], disjunctions: list[CDisjunction]
    ) -> int | CDisjunction:
        first_seen = self.program.first_seen
        options: list[tuple[int, int | CDisjunction]] = [(first_seen[v], v) for v in variables]
        options += [(d.order, d) for d in disjunctions]
        return min(options, key=lambda option: option[0])[1]

    def _disjunction_cost(
        self, state: _State, disjunction: CDisjunction, now: float, produced: set[int]
    ) -> float:
        fallback = now if now != float("inf") else self.values + 1
        parts = state.part_costs.get(disjunction)
        if parts is None:
            parts = tuple(self._part_cost(state, part, produced) for part in disjunction.parts)
            state.part_costs[disjunction] = parts
        # Fully bound disjuncts are one branch between them (see `_branch`).
        checks = 0.0
        total = 0.0
        for cost in parts:
            if cost == 1.0:
                checks = 1.0
            else:
                total += cost if cost < fallback else fallback
        return checks + total

    def _part_cost(self, state: _State, part: Group, produced: set[int]) -> float:
        """0 for a false disjunct, 1 for a fully bound one (a check), else its best
        estimate: over its atoms, or, when none of them binds anything, over its nested
        disjunctions, each costing the sum over its own disjuncts (infinite if nothing
        can be estimated). A disjunct made only of nested choices, such as "an add and
        {operand} is either argument of {update}", binds its operand from a bound
        instruction: a few candidates, where taking it as unknown would let a far
        worse generator of {operand} win."""
        if part.false or part.variables <= state.bound:
            return 0.0 if part.false else 1.0
        best = float("inf")
        bound = state.bound
        for atom in part.atoms:
            for var in atom.slots:
                if var not in bound and var not in produced:
                    cost = self._estimate(atom, var, bound)
                    best = min(best, cost)
        if best == float("inf"):
            for nested in part.disjunctions:
                if not nested.variables <= state.bound:  # a fully bound one binds nothing
                    cost = sum(self._part_cost(state, p, produced) for p in nested.parts)
                    best = min(best, cost)
        return best

    def _best_generator(self, state: _State, var: int) -> Generated:
        found = state.generators.get(var)
        if found is not None:
            return found
        best: Generated = (self.values + 1, None, 0)
        pending = state.atoms
        for atom in self.program.atoms_of[var]:
            if atom in pending:
                cost = self._estimate(atom, var, state.bound)
                if cost < best[0] or best[1] is None:
                    best = (cost, atom, atom.slots.index(var))
        state.generators[var] = best
        return best

    def _estimate(self, atom: CAtom, var: int, bound: set[int]) -> float:
        # Planning a large program asks this millions of times: the common arities
        # without a generator expression.
        slots = atom.slots
        if len(slots) == 1:
            others_bound = True
        elif len(slots) == 2:
            other = slots[1] if slots[0] == var else slots[0]
            # `{x} is the same as {x}` (a placeholder where a formula is needed) binds
            # nothing: it generates every value.
            others_bound = other != var and other in bound
        else:
            others_bound = all(s in bound or s == var for s in slots)
        key = (atom, var, others_bound)
        found = self._estimates.get(key)
        if found is None:
            kind, position = atom.atom.kind, atom.slots.index(var)
            if len(atom.slots) == 1 or not others_bound:
                found = projection_estimate(
                    kind, atom.atom.detail, position, len(atom.slots), self.values
                )
            else:
                found = bound_estimate(kind, position, self.values)
            self._estimates[key] = found
        return found
