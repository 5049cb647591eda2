"""Many runs of `fuzz_accelerate.py --json` summed up: programs per shape and status, seeds.

    .venv/bin/python benchmarks/fuzz_summary.py RUN.json... [--json SUMMARY.json]

Each RUN.json is the list of outcomes one `fuzz_accelerate.py` run wrote. A seed that
appears in several runs counts once, from the last file given (a rerun of seeds whose first
run was spoiled by the machine, say, given after it). Prints the table and the totals;
exits 1 when any counted program differs, crashed, failed to build or timed out.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

__all__ = ["main"]

FAILURES = ("differs", "crashed", "build-failed", "timeout", "original-failed")


def outcomes_of(files: list[Path]) -> dict[int, dict[str, Any]]:
    """seed -> outcome, the last file's winning."""
    by_seed: dict[int, dict[str, Any]] = {}
    for path in files:
        for outcome in json.loads(path.read_text(encoding="utf-8")):
            by_seed[int(outcome["seed"])] = outcome
    return by_seed


def seed_ranges(seeds: list[int]) -> list[list[int]]:
    ranges: list[list[int]] = []
    for seed in sorted(seeds):
        if ranges and seed == ranges[-1][1] + 1:
            ranges[-1][1] = seed
        else:
            ranges.append([seed, seed])
    return ranges


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the summary there")
    args = parser.parse_args()
    outcomes = list(outcomes_of(args.runs).values())
    statuses = Counter(o["status"] for o in outcomes)
    shapes: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        shapes.setdefault(outcome["shape"], Counter())[outcome["status"]] += 1
    width = max(len(s) for s in shapes)
    for shape in sorted(shapes):
        cells = ", ".join(f"{status} {n}" for status, n in sorted(shapes[shape].items()))
        print(f"{shape:<{width}}  {cells}")
    summary = {
        "programs": len(outcomes),
        "seeds": seed_ranges([int(o["seed"]) for o in outcomes]),
        "status": dict(statuses),
        "shapes": {shape: dict(counts) for shape, counts in sorted(shapes.items())},
        "replacements": sum(int(o["replaced"]) for o in outcomes),
        "runtime_calls_that_did_the_work": sum(int(o["launches"]) for o in outcomes),
        "faults_caught_by_the_net": sum(int(o["faults"]) for o in outcomes),
    }
    print(
        f"{summary['programs']} programs, seeds {summary['seeds']}: {dict(statuses)}; "
        f"{summary['replacements']} replacements, "
        f"{summary['runtime_calls_that_did_the_work']} runtime calls that did the work, "
        f"{summary['faults_caught_by_the_net']} host faults caught by the safety net"
    )
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 1 if any(statuses[s] for s in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
