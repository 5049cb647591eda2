"""Writing new IR instructions as text, and cloning a matched computation.

`Builder` appends instructions with fresh names (`%idiom3.17`) to the current block.
`Cloner` re-emits the computation of a value found inside the matched region with some
values replaced (loop counters set to chosen iterations): that is how a mapper learns,
at run time, an access's address at the first iteration and its stride along each loop,
without pattern-matching the address arithmetic itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from idl.errors import IdiomError
from mappers.rewrite.irtext import Operand, block_ref, operand
from matcher.atoms import is_pure_call
from matcher.ir import Block, Value

__all__ = [
    "CLONABLE",
    "I1",
    "I64",
    "OVERFLOW_DECLARATIONS",
    "Builder",
    "Cloner",
    "NotReplaced",
    "const",
]

I1 = "i1"
I64 = "i64"
# What `Builder.with_overflow` calls; a module using it declares them.
OVERFLOW_DECLARATIONS = {
    name: f"declare {{ i64, i1 }} @{name}(i64, i64)"
    for name in (f"llvm.s{op}.with.overflow.i64" for op in ("add", "sub", "mul"))
}


class NotReplaced(IdiomError):
    """A match that is left as it is; the message says why (shown in the report)."""


def const(type_text: str, value: int | float | str) -> Operand:
    return Operand(type_text, str(value))


class Builder:
    """Instruction lines of new blocks, each value with a fresh name.

    `known` maps values of the region to values the new code computed for them: a load
    from a fixed address inside the region, loaded once ahead of it (see
    `region.guard_conditions`); `refused` says why such a load could not be. `ref` is
    how new code refers to a value of the module."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.lines: list[str] = []
        self.known: dict[Value, Operand] = {}
        self.refused: dict[Value, str] = {}
        self.types: dict[str, str] = {}  # the type of each value emitted, by name
        self.first_test: str | None = None  # the block after the first `require`
        self._count = 0

    def ref(self, value: Value) -> Operand:
        if value in self.known:
            return self.known[value]
        if value in self.refused:
            raise NotReplaced(self.refused[value])
        return operand(value)

    def fresh(self, hint: str = "") -> str:
        self._count += 1
        return f"%{self.prefix}.{hint}{self._count}"

    def label(self, name: str) -> None:
        self.lines.append(f"{name}:")

    def current_block(self) -> str | None:
        """The label of the block being emitted (None before the first label)."""
        for line in reversed(self.lines):
            if line.endswith(":") and not line.startswith(" "):
                return line[:-1]
        return None

    def emit(self, type_text: str, right_side: str, hint: str = "") -> Operand:
        name = self.fresh(hint)
        self.lines.append(f"  {name} = {right_side}")
        self.types[name] = type_text
        return Operand(type_text, name)

    def statement(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def binary(self, opcode: str, lhs: Operand, rhs: Operand) -> Operand:
        return self.emit(lhs.type, f"{opcode} {lhs}, {rhs.ref}")

    def with_overflow(self, opcode: str, lhs: Operand, rhs: Operand) -> tuple[Operand, Operand]:
        """Signed i64 `add`, `sub` or `mul`, and an i1 that is true when it wrapped."""
        pair = self.emit(
            "{ i64, i1 }", f"call {{ i64, i1 }} @llvm.s{opcode}.with.overflow.i64({lhs}, {rhs})"
        )
        value = self.emit(I64, f"extractvalue {pair}, 0")
        return value, self.emit(I1, f"extractvalue {pair}, 1")

    def compare(self, predicate: str, lhs: Operand, rhs: Operand) -> Operand:
        kind = "fcmp" if lhs.type in ("float", "double") else "icmp"
        return self.emit(I1, f"{kind} {predicate} {lhs}, {rhs.ref}")

    def select(self, condition: Operand, if_true: Operand, if_false: Operand) -> Operand:
        return self.emit(if_true.type, f"select {condition}, {if_true}, {if_false}")

    def cast(self, opcode: str, value: Operand, to: str) -> Operand:
        if value.type == to:
            return value
        return self.emit(to, f"{opcode} {value} to {to}")

    def to_i64(self, value: Operand, *, signed: bool = True) -> Operand:
        if value.type == "ptr":
            return self.cast("ptrtoint", value, I64)
        width = int(value.type[1:])
        if width == 64:
            return value
        if width > 64:
            return self.cast("trunc", value, I64)
        return self.cast("sext" if signed else "zext", value, I64)

    def all_of(self, conditions: Iterable[Operand]) -> Operand:
        result = const(I1, "true")
        for condition in conditions:
            result = condition if result.ref == "true" else self.binary("and", result, condition)
        return result

    def call(self, return_type: str, function: str, arguments: Iterable[Operand]) -> Operand:
        args = ", ".join(str(a) for a in arguments)
        if return_type == "void":
            self.statement(f"call void @{function}({args})")
            return Operand("void", "")
        return self.emit(return_type, f"call {return_type} @{function}({args})")

    def branch(self, target: Block | str) -> None:
        self.statement(f"br label {block_ref(target)}")

    def branch_if(self, condition: Operand, if_true: Block | str, if_false: Block | str) -> None:
        self.statement(f"br {condition}, label {block_ref(if_true)}, label {block_ref(if_false)}")

    def require(self, condition: Operand) -> None:
        """In a guard: go to the original code at once unless `condition` holds. A cheap
        test placed first spares a small call (an inner loop of a few iterations, run
        millions of times) the rest of the guard."""
        passed = self.fresh("passed").removeprefix("%")
        self.branch_if(condition, passed, f"{self.prefix}.fallback")
        self.label(passed)
        self.first_test = self.first_test or passed


# Instructions a cloned computation may contain, and their poison-generating flags
# (dropped: the clone is evaluated at iterations the loop may not reach).
# The instructions a Cloner re-emits (besides pure calls, where not affine).
CLONABLE = {
    "getelementptr",
    "add",
    "sub",
    "mul",
    "shl",
    "or",
    "xor",
    "sext",
    "zext",
    "trunc",
    "and",
    "lshr",
    "ashr",
    "udiv",
    "sdiv",
    "urem",
    "srem",
    "icmp",
    "fcmp",
    "select",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "fneg",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "fpext",
    "fptrunc",
    "bitcast",
    "inttoptr",
    "ptrtoint",
    "freeze",
}
_FLAGS = re.compile(r"(?<![%@\w.$-])(nuw|nsw|exact|inbounds|nneg|disjoint|samesign)\s")
_NAME = re.compile(r'%(?:"[^"]*"|[-a-zA-Z$._0-9]+)')


_NARROW = ("i8", "i16")
_BINARY = frozenset(
    ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or",
     "xor", "fadd", "fsub", "fmul", "fdiv", "frem")
)  # fmt: skip


class Cloner:
    """Re-emits values computed inside `region` with the values of `env` substituted.

    With `affine=True` only affine integer and address arithmetic is accepted, and a
    multiplication may not have two factors that vary with the substituted values: the
    clone evaluated at a few points then gives exact base addresses and strides.
    """

    def __init__(
        self,
        builder: Builder,
        region: frozenset[Block],
        env: dict[Value, Operand],
        *,
        affine: bool,
        wraps_checked: bool = False,
    ) -> None:
        self.builder = builder
        self.region = region
        self.env = {**builder.known, **env}
        self.affine = affine
        # The caller compares the clone at the last iteration with what the strides
        # predict (host_ranges.py): a narrow integer that wraps shows there.
        self.wraps_checked = wraps_checked
        self._varies: set[Value] = set(env)

    def value(self, value: Value) -> Operand:
        if value in self.env:
            return self.env[value]
        if not value.is_instruction or value.block not in self.region:
            return operand(value)
        if value.opcode == "phi":
            raise NotReplaced(f"{value.name} is carried from one iteration to the next")
        if value.opcode == "load":
            if value in self.builder.refused:
                raise NotReplaced(self.builder.refused[value])
            raise NotReplaced(f"the address depends on memory ({value.name} is loaded)")
        pure_call = value.opcode == "call" and not self.affine and is_pure_call(value)
        if value.opcode not in CLONABLE and not pure_call:
            raise NotReplaced(f"cannot evaluate {value.opcode} ({value.name}) ahead of the loop")
        operands = [self.value(o) for o in value.operands]
        if any(o in self._varies for o in value.operands):
            self._varies.add(value)
            if self.affine:
                self._check_affine(value)
        renames = {operand(o).ref: new.ref for o, new in zip(value.operands, operands, strict=True)}
        if any(old != new and not _NAME.fullmatch(old) for old, new in renames.items()):
            # A constant stands for a computed value (a reduction whose term is a literal:
            # its total replaces the literal): renaming by name would leave the literal.
            result = self._rebuilt(value, operands)
        else:
            text = value.text.split(", !", 1)[0]
            right_side = text.split(" = ", 1)[1]
            right_side = _NAME.sub(lambda m: renames.get(m.group(0), m.group(0)), right_side)
            result = self.builder.emit(value.type, _FLAGS.sub("", right_side))
        self.env[value] = result
        return result

    def _rebuilt(self, value: Value, operands: list[Operand]) -> Operand:
        """`value` emitted again from `operands`, position by position."""
        match value.opcode, operands:
            case opcode, [lhs, rhs] if opcode in _BINARY:
                return self.builder.binary(opcode or "", lhs, rhs)
            case "icmp" | "fcmp", [lhs, rhs] if value.predicate:
                return self.builder.compare(value.predicate, lhs, rhs)
            case "select", [condition, if_true, if_false]:
                return self.builder.select(condition, if_true, if_false)
        raise NotReplaced(f"cannot evaluate {value.opcode} ({value.name}) with a constant replaced")

    def _check_affine(self, value: Value) -> None:
        varying = [o for o in value.operands if o in self._varies]
        opcode = value.opcode
        narrow = (value.type if opcode == "trunc" else value.operands[0].type) in _NARROW
        if opcode in ("sext", "zext", "trunc") and narrow and not self.wraps_checked:
            # An 8- or 16-bit counter or index wraps within a few hundred iterations:
            # its addresses are then no longer first + t * stride.
            raise NotReplaced(f"the address goes through a narrow integer ({value.name})")
        if opcode in ("getelementptr", "add", "sub", "sext", "zext", "trunc"):
            return
        if opcode == "mul" and len(varying) == 1:
            return
        if opcode == "shl" and value.operands[0] in self._varies and len(varying) == 1:
            return
        if opcode == "or" and " disjoint " in value.text:
            return
        if opcode == "xor" and any(operand(o).ref == "-1" for o in value.operands):
            return
        raise NotReplaced(f"the address is not affine in the loop counters ({value.name})")
