// corpus: TRSV, float forward solve by rows of a Volterra integral equation discretised by the trapezoid rule (a dense lower triangular system), float ** row tables into one block, b copied into x first and the sum kept in x, divided after; many forcing functions solved with the same matrix
// args: test=48 5 bench=2000 1600
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

/* T x = b for x, T lower triangular (its strictly upper triangle never read), row by row:
   x[i] starts as b[i], takes off the products with the values already solved, and is
   divided by the diagonal. */
void forward_rows(int n, float **T, const float *b, float *x)
{
    for (int i = 0; i < n; i++) {              // expect: TRSV in forward_rows
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= T[i][j] * x[j];
        x[i] = x[i] / T[i][i];
    }
}

/* rows x cols matrix as a table of row pointers into one block, rows ld = cols + 3 apart;
   the 3 padding entries of each row hold `pad` */
float **alloc_rows(int rows, int cols, float pad)
{
    int ld = cols + 3;
    float **r = malloc((size_t)rows * sizeof *r);
    float *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++) {
        r[i] = block + (size_t)i * (size_t)ld;
        for (int c = cols; c < ld; c++)
            r[i][c] = pad;
    }
    return r;
}

void free_rows(float **r)
{
    free(r[0]);
    free(r);
}

/* the kernel of the equation u(t) = f(t) + lambda * integral_0^t k(t, s) u(s) ds */
static float kernel(float t, float s)
{
    return expf(-(t - s)) * (1.0f + 0.5f * s);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int nf = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 2) n = 2;
    if (nf < 1) nf = 1;

    const float lambda = 0.75f, h = 1.0f / (float)(n - 1);
    float **T = alloc_rows(n, n, 9.0e3f);
    float *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
    if (!b || !x) return 1;

    /* trapezoid weights h/2 at both ends of [0, t_i], h inside: (I - lambda h W K) u = f,
       the diagonal just below one, the strictly upper triangle a value never read */
    for (int i = 0; i < n; i++) {
        float t = (float)i * h;
        for (int j = 0; j < n; j++) {
            float s = (float)j * h;
            float w = (j == 0 || j == i) ? 0.5f * h : h;
            if (j < i)
                T[i][j] = -lambda * w * kernel(t, s);
            else if (j == i)
                T[i][j] = i == 0 ? 1.0f : 1.0f - lambda * w * kernel(t, t);
            else
                T[i][j] = -7.0f;
        }
    }

    /* forcing functions f_m(t) = 1 + a_m t + c_m cos(m t), all positive */
    double total = 0.0, weighted = 0.0, endpoint = 0.0;
    for (int m = 0; m < nf; m++) {
        float a = 0.25f * (float)(m % 7), c = 0.5f / (float)(1 + m % 5);
        for (int i = 0; i < n; i++) {
            float t = (float)i * h;
            b[i] = 1.0f + a * t + c * cosf((float)m * t);
        }
        forward_rows(n, T, b, x);
        double sx = 0.0, wx = 0.0;
        for (int i = 0; i < n; i++) {          // expect: Reduction in main
            sx += x[i];
            wx += (double)x[i] * (double)(1 + i % 9);
        }
        total += sx;
        weighted += wx;
        endpoint += x[n - 1];
    }

    double pad = 0.0;
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        pad += T[i][n] + T[i][n + 2];

    printf("n forcings = %d %d\n", n, nf);
    printf("sum of u = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("u(1) summed = %.10g\n", endpoint);
    printf("padding = %.10g\n", pad);
    printf("u[0] = %.10g  u[n/2] = %.10g  u[n-1] = %.10g\n",
           (double)x[0], (double)x[n / 2], (double)x[n - 1]);
    free_rows(T); free(b); free(x);
    return 0;
}
