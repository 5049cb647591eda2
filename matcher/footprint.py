"""Which bytes a load or a store touches over every iteration of the loops around it.

An access's address is taken apart as `base + index * element + offset`: the
getelementptrs of constant indices at its head add up to `offset` (bytes); below them one
getelementptr of one variable index steps through elements of `element` bytes from
`base`, and adds of constants are taken out of that index too where they cannot wrap
(`i + 60` behind a zext, before LLVM split it into a getelementptr of its own). What is
left of the index is its root. Two accesses with the same base, root and element size
then differ, between any two iterations, by the change of the root times the element
size plus the difference of their offsets. The change of the root is known from what it
is (`matcher.integers`):

- a loop counter that starts at a constant, moves by a constant step and is tested
  against a constant by its latch: its values lie in a known range, a whole number of
  steps apart (`counter_range`);
- otherwise, where its arithmetic cannot wrap (`nsw`): a whole number of its stride
  (`exact_change`: a counter's step, a product's factor, the greatest common divisor of
  the strides an add combines; `x * 20 + y * 400` moves by multiples of 20);
- anything computed before every loop around the access: no change.

An add of a constant that only the root's range shows not to wrap (LLVM dropped its
`nsw` when it reassociated `(z * 60 + x) + 60`) is taken out only with that range: every
partial sum above the root must stay a non-negative signed value.

Every question answered here is a proof or a "don't know": `never_overlap(a, b)` is
true only when no byte of `a` in any iteration is a byte of `b` in any iteration (the
same one included), `same_address(a, b)` only when the two compute one address in every
iteration, and `step_behind(a, b)` only when `a` touches in each trip of a counter's loop
what `b` touched in the trip before. All are false for accesses whose addresses cannot
be taken apart, or whose bases differ (different arrays may still alias: a mapper checks
at run time).

`point_stride(index)` is what the Stencil idiom uses to tell the fields of a record from
a neighbour (`layout.outside_element`): a flat array walked by a counter in steps of 20
floats, or indexed by `x * 20`, keeps a record of 20 floats per point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from matcher.integers import (
    BITS_LIMIT,
    CASTS,
    Change,
    IntegerFacts,
    counter_step,
    exact_change,
    int_constant,
    integer_facts,
    multiple_of,
)
from matcher.ir import Function, Value, ValueKind

__all__ = ["Footprint", "Footprints", "point_stride"]

_SIZES = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "half": 2, "float": 4, "double": 8, "ptr": 8}


def point_stride(index: Value) -> int:
    """How many elements apart the points of two iterations are, at least: the stride of
    the index's `exact_change`, 1 where it is 0 (an index that does not move)."""
    return exact_change(index, lambda value: value.kind is not ValueKind.INSTRUCTION)[0] or 1


@dataclass(frozen=True)
class _Step:
    """One operation between an index and its root, from the outside in: an integer cast
    (`cast` "zext" for a plain zext, "sext" for the others, under which the value is the
    signed one), or an add of the constant `term` (`cast` None) to `value`'s operand,
    `exact` when its flags say that cast(x + term) is cast(x) + term."""

    value: Value
    cast: str | None
    term: int = 0
    exact: bool = True


def _normalise(index: Value) -> tuple[Value, list[_Step]]:
    """`index` as casts and adds of constants above a root: (root, the steps from the
    outside in). An add is exact when it cannot wrap under the cast around it (`nsw`
    under a sext, a zext nneg or none; `nuw` and a non-negative constant under a plain
    zext); others are taken out too (LLVM drops the flags of `(z * 60 + x) + 60` when it
    reassociates), for `_footprint` to keep only where the root's range shows that they
    do not wrap."""
    steps: list[_Step] = []
    value = index
    while True:
        if value.opcode in CASTS and value.operands:
            plain = value.opcode == "zext" and " nneg " not in value.text
            steps.append(_Step(value, "zext" if plain else "sext"))
            value = value.operands[0]
            continue
        if value.opcode == "add" and len(value.operands) == 2:
            a, b = value.operands
            term, rest = int_constant(b), a
            if term is None:
                term, rest = int_constant(a), b
            if term is not None:
                casts = [step.cast for step in steps if step.cast is not None]
                flag = " nuw " if casts and casts[-1] == "zext" else " nsw "
                exact = flag in value.text and not (flag == " nuw " and term < 0)
                steps.append(_Step(value, None, term, exact))
                value = rest
                continue
        break
    return value, steps


def _without_wrap(root: Value, bounds: IntegerFacts, steps: list[_Step]) -> bool:
    """Every value the adds of `steps` compute above `root` (the root plus the constants
    from that add inwards) is a non-negative signed value of the root's type, for every
    value of the root: no add or cast on the way can wrap."""
    limit = BITS_LIMIT.get(root.type)
    if limit is None or bounds.low is None or bounds.high is None or bounds.low < 0:
        return False
    partial = 0
    for step in reversed(steps):
        partial += step.term
        if bounds.low + partial < 0 or bounds.high + partial > limit:
            return False
    return bounds.high <= limit


def _accessed(access: Value) -> tuple[int, Value] | None:
    """The bytes a plain (not volatile, not atomic) load or store of a number or pointer
    touches, and its address; None for anything else."""
    if access.kind is not ValueKind.INSTRUCTION:
        return None
    if access.opcode == "load" and access.operands:
        size, address = _SIZES.get(access.type), access.operands[0]
    elif access.opcode == "store" and len(access.operands) == 2:
        size, address = _SIZES.get(access.operands[0].type), access.operands[1]
    else:
        return None
    if size is None or " volatile " in access.text or " atomic " in access.text:
        return None
    return size, address


# An access as (origin, its variable indices with the size of what each steps over,
# constant offset, size).
_RecordPosition = tuple[Value, list[tuple[Value, int]], int, int]


def _record_position(access: Value) -> _RecordPosition | None:
    """A load's or store's address as (origin, each variable index with the bytes of
    the element it steps over, the sum of its constant byte offsets, the bytes
    touched), down a chain of getelementptrs of one index each; None for anything
    else."""
    accessed = _accessed(access)
    if accessed is None:
        return None
    size, address = accessed
    terms: list[tuple[Value, int]] = []
    offset = 0
    while address.opcode == "getelementptr":
        if address.byte_offset is not None:
            offset += address.byte_offset
        elif len(address.operands) == 2 and address.pointee_size:
            constant = int_constant(address.operands[1])
            if constant is None:
                terms.append((address.operands[1], address.pointee_size))
            else:
                offset += constant * address.pointee_size
        else:
            return None
        address = address.operands[0]
    return address, terms, offset, size


@dataclass(frozen=True)
class Footprint:
    """An access at `base + cast(root) * element + offset` bytes, `size` bytes wide
    (`casts` the integer casts around `root`); `root` None: at `base + offset` in every
    iteration."""

    base: Value
    root: Value | None
    casts: tuple[str, ...]
    element: int
    offset: int
    size: int

    @property
    def key(self) -> tuple[int, int, tuple[str, ...], int]:
        """Equal for accesses whose addresses differ by their offsets alone."""
        return (id(self.base), id(self.root), self.casts, self.element)


class Footprints:
    """The footprints of one function's loads and stores, and what they prove."""

    def __init__(self, function: Function) -> None:
        self._function = function
        self._footprints: dict[Value, Footprint | None] = {}
        self._positions: dict[Value, _RecordPosition | None] = {}
        self._changes: dict[tuple[Footprint, Value], tuple[int, int | None]] = {}
        self._groups: dict[tuple[int, int, tuple[str, ...], int], list[Value]] | None = None
        # never_overlap's answers: a stencil's search asks the same pairs thousands of times
        self._apart: dict[tuple[Value, Value], bool] = {}

    def of(self, access: Value) -> Footprint | None:
        if access not in self._footprints:
            self._footprints[access] = self._take_apart(access)
        return self._footprints[access]

    def _take_apart(self, access: Value) -> Footprint | None:
        accessed = _accessed(access)
        if accessed is None:
            return None
        size, address = accessed
        offset = 0
        while address.opcode == "getelementptr" and address.byte_offset is not None:
            offset += address.byte_offset
            address = address.operands[0]
        if address.opcode != "getelementptr":
            return Footprint(address, None, (), 0, offset, size)
        if len(address.operands) != 2 or address.pointee_size is None:
            return None
        base, index = address.operands
        root, steps = _normalise(index)
        casts: tuple[str, ...] = ()
        if not _without_wrap(root, integer_facts(root, lambda _: False, self._function), steps):
            # Keep the casts, and stop at the first add that may wrap: its value is the root.
            inexact = [k for k, step in enumerate(steps) if not step.exact]
            if inexact:
                root, steps = steps[inexact[0]].value, steps[: inexact[0]]
            casts = tuple(step.cast for step in steps if step.cast is not None)
        constant = sum(step.term for step in steps)
        element = address.pointee_size
        return Footprint(base, root, casts, element, offset + constant * element, size)

    def accesses(self, access: Value) -> list[Value]:
        """The loads and stores whose addresses differ from `access`'s by a constant."""
        if self._groups is None:
            self._groups = {}
            for value in self._function.instructions:
                found = self.of(value)
                if found is not None:
                    self._groups.setdefault(found.key, []).append(value)
        found = self.of(access)
        return [] if found is None else self._groups.get(found.key, [])

    def same_address(self, a: Value, b: Value) -> bool:
        """`a` and `b` compute one address in every iteration and touch as many bytes."""
        fa, fb = self.of(a), self.of(b)
        return (
            fa is not None
            and fb is not None
            and fa.key == fb.key
            and fa.offset == fb.offset
            and fa.size == fb.size
        )

    def step_behind(self, a: Value, b: Value) -> bool:
        """`a` touches, in each trip of the loop whose counter indexes both, the bytes `b`
        touched in the trip before: one array, a root that is a counter moving by a
        constant c, and `a`'s offset c elements below `b`'s (a[i] read, a[i + 1] stored)."""
        fa, fb = self.of(a), self.of(b)
        if fa is None or fb is None or fa.key != fb.key or fa.size != fb.size:
            return False
        if fa.root is None or not (self._invariant(fa.base, a) and self._invariant(fa.base, b)):
            return False
        step = counter_step(fa.root)
        return step is not None and fb.offset - fa.offset == step * fa.element

    def never_overlap(self, a: Value, b: Value) -> bool:
        """No byte `a` touches in any iteration is touched by `b` in any iteration."""
        pair = (a, b)
        found = self._apart.get(pair)
        if found is None:
            found = self._apart[pair] = self._apart_by_offsets(a, b) or self._other_fields(a, b)
        return found

    def _apart_by_offsets(self, a: Value, b: Value) -> bool:
        """The proof from the footprints: one base and root, offsets that the root's
        change never bridges."""
        fa, fb = self.of(a), self.of(b)
        if fa is None or fb is None or fa.key != fb.key:
            return False
        if not (self._invariant(fa.base, a) and self._invariant(fa.base, b)):
            return False
        step, reach = self._change(fa, a)
        if (step, reach) != self._change(fb, b):
            return False
        # a's bytes [ca + d, ca + d + sa) meet b's [cb, cb + sb) iff the change d of the
        # address lies strictly between cb - ca - sa and cb - ca + sb.
        low = fb.offset - fa.offset - fa.size
        high = fb.offset - fa.offset + fb.size
        stride = step * fa.element
        if stride == 0:
            return not low < 0 < high
        first = low // stride + 1  # the least multiple k * stride above `low`
        last = -(-high // stride) - 1  # the greatest below `high`
        if first > last:
            return True
        if reach is None:
            return False
        most = reach // step  # |k| at most this
        return last < -most or first > most

    def _other_fields(self, a: Value, b: Value) -> bool:
        """`a` and `b` touch different fields of records of one array, whichever records
        (a record: what every index steps by a multiple of; u[2*i] and u[2*i + 1] are the
        two fields of pairs):
        both addresses are one origin, fixed while the loops around them run, plus
        variable terms, plus constants; every term of one address that the other does
        not have is a multiple of a record's size E, and every term both have (one
        index over elements of one size: u[(2*j + 1) * n + 2*i] and the element after
        it, whatever n) changes by multiples of E between any two iterations; the
        constants taken modulo E are fields whose bytes neither meet nor cross a
        record's end. (rhs[k][j][i][0] and rhs[k][j][i'][1] of `double
        rhs[..][..][..][5]`: origin + 40 x + 0 and origin + 40 y + 8, with x and y any
        rows and points.)
        The origin may be a pointer loaded inside the loops from a fixed address (a
        global pointer to the grid, reloaded because a store of the loop might write it):
        that no store of the nest writes it is the mapper's run-time check, as for every
        value it loads once ahead of the region (mappers/plan/region.py)."""
        position_a, position_b = self._record_position(a), self._record_position(b)
        if position_a is None or position_b is None:
            return False
        (origin, terms_a, offset_a, size_a) = position_a
        (origin_b, terms_b, offset_b, size_b) = position_b
        if origin is not origin_b or not terms_a or not terms_b:
            return False
        if not (self._fixed(origin, a) and self._fixed(origin, b)):
            return False
        steps = self._term_steps(terms_a, terms_b, a, b)
        record = math.gcd(*steps)
        if record == 0:
            return False  # no term moves: the offsets alone decide (_apart_by_offsets)
        field_a, field_b = offset_a % record, offset_b % record
        if field_a + size_a > record or field_b + size_b > record:
            return False
        return field_a + size_a <= field_b or field_b + size_b <= field_a

    def _term_steps(
        self, terms_a: list[tuple[Value, int]], terms_b: list[tuple[Value, int]], a: Value, b: Value
    ) -> list[int]:
        """Bytes that the difference of the two addresses' variable terms, in any two
        iterations, is a sum of multiples of: a term of one of them is a multiple of
        what its value is (`multiple_of`); a term of both addresses moves by a multiple
        of its change (`exact_change`, fixed what is fixed around both) that is a
        difference of two such multiples too (0 where it does not move)."""
        unmatched = list(terms_b)
        steps: list[int] = []
        for term in terms_a:
            index, element = term
            if term in unmatched:
                unmatched.remove(term)
                change = exact_change(
                    index,
                    lambda value: self._invariant(value, a) and self._invariant(value, b),
                    self._function,
                )[0]
                steps.append(element * math.lcm(change, multiple_of(index)))
            else:
                steps.append(element * multiple_of(index))
        steps.extend(element * multiple_of(index) for index, element in unmatched)
        return steps

    def _outermost_loop_blocks(self, access: Value) -> frozenset[object]:
        assert access.block is not None
        loop = self._function.loops.innermost(access.block)
        if loop is None:
            return frozenset()
        while loop.parent is not None:
            loop = loop.parent
        return loop.blocks

    def _record_position(self, access: Value) -> _RecordPosition | None:
        if access not in self._positions:
            self._positions[access] = _record_position(access)
        return self._positions[access]

    def _fixed(self, origin: Value, access: Value) -> bool:
        """`origin` is invariant in the loops around `access`, or a plain load there from
        an invariant address."""
        if self._invariant(origin, access):
            return True
        return (
            origin.opcode == "load"
            and bool(origin.operands)
            and " volatile " not in origin.text
            and " atomic " not in origin.text
            and self._invariant(origin.operands[0], access)
        )

    def _invariant(self, value: Value, access: Value) -> bool:
        """`value` does not change while the loops around `access` run."""
        if value.kind is not ValueKind.INSTRUCTION:
            return True
        return value.block not in self._outermost_loop_blocks(access)

    def _change(self, footprint: Footprint, access: Value) -> tuple[int, int | None]:
        """(step, reach): between two iterations of the loops around `access`, the root
        of its index changes by a multiple of `step` (0: not at all) of magnitude at most
        `reach` (None: unbounded)."""
        key = (footprint, access)
        if key not in self._changes:
            self._changes[key] = self._compute_change(footprint, access)
        return self._changes[key]

    def _compute_change(self, footprint: Footprint, access: Value) -> Change:
        root = footprint.root
        if root is None or self._invariant(root, access):
            return 0, 0
        if "zext" in footprint.casts:
            return 1, None  # read unsigned: its signed arithmetic says nothing
        facts = integer_facts(root, lambda value: self._invariant(value, access), self._function)
        return facts.stride, facts.reach
