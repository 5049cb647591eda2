#include "fuzz.h"

double fz_checksum_double(const double *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}


int main(int argc, char **argv)
{
    if (argc < 5) return 2;
    int steps = atoi(argv[1]);
    int p0_m = atoi(argv[2]);
    int p0_n = atoi(argv[3]);
    int p0_k = atoi(argv[4]);
    double *p0_a = (double *)malloc(sizeof(double) * (size_t)((p0_m * (p0_k + 0)) + 8));
    if (!p0_a) return 1;
    for (long i = 0; i < (long)(p0_m * (p0_k + 0)) + 8; i++)
        p0_a[i] = (double)((((long)(i) * 5 + 2) % 8)) * 0.125;
    double *p0_b = (double *)malloc(sizeof(double) * (size_t)((p0_k * (p0_n + 3)) + 8));
    if (!p0_b) return 1;
    for (long i = 0; i < (long)(p0_k * (p0_n + 3)) + 8; i++)
        p0_b[i] = (double)((((long)(i) * 11 + 2) % 8)) * 0.125;
    double *p0_c = (double *)malloc(sizeof(double) * (size_t)((p0_m * (p0_n + 3)) + 8));
    if (!p0_c) return 1;
    for (long i = 0; i < (long)(p0_m * (p0_n + 3)) + 8; i++)
        p0_c[i] = (double)((((long)(i) * 11 + 1) % 8)) * 0.125;
    for (int t = 0; t < steps; t++) {
        {
        struct p0_mat A = { p0_m, p0_k, (p0_k + 0), p0_a };
        struct p0_mat B = { p0_k, p0_n, (p0_n + 3), p0_b };
        struct p0_mat C = { p0_m, p0_n, (p0_n + 3), p0_c };
        p0_gemm(1.0, 0.5, &A, &B, &C);
        }
        for (long j = t % 3; j < ((long)(p0_k * (p0_n + 3))); j += 5) p0_b[j] = (double)((((long)((j) + t) * 7 + 0) % 8)) * 0.125;
        printf("p0_a %.10g\n", fz_checksum_double(p0_a, (long)(p0_m * (p0_k + 0)) + 8));
        printf("p0_b %.10g\n", fz_checksum_double(p0_b, (long)(p0_k * (p0_n + 3)) + 8));
        printf("p0_c %.10g\n", fz_checksum_double(p0_c, (long)(p0_m * (p0_n + 3)) + 8));
        printf("p0_a[part] %.10g\n", fz_checksum_double(p0_a + t % 4, (long)(p0_m * (p0_k + 0)) / 2));
    }
    printf("done\n");
    return 0;
}
