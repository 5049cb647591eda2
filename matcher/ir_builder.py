"""Builds the IR model (`matcher.ir`) from LLVM IR text, through llvmlite, in one pass.

This is the only module that touches llvmlite. Operands are re-ordered into the order
LLVM prints them (LLVM stores a conditional branch as cond, false, true and a call's
callee last), block operands become successors, phi incoming blocks are paired with
their values, and every value gets a stable printed name (unnamed values get LLVM's slot
numbers, `%0`, `%1`, ...). The cost is linear in the size of the IR.
"""

from __future__ import annotations

import ctypes
import re
from typing import Any

import llvmlite.binding as llvm

from idl.errors import IdiomError
from matcher.analysis import dominator_tree, find_loops, post_dominator_tree
from matcher.debuginfo import DebugInfo, instruction_debug_id
from matcher.demangle import demangle_names
from matcher.ir import Block, Function, Module, TypeKind, Value, ValueKind
from matcher.layout import Layout
from matcher.scratch import FIXED_LINKAGES, mark_scratch_calls

__all__ = ["IRError", "build_module"]

_GLOBAL_KINDS = frozenset({"function", "global_variable", "global_alias", "global_ifunc"})
_FLOAT_TYPES = frozenset({"half", "bfloat", "float", "double", "fp128", "x86_fp80", "ppc_fp128"})
_DEFINE = re.compile(r'^define [^@]*@("(?:[^"\\]|\\.)*"|[\w.$-]+)\(.*?!dbg !(\d+)', re.MULTILINE)
_FUNCTION_ATTRS = re.compile(
    r'^(?:declare|define) [^@]*@("(?:[^"\\]|\\.)*"|[\w.$-]+)\(.*\)([^{\n]*)', re.MULTILINE
)
_GROUP = re.compile(r"^attributes #(\d+) = \{ (.*) \}", re.MULTILINE)
_CALL_GROUP = re.compile(r"\)\s*(#\d+)")
# An attribute word: a run of characters, or a parenthesised part kept whole with its
# spaces (`memory(argmem: write, errnomem: write)` is one attribute).
_ATTRIBUTE_WORD = re.compile(r'(?:"[^"]*"|\([^()]*\)|[^\s("])+')
_PREDICATE = re.compile(
    r"= (?:icmp|fcmp)(?: \w+)*? (eq|ne|[us](?:gt|ge|lt|le)|o\w\w|u\w\w|true|false|ord|uno) "
)


class IRError(IdiomError):
    """LLVM rejected the IR (a parse or verifier error)."""


def build_module(ir: str | bytes, source: str = "<ir>") -> Module:
    """Parse and verify IR, text or bitcode, and build the model of every defined
    function."""
    llvm.initialize_native_target()
    try:
        parsed = llvm.parse_assembly(ir) if isinstance(ir, str) else llvm.parse_bitcode(ir)
        parsed.verify()
    except RuntimeError as error:
        raise IRError(f"{source}: LLVM rejected the IR: {str(error).strip()}") from error
    # Printing one instruction through llvmlite numbers its metadata afresh, so `!dbg !17`
    # would not be the module's `!17`: read every instruction's text from one printing of
    # the whole module instead.
    text = str(parsed)
    debug = DebugInfo(text, source)
    subprograms = {_unquote(m.group(1)): int(m.group(2)) for m in _DEFINE.finditer(text)}
    attributes = _function_attributes(text)
    bodies = iter(_function_bodies(text))
    demangled = demangle_names(fn.name for fn in parsed.functions if not fn.is_declaration)
    layout = Layout(parsed)
    functions = []
    fixed: set[str] = set()
    for fn in parsed.functions:
        if fn.is_declaration:
            continue
        if fn.linkage.name in FIXED_LINKAGES:
            fixed.add(fn.name)
        body = next(bodies, [])
        # Bodies glibc offers for inlining (`atoi` under -O2) are not the user's code.
        if fn.linkage.name == "available_externally":
            continue
        source_name = (
            demangled.get(fn.name) or debug.subprogram_name(subprograms.get(fn.name)) or fn.name
        )
        builder = _FunctionBuilder(fn, source_name, debug, attributes, body, layout=layout)
        functions.append(builder.build())
    mark_scratch_calls(functions, frozenset(fixed), layout)
    return Module(source, tuple(functions), text)


def _function_bodies(text: str) -> list[list[str]]:
    """The instruction lines of each defined function, in order, from LLVM's own printing.

    LLVM prints an instruction on one line indented by two spaces; only `switch` cases,
    its closing `]` and `landingpad` clauses continue on further lines.
    """
    bodies: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if current is None:
            if line.startswith("define ") and line.rstrip().endswith("{"):
                current = []
            continue
        if line == "}":
            bodies.append(current)
            current = None
        elif line.startswith("  ") and not line.startswith("   ") and not line.startswith("  ]"):
            current.append(line.strip())
        elif line.startswith("  ") and current:
            current[-1] += " " + line.strip()
    return bodies


def _name_and_opcode(line: str) -> tuple[str | None, str | None]:
    """An instruction's printed name ("" when it has none) and opcode, from its line:
    `%name = [tail|musttail|notail] opcode ...` or `opcode ...`. None for a name
    LLVM prints quoted (read from LLVM instead), or for an empty line."""
    name = ""
    rest = line
    if line.startswith("%"):
        if line.startswith('%"'):
            return None, None
        name, _, rest = line.partition(" = ")
    words = rest.split(" ", 2)
    if words[0] in _CALL_MARKERS and len(words) > 1:
        return name, words[1]
    return name, words[0].rstrip(",") or None  # `unreachable, !dbg !12`


# Words LLVM may print before `call`.
_CALL_MARKERS = frozenset({"tail", "musttail", "notail"})


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def _function_attributes(
    ir_text: str,
) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Attribute words of each declared/defined function, and of each attribute group."""
    groups = {
        f"#{m.group(1)}": frozenset(_ATTRIBUTE_WORD.findall(m.group(2)))
        for m in _GROUP.finditer(ir_text)
    }
    by_function: dict[str, frozenset[str]] = {}
    for match in _FUNCTION_ATTRS.finditer(ir_text):
        words: set[str] = set()
        for token in _ATTRIBUTE_WORD.findall(match.group(2)):
            words |= groups.get(token, {token})
        by_function[_unquote(match.group(1))] = frozenset(words)
    return by_function, groups


def _address(ref: Any) -> int:
    # The pointer's stored address read in place: a third of the time of a cast.
    return ctypes.c_void_p.from_buffer(ref._ptr).value or 0


def _type_kind(type_text: str) -> TypeKind:
    if re.fullmatch(r"i\d+", type_text):
        return TypeKind.INTEGER
    if type_text in _FLOAT_TYPES:
        return TypeKind.FLOAT
    if type_text == "ptr" or type_text.startswith("ptr "):
        return TypeKind.POINTER
    if type_text.startswith("<") and " x " in type_text and not type_text.startswith("<{"):
        return TypeKind.VECTOR
    if type_text == "void":
        return TypeKind.VOID
    return TypeKind.OTHER


class _FunctionBuilder:
    def __init__(
        self,
        fn: Any,
        source_name: str,
        debug: DebugInfo,
        attributes: tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]],
        lines: list[str],
        *,
        layout: Layout,
    ) -> None:
        self.fn = fn
        self.layout = layout
        self.lines = lines
        self.function = Function(fn.name, source_name)
        self.debug = debug
        self.function_attributes, self.groups = attributes
        self.by_address: dict[int, Value] = {}
        self.blocks_by_address: dict[int, Block] = {}
        self.others: dict[int, Value] = {}  # constants and globals, in order of appearance
        self.type_texts: dict[int, str] = {}
        self.slot = 0

    def build(self) -> Function:
        function = self.function
        function.arguments = tuple(self._argument(arg) for arg in self.fn.arguments)
        refs: list[tuple[Value, Any]] = []
        blocks = []
        lines = self.lines
        for index, block_ref in enumerate(self.fn.blocks):
            block = Block(self._name(block_ref.name, is_block=True), index)
            self.blocks_by_address[_address(block_ref)] = block
            members = []
            for position, ref in enumerate(block_ref.instructions):
                line = lines[len(refs)] if len(refs) < len(lines) else ""
                value = self._instruction(ref, block, position, line)
                members.append(value)
                refs.append((value, ref))
            block.instructions = tuple(members)
            blocks.append(block)
        if len(self.lines) != len(refs):
            raise IRError(f"{self.fn.name}: cannot align the printed IR with its instructions")
        for (value, ref), line in zip(refs, self.lines, strict=True):
            value.text = line
            value.location = self.debug.location(instruction_debug_id(line))
            if value.opcode in ("icmp", "fcmp"):
                match = _PREDICATE.search(line)
                value.predicate = match.group(1) if match else None
            self._link(value, ref)
            if value.opcode == "getelementptr":
                value.pointee_size, value.byte_offset = self.layout.gep(
                    line, [v.constant for v in value.operands[1:]]
                )
        self._link_blocks(blocks)
        function.blocks = tuple(blocks)
        function.instructions = tuple(value for value, _ in refs)
        function.values = function.arguments + function.instructions + tuple(self.others.values())
        for number, value in enumerate(function.values):
            value.id = number
        self._link_users()
        function.dominators = dominator_tree(function.blocks)
        function.post_dominators = post_dominator_tree(function.blocks)
        function.loops = find_loops(function.blocks, function.dominators)
        return function

    def _name(self, name: str, *, is_block: bool = False) -> str:
        if name:
            return name if is_block else f"%{name}"
        number = self.slot
        self.slot += 1
        return str(number) if is_block else f"%{number}"

    def _argument(self, ref: Any) -> Value:
        type_text = str(ref.type)
        value = Value(ValueKind.ARGUMENT, self._name(ref.name), type_text, _type_kind(type_text))
        self.by_address[_address(ref)] = value
        return value

    def _instruction(self, ref: Any, block: Block, position: int, line: str) -> Value:
        # The name and opcode are read from the instruction's printed line, the type
        # printed once per LLVM type: each question asked of llvmlite is an FFI call.
        type_text = self._type_text(ref.type)
        printed, opcode = _name_and_opcode(line)
        if printed is None or opcode is None:  # a quoted name, or no line: ask LLVM
            ref_name, opcode = ref.name, ref.opcode
        else:
            ref_name = "" if printed[1:].isdigit() else printed[1:]
        named = type_text != "void" or bool(ref_name)
        name = self._name(ref_name) if named else ""
        value = Value(ValueKind.INSTRUCTION, name, type_text, _type_kind(type_text))
        value.opcode = opcode
        value.block = block
        value.position = position
        self.by_address[_address(ref)] = value
        return value

    def _type_text(self, type_ref: Any) -> str:
        """A type's text, printed once per type (LLVM keeps one object per type)."""
        address = _address(type_ref)
        text = self.type_texts.get(address)
        if text is None:
            text = self.type_texts[address] = str(type_ref)
        return text

    def _operand(self, ref: Any, address: int) -> Value:
        known = self.by_address.get(address) or self.others.get(address)
        if known is not None:
            return known
        type_text = str(ref.type)
        if ref.value_kind.name in _GLOBAL_KINDS:
            value = Value(ValueKind.GLOBAL, f"@{ref.name}", type_text, _type_kind(type_text))
        else:
            text = str(ref).strip()
            value = Value(ValueKind.CONSTANT, text, type_text, _type_kind(type_text))
            value.constant = _constant_value(ref, value.type_kind, type_text)
        self.others[address] = value
        return value

    def _link(self, value: Value, ref: Any) -> None:
        # Operands are told apart by address (this function's blocks are all known):
        # every question asked of llvmlite is a call through its FFI, and the model's
        # build time is mostly those calls.
        blocks_by_address = self.blocks_by_address
        value_refs: list[tuple[Any, int]] = []
        targets: list[Block] = []
        for op in ref.operands:
            address = _address(op)
            block = blocks_by_address.get(address)
            if block is None:
                value_refs.append((op, address))
            else:
                targets.append(block)
        if value.opcode in ("call", "invoke", "callbr") and value_refs:
            callee = value_refs.pop()  # LLVM keeps the callee last; it is printed first
            value_refs.insert(0, callee)
            value.callee = callee[0].name or None
            value.attributes = self._call_attributes(value)
        value.operands = tuple(self._operand(op, address) for op, address in value_refs)
        if value.opcode == "phi":
            value.incoming = tuple(
                (operand, blocks_by_address[_address(block)])
                for operand, block in zip(value.operands, ref.incoming_blocks, strict=True)
            )
        if value.opcode == "br" and len(targets) == 2:
            targets.reverse()  # stored as false, true; printed (and meant) true, false
        assert value.block is not None
        if targets and value.block.terminator is value:
            value.block.successors = tuple(targets)

    def _call_attributes(self, value: Value) -> frozenset[str]:
        words = set(self.function_attributes.get(value.callee or "", frozenset()))
        match = _CALL_GROUP.search(value.text.split("!dbg")[0])
        if match:
            words |= self.groups.get(match.group(1), frozenset())
        return frozenset(words)

    def _link_blocks(self, blocks: list[Block]) -> None:
        predecessors: dict[Block, list[Block]] = {block: [] for block in blocks}
        for block in blocks:
            for succ in dict.fromkeys(block.successors):
                predecessors[succ].append(block)
        for block in blocks:
            block.predecessors = tuple(predecessors[block])

    def _link_users(self) -> None:
        users: dict[Value, dict[Value, None]] = {}
        for instruction in self.function.instructions:
            for operand in instruction.operands:
                users.setdefault(operand, {})[instruction] = None
        for value in self.function.values:
            value.users = tuple(users.get(value, ()))


def _constant_value(ref: Any, kind: TypeKind, type_text: str) -> int | float | None:
    kind_name = ref.value_kind.name
    try:
        if kind is TypeKind.INTEGER and kind_name == "constant_int":
            return int(ref.get_constant_value(signed_int=type_text != "i1"))
        if kind is TypeKind.FLOAT and kind_name == "constant_fp":
            return float(ref.get_constant_value())
    except (ValueError, RuntimeError, OverflowError):
        return None
    return None
