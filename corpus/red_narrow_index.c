// corpus: Reduction, sums over a ring buffer of 256 entries indexed by an 8-bit counter that wraps (for (unsigned char i = head; i != tail; i++)): found, and kept as it is (its addresses are not first + i * stride once the counter wraps)
// args: test=250 40 3 bench=250 200 25000000
#include <stdio.h>
#include <stdlib.h>

/* The samples between head and tail of a 256-entry ring, wrapping past 255. */
long ring_sum(unsigned char head, unsigned char tail, const int *ring)
{
    long sum = 0;
    for (unsigned char i = head; i != tail; i++)   // expect: Reduction in ring_sum
        sum += ring[i];
    return sum;
}

int main(int argc, char **argv)
{
    int head = argc > 1 ? atoi(argv[1]) : 250;
    int count = argc > 2 ? atoi(argv[2]) : 40;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    int *ring = malloc(sizeof(int) * 512);
    /* entries past 255 are never read by the loops: large values that would show it */
    for (int i = 0; i < 512; i++)
        ring[i] = i < 256 ? i % 17 : 100000;
    long total = 0;
    for (int r = 0; r < reps; r++) {   // expect: Reduction in main
        unsigned char from = (unsigned char)(head + r);
        total += ring_sum(from, (unsigned char)(from + count), ring);
    }
    printf("total %ld\n", total);
    free(ring);
    return 0;
}
