"""The IR model: one module's functions as plain Python objects built once from llvmlite.

After `matcher.ir_builder.build_module` returns, no llvmlite object is reachable from
here. Values and blocks are graph nodes: they hash and compare by identity, and are
read-only once built (the builder is the only writer).

Conventions the atoms rely on (IDL.md section 1 and 5):
- `Value.operands` are the value operands in the order LLVM *prints* them. Basic blocks
  are not values: a branch's targets are its block's successors, so `br i1 %c, label %t,
  label %f` has the one operand `%c`, and a call's operands are the callee then the
  arguments (`call double @sqrt(double %x)` has operands `@sqrt`, `%x`).
- Control flow is at instruction granularity: an instruction flows to the next one in
  its block, a terminator to the first instruction of each successor block.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matcher.analysis import DominatorTree, LoopInfo

__all__ = [
    "Block",
    "Function",
    "Module",
    "SourceLocation",
    "TypeKind",
    "Value",
    "ValueKind",
]


class ValueKind(StrEnum):
    ARGUMENT = "argument"
    INSTRUCTION = "instruction"
    CONSTANT = "constant"
    GLOBAL = "global"  # a global variable or a function named as an operand


class TypeKind(StrEnum):
    INTEGER = "integer"
    FLOAT = "float"
    POINTER = "pointer"
    VECTOR = "vector"
    VOID = "void"
    OTHER = "other"  # structs, arrays, labels, metadata, token


@dataclass(frozen=True)
class SourceLocation:
    """Where an instruction comes from; `function` is the source function (after inlining)."""

    file: str
    line: int
    column: int
    function: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Value:
    """An argument, instruction, constant or global. Identity-hashed."""

    __slots__ = (
        "attributes",
        "block",
        "byte_offset",
        "callee",
        "constant",
        "fills",
        "id",
        "incoming",
        "kind",
        "location",
        "name",
        "opcode",
        "operands",
        "pointee_size",
        "position",
        "predicate",
        "text",
        "type",
        "type_kind",
        "users",
    )

    def __init__(self, kind: ValueKind, name: str, type_text: str, type_kind: TypeKind) -> None:
        self.kind = kind
        self.name = name  # as printed: "%5", "%sum", "@A", or the constant's text
        self.type = type_text
        self.type_kind = type_kind
        self.id = -1  # dense index within the function's `values`
        self.opcode: str | None = None  # LLVM spelling: "getelementptr", "br", "fadd", ...
        self.operands: tuple[Value, ...] = ()
        self.users: tuple[Value, ...] = ()
        self.block: Block | None = None
        self.position = -1  # index within the block
        self.location: SourceLocation | None = None
        self.incoming: tuple[tuple[Value, Block], ...] = ()  # phi: (value, from block)
        self.constant: int | float | None = None  # value of an integer or FP constant
        self.predicate: str | None = None  # icmp/fcmp: "slt", "oeq", ...
        self.callee: str | None = None  # call/invoke: the called function's name
        self.attributes: frozenset[str] = frozenset()  # call: function attributes
        # call: the caller's local arrays it fills, private to each iteration of the
        # loops around it (matcher.scratch); empty for every other call.
        self.fills: tuple[Value, ...] = ()
        self.text = ""  # the instruction as LLVM prints it
        # getelementptr: the size in bytes of the element its result points to, and its
        # offset in bytes from its base when every index is a constant (None: unknown).
        self.pointee_size: int | None = None
        self.byte_offset: int | None = None

    @property
    def is_instruction(self) -> bool:
        return self.kind is ValueKind.INSTRUCTION

    @property
    def is_terminator(self) -> bool:
        return self.block is not None and self.block.terminator is self

    def __repr__(self) -> str:
        if self.kind is ValueKind.INSTRUCTION:
            return f"<{self.opcode} {self.name or '#' + str(self.id)}>"
        return f"<{self.kind.value} {self.name}>"


class Block:
    """A basic block: its instructions in order, successors in terminator order."""

    __slots__ = ("index", "instructions", "name", "predecessors", "successors")

    def __init__(self, name: str, index: int) -> None:
        self.name = name
        self.index = index
        self.instructions: tuple[Value, ...] = ()
        self.successors: tuple[Block, ...] = ()
        self.predecessors: tuple[Block, ...] = ()

    @property
    def first(self) -> Value:
        return self.instructions[0]

    @property
    def terminator(self) -> Value:
        return self.instructions[-1]

    def __repr__(self) -> str:
        return f"<block {self.name}>"


class Function:
    """One defined function with its analyses (computed once, when built)."""

    def __init__(self, name: str, source_name: str) -> None:
        self.name = name  # the IR (possibly mangled) name
        self.source_name = source_name  # as written in the source, from debug info
        self.arguments: tuple[Value, ...] = ()
        self.blocks: tuple[Block, ...] = ()
        self.instructions: tuple[Value, ...] = ()
        # Every value a constraint may take: arguments, instructions, then the
        # constants and globals that appear as operands.
        self.values: tuple[Value, ...] = ()
        self.dominators: DominatorTree
        self.post_dominators: DominatorTree
        self.loops: LoopInfo

    @property
    def entry(self) -> Value:
        return self.blocks[0].first

    def successors(self, instruction: Value) -> tuple[Value, ...]:
        """Instruction-level control-flow successors (IDL.md section 1)."""
        block = instruction.block
        assert block is not None
        if instruction.position + 1 < len(block.instructions):
            return (block.instructions[instruction.position + 1],)
        return tuple(succ.first for succ in block.successors)

    def predecessors(self, instruction: Value) -> tuple[Value, ...]:
        block = instruction.block
        assert block is not None
        if instruction.position > 0:
            return (block.instructions[instruction.position - 1],)
        return tuple(pred.terminator for pred in block.predecessors)

    def dominates(self, a: Value, b: Value, *, strict: bool = False) -> bool:
        """Instruction-level dominance; false for anything that is not a reachable instruction."""
        return self.dominators.instruction_dominates(a, b, strict=strict)

    def post_dominates(self, a: Value, b: Value, *, strict: bool = False) -> bool:
        return self.post_dominators.instruction_dominates(a, b, strict=strict)

    def loop_depth(self, instruction: Value) -> int:
        assert instruction.block is not None
        return self.loops.depth(instruction.block)

    def __repr__(self) -> str:
        return f"<function {self.name}>"


class Module:
    """The defined functions of one translation unit, in file order."""

    def __init__(self, source: str, functions: tuple[Function, ...], text: str) -> None:
        self.source = source
        self.functions = functions
        self.text = text  # the IR text the model was built from

    def function(self, name: str) -> Function | None:
        for function in self.functions:
            if name in (function.name, function.source_name):
                return function
        return None

    def __iter__(self) -> Iterator[Function]:
        return iter(self.functions)
