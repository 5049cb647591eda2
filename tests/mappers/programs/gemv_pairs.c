/* A transposed update and a row dot product sharing one sweep over A (blas.idl's
 * GEMVUpdateWithDot), for the differential tests of mappers/targets/blas.py's GEMV pairs:
 *
 *   gemv_pairs N M SEED MODE
 *
 * Every kernel computes s += A^T r (or alpha A^T r) and q = A p over A (n x m, ld m), or
 * q = A p then s += A^T q; main prints the whole block holding s, q, A, r, p and a spare
 * element.
 * The products' sums are in registers, or kept in memory where the pointers may alias.
 * MODE 0: all separate (each kernel one idiom_gemv2 call making both products);
 *      1: q is s (the guard must decline);
 *      2: p overlaps q (decline: the dot product would read what it writes);
 *      3: s overlaps A (decline). */
#include <stdio.h>
#include <stdlib.h>

/* the dot product in a local, stored after the sweep */
void bicg_local(int n, int m, const double *A, const double *r, const double *p, double *s,
                double *q)
{
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i * m + j];
            t += A[i * m + j] * p[j];
        }
        q[i] = t;
    }
}

/* alpha on the update's factor, the dot product's terms in the other order */
void bicg_scaled(int n, int m, double alpha, const double *A, const double *r,
                 const double *p, double *s, double *q)
{
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        double f = alpha * r[i];
        for (int j = 0; j < m; j++) {
            s[j] += f * A[i * m + j];
            t += p[j] * A[i * m + j];
        }
        q[i] = t;
    }
}

/* float */
void bicg_float(int n, int m, const float *A, const float *r, const float *p, float *s,
                float *q)
{
    for (int i = 0; i < n; i++) {
        float t = 0.0f;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i * m + j];
            t += A[i * m + j] * p[j];
        }
        q[i] = t;
    }
}

/* the dot product's result scaled before it is stored: no pair (the update alone is a
   GEMV the region's second store keeps from being replaced) */
void bicg_dot_scaled(int n, int m, const double *A, const double *r, const double *p,
                     double *s, double *q)
{
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i * m + j];
            t += A[i * m + j] * p[j];
        }
        q[i] = 2.0 * t;
    }
}

/* a row dot product, then a transposed update by it in a second inner loop: tmp = A x,
   y += A^T tmp (restrict: the arrays never overlap, so main calls it in mode 0 only) */
void atax_rows(int n, int m, const double *restrict A, const double *restrict x,
               double *restrict tmp, double *restrict y)
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < m; j++)
            tmp[i] = tmp[i] + A[i * m + j] * x[j];
        for (int j = 0; j < m; j++)
            y[j] = y[j] + A[i * m + j] * tmp[i];
    }
}

/* the dot product kept in q[i] (plain pointers that may alias: loaded and stored on
   every trip beside the update's store) */
void bicg_memory(int n, int m, const double *A, const double *r, const double *p, double *s,
                 double *q)
{
    for (int i = 0; i < n; i++) {
        q[i] = 0.0;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i * m + j];
            q[i] = q[i] + A[i * m + j] * p[j];
        }
    }
}

/* as bicg_memory, q accumulating onto its old value */
void bicg_memory_onto(int n, int m, const double *A, const double *r, const double *p,
                      double *s, double *q)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            s[j] += r[i] * A[i * m + j];
            q[i] += A[i * m + j] * p[j];
        }
}

/* atax_rows with plain pointers: tmp[i] kept in memory, read back on every trip of the
   update */
void atax_memory(int n, int m, const double *A, const double *x, double *tmp, double *y)
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < m; j++)
            tmp[i] = tmp[i] + A[i * m + j] * x[j];
        for (int j = 0; j < m; j++)
            y[j] = y[j] + A[i * m + j] * tmp[i];
    }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    int m = argc > 2 ? atoi(argv[2]) : 4;
    state = argc > 3 ? (unsigned long long)atoll(argv[3]) : 1;
    int mode = argc > 4 ? atoi(argv[4]) : 0;
    /* s (m), q (n), A (n x m), r (n), p (m), spare */
    int total = m + n + n * m + n + m + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    if (!block || !fblock) return 1;
    int at_q = m, at_a = m + n, at_r = m + n + n * m, at_p = at_r + n;
    double *s = block, *q = block + at_q, *A = block + at_a, *r = block + at_r, *p = block + at_p;
    float *fs = fblock, *fq = fblock + at_q, *fA = fblock + at_a, *fr = fblock + at_r,
          *fp = fblock + at_p;
    if (mode == 1) { q = s; fq = fs; }
    if (mode == 2) { p = q + 1; fp = fq + 1; }
    if (mode == 3) { s = A + 1; fs = fA + 1; }
    for (int kernel = 0; kernel < 8; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* positive, so that single-precision sums do not cancel below the tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)(block[t] + 1.25);
        switch (kernel) {
        case 0: bicg_local(n, m, A, r, p, s, q); break;
        case 1: bicg_scaled(n, m, 0.75, A, r, p, s, q); break;
        case 2: bicg_float(n, m, fA, fr, fp, fs, fq); break;
        case 3: bicg_dot_scaled(n, m, A, r, p, s, q); break;
        case 4: if (mode == 0) atax_rows(n, m, A, p, q, s); break;
        case 5: bicg_memory(n, m, A, r, p, s, q); break;
        case 6: bicg_memory_onto(n, m, A, r, p, s, q); break;
        case 7: atax_memory(n, m, A, p, q, s); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, kernel == 2 ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
