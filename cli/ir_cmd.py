"""`idiom ir FILE [--function NAME]`: a readable dump of the IR model."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import add_frontend_options, compile_options, load_module
from matcher.inlining import inlined_hosts, no_such_function
from matcher.ir import Function, Module, Value
from matcher.summary import summarize_loops

__all__ = ["format_function", "register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "ir",
        help="dump the IR model of a file (instructions, source lines, loop depth)",
        description="Show each instruction with its id (the value number constraints see), "
        "its source line and its loop depth.",
    )
    parser.add_argument("file", type=Path)
    parser.add_argument("--function", help="only this function (IR or source name)")
    add_frontend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    module = load_module(args.file, compile_options(args))
    functions = list(module)
    if args.function:
        functions = _named(module, args.function, args.file)
    print("\n\n".join(format_function(function) for function in functions))
    return 0


def _named(module: Module, name: str, path: Path) -> list[Function]:
    """The function called `name`, or the ones a function of that name was inlined into."""
    found = module.function(name)
    if found is not None:
        return [found]
    hosts = inlined_hosts(module, name)
    if hosts:
        names = ", ".join(host.source_name for host in hosts)
        print(f"{name} was inlined into {names}; showing there\n")
        return list(hosts)
    raise no_such_function(module, name, str(path))


def format_function(function: Function) -> str:
    header = f"function {function.source_name}"
    if function.name != function.source_name:
        header += f"  [{function.name}]"
    args = ", ".join(f"#{a.id} {a.name}: {a.type}" for a in function.arguments)
    lines = [
        f"{header}({args})",
        f"  {len(function.blocks)} blocks, {len(function.loops.loops)} loops",
    ]
    lines += [
        f"  loop at {loop.header}: depth {loop.depth}, {loop.blocks} blocks, {loop.lines}"
        for loop in summarize_loops(function)
    ]
    for block in function.blocks:
        preds = ", ".join(p.name for p in block.predecessors) or "none"
        depth = function.loops.depth(block)
        lines.append(f"{block.name}:  ; preds: {preds}; loop depth {depth}")
        lines += [_instruction_line(i, depth) for i in block.instructions]
    return "\n".join(lines)


def _instruction_line(value: Value, depth: int) -> str:
    line = str(value.location.line) if value.location and value.location.line else "-"
    return f"  #{value.id:<4} L{line:<5} d{depth}  {value.text.split(', !dbg')[0]}"
