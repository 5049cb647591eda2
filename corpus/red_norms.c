// corpus: L1, L2 and max-abs norms of a float vector (size_t counters, double accumulators, fabsf/fmaxf)
// args: test=2000 3 bench=2000000 400
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* norm1: sum of |x[i]| */
double norm1(const float *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)   // expect: Reduction in norm1
        s += fabsf(x[i]);
    return s;
}

/* norm2: Euclidean norm, sqrt of the sum of squares */
double norm2(const float *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)   // expect: Reduction in norm2
        s += (double)x[i] * (double)x[i];
    return sqrt(s);
}

/* norm_inf: largest |x[i]|, written with fmaxf */
float norm_inf(const float *x, size_t n)
{
    float m = 0.0f;
    for (size_t i = 0; i < n; i++)   // expect: Reduction in norm_inf
        m = fmaxf(m, fabsf(x[i]));
    return m;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    float *x = malloc((n + 16) * sizeof *x);
    double *r1 = malloc((size_t)iters * sizeof *r1);
    double *r2 = malloc((size_t)iters * sizeof *r2);
    float *ri = malloc((size_t)iters * sizeof *ri);
    if (!x || !r1 || !r2 || !ri)
        return 1;
    unsigned seed = 12345u;
    for (size_t i = 0; i < n + 16; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)((int)(seed >> 20) - 2048) / 256.0f;   /* in [-8, 8) */
    }

    for (int it = 0; it < iters; it++) {
        const float *w = x + (it % 16);
        r1[it] = norm1(w, n);
        r2[it] = norm2(w, n);
        ri[it] = norm_inf(w, n);
    }

    double c1 = 0.0, c2 = 0.0;
    for (int it = 0; it < iters; it++) {   // expect: Reduction in main
        c1 += r1[it];
        c2 += r2[it];
    }
    printf("norm1 %.10g norm2 %.10g norminf %.10g\n", r1[0], r2[0], (double)ri[0]);
    printf("sum norm1 %.10g sum norm2 %.10g\n", c1, c2);
    free(x);
    free(r1);
    free(r2);
    free(ri);
    return 0;
}
