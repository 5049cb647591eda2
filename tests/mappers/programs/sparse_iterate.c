/* Sparse products in a loop for the device-residency tests: y = A x, then x = A y, STEPS
 * times each, for one matrix in CSR and the same in jagged diagonal storage (JDS), with
 * no host access to the matrices, x or y between the calls; every bit of the vectors
 * printed at the end.
 * Usage: sparse_iterate N STEPS SEED PEEK
 *   PEEK k > 0: the host prints x[0] and rewrites x[n-1] every k steps (a read and a
 *   write inside the loop, so the vectors come back to the host and go again)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void csr_spmv(int n, const int *row_ptr, const int *col,
                                        const double *val, const double *x, double *y) {
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = row_ptr[i]; j < row_ptr[i + 1]; j++) {
            sum += val[j] * x[col[j]];
        }
        y[i] = sum;
    }
}

__attribute__((noinline)) void jds_spmv(int n, const int *perm, const int *nzcnt,
                                        const int *jd_ptr, const int *col, const double *val,
                                        const double *x, double *y) {
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        for (int d = 0; d < nzcnt[r]; d++) {
            sum += val[jd_ptr[d] + r] * x[col[jd_ptr[d] + r]];
        }
        y[perm[r]] = sum;
    }
}

static unsigned next(unsigned *state) {
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* Every bit of every element (FNV-1a over the doubles' bits): the products are the
   original's to the last bit, and no reduction the rewriter would reassociate. */
static unsigned long long digest(int n, const double *v) {
    unsigned long long hash = 14695981039346656037ull;
    for (int i = 0; i < n; i++) {
        unsigned long long bits;
        memcpy(&bits, &v[i], sizeof bits);
        hash = (hash ^ bits) * 1099511628211ull;
    }
    return hash;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        return 2;
    }
    int n = atoi(argv[1]);
    int steps = atoi(argv[2]);
    unsigned seed = (unsigned)atoi(argv[3]);
    int peek = atoi(argv[4]);
    int size = n > 0 ? n : 1;
    /* Row i has 1 + i % 4 entries (so JDS sorts rows of 4, 3, 2, 1 entries), at columns
       near i, with weights that keep a row's sum below 1: the products stay bounded. */
    int *row_ptr = malloc(sizeof(int) * (size + 1));
    int *col = malloc(sizeof(int) * 4 * size);
    double *val = malloc(sizeof(double) * 4 * size);
    row_ptr[0] = 0;
    for (int i = 0; i < n; i++) {
        int k = row_ptr[i];
        for (int e = 0; e < 1 + i % 4; e++, k++) {
            col[k] = (int)((i + e * 3 + next(&seed) % 5) % (unsigned)n);
            val[k] = (double)(next(&seed) % 1000) / 1600.0;
        }
        row_ptr[i + 1] = k;
    }
    /* JDS of the same matrix: rows sorted by their count of entries, longest first. */
    int *perm = malloc(sizeof(int) * size), *nzcnt = malloc(sizeof(int) * size);
    int *jd_ptr = malloc(sizeof(int) * 5);
    int *jcol = malloc(sizeof(int) * 4 * size);
    double *jval = malloc(sizeof(double) * 4 * size);
    int sorted = 0;
    for (int length = 4; length >= 1; length--) {
        for (int i = 0; i < n; i++) {
            if (row_ptr[i + 1] - row_ptr[i] == length) {
                perm[sorted] = i;
                nzcnt[sorted++] = length;
            }
        }
    }
    jd_ptr[0] = 0;
    for (int d = 0; d < 4; d++) {
        int rows = 0;
        while (rows < n && nzcnt[rows] > d) {
            jcol[jd_ptr[d] + rows] = col[row_ptr[perm[rows]] + d];
            jval[jd_ptr[d] + rows] = val[row_ptr[perm[rows]] + d];
            rows++;
        }
        jd_ptr[d + 1] = jd_ptr[d] + rows;
    }
    double *x = malloc(sizeof(double) * size), *y = malloc(sizeof(double) * size);
    double *u = malloc(sizeof(double) * size), *v = malloc(sizeof(double) * size);
    for (int i = 0; i < n; i++) {
        x[i] = u[i] = 1.0 + (double)(next(&seed) % 100) / 10.0;
    }
    for (int s = 1; s <= steps; s++) {
        csr_spmv(n, row_ptr, col, val, x, y);
        csr_spmv(n, row_ptr, col, val, y, x);
        jds_spmv(n, perm, nzcnt, jd_ptr, jcol, jval, u, v);
        jds_spmv(n, perm, nzcnt, jd_ptr, jcol, jval, v, u);
        if (peek > 0 && s % peek == 0 && n > 0) {
            printf("step %d: %.17g %.17g\n", s, x[0], u[0]);
            x[n - 1] = u[n - 1] = 1.0 + (double)s;
        }
    }
    printf("csr %016llx %016llx\n", digest(n, x), digest(n, y));
    printf("jds %016llx %016llx %.17g\n", digest(n, u), digest(n, v), n > 0 ? u[n / 2] : 0.0);
    return 0;
}
