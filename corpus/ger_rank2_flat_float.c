// corpus: GER, rank-2 update A = A + u1*v1^T + u2*v2^T in float on a flat array with a leading dimension, the two products added one after the other (as a Householder-style update is written), repeated
// args: test=64 2 bench=2500 1000
// tolerance: 1e-4 (float32, up to 1000 updates of each element, which OpenBLAS rounds in another order)
#include <stdio.h>
#include <stdlib.h>

void sger2(int m, int n, float *a, int lda, const float *u1, const float *v1,
           const float *u2, const float *v2)
{
    for (int i = 0; i < m; i++)                 // expect: GER in sger2
        for (int j = 0; j < n; j++)
            a[i * lda + j] = a[i * lda + j] + u1[i] * v1[j] + u2[i] * v2[j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 2;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;
    int m = n + n / 4, lda = n + 3;
    float *a = malloc(sizeof(float) * (size_t)m * (size_t)lda);
    float *u1 = malloc(sizeof(float) * (size_t)m), *u2 = malloc(sizeof(float) * (size_t)m);
    float *v1 = malloc(sizeof(float) * (size_t)n), *v2 = malloc(sizeof(float) * (size_t)n);
    if (!a || !u1 || !u2 || !v1 || !v2) return 1;
    for (int t = 0; t < m * lda; t++) a[t] = (float)((t * 3) % 29) / 29.0f - 0.5f;
    for (int i = 0; i < m; i++) {
        u1[i] = (float)((i * 5) % 13) / 13.0f - 0.5f;
        u2[i] = (float)((i * 11) % 7) / 7.0f - 0.5f;
    }
    for (int j = 0; j < n; j++) {
        v1[j] = (float)((j * 3) % 11) / 110.0f - 0.05f;
        v2[j] = (float)((j * 7) % 17) / 170.0f - 0.05f;
    }
    for (int r = 0; r < reps; r++) {
        sger2(m, n, a, lda, u1, v1, u2, v2);
        /* flip the second pair's sign so that repetitions stay bounded */
        for (int j = 0; j < n; j++)   // expect: Map in main
            v2[j] = -v2[j];
    }
    double total = 0.0, pad = 0.0;
    for (int t = 0; t < m * lda; t++) {           // expect: Reduction in main
        total += (t % lda < n) * (double)a[t] * (double)(t % 9 + 1);
        pad += (t % lda >= n) * (double)a[t];
    }
    printf("m n reps = %d %d %d\n", m, n, reps);
    printf("total = %.6e\n", total);
    printf("padding = %.6e\n", pad);
    printf("a[1][2] = %.6e\n", (double)a[lda + 2]);
    free(a); free(u1); free(u2); free(v1); free(v2);
    return 0;
}
