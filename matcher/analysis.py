"""Dominance, post-dominance and natural loops over the blocks of a function.

Trees are computed on blocks (Cooper, Harvey and Kennedy's iterative algorithm over
reverse post-order) and queried at instruction level: inside a block the instructions
form a chain, so `a` dominates `b` when they share a block and `a` comes first, or when
`a`'s block strictly dominates `b`'s. A DFS numbering of the tree answers each query in
constant time.

Post-dominance is dominance on the reversed graph from a virtual exit whose
predecessors are the blocks without successors (returns, `unreachable`). A block that
cannot reach any of them (an infinite loop) would be outside the tree; as LLVM does, one
block of each such region becomes an extra root, so every block is in the tree.
Unreachable blocks are left out of the dominator tree: an instruction in one dominates
only itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from matcher.ir import Block, Value

__all__ = [
    "DominatorTree",
    "Loop",
    "LoopInfo",
    "dominator_tree",
    "find_loops",
    "immediate_dominators",
    "post_dominator_tree",
    "reverse_post_order",
]

Edges = Callable[[Block], Sequence[Block]]
Node = TypeVar("Node", bound=Hashable)


class DominatorTree:
    """Immediate dominators of blocks, with O(1) dominance queries."""

    def __init__(self, idom: dict[Block, Block | None], *, reverse: bool) -> None:
        self.idom = idom  # root(s) map to None; blocks outside the tree are absent
        self.reverse = reverse  # True for post-dominance: chains run the other way
        children: dict[Block | None, list[Block]] = {}
        for block, parent in idom.items():
            children.setdefault(parent, []).append(block)
        self._enter: dict[Block, int] = {}
        self._leave: dict[Block, int] = {}
        clock = 0
        stack: list[tuple[Block, bool]] = [(root, False) for root in children.get(None, [])]
        while stack:
            block, done = stack.pop()
            if done:
                self._leave[block] = clock
                clock += 1
                continue
            self._enter[block] = clock
            clock += 1
            stack.append((block, True))
            stack.extend((child, False) for child in children.get(block, []))

    def contains(self, block: Block) -> bool:
        return block in self._enter

    def block_dominates(self, a: Block, b: Block) -> bool:
        if a not in self._enter or b not in self._enter:
            return a is b
        return self._enter[a] <= self._enter[b] and self._leave[b] <= self._leave[a]

    def instruction_dominates(self, a: Value, b: Value, *, strict: bool = False) -> bool:
        if a.block is None or b.block is None:
            return False
        if a is b:
            return not strict
        if a.block is b.block:
            before = a.position < b.position
            return not before if self.reverse else before
        return self.block_dominates(a.block, b.block)


def dominator_tree(blocks: Sequence[Block]) -> DominatorTree:
    if not blocks:
        return DominatorTree({}, reverse=False)
    entry = blocks[0]
    idom = immediate_dominators([entry], lambda b: b.successors, lambda b: b.predecessors)
    return DominatorTree(idom, reverse=False)


def post_dominator_tree(blocks: Sequence[Block]) -> DominatorTree:
    roots = [b for b in blocks if not b.successors]
    reaching = _reachable(roots, lambda b: b.predecessors)
    # Infinite loops: add the last block (in layout order) of each region that cannot
    # reach an exit as an extra root, until every block is covered.
    for block in reversed(blocks):
        if block not in reaching:
            roots.append(block)
            reaching |= _reachable([block], lambda b: b.predecessors)
    idom = immediate_dominators(roots, lambda b: b.predecessors, lambda b: b.successors)
    return DominatorTree(idom, reverse=True)


def _reachable(starts: Sequence[Block], edges: Edges) -> set[Block]:
    seen = set(starts)
    work = list(starts)
    while work:
        for nxt in edges(work.pop()):
            if nxt not in seen:
                seen.add(nxt)
                work.append(nxt)
    return seen


def immediate_dominators(
    roots: Sequence[Node],
    forward: Callable[[Node], Sequence[Node]],
    backward: Callable[[Node], Sequence[Node]],
) -> dict[Node, Node | None]:
    """Cooper-Harvey-Kennedy over the nodes reachable from `roots`, with a virtual root
    above them (index 0 of the numbering): each node's immediate dominator, None for
    the roots. Used for blocks here and for values by the atoms' path queries."""
    order = reverse_post_order(roots, forward)
    number = {node: i + 1 for i, node in enumerate(order)}  # 0 is the virtual root
    idom = [-1] * (len(order) + 1)
    idom[0] = 0
    for root in roots:
        idom[number[root]] = 0
    root_set = set(roots)

    def intersect(a: int, b: int) -> int:
        while a != b:
            while a > b:
                a = idom[a]
            while b > a:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for node in order:
            if node in root_set:
                continue
            new = -1
            for pred in backward(node):
                p = number.get(pred)
                if p is None or idom[p] == -1:
                    continue
                new = p if new == -1 else intersect(p, new)
            if new != -1 and idom[number[node]] != new:
                idom[number[node]] = new
                changed = True
    result: dict[Node, Node | None] = {}
    for node in order:
        parent = idom[number[node]]
        result[node] = None if parent == 0 else order[parent - 1]
    return result


def reverse_post_order(
    roots: Sequence[Node], forward: Callable[[Node], Sequence[Node]]
) -> list[Node]:
    """Every node reachable from `roots`, in reverse post-order of a depth-first walk."""
    seen: set[Node] = set()
    post: list[Node] = []
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        stack: list[tuple[Node, int]] = [(root, 0)]
        while stack:
            node, next_index = stack[-1]
            successors = forward(node)
            if next_index < len(successors):
                stack[-1] = (node, next_index + 1)
                nxt = successors[next_index]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, 0))
            else:
                stack.pop()
                post.append(node)
    post.reverse()
    return post


@dataclass(eq=False)
class Loop:
    """A natural loop: the union of the bodies of every back edge to one header."""

    header: Block
    latches: tuple[Block, ...]
    blocks: frozenset[Block]
    exits: tuple[Block, ...]  # blocks outside the loop entered from inside it
    exiting: tuple[Block, ...]  # blocks inside the loop with an edge out
    parent: Loop | None = None
    children: list[Loop] = field(default_factory=list)

    @property
    def depth(self) -> int:
        return 1 if self.parent is None else self.parent.depth + 1

    @property
    def preheader(self) -> Block | None:
        """The single block outside the loop that enters the header, if there is one."""
        outside = [p for p in self.header.predecessors if p not in self.blocks]
        return outside[0] if len(outside) == 1 else None

    def __repr__(self) -> str:
        return f"<loop {self.header.name} depth={self.depth} blocks={len(self.blocks)}>"


class LoopInfo:
    """Every natural loop of a function, outermost first, and the innermost loop of a block."""

    def __init__(self, loops: list[Loop]) -> None:
        self.loops = loops
        self._innermost: dict[Block, Loop] = {}
        for loop in sorted(loops, key=lambda lp: len(lp.blocks), reverse=True):
            for block in loop.blocks:
                self._innermost[block] = loop  # smaller loops come later and win

    @property
    def top_level(self) -> list[Loop]:
        return [loop for loop in self.loops if loop.parent is None]

    def innermost(self, block: Block) -> Loop | None:
        return self._innermost.get(block)

    def depth(self, block: Block) -> int:
        loop = self._innermost.get(block)
        return 0 if loop is None else loop.depth


def find_loops(blocks: Sequence[Block], dominators: DominatorTree) -> LoopInfo:
    bodies: dict[Block, set[Block]] = {}
    latches: dict[Block, list[Block]] = {}
    for block in blocks:
        for succ in block.successors:
            if dominators.contains(block) and dominators.block_dominates(succ, block):
                latches.setdefault(succ, []).append(block)
                body = bodies.setdefault(succ, {succ})
                _collect_body(block, body, dominators)
    loops = []
    for header, body in bodies.items():
        members = frozenset(body)
        exiting = tuple(
            b for b in blocks if b in members and any(s not in members for s in b.successors)
        )
        exits = tuple(dict.fromkeys(s for b in exiting for s in b.successors if s not in members))
        loops.append(Loop(header, tuple(latches[header]), members, exits, exiting))
    loops.sort(key=lambda lp: lp.header.index)
    _nest(loops)
    return LoopInfo(loops)


def _collect_body(latch: Block, body: set[Block], dominators: DominatorTree) -> None:
    # Walk back from the latch to the header (already in `body`), skipping unreachable code.
    work = [latch]
    while work:
        block = work.pop()
        if block in body or not dominators.contains(block):
            continue
        body.add(block)
        work.extend(block.predecessors)


def _nest(loops: list[Loop]) -> None:
    by_size = sorted(loops, key=lambda lp: len(lp.blocks))
    for i, inner in enumerate(by_size):
        for outer in by_size[i + 1 :]:
            if inner.header in outer.blocks and outer is not inner:
                inner.parent = outer
                outer.children.append(inner)
                break
