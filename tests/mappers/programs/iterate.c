/* Iterative kernels for the device-residency tests: a time loop around a stencil, reductions
 * called again and again, and host code that reads or writes the arrays in between.
 * Usage: iterate N STEPS SEED PEEK POKE INDIRECT
 *   PEEK k > 0: the host prints a[0] + a[n-1] every k steps (a read inside the time loop)
 *   POKE k > 0: the host adds 1 to a[n/2] every k steps (a write inside the time loop)
 *   INDIRECT 1: the step is called through a function pointer (its address escapes)
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void smooth(long n, const double *restrict in, double *restrict out) {
    for (long i = 1; i < n - 1; i++) {
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
    }
}

__attribute__((noinline)) double dot(long n, const double *x, const double *y) {
    double sum = 0.0;
    for (long i = 0; i < n; i++) {
        sum += x[i] * y[i];
    }
    return sum;
}

typedef void (*step_fn)(long, const double *restrict, double *restrict);

/* Called through a pointer, so its address escapes: it copies device results back before it
   returns. `smooth` itself is only called directly and leaves them on the device. */
__attribute__((noinline)) static void smooth_by_pointer(long n, const double *restrict in,
                                                        double *restrict out) {
    smooth(n, in, out);
}

static step_fn choose(int indirect) {
    return indirect ? smooth_by_pointer : NULL;
}

int main(int argc, char **argv) {
    if (argc < 7) {
        return 2;
    }
    long n = atol(argv[1]);
    long steps = atol(argv[2]);
    unsigned seed = (unsigned)atol(argv[3]);
    long peek = atol(argv[4]);
    long poke = atol(argv[5]);
    step_fn step = choose(atoi(argv[6]));
    double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    double *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    if (a == NULL || b == NULL) {
        return 1;
    }
    for (long i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = b[i] = (double)(seed >> 16 & 1023) / 1024.0;
    }
    for (long s = 1; s <= steps; s++) {
        if (step != NULL) {
            step(n, a, b);
        } else {
            smooth(n, a, b);
        }
        double *t = a;
        a = b;
        b = t;
        if (peek > 0 && s % peek == 0 && n > 0) {
            printf("step %ld: %.17g\n", s, a[0] + a[n - 1]);
        }
        if (poke > 0 && s % poke == 0 && n > 0) {
            a[n / 2] += 1.0;
        }
    }
    double total = 0.0;
    for (int r = 0; r < 5; r++) {
        total += dot(n, a, b);
    }
    printf("total %.17g\n", total);
    if (n > 0) {
        b[0] += 3.0; /* a host write between two reductions over b */
    }
    printf("again %.17g\n", dot(n, a, b));
    for (long i = 0; i < n; i += (n / 7 > 0 ? n / 7 : 1)) {
        printf("a[%ld] = %.17g b[%ld] = %.17g\n", i, a[i], i, b[i]);
    }
    free(a);
    free(b);
    return 0;
}
