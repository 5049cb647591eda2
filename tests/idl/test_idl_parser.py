"""Parsing: every form of IDL.md sections 3-5, positions, and the printer's round trip
on hand-written specifications."""

from __future__ import annotations

from pathlib import Path

import pytest

from idl import ast
from idl.atoms import OPCODES, SHORT_OPCODES
from idl.errors import SourceSpan
from idl.parser import parse_file, parse_text
from idl.printer import print_module
from idl.program import AtomKind

SAMPLE = """\
# A sample that uses every form of the language.
Export
Constraint Everything
( {a} is load instruction and                      # atoms
  {for[1].begin} is the same as {read[N-i-1].value} and
  ( {x} is unused or {x} is preexecution ) and
  inherits Helper(N=N+1, M=2) with {outer} as {inner} and {b} as {c} at {h} and
  ( {v[i]} is an argument for all i=0..N with {v} as {w} at {q[i]} ) and
  ( {v[i]} is a constant for some i=1..N-1 ) and
  {z[k]} is integer zero for k=3 and
  if N=2 then {t} is an integer else {t} is a float endif and
  collect j 4 ( {r[j]} is gep instruction and {r[j]} has data flow to {s} ) and
  all control flow from {a} to {b} passes through {c} )
for N=2 if not otherwise specified
for M=1 and K=0 if not otherwise specified
End

Constraint Helper
( {inner} is and instruction or {c} is or instruction or {b} is branch instruction )
End
"""


def spec_formula(text: str) -> ast.Formula:
    return parse_text(f"Constraint T\n{text}\nEnd\n", "t.idl").specifications[0].formula


def test_sample_parses_with_structure() -> None:
    module = parse_text(SAMPLE, "sample.idl")
    everything, helper = module.specifications
    assert everything.exported and not helper.exported
    assert everything.name == "Everything"
    assert [(d.name, d.value) for d in everything.defaults] == [("N", 2), ("M", 1), ("K", 0)]
    assert isinstance(everything.formula, ast.And)
    assert len(everything.formula.parts) == 10
    inherits = everything.formula.parts[3]
    assert isinstance(inherits, ast.Inherits)
    assert [a.name for a in inherits.arguments] == ["N", "M"]
    assert inherits.rename is not None and len(inherits.rename.pairs) == 2
    assert isinstance(helper.formula, ast.Or)
    details = [part.detail for part in helper.formula.parts if isinstance(part, ast.Atom)]
    assert details == ["and", "or", "branch"]


def test_variable_paths_and_index_expressions() -> None:
    formula = spec_formula("{for[i+1][2].begin} is unused")
    assert isinstance(formula, ast.Atom)
    (variable,) = formula.variables
    first, second = variable.parts
    assert first.name == "for" and second == ast.Part("begin")
    assert first.indexes == (
        ast.BinOp("+", ast.Name("i"), ast.Int(1)),
        ast.Int(2),
    )


def test_index_arithmetic_is_left_associative_and_parenthesised() -> None:
    formula = spec_formula("( {a[N-i-1]} is unused and {b[N-(i-1)]} is unused )")
    assert isinstance(formula, ast.And)
    left, right = formula.parts
    assert isinstance(left, ast.Atom) and isinstance(right, ast.Atom)
    n, i, one = ast.Name("N"), ast.Name("i"), ast.Int(1)
    assert left.variables[0].parts[0].indexes[0] == ast.BinOp("-", ast.BinOp("-", n, i), one)
    assert right.variables[0].parts[0].indexes[0] == ast.BinOp("-", n, ast.BinOp("-", i, one))


@pytest.mark.parametrize(
    ("text", "kind", "detail"),
    [
        ("{a} is unused", AtomKind.UNUSED, None),
        ("{a} is instruction", AtomKind.INSTRUCTION, None),
        ("{a} is an instruction", AtomKind.INSTRUCTION, None),
        ("{a} is an argument", AtomKind.ARGUMENT, None),
        ("{a} is argument", AtomKind.ARGUMENT, None),
        ("{a} is a constant", AtomKind.CONSTANT, None),
        ("{a} is preexecution", AtomKind.PREEXECUTION, None),
        ("{a} is integer zero", AtomKind.INTEGER_ZERO, None),
        ("{a} is floating point zero", AtomKind.FLOAT_ZERO, None),
        ("{a} is a positive constant", AtomKind.POSITIVE, None),
        ("{a} is a negative constant", AtomKind.NEGATIVE, None),
        ("{a} is an integer", AtomKind.INTEGER_TYPE, None),
        ("{a} is a float", AtomKind.FLOAT_TYPE, None),
        ("{a} is a pointer", AtomKind.POINTER_TYPE, None),
        ("{a} is a vector", AtomKind.VECTOR_TYPE, None),
        ("{a} is fadd instruction", AtomKind.OPCODE, "fadd"),
        ("{a} is an add instruction", AtomKind.OPCODE, "add"),
        ("{a} is the same as {b}", AtomKind.SAME, None),
        ("{a} is not the same as {b}", AtomKind.NOT_SAME, None),
        ("{a} has data flow to {b}", AtomKind.DATA_FLOW, None),
        ("{a} is first argument of {b}", AtomKind.OPERAND, 0),
        ("{a} is fourth argument of {b}", AtomKind.OPERAND, 3),
        ("{a} has control flow to {b}", AtomKind.CONTROL_FLOW, None),
        ("{a} is second successor of {b}", AtomKind.SUCCESSOR, 1),
        ("{a} spans block to {b}", AtomKind.SPANS_BLOCK, None),
        ("{a} is outside the element of {b}", AtomKind.OUTSIDE_ELEMENT, None),
        ("{a} never overlaps {b}", AtomKind.NEVER_OVERLAPS, None),
        ("{a} has the same address as {b}", AtomKind.SAME_ADDRESS, None),
        ("{a} is one step behind {b}", AtomKind.STEP_BEHIND, None),
        ("{a} reaches phi node {p} from {t}", AtomKind.REACHES_PHI, None),
        ("{a} control flow dominates {b}", AtomKind.DOMINATES, None),
        ("{a} strictly control flow dominates {b}", AtomKind.STRICTLY_DOMINATES, None),
        ("{a} control flow post dominates {b}", AtomKind.POST_DOMINATES, None),
        (
            "{a} strictly control flow post dominates {b}",
            AtomKind.STRICTLY_POST_DOMINATES,
            None,
        ),
        (
            "all control flow from {a} to {b} passes through {c}",
            AtomKind.CONTROL_FLOW_PASSES_THROUGH,
            None,
        ),
        (
            "all data flow from {a} to {b} passes through {c}",
            AtomKind.DATA_FLOW_PASSES_THROUGH,
            None,
        ),
        ("{f} has attribute pure", AtomKind.PURE, None),
        ("{f} fills a private scratch array", AtomKind.FILLS_SCRATCH, None),
    ],
)
def test_every_atom(text: str, kind: AtomKind, detail: str | int | None) -> None:
    formula = spec_formula(text)
    assert isinstance(formula, ast.Atom)
    assert (formula.kind, formula.detail) == (kind, detail)
    assert len(formula.variables) == text.count("{")


@pytest.mark.parametrize("opcode", sorted(OPCODES | SHORT_OPCODES.keys()))
def test_every_opcode(opcode: str) -> None:
    formula = spec_formula(f"( {{x}} is {opcode} instruction and {{y}} is unused )")
    assert isinstance(formula, ast.And)
    assert formula.parts[0] == ast.Atom(AtomKind.OPCODE, (ast.Variable((ast.Part("x"),)),), opcode)


def test_keywords_are_plain_names_inside_variables() -> None:
    formula = spec_formula("{and.or[for].End} is the same as {if.with}")
    assert isinstance(formula, ast.Atom)
    names = [part.name for var in formula.variables for part in var.parts]
    assert names == ["and", "or", "End", "if", "with"]


def test_with_pairs_inside_a_conjunction() -> None:
    formula = spec_formula(
        "( inherits S with {a} as {b} and {c} as {d} and {c} is the same as {e} )"
    )
    assert isinstance(formula, ast.And)
    inherits, atom = formula.parts
    assert isinstance(inherits, ast.Inherits) and inherits.rename is not None
    assert len(inherits.rename.pairs) == 2
    assert isinstance(atom, ast.Atom) and atom.kind is AtomKind.SAME


def test_collect_suffix_and_for_value() -> None:
    formula = spec_formula("collect i 3 ( {x[i]} is load instruction ) for j=2")
    assert isinstance(formula, ast.ForValue)
    assert isinstance(formula.body, ast.Collect)
    assert formula.body.count == ast.Int(3)


def test_positions_on_nodes() -> None:
    text = "Constraint P\n( {a} is unused and\n   inherits Q(N=1) )\nEnd\n"
    spec = parse_text(text, "p.idl").specifications[0]
    assert spec.span == SourceSpan("p.idl", 1, 1)
    assert isinstance(spec.formula, ast.And)
    atom, inherits = spec.formula.parts
    assert atom.span == SourceSpan("p.idl", 2, 3)
    assert isinstance(atom, ast.Atom) and atom.variables[0].span == SourceSpan("p.idl", 2, 3)
    assert inherits.span == SourceSpan("p.idl", 3, 4)
    assert isinstance(inherits, ast.Inherits)
    assert inherits.arguments[0].value.span == SourceSpan("p.idl", 3, 17)


def test_empty_file_and_comments_only() -> None:
    assert parse_text("", "e.idl").specifications == ()
    assert parse_text("# nothing\n\n  # here\n", "e.idl").specifications == ()


def test_round_trip_of_the_sample() -> None:
    module = parse_text(SAMPLE, "sample.idl")
    printed = print_module(module)
    again = parse_text(printed, "sample.idl")
    assert again == module
    assert print_module(again) == printed


def test_round_trip_of_the_reference_examples() -> None:
    text = """
Constraint Invariant
( {value} is preexecution or
  {value} strictly control flow dominates {scope.begin} )
End

Constraint EitherOrder
( ( {lhs} is first argument of {op} and {rhs} is second argument of {op} ) or
  ( {rhs} is first argument of {op} and {lhs} is second argument of {op} ) )
End

Constraint ReadsFromBase
( ( {read[i]} is load instruction and
    {addr[i]} is first argument of {read[i]} and
    {base} is first argument of {addr[i]} ) for all i=0..N )
for N=2 if not otherwise specified
End
"""
    module = parse_text(text, "ref.idl")
    assert [s.name for s in module.specifications] == ["Invariant", "EitherOrder", "ReadsFromBase"]
    assert parse_text(print_module(module), "ref.idl") == module


def test_parse_file(tmp_path: Path) -> None:
    path = tmp_path / "f.idl"
    path.write_text("Constraint F {a} is unused End\n")
    module = parse_file(path)
    assert module.filename == str(path)
    assert module.specifications[0].span == SourceSpan(str(path), 1, 1)
