"""What a second `idiom check` over an unchanged tree costs, against the first.

    .venv/bin/python benchmarks/check_rerun.py TREE [--flags "-I DIR ..."] [--runs N]
                                               [--json FILE]

Whole invocations as CI runs them (`idiom check TREE --format sarif`, process start
included), in a private cache and server folder of the benchmark's own:
- first: an empty cache, no server (what a fresh CI machine pays);
- second: the same command again, `IDIOM_SERVER=0` (each unit's result from the cache);
- served: the same again with the warm server the first command left.
The SARIF of every run must be the same file (compared; the run fails otherwise). Prints
the times and the ratios first/second and first/served; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main"]


def idiom_command() -> list[str]:
    script = Path(sys.executable).parent / "idiom"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "cli.main"]


def run_check(command: list[str], environment: dict[str, str], output: Path) -> float:
    start = time.perf_counter()
    result = subprocess.run(
        [*command, "-o", str(output)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    if result.returncode not in (0, 1, 2):
        raise SystemExit(f"idiom check failed ({result.returncode}):\n{result.stderr}")
    return seconds


def start_server(environment: dict[str, str]) -> None:
    """The warm server started, and answering (`idiom server start` waits for it)."""
    subprocess.run(
        [*idiom_command(), "server", "start"], env=environment, capture_output=True, check=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tree", type=Path)
    parser.add_argument("--flags", default="", help="front-end flags, e.g. '-I TREE/common'")
    parser.add_argument("--runs", type=int, default=3, help="runs of the second and served")
    parser.add_argument("--json", type=Path, help="write the figures there")
    args = parser.parse_args()
    command = [*idiom_command(), "check", str(args.tree), "--format", "sarif"]
    command += shlex.split(args.flags)
    with tempfile.TemporaryDirectory(prefix="idiom-rerun-") as folder:
        base = Path(folder)
        (base / "run").mkdir(mode=0o700)
        environment = {
            **os.environ,
            "IDIOM_CACHE_DIR": str(base / "cache"),
            "XDG_RUNTIME_DIR": str(base / "run"),
            "IDIOM_SERVER": "1",
        }
        alone = {**environment, "IDIOM_SERVER": "0"}
        try:
            first = run_check(command, environment, base / "first.sarif")
            start_server(environment)
            second = [run_check(command, alone, base / "second.sarif") for _ in range(args.runs)]
            served = [
                run_check(command, environment, base / "served.sarif") for _ in range(args.runs)
            ]
        finally:
            subprocess.run(
                [*idiom_command(), "server", "stop"],
                env=environment,
                check=False,
                capture_output=True,
            )
        reports = {
            name: (base / f"{name}.sarif").read_bytes() for name in ("first", "second", "served")
        }
        if len(set(reports.values())) != 1:
            raise SystemExit("the reports differ between runs")
        results = len(json.loads(reports["first"])["runs"][0]["results"])
    second_s, served_s = statistics.median(second), statistics.median(served)
    figures: dict[str, object] = {
        "tree": str(args.tree),
        "results": results,
        "first_s": round(first, 2),
        "second_s": round(second_s, 3),
        "served_s": round(served_s, 3),
        "first_over_second": round(first / second_s, 1),
        "first_over_served": round(first / served_s, 1),
    }
    print(
        f"{args.tree}: {results} findings; first {first:.2f}s, second {figures['second_s']:.3f}s "
        f"({figures['first_over_second']}x), served {figures['served_s']:.3f}s "
        f"({figures['first_over_served']}x); median of {args.runs}"
    )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
