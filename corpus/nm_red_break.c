// corpus: sum of a record stream up to its terminator, and a linear search, both leaving the loop early
// near-miss: the loops exit on a value read inside them (break), so their trip count is not fixed when they start
// args: test=1000 3 bench=4000000 400
#include <stdio.h>
#include <stdlib.h>

/* sum_until_sentinel: sum of v[i] up to the first negative value (the end-of-data marker) */
double sum_until_sentinel(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect-none: Reduction
        if (v[i] < 0.0)
            break;
        s += v[i];
    }
    return s;
}

/* find_first: index of the first element equal to key, or -1 */
int find_first(const int *k, int n, int key)
{
    int pos = -1;
    for (int i = 0; i < n; i++) {   // expect-none: Reduction
        if (k[i] == key) {
            pos = i;
            break;
        }
    }
    return pos;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;

    double *v = malloc((size_t)n * sizeof *v);
    int *k = malloc((size_t)n * sizeof *k);
    double *sums = malloc((size_t)iters * sizeof *sums);
    int *where = malloc((size_t)iters * sizeof *where);
    if (!v || !k || !sums || !where)
        return 1;
    for (int i = 0; i < n; i++) {
        v[i] = 0.5 + (double)(i % 7) * 0.25;
        k[i] = (int)(((long)i * 7919) % 100003);
    }
    v[n - n / 8] = -1.0;   /* the terminator */

    for (int it = 0; it < iters; it++) {
        sums[it] = sum_until_sentinel(v + it % 4, n - it % 4);
        where[it] = find_first(k, n, (it * 50021) % 100003);
    }

    double cs = 0.0;
    long ws = 0;
    for (int it = 0; it < iters; it++) {   // expect: Reduction in main
        cs += sums[it];
        ws += where[it];
    }
    printf("sum0 %.10g pos0 %d\n", sums[0], where[0]);
    printf("checksums %.10g %ld\n", cs, ws);
    free(v);
    free(k);
    free(sums);
    free(where);
    return 0;
}
