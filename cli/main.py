"""Entry point of the `idiom` command.

Each subcommand lives in its own module `cli/<name>_cmd.py` exposing
`register(subparsers) -> None`; the parser it adds sets `handler=run` where
`run(args) -> int` returns the exit code. Errors derived from `IdiomError` are printed
as `idiom: <message>` with exit code 1 (2 for usage errors): never a traceback.
"""

from __future__ import annotations

import sys

from cli import client

TYPE_CHECKING = False  # not `typing`'s: its import costs a served command's client 3 ms
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

__all__ = ["COMMANDS", "build_parser", "main"]


# Each command's module, imported only when needed: a command loads its own dependencies
# (LLVM's bindings, numpy, the library), not every other command's.
COMMANDS = {
    "demo": "cli.demo_cmd",
    "accelerate": "cli.accelerate_cmd",
    "bench": "cli.bench_cmd",
    "check": "cli.check_cmd",
    "detect": "cli.detect_cmd",
    "eval": "cli.eval_cmd",
    "explain": "cli.explain_cmd",
    "ir": "cli.ir_cmd",
    "lift": "cli.lift_cmd",
    "idl": "cli.idl_cmd",
    "server": "cli.server",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the command `only` alone."""
    import argparse  # here: a served command's client never parses
    import importlib

    parser = argparse.ArgumentParser(
        prog="idiom",
        description="Find computational idioms in C/C++ and replace them with fast code.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The `idiom` command. Run as a program (no `argv`), it goes through the warm server
    when one answers (cli/server.py); called with `argv`, it runs here."""
    if argv is None:
        served = client.run_served(sys.argv[1:])
        if served is not None:
            return served
    try:
        return _run_here(argv)
    finally:
        client.start_wanted()


def _run_here(argv: Sequence[str] | None) -> int:
    from idl.errors import IdiomError

    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments[0] if arguments and arguments[0] in COMMANDS else None)
    args = parser.parse_args(arguments)
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
