"""Facts about functions and loops phrased for people: source line ranges, nesting."""

from __future__ import annotations

from dataclasses import dataclass

from matcher.analysis import Loop
from matcher.ir import Function

__all__ = ["LoopSummary", "summarize_loops"]


@dataclass(frozen=True)
class LoopSummary:
    function: str  # the source name of the function the loop is in
    header: str  # the header block's name
    depth: int
    blocks: int
    first_line: int | None  # source lines of the function's own code in the loop
    last_line: int | None

    @property
    def lines(self) -> str:
        if self.first_line is None:
            return "no source lines"
        if self.first_line == self.last_line:
            return f"line {self.first_line}"
        return f"lines {self.first_line}-{self.last_line}"


def summarize_loops(function: Function) -> list[LoopSummary]:
    """Every loop of the function, outermost first then in layout order."""
    return [_summarize(function, loop) for loop in function.loops.loops]


def _summarize(function: Function, loop: Loop) -> LoopSummary:
    # Inlined code keeps its own file and function in the debug info: count only the
    # lines that belong to this function's source.
    lines = sorted(
        {
            value.location.line
            for block in loop.blocks
            for value in block.instructions
            if value.location is not None
            and value.location.line > 0
            and value.location.function == function.source_name
        }
    )
    return LoopSummary(
        function=function.source_name,
        header=loop.header.name,
        depth=loop.depth,
        blocks=len(loop.blocks),
        first_line=lines[0] if lines else None,
        last_line=lines[-1] if lines else None,
    )
