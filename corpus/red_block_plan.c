// corpus: Reduction, the work plan of a batched integral code (Parboil rpes's shape): for each quadruple of shells, the count of integrals (a product of four sizes) summed, the blocks it needs summed into a file-scope total and their maximum kept in a file-scope global under a test, while the loop also writes each quadruple's first block and block count into a plan
// args: test=5 bench=150 40
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 64

struct span {
    int first, count;
};

int total_blocks, max_blocks;

/* The plan of one row of quadruples (a, b, c, d) for d = c..n-1: returns the integrals. */
long plan_row(int n, const int *sizes, int a, int b, int c, struct span *plan, int *next)
{
    long integrals_sum = 0;
    int first = *next;
    for (int d = c; d < n; d++) {   // expect: Reduction in plan_row
        int integrals = sizes[a] * sizes[b] * sizes[c] * sizes[d];
        integrals_sum += integrals;
        int blocks = (integrals + BLOCK - 1) / BLOCK;
        total_blocks += blocks;
        if (blocks > max_blocks)
            max_blocks = blocks;
        plan[d].first = first;
        plan[d].count = blocks;
        first += blocks;
    }
    *next = first;
    return integrals_sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    int repeats = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 1 || repeats < 1)
        return 1;
    int *sizes = malloc(sizeof(int) * (size_t)n);
    struct span *plan = malloc(sizeof(struct span) * (size_t)n);
    unsigned seed = 12345u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        sizes[i] = 1 + (int)(seed >> 16 & 7);
    }
    long integrals = 0;
    long checksum = 0;
    for (int r = 0; r < repeats; r++) {
        int next = 0;
        total_blocks = 0;
        max_blocks = 0;
        for (int a = 0; a < n; a++)
            for (int b = a; b < n; b++)
                for (int c = b; c < n; c++) {
                    integrals += plan_row(n, sizes, a, b, c, plan, &next);
                    checksum += plan[n - 1].first + plan[c].count;
                }
    }
    printf("integrals %ld blocks %d max %d checksum %ld\n", integrals, total_blocks, max_blocks,
           checksum);
    free(sizes);
    free(plan);
    return 0;
}
