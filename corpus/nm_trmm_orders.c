// corpus: near-miss TRMM, loop nests written like the i-k-j and the columns-outermost in-place triangular products that do not compute B = alpha*T*B
// args: test=31 23 bench=900 800
// near-miss: the rows counting towards the rows already updated (i-k-j over the rows above with the rows counting up, the columns outermost over the rows below with the rows counting down: each row reads rows the nest has changed, a recurrence) are not found (blas.idl's RowBoundedLoop ties the rows' direction to the triangle's side; the columns-outer sum is a Reduction); alpha on the products of an i-k-j sum (B + alpha*N*B, the unit diagonal unscaled) is not found
#include <stdio.h>
#include <stdlib.h>

/* i-k-j over the rows above, the rows counting up: row i adds rows 0 .. i-1, which this
   nest has already updated, so B becomes (I - N)^-1-like, not (I + N) B */
void ikj_rows_above_counting_up(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {              // expect-none: TRMM
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
    }
}

/* the columns outermost, the sum over the rows below while the rows count down: each
   row reads rows of its column already updated */
void cols_rows_below_counting_down(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++) {              // expect-none: TRMM
        for (int i = m - 1; i >= 0; i--) {
            double s = 0.0;
            for (int k = i; k < m; k++)          // expect: Reduction in cols_rows_below_counting_down
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = alpha * s;
        }
    }
}

/* i-k-j with alpha on the products only: B + alpha * N * B, B's own row not scaled */
void ikj_alpha_on_products(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {              // expect-none: TRMM
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

    /* small positive entries everywhere (at most 1/(2m)), so that every nest stays
       bounded whichever rows it reads */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i * m + k] = (double)((i * 5 + k * 3) % 17 + 1) / (34.0 * m);

    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                B[i * n + j] = 0.5 + (double)((i * 3 + j * 7 + pass) % 11) * 0.0625;
        if (pass == 0)
            ikj_rows_above_counting_up(m, n, A, B);
        else if (pass == 1)
            cols_rows_below_counting_down(m, n, 0.75, A, B);
        else
            ikj_alpha_on_products(m, n, 0.5, A, B);
        double total = 0.0, weighted = 0.0;
        for (long t = 0; t < (long)m * n; t++) {  // expect: Reduction in main
            total += B[t];
            weighted += B[t] * (double)(1 + t % 7);
        }
        printf("pass %d: sum = %.10g  weighted = %.10g  B[m-1][n-1] = %.10g\n", pass, total,
               weighted, B[(long)m * n - 1]);
    }
    free(A); free(B);
    return 0;
}
