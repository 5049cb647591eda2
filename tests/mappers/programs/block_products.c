/* Small dense blocks updated on the host between launches, as NAS BT's solvers update
 * their 5x5 blocks: `block_sub` has no loop, and is entered while the
 * sweeps' arrays may be on the device, so each of its loads and stores needs the host's
 * bytes; `step_between` launches in the middle of a block. Usage: block_products N STEPS
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void smooth(long n, const double *restrict in,
                                             double *restrict out) {
    for (long i = 1; i < n - 1; i++) {
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
    }
}

/* c -= a * b, 3x3 blocks stored by rows, written out as NAS BT writes its 5x5 ones */
__attribute__((noinline)) static void block_sub(const double *a, const double *b, double *c) {
    c[0] = c[0] - a[0] * b[0] - a[1] * b[3] - a[2] * b[6];
    c[1] = c[1] - a[0] * b[1] - a[1] * b[4] - a[2] * b[7];
    c[2] = c[2] - a[0] * b[2] - a[1] * b[5] - a[2] * b[8];
    c[3] = c[3] - a[3] * b[0] - a[4] * b[3] - a[5] * b[6];
    c[4] = c[4] - a[3] * b[1] - a[4] * b[4] - a[5] * b[7];
    c[5] = c[5] - a[3] * b[2] - a[4] * b[5] - a[5] * b[8];
    c[6] = c[6] - a[6] * b[0] - a[7] * b[3] - a[8] * b[6];
    c[7] = c[7] - a[6] * b[1] - a[7] * b[4] - a[8] * b[7];
    c[8] = c[8] - a[6] * b[2] - a[7] * b[5] - a[8] * b[8];
}

/* A launch inside the block: b's bytes read before it and after it are two host accesses,
   since the sweep writes b on the device in between. */
__attribute__((noinline)) static void step_between(long n, double *a, double *b, double *c) {
    c[0] = c[0] + b[0];
    smooth(n, a, b);
    c[1] = c[1] + b[1] + b[2];
}

int main(int argc, char **argv) {
    if (argc < 3) {
        return 2;
    }
    long n = atol(argv[1]);
    int steps = atoi(argv[2]);
    double *a = calloc(n > 0 ? (size_t)n : 1, sizeof *a);
    double *b = calloc(n > 0 ? (size_t)n : 1, sizeof *b);
    for (long i = 0; i < n; i++) {
        a[i] = b[i] = (double)((i * 5) % 13) / 13.0;
    }
    for (int step = 0; step < steps; step++) {
        smooth(n, a, b);
        smooth(n, b, a);
        for (long k = 0; k + 9 <= n / 2; k += 9) {
            block_sub(&b[k], &b[n / 2 + k], &a[n / 2 + k]);
        }
        if (n >= 8) {
            step_between(n / 2, a, b, &a[n / 2 + 3]);
        }
    }
    double sum = 0.0;
    for (long i = 0; i < n; i++) {
        sum += a[i] * (double)(i % 7 + 1);
    }
    printf("sum %.12g\n", sum);
    free(a);
    free(b);
    return 0;
}
