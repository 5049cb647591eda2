"""The analysis of one unit, as `idiom accelerate` does it: front end, detection, then the
mapping stage (`mappers.accelerate.rewrite_file`), which says for each instance what would
replace it, or why nothing would. Imported only on a cache miss: it loads LLVM, the idiom
library and the mappers."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from ci.findings import Found, UnitResult
from ci.units import Unit
from idl.errors import IdiomError
from mappers.accelerate import rewrite_file
from mappers.rewrite.rewriter import Outcome
from matcher.frontend import CompileOptions
from matcher.pipeline import exported_programs

__all__ = ["analyse_unit", "load_library"]

_DIFILE = re.compile(r'!DIFile\(filename: "((?:[^"\\]|\\.)*)", directory: "((?:[^"\\]|\\.)*)"')


def load_library(idiom_dirs: tuple[str, ...] = ()) -> None:
    """The idiom library loaded into this process (processes forked later share it);
    its errors (`IdlError`, a missing folder) are raised."""
    exported_programs(idiom_dirs)


def analyse_unit(unit: Unit, idiom_dirs: tuple[str, ...] = ()) -> UnitResult:
    """The unit's instances; a unit that does not compile gives its compiler's message.
    Runs from the unit's own folder, as its build does."""
    source = str(unit.source)
    try:
        with _working_directory(unit.directory):
            options = CompileOptions(extra_flags=unit.flags)
            text, report = rewrite_file(unit.source, options, idiom_dirs)
            folders = _file_folders(text, unit.directory)
            found = tuple(_found(outcome, folders) for outcome in report.outcomes if _own(outcome))
    except IdiomError as error:
        return UnitResult(source, error=str(error))
    except OSError as error:
        return UnitResult(source, error=f"{source}: {error}")
    except Exception as error:  # a bug of the tool on one unit: the others still checked
        return UnitResult(
            source, error=f"{source}: internal error: {type(error).__name__}: {error}"
        )
    warnings = tuple(f"{source}: {cut.message}" for cut in report.cut_short)
    return UnitResult(source, found, warnings=warnings)


def _own(outcome: Outcome) -> bool:
    """False for an instance not replaced inside a larger one that is replaced (the dot
    product of a GEMM), or inside a larger one of its own idiom (the inner loop of a
    stencil's nest): it is part of that one's finding."""
    instance, within = outcome.instance, outcome.instance.within
    if outcome.replaced or within is None:
        return True
    return not (outcome.detail.startswith("inside ") or within.startswith(f"{instance.idiom} at"))


def _file_folders(ir_text: str, directory: Path) -> dict[str, list[Path]]:
    """For each file name of the debug information, the folders it is relative to: clang
    writes a header's name relative to a folder of its own choosing (`DIFile`)."""
    folders: dict[str, list[Path]] = {}
    for name, folder in _DIFILE.findall(ir_text):
        folders.setdefault(name, []).append(directory / folder)
    return folders


def _source_path(name: str, folders: dict[str, list[Path]]) -> str:
    candidates = [folder / name for folder in folders.get(name, [])] or [Path(name)]
    chosen = next((c for c in candidates if c.is_file()), candidates[0])
    return os.path.normpath(Path.cwd() / chosen)


def _found(outcome: Outcome, folders: dict[str, list[Path]]) -> Found:
    instance = outcome.instance
    first = instance.first_line or 0
    return Found(
        idiom=instance.idiom,
        function=instance.function,
        path=_source_path(instance.source_file, folders),
        first_line=first,
        last_line=instance.last_line or first,
        replaced=outcome.replaced,
        detail=outcome.detail,
    )


@contextlib.contextmanager
def _working_directory(folder: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)
