"""Checks not launched again while their inputs are unchanged (mappers/runtime/idiom_memo.h).

A CSR product in a time loop runs its two range checks once and then its product only,
as long as the matrix's structure is the same; a program that changes the structure
between products (a column index, a row pointer, on a whole page or on a partial one) gets
the checks again, and the same output as the original.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>

static void spmv(int n, const int *rowptr, const int *col, const double *val,
                 const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = atoi(argv[1]), steps = atoi(argv[2]), change = atoi(argv[3]);
    int nnz = 3 * n;
    int *rowptr = malloc(sizeof(int) * (n + 1)), *col = malloc(sizeof(int) * nnz);
    double *val = malloc(sizeof(double) * nnz);
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        rowptr[i] = k;
        for (int d = -1; d <= 1; d++) {
            col[k] = (i + d + n) % n;
            val[k] = 1.0 + 0.25 * d + 0.001 * (i % 7);
            k++;
        }
        x[i] = 1.0 / (1 + i % 13);
    }
    rowptr[n] = k;
    double checksum = 0.0;
    for (int t = 0; t < steps; t++) {
        spmv(n, rowptr, col, val, x, y);
        for (int i = 0; i < n; i++) {
            x[i] = 0.5 * y[i] + 0.01;
            checksum += y[i];
        }
        /* The structure changes: a column index at the start (a partial page), one in the
           middle (a whole page) and the row pointers' end (another partial page). */
        if (change && t == 3) col[0] = (col[0] + 5) % n;
        if (change && t == 5) col[nnz / 2] = (col[nnz / 2] + 7) % n;
        if (change && t == 7) rowptr[n] = k - 1;
    }
    printf("%.12g %.12g %.12g\n", checksum, y[0], y[n - 1]);
    return 0;
}
"""


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    folder = tmp_path_factory.mktemp("memo")
    source = folder / "csr_steps.c"
    source.write_text(PROGRAM)
    return build_pair(source, folder)


def _launches(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path, args: list[str]
) -> list[dict[str, Any]]:
    stats = tmp_path / "stats.jsonl"
    stats.unlink(missing_ok=True)
    same_outputs(pair, args, {**FORCED, "IDIOM_STATS": str(stats)})
    records = [json.loads(line) for line in stats.read_text().splitlines()]
    return [r for r in records if r["entry"] == "cl_run" and r["kernel"].startswith("idiom_csr")]


def test_an_unchanged_structure_is_checked_once(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    checks = _launches(pair, tmp_path, ["20000", "10", "0"])
    assert len(checks) == 2 * 10  # the positions' and the columns' check, every step
    launched = [r for r in checks if not r.get("replayed")]
    assert {r["kernel"] for r in launched} == {"idiom_csr_positions", "idiom_csr_columns"}
    assert len(launched) == 2
    assert all(r["status"] == 0 for r in checks)


def test_a_changed_structure_is_checked_again(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    checks = _launches(pair, tmp_path, ["20000", "10", "1"])
    assert len(checks) == 2 * 10
    launched = {
        kernel: [
            i // 2 for i, r in enumerate(checks) if r["kernel"] == kernel and not r.get("replayed")
        ]
        for kernel in ("idiom_csr_positions", "idiom_csr_columns")
    }
    # The column indices changed before steps 4 and 6, the row pointers before step 8: each
    # check ran again after a change of what it reads, and only then; the output is the
    # original's (same_outputs).
    assert launched == {"idiom_csr_positions": [0, 8], "idiom_csr_columns": [0, 4, 6, 8]}
