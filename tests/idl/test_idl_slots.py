"""A collect's slots predicted from its first two (`idl.slots`) against every slot expanded."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from idl import ast, compiler
from idl.errors import IdlError
from idl.library import Library, default_library
from idl.parser import parse_text
from idl.program import Program
from idl.slots import index_in_names_only, predicted_slots


@contextmanager
def every_slot_expanded() -> Iterator[None]:
    with mock.patch.object(compiler, "index_in_names_only", lambda body, index: False):
        yield


def compile_both(text: str, name: str = "T") -> tuple[Program, Program]:
    predicted = Library.from_texts({"t.idl": text}).compile(name)
    with every_slot_expanded():
        expanded = Library.from_texts({"t.idl": text}).compile(name)
    return predicted, expanded


def collect_body(text: str) -> ast.Formula:
    """The body of the first collect of the text's first specification."""
    formula = parse_text(text, "t.idl").specifications[0].formula
    while isinstance(formula, ast.And):
        formula = formula.parts[0]
    assert isinstance(formula, ast.Collect)
    return formula.body


LIBRARY = """
Constraint Read
( {value} is load instruction and {address} is first argument of {value} and
  {base} has data flow to {address} )
End
Constraint Pair
( {a[0]} has data flow to {b} and {a[M]} has data flow to {b} )
for M=1 if not otherwise specified
End
"""


@pytest.mark.parametrize(
    "body",
    [
        "{read[i]} is load instruction",
        "inherits Read with {r[i].value} as {value} and {base} as {base} at {r[i]}",
        "( {x[i+2]} has data flow to {y[i].z[1]} and {w[i+i]} is unused )",
        "( {q[3][i]} is unused and ( {p[i][j]} is unused for all j=0..2 ) )",
        "inherits Pair(M=2) with {out[i]} as {b}",
        "collect j 2 ( {n[i][j]} has data flow to {m[i]} )",
    ],
)
def test_predicted_slots_match_every_slot_expanded(body: str) -> None:
    text = f"Constraint T ( collect i 5 ( {body} ) and {{base}} is argument ) End" + LIBRARY
    predicted, expanded = compile_both(text)
    assert repr(predicted.formula) == repr(expanded.formula)
    assert predicted.variables == expanded.variables
    assert index_in_names_only(collect_body(text), "i")


@pytest.mark.parametrize(
    "body",
    [
        "inherits Pair(M=i+1) with {out[i]} as {b}",  # a parameter
        "( if i=3 then {x[i]} is unused else {x[i]} is argument endif )",  # an `if`
        "( {x[i][j]} is unused for all j=0..i+1 )",  # a range
        "collect j i+1 ( {n[i][j]} is unused )",  # a collect's count
        "inherits Pair with {out[i]} as {a[i]}",  # a renamed callee
        "( {x[i]} is unused for all i=0..2 )",  # the index bound again
    ],
)
def test_an_index_that_shapes_the_body_expands_every_slot(body: str) -> None:
    text = f"Constraint T collect i 4 ( {body} and {{y[i]}} is unused ) End" + LIBRARY
    assert not index_in_names_only(collect_body(text), "i")


def test_a_shape_that_changes_with_the_slot_is_still_reported() -> None:
    text = (
        "Constraint T collect i 4 ( if i=3 then {x[i]} is unused "
        "else {x[i]} is argument endif ) End"
    )
    with pytest.raises(IdlError, match="in slot 3"):
        Library.from_texts({"t.idl": text}).compile("T")


def test_an_index_below_zero_in_a_later_slot_is_still_reported() -> None:
    text = "Constraint T collect i 4 ( {x[2-i]} has data flow to {y} ) End"
    with pytest.raises(IdlError, match="below 0"):
        Library.from_texts({"t.idl": text}).compile("T")


def test_a_slot_name_that_meets_an_outer_one_is_still_reported() -> None:
    text = "Constraint T collect i 4 ( {x[i]} has data flow to {x[3]} ) End"
    with pytest.raises(IdlError, match="slot 3 and a variable fixed outside"):
        Library.from_texts({"t.idl": text}).compile("T")


def test_predicted_slots_step_every_number_that_changed() -> None:
    second = {"r[0].x[4]": "r[1].x[6]", "y": "y", "z2[7]": "z2[7]"}
    assert predicted_slots(second, 4) == [
        {"r[0].x[4]": "r[2].x[8]", "y": "y", "z2[7]": "z2[7]"},
        {"r[0].x[4]": "r[3].x[10]", "y": "y", "z2[7]": "z2[7]"},
    ]
    assert predicted_slots({"a[0]": "b[1]"}, 3) is None  # not a name with new numbers
    assert predicted_slots({"a[2]": "a[1]"}, 4) is None  # below 0 in slot 3


@settings(max_examples=60, deadline=None)
@given(
    slots=st.integers(min_value=1, max_value=7),
    offsets=st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=3),
    prefixed=st.booleans(),
)
def test_random_collects_compile_the_same_either_way(
    slots: int, offsets: list[int], prefixed: bool
) -> None:
    reads = " and ".join(f"{{x[i+{o}].v[{o}]}} has data flow to {{sum}}" for o in offsets)
    inherited = "inherits Read with {r[i].value} as {value}" + (" at {r[i]}" if prefixed else "")
    text = f"Constraint T collect i {slots} ( {reads} and {inherited} ) End" + LIBRARY
    predicted, expanded = compile_both(text)
    assert repr(predicted.formula) == repr(expanded.formula)


def test_the_shipped_library_compiles_the_same_either_way() -> None:
    predicted = default_library().exported_programs()
    with every_slot_expanded():
        expanded = default_library().exported_programs()
    assert [repr(p.formula) for p in predicted] == [repr(p.formula) for p in expanded]
    assert [p.variables for p in predicted] == [p.variables for p in expanded]
