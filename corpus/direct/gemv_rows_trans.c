// direct: gemv_rows_trans.c: gemv_rows_t's loop nest as a cblas_dgemv call
// args: test=64 2 bench=2500 200
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* Leading dimension of a matrix given as row pointers: the distance ld, in elements, from
   one row to the next when every row r[i] lies at r[0] + i*ld with ld >= cols (the rows
   then form one strided matrix that BLAS can take); 0 when they do not. */
static int row_stride(double **r, int rows, int cols)
{
    if (rows < 1 || cols < 1)
        return 0;
    if (rows == 1)
        return cols;
    long ld = r[1] - r[0];
    if (ld < cols || ld > 2147483647L)
        return 0;
    for (int i = 2; i < rows; i++)
        if (r[i] - r[0] != (long)i * ld)
            return 0;
    return (int)ld;
}

/* y[0:n] = alpha * A^T x, A given as m row pointers of length n. */
void gemv_rows_t(int m, int n, double alpha, double **A, const double *x, double *y)
{
    int lda = row_stride(A, m, n);
    if (lda > 0) {
        cblas_dgemv(CblasRowMajor, CblasTrans, m, n, alpha, A[0], lda, x, 1, 0.0, y, 1);
        return;
    }
    for (int j = 0; j < n; j++)
        y[j] = 0.0;
    for (int i = 0; i < m; i++) {
        double ax = alpha * x[i];
        for (int j = 0; j < n; j++)
            y[j] += A[i][j] * ax;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    int m = n;

    double **A = malloc((size_t)m * sizeof *A);
    double *x = malloc((size_t)m * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    if (!A || !x || !y) return 1;
    for (int i = 0; i < m; i++) {
        A[i] = malloc((size_t)n * sizeof **A);
        if (!A[i]) return 1;
        x[i] = (double)(i % 11) / 11.0 - 0.3;
        for (int j = 0; j < n; j++)
            A[i][j] = (double)((i * 6 + j * 13) % 27) / 27.0 - 0.5;
    }

    for (int r = 0; r < reps; r++)
        gemv_rows_t(m, n, 2.0, A, x, y);

    double sum = 0.0, wsum = 0.0;
    for (int j = 0; j < n; j++) {
        sum += y[j];
        wsum += y[j] * x[j];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("y[n-1] = %.10g\n", y[n - 1]);
    for (int i = 0; i < m; i++) free(A[i]);
    free(A); free(x); free(y);
    return 0;
}
