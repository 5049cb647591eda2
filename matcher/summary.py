"""Facts about functions and loops phrased for people: source lines, nesting, inlining."""

from __future__ import annotations

from dataclasses import dataclass

from matcher.analysis import Loop
from matcher.ir import Function

__all__ = ["LoopSource", "LoopSummary", "loop_source", "summarize_loops"]


@dataclass(frozen=True)
class LoopSource:
    """Where a loop's code comes from: a source function, its file and its lines."""

    function: str  # the source function (an inlined kernel's own name)
    file: str | None  # None without debug lines
    first_line: int | None
    last_line: int | None


def loop_source(function: Function, loop: Loop | None) -> LoopSource:
    """The source function, file and line range of a loop, from its debug info.

    The function's own lines win whenever the loop has any (inlined accessors do not
    rename a loop). A loop made only of code inlined from a kernel (a `static` kernel
    inlined into its caller) is named after that kernel. The file is the one the lines
    are in, which is not the translation unit when the kernel comes from an `#include`.
    """
    nothing = LoopSource(function.source_name, None, None, None)
    if loop is None:
        return nothing
    own_name = function.source_name.rsplit("::", 1)[-1]
    by_function: dict[str, set[tuple[str, int]]] = {}
    for block in loop.blocks:
        for value in block.instructions:
            location = value.location
            if location is not None and location.line > 0:
                by_function.setdefault(location.function, set()).add((location.file, location.line))
    if not by_function:
        return nothing
    if own_name in by_function:
        name = function.source_name
        places = by_function[own_name]
    else:
        name = max(by_function, key=lambda n: len(by_function[n]))
        places = by_function[name]
    lines = [line for _, line in places]
    return LoopSource(name, min(places)[0] or None, min(lines), max(lines))


@dataclass(frozen=True)
class LoopSummary:
    function: str  # the source name of the function the loop is in
    header: str  # the header block's name
    depth: int
    blocks: int
    source_function: str  # where the loop's lines come from: `function`, or an inlined one
    file: str | None
    first_line: int | None
    last_line: int | None

    @property
    def lines(self) -> str:
        if self.first_line is None:
            return "no source lines"
        if self.first_line == self.last_line:
            lines = f"line {self.first_line}"
        else:
            lines = f"lines {self.first_line}-{self.last_line}"
        if self.source_function == self.function:
            return lines
        return f"{lines} of {self.source_function} ({self.file}), inlined"


def summarize_loops(function: Function) -> list[LoopSummary]:
    """Every loop of the function, outermost first then in layout order."""
    return [_summarize(function, loop) for loop in function.loops.loops]


def _summarize(function: Function, loop: Loop) -> LoopSummary:
    source = loop_source(function, loop)
    return LoopSummary(
        function=function.source_name,
        header=loop.header.name,
        depth=loop.depth,
        blocks=len(loop.blocks),
        source_function=source.function,
        file=source.file,
        first_line=source.first_line,
        last_line=source.last_line,
    )
