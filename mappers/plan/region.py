"""The region a match covers, and the static legality rules of IDIOMS.md.

A region is the outermost loop of a match: entered from its preheader's branch
{precursor}, left through its single exit block (the block of {successor}), from its
latch or from a branch ahead of it on the latch's own test (loops.idl's EarlyExit: the
mapper takes it as a test that skips the rest of the last trip). It may also leave to a
block that does nothing and goes where the exit block goes (region_of's _joins_exit):
leaving there is leaving to the exit. Before a
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

Fixed values. The idioms may bind a loop bound, an array's base pointer or a leading
dimension to a load inside the region from an address computed before it (`m->rows`,
`m->val`: a struct field the compiler could not hoist, because a store of the loop
might write it, or because the load runs only when an inner loop does). A mapper that
passes `fixed_loads=True` to `check_legal` and `guard_conditions` gets those values
loaded once, ahead of the region, from the same address (`Builder.known`), and must
check at run time, with `access.apart_from_fixed`, that no store of the region can
write their bytes: then the value read once is the value every iteration reads. Only
plain loads (not volatile, not atomic) of scalars and pointers qualify. A load is made
ahead of the region only where the original is known to make it: the guard evaluates
the inner loops' zero-trip guards in stages (a guard may itself test a fixed value, as
`m->cols > 0`), and loads a fixed value once the guards under which its block runs are
known to hold; a fixed value read only under a data-dependent test (a CSR row that has
entries) is refused there (`Builder.refused`), and a mapper that knows when the test
holds may load it then (`load_fixed`). A loop bound may also be such a load moved by a
constant inside the region (`grid_points[0] - 2`): it is computed ahead from the value
loaded once (`is_fixed_bound`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from mappers.plan.granularity import check_launch_granularity
from mappers.plan.loops import LoopView
from mappers.rewrite.emit import CLONABLE, Builder, Cloner, NotReplaced, const
from mappers.rewrite.irtext import Operand
from matcher.analysis import Loop
from matcher.atoms import is_pure_call
from matcher.integers import int_constant
from matcher.ir import Block, Function, Value

__all__ = [
    "Region",
    "check_legal",
    "depends_on",
    "fixed_values",
    "flows_from",
    "guard_conditions",
    "is_fixed_load",
    "load_fixed",
    "recomputable",
    "region_of",
    "runs_with",
    "source_place",
]


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
    assert successor.block is not None
    exit = successor.block
    if (
        loop is None
        or len(loop.latches) != 1
        or exit not in loop.exits
        or not all(_joins_exit(b, exit, loop.blocks) for b in loop.exits if b is not exit)
    ):
        raise NotReplaced("the region is not a loop with one latch and one exit")
    if precursor.opcode != "br" or len(precursor.operands) != 0:
        raise NotReplaced("the loop has no preheader")
    if successor.position != 0:
        raise NotReplaced("the loop's exit is not the match's successor")
    latch = loop.latches[0]
    others = set(successor.block.predecessors) - {latch}
    if latch not in successor.block.predecessors or not all(
        _leaves_as_latch(b, latch, successor.block, loop.blocks) for b in others
    ):
        raise NotReplaced("the loop's exit block is shared with other paths")
    if others and any(i.opcode == "phi" for i in successor.block.instructions):
        raise NotReplaced("the loop leaves early with values live after it")
    return Region(function, loop, precursor, successor.block)


def _joins_exit(block: Block, exit: Block, blocks: frozenset[Block]) -> bool:
    """`block`, another block the loop leaves to (from inside only), does nothing and
    computes nothing used outside it, and goes on, as the loop's `exit` does (that block
    doing nothing else either), to one block with no phis: leaving there is leaving to
    `exit`. (LLVM's `critedge` block where a row loop inlined into its caller leaves at
    its header's test: the counter's final value, dead.)"""
    if not all(p in blocks for p in block.predecessors):
        return False
    ends = (block.terminator, exit.terminator)
    if any(end.opcode != "br" or end.operands for end in ends) or len(exit.instructions) != 1:
        return False
    if block.successors != exit.successors:
        return False
    if any(i.opcode == "phi" for i in block.successors[0].instructions):
        return False
    return all(
        i.opcode in _DEAD_END_OPCODES and all(u.block is block for u in i.users)
        for i in block.instructions[:-1]
    )


# What a block joining the loop's exit may compute (for nothing: its values are unused)
_DEAD_END_OPCODES = frozenset(
    {"phi", "add", "sub", "mul", "shl", "and", "or", "xor", "sext", "zext", "trunc", "icmp"}
)


def _leaves_as_latch(block: Block, latch: Block, exit: Block, blocks: frozenset[Block]) -> bool:
    """`block`, in the loop, leaves it to `exit` on the latch's own test (the same value,
    the same way round): leaving there is leaving at the latch (loops.idl's EarlyExit)."""
    early, end = block.terminator, latch.terminator
    if block not in blocks or early.opcode != "br" or len(early.operands) != 1:
        return False
    if end.opcode != "br" or len(end.operands) != 1 or early.operands[0] is not end.operands[0]:
        return False
    return exit in block.successors and block.successors.index(exit) == latch.successors.index(exit)


def check_legal(
    region: Region,
    *,
    stores: Iterable[Value],
    results: Iterable[Value],
    loops: Iterable[LoopView],
    data_loops: Iterable[LoopView] = (),
    conditional: Iterable[Value] = (),
    fixed_loads: bool = False,
    edges: Iterable[Value] = (),
) -> list[tuple[Value, bool]]:
    """Raise NotReplaced unless the region meets the static rules above. Returns the
    zero-trip guards of inner loops (condition, value that enters the loop): the plan's
    run-time guard must check them with `guard_conditions`. `conditional` are branches
    whose condition the kernel evaluates itself, at every iteration (a histogram's
    conditional update). With `fixed_loads`, bounds and zero-trip guards may be loads
    from fixed addresses (see the module's documentation). `edges` are bounds computed in
    the region that the caller checks itself (a triangle's edge, i <= j)."""
    loops = list(loops)
    allowed_stores, allowed_results, own = set(stores), set(results), set(edges)
    for loop in loops:
        for bound in (loop.iter_begin, loop.iter_end):
            if bound in own:
                continue
            if bound.block in region.blocks and not (fixed_loads and is_fixed_bound(bound, region)):
                raise NotReplaced(f"a loop bound ({bound.name}) is read inside the region")
    check_launch_granularity(region.loop, loops)
    for block in region.blocks:
        for instruction in block.instructions:
            _check_effect(instruction, allowed_stores)
            _check_escape(region, instruction, allowed_results, fixed_loads=fixed_loads)
    return _check_control_flow(region, loops, list(data_loops), set(conditional), fixed_loads)


def _check_effect(instruction: Value, allowed_stores: set[Value]) -> None:
    opcode = instruction.opcode
    if opcode in ("atomicrmw", "cmpxchg", "fence"):
        raise NotReplaced(f"the region has an atomic operation ({source_place(instruction)})")
    if opcode in ("load", "store") and " volatile " in f" {instruction.text} ":
        raise NotReplaced(f"the region has a volatile access ({source_place(instruction)})")
    if opcode in ("load", "store") and " atomic " in f" {instruction.text} ":
        raise NotReplaced(f"the region has an atomic access ({source_place(instruction)})")
    if opcode == "store" and instruction not in allowed_stores:
        raise NotReplaced(f"the region stores elsewhere too ({source_place(instruction)})")
    if opcode in ("call", "invoke") and not is_pure_call(instruction):
        callee = instruction.callee or "an indirect function"
        raise NotReplaced(f"the region calls {callee}, which may have side effects")


def _check_escape(
    region: Region, instruction: Value, allowed: set[Value], *, fixed_loads: bool
) -> None:
    for user in instruction.users:
        if user.block in region.blocks:
            continue
        if user.block is not region.exit and user.block in region.loop.exits:
            continue  # another exit, which uses nothing after it (region_of)
        if (
            user.block is region.exit
            and user.opcode == "phi"
            and (instruction in allowed or (fixed_loads and recomputable(instruction, region)))
        ):
            continue
        raise NotReplaced(f"{instruction.name} is used after the loop ({source_place(user)})")


def _check_control_flow(
    region: Region,
    loops: list[LoopView],
    data_loops: list[LoopView],
    conditional: set[Value],
    fixed_loads: bool,
) -> list[tuple[Value, bool]]:
    headers = {lp.iterator.block for lp in loops + data_loops}
    conditions: list[tuple[Value, bool]] = []
    for block in region.blocks:
        terminator = block.terminator
        if terminator.opcode == "br" and len(terminator.operands) == 0:
            continue
        if terminator.opcode != "br":
            raise NotReplaced(f"the region has a {terminator.opcode} ({source_place(terminator)})")
        if any(header in block.successors for header in headers):
            continue  # a matched loop's latch (going round again)
        if any(_tests_bounds(terminator, loop) for loop in data_loops):
            continue  # the kernel's own loop makes the same test
        if terminator in conditional:
            continue  # the kernel makes the same test
        entering = _entered_successor(terminator, loops)
        if entering is None or _varies(terminator.operands[0], region, fixed_loads):
            raise NotReplaced(f"the region has conditional code ({source_place(terminator)})")
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
    if predicate in ("sgt", "ugt"):
        predicate = {"sgt": "slt", "ugt": "ult"}[predicate]
        tested = tuple(condition.operands[::-1])
    else:
        tested = tuple(condition.operands)
    if predicate not in ("slt", "ult") or len(tested) != 2:
        return False
    signed = predicate == "slt"
    return _same_bound(tested[0], loop.iter_begin, signed) and _same_bound(
        tested[1], loop.iter_end, signed
    )


def _same_bound(tested: Value, bound: Value, signed: bool) -> bool:
    """`tested` is `bound`, the same integer constant, or the value `bound` extends
    (`sext` where the test is signed, `zext` where it is not): LLVM tests a row length
    read as a char before its extension (`k = nnz[i]` ... `if (nnz[i] > 0)`)."""
    if tested is bound:
        return True
    if int_constant(tested) is not None:
        return int_constant(tested) == int_constant(bound)
    extension = "sext" if signed else "zext"
    return bound.opcode == extension and bound.operands[0] is tested


def _varies(value: Value, region: Region, fixed_loads: bool) -> bool:
    """Whether `value` may differ between iterations (depends on a phi or a load inside,
    other than a load from a fixed address when those are allowed)."""
    seen: set[Value] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in seen or current.block not in region.blocks:
            continue
        seen.add(current)
        if fixed_loads and is_fixed_load(current, region):
            continue
        if current.opcode in ("phi", "load", "call"):
            return True
        stack.extend(current.operands)
    return False


_FIXED_TYPES = {"i8", "i16", "i32", "i64", "ptr", "float", "double"}
# What a fixed value is taken to be where it is not loaded (then the guard fails, or the
# value is not used): a divisor that cannot trap, a null pointer never dereferenced.
_PLACEHOLDER = {"ptr": "null", "float": "0.000000e+00", "double": "0.000000e+00"}


def recomputable(value: Value, region: Region) -> bool:
    """`value`, computed in the region, is the same in every iteration: arithmetic (or
    pure calls) on fixed loads, constants and values from before the region. After the
    region it is computed again from the fixed values loaded ahead (the rewriter's exit
    phis), as NAS BT's `tmp1 = dt * tx1`, stored after its loop once licm moved the store
    out, is: the mapper checks at run time that no store of the region writes a fixed
    value's bytes, so the value of the last iteration is that one."""
    return _recomputable(value, region, {})


def _recomputable(value: Value, region: Region, known: dict[Value, bool]) -> bool:
    """`recomputable`, each value of the region's data flow judged once (`known`)."""
    if not value.is_instruction or value.block not in region.blocks:
        return True
    if value not in known:
        if value.opcode == "load":
            known[value] = is_fixed_load(value, region)
        elif value.opcode in CLONABLE or (value.opcode == "call" and is_pure_call(value)):
            known[value] = all(_recomputable(o, region, known) for o in value.operands)
        else:
            known[value] = False
    return known[value]


def is_fixed_load(value: Value, region: Region) -> bool:
    """`value` is a plain load inside the region from an address computed before it."""
    if value.opcode != "load" or value.block not in region.blocks:
        return False
    text = f" {value.text} "
    return (
        " volatile " not in text
        and " atomic " not in text
        and value.type in _FIXED_TYPES
        and value.operands[0].block not in region.blocks
    )


def is_fixed_bound(value: Value, region: Region) -> bool:
    """`value` is a fixed load, or one moved by a constant inside the region (a bound
    `grid_points[0] - 2` whose array is reloaded on every trip): `guard_conditions`
    computes the latter ahead of the region from the value it loads once."""
    if is_fixed_load(value, region):
        return True
    return (
        value.opcode == "add"
        and value.block in region.blocks
        and len(value.operands) == 2
        and is_fixed_load(value.operands[0], region)
        and int_constant(value.operands[1]) is not None
    )


def fixed_values(region: Region) -> list[Value]:
    """The region's loads from fixed addresses, in the order of its blocks."""
    return [
        instruction
        for block in region.function.blocks
        if block in region.blocks
        for instruction in block.instructions
        if is_fixed_load(instruction, region)
    ]


def guard_conditions(
    builder: Builder,
    region: Region,
    conditions: Sequence[tuple[Value, bool]],
    *,
    fixed_loads: bool = False,
) -> Operand:
    """i1: every zero-trip guard inside the region lets its inner loop run. Such a guard
    depends only on values fixed before the region, so it is evaluated once, up front.
    With `fixed_loads`, first of all in the guard: loads the region's fixed values ahead
    of it, in stages, each where the original is known to load it (see the module's
    documentation); the guards may test those values."""
    if not fixed_loads:
        return builder.all_of(_guard_check(builder, region, c, e) for c, e in conditions)
    pending = list(conditions)
    candidates = fixed_values(region)
    held: list[tuple[Value, bool]] = []  # the zero-trip guards checked so far
    checks: list[Operand] = []
    progress = True
    while progress:
        runs = runs_with(region, held)
        ready = [v for v in candidates if v not in builder.known and v.block in runs]
        if ready:
            _load(builder, ready, builder.all_of(checks))
        progress = bool(ready)
        for condition, entering_when in list(pending):
            if not _computable(condition, region, builder):
                continue
            checks.append(_guard_check(builder, region, condition, entering_when))
            held.append((condition, entering_when))
            pending.remove((condition, entering_when))
            progress = True
    for value in candidates:
        if value not in builder.known:
            builder.refused.setdefault(
                value,
                f"{value.name} is read only when a condition holds that the guard cannot"
                f" test ({source_place(value)})",
            )
    if pending:
        condition = pending[0][0]
        raise NotReplaced(
            f"an inner loop's guard ({condition.name}) tests a value read only under"
            " a condition the guard cannot test"
        )
    _compute_moved_bounds(builder, region)
    checks.extend(_resolve_reloaded(builder, region))
    return builder.all_of(checks)


def _resolve_reloaded(builder: Builder, region: Region) -> list[Operand]:
    """The region's phis that only take loads of one address (`nc = a.nc` read in each
    header, carried as `phi [%before, %preheader], [%again, %latch]`): each is the value
    loaded once ahead of the region where one of the loads is in the region, from a
    fixed address (the mapper checks that no store of the region writes there), or else
    one of the loads made before it. Returns the i1 checks that every load made before
    the region, which the phi may take, holds that same value."""
    checks: list[Operand] = []
    for block in region.function.blocks:
        if block not in region.blocks:
            continue
        for phi in block.instructions:
            if phi.opcode != "phi":
                break
            resolved = _reloaded_value(builder, region, phi)
            if resolved is None:
                continue
            value, before = resolved
            builder.known[phi] = value
            checks.extend(builder.compare("eq", builder.ref(b), value) for b in before)
    return checks


def _reloaded_value(
    builder: Builder, region: Region, phi: Value
) -> tuple[Operand, list[Value]] | None:
    """The value of a phi of loads of one integer or pointer address, and the loads
    made before the region it must be compared with; None for another phi."""
    if phi in builder.known or phi.type not in ("i8", "i16", "i32", "i64", "ptr"):
        return None
    loads = list(phi.operands)
    if not loads or any(v.opcode != "load" or v.type != phi.type for v in loads):
        return None
    address = loads[0].operands[0]
    if any(v.operands[0] is not address or not _plain(v) for v in loads):
        return None
    inside = [v for v in loads if v.block in region.blocks]
    before = [v for v in loads if v.block not in region.blocks]
    if not inside:
        return builder.ref(before[0]), before[1:]
    if any(not is_fixed_load(v, region) or v not in builder.known for v in inside):
        return None
    return builder.known[inside[0]], before


def _plain(load: Value) -> bool:
    text = f" {load.text} "
    return " volatile " not in text and " atomic " not in text


def _compute_moved_bounds(builder: Builder, region: Region) -> None:
    """The region's fixed loads moved by a constant (`is_fixed_bound`), computed ahead
    from the values loaded once, for the loops' trip counts."""
    for block in region.function.blocks:
        if block not in region.blocks:
            continue
        for instruction in block.instructions:
            if (
                instruction.opcode == "add"
                and instruction not in builder.known
                and is_fixed_bound(instruction, region)
                and instruction.operands[0] in builder.known
            ):
                cloner = Cloner(builder, region.blocks, {}, affine=False)
                builder.known[instruction] = cloner.value(instruction)


def _guard_check(builder: Builder, region: Region, condition: Value, entering: bool) -> Operand:
    value = Cloner(builder, region.blocks, {}, affine=False).value(condition)
    return builder.compare("eq", value, const("i1", "true" if entering else "false"))


def _computable(value: Value, region: Region, builder: Builder) -> bool:
    """Whether `value` can be computed ahead of the region now (every load it depends on
    inside the region is already loaded there)."""
    seen: set[Value] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in seen or current in builder.known or current.block not in region.blocks:
            continue
        seen.add(current)
        if current.opcode in ("phi", "load"):
            return False
        stack.extend(current.operands)
    return True


def runs_with(
    region: Region,
    conditions: Sequence[tuple[Value, bool]],
    entered: Sequence[LoopView] = (),
) -> frozenset[Block]:
    """The blocks every iteration of the region runs when the zero-trip guards of
    `conditions` let their loops run and each data loop of `entered` is entered (its
    bounds test passes): those on every path from the header to the latch, or out of the
    loop early (loops.idl's EarlyExit), once the other edges of those branches are gone."""
    going: dict[Value, int] = {}  # branch: the successor it takes
    for condition, entering_when in conditions:
        for block in region.blocks:
            branch = block.terminator
            if branch.opcode == "br" and branch.operands and branch.operands[0] is condition:
                going[branch] = 0 if entering_when else 1
    for loop in entered:
        for block in region.blocks:
            branch = block.terminator
            if branch.opcode != "br" or len(branch.operands) != 1:
                continue
            side = _entered_successor(branch, [loop])
            if side is not None and _tests_bounds(branch, loop):
                going[branch] = side

    def successors(block: Block) -> list[Block]:
        targets = list(block.successors)
        if block.terminator in going:
            targets = [targets[going[block.terminator]]]
        return [t for t in targets if t is not region.header]

    def ends_without(avoiding: Block) -> bool:
        """Whether an iteration can end, at the latch or leaving the loop, without
        running `avoiding`."""
        seen, stack = {region.header}, [region.header]
        while stack:
            for target in successors(stack.pop()):
                if target is avoiding or target in seen:
                    continue
                if target is region.latch or target not in region.blocks:
                    return True
                seen.add(target)
                stack.append(target)
        return region.header is region.latch

    return frozenset(
        block for block in region.blocks if block is region.header or not ends_without(block)
    )


def load_fixed(builder: Builder, value: Value, when: Operand) -> Operand:
    """Load the fixed value `value` ahead of the region when `when` holds, which the
    caller knows to imply that the original loads it; a placeholder otherwise."""
    _load(builder, [value], when)
    builder.refused.pop(value, None)
    return builder.known[value]


def _load(builder: Builder, values: Sequence[Value], when: Operand) -> None:
    def load(value: Value) -> Operand:
        right_side = value.text.split(", !", 1)[0].split(" = ", 1)[1]
        return builder.emit(value.type, right_side, "fixed")

    if when.ref == "true":
        builder.known.update((value, load(value)) for value in values)
        return
    loads, skip, join = (builder.fresh(part).lstrip("%") for part in ("load", "skip", "join"))
    builder.branch_if(when, loads, skip)
    builder.label(loads)
    loaded = [load(value) for value in values]
    builder.branch(join)
    builder.label(skip)
    builder.branch(join)
    builder.label(join)
    for value, new in zip(values, loaded, strict=True):
        placeholder = _PLACEHOLDER.get(value.type, "1")
        builder.known[value] = builder.emit(
            value.type, f"phi {value.type} [ {new.ref}, %{loads} ], [ {placeholder}, %{skip} ]"
        )


def depends_on(
    value: Value, source: Value, region: Region, *, besides: Iterable[Value] = ()
) -> bool:
    """Whether `source` reaches `value` through operands computed inside the region (and
    not through the values `besides`: another loop's counter that starts from it)."""
    return flows_from(value, source, region.blocks, besides=besides)


def flows_from(
    value: Value, source: Value, blocks: Collection[Block], *, besides: Iterable[Value] = ()
) -> bool:
    """Whether `source` reaches `value` through operands computed in `blocks` (and not
    through the values `besides`)."""
    seen: set[Value] = set(besides) - {source}
    stack = [value]
    while stack:
        current = stack.pop()
        if current is source:
            return True
        if current in seen or current.block not in blocks:
            continue
        seen.add(current)
        stack.extend(current.operands)
    return False


def source_place(value: Value) -> str:
    """Where a value is, for a reason: its source line, else its name or opcode."""
    location = value.location
    return f"line {location.line}" if location else value.name or value.opcode or "?"
