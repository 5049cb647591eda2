"""The solver against the plain formulation posed to python-constraint (`matcher.reference`).

Hundreds of seeded cases: random small IR functions (and functions compiled from C)
times random small programs with conjunctions, disjunctions, `unused` and `collect`.
Both solution sets must be equal, in either variable order; the solver must report no
solution twice.
"""

from __future__ import annotations

import pytest
from random_cases import random_ir, random_program
from solver_testkit import C_BRANCHES, C_REDUCTION, LL_ODD, compiled_c, function_of, ir_function

from idl.program import Program
from matcher.ir import Function, Value
from matcher.reference import reference_solutions
from matcher.solver import Order, solve

FUNCTIONS = 80  # random IR functions
PROGRAMS = 10  # random programs per function
# Cases the reference would take long on (many solutions, or a long search: every
# collect it meets is a python-constraint problem of its own) are redrawn.
MAX_SOLUTIONS = 400
MAX_STEPS = 8_000


def _solver_set(
    program: Program, function: Function, order: Order, budget: int = MAX_STEPS
) -> set[tuple[Value | None, ...]] | None:
    result = solve(program, function, budget=budget, order=order)
    if result.exhausted or len(result) > MAX_SOLUTIONS:
        return None
    rows = [tuple(s[n] for n in program.variables) for s in result]
    assert len(rows) == len(set(rows)), "a solution reported twice"
    return set(rows)


def _check_cases(
    function: Function, first_seed: int, count: int, *, keeping: bool = False
) -> tuple[int, int]:
    """Runs `count` accepted random programs on `function`; returns (cases, non-empty)."""
    done = nonempty = 0
    seed = first_seed
    while done < count:
        seed += 1
        program = random_program(seed, function, keeping=keeping)
        got = _solver_set(program, function, "selective")
        if got is None:
            continue
        expected = reference_solutions(program, function)
        assert got == expected, (seed, program.formula)
        # The order of appearance is the slow one: a larger budget, the same answer.
        assert _solver_set(program, function, "appearance", 50 * MAX_STEPS) == expected, seed
        done += 1
        nonempty += bool(expected)
    return done, nonempty


@pytest.mark.parametrize("block", range(4))
def test_random_programs_on_random_ir(block: int) -> None:
    cases = nonempty = 0
    per_block = FUNCTIONS // 4
    for number in range(block * per_block, (block + 1) * per_block):
        function = ir_function(random_ir(1000 + number))
        done, hits = _check_cases(function, number * 1000, PROGRAMS)
        cases, nonempty = cases + done, nonempty + hits
    assert cases == per_block * PROGRAMS
    # The generator must produce programs that match, not only empty answers.
    assert nonempty >= cases // 4, (nonempty, cases)


def test_collects_keeping_one_of_their_variables() -> None:
    # Each program has a collect whose second variable is local to its body: one inner
    # solution per value of the first, whatever ways the body holds.
    cases = nonempty = 0
    for number in range(20):
        function = ir_function(random_ir(5000 + number))
        done, hits = _check_cases(function, 500_000 + number * 1000, 5, keeping=True)
        cases, nonempty = cases + done, nonempty + hits
    assert cases == 100
    assert nonempty >= cases // 5, (nonempty, cases)


def test_random_programs_on_compiled_c() -> None:
    functions = [function_of(compiled_c(src)) for src in (C_REDUCTION, C_BRANCHES)]
    functions.append(ir_function(LL_ODD))
    total = 0
    for number, function in enumerate(functions):
        done, hits = _check_cases(function, 900_000 + number * 1000, 20)
        total += done
        assert hits > 0
    assert total == 60
