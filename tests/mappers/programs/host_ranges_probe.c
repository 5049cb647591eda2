/* Host loops, each in a function of its own, for the ranges the residency pass bounds before
 * them (mappers/residency/host_ranges.py). The program is linked with probe_runtime.c, a runtime that
 * only records the host accesses. Each case's address is taken (`escaped` below), so the pass
 * cannot know its callers and assumes it entered with device copies around: each loop is
 * preceded either by idiom_host_access_at per array or by idiom_host_access. Each case writes y (y[k] += 1, or y[k] = x[j] + 1 with x[j] = j, so that
 * the value written says which x was read), or writes fields and floats inside y; afterwards
 * every byte written and every x read must lie in a recorded range. One line per case and size:
 *   CASE N bounded|everything ok|MISSED x|y INDEX [wide]
 * "wide": a recorded range reaches outside both arrays (too conservative to be useful).
 */
#include <stdint.h>
#include <stdio.h>

#define SIZE 2048
#define MID 1024 /* where the cases' pointers point: room on both sides */

extern long probe_count;
extern const char *probe_lo[];
extern long probe_bytes[];
extern int probe_everything;
extern int probe_armed;

static double xs[SIZE], ys[SIZE];

/* A reduction, so that the program launches kernels and the pass runs. */
__attribute__((noinline)) double sum(long n, const double *x) {
    double s = 0.0;
    for (long i = 0; i < n; i++) {
        s += x[i];
    }
    return s;
}

__attribute__((noinline)) void up(long n, double *y) {
    for (long i = 0; i < n; i++) {
        y[i] += 1.0;
    }
}

__attribute__((noinline)) void down3(long n, double *y) {
    for (long i = n - 1; i >= 0; i -= 3) {
        y[i] += 1.0;
    }
}

__attribute__((noinline)) void to_zero(long n, double *y) {
    for (long i = n; i > 0; i--) {
        y[i - 1] += 1.0;
    }
}

__attribute__((noinline)) void shifted(long n, double *y) {
    double *p = y - n / 2;
    for (int i = 0; i < (int)n; i++) {
        p[i] += 1.0;
    }
}

__attribute__((noinline)) void strided_read(long n, const double *x, double *y) {
    for (long i = 0; i < n; i++) {
        y[n - 1 - i] = x[2 * i - n] + 1.0;
    }
}

__attribute__((noinline)) void nest(long n, double *y) {
    long rows = n / 5, cols = n % 5, ld = 6;
    for (long r = 0; r < rows; r++) {
        for (long c = 0; c < cols; c++) {
            y[r * ld + c - 3] += 1.0;
        }
    }
}

__attribute__((noinline)) void nest_down(long n, const double *x, double *y) {
    for (long r = n / 4; r > 0; r -= 2) {
        for (int c = 3; c >= 0; c--) {
            y[c * 40 - r] = x[r * 4 + c - 100] + 1.0;
        }
    }
}

__attribute__((noinline)) void triangle(long n, double *y) {
    for (long r = 0; r < n / 8; r++) {
        for (long c = 0; c < r; c++) {
            y[r * 8 + c] += 1.0;
        }
    }
}

__attribute__((noinline)) void unsigned_le(long n, double *y) {
    for (unsigned u = 3; u <= (unsigned)n; u++) {
        y[(long)u - 500] += 1.0;
    }
}

__attribute__((noinline)) void not_equal(long n, double *y) {
    for (long i = n; i != -n; i -= 2) {
        y[i] += 1.0;
    }
}

__attribute__((noinline)) void wraps(long n, double *y) {
    unsigned char from = (unsigned char)(250 + n % 4), to = (unsigned char)(n / 4);
    for (unsigned char c = from; c != to; c++) {
        y[c] += 1.0;
    }
}

__attribute__((noinline)) void short_counter(long n, double *y) {
    for (short s = (short)-n; s < (short)(n / 2); s++) {
        y[s] += 1.0;
    }
}

__attribute__((noinline)) void indexed(long n, const double *x, double *y) {
    for (long i = 0; i < n; i++) {
        long j = (long)x[i] % 7;
        y[j] += 1.0;
    }
}

__attribute__((noinline)) void two_arrays(long n, const double *x, double *y) {
    for (long i = 0; i < n; i++) {
        y[i] = x[i] + 1.0;
        y[i + n] = x[n - i] + 1.0;
    }
}

struct record {
    double a;
    float b;
    int c;
};

__attribute__((noinline)) void fields(long n, double *y) {
    struct record *r = (struct record *)(y + 1);
    for (long i = 0; i < n / 2; i++) {
        r[i].c += 3;
        r[i].b += 1.0f;
    }
}

__attribute__((noinline)) void floats(long n, double *y) {
    float *f = (float *)(y - 8);
    for (long i = n / 3; i >= 0; i--) {
        f[3 * i + 1] += 1.0f;
    }
}

typedef enum { WRITES, READS_X } kind;

static int covered(const void *p, size_t bytes) {
    if (probe_everything) {
        return 1;
    }
    uintptr_t at = (uintptr_t)p;
    for (long r = 0; r < probe_count; r++) {
        uintptr_t lo = (uintptr_t)probe_lo[r];
        if (probe_bytes[r] > 0 && lo <= at && at + bytes <= lo + (uintptr_t)probe_bytes[r]) {
            return 1;
        }
    }
    return 0;
}

static int wide(void) {
    uintptr_t lo = (uintptr_t)xs, hi = (uintptr_t)(ys + SIZE);
    if ((uintptr_t)ys < lo) {
        lo = (uintptr_t)ys, hi = (uintptr_t)(xs + SIZE);
    }
    for (long r = 0; r < probe_count; r++) {
        uintptr_t from = (uintptr_t)probe_lo[r];
        if (probe_bytes[r] <= 0 || from < lo || from + (uintptr_t)probe_bytes[r] > hi) {
            return 1;
        }
    }
    return 0;
}

static void check(const char *name, long n, kind reads) {
    const char *missed = NULL;
    long at = 0;
    const unsigned char *bytes = (const unsigned char *)ys; /* writes of any size */
    for (long k = 0; k < (long)sizeof ys && missed == NULL; k++) {
        if (bytes[k] != 0 && !covered(&bytes[k], 1)) {
            missed = "y", at = k / (long)sizeof ys[0] - MID;
        }
    }
    for (long k = 0; k < SIZE && missed == NULL && reads == READS_X; k++) {
        if (ys[k] != 0.0 && !covered(&xs[(long)ys[k] - 1], sizeof xs[0])) {
            missed = "x", at = (long)ys[k] - 1 - MID;
        }
    }
    printf("%s %ld %s %s", name, n, probe_everything ? "everything" : "bounded",
           missed ? "MISSED" : "ok");
    if (missed) {
        printf(" %s %ld", missed, at);
    }
    printf("%s\n", !probe_everything && wide() ? " wide" : "");
}

static void reset(void) {
    for (long k = 0; k < SIZE; k++) {
        xs[k] = (double)k;
        ys[k] = 0.0;
    }
    probe_count = 0;
    probe_everything = 0;
}

/* Called from outside for all the pass knows (mappers/residency/placement.py `_entered_dirty`).
 * indexed is not: its histogram is replaced, so its own launch (declined by the probe
 * runtime) leaves the copies around, and an escaped function that launches would also
 * bring everything back before it returns. */
void *volatile escaped[] = {
    (void *)up,
    (void *)down3,
    (void *)to_zero,
    (void *)shifted,
    (void *)strided_read,
    (void *)nest,
    (void *)nest_down,
    (void *)triangle,
    (void *)unsigned_le,
    (void *)not_equal,
    (void *)wraps,
    (void *)short_counter,
    (void *)two_arrays,
    (void *)fields,
    (void *)floats,
};

int main(int argc, char **argv) {
    static const long sizes[] = {0, 1, 2, 3, 7, 64, 65, 301};
    double *x = xs + MID, *y = ys + MID;
    printf("sum %g\n", sum(argc, xs));
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        long n = sizes[s];
#define CASE(name, reads, call)                                                                \
    reset();                                                                                   \
    probe_armed = 1;                                                                           \
    call;                                                                                      \
    probe_armed = 0;                                                                           \
    check(name, n, reads)
        CASE("up", WRITES, up(n, y));
        CASE("down3", WRITES, down3(n, y));
        CASE("to_zero", WRITES, to_zero(n, y));
        CASE("shifted", WRITES, shifted(n, y));
        CASE("strided_read", READS_X, strided_read(n, x, y));
        CASE("nest", WRITES, nest(n, y));
        CASE("nest_down", READS_X, nest_down(n, x, y));
        CASE("triangle", WRITES, triangle(n, y));
        CASE("unsigned_le", WRITES, unsigned_le(n, y));
        CASE("not_equal", WRITES, not_equal(n, y));
        CASE("wraps", WRITES, wraps(n, y));
        CASE("short_counter", WRITES, short_counter(n, y));
        CASE("indexed", WRITES, indexed(n, x, y));
        CASE("two_arrays", READS_X, two_arrays(n, x, y));
        CASE("fields", WRITES, fields(n, y));
        CASE("floats", WRITES, floats(n, y));
    }
    return 0;
}
