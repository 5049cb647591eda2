"""The atomic constraints of IDL (IDL.md section 5): a check and candidate generation.

For every `AtomKind` this module answers two questions about one function:

- `holds(function, atom, values)`: is the atom true for these values of its variables?
- `candidates(function, atom, bound, var)`: which values of the unbound variable `var`
  can make it true, given the variables of the atom that `bound` fixes? The answer is
  the exact projection: `v` is a candidate iff some values of the atom's other unbound
  variables make the atom hold with `var = v`. With every other variable bound this is
  exactly "the values that pass the check", which the tests verify for every kind.

The domain of a variable is `function.values` plus `None`, meaning `unused`. Every atom
is false when one of its variables is unused, except `unused` (true iff unused), `same`
(true when both are unused) and `not_same` (false when both are, true when one is).

Decisions where IDL.md leaves room:
- `is a constant` means `ValueKind.CONSTANT` (globals are not constants; they are
  preexecution). `integer zero`/`floating point zero`: a scalar constant of integer or
  floating-point type whose value is 0 (`-0.0` included). `a positive constant`/`a
  negative constant`: an integer constant above or below zero, read as signed (a loop's
  step: which way its counter runs).
- Control-flow and dominance atoms relate instructions only; anything else makes them
  false. `is Nth successor of {b}`: `b` is a terminator and `a` the first instruction of
  its successor block number N (0-based `detail`); `OPERAND` `detail` is a 0-based index
  into `Value.operands`.
- `all control flow from {a} to {b} passes through {c}` (`cf_passes_through`): a, b and c
  are instructions and either c is a, or c is b, or b cannot be reached from a in the
  instruction-level CFG once c is removed. A path may be empty, so with a = b != c the
  atom is false. `df_passes_through` is the same on the graph whose edges run from an
  operand to its user, over every value (arguments, constants and globals included).
- `is outside the element of {b}` (`outside_element`): `a` is a getelementptr whose base
  is `b`, with constant indices only, and `b` is a getelementptr; `a`'s byte offset is
  negative or at least the size of the element `b` points to (`Value.byte_offset`,
  `Value.pointee_size`). So `a[i-1]` (8 bytes before a double) and `in[i-1][j]` (one row
  before a row) are outside their element, `u[i][4]` (32 bytes into a 40-byte record) is
  not. Unknown sizes make it false. A getelementptr `b` of one index that moves several
  elements at a time (a counter of step 20, `x * 20`) points to that many elements
  (`layout.point_size`): the 20 floats of a record in a flat array.
- `{a} never overlaps {b}` (`never_overlaps`) and `{a} has the same address as {b}`
  (`same_address`): `a` and `b` are loads or stores whose addresses `matcher.footprint`
  takes apart alike (one base, one index root once constant adds are taken out, constant
  byte offsets); the first holds when no byte `a` touches in any iteration of the loops
  around it is touched by `b` in any iteration (the same one included), proved from the
  offsets, the index's stride and, for counters bounded by constants, their ranges
  (`matcher.integers`); the second when both compute one address in every iteration and
  touch as many bytes. Both are symmetric; anything that cannot be taken apart or proved
  makes them false.
- `{a} is one step behind {b}` (`step_behind`): `a` and `b` are loads or stores of one
  array taken apart alike, indexed by a loop counter that moves by a constant step c,
  and `a`'s offset is c elements below `b`'s: in each trip, `a` touches the bytes `b`
  touched in the trip before (`a[i]` read beside `a[i + 1]` stored, `out[i - 1]` beside
  `out[i]`). Not symmetric.
- `{a} has data flow to {b} within N steps` (`df_within`, `detail` N): `b` is `a`, or is
  reached from `a` in at most N steps from an operand to its user (`has data flow to`
  N times over, or fewer): an address that a loop counter moves. Found by one bounded
  search per value and direction, cached on the index (`FunctionIndex.data_flow_within`),
  where spelling it out as a chain of `has data flow to` made the solver walk every path.
- `has attribute pure`: a `call` whose attributes include `nounwind` and one of
  `memory(none)`, `memory(read)`, `readnone`, `readonly`, or a `memory(...)` that writes
  errno only (`memory(errnomem: write)`: a function of the file that calls `expf`, as
  pure as `expf` itself), or whose callee is a known pure maths function (`sqrt`, `exp`,
  ... with their `f`/`l` variants) or intrinsic (`llvm.fabs.*`, `llvm.sqrt.*`,
  `llvm.fmuladd.*`, `llvm.smax.*`, ...). The maths functions may set errno; a replaced
  loop leaves errno as it was (docs/acceleration.md).
- `fills a private scratch array`: a `call` with `Value.fills`, set when the model is
  built (`matcher.scratch`): the callee, defined in the module, writes nothing but local
  arrays of the caller passed to it, every byte of them on every path, and reads nothing
  the loops around the call write; the caller reads those arrays only after the call, in
  the same iteration of the innermost loop around it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import ClassVar, Final

from idl.errors import IdiomError
from idl.program import Atom, AtomKind
from matcher.function_index import FunctionIndex, index_of, unique
from matcher.ir import Function, TypeKind, Value, ValueKind
from matcher.layout import outside_element

__all__ = [
    "UNBOUND",
    "AtomError",
    "Slot",
    "Unbound",
    "candidates",
    "check",
    "compile_check",
    "compile_generator",
    "generate",
    "holds",
    "is_pure_call",
    "opcode_name",
    "projection_size",
    "writes_errno_only",
]

Detail = str | int | None


class Unbound:
    """The marker of a variable that has no value yet (distinct from `None`, unused)."""

    _instance: ClassVar[Unbound | None] = None

    def __new__(cls) -> Unbound:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNBOUND"


UNBOUND: Final = Unbound()
Slot = Value | None | Unbound
Arg = Value | None


class AtomError(IdiomError):
    """An atom the matcher cannot evaluate (a malformed program, not an IR problem)."""


_SHORT_OPCODES = {"gep": "getelementptr", "branch": "br"}
_PURE_MEMORY = frozenset({"memory(none)", "memory(read)", "readnone", "readonly"})
_MATH_NAMES = (
    "sqrt", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "fabs", "pow", "fmin", "fmax", "floor", "ceil",
    "trunc", "round", "copysign", "fma", "hypot", "cbrt",
)  # fmt: skip
_PURE_MATH = frozenset(name + suffix for name in _MATH_NAMES for suffix in ("", "f", "l"))
# `llvm.<family>.<type>`: intrinsics without side effects.
_PURE_INTRINSICS = frozenset((
    "fabs", "sqrt", "fmuladd", "fma", "smax", "smin", "umax", "umin", "minnum", "maxnum",
    "minimum", "maximum", "abs", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "pow",
    "powi", "floor", "ceil", "trunc", "round", "copysign",
))  # fmt: skip
_DOMINANCE = {
    AtomKind.DOMINATES: (False, False),  # (post, strict)
    AtomKind.STRICTLY_DOMINATES: (False, True),
    AtomKind.POST_DOMINATES: (True, False),
    AtomKind.STRICTLY_POST_DOMINATES: (True, True),
}
_NONE_AWARE = frozenset({AtomKind.UNUSED, AtomKind.SAME, AtomKind.NOT_SAME})


def writes_errno_only(attribute: str) -> bool:
    """`memory(...)` that may read anything but writes nothing except errno:
    `memory(errnomem: write)`, `memory(read, errnomem: write)`."""
    if not (attribute.startswith("memory(") and attribute.endswith(")")):
        return False
    for entry in attribute[len("memory(") : -1].split(","):
        location, _, access = entry.strip().rpartition(": ")
        if "write" in access and location != "errnomem":
            return False
    return True


def opcode_name(detail: Detail) -> str:
    """The LLVM spelling of an opcode detail (`gep` and `branch` are IDL's short forms)."""
    if not isinstance(detail, str):
        raise AtomError(f"an opcode atom needs an opcode name, not {detail!r}")
    return _SHORT_OPCODES.get(detail, detail)


def _position(detail: Detail) -> int:
    if not isinstance(detail, int) or isinstance(detail, bool) or detail < 0:
        raise AtomError(f"a position atom needs a 0-based position, not {detail!r}")
    return detail


def is_pure_call(value: Value) -> bool:
    """A call without side effects: pure by its attributes or by its known callee."""
    if value.kind is not ValueKind.INSTRUCTION or value.opcode != "call":
        return False
    if "nounwind" in value.attributes and (
        not _PURE_MEMORY.isdisjoint(value.attributes)
        or any(writes_errno_only(word) for word in value.attributes)
    ):
        return True
    callee = value.callee or ""
    if callee.startswith("llvm."):
        return callee.split(".")[1] in _PURE_INTRINSICS
    return callee in _PURE_MATH


# -- unary atoms ---------------------------------------------------------------------


def _unary_test(kind: AtomKind, detail: Detail) -> Callable[[Value], bool]:
    match kind:
        case AtomKind.INSTRUCTION:
            return lambda v: v.kind is ValueKind.INSTRUCTION
        case AtomKind.ARGUMENT:
            return lambda v: v.kind is ValueKind.ARGUMENT
        case AtomKind.CONSTANT:
            return lambda v: v.kind is ValueKind.CONSTANT
        case AtomKind.PREEXECUTION:
            return lambda v: v.kind is not ValueKind.INSTRUCTION
        case AtomKind.INTEGER_ZERO:
            return lambda v: _is_zero(v, TypeKind.INTEGER)
        case AtomKind.FLOAT_ZERO:
            return lambda v: _is_zero(v, TypeKind.FLOAT)
        case AtomKind.POSITIVE:
            return lambda v: _signed_constant(v) > 0
        case AtomKind.NEGATIVE:
            return lambda v: _signed_constant(v) < 0
        case AtomKind.INTEGER_TYPE:
            return lambda v: v.type_kind is TypeKind.INTEGER
        case AtomKind.FLOAT_TYPE:
            return lambda v: v.type_kind is TypeKind.FLOAT
        case AtomKind.POINTER_TYPE:
            return lambda v: v.type_kind is TypeKind.POINTER
        case AtomKind.VECTOR_TYPE:
            return lambda v: v.type_kind is TypeKind.VECTOR
        case AtomKind.OPCODE:
            opcode = opcode_name(detail)
            return lambda v: v.kind is ValueKind.INSTRUCTION and v.opcode == opcode
        case AtomKind.PURE:
            return is_pure_call
        case AtomKind.FILLS_SCRATCH:
            return lambda v: bool(v.fills)
    raise AtomError(f"{kind} is not a one-variable atom")


def _is_zero(value: Value, type_kind: TypeKind) -> bool:
    return (
        value.kind is ValueKind.CONSTANT
        and value.type_kind is type_kind
        and value.constant is not None
        and value.constant == 0
    )


def _signed_constant(value: Value) -> int:
    """An integer constant's value as a signed number (i1 as 0 or 1); 0 for anything else,
    so that neither sign holds (a loop's step: which way its counter runs)."""
    if value.kind is not ValueKind.CONSTANT or value.type_kind is not TypeKind.INTEGER:
        return 0
    number, kind = value.constant, value.type
    if not isinstance(number, int) or not kind.startswith("i") or not kind[1:].isdigit():
        return 0
    width = int(kind[1:])
    if width == 1:
        return number & 1
    number &= (1 << width) - 1  # the bits, however the constant was read
    return number - (1 << width) if number >> (width - 1) else number


def _unary_set(ix: FunctionIndex, kind: AtomKind, detail: Detail) -> tuple[Value, ...]:
    return ix.unary((kind, detail), _unary_test(kind, detail))


# -- binary and ternary checks (no argument is None here) --------------------------------


def _is_instruction(*values: Value) -> bool:
    return all(v.kind is ValueKind.INSTRUCTION for v in values)


def _check_pair(ix: FunctionIndex, kind: AtomKind, detail: Detail, a: Value, b: Value) -> bool:
    match kind:
        case AtomKind.DATA_FLOW:
            return a in b.operands
        case AtomKind.DATA_FLOW_WITHIN:
            return b in ix.data_flow_within(a, _position(detail), forward=True)
        case AtomKind.OPERAND:
            k = _position(detail)
            return len(b.operands) > k and b.operands[k] is a
        case AtomKind.CONTROL_FLOW:
            return _is_instruction(a, b) and b in ix.function.successors(a)
        case AtomKind.SUCCESSOR:
            k = _position(detail)
            if not _is_instruction(a, b) or not b.is_terminator:
                return False
            assert b.block is not None
            successors = b.block.successors
            return len(successors) > k and successors[k].first is a
        case AtomKind.SPANS_BLOCK:
            return (
                _is_instruction(a, b) and a.position == 0 and a.block is b.block and b.is_terminator
            )
        case AtomKind.OUTSIDE_ELEMENT:
            return outside_element(a, b)
        case AtomKind.NEVER_OVERLAPS:
            return ix.footprints.never_overlap(a, b)
        case AtomKind.SAME_ADDRESS:
            return ix.footprints.same_address(a, b)
        case AtomKind.STEP_BEHIND:
            return ix.footprints.step_behind(a, b)
    post, strict = _DOMINANCE[kind]
    if not _is_instruction(a, b):
        return False
    if post:
        return ix.function.post_dominates(a, b, strict=strict)
    return ix.function.dominates(a, b, strict=strict)


def _check_triple(ix: FunctionIndex, kind: AtomKind, a: Value, b: Value, c: Value) -> bool:
    if kind is AtomKind.REACHES_PHI:
        return next(_phi_edges(ix, (a, b, c)), None) is not None
    data = kind is AtomKind.DATA_FLOW_PASSES_THROUGH
    if not data and not _is_instruction(a, b, c):
        return False
    return c is a or c is b or b not in ix.reach(a, c, data=data, forward=True)


def check(ix: FunctionIndex, kind: AtomKind, detail: Detail, args: Sequence[Arg]) -> bool:
    """The atom on fully known arguments (in the atom's variable order)."""
    match kind:
        case AtomKind.UNUSED:
            return args[0] is None
        case AtomKind.SAME:
            return args[0] is args[1]
        case AtomKind.NOT_SAME:
            return args[0] is not args[1]
    values = [a for a in args if a is not None]
    if len(values) != len(args):
        return False
    match len(values):
        case 1:
            return _unary_test(kind, detail)(values[0])
        case 2:
            return _check_pair(ix, kind, detail, values[0], values[1])
        case _:
            return _check_triple(ix, kind, values[0], values[1], values[2])


# -- candidate generation ----------------------------------------------------------------


def _phi_edges(ix: FunctionIndex, args: Sequence[Slot]) -> Iterator[tuple[Value, Value, Value]]:
    """Every (incoming value, phi, incoming terminator) consistent with the bound args."""
    a, p, t = args
    if isinstance(p, Value):
        phis: Iterable[Value] = (p,) if p.opcode == "phi" else ()
    elif isinstance(t, Value):
        phis = _phis_after(t)
    elif isinstance(a, Value):
        phis = (u for u in a.users if u.opcode == "phi")
    else:
        phis = ix.phis
    for phi in phis:
        for value, block in phi.incoming:
            edge = (value, phi, block.terminator)
            if all(x is UNBOUND or x is y for x, y in zip(args, edge, strict=True)):
                yield edge


def _phis_after(terminator: Value) -> Iterator[Value]:
    if terminator.kind is not ValueKind.INSTRUCTION or not terminator.is_terminator:
        return
    assert terminator.block is not None
    for block in unique(terminator.block.successors):
        for instruction in block.instructions:
            if instruction.opcode != "phi":
                break
            yield instruction


def _generate_pair(
    ix: FunctionIndex, kind: AtomKind, detail: Detail, position: int, other: Slot
) -> Iterable[Arg]:
    first = position == 0
    match kind:
        case AtomKind.SAME:
            return ix.domain if isinstance(other, Unbound) else (other,)
        case AtomKind.NOT_SAME:
            if other is UNBOUND:
                return ix.domain
            # Two unused values are the same: None is a candidate only beside a value.
            rest = tuple(v for v in ix.values if v is not other)
            return rest if other is None else (*rest, None)
    if other is None:
        return ()
    if other is UNBOUND:
        return _projection(ix, kind, detail, first)
    assert isinstance(other, Value)
    return _partners(ix, kind, detail, first, other)


def _projection(ix: FunctionIndex, kind: AtomKind, detail: Detail, first: bool) -> Iterable[Value]:
    """Values at one position of a binary atom that some value at the other completes."""
    match kind:
        case AtomKind.DATA_FLOW:
            return ix.with_users if first else ix.with_operands
        case AtomKind.DATA_FLOW_WITHIN:
            return ix.values  # within no step, every value reaches itself
        case AtomKind.OPERAND:
            k = _position(detail)
            return ix.operand_at(k) if first else ix.users_at(k)
        case AtomKind.CONTROL_FLOW:
            return ix.cf_sources if first else ix.cf_targets
        case AtomKind.SUCCESSOR:
            k = _position(detail)
            return ix.successor_at(k) if first else ix.branching_at(k)
        case AtomKind.SPANS_BLOCK:
            return ix.block_firsts if first else ix.terminators
        case AtomKind.OUTSIDE_ELEMENT:
            return ix.outside_elements if first else ix.left_elements
        case AtomKind.NEVER_OVERLAPS | AtomKind.SAME_ADDRESS:
            return ix.related_accesses(apart=kind is AtomKind.NEVER_OVERLAPS)
        case AtomKind.STEP_BEHIND:
            return ix.stepping_accesses(ahead=first)
    post, strict = _DOMINANCE[kind]
    if not strict:
        return ix.instructions
    return ix.strict_dominance_ends(post=post, upward=not first)


def _partners(
    ix: FunctionIndex, kind: AtomKind, detail: Detail, first: bool, other: Value
) -> Iterable[Value]:
    """Values at one position of a binary atom that hold with `other` at the other one."""
    function = ix.function
    instruction = other.kind is ValueKind.INSTRUCTION
    match kind:
        case AtomKind.DATA_FLOW:
            return unique(other.operands) if first else other.users
        case AtomKind.DATA_FLOW_WITHIN:
            return tuple(ix.data_flow_within(other, _position(detail), forward=not first))
        case AtomKind.OPERAND:
            k = _position(detail)
            if first:
                return other.operands[k : k + 1]
            return tuple(u for u in other.users if len(u.operands) > k and u.operands[k] is other)
        case AtomKind.CONTROL_FLOW:
            if not instruction:
                return ()
            return unique(function.predecessors(other) if first else function.successors(other))
        case AtomKind.SUCCESSOR:
            return _successor_partners(_position(detail), first, other)
        case AtomKind.SPANS_BLOCK:
            block = other.block
            if not instruction or block is None:
                return ()
            if first:
                return (block.first,) if other.is_terminator else ()
            return (block.terminator,) if other.position == 0 else ()
        case AtomKind.OUTSIDE_ELEMENT:
            if first:
                return tuple(u for u in other.users if outside_element(u, other))
            base = other.operands[:1]
            return base if base and outside_element(other, base[0]) else ()
        case AtomKind.NEVER_OVERLAPS | AtomKind.SAME_ADDRESS:
            return ix.access_partners(other, apart=kind is AtomKind.NEVER_OVERLAPS)
        case AtomKind.STEP_BEHIND:
            return ix.step_partners(other, ahead=not first)
    post, strict = _DOMINANCE[kind]
    return ix.dominance_partners(other, post=post, strict=strict, upward=first)


def _successor_partners(k: int, first: bool, other: Value) -> tuple[Value, ...]:
    block = other.block
    if other.kind is not ValueKind.INSTRUCTION or block is None:
        return ()
    if first:  # other is the terminator
        if not other.is_terminator or len(block.successors) <= k:
            return ()
        return (block.successors[k].first,)
    if other.position != 0:
        return ()
    return tuple(
        p.terminator
        for p in block.predecessors
        if len(p.successors) > k and p.successors[k] is block
    )


def _generate_passes(
    ix: FunctionIndex, kind: AtomKind, position: int, args: Sequence[Slot]
) -> Iterable[Value]:
    data = kind is AtomKind.DATA_FLOW_PASSES_THROUGH
    nodes = ix.nodes(data=data)
    others = [args[i] for i in range(3) if i != position]
    bound = [x for x in others if x is not UNBOUND]
    if not all(isinstance(x, Value) and (data or x.kind is ValueKind.INSTRUCTION) for x in bound):
        return ()
    if len(bound) < 2:
        return nodes  # the free one can always be taken equal to the candidate
    a, b, c = args
    if position == 2:
        assert isinstance(a, Value) and isinstance(b, Value)
        passes = ix.must_pass(a, b, data=data)
        return nodes if passes is None else tuple(v for v in nodes if v in passes)
    assert isinstance(c, Value)
    start = a if position == 1 else b
    assert isinstance(start, Value)
    if c is start:
        return nodes
    reached = ix.reach(start, c, data=data, forward=position == 1)
    return tuple(v for v in nodes if v not in reached or v is c)


def generate(
    ix: FunctionIndex, kind: AtomKind, detail: Detail, position: int, args: Sequence[Slot]
) -> Iterable[Arg]:
    """Values for `args[position]` (UNBOUND) that some values of the other UNBOUND args
    complete into a true atom. Each position is treated as its own variable."""
    match len(args):
        case 1:
            if kind is AtomKind.UNUSED:
                return (None,)
            return _unary_set(ix, kind, detail)
        case 2:
            return _generate_pair(ix, kind, detail, position, args[1 - position])
    if kind is AtomKind.REACHES_PHI:
        return unique(edge[position] for edge in _phi_edges(ix, args))
    return _generate_passes(ix, kind, position, args)


def projection_size(
    ix: FunctionIndex, kind: AtomKind, detail: Detail, position: int, arity: int
) -> float:
    """How many values one position of the atom can take at all (cached per function)."""
    key = (kind, detail, position, arity)
    size = ix.sizes.get(key)
    if size is None:
        args: list[Slot] = [UNBOUND] * arity
        size = len(tuple(generate(ix, kind, detail, position, args)))
        ix.sizes[key] = size
    return float(size)


# -- the public, name-based interface ---------------------------------------------------


def holds(function: Function, atom: Atom, values: Mapping[str, Value | None]) -> bool:
    """Whether `atom` is true when its variables take `values` (None: unused)."""
    try:
        args = tuple(values[name] for name in atom.variables)
    except KeyError as missing:
        raise AtomError(f"{atom}: no value for {{{missing.args[0]}}}") from None
    return check(index_of(function), atom.kind, atom.detail, args)


def candidates(
    function: Function, atom: Atom, bound: Mapping[str, Value | None], var: str
) -> tuple[Value | None, ...]:
    """Every value of `var` for which some values of the atom's variables missing from
    `bound` make `atom` true (with those in `bound` fixed)."""
    if var not in atom.variables:
        raise AtomError(f"{atom} has no variable {{{var}}}")
    ix = index_of(function)
    args = [UNBOUND if name == var else bound.get(name, UNBOUND) for name in atom.variables]
    raw = generate(ix, atom.kind, atom.detail, atom.variables.index(var), args)
    if atom.variables.count(var) == 1 and len(set(atom.variables)) == len(atom.variables):
        return tuple(raw)
    # A variable repeated in the atom: the positions are not independent, so complete
    # by brute force (arity is at most 3; this path serves tests and odd programs).
    free = [n for n in dict.fromkeys(atom.variables) if n != var and n not in bound]
    result = []
    for value in raw:
        for combo in itertools.product(ix.domain, repeat=len(free)):
            known = {**bound, var: value, **dict(zip(free, combo, strict=True))}
            if holds(function, atom, known):
                result.append(value)
                break
    return tuple(result)


# -- compiled forms for the solver -------------------------------------------------------


def _known(slot: Slot) -> Arg:
    assert not isinstance(slot, Unbound), "checks run once every variable is bound"
    return slot


def compile_check(
    ix: FunctionIndex, atom: Atom, slots: Sequence[int]
) -> Callable[[list[Slot]], bool]:
    """`check` as a closure reading the atom's variables from the solver's value array
    (every variable bound). The commonest kinds get a closure of their own: a check
    runs for every candidate the search tries."""
    kind, detail = atom.kind, atom.detail
    if len(slots) == 3:
        return lambda vals: check(ix, kind, detail, [_known(vals[s]) for s in slots])
    if len(slots) == 1:
        (i,) = slots
        if kind is AtomKind.UNUSED:
            return lambda vals: vals[i] is None
        test = _unary_test(kind, detail)
        return lambda vals: isinstance(v := vals[i], Value) and test(v)
    i, j = slots
    match kind:
        case AtomKind.SAME:
            return lambda vals: vals[i] is vals[j]
        case AtomKind.NOT_SAME:
            return lambda vals: vals[i] is not vals[j]
        case AtomKind.DATA_FLOW:
            return lambda vals: (
                isinstance(a := vals[i], Value)
                and isinstance(b := vals[j], Value)
                and a in b.operands
            )
        case AtomKind.OPERAND:
            k = _position(detail)
            return lambda vals: (
                isinstance(a := vals[i], Value)
                and isinstance(b := vals[j], Value)
                and len(b.operands) > k
                and b.operands[k] is a
            )
        case kind if kind in _DOMINANCE:
            post, strict = _DOMINANCE[kind]
            function = ix.function
            tree = function.post_dominators if post else function.dominators
            dominates = tree.instruction_dominates
            instruction = ValueKind.INSTRUCTION
            return lambda vals: (
                isinstance(a := vals[i], Value)
                and isinstance(b := vals[j], Value)
                and a.kind is instruction
                and b.kind is instruction
                and dominates(a, b, strict=strict)
            )
    return lambda vals: (
        isinstance(a := vals[i], Value)
        and isinstance(b := vals[j], Value)
        and _check_pair(ix, kind, detail, a, b)
    )


def compile_generator(
    ix: FunctionIndex, atom: Atom, position: int, slots: Sequence[int]
) -> Callable[[list[Slot]], Iterable[Arg]]:
    """`generate` for one position as a closure over the solver's value array."""
    kind, detail = atom.kind, atom.detail
    if len(slots) == 1:
        fixed = tuple(generate(ix, kind, detail, 0, (UNBOUND,)))
        return lambda vals: fixed
    if len(slots) == 2:
        other = slots[1 - position]
        return lambda vals: _generate_pair(ix, kind, detail, position, vals[other])
    return lambda vals: generate(ix, kind, detail, position, [vals[s] for s in slots])
