"""parse(print(ast)) == ast for generated syntax trees (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from idl import ast
from idl.atoms import COUNTS, OPCODES, ORDINALS, SHORT_OPCODES, atom_words
from idl.parser import parse_text
from idl.printer import print_module
from idl.program import AtomKind

KEYWORDS = frozenset(
    [
        "and",
        "or",
        "for",
        "all",
        "some",
        "with",
        "as",
        "at",
        "if",
        "then",
        "else",
        "endif",
        "End",
        "Constraint",
        "Export",
        "inherits",
        "collect",
        "keeping",
        "not",
        "otherwise",
        "specified",
    ]
)

_FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
identifiers = st.builds(
    str.__add__, st.sampled_from(_FIRST), st.text(_FIRST + "0123456789", max_size=4)
)
names = identifiers.filter(lambda name: name not in KEYWORDS)
# Inside braces every word is a plain name, keywords included.
part_names = st.one_of(identifiers, st.sampled_from(sorted(KEYWORDS)))

exprs: st.SearchStrategy[ast.Expr] = st.recursive(
    st.one_of(st.builds(ast.Int, st.integers(0, 40)), st.builds(ast.Name, names)),
    lambda inner: st.builds(ast.BinOp, st.sampled_from(["+", "-"]), inner, inner),
    max_leaves=5,
)

parts = st.builds(ast.Part, part_names, st.lists(exprs, max_size=2).map(tuple))
variables = st.builds(ast.Variable, st.lists(parts, min_size=1, max_size=3).map(tuple))


@st.composite
def atoms(draw: st.DrawFn) -> ast.Atom:
    kind = draw(st.sampled_from(list(AtomKind)))
    detail: str | int | None = None
    if kind is AtomKind.OPCODE:
        detail = draw(st.sampled_from(sorted(OPCODES | SHORT_OPCODES.keys())))
    elif kind in (AtomKind.OPERAND, AtomKind.SUCCESSOR):
        detail = draw(st.integers(0, len(ORDINALS) - 1))
    elif kind is AtomKind.DATA_FLOW_WITHIN:
        detail = draw(st.integers(1, len(COUNTS)))
    arity = atom_words(kind, detail).count("{}")
    chosen = draw(st.lists(variables, min_size=arity, max_size=arity))
    return ast.Atom(kind, tuple(chosen), detail)


pairs = st.builds(ast.RenamePair, variables, variables)
renames = st.one_of(
    st.builds(ast.Rename, st.lists(pairs, min_size=1, max_size=3).map(tuple), st.none()),
    st.builds(ast.Rename, st.lists(pairs, max_size=2).map(tuple), variables),
)
optional_renames = st.one_of(st.none(), renames)
arguments = st.builds(ast.Argument, names, exprs)


def _extend(inner: st.SearchStrategy[ast.Formula]) -> st.SearchStrategy[ast.Formula]:
    group = st.lists(inner, min_size=2, max_size=3).map(tuple)
    return st.one_of(
        st.builds(ast.And, group),
        st.builds(ast.Or, group),
        st.builds(ast.ForAll, inner, names, exprs, exprs, optional_renames),
        st.builds(ast.ForSome, inner, names, exprs, exprs, optional_renames),
        st.builds(ast.ForValue, inner, names, exprs, optional_renames),
        st.builds(ast.If, exprs, exprs, inner, inner),
        st.builds(
            ast.Collect, names, exprs, inner, keeping=st.lists(variables, max_size=2).map(tuple)
        ),
    )


inherits = st.builds(
    ast.Inherits, names, st.lists(arguments, max_size=2).map(tuple), optional_renames
)
formulas: st.SearchStrategy[ast.Formula] = st.recursive(
    st.one_of(atoms(), inherits), _extend, max_leaves=8
)
defaults = st.builds(ast.Default, names, st.integers(0, 99))
specifications = st.builds(
    ast.Specification,
    names,
    formulas,
    st.lists(defaults, max_size=3).map(tuple),
    st.booleans(),
)
modules = st.builds(ast.Module, st.just("gen.idl"), st.lists(specifications, max_size=3).map(tuple))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules)
def test_print_then_parse_gives_the_same_tree(module: ast.Module) -> None:
    text = print_module(module)
    again = parse_text(text, "gen.idl")
    assert again == module, text
    assert print_module(again) == text  # printing is stable too
