// corpus: ELLPACK SpMV (row-major val[i*w + j] / col[i*w + j], double, short rows padded with zeros on the diagonal) in a Richardson iteration
// args: test=500 6 8 bench=200000 12 750
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ell_mv: y = A x; row i holds w entries val[i*w + j] at columns col[i*w + j] */
void ell_mv(int n, int w, const double *val, const int *col, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {   // expect: SpMV_ELL in ell_mv
        double s = 0.0;
        for (int j = 0; j < w; j++)
            s += val[i * w + j] * x[col[i * w + j]];
        y[i] = s;
    }
}

static unsigned long long rng = 0x2545F491ull;

static unsigned next_rand(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng >> 40);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int w = argc > 2 ? atoi(argv[2]) : 8;
    int iters = argc > 3 ? atoi(argv[3]) : 20;
    if (n < 4)
        n = 4;
    if (w < 2)
        w = 2;
    if (iters < 1)
        iters = 1;

    double *val = malloc((size_t)n * w * sizeof *val);
    int *col = malloc((size_t)n * w * sizeof *col);
    double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
    double *r = malloc((size_t)n * sizeof *r);
    if (!val || !col || !b || !x || !r)
        return 1;

    /* row i: the diagonal, then 1..w-1 off-diagonal entries; the rest padding */
    for (int i = 0; i < n; i++) {
        int used = 1 + (int)(next_rand() % (unsigned)(w - 1));
        double off = 0.0;
        for (int j = 1; j < w; j++) {
            int p = i * w + j;
            if (j < used) {
                col[p] = (int)(next_rand() % (unsigned)n);
                val[p] = -(double)(1 + next_rand() % 15u) / 32.0;
                off -= val[p];
            } else {
                col[p] = i;
                val[p] = 0.0;
            }
        }
        col[i * w] = i;
        val[i * w] = off + 0.25 + (double)(i % 3) * 0.25;
        b[i] = (double)(next_rand() % 2001u) / 1000.0 - 1.0;
        x[i] = 0.0;
    }

    /* Richardson: x <- x + omega (b - A x) */
    double omega = 1.0 / (2.0 * (15.0 / 32.0) * (double)(w - 1) + 0.75);
    double res = 0.0;
    for (int it = 0; it < iters; it++) {
        ell_mv(n, w, val, col, x, r);
        double rr = 0.0;
        for (int i = 0; i < n; i++) {   // expect: Map in main
            r[i] = b[i] - r[i];
            x[i] += omega * r[i];
        }
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            rr += r[i] * r[i];
        res = sqrt(rr);
    }

    double cs = 0.0, cmax = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cs += x[i];
        cmax = fmax(cmax, fabs(x[i]));
    }
    printf("n %d width %d\n", n, w);
    printf("residual %.6e\n", res);
    printf("sum x %.10g max |x| %.10g\n", cs, cmax);
    free(val); free(col); free(b); free(x); free(r);
    return 0;
}
