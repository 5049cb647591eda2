"""Detection over many files: one process per file, a pool over the files.

Each worker compiles its file, builds the IR model and runs every exported idiom of the
library. What comes back is plain data (instances without their IR solution), so the
pool never ships the IR between processes. Errors are returned, not raised, so one bad
file does not stop the others.

Garbage collection. The IR model is a cyclic graph (a value names its block, the block
its values), so a file's model is freed by Python's cyclic collector, not by reference
counts. Left to itself, the collector promotes the model to its oldest generation while
the file is analysed and then scans the whole heap, the library's hundreds of thousands
of objects included, to free it: that cost more than the searches. So the library, which
lives as long as the process, is frozen out of the collector's sight once loaded
(`load_library`), and a file is analysed with the collector paused, its young objects
collected once at the end (`paused_gc`): one pass over what the file allocated.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path

import idl
from idl.errors import IdiomError
from matcher import shared_solve
from matcher.detect import Detection, Instance, detect_module
from matcher.frontend import CompileOptions, canonical_ir
from matcher.ir_builder import build_module
from matcher.library_cache import load_programs
from matcher.shared_solve import Helper
from matcher.solver_program import compile_program

__all__ = [
    "FileResult",
    "analyse_file",
    "analyse_files",
    "exported_programs",
    "load_library",
    "paused_gc",
]


@dataclass(frozen=True)
class FileResult:
    path: str
    instances: tuple[Instance, ...] = ()
    cut_short: tuple[Detection, ...] = ()
    seconds: float = 0.0
    error: str | None = None


@functools.cache
def load_library(idiom_dirs: tuple[str, ...] = ()) -> idl.Library:
    """The idiom library: the given folders, or the one shipped in `idl/idioms`, with
    its exported programs compiled to the solver's form; everything alive then is
    frozen out of the cyclic collector's scans (see the module docstring)."""
    # Expanding and compiling build millions of objects and no cycle: the collector,
    # left on, would scan the growing heap again and again (half the time).
    with paused_gc():
        library = idl.Library.from_paths(idiom_dirs) if idiom_dirs else idl.default_library()
        for program in library.exported_programs():
            compile_program(program)
    gc.freeze()
    return library


@functools.cache
def exported_programs(idiom_dirs: tuple[str, ...] = ()) -> tuple[idl.Program, ...]:
    """The library's exported programs in the solver's form, what detection runs: read
    from the on-disk cache when it has them (matcher/library_cache.py), else compiled
    (and cached); frozen out of the collector's scans like `load_library`'s."""
    programs = load_programs(idiom_dirs, lambda: load_library(idiom_dirs).exported_programs())
    gc.freeze()
    return tuple(programs)


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic collector paused for the block, then one collection of the objects
    allocated meanwhile (the youngest generation: nothing was promoted out of it)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


def analyse_file(
    path: str,
    options: CompileOptions,
    idiom_dirs: tuple[str, ...] = (),
    *,
    keep_ir: bool = False,
    helper: Helper | None = None,
) -> FileResult:
    """One file's detection; with a `helper` (matcher/shared_solve.py), its searches are
    shared with the helper's process: the same result, sooner."""
    try:
        programs = exported_programs(idiom_dirs)
    except IdiomError as error:
        return FileResult(path, error=str(error))
    # The model dies with `_analyse`'s frame, before the collection at the block's end.
    with paused_gc():
        return _analyse(path, options, idiom_dirs, programs, keep_ir=keep_ir, helper=helper)


def _analyse(
    path: str,
    options: CompileOptions,
    idiom_dirs: tuple[str, ...],
    programs: Sequence[idl.Program],
    *,
    keep_ir: bool,
    helper: Helper | None,
) -> FileResult:
    try:
        ir = canonical_ir(Path(path), options)
        if helper is not None and not keep_ir and helper.begin(ir, path, idiom_dirs):
            module = build_module(ir, path)
            started = time.perf_counter()
            done = helper.detect_pairs(module, programs)
            report = detect_module(module, programs, done=done)
            report = replace(report, seconds=time.perf_counter() - started)
        else:
            report = detect_module(build_module(ir, path), programs)
    except IdiomError as error:
        return FileResult(path, error=str(error))
    instances = report.instances
    if not keep_ir:
        instances = tuple(replace(i, solution={}, solutions=()) for i in instances)
    return FileResult(path, instances, report.cut_short, report.seconds)


def analyse_files(
    paths: Sequence[str],
    options: CompileOptions,
    idiom_dirs: tuple[str, ...] = (),
    *,
    jobs: int | None = None,
    on_done: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Every file's result, in the order given; `on_done` is called as each completes."""
    workers = min(len(paths), jobs or os.cpu_count() or 1)
    if workers <= 1:
        # One file and no pool: a helper standing by may take half its searches.
        helper = shared_solve.standing() if len(paths) == 1 and jobs != 1 else None
        results = []
        for path in paths:
            results.append(analyse_file(path, options, idiom_dirs, helper=helper))
            if on_done:
                on_done(results[-1])
        return results
    by_path: dict[str, FileResult] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(analyse_file, path, options, idiom_dirs): path for path in paths}
        for future in as_completed(futures):
            try:
                result = future.result()
            except BrokenProcessPool:
                # A worker died (killed for memory, say): that file fails, not the run.
                result = FileResult(futures[future], error=f"{futures[future]}: analysis crashed")
            by_path[result.path] = result
            if on_done:
                on_done(result)
    return [by_path[path] for path in paths]
