"""`idiom lift FILE --function F [--line L]`: the functional expression of a match, the
rewrites that lowered it, the lowered expression and the kernel the Lift compiler
generated; what replaced a match that has no generated kernel; clear errors."""

from __future__ import annotations

import contextlib
import functools
import io
import textwrap
from pathlib import Path

import numpy as np
import pytest

from cli.main import main
from lift.ir import expr as ir
from lift.ir.interpret import run
from lift.ir.text import parse, pretty
from tests.cli.test_cli_errors import assert_clean_failure, idiom

SOURCE = """\
#include <stdio.h>
#include <stdlib.h>

static void blur(int n, const float *a, float *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
}

void two(int n, const double *a, double *b, double *c)
{
    for (int i = 1; i <= n; i++)
        b[i] = a[i - 1] - a[i + 1];
    for (int i = 1; i <= n; i++)
        c[i] = a[i - 1] * a[i + 1];
}

void ramp(int n, const double *a, double *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = (a[i - 1] + a[i + 1]) * i;
}

void halves(int n, const int *a, int *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = __builtin_abs(a[i - 1] - a[i + 1]) / 2;
}

void deep(int n, const double *a, double *b)
{
    for (int i = 1; i <= n; i++) {
        double x = a[i - 1] - a[i + 1];
        x = x * x - x / 3.0;  /* each step reads x three times */
        x = x * x - x / 3.0;
        x = x * x - x / 3.0;
        x = x * x - x / 3.0;
        x = x * x - x / 3.0;
        x = x * x - x / 3.0;
        x = x * x - x / 3.0;
        x = x * x - x / 3.0;
        b[i] = x;
    }
}

void matvec(int n, const double *m, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += m[i * n + j] * x[j];
        y[i] = s;
    }
}

int tally(int n, const unsigned char *a)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];  /* tally */
    return s;
}

double total(int n, const double *a)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i];  /* total */
    return s;
}

void nothing(int n, double *a)
{
    a[0] = n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    float *f = calloc(n + 2, sizeof(float)), *g = calloc(n + 2, sizeof(float));
    double *a = calloc(n * n + 2, sizeof(double)), *b = calloc(n + 2, sizeof(double));
    double *c = calloc(n + 2, sizeof(double));
    unsigned char *k = calloc(n, 1);
    int *h = calloc(n + 2, sizeof(int)), *hh = calloc(n + 2, sizeof(int));
    /* the signal comes from the input: a freshly zeroed one would fold blur's reads */
    if (fread(f, sizeof(float), n + 2, stdin) != (size_t)(n + 2))
        return 1;
    blur(n, f, g);
    two(n, a, b, c);
    ramp(n, a, b);
    halves(n, h, hh);
    deep(n, a, c);
    matvec(n, a, b, c);
    nothing(n, a);
    printf("%g %g %d %g %d\\n", g[1], c[1], tally(n, k), total(n, c), hh[1]);
    return 0;
}
"""

SECTIONS = ("expression:", "rewrites:", "lowered:", "kernel:")
GROUP_OF_128 = "__attribute__((reqd_work_group_size(128, 1, 1))) "
GROUP_OF_256 = "__attribute__((reqd_work_group_size(256, 1, 1))) "


def line_of(text: str) -> int:
    """The line of SOURCE holding `text` (once)."""
    (number,) = [k for k, line in enumerate(SOURCE.splitlines(), start=1) if text in line]
    return number


B_LINE = line_of("b[i] = a[i - 1] - a[i + 1];")  # two's first loop: lines B_LINE - 1, B_LINE
C_LINE = line_of("c[i] = a[i - 1] * a[i + 1];")  # and its second


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lift") / "program.c"
    path.write_text(SOURCE)
    return path


@functools.cache
def lift(path: Path, *args: str) -> tuple[int, str, str]:
    """`idiom lift path args...` in this process: exit code, stdout, stderr (each command
    accelerates the file in memory: run once per arguments)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["lift", str(path), *args])
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def section(output: str, name: str) -> str:
    """The indented text under `name:` in `output` (the first match shown), unindented."""
    lines = output.splitlines()
    start = lines.index(f"{name}:") + 1
    body = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        body.append(line)
    return textwrap.dedent("\n".join(body))


def heads(output: str) -> list[str]:
    """The first line of each match shown."""
    return [line for line in output.splitlines() if " at lines " in line]


def test_a_stencil_shows_its_expression_rewrites_lowered_expression_and_kernel(
    program: Path,
) -> None:
    code, out, err = lift(program, "--function", "two", "--line", str(B_LINE))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        f"Stencil at lines {B_LINE - 1}-{B_LINE} of two: OpenCL stencil kernel (generated)"
    )
    # The sections in this order, each once; the rewrites on their line.
    markers = [k for k, line in enumerate(lines) if line.split(" ")[0] in SECTIONS]
    assert [lines[k].split(" ")[0] for k in markers] == list(SECTIONS)
    # A loop of one dimension also gets a kernel computing two points at a time, launched
    # where its guard holds: shown after the plain one.
    assert lines[markers[1]] == (
        "rewrites: lower-map(global 0), vectorise(2), where the guard finds every stride 1 "
        "and the count a multiple of 2"
    )
    expression, lowered = section(out, "expression"), section(out, "lowered")
    plain, vectorised = lowered.split("\n(lambda")
    vectorised = "(lambda" + vectorised
    for text in (expression, plain, vectorised):
        parsed = parse(text)
        assert isinstance(parsed, ir.Lambda)
        assert pretty(parsed) == text
    assert "(map-global 0" in plain
    assert "(join-vec" in vectorised and "(split-vec 2" in vectorised
    assert "map-global" not in expression
    kernel = section(out, "kernel")
    assert kernel.count("__kernel void idiom_stencil(") == 2
    assert kernel.count("vload2(") == 2  # a[i - 1] and a[i + 1], two points each
    assert "#pragma OPENCL FP_CONTRACT OFF" in kernel
    assert kernel.rstrip().endswith("}")


def test_the_expression_means_the_loop(program: Path) -> None:
    """b[i] = a[i - 1] - a[i + 1], i = 1..n, through lift's interpreter: the reads are
    views of a at offsets 0 and 2 (from the lowest element read) with stride 1."""
    _, out, _ = lift(program, "--function", "two", "--line", str(B_LINE))
    expression = parse(section(out, "expression"))
    assert isinstance(expression, ir.Lambda)
    a = [float(v) for v in np.random.default_rng(3).normal(size=12)]
    buffers = {"g0": [0.0] * 10, "g1": a}
    sizes = {"i0_o": 0, "i1_o": 0, "i2_o": 2, "g0_s0": 1, "g1_s0": 1, "n0": 10}
    sizes |= {"g0_len": 10, "g1_len": 12}
    result = run(expression, [buffers[p.name] for p in expression.params], sizes)
    assert [float(v) for v in result] == [a[i - 1] - a[i + 1] for i in range(1, 11)]


def test_line_selects_the_match_spanning_it(program: Path) -> None:
    code, both, _ = lift(program, "--function", "two")
    assert code == 0
    assert heads(both) == [
        f"Stencil at lines {B_LINE - 1}-{B_LINE} of two: OpenCL stencil kernel (generated)",
        f"Stencil at lines {C_LINE - 1}-{C_LINE} of two: OpenCL stencil kernel (generated)",
    ]
    assert both.count("\nkernel:\n") == 2
    for line, loop in ((B_LINE - 1, B_LINE), (B_LINE, B_LINE), (C_LINE - 1, C_LINE)):
        code, out, _ = lift(program, "--function", "two", "--line", str(line))
        assert code == 0
        (head,) = heads(out)
        assert head.startswith(f"Stencil at lines {loop - 1}-{loop} of two:")
        assert out.count("\nkernel:\n") == 1
        operation = "(- (get 0 p) (get 1 p))" if loop == B_LINE else "(* (get 0 p) (get 1 p))"
        assert operation in section(out, "expression")


def test_a_loop_index_used_as_a_value_is_a_coordinate_of_the_grid(program: Path) -> None:
    code, out, _ = lift(program, "--function", "ramp")
    assert code == 0
    loop = line_of("b[i] = (a[i - 1] + a[i + 1]) * i;")
    (head,) = heads(out)
    assert head == f"Stencil at lines {loop - 1}-{loop} of ramp: OpenCL stencil kernel (generated)"
    assert "(indices 0 (n0))" in section(out, "expression")


def test_an_integer_magnitude_is_generated(program: Path) -> None:
    """LLVM's llvm.abs (its flag for the smallest int dropped): OpenCL's abs, whose
    unsigned result is converted back to int."""
    code, out, _ = lift(program, "--function", "halves")
    assert code == 0
    loop = line_of("b[i] = __builtin_abs(a[i - 1] - a[i + 1]) / 2;")
    (head,) = heads(out)
    expected = f"Stencil at lines {loop - 1}-{loop} of halves: OpenCL stencil kernel (generated)"
    assert head == expected
    assert "(abs (- (get 0 p) (get 1 p)))" in section(out, "expression")
    assert "((int)abs(" in section(out, "kernel")


def test_values_a_body_shares_are_said_once(program: Path) -> None:
    """Each step reads the one before three times: said where used, the body would repeat
    them thousands of times; each is said once, bound by a lambda applied to it (a let),
    which the kernel computes into a variable."""
    code, out, _ = lift(program, "--function", "deep")
    assert code == 0
    (head,) = heads(out)
    first, last = line_of("void deep(") + 2, line_of("b[i] = x;")
    assert head == f"Stencil at lines {first}-{last} of deep: OpenCL stencil kernel (generated)"
    expression = section(out, "expression")
    assert "(lambda (v7) (- (* v7 v7) (/ v7 3.0:f64)))" in expression
    assert len(expression) < 2000
    kernel = section(out, "kernel")
    assert kernel.count("const double lk_v") >= 8


def test_a_match_replaced_otherwise_says_by_what(
    program: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IDIOM_KERNELS", "translated")  # kernels translated from the IR
    code, out, _ = lift.__wrapped__(program, "--function", "halves")  # not the memo: other env
    assert code == 0
    loop = line_of("b[i] = __builtin_abs(a[i - 1] - a[i + 1]) / 2;")
    assert out.strip() == (
        f"Stencil at lines {loop - 1}-{loop} of halves: replaced by OpenCL stencil kernel; no "
        "kernel generated for it (no functional expression of this match)"
    )
    monkeypatch.delenv("IDIOM_KERNELS")
    code, out, _ = lift(program, "--function", "matvec")  # GEMV: BLAS
    assert code == 0
    gemv = [line for line in heads(out) if line.startswith("GEMV ")]
    assert len(gemv) == 1
    assert ": replaced by " in gemv[0] and "no kernel generated for it" in gemv[0]
    assert not any(s in out.splitlines() for s in SECTIONS)


def test_a_sum_of_bytes_widens_each_byte(program: Path) -> None:
    """An unsigned char read as the functional IR's i8 and zero-extended as C does:
    sign-extended, then its own bits kept."""
    code, out, _ = lift(program, "--function", "tally")
    assert code == 0
    loop = line_of("s += a[i];  /* tally */")
    (head,) = heads(out)
    assert (
        head
        == f"Reduction at lines {loop - 1}-{loop} of tally: OpenCL reduction kernel (generated)"
    )
    assert "(array i8 g0_len)" in section(out, "expression")
    assert "(& (i32 p) 255:i32)" in section(out, "expression")


def test_a_floating_point_reduction_shows_its_expression_and_both_kernels(
    program: Path,
) -> None:
    code, out, _ = lift(program, "--function", "total")
    assert code == 0
    loop = line_of("s += a[i];  /* total */")
    assert out.splitlines()[0] == (
        f"Reduction at lines {loop - 1}-{loop} of total: OpenCL reduction kernel (floating "
        "point, reordered) (generated)"
    )
    assert "no kernel generated" not in out
    expression = section(out, "expression")
    assert pretty(parse(expression)) == expression
    assert "(reduce" in expression
    kernels = section(out, "kernel")
    # Each for its launch's work-group: 128 items, then 256 folding 8 partials each.
    assert f"__kernel {GROUP_OF_128}void idiom_reduce(" in kernels
    assert f"__kernel {GROUP_OF_256}void idiom_reduce_final(" in kernels
    assert "lk_j" in kernels and "< 8; lk_j" in kernels


def test_idiom_kernels_translated_shows_no_generated_kernel(
    program: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("IDIOM_KERNELS", "translated")
    assert main(["lift", str(program), "--function", "two", "--line", str(B_LINE)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == (
        f"Stencil at lines {B_LINE - 1}-{B_LINE} of two: replaced by OpenCL stencil kernel; "
        "no kernel generated for it (no functional expression of this match)"
    )


def test_a_function_inlined_into_main_is_found_by_its_source_name(program: Path) -> None:
    code, out, _ = lift(program, "--function", "blur")
    assert code == 0
    loop = line_of("b[i] = 0.25f * a[i - 1]")
    assert heads(out) == [
        f"Stencil at lines {loop - 1}-{loop} of blur: OpenCL stencil kernel (generated)"
    ]
    assert "(array f32 " in section(out, "expression")
    assert "__kernel void idiom_stencil(" in section(out, "kernel")
    code, in_main, _ = lift(program, "--function", "main")
    assert code == 0
    assert heads(in_main) == heads(out)  # main's only instance is blur's loop


def test_a_function_without_an_instance_is_a_clear_error(program: Path) -> None:
    code, out, err = lift(program, "--function", "nothing")
    assert code == 1 and out == ""
    assert err == (
        f"idiom: {program}: no idiom instance in nothing; instances are in blur, deep, "
        "halves, matvec, ramp, tally, total, two\n"
    )
    code, _, err = lift(program, "--function", "absent")
    assert code == 1
    assert err.startswith(f"idiom: {program}: no idiom instance in absent; instances are in ")


def test_a_line_no_match_spans_is_a_clear_error(program: Path) -> None:
    line = line_of("void two(")
    code, out, err = lift(program, "--function", "two", "--line", str(line))
    assert code == 1 and out == ""
    assert err == f"idiom: {program}:{line}: no idiom instance of two spans this line\n"


def test_errors_through_the_command(program: Path) -> None:
    assert_clean_failure(
        idiom("lift", str(program), "--function", "nothing"), "no idiom instance in nothing"
    )
    assert_clean_failure(
        idiom("lift", str(program), "--function", "two", "--line", "1"),
        f"{program}:1: no idiom instance of two spans this line",
    )
    assert_clean_failure(idiom("lift", str(program)), "--function")  # required


LONG_ROWS = Path(__file__).parents[1] / "mappers" / "programs" / "csr_long_rows.c"


def test_a_sparse_product_shows_the_kernels_its_long_rows_launch_instead() -> None:
    code, out, _ = lift(LONG_ROWS, "--function", "plain")
    assert code == 0
    instead = [line for line in out.splitlines() if line.startswith("instead, ")]
    assert instead == [
        f"instead, where rows average {least} entries or more on a GPU ({lanes} work-items a row):"
        for least, lanes in ((128, 32), (32, 8), (12, 4))
    ]
    for lanes in (32, 8, 4):
        assert f"(map-lanes 0 {lanes}" in out
        assert f"void idiom_spmv_lanes{lanes}(" in out
    assert "rewrites: lanes(8)" in out


def test_a_sum_started_from_y_shows_one_kernel() -> None:
    code, out, _ = lift(LONG_ROWS, "--function", "started")
    assert code == 0
    assert "void idiom_spmv(" in out
    assert "instead, " not in out
