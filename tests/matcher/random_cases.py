"""Seeded generators of small random IR functions and small random constraint programs.

The IR is written as `.ll` text (no clang: fast) and verified by llvmlite when built:
a few blocks with forward branches, loops (back edges), several returns and sometimes
unreachable blocks; phis, loads, stores, geps, integer and floating-point arithmetic,
compares, selects and calls (pure and impure). Values are only used where their
definition dominates the use, so every generated function is valid SSA.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from solver_testkit import A, And, Gather, Or, make_program

from idl.program import Atom, Formula, Program
from matcher.atoms import holds
from matcher.ir import Function, Value

__all__ = ["random_atom", "random_ir", "random_program"]

_HEADER = """declare double @sqrt(double) #0
declare void @ext(double)
declare double @llvm.fabs.f64(double)

define i32 @f(ptr %p, i32 %n, double %x) {
"""
_FOOTER = "}\n\nattributes #0 = { nounwind memory(none) }\n"
_CONSTANTS = {"i32": ["0", "1", "7"], "double": ["0.0", "1.5"], "i64": ["0", "2"]}


@dataclass
class _Block:
    name: str
    lines: list[str] = field(default_factory=list)
    successors: list[int] = field(default_factory=list)
    defined: dict[str, list[str]] = field(default_factory=dict)  # type -> names


def _dominators(succ: list[list[int]]) -> tuple[list[set[int]], set[int]]:
    count = len(succ)
    reachable = {0}
    work = [0]
    while work:
        for s in succ[work.pop()]:
            if s not in reachable:
                reachable.add(s)
                work.append(s)
    preds: list[list[int]] = [[] for _ in range(count)]
    for b, targets in enumerate(succ):
        for s in targets:
            preds[s].append(b)
    dom = [set(reachable) if b in reachable else {b} for b in range(count)]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for b in sorted(reachable - {0}):
            incoming = [dom[p] for p in preds[b] if p in reachable]
            new = set.intersection(*incoming) | {b}
            if new != dom[b]:
                dom[b], changed = new, True
    return dom, reachable


class _IRWriter:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counter = 0

    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def pick(self, pool: dict[str, list[str]], type_: str, constant_ok: bool = True) -> str:
        options = list(pool.get(type_, []))
        if constant_ok or not options:
            options += _CONSTANTS.get(type_, [])
        return self.rng.choice(options)

    def instruction(self, pool: dict[str, list[str]]) -> tuple[str, str | None, str | None]:
        """One random instruction: (text, result type, result name)."""
        rng, name = self.rng, self.fresh()
        choice = rng.randrange(11)
        if choice == 0:
            op = rng.choice(["add", "sub", "mul", "and", "xor"])
            return (
                f"{name} = {op} i32 {self.pick(pool, 'i32')}, {self.pick(pool, 'i32')}",
                "i32",
                name,
            )
        if choice == 1:
            op = rng.choice(["fadd", "fmul", "fsub"])
            a, b = self.pick(pool, "double", False), self.pick(pool, "double")
            return f"{name} = {op} double {a}, {b}", "double", name
        if choice == 2:
            return (
                f"{name} = icmp slt i32 {self.pick(pool, 'i32', False)}, {self.pick(pool, 'i32')}",
                "i1",
                name,
            )
        if choice == 3:
            return f"{name} = sext i32 {self.pick(pool, 'i32', False)} to i64", "i64", name
        if choice == 4:
            idx = self.pick(pool, "i64")
            return (
                f"{name} = getelementptr inbounds double, ptr {self.pick(pool, 'ptr')}, i64 {idx}",
                "ptr",
                name,
            )
        if choice in (5, 6):
            return f"{name} = load double, ptr {self.pick(pool, 'ptr')}", "double", name
        if choice == 7:
            return (
                f"store double {self.pick(pool, 'double')}, ptr {self.pick(pool, 'ptr')}",
                None,
                None,
            )
        if choice == 8:
            callee = rng.choice(["@sqrt", "@llvm.fabs.f64"])
            return (
                f"{name} = call double {callee}(double {self.pick(pool, 'double', False)})",
                "double",
                name,
            )
        if choice == 9:
            return f"call void @ext(double {self.pick(pool, 'double')})", None, None
        if pool.get("i1"):
            cond = self.pick(pool, "i1")
            a, b = self.pick(pool, "double"), self.pick(pool, "double")
            return f"{name} = select i1 {cond}, double {a}, double {b}", "double", name
        return f"{name} = fneg double {self.pick(pool, 'double', False)}", "double", name


def random_ir(seed: int) -> str:
    """A valid `.ll` module with one function `@f` of 2 to 5 blocks."""
    rng = random.Random(seed)
    writer = _IRWriter(rng)
    count = rng.randint(2, 5)
    blocks = [_Block(f"b{i}") for i in range(count)]
    for i, block in enumerate(blocks[:-1]):
        if rng.random() < 0.12:
            continue  # an early return
        forward = list(range(i + 1, count))
        back = list(range(1, i + 1))
        first = rng.choice(forward)
        if rng.random() < 0.6:
            others = [t for t in forward + back if t != first]
            if others:
                block.successors = [first, rng.choice(others)]
                continue
        block.successors = [first]
    cfg = _CFG(blocks)
    # Instructions first (phis need the values available at the end of predecessors).
    for i, block in enumerate(blocks):
        pool = cfg.above(i)
        for _ in range(rng.randint(1, 4)):
            text, type_, name = writer.instruction(_merge(pool, block.defined))
            block.lines.append(text)
            if type_ and name:
                block.defined.setdefault(type_, []).append(name)
    texts = []
    for i, block in enumerate(blocks):
        phis = _phis(writer, cfg, i)
        terminator = _terminator(writer, block, cfg.at_end(i))
        lines = [*phis, *block.lines, *terminator]
        texts.append(f"{block.name}:\n" + "".join(f"  {line}\n" for line in lines))
    return _HEADER + "".join(texts) + _FOOTER


class _CFG:
    """The generated blocks with their dominators: which names each point may use."""

    def __init__(self, blocks: list[_Block]) -> None:
        self.blocks = blocks
        self.dom, self.reachable = _dominators([b.successors for b in blocks])
        self.preds: list[list[int]] = [[] for _ in blocks]
        for b, block in enumerate(blocks):
            for t in block.successors:
                self.preds[t].append(b)

    def above(self, index: int) -> dict[str, list[str]]:
        """Names defined in the strict dominators of a block (none if unreachable)."""
        pool = {"ptr": ["%p"], "i32": ["%n"], "double": ["%x"]}
        above = self.dom[index] - {index} if index in self.reachable else set()
        for b in sorted(above):
            for type_, names in self.blocks[b].defined.items():
                pool.setdefault(type_, []).extend(names)
        return pool

    def at_end(self, index: int) -> dict[str, list[str]]:
        return _merge(self.above(index), self.blocks[index].defined)


def _merge(a: dict[str, list[str]], b: dict[str, list[str]]) -> dict[str, list[str]]:
    merged = {k: list(v) for k, v in a.items()}
    for k, v in b.items():
        merged.setdefault(k, []).extend(v)
    return merged


def _phis(writer: _IRWriter, cfg: _CFG, index: int) -> list[str]:
    if not cfg.preds[index]:
        return []
    lines = []
    for _ in range(writer.rng.randint(0, 2)):
        type_ = writer.rng.choice(["i32", "double"])
        name = writer.fresh()
        incoming = [
            f"[ {writer.pick(cfg.at_end(p), type_)}, %{cfg.blocks[p].name} ]"
            for p in cfg.preds[index]
        ]
        lines.append(f"{name} = phi {type_} " + ", ".join(incoming))
        # Phis are defined at the top of the block; its own instructions were written
        # before and do not use them, but its terminator and successors may.
        cfg.blocks[index].defined.setdefault(type_, []).append(name)
    return lines


def _terminator(writer: _IRWriter, block: _Block, pool: dict[str, list[str]]) -> list[str]:
    targets = [f"label %b{t}" for t in block.successors]
    if not targets:
        return [f"ret i32 {writer.pick(pool, 'i32')}"]
    if len(targets) == 1:
        return [f"br {targets[0]}"]
    lines = []
    if pool.get("i1"):
        cond = writer.pick(pool, "i1")
    else:
        cond = writer.fresh()
        lines.append(f"{cond} = icmp slt i32 {writer.pick(pool, 'i32', False)}, 7")
    return [*lines, f"br i1 {cond}, {targets[0]}, {targets[1]}"]


# -- random programs ---------------------------------------------------------------------
#
# A program is grown around a random *witness*: values for its variables that are
# related in the function (an operand, a user, a successor, ...). Most atoms are drawn
# among those the witness makes true, some among false ones, so that the programs match
# often but not always, and the solver's failing paths are exercised too.

_VARIABLES = ("a", "b", "c", "d")
_UNARY = (
    "instruction", "argument", "constant", "preexecution", "integer_zero", "float_zero",
    "integer_type", "float_type", "pointer_type", "vector_type", "pure", "unused",
    "positive", "negative",
)  # fmt: skip
_BINARY = (
    "same", "not_same", "data_flow", "operand", "control_flow", "successor", "spans_block",
    "dominates", "strictly_dominates", "post_dominates", "strictly_post_dominates",
)  # fmt: skip
_TERNARY = ("reaches_phi", "cf_passes_through", "df_passes_through")
Witness = dict[str, Value | None]


def _neighbour(rng: random.Random, function: Function, value: Value | None) -> Value | None:
    if value is None or rng.random() < 0.1:
        return rng.choice((*function.values, None))
    options: list[Value] = [*value.operands, *value.users]
    if value.block is not None:
        options += [*function.successors(value), *function.predecessors(value)]
        options += [value.block.first, value.block.terminator]
        options += [v for v, _ in value.incoming] + [b.terminator for _, b in value.incoming]
    return rng.choice(options) if options else rng.choice(function.values)


def _witness(rng: random.Random, function: Function, names: tuple[str, ...]) -> Witness:
    witness: Witness = {names[0]: rng.choice(function.instructions)}
    for name in names[1:]:
        witness[name] = _neighbour(rng, function, witness[rng.choice(list(witness))])
    if rng.random() < 0.2:
        witness[rng.choice(names)] = None
    return witness


def _any_atom(rng: random.Random, names: tuple[str, ...], function: Function) -> Atom:
    roll = rng.random()
    if roll < 0.3:
        opcodes = sorted({v.opcode for v in function.instructions if v.opcode})
        return A("opcode", rng.choice(names), detail=rng.choice(opcodes))
    if roll < 0.45:
        return A(rng.choice(_UNARY), rng.choice(names))
    if roll < 0.9:
        kind = rng.choice(_BINARY)
        detail = rng.randrange(3) if kind == "operand" else rng.randrange(2)
        return A(
            kind,
            rng.choice(names),
            rng.choice(names),
            detail=detail if kind in ("operand", "successor") else None,
        )
    return A(rng.choice(_TERNARY), *(rng.choice(names) for _ in range(3)))


def random_atom(
    rng: random.Random, names: tuple[str, ...], function: Function, witness: Witness
) -> Atom:
    """An atom over `names`: true under the witness with probability about 0.85."""
    want = rng.random() < 0.85
    atom = _any_atom(rng, names, function)
    for _ in range(30):
        if holds(function, atom, witness) == want:
            break
        atom = _any_atom(rng, names, function)
    return atom


def _formula(
    rng: random.Random, names: tuple[str, ...], function: Function, witness: Witness, depth: int
) -> Formula:
    roll = rng.random()
    if depth == 0 or roll < 0.45:
        return random_atom(rng, names, function, witness)
    parts = tuple(
        _formula(rng, names, function, witness, depth - 1) for _ in range(rng.randint(2, 3))
    )
    return And(*parts) if roll < 0.7 else Or(*parts)


def _collect(
    rng: random.Random,
    outer: tuple[str, ...],
    function: Function,
    witness: Witness,
    slots: tuple[str, str] = ("r", "s"),
    *,
    keeping: bool = False,
) -> Formula:
    """A collect over {r[k]} (and {s[k]}); sometimes with a collect over {q[k]} (and
    {t[k]}) inside, whose outer variables include {r[0]}. With `keeping`, over both, the
    collect keeping {r[k]} only."""
    first, second = (f"{prefix}[0]" for prefix in slots)
    inner = (first, second) if keeping or rng.random() >= 0.7 else (first,)
    local = dict(witness)
    for name in inner:
        local[name] = _neighbour(rng, function, witness[rng.choice(outer)])
    names = inner + outer
    r = local[first]
    anchor = (
        A("opcode", first, detail=r.opcode)
        if r is not None and r.opcode
        else A("instruction", first)
    )
    parts = [anchor, *(_formula(rng, names, function, local, 1) for _ in range(rng.randint(1, 2)))]
    if slots == ("r", "s") and rng.random() < 0.25:
        parts.append(_collect(rng, (first, *outer), function, local, ("q", "t")))
    count = rng.choice((1, 2, 3))
    if keeping or (len(inner) == 2 and rng.random() < 0.5):  # the second is local
        return Gather(count, And(*parts), inner[:1], inner[1:])
    return Gather(count, And(*parts), inner)


def random_program(seed: int, function: Function, *, keeping: bool = False) -> Program:
    """A small program over two to four variables (and a collect's slots), with
    conjunctions, disjunctions, `unused` and sometimes one collect (always, with
    `keeping`: one that keeps one of its two variables)."""
    rng = random.Random(seed)
    names = _VARIABLES[: rng.randint(2, 4)]
    witness = _witness(rng, function, names)
    parts: list[Formula] = []
    for name in names:
        value = witness[name]
        if rng.random() < 0.6 and value is not None and value.opcode:
            parts.append(A("opcode", name, detail=value.opcode))  # selective, as idioms are
    parts.append(_formula(rng, names, function, witness, 2))
    if keeping or rng.random() < 0.3:
        collect = _collect(rng, names, function, witness, keeping=keeping)
        if rng.random() < 0.2:  # an optional collect: inside a disjunction
            collect = Or(collect, random_atom(rng, names, function, witness))
        parts.append(collect)
    if rng.random() < 0.2:
        name = rng.choice(names)
        parts.append(Or(A("unused", name), random_atom(rng, names, function, witness)))
    rng.shuffle(parts)
    return make_program(And(*parts), f"Random{seed}")
