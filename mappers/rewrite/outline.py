"""New code moved into a function of its own, so the user's loop keeps its shape.

A guard with several early exits, a launch that may fail and a host-ranges test all
branch to the original loop, so its preheader would be reached from several blocks.
LLVM's scalar evolution then no longer sees the test that guards the loop's entry (it
walks up through blocks with a single predecessor only): the trip count becomes an
`smax`, too costly for runtime unrolling, and the fallback loop is compiled worse than
the original (red_stats.c: no unrolling; 0.68x of the original on two cores). Moved
into an internal `noinline` function, the new code becomes a single call followed by
one branch, and the original loop is reached from one block, as before the rewrite.

The outlined function takes every value its lines use but do not define, as parameters
of the same name (numbered names, which a parameter list would renumber, are renamed).

It uses LLVM's `preserve_allcc`: the callee saves every register it touches, so the
caller's values stay in registers across the call, as if it were not there. With the C
convention, a call in a loop nest leaves the nest six callee-saved registers; csr_struct.c
then reloaded the row pointers from the stack for every row of its fallback SpMV (0.80x of
the original on two cores). A guard that declines touches two registers; the saving of
the rest is the price of the slow path (a launch), where it is small.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mappers.rewrite.emit import NotReplaced
from mappers.rewrite.irtext import ModuleText, Operand, operand
from matcher.ir import Function

__all__ = ["CONVENTION", "Outlined", "outline"]

CONVENTION = "preserve_allcc"

_LOCAL = re.compile(r'%(?:"[^"]*"|[-a-zA-Z$._0-9]+)')
_DEFINED = re.compile(r'^\s*(%(?:"[^"]*"|[-a-zA-Z$._0-9]+)) = ')
_LABEL = re.compile(r'^("[^"]*"|[-a-zA-Z$._0-9]+):')
_NUMBERED = re.compile(r"%[0-9]+")


@dataclass(frozen=True)
class Outlined:
    """The outlined function's definition, and the arguments a call passes to it."""

    definition: list[str]
    arguments: tuple[Operand, ...]

    def call(self, return_type: str, callee: str) -> str:
        """The call's right-hand side (or whole statement, for `void`)."""
        args = ", ".join(str(argument) for argument in self.arguments)
        return f"call {CONVENTION} {return_type} {callee}({args})"


def outline(
    module: ModuleText,
    function: Function,
    callee: str,
    return_type: str,
    body: Sequence[str],
    *,
    new_values: Mapping[str, str] | None = None,
) -> Outlined:
    """`body` (blocks of IR lines, the first one the entry, every path ending in `ret`) as
    `define internal {return_type} {callee}(...)`; its free values, of `function` or new
    code outside the body (`new_values`: their types by name), become parameters."""
    defined = {m.group(1) for line in body if (m := _DEFINED.match(line))}
    defined |= {f"%{m.group(1)}" for line in body if (m := _LABEL.match(line))}
    defined |= module.type_names()  # `%struct.point` is a type, not a value
    types = {**_value_types(function), **(new_values or {})}
    free: list[str] = []
    for line in body:
        for name in _LOCAL.findall(line):
            if name not in defined and name not in free:
                free.append(name)
    unknown = [name for name in free if name not in types]
    if unknown:
        raise NotReplaced(f"internal error: new code uses {', '.join(unknown)}, not a value here")
    renamed = {name: _parameter_name(name) for name in free}
    parameters = ", ".join(f"{types[name]} {renamed[name]}" for name in free)
    lines = [_renamed(line, renamed) for line in body]
    header = f"define internal {CONVENTION} {return_type} {callee}({parameters}) noinline {{"
    definition = [header, *lines, "}"]
    return Outlined(definition, tuple(Operand(types[name], name) for name in free))


def _value_types(function: Function) -> dict[str, str]:
    values = (*function.arguments, *function.instructions)
    return {operand(value).ref: value.type for value in values if value.type != "void"}


def _parameter_name(name: str) -> str:
    return f"%idiom.arg{name[1:]}" if _NUMBERED.fullmatch(name) else name


def _renamed(line: str, renamed: dict[str, str]) -> str:
    if not any(_NUMBERED.fullmatch(name) for name in renamed):
        return line
    return _LOCAL.sub(lambda m: renamed.get(m.group(0), m.group(0)), line)
