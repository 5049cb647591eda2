// corpus: Stencil, 2D 5-point integer smoothing of an image held as pointer-to-pointer rows, row tables swapped between sweeps
// args: test=40 6 bench=2048 1200
#include <stdio.h>
#include <stdlib.h>

/* dst = (4*centre + N + S + E + W) / 8 in integer arithmetic, interior pixels only. */
void smooth_img(int h, int w, int **src, int **dst)
{
    for (int y = 1; y < h - 1; y++) {         // expect: Stencil in smooth_img
        for (int x = 1; x < w - 1; x++)
            dst[y][x] = (4 * src[y][x] + src[y - 1][x] + src[y + 1][x]
                         + src[y][x - 1] + src[y][x + 1]) / 8;
    }
}

int **image_new(int h, int w)
{
    int **rows = malloc((size_t)h * sizeof *rows);
    if (!rows) exit(1);
    for (int y = 0; y < h; y++) {
        rows[y] = malloc((size_t)w * sizeof **rows);
        if (!rows[y]) exit(1);
    }
    return rows;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int iters = argc > 2 ? atoi(argv[2]) : 6;
    if (n < 3) n = 3;
    if (iters < 1) iters = 1;
    int h = n, w = n + 11;

    int **p = image_new(h, w), **q = image_new(h, w);
    unsigned s = 12345u;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            s = s * 1103515245u + 12345u;     /* integer LCG */
            int v = (int)((s >> 16) % 256u);
            p[y][x] = v;
            q[y][x] = v;
        }

    for (int t = 0; t < iters; t++) {
        smooth_img(h, w, p, q);
        int **tmp = p; p = q; q = tmp;
    }

    long total = 0, diag = 0;
    for (int y = 0; y < h; y++) {             // expect: Reduction in main
        total += p[y][w / 2];
        diag += (long)p[y][y] * (y + 1);
    }
    printf("h w = %d %d iters = %d\n", h, w, iters);
    printf("midcol = %ld\n", total);
    printf("diag = %ld\n", diag);
    printf("p[1][1] = %d\n", p[1][1]);
    for (int y = 0; y < h; y++) { free(p[y]); free(q[y]); }
    free(p); free(q);
    return 0;
}
