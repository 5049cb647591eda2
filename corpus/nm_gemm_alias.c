// corpus: near-miss GEMM, A = A*B computed in place row by row (the output is the left operand); plus a plain GEMM also called with C == A
// args: test=40 bench=900
// near-miss: the stored matrix is also read (a[i][k] for k < j was already overwritten earlier in the row), so the nest is not C = A*B
#include <stdio.h>
#include <stdlib.h>

/* a = a * b in place, without a temporary row: later columns read already-updated entries. */
void mul_inplace(int n, double *a, const double *b)
{
    for (int i = 0; i < n; i++) {             // expect-none: GEMM
        for (int j = 0; j < n; j++) {         // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < n; k++)       // expect: Reduction in mul_inplace
                s += a[i * n + k] * b[k * n + j];
            a[i * n + j] = s;
        }
    }
}

/* c = a * b; a true GEMM, but main also calls it with c == a, where only the original loop is correct. */
void gemm_plain(int n, const double *a, const double *b, double *c)
{
    for (int i = 0; i < n; i++) {             // expect: GEMM in gemm_plain
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 2) n = 2;
    size_t nn = (size_t)n * (size_t)n;
    double *a = malloc(nn * sizeof *a), *a2 = malloc(nn * sizeof *a2);
    double *b = malloc(nn * sizeof *b), *c = malloc(nn * sizeof *c);
    if (!a || !a2 || !b || !c) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = (double)((i * 5 + j * 3) % 11) / 11.0 - 0.5;
            a[i * n + j] = v;
            a2[i * n + j] = v;
            b[i * n + j] = (i == j ? 0.5 : 0.0) + (double)((i + 4 * j) % 7) / 70.0;
        }

    mul_inplace(n, a, b);
    gemm_plain(n, a2, b, c);        /* distinct output */
    gemm_plain(n, a2, b, a2);       /* output aliases the left operand */

    double s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (size_t t = 0; t < nn; t++) {          // expect: Reduction in main
        s1 += a[t];
        s2 += c[t];
        s3 += a2[t];
    }
    printf("n = %d\n", n);
    printf("in-place = %.10g\n", s1);
    printf("separate = %.10g\n", s2);
    printf("aliased call = %.10g\n", s3);
    free(a); free(a2); free(b); free(c);
    return 0;
}
