// direct: corr_all_rows_flat_float.c: correlation_f's strict-triangle nest as a cblas_ssyrk call over the whole upper triangle (Trans: data^T * data), then the diagonal set to 1 and the mirror in a small loop
// args: test=50 36 bench=1500 1000
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* The m x m Pearson correlation (single precision) of the m variables (columns) observed
   n times (rows) in data, row-major with m entries a row. data is standardised in place
   and divided by sqrt(n), so that each correlation is a plain sum of products. A variable
   that never changes is divided by 1 instead and correlates 0 with every other. */
void correlation_f(int n, int m, float *data, float *mean, float *sdev, float *corr)
{
    for (int j = 0; j < m; j++) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += data[k * m + j];
        mean[j] = s / (float)n;
    }

    for (int j = 0; j < m; j++) {
        float ss = 0.0f;
        for (int k = 0; k < n; k++) {
            float d = data[k * m + j] - mean[j];
            ss += d * d;
        }
        float root = sqrtf(ss / (float)n);
        sdev[j] = root > 1.0e-6f ? root : 1.0f;
    }

    float root_n = sqrtf((float)n);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < m; j++)
            data[k * m + j] = (data[k * m + j] - mean[j]) / (root_n * sdev[j]);

    cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, m, n,
                1.0f, data, m, 0.0f, corr, m);
    for (int i = 0; i < m; i++) {
        corr[i * m + i] = 1.0f;
        for (int j = i + 1; j < m; j++)
            corr[j * m + i] = corr[i * m + j];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int m = argc > 2 ? atoi(argv[2]) : 400;
    if (n < 4) n = 4;
    if (m < 5) m = 5;

    float *data = malloc((size_t)n * (size_t)m * sizeof *data);
    float *mean = malloc((size_t)m * sizeof *mean);
    float *sdev = malloc((size_t)m * sizeof *sdev);
    float *corr = malloc((size_t)m * (size_t)m * sizeof *corr);
    if (!data || !mean || !sdev || !corr) return 1;

    /* two factors of an observation that each variable loads in its own proportions,
       LCG noise, and variable 2 constant */
    unsigned int seed = 2718u;
    for (int k = 0; k < n; k++) {
        float f = (float)((k * 41) % 97) / 97.0f;
        float g = (float)((k * 19) % 53) / 53.0f;
        for (int j = 0; j < m; j++) {
            seed = seed * 1664525u + 1013904223u;
            float noise = (float)((seed >> 17) & 1023u) / 1024.0f;
            data[k * m + j] = j == 2 ? 0.5f
                            : (0.25f + 0.1f * (float)(j % 7)) * f
                              + (j % 4 == 1 ? 0.5f : 0.1f) * g + 0.5f * noise;
        }
    }

    correlation_f(n, m, data, mean, sdev, corr);

    /* the strict upper triangle, the strict lower one (the mirror), each weighted too,
       and the diagonal, apart, summed in double */
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0;
    for (long t = 0; t < (long)m * m; t++) {
        long i = t / m, j = t % m;
        double in_upper = (double)(j > i), in_lower = (double)(j < i);
        upper += in_upper * corr[t];
        wupper += in_upper * corr[t] * (double)(1 + (i + 3 * j) % 8);
        lower += in_lower * corr[t];
        wlower += in_lower * corr[t] * (double)(1 + (j + 3 * i) % 8);
    }
    double diag = 0.0;
    for (int i = 0; i < m; i++)
        diag += corr[i * m + i] * (double)(1 + i % 3);
    double msum = 0.0, ssum = 0.0;
    for (int j = 0; j < m; j++) {
        msum += mean[j] * (double)(1 + j % 5);
        ssum += sdev[j];
    }

    printf("n m = %d %d\n", n, m);
    printf("weighted means = %.6e\n", msum);
    printf("standard deviations = %.6e\n", ssum);
    printf("strict upper = %.6e\n", upper);
    printf("weighted strict upper = %.6e\n", wupper);
    printf("strict lower = %.6e\n", lower);
    printf("weighted strict lower = %.6e\n", wlower);
    printf("weighted diagonal = %.6e\n", diag);
    printf("corr[0][m-1] = %.6e  corr[m-1][0] = %.6e  corr[m-1][m-1] = %.6e\n",
           corr[m - 1], corr[(long)(m - 1) * m], corr[(long)m * m - 1]);
    free(data); free(mean); free(sdev); free(corr);
    return 0;
}
