// direct: gemv_atax_memory_rows.c: kernel_atax's row loop as two cblas_dgemv calls (tmp = A x: NoTrans, beta 0; y += A^T tmp: Trans, beta 1) when the row pointers are equally spaced
// args: test=45 38 4 bench=2400 2000 320
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
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

/* y = A^T (A x) for the n x m matrix given by its rows A[0 .. n-1], one row at a time. */
static void kernel_atax(int n, int m, double **A, double *x, double *y, double *tmp)
{
    for (int j = 0; j < m; j++)
        y[j] = 0.0;
    if (n > 0 && m > 0) {
        int lda = row_stride(A, n, m);
        if (lda > 0) {
            cblas_dgemv(CblasRowMajor, CblasNoTrans, n, m, 1.0, A[0], lda, x, 1, 0.0, tmp, 1);
            cblas_dgemv(CblasRowMajor, CblasTrans, n, m, 1.0, A[0], lda, tmp, 1, 1.0, y, 1);
            return;
        }
    }
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < m; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (int j = 0; j < m; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int m = argc > 2 ? atoi(argv[2]) : 250;
    int iters = argc > 3 ? atoi(argv[3]) : 10;
    if (n < 2) n = 2;
    if (m < 2) m = 2;
    if (iters < 1) iters = 1;
    int ld = m + 2;

    /* one work array, in the old style: the rows of A ld apart, then x, the known
       solution, the right-hand side A^T b, y and tmp */
    size_t words = (size_t)n * ld + 4 * (size_t)m + (size_t)n;
    double *work = malloc(words * sizeof *work);
    double **A = malloc((size_t)n * sizeof *A);
    if (!work || !A) return 1;
    for (int i = 0; i < n; i++)
        A[i] = work + (size_t)i * ld;
    double *x = work + (size_t)n * ld;
    double *xs = x + m;
    double *rhs = xs + m;
    double *y = rhs + m;
    double *tmp = y + m;

    /* positive entries scaled by 1/sqrt(n m): the largest eigenvalue of A^T A is about
       1.6, so the step 0.5 is stable */
    double scale = 1.0 / sqrt((double)n * (double)m);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            A[i][j] = scale * (0.6 + 0.1 * (double)((i * 3 + j * 5) % 9)
                               + 0.05 * (double)((i * j) % 4));
        A[i][m] = A[i][m + 1] = -1.0e30;   /* padding, never read */
    }
    for (int j = 0; j < m; j++) {
        xs[j] = 1.0 + 0.5 * sin(0.05 * (double)j);
        x[j] = 0.0;
    }

    /* the normal equations A^T A x = A^T b with b = A xs: rhs = A^T A xs */
    kernel_atax(n, m, A, xs, y, tmp);
    for (int j = 0; j < m; j++)
        rhs[j] = y[j];

    /* Landweber: x += w (A^T b - A^T A x) */
    const double w = 0.5;
    for (int it = 0; it < iters; it++) {
        kernel_atax(n, m, A, x, y, tmp);
        for (int j = 0; j < m; j++)
            x[j] = x[j] + w * (rhs[j] - y[j]);
    }

    double err = 0.0, ny = 0.0;
    for (int j = 0; j < m; j++) {
        err += (x[j] - xs[j]) * (x[j] - xs[j]);
        ny += y[j] * y[j];
    }
    double sx = 0.0, wx = 0.0;
    for (int j = 0; j < m; j++) {
        sx += x[j];
        wx += x[j] * (double)(j % 6 + 1);
    }
    double st = 0.0;
    for (int i = 0; i < n; i++)
        st += tmp[i] * (double)(i % 3 + 1);
    printf("n m = %d %d iters = %d\n", n, m, iters);
    printf("error = %.10g |A^T A x| = %.10g\n", sqrt(err / m), sqrt(ny / m));
    printf("x sum = %.10g weighted = %.10g\n", sx, wx);
    printf("tmp weighted = %.10g\n", st);
    printf("x[0] = %.10g x[m/2] = %.10g x[m-1] = %.10g\n", x[0], x[m / 2], x[m - 1]);
    free(A); free(work);
    return 0;
}
