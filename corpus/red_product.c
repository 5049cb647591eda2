// corpus: product reductions: compound growth factor (double) and a wrapping unsigned product (long counter)
// args: test=3000 3 bench=4000000 120
#include <stdio.h>
#include <stdlib.h>

/* growth: product of (1 + r[i]) over the periods [first, last) */
double growth(const double *r, long first, long last)
{
    double g = 1.0;
    for (long i = first; i < last; i++)   // expect: Reduction in growth
        g *= 1.0 + r[i];
    return g;
}

/* odd_product: product of the odd parts of v[i], modulo 2^32 */
unsigned odd_product(const unsigned *v, long n)
{
    unsigned p = 1u;
    for (long i = 0; i < n; i++)   // expect: Reduction in odd_product
        p *= v[i] | 1u;
    return p;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 16)
        n = 16;
    if (iters < 1)
        iters = 1;

    double *r = malloc((size_t)n * sizeof *r);
    unsigned *v = malloc((size_t)n * sizeof *v);
    double *g = malloc((size_t)iters * sizeof *g);
    unsigned *q = malloc((size_t)iters * sizeof *q);
    if (!r || !v || !g || !q)
        return 1;
    unsigned seed = 99u;
    for (long i = 0; i < n; i++) {
        seed = seed * 22695477u + 1u;
        r[i] = ((double)(seed >> 16) - 32767.5) * 1e-9;   /* rates in about +-3.3e-5 */
        v[i] = seed ^ (unsigned)i;
    }

    for (int it = 0; it < iters; it++) {
        g[it] = growth(r, it % 16, n - it % 16);
        q[it] = odd_product(v, n - it % 8);
    }

    double gs = 0.0;
    unsigned qx = 0u;
    for (int it = 0; it < iters; it++) {   // expect: Reduction in main
        gs += g[it];
        qx ^= q[it];
    }
    printf("growth %.10g product %08x\n", g[0], q[0]);
    printf("checksums %.10g %08x\n", gs, qx);
    free(r);
    free(v);
    free(g);
    free(q);
    return 0;
}
