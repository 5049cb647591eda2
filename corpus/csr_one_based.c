// corpus: CSR SpMV with 1-based (Fortran) row starts, columns and values, SPARSKIT-style amux, inside Jacobi iterations
// args: test=400 8 bench=300000 350
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* amux: y = A x; ia holds n + 1 row starts, ja and a hold the entries, all numbered from 1 */
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

static unsigned lcg_state = 12345u;

static unsigned lcg(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (lcg_state >> 8) & 0xffffffu;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int iters = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;

    /* every row: the diagonal first, then 2..9 off-diagonal entries at LCG columns */
    int maxrow = 10;
    int *ia = malloc((size_t)(n + 1) * sizeof *ia);
    int *ja = malloc((size_t)n * maxrow * sizeof *ja);
    double *a = malloc((size_t)n * maxrow * sizeof *a);
    double *diag = malloc((size_t)n * sizeof *diag), *b = malloc((size_t)n * sizeof *b);
    double *x = malloc((size_t)n * sizeof *x), *ax = malloc((size_t)n * sizeof *ax);
    if (!ia || !ja || !a || !diag || !b || !x || !ax)
        return 1;
    int k = 1;   /* next free position, 1-based */
    for (int i = 1; i <= n; i++) {
        ia[i - 1] = k;
        int off = 2 + (int)(lcg() % 8u);
        double rowsum = 0.0;
        int kd = k;
        ja[k - 1] = i;
        k++;
        for (int e = 0; e < off; e++) {
            int c = 1 + (int)(lcg() % (unsigned)n);
            double v = -(double)(1 + lcg() % 7u) / 8.0;
            ja[k - 1] = c;
            a[k - 1] = v;
            rowsum += -v;
            k++;
        }
        a[kd - 1] = diag[i - 1] = rowsum + 0.05;
        b[i - 1] = (double)(lcg() % 1000u) / 500.0 - 1.0;
    }
    ia[n] = k;
    for (int i = 0; i < n; i++)
        x[i] = 0.0;

    double res = 0.0;
    for (int it = 0; it < iters; it++) {
        amux(n, x, ax, a, ja, ia);
        double r2 = 0.0;
        for (int i = 0; i < n; i++) {   // expect: Reduction in main
            double d = b[i] - ax[i];
            r2 += d * d;
        }
        res = sqrt(r2);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] += (b[i] - ax[i]) / diag[i];
    }

    double cs = 0.0, cabs = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cs += x[i];
        cabs += fabs(x[i]);
    }
    printf("nnz %d\n", ia[n] - 1);
    printf("residual %.6e\n", res);
    printf("sum x %.10g sum |x| %.10g\n", cs, cabs);
    free(ia); free(ja); free(a); free(diag); free(b); free(x); free(ax);
    return 0;
}
