// direct: gemm_struct_bounds.c: dmat_mul's loop nest as a cblas_dgemm call
// args: test=40 bench=1100
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

struct dmat {
    int rows, cols, ld;
    double *v;
};

/* c = a * b; bounds read straight from the struct fields as legacy code does. */
void dmat_mul(struct dmat *c, const struct dmat *a, const struct dmat *b)
{
    if (c->rows > 0 && c->cols > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, c->rows, c->cols, a->cols,
                    1.0, a->v, a->ld, b->v, b->ld, 0.0, c->v, c->ld);
}

struct dmat dmat_new(int rows, int cols, int ld)
{
    struct dmat m = { rows, cols, ld, malloc((size_t)rows * (size_t)ld * sizeof(double)) };
    if (!m.v) exit(1);
    return m;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 4) n = 4;
    struct dmat a = dmat_new(n, n - 1, n + 1);
    struct dmat b = dmat_new(n - 1, n, n);
    struct dmat c = dmat_new(n, n, n + 4);

    for (int i = 0; i < a.rows; i++)
        for (int k = 0; k < a.ld; k++)
            a.v[i * a.ld + k] = (double)((i * 11 + k * 2) % 15) / 15.0 - 0.5;
    for (int k = 0; k < b.rows; k++)
        for (int j = 0; j < b.ld; j++)
            b.v[k * b.ld + j] = (double)((k * 4 + j * 9) % 14) / 14.0 - 0.5;
    for (int i = 0; i < c.rows; i++)
        for (int j = 0; j < c.ld; j++)
            c.v[i * c.ld + j] = -7.0;   /* padding keeps this value */

    dmat_mul(&c, &a, &b);

    double sum = 0.0, sq = 0.0;
    for (int t = 0; t < c.rows * c.ld; t++) {
        sum += c.v[t];
        sq += c.v[t] * c.v[t];
    }
    printf("n = %d\n", n);
    printf("sum = %.10g\n", sum);
    printf("sumsq = %.10g\n", sq);
    printf("c[2][3] = %.10g\n", c.v[2 * c.ld + 3]);
    free(a.v); free(b.v); free(c.v);
    return 0;
}
