// corpus: near-miss SYRK, correlation-style strict triangles whose row loop runs to the last row but leaves it on a test of its own: at a row limit other than the triangle's size, or at the first variable whose mean is not a number
// args: test=40 30 bench=1000 720
// near-miss: corr_rows_limited leaves the row loop once i + 1 reaches lim, which need not be m: the rows it fills are its own choice, not the triangle's; corr_rows_until_nan leaves it at the first row whose mean is NaN, a test of the data. In both the test that ends the loop early is not the row loop's own, so the nest is no strict triangle; the j loops store the mirror too (no GEMV), and the inner dot products are Reductions
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Centres the columns of the n x m row-major data in place, their means into mean. */
void center(int n, int m, double *data, double *mean)
{
    for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)            // expect: Reduction in center
            s += data[k * m + j];
        mean[j] = s / (double)n;
        for (int k = 0; k < n; k++)   // expect: Map in center
            data[k * m + j] -= mean[j];
    }
}

/* The rows of the strict upper triangle up to the row limit lim only. */
void corr_rows_limited(int n, int m, int lim, const double *data, double *corr)
{
    /* not a strict triangle: the row loop leaves at lim, not where the triangle ends */
    for (int i = 0; i < m; i++) {              // expect-none: SYRK
        corr[i * m + i] = 1.0;
        if (i + 1 >= lim)
            break;
        for (int j = i + 1; j < m; j++) {      // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < n; k++)        // expect: Reduction in corr_rows_limited
                s += data[k * m + i] * data[k * m + j];
            corr[i * m + j] = s / (n - 1.0);
            corr[j * m + i] = corr[i * m + j];
        }
    }
}

/* The rows of the strict upper triangle until a variable's mean is not a number. */
void corr_rows_until_nan(int n, int m, const double *mean, const double *data, double *corr)
{
    /* not a strict triangle: the row loop leaves on a test of the data */
    for (int i = 0; i < m; i++) {              // expect-none: SYRK
        corr[i * m + i] = 1.0;
        if (mean[i] != mean[i])
            break;
        for (int j = i + 1; j < m; j++) {      // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < n; k++)        // expect: Reduction in corr_rows_until_nan
                s += data[k * m + i] * data[k * m + j];
            corr[i * m + j] = s / (n - 1.0);
            corr[j * m + i] = corr[i * m + j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 40;
    int m = argc > 2 ? atoi(argv[2]) : 30;
    if (n < 2) n = 2;
    if (m < 4) m = 4;
    double *data = malloc((size_t)n * (size_t)m * sizeof *data);
    double *mean = malloc((size_t)m * sizeof *mean);
    double *corr = calloc((size_t)m * (size_t)m, sizeof *corr);
    if (!data || !mean || !corr) return 1;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < m; j++)
            data[k * m + j] = (double)((k * 13 + j * 7) % 29) / 29.0 + 0.01 * (double)(j % 5);

    center(n, m, data, mean);
    double total = 0.0;
    corr_rows_limited(n, m, m / 2, data, corr);
    for (long t = 0; t < (long)m * m; t++)     // expect: Reduction in main
        total += corr[t] * (double)(1 + t % 7);
    mean[m - 3] = NAN;
    corr_rows_until_nan(n, m, mean, data, corr);
    for (long t = 0; t < (long)m * m; t++)     // expect: Reduction in main
        total += corr[t] * (double)(1 + t % 5);
    printf("n m = %d %d\n", n, m);
    printf("weighted sum = %.10g\n", total);
    free(data); free(mean); free(corr);
    return 0;
}
