// corpus: 1-based CSR whose rows are stored in a shuffled order, the first entry of each stored row on its diagonal; the product is written back to the row's own position y[ja[ia[i-1]-1]-1]
// near-miss: the row's sum goes to y at a position read from the matrix (the column of its first entry), not to y[i-1], so the nest is not SpMV_CSR
// args: test=500 6 bench=250000 350
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* amux_home: y[home(i)] = (row i of A) x, home(i) = the column of the row's first entry
   (its diagonal); ia, ja, a numbered from 1, rows stored in any order */
void amux_home(int n, const double *x, double *y, const double *a, const int *ja, const int *ia)
{
    int i, k;
    double t;
    for (i = 1; i <= n; i++) {   // expect-none: SpMV_CSR
        t = 0.0;
        for (k = ia[i - 1]; k < ia[i]; k++)   // expect: Reduction in amux_home
            t += a[k - 1] * x[ja[k - 1] - 1];
        y[ja[ia[i - 1] - 1] - 1] = t;
    }
}

/* amux: y = A x in storage order, y[i-1] for stored row i */
void amux(int n, const double *x, double *y, const double *a, const int *ja, const int *ia)
{
    int i, k;
    double t;
    for (i = 1; i <= n; i++) {   // expect: SpMV_CSR in amux
        t = 0.0;
        for (k = ia[i - 1]; k < ia[i]; k++)
            t += a[k - 1] * x[ja[k - 1] - 1];
        y[i - 1] = t;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int iters = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;

    int *perm = malloc((size_t)n * sizeof *perm);
    int *ia = malloc((size_t)(n + 1) * sizeof *ia), *ja = malloc((size_t)n * 8 * sizeof *ja);
    double *a = malloc((size_t)n * 8 * sizeof *a), *diag = malloc((size_t)n * sizeof *diag);
    double *b = malloc((size_t)n * sizeof *b), *x = calloc((size_t)n, sizeof *x);
    double *ax = malloc((size_t)n * sizeof *ax), *z = malloc((size_t)n * sizeof *z);
    if (!perm || !ia || !ja || !a || !diag || !b || !x || !ax || !z)
        return 1;

    /* stored row i holds original row perm[i-1] + 1 (a Fisher-Yates shuffle by an LCG) */
    unsigned s = 1234567u;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        s = s * 1664525u + 1013904223u;
        int j = (int)((s >> 8) % (unsigned)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int k = 1;
    for (int i = 1; i <= n; i++) {
        int row = perm[i - 1];   /* 0-based original row */
        ia[i - 1] = k;
        int kd = k++;
        ja[kd - 1] = row + 1;
        double off = 0.0;
        int cnt = 2 + (int)(row % 6);
        for (int e = 0; e < cnt; e++) {
            s = s * 1664525u + 1013904223u;
            int c = (row + 1 + (int)((s >> 10) % 97u)) % n;
            ja[k - 1] = c + 1;
            a[k - 1] = -(double)(1 + (s >> 24) % 4u) / 4.0;
            off -= a[k - 1];
            k++;
        }
        a[kd - 1] = diag[row] = off + 0.1;
        b[row] = (double)((row * 37) % 101) / 50.0 - 1.0;
    }
    ia[n] = k;

    /* Jacobi in the original numbering */
    double res = 0.0;
    for (int it = 0; it < iters; it++) {
        amux_home(n, x, ax, a, ja, ia);
        double r2 = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            r2 += (b[i] - ax[i]) * (b[i] - ax[i]);
        res = sqrt(r2);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] += (b[i] - ax[i]) / diag[i];
    }

    /* the same product in storage order: z[i] = (A x)[perm[i]] for the final x */
    amux(n, x, z, a, ja, ia);
    double cz = 0.0, cx = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cz += z[i];
        cx += x[i];
    }
    printf("nnz %d\n", ia[n] - 1);
    printf("residual %.6e\n", res);
    printf("sum x %.10g sum Ax %.10g\n", cx, cz);
    free(perm); free(ia); free(ja); free(a); free(diag); free(b); free(x); free(ax); free(z);
    return 0;
}
