"""Per-function indexes the atoms generate candidates from, built once per function.

Everything here is derived from `matcher.ir` and nothing else: the sets a unary atom
admits, the relations a binary atom walks (dominator blocks, operand positions,
successor positions) and reachability on the instruction-level control-flow graph and
on the operand-to-user data-flow graph. Sets that are not needed by every program are
computed on first use and cached on the index, so a function pays for what its
programs ask.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from matcher.analysis import immediate_dominators
from matcher.footprint import Footprints
from matcher.ir import Block, Function, Value, ValueKind
from matcher.layout import outside_element

__all__ = ["FunctionIndex", "index_of", "unique"]

T = TypeVar("T")
Graph = Callable[[Value], Sequence[Value]]

# Reachability sets are O(n) each; bound the cache so a pathological program cannot
# keep O(n^2) of them alive.
_REACH_CACHE_LIMIT = 4096

_INDEXES: weakref.WeakKeyDictionary[Function, FunctionIndex] = weakref.WeakKeyDictionary()


def index_of(function: Function) -> FunctionIndex:
    """The index of `function`, built on first use and kept as long as the function lives."""
    index = _INDEXES.get(function)
    if index is None:
        index = FunctionIndex(function)
        _INDEXES[function] = index
    return index


def unique(items: Iterable[T]) -> tuple[T, ...]:
    """The items without repeats, in order (identity-hashed values)."""
    return tuple(dict.fromkeys(items))


class FunctionIndex:
    """Values of a function grouped the ways candidate generation needs them."""

    def __init__(self, function: Function) -> None:
        # A weak reference: `index_of` keeps indexes in a WeakKeyDictionary, whose
        # entries would never go if the value held its key.
        self._function = weakref.ref(function)
        self.values = function.values
        self.instructions = function.instructions
        self.size = len(function.values)
        self.domain: tuple[Value | None, ...] = (*function.values, None)
        blocks = function.blocks
        self.block_firsts = tuple(block.first for block in blocks)
        self.terminators = tuple(block.terminator for block in blocks)
        self.phis = tuple(v for v in function.instructions if v.opcode == "phi")
        self.with_users = tuple(v for v in function.values if v.users)
        self.with_operands = tuple(v for v in function.instructions if v.operands)
        self.cf_sources = tuple(v for v in function.instructions if function.successors(v))
        self.cf_targets = tuple(v for v in function.instructions if function.predecessors(v))
        self.sizes: dict[tuple[object, ...], int] = {}  # projection sizes, for estimates
        self._unary: dict[object, tuple[Value, ...]] = {}
        self._operand_at: dict[int, tuple[Value, ...]] = {}
        self._users_at: dict[int, tuple[Value, ...]] = {}
        self._successor_at: dict[int, tuple[Value, ...]] = {}
        self._branching_at: dict[int, tuple[Value, ...]] = {}
        self._block_dom: dict[tuple[Block, bool, bool], tuple[Block, ...]] = {}
        self._strict_ends: dict[tuple[bool, bool], tuple[Value, ...]] = {}
        self._reach: dict[tuple[bool, bool, Value, Value | None], frozenset[Value]] = {}
        self._within: dict[tuple[Value, int, bool], frozenset[Value]] = {}
        self._must_pass: dict[tuple[bool, Value, Value], frozenset[Value] | None] = {}
        self._outside: tuple[Value, ...] | None = None
        self._footprints: Footprints | None = None
        self._accesses: dict[bool, tuple[Value, ...]] = {}
        self._stepping: dict[bool, tuple[Value, ...]] = {}

    @property
    def function(self) -> Function:
        function = self._function()
        assert function is not None, "the index outlived its function"
        return function

    # -- unary sets ------------------------------------------------------------------

    def unary(self, key: object, test: Callable[[Value], bool]) -> tuple[Value, ...]:
        """The values passing `test`, cached under `key` (the atom kind and detail)."""
        found = self._unary.get(key)
        if found is None:
            found = tuple(v for v in self.values if test(v))
            self._unary[key] = found
        return found

    @property
    def outside_elements(self) -> tuple[Value, ...]:
        """Constant getelementptrs that leave the element their base points to."""
        if self._outside is None:
            self._outside = tuple(
                v
                for v in self.instructions
                if v.byte_offset is not None and v.operands and outside_element(v, v.operands[0])
            )
        return self._outside

    @property
    def left_elements(self) -> tuple[Value, ...]:
        """The bases of `outside_elements`."""
        return unique(v.operands[0] for v in self.outside_elements)

    @property
    def footprints(self) -> Footprints:
        """What the function's loads and stores touch (`matcher.footprint`)."""
        if self._footprints is None:
            self._footprints = Footprints(self.function)
        return self._footprints

    def access_partners(self, access: Value, *, apart: bool) -> tuple[Value, ...]:
        """The loads and stores that never overlap `access` (`apart`), or that have its
        address."""
        prints = self.footprints
        test = prints.never_overlap if apart else prints.same_address
        return tuple(v for v in prints.accesses(access) if test(access, v))

    def step_partners(self, access: Value, *, ahead: bool) -> tuple[Value, ...]:
        """The loads and stores one step ahead of `access` (`ahead`), or behind it."""
        prints = self.footprints
        if ahead:
            return tuple(v for v in prints.accesses(access) if prints.step_behind(access, v))
        return tuple(v for v in prints.accesses(access) if prints.step_behind(v, access))

    def stepping_accesses(self, *, ahead: bool) -> tuple[Value, ...]:
        """The loads and stores with an access one step ahead of them (`ahead`), or behind."""
        found = self._stepping.get(ahead)
        if found is None:
            found = tuple(
                v
                for v in self.instructions
                if v.opcode in ("load", "store") and self.step_partners(v, ahead=ahead)
            )
            self._stepping[ahead] = found
        return found

    def related_accesses(self, *, apart: bool) -> tuple[Value, ...]:
        """The loads and stores with at least one partner (see `access_partners`)."""
        found = self._accesses.get(apart)
        if found is None:
            found = tuple(
                v
                for v in self.instructions
                if v.opcode in ("load", "store") and self.access_partners(v, apart=apart)
            )
            self._accesses[apart] = found
        return found

    # -- operand and successor positions ---------------------------------------------

    def operand_at(self, position: int) -> tuple[Value, ...]:
        """Values that are operand number `position` of some instruction."""
        found = self._operand_at.get(position)
        if found is None:
            found = unique(
                v.operands[position] for v in self.instructions if len(v.operands) > position
            )
            self._operand_at[position] = found
        return found

    def users_at(self, position: int) -> tuple[Value, ...]:
        """Instructions that have an operand number `position`."""
        found = self._users_at.get(position)
        if found is None:
            found = tuple(v for v in self.instructions if len(v.operands) > position)
            self._users_at[position] = found
        return found

    def successor_at(self, position: int) -> tuple[Value, ...]:
        """First instructions of blocks that are successor number `position` of a block."""
        found = self._successor_at.get(position)
        if found is None:
            found = unique(
                b.successors[position].first
                for b in self.function.blocks
                if len(b.successors) > position
            )
            self._successor_at[position] = found
        return found

    def branching_at(self, position: int) -> tuple[Value, ...]:
        """Terminators with a successor number `position`."""
        found = self._branching_at.get(position)
        if found is None:
            found = tuple(
                b.terminator for b in self.function.blocks if len(b.successors) > position
            )
            self._branching_at[position] = found
        return found

    # -- dominance -------------------------------------------------------------------

    def related_blocks(self, block: Block, *, post: bool, upward: bool) -> tuple[Block, ...]:
        """Blocks that (post-)dominate `block` (upward) or that it (post-)dominates."""
        key = (block, post, upward)
        found = self._block_dom.get(key)
        if found is None:
            tree = self.function.post_dominators if post else self.function.dominators
            blocks = self.function.blocks
            if upward:
                found = tuple(x for x in blocks if tree.block_dominates(x, block))
            else:
                found = tuple(y for y in blocks if tree.block_dominates(block, y))
            self._block_dom[key] = found
        return found

    def dominance_partners(
        self, value: Value, *, post: bool, strict: bool, upward: bool
    ) -> tuple[Value, ...]:
        """Instructions that (post-)dominate `value` (upward) or that it (post-)dominates.

        Mirrors `DominatorTree.instruction_dominates`: inside one block the order of the
        instructions decides, across blocks the block tree does.
        """
        block = value.block
        if block is None or value.kind is not ValueKind.INSTRUCTION:
            return ()
        # Forward dominance looks at earlier instructions when going up; post-dominance
        # at later ones.
        earlier = upward != post
        result: list[Value] = []
        for other in self.related_blocks(block, post=post, upward=upward):
            if other is not block:
                result.extend(other.instructions)
            elif earlier:
                end = value.position if strict else value.position + 1
                result.extend(block.instructions[:end])
            else:
                start = value.position + 1 if strict else value.position
                result.extend(block.instructions[start:])
        return tuple(result)

    def strict_dominance_ends(self, *, post: bool, upward: bool) -> tuple[Value, ...]:
        """Instructions with at least one strict (post-)dominance partner in direction."""
        key = (post, upward)
        found = self._strict_ends.get(key)
        if found is None:
            found = tuple(
                v
                for v in self.instructions
                if self._has_strict_partner(v, post=post, upward=upward)
            )
            self._strict_ends[key] = found
        return found

    def _has_strict_partner(self, value: Value, *, post: bool, upward: bool) -> bool:
        block = value.block
        assert block is not None
        earlier = upward != post
        if (value.position > 0) if earlier else (value.position < len(block.instructions) - 1):
            return True
        return len(self.related_blocks(block, post=post, upward=upward)) > 1

    # -- reachability ----------------------------------------------------------------

    def graph(self, *, data: bool, forward: bool) -> Graph:
        if data:
            return _users if forward else _operands
        return self.function.successors if forward else self.function.predecessors

    def nodes(self, *, data: bool) -> tuple[Value, ...]:
        return self.values if data else self.instructions

    def reach(
        self, start: Value, avoid: Value | None, *, data: bool, forward: bool
    ) -> frozenset[Value]:
        """Nodes reachable from `start` (itself included) on paths that never enter `avoid`."""
        key = (data, forward, start, avoid)
        found = self._reach.get(key)
        if found is None:
            if len(self._reach) >= _REACH_CACHE_LIMIT:
                self._reach.clear()
            found = _search(start, avoid, self.graph(data=data, forward=forward))
            self._reach[key] = found
        return found

    def data_flow_within(self, start: Value, steps: int, *, forward: bool) -> frozenset[Value]:
        """The values `start` reaches in at most `steps` steps of data flow, from operand to
        user (`forward`) or back (itself included)."""
        key = (start, steps, forward)
        found = self._within.get(key)
        if found is None:
            if len(self._within) >= _REACH_CACHE_LIMIT:
                self._within.clear()
            edges = self.graph(data=True, forward=forward)
            seen = {start}
            frontier = [start]
            for _ in range(steps):
                frontier = [n for v in frontier for n in edges(v) if n not in seen]
                seen.update(frontier)
            found = frozenset(seen)
            self._within[key] = found
        return found

    def must_pass(self, start: Value, end: Value, *, data: bool) -> frozenset[Value] | None:
        """Nodes on every path from `start` to `end` (both included); None if none exists."""
        key = (data, start, end)
        if key in self._must_pass:
            return self._must_pass[key]
        reached = self.reach(start, None, data=data, forward=True)
        found: frozenset[Value] | None = None
        if end in reached:
            successors = self.graph(data=data, forward=True)
            predecessors = self.graph(data=data, forward=False)
            found = _dominators_of(start, end, reached, successors, predecessors)
        if len(self._must_pass) >= _REACH_CACHE_LIMIT:
            self._must_pass.clear()
        self._must_pass[key] = found
        return found


def _users(value: Value) -> Sequence[Value]:
    return value.users


def _operands(value: Value) -> Sequence[Value]:
    return value.operands


def _search(start: Value, avoid: Value | None, edges: Graph) -> frozenset[Value]:
    if start is avoid:
        return frozenset()
    seen = {start}
    work = [start]
    while work:
        for nxt in edges(work.pop()):
            if nxt not in seen and nxt is not avoid:
                seen.add(nxt)
                work.append(nxt)
    return frozenset(seen)


def _dominators_of(
    root: Value, target: Value, reached: frozenset[Value], successors: Graph, predecessors: Graph
) -> frozenset[Value]:
    """The dominators of `target` in the graph reachable from `root`: the nodes every
    root-to-target path visits."""
    idom = immediate_dominators([root], successors, predecessors)
    chain = {target}
    at: Value | None = target
    while at is not None:
        at = idom.get(at)
        if at is not None:
            chain.add(at)
    return frozenset(chain)
