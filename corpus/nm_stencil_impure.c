// corpus: near-miss Stencil, 2D 5-point sweep that calls an external logging function whenever it clamps a value
// args: test=40 6 bench=1024 400
// near-miss: the loop body calls note_clamp(), which writes global state, so the nest has a side effect besides its stores
#include <stdio.h>
#include <stdlib.h>

long clamp_count;
long clamp_hash;

/* Records one clamped point (side effect on global counters). */
void note_clamp(int i, int j)
{
    clamp_count++;
    clamp_hash = (clamp_hash * 31 + i * 7 + j) % 1000003;
}

/* out = amplified 5-point average, clamped to [-1, 1]; each clamp is reported. */
void sharpen_clamp(int n, const double *in, double *out)
{
    for (int i = 1; i < n - 1; i++) {         // expect-none: Stencil
        for (int j = 1; j < n - 1; j++) {
            double v = 1.4 * in[i * n + j]
                     - 0.1 * (in[(i - 1) * n + j] + in[(i + 1) * n + j]
                              + in[i * n + j - 1] + in[i * n + j + 1]);
            if (v > 1.0) { v = 1.0; note_clamp(i, j); }
            if (v < -1.0) { v = -1.0; note_clamp(i, j); }
            out[i * n + j] = v;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int iters = argc > 2 ? atoi(argv[2]) : 6;
    if (n < 3) n = 3;
    if (iters < 1) iters = 1;
    size_t nn = (size_t)n * (size_t)n;

    double *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b);
    if (!a || !b) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double f = (double)((i * 7 + j * 11) % 19) / 9.5 - 1.0;
            a[i * n + j] = f;
            b[i * n + j] = f;
        }

    for (int t = 0; t < iters; t++) {
        sharpen_clamp(n, a, b);
        double *tmp = a; a = b; b = tmp;
    }

    double sum = 0.0;
    for (size_t k = 0; k < nn; k++)            // expect: Reduction in main
        sum += a[k];
    printf("n = %d iters = %d\n", n, iters);
    printf("sum = %.10g\n", sum);
    printf("clamps = %ld hash = %ld\n", clamp_count, clamp_hash);
    free(a); free(b);
    return 0;
}
