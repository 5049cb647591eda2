"""Small C programs whose kernels the front end inlines into their callers."""

from __future__ import annotations

__all__ = ["PREFIX_SUMS_IN_MAIN", "SQUARES_IN_MAIN"]

# `kernel_x` (a sum of squares, lines 3-4) exists only inlined into `main`.
SQUARES_IN_MAIN = """\
static double kernel_x(const double *a, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * a[i];
    return s;
}

double a[1000];

int main(void) {
    for (int i = 0; i < 1000; i++) a[i] = i;
    double r = kernel_x(a, 1000);
    return (int)r;
}
"""

# `main`'s own loop (lines 13-14) is a reduction; the inlined `prefix_sums` (lines 3-6)
# stores every partial sum, so it is not one.
PREFIX_SUMS_IN_MAIN = """\
static void prefix_sums(double *out, const double *a, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        s += a[i];
        out[i] = s;
    }
}

double a[100], out[100];

int main(void) {
    double t = 0.0;
    for (int i = 0; i < 100; i++)
        t += a[i];
    prefix_sums(out, a, 100);
    return (int)(t + out[99]);
}
"""
