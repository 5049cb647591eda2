"""Detection: every exported idiom of a library over every function of a module.

The solver gives solutions; an idiom *instance* is one region of code, so solutions
are folded by (idiom, {begin}, {end}): equivalent solutions (operand orders of a
commutative operation, the several accumulators of one loop) become one instance with
one representative solution, the first in canonical order. An instance whose region
lies inside another instance's region is marked `within` it: a mapper replaces the
larger one, and evaluation counts only the outermost.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from idl.program import Program
from matcher.analysis import Loop
from matcher.footprint import Footprints
from matcher.ir import Function, Module, Value
from matcher.solutions import Solution
from matcher.solver import DEFAULT_BUDGET, solve
from matcher.summary import loop_source
from matcher.sweeps import in_place_reads, is_recurrence

__all__ = [
    "IN_PLACE",
    "Detection",
    "Instance",
    "ModuleReport",
    "PairFound",
    "Solution",
    "detect_module",
    "detect_pair",
    "specificity",
]

IN_PLACE = "in place"  # the fact that marks a stencil sweeping in place


# One solution per region and accumulator is all detection needs (see `solve`).
DISTINCT = ("begin", "end", "acc")


@dataclass(frozen=True)
class Instance:
    """One idiom found in one region of one function."""

    idiom: str
    function: str  # the source function the loop's code comes from (after inlining)
    ir_function: str  # the IR function it was found in
    file: str  # the translation unit analysed
    source_file: str  # the file the loop's lines are in (an #included kernel's own file)
    line: int | None  # the loop's own line: where its closing branch (the `for`) is
    first_line: int | None
    last_line: int | None
    solution: Solution = field(compare=False, repr=False)
    solution_count: int = 1
    facts: tuple[tuple[str, str], ...] = ()
    within: str | None = None  # "GEMM at line 12" when nested in a larger instance
    # Every solution of the region (a reduction loop has one per accumulator).
    solutions: tuple[Solution, ...] = field(default=(), compare=False, repr=False)

    @property
    def in_place(self) -> bool:
        """A stencil that reads what other points of its sweep write (matcher/sweeps.py)."""
        return any(name == IN_PLACE for name, _ in self.facts)

    def to_json(self) -> dict[str, object]:
        return {
            "idiom": self.idiom,
            "function": self.function,
            "ir_function": self.ir_function,
            "file": self.file,
            "source_file": self.source_file,
            "line": self.line,
            "first_line": self.first_line,
            "last_line": self.last_line,
            "solutions": self.solution_count,
            "facts": dict(self.facts),
            "within": self.within,
        }

    @property
    def lines(self) -> str:
        if self.first_line is None:
            return "?"
        if self.first_line == self.last_line:
            return str(self.first_line)
        return f"{self.first_line}-{self.last_line}"


@dataclass(frozen=True)
class Detection:
    """A cut-short search, so that no loss is silent."""

    idiom: str
    function: str
    message: str


@dataclass(frozen=True)
class ModuleReport:
    source: str
    instances: tuple[Instance, ...]
    cut_short: tuple[Detection, ...]
    seconds: float


# What one program found in one function: its cut-short search, if it was, and each
# instance with the loop of its region.
PairFound = tuple[Detection | None, list[tuple[Instance, Loop | None]]]


def detect_module(
    module: Module,
    programs: Sequence[Program],
    *,
    budget: int = DEFAULT_BUDGET,
    done: Mapping[tuple[int, int], PairFound] | None = None,
) -> ModuleReport:
    """Every instance in `module`. `done` holds what was already found, by (function
    number, program number) (matcher/shared_solve.py); the other pairs are searched here."""
    started = time.perf_counter()
    instances: list[Instance] = []
    cut_short: list[Detection] = []
    for f, function in enumerate(module):
        found: list[tuple[Instance, Loop | None]] = []
        for p, program in enumerate(programs):
            pair = done.get((f, p)) if done is not None else None
            cut, pair_found = pair or detect_pair(program, function, module.source, budget)
            if cut is not None:
                cut_short.append(cut)
            found += pair_found
        instances += _mark_nesting(found)
    instances.sort(key=lambda i: (i.file, i.first_line or 0, i.idiom))
    return ModuleReport(
        module.source, tuple(instances), tuple(cut_short), time.perf_counter() - started
    )


def detect_pair(
    program: Program, function: Function, source: str, budget: int = DEFAULT_BUDGET
) -> PairFound:
    """The instances of one program in one function (`source`: the translation unit)."""
    result = solve(program, function, budget=budget, distinct=DISTINCT)
    cut = None
    if result.exhausted:
        cut = Detection(program.name, function.source_name, result.message() or "")
    return cut, _fold(program.name, function, source, result.solutions)


def _fold(
    idiom: str, function: Function, source: str, solutions: Iterable[Solution]
) -> list[tuple[Instance, Loop | None]]:
    groups: dict[tuple[int, int], list[Solution]] = {}
    footprints = Footprints(function) if idiom in ("Stencil", "Map") else None
    in_place: dict[int, list[Value]] = {}  # a stencil's reads of what other points write
    for solution in solutions:
        if footprints is not None:
            reads = in_place_reads(function, solution, footprints)
            if is_recurrence(reads) or (reads and idiom == "Map"):
                continue  # a prefix sum, not a stencil; no map reads other points' values
            in_place[id(solution)] = reads
        begin, end = solution.get("begin"), solution.get("end")
        key = (begin.id if begin else -1, end.id if end else -1)
        groups.setdefault(key, []).append(solution)
    folded = []
    for group in groups.values():
        representative = group[0]
        loop = _region_loop(function, representative)
        where = loop_source(function, loop)
        instance = Instance(
            idiom=idiom,
            function=where.function,
            ir_function=function.name,
            file=source,
            source_file=where.file or source,
            line=_loop_line(representative, where.first_line),
            first_line=where.first_line,
            last_line=where.last_line,
            solution=representative,
            solution_count=len(group),
            solutions=tuple(group),
            facts=_facts(representative, in_place.get(id(representative), [])),
        )
        folded.append((instance, loop))
    return folded


def _loop_line(solution: Solution, fallback: int | None) -> int | None:
    end = solution.get("end")
    if end is not None and end.location is not None and end.location.line > 0:
        return end.location.line
    return fallback


def _region_loop(function: Function, solution: Solution) -> Loop | None:
    begin = solution.get("begin")
    if begin is None or begin.block is None:
        return None
    for loop in function.loops.loops:
        if loop.header is begin.block:
            return loop
    return None


def _mark_nesting(found: list[tuple[Instance, Loop | None]]) -> list[Instance]:
    marked = []
    for instance, loop in found:
        enclosing = [
            (other, other_loop)
            for other, other_loop in found
            if loop is not None
            and other_loop is not None
            and other is not instance
            and _encloses(other_loop, other, loop, instance)
        ]
        if enclosing:
            outer, _ = max(enclosing, key=lambda pair: len(pair[1].blocks))
            marked.append(replace(instance, within=f"{outer.idiom} at line {outer.lines}"))
        else:
            marked.append(instance)
    return marked


def _encloses(outer_loop: Loop, outer: Instance, loop: Loop, instance: Instance) -> bool:
    if loop.blocks < outer_loop.blocks:
        return True
    return loop.blocks == outer_loop.blocks and specificity(outer) > specificity(instance)


# When two idioms claim the very same loop, the more specific one wins.
_SPECIFICITY = {
    "SYRK": 7,
    "SYR2K": 7,
    "TRMM": 7,
    "SYMM": 7,
    "TRSV": 6,
    "GEMM": 6,
    "GEMV": 5,
    "GER": 5,
    "SpMV_CSR": 4,
    "SpMV_JDS": 4,
    "SpMV_ELL": 4,
    "SpMV_COO": 4,
    "Stencil": 3,
    "Histogram": 2,
    "Scan": 2,
    "Reduction": 1,
    "Map": 0,
}


def specificity(instance: Instance) -> int:
    """How specific the idiom of `instance` is: of two on the very same loop, the higher
    one is reported, and replaced first."""
    return _SPECIFICITY.get(instance.idiom, 0)


def _facts(solution: Solution, in_place: list[Value]) -> tuple[tuple[str, str], ...]:
    """What an engineer wants at a glance: bounds, arrays, element type, and whether a
    stencil sweeps in place (`in_place`, its reads of what other points write)."""
    facts: list[tuple[str, str]] = []
    if in_place:
        facts.append((IN_PLACE, f"reads what other points write (line {_line(in_place[0])})"))
    for prefix in ("", "loop[0].", "loop[1].", "loop[2].", "row.", "entry.", "diagonal."):
        begin, end = solution.get(prefix + "iter_begin"), solution.get(prefix + "iter_end")
        if begin is not None and end is not None:
            facts.append((f"{prefix}bounds".lstrip("."), f"{_short(begin)} .. {_short(end)}"))
    arrays = sorted(
        {
            _short(value)
            for name, value in solution.items()
            if value is not None
            and name.endswith(("array", "bins", "values", "columns", "row_ptr"))
        }
        | {
            _short(root)
            for root in map(_address_root, _loads(solution))
            if not root.name.lstrip("%").isdigit()  # a named array, not a temporary
        }
    )
    if arrays:
        facts.append(("arrays", ", ".join(arrays)))
    for name in ("acc", "stored", "new_count", "new_value", "update"):
        value = solution.get(name)
        if value is not None:
            facts.append(("type", value.type))
            break
    return tuple(facts)


def _loads(solution: Solution) -> list[Value]:
    """The loads the instance names as `read[k].value` where it keeps none of their
    arrays (Reduction: see OperandReads)."""
    reads = [(name, value) for name, value in solution.items() if name.startswith("read[")]
    if any(value is not None and name.endswith("].array") for name, value in reads):
        return []
    return [value for name, value in reads if value is not None and name.endswith("].value")]


def _address_root(load: Value) -> Value:
    """What a load's address is computed from: its getelementptrs followed to the first
    pointer that is not one (an argument, a global, an allocation or a loaded pointer)."""
    address = load.operands[0]
    while address.opcode == "getelementptr" and address.operands:
        address = address.operands[0]
    return address


def _line(value: Value) -> str:
    return str(value.location.line) if value.location is not None else "?"


def _short(value: Value) -> str:
    if value.constant is not None:
        return str(value.constant)
    return value.name.lstrip("%")
