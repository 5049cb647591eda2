// corpus: SYRK, correlation matrix on fixed-size 2D arrays (NOBS, NVAR macros) in a static kernel inlined into main, its row loop running over every row (the diagonal set to 1 by it, the last row's column loop empty): column means, sample standard deviations (a tiny one replaced by 1), the data standardised in place, then the strict upper triangle of data^T * data summed in a local, divided by (NOBS - 1.0), stored and mirrored
// args: test=1 bench=5
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NOBS 500
#define NVAR 800

static double obs[NOBS][NVAR];
static double corr[NVAR][NVAR];
static double mean[NVAR];
static double sdev[NVAR];

/* The NVAR x NVAR Pearson correlation of the NVAR variables (columns) observed NOBS
   times (rows) in obs, which is standardised in place with the sample standard deviation
   (NOBS - 1 in its denominator): each correlation is then a sum of products divided by
   NOBS - 1. The row loop visits every row, the last one only for its diagonal. */
static void kernel_corr(double obs[NOBS][NVAR], double corr[NVAR][NVAR], double mean[NVAR],
                        double sdev[NVAR])
{
    for (int j = 0; j < NVAR; j++) {
        double s = 0.0;
        for (int k = 0; k < NOBS; k++)         // expect: Reduction in kernel_corr
            s += obs[k][j];
        mean[j] = s / (double)NOBS;
    }

    for (int j = 0; j < NVAR; j++) {
        double ss = 0.0;
        for (int k = 0; k < NOBS; k++) {       // expect: Reduction in kernel_corr
            double d = obs[k][j] - mean[j];
            ss += d * d;
        }
        sdev[j] = sqrt(ss / (NOBS - 1.0));
        if (sdev[j] <= 1.0e-10)
            sdev[j] = 1.0;
    }

    for (int k = 0; k < NOBS; k++)   // expect: Map in kernel_corr
        for (int j = 0; j < NVAR; j++)
            obs[k][j] = (obs[k][j] - mean[j]) / sdev[j];

    for (int i = 0; i < NVAR; i++) {           // expect: SYRK in kernel_corr
        corr[i][i] = 1.0;
        for (int j = i + 1; j < NVAR; j++) {
            double s = 0.0;
            for (int k = 0; k < NOBS; k++)
                s += obs[k][i] * obs[k][j];
            corr[i][j] = s / (NOBS - 1.0);
            corr[j][i] = corr[i][j];
        }
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* each repetition correlates fresh observations: a factor that every variable
       carries in its own proportion, a second one that only every third variable
       carries, a pattern of each variable's own, and variable 17 constant */
    double upper = 0.0, wupper = 0.0, lower = 0.0, diag = 0.0, msum = 0.0, ssum = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < NOBS; k++) {
            double f = (double)((k * 37 + r * 7) % 71) / 71.0;
            double g = (double)((k * 13 + r * 2) % 31) / 31.0;
            for (int j = 0; j < NVAR; j++)
                obs[k][j] = j == 17 ? 1.5
                          : (0.4 + 0.08 * (double)(j % 9)) * f
                            + (j % 3 == 0 ? 0.7 : 0.0) * g
                            + 0.4 * (double)((k * 5 + j * 11 + r) % 19) / 19.0
                            + 0.03 * (double)(j % 17);
        }

        kernel_corr(obs, corr, mean, sdev);

        /* the strict upper triangle (weighted too), the strict lower one (the mirror,
           weighted) and the diagonal, apart */
        double w = 1.0 + (double)(r % 4);
        for (int i = 0; i < NVAR; i++) {
            for (int j = 0; j < NVAR; j++) {   // expect: Reduction in main
                double in_upper = (double)(j > i), in_lower = (double)(j < i);
                upper += in_upper * corr[i][j];
                wupper += w * in_upper * corr[i][j] * (double)(1 + (2 * i + j) % 7);
                lower += in_lower * corr[i][j] * (double)(1 + (i + 2 * j) % 7);
            }
        }
        for (int i = 0; i < NVAR; i++)         // expect: Reduction in main
            diag += corr[i][i] * (double)(1 + (i + r) % 5);
        for (int j = 0; j < NVAR; j++) {       // expect: Reduction in main
            msum += mean[j] * (double)(1 + j % 6);
            ssum += sdev[j];
        }
    }

    printf("NOBS NVAR reps = %d %d %d\n", NOBS, NVAR, reps);
    printf("weighted means = %.10g\n", msum);
    printf("standard deviations = %.10g\n", ssum);
    printf("strict upper = %.10g\n", upper);
    printf("weighted strict upper = %.10g\n", wupper);
    printf("weighted strict lower = %.10g\n", lower);
    printf("weighted diagonal = %.10g\n", diag);
    printf("corr[0][NVAR-1] = %.10g  corr[NVAR-1][0] = %.10g  corr[NVAR-1][NVAR-1] = %.10g\n",
           corr[0][NVAR - 1], corr[NVAR - 1][0], corr[NVAR - 1][NVAR - 1]);
    return 0;
}
