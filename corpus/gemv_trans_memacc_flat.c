// corpus: GEMV, transposed x2 = beta*x2 + A^T y2 summed in x2[i] itself (memory accumulator), float, flat array with computed column index a[j*n + i], external kernel
// args: test=64 2 bench=2000 700
// tolerance: 1e-4 (float32: each x2[i] sums up to 2000 products, which OpenBLAS sgemv adds in another order; about 3e-7 apart seen)
#include <stdio.h>
#include <stdlib.h>

/* x2 = beta * x2 + A^T y2, A n x n row-major: x2[i] walks down column i of A. The
   pointers may alias, so the running sum stays in x2[i]. */
void mv_trans_update(int n, float beta, const float *a, const float *y2, float *x2)
{
    for (int i = 0; i < n; i++) {              // expect: GEMV in mv_trans_update
        x2[i] *= beta;
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y2[j];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;

    float *a = malloc((size_t)n * (size_t)n * sizeof *a);
    float *y2 = malloc((size_t)n * sizeof *y2);
    float *x2 = malloc((size_t)n * sizeof *x2);
    if (!a || !y2 || !x2) return 1;
    for (int j = 0; j < n; j++) {
        y2[j] = (float)(j % 5 + 1) * 0.125f;
        for (int i = 0; i < n; i++)
            a[j * n + i] = (float)((i * 11 + j * 4) % 17) / 17.0f - 0.2f;
    }
    for (int i = 0; i < n; i++)
        x2[i] = (float)(i % 3);

    /* With beta = 1/2 the repetitions converge to x2 = 2 A^T y2: the values stay bounded
       and the rounding of earlier repetitions is halved away by the later ones. */
    for (int r = 0; r < reps; r++)
        mv_trans_update(n, 0.5f, a, y2, x2);

    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sum += x2[i];
        sq += (double)x2[i] * x2[i];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum = %.10g\n", sum);
    printf("sq = %.10g\n", sq);
    printf("x2[0] = %.10g\n", (double)x2[0]);
    printf("x2[n-1] = %.10g\n", (double)x2[n - 1]);
    free(a); free(y2); free(x2);
    return 0;
}
