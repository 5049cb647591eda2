"""Where detection spends its time: the search time of each exported idiom over files.

    .venv/bin/python benchmarks/profile_idioms.py FILE... [-I DIR]... [--idiom NAME]...
        [--idioms LIBRARY_DIR] [--passes N]

Each file is compiled once (the front end is not timed); then every idiom of the library
(or those named) searches every function of it alone, as detection does, and the script
prints the seconds and solutions per idiom, most expensive first. With `--passes N` the
files are searched N times and the last pass is timed: the passes before build the
search plans, as a warm server has them (the first pass alone times building them too).
A constraint's parts steer the search in the order written, so a change to an idiom is
worth profiling on a large real file (NAS BT) before and after (`--idioms` takes the
library of before, a folder of .idl files): one idiom's order can cost seconds.
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

from matcher.detect import DISTINCT
from matcher.frontend import CompileOptions, compile_to_ir
from matcher.ir_builder import build_module
from matcher.pipeline import load_library, paused_gc
from matcher.solver import DEFAULT_BUDGET, solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("-I", dest="include", action="append", default=[])
    parser.add_argument("--idiom", action="append", default=[], help="only these idioms")
    parser.add_argument("--idioms", help="an idiom library folder (default: the shipped one)")
    parser.add_argument("--passes", type=int, default=1, help="passes; the last is timed")
    args = parser.parse_args()
    options = CompileOptions(include_dirs=tuple(args.include), extra_flags=("-w",))
    programs = [
        p
        for p in load_library((args.idioms,) if args.idioms else ()).exported_programs()
        if not args.idiom or p.name in args.idiom
    ]
    modules = [build_module(compile_to_ir(path, options), str(path)) for path in args.files]
    gc.freeze()  # the library and models out of the collector's sight, as detection has it
    for _ in range(max(1, args.passes)):
        seconds = {p.name: 0.0 for p in programs}
        solutions = {p.name: 0 for p in programs}
        for module in modules:
            for program in programs:
                started = time.perf_counter()
                with paused_gc():
                    for function in module:
                        result = solve(program, function, budget=DEFAULT_BUDGET, distinct=DISTINCT)
                        solutions[program.name] += len(result.solutions)
                seconds[program.name] += time.perf_counter() - started
    print(f"{'idiom':12} {'seconds':>8} {'solutions':>9}")
    for name in sorted(seconds, key=lambda n: -seconds[n]):
        print(f"{name:12} {seconds[name]:8.2f} {solutions[name]:9}")
    print(f"{'all':12} {sum(seconds.values()):8.2f} {sum(solutions.values()):9}")


if __name__ == "__main__":
    main()
