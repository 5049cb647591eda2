"""`idiom bench`'s measurements (measure/bench.py): the ceiling from a program's
hand-written cblas counterpart in direct/, else from replayed calls; outputs compared."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from idl.errors import IdiomError
from measure.bench import CEILING_DIRECT, bench_program, direct_source

_HEADER = "// corpus: GEMM test program\n// args: test=24 bench=24\n"
_PROGRAM = """#include <stdio.h>
%(include)s
double A[32][32], B[32][32], C[32][32];

void matmul(int n)
{
%(body)s
}

int main(int argc, char **argv)
{
    int n = 24;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i][j] = (i * 3 + j) %% 7 - 3.0;
            B[i][j] = (i + 2 * j) %% 5 - 2.0;
        }
    matmul(n);
    for (int i = 0; i < n; i++)
        printf("%%.10g\\n", C[i][(i * 5) %% n]%(scale)s);
    return 0;
}
"""
_LOOPS = """    for (int i = 0; i < n; i++) {             // expect: GEMM in matmul
        for (int j = 0; j < n; j++) {
            double acc = 0.0;
            for (int k = 0; k < n; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    }"""
_SMALL_RUN = ("--size", "test", "--runs", "1")
_CALL = """    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, &A[0][0], 32,
                &B[0][0], 32, 0.0, &C[0][0], 32);"""


def _write(folder: Path, *, direct_scale: str = "") -> Path:
    program = folder / "gemm_small.c"
    program.write_text(_HEADER + _PROGRAM % {"include": "", "body": _LOOPS, "scale": ""})
    (folder / "direct").mkdir()
    direct = folder / "direct" / "gemm_small.c"
    text = _PROGRAM % {"include": "#include <cblas.h>", "body": _CALL, "scale": direct_scale}
    direct.write_text("// direct: gemm_small.c\n// args: test=24 bench=24\n" + text)
    return program


def test_direct_counterpart_is_the_ceiling(tmp_path: Path) -> None:
    program = _write(tmp_path)
    assert direct_source(program) == tmp_path / "direct" / "gemm_small.c"
    row = bench_program(program, runs=2, size="test")
    assert row.outputs_equal and row.replaced >= 1
    assert row.ceiling_from == CEILING_DIRECT
    assert row.ceiling_s is not None and row.ceiling_s > 0
    assert row.of_ceiling is not None and row.of_ceiling > 0
    assert row.to_json()["of_ceiling"] == round(row.of_ceiling, 3)
    # the compiler alone at its best, timed beside them, its output compared too
    assert row.polly_s is not None and row.polly_s > 0 and row.polly_difference is None
    assert row.vs_polly is not None and row.to_json()["vs_polly"] == round(row.vs_polly, 3)
    assert row.speedup_interval is not None
    low, high = row.speedup_interval
    assert 0 < low <= high  # two rounds: the lower and the higher of the paired ratios


def test_direct_counterpart_with_other_outputs_is_an_error(tmp_path: Path) -> None:
    program = _write(tmp_path, direct_scale=" * 2.0")
    with pytest.raises(IdiomError, match=re.escape("direct/gemm_small.c: its output differs")):
        bench_program(program, runs=1, size="test")


def test_without_counterpart_the_ceiling_is_replayed(tmp_path: Path) -> None:
    program = tmp_path / "gemm_small.c"
    program.write_text(_HEADER + _PROGRAM % {"include": "", "body": _LOOPS, "scale": ""})
    assert direct_source(program) is None
    row = bench_program(program, runs=1, size="test", polly=False)
    assert row.outputs_equal and row.polly_s is None and row.vs_polly is None
    assert row.ceiling_from != CEILING_DIRECT
    assert row.ceiling_s == row.replay_s


def test_cli_prints_the_table_and_json(tmp_path: Path) -> None:
    program = _write(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "bench", str(program), *_SMALL_RUN, "--json", "-"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, "COLUMNS": "250"},  # rich folds a narrow table's cells
    )
    assert result.returncode == 0, result.stderr
    (row,) = json.loads(result.stdout)
    assert row["program"] == "gemm_small.c" and row["outputs_equal"] is True
    assert row["ceiling_from"] == CEILING_DIRECT and row["of_ceiling"] > 0
    assert row["vs_polly"] > 0 and row["polly_difference"] is None
    assert "vs ceiling" in result.stderr and "direct" in result.stderr
    assert "vs polly" in result.stderr
