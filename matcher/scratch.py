"""Calls that fill a private scratch array: IDL's `{f} fills a private scratch array`.

A sweep such as

    for (i = 0; i < n; i++) {
        exact(x[i], tmp);              /* fills double tmp[5] */
        for (m = 0; m < 5; m++) { d = u[i][m] - tmp[m]; err[m] += d * d; }
    }

calls a function that writes memory, yet its iterations are independent: `tmp` is a
local array of the caller that the call overwrites completely before anything reads it,
in every iteration. The call is then as good as pure for the loop. `mark_scratch_calls`
finds such calls when the IR model is built and records on each the arrays it fills
(`Value.fills`); the atom holds for a call with `fills`. LLVM cannot say this: its
`memory(argmem: write)` does not say that every element is written (its `initializes`
attribute does, but only for stores at constant offsets, not the loop that fills such an
array), so the callee's body, defined in the same module, is read here: this module
reads its effects and the call site, matcher/scratch_cover.py proves that its stores
cover the array.

What the callee must be (`summarise`, once per callee and set of filled parameters):
- defined here and not replaceable at link time (no weak or `linkonce` definition);
- it writes memory only through its filled pointer parameters (and its own locals): no
  store elsewhere, no call other than to functions that neither read nor write memory
  (pure maths, intrinsics), no atomics or volatile accesses; a filled parameter is only
  a store address (through getelementptrs), never read, stored, compared or passed on;
- every path through it writes every byte of [0, size) of each filled parameter: each
  store through it post-dominates the entry and sits at offsets that are constants and
  the counters of loops it runs in on every trip, each loop with constant bounds and no
  other exit, so that the bytes it writes are computed by running those counters
  (matcher/scratch_cover.py); the sizes come from the stored types.
- what it reads: memory named by globals, pointers loaded from globals, its other
  pointer parameters (one level of indirection, as for the loop's own reads).

What the call site must be (`_private`):
- inside a loop; each filled argument is a fixed-size alloca of the caller's entry
  block that the callee writes completely (and not beyond), passed once;
- the alloca is used only by lifetime markers, by calls that overwrite it completely
  (this one and others), by stores outside the outermost loop around the call, and by
  readers (loads, pure calls); every reader that a path from the call reaches before
  another complete overwrite lies in the innermost loop around the call and is
  dominated by it: whatever an iteration reads there was written in that iteration,
  never carried from another, and nothing after the loop reads the last iteration's
  values;
- no store in the outermost loop around the call writes memory the callee reads (the
  same memory named the same way, or an address of unknown origin), and that loop calls
  nothing that writes memory besides pure functions, lifetime markers and calls that
  only overwrite allocas (by the same reading of their callees), none the callee reads.

The lifetime markers of such an array (clang brackets an array declared in a loop's
body with them, on every iteration) are marked too: they say the contents die at the
end of each iteration, which is what the analysis proved, and touch nothing else.

As everywhere in the library, memory named differently (two arguments, an argument and
a global) is taken to be different; a mapper that replaces a loop checks overlaps at
run time (the reduction mapper refuses loops with such calls).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from matcher.analysis import Loop
from matcher.atoms import is_pure_call
from matcher.ir import Block, Function, Value, ValueKind
from matcher.layout import Layout
from matcher.scratch_cover import bytes_written

__all__ = ["FIXED_LINKAGES", "Fill", "mark_scratch_calls", "root", "summarise"]

# Linkages whose definition here is the one that runs (llvmlite's names).
FIXED_LINKAGES = frozenset({"external", "internal", "private", "linkonce_odr", "weak_odr"})
_POINTER_CASTS = frozenset({"getelementptr", "bitcast", "addrspacecast"})
_NO_MEMORY = frozenset({"memory(none)", "readnone"})
_NO_MEMORY_INTRINSICS = frozenset((
    "fabs", "sqrt", "fmuladd", "fma", "smax", "smin", "umax", "umin", "minnum", "maxnum",
    "minimum", "maximum", "abs", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "pow",
    "powi", "floor", "ceil", "trunc", "round", "copysign",
))  # fmt: skip
_MATH_NAMES = (
    "sqrt", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "fabs", "pow", "fmin", "fmax", "floor", "ceil",
    "trunc", "round", "copysign", "fma", "hypot", "cbrt",
)  # fmt: skip
_MATH = frozenset(name + suffix for name in _MATH_NAMES for suffix in ("", "f", "l"))
_FORBIDDEN = frozenset({
    "invoke", "callbr", "atomicrmw", "cmpxchg", "fence", "va_arg", "resume", "landingpad",
    "catchswitch", "catchpad", "cleanuppad", "catchret", "cleanupret", "indirectbr",
})  # fmt: skip
# Argument attributes under which the callee gets a copy of the caller's memory.
_COPIED = ("byval", "inalloca", "preallocated")
_GLOBAL_NAME = re.compile(r'@("(?:[^"\\]|\\.)*"|[\w.$-]+)')
_ALLOCA_COUNT = re.compile(r"i\d+ (\d+)")

# Where memory is named from: ("global", "@g"), ("arg", 2), ("local", alloca),
# ("through", root) for memory behind a pointer loaded from root, or ("unknown",).
Root = tuple[object, ...]
_UNKNOWN: Root = ("unknown",)


@dataclass(frozen=True)
class Fill:
    """What a callee does to the memory of its filled parameters (by parameter index):
    `covered[p]` bytes from the start written on every path, none outside
    [0, `extent[p]`); `reads`, the memory it reads, named in its own terms."""

    covered: dict[int, int]
    extent: dict[int, int]
    reads: frozenset[Root]


def root(pointer: Value, arguments: Sequence[Value]) -> Root:
    """Where the memory `pointer` addresses is named from (see `Root`)."""
    value = pointer
    for _ in range(64):
        if value.kind is ValueKind.GLOBAL:
            return ("global", value.name)
        if value.kind is ValueKind.ARGUMENT:
            for index, argument in enumerate(arguments):
                if argument is value:
                    return ("arg", index)
            return _UNKNOWN
        if value.kind is ValueKind.CONSTANT:
            names = {n[1:-1] if n.startswith('"') else n for n in _GLOBAL_NAME.findall(value.name)}
            return ("global", "@" + names.pop()) if len(names) == 1 else _UNKNOWN
        if value.opcode in _POINTER_CASTS and value.operands:
            value = value.operands[0]
            continue
        if value.opcode == "load":
            inner = root(value.operands[0], arguments)
            return _UNKNOWN if inner == _UNKNOWN or inner[0] == "local" else ("through", inner)
        if value.opcode == "alloca":
            return ("local", value)
        return _UNKNOWN
    return _UNKNOWN


def _touches_no_memory(call: Value) -> bool:
    callee = call.callee or ""
    if callee.startswith("llvm."):
        family = callee.split(".")[1]
        return family in _NO_MEMORY_INTRINSICS or family in ("lifetime", "dbg", "assume")
    if callee in _MATH:
        return True
    return "nounwind" in call.attributes and not _NO_MEMORY.isdisjoint(call.attributes)


def _derived(pointer: Value) -> Iterator[tuple[Value, Value]]:
    """(value, user) for every use of `pointer` and of the getelementptrs and casts of it."""
    work, seen = [pointer], {pointer}
    while work:
        value = work.pop()
        for user in value.users:
            if user.opcode in _POINTER_CASTS and user.operands[0] is value:
                if user not in seen:
                    seen.add(user)
                    work.append(user)
                continue
            yield value, user


def summarise(callee: Function, parameters: frozenset[int], layout: Layout) -> Fill | None:
    """What `callee` writes through the pointer parameters `parameters` and reads; None
    when it does anything else (see the module's documentation)."""
    arguments = callee.arguments
    if not callee.blocks or any(p >= len(arguments) for p in parameters):
        return None
    for p in parameters:
        for value, user in _derived(arguments[p]):
            if not (user.opcode == "store" and user.operands[1] is value):
                return None  # read, stored, compared or passed on
            if user.operands[0] is value:
                return None
    stores: dict[int, list[Value]] = {p: [] for p in parameters}
    reads: set[Root] = set()
    for instruction in callee.instructions:
        opcode = instruction.opcode
        if opcode in _FORBIDDEN:
            return None
        if opcode in ("load", "store") and (
            " volatile " in f" {instruction.text} " or " atomic " in instruction.text
        ):
            return None
        if opcode == "store":
            where = root(instruction.operands[1], arguments)
            index = where[1] if where[0] == "arg" else None
            if isinstance(index, int) and index in parameters:
                stores[index].append(instruction)
            elif where[0] != "local":
                return None
        elif opcode == "load":
            where = root(instruction.operands[0], arguments)
            if where == _UNKNOWN or (where[0] == "arg" and where[1] in parameters):
                return None
            if where[0] != "local":
                reads.add(where)
        elif opcode == "call" and not _touches_no_memory(instruction):
            return None
    covered: dict[int, int] = {}
    extent: dict[int, int] = {}
    for p, writes in stores.items():
        spans = bytes_written(callee, arguments[p], writes, layout)
        if spans is None:
            return None
        covered[p], extent[p] = spans
    return Fill(covered, extent, frozenset(reads))


def _alloca_size(alloca: Value, layout: Layout) -> int | None:
    """The size of a fixed-size alloca in bytes."""
    text = alloca.text.split("alloca", 1)[1].strip()
    parts = _top_level(text)
    size = layout.size(parts[0])
    if size is None:
        return None
    if len(parts) > 1 and not parts[1].startswith("align"):
        count = _ALLOCA_COUNT.fullmatch(parts[1])
        return size * int(count.group(1)) if count else None
    return size


def _top_level(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "[{<(":
            depth += 1
        elif char in "]}>)":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def mark_scratch_calls(
    functions: Sequence[Function], fixed: frozenset[str], layout: Layout
) -> None:
    """Set `Value.fills` on every call that fills private scratch arrays (see above);
    `fixed` names the functions whose definitions here are the ones that run."""
    by_name = {f.name: f for f in functions if f.name in fixed}
    summaries: dict[tuple[str, frozenset[int]], Fill | None] = {}
    for function in functions:
        # Every call that overwrites local arrays completely, and the arrays.
        fillers: dict[Value, tuple[Fill, dict[Value, int]]] = {}
        for call in function.instructions:
            if call.opcode != "call" or call.callee not in by_name:
                continue
            arguments = call.operands[1:]
            filled = frozenset(i for i, v in enumerate(arguments) if v.opcode == "alloca")
            if not filled or any(f"{word}(" in call.text for word in _COPIED):
                continue  # a callee given a copy writes the copy
            key = (call.callee or "", filled)
            if key not in summaries:
                summaries[key] = summarise(by_name[key[0]], filled, layout)
            summary = summaries[key]
            if summary is None:
                continue
            sizes = {arguments[p]: _alloca_size(arguments[p], layout) for p in filled}
            if all(
                size is not None
                and summary.covered[p] >= size
                and summary.extent[p] <= size
                and arguments.count(arguments[p]) == 1
                for p, size in ((p, sizes[arguments[p]]) for p in filled)
            ):
                fillers[call] = (summary, {a: p for p, a in enumerate(arguments) if p in filled})
        for call, (summary, arrays) in fillers.items():
            assert call.block is not None
            if function.loops.innermost(call.block) is not None and _private(
                function, call, summary, arrays, fillers
            ):
                call.fills = tuple(arrays)
                # The markers that clang puts around an array declared in a loop's body
                # (its contents dead from one iteration to the next) belong with it.
                for alloca in arrays:
                    for user in alloca.users:
                        if (user.callee or "").startswith("llvm.lifetime."):
                            user.fills = (alloca,)


def _private(
    function: Function,
    call: Value,
    summary: Fill,
    arrays: dict[Value, int],
    fillers: dict[Value, tuple[Fill, dict[Value, int]]],
) -> bool:
    """Whether the arrays `call` fills keep its values private to one iteration of the
    loops around it, and the callee reads nothing those loops write."""
    assert call.block is not None
    inner = function.loops.innermost(call.block)
    assert inner is not None
    outer = inner
    while outer.parent is not None:
        outer = outer.parent
    for alloca in arrays:
        if alloca.block is not function.blocks[0]:
            return False
        readers: set[Value] = set()
        for value, user in _derived(alloca):
            assert user.block is not None
            if user in fillers and value is alloca and alloca in fillers[user][1]:
                continue  # overwrites it completely (this call or another)
            if user.opcode == "call" and (user.callee or "").startswith("llvm.lifetime."):
                continue
            if user.opcode == "store" and user.operands[1] is value:
                if user.operands[0] is value or user.block in outer.blocks:
                    return False  # escapes, or written in the loops by something else
                continue
            if user.opcode == "load" or (user.opcode == "call" and is_pure_call(user)):
                readers.add(user)
                continue
            return False  # escapes
        others = {c for c, (_, filled) in fillers.items() if alloca in filled}
        for reader in _reached(call, readers, others):
            assert reader.block is not None
            if reader.block not in inner.blocks or not function.dominates(call, reader):
                return False  # may read what the call wrote in another iteration
    return _reads_unwritten(function, call, summary, outer, fillers)


def _reached(call: Value, readers: set[Value], fillers: set[Value]) -> Iterator[Value]:
    """The readers that a path from `call` reaches before any filler (`call` included)."""
    assert call.block is not None
    work: list[tuple[Block, int]] = [(call.block, call.position + 1)]
    seen: set[Block] = set()
    while work:
        block, start = work.pop()
        for instruction in block.instructions[start:]:
            if instruction in fillers:
                break
            if instruction in readers:
                yield instruction
        else:
            for successor in block.successors:
                if successor not in seen:
                    seen.add(successor)
                    work.append((successor, 0))


def _reads_unwritten(
    function: Function,
    call: Value,
    summary: Fill,
    outer: Loop,
    fillers: dict[Value, tuple[Fill, dict[Value, int]]],
) -> bool:
    """No store in `outer` writes memory the callee reads, and `outer` calls nothing
    that writes memory besides pure functions and calls that only fill allocas (none
    that the callee reads)."""
    arguments = function.arguments
    operands = call.operands[1:]

    def translated(where: Root) -> Root:
        index, inner = where[-1], where[-1]
        if where[0] == "arg" and isinstance(index, int):
            return root(operands[index], arguments) if index < len(operands) else _UNKNOWN
        if where[0] == "through" and isinstance(inner, tuple):
            outer_root = translated(inner)
            return _UNKNOWN if outer_root == _UNKNOWN else ("through", outer_root)
        return where

    reads = {translated(r) for r in summary.reads}
    if _UNKNOWN in reads:
        return False
    for block in outer.blocks:
        for instruction in block.instructions:
            if instruction.opcode == "store":
                written = root(instruction.operands[1], arguments)
                if reads and (written == _UNKNOWN or written in reads):
                    return False
            elif instruction.opcode in ("call", "invoke", "callbr"):
                callee = instruction.callee or ""
                if instruction.opcode == "call" and (
                    is_pure_call(instruction) or callee.startswith("llvm.lifetime.")
                ):
                    continue
                if instruction not in fillers:
                    return False  # may write anything
                if any(("local", v) in reads for v in fillers[instruction][1]):
                    return False
            elif instruction.opcode in _FORBIDDEN:
                return False
    return True
