// corpus: near-miss SYRK, covariance-style triangles of data^T * data finished in ways that are no SYRK with a division and a mirror: a divisor that changes with the row, a mirror storing another value, a mirror into another matrix, and a mirror before the division
// args: test=40 30 bench=1000 720
// near-miss: cov_row_norm divides each row of the triangle by its own norm[i] (not one value for the whole nest); cov_mirror_twice and cov_mirror_plus store at the mirror a value other than the element (2 * C[i][j], s + 1), and cov_mirror_undivided copies the sum kept in C to the mirror before dividing it; cov_mirror_other stores the mirror into a second matrix D; in each, the j loop is no GEMV either (a second store, down column i), and the inner dot product is a Reduction
#include <stdio.h>
#include <stdlib.h>

/* Centres the columns of the n x m row-major data in place. */
void center_columns(int n, int m, double *data)
{
    for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)            // expect: Reduction in center_columns
            s += data[k * m + j];
        double mean = s / (double)n;
        for (int k = 0; k < n; k++)   // expect: Map in center_columns
            data[k * m + j] -= mean;
    }
}

/* Each row i of the upper triangle divided by its own norm[i]. */
void cov_row_norm(int n, int m, const double *data, const double *norm, double *C)
{
    /* not a SYRK with a division: the divisor changes from row to row */
    for (int i = 0; i < m; i++) {              // expect-none: SYRK
        for (int j = i; j < m; j++) {          // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < n; k++)        // expect: Reduction in cov_row_norm
                s += data[k * m + i] * data[k * m + j];
            C[i * m + j] = s / norm[i];
            C[j * m + i] = C[i * m + j];
        }
    }
}

/* The mirror holds twice the element. */
void cov_mirror_twice(int n, int m, const double *data, double d, double *C)
{
    /* not a SYRK with a mirror: the mirror stores 2 * C[i][j], not C[i][j] */
    for (int i = 0; i < m; i++) {              // expect-none: SYRK
        for (int j = i; j < m; j++) {          // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < n; k++)        // expect: Reduction in cov_mirror_twice
                s += data[k * m + i] * data[k * m + j];
            C[i * m + j] = s / d;
            C[j * m + i] = 2.0 * C[i * m + j];
        }
    }
}

/* The mirror holds the undivided sum plus one. */
void cov_mirror_plus(int n, int m, const double *data, double d, double *C)
{
    /* not a SYRK with a mirror: the mirror stores s + 1.0, neither the element nor s */
    for (int i = 0; i < m; i++) {              // expect-none: SYRK
        for (int j = i; j < m; j++) {          // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < n; k++)        // expect: Reduction in cov_mirror_plus
                s += data[k * m + i] * data[k * m + j];
            C[i * m + j] = s / d;
            C[j * m + i] = s + 1.0;
        }
    }
}

/* The sum kept in C, its mirror copied before the division: the mirror keeps the sum. */
void cov_mirror_undivided(int n, int m, const double *data, double d, double *C)
{
    /* not a SYRK with a division and a mirror: the mirror is stored before C[i][j] is
       divided, so the two triangles differ by the factor d */
    for (int i = 0; i < m; i++) {              // expect-none: SYRK
        for (int j = i; j < m; j++) {          // expect-none: GEMV
            C[i * m + j] = 0.0;
            for (int k = 0; k < n; k++)        // expect: Reduction in cov_mirror_undivided
                C[i * m + j] += data[k * m + i] * data[k * m + j];
            C[j * m + i] = C[i * m + j];
            C[i * m + j] /= d;
        }
    }
}

/* The mirror goes into a second matrix D. */
void cov_mirror_other(int n, int m, const double *data, double d, double *C, double *D)
{
    /* not a SYRK with a mirror: the mirror store writes D, not C */
    for (int i = 0; i < m; i++) {              // expect-none: SYRK
        for (int j = i; j < m; j++) {          // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < n; k++)        // expect: Reduction in cov_mirror_other
                s += data[k * m + i] * data[k * m + j];
            C[i * m + j] = s / d;
            D[j * m + i] = s;
        }
    }
}

/* sum and weighted sum of the upper triangle (diagonal included) and of the strictly
   lower one, printed under a label */
void report(const char *label, int m, const double *C)
{
    double up = 0.0, wup = 0.0, lo = 0.0, wlo = 0.0;
    for (long t = 0; t < (long)m * m; t++) {   // expect: Reduction in report
        long i = t / m, j = t % m;
        double in_upper = (double)(j >= i);
        up += in_upper * C[t];
        wup += in_upper * C[t] * (double)(1 + (i + 2 * j) % 5);
        lo += (1.0 - in_upper) * C[t];
        wlo += (1.0 - in_upper) * C[t] * (double)(1 + (j + 2 * i) % 5);
    }
    printf("%s: upper = %.10g  weighted = %.10g  strictly lower = %.10g  weighted = %.10g\n",
           label, up, wup, lo, wlo);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    int m = argc > 2 ? atoi(argv[2]) : 120;
    if (n < 4) n = 4;
    if (m < 2) m = 2;
    size_t nm = (size_t)n * (size_t)m, mm = (size_t)m * (size_t)m;

    double *data = malloc(nm * sizeof *data), *unit = malloc(nm * sizeof *unit);
    double *norm = malloc((size_t)m * sizeof *norm);
    double *C = malloc(mm * sizeof *C), *D = malloc(mm * sizeof *D);
    if (!data || !unit || !norm || !C || !D) return 1;

    /* a factor shared by an observation's variables plus an LCG noise */
    unsigned int seed = 777u;
    for (int k = 0; k < n; k++) {
        double f = (double)((k * 31) % 83) / 83.0;
        for (int j = 0; j < m; j++) {
            seed = seed * 1103515245u + 12345u;
            data[k * m + j] = f + 0.5 * (double)((seed >> 16) & 511u) / 512.0 + 0.1 * (double)(j % 3);
        }
    }
    center_columns(n, m, data);
    for (int i = 0; i < m; i++)
        norm[i] = 1.0 + 0.01 * (double)(i % 13);

    /* the columns scaled to unit variance, for the correlation */
    for (int j = 0; j < m; j++) {
        double ss = 0.0;
        for (int k = 0; k < n; k++)            // expect: Reduction in main
            ss += data[k * m + j] * data[k * m + j];
        double scale = ss > 0.0 ? 1.0 / __builtin_sqrt(ss / (double)(n - 1)) : 1.0;
        for (int k = 0; k < n; k++)   // expect: Map in main
            unit[k * m + j] = data[k * m + j] * scale;
    }

    double d = (double)(n - 1);
    printf("n m = %d %d\n", n, m);
    cov_row_norm(n, m, data, norm, C);
    report("row norm", m, C);
    cov_mirror_twice(n, m, data, d, C);
    report("mirror twice", m, C);
    cov_mirror_plus(n, m, data, d, C);
    report("mirror plus", m, C);
    cov_mirror_undivided(n, m, data, d, C);
    report("mirror undivided", m, C);
    for (size_t t = 0; t < mm; t++) {
        C[t] = 0.25;
        D[t] = 0.5;
    }
    cov_mirror_other(n, m, data, d, C, D);
    report("mirror other C", m, C);
    report("mirror other D", m, D);
    double usum = 0.0;
    for (size_t t = 0; t < (size_t)n * (size_t)m; t++)   // expect: Reduction in main
        usum += unit[t] * (double)(1 + t % 7);
    printf("unit-variance data, weighted = %.10g\n", usum);
    free(data); free(unit); free(norm); free(C); free(D);
    return 0;
}
