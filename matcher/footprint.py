"""Which bytes a load or a store touches over every iteration of the loops around it.

An access's address is taken apart as `base + index * element + offset`: the
getelementptrs of constant indices at its head add up to `offset` (bytes), below them one
getelementptr of one variable index steps through elements of `element` bytes from
`base`. Two accesses with the same base and index value (the same Value: LLVM gives a
point's address one index, and a constant displacement a getelementptr of its own)
then differ, between any two iterations, by the change of the index times the element
size plus the difference of their offsets. What the change of the index can be is
bounded from below by what the index is:

- a loop counter (maybe behind an integer cast) that starts at a constant, moves by a
  constant step and is tested against a constant by its latch: the values lie in a
  known range and differ by multiples of the step (`counter_range`);
- a product by a constant (`x * 20`, `x << 2`, without wrapping): multiples of it;
- anything computed before every loop around the access: no change;
- anything else: any integer.

Every question answered here is a proof or a "don't know": `never_overlap(a, b)` is
true only when no byte of `a` in any iteration is a byte of `b` in any iteration (the
same one included), `same_address(a, b)` only when the two compute one address in every
iteration. Both are false for accesses whose addresses cannot be taken apart, or whose
bases differ (different arrays may still alias: a mapper checks at run time).

`point_stride(index)` is the looser notion the Stencil idiom uses to tell the fields of a
record from a neighbour (`layout.outside_element`): a flat array walked by a counter in
steps of 20 floats, or indexed by `x * 20`, keeps a record of 20 floats per point.
"""

from __future__ import annotations

from dataclasses import dataclass

from matcher.ir import Function, Value, ValueKind

__all__ = [
    "Footprint",
    "Footprints",
    "counter_range",
    "counter_step",
    "point_stride",
]

_CASTS = frozenset({"sext", "zext"})
_SIZES = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "half": 2, "float": 4, "double": 8, "ptr": 8}
_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
# The continue-condition of a latch once its operands are (counter, constant) and its
# branch goes round again when the condition holds.
_SWAPPED = {
    "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
    "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule", "eq": "eq", "ne": "ne",
}  # fmt: skip
_NEGATED = {
    "slt": "sge", "sle": "sgt", "sgt": "sle", "sge": "slt",
    "ult": "uge", "ule": "ugt", "ugt": "ule", "uge": "ult", "eq": "ne", "ne": "eq",
}  # fmt: skip


def _int(value: Value) -> int | None:
    """An integer constant, read as signed at its own width (the model may give an i32
    -1 as 4294967295)."""
    if value.kind is not ValueKind.CONSTANT or not isinstance(value.constant, int):
        return None
    bits = _BITS.get(value.type)
    number = value.constant
    if bits is not None and number >= 1 << (bits - 1):
        number -= 1 << bits
    return number


def _strip_casts(value: Value) -> Value:
    while value.opcode in _CASTS and value.operands:
        value = value.operands[0]
    return value


def counter_step(phi: Value) -> int | None:
    """The constant step of a loop counter: `phi` has two incoming values, one of them
    `phi + step` (a non-zero integer constant)."""
    if phi.opcode != "phi" or len(phi.incoming) != 2:
        return None
    for value, _ in phi.incoming:
        if value.opcode == "add" and len(value.operands) == 2:
            a, b = value.operands
            step = _int(b) if a is phi else _int(a) if b is phi else None
            if step:
                return step
    return None


def point_stride(index: Value) -> int:
    """How many elements apart the points of two iterations are at least, as far as the
    index's own form says: the step of a counter, the factor of a product by a constant,
    else 1. (For telling a record's fields from neighbours; not a proof of anything.)"""
    value = _strip_casts(index)
    if value.opcode == "phi":
        step = counter_step(value)
        return abs(step) if step else 1
    return _factor(value) or 1


def _factor(value: Value) -> int | None:
    """The constant a product (`x * c`, `x << c`) multiplies by, if it cannot wrap."""
    if value.opcode not in ("mul", "shl") or len(value.operands) != 2:
        return None
    if " nsw " not in value.text and " nuw " not in value.text:
        return None
    a, b = value.operands
    if value.opcode == "shl":
        shift = _int(b)
        return 1 << shift if shift is not None and 0 <= shift < 62 else None
    factor = _int(b) if _int(b) is not None else _int(a)
    return abs(factor) if factor else None


def counter_range(function: Function, phi: Value) -> tuple[int, int, int] | None:
    """(lowest, highest, step) of every value a loop counter takes, proved from constants:
    the counter starts at a constant from outside its loop, its one latch adds a constant
    step and goes round again on a comparison of the counter (or of its next value, maybe
    behind an integer cast) with a constant. Every value, and every next value the latch
    compares, stays within 0 .. 2^(bits-1) - 1, so that signed and unsigned readings and
    both integer casts agree. None when any of that is not so."""
    bits = _BITS.get(phi.type)
    block = phi.block
    if phi.opcode != "phi" or len(phi.incoming) != 2 or bits is None or block is None:
        return None
    loop = function.loops.innermost(block)
    if loop is None or loop.header is not block or len(loop.latches) != 1:
        return None
    latch = loop.latches[0]
    start: int | None = None
    following: Value | None = None
    for value, source in phi.incoming:
        if source is latch:
            following = value
        elif source not in loop.blocks:
            start = _int(value)
    if start is None or following is None or following.opcode != "add":
        return None
    if len(following.operands) != 2 or phi not in following.operands:
        return None
    a, b = following.operands
    step = _int(b) if a is phi else _int(a)
    branch = latch.terminator
    if not step or branch.opcode != "br" or len(branch.operands) != 1:
        return None
    test = branch.operands[0]
    if test.opcode != "icmp" or test.predicate not in _SWAPPED or len(test.operands) != 2:
        return None
    x, c = test.operands
    predicate = test.predicate
    if _int(c) is None:
        x, c = c, x
        predicate = _SWAPPED[predicate]
    bound = _int(c)
    x = _strip_casts(x)
    if bound is None or x not in (phi, following) or len(latch.successors) != 2:
        return None
    if latch.successors[1] is block and latch.successors[0] is not block:
        predicate = _NEGATED[predicate]
    elif not (latch.successors[0] is block and latch.successors[1] is not block):
        return None
    tested_next = x is following
    limit = (1 << (bits - 1)) - 1
    if not (0 <= start <= limit and 0 <= bound <= limit):
        return None
    if step > 0:
        last = _last_up(start, step, bound, predicate, tested_next)
        if last is None or last + step > limit:
            return None
        return start, last, step
    first = _last_down(start, step, bound, predicate, tested_next)
    # The next value computed on the last trip is compared (tested_next) or dropped; it
    # must not wrap below zero when an unsigned comparison reads it.
    if first is None or first < 0 or (tested_next and first + step < 0):
        return None
    return first, start, step


def _last_up(start: int, step: int, bound: int, predicate: str, tested_next: bool) -> int | None:
    """The highest value of a counter going up from `start`: it goes round again while
    the tested value (the counter, or counter + step) is below `bound`."""
    if predicate == "ne":
        first = start + step if tested_next else start
        if bound < first or (bound - first) % step:
            return None
        return bound - step if tested_next else bound
    if predicate in ("slt", "ult"):
        top = bound - 1
    elif predicate in ("sle", "ule"):
        top = bound
    else:
        return None
    # The values are start + k * step; the highest one taken is at most `top` (the next
    # value tested) or `top + step` (the counter tested, then moved once more).
    highest = top if tested_next else top + step
    if highest < start:
        return start
    return start + (highest - start) // step * step


def _last_down(start: int, step: int, bound: int, predicate: str, tested_next: bool) -> int | None:
    """The lowest value of a counter going down from `start`, the mirror of `_last_up`."""
    if predicate == "ne":
        first = start + step if tested_next else start
        if bound > first or (first - bound) % -step:
            return None
        return bound - step if tested_next else bound
    if predicate in ("sgt", "ugt"):
        bottom = bound + 1
    elif predicate in ("sge", "uge"):
        bottom = bound
    else:
        return None
    lowest = bottom if tested_next else bottom + step
    if lowest > start:
        return start
    return start - (start - lowest) // -step * -step


def _normalise(index: Value) -> tuple[Value, tuple[str, ...], int] | None:
    """`index` as casts of a root plus a constant: (root, the casts from the outside in,
    the constant). An add of a constant is taken out only where it cannot wrap under the
    cast around it (`nuw` under a zext, `nsw` under a sext, either at the top), so that
    cast(root + c) is cast(root) + c."""
    casts: list[str] = []
    constant = 0
    value = index
    while True:
        if value.opcode in _CASTS and value.operands:
            casts.append(value.opcode)
            value = value.operands[0]
            continue
        if value.opcode == "add" and len(value.operands) == 2:
            a, b = value.operands
            term, rest = (_int(b), a) if _int(b) is not None else (_int(a), b)
            if term is not None:
                outer = casts[-1] if casts else None
                flags = value.text
                if outer == "zext" and (" nuw " not in flags or term < 0):
                    break
                if outer == "sext" and " nsw " not in flags:
                    break
                if outer is None and " nsw " not in flags and " nuw " not in flags:
                    break
                constant += term
                value = rest
                continue
        break
    return value, tuple(casts), constant


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
        self._changes: dict[tuple[Footprint, Value], tuple[int, int | None]] = {}
        self._groups: dict[tuple[int, int, tuple[str, ...], int], list[Value]] | None = None

    def of(self, access: Value) -> Footprint | None:
        if access not in self._footprints:
            self._footprints[access] = self._take_apart(access)
        return self._footprints[access]

    def _take_apart(self, access: Value) -> Footprint | None:
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
        offset = 0
        while address.opcode == "getelementptr" and address.byte_offset is not None:
            offset += address.byte_offset
            address = address.operands[0]
        if address.opcode != "getelementptr":
            return Footprint(address, None, (), 0, offset, size)
        if len(address.operands) != 2 or address.pointee_size is None:
            return None
        base, index = address.operands
        normal = _normalise(index)
        if normal is None:
            return None
        root, casts, constant = normal
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

    def never_overlap(self, a: Value, b: Value) -> bool:
        """No byte `a` touches in any iteration is touched by `b` in any iteration."""
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

    def _outermost_loop_blocks(self, access: Value) -> frozenset[object]:
        assert access.block is not None
        loop = self._function.loops.innermost(access.block)
        if loop is None:
            return frozenset()
        while loop.parent is not None:
            loop = loop.parent
        return loop.blocks

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

    def _compute_change(self, footprint: Footprint, access: Value) -> tuple[int, int | None]:
        root = footprint.root
        if root is None or self._invariant(root, access):
            return 0, 0
        if root.opcode == "phi":
            found = counter_range(self._function, root)
            if found is not None:
                low, high, step = found
                return abs(step), high - low
            # From a constant start upwards, without wrapping: start + k * step, all
            # non-negative, so that any cast keeps them apart by multiples of the step.
            moved = counter_step(root)
            start = _start(self._function, root)
            following = [v for v, _ in root.incoming if v.opcode == "add" and root in v.operands]
            if (
                moved is not None
                and moved > 0
                and start is not None
                and start >= 0
                and following
                and (" nsw " in following[0].text or " nuw " in following[0].text)
            ):
                return moved, None
            return 1, None
        # A product widened by a zext is the product only if it cannot be negative.
        if "zext" in footprint.casts and " nuw " not in root.text:
            return 1, None
        return _factor(root) or 1, None


def _start(function: Function, phi: Value) -> int | None:
    """The constant a loop counter starts from (its value from outside its loop)."""
    block = phi.block
    loop = function.loops.innermost(block) if block is not None else None
    if loop is None or loop.header is not block:
        return None
    outside = [v for v, source in phi.incoming if source not in loop.blocks]
    return _int(outside[0]) if len(outside) == 1 else None
