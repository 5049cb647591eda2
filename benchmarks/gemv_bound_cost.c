/* What a GEMV's overflow bound costs beside the product (mappers/runtime/idiom_blas.c,
 * docs/acceleration.md "Overflow in a reordered sum"): the bound reads all of A through
 * BLAS's asum, one more read of the matrix beside dgemv's. Build against the OpenBLAS of
 * the scipy-openblas32 wheel and run:
 *
 *   W=$(.venv/bin/python -c "import scipy_openblas32 as w; print(w.get_lib_dir())")/..
 *   clang-22 -O2 -I$W/include benchmarks/gemv_bound_cost.c -L$W/lib -lscipy_openblas \
 *       -Wl,-rpath,$W/lib -lm -o gemv_bound_cost
 *   ./gemv_bound_cost N...
 *
 * For each N (an N x N row-major A): the best of five batches of the plain dgemv, then what
 * the bound adds to it, and what it adds when A is taken in blocks of rows that fit a cache
 * (the sum and the product of each block one after the other, so that the product finds the
 * block cached).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cblas.h>

#define BLAS(name) scipy_##name

static double *a, *x, *y;
static int n;
static long block_rows;
static volatile double sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void plain(void) {
    BLAS(cblas_dgemv)(CblasColMajor, CblasTrans, n, n, 1.0, a, n, x, 1, 0.0, y, 1);
}

static void bounded(void) {
    sink += BLAS(cblas_dasum)((blasint)((long)n * n), a, 1);
    plain();
}

static void blocked(void) {
    for (long i = 0; i < n; i += block_rows) {
        long rows = n - i < block_rows ? n - i : block_rows;
        sink += BLAS(cblas_dasum)((blasint)(rows * n), a + i * n, 1);
        BLAS(cblas_dgemv)(CblasColMajor, CblasTrans, n, (blasint)rows, 1.0, a + i * n, n, x, 1,
                          0.0, y + i, 1);
    }
}

static double best(void (*run)(void), int repeats) {
    double fastest = INFINITY;
    for (int batch = 0; batch < 5; batch++) {
        double start = now();
        for (int r = 0; r < repeats; r++) {
            run();
        }
        fastest = fmin(fastest, (now() - start) / repeats);
    }
    return fastest;
}

int main(int argc, char **argv) {
    for (int arg = 1; arg < argc; arg++) {
        n = atoi(argv[arg]);
        int repeats = (int)(200000000L / ((long)n * n)) + 1;
        a = malloc(sizeof(double) * (size_t)n * (size_t)n);
        x = malloc(sizeof(double) * (size_t)n);
        y = malloc(sizeof(double) * (size_t)n);
        if (a == NULL || x == NULL || y == NULL) {
            return 1;
        }
        for (long t = 0; t < (long)n * n; t++) {
            a[t] = (double)(t % 7) * 0.1;
        }
        for (int t = 0; t < n; t++) {
            x[t] = 1.0;
            y[t] = 0.0;
        }
        double alone = best(plain, repeats);
        double with_bound = best(bounded, repeats);
        printf("n=%5d dgemv %9.4f ms  bound +%4.0f%%", n, 1e3 * alone,
               100.0 * (with_bound - alone) / alone);
        const long cache_kb[] = {64, 256, 1024};
        for (int c = 0; c < 3; c++) {
            block_rows = cache_kb[c] * 1024 / (8L * n);
            block_rows = block_rows < 1 ? 1 : block_rows;
            double in_blocks = best(blocked, repeats);
            printf("  blocks of %4ld KB +%4.0f%%", cache_kb[c], 100.0 * (in_blocks - alone) / alone);
        }
        printf("\n");
        free(a);
        free(x);
        free(y);
    }
    return 0;
}
