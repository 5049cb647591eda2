"""What each instruction asks of the device copies, for the residency pass
(mappers/residency/placement.py).

The state is "dirty" where device copies may exist that the host has not seen. A launch
(`idiom_cl_run`, or a call of a program function that may launch) makes it dirty;
`idiom_host_access` and the BLAS entries (they begin with it) make it clean. Loads, stores,
calls outside the program or through pointers and memory intrinsics need it clean; the
rewriter's own argument arrays and the runtime's own globals do not, nor do calls that
touch no array (`printf` of a constant format, the math library).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from mappers.rewrite.worlds import BLAS_ENTRIES
from matcher.ir import Module, Value, ValueKind

__all__ = ["CALLS", "HOST_ACCESS", "LAUNCH", "Effect", "Program", "State"]

HOST_ACCESS = "idiom_host_access"
LAUNCH = "idiom_cl_run"
# Calls that bring device results back before they touch host memory.
_CLEANING = frozenset({HOST_ACCESS}) | BLAS_ENTRIES
# Intrinsics that take pointers without touching the memory behind them.
_NEUTRAL_INTRINSICS = (
    "llvm.lifetime.",
    "llvm.stacksave",
    "llvm.stackrestore",
    "llvm.assume",
    "llvm.dbg.",
    "llvm.experimental.noalias.scope.decl",
    "llvm.invariant.",
    "llvm.prefetch",
)
CALLS = ("call", "invoke", "callbr")
_MEMORY_OPCODES = frozenset({"load", "store", "atomicrmw", "cmpxchg", "fence", "va_arg"})
# Library calls that touch no array when every pointer they get is a constant (a format).
_QUIET_CALLS = frozenset({"printf", "puts", "putchar", "fflush", "clock", "time", "rand", "srand"})
# The math library: values in, a value out (and errno, which no kernel touches).
# fmt: off
_MATH = (
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin",
    "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "fabs", "floor",
    "ceil", "round", "trunc", "fmod", "fmin", "fmax", "hypot", "erf", "erfc",
)
# fmt: on
_QUIET_CALLS |= frozenset(name + suffix for name in _MATH for suffix in ("", "f", "l"))
_REWRITER_NAME = re.compile(r"%idiom\d+\.")


class State(Enum):
    CLEAN = 0
    DIRTY = 1


@dataclass(frozen=True)
class Effect:
    """What an instruction asks of the state and leaves behind (None: unchanged)."""

    needs_clean: bool
    after: State | None


_NEUTRAL = Effect(needs_clean=False, after=None)
_ACCESS = Effect(needs_clean=True, after=None)


class Program:
    """What the pass knows about every function: defined where, may it launch, escapes."""

    def __init__(self, modules: Sequence[Module], texts: Sequence[str]) -> None:
        self.defined = {f.name: f for module in modules for f in module}
        self.launches = self._launching()
        self.escaped = {name for name in self.defined if _escapes(name, texts)}
        self.host_only_accesses = {
            access for module in modules for access in _host_only_accesses(module)
        }
        # Functions that may be entered while device copies exist (see `_entered_dirty`).
        self.entered_dirty = {name for name in self.defined if name != "main"}

    def _launching(self) -> set[str]:
        calls = {
            name: {i.callee for i in f.instructions if i.opcode in ("call", "invoke")}
            for name, f in self.defined.items()
        }
        launching = {name for name, callees in calls.items() if LAUNCH in callees}
        changed = True
        while changed:
            changed = False
            for name, callees in calls.items():
                if name not in launching and callees & launching:
                    launching.add(name)
                    changed = True
        return launching

    def effect(self, instruction: Value) -> Effect:
        opcode = instruction.opcode
        if opcode in _MEMORY_OPCODES:
            if _rewriter_owned(instruction) or instruction in self.host_only_accesses:
                return _NEUTRAL
            return _ACCESS
        if opcode not in ("call", "invoke", "callbr"):
            return _NEUTRAL
        callee = instruction.callee
        if callee == LAUNCH:
            return Effect(needs_clean=False, after=State.DIRTY)
        if callee in _CLEANING:
            return Effect(needs_clean=False, after=State.CLEAN)
        if callee is not None and callee.startswith("idiom_"):
            return _NEUTRAL
        if "memory(none)" in instruction.attributes or "readnone" in instruction.attributes:
            return _NEUTRAL
        if callee is not None and callee.startswith("llvm."):
            return _intrinsic_effect(instruction, callee)
        if callee in self.defined:
            launches = callee in self.launches
            return Effect(needs_clean=False, after=State.DIRTY if launches else None)
        if callee in _QUIET_CALLS and all(
            o.kind is ValueKind.GLOBAL for o in _pointers(instruction)
        ):
            return _NEUTRAL
        return _ACCESS  # outside the program, or through a pointer


def _intrinsic_effect(instruction: Value, callee: str) -> Effect:
    if callee.startswith(_NEUTRAL_INTRINSICS):
        return _NEUTRAL
    return _ACCESS if _pointers(instruction) else _NEUTRAL


def _pointers(call: Value) -> list[Value]:
    """The pointer arguments of a call (its operands include the callee)."""
    callee = f"@{call.callee}"
    return [o for o in call.operands if o.type == "ptr" and o.name != callee]


def _rewriter_owned(instruction: Value) -> bool:
    """A load or store of the rewriter's own argument arrays (allocas it named), or of the
    runtime's state (`idiom_cl_min_work_known`)."""
    address = _direct_address(instruction)
    while address is not None and address.opcode == "getelementptr":
        address = address.operands[0]
    if address is not None and address.kind is ValueKind.GLOBAL:
        return address.name.startswith("@idiom_")  # the runtime's own state
    return (
        address is not None
        and address.opcode == "alloca"
        and _REWRITER_NAME.match(address.name) is not None
    )


_MENTION = re.compile(r"@([-a-zA-Z$._0-9]+)")
_PRIVATE_GLOBAL = re.compile(
    r"^@([-a-zA-Z$._0-9]+) = (?:private|internal) (?:\w+ )*?(?:global|constant) ", re.MULTILINE
)


def _host_only_accesses(module: Module) -> list[Value]:
    """The loads and stores of the unit's private globals whose every mention in the unit
    is the address of a load or store: no launch can be given such a global, so the host
    may touch it while device copies exist. A file-scope scalar (NAS BT's `tmp1`) then
    costs no call to the runtime, and its address stays unknown to LLVM's GlobalsAA,
    which the original code's own loops rely on."""
    by_name: dict[str, list[Value]] = {}
    for function in module:
        for instruction in function.instructions:
            address = _direct_address(instruction)
            if address is not None and address.kind is ValueKind.GLOBAL:
                by_name.setdefault(address.name, []).append(instruction)
    # Every name's mentions counted in one pass over the text (a rewritten unit holds
    # hundreds of private globals: its kernels' sources).
    mentions = Counter(_MENTION.findall(module.text))
    accesses: list[Value] = []
    for name in _PRIVATE_GLOBAL.findall(module.text):
        direct = by_name.get(f"@{name}", [])
        if direct and mentions[name] == len(direct) + 1:  # the definition, then the accesses
            accesses.extend(direct)
    return accesses


def _direct_address(instruction: Value) -> Value | None:
    """The address a plain load or store uses, or None for anything else."""
    if instruction.opcode == "load":
        return instruction.operands[0]
    if instruction.opcode == "store":
        return instruction.operands[1]
    return None


def _escapes(name: str, texts: Sequence[str]) -> bool:
    """`@name` is used other than as the callee of a call or in its definition."""
    quoted = re.escape(name) if re.fullmatch(r"[-a-zA-Z$._0-9]+", name) else f'"{re.escape(name)}"'
    pattern = re.compile(rf"@{quoted}(?![-a-zA-Z$._0-9(])")
    return any(pattern.search(text) for text in texts)
