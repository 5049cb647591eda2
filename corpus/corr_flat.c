// corpus: SYRK, correlation matrix of an n x m data matrix on flat double arrays with computed indices: column means, standard deviations (a zero one replaced by 1), the data standardised in place, then the strict upper triangle of data^T * data summed in corr itself, the diagonal set to 1 by the row loop (rows 0 .. m - 2, the last one after it) and each element mirrored into the lower triangle
// args: test=60 40 bench=1900 1300
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The m x m Pearson correlation of the m variables (columns) observed n times (rows) in
   data, row-major with m entries a row. data is standardised in place: centred, divided
   by sqrt(n) times its standard deviation, so that each correlation is a plain sum of
   products over the observations. A variable that never changes has standard deviation
   0; it is divided by 1 instead and correlates 0 with every other. */
void correlation(int n, int m, double *data, double *mean, double *stddev, double *corr)
{
    for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)            // expect: Reduction in correlation
            s += data[k * m + j];
        mean[j] = s / (double)n;
    }

    for (int j = 0; j < m; j++) {
        double ss = 0.0;
        for (int k = 0; k < n; k++) {          // expect: Reduction in correlation
            double d = data[k * m + j] - mean[j];
            ss += d * d;
        }
        stddev[j] = sqrt(ss / (double)n);
        if (stddev[j] <= 1.0e-10)
            stddev[j] = 1.0;
    }

    double root_n = sqrt((double)n);
    for (int k = 0; k < n; k++)   // expect: Map in correlation
        for (int j = 0; j < m; j++)
            data[k * m + j] = (data[k * m + j] - mean[j]) / (root_n * stddev[j]);

    for (int i = 0; i < m - 1; i++) {          // expect: SYRK in correlation
        corr[i * m + i] = 1.0;
        for (int j = i + 1; j < m; j++) {
            corr[i * m + j] = 0.0;
            for (int k = 0; k < n; k++)
                corr[i * m + j] += data[k * m + i] * data[k * m + j];
            corr[j * m + i] = corr[i * m + j];
        }
    }
    corr[(m - 1) * m + (m - 1)] = 1.0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int m = argc > 2 ? atoi(argv[2]) : 400;
    if (n < 4) n = 4;
    if (m < 5) m = 5;

    double *data = malloc((size_t)n * (size_t)m * sizeof *data);
    double *mean = malloc((size_t)m * sizeof *mean);
    double *stddev = malloc((size_t)m * sizeof *stddev);
    double *corr = malloc((size_t)m * (size_t)m * sizeof *corr);
    if (!data || !mean || !stddev || !corr) return 1;

    /* a factor shared by all the variables of an observation, loaded more or less heavily
       by each variable (so the correlations are positive and spread out), LCG noise, and
       one variable (column 3) that is constant */
    unsigned int seed = 7919u;
    for (int k = 0; k < n; k++) {
        double shared = (double)((k * 43) % 103) / 103.0;
        for (int j = 0; j < m; j++) {
            seed = seed * 1103515245u + 12345u;
            double noise = (double)((seed >> 16) & 2047u) / 2048.0;
            double load = 0.2 + 0.15 * (double)(j % 11);
            data[k * m + j] = j == 3 ? 2.5 : load * shared + 0.6 * noise + 0.1 * (double)(j % 5);
        }
    }

    correlation(n, m, data, mean, stddev, corr);

    /* the strict upper triangle, the strict lower one (the mirror), each weighted too,
       and the diagonal, apart */
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0;
    for (long t = 0; t < (long)m * m; t++) {   // expect: Reduction in main
        long i = t / m, j = t % m;
        double in_upper = (double)(j > i), in_lower = (double)(j < i);
        upper += in_upper * corr[t];
        wupper += in_upper * corr[t] * (double)(1 + (i + 2 * j) % 9);
        lower += in_lower * corr[t];
        wlower += in_lower * corr[t] * (double)(1 + (j + 2 * i) % 9);
    }
    double diag = 0.0;
    for (int i = 0; i < m; i++)                // expect: Reduction in main
        diag += corr[i * m + i] * (double)(1 + i % 4);
    double msum = 0.0, ssum = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        msum += mean[j] * (double)(1 + j % 3);
        ssum += stddev[j];
    }

    printf("n m = %d %d\n", n, m);
    printf("weighted means = %.10g\n", msum);
    printf("standard deviations = %.10g\n", ssum);
    printf("strict upper = %.10g\n", upper);
    printf("weighted strict upper = %.10g\n", wupper);
    printf("strict lower = %.10g\n", lower);
    printf("weighted strict lower = %.10g\n", wlower);
    printf("weighted diagonal = %.10g\n", diag);
    printf("corr[0][m-1] = %.10g  corr[m-1][0] = %.10g  corr[m/2][m/3] = %.10g\n",
           corr[m - 1], corr[(long)(m - 1) * m], corr[(long)(m / 2) * m + m / 3]);
    free(data); free(mean); free(stddev); free(corr);
    return 0;
}
