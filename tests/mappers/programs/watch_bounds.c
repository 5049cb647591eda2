/* The GEMV overflow bound of a matrix, remembered while the matrix is unchanged
 * (mappers/runtime/idiom_watch.c), must be forgotten whatever writes the matrix.
 *
 * Each case calls idiom_gemv on a matrix of small entries until its bound is remembered,
 * then writes huge entries that cancel along a row (+-0.6 * DBL_MAX) in one way, and calls
 * it again: the call must decline (some order of those sums overflows), which it does only
 * if the bound was read again. A stale bound would let BLAS run: the case prints "made".
 * Prints one line per case; IDIOM_STATS counts the bounds remembered (0 where the kernel
 * cannot watch memory).
 *
 * Usage: watch_bounds SCRATCH_FILE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "idiom_runtime.h"

/* The runtime's count of remembered values (hidden, reachable in a static link). */
long idiom__watch_recalls(void);

#define N 512 /* 2 MiB of doubles: above the size from which bounds are remembered */

static double x[N], y[N];

static int gemv_rows(double *a, int64_t rows) {
    return idiom_gemv(IDIOM_DOUBLE, rows, N, 1.0, a, N, 1, x, 1, 0.0, y, 1);
}

static void fill_small(double *a) {
    for (int64_t i = 0; i < (int64_t)N * N; i++) {
        a[i] = (double)(i % 7) - 3.0;
    }
}

/* Four calls on `rows` rows of a, each of which must be made: from the third on, the bound
   is remembered where the kernel can watch memory. How many were remembered, -1 if a call
   was not made. */
static long settle(double *a, int64_t rows) {
    long before = idiom__watch_recalls();
    for (int call = 0; call < 4; call++) {
        if (gemv_rows(a, rows) != IDIOM_DONE) {
            return -1;
        }
    }
    return idiom__watch_recalls() - before;
}

static const double huge_pair[2] = {0.6 * DBL_MAX, -0.6 * DBL_MAX};

static void report(const char *name, long remembered, double *a, int64_t rows) {
    int status = gemv_rows(a, rows);
    printf("%s: %s, remembered %ld\n", name, status == IDIOM_DECLINED ? "declined" : "made",
           remembered);
}

/* Each way of writing puts the two huge values into row `row` at column `col`. */
static void by_store(double *a, int64_t at) {
    a[at] = huge_pair[0];
    a[at + 1] = huge_pair[1];
}

static void by_read(double *a, int64_t at, const char *scratch) {
    int fd = open(scratch, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, huge_pair, sizeof huge_pair) != (ssize_t)sizeof huge_pair ||
        lseek(fd, 0, SEEK_SET) != 0 || read(fd, a + at, sizeof huge_pair) != sizeof huge_pair) {
        perror("scratch file");
        exit(2);
    }
    close(fd);
}

static void one_case(const char *name, double *a, int64_t at, const char *scratch) {
    fill_small(a);
    long remembered = settle(a, N);
    if (strcmp(name, "system call") == 0) {
        by_read(a, at, scratch);
    } else if (strcmp(name, "memcpy") == 0) {
        memcpy(a + at, huge_pair, sizeof huge_pair);
    } else {
        by_store(a, at);
    }
    report(name, remembered, a, N);
}

/* A forked child writes its copy and calls: the parent's watch is not the child's. */
static void in_child(double *a) {
    fill_small(a);
    long remembered = settle(a, N);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        by_store(a, 5 * N);
        report("forked child", remembered, a, N);
        fflush(stdout);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    report("parent after child", remembered, a, N); /* unchanged here: "made" is right */
}

/* Two remembered bounds over shared pages (all rows, the first half): a write to the shared
   part, then the whole matrix asked first, whose bound is read again and its pages protected
   again; the half must not take that protection for "unchanged". */
static void overlapping(double *a) {
    fill_small(a);
    long whole = settle(a, N);
    long half = settle(a, N / 2);
    whole += settle(a, N);
    by_store(a, 10 * N);
    report("overlapping: whole", whole, a, N);
    report("overlapping: half", half, a, N / 2);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: watch_bounds SCRATCH_FILE\n");
        return 2;
    }
    for (int i = 0; i < N; i++) {
        x[i] = 1.0;
    }
    /* a matrix of its own for each case (a matrix found rewritten between calls is no longer
       watched), all alive to the end, rows off page boundaries */
    enum { CASES = 7 };
    double *heap[CASES];
    double *a[CASES];
    for (int c = 0; c < CASES; c++) {
        heap[c] = malloc(sizeof(double) * N * N + 64);
        a[c] = heap[c] + 3;
    }
    one_case("store", a[0], 7 * N + 100, argv[1]);
    one_case("system call", a[1], 9 * N + 4, argv[1]);
    one_case("memcpy", a[2], 300 * N, argv[1]);
    one_case("first partial page", a[3], 0, argv[1]);
    one_case("last partial page", a[4], (int64_t)N * N - 2, argv[1]);
    in_child(a[5]);
    overlapping(a[6]);
    for (int c = 0; c < CASES; c++) {
        free(heap[c]);
    }
    return 0;
}
