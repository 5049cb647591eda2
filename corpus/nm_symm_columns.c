// corpus: near-miss SYMM by the columns of C (A on the right, symmetric, its upper triangle read): the scaling after the sums, and the sums into another matrix
// args: test=21 17 bench=400 300
// near-miss: `scale_after` multiplies each column by beta after adding the products (C = beta (C + B A): beta scales the products too), and `sums_elsewhere` scales C but adds the products into D: neither is C = alpha B A + beta C. Each column's pieces are still a Map and two GEMVs.
#include <stdio.h>
#include <stdlib.h>

void scale_after(int m, int n, double alpha, double beta, double *c, const double *a,
                 const double *b)
{
    for (int j = 0; j < n; j++) {               // expect-none: SYMM
        for (int k = 0; k < j; k++) {           // expect: GEMV in scale_after
            double t = alpha * a[k * n + j];
            for (int i = 0; i < m; i++)
                c[i * n + j] += t * b[i * n + k];
        }
        for (int k = j; k < n; k++) {           // expect: GEMV in scale_after
            double t = alpha * a[j * n + k];
            for (int i = 0; i < m; i++)
                c[i * n + j] += t * b[i * n + k];
        }
        for (int i = 0; i < m; i++)             // expect: Map in scale_after
            c[i * n + j] = beta * c[i * n + j];
    }
}

void sums_elsewhere(int m, int n, double alpha, double beta, double *c, double *d,
                    const double *a, const double *b)
{
    for (int j = 0; j < n; j++) {               // expect-none: SYMM
        for (int i = 0; i < m; i++)             // expect: Map in sums_elsewhere
            c[i * n + j] = beta * c[i * n + j];
        for (int k = 0; k < j; k++) {           // expect: GEMV in sums_elsewhere
            double t = alpha * a[k * n + j];
            for (int i = 0; i < m; i++)
                d[i * n + j] += t * b[i * n + k];
        }
        for (int k = j; k < n; k++) {           // expect: GEMV in sums_elsewhere
            double t = alpha * a[j * n + k];
            for (int i = 0; i < m; i++)
                d[i * n + j] += t * b[i * n + k];
        }
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 60;
    int n = argc > 2 ? atoi(argv[2]) : 50;
    if (m < 1) m = 1;
    if (n < 1) n = 1;
    double *a = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double *c = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double *d = malloc(sizeof(double) * (size_t)m * (size_t)n);
    if (!a || !b || !c || !d) return 1;
    for (int r = 0; r < n; r++)
        for (int q = 0; q < n; q++)
            a[r * n + q] = q >= r ? (double)((r * 3 + q) % 11 + 1) / (11.0 * n) : 99.0;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < n; k++) {
            b[i * n + k] = (double)((i + k * 4) % 9) * 0.125 - 0.5;
            c[i * n + k] = (double)((i * 3 + k) % 5) * 0.25;
            d[i * n + k] = (double)((i + k) % 3) - 1.0;
        }

    scale_after(m, n, 0.5, 0.75, c, a, b);
    sums_elsewhere(m, n, 1.5, 0.5, c, d, a, b);

    double sc = 0.0, sd = 0.0;
    for (int t = 0; t < m * n; t++) {           // expect: Reduction in main
        sc += c[t] * (double)(1 + t % 4);
        sd += d[t];
    }
    printf("m n = %d %d\n", m, n);
    printf("sum c = %.10g\n", sc);
    printf("sum d = %.10g\n", sd);
    printf("c[0][0] = %.10g  d[m-1][n-1] = %.10g\n", c[0], d[(m - 1) * n + n - 1]);
    free(a);
    free(b);
    free(c);
    free(d);
    return 0;
}
