/* Kernels for the differential tests of the mappers: each is called on inputs the test
 * chooses (sizes, offsets, overlapping pointers) and the results are printed in full, so
 * that the accelerated build can be compared with the original one. */
#include <stdio.h>
#include <stdlib.h>

double dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

long count_above(long n, const int *v, int limit)
{
    long c = 0;
    for (long i = 0; i < n; i++)
        c += v[i] > limit;
    return c;
}

int maximum(int n, const int *v)
{
    int m = -2147483647 - 1;
    for (int i = n - 1; i >= 0; i--)
        if (v[i] > m) m = v[i];
    return m;
}

/* c = a * b, n x n, flattened, leading dimension ld. */
void matmul(int n, int ld, const double *a, const double *b, double *c)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double acc = 0.0;
            for (int k = 0; k < n; k++)
                acc += a[i * ld + k] * b[k * ld + j];
            c[i * ld + j] = acc;
        }
}

void smooth(int n, const float *in, float *out)
{
    for (int i = 1; i < n - 1; i++)
        out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

void histogram(int n, const unsigned char *data, int *bins)
{
    for (int i = 0; i < n; i++)
        bins[data[i] >> 2]++;
}

/* y = A x, A in CSR with a tridiagonal pattern cut at the edges */
void csr(int n, const int *rp, const int *ci, const double *v, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = rp[i]; j < rp[i + 1]; j++)
            s += v[j] * x[ci[j]];
        y[i] = s;
    }
}

/* y[perm[r]] = sum over the row's diagonals d < len[r] of v[jp[d] + r] * x[ci[jp[d] + r]] (JDS) */
void jds(int n, const int *perm, const int *len, const int *jp, const int *ci, const double *v,
         const double *x, double *y)
{
    for (int r = 0; r < n; r++) {
        double s = 0.0;
        for (int d = 0; d < len[r]; d++)
            s += v[jp[d] + r] * x[ci[jp[d] + r]];
        y[perm[r]] = s;
    }
}

/* JDS over integers, rows in sorted order (no permutation), long diagonal starts, added to y */
void jds_int(long n, const int *len, const long *jp, const int *ci, const int *v, const int *x,
             int *y)
{
    for (long r = 0; r < n; r++) {
        int s = 0;
        for (int d = 0; d < len[r]; d++) {
            long j = jp[d] + r;
            s += v[j] * x[ci[j]];
        }
        y[r] += s;
    }
}

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    int overlap = argc > 3 ? atoi(argv[3]) : 0;
    int repeat = overlap == 2; /* 2: no overlap, but two sorted JDS rows go to one row of y */
    if (repeat)
        overlap = 0;
    int size = n > 0 ? n : 1;
    double *x = malloc(sizeof(double) * size * size * 2 + 64);
    double *y = malloc(sizeof(double) * size * size + 64);
    double *z = malloc(sizeof(double) * size * size * 2 + 64);
    int *v = malloc(sizeof(int) * size);
    float *f = malloc(sizeof(float) * size);
    float *g = malloc(sizeof(float) * size);
    unsigned char *bytes = malloc(size);
    int bins[64] = {0};
    for (int i = 0; i < size * size; i++) {
        x[i] = (double)(next(&seed) % 1000) / 100.0 - 5.0;
        y[i] = (double)(next(&seed) % 1000) / 100.0 - 5.0;
        z[i] = 0.0;
    }
    for (int i = 0; i < size; i++) {
        v[i] = (int)(next(&seed) % 2001) - 1000;
        f[i] = (float)(next(&seed) % 1000) / 10.0f;
        g[i] = -1.0f;
        bytes[i] = (unsigned char)next(&seed);
    }
    printf("dot %.12g\n", dot(n, x, y));
    printf("above %ld\n", count_above(n, v, 17));
    printf("max %d\n", n > 0 ? maximum(n, v) : 0);
    /* overlap: the product is written over its own first factor, the guard must refuse */
    double *target = overlap ? x : z;
    matmul(n, size, x, y, target);
    double sum = 0.0;
    for (int i = 0; i < n * size; i++) sum += target[i] * (double)(i % 7 + 1);
    printf("matmul %.12g\n", sum);
    smooth(n, f, overlap ? f : g);
    for (int i = 0; i < n && i < 8; i++) printf("smooth %.7g\n", (double)(overlap ? f : g)[i]);
    double fsum = 0.0;
    for (int i = 0; i < n; i++) fsum += (overlap ? f : g)[i];
    printf("smooth sum %.7g\n", fsum);
    int *rp = malloc(sizeof(int) * (size + 1));
    int *ci = malloc(sizeof(int) * 3 * size);
    double *cv = malloc(sizeof(double) * 3 * size);
    double *cy = malloc(sizeof(double) * size);
    int nnz = 0;
    for (int i = 0; i < n; i++) {
        rp[i] = nnz;
        for (int d = -1; d <= 1; d++)
            if (i + d >= 0 && i + d < n && (d == 0 || next(&seed) % 3)) {
                ci[nnz] = i + d;
                cv[nnz++] = (double)(next(&seed) % 100) / 10.0;
            }
    }
    rp[n] = nnz;
    double *in = y, *result = overlap ? y : cy; /* overlap: the product over its own input */
    csr(n, rp, ci, cv, in, result);
    double csum = 0.0;
    for (int i = 0; i < n; i++) csum += result[i] * (double)(i % 5 + 1);
    printf("csr %.12g\n", csum);
    /* JDS: 0..4 entries per row, at any column, rows sorted by decreasing length */
    int *jlen = malloc(sizeof(int) * size), *jperm = malloc(sizeof(int) * size);
    int *jsorted = malloc(sizeof(int) * size), *jp = malloc(sizeof(int) * 5);
    long *jpl = malloc(sizeof(long) * 5);
    int *jci = malloc(sizeof(int) * 4 * size), *jiv = malloc(sizeof(int) * 4 * size);
    double *jv = malloc(sizeof(double) * 4 * size), *jout = malloc(sizeof(double) * size);
    int *jx = malloc(sizeof(int) * size), *jy = malloc(sizeof(int) * size);
    for (int i = 0; i < n; i++) {
        jlen[i] = (int)(next(&seed) % 5);
        jx[i] = (int)(next(&seed) % 201) - 100;
        jy[i] = (int)(next(&seed) % 21) - 10;
        jout[i] = -7.0; /* rows of y no row writes keep it */
    }
    int sorted = 0;
    for (int l = 4; l >= 0; l--)
        for (int i = 0; i < n; i++)
            if (jlen[i] == l) {
                jperm[sorted] = i;
                jsorted[sorted++] = l;
            }
    if (repeat && n > 1)
        jperm[n - 1] = jperm[0];
    jp[0] = 0;
    for (int d = 0, rows = n; d < 4; d++) {
        while (rows > 0 && jsorted[rows - 1] <= d)
            rows--;
        jp[d + 1] = jp[d] + rows;
    }
    for (int d = 0; d <= 4; d++)
        jpl[d] = jp[d];
    for (int j = 0; j < jp[4]; j++) {
        jci[j] = (int)(next(&seed) % (unsigned)size);
        jv[j] = (double)(next(&seed) % 1000) / 100.0 - 5.0;
        jiv[j] = (int)(next(&seed) % 21) - 10;
    }
    double *jds_out = overlap ? y : jout; /* overlap: y[perm[r]] over its own x */
    jds(n, jperm, jsorted, jp, jci, jv, y, jds_out);
    double jsum = 0.0;
    for (int i = 0; i < n; i++) jsum += jds_out[i] * (double)(i % 5 + 1);
    printf("jds %.17g %.17g\n", jsum, n > 0 ? jds_out[n - 1] : 0.0);
    int *jds_int_out = overlap ? jx : jy;
    jds_int(n, jsorted, jpl, jci, jiv, jx, jds_int_out);
    long jisum = 0;
    printf("jds_int");
    for (int i = 0; i < n && i < 8; i++) printf(" %d", jds_int_out[i]);
    for (int i = 0; i < n; i++) jisum += (long)jds_int_out[i] * (i % 7 + 1);
    printf(" sum %ld\n", jisum);
    histogram(n, bytes, bins);
    for (int b = 0; b < 64; b++) printf("%d ", bins[b]);
    printf("\n");
    return 0;
}
