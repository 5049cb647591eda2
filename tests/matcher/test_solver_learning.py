"""Learning from failures (remembered conflicts, conflict-directed back-jumping) saves
steps and changes nothing else: the same solutions, in the same order, as plain
chronological backtracking (`SearchVariant(learn=False)`), in every mode of the solver."""

from __future__ import annotations

import random

import pytest
from random_cases import random_ir, random_program
from solver_testkit import (
    C_BRANCHES,
    C_NESTED,
    C_REDUCTION,
    LL_ODD,
    A,
    And,
    Or,
    compiled_c,
    function_of,
    ir_function,
    make_program,
)

from idl.program import Program
from matcher.detect import DISTINCT
from matcher.ir import Function, Value
from matcher.pipeline import load_library
from matcher.reference import reference_solutions
from matcher.solver import Order, SearchVariant, SolveResult, solve

BUDGET = 200_000
PLAIN = SearchVariant(learn=False)


def _rows(result: SolveResult) -> list[tuple[tuple[str, Value | None], ...]]:
    return [tuple(solution.items()) for solution in result]


def _same_search(
    program: Program,
    function: Function,
    *,
    order: Order = "selective",
    distinct: tuple[str, ...] | None = None,
) -> tuple[int, int]:
    """Solves with and without learning; both must give the same solutions in the
    same order, learning in no more steps. Returns (steps learning, steps plain)."""
    learnt = solve(program, function, budget=BUDGET, order=order, distinct=distinct)
    plain = solve(program, function, budget=BUDGET, order=order, distinct=distinct, variant=PLAIN)
    assert learnt.steps <= plain.steps, (program.name, function.name)
    if plain.exhausted:  # the plain search was cut short: learning saw further
        return learnt.steps, plain.steps
    assert not learnt.exhausted
    assert _rows(learnt) == _rows(plain), (program.name, function.name)
    return learnt.steps, plain.steps


def _functions() -> list[Function]:
    found = [function_of(compiled_c(src)) for src in (C_REDUCTION, C_BRANCHES, C_NESTED)]
    return [*found, ir_function(LL_ODD)]


@pytest.mark.parametrize("block", range(2))
def test_random_programs_give_the_same_solutions_in_the_same_order(block: int) -> None:
    saved = 0
    for number in range(block * 20, (block + 1) * 20):
        function = ir_function(random_ir(3000 + number))
        rng = random.Random(number)
        for seed in range(number * 50, number * 50 + 8):
            program = random_program(seed, function)
            for order in ("selective", "appearance"):
                learnt, plain = _same_search(program, function, order=order)
                saved += plain - learnt
            # Detection mode, on a few variables of the program.
            names = rng.sample(program.variables, min(2, len(program.variables)))
            _same_search(program, function, distinct=tuple(names))
    assert saved > 0


def test_random_programs_on_compiled_c() -> None:
    for number, function in enumerate(_functions()):
        for seed in range(500_000 + number * 100, 500_000 + number * 100 + 15):
            program = random_program(seed, function)
            for order in ("selective", "appearance"):
                _same_search(program, function, order=order)


def test_library_idioms_in_detection_mode() -> None:
    """The exported idioms as detection runs them: same instances, fewer steps."""
    programs = load_library().exported_programs()
    learnt_total = plain_total = 0
    for function in _functions():
        for program in programs:
            learnt, plain = _same_search(program, function, distinct=DISTINCT)
            learnt_total, plain_total = learnt_total + learnt, plain_total + plain
    assert learnt_total < plain_total


def test_back_jump_over_an_independent_binding() -> None:
    """In the order of appearance {y} is bound between {x} and {w}, but {w} fails for a
    reason that only {x} explains: the search jumps back to {x} at once instead of
    trying every other {y}."""
    function = function_of(compiled_c(C_NESTED))
    program = make_program(
        And(
            A("opcode", "x", detail="load"),
            A("opcode", "y", detail="phi"),
            A("operand", "w", "x", detail=0),
            A("argument", "w"),  # the loads read through a getelementptr: never true
        ),
        "JumpBack",
    )
    learnt, plain = _same_search(program, function, order="appearance")
    loads = sum(v.opcode == "load" for v in function.values)
    phis = sum(v.opcode == "phi" for v in function.values)
    assert plain >= loads * phis  # every (x, y) pair is tried
    assert learnt <= loads * 3  # each x once, its first y, its one w
    assert not reference_solutions(program, function)


def test_remembered_failure_at_a_shared_branch() -> None:
    """Both disjuncts of the first disjunction bind a local variable and lead to the
    same pending formula, so to one shared branch; its search fails for a reason that
    reads {x} only, and the second disjunct finds that failure remembered."""
    function = function_of(compiled_c(C_NESTED))
    program = make_program(
        And(
            A("opcode", "x", detail="fmul"),
            Or(A("operand", "p", "x", detail=0), A("operand", "q", "x", detail=1)),
            Or(  # the product only feeds the fadd of the accumulator
                And(A("data_flow", "x", "u"), A("opcode", "u", detail="store")),
                And(A("data_flow", "x", "u"), A("opcode", "u", detail="ret")),
            ),
        ),
        "Remembered",
    )
    learnt, plain = _same_search(program, function, order="appearance")
    assert learnt < plain
    assert not reference_solutions(program, function)
