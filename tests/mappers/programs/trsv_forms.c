/* Triangular solves by rows (blas.idl's TRSV) for the differential tests of
 * mappers/targets/trsv.py:
 *
 *   trsv_forms N SEED MODE
 *
 * Every kernel solves T x = b for x (n), T (n x n, ld n) from the block; main prints the
 * whole block holding x, b, T and a spare element, so a call writing outside x shows.
 * MODE 0: x, b and T separate (each TRSV kernel one call);
 *      1: T is x itself (the guard must decline);
 *      2: b is x shifted by one element (decline: neither x itself nor apart from it);
 *      3: a zero on T's diagonal (the runtime must decline: results not finite);
 *      4: x and b near overflow (the runtime must decline: some order of the sums may
 *         overflow where the loop's does not, or the reverse);
 *      5: x and b modest, T huge off the diagonal: N >= 64, the first and last 32 rows
 *         solve to 1, and every other row's products with them are 16 terms of +DBL_MAX/10
 *         then 16 of -DBL_MAX/10, which overflow added in the loop's order and cancel
 *         added in blocks (the runtime must decline). */
#include <stdio.h>
#include <stdlib.h>

/* lower, the sum in a register from b, divided */
void forward(int n, const double *T, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int j = 0; j < i; j++)
            s -= T[i * n + j] * x[j];
        x[i] = s / T[i * n + i];
    }
}

/* upper, the sum kept in x, in place, rows counting down, divided after */
void backward_in_place(int n, const double *T, double *x)
{
    for (int i = n - 1; i >= 0; i--) {
        for (int j = i + 1; j < n; j++)
            x[i] -= T[i * n + j] * x[j];
        x[i] /= T[i * n + i];
    }
}

/* lower, unit diagonal, in place, the sum in a register */
void forward_unit(int n, const double *T, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = x[i];
        for (int j = 0; j < i; j++)
            s = s - T[i * n + j] * x[j];
        x[i] = s;
    }
}

/* lower, b copied into x first, the sum kept in x, divided after */
void forward_stored(int n, const double *T, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= T[i * n + j] * x[j];
        x[i] = x[i] / T[i * n + i];
    }
}

/* float, upper from b, rows counting down */
void backward_float(int n, const float *T, const float *b, float *x)
{
    for (int i = n - 1; i >= 0; i--) {
        float s = b[i];
        for (int j = i + 1; j < n; j++)
            s -= T[i * n + j] * x[j];
        x[i] = s / T[i * n + i];
    }
}

/* lower with the rows counting down: it reads rows not yet solved, no solve (must not
   be replaced) */
void lower_downwards(int n, const double *T, const double *b, double *x)
{
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int j = 0; j < i; j++)
            s -= T[i * n + j] * x[j];
        x[i] = s / T[i * n + i];
    }
}

/* divided by T[i][0], not the diagonal (the guard must decline) */
void wrong_diagonal(int n, const double *T, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int j = 0; j < i; j++)
            s -= T[i * n + j] * x[j];
        x[i] = s / T[i * n];
    }
}

/* lower from b, the inner loop counting down (j = i - 1 .. 0): the same products,
   subtracted in another order */
void forward_inner_down(int n, const double *T, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int j = i - 1; j >= 0; j--)
            s -= T[i * n + j] * x[j];
        x[i] = s / T[i * n + i];
    }
}

/* upper in place, the rows and the inner loop both counting down (j = n - 1 .. i + 1) */
void backward_inner_down(int n, const double *T, double *x)
{
    for (int i = n - 1; i >= 0; i--) {
        double s = x[i];
        for (int j = n - 1; j > i; j--)
            s -= T[i * n + j] * x[j];
        x[i] = s / T[i * n + i];
    }
}

/* the inner loop counting down but stopping before column 0: not the solve (the guard
   must decline) */
void forward_inner_down_short(int n, const double *T, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int j = i - 1; j > 0; j--)
            s -= T[i * n + j] * x[j];
        x[i] = s / T[i * n + i];
    }
}

/* multiplied by the diagonal's reciprocal: s * (1 / T[i][i]) rounds twice where BLAS
   divides once, so it is not the solve BLAS computes (not reported) */
void forward_reciprocal(int n, const double *T, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int j = 0; j < i; j++)
            s -= T[i * n + j] * x[j];
        x[i] = s * (1.0 / T[i * n + i]);
    }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

/* MODE 5's T, x and b (lower solves read the first 32 columns, upper ones the last 32) */
static void huge_off_diagonal(int n, double *T, double *x, double *b)
{
    const double h = 1.79e307;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 32; k++) {
            int first = i < 32, last = i >= n - 32;
            T[i * n + k] = i == k ? 1.0 : first ? 0.0 : k < 16 ? h : -h;
            T[i * n + n - 1 - k] = i == n - 1 - k ? 1.0 : last ? 0.0 : k < 16 ? h : -h;
        }
    }
    for (int k = 0; k < 32; k++) {
        x[k] = b[k] = 1.0;
        x[n - 1 - k] = b[n - 1 - k] = 1.0;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    state = argc > 2 ? (unsigned long long)atoll(argv[2]) : 1;
    int mode = argc > 3 ? atoi(argv[3]) : 0;
    int total = 2 * n + n * n + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    if (!block || !fblock) return 1;
    double *x = block, *b = block + n, *T = block + 2 * n + 1;
    const double *t_read = mode == 1 ? x : T;
    const double *b_read = mode == 2 ? x + 1 : b;
    float *fx = fblock, *fb = fblock + n, *fT = fblock + 2 * n + 1;
    const float *ft_read = mode == 1 ? fx : fT;
    const float *fb_read = mode == 2 ? fx + 1 : fb;
    for (int kernel = 0; kernel < 11; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* well conditioned: a diagonal of 2 to 3, the rest at most 1/n */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                T[i * n + j] = i == j ? 2.5 + 0.5 * T[i * n + j] : T[i * n + j] / (n + 1);
        if (mode == 3 && n > 1) T[(n / 2) * n + n / 2] = 0.0;
        if (mode == 4) /* right-hand sides near overflow */
            for (int t = 0; t < 2 * n; t++) block[t] *= 1e308;
        if (mode == 5 && n >= 64)
            huge_off_diagonal(n, T, x, b);
        for (int t = 0; t < total; t++) fblock[t] = (float)block[t];
        switch (kernel) {
        case 0: forward(n, t_read, b_read, x); break;
        case 1: backward_in_place(n, t_read, x); break;
        case 2: forward_unit(n, t_read, x); break;
        case 3: forward_stored(n, t_read, b_read, x); break;
        case 4: backward_float(n, ft_read, fb_read, fx); break;
        case 5: lower_downwards(n, t_read, b_read, x); break;
        case 6: wrong_diagonal(n, t_read, b_read, x); break;
        case 7: forward_inner_down(n, t_read, b_read, x); break;
        case 8: backward_inner_down(n, t_read, x); break;
        case 9: forward_inner_down_short(n, t_read, b_read, x); break;
        case 10: forward_reciprocal(n, t_read, b_read, x); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, kernel == 4 ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
