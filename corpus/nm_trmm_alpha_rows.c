// corpus: near-miss TRMM, i-k-j loop nests that scale B's rows by alpha in a loop of their own and do not compute B = alpha*T*B as BLAS does
// args: test=33 27 bench=800 700
// near-miss: a row scaled by alpha before its updates (alpha B + N B) is found as TRMM and declined before run time; a scaling loop that stops a column short is replaced and its guard declines (not the row the sum wrote); alpha on the row before and on every product (alpha B + sum of (alpha A) B: alpha times the unit product in exact arithmetic, but each product rounded twice, alpha * A first, where BLAS rounds alpha's product once per element) is not found
#include <stdio.h>
#include <stdlib.h>

/* the row scaled before the rows below are added: alpha * B[i] + N B */
void ikj_alpha_before_updates(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {              // expect: TRMM in ikj_alpha_before_updates
        for (int j = 0; j < n; j++)
            B[i * n + j] *= alpha;
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
    }
}

/* the scaling loop misses each row's last column */
void ikj_alpha_column_short(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {              // expect: TRMM in ikj_alpha_column_short
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
        for (int j = 0; j < n - 1; j++)
            B[i * n + j] *= alpha;
    }
}

/* alpha on the row and on every product: alpha * B[i] + sum of (alpha * A[i][k]) * B[k] */
void ikj_alpha_on_row_and_products(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {              // expect-none: TRMM
        for (int j = 0; j < n; j++)            // expect: Map in ikj_alpha_on_row_and_products
            B[i * n + j] *= alpha;
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += alpha * A[i * m + k] * B[k * n + j];
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    double *A = malloc(sizeof(double) * (size_t)m * (size_t)m);
    double *B = malloc(sizeof(double) * (size_t)m * (size_t)n);
    if (!A || !B) return 1;

    /* small entries of either sign (at most 1/(2m)) so that every nest stays bounded */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i * m + k] = ((double)((i * 7 + k * 3) % 19) - 8.0) / (38.0 * m);

    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                B[i * n + j] = 0.5 + (double)((i * 3 + j * 11 + pass) % 13) * 0.0625;
        if (pass == 0)
            ikj_alpha_before_updates(m, n, 0.75, A, B);
        else if (pass == 1)
            ikj_alpha_column_short(m, n, 0.75, A, B);
        else
            ikj_alpha_on_row_and_products(m, n, 0.75, A, B);
        double total = 0.0, weighted = 0.0;
        for (long t = 0; t < (long)m * n; t++) {  // expect: Reduction in main
            total += B[t];
            weighted += B[t] * (double)(1 + t % 6);
        }
        printf("pass %d: sum = %.10g  weighted = %.10g  B[m-1][n-1] = %.10g\n", pass, total,
               weighted, B[(long)m * n - 1]);
    }
    free(A); free(B);
    return 0;
}
