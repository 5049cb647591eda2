"""`idiom lift FILE --function F [--line L]`: the kernels the Lift compiler generates.

For each idiom instance of the function (of the loop on line L, if given): the match's
functional expression, the rewrites that lowered it, the lowered expression and the
OpenCL kernel generated from it, then any kernel launched instead where the data says so
(a sparse product's rows shared by lanes); or, for a match replaced otherwise, what replaced it
(a BLAS call, a kernel still translated from the IR) or why it was not replaced.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import add_frontend_options, compile_options
from idl.errors import IdiomError
from mappers.accelerate import rewritten_unit
from mappers.plan.plan import KernelInstead
from mappers.rewrite.rewriter import Outcome

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "lift",
        help="show the functional expression of a match and the kernel generated from it",
        description="Accelerate the file in memory and print, for each match of the "
        "function, its expression in the functional IR, the rewrites applied, the "
        "lowered expression and the OpenCL kernel generated.",
    )
    parser.add_argument("file", type=Path)
    parser.add_argument("--function", required=True, help="IR or source name")
    parser.add_argument("--line", type=int, help="only the match whose loop spans this line")
    parser.add_argument("--idioms", action="append", default=[], metavar="DIR")
    add_frontend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    _, _, report = rewritten_unit(
        args.file, compile_options(args), tuple(args.idioms), reassociate=True
    )
    mine = [
        o for o in report.outcomes if args.function in (o.instance.function, o.instance.ir_function)
    ]
    if not mine:
        functions = sorted({o.instance.function for o in report.outcomes})
        found = f"; instances are in {', '.join(functions)}" if functions else ""
        raise IdiomError(f"{args.file}: no idiom instance in {args.function}{found}")
    # A loop two idioms claim is shown as the more specific one (a Stencil, not the Map
    # folded into it).
    claimed = {_lines(o) for o in mine if o.instance.within is None}
    mine = [o for o in mine if o.instance.within is None or _lines(o) not in claimed]
    if args.line is not None:
        mine = [o for o in mine if _spans(o, args.line)]
        if not mine:
            raise IdiomError(
                f"{args.file}:{args.line}: no idiom instance of {args.function} spans this line"
            )
    print("\n\n".join(_describe(outcome) for outcome in mine))
    return 0


def _lines(outcome: Outcome) -> tuple[int | None, int | None]:
    return outcome.instance.first_line, outcome.instance.last_line


def _spans(outcome: Outcome, line: int) -> bool:
    first, last = outcome.instance.first_line, outcome.instance.last_line
    return first is not None and last is not None and first <= line <= last


def _describe(outcome: Outcome) -> str:
    instance = outcome.instance
    lines = f"{instance.first_line}-{instance.last_line}"
    head = f"{instance.idiom} at lines {lines} of {instance.function}"
    generated = outcome.generated
    if generated is not None:
        rewrites = ", ".join(generated.rewrites) or "none"
        return "\n".join(
            [
                f"{head}: {outcome.detail}",
                "expression:",
                _indent(generated.expression),
                f"rewrites: {rewrites}",
                "lowered:",
                _indent(generated.lowered),
                "kernel:",
                _indent(generated.source.rstrip()),
                *(line for other in generated.instead for line in _instead(other)),
            ]
        )
    if outcome.replaced:
        return (
            f"{head}: replaced by {outcome.detail}; no kernel generated for it (no "
            "functional expression of this match)"
        )
    return f"{head}: not replaced ({outcome.detail})"


def _instead(kernel: KernelInstead) -> list[str]:
    rewrites = ", ".join(kernel.rewrites) or "none"
    return [
        f"instead, {kernel.when}:",
        f"rewrites: {rewrites}",
        "lowered:",
        _indent(kernel.lowered),
        "kernel:",
        _indent(kernel.source.rstrip()),
    ]


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())
