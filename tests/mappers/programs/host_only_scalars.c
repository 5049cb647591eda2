/* File-scope scalars written by the host between launches. `weight` and `sweeps` are only
 * ever loaded and stored by name: no launch can hold them, so the residency pass places no
 * host access before them. `probe` has its address taken (sscanf), so a launch could in
 * principle be given it, and each access of it brings the bytes back first.
 * Usage: host_only_scalars N STEPS [PROBE]
 */
#include <stdio.h>
#include <stdlib.h>

static double weight;
static long sweeps;
static double probe;

__attribute__((noinline)) static void smooth(long n, const double *restrict in,
                                             double *restrict out) {
    for (long i = 1; i < n - 1; i++) {
        out[i] = weight * (in[i - 1] + in[i] + in[i + 1]);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        return 2;
    }
    long n = atol(argv[1]);
    int steps = atoi(argv[2]);
    if (argc > 3 && sscanf(argv[3], "%lf", &probe) != 1) {
        return 2;
    }
    double *a = calloc(n > 0 ? (size_t)n : 1, sizeof *a);
    double *b = calloc(n > 0 ? (size_t)n : 1, sizeof *b);
    for (long i = 0; i < n; i++) {
        a[i] = b[i] = (double)((i * 7) % 11);
    }
    for (int step = 0; step < steps; step++) {
        weight = 1.0 / (3.0 + 0.01 * step);
        smooth(n, a, b);
        sweeps++;
        probe += weight;
        weight = 1.0 / (3.0 - 0.01 * step);
        smooth(n, b, a);
        sweeps++;
    }
    double sum = 0.0;
    for (long i = 0; i < n; i++) {
        sum += a[i];
    }
    printf("%ld sweeps, sum %.12g, probe %.12g\n", sweeps, sum, probe);
    free(a);
    free(b);
    return 0;
}
