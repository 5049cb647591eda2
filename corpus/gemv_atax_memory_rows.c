// corpus: GEMV, a row dot product and then a transposed update by it over each row of A (tmp = A x, then y = A^T tmp: the atax kernel, y cleared first as PolyBench writes it), double** row pointers, rows and vectors carved from one work array (so tmp[i] stays in memory, read back by every trip of the update), static kernel inlined into main, inside a Landweber iteration for a least-squares problem with a known solution
// args: test=45 38 4 bench=2400 2000 320
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

/* y = A^T (A x) for the n x m matrix given by its rows A[0 .. n-1], one row at a time. */
static void kernel_atax(int n, int m, double **A, double *x, double *y, double *tmp)
{
    for (int j = 0; j < m; j++)
        y[j] = 0.0;
    for (int i = 0; i < n; i++) {              // expect: GEMV in kernel_atax
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
        for (int j = 0; j < m; j++)   // expect: Map in main
            x[j] = x[j] + w * (rhs[j] - y[j]);
    }

    double err = 0.0, ny = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        err += (x[j] - xs[j]) * (x[j] - xs[j]);
        ny += y[j] * y[j];
    }
    double sx = 0.0, wx = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        sx += x[j];
        wx += x[j] * (double)(j % 6 + 1);
    }
    double st = 0.0;
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        st += tmp[i] * (double)(i % 3 + 1);
    printf("n m = %d %d iters = %d\n", n, m, iters);
    printf("error = %.10g |A^T A x| = %.10g\n", sqrt(err / m), sqrt(ny / m));
    printf("x sum = %.10g weighted = %.10g\n", sx, wx);
    printf("tmp weighted = %.10g\n", st);
    printf("x[0] = %.10g x[m/2] = %.10g x[m-1] = %.10g\n", x[0], x[m / 2], x[m - 1]);
    free(A); free(work);
    return 0;
}
