"""The names of a collect's slots, predicted from its first two.

Expanding `collect k N F` means expanding F for every slot, only to learn which names
each slot gives the variables of slot 0: the formulas themselves are thrown away but the
first. Where `k` appears only in the indexes of variable names (not in a parameter, an
`if`, a range, a collect's count, a renamed callee), every slot's formula is slot 0's
with its names changed, and each index in a name is `a + c*k` (index expressions only add
and subtract). So the names of slot k follow from those of slots 0 and 1, and the
expander needs only those two (`idl.compiler.Expander._collect`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from idl import ast
from idl.scopes import expression_names, formula_nodes, variable_names

__all__ = ["index_in_names_only", "predicted_slots"]

_NUMBER = re.compile(r"\d+")


def index_in_names_only(body: ast.Formula, index: str) -> bool:
    """Whether `index` appears in `body` only in the indexes of variable names (callers
    and prefixes of renamings included), never rebound inside."""
    return all(_fits(node, index) for node in formula_nodes(body))


def _fits(node: ast.Formula, index: str) -> bool:
    """The node's own expressions (not its parts') leave the formula's shape alone."""
    match node:
        case ast.Inherits(arguments=arguments, rename=rename):
            return not _mentions(index, *(a.value for a in arguments)) and _plain(rename, index)
        case (
            ast.ForAll(index=bound, start=start, stop=stop, rename=rename)
            | ast.ForSome(index=bound, start=start, stop=stop, rename=rename)
        ):
            return bound != index and not _mentions(index, start, stop) and _plain(rename, index)
        case ast.ForValue(index=bound, value=value, rename=rename):
            return bound != index and not _mentions(index, value) and _plain(rename, index)
        case ast.If(left=left, right=right):
            return not _mentions(index, left, right)
        case ast.Collect(index=bound, count=count):
            return bound != index and not _mentions(index, count)
    return True


def _plain(rename: ast.Rename | None, index: str) -> bool:
    """No renamed callee depends on the index: which names it covers would."""
    if rename is None:
        return True
    return not any(index in variable_names(pair.callee) for pair in rename.pairs)


def _mentions(index: str, *expressions: ast.Expr) -> bool:
    return any(index in expression_names(expr) for expr in expressions)


def predicted_slots(second: Mapping[str, str], slots: int) -> list[dict[str, str]] | None:
    """The mappings of slots 2..slots-1 (name in slot 0 -> name in slot k), given slot
    1's, by extending each number that changed by the same step; None where a name does
    not split so (then the expander expands every slot, and reports what it finds)."""
    templates: list[tuple[str, list[str], list[int], list[int]]] = []
    for name, other in second.items():
        if name == other:
            continue
        words, others = _NUMBER.split(name), _NUMBER.split(other)
        numbers, other_numbers = _NUMBER.findall(name), _NUMBER.findall(other)
        if words != others or any(str(int(n)) != n for n in numbers + other_numbers):
            return None
        starts = [int(n) for n in numbers]
        steps = [int(b) - a for a, b in zip(starts, other_numbers, strict=True)]
        templates.append((name, words, starts, steps))
    predicted: list[dict[str, str]] = []
    for slot in range(2, slots):
        mapping = dict(second)
        for name, words, starts, steps in templates:
            values = [start + slot * step for start, step in zip(starts, steps, strict=True)]
            if any(value < 0 for value in values):
                return None  # the expansion itself says where an index goes below 0
            mapping[name] = "".join(_interleave(words, [str(v) for v in values]))
        predicted.append(mapping)
    return predicted


def _interleave(words: list[str], numbers: list[str]) -> Iterator[str]:
    for word, number in zip(words, [*numbers, ""], strict=True):
        yield word
        yield number
