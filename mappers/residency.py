"""Device residency: where the rewritten program calls `idiom_host_access`.

The runtime can keep arrays on the device between kernel launches, so that an iterative
program (a time loop around a stencil, a reduction called again and again) copies its data
once instead of at every call. The price is a promise the program makes by calling
`idiom_residency_on()` at the start of `main`: before it touches host memory that a launch
may have used, it calls `idiom_host_access()`, which copies device results back and forgets
every device copy (runtime/idiom_runtime.h). This pass keeps that promise, over every
function of every translation unit of the program at once.

A forward data-flow analysis tracks whether device copies may exist ("dirty"): a launch
makes the state dirty; `idiom_host_access`, BLAS calls (they begin with it) make it clean.
An instruction that needs the host's memory up to date — a load or store (except the
rewriter's own argument arrays), a call of a function outside the program or through a
pointer, a memory intrinsic — is preceded by `idiom_host_access()` wherever it can be
reached dirty. The call is hoisted to the preheader of the outermost enclosing loop that
launches nothing, so a loop of host code pays it once. A single load or store that cannot
be hoisted (say, a result stored between two launches) gets `idiom_host_access_at(address,
size)` instead, which brings back only the copy holding those bytes: the other arrays stay
on the device. So does a loop nest whose loads and stores can be bounded before it runs
(mappers/host_ranges.py): its preheader calls `idiom_host_access_at` once per array it
touches, and the state stays dirty after it for the code that follows. All of them cost
one atomic read when there is nothing on a device.

Calls of functions defined in the program need no clean state: each function assumes it
may be entered dirty (except `main`) and protects its own accesses; the call leaves the
state dirty if the callee may launch a kernel, directly or not. Functions whose address
escapes (callbacks from libraries, which do not keep the promise) and `main` (atexit
handlers run after it) leave clean. Threads are outside the model: a program whose threads
share arrays with launched kernels should run with IDIOM_RESIDENT=0 (docs/acceleration.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from mappers.emit import OVERFLOW_DECLARATIONS, NotReplaced
from mappers.host_fast import FAST_ACCESS, FAST_ACCESS_AT, declare_fast_forms, entry_test_path
from mappers.host_ranges import HOST_ACCESS_AT, accessed_bytes, host_ranges
from mappers.irtext import ModuleText, block_ref, operand, operand_name, verify
from mappers.outline import outline
from matcher.analysis import Loop
from matcher.ir import Block, Function, Module, Value, ValueKind
from matcher.ir_builder import build_module

__all__ = ["HOST_ACCESS", "needs_residency", "with_host_access"]

HOST_ACCESS = "idiom_host_access"
_ON = "idiom_residency_on"
_COPIES = "idiom_device_copies"
_LAUNCH = "idiom_cl_run"
_CLEANING = frozenset({"idiom_host_access", "idiom_gemm", "idiom_gemv"})
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
_FALLBACK = re.compile(r"(idiom\d+)\.fallback")  # the block the rewriter names so
_ROUNDS = 64


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


def needs_residency(texts: Iterable[str]) -> bool:
    """The program launches kernels, so it needs this pass before residency is on."""
    return any(f"@{_LAUNCH}(" in text for text in texts)


def with_host_access(texts: Sequence[str], sources: Sequence[str]) -> list[str]:
    """The units' rewritten IR with `idiom_host_access` calls placed, and residency turned
    on at the start of `main`."""
    modules = [build_module(text, source) for text, source in zip(texts, sources, strict=True)]
    program = _Program(modules, texts)
    return [_placed(module, program) for module in modules]


def _placed(module: Module, program: _Program) -> str:
    """One unit with its host accesses. Should LLVM's verifier reject the ranges' code (a
    loop shape this pass did not foresee), the unit is placed again without ranges: the
    global form is always right, and a build must not fail for want of a faster one."""
    text, ranged = _place_all(module, program, ranges=True)
    if ranged and verify(text) is not None:
        text, _ = _place_all(module, program, ranges=False)
    return text


def _place_all(module: Module, program: _Program, *, ranges: bool) -> tuple[str, bool]:
    """The unit's text, and whether a loop nest got ranges."""
    edited = ModuleText(module)
    ranged = fast = False
    for function in module:
        placement = _Placement(module, function, program, edited, ranges=ranges)
        placement.place()
        ranged = ranged or bool(placement.bounded)
        fast = fast or placement.fast
    if fast:
        declare_fast_forms(edited)
    edited.declare(HOST_ACCESS, f"declare void @{HOST_ACCESS}()")
    edited.declare(HOST_ACCESS_AT, f"declare void @{HOST_ACCESS_AT}(ptr, i64)")
    edited.declare(_ON, f"declare void @{_ON}()")
    return edited.text(), ranged


class _Program:
    """What the pass knows about every function: defined where, may it launch, escapes."""

    def __init__(self, modules: Sequence[Module], texts: Sequence[str]) -> None:
        self.defined = {f.name: f for module in modules for f in module}
        self.launches = self._launching()
        self.escaped = {name for name in self.defined if _escapes(name, texts)}

    def _launching(self) -> set[str]:
        calls = {
            name: {i.callee for i in f.instructions if i.opcode in ("call", "invoke")}
            for name, f in self.defined.items()
        }
        launching = {name for name, callees in calls.items() if _LAUNCH in callees}
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
            return _NEUTRAL if _rewriter_owned(instruction) else _ACCESS
        if opcode not in ("call", "invoke", "callbr"):
            return _NEUTRAL
        callee = instruction.callee
        if callee == _LAUNCH:
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
    address = instruction.operands[0] if instruction.opcode == "load" else None
    if instruction.opcode == "store":
        address = instruction.operands[1]
    while address is not None and address.opcode == "getelementptr":
        address = address.operands[0]
    if address is not None and address.kind is ValueKind.GLOBAL:
        return address.name.startswith("@idiom_")  # the runtime's own state
    return (
        address is not None
        and address.opcode == "alloca"
        and _REWRITER_NAME.match(address.name) is not None
    )


def _escapes(name: str, texts: Sequence[str]) -> bool:
    """`@name` is used other than as the callee of a call or in its definition."""
    quoted = re.escape(name) if re.fullmatch(r"[-a-zA-Z$._0-9]+", name) else f'"{re.escape(name)}"'
    pattern = re.compile(rf"@{quoted}(?![-a-zA-Z$._0-9(])")
    return any(pattern.search(text) for text in texts)


class _Placement:
    """The host-access calls of one function: data flow, then placement, until no access
    can be reached dirty."""

    def __init__(
        self,
        unit: Module,
        function: Function,
        program: _Program,
        edited: ModuleText,
        *,
        ranges: bool,
    ) -> None:
        self.unit = unit  # the translation unit of `function` (its outlined guards are there)
        self.function = function
        self.program = program
        self.edited = edited
        self.ranges = ranges  # host loops may get ranges instead of the global form
        self.effects = {i: program.effect(i) for i in function.instructions}
        self.leaves_clean = function.name == "main" or (
            function.name in program.escaped and function.name in program.launches
        )
        self.inserted: set[Value] = set()  # idiom_host_access() goes before these
        self.targeted: set[Value] = set()  # idiom_host_access_at(their address) before these
        # Preheader branches before which the ranges of their loop nest are brought back,
        # with the code that does it; the loads and stores those ranges cover.
        self.bounded: dict[Value, tuple[Loop, str, list[str]]] = {}
        self.covered: set[Value] = set()
        self.unbounded: set[Loop] = set()
        self.fast = False  # a fast form of the host access calls is used

    def place(self) -> None:
        if self.function.name == "main":
            self.edited.insert_before(_first_insertion_point(self.function.blocks[0]), _call(_ON))
        # Each round places at least one new call (a bounded loop leaves the state dirty,
        # so the accesses after it need a round of their own).
        for _ in range(_ROUNDS):
            violations = self._violations()
            if not violations:
                break
            for violation in violations:
                self._place_for(violation)
        else:  # a safety net that cannot be reached dirty any more
            self.inserted.update(self._violations())
        self._emit()

    def _place_for(self, violation: Value) -> None:
        if violation in self.covered:
            return  # an earlier violation of this round bounded its loop
        position, nest = self._position(violation)
        if position is violation and accessed_bytes(violation) is not None:
            self.targeted.add(violation)
        elif nest is None or not self._bound(nest, position):
            self.inserted.add(position)

    def _bound(self, nest: Loop, position: Value) -> bool:
        """Bring back only the bytes the loop nest touches, if they can be bounded before
        it (mappers/host_ranges.py); the nest's loads and stores are then covered."""
        if not self.ranges or nest in self.unbounded:
            return False
        accesses = [i for b in nest.blocks for i in b.instructions if self.effects[i].needs_clean]
        prefix = f"idiom.host{len(self.bounded)}"
        try:
            lines = host_ranges(self.function, nest, accesses, prefix)
        except NotReplaced:
            self.unbounded.add(nest)
            return False
        self.bounded[position] = (nest, prefix, lines)
        self.covered.update(accesses)
        return True

    def _emit(self) -> None:
        # Off the paths to loop entries, the calls test for device copies inline.
        plain = entry_test_path(self.function)
        for instruction in sorted(self.inserted, key=lambda i: i.id):
            if self._into_guard(instruction):
                continue
            fast = instruction.block not in plain
            self.fast = self.fast or fast
            self.edited.insert_before(instruction, _call(FAST_ACCESS if fast else HOST_ACCESS))
        for instruction in sorted(self.targeted - self.inserted, key=lambda i: i.id):
            address, size = accessed_bytes(instruction) or (instruction, 0)
            fast = instruction.block not in plain
            self.fast = self.fast or fast
            callee = operand_name("@", FAST_ACCESS_AT if fast else HOST_ACCESS_AT)
            call = f"call void {callee}(ptr {operand(address).ref}, i64 {size})"
            self.edited.insert_before(instruction, call)
        for position, (_, prefix, lines) in self.bounded.items():
            _before_loop(self.edited, self.function, position, prefix, lines)
        if self.bounded:
            self.edited.declare(_COPIES, f"declare i32 @{_COPIES}()")
            for name, declaration in OVERFLOW_DECLARATIONS.items():
                self.edited.declare(name, declaration)

    def _into_guard(self, position: Value) -> bool:
        """A host access that would open a replaced region's fallback block goes, instead,
        where the outlined guard returns "not run" (mappers/rewriter.py): one call fewer
        before a small inner loop entered millions of times, and no join on its way in."""
        block = position.block
        match = _FALLBACK.fullmatch(block.name) if block is not None else None
        if match is None or block is None or position is not block.first:
            return False
        guards = [f"{self.function.name}.{match.group(1)}{rest}" for rest in ("", ".rest")]
        returns = [
            b.terminator
            for name in guards
            if (guard := self.unit.function(name)) is not None
            for b in guard.blocks
            if b.name == block.name
        ]
        if not returns:
            return False
        for ret in returns:
            self.edited.insert_before(ret, _call(HOST_ACCESS))
        return True

    def _needs(self, instruction: Value) -> bool:
        if instruction.opcode == "ret":
            return self.leaves_clean
        return self.effects[instruction].needs_clean

    def _violations(self) -> list[Value]:
        """Instructions that need a clean state and can be reached dirty."""
        entry_state = State.CLEAN if self.function.name == "main" else State.DIRTY
        blocks = self.function.blocks
        state_in = {blocks[0]: entry_state}
        state_out: dict[Block, State] = {}
        work = [blocks[0]]
        while work:
            block = work.pop()
            out = self._through(block, state_in[block], None)
            if state_out.get(block) == out:
                continue
            state_out[block] = out
            for succ in block.successors:
                merged = _join(state_in.get(succ), out)
                if state_in.get(succ) != merged or succ not in state_out:
                    state_in[succ] = merged
                    work.append(succ)
        violations: list[Value] = []
        for block in blocks:
            if block in state_in:
                self._through(block, state_in[block], violations)
        return violations

    def _through(self, block: Block, state: State, violations: list[Value] | None) -> State:
        for instruction in block.instructions:
            if instruction in self.inserted:
                state = State.CLEAN
            if instruction in self.targeted or instruction in self.covered:
                pass  # its own bytes are brought back; other copies stay where they are
            elif state is State.DIRTY and self._needs(instruction):
                if violations is not None:
                    violations.append(instruction)
                state = State.CLEAN  # as it will be, once placed
            after = self.effects[instruction].after
            if after is not None:
                state = after
        return state

    def _position(self, violation: Value) -> tuple[Value, Loop | None]:
        """Where the host access for `violation` goes: hoisted out of the loops around it
        that launch nothing, else right before it; and the loop it was hoisted out of."""
        block = violation.block
        assert block is not None
        earlier = block.instructions[: violation.position]
        if any(self.effects[i].after is State.DIRTY for i in earlier):
            return violation, None
        position, hoisted = violation, None
        loop = self.function.loops.innermost(block)
        while loop is not None and not self._launches_in(loop):
            preheader = loop.preheader
            if preheader is None or len(preheader.successors) != 1:
                break
            position, hoisted = preheader.terminator, loop  # after what launches there
            if any(self.effects[i].after is State.DIRTY for i in preheader.instructions):
                break  # but no higher: not above that launch
            loop = self.function.loops.innermost(preheader)
        return position, hoisted

    def _launches_in(self, loop: Loop) -> bool:
        return any(
            self.effects[i].after is State.DIRTY for b in loop.blocks for i in b.instructions
        )


def _before_loop(
    edited: ModuleText, function: Function, position: Value, prefix: str, lines: Sequence[str]
) -> None:
    """Call, before the preheader's branch `position`, a function of its own (see
    mappers/outline.py: the loop keeps a preheader with one predecessor) that brings back
    the ranges, doing nothing unless there are device copies: a small function called
    millions of times pays one call, as it would for `idiom_host_access()`."""
    ranges, skip = f"{prefix}.ranges", f"{prefix}.skip"
    body = [
        f"{prefix}.test:",
        f"  %{prefix}.copies = call i32 @{_COPIES}()",
        f"  %{prefix}.any = icmp ne i32 %{prefix}.copies, 0",
        f"  br i1 %{prefix}.any, label {block_ref(ranges)}, label {block_ref(skip)}",
        f"{ranges}:",
        *lines,
        "  ret void",
        f"{skip}:",
        "  ret void",
    ]
    callee = operand_name("@", f"{function.name}.{prefix}")
    outlined = outline(edited, function, callee, "void", body)
    edited.insert_before(position, outlined.call("void", callee))
    edited.add_definition(outlined.definition)


def _join(old: State | None, new: State) -> State:
    return State.DIRTY if State.DIRTY in (old, new) else State.CLEAN


def _first_insertion_point(block: Block) -> Value:
    for instruction in block.instructions:
        if instruction.opcode not in ("phi", "landingpad"):
            return instruction
    return block.terminator


def _call(name: str) -> str:
    return f"call void {operand_name('@', name)}()"
