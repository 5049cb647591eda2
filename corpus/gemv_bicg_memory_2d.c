// corpus: GEMV, a transposed update and a row dot product over one sweep of A (s += A^T r beside q = A p, the BiCG kernel), fixed-size 2D array parameters double A[N][M] with #define'd sizes over a rectangular n x m block, q[i] cleared then summed in place textbook-style (the parameters may alias, so q[i] is loaded and stored on every trip), inside a damped simultaneous Sinkhorn balancing of a positive kernel matrix
// args: test=37 29 3 bench=2400 2000 500
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 2400
#define M 2000

/* s = s + A^T r and q = A p over the leading n x m block of A, in one pass. */
void kernel_bicg(int n, int m, double A[N][M], double s[M], double q[N], double p[M], double r[N])
{
    int i, j;
    for (i = 0; i < n; i++) {                  // expect: GEMV in kernel_bicg
        q[i] = 0.0;
        for (j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int m = argc > 2 ? atoi(argv[2]) : 300;
    int iters = argc > 3 ? atoi(argv[3]) : 10;
    if (n < 2) n = 2;
    if (n > N) n = N;
    if (m < 2) m = 2;
    if (m > M) m = M;
    if (iters < 1) iters = 1;

    double (*K)[M] = malloc((size_t)N * sizeof *K);
    double *u = malloc(N * sizeof *u);       /* row scaling */
    double *v = malloc(M * sizeof *v);       /* column scaling */
    double *Kv = malloc(N * sizeof *Kv);     /* row sums of diag(u) K diag(v), before u */
    double *Ku = malloc(M * sizeof *Ku);     /* column sums, before v */
    if (!K || !u || !v || !Kv || !Ku) return 1;

    /* a positive kernel exp(-cost) of a smooth cost between n sources and m targets,
       with a small integer ripple; the whole array is filled, the leading block used */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            double d = (double)i / N - (double)j / M;
            K[i][j] = exp(-2.0 * d * d) * (1.0 + 0.05 * (double)((3 * i + 7 * j) % 11) / 11.0);
        }
    for (int i = 0; i < n; i++)
        u[i] = 1.0;
    for (int j = 0; j < m; j++)
        v[j] = 1.0;

    /* Sinkhorn with both scalings updated from the same sweep (Ku = K^T u and Kv = K v
       together), each damped by a geometric mean with its old value: the row sums of
       diag(u) K diag(v) tend to 1/n and the column sums to 1/m. */
    for (int it = 0; it < iters; it++) {
        for (int j = 0; j < m; j++)
            Ku[j] = 0.0;
        kernel_bicg(n, m, K, Ku, Kv, v, u);
        for (int i = 0; i < n; i++)   // expect: Map in main
            u[i] = sqrt(u[i] * (1.0 / n) / Kv[i]);
        for (int j = 0; j < m; j++)   // expect: Map in main
            v[j] = sqrt(v[j] * (1.0 / m) / Ku[j]);
    }

    /* the mass of the balanced plan by rows (u times the last row sums) and by columns */
    double row_mass = 0.0, col_mass = 0.0;
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        row_mass += u[i] * Kv[i];
    for (int j = 0; j < m; j++)                // expect: Reduction in main
        col_mass += v[j] * Ku[j];
    double su = 0.0, wu = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        su += u[i];
        wu += u[i] * (double)(i % 5 + 1);
    }
    double sv = 0.0, wv = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        sv += v[j];
        wv += v[j] * (double)(j % 4 + 1);
    }
    printf("n m = %d %d iters = %d\n", n, m, iters);
    printf("row mass = %.10g column mass = %.10g\n", row_mass, col_mass);
    printf("u sum = %.10g weighted = %.10g\n", su, wu);
    printf("v sum = %.10g weighted = %.10g\n", sv, wv);
    printf("u[0] = %.10g u[n-1] = %.10g v[0] = %.10g v[m-1] = %.10g\n",
           u[0], u[n - 1], v[0], v[m - 1]);
    printf("Kv[n/2] = %.10g Ku[m/2] = %.10g\n", Kv[n / 2], Ku[m / 2]);
    free(K); free(u); free(v); free(Kv); free(Ku);
    return 0;
}
