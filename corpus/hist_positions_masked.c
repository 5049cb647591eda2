// corpus: masked histograms binned by the sample's own position: only the samples that pass a test are counted, their bin from the loop counter and a value read only for them
// args: test=20000 2 bench=8000000 40
#include <stdio.h>
#include <stdlib.h>

#define SEGMENTS 64
#define LANES 4

/* position_profile: each sample above the cut counted in the segment of the run it lies in,
   moved by its own jitter (read only for the samples counted) */
void position_profile(const int *quality, const int *jitter, int n, int cut, int shift, int *h)
{
    for (int i = 0; i < n; i++)   // expect: Histogram in position_profile
        if (quality[i] > cut)
            h[(i >> shift) + jitter[i]]++;
}

/* even_lanes: every other sample from `start`, if its flag is set, counted by its place in
   a cycle of SEGMENTS and the lane its tag gives */
void even_lanes(const int *flag, const int *tag, int start, int n, long *h)
{
    for (int i = start; i < n; i += 2)   // expect: Histogram in even_lanes
        if (flag[i] != 0)
            h[((i >> 1) % SEGMENTS) * LANES + (tag[i] & (LANES - 1))] += 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 64)
        n = 64;
    if (iters < 1)
        iters = 1;

    int shift = 0;
    while ((n >> shift) > SEGMENTS)
        shift++;
    int *quality = malloc((size_t)n * sizeof *quality);
    int *jitter = malloc((size_t)n * sizeof *jitter);
    int *flag = malloc((size_t)n * sizeof *flag);
    int *tag = malloc((size_t)n * sizeof *tag);
    int profile[SEGMENTS + 2] = { 0 };
    long lanes[SEGMENTS * LANES] = { 0 };
    if (!quality || !jitter || !flag || !tag)
        return 1;
    unsigned seed = 29u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        /* the samples of the first and last eighth never pass: the counted ones lie between */
        int inside = i >= n / 8 && i < n - n / 8;
        quality[i] = inside ? (int)((seed >> 8) % 100u) : -1;
        jitter[i] = (int)((seed >> 3) % 3u);   /* 0, 1 or 2 */
        flag[i] = (int)((seed >> 12) & 1u) && i > 5;
        tag[i] = (int)(seed >> 16);
    }

    for (int it = 0; it < iters; it++) {
        position_profile(quality, jitter, n, 40, shift, profile);
        even_lanes(flag, tag, 3, n, lanes);
    }

    long weighted = 0, total = 0;
    for (int b = 0; b < SEGMENTS + 2; b++)   // expect: Reduction in main
        weighted += (long)profile[b] * (b + 1);
    for (int b = 0; b < SEGMENTS * LANES; b++)   // expect: Reduction in main
        total += lanes[b] * (b % 7 + 1);
    printf("profile[%d] %d profile[%d] %d weighted %ld\n", SEGMENTS / 8, profile[SEGMENTS / 8],
           SEGMENTS / 2, profile[SEGMENTS / 2], weighted);
    printf("lanes[0] %ld lanes[%d] %ld total %ld\n", lanes[0], SEGMENTS * LANES - 1,
           lanes[SEGMENTS * LANES - 1], total);
    free(quality);
    free(jitter);
    free(flag);
    free(tag);
    return 0;
}
