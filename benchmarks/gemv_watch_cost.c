/* What the runtime's GEMV costs beside a direct dgemv (docs/acceleration.md "Overflow in a
 * reordered sum", "Bounds remembered while an operand is unchanged"): the overflow bound
 * reads all of A, as much memory as the product, unless it is remembered while A is
 * unchanged (mappers/runtime/idiom_watch.c). Build against the runtime's archive and the
 * OpenBLAS of the scipy-openblas32 wheel:
 *
 *   R=$(.venv/bin/python -c "from mappers.runtime.build import runtime_library as r; \
 *       l = r(); print(l.archive, *l.link_args)")
 *   clang-22 -O2 -Imappers/runtime benchmarks/gemv_watch_cost.c $R -o gemv_watch_cost
 *   ./gemv_watch_cost N...                 (IDIOM_WATCH=0: the bound read at every call)
 *
 * For each N (an N x N row-major A, y = A x, x changed before every call as a solver's
 * is), the best of five batches of: the direct dgemv; idiom_gemv on an unchanged A;
 * idiom_gemv with one element of A stored (its own value) before every call. Prints the
 * time of a direct call and each runtime figure as a ratio to it, and how many bounds the
 * runtime remembered.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cblas.h>

#include "idiom_runtime.h"

#define BLAS(name) scipy_##name

long idiom__watch_recalls(void); /* the runtime's count (hidden, reachable in a static link) */

static double *a, *x, *y;
static int n;
static long calls;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void next_x(void) { x[calls++ % n] += 1e-3; }

static void direct(void) {
    next_x();
    BLAS(cblas_dgemv)(CblasRowMajor, CblasNoTrans, n, n, 1.0, a, n, x, 1, 0.0, y, 1);
}

static void runtime(void) {
    next_x();
    if (idiom_gemv(IDIOM_DOUBLE, n, n, 1.0, a, n, 1, x, 1, 0.0, y, 1) != IDIOM_DONE) {
        fprintf(stderr, "idiom_gemv declined\n");
        exit(1);
    }
}

static void runtime_after_store(void) {
    long at = (calls * 7919) % ((long)n * n);
    ((volatile double *)a)[at] = a[at];
    runtime();
}

static double best(void (*run)(void), int repeats) {
    double fastest = INFINITY;
    for (int batch = 0; batch < 5; batch++) {
        double start = now();
        for (int r = 0; r < repeats; r++) {
            run();
        }
        double took = (now() - start) / repeats;
        fastest = took < fastest ? took : fastest;
    }
    return fastest;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: gemv_watch_cost N...\n");
        return 2;
    }
    for (int arg = 1; arg < argc; arg++) {
        n = atoi(argv[arg]);
        if (n < 64) {
            continue;
        }
        a = malloc(sizeof(double) * (size_t)n * (size_t)n);
        x = malloc(sizeof(double) * (size_t)n);
        y = malloc(sizeof(double) * (size_t)n);
        for (long i = 0; i < (long)n * n; i++) {
            a[i] = (double)(i % 13) / 13.0 - 0.5;
        }
        for (int i = 0; i < n; i++) {
            x[i] = (double)(i % 5) / 5.0;
        }
        int repeats = (int)(2e8 / ((double)n * n)) + 3;
        long before = idiom__watch_recalls();
        double plain = best(direct, repeats);
        double unchanged = best(runtime, repeats);
        long remembered = idiom__watch_recalls() - before;
        double stored = best(runtime_after_store, repeats);
        printf("n=%5d dgemv %9.4f ms  runtime, A unchanged %5.2fx (%ld of %d bounds remembered)"
               "  A stored into before each call %5.2fx\n",
               n, plain * 1e3, unchanged / plain, remembered, 5 * repeats, stored / plain);
        fflush(stdout);
        free(a);
        free(x);
        free(y);
    }
    return 0;
}
