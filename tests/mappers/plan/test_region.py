"""region_of (mappers/plan/region.py) on a loop that leaves from its header to a block of
its own as well as from its latch, as LLVM leaves a row loop inlined into its caller
(the header's exit edge split into a "critedge" block computing the counter's final value,
unused). That block is taken as leaving to the loop's exit only when it is reached from
the loop alone, does nothing, computes nothing used outside it and goes, as the (empty)
exit block does, to a block with no phis; each refused case breaks one of these, and
fails its test if region_of stops checking that one (each check removed in turn)."""

from __future__ import annotations

import pytest

from mappers.plan.region import Region, region_of
from mappers.rewrite.emit import NotReplaced
from matcher.ir import Function, Value
from matcher.ir_builder import build_module

# {entry} is the function's first block's body, {critedge} the header's exit block's,
# {exit} the latch's exit block's, {after} the start of the block both go to, {tail}
# anything after the function's last block.
_LOOP = """
define void @rows(ptr %a, i64 %n) {{
entry:
{entry}
pre:
  br label %header
header:
  %i = phi i64 [ 0, %pre ], [ %i.next, %latch ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %critedge
body:
  %at = getelementptr double, ptr %a, i64 %i
  store double 1.0, ptr %at
  br label %latch
latch:
  %i.next = add i64 %i, 1
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %header, label %exit
critedge:
{critedge}
exit:
{exit}
after:
{after}
  ret void
{tail}
}}
"""

_DEAD_COUNTER = "  %last = add i64 %i, 1\n  br label %after"  # LLVM's: computed, unused
_TO_AFTER = "  br label %after"
_TO_PREHEADER = "  br label %pre"


def _function(
    critedge: str = _DEAD_COUNTER,
    exit: str = _TO_AFTER,
    after: str = "",
    tail: str = "",
    entry: str = _TO_PREHEADER,
) -> Function:
    text = _LOOP.format(entry=entry, critedge=critedge, exit=exit, after=after, tail=tail)
    (function,) = build_module(text).functions
    return function


def _first(function: Function, block: str) -> Value:
    return next(b for b in function.blocks if b.name == block).first


def _region_of(function: Function) -> Region:
    """The region of the loop as a match names it: its header's first instruction, the
    preheader's branch, and the first instruction of the latch's exit block."""
    solution = {
        "begin": _first(function, "header"),
        "precursor": _first(function, "pre"),
        "successor": _first(function, "exit"),
    }
    return region_of(function, solution)


def test_a_block_computing_the_dead_final_counter_leaves_to_the_exit() -> None:
    function = _function()
    region = _region_of(function)
    assert region.exit.name == "exit"
    assert {b.name for b in region.blocks} == {"header", "body", "latch"}


_ALSO_FROM_ENTRY = "  %some = icmp sgt i64 %n, 0\n  br i1 %some, label %pre, label %critedge"

_REFUSED = {
    # the block stores: leaving there does more than leaving to the exit
    "stores": {"critedge": "  store double 0.0, ptr %a\n  br label %after"},
    # its value is used outside it (in an unreachable block: SSA allows no other use
    # outside it but in a phi of the block it goes to, which "target with phis" refuses)
    "value used outside": {"tail": "unused:\n  %late = mul i64 %last, 2\n  ret void"},
    # it goes elsewhere than where the exit block goes
    "goes elsewhere": {
        "critedge": "  %last = add i64 %i, 1\n  br label %other",
        "tail": "other:\n  ret void",
    },
    # where both go has phis: which way the loop left matters there
    "target with phis": {"after": "  %way = phi i32 [ 0, %critedge ], [ 1, %exit ]"},
    # the exit block itself computes something
    "exit not empty": {"exit": "  %twice = shl i64 %n, 1\n  br label %after"},
    # the block is reached from outside the loop too (the loop skipped from its entry)
    "entered from outside": {"critedge": _TO_AFTER, "entry": _ALSO_FROM_ENTRY},
}


@pytest.mark.parametrize("case", sorted(_REFUSED))
def test_a_block_that_does_more_than_leave_is_refused(case: str) -> None:
    function = _function(**_REFUSED[case])
    with pytest.raises(NotReplaced, match="one latch and one exit"):
        _region_of(function)
