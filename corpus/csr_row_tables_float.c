// corpus: float CSR SpMV through per-row pointer tables where every row is its own malloc'ed block (not one contiguous array), lazy random-walk smoothing
// args: test=600 4 bench=250000 170
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrow;
    int *row_len;
    float **row_vals;   /* row i: row_len[i] values in a block of its own */
    int **row_cols;
} RowBlocks;

/* rowblocks_mv: y = A x */
void rowblocks_mv(const RowBlocks *A, const float *x, float *y)
{
    for (int i = 0; i < A->nrow; i++) {   // expect: SpMV_CSR in rowblocks_mv
        float sum = 0.0f;
        const float *v = A->row_vals[i];
        const int *c = A->row_cols[i];
        int m = A->row_len[i];
        for (int j = 0; j < m; j++)
            sum += v[j] * x[c[j]];
        y[i] = sum;
    }
}

static unsigned seed = 20240611u;

static unsigned next(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    RowBlocks A;
    A.nrow = n;
    A.row_len = malloc((size_t)n * sizeof *A.row_len);
    A.row_vals = malloc((size_t)n * sizeof *A.row_vals);
    A.row_cols = malloc((size_t)n * sizeof *A.row_cols);
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!A.row_len || !A.row_vals || !A.row_cols || !x || !y)
        return 1;
    /* row i: 1/2 on the diagonal, 1/2 spread over 2..12 neighbours within 8 rows of i (one in 32 anywhere) */
    long nnz = 0;
    for (int i = 0; i < n; i++) {
        int deg = 2 + (int)(next() % 11u);
        int len = deg + 1;
        A.row_len[i] = len;
        A.row_vals[i] = malloc((size_t)len * sizeof(float));
        A.row_cols[i] = malloc((size_t)len * sizeof(int));
        if (!A.row_vals[i] || !A.row_cols[i])
            return 1;
        A.row_vals[i][0] = 0.5f;
        A.row_cols[i][0] = i;
        for (int k = 1; k < len; k++) {
            unsigned r = next();
            int c = (r & 31u) == 0u ? (int)((r >> 5) % (unsigned)n) : (i + n - 8 + (int)((r >> 5) % 17u)) % n;
            A.row_vals[i][k] = 0.5f / (float)deg;
            A.row_cols[i][k] = c;
        }
        nnz += len;
        x[i] = (float)(next() % 1000u) / 999.0f;
    }

    for (int it = 0; it < iters; it++) {
        rowblocks_mv(&A, x, y);
        rowblocks_mv(&A, y, x);
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    double dev = 0.0, mean = cs / n;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        dev += (x[i] - mean) * (x[i] - mean);
    printf("rows %d nnz %ld\n", n, nnz);
    printf("sum %.10g spread %.6e\n", cs, dev / n);
    printf("x[0] %.6e x[n-1] %.6e\n", (double)x[0], (double)x[n - 1]);
    for (int i = 0; i < n; i++) {
        free(A.row_vals[i]);
        free(A.row_cols[i]);
    }
    free(A.row_len); free(A.row_vals); free(A.row_cols); free(x); free(y);
    return 0;
}
