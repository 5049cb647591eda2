// direct: ger_rank2_flat_float.c: sger2's loop nest as two cblas_sger calls
// args: test=64 2 bench=2500 1000
// tolerance: 1e-4 (float32, up to 1000 updates of each element, which OpenBLAS rounds in another order)
#include <stdio.h>
#include <cblas.h>
#include <stdlib.h>

void sger2(int m, int n, float *a, int lda, const float *u1, const float *v1,
           const float *u2, const float *v2)
{
    if (m > 0 && n > 0) {
        cblas_sger(CblasRowMajor, m, n, 1.0f, u1, 1, v1, 1, a, lda);
        cblas_sger(CblasRowMajor, m, n, 1.0f, u2, 1, v2, 1, a, lda);
    }
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
        for (int j = 0; j < n; j++)
            v2[j] = -v2[j];
    }
    double total = 0.0, pad = 0.0;
    for (int t = 0; t < m * lda; t++) {
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
