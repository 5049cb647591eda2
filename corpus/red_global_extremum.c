// corpus: largest and smallest values kept in globals and replaced under a test, in loops that also store their values elsewhere (so the compiler keeps them in memory)
// args: test=500 bench=3000000 60
#include <stdio.h>
#include <stdlib.h>

int max_blocks;
float min_ratio = 1e30f;

/* count_blocks: the blocks of 64 each size needs, stored, and the largest of them kept */
void count_blocks(int n, const int *sizes, int *blocks)
{
    for (int i = 0; i < n; i++) {   // expect: Reduction in count_blocks
        int b = (sizes[i] + 63) / 64;
        blocks[i] = b;
        if (b > max_blocks)
            max_blocks = b;
    }
}

/* ratios: each a[i] / b[i] stored, and the smallest kept */
void ratios(int n, const float *a, const float *b, float *r)
{
    for (int i = 0; i < n; i++) {   // expect: Reduction in ratios
        float q = a[i] / b[i];
        r[i] = q;
        if (q < min_ratio)
            min_ratio = q;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 1)
        n = 1;
    if (reps < 1)
        reps = 1;
    int *sizes = malloc((size_t)n * sizeof *sizes), *blocks = malloc((size_t)n * sizeof *blocks);
    float *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    float *r = malloc((size_t)n * sizeof *r);
    if (!sizes || !blocks || !a || !b || !r)
        return 1;
    unsigned seed = 31u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        sizes[i] = (int)(seed >> 12) % 100000;
        a[i] = (float)(1 + (seed >> 8) % 1000);
        b[i] = (float)(1 + (seed >> 4) % 997);
    }
    for (int t = 0; t < reps; t++) {
        count_blocks(n, sizes, blocks);
        ratios(n, a, b, r);
    }
    long total = 0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        total += blocks[i];
    printf("max_blocks %d min_ratio %.6e total %ld\n", max_blocks, (double)min_ratio, total);
    free(sizes);
    free(blocks);
    free(a);
    free(b);
    free(r);
    return 0;
}
