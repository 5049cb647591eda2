// corpus: Stencil, 1D 5-point with loop-invariant weight parameters, float, time loop with pointer swap inside the kernel, spatial loop counting down
// args: test=1000 20 bench=1000000 4000
#include <stdio.h>
#include <stdlib.h>

/* iters sweeps of b[i] = w0*a[i] + w1*(a[i-1]+a[i+1]) + w2*(a[i-2]+a[i+2]);
   the two buffers swap roles after every sweep; returns the buffer holding the result. */
float *diffuse5(int n, int iters, float *a, float *b, float w0, float w1, float w2)
{
    for (int t = 0; t < iters; t++) {
        for (int i = n - 3; i >= 2; i--)       // expect: Stencil in diffuse5
            b[i] = w0 * a[i] + w1 * (a[i - 1] + a[i + 1]) + w2 * (a[i - 2] + a[i + 2]);
        float *tmp = a;
        a = b;
        b = tmp;
    }
    return a;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 50;
    if (n < 5) n = 5;
    if (iters < 1) iters = 1;

    float *a = malloc((size_t)n * sizeof *a);
    float *b = malloc((size_t)n * sizeof *b);
    if (!a || !b) return 1;
    for (int i = 0; i < n; i++) {
        float f = (i % 64) < 32 ? 1.0f : -1.0f;
        a[i] = f;
        b[i] = f;
    }

    float *r = diffuse5(n, iters, a, b, 0.4f, 0.2f, 0.1f);

    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sum += r[i];
        sq += (double)r[i] * r[i];
    }
    printf("n = %d iters = %d\n", n, iters);
    printf("sum = %.6e\n", sum);
    printf("sumsq = %.6e\n", sq);
    printf("r[7] = %.6e\n", (double)r[7]);
    free(a); free(b);
    return 0;
}
