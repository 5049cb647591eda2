// corpus: near-miss GEMV, sweeps pairing a transposed update with a row dot product where one product reads what the other is writing
// args: test=40 31 2 bench=1600 1400 1100
// near-miss: running_update adds q[i] * A[i][j] into s[j] with q[i] the partial sum A[i][0..j] p[0..j], which grows along the row: the update's factor moves with both loops, so the sweep is neither s += A^T r for a vector r nor two independent products; reads_update's dot product reads s as the update writes it
#include <stdio.h>
#include <stdlib.h>

/* q = A p summed in place, and s[j] += (running q[i]) * A[i][j] within the same inner
   loop: each update reads the dot product as far as it has got. */
void running_update(int n, int m, const double *A, const double *p, double *s, double *q)
{
    // the update reads the dot product the same row is still summing
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        q[i] = 0.0;
        for (int j = 0; j < m; j++) {
            q[i] += A[i * m + j] * p[j];
            s[j] += q[i] * A[i * m + j];
        }
    }
}

/* s += A^T r and, in the same sweep, q = A s: the dot product reads the vector the update
   is writing (s[j] just updated), so the products are not independent. */
void reads_update(int n, int m, const double *A, const double *r, double *s, double *q)
{
    // the dot product reads s while the update writes it
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        double t = 0.0;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i * m + j];
            t += A[i * m + j] * s[j];
        }
        q[i] = t;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int m = argc > 2 ? atoi(argv[2]) : 250;
    int reps = argc > 3 ? atoi(argv[3]) : 2;
    if (n < 2) n = 2;
    if (m < 2) m = 2;
    if (reps < 1) reps = 1;

    double *A = malloc((size_t)n * m * sizeof *A);
    double *q = malloc((size_t)n * sizeof *q);
    double *p = malloc((size_t)m * sizeof *p);
    double *s = malloc((size_t)m * sizeof *s);
    double *r = malloc((size_t)n * sizeof *r);
    if (!A || !q || !p || !s || !r) return 1;
    for (int i = 0; i < n; i++)
        r[i] = (double)(i % 7 + 1) / (7.0 * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i * m + j] = (double)((3 * i + 5 * j) % 17) / 17.0 + 0.1;
    for (int j = 0; j < m; j++) {
        p[j] = (double)(j % 5 + 1) / (5.0 * m);
        s[j] = 0.0;
    }

    /* s gathers the running products again at each repetition; p drifts towards s/n */
    for (int rep = 0; rep < reps; rep++) {
        running_update(n, m, A, p, s, q);
        reads_update(n, m, A, r, s, q);
        for (int j = 0; j < m; j++)   // expect: Map in main
            p[j] = 0.5 * p[j] + 0.5 * s[j] / ((double)n * m * (rep + 1));
    }

    double ss = 0.0, sq = 0.0;
    for (int j = 0; j < m; j++)                // expect: Reduction in main
        ss += s[j] * (double)(j % 3 + 1);
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        sq += q[i] * (double)(i % 4 + 1);
    printf("n m = %d %d reps = %d\n", n, m, reps);
    printf("s weighted = %.10g q weighted = %.10g\n", ss, sq);
    printf("s[0] = %.10g s[m-1] = %.10g q[0] = %.10g q[n-1] = %.10g\n",
           s[0], s[m - 1], q[0], q[n - 1]);
    free(A); free(q); free(p); free(s); free(r);
    return 0;
}
