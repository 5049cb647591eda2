// corpus: near-miss Histogram, binary searches in a loop that do not end in one update of a bin: a search that places each key in a slot, and one that counts every probe it makes
// args: test=2000 3 bench=4000000 16
// near-miss: place_keys stores the key at the slot found (out[pos] = key, no count), and count_probes adds to a counter at every step of the search, inside the search loop; neither loop adds once to a bin chosen by its data
#include <stdio.h>
#include <stdlib.h>

#define NEDGES 64

/* out[pos] = key[i], pos the number of edges below key[i] */
void place_keys(const int *key, int n, const int *edges, int *out)
{
    for (int i = 0; i < n; i++) {                 // expect-none: Histogram
        int lo = 0, hi = NEDGES;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (edges[mid] <= key[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        out[lo] = key[i];
    }
}

/* probes[mid] counts how often the search for a key looked at edges[mid] */
void count_probes(const int *key, int n, const int *edges, long *probes)
{
    for (int i = 0; i < n; i++) {                 // expect-none: Histogram
        int lo = 0, hi = NEDGES;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            probes[mid] += 1;
            if (edges[mid] <= key[i])
                lo = mid + 1;
            else
                hi = mid;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;
    int *key = malloc((size_t)n * sizeof *key);
    int edges[NEDGES], out[NEDGES + 1];
    long probes[NEDGES];
    if (!key) return 1;
    for (int i = 0; i < n; i++)
        key[i] = (int)(((unsigned)i * 2654435761u >> 9) % 4096);
    for (int e = 0; e < NEDGES; e++) {
        edges[e] = e * 64;
        probes[e] = 0;
    }
    for (int e = 0; e <= NEDGES; e++)
        out[e] = -1;
    for (int r = 0; r < reps; r++) {
        place_keys(key, n, edges, out);
        count_probes(key, n, edges, probes);
    }
    long ps = 0, os = 0;
    for (int e = 0; e < NEDGES; e++)              // expect: Reduction in main
        ps += probes[e] * (e + 1);
    for (int e = 0; e <= NEDGES; e++)             // expect: Reduction in main
        os += out[e];
    printf("n = %d reps = %d\n", n, reps);
    printf("probes = %ld out = %ld\n", ps, os);
    free(key);
    return 0;
}
