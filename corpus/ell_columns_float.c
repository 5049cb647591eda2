// corpus: ELLPACK SpMV stored by columns (GPU layout val[j*n + i], col[j*n + i], float) in damped averaging sweeps over a random graph
// args: test=700 10 5 bench=300000 16 65
#include <stdio.h>
#include <stdlib.h>

/* ell_spmv_cols: y = A x, entry j of row i at j*n + i (every row has w slots, padded
   with value 0 pointing at the row itself) */
void ell_spmv_cols(int n, int w, const float *val, const int *col, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {   // expect: SpMV_ELL in ell_spmv_cols
        float sum = 0.0f;
        for (int j = 0; j < w; j++)
            sum += val[j * n + i] * x[col[j * n + i]];
        y[i] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int w = argc > 2 ? atoi(argv[2]) : 10;
    int iters = argc > 3 ? atoi(argv[3]) : 20;
    if (n < 2)
        n = 2;
    if (w < 1)
        w = 1;
    if (iters < 1)
        iters = 1;

    float *val = malloc((size_t)n * w * sizeof *val);
    int *col = malloc((size_t)n * w * sizeof *col);
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    float *src = malloc((size_t)n * sizeof *src);
    if (!val || !col || !x || !y || !src)
        return 1;

    /* row i averages over 1..w neighbours chosen by an LCG: its entries sum to 1 */
    unsigned s = 31337u;
    for (int i = 0; i < n; i++) {
        s = s * 22695477u + 1u;
        int deg = 1 + (int)((s >> 16) % (unsigned)w);
        for (int j = 0; j < w; j++) {
            if (j < deg) {
                s = s * 22695477u + 1u;
                col[j * n + i] = (int)((s >> 8) % (unsigned)n);
                val[j * n + i] = 1.0f / (float)deg;
            } else {
                col[j * n + i] = i;
                val[j * n + i] = 0.0f;
            }
        }
        s = s * 22695477u + 1u;
        src[i] = (float)((s >> 12) % 256u) / 255.0f;
        x[i] = src[i];
    }

    /* x <- 0.85 A x + 0.15 src, twice per sweep through the pair (x, y) */
    for (int it = 0; it < iters; it++) {
        ell_spmv_cols(n, w, val, col, x, y);
        for (int i = 0; i < n; i++)   // expect: Map in main
            y[i] = 0.85f * y[i] + 0.15f * src[i];
        ell_spmv_cols(n, w, val, col, y, x);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = 0.85f * x[i] + 0.15f * src[i];
    }

    double cs = 0.0;
    float lo = x[0], hi = x[0];
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    for (int i = 1; i < n; i++) {   // expect: Reduction in main
        if (x[i] < lo)
            lo = x[i];
        if (x[i] > hi)
            hi = x[i];
    }
    printf("n %d width %d\n", n, w);
    printf("sum %.10g min %.6e max %.6e\n", cs, (double)lo, (double)hi);
    printf("x[n/2] %.6e\n", (double)x[n / 2]);
    free(val); free(col); free(x); free(y); free(src);
    return 0;
}
