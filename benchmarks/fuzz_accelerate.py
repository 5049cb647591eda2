"""Differential fuzzing of `idiom accelerate`: random programs (fuzz.generator) built as the
original and accelerated, run with every replacement forced onto PoCL, outputs compared.

Prints a table of counts per shape and status, every failure with its seed, and keeps each
failing program's files (with a README giving its seed, shape, features and the difference)
under --keep. Exits 1 when any program differs, crashes, fails to build or times out.
Usage: .venv/bin/python benchmarks/fuzz_accelerate.py --count N --seed S [--jobs J]
       [--keep DIR] [--json FILE] [--shape NAME]...

With --shape, the N programs are the first seeds from S on whose main shape is one of
those named (fuzz.generator.SHAPES).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from fuzz.differential import STATUSES, Outcome, check
from fuzz.generator import SHAPES, generate

FAILURES = ("differs", "crashed", "build-failed", "timeout", "original-failed")


def run_seed(seed: int) -> tuple[Outcome, float]:
    """One program, in a private folder; kept under --keep when it fails."""
    start = time.perf_counter()
    program = generate(seed)
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{seed}-") as folder:
        outcome = check(program, Path(folder))
    return outcome, time.perf_counter() - start


def keep_failure(outcome: Outcome, keep: Path) -> Path:
    program = generate(outcome.seed)
    folder = keep / f"seed-{outcome.seed}"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in program.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    readme = (
        f"seed {outcome.seed} shape {outcome.shape} status {outcome.status}\n"
        f"features: {' '.join(outcome.features)}\n"
        f"args: {' '.join(program.args)}\n"
        f"difference: {outcome.detail}\n"
    )
    (folder / "README").write_text(readme, encoding="utf-8")
    return folder


def table(outcomes: list[Outcome]) -> str:
    counts = Counter((o.shape, o.status) for o in outcomes)
    shapes = sorted({o.shape for o in outcomes})
    present = [s for s in STATUSES if any(o.status == s for o in outcomes)]
    width = max([len(s) for s in shapes] + [5])
    lines = [f"{'shape':<{width}}  " + "  ".join(f"{s:>15}" for s in present)]
    for shape in shapes:
        cells = "  ".join(f"{counts[(shape, s)]:>15}" for s in present)
        lines.append(f"{shape:<{width}}  {cells}")
    totals = "  ".join(f"{sum(1 for o in outcomes if o.status == s):>15}" for s in present)
    lines.append(f"{'total':<{width}}  {totals}")
    return "\n".join(lines)


def _seeds(first: int, count: int, shapes: set[str]) -> list[int]:
    """`count` seeds from `first` on: all of them, or those whose main shape is in
    `shapes`."""
    if not shapes:
        return list(range(first, first + count))
    found: list[int] = []
    seed = first
    while len(found) < count:
        if generate(seed).shape in shapes:
            found.append(seed)
        seed += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=Path("fuzz-failures"))
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--shape", action="append", default=[], choices=sorted(SHAPES))
    options = parser.parse_args(argv)
    seeds = _seeds(options.seed, options.count, set(options.shape))
    outcomes: list[Outcome] = []
    seconds: list[float] = []
    started = time.perf_counter()
    # each worker keeps its process (and the warm idiom library) for all its seeds
    with multiprocessing.Pool(options.jobs) as pool:
        for outcome, elapsed in pool.imap_unordered(run_seed, seeds):
            outcomes.append(outcome)
            seconds.append(elapsed)
            if outcome.status != "same":
                kept = keep_failure(outcome, options.keep)
                print(
                    f"seed {outcome.seed} {outcome.shape}: {outcome.status}: "
                    f"{outcome.detail[:400]} (kept in {kept})",
                    flush=True,
                )
    wall = time.perf_counter() - started
    outcomes.sort(key=lambda o: o.seed)
    print(table(outcomes))
    launches = sum(o.launches for o in outcomes)
    for o in outcomes:
        if o.faults:
            print(f"seed {o.seed} {o.shape}: {o.faults} host fault(s) caught by the safety net")
    replaced = sum(o.replaced for o in outcomes)
    print(
        f"{len(outcomes)} programs (seeds {options.seed}..{seeds[-1] if seeds else options.seed}"
        f"{', main shapes ' + ', '.join(sorted(options.shape)) if options.shape else ''}) "
        f"in {wall:.0f} s with {options.jobs} job(s): "
        f"{sum(seconds) / max(len(seconds), 1):.2f} s per program in a worker, "
        f"{replaced} replacements, {launches} runtime calls that did the work"
    )
    if options.json is not None:
        options.json.write_text(
            json.dumps([asdict(o) for o in outcomes], indent=1) + "\n", encoding="utf-8"
        )
    failed = [o for o in outcomes if o.status in FAILURES]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
