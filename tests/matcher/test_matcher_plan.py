"""The shared plan, the failed-branch memo, `distinct` and the fail-fast filter."""

from __future__ import annotations

from random_cases import random_ir, random_program
from solver_testkit import (
    C_BRANCHES,
    C_NESTED,
    C_REDUCTION,
    LL_ODD,
    A,
    And,
    Gather,
    Or,
    compiled_c,
    function_of,
    ir_function,
    make_program,
)

from idl.program import AtomKind, Program
from matcher import solver
from matcher.detect import DISTINCT
from matcher.ir import Function, Value
from matcher.pipeline import load_library
from matcher.reference import reference_solutions
from matcher.solver import SearchVariant, may_match, solve
from matcher.solver_cost import nominal_size
from matcher.solver_plan import (
    BindStep,
    Generated,
    MemberStep,
    Planner,
    PlanNode,
    _State,
    planner_for,
)
from matcher.solver_program import CCollect, Group, compile_program

# Two loads reached through one of several equivalent address forms each: every way
# through the first disjunction leaves the same pending formula, so the plan shares the
# branch that follows, and the search fails there once per value of what it reads.
READS = make_program(
    And(
        A("opcode", "a", detail="load"),
        A("opcode", "b", detail="load"),
        A("not_same", "a", "b"),
        Or(
            And(A("operand", "pa", "a", detail=0), A("opcode", "pa", detail="getelementptr")),
            And(A("operand", "pa", "a", detail=0), A("argument", "pa")),
            A("operand", "qa", "a", detail=0),
        ),
        Or(
            And(A("operand", "pb", "b", detail=0), A("opcode", "pb", detail="getelementptr")),
            A("operand", "qb", "b", detail=0),
        ),
        A("opcode", "m", detail="fmul"),
        A("data_flow", "a", "m"),
        A("data_flow", "b", "m"),
    ),
    "Reads",
)


def _functions() -> list[Function]:
    found = [function_of(compiled_c(src)) for src in (C_REDUCTION, C_BRANCHES, C_NESTED)]
    return [*found, ir_function(LL_ODD)]


def _rows(program: Program, solutions: object) -> set[tuple[Value | None, ...]]:
    assert isinstance(solutions, tuple)
    return {tuple(s[n] for n in program.variables) for s in solutions}


def test_plan_is_built_once_and_shared_by_functions() -> None:
    compiled = compile_program(READS)
    planner = planner_for(compiled, "selective")
    assert planner_for(compiled, "selective") is planner
    assert planner_for(compiled, "appearance") is not planner
    for function in _functions():
        result = solve(READS, function)
        assert _rows(READS, result.solutions) == reference_solutions(READS, function)
    nodes = planner.nodes
    for function in _functions():  # the same searches again: nothing new to plan
        solve(READS, function)
    assert planner.nodes == nodes
    assert planner_for(compile_program(READS), "selective") is planner


def test_equivalent_paths_share_one_branch() -> None:
    planner = planner_for(compile_program(READS), "selective")
    matvec = function_of(compiled_c(C_NESTED))
    assert len(solve(READS, matvec)) == len(reference_solutions(READS, matvec)) > 0
    # A load's address matched as "a getelementptr" or as "any operand 0" binds {pa} or
    # {qa}, which nothing after reads: both ways go on with one shared branch.
    shared = [
        branch
        for branch in planner._branches.values()
        if len({id(c.branch) for c in branch.children if c is not None and c.branch}) == 1
        and sum(c is not None and c.branch is not None for c in branch.children) >= 2
    ]
    assert shared
    names = compile_program(READS).names
    assert all("pa" not in [names[s] for s in b.slots] for b in planner._branches.values())


def test_distinct_reports_one_solution_per_key_and_the_same_keys() -> None:
    for function in _functions():
        every = solve(READS, function)
        distinct = solve(READS, function, distinct=("a", "b"))
        keys = list(dict.fromkeys((s["a"], s["b"]) for s in every))  # first-found order
        assert [(s["a"], s["b"]) for s in distinct] == keys
        assert len(distinct) == len(keys)
        assert set(map(_solution_row, distinct)) <= set(map(_solution_row, every))
        assert distinct.steps <= every.steps


def test_a_disjunction_whose_rest_is_local_is_settled_once_in_detection_mode() -> None:
    """{pa} and {qa} (and {pb}, {qb}) are named by one disjunction only: with {a} bound
    detection takes the first way the disjunction holds, the other ways differ only in
    what nothing else reads."""
    compiled = compile_program(READS)
    names = {frozenset(compiled.names[v] for v in local) for local in compiled.locals_of.values()}
    assert names == {frozenset({"pa", "qa"}), frozenset({"pb", "qb"})}
    matvec = function_of(compiled_c(C_NESTED))
    solve(READS, matvec, distinct=("a", "b"))
    keep = frozenset(compiled.slot_of[n] for n in ("a", "b"))
    planner = planner_for(compiled, "selective", nominal_size(len(matvec.values)), keep)
    assert planner is not planner_for(compiled, "selective", nominal_size(len(matvec.values)))
    assert len(planner._exists_roots) == 2
    # A key variable is never settled that way: its values are what detection reports.
    keep_pa = frozenset(compiled.slot_of[n] for n in ("a", "pa"))
    assert len(planner_for(compiled, "selective", 316.0, keep_pa).settled_once) == 1


def test_a_variable_the_same_as_itself_is_generated_from_another_atom() -> None:
    """`{x} is the same as {x}` (an IDL placeholder) holds for every value: it must not
    look like a generator of one candidate."""
    program = make_program(And(A("same", "x", "x"), A("opcode", "x", detail="fmul")))
    compiled = compile_program(program)
    planner = planner_for(compiled, "selective")
    step = planner.step(planner.root(), 0)
    assert isinstance(step, BindStep) and step.atom is not None
    assert step.atom.atom.kind is AtomKind.OPCODE


# The indices of two loads' addresses (each through one or two getelementptrs), and a
# value that is one of them and an integer: a subscript collected from every access, as
# a Stencil collects it, written as ways each naming one index.
SUBSCRIPTS = make_program(
    And(
        A("opcode", "a", detail="load"),
        A("opcode", "b", detail="load"),
        A("operand", "pa", "a", detail=0),
        A("operand", "pb", "b", detail=0),
        A("operand", "ia", "pa", detail=1),
        A("operand", "ib", "pb", detail=1),
        Or(
            A("same", "s", "ia"),
            Or(A("same", "s", "ib"), A("same", "ia", "s")),
        ),
        A("integer_type", "s"),
    ),
    "Subscripts",
)


def test_a_disjunction_of_sames_binds_its_variable_from_their_values() -> None:
    compiled = compile_program(SUBSCRIPTS)
    planner = planner_for(compiled, "selective")
    found = 0
    for function in _functions():
        result = solve(SUBSCRIPTS, function)
        rows = _rows(SUBSCRIPTS, result.solutions)
        assert rows == reference_solutions(SUBSCRIPTS, function)
        for order in ("appearance", "selective"):
            other = solve(SUBSCRIPTS, function, order=order)
            assert _rows(SUBSCRIPTS, other.solutions) == rows
        found += len(rows)
    assert found > 0
    steps = [planner.step(node, i) for node in _plan_nodes(planner) for i in range(len(node.steps))]
    members = [step for step in steps if isinstance(step, MemberStep)]
    assert len(members) == 1 and len(members[0].sources) == 3
    assert compiled.names[members[0].var] == "s"


def _plan_nodes(planner: Planner) -> list[PlanNode]:
    """Every plan node built so far, from the root through the branches' children."""
    nodes: list[PlanNode] = []
    work = [planner.root()]
    while work:
        node = work.pop()
        nodes.append(node)
        if node.branch is not None:
            work += [child for child in node.branch.children if child is not None]
    return nodes


def test_settling_a_disjunction_once_finds_the_same_keys() -> None:
    """On random programs, detection mode finds the same keys in the same order whether
    it settles disjunctions by their first way or branches on them, and each solution it
    reports is a solution, its local variables included."""
    cases = []
    for number in range(12):
        function = ir_function(random_ir(7000 + number))
        for seed in range(number * 40, number * 40 + 10):
            cases.append((random_program(seed, function), function))
    settled = [solve(p, f, budget=20_000, distinct=tuple(p.variables[:2])) for p, f in cases]
    every = [solve(p, f, budget=20_000) for p, f in cases]
    checked = 0
    steps = [0, 0]  # settled, branched
    for (program, function), first, all_ in zip(cases, settled, every, strict=True):
        names = tuple(program.variables[:2])
        branched = solve(
            program, function, budget=20_000, distinct=names, variant=SearchVariant(settle=False)
        )
        if first.exhausted or branched.exhausted or all_.exhausted:
            continue
        keys = [tuple(s[n] for n in names) for s in first]
        assert keys == [tuple(s[n] for n in names) for s in branched], program
        assert _rows(program, first.solutions) <= _rows(program, all_.solutions), program
        steps[0] += first.steps
        steps[1] += branched.steps
        checked += bool(compile_program(program).locals_of)
    assert checked > 20
    assert steps[0] < steps[1]


def _solution_row(solution: dict[str, Value | None]) -> tuple[Value | None, ...]:
    return tuple(solution.values())


def test_required_atoms_of_a_program() -> None:
    program = make_program(
        And(
            A("opcode", "x", detail="fmul"),
            A("unused", "u"),
            Or(
                And(A("opcode", "y", detail="load"), A("argument", "z")),
                And(A("opcode", "y", detail="load"), A("constant", "z")),
            ),
            Gather(2, A("opcode", "r[0]", detail="store"), ("r[0]",)),
        )
    )
    required = compile_program(program).required
    assert set(required) == {(AtomKind.OPCODE, "fmul"), (AtomKind.OPCODE, "load")}


def test_fail_fast_skips_the_search_only_without_solutions() -> None:
    odd = ir_function(LL_ODD)  # an fmul, no store
    fmul = make_program(And(A("opcode", "x", detail="fmul"), A("data_flow", "y", "x")))
    assert may_match(fmul, odd)
    result = solve(fmul, odd)
    assert result.steps > 0 and _rows(fmul, result.solutions) == reference_solutions(fmul, odd)
    store = make_program(And(A("opcode", "x", detail="store"), A("data_flow", "y", "x")))
    assert not may_match(store, odd)
    result = solve(store, odd)
    assert result.steps == 0 and len(result) == 0 and not result.exhausted
    optional = make_program(Or(A("opcode", "x", detail="store"), A("unused", "x")))
    assert may_match(optional, odd) and len(solve(optional, odd)) == 1


def test_fail_fast_never_rejects_a_function_with_a_solution() -> None:
    rejected = 0
    for number in range(40):
        function = ir_function(random_ir(7000 + number))
        for seed in range(number * 100, number * 100 + 10):
            program = random_program(seed, function)
            if not may_match(program, function):
                rejected += 1
                assert not reference_solutions(program, function), seed
    assert rejected > 0


def test_size_classes() -> None:
    assert [nominal_size(n) for n in (0, 120, 316, 317, 3162, 3163, 40_000)] == [
        100.0,
        100.0,
        100.0,
        1000.0,
        1000.0,
        10000.0,
        100_000.0,
    ]
    compiled = compile_program(READS)
    small = planner_for(compiled, "selective")
    assert planner_for(compiled, "selective", 100.0) is small
    large = planner_for(compiled, "selective", 1000.0)
    assert large is not small and large.values == 1000.0
    assert planner_for(compiled, "selective", 1000.0) is large


def test_every_size_class_plans_the_same_solutions() -> None:
    """The plan for large functions orders the search differently (reaching a value
    from a bound one rather than enumerating the function): the same solutions, and
    in detection mode the same regions."""
    cases = []
    for number in range(30):
        function = ir_function(random_ir(8000 + number))
        for seed in range(number * 100, number * 100 + 6):
            cases.append((random_program(seed, function), function))
    cases += [(READS, function) for function in _functions()]
    expected = [solve(p, f, budget=20_000) for p, f in cases]
    library = [(p, f) for p in load_library().exported_programs() for f in _functions()]
    regions = [_keys(solve(p, f, distinct=DISTINCT)) for p, f in library]
    changed = 0
    for values in (1000.0, 10000.0):
        variant = SearchVariant(size_class=values)
        for (program, function), before in zip(cases, expected, strict=True):
            result = solve(program, function, budget=20_000, variant=variant)
            changed += result.steps != before.steps
            if not (result.exhausted or before.exhausted):
                assert _rows(program, result.solutions) == _rows(program, before.solutions)
        for (program, function), keys in zip(library, regions, strict=True):
            result = solve(program, function, distinct=DISTINCT, variant=variant)
            assert _keys(result) == keys, (values, program.name, function.name)
    assert changed > 0  # the large plans do search differently


def _keys(result: solver.SolveResult) -> set[tuple[Value | None, ...]]:
    return {tuple(s.get(name) for name in DISTINCT) for s in result}


def test_forgetting_drops_the_memos_of_every_variable_an_atom_shares_either_way() -> None:
    """`_State.forget` finds the generator memos to drop from the variables' side or, when
    the memos are fewer (a collect's thousands of variables bound), from the memos' side:
    the same ones, each memo whose variable is bound or shares an atom with one that is."""
    stencil = next(p for p in load_library(()).exported_programs() if p.name == "Stencil")
    compiled = compile_program(stencil)
    atoms_of = compiled.atoms_of
    memo: Generated = (1.0, None, 0)
    collect = max(_collects(compiled.root), key=lambda c: len(c.produced))
    slots = range(len(compiled.names))
    for changed, memos in (
        (set(collect.produced), list(slots)[::7]),  # few memos, many variables
        ({collect.produced[0], 3}, list(slots)),  # many memos, few variables
    ):
        state = _State(set(), set(), {}, [], [], {v: memo for v in memos})
        state.forget(changed, atoms_of)
        kept = {
            v
            for v in memos
            if v not in changed and all(changed.isdisjoint(a.variables) for a in atoms_of[v])
        }
        assert set(state.generators) == kept
        assert len(kept) < len(memos)


def _collects(group: Group) -> list[CCollect]:
    found = list(group.collects)
    for collect in group.collects:
        found += _collects(collect.body)
    for disjunction in group.disjunctions:
        for part in disjunction.parts:
            found += _collects(part)
    return found
