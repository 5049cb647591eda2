"""Checking units: cached results first, then the analysis of the rest over a pool of
processes. The analysis module is imported only when some unit misses the cache."""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from ci.findings import UnitResult
from ci.result_cache import ResultCache
from ci.units import Unit

__all__ = ["CheckRun", "check_units"]


@dataclass(frozen=True)
class CheckRun:
    results: tuple[UnitResult, ...]  # in the order of the units
    hits: int  # read from the cache
    misses: int  # analysed (units that did not preprocess are neither)


def check_units(
    units: Sequence[Unit],
    idiom_dirs: tuple[str, ...] = (),
    *,
    jobs: int | None = None,
    cache: ResultCache | None = None,
) -> CheckRun:
    cache = cache or ResultCache(None, idiom_dirs)
    workers = max(1, min(len(units), jobs or os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as threads:  # clang -E runs, in parallel
        prepared = list(threads.map(cache.key, units))
    keys = [key if isinstance(key, str) else None for key in prepared]
    results: list[UnitResult | None] = [
        key if isinstance(key, UnitResult) else cache.get(key) for key in prepared
    ]
    hits = sum(1 for key, result in zip(keys, results, strict=True) if key and result)
    missing = [number for number, result in enumerate(results) if result is None]
    analysed = _analysed([units[n] for n in missing], idiom_dirs, workers)
    for number, result in zip(missing, analysed, strict=True):
        cache.put(keys[number], result)
        results[number] = result
    cache.prune()
    done = tuple(r for r in results if r is not None)
    return CheckRun(done, hits, len(missing))


def _analysed(units: list[Unit], idiom_dirs: tuple[str, ...], workers: int) -> list[UnitResult]:
    if not units:
        return []
    from ci.analyse import analyse_unit, load_library  # noqa: PLC0415 - misses only

    load_library(idiom_dirs)  # once, before the workers fork: an error in it stops the run
    workers = min(workers, len(units))
    if workers == 1:
        return [analyse_unit(unit, idiom_dirs) for unit in units]
    by_unit: dict[int, UnitResult] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {
            pool.submit(analyse_unit, unit, idiom_dirs): number for number, unit in enumerate(units)
        }
        for future in as_completed(futures):
            number = futures[future]
            try:
                by_unit[number] = future.result()
            except BrokenProcessPool:
                source = str(units[number].source)
                by_unit[number] = UnitResult(source, error=f"{source}: analysis crashed")
    return [by_unit[number] for number in range(len(units))]
