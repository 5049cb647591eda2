"""Matches too small to launch, whatever the input: one row of an indirect structure.

A loop whose bounds are read from memory at an address that moves with a loop around it
(`for (j = rp[i]; j < rp[i + 1]; j++)` inside `for (i ...)`) walks one row of a
CSR-like structure, and the loop around it enters it once per row. Rows of sparse
structures are short (nm_spmv_transpose.c: 4 to 12 entries, 90 million rows), and a
launch per row would cost tens of microseconds against nanoseconds of work, so the guard
would decline every time; it is not free either: a test per row, and a branch that
LLVM's loop passes must work around (0.78-0.93x of the original on two cores). Such a
match is found and reported, not replaced. The whole nest is the idiom to replace
(SpMV_CSR); a Histogram or Reduction over one row is not.
"""

from __future__ import annotations

from collections.abc import Iterable

from mappers.plan.loops import LoopView
from mappers.rewrite.emit import NotReplaced
from matcher.analysis import Loop
from matcher.ir import Value

__all__ = ["check_launch_granularity"]

_ADDRESS_ARITHMETIC = frozenset(
    {"getelementptr", "add", "sub", "mul", "shl", "or", "sext", "zext", "trunc"}
)
_CASTS = frozenset({"sext", "zext", "trunc"})
_DEPTH = 6  # operations between a bound's address and the outer counter


def check_launch_granularity(loop: Loop, loops: Iterable[LoopView]) -> None:
    """Raise NotReplaced when a bound of the matched loops is read, at each iteration of
    a loop around the match, from an address that this iteration's counter moves."""
    outer = loop.parent
    if outer is None:
        return
    counters = {i for i in outer.header.instructions if i.opcode == "phi"}
    for view in loops:
        for bound in (view.iter_begin, view.iter_end):
            read = _through_casts(bound)
            if read.opcode != "load" or read.block not in outer.blocks:
                continue
            if _moves_with(read.operands[0], counters, _DEPTH):
                raise NotReplaced(
                    f"one row of an indirect structure: its bound {bound.name or '?'} is read "
                    f"at each iteration of the loop around it ({_where(outer)}), "
                    "too little work for a launch per row"
                )


def _through_casts(value: Value) -> Value:
    while value.opcode in _CASTS and value.operands:
        value = value.operands[0]
    return value


def _moves_with(address: Value, counters: set[Value], depth: int) -> bool:
    if address in counters:
        return True
    if depth == 0 or address.opcode not in _ADDRESS_ARITHMETIC:
        return False
    return any(_moves_with(operand, counters, depth - 1) for operand in address.operands)


def _where(loop: Loop) -> str:
    located = [i.location for i in loop.header.instructions if i.location is not None]
    return f"line {located[0].line}" if located else loop.header.name
