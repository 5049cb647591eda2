"""Which names a specification binds and which it expects from outside (its parameters)."""

from __future__ import annotations

from collections.abc import Iterator

from idl import ast

__all__ = [
    "expression_names",
    "formula_nodes",
    "free_names",
    "inherited_names",
    "iteration_names",
    "variable_names",
]


def expression_names(expr: ast.Expr) -> Iterator[str]:
    """The names an index expression reads."""
    match expr:
        case ast.Int():
            return
        case ast.Name(name=name):
            yield name
        case ast.BinOp(left=left, right=right):
            yield from expression_names(left)
            yield from expression_names(right)


def variable_names(variable: ast.Variable) -> Iterator[str]:
    """The names the indexes of a variable read."""
    for part in variable.parts:
        for index in part.indexes:
            yield from expression_names(index)


def _rename_names(rename: ast.Rename | None) -> Iterator[str]:
    if rename is None:
        return
    for pair in rename.pairs:
        yield from variable_names(pair.caller)
        yield from variable_names(pair.callee)
    if rename.prefix is not None:
        yield from variable_names(rename.prefix)


def _free(node: ast.Formula, bound: frozenset[str]) -> Iterator[str]:
    """Names used in `node` that no enclosing `for`/`collect` binds."""
    names: Iterator[str]
    match node:
        case ast.Atom(variables=variables):
            names = (n for v in variables for n in variable_names(v))
        case ast.And(parts=parts) | ast.Or(parts=parts):
            names = (n for part in parts for n in _free(part, bound))
        case ast.Inherits(arguments=arguments, rename=rename):
            names = (n for a in arguments for n in expression_names(a.value))
            yield from (n for n in _rename_names(rename) if n not in bound)
        case ast.ForAll(start=start, stop=stop) | ast.ForSome(start=start, stop=stop):
            yield from (n for e in (start, stop) for n in expression_names(e) if n not in bound)
            inner = bound | {node.index}
            yield from _free(node.body, inner)
            names = (n for n in _rename_names(node.rename) if n not in inner)
        case ast.ForValue(value=value, body=body, rename=rename):
            yield from (n for n in expression_names(value) if n not in bound)
            inner = bound | {node.index}
            yield from _free(body, inner)
            names = (n for n in _rename_names(rename) if n not in inner)
        case ast.If(left=left, right=right, then_=then_, else_=else_):
            names = (n for e in (left, right) for n in expression_names(e))
            yield from _free(then_, bound)
            yield from _free(else_, bound)
        case ast.Collect(index=index, count=count, body=body, keeping=keeping):
            names = expression_names(count)
            inner = bound | {index}
            yield from (n for v in keeping for n in variable_names(v) if n not in inner)
            yield from _free(body, inner)
    yield from (n for n in names if n not in bound)


def free_names(spec: ast.Specification) -> frozenset[str]:
    """The parameters a specification uses: names no `for` or `collect` binds."""
    return frozenset(_free(spec.formula, frozenset()))


def formula_nodes(node: ast.Formula) -> Iterator[ast.Formula]:
    """The node and every formula below it, in every branch."""
    yield node
    match node:
        case ast.And(parts=parts) | ast.Or(parts=parts):
            for part in parts:
                yield from formula_nodes(part)
        case ast.ForAll(body=body) | ast.ForSome(body=body) | ast.ForValue(body=body):
            yield from formula_nodes(body)
        case ast.Collect(body=body):
            yield from formula_nodes(body)
        case ast.If(then_=then_, else_=else_):
            yield from formula_nodes(then_)
            yield from formula_nodes(else_)
        case _:
            return


def iteration_names(spec: ast.Specification) -> frozenset[str]:
    """Every index a `for` or `collect` binds somewhere in the specification."""
    names: set[str] = set()
    for node in formula_nodes(spec.formula):
        match node:
            case ast.ForAll(index=index) | ast.ForSome(index=index) | ast.ForValue(index=index):
                names.add(index)
            case ast.Collect(index=index):
                names.add(index)
    return frozenset(names)


def inherited_names(spec: ast.Specification) -> Iterator[ast.Inherits]:
    """Every `inherits` in the specification, in any branch."""
    for node in formula_nodes(spec.formula):
        if isinstance(node, ast.Inherits):
            yield node
