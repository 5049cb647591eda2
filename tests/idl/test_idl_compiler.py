"""Expansion: inheritance, renaming, parameters, ranges, `if`, `collect`, flattening."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from idl.library import DEFAULT_FOLDER, Library, default_library
from idl.printer import count_alternatives, program_text
from idl.program import Atom, AtomKind, Collect, Conjunction, Disjunction, Formula, Program


def compile_one(text: str, name: str = "T", **parameters: int) -> Program:
    return Library.from_texts({"t.idl": text}).compile(name, parameters)


def alternatives(formula: Formula) -> list[list[Atom]]:
    """The formula as an `or` of `and`s of atoms (collects are not expected here)."""
    match formula:
        case Atom():
            return [[formula]]
        case Conjunction(parts=parts):
            terms: list[list[Atom]] = [[]]
            for part in parts:
                terms = [t + u for t in terms for u in alternatives(part)]
            return terms
        case Disjunction(parts=parts):
            return [t for part in parts for t in alternatives(part)]
    raise AssertionError(f"unexpected {formula!r}")


PERMUTATIONS = """
# The N! ways to match {out[0..N)} with {in[0..N)}: choose the input of the last output,
# then permute the others, renamed into {rest[j]} (in without in[j]), recursively.
Constraint Perm
( if N=1 then {out[0]} is the same as {in[0]}
  else ( ( {out[N-1]} is the same as {in[j]} and
           inherits Perm(N=N-1) with {out} as {out} and {rest[j]} as {in} at {sub[j]} and
           ( {rest[j][k]} is the same as {in[k]} for all k=0..j ) and
           ( {rest[j][k]} is the same as {in[k+1]} for all k=j..N-1 ) )
         for some j=0..N )
  endif )
End
"""


def _permutation(term: list[Atom], n: int) -> tuple[int, ...]:
    """Follow the `same` atoms of one alternative from each out[k] to the in[] it equals."""
    parent: dict[str, str] = {}

    def find(name: str) -> str:
        while parent.get(name, name) != name:
            name = parent[name]
        return name

    for atom in term:
        assert atom.kind is AtomKind.SAME
        parent[find(atom.variables[0])] = find(atom.variables[1])
    inputs = {find(f"in[{i}]"): i for i in range(n)}
    return tuple(inputs[find(f"out[{k}]")] for k in range(n))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_recursive_permutations_give_n_factorial_alternatives(n: int) -> None:
    program = Library.from_texts({"perm.idl": PERMUTATIONS}).compile("Perm", {"N": n})
    terms = alternatives(program.formula)
    assert (
        len(terms)
        == count_alternatives(program.formula)
        == len(list(itertools.permutations(range(n))))
    )
    assert {_permutation(term, n) for term in terms} == set(itertools.permutations(range(n)))


def test_ranges_are_half_open() -> None:
    program = compile_one("Constraint T ( {v[i]} is unused for all i=2..5 ) End")
    assert program.variables == ("v[2]", "v[3]", "v[4]")
    assert isinstance(program.formula, Conjunction)
    some = compile_one("Constraint T ( {v[i]} is unused for some i=0..2 ) End")
    assert isinstance(some.formula, Disjunction) and some.variables == ("v[0]", "v[1]")


def test_empty_ranges() -> None:
    assert compile_one("Constraint T {v[i]} is unused for all i=3..3 End").formula == Conjunction(
        ()
    )
    assert compile_one("Constraint T {v[i]} is unused for some i=4..1 End").formula == Disjunction(
        ()
    )


def test_single_iteration_is_not_a_group() -> None:
    program = compile_one("Constraint T {v[i]} is unused for all i=0..1 End")
    assert program.formula == Atom(AtomKind.UNUSED, ("v[0]",))


def test_for_value_binds_one_index() -> None:
    program = compile_one(
        "Constraint T {v[i+N]} is unused for i=2 for N=3 if not otherwise specified End"
    )
    assert program.variables == ("v[5]",)


INNER = """
Constraint Inner
( {a} is load instruction and {b.c} has data flow to {a} and {d[1]} is the same as {b} )
End
"""


def test_at_prefixes_exactly_what_with_does_not_rename() -> None:
    text = INNER + "Constraint T inherits Inner with {x} as {a} at {p} End"
    assert compile_one(text).variables == ("x", "p.b.c", "p.d[1]", "p.b")


def test_with_renames_a_whole_path_prefix() -> None:
    text = INNER + "Constraint T inherits Inner with {y[2]} as {b} and {z} as {d} End"
    assert compile_one(text).variables == ("a", "y[2].c", "z[1]", "y[2]")


def test_with_and_at_after_a_range_rename_each_iteration() -> None:
    text = INNER + (
        "Constraint T ( inherits Inner for all i=0..2 with {x[i]} as {a} at {it[i]} ) End"
    )
    program = compile_one(text)
    assert program.variables[:2] == ("x[0]", "it[0].b.c")
    assert "x[1]" in program.variables and "it[1].d[1]" in program.variables


def test_without_at_other_variables_are_shared() -> None:
    text = INNER + "Constraint T ( inherits Inner with {x} as {a} and {x} is unused ) End"
    assert compile_one(text).variables == ("x", "b.c", "d[1]", "b")


DEFAULTS = """
Constraint Row
( {v[i]} is load instruction for all i=0..N )
for N=2 if not otherwise specified
End
Constraint Given inherits Row(N=4) End
Constraint Defaulted inherits Row End
"""


def test_defaults_apply_only_when_the_caller_gives_no_value() -> None:
    library = Library.from_texts({"d.idl": DEFAULTS})
    assert len(library.compile("Given").variables) == 4
    assert len(library.compile("Defaulted").variables) == 2
    assert len(library.compile("Row").variables) == 2
    assert len(library.compile("Row", {"N": 3}).variables) == 3


def test_parameters_flow_down_an_inheritance_chain() -> None:
    text = DEFAULTS + "Constraint Chain inherits Row(N=M+1) for M=2 if not otherwise specified End"
    library = Library.from_texts({"d.idl": text})
    assert len(library.compile("Chain").variables) == 3
    assert len(library.compile("Chain", {"M": 0}).variables) == 1
    assert library.parameters("Chain") == {"M"}


def test_if_chooses_at_expansion_time() -> None:
    text = "Constraint T if N=2 then {a} is unused else {b} is unused endif End"
    assert compile_one(text, N=2).variables == ("a",)
    assert compile_one(text, N=3).variables == ("b",)


def test_collect_shape() -> None:
    text = """
    Constraint T
    ( collect i 3 ( {read[i]} is load instruction and {read[i]} has data flow to {sum} and
                    {addr[i].base} is first argument of {read[i]} ) and
      {sum} is fadd instruction )
    End
    """
    program = compile_one(text)
    collect, atom = program.formula.parts  # type: ignore[union-attr]
    assert isinstance(collect, Collect) and isinstance(atom, Atom)
    assert collect.slots == 3
    assert collect.slot_variables == (
        ("read[0]", "addr[0].base"),
        ("read[1]", "addr[1].base"),
        ("read[2]", "addr[2].base"),
    )
    assert isinstance(collect.body, Conjunction) and len(collect.body.parts) == 3
    assert collect.body.parts[1] == Atom(AtomKind.DATA_FLOW, ("read[0]", "sum"))
    assert program.variables == (
        "read[0]",
        "sum",
        "addr[0].base",
        "read[1]",
        "addr[1].base",
        "read[2]",
        "addr[2].base",
    )


def test_collect_keeping_one_variable_makes_the_others_its_own() -> None:
    text = """
    Constraint T
    ( collect i 2 keeping {read[i].value}
        ( {read[i].value} is load instruction and {read[i].address} is first argument of
          {read[i].value} and {read[i].address} has data flow to {sum} ) and
      {sum} is fadd instruction )
    End
    """
    collect, _ = compile_one(text).formula.parts  # type: ignore[union-attr]
    assert isinstance(collect, Collect)
    assert collect.slot_variables == (("read[0].value",), ("read[1].value",))
    assert collect.local == ("read[0].address",)


def test_collect_of_one_slot_still_knows_its_slot_variables() -> None:
    program = compile_one("Constraint T collect i 1 ( {g[i]} has data flow to {x} ) End")
    assert isinstance(program.formula, Collect)
    assert program.formula.slot_variables == (("g[0]",),)


def test_nested_groups_are_flattened() -> None:
    text = """
    Constraint T
    ( ( {a} is unused and ( {b} is unused and {c} is unused ) ) and
      ( {d} is unused or ( {e} is unused or {f} is unused ) ) and
      ( {g} is unused for all i=0..1 ) )
    End
    """
    formula = compile_one(text).formula
    assert isinstance(formula, Conjunction)
    kinds = [type(part).__name__ for part in formula.parts]
    assert kinds == ["Atom", "Atom", "Atom", "Disjunction", "Atom"]
    assert len(formula.parts[3].parts) == 3  # type: ignore[union-attr]


def test_inherited_groups_are_flattened_into_the_caller() -> None:
    text = INNER + "Constraint T ( inherits Inner and {z} is unused ) End"
    formula = compile_one(text).formula
    assert isinstance(formula, Conjunction) and len(formula.parts) == 4


def test_opcodes_are_normalised() -> None:
    text = (
        "Constraint T ( {a} is gep instruction and {b} is branch instruction and "
        "{c} is an and instruction ) End"
    )
    details = [atom.detail for atom in compile_one(text).formula.parts]  # type: ignore[union-attr]
    assert details == ["getelementptr", "br", "and"]


def test_operand_positions_are_zero_based() -> None:
    text = "Constraint T ( {a} is first argument of {b} and {c} is third successor of {d} ) End"
    atoms = compile_one(text).formula.parts  # type: ignore[union-attr]
    assert atoms == (Atom(AtomKind.OPERAND, ("a", "b"), 0), Atom(AtomKind.SUCCESSOR, ("c", "d"), 2))


def test_indexes_are_fully_evaluated() -> None:
    text = (
        "Constraint T ( {a[1+1]} is unused and {a[2]} is unused and "
        "{for[3-2].begin} is unused ) End"
    )
    assert compile_one(text).variables == ("a[2]", "for[1].begin")


def test_library_api(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "one.idl").write_text("Export Constraint A inherits B End\n")
    (tmp_path / "sub" / "two.idl").write_text("Constraint B {x} is unused End\n")
    library = Library.from_paths([tmp_path])
    assert set(library.names) == {"A", "B"}
    assert library.exported_names == ("A",)
    program = library.compile("A")
    assert program.exported and program.name == "A" and program.variables == ("x",)
    assert library.compile("A") is program  # cached
    assert library.exported_programs() == [program]
    assert program.span is not None and program.span.file.endswith("one.idl")


def test_program_text_is_stable() -> None:
    text = """
    Export Constraint T
    ( {a} is load instruction and ( {b} is unused or {b} is the same as {a} ) and
      collect i 2 ( {r[i]} has data flow to {a} ) )
    End
    """
    assert program_text(compile_one(text)) == (
        "Export Constraint T (t.idl:2:5)\n"
        "counts: variables 4, atoms 4, and 1, or 1, collect 1, alternatives 2\n"
        "variables (4):\n"
        "  a, b, r[0], r[1]\n"
        "formula:\n"
        "  and (3)\n"
        "    {a} is load instruction\n"
        "    or (2)\n"
        "      {b} is unused\n"
        "      {b} is the same as {a}\n"
        "    collect 2 slots\n"
        "      slot 0: {r[0]}\n"
        "      slot 1: {r[1]}\n"
        "      body\n"
        "        {r[0]} has data flow to {a}"
    )


def test_default_library_loads_the_shipped_folder() -> None:
    library = default_library()
    shipped = {path.resolve() for path in DEFAULT_FOLDER.rglob("*.idl")}
    for name in library.names:
        span = library.specification(name).span
        assert span is not None and Path(span.file).resolve() in shipped
    assert Library.checked({})[1] == []


def test_the_worked_example_of_the_authors_guide_compiles() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "idl-authors.md").read_text()
    blocks = [block.split("```", 1)[0] for block in guide.split("```\n# EitherOrder")[1:]]
    assert len(blocks) == 1
    library = Library.from_texts({"guide.idl": "# EitherOrder" + blocks[0]})
    assert library.exported_names == ("LoopSums",)
    program = library.compile("LoopSums", {"N": 2})
    assert count_alternatives(program.formula) == 32
    assert {"loop.end", "sum[0].acc", "sum[1].value"} <= set(program.variables)
    assert library.check() == []
