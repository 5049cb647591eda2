"""What the integers of a loop nest can be (matcher.integers): strides and ranges
followed through arithmetic only where it cannot wrap."""

from __future__ import annotations

from solver_testkit import ir_function, named

from matcher.integers import IntegerFacts, exact_change, integer_facts, multiple_of
from matcher.ir import Value, ValueKind

# %y runs over 0..9 and %x over 0, 5, .., 45 (constant bounds); %z from 0 to an unknown
# %n, %w from an unknown %s in steps of 3 (no range, but every step is exact).
NEST = """
define void @nest(i32 %n, i32 %s) {
entry:
  br label %outer

outer:
  %y = phi i32 [ 0, %entry ], [ %y.next, %outer.latch ]
  br label %inner

inner:
  %x = phi i32 [ 0, %outer ], [ %x.next, %inner ]
  %row = mul nsw i32 %y, 400
  %row.wrapping = mul i32 %y, 400
  %col = shl nsw i32 %x, 2
  %point = add nsw i32 %row, %col
  %field = or disjoint i32 %row, 3
  %field.maybe = or i32 %row, 3
  %wide = zext i32 %point to i64
  %x.next = add nuw nsw i32 %x, 5
  %x.more = icmp ult i32 %x.next, 50
  br i1 %x.more, label %inner, label %outer.latch

outer.latch:
  %y.next = add nuw nsw i32 %y, 1
  %y.more = icmp ult i32 %y.next, 10
  br i1 %y.more, label %outer, label %open

open:
  %z = phi i32 [ 0, %outer.latch ], [ %z.next, %open ]
  %w = phi i32 [ %s, %outer.latch ], [ %w.next, %open ]
  %scaled = mul nsw i32 %z, 20
  %scaled.wrapping = mul i32 %z, 20
  %z.wide = zext i32 %z to i64
  %z.nneg = zext nneg i32 %z to i64
  %even = shl nsw i32 %z, 1
  %odd = or disjoint i32 %even, 1
  %odd.row = mul nsw i32 %odd, %n
  %odd.row.wrapping = mul i32 %odd, %n
  %even.row = mul nsw i32 %n, %even
  %z.next = add nsw i32 %z, 1
  %w.next = add nsw i32 %w, 3
  %z.more = icmp slt i32 %z.next, %n
  br i1 %z.more, label %open, label %done

done:
  ret void
}
"""


def _fixed(value: Value) -> bool:
    return value.kind is not ValueKind.INSTRUCTION


def _facts(name: str) -> IntegerFacts:
    function = ir_function(NEST)
    return integer_facts(named(function, name), _fixed, function)


def test_ranges_and_strides_through_exact_arithmetic() -> None:
    assert _facts("%y") == IntegerFacts(1, 9, 0, 9)
    assert _facts("%x") == IntegerFacts(5, 45, 0, 45)
    assert _facts("%row") == IntegerFacts(400, 3600, 0, 3600)
    assert _facts("%col") == IntegerFacts(20, 180, 0, 180)
    assert _facts("%point") == IntegerFacts(20, 3780, 0, 3780)
    assert _facts("%field") == IntegerFacts(400, 3600, 3, 3603)
    # Non-negative and below the largest i32: a plain zext keeps the value.
    assert _facts("%wide") == _facts("%point")


def test_flags_or_ranges_show_that_nothing_wraps() -> None:
    # No nsw, but the ranges of the operands show that the product fits.
    assert _facts("%row.wrapping") == _facts("%row")
    # An or that may share bits with the other operand is no add.
    assert _facts("%field.maybe") == IntegerFacts(1)
    # Without a range, only the flags say that the product is exact.
    assert _facts("%scaled") == IntegerFacts(20)
    assert _facts("%scaled.wrapping") == IntegerFacts(1)
    # A zext reads a value of unknown sign as unsigned; zext nneg says it is not negative.
    assert _facts("%z.wide") == IntegerFacts(1)
    assert _facts("%z.nneg") == _facts("%z") == IntegerFacts(1)


def test_a_product_by_a_fixed_unknown_moves_by_the_other_factors_stride() -> None:
    # (2z + 1) * n - (2z' + 1) * n is 2 (z - z') n: even, whatever n is.
    assert _facts("%odd.row") == IntegerFacts(2)
    assert _facts("%even.row") == IntegerFacts(2)
    # Without nsw the product may wrap, and its changes be anything.
    assert _facts("%odd.row.wrapping") == IntegerFacts(1)


def test_a_counter_from_an_unknown_start_moves_by_its_step() -> None:
    function = ir_function(NEST)
    assert exact_change(named(function, "%w"), _fixed, function) == (3, None)
    # Without the function, no counter's range is known: strides only.
    assert exact_change(named(function, "%x"), _fixed) == (5, None)
    assert exact_change(named(function, "%point"), _fixed) == (20, None)


def test_what_a_value_is_always_a_multiple_of() -> None:
    function = ir_function(NEST)

    def multiple(name: str) -> int:
        return multiple_of(named(function, name))

    assert multiple("%row") == 400  # y * 400, nsw
    assert multiple("%col") == 4  # x << 2
    assert multiple("%point") == 4  # the gcd of the two terms
    assert multiple("%scaled") == 20
    # Wrapping arithmetic keeps only the power of two of the factor.
    assert multiple("%row.wrapping") == 16
    assert multiple("%scaled.wrapping") == 4
    # A plain zext of a value that may be negative: the power of two again.
    assert multiple("%wide") == 4
    assert multiple("%x") == 1  # a phi: nothing known
    assert multiple("%field") == 1  # or: not followed
