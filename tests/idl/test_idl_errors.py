"""Every error kind of IDL.md section 8: message, `file:line:col`, the line and a caret."""

from __future__ import annotations

from unittest import mock

import pytest

from idl import compiler
from idl.errors import IdiomError, IdlError
from idl.library import Library
from idl.parser import parse_text


def first_error(texts: dict[str, str], name: str | None = None) -> IdlError:
    """The error that loading (and compiling `name`, or checking everything) reports."""
    with pytest.raises(IdlError) as caught:
        library = Library.from_texts(texts)
        if name is not None:
            library.compile(name)
        else:
            errors = library.check()
            assert len(errors) == 1, errors
            raise errors[0]
    return caught.value


def assert_rendered(error: IdlError, where: str, message: str, line_text: str) -> None:
    """`where: message`, then the source line, then a caret under the column."""
    rendered = str(error)
    head, quoted, caret = rendered.split("\n")
    assert head.startswith(f"{where}: "), rendered
    assert message in head, rendered
    assert quoted == f"  {line_text}"
    column = int(where.rsplit(":", 1)[1])
    assert caret == "  " + " " * (column - 1) + "^"
    assert isinstance(error, IdiomError)


def test_syntax_error() -> None:
    text = "Constraint S\n( {a} is load instruction and\n  {b} is unused and )\nEnd\n"
    error = first_error({"s.idl": text})
    assert_rendered(error, "s.idl:3:21", "unexpected ')'; expected '('", "  {b} is unused and )")
    assert "'inherits'" in error.message and "'{'" in error.message


def test_syntax_error_at_end_of_file() -> None:
    error = first_error({"eof.idl": "Constraint S\n( {a} is unused"})
    assert_rendered(
        error, "eof.idl:2:16", "unexpected end of file; expected ')'", "( {a} is unused"
    )


def test_unexpected_character() -> None:
    error = first_error({"c.idl": "Constraint S\n  {a} is $unused\nEnd\n"})
    assert_rendered(error, "c.idl:2:10", "unexpected character '$'", "  {a} is $unused")


def test_unknown_specification() -> None:
    text = (
        "Constraint Main\n"
        "( {a} is unused and\n"
        "  inherits Mian(N=1) )\n"
        "End\n"
        "Constraint Main2 {a} is unused End\n"
    )
    error = first_error({"u.idl": text}, "Main")
    assert_rendered(error, "u.idl:3:3", "unknown specification 'Mian'", "  inherits Mian(N=1) )")


def test_unknown_atom() -> None:
    text = "Constraint A\n( {a} is unused and\n    {b} is frobnicated by {c} )\nEnd\n"
    error = first_error({"a.idl": text})
    assert_rendered(
        error,
        "a.idl:3:5",
        "unknown atom '{b} is frobnicated by {c}'",
        "    {b} is frobnicated by {c} )",
    )


def test_unknown_opcode_is_an_unknown_atom() -> None:
    error = first_error({"o.idl": "Constraint O\n  {a} is fmull instruction\nEnd\n"})
    assert_rendered(
        error,
        "o.idl:2:3",
        "'fmull' is not an LLVM opcode; did you mean 'fmul'",
        "  {a} is fmull instruction",
    )


def test_parameter_without_value() -> None:
    text = (
        "Constraint Row\n"
        "( {v[i]} is unused for all i=0..N )\n"
        "End\n"
        "Constraint User\n"
        "  inherits Row\n"
        "End\n"
    )
    error = first_error({"p.idl": text}, "User")
    assert_rendered(
        error,
        "p.idl:2:33",
        "parameter 'N' of 'Row' has no value ('Row' is inherited at p.idl:5:3",
        "( {v[i]} is unused for all i=0..N )",
    )
    assert first_error({"p.idl": text}).message == error.message  # what `check` reports


def test_index_not_reducing_to_an_integer() -> None:
    text = "Constraint I\n( ( {v[i]} is unused for all i=0..2 ) and\n  {w[i+1]} is unused )\nEnd\n"
    error = first_error({"i.idl": text}, "I")
    assert_rendered(
        error, "i.idl:3:6", "index 'i' does not reduce to an integer", "  {w[i+1]} is unused )"
    )


def test_negative_index() -> None:
    error = first_error({"n.idl": "Constraint C\n  {a[i-1]} is unused for i=0\nEnd\n"}, "C")
    assert_rendered(
        error, "n.idl:2:3", "index of 'a' reduces to -1", "  {a[i-1]} is unused for i=0"
    )


def test_recursion_with_the_same_parameters() -> None:
    text = (
        "Constraint A\n"
        "  inherits B\n"
        "End\n"
        "Constraint B\n"
        "  inherits C\n"
        "End\n"
        "Constraint C\n"
        "  inherits A\n"
        "End\n"
    )
    error = first_error({"r.idl": text}, "A")
    assert_rendered(
        error, "r.idl:2:3", "recursion does not terminate: A -> B -> C -> A", "  inherits B"
    )


def test_recursion_whose_parameter_never_reaches_the_base_case() -> None:
    text = (
        "Constraint Grow\n( if N=0 then {a} is unused else\n"
        "  ( {a[N]} is unused and inherits Grow(N=N+1) ) endif )\n"
        "for N=1 if not otherwise specified\nEnd\n"
    )
    error = first_error({"g.idl": text}, "Grow")
    assert_rendered(
        error,
        "g.idl:3:26",
        "recursion does not terminate: 'Grow' still inherits itself",
        "  ( {a[N]} is unused and inherits Grow(N=N+1) ) endif )",
    )


def test_duplicate_name_reported_at_the_second_definition() -> None:
    texts = {
        "one.idl": "Constraint Same {a} is unused End\n",
        "two.idl": "# second\n  Constraint Same {b} is unused End\n",
    }
    error = first_error(texts)
    assert_rendered(
        error,
        "two.idl:2:3",
        "duplicate specification 'Same' (first defined at one.idl:1:1)",
        "  Constraint Same {b} is unused End",
    )


def test_with_naming_a_missing_variable() -> None:
    text = (
        "Constraint Inner {a} is unused End\n"
        "Constraint Outer\n"
        "( inherits Inner with {x} as {a} and {y} as {nope} )\n"
        "End\n"
    )
    error = first_error({"w.idl": text}, "Outer")
    assert_rendered(
        error,
        "w.idl:3:45",
        "'with' names {nope}, a variable that specification 'Inner' does not have",
        "( inherits Inner with {x} as {a} and {y} as {nope} )",
    )


def test_point_of_passage_left_free_by_a_prefix() -> None:
    """`NoDataFlow` inherited `at` a prefix without its branch renamed: any branch would
    do, and the search would try every one."""
    text = (
        "Constraint NoFlow\n"
        "( all data flow from {source} to {target} passes through {precursor} )\n"
        "End\n"
        "Export Constraint Uses\n"
        "( {precursor} is branch instruction and\n"
        "  inherits NoFlow at {second} )\n"
        "End\n"
    )
    error = first_error({"p.idl": text}, "Uses")
    assert_rendered(
        error,
        "p.idl:4:1",
        "in 'Uses', {second.precursor} is constrained only as the point that all flow passes",
        "Export Constraint Uses",
    )
    renamed = text.replace("at {second}", "with {precursor} as {precursor} at {second}")
    assert Library.from_texts({"p.idl": renamed}).compile("Uses").exported


def test_mixed_and_or() -> None:
    text = "Constraint M\n( {a} is unused and {b} is unused or {c} is unused )\nEnd\n"
    error = first_error({"m.idl": text})
    assert_rendered(
        error,
        "m.idl:2:35",
        "'and' and 'or' mixed at one level",
        "( {a} is unused and {b} is unused or {c} is unused )",
    )


def test_unknown_parameter_of_an_inherited_specification() -> None:
    text = (
        "Constraint Row\n"
        "( {v[i]} is unused for all i=0..N )\n"
        "End\n"
        "Constraint User\n"
        "  inherits Row(M=1)\n"
        "End\n"
    )
    error = first_error({"b.idl": text}, "User")
    assert_rendered(
        error,
        "b.idl:5:16",
        "specification 'Row' has no parameter 'M' (its parameters: N)",
        "  inherits Row(M=1)",
    )


def test_collect_whose_body_ignores_its_index() -> None:
    error = first_error({"c.idl": "Constraint C\n  collect i 2 ( {a} is unused )\nEnd\n"}, "C")
    assert_rendered(error, "c.idl:2:3", "does not use 'i'", "  collect i 2 ( {a} is unused )")


def test_collect_whose_shape_depends_on_its_index() -> None:
    text = (
        "Constraint C\n"
        "  collect i 2 ( if i=0 then {a[i]} is unused else {a[i]} is load instruction endif )\n"
        "End\n"
    )
    error = first_error({"c.idl": text}, "C")
    assert "not the same for every slot" in error.message
    assert error.span is not None and (error.span.line, error.span.column) == (2, 3)


def test_collect_keeping_what_its_slots_do_not_change() -> None:
    text = "Constraint C\n  collect i 2 keeping {b} ( {a[i]} has data flow to {b} )\nEnd\n"
    error = first_error({"c.idl": text}, "C")
    assert_rendered(
        error,
        "c.idl:2:23",
        "keeps {b}, which is not a variable of its body that changes with 'i'",
        "  collect i 2 keeping {b} ( {a[i]} has data flow to {b} )",
    )


def test_errors_without_a_position() -> None:
    library = Library.from_texts({"x.idl": "Constraint X {a[N]} is unused End\n"})
    with pytest.raises(IdlError, match="unknown specification 'Y'"):
        library.compile("Y")
    with pytest.raises(IdlError, match="has no parameter 'M'"):
        library.compile("X", {"M": 1})
    with pytest.raises(IdlError, match="no such file"):
        Library.from_paths(["/nonexistent/dir/x.idl"])


def test_case_sensitive_keyword_hint() -> None:
    with pytest.raises(IdlError, match="keywords are case-sensitive"):
        parse_text("Constraint X ( {a} is unused ) end\n", "k.idl")
    with pytest.raises(IdlError, match="is 'End' missing"):
        parse_text("Constraint X {a} is unused end\n", "k.idl")


def test_expansion_too_large() -> None:
    text = PERMUTATIONS_FOR_SIZE + "Constraint Big inherits P(N=9) End\n"
    with mock.patch.object(compiler, "MAX_ATOMS", 50_000):
        error = first_error({"big.idl": text}, "Big")
    assert "expansion too large: more than 50000 atoms" in error.message
    assert error.span is not None and error.span.file == "big.idl"


# N! alternatives: small N compile quickly, N=9 would build millions of atoms.
PERMUTATIONS_FOR_SIZE = """
Constraint P
( if N=1 then {out[0]} is the same as {in[0]}
  else ( ( {out[N-1]} is the same as {in[j]} and
           inherits P(N=N-1) with {out} as {out} and {rest[j]} as {in} at {sub[j]} and
           ( {rest[j][k]} is the same as {in[k]} for all k=0..j ) and
           ( {rest[j][k]} is the same as {in[k+1]} for all k=j..N-1 ) )
         for some j=0..N )
  endif )
End
"""
