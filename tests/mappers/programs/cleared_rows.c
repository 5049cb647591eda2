/* GEMM in i-k-j form whose rows of the output are cleared first, for the differential tests
 * of the clearing loop (mappers/targets/blas.py):
 *
 *   cleared_rows N SEED MODE
 *
 * MODE 0: the loop clears exactly the row the updates then write (one GEMM, beta 0);
 *      1: it clears one element fewer;  2: one element more (the padding);
 *      3: it clears the same row of another array.
 * cleared_after clears each row after the updates: not a product any more. */
#include <stdio.h>
#include <stdlib.h>

void cleared_rows(int m, int n, int p, int clear_n, int ldd, const double *A, const double *B,
                  double *D, double *Z)
{
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < clear_n; j++)
            Z[i * ldd + j] = 0.0;
        for (int k = 0; k < p; k++) {
            double a = A[i * p + k];
            for (int j = 0; j < n; j++)
                D[i * ldd + j] += a * B[k * n + j];
        }
    }
}

void cleared_after(int m, int n, int p, int ldd, const double *A, const double *B, double *D)
{
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < p; k++) {
            double a = A[i * p + k];
            for (int j = 0; j < n; j++)
                D[i * ldd + j] += a * B[k * n + j];
        }
        for (int j = 0; j < n / 2; j++)
            D[i * ldd + j] = 0.0;
    }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

static double *filled(int count)
{
    double *v = malloc(sizeof(double) * (size_t)(count > 0 ? count : 1));
    if (!v) exit(1);
    for (int t = 0; t < count; t++) v[t] = next_value();
    return v;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    state = argc > 2 ? (unsigned long long)atoll(argv[2]) : 1;
    int mode = argc > 3 ? atoi(argv[3]) : 0;
    int m = n, p = n + 2, ldd = n + 1;
    int clear_n = mode == 1 ? n - 1 : mode == 2 ? n + 1 : n;

    double *A = filled(m * p), *B = filled(p * n);
    double *D = filled(m * ldd), *E = filled(m * ldd);
    cleared_rows(m, n, p, clear_n, ldd, A, B, D, mode == 3 ? E : D);
    for (int t = 0; t < m * ldd; t++) printf("D[%d] = %.12g\n", t, D[t]);
    for (int t = 0; t < m * ldd; t++) printf("E[%d] = %.12g\n", t, E[t]);
    cleared_after(m, n, p, ldd, A, B, E);
    for (int t = 0; t < m * ldd; t++) printf("E'[%d] = %.12g\n", t, E[t]);
    return 0;
}
