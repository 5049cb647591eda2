/* Reductions of every kind the generated kernels fold: integer sums that wrap around,
   products, sums of magnitudes, a sum under two tests of the counter, bitwise folds, minima
   and maxima of integers (a select and the min/max intrinsics clang makes of it) and of
   floating-point values, a count under a test, counts
   under unsigned orders of signed values (negative ones read as large), and the largest of
   longs read as unsigned and converted to double, the largest of values rounded up and
   towards zero, sums and products of a literal.
   Arguments: n, mode (0 small values, 1 values whose sum and product wrap around). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int sum_int(int n, const int *x)
{
    int s = 7;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

/* Magnitudes (LLVM's llvm.abs) summed: halved first, so that none overflows. */
int sum_magnitudes(int n, const int *x)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += abs(x[i] >> 1);
    return s;
}

/* The values of a band of each row of seven, the counter used as a value: the band is two
   tests joined by && (LLVM's `select i1 %a, i1 %b, i1 false`), counted as a number. */
int band_sum(int n, const int *x)
{
    int s = 0;
    for (long t = 0; t < (long)n; t++) {
        long i = t / 7, j = t % 7;
        s += (j >= i % 7 && j < 5) * x[t];
    }
    return s;
}

long sum_long(int n, const int *x, const long *y)
{
    long s = -3;
    for (int i = 0; i < n; i++)
        s += (long)x[i] * y[i];
    return s;
}

int less_int(int n, const int *x)
{
    int s = 1000;
    for (int i = 0; i < n; i++)
        s -= x[i];
    return s;
}

unsigned product_unsigned(int n, const unsigned *x)
{
    unsigned p = 3;
    for (int i = 0; i < n; i++)
        p *= x[i] | 1u;
    return p;
}

int bits(int n, const int *x, int *and_out, int *or_out)
{
    int a = -1, o = 0, e = 0x55;
    for (int i = 0; i < n; i++) {
        a &= x[i] | 0x100;
        o |= x[i] & 0xf0f0;
        e ^= x[i];
    }
    *and_out = a;
    *or_out = o;
    return e;
}

int min_int(int n, const int *x)
{
    int m = 1 << 30;
    for (int i = 0; i < n; i++)
        m = x[i] < m ? x[i] : m;
    return m;
}

long max_long(int n, const long *y)
{
    long m = -(1L << 40);
    for (int i = 0; i < n; i++)
        if (y[i] > m)
            m = y[i];
    return m;
}

int count_positive(int n, const double *v)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += v[i] > 0.25;
    return c;
}

int count_below_unsigned(int n, const int *x, unsigned limit)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += (unsigned)x[i] < limit;
    return c;
}

long count_above_ulong(int n, const long *y, unsigned long floor)
{
    long c = 0;
    for (int i = 0; i < n; i++)
        c += (unsigned long)y[i] > floor;
    return c;
}

double max_unsigned_as_double(int n, const long *y)
{
    double m = 0.0;
    for (int i = 0; i < n; i++)
        m = fmax(m, (double)(unsigned long)y[i]);
    return m;
}

double max_rounded(int n, const double *v)
{
    double m = -1e300;
    for (int i = 0; i < n; i++)
        m = fmax(m, ceil(v[i] * 7.0) - trunc(v[i] * 5.0));
    return m;
}

double max_double(int n, const double *v)
{
    double m = -1e300;
    for (int i = 0; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

float min_float(int n, const float *w)
{
    float m = 1e30f;
    for (int i = 0; i < n; i++)
        m = fminf(m, w[i] * 2.0f);
    return m;
}

/* Nothing read: the operand is the same at every iteration (a value computed before the
   loop and hoisted out of it, as clang does with a call of a pure function). */
long repeat_sum(int n, long step)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += step;
    return s;
}

/* A literal term (TSVC's loops of constant terms): the total replaces the literal where
   the host folds the start in, not the literal itself. */
long literal_sum(int n)
{
    long s = 11;
    for (int i = 0; i < n; i++)
        s += 7;
    return s;
}

unsigned literal_product(int n)
{
    unsigned p = 5;
    for (int i = 0; i < n; i++)
        p *= 3u;
    return p;
}

double literal_quarters(int n)
{
    double s = 0.5;
    for (int i = 0; i < n; i++)
        s += 0.25; /* exact in any order below 2^50 terms */
    return s;
}

/* Lanes of 16 and 8 bits (llvm.smax.i16, llvm.smin.i8): folded in 32 bits by the
   generated kernels, then truncated. */
short max_short(int n, const short *h)
{
    short m = -32768;
    for (int i = 0; i < n; i++)
        if (h[i] > m)
            m = h[i];
    return m;
}

signed char min_chars(int n, const signed char *c)
{
    signed char m = 127;
    for (int i = 0; i < n; i++)
        if (c[i] < m)
            m = c[i];
    return m;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int mode = argc > 2 ? atoi(argv[2]) : 0;
    int *x = malloc(sizeof(int) * (size_t)(n + 1));
    long *y = malloc(sizeof(long) * (size_t)(n + 1));
    unsigned *u = malloc(sizeof(unsigned) * (size_t)(n + 1));
    double *v = malloc(sizeof(double) * (size_t)(n + 1));
    float *w = malloc(sizeof(float) * (size_t)(n + 1));
    short *h = malloc(sizeof(short) * (size_t)(n + 1));
    signed char *c = malloc((size_t)(n + 1));
    unsigned state = 2463534242u;
    for (int i = 0; i < n; i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        x[i] = mode ? (int)state : (int)(state % 2001) - 1000;
        y[i] = mode ? (long)state * 1000003L - (1L << 40) : (long)(state % 77) - 30;
        u[i] = mode ? state : state % 5 + 1;
        v[i] = (double)(state % 1000) / 1000.0 - 0.5;
        w[i] = (float)(state % 333) - 100.0f;
        h[i] = mode ? (short)state : (short)(state % 601) - 300;
        c[i] = mode ? (signed char)(state >> 3) : (signed char)(state % 51) - 25;
    }
    int and_out = 0, or_out = 0;
    int e = bits(n, x, &and_out, &or_out);
    printf("sum_int %d\n", sum_int(n, x));
    printf("sum_magnitudes %d\n", sum_magnitudes(n, x));
    printf("band_sum %d\n", band_sum(n, x));
    printf("sum_long %ld\n", sum_long(n, x, y));
    printf("less_int %d\n", less_int(n, x));
    printf("product_unsigned %u\n", product_unsigned(n, u));
    printf("bits %d %d %d\n", and_out, or_out, e);
    printf("min_int %d\n", min_int(n, x));
    printf("max_long %ld\n", max_long(n, y));
    printf("count_positive %d\n", count_positive(n, v));
    printf("count_below_unsigned %d\n", count_below_unsigned(n, x, 500u));
    printf("count_above_ulong %ld\n", count_above_ulong(n, y, 20ul));
    printf("max_unsigned_as_double %a\n", max_unsigned_as_double(n, y));
    printf("max_rounded %a\n", max_rounded(n, v));
    printf("max_double %a\n", max_double(n, v));
    printf("min_float %a\n", (double)min_float(n, w));
    printf("repeat_sum %ld\n", repeat_sum(n, mode ? (long)state * 7919L : 3L));
    printf("literal_sum %ld\n", literal_sum(n));
    printf("literal_product %u\n", literal_product(n));
    printf("literal_quarters %a\n", literal_quarters(n));
    printf("max_short %d\n", max_short(n, h));
    printf("min_chars %d\n", min_chars(n, c));
    free(h);
    free(c);
    free(x);
    free(y);
    free(u);
    free(v);
    free(w);
    return 0;
}
