// corpus: Stencil, 2D 9-point on a rectangular flattened grid with an indexing macro, weights as variables, float, pointer swap in the driver
// args: test=48 10 bench=2048 300
#include <stdio.h>
#include <stdlib.h>

#define AT(p, i, j) (p)[(i) * nx + (j)]

/* out = wc*centre + we*(4 edge neighbours) + wd*(4 diagonal neighbours), interior only. */
void blur9(long ny, long nx, const float *in, float *out, float wc, float we, float wd)
{
    for (long i = 1; i < ny - 1; i++) {       // expect: Stencil in blur9
        for (long j = 1; j < nx - 1; j++) {
            AT(out, i, j) = wc * AT(in, i, j)
                + we * (AT(in, i - 1, j) + AT(in, i + 1, j) + AT(in, i, j - 1) + AT(in, i, j + 1))
                + wd * (AT(in, i - 1, j - 1) + AT(in, i - 1, j + 1)
                        + AT(in, i + 1, j - 1) + AT(in, i + 1, j + 1));
        }
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 256;
    long iters = argc > 2 ? atol(argv[2]) : 10;
    if (n < 3) n = 3;
    if (iters < 1) iters = 1;
    long ny = n, nx = n + n / 2;

    float *p = malloc((size_t)(ny * nx) * sizeof *p);
    float *q = malloc((size_t)(ny * nx) * sizeof *q);
    if (!p || !q) return 1;
    for (long i = 0; i < ny; i++)
        for (long j = 0; j < nx; j++) {
            float val = (float)(((i / 8) + (j / 8)) % 2);   /* checkerboard */
            AT(p, i, j) = val;
            AT(q, i, j) = val;
        }

    const float wc = 0.25f, we = 0.125f, wd = 0.0625f;
    for (long t = 0; t < iters; t++) {
        blur9(ny, nx, p, q, wc, we, wd);
        float *tmp = p; p = q; q = tmp;
    }

    double sum = 0.0, sq = 0.0;
    for (long k = 0; k < ny * nx; k++) {      // expect: Reduction in main
        sum += p[k];
        sq += (double)p[k] * p[k];
    }
    printf("ny nx = %ld %ld iters = %ld\n", ny, nx, iters);
    printf("sum = %.6e\n", sum);
    printf("sumsq = %.6e\n", sq);
    printf("p[1][1] = %.6e\n", (double)AT(p, 1, 1));
    free(p); free(q);
    return 0;
}
