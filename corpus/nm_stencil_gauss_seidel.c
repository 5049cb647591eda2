// corpus: in-place Gauss-Seidel sweeps of the 2D Laplace equation on a flattened grid: a stencil marked in place, never replaced
// args: test=40 10 bench=1024 700
#include <stdio.h>
#include <stdlib.h>

/* One Gauss-Seidel sweep: each interior point becomes the mean of its four neighbours,
   updating u in place, so the north and west neighbours are already new values. */
void gs_sweep(int n, double *u)
{
    for (int i = 1; i < n - 1; i++) {         // expect: Stencil in gs_sweep (in place)
        for (int j = 1; j < n - 1; j++)
            u[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j]
                                   + u[i * n + j - 1] + u[i * n + j + 1]);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int iters = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 3) n = 3;
    if (iters < 1) iters = 1;

    double *u = malloc((size_t)n * (size_t)n * sizeof *u);
    if (!u) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            u[i * n + j] = (j == n - 1) ? 1.0 : (double)((i + j) % 3) * 0.1;

    for (int t = 0; t < iters; t++)
        gs_sweep(n, u);

    double sum = 0.0, wsum = 0.0;
    for (int k = 0; k < n * n; k++) {          // expect: Reduction in main
        sum += u[k];
        wsum += u[k] * (double)(k % 17);
    }
    printf("n = %d iters = %d\n", n, iters);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("u[1][1] = %.10g\n", u[n + 1]);
    free(u);
    return 0;
}
