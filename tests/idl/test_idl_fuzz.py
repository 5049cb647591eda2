"""Whatever the input, the only exception that leaves `idl` is `IdlError`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from idl import compiler
from idl.errors import IdlError
from idl.library import Library
from idl.parser import parse_text
from idl.printer import print_module, program_text

SEEDS = (
    """
Export Constraint Reads
( ( {read[i]} is load instruction and
    {addr[i]} is first argument of {read[i]} and
    {base} is first argument of {addr[i]} ) for all i=0..N and
  inherits Invariant with {base} as {value} at {inv} and
  collect k 2 ( {use[k]} has data flow to {read[0]} ) )
for N=2 if not otherwise specified
End
Constraint Invariant
( {value} is preexecution or {value} strictly control flow dominates {scope.begin} )
End
""",
    """
Constraint Perm
( if N=1 then {out[0]} is the same as {in[0]}
  else ( ( {out[N-1]} is the same as {in[j]} and
           inherits Perm(N=N-1) with {out} as {out} and {rest[j]} as {in} at {sub[j]} and
           ( {rest[j][k]} is the same as {in[k]} for all k=0..j ) and
           ( {rest[j][k]} is the same as {in[k+1]} for all k=j..N-1 ) )
         for some j=0..N )
  endif )
for N=3 if not otherwise specified
End
""",
    """
Constraint Loop
( {begin} spans block to {end} and {end} is branch instruction and
  {begin} is first successor of {end} and {x} reaches phi node {p} from {end} and
  all control flow from {a} to {b} passes through {c} and
  ( {f} has attribute pure or {f} is an argument ) and
  {v[i+1]} is an and instruction for i=2 with {w} as {v[3]} )
End
""",
)

TOKENS = (
    *"(){}[].,=+-#",
    "..",
    " and ",
    " or ",
    " for all i=0..3 ",
    " for some j=1..N ",
    " for k=2 ",
    " with {q} as {value} ",
    " at {p} ",
    " inherits Perm(N=2) ",
    " inherits Loop ",
    " inherits Nope ",
    " if N=1 then ",
    " else ",
    " endif ",
    " collect i 3 ",
    " End ",
    " Constraint X ",
    " Export ",
    " is unused ",
    " is gep instruction ",
    " {x[i]} ",
    "N",
    "99999",
    "\n",
    "\t",
    "é",
    "\x00",
)


# Words, variables, numbers, `..`, punctuation and layout: the pieces mutations move.
_PIECES = re.compile(r"\{[^{}]*\}|\w+|\.\.|\s+|.", re.DOTALL)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A seed with a few token-level (mostly still parsable) or character-level edits."""
    pieces = _PIECES.findall(draw(st.sampled_from(SEEDS)))
    vocabulary = sorted({piece for piece in pieces if not piece.isspace()})
    for _ in range(draw(st.integers(1, 3))):
        if not pieces:
            break
        where = draw(st.integers(0, len(pieces) - 1))
        match draw(st.sampled_from(["delete", "insert", "replace", "number", "swap", "char"])):
            case "delete":
                del pieces[where]
            case "insert":
                pieces.insert(where, draw(st.sampled_from(TOKENS) | st.sampled_from(vocabulary)))
            case "replace":
                pieces[where] = draw(st.sampled_from(vocabulary))
            case "number":
                numbers = [i for i, piece in enumerate(pieces) if piece.isdigit()] or [where]
                pieces[draw(st.sampled_from(numbers))] = str(draw(st.integers(0, 700)))
            case "swap":
                other = draw(st.integers(0, len(pieces) - 1))
                pieces[where], pieces[other] = pieces[other], pieces[where]
            case _:
                text = "".join(pieces)
                at = draw(st.integers(0, len(text)))
                pieces = [text[:at], draw(st.characters()), text[at + 1 :]]
    return "".join(pieces)


@contextmanager
def small_limits() -> Iterator[None]:
    """Mutations can ask for huge ranges; keep each example quick."""
    with (
        mock.patch.object(compiler, "MAX_ATOMS", 5_000),
        mock.patch.object(compiler, "MAX_RANGE", 500),
    ):
        yield


def exercise(text: str) -> None:
    """Parse, print, load, check and compile: only IdlError may escape."""
    try:
        module = parse_text(text, "fuzz.idl")
    except IdlError as error:
        assert error.span is None or error.span.line >= 1
        return
    print_module(module)
    library, errors = Library.checked({"fuzz.idl": text})
    assert all(isinstance(error, IdlError) for error in errors)
    for name in library.names:
        with suppress(IdlError):
            program_text(library.compile(name))


FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@FUZZ
@given(mutated())
def test_mutated_files_raise_only_idl_errors(text: str) -> None:
    with small_limits():
        exercise(text)


@FUZZ
@given(st.lists(st.sampled_from(TOKENS) | st.characters(), max_size=60))
def test_random_token_soup_raises_only_idl_errors(pieces: list[str]) -> None:
    with small_limits():
        exercise("Constraint X " + "".join(pieces))
        exercise("".join(pieces))


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_idl_errors(data: bytes) -> None:
    with small_limits():
        exercise(data.decode("utf-8", errors="replace"))


def test_seeds_are_valid() -> None:
    for seed in SEEDS:
        library, errors = Library.checked({"seed.idl": seed})
        assert errors == []
        assert library.names


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    depth = 3000
    text = "Constraint D\n" + "( {a} is unused and " * depth + "{b} is unused" + " )" * depth
    with pytest.raises(IdlError, match=r"fuzz.idl:2:\d+: nested too deeply"):
        exercise_strict(text + "\nEnd\n")
    long_index = "Constraint E {a[" + "+".join(["1"] * 1000) + "]} is unused End"
    with pytest.raises(IdlError, match="nested too deeply"):
        exercise_strict(long_index)


def exercise_strict(text: str) -> None:
    Library.from_texts({"fuzz.idl": text}).check()
