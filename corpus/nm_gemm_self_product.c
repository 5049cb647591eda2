// corpus: near-miss GEMM, C += C*B computed in place (the output matrix is also the left operand), i-j-k and i-k-j orders
// args: test=40 bench=1200
// near-miss: the matrix written is also read as an operand (C[i][k]), and entries of row i are read after the same nest has updated them, so neither nest is a product of two other matrices; in self_ijk the k loop even reads its own running sum when k == j
#include <stdio.h>
#include <stdlib.h>

/* C[i][j] += sum_k C[i][k] * B[k][j], element by element, in place (flat, row-major). */
void self_ijk(int n, double *C, const double *B)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMM
        for (int j = 0; j < n; j++) {          // expect-none: GEMV
            for (int k = 0; k < n; k++)        // expect-none: Reduction
                C[i * n + j] += C[i * n + k] * B[k * n + j];
        }
    }
}

/* The same update in rank-1 order on VLA rows: C[i][k] is read after the j loops of
   earlier k have already changed it. */
void self_ikj(int n, double C[n][n], const double B[n][n])
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMM
        for (int k = 0; k < n; k++) {          // expect-none: GEMV
            double c = C[i][k];
            for (int j = 0; j < n; j++)   // expect: Map in self_ikj
                C[i][j] += c * B[k][j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    size_t nn = (size_t)n * (size_t)n;

    double *B = malloc(nn * sizeof *B);
    double *C1 = malloc(nn * sizeof *C1), *C2 = malloc(nn * sizeof *C2);
    if (!B || !C1 || !C2) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            B[i * n + j] = (double)((i * 3 + j * 5) % 9 - 4) / (4.0 * n);
            C1[i * n + j] = C2[i * n + j] = (double)((i * 7 + j) % 10) * 0.1 - 0.3;
        }

    self_ijk(n, C1, B);
    self_ikj(n, (double (*)[n])C2, (const double (*)[n])B);

    double s1 = 0.0, s2 = 0.0, w1 = 0.0, w2 = 0.0;
    for (size_t t = 0; t < nn; t++) {          // expect: Reduction in main
        double w = (double)(t % 5) - 2.0;
        s1 += C1[t];
        s2 += C2[t];
        w1 += C1[t] * w;
        w2 += C2[t] * w;
    }
    printf("n = %d\n", n);
    printf("ijk sum = %.10g  weighted = %.10g\n", s1, w1);
    printf("ikj sum = %.10g  weighted = %.10g\n", s2, w2);
    printf("C1[n-1][n-1] = %.10g  C2[n-1][n-1] = %.10g\n", C1[nn - 1], C2[nn - 1]);
    free(B); free(C1); free(C2);
    return 0;
}
