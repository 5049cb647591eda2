// corpus: near-miss Histogram, the placement passes of counting sorts: each key's slot is a count taken from its bucket and moved on (out[--pos[key]] = key, out[next[key]++] = key)
// args: test=2000 3 bench=20000000 20
// near-miss: the bucket counts are read while the loop updates them (each update's value says where the key goes), so the order of the updates matters: a scatter, not a histogram
#include <stdio.h>
#include <stdlib.h>

#define NKEYS 128

/* stable counting-sort placement, backwards: pos[k] holds one past the last slot of key k */
void place_down(const int *key, int n, int *pos, int *out)
{
    for (int i = n - 1; i >= 0; i--) {            // expect-none: Histogram
        int k = --pos[key[i]];
        out[k] = key[i];
    }
}

/* forwards: next[k] holds the next free slot of key k */
void place_up(const int *key, int n, int *next, int *out)
{
    for (int i = 0; i < n; i++)                   // expect-none: Histogram
        out[next[key[i]]++] = key[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;

    int *key = malloc((size_t)n * sizeof *key);
    int *out = malloc((size_t)n * sizeof *out);
    int *out2 = malloc((size_t)n * sizeof *out2);
    int count[NKEYS], pos[NKEYS], next[NKEYS];
    if (!key || !out || !out2) return 1;
    for (int i = 0; i < n; i++)
        key[i] = (int)(((unsigned)i * 2654435761u >> 7) % NKEYS);

    long check = 0;
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < NKEYS; k++)
            count[k] = 0;
        for (int i = 0; i < n; i++)               // expect: Histogram in main
            count[key[i]]++;
        int run = 0;
        for (int k = 0; k < NKEYS; k++) {
            next[k] = run;
            run += count[k];
            pos[k] = run;
        }
        place_down(key, n, pos, out);
        place_up(key, n, next, out2);
        for (int i = 0; i < n; i++)               // expect: Reduction in main
            check += (long)(out[i] ^ out2[i]) + out[i] * (long)(i % 7);
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("check = %ld first = %d last = %d\n", check, out[0], out[n - 1]);
    free(key);
    free(out);
    free(out2);
    return 0;
}
