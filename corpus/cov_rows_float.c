// corpus: SYRK, float covariance matrix with float ** row tables (rows pointing into one block, as legacy code allocates matrices): the lower triangle of data^T * data summed in a local, divided by a float (n - 1) and mirrored into the upper triangle
// args: test=50 36 bench=2000 1300
#include <stdio.h>
#include <stdlib.h>

/* The m x m covariance of the n observations (rows) of m variables held in data: means,
   centring in place, then each element of the lower triangle (j <= i) as a sum over the
   observations divided by denom, copied to its mirror in the upper triangle. */
void covariance_rows(int n, int m, float denom, float **data, float *mean, float **cov)
{
    for (int j = 0; j < m; j++) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)            // expect: Reduction in covariance_rows
            s += data[k][j];
        mean[j] = s / (float)n;
    }

    for (int k = 0; k < n; k++)   // expect: Map in covariance_rows
        for (int j = 0; j < m; j++)
            data[k][j] -= mean[j];

    for (int i = 0; i < m; i++) {              // expect: SYRK in covariance_rows
        for (int j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += data[k][i] * data[k][j];
            cov[i][j] = s / denom;
            cov[j][i] = cov[i][j];
        }
    }
}

/* rows x cols floats as a table of row pointers into one block, rows cols + 3 apart */
float **alloc_rows(int rows, int cols)
{
    int ld = cols + 3;
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

    float **data = alloc_rows(n, m), **cov = alloc_rows(m, m);
    float *mean = malloc((size_t)m * sizeof *mean);
    if (!mean) return 1;

    /* a strong factor shared by the variables of an observation (the covariances are then
       well away from zero) plus a small LCG noise and an offset per variable */
    unsigned int seed = 2024u;
    for (int k = 0; k < n; k++) {
        float shared = (float)((k * 41) % 89) / 89.0f;
        for (int j = 0; j < m; j++) {
            seed = seed * 1664525u + 1013904223u;
            float noise = (float)((seed >> 20) & 255u) / 256.0f;
            data[k][j] = shared + 0.3f * noise + 0.125f * (float)(j % 5);
        }
    }

    covariance_rows(n, m, (float)(n - 1), data, mean, cov);

    /* the lower triangle (weighted too), the strictly upper one (the mirror), the trace */
    double lower = 0.0, wlower = 0.0, upper = 0.0, wupper = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {          // expect: Reduction in main
            double in_lower = (double)(j <= i);
            lower += in_lower * cov[i][j];
            wlower += in_lower * cov[i][j] * (double)(1 + (i + 2 * j) % 7);
            upper += (1.0 - in_lower) * cov[i][j];
            wupper += (1.0 - in_lower) * cov[i][j] * (double)(1 + (j + 2 * i) % 7);
        }
    }
    double trace = 0.0;
    for (int i = 0; i < m; i++)                // expect: Reduction in main
        trace += cov[i][i];
    double msum = 0.0;
    for (int j = 0; j < m; j++)                // expect: Reduction in main
        msum += mean[j] * (double)(1 + j % 3);

    printf("n m = %d %d\n", n, m);
    printf("weighted means = %.10g\n", msum);
    printf("lower = %.10g\n", lower);
    printf("weighted lower = %.10g\n", wlower);
    printf("strictly upper = %.10g\n", upper);
    printf("weighted strictly upper = %.10g\n", wupper);
    printf("trace = %.10g\n", trace);
    printf("cov[m-1][0] = %.6e  cov[0][m-1] = %.6e  cov[m/2][m/3] = %.6e\n",
           (double)cov[m - 1][0], (double)cov[0][m - 1], (double)cov[m / 2][m / 3]);
    free_rows(data); free_rows(cov); free(mean);
    return 0;
}
