/* Host loops between launches, for the residency tests: a time loop around a stencil and a
 * reduction, and between the steps a host loop (or nest) that the rewriter either bounds
 * before it (idiom_host_access_at for the bytes of each array it touches) or, where it cannot,
 * precedes with a call that brings every device copy back.
 * Usage: between_steps N STEPS SEED MODE
 *   MODE 0  a small array of the host's own: the big arrays stay on the device
 *   MODE 1  the stencil's output, walked down from its end in steps of 3
 *   MODE 2  through a pointer into the stencil's output at offset n/3, n/4 + 1 elements
 *   MODE 3  a nest: the output seen as rows of 7 doubles, every other row from column 1 to
 *           n % 7 (an inner loop that may never run)
 *   MODE 4  through an index array (a loaded address: not bounded, everything comes back)
 *   MODE 5  a function called from the time loop, counting down to 0 with i > 0
 *   MODE 6  an 8-bit counter that wraps from 250 past 255 to 3 (must not be bounded wrongly)
 *   MODE 7  through a pointer into the stencil's input at an offset, and an int counter
 *   MODE 8  everything at once
 *   MODE 9  an unsigned counter up to <= n/2 with stride 2, a counter down to != n/2 - 1
 */
#include <stdio.h>
#include <stdlib.h>

static double small[16];

__attribute__((noinline)) void smooth(long n, const double *restrict in, double *restrict out) {
    for (long i = 1; i < n - 1; i++) {
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
    }
}

__attribute__((noinline)) double total(long n, const double *x) {
    double sum = 0.0;
    for (long i = 0; i < n; i++) {
        sum += x[i];
    }
    return sum;
}

/* Entered with device copies around: its loop is bounded in its own preheader. */
__attribute__((noinline)) void scale_down(long n, double *x, double factor) {
    for (long i = n; i > 0; i--) {
        x[i - 1] *= factor;
    }
}

static int wants(int mode, int which) {
    return mode == which || mode == 8;
}

static void between(int mode, long n, double *in, double *out, const int *index,
                    unsigned char wrap_from) {
    if (wants(mode, 1)) {
        for (long i = n - 1; i >= 0; i -= 3) {
            out[i] += 0.125 * (double)(i % 5);
        }
    }
    if (wants(mode, 2)) {
        double *p = out + n / 3;
        long len = n / 4 + 1;
        if (n / 3 + len <= n) {
            for (long i = 0; i < len; i++) {
                p[i] = p[i] * 0.5 + 1.0;
            }
        }
    }
    if (wants(mode, 3)) {
        long cols = 7, rows = n / 7, width = 1 + n % 7; /* width 1: the inner loop never runs */
        for (long r = 0; r < rows; r += 2) {
            for (long c = 1; c < width; c++) {
                out[r * cols + c] -= 0.25 * out[r * cols + c - 1];
            }
        }
    }
    if (wants(mode, 4)) {
        for (long i = 0; i < n; i++) {
            out[index[i]] = 0.5 * out[index[i]] + 0.25;
        }
    }
    if (wants(mode, 5)) {
        scale_down(n, out, 0.75);
    }
    if (wants(mode, 6) && n >= 256) {
        for (unsigned char c = wrap_from; c != 4; c++) {
            out[c] += 2.0;
        }
    }
    if (wants(mode, 9)) {
        for (unsigned u = 1; u <= (unsigned)(n / 2); u++) {
            out[2 * u - 1] *= 0.5;
        }
        for (long i = n - 1; i != n / 2 - 1; i--) {
            out[i] += 0.0625;
        }
    }
    if (wants(mode, 7) && n >= 4) {
        double *q = in + n / 2 - 1;
        int len = (int)(n - n / 2);
        for (int i = 0; i < len; i++) {
            q[i] = -q[i];
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 5) {
        return 2;
    }
    long n = atol(argv[1]);
    long steps = atol(argv[2]);
    unsigned seed = (unsigned)atol(argv[3]);
    int mode = atoi(argv[4]);
    size_t room = (size_t)(n > 0 ? n : 1) + 64; /* apart: one device copy each */
    double *a = malloc(room * sizeof *a);
    double *b = malloc(room * sizeof *b);
    int *index = malloc(room * sizeof *index);
    if (a == NULL || b == NULL || index == NULL) {
        return 1;
    }
    for (long i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = b[i] = (double)(seed >> 16 & 1023) / 1024.0;
        index[i] = (int)((seed >> 8) % (unsigned)n);
    }
    unsigned char wrap_from = (unsigned char)(250 + seed % 3);
    double sums = 0.0;
    for (long s = 1; s <= steps; s++) {
        smooth(n, a, b);
        sums += total(n, b);
        if (wants(mode, 0)) { /* in the time loop itself, as in corpus/csr_banded.c */
            int m = (int)(n % 16) + 1;
            for (int k = 0; k < m; k++) {
                small[k] = 0.5 * small[k] + (double)s;
            }
        }
        between(mode, n, a, b, index, wrap_from);
        double *t = a;
        a = b;
        b = t;
    }
    printf("sums %.17g\n", sums);
    for (int k = 0; k < 16; k++) {
        printf("small[%d] = %.17g\n", k, small[k]);
    }
    long every = n / 40 > 0 ? n / 40 : 1;
    for (long i = 0; i < n; i += every) {
        printf("a[%ld] = %.17g b[%ld] = %.17g\n", i, a[i], i, b[i]);
    }
    free(a);
    free(b);
    free(index);
    return 0;
}
