"""The measured figures behind `idiom check`'s estimated benefits: writes ci/benefit.json.

For each idiom and kind of replacement, the whole-program speedups (original time over
accelerated time, medians of the recorded runs) of the corpus programs built around that
idiom (named by their file-name prefix: `gemm_`, `gemv_`, `red_`, `hist_`, `stencil_`,
`csr_`, `jds_`, `ell_`, `coo_`, `symm_`, `scan_`; near-misses `nm_` left out), from the
benchmark results in
docs/results/:

- BLAS (GEMM, GEMV): `cpu_2core_original_world_2026-11-23.json`, two CPU cores, OpenBLAS
  on two threads;
  a row counts when the program made the idiom's BLAS call and its output was equal;
- OpenCL kernels on a GPU: `gpu_h100_bench.json`, an NVIDIA H100, and for ELLPACK and
  COO `gpu_h100_sparse_formats_2026-11-24.json`; a row counts when the idiom's kernel ran
  and the output was equal;
- OpenCL kernels without a GPU: `cpu_2core_original_world_2026-11-23.json` again, where no
  launch could happen (the guard keeps the original loop): a row counts when no call was made;
- SYMM: `bench_gemv_symm_batched_2026-11-25.json` (`idiom bench --json` rows, two CPU cores,
  OpenBLAS); a row counts when SYMM is among the idioms it replaced and its output was equal;
- Scan: `scan_h200_auto_continues_2026-11-28.json`, an NVIDIA H200 under `IDIOM_DEVICE=auto`.

    .venv/bin/python benchmarks/check_benefit.py [--check]

`--check` compares with the committed file instead of writing it (exit 1 when it differs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "ci" / "benefit.json"
CPU = "docs/results/cpu_2core_original_world_2026-11-23.json"
GPU = "docs/results/gpu_h100_bench.json"

PREFIXES = {
    "gemm_": "GEMM",
    "gemv_": "GEMV",
    "red_": "Reduction",
    "hist_": "Histogram",
    "stencil_": "Stencil",
    "csr_": "SpMV_CSR",
    "jds_": "SpMV_JDS",
    "ell_": "SpMV_ELL",
    "coo_": "SpMV_COO",
    "symm_": "SYMM",
    "scan_": "Scan",
}
# What a program's runtime records (`calls`) name when the idiom's replacement ran.
BLAS_ENTRIES = {"GEMM": "gemm", "GEMV": "gemv"}
KERNELS = {
    "Reduction": "idiom_reduce",
    "Histogram": "idiom_histogram",
    "Stencil": "idiom_stencil",
    "SpMV_CSR": "idiom_spmv",
    "SpMV_JDS": "idiom_jds_spmv",
    "SpMV_ELL": "idiom_spmv",
    "SpMV_COO": "idiom_histogram",
    "Scan": "idiom_scan_chunks",
}
SPARSE_GPU = "docs/results/gpu_h100_sparse_formats_2026-11-24.json"
BENCH = "docs/results/bench_gemv_symm_batched_2026-11-25.json"
SCAN_GPU = "docs/results/scan_h200_auto_continues_2026-11-28.json"
# (target, where, source file, which rows count, the idioms it is for: None for all)
SOURCES: tuple[tuple[str, str, str, str, frozenset[str] | None], ...] = (
    ("blas", "2 CPU cores, OpenBLAS", CPU, "blas", None),
    ("opencl", "an NVIDIA H100 GPU", GPU, "kernel", None),
    ("opencl", "an NVIDIA H100 GPU", SPARSE_GPU, "kernel", frozenset({"SpMV_ELL", "SpMV_COO"})),
    ("opencl-no-gpu", "2 CPU cores without a GPU (the loop kept)", CPU, "no-call", None),
    ("blas", "2 CPU cores, OpenBLAS", BENCH, "bench", frozenset({"SYMM"})),
    ("opencl", "an NVIDIA H200 GPU under auto", SCAN_GPU, "kernel", frozenset({"Scan"})),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file")
    args = parser.parse_args()
    text = json.dumps(benefit_table(ROOT), indent=1) + "\n"
    if args.check:
        same = OUTPUT.is_file() and OUTPUT.read_text() == text
        print(f"{OUTPUT.relative_to(ROOT)}: {'up to date' if same else 'differs'}")
        sys.exit(0 if same else 1)
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")


def benefit_table(root: Path) -> dict[str, object]:
    entries = []
    for target, where, source, kind, only in SOURCES:
        recorded = json.loads((root / source).read_text())
        programs = recorded if kind == "bench" else recorded["programs"]
        for idiom in PREFIXES.values():
            if only is not None and idiom not in only:
                continue
            if kind != "bench" and (kind == "blas") != (idiom in BLAS_ENTRIES):
                continue
            rows = [
                (row["program"], _arguments(row), round(row["speedup"], 3))
                for row in programs
                if _idiom_of(row["program"]) == idiom
                and row["outputs_equal"]
                and _counts(row, idiom, kind)
            ]
            if not rows:
                continue
            speedups = [speedup for _, _, speedup in rows]
            entries.append(
                {
                    "idiom": idiom,
                    "target": target,
                    "where": where,
                    "source": source,
                    "programs": [list(row) for row in sorted(rows)],
                    "median": round(statistics.median(speedups), 2),
                    "min": round(min(speedups), 2),
                    "max": round(max(speedups), 2),
                }
            )
    return {"generated_by": "benchmarks/check_benefit.py", "entries": entries}


def _idiom_of(program: str) -> str | None:
    return next((idiom for prefix, idiom in PREFIXES.items() if program.startswith(prefix)), None)


def _arguments(row: dict[str, object]) -> str:
    """The program's arguments as the row records them (bench rows: the corpus's bench
    arguments, not recorded)."""
    args = row.get("args")
    return " ".join(str(a) for a in args) if isinstance(args, list) else "bench"


def _counts(row: dict[str, object], idiom: str, kind: str) -> bool:
    if kind == "bench":
        replaced = str(row.get("idioms", "")).replace(",", " ").split()
        return idiom in replaced
    calls = row.get("calls") or []
    assert isinstance(calls, list)
    if kind == "no-call":
        return not calls
    if kind == "blas":
        return any(call.get("entry") == BLAS_ENTRIES[idiom] for call in calls)
    return any(call.get("kernel") == KERNELS[idiom] for call in calls)


if __name__ == "__main__":
    main()
