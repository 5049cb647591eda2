// corpus: SYRK, A*A^T computed over the lower triangle and mirrored into the upper one in the same nest (a full symmetric result), flat arrays
// args: test=40 30 bench=2000 1800
#include <stdio.h>
#include <stdlib.h>

/* C = alpha * A * A^T + beta * C on the lower triangle, then copied to the upper one. */
void syrk_mirror(int n, int m, double alpha, const double *A, double beta, double *C)
{
    /* the mapper mirrors each element of the triangle after the BLAS call */
    for (int i = 0; i < n; i++) {              // expect: SYRK in syrk_mirror
        for (int j = 0; j <= i; j++) {
            double s = 0.0;
            for (int k = 0; k < m; k++)
                s += A[i * m + k] * A[j * m + k];
            C[i * n + j] = alpha * s + beta * C[i * n + j];
            C[j * n + i] = C[i * n + j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    int m = argc > 2 ? atoi(argv[2]) : 150;
    if (n < 4) n = 4;
    if (m < 1) m = 1;
    size_t nn = (size_t)n * (size_t)n, nm = (size_t)n * (size_t)m;

    double *A = malloc(nm * sizeof *A), *C = malloc(nn * sizeof *C);
    if (!A || !C) return 1;
    for (size_t t = 0; t < nm; t++)
        A[t] = (double)((t * 11) % 17) * 0.05 - 0.25;
    for (size_t t = 0; t < nn; t++)
        C[t] = (double)((t * 4) % 13) * 0.1 + 0.2;

    syrk_mirror(n, m, 0.5, A, 2.0, C);

    /* both triangles separately: the upper one now mirrors the lower one */
    double lower = 0.0, upper = 0.0, wsum = 0.0;
    for (size_t t = 0; t < nn; t++) {          // expect: Reduction in main
        double in_lower = (double)(t % (size_t)n <= t / (size_t)n);
        lower += in_lower * C[t];
        upper += (1.0 - in_lower) * C[t];
        wsum += C[t] * (double)(1 + t % 5);
    }
    printf("n m = %d %d\n", n, m);
    printf("lower = %.10g  strictly upper = %.10g\n", lower, upper);
    printf("weighted = %.10g\n", wsum);
    printf("C[0][n-1] = %.10g  C[n-1][0] = %.10g\n", C[n - 1], C[(size_t)(n - 1) * n]);
    free(A); free(C);
    return 0;
}
