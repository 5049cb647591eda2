// corpus: Reduction, sums of absolute differences for block matching, the reference pixels read at coordinates clipped to the image, and a 1D filter response with the taps clamped to the array ends
// args: test=64 2 bench=1024 200
#include <stdio.h>
#include <stdlib.h>

/* SAD of the 4x4 block of cur at (bx, by) against ref displaced by (dx, dy); the
   reference coordinates are clipped to the w x h image */
int block_sad(const unsigned short *cur, const unsigned short *ref, int w, int h,
              int bx, int by, int dx, int dy)
{
    int sad = 0;
    for (int y = 0; y < 4; y++) {
        int ry = by + dy + y;
        if (ry < 0) ry = 0;
        if (ry >= h) ry = h - 1;
        for (int x = 0; x < 4; x++) {             // expect: Reduction in block_sad
            int rx = bx + dx + x;
            if (rx < 0) rx = 0;
            if (rx >= w) rx = w - 1;
            sad += abs(cur[(by + y) * w + bx + x] - ref[ry * w + rx]);
        }
    }
    return sad;
}

/* response at i of a 5-tap filter, the taps past either end taking the end value */
double tap_response(const double *a, int n, int i, const double *wt)
{
    double s = 0.0;
    for (int k = 0; k < 5; k++) {                 // expect: Reduction in tap_response
        int j = i + k - 2;
        j = j < 0 ? 0 : j;
        j = j > n - 1 ? n - 1 : j;
        s += wt[k] * a[j];
    }
    return s;
}

int main(int argc, char **argv)
{
    int w = argc > 1 ? atoi(argv[1]) : 64;
    int reps = argc > 2 ? atoi(argv[2]) : 2;
    if (w < 8) w = 8;
    if (reps < 1) reps = 1;
    int h = w / 2;

    unsigned short *cur = malloc((size_t)w * h * sizeof *cur);
    unsigned short *ref = malloc((size_t)w * h * sizeof *ref);
    double *a = malloc((size_t)w * sizeof *a);
    if (!cur || !ref || !a) return 1;
    for (int i = 0; i < w * h; i++) {
        cur[i] = (unsigned short)((i * 7 + (i / w) * 3) % 251);
        ref[i] = (unsigned short)((i * 5 + (i / w) * 11) % 241);
    }
    for (int i = 0; i < w; i++)
        a[i] = (double)((i * 13) % 29) / 29.0;
    const double wt[5] = {0.1, 0.2, 0.4, 0.2, 0.1};

    long total = 0;
    double resp = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int by = 0; by + 4 <= h; by += 4)
            for (int bx = 0; bx + 4 <= w; bx += 4) {
                int best = 1 << 30;
                for (int dy = -2; dy <= 2; dy++)
                    for (int dx = -2; dx <= 2; dx++) {   // expect: Reduction in main
                        int s = block_sad(cur, ref, w, h, bx, by, dx + r, dy);
                        best = s < best ? s : best;
                    }
                total += best;
            }
        for (int i = 0; i < w; i++)   // expect: Reduction in main
            resp += tap_response(a, w, i, wt);
    }
    printf("w = %d h = %d reps = %d\n", w, h, reps);
    printf("total best sad = %ld\n", total);
    printf("response = %.10g\n", resp);
    free(cur);
    free(ref);
    free(a);
    return 0;
}
