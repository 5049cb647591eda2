#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

void p0_reduce(const double *x, const double *y, size_t lo, size_t hi, double *res);

void p0_reduce(const double *x, const double *y, size_t lo, size_t hi, double *res)
{
    double s0 = 0;
    double s1 = 0;
    double s2 = -1e+30;
    for (size_t i = lo; i < hi; i += 2) {
        s0 += x[i];
        s1 += x[i] * y[i];
        s2 = x[i] > s2 ? x[i] : s2;
    }
    res[0] = s0;
    res[1] = s1;
    res[2] = s2;
}

double fz_checksum_double(const double *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}

double *fz_host0_array;
void fz_host0(long len, int t)
{
    for (long j = len - 1 - t % 2; j >= 0; j -= 5)
        fz_host0_array[j] = (double)((((long)((j) + t) * 11 + 3) % 8)) * 0.125;
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    double *p0_x = (double *)malloc(sizeof(double) * (size_t)((p0_n) + 8));
    if (!p0_x) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (double)((((long)(i) * 3 + 2) % 8)) * 0.125;
    double *p0_y = (double *)malloc(sizeof(double) * (size_t)((p0_n) + 8));
    if (!p0_y) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_y[i] = (double)((((long)(i) * 5 + 0) % 8)) * 0.125;
    for (int t = 0; t < steps; t++) {
        {
        double p0_res[3];
        p0_reduce(p0_x + 1, (t % 2 == 1 ? p0_x + 1 : p0_y), (p0_n < 1 ? p0_n : 1), p0_n, p0_res);
        printf("p0_res0 %.10g\n", (double)(p0_res[0]));
        printf("p0_res1 %.10g\n", (double)(p0_res[1]));
        printf("p0_res2 %.10g\n", (double)(p0_res[2]));
        }
        {
            fz_host0_array = p0_y;
            fz_host0(((long)(p0_n)), t);
        }
        printf("p0_x %.10g\n", fz_checksum_double(p0_x, (long)(p0_n) + 8));
        printf("p0_y %.10g\n", fz_checksum_double(p0_y, (long)(p0_n) + 8));
    }
    printf("done\n");
    return 0;
}
