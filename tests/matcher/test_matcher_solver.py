"""The solver on hand-written programs over small C functions and hand-written IR."""

from __future__ import annotations

import pytest
from solver_testkit import (
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
    value_of,
)

from idl.program import Conjunction, Disjunction, Program
from matcher.ir import Function, Value, ValueKind
from matcher.reference import reference_solutions
from matcher.solver import DEFAULT_BUDGET, BudgetExhausted, Order, SolveResult, solve

ORDERS: tuple[Order, ...] = ("selective", "appearance")


def reduction() -> Function:
    return function_of(compiled_c(C_REDUCTION))


def matvec() -> Function:
    return function_of(compiled_c(C_NESTED))


def solved(program: Program, function: Function) -> SolveResult:
    """Solves in both orders, checks they agree with each other and with the reference."""
    results = [solve(program, function, order=order) for order in ORDERS]
    rows = [[tuple(s[n] for n in program.variables) for s in r] for r in results]
    assert all(len(r) == len(set(r)) for r in rows), "a solution reported twice"
    assert set(rows[0]) == set(rows[1])
    assert len(function.values) <= 60, "small enough for the reference"
    assert set(rows[0]) == reference_solutions(program, function)
    assert not results[0].exhausted
    return results[0]


ACCUMULATOR = make_program(
    And(
        A("opcode", "phi", detail="phi"),
        A("float_type", "phi"),
        A("opcode", "add", detail="fadd"),
        A("data_flow", "phi", "add"),
        A("reaches_phi", "add", "phi", "latch"),
        A("reaches_phi", "init", "phi", "entry"),
        A("not_same", "latch", "entry"),
        A("float_zero", "init"),
    ),
    "Accumulator",
)


def test_loop_phi_with_fadd_accumulator() -> None:
    f = reduction()
    (solution,) = solved(ACCUMULATOR, f)
    phi, add = solution["phi"], solution["add"]
    assert isinstance(phi, Value) and isinstance(add, Value)
    assert phi.opcode == "phi" and add.opcode == "fadd"
    assert add in phi.operands and phi in add.operands
    assert add.block is not None and phi.block is not None
    assert solution["latch"] is add.block.terminator
    assert f.loops.innermost(phi.block) is not None


LOAD_OF_ARGUMENT = make_program(
    And(
        A("opcode", "load", detail="load"),
        A("operand", "address", "load", detail=0),
        A("opcode", "address", detail="gep"),
        A("operand", "base", "address", detail=0),
        A("argument", "base"),
    ),
    "LoadOfArgument",
)


def test_every_load_whose_address_is_a_gep_of_an_argument() -> None:
    f = matvec()
    solutions = solved(LOAD_OF_ARGUMENT, f)
    bases = sorted(value_of(s, "base").name for s in solutions)
    assert bases == ["%A", "%x"]
    assert all(value_of(s, "load").opcode == "load" for s in solutions)


EITHER_ORDER = Or(
    And(A("operand", "lhs", "op", detail=0), A("operand", "rhs", "op", detail=1)),
    And(A("operand", "rhs", "op", detail=0), A("operand", "lhs", "op", detail=1)),
)


def test_disjunction_gives_both_operand_orders() -> None:
    program = make_program(And(A("opcode", "op", detail="fmul"), EITHER_ORDER))
    solutions = solved(program, matvec())
    assert len(solutions) == 2
    assert {(s["lhs"], s["rhs"]) for s in solutions} == {(s["rhs"], s["lhs"]) for s in solutions}
    # a[i] * a[i]: both orders are one assignment, reported once.
    assert len(solved(program, reduction())) == 1


def test_unconstrained_variables_are_unused() -> None:
    program = make_program(
        Or(
            A("opcode", "x", detail="fadd"),
            And(A("opcode", "x", detail="fmul"), A("operand", "y", "x", detail=0)),
        )
    )
    solutions = solved(program, matvec())
    by_opcode = {value_of(s, "x").opcode: s for s in solutions}
    assert set(by_opcode) == {"fadd", "fmul"} and len(solutions) == 2
    assert by_opcode["fadd"]["y"] is None
    assert by_opcode["fmul"]["y"] is not None


def test_optional_variable_with_unused() -> None:
    # The optional guard of the loop: a compare that feeds the entry branch, or none.
    program = make_program(
        And(
            A("opcode", "phi", detail="phi"),
            A("float_type", "phi"),
            A("data_flow", "phi", "add"),
            A("opcode", "add", detail="fadd"),
            Or(
                A("unused", "guard"),
                And(A("opcode", "guard", detail="icmp"), A("strictly_dominates", "guard", "phi")),
            ),
        )
    )
    solutions = solved(program, reduction())
    guards = [s["guard"] for s in solutions]
    assert None in guards and any(isinstance(g, Value) for g in guards)


READS = Gather(
    3,
    And(A("opcode", "read[0]", detail="load"), A("data_flow", "read[0]", "mul")),
    ("read[0]",),
)


def test_collect_gathers_in_canonical_order() -> None:
    program = make_program(And(A("opcode", "mul", detail="fmul"), READS))
    (solution,) = solved(program, matvec())
    first, second, third = solution["read[0]"], solution["read[1]"], solution["read[2]"]
    assert isinstance(first, Value) and isinstance(second, Value) and third is None
    assert first.id < second.id


def test_collect_with_too_many_inner_solutions_fails() -> None:
    one_slot = Gather(
        1,
        And(A("opcode", "read[0]", detail="load"), A("data_flow", "read[0]", "mul")),
        ("read[0]",),
    )
    program = make_program(And(A("opcode", "mul", detail="fmul"), one_slot))
    assert len(solved(program, matvec())) == 0


def test_collect_outer_variable_left_free_is_unused() -> None:
    # {other} is constrained only inside the collect: it is unused, so the body's
    # `same` atom is only true for an unused read, which `is load` forbids.
    body = And(
        A("opcode", "read[0]", detail="load"),
        Or(A("same", "read[0]", "other"), A("data_flow", "read[0]", "mul")),
    )
    program = make_program(And(A("opcode", "mul", detail="fmul"), Gather(2, body, ("read[0]",))))
    (solution,) = solved(program, matvec())
    assert solution["other"] is None
    assert solution["read[0]"] is not None and solution["read[1]"] is not None


def test_collect_inside_a_disjunction_and_a_nested_disjunction_inside_a_collect() -> None:
    body = And(
        Or(A("opcode", "r[0]", detail="load"), A("opcode", "r[0]", detail="getelementptr")),
        A("data_flow", "r[0]", "user"),
    )
    program = make_program(
        And(
            A("opcode", "user", detail="load"),
            Or(A("argument", "user"), Gather(2, body, ("r[0]",))),
        )
    )
    solutions = solved(program, matvec())
    assert len(solutions) == 2
    gathered = [s["r[0]"] for s in solutions]
    assert all(isinstance(r, Value) and r.opcode == "getelementptr" for r in gathered)


def test_empty_formulas() -> None:
    f = ir_function(LL_ODD)
    empty_and = Program("T", True, Conjunction(()), ())
    assert solve(empty_and, f).solutions == ({},)
    empty_or = Program("F", True, And(A("argument", "a"), Disjunction(())), ("a",))
    assert len(solve(empty_or, f)) == 0


def test_budget_exhaustion_is_reported() -> None:
    f = ir_function(LL_ODD)
    program = make_program(
        And(A("not_same", "a", "b"), A("not_same", "b", "c"), A("not_same", "c", "d")), "Wide"
    )
    result = solve(program, f, budget=1000)
    assert result.exhausted and result.steps == 1000
    message = result.message()
    assert (
        message is not None and "Wide" in message and "odd" in message and "1000 steps" in message
    )
    with pytest.raises(BudgetExhausted):
        result.raise_if_exhausted()
    small = solve(LOAD_OF_ARGUMENT, f)
    assert small.budget == DEFAULT_BUDGET
    assert not small.exhausted and small.message() is None
    small.raise_if_exhausted()


def test_too_many_solutions_are_reported() -> None:
    f = ir_function(LL_ODD)
    program = make_program(A("not_same", "a", "b"), "Pairs")
    result = solve(program, f, max_solutions=50)
    assert result.exhausted and result.too_many_solutions and len(result) == 50
    message = result.message()
    assert message is not None and "50 solutions" in message
    everything = solve(program, f, max_solutions=10_000)
    domain = len(f.values) + 1  # with unused
    assert not everything.exhausted and len(everything) == domain * domain - domain


def test_solutions_name_every_variable_and_iterate() -> None:
    f = ir_function(LL_ODD)
    result = solve(LOAD_OF_ARGUMENT, f)
    assert len(result) == len(list(result)) == 1
    (solution,) = result
    assert set(solution) == set(LOAD_OF_ARGUMENT.variables)
    assert value_of(solution, "base").kind is ValueKind.ARGUMENT


def test_selective_order_takes_fewer_steps_than_appearance() -> None:
    # {x} appears first but only relational atoms constrain it: in the order of
    # appearance it is drawn from every value with a user; the selective order binds
    # {y} from the opcode index first and reads {x} off its operands.
    program = make_program(
        And(
            A("strictly_dominates", "x", "y"),
            A("data_flow", "x", "y"),
            A("opcode", "y", detail="fmul"),
        )
    )
    f = matvec()
    selective = solve(program, f, order="selective")
    appearance = solve(program, f, order="appearance")
    assert len(selective) == 2 and set(map(_row, selective)) == set(map(_row, appearance))
    assert selective.steps * 5 < appearance.steps


def _row(solution: dict[str, Value | None]) -> tuple[Value | None, ...]:
    return tuple(solution.values())
