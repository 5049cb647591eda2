// corpus: SpMV in jagged diagonal storage (float, Parboil-style perm / jd_ptr / nzcnt), x <- A x ping-pong
// args: test=500 3 bench=400000 40
#include <stdio.h>
#include <stdlib.h>

/* spmv_jds: y[perm[r]] = sum over k < nzcnt[r] of data[jd_ptr[k] + r] * x[idx[jd_ptr[k] + r]];
   r runs over the rows sorted by decreasing length, diagonal k holds the k-th entry of every row */
void spmv_jds(int n, const int *perm, const int *nzcnt, const int *jd_ptr, const int *idx, const float *data,
              const float *x, float *y)
{
    for (int r = 0; r < n; r++) {   // expect: SpMV_JDS in spmv_jds
        float sum = 0.0f;
        for (int k = 0; k < nzcnt[r]; k++) {
            int j = jd_ptr[k] + r;
            sum += data[j] * x[idx[j]];
        }
        y[perm[r]] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    int *len = malloc((size_t)n * sizeof *len), *perm = malloc((size_t)n * sizeof *perm);
    int *nzcnt = malloc((size_t)n * sizeof *nzcnt);
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!len || !perm || !nzcnt || !x || !y)
        return 1;
    unsigned seed = 2718u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        len[i] = 1 + (int)((seed >> 12) % 30u);   /* 1..30 entries per row */
    }
    int maxlen = 0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        if (len[i] > maxlen)
            maxlen = len[i];

    /* sort rows by decreasing length, stable, one sweep per length */
    int p = 0;
    for (int l = maxlen; l >= 1; l--)
        for (int i = 0; i < n; i++)
            if (len[i] == l) {
                perm[p] = i;
                nzcnt[p++] = l;
            }

    /* diagonal k holds rows 0 .. rows_k - 1 of the sorted order, rows_k = #{r : nzcnt[r] > k} */
    int *jd_ptr = malloc((size_t)(maxlen + 1) * sizeof *jd_ptr);
    jd_ptr[0] = 0;
    int rows_k = n;
    for (int k = 0; k < maxlen; k++) {
        while (rows_k > 0 && nzcnt[rows_k - 1] <= k)
            rows_k--;
        jd_ptr[k + 1] = jd_ptr[k] + rows_k;
    }
    int nnz = jd_ptr[maxlen];
    int *idx = malloc((size_t)nnz * sizeof *idx);
    float *data = malloc((size_t)nnz * sizeof *data);
    if (!jd_ptr || !idx || !data)
        return 1;
    for (int k = 0; k < maxlen; k++)
        for (int r = 0; r < jd_ptr[k + 1] - jd_ptr[k]; r++) {
            int row = perm[r];
            idx[jd_ptr[k] + r] = (int)(((long)row * 7 + (long)k * k * 131 + k) % n);
            data[jd_ptr[k] + r] = 1.0f / (float)nzcnt[r];   /* rows sum to 1 */
        }

    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 64) / 64.0f;
    for (int it = 0; it < iters; it++) {
        spmv_jds(n, perm, nzcnt, jd_ptr, idx, data, x, y);
        spmv_jds(n, perm, nzcnt, jd_ptr, idx, data, y, x);
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    printf("nnz %d diagonals %d\n", nnz, maxlen);
    printf("x[0] %.6e checksum %.6e\n", (double)x[0], cs);
    free(len);
    free(perm);
    free(nzcnt);
    free(jd_ptr);
    free(idx);
    free(data);
    free(x);
    free(y);
    return 0;
}
