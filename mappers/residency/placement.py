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
(mappers/residency/host_ranges.py): its preheader calls `idiom_host_access_at` once per array it
touches, and the state stays dirty after it for the code that follows. All of them cost
one atomic read when there is nothing on a device.

Calls of functions defined in the program need no clean state: each function protects its
own accesses, assuming it may be entered dirty when one of its calls may be reached dirty,
or when its address escapes or nothing in the program calls it (`_entered_dirty`, a fixed
point over the whole program; `main` is entered clean); the call leaves the state dirty if
the callee may launch a kernel, directly or not. What each instruction asks of the state
is in mappers/residency/host_effects.py. Functions whose address
escapes (callbacks from libraries, which do not keep the promise) and `main` (atexit
handlers run after it) leave clean. Threads are outside the model: a program whose threads
share arrays with launched kernels should run with IDIOM_RESIDENT=0 (docs/acceleration.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mappers.residency.host_effects import CALLS, HOST_ACCESS, LAUNCH, Program, State
from mappers.residency.host_fast import (
    DEVICE_ENTRIES,
    FAST_ACCESS,
    FAST_ACCESS_AT,
    declare_device_entries,
    declare_fast_forms,
    entry_test_path,
    saved_form,
)
from mappers.residency.host_ranges import HOST_ACCESS_AT, accessed_bytes, host_ranges
from mappers.rewrite.emit import OVERFLOW_DECLARATIONS, NotReplaced
from mappers.rewrite.irtext import ModuleText, block_ref, operand, operand_name, verify
from mappers.rewrite.outline import CONVENTION, outline
from matcher.analysis import Loop
from matcher.ir import Block, Function, Module, Value
from matcher.ir_builder import build_module

__all__ = [
    "HOST_ACCESS",
    "needs_residency",
    "residency_refused",
    "unmodelled_call",
    "with_host_access",
]

_ON = "idiom_residency_on"
_FALLBACK = re.compile(r"(idiom\d+)\.fallback")  # the block the rewriter names so
_ROUNDS = 64


def needs_residency(texts: Iterable[str]) -> bool:
    """The program launches kernels, so it needs this pass before residency is on."""
    return any(f"@{LAUNCH}(" in text for text in texts)


# Calls that start another thread of control sharing the program's memory, or that take
# SIGSEGV from the runtime's fault handler (runtime/idiom_guard.c): neither the placement
# nor page protection can follow another thread's accesses, so such a program is built
# without residency (each launch copies its arrays in and out).
_UNMODELLED_CALLS = {
    "pthread_create": "creates threads",
    "thrd_create": "creates threads",
    "__kmpc_fork_call": "runs OpenMP parallel regions",
    "GOMP_parallel": "runs OpenMP parallel regions",
    "fork": "forks",
    "vfork": "forks",
    "clone": "forks",
    "signal": "installs signal handlers",
    "sigaction": "installs signal handlers",
    "sigset": "installs signal handlers",
    "bsd_signal": "installs signal handlers",
}
# C++ threads start inside libstdc++ (std::thread, std::jthread, std::async).
_THREAD_PREFIXES = ("_ZNSt6thread", "_ZNSt7jthread", "_ZSt5async")
_CALLED = re.compile(r"@([-a-zA-Z$._0-9]+)\(")


def residency_refused(texts: Iterable[str]) -> str | None:
    """Why the program cannot keep arrays on the device between launches, or None."""
    for text in texts:
        for line in text.splitlines():
            if "call " not in line and "invoke " not in line:
                continue
            for name in _CALLED.findall(line):
                refused = unmodelled_call(name)
                if refused is not None:
                    return refused
    return None


def unmodelled_call(name: str) -> str | None:
    """Why a call of the function `name` keeps the program from residency, or None."""
    if name in _UNMODELLED_CALLS:
        return f"the program {_UNMODELLED_CALLS[name]} ({name})"
    if name.startswith(_THREAD_PREFIXES):
        return f"the program creates threads ({name})"
    return None


def with_host_access(
    texts: Sequence[str], sources: Sequence[str], called_outside: Iterable[str] = ()
) -> list[str]:
    """The units' rewritten IR with `idiom_host_access` calls placed, and residency turned
    on at the start of `main`. `called_outside`: functions of these units that code the
    pass does not see calls by name (objects compiled without idiom): they are treated as
    escaping, entered with device copies and leaving none."""
    modules = [build_module(text, source) for text, source in zip(texts, sources, strict=True)]
    program = Program(modules, texts)
    program.escaped |= set(called_outside) & program.defined.keys()
    program.entered_dirty = _entered_dirty(modules, program)
    return [_placed(module, program) for module in modules]


def _entered_dirty(modules: Sequence[Module], program: Program) -> set[str]:
    """The functions some call of which may come while device copies exist: those whose
    address escapes or that nothing in the program calls (their callers are elsewhere),
    then, to a fixed point, those called from a point reached dirty. The others need no
    host access before their first launch (red_memory.c's `residual_norms`, called before
    any launch, keeps the shape `clang -O2` inlines)."""
    called = {
        i.callee for f in program.defined.values() for i in f.instructions if i.opcode in CALLS
    }
    dirty = {
        name
        for name in program.defined
        if name != "main" and (name in program.escaped or name not in called)
    }
    texts = [ModuleText(module) for module in modules]
    while True:
        program.entered_dirty = dirty
        reached = set(dirty)
        for module, text in zip(modules, texts, strict=True):
            for function in module:
                # Planned as it will be placed: a loop nest given ranges leaves the state
                # dirty, so the calls after it are reached dirty (NAS CG's conj_grad).
                placement = _Placement(module, function, program, text, ranges=True)
                placement.plan()
                reached |= placement.dirty_callees()
        reached &= program.defined.keys() - {"main"}
        if reached == dirty:
            return dirty
        dirty = reached


def _placed(module: Module, program: Program) -> str:
    """One unit with its host accesses. Should LLVM's verifier reject the ranges' code (a
    loop shape this pass did not foresee), the unit is placed again without ranges: the
    global form is always right, and a build must not fail for want of a faster one."""
    text, ranged = _place_all(module, program, ranges=True)
    if ranged and verify(text) is not None:
        text, _ = _place_all(module, program, ranges=False)
    return text


def _place_all(module: Module, program: Program, *, ranges: bool) -> tuple[str, bool]:
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


class _Placement:
    """The host-access calls of one function: data flow, then placement, until no access
    can be reached dirty."""

    def __init__(
        self,
        unit: Module,
        function: Function,
        program: Program,
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
        # A launch may keep this function's stack arrays on the device: they must come back
        # before the frame is reused by other calls.
        self.leaves_clean = function.name == "main" or (
            function.name in program.launches
            and (function.name in program.escaped or _has_stack_objects(function))
        )
        self.inserted: set[Value] = set()  # idiom_host_access() goes before these
        self.targeted: set[Value] = set()  # idiom_host_access_at(their address) before these
        self.targetable: dict[Value, bool] = {}  # `_targetable`'s answers
        # Preheader branches before which the ranges of their loop nest are brought back,
        # with the code that does it; the loads and stores those ranges cover.
        self.bounded: dict[Value, tuple[Loop, str, list[str]]] = {}
        self.covered: set[Value] = set()
        self.unbounded: set[Loop] = set()
        self.fast = False  # a host access call (a fast form or its wrapper) is used

    def place(self) -> None:
        if self.function.name == "main":
            self.edited.insert_before(_first_insertion_point(self.function.blocks[0]), _call(_ON))
        self.plan()
        self._emit()

    def plan(self) -> None:
        """Choose where the calls go, without writing them."""
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

    def _targetable(self, violation: Value) -> bool:
        """The host access for `violation` will be `idiom_host_access_at` of its bytes,
        right before it (not hoisted out of a loop). Fixed by the code, not the state:
        asked once per instruction."""
        known = self.targetable.get(violation)
        if known is None:
            position, _ = self._position(violation)
            known = position is violation and accessed_bytes(violation) is not None
            self.targetable[violation] = known
        return known

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
        it (mappers/residency/host_ranges.py); the nest's loads and stores are then covered."""
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
        # Off the paths to loop entries, the calls test for device copies inline; on them,
        # the wrapper tests (no join above the loop). Both keep the caller's registers.
        plain = entry_test_path(self.function)
        for instruction in sorted(self.inserted, key=lambda i: i.id):
            self.fast = True
            if self._into_guard(instruction):
                continue
            self.edited.insert_before(
                instruction, _host_access(FAST_ACCESS, "", inline=instruction.block not in plain)
            )
        for position, address, size in self._targeted_spans():
            self.fast = True
            arguments = f"ptr {operand(address).ref}, i64 {size}"
            inline = position.block not in plain
            self.edited.insert_before(
                position, _host_access(FAST_ACCESS_AT, arguments, inline=inline)
            )
        for position, (_, prefix, lines) in self.bounded.items():
            _before_loop(self.edited, self.function, position, prefix, lines)
        if self.bounded:
            declare_device_entries(self.edited)
            for name, declaration in OVERFLOW_DECLARATIONS.items():
                self.edited.declare(name, declaration)

    def _targeted_spans(self) -> list[tuple[Value, Value, int]]:
        """Where each `idiom_host_access_at` goes, for which address and how many bytes.
        The targeted loads and stores of a block that no launch separates, at constant
        offsets from one base, share one call before the first of them, from its bytes to
        the end of the last (one at a lower offset than the first starts a span of its
        own): NAS BT's 5x5 block products, entered with device copies, made 65 calls
        each otherwise."""
        spans: list[_Span] = []
        open_spans: dict[Value, _Span] = {}  # by base, since the block's start or a launch
        block: Block | None = None
        for instruction in sorted(self.targeted - self.inserted, key=lambda i: i.id):
            if instruction.block is not block or self._launch_between(spans, instruction):
                block, open_spans = instruction.block, {}
            address, size = accessed_bytes(instruction) or (instruction, 0)
            base, offset = _constant_offset(address)
            span = open_spans.get(base)
            if span is not None and offset >= span.start:
                span.end = max(span.end, offset + size)
                continue
            span = _Span(instruction, address, offset, offset + size)
            spans.append(span)
            open_spans[base] = span
        return [(s.position, s.address, s.end - s.start) for s in spans]

    def _launch_between(self, spans: list[_Span], later: Value) -> bool:
        """A launch (or a call that may launch) since the newest span began, in `later`'s
        block: bytes brought back before it could be written on the device again. The
        newest span is enough: each span's start was checked against the one before it,
        so the checks together reach back to the oldest span still open."""
        if not spans or spans[-1].position.block is not later.block:
            return True
        block = later.block
        assert block is not None
        between = block.instructions[spans[-1].position.position : later.position]
        return any(self.effects[i].after is State.DIRTY for i in between)

    def _into_guard(self, position: Value) -> bool:
        """A host access that would open a replaced region's fallback block goes, instead,
        where the outlined guard returns "not run" (mappers/rewrite/rewriter.py): one call fewer
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
        for ret in returns:  # the fast form: a declining guard stays free of C calls
            self.edited.insert_before(ret, _host_access(FAST_ACCESS, "", inline=True))
        return True

    def _needs(self, instruction: Value) -> bool:
        if instruction.opcode == "ret":
            return self.leaves_clean
        return self.effects[instruction].needs_clean

    def _violations(self) -> list[Value]:
        """Instructions that need a clean state and can be reached dirty."""
        violations: list[Value] = []
        for block, state in self._states_in().items():
            self._through(block, state, violations)
        return violations

    def dirty_callees(self) -> set[str]:
        """The functions of the program this one may call while device copies may exist."""
        callees: set[str] = set()
        for block, state in self._states_in().items():
            self._through(block, state, None, callees)
        return callees

    def _states_in(self) -> dict[Block, State]:
        """The state on entry to each reachable block (forward data flow)."""
        entry_state = (
            State.DIRTY if self.function.name in self.program.entered_dirty else State.CLEAN
        )
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
        return state_in

    def _through(
        self,
        block: Block,
        state: State,
        violations: list[Value] | None,
        dirty_callees: set[str] | None = None,
    ) -> State:
        for instruction in block.instructions:
            if instruction in self.inserted:
                state = State.CLEAN
            callee = instruction.callee if instruction.opcode in ("call", "invoke") else None
            if (
                dirty_callees is not None
                and state is State.DIRTY
                and callee in self.program.defined
            ):
                dirty_callees.add(callee)
            if instruction in self.targeted or instruction in self.covered:
                pass  # its own bytes are brought back; other copies stay where they are
            elif state is State.DIRTY and self._needs(instruction):
                if violations is not None:
                    violations.append(instruction)
                # As it will be, once placed: an access that will bring back only its own
                # bytes leaves the other copies where they are, so the accesses after it
                # are found in this round too, not one a round.
                state = State.DIRTY if self._targetable(instruction) else State.CLEAN
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
    mappers/rewrite/outline.py: the loop keeps a preheader with one predecessor) that brings back
    the ranges, doing nothing unless there are device copies: a small function called
    millions of times pays one call, as it would for `idiom_host_access()`. The ranges are
    a function of their own too, called from it: the caller-saved registers they touch
    are saved only where they run (an FFT's butterflies of 16 points, NAS FT, ran 2.7
    times slower when every call saved them)."""
    ranges, skip = f"{prefix}.ranges", f"{prefix}.skip"
    ranges_callee = operand_name("@", f"{function.name}.{prefix}.ranges")
    measured = outline(
        edited, function, ranges_callee, "void", [f"{ranges}:", *lines, "  ret void"]
    )
    body = [
        f"{prefix}.test:",
        f"  %{prefix}.copies = load atomic i32, ptr @{DEVICE_ENTRIES} unordered, align 4",
        f"  %{prefix}.any = icmp ne i32 %{prefix}.copies, 0",
        f"  br i1 %{prefix}.any, label {block_ref(ranges)}, label {block_ref(skip)}",
        f"{ranges}:",
        f"  {measured.call('void', ranges_callee)}",
        "  ret void",
        f"{skip}:",
        "  ret void",
    ]
    callee = operand_name("@", f"{function.name}.{prefix}")
    outlined = outline(edited, function, callee, "void", body)
    edited.insert_before(position, outlined.call("void", callee))
    edited.add_definition(outlined.definition)
    edited.add_definition(measured.definition)


def _has_stack_objects(function: Function) -> bool:
    """Memory of the frame the program may hand to a kernel (the rewriter's own argument
    arrays aside)."""
    return any(
        i.opcode == "alloca" and not i.name.startswith("%idiom") for i in function.instructions
    )


def _join(old: State | None, new: State) -> State:
    return State.DIRTY if State.DIRTY in (old, new) else State.CLEAN


def _first_insertion_point(block: Block) -> Value:
    for instruction in block.instructions:
        if instruction.opcode not in ("phi", "landingpad"):
            return instruction
    return block.terminator


@dataclass
class _Span:
    """One `idiom_host_access_at` being built: before `position`, from `address` (the
    first access's, `start` bytes from the base) to `end` bytes from the base."""

    position: Value
    address: Value
    start: int
    end: int


def _constant_offset(address: Value) -> tuple[Value, int]:
    """The pointer `address` starts from, through getelementptrs of constant offsets, and
    its offset in bytes from it."""
    offset = 0
    while address.opcode == "getelementptr" and address.byte_offset is not None:
        offset += address.byte_offset
        address = address.operands[0]
    return address, offset


def _host_access(fast_form: str, arguments: str, *, inline: bool) -> str:
    """A call of the fast form (`inline`) or of its `preserve_allcc` wrapper."""
    if inline:
        return f"call void {operand_name('@', fast_form)}({arguments})"
    return f"call {CONVENTION} void @{saved_form(fast_form)}({arguments})"


def _call(name: str) -> str:
    return f"call void {operand_name('@', name)}()"
