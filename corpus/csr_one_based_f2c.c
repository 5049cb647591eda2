// corpus: f2c-translated SPARSKIT-style amux (pointer parameters shifted by --a, 1-based CSR) in a power iteration
// args: test=500 6 bench=250000 480
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef int integer;
typedef double doublereal;

/* amux_: y = A x, A in compressed sparse rows numbered from 1 (as translated by f2c, with
   automatic locals); every argument is passed by address */
int amux_(integer *n, doublereal *x, doublereal *y, doublereal *a, integer *ja, integer *ia)
{
    /* System generated locals */
    integer i__1;

    /* Local variables */
    integer i, k;
    doublereal t;

    /* Parameter adjustments */
    --y;
    --x;
    --a;
    --ja;
    --ia;

    /* Function Body */
    i__1 = *n;
    for (i = 1; i <= i__1; ++i) {   // expect: SpMV_CSR in amux_
        t = 0.;
        for (k = ia[i]; k < ia[i + 1]; ++k) {
            t += a[k] * x[ja[k]];
        }
        y[i] = t;
    }
    return 0;
} /* amux_ */

static integer seed = 7;

static integer irand(integer m)
{
    seed = (integer)(((long long)seed * 16807) % 2147483647);
    return seed % m;
}

int main(int argc, char **argv)
{
    integer n = argc > 1 ? atoi(argv[1]) : 20000;
    integer iters = argc > 2 ? atoi(argv[2]) : 30;
    if (n < 8)
        n = 8;
    if (iters < 1)
        iters = 1;

    /* a symmetric pattern: the tridiagonal band plus the pair (i, n + 1 - i) and a
       couple of LCG neighbours within a window of 64 rows; all values positive */
    integer maxrow = 8;
    integer *ia = malloc((size_t)(n + 1) * sizeof *ia);
    integer *ja = malloc((size_t)n * maxrow * sizeof *ja);
    doublereal *a = malloc((size_t)n * maxrow * sizeof *a);
    doublereal *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!ia || !ja || !a || !x || !y)
        return 1;
    integer k = 1;
    for (integer i = 1; i <= n; i++) {
        ia[i - 1] = k;
        if (i > 1) { ja[k - 1] = i - 1; a[k - 1] = 1.0; k++; }
        ja[k - 1] = i; a[k - 1] = 2.0 + (doublereal)(i % 5) / 4.0; k++;
        if (i < n) { ja[k - 1] = i + 1; a[k - 1] = 1.0; k++; }
        ja[k - 1] = n + 1 - i; a[k - 1] = 0.5; k++;
        integer extra = irand(4);
        for (integer e = 0; e < extra; e++) {
            integer c = i + irand(129) - 64;
            if (c < 1) c = 1;
            if (c > n) c = n;
            ja[k - 1] = c;
            a[k - 1] = (doublereal)(1 + irand(9)) / 16.0;
            k++;
        }
    }
    ia[n] = k;
    for (integer i = 0; i < n; i++)
        x[i] = 1.0 + (doublereal)(irand(100)) / 100.0;

    /* power iteration: y = A x, lambda = x.y / x.x, x = y / |y| */
    doublereal lambda = 0.0, nrm = 0.0;
    for (integer it = 0; it < iters; it++) {
        amux_(&n, x, y, a, ja, ia);
        doublereal xy = 0.0, xx = 0.0;
        for (integer i = 0; i < n; i++) {   // expect: Reduction in main
            xy += x[i] * y[i];
            xx += x[i] * x[i];
        }
        lambda = xy / xx;
        doublereal yy = 0.0;
        for (integer i = 0; i < n; i++)   // expect: Reduction in main
            yy += y[i] * y[i];
        nrm = sqrt(yy);
        for (integer i = 0; i < n; i++)   // expect: Map in main
            x[i] = y[i] / nrm;
    }

    doublereal cs = 0.0;
    for (integer i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i] * (doublereal)(1 + i % 7);
    printf("nnz %d\n", ia[n] - 1);
    printf("lambda %.10g norm %.10g\n", lambda, nrm);
    printf("weighted sum %.10g\n", cs);
    free(ia); free(ja); free(a); free(x); free(y);
    return 0;
}
