"""From sources to an accelerated executable: detect, rewrite, compile, link.

Each translation unit goes through the matcher's front end, detection and the
rewriter; the rewritten IR is compiled with `clang-22` at the user's optimisation level
(`-O2` unless the flags give one) and code-generation flags, and linked with the runtime
(mappers/runtime, built on demand). Everything happens in a private temporary folder;
only the requested output is written, and only once the link has succeeded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from idl.errors import IdiomError
from mappers.residency.placement import needs_residency, residency_refused, with_host_access
from mappers.rewrite.alignment import align_large_arrays
from mappers.rewrite.owned_pages import owned_pages
from mappers.rewrite.rewriter import Outcome, rewrite_module
from mappers.rewrite.splice import spliced
from mappers.runtime.build import runtime_library
from matcher.detect import Detection, detect_module
from matcher.frontend import CXX_SUFFIXES, CompileOptions, compile_to_ir, find_tool, source_ir
from matcher.ir_builder import build_module
from matcher.pipeline import exported_programs
from wrapper.args import codegen_flags

__all__ = [
    "AccelerateError",
    "Accelerated",
    "UnitReport",
    "accelerate",
    "rewrite_file",
    "rewritten_unit",
]


class AccelerateError(IdiomError):
    """The program could not be built (unwritable output, compile or link failure)."""


@dataclass(frozen=True)
class UnitReport:
    """One translation unit: what was found and what became of it."""

    source: str
    outcomes: tuple[Outcome, ...]
    cut_short: tuple[Detection, ...]


@dataclass(frozen=True)
class Accelerated:
    output: Path
    units: tuple[UnitReport, ...]
    residency_refused: str | None = None
    """Why arrays are not kept on the device between launches (threads, signal handlers),
    or None."""

    @property
    def replaced(self) -> int:
        return sum(1 for unit in self.units for outcome in unit.outcomes if outcome.replaced)


def rewrite_file(
    path: Path,
    options: CompileOptions,
    idiom_dirs: tuple[str, ...] = (),
    *,
    reassociate: bool = True,
) -> tuple[str, UnitReport]:
    """The rewritten IR of one translation unit, and its report."""
    _, text, report = rewritten_unit(path, options, idiom_dirs, reassociate=reassociate)
    return text, report


def rewritten_unit(
    path: Path, options: CompileOptions, idiom_dirs: tuple[str, ...], *, reassociate: bool
) -> tuple[str, str, UnitReport]:
    """The canonical IR of one unit, its rewritten IR and its report."""
    programs = list(exported_programs(idiom_dirs))
    module = build_module(compile_to_ir(path, options), str(path))
    detection = detect_module(module, programs)
    rewritten = rewrite_module(module, detection.instances, reassociate=reassociate)
    report = UnitReport(str(path), rewritten.outcomes, detection.cut_short)
    return module.text, rewritten.text, report


def accelerate(
    sources: Sequence[Path],
    output: Path,
    options: CompileOptions,
    idiom_dirs: tuple[str, ...] = (),
    *,
    emit_llvm: bool = False,
    reassociate: bool = True,
    link_flags: Sequence[str] = (),
    original_copies: bool = True,
) -> Accelerated:
    """Build `output` from `sources`: an executable, or with `emit_llvm` the rewritten IR.
    Without `original_copies`, the functions the tool changed exist only rewritten (their
    fallback code is what runs on a machine without a GPU: for tests and measurements)."""
    _check_writable(output)
    if emit_llvm and len(sources) != 1:
        raise AccelerateError("--emit-llvm takes one source file (one module of IR)")
    units: list[UnitReport] = []
    canonical: list[str] = []
    texts: list[str] = []
    for source in sources:
        before, text, report = rewritten_unit(source, options, idiom_dirs, reassociate=reassociate)
        canonical.append(before)
        texts.append(text)
        units.append(report)
    launches = needs_residency(texts)
    refused = residency_refused(texts) if launches else None
    if launches and refused is None:
        texts = with_host_access(texts, [str(source) for source in sources])
    texts = [
        align_large_arrays(_from_source(source, options, before, text, original_copies))
        for source, before, text in zip(sources, canonical, texts, strict=True)
    ]
    if launches and refused is None:  # the safety net may protect their edges
        texts = [owned_pages(text) for text in texts]
    with tempfile.TemporaryDirectory(prefix="idiom-acc-") as tmp:
        objects: list[str] = []
        for number, text in enumerate(texts):
            ir_path = Path(tmp) / f"unit{number}.ll"
            ir_path.write_text(text, encoding="utf-8")
            if emit_llvm:
                _publish(ir_path, output)
                return Accelerated(output, tuple(units), refused)
            objects.append(str(ir_path))
        driver = "clang++" if any(s.suffix in CXX_SUFFIXES for s in sources) else "clang"
        runtime = runtime_library()
        built = Path(tmp) / "a.out"
        command = [
            find_tool(driver),
            # The original build's level and code generation (NAS: -O3 -mcmodel=medium):
            # the functions no idiom touched must compile as they do there.
            "-O2",
            *codegen_flags(options.extra_flags),
            "-Wno-unused-command-line-argument",
            *objects,
            str(runtime.archive),
            "-o",
            str(built),
            *runtime.link_args,
            *link_flags,
            "-lm",
        ]
        _run(command, "linking the accelerated program failed")
        _publish(built, output)
    return Accelerated(output, tuple(units), refused)


def _from_source(
    source: Path, options: CompileOptions, canonical: str, final: str, original_copies: bool
) -> str:
    """The unit with the functions the tool left unchanged compiled as the original build
    compiles them, and those it changed doubled with the source's copy (mappers/rewrite/splice.py,
    mappers/rewrite/worlds.py)."""
    original = source_ir(source, options)
    if original is None:
        return final
    return spliced(final, canonical, original, original_copies=original_copies)


def _check_writable(output: Path) -> None:
    folder = output.parent if str(output.parent) else Path(".")
    if output.is_dir():
        raise AccelerateError(f"{output}: is a folder, expected a file to write")
    if not folder.is_dir():  # also when a path component is a file
        raise AccelerateError(f"{output}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (output.exists() and not os.access(output, os.W_OK)):
        raise AccelerateError(f"{output}: not writable")


def _publish(built: Path, output: Path) -> None:
    try:
        shutil.copyfile(built, output)
        shutil.copymode(built, output)
    except OSError as error:
        raise AccelerateError(f"{output}: cannot write: {error.strerror}") from error


def _run(command: Sequence[str], what: str) -> None:
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise AccelerateError(f"{what}: {error}") from error
    if result.returncode != 0:
        raise AccelerateError(f"{what}:\n{(result.stderr or result.stdout).strip()}")
