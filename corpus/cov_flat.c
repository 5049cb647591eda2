// corpus: SYRK, covariance matrix of an n x m data matrix on flat double arrays with computed indices: column means, centering, then the upper triangle of data^T * data summed in a local, divided by (n - 1) and mirrored into the lower triangle
// args: test=60 40 bench=1900 1300
#include <stdio.h>
#include <stdlib.h>

/* The m x m sample covariance of the n observations (rows) of m variables (columns) in
   data, row-major with m entries a row; data is centred in place. Each element of the
   upper triangle is a sum over the observations, finished by dividing it by n - 1 and
   stored again at its mirror, so that cov comes out whole. */
void covariance(int n, int m, double float_n, double *data, double *mean, double *cov)
{
    for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)            // expect: Reduction in covariance
            s += data[k * m + j];
        mean[j] = s / float_n;
    }

    for (int k = 0; k < n; k++)   // expect: Map in covariance
        for (int j = 0; j < m; j++)
            data[k * m + j] -= mean[j];

    for (int i = 0; i < m; i++) {              // expect: SYRK in covariance
        for (int j = i; j < m; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += data[k * m + i] * data[k * m + j];
            cov[i * m + j] = s / (float_n - 1.0);
            cov[j * m + i] = cov[i * m + j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int m = argc > 2 ? atoi(argv[2]) : 400;
    if (n < 4) n = 4;
    if (m < 2) m = 2;

    double *data = malloc((size_t)n * (size_t)m * sizeof *data);
    double *mean = malloc((size_t)m * sizeof *mean);
    double *cov = malloc((size_t)m * (size_t)m * sizeof *cov);
    if (!data || !mean || !cov) return 1;

    /* observations from a small LCG, plus a factor shared by all variables of one
       observation (so the covariances are positive) and an offset per variable that
       the centring removes */
    unsigned int seed = 12345u;
    for (int k = 0; k < n; k++) {
        double shared = (double)((k * 37) % 101) / 101.0;
        for (int j = 0; j < m; j++) {
            seed = seed * 1103515245u + 12345u;
            double noise = (double)((seed >> 16) & 1023u) / 1024.0;
            data[k * m + j] = 0.5 * noise + shared + 0.25 * (double)(j % 7);
        }
    }

    covariance(n, m, (double)n, data, mean, cov);

    /* the upper triangle (weighted too), the strictly lower one (the mirror) and the trace */
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0;
    for (long t = 0; t < (long)m * m; t++) {   // expect: Reduction in main
        long i = t / m, j = t % m;
        double in_upper = (double)(j >= i);
        upper += in_upper * cov[t];
        wupper += in_upper * cov[t] * (double)(1 + (i + 3 * j) % 7);
        lower += (1.0 - in_upper) * cov[t];
        wlower += (1.0 - in_upper) * cov[t] * (double)(1 + (j + 3 * i) % 7);
    }
    double trace = 0.0;
    for (int i = 0; i < m; i++)                // expect: Reduction in main
        trace += cov[i * m + i];
    double msum = 0.0;
    for (int j = 0; j < m; j++)                // expect: Reduction in main
        msum += mean[j] * (double)(1 + j % 3);

    printf("n m = %d %d\n", n, m);
    printf("weighted means = %.10g\n", msum);
    printf("upper = %.10g\n", upper);
    printf("weighted upper = %.10g\n", wupper);
    printf("strictly lower = %.10g\n", lower);
    printf("weighted strictly lower = %.10g\n", wlower);
    printf("trace = %.10g\n", trace);
    printf("cov[0][m-1] = %.10g  cov[m-1][0] = %.10g  cov[m/2][m/3] = %.10g\n",
           cov[m - 1], cov[(long)(m - 1) * m], cov[(long)(m / 2) * m + m / 3]);
    free(data); free(mean); free(cov);
    return 0;
}
