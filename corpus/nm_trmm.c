// corpus: near-miss TRMM, triangular products that are not the in-place B = alpha*T*B: the product written into another matrix, a scale read through a pointer that the nest itself changes
// args: test=33 27 bench=1450 1300
// near-miss: C = U*B into a matrix other than B is no in-place TRMM (its (j, k) nest is a GEMV); nor is a product whose alpha, read through a pointer, the row loop scales (a different alpha on each row)
#include <stdio.h>
#include <stdlib.h>

/* C <- U * B, U the upper triangle of A (diagonal included), into C, not B: a triangular
   GEMM-like product, not done in place. */
void tri_product_out(int m, int n, double A[m][m], double B[m][n], double C[m][n])
{
    // not in place: C is written, B only read; for one i the (j, k) nest is
    // y = B(i..m-1, :)^T u, a GEMV
    for (int i = 0; i < m; i++) {              // expect-none: TRMM
        for (int j = 0; j < n; j++) {          // expect: GEMV in tri_product_out
            double s = 0.0;
            for (int k = i; k < m; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
    }
}

/* B <- D U B in place with D diagonal, its entries a decaying scale: *scale, read for
   each element, is multiplied by decay after each row, so every row has its own alpha */
void tri_product_decaying(int m, int n, double A[m][m], double B[m][n], double *scale,
                          double decay)
{
    // *scale is written by the row loop: no one alpha for the product
    for (int i = 0; i < m; i++) {              // expect-none: TRMM
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = i; k < m; k++)        // expect: Reduction in tri_product_decaying
                s += A[i][k] * B[k][j];
            B[i][j] = *scale * s;
        }
        *scale *= decay;
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 400;
    int n = argc > 2 ? atoi(argv[2]) : 300;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    double (*A)[m] = malloc(sizeof(double) * (size_t)m * (size_t)m);
    double (*B)[n] = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double (*C)[n] = malloc(sizeof(double) * (size_t)m * (size_t)n);
    if (!A || !B || !C) return 1;

    /* the upper triangle small and positive (at most 1/m off the diagonal), the strictly
       lower triangle a value the products must not read */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i][k] = k > i ? (double)((i * 3 + k * 11) % 19 + 1) / (19.0 * m)
                    : k == i ? 1.25 : -8.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 0.4 + (double)((i * 7 + j * 5) % 15) * 0.05;

    tri_product_out(m, n, A, B, C);

    const double *c = &C[0][0];
    double sum_c = 0.0, wsum_c = 0.0;
    for (int t = 0; t < m * n; t++) {          // expect: Reduction in main
        sum_c += c[t];
        wsum_c += c[t] * (double)(1 + t % 6);
    }
    printf("m n = %d %d\n", m, n);
    printf("C sum = %.10g  weighted = %.10g\n", sum_c, wsum_c);
    printf("C[0][0] = %.10g  C[m-1][n-1] = %.10g\n", C[0][0], C[m - 1][n - 1]);

    double scale = 0.8;
    tri_product_decaying(m, n, A, B, &scale, 0.999);
    const double *b = &B[0][0];
    double sum_b = 0.0;
    for (int t = 0; t < m * n; t++)            // expect: Reduction in main
        sum_b += b[t] * (double)(1 + t % 4);
    printf("decayed B sum = %.10g  scale = %.10g\n", sum_b, scale);
    free(A); free(B); free(C);
    return 0;
}
