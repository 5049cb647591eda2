// corpus: SYRK, double correlation matrix with double ** row tables (each row allocated on its own, as legacy code builds matrices), the row loop over every row (the diagonal set to 1 by it, the last row's column loop empty): column means, sample standard deviations (a tiny one replaced by 1), the data standardised in place, then the strict upper triangle of data^T * data summed in a local, divided by (n - 1) and mirrored into the lower triangle
// args: test=44 30 bench=1400 1000
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double **rows_alloc(int rows, int cols)
{
    double **t = malloc((size_t)rows * sizeof *t);
    if (!t) return NULL;
    for (int r = 0; r < rows; r++) {
        t[r] = malloc((size_t)cols * sizeof **t);
        if (!t[r]) return NULL;
    }
    return t;
}

static void rows_free(double **t, int rows)
{
    for (int r = 0; r < rows; r++)
        free(t[r]);
    free(t);
}

/* The m x m Pearson correlation of the m variables (columns) observed n times (rows) in
   x, standardised in place with the sample standard deviation: each correlation is a sum
   of products over the observations divided by n - 1. */
void correlation_rows(int n, int m, double **x, double *mean, double *sdev, double **corr)
{
    for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)            // expect: Reduction in correlation_rows
            s += x[k][j];
        mean[j] = s / n;
    }

    for (int j = 0; j < m; j++) {
        double ss = 0.0;
        for (int k = 0; k < n; k++) {          // expect: Reduction in correlation_rows
            double d = x[k][j] - mean[j];
            ss += d * d;
        }
        sdev[j] = sqrt(ss / (n - 1));
        if (sdev[j] <= 1.0e-10)
            sdev[j] = 1.0;
    }

    for (int k = 0; k < n; k++)   // expect: Map in correlation_rows
        for (int j = 0; j < m; j++)
            x[k][j] = (x[k][j] - mean[j]) / sdev[j];

    double denom = (double)(n - 1);
    for (int i = 0; i < m; i++) {              // expect: SYRK in correlation_rows
        corr[i][i] = 1.0;
        for (int j = i + 1; j < m; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += x[k][i] * x[k][j];
            corr[i][j] = s / denom;
            corr[j][i] = corr[i][j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int m = argc > 2 ? atoi(argv[2]) : 400;
    if (n < 4) n = 4;
    if (m < 5) m = 5;

    double **x = rows_alloc(n, m), **corr = rows_alloc(m, m);
    double *mean = malloc((size_t)m * sizeof *mean);
    double *sdev = malloc((size_t)m * sizeof *sdev);
    if (!x || !corr || !mean || !sdev) return 1;

    /* a factor of the observation loaded by each variable in its own proportion, a
       second one that the odd variables carry, LCG noise, and variable 4 constant */
    unsigned int seed = 1234567u;
    for (int k = 0; k < n; k++) {
        double f = (double)((k * 29) % 89) / 89.0;
        double g = (double)((k * 7) % 43) / 43.0;
        for (int j = 0; j < m; j++) {
            seed = seed * 22695477u + 1u;
            double noise = (double)((seed >> 16) & 4095u) / 4096.0;
            x[k][j] = j == 4 ? -0.25
                    : (0.2 + 0.12 * (double)(j % 6)) * f + (j % 2 ? 0.4 : 0.0) * g
                      + 0.6 * noise + 0.02 * (double)(j % 10);
        }
    }

    correlation_rows(n, m, x, mean, sdev, corr);

    /* the strict upper triangle, the strict lower one (the mirror), each weighted too,
       and the diagonal, apart */
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0, diag = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {          // expect: Reduction in main
            double in_upper = (double)(j > i), in_lower = (double)(j < i);
            upper += in_upper * corr[i][j];
            wupper += in_upper * corr[i][j] * (double)(1 + (i + 4 * j) % 7);
            lower += in_lower * corr[i][j];
            wlower += in_lower * corr[i][j] * (double)(1 + (j + 4 * i) % 7);
        }
    }
    for (int i = 0; i < m; i++)                // expect: Reduction in main
        diag += corr[i][i] * (double)(1 + i % 6);
    double msum = 0.0, ssum = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        msum += mean[j] * (double)(1 + j % 4);
        ssum += sdev[j];
    }

    printf("n m = %d %d\n", n, m);
    printf("weighted means = %.10g\n", msum);
    printf("standard deviations = %.10g\n", ssum);
    printf("strict upper = %.10g\n", upper);
    printf("weighted strict upper = %.10g\n", wupper);
    printf("strict lower = %.10g\n", lower);
    printf("weighted strict lower = %.10g\n", wlower);
    printf("weighted diagonal = %.10g\n", diag);
    printf("corr[0][m-1] = %.10g  corr[m-1][0] = %.10g  corr[m-1][m-1] = %.10g\n",
           corr[0][m - 1], corr[m - 1][0], corr[m - 1][m - 1]);
    rows_free(x, n);
    rows_free(corr, m);
    free(mean); free(sdev);
    return 0;
}
