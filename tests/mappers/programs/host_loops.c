/* A time loop around a stencil with a loop of host code after every step, for the ranged host
 * accesses (mappers/residency/host_ranges.py): a host loop that bounds its accesses before it runs
 * brings back only those bytes; the stencil's arrays stay on the device otherwise.
 * Usage: host_loops N STEPS MODE
 *   MODE 0: the host loop updates a small array w only (no device copy is touched)
 *   MODE 1: it reads a window of a (the stencil's latest output) into w
 *   MODE 2: it writes into a through a pointer into its middle
 *   MODE 3: it reads a window of a counting down
 *   MODE 4: it reads a with a stride of 2
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void smooth(long n, const double *restrict in, double *restrict out) {
    for (long i = 1; i < n - 1; i++) {
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
    }
}

__attribute__((noinline)) static void host_step(int mode, long n, long m, double *a, double *w,
                                                int lo) {
    double *middle = a + n / 2;
    const double *window = a + lo;
    switch (mode) {
    case 0:
        for (int i = 0; i < (int)m; i++) w[i] = 0.5 * w[i] + 1.0;
        break;
    case 1:
        for (long i = 0; i < m; i++) w[i] = window[i];
        break;
    case 2:
        for (long i = 0; i < m; i++) middle[i] += 0.125;
        break;
    case 3:
        for (long i = m - 1; i >= 0; i--) w[i] = a[lo + i];
        break;
    default:
        for (long i = 0; i < m / 2; i++) w[i] = a[2 * i];
        break;
    }
}

int main(int argc, char **argv) {
    if (argc < 4) {
        return 2;
    }
    long n = atol(argv[1]);
    long steps = atol(argv[2]);
    int mode = atoi(argv[3]);
    long m = n / 4; /* the host loop's length: within a and w */
    double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    double *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    double *w = calloc((size_t)(m > 0 ? m : 1), sizeof *w);
    if (a == NULL || b == NULL || w == NULL) {
        return 1;
    }
    for (long i = 0; i < n; i++) {
        a[i] = b[i] = (double)((i * 37) % 101) / 101.0;
    }
    for (long s = 1; s <= steps; s++) {
        smooth(n, a, b);
        double *t = a;
        a = b;
        b = t;
        host_step(mode, n, m, a, w, (int)(n / 3));
    }
    double total = 0.0, small = 0.0;
    for (long i = 0; i < n; i++) total += a[i] * (double)(i % 7 + 1);
    for (long i = 0; i < m; i++) small += w[i] * (double)(i % 5 + 1);
    printf("total %.17g small %.17g\n", total, small);
    free(a);
    free(b);
    free(w);
    return 0;
}
