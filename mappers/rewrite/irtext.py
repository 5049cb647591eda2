"""Editing LLVM IR as text: the module printing the matcher read, changed line by line.

llvmlite can parse and verify IR but not edit a parsed module, so a rewrite works on
the text that `matcher.ir_builder` printed once (every instruction's line is known from
its block and position). New code is appended as whole blocks at the end of a function
with names prefixed `idiom.`; nothing else is renumbered, because unnamed values and
blocks are numbered in order of appearance and named ones take no number.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

from matcher.frontend import find_tool
from matcher.ir import Block, Function, Module, Value, ValueKind

__all__ = [
    "IR_NAME",
    "ModuleText",
    "Operand",
    "block_ref",
    "function_spans",
    "operand",
    "operand_name",
    "verify",
]

_TYPE_DEFINITION = re.compile(r'(%(?:"[^"]*"|[-a-zA-Z$._0-9]+)) = type ')
_PLAIN_NAME = re.compile(r"[-a-zA-Z$._][-a-zA-Z$._0-9]*|[0-9]+")
IR_NAME = r'(?:"[^"]*"|[-a-zA-Z$._0-9]+)'
"""A name after its sigil (`@`, `%`, `$`), quoted or plain, as a regular expression."""
_DEFINE = re.compile(rf"define [^@]*@({IR_NAME})\(")


@dataclass(frozen=True)
class Operand:
    """A typed operand as it is written in IR text: `double %x`, `i64 4`."""

    type: str
    ref: str

    def __str__(self) -> str:
        return f"{self.type} {self.ref}"


def _quoted(sigil: str, name: str) -> str:
    return f"{sigil}{name}" if _PLAIN_NAME.fullmatch(name) else f'{sigil}"{name}"'


def operand(value: Value) -> Operand:
    """How an existing value of the module is referred to."""
    if value.kind is ValueKind.CONSTANT:
        # A constant's name is its printing with the type in front: `i32 0`.
        prefix = value.type + " "
        ref = value.name[len(prefix) :] if value.name.startswith(prefix) else value.name
        return Operand(value.type, ref)
    sigil, name = value.name[0], value.name[1:]
    return Operand(value.type, _quoted(sigil, name))


def operand_name(sigil: str, name: str) -> str:
    """A name as IR writes it, quoted when it needs to be: `@f.idiom0`, `@"f<int>.idiom0"`."""
    return _quoted(sigil, name)


def block_ref(block: Block | str) -> str:
    """A label operand: `%for.body`."""
    return _quoted("%", block if isinstance(block, str) else block.name)


class ModuleText:
    """The printed module with edits: replaced lines, blocks appended to functions,
    declarations and constants appended to the module."""

    def __init__(self, module: Module) -> None:
        self.lines = module.text.splitlines()
        self._instruction_line: dict[Value, int] = {}
        self._function_close: dict[str, int] = {}
        self._appended: dict[str, list[str]] = {}
        self._declarations: dict[str, str] = {}
        self._globals: list[str] = []
        self._types: frozenset[str] | None = None
        self._index(module)

    def _index(self, module: Module) -> None:
        functions = {function.name: function for function in module}
        current: list[Value] | None = None
        name = ""
        for number, line in enumerate(self.lines):
            if current is None:
                match = re.match(r'define [^@]*@("[^"]+"|[-a-zA-Z$._0-9]+)\(', line)
                if match and line.rstrip().endswith("{"):
                    name = match.group(1).strip('"')
                    function = functions.get(name)
                    current = (
                        [i for b in function.blocks for i in b.instructions] if function else []
                    )
                    current.reverse()
                continue
            if line == "}":
                self._function_close[name] = number
                current = None
            elif current and _starts_instruction(line):
                self._instruction_line[current.pop()] = number

    def snapshot(self) -> tuple[list[str], dict[str, list[str]], dict[str, str], list[str]]:
        return (
            list(self.lines),
            {k: list(v) for k, v in self._appended.items()},
            dict(self._declarations),
            list(self._globals),
        )

    def restore(
        self, state: tuple[list[str], dict[str, list[str]], dict[str, str], list[str]]
    ) -> None:
        lines, appended, declarations, globals_ = state
        self.lines, self._appended = list(lines), {k: list(v) for k, v in appended.items()}
        self._declarations, self._globals = dict(declarations), list(globals_)

    def line_of(self, instruction: Value) -> str:
        return self.lines[self._instruction_line[instruction]]

    def replace(self, instruction: Value, text: str) -> None:
        """Replace one instruction's line (single-line instructions only)."""
        self.lines[self._instruction_line[instruction]] = "  " + text.strip()

    def insert_before(self, instruction: Value, text: str) -> None:
        """Put a single-line instruction right before `instruction` (line numbers stay)."""
        number = self._instruction_line[instruction]
        self.lines[number] = "  " + text.strip() + "\n" + self.lines[number]

    def append_blocks(self, function: Function, lines: list[str]) -> None:
        self._appended.setdefault(function.name, []).extend(lines)

    def declare(self, name: str, declaration: str) -> None:
        self._declarations.setdefault(name, declaration)

    def type_names(self) -> frozenset[str]:
        """The module's named types (`%struct.point`), which look like local values."""
        if self._types is None:
            named = (_TYPE_DEFINITION.match(line) for line in self.lines)
            self._types = frozenset(m.group(1) for m in named if m)
        return self._types

    def add_global(self, line: str) -> None:
        self._globals.append(line)

    def add_definition(self, lines: list[str]) -> None:
        """A new function, after the module's own."""
        self._globals.extend(["", *lines])

    def text(self) -> str:
        closes = {number: name for name, number in self._function_close.items()}
        out: list[str] = []
        for number, line in enumerate(self.lines):
            if number in closes:
                out.extend(self._appended.get(closes[number], []))
            out.append(line)
        out.append("")
        out.extend(self._globals)
        out.extend(d for name, d in self._declarations.items() if not _declared(self.lines, name))
        return "\n".join(out) + "\n"


def _starts_instruction(line: str) -> bool:
    return line.startswith("  ") and not line.startswith("   ") and not line.startswith("  ]")


def _declared(lines: list[str], name: str) -> bool:
    pattern = re.compile(rf"^(declare|define) .*@{re.escape(name)}\(")
    return any(pattern.match(line) for line in lines)


def verify(ir_text: str) -> str | None:
    """LLVM's verifier on a module (None when it passes), in a process of its own: a module that
    breaks LLVM's invariants can abort the process that parses it."""
    try:
        result = subprocess.run(
            [find_tool("opt"), "-passes=verify", "-disable-output"],
            input=ir_text,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as error:
        return f"opt-22 could not run: {error}"
    if result.returncode == 0:
        return None
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    return lines[0] if lines else "invalid IR"


def function_spans(lines: list[str]) -> Iterator[tuple[str, int, int]]:
    """Each function defined in a module's lines: its name (as printed, quotes included),
    the line of its `define ... {` and that of its closing `}`."""
    opened: tuple[str, int] | None = None
    for number, line in enumerate(lines):
        if opened is None:
            if (define := _DEFINE.match(line)) and line.rstrip().endswith("{"):
                opened = (define.group(1), number)
        elif line == "}":
            yield opened[0], opened[1], number
            opened = None
