"""Why an idiom did not match: the first constraint that empties the solution set.

The program's top-level conjunction is solved prefix by prefix (parts 0..k) on the
function; the first part whose addition leaves no solution (or none at the given source
line, or none in the loops of a given source function) is the culprit, reported with the
IDL source position it came from. Solving is in detection mode, so each prefix costs
about one detection.

A source function that was inlined is explained in the function it was inlined into,
counting only the solutions whose loop is that source function's code (its lines, as
detection names them), so the caller's own loops do not answer for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from idl.program import Atom, Collect, Conjunction, Disjunction, Formula, Program, formula_variables
from matcher.ir import Function, Value
from matcher.solutions import Solution
from matcher.solver import solve
from matcher.summary import loop_source

__all__ = ["Explanation", "explain"]

DISTINCT = ("begin", "end", "acc")


@dataclass(frozen=True)
class Explanation:
    matched: bool
    failing_part: int | None  # index into the top-level conjunction
    parts: int
    description: str  # the failing part as text, with where it comes from
    survivors: int  # solutions of the prefix just before the failing part


@dataclass(frozen=True)
class _Scope:
    """Which solutions count: those at a source line, of a source function's loops."""

    function: Function
    line: int | None
    source_function: str | None

    def admits(self, solution: Solution) -> bool:
        if self.line is not None and not _at_line(solution.get("end"), self.line):
            return False
        return self.source_function is None or self._from_source_function(solution)

    def _from_source_function(self, solution: Solution) -> bool:
        begin = solution.get("begin")
        if begin is None or begin.block is None:
            return True  # no loop bound yet: a later part decides
        loop = next((lp for lp in self.function.loops.loops if lp.header is begin.block), None)
        return loop_source(self.function, loop).function == self.source_function


def explain(
    program: Program,
    function: Function,
    line: int | None = None,
    *,
    source_function: str | None = None,
) -> Explanation:
    """The first part of `program` that leaves no solution in `function` (at the loop of
    `line`, in the loops made of `source_function`'s code, when given)."""
    scope = _Scope(function, line, source_function)
    formula = program.formula
    parts = formula.parts if isinstance(formula, Conjunction) else (formula,)
    low, high = 0, len(parts)  # invariant: prefix[:low] has solutions; find the first failure
    if _count(program, parts, high, scope) > 0:
        return Explanation(True, None, len(parts), "", 0)
    # Binary search on the prefix length: solution sets only shrink as parts are added.
    while high - low > 1:
        middle = (low + high) // 2
        if _count(program, parts, middle, scope) > 0:
            low = middle
        else:
            high = middle
    survivors = _count(program, parts, high - 1, scope)
    return Explanation(False, high - 1, len(parts), describe(parts[high - 1]), survivors)


def _count(program: Program, parts: tuple[Formula, ...], length: int, scope: _Scope) -> int:
    if length == 0:
        return 1
    formula = Conjunction(parts[:length])
    prefix = Program(program.name, program.exported, formula, formula_variables(formula))
    result = solve(prefix, scope.function, distinct=DISTINCT)
    return sum(1 for s in result.solutions if scope.admits(s))


def _at_line(end: Value | None, line: int) -> bool:
    return end is not None and end.location is not None and end.location.line == line


def describe(part: Formula, limit: int = 300) -> str:
    text = _text(part)
    if len(text) > limit:
        text = text[:limit] + " ..."
    span = _first_span(part)
    return f"{text}   (from {span})" if span else text


def _text(part: Formula) -> str:
    match part:
        case Atom():
            return str(part)
        case Conjunction(parts=inner):
            return "(" + " and ".join(_text(p) for p in inner) + ")"
        case Disjunction(parts=inner):
            return "(" + " or ".join(_text(p) for p in inner) + ")"
        case Collect(slots=slots, body=body, slot_variables=kept, local=local):
            keeping = (" keeping " + ", ".join(f"{{{n}}}" for n in kept[0])) if local else ""
            return f"collect {slots}{keeping} {_text(body)}"
    return repr(part)


def _first_span(part: Formula) -> str | None:
    match part:
        case Atom(span=span):
            return str(span) if span else None
        case Conjunction(parts=inner) | Disjunction(parts=inner):
            for p in inner:
                found = _first_span(p)
                if found:
                    return found
        case Collect(span=span, body=body):
            return str(span) if span else _first_span(body)
    return None
