"""The region a match covers, and the static legality rules of IDIOMS.md.

A region is the outermost loop of a match: entered from its preheader's branch
{precursor}, left through its single exit block (the block of {successor}). Before a
mapper emits anything, `check_legal` verifies in code that replacing the region cannot
change what the program does, apart from the idiom's own stores and results:

1. no side effect other than the allowed stores: no other store, no call that is not
   pure, no volatile access, no atomic;
2. the only values used after the region are the idiom's results (in the exit block's
   LCSSA phis);
3. no control flow inside other than the matched loops' own latches and the guards
   that skip an inner matched loop; such a guard must depend only on values fixed
   before the region, and the run-time guard checks that it lets the loop run. A mapper
   whose kernel makes a branch's test itself at every iteration (a histogram's
   conditional update) names that branch as `conditional`.

Rule 3 of IDIOMS.md (ranges at run time) is the mappers' guard; rule 4 (reassociation)
is the `reassociate` flag of the rewriter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mappers.emit import Builder, Cloner, NotReplaced, const
from mappers.irtext import Operand
from mappers.loops import LoopView
from matcher.analysis import Loop
from matcher.atoms import is_pure_call
from matcher.ir import Block, Function, Value

__all__ = ["Region", "check_legal", "depends_on", "guard_conditions", "region_of"]


@dataclass(frozen=True)
class Region:
    function: Function
    loop: Loop
    precursor: Value  # the preheader's `br label %header`
    exit: Block  # the block the region leaves to

    @property
    def header(self) -> Block:
        return self.loop.header

    @property
    def latch(self) -> Block:
        return self.loop.latches[0]

    @property
    def blocks(self) -> frozenset[Block]:
        return self.loop.blocks

    @property
    def preheader(self) -> Block:
        assert self.precursor.block is not None
        return self.precursor.block

    def exit_phis(self) -> list[Value]:
        return [i for i in self.exit.instructions if i.opcode == "phi"]


def region_of(function: Function, solution: Mapping[str, Value | None]) -> Region:
    begin, precursor, successor = (solution.get(k) for k in ("begin", "precursor", "successor"))
    if begin is None or precursor is None or successor is None or begin.block is None:
        raise NotReplaced("the match does not name its region")
    loop = next((lp for lp in function.loops.loops if lp.header is begin.block), None)
    if loop is None or len(loop.latches) != 1 or len(loop.exits) != 1:
        raise NotReplaced("the region is not a loop with one latch and one exit")
    if precursor.opcode != "br" or len(precursor.operands) != 0:
        raise NotReplaced("the loop has no preheader")
    assert successor.block is not None
    if loop.exits[0] is not successor.block or successor.position != 0:
        raise NotReplaced("the loop's exit is not the match's successor")
    if set(successor.block.predecessors) != {loop.latches[0]}:
        raise NotReplaced("the loop's exit block is shared with other paths")
    return Region(function, loop, precursor, successor.block)


def check_legal(
    region: Region,
    *,
    stores: Iterable[Value],
    results: Iterable[Value],
    loops: Iterable[LoopView],
    data_loops: Iterable[LoopView] = (),
    conditional: Iterable[Value] = (),
) -> list[tuple[Value, bool]]:
    """Raise NotReplaced unless the region meets the static rules above. Returns the
    zero-trip guards of inner loops (condition, value that enters the loop): the plan's
    run-time guard must check them with `guard_conditions`. `conditional` are branches
    whose condition the kernel evaluates itself, at every iteration (a histogram's
    conditional update)."""
    loops = list(loops)
    allowed_stores, allowed_results = set(stores), set(results)
    for loop in loops:
        for bound in (loop.iter_begin, loop.iter_end):
            if bound.block in region.blocks:
                raise NotReplaced(f"a loop bound ({bound.name}) is read inside the region")
    for block in region.blocks:
        for instruction in block.instructions:
            _check_effect(instruction, allowed_stores)
            _check_escape(region, instruction, allowed_results)
    return _check_control_flow(region, loops, list(data_loops), set(conditional))


def _check_effect(instruction: Value, allowed_stores: set[Value]) -> None:
    opcode = instruction.opcode
    if opcode in ("atomicrmw", "cmpxchg", "fence"):
        raise NotReplaced(f"the region has an atomic operation ({_where(instruction)})")
    if opcode in ("load", "store") and " volatile " in f" {instruction.text} ":
        raise NotReplaced(f"the region has a volatile access ({_where(instruction)})")
    if opcode == "store" and instruction not in allowed_stores:
        raise NotReplaced(f"the region stores elsewhere too ({_where(instruction)})")
    if opcode in ("call", "invoke") and not is_pure_call(instruction):
        callee = instruction.callee or "an indirect function"
        raise NotReplaced(f"the region calls {callee}, which may have side effects")


def _check_escape(region: Region, instruction: Value, allowed: set[Value]) -> None:
    for user in instruction.users:
        if user.block in region.blocks:
            continue
        if user.block is region.exit and user.opcode == "phi" and instruction in allowed:
            continue
        raise NotReplaced(f"{instruction.name} is used after the loop ({_where(user)})")


def _check_control_flow(
    region: Region, loops: list[LoopView], data_loops: list[LoopView], conditional: set[Value]
) -> list[tuple[Value, bool]]:
    headers = {lp.iterator.block for lp in loops + data_loops}
    conditions: list[tuple[Value, bool]] = []
    for block in region.blocks:
        terminator = block.terminator
        if terminator.opcode == "br" and len(terminator.operands) == 0:
            continue
        if terminator.opcode != "br":
            raise NotReplaced(f"the region has a {terminator.opcode} ({_where(terminator)})")
        if any(header in block.successors for header in headers):
            continue  # a matched loop's latch (going round again)
        if any(_tests_bounds(terminator, loop) for loop in data_loops):
            continue  # the kernel's own loop makes the same test
        if terminator in conditional:
            continue  # the kernel makes the same test
        entering = _entered_successor(terminator, loops)
        if entering is None or _varies(terminator.operands[0], region):
            raise NotReplaced(f"the region has conditional code ({_where(terminator)})")
        conditions.append((terminator.operands[0], entering == 0))
    return conditions


def _entered_successor(branch: Value, loops: list[LoopView]) -> int | None:
    """Which successor of `branch` is the preheader of a matched inner loop, if one is:
    the branch is that loop's zero-trip guard."""
    assert branch.block is not None
    for loop in loops:
        header = loop.iterator.block
        assert header is not None
        # The preheader enters the header from outside the loop (the latch is inside).
        preheaders = {
            p
            for p in header.predecessors
            if p.terminator.opcode == "br" and not _inside(header, p, loop)
        }
        entered = [i for i, s in enumerate(branch.block.successors) if s in preheaders]
        if len(entered) == 1:
            return entered[0]
    return None


def _inside(header: Block, block: Block, loop: LoopView) -> bool:
    """`block`, a predecessor of the loop's header, is its latch: the counter's next value,
    not its first, comes from there."""
    incoming = dict((b, v) for v, b in loop.iterator.incoming)
    return block in incoming and incoming[block] is not loop.iter_begin


def _tests_bounds(branch: Value, loop: LoopView) -> bool:
    """`branch` enters `loop` exactly when `iter_begin < iter_end` (a loop whose bounds are
    data, run by a kernel as `for (p = begin; p < end; p++)`)."""
    entering = _entered_successor(branch, [loop])
    condition = branch.operands[0]
    if entering is None or condition.opcode != "icmp" or loop.step != 1:
        return False
    predicate = condition.predicate or ""
    if entering == 1:
        predicate = {"sge": "slt", "uge": "ult", "sle": "sgt", "ule": "ugt"}.get(predicate, "")
    bounds = (loop.iter_begin, loop.iter_end)
    if tuple(condition.operands) == bounds:
        return predicate in ("slt", "ult")
    if tuple(condition.operands) == bounds[::-1]:
        return predicate in ("sgt", "ugt")
    return False


def _varies(value: Value, region: Region) -> bool:
    """Whether `value` may differ between iterations (depends on a phi or a load inside)."""
    seen: set[Value] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in seen or current.block not in region.blocks:
            continue
        seen.add(current)
        if current.opcode in ("phi", "load", "call"):
            return True
        stack.extend(current.operands)
    return False


def guard_conditions(
    builder: Builder, region: Region, conditions: Sequence[tuple[Value, bool]]
) -> Operand:
    """i1: every zero-trip guard inside the region lets its inner loop run. Such a guard
    depends only on values fixed before the region, so it is evaluated once, up front."""
    checks = []
    for condition, entering_when in conditions:
        value = Cloner(builder, region.blocks, {}, affine=False).value(condition)
        checks.append(
            builder.compare("eq", value, const("i1", "true" if entering_when else "false"))
        )
    return builder.all_of(checks)


def depends_on(value: Value, source: Value, region: Region) -> bool:
    """Whether `source` reaches `value` through operands computed inside the region."""
    seen: set[Value] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current is source:
            return True
        if current in seen or current.block not in region.blocks:
            continue
        seen.add(current)
        stack.extend(current.operands)
    return False


def _where(value: Value) -> str:
    location = value.location
    return f"line {location.line}" if location else value.name or value.opcode or "?"
