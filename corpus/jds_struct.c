// corpus: jagged-diagonal SpMV (double) with the format in a struct, used in a power iteration; banded-random matrix
// args: test=400 5 bench=300000 500
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct jds {
    int nrows, ndiags;
    int *perm;   /* sorted position -> original row */
    int *nzcnt;  /* entries in each sorted row, non-increasing */
    int *jd_ptr; /* start of each jagged diagonal, ndiags + 1 */
    int *col;
    double *val;
};

/* jds_mul: y = A x; the result of sorted row r goes to y[perm[r]] */
void jds_mul(const struct jds *A, const double *x, double *y)
{
    for (int r = 0; r < A->nrows; r++) {   // expect: SpMV_JDS in jds_mul
        double acc = 0.0;
        for (int d = 0; d < A->nzcnt[r]; d++)
            acc += A->val[A->jd_ptr[d] + r] * x[A->col[A->jd_ptr[d] + r]];
        y[A->perm[r]] = acc;
    }
}

/* row i holds 2 + (i * 5) % 9 entries near the diagonal; rows are sorted by a counting pass per length */
static void build(struct jds *A, int n)
{
    A->nrows = n;
    A->ndiags = 10;
    A->perm = malloc((size_t)n * sizeof(int));
    A->nzcnt = malloc((size_t)n * sizeof(int));
    A->jd_ptr = malloc((size_t)(A->ndiags + 1) * sizeof(int));
    int p = 0;
    for (int l = A->ndiags; l >= 2; l--)
        for (int i = 0; i < n; i++)
            if (2 + (i * 5) % 9 == l) {
                A->perm[p] = i;
                A->nzcnt[p++] = l;
            }
    A->jd_ptr[0] = 0;
    int rows = n;
    for (int d = 0; d < A->ndiags; d++) {
        while (rows > 0 && A->nzcnt[rows - 1] <= d)
            rows--;
        A->jd_ptr[d + 1] = A->jd_ptr[d] + rows;
    }
    A->col = malloc((size_t)A->jd_ptr[A->ndiags] * sizeof(int));
    A->val = malloc((size_t)A->jd_ptr[A->ndiags] * sizeof(double));
    for (int d = 0; d < A->ndiags; d++)
        for (int r = 0; r < A->jd_ptr[d + 1] - A->jd_ptr[d]; r++) {
            int i = A->perm[r], j = A->jd_ptr[d] + r;
            A->col[j] = (i + (d % 2 ? d : -d) * 3 + n) % n;
            A->val[j] = d == 0 ? 3.0 : 1.0 / (double)(1 + d + i % 4);
        }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int iters = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 40)
        n = 40;
    if (iters < 1)
        iters = 1;

    struct jds A;
    build(&A, n);
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!x || !y)
        return 1;
    for (int i = 0; i < n; i++)
        x[i] = 1.0 / (1.0 + (double)(i % 13));

    double lambda = 0.0;
    for (int it = 0; it < iters; it++) {
        jds_mul(&A, x, y);
        double ss = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            ss += y[i] * y[i];
        lambda = sqrt(ss);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = y[i] / lambda;
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += fabs(x[i]);
    printf("nnz %d\n", A.jd_ptr[A.ndiags]);
    printf("lambda %.10g checksum %.10g\n", lambda, cs);
    free(A.perm);
    free(A.nzcnt);
    free(A.jd_ptr);
    free(A.col);
    free(A.val);
    free(x);
    free(y);
    return 0;
}
