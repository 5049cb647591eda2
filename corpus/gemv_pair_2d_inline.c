// corpus: GEMV, a transposed update and a row dot product over one sweep of A (s += alpha A^T r beside q = A p, as a BiCG step makes them), fixed-size global 2D arrays, q[i] cleared then summed in place, static kernel inlined into main, r and p drifting between repetitions
// args: test=50 37 2 bench=2000 1800 600
#include <stdio.h>
#include <stdlib.h>

#define N 2000
#define M 1800

static double A[N][M], s[M], q[N], p[M], r[N];

/* s = s + alpha A^T r and q = A p over the leading n x m block of A, in one pass. */
static void kernel_bicg(int n, int m, double alpha, double a[N][M], double sv[M], double qv[N],
                        double pv[M], double rv[N])
{
    for (int i = 0; i < n; i++) {              // expect: GEMV in kernel_bicg
        qv[i] = 0.0;
        for (int j = 0; j < m; j++) {
            sv[j] = sv[j] + alpha * rv[i] * a[i][j];
            qv[i] = qv[i] + a[i][j] * pv[j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int m = argc > 2 ? atoi(argv[2]) : 300;
    int reps = argc > 3 ? atoi(argv[3]) : 4;
    if (n < 2) n = 2;
    if (n > N) n = N;
    if (m < 2) m = 2;
    if (m > M) m = M;
    if (reps < 1) reps = 1;

    /* the whole arrays are filled; the kernel reads only the leading n x m block */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            A[i][j] = (double)((i * 5 + j * 11) % 29) / 29.0 - 0.35;
    for (int j = 0; j < M; j++) {
        p[j] = (double)(j % 8 + 1) / 8.0;
        s[j] = (double)(j % 3);
    }
    for (int i = 0; i < N; i++)
        r[i] = 0.25 + (double)((i * 7) % 13) / 13.0;

    /* s gathers alpha A^T r at every repetition; q is recomputed each time; r and p
       drift a little between the sweeps. */
    for (int rep = 0; rep < reps; rep++) {
        kernel_bicg(n, m, 0.5, A, s, q, p, r);
        for (int j = 0; j < m; j++)   // expect: Map in main
            p[j] = p[j] * 0.999 + 0.001;
        for (int i = 0; i < n; i++)   // expect: Map in main
            r[i] = r[i] * 0.998 + 0.0015;
    }

    double ss = 0.0, ws = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        ss += s[j];
        ws += s[j] * (double)(j % 5 + 1);
    }
    double sq = 0.0, aq = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sq += q[i] * q[i];
        aq += q[i] < 0.0 ? -q[i] : q[i];
    }
    printf("n m = %d %d reps = %d\n", n, m, reps);
    printf("s sum = %.10g weighted = %.10g\n", ss, ws);
    printf("q squares = %.10g abs = %.10g\n", sq, aq);
    printf("s[0] = %.10g s[m-1] = %.10g q[0] = %.10g q[n-1] = %.10g\n",
           s[0], s[m - 1], q[0], q[n - 1]);
    return 0;
}
