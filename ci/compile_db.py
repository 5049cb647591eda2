"""`compile_commands.json` read the way clang-tidy reads it: each entry its own unit, its
flags parsed from `arguments` (or `command`, with shell quoting), run from its `directory`.

Only what changes the code the front end sees is kept: include paths and files, defines,
the language standard and `-f`/`-m` options. The compiler itself, `-c`, `-o FILE`, the
dependency-file flags (`-M…`), optimisation and debug levels (the front end sets its own),
warnings and the source file are dropped.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Sequence
from pathlib import Path

from ci.units import Unit
from idl.errors import IdiomError

__all__ = ["CompileDbError", "frontend_flags", "load_compile_db"]


class CompileDbError(IdiomError):
    """The compilation database is missing or malformed (the message says where)."""


# Flags kept together with the value that follows them (`-I dir` as well as `-Idir`).
_KEPT_WITH_VALUE = (
    "-I",
    "-D",
    "-U",
    "-include",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-imacros",
    "--sysroot",
)
_KEPT_PREFIXES = (*_KEPT_WITH_VALUE, "-std=", "-f", "-m", "-nostdinc")
# Dropped, with their value when it is a separate word.
_DROPPED_WITH_VALUE = frozenset({"-o", "-MF", "-MT", "-MQ", "-Xclang", "-x", "-arch", "-target"})
# -f options that would change what clang emits for the front end's own pipeline.
_DROPPED_F = (
    "-flto",
    "-fprofile",
    "-fsanitize",
    "-fcoverage",
    "-fdiagnostics",
    "-fcolor",
    "-fsyntax-only",
)
# Options whose path value is relative to the entry's directory.
_PATH_OPTIONS = ("-I", "-include", "-isystem", "-iquote", "-idirafter", "-imacros", "--sysroot")


def load_compile_db(build_dir: Path, only: Sequence[Path] = ()) -> list[Unit]:
    """The units of `build_dir/compile_commands.json` (or that file, named directly),
    restricted to the files and folders of `only` when it is given."""
    database = build_dir if build_dir.is_file() else build_dir / "compile_commands.json"
    try:
        entries = json.loads(database.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise CompileDbError(f"{database}: no such file (-p takes a build folder)") from error
    except (OSError, UnicodeDecodeError) as error:
        raise CompileDbError(f"{database}: cannot read: {error}") from error
    except json.JSONDecodeError as error:
        raise CompileDbError(f"{database}:{error.lineno}:{error.colno}: {error.msg}") from error
    if not isinstance(entries, list):
        raise CompileDbError(f"{database}: expected a list of compile commands")
    units = [_unit(database, number, entry) for number, entry in enumerate(entries)]
    units = list({unit.source: unit for unit in units}.values())  # one unit per file
    if only:
        wanted = [Path(os.path.abspath(p)) for p in only]
        units = [u for u in units if any(u.source == w or w in u.source.parents for w in wanted)]
    return units


def _unit(database: Path, number: int, entry: object) -> Unit:
    where = f"{database}: entry {number}"
    if not isinstance(entry, dict):
        raise CompileDbError(f"{where}: expected an object")
    directory, file = entry.get("directory"), entry.get("file")
    if not isinstance(directory, str) or not isinstance(file, str):
        raise CompileDbError(f"{where}: 'directory' and 'file' must be strings")
    arguments = entry.get("arguments")
    if arguments is None:
        command = entry.get("command")
        if not isinstance(command, str):
            raise CompileDbError(f"{where}: needs 'arguments' or 'command'")
        try:
            arguments = shlex.split(command)
        except ValueError as error:
            raise CompileDbError(f"{where}: cannot split 'command': {error}") from error
    if not isinstance(arguments, list) or not all(isinstance(a, str) for a in arguments):
        raise CompileDbError(f"{where}: 'arguments' must be a list of strings")
    folder = Path(directory)
    source = Path(os.path.abspath(folder / file))
    return Unit(source, folder, frontend_flags(arguments[1:], folder))


def frontend_flags(arguments: Sequence[str], directory: Path) -> tuple[str, ...]:
    """The flags of a compile command (the compiler already removed) that the front end
    keeps, paths made absolute against `directory`."""
    kept: list[str] = []
    words = iter(arguments)
    for word in words:
        if word in _DROPPED_WITH_VALUE:
            next(words, None)
        elif word in _KEPT_WITH_VALUE:
            value = next(words, None)
            if value is not None:
                kept.append(_joined(word, value, directory))
        elif word.startswith(_KEPT_PREFIXES) and not word.startswith(_DROPPED_F):
            option = next((o for o in _PATH_OPTIONS if word.startswith(o)), None)
            value = word[len(option) :].removeprefix("=") if option else ""
            kept.append(_joined(option, value, directory) if option else word)
        # everything else (the source, -c, -O2, -g, -W…, -M…) is dropped
    return tuple(kept)


def _joined(option: str, value: str, directory: Path) -> str:
    if option in _PATH_OPTIONS and value and not os.path.isabs(value):
        value = os.path.normpath(directory / value)
    # clang takes the short options joined to their value, and --sysroot=VALUE
    return f"{option}={value}" if option.startswith("--") else f"{option}{value}"
