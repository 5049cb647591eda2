"""Translation units: a source file, the folder its compiler runs in, and its flags."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from matcher.frontend import C_SUFFIXES, CXX_SUFFIXES, IR_SUFFIXES

__all__ = ["SOURCE_SUFFIXES", "Unit", "discover", "is_ir", "units_from_paths"]

SOURCE_SUFFIXES = C_SUFFIXES | CXX_SUFFIXES


@dataclass(frozen=True)
class Unit:
    """One translation unit: `source` (absolute) compiled from `directory` with `flags`
    (front-end flags only: includes, defines, standard, -f/-m options)."""

    source: Path
    directory: Path
    flags: tuple[str, ...] = ()

    @property
    def driver(self) -> str:
        return "clang++" if self.source.suffix in CXX_SUFFIXES else "clang"


def discover(paths: Sequence[Path]) -> list[Path]:
    """The files to check: each file as given, and the C/C++ sources under each folder
    (recursively, hidden folders such as `.git` skipped), in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob("*")
                if p.suffix in SOURCE_SUFFIXES
                and p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        else:
            found.append(path)
    return list(dict.fromkeys(found))


def units_from_paths(paths: Sequence[Path], flags: Sequence[str] = ()) -> list[Unit]:
    """Every file found under `paths` as a unit compiled from the working directory with
    the same `flags`; an LLVM IR file (.ll, .bc) is taken as it is."""
    cwd = Path.cwd()
    return [Unit(Path(os.path.abspath(p)), cwd, tuple(flags)) for p in discover(paths)]


def is_ir(path: Path) -> bool:
    return path.suffix in IR_SUFFIXES
