"""Estimated benefits, from measured figures only: `benefit.json` beside this module,
generated from the benchmark results in docs/results/ by benchmarks/check_benefit.py."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DATA", "Measured", "measured_for", "target_kind"]

DATA = Path(__file__).with_name("benefit.json")


@dataclass(frozen=True)
class Measured:
    """Whole-program speedups of the corpus programs built around one idiom, with one
    kind of replacement, on one machine."""

    idiom: str
    target: str  # blas, opencl, opencl-no-gpu
    where: str
    source: str
    median: float
    low: float
    high: float
    programs: int

    def describe(self) -> str:
        return (
            f"{self.median:g}x median ({self.low:g}-{self.high:g}x over {self.programs} "
            f"corpus program{'s' if self.programs != 1 else ''}) on {self.where} "
            f"[{self.source}]"
        )


def target_kind(detail: str) -> str | None:
    """The kind of a replacement from the mapper's description of it."""
    if detail.startswith("BLAS"):
        return "blas"
    if detail.startswith("OpenCL"):
        return "opencl"
    return None


def measured_for(idiom: str, kind: str | None) -> tuple[Measured, ...]:
    """The figures for `idiom` replaced by `kind`: the primary machine first (for OpenCL,
    the GPU; then the same programs on CPUs where no launch happens)."""
    if kind is None:
        return ()
    targets = ("opencl", "opencl-no-gpu") if kind == "opencl" else (kind,)
    table = _table()
    return tuple(table[(idiom, t)] for t in targets if (idiom, t) in table)


@functools.cache
def _table() -> dict[tuple[str, str], Measured]:
    entries = json.loads(DATA.read_text(encoding="utf-8"))["entries"]
    return {
        (e["idiom"], e["target"]): Measured(
            e["idiom"],
            e["target"],
            e["where"],
            e["source"],
            e["median"],
            e["min"],
            e["max"],
            len(e["programs"]),
        )
        for e in entries
    }
