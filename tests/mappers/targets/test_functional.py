"""Stencils run kernels the Lift compiler generates (mappers/targets/functional.py): the
match becomes a functional expression, lowered and generated; shapes the functional IR
cannot say keep the kernel translated from the IR; `IDIOM_KERNELS=translated` keeps the
translated kernels everywhere; the generated kernel comes with an int-index variant that
the program launches where every size fits in 31 bits.

Every program here is built original (clang -O2) and accelerated, and both are run with
launches forced on PoCL at sizes that are not multiples of the work-group; the outputs
(every element printed as a hexadecimal float) must be identical, byte for byte."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from mappers.accelerate import Accelerated, accelerate
from mappers.rewrite.rewriter import Outcome
from mappers.targets.kernels import INT_LIMIT
from matcher.frontend import CompileOptions
from measure.compare import first_difference
from tests.mappers.differential import build_pair, run_binary

Pair = tuple[Path, Path, Accelerated]

ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
SIZES = (0, 1, 7, 33, 100)
GENERATED = "OpenCL stencil kernel (generated)"
TRANSLATED = "OpenCL stencil kernel"
GENERATED_NARROW = b"{ int v["  # the generated kernel's int variant: its packed sizes are ints
TRANSLATED_MARK = b"const long t0 = get_global_id("  # the translated kernel's first line

# Each shape is a function of its own; `main` runs the one named by argv[1] at size argv[2]
# (four launches each) and prints every element it may have written.
GENERATED_SOURCE = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128

struct coefficients { double c; int first; };

/* 1D, three points, float. */
void blur(int n, const float *a, float *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
}

/* 2D five-point Jacobi over fixed-size rows, a scalar coefficient, n x m points. */
void jacobi(int n, int m, double c, double a[N][N], double b[N][N])
{
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++)
            b[i][j] = c * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1] + a[i][j]);
}

/* 3D seven-point heat over flat arrays, the index computed. */
void heat(int nx, int ny, int nz, float r, const float *u, float *v)
{
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++) {
                int c = (k * ny + j) * nx + i;
                v[c] = u[c] + r * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx]
                                   + u[c - nx * ny] + u[c + nx * ny] - 6.0f * u[c]);
            }
}

/* Neighbours of one array weighted by a second array. */
void weighted(int n, const double *a, const double *w, double *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = a[i - 1] + w[i] * a[i] - a[i + 1] / w[i + 1];
}

/* Math calls and a select: fabs, sqrt, a ternary, fmax. */
void shape(int n, const double *a, double *b)
{
    for (int i = 1; i <= n; i++) {
        double l = fabs(a[i - 1]);
        double r = sqrt(fabs(a[i + 1]));
        b[i] = (l > r ? l : r) + fmax(a[i], 0.5);
    }
}

/* The written point updated: it reads its own element. */
void update(int n, double c, const double *a, double *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = b[i] + c * (a[i - 1] - 2.0 * a[i] + a[i + 1]);
}

/* float and double mixed: reads of both, conversions both ways. */
void mixed(int n, const float *w, const double *a, float *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = (float)(a[i - 1] * (double)w[i] + a[i + 1]);
}

/* Counting down, the coefficient and the first point read from a struct, a negation. */
void down(int n, const struct coefficients *k, const double *a, double *b)
{
    for (int i = n; i >= k->first; i--)
        b[i] = -a[i - 1] / (a[i + 1] + k->c);
}

/* 2D, transposed rows written, each point updated, rows of different lengths. */
void rect(int n, int m, double c, double a[N][N + 8], double b[N + 8][N])
{
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++)
            b[j][i] += c * (a[i - 1][j] + a[i + 1][j] - a[i][j - 1] * a[i][j + 1]);
}

/* A comparison C writes as != (fcmp une), over NaNs too. */
void differs(int n, const double *a, double *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = a[i - 1] != a[i + 1] ? 1.0 : 2.0;
}

/* The float spellings of the math library. */
void shapef(int n, const float *a, float *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = sqrtf(fabsf(a[i - 1])) + fmaxf(a[i], a[i + 1]);
}

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static void print_doubles(const char *name, int count, const double *v)
{
    for (int i = 0; i < count; i++)
        printf("%s %d %a\n", name, i, v[i]);
}

static void print_floats(const char *name, int count, const float *v)
{
    for (int i = 0; i < count; i++)
        printf("%s %d %a\n", name, i, (double)v[i]);
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "blur";
    int n = argc > 2 ? atoi(argv[2]) : 10;
    int len = n + 2, m = n * 3 / 4 + 1;
    int nx = n + 2, ny = n / 2 + 3, nz = 5, cells = nx * ny * nz;
    unsigned seed = 12345;
    double *a = malloc(sizeof(double) * len), *b = malloc(sizeof(double) * len);
    double *w = malloc(sizeof(double) * len);
    float *fa = malloc(sizeof(float) * len), *fb = malloc(sizeof(float) * len);
    float *u = malloc(sizeof(float) * cells), *v = malloc(sizeof(float) * cells);
    double (*ga)[N] = malloc(sizeof(double) * N * N), (*gb)[N] = malloc(sizeof(double) * N * N);
    double (*ra)[N + 8] = malloc(sizeof(double) * N * (N + 8));
    double (*rb)[N] = malloc(sizeof(double) * (N + 8) * N);
    for (int i = 0; i < len; i++) {
        a[i] = (double)(next(&seed) % 1000) / 16.0 - 20.0;
        b[i] = (double)(next(&seed) % 7) - 3.0;
        w[i] = 1.0 + (double)(next(&seed) % 50) / 8.0;
        fa[i] = (float)(next(&seed) % 100) / 8.0f - 5.0f;
        fb[i] = -1.0f;
    }
    for (int c = 0; c < cells; c++) {
        u[c] = (float)(next(&seed) % 64) * 0.125f;
        v[c] = u[c];
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            ga[i][j] = (double)(next(&seed) % 97) / 7.0;
            gb[i][j] = 0.0;
        }
    for (int c = 0; c < N * (N + 8); c++) {
        ((double *)ra)[c] = (double)(next(&seed) % 29) - 14.0;
        ((double *)rb)[c] = (double)(c % 5);
    }
    struct coefficients k = {3.0 + (double)(next(&seed) % 4), 1};

    if (!strcmp(which, "blur")) {
        for (int s = 0; s < 2; s++) {
            blur(n, fa, fb);
            blur(n, fb, fa);
        }
        print_floats("a", len, fa);
        print_floats("b", len, fb);
    } else if (!strcmp(which, "jacobi")) {
        for (int s = 0; s < 2; s++) {
            jacobi(n, m, 0.2, ga, gb);
            jacobi(n, m, 0.2, gb, ga);
        }
        for (int i = 0; i <= n + 1; i++) {
            print_doubles("a", m + 2, ga[i]);
            print_doubles("b", m + 2, gb[i]);
        }
    } else if (!strcmp(which, "heat")) {
        for (int s = 0; s < 2; s++) {
            heat(nx, ny, nz, 0.1f, u, v);
            heat(nx, ny, nz, 0.1f, v, u);
        }
        print_floats("u", cells, u);
        print_floats("v", cells, v);
    } else if (!strcmp(which, "weighted")) {
        for (int s = 0; s < 2; s++) {
            weighted(n, a, w, b);
            weighted(n, b, w, a);
        }
        print_doubles("a", len, a);
        print_doubles("b", len, b);
    } else if (!strcmp(which, "shape")) {
        for (int s = 0; s < 2; s++) {
            shape(n, a, b);
            shape(n, b, a);
        }
        print_doubles("a", len, a);
        print_doubles("b", len, b);
    } else if (!strcmp(which, "update")) {
        for (int s = 0; s < 4; s++)
            update(n, 0.3, a, b);
        print_doubles("b", len, b);
    } else if (!strcmp(which, "mixed")) {
        for (int s = 0; s < 4; s++) {
            mixed(n, fa, a, fb);
            fa[s % len] += 1.0f;
        }
        print_floats("b", len, fb);
    } else if (!strcmp(which, "down")) {
        for (int s = 0; s < 2; s++) {
            down(n, &k, a, b);
            down(n, &k, b, a);
        }
        print_doubles("a", len, a);
        print_doubles("b", len, b);
    } else if (!strcmp(which, "rect")) {
        for (int s = 0; s < 4; s++)
            rect(n, m, 0.25 * (s + 1), ra, rb);
        print_doubles("b", N * (N + 8), (double *)rb);
    } else if (!strcmp(which, "differs")) {
        for (int i = 0; i < len; i += 3)
            a[i] = NAN;
        for (int i = 1; i < len; i += 4)
            a[i] = a[i - 1];
        for (int s = 0; s < 4; s++)
            differs(n, a, b);
        print_doubles("b", len, b);
    } else if (!strcmp(which, "shapef")) {
        for (int s = 0; s < 2; s++) {
            shapef(n, fa, fb);
            shapef(n, fb, fa);
        }
        print_floats("a", len, fa);
        print_floats("b", len, fb);
    } else if (!strcmp(which, "alias")) {
        /* Arrays that overlap what the loop writes: the guard keeps the original code. */
        update(n, 0.3, a, a);
        blur(n, fa, fa + 1);
        print_doubles("a", len, a);
        print_floats("f", len, fa);
    } else {
        return 2;
    }
    return 0;
}
"""


def _one_d(n: int) -> int:
    return n


# The points of one launch of each shape at size n (the loops' trip counts multiplied).
GENERATED_WORK: dict[str, Callable[[int], int]] = {
    "blur": _one_d,
    "jacobi": lambda n: n * (n * 3 // 4 + 1),
    "heat": lambda n: n * (n // 2 + 1) * 3,
    "weighted": _one_d,
    "shape": _one_d,
    "update": _one_d,
    "mixed": _one_d,
    "down": _one_d,
    "rect": lambda n: n * (n * 3 // 4 + 1),
}
# Shapes that once kept the translated kernel: C's != (fcmp une), and libm's float
# spellings (sqrtf, fabsf, fmaxf).
ALSO_GENERATED = ("differs", "shapef")

TRANSLATED_SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128
#define M 104
#define K 6

/* Integer arithmetic: an int grid. */
void smooth(int n, int a[N][N], int b[N][N])
{
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            b[i][j] = (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]) / 4;
}

/* Two stores per point: two components. */
void pairs(int n, double c, const double *a, double *b)
{
    for (int i = 1; i <= n; i++) {
        b[2 * i] = a[i - 1] + c * a[i + 1];
        b[2 * i + 1] = a[i - 1] - c * a[i + 1];
    }
}

/* An int's magnitude (LLVM's llvm.abs), halved. */
void magnitude(int n, const int *a, int *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = abs(a[i - 1] - 3 * a[i + 1]) / 2;
}

/* Each step reads the one before three times, eight deep: as one expression the body would
   repeat its values thousands of times; each is said once (a let). */
void deep(int n, const double *a, double *b)
{
    for (int i = 1; i <= n; i++) {
        double x = a[i - 1] - a[i + 1];
        x = x / (1.0 + x * x);
        x = x / (1.0 + x * x);
        x = x / (1.0 + x * x);
        x = x / (1.0 + x * x);
        x = x / (1.0 + x * x);
        x = x / (1.0 + x * x);
        x = x / (1.0 + x * x);
        x = x / (1.0 + x * x);
        b[i] = x;
    }
}

/* The loop index used as a value. */
void ramp(int n, const double *a, double *b)
{
    for (int i = 1; i <= n; i++)
        b[i] = (a[i - 1] + a[i + 1]) * i;
}

/* Comparisons as numbers, (double)(j > i) and (double)(x < y): an i1 converted (uitofp),
   and the counters' unsigned order that LLVM marks samesign. */
void triangle(int n, double (*a)[N], double (*b)[N])
{
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            b[i][j] = (double)(j > i) * a[i][j - 1] + (double)(a[i - 1][j] < a[i + 1][j]);
}

/* Four loops (corpus/stencil_rhs_grid.c's dissipation): the components of the records
   innermost. */
void dissipation(int n, double dssp, double (*u)[M][M][5], double (*rhs)[M][M][5])
{
    for (int k = 2; k < K - 2; k++)
        for (int j = 1; j <= n; j++)
            for (int i = 1; i <= n; i++)
                for (int m = 0; m < 5; m++)
                    rhs[k][j][i][m] = rhs[k][j][i][m] - dssp * (u[k - 2][j][i][m]
                        - 4.0 * u[k - 1][j][i][m] + 6.0 * u[k][j][i][m]
                        - 4.0 * u[k + 1][j][i][m] + u[k + 2][j][i][m]);
}

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "smooth";
    int n = argc > 2 ? atoi(argv[2]) : 10;
    int len = 2 * n + 4;
    unsigned seed = 4321;
    int (*ia)[N] = malloc(sizeof(int) * N * N), (*ib)[N] = malloc(sizeof(int) * N * N);
    double *a = malloc(sizeof(double) * len), *b = malloc(sizeof(double) * len);
    double (*da)[N] = malloc(sizeof(double) * N * N), (*db)[N] = malloc(sizeof(double) * N * N);
    double (*u)[M][M][5] = malloc(sizeof(double) * K * M * M * 5);
    double (*rhs)[M][M][5] = malloc(sizeof(double) * K * M * M * 5);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            ia[i][j] = (int)(next(&seed) % 200) - 100;
            ib[i][j] = 0;
            da[i][j] = (double)ia[i][j] * 0.25;
            db[i][j] = -1.0;
        }
    for (int i = 0; i < len; i++) {
        a[i] = (double)(next(&seed) % 1000) / 16.0 - 20.0;
        b[i] = -1.0;
    }
    for (long c = 0; c < (long)K * M * M * 5; c++) {
        ((double *)u)[c] = (double)(next(&seed) % 23) * 0.125;
        ((double *)rhs)[c] = (double)(c % 7);
    }

    if (!strcmp(which, "smooth")) {
        for (int s = 0; s < 2; s++) {
            smooth(n, ia, ib);
            smooth(n, ib, ia);
        }
        for (int i = 0; i <= n + 1; i++)
            for (int j = 0; j <= n + 1; j++)
                printf("%d %d %d %d\n", i, j, ia[i][j], ib[i][j]);
    } else if (!strcmp(which, "magnitude")) {
        for (int s = 0; s < 2; s++) {
            magnitude(n, ia[0], ib[0]);
            magnitude(n, ib[0], ia[0]);
        }
        for (int i = 0; i <= n + 1; i++)
            printf("%d %d %d\n", i, ia[0][i], ib[0][i]);
    } else if (!strcmp(which, "pairs")) {
        for (int s = 0; s < 4; s++)
            pairs(n, 0.5 * (s + 1), a, b);
        for (int i = 0; i < len; i++)
            printf("%d %a\n", i, b[i]);
    } else if (!strcmp(which, "deep")) {
        for (int s = 0; s < 2; s++) {
            deep(n, a, b);
            deep(n, b, a);
        }
        for (int i = 0; i < len; i++)
            printf("%d %a %a\n", i, a[i], b[i]);
    } else if (!strcmp(which, "ramp")) {
        for (int s = 0; s < 2; s++) {
            ramp(n, a, b);
            ramp(n, b, a);
        }
        for (int i = 0; i < len; i++)
            printf("%d %a %a\n", i, a[i], b[i]);
    } else if (!strcmp(which, "triangle")) {
        for (int s = 0; s < 2; s++) {
            triangle(n, da, db);
            triangle(n, db, da);
        }
        for (int i = 0; i <= n + 1; i++)
            for (int j = 0; j <= n + 1; j++)
                printf("%d %d %a %a\n", i, j, da[i][j], db[i][j]);
    } else if (!strcmp(which, "dissipation")) {
        for (int s = 0; s < 4; s++)
            dissipation(n, 0.03125, u, rhs);
        for (int k = 0; k < K; k++)
            for (int j = 0; j <= n + 1; j++)
                for (int i = 0; i <= n + 1; i++)
                    for (int m = 0; m < 5; m++)
                        printf("%d %d %d %d %a\n", k, j, i, m, rhs[k][j][i][m]);
    } else {
        return 2;
    }
    return 0;
}
"""

TRANSLATED_WORK: dict[str, Callable[[int], int]] = {
    "smooth": lambda n: n * n,
    "magnitude": _one_d,
    "deep": _one_d,
    "pairs": _one_d,
    "ramp": _one_d,
    "triangle": lambda n: n * n,
    "dissipation": lambda n: 2 * n * n * 5,
}
# Of those, generated too: integer arithmetic (+ - * wrap, / truncates, as LLVM's), two
# stores per point (a tuple written through two views), the four-loop nest (its
# components loop in each work-item) and the loop index used as a value (its first value
# plus the point's coordinate, `(indices d ...)`, times its step), comparisons converted
# to numbers (a `select` of 1 and 0), unsigned orders marked samesign (signed ones) and an
# integer's magnitude (OpenCL's `abs`, converted back to int: the smallest int is itself)
# and a body sharing its values (each said once, bound by a lambda: a let).
GENERATED_TOO = ("deep", "dissipation", "magnitude", "pairs", "ramp", "smooth", "triangle")

# One nest of two loops whose rows lie `stride` elements apart: with one row, any stride
# is valid, and one of 2^32 does not fit an int (the kernel computing long indices runs).
WIDE_SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>

void rows(long count, long stride, int n, const double *a, double *b)
{
    for (long r = 0; r < count; r++)
        for (int j = 1; j <= n; j++)
            b[r * stride + j] = a[r * stride + j - 1] + 0.5 * a[r * stride + j + 1];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    long stride = argc > 2 ? atol(argv[2]) : n + 2;
    int len = 2 * (n + 2);
    double *a = malloc(sizeof(double) * len), *b = malloc(sizeof(double) * len);
    for (int i = 0; i < len; i++) {
        a[i] = (double)((i * 29) % 13) - 6.5;
        b[i] = -1.0;
    }
    rows(stride == n + 2 ? 2 : 1, stride, n, a, b);
    for (int i = 0; i < len; i++)
        printf("%d %a\n", i, b[i]);
    return 0;
}
"""


def _build(folder: Path, name: str, source: str) -> Pair:
    program = folder / f"{name}.c"
    program.write_text(source)
    return build_pair(program, folder)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Pair:
    return _build(tmp_path_factory.mktemp("generated"), "generated", GENERATED_SOURCE)


@pytest.fixture(scope="module")
def translated(tmp_path_factory: pytest.TempPathFactory) -> Pair:
    return _build(tmp_path_factory.mktemp("translated"), "translated", TRANSLATED_SOURCE)


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Pair:
    return _build(tmp_path_factory.mktemp("wide"), "wide", WIDE_SOURCE)


def stencils(report: Accelerated) -> dict[str, Outcome]:
    """The outcome of each function's outermost stencil."""
    return {
        o.instance.function: o
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom == "Stencil" and o.instance.within is None
    }


def stencil_launches(stderr: str) -> list[str]:
    """The IDIOM_VERBOSE lines of the stencil kernel's launches that did the work."""
    return [
        line
        for line in stderr.splitlines()
        if "cl_run kernel 'idiom_stencil'" in line and line.endswith("done")
    ]


def identical(pair: Pair, args: list[str], env: dict[str, str]) -> str:
    """Run both binaries of `pair` on `args` (the accelerated one with `env`), check they
    print exactly the same; the accelerated run's stderr."""
    original, accelerated, _ = pair
    expected = run_binary(original, args, {})
    actual = run_binary(accelerated, args, env)
    assert expected.returncode == 0, expected.stderr
    assert actual.returncode == 0, actual.stderr
    assert actual.stdout == expected.stdout, first_difference(
        expected.stdout, actual.stdout, tolerance=0.0
    )
    return actual.stderr


def built_sources(pair: Pair, args: list[str], folder: Path) -> list[bytes]:
    """The sources the accelerated binary of `pair` built its kernels from, run on `args`
    with a cache of program binaries of its own in `folder`: each file of that cache holds
    the whole key, the kernel's source first, beside the binary."""
    cache = folder / f"cache-{'-'.join(args)}"
    cache.mkdir()
    identical(pair, args, {**ON_POCL, "IDIOM_CACHE_DIR": str(cache)})
    return [path.read_bytes() for path in sorted((cache / "cl").glob("*.bin"))]


def check_launches(stderr: str, count: int, work: int) -> None:
    launches = stencil_launches(stderr)
    assert len(launches) == count, stderr[-3000:]
    assert all(f" work {work} " in line for line in launches), launches


# ---------------------------------------------------------------- generated kernels


def test_the_generated_shapes_are_generated(generated: Pair) -> None:
    outcomes = stencils(generated[2])
    assert set(outcomes) == set(GENERATED_WORK) | set(ALSO_GENERATED)
    for function in GENERATED_WORK:
        outcome = outcomes[function]
        assert outcome.replaced, f"{function}: {outcome.detail}"
        assert outcome.detail == GENERATED, function
        kernel = outcome.generated
        assert kernel is not None, function
        assert "__kernel void idiom_stencil(" in kernel.source
        assert kernel.expression.startswith("(lambda (")
        assert kernel.lowered.startswith("(lambda (")
        assert "map-global" in kernel.lowered


@pytest.mark.parametrize("function", ALSO_GENERATED)
def test_shapes_the_functional_ir_can_say_are_generated(generated: Pair, function: str) -> None:
    outcome = stencils(generated[2])[function]
    assert outcome.replaced, outcome.detail
    assert outcome.detail == GENERATED


@pytest.mark.parametrize("shape", sorted(GENERATED_WORK))
def test_generated_kernels_print_what_the_original_prints(
    generated: Pair, shape: str, tmp_path: Path
) -> None:
    for n in SIZES:
        stderr = identical(generated, [shape, str(n)], ON_POCL)
        points = GENERATED_WORK[shape](n)
        check_launches(stderr, 4 if points else 0, points)
    # What ran is the generated kernel, its int-index variant (every size fits).
    (source,) = built_sources(generated, [shape, "7"], tmp_path)
    assert GENERATED_NARROW in source
    assert TRANSLATED_MARK not in source


@pytest.mark.parametrize("shape", sorted(ALSO_GENERATED))
def test_comparisons_and_float_calls_print_what_the_original_prints(
    generated: Pair, shape: str
) -> None:
    for n in (1, 33, 100):
        check_launches(identical(generated, [shape, str(n)], ON_POCL), 4, n)


def test_arrays_overlapping_the_written_range_run_the_original_code(generated: Pair) -> None:
    for n in (1, 7, 100):
        assert stencil_launches(identical(generated, ["alias", str(n)], ON_POCL)) == []


# ---------------------------------------------------------------- translated kernels


def test_shapes_beyond_the_functional_ir_keep_the_translated_kernel(translated: Pair) -> None:
    outcomes = stencils(translated[2])
    assert set(outcomes) == set(TRANSLATED_WORK)
    for function, outcome in outcomes.items():
        assert outcome.replaced, f"{function}: {outcome.detail}"
        if function in GENERATED_TOO:
            assert outcome.detail == GENERATED, function
            assert outcome.generated is not None, function
            continue
        assert outcome.detail == TRANSLATED, function
        assert outcome.generated is None, function


@pytest.mark.parametrize("shape", sorted(TRANSLATED_WORK))
def test_translated_kernels_print_what_the_original_prints(
    translated: Pair, shape: str, tmp_path: Path
) -> None:
    sizes = (1, 7, 33) if shape == "dissipation" else SIZES
    for n in sizes:
        stderr = identical(translated, [shape, str(n)], ON_POCL)
        points = TRANSLATED_WORK[shape](n)
        check_launches(stderr, 4 if points else 0, points)
    (source,) = built_sources(translated, [shape, "7"], tmp_path)
    if shape in GENERATED_TOO:
        assert GENERATED_NARROW in source
        assert TRANSLATED_MARK not in source
    else:
        assert TRANSLATED_MARK in source
        assert GENERATED_NARROW not in source


def test_a_four_loop_nest_shares_the_first_dimension(translated: Pair) -> None:
    """The two innermost maps of a grid of records become one (join, then split back),
    so that neighbouring work-items take neighbouring components."""
    generated = stencils(translated[2])["dissipation"].generated
    assert generated is not None
    assert generated.rewrites[0] == "join-innermost"
    assert "(map-global 2" in generated.lowered
    assert "(split n3" in generated.lowered
    assert "get_global_id(3)" not in generated.source


# ---------------------------------------------------------------- IDIOM_KERNELS=translated


def test_idiom_kernels_translated_keeps_the_translated_kernels(
    generated: Pair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / "generated.c"
    program.write_text(GENERATED_SOURCE)
    monkeypatch.setenv("IDIOM_KERNELS", "translated")
    accelerated = tmp_path / "accelerated"
    report = accelerate([program], accelerated, CompileOptions())
    monkeypatch.delenv("IDIOM_KERNELS")
    outcomes = stencils(report)
    assert set(outcomes) == set(stencils(generated[2]))
    for function, outcome in outcomes.items():
        assert outcome.replaced, f"{function}: {outcome.detail}"
        assert outcome.detail == TRANSLATED, function
        assert outcome.generated is None, function
    binary = accelerated.read_bytes()
    assert GENERATED_NARROW not in binary  # no generated kernel, no int-index variant
    assert TRANSLATED_MARK in binary
    pair = (generated[0], accelerated, report)
    for shape in ("jacobi", "heat", "update", "shape"):
        for n in (7, 33):
            stderr = identical(pair, [shape, str(n)], ON_POCL)
            check_launches(stderr, 4, GENERATED_WORK[shape](n))


# ---------------------------------------------------------------- the int-index variant


def test_the_binary_holds_the_long_and_the_int_kernels(generated: Pair, wide: Pair) -> None:
    assert GENERATED_NARROW in generated[1].read_bytes()
    (outcome,) = stencils(wide[2]).values()
    assert outcome.detail == GENERATED
    binary = wide[1].read_bytes()
    # One kernel, twice: sizes as longs (n0 and n1 last), and as ints, packed in a struct.
    kernels = re.findall(rb"__kernel void idiom_stencil\([^)]*\)", binary)
    assert len(kernels) == 2
    assert all(k.endswith(b", idiom_stencil_sizes lk_sizes)") for k in kernels)
    for index in (b"long", b"int"):
        (struct,) = re.findall(rb"typedef struct { %s v\[(\d+)\]; } idiom_stencil_sizes;" % index,
                               binary)  # fmt: skip
        last = int(struct) - 1
        assert b"const %s n0 = lk_sizes.v[%d];" % (index, last - 1) in binary
        assert b"const %s n1 = lk_sizes.v[%d];" % (index, last) in binary


@pytest.mark.parametrize(
    ("stride", "narrow"), [(None, True), (2**20, True), (2**31 + 5, False), (2**32, False)]
)
def test_the_int_kernel_runs_where_every_size_fits(
    wide: Pair, tmp_path: Path, stride: int | None, narrow: bool
) -> None:
    n = 33
    args = [str(n)] if stride is None else [str(n), str(stride)]
    rows = 2 if stride is None else 1
    check_launches(identical(wide, args, ON_POCL), 1, rows * n)
    (source,) = built_sources(wide, args, tmp_path)
    assert (GENERATED_NARROW in source) == narrow
    assert (b"const long n0 = lk_sizes" in source) == (not narrow)


# ---------------------------------------------------------------- the int variant's loop


def _counting_probe(binary: bytes) -> tuple[str, list[str], list[str]]:
    """blur's int-index kernel from `binary` (the one computing a point at a time), its
    loop kept as generated and its body replaced by a count of the iterations whose index
    is negative (`negative[0]`); its parameters' declarations; its packed sizes' names."""
    (source,) = [
        text.decode()
        for text in binary.split(b"\0")
        if b"__kernel void idiom_stencil(" in text
        and GENERATED_NARROW in text
        and b"0.25f" in text
        and b"vload" not in text
    ]
    loop = re.search(
        r"( *for \(int (\w+) = get_global_id\(0\); \2 < \(n0\); \2 \+= get_global_size\(0\)\)"
        r" \{\n).*?(\n *\}\n\}\n?)$",
        source,
        re.DOTALL,
    )
    assert loop is not None, source
    probe = f"{loop[1]}    if ({loop[2]} < 0) atomic_inc(negative);{loop[3]}"
    source = source[: loop.start()] + probe
    source = source.replace("lk_sizes)", "lk_sizes, __global int* negative)")
    (declared,) = re.findall(r"__kernel void idiom_stencil\(([^)]*)\)", source)
    packed = re.findall(r"const int (\w+) = lk_sizes\.v\[\d+\];", source)
    return source, declared.split(", "), packed


def _negative_iterations(generated: Pair, n0: int) -> int:
    """Launch blur's int-index kernel (as the program does: the global size n0 rounded up
    to 256, work-groups of 256) on PoCL over n0 points, every read and the write at an
    element of a small buffer (strides 0): how many iterations saw a negative index."""
    cl = pytest.importorskip("pyopencl")
    source, declared, packed = _counting_probe(generated[1].read_bytes())
    context = cl.Context(
        [d for p in cl.get_platforms() for d in p.get_devices(cl.device_type.CPU)][:1]
    )
    queue = cl.CommandQueue(context)
    kernel = cl.Program(context, source).build().idiom_stencil
    flags = cl.mem_flags
    data = cl.Buffer(context, flags.READ_WRITE, 64)
    count = np.zeros(1, dtype=np.int32)
    counter = cl.Buffer(context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=count)
    sizes = {"n0": n0}

    def size(name: str) -> int:
        return 16 if name.endswith("_len") else sizes.get(name, 0)

    args = []
    for declaration in declared:
        kind, name = declaration.split()[-2:]
        if name.endswith(("_mem", "negative")):
            args.append(counter if name == "negative" else data)
        elif name == "lk_sizes":  # the struct's bytes, by value
            args.append(np.array([size(p) for p in packed], np.int32))
        else:
            args.append(np.int32(size(name)) if kind == "int" else np.int64(size(name)))
    kernel(queue, ((n0 + 255) // 256 * 256,), (256,), *args)
    cl.enqueue_copy(queue, count, counter)
    queue.finish()
    return int(count[0])


def test_the_int_kernel_loop_sees_no_negative_index_below_2_to_the_30(generated: Pair) -> None:
    assert _negative_iterations(generated, 1_000_003) == 0


def test_the_int_kernel_loop_sees_no_negative_index_at_the_largest_size_that_fits(
    generated: Pair,
) -> None:
    """The int kernel runs only where every size is below 2^30 (kernels.INT_LIMIT): there
    a counter plus the global size stays below 2^31."""
    assert _negative_iterations(generated, INT_LIMIT - 1) == 0
