// corpus: sparse matrix-vector product from coordinate (COO) triplets, y[t.row] += t.val * x[t.col] (array of structs)
// args: test=500 3 bench=400000 90
#include <stdio.h>
#include <stdlib.h>

struct triplet {
    int row, col;
    double val;
};

/* coo_mv: y += A x for the nnz triplets of A; the bin (row) is read from each triplet */
void coo_mv(const struct triplet *t, size_t nnz, const double *x, double *y)
{
    for (size_t k = 0; k < nnz; k++)   // expect: SpMV_COO in coo_mv
        y[t[k].row] += t[k].val * x[t[k].col];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    size_t nnz = (size_t)n * 6;
    struct triplet *t = malloc(nnz * sizeof *t);
    double *x = malloc((size_t)n * sizeof *x), *y = calloc((size_t)n, sizeof *y);
    if (!t || !x || !y)
        return 1;
    unsigned seed = 8675309u;
    for (size_t k = 0; k < nnz; k++) {   /* unsorted triplets, as read from a file */
        seed = seed * 1103515245u + 12345u;
        t[k].row = (int)((seed >> 8) % (unsigned)n);
        seed = seed * 1103515245u + 12345u;
        t[k].col = (int)((seed >> 8) % (unsigned)n);
        t[k].val = 0.25 * (double)(1 + k % 3);
    }
    for (int i = 0; i < n; i++)
        x[i] = 1.0 / (double)(1 + i % 16);

    for (int it = 0; it < iters; it++)
        coo_mv(t, nnz, x, y);

    double cs = 0.0, mx = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cs += y[i];
        mx = y[i] > mx ? y[i] : mx;
    }
    printf("y[0] %.10g y[n-1] %.10g\n", y[0], y[n - 1]);
    printf("sum %.10g max %.10g\n", cs, mx);
    free(t);
    free(x);
    free(y);
    return 0;
}
