// corpus: SYRK, correlation matrix on fixed-size 2D arrays (N, M macros) in a static kernel inlined into main: column means, sample standard deviations (a zero one replaced by 1), the data standardised in place, then the strict upper triangle of data^T * data summed in a local, divided by (N - 1.0), stored and mirrored, the diagonal set to 1 by the row loop (rows 0 .. M - 2, the last one after it)
// args: test=1 bench=40
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 500
#define M 400

static double data[N][M];
static double corr[M][M];
static double mean[M];
static double stddev[M];

/* The M x M Pearson correlation of the M variables (columns) observed N times (rows) in
   data, standardised in place with the sample standard deviation (N - 1 in its
   denominator), so that each correlation is a sum of products divided by N - 1. */
static void kernel_correlation(double data[N][M], double corr[M][M], double mean[M],
                               double stddev[M])
{
    for (int j = 0; j < M; j++) {
        mean[j] = 0.0;
        for (int k = 0; k < N; k++)            // expect: Reduction in kernel_correlation
            mean[j] += data[k][j];
        mean[j] /= (double)N;
    }

    for (int j = 0; j < M; j++) {
        stddev[j] = 0.0;
        for (int k = 0; k < N; k++)            // expect: Reduction in kernel_correlation
            stddev[j] += (data[k][j] - mean[j]) * (data[k][j] - mean[j]);
        stddev[j] = sqrt(stddev[j] / (N - 1.0));
        stddev[j] = stddev[j] <= 1.0e-10 ? 1.0 : stddev[j];
    }

    for (int k = 0; k < N; k++)   // expect: Map in kernel_correlation
        for (int j = 0; j < M; j++) {
            data[k][j] -= mean[j];
            data[k][j] /= stddev[j];
        }

    for (int i = 0; i < M - 1; i++) {          // expect: SYRK in kernel_correlation
        corr[i][i] = 1.0;
        for (int j = i + 1; j < M; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += data[k][i] * data[k][j];
            corr[i][j] = s / (N - 1.0);
            corr[j][i] = corr[i][j];
        }
    }
    corr[M - 1][M - 1] = 1.0;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* each repetition correlates a fresh data set: two factors shared by the variables of
       an observation, in proportions that vary with the variable and the repetition, and
       a pattern of each variable's own */
    double upper = 0.0, wupper = 0.0, lower = 0.0, diag = 0.0, msum = 0.0, ssum = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < N; k++) {
            double f = (double)((k * 31 + r * 5) % 67) / 67.0;
            double g = (double)((k * 17 + r * 3) % 29) / 29.0;
            for (int j = 0; j < M; j++)
                data[k][j] = (0.5 + 0.1 * (double)(j % 7)) * f
                           + 0.3 * (double)((j + r) % 3) * g
                           + 0.5 * (double)((k * 11 + j * 7 + r) % 23) / 23.0
                           + 0.05 * (double)(j % 13);
        }

        kernel_correlation(data, corr, mean, stddev);

        /* the strict upper triangle (weighted too), the strict lower one (the mirror, weighted)
           and the diagonal, apart */
        double w = 1.0 + (double)(r % 3);
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < M; j++) {      // expect: Reduction in main
                double in_upper = (double)(j > i), in_lower = (double)(j < i);
                upper += in_upper * corr[i][j];
                wupper += w * in_upper * corr[i][j] * (double)(1 + (3 * i + j) % 5);
                lower += in_lower * corr[i][j] * (double)(1 + (i + 3 * j) % 5);
            }
        }
        for (int i = 0; i < M; i++)            // expect: Reduction in main
            diag += corr[i][i] * (double)(1 + (i + r) % 6);
        for (int j = 0; j < M; j++) {          // expect: Reduction in main
            msum += mean[j] * (double)(1 + j % 4);
            ssum += stddev[j];
        }
    }

    printf("N M reps = %d %d %d\n", N, M, reps);
    printf("weighted means = %.10g\n", msum);
    printf("standard deviations = %.10g\n", ssum);
    printf("strict upper = %.10g\n", upper);
    printf("weighted strict upper = %.10g\n", wupper);
    printf("weighted strict lower = %.10g\n", lower);
    printf("weighted diagonal = %.10g\n", diag);
    printf("corr[0][M-1] = %.10g  corr[M-1][0] = %.10g  corr[M/2][M/3] = %.10g\n",
           corr[0][M - 1], corr[M - 1][0], corr[M / 2][M / 3]);
    return 0;
}
