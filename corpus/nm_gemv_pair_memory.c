// corpus: near-miss GEMV, BiCG and atax sweeps with their row products kept in memory (2D array and plain pointer parameters that may alias) where one product reads what the other is writing
// args: test=38 31 2 bench=1600 1400 360
// near-miss: bicg_reads_update's dot product q[i] reads s[j] just after the update of the same sweep wrote it, so q is not A p for any vector p fixed for the sweep; atax_reads_update's row dot product reads y, which the rows before it have updated (a row-action sweep, as Kaczmarz's method makes, not y += A^T A y); atax_running_update writes y[j] from y[j - 1], written a trip before (a running sum along the row), not y += A^T tmp
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 1600
#define M 1400

/* s += A^T r and, in the same sweep, q = A s summed in q[i]: the dot product reads the
   vector the update is writing. */
void bicg_reads_update(int n, int m, double A[N][M], double s[M], double q[N], double r[N])
{
    int i, j;
    for (i = 0; i < n; i++) {                  // expect-none: GEMV
        q[i] = 0.0;
        for (j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * s[j];
        }
    }
}

/* tmp[i] = A(i, :) y, then y += tmp[i] A(i, :): each row's dot product sees the updates of
   the rows before it. */
void atax_reads_update(int n, int m, int lda, const double *A, double *tmp, double *y)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        tmp[i] = 0.0;
        for (int j = 0; j < m; j++)            // expect: Reduction in atax_reads_update
            tmp[i] = tmp[i] + A[i * lda + j] * y[j];
        for (int j = 0; j < m; j++)   // expect: Map in atax_reads_update
            y[j] = y[j] + A[i * lda + j] * tmp[i];
    }
}

/* tmp[i] = A(i, :) x as atax makes it, but the update adds into y[j] the y[j - 1] it
   has just written: a running sum along each row. */
void atax_running_update(int n, int m, int lda, const double *A, const double *x, double *tmp,
                         double *y)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        tmp[i] = 0.0;
        for (int j = 0; j < m; j++)            // expect: Reduction in atax_running_update
            tmp[i] = tmp[i] + A[i * lda + j] * x[j];
        for (int j = 1; j < m; j++)            // expect: Scan in atax_running_update
            y[j] = y[j - 1] + A[i * lda + j] * tmp[i];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int m = argc > 2 ? atoi(argv[2]) : 250;
    int reps = argc > 3 ? atoi(argv[3]) : 2;
    if (n < 2) n = 2;
    if (n > N) n = N;
    if (m < 2) m = 2;
    if (m > M) m = M;
    if (reps < 1) reps = 1;

    double (*A)[M] = malloc((size_t)N * sizeof *A);
    double *r = malloc(N * sizeof *r);
    double *q = malloc(N * sizeof *q);
    double *tmp = malloc(N * sizeof *tmp);
    double *s = malloc(M * sizeof *s);
    double *x = malloc(M * sizeof *x);
    double *y = malloc(M * sizeof *y);
    double *z = malloc(M * sizeof *z);
    if (!A || !r || !q || !tmp || !s || !x || !y || !z) return 1;

    /* positive entries of order 1/sqrt(n m): a row's squares sum to about 1/n, so a
       sweep of atax_reads_update grows y by a bounded factor */
    double scale = 1.0 / sqrt((double)n * (double)m);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            A[i][j] = scale * (0.5 + (double)((5 * i + 3 * j) % 13) / 13.0);
    for (int i = 0; i < N; i++)
        r[i] = (double)(i % 7 + 1) / 7.0;
    for (int j = 0; j < M; j++) {
        x[j] = 1.0 + 0.25 * (double)(j % 4);
        y[j] = 1.0 / sqrt((double)m);
        z[j] = 0.0;
    }

    double qsum = 0.0, grow = 0.0;
    for (int rep = 0; rep < reps; rep++) {
        for (int j = 0; j < m; j++)
            s[j] = 0.0;
        bicg_reads_update(n, m, A, s, q, r);
        for (int i = 0; i < n; i++)            // expect: Reduction in main
            qsum += q[i];

        /* a sweep, then y scaled back to unit length */
        atax_reads_update(n, m, M, &A[0][0], tmp, y);
        double yy = 0.0;
        for (int j = 0; j < m; j++)            // expect: Reduction in main
            yy += y[j] * y[j];
        grow = sqrt(yy);
        for (int j = 0; j < m; j++)   // expect: Map in main
            y[j] = y[j] / grow;

        z[0] = 1.0;
        atax_running_update(n, m, M, &A[0][0], x, tmp, z);
    }

    double ss = 0.0, sy = 0.0, sz = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        ss += s[j] * (double)(j % 3 + 1);
        sy += y[j] * (double)(j % 5 + 1);
        sz += z[j];
    }
    printf("n m = %d %d reps = %d\n", n, m, reps);
    printf("q sums = %.10g growth of y = %.10g\n", qsum, grow);
    printf("s weighted = %.10g y weighted = %.10g z sum = %.10g\n", ss, sy, sz);
    printf("s[m-1] = %.10g q[n-1] = %.10g y[0] = %.10g z[m-1] = %.10g tmp[n-1] = %.10g\n",
           s[m - 1], q[n - 1], y[0], z[m - 1], tmp[n - 1]);
    free(A); free(r); free(q); free(tmp); free(s); free(x); free(y); free(z);
    return 0;
}
