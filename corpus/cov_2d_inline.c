// corpus: SYRK, covariance matrix on fixed-size 2D arrays (N, M macros) in a static kernel inlined into main: means and sums kept in memory (cov[i][j] += data[k][i] * data[k][j]), each upper element then divided by (N - 1.0) in place and mirrored
// args: test=1 bench=60
#include <stdio.h>
#include <stdlib.h>

#define N 500
#define M 360

static double data[N][M];
static double cov[M][M];
static double mean[M];

/* The M x M sample covariance of the N observations (rows) of data, centred in place
   first; the upper triangle is summed in cov itself, divided by N - 1 and copied to the
   lower one. */
static void kernel_covariance(double data[N][M], double cov[M][M], double mean[M])
{
    for (int j = 0; j < M; j++) {
        mean[j] = 0.0;
        for (int k = 0; k < N; k++)            // expect: Reduction in kernel_covariance
            mean[j] += data[k][j];
        mean[j] /= (double)N;
    }

    for (int k = 0; k < N; k++)   // expect: Map in kernel_covariance
        for (int j = 0; j < M; j++)
            data[k][j] -= mean[j];

    for (int i = 0; i < M; i++) {              // expect: SYRK in kernel_covariance
        for (int j = i; j < M; j++) {
            cov[i][j] = 0.0;
            for (int k = 0; k < N; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (N - 1.0);
            cov[j][i] = cov[i][j];
        }
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* each repetition analyses a fresh data set: a factor shared by the variables of an
       observation, one per variable, and a pattern that changes with the repetition */
    double upper = 0.0, wupper = 0.0, lower = 0.0, trace = 0.0, msum = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < N; k++)
            for (int j = 0; j < M; j++)
                data[k][j] = (double)((k * 29 + r * 7) % 61) / 61.0
                           + 0.4 * (double)((k * 13 + j * 5 + r) % 17) / 17.0
                           + 0.1 * (double)(j % 9);

        kernel_covariance(data, cov, mean);

        /* the upper triangle (weighted too) and the strictly lower one (the mirror) */
        double w = 1.0 + (double)(r % 4);
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < M; j++) {      // expect: Reduction in main
                double in_upper = (double)(j >= i);
                upper += in_upper * cov[i][j];
                wupper += w * in_upper * cov[i][j] * (double)(1 + (2 * i + j) % 5);
                lower += (1.0 - in_upper) * cov[i][j] * (double)(1 + (i + j) % 3);
            }
        }
        for (int i = 0; i < M; i++)            // expect: Reduction in main
            trace += cov[i][i];
        for (int j = 0; j < M; j++)            // expect: Reduction in main
            msum += mean[j] * (double)(1 + j % 4);
    }

    printf("N M reps = %d %d %d\n", N, M, reps);
    printf("weighted means = %.10g\n", msum);
    printf("upper = %.10g\n", upper);
    printf("weighted upper = %.10g\n", wupper);
    printf("weighted strictly lower = %.10g\n", lower);
    printf("trace = %.10g\n", trace);
    printf("cov[0][M-1] = %.10g  cov[M-1][0] = %.10g  cov[M/2][M/3] = %.10g\n",
           cov[0][M - 1], cov[M - 1][0], cov[M / 2][M / 3]);
    return 0;
}
