"""Where `.idl` files are: the library shipped with the tool, and the files of a search
path. Kept apart from the parser and compiler so that finding them loads neither."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from idl.errors import IdlError

__all__ = ["DEFAULT_FOLDER", "idl_files"]

# The idiom library shipped with the tool (package data of `idl.idioms`).
DEFAULT_FOLDER = Path(__file__).with_name("idioms")


def idl_files(paths: Iterable[str | Path]) -> list[Path]:
    """The `.idl` files named by `paths`: files as given, directories searched recursively."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            files.extend(sorted(path.rglob("*.idl")))
        elif path.is_file():
            files.append(path)
        else:
            raise IdlError(f"{path}: no such file or directory")
    return files
