/* Stencil shapes beyond one value per point out of place, for the differential tests of
 * the stencil mapper: a row rebuilt in place from the next rows of the same grid (one
 * value per point: replaced, the run-time guard checks that the rows are apart), a cell
 * pushing several values to its neighbours (replaced: the work-item stores them all),
 * the same push under a test of the cell's data (found, not replaced), and two loops that
 * write one element again and again (the guard must keep them on the original code:
 * work-items in any order would leave another value there). */
#include <stdio.h>
#include <stdlib.h>

#define W 96
#define H 40

/* Row 0 from rows 1 and 2 of the same grid: only the counter's constant bounds show
   that the loop never reads what it writes. */
void edge_in_place(float *g)
{
    for (int x = 1; x < W - 1; x++)
        g[x] = 2.0f * g[x + W] - 0.5f * (g[x + 2 * W - 1] + g[x + 2 * W + 1]);
}

/* Each cell of 3 values (the grid is 3 * W * H floats) keeps one and pushes the others to its neighbours. */
void push(const float *src, float *dst)
{
    for (int c = 3 * W; c < 3 * W * (H - 1); c += 3) {
        dst[c] = 0.5f * (src[c] + src[c + 1]);
        dst[c + 3 + 1] = src[c + 1] - 0.25f * src[c + 2];
        dst[c - 3 * W + 2] = src[c + 2] + 0.25f * src[c + 1];
    }
}

/* The same push under a test of the cell's own data: found, not replaced (the kernel
   has no conditional stores). */
void push_flagged(const float *src, float *dst)
{
    for (int c = 3 * W; c < 3 * W * (H - 1); c += 3) {
        if (src[c + 2] > 5.0f) {
            dst[c] = 0.5f * (src[c] + src[c + 1]);
            dst[c + 3 + 1] = src[c + 1] - 0.25f * src[c + 2];
            dst[c - 3 * W + 2] = src[c + 2] + 0.25f * src[c + 1];
        }
    }
}

/* The same element written on every trip: the original leaves the last value there. */
void last_value(int n, const float *a, float *out)
{
    for (int i = 1; i < n - 1; i++)
        out[0] = a[i - 1] + a[i + 1];
}

/* A row written once per row of the nest: the last row's values stay. */
void last_row(int n, const float *a, float *out)
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            out[j] = a[i * n + j - 1] + a[i * n + j + 1] - a[(i - 1) * n + j];
}

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static double checksum(int n, const float *v)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += (double)v[i] * (double)(i % 7 + 1);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    int size = n > 2 ? n : 3;
    float *g = malloc(sizeof(float) * 3 * W * H), *h = malloc(sizeof(float) * 3 * W * H);
    float *a = malloc(sizeof(float) * size * size), *out = malloc(sizeof(float) * size);
    for (int i = 0; i < 3 * W * H; i++) {
        g[i] = (float)(next(&seed) % 1000) / 100.0f;
        h[i] = 0.0f;
    }
    for (int i = 0; i < size * size; i++)
        a[i] = (float)(next(&seed) % 1000) / 100.0f - 5.0f;
    for (int i = 0; i < size; i++)
        out[i] = -1.0f;
    for (int step = 0; step < 3; step++) {
        edge_in_place(g);
        push(g, h);
        edge_in_place(h);
        push(h, g);
    }
    push_flagged(g, h);
    printf("grid %.9g %.9g\n", checksum(3 * W * H, g), checksum(3 * W * H, h));
    last_value(size * size, a, out);
    printf("last value %.9g\n", (double)out[0]);
    last_row(size, a, out);
    printf("last row %.9g\n", checksum(size, out));
    free(g);
    free(h);
    free(a);
    free(out);
    return 0;
}
