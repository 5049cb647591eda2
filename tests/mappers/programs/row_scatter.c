/* A histogram replaced inside a row loop, for the outline tests: each row scatters its
 * `len` products into y, `len` fixed for the whole matrix (an ELLPACK-like layout), so the
 * inner loop is replaced and its guard is met once per row, where it declines unless `len`
 * is large. The row loop reads x[i] after launches may have happened: a host access.
 * Usage: row_scatter ROWS LEN ITERS */
#include <stdio.h>
#include <stdlib.h>

void scatter_rows(int n, int len, const int *col, const float *val, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        float xi = x[i];
        for (int j = 0; j < len; j++)
            y[col[i * len + j]] += val[i * len + j] * xi;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int len = argc > 2 ? atoi(argv[2]) : 8;
    int iters = argc > 3 ? atoi(argv[3]) : 2;
    if (n < 1 || len < 1 || iters < 1)
        return 2;
    int *col = malloc((size_t)n * len * sizeof *col);
    float *val = malloc((size_t)n * len * sizeof *val);
    float *x = malloc((size_t)n * sizeof *x), *y = calloc((size_t)n, sizeof *y);
    if (!col || !val || !x || !y)
        return 1;
    unsigned seed = 7u;
    for (long k = 0; k < (long)n * len; k++) {
        seed = seed * 1664525u + 1013904223u;
        col[k] = (int)((seed >> 8) % (unsigned)n);
        val[k] = 0.25f * (float)(1 + k % 4);
    }
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 8) * 0.125f;
    for (int it = 0; it < iters; it++)
        scatter_rows(n, len, col, val, x, y);
    printf("y[0] %.6g y[n-1] %.6g\n", (double)y[0], (double)y[n - 1]);
    free(col);
    free(val);
    free(x);
    free(y);
    return 0;
}
