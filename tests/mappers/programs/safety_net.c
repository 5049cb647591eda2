/* The safety net of device residency (runtime/idiom_guard.c): a program that calls the runtime
 * directly and touches device-held arrays on the host WITHOUT idiom_host_access, as a program
 * would where the compiler's placement missed an access. Each case prints "ok" or what it saw.
 *
 *   safety_net CASE N OFFSET [malloc]
 *
 * CASE: read | write | edges | repeat | segv; N doubles; OFFSET doubles into a page-aligned
 * block (0: the array starts on a page), or with `malloc` into a block of malloc's own (of
 * 128 KiB or more, glibc maps it alone: its partial pages are protected too).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idiom_runtime.h"

static const char *scale_source =
    "#define in ((__global const double*)(in_mem + in_at))\n"
    "#define out ((__global double*)(out_mem + out_at))\n"
    "__kernel void scale(__global const char* in_mem, long in_at, __global char* out_mem,\n"
    "                    long out_at, long n) {\n"
    "    long i = get_global_id(0);\n"
    "    if (i < n) out[i] = 2.0 * in[i];\n"
    "}\n";

/* b = 2 a on the device, both arrays resident. */
static int scale(double *a, double *b, long n) {
    int64_t global = n;
    idiom_arg args[3] = {{IDIOM_ARG_IN, IDIOM_ARG_RESIDENT, a, (int64_t)(8 * n)},
                         {IDIOM_ARG_OUT, IDIOM_ARG_RESIDENT, b, (int64_t)(8 * n)},
                         {IDIOM_ARG_SCALAR, 0, &n, 8}};
    return idiom_cl_run(scale_source, "scale", 1, &global, NULL, n, 3, args);
}

static int check(const double *b, const double *a, long n, const char *what) {
    for (long i = 0; i < n; i++) {
        if (b[i] != 2.0 * a[i]) {
            printf("%s: b[%ld] = %g, expected %g\n", what, i, b[i], 2.0 * a[i]);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        return 2;
    }
    const char *which = argv[1];
    long n = atol(argv[2]);
    long offset = atol(argv[3]);
    idiom_residency_on();
    int own_block = argc > 4 && strcmp(argv[4], "malloc") == 0;
    size_t bytes = (size_t)(8 * (n + offset) + 4096) & ~(size_t)4095;
    double *block_a = own_block ? malloc(bytes) : aligned_alloc(4096, bytes);
    double *block_b = own_block ? malloc(bytes) : aligned_alloc(4096, bytes);
    double *a = block_a + offset;
    double *b = block_b + offset;
    for (long i = 0; i < n; i++) {
        a[i] = (double)i;
        b[i] = -1.0;
    }
    if (scale(a, b, n) != 0) {
        printf("launch declined\n");
        return 1;
    }
    int bad = 0;
    if (strcmp(which, "read") == 0) { /* the device's results, read with no host access */
        bad = check(b, a, n, "read");
    } else if (strcmp(which, "write") == 0) { /* the host writes an input the device holds */
        for (long i = 0; i < n; i++) {
            a[i] = (double)(3 * i + 1);
        }
        bad = scale(a, b, n) != 0 || check(b, a, n, "write");
    } else if (strcmp(which, "edges") == 0) { /* only the first and last elements change */
        a[0] = 1000.0;
        a[n - 1] = 2000.0;
        bad = scale(a, b, n) != 0 || check(b, a, n, "edges");
    } else if (strcmp(which, "repeat") == 0) { /* launches on data already there */
        bad = scale(a, b, n) != 0 || scale(a, b, n) != 0;
    } else if (strcmp(which, "segv") == 0) { /* a real fault still ends the program */
        volatile double *nowhere = (volatile double *)(uintptr_t)8;
        printf("%g\n", *nowhere);
    }
    idiom_host_access();
    if (!bad) {
        bad = check(b, a, n, "after the host access");
    }
    printf(bad ? "wrong\n" : "ok\n");
    return bad;
}
