"""Solve time and steps with the selective variable order vs the order of appearance.

    .venv/bin/python benchmarks/bench_solver_order.py [--idioms] [corpus files...]

The programs are built directly (no IDL parser): loop structures in the style of the
IDL paper's `For`, a reduction with a collect of its reads, and a GEMM-like nest of
three loops. They are written in a natural order (structure first), as an idiom author
writes them. With `--idioms`, the exported idioms of the IDL library are used instead
(compiled once before timing). For each corpus file the script also times
`clang-22 -O2 -c`, the reference for the cost budget of detection (at most about 1.5
times that). Each search has a budget of BUDGET steps.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from idl.library import default_library
from idl.program import Atom, AtomKind, Collect, Conjunction, Disjunction, Formula, Program
from idl.program import formula_variables as variables_of
from matcher.frontend import compile_to_ir, find_tool
from matcher.function_index import index_of
from matcher.ir import Function
from matcher.ir_builder import build_module
from matcher.solver import Order, solve
from matcher.solver_program import compile_program

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILES = ("red_dot.c", "gemm_vla_jik.c", "csr_struct.c", "hist_keys.c")
ORDERS: tuple[Order, ...] = ("selective", "appearance")
REPEATS = 3
BUDGET = 300_000


def atom(kind: str, *names: str, detail: str | int | None = None) -> Atom:
    return Atom(AtomKind(kind), names, detail)


def both(*parts: Formula) -> Conjunction:
    return Conjunction(parts)


def either(*parts: Formula) -> Disjunction:
    return Disjunction(parts)


def for_loop(p: str) -> list[Formula]:
    """A rotated counted loop: header phi, increment, compare, latch branch."""
    return [
        atom("opcode", f"{p}iterator", detail="phi"),
        atom("integer_type", f"{p}iterator"),
        atom("opcode", f"{p}increment", detail="add"),
        atom("operand", f"{p}iterator", f"{p}increment", detail=0),
        atom("reaches_phi", f"{p}increment", f"{p}iterator", f"{p}end"),
        atom("opcode", f"{p}comparison", detail="icmp"),
        atom("data_flow", f"{p}increment", f"{p}comparison"),
        atom("opcode", f"{p}end", detail="br"),
        atom("operand", f"{p}comparison", f"{p}end", detail=0),
        either(
            both(
                atom("successor", f"{p}begin", f"{p}end", detail=0),
                atom("successor", f"{p}exit", f"{p}end", detail=1),
            ),
            both(
                atom("successor", f"{p}begin", f"{p}end", detail=1),
                atom("successor", f"{p}exit", f"{p}end", detail=0),
            ),
        ),
        atom("dominates", f"{p}begin", f"{p}iterator"),
        atom("reaches_phi", f"{p}init", f"{p}iterator", f"{p}precursor"),
        atom("not_same", f"{p}precursor", f"{p}end"),
    ]


def program(name: str, parts: list[Formula]) -> Program:
    formula = Conjunction(tuple(parts))
    return Program(name, True, formula, variables_of(formula))


def in_loop(p: str, value: str) -> list[Formula]:
    return [atom("dominates", f"{p}begin", value), atom("post_dominates", f"{p}end", value)]


def reduction() -> Program:
    reads = Collect(
        4,
        both(atom("opcode", "read[0]", detail="load"), *in_loop("loop.", "read[0]")),
        tuple((f"read[{k}]",) for k in range(4)),
    )
    return program(
        "Reduction",
        [
            *for_loop("loop."),
            atom("opcode", "acc", detail="phi"),
            atom("float_type", "acc"),
            atom("reaches_phi", "next", "acc", "loop.end"),
            atom("opcode", "next", detail="fadd"),
            atom("data_flow", "acc", "next"),
            atom("reaches_phi", "acc_init", "acc", "loop.precursor"),
            reads,
        ],
    )


def gemm_nest() -> Program:
    parts: list[Formula] = []
    for p in ("outer.", "middle.", "inner."):
        parts += for_loop(p)
    parts += [
        atom("strictly_dominates", "outer.begin", "middle.begin"),
        atom("strictly_dominates", "middle.begin", "inner.begin"),
        atom("strictly_post_dominates", "outer.end", "middle.end"),
        atom("strictly_post_dominates", "middle.end", "inner.end"),
        atom("opcode", "mul", detail="fmul"),
        atom("opcode", "sum", detail="fadd"),
        atom("data_flow", "mul", "sum"),
        *in_loop("inner.", "mul"),
        atom("operand", "left", "mul", detail=0),
        atom("operand", "right", "mul", detail=1),
        atom("opcode", "left", detail="load"),
        atom("opcode", "right", detail="load"),
    ]
    return program("GemmNest", parts)


def load_of_argument() -> Program:
    return program(
        "LoadOfArgument",
        [
            atom("opcode", "load", detail="load"),
            atom("operand", "address", "load", detail=0),
            atom("opcode", "address", detail="getelementptr"),
            atom("operand", "base", "address", detail=0),
            atom("argument", "base"),
        ],
    )


def weak_first() -> Program:
    """Written with its weak atoms first: the order of appearance pays for it."""
    return program(
        "WeakFirst",
        [
            atom("strictly_dominates", "x", "y"),
            atom("data_flow", "x", "y"),
            atom("opcode", "y", detail="fmul"),
        ],
    )


def programs() -> list[Program]:
    loop = program("ForLoop", for_loop(""))
    return [load_of_argument(), weak_first(), loop, reduction(), gemm_nest()]


def clang_seconds(path: Path) -> float:
    command = [find_tool("clang"), "-O2", "-c", str(path), "-o", "/dev/null"]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def run_file(path: Path, progs: list[Program]) -> tuple[float, float]:
    """Prints one line per (program, order); returns (selective solve seconds, clang)."""
    clang = min(clang_seconds(path) for _ in range(3))
    start = time.perf_counter()
    module = build_module(compile_to_ir(path), str(path))
    front = time.perf_counter() - start
    print(
        f"\n{path.name}: {len(module.functions)} functions, clang -O2 -c {clang * 1e3:.0f} ms, "
        f"front end + model {front * 1e3:.0f} ms"
    )
    selective_total = 0.0
    for prog in progs:
        cells = []
        for order in ORDERS:
            seconds, steps, found, cut = _solve_all(prog, module.functions, order)
            if order == "selective":
                selective_total += seconds
            mark = " (cut short)" if cut else ""
            cells.append(
                f"{order:>10}: {seconds * 1e3:8.1f} ms {steps:>9} steps {found:>3} sol{mark}"
            )
        print(f"  {prog.name:<15}" + " | ".join(cells))
    print(
        f"  all programs, selective order: {selective_total * 1e3:.1f} ms "
        f"= {selective_total / clang:.2f} x clang -O2 -c"
    )
    return selective_total, clang


def _solve_all(
    prog: Program, functions: tuple[Function, ...], order: Order
) -> tuple[float, int, int, bool]:
    """Best of REPEATS runs per function (the per-function index is built beforehand:
    detection builds it once for all idioms)."""
    seconds, steps, found, cut = 0.0, 0, 0, False
    for function in functions:
        index_of(function)
        best = float("inf")
        for _ in range(REPEATS):
            start = time.perf_counter()
            result = solve(prog, function, order=order, budget=BUDGET)
            best = min(best, time.perf_counter() - start)
        seconds += best
        steps += result.steps
        found += len(result)
        cut = cut or result.exhausted
    return seconds, steps, found, cut


def library_programs() -> list[Program]:
    progs = default_library().exported_programs()
    for prog in progs:
        compile_program(prog)  # once per process in detection too: not timed
    return progs


def main(argv: list[str]) -> None:
    idioms = "--idioms" in argv
    names = [a for a in argv if a != "--idioms"] or list(DEFAULT_FILES)
    progs = library_programs() if idioms else programs()
    total_solve = total_clang = 0.0
    for name in names:
        path = Path(name) if Path(name).exists() else ROOT / "corpus" / name
        solve_s, clang_s = run_file(path, progs)
        total_solve, total_clang = total_solve + solve_s, total_clang + clang_s
    print(
        f"\nall files: selective solve {total_solve * 1e3:.0f} ms, "
        f"clang {total_clang * 1e3:.0f} ms, ratio {total_solve / total_clang:.2f}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
