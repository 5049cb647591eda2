"""Entry point of the `idiom` command.

Each subcommand lives in its own module `cli/<name>_cmd.py` exposing
`register(subparsers) -> None`; the parser it adds sets `handler=run` where
`run(args) -> int` returns the exit code. Errors derived from `IdiomError` are printed
as `idiom: <message>` with exit code 1 (2 for usage errors): never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cli import server

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    # The commands (and LLVM's bindings, numpy, the library) are imported here, not at the
    # top: a command the server runs (cli/server.py) needs none of them in this process.
    from cli import (
        accelerate_cmd,
        bench_cmd,
        check_cmd,
        demo_cmd,
        detect_cmd,
        eval_cmd,
        explain_cmd,
        idl_cmd,
        ir_cmd,
    )

    parser = argparse.ArgumentParser(
        prog="idiom",
        description="Find computational idioms in C/C++ and replace them with fast code.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = (demo_cmd, accelerate_cmd, bench_cmd, check_cmd, detect_cmd, eval_cmd)
    for module in (*commands, explain_cmd, ir_cmd, idl_cmd, server):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The `idiom` command. Run as a program (no `argv`), it goes through the warm server
    when one answers (cli/server.py); called with `argv`, it runs here."""
    if argv is None:
        served = server.run_served(sys.argv[1:])
        if served is not None:
            return served
    try:
        return _run_here(argv)
    finally:
        server.start_wanted()


def _run_here(argv: Sequence[str] | None) -> int:
    from idl.errors import IdiomError

    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = handler(args)
    except IdiomError as error:
        print(f"idiom: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("idiom: interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
