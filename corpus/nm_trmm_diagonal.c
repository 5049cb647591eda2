// corpus: near-miss TRMM, loop nests written like the columns-outermost unit triangular product and the i-k-j one with the diagonal in a loop of its own that do not compute B = alpha*T*B
// args: test=29 21 bench=700 600
// near-miss: the columns outermost with a unit diagonal over the rows below while the rows count down (each row reads rows of its column already updated: a recurrence) is not found (blas.idl's RowBoundedLoop ties the rows' direction to the triangle's side: its sum is a Reduction); with alpha on the products alone ((I + alpha N) B, B's own element unscaled) it is found as TRMM and declined before run time; i-k-j with each row multiplied by A's first column instead of its diagonal is replaced and its guard declines (not T's (i, i)); i-k-j with the row multiplied by the diagonal after the updates (D (I + N) B, the diagonal scaling the added rows too) is not found
#include <stdio.h>
#include <stdlib.h>

/* the columns outermost, the rows counting down over the rows below: row i of a column
   reads rows below it that this column has already updated */
void cols_unit_rows_below_counting_down(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++) {              // expect-none: TRMM
        for (int i = m - 1; i >= 0; i--) {
            double s = B[i * n + j];
            for (int k = i + 1; k < m; k++)      // expect: Reduction in cols_unit_rows_below_counting_down
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = alpha * s;
        }
    }
}

/* the columns outermost, alpha on the products only: B + alpha * N * B */
void cols_unit_alpha_on_products(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++) {              // expect: TRMM in cols_unit_alpha_on_products
        for (int i = 0; i < m; i++) {
            double s = B[i * n + j];
            for (int k = i + 1; k < m; k++)
                s += alpha * A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
    }
}

/* i-k-j, each row multiplied by A's first column before the updates, not by T's
   diagonal: A[i][0] B[i] + the rows below */
void ikj_first_column_first(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {              // expect: TRMM in ikj_first_column_first
        for (int j = 0; j < n; j++)
            B[i * n + j] *= A[i * m];
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
    }
}

/* i-k-j, the diagonal applied after the updates: row i becomes A[i][i] * (B[i] + the
   rows below), not A[i][i] * B[i] + the rows below */
void ikj_diagonal_after_updates(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {              // expect-none: TRMM
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
        for (int j = 0; j < n; j++)            // expect: Map in ikj_diagonal_after_updates
            B[i * n + j] *= A[i * m + i];
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

    /* small positive entries off the diagonal (at most 1/(2m)), the diagonal near one, so
       that every nest stays bounded whichever rows it reads */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i * m + k] = k == i ? 0.875 + (double)(i % 3) * 0.0625
                                  : (double)((i * 3 + k * 5) % 13 + 1) / (26.0 * m);

    for (int pass = 0; pass < 4; pass++) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                B[i * n + j] = 0.75 + (double)((i * 5 + j * 3 + pass) % 9) * 0.0625;
        if (pass == 0)
            cols_unit_rows_below_counting_down(m, n, 0.5, A, B);
        else if (pass == 1)
            cols_unit_alpha_on_products(m, n, 0.25, A, B);
        else if (pass == 2)
            ikj_first_column_first(m, n, A, B);
        else
            ikj_diagonal_after_updates(m, n, A, B);
        double total = 0.0, weighted = 0.0;
        for (long t = 0; t < (long)m * n; t++) {  // expect: Reduction in main
            total += B[t];
            weighted += B[t] * (double)(1 + t % 5);
        }
        printf("pass %d: sum = %.10g  weighted = %.10g  B[0][0] = %.10g\n", pass, total,
               weighted, B[0]);
    }
    free(A); free(B);
    return 0;
}
