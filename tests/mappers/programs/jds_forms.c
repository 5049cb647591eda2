/* Products in jagged diagonal storage in the forms the generated kernel says: rows
   stored through a permutation (Parboil's y[perm[r]]) or in sorted order (y[r]);
   1-based columns read through `idx[j] - 1`; y scaled; float values; 64-bit positions;
   y[perm[r]] += sum, which reads y before it stores; and a sum started from y[perm[r]],
   which keeps its loop (a read at an address loaded in the loop). Usage: jds_forms ROWS
   STEPS [REPEATED]. Rows have 0 to 8 entries; with REPEATED, two sorted rows store into
   the same row of y (the later one wins). */
#include <stdio.h>
#include <stdlib.h>

static unsigned state = 11u;
static unsigned next(void) { state = state * 1103515245u + 12345u; return state >> 8; }

void plain(int n, const int *perm, const int *nzcnt, const int *jd_ptr, const int *idx,
           const double *data, const double *x, double *y) {
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        for (int d = 0; d < nzcnt[r]; d++) {
            int j = jd_ptr[d] + r;
            sum += data[j] * x[idx[j]];
        }
        y[perm[r]] = sum;
    }
}

void sorted(int n, const int *nzcnt, const int *jd_ptr, const int *idx, const double *data,
            const double *x, double *y) {
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        for (int d = 0; d < nzcnt[r]; d++)
            sum += data[jd_ptr[d] + r] * x[idx[jd_ptr[d] + r]];
        y[r] = sum;
    }
}

void one_based(int n, const int *perm, const int *nzcnt, const int *jd_ptr, const int *idx,
               const double *data, const double *x, double *y) {
    for (int r = 0; r < n; r++) {
        double t = 0.0;
        for (int d = 0; d < nzcnt[r]; d++)
            t += data[jd_ptr[d] + r] * x[idx[jd_ptr[d] + r] - 1];
        y[perm[r]] = t;
    }
}

void scaled(int n, double alpha, const int *perm, const int *nzcnt, const int *jd_ptr,
            const int *idx, const double *data, const double *x, double *y) {
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        for (int d = 0; d < nzcnt[r]; d++) {
            int j = jd_ptr[d] + r;
            sum += data[j] * x[idx[j]];
        }
        y[perm[r]] = alpha * sum;
    }
}

void single(int n, const int *perm, const int *nzcnt, const int *jd_ptr, const int *idx,
            const float *data, const float *x, float *y) {
    for (int r = 0; r < n; r++) {
        float sum = 0.0f;
        for (int d = 0; d < nzcnt[r]; d++) {
            int j = jd_ptr[d] + r;
            sum += data[j] * x[idx[j]];
        }
        y[perm[r]] = sum;
    }
}

void wide(long n, const long *perm, const long *nzcnt, const long *jd_ptr, const int *idx,
          const double *data, const double *x, double *y) {
    for (long r = 0; r < n; r++) {
        double sum = 0.0;
        for (long d = 0; d < nzcnt[r]; d++) {
            long j = jd_ptr[d] + r;
            sum += data[j] * x[idx[j]];
        }
        y[perm[r]] = sum;
    }
}

void accumulate(int n, const int *perm, const int *nzcnt, const int *jd_ptr, const int *idx,
                const double *data, const double *x, double *y) {
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        for (int d = 0; d < nzcnt[r]; d++) {
            int j = jd_ptr[d] + r;
            sum += data[j] * x[idx[j]];
        }
        y[perm[r]] += sum;
    }
}

void started(int n, const int *perm, const int *nzcnt, const int *jd_ptr, const int *idx,
             const double *data, const double *x, double *y) {
    for (int r = 0; r < n; r++) {
        double sum = y[perm[r]];
        for (int d = 0; d < nzcnt[r]; d++) {
            int j = jd_ptr[d] + r;
            sum += data[j] * x[idx[j]];
        }
        y[perm[r]] = sum;
    }
}

static double checksum(int n, const double *y) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (i % 7 + 1) * y[i];
    return s;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100, steps = argc > 2 ? atoi(argv[2]) : 2;
    int repeated = argc > 3;
    int *nzcnt = malloc(n * sizeof *nzcnt), *perm = malloc(n * sizeof *perm);
    long *wnz = malloc(n * sizeof *wnz), *wperm = malloc(n * sizeof *wperm);
    /* sorted rows: lengths that never grow, 8 down to 0 */
    int maxlen = 0;
    for (int r = 0; r < n; r++) {
        nzcnt[r] = 8 - (int)((long)r * 9 / n);
        if (nzcnt[r] > maxlen) maxlen = nzcnt[r];
    }
    for (int r = 0; r < n; r++) perm[r] = r;
    for (int r = n - 1; r > 0; r--) {
        int k = (int)(next() % (unsigned)(r + 1)), t = perm[r];
        perm[r] = perm[k];
        perm[k] = t;
    }
    if (repeated && n > 2) perm[n - 1] = perm[0];
    long *wjd = malloc((maxlen + 1) * sizeof *wjd);
    int *jd_ptr = malloc((maxlen + 1) * sizeof *jd_ptr);
    jd_ptr[0] = 0;
    for (int d = 0; d < maxlen; d++) {
        int rows = 0;
        while (rows < n && nzcnt[rows] > d) rows++;
        jd_ptr[d + 1] = jd_ptr[d] + rows;
    }
    int nnz = jd_ptr[maxlen] > 0 ? jd_ptr[maxlen] : 1;
    for (int d = 0; d <= maxlen; d++) wjd[d] = jd_ptr[d];
    for (int r = 0; r < n; r++) { wnz[r] = nzcnt[r]; wperm[r] = perm[r]; }
    int *idx = malloc(nnz * sizeof *idx), *idx1 = malloc(nnz * sizeof *idx1);
    double *data = malloc(nnz * sizeof *data);
    float *fdata = malloc(nnz * sizeof *fdata);
    for (int k = 0; k < nnz; k++) {
        idx[k] = (int)(next() % (unsigned)n);
        idx1[k] = idx[k] + 1;
        data[k] = (double)(next() % 1000) / 997.0 - 0.4;
        fdata[k] = (float)data[k];
    }
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    float *fx = malloc(n * sizeof *fx), *fy = malloc(n * sizeof *fy);
    for (int i = 0; i < n; i++) {
        x[i] = 1.0 + (double)(next() % 100) / 101.0;
        fx[i] = (float)x[i];
        y[i] = 0.5;
        fy[i] = 0.5f;
    }
    for (int s = 0; s < steps; s++) {
        plain(n, perm, nzcnt, jd_ptr, idx, data, x, y);
        printf("plain %.17g\n", checksum(n, y));
        sorted(n, nzcnt, jd_ptr, idx, data, y, x);
        printf("sorted %.17g\n", checksum(n, x));
        one_based(n, perm, nzcnt, jd_ptr, idx1, data, x, y);
        printf("one_based %.17g\n", checksum(n, y));
        scaled(n, 0.75, perm, nzcnt, jd_ptr, idx, data, y, x);
        printf("scaled %.17g\n", checksum(n, x));
        single(n, perm, nzcnt, jd_ptr, idx, fdata, fx, fy);
        for (int i = 0; i < n; i++) fx[i] = fy[i] * 0.5f + 0.25f;
        printf("single %.9g\n", (double)fy[n / 2]);
        wide(n, wperm, wnz, wjd, idx, data, x, y);
        printf("wide %.17g\n", checksum(n, y));
        accumulate(n, perm, nzcnt, jd_ptr, idx, data, y, x);
        printf("accumulate %.17g\n", checksum(n, x));
        started(n, perm, nzcnt, jd_ptr, idx, data, x, y);
        printf("started %.17g\n", checksum(n, y));
        for (int i = 0; i < n; i++) x[i] = x[i] / (1.0 + (x[i] < 0 ? -x[i] : x[i]));
    }
    return 0;
}
