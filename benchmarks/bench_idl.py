"""Time to parse and compile the idiom library.

    python benchmarks/bench_idl.py [--runs 7] [--specs 200]

Measures the shipped library (`idl/idioms`) and, because that library is small or
empty early on, a generated one of `--specs` specifications in the style real idioms
are written in (loop nests, inheritance with renaming, ranges, `or`, `collect`,
recursion). Prints the median and the spread of several runs, each on a fresh
`Library`, so no compile cache carries over, and the same compile with every slot of
each collect expanded (the expander without `idl/slots.py`'s prediction).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from idl import Library, compiler
from idl.library import DEFAULT_FOLDER, read_sources
from idl.parser import parse_text

# Building blocks every generated idiom uses.
_BLOCKS = """
Constraint BenchLoop
( {begin} spans block to {end} and {end} is branch instruction and
  {iterator} is phi instruction and {next} is add instruction and
  {iterator} is first argument of {next} and {step} is second argument of {next} and
  {step} is a constant and {next} reaches phi node {iterator} from {end} and
  ( {bound} is preexecution or {bound} strictly control flow dominates {begin} ) )
End

Constraint BenchNest
( if N=0 then {outer} is an instruction
  else ( inherits BenchLoop at {loop[N-1]} and
         {loop[N-1].begin} control flow post dominates {outer} and
         inherits BenchNest(N=N-1) with {loop[N-1].begin} as {outer} ) endif )
End

Constraint BenchEitherOrder
( ( {a} is first argument of {op} and {b} is second argument of {op} ) or
  ( {b} is first argument of {op} and {a} is second argument of {op} ) )
End
"""


def _idiom(number: int) -> str:
    depth = 1 + number % 3
    reads = 2 + number % 5
    return f"""
# Generated idiom {number}: a {depth}-deep nest reading {reads} arrays.
Export Constraint BenchIdiom{number}
( inherits BenchNest(N={depth}) at {{nest}} and
  ( ( {{read[i]}} is load instruction and
      {{addr[i]}} is gep instruction and
      {{addr[i]}} is first argument of {{read[i]}} and
      {{base[i]}} is first argument of {{addr[i]}} and
      {{base[i]}} is preexecution ) for all i=0..R ) and
  ( inherits BenchEitherOrder with {{read[k]}} as {{a}} and {{read[k+1]}} as {{b}}
      at {{pair[k]}} for all k=0..R-1 ) and
  ( {{result}} is fadd instruction or {{result}} is fmul instruction or
    {{result}} is add instruction ) and
  collect j 4 ( {{use[j]}} has data flow to {{result}} and {{use[j]}} is store instruction ) and
  all data flow from {{read[0]}} to {{result}} passes through {{result}} )
for R={reads} if not otherwise specified
End
"""


def generated_library(specs: int) -> dict[str, str]:
    """`specs` specifications over ten files, like a library split by idiom family."""
    files: dict[str, list[str]] = {"blocks.idl": [_BLOCKS]}
    for number in range(specs - 3):
        files.setdefault(f"family{number % 10}.idl", []).append(_idiom(number))
    return {name: "".join(parts) for name, parts in files.items()}


def _median(runs: int, work: Callable[[], object]) -> tuple[float, float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def _report(label: str, texts: Mapping[str, str], runs: int) -> None:
    library = Library.from_texts(texts)
    names = len(library.names)
    atoms = sum(len(p.variables) for p in library.exported_programs())

    def parse() -> None:
        for name, text in texts.items():
            parse_text(text, name)

    def parse_and_compile() -> None:
        Library.from_texts(texts).exported_programs()

    size = sum(len(text) for text in texts.values())
    print(f"{label}: {len(texts)} files, {size / 1024:.1f} KiB, {names} specifications")
    if not names:
        return

    def every_slot_expanded() -> None:
        # The expander without its prediction of a collect's slots (idl/slots.py).
        with mock.patch.object(compiler, "index_in_names_only", lambda body, index: False):
            parse_and_compile()

    medians = {}
    for what, work in (
        ("parse", parse),
        ("parse + compile", parse_and_compile),
        ("... every slot", every_slot_expanded),
    ):
        median, low, high = _median(runs, work)
        medians[what] = median
        spread = f"(min {low * 1000:.1f}, max {high * 1000:.1f})"
        print(f"  {what:16} median {median * 1000:8.1f} ms  {spread}")
    ratio = medians["... every slot"] / medians["parse + compile"]
    print(f"  every slot of each collect expanded / slots predicted: {ratio:.2f}")
    print(f"  exported programs have {atoms} variables in all")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per measurement")
    parser.add_argument("--specs", type=int, default=200, help="size of the generated library")
    args = parser.parse_args()
    start = time.perf_counter()
    parse_text("", "warm-up.idl")  # builds the LALR tables once
    print(f"grammar load: {(time.perf_counter() - start) * 1000:.1f} ms (once per process)")
    _report("shipped library (idl/idioms)", read_sources([DEFAULT_FOLDER]), args.runs)
    _report("generated library", generated_library(args.specs), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
