// corpus: SYRK, float correlation matrix with float ** row tables (rows pointing into one block, as legacy code allocates matrices): column means, sample standard deviations (a zero one replaced by 1), the data standardised in place, then the strict upper triangle of data^T * data summed in a local, divided by a float (n - 1) and mirrored into the lower triangle, the diagonal set to 1 by the row loop (rows 0 .. m - 2, the last one after it)
// args: test=50 36 bench=2000 1300
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The m x m Pearson correlation of the m variables observed n times in data (one row an
   observation): means, sample standard deviations, standardisation in place, then each
   element of the strict upper triangle as a sum over the observations divided by denom
   (n - 1), copied to its mirror; the diagonal is 1. */
void correlation_rows(int n, int m, float denom, float **data, float *mean, float *sd,
                      float **corr)
{
    for (int j = 0; j < m; j++) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)            // expect: Reduction in correlation_rows
            s += data[k][j];
        mean[j] = s / (float)n;
    }

    for (int j = 0; j < m; j++) {
        float ss = 0.0f;
        for (int k = 0; k < n; k++) {          // expect: Reduction in correlation_rows
            float d = data[k][j] - mean[j];
            ss += d * d;
        }
        sd[j] = sqrtf(ss / denom);
        if (sd[j] <= 1.0e-6f)
            sd[j] = 1.0f;
    }

    for (int k = 0; k < n; k++)   // expect: Map in correlation_rows
        for (int j = 0; j < m; j++)
            data[k][j] = (data[k][j] - mean[j]) / sd[j];

    for (int i = 0; i < m - 1; i++) {          // expect: SYRK in correlation_rows
        corr[i][i] = 1.0f;
        for (int j = i + 1; j < m; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += data[k][i] * data[k][j];
            corr[i][j] = s / denom;
            corr[j][i] = corr[i][j];
        }
    }
    corr[m - 1][m - 1] = 1.0f;
}

/* rows x cols floats as a table of row pointers into one block, rows cols + 5 apart */
float **alloc_rows(int rows, int cols)
{
    int ld = cols + 5;
    float **r = malloc((size_t)rows * sizeof *r);
    float *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++)
        r[i] = block + (size_t)i * (size_t)ld;
    return r;
}

void free_rows(float **r)
{
    free(r[0]);
    free(r);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int m = argc > 2 ? atoi(argv[2]) : 300;
    if (n < 4) n = 4;
    if (m < 2) m = 2;

    float **data = alloc_rows(n, m), **corr = alloc_rows(m, m);
    float *mean = malloc((size_t)m * sizeof *mean);
    float *sd = malloc((size_t)m * sizeof *sd);
    if (!mean || !sd) return 1;

    /* a strong factor shared by the variables of an observation (so the correlations stay
       well away from zero), weighted by the variable, plus a small LCG noise and an offset
       per variable */
    unsigned int seed = 31337u;
    for (int k = 0; k < n; k++) {
        float shared = (float)((k * 47) % 97) / 97.0f;
        for (int j = 0; j < m; j++) {
            seed = seed * 1664525u + 1013904223u;
            float noise = (float)((seed >> 20) & 255u) / 256.0f;
            data[k][j] = (0.4f + 0.1f * (float)(j % 6)) * shared + 0.3f * noise
                       + 0.125f * (float)(j % 5);
        }
    }

    correlation_rows(n, m, (float)(n - 1), data, mean, sd, corr);

    /* the strict upper triangle (weighted too), the strict lower one (the mirror,
       weighted too) and the diagonal, apart */
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {          // expect: Reduction in main
            double in_upper = (double)(j > i), in_lower = (double)(j < i);
            upper += in_upper * corr[i][j];
            wupper += in_upper * corr[i][j] * (double)(1 + (i + 2 * j) % 7);
            lower += in_lower * corr[i][j];
            wlower += in_lower * corr[i][j] * (double)(1 + (j + 2 * i) % 7);
        }
    }
    double diag = 0.0;
    for (int i = 0; i < m; i++)                // expect: Reduction in main
        diag += corr[i][i] * (double)(1 + i % 3);
    double msum = 0.0, sdsum = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        msum += mean[j] * (double)(1 + j % 3);
        sdsum += sd[j];
    }

    printf("n m = %d %d\n", n, m);
    printf("weighted means = %.10g\n", msum);
    printf("standard deviations = %.10g\n", sdsum);
    printf("strict upper = %.10g\n", upper);
    printf("weighted strict upper = %.10g\n", wupper);
    printf("strict lower = %.10g\n", lower);
    printf("weighted strict lower = %.10g\n", wlower);
    printf("weighted diagonal = %.10g\n", diag);
    printf("corr[0][m-1] = %.6e  corr[m-1][0] = %.6e  corr[m/2][m/3] = %.6e\n",
           (double)corr[0][m - 1], (double)corr[m - 1][0], (double)corr[m / 2][m / 3]);
    free_rows(data); free_rows(corr); free(mean); free(sd);
    return 0;
}
