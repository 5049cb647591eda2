"""One-loop maps and stencils also get a kernel computing two points at a time (vload2,
vstore2; each array a point writes, a vector of its own), launched where the guard finds
every stride 1 and the count even; elsewhere the kernel computing a point at a time runs.
Each case on PoCL, launches forced, prints what the original prints, and the kernel built
is the one its guard chose."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mappers.differential import build_pair
from tests.mappers.targets.test_functional import Pair, built_sources, identical

SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An element-wise map: y = a x + b (one array written). */
void axpb(int n, double a, double b, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + b;
}

/* Two arrays written a point (a CG step's z += a p; r -= a q). */
void update(int n, double a, const double *p, double *z, double *r)
{
    for (int i = 0; i < n; i++) {
        z[i] = z[i] + a * p[i];
        r[i] = r[i] - a * p[i + 1];
    }
}

/* A 1D stencil, its neighbours read at odd offsets from a vector's start. */
void smooth(int n, const double *x, double *y)
{
    for (int i = 1; i <= n; i++)
        y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}

/* Integers: OpenCL's integer vectors wrap, convert and compare otherwise than scalars. */
void ramp(int n, const long *x, long *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 3 * x[i] + 1;
}

/* Every other element: strides of 2, never contiguous. */
void every_other(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[2 * i] = x[2 * i] * x[2 * i] - 1.0;
}

int main(int argc, char **argv)
{
    const char *which = argv[1];
    int n = atoi(argv[2]);
    double *x = malloc(sizeof(double) * (2 * n + 2)), *y = malloc(sizeof(double) * (2 * n + 2));
    long *ix = malloc(sizeof(long) * (n + 1)), *iy = malloc(sizeof(long) * (n + 1));
    for (int i = 0; i <= n; i++)
        ix[i] = iy[i] = i * 7 - 5;
    for (int i = 0; i < 2 * n + 2; i++) {
        x[i] = (double)((i * 37) % 11) * 0.5 - 2.0;
        y[i] = -1.0;
    }
    for (int s = 0; s < 3; s++) {
        if (!strcmp(which, "axpb"))
            axpb(n, 1.5, 0.25 * s, x, y);
        else if (!strcmp(which, "ramp"))
            ramp(n, s % 2 ? iy : ix, s % 2 ? ix : iy);
        else if (!strcmp(which, "update"))
            update(n, 0.5 + s, x, y, y + n + 1);
        else if (!strcmp(which, "smooth"))
            smooth(n, x, y);
        else
            every_other(n, x, y);
        double *t = x; x = y; y = t;
    }
    for (int i = 0; i < 2 * n + 2; i++)
        printf("%d %a %a\n", i, x[i], y[i]);
    for (int i = 0; i <= n; i++)
        printf("%d %ld %ld\n", i, ix[i], iy[i]);
    return 0;
}
"""

ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Pair:
    folder = tmp_path_factory.mktemp("vectorised")
    program = folder / "vectorised.c"
    program.write_text(SOURCE)
    return build_pair(program, folder)


@pytest.mark.parametrize(
    ("function", "n", "vectorised"),
    [
        ("axpb", 64, True),
        ("axpb", 63, False),  # an odd count: the vectors would not cover it
        ("update", 32, True),  # two arrays written: a tuple of vectors
        ("update", 33, False),
        ("smooth", 40, True),
        ("smooth", 41, False),
        ("every_other", 64, False),  # stride 2
        ("ramp", 64, False),  # integers
    ],
)
def test_the_guard_picks_the_vectorised_kernel_where_it_computes_every_point(
    pair: Pair, tmp_path: Path, function: str, n: int, vectorised: bool
) -> None:
    identical(pair, [function, str(n)], ON_POCL)
    sources = built_sources(pair, [function, str(n)], tmp_path)
    assert sources, "no kernel was built: nothing was launched"
    assert any(b"vload2(" in s for s in sources) == vectorised
    assert any(b"vload2(" not in s for s in sources) == (not vectorised)


def test_each_one_loop_nest_holds_both_kernels(pair: Pair) -> None:
    report = pair[2]
    outcomes = {o.instance.function: o for u in report.units for o in u.outcomes if o.replaced}
    for function in ("axpb", "update", "smooth", "every_other"):  # not ramp: integers
        generated = outcomes[function].generated
        assert generated is not None, function
        assert generated.source.count("__kernel void ") == 2, function
        assert "vstore2(" in generated.source, function
        assert any(r.startswith("vectorise(2)") for r in generated.rewrites), function
    integers = outcomes["ramp"].generated
    assert integers is not None
    assert "vstore2(" not in integers.source
