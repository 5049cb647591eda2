/* Kernels whose bounds, arrays or coefficients are struct fields read inside the loop
 * (the compiler cannot hoist them: a store of the loop might write them, or the read
 * happens only when an inner loop runs), for the differential tests of fixed values.
 * Some calls make a field live inside the array written, so that the guard must send
 * them to the original code. */
#include <stdio.h>
#include <stdlib.h>

struct dmat {
    int rows, cols, ld;
    double *v;
};

/* c = a * b, every bound, leading dimension and array in the structs */
void dmat_mul(struct dmat *c, const struct dmat *a, const struct dmat *b)
{
    for (int i = 0; i < c->rows; i++)
        for (int j = 0; j < c->cols; j++) {
            double s = 0.0;
            for (int k = 0; k < a->cols; k++)
                s += a->v[i * a->ld + k] * b->v[k * b->ld + j];
            c->v[i * c->ld + j] = s;
        }
}

typedef struct {
    int nrows;
    long *start;
    int *col;
    double *val;
} Csr;

/* y = A x, the matrix's arrays read for the rows that have entries */
void csr_apply(const Csr *A, const double *x, double *y)
{
    for (int r = 0; r < A->nrows; r++) {
        double acc = 0.0;
        for (long k = A->start[r]; k < A->start[r + 1]; k++)
            acc += A->val[k] * x[A->col[k]];
        y[r] = acc;
    }
}

struct jds {
    int nrows;
    int *perm, *nzcnt, *jd_ptr, *col;
    double *val;
};

/* y[perm[r]] = sorted row r times x in jagged diagonal storage: every array a struct
 * field, jd_ptr, col and val read only for the rows that have diagonals */
void jds_apply(const struct jds *A, const double *x, double *y)
{
    for (int r = 0; r < A->nrows; r++) {
        double acc = 0.0;
        for (int d = 0; d < A->nzcnt[r]; d++)
            acc += A->val[A->jd_ptr[d] + r] * x[A->col[A->jd_ptr[d] + r]];
        y[A->perm[r]] = acc;
    }
}

struct shift {
    int lo;
    int pad;
};

/* h[v[i] - s->lo]++: the offset is read at every iteration (an int, like the bins) */
void shifted_counts(int n, const int *v, const struct shift *s, int *h)
{
    for (int i = 0; i < n; i++)
        h[v[i] - s->lo]++;
}

struct bias {
    long add;
    long pad;
};

/* out[i] = in[i-1] + 2 in[i] + in[i+1] + b->add, longs all */
void biased_blur(int n, const long *in, const struct bias *b, long *out)
{
    for (int i = 1; i < n - 1; i++)
        out[i] = in[i - 1] + 2 * in[i] + in[i + 1] + b->add;
}

struct grid {
    int rows, cols;
    const float *in;
    float *out;
};

/* a 2D stencil whose arrays are read only when a row has points (the inner loop runs) */
void grid_smooth(struct grid *g)
{
    for (int i = 1; i < g->rows; i++)
        for (int j = 1; j < g->cols; j++)
            g->out[i * g->cols + j] = 0.5f * g->in[i * g->cols + j] +
                                      0.25f * (g->in[(i - 1) * g->cols + j] +
                                               g->in[i * g->cols + j - 1]);
}

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static double value(unsigned *seed)
{
    return (double)(next(seed) % 1000) / 100.0 - 5.0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    int alias = argc > 3 ? atoi(argv[3]) : 0;
    int size = n > 0 ? n : 1;

    /* GEMM: a (n x n-1, ld n+1), b (n-1 x n, ld n), c (n x n, ld n+6). With alias, a's
     * struct lives in the padding at the end of c's first row: no store writes it, but
     * it lies inside the range c's stores span, so the guard must refuse. */
    int inner = n > 1 ? n - 1 : n;
    struct dmat a = {n, inner, size + 1, malloc(sizeof(double) * size * (size + 1))};
    struct dmat b = {inner, n, size, malloc(sizeof(double) * size * size)};
    struct dmat c = {n, n, size + 6, malloc(sizeof(double) * size * (size + 6))};
    for (int t = 0; t < size * (size + 1); t++)
        a.v[t] = value(&seed);
    for (int t = 0; t < size * size; t++)
        b.v[t] = value(&seed);
    for (int t = 0; t < size * (size + 6); t++)
        c.v[t] = -7.0;
    struct dmat *pa = &a;
    if (alias) {
        pa = (struct dmat *)(c.v + size + 1);
        *pa = a;
    }
    dmat_mul(&c, pa, &b);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            sum += c.v[i * c.ld + j] * (double)((i + j) % 7 + 1);
    printf("gemm %.12g\n", sum);
    /* no column to compute: a and b are never read, not even their fields */
    struct dmat empty = {n, 0, size + 6, c.v};
    dmat_mul(&empty, NULL, NULL);
    printf("gemm without columns %.12g\n", c.v[0]);

    /* CSR: a tridiagonal pattern cut at the edges, then a matrix without entries whose
     * arrays are null (the loop never reads them) */
    Csr m = {n, malloc(sizeof(long) * (size + 1)), malloc(sizeof(int) * 3 * size),
             malloc(sizeof(double) * 3 * size)};
    long nnz = 0;
    for (int r = 0; r < n; r++) {
        m.start[r] = nnz;
        for (int d = -1; d <= 1; d++)
            if (r + d >= 0 && r + d < n && (d == 0 || next(&seed) % 3)) {
                m.col[nnz] = r + d;
                m.val[nnz++] = value(&seed);
            }
    }
    m.start[n] = nnz;
    double *x = malloc(sizeof(double) * size), *y = malloc(sizeof(double) * size);
    for (int i = 0; i < size; i++)
        x[i] = value(&seed);
    csr_apply(&m, x, y);
    double ysum = 0.0;
    for (int i = 0; i < n; i++)
        ysum += y[i] * (double)(i % 5 + 1);
    printf("csr %.12g\n", ysum);
    long *zeros = calloc(size + 1, sizeof(long));
    Csr hollow = {n, zeros, NULL, NULL};
    for (int i = 0; i < size; i++)
        y[i] = 1.0;
    csr_apply(&hollow, x, y);
    printf("csr without entries %.12g\n", n > 0 ? y[n - 1] : 0.0);

    /* JDS: sorted rows of 3, 2 and 1 diagonals sent to the rows of y around a gap of 8
     * (with alias, the matrix's struct lives in the gap: inside y's range, never written),
     * then a matrix without diagonals whose jd_ptr, col and val are null */
    int gap = n / 2;
    struct jds jm = {n, malloc(sizeof(int) * size), malloc(sizeof(int) * size),
                     malloc(sizeof(int) * 4), malloc(sizeof(int) * 3 * size),
                     malloc(sizeof(double) * 3 * size)};
    for (int r = 0; r < n; r++) {
        jm.perm[r] = r < gap ? r : r + 8;
        jm.nzcnt[r] = r < n / 3 ? 3 : r < 2 * n / 3 ? 2 : 1;
    }
    jm.jd_ptr[0] = 0;
    for (int d = 0; d < 3; d++) {
        int rows = 0;
        for (int r = 0; r < n; r++)
            rows += jm.nzcnt[r] > d;
        jm.jd_ptr[d + 1] = jm.jd_ptr[d] + rows;
    }
    for (int p = 0; p < jm.jd_ptr[3]; p++) {
        jm.col[p] = (int)(next(&seed) % (unsigned)size);
        jm.val[p] = value(&seed);
    }
    double *yj = malloc(sizeof(double) * (size + 8));
    for (int i = 0; i < size + 8; i++)
        yj[i] = -1.0;
    struct jds *pj = &jm;
    if (alias) {
        pj = (struct jds *)(yj + gap);
        *pj = jm;
    }
    jds_apply(pj, x, yj);
    double jsum = 0.0;
    for (int i = 0; i < n + 8; i++)
        if (i < gap || i >= gap + 8)
            jsum += yj[i] * (double)(i % 5 + 1);
    printf("jds %.12g\n", jsum);
    int *no_diagonals = calloc(size, sizeof(int));
    struct jds jhollow = {n, jm.perm, no_diagonals, NULL, NULL, NULL};
    jds_apply(&jhollow, x, yj);
    printf("jds without diagonals %.12g\n", n > 0 ? yj[jm.perm[n - 1]] + yj[0] : 0.0);

    /* histogram: with alias, the shift lives in the bins (h[3]) and grows as they fill
     * (indices stay in -37 .. 42 around h) */
    int *v = malloc(sizeof(int) * size);
    for (int i = 0; i < size; i++)
        v[i] = 19 + (int)(next(&seed) % 40);
    v[0] = 19; /* bin 3 is always counted */
    int *memory = calloc(128, sizeof(int)), *h = memory + 50;
    struct shift own = {16, 0};
    struct shift *s = alias ? (struct shift *)(h + 3) : &own;
    s->lo = 16;
    shifted_counts(n, v, s, h);
    printf("histogram");
    for (int k = 0; k < 128; k++)
        printf(" %d", memory[k]);
    printf("\n");

    /* stencil: with alias, the bias lives in the output (out[5]) and changes with it */
    long *in = malloc(sizeof(long) * size), *out = calloc(size + 8, sizeof(long));
    for (int i = 0; i < size; i++)
        in[i] = (long)(next(&seed) % 100);
    struct bias own_bias = {3, 0};
    struct bias *bias = alias && n > 7 ? (struct bias *)(out + 5) : &own_bias;
    bias->add = 3;
    biased_blur(n, in, bias, out);
    long total = 0;
    for (int i = 0; i < size + 8; i++)
        total += out[i] * (i % 3 + 1);
    printf("blur %ld\n", total);

    /* 2D stencil, then one on rows of a single point (no array read, both null) */
    int rows = n > 1 ? n / 2 + 1 : n, cols = n > 1 ? n / 3 + 2 : n;
    float *gin = malloc(sizeof(float) * (rows * cols + 1));
    float *gout = calloc(rows * cols + 1, sizeof(float));
    for (int t = 0; t < rows * cols; t++)
        gin[t] = (float)(next(&seed) % 64) * 0.5f;
    struct grid grid = {rows, cols, gin, gout};
    grid_smooth(&grid);
    double gsum = 0.0;
    for (int t = 0; t < rows * cols; t++)
        gsum += (double)gout[t] * (double)(t % 5 + 1);
    printf("grid %.9g\n", gsum);
    struct grid narrow = {rows, 1, NULL, NULL};
    grid_smooth(&narrow);
    printf("narrow grid done\n");
    return 0;
}
